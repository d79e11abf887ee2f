"""Read opencode's history (sst/opencode, now anomalyco/opencode) into pastfix's records.

opencode keeps its data in `$XDG_DATA_HOME/opencode` (`~/.local/share/opencode`), in one
of three layouts, all read here (the formats: ../shared/docs/other-agents-format.md, §2):

- v0.6 to v1.1, a JSON file per record under `storage/`: `session/<project>/<ses>.json`
  (Session.Info: directory, title, version), `message/<ses>/<msg>.json` (MessageV2.Info:
  role, model, time, error) and `part/<msg>/<prt>.json` (MessageV2.Part: text,
  reasoning, tool, step-start ...). Each file is rewritten whole on every change.
- v0.5 and earlier, the same records per project: `project/<slug>/storage/session/`
  `info/<ses>.json`, `message/<ses>/<msg>.json`, `part/<ses>/<msg>/<prt>.json`.
- v1.2 and later, SQLite: `opencode.db` (`opencode-<channel>.db` for other release
  channels, `$OPENCODE_DB` when set), tables `session`, `message` and `part` whose `data`
  column holds the same MessageV2 JSON without its ids. v1.2 imports the JSON tree on
  first start and leaves it in place, so a store can hold both: the ids are opencode's own
  in both, so the build stores such a session once.

The unit read (a SourceFile, read whole on any change) is one opencode message: its
message file, with its part files as companions. opencode's ids name every record
(`ses_`, `msg_`, `prt_`), but a part does not say which role its message has, and a
prompt is a text part of a user message: read alone, a part could not be told from a
reply. A message is also what opencode rewrites while it streams: only the live message
of the live session is re-read, never the session's other files (a session's thousands
of parts re-read on every step of it, had the session been the unit). A session's own
file is a unit too (its title, directory and version). Measured on a generated tree of
5,000 parts (benchmarks/opencode_tree.py, this 2-core machine): in messages of 5 parts
(1,010 units) a fresh build takes 0.75 s, a no-change one 0.13 s, one rewritten part
0.13 s; a unit per file (5,010 units, messages of one part) 1.9 s, 0.39 s and 0.38 s; one
session of 5,000 parts as a single unit 0.29 s and 0.07 s, but 0.22 s for each rewritten
part, growing with the session. The SQLite database is one unit,
its `-wal` a companion: it is read in place through a read-only connection that writes
none of the store's files, its -shm included, and blocks no writer (see read_database);
any change re-reads it whole (the same 5,000 parts: 0.30 s fresh, 0.32 s after one row
changed in the WAL).

Rows. A text part is a message row (a prompt in a user message, a reply in an
assistant's; `synthetic` text that opencode wrote itself is is_meta), a reasoning part
a thinking row, the text of a compaction summary (an assistant message with `summary`)
a compact_summary. A tool part is a call (its tool_use_id is the part id, which no
other agent produces; opencode's `callID` is the provider's and may repeat) and, once
it has finished, a result, each with its row in the conversation as Claude Code's
are. Ids: a part's rows are the part id (the result's `<part id>:result`), a message's
error the message id. A child session (a subagent's, with `parentID`) is a session of its
own, resumable by its id; its parent is kept as session_meta `parent_session_id`.

Failures. A tool part whose `state.status` is "error" failed, its `state.error` the text
the model got (permission rejections, "Tool execution aborted" when a step was stopped:
pastfix.signatures tells them as noise). A bash call that exited non-zero is
"completed" in opencode, with `metadata.exit` holding the code: it is a failure too,
stored as Claude Code's Bash failures are (`Exit code N` first). An assistant message
with `error` (the model call failed: APIError, ProviderAuthError, UnknownError,
MessageAbortedError ...) is an error message row, `<name>: <data.message>`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from pastfix import agents, lines, paths, records
from pastfix.lines import BadLine
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
    line_head,
)

AGENT = "opencode"
DB_ENV = "OPENCODE_DB"
# opencode.db, opencode-<channel>.db (Database.getChannelPath): not their -wal or -shm.
_DB_NAME = lazy(r"^opencode(?:-[A-Za-z0-9._-]+)?\.db$")
# The titles opencode gives a session before it has one (Session.createDefaultTitle).
_DEFAULT_TITLE = lazy(r"^(?:New|Child) session - \d{4}-\d\d-\d\dT[\d:.]+Z$")

# opencode's camelCase argument names and the canonical keys session pages and cards read.
_CANONICAL = (
    ("filePath", "file_path"),
    ("oldString", "old_string"),
    ("newString", "new_string"),
    ("replaceAll", "replace_all"),
)
# Part types that are bookkeeping (a model step's start and end, the snapshot of the
# files, which files a step changed, a retry, a file attached to a prompt, ...): read
# and left out, not counted as skipped (the build names a source most of whose records
# are of types it does not read).
_BOOKKEEPING = frozenset(
    {
        "step-start",
        "step-finish",
        "snapshot",
        "patch",
        "retry",
        "compaction",
        "file",
        "agent",
        "subtask",
    }
)
# The first bytes of every SQLite database (https://sqlite.org/fileformat.html, 1.3).
SQLITE_HEADER = b"SQLite format 3\x00"
# How many times read_database reads a store without a WAL that changed while it was read
# (an opencode starting then: see _open_store), and the first pause between two reads
# (doubling).
READ_TRIES = 3
READ_PAUSE = 0.001

_decode = msgspec.json.decode


# -- where the files are ------------------------------------------------------------


def data_dir() -> Path:
    """opencode's data folder: $XDG_DATA_HOME/opencode, else ~/.local/share/opencode.

    opencode takes it from the xdg-basedir package (Global.Path.data), which reads
    XDG_DATA_HOME and falls back to ~/.local/share on every platform.
    """
    data = os.environ.get("XDG_DATA_HOME") or str(paths.home() / ".local" / "share")
    return paths.expand(data) / "opencode"


def default_folders() -> list[Path]:
    """The data folder, and the folder of $OPENCODE_DB when that moves the database out of it."""
    found = [data_dir()]
    moved = _env_db()
    if moved is not None and moved.parent != found[0]:
        found.append(moved.parent)
    return found


def _env_db() -> Path | None:
    """$OPENCODE_DB as opencode reads it: an absolute path, else a name in the data folder."""
    value = os.environ.get(DB_ENV)
    if not value or value == ":memory:":
        return None
    path = paths.expand(value)
    return path if path.is_absolute() else data_dir() / path


def holds(root: Path) -> bool:
    """Whether `root` is an opencode data folder (or its storage folder): cheap, a few stats."""
    root = Path(root)
    if any(True for _ in _databases(root)):
        return True
    if (root / "storage" / "message").is_dir() or (root / "storage" / "session").is_dir():
        return True
    if root.name == "storage" and (root / "message").is_dir():
        return True
    return any((p / "storage" / "session").is_dir() for p in _subfolders(root / "project"))


def iter_source_files(root: Path) -> Iterator[SourceFile]:
    """Every database, session file and message file of an opencode data folder.

    `root` may also be the `storage` folder itself. A message file's companions are
    its part files, so a changed or new part re-reads the message.
    """
    root = Path(root)
    for db in _databases(root):
        yield SourceFile(
            str(db), None, "", agent=AGENT, whole=True, companions=(f"{db}-wal",), database=True
        )
    storages = [root] if root.name == "storage" and (root / "message").is_dir() else []
    storages.append(root / "storage")
    for storage in storages:
        yield from _files(
            sessions=[(p, "") for p in _subfolders(storage / "session")],
            messages=storage / "message",
            parts=lambda ses, msg, top=storage: top / "part" / msg,
        )
    for project in _subfolders(root / "project"):
        old = project / "storage" / "session"
        yield from _files(
            sessions=[(old / "info", project.name)],
            messages=old / "message",
            parts=lambda ses, msg, top=old: top / "part" / ses / msg,
        )


def _files(sessions: list[tuple[Path, str]], messages: Path, parts: Any) -> Iterator[SourceFile]:
    for folder, project in sessions:
        for path, problem in _json_files(folder):
            if problem:
                yield SourceFile(str(path), None, project, problem, AGENT)
            else:
                yield SourceFile(str(path), path.stem, project, agent=AGENT, whole=True)
    for session in _subfolders(messages):
        for path, problem in _json_files(session):
            if problem:
                yield SourceFile(str(path), None, "", problem, AGENT)
                continue
            part_files = tuple(
                str(p) for p, bad in _json_files(parts(session.name, path.stem)) if not bad
            )
            yield SourceFile(
                str(path), session.name, "", agent=AGENT, whole=True, companions=part_files
            )


def _databases(root: Path) -> Iterator[Path]:
    moved = _env_db()
    try:
        with os.scandir(root) as listing:
            names = sorted(e.name for e in listing if e.is_file())
    except OSError:
        return
    for name in names:
        if _DB_NAME.match(name) or (moved is not None and root / name == moved):
            yield root / name


def _json_files(folder: Path) -> list[tuple[Path, str | None]]:
    """The .json files in `folder` in name order (opencode's ids sort by time), or the
    folder with why it could not be listed; nothing when it does not exist."""
    try:
        with os.scandir(folder) as listing:
            return sorted(
                (Path(e.path), None) for e in listing if e.name.endswith(".json") and e.is_file()
            )
    except FileNotFoundError:
        return []
    except OSError as e:
        return [(folder, f"cannot list: {e.strerror or e}")]


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            return sorted(Path(e.path) for e in listing if e.is_dir())
    except OSError:
        return []


# -- reading a unit -----------------------------------------------------------------


def parse_lines(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
    """opencode writes no line format: every file is read whole (parse_file)."""
    return Batch()


def parse_file(source: SourceFile, data: bytes) -> Batch:
    """The records of one unit: a database, a session file, or a message with its parts."""
    path = Path(source.path)
    if path.suffix == ".json" and path.parent.parent.name == "message":
        return parse_message_files(data, source.companions)
    if path.suffix == ".json" and "session" in (path.parent.name, path.parent.parent.name):
        return parse_session_file(data)  # session/<project>/ or v0.5's session/info/
    return read_database(path)  # opencode*.db, or $OPENCODE_DB under any name


def parse_session_file(data: bytes) -> Batch:
    """A session file: its directory, title and opencode version as session_meta rows."""
    batch = Batch(lines=1)
    info = _json_object(data, 1, batch)
    if info is not None:
        _guard(batch, 1, data, _session_meta, info, 1, batch)
    return batch


def parse_message_files(data: bytes, part_paths: tuple[str, ...] = ()) -> Batch:
    """A message file (line 1) and its part files (lines 2...), read from disk in order."""
    parts: list[tuple[int, bytes, str]] = []
    for i, part_path in enumerate(part_paths):
        try:
            with lines.open_regular(part_path) as f:
                parts.append((i + 2, lines.read_whole(f), os.path.basename(part_path)))
        except FileNotFoundError:
            continue  # removed since it was listed: a revert, or the session deleted
        except OSError as e:
            parts.append((i + 2, b"", f"{os.path.basename(part_path)}: {e.strerror or e}"))
    return parse_message(data, parts)


def parse_message(data: bytes, parts: list[tuple[int, bytes, str]]) -> Batch:
    """A message's JSON and its parts' (line number, JSON, name) as records.

    A bad part is a problem of its own and the message's other parts are still read.
    """
    batch = Batch(lines=1 + len(parts))
    info = _json_object(data, 1, batch)
    decoded: list[tuple[int, dict[str, Any]]] = []
    for line_no, raw, name in parts:
        if not raw and ":" in name:
            batch.problems.append(Problem(line_no, f"cannot read part {name}", ""))
            continue
        part = _json_object(raw, line_no, batch, name)
        if part is not None:
            decoded.append((line_no, part))
    if info is not None:
        _guard(batch, 1, data, _message_rows, info, 1, decoded, batch)
    return batch


def _guard(batch: Batch, line_no: int, raw: bytes, work: Any, *args: Any) -> None:
    """work(*args), a BadLine it raises made a problem of the record at `line_no`."""
    try:
        work(*args)
    except BadLine as e:
        batch.problems.append(Problem(line_no, str(e), line_head(raw)))


def _json_object(
    raw: bytes, line_no: int, batch: Batch, name: str | None = None
) -> dict[str, Any] | None:
    """`raw` decoded, or None with a problem when it is not a JSON object."""
    where = f"part {name}: " if name else ""
    try:
        value = _decode(raw)
    except msgspec.DecodeError as e:
        fixed = lines.repaired(e, raw)
        if fixed is not None:
            return _json_object(fixed, line_no, batch, name)
        batch.problems.append(Problem(line_no, where + lines.bad_json(e, raw), line_head(raw)))
        return None
    except RecursionError:
        batch.problems.append(Problem(line_no, where + "JSON nested too deeply", line_head(raw)))
        return None
    if not isinstance(value, dict):
        kind = type(value).__name__
        batch.problems.append(
            Problem(line_no, f"{where}JSON {kind}, not an object", line_head(raw))
        )
        return None
    return value


def _session_meta(info: dict[str, Any], line_no: int, batch: Batch, worktree: Any = None) -> None:
    session_id = _str(info.get("id"))
    if session_id is None:
        raise BadLine("session without an id")
    title = _str(info.get("title"))
    if title and _DEFAULT_TITLE.match(title):
        title = None
    for key, value in (
        ("cwd", _str(info.get("directory")) or _str(worktree)),
        ("cli_version", _str(info.get("version"))),
        ("ai_title", title),
        ("parent_session_id", _str(info.get("parentID"))),
    ):
        if value:
            batch.meta.append(SessionMeta(session_id, line_no, key, value))


def _message_rows(
    info: dict[str, Any],
    line_no: int,
    parts: list[tuple[int, dict[str, Any]]],
    batch: Batch,
) -> None:
    """The rows of one opencode message and its parts (the JSON and the SQLite readers')."""
    message_id = _str(info.get("id"))
    session_id = _str(info.get("sessionID"))
    if message_id is None or session_id is None:
        raise BadLine("message without an id or sessionID")
    role = info.get("role")
    if role not in ("user", "assistant"):
        batch.skipped += 1 + len(parts)
        return
    time = _obj(info.get("time"))
    created = _iso(time.get("created"))
    path = _obj(info.get("path"))
    cwd = _str(path.get("cwd"))
    model = _str(info.get("modelID"))
    if model is None and isinstance(info.get("model"), dict):
        model = _str(info["model"].get("modelID"))
    summary = role == "assistant" and info.get("summary") is True
    env = _Envelope(session_id, message_id, model, cwd)
    for part_line, part in parts:
        try:
            _part_rows(part, part_line, role, summary, created, env, batch)
        except BadLine as e:
            name = _str(part.get("id")) or "?"
            batch.problems.append(Problem(part_line, f"part {name}: {e}", ""))
    error = info.get("error")
    if role == "assistant" and isinstance(error, dict):
        ended = _iso(time.get("completed")) or created
        batch.messages.append(
            env.row(
                message_id,
                line_no,
                "system",
                "error",
                ended,
                _error_text(error),
                parent=_str(info.get("parentID")),
            )
        )


class _Envelope:
    """What every row of one opencode message shares."""

    def __init__(self, session_id: str, message_id: str, model: str | None, cwd: str | None):
        self.session_id = session_id
        self.message_id = message_id
        self.model = model
        self.cwd = cwd

    def row(
        self,
        uuid: str,
        line_no: int,
        type_: str,
        kind: str,
        timestamp: str | None,
        text: str,
        *,
        meta: int = 0,
        compact: int = 0,
        parent: str | None = None,
    ) -> Message:
        return Message(
            uuid=uuid,
            session_id=self.session_id,
            line_no=line_no,
            parent_uuid=parent or self.message_id,
            type=type_,
            kind=kind,
            timestamp=timestamp,
            text=text,
            is_sidechain=0,
            is_meta=meta,
            is_compact_summary=compact,
            agent_id=None,
            model=self.model if type_ == "assistant" else None,
            cwd=self.cwd,
            git_branch=None,
            version=None,
        )


def _part_rows(
    part: dict[str, Any],
    line_no: int,
    role: str,
    summary: bool,
    created: str | None,
    env: _Envelope,
    batch: Batch,
) -> None:
    part_id = _str(part.get("id"))
    if part_id is None:
        raise BadLine("part without an id")
    kind = part.get("type")
    time = _obj(part.get("time"))
    started = _iso(time.get("start")) or created
    if kind == "text":
        text = part.get("text")
        if not isinstance(text, str):
            raise BadLine("text part without a text string")
        meta = 1 if part.get("synthetic") is True else 0
        if role == "user":
            batch.messages.append(
                env.row(part_id, line_no, "user", "prompt", started, clean_text(text), meta=meta)
            )
        else:
            block = "compact_summary" if summary else "text"
            batch.messages.append(
                env.row(
                    part_id,
                    line_no,
                    "assistant",
                    block,
                    started,
                    clean_text(text),
                    meta=meta,
                    compact=1 if summary else 0,
                )
            )
    elif kind == "reasoning":
        text = part.get("text")
        if isinstance(text, str) and text.strip():
            batch.messages.append(
                env.row(part_id, line_no, "assistant", "thinking", started, clean_text(text))
            )
    elif kind == "tool":
        _tool_rows(part, part_id, line_no, created, env, batch)
    elif not isinstance(kind, str) or kind not in _BOOKKEEPING:
        batch.skipped += 1  # a part type of a newer opencode


def _tool_rows(
    part: dict[str, Any],
    part_id: str,
    line_no: int,
    created: str | None,
    env: _Envelope,
    batch: Batch,
) -> None:
    name = _str(part.get("tool"))
    state = part.get("state")
    if name is None or not isinstance(state, dict):
        raise BadLine("tool part without a tool name or state")
    args = state.get("input")
    if not isinstance(args, dict):
        args = {}
    time = _obj(state.get("time"))
    started = _iso(time.get("start")) or created
    call_row = env.row(part_id, line_no, "assistant", "tool_use", started, "")
    batch.messages.append(call_row)
    batch.tool_calls.append(
        ToolCall(
            tool_use_id=part_id,
            session_id=env.session_id,
            line_no=line_no,
            message_uuid=part_id,
            timestamp=started,
            name=name,
            command=_str(args.get("command")) if _role(name) == agents.SHELL else None,
            file_path=_file_path(name, args),
            description=_str(args.get("description")),
            input=msgspec.json.encode(canonical_input(args)).decode(),
            agent_id=None,
            is_sidechain=0,
        )
    )
    status = state.get("status")
    if status not in ("completed", "error"):
        return  # pending or running: a call without its result (yet)
    ended = _iso(time.get("end")) or started
    content, failed = tool_result(state, name)
    result_id = f"{part_id}:result"
    batch.messages.append(env.row(result_id, line_no, "user", "tool_result", ended, ""))
    content = clean_text(content)
    batch.tool_results.append(
        ToolResult(
            tool_use_id=part_id,
            session_id=env.session_id,
            line_no=line_no,
            message_uuid=result_id,
            timestamp=ended,
            is_error=1 if failed else 0,
            content=content,
            content_length=len(content),
        )
    )


def tool_result(state: dict[str, Any], tool: str) -> tuple[str, bool]:
    """A finished tool part's text as stored, and whether it failed (module docstring).

    What pastfix's plugin appended to a call's output (the past fix, which opencode
    stores with the output the model read) is left out: indexed, the next lookup would
    find pastfix's own words.
    """
    if state.get("status") == "error":
        error = state.get("error")
        return (error if isinstance(error, str) else _json_text(error)), True
    output = state.get("output")
    text = output if isinstance(output, str) else _json_text(output)
    recalled = text.rfind(RECALL_MARK)
    if recalled >= 0:
        text = text[:recalled].rstrip("\n") + "\n"
    metadata = state.get("metadata")
    code = metadata.get("exit") if isinstance(metadata, dict) else None
    if (
        _role(tool) == agents.SHELL
        and isinstance(code, int)
        and not isinstance(code, bool)
        and code != 0
    ):
        return f"Exit code {code}\n{text}".rstrip("\n"), True
    return text, False


def canonical_input(args: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments with the canonical keys (file_path, old_string, new_string) added
    beside opencode's camelCase ones, in each of a multiedit's edits too."""
    out = dict(args)
    for theirs, ours in _CANONICAL:
        if theirs in args and ours not in args:
            out[ours] = args[theirs]
    edits = args.get("edits")
    if isinstance(edits, list):
        out["edits"] = [canonical_input(e) if isinstance(e, dict) else e for e in edits]
    return out


def _file_path(name: str, args: dict[str, Any]) -> str | None:
    path = _str(args.get("filePath")) or _str(args.get("file_path"))
    if path is None and _role(name) == agents.SEARCH:
        path = _str(args.get("path"))
    if path is None and name in ("patch", "apply_patch"):
        patch = args.get("patchText") or args.get("patch") or args.get("input")
        found = records.PATCH_FILE.search(patch) if isinstance(patch, str) else None
        path = found.group(1) if found else None
    return path


def _role(tool: str) -> str | None:
    """What a tool does (its role in pastfix.agents: bash runs commands, edit, write,
    multiedit and the patch tools change files, read reads one, glob, grep and list
    look for files)."""
    return agents.AGENTS[AGENT].tools.get(tool)


def _error_text(error: dict[str, Any]) -> str:
    """`<name>: <message>` of a MessageV2 error ({"name", "data": {"message", ...}})."""
    name = _str(error.get("name")) or "Error"
    data = error.get("data")
    message = _str(data.get("message")) if isinstance(data, dict) else None
    return clean_text(f"{name}: {message}" if message else name)


def _iso(ms: Any) -> str | None:
    """Epoch milliseconds as ISO 8601 UTC text, as the other readers store timestamps."""
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        return None
    try:
        moment = datetime.fromtimestamp(ms / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _json_text(value: Any) -> str:
    if value is None:
        return ""
    try:
        return msgspec.json.encode(value).decode()
    except (TypeError, msgspec.EncodeError):
        return str(value)


def _obj(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


# -- the SQLite store ---------------------------------------------------------------


def read_database(path: Path) -> Batch:
    """The records of an opencode.db, read in place, read-only, with its WAL.

    Committed rows may sit only in the `-wal` (the corpus's v1.4 sample: a 4 KB .db and
    a 1.6 MB WAL), so the WAL must be read too, and a running opencode must never be
    disturbed: no file of the store written, no writer kept waiting (_open_store says
    how). It was copied with its WAL into $TMPDIR and the copy read: a store of a long
    history weighs gigabytes (opencode's `event` table, which pastfix does not read:
    anomalyco/opencode#33356, 2.5 to 13 GB), each copied on every change, and a file of
    any size named opencode.db was copied before SQLite found it no database. Now a file
    that does not begin with SQLite's header is refused before anything else is read.

    A database that cannot be read (not a database, malformed, changing during every
    read) raises OSError, as an unreadable file does: the build records the problem and
    keeps the rows of the last good read, and reads it again next time. A missing table
    (not an opencode store, or a newer layout) and a bad `data` column are problems of
    their own.
    """
    with lines.open_regular(path) as f:
        head = f.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:  # (an empty file is an empty database)
        raise OSError(0, "not an SQLite database (it lacks SQLite's header)", str(path))
    wal = Path(f"{path}-wal")
    for attempt in range(READ_TRIES):
        before = _stamps(path, wal)
        frames = _has_frames(before[1])
        batch = Batch()
        with _open_store(path, frames) as conn:
            # Text that is not UTF-8 is read with U+FFFD for its bad bytes: a row of it
            # would stop the query (sqlite3 raises), and every row after it would be lost.
            conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
            try:
                _read_tables(conn, batch)
            except sqlite3.DatabaseError as e:
                raise OSError(f"unreadable database: {e}") from e
        if frames or _stamps(path, wal) == before:
            return batch
        if attempt < READ_TRIES - 1:
            time.sleep(READ_PAUSE * 2**attempt)
    raise OSError(0, "unreadable database: it changed during every read", str(path))


@contextmanager
def _open_store(path: Path, frames: bool) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the store at `path` that writes none of its files.

    A plain read-only connection (`mode=ro`) still writes the -shm (its read marks; as
    root, a read-only -shm too: seen on ../shared/corpus/real) and makes a -wal and a
    -shm where there are none. So:

    - with WAL `frames` and a -shm (opencode running, or stopped without a checkpoint):
      `readonly_shm=1` opens the -shm read-only; SQLite then reads the WAL under a shared
      lock of the -shm, a snapshot no commit of a writer waits for (the -wal is opened
      read-write, as SQLite opens it for any connection, but a read-only one never
      writes it), or, when no process has the -shm open, with a wal-index of its own in
      memory;
    - without (no -wal, or an empty one: a store opencode closed, which checkpointed
      it): `immutable=1` reads the .db alone, with no lock and no file made beside it;
      an opencode starting meanwhile could change it under the read, so read_database
      compares its stat and head before and after, and reads it again;
    - WAL frames but no -shm (a store copied without it, so no process has it open):
      SQLite would make a -shm beside it, so the .db and its -wal are copied into a
      temporary folder and the copy read, as long as both together are no larger than
      a file read whole may be (lines.MAX_WHOLE_BYTES): never an unbounded copy.
    """
    conn: sqlite3.Connection | None = None
    uri = path.absolute().as_uri()
    try:
        if not frames:
            conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)
        elif Path(f"{path}-shm").exists():
            conn = sqlite3.connect(f"{uri}?mode=ro&readonly_shm=1", uri=True, timeout=1)
        else:
            with _copied(path) as copy:
                conn = sqlite3.connect(copy)
                yield conn
                return
        yield conn
    except sqlite3.DatabaseError as e:  # (cannot open)
        raise OSError(f"unreadable database: {e}") from e
    finally:
        if conn is not None:
            conn.close()


@contextmanager
def _copied(path: Path) -> Iterator[Path]:
    """A copy of the store at `path` and its -wal, in a temporary folder (_open_store)."""
    # Imported here: every build asks this module whether its sources are opencode's
    # store (holds), and loading them was ~12M instructions (~4 ms) of each refresh of
    # another agent's transcripts.
    import shutil
    import tempfile

    wal = Path(f"{path}-wal")
    size = sum(st[0] for st in _stamps(path, wal) if st is not None)
    if size > lines.MAX_WHOLE_BYTES:
        raise OSError(
            0,
            f"unreadable database: its -wal has no -shm beside it, and the two ({size:,}"
            f" bytes) are more than the {lines.MAX_WHOLE_BYTES >> 20} MB a copy may be",
        )
    with tempfile.TemporaryDirectory(prefix="pastfix-opencode-") as scratch:
        copy = Path(scratch, "opencode.db")
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, f"{copy}-wal")
        yield copy


def _has_frames(stamp: tuple[int, int, bytes] | None) -> bool:
    """Whether a -wal's stamp (_stamps) says it holds anything (a WAL is empty, 0 bytes,
    after a truncating checkpoint, and absent once its last connection closed)."""
    return stamp is not None and stamp[0] > 0


def _stamps(*paths: Path) -> list[tuple[int, int, bytes] | None]:
    """Each file's size, mtime and first 32 bytes. A WAL's header holds its salts, which
    SQLite changes when a checkpoint restarts the WAL and overwrites it from the start: at
    the same size, and within one tick of the clock that stamps mtimes, only they tell."""
    found: list[tuple[int, int, bytes] | None] = []
    for p in paths:
        try:
            with lines.open_regular(p) as f:
                st = os.fstat(f.fileno())
                found.append((st.st_size, st.st_mtime_ns, f.read(32)))
        except OSError:
            found.append(None)
    return found


_SESSIONS_SQL = (
    "SELECT s.id, s.directory, s.title, s.version, s.parent_id, p.worktree"
    " FROM session s LEFT JOIN project p ON p.id = s.project_id ORDER BY s.id"
)
_MESSAGES_SQL = "SELECT id, session_id, data FROM message ORDER BY session_id, id"
_PARTS_SQL = "SELECT id, message_id, session_id, data FROM part ORDER BY message_id, id"


def _read_tables(conn: sqlite3.Connection, batch: Batch) -> None:
    """Sessions, then each message with its parts: numbered in that order, as the JSON
    tree's files are (a message, then its parts). A database without any table yet (a
    store opencode has just created) holds nothing, and that is no problem."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone() is None:
        return
    line_no = 0
    for sid, directory, title, version, parent, worktree in _rows(conn, _SESSIONS_SQL, batch):
        line_no += 1
        info = {"id": sid, "directory": directory, "title": title, "version": version}
        info["parentID"] = parent
        _guard(batch, line_no, b"", _session_meta, info, line_no, batch, worktree)
    parts: dict[str, list[tuple[str, str, Any]]] = {}
    for pid, mid, sid, data in _rows(conn, _PARTS_SQL, batch):
        parts.setdefault(mid, []).append((pid, sid, data))
    for mid, sid, data in _rows(conn, _MESSAGES_SQL, batch):
        line_no += 1
        first = line_no
        message = _row_json(data, line_no, batch, None)
        own: list[tuple[int, dict[str, Any]]] = []
        for pid, part_sid, part_data in parts.get(mid, ()):
            line_no += 1
            part = _row_json(part_data, line_no, batch, pid)
            if part is not None:
                part.update(id=pid, messageID=mid, sessionID=part_sid)
                own.append((line_no, part))
        if message is not None:
            message.update(id=mid, sessionID=sid)
            _guard(batch, first, b"", _message_rows, message, first, own, batch)
    batch.lines = line_no


def _rows(conn: sqlite3.Connection, sql: str, batch: Batch) -> list[Any]:
    """The rows of `sql`; none, with a problem, when its table or a column is missing."""
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.OperationalError as e:
        if not str(e).startswith(("no such table", "no such column")):
            raise
        table = sql.split(" FROM ")[1].split()[0]
        batch.problems.append(Problem(None, f"cannot read the {table} table: {e}", ""))
        return []


def _row_json(data: Any, line_no: int, batch: Batch, name: str | None) -> dict[str, Any] | None:
    """A `data` column decoded (`name`: the part's id; None for a message)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not isinstance(raw, bytes):
        where = f"part {name}: " if name else ""
        batch.problems.append(Problem(line_no, f"{where}data is not text", ""))
        return None
    return _json_object(raw, line_no, batch, name)


# -- the failure hook ---------------------------------------------------------------
#
# opencode has no command hooks: its plugins (JS modules in ~/.config/opencode/plugins/)
# get `tool.execute.after(input, output)` when a tool returns, and what the plugin leaves
# in `output.output` is what the model reads (opencode 1.18.33, tests/test_opencode_e2e.py).
# A tool that throws (state.status "error": a file not found, a rejection) never reaches
# it; a bash call that exited non-zero does, with `metadata.exit`. pastfix's plugin
# (pastfix/opencode_plugin.js, installed by `pastfix hook install --agent opencode`) sends
# such a call to `pastfix hook --agent opencode` as {tool, sessionID, callID, output,
# metadata} and appends what it prints to the output.


# How pastfix's plugin appends the hook's answer (hook.context starts with these words).
RECALL_MARK = "\n\npastfix: this error was seen before"


def hook_failure(event: dict[str, Any]) -> dict[str, Any] | None:
    """The failure in an event of pastfix's plugin, stored as a build stores it
    (`Exit code N` first), with its session; None when the call did not fail."""
    tool = _str(event.get("tool"))
    if tool is None:
        return None
    state = {
        "status": "completed",
        "output": event.get("output"),
        "metadata": event.get("metadata"),
    }
    text, failed = tool_result(state, tool)
    if not failed:
        return None
    return {"error": clean_text(text), "session_id": _str(event.get("sessionID"))}


def hook_output(context: str, event: dict[str, Any]) -> str:
    """What the plugin appends to the call's output for the model: the context itself."""
    return context
