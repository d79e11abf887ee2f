"""Read Gemini CLI's on-disk history into pastfix's records.

Gemini CLI keeps everything under `$GEMINI_CLI_HOME/.gemini` (~/.gemini), one folder
per project in `tmp/` (read from google-gemini/gemini-cli@5411f113ca; formats in
../shared/docs/other-agents-format.md):

    tmp/<project>/chats/session-<time>-<id8>.json    a whole ConversationRecord (v0.4-v0.38)
    tmp/<project>/chats/session-<time>-<id8>.jsonl   the same, as appended records (v0.39+)
    tmp/<project>/chats/<parent id>/<id>.jsonl       a subagent's session (v0.39+)
    tmp/<project>/checkpoint-<tag>.json              `/chat save <tag>`: Gemini API history
    tmp/<project>/logs.json                          the prompts typed, of every session

`<project>` is sha256(project root) up to v0.28 and a short slug after, named in
`projects.json` and `tmp/<slug>/.project_root`; Gemini's migration copies a hash folder
into its slug folder, so one session can be stored twice. Every file is read whole
(SourceFile.whole): the JSON ones are rewritten on each change, and in a JSONL file a
later copy of a message replaces the earlier one.

Sessions and ids. A chat file is the session of its `sessionId` (the UUID `gemini
--resume` takes). Messages are `<session>:<message id>`, tool calls
`<session>:<call id>`: both come from the file's content alone, so the two copies of a
migrated folder give the same ids and the build stores them once. A message record
gives up to three rows: its thoughts (kind thinking), its text or tool calls (text /
tool_use), and one tool_result row holding the results of its calls, which Gemini
stores inside the call (`toolCalls[].result`).

JSONL (v0.39+), read as Gemini's loadConversationRecord reads it: a metadata line, then
message records (the last copy of an id wins, at the place of its first), `{"$set":
{...}}` metadata updates (with `messages`: the conversation replaced), and
`{"$rewindTo": id}` (that message and all after it dropped). A message's line_no is
the line that placed it.

logs.json holds every prompt typed, also those of sessions that have a chat file. Its
prompts are indexed only for sessions without one in the folder's chats/ (matched on
the 8 characters of the session id in the file name), so no prompt is stored twice:
before v0.4 (July 2025) it is the only record of a session. The chats folder is a
companion of logs.json, so a chat file appearing re-reads it.

Checkpoints (`/chat save`) name no session: each is a session of its own,
`<project hash 8>-chat-<tag>` (the same in both copies of a folder), resumed inside
Gemini CLI with `/chat resume <tag>`. Its first user turn (the environment Gemini
injects) is is_meta; its calls are paired with their responses by id, else in order.
They carry no timestamps: the call ids do (`<tool>-<epoch ms>-<hex>`), and a
turn gets the time of the last call before it (the first call's, before any).

Failures. A tool call is a failure (is_error 1) when its `status` is "error" (its text:
`response.error`, what the model got), when it was cancelled or declined (status
"cancelled", `[Operation Cancelled] ...` first, then any partial output: harness noise
for pastfix.signatures), or when it is `run_shell_command` whose output reports an exit
code other than 0: Gemini calls that a success, Claude Code and Codex a failure, and
pastfix stores it as they do (`Exit code N` then the output). A checkpoint's call failed
when its `functionResponse.response` has an `error`.

Project. The sessions row's project (SessionMeta `cwd`) is the folder's
`.project_root`, else its slug's path in projects.json, else a path whose sha256 is the
project hash (the folder name or the record's `projectHash`): the projects.json paths,
the `directories` of the record, and the absolute paths the calls name and their
parents, hashed until one matches.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from pastfix import agents, lines, paths
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
)

AGENT = "gemini"
HOME_ENV = "GEMINI_CLI_HOME"
SHELL_TOOL = "run_shell_command"
# Folders below ~/.gemini that never hold a transcript: large tool outputs, plans,
# the git shadow repositories of /restore checkpoints (~/.gemini/history), extensions
# (tmp/bin, Gemini's own binaries, is told apart in _walk).
_SKIP_DIRS = frozenset(
    {
        "tool-outputs",
        "plans",
        "tracker",
        "tasks",
        "memory",
        "checkpoints",
        "shell_history",
        "history",
        "extensions",
        "commands",
        "skills",
        "policies",
        "agents",
        "node_modules",
        ".git",
    }
)
# How deep below a source folder files are looked for (~/.gemini/tmp/<p>/chats/<parent>/
# <id>.jsonl is 4 down; a copied home folder's, 5), and how many folders are listed at most.
MAX_DEPTH = 7
MAX_FOLDERS = 20_000
_HASH = lazy(r"^[0-9a-f]{64}$")
_SESSION_FILE = lazy(r"^session-.*-([0-9a-fA-F]{8})\.jsonl?$")
# The environment text Gemini puts in a checkpoint's first user turn.
_CONTEXT_START = "This is the Gemini CLI. We are setting up the context"
_WORKING_DIR = lazy(r"I'm currently working in the directory: ([^\n]+)")
# `replace-1761868186644-426de90441331` (older) or `read_file_1777122661073_0`: epoch ms.
_CALL_TIME = lazy(r"[-_](1[5-9]\d{11})(?:[-_]|$)")
# Paths in a call's arguments that can name the project or a file below it.
_PATH_ARGS = ("file_path", "absolute_path", "dir_path", "path", "directory")
# At most this many candidate folders are hashed to find a project's root.
MAX_HASHED = 2_000
# The lines Gemini's shell tool writes after a command's output (shell.ts): every
# version writes the exit code when it is not 0, older ones `Error: (none)` and the rest.
_SHELL_TRAILER = lazy(
    r"(?:Error: \(none\)|Exit Code: -?\d+|Signal: .*|Background PIDs: .*"
    r"|Process Group PGID: .*)$"
)
_EXIT_CODE = lazy(r"Exit Code: (-?\d+)$")
# An AfterTool hook's additionalContext, as Gemini appends it to a result.
_HOOK_CONTEXT = lazy(r"\n\n<hook_context>(?:(?!<hook_context>).)*</hook_context>\s*\Z", re.S)
_UNTRUSTED_OPEN = "<untrusted_context>\n"
_UNTRUSTED_CLOSE = "\n</untrusted_context>"
CANCELLED_PREFIX = "[Operation Cancelled]"
# What the shell tool says when the user stopped a command (the hook stays silent).
_SHELL_CANCELLED = ("Command was cancelled by user", "Command was automatically cancelled")


BadRecord = lines.BadLine


def _role(name: str) -> str | None:
    """What a Gemini tool does (pastfix.agents: edit, read, search, shell, web search)."""
    return agents.AGENTS[AGENT].tools.get(name)


def gemini_home() -> Path:
    """Gemini CLI's folder: $GEMINI_CLI_HOME/.gemini when that is set (its documented
    override of the home folder, paths.ts homedir()), else ~/.gemini."""
    home = os.environ.get(HOME_ENV)
    return Path(home) / ".gemini" if home else paths.home() / ".gemini"


def default_folders() -> list[Path]:
    return [gemini_home()]


def settings_file() -> Path:
    """Gemini CLI's user settings, where its hooks go: ~/.gemini/settings.json."""
    return gemini_home() / "settings.json"


