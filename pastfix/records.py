"""The records every transcript reader produces, and what the build asks of a reader.

A reader (one module per agent, named in pastfix.agents) turns one agent's files
into these NamedTuples; pastfix.prepare and pastfix.build only ever see them,
whichever agent wrote the transcript. What every reader keeps to:

- Ids are unique across agents and the same on every read: an id another agent
  could also produce is prefixed with its session id. The same session stored
  twice (a copy in another folder) gives the same ids, and is stored once.
- `Message.type` is "user", "assistant" or "system"; `kind` is "prompt" (what the
  person typed), "text" (a reply), "thinking", "tool_use" / "tool_result" (rows
  without text that place a call and its result in the conversation), "error" (an
  error the harness or the model's API reported), "compact_summary" or
  "agent_message" (a message from another agent: Codex's subagents), or a
  Claude Code kind (see pastfix.transcripts). `is_meta` marks text the agent
  injected rather than the person typed.
- `ToolCall.command` is a shell tool's command, `file_path` the file a file tool
  works on, `input` the arguments as JSON text; an edit tool's input carries
  `file_path`, `old_string` and `new_string` (or `content`, for a whole file)
  beside the agent's own keys, which the diffs of pages and cards read.
- `ToolResult.is_error` marks a failed call, `content` the text the model got.
  Cancelled, rejected or denied calls are failures too; pastfix.signatures tells
  them apart as noise by their wording.
- `SessionMeta` keys the sessions row reads (pastfix.db.REFRESH_SESSIONS_SQL):
  `cwd` (the project folder), `git_branch`, `cli_version`, `custom_title` (given by
  the person), `ai_title` (generated), `summary` (with its `leaf_uuid`).
- Bad input is a `Problem` (pastfix.lines has the shared ladder); nothing raises.

`TABLES` says how each record is stored: its table, columns and key, and which of
its texts are redacted and cut. The build's writes and prepare() are derived from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from pastfix.patterns import lazy

# Text longer than this keeps its head and tail with a marker between them.
# Claude Code itself truncates Bash output at 30,000 characters and refuses
# reads over 256 KB, so nothing a person saw in a session is cut; only odd
# outliers (huge MCP payloads, pasted logs) lose their middle.
MAX_TEXT = 200_000
TEXT_HEAD = 150_000
TEXT_TAIL = MAX_TEXT - TEXT_HEAD
# A bad line is kept as this many characters of it (problems.excerpt)...
EXCERPT_CHARS = 200
# ...cut from its redacted head of this many bytes: a secret that starts in the
# excerpt and ends within this is redacted whole before the cut.
EXCERPT_SOURCE_BYTES = 64 * 1024

# A file whose every session `pastfix forget` removed while the file is still on disk keeps
# its row, so that an incremental build does not index it again, but not its name: its
# `path` becomes this prefix and a hash of the path (build.forgotten_key), its `session_id` and
# `project_dir` NULL. What the row holds of the file is its size, time, inode, line count
# and hashes of its bytes; a build finds it by hashing the path of each file it did not
# store (an incremental build's new files only). No stored path starts so: every one is
# absolute.
FORGOTTEN = "forgotten:"

# The files an apply_patch patch changes, as Codex's patches name them (Copilot's and
# opencode's are of the same form); a patch call's file_path is the first.
PATCH_FILE = lazy(r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$", re.MULTILINE)

# CSI sequences (colours), OSC sequences whole (an OSC 8 hyperlink
# `ESC ]8;;URL ESC \`, whose `8;;` left behind would glue itself to the text
# before it, an AWS key id for one), then any other two-character escape.
_ANSI = lazy(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


class Message(NamedTuple):
    uuid: str
    session_id: str
    line_no: int
    parent_uuid: str | None
    type: str
    kind: str | None
    timestamp: str | None
    text: str
    # Claude Code's, mostly: another agent's reader may leave them out.
    is_sidechain: int = 0
    is_meta: int = 0
    is_compact_summary: int = 0
    agent_id: str | None = None
    model: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    version: str | None = None


class ToolCall(NamedTuple):
    tool_use_id: str
    session_id: str
    line_no: int
    message_uuid: str
    timestamp: str | None
    name: str
    command: str | None
    file_path: str | None
    description: str | None
    input: str
    agent_id: str | None = None
    is_sidechain: int = 0


class ToolResult(NamedTuple):
    tool_use_id: str
    session_id: str
    line_no: int
    message_uuid: str
    timestamp: str | None
    is_error: int
    content: str
    content_length: int
    # Filled in for failures by pastfix.prepare, after parsing (see pastfix.signatures).
    signature: str | None = None
    kind: str | None = None


class SessionMeta(NamedTuple):
    session_id: str
    line_no: int
    key: str
    value: str
    # A summary names the session holding this message, which in 1.0.x is
    # often an earlier session than the file the summary line sits in.
    leaf_uuid: str | None = None


class Problem(NamedTuple):
    line_no: int | None
    reason: str
    excerpt: str


class Redaction(NamedTuple):
    """Secrets of one kind replaced in one column of one row (see pastfix.redact)."""

    table_name: str
    # The row's natural key: messages.uuid, tool_use_id, or the session id of a
    # session_meta row; None for a problem (its line_no says which).
    row_key: str | None
    line_no: int | None
    column_name: str
    kind: str
    occurrences: int  # stored as redactions.count


class PersistedOutput(NamedTuple):
    """A tool result whose full text the agent stored in a file beside the transcript.

    Claude Code keeps a large result as `<persisted-output>` (a line naming the file
    and a 2 KB preview of its head) and writes the whole text to
    `<project>/<session>/tool-results/<name>`; the reader indexes that text in place
    of the marker (pastfix.transcripts.read_persisted_outputs). `size`, `mtime_ns`
    and `ctime_ns` are the file's when it was read, None when it was not found,
    so that a build sees it appear or change; `problem` says why its text was
    not used.
    """

    session_id: str
    tool_use_id: str
    path: str
    size: int | None
    mtime_ns: int | None
    ctime_ns: int | None
    problem: str | None


@dataclass
class Batch:
    """The records parsed from a run of complete lines of one file."""

    messages: list[Message] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    meta: list[SessionMeta] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Filled in by pastfix.prepare.
    redactions: list[Redaction] = field(default_factory=list)
    lines: int = 0
    skipped: int = 0

    @property
    def session_ids(self) -> set[str]:
        ids = {m.session_id for m in self.messages}
        ids.update(m.session_id for m in self.meta)
        ids.update(r.session_id for r in self.tool_results)
        return ids


@dataclass(frozen=True)
class SourceFile:
    """A transcript file and what its location says about it."""

    path: str
    # The session the file belongs to when its lines do not say (None for the
    # 2.0.x agent-<id>.jsonl layout, whose lines always carry sessionId). A
    # read from a stored offset gets it too, so it is all the per-file context
    # a reader may rely on beyond the lines it is given.
    session_id: str | None
    project_dir: str
    # Set when `path` is a folder that could not be read: the build records the
    # problem and keeps the rows of the files it held.
    problem: str | None = None
    # Which agent wrote it: its name in pastfix.agents.AGENTS.
    agent: str = "claude"
    # Read whole (Reader.parse_file) rather than as lines from an offset: a JSON
    # document the agent rewrites, JSONL whose later records replace earlier
    # ones, a database. Any change re-reads it whole, its old rows retracted.
    whole: bool = False
    # Files whose changes are changes of this one (a database's -wal).
    companions: tuple[str, ...] = ()
    # A database its reader opens itself, read-only (parse_file gets no bytes): the build
    # neither holds it in memory nor bounds its size, only streams it for its CRC.
    database: bool = False


class Reader(Protocol):
    """What the build needs from a transcript format (one module per agent).

    `parse_lines` gets complete lines, from the start of a file or from where
    the last build stopped, and the `session_id` of the file's SourceFile; it
    keeps no state between calls, so a build that reads on from an offset
    stores what a fresh one would. A reader whose lines lean on earlier ones (a
    Codex poll names the command an earlier call started) has, beside it,
    `reads_on(f, offset, session_id)`: a parse_lines for every run of one read of
    the open file `f` from `offset` on, that carries what the lines before each run
    leave, those before `offset` (which it reads again) included. `parse_file`
    gets a `whole` file's bytes, at most lines.MAX_WHOLE_BYTES (a reader of
    databases, `source.database`, gets none and opens `source.path` itself,
    read-only).
    `default_folders` are where the agent keeps its sessions (existing or
    not), `holds` whether a folder is such a store (cheap: it runs for every
    --source).
    """

    def iter_source_files(self, root: Path) -> Iterator[SourceFile]: ...

    def parse_lines(
        self, data: bytes, *, first_line_no: int, default_session_id: str | None
    ) -> Batch: ...

    def parse_file(self, source: SourceFile, data: bytes) -> Batch: ...

    def default_folders(self) -> list[Path]: ...

    def holds(self, root: Path) -> bool: ...


def cap_text(text: str) -> str:
    """Keep the head and tail of very long text, marking what was left out.

    Applied by pastfix.prepare after redaction: a cut made first would keep
    half of a secret that spans it, too short for its rule to recognise.
    """
    if len(text) <= MAX_TEXT:
        return text
    omitted = len(text) - MAX_TEXT
    marker = f"[... pastfix: {omitted:,} characters omitted ...]"
    return f"{text[:TEXT_HEAD]}\n{marker}\n{text[-TEXT_TAIL:]}"


def cut_excerpt(text: str) -> str:
    """A problem's excerpt: the start of its line (see EXCERPT_CHARS)."""
    return text[:EXCERPT_CHARS]


