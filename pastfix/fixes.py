"""What fixed a failed tool call: the remedy, and the call that confirms it.

These rules are pure: they take the calls of one session in order and say, for
each failed call, what happened next. The build stores what they say in the
`fixes` table (db.refresh_fixes), and find_past_fix, the hook, `pastfix find`
and the MCP tools show it. Bump FIX_VERSION whenever a rule changes: the next
build recomputes every stored fix.

**The window.** What follows a failure is read among the later calls of the same
agent (the main thread, or one subagent), up to the second prompt the user typed
after it (PROMPTS_CROSSED: a "try again" or "continue" often comes in between; a slash
command and the `[Request interrupted by user]` Claude Code writes after a rejected call
are none), and at most WINDOW_CALLS of them: after that the agent has moved on. A
subagent of Claude Code 1.0 has no id: the build tells its thread by its messages'
parent links.

**The confirmation.** The first successful call in the window that does what the
failed call tried to do:

- *a retry*: the same tool on the same file, or a shell command with the same
  intent: the same program (found behind `sudo`, `env X=1`, `timeout 5`, `npx`,
  `uv run`, `python -m`, `bundle exec` ..., and by its name when called by its
  full path) and subcommand (`git push`, `npm run build`), and arguments that
  overlap or where one side has none. `npm run build` is not `npm run test`.
- *another way*, within the first ANOTHER_WAY_CALLS calls: another tool on the
  same file (`cat x` failed, then Read x; an Edit that did not apply, then a
  Write of the file; a Read of a file too large to read whole, then a Grep of
  it; a binary file, then a `python3 -c` script that opens it), the same file
  name in another folder (a Read of a file that does not exist, then a Read
  where a Glob found it; not when the file at the failed path
  was the one meant: too large, binary, not read yet), a file inside a folder
  that was read as a file, or the folder listed (`ls`, `find`: for a file that
  does not exist they are the search that finds it, a step), the same program
  through another shell tool, another program on the same paths when the first
  was not found (`tree`, then `find`), the same search in the shell when Glob or
  Grep could not run (`spawn .../rg EACCES`, then `find -name` or `grep` of a
  word of its pattern), a file written by the shell after an edit was refused
  (`cat > x`, or a script whose code writes it and names it),
  or, for a file that does not exist, a Read in its folder after a search of it.
  A tool without a file or command (Task, Skill, an MCP tool) is retried by
  calling it again (with the same input: unchanged), a page fetch (WebFetch) by a
  fetch of the same site.

Codex's exec_command returns when its yield time is up; a command still running then
(`Process running with session ID N`, kind `running`) ends in a later write_stdin that
polls it (and holds its command): the exec_command takes that poll's outcome, and the poll
that saw it succeed is no call of its own. A failed poll is the same tool as
exec_command for a retry.

A search that found nothing (`rg x lib` exits 1 and prints nothing else) is confirmed
only by the same search run again: another pattern in the same folder is another question.

Paths are compared by their folders and file names, Windows ones (`C:\\Users\\...`) too.

A confirming call whose output still holds the failure's key line did not
succeed (`npm test | tail` exits 0 when the tests fail), and one that masks
failures where the failed call did not (`|| true`, `|| echo ...`, `; exit 0`)
papers over the error: neither confirms a fix, and the search goes on.

**The remedy.** What made the difference, shown before the confirmation:

- the edits (Edit, MultiEdit, Write, NotebookEdit, apply_patch) between the
  failure and the confirmation, and the shell commands there that change state
  (a formatter, an install, a config or auth command, `mkdir`, `git pull
  --rebase`, ...): every command but those that only look (`ls`, `cat`, `grep`,
  `git status`, ...) or only check (test runners, linters, type checkers and
  builds run without a fix flag), and those that only record the work (`git
  add`, `git commit`, `git push`, `gh pr ...`, an issue tracker's `bd close`:
  RECORDS) unless the failure was that program's own;
- a Read of the file when the error was that it had not been read first, or that
  the text an edit was to replace was not in it (`String to replace not found`,
  Copilot's `No match found`, Gemini's `0 occurrences found`): then the edit that
  applied, with the text the file has, is a step too, and edits of other files
  are none (a batch of edits refused together, each redone after its Read);
- the search that found the file, when the error lost track of a path (missing,
  or a folder used as a file) and the confirmation reads it elsewhere;
- the confirmation itself when it was changed: another flag, path, tool,
  `sudo`, the full path of the executable, another folder (`in app`: a `cd` of
  its command, or its tool's folder argument, Gemini's dir_path and Codex's
  workdir), another part of a file (a Read with `limit 50` after the file was too
  large to read whole). Its `change` says how, as the words taken out and put in
  (`-x +/usr/local/bin/x`).

When retries failed again before one succeeded, only what came between the last
retry that still showed this error and the first one that failed with another
counts: a test run that failed four times on four errors had four remedies.

Steps that the error names (its file, its program, a word of its text such as
`Run 'mix format'`) come first, then the others in order; at most REMEDY_STEPS.
An unchanged retry with nothing in between is a fix with an empty remedy (a
flaky network, a server that had not started yet).

**Outcomes.** `fixed` (a retry confirmed it), `worked around` (another way did),
`papered over` (only a masked call succeeded) and `not fixed` (nothing in the
window did). Only the first two claim a fix.
"""

