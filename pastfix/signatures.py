"""Error signatures and harness-noise kinds of failed tool results: pure functions.

A signature is the key line of a failure (the line that names the error, not
the command's echo or the warnings before it) with everything that differs
between two sightings of the same bug replaced by placeholders: paths, numbers,
versions, ids, hashes, ports, timestamps, durations, temp dirs, branch names, users,
the file and line of a diagnostic, and quoted values other than the module of
a missing-module error. The
build stores one on every failed tool result; find_past_fix normalises pasted
text the same way, so today's error finds last month's.

A kind tells a real failure (`error`) from what Claude Code itself reports:
a rejected or interrupted call, a cancelled sibling, a file not read first.

Bump pastfix.db.SIGNATURE_VERSION whenever key_line(), normalise() or classify()
change: the next build then recomputes every stored signature and kind.

Key line
--------
Only a bounded window is read: the first and last 4 KB, at most 100 lines of
each, every line cut to 1,000 characters (and scored on its first 200). So a
200,000-character output costs no more than an 8 KB one. When no line there names
an error outright, the first 64 KB are searched for a line that names an exception
and what it said (`FooError: ...`): a test report prints it between long dumps. When
none there names an error or a failure at all (a score under 2, below), they are
searched for the first line that scores more than the window's best: make's `make: ***
[Makefile:146: all] Error 2` between a build's stderr and its stdout.

- Claude Code's own messages: a `<tool_use_error>...</tool_use_error>` wrapper
  is removed and the first line is the key line (`String to replace not found
  in file.`, not the old string that follows it). The same holds for the
  unwrapped harness messages that classify() recognises (rejections,
  permission requests...).
- The environment's lines are no key line: Codex 0.3x's sandbox wrapper (`failed in
  sandbox X with execution error: ..., stdout: `) goes and its stdout and stderr are
  read, as is the output Codex 0.118's denial holds, unescaped, in Rust's Debug text
  (`exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ...`:
  denied_output); the lines a login shell's startup files print before every output (zsh's
  `~/.zshrc:12: ...`, bash's `~/.bash_profile: line 3: ...`, Homebrew's
  `shellenv.sh: line 18: /bin/ps: Operation not permitted` in a macOS sandbox, and
  Claude Code's snapshot of the shell, `shell-snapshots/snapshot-bash-....sh: eval: line
  89: ...`) go when the command printed anything else (without_startup).
- A log's prefix of a line, its time and a tag after it (`2026-05-03 08:12:56 `,
  `[2026-05-03 08:12:56] `, `...T08:12:56.112Z `, `08:12:56 `, `12:01:45 pre-commit | `),
  is no part of it (without_log_prefix): each line is read as the output it logged, so a
  header's next line is the output's and an error line scores as it does alone.
- A Python traceback: the exception line after the last `Traceback (most
  recent call last):` (`json.decoder.JSONDecodeError: Expecting value: ...`).
- Anything else: each line gets a score and the *first* line with the best
  score wins, because compilers, linters and package managers print the cause
  first and cascades, stack frames and summaries after it.
  3 (strong): a line that names an error in a known form: `error TS2307`,
  `error[E0308]`, `✘ [ERROR]`, `error:`/`fatal:`/`Error:`, `npm error`/`npm
  ERR!`, an eslint `12:5  error`, pytest `E   ...`/`FAILED`/`ERROR`, an
  exception class (`TypeError: ...`, `** (RuntimeError)`), a Go or linter
  `file:line:col:` diagnostic, errno names (`ENOENT`), `command not found`,
  `No such file or directory`, `Permission denied`, `timed out after`,
  `Cannot find module`, `Could not resolve`, bash's `x: unbound variable`, Node's
  `Error [ERR_X]: ...` (its code in brackets), a credo issue line, Kotlin's `e:
  file:///x/A.kt:88:17 Unresolved reference: x` (and `e: [ksp] ...`), Gradle's `*
  What went wrong:`, vitest's `→ ` message of a test just marked failed (`× suite >
  test 12ms`, then `→ Unable to find a label with the text of: Name`), not the
  summary of its file above (`❯ a.test.tsx (2 tests | 2 failed) 72ms`), which is one
  key line for a file's different failures (twenty-fifth held-out set); the same for
  testem's numbered failed test (`1) [Chrome 143.0] tests/a-test.ts: shows x`) and the
  message on its next line (`Loading overlay is displayed`).
  2 (medium): an error word: error, failed, failure, fatal, exception, not
  found, cannot, could not, unable, denied, refused, invalid, missing... but
  not inside a path or a file's name (git's `deleted: x/statsig.failed_logs.1`)
  nor a word that names a way of working (`fail-fast`, `failover`, `pipefail`);
  git's `nothing to commit` and `no changes added to commit`; a test runner's `Ran 0
  tests` (unittest's `NO TESTS RAN`, pytest's `no tests ran in 0.01s` without its `===`
  banner, are strong: they name what went wrong); a line apt or dpkg marks as an error,
  `E: `, though no error word is in it (`E: Malformed entry 1 in list file x ([option] not
  assignment)`, before apt's summary `E: The list of sources could not be read.`).
  1 (says only that a command failed, never why: yields to any line that says more): a
  wrapper's or runner's last word, printed after the failure or on stderr, which may be
  stored first: jsh's bare `CommandError`, `ExecaError: Command failed ...`, Node's
  `Error: Command failed: ...`, `CalledProcessError: Command '...' returned non-zero exit
  status 1`, yarn's `error Command failed with exit code 1.`, pnpm's `ELIFECYCLE  Command
  failed`, make's `make: *** [x] Error 1`, `Testem finished with non-zero exit code`,
  apt's `E: Sub-process /usr/bin/dpkg returned an error code (1)`, Debian's venv's
  `Failing command: /x/.venv/bin/python3` (after `The virtual environment was not created
  successfully because ensurepip is not available.`).
  0 (noise, never preferred): warnings (`⚠️ Warning:` too), `hint:` lines, stack frames (`at ...`,
  `File "..."`), summaries (`✖ 10 problems`, `1 error`, `12 tests, 1 failure`,
  `Total errors: 3`, pytest's `=== ... ===`, TAP's `# fail  2`), Gradle's banners (`> Task :app:x
  FAILED`, `FAILURE: Build failed with an exception.`, `BUILD FAILED in 18s`: they
  say that a build failed, never why), bracketed warnings (`[WARNING] Citeproc:
  citation X not found` before quarto's `File x.bib not found in resource path`) and
  Kotlin's `w: ` warnings, a separator line (unittest's `-----` over `Ran 0 tests`: it
  was the key line of a discovery that found nothing, and every later run prints it too),
  a request's id and a pointer to help (`remote: error: Trace: 6621385e...`, `remote: error:
  See https://gh.io/lfs for more information.`: GitHub's, above what it refused),
  a notice that the program carries on without what it could not find or do (CMake's
  `SDL2 library not found.  Building without graphics support.`, `-- Google Test not
  found. Skipping test targets.`, `x failed: y, using fallback`), unless it starts as an
  error does (`error: ...`, `FooError: ...`).
  When no line scores, the first non-empty line other than Claude Code's
  `Exit code N` that is no warning, hint, frame or summary is taken (`The
  following paths are ignored by one of your .gitignore files: ...`, not git's
  `warning: in the working copy of 'x', LF will be replaced by CRLF` before
  it) and no progress line ending in `...` (`Cloning into 'x'...`, before git's
  `Username for 'https://github.com':` it waited at), else the first other than `Exit code
  N`; `Exit code N` is the key line only when it is all the output there is. So is
  `Error: Exit code N`, as Claude Code's terminal shows a failed call (under its `⎿`
  glyph): an exit status, scored 0, never the key line of a paste that says more, and its
  stored form `Exit code N` when it is all there is (status_of).
- What stands above the first `Exit code N` line, a command (`lsof -i :3001`, then `Exit
  code 1`) or an agent's title of the call (`● Bash(lsof -i :3001)`), is no line of the
  output: every agent stores the status first and the output after it, so such a line is
  the command a user pasted with its status (echoed_lines), never the key line, unless it
  names an error outright. `Exit code 1` alone says that lsof, grep, diff or test found
  nothing; the command's words as key line made a signature no failure has.
- A git remote's message (`remote: ...` lines) that names its refusal by a code is keyed on
  that line (`remote: error: GH001: Large files detected. ...`), not on the first of the
  lines before it that say which file (`remote: error: File x/zfs.ko is 103.31 MB; this
  exceeds GitHub's file size limit of 100.00 MB`): the same refusal of any file.
- A pasted error is matched by its words too: those of a log's prefixes, a prompt's line
  (`$ mix ecto.migrate`), the command above its exit status and a traceback's frames are
  not among them (as_output): they say where and when it ran, which the stored output does
  not hold.
- A short key line that ends with `:` (`Pre-commit validation failed:`,
  `InputValidationError: Task failed due to the following issue:`) is a header:
  the next non-empty line is appended to it. One that opens JSON on its next lines
  (`InputValidationError: [`, then `{"code": "invalid_type", ..., "path": ["prompt"],
  "message": "Required"}`) is followed by its first issue's path and message instead:
  `InputValidationError: prompt: Required`.
- Nix's `error:` over a trace of what it was evaluating (`… while checking flake output
  'x'`, `… while calling anonymous lambda`, each with its place) names the error on the
  trace's last `error: ` line (`error: function 'anonymous lambda' called without required
  argument 'lib'`): that line is the key line, not the header and the outermost frame.
- An error followed by the chain of its causes keeps the last, the root cause: `error:
  Failed to initialize cache at `/x/uv` Caused by: Read-only file system (os error 30)`
  (uv's `  Caused by: ...` lines, cargo's and anyhow's `Caused by:` over each cause or a
  numbered list, Turbopack's `- ` items, Java's `Caused by: x.YException: ...` between
  stack frames): the error says what failed, its cause why, and two causes are two fixes.
- Windows PowerShell cuts an error record's message at its console's width, mid-word
  (`... failed du`, `e to the following error: 80080005 ...`): the lines of a message that
  ends right before the record's place or category, each but the last as long as the
  console is wide, are one line again (_unwrapped), so the error is one signature from
  any console and pasted on one line.
- Gradle's `* What went wrong:` is followed by what: the key line is the line after
  it and the `> ` lines of its causes (`Execution failed for task ':app:x'. > A
  failure occurred while executing ... > Error while resolving ...`), the first alone
  often naming only the task.
- Pre-commit hook output carries literal `\\n` in its first line; that line is
  split there, though not inside a Windows path (`C:\\Users\\me\\node_modules`).
- npm's `npm error code E404` (or `npm ERR! code ...`) names only the class:
  the next npm line that is not `syscall`, `errno`, `path`, `code`, `signal`,
  `command`, `cwd`, a bare number or a log pointer is appended to it (`npm
  error code E404 npm error 404 Not Found - GET .../left-pad - Not found`), so
  the package or file it is about is in the signature.

Normalisation (in this order)
-----------------------------
The rule: abstract what varies between two sightings of one error (where it
happened: checkout, branch, file and line, version, ids, times) and keep what
identifies it (the error's code and message, and the module a missing-module
error is about). Only the first 6,000 characters are read; ANSI escapes go,
whitespace is collapsed and the first 1,200 characters kept. Then:

- The language a program spoke goes, for the messages pasted most (pastfix.locales.in_english,
  before every rule below reads the line's words): bash's `command not found` and `line N`,
  the C library's `No such file or directory`, `Permission denied`, `Not a directory`, `Is a
  directory`, coreutils' `cannot access` and `cannot stat`, and git's `fatal:` and `error:` of
  three messages, as their own catalogues say them in ten languages: `bash: Zeile 1: python:
  Kommando nicht gefunden.` is `bash: line 1: python: command not found`, so `command not found:
  python` (nu46 finding 2). _score reads a line in English words too, so such a line is the key
  line where the English one would be. cmd.exe's `'x' is not recognized as an internal or
  external command` is in that table too; a Windows PowerShell record's message in any
  language is its English one when its `+ FullyQualifiedErrorId` is one of a message of one
  form (`CommandNotFoundException`, `PathNotFound`, `InvokeMethodOnNull`), of the object its
  `+ CategoryInfo` names: those two lines are English in every language (_record_in_english;
  nu47 finding 3: `Die Benennung "python" wurde nicht als Name eines Cmdlet ... erkannt`).

- A command the shell did not find is one error whatever the shell said it
  in: `command not found: NAME` for bash's `/bin/bash: line 1: NAME: command
  not found`, dash's `sh: 1: NAME: not found`, zsh's `zsh: command not found:
  NAME` (and `(eval):1:`), fish's `Unknown command: NAME`, PowerShell's `The
  term 'NAME' is not recognized as a name of a cmdlet` and cmd.exe's `'NAME' is
  not recognized as an internal or external command`, and a script's (`./x.sh: line
  3: NAME: command not found`, `./x.sh:3: command not found: NAME`), `exec`'s too (`sh: 1:
  exec: NAME: not found`), and env's for a script's `#!/usr/bin/env NAME` (`env: 'NAME': No
  such file or directory`). The name stays: it is the error (`python` and `pnpm` have
  different fixes).
- A file a shell could not use is one error whatever the shell said it in, in zsh's
  words: bash's `bash: line 16: cd: apps/api: No such file
  or directory` (or a script's `./x.sh: line 3: cd: ...`) and zsh's `cd: no such file
  or directory: apps/api` are `cd: no such file or directory: apps/api`; bash's
  `bash: venv/bin/activate: No such file or directory` (bash names no `source`), zsh's
  `source: no such file or directory: venv/bin/activate` and `zsh: no such file or
  directory: ./run.sh` are `zsh: no such file or directory: X`. The same for `Permission
  denied`, `Not a directory` and `Is a directory`, and dash's (`sh: 1: ./run.sh:
  Permission denied`, a script not there `sh: 1: ./run.sh: not found`, `sh: 1: .: cannot
  open venv/bin/activate: No such file`); dash's `/bin/sh: 1: cd: can't cd to x`, which
  names no cause, is read as its usual one, `cd: no such file or directory: x`. But a file
  a shell could not write is not one it could not run: `sh: cannot create X: Permission
  denied`, dash's words, of dash's and of bash's and zsh's `Permission denied` whose exit
  status is other than 126, which a command found and not run exits with (a redirect's `>
  ../docs/a.md`: nu42 finding 2). An output with no exit status, a pasted line, is a run's.
  A write into a folder that is not there is a write too, in dash's words (`sh: 1: cannot
  create out/x.log: Directory nonexistent`: `sh: cannot create <path>/x.log: Directory
  nonexistent`), as is any reason dash gives a file it could not create, not a script not
  there; bash's and zsh's `No such file or directory` of it stays a run's (a write and a
  `source` both exit 1).
  A program's own message (`cat: x: No such file or directory`) stays as it is.
- Where a path has spaces in a folder's name and nothing delimits it, the words after a
  space up to one that goes on with a `/` and starts no path of its own are the path's
  next folder, after an absolute path with no file's extension (`tasks.md not found in
  /Users/me/00 vibe projects/app/specs/001-x`: `<path>/<n>-x`, nu44 finding 4). So two
  paths a space apart stay two: `cp a/b c/d`, `cp /x/a.txt b/c`, `mv /x/a /y/b`; and so
  do a program of a `bin` folder and its arguments (`/x/venv/bin/python src/app.py`), a
  path and a flag (`-I/x`) or the words of a sentence after it (`POST /v1/x endpoint in
  src/x.py`: a preposition, a conjunction, an article, `is`, a dash).
- A home folder, all of a path (`/home/alice`, `/Users/alice`, `C:\\Users\\alice`), is `<path>`, as
  `~` is: the user's name says whose machine it is. A pasted error's words leave it out too
  (as_output: `~/miniconda3/...`).
- The token a shell's parser stopped at is kept (bash's `syntax error near unexpected token
  `(' `, zsh's `parse error near `)' `): `(`, `fi` and `newline` are three fixes. So is the
  name nix could not find (`undefined variable 'pkgs'`, `called without required argument
  'lib'`), as `name 'np' is not defined`: both are set aside by kept_set_aside.
- Kotlin's errors before 2.0, `e: /x/A.kt: (12, 5): Unresolved reference: y`, are placed as
  2.0 places them, `e: file:///x/A.kt:12:5 ...`, whose place then goes as a URL does.
- Where zsh was when it failed goes: `(eval):cd:1: no such file or directory: x`
  (a command Claude Code ran through zsh's eval) and `zsh:cd:1: ...` (a script) are
  `cd: no such file or directory: x`, as an interactive zsh prints it, and
  `(eval):1: no such file or directory: ./run.sh` is `zsh: ...`.
- Claude Code's wording that changes by version or place goes: the folder it ran in
  (`File does not exist. Note: your current working directory is /x/app.`, seen from
  2.1.68), the
  advice after a file too large to read whole (`... exceeds maximum allowed tokens (<n>).`,
  then `Please use offset and limit ... GrepTool ...` or, later, `Use offset and limit ...
  instead of reading the whole file.`, seen from 2.1.89), and the call a cancelled sibling names
  (`Cancelled: parallel tool call <str> errored`).
- Kept verbatim: the module or package of a missing-module error, because it
  *is* the error (`No module named 'requests'` and `'numpy'` have different
  fixes). A quoted value is kept after `No module named`, `Cannot find module`,
  `Cannot find package`, `Can't resolve`, `Could not resolve`, `Failed to
  resolve import`, `Failed to resolve module specifier`, `unresolved import`
  (rustc E0432), `undeclared crate or module`, `unresolved module or unlinked
  crate`, `can't find crate for`, `no matching package named` (cargo), `Cannot
  find type definition file for` (TS2688), `declaration file for module`
  (TS7016), `cannot import name 'x'` and its `from 'pkg'`, and around `has no
  exported member` (TS2305); and before `is not in this registry` (npm),
  `distribution was not found` and `in registry` (cargo's `could not find
  `x` in registry`). Go import paths stay unquoted after `provides package`,
  `providing package`, `cannot find package`, `package ` at the start and
  `go: ` at the start (`go: github.com/spf13/cobra@v1.8.0: ...`).
  npm's `404 Not Found - GET <registry url>` keeps the package at the end of
  the URL (`<url>/left-pad`). Unquoted names need no rule (`No matching
  distribution found for torch`: words stay). A value that is a path to a
  *file* is not kept but read as a path (`<path>/utils`, below): it starts with `.`,
  `/`, `~`, `@/`, a drive or `file:`, or has a `/` and ends in a file extension
  (`./utils`, `js/app.js`); `@scope/pkg`,
  `lodash/fp`, `react-dom/client`, `gopkg.in/yaml.v3` are packages. Inside a
  kept value a version after `@`, `=`, `<`, `>`, `^` or `~` is `<n>`
  (`'left-pad@^<n>'`); `pkg-2` and Go's `/v2` are part of the name.
- Kept verbatim too: the name a program could not use in its own code, when it is one
  word: the property after `(reading ` or `(setting ` (`Cannot read properties of
  undefined (reading 'map')` and `(reading 'get')` are two bugs), after `has no
  attribute` and before `object has no attribute` (`'NoneType' object has no attribute
  'group'`), after `destructure property`, and the name before `is not defined`
  (`NameError: name 'np' is not defined`, eslint's `'process' is not defined`).
- Kept verbatim too: what a command line's usage error says the bad value was given to,
  quoted after `for`, the program (and its command) or a flag: cobra's `unknown command
  "logs" for "docker compose"` is not `... for "gt deacon"`, pflag's `invalid argument "x"
  for "-n, --count" flag`. The unknown command itself is `<str>`. A program named unquoted
  stays as words do (`git: 'x' is not a git command`, argparse's `prog: error: ...`); one
  a message does not name (`unknown flag: --x`, click's `No such command 'x'`) is not
  looked for elsewhere.
  Every quoted value left in a signature is one of these kept values: two signatures alike
  but for them (kept_set_aside) are two errors of one form, and pastfix.queries matches no
  such failure "by every word" (the full-text index splits `pydantic_settings` at `_`).
- The line of a patch that Codex's apply_patch quotes as no hunk's is one `<str>`, whatever
  quotes it holds (`Unexpected line found in update hunk: 'alias c='codex -a never''. Every
  line should start with ...`, and `'x' is not a valid hunk header`): read as quoted values,
  it kept part of its line (`'alias c=<str>'`), and the same error of another line was
  not seen before (nu41 finding 5). It is where the patch's parser stopped, no name of the
  error (pastfix.queries.other_names), as a code parser's unexpected token is not
  (quoted_names).
- The pattern zsh found no match for is one path, brackets and all (`zsh: no matches
  found: <path>/page.tsx` of `app/[id]/page.tsx`).
- A file GNU coreutils quote after what they could not do with it (`ls: cannot access
  'docs/a.md'`, `cp: cannot stat '...'`, `mkdir: cannot create directory '...'`) is a path,
  as BSD's unquoted one is: `ls: cannot access <path>/a.md: No such file or directory`. So
  is the file of an OS error: Python's `[Errno 2] No such file or directory: 'x'` (and
  `'a' -> 'b'`, Windows's `[WinError 3] ...: 'x'`) and `can't open file 'x'`, Node's
  `ENOENT: no such file or directory, open 'x'` (any code and call), git's `pathspec 'x'
  did not match`, PowerShell's `Cannot find path 'x' because it does not exist.`; and a
  module's file (`Cannot find module './utils'`, `'/app/dist/x.js'`:
  `<path>/utils`). So is one with a space in it, the quotes saying where it ends, when it
  has a folder (`[Errno 2] No such file or directory: '/Users/me/Library/Mobile
  Documents/x.csv'`: `<path>/x.csv`), and GNU's quoted one before an OS error (`cat: '/x/my
  project/a.txt': No such file or directory`); a bare name with a space in it (`'my
  file.txt'`) stays `<str>`.
- `<str>`: any other quoted value, '...', "...", `...`, ‘...’, “...”. Trade-off:
  `Property 'x' does not exist on type 'Y'` for any x and Y is one signature:
  the signature names the *kind* of error (and so the kind of fix), the names
  are user data that differ per sighting (`No such file or directory:
  '/tmp/x'`). The full text stays in the full-text index, so a search that
  names `x` still ranks that sighting first. A list of them (`"a", "b", "c"`, `'a' and
  'b'`, `'a', 'b', or 'c'`) is one `<str>`: how many names Gemini CLI's `Did you mean one
  of: ...?` or argparse's `(choose from ...)` offered is no part of the error.
  So is a name said bare at the end of a message after what it is: docker's `No such
  container: webapp`, compose's `no such service: api`, SQLite's `no such table: users`,
  `Unknown database: shop` (`No such container: <str>`): one word starting with a letter,
  not in capitals (`unknown error: ENOSPC` stays), nor after `file or directory`, `command`,
  `module`, `package` or `crate`, whose names are the error or a path.
- `<url>`: http(s) URLs.
- `<name>`: the branch in the git messages that name one unquoted, whatever it
  looks like (`main`, `spotter-dov`, `feature/x`, `release_1.2`): `The current
  branch X has no upstream branch` (and `... has multiple upstream branches`),
  `Current branch: X` and `current branch is X` (scripts' own checks, as
  spec-kit's `Not on a feature branch`), `On branch X`, `src refspec X does
  not match any`, `couldn't find remote ref X`, `invalid reference: X`, `merge:
  X - not something we can merge`, `! [rejected] X -> Y (...)`, `! [remote
  rejected] X -> Y`, `Branch X set up to track remote branch Y` (old git),
  `Deleted branch X`, `HEAD detached at X`.
  The messages that quote it are `<str>` already: `Your branch is ahead of
  'origin/X'`, `branch 'X' set up to track 'origin/X'`, `A branch named 'X'
  already exists`, `pathspec 'X' did not match any file(s) known to git`,
  `'X' is already checked out at`. Elsewhere "branch" is a word
  (`Your branch is up to date` stays).
- The place of a compiler or linter diagnostic, file and line: `<path>(<n>,<n>)`
  for tsc's `src/a.tsx(3,10)`, `<path>:<n>:<n>` for `a.go:3:2`, ruff, flake8,
  gcc, eslint's unix format, tsc's pretty `a.ts:3:5 - error` and rustc's `-->
  src/main.rs:3:5`, `<path>:<n>` for mypy, javac, Elixir and pytest's
  `a.py:12`, `<path>: line <n>, col <n>` for eslint's compact format. The code
  and the message stay: `src/a.tsx(3,10): error TS2307: Cannot find module 'X'`
  in any file is one signature (one TS2339 in ten files is one recurring error), but
  find_past_fix tells the same error in another file by the base name of the file the
  key line starts with (diagnostic_file), or that a linter names on the line above it
  (diagnosed_file: ESLint's stylish format, Next.js's build): not the pasted text, the
  same error about another file. The file must look like one (a `/` or an
  extension), so `(eval):1:`, `127.0.0.1:5432` and `localhost:3000` are not
  places. Node's `imported from /x/y.mjs` (the importer) is `<path>` too.
- `<tmp>`: a path under /tmp, /var/folders, /private/var/folders, /dev/shm or
  a Windows Temp directory: its name is random, so all of it goes.
- `<path>/name`: any other path (absolute, `./`, `../`, `~/`, or relative with
  a file extension, a trailing `/` or at least two `/`; a glob's `*` is part
  of a name, `src/*/x.md`, `docs/*.md`) keeps only its base name: the
  checkout is where you happened to be, the base name
  (`package.json`, `app.py`) is what the error is about (`cat: <path>/a.json:
  No such file or directory` and `b.json` differ; find_past_fix sets the name
  aside only when nothing else matched: loose()). `@scope/pkg` and eslint
  rule names (`@typescript-eslint/no-unused-vars`) are not paths. A path with a space
  in a folder's name is one path where an OS error's message says where it ends, before
  it (`sed: can't read /home/me/my project/src/app.js: No such file or directory`, `C:\\x\\My
  Project (copy)\\app.js: Permission denied`) or after zsh's (`cd: no such file or
  directory: /x/my project/web`): `<path>/app.js`, not `<path>/my <path>/app.js`. So is a
  Windows drive path with a space in a folder's name up to its file's extension, wherever it
  stands (`C:\\Program Files (x86)\\x\\cl.exe is not ...`: Windows allows no `:*?"<>|`
  in a name), and an absolute path whose folder's name holds parentheses glued to it
  (`C:\\x\\Editor(2001776)\\Script\\TaskMgr.lua`, `/x/app(1)/a.rs`: `<path>/TaskMgr.lua`).
  An unquoted path with a space and no OS error to end it is one where its next word goes
  on with a folder (see above), else read as two (`could not open /x/my.d project/a.js`).
  loose() sets a base name with a space in it aside whole where an OS error ends it (`cat:
  <path>/My Notes.txt: No such file ...`).
- `<uuid>`; `v<n>`: a version with a `v` (`v18.17.0`), `<time>` (ISO
  timestamps, dates, a log's `2025/09/16` too, clock times; those a line starts
  with go), `<duration>` (`3m 0s`, `1.23s`, `120ms`,
  `0m12.17s`, `5 seconds`), `<ip>` (IPv4, and IPv6's `::` and `::1` before a port:
  `:::3000`), `<host>` (a machine where a message says it is one, by name or address:
  ssh's and curl's `connect to [host] X port N`, `Could not resolve hostname X:`, `Could
  not resolve host: X`; one error whichever machine refused it, as whichever port: ssh's
  `connect to host 10.0.0.5 port 22: Connection refused` was not seen before beside
  `... host localhost port 2227 ...`, nu43 finding 4; a certificate's names and the name
  not among them, Node's `Host: x. is not in the cert's altnames: DNS:y, DNS:z`, each list
  of names one `<host>`; a name no server answers to, `getaddrinfo ENOTFOUND x`, Go's
  `lookup x on ...`, `x: Name or service not known`), `<size>` (`806.5KB`, `12 bytes`), `<hex>`
  (0x... and free-standing runs of 6+ hex digits mixing digits and letters:
  git SHAs, ids), `<n>` (any other free-standing number: line and column
  numbers, PIDs, ports, counts, versions: `requires numpy>=<n>, you have <n>`).
  Digits glued to letters (`python3.11`, `TS2339`) are not free-standing.
- Kept, because they tell different bugs apart: compiler and rule codes glued
  to letters (`TS2339`, `E0308`, `F401`), errno names (`ENOENT`), exception
  class names, and the number after `Exit code`, `exit status`, `Errno`,
  `os error`, `status code` and `HTTP` (`Exit code 1` and `Exit code 127`
  differ); not an errno's number that its message follows, which says the same
  in every system's numbering (`[Errno 98] Address already in use` on Linux is
  `[Errno 48] ...` on macOS: `[Errno <n>] ...`).
- npm 9's `npm ERR!` is npm 10's `npm error`: one error before and after an upgrade.
- PowerShell's error records: the message is the key line, not the record's place
  (`At line:1 char:10`), its source and carets (`+ ...`, `+ ~~`) nor its category (`+
  CategoryInfo : ParserError: ...`); PowerShell 7's `ParserError:` with its `| message`;
  Windows PowerShell 5.1's `Get-Content : Cannot find path` is `Get-Content: ...`. A
  message line's `| ` goes, and so does a place glued to its end, its line break lost
  (`... Access is denied.At line:2 char:1`, French `Accès refuséAu caractère Ligne:2 :
  1`, German, Spanish, Portuguese): a paste of the message alone is the same error.
- A program named with its folder at the start of its message goes without it, and
  without `.exe` (`/usr/bin/python3: ...`, `C:\\nodejs\\node.exe: ...`); Python by any of
  its names is `python` (`python3.11: can't open file ...`).
- A URL of any of these schemes is `<url>`: http(s), ws(s), file, unix (Docker's socket),
  ssh, git, postgres(ql), mysql, redis, mongodb, amqp.

- Git's word that it could not make the author's or committer's identity, whichever part
  it could not guess (`fatal: unable to auto-detect email address (got 'me@laptop.(none)')`,
  `fatal: empty ident name (for <me@host>) not allowed`, `fatal: no email was given and
  auto-detection is disabled`), is one error, the line of its hint above each: `*** Please
  tell me who you are.` The fix is the same, `git config user.name` and `user.email`; the
  name's variant, pasted as the email's, was not found (a new user's try, nu40 finding 3).

- PyTorch's device mismatch is one error in any version's words, `Expected all tensors to be
  on the same device`: which devices (`but found at least two devices, cuda:0 and cpu!`) or
  which tensor and where the others were (`but got mat1 is on cuda:0, different from other
  tensors on cpu (when checking argument in method wrapper_CUDA_addmm)`) goes (nu39 finding 4).

- A negation is spelled out: `couldn't` is `could not`, `can't` `cannot`, `won't`
  `will not` (curl's `Couldn't connect to server` was `Could not connect to server`
  in other versions). Only `n't`: an `'s` may be a possessive.

Whitespace is collapsed and the result cut to MAX_SIGNATURE characters.

Kinds
-----
classify() looks only at the start of the text (after removing a
`<tool_use_error>` wrapper and an `Error: ` prefix, as `toolUseResult` has it)
and tests, in the order of KINDS:

- rejected: `The user doesn't want to proceed with this tool use...`, `The user
  doesn't want to take this action...`, `User rejected tool use`; Codex CLI's
  `exec command rejected by user`, `patch rejected by user`.
- interrupted: `[Request interrupted by user...`, `Interrupted by user`.
- sibling_error: `Sibling tool call errored`, or (seen from 2.1.81) `Cancelled:
  parallel tool call Bash(...) errored` (a parallel call cancelled after a
  sibling failed).
- undecided: Claude Code could not learn whether it may run the call, and did not run
  it: auto mode's safety classifier was down (`claude-opus-4-8 is temporarily
  unavailable, so auto mode cannot determine the safety of Bash right now. Wait briefly
  and then try this action again.`, of any model and tool: thirty-seventh held-out set,
  2 Bash calls), or the stream its permission prompt was asked over closed (`Tool
  permission request failed: Error: Tool permission stream closed before response
  received`, an SDK host gone: thirty-sixth, 2). No program ran, nor did anyone say no:
  it names no error of the call, whatever the call was (unlike the classifier's denial,
  `Permission for this action was denied by the Claude Code auto mode classifier.
  Reason: ...`, a permission_denied of what the call would do).
- not_read: `File has not been read yet...`, `File has been modified since
  read...`, `File has been unexpectedly modified...`.
- permission_denied: Claude Code's permission system: `Claude requested
  permissions to ... but you haven't granted it yet`, `Permission to use X has
  been denied`, `Permission for ... denied`. An OS `Permission denied` inside
  command output is an `error`.
- hook_blocked: a hook's own refusal: `PreToolUse:Bash hook error: ...`, `Bash
  operation blocked by hook:`, `Hook PreToolUse:Bash denied ...`, `Blocked by
  hook`, `Denied by PermissionRequest hook`. A pre-commit hook that reports
  failing checks (`Pre-commit validation failed:` + formatter/linter output) is
  an `error`: it is the user's code that failed, and its fix is worth finding.
- timeout: `Command timed out after ...`, also as the line after `Exit code N`.
- string_not_found: `String to replace not found in file.`
- input_validation: `InputValidationError: ...`.
- error: everything else, including Bash failures (`Exit code N` + output,
  unless the next line is a timeout or interruption), `File does not exist.`,
  `EISDIR: ...`, `File content (...) exceeds maximum allowed ...`, `No task
  found with ID: ...`.
"""