# -- finding the files --------------------------------------------------------------


def _file_kind(path: Path) -> str | None:
    """Which of Gemini's files `path` is: logs, checkpoint, json, jsonl; None for others."""
    name = path.name
    if name == "logs.json":
        return "logs"
    if name.startswith("checkpoint-") and name.endswith(".json"):
        return "checkpoint"
    parent = path.parent.name
    if parent == "chats" and name.startswith("session-"):
        if name.endswith(".json"):
            return "json"
        if name.endswith(".jsonl"):
            return "jsonl"
    if path.parent.parent.name == "chats" and name.endswith(".jsonl"):
        return "jsonl"  # a subagent's session, in its parent session's folder
    return None


def positional_ids(path: str) -> bool:
    """A checkpoint's turns are `<session>:<line>` (its history names none of them)."""
    return _file_kind(Path(path)) == "checkpoint"


def _project_dir(path: Path, kind: str) -> Path:
    if kind in ("logs", "checkpoint"):
        return path.parent
    chats = path.parent if path.parent.name == "chats" else path.parent.parent
    return chats.parent


def _walk(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The files below `root` (bounded: MAX_DEPTH, MAX_FOLDERS) and the folders that
    could not be listed, with why."""
    files: list[str] = []
    problems: list[tuple[str, str]] = []
    level = [(str(root), 0)]
    listed = 0
    while level:
        folder, depth = level.pop()
        listed += 1
        if listed > MAX_FOLDERS:
            problems.append((folder, f"more than {MAX_FOLDERS} folders: the rest not read"))
            break
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as e:
            if folder != str(root) or root.exists():
                problems.append((folder, f"cannot list the folder: {e.strerror or e}"))
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    # A project folder (in tmp/) is named after its project's folder,
                    # which may be called `history` or `plans`: only tmp/bin is Gemini's.
                    in_tmp = os.path.basename(folder) == "tmp"
                    skip = entry.name == "bin" if in_tmp else entry.name in _SKIP_DIRS
                    if depth < MAX_DEPTH and not skip:
                        level.append((entry.path, depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    files.append(entry.path)
            except OSError:
                continue
    return files, problems


def iter_source_files(root: Path) -> Iterator[SourceFile]:
    """Every Gemini CLI history file below `root`, in path order, each read whole."""
    files, problems = _walk(root)
    found: list[tuple[str, str | None]] = [(p, None) for p in files]
    found += [(folder, why) for folder, why in problems]
    for path, problem in sorted(found):
        if problem:
            yield SourceFile(path, None, "", problem=problem, agent=AGENT)
            continue
        p = Path(path)
        kind = _file_kind(p)
        if kind is None:
            continue
        project = _project_dir(p, kind)
        companions: tuple[str, ...] = (str(project / "chats"),) if kind == "logs" else ()
        yield SourceFile(path, None, str(project), agent=AGENT, whole=True, companions=companions)


def holds(root: Path) -> bool:
    """Whether `root` is Gemini CLI's folder, its tmp/, one project folder of it, or a
    chats folder: told from a few names, without reading any file."""
    root = Path(root)
    # Not settings.json alone: ~/.claude has one too, and maybe a tmp/.
    if (root / "tmp").is_dir() and (
        root.name == ".gemini"
        or (root / "projects.json").is_file()
        or _holds_projects(root / "tmp")
    ):
        return True
    return _holds_projects(root) or _is_project(root) or _is_chats(root)


def _holds_projects(folder: Path) -> bool:
    try:
        with os.scandir(folder) as listing:
            children = sorted(e.path for e in listing if e.is_dir(follow_symlinks=False))
    except OSError:
        return False
    return any(_is_project(Path(c)) for c in children[:50])


def _is_project(folder: Path) -> bool:
    if (folder / "logs.json").is_file() or (folder / ".project_root").is_file():
        return True
    return _is_chats(folder / "chats")


def _is_chats(folder: Path) -> bool:
    if folder.name != "chats":
        return False
    try:
        with os.scandir(folder) as listing:
            return any(_SESSION_FILE.match(e.name) for e in listing)
    except OSError:
        return False


# -- the project ----------------------------------------------------------------------


def project_of_dir(project_dir: str) -> str | None:
    """The project root of a `tmp/<project>` folder, from .project_root or projects.json,
    or by its hash among the paths projects.json names."""
    if not project_dir:
        return None
    return project_root(Path(project_dir))


def project_root(
    project_dir: Path, project_hash: str | None = None, candidates: Iterable[str] = ()
) -> str | None:
    """The absolute project root a Gemini project folder stands for (see the module
    docstring), None when nothing tells it."""
    try:
        marked = lines.read_regular(project_dir / ".project_root").decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        marked = ""
    if marked:
        return marked
    registry = _projects_json(project_dir.parent.parent / "projects.json")
    for path, slug in registry.items():
        if slug == project_dir.name:
            return path
    wanted = project_dir.name if _HASH.match(project_dir.name) else project_hash
    if not isinstance(wanted, str) or not _HASH.match(wanted):
        return None
    hashed = 0
    seen: set[str] = set()
    for candidate in (*registry, *candidates):
        for folder in _ancestors(candidate):
            if folder in seen:
                continue
            seen.add(folder)
            hashed += 1
            if hashed > MAX_HASHED:
                return None
            if _sha256(folder) == wanted:
                return folder
    return None


def _projects_json(path: Path) -> dict[str, str]:
    try:
        value = msgspec.json.decode(lines.read_regular(path))
    except (OSError, msgspec.DecodeError, RecursionError):
        return {}
    projects = value.get("projects") if isinstance(value, dict) else None
    if not isinstance(projects, dict):
        return {}
    return {k: v for k, v in projects.items() if isinstance(v, str)}


def _ancestors(path: str) -> Iterator[str]:
    """An absolute path and each folder above it (POSIX or Windows form)."""
    if re.match(r"^[A-Za-z]:[\\/]", path):
        parts = re.split(r"[\\/]+", path.rstrip("\\/"))
        for i in range(len(parts), 1, -1):
            yield "\\".join(parts[:i])
        yield parts[0] + "\\"
    elif path.startswith("/"):
        parts = path.rstrip("/").split("/")
        for i in range(len(parts), 1, -1):
            yield "/".join(parts[:i])
        yield "/"


def _project_hash(project_dir: Path) -> str:
    """The sha256 of the folder's project root: its name in a hash folder, else computed
    from the root its marker names (so both copies of a migrated folder agree)."""
    if _HASH.match(project_dir.name):
        return project_dir.name
    root = project_root(project_dir)
    if root:
        return _sha256(root)
    return _sha256(project_dir.name)


def _sha256(text: str) -> str:
    # Imported here: every build asks this module whether its sources are Gemini CLI's
    # (holds), and hashlib loads OpenSSL's libcrypto (~12M instructions, ~4 ms).
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# -- reading the files ----------------------------------------------------------------


def parse_lines(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
    """Gemini CLI's files are all read whole (parse_file); no line reads reach here."""
    batch = Batch()
    if data:
        batch.problems.append(Problem(first_line_no, "Gemini CLI files are read whole", ""))
    return batch


def parse_file(source: SourceFile, data: bytes) -> Batch:
    """The records of one Gemini CLI file, read whole; bad input becomes problems."""
    path = Path(source.path)
    kind = _file_kind(path) or ("jsonl" if path.suffix == ".jsonl" else "json")
    project = Path(source.project_dir) if source.project_dir else path.parent
    batch = Batch()
    try:
        if kind == "logs":
            _parse_logs(data, project, batch)
        elif kind == "checkpoint":
            _parse_checkpoint(data, path, project, batch)
        elif kind == "jsonl":
            _parse_jsonl(data, project, batch)
        else:
            record = _decode(data, None, batch)
            if record is not None:
                _parse_record(record, None, project, batch)
    except RecursionError:
        batch.problems.append(Problem(None, "JSON nested too deeply", _excerpt(data)))
    return batch


def _excerpt(raw: bytes) -> str:
    return lines.excerpt(raw)


def _encoded(value: Any) -> bytes:
    try:
        return msgspec.json.encode(value)
    except (TypeError, OverflowError, RecursionError):
        return repr(value).encode("utf-8", "replace")


def _decode(raw: bytes, line_no: int | None, batch: Batch) -> Any:
    """JSON `raw` decoded, or None with a problem recorded (a lone surrogate escape, which
    JSON.stringify writes for a cut emoji, repaired first: pastfix.lines.repaired)."""
    if raw.startswith(lines.BOM):
        raw = raw[len(lines.BOM) :]
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as e:
        fixed = lines.repaired(e, raw)
        if fixed is not None:
            try:
                return msgspec.json.decode(fixed)
            except msgspec.DecodeError:
                pass
        batch.problems.append(Problem(line_no, lines.bad_json(e, raw), _excerpt(raw)))
        return None


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    if data.startswith(lines.BOM):
        data = data[len(lines.BOM) :]
    for line_no, raw in enumerate(data.split(b"\n"), 1):
        if raw.strip():
            yield line_no, raw


def _parse_jsonl(data: bytes, project: Path, batch: Batch) -> None:
    """A v0.39+ session: its records replayed as Gemini CLI replays them."""
    meta: dict[str, Any] = {}
    placed: dict[str, tuple[int, Any]] = {}
    saw_meta = False
    count = 0
    for line_no, raw in _lines(data):
        count = line_no
        record = _decode(raw, line_no, batch)
        if record is None:
            continue
        if not isinstance(record, dict):
            what = "a list" if isinstance(record, list) else "JSON " + type(record).__name__
            batch.problems.append(Problem(line_no, f"{what}, not an object", _excerpt(raw)))
            continue
        rewind = record.get("$rewindTo")
        update = record.get("$set")
        if isinstance(rewind, str):
            ids = list(placed)
            cut = ids.index(rewind) if rewind in placed else 0
            for gone in ids[cut:]:
                del placed[gone]
        elif isinstance(record.get("id"), str):
            old = placed.get(record["id"])
            placed[record["id"]] = (old[0] if old else line_no, record)
        elif isinstance(update, dict):
            messages = update.get("messages")
            if isinstance(messages, list):
                placed.clear()
                _place(messages, line_no, placed, batch)
            meta.update((k, v) for k, v in update.items() if k != "messages")
        elif isinstance(record.get("sessionId"), str) and isinstance(
            record.get("projectHash"), str
        ):
            saw_meta = True
            meta.update((k, v) for k, v in record.items() if k != "messages")
            if isinstance(record.get("messages"), list):
                _place(record["messages"], line_no, placed, batch)
        else:
            batch.skipped += 1
    batch.lines = count
    if not saw_meta:
        # Gemini CLI reads such a file as one legacy JSON record (parseLegacyRecordFallback).
        record = _decode(data, None, Batch())
        if isinstance(record, dict) and isinstance(record.get("sessionId"), str):
            batch.problems.clear()
            batch.skipped = 0
            _parse_record(record, None, project, batch)
            return
        batch.problems.append(Problem(None, "no session metadata line (sessionId)", ""))
        return
    entries = [(line_no, message) for line_no, message in placed.values()]
    _emit_session(meta, entries, project, batch)


def _place(
    messages: list[Any], line_no: int, placed: dict[str, tuple[int, Any]], batch: Batch
) -> None:
    for message in messages:
        if isinstance(message, dict) and isinstance(message.get("id"), str):
            placed[message["id"]] = (line_no, message)
        else:
            batch.problems.append(
                Problem(line_no, "message without a string id", _excerpt(_encoded(message)))
            )


def _parse_record(record: Any, line_no: int | None, project: Path, batch: Batch) -> None:
    """A ConversationRecord (a v0.4-v0.38 session file): its messages in order."""
    if not isinstance(record, dict):
        what = "a list" if isinstance(record, list) else "JSON " + type(record).__name__
        batch.problems.append(Problem(line_no, f"session file holds {what}, not an object", ""))
        return
    messages = record.get("messages")
    if not isinstance(messages, list):
        batch.problems.append(
            Problem(line_no, "session record without a messages list", _excerpt(_encoded(record)))
        )
        messages = []
    batch.lines = len(messages)
    _emit_session(record, list(enumerate(messages, 1)), project, batch)


def _emit_session(
    meta: dict[str, Any], entries: list[tuple[int, Any]], project: Path, batch: Batch
) -> None:
    session_id = meta.get("sessionId")
    if not isinstance(session_id, str) or not session_id:
        batch.problems.append(Problem(None, "session without a sessionId", ""))
        return
    candidates: list[str] = []
    for line_no, message in entries:
        try:
            _emit_message(session_id, line_no, message, batch, candidates)
        except BadRecord as e:
            batch.problems.append(Problem(line_no, str(e), _excerpt(_encoded(message))))
    directories = meta.get("directories")
    if isinstance(directories, list):
        candidates[:0] = [d for d in directories if isinstance(d, str)]
    project_hash = meta.get("projectHash")
    cwd = project_root(project, project_hash if isinstance(project_hash, str) else None, candidates)
    first = entries[0][0] if entries else 1
    if cwd:
        batch.meta.append(SessionMeta(session_id, first, "cwd", cwd))
    summary = meta.get("summary")
    if isinstance(summary, str) and summary.strip():
        batch.meta.append(SessionMeta(session_id, first, "ai_title", clean_text(summary.strip())))


def _message(
    uuid: str,
    session_id: str,
    line_no: int,
    type_: str,
    kind: str,
    timestamp: str | None,
    text: str,
    *,
    meta: int = 0,
    model: str | None = None,
) -> Message:
    return Message(
        uuid=uuid,
        session_id=session_id,
        line_no=line_no,
        parent_uuid=None,
        type=type_,
        kind=kind,
        timestamp=timestamp,
        text=clean_text(text),
        is_sidechain=0,
        is_meta=meta,
        is_compact_summary=0,
        agent_id=None,
        model=model,
        cwd=None,
        git_branch=None,
        version=None,
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _content_text(content: Any) -> str:
    """The text of a PartListUnion: a string, a Part, or a list of them."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    texts = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str) and not part.get("thought"):
                texts.append(part["text"])
            elif "inlineData" in part or "fileData" in part:
                texts.append("[image]")
    return "\n".join(texts)


def _only_responses(content: Any) -> bool:
    """Whether a user message's content is function responses only (no text typed)."""
    return (
        isinstance(content, list)
        and bool(content)
        and all(isinstance(p, dict) and "functionResponse" in p for p in content)
    )


def _is_context(text: str) -> bool:
    """Whether a user turn is the environment Gemini CLI injects, not a prompt typed."""
    head = text.lstrip()[:200]
    return head.startswith(_CONTEXT_START) or (
        head.startswith("<session_context>") and _CONTEXT_START in head
    )


def _emit_message(
    session_id: str, line_no: int, message: Any, batch: Batch, candidates: list[str]
) -> None:
    if not isinstance(message, dict):
        raise BadRecord("message is not an object")
    message_id = message.get("id")
    if not isinstance(message_id, str) or not message_id:
        raise BadRecord("message without a string id")
    kind = message.get("type")
    timestamp = _str(message.get("timestamp"))
    uuid = f"{session_id}:{message_id}"
    text = _content_text(message.get("content"))
    if kind == "user":
        content = message.get("content")
        if not text and _only_responses(content):
            return  # v0.5x: the results again, as the model got them (held by the calls)
        injected = _is_context(text)
        batch.messages.append(
            _message(
                uuid, session_id, line_no, "user", "prompt", timestamp, text, meta=int(injected)
            )
        )
        return
    if kind in ("info", "warning", "error"):
        batch.messages.append(
            _message(uuid, session_id, line_no, "system", kind, timestamp, text, meta=1)
        )
        return
    if kind != "gemini":
        batch.skipped += 1
        return
    model = _str(message.get("model"))
    thoughts = message.get("thoughts")
    if isinstance(thoughts, list):
        thinking = "\n\n".join(
            "\n".join(s for s in (_str(t.get("subject")), _str(t.get("description"))) if s)
            for t in thoughts
            if isinstance(t, dict)
        ).strip()
        if thinking:
            batch.messages.append(
                _message(
                    f"{uuid}:thinking",
                    session_id,
                    line_no,
                    "assistant",
                    "thinking",
                    timestamp,
                    thinking,
                    model=model,
                )
            )
    calls = message.get("toolCalls")
    if calls is not None and not isinstance(calls, list):
        raise BadRecord("toolCalls is not a list")
    calls = calls or []
    block = "text" if text.strip() or not calls else "tool_use"
    batch.messages.append(
        _message(uuid, session_id, line_no, "assistant", block, timestamp, text, model=model)
    )
    results_uuid = f"{uuid}:results"
    results: list[ToolResult] = []
    last = timestamp
    for call in calls:
        try:
            tool_call, result = _tool_call(session_id, line_no, uuid, results_uuid, call, timestamp)
        except BadRecord as e:
            batch.problems.append(Problem(line_no, str(e), _excerpt(_encoded(call))))
            continue
        batch.tool_calls.append(tool_call)
        args = call.get("args")
        if isinstance(args, dict):
            candidates.extend(a for k in _PATH_ARGS if isinstance(a := args.get(k), str))
        if result is not None:
            results.append(result)
            last = result.timestamp or last
    if results:
        batch.messages.append(
            _message(results_uuid, session_id, line_no, "user", "tool_result", last, "")
        )
        batch.tool_results.extend(results)


def tool_input(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments with the keys pastfix's diffs read (file_path, old_string,
    new_string, content) added beside Gemini's own when it names them otherwise."""
    out = dict(args)
    if _role(name) in ("edit", "read"):
        path = _first_str(args, ("file_path", "absolute_path", "path"))
        if path is not None:
            out.setdefault("file_path", path)
    if name == "replace":
        for key, alias in (("old_string", "old_content"), ("new_string", "new_content")):
            if key not in out and isinstance(args.get(alias), str):
                out[key] = args[alias]
    return out


def _first_str(args: dict[str, Any], keys: Iterable[str]) -> str | None:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _tool_call(
    session_id: str,
    line_no: int,
    message_uuid: str,
    results_uuid: str,
    call: Any,
    default_ts: str | None,
) -> tuple[ToolCall, ToolResult | None]:
    if not isinstance(call, dict):
        raise BadRecord("tool call is not an object")
    call_id = call.get("id")
    name = call.get("name")
    if not isinstance(call_id, str) or not call_id:
        raise BadRecord("tool call without a string id")
    if not isinstance(name, str) or not name:
        raise BadRecord("tool call without a name")
    args = call.get("args")
    if not isinstance(args, dict):
        args = {}
    timestamp = _str(call.get("timestamp")) or default_ts
    tool_use_id = f"{session_id}:{call_id}"
    tool_call = _make_call(tool_use_id, session_id, line_no, message_uuid, timestamp, name, args)
    status = call.get("status")
    if status not in ("success", "error", "cancelled"):
        return tool_call, None  # not finished when the file was written
    response, extra = _response(call.get("result"))
    if response is None and status == "error":
        display = call.get("resultDisplay")
        response = {"error": display if isinstance(display, str) else "error"}
    content, failed = result_text(name, status, response or {}, extra)
    result = ToolResult(
        tool_use_id=tool_use_id,
        session_id=session_id,
        line_no=line_no,
        message_uuid=results_uuid,
        timestamp=timestamp,
        is_error=1 if failed else 0,
        content=clean_text(content),
        content_length=len(content),
    )
    return tool_call, result


def _make_call(
    tool_use_id: str,
    session_id: str,
    line_no: int,
    message_uuid: str,
    timestamp: str | None,
    name: str,
    args: dict[str, Any],
) -> ToolCall:
    role = _role(name)
    command = _str(args.get("command")) if role == "shell" else None
    file_path = None
    if role in ("edit", "read"):
        file_path = _first_str(args, ("file_path", "absolute_path", "path"))
    elif role == "search":
        file_path = _first_str(args, ("dir_path", "path"))
    description = _str(args.get("description"))
    return ToolCall(
        tool_use_id=tool_use_id,
        session_id=session_id,
        line_no=line_no,
        message_uuid=message_uuid,
        timestamp=timestamp,
        name=name,
        command=command,
        file_path=file_path,
        description=description,
        input=_encoded(tool_input(name, args)).decode("utf-8", "replace"),
        agent_id=None,
        is_sidechain=0,
    )


def _response(result: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """The functionResponse.response of a call's result Parts, and the text of the others."""
    if isinstance(result, dict):
        result = [result]
    if not isinstance(result, list):
        return None, []
    response = None
    extra: list[str] = []
    for part in result:
        if not isinstance(part, dict):
            continue
        function = part.get("functionResponse")
        if response is None and isinstance(function, dict):
            found = function.get("response")
            response = found if isinstance(found, dict) else {"output": _content_text(found)}
        elif isinstance(part.get("text"), str):
            extra.append(part["text"])
        elif "inlineData" in part or "fileData" in part:
            extra.append("[image]")
    return response, extra


def result_text(
    name: str, status: Any, response: dict[str, Any], extra: Iterable[str] = ()
) -> tuple[str, bool]:
    """A call's result as stored, and whether it is a failure (see the module docstring)."""
    error = response.get("error")
    if isinstance(error, str) and (recall := RECALL.search(error)):
        error = error[: recall.start()]  # pastfix's own answer to the failure (hook_output)
    output = response.get("output")
    if not isinstance(output, str):
        rest = {k: v for k, v in response.items() if k != "error"}
        output = "" if not rest else _encoded(rest).decode("utf-8", "replace")
    output = "\n".join([output, *extra]) if extra else output
    if status == "cancelled" or (isinstance(error, str) and error):
        reason = error if isinstance(error, str) and error else f"{CANCELLED_PREFIX} cancelled"
        return (f"{reason}\n{output}" if output else reason), True
    if status == "error":
        return output or "error", True
    if name == SHELL_TOOL:
        body, code = shell_output(output)
        if code:
            return with_exit_code(code, body), True
        return body, False
    return output, False


def shell_output(text: str) -> tuple[str, int | None]:
    """The output of a run_shell_command result and the exit code it reports (None: none).

    Gemini writes `Output: <output>` then `Exit Code: N` (when not 0) and more lines
    (`Error`, `Signal`, `Process Group PGID`); versions before v0.2x begin with
    `Command: ...` and `Directory: ...`; newer ones wrap it all in <untrusted_context>.
    What AfterTool hooks appended (<hook_context>) is left out: pastfix's own recall
    would otherwise become part of the failure it recalls.
    """
    while True:  # what AfterTool hooks appended (pastfix's own recall among them)
        cut = _HOOK_CONTEXT.sub("", text)
        if cut == text:
            break
        text = cut
    if text.startswith(_UNTRUSTED_OPEN) and text.endswith(_UNTRUSTED_CLOSE):
        text = text[len(_UNTRUSTED_OPEN) : -len(_UNTRUSTED_CLOSE)]
    if text.startswith("Command: "):
        at = text.find("\nOutput: ")
        if at < 0:
            return text, None
        text = text[at + 1 :]
    if not text.startswith("Output: "):
        return text, None
    lines = text[len("Output: ") :].split("\n")
    code: int | None = 0
    while len(lines) > 1 and _SHELL_TRAILER.match(lines[-1]):
        found = _EXIT_CODE.match(lines.pop())
        if found:
            code = int(found.group(1))
    body = "\n".join(lines)
    return ("" if body == "(empty)" else body), code


def with_exit_code(code: int, body: str) -> str:
    """A failed command's output as stored: `Exit code N` first, as Claude Code's Bash has it."""
    return f"Exit code {code}\n{body}".rstrip("\n")


# -- logs.json ------------------------------------------------------------------------


def _chat_prefixes(project: Path) -> set[str]:
    """The 8-character session id prefixes of the chat files in a project folder."""
    prefixes: set[str] = set()
    try:
        with os.scandir(project / "chats") as listing:
            for entry in listing:
                found = _SESSION_FILE.match(entry.name)
                if found:
                    prefixes.add(found.group(1).lower())
                elif entry.is_dir(follow_symlinks=False):
                    prefixes.add(entry.name[:8].lower())  # a parent session's subagents
    except OSError:
        pass
    return prefixes


def _parse_logs(data: bytes, project: Path, batch: Batch) -> None:
    """logs.json: the prompts of the sessions that have no chat file (module docstring)."""
    entries = _decode(data, None, batch)
    if entries is None:
        return
    if not isinstance(entries, list):
        batch.problems.append(Problem(None, "logs.json does not hold a list", _excerpt(data)))
        return
    covered = _chat_prefixes(project)
    batch.lines = len(entries)
    sessions: dict[str, int] = {}
    used: set[str] = set()
    for line_no, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            batch.problems.append(
                Problem(line_no, "log entry is not an object", _excerpt(_encoded(entry)))
            )
            continue
        session_id = entry.get("sessionId")
        text = entry.get("message")
        if not isinstance(session_id, str) or not session_id or not isinstance(text, str):
            batch.problems.append(
                Problem(
                    line_no,
                    "log entry without a sessionId and message",
                    _excerpt(_encoded(entry)),
                )
            )
            continue
        if entry.get("type", "user") != "user":
            batch.skipped += 1
            continue
        if session_id[:8].lower() in covered:
            continue  # its chat file holds the prompt, and the rest
        message_id = entry.get("messageId")
        uuid = f"{session_id}:log:{message_id if isinstance(message_id, int) else line_no}"
        if uuid in used:
            uuid = f"{uuid}:{line_no}"
        used.add(uuid)
        sessions.setdefault(session_id, line_no)
        batch.messages.append(
            _message(
                uuid, session_id, line_no, "user", "prompt", _str(entry.get("timestamp")), text
            )
        )
    cwd = project_root(project, None, _checkpoint_dirs(project)) if sessions else None
    if cwd:
        for session_id, line_no in sessions.items():
            batch.meta.append(SessionMeta(session_id, line_no, "cwd", cwd))


# -- checkpoints ----------------------------------------------------------------------

# The working folder in a checkpoint's first turn, as it stands in the file's JSON.
_WORKING_DIR_JSON = lazy(rb"I'm currently working in the directory: ((?:[^\"\\]|\\.)*?)\\n")
CHECKPOINT_HEAD = 16 * 1024


def _checkpoint_dirs(project: Path) -> list[str]:
    """The working folders named at the head of a project folder's checkpoints: before
    v0.29 nothing else in a hash folder names its project (for logs.json)."""
    found: list[str] = []
    try:
        names = sorted(p for p in os.listdir(project) if p.startswith("checkpoint-"))
    except OSError:
        return found
    for name in names[:20]:
        try:
            with lines.open_regular(project / name) as f:
                head = f.read(CHECKPOINT_HEAD)
        except OSError:
            continue
        match = _WORKING_DIR_JSON.search(head)
        if match:
            try:
                found.append(msgspec.json.decode(b'"' + match.group(1) + b'"'))
            except msgspec.DecodeError:
                continue
    return found


def checkpoint_session(path: Path, project: Path) -> str:
    """The session id of a `/chat save` checkpoint: `<project hash 8>-chat-<tag>`."""
    tag = urllib.parse.unquote(path.name[len("checkpoint-") : -len(".json")])
    return f"{_project_hash(project)[:8]}-chat-{tag}"


def _call_time(call_id: Any) -> str | None:
    found = _CALL_TIME.search(call_id) if isinstance(call_id, str) else None
    if not found:
        return None
    ms = int(found.group(1))
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + (
        f"{ms % 1000:03d}Z"
    )


def _parse_checkpoint(data: bytes, path: Path, project: Path, batch: Batch) -> None:
    """A `/chat save` checkpoint: Content[] (or {"history": Content[]})."""
    value = _decode(data, None, batch)
    if value is None:
        return
    history = value.get("history") if isinstance(value, dict) else value
    if not isinstance(history, list):
        batch.problems.append(
            Problem(None, "checkpoint does not hold a history list", _excerpt(data))
        )
        return
    session_id = checkpoint_session(path, project)
    batch.lines = len(history)
    # Each call's time, from its id or its response's id; a turn gets the last one before it.
    times: list[str | None] = []
    for content in history:
        parts = content.get("parts") if isinstance(content, dict) else None
        found = None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict):
                for key in ("functionCall", "functionResponse"):
                    inner = part.get(key)
                    if isinstance(inner, dict):
                        found = found or _call_time(inner.get("id"))
        times.append(found)
    first = next((t for t in times if t), None)
    current = first
    pending: list[tuple[str | None, int]] = []
    candidates: list[str] = []
    context_seen = False
    for line_no, content in enumerate(history, 1):
        current = times[line_no - 1] or current
        try:
            context_seen = _checkpoint_turn(
                session_id, line_no, content, current, pending, batch, candidates, context_seen
            )
        except BadRecord as e:
            batch.problems.append(Problem(line_no, str(e), _excerpt(_encoded(content))))
    cwd = project_root(project, None, candidates)
    if cwd:
        batch.meta.append(SessionMeta(session_id, 1, "cwd", cwd))


def _checkpoint_turn(
    session_id: str,
    line_no: int,
    content: Any,
    timestamp: str | None,
    pending: list[tuple[str | None, int]],
    batch: Batch,
    candidates: list[str],
    context_seen: bool,
) -> bool:
    if not isinstance(content, dict):
        raise BadRecord("history entry is not an object")
    role = content.get("role")
    parts = content.get("parts")
    if not isinstance(parts, list):
        raise BadRecord("history entry without a parts list")
    uuid = f"{session_id}:{line_no}"
    plain = "\n".join(
        p["text"]
        for p in parts
        if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought")
    )
    thought = "\n".join(
        p["text"]
        for p in parts
        if isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("thought")
    )
    if role == "model":
        if thought.strip():
            batch.messages.append(
                _message(
                    f"{uuid}:thinking",
                    session_id,
                    line_no,
                    "assistant",
                    "thinking",
                    timestamp,
                    thought,
                )
            )
        calls = [
            p["functionCall"]
            for p in parts
            if isinstance(p, dict) and isinstance(p.get("functionCall"), dict)
        ]
        block = "text" if plain.strip() or not calls else "tool_use"
        batch.messages.append(
            _message(uuid, session_id, line_no, "assistant", block, timestamp, plain)
        )
        for j, call in enumerate(calls):
            name = call.get("name")
            if not isinstance(name, str) or not name:
                batch.problems.append(
                    Problem(line_no, "functionCall without a name", _excerpt(_encoded(call)))
                )
                continue
            args = call.get("args") if isinstance(call.get("args"), dict) else {}
            own_id = _str(call.get("id"))
            tool_use_id = f"{session_id}:{own_id or f'{line_no}.{j}'}"
            tool_call = _make_call(
                tool_use_id, session_id, line_no, uuid, _call_time(own_id) or timestamp, name, args
            )
            pending.append((own_id, len(batch.tool_calls)))
            batch.tool_calls.append(tool_call)
            candidates.extend(a for k in _PATH_ARGS if isinstance(a := args.get(k), str))
        return context_seen
    if role != "user":
        batch.skipped += 1
        return context_seen
    results = []
    for part in parts:
        function = part.get("functionResponse") if isinstance(part, dict) else None
        if not isinstance(function, dict):
            continue
        call = _pair(function, pending, batch)
        if call is None:
            batch.problems.append(
                Problem(
                    line_no,
                    "functionResponse without its functionCall",
                    _excerpt(_encoded(function)),
                )
            )
            continue
        response = function.get("response")
        response = response if isinstance(response, dict) else {"output": _content_text(response)}
        content_text, failed = result_text(call.name, "success", response)
        results.append(
            ToolResult(
                tool_use_id=call.tool_use_id,
                session_id=session_id,
                line_no=line_no,
                message_uuid=uuid,
                timestamp=call.timestamp,
                is_error=1 if failed else 0,
                content=clean_text(content_text),
                content_length=len(content_text),
            )
        )
    if results:
        batch.messages.append(
            _message(uuid, session_id, line_no, "user", "tool_result", timestamp, "")
        )
        batch.tool_results.extend(results)
        return context_seen
    injected = not context_seen and _is_context(plain)
    if injected:
        found = _WORKING_DIR.search(plain)
        if found:
            candidates.insert(0, found.group(1).strip())
    batch.messages.append(
        _message(
            uuid, session_id, line_no, "user", "prompt", timestamp, plain, meta=1 if injected else 0
        )
    )
    return True


def _pair(
    function: dict[str, Any], pending: list[tuple[str | None, int]], batch: Batch
) -> ToolCall | None:
    """The waiting call a functionResponse answers (and removes from `pending`): the one
    of its id, else the first of its name, else the first. Older checkpoints give a call
    no id: it then takes its response's (the id Gemini gave the call) and that id's time."""
    response_id = _str(function.get("id"))
    name = function.get("name")
    for wanted in ("id", "name", "any"):
        for i, (own, at) in enumerate(pending):
            call = batch.tool_calls[at]
            if (
                (wanted == "id" and own is not None and own == response_id)
                or (wanted == "name" and own is None and call.name == name)
                or (wanted == "any" and own is None)
            ):
                del pending[i]
                if own is None and response_id:
                    call = call._replace(
                        tool_use_id=f"{call.session_id}:{response_id}",
                        timestamp=_call_time(response_id) or call.timestamp,
                    )
                    batch.tool_calls[at] = call
                return call
    return None


# -- the failure hook ---------------------------------------------------------------
#
# Gemini CLI's AfterTool event (docs/hooks/reference.md; coreToolHookTriggers.ts
# executeToolWithHooks) runs after every tool that ran, with `tool_response`:
# {llmContent, returnDisplay, error?: {message, type}}. A failed call has `error`;
# its message is what the build stores for it (response.error). A shell command
# that exits non-zero has no error: its llmContent says `Exit Code: N`. Calls that
# never ran (refused by policy, unknown tool, bad arguments, declined by the user)
# get no AfterTool event. Gemini appends `hookSpecificOutput.additionalContext` to
# the result the model gets, inside <hook_context>, with < and > escaped, but only to a
# result without `error`: for a failed call it sends `{"error": message}` alone, and the
# context is lost. There the answer is `decision: "deny"` with a `reason`, which Gemini
# sends in place of the error message (and shows as "Tool result blocked: ..."): the
# error message first, then the recall. The session file records that reason as the
# call's error; the reader drops the recall from it (RECALL). All checked with Gemini
# CLI 0.61.0 (tests/test_gemini_e2e.py).
AFTER_TOOL = "AfterTool"
# The recall pastfix.hook.context() writes, after a failed call's own error text.
RECALL = lazy(r"\n\npastfix: this error was seen before, \d+ times? in \d+ other session")


def hook_failure(event: dict[str, Any]) -> dict[str, Any] | None:
    """{"error": text, "session_id": id} for an AfterTool event of a failed call, the
    error as a build stores it; None for a success, a cancelled call, any other event."""
    if event.get("hook_event_name") != AFTER_TOOL:
        return None
    response = event.get("tool_response")
    if not isinstance(response, dict):
        return None
    name = event.get("tool_name")
    error = response.get("error")
    text: str | None = None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        text = error["message"]
    elif isinstance(error, str):
        text = error
    else:
        content = response.get("llmContent")
        output = content if isinstance(content, str) else _content_text(content)
        if name == SHELL_TOOL and not output.lstrip().startswith(_SHELL_CANCELLED):
            body, code = shell_output(output)
            if code:
                text = with_exit_code(code, body)
    if not text or not text.strip() or text.startswith(CANCELLED_PREFIX):
        return None
    session_id = event.get("session_id")
    return {"error": clean_text(text), "session_id": session_id}


def hook_output(context: str, event: dict[str, Any]) -> str:
    """The AfterTool answer that gives the model `context` beside the failed result:
    additionalContext for a result Gemini sends as it is (a shell command's exit code),
    the error message and `context` as the reason of a "deny" for a failed call."""
    response = event.get("tool_response")
    error = response.get("error") if isinstance(response, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    if isinstance(message, str) and message.strip():
        answer: dict[str, Any] = {"decision": "deny", "reason": f"{message}\n\n{context}"}
    else:
        answer = {"hookSpecificOutput": {"hookEventName": AFTER_TOOL, "additionalContext": context}}
    return msgspec.json.encode(answer).decode()
