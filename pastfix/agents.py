"""Every agent pastfix reads, in one place: what it is called, where it keeps its
sessions, which reader reads them, how a session is resumed, what its tools do.

Adding an agent is one reader module (see pastfix.records.Reader; pastfix.lines
has what readers share) and one `Agent` entry in AGENTS below. The build, the
SQL (the `resume_command` and `agent_label` functions of
pastfix.queries.register_functions), the templates, the CLI, the hook and the
MCP server ask this module instead of naming agents. It holds only data, and
imports a reader only when one is asked for: the hook and the queries need the
labels and tool roles, not the readers.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

from pastfix.patterns import lazy
from pastfix.records import Batch, PersistedOutput, Reader, SourceFile, plain_id

# What a tool does, as pastfix.fixes reads a session: changes a file (edit), reads
# one (read), looks for files or text (search), runs a command (shell), searches the
# web (web search), or keeps the agent's own plan or todo list (plan: no step of a fix,
# nor a call a card lists before one), or reads or stops a command another call left
# running, or finds a tool (watch: no step taken next, pastfix.fixes.next_steps).
EDIT, READ, SEARCH, SHELL, WEB_SEARCH = "edit", "read", "search", "shell", "web search"
PLAN, WATCH = "plan", "watch"


class Agent(NamedTuple):
    name: str  # sessions.agent, source_files.agent, --agent
    label: str  # what people call it
    module: str  # its reader (pastfix.records.Reader), imported when asked for
    resume: str | None  # the command that reopens a session: {} is its id
    tools: Mapping[str, str]  # tool name -> EDIT, READ, SEARCH, SHELL, WEB_SEARCH or PLAN
    # The module that answers the agent's hook event after a tool call, for
    # `pastfix hook --agent NAME` (see pastfix.hook): its `hook_failure(event)` gives
    # {"error": text, "session_id": id} when the event is a failed call, else None;
    # its `hook_output(context, event)` the text to print for the agent to read.
    # None: the agent has no such hook (Claude Code's and Codex's events are told
    # apart by pastfix.hook itself, for the hooks installed before --agent).
    hook: str | None = None
    # A pattern the session id must match in full for `resume` to apply (None: every
    # id): an agent can store sessions of its own that its resume command cannot open.
    resumable: str | None = None
    # Whether `resume` takes the name of the session's transcript file (`<id>.jsonl`) rather
    # than the session id of its lines: Claude Code 1.0.x wrote a resumed session's lines,
    # under their new sessionId, into the file it resumed (a 1.0.21 file of the fifth
    # held-out set holds six sessions), and `claude --resume` opens a file by its name.
    resume_by_file: bool = False
    # The agent's hook events that pastfix hook install writes into its settings: the one
    # after a call that failed (after every call, for an agent without one) and the one at
    # a session's end (hook_events). None: its hook is a plugin of pastfix's.
    events: tuple[str, str] | None = None

    @property
    def reader(self) -> Reader:
        reader: Reader = importlib.import_module(self.module)
        return reader


CLAUDE = "claude"
# The prompt Claude Code opens a new session with when the user approves a plan with
# "clear context" (the plan follows it), and the tool whose call it then records as
# rejected (pastfix.fixes.approved_plan).
PLAN_PROMPT = "Implement the following plan:"
APPROVAL_TOOLS = frozenset({"ExitPlanMode"})
AGENTS: dict[str, Agent] = {
    agent.name: agent
    for agent in (
        Agent(
            CLAUDE,
            "Claude Code",
            "pastfix.transcripts",
            "claude --resume {}",
            {
                "Edit": EDIT,
                "MultiEdit": EDIT,
                "Write": EDIT,
                "NotebookEdit": EDIT,
                "Read": READ,
                "NotebookRead": READ,
                "Glob": SEARCH,
                "Grep": SEARCH,
                "LS": SEARCH,
                "Bash": SHELL,
                # Claude Code's shell tool on Windows
                "PowerShell": SHELL,
                "WebSearch": WEB_SEARCH,
                "TodoWrite": PLAN,
                # its task list, 2.1.x (not Task, a subagent, nor TaskOutput and TaskStop,
                # which read and stop a background command)
                "TaskCreate": PLAN,
                "TaskUpdate": PLAN,
                "TaskList": PLAN,
                "TaskGet": PLAN,
                "EnterPlanMode": PLAN,
                "ExitPlanMode": PLAN,
                "BashOutput": WATCH,
                "KillShell": WATCH,
                "KillBash": WATCH,
                "TaskOutput": WATCH,
                "TaskStop": WATCH,
                "ToolSearch": WATCH,
            },
            resume_by_file=True,
            events=("PostToolUseFailure", "SessionEnd"),
        ),
        Agent(
            "codex",
            "Codex",
            "pastfix.codex",
            "codex resume {}",
            {
                "apply_patch": EDIT,
                "shell": SHELL,
                "exec_command": SHELL,
                "local_shell": SHELL,
                "shell_command": SHELL,
                "container.exec": SHELL,
                # polls a command exec_command left running, and holds its command
                "write_stdin": SHELL,
                # waits on a code-mode cell left running, and holds its command
                "wait": SHELL,
                # reads an image file: a missing one is found and read as a Read's is
                "view_image": READ,
                # the API's own search (web_search_call), a call of pastfix's naming
                "web_search": WEB_SEARCH,
                "update_plan": PLAN,
            },
            events=("PostToolUse", "SessionEnd"),
        ),
        Agent(
            "copilot",
            "GitHub Copilot CLI",
            "pastfix.copilot",
            # `copilot --resume [sessionId]` (npm @github/copilot 0.0.340 to 1.0.60)
            "copilot --resume {}",
            {
                "bash": SHELL,
                "powershell": SHELL,
                "str_replace_editor": EDIT,
                "edit": EDIT,
                "create": EDIT,
                "apply_patch": EDIT,
                # and str_replace_editor's view command (pastfix.copilot)
                "view": READ,
                "glob": SEARCH,
                "grep": SEARCH,
                # what it says it is doing, for its status line
                "report_intent": PLAN,
                # an async shell's output read, or the shell stopped; a subagent's read
                "read_powershell": WATCH,
                "stop_powershell": WATCH,
                "list_powershell": WATCH,
                "read_bash": WATCH,
                "stop_bash": WATCH,
                "list_bash": WATCH,
                "read_agent": WATCH,
            },
            hook="pastfix.copilot",
            events=("postToolUseFailure", "sessionEnd"),
        ),
        Agent(
            "gemini",
            "Gemini CLI",
            "pastfix.gemini",
            # docs/cli/session-management.md: `gemini --resume <session UUID>`, from the
            # project's folder (sessions are kept per project). A `/chat save` checkpoint
            # is a session of pastfix's naming, resumed with /chat resume <tag> instead.
            "gemini --resume {}",
            {
                "replace": EDIT,
                "write_file": EDIT,
                "read_file": READ,
                "glob": SEARCH,
                "grep_search": SEARCH,
                "search_file_content": SEARCH,
                "list_directory": SEARCH,
                "run_shell_command": SHELL,
                "google_web_search": WEB_SEARCH,
                "write_todos": PLAN,
            },
            hook="pastfix.gemini",
            events=("AfterTool", "SessionEnd"),
            resumable=r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        ),
        Agent(
            "opencode",
            "opencode",
            "pastfix.opencode",
            # `-s/--session <id>`: "session ID to continue" (opencode.ai/docs/cli)
            "opencode --session {}",
            {
                "edit": EDIT,
                "multiedit": EDIT,
                "write": EDIT,
                "patch": EDIT,
                "apply_patch": EDIT,
                "read": READ,
                "glob": SEARCH,
                "grep": SEARCH,
                "list": SEARCH,
                "bash": SHELL,
                "websearch": WEB_SEARCH,
                "todowrite": PLAN,
                "todoread": PLAN,
            },
            # pastfix's plugin sends a bash call that exited non-zero (pastfix.opencode)
            hook="pastfix.opencode",
        ),
    )
}
NAMES = tuple(AGENTS)


def hook_events(agent: str) -> tuple[str, str]:
    """The hook events of `agent` (Agent.events): after a failed call, and at a session's end."""
    events = AGENTS[agent].events
    if events is None:
        raise KeyError(f"{agent} has no hook events: its hook is a plugin")
    return events