from __future__ import annotations

import functools
import json
import re

from pastfix.locales import in_english
from pastfix.patterns import lazy

# Signatures longer than this are cut: a key line is a line, not a log.
MAX_SIGNATURE = 300

ERROR = "error"
# Kinds of failure that Claude Code itself produces, in the order they are tested.
KINDS = (
    "rejected",
    "interrupted",
    "sibling_error",
    "undecided",
    "not_read",
    "permission_denied",
    "hook_blocked",
    "timeout",
    "string_not_found",
    "input_validation",
    ERROR,
)

# The bounded window key_line() reads: outputs can be 200,000 characters.
_WINDOW = 4096
_WINDOW_LINES = 100
_MAX_LINE = 1000
_MAX_SCORED = 200
# A header line ending in ':' longer than this is a sentence, not a header.
_MAX_HEADER = 100

# `npm error code X` and the npm lines after it that say nothing of the cause.
_NPM_CODE = lazy(r"(npm (?:error|ERR!)) code \S+$")
_NPM_NO_DETAIL = lazy(r"(?:syscall|errno|path|code|signal|command|cwd)\b|\d+$")
_NPM_DETAIL_LINES = 8
# Gradle's `* What went wrong:` and how far key_line() reads the cause after it.
_GRADLE_WRONG = "* What went wrong:"
_GRADLE_CAUSE_LINES = 12

_WRAPPED = lazy(r"^\s*<tool_use_error>(.*?)(?:</tool_use_error>\s*)?$", re.S)
# An exit status line: `Exit code N`, as every agent's failed command is stored, and as
# Claude Code's terminal shows a failed call, `Error: Exit code N` under the `⎿` that marks
# a call's result (`  ⎿  Error: Exit code 128`, then the command's output). It says how the
# command ended, never what went wrong: no key line while another line is there (status_of).
_STATUS_LINE = lazy(r"(?:⎿\s*)?(?:Error: )?(Exit code -?\d+)\s*$")
# The other agents' words for it, as their terminals and tool results show it: Codex's
# `Exit code: 1` and `Process exited with code 1`, Gemini CLI's `Exit Code: 1`, Copilot
# CLI's `<exited with exit code 1>` (pastfix.queries' _BARE_STATUS reads a paste of them).
_AGENT_STATUS_LINE = lazy(
    r"(?:Error: )?(?:exit code: |process exited with code |<exited with exit code )(-?\d+)>?\s*$",
    re.IGNORECASE,
)
# The start of a failure's text that classify() and exit_status() read.
HEAD_CHARS = 2000
# How every agent's reader stores a failed command: `Exit code N` first (exit_status).
_EXIT_CODE_HEAD = lazy(r"Exit code (-?\d+)[ \t]*(?:\n|$)")
_ERROR_PREFIX = lazy(r"Error: ")
# Codex 0.3x's wrapper of a command that failed in its sandbox: the output follows
# `stdout: ` (fifth held-out set: every TypeScript error of a build was this one line).
_SANDBOX_WRAPPER = lazy(
    r"failed in sandbox \w+ with execution error: .*?, exit code: -?\d+, stdout: ?"
)
_SANDBOX_STDERR = lazy(r"\n?, stderr: ?")
# What a login shell's startup files print before every command: zsh's `/Users/x/.zshrc:12:
# ...`, bash's `/Users/x/.bash_profile: line 3: ...`, Homebrew's `brew shellenv` (sourced
# from .zprofile) `/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps:
# Operation not permitted` in a macOS sandbox (sixth held-out set: the first line of every
# Codex 0.63 output, failed or not); a script of a `profile.d` folder, which a startup file
# sources (`/etc/profile.d/*.sh`, conda's `~/miniconda3/etc/profile.d/conda.sh:48: parse
# error near `()'` before every output of a zsh session: thirty-first held-out set); the
# snapshot of the user's shell that Claude Code sources before each command, which
# re-evaluates what the startup files defined (`~/.claude/shell-snapshots/snapshot-bash-
# 1774980584851-j7rkzc.sh: eval: line 89: syntax error near unexpected token `('`, under
# conda.sh's own complaint, before every output of a session: thirty-sixth held-out set,
# the key line of a failure whose retry printed it too, and so was "not fixed").
_STARTUP_LINE = lazy(
    r"^[ \t]*(?=[~/])[^\s:]*"
    r"(?:/\.(?:zshenv|zprofile|zshrc|zlogin|bashrc|bash_profile|bash_login|profile)"
    r"|/etc/(?:zshenv|zprofile|zshrc|zlogin|bashrc|bash\.bashrc|profile)"
    r"|/etc/profile\.d/[^\s:/]+"
    r"|/Homebrew/[^\s:]*\.sh"
    r"|/shell-snapshots/snapshot-[^\s:/]+\.sh)"
    r"(?::\d+:|(?:: eval)?: line \d+:) [^\n]*(?:\n|$)",
    re.M,
)

# --- classify() rules, tried at the start of the (unwrapped) text -----------

_KIND_RULES = (
    (
        "rejected",
        lazy(
            r"The user doesn't want to (?:proceed|take this action)"
            r"|User rejected tool use|The user rejected|Tool use was rejected"
            # Codex CLI: a command or a patch the user did not approve (the words of
            # codex.REJECTED_PREFIXES, which the Codex reader needs without these rules)
            r"|(?:exec command|patch) rejected by user"
            # Gemini CLI: a call the user declined (scheduler.ts, older versions)
            r"|\[Operation Cancelled\] (?:Reason: )?User (?:denied execution|did not allow)"
            # GitHub Copilot CLI's (0.0.340 to 1.0.60)
            r"|User rejected the tool call|The tool call required approval from the user, but"
            r"|The tool execution was denied by the user"
            r"|The pending permission request was cancelled",
            re.I,
        ),
    ),
    (
        "interrupted",
        lazy(
            r"\[?(?:Request )?interrupted by user"
            # Codex CLI: a call stopped while it ran (codex.FAILED_CALL_PREFIXES)
            r"|aborted by user after \d|(?-i:\Aaborted(?: by user)?\s*\Z)"
            # Gemini CLI: a call cancelled (Esc) or aborted with its turn
            r"|\[Operation Cancelled\]|The user aborted a request"
            # GitHub Copilot CLI's, for a call a stop or a restart cut short
            r"|The execution of this tool, or a previous tool was interrupted"
            # opencode: a call still running when its step was stopped
            r"|Tool execution aborted",
            re.I,
        ),
    ),
    (
        "sibling_error",
        # newer Claude Code (seen from 2.1.81) names the call that errored:
        # `Cancelled: parallel tool call Bash(which x…) errored`
        lazy(r"Sibling tool call errored|Cancelled: parallel tool call ", re.I),
    ),
    (
        "undecided",
        # Claude Code's buildClassifierUnavailableMessage (`<model> is temporarily
        # unavailable, so auto mode cannot determine the safety of <tool> right now.`) and
        # its SDK's permission request that got no answer (`Tool permission request failed:
        # AbortError: Tool permission stream closed before response received`)
        lazy(
            r"\S+ is temporarily unavailable, so auto mode cannot determine the safety of "
            r"|Tool permission request failed: ",
            re.I,
        ),
    ),
    (
        "not_read",
        lazy(
            r"File has not been read yet|File has been (?:unexpectedly )?modified"
            # opencode (FileTime.assert)
            r"|You must read file [^\n]{0,300}? before overwriting it"
            r"|File [^\n]{0,300}? has been modified since it was last read",
            re.I,
        ),
    ),
    (
        "permission_denied",
        # Claude Code's wording only: the OS says "Permission denied", never
        # "Permission to use ... denied", so raw command output does not match.
        lazy(
            r"Claude requested permissions? to "
            r"|Permission to use [^\n]{0,300}?(?:has been|was|is) (?:auto-?)?denied"
            r"|Permission for [^\n]{0,300}?(?:has been|was) denied"
            r"|[^\n]{0,300}?but you haven't granted it yet"
            # GitHub Copilot CLI's words, never a command's (its failed commands start
            # "Exit code N"): permission rules, a prompt it could not ask, content policy
            r"|Permission denied (?:and could not request permission|by rules|by user\b"
            r"|by a PermissionRequest hook|by content exclusion)"
            r"|Permission denied: (?:Create|Update|Delete|Move and update) file "
            r"|Permission to (?:run this tool|search this path) was denied"
            r'|Access denied: "[^"\n]{0,300}" is excluded by organization content policy'
            # opencode's PermissionDeniedError (a deny rule in its config)
            r"|The user has specified a rule which prevents you from using",
            re.I,
        ),
    ),
    (
        "hook_blocked",
        lazy(
            r"(?:[\w:]+ )?operation blocked by (?:a )?hook"
            r"|(?:PreToolUse|PostToolUse|PostToolUseFailure|UserPromptSubmit|Stop"
            r"|SubagentStop|PermissionRequest|SessionStart|Notification)"
            r"(?::\S*)? hook (?:error|blocked|denied)"
            r"|Hook \S+ (?:denied|blocked)|Blocked by (?:a |the )?\S* ?hook"
            r"|Denied by \S+ hook",
            re.I,
        ),
    ),
    ("timeout", lazy(r"Command timed out after", re.I)),
    (
        "string_not_found",
        # Claude Code's, Gemini CLI's replace ("Failed to edit, 0 occurrences found for
        # old_string in ..."), opencode's edit tool, Copilot CLI's edit (all it says is
        # "No match found"), Codex's apply_patch ("Failed to find expected lines in")
        lazy(
            r"String to replace not found in file|Failed to edit, 0 occurrences found"
            r"|oldString not found in content|No match found\.?\s*\Z"
            r"|(?:apply_patch verification failed: )?Failed to find expected lines in",
            re.I,
        ),
    ),
    ("input_validation", lazy(r"InputValidationError\b")),
)
_KIND_BY_NAME = dict(_KIND_RULES)

# --- key_line() scoring ------------------------------------------------------

# Lines that mention errors but never name the cause: warnings, hints, stack
# frames, summaries and count lines that follow the real error.
# A command the shell could not find, in each shell's words: bash and its paths
# (`/bin/bash: line 1: python: command not found`), dash (`sh: 1: python: not found`),
# zsh and its eval (`zsh: command not found: python`, `(eval):1: command not found:
# tree`), fish (`fish: Unknown command: python`), PowerShell (`The term 'python' is not
# recognized as a name of a cmdlet`) and cmd.exe (`'python' is not recognized as an
# internal or external command`). One error whatever the shell: `command not found: NAME`.
_COMMAND_NOT_FOUND = lazy(
    r"^(?:[\w./\\-]*[/\\])?(?:ba|da|k|)sh: (?:line \d+: |\d+: )?"
    # (`exec`'s own: dash's `sh: 1: exec: python: not found`, bash's `exec: python: not found`)
    r"(?:exec: )?(?P<a>[^\s:'\"]+): (?:command )?not found$"
    # a bash script's (`./deploy.sh: line 3: gh: command not found`) and a bare one
    r"|^(?:[^\s:'\"]+: line \d+: )?(?P<f>[^\s:'\"]+): command not found$"
    # zsh's, its eval's and a zsh script's (`./deploy.sh:3: command not found: gh`)
    r"|^(?:[^\s:'\"]+(?::\d+)?: )?command not found: (?P<b>\S+)$"
    r"|^fish: Unknown command:? (?P<c>\S+)$"
    r"|\bThe term '(?P<d>[^']+)' is not recognized as (?:the|a) name of a cmdlet"
    r"|^'(?P<e>[^']+)' is not recognized as an internal or external command"
    # env's, for a script's `#!/usr/bin/env node` (coreutils 8.28+ quotes the name)
    r"|^(?:[^\s:'\"]*/)?env: '?(?P<g>[\w.+-]+)'?: No such file or directory$"
)
_NOISE = lazy(
    r"^(?:"
    r"(?:npm |⚠\ufe0f?\s*)?warn(?:ing)?\b"
    # a warning in brackets: pandoc's and quarto's `[WARNING] Citeproc: citation X not
    # found` before `File ../x.bib not found in resource path` (twelfth held-out set),
    # Maven's `[WARNING]`
    r"|\[warn(?:ing)?\]"
    # Kotlin's warnings: `w: file:///x/A.kt:12:5 'x' is deprecated`
    r"|w: (?:file:|[/~]|[A-Za-z]:[/\\])"
    # Gradle's banners, which say that a task failed, never why: `> Task :app:x FAILED`,
    # `FAILURE: Build failed with an exception.`, `BUILD FAILED in 1m 15s`. The cause is
    # a compiler's line before them (`e: ...`) or what follows `* What went wrong:`.
    r"|> Task :\S+ FAILED$"
    r"|FAILURE: Build (?:failed|completed) with"
    r"|BUILD FAILED\b"
    r"|\d+:\d+\s+warning\b"
    r"|hint:"
    r"|at\s"
    r"|File \""
    r"|Traceback \(most recent call last\)"
    r"|During handling of the above exception"
    r"|The above exception was the direct cause"
    r"|[✖✕×]?\s*\d+ (?:problems?|errors?|failures?|tests?|warnings?)\b"
    r"|Found \d+ errors?"
    r"|Total errors:"
    r"|\d+ (?:failed|passed|errors?)\b"
    r"|=+ .* =+$"
    r"|npm (?:error|ERR!) (?:A complete log|Log files|\s*$)"
    r"|Please report incorrect results"
    # OpenSSH with no terminal to ask on: the refusal that follows is the error (`Host key
    # verification failed.`, `Permission denied (publickey).`)
    r"|ssh_askpass: "
    # PowerShell's error record around its message: where (`At line:1 char:10`, `At
    # C:\x\a.ps1:12 char:5`, localized `No ...\a.ps1:117 caractere:50`), the source line
    # and its carets (`+ ach ($sh in $s) {`, `+ ~~`), and its category (`+ CategoryInfo :
    # ParserError: (:) [], ParentContainsErrorRecordException`), the same for every error
    r"|At line:\d+ char:\d+"
    # (and the end of its category, wrapped onto a line of its own: `ts following:
    # p:String) [], RemoteException`)
    r"|.*\) \[[\w-]*\], \w+$"
    r"|\S{1,4} .*\.ps1:\d+ [^\W\d_]+:\d+\s*$"
    r"|\+ "
    r"|Finished in "
    r"|\d+ doctests?,"
    # what `x --version` printed before a later command of its chain failed (`node
    # --version && pnpm --version`: `v22.16.0`, then pnpm's refusal: sixteenth held-out
    # set), `Python 3.11.7`, `git version 2.39.2`
    r"|(?:[\w.-]+ (?:version )?)?v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?\s*$"
    # a value printed alone on its line (pnpm prints `undefined` before its `ERR_PNPM_...
    # Command "type-check" not found`, which had that for key line: twenty-seventh
    # held-out set)
    r"|(?:undefined|null|none|nil|nan)\s*$"
    # pytest's count of what it collected (`collecting ... collected 0 items / 1 error`),
    # before the error that stopped the collection (a new user's paste, session 31)
    r"|collect(?:ing|ed) .*\bitems?\b"
    # TAP's totals (testem, node --test): `# fail  2` named every run of an ember test
    r"|# (?:tests?|pass|fail|skip|todo|cancelled)\s+\d+\s*$"
    # a separator line (unittest's `-----` above `Ran 0 tests ... NO TESTS RAN`, the key
    # line of a discovery that found nothing, which every later run prints too: its
    # passing run was read as still failing, thirty-second held-out set)
    r"|[-=_~*\u2500\u2501\u2550]{3,}\s*$"
    # a service's id of the request that failed, and its pointer to its help, which a git
    # remote prints as errors (`remote: error: Trace: 6621385e...`, `remote: error: See
    # https://gh.io/lfs for more information.`): the key line of GitHub's refusals of a push,
    # whatever they said, and a paste without it was not seen before (nu49 finding 3)
    r"|(?:remote:\s+)?(?:error:\s+)?(?:(?:x-)?request[ _-]?id|trace(?:[ _-]?id)?"
    r"|correlation[ _-]?id)\s*[:=]\s*\S*\d\S*\s*$"
    r"|(?:remote:\s+)?(?:error:\s+)?see https?://\S+ for more (?:information|details)\.?\s*$"
    r")",
    re.I,
)
# A git remote's line that names its refusal by a code (GitHub's `remote: error: GH001: Large
# files detected.`), among the remote's lines that say about what (`remote: error: File
# x/zfs.ko is 103.31 MB; this exceeds GitHub's file size limit of 100.00 MB`, first): the
# same refusal of other files (_remote_code).
_REMOTE_CODE = lazy(r"remote:\s+(?:error:\s+)?[A-Z]{2,}\d{2,}:\s")
# A line that says only that a command failed, never why: the exception of a library that
# ran it (jsh's bare `CommandError`, execa's `ExecaError: Command failed with exit code 1:
# ...`, Node's `Error: Command failed: ...`, Python's `CalledProcessError: Command '...'
# returned non-zero exit status 1.`), a package manager's or a runner's last word (yarn's
# `error Command failed with exit code 1.`, pnpm's `ELIFECYCLE  Command failed ...`, make's
# `make: *** [Makefile:3: test] Error 1`, `Testem finished with non-zero exit code. Tests
# failed.`). It is printed after what went wrong, or on stderr, which a harness may store
# first: five ember test runs with five failures had jsh's `CommandError` for key line, one
# signature (a new user's tries, session 33). Scored 1: it yields to any line that says
# more, and is the key line only of an output that says nothing else.
_COMMAND_FAILED = lazy(
    r"(?:[\w.]+\.)?(?:Command|Execa?|(?:Called|Child)?Process|Subprocess|Spawn|Shell)"
    r"(?:Error|Exception)(?:\s*\{?$| \[\w+\]|: Command (?:failed|'))"
    r"|(?:Error: |error |ELIFECYCLE\s+)?Command failed\b"
    r"|make(?:\[\d+\])?: \*\*\* .*\bError \d+$"
    # apt's word of dpkg's failure, after dpkg said why (`dpkg: error processing package x`)
    r"|E: Sub-process \S+ returned an error code\b"
    # Debian's venv, after what failed (`The virtual environment was not created
    # successfully because ensurepip is not available.`): the command it ran, no cause. It
    # was the key line, `Failing command: <path>/python3`, of every failed venv (a new user's
    # try, nu39: thirty-fourth and thirty-sixth held-out sets)
    r"|Failing command: "
)