def line_head(line: bytes) -> str:
    """The head of a bad line a reader keeps for its excerpt, cut by pastfix.prepare."""
    return line[:EXCERPT_SOURCE_BYTES].decode("utf-8", "replace")


# A session id that is one plain name: no option (`-...`), path (`/`, `..`), space, quote or
# shell character. A transcript names its own session, so only such an id is given to a
# command (agents.resume_command) or taken for a folder (transcripts.read_persisted_outputs).
_PLAIN_ID = lazy(r"[A-Za-z0-9][\w.-]{0,199}")


def plain_id(session_id: str) -> bool:
    """Whether `session_id` is one plain name (see _PLAIN_ID)."""
    return bool(_PLAIN_ID.fullmatch(session_id))


def clean_text(text: str) -> str:
    """Text without ANSI escapes and NUL characters (pastfix.prepare caps it, after
    redaction). A NUL shows nothing, and a tool's UTF-16 output read as UTF-8 has one after
    each character (`M\0i\0c\0r\0o\0...` of cmd.exe's banner): without them it reads."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\x00" in text:
        text = text.replace("\x00", "")
    return text


# What UTF-8 cannot hold, and SQLite refuses to bind: a byte of another encoding read from
# the command line or a pipe (Python's surrogate escape), half an emoji in JSON ("\ud83d")
# that a parser other than msgspec decodes (the standard library's json, YAML's "\ud800").
_SURROGATES = lazy("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """`text` with each surrogate made U+FFFD, as a line's lone surrogate escapes are
    (pastfix.lines.repaired): stored text is UTF-8."""
    return _SURROGATES.sub("\ufffd", text)


# Every escape sequence of a JSON line; \uXXXX ones with their code.
_ESCAPE = lazy(rb"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def without_lone_surrogates(raw: bytes) -> bytes:
    """`raw` (JSON) with its lone surrogate escapes made \\uFFFD, as pastfix.lines.repaired()
    does, for a reader whose parser would refuse the whole of it instead of saying why."""
    return replace_lone_surrogates(raw) if _LONE_SURROGATE.search(raw) else raw


_LONE_SURROGATE = lazy(rb"\\u[dD][89a-fA-F]")


def replace_lone_surrogates(line: bytes) -> bytes:
    """`line` with every \\uD800-\\uDFFF escape that is not half of a pair made \\uFFFD."""
    escapes = list(_ESCAPE.finditer(line))
    out: list[bytes] = []
    done = 0
    i = 0
    while i < len(escapes):
        m = escapes[i]
        code = int(m.group(1), 16) if m.group(1) else 0
        if 0xD800 <= code <= 0xDBFF and i + 1 < len(escapes):
            after = escapes[i + 1]
            low = int(after.group(1), 16) if after.group(1) else 0
            if after.start() == m.end() and 0xDC00 <= low <= 0xDFFF:
                i += 2  # a proper pair
                continue
        if 0xD800 <= code <= 0xDFFF:
            out += (line[done : m.start()], b"\\ufffd")
            done = m.end()
        i += 1
    out.append(line[done:])
    return b"".join(out)


class Table(NamedTuple):
    """How the rows of one table of the index are written: the write path's one spec.

    Derived from TABLES: pastfix.db's INSERT statements and lists of tables, the
    tables pastfix.build clears a file's rows from and checks for duplicates in,
    those pastfix.shard copies from a bulk build's helper, and the texts
    pastfix.prepare redacts and cuts. A new column is a migration and a field of
    its record; a new table, a migration and a row here.
    """

    name: str
    # The NamedTuple of its rows, and Batch's list of them (None: not a reader's).
    record: type[tuple[Any, ...]]
    batch_field: str | None
    # The stored columns after file_id, in the order a row binds them: the record's
    # fields, with what the build adds or names otherwise.
    columns: tuple[str, ...]
    # The field that names a row in a redaction record (None: its line_no does).
    key: str | None
    # Whether `key` is unique: a row whose key the index holds is a duplicate (the same
    # session stored twice), ignored by the insert and linked to the file holding it.
    unique: bool = False
    # What an insert does with a row that breaks a unique key: SQL's conflict clause.
    on_conflict: str = ""
    # A session's rows (cleared, set aside and kept with its file), not what a build
    # recorded of a file's read.
    data: bool = False
    # The text fields redacted (pastfix.redact), in this order; of those, the ones
    # holding JSON text, and the ones whose value repeats on every line of a session
    # (each distinct value redacted once).
    text: tuple[str, ...] = ()
    json: frozenset[str] = frozenset()
    repeated: frozenset[str] = frozenset()
    # Fields cut after redaction: the length over which each is cut, and how.
    cuts: tuple[tuple[str, int, Callable[[str], str]], ...] = ()

    @property
    def insert_sql(self) -> str:
        columns = ("file_id", *self.columns)
        verb = f"INSERT OR {self.on_conflict}" if self.on_conflict else "INSERT"
        return (
            f"{verb} INTO {self.name} ({', '.join(columns)})"
            f" VALUES ({','.join('?' * len(columns))})"
        )


TABLES = (
    Table(
        "messages",
        Message,
        "messages",
        Message._fields,
        key="uuid",
        unique=True,
        on_conflict="IGNORE",
        data=True,
        # cwd and git_branch feed sessions.project and sessions.git_branch; the model, the
        # agent's version and a subagent's id are as the transcript wrote them, and
        # redacted as every stored text is (a security tester found them kept, session 28);
        # so is its kind, which for a Claude Code `system` line is the line's `subtype` as
        # written (session 33)
        text=("text", "cwd", "git_branch", "model", "version", "agent_id", "kind"),
        repeated=frozenset({"cwd", "git_branch", "model", "version", "agent_id", "kind"}),
        cuts=(("text", MAX_TEXT, cap_text),),
    ),
    Table(
        "tool_calls",
        ToolCall,
        "tool_calls",
        ToolCall._fields,
        key="tool_use_id",
        unique=True,
        on_conflict="IGNORE",
        data=True,
        # (the name and agent id too: an MCP tool's name is `mcp__<server>__<tool>`, its
        # server named by you)
        text=("command", "file_path", "description", "input", "name", "agent_id"),
        json=frozenset({"input"}),
        repeated=frozenset({"name", "agent_id"}),
        cuts=(("input", MAX_TEXT, cap_text),),
    ),
    Table(
        "tool_results",
        ToolResult,
        "tool_results",
        ToolResult._fields,
        key="tool_use_id",
        unique=True,
        on_conflict="IGNORE",
        data=True,
        text=("content",),
        cuts=(("content", MAX_TEXT, cap_text),),
    ),
    Table(
        "session_meta",
        SessionMeta,
        "meta",
        SessionMeta._fields,
        key="session_id",
        data=True,
        text=("value",),
    ),
    # A problem is stored with the path of its file (a file that could not be read has
    # no file_id). Its reason may quote the line too (a malformed YAML's undefined
    # `*alias`, an event's type as written: session 35's third security round).
    Table(
        "problems",
        Problem,
        "problems",
        ("path", *Problem._fields),
        key=None,
        text=("reason", "excerpt"),
        cuts=(("excerpt", EXCERPT_CHARS, cut_excerpt),),
    ),
    # (`count` is a tuple's method: the record's field is `occurrences`)
    Table(
        "redactions",
        Redaction,
        "redactions",
        (*Redaction._fields[:-1], "count"),
        key=None,
    ),
    Table(
        "_persisted_outputs",
        PersistedOutput,
        None,
        PersistedOutput._fields,
        key=None,
        on_conflict="REPLACE",
    ),
)
TABLE = {table.name: table for table in TABLES}
