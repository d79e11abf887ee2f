"""What fixed a failed tool call: the remedy, and the call that confirms it.

These rules are pure: they take the calls of one session in order and say, for
each failed call, what happened next. The build stores what they say in the
`fixes` table (db.refresh_fixes), and find_past_fix, the hook, `pastfix find`
and the MCP tools show it. Bump pastfix.db.FIX_VERSION whenever a rule changes: the
next build recomputes every stored fix.

**The window.** What follows a failure is read among the later calls of the same
agent (the main thread, or one subagent), up to the second prompt the user typed
after it (PROMPTS_CROSSED: a "try again" or "continue" often comes in between; a slash
command, the `[Request interrupted by user]` Claude Code writes after a rejected call and
a reply that only agrees, `yes go ahead`, are none: db._AGREED), and at most WINDOW_CALLS
of them: after that the agent has moved on. After a
call the user rejected or stopped, the prompts before the agent's next call count as one
(a question, then what to do instead), and a retry that met the same obstacle again
(rejected again, or with this error) starts the count anew (see _window). A subagent of
Claude Code 1.0 has no id: the build tells its thread by its messages' parent links. A
subagent's edit its thread did not fix may be made by the main agent after the subagent's
last call (a subagent without a Write tool): the main thread's edit of that file confirms it;
a command the subagent was not allowed to run, the main thread's retry of it.
The other way round, the main thread's window holds the calls its Task's subagents made
before its next call: a subagent asked to fix the error makes the remedy's steps.

**The confirmation.** The first successful call in the window that does what the
failed call tried to do:

- *a retry*: the same tool on the same file, or a shell command with the same
  intent: the same program (found behind `sudo`, `env X=1`, `timeout 5`, `npx`,
  `uv run`, `python -m`, `bundle exec`, `nix develop -c`, `bash -lc` ..., and by its
  name when called by its full path) and subcommand (`git push`, `npm run build`), and
  arguments that overlap or where one side has none. `npm run build` is not `npm run test`.
  When the program refused the arguments themselves (`--short-name requires a value`,
  `unknown flag`, `usage:`; not of a `--help` asked for), a run of it with other arguments
  soon after is the retry, though they share none; so is one soon after that replaced
  the one word the error quotes by a new one, and no other (`git log --oneline 2026-01-25`: `fatal:
  ambiguous argument '2026-01-25'`, then `git log --oneline branch-2026-01-25`), or did
  its work on the same operands by another subcommand that needs no such word (`git reset
  HEAD .` before the first commit, then `git rm -r --cached .`), or wrote out the path whose
  variable the shell left as it was (`dir "%APPDATA%\\Claude\\logs"` in Git Bash, then `ls`
  of `C:\\Users\\me\\AppData\\Roaming\\Claude\\logs`).
  An `echo` or `printf` that labels a look's output (`echo "=== x ==="`) is no intent
  of it, and PowerShell's blocks run what is in them (`try { ... } catch { ... }`,
  `foreach (...) { ... }`: no program `try`); a group's parentheses and a PowerShell
  variable given a command's output are not the program (`$lines = (Get-Content x)
  -split ...` reads x), and PowerShell's expressions (`$lines[$i]`, `$n = $x.Length`) do
  no more than the look they work on; an interpreter given its code inline
  (`python3 -c`, `python3 - <<EOF`, `node <<'JS'`) is retried only by code that holds
  half its words, on the same paths (a script that imports a helper to look at the file
  the failed one read does not run it again);
  what `find -exec` runs is an intent of its own. MultiEdit and Edit are one tool. A
  tool without a file or command (Task, Skill, ExitPlanMode, an MCP tool) called again is
  a retry, changed when its input is; after the user rejected or stopped it, only when it
  asks for the same thing (its input's first lines share half their words; a search, its
  pattern):
  asked for something else, it was the user's "no"; a question (AskUserQuestion) the
  user rejected or cancelled was answered in the chat, and has no retry. An edit the
  user rejected and then said what to do instead is redone by the agent's next edit, on
  the file they named, only when it writes much of what the rejected one was to
  (_same_edit): another text answers the next task; a Read, only by a Read of that file,
  another file being the next task's. A call the user rejected with words that name what
  to do instead (a command they quoted, a path or a name of code they gave, or to revert),
  then done, is fixed by that command's run, worked around by the call that acted on that
  name or put the rejected edit's file back (_follows_said). An edit the user rejected
  or stopped is redone by an edit of that file only when it writes the same (_same_edit),
  and the edits of it made beside that (what the user asked for too) are no steps; an edit
  whose text was not found, only by one that changes the same words (_same_change). A call
  with `--version` or `--help` is no retry of a run, nor a run of it (but a help the program
  refused, not having the subcommand, is retried by a run of it once made: _runs_help_refused);
  of a subcommand that
  is a noun (`gh pr checks`), the verb is part of it. An output filter's own error (`ss |
  awk '...'`: `awk: ... fatal`) is retried only by a call piping into that filter with half its
  script's words (into the file the failed call was to write, if any), on another source
  another way: the
  command before the filter did not fail. Of a failed `a && b && c`, only the command
  its key line names failed: those before it ran and did their part, those after it never
  ran, and neither alone is a retry (`npm run build && pm2 restart x` failed in the
  build; `pm2 restart x` alone rebuilt nothing), unless the command named only looked
  (`which x && x ...`) or removed a file that was not there. A retry that failed in a
  later part of its chain than the one this error came from got past it: `&&` ran that
  part only once the one before succeeded, so it confirms the fix, as does one that exited 0
  though its last part failed behind a pipe (`pip install x && pytest | head` refused by PEP
  668, then the same in a venv, its tests failing: _got_past_behind); so does a search that
  could not run (`rg: unrecognized flag -`), run again, that found nothing (exit 1, no
  output: it ran and answered). A retry run outside Codex's sandbox, after the sandbox
  refused the command, that failed on something else got past the refusal: when no later
  call confirms it, that retry does (_left_sandbox); so does a retry with arguments the
  program took, after it refused the failed call's (`taskkill /F`, its `/F` made a path by
  Git Bash, then `taskkill //F` failing to find the process: _got_past_refusal), or its
  input the tool took, after it refused the failed call's (an AskUserQuestion given one
  option, then two, the user then dismissing it: _input_taken), and a
  retry the shell found the program for this time, after it did not (`cmake: command not
  found`, then `cmake .. && make` failing to compile: _found_now; not one whose shell did
  not find it again by another spelling, `.\\x\\x.exe` then `x\\x.exe` in Git Bash: the same
  obstacle, _not_found_again); run by the same words up to the program, in the same
  shell, what else it changed is no step: the program was there now, installed by a step
  or outside the session (_runs_by_the_same_word). A retry the user
  rejected or stopped (Codex's `aborted by user`) shows nothing of how it went, and
  confirms nothing (_UNFINISHED). An
  environment activated first (`. .venv/bin/activate &&`) and what a command cleared away
  first (`docker rm -f app;`, `rm -f x`, `pkill x`) are no intent shared; a push to
  another remote is no retry, and git's `unable to access '...'` names the push of a
  chain. A retry that left out the operand the error's key line names (or its folder: `git add a.ex
  priv/static/assets/x.css`, `The following paths are ignored ...: priv/static/assets`,
  then `git add a.ex`) is no fix when a later call of the
  window does the work on it after all (`git add -f priv/static/assets/x.css`): that call
  is, and leads the remedy, the retry a step of it (see _put_back_later). A file the retry
  renamed (`mv a.py b.py && python3 b.py`) is the file that failed. A file tool given a
  page's address for its path (`Path does not exist: https://...`) is retried on the file
  that holds a page of that site: a page fetch's result the agent kept, or one `curl -o`
  saved (_saved_copy). A script file piped
  into what runs it (`Get-Content x.ps1 -Raw | Invoke-Expression`, `cat x.sh | bash`) is
  retried by any run of that file (_same_script_run), and so is one read into a variable
  and given to what runs code (`$code = Get-Content x.ps1 -Raw`, then `powershell
  -EncodedCommand` of it: _fed_by_variable). A write_stdin that only polls
  is no retry of keys a closed stdin refused. A merge, rebase or cherry-pick that stopped
  on conflicts is concluded, never run again: the commit of the result, or its `--continue`,
  confirms it (_concludes); `git merge --abort` gives it up, no retry of it.
- *another way*, within the first ANOTHER_WAY_CALLS calls: another tool on the
  same file (`cat x` failed, then Read x; an Edit that did not apply, then a
  Write of the file; a Read of a file too large to read whole, then a Grep of
  it or of its folder, or the shell's grep of it, unless a Read of a part of it came
  soon after, the fix; a binary file, then a
  `python3 -c` script that opens it), the same file
  name in another folder (a Read of a file that does not exist, then a Read
  where a Glob found it; not when the file at the failed path
  was the one meant: too large, binary, not read yet; found so, the same tool made again
  with its path corrected is `fixed`: _path_corrected), a file inside a folder
  that was read as a file, or the folder listed (`ls`, `find`: for a file that
  does not exist they are the search that finds it, a step), the same program
  through another shell tool, another program or a file tool on the same paths when
  the first was not found (`tree`, then `find`; of a content search, `rg x a.sh`, only a view
  of them whole or a search of its words: _shows_whole; a Python that exited as the Microsoft
  Store's stand-in does, 49 with nothing said, was not found; code given inline, the paths
  it quotes, a module it imports not found too, and when it changes nothing a look of them
  is its way: _code_paths), the same search in the shell when Glob or
  Grep could not run (`spawn .../rg EACCES`, then `find -name` or `grep` of a
  word of its pattern), a file written by the shell after an edit was refused
  (`cat > x`, or a script whose code writes it and names it),
  or, for a file that does not exist, a Read in its folder after a search of it (a
  Glob's `**` over the folder too: `tests/**/*.py`, a step when the file read has another
  name);
  a folder read as a file, then a Glob of what is in it; a view in bash of a Windows path
  whose backslashes it took for escapes (`type C:\\x\\y.out 2>nul`, exit 1 and nothing
  else), then that file viewed by its path written otherwise (`cat /c/x/y.out`:
  _mangled_view); a shell look of a path not
  there (`ls -d pkg/*x*` exits 2, `sed: can't read net/x.mk`), then a find of its
  name or a look of that file name at another path; a script that was to write files,
  then the shell writing one of them; a find that failed, then a Glob of a name of its
  tests in its folder, and a listing of a pattern (`dir /s /b src\\*.js` in bash), then a
  Glob of it; a search or view of a path not there, then a call that uses that
  name at another path (`.arguments` for `arguments`, the listing that showed it a step);
  a Read of a file not there, then the listing that printed its name (before a Read of
  another file of its folder); two acts on one object by other verbs (`gh pr review`
  refused, then `gh pr merge`). A page fetch (WebFetch) of another page is
  another way when it is of the same site, and so is the same page by `curl` or `wget`, or
  a GitHub page's pull request, issue or run by `gh` and its number. An installer not
  found (`brew install yt-dlp`: `command not found: brew`), then another installing the
  same package (`pip3 install yt-dlp`). A container or cluster not there (`No such
  container: web`), then a command that made it by that name (`docker compose up -d web`).
  Another way after which the agent's next retry of the failed call failed with this error
  again did not reach its goal (_failed_again_later). A test runner not there (not found,
  its module missing, its install failed), then the tests run by another (`pytest: command
  not found`, then `python3 -m unittest discover`): that run is the whole way round.
  A command that could not run (its program not there, or the approval policy refused
  it), then a script whose code names half of what it named: inline (`node - <<'EOF'`), or
  a file written in the session and run, its write and install steps (_named_by_script).
  An install of a program the shell did not find that failed (`sudo apt-get install
  sqlite3`: sudo asked for a password) is worked around by what got past the program's
  absence after it (_install_given_up).
  A command left running that TaskStop could not stop, then a `kill` in the shell.
  A look of paths it was not let look at (`ls in '/home/me/.n8n' was blocked`), then a
  container that mounts them looking there (`docker run -v /home/me/.n8n:/mnt alpine ls
  /mnt`), its only step (_looked_in_container). cmd's `if exist x (type x) else (echo
  MISSING)` is the commands it guards (a view of x). A script whose line breaks were lost
  (`wc: echo: No such file`: the filter got the next line's words for files) ran as one
  line: a later run of one of its lines is another way, the script run whole its retry
  (_lines_joined). A Read of a file not there, then a Read of a file of the same stem and
  another kind that a listing before it printed (`script/core_parser.py`, then `ls parser/`
  and `parser/core_parser.cpp`: _read_as_listed). A scaffolder that could not run (`npm
  create vite@latest frontend`), then the shell writing its manifest in its folder (`cat >
  frontend/package.json`: _scaffolded_by_hand). A shell grep of a file not there, then the
  Grep tool's search of that file for the same pattern (_grepped). Codex's `wait` given a
  running command's session id for a cell (`exec cell 12556 not found`), then a write_stdin
  poll of that session, still running or not: it waited on the command (_polled_instead).
  A skill stopped at its own command (`Bash command failed for pattern "!`bun run test`"`),
  then that command run by the agent, or the step the skill is named after (`git commit` for
  `x:commit`: _skill_done_by_hand). An edit that could not apply (not read yet, its text not
  found) and was never made in its file, then most of its lines written into another file
  (_written_elsewhere: asked of failures nothing else fixed).

Codex's exec_command returns when its yield time is up; a command still running then
(`Process running with session ID N`, kind `running`) ends in a later write_stdin that
polls it (and holds its command): the exec_command takes that poll's outcome, and the poll
that saw it succeed is no call of its own. A failed poll is the same tool as
exec_command for a retry. A call sent beside a failure (before its result came back) is no
fix of it, unless it retries it after the agent had met its error already, from another
call (_met_before: a second process's poll timing out as the first had).

A search that found nothing (`rg x lib` exits 1 and prints nothing else, or a look whose
last command is a grep that exited 1, a look piped into one too: `docker ps -a | grep wiki`;
a find's non-zero status is an error, never that), or
that printed its matches and exited 2 over a
path it could not read (a broken `.gitignore` glob, a guessed file not there), is
confirmed only by the same search run again, or widened (case ignored, hidden files
searched, its glob given up for the folder it named, its pattern reworded around the word
it was after: _searched_reworded) and finding it: another pattern in the
same folder is another question, and so is a search of lines after one of file names
(_name_searches); one that printed nothing found nothing, whatever its status
(_printed_nothing). Another search program on the same words that printed what
it found worked around it (`rg --files -g '*.x.yaml'` skips hidden folders, `find -name`
does not); a pattern the search took for an option (`rg -n "--profiles="`) is its words
too (_searched). So did a view that printed the very file a search by name sought, no
wildcard in its name (`rg --files -g '.specify/memory/constitution.md'`, then `cat` of it:
_viewed_sought).
A shell look of a path its error says is not there (`sed: a/x.py: No such file`, zsh's
`no matches found: app/favicon*`) is confirmed only by a call that names that file (by
name, a long word of it, or its letters): `sed -n '1,200p'` of another file shares the
script, not the question, as a Read of another file is none; nor is a look of that name in
the folder when the path was above it (`ls ../../docs`, then `ls docs`: _looks_elsewhere), nor
one of that name in folders that leave out the failed path's own (`app/food-service/page.tsx`,
then `app/wholesaler/page.tsx`: _named_apart). A name with wildcards no file matched
(`specs/001-build-a-a???`) names its file by what it kept: a path that starts so (_kept_of_glob).
A search by a part of its name that lists it spelt otherwise (`a06-x.py` for `a06_x.py`)
worked around it (_found_spelt_otherwise); so did a listing in the folder of a search by a
name pattern that printed a name it matches (_listed_sought).
What a login shell's startup files printed is no part of any output here
(signatures.without_startup, applied by the build).

Paths are compared by their folders and file names, Windows ones (`C:\\Users\\...`) too,
and a command's `~/x` is a home folder's x (_from_home).

A confirming call whose output still holds the failure's key line did not
succeed (`npm test | tail` exits 0 when the tests fail), when its status may be another
program's (a pipe, `; echo done`, another tool: a command exited 0 by itself succeeded,
though it printed a warning that was the key line), nor one whose status was another's and
whose output says it crashed (a traceback, a panic) or that its check failed, or a check
whose verdict a filter cut off (`| head -5`, a search's `| rg -n x`: _cut_short), and one that masks
failures where the failed call did not (`|| true`, `|| echo ...`, `; exit 0`), or that
only took out a flag by which the failed call demanded what was not there (`--require-tasks`,
`--strict`, `-Werror`: _asks_less), papers over the error: neither confirms a fix, and the
search goes on; nor one whose
status was another's and whose program said it failed in its own voice (`sudo: a password
is required`, `npm ERR! 404`: _said_own_error), nor a command sent to the background that
a later look at its output saw fail (_failed_in_background). Nor does a command
whose output ends at a question no one answered (`? Would you like to use React Compiler?
› No / Yes`), nor one that printed only cmd's banner: neither ran what it was given, and
neither is a step (_ran_nothing). Nor does a rewrite
of inline code that prints (`python3 -c "... print(...)"`) that printed nothing, when a
rewrite soon after, of the failed code or of the silent one, printed: that one did what
the script was for, and confirms the fix (_printed_nothing_before).

**The remedy.** What made the difference, shown before the confirmation:

- the edits (Edit, MultiEdit, Write, NotebookEdit, apply_patch) between the
  failure and the confirmation, and the shell commands there that change state
  (a formatter, an install, a config or auth command, `mkdir`, `git pull
  --rebase`, ...): every command but those that only look (`ls`, `cat`, `grep`,
  `git status`, ...) or only check (test runners, linters, type checkers and
  builds run without a fix flag), and those that only record the work (`git
  add`, `git commit`, `git push`, `gh pr ...`, an issue tracker's `bd close`:
  RECORDS) unless the failure was that program's own, and those that said they did
  nothing (a pull `Already up to date.`, cmd's banner alone: _did_nothing); an environment
  activated for the commands after it (`source .venv/bin/activate && python -c ...`) is
  none of what they do;
- a Read of the file when the error was that it had not been read first (its first
  Read), or that the text an edit was to replace was not in it (`String to replace not found`,
  Copilot's `No match found`, Gemini's `0 occurrences found`): then the edit that
  applied, with the text the file has, is a step too, and edits of other files
  are none (a batch of edits refused together, each redone after its Read);
- the search that found the file, when the error lost track of a path (missing,
  or a folder used as a file) and the confirmation reads it elsewhere (not a look that
  printed only its `|| echo` fallback: it found nothing; not a Glob or Grep by its name
  when the file read has the name the failed Read gave it: the Read at its path is the
  fix, as after a `**` over its folder);
- the confirmation itself when it was changed: another flag, path, tool,
  `sudo`, the full path of the executable, another folder (`in app`: a `cd` of
  its command, or its tool's folder argument, Gemini's dir_path and Codex's
  workdir), another part of a file (a Read with `limit 50` after the file was too
  large to read whole), a Codex command run outside its sandbox (`with escalated
  permissions`). Its `change` says how, as the words taken out and put in
  (`-x +/usr/local/bin/x`), or `its code rewritten` for inline code and `its quoted text
  rewritten` for a quoted argument (`rails runner "..."`; see _rewritten), these not when
  a step came before it (an install, an edit): the check was run again after the fix;
  words a remedy step before it or another command of it by the same program and
  subcommand still work on were not taken out (`git add a x` refused for x, `git add a`,
  then `git add -f x`: `+-f`, see command_change).

When retries failed again before one succeeded, only what came between the last
retry that still showed this error and the first one that failed with another
counts: a test run that failed four times on four errors had four remedies (a run that
printed what the failed one did before its error, and more, then failed with the same
message, got further: another file's error). Unless nothing done after the last such retry
made the error go (only failed edits and looks: another writer did the rest), and each of
them showed fewer of its errors than the run before it: then the steps before them count
(_progress_from). That first
retry got past the error: when the confirmation ran it again unchanged, or changed it
again another way (a query rewritten on each error, inline code too: _keeps_change), or ran
it again beside other commands
(`rm -rf x;` first), its change is its step (a build run outside the sandbox, failing to
compile, then built as it was). A retry whose program refused its arguments (`unknown
flag: --command`) never ran: it got past nothing. A retry that failed with this error
about the file it, or a step before it, moved or copied this one's to (`mv README.md
README.md.bak && ...`, then `...: README.md.bak`) met the same obstacle, moved (_moved). A
command its own `pkill -f` killed (_killed_itself) is fixed by the retry without that
pkill: no edit between is a step of it; one that only looked after its kills did what it
was for, and was stopped (_stopped_by_own_pkill).

A command the agent ran again as it was, after the window's prompts, having done nothing
between but look and fail, is fixed by that rerun: the user fixed it outside the session
(in their own terminal: a chown, an install) and said so (_run_again). A command run
again as it was, that had failed with this very error too, is no step of this one's fix:
what let it through let this one through (`git init`, then `git config`, both refused for
Git not installed, both through once the user installed it: _not_let_through).

A failure that nothing fixed, whose next attempt (after only looks) failed with another
error and was then fixed in its window, has that attempt's fix: it got past this error
(_taken_over).

A retry of another failure sent beside this one (in one message, before either's result
came back) that does not redo this one fixed that failure: it is no step of this one
(_own_steps).

Steps that the error names (its file, its program, a word of its text such as
`Run 'mix format'`) come first, then the others in order; at most REMEDY_STEPS.
An unchanged retry with nothing in between is a fix with an empty remedy (a
flaky network, a server that had not started yet); after a host not reached (not
localhost), so is one with anything between but a setting of how to connect, and, after a
call the agent's own tool did not run for want of leave to (auto mode's classifier
`temporarily unavailable`: signatures' `undecided`), any retry, what it changed too, until
a retry ran and failed on its own error. A program
the shell did not find, never run again but installed (`brew install gh`, `apt-get
install gh`), is fixed by the install, its step; not a probe that only asked whether it is
there (`gh --version`, `which gh`: _only_probed), whose failure was its answer; the looks
beside such a probe (`pacman -Qq | grep -i x; which x`) are no part of what failed, and
a later look of the kind is no retry of it (_beside_probe).

**Outcomes.** `fixed` (a retry confirmed it), `worked around` (another way did),
`papered over` (only a masked call succeeded, of a call that did more than look:
_shell_only_looked; unless what its error said was not there was made after: _made_missing),
`already done` (an edit whose text was not found because an earlier edit of the file had
written it: already_made), `stopped`
(a command the agent stopped itself, with Ctrl-C: _stopped_on_purpose, or with a `pkill -f`
that killed its own shell too, only looks after it: _stopped_by_own_pkill), `answered` (a
look that nothing fixed whose failure was its answer: _answered; a file tool's, of a file
optional by its kind or written next: _looked_for_optional), `already so` (a call
that nothing fixed to bring about what already held, not redone nor undone: _already_so;
an edit that could not apply whose text a look after it showed in the file: _shown_made),
`approved` (a plan recorded as rejected that the user approved with "clear context", a
session implementing it: approved_plan), `declined` (a call the user rejected, so that it
never ran, or a look the user stopped or denied, that nothing made again: _declined),
`cancelled` (a look cancelled because a call sent beside it failed, that nothing ran again:
_cancelled_look) and `not fixed` (nothing in the window did). Only the first two claim a fix.
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import itertools
import json
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any, NamedTuple

from pastfix import agents, signatures
from pastfix.patterns import lazy

WINDOW_CALLS = 60
# Calls after a failure that nothing fixed whose edits the card lists.
NEARBY_CALLS = 10
# Of those, the steps taken next that the card lists (next_steps).
NEXT_STEPS = 3
# Prompts the user typed that a window may run past.
PROMPTS_CROSSED = 1
ANOTHER_WAY_CALLS = 30
# Lines of a later failure's output searched for this one's error.
PERSIST_LINES = 300
REMEDY_STEPS = 8
# How much of a changed retry's words its `change` shows.
CHANGE_WORDS = 8
CHANGE_CHARS = 200

FIXED = "fixed"
# What a Codex retry run outside its sandbox changed.
ESCALATED = "with escalated permissions"
WORKED_AROUND = "worked around"
PAPERED_OVER = "papered over"
NOT_FIXED = "not fixed"
# An edit whose text was not found because an earlier edit had written what it was to write.
ALREADY_DONE = "already done"
# A command the agent stopped itself (_stopped_on_purpose, _stopped_by_own_pkill): its exit
# status is that stop.
STOPPED = "stopped"
# A look that nothing fixed whose failure was its answer (_answered): a search that found
# nothing, a probe of a program not installed, a look at a path not there.
ANSWERED = "answered"
# A call to bring about what already held (_already_so): a file to remove gone already, a
# process to stop not running, a folder or branch to make there already.
ALREADY_SO = "already so"
# A plan the user rejected in form only: Claude Code records "clear context and implement"
# as a rejection of ExitPlanMode, and a new session implements the plan (approved_plan).
APPROVED = "approved"
# A call the user rejected, so that it never ran, or a look they stopped or denied, that
# nothing made again (_declined).
DECLINED = "declined"
# A look cancelled because a call sent beside it failed, that nothing ran again
# (_cancelled_look).
CANCELLED = "cancelled"
CLAIMS_FIX = frozenset({FIXED, WORKED_AROUND})

# What each tool does, from every agent's entry in pastfix.agents (one home per agent).
EDIT_TOOLS = agents.tools(agents.EDIT)
SHELL_TOOLS = agents.tools(agents.SHELL)
READ_TOOLS = agents.tools(agents.READ)
FILE_TOOLS = READ_TOOLS | EDIT_TOOLS
SEARCH_TOOLS = agents.tools(agents.SEARCH)
PLAN_TOOLS = agents.tools(agents.PLAN)
WEB_SEARCH_TOOLS = agents.tools(agents.WEB_SEARCH)
# Calls that are never a step taken next (next_steps): those that look, plan or search,
# that watch a command left running (BashOutput, KillShell) and read a page (WebFetch).
_NOT_STEPS = (
    READ_TOOLS
    | SEARCH_TOOLS
    | PLAN_TOOLS
    | WEB_SEARCH_TOOLS
    | agents.tools(agents.WATCH)
    | frozenset({"WebFetch"})
)

# PowerShell's cmdlets whose verb only looks or shapes output (`Get-Item`, `Test-Path`,
# `Select-Object`, `Out-Null`): a chain that downloads a file and then shows it with
# `Get-Item` was "fixed" by a `Get-Item` of that file alone (ninth held-out set, Codex on
# Windows), as the look it is was taken for the chain's work.
_POWERSHELL_LOOK = lazy(
    r"(?:get|test|select|where|sort|format|measure|show|find|resolve|compare)-[a-z]+"
    r"|write-(?:host|output)|out-(?:null|string|host|default)",
    re.IGNORECASE,
)


class _Looks(frozenset[str]):
    """Program names that only look, and PowerShell's looking cmdlets whatever their case."""

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or (
            isinstance(name, str) and "-" in name and bool(_POWERSHELL_LOOK.fullmatch(name))
        )


# Programs that only look: never a remedy, never a confirmation of a command.
LOOK = _Looks(
    "ls cat head tail less more grep egrep fgrep rg ag ack find fd tree wc pwd echo printf which"
    " type whereis file stat du df ps top env printenv date whoami id uname hostname sort uniq"
    " cut diff cmp jq yq test [ true false sleep man history lsd eza exa realpath readlink"
    " basename dirname nl dir"
    " lsof netstat ss nproc free uptime tldr column xxd od hexdump strings md5sum sha256sum"
    " shasum open xdg-open dpkg-query apt-cache pg_lsclusters"
    # what an archive or a binary holds (`javap -p Item$Settings.class`, `nm`, `ldd`):
    # looks in a jar of a game's classes shown as steps of a compile error's fix, set 36
    " javap nm objdump readelf otool ldd zipinfo"
    # cmd's grep (`cmd /c findstr /n "def f" a\\b.py`, a look for a patch's context shown as
    # the step of its fix: thirty-seventh held-out set, Codex on Windows)
    " findstr".split()
)
# Programs whose flag says they only look (`dpkg -l`, `rpm -qa`, `pacman -Qi`).
LOOK_FLAGS = {
    "dpkg": frozenset(
        "-l -L -s -S -p --list --listfiles --status --search --print-avail --get-selections".split()
    ),
    "rpm": frozenset("-q -qa -qi -ql -qf --query".split()),
    "pacman": frozenset("-Q -Qi -Ql -Qs -Qo -Qq -Qe -Qqe -Qm -Qqm -Ss -Si".split()),
    # node's print mode: the value of an expression, asked (`node -p "require('./node_modules/
    # typescript/package.json').name"` shown as a step of a missing module's fix:
    # thirty-third held-out set)
    "node": frozenset({"-p", "--print"}),
    # the firewall's rules, listed (`sudo iptables -L INPUT -n`): set 37
    "iptables": frozenset("-L -S --list --list-rules -nL -vL -nvL -vnL -Ln -Lnv".split()),
    # an archive's list of what it holds (`tar -tzf`, `unzip -l`, `jar -tf`), set 36
    "tar": frozenset("-t -tf -tzf -tvf -tvzf -tzvf -tjf -tJf -tvjf --list".split()),
    "unzip": frozenset({"-l", "-Z", "-v"}),
    "jar": frozenset({"-tf", "-tvf"}),
}
# Subcommands that only look, of programs that can also change things.
LOOK_SUBCOMMANDS = {
    "git": frozenset(
        "status log diff show branch remote rev-parse ls-files blame describe shortlog"
        " reflog grep config-get ls-remote".split()
    ),
    # (`run` alone, no script named, lists the scripts: `yarn run | grep test`)
    "npm": frozenset("ls list view info outdated search why explain help config-get run".split()),
    "yarn": frozenset({"run"}),
    "pnpm": frozenset({"run"}),
    "bun": frozenset({"run"}),
    "pip": frozenset("show list freeze check search index".split()),
    "docker": frozenset("ps logs inspect images version info".split()),
    "kubectl": frozenset("get describe logs explain version".split()),
    "gh": frozenset("view list status diff checks".split()),
    "cargo": frozenset("tree metadata search".split()),
    "brew": frozenset("list info search".split()),
    "apt": frozenset("list show search policy".split()),
    "mix": frozenset("help hex.info hex.outdated hex.search deps.tree".split()),
    # the same lists with the dash left out (`jar tf x.jar`, `tar tzf x.tgz`)
    "jar": frozenset({"tf", "tvf"}),
    "tar": frozenset("t tf tzf tvf tvzf tzvf tjf tJf tvjf".split()),
}
# Subcommands that only look, whatever the program (`bd list`, `gh pr view`, `kubectl get`).
LOOK_ANY = frozenset(
    "list ls show status view info get describe search help ready version whoami log logs"
    " diff inspect outdated doctor --version --help".split()
)
# Flags that make a fixer only check: `mix format --check-formatted`, `black --check`.
_CHECK_FLAG = lazy(r"^--?(?:check\S*|dry-run|diff|list-different|verify)$")
# Programs and subcommands that check without changing: they confirm, never remedy.
CHECK = frozenset(
    "pytest jest vitest mocha tsc mypy pyright flake8 pylint eslint ruff shellcheck rspec"
    " phpunit ava tap karma playwright cypress hadolint golangci-lint rubocop credo dialyzer"
    " stylelint biome knip vue-tsc svelte-check oxlint markdownlint yamllint swiftlint ktlint"
    " tflint depcheck tox nox unittest nose2 nosetests".split()
)
CHECK_SUBCOMMANDS = {
    "cargo": frozenset("check test build clippy bench run".split()),
    "go": frozenset("test build vet run".split()),
    "mix": frozenset("test compile credo dialyzer run".split()),
    "npm": frozenset("test run-script t".split()),
    "yarn": frozenset("test".split()),
    "pnpm": frozenset("test".split()),
    "make": frozenset("test check lint build all".split()),
    "ruff": frozenset("check".split()),
    "dotnet": frozenset("build test".split()),
    "gradle": frozenset("test build check".split()),
    "mvn": frozenset("test verify compile package".split()),
    "python": frozenset(),
    "deno": frozenset("test check lint".split()),
    "bun": frozenset("test".split()),
    "flutter": frozenset("test analyze".split()),
    "dart": frozenset("test analyze".split()),
    "swift": frozenset("test build".split()),
    "terraform": frozenset("validate plan".split()),
}
# Package managers whose other subcommands run a script (`npm run build`, `yarn test`).
PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
# The subcommands of the package managers of CHECK_SUBCOMMANDS that change what is
# installed, linked, built or logged in (`npm ci`, `yarn add x`, `npm rebuild`, `npm
# login`): a remedy, where a script they run (`npm run build`, `npm test`) checks; and
# those that do with the word after them (`npm config set`, `npm cache clean`).
PACKAGE_CHANGES = frozenset(
    "i install ci add remove rm uninstall un update up upgrade rebuild link unlink dedupe"
    " prune login adduser logout".split()
)
PACKAGE_CHANGES_WITH = {"config": {"set", "delete", "rm"}, "cache": {"clean"}, "audit": {"fix"}}
# Commands that record the work (a commit, a push, an issue tracker's update) rather than
# change what a failed call met: never a remedy, but for a failure of that same program
# (`git add` before a `git commit` that had nothing to commit is one).
RECORDS = {
    "git": frozenset("add commit push tag notes".split()),
    "gh": frozenset("pr issue release".split()),
    "bd": None,  # beads, an agents' issue tracker: every subcommand
}
# Words that turn a checker into a fixer: `eslint --fix`, `ruff check --fix`.
FIX_FLAGS = frozenset({"--fix", "--write", "-w", "--fix-only", "--autofix", "-a"})
# Script names of npm, yarn, pnpm and make that change files rather than check them.
FIXING_SCRIPTS = lazy(r"^(?:format|fmt|prettier|lint:fix|fix|codegen|generate|install)\b")
# Wrappers in front of the program that does the work.
WRAPPERS = frozenset(
    "sudo doas env time nohup exec command nice ionice stdbuf timeout xargs npx bunx pnpx"
    " watch caffeinate dotenv dotenv-cli".split()
)
# The wrappers' options that take a value, the next word (`sudo -u postgres psql`: psql
# runs, as the postgres user; ninth held-out set, where `postgres` was taken for the program).
WRAPPER_VALUES = {
    "sudo": frozenset("-u -g -h -p -U -C -D -r -t -T --user --group --host --prompt".split()),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p", "--class", "--classdata", "--pid"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "xargs": frozenset("-I -n -L -P -d -s -E -a --max-args --max-procs --delimiter".split()),
    "watch": frozenset({"-n", "--interval"}),
    "caffeinate": frozenset({"-t", "-w"}),
    "time": frozenset({"-f", "-o", "--format", "--output"}),
    "exec": frozenset({"-a"}),
    # `npx dotenv-cli -e .env -- npx x --version` runs x with the variables of .env (a run
    # of `node -e` with them is no retry of it: twenty-seventh held-out set, abandoned)
    "dotenv": frozenset({"-e", "-v", "-p"}),
    "dotenv-cli": frozenset({"-e", "-v", "-p"}),
}
RUNNERS = {  # `uv run X`, `poetry run X`, `bundle exec X`, ...
    "uv": "run",
    "poetry": "run",
    "pipenv": "run",
    "pdm": "run",
    "hatch": "run",
    "bundle": "exec",
    "pnpm": "exec",
    "yarn": "exec",
    "npm": "exec",
    "rye": "run",
    "conda": "run",
}
# The runners' options that take a value, the next word.
RUNNER_VALUES = {
    "uv": frozenset(
        "--with --with-requirements --with-editable --python -p --project --directory"
        " --package --extra --group --env-file --index --from".split()
    ),
    "conda": frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "pdm": frozenset({"-p", "--project"}),
    "hatch": frozenset({"-e", "--env"}),
    "bundle": frozenset({"--gemfile"}),
    "pnpm": frozenset({"--filter", "-F", "-C", "--dir"}),
    "npm": frozenset({"-w", "--workspace", "-C", "--prefix", "--package"}),
    "yarn": frozenset({"--cwd"}),
}
# Names of one program: `python` failed, `python3` worked.
ALIASES = {"python3": "python", "pip3": "pip", "nodejs": "node", "docker-compose": "docker"}
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish"})
# The shell's own words around the commands of a loop or a test (a line of a script), and
# PowerShell's around a block it guards (`try { ... } catch { ... }`).
_SHELL_KEYWORDS = frozenset(
    "do done then else elif fi if while until esac continue break ! { } try catch finally".split()
)
# PowerShell's heads of a loop or a test whose condition is in parentheses (`foreach ($u in
# $urls) { ... }`): the block after it runs the commands, the head none.
_POWERSHELL_HEADS = frozenset({"foreach", "for", "while", "switch", "if", "elseif"})
MASKS = lazy(r"\|\|\s*(?:true|:|echo\b|exit\s+0|printf\b)|;\s*(?:true|exit\s+0)\s*$")

_OUTPUT_FILTERS = frozenset(
    "head tail grep egrep rg sed awk cut sort uniq wc less more tee cat jq column tr fold".split()
    # PowerShell's, by name and alias (`Get-Process node | Where-Object {...} | Select-Object
    # Id`: two such queries of other processes shared only these; twenty-second held-out set)
    + "Where-Object Select-Object Sort-Object Format-Table Format-List Out-String Select-String"
    " Measure-Object Out-Host where select sort ft fl".split()
    # and ForEach-Object, whose block's commands are simple commands of their own
    + ["ForEach-Object", "%"]
)
_REDIRECT = lazy(r"^\d?(?:>>?|<)(?:&\d)?\S*$|^&>>?\S*$|^\d?>&\d$")
_ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
# PowerShell's assignment to a variable (`$lines = (Get-Content x) -split "\n"`, `$env:CI=1`):
# what follows the `=` is what runs, its value glued to it or a word of its own.
_POWERSHELL_ASSIGNMENT = lazy(r"^\$[A-Za-z_][\w:]*(?:\[[^\]]*\])?=")
# `D=$(find ~/x -name y)`: the command a substitution assigned to a variable runs.
_SUBSTITUTED = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=\$\((.*)\)$", re.DOTALL)
# Quoted text with spaces, or this long, is a message (a commit message, a script, data),
# not part of the intent.
_MESSAGE_CHARS = 200


_SPACE = lazy(r"\s")


def _is_message(word: str) -> bool:
    return len(word) >= _MESSAGE_CHARS or _SPACE.search(word) is not None


_WORD = lazy(r"[A-Za-z][A-Za-z0-9_.+-]{2,}")


class Call(NamedTuple):
    """A tool call of a session with what its result said.

    A NamedTuple, not a frozen dataclass: refresh_fixes makes one per call after a
    session's first failure, ~0.6 us each against 3.5 us (16,845 calls at 200 MB, 0.05 s);
    and not a msgspec Struct (~0.2 us): the hook imports this module, and msgspec's import
    would add ~23 ms to each of its answers.
    """

    tool_use_id: str
    timestamp: str
    name: str
    command: str | None
    file_path: str | None
    pattern: str | None  # a Glob's or Grep's pattern
    agent_id: str | None
    failed: bool  # failed, or has no result: it confirms nothing
    kind: str | None = None  # the failure's kind (signatures.classify)
    # A subagent's call: Claude Code 1.0 gave subagents no agent id, only this flag.
    sidechain: bool = False
    # The folder a shell call was told to run in, by its tool's own argument (Gemini CLI's
    # dir_path, Codex's workdir), not by a `cd` in its command.
    workdir: str | None = None
    # The part of the file a read asked for (`offset 100 limit 50`), None for all of it.
    part: str | None = None
    # The page a call without a command or file fetched (WebFetch's url).
    url: str | None = None
    # The input of a call without a command or file (Task, Skill, an MCP tool), as stored.
    input: str | None = None
    # A Codex exec_command (or poll) whose command was still running when it returned.
    running: bool = False
    # A Codex command the agent asked to run outside the sandbox (with escalated permissions).
    escalated: bool = False
    # A Codex exec_command whose command a later poll saw fail: that poll's tool_use_id, whose
    # error is this call's (see settled).
    outcome_of: str | None = None


@dataclass(frozen=True)
class Step:
    """One step of a remedy: a call, and what it changed."""

    tool_use_id: str
    tool: str
    target: str
    change: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {
            "tool_use_id": self.tool_use_id,
            "tool": self.tool,
            "target": self.target,
            "change": self.change,
        }


@dataclass
class Fix:
    """What followed one failed call."""

    tool_use_id: str
    outcome: str
    confirmed_by: str | None = None
    confirmed_at: str | None = None
    remedy: list[Step] = field(default_factory=list)
    window_end: str | None = None
    # the other calls between the error's last sighting and the confirmation (or, without
    # a fix, the first NEARBY_CALLS calls after the failure)
    others: list[str] = field(default_factory=list)


# -- reading a shell command -------------------------------------------------


# A heredoc's body, up to its delimiter: text, not commands. What follows the delimiter on
# its line is the command's (`cat <<'EOF' > x.go`, `cat <<EOF | kubectl apply -f -`).
_HEREDOC = lazy(r"<<-?\s*(['\"]?)(\w+)\1([^\n]*)\n(?:.*\n)*?\s*\2\b", re.MULTILINE)


def _without_heredocs(command: str) -> str:
    """A command with its heredocs' bodies taken out, the rest of their first lines kept:
    `cat <<'EOF' > test/x_test.go` still writes x_test.go (its Codex rewrites of a test were
    no steps of the test run they fixed: twenty-fourth held-out set)."""
    return _HEREDOC.sub(lambda m: " " + m.group(3), command)


# Redirections, before the words are split: `2>&1`, `&>log`, `>/dev/null`, `< in.txt`.
_REDIRECTION = lazy(r"""\d*>&\d+|(?:&>>?|\d*>>?|\d*<(?!<))\s*(?:"[^"]*"|'[^']*'|[^\s|&;'"]+)""")


# A word of a shell command: a quoted string (its quotes taken off), an operator, or
# a run of other characters, a command substitution in it whole (`XDG_RUNTIME_DIR=/run/
# user/$(id -u) systemctl ...` ran systemctl, not `-u)`: twentieth held-out set).
# Unbalanced quotes run to the end.
_TOKEN = lazy(
    r"""[^\S\n]*(?:"((?:\\.|[^"\\])*)"?|'([^']*)'?|(\|\||&&|[|&;\n])"""
    r"""|((?:\\.|\$\([^()\n]*\)|[^\s|&;"'])+))"""
)


# A block's braces, unquoted and alone (`{}`, as `find -exec` takes it, is a word).
_BRACES = frozenset({"{", "}"})


class _Operator(str):
    """An operator of a command (`|`, `&&`, `;`), told from a word that reads the same:
    the quoted `'|'` of `awk -F'|'` or `tr '|' ','` is an argument, not a pipe."""


def _words(command: str) -> list[str]:
    """A command's words, with its operators (`|`, `&&`, `;`) as words of their own
    (_Operator). Parts written together are one word, as the shell takes them:
    `-F'|'` is `-F|`, `"$HOME"/x` is `$HOME/x`."""
    return list(_split(command))


@functools.lru_cache(maxsize=4096)
def _split(command: str) -> tuple[str, ...]:
    """_words, cached: the rules split a command for each failure whose window holds it
    (2,295 times for 208 commands at 200 MB)."""
    # a line continued by a backslash is one line
    command = _without_heredocs(command)
    if "#" in command:
        command = _without_comments(command)
    command = _REDIRECTION.sub(" ", command).replace("\\\n", " ")
    words: list[str] = []
    glued = False  # whether the last word may go on (no space or operator after it)
    for found in _TOKEN.finditer(command):
        double, single, operator, bare = found.groups()
        if operator is not None or found.group(0).strip() in _BRACES:
            # a brace alone opens or closes a block of commands (bash's `{ a; b; }`,
            # PowerShell's `try { ... } catch { ... }`): it ends the command before it
            words.append(_Operator(";" if operator in (None, "\n") else operator))
            glued = False
            continue
        part = double if double is not None else single if single is not None else bare
        if part is None:
            continue
        if glued and not found.group(0)[:1].isspace():
            words[-1] += part
        else:
            words.append(part)
        glued = True
    return tuple(words)


# What a comment's start is told from: quotes, escapes and `#`.
_COMMENT_SCAN = lazy(r"""[\\'"#]""")


def _without_comments(command: str) -> str:
    """A command without its comments: a `#` that starts a word, outside quotes, to the end
    of its line (`# Step 2: kill the workers` before the commands of a script; two such
    labels shared "Step" and made a `nvidia-smi` a retry of a `pkill`: eleventh held-out
    set). `$#`, `${#x}`, `a#b` and a URL's `#part` start none."""
    kept: list[str] = []
    start = at = 0
    quote = ""
    while found := _COMMENT_SCAN.search(command, at):
        char, where = found.group(), found.start()
        at = where + 1
        if char == "\\" and quote != "'":
            at += 1  # an escaped character
        elif quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (where == 0 or command[where - 1] in " \t\n;&|()"):
            end = command.find("\n", where)
            kept.append(command[start:where])
            if end < 0:
                return "".join(kept)
            start = at = end
    kept.append(command[start:])
    return "".join(kept)


def _is_operator(word: str) -> bool:
    return isinstance(word, _Operator)


def segments(command: str | None) -> list[list[str]]:
    """A command's simple commands, each a list of words, without redirections.

    `cd X &&` and output filters after a pipe (`| tail -20`, `| grep x`) are left
    out: they say where and how much, not what.
    """
    # (lists of their own: a caller may change what it is given)
    return [list(words) for words in _segments(command or "")]


@functools.lru_cache(maxsize=4096)
def _segments(command: str) -> tuple[tuple[str, ...], ...]:
    """segments, cached: the rules ask for a command's for each failure whose window holds
    it, several rules each (1,689 times at 200 MB, 1,128 of them again)."""
    return tuple(tuple(words) for words in _segments_of(_words(command)))


def _segments_of(words: list[str]) -> list[list[str]]:
    found: list[list[str]] = []
    current: list[str] = []
    after_pipe = False
    for word in [*words, _Operator(";")]:
        if _is_operator(word):
            if current and not (after_pipe and _program(current)[0] in _OUTPUT_FILTERS):
                if _program(current)[0] != "cd":
                    found.append(current)
            after_pipe = word == "|"
            current = []
        elif not _REDIRECT.match(word):
            current.append(word)
    return found


# The subcommands that install the words after them (`apt-get install jq`, `pip install
# httpx`, `npm install sql.js`, `yarn add zod`, `cargo add serde`).
_INSTALLS = frozenset({"install", "add"})
_SHELL_TOOLS = agents.tools(agents.SHELL)


class Goal(NamedTuple):
    """What a shell call was to do (goal): `acts_on`, the words compared, and `programs`,
    the programs it ran."""

    acts_on: frozenset[str]
    programs: frozenset[str]


def goal(tool: str | None, target: str | None) -> Goal | None:
    """What a shell call was to do, to compare with another call's (same_goal,
    queries.another_goal): what it acts on, as words, and the programs it ran. What it acts
    on: its packages when it installs some (each simple command's words after its `install`
    or `add`, flags aside: an `apt-get update` before it only prepares), else the words its
    programs were given, flags aside (the file or script run, a subcommand and its
    operands), else, of a program given none (`make`, `pytest`), the program. None for
    another tool: a file tool's errors that are about its file
    (not there) are told by their path (hook.another_files), and the rest are of the tool's
    use, whose way round carries over to any file (a folder listed instead of Read, a file
    too long searched, an Edit of many matches rewritten: compared by their files, 17 of the
    18 hook answers changed in a replay of nu44's and nu45's failures). Kept simple: a past
    failure worked around (not fixed) reached its own goal another way, and a workaround of
    `sudo apt-get install -y sqlite3` (sql.js from npm) is no way to install jq; the same
    sudo error says nothing of either goal (a new user's hook event, nu45 finding 2)."""
    if not target or tool not in _SHELL_TOOLS:
        return None
    installed: set[str] = set()
    ran: set[str] = set()
    programs: set[str] = set()
    _goal_words(target, installed, ran, programs)
    acts_on = installed or ran or programs
    return Goal(frozenset(acts_on), frozenset(programs)) if acts_on else None


def same_goal(one: Goal, other: Goal) -> bool:
    """Whether two calls' goals (goal) are one: they act on a word alike (a package, a file,
    a subcommand: `git push` and `git push -u origin main`), or one acts on a program the
    other runs (`apt-get install sqlite3` and `sqlite3 app.db`; `pytest` and `pytest
    tests/`). The program alone is no goal: `node -e "...require('yaml')..."`, worked
    around by counting a YAML file's lines with rg, is no way to run `node
    scripts/check-status.js` that needs yaml as well, nor a Grep of one JSON file a way
    to `jq '.dependencies' package.json` (the hook gave both as the fix: a new user's
    events, nu48 finding 5)."""
    return bool(
        one.acts_on & other.acts_on or one.acts_on & other.programs or other.acts_on & one.programs
    )


def _goal_words(
    command: str, installed: set[str], ran: set[str], programs: set[str], depth: int = 0
) -> None:
    """goal()'s words of a command, into `installed`, `ran` and `programs`: a shell's script
    (`powershell.exe -Command 'sed ...'`, `bash -lc '...'`) as the commands it runs."""
    for words in segments(command):
        program, args = _program(words)
        script = _script_of(program, args) if depth < 2 else None
        operands = [a.lower() for a in args if not a.startswith("-")]
        if script is not None:
            _goal_words(script[1], installed, ran, programs, depth + 1)
        elif operands and operands[0] in _INSTALLS and len(operands) > 1:
            installed.update(operands[1:])
        elif program:
            programs.add(program.lower())
            ran.update(operands)


_PYTHON = lazy(r"python[0-9.]*")


def _program_name(word: str) -> str:
    """A program by its name, not its path nor Windows's `.exe` (`"/c/Program Files/.../
    CMake/bin/cmake.exe" -S .` runs cmake: the `cmake: command not found` of Git Bash, fixed
    by the full path of Visual Studio's cmake, was taken for no retry: twenty-fourth
    held-out set)."""
    if "/" in word or "\\" in word:
        word = PureWindowsPath(word).name if "\\" in word else PurePosixPath(word).name
    return word[:-4] if len(word) > 4 and word[-4:].lower() == ".exe" else word


def _program(words: Sequence[str]) -> tuple[str, list[str]]:
    """The program a simple command runs (by its name, not its path) and its arguments.

    A group's parentheses are not the program's (bash's `(cd x && make test)`, PowerShell's
    `(Get-Content -Raw x) -split "\n"`), nor is a PowerShell variable given its output
    (`$lines = ...`, `($c = Get-Content x)`): a pipeline rewritten as a loop over a variable,
    `$lines = (Get-Content -Raw main.js) -split ...; for (...) { $lines[$i] }` after
    `(Get-Content -Raw main.js) -split ... | Select-Object -Index 130..260` that PowerShell
    could not bind, reads the same file again (was a program `$lines`, no retry of `($c`:
    thirty-fifth held-out set, a new user's trial nu47 finding 1)."""
    i = 0
    words = _ungrouped(words)
    while i < len(words):
        word = words[i]
        name = _program_name(word)
        if name in _POWERSHELL_HEADS and words[i + 1 : i + 2] and words[i + 1][:1] == "(":
            return "", []  # `foreach ($u in $urls)`: its block runs the commands
        elif name in _SHELL_KEYWORDS:
            i += 1  # `do sips ...` runs sips; `done`, `fi` alone run nothing
        elif _ASSIGNMENT.match(word):
            # `base="${f%.*}"`: the quoted value is a word of its own
            i += 2 if word.endswith("=") else 1
        elif name in WRAPPERS:
            i += 1
            # the wrapper's own options, with their values, and a number (timeout 30)
            values = WRAPPER_VALUES.get(name, frozenset())
            while i < len(words) and (words[i].startswith("-") or words[i].isdigit()):
                option = words[i]
                # `-u postgres`, or the last of joined letters (`sudo -iu postgres`)
                short = option[:1] == "-" and option[1:2] != "-" and f"-{option[-1]}" in values
                i += 2 if option in values or short else 1
        elif name in RUNNERS and i + 1 < len(words) and words[i + 1] == RUNNERS[name]:
            i += 2
            # the runner's own options, with their values (`uv run --with rich python x.py`,
            # `conda run -n env pytest`), and `--`
            values = RUNNER_VALUES.get(name, frozenset())
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in values else 1
        elif name == "nix" and words[i + 1 : i + 2] in (["develop"], ["shell"]):
            # `nix develop -c cmd ...`: the command run in the flake's shell (its other
            # options, the flake and packages, before it)
            at = next((n for n in range(i + 2, len(words)) if words[n] in _NIX_RUN), None)
            if at is None:
                return "nix", list(words[i + 1 :])
            i = at + 1
        elif _PYTHON.fullmatch(name) and words[i + 1 : i + 2] == ["-m"]:
            i += 2
        else:
            args = list(words[i + 1 :])
            return ALIASES.get(name, name), _git_args(args) if name == "git" else args
    return "", []


_PARENTHESIS = lazy(r"[()]")


def _ungrouped(words: Sequence[str]) -> list[str]:
    """Words without PowerShell's assignment of their output (`$lines = ...`, `$x=(...)`,
    `($c = ...)`) and without the parentheses of a group: the ones it opens first (`(cd`,
    `(Get-Content`) and the ones a word closes that it did not open (`test)`, `main.js)`;
    a group may close in a later simple command: `(cd x && make test)`). What follows a
    group that closes is no word of its command: PowerShell's `(Get-Content x) -split
    "\r?\n"` splits what Get-Content gave (`\r?\n`, taken for a path, was a file `n`
    that every such split shared). A substitution (`$(id -u)`) and a word whose
    parentheses pair up (`f(x)`) keep theirs."""
    words = list(words)
    opened = 0
    while words:
        bare = words[0].lstrip("(")
        opened += len(words[0]) - len(bare)
        if not bare and opened:
            words = words[1:]  # `( cd x ; ls )`
            continue
        words[0] = bare
        spaced = words[1:2] == ["="]
        if bare[:1] != "$" or not (spaced or _POWERSHELL_ASSIGNMENT.match(bare)):
            break
        value = "" if spaced else bare.split("=", 1)[1]
        rest = [value, *words[1:]] if value else words[1 + spaced :]
        if not rest or not rest[0].lstrip("(")[:1].isalpha():
            # a value, not a command's output (`$i=1`, `$ok = $true`, `$enc =
            # [Convert]::ToBase64String(...)`): the assignment is the command, as it was
            break
        words = rest
    kept: list[str] = []
    depth = 0  # the parentheses opened within the command's words (`.Substring((0, 1), 6)`)
    for word in words:
        shut = 0  # those at the word's end that close a group opened before its words
        # (only its parentheses are read: a word may be a script of thousands of
        # characters, `python3 -c "..."`, and a loop over each cost more than the rest of
        # the fix rules' reading of commands on ../shared/corpus/real)
        last = -2  # where the parenthesis before was: another character between ends `shut`
        for found in _PARENTHESIS.finditer(word):
            at = found.start()
            if at != last + 1:
                shut = 0
            last = at
            if found.group() == "(":
                depth, shut = depth + 1, 0
            elif depth:
                depth, shut = depth - 1, 0
            else:
                shut += 1
        if last != len(word) - 1:
            shut = 0  # (the word ends in another character)
        if shut:
            word = word[:-shut]
            if opened:  # the command's own group closed (`((gc x) -replace ...)`)
                return [*kept, word] if word else kept
        if word or not shut:  # (an empty word given, `-p ""`, is one)
            kept.append(word)
    return kept


def _git_args(args: list[str]) -> list[str]:
    """git's arguments from its subcommand on: the options before it are git's own, not the
    subcommand's (`git -C app status`, `git -c user.name=x commit -m y`: a `git status` and a
    `git commit`, each retried so in the nineteenth held-out set)."""
    n = 0
    while n < len(args) and args[n].startswith("-"):
        n += 2 if args[n] in _GIT_VALUED else 1
    return args[n:]


# git's own options that take the next word for their value.
_GIT_VALUED = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"}
)


@dataclass(frozen=True)
class Intent:
    """What one simple command does: its program, subcommand and other arguments."""

    program: str
    sub: str | None
    args: frozenset[str]
    flags: frozenset[str]
    words: tuple[str, ...] = ()
    # An interpreter's code given inline (`python3 -c "..."`, `python3 - <<EOF`, `node -e`),
    # when that is all it was given: what it does is in there, not in its arguments.
    code: str | None = None
    # The words of the shell that runs it from a script (`nix develop -c bash -lc`,
    # `cmd.exe //c`, `nix-shell -p cargo --run`): a retry's change shows one put in front.
    # Not part of what the command does: the same command in another shell is the same.
    shell: tuple[str, ...] = field(default=(), compare=False)


@functools.lru_cache(maxsize=4096)
def intents(command: str | None) -> tuple[Intent, ...]:
    """The intent of each simple command of a shell command (cached: retries repeat it)."""
    return tuple(_intents(command))


def _executed(words: list[str]) -> list[str] | None:
    """The command a `find ... -exec CMD {} +` runs on what it finds, with the name it looks
    for in place of `{}` (`find net -name x.mk -exec grep -n DEPS {} +`: a grep of x.mk; a
    wrapper refused the -exec, then `grep -n DEPS net/pkg/x.mk` did it: fourth held-out set)."""
    if "-exec" not in words[:-1] and "-execdir" not in words[:-1]:
        return None
    at = max(words.index(w) for w in ("-exec", "-execdir") if w in words) + 1
    end = next((n for n in range(at, len(words)) if words[n] in {"+", ";", "\\;"}), len(words))
    name = next(
        (words[n + 1] for n in range(len(words) - 1) if words[n] in {"-name", "-iname"}), "{}"
    )
    return [name if w == "{}" else w for w in words[at:end]] or None


def _intents(command: str | None, pending: list[list[str]] | None = None) -> list[Intent]:
    """The intents of a command, or of some of its simple commands (`pending`)."""
    found: list[Intent] = []
    pending = list(segments(command)) if pending is None else pending
    while pending:
        words = pending.pop(0)
        program, args = _program(words)
        if not program:
            continue
        guarded = _cmd_if_exist(words)
        if guarded is not None:
            pending[:0] = guarded  # what cmd's test guards, each branch a command
            continue
        if program == "find" and (executed := _executed(words)):
            pending.insert(0, executed)  # the find, then what it runs
            words = words[: words.index(next(w for w in words if w in {"-exec", "-execdir"}))]
            program, args = _program(words)
        shelled = _script_of(program, args)
        if shelled is not None:
            # `bash -lc '...'`, `cmd.exe //c ...`, `nix-shell -p cargo --run '...'`: what the
            # script does, with the shell's words before it, so that a retry's change shows
            # a shell put in front (`nix develop -c bash -lc '...'` after `cargo: command
            # not found`; Git Bash's `cmd.exe //c "taskkill /F ..."`, where `/F` was made a
            # path: tenth and eleventh held-out sets)
            flag, script = shelled
            shell = tuple(words[: len(words) - len(args) + flag + 1])
            found += [replace(i, shell=(*shell, *i.shell)) for i in _intents(script)]
            continue
        if program in _WINDOWS_SHELLS:
            # an option's value says how, not what (`powershell -ExecutionPolicy Bypass
            # -File ./check.ps1` and `... -File ./cleanup.ps1` shared only `Bypass`: two
            # scripts taken for one; twenty-second held-out set)
            args = [
                a
                for n, a in enumerate(args)
                if not (n and args[n - 1].lower() in _POWERSHELL_VALUED)
            ]
        # (after `--`, the end of options, every word is an argument: `grep -- '--x=' .`)
        ended = args.index("--") if "--" in args else len(args)
        options, after = args[:ended], args[ended + 1 :]
        args = [*options, *after]
        positional = [a for a in options if not a.startswith("-")] + after
        sub = None
        if (
            positional
            and re.fullmatch(r"[a-z][a-z0-9:_-]*", positional[0])
            and (
                program in _KNOWN_SUBCOMMANDS
                # another program's first argument, when it is no option's value (`javac
                # -d out x.java` has none: `out` is where -d puts the classes; seventh
                # held-out set, so `$JAVA_HOME/bin/javac -d /tmp/out` was no retry of it)
                or (len(positional) > 1 and args[:1] == positional[:1])
            )
        ):
            sub = positional.pop(0)
            if program in {"npm", "yarn", "pnpm", "bun"} and sub in {"run", "run-script"}:
                sub = positional.pop(0) if positional else sub
        code = None
        if (program.startswith("python") or program in _INTERPRETERS) and not sub:
            at = next((n for n, a in enumerate(args[:-1]) if a in INLINE_CODE), None)
            given = [args[at + 1]] if at is not None else []
            rest = [a for a in positional if a not in given]
            # `python3 -c '...'`, `python3 - <<EOF`, or `node <<'JS'` (its code on stdin)
            inline = given or "-" in args or (not positional and "<<" in (command or ""))
            if inline and all(_is_message(a) for a in rest):
                heredocs = [m.group(0) for m in _HEREDOC.finditer(command or "")]
                code = " ".join([*given, *rest, *heredocs])
        key = _package_key if sub in _INSTALLERS.get(program, ()) else _arg_key
        found.append(
            Intent(
                program=program,
                sub=sub,
                args=frozenset(key(a) for a in positional if not _is_message(a)),
                flags=frozenset(a for a in options if a.startswith("-")),
                words=tuple(w for w in _ungrouped(words) if not _is_message(w)),
                code=code,
            )
        )
    return found


# A shell's flag that gives it its script: `-c`, or `-c` joined to others (`-lc`, `-ic`).
_SCRIPT_FLAG = lazy(r"^-[a-z]*c$")
# Programs whose first word is a subcommand, whatever follows it.
_KNOWN_SUBCOMMANDS = frozenset(
    {*LOOK_SUBCOMMANDS, *CHECK_SUBCOMMANDS, *RUNNERS}
    | {"npm", "yarn", "pnpm", "bun", "make", "kubectl", "docker", "gh"}
)


def _script_of(program: str, args: Sequence[str]) -> tuple[int, str] | None:
    """Where a shell given a script (`bash -lc '...'`, `cmd.exe //c ...` to the end of the
    line, `powershell -Command '...'`, `nix-shell --run '...'`) has its flag, and the script."""
    for n, arg in enumerate(args[:-1]):
        if program in SHELLS and _SCRIPT_FLAG.match(arg):
            return n, args[n + 1]
        if program in _WINDOWS_SHELLS and _WINDOWS_SCRIPT.match(arg):
            return n, " ".join(args[n + 1 :])
        if program == "nix-shell" and arg in _NIX_SHELL_RUN:
            return n, args[n + 1]
    return None


def _cmd_if_exist(words: Sequence[str]) -> list[list[str]] | None:
    """The commands cmd's `if [not] exist PATH (CMD) else (CMD)` runs, each branch's words
    without its parentheses; None for any other command. The test only asks whether the
    path is there: `cmd /c if exist .specify\\memory\\constitution.md (type
    .specify\\memory\\constitution.md) else (echo MISSING)` views that file (taken for a
    program `exist`, its view broken by cmd's parsing was not seen as redone by
    PowerShell's `Get-Content -Raw` of it: thirty-seventh held-out set)."""
    lowered = [w.lower() for w in words[:4]]
    if lowered[:1] != ["if"]:
        return None
    at = 1 + (lowered[1:2] == ["/i"])
    at += lowered[at : at + 1] == ["not"]
    if lowered[at : at + 1] != ["exist"] or len(words) < at + 2:
        return None
    branches: list[list[str]] = [[]]
    for word in words[at + 2 :]:
        if word.lower() == "else":
            branches.append([])
            continue
        branches[-1].append(word.removeprefix("(").removesuffix(")"))
    return [[w for w in branch if w] for branch in branches if any(branch)]


# `nix develop` and `nix shell`'s flags before the command they run.
_NIX_RUN = frozenset({"-c", "--command"})
# Windows' shells, and their flags before the script they run (`cmd /c`, Git Bash's
# `cmd.exe //c`, `powershell -Command`, `pwsh -c`).
_WINDOWS_SHELLS = frozenset({"cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"})
_WINDOWS_SCRIPT = lazy(r"^(?://?[cCkK]|-(?i:c|command))$")
# PowerShell's options that take a value (`-ExecutionPolicy Bypass`), lower-cased.
_POWERSHELL_VALUED = frozenset(
    "-executionpolicy -ep -ex -exec -windowstyle -w -outputformat -of -inputformat -if"
    " -configurationname -version -v -workingdirectory -wd".split()
)
# nix-shell's flags before the script it runs.
_NIX_SHELL_RUN = frozenset({"--run", "--command"})
# Interpreters that take their code inline (python is found by its name's start).
_INTERPRETERS = frozenset({"node", "ruby", "perl", "php", "deno"})
# The words of inline code that say what it works on: paths, file names, identifiers.
_CODE_WORD = lazy(r"[A-Za-z_~/.][\w./~-]{3,}")
_CODE_COMMON = frozenset(
    "import from print open read write json sys pathlib Path text with return None True"
    " False else elif lambda const require console.log process".split()
)


def _same_code(one: str, other: str) -> bool:
    """Whether inline code (`other`) runs again what failed inline code (`one`) ran: it
    names a path of it, if either names any, and holds half its words.

    A heredoc that read a token file was "fixed" by a `python3 -c` YAML check of another
    file an hour later (fourth held-out set, as an argument-less python matched every
    python). A path in common is not enough: a script that compared two parsers on a BVH
    file failed, then one that imported a helper of one parser to print the joints it read
    from that file, sharing the path and no other word of 43 (thirtieth held-out set; a
    new user's try, session 33): it looked at why, and the card said the fix was to drop
    PYTHONPATH. The half is of the failed code's words, not the shorter's: a short script
    that looks into a long one's data does not run it again. A script that writes files is
    not run again by one that only reads them: a `python -c` that was to add totals to a
    workbook and save it, then one that printed its rows and merged cells, both loading
    that workbook (twenty-seventh held-out set, abandoned)."""
    if _writes_file(one) and not _writes_file(other):
        return False
    a, b = (set(_CODE_WORD.findall(code)) - _CODE_COMMON for code in (one, other))
    paths = [{_basename(w) for w in words if "/" in w or "." in w.strip(".")} for words in (a, b)]
    if (paths[0] or paths[1]) and not paths[0] & paths[1]:
        return False
    return bool(a and b) and len(a & b) * 2 >= len(a)


def _arg_key(arg: str) -> str:
    """An argument as retries compare it: a path by its file name."""
    arg = _unix(arg)
    return PurePosixPath(arg.rstrip("/")).name if "/" in arg else arg


# A version or extras an install asks of a package: `three@0.159.0` (not the `@` of a
# scope, `@react-three/fiber`), `bcrypt<4.0`, `requests==2.31`, `passlib[bcrypt]`.
_VERSION_SPEC = lazy(r"(?<=.)@[^/]*$|[=<>!~;\[].*$")


def _package_key(arg: str) -> str:
    """A package an install names, as retries compare it: its version pinned or not, it
    is the same package (`npm install three` refused, ERESOLVE, then `npm install
    three@0.159.0 --legacy-peer-deps`: fifteenth held-out set; `pip install "bcrypt<4.0"`
    after bcrypt 4 broke passlib: fourteenth)."""
    return _arg_key(_VERSION_SPEC.sub("", arg) or arg)


def _same_intent(one: Intent, other: Intent) -> bool:
    if one.program != other.program:
        return _respelt(one, other)
    if one.sub != other.sub and _taken_for_sub(one, other):
        # `devbox shell --command "..."` and `devbox shell`: the first argument of a
        # program with no known subcommands is one only when more follow (see _intents)
        one, other = (
            replace(i, sub=None, args=i.args | ({i.sub} if i.sub else set())) for i in (one, other)
        )
    if one.sub != other.sub or _verb(one) != _verb(other):
        return False
    if _undoes(one) != _undoes(other):
        return False
    if _other_remote(one, other):
        return False
    if bool(one.flags & _ABOUT) != bool(other.flags & _ABOUT):
        # `pytest --version` says what is installed: no run of the tests, nor they of it
        return False
    if one.code is not None or other.code is not None:
        # inline code, not arguments, says what the run was for
        return one.code is not None and other.code is not None and _same_code(one.code, other.code)
    mine, theirs = _script_run(one), _script_run(other)
    if mine and theirs and _arg_key(mine) not in other.args and _arg_key(theirs) not in one.args:
        # two scripts run by one interpreter are two programs, whatever arguments they share
        # (`python visualize_dataset.py /tmp/smoke --limit 1` failed, then `python
        # dataset/preprocess_dataset.py --output /tmp/smoke`: thirtieth held-out set); a
        # script renamed on the way (`mv a.py b.py && python b.py`) has its old name in args
        return False
    if (one.flags & other.args) or (other.flags & one.args):
        # a word one took for an option and the other, after `--`, for an argument (`grep
        # -R "--profiles="`: `unrecognized option`, then `grep -R -- '--profiles=' .`:
        # twenty-first held-out set)
        return True
    if not one.args or not other.args:
        # `git push` and `git push origin main`; `ls` alone, or `git branch -l`, matches
        # only itself: a look of everything is not a look of one thing
        looks = _looks(one)
        return not looks or one.args == other.args
    return bool(one.args & other.args)


# Programs that show the text of the files they are given, and nothing else: no pattern
# searched (`grep x a`, then `grep x b` is the same search elsewhere).
_FILE_VIEWERS = frozenset("cat head tail less more nl sed bat".split())


def _views(command: str | None) -> tuple[str, ...]:
    """The files a command that only views files names (`cd /p && sed -n '1,200p' a.ts`)."""
    mine = [i for i in intents(command) if i.program not in _SAYS and i.program != "cd"]
    if not mine or not all(_only_views(i) for i in mine):
        return ()
    return tuple(path for i in mine for path in _viewed(i))


def _views_same_file(failed: Call, call: Call) -> bool:
    """Whether a shell call views a file the failed one was to view."""
    theirs = _views(call.command)
    return any(_same_path(a, b) for a in _views(failed.command) for b in theirs)


def _views_other_files(call: Call, viewed: tuple[str, ...]) -> bool:
    """Whether a shell call views files, none of them one of `viewed`: `sed -n '1,200p'
    a.ts`, then `sed -n '1,200p' b.ts` asks another question, whatever lines it asks for,
    and so does a view of another file of the same name (`app/page.tsx`,
    `app/users/[id]/page.tsx`; sixteenth held-out set: views of a path the shell could
    not parse were "fixed" by views of other files)."""
    theirs = _views(call.command) if call.name in SHELL_TOOLS else ()
    return bool(theirs) and not any(_same_path(a, b) for a in viewed for b in theirs)


# An output that says only how a command ended (its messages sent to /dev/null).
_STATUS_ONLY = lazy(r"(?:(?:Exit code:? |Process exited with code )-?\d+\s*)*")
# PowerShell's and cmd's programs that show a file's text (whatever their case).
_WINDOWS_VIEWERS = frozenset({"get-content", "gc", "type"})


def _shows_file(intent: Intent) -> bool:
    """Whether a simple command only shows the text of the files it names: a viewer
    (_FILE_VIEWERS, sed only when it only prints) or PowerShell's `Get-Content`, cmd's
    `type`."""
    return _only_views(intent) or intent.program.lower() in _WINDOWS_VIEWERS


# Programs that show the whole of the files they are given (not `sed -n '280,360p'`, `head`).
_WHOLE_VIEWERS = frozenset({"cat", "bat", "nl", "type", "get-content", "gc"})


def _shows_whole(intent: Intent) -> bool:
    """Whether a simple command only shows the whole text of the files it names, which
    answers any search of them: `rg "dry" instalador.sh`, rg not found, is not answered by
    `grep -n "()" instalador.sh` (a search for the functions) nor by `sed -n '280,360p'` of
    it (a part), though they look at the same file (thirty-fifth held-out set, abandoned:
    "dry" was never searched in it again); `cat instalador.sh` shows every line of it. A
    search by another program of the same words is another way of its own
    (_searched_otherwise)."""
    return intent.program.lower() in _WHOLE_VIEWERS and not any(
        w.startswith("-") and w not in {"-n", "-A", "-v", "-Raw"} for w in intent.words[1:]
    )


def _only_views(intent: Intent) -> bool:
    return intent.program in _FILE_VIEWERS and (
        _looks(intent) or _prints(intent, " ".join(intent.words))
    )


def _viewed(intent: Intent) -> tuple[str, ...]:
    """The files a view names (`sed -n '1,20p' ./src/a.ts`: src/a.ts; not the script of a
    sed given none by -e or -f, `s/x\\/y/z/p`)."""
    words = [w for w in intent.words[1:] if not w.startswith("-")]
    if intent.program == "sed" and words and not intent.flags & _SED_SCRIPT_FLAGS:
        words = words[1:]
    return tuple(_unix(w).removeprefix("./") for w in words if _is_path(w))


def _same_path(one: str, other: str) -> bool:
    """Whether two paths may name one file: one is the other, or ends with it (`src/a.ts`
    from the project's folder, `/home/me/p/src/a.ts`)."""
    short, long = sorted((one, other), key=len)
    return long == short or long.endswith("/" + short)


_SED_SCRIPT_FLAGS = frozenset({"-e", "-f", "--expression", "--file"})


# git push's options that take a value (`-o ci.skip`).
_PUSH_VALUES = frozenset({"-o", "--push-option", "--repo", "--receive-pack", "--exec"})


def _remote(intent: Intent) -> str | None:
    """The remote a `git push` names, by its name (`git push github main`); None for a
    push without one, or to a URL (`https://x@host/repo.git`, `git@host:repo`), which may
    be the same remote's."""
    if intent.program != "git" or intent.sub != "push":
        return None
    words = list(intent.words)
    words = words[words.index("push") + 1 :] if "push" in words else []
    n = 0
    while n < len(words) and words[n].startswith("-"):
        n += 2 if words[n] in _PUSH_VALUES else 1
    if n >= len(words) or any(c in words[n] for c in "/:@"):
        return None
    return words[n]


def _other_remote(one: Intent, other: Intent) -> bool:
    """Whether two pushes name two remotes: a push to another (`git push github main`
    failed to connect, then `git push origin main` went to another host) is no retry of
    it, nor its fix (thirteenth held-out set, 2 cards: the same push to github later)."""
    mine, theirs = _remote(one), _remote(other)
    return mine is not None and theirs is not None and mine != theirs


def _taken_for_sub(one: Intent, other: Intent) -> bool:
    """Whether one of two commands of a program without known subcommands took its first
    argument for one, and the other, given no more, took that word for an argument."""
    if one.program in _KNOWN_SUBCOMMANDS or (one.sub is None) == (other.sub is None):
        return False
    sub, given = (one.sub, other) if one.sub is not None else (other.sub, one)
    return sub in given.args


# Flags that make a program say what it is instead of doing its work (a pytest run killed
# in Codex's sandbox was "fixed" by `python3 -m pytest --version`: seventh held-out set).
_ABOUT = frozenset({"--version", "--help"})


# Programs whose subcommand is a noun, then a verb (`gh pr checks`, `gh pr view`).
_NOUN_VERB = frozenset({"gh", "glab", "az", "gcloud", "aws"})


def _verb(intent: Intent) -> str | None:
    """The verb after the subcommand of a program whose subcommands are nouns (`gh pr
    checks 108` exits 1 when a check failed; `gh pr view 108` reads the PR, no retry of it:
    seventh held-out set, 2 failing CI runs never fixed were 'fixed' by it)."""
    if intent.program not in _NOUN_VERB or intent.sub is None:
        return None
    rest = list(intent.words)
    rest = rest[rest.index(intent.sub) + 1 :] if intent.sub in rest else []
    return next((w for w in rest if not w.startswith("-")), None)


# The verbs that undo what another verb of the same program did: remove what was added,
# uninstall what was installed, delete what was made, stop what was started.
_UNDO_VERBS = frozenset(
    "remove rm uninstall un delete del unset unlink disable destroy purge erase drop"
    " deregister unregister down stop".split()
)
# The flags that give up an operation stopped halfway (`git merge --abort`, `git rebase
# --quit`): an undo of it.
_ABORTS = frozenset({"--abort", "--quit"})


def _undoes(intent: Intent) -> bool:
    """Whether a command undoes: its subcommand, or the word after it, is an undo verb
    (`claude mcp remove serena`, `git remote rm origin`, `docker compose down`). An undo is
    no retry of a command that adds, nor of any other that does not undo: `claude mcp add
    serena ...` refused (`MCP server serena already exists`), then `claude mcp remove
    serena` cleared the way, and the same add again did it; the removal was taken for its
    changed retry, the card's fix a restart that had failed between (thirty-sixth held-out
    set). So is a stopped merge or rebase given up (`git merge --abort`: _ABORTS), no retry
    of it (thirty-eighth held-out set)."""
    if intent.sub is None:
        return False
    if intent.flags & _ABORTS:
        return True
    rest = list(intent.words)
    rest = rest[rest.index(intent.sub) + 1 :] if intent.sub in rest else []
    verb = next((w for w in rest if not w.startswith("-")), None)
    return intent.sub in _UNDO_VERBS or verb in _UNDO_VERBS


def _acted_otherwise(failed: Call, call: Call) -> bool:
    """Whether a command did to the same object, by another verb, what a failed one was to
    do, both acting, neither looking (`gh pr review 12 --approve` refused, then `gh pr merge
    12`: fourth held-out set, worked around); a look (`gh pr checks`) is no such act."""
    for one in intents(failed.command):
        for other in intents(call.command):
            verbs = (_verb(one), _verb(other))
            if (
                one.program == other.program
                and one.sub == other.sub
                and None not in verbs
                and verbs[0] != verbs[1]
                and not {*verbs} & (LOOK_ANY | LOOK_SUBCOMMANDS.get(one.program, frozenset()))
                and (one.args - {verbs[0]}) & (other.args - {verbs[1]})
            ):
                return True
    return False


# git's refusals over changes not committed (pull, merge, checkout, rebase, filter-branch).
_LOCAL_CHANGES = lazy(
    r"local changes to the following files would be overwritten|You have unstaged changes"
    r"|Your index contains uncommitted changes|commit or stash them",
    re.I,
)


def _skill_name(arguments: str | None) -> str | None:
    """The skill a Skill call asked for (`{"skill": "apply-grant"}`; `command` before 2.0)."""
    try:
        found = json.loads(arguments or "")
    except ValueError:
        return None
    name = found.get("skill") or found.get("command") if isinstance(found, dict) else None
    return name.strip().lstrip("/") if isinstance(name, str) and name.strip() else None


# What Claude Code says of a skill whose own command, run before its instructions are given
# (its `!`cmd`` lines), failed: the skill did none of its steps.
_SKILL_COMMAND_FAILED = lazy(r'\bBash command failed for pattern "!`([^`\n]+)`"')


def _skill_done_by_hand(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell command did the work of a skill that stopped at its own command
    (`Bash command failed for pattern "!`bun run test`": ... command not found: bun`): that
    command run by the agent (`~/.bun/bin/bun run test`, once bun was installed), or the
    step the skill is named after (`handgemacht:commit`, stopped at `git log main..HEAD`
    for want of a main branch, then `git add ... && git commit` by hand). Two such failures
    over real + held-out sets 30-40, both worked around so by their labels (the real
    corpus and the thirty-fifth); a skill that ran and failed at one of its steps is not
    one (its steps are the agent's own calls)."""
    found = _SKILL_COMMAND_FAILED.search(error)
    if found is None:
        return False
    if _shared_intent(found.group(1), call.command) is not None:
        return True
    # (the skill's own name, its plugin's prefix aside: a word a subcommand can be)
    name = (_skill_name(failed.input) or "").rpartition(":")[2].lower()
    return bool(name) and any(
        i.sub == name and i.program not in LOOK for i in intents(call.command)
    )


def _removed_whole(failed: Call, call: Call, error: str) -> bool:
    """Whether a folder `rmdir` could not remove, not being empty, was removed with what
    it held (`rm -rf x`, or a folder above it): the same goal by another program
    (sixteenth held-out set)."""
    if "not empty" not in error:
        return False
    folders = {
        _unix(w).rstrip("/")
        for i in intents(failed.command)
        if i.program == "rmdir"
        for w in i.words[1:]
        if not w.startswith("-")
    }
    return bool(folders) and any(
        i.program == "rm"
        and any("r" in f.lower() and not f.startswith("--") or f == "--recursive" for f in i.flags)
        and any(
            folder == removed or folder.startswith(removed + "/")
            for w in i.words[1:]
            if not w.startswith("-") and (removed := _unix(w).rstrip("/"))
            for folder in folders
        )
        for i in intents(call.command)
    )


def _reset_to(call: Call) -> bool:
    """Whether a command reset a branch to a ref, dropping changes (`git reset --hard
    origin/main`)."""
    return any(
        i.program == "git" and i.sub == "reset" and "--hard" in i.flags and bool(i.args)
        for i in intents(call.command)
    )


def _runs(call: Call, program: str) -> bool:
    return any(i.program == program for i in intents(call.command))


def _respelt(one: Intent, other: Intent) -> bool:
    """Whether two commands are one run again with its program's name one letter apart
    and every other word the same: a name mistyped (`pyhton3 x.py`, not found, then
    `python3 x.py`; `gti status`) or another version of the program (`python`, `python3`;
    `pip`, `pip3`; `pnpm create vite x --template t`, not found, then `npm create vite x --
    --template t`: npm passes options on after `--`, twenty-fifth held-out set). Names of
    two letters are left out: `rm x` is not `rg x`."""
    a, b = _spelt(one), _spelt(other)
    if a == b or min(len(a), len(b)) < 3 or _operands(one) != _operands(other):
        return False
    if len(a) == len(b):
        differ = [i for i in range(len(a)) if a[i] != b[i]]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and (a[differ[0]], a[differ[1]]) == (b[differ[1]], b[differ[0]])
        )
    short, long = sorted((a, b), key=len)
    if len(long) - len(short) != 1:
        return False
    at = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[at:] == long[at + 1 :]


def _operands(intent: Intent) -> set[str]:
    """A command's words after its program's name, options with the rest, the `--` that
    ends its options left out."""
    return {w for w in (intent.sub, *intent.args, *intent.flags) if w and w != "--"}


def _spelt(intent: Intent) -> str:
    """The program's name as the command spelt it (`python3`, which ALIASES makes `python`)."""
    for word in intent.words:
        name = _file_name(word)
        if ALIASES.get(name, name) == intent.program:
            return name
    return intent.program


@functools.lru_cache(maxsize=4096)
def _file_name(word: str) -> str:
    """PurePosixPath(word).name, cached: _respelt asks it of both commands' words for each
    pair of calls compared (2,609 paths made for ../shared/corpus/real)."""
    return PurePosixPath(word).name


def _looks(intent: Intent) -> bool:
    """Whether a simple command only looks: its program (`ls`), its subcommand (`git
    status`, `npm ls`), or its flag (`dpkg -l`)."""
    return (
        intent.program in LOOK
        or intent.sub in LOOK_SUBCOMMANDS.get(intent.program, ())
        or not intent.flags.isdisjoint(LOOK_FLAGS.get(intent.program, ()))
    )


# Cached: asked of the same two commands for each failure whose window holds them (879
# times for 369 pairs in ../shared/corpus/real).
@functools.lru_cache(maxsize=4096)
def _shared_intent(
    failed: str | None, other: str | None, not_failing: frozenset[Intent] | tuple[()] = ()
) -> tuple[Intent, Intent] | None:
    """The simple commands by which two shell commands try the same thing, if they do.

    See the module docstring. When the failed command does more than look, its looks
    (`ls x; cat y`, `git status`) do not count: `rm a && git add b && git status` that
    failed at the `git add` was "fixed" by a `git status` (ninth held-out set).
    `not_failing`: the failed command's simple commands that did not fail (see _not_failing).
    """
    theirs = _by_old_names(other)
    ran = [i for i in intents(failed) if i not in not_failing]
    # `. .venv/bin/activate && pytest`: the environment activated first is no goal of its
    # own, and shared by every command of the session, so that an `. .venv/bin/activate &&
    # alembic history` was the "fix" of a pytest run (thirteenth held-out set, abandoned).
    # Alone, it is what was tried. A file sourced for what it defines (`. config.env`, a
    # library whose functions the rest calls) is part of the goal: a zsh `source lib.sh
    # && fn ...` refused, then `bash -c 'source lib.sh; ...'` (the real corpus, fixed).
    ran = [i for i in ran if not _activates(i)] or ran
    # `docker rm -f app; docker run ... app; curl ...`: what was cleared away first, so that
    # the goal starts afresh, is no goal of its own either; a later `docker exec app ls;
    # docker rm -f app` shared only that (twenty-second held-out set)
    ran = [i for i in ran if not _clears(i)] or ran
    # PowerShell's expressions over what a look gave (`$start = ($lines | ...).LineNumber`,
    # `$lines[$start..$to]`) run no program: a command of a look and those only looks
    mine = [i for i in ran if not _looks(i) and not _expression(i)]
    mine = mine or [i for i in ran if i.program not in _SAYS] or ran
    return next(((a, b) for a in mine for b in theirs if _same_intent(a, b)), None)


# A PowerShell expression's first word: a variable assigned (`$to=...`, `$x` then `=`), indexed
# (`$lines[$i]`), of which a member is asked (`$lines.Length`) or incremented (`$i++`), or
# PowerShell's current item alone (`{ $_ }`).
_EXPRESSION = lazy(r"^\$[\w:]+(?:[=\[.(]|\+\+|--)|^\$_$")


def _expression(intent: Intent) -> bool:
    """Whether a simple command is a PowerShell expression, not a program run (`$PY -m
    pytest`, a variable's program, is one)."""
    first = intent.program
    return bool(_EXPRESSION.match(first)) or (first[:1] == "$" and intent.words[1:2] == ("=",))


# Programs that stop processes, and containers' subcommands that stop or remove them.
_KILLERS = frozenset({"kill", "pkill", "killall"})
_CONTAINERS = frozenset({"docker", "podman"})
_CLEARING = frozenset({"rm", "stop", "kill"})


def _clears(intent: Intent) -> bool:
    """Whether a simple command clears something away whatever is there: a forced remove
    (`rm -f`, `rm -rf`), a process stopped (`pkill -f server`), a container stopped or
    removed (`docker rm -f app`, `docker stop app`)."""
    if intent.program in _KILLERS:
        return True
    if intent.program in _CONTAINERS:
        return intent.sub in _CLEARING
    if intent.program in _REMOVERS:
        return (
            any(f.startswith("-") and not f.startswith("--") and "f" in f for f in intent.flags)
            or "--force" in intent.flags
        )
    return False


# The shell's commands that read a file into the shell itself (`source x`, `. x`).
_SOURCES = frozenset({"source", "."})
# Programs whose `activate` switches the shell to an environment (`conda activate ml`).
_ENVIRONMENTS = frozenset({"conda", "mamba", "micromamba"})


def _activates(intent: Intent) -> bool:
    """Whether a simple command activates an environment for the commands after it: a
    virtualenv's `activate` script sourced (`. .venv/bin/activate`, `source
    venv/bin/activate.fish`), or `conda activate x`."""
    if intent.program in _ENVIRONMENTS:
        return intent.sub == "activate"
    return intent.program in _SOURCES and any(a.startswith("activate") for a in intent.args)


@functools.lru_cache(maxsize=4096)
def _by_old_names(command: str | None) -> tuple[Intent, ...]:
    """A command's simple commands with the files it renamed (`mv`, `git mv`) called by
    their old names: `mv calendar.py cal.py && python3 cal.py` runs what `python3
    calendar.py` ran, renamed so that it no longer hides the standard library's module."""
    found = intents(command)
    if not command or "mv " not in command:
        return found
    renamed: dict[str, str] = {}
    for intent in found:
        if intent.program == "mv" or (intent.program == "git" and intent.sub == "mv"):
            named = [w for w in intent.words[1:] if not w.startswith("-") and w != intent.sub]
            if len(named) == 2 and not named[1].endswith("/"):
                renamed[_arg_key(named[1])] = _arg_key(named[0])
    if not renamed:
        return found
    return tuple(
        replace(intent, args=frozenset(renamed.get(a, a) for a in intent.args))
        if intent.args & renamed.keys() and intent.program != "mv" and intent.sub != "mv"
        else intent
        for intent in found
    )


# What a key line's words are stripped of before they are compared with a command's.
_AROUND_WORD = "'\"`()[]{}<>,;:"
# Programs that remove a file: one that was not there left the chain's goal met.
_REMOVERS = frozenset({"rm", "rmdir", "unlink", "trash"})


def _not_failing(command: str | None, key_line: str) -> frozenset[Intent]:
    """The simple commands of a failed `a && b && c` that did not fail: the one its key
    line names (by its program before a colon, as in `arp: command not found`, its
    subcommand, or an argument) failed; those before it ran and succeeded, those after it
    never ran. A later call of those alone is no retry of the failure: `npm run build &&
    pm2 restart x` failed in the build, then `pm2 restart x`; `git add a && git add b`
    failed on `a`, then `git add b`; `git add x && git commit` failed with "no changes added
    to commit", then `git add x` (ninth and tenth held-out sets: abandoned, abandoned, not a
    problem). A program not found failed wherever the chain runs it. A chain with `;`,
    `||` or `&` is left alone, and so is a key line that names none of it. Nothing is set
    aside when the command named only looks (`which figlet && figlet ...`, figlet then
    installed: the check was no part of the goal), when a `cd` is named too (into a folder
    not there, nothing ran), nor when it removed what was not there (`rm x.lock && git add
    ...`): the goal was met."""
    found = _chain_failure(command, key_line)
    if found is None:
        return frozenset()
    chain, failing = found
    if not signatures.missing_program(key_line):
        if all(_looks(i) for n in failing for i in chain[n]):
            return frozenset()  # a check first (`which x && x ...`): the rest is the goal
        removed = all(i.program in _REMOVERS for n in failing for i in chain[n])
        if removed and _NOT_THERE.search(key_line):
            return frozenset()
    return frozenset(intent for n, part in enumerate(chain) if n not in failing for intent in part)


def _got_past(failed: Call, retry: Call, not_failing: Container[Intent], retry_key: str) -> bool:
    """Whether a failed retry ran what failed, and failed only in a later part of its chain:
    `git checkout deploy && cat .gitignore` refused over local changes, then after `git
    stash` the same chain switched branches and failed at `cat` (thirteenth held-out set):
    `&&` ran `cat` only once the checkout succeeded, so the retry confirms the fix.
    `not_failing`: the failed command's simple commands that did not fail."""
    if retry.name not in SHELL_TOOLS or failed.name not in SHELL_TOOLS:
        return False
    ran = _ran_before_failing(retry.command, retry_key)
    return any(
        _same_intent(mine, theirs)
        for mine in intents(failed.command)
        if mine not in not_failing and not _looks(mine)
        for theirs in ran
    )


def _got_past_behind(
    failed: Call, retry: Call, key_line: str, not_failing: Container[Intent]
) -> bool:
    """Whether a retry that exited 0 though its last part failed behind a pipe (_failed_behind)
    got past the failed call's error in a part before that one: `a && b && c | head` exits 0
    only when every part before the last ran and succeeded, so what failed was the last
    part, a later step's. The part that failed is the one its key line names (_not_failing),
    else, of a failed chain whose last part was piped (its status another's), one before
    it; the retry redid each of those, in parts before its last. `pip install pytest && python
    -m pytest tests/ | head -200` refused by PEP 668 (`externally-managed-environment`), then
    `python3 -m venv .venv && source .venv/bin/activate && pip install pytest ... && python
    -m pytest tests/ | head -200`, whose tests failed, and were fixed by 8 edits after it:
    the card showed them as the steps of the install's fix (thirty-seventh held-out set,
    labelled fixed by that retry), as a retry that failed in a later part got past it
    (_got_past)."""
    if retry.name not in SHELL_TOOLS or failed.name not in SHELL_TOOLS or not key_line:
        return False
    words = _words(retry.command or "")
    if {w for w in words if _is_operator(w)} - {"&&", "|"}:
        return False
    parts = _and_parts(words)
    ran = [i for part in parts[:-1] for i in _intents(retry.command, _segments_of(part))]
    if len(parts) < 2 or "|" not in parts[-1]:
        return False
    if not_failing:
        failing = [i for i in intents(failed.command) if i not in not_failing]
    else:
        own = _and_parts(_words(failed.command or ""))
        if len(own) < 2 or "|" not in own[-1] or _chain_failure(failed.command, key_line):
            return False
        failing = [i for part in own[:-1] for i in _intents(failed.command, _segments_of(part))]
    failing = [i for i in failing if not _looks(i) and not _activates(i)]
    return bool(failing) and all(any(_same_intent(i, done) for done in ran) for i in failing)


def _never_ran(retry_key: str, misused: bool, unparsed: bool) -> bool | None:
    """What a failed retry whose error is another says of this one, by its key line: False,
    it got past it; None, it never ran, so it got past nothing and what came after it still
    counts. A failure's own key line is `misused`, `unparsed` (the shell could not parse it).

    Its program refused the retry's arguments (`unknown flag: --command`: a `devbox shell`
    that hung, then one with a flag it does not have, then `rm -rf .devbox` and `devbox
    shell`, thirty-first held-out set), or a subcommand it does not have (`claude mcp
    restart serena`: `error: unknown command 'restart'`, shown as the fix of `claude mcp add
    serena`'s `already exists`, thirty-sixth): it never ran. So with a retry the shell could
    not parse (a heredoc under `sudo /bin/bash -c '...'` broken by a quote of its text,
    before `... | sudo tee` wrote the file: thirty-fourth). (A program not found again under
    another spelling met the same obstacle: _not_found_again.)"""
    if (not misused and _says_misused(retry_key)) or (not unparsed and _says_unparsed(retry_key)):
        return None
    return False


def _input_taken(failed: Call, retry: Call) -> bool:
    """Whether a failed retry of a call whose input its tool refused (`InputValidationError`)
    got past that: its tool took the input this time, and the call failed beyond it, the
    user's "no" to it too (an AskUserQuestion given one option, then two, the form then
    dismissed: thirty-eighth held-out set, fixed by the corrected call). A retry cancelled
    with a sibling shows nothing of its input (_NOT_RUN). Not a retry the user let run
    after rejecting the call, which failed on something else: the "no" may have been to
    doing it at all (`git checkout master` rejected, run later and refused over local
    changes: thirty-second held-out set, not a problem)."""
    return (
        failed.kind == _REFUSED_INPUT
        and retry.kind != _REFUSED_INPUT
        and retry.kind not in _NOT_RUN
    )


def _ran_till_stopped(failed: Call, retry: Call) -> bool:
    """Whether a failed retry ran until it was stopped, its error gone: a server that could
    not start (`EADDRINUSE`), its port freed, then run again until the tool's time limit
    (`Command timed out after 5s`, having printed where it listens: sixteenth held-out set,
    2 people). It failed for the tool, not with the error."""
    return retry.kind == "timeout" and failed.kind not in {"timeout", *_STOPPED}


def _running_past(failed: Call, retry: Call, key_line: str, output: Callable[[str], str]) -> bool:
    """Whether a retry still running when its tool returned (Codex's `Process running with
    session ID N`, no poll seeing its end) ran past where the failed run ended, no error in
    what it printed: a server that could not start (`Port 8501 is not available`, exit 1),
    run again on another port and serving when exec_command returned (thirty-second
    held-out set, 3 failures), as one run until the tool's time limit is (_ran_till_stopped).
    A build still going on that has printed an error (`error[E0308]`) will fail with it."""
    if not key_line or failed.running or failed.kind in {"timeout", *_STOPPED}:
        return False
    printed = output(retry.tool_use_id)
    return key_line not in printed and not signatures.says_error(printed)


def _left_sandbox(failed: Call, retry: Call, error: str, retry_key: str) -> bool:
    """Whether a failed retry ran outside the sandbox that refused the failed call, and got
    past it: the agent asked for escalated permissions, and the retry failed on something
    else, no refusal in its key line (`uv pip install pillow` refused its
    cache, then outside the sandbox failing to download; `python predict.py`, whose sandbox
    could not start, then `the following arguments are required: --url`: thirty-second
    held-out set, 2 Codex users; a `mix precommit` whose socket was refused, then compiling
    and failing on runtime.exs: thirtieth). A retry refused again, in other words, did not
    get past it, and one the user stopped (`aborted by user`, all Codex keeps of it) shows
    nothing of how it went (a branch's creation refused its lock file, then escalated and
    aborted as the rollout ends: thirty-sixth held-out set, abandoned)."""
    return (
        retry.escalated
        and retry.kind not in _UNFINISHED
        and not failed.escalated
        and _says_refused(error)
        and not _says_refused(retry_key)
    )


# A Windows program's switch that Git Bash (MSYS) took for a path and wrote as one: `taskkill
# /F` is run with `F:/`, and the program quotes it back (`invalid argument/option - 'F:/'`,
# in the system's language).
_SWITCH_AS_PATH = lazy(r"""['"]([A-Za-z]):/['"]""")


def _found_now(retry: Call, program: str, retry_key: str) -> bool:
    """Whether a failed retry ran the program the shell did not find, and failed on
    something else: `cmake` not found, installed by the user in their own terminal ("try
    again, cmake is installed now"), then `cd build-debug && cmake .. && make` configured
    and failed to compile; `python -m pytest` (`python: command not found`), then `python3
    -m pytest` failing on its missing pytest (thirty-sixth held-out set, 2 people). The
    shell found it this time: what the failure was about is fixed, as a retry outside the
    sandbox gets past its refusal (_left_sandbox). Not a retry that never ran, nor one not
    found again (by any name: `python3` is `python`; as a module: `pytest` not found, then
    `python3 -m pytest` with `No module named pytest`, thirty-second held-out set), nor one
    whose chain failed before the program's part (`cd build && cmake ..`, build not there:
    see _reached)."""
    if retry.name not in SHELL_TOOLS or retry.kind in _UNFINISHED:
        return False
    again = signatures.missing_program(retry_key) or _missing_module(retry_key)
    if again and ALIASES.get(again, again) == ALIASES.get(program, program):
        return False
    return not _says_refused(retry_key) and _reached(retry.command, retry_key, program)


def _not_found_again(program: str, retry_key: str) -> bool:
    """Whether a failed retry's shell did not find its program either, named by another
    spelling of the same path: Git Bash ate the backslashes of `.\\kuzu_cli\\kuzu.exe`
    (`.kuzu_clikuzu.exe: command not found`), then of `kuzu_cli\\kuzu.exe` (`kuzu_clikuzu.exe`):
    the same obstacle, which its signature, naming the program, tells apart; the retry was
    shown as a step of the PowerShell run that fixed it (thirty-seventh held-out set). The
    names are the same but for a leading `./` or `.` (`./build/app`, `build/app`), or share
    their file name; `make` is not `cmake`."""
    again = signatures.missing_program(retry_key)
    if not again:
        return False
    one, other = (ALIASES.get(n, n).lower().lstrip("./\\") for n in (program, again))
    return one == other or _file_name(one) == _file_name(other)


def _reached(command: str | None, key_line: str, program: str) -> bool:
    """Whether a failed command ran `program` (by any name ALIASES gives it): it is one of
    its simple commands, and no part of its `a && b` chain before it failed (_chain_failure;
    a `cd` the key line names, after which nothing ran)."""
    name = ALIASES.get(program, program)
    parts = _and_parts(_words(command or ""))
    at = next(
        (
            n
            for n, part in enumerate(parts)
            for intent in _intents(command, _segments_of(part))
            if name in _run_as(intent)
        ),
        None,
    )
    if at is None:
        return False
    tokens = {word.strip(_AROUND_WORD) for word in key_line.split()}
    if any(_program(part)[0] == "cd" and tokens & set(part[1:]) for part in parts[:at]):
        return False  # (into a folder not there: nothing after it ran)
    found = _chain_failure(command, key_line)
    return found is None or min(found[1]) >= at


def _run_as(intent: Intent) -> set[str]:
    """The names a simple command ran its program by, ALIASES applied: the program's word
    and those before it that run it (`sudo`, `python3 -m`, `npx`), not its arguments (the
    `cmake` of `apt install cmake`)."""
    names: set[str] = set()
    for word in intent.words:
        name = _file_name(word)
        names.add(ALIASES.get(name, name))
        if ALIASES.get(name, name) == intent.program:
            break
    return names


def _runs_by_the_same_word(failed: Call, confirm: Call, program: str) -> bool:
    """Whether a later command ran `program` (by any name ALIASES gives it) as the failed
    command ran it: by the same words up to it, as written, in the same shell (`cmake` and
    `cmake`). Not by another word (`python3` for `python`, `./venv/bin/pytest`), nor with a
    setting or a wrapper put in front (`PATH="$HOME/.bun/bin:$PATH" ~/.bun/bin/bun`, `nix-shell
    -p cargo --run 'cargo check'`, `sudo`): what made the shell find it."""
    return bool(_runs_of(failed.command, program) & _runs_of(confirm.command, program))


def _runs_of(command: str | None, program: str) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """How a command's simple commands ran `program` (_run_as): the shell that ran each and
    its words up to the program's, as written."""
    name = ALIASES.get(program, program)
    runs = set()
    for intent in intents(command):
        for n, word in enumerate(intent.words):
            ran = _file_name(word)
            if ALIASES.get(ran, ran) == name:
                runs.add((intent.shell, intent.words[: n + 1]))
            if ALIASES.get(ran, ran) == intent.program:
                break
    return runs


def _switch_made_path(command: str | None, key_line: str) -> bool:
    """Whether a key line quotes a switch of the command (`/F`) as Git Bash made it a path."""
    letters = {m.group(1).lower() for m in _SWITCH_AS_PATH.finditer(key_line)}
    return bool(letters) and any(
        re.fullmatch(r"/([A-Za-z])", w) and w[1].lower() in letters
        for i in intents(command)
        for w in i.words[1:]
    )


def _got_past_refusal(
    failed: Call, retry: Call, key_line: str, retry_key: str, printed: str
) -> bool:
    """Whether a failed retry, its arguments changed, got past the failed call's program
    refusing its arguments (_MISUSED, or a switch Git Bash made a path) and failed on
    something else: `taskkill /F /PID 24648` (`invalid argument/option - 'F:/'`), then
    `taskkill //F //PID 24648`, whose process was gone by then (thirty-third held-out set,
    fixed by the retry). The program took the arguments this time: what the refusal was
    about is fixed, as a retry outside the sandbox gets past its refusal (_left_sandbox).
    Not when the retry's arguments were refused too, nor when it printed the refusal again,
    nor a retry that never ran: the user rejected it (`codex exec -s danger-full-access`
    after `unexpected argument '--sandbox-permissions'`: thirty-second held-out set,
    abandoned), its tool refused its input, or it was cancelled with a sibling."""
    return (
        retry.command != failed.command
        and retry.kind not in _UNFINISHED
        and bool(key_line)
        and (_says_misused(key_line) or _switch_made_path(failed.command, key_line))
        and not _says_misused(retry_key)
        and not _switch_made_path(retry.command, retry_key)
        and key_line not in printed
    )


def _ran_before_failing(command: str | None, key_line: str) -> frozenset[Intent]:
    """The simple commands of a failed `a && b && c` before the part that failed (see
    _not_failing): `&&` ran each only when the one before it succeeded, so they did."""
    found = _chain_failure(command, key_line)
    if found is None:
        return frozenset()
    chain, failing = found
    return frozenset(intent for n, part in enumerate(chain[: min(failing)]) for intent in part)


# git's own words for a remote it could not reach or read (`fatal: unable to access
# 'https://github.com/x/y.git/': Recv failure`), which name no part of a chain: of `git add
# x && git commit -m ... && git push`, the push failed; the commit was made (thirteenth
# held-out set, where a later `git add && git commit` was taken for its retry).
_REMOTE_FAILED = lazy(r"unable to access '|Could not read from remote repository")
_REMOTE_SUBCOMMANDS = frozenset({"push", "pull", "fetch", "clone", "ls-remote"})


def _talks_to_remote(intent: Intent) -> bool:
    return intent.program == "git" and intent.sub in _REMOTE_SUBCOMMANDS


@functools.lru_cache(maxsize=1024)
def _chain_failure(
    command: str | None, key_line: str
) -> tuple[tuple[tuple[Intent, ...], ...], frozenset[int]] | None:
    """The simple commands of each part of a failed `a && b && c`, and the parts that
    failed, when its key line tells them (see _not_failing); else None. Cached: asked of
    a failure for each retry of its window, by several rules (_not_failing,
    _ran_before_failing, ...)."""
    if not command or "&&" not in command or not key_line:
        return None
    words = _words(command)
    operators = {word for word in words if _is_operator(word)}
    if "&&" not in operators:
        given = _script_of(*_program(words))
        return _chain_failure(given[1], key_line) if given else None  # `bash -lc 'a && b'`
    if operators - {"&&", "|"}:
        return None
    parts = _and_parts(words)
    said = key_line.split()
    tokens = {word.strip(_AROUND_WORD) for word in said}
    tokens |= {_arg_key(token) for token in tokens if "/" in token}
    before_colon = {word[:-1] for word in said if word.endswith(":")}
    chain = tuple(tuple(_intents(command, _segments_of(part))) for part in parts)
    missing = signatures.missing_program(key_line)
    if missing:
        # a program not found failed wherever it was to run
        failing = frozenset(
            n
            for n, part in enumerate(chain)
            if any(missing in {i.program, _spelt(i)} for i in part)
        )
        if not failing:
            return None
    else:
        named = [
            n
            for n, part in enumerate(chain)
            for intent in part
            if _spelt(intent) in before_colon
            or intent.sub in tokens
            or any(len(arg) >= 3 and arg in tokens for arg in intent.args)
            or (_talks_to_remote(intent) and bool(_REMOTE_FAILED.search(key_line)))
        ]
        # a `cd` (no intent of its own) the error names may be what failed: then nothing
        # after it ran (`cd backend && ... && git add backend`, backend not there)
        cd = any(
            _program(part)[0] == "cd"
            and any(w in tokens or _arg_key(w) in tokens for w in part[1:])
            for part in parts
        )
        if not named or cd:
            return None
        failing = frozenset({max(named)})
    return chain, failing


def _and_parts(words: Sequence[str]) -> list[list[str]]:
    """A command's words split at its `&&` operators."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word == "&&" and _is_operator(word):
            parts.append([])
        else:
            parts[-1].append(word)
    return parts


# Programs that print only the words they are given: in a command that does more, they
# label its output (`echo "=== diff ==="; diff -r a b`) and say nothing of its intent. Their
# quoted words are a message, so any two such labels were "the same command": a `diff -r`
# that exited 1 was "confirmed" by `echo "=== x ==="; ls`, a grep that found nothing
# "fixed" by `git log; echo "=== status ==="` (fourth held-out set, 3 failures).
_SAYS = frozenset({"echo", "printf", "true", "false", ":"})


def command_change(
    failed: str | None, retry: str | None, done: Sequence[str | None] = ()
) -> str | None:
    """How a retry changed the failed command: the words taken out and put in.

    Only the simple command they share counts (`-npx +./node_modules/.bin/prisma`);
    None when it is the same command. `done`: the commands of the remedy's steps before
    the retry. The failed command's work split over several commands of its program and
    subcommand, in the retry or in those steps, leaves none of it out: `git add a b x`,
    refused for x, then `git add a b` and `git add -f x` (or `git add -f x && git add a b`)
    changed `+-f`, not `-a -b +-f` (the real corpus, three sessions; a new user's try).
    """
    pair = _shared_intent(failed, retry) or next(
        (
            (a, b)
            for a, b in itertools.product(intents(failed), intents(retry))
            if _word_replaced(a, b) or _written_out(a, b) or _same_intent(a, b)
        ),
        None,
    )  # (or one argument replaced, or a path written out: see _replaced_named, _expanded;
    # or a look they share, when the failed command did more: a script read into a variable
    # and run, `$code = Get-Content x.ps1 -Raw; powershell -Command $code`, then encoded and
    # run: the retry of _same_script_run, thirty-eighth held-out set)
    if pair is None:
        return None
    mine = pair[0]
    old, new = (*mine.shell, *mine.words), (*pair[1].shell, *pair[1].words)
    # (its program, subcommand and words, none of another: a split of the failed one's work)
    splits = [
        i
        for i in (*(i for command in done for i in intents(command)), *intents(retry))
        if i is not pair[1] and i.program == mine.program and i.sub == mine.sub
    ]
    elsewhere = {w for i in splits for w in i.words}
    # commands the retry runs besides, before it (`mkdir -p dist && npm run build`) or after
    # it (`git add x && git commit -m ...`)
    before = {" ".join(i.words) for i in intents(failed)}
    ran = intents(retry)
    at = next((n for n, i in enumerate(ran) if i is pair[1]), len(ran))
    added = [
        (n < at, " ".join(i.words))
        for n, i in enumerate(ran)
        if " ".join(i.words) not in before
        and n != at
        and i.program not in LOOK
        and not (i in splits and set(i.words) <= set(old))
    ]
    quoted = _newly_quoted(failed or "", retry or "")
    # (a pattern escaped, `src/\\[id\\]`, is a word of its own until the shell reads it)
    taken = [w for w in old if w not in new and w not in quoted and w not in elsewhere]
    put = [w for w in new if w not in old and w.replace("\\", "") not in quoted]
    # a flag taken out reads `without --force`: `---force` read as a typo (a new user)
    # (an empty word shown as such: `-p ""` then `-p " "` read `changed: -`, a new user)
    taken, put = ([w if w.strip() else f'"{w}"' for w in ws] for ws in (taken, put))
    words = [
        *(f"without {w}" if w.startswith("-") else f"-{w}" for w in taken),
        *(f"+{w}" for w in put),
    ]
    first = [text for earlier, text in added if earlier]
    then = [text for earlier, text in added if not earlier]
    parts = [f"first {'; '.join(first)}"] if first else []
    if quoted:
        parts.append(f"quoted {' '.join(quoted[:CHANGE_WORDS])}")
    if words:
        parts.append(" ".join(words[:CHANGE_WORDS]) + (" …" if len(words) > CHANGE_WORDS else ""))
    elif old != new and not (added or quoted):
        # the same words, or some given more or fewer times (`rg -n "a" -n "b" x`, then
        # `rg -n "b" x`: its patterns, quoted with spaces, are no words of an intent)
        more = len(new) - len(old)
        order = "the same words in another order"
        parts.append("fewer words" if more < 0 else "more words" if more else order)
    acted = {" ".join(i.words) for i in intents(failed) if not _looks(i)}
    # (PowerShell's expressions after it work on what it gave: `$lines = Get-Content x;
    # $lines[94..108]` after `Get-Content x | Select-Object -Index 90..110`, whose filter is
    # no intent, changed `then $lines[94..108]`)
    worked = any(_expression(i) for i in ran[at + 1 :])
    if then and (parts or worked or not acted <= {" ".join(i.words) for i in ran}):
        # The failed command run again whole, as it was, with commands after it and nothing
        # else changed (but its looks), was not changed: what runs after it cannot have made
        # it succeed
        # (`git commit ...`, refused a lock under a root-owned .git, then after a chown in
        # the user's own terminal `git commit ... && git push origin x`, shown as `changed:
        # then git push`: a new user's try, set 36's label: no step). A later command of
        # the failed one's, changed, may be what failed (`npx prettier` of fewer files after
        # `cargo fmt`), and a statement of a script rewritten.
        parts.append(f"then {'; '.join(then)}")
    change = "; ".join(parts)
    if len(change) > CHANGE_CHARS:
        # at a word: a cut inside one leaves half a path or a lone `-`
        change = change[: change.rfind(" ", 0, CHANGE_CHARS - 1)].rstrip(" ;") + " …"
    return change or None


# What a shell reads as a pattern in a word left bare: zsh refuses one that matches no
# file (`zsh: no matches found: app/[id]/page.tsx`, a Next.js route's folder; yt-dlp's
# `%(title)s`), and bash a `(` (`syntax error near unexpected token`).
_GLOB_CHARS = lazy(r"[*?\[(]")


def _newly_quoted(failed: str, retry: str) -> list[str]:
    """The words with a glob character that a retry quoted and the failed command left
    bare: `sed -n 1p 'app/[id]/page.tsx'` after `sed -n 1p app/[id]/page.tsx` (the same
    words once the shell has read them, so command_change saw no change)."""
    bare = _bare_globs(failed)
    if not bare:
        return []
    quoted = _quoted_forms(retry)
    return list(dict.fromkeys(w for w in bare if w in quoted))


@functools.lru_cache(maxsize=1024)
def _bare_globs(command: str) -> tuple[str, ...]:
    """_newly_quoted's words of a failed command with a glob character, left bare.
    Cached, as _quoted_forms: a command is compared with each retry of its window, and each
    retry with each failure whose window holds it."""
    return tuple(
        m.group(4)
        for m in _TOKEN.finditer(command)
        if m.group(4) and "\\" not in m.group(4) and _GLOB_CHARS.search(m.group(4))
    )


@functools.lru_cache(maxsize=1024)
def _quoted_forms(command: str) -> frozenset[str]:
    """_newly_quoted's words of a retry that it quoted, or escaped (without the escapes)."""
    quoted = {
        m.group(1) if m.group(1) is not None else m.group(2)
        for m in _TOKEN.finditer(command)
        if m.group(1) is not None or m.group(2) is not None
    }
    escaped = {
        m.group(4).replace("\\", "")
        for m in _TOKEN.finditer(command)
        if m.group(4) and "\\" in m.group(4)
    }
    return frozenset(quoted | escaped)


# -- what a call does ----------------------------------------------------------


# What a retry of a tool without a command or file changed in its input, said when it is
# short: at most this many fields, each value cut to this many characters.
INPUT_CHANGES = 3
INPUT_VALUE_CHARS = 40


def _input_change(before: str | None, after: str | None) -> str | None:
    """How the JSON input of a tool called again differs from the failed call's, field by
    field: `-questions[0].header, +questions[0].type: text` (Gemini's ask_user refusing a
    long header), `-type: rs, +path: src` (Copilot's grep given a file type rg does not
    know: a field left out keeps its value when it is a word, see _dropped), `sql: select
    count(*) from accounts` (an MCP query on another table),
    where "called again with other input" said nothing of it. None when either is not a
    JSON object, or when more than INPUT_CHANGES fields changed."""
    try:
        old, new = json.loads(before or ""), json.loads(after or "")
    except ValueError:
        return None
    if not isinstance(old, dict) or not isinstance(new, dict):
        return None
    was, now = _fields(old), _fields(new)
    # a field given the same value under another name was renamed: `file_path → path`, not
    # `-file_path, +path: /Users/me/code/...` (a parameter the tool did not know)
    added = [name for name in now if name not in was]
    renamed: dict[str, str] = {}
    for name in (name for name in was if name not in now):
        same = [n for n in added if now[n] == was[name] and n not in renamed.values()]
        if same:
            renamed[name] = same[0]
    changes = [
        f"{name} → {renamed[name]}" if name in renamed else _dropped(name, was[name])
        for name in was
        if name not in now
    ]
    changes += [
        f"{'' if name in was else '+'}{name}: {_field_value(value)}"
        for name, value in now.items()
        if was.get(name, _ABSENT) != value and name not in renamed.values()
    ]
    if not changes or len(changes) > INPUT_CHANGES:
        return None
    return ", ".join(changes)


_ABSENT = object()


def _shared_fields(one: str | None, other: str | None) -> int:
    """How many leaves two JSON inputs share, name and value (-1: either is no object)."""
    try:
        a, b = json.loads(one or ""), json.loads(other or "")
    except ValueError:
        return -1
    if not isinstance(a, dict) or not isinstance(b, dict):
        return -1
    theirs = _fields(b)
    return sum(1 for name, value in _fields(a).items() if theirs.get(name, _ABSENT) == value)


def _closer_later(failed: Call, call: Call, later: Sequence[Call]) -> bool:
    """Whether a tool without a file or command, called again, is no retry of the failed
    call because a call of that tool among `later` (the call, then those soon after)
    shares more of its input: several calls
    that failed alike, then each redone (4 SendMessage calls refused for want of a
    `summary`, then 4 with one, each to the recipient of one: all four cards named the
    first, eighteenth held-out set)."""
    if failed.command is not None or failed.file_path is not None or failed.url is not None:
        return False
    mine = _shared_fields(failed.input, call.input)
    if mine < 0:
        return False
    return any(
        other.name == call.name
        and not other.failed
        and _shared_fields(failed.input, other.input) > mine
        for other in later[1:]
    )


def _closer_chain_later(failed: Call, call: Call, later: Sequence[Call]) -> bool:
    """Whether a command that never ran (cancelled with its sibling) is retried by a call
    among `later` (the call, then those soon after) that runs more of it: `git add . &&
    git commit -m "x" && git push` cancelled beside a push that failed, then the other
    repository's `git remote set-url ... && git push`, then `cd users && git add . && git
    commit -m "x" && git push` (twentieth held-out set: the card named the first). Nothing
    of it ran, so the whole chain was the goal, and its rerun is the one that shares most."""
    if failed.kind not in _NOT_RUN or failed.name not in SHELL_TOOLS:
        return False
    mine = _shared_count(failed.command, call.command)
    return any(
        other.name in SHELL_TOOLS
        and not other.failed
        and _shared_count(failed.command, other.command) > mine
        for other in later[1:]
    )


def _left_out(
    failed: Call, call: Call, key_line: str, not_failing: frozenset[Intent] | tuple[()]
) -> set[str]:
    """The operands of the failed command that a retry left out and the error is about: its
    key line names them, or a folder of them (`git add a.ex priv/static/assets/x.css`: `The
    following paths are ignored by one of your .gitignore files: priv/static/assets`, then
    `git add a.ex`), not only its output (`mix credo` of three files, one of them the
    finding's). As _arg_key keys them."""
    found = _shared_intent(failed.command, call.command, not_failing)
    if found is None:
        return set()
    mine, theirs = found
    dropped = mine.args - theirs.args
    return {
        key
        for word in mine.words[1:]
        if (key := _arg_key(word)) in dropped and _names_path(key_line, _unix(word).rstrip("/"))
    }


def _names_path(text: str, path: str) -> bool:
    """Whether a text names a path, or a folder it is in, as a word of its own."""
    while path and path not in {".", "/"}:
        # (a folder as a word: `lib` of `lib/a.ex` names another file, not the folder)
        if re.search(rf"(?<![\w./-]){re.escape(path)}/?(?![\w./-])", text):
            return True
        path = posixpath.dirname(path)
    return False


def _put_back_later(
    failed: Call,
    call: Call,
    later: Sequence[Call],
    key_line: str,
    not_failing: frozenset[Intent] | tuple[()],
) -> bool:
    """Whether a retry only left out what the error was about, and a later call of the
    window did the failed command's work on it after all: that later call is the fix, and
    the retry, which did the rest, a step of it. `git add` of a tracked file under an ignored
    folder, refused, then the same `git add` without it and a commit, then `git add -f` of
    it and `commit --amend`: the goal was to commit it (the real corpus, three sessions; the
    card led with `changed: -priv/static/assets/spotter.css`, a user following it left the
    file out; a new user's try, session 33). Left out for good, leaving it out was the fix."""
    if failed.name not in SHELL_TOOLS or call.name not in SHELL_TOOLS:
        return False
    dropped = _left_out(failed, call, key_line, not_failing)
    if not dropped:
        return False
    wanted = [i for i in intents(failed.command) if i not in not_failing and i.args & dropped]
    return any(
        not other.failed
        and not other.running
        and other.name in SHELL_TOOLS
        and any(
            _same_intent(mine, theirs) and theirs.args & dropped
            for mine in wanted
            for theirs in intents(other.command)
        )
        for other in later
    )


def _failed_again_later(
    failed: Call,
    later: Sequence[Call],
    not_failing: frozenset[Intent] | tuple[()],
    still_failing: Callable[[str], bool | None] | None,
) -> bool:
    """Whether the agent's next retry of the failed call among `later` (the calls soon after
    another way) failed with this error again: the other way did not reach its goal, or the
    agent would not have run it again, and the error was still there. `git merge` refused
    over local changes, then `git reset --hard HEAD`, then the same merge refused the same
    way (the changes kept coming back): the card said "worked around" by the reset, where
    moving the files away and merging fixed it (thirty-first held-out set, 2 failures)."""
    if still_failing is None:
        return False
    for call in later:
        if _SAME_TOOL.get(call.name, call.name) == _SAME_TOOL.get(failed.name, failed.name) and (
            _retry(failed, call, not_failing)
        ):
            return call.failed and still_failing(call.outcome_of or call.tool_use_id) is True
        if not call.failed and _changes_state(call):
            # a retry after a change is a check of it, not of the other way (`git worktree
            # list` after the `rm -rf` of the worktree's folder, the shell still broken:
            # thirty-ninth held-out set, each worked around by `/bin/ls`)
            return False
    return False


def _shared_count(failed: str | None, other: str | None) -> int:
    """How many of a command's simple commands that do more than look another one runs."""
    theirs = intents(other)
    return sum(
        any(_same_intent(mine, their) for their in theirs)
        for mine in intents(failed)
        if not _looks(mine)
    )


def _fields(value: object, name: str = "") -> dict[str, object]:
    """The leaves of a decoded JSON value by their path (`questions[0].header`)."""
    if isinstance(value, dict):
        found: dict[str, object] = {}
        for key, item in value.items():
            found.update(_fields(item, f"{name}.{key}" if name else str(key)))
        return found
    if isinstance(value, list) and value:
        found = {}
        for i, item in enumerate(value):
            found.update(_fields(item, f"{name}[{i}]"))
        return found
    return {name: value}


def _dropped(name: str, value: object) -> str:
    """A field left out of a retry's input: with its value when that is one short word, the
    lesson (`-type: rs`, a file type rg does not know), not when it is text the card shows
    already (`-file_content`, a Write's whole file under a name the tool did not know)."""
    text = value if isinstance(value, str) else json.dumps(value)
    short = len(text) <= INPUT_VALUE_CHARS and not _SPACE.search(text)
    return f"-{name}: {text}" if short else f"-{name}"


def _field_value(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.split())
    return text if len(text) <= INPUT_VALUE_CHARS else text[: INPUT_VALUE_CHARS - 1] + "…"


def _changes_state(call: Call) -> bool:
    """Whether a successful call may have changed what the failed one met."""
    if call.name in EDIT_TOOLS:
        return True
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    every = intents(call.command)
    for intent in every:
        if _activates(intent) and len(every) > 1:
            # an environment activated for the commands after it (`source .venv/bin/activate
            # && python -c "print(columns)"`): what they do is the call's, and the shell that
            # activated it ends with them (a look at a model's columns between rewrites of a
            # data script was a step of its fix: thirty-seventh held-out set)
            continue
        if intent.program in _WRITERS and _WRITES_TEXT.search(_without_heredocs(call.command)):
            return True  # `cat > x <<EOF`, `echo x >> .gitignore`: the text given, written
        # (`gh pr view` looks: of a noun's subcommand, its verb says what it does)
        if _only_looks(intent, call.command) or any(
            _CHECK_FLAG.match(flag) for flag in intent.flags
        ):
            continue
        if intent.flags & FIX_FLAGS or (intent.sub and FIXING_SCRIPTS.match(intent.sub)):
            return True
        if intent.program in CHECK:
            continue
        if intent.program in PACKAGE_MANAGERS and _changes_packages(intent):
            return True
        if intent.program in CHECK_SUBCOMMANDS and (
            intent.sub in CHECK_SUBCOMMANDS[intent.program]
            or (intent.program in PACKAGE_MANAGERS and intent.sub)
            # a python run checks, but for code that writes a file (`python3 - <<EOF ...
            # Path(p).write_bytes(...)`, how Codex converts or edits files: 2 people's
            # rollouts of the third held-out set, a write-guard's way round in the second)
            or (intent.program == "python" and not _writes_file(call.command))
        ):
            continue
        if intent.program.startswith("python") and not intent.sub:
            # python script.py: it may do anything; `python -c` prints
            if "-c" in intent.flags:
                continue
        return True
    return False


def _changes_packages(intent: Intent) -> bool:
    """Whether a package manager's own subcommand changes state (PACKAGE_CHANGES), not a
    script it runs (`npm run link`)."""
    words = [w for w in intent.words[1:] if not w.startswith("-")]
    if not words or words[0] in ("run", "run-script"):
        return False
    if words[0] in PACKAGE_CHANGES:
        return True
    after = PACKAGE_CHANGES_WITH.get(words[0])
    return after is not None and len(words) > 1 and words[1] in after


# Programs that print the text they are given: with their output sent to a file, they
# write it (a file written by `cat > x <<'EOF'` in the Codex rollouts of the third held-out
# set, and a write-guard's way round in the second).
_WRITERS = frozenset({"cat", "echo", "printf", "tee"})
# Their standard output sent to a file in their own simple command (not `2>`, not
# `/dev/null`), or a tee's file, a tee under sudo too (`echo "deb [arch=amd64 ...]" | sudo
# tee /etc/apt/sources.list.d/x.list`, the list file rewritten after its `rm`, was no step
# of the apt update it fixed: thirty-sixth held-out set).
_WRITES_TEXT = lazy(
    r"(?:^|[|;&\n(]\s*)(?:cat|echo|printf)\b[^|;&\n]*?(?<![\d&>])>>?\s*['\"]?(?!/dev/|&)[^\s|&;'\"<>]"
    r"|\|\s*(?:sudo\s+(?:-\w+\s+)*)?tee\b(?:\s+-a)?\s+['\"]?(?!/dev/|-)[^\s|&;'\"<>]"
)


def _prints(intent: Intent, command: str) -> bool:
    """Whether a sed only prints: without -i it writes to its output alone (`sed -n
    '1,200p' x`, how Codex reads a file, in every rollout of the held-out sets), unless
    its script writes a file (`s/a/b/w out.txt`)."""
    return (
        intent.program == "sed"
        and not any(f.startswith(("-i", "--in-place")) for f in intent.flags)
        and not re.search(r"(?:^|[;}/\s'\"])w\s+\S", command)
    )


# Cached: a session's calls name the same few paths again and again (4,096 paths made
# at 200 MB, for a few hundred distinct ones).
@functools.lru_cache(maxsize=4096)
def _basename(path: str | None) -> str:
    return PurePosixPath(_unix(path)).name if path else ""


_WINDOWS_PATH = lazy(r"^(?:[A-Za-z]:)?\\|^[A-Za-z]:/|^[^/]*\\")


def _unix(path: str) -> str:
    """A Windows path (`C:\\Users\\me\\a.ts`, Gemini CLI's and Copilot CLI's on Windows) with
    forward slashes, so that its folder and file name are found as a POSIX path's are."""
    return path.replace("\\", "/") if "\\" in path and _WINDOWS_PATH.match(path) else path


# A part of a path in quotes of its own (`C:\\vault\\"2021 - notes.md"`): a path written as
# a shell would take it, to a tool that takes it as it is (ninth held-out set: "File does
# not exist", then the Read of the path without them).
_QUOTED_PART = lazy(r"(^|/)(['\"])([^/]*)\2(?=/|$)")
# A Windows path by its drive, whose case does not matter (`c:\\Users`, `C:\\Users`).
_DRIVE = lazy(r"^[A-Za-z]:/")


def _same_file(one: str | None, other: str | None) -> bool:
    """Whether two tools' paths name the same file: the same path, or one that differs only
    by quotes around it or its parts or, on Windows and on macOS (a path in /Users, whose
    disk is case-insensitive unless made otherwise), by case: a Write of `PLAN.md` refused
    as not read, where `plan.md` had been read, then a Write of `plan.md` (twenty-first
    held-out set)."""
    return one == other or (one is not None and other is not None and _key(one) == _key(other))


@functools.lru_cache(maxsize=4096)
def _key(path: str) -> str:
    if len(path) > 1 and path[0] == path[-1] and path[0] in "'\"":
        path = path[1:-1]  # quotes around the whole of it
    path = _QUOTED_PART.sub(r"\1\3", _unix(path))
    return path.lower() if _DRIVE.match(path) or path.startswith("/Users/") else path


@functools.lru_cache(maxsize=4096)
def _parent(path: str) -> str:
    return str(PurePosixPath(_unix(path)).parent)


# (and a patch given to the shell's apply_patch: `*** Update File: x`, `*** Add File: x`)
_WRITES_TO = lazy(
    r"(?:>>?|\btee(?:\s+-a)?)\s*['\"]?([^\s|&;'\"]+)"
    r"|^\*\*\* (?:Update|Add) File: ['\"]?([^\s|&;'\"]+)",
    re.MULTILINE,
)


# Programs that make the file their last argument names: a copy, a move, a link.
_MAKERS = frozenset({"mv", "cp", "ln", "install", "rsync", "scp"})


def _files_of(call: Call, written: bool = False) -> set[str]:
    """The file names a call works on: its file, and the paths in its command.

    `written`: only those a shell command writes to (`> x`, `tee x`, `cp a x`, `git mv a x`,
    `sed -i ... x`, `perl -pi -e ... x`).
    """
    # (a set of its own: a caller may change what it is given)
    return set(_files_named(call.file_path, call.command, call.pattern, written))


@functools.lru_cache(maxsize=4096)
def _files_named(
    file_path: str | None, command: str | None, pattern: str | None, written: bool
) -> frozenset[str]:
    """_files_of, by what it reads of the call. Cached: _another_way asks it of each call
    after a failure, for each failure whose window holds the call, and _WRITES_TO goes
    through the whole command (a heredoc's script: 1.0 s of the real mix's fixes)."""
    names = {_basename(file_path)} if file_path and not written else set()
    if command:
        names |= {_basename(a or b) for a, b in _WRITES_TO.findall(command)}
        for intent in intents(command):
            if not written:
                names |= {a for a in intent.args if "." in a.strip(".")}
            elif intent.program in _MAKERS or (intent.program, intent.sub) == ("git", "mv"):
                made = [w for w in intent.words[1:] if not w.startswith("-")]
                if len(made) > (intent.sub is not None):
                    names.add(_basename(made[-1]))  # what a copy or a move makes
            elif _in_place(intent):
                names |= {a for a in intent.args if "." in a.strip(".")}
    if pattern:
        names.add(_basename(pattern.replace("**/", "")))
    return frozenset(n for n in names if len(n) >= 3 and "*" not in n)


def _in_place(intent: Intent) -> bool:
    """Whether a command edits the files it is given in place: `sed -i` (`-i.bak`,
    `--in-place`), `perl -pi -e` (`-0pi`, `-i.bak`; an apply_patch whose file was not UTF-8,
    then `perl -0pi -e "s/.../.../"` of it: twenty-fourth held-out set)."""
    if intent.program in {"sed", "gsed"}:
        return any(f.startswith(("-i", "--in-place")) for f in intent.flags)
    if intent.program == "perl":
        return any(
            not f.startswith(("--", "-M", "-I", "-e", "-E")) and "i" in f[1:].split(".")[0]
            for f in intent.flags
        )
    return False


def _inits(failed: Call, path: str | None) -> bool:
    """Whether a shell command was a program's `init`, and `path` the config file it was
    to write: its name holds `config` or ends in `rc`, and begins with the program's name,
    or the program's with it (`npx tailwindcss init -p` could not find tailwind 4's
    missing CLI, then tailwind.config.js was written: seventeenth held-out set, 3 failures
    worked around; `tsc --init`, tsconfig.json; `eslint --init`, .eslintrc.json). Not
    `git init` and .gitignore, which is no config git init writes. A package manager's
    `init` writes its manifest (`npm init -y`, npm not found, then package.json written:
    twenty-second held-out set; `cargo init`, Cargo.toml; `go mod init`, go.mod), and so
    does a project scaffolder, its `create` or a `create-*` package run (`npx
    create-next-app .`, `npm create vite`, `pnpm create next-app`: create-next-app refused
    a folder that held a README.md, then stopped at its questions, and the app was written
    by hand from package.json on: thirty-third held-out set)."""
    name = _basename(path).lower()
    stem = name.lstrip(".").split(".")[0]
    ran = intents(failed.command)
    if any(
        name == _MANIFESTS.get(i.program) and (i.sub in {"init", "create"} or "init" in i.args)
        for i in ran
    ):
        return True
    if name == "package.json" and any(
        _package_key(word).startswith("create-")
        for i in ran
        for word in (i.program, *(i.args if i.sub in _SCAFFOLD_RUNNERS else ()))
    ):
        return True
    if len(stem) < 3 or not ("config" in name or stem.endswith("rc")):
        return False
    return any(
        ("init" in i.args or "--init" in i.flags)
        and (i.program.lower().startswith(stem) or stem.startswith(i.program.lower()))
        for i in ran
    )


def _scaffolded_by_hand(failed: Call, call: Call) -> bool:
    """Whether a shell command wrote the file a failed `init` or scaffolder was to make
    (_inits: its manifest, its config) where it was to make it: in the folder the failed
    command named (`npm create vite@latest frontend`, then `cat <<'EOF' >
    frontend/package.json`), or, by a relative path, in the one it ran in (`npx
    create-next-app .`, then `cat > package.json`). `npm create vite` could not reach the
    registry (ENOTFOUND), and the agent wrote the Vite app file by file through heredocs
    (thirty-eighth held-out set, worked around; the edit tool's Write of it, see
    _another_way). A manifest written in another folder is another project's."""
    named: set[str] | None = None  # (the failed command's words, read only when needed)
    for first, second in _WRITES_TO.findall(call.command or ""):
        path = _unix(first or second)
        if not _inits(failed, path):
            continue
        folder = _parent(path).removeprefix("./").strip("/")
        if folder in {"", "."} and not path.startswith("/"):
            return True
        if named is None:
            named = {
                _unix(w).strip("/").removeprefix("./")
                for i in intents(failed.command)
                for w in i.words
            }
        if folder in named:
            return True
    return False


# The subcommands by which a package manager runs a package (`pnpm dlx create-next-app`).
_SCAFFOLD_RUNNERS = frozenset({"dlx", "exec", "x"})
# The manifest a package manager's `init` (or `create`) writes.
_MANIFESTS = {
    "npm": "package.json",
    "yarn": "package.json",
    "pnpm": "package.json",
    "bun": "package.json",
    "cargo": "cargo.toml",
    "go": "go.mod",
    "poetry": "pyproject.toml",
    "uv": "pyproject.toml",
    "composer": "composer.json",
}


# (127 is the shell's status for a program it did not find: said alone, as by `cat a ||
# cat b` with both errors sent to /dev/null, seventeenth held-out set.)
_MISSING_PROGRAM = lazy(
    r"command not found|not found: \w|No such file or directory \(os error 2\)"
    r"|\A\s*(?:Exit code|Process exited with code|exit status) 127\s*\Z"
    # PowerShell's and cmd's (`sed: The term 'sed' is not recognized as a name of a cmdlet`)
    r"|is not recognized as (?:the|a) name of a cmdlet|is not recognized as an internal or"
    # Windows' stand-in for a Python not installed, the Microsoft Store's alias (exit 49)
    r"|Python was not found; run without arguments to install"
)
# The status of that stand-in when its words were lost (Git Bash's `python -c ...` said only
# `Exit code 49`; cmd's is 9009): see _no_program.
_STORE_ALIAS_STATUS = lazy(
    r"\A\s*(?:Exit code|Process exited with code|exit status) (?:49|9009)\s*\Z"
)


def _no_program(failed: Call, error: str) -> bool:
    """Whether the shell did not find the failed call's program: it said so
    (_MISSING_PROGRAM), or a Python it ran exited with the status of the Microsoft Store's
    alias, saying nothing. Five `python -c` and `python3 -c` scripts of a Windows session
    (thirty-ninth held-out set, two of them an Explore subagent's) exited 49 with no output;
    each was worked around by the Grep tool, `head -c` or a `node -e` script on the same
    file ("Python is not available. Let me use jq or node instead"). No script of its own
    exits so with nothing said before."""
    return _says_no_program(error) or (
        _STORE_ALIAS_STATUS.match(error) is not None
        and any(i.program == "python" for i in intents(failed.command))
    )


def _is_path(word: str) -> bool:
    return not word.startswith("-") and ("/" in word or "." in word.strip("."))


# A Windows drive as Git Bash writes it (`/c/Users`), the way _path_key writes `C:/Users`.
_GIT_BASH_DRIVE = lazy(r"^([A-Za-z]):/")


def _paths_of(intent: Intent) -> list[str]:
    """The words of a simple command that are paths, Windows ones (`.\\lib\\api.ts`) too."""
    return [w for w in intent.words[1:] if _is_path(w) or ("\\" in w and not w.startswith("-"))]


def _code_paths(intent: Intent) -> set[str]:
    """The paths a simple command works on, as paths are compared (_path_key): its words
    that are paths, or, given its code inline, the paths that code quotes (_objects).
    `ruby -e "...YAML.load_file('_bmad-output/x/sprint-status.yaml')..."`, ruby not there,
    then `node -e "...require('yaml')..."`, the module not there, then `rg '^  epic-' ...
    sprint-status.yaml | wc -l` and an awk tally of that file: another program's look at
    the file the script was to read (thirty-ninth held-out set, a Codex user, both worked
    around). A code's words are not its paths."""
    if intent.code is not None:
        return set(_quoted_files(intent.code))
    return {_path_key(w) for w in _paths_of(intent)}


# What code does besides reading and printing: writes or removes a file, makes a folder,
# runs a command (python's, node's, ruby's words).
_CODE_ACTS = lazy(
    r"\b(?:rmtree|unlink|os\.remove|os\.rename|makedirs|mkdir|subprocess|os\.system"
    r"|child_process|execSync|spawnSync|(?:rm|unlink|rename|mkdir)Sync|File\.(?:write|delete"
    r"|rename)|FileUtils)\b"
)


def _reads_only(intent: Intent) -> bool:
    """Whether code given inline only reads what it names and prints (`python3 -c
    "import json; print(json.load(open('x.json'))['a'])"`): a look, in its own language."""
    return (
        intent.code is not None
        and not _writes_file(intent.code)
        and not _CODE_ACTS.search(intent.code)
    )


def _path_key(word: str) -> str:
    """A path as two shells' looks are compared: its quotes, trailing slash and Windows
    backslashes aside, a drive as Git Bash writes it (`C:\\Users\\me` is `/c/Users/me`)."""
    path = _unix(word.strip(_QUOTES)).rstrip("/")
    return _GIT_BASH_DRIVE.sub(lambda m: f"/{m.group(1).lower()}/", path)


def _cancelled_beside(failed: Call, after: Sequence[Call]) -> list[Call]:
    """The calls Claude Code cancelled because a call sent beside them failed (`Cancelled:
    parallel tool call Bash(ls ...) errored`, `Sibling tool call errored`): the first of
    the window, one after another, each of a sibling_error. They were sent in the same
    turn as the failed call, for other goals, and never ran: neither they nor their reruns
    retry it or fix it (five `ls` of guessed folders, the fifth of one not there; the
    cancelled `ls` of other folders, rerun alone, "fixed" it with the cancelled one as its
    step: thirty-third held-out set, not a problem)."""
    found = []
    for call in after:
        if call.kind != _CANCELLED:
            break
        found.append(call)
    return found


def _reruns_beside(failed: Call, call: Call, beside: Sequence[Call]) -> bool:
    """Whether `call` is one of the calls cancelled beside the failed one, or runs one of
    them again as it was (see _cancelled_beside); not one that runs the failed call's
    own command, which a cancelled sibling may share."""

    def what(c: Call) -> tuple[str | None, ...]:
        return (_SAME_TOOL.get(c.name, c.name), c.command, c.file_path, c.pattern, c.url)

    mine = what(failed)
    return any(
        call.tool_use_id == other.tool_use_id
        or (what(call) == what(other) != mine and any(what(other)[1:]))
        for other in beside
    )


def _looked_again(failed: Call, call: Call, output: Callable[[str], str]) -> bool:
    """Whether a shell look that never ran (cancelled with its sibling) was made again by
    another look of the same path, or a listing of its folder that printed its name: `find
    src/processors -type f`, then `ls -la src/processors/`; PowerShell's `Test-Path
    "C:\\Users\\me\\.claude\\projects"` sent to Git Bash, then `ls -la /c/Users/me/.claude/`
    showing `projects` (twentieth and twenty-second held-out sets: 4 people's checks, each
    labelled fixed so)."""
    if failed.kind not in _NOT_RUN or failed.name not in SHELL_TOOLS:
        return False
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    mine = intents(failed.command)
    theirs = intents(call.command)
    if not mine or not theirs or not all(_looks(i) for i in (*mine, *theirs)):
        return False
    printed = output(call.tool_use_id)  # (read last: most failures are no such look)
    if not printed.strip():
        return False
    asked = {_path_key(w) for i in mine for w in _paths_of(i)}
    looked = {_path_key(w) for i in theirs for w in _paths_of(i)}
    return any(
        path in looked or (_parent(path) in looked and _basename(path) in printed.split())
        for path in asked
        if path.count("/") >= 2
    )


# Programs that say why when they fail (`fatal: not a git repository`, `ls: x: No such
# file`): exit 1 with nothing printed was no run of theirs.
_SAY_WHY = frozenset({"git", "ls", "pwd", "cat", "head", "tail", "wc", "stat"})


def _by_full_path(failed: Call, call: Call, error: str) -> bool:
    """Whether a look the shell did not run was worked around by a look run by its
    program's full path. After `git worktree remove` took away the shell's own folder, each
    command exited 1 and printed nothing, `git worktree list` and `pwd` too, which say why
    when they fail; `/bin/ls -la` of the folder the worktree was in ran, and showed what
    `git worktree list` was to (thirty-ninth held-out set: four such looks worked around,
    as `ls -la`, then `/bin/ls -la`, is retried). The look by full path is of a folder the
    failed call went into or named, or above it (any, when it named none)."""
    command = failed.command or ""
    mine = intents(command)
    if (
        call.failed
        or not mine
        or not _NOTHING_BUT_STATUS.match(error)
        or "/dev/null" in command
        or not all(
            i.program in _SAY_WHY
            and (_only_looks(i, command) or (i.sub == "worktree" and "list" in i.args))
            for i in mine
        )
    ):
        return False
    theirs = intents(call.command)
    if not theirs or not all(_only_looks(i, call.command or "") for i in theirs):
        return False
    if not _full_paths(call.command):
        return False
    named = [_unix(p).rstrip("/") for p in _folders(failed)]
    named += [_unix(p).rstrip("/") for i in mine for p in _paths_of(i)]
    looked = [_unix(p).rstrip("/") for i in theirs for p in _paths_of(i)]
    return not named or any(n == p or n.startswith(f"{p}/") for n in named for p in looked)


def _full_paths(command: str | None) -> set[str]:
    """The programs a shell command runs by their full path (`/bin/ls`)."""
    return {
        i.words[0]
        for i in intents(command)
        if i.words and i.words[0].startswith("/") and _program_name(i.words[0]) == i.program
    }


def _proved_to_run(
    failed: Call, call: Call, error: str, before: Sequence[Call], output: Callable[[str], str]
) -> bool:
    """Whether a look by full path that printed nothing through a pipe (`/bin/ls x | grep
    y`: the folder gone, its answer) worked around a look the shell did not run
    (_by_full_path): a call before it ran that program by the same path and printed, so
    the program ran (thirty-ninth held-out set); otherwise its silence proves nothing
    (_silent_again)."""
    paths = _full_paths(call.command)
    return (
        bool(paths)
        and _by_full_path(failed, call, error)
        and any(
            not c.failed
            and c.name in SHELL_TOOLS
            and _full_paths(c.command) & paths
            and output(c.tool_use_id).strip()
            for c in before
        )
    )


def _looked_in_container(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell look of paths that are there but that it could not look at (Claude
    Code's `ls in '/home/me/.n8n' was blocked ... may only list files in the allowed working
    directories`, a permission denied) was made by a container that mounts them: `docker run
    --rm -v /home/me/.n8n:/mnt_n8n alpine sh -lc 'ls -la /mnt_n8n'` (thirty-seventh
    held-out set, as the user suggested; labelled worked around). A look there of a path
    the failed look named, through its mount; not of a path not there, which a mount
    makes."""
    if _says_missing(error) or _STATUS_ONLY.fullmatch(error.strip()):
        return False
    mine = [i for i in intents(failed.command) if i.program not in _SAYS]
    if not mine or not all(i.program in LOOK for i in mine):
        return False
    asked = {_path_key(w) for i in mine for w in _paths_of(i)}
    for words in segments(call.command):
        run = _container_run(words)
        if run is None:
            continue
        mounts, command = run
        for i in _intents(None, [command]) if command else []:
            if i.program in _SAYS or i.program not in LOOK:
                continue
            for path in map(_path_key, _paths_of(i)):
                for source, target in mounts:
                    if path == target or path.startswith(target + "/"):
                        if source + path[len(target) :] in asked:
                            return True
    return False


# `docker run`'s options that take the next word for their value (`-v a:b`, `--name x`).
_RUN_VALUED = frozenset(
    "-v --volume -e --env --env-file -p --publish -w --workdir -u --user --name --network"
    " --net -h --hostname --mount --entrypoint -l --label --platform --pull --restart -m"
    " --memory --cpus --add-host --device --tmpfs --volumes-from --cap-add --cap-drop"
    " --security-opt --shm-size --gpus --ulimit --dns --ipc --pid --runtime --log-driver"
    " --log-opt --expose --group-add -a --attach --cidfile --stop-signal".split()
)


def _container_run(words: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]] | None:
    """A `docker run` (or podman's) bind mounts, each (host path, path inside), and the
    command it runs in the container; None for any other command."""
    program, args = _program(words)
    if program not in _CONTAINERS or args[:1] != ["run"]:
        return None
    mounts: list[tuple[str, str]] = []
    at = 1
    while at < len(args) and args[at].startswith("-"):
        option, equals, value = args[at].partition("=")
        if not equals and option in _RUN_VALUED and at + 1 < len(args):
            value = args[at + 1]
            at += 1
        at += 1
        if option in {"-v", "--volume"} and value.count(":") >= 1:
            source, target = value.split(":")[:2]
            if source.startswith(("/", "~", ".")):
                mounts.append((_path_key(source), _path_key(target)))
    return mounts, list(args[at + 1 :])


def _path_corrected(failed: Call, call: Call) -> bool:
    """Whether a file tool's call that got past the failed one is the same tool on the same
    file name at another path (a Read of `src/lib/x.ts` not there, then of
    `rallycoach/src/lib/x.ts`; an Edit of `~/.claire/settings.json`, then of
    `~/.claude/settings.json`; Codex's apply_patch given the repository's folder): the failed
    call made again with its path corrected, a fix as the labels define one ("the same goal
    later succeeded by the same kind of call, maybe changed"), though _another_way finds it
    as it finds another file. A new user's try (nu44 finding 8): over real + sets 30-40, 23
    such failures labelled fixed were "worked around", none labelled so."""
    return (
        failed.name in FILE_TOOLS
        and call.name == failed.name
        and bool(failed.file_path)
        and bool(call.file_path)
        and not _same_file(call.file_path, failed.file_path)
        and _basename(call.file_path) == _basename(failed.file_path)
    )


def _another_way(
    failed: Call,
    call: Call,
    error: str = "",
    not_failing: frozenset[Intent] | tuple[()] = (),
    before: Sequence[Call] = (),
) -> bool:
    """Whether a successful call of another tool (or file) reached the failed call's goal.
    `before`: the calls of the window before it (a script file it runs was written there)."""
    if failed.name == "wait" and call.name == "write_stdin" and _polled_instead(call, error):
        return True
    folder = _unix(failed.file_path or "").rstrip("/") + "/"
    if failed.name in FILE_TOOLS and call.name in FILE_TOOLS:
        if failed.file_path and call.file_path:
            if call.name in READ_TOOLS and _unix(call.file_path).startswith(folder):
                return True  # a folder read as a file (EISDIR), then a file in it
            if _same_file(call.file_path, failed.file_path):
                # an Edit that did not apply, then a Write; not a Read, then a Write (that
                # creates what was to be read: the Read that follows confirms it)
                return (
                    call.name != failed.name
                    and (call.name in EDIT_TOOLS) == (failed.name in EDIT_TOOLS)
                    and (failed.kind not in _STOPPED or _same_edit(failed, call))
                )
            # the same file name in another folder: what was meant, unless the file at
            # the failed path was the right one (too large, binary, not read yet); or,
            # the file not there, a module guessed as a folder (`types/racquet.ts`, then
            # `types.ts` of a subproject: seventeenth held-out set)
            read = _basename(call.file_path)
            return (
                call.name == failed.name
                and not _file_was_there(failed, error)
                and (
                    read == _basename(failed.file_path)
                    or (_says_missing(error) and read in _module_names(failed.file_path))
                )
            )
        return False
    if failed.name in SHELL_TOOLS and call.name in SHELL_TOOLS:
        if _shared_intent(failed.command, call.command, not_failing) is not None:
            return True
        if _searched_for(failed, call, error) or _viewed_elsewhere(failed, call, error):
            return True
        if "no matches found" in error and _views_same_file(failed, call):
            # zsh took a path for a pattern (`[eventId]` of a route), then another program
            # viewed that file, the path quoted (`sed -n '1,120p' .../[eventId]/x.vue`,
            # then `cat '.../[eventId]/x.vue'`: twenty-second held-out set)
            return True
        if _found_as(failed, call, error) or _acted_otherwise(failed, call):
            return True
        if _by_full_path(failed, call, error):
            return True
        if _says_local_changes(error) and _reset_to(call) and _runs(failed, "git"):
            # git refused over local changes (a pull, a checkout, a filter-branch), then
            # `git reset --hard origin/main` dropped them and put the branch where it was
            # to go (ninth and twelfth held-out sets: 3 failures, worked around)
            return True
        if _made_anew(failed, call, error) or _removed_whole(failed, call, error):
            return True
        written = _files_of(call, written=True)
        if (
            written
            and any(name in (failed.command or "") for name in written)
            and _writes_file(failed.command or "")
        ):
            # a script that was to write files failed, then the shell wrote one of them
            # (`node <<'JS' ... writeFileSync('ui/vite.config.ts', ...)`, then `cat >
            # ui/vite.config.ts <<'EOF'`: third held-out set)
            return True
        if _scaffolded_by_hand(failed, call):
            return True
        if _named_by_script(failed, call, error, before):
            return True
        if _looked_in_container(failed, call, error):
            return True
        if _mangled_cd(failed, call, error):
            return True
        mangled = _mangled_view(failed, error)
        if mangled is not None:
            paths = {_path_key(w) for w in _paths_of(mangled)}
            return any(
                _shows_file(i) and paths & {_path_key(w) for w in _paths_of(i)}
                for i in intents(call.command)
            )
        mine = intents(failed.command)
        missing = _no_program(failed, error)
        # a look may be redone by a look (`sed -n '1,200p' x` in PowerShell, which has no
        # sed, then `Get-Content x`: twenty-second held-out set); so may code given inline
        # that only reads what it names (_reads_only)
        looks = bool(mine) and all(
            i.program in LOOK or _only_views(i) or _reads_only(i) for i in mine
        )
        # A view of a file that was there whose program could not show it (PowerShell's
        # `Get-Content x` crashed, `Internal CLR error`), then another program's look of
        # that file: twenty-fourth held-out set. Not a search (`rg "{{" x`, a regex it could
        # not parse, is not answered by `head x`) nor a listing (`ls x 2>/dev/null`, exit 1,
        # says nothing of why). What echo says in a branch (`... else (echo MISSING)`)
        # shows no file, nor is a part of one.
        shown = [i for i in mine if i.program not in _SAYS]
        views = bool(shown) and all(_shows_file(i) for i in shown)
        said = not _STATUS_ONLY.fullmatch(error.strip())  # (`2>/dev/null`: why, unknown)
        # code given inline that could not run for want of a module it imports (`node -e
        # "...require('yaml')..."`) is as its program not there (see _code_paths)
        unrun = missing or (
            any(i.code is not None for i in mine) and _missing_module(error) is not None
        )
        if unrun or (views and said and not _says_missing(error)):
            # `tree x` not found, then `find x`: another program on the same paths
            paths = {w.removeprefix("./") for i in mine for w in _code_paths(i)}
            programs = {i.program for i in mine}
            if missing and _reached_by_url(paths, call, programs):
                return True
            # a content search asks its pattern of the paths (see _shows_whole)
            searches = bool(shown) and all(i.program in _MATCHERS for i in shown)
            return any(
                paths & {w.removeprefix("./") for w in _code_paths(i)}
                and (looks or i.program not in LOOK)
                and (not looks or i.program not in programs)
                and (not searches or _shows_whole(i))
                for i in intents(call.command)
            ) or (missing and _same_question(failed.command, call.command))
        return False
    if failed.name in SHELL_TOOLS and call.name in READ_TOOLS and _found_as(failed, call, error):
        return True
    if failed.name in SHELL_TOOLS and _read_from_page(failed, call, error):
        return True
    if failed.name in SHELL_TOOLS and call.name in EDIT_TOOLS:
        # a file the shell was to make (`git mv a b`, `cp a b`, `gen > b`) and could not,
        # made by the edit tool: four `git mv` of a Git Bash path that turned into another,
        # then the Write of the new name (ninth held-out set)
        if _basename(call.file_path) in _files_of(failed, written=True):
            return True
        if call.name not in READ_TOOLS and _inits(failed, call.file_path):
            return True
    if failed.name in SHELL_TOOLS and call.name in READ_TOOLS | SEARCH_TOOLS:
        if _looked_by_tool(failed, call, error):
            return True
    if failed.name in SHELL_TOOLS and call.name in FILE_TOOLS:
        # `cat x` failed, then Read x: the same file, looked at another way
        return _viewed_by_tool(failed, call)
    if failed.name in EDIT_TOOLS and call.name in SHELL_TOOLS:
        # an edit refused, then the file written by the shell (`cat > x <<EOF`), or by a
        # script whose code names it (`python3 - <<EOF ... Path('/p/x').write_text(...)`)
        return _basename(failed.file_path) in _files_of(call, written=True) or _script_writes(
            call, failed.file_path
        )
    if failed.name in FILE_TOOLS and call.name in SHELL_TOOLS:
        # a file viewed by the shell; a folder read as a file, listed (a listing of a file
        # that does not exist is the search that finds it: a step, see _confirmed)
        viewers = {"cat", "head", "tail", "less", "sed"}
        if _says_not_a_file(error):
            viewers |= {"ls", "find", "tree"}
        if failed.name in READ_TOOLS and _says_too_large(error):
            # too large to read whole, searched by the shell (`grep -n name document.xml`
            # after a Read of the 1.2 MB file: twenty-fourth held-out set)
            viewers |= {"grep", "egrep", "fgrep", "rg", "ag", "ack"}
        path = (failed.file_path or "").rstrip("/")
        if path and failed.name in READ_TOOLS and _file_was_there(failed, error):
            # a file the Read tool could not read (binary, too large) opened by a script
            # (`python3 -c "...load_workbook('/p/book.xlsx')"`): its path is in the code
            if path in (call.command or "") and any(
                i.program not in LOOK and i.flags & INLINE_CODE for i in intents(call.command)
            ):
                return True
        home = _from_home(path)
        return bool(path) and any(
            i.program in viewers
            and (
                _basename(path) in i.args
                or any(a.rstrip("/").endswith(path) or a.rstrip("/") == home for a in i.words)
            )
            for i in intents(call.command)
        )
    if failed.name in SEARCH_TOOLS and call.name in SHELL_TOOLS:
        # Glob or Grep could not run (Claude Code's bundled ripgrep: `spawn .../rg
        # EACCES`), then the same search by find or grep: a word of its pattern searched for
        # (a pattern with a space, `grep -n "function a\|b" x`, is no word of the intent's, a
        # message: _search_words reads it; thirty-second held-out set, where the first of two
        # such Grep failures, its pattern one word, was worked around and the second not)
        words = set(_PATTERN_WORD.findall(failed.pattern or ""))
        return bool(words) and (
            any(
                (i.program in SEARCHERS or (i.program, i.sub) == ("git", "grep"))
                and words & set(_PATTERN_WORD.findall(" ".join(i.words[1:])))
                for i in intents(call.command)
            )
            or any(words & found for found in _search_words(call.command).values())
        )
    if failed.name in SHELL_TOOLS and call.name in SEARCH_TOOLS and _globbed(failed, call):
        return True  # a shell find that could not run, then the Glob of what it looked for
    if failed.name in SHELL_TOOLS and _listed_by_glob(failed, call, error):
        return True
    if failed.name in SHELL_TOOLS and call.name in SEARCH_TOOLS and _grepped(failed, call, error):
        return True
    if failed.name in READ_TOOLS and call.name in SEARCH_TOOLS and _says_not_a_file(error):
        # a folder read as a file (EISDIR), then listed by a Glob of what is in it
        if _lists(call, failed.file_path or ""):
            return True
    if failed.name in READ_TOOLS and call.name in SEARCH_TOOLS:
        # a file too large to read whole, searched instead (as Claude Code's message advises),
        # itself or its folder (a Grep of the 63k-token test file's folder for the function
        # wanted: twenty-fourth held-out set)
        big = failed.file_path
        return bool(big) and (
            _same_file(call.file_path, big)
            or (
                _says_too_large(error)
                and bool(call.file_path)
                and _unix(call.file_path or "").rstrip("/") == _parent(big or "")
            )
        )
    if failed.name == "Skill" and call.name in READ_TOOLS and call.file_path:
        # a skill the Skill tool did not know (`Unknown skill: apply-grant`), whose
        # instructions were then read and followed by hand (sixteenth held-out set)
        name = _skill_name(failed.input)
        return bool(name) and f"/skills/{name}/" in _unix(call.file_path)
    if failed.name == "Skill" and call.name in SHELL_TOOLS:
        return _skill_done_by_hand(failed, call, error)
    if failed.name in _STOPPERS and call.name in SHELL_TOOLS:
        # a command left running that the tool could not stop by its id (`No task found with
        # ID: bev9zowtl`), then a process stopped by the shell (`kill 150533`, its id read
        # from `ps`): thirty-sixth held-out set, worked around
        return any(i.program.lower() in _KILLERS for i in intents(call.command))
    if call.name == failed.name and failed.url and not (failed.command or failed.file_path):
        # a page fetched, by a fetch of another page of the same site (a 404 of
        # github.com/me/dotfiles is not worked around by the Home Manager manual); a tool
        # without a page called again is a retry or nothing (see _retry)
        return _host(failed.url) == _host(call.url)
    if failed.url and call.name in SHELL_TOOLS:
        return _fetched_otherwise(failed.url, call)
    if failed.url and call.name in WEB_SEARCH_TOOLS:
        # a page refused (403) or not found, then a web search for what was asked of it
        # (the paper's authors and journal: twelfth held-out set, twice); not of its
        # address: a search of the site's name made in parallel answers nothing
        prompt = _input_text(failed.input, "prompt")
        asked = {w for w in _request_words(prompt) if len(w) >= 4} - _WEB_WORDS
        return len(asked & _request_words(call.input)) >= 2
    return False


# What Codex's `wait` says of a cell id that is no code-mode cell's (`exec cell 12556 not found`).
_NO_CELL = lazy(r"\bexec cell (\S+) not found")


def _polled_instead(call: Call, error: str) -> bool:
    """Whether a write_stdin polled the command a `wait` could not wait on: the id the wait
    was given was no code-mode cell's (`exec cell 12556 not found`) but the session id of a
    command exec_command left running, and the poll is of that session (`session_id: 12556`).
    The agent waited on its running benchmark with the wrong tool, then polled it and got
    its results (thirtieth held-out set, worked around). A poll of another session waits on
    another command."""
    found = _NO_CELL.search(error)
    if found is None:
        return False
    try:
        polled = json.loads(call.input or "").get("session_id")
    except (ValueError, AttributeError):
        return False
    return polled is not None and str(polled) == found.group(1)


# What git says when a merge, rebase, cherry-pick or revert stopped on conflicts, to be
# resolved and then concluded.
_CONFLICTS = lazy(
    r"^CONFLICT \(|^Automatic merge failed; fix conflicts|^error: could not (?:apply|revert) "
    r"|^(?:hint: )?Resolve all conflicts manually",
    re.MULTILINE,
)
# git's subcommands that may stop on conflicts, and what concludes each: a commit of the
# result, or the subcommand `--continue`d (a pull's is its merge's, or its rebase's).
_CONCLUDED_BY = {
    "merge": {"commit", "merge"},
    "pull": {"commit", "merge"},
    "cherry-pick": {"commit", "cherry-pick"},
    "revert": {"commit", "revert"},
    "rebase": {"rebase"},
}


def _conflicted(failed: Call, error: str) -> frozenset[str]:
    """The git subcommands of a failed shell command that stopped on conflicts: what
    concludes them (see _concludes); empty when it did not."""
    if failed.name not in SHELL_TOOLS or not _CONFLICTS.search(error):
        return frozenset()
    ends: set[str] = set()
    for i in intents(failed.command):
        if i.program == "git" and i.sub in _CONCLUDED_BY:
            rebases = i.sub == "rebase" or (i.sub == "pull" and "--rebase" in i.flags)
            ends |= _CONCLUDED_BY["rebase" if rebases else i.sub]
    return frozenset(ends)


def _concludes(ends: frozenset[str], call: Call, before: Sequence[Call]) -> bool:
    """Whether a shell call concluded a merge (or rebase, cherry-pick, revert) that stopped
    on conflicts: the conflicts resolved, `git commit` of the result (`git add README.md &&
    git commit -m "Merge ..."`, after an add/add conflict in README.md, the file rewritten:
    thirty-eighth held-out set, fixed), or the subcommand `--continue`d (`git rebase
    --continue`). The merge is never run again: it is done once concluded. Not after a call
    that gave it up (`git merge --abort`, `git reset --hard`): a commit then is of other work.
    `ends`: what concludes it (_conflicted)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    for earlier in before:
        if earlier.name in SHELL_TOOLS and not earlier.failed:
            for i in intents(earlier.command):
                if i.program == "git" and (
                    i.flags & _ABORTS or (i.sub == "reset" and i.flags & {"--hard", "--merge"})
                ):
                    return False
    return any(
        i.program == "git"
        and i.sub in ends
        and ((i.sub == "commit" and "--amend" not in i.flags) or "--continue" in i.flags)
        for i in intents(call.command)
    )


# The tools that stop a command left running in the background, by the id they gave it.
_STOPPERS = frozenset({"TaskStop", "KillShell", "KillBash"})
# The programs that stop a process, by its id or its name.
_KILLERS = frozenset({"kill", "pkill", "killall", "taskkill", "stop-process"})


# The shell tools that run bash, Git Bash on Windows (Claude Code's, Copilot CLI's and
# opencode's); Codex's and Gemini CLI's run PowerShell or cmd there.
_BASH_TOOLS = frozenset({"Bash", "bash"})
# A Windows path written with backslashes outside quotes, as a word of a command.
_BARE_WINDOWS_PATH = lazy(r"""(?:^|(?<=[\s;&|(]))[A-Za-z]:\\[^\s"'|&;<>()]*""")


def _mangled_view(failed: Call, error: str) -> Intent | None:
    """The last command of a failed bash call that said only its status, when it views a
    Windows path written with backslashes outside quotes: bash took each for an escape, and
    the program was given another path (`ping -n 30 127.0.0.1 >nul && type
    C:\\Users\\me\\x.out 2>nul` in Git Bash looked for `C:Usersmex.out`). Whatever ran
    before it, that view could not work: a view of that file by its path written otherwise
    that succeeded (`cat /c/Users/me/x.out`) reached its goal (thirty-fifth held-out set,
    labelled worked around, as its siblings that said why were)."""
    if failed.name not in _BASH_TOOLS or not _STATUS_ONLY.fullmatch(error.strip()):
        return None
    mine = intents(failed.command)
    if not mine or not _shows_file(mine[-1]):
        return None
    bare = set(_BARE_WINDOWS_PATH.findall(failed.command or ""))
    return mine[-1] if bare & set(mine[-1].words[1:]) else None


# bash's word that a `cd` found no such folder (`bash: line 1: cd: $'D:x': No such file ...`).
_CD_NOT_THERE = lazy(r"\bcd: .*: No such file or directory")


def _worked_on(call: Call) -> tuple[set[str], bool]:
    """The paths a shell call worked on (_path_key), a relative one joined to the folder its
    last `cd` went into, and whether it only looked at them: its commands' path operands
    and the files its inline code names in quotes (_quoted_files); a look, or a script that
    writes none, only looks (_script_reads)."""
    folders = _folders(call)
    there = _path_key(folders[-1]) if folders else ""
    paths = set()
    looks = True
    for i in intents(call.command):
        named = [_path_key(w) for w in _paths_of(i) if i.code is None]
        if i.code is not None:
            named += _quoted_files(i.code)
            looks = looks and bool(_script_reads(i))
        else:
            looks = looks and (_looks(i) or _only_views(i))
        for path in named:
            path = path.removeprefix("./")
            relative = there and not path.startswith(("/", "~")) and not _WINDOWS_PATH.match(path)
            paths.add(f"{there}/{path}" if relative else path)
    return paths, looks


def _mangled_cd(failed: Call, call: Call, error: str) -> bool:
    """Whether a bash call whose `cd` went nowhere, its Windows folder written with
    backslashes outside quotes (`cd D:\\x\\output && grep -o ... baselines.json`: bash
    took each for an escape, `cd: $'D:xoutput': No such file or directory`), and so ran
    nothing after it, was done by a later call on the same files, their paths written
    otherwise: a `node -e` reading `D:/x/output/baselines.json` to count what the grep was
    to count (thirty-ninth held-out set: 2 of 3 such chains, labelled worked around and
    fixed). A look is done by a look (a script that writes nothing) of them; another
    program that writes them changes what the look was to see."""
    if failed.name not in _BASH_TOOLS or call.name not in SHELL_TOOLS:
        return False
    folders = _folders(failed)
    if not folders or not _BARE_WINDOWS_PATH.fullmatch(folders[-1]):
        return False
    if not _CD_NOT_THERE.search(error):
        return False
    asked, looked = _worked_on(failed)
    theirs, looks = _worked_on(call)
    # (the folder alone is no file of the work: `cd D:\\x && npm test`)
    asked.discard(_path_key(folders[-1]))
    return bool(asked & theirs) and (looks or not looked)


def _script_reads(intent: Intent) -> frozenset[str]:
    """The files an interpreter's inline code names in quotes (as paths are compared,
    _path_key), when it only reads (_reads_only): what a script that only reads was to
    look at (`python -c "...json.load(open('x.json'))..."`). None for a script that
    writes or acts, or names no file."""
    return _quoted_files(intent.code) if _reads_only(intent) and intent.code else frozenset()


def _looked_by_tool(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell command that only looked, and whose program was not there
    (_no_program), was answered by a file tool's look at a path it named: Python missing on
    Windows (Git Bash's `Exit code 49`), a `python -c` script that was to read
    heat_classification.json, then the Grep tool's search of that file (thirty-ninth
    held-out set, an Explore subagent's, worked around so). The look another program's
    (`tree x`, then `find x`: see _another_way) may be the tool's; a script that was to
    write is not redone by a look."""
    if not call.file_path or not _no_program(failed, error):
        return False
    mine = intents(failed.command)
    if not mine or not all(_looks(i) or _only_views(i) or _script_reads(i) for i in mine):
        return False
    paths = {_path_key(w).removeprefix("./") for i in mine for w in _paths_of(i)}
    paths |= {p.removeprefix("./") for i in mine for p in _script_reads(i)}
    return _path_key(call.file_path).removeprefix("./") in paths


def _viewed_by_tool(failed: Call, call: Call) -> bool:
    """Whether a file tool's call is of a file the failed shell command's `cat`, `head`,
    `tail` or `less` was given: `cat x` failed, then Read x. That file, not any the
    command named: a launch of `~/.config/waybar/scripts/display-settings.py` that `cat`
    its log after, killed by its own `pkill -f`, was "worked around" by an Edit of the
    script (thirty-third held-out set: 2 failures fixed by the launch without pkill)."""
    name = _basename(call.file_path)
    return bool(name) and any(
        name in {_basename(w) for w in i.words[1:]}
        for i in intents(failed.command)
        if i.program in {"cat", "head", "tail", "less"}
    )


_SLUG = lazy(r"[\w.-]+/[\w.-]+")


def _reached_by_url(paths: set[str], call: Call, programs: set[str]) -> bool:
    """Whether another program's URL names a repository (`owner/name`) the missing program
    was given: `gh repo view 17871787/nutrient-data-v2` (`gh: command not found`), then
    `git clone https://github.com/17871787/nutrient-data-v2.git` (twenty-eighth held-out
    set, worked around)."""
    slugs = {p for p in paths if _SLUG.fullmatch(p) and not p.startswith(".")}
    if not slugs:
        return False
    for intent in intents(call.command):
        if intent.program in programs:
            continue
        for word in intent.words[1:]:
            if _names_repository(word.strip(_QUOTES), slugs):
                return True
    return False


def _names_repository(url: str, slugs: set[str]) -> bool:
    """Whether a URL is of one of the repositories `slugs` (`owner/name`)."""
    if "://" not in url and not url.startswith("git@"):
        return False
    url = url.rstrip("/").removesuffix(".git")
    return any(url.endswith(("/" + s, ":" + s)) or f"/{s}/" in url for s in slugs)


def _read_from_page(failed: Call, call: Call, error: str) -> bool:
    """Whether a page fetched read what a command that could not run (not there, or not
    logged in) was to look up about a repository: `gh release view --repo o/r` (`To get
    started with GitHub CLI, please run:  gh auth login`), then a WebFetch of
    github.com/o/r/releases/latest, which gave the version asked for (thirty-first held-out
    set, worked around; the card said "not fixed"). Only a look (`view`, `list`): a page
    read makes no pull request that `gh pr create` was to make."""
    if not call.url or not (_no_program(failed, error) or _says_logged_out(error)):
        return False
    looks = [i for i in intents(failed.command) if _looks(i) or LOOK_ANY & set(i.words[1:3])]
    paths = {_path_key(w).removeprefix("./") for i in looks for w in _paths_of(i)}
    slugs = {p for p in paths if _SLUG.fullmatch(p) and not p.startswith(".")}
    return bool(slugs) and _names_repository(call.url, slugs)


# A program's word that an object it was told to act on is not there (not a file: those
# have rules of their own): `No such container: web`, `cluster '17 main' does not exist`.
_NO_SUCH = lazy(
    r"No such (?:container|image|network|volume|service|object)\b|\S+ '[^'/]+' does not exist"
)
# The words of a command that makes something (`docker compose up`, `pg_createcluster`,
# `docker run`, `kind create cluster`).
_MAKES = frozenset({"create", "up", "run", "new", "init"})


def _made_anew(failed: Call, call: Call, error: str) -> bool:
    """Whether a command made the object the failed one acted on, that its error said was
    not there: `docker restart web` (`No such container: web`), then `docker compose up -d
    web`; `pg_ctlcluster 17 main start` (`cluster '17 main' does not exist`), then
    `pg_createcluster 17 main --start` (fourteenth held-out set, worked around both)."""
    objects = _not_there(failed.command, error)
    return bool(objects) and any(
        objects & intent.args
        and ("create" in intent.program or intent.sub in _MAKES or bool(intent.args & _MAKES))
        for intent in intents(call.command)
    )


@functools.lru_cache(maxsize=256)
def _not_there(command: str | None, error: str) -> frozenset[str]:
    """The objects a command named that its error's line says are not there (asked once
    per failure, not once per call of its window)."""
    found = _NO_SUCH.search(error)
    if found is None:
        return frozenset()
    end = error.find("\n", found.end())
    line = error[error.rfind("\n", 0, found.start()) + 1 : end if end >= 0 else None]
    named = {a for i in intents(command) for a in i.args if len(a) >= 3}
    return frozenset({w.strip(_AROUND_WORD) for w in line.split()} & named)


def _input_text(input_json: str | None, key: str) -> str:
    """One text of a call's input: what a page fetch asked of the page (WebFetch's
    `prompt`), a web search's `query`, the keys a write_stdin sent (`chars`)."""
    try:
        value = json.loads(input_json or "")
    except ValueError:
        return ""
    text = value.get(key) if isinstance(value, dict) else None
    return text if isinstance(text, str) else ""


# Words of a page fetch's address and question that say nothing of what it was for.
_WEB_WORDS = frozenset(
    "https http www com org net html htm index page link links check verify whether"
    " exists confirm details information about article".split()
)


# The numbers of a GitHub page's path: a pull request's, an issue's, a run's.
_PAGE_NUMBER = lazy(r"/(?:pull|issues|runs|actions/runs|releases/tag)/(\d+)\b")


def _fetched_otherwise(url: str, call: Call) -> bool:
    """Whether a shell command got what a failed page fetch was for: the same page by
    `curl` or `wget`, or a GitHub page by `gh` naming its number (a private repository's
    pull request is a 404 to WebFetch; `gh pr view 6621` read it: eleventh held-out set)."""
    page = url.split("#")[0].rstrip("/")
    parts = _split_url(page)
    number = _PAGE_NUMBER.search(parts.path) if parts else None
    for intent in intents(call.command):
        if any(w.split("#")[0].rstrip("/") == page for w in intent.words):
            return not _looks(intent)
        if intent.program == "gh" and _host(page) == "github.com" and number:
            if number.group(1) in intent.words:
                return True
    return False


# Claude Code keeps a result too large for the chat in the session's folder, by its call's
# id (`<project>/<session>/tool-results/toolu_017f….txt`, see records.PersistedOutput).
_PERSISTED = lazy(r"/tool-results/([\w-]+)\.txt$")
# The flags that name the file curl or wget saves a page to.
_SAVED_TO = frozenset({"-o", "--output", "-O", "--output-document"})
_DOWNLOADERS = frozenset({"curl", "wget"})


def _saved_pages(calls: Iterable[Call]) -> dict[str, str]:
    """The files that hold a page the session fetched, by path (persisted outputs by their
    call's id): a WebFetch's result kept in tool-results/, a `curl -o x URL`, `wget -O x
    URL` or `curl URL > x`. Only asked of a file tool given a URL (see _saved_copy)."""
    pages: dict[str, str] = {}
    for call in calls:
        if call.failed:
            continue
        if call.url:
            pages[call.tool_use_id] = call.url
            continue
        for intent in intents(call.command):
            if intent.program not in _DOWNLOADERS:
                continue
            url = next((w for w in intent.words if w.startswith(("http://", "https://"))), None)
            if url is None:
                continue
            words = intent.words
            saved = [words[k + 1] for k in range(len(words) - 1) if words[k] in _SAVED_TO]
            saved += [a or b for a, b in _WRITES_TO.findall(call.command or "")]
            pages.update((_key(path.strip(_QUOTES)), url) for path in saved if path != "-")
    return pages


def _given_url(call: Call) -> bool:
    """Whether a file tool was given a page's address for its path (see _saved_copy)."""
    return (call.file_path or "").startswith(("http://", "https://"))


def _saved_copy(failed: Call, call: Call, pages: Mapping[str, str]) -> bool:
    """Whether a file tool given a URL for a path (`Path does not exist: https://...`) was
    called again on a local file that holds a page of that site (see _saved_pages): a Grep
    of `https://code.claude.com/docs/en/`, then the same Grep of the tool-results file that
    kept the WebFetch of code.claude.com/docs/en/claude-directory.md (fortieth held-out
    set, fixed; the card said "not fixed"). The tool took no URL: the retry changed the
    kind of its target, a page for the file that holds it."""
    if not call.file_path or _SAME_TOOL.get(call.name, call.name) != _SAME_TOOL.get(
        failed.name, failed.name
    ):
        return False
    persisted = _PERSISTED.search(_unix(call.file_path))
    if persisted is not None:
        url = pages.get(persisted.group(1))
    else:
        path = _key(call.file_path)
        url = pages.get(path) or next(
            (u for p, u in pages.items() if not p.startswith("/") and path.endswith("/" + p)),
            None,
        )
    return url is not None and _host(url) == _host(failed.file_path)


# What find and fd are told to look for (`-name`, `-iname`, `-path`, fd's pattern).
_FINDERS = frozenset({"find", "fd", "locate"})


_STEM_WORD = lazy(r"[A-Za-z]{3,}")


def _alike(found: str, meant: str | None) -> bool:
    """Whether a file read in the folder of one not there may be the one meant: the same
    kind (`conn_case.ex` guessed, `data_case.ex` found) or a word of its name in common.
    A MEMORY.md not there is not found as docker-compose.yml (eleventh held-out set)."""
    one, other = PurePosixPath(_unix(found)), PurePosixPath(_unix(meant or ""))
    if one.suffix and one.suffix.lower() == other.suffix.lower():
        return True
    words = ({w.lower() for w in _STEM_WORD.findall(p.stem)} for p in (one, other))
    return bool(next(words) & next(words))


def _searched_for(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell look of paths that were not there (`ls -d pkg/*syslog*` exits 2, `cat
    x`: No such file) is worked around by a find of their names: a guessed path, then the
    search that finds where it is, as a Read of a missing file is by a Glob (fourth held-out
    set: 2 such looks, a plugin's folder and a skill's)."""
    # a find whose output a variable holds is a search too (`D=$(find ~/x -path '*y*')`),
    # though only here: `tmp=$(mktemp)` says nothing of what a command is for
    substituted = [
        m.group(1)
        for words in segments(call.command)
        for word in words[:1]
        if (m := _SUBSTITUTED.match(word)) is not None
    ]
    finds = [
        i.words[1:]
        for command in (call.command, *substituted)
        for i in intents(command)
        if i.program in _FINDERS
    ]
    mine = intents(failed.command)
    if not finds or not mine or not all(i.program in LOOK for i in mine):
        return False
    if not (
        _says_missing(error)
        or (error.startswith("Exit code 2") and any(i.program == "ls" for i in mine))
    ):
        return False
    names = {
        word
        for i in mine
        if i.program not in _FINDERS and i.program not in _SAYS
        for arg in i.words[1:]
        if _is_path(arg) or "*" in arg
        for word in _PATTERN_WORD.findall(_basename(arg.rstrip("/")))
        if len(word) >= 5
    }
    return bool(names) and any(
        names & set(_PATTERN_WORD.findall(" ".join(words))) for words in finds
    )


# find's tests of a name or path, whose pattern is the question it asks.
_NAME_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex"})


def _globbed(failed: Call, call: Call) -> bool:
    """Whether a shell look that ran a find (and failed, not finding nothing: see
    _found_nothing) is worked around by a Glob of what it looked for: a name of its tests
    (`-name '*.md'`) is the Glob pattern's last part, or they share a word (`*domik*`,
    `**/*domik*`), in the find's folder, inside it or around it (seventh held-out set: one
    person's find exited 2 with no output 10 times in a session, each time answered by a
    Glob; a Glob of the same name in another folder asks another question). So is a listing
    of a pattern (`ls src/*.js`; cmd's `dir /s /b src\\*.js` run by bash, `dir: cannot
    access '/s'`: thirty-third held-out set) by a Glob of it (`src/**/*.js`)."""
    if call.name not in {"Glob", "glob"} or not call.pattern:
        return False
    ran = intents(failed.command)
    finds: list[Sequence[str]] = [i.words for i in ran if i.program in _FINDERS]
    finds += [
        found for i in ran if i.program in _GLOB_LISTERS if (found := _listed_as_find(i.words))
    ]
    if not finds or not all(i.program in LOOK for i in ran):
        return False
    pattern = _unix(call.pattern)
    where = _unix(call.file_path or "").rstrip("/")
    if pattern.startswith("/"):  # an absolute pattern names its folder
        head = pattern.split("*")[0].rstrip("/")
        where, pattern = head, pattern[len(head) :]
    elif head := pattern.split("*")[0].rpartition("/")[0]:
        # and a relative one a folder inside its path (`src/**/*.js`)
        where = f"{where}/{head}" if where else head
    last = pattern.rstrip("/").split("/")[-1]
    words = set(_PATTERN_WORD.findall(pattern))
    for find in finds:
        names = [find[n + 1] for n in range(len(find) - 1) if find[n] in _NAME_TESTS]
        end = next((n for n, w in enumerate(find) if w.startswith("-")), len(find))
        roots = find[1:end]
        asked = last in names or bool(words & set(_PATTERN_WORD.findall(" ".join(names))))
        if asked and any(_nested(where, _unix(root).rstrip("/")) for root in roots or ["."]):
            return True
    return False


def _grepped(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell grep of a file its error says is not there (`grep: ~/x/shell.qml: No
    such file or directory`) is redone by the Grep tool: its pattern, word for word, in that
    file (the tool's absolute path, `~` the home folder's). The files had been copied one
    folder too high; the agent moved them into it, then searched with the tool (thirty-eighth
    held-out set, worked around, the move its step). Another pattern, or another file, is
    another search; a grep that found nothing (exit 1) is answered only by its search again
    (see _found_nothing)."""
    if call.name not in SEARCH_TOOLS or not call.pattern or not call.file_path:
        return False
    if not _NOT_THERE.search(error):
        return False
    where = _unix(call.file_path).rstrip("/")
    home = _from_home(where)
    for words in segments(failed.command):
        program, args = _program(words)
        at = _pattern_at(args) if program in _MATCHERS else None
        if at is None or args[at] != call.pattern:
            continue
        for path in (_unix(a).rstrip("/") for a in args[at + 1 :] if not a.startswith("-")):
            relative = not path.startswith(("/", "~")) and path not in {"", "."}
            if (
                _same_file(path, where)
                or (home is not None and path == home)
                or (relative and where.endswith("/" + path.removeprefix("./")))
            ):
                return True
    return False


def _listed_by_glob(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell listing of folders that the shell could not parse (`ls
    "X:\\addons\\hr_fields\\"`: the trailing backslash escaped the closing quote, `unexpected
    EOF while looking for matching`), so never ran, was made by a Glob in one of them: `hr_fields/
    migrations/**` answered whether the module had migrations (thirty-ninth held-out set,
    worked around). A relative Glob names the folder from one above it (the session's
    folder), so its first folders are the listed one's last. Only a command that never ran:
    a Glob finding nothing in a folder a listing said was not there confirms that it is not."""
    if call.name not in {"Glob", "glob"} or not call.pattern or not _says_unparsed(error):
        return False
    mine = intents(failed.command)
    if not mine or not all(i.program in _GLOB_LISTERS for i in mine):
        return False
    listed = [
        _path_key(w.rstrip(_QUOTES + "\\")).split("/")
        for i in mine
        for w in i.words[1:]
        if not w.startswith("-") and "*" not in w
    ]
    pattern = _unix(call.pattern)
    head = pattern.split("*")[0].rpartition("/")[0]
    if not pattern.startswith("/") and call.file_path:
        head = f"{_unix(call.file_path).rstrip('/')}/{head}"
    where = _path_key(head).split("/") if head else []
    relative = bool(where) and where[0] != ""
    return any(
        len(folder[-1]) >= 3
        and (
            where[: len(folder)] == folder
            or (relative and any(where[:k] == folder[-k:] for k in range(1, len(where) + 1)))
        )
        for folder in listed
    )


# The listers whose operand may be a pattern the shell or the program expands (see _globbed).
_GLOB_LISTERS = frozenset({"ls", "dir", "lsd", "eza", "exa"})


def _listed_as_find(words: Sequence[str]) -> list[str]:
    """A listing's pattern operands as a find's words (`ls src/*.js` as `find src -name
    '*.js'`; a Windows path's backslashes as slashes), or none without a pattern."""
    roots: list[str] = []
    names: list[str] = []
    for word in words[1:]:
        path = _unix(word.strip(_QUOTES))
        if word.startswith("-") or "*" not in path.rsplit("/", 1)[-1]:
            continue
        folder, _, name = path.rpartition("/")
        roots.append(folder or ".")
        names += ["-name", name]
    return ["find", *roots, *names] if roots else []


def _nested(one: str, other: str) -> bool:
    """Whether two folders are one, or one holds the other (`~/x` as the end of `/h/me/x`)."""
    if other.startswith("~"):
        other = other[1:]
        return bool(other) and (one.endswith(other) or other + "/" in one + "/")
    if not one or not other or other == ".":
        return not one or not one.startswith("/") or other == "."
    return one == other or one.startswith(other + "/") or other.startswith(one + "/")


def _missing_names(failed: Call, error: str) -> set[str]:
    """The file names of a shell look's paths that its error says are not there (`rg:
    arguments: IO error ...: No such file`, `cat: x.md: No such file`). Only of the looks that
    read files (a search, a view): an `ls` of a path not there asked whether it is there,
    and heard (an `ls` of a JDK's javac, then another JDK's used: not a problem, seventh
    held-out set; a subagent's `ls` of a hooks folder, second)."""
    if failed.name not in SHELL_TOOLS or not _says_missing(error):
        return set()
    if not all(i.program in LOOK for i in intents(failed.command)):
        return set()
    return {
        _basename(word.rstrip("/"))
        for i in intents(failed.command)
        if i.program in _VIEWERS
        for word in i.words[1:]
        if not word.startswith("-")
        and (f"{word}: " in error or f"'{word}'" in error)
        and len(_basename(word.rstrip("/")).strip(".")) >= 4
    }


# A path in a command, a script's included (`pathlib.Path('.arguments/x.json')`).
_PATH_IN = lazy(r"[\w.~-]*/[\w./~-]+")


def _found_as(failed: Call, call: Call, error: str) -> str | None:
    """The folder or file a later shell call or Read uses, at another path, that a failed
    look said was not there: a name it had wrong or in the wrong place (`rg x arguments`, No
    such file; `ls -a` shows `.arguments`; then a script reads `.arguments/a.json`: seventh
    held-out set, 2 searches of one Codex rollout). A part of the used path is the name, a
    dot before it or not; None when it uses none."""
    names = _missing_names(failed, error)
    if not names:
        return None
    typed = {w.rstrip("/") for i in intents(failed.command) for w in i.words[1:]}
    if call.name in READ_TOOLS:
        paths = [_unix(call.file_path or "")]
    elif call.name in SHELL_TOOLS:
        paths = _PATH_IN.findall(_unix(call.command or ""))
    else:
        return None
    for path in paths:
        if path.rstrip("/") in typed:
            continue  # the same path again: a retry, or nothing
        for part in path.split("/"):
            if part.lstrip(".") in names or part in names:
                return part
    return None


def _listed_at(failed: Call, after: Sequence[Call], output: Callable[[str], str]) -> int | None:
    """Where, among the first ANOTHER_WAY_CALLS calls, a listing printed the name of the file
    a Read did not find: it found where the file is (`ls plans/completed/ plans/in-progress/`
    printing `PlanDec29.md`, moved there), rather than a Read of another file of its folder
    after a search of it (the folder's README.md: seventh held-out set, 3 Reads)."""
    name = _basename(failed.file_path)
    if len(name) < 3:
        return None
    return next(
        (
            n
            for n, call in enumerate(after[:ANOTHER_WAY_CALLS])
            if not call.failed and _lists_name(call, name, output)
        ),
        None,
    )


def _read_as_listed(
    failed: Call, call: Call, before: Sequence[Call], output: Callable[[str], str]
) -> bool:
    """Whether a Read of a file not there was made of the file meant, under its real name:
    a Read of a file of the same stem and another kind (`script/core_parser.py` guessed,
    `parser/core_parser.cpp` read), which a listing before it printed (`ls parser/`): the
    agent found it so (thirty-seventh held-out set, labelled worked around). A file of
    another stem is another file, whatever the agent then read (a guessed
    `parser/heap_walker.cpp`, then `android/android.cpp` read after greps: not told from
    the other files it read)."""
    if call.name not in READ_TOOLS or call.failed or not call.file_path or not failed.file_path:
        return False
    one, other = PurePosixPath(_unix(call.file_path)), PurePosixPath(_unix(failed.file_path))
    if one.stem != other.stem or one.suffix == other.suffix or len(one.stem) < 4:
        return False
    return any(
        not c.failed
        and c.name in SHELL_TOOLS
        and any(i.program in _LISTERS for i in intents(c.command))
        and (one.name in (printed := output(c.tool_use_id)).split() or str(one) in printed)
        for c in before
    )


def _printed_path(call: Call, found: Call, output: Callable[[str], str]) -> bool:
    """Whether a Glob that lists a folder (`**/*`, no name in its pattern) printed the file
    a Read then read: the listing of where it was, as an `ls` of the failed path's folder is
    (the folder the user named: seventh held-out set, where the card showed only the Glob
    of its name that found nothing). A Glob by name that found it is left to the labels'
    reading of the first held-out set, which named only the Read."""
    if call.name not in {"Glob", "glob"} or _PATTERN_WORD.search(call.pattern or ""):
        return False
    if not found.file_path or found.name not in READ_TOOLS:
        return False
    return _unix(found.file_path) in _unix(output(call.tool_use_id))


# A search tool's answer when it found nothing (Claude Code's Glob and Grep).
_NO_FILES = frozenset({"No files found", "No matches found"})


def _silent_again(failed: Call, call: Call, error: str, output: Callable[[str], str]) -> bool:
    """Whether a failure that printed nothing but its status was run again through a pipe
    (or before another command) that printed nothing either: its status is another
    program's, and nothing says the first one worked (`find ~/.claude -name '*x*'` exited 2
    silently; `find ~ -name '*x*' | head` "succeeded", printing nothing: seventh held-out
    set, where every find of one person exited 2)."""
    return (
        failed.name in SHELL_TOOLS
        and call.name in SHELL_TOOLS
        and bool(_NOTHING_BUT_STATUS.match(error))
        and _status_of_another(call)
        and not output(call.tool_use_id).strip()
    )


# What Claude Code's Bash returns for a command that printed nothing (2.x), and Codex's
# empty exec output: no output.
_NO_OUTPUT = lazy(r"\s*(?:\(Bash completed with no output\))?\s*")
# A call in inline code that prints: Python's print, Node's console.log, Ruby's puts.
_PRINTS = lazy(r"\b(?:print|console\.log|puts|pprint|printf)\s*\(|\bputs\s")


def _printed_nothing_before(
    failed: Call, call: Call, later: Sequence[Call], output: Callable[[str], str]
) -> bool:
    """Whether a retry of failed inline code, rewritten, code that prints, ran to its end
    printing nothing, and a later rewrite among `later` (those soon after) succeeded
    printing something: the silent one did not do what the script was for, the one that
    printed did, and confirms the fix (a `python3 -c` over a saved dump failed on `KeyError:
    'id'`, its rewrite guarded the key and skipped every element, which sat one level
    deeper; the next rewrite read them there and printed them: thirty-sixth held-out set,
    fixed by that one). That rewrite may be of the silent one (_rewrote_silent): it rewrote
    the code again from there. Without a later one that printed, the silent run is the
    fix: code that prints only on trouble says nothing when all is well."""
    if call.name not in SHELL_TOOLS or not _NO_OUTPUT.fullmatch(output(call.tool_use_id)):
        return False
    codes = [i.code for i in intents(call.command) if i.code is not None]
    if not any(_PRINTS.search(code) for code in codes):
        return False
    return any(
        (_retry(failed, other) or _rewrote_silent(call, other, output))
        and not _NO_OUTPUT.fullmatch(output(other.tool_use_id))
        for other in later
    )


def _rewrote_silent(silent: Call, call: Call, output: Callable[[str], str]) -> bool:
    """Whether a successful shell call ran again, rewritten, the inline code of a silent
    rewrite (_printed_nothing_before), and printed something."""
    return (
        call.name in SHELL_TOOLS
        and not call.failed
        and not call.running
        and _retry(silent, call)
        and not _NO_OUTPUT.fullmatch(output(call.tool_use_id))
    )


def _filter_error(failed: Call, error: str) -> str | None:
    """The output filter whose own error a failed shell command's is: its first line names
    a program the command pipes into (`awk: cmd. line:1: ... fatal: split: second argument
    is not an array` of `ss -tulpnH | awk '...'`). The command before it did not fail: the
    agent running `ss -tulpnH` alone to look at its lines was "fixed" of five such awk
    failures (seventh held-out set)."""
    if failed.name not in SHELL_TOOLS or not failed.command:
        return None
    lines = [line for line in error.splitlines() if line.strip()]
    first = next((line for line in lines if not _EXIT_LINE.match(line.strip())), "")
    program = first.split(":", 1)[0].strip()
    if program not in _OUTPUT_FILTERS or ":" not in first:
        return None
    if _lines_joined(failed, error):
        return None  # given words of the next line for files, not the pipe
    return program if _filter_script(failed.command, program) is not None else None


def _lines_joined(failed: Call, error: str) -> bool:
    """Whether a program of a command said a word that starts one of its later lines was a
    file not there (`wc: echo: No such file or directory`): the command's line breaks were
    lost, and the filter of a line (`find x -type f | wc -l`) was given the next line's words
    (`echo "Core documentation:" && ...`) as its files, not the pipe. The whole command ran
    as one line, not as written: no part of it did its work (a file inventory script,
    rewritten with printf, failed alike: thirty-seventh held-out set, both labelled worked
    around by the plain `find x -type f | sort` listing after: a retry of one of its lines
    is another way, see _runs_every_line)."""
    if failed.name not in SHELL_TOOLS or "No such file" not in error:
        return False
    lines = (failed.command or "").strip().splitlines()
    starts = {line.split()[0] for line in lines[1:] if line.split()}
    for line in error.splitlines():
        parts = line.split(": ")
        if len(parts) >= 3 and "No such file" in parts[-1]:
            if parts[1].strip(_QUOTES) in starts:
                return True
    return False


def _runs_every_line(failed: Call, call: Call) -> bool:
    """Whether a call does what every command of a failed one did (its echoes aside): the
    script run again, not one line of it, which reaches a part of its goal another way
    (see _lines_joined)."""
    theirs = intents(call.command)
    return all(
        any(_same_intent(mine, other) for other in theirs)
        for mine in intents(failed.command)
        if mine.program not in _SAYS
    )


# Filters whose arguments are a question: what to find, or to take, of the output.
_QUESTIONING = frozenset({"grep", "egrep", "fgrep", "rg", "awk", "sed", "jq"})


def _piped(command: str | None) -> list[tuple[str, list[str]]]:
    """The simple commands of a command that read a pipe (`a | grep x | sort`), each as its
    program and arguments."""
    words = _words(command or "")
    stages = []
    for n, word in enumerate(words[:-1]):
        if word == "|" and _is_operator(word):
            end = next((m for m in range(n + 1, len(words)) if _is_operator(words[m])), None)
            stages.append(_program(words[n + 1 : end]))
    return stages


def _piped_into(command: str | None) -> set[tuple[str, frozenset[str]]]:
    """The filters a command pipes into, each with the arguments that are no option."""
    found = set()
    for program, args in _piped(command):
        given = frozenset(a for a in args if not a.startswith("-") and not a.isdigit())
        if program in _QUESTIONING and any(len(a) >= 3 for a in given):
            found.add((program, given))
    return found


def _same_question(failed: str | None, other: str | None) -> bool:
    """Whether two commands ask the same question of other sources: they pipe into the same
    filter with the same pattern (`fc-list | rg -i "Maple Mono"`, fc-list not found on
    macOS, then `system_profiler SPFontsDataType | rg -i -m 20 "Maple Mono"`: ninth held-out
    set, worked around)."""
    return bool(_piped_into(failed) & _piped_into(other))


def _filter_script(command: str | None, program: str) -> str | None:
    """The arguments of the first simple command after a pipe that runs `program`."""
    return next((" ".join(args) for name, args in _piped(command) if name == program), None)


def _same_filter(failed: Call, call: Call, program: str) -> bool:
    """Whether a call pipes into the filter whose error the failed call's is, with a script
    that holds half the failed script's words (a probe of one of them, `awk '{n=split($5,
    a,":"); print n}'`, is none), into the file the failed call was to write, if any (a
    preview through `| head` is not port.csv written)."""
    theirs = _filter_script(call.command, program)
    if theirs is None:
        return False
    written = _files_of(failed, written=True)
    if written and not written & _files_of(call, written=True):
        return False  # the filter's output was to go into a file: a preview is not that
    mine = set(_CODE_WORD.findall(_filter_script(failed.command, program) or "")) - _CODE_COMMON
    return bool(mine) and len(mine & set(_CODE_WORD.findall(theirs))) * 2 >= len(mine)


# Programs that list a folder's names.
_LISTERS = frozenset({"ls", "find", "fd", "tree", "lsd", "eza", "exa"})


def _lists_name(call: Call, name: str, output: Callable[[str], str]) -> bool:
    """Whether a shell listing printed `name` as a name of its own (a line, or a word)."""
    if call.name not in SHELL_TOOLS or not any(
        i.program in _LISTERS for i in intents(call.command)
    ):
        return False
    return name in output(call.tool_use_id).split()


def _lists(call: Call, folder: str) -> bool:
    """Whether a search tool lists what is in `folder`: its path, then its pattern up to the
    first wildcard, is that folder, or its end when relative (a Read of `app/Models`, a
    folder, then the Glob `app/Models/*.php` issued beside it: 3 of the fourth held-out set's
    EISDIR failures, where only a later Read of a file in the folder was seen)."""
    folder = _unix(folder).rstrip("/")
    parts = [_unix(call.file_path).rstrip("/")] if call.file_path else []
    if call.name not in {"Grep", "grep", "grep_search", "search_file_content"}:
        for part in (call.pattern or "").split("/"):
            if not part or any(ch in part for ch in "*?[{"):
                break
            parts.append(part)
    where = "/".join(parts)
    return bool(folder and where) and (
        folder == where or (not where.startswith("/") and folder.endswith("/" + where))
    )


# Programs that show a file's text (sed only when it only prints, see _prints).
_VIEWERS = frozenset("cat head tail less more nl wc grep egrep rg sed bat".split())


def _viewed_elsewhere(failed: Call, call: Call, error: str) -> bool:
    """Whether a shell look of a file that was not there (its error names it: `sed: can't
    read net/x.mk: No such file or directory`) is worked around by a look of the file of
    that name at another path (`grep -n DEPS net/pkg/x.mk`), as a Read of a missing file is
    by a Read where it is (fourth held-out set)."""
    theirs = [i for i in intents(call.command) if i.program in _VIEWERS]
    if not theirs:
        return False
    mine = [i for i in intents(failed.command) if i.program not in _SAYS]
    if not mine or not all(i.program in LOOK or _prints(i, failed.command or "") for i in mine):
        return False
    gone = {
        word
        for i in mine
        if i.program in _VIEWERS
        for word in i.words[1:]
        if _is_path(word) and _basename(word) in error and "." in _basename(word).strip(".")
    }
    names = {name for word in gone for name in _module_names(word)}
    return (
        bool(names)
        and _says_missing(error)
        and any(
            any(_is_path(w) and _basename(w) in names and w not in gone for w in i.words[1:])
            for i in theirs
        )
    )


def _module_names(path: str) -> set[str]:
    """The names a file not there may have had: its own, and its folder's as a file of its
    kind, a module guessed as a folder (`hooks/base/index.ts`, then `hooks/api/base.ts`;
    `types/racquet.ts`, then `types.ts`: eighteenth and seventeenth held-out sets)."""
    name = _basename(path)
    folder = _basename(_parent(_unix(path)))
    suffix = PurePosixPath(name).suffix
    if not suffix or folder in _NO_MODULE:
        return {name}
    return {name, f"{folder}{suffix}"}


# Folders named for where code lives, not for a module of it.
_NO_MODULE = frozenset({"", ".", "..", "src", "lib", "app", "source", "sources"})


# Code that writes a file: python's write_text or open(..., "w"), a document, table or
# figure saved (openpyxl's and PIL's `.save(`, pandas' `.to_csv(`, `savefig(`,
# `json.dump(`), node's writeFileSync.
_WRITES_FILE = lazy(
    r"\.write_(?:text|bytes)\(|\bopen\([^)\n]*,\s*['\"][wax]|\b(?:writeFile|appendFile)(?:Sync)?\("
    r"|\.save(?:fig)?\(|\.to_(?:csv|excel|parquet|json|pickle)\(|\bjson\.dump\("
)


def _script_writes(call: Call, path: str | None) -> bool:
    """Whether a shell command runs code that writes the file at `path`: the code writes a
    file and names this one by its folder and name (a script may name it whole or from its
    project's root, an edit tool the other way round).

    An edit the tool could not make (Codex's apply_patch failing on every file of a
    repository, `Io(Os { code: 2, kind: NotFound })`; an Edit a write-guard hook blocked)
    is then made by `python3 - <<EOF` or `node -e` (held out, session 9: 4 edits of 2
    people), where no `> file` says what is written."""
    if not path or not call.command or not _writes_file(call.command):
        return False
    tail = "/".join(PurePosixPath(_unix(path)).parts[-2:])
    if tail and tail in _unix(call.command):
        return True
    # or by its name alone, quoted, run in its folder (`cd "C:/x/backend" && node -e
    # "... fs.writeFileSync('server.js', content)"`: nineteenth held-out set, the Edit
    # tool failing on a Windows checkout, each edit made so)
    folder = _key(_parent(path)).rstrip("/")
    return any(
        (there := _key(cd).rstrip("/"))
        and (folder == there or folder.endswith("/" + there.lstrip("./")))
        for cd in _folders(call)[-1:]
    ) and bool(re.search(f"['\"`]{re.escape(_basename(path))}['\"`]", call.command))


# A string in a script's code, in one kind of quotes (each kind read apart: an apostrophe
# in a comment, `# don't`, shifts the pairs of that kind alone).
_IN_QUOTES = (lazy(r"'([^'\n]{1,300})'"), lazy(r'"([^"\n]{1,300})"'))
# A quoted string that names a file: a name with its extension (`ruby.png`).
_FILE_NAME = lazy(r"[\w.-]+\.\w{1,8}")


def _named_by_script(failed: Call, call: Call, error: str, before: Sequence[Call] = ()) -> bool:
    """Whether a script did what a command that could not run was to do: its program was
    not there, or the agent's approval policy refused it, and the code of a script run
    after it names at least half of what the command named (_objects) in quotes, whole,
    by its name, or by its folder and name.

    `rm -rf dist frontend state pipeline/state/voice_log.json` refused as a dangerous
    command, then a `python3 - <<'PY'` that rmtree'd 'dist', 'frontend' and 'state' and
    unlinked 'voice_log.json'; a `python3 - <<'EOF'` writing two textures on Windows
    without Python (`Python was not found`), then a `node - <<'EOF'` writing them
    (thirty-sixth held-out set, both worked around); `sqlite3 .../data/workspace.db
    ".tables"` not found, then a Write of init-db.mjs whose code opens that database
    with sql.js, and `node init-db.mjs` (thirty-fourth held-out set: the code of a script
    file written in the session, `before`, and run). A script names many paths: only what
    the failed command named counts, and half of it."""
    if not (_no_program(failed, error) or _says_policy_refused(error)):
        return False
    objects = _objects(failed.command)
    code = _code_run(call, before) if objects else ""
    if not code:
        return False
    quoted = _quoted(code)
    text = code.replace("\\", "/")
    named = sum(
        1
        for path in objects
        if path in quoted
        or _basename(path) in quoted
        or (path.count("/") >= 1 and "/".join(PurePosixPath(path).parts[-2:]) in text)
    )
    return named * 2 >= len(objects)


@functools.lru_cache(maxsize=256)
def _objects(command: str | None) -> frozenset[str]:
    """What a shell command was to work on, as paths are compared (_path_key): the operands
    of its commands (`rm -rf dist x/y.json`: dist, x/y.json), not a `cd`'s nor an `echo`'s,
    and the files and folders the code of an inline script names in quotes (a path, or a
    name with its extension)."""
    found: set[str] = set()
    for intent in intents(command):
        if intent.code is not None:
            found |= _quoted_files(intent.code)
        elif intent.program not in _SAYS and intent.program != "cd":
            names = [_file_name(w) for w in intent.words]
            at = next(
                (n for n, name in enumerate(names) if ALIASES.get(name, name) == intent.program),
                0,
            )
            found |= {
                _path_key(w)
                for w in intent.words[at + 1 :]
                if not w.startswith("-") and w != intent.sub and len(_basename(_path_key(w))) >= 3
            }
    return frozenset(found)


def _quoted_files(code: str) -> frozenset[str]:
    """The files and folders a script's code names in quotes (_quoted): a path, or a name
    with its extension. Not a template to format (`f'{done}/{total}'`, `'{:>8}/s'`): its
    slash is text to print, and a script printing such lines made 3 "paths" of 4 that a
    `node -e` doing the same work did not name (thirty-ninth held-out set)."""
    return frozenset(
        q
        for q in _quoted(code)
        if ("/" in q or _FILE_NAME.fullmatch(_basename(q))) and not _TEMPLATE.search(q)
    )


# What marks a quoted string as a template to format, not a path (`{name}`, `{0:>8}`).
_TEMPLATE = lazy(r"\{[^{}]*\}")


@functools.lru_cache(maxsize=256)
def _quoted(code: str) -> frozenset[str]:
    """The strings a script's code quotes, as paths are compared (_path_key)."""
    return frozenset(
        _path_key(m.group(1)) for pattern in _IN_QUOTES for m in pattern.finditer(code)
    )


def _code_run(call: Call, before: Sequence[Call]) -> str:
    """The code a shell call ran as a script: inline (`python3 -c`, `node - <<'EOF'`), or a
    file it was given that an edit tool wrote earlier (`node init-db.mjs` after a Write of
    init-db.mjs: its content, when the build loaded it, see written_code)."""
    code = [i.code for i in intents(call.command) if i.code is not None]
    given = {_basename(a) for i in intents(call.command) if i.code is None for a in i.args}
    for earlier in reversed(before):
        name = _basename(earlier.file_path)
        if name in given and not earlier.failed and earlier.name in EDIT_TOOLS:
            code.append(_written_content(earlier.input))
            given.discard(name)
    return "\n".join(c for c in code if c)


def _written_content(input_json: str | None) -> str:
    """The whole file an edit tool's call wrote (a Write's `content`), or nothing."""
    return _input_text(input_json, "content") or _input_text(input_json, "file_text")


def written_code(calls: Sequence[Call], errors: Mapping[str, str]) -> bool:
    """Whether the fix rules read the content of a session's writes: a shell command of it
    could not run (its program not there, or refused by the approval policy), and a script
    file written later may have done its work (see _named_by_script)."""
    return any(
        c.name in SHELL_TOOLS
        and (
            _no_program(c, errors.get(c.tool_use_id, ""))
            or _says_policy_refused(errors.get(c.tool_use_id, ""))
        )
        for c in calls
        if c.tool_use_id in errors
    )


def _split_url(url: str) -> urllib.parse.SplitResult | None:
    """A URL's parts, or None for one urllib cannot read: brackets that hold no IPv6
    address (`https://[REDACTED:url-password]@db/x` once redacted, a model's
    `https://docs.example.com]/x`)."""
    try:
        parts = urllib.parse.urlsplit(url)
        if parts.port is None:  # (raises for a port that is no number)
            return parts
    except ValueError:
        return None
    return parts


def _host(url: str | None) -> str | None:
    """A URL's host, lowercase; of one urllib cannot read, what stands between its `//` (and
    any user and password, redacted or not) and its path or port."""
    if not url:
        return None
    parts = _split_url(url)
    if parts is not None:
        return parts.hostname
    _, _, rest = url.partition("//")
    host = re.split(r"[/?#]", rest, maxsplit=1)[0].rpartition("@")[2]
    host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return host.strip("[]").lower() or None


_MISSING_FILE = lazy(r"does not exist|No such file or directory|ENOENT", re.IGNORECASE)


def _cached_search(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether a failure's output says what `pattern` does, cached by the output: the rules
    ask it of the same error for each call of its window, and a search ignoring case goes a
    character at a time through an output that may be long (0.014 s of ../shared/corpus/real's
    0.107 s of fixes). Cached per pattern: a Pattern's own hash reads its code each time.

    Each failure is asked once per pattern all the same, and most say none of them: an
    output that holds none of the texts a match must hold (_needles) is not searched.
    Ignoring case, that is known of an ASCII output by its lowercase (a character of
    another script may match a letter: `K`, the kelvin sign, is `k`): the others are
    searched. A fresh 200 MB build's fix rules, both processes: -320M instructions of
    15.28G (the ten patterns' parse at import, +13M).
    """
    needles = _needles(pattern)
    folded = bool(pattern.flags & re.IGNORECASE)
    if needles is not None and folded:
        needles = [needle.lower() for needle in needles]
        if not all(needle.isascii() for needle in needles):
            needles = None
    search = pattern.search

    def says(error: str) -> bool:
        if needles is not None:
            if not folded:
                if not any(needle in error for needle in needles):
                    return False
            elif error.isascii():
                lowered = error.lower()
                if not any(needle in lowered for needle in needles):
                    return False
        return search(error) is not None

    return functools.lru_cache(maxsize=64)(says)


def _needles(pattern: re.Pattern[str]) -> list[str] | None:
    """Texts one of which every match of `pattern` holds (None: none known), read from
    its parse: the longest run of plain characters of its sequence, or one of each branch
    of an alternation in it (`does not exist|ENOENT`).

    (re._parser, the parse re compiles from: private, but stable across 3.11-3.13; a
    pattern it cannot read has no needles, and is always searched)
    """
    try:
        return _required(re._parser.parse(pattern.pattern, pattern.flags))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        return None


# (at least this long, a run of the sequence's own characters is looked for rather than
# those of its branches)
_NEEDLE_MIN = 3


def _required(items: Any) -> list[str] | None:
    """_needles() of a parsed sequence `items`."""
    from re import _constants as sre  # type: ignore[attr-defined]

    best = ""
    run: list[str] = []
    choices: list[list[Any]] = []  # alternatives, one of which each match goes through
    for op, av in items:
        if op == sre.LITERAL:
            run.append(chr(av))
            continue
        best = max(best, "".join(run), key=len)
        run = []
        if op == sre.BRANCH:
            choices.append(av[1])
        elif op == sre.SUBPATTERN and not av[1] and not av[2]:
            choices.append([av[3]])  # a group (no flags of its own) is matched whole
    best = max(best, "".join(run), key=len)
    if len(best) >= _NEEDLE_MIN:
        return [best]
    for alternatives in choices:
        found = [_required(alternative) for alternative in alternatives]
        if all(needles is not None for needles in found):
            return [needle for needles in found for needle in needles]  # type: ignore[union-attr]
    return [best] if best else None


_says_missing = _cached_search(_MISSING_FILE)
# (asked of a command, not an output: of the failed one for each call of its window, and
# `\b` leaves SRE no prefix to scan a heredoc's script for)
_writes_file = _cached_search(_WRITES_FILE)


def _searched_to_read(failed: Call, call: Call, later: Sequence[Call], error: str) -> bool:
    """Whether a search found where to read, and the Read came soon after: then that Read is
    what reached the goal, and the search a step on the way. A search of a file too large to
    read whole (`Grep x.js`), then a Read of a part of it (fifteenth held-out set, 3 of 3
    such failures, one person; the labels of every set call a Read in parts the fix). Not a
    Read in part NEARBY_CALLS calls or more after it, the agent's other work between: the
    search got what it was for (thirtieth held-out set, worked around by the Grep; the Read
    17 calls later, after a script, its run and 5 edits of other files, was for another
    change). A folder read as a file (EISDIR), then listed by the shell, is worked around by
    the listing, a file in it read after it or not: FIX_VERSION 19 made that Read confirm it
    (sixteenth held-out set and ../shared/corpus/real, 2 labels of 3), but the labels of
    sets 30-40 and the real corpus call the listing the way round 5 times of 6, and a
    new user read the listing shown as one fix step among others (nu43)."""
    if failed.name not in READ_TOOLS or not failed.file_path or failed.part:
        return False
    if call.name not in SEARCH_TOOLS:
        return False
    return any(
        c.name == failed.name
        and c.part
        and not c.failed
        and _same_file(c.file_path, failed.file_path)
        for c in later[:NEARBY_CALLS]
    )


# A file found where the call looked, and the call failed on what it is: too large to read
# whole, binary, not read yet (and kinds not_read, string_not_found).
_FOUND_THERE = lazy(r"exceeds maximum allowed|too large|cannot read binary", re.IGNORECASE)
_says_found_there = _cached_search(_FOUND_THERE)
_says_too_large = _cached_search(lazy(r"exceeds maximum allowed", re.IGNORECASE))
# An edit whose text to replace is in the file more than once, in each agent's words: Claude
# Code's, Gemini CLI's replace (`expected 1 occurrence but found 2`), opencode's edit.
_says_several = _cached_search(
    lazy(
        r"Found \d+ matches of the string to replace|expected \d+ occurrences? but found \d+"
        r"|Found multiple matches for oldString|oldString found multiple times",
        re.IGNORECASE,
    )
)


# What a retry of an edit whose text the file held more than once changed by setting
# replace_all (_anchor_change): right only where that session meant every match, which the
# error does not say (queries.every_match orders such a fix after one made unique).
EVERY_MATCH = "with replace_all, every match replaced"


def _anchor_change(failed: str | None, retry: str | None) -> str | None:
    """What an edit made again changed of one whose text to replace the file held more than
    once (`Found 2 matches of the string to replace, but replace_all is false`): replace_all
    set, or its old_string made longer (more of the text around it) or another, so that it
    matched one place. The card said only "confirmed: Edit manage-stack.sh succeeded"
    (thirty-seventh held-out set, 2 labelled the retry; a new user's try, nu40 finding 10).
    None: the inputs are not known, or the old_string is the same."""
    mine, theirs = _edit_input(failed), _edit_input(retry)
    if mine is None or theirs is None:
        return None
    if theirs.get("replace_all") is True and mine.get("replace_all") is not True:
        return EVERY_MATCH
    old, new = mine.get("old_string"), theirs.get("old_string")
    if not isinstance(old, str) or not isinstance(new, str) or old == new:
        return None
    if old.strip() and old.strip() in new:
        return "with a longer old_string, found once"
    return "with another old_string, found once"


def _edit_input(input_json: str | None) -> dict[str, Any] | None:
    """An edit's input as a JSON object (None: not known, or no object)."""
    try:
        value = json.loads(input_json) if input_json else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# asked by _another_way of each call of a window (../shared/corpus/real: 248 searches of 30
# outputs, 0.5M characters, ignoring case)
_says_local_changes = _cached_search(_LOCAL_CHANGES)
_says_no_program = _cached_search(_MISSING_PROGRAM)
# A refusal of a command by the agent's own approval policy, before it ran (Codex's `exec
# command rejected: dangerous command detected; rejected by user approval settings`): the
# user was never asked, so what the command was for may be done another way.
_says_policy_refused = _cached_search(
    lazy(r"dangerous command detected|rejected by user approval settings")
)
# The words of a refusal by the sandbox or the system's permissions: Codex's own (`Sandbox
# Denied`, `Codex(Sandbox(Denied {`, 0.3x's `failed in sandbox`) and what a program says
# when the sandbox keeps it from a file, a socket or a port (`Operation not permitted`,
# Erlang's `:eperm`).
_REFUSED = lazy(
    r"Sandbox ?Denied|Sandbox\(Denied|failed in sandbox|Operation not permitted"
    r"|Permission denied|\beperm\b|\bEPERM\b|\bEACCES\b",
    re.IGNORECASE,
)
_says_refused = _cached_search(_REFUSED)
# A program that does nothing until its user logs in: GitHub CLI's `To get started with
# GitHub CLI, please run:  gh auth login`, `You are not logged into any GitHub hosts`, and
# other clients' `Please run \`vercel login\``.
_says_logged_out = _cached_search(
    lazy(r"please run:?\s+`?(?:[\w.-]+ )+login\b|\bnot logged in(?:to)?\b", re.IGNORECASE)
)


# The flags that give an interpreter its code inline (python -c, node -e, ruby -e).
INLINE_CODE = frozenset({"-c", "-e", "--eval"})
# The programs that search files and their contents, for a search tool's failure.
SEARCHERS = frozenset("grep egrep fgrep rg ag ack find fd".split())
# A word of a search pattern (`**/*aisuite*`, `disruptiveMerge|mergeAll`).
_PATTERN_WORD = lazy(r"[A-Za-z0-9_][A-Za-z0-9_-]{2,}")
# All a search that found nothing prints: its exit status (Claude Code 1.0: `Error`).
_NOTHING_BUT_STATUS = lazy(r"^\s*(?:Exit code \d+|Error)?\s*$")


def _found_nothing(failed: Call, error: str) -> bool:
    """Whether a failed shell call was a search that found nothing (`rg x lib` exits 1):
    every command of it looks, one searches, and it printed no more than its status; or,
    printing what its other looks found, its last command, whose status it has, is a grep
    that exited 1, which says no line matched (`find . -name x; echo "=== grep ==="; grep
    -rn y .`: fourth held-out set)."""
    return failed.name in SHELL_TOOLS and found_nothing(failed.command, error)


# A status no search that found nothing exits with: a matcher's is 1 (2 is its error), a
# finder's any is an error, and a look before them in a chain (`ls /mnt/c/x 2>/dev/null &&
# find ...`) exits 2 for a path not there.
_ERROR_STATUS = lazy(r"\s*Exit code (?:[2-9]|\d{2,})\b")


def found_nothing(command: str | None, error: str) -> bool:
    """_found_nothing of a shell command (the cards say so of a confirming call).

    A look piped into a matcher searches its output, and the matcher's status is the
    pipeline's (`docker ps -a | grep -i wiki && echo "---" && find /root -name "*wiki*"`,
    exit 1 and nothing printed: no container matched, and the rest never ran; `... echo
    "=== IP ==="; ip addr show | grep "inet " | grep -v 127.0.0.1`, the sections before it
    printed: thirty-seventh held-out set, 3 not a problem, "fixed" by a rerun that printed
    nothing and by a `ufw allow` the diagnosis led to). A look is _only_looks's (`docker ps`,
    `sudo ufw status`, `iptables -L`)."""
    mine = intents(command)
    if not mine or not all(_only_looks(i, command or "") for i in mine):
        return False
    if _CD_NOT_THERE.search(error):
        # its `cd` went nowhere, and no search ran (`cd D:\\x && grep ... | sort`, the
        # backslashes eaten: thirty-ninth held-out set, see _mangled_cd)
        return False
    status = _status_program(command)
    if _NOTHING_BUT_STATUS.match(error):
        # only a matcher's status says it found nothing: a find that exits non-zero, printing
        # nothing, failed (seventh held-out set: 10 of one person's finds exited 2 with no
        # output whatever they asked, each answered by a Glob)
        return (
            (any(i.program in SEARCHERS for i in mine) or bool(_matched_pipelines(command)))
            and status not in _FINDERS
            and not _ERROR_STATUS.match(error)
        )
    last = segments(command)[-1:]
    # (the last search of a chain, its output cut short: `grep -rn x src | head`)
    if last and _program(last[0])[0] in _MATCHERS:
        status = _program(last[0])[0]
    elif status not in _MATCHERS or signatures.says_error(error):
        # (the look piped into it failed: `git ls-remote origin | grep x`, `fatal: unable to
        # access`)
        return False
    if not error.startswith("Exit code 1\n") or _says_unparsed(signatures.key_line(error)):
        # (zsh exits 1 on a command it could not parse, `zsh:1: parse error near `)'`, and
        # ran none of it: a search that never ran found nothing; nu49's held-out set, an
        # `rg` whose quotes broke, then run with simpler ones)
        return False
    # not when the searcher said why it could not search (`rg: src\*.cs: IO error ... (os
    # error 123)`: a glob Windows did not expand, then the folder searched: twenty-third
    # held-out set), which no search that found nothing prints
    said = f"{status}: "
    return not any(line.startswith(said) for line in error.splitlines()[1:])


def _filtered_to_nothing(call: Call, printed: str) -> bool:
    """Whether a failed retry's status is that of a matcher its output was piped into
    (`git ls-remote --heads origin | grep -E 'x$'`), which printed nothing and exited 1: no
    line matched. What it filtered ran, and printed no error, for none was sent elsewhere
    (no `2>&1`, `2>/dev/null`, `|&`): the retry got past what failed the first run (that
    ls-remote, refused the network in Codex's sandbox, run outside it: thirty-third
    held-out set, fixed by its label, the empty match being the answer the check sought).
    The search that found nothing as a whole command is _found_nothing."""
    command = call.command or ""
    if call.name not in SHELL_TOOLS or not _NOTHING_BUT_STATUS.match(printed):
        return False
    if _STDERR_SENT.search(command):
        return False
    parts: list[tuple[str | None, list[str]]] = []
    before: str | None = None
    current: list[str] = []
    for word in [*_words(command), _Operator(";")]:
        if _is_operator(word):
            if current:
                parts.append((before, current))
            before, current = word, []
        else:
            current.append(word)
    return bool(parts) and parts[-1][0] == "|" and _program(parts[-1][1])[0] in _MATCHERS


# A shell's redirection of a command's errors (`2>&1`, `2>/dev/null`, `&>log`, `|&`).
_STDERR_SENT = lazy(r"(?:^|[\s;|&(])(?:2>|&>)|\|&")


def _pipelines(command: str | None) -> list[list[list[str]]]:
    """A command's pipelines, each its simple commands' words (output filters too), without
    redirections."""
    found: list[list[list[str]]] = []
    pipeline: list[list[str]] = []
    current: list[str] = []
    for word in [*_words(command or ""), _Operator(";")]:
        if _is_operator(word):
            if current:
                pipeline.append(current)
            if word != "|" and pipeline:
                found.append(pipeline)
                pipeline = []
            current = []
        elif not _REDIRECT.match(word):
            current.append(word)
    return found


def _status_program(command: str | None) -> str | None:
    """The program whose status a shell command has: its last simple command's, an output
    filter after a pipe too (`find | xargs grep` has grep's). A finder's (find, fd, locate)
    non-zero status is an error, never "no match"; a matcher's 1 is "no match"."""
    found = _pipelines(command)
    return _program(found[-1][-1])[0] if found else None


def _matched_pipelines(command: str | None) -> set[tuple[tuple[str, ...], ...]]:
    """The pipelines of a command that end in a matcher (`docker ps -a | grep -i wiki`):
    searches of what the commands before it print, whose status is the matcher's."""
    return {
        tuple(map(tuple, pipeline))
        for pipeline in _pipelines(command)
        if len(pipeline) > 1 and _program(pipeline[-1])[0] in _MATCHERS
    }


# Searchers whose exit status 1 means no line matched (2 is an error); find's 1 is an error.
_MATCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})


def _found_despite(failed: Call, error: str) -> bool:
    """Whether a failed shell call was a search that printed its matches and exited 2 over
    a path it could not read: every command of it looks, its last is a grep or rg (whose
    status it has), each of the searcher's own complaints names a path, and its other lines
    are matches (`rg: /p/.gitignore: line 1: error parsing glob`, then the matches, used:
    fifth held-out set, 2 searches of one rollout "fixed" by the apply_patch calls before a
    later rg; second, one over a guessed file; all not a problem by their labels). What it
    was asked, it answered: as for a search that found nothing, only the same search run
    again is its retry."""
    if failed.name not in SHELL_TOOLS or not error.startswith("Exit code 2\n"):
        return False
    mine = intents(failed.command)
    last = segments(failed.command)[-1:]
    if not mine or not all(i.program in LOOK for i in mine) or not last:
        return False
    program = _program(last[0])[0]
    if program not in _MATCHERS:
        return False
    lines = [line for line in error.splitlines()[1:] if line.strip()]
    # its complaints each name a path (`rg: def cmd_pl: No such file`: a pattern given as a
    # path, the search not run as meant: third held-out set, fixed by one rg per pattern)
    complaints = [line[len(program) + 2 :] for line in lines if line.startswith(f"{program}: ")]
    matches = [line for line in lines if not line.startswith(f"{program}: ")]
    return (
        bool(complaints)
        and bool(matches)
        and all(not _SPACE.search(c.split(": ")[0]) for c in complaints)
        and all(_MATCH_LINE.match(line) for line in matches)
    )


# A line of a search's matches: its file or line number, then a colon (`lib/a.ex:7:  x`).
_MATCH_LINE = lazy(r"^[^\s:]+:")


def _printed_nothing(call: Call, printed: str) -> bool:
    """Whether a search run again printed nothing, and so found nothing again, whatever its
    status: Claude Code reports a grep that matched nothing as a success, `(Bash completed
    with no output)` (`docker ps -a 2>&1 | grep -i "wiki"`, after the same grep exited 1, was
    its "fix": thirty-seventh held-out set, not a problem). Not a quiet one (`grep -q`), whose
    status is its answer."""
    if call.name not in SHELL_TOOLS or not _NO_OUTPUT.fullmatch(printed):
        return False
    return not any(
        w in {"--quiet", "--silent"} or (w[:1] == "-" and w[1:2] != "-" and "q" in w)
        for pipeline in _pipelines(call.command)
        for words in pipeline
        if _program(words)[0] in _MATCHERS
        for w in _program(words)[1]
    )


def _same_search(failed: Call, call: Call, error: str = "") -> bool:
    """Whether a shell call runs one of the failed call's searches again, as it was: after
    a search that found nothing, another pattern is another question, not its fix (`rg
    'defmodule .*CreateCustomer' lib -g '*.ex'`, then `rg create_customer lib -g '*.ex'`).
    A search its `&&` chain never reached, the one that found nothing stopping it, is none
    of them (`... && grep -n x a.c && echo "--- h ---" && grep -n x a.h`, a.c without x,
    then `echo "--- h ---"; grep -n x a.h`: the rest of the look, not its retry; nu49's
    held-out set, "fixed")."""
    if call.name not in SHELL_TOOLS:
        return False
    # by its words, a pattern with spaces too (an intent leaves those out as a message); not
    # a search its chain never reached (see _not_reached)
    skipped = _not_reached(failed.command, error)
    searches = {
        tuple(w)
        for w in segments(failed.command)
        if _program(w)[0] in SEARCHERS and tuple(w) not in skipped
    }
    return any(tuple(w) in searches for w in segments(call.command)) or bool(
        _matched_pipelines(failed.command) & _matched_pipelines(call.command)
    )


_ECHO_FLAGS = frozenset({"-n", "-e", "-E", "-ne", "-en"})


def _not_reached(command: str | None, error: str) -> set[tuple[str, ...]]:
    """The simple commands of a failed `a && b && c` that it never ran, as the labels it
    echoes show: from its first `echo` whose words its output does not hold, on (`wc -l a &&
    echo "--- c ---" && grep x a.c && echo "--- h ---" && tail a.h`, its output ending at
    `--- c ---`: the grep stopped it). None when it has other operators than `&&` and `|`,
    or echoes nothing that tells."""
    words = _words(command or "")
    operators = {word for word in words if _is_operator(word)}
    if "&&" not in operators or operators - {"&&", "|"}:
        return set()
    parts = _and_parts(words)
    for n, part in enumerate(parts):
        said = _segments_of(part)
        if len(said) != 1 or said[0][0] != "echo":
            continue
        label = " ".join(w for w in said[0][1:] if w not in _ECHO_FLAGS)
        if label and not any(c in label for c in "$\\`") and label not in error:
            return {tuple(w) for rest in parts[n:] for w in _segments_of(rest)}
    return set()


# A shell's words for a path that is not there (GNU's and BSD's, zsh's for a glob).
_NOT_THERE = lazy(
    r"No such file or directory|no matches found|cannot access|can't read|does not exist"
    r"|doesn['’]t exist"
)


def _gone(failed: Call, error: str) -> set[str]:
    """The file names a failed shell look was given that its error says are not there (`sed:
    a/quickfix.py: No such file or directory`, zsh's `no matches found: app/favicon*`)."""
    if failed.name not in SHELL_TOOLS or not _NOT_THERE.search(error):
        return set()
    mine = [i for i in intents(failed.command) if i.program not in _SAYS]
    if not mine or not all(i.program in LOOK or _prints(i, failed.command or "") for i in mine):
        return set()
    # a search's question is its pattern, not the folder it searched (`find /p -name x`,
    # /p not there, then `find /q -name x` is its retry)
    return {
        name
        for i in mine
        if i.program not in SEARCHERS
        for word in i.words[1:]
        if (_is_path(word) or "*" in word or "\\" in word)  # (`%APPDATA%\Claude\logs`)
        and (name := _basename(word.rstrip("/")))
        and name in error
    }


def _looks_elsewhere(failed: Call, call: Call, gone: set[str]) -> bool:
    """Whether a shell look of a path above its folder that was not there (`../../docs`) is
    followed by a look of that name in the folder (`docs`): from one folder, they are two,
    though one path ends with the other. `ls ../../docs`, the output folder a prompt named,
    then `ls docs` of the project: its "fix" (thirty-fourth held-out set, a Codex user; not
    a problem by its label: the look's answer was that it was not there). The same name in
    another folder below is often the file meant, found (`.bmad/x.xml`, then `_bmad/x.xml`)."""
    if call.name not in SHELL_TOOLS or _folders(call) != _folders(failed):
        return False

    def named(command: str | None, looks_only: bool) -> list[str]:
        return [
            path
            for i in intents(command)
            if not looks_only or _looks(i)
            for w in i.words[1:]
            if not w.startswith("-") and _basename(path := _unix(w).rstrip("/")) in gone
        ]

    mine, theirs = named(failed.command, False), named(call.command, True)
    return (
        any(_climbs(a) for a in mine)
        and bool(theirs)
        and all(_climbs(a) != _climbs(b) for a in mine for b in theirs)
    )


def _named_apart(failed: Call, call: Call, gone: set[str]) -> bool:
    """Whether a shell call names a file name a look did not find only at paths whose
    folders leave out the failed path's own folder (`app/food-service/page.tsx`, then
    `app/wholesaler/hq/sales-order/page.tsx`, or `app/page.tsx` above it). A name many
    folders hold (a route's `page.tsx`, an `index.ts`) is another file there; the look that
    found the file meant keeps that folder, the name below it (`hooks/base.ts`, then
    `hooks/api/base.ts`; `extension/manifest.json`, then `extension/public/manifest.json`)
    or in a folder that ends as it does (`.bmad/bmm/core/tasks/x.xml`, then
    `.bmad/core/tasks/x.xml`; `/home/me/p/.claude/settings.json`, then
    `~/.claude/settings.json`): the labels of sets 32 to 39; or it swaps that one folder
    for another beside it (`dist/RELEASE_NOTES.md`, then `docs/RELEASE_NOTES.md`: the
    folder guessed wrong). Thirty-ninth held-out set, a
    Codex user: `ls ... && rg ... && sed -n '1,200p' .../food-service/page.tsx`, its `ls`
    and `rg` of that folder having run, then `sed` of the sales-order page: not a problem by
    its label, "fixed" by the card. A path given from the folder the look ran in, or a
    search of the name with no folder, is none of these. A relative path is read from the
    folder its call went into last (its `cd`): `sed ... moxa/package/net/x.mk` from
    buildroot, then `grep ... x/x.mk` from buildroot/moxa/package/net, keeps that folder
    (nu49's held-out set, fixed by its label; named apart when the folders were not read)."""

    def named(call: Call) -> list[PurePosixPath]:
        folders = _folders(call)
        there = _path_key(folders[-1]) if folders else ""
        return [
            PurePosixPath(_in_folder(there, _path_key(w)))
            for i in intents(call.command)
            for w in i.words[1:]
            if not w.startswith("-") and _basename(_path_key(w)) in gone
        ]

    def folders(path: PurePosixPath) -> list[str]:
        return [p for p in path.parent.parts if p not in {".", "/"}]

    def kept(mine: PurePosixPath, theirs: PurePosixPath) -> bool:
        a, b = folders(mine), folders(theirs)
        if not a or not b or a[-1] in b or rooted(mine) != rooted(theirs):
            return True  # (a path from the project's folder and one from / may be one)
        # the one folder guessed wrong, the file in another beside it (`dist/x`, `docs/x`)
        return len(a) == len(b) and a[:-1] == b[:-1]

    def rooted(path: PurePosixPath) -> bool:
        return path.is_absolute() or path.parts[0] == "~"

    mine, theirs = named(failed), named(call)
    return (
        bool(mine and theirs)
        and {b.name for b in theirs} <= {a.name for a in mine}
        and not any(kept(a, b) for a in mine for b in theirs if a.name == b.name)
    )


def _in_folder(folder: str, path: str) -> str:
    """A relative path joined to an absolute folder it was given from; else as it was."""
    if not folder.startswith("/") or path.startswith(("/", "~")):
        return path
    return posixpath.normpath(posixpath.join(folder, path))


def _climbs(path: str) -> bool:
    """Whether a relative path starts above the folder it is given from (`../x`)."""
    return path == ".." or path.startswith("../")


def _looks_at(call: Call, gone: set[str]) -> bool:
    """Whether a shell call names one of the file names a look did not find: by the whole
    name, by a word of five letters or more of it (`find . -name '*syslog*'`), or by a file
    name whose letters the name holds, or that holds its letters (a path that lost its slash:
    `docsOrchestratorArchitecture.md`, then `docs/OrchestratorArchitecture.md`: third
    held-out set), or by a path that starts as a name given with wildcards no file matched
    did (see _kept_of_glob)."""
    command = call.command or ""
    if any(
        name in command or any(w in command for w in _PATTERN_WORD.findall(name) if len(w) >= 5)
        for name in gone
    ):
        return True
    kept = {k for name in gone if (k := _kept_of_glob(name))}
    if kept and any(
        part.startswith(k)
        for i in intents(command)
        for w in i.words[1:]
        if _is_path(w)
        for part in PurePosixPath(_unix(w)).parts
        for k in kept
    ):
        return True
    letters = {_LETTERS.sub("", name).lower() for name in gone} - {""}
    theirs = {
        _LETTERS.sub("", _basename(w.rstrip("/"))).lower()
        for i in intents(command)
        for w in i.words[1:]
        if _is_path(w)
    }
    return any(min(len(a), len(b)) >= 8 and (a in b or b in a) for a in letters for b in theirs)


_LETTERS = lazy(r"[^A-Za-z0-9]")
# The wildcards of a shell's glob, and what parts a name's words.
_WILDCARD = lazy(r"[?*\[]")
_NAME_SEPARATORS = "-_."


def _kept_of_glob(name: str) -> str:
    """What a file name given with wildcards keeps of the name it stands for: its text
    before the first wildcard, back to the end of its last whole word (`001-build-a-` of
    `001-build-a-a???`), when five characters or more; else nothing. A glob no file matched
    reaches the program as it was written (bash's default), and its error names it: the
    agent did not know the whole name, or it lost its last letters (`sed -n '150,320p'
    specs/001-build-a-a???`, then the same sed of specs/001-build-a-web/data-model.md, the
    file it had read for the ten calls before: thirty-ninth held-out set, a Codex user,
    fixed). A word cut by the wildcard may be what the `?`s garbled."""
    found = _WILDCARD.search(name)
    if found is None:
        return ""
    kept = name[: found.start()]
    if kept and kept[-1] not in _NAME_SEPARATORS:
        kept = kept[: max(kept.rfind(c) for c in _NAME_SEPARATORS) + 1]
    return kept if len(kept) >= 5 else ""


def _found_spelt_otherwise(call: Call, gone: set[str], printed: str) -> bool:
    """Whether a shell call that searched by a part of a file name a look did not find (a
    word of five letters or more of it) printed a path whose name is that one spelt
    otherwise: the same letters and digits, other punctuation or case. The look had the
    name wrong, and this found the file: `ls a06_Student_Notes_Student_Handbook.py` (No
    such file), then `rg --files | rg "Student_Notes"` listing
    `a06-Student_Notes_Student_Handbook.py` (thirty-fourth held-out set, a Codex user,
    fixed), 16 calls later. A name only like it (another word) is another file."""
    if call.name not in SHELL_TOOLS or not printed.strip():
        return False
    command = call.command or ""
    letters = {}
    for name in gone:
        parts = [w for w in _PATTERN_WORD.findall(command) if len(w) >= 5 and w in name]
        if parts and name not in command:
            letters[_LETTERS.sub("", name).lower()] = name
    if not letters:
        return False
    for line in printed.splitlines()[:PERSIST_LINES]:
        found = _basename(line.strip().rstrip("/"))
        key = _LETTERS.sub("", found).lower()
        if key in letters and found != letters[key]:
            return True
    return False


# Package managers and their subcommands that install a program.
_INSTALLERS = {
    "brew": {"install"},
    "apt": {"install"},
    "apt-get": {"install"},
    "dnf": {"install"},
    "yum": {"install"},
    "pacman": {"-S", "-Sy", "-Syu"},
    "pip": {"install"},
    "pipx": {"install"},
    "npm": {"install", "i"},
    "pnpm": {"add", "install", "i"},
    "yarn": {"add"},
    "cargo": {"install"},
    "gem": {"install"},
    "go": {"install"},
    "uv": {"tool", "pip", "add"},
    "port": {"install"},
    "snap": {"install"},
}


# Commands that say where a program is, and fail when it is nowhere.
_WHERE = frozenset({"which", "type", "whereis"})


def _checked_for(failed: Call, key_line: str) -> str | None:
    """The program a failed `which gh` (`which gh && gh pr create`: "gh not found") looked
    for, when its error names it or says nothing but its status: not there, as a shell's
    `command not found` says (eleventh held-out set, brew install gh then, never run
    again; a `which` with only a look after it is a probe: _only_probed)."""
    if failed.name not in SHELL_TOOLS:
        return None
    where = next((i for i in intents(failed.command) if i.program in _WHERE), None)
    if where is None or len(where.args) != 1:
        return None
    program = next(iter(where.args))
    return program if program in key_line or _EXIT_LINE.match(key_line) else None


def _only_probed(failed: Call) -> bool:
    """Whether a failed shell command only asked whether a program is there: each of its
    commands looks (`which gh`, `type gh`, `gh --version`, `command -v gh`). Its failure was
    the answer, "not installed", and the install that came next is a goal of its own, not
    its fix, unless the probe is run again (`gh --version`: `gh: command not found`, then
    the apt source added and `apt install gh`, gh never run again: thirty-sixth held-out
    set; `which gh && gh --version`, then `brew install gh`: thirty-fourth; both not a
    problem by their labels, the eleventh's fixed). What ran the program for its work
    (`gh pr create`, `gh auth login`) still is fixed by its install."""
    mine = intents(failed.command) if failed.name in SHELL_TOOLS else ()
    probes = [i for i in mine if _probe(i)]
    return bool(probes) and all(i in probes or _looks(i) for i in mine)


def _beside_probe(failed: Call, key_line: str) -> frozenset[Intent]:
    """The looks beside a probe that failed, when its key line names the program probed
    (`pacman -Qq | grep -i hypr; which hyprshot`: `hyprshot not found`): they ran and
    answered, the probe's "not there" was the failure, and its answer (_only_probed). A
    later look of the same kind asks its own question (`pacman -Qq | grep -i shot`), no
    retry of it: only the probe run again, or the program, is (thirty-eighth held-out set,
    not a problem, "fixed" by the next package search)."""
    if not _only_probed(failed):
        return frozenset()
    mine = intents(failed.command)
    probed = {
        name
        for i in mine
        if _probe(i)
        for name in (i.args if i.program in _WHERE or i.program == "command" else {i.program})
    }
    if not any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", key_line) for name in probed):
        return frozenset()
    return frozenset(i for i in mine if not _probe(i))


# The shell's own question of where a program is (`command -v bun`), which runs nothing:
# read as the program it names (`command` runs what follows it), it is no run of that one.
_COMMAND_WHERE = frozenset({("command", "-v"), ("command", "-V")})
# What asks only whether a program is there: its version or help, and nothing else (not
# `-v`: `pytest -v` runs the tests).
_PROBE_FLAGS = frozenset({"--version", "-V", "--help"})


def _probe(intent: Intent) -> bool:
    """Whether a simple command asks only whether a program is there (`which gh`, `type
    gh`, `command -v gh`, `gh --version`, `gh version`): not a look of what it does (`gh
    auth status` needs gh to answer another question)."""
    if intent.program in _WHERE or intent.words[:2] in _COMMAND_WHERE:
        return True
    rest = [w for w in intent.words[1:] if w not in _PROBE_FLAGS]
    return rest in ([], ["version"]) and len(intent.words) > 1


# A module Python or Node did not find: `No module named 'docx'`, `Cannot find package
# 'playwright'` (a path, `./x`, is no package); `python3 -m pytest` says `No module named
# pytest`, unquoted.
_MISSING_MODULE = lazy(
    r"No module named '?([A-Za-z_]\w*)"
    r"|Cannot find (?:module|package) '((?:@[\w-][\w.-]*/)?[A-Za-z0-9_][\w.-]*)'"
)
# Modules whose package is named otherwise than `python-x`, `pyx` or `x-python`.
_PACKAGE_OF = {
    "cv2": "opencv-python",
    "PIL": "pillow",
    "sklearn": "scikit-learn",
    "bs4": "beautifulsoup4",
    "yaml": "pyyaml",
}


def _missing_module(key_line: str) -> str | None:
    """The module an import did not find, named as its package is (`python-docx` for `docx`
    is matched by _installs)."""
    found = _MISSING_MODULE.search(key_line)
    return next((name for name in found.groups() if name), None) if found else None


def _package_names(module: str) -> set[str]:
    """The names a module's package may have: `docx`, `python-docx`, `pydocx`, ..."""
    low = module.lower()
    names = {low, f"python-{low}", f"py{low}", f"{low}-python", f"py-{low}"}
    return names | ({_PACKAGE_OF[module]} if module in _PACKAGE_OF else set())


def _installs(call: Call, program: str) -> bool:
    """Whether a shell call installs a program the shell did not find: a package manager's
    install naming it (`brew install gh`, after `command not found: gh`, then the user's
    "brew install gh": sixth held-out set, fixed by its label though never run again)."""
    if call.name not in SHELL_TOOLS:
        return False
    names = _package_names(program)
    return any(
        i.program in _INSTALLERS
        and (i.sub in _INSTALLERS[i.program] or _INSTALLERS[i.program] & i.flags)
        and program not in {i.program, i.sub}
        and any(
            w == program
            or w.split("@")[0].rsplit("/", 1)[-1] == program
            or re.split(r"[=<>~!\[]", w, maxsplit=1)[0].lower().replace("_", "-") in names
            for w in i.words
        )
        for i in intents(call.command)
    )


def _packages_of(failed: Call, installer: str) -> set[str]:
    """What a failed shell call asked `installer` to install (`brew install yt-dlp ffmpeg`:
    yt-dlp and ffmpeg), its versions and extras aside."""
    if failed.name not in SHELL_TOOLS:
        return set()
    return {
        re.split(r"[=<>~!\[@]", word, maxsplit=1)[0]
        for i in intents(failed.command)
        if i.program == installer and i.sub in _INSTALLERS[installer]
        for word in i.args
        if word != i.sub and not word.startswith("-") and re.match(r"[A-Za-z0-9]", word)
    }


# Programs that run a project's tests, and the subcommand that does of the programs of
# CHECK_SUBCOMMANDS (`npm test`, `go test`, `cargo test`).
TEST_RUNNERS = frozenset(
    "pytest unittest nose2 nosetests jest vitest mocha ava tap karma rspec phpunit".split()
)


def _runner_missing(failed: Call, key_line: str, not_found: str | None) -> str | None:
    """The test runner a failed shell call found missing: the shell did not find it
    (`pytest: command not found`), Python not its module (`No module named pytest`), or an
    install of it failed (`pip install pytest` with no network)."""
    if failed.name not in SHELL_TOOLS:
        return None
    missing = not_found or _missing_module(key_line)
    if missing is not None:
        return missing if missing in TEST_RUNNERS else None
    return next(
        (
            name
            for i in intents(failed.command)
            if i.program in _INSTALLERS
            for name in sorted(_packages_of(failed, i.program) & TEST_RUNNERS)
        ),
        None,
    )


def _tests_run_otherwise(call: Call, runner: str) -> bool:
    """Whether a successful shell call ran tests by another runner than `runner` (`python3
    -m unittest discover` where pytest was not there; `npm test` where jest was not): not
    asking it for its help or version."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    return any(
        i.program != runner
        and not i.flags & _ABOUT
        and (
            i.program in TEST_RUNNERS
            or (i.sub == "test" and "test" in CHECK_SUBCOMMANDS.get(i.program, ()))
        )
        for i in intents(call.command)
    )


# A test run that found nothing to run: unittest's `Ran 0 tests` and `NO TESTS RAN`, pytest's
# `no tests ran` (both exit 5).
_NO_TESTS = lazy(r"\bno tests ran\b|\bran 0 tests\b", re.IGNORECASE)
# (each failure's output is asked by fix_of and _confirmed: ~180 ns a character, as `\b`
# and case leave SRE no prefix to scan for; the real mix's longest outputs cost 0.9 s)
_says_no_tests = _cached_search(_NO_TESTS)
# A runner's flags whose value is no folder of tests: a pattern, a name, a marker.
_NOT_FOLDER_FLAGS = frozenset({"-p", "--pattern", "-k", "-m", "--testNamePattern", "-t"})
# The files that say what a test run collects, wherever they are.
_TEST_CONFIG = lazy(
    r"^(?:conftest\.py|pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini|package\.json"
    r"|\.?[\w-]*\.config\.[cm]?[jt]s|\.mocharc\.\w+|\.rspec|phpunit\.xml(?:\.dist)?)$"
)


def _test_folders(command: str | None) -> list[str]:
    """The folders (or files) a test runner of a shell command was given to look in:
    `python3 -m unittest discover -s tests -p 'test_*.py'` looks in `tests`, `pytest
    tests/unit -k x` in `tests/unit`. None when it was given none (it looked everywhere)."""
    found = []
    for intent in intents(command):
        if intent.program not in TEST_RUNNERS or intent.program not in intent.words:
            continue
        words = intent.words[intent.words.index(intent.program) + 1 :]
        for n, word in enumerate(words):
            if (
                word.startswith("-")
                or word == intent.sub
                or _GLOB_CHARS.search(word)
                or (n and words[n - 1] in _NOT_FOLDER_FLAGS)
            ):
                continue
            found.append(_path_key(word).removeprefix("./"))
    return found


def _inside(path: str, folder: str) -> bool:
    """Whether `path` is in `folder`, both as a runner was given them (relative to where
    it ran) or absolute: the folder's parts, in order, among the path's."""
    parts, within = _path_key(path).split("/"), [p for p in folder.split("/") if p]
    return any(
        parts[i : i + len(within)] == within for i in range(len(parts) - len(within) + 1)
    ) and bool(within)


def _narrowed(failed: Call, call: Call) -> bool:
    """Whether a shell call ran the tests a run that found none looked for in only a part
    of where it looked: `discover -s tests/unit` after `discover -s tests` ran no tests.
    It found tests there, which says nothing of the folder it was asked about (unittest
    finds no tests in subfolders that are not packages, and a run from inside one needs
    none): no retry of it, nor its confirmation (thirty-second held-out set: a Codex
    agent ran each subfolder alone, fixed what those runs showed, made the `__init__.py`
    files, then ran the discovery from `tests` again, the fix)."""
    if call.name not in SHELL_TOOLS:
        return False
    mine, theirs = _test_folders(failed.command), _test_folders(call.command)
    return bool(mine and theirs) and all(
        any(t != m and (m == "." or t.startswith(m.rstrip("/") + "/")) for m in mine)
        for t in theirs
    )


def _collects_elsewhere(failed: Call, step: Call) -> bool:
    """Whether a step of a test run that found nothing to run edited a file outside where
    it looked, and no file that says what it collects (`conftest.py`, `pytest.ini`,
    `jest.config.ts`): the code under test, which changes what the tests that run find,
    never whether there are any (four patches of a Codex agent's `src/` were shown before
    the `__init__.py` files made in `tests/`: thirty-second held-out set)."""
    folders = _test_folders(failed.command)
    return (
        bool(folders)
        and step.name in EDIT_TOOLS
        and bool(step.file_path)
        and not _TEST_CONFIG.match(_basename(step.file_path))
        and not any(_inside(step.file_path or "", f) for f in folders)
    )


def _search_words(command: str | None) -> dict[str, set[str]]:
    """The words of each search program's paths and patterns in a command (its flags left
    out): `rg --files -g '*.butler.yaml'` searches for {butler, yaml}."""
    found: dict[str, set[str]] = {}
    for words in segments(command):
        program, _ = _program(words)
        if program in SEARCHERS:
            args = " ".join(_searched(program, words[1:]))
            found.setdefault(program, set()).update(_PATTERN_WORD.findall(args))
    return found


def _searched(program: str, args: Sequence[str]) -> list[str]:
    """A search's paths and patterns: its arguments that are no option, every one after
    `--`, and, of a content search given no pattern, the word it took for an option (its
    pattern after `-e`, else its last word). `rg -n "--profiles="`, not found, then `grep -R
    -- '--profiles=' .`, which found it, searched for the same words: the pattern was
    `--profiles=` (thirty-fifth held-out set, Codex, labelled worked around)."""
    end = args.index("--") if "--" in args else len(args)
    before = args[:end]
    operands = [a for a in before if not a.startswith("-")] + list(args[end + 1 :])
    if program in _MATCHERS and not operands and before and "--files" not in before:
        at = _pattern_at(before)
        operands = [before[-1 if at is None else at]]
    return operands


def _searched_otherwise(failed: Call, call: Call, printed: str) -> bool:
    """Whether a search that found nothing was run by another search program on the same
    words, which found something: the first one missed it (`rg --files -g '*.x.yaml'` skips
    hidden and ignored folders; `find . -name '*.x.yaml'` found `.ai-clean/specs/a.x.yaml`:
    sixth held-out set, 2 Codex searches worked around so by their labels)."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    mine = _search_words(failed.command)
    theirs = _search_words(call.command)
    names, their_names = _name_searches(failed.command), _name_searches(call.command)
    return any(
        words
        and program not in theirs
        and any(
            words <= other and (program in names) == (their in their_names)
            for their, other in theirs.items()
        )
        for program, words in mine.items()
    )


def _name_searches(command: str | None) -> set[str]:
    """The search programs of a command that look for files by their names (find, fd,
    `rg --files`), not for lines in them: a search of the one kind found nothing, one of
    the other that found something answered another question (`rg --files -g
    '*.constitution'`, exit 1, then `rg -n "Constitution|principle" .specify README.md`
    printing lines of constitution.md was its "fix": thirty-seventh held-out set, not a
    problem, no file having that extension)."""
    return {
        program
        for program, _, flags in filter(None, map(_search_flags, segments(command)))
        if program in _FINDERS or "--files" in flags
    }


def _viewed_sought(failed: Call, call: Call, printed: str, before: Sequence[Call] = ()) -> bool:
    """Whether a search for a file by its name that found nothing (`rg --files -g
    '.specify/memory/constitution.md'`, `find . -name x.json`: no wildcard in the name) was
    answered by a view of that file that printed it: the search missed it (rg skips hidden
    folders; `ls -a`, then `cat .specify/memory/constitution.md` read it: thirty-seventh
    held-out set, a Codex rollout labelled worked around). A view by the shell (`cat`,
    `Get-Content`) or the Read tool, of the name sought at a path its glob matches; not of
    a file written since, which the search did not miss: it was not there yet."""
    if call.name in SHELL_TOOLS:
        views = [i for i in intents(call.command) if i.program not in _SAYS]
        if not views or not all(_shows_file(i) for i in views):
            return False
        paths = [path for i in views for path in _viewed(i)]
    elif call.name in READ_TOOLS and call.file_path and not call.part:
        paths = [_unix(call.file_path)]
    else:
        return False
    if not printed.strip() or _masks(failed, call, printed):
        return False
    sought = _sought_files(failed.command)
    found = [
        path
        for path in paths
        for glob in sought
        if _basename(path) == _basename(glob)
        and (
            "/" not in glob
            or posixpath.normpath(path).endswith(posixpath.normpath(glob.lstrip("*/")))
        )
    ]
    return bool(found) and not any(
        (c.name in EDIT_TOOLS and any(_same_path(_unix(c.file_path or ""), p) for p in found))
        or (c.name in SHELL_TOOLS and {_basename(p) for p in found} & _files_of(c, written=True))
        for c in before
    )


# A file search's options that name what it looks for: rg's and ag's globs (of `--files`),
# find's and fd's name tests.
_FILE_GLOBS = frozenset({"-g", "--glob", "--iglob", *_NAME_TESTS} - {"-regex"})


def _sought_files(command: str | None, wild: bool = False) -> list[str]:
    """The files a search by name looks for, each a name or a path with no wildcard in its
    file name (`-g '.specify/memory/constitution.md'`, `-name x.json`; not `-g '*.md'`,
    which looks for every such file, nor a content search's glob, which says where).
    `wild`: its globs whose names hold a wildcard instead (`-g '*__tests__*'`)."""
    found = []
    for i in intents(command):
        if i.program not in SEARCHERS or (i.program in _MATCHERS and "--files" not in i.words):
            continue
        for n, word in enumerate(i.words):
            option, equals, value = word.partition("=")
            if option not in _FILE_GLOBS:
                continue
            value = value if equals else (i.words[n + 1] if n + 1 < len(i.words) else "")
            glob = _unix(value)
            if (
                glob
                and not glob.startswith("!")
                and wild == bool(_GLOB_CHARS.search(_basename(glob)))
            ):
                found.append(glob)
    return found


def _listed_sought(failed: Call, call: Call, printed: str) -> bool:
    """Whether a search by a name pattern that found nothing (`rg --files -g '*__tests__*'
    frontend/src`, exit 1) was answered by a listing in its folder that printed a name the
    pattern matches (`ls frontend/src/hooks`: `__tests__`): the search missed it (rg matches
    a glob without a slash against file names, and `__tests__` is a folder; it skips hidden
    and ignored files too), as a view of the file sought answers a search of its name
    (_viewed_sought): thirty-eighth held-out set, labelled fixed (Unsure). A listing
    elsewhere, or of names the pattern does not match, answers nothing."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    listings = [i for i in intents(call.command) if i.program not in _SAYS]
    if not listings or not all(i.program in _LISTERS for i in listings):
        return False
    names = [_basename(glob) for glob in _sought_files(failed.command, wild=True)]
    if not names:
        return False
    searched = [
        _unix(w).rstrip("/")
        for i in intents(failed.command)
        if i.program in SEARCHERS
        for w in _searched(i.program, i.words[1:])
        if _is_path(w) and not _GLOB_CHARS.search(w)
    ]
    listed = [_unix(w).rstrip("/") for i in listings for w in i.words[1:] if not w.startswith("-")]
    relative = not any(a.startswith(("/", "..", "~")) for a in listed)
    if searched and not all(any(_inside(a, b) for b in searched) for a in listed or ["."]):
        return False
    if not searched and not relative:
        return False
    return any(
        fnmatch.fnmatchcase(_basename(line.strip().rstrip("/")), name)
        for line in printed.splitlines()[:PERSIST_LINES]
        if line.strip()
        for name in names
    )


# What makes a search find what it missed: case ignored, hidden and ignored files searched;
# and what made it miss: a glob, a type, whole words, whole lines only.
_WIDENING = frozenset(
    "-i --ignore-case -S --smart-case --hidden -u -uu -uuu --no-ignore -. -iname -ipath".split()
)
_NARROWING = frozenset("-g --glob -t --type -w --word-regexp -x --line-regexp -name".split())


def _searched_wider(failed: Call, call: Call, printed: str) -> bool:
    """Whether a search that found nothing was run again by its program on the same words,
    widened, and found something: case ignored (`rg -n "datatable"` at the root, then `rg
    -n "datatable" -i apps/web/src`), hidden files searched, or its glob given up for the
    folder it named (`rg --files -g '.specify/**'` skips hidden folders; `rg --files
    .specify`: twenty-fourth held-out set, 2 people), or a grep's `a|b`, which its basic
    regex reads as three characters, asked with `-E` or one alternative at a time (`grep
    -RIn "absolute-overlaps|checkAbsoluteOverlaps" src`, then `grep -RIn
    "absolute-overlaps" src/...`: twenty-fifth held-out set). Another pattern is still
    another question (_same_search), as is a search of file names widened to one of their
    lines (_name_searches)."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    for pattern in filter(None, map(_literal_alternation, segments(failed.command))):
        for segment in segments(call.command):
            program, args = _program(segment)
            asked = _grep_pattern(args) if program == "grep" else None
            if asked in pattern.split("|") or (
                asked in {pattern, pattern.replace("|", "\\|")}
                and not _literal_alternation(segment)
            ):
                return True
    mine = {w[0]: w for w in (_search_flags(s) for s in segments(failed.command)) if w}
    for theirs in (_search_flags(s) for s in segments(call.command)):
        if not theirs or theirs[0] not in mine:
            continue
        program, words, flags = mine[theirs[0]]
        _, their_words, their_flags = theirs
        if (
            ("--files" in flags) == ("--files" in their_flags)  # (see _name_searches)
            and words
            and words <= their_words
            and ((their_flags - flags) & _WIDENING or (flags - their_flags) & _NARROWING)
        ):
            return True
    return False


# The options of content searchers (_MATCHERS, whose first word that is no option is their
# pattern) that take the next word for a value (`-g '*.ts'`, `-A 3`); `-e` takes the pattern.
_GREP_VALUED = frozenset(
    "-g --glob --iglob -t --type -T --type-not -A -B -C -m --max-count -M --max-columns"
    " --context --after-context --before-context --include --exclude -f --file".split()
)


def _pattern_at(args: Sequence[str]) -> int | None:
    """Where a content search's pattern is among its arguments."""
    n = 0
    while n < len(args):
        if args[n] in {"-e", "--regexp"}:
            return n + 1 if n + 1 < len(args) else None
        if not args[n].startswith("-"):
            return n
        n += 2 if args[n] in _GREP_VALUED else 1
    return None


def _searched_fewer_words(failed: Call, call: Call, printed: str) -> bool:
    """Whether a search that found nothing was run again by its program as it was but for
    its pattern, now some of its words (words dropped from either end: `rg -n "create table
    chat_sessions" supabase/migrations`, exit 1, then `rg -n "chat_sessions" ...` listing the
    migrations that touch the table: thirty-fourth held-out set, a Codex user, fixed), and
    found something: the same question asked more widely, as with case ignored
    (_searched_wider). Not a pattern reworded (`'defmodule .*CreateCustomer'`, then
    `create_customer`: another question, _same_search), nor one alternative of `a|b`, which
    asks less. A word too short to count (`"Etapa 3"`, then `"ETAPA"`) is dropped as well,
    and a flag given twice is given once (`grep -n "Etapa 3" -n x.sh`: thirty-fifth held-out
    set, a Codex user, fixed). It found what the first sought only when a line it printed
    holds every word of the first's pattern, in another form (`ETAPA 3: ...`): lines that
    hold the word kept alone answer another question (`rg "class Kira" cli`, exit 1, then
    `rg "kira" cli` listing its uses and no class: thirty-sixth held-out set, not a
    problem, the class being elsewhere; of the thirty-fourth's, no migration printed
    created the table, its label fixed but unsure)."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    lines = [line.lower() for line in printed.splitlines()]
    for mine in segments(failed.command):
        program, args = _program(mine)
        at = _pattern_at(args) if program in _MATCHERS else None
        if at is None or "|" in args[at]:
            continue
        pattern = args[at].lower()
        words = set(_PATTERN_WORD.findall(pattern))
        if not any(all(word in line for word in words) for line in lines):
            continue
        rest = list(dict.fromkeys([*args[:at], *args[at + 1 :]]))
        for theirs in segments(call.command):
            other, their_args = _program(theirs)
            if (
                other != program
                or _pattern_at(their_args) != at
                or rest != list(dict.fromkeys([*their_args[:at], *their_args[at + 1 :]]))
            ):
                continue
            asked = their_args[at].lower()
            their_words = set(_PATTERN_WORD.findall(asked))
            if (
                their_words
                and their_words <= words
                and asked.strip() != pattern.strip()
                and re.search(rf"(?<![\w-]){re.escape(asked)}(?![\w-])", pattern) is not None
            ):
                return True
    return False


def _searched_reworded(failed: Call, call: Call, printed: str) -> bool:
    """Whether a text search that found nothing was run again by its program on the same
    paths with the same flags, one word of its pattern put for another but the word it was
    after (its pattern's longest) kept, and found something: the same question asked as the
    code says it (`rg -n "import runware" a.py`, exit 1, then `rg -n "from runware" a.py`,
    line 23: thirty-fourth held-out set, a Codex user, fixed). A pattern that keeps only a
    shorter word (`import requests`) asks of another thing, as does another pattern
    altogether (_same_search)."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    for mine in segments(failed.command):
        program, args = _program(mine)
        if program not in _MATCHERS:
            continue
        flags, rest = [a for a in args if a.startswith("-")], [a for a in args if a[:1] != "-"]
        words = {w.lower() for w in _PATTERN_WORD.findall(rest[0])} if rest else set()
        if len(words) < 2:
            continue
        sought = max(sorted(words), key=len)
        for theirs in segments(call.command):
            other, their_args = _program(theirs)
            their_rest = [a for a in their_args if a[:1] != "-"]
            if (
                other != program
                or [a for a in their_args if a.startswith("-")] != flags
                or not their_rest
                or their_rest[1:] != rest[1:]
            ):
                continue
            new = {w.lower() for w in _PATTERN_WORD.findall(their_rest[0])}
            if sought in new and len(words - new) == 1 and len(new - words) == 1:
                return True
    return False


def _searched_higher(failed: Call, call: Call, printed: str) -> bool:
    """Whether a search that found nothing was run again by its program as it was but for
    a folder it searched, left out or given as a folder above it, and found something
    outside that folder: what it sought was not where it looked (`rg --files specs -g
    'UC-*.md'`, exit 1, then `rg --files -g 'UC-*.md'` listing `UC-01.md` at the root:
    thirty-third held-out set, a Codex user, fixed). Another pattern or flag is another
    question (_same_search); what it found must lie outside the folder given up, or the
    word left out was no folder."""
    if call.name not in SHELL_TOOLS or not printed.strip() or _masks(failed, call, printed):
        return False
    found = [_path_key(line.strip()) for line in printed.splitlines() if line.strip()]
    for mine in segments(failed.command):
        program, args = _program(mine)
        if program not in SEARCHERS:
            continue
        for theirs in segments(call.command):
            other, their_args = _program(theirs)
            if other != program:
                continue
            given_up = _folders_given_up(args, their_args)
            if given_up and any(
                not any(_inside(path, folder) for folder in given_up) for path in found
            ):
                return True
    return False


def _folders_given_up(args: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """The words of `args` that `theirs` leaves out or gives as a folder above them, all
    else the same and in order (`specs -g x` and `-g x`: specs); none when anything else
    differs."""
    given_up: list[str] = []
    j = 0
    for word in args:
        if j < len(theirs) and theirs[j] == word:
            j += 1
        elif word.startswith("-"):
            return []
        elif j < len(theirs) and not theirs[j].startswith("-") and _above(theirs[j], word):
            given_up.append(word)
            j += 1
        else:
            given_up.append(word)
    return given_up if j == len(theirs) else []


def _above(folder: str, path: str) -> bool:
    """Whether `folder` is a folder above `path` (`.` above any relative path)."""
    folder, path = _path_key(folder).removeprefix("./"), _path_key(path).removeprefix("./")
    if folder in {".", ""}:
        return not path.startswith("/") and path not in {".", ""}
    return path.startswith(folder.rstrip("/") + "/")


# grep's options for a pattern read other than as a basic regex: extended, Perl, or fixed
# strings (where `|` is a character too, as the user meant it).
_NOT_BASIC = frozenset("EPF")
_NOT_BASIC_LONG = frozenset({"--extended-regexp", "--perl-regexp", "--fixed-strings"})


def _literal_alternation(words: Sequence[str]) -> str | None:
    """A grep's pattern written `a|b` in a basic regex, where `|` is a character and
    nothing matches (GNU's `a\\|b` is alternation); None for any other command."""
    program, args = _program(words)
    if program != "grep" or any(
        a in _NOT_BASIC_LONG or (a[:2] != "--" and _NOT_BASIC & set(a[1:]))
        for a in args
        if a.startswith("-")
    ):
        return None
    pattern = _grep_pattern(args)
    return pattern if pattern and "|" in pattern.replace("\\|", "") else None


def _grep_pattern(args: Sequence[str]) -> str | None:
    """A grep's pattern: its first argument that is no option."""
    return next((a for a in args if not a.startswith("-")), None)


def _search_flags(words: Sequence[str]) -> tuple[str, set[str], set[str]] | None:
    """A search program's name, the words of its paths and patterns (lowercase), and its
    flags, of one simple command; None for another program."""
    program, args = _program(words)
    if program not in SEARCHERS:
        return None
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    text = " ".join(a for a in args if not a.startswith("-"))
    return program, {w.lower() for w in _PATTERN_WORD.findall(text)}, flags


def _file_was_there(failed: Call, error: str) -> bool:
    return failed.kind in {"not_read", "string_not_found"} or _says_found_there(error)


# A folder used as a file, or the other way round.
_NOT_A_FILE = lazy(
    r"EISDIR|is a directory|Not a directory|ENOTDIR|illegal operation on a directory",
    re.IGNORECASE,
)
_says_not_a_file = _cached_search(_NOT_A_FILE)


# Folders for files of the moment, outside any project.
_TEMP = ("/tmp/", "/var/tmp/", "/private/tmp/")


def _scratch(call: Call, named: str) -> bool:
    """Whether a shell command only wrote files to a temp folder (and looked or checked)
    that neither the failure nor its confirmation names (`named`): a summary of the work
    (`cat > /tmp/step2_summary.md <<EOF`) or a scratch file, which nothing the failure met
    reads (tenth and fourteenth held-out sets, shown as steps: no label names them). A
    script written there and run by the confirmation is part of it."""
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    command = _without_heredocs(call.command)
    paths = [a or b for a, b in _WRITES_TO.findall(command) if not (a or b).startswith("/dev/")]
    if not paths or not all(p.startswith(_TEMP) for p in paths):
        return False
    if any(_basename(p) in named for p in paths):
        return False
    return all(
        i.program in _WRITERS
        or _looks(i)
        or i.program in CHECK
        or i.sub in CHECK_SUBCOMMANDS.get(i.program, ())
        for i in intents(call.command)
    )


# A CI service's configuration: what it runs elsewhere, on a push.
_CI_CONFIG = lazy(
    r"(?:^|/)(?:\.github/workflows/|\.circleci/|\.gitlab-ci\.ya?ml$|\.travis\.ya?ml$"
    r"|azure-pipelines\.ya?ml$|bitbucket-pipelines\.ya?ml$|Jenkinsfile$)"
)
# What names CI: its configuration, or a program that runs or reads it (`act`, `gh run`).
_NAMES_CI = lazy(
    r"\.github/workflows|\.circleci|\.gitlab-ci|\.travis\.ya?ml|azure-pipelines|"
    r"bitbucket-pipelines|Jenkinsfile|\bgh\s+(?:run|workflow)\b|\bact\b|\bactionlint\b"
    r"|\bgitlab-ci-local\b|\bcircleci\b"
)
# The folders of a project's scripts, each run on its own (`python3 scripts/x.py`).
_SCRIPT_FOLDER = lazy(r"(?:^|/)(?:scripts?|bin|tools)/[^/]+$")
# A document, which a command run reads only by its name.
_DOCUMENT = lazy(r"\.(?:md|mdx|rst|adoc)$", re.IGNORECASE)


def _beside_the_run(failed: Call, call: Call, named: Callable[[], str]) -> bool:
    """Whether an edit is of what the failed run and its confirmation never ran, though the
    session made it then: a CI workflow (`.github/workflows/ci.yml`, which runs on a push,
    not in a local run), or a script of the project's scripts/ or bin/ folder (run on its
    own) or, of a shell command's failure, a document (`docs/ARCHITECTURE.md`), that neither
    the failure, its error, its confirmation nor a command between that did more than look
    (`named`) names. A `kira test` subcommand added to a CLI was confirmed by
    `python3 vesselos.py kira test`; of its eight edits, the CI job added for it and two
    patches of a new release script were no steps, nor two of the architecture document
    (thirty-sixth held-out set: the label names the three edits of the agent, its CLI parser
    and dispatch). A failure of CI, of the script or over the document names them; a plan
    file edited after a plan was rejected is no shell command's step."""
    if call.name not in EDIT_TOOLS or not call.file_path:
        return False
    path = _unix(call.file_path)
    if _CI_CONFIG.search(path):
        return not _NAMES_CI.search(named())
    if _SCRIPT_FOLDER.search(path) or (failed.name in SHELL_TOOLS and _DOCUMENT.search(path)):
        stem = _basename(path).rsplit(".", 1)[0]
        return len(stem) >= 3 and stem not in named()
    return False


def _records(call: Call, failed: Call) -> bool:
    """Whether a shell call only records the work (see RECORDS), for another program's
    failure than its own."""
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    done = [i for i in intents(call.command) if i.program not in LOOK]
    failed_intents = intents(failed.command) if failed.command else ()
    failed_programs = {i.program for i in failed_intents}
    return bool(done) and all(
        i.program in RECORDS
        and (
            i.program not in failed_programs
            # a push to another remote than the failed push's records the work there; it
            # changes nothing of what the failed one met (see _other_remote)
            or any(_other_remote(mine, i) for mine in failed_intents)
        )
        and (RECORDS[i.program] is None or i.sub in (RECORDS[i.program] or ()))
        for i in done
    )


def _searches(call: Call, folder: str) -> bool:
    """Whether a call lists or searches `folder` (by its path, or the end of it)."""
    if call.name in SEARCH_TOOLS:
        where = f"{call.file_path or ''} {call.pattern or ''}"
    elif call.name in SHELL_TOOLS and any(
        i.program in {"ls", "find", "fd", "tree", "lsd", "eza", "exa"}
        for i in intents(call.command)
    ):
        where = call.command or ""
    else:
        return False
    tail = "/".join(_unix(folder).strip("/").split("/")[-2:])
    home = _from_home(folder)
    return bool(tail) and (tail in _unix(where) or (home is not None and _alone(where, home)))


def _alone(text: str, word: str) -> bool:
    """Whether `word` is in `text` as a word of its own: at its start or after a space, and
    at its end or before a space or a quote, maybe with a `/` after it. The search of
    `(?<!\\S)<word>/?(?![^\\s'"])`, without a pattern compiled for each word (a folder's
    path from home: 50 for the 159 asked in a fresh build of the 200 MB benchmark corpus)."""

    def ends(at: int) -> bool:
        return at >= len(text) or text[at].isspace() or text[at] in "'\""

    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if (start == 0 or text[start - 1].isspace()) and (
            ends(end) or (text[end : end + 1] == "/" and ends(end + 1))
        ):
            return True
        start = text.find(word, start + 1)
    return False


# A home folder: macOS's `/Users/me`, Linux's `/home/me` and `/root`, Windows' `C:/Users/me`.
_HOME = lazy(r"^(?:/Users/[^/]+|/home/[^/]+|/root|[A-Za-z]:/Users/[^/]+)(?=/|$)")


def _from_home(path: str) -> str | None:
    """A path in a home folder as the shell writes it from there (`/Users/me/.claude`:
    `~/.claude`), None for any other. A tool's path is absolute, and a command's often not:
    a Read of the folder `/Users/me/.claude` (EISDIR), then `ls -la ~/.claude/`, which the
    folder's last two parts (`me/.claude`) did not find (thirty-fifth held-out set)."""
    path = _unix(path).rstrip("/")
    found = _HOME.match(path)
    return "~" + path[found.end() :] if found and found.end() < len(path) else None


def _searches_under(call: Call, folder: str) -> bool:
    """Whether a Glob's `**` searches `folder`: what comes before it (its path, then its
    pattern's folders) is the folder or one above it (`tests/**/*.py`, for a Read of
    tests/adapters/test_boost_runner.py, renamed: sixth held-out set)."""
    if call.name not in SEARCH_TOOLS or "**" not in (call.pattern or ""):
        return False
    parts = [_unix(call.file_path).rstrip("/")] if call.file_path else []
    for part in (call.pattern or "").split("/"):
        if part == "**":
            break
        if not part or any(ch in part for ch in "*?[{"):
            return False
        parts.append(part)
    root = "/".join(parts)
    folder = _unix(folder).rstrip("/")
    if not root:
        return False
    if root.startswith("/") or _DRIVE.match(root):  # (`D:/vault`, a Windows Glob's path)
        return folder == root or folder.startswith(root + "/")
    return f"/{root}/" in folder + "/"


# Tools that are one for a retry: Codex's write_stdin polls a command exec_command left
# running, and says how it ended (its call holds that command), as wait does for a cell of
# code mode that ran it; Claude Code's MultiEdit
# and Edit make the same kind of edit, several at once or one (a MultiEdit refused as not
# read, redone as an Edit after the Read: a retry, "worked around" on 5 cards of the
# fourth held-out set).
_SAME_TOOL = {"write_stdin": "exec_command", "wait": "exec_command", "MultiEdit": "Edit"}
# Codex's calls that poll a command another call left running (write_stdin), or wait on
# the code-mode cell that runs it (wait), and hold its command.
_POLLS = frozenset({"write_stdin", "wait"})


# The keys that ask a running command to stop: Ctrl-C, Ctrl-D (end of input), Ctrl-\.
_STOP_KEYS = frozenset("\x03\x04\x1c")


def _stopped_on_purpose(failed: Call) -> bool:
    """Whether a failed call is Codex's write_stdin that sent only keys that stop a command
    (Ctrl-C): the agent stopped its own command, a server it had started, and the exit
    status it got back is that stop, no error to fix (`^C(viser) Server stopped` then
    `CondaError: KeyboardInterrupt`, exit 1, was "fixed" by four later calls of other work,
    the server's command taken for their retry: thirtieth held-out set)."""
    keys = _input_text(failed.input, "chars") if failed.name == "write_stdin" else ""
    return bool(keys) and set(keys) <= _STOP_KEYS


# The whole output of a shell killed by a signal: SIGKILL (137), SIGTERM (143), and 144,
# what Claude Code's Bash says of its shell when a `pkill -f` of the command killed it.
_KILLED = lazy(r"\A\s*(?:Exit code|Process exited with code) (?:137|143|144)\s*\Z")
# pkill's options that take a value (`pkill -u me -f x`: the pattern is x).
_PKILL_VALUED = frozenset(
    "-g -G -P -s -t -u -U -F --signal --pgroup --group --parent --session --terminal --euid"
    " --uid --pidfile --ns --nslist".split()
)


def _kills_itself(command: str | None) -> bool:
    """Whether a shell command holds a `pkill -f` of a pattern its own text matches: the
    shell that runs it has the command in its command line, so pkill kills that shell (and
    the command) before it gets further."""
    for intent in intents(command):
        if intent.program != "pkill":
            continue
        words = list(intent.words[1:])
        full = any(
            w == "--full" or (w.startswith("-") and not w.startswith("--") and "f" in w[1:])
            for w in words
        )
        pattern = None
        while words:
            word = words.pop(0)
            if word in _PKILL_VALUED:
                words = words[1:]
            elif not word.startswith("-"):
                pattern = word
                break
        if not full or not pattern:
            continue
        try:
            if re.search(pattern, command or ""):
                return True
        except re.error:
            if pattern in (command or ""):
                return True
    return False


def _killed_itself(failed: Call, error: str) -> bool:
    """Whether a shell command was killed by its own `pkill -f`: killed by a signal, with
    nothing printed, the pattern of a pkill of it in its own text. What fixes that is a
    retry without such a pkill; no edit made between stops pkill matching the command,
    though a command may be part of the new way (the clean-up run on its own first)
    (`pkill -f 'waybar/scripts/display-settings.py'; ... display-settings.py &`, exit 144
    twice, two edits of the bar's config for its own toggle, then the launch without pkill:
    the edits headed the card; thirty-third held-out set)."""
    return (
        failed.name in SHELL_TOOLS
        and _KILLED.match(error) is not None
        and _kills_itself(failed.command)
    )


def _stopped_by_own_pkill(failed: Call, error: str) -> bool:
    """Whether a command killed by its own `pkill -f` (_killed_itself) only looked or waited
    besides its kills: pkill signals every process its pattern matches, the ones it was
    for as well as its own shell, so the kill was done, and only a look at it never ran
    (`pkill -f "generate_dataset_200k"; sleep 2; ps aux | grep generate_dataset | wc -l`,
    exit 144, the generator then rewritten and run: "fixed" by a later `ps aux | grep`
    of it; thirty-sixth held-out set, not a problem). One that was to launch something
    after the kill still needs that launch."""
    return _killed_itself(failed, error) and all(
        i.program in _KILLERS or _looks(i) for i in intents(failed.command)
    )


def _sends_keys(call: Call) -> bool:
    """Whether a call of Codex's write_stdin sent keys (`chars`), not only polled."""
    return call.name == "write_stdin" and bool(_input_text(call.input, "chars"))


def _retry(failed: Call, call: Call, not_failing: frozenset[Intent] | tuple[()] = ()) -> bool:
    """Whether a successful call is a retry of the failed one: the same thing, maybe changed.
    `not_failing`: the failed command's simple commands that did not fail (see _not_failing)."""
    if _SAME_TOOL.get(call.name, call.name) != _SAME_TOOL.get(failed.name, failed.name):
        return False
    if failed.command is not None or call.command is not None:
        return _shared_intent(
            failed.command, call.command, not_failing
        ) is not None or _same_script_run(failed.command, call.command)
    if failed.file_path is not None:
        if _same_file(call.file_path, failed.file_path):
            # after the user rejected or stopped an edit, only one writing the same (see
            # _same_edit); after one whose text was not found, one changing its words
            # (see _same_change)
            if failed.kind == "string_not_found":
                return _same_change(failed, call)
            return failed.kind not in _STOPPED or _same_edit(failed, call)
        return _searched_inside(failed, call) or _searched_above(failed, call)
    if failed.url is not None:
        return call.url == failed.url  # the same page again (another page: another way)
    # a tool without a file or command, called again: with the same input (an MCP call the
    # user stopped, then `continue`), or with other input, a changed retry (a plan rejected,
    # then reshaped: "worked around" on 8 cards of the fourth held-out set); after the user
    # stopped it, only when it asks for the same thing (see _same_request)
    if failed.kind not in _STOPPED or call.input == failed.input:
        return True
    if failed.name in _QUESTIONS:
        return False  # the user answered it in the chat (see _QUESTIONS)
    if failed.name in SEARCH_TOOLS:
        # a search's pattern is its question: a Glob of `src/widgets/**/value*` rejected,
        # then one of `src/widgets/landing-page/**/*`, asks another (as _same_search)
        return call.pattern == failed.pattern
    return _same_request(failed.input, call.input)


# A shell's words for a command it could not parse, so ran no part of (bash's, dash's, zsh's):
# `bash: -c: line 1: unexpected EOF while looking for matching '"'`, `/usr/bin/bash: eval:
# line 2: syntax error: unexpected end of file`, `sh: 1: Syntax error: "(" unexpected`,
# `zsh:1: parse error near `)'`, `(eval):1: unmatched "`.
_UNPARSED = lazy(
    r"(?:^|\s)(?:/\S*/)?bash: (?:-c: |eval: )?line \d+: (?:syntax error|unexpected EOF while)"
    r"|(?:^|\s)(?:/\S*/)?(?:da)?sh: \d+: Syntax error:"
    r"|(?:^|\s)(?:zsh:\d+|\(eval\):\d+): (?:parse error|unmatched)",
    re.MULTILINE,
)
_says_unparsed = _cached_search(_UNPARSED)


def _not_parsed(failed: Call, error: str, key_line: str) -> bool:
    """Whether the shell could not parse a failed command, so ran no part of it: its key
    line is the shell's complaint (_UNPARSED), which is all such a command prints. The same
    words beside a program's own error (a traceback) came from what the shell ran before the
    command: a startup file of the session (zsh sourcing conda's `conda.sh:48: parse error
    near `()'` and its hook's `(eval):1: parse error near `()'` at the top of every output,
    failed or not, so a `python -c` test that raised `no such table: user` was shown as
    "written so that the shell could parse it" when it passed: thirty-first held-out set, a
    new user's try). Without a key line, the error is read whole."""
    return failed.name in SHELL_TOOLS and _says_unparsed(key_line or error)


# The quotes a word of a command is read without (see _reworded).
_QUOTES = "'\"`"


# A program's own words for arguments it could not take: what was wrong is the arguments,
# so a run with others is the retry, whether or not it shares one (`create-new-feature.sh
# --json "<a long description>"`: `--short-name requires a value`, then `... --json test`:
# twenty-fourth held-out set).
_MISUSED = lazy(
    r"\brequires an? (?:value|argument)\b|\bmissing (?:required )?(?:argument|option|value)s?\b"
    r"|\bunknown (?:flag|option|argument|shorthand flag)\b|\bunrecognized (?:option|argument)s?\b"
    r"|\binvalid (?:option|argument|choice)\b|\bunexpected argument\b"
    r"|\btoo (?:many|few) arguments\b|\bthe following arguments are required\b|^usage:"
    # a subcommand it does not have (commander's `error: unknown command 'restart'`, cobra's
    # `unknown command "logs" for "gt deacon"`, cargo's `no such command`, git's `'x' is not a
    # git command`)
    r"|\bunknown (?:sub)?command\b|\bno such (?:sub)?command\b|\bis not an? [\w.-]+ command\b",
    re.IGNORECASE | re.MULTILINE,
)
_says_misused = _cached_search(_MISUSED)


def _run_otherwise(failed: Call, call: Call, not_failing: Container[Intent]) -> bool:
    """Whether a successful shell call runs the program (and subcommand) of a command whose
    arguments were refused (_MISUSED) with other arguments: not asking it for its help or
    version, which says how, not does it (nor was the failed call such a question: `gemini
    --help` printed its usage and exited 255, which was the answer wanted)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    mine = [
        i
        for i in intents(failed.command)
        if i not in not_failing and not _looks(i) and not i.flags & _ABOUT
    ]
    return any(
        i.program == theirs.program
        and i.sub == theirs.sub
        and not theirs.flags & _ABOUT
        and _undoes(i) == _undoes(theirs)  # (see _undoes)
        for i in mine
        for theirs in intents(call.command)
    )


def _runs_help_refused(failed: Call, call: Call, named: frozenset[str]) -> bool:
    """Whether a successful shell call runs the subcommand whose help the failed call asked
    for, which the program refused as one it did not have (the word its error quotes is an
    argument of the call: argparse's `invalid choice: 'test'`, commander's `unknown command
    'x'`): the help never ran, so a run without `--help` (which no run of a program is the
    retry of, _ABOUT) of every argument the call had shows the program has it now. A Codex
    agent asked `python3 vesselos.py kira test --help`, `prime kira: error: argument action:
    invalid choice: 'test'`, wrote the subcommand in three files and ran `python3
    vesselos.py kira test`, 56 calls later: shown as not fixed (thirty-sixth held-out set,
    labelled fixed by those edits; a new user's try, nu41 finding 6)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    return any(
        mine.flags & _ABOUT
        and named & mine.args
        and theirs.program == mine.program
        and theirs.sub == mine.sub
        and not theirs.flags & _ABOUT
        and mine.args <= theirs.args
        for mine in intents(failed.command)
        for theirs in intents(call.command)
    )


# What an error quotes: the word of the command it could not take, in git's way (`fatal:
# ambiguous argument 'release-2025-12': unknown revision`, `error: pathspec 'x' did not
# match`) and others' (`"x"`, `` `x' ``).
_QUOTED_WORD = lazy(r"'([^'\s]+)'|\"([^\"\s]+)\"|`([^`'\s]+)'")


def _quoted_words(text: str) -> frozenset[str]:
    """The words a key line quotes (see _QUOTED_WORD), each also without the version range a
    package manager added to the name it was given (npm's `'@google/generative-ai-cli@*'`
    for `npm install -g @google/generative-ai-cli`, `'left-pad@^9.0.0'`: _VERSION_RANGE)."""
    words = [next(g for g in m.groups() if g) for m in _QUOTED_WORD.finditer(text)]
    return frozenset(
        words + [w[: m.start()] for w in words if (m := _VERSION_RANGE.search(w, 1)) is not None]
    )


# The version range npm writes after a package's name in its errors (`@*`, `@^1.2.0`,
# `@latest`, `@>=2 <3`): an `@` after the name's first character.
_VERSION_RANGE = lazy(r"@(?:[*^~<>=\d]|latest\b|next\b)[^'\"\s]*$")


def _replaced_named(
    failed: Call, call: Call, named: frozenset[str], not_failing: Container[Intent]
) -> bool:
    """Whether a successful shell call runs the failed command again with the one word its
    error quotes (`named`) replaced by another, and every other word as it was: a name
    mistaken, then set right (`git log --oneline 2026-01-25`, `fatal: ambiguous argument
    '2026-01-25': unknown revision`, then `git log --oneline branch-2026-01-25`, the
    branch's name the user gave: other agents' sessions, a new user's try). They share no
    argument, so no retry by its arguments. A run with other words besides (`git log main
    --not branch-2026-01-25`, just before) asks something else of the right name."""
    return (
        call.name in SHELL_TOOLS and not call.failed and _renamed(failed, call, named, not_failing)
    )


def _renamed(
    failed: Call, call: Call, named: frozenset[str], not_failing: Container[Intent] = ()
) -> bool:
    """Whether a shell call runs the failed command again with the one word its error quotes
    (`named`) replaced by another, and every other word as it was (see _replaced_named)."""
    ran = intents(failed.command)
    words = {word for i in ran for word in i.words}
    # (the name set right is new to the command: `git add x && git add y` refused for x,
    # then `git add y` is the rest of the chain, not x named right)
    return any(
        mine not in not_failing and mine.words[at] in named and theirs.words[at] not in words
        for mine, theirs in itertools.product(ran, intents(call.command))
        if (at := _word_replaced(mine, theirs))
    )


def _named_left_out(
    failed: Call, call: Call, named: frozenset[str], not_failing: Container[Intent]
) -> bool:
    """Whether a successful shell call did on the same operands, by another subcommand of
    the failed command's program, what needs no word its error quotes: `git reset HEAD .`
    before the first commit (`fatal: ambiguous argument 'HEAD': unknown revision`), then
    `git rm -r --cached .`, which unstages without HEAD (thirty-second held-out set, fixed).
    The same subcommand without it is a retry; a look is no such act."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    for mine in intents(failed.command):
        rest = mine.args - named
        if mine in not_failing or mine.sub is None or rest == mine.args or not rest:
            continue
        if _looks(mine):
            continue
        for theirs in intents(call.command):
            if (
                theirs.program == mine.program
                and theirs.sub not in (None, mine.sub)
                and not _looks(theirs)
                and not theirs.args & named
                and rest <= theirs.args
            ):
                return True
    return False


# A path that begins with a variable the shell did not expand, as the error quotes it:
# cmd's `%APPDATA%`, PowerShell's `$env:APPDATA`, or a `$HOME` or `~` in quotes; the rest
# of the path is the group.
_UNEXPANDED = lazy(r"^(?:%\w+%|\$env:\w+|\$\{?\w+\}?|~)[\\/]+(.+)$", re.IGNORECASE)


def _unexpanded(words: Iterable[str]) -> set[str]:
    """The rest of each path among `words` whose variable the shell did not expand, as a
    POSIX path: `Claude/logs` of `%APPDATA%\\Claude\\logs`."""
    return {
        m.group(1).replace("\\", "/").rstrip("/")
        for word in words
        if (m := _UNEXPANDED.match(word))
    }


def _written_out(one: Intent, other: Intent) -> bool:
    """Whether `other` names, written out, a path `one` gave with a variable the shell did
    not expand: the same program, or a look for a look."""
    if other.program != one.program and not (_looks(one) and _looks(other)):
        return False
    rests = _unexpanded(one.words[1:])
    paths = {_path_key(w) for w in _paths_of(other) if not _UNEXPANDED.match(w)}
    return any(p.endswith(f"/{rest}") for p in paths for rest in rests)


def _expanded(
    failed: Call, call: Call, named: frozenset[str], not_failing: Container[Intent]
) -> bool:
    """Whether a successful shell call did what the failed one was to do on a path whose
    variable the shell did not expand, as its error quotes it (`named`), that path written
    out: `dir "%APPDATA%\\Claude\\logs"` in Git Bash (`cannot access
    '%APPDATA%\\Claude\\logs'`), then `ls -lt "C:\\Users\\me\\AppData\\Roaming\\Claude\\logs"`
    (thirty-second held-out set, fixed)."""
    if call.name not in SHELL_TOOLS or call.failed or not _unexpanded(named):
        return False
    return any(
        mine not in not_failing and _written_out(mine, theirs)
        for mine, theirs in itertools.product(intents(failed.command), intents(call.command))
    )


def _word_replaced(one: Intent, other: Intent) -> int | None:
    """Where two simple commands differ, when they differ in one argument and nothing else
    (not the program or subcommand, not a flag, no inline code); not a verb replaced by one
    that undoes (see _undoes: `claude mcp restart serena`, `unknown command 'restart'`, then
    `claude mcp remove serena`)."""
    if (
        (one.program, one.sub) != (other.program, other.sub)
        or _undoes(one) != _undoes(other)
        or one.code is not None
        or other.code is not None
        or len(one.words) != len(other.words)
    ):
        return None
    apart = [k for k, (a, b) in enumerate(zip(one.words, other.words, strict=True)) if a != b]
    if (
        len(apart) != 1
        or not apart[0]
        or any(w[apart[0]].startswith("-") for w in (one.words, other.words))
    ):
        return None
    return apart[0]


# A package manager's words for a script or command of the project it does not have: pnpm's
# `Command "vitest" not found`, yarn's `error Command "test:client" not found.` and `Couldn't
# find a script named`, npm's `Missing script: "lint"`, bun's `Script not found`.
_NO_SCRIPT = lazy(
    r"\bCommand \"[^\"\n]+\" not found|\bmissing script:|Couldn't find a script named"
    r"|\bScript not found\b",
    re.IGNORECASE,
)
_says_no_script = _cached_search(_NO_SCRIPT)


def _ran_another_script(failed: Call, call: Call) -> bool:
    """Whether a successful shell call has the package manager that did not know a script
    (_NO_SCRIPT) run another one, or a tool of the project: what the missing one was for,
    run as the project has it (`pnpm type-check`, then `pnpm tsc --noEmit`; `yarn
    test:client`, then `cd client && yarn test`: twenty-second and twenty-seventh held-out
    sets). Not an install, nor a question of how (`--help`), nor the same name again. Asked
    of a run that failed too, when it failed on another error (fix_of): it ran, past the
    missing script (`yarn test:web`, then `cd ynab_web && yarn test`, whose tests failed:
    the real corpus, the card said "not fixed", then: the edits of those tests)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    mine = {(i.program, i.sub) for i in intents(failed.command) if i.program in PACKAGE_MANAGERS}
    return any(
        theirs.program == program
        and theirs.sub not in (None, sub)
        and not _changes_packages(theirs)
        and not theirs.flags & _ABOUT
        # (nor a listing of the scripts, `yarn run | grep test`: the run of the one found
        # after it is what got past; nu49's held-out set)
        and not _looks(theirs)
        for program, sub in mine
        for theirs in intents(call.command)
    )


def _listed_script(step: Call, found: Call, output: Callable[[str], str]) -> bool:
    """Whether a shell call listed a package manager's scripts (`yarn run | grep test`, a
    look) and printed the name of the one `found` ran: the step that found the script the
    missing one was meant as (nu49's held-out set, labelled so)."""
    if step.name not in SHELL_TOOLS or step.failed:
        return False
    listings = [i for i in intents(step.command) if i.program in PACKAGE_MANAGERS and _looks(i)]
    names = {
        i.sub
        for i in intents(found.command)
        if i.program in PACKAGE_MANAGERS and i.sub and not _looks(i)
    }
    printed = set(output(step.tool_use_id).split())
    return bool(listings) and any(name in printed for name in names)


def _ran_fixer(failed: Call, call: Call, later: Sequence[Call]) -> bool:
    """Whether a successful shell call runs the project's script that fixes what the failed
    one checked (`lint:fix`, `lint-fix` or `fix:lint` of `lint`), and the check is not run
    again soon after it, which would say more (`bun lint`, prettier's `Code style issues
    found`, then `bun lint:fix` as the session ended: twenty-seventh held-out set; where
    `bun lint` passed after it, that run confirms the fix)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    checks = {
        (i.program, i.sub)
        for i in intents(failed.command)
        if i.program in PACKAGE_MANAGERS and i.sub
    }
    fixers = {
        (program, name)
        for program, sub in checks
        for name in (f"{sub}:fix", f"{sub}-fix", f"fix:{sub}", f"fix-{sub}")
    }
    return any((i.program, i.sub) in fixers for i in intents(call.command)) and not any(
        _retry(failed, other) for other in later if other.name in SHELL_TOOLS
    )


# bash's words for a `$(...)` or backquote it could not parse inside a command it ran: in
# code given inline (`node -e "...${x}..."`), the code it ran was not the code written.
_SUBSTITUTION_BROKEN = lazy(r"\bbash: command substitution: line \d+: ")
_says_substitution_broken = _cached_search(_SUBSTITUTION_BROKEN)


def _written_by(calls: Sequence[Call]) -> set[str]:
    """The names of the files that calls which did not fail wrote: an edit tool's file, a
    shell command's `> x`, `tee x`, `cp a x` (see _files_of)."""
    written: set[str] = set()
    for c in calls:
        if not c.failed and c.file_path and c.name in EDIT_TOOLS:
            written.add(_basename(c.file_path))
        elif not c.failed and c.name in SHELL_TOOLS:
            written |= _files_of(c, written=True)
    return written


def _ran_as_file(failed: Call, call: Call, between: Sequence[Call]) -> bool:
    """Whether a successful shell call runs, by the interpreter of inline code the shell
    broke (`node -e "..."` with a template literal bash took for a substitution, a `python
    -c` whose quotes it could not match), a script file written since: the code moved into
    a file, out of the shell's reach (`fix-webhooks3.cjs` written, then `node
    fix-webhooks3.cjs`: nineteenth held-out set)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    programs = {i.program for i in intents(failed.command) if i.code is not None}
    written = _written_by(between)
    return any(
        i.program in programs and i.code is None and any(_basename(w) in written for w in i.args)
        for i in intents(call.command)
    )


# A script run by its interpreter (`python x.py`, `node gen.mjs`, `bash run.sh`), by the
# extension of the file named after the interpreter's own flags.
_SCRIPT_FILE = lazy(r"[^/\\]\.(?:py|m?js|cjs|m?ts|rb|pl|php|sh|bash|R|jl|lua)$")
_SCRIPT_RUNNERS = _INTERPRETERS | {"bash", "sh", "zsh", "tsx", "ts-node", "bun", "Rscript", "lua"}


def _script_run(intent: Intent) -> str | None:
    """The script file a command runs by its interpreter (its path as written), if any:
    PowerShell's too, by `-File`."""
    if intent.program.lower() in _WINDOWS_SHELLS:
        given = [w.lower() for w in intent.words[1:-1]]
        return intent.words[given.index("-file") + 2].strip(_QUOTES) if "-file" in given else None
    if not (intent.program.startswith("python") or intent.program in _SCRIPT_RUNNERS):
        return None
    if intent.code is not None or intent.sub is not None:
        return None
    # after the variables set for it (`PYTHONPATH=src python app/main.py`) and the program
    words = list(intent.words)
    while len(words) > 1 and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    arg = next((w for w in words[1:] if not w.startswith("-")), None)
    return arg.strip(_QUOTES) if arg and _SCRIPT_FILE.search(arg.strip(_QUOTES)) else None


# What runs the script piped into it (`cat x.sh | bash`, `Get-Content x.ps1 -Raw |
# Invoke-Expression`, `... | powershell -Command -`, `cat x.py | python3 -`), lower-cased.
_STDIN_RUNNERS = frozenset(
    {*SHELLS, *_WINDOWS_SHELLS, *_INTERPRETERS, "python", "invoke-expression", "iex"}
)
# What prints a whole file into such a pipe.
_FEEDERS = frozenset({"cat", "type", "get-content", "gc"})


@functools.lru_cache(maxsize=4096)
def _fed_scripts(command: str | None) -> tuple[str, ...]:
    """The script files a command pipes into the program that runs them (see
    _STDIN_RUNNERS), by a view of the file (`cat`, `Get-Content`): a runner given no script
    of its own, or `-`, runs what it reads; or gives it, read into a variable, as the code
    to run (_fed_by_variable)."""
    if not command:
        return ()
    if "|" not in command:
        return _fed_by_variable(command)
    stages: list[tuple[list[str], str]] = []
    current: list[str] = []
    for word in _words(command):
        if _is_operator(word):
            stages.append((current, word))
            current = []
        elif not _REDIRECT.match(word):
            current.append(word)
    stages.append((current, ""))
    found: list[str] = []
    for (left, operator), (right, _) in itertools.pairwise(stages):
        viewer, files = _program(left)
        runner, args = _program(right)
        if (
            operator != "|"
            or viewer.lower() not in _FEEDERS
            or runner.lower() not in _STDIN_RUNNERS
        ):
            continue
        given = [
            a
            for n, a in enumerate(args)
            if not a.startswith("-") and not (n and args[n - 1].lower() in _POWERSHELL_VALUED)
        ]
        if not given:
            found += [f.strip(_QUOTES) for f in files if not f.startswith("-")]
    return (*found, *_fed_by_variable(command))


def _fed_by_variable(command: str) -> tuple[str, ...]:
    """The script files a PowerShell command reads into a variable (`$code = Get-Content
    x.ps1 -Raw`) and gives to what runs code (`powershell -Command $code`, `Invoke-Expression
    $code`), or a variable made from it (`$enc = [Convert]::ToBase64String(
    [Text.Encoding]::Unicode.GetBytes($code))`, then `powershell -EncodedCommand $enc`). The
    auto mode classifier refused `powershell -ExecutionPolicy Bypass -File repro.ps1`; the
    script, so encoded, ran (thirty-eighth held-out set, fixed)."""
    if "$" not in command:
        return ()
    held: dict[str, list[str]] = {}  # a variable (lower-cased) and the files it holds
    found: list[str] = []
    for words in segments(command):
        if len(words) >= 3 and words[0].startswith("$") and words[1] == "=":
            viewer, files = _program(words[2:])
            if viewer.lower() in _FEEDERS:
                held[words[0].lower()] = [f.strip(_QUOTES) for f in files if not f.startswith("-")]
            else:
                made = " ".join(words[2:]).lower()
                held[words[0].lower()] = [
                    f
                    for name, kept in held.items()
                    if re.search(re.escape(name) + r"(?!\w)", made)
                    for f in kept
                ]
            continue
        runner, args = _program(words)
        if runner.lower() in _STDIN_RUNNERS:
            found += [f for a in args for f in held.get(a.lower(), ())]
    return tuple(found)


def _same_script_run(one: str | None, other: str | None) -> bool:
    """Whether two commands run the same script file, one of them by piping it into its
    runner (_fed_scripts), the other by that or another way (`python x.py`): the script is
    what was tried, whatever ran it. `Get-Content check_v4.ps1 -Raw | powershell -Command -`
    broke the script's lines, then `... | Invoke-Expression` failed on another error in it
    (thirty-third held-out set, the first part): a retry, and the view that feeds it, a
    look, is no intent of either."""
    fed = _fed_scripts(one), _fed_scripts(other)
    if not fed[0] and not fed[1]:
        return False
    ran = [
        {*fed[n], *(f for i in intents(command) if (f := _script_run(i)) is not None)}
        for n, command in enumerate((one, other))
    ]
    return any(_same_file(a, b) for a in ran[0] for b in ran[1])


# What Python says when a script run as a file cannot import its own package's modules:
# its package's folder is not on the path, or the script imports relatively.
_OWN_IMPORT = lazy(r"ModuleNotFoundError: No module named|ImportError: attempted relative import")


def _imported_instead(failed: Call, call: Call) -> bool:
    """Whether a successful shell call runs, instead of a Python script that could not import
    its own package's modules when run as a file, that script's module: imported by inline
    code (`python -c "... from workers.ingestion import IngestionWorker ..."`) or run with
    `-m` (`python -m workers.ingestion`): the work done as a module, not as a file
    (thirtieth held-out set: `python workers/ingestion.py`, `No module named 'stores'`, then
    `attempted relative import`, then the worker run from a `python -c`). Asked only of a
    failure whose output says so (_OWN_IMPORT)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    names = set()
    for intent in intents(failed.command):
        script = _script_run(intent) if intent.program.startswith("python") else None
        if script and script.endswith(".py"):
            parts = PurePosixPath(_unix(script)).with_suffix("").parts[-2:]
            names.add(r"\.".join(re.escape(part) for part in parts if part not in ("/", ".")))
    if not names:
        return False
    module = r"(?:[\w.]*\.)?(?:" + "|".join(sorted(names)) + r")\b"
    used = re.compile(rf"\bfrom\s+{module}\s+import|\bimport\s+{module}|(?<!\S)-m\s+{module}")
    # (a `python -m x` is read as program x: the interpreter is among its first words)
    return any(
        used.search(i.code or " ".join(i.words))
        and any(_basename(word).startswith("python") for word in i.words[:3])
        for i in intents(call.command)
    )


# A script written to look into the failure, not to do its work again (`bash verify-plugin.sh`
# failing, then `debug-plugin.sh` written and run: eighteenth held-out set, abandoned).
_DIAGNOSTIC = lazy(r"(?:debug|diagnos|check|verify|inspect|test|show|list|dump|probe)", re.I)


def _ran_rewritten(failed: Call, call: Call, between: Sequence[Call]) -> bool:
    """Whether a successful shell call runs, by the interpreter of a script that failed, a
    script of the same kind written since under another name: the script rewritten whole
    (`python process_nav_data.py` crashed, `process_nav_data_v2.py` written, then run; a
    seaborn chart that crashed twice, then a matplotlib-only `..._enhanced.py`: twenty-ninth
    held-out set, five failures). The old name run again is a retry (see _retry)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    scripts = {
        (i.program, script)
        for i in intents(failed.command)
        if (script := _script_run(i)) is not None
    }
    if not scripts:
        return False
    written = _written_by(between)
    for intent in intents(call.command):
        new = _script_run(intent)
        if new is None or _basename(new) not in written or _DIAGNOSTIC.match(_basename(new)):
            continue
        if any(
            program == intent.program
            and _basename(new) != _basename(old)
            and new.rsplit(".", 1)[-1] == old.rsplit(".", 1)[-1]  # of its kind
            and _parent(_unix(new)) == _parent(_unix(old))  # in its folder
            for program, old in scripts
        ):
            return True
    return False


def _reworded(failed: Call, call: Call) -> bool:
    """Whether a successful shell call is a command the shell could not parse, written
    again: it runs a program the failed text named, on a path it named (`rg -n
    "add_parser\\(\\"a|b" opk/cli/__main__.py`, its quotes unbalanced, then `rg -n
    "add_parser\\(\\"a" opk/cli/__main__.py`; cmd's `if not exist "C:\\x\\out" mkdir
    "C:\\x\\out"` in Git Bash, then `mkdir -p "C:\\x\\out"`: eighteenth held-out set, 2
    people). Its words are read as they stand, since the shell could not tell them. A
    search of the folder it is in names no path: the same searcher on mostly the same
    words is it (`rg -n "\\b(pixi|pixi\\.toml|conda-lock)\\b|environment\\.ya?ml|vllm` with a
    quote left open, then `rg -n "pixi\\.toml|environment\\.yml|environment\\.yaml"`:
    twenty-fifth held-out set). The folder both went into is no path it named: every
    command of the session may start with that `cd`; nor is code that writes files written
    again by code that only reads them (a `python -c` script bash could not parse, that was
    to save a workbook, then one printing that workbook's rows, both after `cd
    "C:\\x\\xlsx"`: twenty-seventh held-out set, abandoned)."""
    if call.name not in SHELL_TOOLS or call.failed:
        return False
    if _writes_file(failed.command or "") and not _writes_file(call.command or ""):
        return False  # (a script that saves a workbook is not written again by a look at it)
    words = {w.strip(_QUOTES) for w in (failed.command or "").split()}
    words -= {w.strip(_QUOTES) for w in _folders(call)}
    mine = intents(call.command)
    if any(i.program in words for i in mine) and any(
        (_is_path(w) or "\\" in w) and w.strip(_QUOTES) in words
        for w in (call.command or "").split()
    ):
        return True
    said = {w.lower() for w in _PATTERN_WORD.findall(failed.command or "")}
    for segment in segments(call.command):
        search = _search_flags(segment)
        if search is None or len([a for a in _program(segment)[1] if a[:1] != "-"]) != 1:
            continue  # not a search, or one of a path
        program, asked, _ = search
        if program in words and asked and len(asked & said) * 2 >= len(asked):
            return True
    return False


def _searched_inside(failed: Call, call: Call) -> bool:
    """Whether a search is the failed one's, on its path written another way or on a file
    at most two folders into it: a Grep of `apps/api/src/modules/auth/guards` (its glob
    `index.ts`) from inside apps/api, where that path was not there, then the same pattern
    in `/…/apps/api/src/modules/auth/guards/index.ts` (seventeenth held-out set)."""
    if failed.name not in SEARCH_TOOLS or call.pattern != failed.pattern or not call.file_path:
        return False
    mine = _key(failed.file_path or "").rstrip("/").removeprefix("./")
    path = _key(call.file_path).rstrip("/")
    for _ in range(3):
        if mine and _same_path(mine, path):
            return True
        path = _parent(path)
    return False


def _searched_above(failed: Call, call: Call) -> bool:
    """Whether a search is the failed one's pattern again from a folder above its path, or
    with no path (the session's folder): a search tool fails on its path alone (`Directory
    does not exist`), and the same pattern searched higher searches what it was asked and
    more. A Glob of `**/*.styl` in app/styles/register, not there, then of `**/*.styl` in
    app/styles (nu49's held-out set: "fixed: no"). Another pattern asks another question."""
    if failed.name not in SEARCH_TOOLS or not failed.pattern or call.pattern != failed.pattern:
        return False
    if not call.file_path:
        return True
    mine = _key(failed.file_path or "").rstrip("/")
    path = _key(call.file_path).rstrip("/")
    return bool(mine) and _above(path, mine)


# Tools that put a question to the user. Rejected or cancelled, the question was answered
# in the chat ("The user wants to clarify these questions", then a talk): the next question
# is another, not its retry (4 of Claude Code in 3 held-out sets and the corpus, 2 Gemini
# CLI cancellations: not a problem by every label; the seventh set's second was 'fixed'
# by the next question, on the same subject). One the tool refused (a header too long) is
# still retried.
_QUESTIONS = frozenset({"AskUserQuestion", "ask_user"})


# Words of a request that say nothing of what it asks for.
_FILLER = frozenset("the and for from with this that into your you are not".split())


def _request_words(text: str | None) -> set[str]:
    """The words of the first line of each text of a call's input (a Task's description
    and prompt, a plan's title, a question, a Glob's pattern), lowercased."""
    try:
        value = json.loads(text or "")
    except ValueError:
        value = text or ""
    found: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            lines = item.strip().splitlines()
            found |= {w.lower() for w in _PATTERN_WORD.findall(lines[0] if lines else "")}
        elif isinstance(item, dict):
            pending += item.values()
        elif isinstance(item, list):
            pending += item
    return {w for w in found if not w[0].isdigit()} - _FILLER


def _same_request(one: str | None, other: str | None) -> bool:
    """Whether two inputs of a tool without a file or command ask for the same thing: the
    first lines of their texts share half the words of the shorter.

    A call the user rejected or stopped, then a call of that tool asking for something else,
    is the user's "no", not a failure fixed: a Task stopped with "sorry, I meant for Claude
    Code, globally", then a Task of another subject; a Glob rejected, then a Glob of another
    folder; a plan rejected for a narrower one; a Gemini question cancelled, then another
    (fifth held-out set, 2; fourth, 2; Gemini CLI labels, 1: all not a problem by their
    labels). A Task stopped and redone for Fish, not zsh ("Configure
    statusLine from shell PS1", then "... for Fish shell"), and a plan reshaped under its
    title, are still the call again, changed."""
    a, b = _request_words(one), _request_words(other)
    return bool(a and b) and len(a & b) * 2 >= min(len(a), len(b))


_SPACES = lazy(r"\s+")


def approved_plan(plan_input: str | None, prompt: str) -> bool:
    """Whether a session's prompt implements the plan of an ExitPlanMode call (its input)
    that was recorded as rejected: the user approved it. Claude Code records the choice
    "clear context and implement" as a rejection ("User rejected tool use", STOP what you
    are doing), then starts a new session whose first prompt is `Implement the following
    plan:` and the plan (fortieth held-out set: the last of four plans of a session, the
    next session building it, not a problem; the three rejected before it, each for a
    change the next plan made, fixed by it; thirty-fourth: a session opening so). The
    plan's text, its spaces aside, opens what follows the prompt's first line: a plan
    pasted into another prompt, or one that only shares its title, approves nothing."""
    if not prompt.startswith(agents.PLAN_PROMPT):
        return False
    plan = _SPACES.sub(" ", _input_text(plan_input, "plan")).strip()
    implemented = _SPACES.sub(" ", prompt[len(agents.PLAN_PROMPT) :]).strip()
    return bool(plan) and implemented.startswith(plan)


def stopped_edit(call: Call) -> bool:
    """Whether a call is an edit the user rejected or stopped: the rules read the inputs of
    its session's edits (see _same_edit)."""
    return call.kind in _STOPPED and call.name in EDIT_TOOLS


def refused_input(call: Call) -> bool:
    """Whether a call's tool refused its input (`InputValidationError: ... An unexpected
    parameter `file_path` was provided`) though it names a file, whose input the rules
    do not read: they read the inputs of its session's calls of that tool, so that its
    retry says what it changed in them (see _input_change)."""
    return call.kind == _REFUSED_INPUT and call.command is None and call.input is None


def inputs_read(calls: Sequence[Call], errors: Mapping[str, str]) -> set[str]:
    """The tools whose calls' inputs the rules read in a session of `calls`, beyond those of
    calls without a command or file (read always; an edit's input is the largest part of
    most calls' rows, and a file call's is read only here):

    - of a call whose tool refused its input though it names a file (refused_input);
    - of a failed call without a command or file whose tool's other calls name one: its
      retry may (Copilot's grep given `type: rs`, `rg: unrecognized file type: rs`, then
      only `path`, its folder: the card said "called again with other input", not what
      changed; a new user's try, session 38);
    - of an edit whose text to replace the file held more than once: its retry's says what
      made it match once (_anchor_change);
    - every edit's, when the user rejected or stopped one (see _same_edit), or rejected a
      call with words, which may name what an edit then wrote (_follows_said), or when a
      script file written may have done the work of a command that could not run
      (written_code)."""
    with_file = {c.name for c in calls if c.file_path is not None}
    tools = {
        c.name
        for c in calls
        if refused_input(c)
        or (
            c.failed
            and c.name in with_file
            and c.command is None
            and c.file_path is None
            and c.input is not None
        )
        or (c.failed and c.name in EDIT_TOOLS and _says_several(errors.get(c.tool_use_id, "")))
    }
    if any(
        stopped_edit(c) or (c.kind == "rejected" and USER_SAID in errors.get(c.tool_use_id, ""))
        for c in calls
    ) or written_code(calls, errors):
        tools |= EDIT_TOOLS
    return tools


def _same_edit(failed: Call, call: Call) -> bool:
    """Whether an edit of the file an edit the user rejected or stopped was of writes the
    same: the texts they put in share half the words of the shorter (of deletions, the texts
    they took out), and so do the words they change (_changed_words). Asked for something
    else, the rejection was the user's "no", as of a
    tool without a file (_same_request): a theme's colours rejected ("not a fan of
    catppuccin, maybe tokyo night?"), then the theme's name set; an import rejected ("I want
    it to stay a flake"), then an unused argument removed from the file on another request
    (thirty-first held-out set, 2 not a problem, both "fixed" by the later edit). So of the
    redo on the file the user named instead (a Write of docker_inventory.txt rejected, the
    next prompt a new task, then the Write of manage-stack.sh it asked for: thirty-seventh
    held-out set, not a problem). An edit whose texts are not known (an apply_patch) writes
    the same."""
    if failed.name not in EDIT_TOOLS or call.name not in EDIT_TOOLS:
        return True
    mine, theirs = _edit_texts(failed.input), _edit_texts(call.input)
    if not mine or not theirs:
        return True
    new = [
        {w.lower() for new in (t[1] for t in texts) for w in _PATTERN_WORD.findall(new)}
        for texts in (mine, theirs)
    ]
    if not new[0] and not new[1]:
        new = [
            {w.lower() for old, _ in texts for w in _PATTERN_WORD.findall(old or "")}
            for texts in (mine, theirs)
        ]
    a, b = new
    if not (a and b and len(a & b) * 2 >= min(len(a), len(b))):
        return False
    return _same_change(failed, call)


def _same_change(failed: Call, call: Call) -> bool:
    """Whether a later edit of the failed edit's file changes the words it was to change:
    they share half the words of the fewer (_changed_words; an edit that changes none, or a
    whole-file write, may be any). An edit whose text was not found is redone only so: one
    of another part of the file is another change, that its retry's Read allowed (an Edit
    of a prompt's `Step 2` that an earlier edit had already replaced, "fixed" by an edit of
    the system prompt below it: thirty-fourth held-out set, not a problem by its label);
    the row its Edit was to take out of a table, taken out alone, is its fix."""
    if failed.name not in EDIT_TOOLS or call.name not in EDIT_TOOLS:
        return True
    mine = _changed_words(_edit_texts(failed.input))
    theirs = _changed_words(_edit_texts(call.input))
    if not mine or theirs is None:
        return True
    return len(mine & theirs) * 2 >= max(1, min(len(mine), len(theirs)))


def _changed_words(texts: Sequence[tuple[str | None, str]]) -> set[str] | None:
    """The words an edit's replacements take out or put in (lowercased; None for a
    whole-file write): what it changes, not the text it keeps around that. A rewrite of a
    function the user rejected (to ask for more) keeps much of the file's text, so that the
    edit made next of another part of it (`query_graphql` put out of a prompt) shared half
    its words, and was shown as its redo, not the two edits that took `_config.read_only`
    out as it had (thirty-fourth held-out set, the label's remedy). An edit that changes
    only punctuation or spaces changes no word."""
    found: set[str] = set()
    for old, new in texts:
        if old is None:
            return None
        before, after = ({w.lower() for w in _PATTERN_WORD.findall(text)} for text in (old, new))
        found |= before ^ after
    return found


def _status_of_another(call: Call) -> bool:
    """Whether a successful call's status may be another program's than the one that met the
    error: a shell command piped (`npm test | tail` exits 0 when the tests fail) or followed
    by another (`; echo done`), or a call of another tool. A command whose status is its
    own succeeded, whatever it printed: a `quarto render` whose every run printed
    `[WARNING] Citeproc: citation X not found` (the failure's key line) before the error
    that failed it (fifth held-out set)."""
    return (
        call.name not in SHELL_TOOLS
        or not call.command
        or any(_is_operator(w) and w in {"|", "||", ";"} for w in _words(call.command))
    )


# A checker's own count of what failed, more than none: `Found 3 errors in 2 files` (tsc,
# mypy), `Typescript found 74 errors` (vue-tsc), pytest's `== 6 failed, 40 passed ==` (with
# -q: `6 failed, 40 passed in 2.10s`), jest's `Tests: 2 failed`, eslint's `✖ 5 problems (2
# errors, 3 warnings)`, go's `FAIL`, cargo's `could not compile`, make's `*** [x] Error 2`.
# Not the error lines alone, where `| head` cut the count off (`error TS2305`): that lost a
# right claim in the twelfth held-out set.
_CHECK_FAILED = lazy(
    r"\bfound [1-9]\d* errors?\b|^=+ .*\b[1-9]\d* (?:failed|errors?)\b.*=+$"
    r"|^[1-9]\d* failed\b.* in [\d.]+s\b"
    r"|^(?:tests?|test files|test suites):\s+[1-9]\d* failed\b|\([1-9]\d* errors?, \d+ warnings?\)"
    r"|^FAIL\b|^error: could not compile\b|^make(?:\[\d+\])?: \*\*\* .* Error [1-9]"
    # cargo test's summary and last line (`test result: FAILED. 227 passed; 4 failed; ...`,
    # `error: test failed, to rerun pass --bin x`; thirty-fourth held-out set)
    r"|^test result: FAILED\b|^error: (?:test failed|[1-9]\d* targets? failed)\b"
    # the check itself could not start (`npx tsc --noEmit 2>&1 | head -60`: `Error: Cannot
    # find module '.../typescript/bin/tsc'`, "succeeded" on a card: a new user's try)
    r"|^Error: Cannot find module\b",
    re.I | re.M,
)


def _check_failed(call: Call, text: str) -> bool:
    """Whether a check whose exit status was another program's (`npm run typecheck 2>&1 |
    tail -50`) said it failed: it confirms nothing. A new user's cards claimed fixes,
    confirmed by a type check that ended `Typescript found 74 errors in 27 files` and a
    pytest run with 6 failing, where the agent gave up (twelfth and thirteenth held-out
    sets)."""
    if call.name not in SHELL_TOOLS or not _CHECK_FAILED.search(text):
        return False
    return any(
        intent.program in CHECK
        or intent.sub in CHECK_SUBCOMMANDS.get(intent.program, ())
        or (intent.program in PACKAGE_MANAGERS and intent.sub and not _changes_packages(intent))
        for intent in intents(call.command)
    )


# A program's own words for a crash, at the start of a line: Python's traceback, Node's
# internal frames, a Rust panic, Go's, the JVM's uncaught exception, Ruby's (`x.rb:697:in
# 'Bundler::Definition#materialize': Could not find ... (Bundler::GemNotFound)`, then its
# frames, `\tfrom x.rb:237:in ...`).
_CRASHED = lazy(
    r"^Traceback \(most recent call last\):|^node:internal/|^thread '[^']*' panicked at "
    r"|^panic: |^goroutine \d+ \[running\]:|^Exception in thread \""
    r"|^\S+:\d+:in [`'].* \([A-Z]\w*(?:::[A-Z]\w*)*\)\n\tfrom \S+:\d+:in [`']",
    re.M,
)


def _crashed(call: Call, text: str) -> bool:
    """Whether a run whose exit status was another program's (`python3 app.py 2>&1 | head
    -20`, exit 0 from head) printed that it crashed: it confirms nothing (a new user's
    card said such a run "succeeded"). Not a look, whose crash was in what it showed (`tail
    app.log`)."""
    return (
        call.name in SHELL_TOOLS
        and _CRASHED.search(text) is not None
        and not all(_looks(i) for i in intents(call.command))
    )


# What `head` is told to keep: `-5`, `-n 5`, `-n5`, `--lines=5` (ten when not told).
_HEAD_LINES = lazy(r"^-(\d+)$|^-n(\d+)$|^--lines=(\d+)$")
# The subcommands of CHECK_SUBCOMMANDS that run a program, whose output is its own, not a
# verdict printed last (`cargo run`, `npm run dev`).
_RUNS_PROGRAM = frozenset({"run", "run-script"})
# sed's scripts that print the first lines: `sed -n '1,80p'`, `sed -n 40p`, `sed 80q`; and
# the one that prints the lines a pattern matches, `sed -n '/error/p'`.
_SED_LINES = lazy(r"^(?:(\d+),)?(\d+)p$")
_SED_QUIT = lazy(r"^(\d+)q$")
_SED_MATCHES = lazy(r"^/.+/p$")
# grep's and rg's flags that keep the lines a pattern does not match.
_INVERTED = lazy(r"^-[A-Za-z]*v[A-Za-z]*$|^--invert-match$")
# A check's verdict that it passed, among the lines a search kept: `Tests  65 passed (65)`
# (vitest), `== 3 passed in 0.2s ==` (pytest), mocha's `5 passing`, `test result: ok.`
# (cargo), `Found 0 errors` (tsc), go's `ok  pkg 0.1s` and `PASS`. (A count of failures
# beside it is _check_failed's.)
_PASSED = lazy(
    r"\b[1-9]\d* (?:passed|passing)\b|^test result: ok\b|\bfound 0 errors\b|^ok\s|^PASS\b",
    re.I | re.M,
)


def _head_kept(args: Sequence[str]) -> int | None:
    """How many lines `head` with these arguments keeps; None for bytes (`-c 100`)."""
    kept = 10
    for n, arg in enumerate(args):
        if arg in {"-c", "--bytes"} or arg.startswith(("-c", "--bytes=")):
            return None
        if arg in {"-n", "--lines"} and n + 1 < len(args) and args[n + 1].isdigit():
            kept = int(args[n + 1])
        elif match := _HEAD_LINES.match(arg):
            kept = int(next(g for g in match.groups() if g))
    return kept


def _first_kept(program: str, args: Sequence[str]) -> int | None:
    """How many of its input's first lines a filter prints, and nothing after them: head's
    (_head_kept), `sed -n '1,80p'`'s, `sed 80q`'s. None for any other (`tail`, `sed
    's/a/b/'`, `sed -n '$p'`), which may print the end."""
    if program == "head":
        return _head_kept(args)
    if program != "sed":
        return None
    scripts = [arg for arg in args if not arg.startswith("-")]
    if not scripts:
        return None
    if "-n" in args and (lines := _SED_LINES.match(scripts[0])):
        return int(lines.group(2)) - int(lines.group(1) or 1) + 1
    if quit_at := _SED_QUIT.match(scripts[0]):
        return int(quit_at.group(1))
    return None


def _keeps_matches(program: str, args: Sequence[str]) -> bool:
    """Whether a filter prints only the lines a pattern matches: grep, rg (not `-v`), `sed -n
    '/x/p'`."""
    if program in _MATCHERS:
        return not any(_INVERTED.match(arg) for arg in args)
    scripts = [arg for arg in args if not arg.startswith("-")]
    return (
        program == "sed" and "-n" in args and bool(scripts) and bool(_SED_MATCHES.match(scripts[0]))
    )


def _verdict_last(words: Sequence[str]) -> bool:
    """Whether a simple command is a check that prints its verdict last: a test runner's
    summary (`test result: ok. 231 passed`), a checker's count of errors, a build's end."""
    program, args = _program(words)
    sub = next((a for a in args if not a.startswith("-")), None)
    return program in CHECK or (
        sub in CHECK_SUBCOMMANDS.get(program, ()) and sub not in _RUNS_PROGRAM
    )


def _cut_short(call: Call, text: str) -> bool:
    """Whether a check piped into a filter that keeps only part of its output lost its
    verdict, the one test runners and checkers print last, and had the filter's status: it
    confirms nothing, and it is no step.

    - `head` (or `sed -n '1,80p'`, `sed 80q`) that printed as many lines as it keeps: `cargo
      test -- --nocapture 2>&1 | head -5` printed `running 231 tests` and one passing test
      while six still failed; a card showed it as the fix, where the parser and the tests
      were edited after it (thirty-fourth held-out set). A check whose whole output head
      kept was seen to its end.
    - a search (`| rg -n "xlsx"`, `| grep`, `sed -n '/x/p'`) that printed the lines it was
      asked for: a look into the run, its verdict kept only when it matched, and its status
      the search's, 0 when any line did. `tsc --traceResolution --noEmit 2>&1 | rg -n
      "xlsx|tabularFile"` after `Cannot find module 'xlsx'`, exit 0 from rg, was shown as
      the fix with its change `+--traceResolution`, where the agent only looked and the
      plain `tsc --noEmit` passed later (thirty-third held-out set, fixed with no step by its
      label; a new user's try, session 38). Not when the lines kept say it passed (`npm test
      | grep -E "Tests|passed"`: `Tests  65 passed (65)`), nor `grep -v`, which keeps all
      but what it names.

    `| tail` keeps the end, where the verdict is."""
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    words = _words(call.command)
    stages: list[list[str]] = [[]]
    for word in [*words, _Operator(";")]:
        if not _is_operator(word):
            if not _REDIRECT.match(word):
                stages[-1].append(word)
            continue
        program, args = _program(stages[-1])
        kept = _first_kept(program, args)
        if any(_verdict_last(stage) for stage in stages[:-1]) and (
            (kept is not None and len(text.splitlines()) >= kept)
            or (_keeps_matches(program, args) and not _PASSED.search(text))
        ):
            return True
        stages = [*stages, []] if word == "|" else [[]]
    return False


def _failed_behind(call: Call, text: str) -> bool:
    """Whether a call whose exit status was another program's (a pipe, `; echo`) printed
    `text` that says it failed: a check that counted failures (_check_failed), a run that
    crashed (_crashed), a check whose verdict a filter cut off (_cut_short) or a program that
    said it failed in its own voice (_said_own_error).
    It confirms nothing, and it is no step of a remedy: it did not do
    what it was to do (`bundle exec rails runner ... 2>&1 | head -5`, exit 0 from head,
    bundler unable to load rails: a new user's card showed it as a fix of the YAML check
    before it, thirty-first held-out set)."""
    return _status_of_another(call) and (
        _check_failed(call, text)
        or _crashed(call, text)
        or _cut_short(call, text)
        or _said_own_error(call, text)
    )


# A program speaking for itself at a line's start: `sudo: a password is required`, `npm
# ERR! 404 Not Found`, npm 10's `npm error code E404`; not its warnings (`npm WARN`, `x:
# warning: ...`).
_OWN_VOICE = lazy(r"([\w.+-]+)(?::| ERR!| error\b)(?!\s*warning\b)", re.IGNORECASE)
# Wrappers whose errors another program says: npx runs `npm exec`.
_SPEAKS_FOR = {"npx": "npm", "pnpx": "pnpm", "bunx": "bun"}


def _said_own_error(call: Call, text: str) -> bool:
    """Whether the key line of what a shell call printed is an error said by a program it
    ran, wrappers included, in its own voice (`sudo: ...`, `npm ERR! ...`): that program
    failed, whatever status the pipe or fallback after it gave the call. `sudo -n apt-get
    update 2>&1 | head -5`, exit 0 from head, printed only `sudo: a password is required`,
    and `npx --yes better-sqlite3-cli ... || npx --yes y --help | head -5` only npm's `E404`:
    both were shown as fixes, of a `sudo apt-get install` refused the same way and of a
    missing sqlite3 (thirty-fourth held-out set, abandoned and worked around another way by
    their labels). Not a look, which may show another program's errors (`tail app.log`)."""
    if call.name not in SHELL_TOOLS or all(_looks(i) for i in intents(call.command)):
        return False
    said = _OWN_VOICE.match(signatures.key_line(text))
    if said is None:
        return False
    speakers = set()
    for words in segments(call.command):
        program, _ = _program(words)
        speakers.add(program)
        for word in words:
            name = _program_name(word)
            if name == program:
                break
            if name in WRAPPERS:
                speakers.add(name)
    speakers |= {_SPEAKS_FOR[name] for name in speakers if name in _SPEAKS_FOR}
    return said.group(1).lower() in speakers


# What Claude Code says of a command it sent to the background (`run_in_background`).
_BACKGROUND = lazy(
    r"Command running in background with ID: (\w+)\.? Output is being written to: (\S+)"
)


def _failed_in_background(call: Call, later: Sequence[Call], output: Callable[[str], str]) -> bool:
    """Whether a command sent to the background (all it printed is its job id and output
    file) was seen to fail by a later call that read that output (its file, or the job by
    its id): it crashed there, its check failed, or it said it failed (_failed_behind's
    readings). It started, and did not do what it was for: `python train.py ...` in the
    background, then `cat .../tasks/x.output` showing `ModuleNotFoundError: No module named
    'torch'`, was shown as the fix of the run the user had stopped (thirty-fourth held-out
    set, fixed later in tmux after an install, by its label)."""
    if call.name not in SHELL_TOOLS:
        return False
    started = _BACKGROUND.match(output(call.tool_use_id).strip())
    if started is None:
        return False
    job, path = started.groups()
    for other in later:
        asked = f"{other.command or ''}\n{other.file_path or ''}\n{other.input or ''}"
        if path in asked or re.search(rf"\b{re.escape(job)}\b", asked):
            seen = output(other.tool_use_id)
            if _check_failed(call, seen) or _crashed(call, seen) or _said_own_error(call, seen):
                return True
    return False


def _raised_again(call: Call, key_line: str, text: str) -> bool:
    """Whether a run whose exit status was another program's raised the failure's own
    exception again, its name at a line's start, which `| tail -5` keeps of a traceback:
    `ModuleNotFoundError:` again, in the words of a message the agent had just reworded (a
    new user's card showed that run and the rewording as the fix: session 35, set 30)."""
    raised = _RAISED.match(key_line)
    return (
        raised is not None
        and call.name in SHELL_TOOLS
        and not all(_looks(i) for i in intents(call.command))
        and re.search(f"^{re.escape(raised.group(1))}: ", text, re.M) is not None
    )


# A Python exception's name at the start of its line (`ModuleNotFoundError: No module...`).
_RAISED = lazy(r"((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): ")


# All that a `cmd /c "x --version"` from Git Bash prints: its `/c` made a path (`C:/`), cmd
# started interactive, printed its banner and prompt, and ran nothing (a `kuzu.exe` run so
# "succeeded" on two cards, where PowerShell had run it: twenty-fourth held-out set), in
# the system's language (`[version 10.0.26100]`, `Tous droits réservés.`: twenty-seventh).
_CMD_BANNER_ONLY = lazy(
    r"\s*Microsoft Windows \[(?i:version) [\d.]+\]\s*\(c\) Microsoft Corporation\."
    r"[^\n]*\s*(?:[A-Za-z]:\\[^\n>]*>\s*)*\Z"
)


# A question a command asked and got no answer to, as its output's last line: the prompts
# and enquirer libraries' `? Would you like to use React Compiler? › No / Yes` (answered, it
# becomes `✔ ... … No`), inquirer's `? Continue? (Y/n)`, a `[y/N]` or `(yes/no)` to type.
_UNANSWERED = lazy(
    r"^\?\s+\S.*(?:›|\((?:y/n|use arrow keys)\))"
    r"|(?:\[|\()(?:y/n|yes/no)(?:\]|\))\s*[:?]?\s*\Z",
    re.IGNORECASE,
)


# What git says when a pull or merge found nothing to bring in (`Already up to date.`, older
# gits' `Already up-to-date.`) or a rebase nothing to replay (`Current branch main is up to
# date.`).
_UP_TO_DATE = lazy(
    r"^Already up[ -]to[ -]date\.?\s*$|^Current branch \S+ is up to date\.?\s*$", re.M
)
# git's subcommands that bring in others' work, which a repository up to date leaves as it is.
_BRINGS_IN = frozenset({"pull", "merge", "rebase"})


def _did_nothing(call: Call, text: str) -> bool:
    """Whether a shell command that acts said it did nothing: it ran nothing it was given
    (_ran_nothing: cmd's banner alone, a question no one answered), or every command of it
    was a git pull, merge or rebase that found the repository up to date (_UP_TO_DATE). It
    changed nothing, and is no step of a remedy (`git pull origin main | tail -5`, `Already
    up to date.`, a step of a missing compose service's fix: thirty-seventh held-out set). A
    pull up to date still confirms a pull's fix: it ran."""
    if call.name not in SHELL_TOOLS:
        return False
    if _ran_nothing(call, text):
        return True
    acting = [i for i in intents(call.command) if not _only_looks(i, call.command or "")]
    return (
        bool(acting)
        and all(i.program == "git" and i.sub in _BRINGS_IN for i in acting)
        and len(_UP_TO_DATE.findall(text)) >= len(acting)
    )


def _unanswered(call: Call, text: str) -> bool:
    """Whether a shell command that "succeeded" stopped at a question no one answered, its
    output's last line: with no terminal to answer it, it ended there and did nothing it
    was asked to (`npx create-next-app@latest .` printing `? Would you like to use React
    Compiler? › No / Yes`, four runs so, none writing the app: one confirmed the folder's
    README.md conflict fixed; thirty-third held-out set). See _ran_nothing."""
    if call.name not in SHELL_TOOLS:
        return False
    last = next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")
    return bool(last) and _UNANSWERED.search(last) is not None


def _ran_nothing(call: Call, text: str) -> bool:
    """Whether a shell command that "succeeded" says by its output that it ran nothing it
    was given: cmd's banner and prompt alone (_CMD_BANNER_ONLY), a question no one answered
    (_unanswered). It confirms no fix, and is no step of one: `cmd /c "kuzu.exe :memory: <
    test.cypher"` after PowerShell refused the `<`, cmd's banner its whole output, was
    shown as the step of the next run, which piped the statements into kuzu.exe
    (thirty-seventh held-out set)."""
    if call.name not in SHELL_TOOLS:
        return False
    return _CMD_BANNER_ONLY.match(text) is not None or _unanswered(call, text)


# Claude Code's answer to a Read whose offset is past the file's last line: it shows no line.
_PAST_END = lazy(
    r"\A\s*(?:<system-reminder>)?\s*Warning: the file exists but is shorter than the provided"
    r" offset \((\d+)\)\. The file has (\d+) lines\.\s*(?:</system-reminder>)?\s*\Z"
)


def _read_past_end(call: Call, text: str) -> bool:
    """Whether a Read "succeeded" only with the warning that the file is shorter than the
    offset it asked for: it read nothing, so it confirms no fix of the file's Read (a log
    too large to read whole, then a Read at offset 6000 of its 2,215 lines, then one at 2000
    that read the tail: the card showed the first; thirty-fifth held-out set). A file of
    one empty line at offset 1 gives the warning too: that Read showed the file as it is."""
    if call.name not in READ_TOOLS or "shorter than the provided offset" not in text:
        return False
    found = _PAST_END.match(text)
    return found is not None and int(found[1]) > int(found[2])


def _moved(key_line: str, later: str, calls: Sequence[Call]) -> bool:
    """Whether a later failure's key line is this one's with one file put for another that
    one of `calls` (those after the failure, the later one's included) moved or copied
    there: the same obstacle, moved, no other error that the first one's fix got past
    (`The directory portfolio contains files that could conflict: README.md`, then `mv
    README.md README.md.bak && npx create-next-app .`, the same about README.md.bak: the
    card showed that retry as the fix; thirty-third held-out set). Another file's same error
    without such a move may be the first one fixed (see _got_further)."""
    mine, theirs = key_line.split(), later.split()
    if len(mine) != len(theirs):
        return False
    changed = [(a, b) for a, b in zip(mine, theirs, strict=True) if a != b]
    if len(changed) != 1:
        return False
    old, new = (_basename(word.strip(_AROUND_WORD)) for word in changed[0])
    for call in calls:
        if call.name not in SHELL_TOOLS:
            continue
        for intent in intents(call.command):
            if intent.program in {"mv", "cp"}:
                named = [w for w in intent.words[1:] if not w.startswith("-")]
            elif (intent.program, intent.sub) == ("git", "mv"):
                named = [w for w in intent.words[2:] if not w.startswith("-")]
            else:
                continue
            if (
                len(named) >= 2
                and _basename(named[-1]) == new
                and old in {_basename(w) for w in named[:-1]}
            ):
                return True
    return False


def _runs_on_workdir(failed: Call, call: Call) -> bool:
    """Whether a shell call runs the failed one's program on the file it was given for its
    folder: Codex's `cat` with `workdir` set to `specs/x/tasks.md` (`Io(Os { code: 20, kind:
    NotADirectory })`), then `cat .../specs/x/tasks.md` from the repository (nineteenth
    held-out set: 5 such calls, each redone so)."""
    if call.name not in SHELL_TOOLS or not failed.workdir or not call.command:
        return False
    programs = {i.program for i in intents(failed.command)}
    tail = "/".join(PurePosixPath(_unix(failed.workdir)).parts[-2:])
    return (
        bool(programs)
        and programs <= {i.program for i in intents(call.command)}
        and tail in _unix(call.command)
    )


def _is_folder_of(failed: Call, call: Call) -> bool:
    """Whether the failed call's folder is one of the later call's: then it was a folder."""
    return any(_same_file(failed.workdir, folder) for folder in _folders(call))


def _masks(failed: Call, call: Call, printed: str | None = None, error: str = "") -> bool:
    """Whether a call hides failures that the failed call let through.

    With its output `printed`: not when each of its fallbacks says something (`|| echo "File
    not accessible"`) that is not in that output, so none ran: the commands before them
    succeeded (a Read cancelled with its sibling, then `cat x 2>/dev/null || echo "File not
    accessible"`, which printed the file: nineteenth held-out set). Nor, given the failure's
    `error`, when the call kept its errors in that output (`2>&1`) and it printed other
    things but no line of that error: it did not come again (`ssh -T git@github.com 2>&1 ||
    true`, which exits 1 when it works, printing `Hi ...! You've successfully
    authenticated` after the host key was added: nineteenth held-out set)."""
    command = call.command or ""
    first = MASKS.search(command)
    if first is None or MASKS.search(failed.command or ""):
        return False
    if printed is None:
        return True
    if printed.strip() and _ERRORS_KEPT.search(command, 0, first.start()):
        lines = [line.strip() for line in error.splitlines()[:_ERROR_LINES]]
        said = [line for line in lines if len(line) >= 12]
        if said and not any(line in printed for line in said):
            return False
    return any(_may_have_run(command, m, printed) for m in MASKS.finditer(command))


# What a message is said with, before what it says: `Error: `, `Zip2 error: `, `fatal: `.
_SAID_AS = lazy(r"^[\w .-]{0,24}?(?:error|fatal|exception)(?:\[[\w-]+\])?:\s*", re.I)
# How long a message must be to be taken for the same error when said again.
_SAID_AGAIN_MIN = 32


def _said_again(key_line: str, printed: str) -> bool:
    """Whether a command that succeeded printed the failure's message again, whatever it
    said it with: the script caught the error and exited 0 (a PowerShell `try { ... }
    catch { "Zip2 error: $_" }` printing `Exception calling "OpenRead" ...: "End of Central
    Directory record could not be found."` as the failed call had: shown as its fix,
    twenty-sixth held-out set, abandoned). Only a long message counts: a short one (`Not
    found`) may be anything's."""
    if not signatures.names_error(key_line):
        return False  # a line that names no error (a table's row, a banner) may come again
    said = _SAID_AS.sub("", key_line, count=1).strip()
    return len(said) >= _SAID_AGAIN_MIN and said in printed


# Flags by which a command demands what it would otherwise let pass: a file or setting that
# must be there (`--require-tasks`), warnings that must not be (`--strict`, `-Werror`,
# `--max-warnings=0`, `--fail-on-warning`), a difference that must fail it (`--exit-code`).
# Not `--check` or `--dry-run`: a formatter's `--check` taken out makes it do its work (`black
# --check x`, then `black x`), a fix.
_DEMANDS = lazy(
    r"--?(?:require|strict|werror|warnings-as-errors|pedantic-errors|fail-on|fail-under"
    r"|max-warnings|error-on|exit-code)\b[\w.=-]*|-W(?:error|all-errors)\b[\w.=-]*",
    re.IGNORECASE,
)


def _asks_less(failed: Call, call: Call) -> bool:
    """Whether a successful shell call is the failed command with flags taken out and nothing
    put in, one of them a demand (_DEMANDS): it got past the error by not asking. A spec kit's
    `check-prerequisites.sh --json --require-tasks --include-tasks` refused (`ERROR: tasks.md
    not found ... Run /speckit.tasks first`), then `check-prerequisites.sh --json` run by the
    next command, which lists what is there: shown as the fix, `changed: without
    --require-tasks`, of a failure its session abandoned (thirty-ninth held-out set, a new
    user's try, nu41 finding 3; the only such retry over sets 30-39 and the real corpus). It
    papers over the error as `|| true` does (_masks): a later call that does the work, or the
    same demand met, is the fix. A flag added that skips a check (`git commit --no-verify`
    past a pre-commit hook whose helper was not installed: labelled fixed, set 39) is no
    demand taken out: the check could not run, and the commit was the work."""
    if failed.name not in SHELL_TOOLS or call.name not in SHELL_TOOLS or call.failed:
        return False
    pair = _shared_intent(failed.command, call.command)
    if pair is None:
        return False
    mine, theirs = pair
    taken = [w for w in mine.words if w not in theirs.words]
    put = [w for w in theirs.words if w not in mine.words]
    return (
        not put
        and all(w.startswith("-") for w in taken)
        and any(_DEMANDS.fullmatch(w) for w in taken)
    )


# What stops a script at its first failing command (`set -e`, `set -euo pipefail`).
_STOPS_ON_ERROR = lazy(r"^\s*set\s+-[a-z]*e[a-z]*\b|^\s*set\s+-o\s+errexit\b", re.MULTILINE)
# A command's failure let through (`cmd || true`, `|| :`, `|| exit 0`).
_LET_THROUGH = lazy(r"\|\|\s*(?:true|:|exit\s+0)\b")
# A test marked to be skipped or to fail (pytest, unittest, Jest/Mocha/Vitest, Go, Rust, JUnit).
_SKIPPED = lazy(
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\(|@unittest\.skip"
    r"|\b(?:it|test|describe)\.(?:skip|todo)\(|\bx(?:it|test|describe)\(|\bt\.Skip(?:Now|f)?\("
    r"|#\[ignore\]|@(?:Disabled|Ignore)\b"
)
# An assertion: what a test checks (`assert x`, `self.assertEqual`, `expect(x)`, `assert_eq!`).
_ASSERTION = lazy(r"\bassert\w*\b|\bexpect\(")
# A test file by its name (`test_x.py`, `x_test.go`, `x.spec.ts`, `tests/x.rs`).
_TEST_FILE = lazy(
    r"(?:^|[/\\])(?:tests?|spec|__tests__)[/\\]|(?:^|[/\\_.-])(?:test|spec)s?[_.-]|_test\.\w+$"
)


def _patch_texts(input_json: str | None) -> list[tuple[str | None, str]]:
    """The (old, new) texts of an edit's input (_edit_texts), and of a Codex patch (its
    `-` lines, its `+` lines)."""
    found = _edit_texts(input_json)
    patch = _input_text(input_json, "input")
    if patch.lstrip().startswith("*** Begin Patch"):
        lines = patch.splitlines()
        found.append(
            (
                "\n".join(line[1:] for line in lines if line.startswith("-")),
                "\n".join(line[1:] for line in lines if line.startswith("+")),
            )
        )
    return found


def _weakens(failed: Call, step: Call) -> bool:
    """Whether an edit only stops a check that the failed command ran from failing: it took
    `set -e` out of the script the command ran, or let a command of it through (`|| true`
    put in), or, in a test file or one the command ran, marked a test skipped or expected
    to fail, or took assertions out and put none in. The retry then passes because it asks
    less, as one with a demanding flag taken out does (_asks_less): it papers over the
    error (tests/data/README.md: abandoned, "papered over"). Over sets 30 to 40 and the real
    corpus no fix had such a step (7 edits that did so fixed nothing that failed); a new
    user's try (nu41's `--require-tasks`) asked for the family."""
    if step.name not in EDIT_TOOLS or not step.file_path:
        return False
    name = _basename(step.file_path)
    run = bool(name) and name in (failed.command or "")
    tests = run or bool(_TEST_FILE.search(step.file_path))
    for before, new in _patch_texts(step.input):
        if before is None:
            continue  # (a whole file written: what it held before is not known)
        if run and _STOPS_ON_ERROR.search(before) and not _STOPS_ON_ERROR.search(new):
            return True
        if run and _LET_THROUGH.search(new) and not _LET_THROUGH.search(before):
            return True
        if tests and _SKIPPED.search(new) and not _SKIPPED.search(before):
            return True
        if (
            tests
            and len(_ASSERTION.findall(new)) < len(_ASSERTION.findall(before))
            and not any(
                _ASSERTION.search(line) and line.strip() not in before for line in new.splitlines()
            )
        ):
            return True
    return False


def _shell_only_looked(failed: Call) -> bool:
    """Whether a failed shell call only looked (`sed -n`, `cat`, `ls`, `git status`: not
    _acts): then a later call that masks its failure (`ls dir && sed -n 1,200p x || true`)
    or asks less hides no error, and papers over nothing. It is another look, which found
    nothing either, and the failure's answer stands (`answered`: a path not there, _gone).
    A Codex user's `sed -n '1,200p' lib/api/index.ts && sed ... fetch.ts`, exploring a
    codebase, then the same look behind `ls` with `|| true` after each sed, then the code
    found in hooks/api/base.ts: the card said `papered over`, "a later call only hid the
    error", blaming the agent for a look (thirty-ninth held-out set, labelled fixed, unsure;
    a new user's try, nu46 finding 4)."""
    return failed.name in SHELL_TOOLS and not _acts(failed)


# A line's words that what it names is not there (`ERROR: tasks.md not found in specs/x`).
_SAYS_NOT_THERE = lazy(
    r"\bnot found\b|\bmissing\b|does(?:n['’]t| not) exist|No such file or directory"
    r"|\b(?:cannot|can't|could not|couldn't) find\b|\bENOENT\b",
    re.IGNORECASE,
)


def _made_missing(after: Sequence[Call], error: str) -> int | None:
    """Where among `after` a call that did not fail first wrote a file (or folder) that a line
    of the error says is not there, by its name (_written_by): an edit tool's file, a
    shell's `> x`, `cp a x`. A check that demanded it (`check-prerequisites.sh --json
    --require-tasks`: `ERROR: tasks.md not found in specs/001-x. Run /speckit.tasks
    first`), run by the next command without the demand (_asks_less), which then wrote
    tasks.md: the demand was met, so the writing is its fix, as an install is of a program
    not found that was never run again; the card said `papered over` and showed
    `edited: tasks.md` (thirty-ninth held-out set; a new user's try, nu46 finding 4; the
    label, unsure, says abandoned: the implement check was never run again). Only a name
    that looks like a file's (a `.` or a `/` in it): `No such file` names no `file`."""
    names: set[str] = set()
    for line in error.splitlines()[:_ERROR_LINES]:
        if _SAYS_NOT_THERE.search(line):
            for word in line.split():
                word = word.strip(_AROUND_WORD).rstrip(".")
                if "/" in word or "." in word.strip("."):
                    names.add(_basename(word.rstrip("/")))
    names.discard("")
    if not names:
        return None
    return next(
        (
            n
            for n, call in enumerate(after)
            if not call.failed and not call.running and names & _written_by([call])
        ),
        None,
    )


# How many of an error's first lines a masked call's output is looked in for.
_ERROR_LINES = 30
# A shell's errors sent where its output goes: `2>&1`, `&>`, `|&`.
_ERRORS_KEPT = lazy(r"2>&1|&>|\|&")


def _may_have_run(command: str, fallback: re.Match[str], printed: str) -> bool:
    """Whether a masking fallback may have run: one that says nothing, or says what the
    output holds, or what it says cannot be told (`$x`, a printf format)."""
    if not fallback.group(0).endswith(("echo", "printf")):
        return True
    said = _ECHOED.match(command, fallback.end())
    text = said.group(1).replace('"', "").replace("'", "").strip() if said else ""
    return len(text) < 4 or "$" in text or "%" in text or "\\" in text or text in printed


# The words an echo or printf says (`|| echo "File not accessible"`).
_ECHOED = lazy(r"(?:\s+-[neE]+)*((?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|)'\"]+))+)")


def _target(call: Call) -> str:
    """What a step worked on, as its card shows it: its command, file, pattern, page, or
    the query of a web search."""
    found = call.command or call.file_path or call.pattern or call.url
    if not found and call.name in WEB_SEARCH_TOOLS:
        found = _input_text(call.input, "query")
    return (found or "")[:300]


@functools.lru_cache(maxsize=64)
def _error_words(error: str) -> frozenset[str]:
    """The words of a failure's output (_WORD), as _named compares them with a step's
    programs. Cached: _named asks them for each step of the failure's remedy, and an output
    may be a test log of thousands of lines."""
    return frozenset(_WORD.findall(error))


def _named(step: Call, error: str, failed: Call) -> bool:
    """Whether the error (or the failed call) names what a step works on."""
    text = f"{error}\n{failed.command or ''}"
    if step.file_path and _basename(step.file_path) and _basename(step.file_path) in text:
        return True
    if step.command:
        programs = {i.program for i in intents(step.command) if len(i.program) >= 2}
        if programs & _error_words(error):
            return True
        # `Run 'mix format'`: the step's words together in the error
        flat = " ".join(" ".join(w) for w in segments(step.command))
        if len(flat) >= 4 and flat in error:
            return True
    return False


# -- the rule ------------------------------------------------------------------


def _edit_texts(input_json: str | None) -> list[tuple[str | None, str]]:
    """The (old, new) texts of an edit's input, each edit of a MultiEdit's `edits` too, and
    (None, content) for a whole-file write: the canonical keys every reader adds
    (pastfix.records)."""
    try:
        value = json.loads(input_json) if input_json else None
    except ValueError:
        return []
    if not isinstance(value, dict):
        return []
    found: list[tuple[str | None, str]] = []
    for edit in [value, *(e for e in value.get("edits") or [] if isinstance(e, dict))]:
        if isinstance(edit.get("old_string"), str) and isinstance(edit.get("new_string"), str):
            found.append((edit["old_string"], edit["new_string"]))
    if isinstance(value.get("content"), str):
        found.append((None, value["content"]))
    return found


def already_made(edit_input: str | None, earlier: Sequence[str | None]) -> bool:
    """Whether an edit whose text was not found had nothing left to do: every text it was
    to write is in what an earlier edit of that file wrote (its inputs, `earlier`), and is
    not in the text it was to replace, which would hold it anyway (a deletion).

    The same edit made twice, a replace_all before an edit of one of its places, or
    Gemini CLI's replace run again after it applied: not a problem by every label (5 of
    the held-out sets' and the Gemini sample's), where the card showed the next edit as
    its fix.
    """
    mine = [(old, new.strip()) for old, new in _edit_texts(edit_input) if old is not None]
    if not mine:
        return False
    written = [new for text in earlier for _, new in _edit_texts(text)]
    return all(new and new not in old and any(new in text for text in written) for old, new in mine)


def fix_of(
    failed: Call,
    after: Sequence[Call],
    error: str,
    output: Callable[[str], str],
    key_line: str = "",
    still_failing: Callable[[str], bool | None] | None = None,
    guided: bool = False,
    key_of: Callable[[str], str] | None = None,
    shows_error: Callable[[str], bool] | None = None,
    before: Sequence[Call] = (),
) -> Fix:
    """What followed `failed` among `after`, the calls of its window (same agent, in order).

    `guided`: the user typed a prompt before the agent's next call (after a rejected call,
    what to do instead).

    `error` is the failure's text and `key_line` its key line; `still_failing(tool_use_id)`
    says of a later failed retry whether it still shows this error, and `key_of(tool_use_id)`
    gives its key line; `shows_error(text)` whether a call's output shows this error
    (else: its key line is in it).
    `output(tool_use_id)` gives a later call's output, read only for the few calls that
    might confirm a fix. `before`: the calls of its thread before it (the pages it fetched:
    _saved_copy).

    When retries failed again before one succeeded, the remedy is what came between the
    last failure with this error and the first retry without it: a test suite that fails
    four times on four errors had four remedies.
    """
    window_end = after[-1].timestamp if after else failed.timestamp
    if (
        _stopped_on_purpose(failed) and _EXIT_LINE.match(error.split("\n", 1)[0])
    ) or _stopped_by_own_pkill(failed, error):
        # (its process ended: `Exit code N` first; not Codex's own `write_stdin failed:
        # stdin is closed`, where the stop never reached it)
        return Fix(failed.tool_use_id, STOPPED, window_end=window_end)
    masked = None
    retried: list[tuple[int, bool]] = []  # the failed retries: where, and with this error?
    # A file that does not exist: a search of its folder, then a Read there, found the
    # file meant (conn_case.ex guessed, data_case.ex found).
    folder = _parent(failed.file_path) if failed.file_path else ""
    missing = failed.name in READ_TOOLS and _says_missing(error) and folder != "."
    searched = False
    # a search that found nothing, or found what it was asked despite an unreadable path
    nothing_found = _found_nothing(failed, error) or _found_despite(failed, error)
    # a search program the shell did not find (`rg: command not found`), then another one
    # on the same words: worked around (twenty-first held-out set, 2 Codex searches)
    not_found = signatures.missing_program(key_line) if key_line else None
    searcher_missing = not_found in SEARCHERS
    gone = _gone(failed, error)
    # the files a view was of that failed with its path right (a path the shell could not
    # parse, or took for a pattern: zsh's `no matches found: app/users/[id]/page.tsx`)
    viewed = (
        _views(failed.command)
        if failed.name in SHELL_TOOLS and (not gone or "no matches found" in error)
        else ()
    )
    # A file call the user rejected and then said what to do instead: the agent's next call
    # of that tool is the redo, on the file they named (a Write of conventional-commit.md
    # rejected with "change the name to an easy one", then commit.md; a Read of ~/.zshrc
    # rejected, "I use Fish", then config.fish: fourth held-out set, 2 people).
    # Not when that tool is called on the same file later: that is the redo (a Codex patch
    # rejected while the user asked why, then `continue`, a patch of another file first,
    # then of that file again: sixteenth held-out set). Nor of a call that writes nothing
    # (a Read): what it asked for is that file, and the next Read of another one is for the
    # next task, what its redo wrote being none to compare (_same_edit). The live
    # binds.conf's Read rejected, "nvm after reloading it does work, but ...?", then the
    # script of that question read (thirty-eighth held-out set, not a problem). The fourth's
    # ~/.zshrc, then config.fish after "I use Fish", is lost so: its prompt named the file,
    # which these rules do not read.
    redo = (
        guided
        and failed.kind == "rejected"
        and failed.name in EDIT_TOOLS
        and bool(failed.file_path)
        and not any(
            c.name == failed.name and _same_file(c.file_path, failed.file_path) for c in after
        )
    )
    # what the user said to do instead on rejecting it (see _follows_said)
    said = _said(failed, error)
    # a listing that printed the missing file's name found where it is (see _listed_at)
    listed_at = _listed_at(failed, after, output) if missing else None
    # an output filter's own error (`ss | awk '...'`: `awk: ... fatal`): what it was
    # retried by is that filter's script (see _filter_error)
    filtered = _filter_error(failed, error)
    # a script whose line breaks were lost, run as one line (see _lines_joined)
    joined = _lines_joined(failed, error)
    # what a failed chain ran without failing, or never ran, no later call retried (see
    # _not_failing)
    not_failing = (
        _not_failing(failed.command, key_line) or _beside_probe(failed, key_line)
        if failed.name in SHELL_TOOLS
        else ()
    )
    keys = _sends_keys(failed)
    # a look's failure was its answer: a retry that masks it hides nothing (see _shell_only_looked)
    looked = _shell_only_looked(failed)
    # a command the shell could not parse ran no part of itself (see _reworded)
    unparsed = _not_parsed(failed, error, key_line)
    # inline code the shell broke (see _ran_as_file)
    mangled = (unparsed or _says_substitution_broken(error)) and any(
        i.code is not None for i in intents(failed.command)
    )
    # a command whose arguments its program refused (see _MISUSED)
    misused = failed.name in SHELL_TOOLS and _says_misused(key_line)
    # the words the error quotes of the command: a name it could not take (_replaced_named)
    named_words = _quoted_words(key_line) if failed.name in SHELL_TOOLS else frozenset()
    # a script the package manager did not know (see _NO_SCRIPT)
    no_script = failed.name in SHELL_TOOLS and _says_no_script(key_line or error)
    # a script that could not import its own package as a file (see _imported_instead)
    own_import = failed.name in SHELL_TOOLS and bool(_OWN_IMPORT.search(error))
    # a command given a file for its folder (see _runs_on_workdir)
    in_file = bool(failed.workdir) and failed.name in SHELL_TOOLS and _says_not_a_file(error)
    left_out: set[str] = set()  # retries that left out what the error was about
    # a test run that found nothing to run (see _narrowed)
    no_tests = failed.name in SHELL_TOOLS and _says_no_tests(error)
    # a merge, rebase or cherry-pick that stopped on conflicts (see _concludes)
    conflicted = _conflicted(failed, error)
    # A test runner not there (not installed, or its install failed), then the tests run by
    # another (`pytest: command not found`, `pip install pytest` with no network, then
    # `python3 -m unittest discover`: thirty-second held-out set, 3 Codex failures labelled
    # worked around). The other runner's run is the whole way round: the tests and code
    # written meanwhile are what it checks, nothing made the missing runner be there.
    runner = _runner_missing(failed, key_line, not_found)
    other_runner = False
    # a failed retry outside the sandbox that got past its refusal (see _left_sandbox), or
    # with arguments its program took this time (_got_past_refusal), or with input its tool
    # took (_input_taken): the confirmation when no later call of the window is one
    outside: int | None = None
    # a rewrite of inline code that printed nothing, and one that printed soon after (see
    # _printed_nothing_before)
    silent: Call | None = None
    # (or a shell view of the file itself, at the path the Read could not resolve: `cat
    # /c/Users/me/x.sol` sent beside `ls -la /c/Users/me/`, Git Bash's path a Read on
    # Windows does not take; thirty-fifth held-out set, 2 worked around by the cat)
    reread = listed_at is not None and any(
        not c.failed
        and (
            (c.name == failed.name and _another_way(failed, c, error))
            or (
                c.name in SHELL_TOOLS
                and bool(failed.file_path)
                and any(_same_path(failed.file_path or "", seen) for seen in _views(c.command))
            )
        )
        for c in after[listed_at:ANOTHER_WAY_CALLS]
    )
    # the calls cancelled beside it, and what reran them (see _cancelled_beside)
    beside = _cancelled_beside(failed, after)
    # a file tool given a URL: the files that hold a page fetched (see _saved_copy)
    pages = _saved_pages([*before, *after]) if _given_url(failed) else {}
    for n, call in enumerate(after):
        if no_tests and _narrowed(failed, call):
            continue
        if beside and _reruns_beside(failed, call, beside):
            continue
        if (
            missing
            and not call.failed
            and (_searches(call, folder) or _searches_under(call, folder))
        ):
            searched = True
        # (an edit's, when it writes what the rejected one was to: _same_edit)
        named = redo and call.name == failed.name and _same_edit(failed, call)
        if redo and call.name == failed.name:
            redo = False  # only the first
        otherwise = (
            (nothing_found or searcher_missing)
            and not call.failed
            and _searched_otherwise(failed, call, output(call.tool_use_id))
        ) or (
            nothing_found
            and not call.failed
            and n < ANOTHER_WAY_CALLS
            and (
                _viewed_sought(failed, call, output(call.tool_use_id), after[:n])
                or _listed_sought(failed, call, output(call.tool_use_id))
            )
        )
        # (the same search widened: case ignored, its glob given up; see _searched_wider)
        wider = (
            nothing_found
            and not call.failed
            and (
                _searched_wider(failed, call, output(call.tool_use_id))
                or _searched_higher(failed, call, output(call.tool_use_id))
                or _searched_fewer_words(failed, call, output(call.tool_use_id))
                or (n < NEARBY_CALLS and _searched_reworded(failed, call, output(call.tool_use_id)))
            )
        )
        if nothing_found and not (otherwise or wider or _same_search(failed, call, error)):
            continue
        if nothing_found and not call.failed and _printed_nothing(call, output(call.tool_use_id)):
            continue  # it found nothing again (see _printed_nothing)
        # a script the package manager did not know, then another run that failed on
        # something else: that one ran (see _ran_another_script)
        ran_other = (
            no_script
            and call.failed
            and call.kind not in _UNFINISHED
            and n < NEARBY_CALLS
            and still_failing is not None
            and _ran_another_script(failed, call._replace(failed=False))
            and still_failing(call.outcome_of or call.tool_use_id) is False
        )
        # (a run of what they said that failed on an error of its own got past the "no")
        as_said = (
            _follows_said(failed, call, said)
            if said is not None
            and n < ANOTHER_WAY_CALLS
            and call.kind not in _UNFINISHED
            and not (
                call.failed
                and (
                    still_failing is None
                    or still_failing(call.outcome_of or call.tool_use_id) is not False
                )
            )
            else None
        )
        if (
            failed.name == "wait"
            and call.name == "write_stdin"
            and (call.running or call.kind is None)
            and _polled_instead(call, error)
        ):
            # a poll of the session a wait took for a cell: it waited on the command, still
            # running or ended (settled marks such polls failed: they are no call of their
            # own of the command's), which is all the wait was for
            call = call._replace(failed=False, running=False)
        if call.failed and not (ran_other or as_said):
            if still_failing is None or not _retry(failed, call, not_failing):
                continue
            seen = call.outcome_of or call.tool_use_id
            same = still_failing(seen)  # None: a call without a result
            if (
                same is False
                and key_of is not None
                and _moved(key_line, key_of(seen), after[: n + 1])
            ):
                same = True  # the same obstacle, moved (see _moved)
            if (
                same is False
                and not_found
                and key_of is not None
                and _not_found_again(not_found, key_of(seen))
            ):
                same = True
            if (
                same is False
                and outside is None
                and key_of is not None
                and (
                    _left_sandbox(failed, call, error, key_of(seen))
                    or _got_past_refusal(failed, call, key_line, key_of(seen), output(seen))
                    or _input_taken(failed, call)
                )
            ):
                outside = n
            if same is False and key_of is not None:
                same = _never_ran(key_of(seen), misused, unparsed)
            if same is not None:
                retried.append((n, same))
            if same is not False or key_of is None or call.kind in _UNFINISHED:
                continue
            if (
                not _ran_till_stopped(failed, call)
                and not _got_past(failed, call, not_failing, key_of(seen))
                and not (not_found and _found_now(call, not_found, key_of(seen)))
                and not (
                    not nothing_found
                    and call.name in SHELL_TOOLS
                    # (the failed one's search: not a grep of a file beside a look that
                    # failed, `git ls-remote origin; grep x branches.txt`)
                    and any(i.program in _MATCHERS for i in intents(failed.command))
                    and any(i.program in _MATCHERS for i in intents(call.command))
                    and _found_nothing(call, output(seen))
                )
                and not (not nothing_found and _filtered_to_nothing(call, output(seen)))
            ):
                # (a search that could not run, `rg: unrecognized flag`, run again: it found
                # nothing, exit 1, which answers it: twenty-second held-out set, a new user)
                continue
        elif call.running and not _running_past(failed, call, key_line, output):
            continue  # a command whose end no poll saw: it may have failed
        if keys and call.name == failed.name and not _sends_keys(call):
            # a poll of the command is no retry of keys it could not take (Ctrl-C sent to
            # a closed stdin, then the run polled to its end: tenth held-out set, abandoned)
            continue
        # (a look that found the file spelt otherwise: see _found_spelt_otherwise)
        spelt = (
            bool(gone)
            and n < ANOTHER_WAY_CALLS
            and not call.failed
            and _found_spelt_otherwise(call, gone, output(call.tool_use_id))
        )
        if (
            gone
            and call.name in SHELL_TOOLS
            and not spelt
            and (
                not (_looks_at(call, gone) or _viewed_elsewhere(failed, call, error))
                or _named_apart(failed, call, gone)
            )
        ):
            # a look of a path not there, then a look of another file with the same flags
            # (`sed -n '1,200p' a/quickfix.py`, then `... a/docstrings.py`): another
            # question, not its retry (sixth held-out set, 2 not a problem; fifth, 2)
            continue
        if viewed and _views_other_files(call, viewed):
            continue
        if gone and not spelt and _looks_elsewhere(failed, call, gone):
            continue
        if _closer_chain_later(failed, call, after[n : n + NEARBY_CALLS]):
            continue
        if not call.failed and _put_back_later(failed, call, after[n + 1 :], key_line, not_failing):
            left_out.add(call.tool_use_id)
            continue
        way = None
        if filtered is not None and call.name in SHELL_TOOLS:
            if _same_filter(failed, call, filtered):
                shared = _shared_intent(failed.command, call.command) is not None
                way = FIXED if shared else WORKED_AROUND
            elif _shared_intent(failed.command, call.command) is not None:
                if not any(_expression(i) for i in intents(call.command)):
                    continue  # the command before the filter, which did not fail, again
                # its output kept in a variable and selected by PowerShell's own expressions
                # instead of the filter (`Get-Content x | Select-Object -Index 90..110`, a
                # range it could not bind, then `$lines = Get-Content x; $lines[94..108]`:
                # thirty-seventh held-out set, fixed)
                way = FIXED
        if way is not None:
            pass
        elif (
            (
                _retry(failed, call, not_failing)
                and not _closer_later(failed, call, after[n : n + NEARBY_CALLS])
            )
            or (named and bool(call.file_path))
            or (in_file and _runs_on_workdir(failed, call))
            or (bool(pages) and not call.failed and _saved_copy(failed, call, pages))
            or wider
            or (silent is not None and _rewrote_silent(silent, call, output))
        ):
            way = FIXED
            if joined and not _runs_every_line(failed, call):
                way = WORKED_AROUND
        elif as_said is not None:
            way = as_said
        elif otherwise or spelt:
            way = WORKED_AROUND
        elif runner and n < ANOTHER_WAY_CALLS and _tests_run_otherwise(call, runner):
            way = WORKED_AROUND
            other_runner = True
        elif (
            n < ANOTHER_WAY_CALLS
            and _another_way(failed, call, error, not_failing, after[:n])
            and not _searched_to_read(failed, call, after[n + 1 : ANOTHER_WAY_CALLS], error)
            and not _failed_again_later(
                failed, after[n + 1 : n + 1 + NEARBY_CALLS], not_failing, still_failing
            )
        ):
            way = WORKED_AROUND
        elif unparsed and n < NEARBY_CALLS and _reworded(failed, call):
            way = FIXED
        elif mangled and n < NEARBY_CALLS and _ran_as_file(failed, call, after[:n]):
            way = FIXED
        elif n < NEARBY_CALLS and _ran_rewritten(failed, call, after[:n]):
            way = WORKED_AROUND
        elif own_import and n < NEARBY_CALLS and _imported_instead(failed, call):
            way = WORKED_AROUND
        elif conflicted and _concludes(conflicted, call, after[:n]):
            way = FIXED
        elif n < NEARBY_CALLS and _looked_again(failed, call, output):
            way = FIXED
        elif misused and n < NEARBY_CALLS and _run_otherwise(failed, call, not_failing):
            way = FIXED
        elif misused and named_words and _runs_help_refused(failed, call, named_words):
            way = FIXED
        elif ran_other or (no_script and n < NEARBY_CALLS and _ran_another_script(failed, call)):
            way = FIXED
        elif (
            named_words
            and n < NEARBY_CALLS
            and (
                _replaced_named(failed, call, named_words, not_failing)
                or _named_left_out(failed, call, named_words, not_failing)
                or _expanded(failed, call, named_words, not_failing)
            )
        ):
            way = FIXED
        elif n < NEARBY_CALLS and _ran_fixer(failed, call, after[n + 1 : n + NEARBY_CALLS]):
            way = FIXED
        elif n == listed_at and not reread:
            # (a Read of that name where it was listed, after it, is the other way)
            way = WORKED_AROUND
        elif searched and call.name in READ_TOOLS and call.file_path and listed_at is None:
            if _parent(call.file_path) == folder and _alike(call.file_path, failed.file_path):
                way = WORKED_AROUND
        elif (
            missing
            and n < ANOTHER_WAY_CALLS
            and listed_at is None
            and _read_as_listed(failed, call, after[:n], output)
        ):
            way = WORKED_AROUND
        if way is None:
            continue
        if _another_scope(failed, call):
            continue  # a look at another file of the same name: no retry, no way round
        if (_masks(failed, call, output(call.tool_use_id), error) and not unparsed) or (
            way == FIXED and _asks_less(failed, call)
        ):
            # (`|| true` hides no error of a command that was not parsed: none ran; nor
            # one of a look, another look: see _shell_only_looked)
            if not looked:
                masked = masked or call
            continue
        if (
            _status_of_another(call)
            and (
                (
                    shows_error(output(call.tool_use_id))
                    if shows_error is not None
                    else len(key_line) >= 12 and key_line in output(call.tool_use_id)
                )
                or _raised_again(call, key_line, output(call.tool_use_id))
            )
        ) or (
            call.name in SHELL_TOOLS
            and call.command != failed.command
            and _said_again(key_line, output(call.tool_use_id))
        ):
            # It "succeeded" with the same error: an exit code lost in a pipe. The error
            # was there still, so what came before did not fix it (`npm start | head`
            # printing the error again with another timestamp; the card showed the edits
            # before it: sixteenth held-out set). Or lost in the script's own catch: see
            # _said_again.
            retried.append((n, True))
            continue
        if _failed_behind(call, output(call.tool_use_id)) and not (
            way == FIXED and _got_past_behind(failed, call, key_line, not_failing)
        ):
            continue
        if _failed_in_background(call, after[n + 1 : n + 1 + NEARBY_CALLS], output):
            continue
        if not call.failed and _ran_nothing(call, output(call.tool_use_id)):
            continue
        if not call.failed and _read_past_end(call, output(call.tool_use_id)):
            continue
        if _silent_again(failed, call, error, output) and not _proved_to_run(
            failed, call, error, after[:n], output
        ):
            continue
        if (
            way == FIXED
            and n < NEARBY_CALLS
            and _printed_nothing_before(failed, call, after[n + 1 : n + NEARBY_CALLS], output)
        ):
            silent = silent or call
            continue
        # The remedy came after the last retry that still failed with this error, and
        # before the first one after it that failed with another error.
        start = n if other_runner else max((i + 1 for i, same in retried if same), default=0)
        stop = next((i for i, same in retried if i >= start and not same), None)
        part = _found_as(failed, call, error) if way == WORKED_AROUND else None

        def listed(step: Call, part: str | None = part, found: Call = call, way: str = way) -> bool:
            """A listing that showed the name used (`ls -a` printing `.arguments`), or, for a
            Read of a file not there, a search that printed the path then read."""
            if part:
                return _lists_name(step, part, output)
            if no_script:
                return _listed_script(step, found, output)
            return missing and way == WORKED_AROUND and _printed_path(step, found, output)

        # (the same call of _confirmed but for where its remedy may start)
        head = (failed, after[:n], call, way, error, window_end)
        tail = (stop, listed, output, unparsed, key_line)
        fix = _confirmed(*head, start, *tail)
        earlier = _progress_from(start, retried, after, error, output) if start else start
        if not fix.remedy and earlier < start:
            # nothing after its last sighting did it, but the agent's steps before it took
            # away some of its errors (see _progress_from)
            fix = _confirmed(*head, earlier, *tail)
        if way == WORKED_AROUND and _path_corrected(failed, call):
            fix.outcome = FIXED
        if way == FIXED and failed.name in SHELL_TOOLS:
            done = {c.tool_use_id: c for c in after[:n]}
            if any(
                _weakens(failed, done[step.tool_use_id])
                for step in fix.remedy
                if step.tool_use_id in done
            ):
                # it passed because a step stopped the check failing (see _weakens)
                masked = masked or call
                continue
        if left_out:
            # the call that did it on what the error was about leads; those that left it
            # out did the rest (see _put_back_later)
            fix.remedy.sort(key=lambda step: step.tool_use_id in left_out)
        if (
            silent is not None
            and call.tool_use_id not in {step.tool_use_id for step in fix.remedy}
            and _rewrote_silent(silent, call, output)
        ):
            # the code rewritten again from a silent rewrite: what it changed is the fix,
            # though too little of the failed code is left for its words to say so
            fix.remedy.append(Step(call.tool_use_id, call.name, _target(call), _CODE_REWRITTEN))
        return fix
    if outside is not None:
        # it got past the sandbox, and nothing later succeeded: that retry confirms it, its
        # change the escalation (what came before it, as for a confirmation)
        start = max((i + 1 for i, same in retried if same and i < outside), default=0)
        return _confirmed(
            failed,
            after[:outside],
            after[outside],
            FIXED,
            error,
            window_end,
            start,
            unparsed=unparsed,
            key_line=key_line,
        )
    program = not_found or _checked_for(failed, key_line) or _missing_module(key_line)
    installs = [
        n
        for n, call in enumerate(after)
        if program
        and not call.failed
        and not call.running
        and _installs(call, program)
        and not _only_probed(failed)
    ]
    # An installer the shell did not find (`brew install yt-dlp`: `command not found: brew`),
    # then another installing the same package (`pip3 install yt-dlp`): worked around.
    wanted = _packages_of(failed, program) if program in _INSTALLERS and not installs else ()
    for n, call in enumerate(after[:ANOTHER_WAY_CALLS] if wanted else ()):
        if not call.failed and not call.running and any(_installs(call, p) for p in wanted):
            return _confirmed(
                failed,
                after[:n],
                call,
                WORKED_AROUND,
                error,
                window_end,
                unparsed=unparsed,
                key_line=key_line,
            )
    if installs:
        # nothing ran it again, but it was installed: the install is the step; of several,
        # the first whose status is its own, else the last (`pip install x | tail -5`
        # refused by PEP 668, exit 0 from tail, then `... --break-system-packages | tail`)
        n = next((i for i in installs if not _status_of_another(after[i])), installs[-1])
        call = after[n]
        fix = _confirmed(
            failed, after[:n], call, FIXED, error, window_end, unparsed=unparsed, key_line=key_line
        )
        # the other installs of it before this one were tries it took the place of (`pip
        # install python-docx | tail -5` refused by PEP 668, then `... --break-system-packages`:
        # ninth held-out set, the refused one shown as a step)
        tried = {after[i].tool_use_id for i in installs if i < n}
        fix.remedy = [step for step in fix.remedy if step.tool_use_id not in tried]
        if call.tool_use_id not in {step.tool_use_id for step in fix.remedy}:
            fix.remedy = [*fix.remedy, Step(call.tool_use_id, call.name, _target(call))]
        return fix
    made = _made_missing(after, error) if masked is not None else None
    if masked is not None and made is not None:
        # what the check demanded was made after it was masked: that is the fix, though the
        # check never ran again as it was (see _made_missing)
        call = after[made]
        fix = _confirmed(
            failed,
            after[:made],
            call,
            FIXED,
            error,
            window_end,
            unparsed=unparsed,
            key_line=key_line,
        )
        # (the masked call asked less: no step of it; the writing, of what the error names,
        # comes first, and is no changed retry)
        fix.remedy = [Step(call.tool_use_id, call.name, _target(call))] + [
            step
            for step in fix.remedy
            if step.tool_use_id not in {masked.tool_use_id, call.tool_use_id}
        ]
        return fix
    # Without a fix, what was done right after is what the card can show: the first
    # NEARBY_CALLS calls, not the whole window, and of them the steps taken next.
    nearby = after[:NEARBY_CALLS]
    window_end = nearby[-1].timestamp if nearby else failed.timestamp
    if masked is not None:
        return Fix(failed.tool_use_id, PAPERED_OVER, window_end=window_end)
    return Fix(
        failed.tool_use_id,
        NOT_FIXED,
        window_end=window_end,
        others=[c.tool_use_id for c in next_steps(nearby)],
    )


# A line of a check's output that names an error or a failure (a compiler's, a test's).
_ERROR_LINE = lazy(r"\b(?:error|Error|ERROR|FAIL|FAILED|Failed|failed)\b")
_NUMBERS = lazy(r"\d+")


def _error_lines(text: str) -> set[str]:
    """The lines of an output that name an error, their numbers left out: one moved by an
    edit above it (`x.ts(25,1): error TS6192`, then `x.ts(24,1)`) is the same error."""
    return {
        _NUMBERS.sub("N", line.strip())
        for line in text.splitlines()[:PERSIST_LINES]
        if _ERROR_LINE.search(line)
    }


def _progress_from(
    start: int,
    retried: Sequence[tuple[int, bool]],
    after: Sequence[Call],
    error: str,
    output: Callable[[str], str],
) -> int:
    """Where the remedy begins when nothing the agent did after the failure's last sighting
    made it go (the confirmation's run passed after failed edits and looks only: a linter or
    another writer did the rest), but each retry before it that still failed with this error
    showed fewer of its errors: the steps before those retries are the fix's own. `tsc`
    with three files' errors; `.js` added to the imports of three, the next run showing only
    one file's; an unused block removed, the next run showing two errors fewer; the file's
    edits then refused as it changed under the agent, and the run after passed (thirty-fifth
    held-out set, labelled with those four edits; the card named none). A retry that failed
    on another error, or with every error it had before, ends the walk back."""
    if not all(alike for i, alike in retried if i < start):
        return start
    same = [i for i, _ in retried if i < start]
    for k in range(len(same) - 1, -1, -1):
        retry = after[same[k]]
        now = output(retry.outcome_of or retry.tool_use_id)
        prior = after[same[k - 1]] if k else None
        then = output(prior.outcome_of or prior.tool_use_id) if prior else error
        if not _error_lines(then) - _error_lines(now):
            break
        start = same[k - 1] + 1 if k else 0
    return start


def next_steps(calls: Iterable[Call]) -> list[Call]:
    """Of the calls after a failure that nothing was seen to fix, the first NEXT_STEPS that
    succeeded and did more than look: what a card says was done next.

    A way round the error that no rule here knows is often among them (`Write` refused as
    not read, then another file written; a script rewritten under a new name and run: 29
    of 38 worked-around failures stored "not fixed" in a new user's try, session 32, had
    their remedy among the next three successful calls), and the card says "then", not
    "fix": after an abandoned failure they are the work that followed.
    """
    return [c for c in calls if not c.failed and not c.running and _acts(c)][:NEXT_STEPS]


def _acts(call: Call) -> bool:
    """Whether a call did more than look: not a read, search, plan or web search, not a
    read of another call's output or a poll, not a shell command that only looks (`ls`,
    `git diff`, `sed -n`, `gh pr view`)."""
    if call.name in _NOT_STEPS or call.name in _POLLS:
        return False
    if call.name in SHELL_TOOLS:
        command = call.command or ""
        return not all(_only_looks(i, command) for i in intents(command))
    return True


def _only_looks(intent: Intent, command: str) -> bool:
    """Whether a simple command only looks: _looks, a sed that prints, a subcommand whose
    verb looks (`gh pr view`, `bd ready`, `sudo ufw status`), a request that only asks how
    a server answers (_probes), or one asked only for its help or version."""
    if _looks(intent) or _prints(intent, command) or _probes(intent):
        return True
    if intent.words[:2] in _COMMAND_WHERE:
        # (`which bun || command -v bun || echo "not found"` was the first step of bun's
        # install, the run it made possible the fix: thirty-fifth held-out set)
        return True
    # (its first word after the program's name, not a wrapper's: `sudo ufw status`)
    at = next((n for n, w in enumerate(intent.words) if _program_name(w) == intent.program), 0)
    first = (
        _verb(intent)
        or intent.sub
        or next((w for w in intent.words[at + 1 :] if not w.startswith("-")), None)
    )
    looking = LOOK_SUBCOMMANDS.get(intent.program, LOOK_ANY)
    if first and first in looking:
        return True
    if _reads_config(intent, command):
        return True
    if intent.program in _GROUPED and first in _GROUPED[intent.program]:
        # a group's verb after it (`conda env list`, `docker compose ps`): a new user's card
        # showed `conda env list; ls models/` as the first step of a fix, session 35
        rest = intent.words[intent.words.index(first) + 1 :] if first in intent.words else ()
        verb = _group_verb(rest)
        return verb in looking or verb in LOOK_ANY
    return bool(intent.flags & {"--help", "--version"})


# git config's options that only read (`--get`, `--list`), that change what it names
# (`--unset`, `--add`), and that take a value (`--file x`).
_CONFIG_READS = frozenset(
    "--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool --list -l".split()
)
_CONFIG_CHANGES = frozenset(
    "--unset --unset-all --add --replace-all --edit -e --remove-section --rename-section".split()
)
_CONFIG_VALUED = frozenset("-f --file --blob --type --default".split())


def _reads_config(intent: Intent, command: str) -> bool:
    """Whether a `git config` only reads a setting: asked with `--get` or `--list`, or given
    a key and no value (`git config --global credential.helper`, which exits 1 saying
    nothing when the key is not set: its answer, the probe told the agent no credential
    helper was set; thirty-sixth held-out set, not a problem). Its words are read from the
    command, a value with spaces too (`git config user.name "A B"` sets it), which an intent
    leaves out (_is_message)."""
    if intent.program != "git" or intent.sub != "config" or intent.flags & _CONFIG_CHANGES:
        return False
    if intent.flags & _CONFIG_READS:
        return True
    configs = [
        args[args.index("config") + 1 :]
        for words in segments(command)
        for program, args in [_program(words)]
        if program == "git" and "config" in args
    ]
    return bool(configs) and all(
        len(
            [
                w
                for n, w in enumerate(rest)
                if not w.startswith("-") and not (n and rest[n - 1] in _CONFIG_VALUED)
            ]
        )
        == 1
        for rest in configs
    )


def _group_verb(rest: Sequence[str]) -> str | None:
    """The verb after a group (`docker compose ... ps`): the first word that is no option and
    follows none, else the first that is no option. An option before it may take a value
    (`docker compose -p geox ps`: not `geox`; a compose project listed that way was a step
    of a missing service's fix, thirty-seventh held-out set)."""
    words = [w for w in rest if not w.startswith("-")]
    return next(
        (
            w
            for n, w in enumerate(rest)
            if not w.startswith("-") and not (n and _takes_value(rest[n - 1]))
        ),
        words[0] if words else None,
    )


def _takes_value(word: str) -> bool:
    """Whether an option may take the next word for its value: `-p`, `--file` (not `-p=x`)."""
    return word.startswith("-") and "=" not in word


# Programs' subcommands that are groups of others, whose verb comes after them.
_GROUPED = {
    "conda": frozenset({"env", "config"}),
    "mamba": frozenset({"env", "config"}),
    "docker": frozenset({"compose", "container", "image", "volume", "network", "context"}),
    "poetry": frozenset({"env", "config", "source"}),
    "uv": frozenset({"pip", "python", "tool"}),
    "npm": frozenset({"config", "cache"}),
    # iproute2's objects (`ip addr show`, `ip route list`)
    "ip": frozenset("addr address link route neigh rule".split()),
}

# curl's options that send a body or another method: a request that may change something.
_SENDS = lazy(r"^(?:-[dFTX]|--data\S*|--form\S*|--json|--upload-file|--request)(?:=|$)")


def _probes(intent: Intent) -> bool:
    """Whether a curl only asks how a server answers: its headers (`-I`, `--head`), or its
    status with the body thrown away (`curl -s -o /dev/null -w "%{http_code}" URL`), with
    no body sent nor another method asked."""
    if intent.program != "curl":
        return False
    words = intent.words
    dropped = any(
        w in {"-o", "--output"} and n + 1 < len(words) and words[n + 1] in {"/dev/null", "NUL"}
        for n, w in enumerate(words)
    )
    headers = bool(intent.flags & {"-I", "--head"})
    return (dropped or headers) and not any(_SENDS.match(w) for w in words)


# apply_patch's words for a patch whose context line its file does not hold.
_CONTEXT_NOT_FOUND = lazy(r"\bFailed to find context\b")


def _confirmed(
    failed: Call,
    between: Sequence[Call],
    confirm: Call,
    way: str,
    error: str,
    window_end: str,
    start: int = 0,
    stop: int | None = None,
    listed: Callable[[Call], bool] | None = None,
    output: Callable[[str], str] | None = None,
    unparsed: bool = False,
    key_line: str = "",
) -> Fix:
    """The fix `confirm` confirms, its remedy taken from `between` (from `start`, before
    `stop`): see the module's docstring. `unparsed`: the shell could not parse the failed
    command (_not_parsed); `key_line`: the failure's."""
    steps: list[tuple[bool, int, Step]] = []
    others = []
    # (what the failure is about, read only when a look between is to be told by it)
    subjects = functools.cache(
        lambda: _subjects(failed, key_line or signatures.key_line(error), error)
    )
    not_read = failed.kind == "not_read" or "has not been read" in error
    # An edit whose text to replace was not in the file: it was read again for the text
    # that is there, and the edit that then applied is the fix (both are steps).
    # Codex's apply_patch says so of a context line (`Failed to find context 'def f(' in
    # x.py`), whose reworked patch is the fix: the card said only "confirmed: apply_patch x.py
    # succeeded" (thirty-seventh held-out set, labelled the reworked patch; a new user's try,
    # nu44 finding 11). (Its `Failed to find expected lines` is string_not_found already.)
    stale = failed.name in EDIT_TOOLS and (
        failed.kind == "string_not_found" or bool(_CONTEXT_NOT_FOUND.search(error))
    )
    # A search counts as a step of another way only when the failure lost track of a path:
    # the one that found it (a search that reads a config to understand an error does not).
    lost = _says_missing(error) or _says_not_a_file(error)
    # A file too large to read whole, then read in part: nothing done between made it
    # smaller but an edit of it (8 edits of other files were a Read's steps: fifteenth
    # held-out set).
    in_part = (
        failed.name in READ_TOOLS
        and confirm.name == failed.name
        and bool(confirm.part)
        and not failed.part
        and _says_too_large(error)
    )
    # A look at a path not there, then the same look at another path: the path was what
    # changed, and of what came between only what names the file made or found it (`cat
    # src/training/main.py` missing, then conda environments listed, torchvision installed,
    # and `cat src/models/main.py`: the install was no step; twentieth held-out set).
    named = (
        _look_elsewhere_names(failed, confirm)
        if lost and way == FIXED and failed.name == confirm.name
        else None
    )
    # The same look at the same path, once it was there: a run between made the file, a
    # check's run too (`python3 scripts/generate_release_docs.py`, then `cat
    # dist/RELEASE_NOTES.md` again: thirty-sixth held-out set, the script the remedy)
    made_here = (
        lost
        and way == FIXED
        and failed.name in SHELL_TOOLS | READ_TOOLS
        and failed.name == confirm.name
        and _looks_at_same(failed, confirm)
    )
    # A look made in a container that mounts its paths: nothing between made that possible
    # (six edits of a script the session was extending were its steps: thirty-seventh
    # held-out set; see _looked_in_container)
    contained = (
        way == WORKED_AROUND
        and failed.name in SHELL_TOOLS
        and confirm.name in SHELL_TOOLS
        and _looked_in_container(failed, confirm, error)
    )
    reread = _rereads(failed, between, confirm, output) if stale else None
    was_read = False  # (see below)
    # a test run that found nothing to run: edits of the code under test are none (see
    # _collects_elsewhere)
    no_tests = failed.name in SHELL_TOOLS and _says_no_tests(error)
    # the files the output only warned about, when the failure is no warning: its key line
    # is neither one nor a warned file's report (_warned_only)
    warned = _warned_only(error) if failed.name in SHELL_TOOLS else set()
    if "warning" in key_line.lower() or any(path in key_line for path in warned):
        warned = set()
    # a command its own `pkill -f` killed, run again without it: no edit made it so (see
    # _killed_itself)
    killed = (
        way == FIXED
        and _killed_itself(failed, error)
        and confirm.name in SHELL_TOOLS
        and not _kills_itself(confirm.command)
    )

    @functools.cache
    def ran() -> str:
        """What the run, its confirmation and the commands between that did more than look
        name (_beside_the_run: a `sed -n` of the workflow to edit runs none of it)."""
        return "\n".join(
            [failed.command or "", failed.file_path or "", error, confirm.command or ""]
            + [
                c.command
                for c in between
                if c.command
                and c.name in SHELL_TOOLS
                and not all(_only_looks(i, c.command) for i in intents(c.command))
            ]
        )

    for n, call in enumerate(between):
        step = None
        renamed_under = bool(failed.file_path) and _searches_under(
            call, _parent(failed.file_path or "")
        )
        if not start <= n < (len(between) if stop is None else stop):
            continue  # before the error's last sighting, or after it was gone
        if contained or (
            in_part
            and not (call.name in EDIT_TOOLS and _same_file(call.file_path, failed.file_path))
        ):
            pass
        elif _another_scope(failed, call):
            pass  # a look at another file of the same name, no step of its fix
        elif named is not None and not _names_any(call, named):
            pass
        elif no_tests and _collects_elsewhere(failed, call):
            pass
        elif warned and call.name in EDIT_TOOLS and _names_file(warned, call.file_path):
            pass
        elif killed and call.name in EDIT_TOOLS:
            pass
        elif _beside_the_run(failed, call, ran):
            pass
        elif stopped_edit(failed) and call.name in EDIT_TOOLS and not _same_edit(failed, call):
            # what the user asked for beside it (`remove all references to gql also`), or
            # instead: no step of its redo (see _same_edit)
            pass
        elif (
            (not_read or stale)
            and failed.file_path
            and (
                (call.name in EDIT_TOOLS and not _same_file(call.file_path, failed.file_path))
                or (
                    call.name in SHELL_TOOLS
                    and bool(written := _files_of(call, written=True))
                    and _basename(failed.file_path) not in written
                )
            )
        ):
            # an edit of another file (a batch of edits refused together, each redone by
            # the edit tool or by `cat > other <<EOF`) is none
            pass
        elif (
            not call.failed
            and (_changes_state(call) or (made_here and _acts(call)))
            and not _records(call, failed)
            and not _scratch(call, f"{failed.command}\n{error}\n{confirm.command}")
            and not (output is not None and _failed_behind(call, output(call.tool_use_id)))
            and not (output is not None and _did_nothing(call, output(call.tool_use_id)))
        ):
            step = Step(call.tool_use_id, call.name, _target(call))
        elif not call.failed and (not_read or stale) and call.name in READ_TOOLS:
            if (
                _same_file(call.file_path, failed.file_path)
                and (reread is None or call.tool_use_id in reread)
                # (not read yet: its first Read made it read, which is all the edit tool
                # asks; later Reads of parts were for other edits of it: a quickstart whose
                # card showed two, thirty-second held-out set)
                and not (not_read and was_read)
            ):
                step = Step(call.tool_use_id, call.name, _target(call))
                was_read = True
        elif not call.failed and listed is not None and listed(call):
            # the listing that showed where a path not there was (see _found_as)
            step = Step(call.tool_use_id, call.name, _target(call))
        elif (
            not call.failed
            and way == WORKED_AROUND
            and lost
            and call.name in SEARCH_TOOLS | SHELL_TOOLS
            and not (
                output is not None
                and (
                    (call.name in SEARCH_TOOLS and output(call.tool_use_id).strip() in _NO_FILES)
                    or (
                        call.name in SHELL_TOOLS
                        and _found_not_there(call.command, output(call.tool_use_id))
                    )
                )
            )
            and (
                (
                    any(
                        name and name in (call.pattern or call.command or call.file_path or "")
                        for name in (_basename(confirm.file_path), failed.file_path)
                    )
                    # (a Glob or Grep by its name, when the file read then has the name the
                    # failed Read gave it: the Read at its path is the fix, as after a `**`
                    # over the folder; a Glob of `**/INVESTIGATION_REPORT.md` then its Read,
                    # labelled the Read alone: thirty-seventh held-out set, 2. The shell's
                    # `find -name` of it stays a step, as the first held-out set's labels
                    # have it)
                    and not (
                        call.name in SEARCH_TOOLS
                        and failed.name in READ_TOOLS
                        and confirm.name in READ_TOOLS
                        and _basename(confirm.file_path) == _basename(failed.file_path)
                    )
                )
                or (
                    failed.file_path is not None
                    and (
                        # (a `**` over it is the case below: `**/CLAUDE*` in the vault whose
                        # root had no CLAUDE.md, then the Read of x/CLAUDE.md, labelled the
                        # Read alone: thirty-second held-out set)
                        (_searches(call, _parent(failed.file_path)) and not renamed_under)
                        # a folder read as a file (EISDIR): the search of that folder
                        or _searches(call, failed.file_path)
                        # a `**` over it, when the file read then has another name: the
                        # search told it (a renamed test file; for the same name elsewhere,
                        # the first held-out set's labels name the Read alone)
                        or (
                            _searches_under(call, _parent(failed.file_path))
                            and _basename(confirm.file_path) != _basename(failed.file_path)
                        )
                    )
                )
            )
        ):
            step = Step(call.tool_use_id, call.name, _target(call))
        if step is None:
            if call.name not in PLAN_TOOLS and (  # (a todo list's update says nothing of it)
                # a look at what the failure is not about says nothing of it either; when it
                # lost track of a path, any look may be the search for it
                lost
                or not _only_looked(call)
                or _changes_state(call)  # (`cat > x <<EOF` writes)
                or _about(call, subjects(), output)
            ):
                others.append(call.tool_use_id)
        else:
            steps.append((_named(call, error, failed), n, step))
    done = [between[n] for _, n, _ in steps]
    change = _change(failed, confirm, done)
    if change in _REWRITES and steps:
        # code rewritten beside a fix made before it (an edit, an install) ran the check
        # again: the fix is those steps (a parity script passing after a patch of the parser
        # it checks, thirtieth held-out set; a query run after `bundle install`)
        change = None
    # The retry that failed on another error got past this one: when the confirmation ran
    # it again as it was, what it changed is its step, not the confirmation's (the gradle
    # build Codex's sandbox refused, run outside it, then failing to compile, fixed, and
    # built: the card showed the last build's `with escalated permissions`: fifth held-out
    # set). A confirmation that changed it again keeps the change (a retry half right).
    past = between[stop] if stop is not None and stop < len(between) else None
    if (
        past is not None
        and change
        and _retry(failed, past)
        and _change(failed, past) == change
        and _change(past, confirm) is None
    ):
        steps.append(
            (
                _named(past, error, failed),
                stop or 0,
                Step(past.tool_use_id, past.name, _target(past), change),
            )
        )
        change = None
    elif (
        past is not None
        and change
        and not steps
        and failed.name in SHELL_TOOLS
        and _retry(failed, past)
        and (got_past := _change(failed, past))
        and _ran_again_beside(past, confirm)
    ):
        # a changed retry got past this error and failed on the next, and the confirmation
        # ran it again as it was, beside other commands (what cleared that next error
        # first): the retry's change fixed this one (a self-test run from another folder
        # that got past `ENOENT: ... .claude/.claude/agents` and failed on a missing folder,
        # then `rm -rf x; cd there && ...` as it was: thirty-fifth held-out set, labelled
        # the retry). Not when it changed the command itself again (see _keeps_change).
        steps.append(
            (
                _named(past, error, failed),
                stop or 0,
                Step(past.tool_use_id, past.name, _target(past), got_past),
            )
        )
        change = None
    elif (
        past is not None
        and change is None
        and not steps
        and way == FIXED
        and _retry(failed, past)
        and (got_past := _change(failed, past))
    ):
        # a changed retry got past this error and failed on the next, and the confirmation
        # is the failed call again: that change is what fixed this error (`eslint --fix`
        # fixed the formatting, then edits the rest, then `eslint` as it was passed:
        # eleventh held-out set, the card had no step). Not before another way: that way
        # went round what the retry met (`ping -n 30 ... && type C:\\...` failing as the
        # `timeout` it replaced had, then `cat /c/...` read the file: thirty-fifth held-out
        # set; a PYTHONPATH that got past one import and not the next, then the work done by
        # inline code: thirtieth)
        steps.append(
            (
                _named(past, error, failed),
                stop or 0,
                Step(past.tool_use_id, past.name, _target(past), got_past),
            )
        )
    elif (
        past is not None
        and change is not None
        and not steps
        and failed.name in SHELL_TOOLS
        and _retry(failed, past)
        and (got_past := _change(failed, past))
        and not _keeps_change(failed, past, confirm)
    ):
        # a changed retry got past this error and failed on the next, and the confirmation
        # changed it again another way: the retry's change fixed this error, the
        # confirmation's the later ones (`rails runner` queries rewritten on each error,
        # then one that ran: thirty-first held-out set, the cards had no step)
        steps.append(
            (
                _named(past, error, failed),
                stop or 0,
                Step(past.tool_use_id, past.name, _target(past), got_past),
            )
        )
        change = None
    if (
        (not (failed.command or failed.file_path) or failed.kind == _REFUSED_INPUT)
        and not steps
        and confirm.name == failed.name
        and confirm.input != failed.input
    ):
        # (the same input again, after the user stopped it and said `continue`: no change)
        # Of a call with a file whose input its tool refused, what changed in its input is
        # the fix, as of a call without one (a Grep given `file_path`, then `path`: the card
        # said only "confirmed: Grep ... succeeded", a new user's try, session 34); neither
        # input is known when the call was not refused (see refused_input).
        change = _input_change(failed.input, confirm.input) or "called again with other input"
    if change is None and confirm.command != failed.command and unparsed:
        change = "written so that the shell could parse it"  # (see _reworded)
    if change is None and confirm.name in SHELL_TOOLS and failed.name in SHELL_TOOLS:
        change = _pattern_change(failed.command, confirm.command)
    if stale and change is None and confirm.name in EDIT_TOOLS:
        change = "with the text the file has"
    if (
        change is None
        and confirm.name == failed.name
        and failed.name in EDIT_TOOLS
        and _says_several(error)
    ):
        change = _anchor_change(failed.input, confirm.input)
    if way == FIXED and failed.kind == _UNDECIDED and not _ran_since(failed, between):
        # the agent's own tool did not run it for want of leave to (auto mode's classifier
        # down: `... is temporarily unavailable, so auto mode cannot determine the safety of
        # Bash right now`): the command never ran, nothing the agent did brought the
        # classifier back, and no run of it met what the command would. Neither an emulator
        # started and its boot awaited nor the path the script was then run with got past
        # it: both were shown as its fix (thirty-seventh held-out set; a new user's try,
        # nu40 finding 1). Once a retry ran and failed on an error of its own, what fixed
        # that is its fix, as of a call cancelled with its sibling (_NOT_RUN).
        steps = []
        change = None
    if way == FIXED and change is None and _unreachable(error):
        # a host not reached, then the same command as it was: the network came back, and
        # what came between (files removed, a commit, a push elsewhere) made no difference
        # to it, but for a setting of how to connect (thirteenth held-out set, 2 pushes)
        steps = [
            item
            for item in steps
            if item[1] >= len(between)
            or between[item[1]].tool_use_id != item[2].tool_use_id
            or _sets_connection(between[item[1]])
        ]
    not_found = signatures.missing_program(key_line) if failed.name in SHELL_TOOLS else None
    if change and not_found and _runs_by_the_same_word(failed, confirm, not_found):
        # The shell found the program this time by the word it had not found it by: it was
        # there now (installed by a step, or by the user outside the session), and what else
        # the confirmation changed got it no further. `cmake` not found, the user installed
        # it ("try again, cmake is installed now"), then `cd build-debug && cmake ...
        # -DBUILD_GUI=ON .. && make`: the card gave `+-DBUILD_GUI=ON; then make` as the
        # fix, and the hook the same call as how the refused `sudo apt install -y cmake`
        # was worked around (thirty-sixth held-out set, both labelled with no remedy step;
        # a new user's try, nu44 finding 6). Not a program run by another word (`python3`
        # for `python`, `./venv/bin/pytest`): that word is the change.
        change = None
    if (
        change
        or way == WORKED_AROUND
        or (failed.name not in EDIT_TOOLS and confirm.name in EDIT_TOOLS)
    ):
        step = Step(confirm.tool_use_id, confirm.name, _target(confirm), change)
        moved_only = change is not None and change == folder_change(failed, confirm)
        steps.append((_named(confirm, error, failed) and not moved_only, len(between), step))
    steps.sort(key=lambda item: (not item[0], item[1]))
    return Fix(
        failed.tool_use_id,
        way,
        confirmed_by=confirm.tool_use_id,
        confirmed_at=confirm.timestamp,
        remedy=[step for _, _, step in steps[:REMEDY_STEPS]],
        window_end=window_end,
        others=others,
    )


# A checker's report of a file (eslint's, as `next build` prints it): the file's path alone
# on a line, then its findings (`6:10  Warning: 'Suspense' is defined but never used.`);
# and a finding with its file first (`src/x.c:3:5: warning: unused variable`).
_REPORTED_FILE = lazy(r"^\s*(\.{0,2}/?[\w@.-]+(?:/[\w@.\[\]()-]+)*\.\w+)\s*$")
_FINDING = lazy(r"^\s*\d+:\d+\s+(warning|error)\b", re.I)
_FILE_FINDING = lazy(r"^\s*(\S+?):\d+(?::\d+)?:?\s+(warning|error)\b", re.I)


def _warned_only(error: str) -> set[str]:
    """The files a failure's output names only with warnings: each line that names one is
    its report's header whose findings are all warnings, or a warning of it. A warning fails
    no build, so an edit of such a file cleared a warning, and is no step of the fix
    (`next build` failing on `Type error: Property 'feedback' is missing` in
    groups/page.tsx after eslint's unused-variable warnings of three other files: the card
    showed the four patches that cleared them as fixes, thirty-first held-out set, a new
    user's try). Not when the failure is the warnings (`--max-warnings 0`): its key line
    then is one, see _confirmed."""
    lines = error.splitlines()
    levels: dict[str, set[str]] = {}
    # the lines that are neither a report's header nor a file's finding: a file they name
    # is named otherwise too (each line's two matches made once here, not again for each
    # file: 0.6 s of the real mix's fixes, its test logs of thousands of lines)
    others: list[str] = []
    for i, line in enumerate(lines):
        header = _REPORTED_FILE.match(line)
        if header:
            found = set()
            for later in lines[i + 1 :]:
                finding = _FINDING.match(later)
                if not finding:
                    break
                found.add(finding.group(1).lower())
            if found:
                levels.setdefault(header.group(1), set()).update(found)
                continue
        finding = _FILE_FINDING.match(line)
        if finding:
            levels.setdefault(finding.group(1), set()).add(finding.group(2).lower())
        elif not header:
            others.append(line)
    return {
        path
        for path, found in levels.items()
        if found == {"warning"} and not any(path in line for line in others)
    }


def _names_file(paths: set[str], path: str | None) -> bool:
    """Whether a tool's path is one of `paths` as an output names them (`./src/x.ts`)."""
    if not path:
        return False
    mine = _unix(path)
    for named in paths:
        named = _unix(named).removeprefix("./")
        if mine == named or mine.endswith(f"/{named}"):
            return True
    return False


# What a look prints when what it looked for is not there, by its own `|| echo` (`ls -la
# /p/.planning 2>/dev/null || echo "NO_PLANNING_DIR"`).
_FALLBACK = lazy(r"\|\|\s*(?:echo|printf)\s+(?:-\w+\s+)*(['\"]?)([^'\"\n;&|]+)\1")


def _found_not_there(command: str | None, printed: str) -> bool:
    """Whether a shell look printed only what its `|| echo` says when it failed: what it
    looked for was not there. Such a search of a missing file's folder found no file, and
    is no step of the read that found it elsewhere (thirty-second held-out set, 2 Reads of
    a `.planning` folder not there, each shown with that look first)."""
    text = printed.strip()
    return bool(text) and text in {m.group(2).strip() for m in _FALLBACK.finditer(command or "")}


def _rereads(
    failed: Call,
    between: Sequence[Call],
    confirm: Call,
    output: Callable[[str], str] | None,
) -> frozenset[str] | None:
    """Of several Reads of a file whose edit's text was not found, those that showed the text
    the edit that applied then replaced (its first line of 8 characters or more), else the
    last: the others read other parts of it (four Reads in parts of a long file before the
    edit re-anchored at what the fourth showed: the labels of the sixteenth and twentieth
    held-out sets name that one). None: one Read or none, or no output to look in."""
    reads = [
        c
        for c in between
        if not c.failed and c.name in READ_TOOLS and _same_file(c.file_path, failed.file_path)
    ]
    if len(reads) < 2 or output is None:
        return None
    anchors = [
        line.strip()
        for old, _ in _edit_texts(confirm.input)
        for line in (old or "").splitlines()[:1]
        if len(line.strip()) >= 8
    ]
    showed = [c.tool_use_id for c in reads if any(a in output(c.tool_use_id) for a in anchors)]
    return frozenset(showed or [reads[-1].tool_use_id])


# A host that could not be reached over the network: not one on this machine (a server not
# started yet, `Failed to connect to localhost port 3000`, is started by a step).
_UNREACHABLE = lazy(
    r"Failed to connect to (?!localhost\b|127\.|0\.0\.0\.0|\[?::1)\S+ port"
    r"|Could not resolve host|Temporary failure in name resolution|Network is unreachable"
    r"|Recv failure|Connection (?:was )?reset|\b(?:ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT)\b",
    re.IGNORECASE,
)
_unreachable = _cached_search(_UNREACHABLE)


def _ran_since(failed: Call, between: Sequence[Call]) -> bool:
    """Whether a retry of a call that never ran (_NOT_RUN) ran among `between`, and failed
    on an error of its own: not refused, stopped or cancelled again (_UNFINISHED)."""
    return any(c.failed and c.kind not in _UNFINISHED and _retry(failed, c) for c in between)


def _sets_connection(call: Call) -> bool:
    """Whether a step may change how a host is reached: an edit (of a config file, a hosts
    file), a program's `config` (`git config http.proxy`, `npm config set registry`), or a
    proxy named."""
    if call.name in EDIT_TOOLS:
        return True
    command = call.command or ""
    return "proxy" in command.lower() or any(i.sub == "config" for i in intents(command))


def _look_elsewhere_names(failed: Call, confirm: Call) -> frozenset[str] | None:
    """The file names of a look that failed on a path not there and of the look at another
    path that confirmed it (None: not such a pair, or the same paths)."""
    if failed.name in SHELL_TOOLS:
        mine, theirs = _views(failed.command), _views(confirm.command)
        if not mine or not theirs:
            return None
    elif failed.name in READ_TOOLS and failed.file_path and confirm.file_path:
        mine, theirs = (failed.file_path,), (confirm.file_path,)
    else:
        return None
    if {_key(path) for path in mine} >= {_key(path) for path in theirs}:
        return None  # the same file again: what came between may have made it
    return frozenset(_basename(path) for path in (*mine, *theirs)) - {""}


def _looks_at_same(failed: Call, confirm: Call) -> bool:
    """Whether two looks (a shell view, a Read) are at the same paths."""
    if failed.name in SHELL_TOOLS:
        mine, theirs = _views(failed.command), _views(confirm.command)
    else:
        mine, theirs = (failed.file_path or "",), (confirm.file_path or "",)
    return bool(mine) and {_key(p) for p in mine} == {_key(p) for p in theirs} != {""}


def _names_any(call: Call, names: frozenset[str]) -> bool:
    """Whether a call names one of these file names: its file, or a word of its command."""
    if call.file_path and _basename(call.file_path) in names:
        return True
    return any(name in (call.command or "") for name in names)


def _change(failed: Call, confirm: Call, done: Sequence[Call] = ()) -> str | None:
    """What a later call changed of the failed one: its words, its folder, the sandbox, the
    tool, the path, the part of the file read (None: nothing). `done`: the remedy's steps
    before it (see command_change)."""
    change = None
    if confirm.name in SHELL_TOOLS and failed.name in SHELL_TOOLS:
        if (
            len((failed.command or "").split()) == 1
            and _runs_on_workdir(failed, confirm)
            and not _is_folder_of(failed, confirm)
        ):
            # a program given a file as its folder and nothing else, then given the file
            # (see _runs_on_workdir)
            return f"{_basename(failed.workdir)} as its argument, not its folder"
        shell = [c.command for c in done if c.name in SHELL_TOOLS]
        change = command_change(failed.command, confirm.command, shell)
        moved = folder_change(failed, confirm)
        escalated = confirm.escalated and not failed.escalated
        if change is None and (moved or escalated):
            # another program, run in another folder or outside the sandbox: said first (see
            # program_change), not the folder or the sandbox alone
            change = program_change(failed.command, confirm.command)
            if change and moved:
                change, moved = f"{change}; {moved}", None
        if moved:
            change = f"{moved}; {change}" if change else moved
        if change is None:
            change = _rewritten(failed.command, confirm.command)
        if escalated:
            # the sandbox refused it (`Operation not permitted`), and the same command was run
            # outside it: the card said no more than the command (fourth held-out set)
            change = f"{ESCALATED}; {change}" if change else ESCALATED
    elif confirm.name != failed.name:
        # another tool (an edit made by a script in the shell): not `in <its workdir>`, which
        # a card said of a Codex apply_patch done by a python script (held out, session 9)
        change = f"{failed.name} → {confirm.name}"
    elif confirm.file_path != failed.file_path:
        change = _path_change(failed.file_path or "", confirm.file_path or "")
    elif confirm.part != failed.part:
        # a file too large to read whole, read in parts (`File content exceeds maximum
        # allowed size`): the part asked for is the change
        change = f"read {confirm.part}" if confirm.part else "read whole"
    return change


def program_change(failed: str | None, retry: str | None) -> str | None:
    """`pytest → python3 -m unittest`: the program a shell retry ran in place of the failed
    one's, when it runs none of the failed command's programs (what it does besides only
    looking, the last of each), else None (command_change names the words it changed).

    _change says it before the folder or the sandbox it also changed: a new user's card of
    `pytest: command not found` read `fix: ... cd ~/p && python3 -m unittest discover ...
    (changed: in ~/p)`, as if going into the folder had been the fix (nu47 finding 4, a
    Codex session of set 32: the folder was the session's own). The folder alone is what
    changed of a retry of the same program (`cd TP-Tutor && npm install`)."""
    mine, theirs = (
        [i for i in ran if i.program and not _looks(i)] or [i for i in ran if i.program]
        for ran in (intents(failed), intents(retry))
    )
    if not mine or not theirs or {i.program for i in mine} & {i.program for i in theirs}:
        return None
    return f"{_program_named(mine[-1])} → {_program_named(theirs[-1])}"


def _program_named(intent: Intent) -> str:
    """An intent's program as its command names it, with what runs it and its subcommand:
    `python3 -m unittest discover`, `npx prisma`, `git push`, `pytest`."""
    words = list(intent.words)
    at = next((n for n, word in enumerate(words) if _program_name(word) == intent.program), None)
    if at is None:
        return " ".join(w for w in (intent.program, intent.sub) if w)
    end = at + 1 + (intent.sub is not None and words[at + 1 : at + 2] == [intent.sub])
    return " ".join(words[:end])


def _pattern_change(failed: str | None, retry: str | None) -> str | None:
    """The words a text search's pattern took out and put in, when that is all its
    intent leaves out that changed (`rg -n "import runware" a.py`, then `rg -n "from
    runware" a.py`: `-import +from`; see _searched_reworded). The pattern is its first
    argument, though an option before it (`-n`) makes it read as that option's value."""
    for mine in segments(failed):
        program, args = _program(mine)
        if program not in _MATCHERS:
            continue
        rest = [a for a in args if a[:1] != "-"]
        for theirs in segments(retry):
            other, their_args = _program(theirs)
            their_rest = [a for a in their_args if a[:1] != "-"]
            if other != program or not rest or not their_rest or rest[0] == their_rest[0]:
                continue
            old, new = (_PATTERN_WORD.findall(words[0]) for words in (rest, their_rest))
            out = [w for w in old if w not in new]
            put = [w for w in new if w not in old]
            if out or put:
                return " ".join([*(f"-{w}" for w in out), *(f"+{w}" for w in put)])
    return None


_CODE_REWRITTEN = "its code rewritten"
_TEXT_REWRITTEN = "its quoted text rewritten"
_REWRITES = frozenset({_CODE_REWRITTEN, _TEXT_REWRITTEN})


# Cached: asked of the same two commands for each failure whose fix they are (262 times for
# 43 pairs at 200 MB), and each time it reads both commands' words again.
@functools.lru_cache(maxsize=4096)
def _rewritten(failed: str | None, retry: str | None) -> str | None:
    """How a retry changed what its words leave out, when they are the same: the inline code
    it runs (`python3 -c "..."`), or a quoted argument of its program (`rails runner "..."`:
    the query rewritten on each error, thirty-first held-out set). An option's quoted value
    (`git commit -m "..."`) says how, not what: its change is none."""
    pair = _shared_intent(failed, retry)
    if pair is None:
        return None
    if pair[0].code != pair[1].code:
        return _CODE_REWRITTEN
    if _quoted_arguments(failed, pair[0]) != _quoted_arguments(retry, pair[1]):
        return _TEXT_REWRITTEN
    return None


def _quoted_arguments(command: str | None, intent: Intent) -> list[str] | None:
    """The arguments of `intent` in `command` that its words leave out as messages (quoted
    text with spaces, or long), but for an option's value (None: not found)."""
    for words in segments(command):
        if intent in _intents(command, [words]):
            return [
                word
                for n, word in enumerate(words)
                if _is_message(word)
                and not (n and words[n - 1].startswith("-") and "=" not in words[n - 1])
            ]
    return None


def _keeps_change(failed: Call, past: Call, confirm: Call) -> bool:
    """Whether a shell command's confirmation still holds what an earlier retry changed of
    the failed one: the words it put in, none it took out, and outside the sandbox if that
    was it (a build run with escalated permissions, then also with `--offline`).

    Not when the confirmation rewrote the retry's inline code or quoted text again
    (_rewritten): its words leave that out, so they say nothing of what it kept, and each
    rewrite that got past its own error is that error's step (a data script rewritten on
    each of three errors, the last run confirming all three: thirty-seventh held-out set,
    labelled by the rewrite that came next)."""
    if _rewritten(past.command, confirm.command) is not None:
        return False
    before, retried, done = (set(_words(c.command or "")) for c in (failed, past, confirm))
    return (
        retried - before <= done
        and not (before - retried) & done
        and (confirm.escalated or not past.escalated)
        and folder_change(past, confirm) is None
    )


def _ran_again_beside(past: Call, confirm: Call) -> bool:
    """Whether a shell confirmation ran every command of an earlier retry as it was, in the
    same folder, and others beside them (`rm -rf x; cd ~/p && bun t.ts`, after `cd ~/p &&
    bun t.ts`)."""
    mine, theirs = set(intents(past.command)), set(intents(confirm.command))
    return (
        bool(mine)
        and mine < theirs
        and confirm.escalated == past.escalated
        and folder_change(past, confirm) is None
    )


def folder_change(failed: Call, retry: Call) -> str | None:
    """Where a shell retry ran, when not where the failed call did: `in app` (its tool's
    folder argument, then a `cd` of its command), `not in app` when it left one out."""
    there, here = _folders(failed), _folders(retry)
    if there == here:
        return None
    return f"in {here[-1]}" if here else f"not in {there[-1]}"


def _folders(call: Call) -> tuple[str, ...]:
    """The folders a shell call went into: its workdir, then each `cd` of its command."""
    words = _words(call.command or "")
    cds = [
        words[i + 1]
        for i, word in enumerate(words[:-1])
        if word == "cd" and (i == 0 or _is_operator(words[i - 1]))
    ]
    return tuple([call.workdir] if call.workdir else []) + tuple(cds)


def _path_change(old: str, new: str) -> str:
    """`old → new` from their common folder: `src → src/index.js`, `a/x.py → b/x.py`."""
    old, new = _unix(old), _unix(new)
    try:
        common = posixpath.commonpath([old, new]) if old and new else ""
    except ValueError:  # one absolute, one relative
        common = ""
    if common in (old, new):
        common = posixpath.dirname(common)
    start = len(common.rstrip("/")) + 1 if common else 0
    return f"{old[start:] or old} → {new[start:] or new}"


def settled(calls: Sequence[Call]) -> list[Call]:
    """The calls with each Codex command that was still running given the outcome of the
    poll that saw it end (see the module docstring).

    The exec_command that ran it takes that poll's outcome, and the poll, a success, is no
    call of its own (the exec_command is the step and the retry). A command whose end no
    poll saw confirms nothing but may still be a step (an install that went on, seen done
    by a later check); a poll of one still running is no call of its own. Every poll
    takes its exec_command's folder and sandbox, and an exec_command that a poll saw fail
    takes that poll's error (`outcome_of`).
    """
    found = list(calls)
    running: dict[str, int] = {}  # a command still running: its exec_command's index
    started: dict[str, Call] = {}  # the last exec_command of each command
    for n, call in enumerate(found):
        if call.name == "exec_command" and call.command:
            started[call.command] = call
            if call.running:
                running[call.command] = n
            else:
                running.pop(call.command, None)
        elif call.name in _POLLS and call.command in started:
            # a poll runs where its command does, as it was run (in or out of the sandbox):
            # a poll's retry was "changed" `with escalated permissions` and `in <folder>`
            # when only the exec_command's input said so (fifth held-out set, third)
            run = started[call.command or ""]
            call = found[n] = call._replace(workdir=run.workdir, escalated=run.escalated)
            if call.running or call.command not in running:
                continue
            at = running.pop(call.command or "")
            found[at] = found[at]._replace(
                failed=call.failed,
                running=False,
                outcome_of=call.tool_use_id if call.failed else None,
            )
            if not call.failed:
                found[n] = call._replace(failed=True)
    return [c._replace(failed=True) if c.running and c.name in _POLLS else c for c in found]


def _window(
    failed: Call,
    later: Sequence[Call],
    prompt_times: Sequence[str],
    again: Callable[[Call], bool] = lambda call: False,
) -> tuple[list[Call], str | None]:
    """The calls of a failure's window, and the prompt that ended it (None: the calls did).

    The window runs past PROMPTS_CROSSED prompts (subagents are not prompted): a "continue"
    or "try again" often comes in between. After a call the user rejected or stopped, the
    prompts typed before the agent's next call count as one: the turn is the user's, who
    may ask why and then say what to do instead (a Task stopped, then "why are you reading
    zsh settings?" and "respect my Fish shell preferences"). So do those after another call
    of the window the user rejected or stopped: `git status` outside a repository, then a
    question of what to commit, rejected, "can't it all be committed?" and "use a
    .gitignore and commit it all", then `git init` and `git status --short` (thirty-eighth
    held-out set, fixed). A retry that failed again
    on the same obstacle (`again`: rejected again, or with this error) starts the count
    anew: a commit the user rejected three times, each time saying what to change, then
    made (fourth held-out set: 3 such failures of 2 people). A retry that failed on
    something else does not: a Gemini edit the user cancelled, whose retry did not apply,
    was "fixed" by an edit of that file after the next task (the other agents' labels).
    Grouping every run of prompts was tried: a Codex session's eight questions and answers between a
    failure and the next task then counted as one, and a search of that task "worked
    around" a missing cargo (third held-out set)."""
    if failed.sidechain:
        return list(later), None
    # An edit whose text was not in the file is redone in its turn, by the agent: an edit of
    # the file after the user's next prompt is for what that prompt asked (six patches of
    # a file's headings "fixed" by the edit of a label the user then asked for: twenty-
    # second held-out set, a new user's try)
    crossing = 0 if failed.kind == "string_not_found" else PROMPTS_CROSSED
    crossed = 0
    since = failed.timestamp
    stopped = failed.kind in _STOPPED  # the turn after the anchor is the user's
    window: list[Call] = []
    for c in later:
        typed = _between(prompt_times, since, c.timestamp)
        if typed:
            count = 1 if stopped else len(typed)
            if crossed + count > crossing:
                return window, typed[min(crossing - crossed, len(typed) - 1)]
            crossed += count
            stopped = False
        since = c.timestamp
        if c.failed and _retry(failed, c) and again(c):
            crossed, stopped = 0, c.kind in _STOPPED
        elif c.kind in _STOPPED:
            stopped = True  # (another call the user rejected: the turn is theirs again)
        window.append(c)
    # the calls ran out: the window ends at the prompt after which no call of the agent
    # could still count (without a call after the failure, at the second prompt after it)
    typed = prompt_times[bisect.bisect_right(prompt_times, since) :]
    return window, next(iter(typed[crossing - crossed :]), None)


def _run_again(failed: Call, rest: Sequence[Call]) -> int | None:
    """Where, among the calls after a failure, the agent ran the failed command again as it
    was and it succeeded, having done nothing between but look and fail: what changed was
    done outside the session, by the user in their own terminal, and the prompts between were
    theirs about it ("check it", "done"). `git commit` could not lock a ref that root owned;
    the agent, without sudo, asked the user to chown it, looked twice as the user reported,
    and the same commit, now `&& git push`, went through; Git was not installed, the user
    installed it and restarted the shell, and the same `git init`, then `git config`, worked
    (thirty-sixth held-out set, 4 failures of 2 people, their windows closed by the prompts
    between). Its simple commands that do more than look are all the rerun's, word for word:
    a command changed may be another task's. A call that did more than look before it is the
    agent's own doing, and ends the search, unless it too ran again as it was a command that
    failed since (the `git init` before the `git config`: the same outside fix let both
    through); None: no such rerun."""
    if failed.name not in SHELL_TOOLS or not failed.command:
        return None
    mine = _acting_parts(failed.command)
    # (a heredoc's body is no word of its command: a commit's message is in it)
    bodies = [m.group(0) for m in _HEREDOC.finditer(failed.command)]
    failed_since: set[tuple[str, ...]] = set()
    for n, call in enumerate(rest):
        if call.failed or call.running:
            if call.name in SHELL_TOOLS:
                failed_since.update(_acting_parts(call.command))
            continue
        shell = call.name in SHELL_TOOLS
        theirs = {tuple(part) for part in segments(call.command)} if shell else set()
        if (
            shell
            and call.agent_id == failed.agent_id
            and mine <= theirs
            and all(body in (call.command or "") for body in bodies)
        ):
            return n
        if _acts(call) and not (shell and _acting_parts(call.command) <= failed_since):
            return None
    return None


def _not_let_through(
    fix: Fix, calls: Sequence[Call], same_error: Callable[[str], bool]
) -> list[Step]:
    """A fix's remedy without its steps that ran again, as they were, shell commands that had
    failed with this very error (`same_error(tool_use_id)`, among `calls`, in order): what
    let them through let the failure through too, so neither is the other's fix. Git was
    not installed; the user installed it and restarted the shell, and `git init`, `git config
    user.email` and `git config user.name`, all three refused (`The term 'git' is not
    recognized`), went through, run again as they were: the `git init` was shown as the fix
    of both `git config`s, the card's next words "Git still isn't being recognized"
    (thirty-sixth held-out set, labelled fixed outside the session, no step; a new user's
    try, nu41 finding 7; see _run_again). The confirmation itself stays a step when it is one:
    it is this failure's own retry, and its step says what it changed."""
    # (the confirmation, a step by what it changed, is this failure's own retry)
    steps = {step.tool_use_id for step in fix.remedy} - {fix.confirmed_by}
    refused: set[frozenset[tuple[str, ...]]] = set()  # (each command's acting parts)
    drop = set()
    for call in calls:
        if not steps:
            break  # (every step seen)
        if call.name not in SHELL_TOOLS:
            steps.discard(call.tool_use_id)
        elif call.tool_use_id in steps:
            steps.discard(call.tool_use_id)
            if refused and not call.failed and _acting_parts(call.command) in refused:
                drop.add(call.tool_use_id)
        elif call.failed and same_error(call.tool_use_id):
            refused.add(_acting_parts(call.command))
    return [step for step in fix.remedy if step.tool_use_id not in drop]


@functools.lru_cache(maxsize=4096)
def _acting_parts(command: str | None) -> frozenset[tuple[str, ...]]:
    """A command's simple commands that do more than look, each its words (all of them,
    when each only looks). Cached: _run_again and _not_let_through ask it of each shell call
    after a failure, for each failure whose window holds the call."""
    parts = frozenset(_segments(command or ""))
    acting = frozenset(
        part
        for part in parts
        if not all(_only_looks(i, command or "") for i in _intents(command, [list(part)]))
    )
    return acting or parts


def _between(times: Sequence[str], start: str, end: str) -> Sequence[str]:
    """The sorted `times` after `start` and before `end` (a session may have hundreds of
    prompts, and each failure's window asks of each of its calls)."""
    return times[bisect.bisect_right(times, start) : bisect.bisect_left(times, end)]


_EXIT_LINE = lazy(r"^(?:Exit code \d+|Process exited with code \d+|Output:)$")


# What the user said on rejecting a call, as Claude Code returns it to the agent (the
# session page's list of failures shows the words after it: queries.SESSION_FAILURES_SQL).
USER_SAID = "the user said:"
_SAID_WORD = lazy(r"\w{2,}")


def _said_otherwise(text: str, later: str) -> bool:
    """Whether two rejections each say what to change, and of other things (they share less
    than half the words of the shorter): each asked for its own change, and the edits made
    for the first came before the second (a plan rejected three times, each for a
    requirement the next plan added, then approved: fortieth held-out set, each labelled
    with its own edits). A second rejection that says more of the same change (`I dont use
    btop set that as super shift alt t instead`, then `super shift alt t should open btop`,
    the edit between having misread it) is the same obstacle, as one without words is."""
    if USER_SAID not in text or USER_SAID not in later:
        return False
    said, said_later = (
        {w.lower() for w in _SAID_WORD.findall(t.split(USER_SAID, 1)[1])} for t in (text, later)
    )
    return bool(said and said_later) and len(said & said_later) * 2 < min(
        len(said), len(said_later)
    )


# What the user's words on rejecting a call quote (`Use command "yarn test_webdb --grep=x"`):
# a command of two words or more, else a name. (An apostrophe in a word opens none: `don't`.)
_SAID_QUOTE = lazy(r"`([^`\n]+)`|\"([^\"\n]+)\"|(?<!\w)'([^'\n]+)'(?!\w)")
# A name in them: a path (`app/components/budget-table.ts`), a file's name (`config.fish`:
# signatures.FILE_EXTENSIONS), a name of code in camel or snake case (`BudgetSyncType`,
# `test_webdb`), none inside a longer word.
_SAID_NAME = lazy(
    r"(?<![\w./~-])(?:[~.]?/?[\w.-]+(?:/[\w.-]+)+"
    r"|[\w.-]*\w\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")"
    r"|[A-Za-z][A-Za-z0-9]*[a-z0-9][A-Z]\w*|[A-Za-z]\w*?_\w*[A-Za-z0-9])(?![\w-])"
)
# A path among those names: one from the root or home, or with a file's name at its end,
# or of three parts (not the `and/or` of a sentence).
_SAID_PATH = lazy(
    r"^(?:[~.]?/.*|.*\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")|[^/]+/[^/]+/.+)$"
)
# Their asking for the changes made to be undone (`Let's revert changes to those files`).
_SAID_UNDO = lazy(r"\b(?:revert|undo|roll ?back|restore|discard|put (?:it|them) back)\b", re.I)
# The git commands that put back a file's committed text.
_PUTS_BACK = frozenset({"checkout", "restore"})


@dataclass(frozen=True)
class _Said:
    """What the user's words on rejecting a call named to do instead (_said): the commands
    they quoted (each its program and first word), the other names they gave, and whether
    they asked for the changes to be undone."""

    commands: tuple[tuple[str, str | None], ...]
    names: tuple[str, ...]
    undo: bool


def _said(failed: Call, error: str) -> _Said | None:
    """What a call the user rejected with words (USER_SAID) was told to do instead: the
    commands those words quote and the names they give that the rejected call did not hold
    itself (a name it held is what was rejected, not what to do), and whether they say to
    undo. None when they name nothing (`Try again`, `No. Can you just dry up code`), or of a
    question (_QUESTIONS): Claude Code's words on one rejected to clarify quote it and give
    its answers (`Answer: PostgreSQL + docker-compose`), which the plan written next used, a
    talk with the user, not a fix (the real corpus, not a problem by its label)."""
    if failed.kind != "rejected" or failed.name in _QUESTIONS or USER_SAID not in error:
        return None
    words = error.split(USER_SAID, 1)[1]
    own = _said_text(failed)
    commands: list[tuple[str, str | None]] = []
    names: list[str] = []
    for m in _SAID_QUOTE.finditer(words):
        quoted = next(g for g in m.groups() if g is not None).strip()
        if len(quoted.split()) < 2:
            names.append(quoted)
            continue
        for intent in intents(quoted):
            first = next((w for w in intent.words[1:] if not w.startswith("-")), None)
            if intent.program != "cd" and not _runs_said(failed, (intent.program, first)):
                commands.append((intent.program, first))
    for m in _SAID_NAME.finditer(_SAID_QUOTE.sub(" ", words)):
        name = m.group(0).rstrip(".")
        if "/" not in name or _SAID_PATH.match(name):
            names.append(name)
    names = [n for n in names if len(n) >= 3 and not _names_word(own, n.lower())]
    undo = bool(_SAID_UNDO.search(words)) and failed.name in EDIT_TOOLS
    if not (commands or names or undo):
        return None
    return _Said(tuple(commands), tuple(dict.fromkeys(names)), undo)


def _said_text(call: Call) -> str:
    """What a call says of what it does, lower-cased: its command, path, pattern, address
    and the texts an edit writes."""
    written = [new for _, new in _edit_texts(call.input)] if call.name in EDIT_TOOLS else []
    parts = (call.command, call.file_path, call.pattern, call.url, *written)
    return "\n".join(part for part in parts if part).lower()


def _runs_said(call: Call, command: tuple[str, str | None]) -> bool:
    """Whether a shell call runs a command the user quoted: its program, with the first
    word given it (`yarn test_webdb` of `yarn test_webdb --grep="My test name"`)."""
    program, first = command
    return call.name in SHELL_TOOLS and any(
        i.program == program and (first is None or first in i.words[1:])
        for i in intents(call.command)
    )


def _follows_said(failed: Call, call: Call, said: _Said) -> str | None:
    """How a later call did what the user said on rejecting `failed` (_said), or None: it
    ran the command they quoted (FIXED: the call they gave in its place), or acted on a
    name they gave, or put back the rejected edit's file when they said to undo (WORKED
    AROUND: another way, theirs). A look acts on nothing, but of a rejected look.

    Claude Code returns the user's words on rejecting a call to the agent (2.1.x after
    REJECTED_SAID, 2.0.x alone): `Use command "yarn test_webdb --grep=..."`, then that run;
    `Should we reuse BudgetSyncType?`, then an edit of another file using it; `Let's revert
    changes to those files ... read that from application service:
    .../budget-table.ts`, then `git checkout` of them (a new user's held-out set, nu49: the
    three stored "declined", labelled fixed, worked around and worked around)."""
    if any(_runs_said(call, command) for command in said.commands):
        return FIXED
    if _only_looked(call) and not _only_looked(failed):
        return None
    if said.undo and call.name in SHELL_TOOLS and failed.file_path:
        for intent in intents(call.command):
            if intent.program == "git" and intent.sub in _PUTS_BACK and intent.flags <= {"--"}:
                if any(_same_path(_unix(failed.file_path), p) for p in _paths_of(intent)):
                    return WORKED_AROUND
    text = _said_text(call)
    if any(_names_word(text, name.lower()) for name in said.names):
        return WORKED_AROUND
    return None


def _got_further(text: str, later: str, key: str) -> bool:
    """Whether a later failure with this key line got further before it: every line the
    failed run printed before its key line, the later run printed too, in order, then more.
    A `quarto render` of 12 files failed on a missing references.bib at file 2, and, that
    file's path fixed, at file 4, then 5: each another file's error, fixed by the edit
    before it (fifth held-out set: the first two showed the last edit, of file 5)."""
    if len(key) < 12 or key not in text or key not in later:
        return False

    def before(output: str) -> list[str]:
        lines = (line.strip() for line in output[: output.index(key)].splitlines())
        return [line for line in lines if line and not _EXIT_LINE.match(line)]

    mine, theirs = before(text), before(later)
    return bool(mine) and len(theirs) > len(mine) and theirs[: len(mine)] == mine


# The kinds of a call the user rejected or stopped (signatures.classify).
_STOPPED = frozenset({"rejected", "interrupted"})
# The kind of a failure whose tool refused the call's input (signatures.classify).
_REFUSED_INPUT = "input_validation"
# The kinds of a call that never ran (cancelled with its sibling, or not run for want of
# leave: signatures' `undecided`): what its rerun failed on is what stood in its way
# (a flake8 run cancelled with its sibling, then run alone: flake8 was not installed; the
# install is the remedy, not an edit made before the rerun: seventeenth held-out set).
_NOT_RUN = frozenset({"sibling_error", "undecided"})
# A call cancelled because a call sent beside it failed (_cancelled_beside).
_CANCELLED = "sibling_error"
# A call its agent's tool did not run for want of leave to: auto mode's classifier down.
_UNDECIDED = "undecided"
# The kinds of a failed call that say nothing of how its command went: the user rejected or
# stopped it (Codex's `aborted by user`, its output's only words), it was cancelled with a
# sibling or not run for want of leave, or its tool refused its input. Such a retry got past
# no error, and confirms nothing (fix_of; _got_past_refusal, _left_sandbox, _found_now).
_UNFINISHED = frozenset({*_STOPPED, *_NOT_RUN, _REFUSED_INPUT})


def session_fixes(
    calls: Sequence[Call],
    prompts: Iterable[str],
    errors: dict[str, str],
    output: Callable[[str], str],
    key_line: Callable[[str], str] = lambda text: "",
    signature: Callable[[str], str] | None = None,
    done: Container[str] = (),
    failed_rules: list[tuple[str, Exception]] | None = None,
    answered: Mapping[str, str] | None = None,
    approved: Container[str] = (),
    only: Container[str] | None = None,
    input_of: Callable[[str], str | None] = lambda tool_use_id: None,
) -> Iterator[Fix]:
    """The fix of every failed call of one session.

    `calls` in order, `prompts` the timestamps of the prompts the user typed, `errors`
    the failures' texts by tool_use_id; `key_line` finds an error's key line and
    `signature` tells whether two failures are the same error (signatures.py). `done`:
    the edits whose text was not found because it was written already (already_made).
    `failed_rules`: when given, a rule that raises on one failure adds (its tool_use_id,
    the exception) there and that failure gets no fix; the others of the session do.
    `answered`: when each failure's result came back, by tool_use_id: a call made before
    then was sent beside it, not after its error was seen (see _sent_after).
    `approved`: the plans (ExitPlanMode) recorded as rejected that the user approved
    (approved_plan): each succeeded, a retry of the plans rejected before it, and is
    APPROVED.
    `only`: when given, the fixes of those failures alone (what unchanged_by_append did
    not keep: closed under the rules' reach from one failure to another).
    `input_of(tool_use_id)`: a failed call's input, where its Call holds none (the build
    reads an edit's only for the tools of inputs_read): asked only of the failed edits whose
    text may be in the file already (_shown_made), as the other rules take a call without
    its input for one whose input is not known.
    """
    if approved:
        yield from (Fix(c.tool_use_id, APPROVED) for c in calls if c.tool_use_id in approved)
        calls = [
            c._replace(failed=False, kind=None) if c.tool_use_id in approved else c for c in calls
        ]
        errors = {t: text for t, text in errors.items() if t not in approved}
    same = signature or key_line
    sig = functools.lru_cache(maxsize=None)(lambda tool_use_id: same(errors[tool_use_id]))
    key = functools.lru_cache(maxsize=None)(lambda tool_use_id: key_line(errors[tool_use_id]))

    def persists(failed: str, later: str) -> bool:
        """Whether a later failure still shows this one's error (its output can hold several)."""
        if _got_further(errors[failed], errors[later], key(failed)):
            return False
        if _said_otherwise(errors[failed], errors[later]):
            return False
        return sig(later) == sig(failed) or shows(failed, errors[later])

    def shows(failed: str, text: str) -> bool:
        """Whether a later output shows this failure's error: its key line, or a line of
        the same signature. Lines are compared by signature only where they hold the key
        line's longest word, so that a long test log costs a few signatures."""
        line = key(failed)
        if len(line) >= 12 and line in text:
            return True
        word = max(_WORD.findall(line), key=len, default="")
        if len(word) < 4 or not sig(failed):
            return False
        lines = text.splitlines()[:PERSIST_LINES]
        return any(same(other) == sig(failed) for other in lines if word in other)

    prompt_times = sorted(prompts)
    by_agent = _threads(calls)
    for thread, (own, pool) in by_agent.items():
        found: list[tuple[Call, Sequence[Call], Fix]] = []
        for i, call in enumerate(pool):
            if call.tool_use_id not in errors or (call.agent_id, call.sidechain) != thread:
                continue
            if only is not None and call.tool_use_id not in only:
                continue

            def again(later: Call, failed: Call = call) -> bool:
                """Whether a failed retry met this failure's obstacle again."""
                if failed.kind in _STOPPED:
                    return later.kind in _STOPPED
                seen = later.outcome_of or later.tool_use_id
                return seen in errors and persists(failed.tool_use_id, seen)

            def held_again(later: Call, failed: Call = call) -> bool:
                """Whether a failed retry found what it was to bring about held already, as
                this failure did (_already_so)."""
                seen = later.outcome_of or later.tool_use_id
                return again(later, failed) or (
                    seen in errors
                    and (
                        _held(later, errors[seen]) is not None
                        or _stopped_short(failed, errors[failed.tool_use_id], later, key(seen))
                    )
                )

            try:
                nexts = _next_calls(pool, i)
                at = (answered or {}).get(call.tool_use_id)
                # (whether it met its error before matters only for calls sent beside it)
                beside = bool(at) and bool(nexts) and nexts[0].timestamp < (at or "")
                met = _met_before(call, pool[:i], answered or {}, persists) if beside else None
                later = _sent_after(nexts, at, call, met)
                after, end = _window(call, later, prompt_times, again)
                text = errors.get(call.tool_use_id, "")

                def still_failing(later: str, failed: Call = call) -> bool | None:
                    if later not in errors:
                        return None
                    return failed.kind in _NOT_RUN or persists(failed.tool_use_id, later)

                guided = bool(after) and bool(
                    _between(prompt_times, call.timestamp, after[0].timestamp)
                )
                if call.tool_use_id in done:
                    others = [c.tool_use_id for c in after[:NEARBY_CALLS]]
                    fix = Fix(call.tool_use_id, ALREADY_DONE, others=others)
                else:
                    fix_in = functools.partial(
                        fix_of,
                        call,
                        error=text,
                        output=output,
                        key_line=key(call.tool_use_id),
                        still_failing=still_failing,
                        guided=guided,
                        key_of=lambda later: key(later) if later in errors else "",
                        shows_error=functools.partial(shows, call.tool_use_id),
                        # (read only by a file tool given a URL: not copied for the rest)
                        before=pool[:i] if _given_url(call) else (),
                    )
                    fix = fix_in(after)
                    rerun = _run_again(call, later) if end and fix.outcome == NOT_FIXED else None
                    if rerun is not None and rerun >= len(after):
                        # (run again as it was, past the prompts: see _run_again)
                        longer = list(later[: rerun + 1])
                        further = fix_in(longer)
                        if further.confirmed_by == longer[-1].tool_use_id:
                            fix, after = further, longer
                if fix.remedy:

                    def same_error(other: str, failed: Call = call) -> bool:
                        return other == failed.tool_use_id or (
                            other in errors and persists(failed.tool_use_id, other)
                        )

                    # (the calls beside it before it too: sent in one message)
                    fix.remedy = _not_let_through(fix, pool[max(0, i - NEARBY_CALLS) :], same_error)
                if fix.remedy and answered:
                    nearby = pool[max(0, i - NEARBY_CALLS) : i + NEARBY_CALLS + 1]
                    fix.remedy = _own_steps(
                        call, fix.remedy, fix.confirmed_by, nearby, after, answered
                    )
                main = by_agent[None, False][0] if (None, False) in by_agent else []
                if (
                    fix.outcome == NOT_FIXED
                    and own is not main
                    and (call.name in EDIT_TOOLS or _not_allowed_to_run(call))
                ):
                    parent = _by_the_parent(call, own[-1], main, prompt_times, text, output, key)
                    fix = parent or fix
                if fix.outcome == NOT_FIXED and _answered(call, text, pool[i + 1 :]):
                    fix.outcome = ANSWERED
                elif fix.outcome == NOT_FIXED and _already_so(
                    call, text, after, held_again, output, input_of
                ):
                    fix.outcome = ALREADY_SO
                moved = (
                    _written_elsewhere(call, after, input_of)
                    if fix.outcome == NOT_FIXED and call.kind in NOT_APPLIED
                    else None
                )
                if moved is not None:
                    # (that write is the whole way round: what came before it did not let
                    # the edit apply, or it would have been made there)
                    fix = _confirmed(
                        call,
                        after[:moved],
                        after[moved],
                        WORKED_AROUND,
                        text,
                        after[-1].timestamp,
                        start=moved,
                        key_line=key(call.tool_use_id),
                    )
                if end and not call.sidechain and not after:
                    fix.window_end = end
            except Exception as e:  # noqa: BLE001
                # a rule that fails on one failure loses that failure's fix, not its
                # session's (see `failed_rules`)
                if failed_rules is None:
                    raise
                failed_rules.append((call.tool_use_id, e))
                continue
            found.append((call, after, fix))
        missing = {
            call.tool_use_id: signatures.missing_program(key(call.tool_use_id))
            for call, _, _ in found
            if call.name in SHELL_TOOLS
        }
        rejected = {
            call.tool_use_id
            for call, _, _ in found
            if _declined(call, errors.get(call.tool_use_id, ""))
        }
        cancelled = {call.tool_use_id for call, _, _ in found if _cancelled_look(call)}
        for fix in _install_given_up(_taken_over(found, errors, persists), found, missing):
            if fix.outcome == NOT_FIXED and fix.tool_use_id in rejected:
                # (last: a later attempt's fix it took over was a fix, see _taken_over)
                fix.outcome = DECLINED
            elif fix.outcome == NOT_FIXED and fix.tool_use_id in cancelled:
                fix.outcome = CANCELLED
            yield fix


Thread = tuple[str | None, bool]  # (agent_id, sidechain)


def _threads(calls: Sequence[Call]) -> dict[Thread, tuple[list[Call], list[Call]]]:
    """The settled calls of each thread (by agent), and the calls its failures' windows are
    read from: its own, but for the main thread, which reads its subagents' calls as its own
    steps (_with_subagents)."""
    by_agent: dict[Thread, list[Call]] = {}
    ordered = settled(calls)
    for call in ordered:
        by_agent.setdefault((call.agent_id, call.sidechain), []).append(call)
    return {
        thread: (
            own,
            _with_subagents(ordered) if thread == (None, False) and len(by_agent) > 1 else own,
        )
        for thread, own in by_agent.items()
    }


def unchanged_by_append(
    calls: Sequence[Call],
    errors: Mapping[str, str],
    added: Container[str],
    prompts: Sequence[str],
    prompts_added: bool,
) -> set[str]:
    """The failures of a session that grew at its end whose fixes its new calls (`added`,
    each later than every old call, none a poll: see settled) and new prompts (later than
    every old call and prompt; `prompts`: the old ones, in order) cannot change: their
    stored rows stand (db.refresh_fixes).

    Of the calls after a failure, session_fixes reads its _next_calls (WINDOW_CALLS calls of
    its thread, its subagents' among them): its window and a rerun past it (_run_again),
    another failure's steps let through (_not_let_through), its siblings (_own_steps, the
    NEARBY_CALLS around it); and what came before it (_met_before), which an append leaves
    as it was. So a failure none of whose next calls is new is computed as before, but for:
    - a main thread's failure whose window may run out of calls: it then ends at the first
      or second prompt after its last call (_window), maybe a new one, unless
      PROMPTS_CROSSED + 1 old prompts came after its next calls;
    - a subagent's failed edit or refused command: the main thread's calls after the
      subagent's last one may fix it (_by_the_parent);
    - a git look that found no repository: a later `git init` or `git clone`, past its
      window too, says it was needed (_answered, _no_repository).
    One failure reads another's fix too: an earlier failure takes the fix of a later one in
    its window (_taken_over), and an install that of an earlier failure whose window it is
    in, confirmed within its own (_install_given_up); the later one is among the earlier
    one's next calls in both. So a thread's failures are kept or computed in runs, each
    failure among the next calls of the one before it: a run with one failure that may
    change is computed whole, each failure with the others' fixes as a full refresh has them.
    """
    kept: set[str] = set()
    for thread, (_, pool) in _threads(calls).items():
        run: list[str] = []
        run_changed = False
        reach: set[str] = set()  # the next calls of the run's last failure
        for i, call in enumerate(pool):
            if call.tool_use_id not in errors or (call.agent_id, call.sidechain) != thread:
                continue
            if run and call.tool_use_id not in reach:
                if not run_changed:
                    kept.update(run)
                run, run_changed = [], False
            nexts = _next_calls(pool, i)
            reach = {c.tool_use_id for c in nexts}
            changed = call.tool_use_id in added or any(c.tool_use_id in added for c in nexts)
            if thread != (None, False) and (call.name in EDIT_TOOLS or _not_allowed_to_run(call)):
                changed = True
            if _NO_REPOSITORY.search(errors[call.tool_use_id]):
                changed = True
            if prompts_added and not call.sidechain:
                last = (nexts[-1] if nexts else call).timestamp
                changed |= len(prompts) - bisect.bisect_right(prompts, last) <= PROMPTS_CROSSED
            run.append(call.tool_use_id)
            run_changed |= changed
        if run and not run_changed:
            kept.update(run)
    return kept


def _answered(failed: Call, error: str, later: Sequence[Call] = ()) -> bool:
    """Whether a failed shell call that nothing fixed only looked, and its failure was its
    answer: a search that found nothing (_found_nothing: `rg "\\[[A-Z_]+\\]" constitution.md`
    exits 1, no placeholder left), a probe of a program not installed (_only_probed: `which
    gh`), a look at a path not there (_gone: `ls .specify/templates/commands`, `cat
    README.md`), or one that said no word of why (_looked_quietly: `lsof -i :3001`, exit 1
    and nothing printed). The session went on from that answer; "not fixed" read as a dead end to a
    user (a new user's try, nu40 finding 6: a diagnostic whose last grep exited 1; over the
    held-out sets 30 to 39 and the real corpus, 117 of the 132 such failures are not a
    problem by their labels, 6 abandoned, 9 fixed or worked around, "unsure" most of them).
    A file tool's look (Read, Glob, Grep) is answered only where the path was optional:
    a guessed path is as often a file the agent needed (_looked_for_optional)."""
    if failed.name in READ_TOOLS | SEARCH_TOOLS:
        return _looked_for_optional(failed, error, later)
    if failed.name not in SHELL_TOOLS:
        return False
    return (
        _found_nothing(failed, error)
        or _found_despite(failed, error)
        or _only_probed(failed)
        or bool(_gone(failed, error))
        or _looked_quietly(failed, error)
        or _no_repository(failed, error, later)
        or _provoked(failed, error)
    )


def _declined(failed: Call, error: str = "") -> bool:
    """Whether a failure is the user's "no": a call they rejected (Claude Code's `The user
    doesn't want to proceed with this tool use`, Codex's `rejected by user`), which never
    ran, so that its "error" is their choice, and that nothing made again in its window (or
    it would be fixed). "fixed: no, nothing ... got past it" read as an error left open (a
    new user's try, nu44 finding 2: 19 of the 49 not a problem failures it said of were
    rejections). The labels call a rejection not a problem when the user meant it, abandoned
    when its goal was never reached (the session ending there, most "unsure"): the user
    saying no is what both saw, and the card says so, with what came next. Over real + sets
    30-40 the rejections nothing redid are 45 not a problem, 7 abandoned, 1 fixed (a look the
    user rejected to restore the tree himself, read after).

    So is a look the user stopped while it ran (`interrupted`) or denied in a subagent's
    permission prompt (`Permission for this tool use was denied. The tool use was
    rejected`: _USER_DENIED), that nothing looked again: a Read, a search, an Explore
    subagent, a shell command that only looks (_only_looked). The session went on from the
    user's say (over real + sets 30-40, 9 such failures stored "not fixed", each not a
    problem by its label: Reads and repo-wide greps stopped as the user ended the session,
    an Explore task stopped to say what was meant, a subagent's searches for an app the user
    then named himself; the last session's "Left / next"). Not another call stopped (a
    command may have hung: a `wl-copy` stopped, the session ending, is abandoned), nor one a
    setting or auto mode refused (`permission_denied` in their words): neither was only the
    user's choice."""
    if failed.kind == "rejected":
        return True
    stopped = failed.kind == "interrupted" or (
        failed.kind == "permission_denied" and _USER_DENIED.search(error) is not None
    )
    return stopped and _only_looked(failed)


def _cancelled_look(failed: Call) -> bool:
    """Whether a failure is a look its agent's tool cancelled because a call sent beside it
    failed (Claude Code's `Sibling tool call errored`, `Cancelled: parallel tool call
    Bash(...) errored`: kind sibling_error), which never ran: its "error" is its sibling's,
    and when nothing ran it again in its window (or it would be fixed) the session went on
    without it. A look only (_only_looked: a Read, a search, a shell command that only
    looks): a cancelled edit or command not made again may be work left undone. "Not fixed"
    read as an error left open; over real + sets 30-40 the cancelled looks nothing ran
    again are 4 not a problem (a Read of a second guessed template, of the memory index, a
    `docker inspect` and a `pacman -Qs` beside a failed look, each not needed since) and 1
    worked around (a `gh search repos` for a repository whose address the user then gave):
    that none ran is what a card can say of each."""
    return failed.kind == _CANCELLED and _only_looked(failed)


# Claude Code's words when the user denied a subagent's call at its permission prompt: its
# rejection's second sentence (not a setting's `Permission to use X has been denied`, nor
# the auto mode classifier's `Permission for this action was denied by ...`).
_USER_DENIED = lazy(r"Permission for this tool use was denied\. The tool use was rejected")
# The subagents of Claude Code that only read (its built-in Explore agent).
_LOOKING_AGENTS = frozenset({"Explore"})


# The home folder a path starts with (`~/`, `$HOME/`, `/home/me/`, `/Users/me/`, `/root/`,
# `C:/Users/me/`), as _unix writes it.
_HOME_START = lazy(
    r"^(?:~|\$HOME|\$\{HOME\}|/home/[^/]+|/Users/[^/]+|/root"
    r"|(?:[A-Za-z]:|/[a-z]|/mnt/[a-z])/Users/[^/]+)/"
)


def _looked_paths(call: Call) -> list[str]:
    """The paths a look names: a read tool's file, a shell look's paths."""
    if call.file_path:
        return [call.file_path]
    return [p for i in intents(call.command) for p in _paths_of(i)] if call.command else []


def _another_scope(failed: Call, call: Call) -> bool:
    """Whether a call only looks at another file of the same name than the one the failure
    was about, in the home folder where that one was the project's, or the other way round:
    `ls ~/.claude/settings.json` after `cat .claude/settings.json` found no such file is the
    user's settings, not the project's (_user_copy; a new user's try, ans41 finding 4: the fix,
    `-.claude/settings.json +~/.claude/settings.json`, and `worked around` by `ls -la` of
    it). Both are there to be had, one for all projects, one for this one (`.npmrc`,
    `.gitconfig`, `.env`, `.vscode/settings.json` alike), so the look at the one answers
    nothing of the other: neither a retry nor a step. A file looked for in the wrong folder
    of the project and read where it is (`src/x.ts`, then `lib/x.ts`) stays the fix."""
    if not _only_looked(call) or (failed.file_path is None and failed.command is None):
        return False
    mine = [_unix(p) for p in _looked_paths(failed)]
    theirs = [_unix(p) for p in _looked_paths(call)]
    if not mine or not theirs:
        return False
    for one in mine:
        for other in theirs:
            name = _basename(one)
            if not name or name != _basename(other) or _same_file(one, other):
                continue
            if _user_copy(one, other) or _user_copy(other, one):
                return True
    return False


def _user_copy(home: str, elsewhere: str) -> bool:
    """Whether `home` is the home folder's own settings file (a dot-file or a file in a
    dot-folder right under it: `~/.claude/settings.json`, `~/.npmrc`) of the path that
    `elsewhere` names in a project (`.claude/settings.json`, `/home/me/app/.npmrc`). A path
    of the home folder written two ways (`~/x`, `/home/me/x`) is one; a project's file read
    from the wrong root of it (`/home/me/packages/api/x.go`, then `/home/me/work/app/
    packages/api/x.go`) is no settings file, and the same file meant."""
    start = _HOME_START.match(home)
    if not start or not home[start.end() :].startswith("."):
        return False
    tail = home[start.end() :]
    if there := _HOME_START.match(elsewhere):
        elsewhere = elsewhere[there.end() :]
        return elsewhere != tail and elsewhere.endswith(f"/{tail}")
    return elsewhere.removeprefix("./") == tail or elsewhere.endswith(f"/{tail}")


# A name an error line quotes (`Cannot find module 'lodash'`, `open "config.yaml"`).
_QUOTED_SUBJECT = lazy(r"[\"'`‘“]([^\"'`‘’“”\s][^\"'`‘’“”\n]{0,199})[\"'`’”]")
# A file's name said bare (`cat: go.sum: No such file or directory`).
_FILE_SUBJECT = lazy(
    r"[\w.-]*\w\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")(?![\w-])", re.IGNORECASE
)
# The files that say what a program runs with (its packages, scripts, settings): a look at
# one is about a failure of that program (`cat package.json` of `npm test` failing).
_RUNS_WITH: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("npm", "npx", "yarn", "pnpm", "bun", "node", "deno"),
        ("package.json", "package-lock.json", "tsconfig.json"),
    ),
    **dict.fromkeys(
        ("python", "pip", "pip3", "uv", "poetry", "pytest"),
        ("pyproject.toml", "requirements.txt", "setup.py", "setup.cfg"),
    ),
    "cargo": ("Cargo.toml", "Cargo.lock"),
    "go": ("go.mod", "go.sum"),
    "mix": ("mix.exs", "mix.lock"),
    "bundle": ("Gemfile", "Gemfile.lock"),
    "composer": ("composer.json",),
    "make": ("Makefile",),
    "docker": ("Dockerfile", "docker-compose.yml", "compose.yaml"),
}
# Subjects too common to tell a look by (a folder named `.`, the home folder, a word of one
# letter).
_NO_SUBJECT = frozenset({".", "..", "~", "/", "*", "**"})


def _subjects(failed: Call, key_line: str, error: str = "") -> frozenset[str]:
    """What a failure is about, lower-cased: the failed call's file, the paths its command
    names and the programs it runs (not one that only looks: `cat`, `rg`, whose other looks
    are about their own files), the program a shell did not find, the paths and quoted names
    of its error's key line (`'lodash'` of `Cannot find module 'lodash'`) and the files its
    error names (a test's fixture in a failed run's log); each path whole and by its base
    name."""
    found: set[str] = set()

    def add(path: str) -> None:
        path = path.strip().strip("'\"").rstrip("/\\").lower()
        for name in (path, _basename(path)):
            if len(name) > 1 and name not in _NO_SUBJECT:
                found.add(name)

    if failed.file_path:
        add(failed.file_path)
    for intent in intents(failed.command) if failed.command else ():
        if intent.program and intent.program not in LOOK and intent.program != "cd":
            add(intent.program)
            for manifest in _RUNS_WITH.get(_PYTHON.sub("python", intent.program), ()):
                add(manifest)
        for path in _paths_of(intent):
            add(path)
    if missing := signatures.missing_program(key_line):
        add(missing)
    for path in signatures.named_paths(key_line):
        add(path)
    for m in _QUOTED_SUBJECT.finditer(key_line):
        add(m.group(1))
    for m in _FILE_SUBJECT.finditer(f"{key_line}\n{error[:_ABOUT_CHARS]}"):
        add(m.group(0))
    return frozenset(found)


def _about(
    call: Call, subjects: frozenset[str], output: Callable[[str], str] | None = None
) -> bool:
    """Whether a look is about a failure: its command, path or pattern names one of the
    failure's subjects (_subjects) as a word of its own (`npm ls lodash`, `git status` of a
    `git add` refused, a Read of the file that failed), or, for a look at a file, what it
    showed names its file or package (a Read of package.json that lists `lodash`). Codex
    reads files with shell commands (`sed -n 1,200p src/x.ts`, `rg -n ...`): every one of
    the ten calls before a fix was a `before:` line of its card, most of them the agent
    finding its way in the project, not looking into the failure (a new user's try, ans41
    finding 3); Claude Code's Reads and Greps alike."""
    said = " ".join(
        part for part in (call.command, call.file_path, call.pattern, call.url) if part
    ).lower()
    if any(_names_word(said, subject) for subject in subjects):
        return True
    if output is None or call.file_path is None:
        return False
    shown = output(call.tool_use_id)[:_ABOUT_CHARS].lower()
    return any(_names_word(shown, subject) for subject in subjects if "/" not in subject)


# How much of what a Read showed is read for a failure's subjects (_about).
_ABOUT_CHARS = 20_000


def _names_word(text: str, word: str) -> bool:
    """Whether `word` stands in `text` as a word of its own, not inside a longer name (`npm`
    in `pnpm`, `app.js` in `myapp.jsx`)."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        at = text.find(word, at + 1)
    return False


def _only_looked(call: Call) -> bool:
    """Whether a call only looked: a file tool's read or search, an Explore subagent, or a
    shell command each of whose simple commands only looks (_only_looks), inline code that
    only reads and prints (_reads_only) too."""
    if call.name in READ_TOOLS | SEARCH_TOOLS:
        return True
    if call.name in SPAWN_TOOLS:
        return _input_text(call.input, "subagent_type") in _LOOKING_AGENTS
    if call.name not in SHELL_TOOLS:
        return False
    command = call.command or ""
    mine = [i for i in intents(command) if i.program != "cd"]
    return bool(mine) and all(
        (_only_looks(i, command) or _reads_only(i))
        and not (i.program == "git" and i.flags & _REF_CHANGES.get(i.sub or "", frozenset()))
        for i in mine
    )


# The flags by which `git branch` and `git tag`, a list when given none, delete, move or set
# up what they name (`git branch -D x`: a Gemini CLI session's cancelled deletion, the real
# corpus, is no look).
_REF_CHANGES = {
    "branch": frozenset(
        "-d -D --delete -m -M --move -c -C --copy -f --force -u --set-upstream-to"
        " --unset-upstream --edit-description".split()
    ),
    "tag": frozenset("-d --delete -f --force -a -s -m -F".split()),
}


# The index of an agent's own memory (Claude Code's auto memory: `memory/MEMORY.md` in its
# project folder), which a session reads first and which is not there until one is saved.
_MEMORY_INDEX = lazy(r"(?:^|/)memory/MEMORY\.md$", re.IGNORECASE)


def _looked_for_optional(failed: Call, error: str, later: Sequence[Call] = ()) -> bool:
    """Whether a file tool's look (Read, Glob, Grep) at a path not there, that nothing fixed,
    only asked whether it was there, as the shell's look does (_gone): a hidden file,
    optional by its kind (`.env`, `.env.local`, `~/.bash_profile`, an installer's
    `.checkpoint`), the agent's memory index (`memory/MEMORY.md`), or a file the agent then
    wrote itself within NEARBY_CALLS (a README or memory index read before writing it anew).
    The session went on from "not there" (a new user's try, nu44 finding 2: 49 of 111 not a
    problem failures said "fixed: no", 11 of them such Reads; over real + sets 30-40, 15
    Reads are answered so, each not a problem by its label). Not a guessed name of a file
    the agent needed: a prompt config, a plan a command named, a source file
    (`organization/FAMILIAR.md`, `memory/x_migration.md` written 40 calls later), which
    labels call abandoned (6 of them)."""
    path = _unix(failed.file_path or "")
    if not path or not _says_missing(error) or failed.kind in _STOPPED:
        return False
    name = _basename(path)
    if name.startswith(".") or _MEMORY_INDEX.search(path):
        return True
    return any(
        c.name in EDIT_TOOLS and not c.failed and _same_file(c.file_path, failed.file_path)
        for c in later[:NEARBY_CALLS]
        if (c.agent_id, c.sidechain) == (failed.agent_id, failed.sidechain)
    )


# git's words for a folder with no repository, or one with no commit yet (`git log` in a
# repository made before the first commit: `your current branch 'main' does not have any
# commits yet`, the agent going on to make it; thirty-second held-out set, not a problem).
_NO_REPOSITORY = lazy(r"not a git repository|does not have any commits yet")


def _no_repository(failed: Call, error: str, later: Sequence[Call]) -> bool:
    """Whether a git look (`git status`, `git log`) found no repository where it ran, or
    one with no commit yet (_NO_REPOSITORY): the folder has none, its answer (an orientation
    `git status` at the start of a Codex build, the agent going on without one: thirty-first
    held-out set, not a problem; nu42 finding 7). Not when a `git init` or `git clone` among
    the agent's `later` calls made one, past the window too: the repository was needed (a
    commit skill's `git status` in a home folder, the user's say, then `git init`:
    thirty-eighth held-out set, fixed)."""
    command = failed.command or ""
    mine = intents(command)
    return (
        bool(_NO_REPOSITORY.search(error))
        and any(i.program == "git" for i in mine)
        and all(_only_looks(i, command) for i in mine)
        and not any(
            i.program == "git" and i.sub in {"init", "clone"}
            for c in later
            if c.name in SHELL_TOOLS and not c.failed
            for i in intents(c.command)
        )
    )


# The last line of a traceback: the exception raised, and its message.
_RAISED_LAST = lazy(r"^(?:[\w.]+\.)?(\w+(?:Error|Exception)):\s*(.+)$", re.MULTILINE)
# A word of a message that a check of it may quote (`read-only`, `database`).
_MESSAGE_WORD = lazy(r"[A-Za-z][A-Za-z-]{4,}")


def _provoked(failed: Call, error: str) -> bool:
    """Whether inline code met the failure it was written to provoke: it catches the
    exception the traceback ends with (`except RuntimeError`, `pytest.raises(...)`,
    `assertRaises(...)`) and quotes a word of its message (a script that makes a database
    file read-only to see the new check refuse it, `assert 'read-only' in str(exc)`, the
    RuntimeError raised before its `try`: "The detection works", thirty-first held-out set,
    not a problem; nu42 finding 7)."""
    raised = _RAISED_LAST.findall(error)
    code = "\n".join(i.code for i in intents(failed.command) if i.code)
    if not raised or not code:
        return False
    name, message = raised[-1]
    caught = re.search(
        rf"\bexcept\s*\(?[\w., ]*\b{name}\b|\b(?:raises|assertRaises\w*)\(\s*[\w.]*\b{name}\b",
        code,
    )
    quoted = " ".join(m.group(1) for pattern in _IN_QUOTES for m in pattern.finditer(code))
    return caught is not None and any(
        word.lower() in quoted.lower() for word in _MESSAGE_WORD.findall(message)
    )


def _looked_quietly(failed: Call, error: str) -> bool:
    """Whether a failed shell call only looked and said no word of why: its status was its
    answer. Either it printed nothing but its status, whether its errors were sent away
    (`ls specs 2>/dev/null`, exit 1: no spec folder yet) or it wrote none (`lsof -i :3001`:
    nothing holds the port; `Get-Process POWERPNT -ErrorAction SilentlyContinue`: not
    running; `git config credential.helper`: not set), or, its errors sent away, it printed
    what its other looks found and no line of an error (`ls lib/; ls consts/ 2>/dev/null`,
    exit 1: no consts folder; PowerShell's `Get-ChildItem src/app/order 2>$null`). Inline
    code that only reads (_reads_only) is such a look only with its errors sent away: a
    probe that hides why it failed asked for its status alone (`python3 -c "from x import
    y; print(y.z)" 2>/dev/null`). Over the held-out sets 32 to 40, 9 such looks were "not
    fixed", each not a problem by its label ("a look whose non-zero exit is the answer"):
    the session went on from it."""
    command = failed.command or ""
    mine = intents(command)
    quiet = bool(_NOTHING_BUT_STATUS.match(error))
    sent = bool(_ERRORS_DROPPED.search(command))
    # (not a call that never ran or was stopped: a rejection's words are no error's either)
    return (
        bool(mine)
        and failed.kind not in _UNFINISHED
        and (
            quiet
            or (sent and bool(_RAN_TO_STATUS.match(error)) and not signatures.says_error(error))
        )
        and all(_only_looks(i, command) or (sent and _reads_only(i)) for i in mine)
    )


# A failure's first line, when its command ran and exited so: not one its agent's tool did
# not run (`ls in '/.dockerenv' was blocked`, a look Claude Code refused outside the working
# folder, then done another way: thirty-seventh held-out set, worked around).
_RAN_TO_STATUS = lazy(r"\s*Exit code \d+\n")
# A command's errors thrown away, not shown with its output as `2>&1` does: `2>/dev/null`,
# `&>/dev/null`, cmd's `2>nul`, PowerShell's `2>$null` and `-ErrorAction SilentlyContinue`.
_ERRORS_DROPPED = lazy(
    r"(?:^|[\s;|&(])[2&]>\s*(?:/dev/null|\$null|nul)\b"
    r"|-(?:ErrorAction|ea)\s+(?:SilentlyContinue|Ignore|0)\b",
    re.IGNORECASE,
)


def _maker(intent: Intent) -> bool:
    """Whether a simple command makes a thing by a name it is given: a folder (`mkdir`, not
    `-p`, which is quiet when it is there), a link, a branch, tag, remote or worktree, a
    container network or volume, a database or user."""
    if intent.program == "git":
        made = {"branch", "tag", "remote", "worktree"}
        return intent.sub in made or (
            intent.sub in {"checkout", "switch"} and bool(intent.flags & {"-b", "-B", "-c"})
        )
    if intent.program in _CONTAINERS:
        return intent.sub in {"network", "volume"} and "create" in intent.args
    return intent.program in {"mkdir", "ln", "createdb", "createuser", "useradd", "groupadd"}


# The failures that say the state a command was to bring about already held, each with the
# simple commands it is of: a file to remove not there (`rm: x: No such file or directory`,
# `git rm --cached` of what is not tracked), a process to stop not running (`pkill` exits 1
# and says nothing, `kill: (12) - No such process`, `taskkill: process "12" not found`), a
# thing to make there already (`mkdir: x: File exists`, `fatal: a branch named 'x' already
# exists`), a service to start running already, a copy onto the file itself (`cp: 'a' and
# 'b' are the same file`), a commit of changes committed already, an edit that changes
# nothing (`old_string and new_string are exactly the same`).
_ALREADY_SO: tuple[tuple[Callable[[Intent], bool], re.Pattern[str]], ...] = (
    (
        lambda i: i.program in _REMOVERS or i.program.lower() == "remove-item",
        # (the remover's own words: not a look's after it, `rm x; ls x`)
        lazy(
            r"^(?:rm|rmdir|unlink): .*No such file or directory"
            r"|Cannot find path .* because it does not exist",
            re.MULTILINE,
        ),
    ),
    (lambda i: i.program == "git" and i.sub == "rm", lazy(r"pathspec .* did not match any file")),
    (
        lambda i: i.program in {"pkill", "killall"},
        # (pkill says nothing; killall, `x: no process found` or macOS's `No matching
        # processes belonging to you were found`)
        lazy(
            r"\A\s*(?:Exit code 1)?\s*"
            r"(?:[^\n]*(?:no process found|No matching processes)[^\n]*)?\s*\Z"
        ),
    ),
    (lambda i: i.program == "kill", lazy(r"No such process")),
    (lambda i: i.program.lower() == "taskkill", lazy(r'process "[^"\n]*" not found')),
    (_maker, lazy(r"File exists|already exists")),
    (lambda i: not _looks(i), lazy(r"\b(?:is )?already running\b", re.IGNORECASE)),
    (lambda i: i.program in {"cp", "mv", "install"}, lazy(r"are the same file")),
    (
        lambda i: i.program == "git" and i.sub == "commit",
        lazy(r"nothing to commit|no changes added to commit|nothing added to commit"),
    ),
)
_EDIT_CHANGES_NOTHING = lazy(r"No changes to make: old_string and new_string are exactly the same")


def _already_so(
    failed: Call,
    error: str,
    after: Sequence[Call],
    held_again: Callable[[Call], bool],
    output: Callable[[str], str] = lambda tool_use_id: "",
    input_of: Callable[[str], str | None] = lambda tool_use_id: None,
) -> bool:
    """Whether a failed call that nothing fixed was to bring about what already held (see
    _ALREADY_SO: `rm README.md.bak` of a file an earlier `rm` took, `pkill -f x` with no x
    left, `git rm --cached` of files not tracked, `cp` onto the stow link of the file
    itself, a start of a service running already), and the session went on without
    redoing it (a later call of that intent that did not find it so again: `held_again`)
    or undoing what held (a later removal or stop of what it names). "Not fixed" read as a
    dead end to a user (a new user's try, nu40 finding 6; over the held-out sets 30 to 39,
    7 such failures, each not a problem by its label, no other row moved; a later chain
    that failed before it got to that intent redid nothing: _stopped_short). An edit that could not
    apply to the file as it was, whose text a look at the file soon after showed there
    already (_shown_made), is so too."""
    if failed.name in EDIT_TOOLS:
        # (not when that file was edited after it: a real change, or the edit put right)
        edited = [
            c for c in after if c.name in EDIT_TOOLS and _same_file(c.file_path, failed.file_path)
        ]
        if _EDIT_CHANGES_NOTHING.search(error):
            return not edited
        # (an edit of it that could not apply either changed nothing: the same text tried
        # again before the look that showed it there)
        return not any(not c.failed or c.kind not in NOT_APPLIED for c in edited) and _shown_made(
            failed, after, output, input_of
        )
    intent = _held(failed, error)
    if intent is None:
        return False
    removes = _undoes(intent) or intent.program in _REMOVERS | _KILLERS
    for later in after:
        if later.name not in SHELL_TOOLS:
            continue
        for other in intents(later.command):
            if _same_intent(intent, other):
                if not held_again(later):
                    return False
            elif (
                not removes
                and (_undoes(other) or other.program in _REMOVERS | _KILLERS)
                and intent.args & other.args
            ):
                return False  # what held undone (`git branch -D x` after `git checkout -b x`)
    return True


def _stopped_short(failed: Call, error: str, later: Call, key_line: str) -> bool:
    """Whether a later `a && b && c` that failed (its key line `key_line`) stopped before
    the part that would have redone what `failed` found held already (_held): it never ran,
    so it redid nothing. `git add docs/prd.json && git commit` said `no changes added to
    commit` (the change was committed already), then `git add api-gateway && git add
    docs/prd.json && git commit` failed at its first `git add` (`pathspec 'api-gateway' did
    not match`), and `git status` showed the tree clean: not a problem by its label, "not
    fixed" as the commit was taken for redone (thirty-fifth held-out set, a new user's trial
    nu47 finding 2)."""
    intent = _held(failed, error)
    found = _chain_failure(later.command, key_line) if intent is not None else None
    if intent is None or found is None:
        return False
    chain, failing = found
    return not any(_same_intent(intent, i) for part in chain[: min(failing) + 1] for i in part)


# The failures of an edit that could not apply to the file as it then was: its text to replace
# not found (an apply_patch's lines too), or the file not read, or changed since it was.
NOT_APPLIED = frozenset({"string_not_found", "not_read"})
# A line number a look printed before each line of a file: the Read tool's (`    12\t`,
# `    12→`), `nl`'s, grep's (`12:`, `a.py:12:`).
_LINE_NUMBER = lazy(r"^(?:\s*\d+(?:\t|→)|(?:[^\s:]+:)?\d+[:-])", re.MULTILINE)
# The shortest text an edit writes that a look of its file showing it is taken for it there:
# a few letters may be anywhere.
_SHOWN_MIN = 8


def _shown_made(
    failed: Call,
    after: Sequence[Call],
    output: Callable[[str], str],
    input_of: Callable[[str], str | None] = lambda tool_use_id: None,
) -> bool:
    """Whether an edit that could not apply to the file as it was (its text not found, the
    file not read or changed since: NOT_APPLIED) had nothing left to do: looks at that
    file soon after (a Read of it, a shell look naming it: `head -30 x.ts`, `grep -n word
    x.md`; within NEARBY_CALLS) show every text it was to write (_made_texts), and not the
    text it was to replace unless what it writes holds that (an insertion after it). The
    work was done already: by another writer (a linter, the user, a stow link's other
    path), or by hand before. Over real + sets 30-40, 7 such failures, each not a problem by
    its label ("the file already had what the edit would have written"): a renamed word
    (thirty-third held-out set, a grep of it), imports an outside writer had fixed (thirty-
    fifth, `head -30`), Writes of files that held that text (thirty-fifth, each read next),
    a bind in a stow link's target (thirty-eighth), an apply_patch's lines taken out
    already (thirty-third, `sed -n` of them). Not an edit of a text found nowhere (a
    deletion whose result is an empty text), nor one of which a look shows only part."""
    if failed.kind not in NOT_APPLIED or not failed.file_path:
        return False
    made = _made_texts(failed.input or input_of(failed.tool_use_id))
    if not made:
        return False
    name = _basename(failed.file_path)
    shown = [
        output(c.tool_use_id)
        for c in after[:NEARBY_CALLS]
        if not c.failed
        and (
            (c.name in READ_TOOLS and _same_file(c.file_path, failed.file_path))
            or (
                c.name in SHELL_TOOLS
                and name in (c.command or "")
                and all(_only_looks(i, c.command or "") for i in intents(c.command))
            )
        )
    ]
    text = _LINE_NUMBER.sub("", "\n".join(shown))
    return bool(text) and all(
        len(new) >= _SHOWN_MIN and new in text and (old is None or old in new or old not in text)
        for old, new in made
    )


# Of the lines an edit was to write, how many (at least) and what share another file's
# write must hold for it to have been written there instead (_written_elsewhere): a few
# lines may be any file's (imports, a closing brace).
_MOVED_LINES = 3
_MOVED_SHARE = 0.8


def _written_elsewhere(
    failed: Call,
    after: Sequence[Call],
    input_of: Callable[[str], str | None] = lambda tool_use_id: None,
) -> int | None:
    """Where, in its window, an edit that could not apply (NOT_APPLIED: not read yet, its
    text not found) and that no edit of its file made after was written into another file
    instead: the first edit of another file, within ANOTHER_WAY_CALLS, that writes most of
    the lines it was to write (_MOVED_SHARE of its lines of _SHOWN_MIN characters or more,
    at least _MOVED_LINES of them). A hook Written, Edited and MultiEdited four times into
    `useTodos.ts`, each refused as not read yet (a parallel agent had made the file), then
    written whole into a new `useSimpleTodos.ts` that the page was pointed at (the real
    corpus: 4 failures, worked around). An edit of the file that applied later is its fix
    (the same change made in a sibling file first is no way round it: thirtieth held-out
    set, 10 `*-auth.yaml` edits refused as not read, then made in each after its Read).
    Asked only of failures nothing else fixed; the edits' inputs are read here when the
    build did not read them (input_of)."""
    if failed.name not in EDIT_TOOLS or not failed.file_path:
        return None
    if any(
        not c.failed and c.name in EDIT_TOOLS and _same_file(c.file_path, failed.file_path)
        for c in after
    ):
        return None
    others = [
        n
        for n, c in enumerate(after[:ANOTHER_WAY_CALLS])
        if not c.failed and c.name in EDIT_TOOLS and c.file_path and not c.running
    ]
    if not others:
        return None
    lines = {
        line.strip()
        for _, new in _made_texts(failed.input or input_of(failed.tool_use_id))
        for line in new.splitlines()
        if len(line.strip()) >= _SHOWN_MIN
    }
    if len(lines) < _MOVED_LINES:
        return None
    for n in others:
        call = after[n]
        written = {
            line.strip()
            for _, new in _made_texts(call.input or input_of(call.tool_use_id))
            for line in new.splitlines()
        }
        if len(lines & written) >= _MOVED_SHARE * len(lines):
            return n
    return None


def _made_texts(input_json: str | None) -> list[tuple[str | None, str]]:
    """The (before, after) texts of an edit, each stripped: an Edit's (and each of a
    MultiEdit's) old and new text, a Write's (None, its content), and each hunk of a Codex
    patch: its context and `-` lines, its context and `+` lines (of a file it adds, None and
    its lines)."""
    found = [
        (None if old is None else old.strip(), new.strip()) for old, new in _edit_texts(input_json)
    ]
    patch = _input_text(input_json, "input")
    if not patch.lstrip().startswith("*** Begin Patch"):
        return found
    hunk: tuple[list[str], list[str]] | None = None
    added = False
    for line in [*patch.splitlines(), "*** End"]:
        if line.startswith(("@@", "*** ")):
            if hunk is not None and any(hunk):
                before, now = ("\n".join(side).strip() for side in hunk)
                found.append((None if added else before, now))
            hunk = ([], [])
            if line.startswith("*** "):
                added = line.startswith("*** Add File:")
            continue
        if hunk is not None:
            sign, rest = line[:1], line[1:]
            if sign in {" ", "-", ""}:
                hunk[0].append(rest)
            if sign in {" ", "+", ""}:
                hunk[1].append(rest)
    return found


def _held(failed: Call, error: str) -> Intent | None:
    """The simple command of a failed shell call whose failure says that what it was to bring
    about already held (_ALREADY_SO), when it failed last: those after it in its `&&` chain
    never ran, unless they only look."""
    if failed.name not in SHELL_TOOLS:
        return None
    mine = intents(failed.command)
    for n in range(len(mine) - 1, -1, -1):
        if any(says.search(error) and of(mine[n]) for of, says in _ALREADY_SO):
            return mine[n] if all(_looks(i) for i in mine[n + 1 :]) else None
    return None


# How much of a failure's output is read for the names it quotes (see _taken_over).
_NAMED_MAX = 2000


def _taken_over(
    found: Sequence[tuple[Call, Sequence[Call], Fix]],
    errors: Mapping[str, str],
    persists: Callable[[str, str], bool],
) -> list[Fix]:
    """The fixes of a thread's failures, each failure that nothing fixed given the fix of its
    next attempt when that failed with another error (it got past this one) and was then
    fixed, within this failure's window: that attempt and its fix are one way through both.
    The next attempt is a retry, or the command again with the name its error quoted set
    right (`npm install -g @google/generative-ai-cli`, 404, then `npm install -g
    @google/gemini-cli` failing on EACCES, then the same with sudo: thirty-sixth held-out
    set, labelled fixed by the sudo install; see _renamed: the words its output quotes, in
    its first _NAMED_MAX characters, npm's 404 naming the package below its key line).
    `Get-Content check_v4.ps1 -Raw | powershell -Command -` broke the script's lines; the
    same script through `Invoke-Expression` then failed on a variable reference the first
    error had shown too; check_v4b.ps1, written anew, then ran (thirty-third held-out set,
    the first part: the first card said "not fixed"). Only when nothing but looks came
    before that attempt: what the agent did first would be this failure's own remedy.
    `persists(failed, later)`: whether a later failure still shows this one's error."""
    fixes_of = {fix.tool_use_id: fix for _, _, fix in found}
    for failed, after, fix in reversed(found):  # (a chain's later links first)
        if fix.outcome != NOT_FIXED:
            continue
        for call in after:
            if call.kind in _NOT_RUN:
                continue  # (cancelled beside it, or refused: it never ran, so got past nothing)
            seen = call.outcome_of or call.tool_use_id
            if (
                call.failed
                and seen in errors
                and (
                    _retry(failed, call)
                    or failed.name in SHELL_TOOLS
                    and call.name in SHELL_TOOLS
                    and _renamed(
                        failed, call, _quoted_words(errors[failed.tool_use_id][:_NAMED_MAX])
                    )
                )
            ):
                if _said(call, errors[seen]) is not None:
                    # (rejected with words that said what to do instead: what followed was
                    # the user's say, not a way through this failure; an Edit of a file not
                    # read, read, its redo rejected with "revert changes to those files",
                    # then a git checkout: abandoned by nu49's label)
                    break
                if persists(failed.tool_use_id, seen) or folder_change(failed, call):
                    # (or in another folder, as far as its commands tell: `npm run build`
                    # of another package failing on its own missing module got past
                    # nothing of this one's, whose build was abandoned: a new user's try,
                    # session 35, set 35's label)
                    break
                later = fixes_of.get(call.tool_use_id)
                if (
                    later is not None
                    and later.outcome in CLAIMS_FIX
                    and any(c.tool_use_id == later.confirmed_by for c in after)
                ):
                    fix.outcome, fix.confirmed_by = later.outcome, later.confirmed_by
                    fix.confirmed_at, fix.remedy = later.confirmed_at, list(later.remedy)
                    fix.others, fix.window_end = list(later.others), later.window_end
                    confirm = next(c for c in after if c.tool_use_id == later.confirmed_by)
                    # the confirmation's change, as a step, is what it changed of this
                    # failure, not of the attempt it took the fix of: the 404's card said
                    # `changed: +sudo`, the EACCES's change, and not the name set right.
                    # When the two share too little for one change (a name replaced and a
                    # wrapper put in front), the attempt's change, then the confirmation's.
                    change = _change(failed, confirm) or "; ".join(
                        part
                        for part in (_change(failed, call), _change(call, confirm))
                        if part is not None
                    )
                    fix.remedy = [
                        replace(step, change=change or step.change)
                        if step.tool_use_id == confirm.tool_use_id and step.change
                        else step
                        for step in fix.remedy
                    ]
                break
            if not call.failed and _acts(call):
                break
    return [fix for _, _, fix in found]


def _install_given_up(
    fixes: list[Fix],
    found: Sequence[tuple[Call, Sequence[Call], Fix]],
    missing: Mapping[str, str | None],
) -> list[Fix]:
    """The fixes of a thread's failures, each failed install that nothing fixed given the
    fix of an earlier failure whose program the shell did not find and that it was to
    install, when that fix was confirmed within the install's window: the install was a
    step towards that failure's goal, and what reached it without the program reached the
    install's too. `sqlite3: command not found`, then `sudo apt-get install -y sqlite3`
    refused (sudo asked for a password), then a Write of init-db.mjs, `npm install sql.js`
    and `node init-db.mjs`, which did with sql.js what sqlite3 was to do (thirty-fourth
    held-out set, both labelled worked around; the install's card said "not fixed", a new
    user's try, nu42 finding 4). Worked around even when that failure was fixed: the
    program came by another way than the install (`sudo apt install -y cmake ...` refused,
    the user installed cmake by hand and the configure ran: thirty-sixth held-out set,
    labelled worked around). `missing`: the program each failure's key line says the
    shell did not find (signatures.missing_program)."""
    for n, (install, after, fix) in enumerate(found):
        if fix.outcome != NOT_FIXED or install.name not in SHELL_TOOLS:
            continue
        window = {c.tool_use_id for c in after}
        earlier = next(
            (
                other
                for failed, _, other in reversed(found[:n])
                if (program := missing.get(failed.tool_use_id))
                and other.outcome in CLAIMS_FIX
                and other.confirmed_by in window
                and _installs(install, program)
            ),
            None,
        )
        if earlier is not None:
            fix.outcome, fix.confirmed_by = WORKED_AROUND, earlier.confirmed_by
            fix.confirmed_at = earlier.confirmed_at
            fix.remedy = [step for step in earlier.remedy if step.tool_use_id in window]
            fix.others, fix.window_end = list(earlier.others), earlier.window_end
    return fixes


# The tools by which Claude Code's main agent starts a subagent (Task, renamed Agent in 2.1).
SPAWN_TOOLS = frozenset({"Task", "Agent"})


def _with_subagents(calls: Sequence[Call]) -> list[Call]:
    """The main thread's calls, each Task followed by the calls its subagents made before the
    main thread's next call (in order of time: the main agent waits for its subagents).

    A failure of the main thread may be fixed by a subagent it asked to: `npm start` failed
    with `createLogger is not a function`, a Task "Fix logger imports" read index.ts and
    edited it twice, and the next `npm start` got past the error (sixteenth held-out set:
    2 failures; the card showed no step). A subagent run in the background, whose calls
    come after the main thread's next one, is not counted.
    """
    found: list[Call] = []
    spawning = False
    for call in calls:
        if call.agent_id is None and not call.sidechain:
            found.append(call)
            spawning = call.name in SPAWN_TOOLS
        elif spawning:
            found.append(call)
    return found


def _sent_after(
    calls: Sequence[Call],
    answered: str | None,
    failed: Call | None = None,
    met: str | None = None,
) -> Sequence[Call]:
    """The calls made once a failure's result had come back (`answered`): those made before
    were sent in the same turn, beside the failed call, and neither redo it nor answer its
    error (a Task sent beside a Task refused for want of a prompt was its card's fix, where
    the real retry came later: a new user's try, session 28). But for a retry of `failed`
    sent once the agent had met its error already (`met`: see _met_before): that one
    answers the error, met twice."""
    if not answered or not calls or calls[0].timestamp >= answered:
        return calls
    return [
        c
        for c in calls
        if c.timestamp >= answered
        or (met is not None and failed is not None and c.timestamp >= met and _retry(failed, c))
    ]


def _met_before(
    failed: Call,
    before: Sequence[Call],
    answered: Mapping[str, str],
    persists: Callable[[str, str], bool],
) -> str | None:
    """When the agent had seen a failure's error before it sent the failed call: the result
    of the last earlier call of its thread that failed with it and came back first (None: it
    had not). A retry sent beside the failed call after that answers that error, this one's
    too: two `qzcli logs --tail 300` processes (`--raw`, `--json`) polled, the first poll's
    `Read timed out`, then, in one turn, the second's poll (timing out the same) and a new
    `--tail 80 --raw` run, whose poll printed the log (thirty-eighth held-out set, fixed; only
    the first timeout was, as the new run was sent before the second's result)."""
    sent = failed.timestamp
    for earlier in reversed(before[-NEARBY_CALLS:]):
        seen = answered.get(earlier.tool_use_id)
        if (
            seen is not None
            and seen <= sent
            and (earlier.agent_id, earlier.sidechain) == (failed.agent_id, failed.sidechain)
            and persists(earlier.tool_use_id, failed.tool_use_id)
        ):
            return seen
    return None


def _own_steps(
    failed: Call,
    remedy: list[Step],
    confirmed_by: str | None,
    nearby: Sequence[Call],
    after: Sequence[Call],
    answered: Mapping[str, str],
) -> list[Step]:
    """A fix's remedy less the steps that redid another failure sent beside this one
    (before either's result came back: Claude Code sends several calls in one message) and
    do not redo this one: that retry fixed its own failure. `git config --global user.name`
    and `... user.email` sent together, both failing as not set; once the user gave both,
    the setter of the name, made first, was the headline of the email's card (thirty-third
    held-out set, the first part). `nearby`: the thread's calls around this one, among which
    its siblings are; `after`: its window, where the steps are.
    """
    mine = answered.get(failed.tool_use_id)
    if mine is None:
        return remedy
    siblings = [
        c
        for c in nearby
        if c.tool_use_id != failed.tool_use_id
        and c.tool_use_id in answered
        and (c.agent_id, c.sidechain) == (failed.agent_id, failed.sidechain)
        and c.timestamp < mine
        and failed.timestamp < answered[c.tool_use_id]
    ]
    if not siblings:
        return remedy
    by_id = {c.tool_use_id: c for c in after}

    def theirs(step: Step) -> bool:
        done = by_id.get(step.tool_use_id)
        return (
            done is not None
            and step.tool_use_id != confirmed_by
            and not _retry(failed, done)
            and any(_retry(sibling, done) for sibling in siblings)
        )

    return [step for step in remedy if not theirs(step)]


def _next_calls(pool: Sequence[Call], i: int) -> Sequence[Call]:
    """The WINDOW_CALLS calls of `pool`'s thread after its i-th, with its subagents' calls
    among them (see _with_subagents)."""
    thread = (pool[i].agent_id, pool[i].sidechain)
    end, own = i + 1, 0
    while end < len(pool) and own < WINDOW_CALLS:
        own += (pool[end].agent_id, pool[end].sidechain) == thread
        end += 1
    return pool[i + 1 : end]


def _by_the_parent(
    failed: Call,
    last: Call,
    main: Sequence[Call],
    prompt_times: Sequence[str],
    error: str,
    output: Callable[[str], str],
    key: Callable[[str], str],
) -> Fix | None:
    """The main thread's edit of the file a subagent's edit failed on, after the subagent's
    last call, when its own thread did not fix it: a subagent without the tool for it
    (Claude Code's statusline-setup has no Write) says so, and the main agent does it (sixth
    held-out set: 2 Edits of files that did not exist, then the main agent's Write of each).
    Its window is the main thread's, counted from the failure. Only an edit of that file:
    letting any call of the main thread confirm a subagent's failure "fixed" 4 failures of
    three other sets that were not a problem or abandoned (a test run again, a search)."""
    later = [c for c in main if c.timestamp > last.timestamp]
    anchor = failed._replace(sidechain=False, agent_id=None)
    after, _ = _window(anchor, later[:WINDOW_CALLS], prompt_times)
    guided = bool(after) and bool(_between(prompt_times, failed.timestamp, after[0].timestamp))
    fix = fix_of(failed, after, error, output, key(failed.tool_use_id), None, guided)
    confirm = next((c for c in after if c.tool_use_id == fix.confirmed_by), None)
    if confirm is None:
        return None
    if _not_allowed_to_run(failed):
        # a command the subagent was not allowed to run, run by the main agent: the same
        # command, its retry (`ffprobe` denied to an Explore subagent, then run by the main
        # agent once the subagent had answered: thirty-first held-out set)
        return fix if fix.outcome == FIXED and confirm.name in SHELL_TOOLS else None
    if confirm.name not in EDIT_TOOLS or not _same_file(confirm.file_path, failed.file_path):
        return None
    return fix


def _not_allowed_to_run(call: Call) -> bool:
    """Whether a subagent's shell command was refused for want of permission (`Permission to
    use Bash has been denied`): the subagent could not run it, as one without a Write tool
    cannot write (see _by_the_parent)."""
    return call.kind == "permission_denied" and call.name in SHELL_TOOLS