from __future__ import annotations

import functools
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import msgspec

from pastfix import agents

FIX_VERSION = 7  # bump when a rule changes: stored fixes are recomputed

WINDOW_CALLS = 60
# Calls after a failure that nothing fixed whose edits the card lists.
NEARBY_CALLS = 10
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
WORKED_AROUND = "worked around"
PAPERED_OVER = "papered over"
NOT_FIXED = "not fixed"
CLAIMS_FIX = frozenset({FIXED, WORKED_AROUND})

# What each tool does, from every agent's entry in pastfix.agents (one home per agent).
EDIT_TOOLS = agents.tools(agents.EDIT)
SHELL_TOOLS = agents.tools(agents.SHELL)
READ_TOOLS = agents.tools(agents.READ)
FILE_TOOLS = READ_TOOLS | EDIT_TOOLS
SEARCH_TOOLS = agents.tools(agents.SEARCH)

# Programs that only look: never a remedy, never a confirmation of a command.
LOOK = frozenset(
    "ls cat head tail less more grep egrep fgrep rg ag ack find fd tree wc pwd echo printf which"
    " type whereis file stat du df ps top env printenv date whoami id uname hostname sort uniq"
    " cut diff cmp jq yq test [ true false sleep man history lsd eza exa realpath readlink"
    " basename dirname nl"
    " lsof netstat ss nproc free uptime tldr column xxd od hexdump strings md5sum sha256sum"
    " shasum open xdg-open".split()
)
# Subcommands that only look, of programs that can also change things.
LOOK_SUBCOMMANDS = {
    "git": frozenset(
        "status log diff show branch remote rev-parse ls-files blame describe shortlog"
        " reflog grep config-get ls-remote".split()
    ),
    "npm": frozenset("ls list view info outdated search why explain help config-get".split()),
    "pip": frozenset("show list freeze check search index".split()),
    "docker": frozenset("ps logs inspect images version info".split()),
    "kubectl": frozenset("get describe logs explain version".split()),
    "gh": frozenset("view list status diff checks".split()),
    "cargo": frozenset("tree metadata search".split()),
    "brew": frozenset("list info search".split()),
    "apt": frozenset("list show search policy".split()),
    "mix": frozenset("help".split()),
}
# Subcommands that only look, whatever the program (`bd list`, `gh pr view`, `kubectl get`).
LOOK_ANY = frozenset(
    "list ls show status view info get describe search help ready version whoami log logs"
    " diff inspect outdated doctor --version --help".split()
)
# Flags that make a fixer only check: `mix format --check-formatted`, `black --check`.
_CHECK_FLAG = re.compile(r"^--?(?:check\S*|dry-run|diff|list-different|verify)$")
# Programs and subcommands that check without changing: they confirm, never remedy.
CHECK = frozenset(
    "pytest jest vitest mocha tsc mypy pyright flake8 pylint eslint ruff shellcheck rspec"
    " phpunit ava tap karma playwright cypress hadolint golangci-lint rubocop credo dialyzer"
    " stylelint biome".split()
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
}
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
FIXING_SCRIPTS = re.compile(r"^(?:format|fmt|prettier|lint:fix|fix|codegen|generate|install)\b")
# Wrappers in front of the program that does the work.
WRAPPERS = frozenset(
    "sudo doas env time nohup exec command nice ionice stdbuf timeout xargs npx bunx pnpx"
    " watch caffeinate".split()
)
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
# Names of one program: `python` failed, `python3` worked.
ALIASES = {"python3": "python", "pip3": "pip", "nodejs": "node", "docker-compose": "docker"}
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish"})
# The shell's own words around the commands of a loop or a test (a line of a script).
_SHELL_KEYWORDS = frozenset(
    "do done then else elif fi if while until esac continue break ! { }".split()
)
MASKS = re.compile(r"\|\|\s*(?:true|:|echo\b|exit\s+0|printf\b)|;\s*(?:true|exit\s+0)\s*$")

_SEPARATORS = frozenset({"|", "||", "&&", ";", "&", "\n"})
_OUTPUT_FILTERS = frozenset(
    "head tail grep egrep rg sed awk cut sort uniq wc less more tee cat jq column tr fold".split()
)
_REDIRECT = re.compile(r"^\d?(?:>>?|<)(?:&\d)?\S*$|^&>>?\S*$|^\d?>&\d$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Quoted text with spaces, or this long, is a message (a commit message, a script, data),
# not part of the intent.
_MESSAGE_CHARS = 200


_SPACE = re.compile(r"\s")


def _is_message(word: str) -> bool:
    return len(word) >= _MESSAGE_CHARS or _SPACE.search(word) is not None


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]{2,}")