def label(agent: str | None) -> str:
    """What people call `agent` (its name, for one pastfix does not know)."""
    known = AGENTS.get(agent or CLAUDE)
    return known.label if known else str(agent)


def badge(agent: str | None) -> str:
    """The label a card shows beside a failure: none for Claude Code's, which most
    indexes hold alone, the agent's label for the others'."""
    return "" if (agent or CLAUDE) == CLAUDE else label(agent)


def resume_command(
    agent: str | None, session_id: str, source_paths: str | None = None
) -> str | None:
    """The command that reopens a session of `agent`, None when it has none.

    `source_paths`: the session's files (sessions.source_paths, a JSON list), for an agent
    that resumes a session by its file's name (Agent.resume_by_file). A transcript names
    its own session, so only an id that is a plain word gets a command: one named `x;
    curl ... | sh` was a command to copy and run (a security test, session 29), and one
    named `--settings={"hooks": ...}` an option of the agent, quoted or not (session 30:
    `claude --resume --dangerously-skip-permissions`). The agents' ids are UUIDs, or
    words such as opencode's `ses_...`."""
    known = AGENTS.get(agent or CLAUDE)
    if not known or not known.resume:
        return None
    if known.resume_by_file and source_paths:
        session_id = _file_session(session_id, json.loads(source_paths))
    if not plain_id(session_id):
        return None
    if known.resumable and not re.fullmatch(known.resumable, session_id):
        return None
    return known.resume.format(shlex.quote(session_id))