# Speed: Python's re skips ahead quickly only for patterns that start with a
# literal or a plain character set, and case-insensitive alternations defeat
# that (15 us a line instead of 1). So the anchored forms are tried with
# match() at the line start, and the forms that can occur anywhere are plain
# lowercase literals searched in the lowercased line.
_STRONG_START = lazy(
    r"npm (?:error|ERR!)"
    r"|\d+:\d+\s+error\s"  # eslint
    r"|E\s{2,}\S"  # pytest
    r"|(?:FAILED|ERROR)\b"  # pytest
    # Node's `TypeError [ERR_INVALID_ARG_TYPE]: ...` (its code in brackets)
    r"|\[?(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)\]?"
    r"(?: \[[A-Z][A-Z\d_]+\])?(?::|$)"
    r"|\*\* \([\w.]+\)"  # Elixir
    r"|\S+\.go:\d+:\d+: "
    r"|\S+:\d+:\d+: [A-Z]+\d+ "  # ruff, flake8
    r"|┃\s*\[[A-Z]\]\s"  # credo
    r"|undefined:"
    r"|ERR_PNPM_[A-Z_]+\b"  # pnpm's codes, as npm's `npm error code`
    r"|(?i:error|fatal(?: error)?|panic)(?:\[[\w-]+\]| \[[A-Z][A-Z\d_]+\])?:"
    # Kotlin's errors: `e: file:///x/A.kt:88:17 Unresolved reference: x`, `e: [ksp] ...`
    r"|e: (?:file:|[/~]|[A-Za-z]:[/\\]|\[[\w-]+\] )"
    r"|\* What went wrong:$"  # Gradle's cause follows (_gradle_cause)
)
_STRONG_ANY = lazy(
    r"error ts\d|error\[|\[error\]|✘|error:|fatal:|panic:"
    r"|command not found|no such file or directory|permission denied"
    r"|not a directory|is a directory|timed out after|segmentation fault"
    r"|cannot find module|could not resolve|module not found|no module named"
    r"|undefined reference|: undefined: |syntax error|syntaxerror|: unbound variable"
    r"|no tests ran"
)
_ERRNO = lazy(
    r"E(?:NOENT|ACCES|PERM|ISDIR|NOTDIR|EXIST|NOTEMPTY|CONNREFUSED|CONNRESET"
    r"|ADDRINUSE|ADDRNOTAVAIL|TIMEDOUT|MFILE|PIPE|NOSPC|ROFS|BUSY|INVAL|NOTFOUND"
    r"|AI_AGAIN|HOSTUNREACH|NETUNREACH|LIFECYCLE|RESOLVE|2BIG|LOOP|NAMETOOLONG)\b"
)
# Substrings, not words: "fail" covers failed and failure. Every _STRONG_ANY
# form contains one of these, so a line without any (most lines) costs one pass.
_MEDIUM = lazy(
    r"error|fail|fatal|exception|not found|cannot|can't|couldn't|could not"
    r"|unable|denied|refused|invalid|missing|no such|undefined|timed out|panic"
    r"|abort|unknown|unexpected|forbidden|not allowed|no matches found"
    r"|not a directory|is a directory|segmentation fault|no module named|✘"
    r"|nothing to commit|nothing added to commit|no changes added to commit"
    r"|unbound variable|not available|already in use"
    # a thing not done as asked (`The virtual environment was not created successfully`)
    r"|not (?:\w+ )?successful|unsuccessful"
    # a test run that found nothing to run (unittest's `Ran 0 tests` and `NO TESTS RAN`,
    # pytest's `no tests ran`, exit 5): what failed, though no error word says so
    r"|no tests ran|ran 0 tests"
)

# A word with a slash or a dot inside it: a path, a file or a test's name.
_PATH_WORD = lazy(r"\S*\w[/.]\w\S*")
# Words with "fail" in them that name a way of working, not a failure: `fail-fast`,
# `--fail-fast`, `failsafe`, `failover`, the shell's `pipefail` (a script's title
# `config.toml validation - sequential fail-fast` was the key line of each run, not its
# `[FAIL] bin_dir does not exist: ...`: twentieth held-out set).
_NO_FAILURE = lazy(r"pipefail|fail[-_]?(?:fast|safe|over)")
# What a notice says after what it could not find or do: that the program carries on
# without it or in another way (`SDL2 library not found.  Building without graphics
# support.`, CMake's `-- Google Test not found. Skipping test targets.`, `LLM call failed:
# x, using fallback`, `setup failed: x. Continuing without tracing.`). Such a notice names
# no error: it was the key line of a `make` that failed on the compiler's error, CMake's
# warning above it (a new user's try, nu39: thirty-sixth held-out set).
_CARRIES_ON = lazy(
    r"(?:[.,;]|\s[-\u2013\u2014])\s+(?:building|skipping|continuing|falling back|using"
    r"|ignoring|proceeding|defaulting)\b"
)
# apt's and dpkg's mark of an error line (`E: Malformed entry 1 in list file x ([option] not
# assignment)`), which may hold no error word: it names the error as any error word would.
# (apt's summary after it, `E: The list of sources could not be read.`, was the key line:
# a new user's try, nu39, thirty-sixth held-out set.)
_ERROR_MARK = "E: "

_TRACEBACK = "Traceback (most recent call last)"
# vitest's mark of a test that failed: `× suite > test 12ms`, its message on the next line
# (`→ expected 2 to be 3`), under the summary of its file (`❯ a.test.ts (2 tests | 1
# failed)`, which names no error)
_FAILED_TEST = ("× ", "✗ ", "✕ ")
# testem's (ember test, ember exam) failed test, numbered, with its browser: `1) [Chrome
# 143.0] tests/a-test.ts: shows the overlay`; its message on the next line (`Loading overlay
# is displayed`, `Promise rejected during "...": Assertion Failed: ...`)
_NUMBERED_TEST = lazy(r"\d+\) \[[^\]\n]{1,60}\] \S")
_EXCEPTION_LINE = lazy(r"^[A-Za-z_][\w.]*(?::|$)")
# A line that names an exception and says what it was (`TestingLibraryElementError: Found
# multiple elements with the text: Day 1`), sought beyond the window (see key_line).
_NAMED_EXCEPTION = lazy(
    r"^[ \t]*((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): \S[^\n]*)", re.MULTILINE
)
# How much of an output is searched for such a line.
_DEEP = 65536
# The lines of a pasted text whose other error lines are looked up alone (other_error_lines),
# at each end: a build log's error 4 KB above its end was not (a new user's try, session 27).
_DEEP_LINES = 1000
# Where a PowerShell error happened, the line after its message, in English, French, German,
# Spanish and Portuguese (`At line:2 char:1`, `Au caractère Ligne:2 : 1`).
_POWERSHELL_PLACE = (
    r"At line:\s?\d+ char:\s?\d+|Au caractère Ligne:\s?\d+ : \d+"
    r"|In Zeile:\s?\d+ Zeichen:\s?\d+|En línea:\s?\d+ Carácter:\s?\d+"
    r"|No linha:\s?\d+ caractere:\s?\d+"
)
# A line of a Windows PowerShell error record that follows its message: the place (above,
# or a script's `At C:\x\a.ps1:12 char:5`) or the category (`    + CategoryInfo          :
# ...`, `    + FullyQualifiedErrorId : ...`, names PowerShell does not translate).
_POWERSHELL_RECORD = lazy(
    r"[ \t]*(?:(?:" + _POWERSHELL_PLACE + r")\s*$|\S{1,4} .*\.ps1:\d+ [^\W\d_]+:\d+\s*$"
    r"|\+ (?:CategoryInfo|FullyQualifiedErrorId)\s+:)"
)
# Words of the lines _POWERSHELL_RECORD matches (the category's names, in every language):
# a text without one holds no record.
_POWERSHELL_RECORD_WORDS = (
    "CategoryInfo",
    "FullyQualifiedErrorId",
    "char:",
    "Ligne:",
    "Zeichen:",
    "Carácter:",
    "caractere:",
)
# The narrowest console whose wrapped lines are joined (80 columns, the last left empty).
_CONSOLE_MIN = 79
# The end of a sentence before a line that starts with no space: a line break the message
# holds, not a wrap (`Value cannot be null.`, then `Parameter name: path`).
_SENTENCE_END = (".", "!", "?", ":")
# A harness's line saying it stopped a command at its time limit.
_TIMED_OUT = lazy(r"(?:Command|command) timed out after ")

_ANSI = lazy(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][AB012]")

# --- normalise() placeholders, applied in this order -------------------------
# Speed, as above: every pattern starts with a literal or a plain character
# set, and a left boundary is a lookbehind placed after the first character
# ("\d(?<![\w.]\d)"), so the engine skips ahead instead of trying each position.

_QUOTED = lazy(
    r"'(?<![\w']')[^'\n]*'(?!\w)"  # not the apostrophe of "doesn't"
    r'|"[^"\n]*"'
    r"|`[^`\n]*`"
    r"|‘[^’\n]*’|“[^”\n]*”"
)
_URL = lazy(
    r"(?:https?|wss?|file|unix|ssh|git|postgres(?:ql)?|mysql|redis|mongodb(?:\+srv)?|amqp)"
    r"://[^\s'\"<>)\]]+"
)
_TMP_PATH = lazy(
    r"/(?:private/)?var/folders/[^\s'\":,;)\]]*"
    r"|/(?<![\w.]/)(?:tmp|dev/shm)/[^\s'\":,;)\]]*"
)
_WIN_TMP_PATH = lazy(r"[A-Za-z]:\\[^\s'\":;]*?\\Temp\\[^\s'\":,;)\]]*", re.I)
# A path: absolute, ./ ../ ~/, a Windows drive path, or a relative path that
# looks like one (an extension, a trailing slash, or two or more slashes, / or \\).
# Relative candidates exclude @scope/name so npm packages and eslint rules stay.
# Applied only to whitespace-separated tokens that hold a slash.
# An absolute path's part may hold parentheses glued to its name, a folder's copy or id
# (Windows's `OasisEraEditor(2001776)\\Script\\a.lua`, `My Project(1)/`), when more of the
# path follows: the path stopped at `(`, `<path>/OasisEraEditor(<n>)\\Script\\a.lua`, and
# another path to the same file was another error (nu40 finding 5). Not a call's or a
# place's parentheses at its end (`/x/a.so(+0x1f)`, `a.ts(3,5)`).
_GLUED_PARENS = r"(?:(?<=[\w.-])\([^\s'\":,;()\[\]<>/\\]*\)(?=[/\\\w.-])[^\s'\":,;()\[\]<>]*)*"
_PATH = lazy(
    r"(?<![\w@<>.:/\\-])"
    r"(?:"
    r"(?:~|\.{1,2})?/[^\s'\":,;()\[\]<>/][^\s'\":,;()\[\]<>]*"
    + _GLUED_PARENS
    + r"|[A-Za-z]:\\[^\s'\":,;()\[\]<>]+"
    + _GLUED_PARENS
    # (a glob's `*` in a part: `.specify/templates/commands/*.md` lost its last `/`, as
    # `<path>/commands*.md`, a new user's try, nu36)
    + r"|(?:[\w.-]+|\*\*?(?=/))(?:/[\w.@+*-]+)*/(?![\w.@+*-])"
    r"|(?:[\w.-]+|\*\*?(?=/))(?:/[\w.@+*-]+)+\.[A-Za-z]\w{0,7}\b"
    r"|(?:[\w.-]+|\*\*?(?=/))/[\w.@+*-]+/[\w.@+*-]+(?:/[\w.@+*-]+)*"
    # the same relative forms with Windows's separator (`src\Api\Controllers\*.cs`: rg's
    # os error 123 pasted from another project found nothing, a new user's try)
    # (a glob's `*` in a part; a `\\n` of JSON-escaped text is no separator)
    r"|[\w.-]+(?:\\[\w.@+*-]{2,})*\\(?![\w.@+*\\-])"
    r"|[\w.-]+\\[\w.@+*-]{2,}\\[\w.@+*-]{2,}(?:\\[\w.@+*-]{2,})*"
    r"|[\w.-]+(?:\\[\w.@+*-]{2,})+\.[A-Za-z]\w{0,7}\b"
    r")"
)
_TOKENS = lazy(r"(\s+)")
_UUID = lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?!\w)")
_DIGIT = lazy(r"\d")
_TIME = lazy(
    r"\d(?<![\w.]\d)"
    r"(?:\d{3}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\d?:\d{2}:\d{2}(?:[.,]\d+)?)(?!\w)"
)
# The times a log line starts with (`<time> <time> `, `[<time>] `).
_LEADING_TIME = lazy(r"^(?:\[?<time>\]?[\s,]*)+")
# ...as written, read first: the rules for a message's start (a program's folder, a
# shell's `not found`) see the message (a CI log's `2026-04-01T10:22:03.1234567Z /bin/sh:
# 1: cmake: not found`), and so does a component's tag between them, before a program's
# folder (`... [build] /bin/sh: ...`, a new user's paste; `12:00:01 [vite] Internal server
# error` keeps `[vite]`, as it is pasted without the time)
_LOG_START = lazy(
    r"^(?:\[?(?:\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?[\s,]+)+"
    r"(?:(?:\[[\w.:-]{1,24}\][\s:]*)+(?=[/~\\]|[A-Za-z]:[\\/]))?"
)
_SLASH_DATE = lazy(r"(?<![\w/.])\d{4}/\d{2}/\d{2}(?![\w/])")
_DURATION = lazy(
    r"\d(?<![\w.]\d)\d*(?:\.\d+)?(?:ms|us|µs|ns|h|m|s|(?:\s?(?:ms|msecs?|secs?|seconds?"
    r"|mins?|minutes?|hours?)))"
    r"(?:\s?\d+(?:\.\d+)?(?:ms|us|µs|ns|s|m|(?:\s?(?:ms|secs?|seconds?))))*(?!\w)"
)
# A user at a host, as a mail address or an ssh login (`empty ident name (for
# <bob@laptop.localdomain>)`, `git@github.com: Permission denied`): whose and which machine
# differ between sightings. Not a package at a version or tag (`three@0.159.0`,
# `vite@latest`): the host's first part is no number and its last a name after a dot. Git's
# guess from a host with no domain ends in `.(none)` (`unable to auto-detect email address
# (got 'me@laptop.(none)')`): an address too, the machine's, which no fix names (a new
# user's try, nu40 finding 3: "same error, other names" of `'ryoryo@super3.(none)'`).
_ADDRESS = lazy(
    r"(?<![\w.%+-])[\w.%+-]+@[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*\.[A-Za-z][A-Za-z0-9-]*\b"
    r"|(?<![\w.%+-])[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.\(none\)"
)
# sudo's prompt, glued to its error in a key line, names the user in their language
# (`[sudo] password for maria: sudo: a password is required`, `[sudo] senha para maria:`).
_SUDO_USER = lazy(r"(\[sudo\] [^:\n]*?)[^\s:]+ ?:")
_IP = lazy(r"\d(?<![\w.]\d)\d{0,2}(?:\.\d{1,3}){3}(?![\w.])")
# A machine's name (`cdn.example.com`, a certificate's `*.example.com`, `localhost`).
_DNS_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_DNS_NAME = r"(?:\*\.)?" + _DNS_LABEL + r"(?:\." + _DNS_LABEL + r")*"
# A machine a message names as one (see the module docstring's `<host>`): a name or an address
# before ` port N`, after `connect to host ` or `connect to `, and where a name did not resolve.
_HOST = lazy(
    r"(?<=\bconnect to host )[^\s'\"]+?(?=:? port \d)"
    r"|(?<=\bconnect to )(?!host )[^\s'\"]+?(?=:? port \d)"
    r"|(?<=\bresolve hostname )[^\s'\":]+(?=:)"
    r"|(?<=\bresolve host: )[^\s'\"]+"
    # a certificate's names and the name that is not among them (Node's `Hostname/IP does
    # not match certificate's altnames: Host: download.example.com. is not in the cert's
    # altnames: DNS:cdn.example.com`), a name no server answers to (`getaddrinfo ENOTFOUND
    # registry.example.org`, Go's `lookup proxy.example.org on 127.0.0.53:53: no such host`,
    # `ping: x.example: Name or service not known`): another machine, the same error (nu49
    # finding 4: a certificate of another host was not seen before)
    r"|(?<=\bHost: )"
    + _DNS_NAME
    + r"|(?<=\bDNS:)"
    + _DNS_NAME
    + r"|(?<=\bENOTFOUND )"
    + _DNS_NAME
    + r"|(?<=\bEAI_AGAIN )"
    + _DNS_NAME
    + r"|(?<=\blookup )"
    + _DNS_NAME
    + r"(?= on |: no such host)"
    + r"|(?<=: )"
    + _DNS_NAME
    + r"(?=: (?:Name or service not known|Temporary failure in name"
    r" resolution|No address associated with hostname|nodename nor servname provided))"
)
# What _HOST's words gate (normalise): a line without any has no host to set aside.
_HOST_WORDS = (" port ", "resolve host", "Host: ", "DNS:", "ENOTFOUND ", "EAI_AGAIN ")
_HOST_MORE = ("lookup ", "service not known", "name resolution", "with hostname", "servname")
# A certificate's list of names, each `<host>` (`DNS:<host>, DNS:<host>, ...`): as many as
# it has, one name (normalise).
_HOST_LIST = lazy(r"(DNS:)?<host>(?:,\s*(?:DNS:)?<host>)+")
# IPv6's any and loopback addresses before a port: Node's `address already in use :::3000`,
# `[::1]:8080`.
_IP6_PORT = lazy(r"(?<![\w:])(?:\[::1?\]|::1?)(?=:\d)")
# An errno's number where its message follows, which says the same in every system's
# numbering (EADDRINUSE is `[Errno 98]` on Linux, `[Errno 48]` on macOS).
_ERRNO_SAID = lazy(r"\[Errno -?\d+\](?= \S)")
_SIZE = lazy(r"\d(?<![\w.]\d)\d*(?:\.\d+)?\s?(?:[KMGT]i?B|kB|B|bytes?)(?!\w)")
# 0x..., and runs of 6+ hex digits (Claude Code's shell ids: `Shell 1f2e3d is not running`
# was an error of its own for each id); _hex() keeps words and all-digit runs.
_HEX = lazy(r"0x[0-9a-fA-F]+(?!\w)|[0-9a-fA-F]{6,}")
# Unquoted branch names in the git messages that name one (quoted ones are <str>
# already): any name, `main` as much as `spotter-dov`, but only after these
# words, so "Your branch is up to date" stays. The list is in the docstring.
_BRANCH = lazy(
    r"(?P<pre>The current branch |[Cc]urrent branch(?::| is) |On branch |src refspec "
    r"|[Cc]ouldn't find remote ref "
    r"|invalid reference: |Deleted branch |HEAD detached (?:at|from) |^merge: "
    r"|\[(?:remote )?rejected\] +|[Bb]ranch (?=\S+ set up to track)|remote branch )"
    r"(?P<name>[^\s'\"`]+?)(?P<post>[.,]?(?:\s|$))"
)
# One of these is in every line _BRANCH changes: a cheap test first.
_BRANCH_WORDS = (
    "branch ",
    "branch: ",
    "refspec ",
    "remote ref ",
    "reference: ",
    "detached ",
    "merge: ",
)
# The second name of `! [rejected] main -> main (...)`.
_BRANCH_ARROW = lazy(r"(?<=<name> -> )[^\s'\"`]+")
# The place of a compiler or linter diagnostic: a file (a path, or a name with an
# extension) and its line: `a.ts(3,5)`, `a.go:3:2`, `a.py:12`, `a.js: line 3, col 5`. A
# folder's name may end in parentheses (`Editor(2001776)\\a.lua:12:`), as a path's (_PATH).
_LOCATION = lazy(
    r"(?<![\w./\\@:~+-])(?P<file>(?:[A-Za-z]:)?[/\\]?"
    r"(?:[\w.@+~-]+(?:\([\w.-]*\))?[/\\])*[\w@+~-][\w.@+~-]*)"
    r"(?:\((?P<pl>\d+),(?P<pc>\d+)\)|:(?P<l>\d+)(?::(?P<c>\d+))?"
    r"|: line (?P<ll>\d+), col (?P<lc>\d+))"
    r"(?=[:\s),]|$)"
)
# Every place has one of these: a cheap test before _LOCATION.
_LOCATION_HINT = lazy(r":\d|\(\d+,\d+\)|: line \d")
_EXTENSION = lazy(r"\.[A-Za-z]\w{0,7}$")
# A quoted value that names the module or package of a missing-module error, by
# the words before it (the text up to the quote must end with them) or after it.
# (Searched in the lowercased line: a case-insensitive alternation is 4x slower.)
# The name a program could not use in its own code is the error, as a missing module is:
# `Cannot read properties of undefined (reading 'map')` and `(reading 'get')` are two bugs
# (a list not loaded, a crash inside webidl-conversions: a new user's paste was shown the
# other as "the same error", with its fix), as are `'NoneType' object has no attribute
# 'group'` and `module 'numpy' has no attribute 'float'`, or `name 'np' is not defined`
# and `name 'os' ...`. JavaScript's unquoted `x is not a function` keeps its words already.
# Nix's too: `error: undefined variable 'pkgs'`, `function 'anonymous lambda' called without
# required argument 'lib'` (a module's argument list without it): `'pkgs'` pasted was "same
# error signature" of `'lib'`'s, with no word that the names differ (nu44 finding 11).
_ACCESS_HINT = lazy(
    r"\((?:reading|setting) |has no attribute|destructure |is not defined"
    r"|undefined variable |required argument "
)
_ACCESS_BEFORE = lazy(
    r"(?:\((?:reading|setting)|has no attribute|destructure property|^name|[\s:]name"
    r"|undefined variable|without required argument)\s*$"
)
_ACCESS_AFTER = lazy(r"\s*(?:object has no attribute|has no attribute|is not defined)")
_MODULE_HINT = lazy(r"module|package|resolve|import|crate|registry|distribution|type def")
_MODULE_BEFORE = lazy(
    r"(?:no module named|cannot find (?:module|package)|can't resolve|could not resolve"
    r"|failed to resolve (?:import|module specifier)|unresolved imports?"
    r"|undeclared crate or module|unresolved module or unlinked crate|can't find crate for"
    r"|no matching package named|cannot find type definition file for"
    r"|declaration file for module|has no exported member|cannot import name"
    r"|cannot import name (?:'[^']*'|\"[^\"]*\"|\S+) from)\s*$",
    re.I,
)
_MODULE_AFTER = lazy(
    r"\s*(?:is not in (?:this|the npm) registry|in registry|distribution was not found"
    r"|has no exported member)",
    re.I,
)
# A kept value ending in one names a file (`js/app.js`); letters only, so that
# Go's `gopkg.in/yaml.v3` stays a package.
_FILE_EXTENSION = lazy(r"\.[A-Za-z]{1,8}$")
# Go import and module paths (their first part is a domain), unquoted after these words.
_GO_PACKAGE = lazy(
    r"(?:(?<=provides package )|(?<=providing package )|(?<=cannot find package )"
    r"|(?<=^package )|(?<=^go: )|(?<=: package ))"
    r"[\w-]+\.[\w.-]+(?:/[\w.~+-]+)+(?:@v\d[\w.+-]*)?"
)
# The package of a registry's `404 Not Found - GET <url>`: the end of the URL.
_REGISTRY_GET = lazy(r"(?<=GET )(?:https?://)[^\s'\"<>]*(?:registry|npm)[^\s'\"<>]*")
# Versions inside a kept value (`'left-pad@^1.3.0'`, `cobra@v1.8.0`) and
# `v1.2.3` anywhere: a version bump changes nothing.
# Only after a version operator: `pkg-2` and Go's `/v2` are parts of the name.
_VERSION = lazy(r"(?<=[@=<>^~])v?\d+(?:\.\d+)*(?:-[\w.]+)?(?![\w])")
_V_VERSION = lazy(r"v(?<![\w.]v)\d+(?:\.\d+)+(?![\w.])")
# What a command line's usage error says a value was given to, quoted after `for`: cobra's
# `unknown command "logs" for "docker compose"` and `invalid argument "x" for "gt sling"`
# (the program and its command), pflag's `invalid argument "x" for "-n, --count" flag`.
# It is what the error is about, kept as a missing module is: `for "gt deacon"` was `for
# <str>`, and a made-up docker compose error had "the same error signature" and gt's fix (a
# new user's try, session 34). The value itself (the unknown command) is `<str>`.
_USAGE_FOR = lazy(
    r"(\b(?:[Uu]nknown (?:sub)?command|[Ii]nvalid argument) (?:'[^'\n]*'|\"[^\"\n]*\") for )"
    r"('[^'\n]*'|\"[^\"\n]*\")"
)
# A list of quoted values, `<str>` each by then: `"read_file", "glob", "web_fetch"` of
# Gemini CLI's `Did you mean one of: ...?`, argparse's `(choose from 'a', 'b')`, Python's
# `missing 2 required positional arguments: 'a' and 'b'`. How many a program listed is no
# part of its error: one `<str>` (a one-name list had "not been seen before", a new user's
# try, session 34).
_STR_LIST = lazy(r"<str>(?:(?:,(?: or| and)?| or| and) <str>)+")
# A name a program did not know, said bare at the end of its message after what it is:
# docker's `No such container: webapp`, `no such service: api` (compose), `No such image:
# nginx:latest`, SQLite's `no such table: users`, `Unknown database: shop`, Claude Code's
# `No such tool available: Grep`, `Unknown skill: x`. It is the user's data, as a quoted
# name is (`<str>`, one of quoted_names): the same error about another container was "not
# seen before" with no row, while the same words quoting the name found it as "same error,
# other names" (a new user's tries, nu40 finding 7). A name is one word that starts with a
# letter (a flag's `--x`, a path, a number or an id are read by their own rules), not in
# capitals (`ENOSPC`: a code is the error); not after `file or directory` (a path, read so
# by loose) nor `command` (the program is the error: command not found), nor a module,
# package or crate (the module a program could not find is the error, as it is quoted).
_BARE_NAME = lazy(
    r"(?P<what>\b(?:[Nn]o such|NO SUCH|[Uu]nknown|UNKNOWN)"
    r" (?!(?:file|command|module|package|crate)\b)[A-Za-z]+(?: [A-Za-z]+){0,2}: )"
    r"(?P<name>(?![A-Z][A-Z0-9_]*\.?$)[A-Za-z_](?:[\w.-]*\w)?(?::[\w.-]*\w)?)\.?$"
)
# The token a shell's parser stopped at, quoted as bash and zsh quote it, `` `X' ``: bash's
# `syntax error near unexpected token `('`, zsh's `parse error near `)'`. It is kept, as a
# missing module is: `(` is a function defined where `sh` reads no functions or a bracket
# left unquoted, `fi` or `done` a block not closed, `newline` a redirect to nothing, each
# its own fix. The quote is no pair _QUOTED reads, so the token stayed only while no
# backtick followed it on the line (bash's next line, the source it stopped in: `` `conda()
# {' ``), which read `` `(' ... ` `` as one value; kept, kept_set_aside sets it aside.
_SHELL_TOKEN = lazy(r"(?:(?<=near unexpected token )|(?<=parse error near ))`[^`'\n]{1,40}'")
# The file that imports a missing package is where it was seen, not the error.
_IMPORTER = lazy(r"(?<= imported from )[^\s'\"`]+")
# Kept values wait behind this mark while the rules run on the rest of the line.
_KEPT = lazy("\x00([A-Z])\x00")
_NUMBER = lazy(r"\d(?<![\w.]\d)\d*(?:\.\d+)*(?!\w)")
# A number after one of these is kept: it tells bugs apart.
_KEEP_NUMBER_AFTER = ("exit code", "exit status", "errno", "os error", "status code", "http")
_SPACE = lazy(r"\s+")