class Call(msgspec.Struct, frozen=True):
    """A tool call of a session with what its result said.

    A Struct, not a frozen dataclass: refresh_fixes makes one per call after a session's
    first failure, 0.6 us each against 3.5 us (16,845 calls at 200 MB, 0.05 s).
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


# A heredoc's body, up to its delimiter: text, not commands.
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1[^\n]*\n(?:.*\n)*?\s*\2\b", re.MULTILINE)
# Redirections, before the words are split: `2>&1`, `&>log`, `>/dev/null`, `< in.txt`.
_REDIRECTION = re.compile(r"\d*>&\d+|&>>?\s*[^\s|&;]+|\d*>>?\s*[^\s|&;]+|\d*<(?!<)\s*[^\s|&;]+")


# A word of a shell command: a quoted string (its quotes taken off), an operator, or
# a run of other characters. Unbalanced quotes run to the end.
_TOKEN = re.compile(
    r"""[^\S\n]*(?:"((?:\\.|[^"\\])*)"?|'([^']*)'?|(\|\||&&|[|&;\n])|((?:\\.|[^\s|&;"'])+))"""
)


def _words(command: str) -> list[str]:
    """A command's words, with its operators (`|`, `&&`, `;`) as words of their own."""
    # a line continued by a backslash is one line
    command = _REDIRECTION.sub(" ", _HEREDOC.sub(" ", command)).replace("\\\n", " ")
    words = []
    for found in _TOKEN.finditer(command):
        double, single, operator, bare = found.groups()
        if operator is not None:
            words.append(";" if operator == "\n" else operator)
        elif double is not None or single is not None:
            words.append(double if double is not None else single)
        elif bare is not None:
            words.append(bare)
    return words


def segments(command: str | None) -> list[list[str]]:
    """A command's simple commands, each a list of words, without redirections.

    `cd X &&` and output filters after a pipe (`| tail -20`, `| grep x`) are left
    out: they say where and how much, not what.
    """
    found: list[list[str]] = []
    current: list[str] = []
    after_pipe = False
    for word in [*_words(command or ""), ";"]:
        if word in _SEPARATORS or set(word) <= set("|&;"):
            if current and not (after_pipe and _program(current)[0] in _OUTPUT_FILTERS):
                if _program(current)[0] != "cd":
                    found.append(current)
            after_pipe = word == "|"
            current = []
        elif not _REDIRECT.match(word):
            current.append(word)
    return found


def _program(words: Sequence[str]) -> tuple[str, list[str]]:
    """The program a simple command runs (by its name, not its path) and its arguments."""
    i = 0
    while i < len(words):
        word = words[i]
        name = PurePosixPath(word).name if "/" in word else word
        if name in _SHELL_KEYWORDS:
            i += 1  # `do sips ...` runs sips; `done`, `fi` alone run nothing
        elif _ASSIGNMENT.match(word):
            # `base="${f%.*}"`: the quoted value is a word of its own
            i += 2 if word.endswith("=") else 1
        elif name in WRAPPERS:
            i += 1
            # the wrapper's own options and a number (timeout 30, nice -n 5)
            while i < len(words) and (words[i].startswith("-") or words[i].isdigit()):
                i += 1
        elif name in RUNNERS and i + 1 < len(words) and words[i + 1] == RUNNERS[name]:
            i += 2
        elif re.fullmatch(r"python[0-9.]*", name) and words[i + 1 : i + 2] == ["-m"]:
            i += 2
        else:
            return ALIASES.get(name, name), list(words[i + 1 :])
    return "", []


@dataclass(frozen=True)
class Intent:
    """What one simple command does: its program, subcommand and other arguments."""

    program: str
    sub: str | None
    args: frozenset[str]
    flags: frozenset[str]
    words: tuple[str, ...] = ()


@functools.lru_cache(maxsize=4096)
def intents(command: str | None) -> tuple[Intent, ...]:
    """The intent of each simple command of a shell command (cached: retries repeat it)."""
    return tuple(_intents(command))


def _intents(command: str | None) -> list[Intent]:
    found: list[Intent] = []
    for words in segments(command):
        program, args = _program(words)
        if not program:
            continue
        if program in SHELLS and "-c" in args[:-1]:
            # bash -c '...': what the script does
            found += _intents(args[args.index("-c") + 1])
            continue
        positional = [a for a in args if not a.startswith("-")]
        sub = None
        if (
            positional
            and re.fullmatch(r"[a-z][a-z0-9:_-]*", positional[0])
            and (
                program in LOOK_SUBCOMMANDS
                or program in CHECK_SUBCOMMANDS
                or program in RUNNERS
                or program in {"npm", "yarn", "pnpm", "bun", "make", "kubectl", "docker", "gh"}
                or len(positional) > 1
            )
        ):
            sub = positional.pop(0)
            if program in {"npm", "yarn", "pnpm", "bun"} and sub in {"run", "run-script"}:
                sub = positional.pop(0) if positional else sub
        found.append(
            Intent(
                program=program,
                sub=sub,
                args=frozenset(_arg_key(a) for a in positional if not _is_message(a)),
                flags=frozenset(a for a in args if a.startswith("-")),
                words=tuple(w for w in words if not _is_message(w)),
            )
        )
    return found


def _arg_key(arg: str) -> str:
    """An argument as retries compare it: a path by its file name."""
    arg = _unix(arg)
    return PurePosixPath(arg.rstrip("/")).name if "/" in arg else arg


def _same_intent(one: Intent, other: Intent) -> bool:
    if one.program != other.program:
        return _respelt(one, other)
    if one.sub != other.sub:
        return False
    if not one.args or not other.args:
        # `git push` and `git push origin main`; `ls` alone matches nothing
        return one.program not in LOOK or one.args == other.args
    return bool(one.args & other.args)