# A session's own transcript file, named by its id (a subagent's `agent-*.jsonl` is not).
_SESSION_FILE = lazy(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl")


def _file_session(session_id: str, paths: object) -> str:
    """The session id a session's transcript file is named by: its own when one of its
    files is, else the one session file it is in."""
    # (a file's name is in its path as written: one without the pattern is not parsed)
    names = {
        Path(p).stem
        for p in (paths if isinstance(paths, list) else [])
        if isinstance(p, str) and _SESSION_FILE.search(p) and _SESSION_FILE.fullmatch(Path(p).name)
    }
    return names.pop() if session_id not in names and len(names) == 1 else session_id


def tools(role: str) -> frozenset[str]:
    """The names of every agent's tools of one role (EDIT, READ, SEARCH, SHELL, WEB_SEARCH,
    PLAN, WATCH)."""
    return frozenset(name for a in AGENTS.values() for name, r in a.tools.items() if r == role)


def reader(agent: str) -> Reader:
    return AGENTS[agent].reader


def project_of_dir(agent: str | None, project_dir: str) -> str | None:
    """The project a source file's folder names (SourceFile.project_dir), for a session
    none of whose records says (REFRESH_SESSIONS_SQL): the reader's `project_of_dir`,
    None for an agent whose folders do not name one."""
    known = AGENTS.get(agent or CLAUDE)
    read = getattr(known.reader, "project_of_dir", None) if known else None
    return read(project_dir) if read else None


# What a tool wraps around the words the user typed, in a prompt of any agent: spec-kit's
# slash commands (`## User Input` then the input in a ```text block, then `You **MUST**
# consider the user input ...` and the command's outline: 5 Codex sessions of 2 people in
# session 9's third and fourth held-out sets were titled with it). What one agent wraps
# (Codex's IDE extension, Claude Code's IDE note) its reader's `prompt_request` takes off.
_TYPED_IN = lazy(r"\s*## User Input\s*```[a-z]*\n(.*?)\n?```", re.DOTALL)
# The longest title a first prompt gives a session; a longer one is cut, with an ellipsis.
TITLE_CHARS = 200
# A letter or digit, in any script: a prompt without one (`.`, `?`, `...`, sent to wake the
# agent or by mistake) says nothing of the session, and titles it no more than an empty one
# (a session titled "." on every card of it: a new user's try, session 34).
_SAYS_SOMETHING = lazy(r"[^\W_]")


def prompt_title(agent: str | None, text: str | None) -> str | None:
    """A prompt as a session's title (db.FIRST_PROMPT_TITLE_SQL): what it asks, as the
    agent's reader says (its `prompt_request`), and of a spec-kit command what the user
    typed in it, at most TITLE_CHARS characters (a cut one ends in an ellipsis); None when
    they typed nothing in the boilerplate (a spec-kit command run without input), or
    nothing but punctuation (`.`), so that the next prompt titles the session."""
    if text is None:
        return None
    known = AGENTS.get(agent or CLAUDE)
    request = getattr(known.reader, "prompt_request", None) if known else None
    title: str = request(text) if request else text
    found = _TYPED_IN.match(title)
    if found:
        title = found.group(1).strip()
        if not title:
            return None
    if not _SAYS_SOMETHING.search(title):
        return None
    title = plain_title(title)
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip(" ") + "…"


def plain_title(text: str) -> str:
    """A title without markdown's emphasis, code ticks and heading marks, its words kept: a
    first prompt written in markdown titled a card `This prompt is designed for **Claude
    Code**...` (nu42 finding 11). Not a glob's `*` (`*.py`), nor a name's underscores
    (`__init__.py`, `snake_case`): `_` marks emphasis only around words with a space."""
    for mark in _EMPHASIS:
        text = mark.sub(r"\g<text>", text)
    return text


# Markdown's marks around text that a title drops, the text kept: strong and emphasis
# with `*` (not a glob's, which no closing mark follows a word's end), `~~`, inline code,
# `__`/`_` around words with a space between them, a heading's `#`s.
_EMPHASIS = (
    lazy(r"\*\*(?=\S)(?P<text>.+?)(?<=\S)\*\*"),
    lazy(r"(?<![\w*])\*(?=[^\s*])(?P<text>[^*\n]+?)(?<=[^\s*])\*(?![\w*])"),
    lazy(r"~~(?=\S)(?P<text>.+?)(?<=\S)~~"),
    lazy(r"(?P<tick>`+)(?P<text>[^`\n]+?)(?P=tick)"),
    lazy(r"(?<!\w)(?P<mark>__?)(?=[^\s_])(?P<text>[^_\n]*? [^_\n]*?)(?<=[^\s_])(?P=mark)(?!\w)"),
    lazy(r"(?m:^#{1,6}[ \t]+)(?P<text>)"),
)


def typed_title(agent: str | None, text: str | None) -> str | None:
    """prompt_title of what a person typed: a prompt, or a slash command that asks for work
    as a prompt does (its reader's `asks`: `/orchestrator create a TODO app`, not `/model
    sonnet`); None for another command (db.FIRST_PROMPT_TITLE_SQL)."""
    if text is not None and text.startswith("<command-"):
        known = AGENTS.get(agent or CLAUDE)
        asks = getattr(known.reader, "asks", None) if known else None
        if asks is None or not asks(text):
            return None
    return prompt_title(agent, text)


# A typed prompt this short only answers the agent (short_reply): at most this many words
# and characters, a wide character (CJK) counting two.
REPLY_WORDS, REPLY_WIDTH = 2, 12


def short_reply(text: str | None) -> bool:
    """Whether a typed prompt (its typed_title) only answers the agent: `1`, `done`,
    `continue`, `oke lanjut`, `ㄱㄱ`, `해봐`, not a request that says what to do (`fix the
    tests`, `테스트 고쳐줘`). 10 of a new user's 48 `asked:` lines were such replies,
    which said nothing of what the turn was doing (nu46 finding 10)."""
    if not text or len(text) > REPLY_WIDTH * 4:  # (a long prompt: no need to measure)
        return False
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text.strip())
    return width <= REPLY_WIDTH and len(text.split()) <= REPLY_WORDS