def _unwrap(text: str) -> tuple[str, bool]:
    """`text` without Claude Code's <tool_use_error> wrapper, and whether it had one."""
    if "<tool_use_error>" not in text[:200]:
        return text, False
    m = _WRAPPED.match(text)
    if not m:
        return text, False
    return m.group(1), True


# Claude Code's wrapper's tags wherever they stand: a paste cut inside a failure's text keeps
# the one at its end (`}</tool_use_error>`).
_WRAPPER_TAG = lazy(r"</?tool_use_error>")


def without_wrapper_tags(text: str) -> str:
    """`text` without Claude Code's <tool_use_error> tags, opening or closing, wherever they
    are: its markup, whose words (`tool`, `use`, `error`) every one of its tool errors
    holds, not words of an error."""
    return _WRAPPER_TAG.sub(" ", text) if "tool_use_error>" in text else text


def unwrap(text: str) -> str:
    """`text` without Claude Code's <tool_use_error> wrapper: its markup, not the output
    (what a card shows around pasted words), and a Codex sandbox denial as the output it
    holds (denied_output)."""
    return denied_output(text) or _unwrap(text)[0]


# Codex 0.118's unified exec, its command denied by the sandbox: Rust's Debug text of the
# error, the output in it twice escaped (`exec_command failed: CreateProcess { message:
# "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 2, stdout: StreamOutput
# { text: \"\", ...}, stderr: StreamOutput { text: \"error: ...\\n\", ... },
# aggregated_output: ...`).
_DENIED = lazy(r"CreateProcess \{ message: \"Codex\(Sandbox\(Denied \{ output: ")
_DENIED_OUTPUT = lazy(
    r"\b(?P<stream>stdout|stderr|aggregated_output): StreamOutput \{ text: \\\"(?P<text>.*?)"
    r"\\\", truncated_after_lines",
    re.DOTALL,
)
_RUST_ESCAPE = lazy(r"\\(u\{[0-9a-fA-F]+\}|.)", re.DOTALL)
_RUST_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": ""}


def _unescape(text: str) -> str:
    """A Rust string's Debug escapes undone (`\\n`, `\\"`, `\\u{1b}`)."""

    def one(m: re.Match[str]) -> str:
        escape = m.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        return _RUST_ESCAPES.get(escape, escape)

    return _RUST_ESCAPE.sub(one, text)


def denied_output(text: str) -> str | None:
    """The output of a command Codex's sandbox denied, as the command printed it (both
    streams as they came, else stderr then stdout), None for any other text. A card showed
    the Debug text around it (`...(os error 13)\\n\", truncated_after_lines: None },
    aggregated_output: ...`: a new user's try, nu36). key_line() reads it too: the key line
    was a piece of the Debug text, cut at an escaped line break (`error: Failed to
    initialize cache at <str>\\`), or all of it (`exec_command failed for <str>:
    CreateProcess { message: <str>\\<str>bwrap: ...`), which the same error printed by a
    shell never has (a new user's try, nu38)."""
    if "CreateProcess {" not in text[:300] or not _DENIED.search(text, 0, 300):
        return None
    streams = {m.group("stream"): m.group("text") for m in _DENIED_OUTPUT.finditer(text)}
    shown = streams.get("aggregated_output") or "\n".join(
        streams[name] for name in ("stderr", "stdout") if streams.get(name)
    )
    return _unescape(_unescape(shown)).strip() or None


# Cached: refresh_fixes takes them off each failure's output, then key_line() asks again
# of the same text, and the rules ask for a call's output for each failure near it.
@functools.lru_cache(maxsize=128)
def without_startup(text: str) -> str:
    """`text` without the lines a login shell's startup files printed (see _STARTUP_LINE):
    the environment's, printed whatever the command did, not the command's. When nothing
    but an exit status would be left, the user's own startup file's complaint may be the
    error (`source ~/.zshrc`): only Homebrew's lines go then."""
    if "/" not in text or ": " not in text:
        return text
    bare = _STARTUP_LINE.sub("", text)
    if bare == text:
        return text  # no such line (a match is never empty): not searched for again below
    if not _EXIT_CODE_HEAD.sub("", bare.lstrip(), count=1).strip():
        return _STARTUP_LINE.sub(lambda m: "" if "/Homebrew/" in m.group(0) else m.group(0), text)
    return bare


def _window(text: str, size: int = _WINDOW, count: int = _WINDOW_LINES) -> list[str]:
    """The lines key_line() looks at: bounded head and tail (`size` characters, `count`
    lines each), cut, without ANSI codes."""
    if len(text) > 2 * size:
        head = text[:size].splitlines()[:count]
        tail = text[-size:].splitlines()[-count:]
        # The cut lines at the seams are partial: drop them.
        lines = head[:-1] + tail[1:]
    else:
        lines = text.splitlines()
        if len(lines) > 2 * count:
            lines = lines[:count] + lines[-count:]
    if lines and "\\n" in lines[0]:
        # Hook messages (e.g. "Pre-commit validation failed:\n\n[FORMAT] ...")
        # arrive with their newlines still escaped in the first line.
        lines = _escaped_lines(lines[0]) + lines[1:]
    return [without_log_prefix(_ANSI.sub("", line[:_MAX_LINE])) for line in _unwrapped(lines)]


def _unwrapped(lines: list[str]) -> list[str]:
    """`lines` with the message of a Windows PowerShell error record on one line: its
    console cut it at its width, mid-word (`... with CLSID {x} failed du`, `e to the
    following error: 80080005 ...`), and the same error from a wider console, or pasted
    from a log, is one line. A run of lines is one message when it ends right before the
    record's place or category (_POWERSHELL_RECORD: the safe test that PowerShell wrote
    it) and each of its lines but the last has one length, the console's width (at least
    _CONSOLE_MIN), the last no more; they are joined as they were cut, with no space added
    (the cut keeps a space at either end). Not across a sentence's end before a line that
    starts with no space: that line break is the message's own."""
    whole = "\n".join(lines)
    if not any(word in whole for word in _POWERSHELL_RECORD_WORDS):
        return lines  # (speed: most outputs hold no record, and a loop over lines costs)
    joined: list[str] = []
    i = 0
    while i < len(lines):
        width = len(lines[i])
        j = i + 1
        if width >= _CONSOLE_MIN and not _in_record(lines[i]):
            while j < len(lines) and _continues(lines[j - 1], lines[j], width):
                j += 1
                if len(lines[j - 1]) < width:
                    break  # the message's last line
            if j - i > 1 and j < len(lines) and _POWERSHELL_RECORD.match(lines[j]):
                joined.append("".join(lines[i:j]))
                i = j
                continue
        joined.append(lines[i])
        i += 1
    return joined


def _in_record(line: str) -> bool:
    """Whether a line is a part of a PowerShell error record other than its message: the
    place, the category, the source line and its carets (`+ $ppt = New-Object ...`, `+
    ~~~`)."""
    return bool(_POWERSHELL_RECORD.match(line)) or line.lstrip().startswith("+ ")


def _continues(line: str, nxt: str, width: int) -> bool:
    """Whether `nxt` is the rest of a message `line` that the console cut at `width`."""
    if len(line) != width or not nxt or len(nxt) > width or _in_record(nxt):
        return False
    return not (line.endswith(_SENTENCE_END) and not nxt[:1].isspace())


# What a log writes before each line: when (`2026-05-03 08:12:56 `, `[2026-05-03 08:12:56] `,
# `2026-05-03T08:12:56.112Z `, `08:12:56 `, `12:01:45,123 `) and, after it, whose (`12:01:45
# pre-commit | `: docker compose's and pre-commit's tag of each line); the indentation after
# it stays (a frame's)
_LOG_PREFIX = lazy(
    r"\[?(?:\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?"
    r"|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?)(?:Z|[+-]\d{2}:?\d{2})?\]?(?:[ \t]|$)"
    r"(?:[\w.-]{1,40}[ \t]+\|(?:[ \t]|$))?"
)


def without_log_prefix(line: str) -> str:
    """`line` without what a log wrote before it (_LOG_PREFIX): a line of a log is the line
    of the output it logged. A header's next line (`[FORMAT] Code is not formatted.` after
    `12:01:45 pre-commit | Pre-commit validation failed:`) is that line, and a pasted log's
    error line scores as the error does (`** (RuntimeError) ...` after its time)."""
    if line[:1].isdigit() or line[:1] == "[":
        logged = _LOG_PREFIX.match(line)
        if logged:
            return line[logged.end() :]
    return line


# A Windows path, whose `\n` is a folder's first letter (`C:\Users\me\node_modules`,
# `\\server\share\new`), not an escaped line break.
_WINDOWS_PATH = lazy(r"(?<![\w.-])[A-Za-z]:[\\/][^\s'\"`,;]*|\\\\[\w.-]+\\[^\s'\"`,;]*")


def _escaped_lines(line: str) -> list[str]:
    """`line` split at its escaped line breaks, `\\n`, not at those inside a Windows path."""
    paths = [m.span() for m in _WINDOWS_PATH.finditer(line)]
    if not paths:
        return line.split("\\n")
    parts, start = [], 0
    for m in re.finditer(r"\\n", line):
        if not any(a <= m.start() < b for a, b in paths):
            parts.append(line[start : m.start()])
            start = m.end()
    parts.append(line[start:])
    return parts


def _gradle_cause(lines: list[str], i: int) -> str:
    """What Gradle says went wrong after its `* What went wrong:` (line i): the next line
    and the `> ` lines of its causes (`Execution failed for task ':app:kspDebugKotlin'. >
    A failure occurred while executing ...KspAAWorkerAction > Error while resolving ...`,
    `Could not resolve all files for configuration ':app:debugRuntimeClasspath'. > Could
    not find com.squareup.retrofit2:retrofit:3.9.0.`): the first line alone often names
    only the task."""
    cause: list[str] = []
    for line in lines[i + 1 : i + 1 + _GRADLE_CAUSE_LINES]:
        if not line:
            if cause:
                break
        elif not cause:
            cause.append(line)
        elif line.startswith("> ") and not line.startswith("> Run with"):
            cause.append(line)
        elif line.startswith("* "):
            break
    return " ".join(cause) or lines[i]


# An error's start glued to what a progress bar left on its line (`✘ Cask x (7.9)
# Downloading 145.8MB/-------Error: A ... process has already locked ...`: the cursor
# codes that moved it are gone), after no letter or space.
_GLUED_ERROR = lazy(r"(?<=[-=#>|/%)\]\d])(?:Error|ERROR|error|fatal|FATAL): ")


# A line that opens a JSON array or object its next lines hold: Claude Code's
# `InputValidationError: [` before the issues a tool's input schema found, each
# `{"code": ..., "path": [...], "message": ...}`.
_OPENS_JSON = lazy(r"(?P<head>\S.{0,100}?):? *(?P<open>[\[{])")
_JSON_MESSAGE = lazy(r'"message": *"((?:[^"\\]|\\.)*)"')
_JSON_PATH = lazy(r'"path": *\[([^\]]*)\]')


def _json_issue(lines: list[str], i: int) -> str | None:
    """Of a line that opens JSON (_OPENS_JSON), the line with what its first issue says
    in place of the JSON: `InputValidationError: prompt: Required` (its path, then its
    message); None when no message is found. Read whole when the JSON is, else by its
    first `"path"` and `"message"` (a cut output)."""
    opened = _OPENS_JSON.fullmatch(lines[i])
    if opened is None:
        return None
    body = opened.group("open") + "\n".join(lines[i + 1 :])
    message: object = None
    path: object = None
    try:
        data, _ = json.JSONDecoder().raw_decode(body)
    except ValueError:
        data = None
    first = data[0] if isinstance(data, list) and data else data
    if isinstance(first, dict):
        message, path = first.get("message"), first.get("path")
    else:
        found = _JSON_MESSAGE.search(body)
        if found:
            try:
                message = json.loads(f'"{found.group(1)}"')
            except ValueError:
                message = found.group(1)
            named = _JSON_PATH.search(body, 0, found.start()) or _JSON_PATH.search(body)
            path = named and [p.strip().strip('"') for p in named.group(1).split(",")]
    if not isinstance(message, str) or not message.strip():
        return None
    where = ".".join(str(p) for p in path if str(p)) if isinstance(path, list) else ""
    said = " ".join(message.split())
    return f"{opened.group('head')}: {where + ': ' if where else ''}{said}"


def _nix_error(lines: list[str], i: int) -> str | None:
    """Of Nix's trace under its `error:` (line i), the error itself: the last `error: ` line,
    under the `… while ...` frames of what it was evaluating; None when line i heads no
    trace. `… while checking flake output 'x'`, the outermost frame, was the key line of
    any error of a flake (a new user's try, session 34)."""
    frame = next((nxt for nxt in lines[i + 1 :] if nxt), "")
    if not frame.startswith("… "):
        return None
    return next((nxt for nxt in reversed(lines[i + 1 :]) if nxt.startswith("error: ")), None)


# The chain of causes under an error: Rust's anyhow and cargo (`Caused by:`, then each cause
# indented, or numbered `0: ...`), uv's (`  Caused by: ...` on each line), Turbopack's (`- `
# items) and Java's (`Caused by: java.io.IOException: ...` between stack frames).
_CAUSED_BY = "Caused by:"
_CAUSE_ITEM = lazy(r"(?:\d+: |- )")
_JAVA_FRAME = lazy(r"(?:at |\.\.\. \d+ more$)")
# How far below the error its causes are looked for (Java's frames between them).
_CAUSE_LINES = 60


def _root_cause(lines: list[str], i: int) -> str | None:
    """What the causes under line i say last, the root cause, None when no `Caused by:`
    follows line i (blank lines and stack frames between). `error: Failed to initialize
    cache at <str>` said nothing of why: a paste whose cause was `Read-only file system (os
    error 30)` was shown as the same error, with the fix of `Permission denied (os error
    13)`, Codex's escalated permissions (a new user's try, nu38). The root cause is the
    one that names what the system refused (`tunnel error: proxy authorization required`
    under uv's `Request failed after 3 retries`, `Failed to fetch: <url>`, ...)."""
    cause = None
    listing = False  # under a `Caused by:` of its own line: its causes follow
    for line in lines[i + 1 : i + 1 + _CAUSE_LINES]:
        if line.startswith(_CAUSED_BY):
            said = line[len(_CAUSED_BY) :].strip()
            listing = not said
            cause = said or cause
        elif listing and line:
            item = _CAUSE_ITEM.match(line)
            cause = line[item.end() :] if item else line
        elif line and not _JAVA_FRAME.match(line):
            break
        else:
            listing = False
    return cause or None


def _with_header(lines: list[str], i: int) -> str:
    """Line i, followed by the next non-empty line when line i is a short header."""
    line = lines[i]
    if line.endswith(("[", "{")) and (issue := _json_issue(lines, i)):
        return issue
    glued = _GLUED_ERROR.search(line, 1)
    if glued:
        line = line[glued.start() :]
    if line == _GRADLE_WRONG:
        return _gradle_cause(lines, i)
    if line.endswith(":") and lines[i + 1 : i + 2] == ["Line |"]:
        # PowerShell 7's record: `ParserError:`, `Line |`, the source and its carets, then
        # `| Missing file specification after redirection operator.`
        said = (nxt[1:].strip() for nxt in lines[i + 2 : i + 12] if nxt.startswith("|"))
        message = next((m for m in said if m.strip("~ ")), None)
        if message:
            return f"{line} {message}"
    if line == "error:" and (error := _nix_error(lines, i)):
        return error
    if (cause := _root_cause(lines, i)) is not None:
        return f"{line} Caused by: {cause}"
    if line.endswith(":") and len(line) <= _MAX_HEADER:
        for nxt in lines[i + 1 :]:
            if nxt:
                return f"{line} {nxt}"
    npm = _NPM_CODE.match(line)
    if npm:
        # `npm error code E404` names the class; the next npm line names the
        # package or file (`404 Not Found - GET .../left-pad`).
        for nxt in lines[i + 1 : i + 1 + _NPM_DETAIL_LINES]:
            rest = nxt[len(npm.group(1)) :].strip() if nxt.startswith(npm.group(1)) else None
            if rest is None:
                break
            if rest and not _NPM_NO_DETAIL.match(rest) and not _NOISE.match(nxt):
                return f"{line} {nxt}"
    return line