def _respelt(one: Intent, other: Intent) -> bool:
    """Whether two commands are one run again with its program's name one letter apart
    and every other word the same: a name mistyped (`pyhton3 x.py`, not found, then
    `python3 x.py`; `gti status`) or another version of the program (`python`, `python3`;
    `pip`, `pip3`). Names of two letters are left out: `rm x` is not `rg x`."""
    a, b = _spelt(one), _spelt(other)
    if a == b or min(len(a), len(b)) < 3 or one.flags != other.flags:
        return False
    if {one.sub, *one.args} - {None} != {other.sub, *other.args} - {None}:
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


def _spelt(intent: Intent) -> str:
    """The program's name as the command spelt it (`python3`, which ALIASES makes `python`)."""
    for word in intent.words:
        name = PurePosixPath(word).name
        if ALIASES.get(name, name) == intent.program:
            return name
    return intent.program


def _shared_intent(failed: str | None, other: str | None) -> tuple[Intent, Intent] | None:
    """The simple commands by which two shell commands try the same thing, if they do.

    See the module docstring. When the failed command does more than look, its looks
    (`ls x; cat y`) do not count.
    """
    theirs = intents(other)
    mine = [i for i in intents(failed) if i.program not in LOOK] or intents(failed)
    return next(((a, b) for a in mine for b in theirs if _same_intent(a, b)), None)


def command_change(failed: str | None, retry: str | None) -> str | None:
    """How a retry changed the failed command: the words taken out and put in.

    Only the simple command they share counts (`-npx +./node_modules/.bin/prisma`);
    None when it is the same command.
    """
    pair = _shared_intent(failed, retry)
    if pair is None:
        return None
    # commands the retry runs besides, before it (`mkdir -p dist && npm run build`) or after
    # it (`git add x && git commit -m ...`)
    before = {" ".join(i.words) for i in intents(failed)}
    ran = intents(retry)
    at = next((n for n, i in enumerate(ran) if i is pair[1]), len(ran))
    added = [
        (n < at, " ".join(i.words))
        for n, i in enumerate(ran)
        if " ".join(i.words) not in before and n != at and i.program not in LOOK
    ]
    old, new = pair[0].words, pair[1].words
    taken = [w for w in old if w not in new]
    put = [w for w in new if w not in old]
    words = [*(f"-{w}" for w in taken), *(f"+{w}" for w in put)]
    first = [text for earlier, text in added if earlier]
    then = [text for earlier, text in added if not earlier]
    parts = [f"first {'; '.join(first)}"] if first else []
    if words:
        parts.append(" ".join(words[:CHANGE_WORDS]) + (" …" if len(words) > CHANGE_WORDS else ""))
    elif old != new and not added:
        parts.append("the same words in another order")
    if then:
        parts.append(f"then {'; '.join(then)}")
    change = "; ".join(parts)
    if len(change) > CHANGE_CHARS:
        # at a word: a cut inside one leaves half a path or a lone `-`
        change = change[: change.rfind(" ", 0, CHANGE_CHARS - 1)].rstrip(" ;") + " …"
    return change or None


# -- what a call does ----------------------------------------------------------


def _changes_state(call: Call) -> bool:
    """Whether a successful call may have changed what the failed one met."""
    if call.name in EDIT_TOOLS:
        return True
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    for intent in intents(call.command):
        if intent.program in _WRITERS and _WRITES_TEXT.search(_HEREDOC.sub(" ", call.command)):
            return True  # `cat > x <<EOF`, `echo x >> .gitignore`: the text given, written
        if intent.program in LOOK or _prints(intent, call.command):
            continue
        first = intent.sub or next((w for w in intent.words[1:] if not w.startswith("-")), None)
        if first and first in LOOK_SUBCOMMANDS.get(intent.program, LOOK_ANY):
            continue
        if any(_CHECK_FLAG.match(flag) for flag in intent.flags) or intent.flags & {
            "--help",
            "--version",
        }:
            continue
        if intent.flags & FIX_FLAGS or (intent.sub and FIXING_SCRIPTS.match(intent.sub)):
            return True
        if intent.program in CHECK:
            continue
        if intent.program in CHECK_SUBCOMMANDS and (
            intent.sub in CHECK_SUBCOMMANDS[intent.program]
            or (intent.program in {"npm", "yarn", "pnpm"} and intent.sub)
            # a python run checks, but for code that writes a file (`python3 - <<EOF ...
            # Path(p).write_bytes(...)`, how Codex converts or edits files: 2 people's
            # rollouts of the third held-out set, a write-guard's way round in the second)
            or (intent.program == "python" and not _WRITES_FILE.search(call.command))
        ):
            continue
        if intent.program.startswith("python") and not intent.sub:
            # python script.py: it may do anything; `python -c` prints
            if "-c" in intent.flags:
                continue
        return True
    return False