def turn_asked(latest: str | None, sentence: str | None, title: str | None) -> str | None:
    """What a failure's turn was asked (find_past_fix's `turn_prompt`) from the prompt typed
    last before it (`latest`) and the last one before it that was no short_reply
    (`sentence`): `latest`, or when it is a short reply, the reply after the request it
    followed (`1 (after: Push the branch and open a PR)`); None when that request is the
    session's title (the card says it) or there is none."""
    if latest is None or not short_reply(latest):
        return latest
    if sentence is None or sentence == title:
        return None
    return f"{latest} (after: {sentence})"


# A user message no person typed: the marker Claude Code writes after a call the user
# rejected or stopped (`[Request interrupted by user for tool use]`). No session's title (3
# sessions of 2 people in session 9's fourth held-out set, begun by a slash command, were
# titled so) and no prompt of the fix rules (db.FIX_PROMPTS_SQL).
NOT_INTERRUPTED_SQL = "text NOT LIKE '[Request interrupted by user%'"


# A prompt a person typed, not one an agent wrote in tags (a command's output, a task's
# notification, Codex's context); Claude Code in an IDE tags the file open in the editor
# before what was typed (prompt_title leaves that note out of a title).
TYPED_SQL = "(substr(text, 1, 1) != '<' OR substr(text, 1, 5) = '<ide_')"