def _remote_code(lines: list[str], i: int) -> int:
    """Of a key line i that a git remote said (`remote: ...`), its line in the remote's
    message that names the refusal by a code, when one does (_REMOTE_CODE); else i."""
    for j in range(i, len(lines)):
        if not lines[j].startswith("remote:"):
            break
        if _REMOTE_CODE.match(lines[j]):
            return j
    return i


def _score(line: str) -> int:
    # An error line names its error early; the rest of a long line is data
    # (a dependency list, minified code) that would only cost time.
    line = line[:_MAX_SCORED]
    # a line in the user's language scores as its English does (pastfix.locales): German
    # bash's `Kommando nicht gefunden.` names no error in English words
    line = in_english(line)
    if _NOISE.match(line) or status_of(line) is not None:
        return 0
    if _COMMAND_FAILED.match(line) or "non-zero exit" in line:
        return 1
    if _STRONG_START.match(line) or ("E" in line and _ERRNO.search(line)):
        return 3
    low = line.lower()
    marked = line.startswith(_ERROR_MARK)
    said = _MEDIUM.search(low)
    if not said:
        return 2 if marked else 0
    if _CARRIES_ON.search(low, said.end()):
        return 0  # a notice: it went on without the thing (see _CARRIES_ON)
    if _STRONG_ANY.search(low):
        return 3
    if not _MEDIUM.search(_NO_FAILURE.sub(" ", _PATH_WORD.sub(" ", low))):
        # the word is a file's name (`deleted: statsig.failed_logs.65`)
        return 2 if marked else 0
    return 2


def names_error(line: str) -> bool:
    """Whether a line names an error outright, in a known form (a key line's score 3)."""
    return _score(line) == 3


def says_error(text: str) -> bool:
    """Whether a text's key line names an error or a failure (a score of 2 or 3), as what a
    command still running has printed so far may (`error[E0308]: mismatched types` of a
    `cargo check` that goes on)."""
    return _score(key_line(text)) >= 2


def reports_no_error(text: str) -> bool:
    """Whether a text holds no word of anything gone wrong: no line scores as an error or a
    failure at all (not even `exit status 1`), nor holds a word of one (_MEDIUM's, or
    _TROUBLE's: `Killed`, `Unauthorized`, a warning) or a word that denies (`File does not
    exist.`), once the counts of none are set aside (`found 0 vulnerabilities`, `0 failed`,
    `ran without issues`), nor a word that may be an error's name, in capitals or camel case
    (_NAMED: `EISDIR`, `ImagePullBackOff: Back-off pulling image`, `SIGKILL`), nor a line in
    an error's form, a name then `: ` and what it says (_SAID_BY: `frobnicator exploded: flux
    capacitor unaligned`, whatever its words), and three words at least. A success log
    (`Compiling foo v0.1.0`, `42 passed in 3.21s`, npm's `added 214 packages`) or a statement
    that all went well is no error, and was called "the pasted error"
    (pastfix.queries.no_error_notice; nu42 finding 10). So is a commit as git log and git
    show print it (_COMMIT_RECORD: `commit <sha>`, `Author:`, `Date:` and its message, which
    is a person's words about the code, `fix crash in README`), read as the rest of the text
    without it (nu43 finding 7: "the pasted error (its key line: 'commit 3f2a...')")."""
    if classify(text) != ERROR:
        return False
    if len(text.split()) < 3:
        # (`zzz yyy`: too little to read as anything)
        return False
    if "commit " in text:
        text = _COMMIT_RECORD.sub("", text)
    # git status's report of a clean tree is a state, not an error (what a `git commit` with
    # nothing to commit says too, which the fix rules read as already so)
    text = _CLEAN_TREE.sub("", text)
    if any(status_of(line) not in (None, "Exit code 0") for line in text.splitlines()):
        return False  # (`Exit code 1` above `All tests passed`: the command failed)
    # an error in the user's language says what its English says (pastfix.locales: cmd.exe's
    # `Der Befehl "python" ist entweder falsch geschrieben oder`, which holds no word of an
    # error in English, was said to report none)
    text = "\n".join(map(in_english, text.split("\n")))
    low = _NONE_OF.sub(" ", text.lower())
    if _MEDIUM.search(low) or _TROUBLE.search(low) or _DENIES.search(low):
        return False
    # (of a success log, a word in camel case names what it built, its sizes: Next.js's
    # `92.1 kB`, nu48 finding 6; one in capitals may still be an error's, `EISDIR`)
    named = (_CAPITALS if _SUCCEEDED.search(low) else _NAMED).search(_NONE_OF.sub(" ", text))
    if named or _SAID_BY.search(text):
        return False
    return not any(_score(line) for line in low.splitlines())


# The most a person's words given on rejecting a call hold (user_words): a few sentences.
USER_WORDS_CHARS = 600
_WORDS_LINES = 4
# A word of a person speaking to the agent: of themselves (`I made db change`, `Should we
# reuse X?`, `Let's revert`), a question put to it (`Can you just dry up code`), or an
# instruction to it first (`Use command "yarn test_webdb ..." with correct grep`). A
# program's words address its user in the second person (`Your branch is ahead`, `Hi dev!
# You've successfully authenticated`, `Did you mean`, `please run: gh auth login`), never
# as "I" or "we" (nor as `my` in a name: `Cloning into 'my-repo'`, `I/O`).
_SPOKEN = lazy(
    r"(?i:(?<![\w'’/.-])(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|we'll|let's|our)(?![\w'’/.-])"
    r"|\b(?:can|could) you\b)"
    r"|^(?:Use|Don't|Do not|Revert|Undo|Stop|Instead|Just|Rather)\b"
)
# A line in a program's form: a name, a place or a prompt before what it says (`ls: cannot
# access`, `Browserslist: caniuse-lite is outdated`, `/src/a.ts:3:1`, `$ yarn run`, `> x`).
_PROGRAM_LINE = lazy(r"^\s*(?:[^\s:]+:(?:\s|\d|$)|[$>#%*|+]\s|[\[({<]|\S*[/\\]\S*:)")
# Claude Code's own sentences of a call it did not do, in plain words: a file too large to
# read (`File content (21901 tokens) exceeds maximum allowed tokens (10000). Use offset and
# limit parameters ...`), an edit that changes nothing or matches more than once, a page
# that did not come.
_HARNESS_SAYS = lazy(
    r"File content \(|File does not exist|No changes to make|Found \d+ matches of the string"
    r"|Request failed with status code"
)
# A word as a person writes it (letters, maybe a quote or a stop around it).
_PLAIN_WORD = lazy(r"[\"'(]*[A-Za-z]+(?:['’][a-z]+)?[\"'.,;:!?)]*")


def user_words(text: str) -> bool:
    """Whether a failed call's whole text is what a person typed to the agent, not any
    program's or tool's words: the reason the user gave on rejecting the call, which Claude
    Code 2.0.x (and a host that asks leave for it, an IDE's or the SDK's) returns alone as
    the call's error, without the rejection's own sentence that newer versions put before it
    (`... To tell you how to proceed, the user said:`): `Use command "yarn test_webdb
    --grep=..." with correct grep for test name`, `I made db change.  Try running test again
    without making changes`, `No.  Can you just dry up code and check values on both
    objects?` (nu49 finding 1: each was read as the command's failure, and the rejected
    command as the fix of the failure before it).

    A few sentences (at most _WORDS_LINES lines, USER_WORDS_CHARS characters, three words at
    least), mostly plain words, that speak to the agent (_SPOKEN); no line in a program's
    form (_PROGRAM_LINE) or naming an error, no escape sequence, no exit status, no wrapper,
    nothing classify() knows (a rejection in its own words, Claude Code's messages)."""
    text = text.strip()
    if not text or len(text) > USER_WORDS_CHARS or "\x1b" in text or "<" in text[:1]:
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > _WORDS_LINES or classify(text) != ERROR:
        return False
    if _ERROR_PREFIX.match(text) or _HARNESS_SAYS.match(text):
        return False
    if any(_PROGRAM_LINE.match(line) for line in lines):
        return False
    words = text.split()
    plain = sum(1 for word in words if _PLAIN_WORD.fullmatch(word))
    if len(words) < 3 or plain * 3 < len(words) * 2:
        return False
    if any(_score(line) for line in lines):
        return False
    return bool(_SPOKEN.search(text))


# What a shell says in its own words, by the systems whose shells say so: Windows' (PowerShell's
# `The term 'awk' is not recognized as the name of a cmdlet`, its error record's `+
# CategoryInfo`, `CommandNotFoundException` and `At line:1 char:1`; cmd.exe's `'awk' is not
# recognized as an internal or external command`), and a POSIX shell's (bash, dash, zsh, ksh,
# fish, their paths and scripts: `bash: `, `/bin/bash: line 1: `, `zsh:1: `, `sh: 1: `,
# zsh's `(eval):1: `, and `command not found`, whatever the system under it: Git Bash too).
WINDOWS_SHELL, POSIX_SHELL = "windows", "posix"
_WINDOWS_SHELL_WORDS = lazy(
    r"is not recognized as (?:the|a) name of a cmdlet"
    r"|is not recognized as an internal or external command"
    r"|\bCommandNotFoundException\b|^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId)\s*:"
    r"|^At line:\d+ char:\d+",
    re.MULTILINE,
)
_POSIX_SHELL_WORDS = lazy(
    r"^(?:[\w./-]*/)?(?:ba|da|z|k|fi)?sh(?::\d+)?: |^\(eval\):\d+: |command not found",
    re.MULTILINE,
)


# Where a line of cmd.exe's message in another language may start (pastfix.locales'
# _CMD_NOT_RECOGNIZED: the quoted name, or German's `Der Befehl "x"`).
_CMD_START = lazy(r"^(?:['\"«“„‘]|Der Befehl )", re.MULTILINE)


def shell_family(text: str) -> str | None:
    """Which family of shells a failure's text (its first HEAD_CHARS) was written by, as its
    own words say: WINDOWS_SHELL, POSIX_SHELL, or None when it says neither. A way round
    one family's error carries over to that family (PowerShell's `Get-Content` for `sed`,
    bash's `find` for `tree`), not to the other: a pasted PowerShell `awk : The term 'awk'
    is not recognized` had three bash and zsh `command not found` cards, its PowerShell
    kin, `sed`'s, left out (nu45 finding 5; queries.other_shell)."""
    head = text[:HEAD_CHARS]
    if _WINDOWS_SHELL_WORDS.search(head):
        return WINDOWS_SHELL
    if _POSIX_SHELL_WORDS.search(head):
        return POSIX_SHELL
    # cmd.exe's words in the user's language (pastfix.locales: `Der Befehl "awk" ist
    # entweder falsch geschrieben oder`), read as its English: of the lines that start as its
    # translations do (a quote, German's words), few
    for start in _CMD_START.finditer(head):
        end = head.find("\n", start.start())
        line = head[start.start() : end if end >= 0 else len(head)]
        if _WINDOWS_SHELL_WORDS.search(in_english(line.strip())):
            return WINDOWS_SHELL
    # and PowerShell 7's, whose message in another language has no English record under it
    # (`python: Der Begriff „python“ wird nicht als Name eines Cmdlets ... erkannt.`): of the
    # lines with a letter that is no ASCII, as every translation has
    if not head.isascii():
        for line in head.splitlines():
            if not line.isascii() and _WINDOWS_SHELL_WORDS.search(in_english(line.strip())):
                return WINDOWS_SHELL
    return None


# A warning's line: npm's (`npm warn deprecated x`, `npm WARN`), a tool's `warning:` or
# `[WARNING]`, Python's (`DeprecationWarning: ...`, `UserWarning`), `⚠ Warning:`.
_WARNING_LINE = lazy(
    r"(?:npm |⚠\ufe0f?\s*)?warn(?:ing)?\b|\[warn(?:ing)?\]|(?:[\w.]+:\d+: )?[A-Z]\w*Warning\b",
    re.IGNORECASE,
)


def only_warns(text: str) -> bool:
    """Whether every line of an output is a warning (_WARNING_LINE), none an error
    (says_error): a command that warns goes on, so such a paste names no error
    (pastfix.queries.no_error_notice)."""
    lines = [line.strip() for line in as_output(text).splitlines() if line.strip()]
    return bool(lines) and all(_WARNING_LINE.match(line) and not says_error(line) for line in lines)


# A commit as git log and git show print it: `commit <sha>` (and its refs), its fields
# (`Author: `, `Date: `, `Merge: `), and its message, each line indented by four spaces.
_COMMIT_RECORD = lazy(
    r"^commit [0-9a-f]{7,40}\b[^\n]*\n(?:[A-Z][\w-]*: [^\n]*\n)+"
    r"(?:[ \t]{0,3}\n| {4}[^\n]*(?:\n|$))*",
    re.M,
)


# A count of none: what a success says it met none of.
_NONE_OF = lazy(
    r"(?i)\b(?:0|no|zero|without)\s+(?:\w+\s+)?(?:errors?|warnings?|issues?|problems?|failures?"
    r"|failed|vulnerabilities|vulnerability)\b"
)
# Words of something gone wrong that _MEDIUM does not hold (it scores error lines).
_TROUBLE = lazy(
    r"\b(?:killed|unauthori[sz]ed|warn(?:ing)?s?|crash\w*|terminated|deprecated|conflicts?"
    r"|rejected|violation|overflow|corrupt\w*|illegal|unsupported|wrong|broken|bug|problems?"
    r"|issues?|vulnerab\w*|stopped|interrupted|exited|timeouts?|segfault|hung|stuck|leak\w*"
    r"|deadlock\w*)\b"
)
# A word that may name an error: capitals (`EISDIR`, `SIGKILL`, `OOM`) or camel case
# (`ImagePullBackOff`, `CrashLoopBackOff`).
_NAMED = lazy(r"\b(?:[A-Z]{3,}\d*|[A-Z]?[a-z\d]+(?:[A-Z][a-z\d]*)+)\b")
_CAPITALS = lazy(r"\b[A-Z]{3,}\d*\b")
# Words of a success: what a build, a test run or a command says when all went well.
_SUCCEEDED = lazy(r"\b(?:succeeded|successful(?:ly)?|passed|compiled|built)\b|[✓✔]")
# git status's report of a clean working tree, a state (reports_no_error).
_CLEAN_TREE = lazy(r"^nothing to commit,? \(?working (?:tree|directory) clean\)?$", re.M)
# A program's or a kind's name, then what it says of it: an error's form (`x: y`).
_SAID_BY = lazy(r"[^\s:]: ")
# Words that deny, as an error says what is not so (`File does not exist.`, `Nothing to do`).
_DENIES = lazy(r"\b(?:not|no|nor|never|nothing|none|neither|without|cannot|\w+n't|\w+n’t)\b")


def _traceback_exception(lines: list[str], raw: list[str]) -> int | None:
    """Index of the exception line after the last Python traceback header."""
    start = None
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith(_TRACEBACK):
            start = i
            break
    if start is None:
        return None
    for i in range(start + 1, len(lines)):
        # Frames and source lines are indented; the exception line is not.
        if lines[i] and not raw[i][:1].isspace() and _EXCEPTION_LINE.match(lines[i]):
            return i
    return None


# A program saying what it starts (`Cloning into 'x'...`, `Building…`): a later line says
# where it stopped (git's `Username for 'https://github.com':`, the prompt it waited at).
_PROGRESS = ("...", "…")
# A control key as a terminal echoes it (`^C`, `^Z`, `^\`, `^D`), alone on its line.
_KEY_ECHO = lazy(r"(?:\^[A-Z\\])+")


def is_key_echo(line: str) -> bool:
    """Whether a line is only a terminal's echo of the control keys a user pressed (`^C`):
    no key line while another line says more (key_line, pastfix.queries.says_little)."""
    return bool(_KEY_ECHO.fullmatch(line.strip()))


# An agent's title of a call, as its terminal shows it above the call's status: Claude
# Code's `● Bash(lsof -i :3001)` (`⏺` in some fonts), a tool's name and its input.
_CALL_TITLE = lazy(r"(?:[●⏺•]\s*)?[A-Z]\w*\(.*\)$")
# A command as typed: variables set for it (`NODE_ENV=test `), then a program's name or path
# (`lsof`, `./run.sh`, `~/bin/x`, `C:\\tools\\x.exe`) or a PowerShell cmdlet (`Get-Process`),
# then a space or the line's end, not a colon: `grep: x: No such file or directory` is
# grep's message, `error: ...` a program's.
_TYPED_COMMAND = lazy(
    r"(?:[A-Za-z_]\w*=\S*\s+)*"
    r"(?:[a-z._~/][\w.~/+-]*|[A-Za-z]:\\[\w.\\-]*|[A-Z][a-z]+-[A-Z][A-Za-z]+)(?:\s|$)"
)


def echoed_lines(lines: list[str]) -> set[int]:
    """Which of a text's lines (stripped) stand above its first exit status line (status_of)
    as the command that ended so, not as its output: every agent's failure is stored with
    its status first and the output after it (Claude Code's terminal shows the same, under
    `● Bash(cmd)`), so a line above the status is the command a user pasted with it (`lsof
    -i :3001`, then `Exit code 1`, or after a prompt, `$ lsof -i :3001`) or the agent's title
    of the call (_CALL_TITLE). Read as
    the key line, the command's words were the error's: an exit status that says only that
    nothing was found (lsof, grep, diff and test end so) was "not seen before" as `lsof -i
    :<n>`, not read as the exit status it is (a new user's try, ans41 finding 1); above
    Codex's `Process exited with code 1` or any other agent's words for it (ended_so) too,
    which it still was. A line that names an error outright (names_error: `npm ERR! missing
    script: build`) is the error's wherever it stands, and a terminal's echo of a key (`^C`)
    no command."""
    first = next((i for i, line in enumerate(lines) if line and ended_so(line)), None)
    if first is None:
        return set()
    return {
        i
        for i, line in enumerate(lines[:first])
        if line
        and (
            _CALL_TITLE.match(line)
            or _PROMPT.match(line)
            or (_TYPED_COMMAND.match(line) is not None and not names_error(line))
        )
    }


def echoed_command(text: str) -> str | None:
    """The command a pasted text shows above its exit status (echoed_lines), the nearest
    one, as typed: without its prompt (`$ `), out of the agent's title of the call (`●
    Bash(lsof -i :3001)`). None when no line stands so. What `pastfix find` and the MCP
    tool read as the command a paste gives no --command for (`lsof -i :3001`, then `Exit
    code 1`: that program's failures first, pastfix.queries.with_goals)."""
    lines = [line.strip() for line in text.splitlines()]
    echoed = echoed_lines(lines)
    if not echoed:
        return None
    line = lines[max(echoed)]
    if prompt := _PROMPT.match(line):
        line = line[prompt.end() :]
    elif _CALL_TITLE.match(line):
        line = line[line.index("(") + 1 : line.rindex(")")]
    return line.strip() or None


def _harness_start(text: str) -> bool:
    head = text.lstrip()[:400]
    if _ERROR_PREFIX.match(head):
        head = head[7:]
    return any(rx.match(head) for _, rx in _KIND_RULES)


def _deeper_line(text: str, score: int) -> str | None:
    """The first line of the first _DEEP characters of `text` that scores most, more than
    `score` (the best of the window), with its header (_with_header); None when none does."""
    lines = [line.strip() for line in _window(text[:_DEEP], _DEEP, _DEEP)]
    best, best_score = -1, score
    for i, line in enumerate(lines):
        if line and (now := _score(line)) > best_score:
            best, best_score = i, now
            if now == 3:
                break
    return _with_header(lines, best) if best >= 0 else None


# Cached: the build signs each failure (prepare), then the fix rules ask the key line of
# the same output again, and of the same output in other sessions.
@functools.lru_cache(maxsize=1024)
def key_line(text: str) -> str:
    """The most informative line of a failure's output (rules in the module docstring)."""
    if not text or text.isspace():
        return ""
    text, wrapped = _unwrap(text)
    # Codex 0.118's denial: the output it holds, not Rust's Debug text around it
    text = denied_output(text) or text
    sandboxed = _SANDBOX_WRAPPER.match(text)
    if sandboxed:
        # the output, not the wrapper: stdout, then stderr after its `, stderr: `
        body = _SANDBOX_STDERR.sub("\n", text[sandboxed.end() :], count=1)
        text = body if body.strip() else text
    text = without_startup(text)
    if wrapped or _harness_start(text):
        lines = [line.strip() for line in _window(text.lstrip()[: 2 * _WINDOW])]
        for i, line in enumerate(lines):
            if line:
                return _with_header(lines, i)
        return ""
    raws = _window(text)
    lines = [line.strip() for line in raws]
    if _TRACEBACK in text[:_WINDOW] or _TRACEBACK in text[-_WINDOW:]:
        exc = _traceback_exception(lines, raws)
        if exc is not None:
            return lines[exc]
    best, best_score = -1, -1
    timed_out = False
    after_test = False  # the line before was a test that failed (`× suite > test 12ms`)
    numbered = False  # the line before was testem's failed test (`1) [Chrome 143.0] ...`)
    echoed = echoed_lines(lines)  # the command above its exit status: no output of it
    for i, line in enumerate(lines):
        if not line or i in echoed:
            continue
        score = _score(line)
        if (after_test and line.startswith("→ ")) or numbered:
            score = 3  # a runner's message of that test (see the module docstring)
        after_test = line.startswith(_FAILED_TEST) or (after_test and line.startswith("→ "))
        numbered = line[:1].isdigit() and bool(_NUMBERED_TEST.match(line))
        if score > best_score or (timed_out and score == 3):
            best, best_score = i, score
            # A time limit's own words yield to an error the command printed after them:
            # it ran on and said what went wrong (Codex's `command timed out after 15491
            # milliseconds`, then `npm run build`'s `Type error: ...`: each of four rounds
            # of type errors had the timeout for key line, eighteenth held-out set).
            timed_out = not timed_out and score == 3 and bool(_TIMED_OUT.match(line))
            if score == 3 and not timed_out:
                break
    if best_score < 3 and (len(text) > 2 * _WINDOW or len(lines) < text.count("\n") + 1):
        # Nothing in the window names its error, but the window is not all of it: a
        # test runner's report prints the exception between a dump of the page under
        # test and its summary (`❯ test/a.test.tsx (1 test | 1 failed)` in the head,
        # `Test Files  1 failed` in the tail: each run of three with another error had
        # that one key line, seventeenth held-out set).
        # (not a wrapper's `ExecaError: Command failed ...`, which says less: _COMMAND_FAILED)
        found = _NAMED_EXCEPTION.finditer(text, 0, _DEEP)
        named = next((m for m in found if not _COMMAND_FAILED.match(m.group(1))), None)
        if named:
            return _ANSI.sub("", named.group(1)[:_MAX_LINE]).strip()
        # Nor an exception: a line that says what failed, or that a command did, when none
        # in the window does (score 2). A build's `make: *** [Makefile:146: all] Error 2`,
        # between the compiler's warnings of its stderr and CMake's notices of its stdout,
        # lost to CMake's `SDL2 library not found.  Building without graphics support.`
        # (a new user's try, nu39: thirty-sixth held-out set).
        if best_score < 2 and (deeper := _deeper_line(text, best_score)) is not None:
            return deeper
    if best < 0:
        return ""
    if lines[best].startswith("→ "):
        # the exception the report names it by further down, when it does (`→ expected null
        # not to be null`, then `AssertionError: expected null not to be null`)
        message = lines[best][2:]
        for named in _NAMED_EXCEPTION.finditer(text, 0, _DEEP):
            line = _ANSI.sub("", named.group(1)[:_MAX_LINE]).strip()
            if line.endswith(": " + message):
                return line
    if best_score == 0:
        # Nothing names an error: the first line that is not Claude Code's
        # "Exit code N" says most about what happened, and one that is no warning,
        # hint, frame or summary says more (git's `warning: in the working copy of
        # 'x', LF will be replaced by CRLF` before `The following paths are ignored`).
        # A terminal's echo of the key a user stopped it with yields to any other line
        # (`^C`, then Codex's `Process exited with code 130`: read as the key line, it was
        # "not seen before" where the failures that ended so were, nu43 finding 7); it is
        # the key line only of an output that says nothing else but `Exit code N` (then it
        # tells an interrupted command from others that ended so).
        plain = [
            i
            for i, line in enumerate(lines)
            if line and status_of(line) is None and i not in echoed
        ]
        for i in plain:
            line = lines[i]
            if (
                not _NOISE.match(line[:_MAX_SCORED])
                and not line.endswith(_PROGRESS)
                and not is_key_echo(line)
            ):
                return _with_header(lines, i)
        for i in sorted(plain, key=lambda i: is_key_echo(lines[i])):
            return _with_header(lines, i)
        # all of it is an exit status: as the failures that ended so store it
        return status_of(lines[best]) or _with_header(lines, best)
    if best_score == 3 and lines[best].startswith("remote:"):
        best = _remote_code(lines, best)
    return _with_header(lines, best)


