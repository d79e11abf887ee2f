"""Read GitHub Copilot CLI's session history into pastfix's records.

Copilot CLI keeps its state in $COPILOT_HOME, else ~/.copilot (versions before
1.0.x honoured $XDG_STATE_HOME/.copilot too, and move it to ~/.copilot when they
start). The formats, as the published package @github/copilot writes them
(read in 0.0.340, 0.0.369, 1.0.10 and 1.0.60; see docs/other-agents-format.md):

- `history-session-state/session_<uuid>_<startMs>.json` (0.0.3xx, autumn 2025):
  one JSON object `{sessionId, startTime, chatMessages, timeline}`, rewritten
  whole on every change, so it is read whole (SourceFile.whole, parse_file).
  The `timeline` is the conversation as the person saw it, each entry with an
  id and a timestamp: `user`, `copilot`, `error`, `info`, `warning`,
  `tool_call_requested` and `tool_call_completed` (`result.type` success,
  failure, rejected or denied, `log` the output). `chatMessages` is what the
  model saw; a call's tool message there is the text the model got, which for
  a failure is fuller than the log ("Failed to execute `view` ... due to
  error: ..."), so a result's text is taken from it, the log failing that.
- `session-state/<uuid>.jsonl` (late 2025) and `session-state/<uuid>/events.jsonl`
  (since): one event a line, `{type, data, id, timestamp, parentId}`, only ever
  appended to (a rewind rewrites the file shorter), so they are read line by
  line from the stored offset (parse_lines).
- `session-state/<uuid>/workspace.yaml` beside events.jsonl: the session's cwd,
  branch and summary or name, rewritten whole whenever they change. It is a
  source file of its own, read whole (parse_file): a change of it re-reads it
  alone, and events.jsonl is still read on from its offset. Its rows are
  session_meta rows of the same session.

Events read (the rest are bookkeeping: turns, hooks, modes, shutdown...):
`session.start` / `session.resume` (cwd, branch, version, as session_meta),
`user.message` (a prompt; empty `content` with only `transformedContent` is
text Copilot injected, is_meta), `system.message`, `assistant.message` (its
text and its reasoning text), `tool.execution_start` and `tool.user_requested`
(a call), `tool.execution_complete` (its result), `session.error` (kind
"error") and `session.compaction_complete` (the summary that replaced the
history). Events of a sub-agent carry `parentToolCallId`: they are sidechain
rows with that id as their agent_id.

Failures. A result with `success: false` (legacy: `result.type` other than
success) is a failure whose text is `error.message`, the text the model got.
Copilot tells rejections and denials by `error.code` "rejected" / "denied",
and says so in words that pastfix.signatures classifies as noise ("The user
rejected this tool call", "Permission denied and could not request permission
from user"...). A shell command that exits non-zero is a success for Copilot
(`<exited with exit code 1>` ends its output); it is stored as a failure, as
Claude Code and Codex commands are, with `Exit code N` first.

Ids. A session is its file's uuid (`copilot --resume <uuid>` takes it). A
message is `<session>:<event id>` (`<session>:<timeline id>` in the legacy
file), and a tool call `<session>:<toolCallId>`: Copilot passes the model's
own call ids through (`toolu_...`, `call_...`), which Claude Code and Codex
use too. A copy of a session (the flat .jsonl beside its events.jsonl)
produces the same ids, so it is stored once.

Tools. `str_replace_editor`'s `view` command is stored as a `view` call (the
read tool newer versions have), so that it is not an edit; edit calls get the
canonical keys (file_path, old_string, new_string, content) beside Copilot's
own (path, old_str, new_str, file_text).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from pastfix import agents, lines, paths, records
from pastfix.lines import BadLine, excerpt
from pastfix.patterns import lazy
from pastfix.records import (
    Batch,
    Message,
    Problem,
    SessionMeta,
    SourceFile,
    ToolCall,
    ToolResult,
    clean_text,
    valid_text,
)

AGENT = "copilot"
HOME_ENV = "COPILOT_HOME"
HOME_DIR = ".copilot"
STATE_DIR = "session-state"
LEGACY_DIR = "history-session-state"
EVENTS = "events.jsonl"
WORKSPACE = "workspace.yaml"

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_LEGACY_NAME = lazy(rf"^session_({_UUID})_\d+\.json$")
_FLAT_NAME = lazy(rf"^({_UUID})\.jsonl$")
_SESSION_DIR = lazy(rf"^{_UUID}$")
# How deep below a source folder the store folders are looked for (a copy of a home
# folder: <home>/.copilot/session-state is two levels down, a folder of such copies
# three), and how many folders are listed at most: ~/.copilot also holds pkg/, the
# installed CLI with its node_modules, which is never walked.
SEARCH_DEPTH = 3
SEARCH_FOLDERS = 300
_SKIPPED_DIRS = frozenset({"pkg", "node_modules", ".git", "logs", "ide", "command-history-state"})

# What a shell's output ends with (Copilot adds it), and its legacy failure text.
_EXITED = lazy(r"\n?<exited with exit code (-?\d+)>\s*\Z")
# What the model is told of a rejected call in the legacy format, whose timeline
# keeps no text for it (0.0.340's wording, when its tool message is missing).
LEGACY_REJECTED = (
    "The tool call required approval from the user, but the user rejected it or an earlier"
    " tool call."
)
# The tag Copilot appends to a prompt in the flat .jsonl format: not typed by the person.
_DATETIME_TAG = lazy(r"\s*<current_datetime>[^<]*</current_datetime>\s*\Z")

# Event types read; the other types a version writes are bookkeeping, neither read
# nor counted as skipped. A type of neither list (from a newer Copilot) is skipped.
_IGNORED_EVENTS = frozenset(
    {
        "abort",
        "assistant.reasoning",  # the same text as its assistant.message's reasoningText
        "assistant.turn_start",
        "assistant.turn_end",
        "external_tool.requested",
        "hook.start",
        "hook.end",
        "permission.requested",
        "permission.completed",
        "session.autopilot_objective_changed",
        "session.compaction_start",
        "session.context_changed",
        "session.handoff",
        "session.info",
        "session.mode_changed",
        "session.model_change",
        "session.permissions_changed",
        "session.plan_changed",
        "session.remote_steerable_changed",
        "session.schedule_cancelled",
        "session.schedule_created",
        "session.shutdown",
        "session.task_complete",
        "session.truncation",
        "session.warning",
        "session.workspace_file_changed",
        "skill.invoked",
        "subagent.completed",
        "subagent.deselected",
        "subagent.failed",
        "subagent.selected",
        "subagent.started",
        "system.notification",
        "tool.execution_partial_result",
        "tool.execution_progress",
    }
)


class _Event(msgspec.Struct):
    type: Any = None
    data: Any = None
    id: Any = None
    timestamp: Any = None


_decode_event = msgspec.json.Decoder(_Event).decode


# -- where the files are ------------------------------------------------------------


def home() -> Path:
    """Copilot CLI's folder: $COPILOT_HOME, else ~/.copilot."""
    value = os.environ.get(HOME_ENV)
    return paths.expand(value) if value else paths.home() / HOME_DIR