# What a person typed first: a prompt (TYPED_SQL), or a slash command, which
# typed_title keeps when it asks for work (`/orchestrator create TODO app by
# Next.js`: a session begun so was titled by a prompt typed an hour later, or by its
# subagent's task; a new user's try, session 27).
TYPED_OR_ASKED_SQL = f"({TYPED_SQL} OR text LIKE '<command-%')"
# The prompt a person typed last before `{at}` in session `{session}`'s main thread, as
# typed_title makes it (of the session's agent, `{agent}`), when one came before it there:
# what the turn of a failure was asked, which the session's title may not say. Claude
# Code's ai-title is made of the first prompt and kept for every later one (a 1,290-line
# session of ../shared/corpus/real kept "Build monorepo bookmark app ..." through 5
# prompts), and the demo's `git push` failure showed "session: Fix mypy union-attr error"
# (a new user's try, nu43). Null in the first prompt's turn, which the title is about.
# (the latest titled prompt, when the two latest are titled: typed_title is called on the
# newest prompts only, down the index, not on every prompt of the session for every row)
_PROMPTS_BEFORE = (
    "SELECT typed_title({agent}, text) AS title FROM messages"
    " WHERE session_id = {session} AND timestamp <= {at}"
    " AND kind = 'prompt' AND is_meta = 0 AND is_sidechain = 0 AND text > ''"
    f" AND {TYPED_OR_ASKED_SQL} AND {NOT_INTERRUPTED_SQL}"
    " ORDER BY timestamp DESC, line_no DESC"
)
# A short reply (`1`, `continue`) is shown after the last request before it (turn_asked:
# the newest prompt that is no short_reply, `{title}` being the session's title), looked
# for only when the latest is one (typed_title of a long prompt is not remembered:
# queries._typed_title).
TURN_PROMPT_SQL = (
    "(CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM (" + _PROMPTS_BEFORE + ")"
    " WHERE title IS NOT NULL LIMIT 2)) = 2"
    " THEN (SELECT turn_asked(latest.title, CASE WHEN short_reply(latest.title) THEN"
    " (SELECT title FROM (" + _PROMPTS_BEFORE + ") WHERE title IS NOT NULL"
    " AND NOT short_reply(title) LIMIT 1) END, {title})"
    " FROM (SELECT title FROM (" + _PROMPTS_BEFORE + ") WHERE title IS NOT NULL LIMIT 1)"
    " AS latest) END)"
)


# Agents that store large tool output in files beside a transcript: how the build
# puts that text in place of the marker the transcript keeps (before prepare()). Its third
# argument, when not None, is told the bytes of each file before it is read, and may
# raise to stop the reading (a build with a time budget: see pastfix.build).
SideOutputs = Callable[[Batch, SourceFile, Callable[[int], None] | None], list[PersistedOutput]]


def side_outputs(agent: str) -> SideOutputs | None:
    read: SideOutputs | None = getattr(reader(agent), "read_persisted_outputs", None)
    return read


# Agents whose message ids number lines (a Codex rollout's `<session>:<line>`, a Gemini
# checkpoint's turns) rather than name them: a line cut from the middle of such a file
# gives its id to the next one, so the build keeps the row it named under another id.
def positional_ids(agent: str, path: str) -> bool:
    read: Callable[[str], bool] | None = getattr(reader(agent), "positional_ids", None)
    return bool(read and read(path))


class WrongAgent(Exception):
    """A source folder that holds another agent's transcripts than the one asked for, or
    several agents' in folders that need a --source each."""


def default_sources(agent: str | None = None) -> list[Path]:
    """The folders `pastfix build` reads without --source.

    Each agent's folders (~/.claude/projects, ~/.codex/sessions, ...) that exist, or
    only `agent`'s; the bundled demo sessions when none does (or, for `agent` claude,
    when its folder does not).
    """
    from pastfix import transcripts

    if agent == CLAUDE:
        return [transcripts.default_source()]
    if agent:
        return reader(agent).default_folders()
    found = [p for a in AGENTS.values() for p in a.reader.default_folders() if p.is_dir()]
    return found or [transcripts.DEMO_PROJECTS]


def store_agent(folder: Path) -> str | None:
    """The agent whose store `folder` is (~/.claude/projects, one project's folder,
    ~/.codex/sessions), told from its files; None for a folder of no agent's."""
    return _detect(folder)


def _detect(root: Path) -> str | None:
    """The agent whose store `root` is: the others are asked first, Claude Code's test
    (a folder of folders of .jsonl files) being the loosest."""
    for agent in [*NAMES[1:], CLAUDE]:
        if _holds(agent, root):
            return agent
    return None


def _holds(agent: str, folder: Path) -> bool:
    """Whether `folder` is `agent`'s store; not when a file its reader looks at cannot be
    looked at (a project folder without read permission): the walk of the source then
    records that folder as a problem, where a PermissionError here stopped the build."""
    try:
        return AGENTS[agent].reader.holds(folder)
    except OSError:
        return False