def status_of(line: str) -> str | None:
    """The exit status a line says and says alone, as a failure stores it (`Exit code 128` of
    `⎿  Error: Exit code 128`: _STATUS_LINE), None for any other line: the one rule of what
    is no key line while the output has another (key_line, _score; pastfix.queries.says_little
    and pastfix.hook.too_generic read a paste of it alone as naming no error). A new user's
    paste from Claude Code's terminal had `Error: Exit code 128` for key line, above git's
    `fatal: The current branch feat/login has no upstream branch.`: the find page said "Not
    seen before" of it, and the hook recalled unrelated fixes (nu46 finding 1)."""
    if "Exit code" not in line:
        return None
    m = _STATUS_LINE.match(line.strip())
    return m.group(1) if m else None


def ended_so(line: str) -> str | None:
    """The exit status a line says alone in any agent's words (status_of's Claude Code
    `Exit code 1`; _AGENT_STATUS_LINE: Codex's `Process exited with code 1`, ...), as a
    failure stores it: what a command pasted above stands over (echoed_lines). A command
    pasted above Codex's was its key line (`lsof -i :<n>`), where above Claude Code's it was
    none. Only there: the key line of Codex's status pasted under `^C` is that status, of
    Claude Code's the `^C` (key_line)."""
    if status := status_of(line):
        return status
    if "xit" not in line:
        return None
    m = _AGENT_STATUS_LINE.match(line.strip())
    return status_line(int(m.group(1))) if m else None


def _path(m: re.Match[str]) -> str:
    path = m.group(0).rstrip(".")
    return _base_name(path) + m.group(0)[len(path) :]


def _base_name(path: str) -> str:
    """A path as a signature keeps it: `<path>/` and its base name; a home folder, `~` or
    its user's (`/home/alice`, `/Users/alice`, `C:\\Users\\alice`), as `<path>`: its name is
    whose machine it is, as `~` says none (_HOME)."""
    base = re.split(r"[/\\]", path.rstrip("/\\"))[-1]
    if not base or base in (".", "..", "~") or _HOME.fullmatch(path.rstrip("/\\")):
        return "<path>"
    return f"<path>/{base}"


def _paths(line: str) -> str:
    parts = _TOKENS.split(line)
    for i, part in enumerate(parts):
        if "/" in part or "\\" in part:
            parts[i] = _PATH.sub(_path, part)
    return "".join(parts)


def without_folders(line: str) -> str:
    """A line with each path as its file's name alone (`(/usr/lib/python3/dist-packages/m/
    __init__.py)` as `(__init__.py)`), as a signature keeps it but without `<path>/`: where
    a checkout or an interpreter lives is no name of the error (queries.distinctive_words)."""
    return _paths(line).replace("<path>/", "").replace("<path>", "")


def _hex(m: re.Match[str]) -> str:
    s, start, end = m.string, m.start(), m.end()
    token = m.group(0)
    if token.startswith("0x"):
        return "<hex>"
    if (start and (s[start - 1].isalnum() or s[start - 1] == "_")) or (
        end < len(s) and (s[end].isalnum() or s[end] == "_")
    ):
        return token
    # A hash or id mixes digits with letters of one case; "deadline" or a
    # long number is not one.
    if token.isdigit() or not any(c.isdigit() for c in token):
        return token
    if not (token.islower() or (token.isupper() and len(token) >= 12)):
        return token
    return "<hex>"


def _number(m: re.Match[str]) -> str:
    before = m.string[max(0, m.start() - 12) : m.start()].rstrip().lower()
    return m.group(0) if before.endswith(_KEEP_NUMBER_AFTER) else "<n>"


def _is_module(value: str) -> bool:
    """Whether a quoted value names a module or package, not a file by its path."""
    name = value.strip("'\"`‘’“”")
    if not name or name[0] in "./~\\" or "\\" in name or re.match(r"[A-Za-z]:|file:|@/", name):
        # `@/components/x` is a bundler's alias for the project's src folder.
        return False
    # `lodash/fp` and `@scope/pkg` are packages; `js/app.js` is a file.
    return name.startswith("@") or "/" not in name or not _FILE_EXTENSION.search(name)


def _keep(value: str, kept: list[str]) -> str:
    """A mark that stands for `value` (its versions abstracted) until normalise() ends."""
    if len(kept) >= 26:
        return value
    kept.append(_VERSION.sub("<n>", value))
    return f"\x00{chr(64 + len(kept))}\x00"


def _keep_modules(line: str, kept: list[str]) -> str:
    """`line` with the names of missing modules and packages behind marks."""

    def quoted(m: re.Match[str]) -> str:
        before = m.string[max(0, m.start() - 80) : m.start()]
        named = _MODULE_BEFORE.search(before) or _MODULE_AFTER.match(m.string, m.end())
        if not named:
            return m.group(0)
        if _is_module(m.group(0)):
            return _keep(m.group(0), kept)
        # a module's file (`Cannot find module './utils'`, Node's `'/app/dist/index.js'`) is
        # a path: its base name tells two files apart
        inner = m.group(0)[1:-1]
        return _base_name(inner) if inner and not any(c.isspace() for c in inner) else m.group(0)

    def registry(m: re.Match[str]) -> str:
        url = m.group(0).rstrip(":/")
        parts = url.split("/")
        name = "/".join(parts[-2:]) if parts[-2].startswith("@") else parts[-1]
        return "<url>/" + _keep(name, kept) + m.group(0)[len(url) :]

    line = _QUOTED.sub(quoted, line)
    if "GET " in line:
        line = _REGISTRY_GET.sub(registry, line)
    if "." in line and "/" in line:
        line = _GO_PACKAGE.sub(lambda m: _keep(m.group(0), kept), line)
    return line


def _keep_names(line: str, kept: list[str]) -> str:
    """`line` with the names of the code it could not run behind marks: the property, the
    attribute or the name that was not there (see _ACCESS_BEFORE)."""

    def quoted(m: re.Match[str]) -> str:
        named = _ACCESS_BEFORE.search(m.string, max(0, m.start() - 32), m.start())
        named = named or _ACCESS_AFTER.match(m.string, m.end())
        word = m.group(0)[1:-1]
        # (a `-` in a name: nix's `'home-manager'`, JavaScript's `(reading 'content-type')`)
        name = word.replace("-", "_")
        return _keep(m.group(0), kept) if named and name.isidentifier() else m.group(0)

    return _QUOTED.sub(quoted, line)


def _branch(m: re.Match[str]) -> str:
    return f"{m.group('pre')}<name>{m.group('post')}"


def _names_file(file: str) -> bool:
    """Whether a place's file looks like one (a `/` or an extension): `(eval)` and
    `127.0.0.1` do not."""
    return "/" in file or "\\" in file or bool(_EXTENSION.search(file))


def _location(m: re.Match[str]) -> str:
    if not _names_file(m.group("file")):
        return m.group(0)
    if m.group("pl"):
        return "<path>(<n>,<n>)"
    if m.group("ll"):
        return "<path>: line <n>, col <n>"
    return "<path>:<n>:<n>" if m.group("c") else "<path>:<n>"


def diagnostic_file(line: str) -> str | None:
    """The base name of the file a compiler's or linter's diagnostic starts with (`app.ts` of
    `src/app.ts(3,5): error TS2769: ...`, `a.go` of `a.go:3:2: ...`), None for a line that
    starts with no place. normalise() sets the place aside, so that one error in ten files
    is one signature; pastfix.queries tells the same error in another file by this name."""
    m = _LOCATION.match(line.strip())
    if not m or not _names_file(m.group("file")):
        return None
    return re.split(r"[/\\]", m.group("file"))[-1]


# A linter's diagnostic under its file's header (ESLint's stylish format, Next.js's build:
# `./app/page.tsx`, then `12:9  Error: Unexpected any. ...`), and that header: the file on
# a line of its own, a place after it or not (Next.js's type check: `./src/a.ts:23:8`, then
# `Type error: ...`). A file's name holds no space unless the path is absolute.
_STYLISH = lazy(r"\d+:\d+\s+\S")
_HEADER = lazy(r"(?P<file>(?:[A-Za-z]:)?[\\/][^:\n]*?[^:\s]|[^:\s]+)(?P<place>:\d+(?::\d+)?)?")


def diagnosed_file(text: str, line: str | None = None) -> str | None:
    """The base name of the file the diagnostic that is `text`'s key line (`line`, else
    key_line()) is about: the one it starts with (diagnostic_file), else the one its
    file_header() names. None when neither names one. pastfix.queries tells the same error
    about another file by it: a new user's ESLint error in page.tsx was shown as the very
    same error with a fix of layout.tsx (nu36, heldout33/part2)."""
    line = key_line(text) if line is None else line
    file = diagnostic_file(line)
    if file is not None:
        return file
    header = file_header(text, line)
    return None if header is None else re.split(r"[/\\]", header.group("file"))[-1]


def file_header(text: str, line: str) -> re.Match[str] | None:
    """The line above `text`'s key line `line`, or above the run of diagnostics it is one
    of, where a linter names their file once for all of them: ESLint's stylish `/x/src/a.ts`,
    then `  12:9  error  ...`; Next.js's `./app/[locale]/page.tsx`, then `12:9  Error:
    Unexpected any. ...`; its type check's `./src/a.ts:23:8`, then `Type error: ...` (a
    line above another key line names its file only with a place). None when there is
    none (diagnosed_file)."""
    at = text.find(line) if line else -1
    if at < 0:
        return None
    before = text[max(0, at - _WINDOW) : at]
    above = before.splitlines()
    if not before.endswith("\n"):
        above = above[:-1]  # the key line's own indent
    stylish = bool(_STYLISH.match(line))
    for previous in reversed(above):
        previous = previous.strip()
        if stylish and _STYLISH.match(previous):
            continue
        header = _HEADER.fullmatch(previous)
        if (
            not header
            or not _names_file(file := header.group("file"))
            or not (stylish or header.group("place"))
            or (" " in file and not _EXTENSION.search(file))
        ):
            return None
        return header
    return None


# What Claude Code words differently by version or by where it ran, after the error it
# names: the folder it ran in (added to `File does not exist.`, seen from 2.1.68), the advice after
# a file too large to read (`Please use offset and limit ... GrepTool` became `Use offset
# and limit ... instead of reading the whole file`), the call a cancelled sibling names.
_CWD_NOTE = lazy(r"\s*Note: your current working directory is .*$")
_READ_ADVICE = lazy(r"(exceeds maximum allowed (?:size|tokens) \([^)]*\)\.)\s.*$")
_CANCELLED_SIBLING = lazy(r"(Cancelled: parallel tool call ).*?( errored)")


def _claude_code_wording(line: str) -> str:
    line = _CWD_NOTE.sub("", line)
    line = _READ_ADVICE.sub(r"\1", line)
    return _CANCELLED_SIBLING.sub(r"\1<str>\2", line)


@functools.lru_cache(maxsize=1024)
def missing_program(line: str) -> str | None:
    """The program a key line says the shell did not find, in any shell's words (`zsh:1:
    command not found: gh`, `/bin/bash: line 1: gh: command not found`): `gh`. Cached: the
    fix rules ask it of a failure's key line and of its retries', for each failure whose
    window holds them."""
    missing = _COMMAND_NOT_FOUND.search(line.strip())
    return next((name for name in missing.groups() if name), None) if missing else None


# Where zsh was when a command failed: `(eval):cd:1: `, `zsh:12: ` (see normalise).
# Git's identity errors (ident.c), each after its hint, and the signature they share.
_GIT_IDENT = lazy(
    r"\s*fatal: (?:unable to auto-detect email address \(got .*\)"
    r"|empty ident name \(for .*\) not allowed"
    r"|no (?:email|name) was given and auto-detection is disabled"
    r"|name consists only of disallowed characters: .*)\s*$"
)
GIT_IDENT_SIGNATURE = "*** Please tell me who you are."
# PyTorch's word that an operation's tensors were on other devices, whose details each
# version words its own way: which devices (`but found at least two devices, cuda:0 and
# cpu!`, up to 2.0), or which tensor and where the others were (`but got mat1 is on cuda:0,
# different from other tensors on cpu (when checking argument in method
# wrapper_CUDA_addmm)`), each by the operation that met them. The fix is one, moving a
# tensor (or the model) to the device: the error is what they share, up to `device` (one
# wording, pasted, was "a different error" of the other's fix, and the hook was silent: a
# new user's try, nu39 finding 4).
_TORCH_DEVICES = lazy(r"(Expected all tensors to be on the same device)\b.*")
_ZSH_WHERE = lazy(r"(?<!\S)(?:\(eval\)|zsh):(?:([\w.-]+):)?\d+: ")


def _zsh_where(m: re.Match[str]) -> str:
    """zsh's error as an interactive zsh prints it: `cd: ...` for a builtin's, else `zsh: ...`."""
    return f"{m.group(1) or 'zsh'}: "


# A file a shell could not use, in bash's words: `bash: line 16: cd: apps/api: No such file
# or directory`, `bash: venv/bin/activate: No such file or directory` (bash names no
# `source`), a script's `./deploy.sh: line 3: cd: x: Not a directory`. zsh says the same
# as `cd: no such file or directory: apps/api`, `source: ...`, `zsh: ...: ./run.sh`.
_BASH_FILE_ERROR = lazy(
    r"^(?:(?:[^\s:'\"]*/)?(?:ba|da)?sh: (?:line \d+: |\d+: )?|[^\s:'\"]+: line \d+: )"
    r"(?:(?P<who>[\w.-]+): )?(?P<arg>[^:]+?): "
    r"(?P<msg>No such file or directory|Permission denied|Not a directory|Is a directory)$"
)
_ZSH_FILE_ERROR = lazy(
    r"^(?:source|\.): "
    r"(?=(?:no such file or directory|permission denied|not a directory|is a directory): )"
)


# dash's failed `cd`, which says no more than that (`/bin/sh: 1: cd: can't cd to x`): read
# as its usual cause, a folder that is not there, in zsh's words as bash's is.
_DASH_CD = lazy(r"^(?:[^\s:'\"]*/)?(?:da)?sh: \d+: cd: [Cc]an(?:'|no)t cd to (?P<arg>.+)$")
# dash's file it could not open (`. venv/bin/activate`: `sh: 1: .: cannot open
# venv/bin/activate: No such file`), in zsh's words as bash's is, or create (`> out/x.log`),
# in its own: `sh: cannot create X: ` and its reason, whatever it is (see _SHELL_WRITE).
_DASH_OPEN = lazy(
    r"^(?:[^\s:'\"]*/)?(?:da)?sh: \d+: (?:[\w.]+: )?[Cc]an(?:'|no)t (?P<how>open|create)"
    # (older dash names no reason: `.: Can't open x`, read as the usual one)
    r" (?P<arg>.+?)(?:: (?P<msg>No such file|Permission denied|[A-Z][a-z][^:]*))?$"
)
_DASH_MESSAGE = {
    "No such file": "no such file or directory",
    "Permission denied": "permission denied",
}
# Kotlin's errors and warnings before 2.0 (`e: /x/A.kt: (12, 5): Unresolved reference: x`),
# placed as 2.0 places them (`e: file:///x/A.kt:12:5 ...`): where the error is goes alike.
_KOTLIN_OLD_PLACE = lazy(r"^([ew]): ((?:[A-Za-z]:)?[/\\~][^:]*?\.kts?): \((\d+), (\d+)\): ")


def _shell_file_error(line: str) -> str:
    """A shell's error about a file in one form whatever the shell, zsh's words: `cd: no
    such file or directory: apps/api`, `zsh: no such file or directory: venv/bin/activate`
    (`zsh: `, not `source: `, which bash does not name). Not without `zsh: `: a bare `no
    such file or directory: <path>` is inside `cd: no such file or directory: <path>`, and
    find_past_fix matched a missing folder of a `cd` to a missing husky.sh (held-out sets
    11 and 13)."""
    bash = _BASH_FILE_ERROR.match(line)
    if bash:
        who = bash.group("who")
        who = "zsh" if not who or who in ("source", ".") else who
        return f"{who}: {bash.group('msg').lower()}: {bash.group('arg')}"
    return _ZSH_FILE_ERROR.sub("zsh: ", line, count=1)


# A negation spelled short or long is one message: curl's `Couldn't connect to server` was
# `Could not connect to server` in other versions, git says both `couldn't find remote
# ref` and `could not ...`. Only `n't`: `'s` and `'re` may be possessives or quotes.
_CONTRACTION = lazy(r"\b(\w+)n[’']t\b")


def _uncontract(m: re.Match[str]) -> str:
    stem = m.group(1)
    if stem.lower() == "ca":
        return stem + "nnot"  # can't
    if stem.lower() == "wo":
        return ("W" if stem[0] == "W" else "w") + "ill not"  # won't
    return stem + " not"


# A path with a space in a folder's name (`/home/me/my project/src/app.js`, Windows's
# `C:\\Users\\me\\My Project (copy)\\src\\app.js`), which the path rules read as two tokens
# (`<path>/my <path>/app.js`), where an OS error's message tells where it ends: before `: `
# and the message (sed's `can't read X: No such file or directory`, cat's, GNU ls's once
# unquoted, grep's `X: Is a directory`), or after zsh's (`cd: no such file or directory: X`,
# bash's said so) to the end of the line. It is taken whole from where it starts (`/`,
# `~/`, `./`, `../` or a drive after a space) and named by its base name: the same error
# without the space was found, and with it "not seen before" (a new user's tries, nu40
# finding 5). Only a path whose last part has a separator, a folder with a space in it: a
# name with a space in it (`My Notes.txt`) is kept as the path rules read it, and a span
# holding another path's start is no path (`/usr/bin/git failed for /x y/z`: from `/x`).
_OS_ERROR = (
    "No such file or directory|Permission denied|Is a directory|Not a directory"
    "|Operation not permitted|Read-only file system|File exists|Directory not empty"
)
_SPACED_PATH_BODY = (
    r"(?:~/|\.{1,2}/|/|[A-Za-z]:[\\/])"
    r"(?:(?!\s(?:~/|\.{0,2}/|[A-Za-z]:[\\/]))[^:'\"`\n])*?\s[^\s:'\"`]*[/\\][^\s:'\"`]*"
)
_SPACED_PATH = lazy(
    r"(?:(?<=\s)|^)(?P<before>" + _SPACED_PATH_BODY + r")(?=: (?:" + _OS_ERROR + r")\b)"
    r"|(?:(?<=directory: )|(?<=permission denied: ))(?P<after>" + _SPACED_PATH_BODY + r")$"
)
# One of these is in every line _SPACED_PATH changes: a cheap test first.
_OS_ERROR_WORDS = ("irectory", "denied", "ermitted", "File exists", "Read-only")
# A temporary file's path with a space in it: `<tmp>`, as _TMP_PATH and _WIN_TMP_PATH say.
_SPACED_TMP = lazy(r"/(?:private/)?var/folders/|/(?:tmp|dev/shm)/|[A-Za-z]:\\.*?\\Temp\\", re.I)


def _spaced_path(m: re.Match[str]) -> str:
    """A path with a space in it (_SPACED_PATH) as a signature keeps a path."""
    return _spaced_name(m.group("before") or m.group("after"))


def _spaced_name(path: str) -> str:
    """A path with a space in it, whole, as a signature keeps a path: `<tmp>` or its base
    name."""
    return "<tmp>" if _SPACED_TMP.match(path) else _base_name(path)


# A Windows drive path with a space in a folder's name, up to its file's extension, wherever
# it stands (`C:\\Program Files (x86)\\Microsoft Visual Studio\\...\\cl.exe`, `D:\\My
# Project (copy)\\src\\app.lua`): Windows allows no `:*?"<>|` in a name, so no other path
# nor a quote is inside it, and it ends at its file, whose name holds no space: words after it
# stay (nu40 finding 5). Words before a relative path with `\\` after it would be read as a
# folder (`C:\\x is not in docs\\a.md`); `,` and `;` end it.
_WINDOWS_SPACED = lazy(
    r"(?<![\w.-])[A-Za-z]:[\\/](?:[^\\/:*?\"<>|'`,;\n]+[\\/])*"
    r"[^\s\\/:*?\"<>|'`,;]+\.[A-Za-z]\w{0,7}(?![\w\\/-])"
)


# An absolute path with a space in a folder's name and no quote nor OS error to end it
# (spec-kit's `ERROR: tasks.md not found in /Users/me/00 vibe_projects/app/specs/001-x`):
# the words after the space up to one that goes on with a `/` and starts no path of its own
# (`/`, `~`, `.`) are the path's next folder: `<path>/<n>-x`, not `<path>/<n>
# <path>/<n>-x`, whose leftover folder made the same error in another folder "a different
# error" (nu44 finding 4); so with several spaces in a name (`/Users/me/00 vibe projects/my
# app/specs/002-x`, `.../musdb18/test/AM Contra - Heart Peripheral/mixture.wav`,
# `/Users/me/Documents/PAI - TPOS/STATUS.md` of held-out sets 35 and 36). Not after a
# relative path, so two paths a space apart stay two (`cp a/b c/d`, git's `a/x b/x`), nor
# where a word before a space is a file's name (an extension: `/x/a.txt b/c`, `/x/my.d
# project/a.js`) or a program's in a `bin` folder (`/x/venv/bin/python src/app.py`,
# `.../bin/streamlit run frontend/app.py`: its arguments), nor where a word after one is a
# flag (`gcc -I/x/include`) or joins a sentence, a preposition, a conjunction, an article or
# `is` (`POST /v1/reports endpoint in src/routes/reports.py`, `/usr/bin/git failed for
# src/x`, a task list's of held-out set 39), or a dash: the path ends before it, the words
# stay. A comment's `//` and `/*` start no path (`//set the proper avl/SEW values`).
_CONTINUED_PATH = lazy(
    r"(?<![^\s(=])~?/(?![/*])[^\s'\"`:,;()\[\]<>]*"
    r"(?: (?:[^\s'\"`:,;()\[\]<>/]+ )*[\w@+-][^\s'\"`:,;()\[\]<>/]*/[^\s'\"`:,;()\[\]<>]*)+"
)
# Where the name before a space may go on: no sentence's end (nor a file's name: _EXTENSION)
# and no program of a `bin` folder (`bin`, `sbin`, `.bin`, a venv's Windows `Scripts`).
_CONTINUED_FROM = lazy(r"(?:^|/)[^/ ]*[^/ .]$")
_PROGRAM_FOLDER = lazy(r"/(?:s?bin|\.bin|Scripts)/[^/ ]+$")
# A word after a space that is none of a folder's name: a flag, a word that joins a
# sentence, or a sign of one (a dash `—`, not a `-`: `/speckit.plan — задать ваши
# принципы/ограничения`, held-out set 35).
_NOT_A_FOLDER_WORD = lazy(
    r"--?[A-Za-z].*|(?:in|at|on|to|for|from|of|with|by|into|onto|via|as|and|or|than|the|an?"
    r"|is|are|was|were|not|[^\w-]+)$"
)