# Programs that print the text they are given: with their output sent to a file, they
# write it (a file written by `cat > x <<'EOF'` in the Codex rollouts of the third held-out
# set, and a write-guard's way round in the second).
_WRITERS = frozenset({"cat", "echo", "printf", "tee"})
# Their standard output sent to a file in their own simple command (not `2>`, not
# `/dev/null`), or a tee's file.
_WRITES_TEXT = re.compile(
    r"(?:^|[|;&\n(]\s*)(?:cat|echo|printf)\b[^|;&\n]*?(?<![\d&>])>>?\s*['\"]?(?!/dev/|&)[^\s|&;'\"<>]"
    r"|\|\s*tee\b(?:\s+-a)?\s+['\"]?(?!/dev/|-)[^\s|&;'\"<>]"
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


_WINDOWS_PATH = re.compile(r"^(?:[A-Za-z]:)?\\|^[A-Za-z]:/|^[^/]*\\")


def _unix(path: str) -> str:
    """A Windows path (`C:\\Users\\me\\a.ts`, Gemini CLI's and Copilot CLI's on Windows) with
    forward slashes, so that its folder and file name are found as a POSIX path's are."""
    return path.replace("\\", "/") if "\\" in path and _WINDOWS_PATH.match(path) else path


@functools.lru_cache(maxsize=4096)
def _parent(path: str) -> str:
    return str(PurePosixPath(_unix(path)).parent)


_WRITES_TO = re.compile(r"(?:>>?|\btee(?:\s+-a)?)\s*['\"]?([^\s|&;'\"]+)")


def _files_of(call: Call, written: bool = False) -> set[str]:
    """The file names a call works on: its file, and the paths in its command.

    `written`: only those a shell command writes to (`> x`, `tee x`).
    """
    names = {_basename(call.file_path)} if call.file_path and not written else set()
    if call.command:
        names |= {_basename(path) for path in _WRITES_TO.findall(call.command)}
        for intent in [] if written else intents(call.command):
            names |= {a for a in intent.args if "." in a.strip(".")}
    if call.pattern:
        names.add(_basename(call.pattern.replace("**/", "")))
    return {n for n in names if len(n) >= 3 and "*" not in n}


_MISSING_PROGRAM = re.compile(
    r"command not found|not found: \w|No such file or directory \(os error 2\)"
)


def _is_path(word: str) -> bool:
    return not word.startswith("-") and ("/" in word or "." in word.strip("."))


def _another_way(failed: Call, call: Call, error: str = "") -> bool:
    """Whether a successful call of another tool (or file) reached the failed call's goal."""
    folder = _unix(failed.file_path or "").rstrip("/") + "/"
    if failed.name in FILE_TOOLS and call.name in FILE_TOOLS:
        if failed.file_path and call.file_path:
            if call.name in READ_TOOLS and _unix(call.file_path).startswith(folder):
                return True  # a folder read as a file (EISDIR), then a file in it
            if call.file_path == failed.file_path:
                # an Edit that did not apply, then a Write; not a Read, then a Write (that
                # creates what was to be read: the Read that follows confirms it)
                return call.name != failed.name and (
                    (call.name in EDIT_TOOLS) == (failed.name in EDIT_TOOLS)
                )
            # the same file name in another folder: what was meant, unless the file at
            # the failed path was the right one (too large, binary, not read yet)
            return (
                _basename(call.file_path) == _basename(failed.file_path)
                and call.name == failed.name
                and not _file_was_there(failed, error)
            )
        return False
    if failed.name in SHELL_TOOLS and call.name in SHELL_TOOLS:
        if _shared_intent(failed.command, call.command) is not None:
            return True
        if _MISSING_PROGRAM.search(error):
            # `tree x` not found, then `find x`: another program on the same paths
            mine = intents(failed.command)
            paths = {w for i in mine for w in i.words[1:] if _is_path(w)}
            looks = all(i.program in LOOK for i in mine)  # a look may be redone by a look
            return any(
                paths & {w for w in i.words[1:] if _is_path(w)} and (looks or i.program not in LOOK)
                for i in intents(call.command)
            )
        return False
    if failed.name in SHELL_TOOLS and call.name in FILE_TOOLS:
        # `cat x` failed, then Read x: the same file, looked at another way
        look = [i for i in intents(failed.command) if i.program in {"cat", "head", "tail", "less"}]
        return bool(look) and _basename(call.file_path) in _files_of(failed)
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
        if _NOT_A_FILE.search(error):
            viewers |= {"ls", "find", "tree"}
        path = (failed.file_path or "").rstrip("/")
        if path and failed.name in READ_TOOLS and _file_was_there(failed, error):
            # a file the Read tool could not read (binary, too large) opened by a script
            # (`python3 -c "...load_workbook('/p/book.xlsx')"`): its path is in the code
            if path in (call.command or "") and any(
                i.program not in LOOK and i.flags & INLINE_CODE for i in intents(call.command)
            ):
                return True
        return bool(path) and any(
            i.program in viewers
            and (_basename(path) in i.args or any(a.rstrip("/").endswith(path) for a in i.words))
            for i in intents(call.command)
        )
    if failed.name in SEARCH_TOOLS and call.name in SHELL_TOOLS:
        # Glob or Grep could not run (Claude Code's bundled ripgrep: `spawn .../rg
        # EACCES`), then the same search by find or grep: a word of its pattern searched for
        words = set(_PATTERN_WORD.findall(failed.pattern or ""))
        return bool(words) and any(
            (i.program in SEARCHERS or (i.program, i.sub) == ("git", "grep"))
            and words & set(_PATTERN_WORD.findall(" ".join(i.words[1:])))
            for i in intents(call.command)
        )
    if failed.name in READ_TOOLS and call.name in SEARCH_TOOLS:
        # a file too large to read whole, searched instead (as Claude Code's message advises)
        return bool(failed.file_path) and call.file_path == failed.file_path
    if call.name == failed.name and not (failed.command or failed.file_path):
        # a tool with no file or command (Task, Skill, ExitPlanMode, MCP tools): the same
        # tool called again; a page fetched, by a fetch of the same site (a 404 of
        # github.com/me/dotfiles is not worked around by the Home Manager manual)
        return _host(failed.url) == _host(call.url)
    return False


# Code that writes a file: python's write_text or open(..., "w"), node's writeFileSync.
_WRITES_FILE = re.compile(
    r"\.write_(?:text|bytes)\(|\bopen\([^)\n]*,\s*['\"][wax]|\b(?:writeFile|appendFile)(?:Sync)?\("
)


def _script_writes(call: Call, path: str | None) -> bool:
    """Whether a shell command runs code that writes the file at `path`: the code writes a
    file and names this one by its folder and name (a script may name it whole or from its
    project's root, an edit tool the other way round).

    An edit the tool could not make (Codex's apply_patch failing on every file of a
    repository, `Io(Os { code: 2, kind: NotFound })`; an Edit a write-guard hook blocked)
    is then made by `python3 - <<EOF` or `node -e` (held out, session 9: 4 edits of 2
    people), where no `> file` says what is written."""
    if not path or not call.command or not _WRITES_FILE.search(call.command):
        return False
    tail = "/".join(PurePosixPath(_unix(path)).parts[-2:])
    return bool(tail) and tail in _unix(call.command)


def _host(url: str | None) -> str | None:
    return urllib.parse.urlsplit(url).hostname if url else None


_MISSING_FILE = re.compile(r"does not exist|No such file or directory|ENOENT", re.IGNORECASE)
# A file found where the call looked, and the call failed on what it is: too large to read
# whole, binary, not read yet (and kinds not_read, string_not_found).
_FOUND_THERE = re.compile(r"exceeds maximum allowed|too large|cannot read binary", re.IGNORECASE)
# The flags that give an interpreter its code inline (python -c, node -e, ruby -e).
INLINE_CODE = frozenset({"-c", "-e", "--eval"})
# The programs that search files and their contents, for a search tool's failure.
SEARCHERS = frozenset("grep egrep fgrep rg ag ack find fd".split())
# A word of a search pattern (`**/*aisuite*`, `disruptiveMerge|mergeAll`).
_PATTERN_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{2,}")
# All a search that found nothing prints: its exit status (Claude Code 1.0: `Error`).
_NOTHING_BUT_STATUS = re.compile(r"^\s*(?:Exit code \d+|Error)?\s*$")


def _found_nothing(failed: Call, error: str) -> bool:
    """Whether a failed shell call was a search that found nothing (`rg x lib` exits 1):
    every command of it looks, one searches, and it printed no more than its status."""
    if failed.name not in SHELL_TOOLS or not _NOTHING_BUT_STATUS.match(error):
        return False
    mine = intents(failed.command)
    return (
        bool(mine)
        and all(i.program in LOOK for i in mine)
        and any(i.program in SEARCHERS for i in mine)
    )


def _same_search(failed: Call, call: Call) -> bool:
    """Whether a shell call runs one of the failed call's searches again, as it was: after
    a search that found nothing, another pattern is another question, not its fix (`rg
    'defmodule .*CreateCustomer' lib -g '*.ex'`, then `rg create_customer lib -g '*.ex'`)."""
    if call.name not in SHELL_TOOLS:
        return False
    # by its words, a pattern with spaces too (an intent leaves those out as a message)
    searches = {tuple(w) for w in segments(failed.command) if _program(w)[0] in SEARCHERS}
    return any(tuple(w) in searches for w in segments(call.command))


def _file_was_there(failed: Call, error: str) -> bool:
    return failed.kind in {"not_read", "string_not_found"} or bool(_FOUND_THERE.search(error))


# A folder used as a file, or the other way round.
_NOT_A_FILE = re.compile(
    r"EISDIR|is a directory|Not a directory|ENOTDIR|illegal operation on a directory",
    re.IGNORECASE,
)


def _records(call: Call, failed: Call) -> bool:
    """Whether a shell call only records the work (see RECORDS), for another program's
    failure than its own."""
    if call.name not in SHELL_TOOLS or not call.command:
        return False
    done = [i for i in intents(call.command) if i.program not in LOOK]
    failed_programs = {i.program for i in intents(failed.command)} if failed.command else set()
    return bool(done) and all(
        i.program in RECORDS
        and i.program not in failed_programs
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
    return bool(tail) and tail in _unix(where)


# Tools that are one for a retry: Codex's write_stdin polls a command exec_command left
# running, and says how it ended (its call holds that command).
_SAME_TOOL = {"write_stdin": "exec_command"}


def _retry(failed: Call, call: Call) -> bool:
    """Whether a successful call is a retry of the failed one: the same thing, maybe changed."""
    if _SAME_TOOL.get(call.name, call.name) != _SAME_TOOL.get(failed.name, failed.name):
        return False
    if failed.command is not None or call.command is not None:
        return _shared_intent(failed.command, call.command) is not None
    if failed.file_path is not None:
        return call.file_path == failed.file_path
    # a tool without a file or command, called again with the same input (an MCP call the
    # user stopped, then `continue`)
    return failed.input is not None and call.input == failed.input


def _masks(failed: Call, call: Call) -> bool:
    """Whether a call hides failures that the failed call let through."""
    return bool(MASKS.search(call.command or "")) and not MASKS.search(failed.command or "")


def _target(call: Call) -> str:
    return (call.command or call.file_path or call.pattern or "")[:300]


def _named(step: Call, error: str, failed: Call) -> bool:
    """Whether the error (or the failed call) names what a step works on."""
    text = f"{error}\n{failed.command or ''}"
    if step.file_path and _basename(step.file_path) and _basename(step.file_path) in text:
        return True
    if step.command:
        programs = {i.program for i in intents(step.command) if len(i.program) >= 2}
        words = set(_WORD.findall(error))
        if programs & words:
            return True
        # `Run 'mix format'`: the step's words together in the error
        flat = " ".join(" ".join(w) for w in segments(step.command))
        if len(flat) >= 4 and flat in error:
            return True
    return False


# -- the rule ------------------------------------------------------------------


def fix_of(
    failed: Call,
    after: Sequence[Call],
    error: str,
    output: Callable[[str], str],
    key_line: str = "",
    still_failing: Callable[[str], bool | None] | None = None,
) -> Fix:
    """What followed `failed` among `after`, the calls of its window (same agent, in order).

    `error` is the failure's text and `key_line` its key line; `still_failing(tool_use_id)`
    says of a later failed retry whether it still shows this error.
    `output(tool_use_id)` gives a later call's output, read only for the few calls that
    might confirm a fix.

    When retries failed again before one succeeded, the remedy is what came between the
    last failure with this error and the first retry without it: a test suite that fails
    four times on four errors had four remedies.
    """
    window_end = after[-1].timestamp if after else failed.timestamp
    masked = None
    retried: list[tuple[int, bool]] = []  # the failed retries: where, and with this error?
    # A file that does not exist: a search of its folder, then a Read there, found the
    # file meant (conn_case.ex guessed, data_case.ex found).
    folder = _parent(failed.file_path) if failed.file_path else ""
    missing = failed.name in READ_TOOLS and bool(_MISSING_FILE.search(error)) and folder != "."
    searched = False
    nothing_found = _found_nothing(failed, error)
    for n, call in enumerate(after):
        if missing and not call.failed and _searches(call, folder):
            searched = True
        if nothing_found and not _same_search(failed, call):
            continue
        if call.failed:
            if still_failing is not None and _retry(failed, call):
                same = still_failing(call.tool_use_id)  # None: a call without a result
                if same is not None:
                    retried.append((n, same))
            continue
        if call.running:
            continue  # a command whose end no poll saw: it may have failed
        way = None
        if _retry(failed, call):
            way = FIXED
        elif n < ANOTHER_WAY_CALLS and _another_way(failed, call, error):
            way = WORKED_AROUND
        elif searched and call.name in READ_TOOLS and call.file_path:
            if _parent(call.file_path) == folder:
                way = WORKED_AROUND
        if way is None:
            continue
        if _masks(failed, call):
            masked = masked or call
            continue
        if key_line and len(key_line) >= 12 and key_line in output(call.tool_use_id):
            continue  # it "succeeded" with the same error: an exit code lost in a pipe
        # The remedy came after the last retry that still failed with this error, and
        # before the first one after it that failed with another error.
        start = max((i + 1 for i, same in retried if same), default=0)
        stop = next((i for i, same in retried if i >= start and not same), None)
        return _confirmed(failed, after[:n], call, way, error, window_end, start, stop)
    # Without a fix, what was done right after is what the card can show: the first
    # NEARBY_CALLS calls, not the whole window.
    nearby = after[:NEARBY_CALLS]
    window_end = nearby[-1].timestamp if nearby else failed.timestamp
    if masked is not None:
        return Fix(failed.tool_use_id, PAPERED_OVER, window_end=window_end)
    return Fix(
        failed.tool_use_id, NOT_FIXED, window_end=window_end, others=[c.tool_use_id for c in nearby]
    )


def _confirmed(
    failed: Call,
    between: Sequence[Call],
    confirm: Call,
    way: str,
    error: str,
    window_end: str,
    start: int = 0,
    stop: int | None = None,
) -> Fix:
    steps: list[tuple[bool, int, Step]] = []
    others = []
    not_read = failed.kind == "not_read" or "has not been read" in error
    # An edit whose text to replace was not in the file: it was read again for the text
    # that is there, and the edit that then applied is the fix (both are steps).
    stale = failed.kind == "string_not_found" and failed.name in EDIT_TOOLS
    # A search counts as a step of another way only when the failure lost track of a path:
    # the one that found it (a search that reads a config to understand an error does not).
    lost = bool(_MISSING_FILE.search(error) or _NOT_A_FILE.search(error))
    for n, call in enumerate(between):
        step = None
        if not start <= n < (len(between) if stop is None else stop):
            continue  # before the error's last sighting, or after it was gone
        if (
            (not_read or stale)
            and failed.file_path
            and (
                (call.name in EDIT_TOOLS and call.file_path != failed.file_path)
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
        elif not call.failed and _changes_state(call) and not _records(call, failed):
            step = Step(call.tool_use_id, call.name, _target(call))
        elif not call.failed and (not_read or stale) and call.name in READ_TOOLS:
            if call.file_path == failed.file_path:
                step = Step(call.tool_use_id, call.name, _target(call))
        elif (
            not call.failed
            and way == WORKED_AROUND
            and lost
            and call.name in SEARCH_TOOLS | SHELL_TOOLS
            and (
                any(
                    name and name in (call.pattern or call.command or call.file_path or "")
                    for name in (_basename(confirm.file_path), failed.file_path)
                )
                or (
                    failed.file_path is not None
                    and (
                        _searches(call, _parent(failed.file_path))
                        # a folder read as a file (EISDIR): the search of that folder
                        or _searches(call, failed.file_path)
                    )
                )
            )
        ):
            step = Step(call.tool_use_id, call.name, _target(call))
        if step is None:
            others.append(call.tool_use_id)
        else:
            steps.append((_named(call, error, failed), n, step))
    change = None
    if confirm.name in SHELL_TOOLS and failed.name in SHELL_TOOLS:
        change = command_change(failed.command, confirm.command)
        moved = folder_change(failed, confirm)
        if moved:
            change = f"{moved}; {change}" if change else moved
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
    if not (failed.command or failed.file_path) and not steps and confirm.input != failed.input:
        # (the same input again, after the user stopped it and said `continue`: no change)
        change = "called again with other input"
    if stale and change is None and confirm.name in EDIT_TOOLS:
        change = "with the text the file has"
    if (
        change
        or way == WORKED_AROUND
        or (failed.name not in EDIT_TOOLS and confirm.name in EDIT_TOOLS)
    ):
        step = Step(confirm.tool_use_id, confirm.name, _target(confirm), change)
        steps.append((_named(confirm, error, failed), len(between), step))
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
        if word == "cd" and (i == 0 or words[i - 1] in _SEPARATORS)
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
    by a later check); a poll of one still running is no call of its own.
    """
    found = list(calls)
    running: dict[str, int] = {}  # a command still running: its exec_command's index
    for n, call in enumerate(found):
        if call.name == "exec_command" and call.command:
            if call.running:
                running[call.command] = n
            else:
                running.pop(call.command, None)
        elif call.name == "write_stdin" and not call.running and call.command in running:
            at = running.pop(call.command or "")
            found[at] = msgspec.structs.replace(found[at], failed=call.failed, running=False)
            if not call.failed:
                found[n] = msgspec.structs.replace(call, failed=True)
    return [
        msgspec.structs.replace(c, failed=True) if c.running and c.name == "write_stdin" else c
        for c in found
    ]


def session_fixes(
    calls: Sequence[Call],
    prompts: Iterable[str],
    errors: dict[str, str],
    output: Callable[[str], str],
    key_line: Callable[[str], str] = lambda text: "",
    signature: Callable[[str], str] | None = None,
) -> Iterator[Fix]:
    """The fix of every failed call of one session.

    `calls` in order, `prompts` the timestamps of the prompts the user typed, `errors`
    the failures' texts by tool_use_id; `key_line` finds an error's key line and
    `signature` tells whether two failures are the same error (signatures.py).
    """
    same = signature or key_line
    sig = functools.lru_cache(maxsize=None)(lambda tool_use_id: same(errors[tool_use_id]))
    key = functools.lru_cache(maxsize=None)(lambda tool_use_id: key_line(errors[tool_use_id]))

    def persists(failed: str, later: str) -> bool:
        """Whether a later failure still shows this one's error (its output can hold several).

        The later output's lines are compared by signature only where they hold the
        key line's longest word, so that a long test log costs a few signatures.
        """
        if sig(later) == sig(failed):
            return True
        line = key(failed)
        if len(line) >= 12 and line in errors[later]:
            return True
        word = max(_WORD.findall(line), key=len, default="")
        if len(word) < 4 or not sig(failed):
            return False
        lines = errors[later].splitlines()[:PERSIST_LINES]
        return any(same(other) == sig(failed) for other in lines if word in other)

    prompt_times = sorted(prompts)
    by_agent: dict[tuple[str | None, bool], list[Call]] = {}
    for call in settled(calls):
        by_agent.setdefault((call.agent_id, call.sidechain), []).append(call)
    for own in by_agent.values():
        for i, call in enumerate(own):
            if call.tool_use_id not in errors:
                continue
            # The window ends at the second prompt after the failure (subagents are not
            # prompted): a user's "continue" or "try again" often comes in between.
            end = next(
                iter([t for t in prompt_times if t > call.timestamp][PROMPTS_CROSSED:]), None
            )
            after = [
                c
                for c in own[i + 1 : i + 1 + WINDOW_CALLS]
                if call.sidechain or end is None or c.timestamp < end
            ]
            text = errors.get(call.tool_use_id, "")

            def still_failing(later: str, failed: str = call.tool_use_id) -> bool | None:
                return persists(failed, later) if later in errors else None

            fix = fix_of(call, after, text, output, key(call.tool_use_id), still_failing)
            if end and not call.sidechain and not after:
                fix.window_end = end
            yield fix