def default_folders() -> list[Path]:
    """home(), and $XDG_STATE_HOME/.copilot when that is set: where versions before 1.0
    kept session-state (1.0.x moves it to ~/.copilot and leaves a symlink)."""
    folders = [home()]
    state = os.environ.get("XDG_STATE_HOME")
    if state:
        old = paths.expand(state) / HOME_DIR
        if old != folders[0]:
            folders.append(old)
    return folders


def holds(root: Path) -> bool:
    """Whether `root` is a Copilot CLI store: a session-state or history-session-state
    folder, a session's folder, or a folder holding those (~/.copilot). Folders above
    it (a home folder, a folder of copies of homes) are found by pastfix.agents'
    bounded walk below a source."""
    root = Path(root)
    return _is_store(root) or _is_home(root)


def _is_store(folder: Path) -> bool:
    if folder.name == LEGACY_DIR:
        return folder.is_dir()
    if folder.name == STATE_DIR:
        return folder.is_dir()
    return _SESSION_DIR.match(folder.name) is not None and (folder / EVENTS).is_file()


def _is_home(folder: Path) -> bool:
    return (folder / STATE_DIR).is_dir() or (folder / LEGACY_DIR).is_dir()


def iter_source_files(root: Path) -> Iterator[SourceFile]:
    """Every Copilot session file under `root`, in path order.

    The store folders (session-state, history-session-state) are looked for at
    most SEARCH_DEPTH levels down; a session folder given itself is read too.
    """
    stores, problems = _stores(Path(root))
    for folder, problem in problems:
        yield SourceFile(str(folder), None, "", problem, AGENT)
    found: list[SourceFile] = []
    for store in stores:
        found.extend(_store_files(store))
    yield from sorted(found, key=lambda s: s.path)