def _continued_path(m: re.Match[str]) -> str:
    """An absolute path with a space in a folder's name (_CONTINUED_PATH) as a signature keeps
    a path, up to where a name before a space or a word after one ends it; else as it is."""
    words = m.group().split(" ")
    end = 1
    for i in range(1, len(words)):
        before, word = words[i - 1], words[i]
        if (
            _EXTENSION.search(before)
            or not _CONTINUED_FROM.search(before)
            or (i == 1 and _PROGRAM_FOLDER.search(before))
            or _NOT_A_FOLDER_WORD.match(word)
        ):
            break
        if "/" in word:
            end = i + 1  # a folder's name with spaces, gone on with a `/`
    if end == 1:
        return m.group()
    path = " ".join(words[:end])
    return " ".join([_spaced_name(path), *words[end:]])


def _windows_spaced(m: re.Match[str]) -> str:
    """A Windows path (_WINDOWS_SPACED) as a signature keeps it, when a space is in it (the
    path rules read it otherwise)."""
    path = m.group(0)
    return _spaced_name(path) if " " in path else path


# The pattern zsh found no match for, to the end of its line.
_NO_MATCHES = lazy(r"(?<=no matches found: )(\S*[/\\]\S+)$")
# The file GNU coreutils quote after what they could not do with it.
_QUOTED_FILE = lazy(
    r"\b(cannot (?:access|stat|open(?: directory)?|remove|read|touch|create (?:directory"
    r"|regular file|symbolic link)|overwrite(?: directory)?)) ['‘]([^'’\n]+)['’]:"
)
# The file an OS error names in quotes, after what could not be done with it: Python's
# `[Errno 2] No such file or directory: 'x'` (`'a' -> 'b'` of a rename too, Windows's
# `[WinError 3] ...: 'x'`) and `can't open file 'x'`, Node's `ENOENT: no such file or
# directory, open 'x'` (any E-code and call), git's `pathspec 'x' did not match`,
# PowerShell's `Cannot find path 'C:\x\lib.rs' because it does not exist.` It is a path
# as GNU's quoted one is (a made-up error about another file had "the same error signature"
# and that file's fix, a new user's try): kept by its base name, a temporary one `<tmp>`.
# So is one with a space in a folder's name, the quotes saying where it ends (`'/Users/me/
# Library/Application Support/x.json'`, `'C:\Program Files (x86)\x\a.dll'`: it was `<str>`,
# the same error without the space `<path>/x.json`, nu40 finding 5), and one whose file's name
# holds a space (`<path>/My Notes.txt`); a bare name with a space in it (`'my file.txt'`)
# stays a value. GNU's programs quote a file with a space in it
# before an OS error's message too (`cat: '/home/me/my project/a.txt': No such file or
# directory`), where they name one without unquoted.
_OS_QUOTED_FILE = lazy(
    r"(?:\[(?:Errno|WinError) \d+\] [A-Z][\w ,.-]*: |can't open file "
    r"|\bE[A-Z]{2,}: [a-z][\w ,-]*?, [a-z_]+ |\bpathspec |\bCannot find path )"
    r"'([^'\n]+)'(?: -> '([^'\n]+)')?"
    r"|(?<=: )'([^'\n]+)'(?=: (?:" + _OS_ERROR + r")\b)"
)
_OS_QUOTED_HINT = lazy(
    r"\[(?:Errno|WinError) |t open file '|\bE[A-Z]{2,}: |pathspec '|Cannot find path '"
    r"|': (?:" + _OS_ERROR + r")\b"
)


def _unquote_files(m: re.Match[str]) -> str:
    """An OS error's quoted file (_OS_QUOTED_FILE) without its quotes; one with a space in a
    folder's name as a signature keeps a path (_spaced_name), which the path rules, reading
    words, could not."""
    text = m.group(0)
    for name in m.groups():
        if not name:
            continue
        if not any(c.isspace() for c in name):
            text = text.replace(f"'{name}'", name, 1)
        elif "/" in name or "\\" in name:
            text = text.replace(f"'{name}'", _spaced_name(name.strip()), 1)
    return text


# What a PowerShell error record names first, a cmdlet (`Get-Content`) or a script, with
# Windows PowerShell 5.1's space before the colon.
# The place of a PowerShell error glued to its message, in English, French, German, Spanish
# and Portuguese (`... Access is denied.At line:2 char:1`, `Accès refuséAu caractère
# Ligne:2 : 1`): the record's next line, its line break lost
_POWERSHELL_PLACE_GLUED = lazy(r"(?<=\S)(?:" + _POWERSHELL_PLACE + r")\s*$")
_POWERSHELL_SOURCE = lazy(r"^([A-Z][a-z]+-[A-Z][A-Za-z]+|\S+\.ps1|[\w.-]+\.exe) : ")
# A program named with its folder at the start of its message (`/usr/bin/python3: ...`,
# `C:\\Python311\\python.exe: ...`, `/bin/bash: ...`): the folder goes, and `.exe`.
_PROGRAM_DIR = lazy(r"^(?:~|[A-Za-z]:)?(?:[/\\][\w.+ -]*)*[/\\](?=[\w.+-]+: )")
_EXE = lazy(r"^([\w.+-]+?)\.exe(?=: )", re.I)
# Python by any of its names: `python3: can't open file` is `python: can't open file`.
_PYTHON_NAME = lazy(r"^python[\d.]*(?=: )")


def _program(line: str) -> str:
    """A message's program named alike wherever it lies and whatever Python it is (env's
    `No such file or directory` for a program is read by missing_program)."""
    line = _EXE.sub(r"\1", _PROGRAM_DIR.sub("", line, count=1), count=1)
    return _PYTHON_NAME.sub("python", line, count=1)


def normalise(line: str, cap: int = MAX_SIGNATURE, names: list[str] | None = None) -> str:
    """`line` with the details that differ between sightings replaced (see module docstring),
    cut to `cap` characters (a signature's length). `names`, when given, gets the quoted
    values that became `<str>`, without their quotes (quoted_names)."""
    # Work on a bounded prefix: the signature is a prefix of the result, and
    # pasted text can be long.
    line = _SPACE.sub(" ", _ANSI.sub("", line[: 20 * MAX_SIGNATURE]))[: 4 * MAX_SIGNATURE]
    if line[:2].lstrip("[ ")[:1].isdigit() and (start := _LOG_START.match(line.lstrip())):
        line = line.lstrip()[start.end() :] or line
    if line[:3].lstrip().startswith(("→ ", "| ")):
        # vitest's mark of a test's message, PowerShell 7's of its record's: pasted with it
        # or not
        line = line.lstrip()[2:]
    # the same error in the user's language is the English one (pastfix.locales): before any
    # rule reads its words
    line = in_english(line)
    if ":" in line[-40:]:
        line = _POWERSHELL_PLACE_GLUED.sub("", line, count=1)
    if "Note: your current" in line or "maximum allowed" in line or "parallel tool call" in line:
        line = _claude_code_wording(line)
    if line.startswith(("/", "~", "\\", "python")) or line[1:3] in (":\\", ":/"):
        line = _program(line)
    if " : " in line[:200]:
        # Windows PowerShell 5.1's `Get-Content : Cannot find path ...` is PowerShell 7's
        # `Get-Content: ...`, as a script's `C:\x\run.ps1 : ...` is `run.ps1: ...`
        line = _POWERSHELL_SOURCE.sub(r"\1: ", line, count=1)
    if "npm ERR!" in line:
        line = line.replace("npm ERR!", "npm error")  # npm 9's words for npm 10's
    if "hunk" in line:
        # before anything reads inside it: the patch's line is one value
        line = _HUNK_LINE.sub("<str>", line, count=1)
    if "not " in line or "nknown command" in line or line.startswith("env: "):
        program = missing_program(line)
        if program:
            # dash's `sh: 1: ./run.sh: not found` is a file, as bash and zsh say
            line = (
                f"zsh: no such file or directory: {program}"
                if "/" in program
                else f"{_MISSING_PROGRAM}{program}"
            )
    if "fatal: " in line[:8] and _GIT_IDENT.match(line):
        line = GIT_IDENT_SIGNATURE
    if "same device" in line:
        line = _TORCH_DEVICES.sub(r"\1", line, count=1)
    if "(eval):" in line or "zsh:" in line:
        line = _ZSH_WHERE.sub(_zsh_where, line, count=1)
    if "no matches found: " in line:
        # the pattern zsh could not match is one path, brackets and all (`[eventId]` of a
        # route), named by its last part: `<path>/events[eventId]<path>/x.vue` was two
        line = _NO_MATCHES.sub(_path, line, count=1)
    if "t cd to " in line and (dash := _DASH_CD.match(line)):
        line = f"cd: no such file or directory: {dash.group('arg')}"
    elif ("t open " in line or "t create " in line) and (dash := _DASH_OPEN.match(line)):
        message = dash.group("msg") or "No such file"
        if dash.group("how") == "create" and dash.group("msg"):
            # a file written, as dash says it (_SHELL_WRITE)
            line = f"{_SHELL_WRITE}{dash.group('arg')}: {message}"
        else:
            line = f"zsh: {_DASH_MESSAGE.get(message, message.lower())}: {dash.group('arg')}"
    if ("irectory" in line or "denied" in line) and not line.startswith(_SHELL_WRITE):
        line = _shell_file_error(line)
    if "cannot " in line and ("'" in line or "‘" in line):
        # GNU's quoted file (`ls: cannot access 'docs/a.md': No such file or directory`) is
        # a file as BSD's unquoted one is (`ls: docs/a.md: ...`): its name is kept
        line = _QUOTED_FILE.sub(r"\1 \2:", line, count=1)
    if "'" in line and _OS_QUOTED_HINT.search(line):
        line = _OS_QUOTED_FILE.sub(_unquote_files, line)
    if line.startswith(("e: ", "w: ")) and "): " in line:
        line = _KOTLIN_OLD_PLACE.sub(r"\1: file://\2:\3:\4 ", line, count=1)
    if "\x00" in line:
        line = line.replace("\x00", "")  # the mark of kept values
    kept: list[str] = []
    if _MODULE_HINT.search(line.lower()) or line.startswith("go: "):
        line = _keep_modules(line, kept)
    if _ACCESS_HINT.search(line):
        line = _keep_names(line, kept)
    if " for " in line and ("nknown " in line or "nvalid argument" in line):
        line = _USAGE_FOR.sub(lambda m: m.group(1) + _keep(m.group(2), kept), line)
    if "near unexpected token `" in line or "parse error near `" in line:
        line = _SHELL_TOKEN.sub(lambda m: _keep(m.group(0), kept), line, count=1)
    if " imported from " in line:
        line = _IMPORTER.sub("<path>", line)
    if names is None:
        line = _QUOTED.sub("<str>", line)
    else:
        line = _QUOTED.sub(functools.partial(_named, names), line)
    if ": " in line[-80:] and ("such " in line or "nknown " in line or "NKNOWN " in line):
        line = _BARE_NAME.sub(functools.partial(_bare_name, names), line, count=1)
    if "<str>, <str>" in line or " or <str>" in line or " and <str>" in line:
        line = _STR_LIST.sub("<str>", line)
    if "://" in line:
        line = _URL.sub("<url>", line)
    if any(word in line for word in _HOST_WORDS) or any(word in line for word in _HOST_MORE):
        line = _HOST.sub("<host>", line)
        if "<host>," in line:
            line = _HOST_LIST.sub(r"\1<host>", line)
    if "@" in line:
        line = _ADDRESS.sub("<address>", line)
    if line.startswith("[sudo] "):
        line = _SUDO_USER.sub(r"\1<user>:", line, count=1)
    if any(word in line for word in _BRANCH_WORDS) or "rejected]" in line:
        line = _BRANCH.sub(_branch, line)
        if "<name> -> " in line:
            line = _BRANCH_ARROW.sub("<name>", line)
    has_digit = _DIGIT.search(line)
    if has_digit and _LOCATION_HINT.search(line):
        line = _LOCATION.sub(_location, line)
    if "/" in line or "\\" in line:
        if " " in line and any(word in line for word in _OS_ERROR_WORDS):
            line = _SPACED_PATH.sub(_spaced_path, line)
        if " " in line and (":\\" in line or ":/" in line):
            line = _WINDOWS_SPACED.sub(_windows_spaced, line)
        if " " in line:
            line = _CONTINUED_PATH.sub(_continued_path, line)
        if has_digit:
            # a log's date written with slashes (rclone's, Go's log package's `2025/09/16
            # 14:02:03 ERROR : ...`) is a time, not a path whose name is `16`
            line = _SLASH_DATE.sub("<time>", line)
        line = _TMP_PATH.sub("<tmp>", line)
        if "\\" in line:
            line = _WIN_TMP_PATH.sub("<tmp>", line)
        line = _paths(line)
    if line.count("-") >= 4:
        line = _UUID.sub("<uuid>", line)
    if has_digit and _DIGIT.search(line):
        line = _V_VERSION.sub("v<n>", line)
        line = _TIME.sub("<time>", line)
        line = _DURATION.sub("<duration>", line)
        line = _IP.sub("<ip>", line)
        if "::" in line:
            line = _IP6_PORT.sub("<ip>", line)
        line = _SIZE.sub("<size>", line)
        line = _HEX.sub(_hex, line)
        if "[Errno" in line:
            line = _ERRNO_SAID.sub("[Errno <n>]", line)
        line = _NUMBER.sub(_number, line)
    if "n't" in line or "n’t" in line:
        # after every rule that reads words (`Can't resolve 'x'` keeps x), before the kept
        # values come back (a module's name stays as it is)
        line = _CONTRACTION.sub(_uncontract, line)
    if kept:
        line = _KEPT.sub(lambda m: kept[ord(m.group(1)) - 65], line)
    line = _SPACE.sub(" ", line).strip()
    if line.startswith(("<time>", "[<time>]")):
        # when a log line was written is no part of its error: pasted with or without it,
        # the same (`2025/09/16 14:02:03 NOTICE: Failed to sync: ...`)
        line = _LEADING_TIME.sub("", line) or line
    return line[:cap]


# Windows PowerShell's messages in English of the errors its record names by an id that it
# does not translate (`    + FullyQualifiedErrorId : CommandNotFoundException`, `PathNotFound,
# Microsoft.PowerShell.Commands.GetContentCommand`), `{}` the object its category names (`+
# CategoryInfo : ObjectNotFound: (python:String) [], CommandNotFoundException`): its words are
# in the user's language (`Die Benennung "python" wurde nicht als Name eines Cmdlet ...
# erkannt`, `Der Pfad "C:\x\config.json" kann nicht gefunden werden, da er nicht vorhanden
# ist.`), these two lines in English in every one. The ids of messages of one form, of the
# errors pasted most (a new user's German tries, nu47 finding 3); the corpora's records are
# English.
_RECORD_MESSAGES = {
    "CommandNotFoundException": (
        "The term '{}' is not recognized as the name of a cmdlet, function, script file, or"
        " operable program."
    ),
    "PathNotFound": "Cannot find path '{}' because it does not exist.",
    "InvokeMethodOnNull": "You cannot call a method on a null-valued expression.",
}
_RECORD_ID = lazy(r"\+ FullyQualifiedErrorId\s*:\s*(?P<id>[\w.]+)")
_RECORD_TARGET = lazy(r"\+ CategoryInfo\s*:\s*\w+: \((?P<target>.*):[\w.`\[\]]*\) \[")
# The place of an error in a record, in any language (`In Zeile:1 Zeichen:1`, `発生場所 行:1
# 文字:1`): two numbers, each after a colon.
_RECORD_PLACE = lazy(r"\S.*:\s?\d+\s.*:\s?\d+\s*$")
# PowerShell's cut of a long name in its category (`C:\Users\jdoe...proj\config.json`:
# the first and last 15 characters) and a name quoted in a message in any language.
_ELLIPSIS = "..."
_QUOTED_ANY = lazy(r"[\"'«“„‘]([^\"'«»“”„‘’\n]+)[\"'»“”’]")
# What a record's message says before its error: the command (`python : `, `Get-Content : `).
_RECORD_SOURCE = lazy(r"\S+ : ")


def _record_in_english(text: str, key: str) -> str:
    """`key` in English when it is the message of a Windows PowerShell error record in
    another language whose id is one of _RECORD_MESSAGES: that message, of the object its
    category names (`python : The term 'python' is not recognized ...`), so that its
    signature is the English one's (`command not found: python`) in any language, with no
    translation of PowerShell's words. An English message, and any other, is `key` itself.
    The record is the lines right under the message: its place, the source line and its
    carets (`+ python --version`, `+ ~~~~~~`), its category and its id."""
    lines = [line.strip() for line in _window(text)]
    if key not in lines:
        return key
    i = lines.index(key)
    target = error_id = None
    for line in lines[i + 1 : i + 8]:
        if said := _RECORD_TARGET.match(line):
            target = said.group("target")
        elif said := _RECORD_ID.match(line):
            error_id = said.group("id")
            break
        elif not (line.startswith("+") or _RECORD_PLACE.match(line)):
            return key
    english = _RECORD_MESSAGES.get(error_id or "")
    if english is None or english.split("{}")[0] in key:
        return key
    if "{}" in english:
        if target is None:
            return key
        if _ELLIPSIS in target:
            # the message's own name, of which the category shows both ends
            first, _, last = target.partition(_ELLIPSIS)
            named = (m.group(1) for m in _QUOTED_ANY.finditer(key))
            target = next((n for n in named if n.startswith(first) and n.endswith(last)), target)
        english = english.format(target)
    source = _RECORD_SOURCE.match(key)
    return f"{source.group(0) if source else ''}{english}"


def signature(text: str) -> str:
    """The signature of a failure's output: its key line, normalised (a Windows PowerShell
    error's in English: _record_in_english); a file a shell could not write, by its exit
    status, in dash's words (_written)."""
    if not text:
        return ""
    key = key_line(text)
    if "FullyQualifiedErrorId" in text:
        key = _record_in_english(text, key)
    found = normalise(key)
    if found.startswith(_SHELL_REFUSED):
        return _written(found, exit_status(text))
    return found


# A file a shell could not run or write, in zsh's words (normalise), and a file it could not
# write in dash's, the one shell whose message tells the two apart (`sh: 1: cannot create
# x: Permission denied`, `sh: 1: ./x: Permission denied`). bash and zsh say the same of both
# (`bash: line 1: ../docs/a.md: Permission denied` of `> ../docs/a.md`, `bash: ./deploy.sh:
# Permission denied` of a script not executable), but not with the same exit status: 126
# for a command found and not run, 1 for a redirect that failed. A file run and a file
# written are two errors, two fixes (`chmod +x`; `sudo tee`, another path): a new user's
# `./deploy.sh` was "the same error" of a Codex heredoc's write, and the hook gave its `sudo
# tee` (nu42 finding 2). An output with no exit status (a paste of the line) is read as a
# run, as a pasted `./deploy.sh: Permission denied` is. So is a write into a folder that is
# not there, dash's `sh: 1: cannot create /x/out/a.log: Directory nonexistent` (`> out/a.log`
# before a `mkdir -p out`), no script not there (`sh: 1: ./run.sh: not found`), whose fix is
# another (the script's path, a `cd`); any reason dash gives a file it could not create stays
# in its words (`Is a directory`). bash and zsh say `No such file or directory` of a write
# into a missing folder, of a script not there and of a file to source, and a write and a
# source both exit 1: their words are read as a run's.
_SHELL_REFUSED = "zsh: permission denied: "
_SHELL_WRITE = "sh: cannot create "
_RUN_STATUS = 126


def status_before(text: str, key: str) -> str:
    """The exit status line `text` starts with, and a line break, when the signature of `key`,
    a key line of `text`, reads it (_written: a file written is no file run), else "": a
    hook that looks for a key line alone would find a write's error as a run's."""
    status = exit_status(text)
    if status is None or status == _RUN_STATUS or not normalise(key).startswith(_SHELL_REFUSED):
        return ""
    return f"{status_line(status)}\n"


def _written(found: str, status: int | None) -> str:
    """`found`, a shell's refusal of a file (_SHELL_REFUSED), as one of a file written when
    its exit status says no command was refused (any but 126)."""
    if status is None or status == _RUN_STATUS:
        return found
    return f"{_SHELL_WRITE}{found[len(_SHELL_REFUSED) :]}: Permission denied"


def normalised_lines(text: str) -> tuple[str, ...]:
    """Where a signature can be found in `text` (see pastfix.queries.signature_in_text):
    each line key_line() looks at, normalised (cut at 4 signatures, so that one after
    other words still fits), but for one that names another error outright than the key
    line's, and the text's own signature (a header with its next line).
    """
    if not text:
        return ()
    lines = _window(text)
    key = key_line(text)
    if _score(key) == 3:
        # A text of several errors is named by its key line: another line naming an error
        # outright is a consequence or a peer of it (`remote: error: GH013: ...
        # rule violations`, then `error: failed to push some refs`, whose past failures
        # were fixed by a `git pull --rebase`; a new error of yarn's, then `error Command
        # failed with exit code 1.`): no past failure of that line is one of the text's.
        lines = [line for line in lines if _score(line.strip()) < 3 or line.strip() in key]
    found = dict.fromkeys(normalise(line.strip(), 4 * MAX_SIGNATURE) for line in lines)
    found[signature(text)] = None
    for line in lines:
        # a shell's "not found" among other words (`getting this error: bash: python:
        # command not found - any idea?`), which missing_program reads only as a whole line
        if "command not found" in line and (missing := _NOT_FOUND_IN.search(line)):
            found[f"command not found: {missing.group(1) or missing.group(2)}"] = None
    return tuple(line for line in found if line)


# A shell prompt's line above a pasted error: the command it ran (`$ mix ecto.migrate`,
# `me@box:~/app$ make`, PowerShell's `PS C:\\app> npm run build`).
_PROMPT = lazy(r"[ \t]*(?:\$|[\w.-]+@[\w.-]+:\S*\$|PS [^>\n]{1,200}>)[ \t]")
# The home folder a path starts with (`/home/alice/`, `/Users/alice/`, `C:\\Users\\alice\\`) and
# one that is all of a path (`/home/alice: Permission denied`): whose machine it is.
_HOME = lazy(
    r"(?<![\w.~-])(?:/home/|/Users/|[A-Za-z]:[\\/]Users[\\/])[^\s/\\'\"`:;,]+(?=[/\\:;,'\"`\s]|$)"
)
# A stack frame: Python's `File "/x/a.py", line 3, in f` (its source line under it);
# JavaScript's and Java's `at f (/x/a.js:3:5)`, Elixir's `(mix 1.19.5) lib/mix/pubsub.ex:40:
# Mix.PubSub.start/0`, Ruby's `from /x/a.rb:12:in 'f'`.
_PY_FRAME = lazy(r"[ \t]*File \"[^\"\n]*\", line \d+")
_FRAME = lazy(r"[ \t]*(?:at \S.*:\d+(?::\d+)?\)?$|\(\w+ [\w.+-]+\) \S+:\d+: |from \S+:\d+:in )")


def as_output(text: str) -> str:
    """A pasted text as a failure's output holds it, the words a failure must hold to match
    it: each line without what a log wrote before it (without_log_prefix), and without the
    lines that say where it ran, not what went wrong: a shell prompt's line (the command is
    the call's, not its output) and a traceback's frames (`File "/home/me/x.py", line 285,
    in f` and its source line, `at f (/x/a.js:3:5)`), whose paths are that checkout's. Mix's
    error with `$ mix ecto.migrate` above it, or a time before each line, and a whole
    traceback from another checkout found nothing that its last line alone finds (a new
    user's tries, session 33). A home folder is `~` (`/home/alice/`, `/Users/alice/`,
    `C:\\Users\\alice\\`): whose machine it is, as a signature's paths leave out. A shell's
    start-up noise pasted with one's own home (`/home/alice/miniconda3/etc/profile.d/conda.sh:
    line 48: syntax error ...`), a line of no failure's signature, found nothing, while the
    same line from `/home/zeus` found its session by every word (nu44 finding 9). The
    command pasted above its exit status is the call's too, as a prompt's line is
    (echoed_lines: `lsof -i :3001` above `Exit code 1`)."""
    kept = []
    source = False  # the line before was a Python frame: an indented line is its source
    for line in text.split("\n"):
        line = without_log_prefix(line)
        if "/home/" in line or "Users" in line:
            line = _HOME.sub("~", line)
        if _PY_FRAME.match(line):
            source = True
            continue
        if source and line[:1].isspace():
            source = False
            continue
        source = False
        if not (_PROMPT.match(line) or _FRAME.match(line)):
            kept.append(line)
    if "xit" in text:
        # the command pasted above its exit status (`lsof -i :3001`, then `Exit code 1`, or
        # any agent's words for it: ended_so)
        echoed = echoed_lines([line.strip() for line in kept])
        kept = [line for i, line in enumerate(kept) if i not in echoed]
    return "\n".join(kept)