def stores(root: Path, agent: str | None = None) -> list[tuple[Path, str]]:
    """The agents' stores a source folder holds, each with its agent, told from its files.

    A folder that is an agent's store (its reader's `holds`: Codex rollouts, in
    YYYY/MM/DD folders or not, for Codex) is that agent's; Claude Code's, a folder of
    project folders of .jsonl files, is asked last. A folder that is none, or that looks
    like Claude Code's but holds another agent's store among its folders, gives the
    stores below it (a home folder's backup: its .claude/projects, .codex/sessions, ...;
    ~/.claude: its projects; Claude Code project folders beside a Codex folder: each
    project), each read by its own agent's reader, or only `agent`'s; an empty one is
    `agent`'s. WrongAgent when `agent` is given and the files are another's, or when
    Claude Code transcripts sit directly in a folder beside another agent's store: read
    as Claude Code's, that store's lines would all be skipped.
    """
    found = _detect(root)
    if found == CLAUDE:
        beside = _store_beside(root)
        if beside and _has_jsonl(root):
            other, folder = beside
            raise WrongAgent(
                f"{root} holds {label(other)} sessions ({folder}) beside Claude Code"
                " transcripts: read as Claude Code's, their lines would all be skipped; give"
                f" each its own --source, such as --source {folder} for {label(other)}'s"
            )
        if beside:
            found = None
    if found is None:
        below = _stores_below(root)
        if agent and agent in below:
            return [(store, agent) for store in below[agent]]
        if below and not agent:
            return [(store, name) for name, found_below in below.items() for store in found_below]
        if below:
            found = next(iter(below))
    if agent and found and found != agent:
        raise WrongAgent(f"{root} holds {found} transcripts, not {agent}'s")
    return [(root, found or agent or _owner(root) or CLAUDE)]


def _owner(root: Path) -> str | None:
    """The agent whose default folder `root` is: ~/.copilot or ~/.gemini made by `skill
    install` or a client without a session yet is that agent's, not Claude Code's."""
    try:
        where = root.resolve()
        return next(
            (
                a.name
                for a in AGENTS.values()
                for p in a.reader.default_folders()
                if p.resolve() == where
            ),
            None,
        )
    except OSError:
        return None


def agent_of(root: Path, agent: str | None = None) -> str:
    """The agent whose transcripts `root` holds (the first, when it holds several stores)."""
    return stores(root, agent)[0][1]


# How deep below a source folder `stores` looks for the agents' stores (~/.codex/sessions is
# one level down, a backup's home/.codex/sessions three, <user>/.local/share/opencode four),
# and how many folders it lists at most: a mistaken --source ~ must not walk a whole home
# folder before the build starts.
BELOW_DEPTH = 6
BELOW_FOLDERS = 300


def _stores_below(root: Path) -> dict[str, list[Path]]:
    """The agents' stores below `root`, by agent, nearest first, in a bounded walk
    (BELOW_DEPTH, BELOW_FOLDERS)."""
    stores: dict[str, list[Path]] = {}
    level, listed = [Path(root)], 0
    for _ in range(BELOW_DEPTH):
        below: list[Path] = []
        for folder in level:
            for child in _subfolders(folder):
                listed += 1
                if listed > BELOW_FOLDERS:
                    return stores
                found = _detect(child)
                if found == CLAUDE and _store_beside(child):
                    found = None  # a folder of stores, Claude Code's projects among them
                if found:
                    stores.setdefault(found, []).append(child)
                else:
                    below.append(child)
        level = below
    return stores


def _store_beside(root: Path) -> tuple[str, Path] | None:
    """Another agent's store among the folders of a Claude Code source, or in their
    `sessions` folder (a copy of ~/.codex), if any.

    Claude Code's project folders are named after a path (`-home-u-app`) and never hold
    one: they are not listed, so ~/.claude/projects costs one listing (0.5 ms for 14
    folders when each is looked into).
    """
    for child in _subfolders(root):
        if child.name.startswith("-"):
            continue
        for folder in (child, child / "sessions"):
            for agent in NAMES[1:]:
                if _holds(agent, folder):
                    return agent, folder
    return None


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            return sorted(Path(e.path) for e in listing if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def codex_sessions() -> Path:
    """~/.codex/sessions, or $CODEX_HOME/sessions when Codex is told to live elsewhere."""
    return reader("codex").default_folders()[0]


def _has_jsonl(folder: Path) -> bool:
    return any(Path(folder).glob("*.jsonl"))