def _stores(root: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The store folders at or below `root`, and the folders that could not be listed."""
    if _is_store(root):
        return [root], []
    stores: list[Path] = []
    problems: list[tuple[Path, str]] = []
    level, listed = [root], 0
    for _ in range(SEARCH_DEPTH):
        below: list[Path] = []
        for folder in level:
            try:
                with os.scandir(folder) as listing:
                    entries = sorted((e for e in listing if e.is_dir()), key=lambda e: e.name)
            except OSError as e:
                problems.append((folder, f"cannot list: {e.strerror or e}"))
                continue
            for entry in entries:
                listed += 1
                if listed > SEARCH_FOLDERS:
                    return stores, problems
                path = Path(entry.path)
                if entry.name in (STATE_DIR, LEGACY_DIR):
                    stores.append(path)
                elif entry.name not in _SKIPPED_DIRS:
                    below.append(path)
        level = below
    return stores, problems


def _store_files(store: Path) -> Iterator[SourceFile]:
    """The session files of one store folder (or of one session folder)."""
    if store.name == LEGACY_DIR:
        for path in _listing(store):
            named = _LEGACY_NAME.match(path.name)
            if named and path.is_file():
                yield _source(path, named.group(1).lower(), whole=True)
        return
    if store.name != STATE_DIR:  # a session folder given itself
        yield from _session_folder(store)
        return
    for path in _listing(store):
        named = _FLAT_NAME.match(path.name)
        if named and path.is_file():
            yield _source(path, named.group(1).lower())
        elif _SESSION_DIR.match(path.name) and path.is_dir():
            yield from _session_folder(path)


def _session_folder(folder: Path) -> Iterator[SourceFile]:
    events = folder / EVENTS
    if not events.is_file():
        return
    session_id = folder.name.lower()
    yield _source(events, session_id)
    workspace = folder / WORKSPACE
    if workspace.is_file():
        yield _source(workspace, session_id, whole=True)


def _source(path: Path, session_id: str, whole: bool = False) -> SourceFile:
    return SourceFile(str(path), session_id, "", None, AGENT, whole=whole)


def _listing(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            return sorted(Path(e.path) for e in listing)
    except OSError:
        return []


# -- events JSONL -------------------------------------------------------------------


def parse_lines(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
    """Parse complete event lines (``data`` ends with a newline or is empty)."""
    batch = Batch()
    # The file's name says its session; a copy named otherwise has its session.start.
    session = [default_session_id]

    def parse(line: memoryview, line_no: int) -> Problem | None:
        try:
            event = _decode(line)
            if session[0] is None:
                session[0] = _start_session_id(event)
            if session[0] is None:
                raise BadLine("an event before the session.start that names its session")
            _parse_event(event, line_no, session[0], batch)
        except BadLine as e:
            return Problem(line_no, str(e), excerpt(line))
        return None

    return lines.parse_lines(data, first_line_no, parse, batch)


def _decode(raw: memoryview | bytes) -> _Event:
    try:
        try:
            event = _decode_event(raw)
        except msgspec.DecodeError as e:
            fixed = lines.repaired(e, raw) if not isinstance(e, msgspec.ValidationError) else None
            if fixed is None:
                raise
            event = _decode_event(fixed)
    except msgspec.ValidationError as e:
        # "Expected `object`, got `array`"; or a number out of range, deep in `data`
        why = "JSON that is not an object" if str(e).startswith("Expected `object`") else str(e)
        raise BadLine(why) from None
    except msgspec.DecodeError as e:
        raise BadLine(lines.bad_json(e, raw)) from None
    except RecursionError:
        raise BadLine("JSON nested too deeply") from None
    if not isinstance(event.type, str) or not event.type:
        raise BadLine("an event without a type")
    if not isinstance(event.data, dict):
        raise BadLine(f"{event.type} event without a data object")
    if event.timestamp is not None and not isinstance(event.timestamp, str):
        raise BadLine(f"{event.type} event whose timestamp is not a string")
    return event


def _start_session_id(event: _Event) -> str | None:
    if event.type == "session.start":
        return _str(event.data.get("sessionId"))
    return None


def _parse_event(event: _Event, line_no: int, session_id: str, batch: Batch) -> None:
    kind, data = event.type, event.data
    if kind in ("session.start", "session.resume"):
        _session_meta(data, line_no, session_id, batch)
        return
    if kind in _IGNORED_EVENTS:
        return
    event_id = _str(event.id)
    if event_id is None:
        raise BadLine(f"{kind} event without an id")
    row = _Row(session_id, f"{session_id}:{event_id}", line_no, event.timestamp, data)
    if kind == "user.message":
        _user_message(row, data, batch)
    elif kind == "system.message":
        text = _str(data.get("content"))
        if text:
            batch.messages.append(row.message("system", "system", clean_text(text), meta=1))
    elif kind == "assistant.message":
        _assistant_message(row, data, batch)
    elif kind in ("tool.execution_start", "tool.user_requested"):
        _tool_start(row, data, batch, by_user=kind == "tool.user_requested")
    elif kind == "tool.execution_complete":
        _tool_complete(row, data, batch)
    elif kind == "session.error":
        text = _str(data.get("message"))
        if text:
            batch.messages.append(row.message("system", "error", clean_text(text), meta=1))
    elif kind == "session.compaction_complete":
        text = _str(data.get("summaryContent"))
        if text:
            message = row.message("user", "compact_summary", clean_text(text), meta=1)
            batch.messages.append(message._replace(is_compact_summary=1))
    else:
        batch.skipped += 1  # an event type of a newer Copilot


def _session_meta(data: dict[str, Any], line_no: int, session_id: str, batch: Batch) -> None:
    context = data.get("context")
    context = context if isinstance(context, dict) else {}
    version = _str(data.get("copilotVersion"))
    for key, value in (
        ("cwd", _str(context.get("cwd"))),
        ("git_branch", _str(context.get("branch"))),
        ("git_commit", _str(context.get("headCommit"))),
        ("repository", _str(context.get("repository"))),
        ("cli_version", None if version == "unknown" else version),
        ("producer", _str(data.get("producer"))),
    ):
        if value:
            batch.meta.append(SessionMeta(session_id, line_no, key, value))


class _Row:
    """What every record of one event shares: its session, id, line and time."""

    def __init__(
        self, session_id: str, uuid: str, line_no: int, timestamp: Any, data: dict[str, Any]
    ) -> None:
        self.session_id = session_id
        self.uuid = uuid
        self.line_no = line_no
        self.timestamp = timestamp if isinstance(timestamp, str) else None
        parent = data.get("parentToolCallId")
        # a sub-agent's event: its calls form a chain of their own (pastfix.fixes)
        self.agent_id = parent if isinstance(parent, str) and parent else None

    def message(
        self, type_: str, kind: str, text: str, meta: int = 0, suffix: str = "", model: Any = None
    ) -> Message:
        return Message(
            uuid=self.uuid + suffix,
            session_id=self.session_id,
            line_no=self.line_no,
            parent_uuid=None,
            type=type_,
            kind=kind,
            timestamp=self.timestamp,
            text=text,
            is_sidechain=1 if self.agent_id else 0,
            is_meta=meta,
            is_compact_summary=0,
            agent_id=self.agent_id,
            model=model if isinstance(model, str) and model else None,
            cwd=None,
            git_branch=None,
            version=None,
        )


def _user_message(row: _Row, data: dict[str, Any], batch: Batch) -> None:
    content = data.get("content")
    if content is not None and not isinstance(content, str):
        raise BadLine("user.message content is not a string")
    typed = _DATETIME_TAG.sub("", content or "")
    injected = data.get("isAutopilotContinuation") is True or not typed.strip()
    text = typed if typed.strip() else _str(data.get("transformedContent")) or ""
    if text.strip():
        batch.messages.append(row.message("user", "prompt", clean_text(text), meta=int(injected)))


def _assistant_message(row: _Row, data: dict[str, Any], batch: Batch) -> None:
    model = data.get("model")
    thinking = _str(data.get("reasoningText"))
    if thinking and thinking.strip():
        batch.messages.append(
            row.message("assistant", "thinking", clean_text(thinking), suffix=":thinking")
        )
    text = data.get("content")
    if isinstance(text, str) and text.strip():
        batch.messages.append(row.message("assistant", "text", clean_text(text), model=model))


def _tool_start(row: _Row, data: dict[str, Any], batch: Batch, by_user: bool) -> None:
    call_id, name = _str(data.get("toolCallId")), _str(data.get("toolName"))
    if call_id is None:
        raise BadLine("tool call without a toolCallId")
    if name is None:
        raise BadLine("tool call without a toolName")
    message = row.message("user" if by_user else "assistant", "tool_use", "")
    batch.messages.append(message)
    batch.tool_calls.append(tool_call(row, message, call_id, name, data.get("arguments")))


def _tool_complete(row: _Row, data: dict[str, Any], batch: Batch) -> None:
    call_id = _str(data.get("toolCallId"))
    if call_id is None:
        raise BadLine("tool.execution_complete without a toolCallId")
    success = data.get("success")
    if not isinstance(success, bool):
        raise BadLine("tool.execution_complete without a success flag")
    if success:
        result = data.get("result")
        text = result.get("content") if isinstance(result, dict) else None
        content, failed = shell_output(text if isinstance(text, str) else "")
    else:
        error = data.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        content, failed = (message if isinstance(message, str) else ""), True
    message_row = row.message("user", "tool_result", "", suffix=":result")
    batch.messages.append(message_row)
    batch.tool_results.append(_result(row, message_row, call_id, content, failed))


def _result(row: _Row, message: Message, call_id: str, content: str, failed: bool) -> ToolResult:
    text = clean_text(content)
    return ToolResult(
        tool_use_id=f"{row.session_id}:{call_id}",
        session_id=row.session_id,
        line_no=row.line_no,
        message_uuid=message.uuid,
        timestamp=row.timestamp,
        is_error=1 if failed else 0,
        content=text,
        content_length=len(text),
    )


def shell_output(text: str) -> tuple[str, bool]:
    """A successful call's text as stored, and whether it is a failure all the same:
    a command whose output ends `<exited with exit code N>`, N not 0, is stored with
    `Exit code N` first, as Claude Code's and Codex's failed commands are."""
    found = _EXITED.search(text)
    if not found or found.group(1) == "0":
        return text, False
    body = text[: found.start()].rstrip("\n")
    return f"Exit code {found.group(1)}\n{body}".rstrip("\n"), True


def tool_call(row: _Row, message: Message, call_id: str, name: str, arguments: Any) -> ToolCall:
    """A call as stored: its role's fields filled in from Copilot's arguments (see the
    module docstring for `view` and the canonical edit keys)."""
    args: dict[str, Any]
    if isinstance(arguments, dict):
        args = dict(arguments)
    elif isinstance(arguments, str):
        # a free-form tool (apply_patch): its input is the text itself
        args = {"input": arguments}
    else:
        args = {} if arguments is None else {"input": arguments}
    path = _str(args.get("path"))
    if name == "str_replace_editor" and args.get("command") == "view":
        name = "view"
    role = agents.AGENTS[AGENT].tools.get(name)
    command = _str(args.get("command")) if role == agents.SHELL else None
    if role in (agents.EDIT, agents.READ):
        _canonical_edit(name, args, path)
    if name == "apply_patch":
        patch = args.get("input")
        found = records.PATCH_FILE.search(patch) if isinstance(patch, str) else None
        path = found.group(1) if found else None
        if path:
            args.setdefault("file_path", path)
    description = _str(args.get("description"))
    return ToolCall(
        tool_use_id=f"{row.session_id}:{call_id}",
        session_id=row.session_id,
        line_no=row.line_no,
        message_uuid=message.uuid,
        timestamp=row.timestamp,
        name=name,
        command=command,
        file_path=path,
        description=description,
        input=msgspec.json.encode(args).decode(),
        agent_id=row.agent_id,
        is_sidechain=1 if row.agent_id else 0,
    )


def _canonical_edit(name: str, args: dict[str, Any], path: str | None) -> None:
    """Add the keys the session pages and cards read (file_path, old_string, new_string,
    content) beside Copilot's own, where they are missing."""
    if path:
        args.setdefault("file_path", path)
    command = args.get("command") if name == "str_replace_editor" else name
    if command in ("str_replace", "edit", "insert"):
        if isinstance(args.get("old_str"), str):
            args.setdefault("old_string", args["old_str"])
        elif command == "insert":
            args.setdefault("old_string", "")
        if isinstance(args.get("new_str"), str):
            args.setdefault("new_string", args["new_str"])
    elif command == "create" and isinstance(args.get("file_text"), str):
        args.setdefault("content", args["file_text"])


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


# -- whole files: the legacy session JSON, workspace.yaml ---------------------------


def parse_file(source: SourceFile, data: bytes) -> Batch:
    """Parse a whole file: a legacy history-session-state JSON, or a workspace.yaml."""
    if os.path.basename(source.path) == WORKSPACE:
        return parse_workspace(data, source.session_id)
    return parse_legacy(data, source.session_id)


def parse_workspace(data: bytes, session_id: str | None) -> Batch:
    """workspace.yaml: the session's cwd and title, as session_meta rows.

    `summary` (1.0.10) and `name` (later; `user_named` when the person gave it)
    are its titles. Every value is read as a string (YAML's timestamps and
    booleans as their text), so a Windows path or a date stays what was written.
    """
    import yaml  # here: the hook imports this module, and needs no YAML (~12 ms)

    batch = Batch(lines=data.count(b"\n") or 1)
    try:
        doc = yaml.load(data.decode("utf-8-sig"), Loader=yaml.BaseLoader)
    except UnicodeDecodeError:
        batch.problems.append(Problem(None, "invalid UTF-8", excerpt(data)))
        return batch
    except yaml.YAMLError as e:
        line = getattr(getattr(e, "problem_mark", None), "line", None)
        where = line + 1 if isinstance(line, int) else None
        batch.problems.append(Problem(where, f"malformed YAML: {_first_line(e)}", excerpt(data)))
        return batch
    if not isinstance(doc, dict):
        batch.problems.append(Problem(None, "workspace.yaml is not a mapping", excerpt(data)))
        return batch
    session_id = session_id or _str(doc.get("id"))
    if not session_id:
        batch.problems.append(Problem(None, "workspace.yaml without an id", excerpt(data)))
        return batch
    # YAML reads "\ud800" as a lone surrogate, which UTF-8 cannot hold (it stopped the file,
    # a security test of session 33): each is made U+FFFD, as a JSON line's is.
    session_id = valid_text(session_id)
    title_key = "custom_title" if doc.get("user_named") == "true" else "ai_title"
    for key, value in (
        # its branch is left to the events: session.start's and each resume's, in order
        ("cwd", doc.get("cwd")),
        ("repository", doc.get("repository")),
        ("ai_title", doc.get("summary")),
        (title_key, doc.get("name")),
    ):
        if isinstance(value, str) and value.strip():
            batch.meta.append(
                SessionMeta(session_id, 1, key, clean_text(valid_text(value.strip())))
            )
    return batch


def _first_line(error: Exception) -> str:
    return str(error).strip().split("\n", 1)[0]


def parse_legacy(data: bytes, session_id: str | None) -> Batch:
    """A history-session-state JSON: its timeline, with the model's text of each result."""
    batch = Batch(lines=1)
    try:
        try:
            doc = msgspec.json.decode(data)
        except msgspec.DecodeError as e:
            fixed = lines.repaired(e, data)
            if fixed is None:
                raise
            doc = msgspec.json.decode(fixed)
    except msgspec.DecodeError as e:
        batch.problems.append(Problem(None, lines.bad_json(e, data), excerpt(data)))
        return batch
    except RecursionError:
        batch.problems.append(Problem(None, "JSON nested too deeply", excerpt(data)))
        return batch
    if not isinstance(doc, dict):
        batch.problems.append(Problem(None, "JSON that is not an object", excerpt(data)))
        return batch
    session_id = session_id or _str(doc.get("sessionId"))
    timeline = doc.get("timeline")
    if not session_id or not isinstance(timeline, list):
        what = "a sessionId" if not session_id else "a timeline list"
        batch.problems.append(Problem(None, f"session file without {what}", excerpt(data)))
        return batch
    said = _tool_messages(doc.get("chatMessages"))
    batch.lines = len(timeline)
    for index, entry in enumerate(timeline):
        try:
            _timeline_entry(entry, index + 1, session_id, said, batch)
        except BadLine as e:
            raw = msgspec.json.encode(entry)
            # a JSON document has no lines to name: the entry's place says where
            batch.problems.append(Problem(None, f"timeline entry {index + 1}: {e}", excerpt(raw)))
    return batch


def _tool_messages(chat: Any) -> dict[str, str]:
    """The text of each tool message of chatMessages, by its tool_call_id."""
    said: dict[str, str] = {}
    for message in chat if isinstance(chat, list) else []:
        if not isinstance(message, dict) or message.get("role") != "tool":
            continue
        call_id, content = message.get("tool_call_id"), message.get("content")
        if isinstance(content, list):  # OpenAI content parts
            content = "\n".join(
                p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
            )
        if isinstance(call_id, str) and isinstance(content, str):
            said[call_id] = content
    return said


def _timeline_entry(
    entry: Any, line_no: int, session_id: str, said: dict[str, str], batch: Batch
) -> None:
    if not isinstance(entry, dict):
        raise BadLine("not an object")
    kind, entry_id = entry.get("type"), _str(entry.get("id"))
    if not isinstance(kind, str):
        raise BadLine("timeline entry without a type")
    if entry_id is None:
        raise BadLine(f"{kind} entry without an id")
    timestamp = entry.get("timestamp")
    row = _Row(session_id, f"{session_id}:{entry_id}", line_no, timestamp, {})
    text = entry.get("text")
    if kind in ("user", "copilot", "error"):
        if not isinstance(text, str):
            raise BadLine(f"{kind} entry without a text")
        if not text.strip():
            return
        text = clean_text(text)
        if kind == "user":
            batch.messages.append(row.message("user", "prompt", text))
        elif kind == "copilot":
            batch.messages.append(row.message("assistant", "text", text))
        else:
            batch.messages.append(row.message("system", "error", text, meta=1))
    elif kind in ("tool_call_requested", "tool_call_completed"):
        _legacy_call(row, entry, kind == "tool_call_completed", said, batch)
    elif kind in ("info", "warning"):
        return  # UI notices: "Connected to GitHub MCP Server", "Operation cancelled by user"
    else:
        batch.skipped += 1


def _legacy_call(
    row: _Row, entry: dict[str, Any], completed: bool, said: dict[str, str], batch: Batch
) -> None:
    call_id, name = _str(entry.get("callId")), _str(entry.get("name"))
    if call_id is None:
        raise BadLine("tool call entry without a callId")
    if name is None:
        raise BadLine("tool call entry without a name")
    result = entry.get("result")
    if completed and not isinstance(result, dict):
        raise BadLine("tool_call_completed entry without a result")
    message = row.message("assistant", "tool_use", "")
    batch.messages.append(message)
    batch.tool_calls.append(tool_call(row, message, call_id, name, entry.get("arguments")))
    if not completed:
        return
    assert isinstance(result, dict)
    outcome, log = result.get("type"), result.get("log")
    content = said.get(call_id)
    if content is None:
        content = log if isinstance(log, str) else ""
        if outcome == "rejected" and not content:
            content = LEGACY_REJECTED
    if outcome == "success":
        content, failed = shell_output(content)
    else:
        failed = True
    result_row = row.message("user", "tool_result", "", suffix=":result")
    batch.messages.append(result_row)
    batch.tool_results.append(_result(row, result_row, call_id, content, failed))


# -- the failure hook ---------------------------------------------------------------
#
# Copilot CLI runs `postToolUseFailure` hooks (since 1.0.15) after a call whose result
# is a failure (not after a rejection or a denial, nor after a command that exited
# non-zero: those are not failures to it), with `{sessionId, timestamp, cwd,
# toolName, toolArgs, error}` as JSON on standard input, `error` being the text the
# model is given. It parses the hook's standard output as JSON and appends its
# `additionalContext` to that text for the model: "Tool "view" failed. Additional
# guidance from postToolUseFailure hooks: ..." (app.js of npm @github/copilot 1.0.20
# and 1.0.60; see pastfix.install for where the hook goes).


def hook_failure(event: dict[str, Any]) -> dict[str, Any] | None:
    """The failure of a postToolUseFailure event: its error text and session; None when
    the event is no such failure (another event, or no error text): the hook is silent.

    Copilot's PascalCase form (a hook file written for Claude Code, `session_id`)
    is read too.
    """
    error = event.get("error")
    if not isinstance(error, str) or not error.strip():
        return None
    name = event.get("hook_event_name")
    if name is not None and name != "PostToolUseFailure":
        return None
    session = event.get("sessionId", event.get("session_id"))
    return {"error": error, "session_id": session if isinstance(session, str) else None}


def hook_output(context: str, event: dict[str, Any]) -> str:
    """What the hook prints for Copilot to read: JSON with the additionalContext."""
    return json.dumps({"additionalContext": context})