def other_error_lines(text: str) -> list[str]:
    """The lines of `text` that normalised_lines leaves out: each names another error
    outright than its key line, which names the text (stripped, each once)."""
    key = key_line(text)
    if not text or _score(key) != 3:
        return []
    lines = (line.strip() for line in _window(text, _DEEP, _DEEP_LINES))
    return list(dict.fromkeys(line for line in lines if _score(line) == 3 and line not in key))


def other_lines(text: str) -> list[str]:
    """The lines of `text` that may name an error of their own beside its key line's, each
    once, stripped: those that name another error outright (other_error_lines, searched
    deep), then the other lines key_line() reads (its window), but for the key line and
    what it joins (a header's next line) and exit status lines (status_of). Which of them
    names an error is what past failures say, not their words: `sudo: a password is
    required` names none in words (score 0) and was the key line of failures
    (pastfix.queries.other_seen_lines)."""
    key = key_line(text)
    if not key:
        return []
    window = (line.strip() for line in _window(text))
    rest = (line for line in window if line and line not in key and status_of(line) is None)
    return list(dict.fromkeys([*other_error_lines(text), *rest]))


# A shell's "command not found" inside a line: `bash: python: command not found`, zsh's
# `command not found: gh`.
_NOT_FOUND_IN = lazy(r"([\w.+-]+): command not found\b|command not found: ([\w.+-]+)")


# --- loose(): the same error about another file ---------------------------------
# A signature keeps the file an error names (`cat: <path>/a.json: No such file or
# directory` and `b.json` differ): the same error about the same file is the best match.
# When no failure has the pasted error's signature, the same error about another file
# (`priv/static/images` where the past one said `priv/static/assets`, `cd: frontend`
# where it said `cd: backend`) is still the same error, and its fix the one to show:
# loose() sets the file aside. A quoted name is `<str>` already, whatever it names.
# The extensions of a bare file name (`missing.txt`, `README.md`), which no folder
# marks as a path: a dotted name with another ending (`os.path`, `advice.addIgnoredFile`)
# stays, as a missing module's quoted name does.
FILE_EXTENSIONS = (
    "c cc cfg conf cpp cs css csv ex exs go h heex hpp html ini java js json jsonl jsx kt lock"
    " log md mjs cjs php png py pyi rb rs scss sh sql svg swift toml ts tsx txt vue xml yaml yml"
    " zig"
    # ES modules' and CommonJS's TypeScript (`index.d.mts`, `index.d.cts` of a package's
    # types: a tree listing's `index.d.mts` was a partial match of an error about another,
    # sharing only that name, ans41 finding 2), the web frameworks' components, and other
    # files a project names; not an ending that is also an attribute's or a module's name
    # (`.map`, `.env`, `.key`, `.sum`, `.mod`, `.d`, `.m`: `Array.prototype.map`,
    # `process.env`, `sources.list.d`)
    " mts cts svelte astro mdx jsonc json5 kts gradle dart scala lua ipynb graphql gql prisma"
    " proto tf hcl nix ps1 psm1 bat zsh bash fish sass less ejs hbs pug erb lockb wasm pem"
    " plist tsbuildinfo"
).split()
_LOOSE = lazy(
    # a path's base name, which normalise() keeps
    r"<path>/(?:[^\s'\":,;()\[\]<>]|<[a-z]+>)+"
    # a bare file name
    r"|(?<![\w.'\"`/<-])\w[\w.-]*\.(?:" + "|".join(FILE_EXTENSIONS) + r")(?![\w/-])"
)
# Speed: most signatures hold a dot and no file name; this finds those that may, fast.
# (a name of its own: `_EXTENSION` above, read by _location(), was shadowed by this one)
_NAMES_A_FILE = lazy(r"\.(?:" + "|".join(FILE_EXTENSIONS) + r")(?![\w/-])")
# What a missing file's message names (`cat: notes: No such file or directory`, zsh's
# `cd: no such file or directory: frontend`) is a path, whatever it looks like; in zsh's
# words, what comes before the message is the program (`cd`, `zsh`), which stays.
_NO_SUCH_FILE = lazy(
    r"(?<![^\s:])[^\s:'\"<>]+(?=: no such file or directory(?!: ))"
    r"|(?<=no such file or directory: )[^\s'\"<>]+$",
    re.IGNORECASE,
)


# The file git could not match (`pathspec x did not match`, unquoted by normalise()).
_PATHSPEC = lazy(r"(?<=pathspec )[^\s<]\S*(?= did not match)")
# A path's base name with a space in it (`<path>/My Notes.txt`, `cd: no such file or
# directory: <path>/my project`), which normalise() keeps where an OS error says where the
# path ends: before its message (`<path>/x y: Permission denied`, `<path>/x y: [Errno <n>]
# ...`), or after it to the end (`No such file or directory: <path>/x y`, Node's `...
# directory, open <path>/x y`). _LOOSE reads a name to its first space: the same error about
# another file was `<path> Notes.txt`, `<path> <path>`, not `<path>`.
_LOOSE_SPACED = lazy(
    r"<path>/[^\s<>:'\"]+(?: [^\s<>:'\"]+)+(?=: (?:" + _OS_ERROR + r"|\[Errno)\b)"
    r"|(?P<said>(?i:" + _OS_ERROR + r")(?:: |, [a-z_]+ ))<path>/[^\s<>:'\"]+(?: [^\s<>:'\"]+)+$"
)


def loose(signature: str) -> str:
    """`signature` with the file it names set aside (`<path>`): the same error about
    another file. find_past_fix looks for it only when no failure has the pasted error's
    own signature or words (pastfix.queries.signature_loosely_in_text). A module's name
    stays: another module missing is another error."""
    if "<path>/" in signature or _NAMES_A_FILE.search(signature):
        if " " in signature:
            signature = _LOOSE_SPACED.sub(lambda m: (m.group("said") or "") + "<path>", signature)
        signature = _LOOSE.sub("<path>", signature)
    if "such file" in signature.lower():
        signature = _NO_SUCH_FILE.sub("<path>", signature)
    if "<tmp>" in signature:
        # a temporary file is some file: its name went with its random folder
        signature = signature.replace("<tmp>", "<path>")
    if "pathspec " in signature:
        signature = _PATHSPEC.sub("<path>", signature)
    return signature


def runs_a_missing_file(signature: str) -> bool:
    """Whether `signature` says that a file run was not there: a program or script a shell
    was to run or source (`zsh: no such file or directory: <path>/run.sh`, bash's `bash:
    ./run.sh: No such file or directory` and dash's `/bin/sh: 1: ./gradlew: not found` in
    zsh's words), Python's script (`python: cannot open file <path>/a.py: ...`) or Node's
    module of a path (`Cannot find module <path>/run.js`). Such an error is about that file
    and nothing else: another file's fix made or reached that one (a `cd backend` before
    `./node_modules/.bin/prisma`), and is no fix of yours, unless the file is the same (the
    signature keeps its base name). So the same error about another file is not the error
    seen before, and the hook gives no such fix (pastfix.queries: a new user's `./gradlew:
    not found` was given prisma's, nu41 finding 1). Not a file a program read (`cat: <path>:
    No such file or directory`), nor `cd`'s folder: a look around for it is the fix."""
    return bool(_RUNS_A_MISSING_FILE.search(loose(signature)))


# runs_a_missing_file's errors, their file set aside (loose).
_RUNS_A_MISSING_FILE = lazy(
    r"^zsh: no such file or directory: <path>$"
    r"|^python: cannot open file <path>: "
    r"|(?:^|: )Cannot find module <path>(?: imported from <path>)?$"
)


def refuses_a_shell_file(signature: str) -> bool:
    """Whether `signature` says that a shell could not run or write a file: `zsh: permission
    denied: <path>/deploy.sh`, bash's `bash: ./deploy.sh: Permission denied` (a script that is
    not executable) and `/bin/bash: line 1: ../docs/a.md: Permission denied` (a redirect's
    target) in zsh's words, and a file written, told by its exit status (`sh: cannot create
    <path>/a.md: Permission denied`: _written), two errors, but both about their own file: the
    fix of either is that file's (`chmod +x` of that script, or running it with `bash`; `sudo
    tee` to that path, or another path), no fix of another file's, as with runs_a_missing_file
    (a new user's not executable `./deploy.sh` was matched as the error of a Codex heredoc's
    write to `requirements.md_DRAFT.md`, and the hook gave its `sudo tee`: nu42 finding 2).
    So is a file dash could not write for another reason, its folder not there (`sh: cannot
    create <path>/a.log: Directory nonexistent`: a `mkdir -p` of that folder). Not `cd`'s
    folder (`cd: permission denied: <path>`), whose fix is a look around."""
    return bool(_REFUSES_A_SHELL_FILE.match(loose(signature)))


# refuses_a_shell_file's errors, their file set aside (loose).
_REFUSES_A_SHELL_FILE = lazy(r"zsh: permission denied: <path>$|sh: cannot create <path>: [^:]+$")


def says_a_file_is_missing(signature: str) -> bool:
    """Whether `signature` says that a file or folder was not there: `No such file or
    directory` of any program (`ls: cannot access <path>: ...`, `sed: can not read ...`, zsh's
    `cd: no such file or directory: <path>`), Claude Code's `File does not exist.`, which names
    no file, PowerShell's `Cannot find path ... because it does not exist.`, Node's `ENOENT`,
    dash's `Directory nonexistent`; not what a program's code lacks (TypeScript's property, an
    SQL column that `does not exist`). Another file's fix of such an error (a mkdir, a rename,
    a look for another project's file) is no fix of it (pastfix.hook, nu42 finding 1;
    docs/benchmarks.md, "The same error about another file": each such match of held-out
    sets 9-13 was the same error with another path, and half were not fixed)."""
    return bool(_SAYS_A_FILE_IS_MISSING.search(signature))


_SAYS_A_FILE_IS_MISSING = lazy(
    r"no such file|\bENOENT\b|cannot find (?:the )?(?:path|file)|directory nonexistent"
    # (not any `does not exist`: TypeScript's property, an SQL column)
    r"|\b(?:file|path|directory|folder|because it) does not exist"
    r"|<(?:path|tmp)>(?:/[^\s:'\"<>]+)? does not exist",
    re.IGNORECASE,
)


def named_paths(line: str) -> list[str]:
    """The paths a line names, as written (those its signature keeps as `<path>/<base name>`):
    `ls: cannot access 'build/output': ...` names `build/output`. A bare name (`cat: go.sum:
    No such file ...`) is none: it has no folder to tell it by; nor the folder of the program
    the line starts with (`/usr/bin/bash: line 33: cd: ...`), as normalise() drops it; nor
    the folder Claude Code says it ran in (ran_in), which is no file of the error. A path
    with a space in a folder's name is one, as normalise() reads it (_SPACED_PATH,
    _WINDOWS_SPACED: `sed: can't read /home/me/my project/src/a.jsx: ...`), not two."""
    line = _PROGRAM_DIR.sub("", _CWD_NOTE.sub("", line).lstrip(), count=1)
    spaced: list[str] = []
    if any(word in line for word in _OS_ERROR_WORDS):
        line = _SPACED_PATH.sub(lambda m: _set_apart(spaced, m, "before", "after"), line)
    line = _WINDOWS_SPACED.sub(lambda m: _set_apart(spaced, m, 0), line)
    return spaced + [
        m.group(0).rstrip(".")
        for part in _TOKENS.split(line)
        if "/" in part or "\\" in part
        for m in _PATH.finditer(part)
    ]


def _set_apart(paths: list[str], m: re.Match[str], *groups: str | int) -> str:
    """named_paths: a path with a space in it kept in `paths` whole, a space in its place."""
    paths.append(next(found for group in groups if (found := m.group(group))))
    return " "


def ran_in(line: str) -> str:
    """The folder a line says its call ran in, as written: Claude Code's `File does not exist.
    Note: your current working directory is /x/app.` ran in `/x/app`; "" for a line that says
    none."""
    m = _RAN_IN.search(line)
    return m.group(1) if m else ""


# (the note of _CWD_NOTE, its folder without the sentence's full stop)
_RAN_IN = lazy(r"Note: your current working directory is (.+?)\.?\s*$")


def missing_path_kind(line: str) -> str:
    """What the path of a key line whose file is the error (its_file_is_the_error) is, as the
    error says it: "folder" for `ls` of a path (unless its name has a file's extension),
    `cd`, `mkdir`'s folder, `Is a directory`, a path ending in `/`, or a directory said not to
    exist; "file" for a file run, written or read (runs_a_missing_file, refuses_a_shell_file,
    `cat`, `sed`, `head`, Claude Code's `File does not exist.`, a name with a file's extension);
    "path" when it does not say. Said in "Not seen about this folder" (pastfix.queries): a new
    user's `ls: cannot access 'build/output'` was "not seen about this file" (nu42 finding
    11)."""
    if _A_FOLDER_SAID.search(line):
        return "folder"
    said = normalise(line)
    program = _PROGRAM.match(said)
    name = program and program.group("program")
    if name in _LISTS_A_FOLDER:
        return "file" if _NAMES_A_FILE.search(said) else "folder"
    if name in _READS_A_FILE or runs_a_missing_file(said) or refuses_a_shell_file(said):
        return "file"
    if _A_FILE_SAID.search(said) or _NAMES_A_FILE.search(said):
        return "file"
    return "path"


# A path said to be a folder: one ending in `/` (`ls: build/: No such file or directory`,
# not a URL's `//`), `Is a directory`, a directory or folder said not to exist.
_A_FOLDER_SAID = lazy(
    r"(?<![/:\w.~-])[\w.~-]*(?:/[\w.-]+)*/['\"]?(?=:|\s|$)|\bIs a directory\b"
    r"|\b(?:directory|folder) (?:does not exist|not found)",
    re.IGNORECASE,
)
# A file said to be: Claude Code's `File does not exist.`, `can't open file`.
_A_FILE_SAID = lazy(r"\bfile does not exist\b|\bcan(?:'|no)t open file\b", re.IGNORECASE)
# The program a normalised key line starts with, in zsh's words or any other's
# (`ls: cannot access ...`, `cd: no such file or directory: ...`).
_PROGRAM = lazy(r"(?:<path>/)?(?P<program>[\w-]+): ")
# Programs whose path is a folder (`ls` lists one; `mkdir`'s missing part is one).
_LISTS_A_FOLDER = frozenset({"ls", "cd", "pushd", "mkdir", "rmdir", "tree", "lsd", "exa", "eza"})
# Programs whose path is a file they read.
_READS_A_FILE = frozenset({"cat", "sed", "head", "tail", "less", "more", "source", "bat", "wc"})


def lints_a_name(line: str) -> bool:
    """Whether a key line is a compiler's or linter's diagnostic of a name the user's own code
    declares, whatever the name: one not used or never read (tsc's TS6133 `'useState' is
    declared but its value is never read`, TS6196 `... is declared but never used`, ESLint's
    `'x' is defined but never used` and `... is assigned a value but never used`, pyflakes's and
    Ruff's F401 `'os' imported but unused` and F841 `local variable 'e' is assigned to but never
    used`, rustc's `unused variable: `x``, `unused import`, `value assigned to `x` is never
    read`, `function `f` is never used`, Go's `declared and not used: x`, `"os" imported and
    not used`), one never reassigned (ESLint's prefer-const), one named against the style
    (rustc's `should have a snake case name`). Its fix is of the same kind for any name (the
    import or variable dropped, `_` put before it, `const`, a rename), so another name's fix
    is the error's (pastfix.queries.other_names: a new user's TS6133 of `'useState'` was "not
    seen before, its fix is not yours" beside the same fix of `'React'`, nu42 finding 8). Not a
    name the code uses and lacks (TS2339's property, an undefined name, a missing module),
    whose fix depends on the name."""
    return bool(_LINTS_A_NAME.search(line))


_LINTS_A_NAME = lazy(
    r"\bis declared but (?:its value is )?never (?:read|used)"
    r"|\bis (?:defined|assigned a value) but never used"
    r"|\bis assigned to but never used|\bimported but unused|\bredefinition of unused"
    r"|\bis never reassigned\. Use 'const' instead"
    r"|\bunused (?:variable|imports?|mut|assignment|macro definition|type alias|label)\b"
    r"|\bvalue assigned to .{1,80} is never read"
    r"|\b(?:function|struct|field|fields|method|constant|static|variant|enum|associated"
    r" function|type alias|trait) .{1,80} (?:is|are) never (?:used|read|constructed)"
    r"|\bdeclared and not used|\bimported and not used"
    r"|\bshould have an? (?:snake|upper camel|upper) case name",
    re.IGNORECASE,
)


def its_file_is_the_error(signature: str) -> bool:
    """Whether the file `signature` names is what the error is about, so that another file's
    fix is no fix of this one (pastfix.queries): a file run that was not there
    (runs_a_missing_file), a file a shell could not run or write (refuses_a_shell_file), a
    file or folder any program found not there (says_a_file_is_missing: `ls: cannot access
    'build/output'`, whose look-alikes of other folders were fixed by another project's
    `mkdir -p .claude/logs` and `chmod +x` of its hooks; `pastfix find` and MCP called them
    seen before while the hook stayed silent, nu42 finding 9). A compiler's or linter's
    diagnostic in another file is not of these: its place is set aside (queries)."""
    return (
        runs_a_missing_file(signature)
        or refuses_a_shell_file(signature)
        or says_a_file_is_missing(signature)
    )


# The line of a patch apply_patch quotes as no hunk's, quotes and all (bounded: normalise
# reads 1,200 characters). Where its parser stopped, as a code parser's token (quoted_names):
# no name of the error (the lines of two patches differ), so not one of quoted_names.
_HUNK_LINE = lazy(
    r"(?<=update hunk: )'[^\n]*?'(?=\. Every line should start)"
    r"|(?<=, )'[^\n]*?'(?= is not a valid hunk header)"
)


def _named(names: list[str], match: re.Match[str]) -> str:
    names.append(match.group()[1:-1])
    return "<str>"


def _bare_name(names: list[str] | None, match: re.Match[str]) -> str:
    """A name said bare (_BARE_NAME) as a quoted one is: `<str>`, and one of `names`."""
    if names is not None:
        names.append(match.group("name"))
    return match.group("what") + "<str>"


def quoted_names(line: str) -> tuple[str, ...]:
    """The quoted values of a key line that its signature says `<str>` for (and a name said
    bare at its end, docker's `No such container: webapp`): the names a
    message is about that are not kept (no module, no program: a TypeScript property and
    type, a yarn script, an SQL column). Two failures of one signature whose names all
    differ are one form of error about other things (`Property 'email' does not exist on
    type 'User'` and `'errors'` on `'ZodError'`): the one's fix, an edit of its names, is
    not the other's (pastfix.queries.other_names).

    Not the token a parser of code stopped at (_PARSE_STOP): PowerShell's `Unexpected token
    'config' in expression or statement.`, JavaScript's `SyntaxError: Unexpected token '}'`,
    Python's `'(' was never closed` and `unmatched ')'`. It is only where parsing broke,
    which any token of the line may be: a script's `"✓ config found"` read in the console's
    code page broke at `'config'`, another's at `'in'`, one fix (`✓` to `[OK]`), which a new
    user was told was not theirs (nu41 finding 4). A JSON parser's token stays: it is what
    the text held (`Unexpected token '<', "<!DOCTYPE "...` is HTML, `'u'` undefined).

    Nor a language's word for what has no name (_NAMELESS: Nix's `'anonymous lambda'`,
    `'<anonymous>'`, Python's `'<lambda>'`): it names nothing of the user's, and shared, it
    made Nix's `function 'anonymous lambda' called without required argument 'pkgs'` the
    same error as of `'lib'`, with `'lib'`'s fix and no note (nu44 finding 11)."""
    names: list[str] = []
    normalise(line, names=names)
    if "JSON" not in line:
        for stop in _PARSE_STOP.finditer(line):
            token = stop.group("token") or stop.group("closed")
            if token in names:
                names.remove(token)
    return tuple(name for name in names if name.strip().lower() not in _NAMELESS)


# What languages call what has no name, quoted in their errors as a name (quoted_names).
_NAMELESS = frozenset(
    {"anonymous lambda", "anonymous function", "anonymous", "<anonymous>", "<lambda>"}
)


# Where a parser of code says it stopped (quoted_names), the token quoted.
_PARSE_STOP = lazy(
    r"(?i:unexpected token|unmatched) ['\"‘“](?P<token>[^'\"’”\n]{1,40})['\"’”]"
    r"|['\"‘“](?P<closed>[^'\"’”\n]{1,40})['\"’”] was never closed"
)


def kept_set_aside(signature: str) -> str:
    """`signature` with the values normalise() kept as they are set aside (`<str>`): the
    module of a missing-module error, the name a program could not use, the program a usage
    error is for, and the program a shell did not find (`command not found: <str>`, every
    shell's words for it, PowerShell's `The term 'awk' is not recognized ...` too). Every
    quoted value left in a signature is one of those. Two signatures alike but for them are
    one error's form about two things, two errors (`No module named 'pydantic'` and
    `'pydantic_settings'`, `command not found: awk` and `sed`: see
    pastfix.queries.another_value), each the other's "same error, other names"."""
    if signature.startswith(_MISSING_PROGRAM):
        return _MISSING_PROGRAM + "<str>"
    if "near unexpected token `" in signature or "parse error near `" in signature:
        signature = _SHELL_TOKEN.sub("<str>", signature, count=1)
    return _QUOTED.sub("<str>", signature)


# What normalise() makes of a program a shell did not find, the program after it.
_MISSING_PROGRAM = "command not found: "


def _head(text: str) -> tuple[str, re.Match[str] | None]:
    """The start of a failure's text as classify() reads it (no <tool_use_error> wrapper,
    no `Error: ` prefix), and its `Exit code N` line if it starts with one."""
    head, _ = _unwrap(text[:HEAD_CHARS])
    # (a paste from Claude Code's terminal: `⎿  Error: Exit code 128`, see status_of)
    head = head.lstrip().removeprefix("⎿").lstrip()
    if _ERROR_PREFIX.match(head):
        head = head[7:]
    return head, _EXIT_CODE_HEAD.match(head)


def exit_status(text: str) -> int | None:
    """The exit status a failed command ended with (`Exit code N`, first, as every agent's
    failure is stored), None for a failure that records none."""
    if not text:
        return None
    m = _head(text)[1]
    return int(m.group(1)) if m else None


def status_line(status: int) -> str:
    """How a failed command's exit status is stored, first (exit_status): `Exit code N`."""
    return f"Exit code {status}"


def classify(text: str) -> str:
    """The kind of a failure: ERROR, or one of the harness kinds in KINDS."""
    if not text:
        return ERROR
    head, m = _head(text)
    if m:
        # A Bash failure: its output is the command's, so only the line that
        # Claude Code itself writes after "Exit code N" can make it harness noise.
        rest = head[m.end() :].lstrip()
        for kind in ("timeout", "interrupted"):
            if _KIND_BY_NAME[kind].match(rest):
                # stopped at its time limit, it is an error when it printed one after
                # (its key line: `Type error: ...` of a build; see key_line)
                if kind == "timeout" and not _TIMED_OUT.match(key_line(text)):
                    return ERROR
                return kind
        return ERROR
    for kind, rx in _KIND_RULES:
        if rx.match(head):
            return kind
    return ERROR
