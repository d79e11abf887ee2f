"""Write transcripts into the index: a fresh build, its incremental refresh, and the
lock that makes builds of one index take turns (a bulk build's second process is
pastfix.shard)."""

from __future__ import annotations

import functools
import gc
import glob
import json
import os
import sqlite3
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from itertools import accumulate, repeat
from operator import add, attrgetter
from pathlib import Path
from sqlite3 import Connection
from stat import S_ISREG
from typing import Any, BinaryIO, NamedTuple
from urllib.parse import quote

import msgspec

from pastfix import agents, count, lines, transcripts
from pastfix.agents import WrongAgent
from pastfix.db import (
    BUSY_TIMEOUT,
    CACHE_KIB,
    DATA_TABLES,
    DEFAULT_TOKENIZER,
    FILE_TABLES,
    INSERT_SQL,
    PER_SESSION_INDEXES,
    SIGNATURE_VERSION,
    UNIQUE_KEYS,
    BuildError,
    add_tool_errors_fts,
    call_sessions,
    check_db_path,
    connect,
    fixes_current,
    parse_tokenizer,
    redact_setting,
    redaction_current,
    refresh_fixes,
    refresh_sessions,
    refresh_signatures,
    refresh_tool_errors_fts,
    reredact,
    set_state,
    set_tokenizer,
    signatures_current,
    state,
    stored_failures,
    stored_sessions,
    tokenizer_setting,
)
from pastfix.lines import TEXT_HEAD, not_text, read_whole
from pastfix.paths import lock_path
from pastfix.prepare import REDACTION_VERSION, Printing, prepare, printing_calls
from pastfix.records import (
    EXCERPT_SOURCE_BYTES,
    FORGOTTEN,
    TABLES,
    Batch,
    PersistedOutput,
    Problem,
    Reader,
    SourceFile,
    line_head,
)
from pastfix.shard import Shard, remove_side_files

# Files are read in slices of this size, so memory stays flat however large a
# transcript grows; each slice is cut at its last complete line.
CHUNK_BYTES = 16 * 1024 * 1024
# A line longer than this is not read; a problem says so. No transcript line comes near
# it (a pasted image is a few MB), and a file of one endless line (a sparse file, a
# dump) would otherwise be held whole in memory.
MAX_LINE_BYTES = 256 * 1024 * 1024
# The first bytes of a file, and the last before the offset reached, are
# hashed to tell an append from a rewrite; so is the whole prefix (prefix_crc).
HEAD_BYTES = 4096
TAIL_BYTES = 4096
# The prefix of a grown file is read in blocks of this size to check its CRC.
PREFIX_BLOCK_BYTES = 1024 * 1024
# An incremental build commits about this often: each file's rows, offset and
# sessions commit together, and a session spread over many changed files is
# recomputed once per commit rather than once per file.
GROUP_SECONDS = 0.5
# How many bytes of transcripts an incremental build with a time budget counts on reading
# a second (Builder._within_budget): half of what one reads on this 2-core machine
# (`hook --refresh` over a new 118 MB transcript took 1.39 s in all).
BUDGET_BYTES_PER_SECOND = 40_000_000
# What recomputing the fixes of a grown file's sessions costs, counted as bytes of reading at
# that rate: the rules read each failure's window again, ~1-1.7 ms a failed call of the
# session (`hook --refresh` after a 2-line append to a session of 1,000 failures took 1.9 s,
# 4,000 5.2 s: a security test, session 33).
FIX_BYTES_PER_FAILURE = 60_000
MAX_PROBLEM_EXAMPLES = 20


def forgotten_key(path: str) -> str:
    """The `source_files.path` of a forgotten file at `path` (see records.FORGOTTEN)."""
    from hashlib import sha256  # (only for a forget, or a build of an index that had one)

    return FORGOTTEN + sha256(path.encode("utf-8", "surrogateescape")).hexdigest()


# A bulk build this large is split between this process and a forked helper.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024
# The share of the bytes this process reads itself, the first files in path order; the
# helper reads the rest. This process computes its sessions and fixes before it copies the
# helper's rows, the helper its own after committing them (see Shard); then this process
# makes the full-text index while the helper ends. Counted in instructions (callgrind, each
# process on its own, 200 MB generated corpus): at 0.48 this process ended 1.0G after the
# helper; at 0.44 they end together (this process waits 0.08G for the helper's rows), and the
# longer of the two is 7.16G instead of 7.56G. (0.52 was the balance while the helper
# computed its sessions and fixes before its rows.)
OWN_SHARE = 0.44


# A build waiting for another build of the same index (build_lock) says so after
# this long, and looks again this often.
WAIT_NOTICE_SECONDS = 1.0
LOCK_POLL_SECONDS = 0.05


# The tables a batch's rows are inserted in, by their Batch field (_insert_rows).
_BATCH_DATA = {t.name: t.batch_field for t in TABLES if t.data and t.batch_field is not None}


# The rows of a file read again from its start (rewritten, shrunk, or read whole) are set
# aside first, with those of its kept copies (`<path>#<session id>`); once the new content
# is stored, those it does not hold go back under the kept copy of their session
# (Builder._set_aside, _keep_cut_rows): the index is the archive. A row is held when the
# index has its identity again: the same unique key, or for a message with text also the
# same text of the same kind in the same session (Codex and Gemini checkpoints number
# messages by line, so a line cut from the middle gives its number to the next one and the
# last numbers fall free; Gemini's logs.json gives up a session's prompts to its chat file,
# under other ids; the rows without text that place a call or its result go by their key
# alone); a session_meta row, which has no key, when its session has the key again (a
# title or branch changed is replaced). Problems and persisted-output records describe
# lines of the file as it was: they go with the old read, as they did. A redaction
# record goes back with the row it is about.
ASIDE_TABLES = (*DATA_TABLES, "redactions")
# The time a message set aside and one the index holds are matched by, for a file whose ids
# number its lines (HELD_SQL).
TIME_KEYS = ("coalesce(x.timestamp, '')", "coalesce(timestamp, '')")
HELD_SQL: dict[str, Any] = {
    "messages": (
        "EXISTS (SELECT 1 FROM main.messages m WHERE m.uuid = _aside_messages.uuid)",
        # By text, counted: as many rows of a text as the index holds again, no more (a
        # rollout cut to its first five turns held its nine `continue` prompts by the
        # five left). Not Claude Code's: its uuid is the line's own, and a text it
        # repeats (`\n\n` seven times in one session of ../shared/corpus/real) is a
        # message each time. Those held by their key were counted out first
        # (_held_uuids), and of a file whose ids number its lines the rows the index has
        # again with the same id and text go first, then the oldest; and of such a file a
        # row is held by the same text at the same time only (a line shifted keeps its
        # time: a new turn that says `continue` again at a number a cut freed is another
        # message, not the one kept under that number). The rows a file held
        # before a read that sets only its kept copies aside (_reclaim) hold none: they were
        # beside those rows, not them (_read_before). Ephemeral indexes
        # of the sessions' messages: no index has the text.
        "rowid IN (SELECT a.rowid FROM ("
        " SELECT x.rowid, x.session_id, x.type, coalesce(x.kind, '') AS kind, x.text,"
        " {ts_x} AS ts, row_number() OVER (PARTITION BY x.session_id, x.type,"
        " coalesce(x.kind, ''), x.text, {ts_x}"
        " ORDER BY EXISTS (SELECT 1 FROM main.messages m WHERE m.uuid = x.uuid"
        " AND m.text = x.text) DESC, x.timestamp, x.line_no, x.rowid) AS n"
        " FROM _aside_messages x WHERE x.text > '' AND x.file_id IN (SELECT file_id"
        " FROM _aside_files WHERE agent != 'claude' AND positional = {positional})) a"
        " JOIN (SELECT session_id, type, coalesce(kind, '') AS kind, text, {ts_m} AS ts,"
        " count(*) AS held FROM main.messages WHERE text > ''"
        " AND session_id IN (SELECT session_id FROM _aside_messages)"
        " AND uuid NOT IN (SELECT uuid FROM _held_uuids)"
        " AND id NOT IN (SELECT id FROM _read_before) GROUP BY 1, 2, 3, 4, 5) m"
        " ON m.session_id = a.session_id AND m.type = a.type AND m.kind = a.kind"
        " AND m.text = a.text AND m.ts = a.ts WHERE a.n <= m.held)",
    ),
    "tool_calls": (
        "EXISTS (SELECT 1 FROM main.tool_calls c"
        " WHERE c.tool_use_id = _aside_tool_calls.tool_use_id)"
    ),
    "tool_results": (
        "EXISTS (SELECT 1 FROM main.tool_results r"
        " WHERE r.tool_use_id = _aside_tool_results.tool_use_id)"
    ),
    "session_meta": (
        "EXISTS (SELECT 1 FROM main.session_meta s"
        " WHERE s.session_id = _aside_session_meta.session_id AND s.key = _aside_session_meta.key)"
    ),
}
# The session of a redaction record set aside, through the row it is about (none: the row
# is held again, or the record is about a problem): the kept copy it goes back with.
ASIDE_REDACTION_SESSION_SQL = (
    "CASE a.table_name"
    + "".join(
        f" WHEN '{t.name}' THEN (SELECT session_id FROM _aside_{t.name} x"
        f" WHERE x.{t.key} = a.row_key AND x.file_id = a.file_id"
        # a key that is not unique (a session's meta rows) is told apart by its line
        + ("" if t.unique else " AND x.line_no IS a.line_no LIMIT 1")
        + ")"
        for t in TABLES
        if t.data and t.key
    )
    + " END"
)


class _OutOfTime(Exception):
    """A file's persisted outputs would take more than the time an incremental build with a
    budget has left (Builder._spend): the file is left to the next build, as one too large
    for that time is (_within_budget)."""


class _ReadFailed(Exception):
    """A bulk build's read of a stored file failed once its rows were cleared (_clear):
    `kept` says which, with why. The build is rolled back and run again without them."""

    def __init__(self, kept: dict[str, str]) -> None:
        super().__init__(", ".join(kept))
        self.kept = kept


# What a read of one file may raise that is the file's fault: an OSError (EIO, a file
# gone or replaced halfway; the readers turn their own failures, an unreadable opencode
# database, into one), a decode error no reader caught (ValueError: UnicodeDecodeError,
# msgspec.DecodeError) or nesting too deep. Not sqlite3.Error: that is the index's.
READ_ERRORS = (OSError, ValueError, RecursionError)


def _read_error(e: BaseException) -> str:
    """Why a file's read failed, as its problem says it."""
    if isinstance(e, OSError):
        return f"cannot read: {e.strerror or e}"
    return f"cannot read: {type(e).__name__}: {e}"


class BuildBusy(BuildError):
    """Another build holds the index, and this one was told not to wait (build_lock)."""


@dataclass
class BuildStats:
    mode: str = "incremental"
    files_seen: int = 0
    files_read: int = 0
    # Files an incremental build with a time budget left to the next (build's `budget`).
    files_left: int = 0
    files_removed: int = 0
    # Files found gone by this build, whose rows are kept (see Builder._archive),
    # and files found again; the sessions the index keeps without a transcript.
    files_missing: int = 0
    files_returned: int = 0
    # Rows of files read again from their start that their new content no longer holds,
    # kept under `<path>#<session id>` (see ASIDE_TABLES).
    rows_kept: int = 0
    sessions_without_transcript: int = 0
    bytes_read: int = 0
    new_lines: int = 0
    messages: int = 0
    tool_calls: int = 0
    tool_results: int = 0
    failed_tool_results: int = 0
    problems: int = 0
    skipped_lines: int = 0
    duplicates: int = 0
    processes: int = 1
    # Whether secrets were redacted, and whether that changed since the last
    # build (which then re-indexed every file); secrets replaced by this build.
    redact: bool = True
    redact_changed: bool = False
    redactions: int = 0
    # Tool results whose full text was read from the file the agent stored it in,
    # beside the transcript (see pastfix.records.PersistedOutput).
    persisted_outputs: int = 0
    # Stored rows redacted again in place, the rules having changed (see reredact).
    reredacted_rows: int = 0
    # The FTS5 tokenizer of the index, and whether this build changed it (and so
    # rebuilt the full-text tables from the stored rows).
    tokenizer: str = DEFAULT_TOKENIZER
    tokenizer_changed: bool = False
    seconds: float = 0.0
    # How long it waited for another build of the index to end (build_lock), not in `seconds`.
    waited_seconds: float = 0.0
    # The first problems of this build, as "path:line: reason" (the rest are in the table).
    problem_examples: list[str] = field(default_factory=list)
    # The sources most of whose lines are of no type pastfix reads (skipped_sources).
    skipped_sources: list[dict[str, Any]] = field(default_factory=list)

    def add_problems(self, path: str, problems: Sequence[tuple[int | None, str]]) -> None:
        self.problems += len(problems)
        room = MAX_PROBLEM_EXAMPLES - len(self.problem_examples)
        for line_no, reason in problems[: max(room, 0)]:
            where = f"{path}:{line_no}" if line_no else path
            self.problem_examples.append(f"{where}: {reason}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def add(self, other: dict[str, Any]) -> None:
        """Add the counts of a helper process's stats (see Shard)."""
        for name in COUNTED:
            setattr(self, name, getattr(self, name) + other[name])
        room = MAX_PROBLEM_EXAMPLES - len(self.problem_examples)
        self.problem_examples += other["problem_examples"][: max(room, 0)]


COUNTED = (
    "files_read",
    "bytes_read",
    "new_lines",
    "messages",
    "tool_calls",
    "tool_results",
    "failed_tool_results",
    "problems",
    "skipped_lines",
    "duplicates",
    "redactions",
    "persisted_outputs",
)


@dataclass
class Plan:
    """What one build will do to one file."""

    source: SourceFile
    stat: os.stat_result
    stored: dict[str, Any] | None
    start: int  # byte offset to read from; 0 means the whole file
    rewrite: bool  # retract the file's rows before reading
    # The version stored once the file is read (_version), taken now, before the read: its
    # companions' (a database's -wal) stat taken after the read recorded a commit made
    # between the copy and the stat as read, and the next build saw no change (a CI run
    # of tests/test_opencode.py's busy writer: 5 failures read of 6 committed).
    version: tuple[int, int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.version = _version(self.source, self.stat)


# A source whose stored files skip this share of their lines, and at least this many, is
# named in the build's summary: most likely another agent's folder, or the wrong level of one,
# whose lines are nearly all of types no reader knows. Half, not less: each new Claude Code
# adds line types of its own bookkeeping (2.1.332: 18 of a 5-turn session's 47 lines were
# of types 2.1.2xx did not write), which are no sign of a wrong folder.
SKIPPED_SHARE = 0.5
SKIPPED_MIN = 10


def skipped_sources(conn: Connection, roots: Sequence[Path]) -> list[dict[str, Any]]:
    """The sources whose files skip many of their lines (SKIPPED_SHARE, SKIPPED_MIN): each
    `{"source", "skipped_lines", "lines"}`, from what source_files records of every file
    under it that is still there (one small query a source)."""
    found = []
    for root in roots:
        folder = str(Path(root).absolute()).rstrip("/") + "/"
        skipped, lines = conn.execute(
            "SELECT coalesce(sum(skipped_lines), 0), coalesce(sum(lines), 0) FROM source_files"
            " WHERE substr(path, 1, length(?)) = ? AND missing_since IS NULL",
            [folder, folder],
        ).fetchone()
        if skipped >= max(SKIPPED_MIN, SKIPPED_SHARE * lines):
            found.append({"source": str(root), "skipped_lines": skipped, "lines": lines})
    return found


try:
    import fcntl
except ImportError:  # Windows: builds are not serialised there
    fcntl = None  # type: ignore[assignment]


# The build locks this thread holds, by lock file, with its descriptor: a build inside
# the hook's refresh, which takes the lock first, must not wait for itself.
_held = threading.local()


@contextmanager
def build_lock(
    db_path: str | Path,
    wait: bool = True,
    on_wait: Callable[[], None] | None = None,
    sources: Sequence[tuple[Path, str]] | None = None,
) -> Iterator[float]:
    """Hold the build lock of `db_path`: one build of an index at a time; gives the
    seconds spent waiting for it.

    SQLite's own locks cannot order two builds: a bulk build starts with a
    deferred BEGIN (IMMEDIATE would also lock the helper's attached side file),
    and SQLite fails at once, without the busy timeout, when a transaction that
    has read asks to write while another build writes. Two builds at once
    failed with "database is locked"; now the second waits here for the first
    and then plans against what it wrote (a no-change refresh, usually).

    The lock is an flock on `lock_path()`: the kernel releases it when the
    build's process ends however it ends, so a killed build leaves no stale
    lock. Readers (Datasette, the hook, the MCP server) never take it.
    `wait=False` raises BuildBusy instead of waiting (the hook's refresh);
    `on_wait()` is called once when the wait has lasted WAIT_NOTICE_SECONDS.

    `sources`, the stores the build reads with their agents, are written into the lock
    file while it is held (_say_sources), for `pastfix status` (paths.running_build).
    """
    path = lock_path(db_path)
    held: dict[Path, int] = _held.__dict__.setdefault("fds", {})
    if fcntl is None:
        yield 0.0
        return
    if path in held:  # the hook's refresh or forget holds it, and builds now
        if sources is not None:
            _say_sources(held[path], sources)
        yield 0.0
        return
    try:
        # never through a link: the lock file is written and truncated, and a link to
        # another of the user's files (a shared folder's, /tmp's) would lose that file
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as e:
        if path.is_symlink():
            raise BuildError(
                f"{path} is a symbolic link: pastfix writes its lock file, never through"
                " a link (remove it)"
            ) from e
        if not path.parent.is_dir():  # named the lock file, which the user never asked for
            raise BuildError(f"no folder {path.parent} to put {db_path} in") from e
        if not _writable(str(path.parent)):
            raise BuildError(
                f"{path.parent} is read-only: changing {Path(db_path).name} needs files beside"
                f" it ({path.name}, a journal)"
            ) from e
        raise BuildError(f"cannot create {path}: {e.strerror or e}") from e
    try:
        started = time.monotonic()
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    raise BuildBusy(f"another build of {db_path} is running") from None
            if not told and on_wait and time.monotonic() - started >= WAIT_NOTICE_SECONDS:
                on_wait()
                told = True
            time.sleep(LOCK_POLL_SECONDS)
        # Always, to clear what the last holder wrote: what it read is not read now.
        _say_sources(fd, sources)
        held[path] = fd
        try:
            yield time.monotonic() - started
        finally:
            del held[path]
    finally:
        os.close(fd)  # releases the flock


def _say_sources(fd: int, sources: Sequence[tuple[Path, str]] | None) -> None:
    """Write what a build reads into its lock file, where `pastfix status` finds it while
    the build runs: a first build commits nothing before its end, and a reader waits on
    no transaction for this (status listed the default folders, not the `--source` read).
    Never in the build's way: a lock file that cannot be written (a full disk) says
    nothing, and status then names no source of the running build. None (forget, the
    hook's lock around its refresh): nothing to say, what the last holder wrote cleared."""
    try:
        os.ftruncate(fd, 0)
        if sources is not None:
            said = [{"path": str(p), "agent": a} for p, a in sources]
            os.pwrite(fd, msgspec.json.encode({"sources": said}), 0)
    except OSError:
        return


def check_not_transcripts(db_path: Path) -> None:
    """Refuse a DB_PATH that is an agent's folder of transcripts: `pastfix build
    ~/.claude/projects` means to read it, where "name the index file in it" (a folder's
    error) had the index written among the transcripts."""
    store = agents.store_agent(db_path) if db_path.is_dir() else None
    if store:
        raise BuildError(
            f"{db_path} is a folder of {agents.label(store)} transcripts, not an index: read"
            f" it with --source, as in `pastfix build --source {db_path}` (DB_PATH is the"
            " index to write, index.db by default)"
        )


def build(
    db_path: str | Path,
    sources: Sequence[Path],
    *,
    force: bool = False,
    redact: bool = True,
    progress: Callable[[int], None] | None = None,
    on_plan: Callable[[int, int], None] | None = None,
    agent: str | None = None,
    reader: Reader | None = None,
    tokenizer: str | None = None,
    wait: bool = True,
    on_wait: Callable[[], None] | None = None,
    on_locked: Callable[[], None] | None = None,
    busy_timeout: float | None = None,
    budget: float | None = None,
) -> BuildStats:
    """Index the transcripts under `sources` into the database at `db_path`.

    Incremental by default: unchanged files are not read, grown files are read
    from their stored offset, rewritten files are re-indexed and vanished ones
    retracted. `force` (or an empty index) rebuilds everything in one
    transaction. `on_plan(files, bytes)` is called once with the work ahead,
    `progress(bytes)` as it gets done.

    Each source is read by the reader of the agent whose files it holds
    (pastfix.agents.stores); `agent`
    reads an empty folder as that agent's and refuses one of the other's.
    `reader` reads every source with one given reader instead.

    `redact` replaces secrets by markers (pastfix.redact). The setting is
    recorded in the index; a build with the other setting re-indexes every
    file, as a forced one, since restoring the text needs the transcripts.

    `tokenizer` (see TOKENIZERS and parse_tokenizer) is the FTS5 tokenizer of
    both full-text tables; it is recorded, and None keeps the recorded one. A
    change rebuilds them from the stored rows (set_tokenizer), before the
    transcripts are refreshed.

    Builds of one index take turns (build_lock): this one waits for one
    already running, calling `on_wait()` if that takes a while, or with
    `wait=False` raises BuildBusy at once. `busy_timeout` (None: BUSY_TIMEOUT): how long
    to wait for another process's SQLite lock on the index (a reader's, a sqlite3
    shell's); `on_locked()` is called once when another program's write transaction has
    held the index for WAIT_NOTICE_SECONDS (_wait_for_writer).

    `budget` (seconds; the hook's --refresh): an incremental build reads no file after
    that much time, and those it leaves are read by the next build (their offsets were
    not moved); a fresh or forced build ignores it.
    """
    started = time.perf_counter()
    if tokenizer is not None:
        try:
            tokenizer = parse_tokenizer(tokenizer)
        except ValueError as e:
            raise BuildError(str(e)) from e
    for root in sources:
        if not Path(root).exists():
            raise BuildError(f"source directory not found: {root}")
        if not Path(root).is_dir():
            raise BuildError(f"source is not a directory: {root}")
    try:
        given = _distinct_roots(sources)
        found = [store for root in given for store in agents.stores(root, agent)]
        roots = list(dict.fromkeys(found))
    except WrongAgent as e:
        raise BuildError(str(e)) from e
    check_not_transcripts(Path(db_path))
    check_db_path(Path(db_path))
    busy_timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
    with build_lock(db_path, wait, on_wait, roots) as waited:
        if on_locked is not None:
            _wait_for_writer(Path(db_path), busy_timeout, on_locked)
        stats = _build(
            db_path,
            roots,
            force,
            redact,
            progress,
            on_plan,
            reader,
            tokenizer,
            busy_timeout,
            budget,
            searched=given,
            agent=agent,
            started=started + waited,
        )
    # The build's own time: another build's, waited for, is said apart (waited_seconds).
    stats.seconds = round(time.perf_counter() - started - waited, 3)
    stats.waited_seconds = round(waited, 3)
    return stats


def _build(
    db_path: str | Path,
    roots: list[tuple[Path, str]],
    force: bool,
    redact: bool,
    progress: Callable[[int], None] | None,
    on_plan: Callable[[int, int], None] | None,
    reader: Reader | None,
    tokenizer: str | None,
    busy_timeout: float = BUSY_TIMEOUT,
    budget: float | None = None,
    *,
    searched: Sequence[Path] = (),
    agent: str | None = None,
    started: float | None = None,
) -> BuildStats:
    """build() once it holds the build lock. `searched`: the folders given as sources, in
    which the stores `roots` were found, for `agent` (None: every agent's). `started`
    (perf_counter): when build() began, less its wait for the lock, so that `last_build`
    says the time its summary says."""
    started = time.perf_counter() if started is None else started
    try:
        conn = connect(db_path, busy_timeout=busy_timeout)
    except sqlite3.Error as e:
        raise BuildError(error_text(Path(db_path), e)) from e
    remove_stale_side_files(Path(db_path))
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        # Deleted rows are overwritten with zeros: a secret redacted by a later
        # build does not linger in free pages.
        conn.execute("PRAGMA secure_delete=ON")
        changed = redact_setting(conn) not in (None, redact)
        current = tokenizer_setting(conn)
        if tokenizer is not None and tokenizer != current:
            set_tokenizer(conn, tokenizer)
        # The stored files whose read failed halfway in a bulk build, which keep their rows.
        kept: dict[str, str] = {}
        while True:
            builder = Builder(
                conn,
                roots,
                force or changed,
                reader,
                Path(db_path),
                redact,
                kept,
                searched=searched,
                agent=agent,
            )
            if budget is not None:
                builder.deadline = time.perf_counter() + budget
            builder.stats.redact_changed = changed
            builder.stats.tokenizer = tokenizer or current
            builder.stats.tokenizer_changed = tokenizer not in (None, current)
            try:
                stats = builder.run(progress, None if kept else on_plan)
                break
            except _ReadFailed as e:
                # Everything it did is undone, the cleared rows back: read the others again.
                # A rare failure, so the cost of a second pass is rare too; each pass keeps
                # one file more at least, so this ends.
                conn.execute("ROLLBACK")
                _detach_shard(conn)
                kept.update(e.kept)
        _record_build(conn, stats, roots, started, searched, agent)
        if changed or stats.reredacted_rows:
            # Old WAL frames past the ones this build wrote may still hold the
            # previous text: empty the WAL file.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as e:
        # Locked for over a minute, disk full, a damaged file: what committed stays.
        raise BuildError(error_text(Path(db_path), e)) from e
    finally:
        if gc_was_enabled:
            gc.enable()
        conn.close()
    return stats


def _wait_for_writer(db_path: Path, busy_timeout: float, on_locked: Callable[[], None]) -> None:
    """Wait for another program's write transaction on the index (a sqlite3 shell's BEGIN
    IMMEDIATE, a long write), calling `on_locked()` once it has lasted WAIT_NOTICE_SECONDS,
    for `busy_timeout` seconds in all.

    SQLite's busy timeout waits in silence, and Python's sqlite3 has no busy handler to
    speak from: a build behind such a transaction said nothing for a minute. So the write
    lock is asked for here first, for WAIT_NOTICE_SECONDS, then for the rest of the time
    once the wait is said. A transaction begun after this one ends is waited for in silence
    as before (the build begins its own within milliseconds). A file that is not there,
    or not an index, is left to connect() to say.
    """
    if not db_path.is_file():
        return
    # mode=rw: never create the file (a build that stops on check_db_path's errors later)
    uri = "file:" + quote(os.fsencode(os.path.abspath(db_path))) + "?mode=rw"
    notice = min(WAIT_NOTICE_SECONDS, busy_timeout)
    for told, timeout in enumerate((notice, busy_timeout - notice)):
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
                return
            finally:
                conn.close()
        except sqlite3.Error as e:
            if "locked" not in str(e):
                return
            error = e
        if not told:
            on_locked()
    raise BuildError(error_text(db_path, error))


def _record_build(
    conn: Connection,
    stats: BuildStats,
    roots: list[tuple[Path, str]],
    started: float,
    searched: Sequence[Path] = (),
    agent: str | None = None,
) -> None:
    """Say in _build_state when this build ran and what it read (`pastfix status`).

    `searched`, `agent`: where it looked, as Builder has them."""
    # Every source any build read, for `pastfix status`: the last build's alone hid the
    # others the index holds (`build --agent codex` after a build of every agent's folder).
    stored = state(conn, "sources")
    try:
        recorded = msgspec.json.decode(stored) if stored else []
    except (TypeError, msgspec.DecodeError):  # not JSON (a hand edit): this build's are kept
        recorded = []
    known = {
        s["path"]: s
        for s in (recorded if isinstance(recorded, list) else [])
        if isinstance(s, dict) and isinstance(s.get("path"), str)
    }
    sources = [{"path": str(root), "agent": of} for root, of in roots]
    # A store of an earlier build that is none now, in a folder this build was given (a
    # Claude Code project folder beside Codex's, its transcripts deleted or itself removed:
    # see Builder._looked_for), was looked into too: status counts its files found gone
    # by this build, not as a source this build did not read.
    found = [os.path.join(str(root), "") for root, _ in roots]
    sources += [
        s
        for s in known.values()
        if _looked_in(s["path"] + os.sep, s.get("agent"), searched, agent)
        and not any((s["path"] + os.sep).startswith(f) for f in found)
        and _holds_files(conn, s["path"])
    ]
    summary = {
        "at": _now(),
        "mode": stats.mode,
        "sources": sources,
        **{k: getattr(stats, k) for k in ("files_seen", "files_read", "bytes_read", "new_lines")},
        "seconds": round(time.perf_counter() - started, 3),
    }
    set_state(conn, "last_build", msgspec.json.encode(summary).decode())
    known.update((s["path"], s) for s in summary["sources"])
    set_state(
        conn,
        "sources",
        msgspec.json.encode(sorted(known.values(), key=lambda s: s["path"])).decode(),
    )


def _looked_in(path: str, of: Any, searched: Sequence[Path], agent: str | None) -> bool:
    """Whether a build that was given the folders `searched`, reading `agent`'s files (None:
    every agent's), looked for `path`, a file (or folder) of the agent `of`: one inside a
    folder it was given, not only in the stores it found there."""
    return agent in (None, of) and any(path.startswith(os.path.join(f, "")) for f in searched)


def _holds_files(conn: Connection, folder: str) -> bool:
    """Whether the index holds a file in `folder` (its rows, found gone or not)."""
    return (
        conn.execute(
            "SELECT 1 FROM source_files WHERE path > ? AND path < ? LIMIT 1",
            [folder + os.sep, folder + chr(ord(os.sep) + 1)],
        ).fetchone()
        is not None
    )


def _distinct_roots(sources: Sequence[Path]) -> list[Path]:
    """The sources, each folder once: a repeat, or one inside another, would list files twice."""
    roots: list[Path] = []
    reals: list[str] = []
    for source in sources:
        real = os.path.realpath(source)
        if any(real == r or real.startswith(r + os.sep) for r in reals):
            continue
        inner = [i for i, r in enumerate(reals) if r.startswith(real + os.sep)]
        for i in reversed(inner):
            del roots[i], reals[i]
        roots.append(Path(os.path.abspath(source)))
        reals.append(real)
    return roots


def error_text(db_path: Path, error: sqlite3.Error) -> str:
    """The one-line error of a build (or of forget, which writes as one), naming the file
    to fix when one is read-only."""
    if "readonly" in str(error):
        for name in (f"{db_path}", f"{db_path}-wal", f"{db_path}-shm", f"{db_path}-journal"):
            if os.path.exists(name) and not _writable(name):
                return f"{name} is read-only: make it writable (chmod u+w) and try again"
        if not _writable(str(db_path.parent)):
            return f"{db_path.parent} is read-only: SQLite needs to create files beside the index"
    if "locked" in str(error):
        # Another build of the index is waited for on its lock file: this is another
        # program's transaction (a `sqlite3` shell's, a long query), which "database is
        # locked", after a minute's wait in silence, did not say.
        return (
            f"{db_path} is locked by another program's transaction on it (a sqlite3 shell,"
            " a long query), not a pastfix build: end it and try again"
        )
    if "malformed" in str(error):
        from pastfix.queries import damaged_index  # an error path: no cost to a build

        return damaged_index(db_path, str(error))
    return f"{db_path}: {error}"


def _writable(path: str) -> bool:
    # Mode bits as well as access(): root may write anything, yet a file made
    # read-only is what the user has to fix.
    return os.access(path, os.W_OK) and bool(os.stat(path).st_mode & 0o222)


def remove_stale_side_files(db_path: Path) -> None:
    """Delete the side files of forked helpers whose build is gone (killed or failed)."""
    for part in db_path.parent.glob(glob.escape(db_path.name) + ".part-*"):
        # index.db.part-PID, its .sessions file, and their -journal files
        pid = part.name.rsplit(".part-", 1)[1].split(".", 1)[0].removesuffix("-journal")
        if pid.isascii() and pid.isdigit() and not _alive(int(pid)):
            part.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _detach_shard(conn: Connection) -> None:
    """Detach a failed bulk build's helper files (Shard.discard deleted them)."""
    attached = {r[1] for r in conn.execute("PRAGMA database_list")}
    for name in ("shard", "shard_sessions"):
        if name in attached:
            conn.execute(f"DETACH DATABASE {name}")


def _open_regular(path: str) -> BinaryIO:
    """Open a transcript (lines.open_regular: a FIFO would block the build)."""
    return lines.open_regular(path)


def _same_file(path: str, st: os.stat_result) -> bool:
    """Whether `path` is the file `st` is of (False when it is gone)."""
    try:
        return os.path.samestat(os.stat(path), st)
    except (FileNotFoundError, NotADirectoryError):
        return False


def _names(path: str) -> tuple[str, str]:
    """A file's name and its folder's: what a store copied elsewhere keeps of each path."""
    folder, name = os.path.split(path)
    return os.path.basename(folder), name


def _is_demo(path: str) -> bool:
    """Whether `path` is one of the demo sessions bundled with pastfix (this copy or another)."""
    return path.startswith(str(transcripts.DEMO_PROJECTS) + os.sep) or (
        os.path.join(os.sep + "pastfix", "demo", "projects", "") in path
    )


def holds_only_demo(db_path: Path) -> bool:
    """Whether the index at `db_path` holds the bundled demo sessions and nothing else: the
    quick start's ./index.db on a machine with no agent's folder, which reading commands
    pass over for the default index."""
    try:
        conn = sqlite3.connect(f"{Path(db_path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        stored = conn.execute("SELECT path FROM source_files").fetchall()
    except sqlite3.Error:
        return False  # no index: the reading command says so
    finally:
        conn.close()
    return bool(stored) and all(_is_demo(path) for (path,) in stored)


def own_sources(db_path: Path, agent: str | None = None) -> list[Path] | None:
    """The sources a build without --source reads when no agent's folder is on this
    machine: None (the bundled demo stands in) for an index that is not there yet or holds
    no file but the demo's; else the folders the index's builds read (`_build_state`,
    `sources`; `agent`'s only), not the demo's, whether they are still there or not.

    The demo only stands in for transcripts not indexed yet (README): a plain build of an
    index built from `--source` folders, the SessionEnd hook's on a machine with no
    ~/.claude/projects, indexed the 13 demo sessions into it, and `find` showed them as the
    user's own history (a new user's try, nu42 finding 3). Its own sources are what such a
    build is meant to bring up to date.
    """
    try:
        conn = sqlite3.connect(f"{Path(db_path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None  # not there yet
    try:
        paths = conn.execute("SELECT path FROM source_files").fetchall()
        stored = state(conn, "sources")
    except sqlite3.Error:
        return None  # no index (the build says so) or an empty file
    finally:
        conn.close()
    if all(_is_demo(path) for (path,) in paths):
        return None
    try:
        recorded = msgspec.json.decode(stored) if stored else []
    except msgspec.DecodeError:  # a hand edit
        recorded = []
    return [
        Path(s["path"])
        for s in (recorded if isinstance(recorded, list) else [])
        if isinstance(s, dict)
        and isinstance(s.get("path"), str)
        and agent in (None, s.get("agent"))
        and not _is_demo(os.path.join(s["path"], ""))
    ]


def _printable(path: str) -> str:
    """A path as it can be stored: a name that is not UTF-8 gets replacement characters."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


class Builder:
    """One build of one index, on its connection (build() makes it, holding the lock).

    run() plans what to read (_plan: new, grown, rewritten, moved and vanished
    files), then reads it: a bulk build (a new index, or --force) in one
    transaction, its later files by a forked helper when there are enough bytes
    (pastfix.shard); an incremental one file by file, committing about every
    GROUP_SECONDS. Each file is read in runs of whole lines (_index_file), its
    records prepared (pastfix.prepare) and stored (_save_batch), with the offset
    and hashes that tell its next change. Rows of files that are gone stay (the
    archive); what is derived from them (sessions, fixes, the full-text tables)
    is refreshed at the end (_finish).
    """

    def __init__(
        self,
        conn: Connection,
        roots: list[tuple[Path, str]],
        force: bool,
        reader: Reader | None,
        db_path: Path,
        redact: bool = True,
        kept: dict[str, str] | None = None,
        *,
        searched: Sequence[Path] = (),
        agent: str | None = None,
    ) -> None:
        self.conn = conn
        # When an incremental build stops reading files (build's `budget`), perf_counter;
        # and the bytes it may still read (of persisted outputs: _spend).
        self.deadline: float | None = None
        self.room = 0.0
        # Stored files a bulk build leaves as they are, with why: their read failed in a
        # pass before this one (see _ReadFailed).
        self.kept = kept or {}
        # The files whose read failed in this build, with why (sent back by a helper).
        self.failed: dict[str, str] = {}
        # The files of a bulk build whose new read replaces rows it cleared (_cleared_paths).
        self.replacing: set[str] = set()
        # Those of them whose rows are not set aside (_set_aside_of), by path, with their
        # stored row (None for one stored under another name): a change since planning
        # other than growth loses rows, and fails their read (_changed_since_planned).
        self.watched: dict[str, dict[str, Any] | None] = {}
        self.redact = redact
        self.db_path = db_path
        self.reader = reader
        self.roots = roots
        # The folders given as sources and the one agent read (None: every agent): where
        # the build looked for files of which agents, beyond the stores it found (see
        # _looked_for).
        self.searched = searched
        self.agent = agent
        self.stats = BuildStats(redact=redact)
        stored = conn.execute("SELECT count(*) FROM source_files").fetchone()[0]
        self.bulk = force or stored == 0
        self.force = force
        self.stats.mode = "forced" if force else ("fresh" if stored == 0 else "incremental")
        self.stored: dict[str, dict[str, Any]] = {}
        # The rows of forgotten files, by their forgotten_key (no file of any path).
        self.forgotten: dict[str, dict[str, Any]] = {}
        cursor = conn.execute("SELECT * FROM source_files")
        columns = [d[0] for d in cursor.description]
        # The files with kept copies, `<path>#<session id>` (see _set_aside).
        self.with_copies: set[str] = set()
        for row in cursor:
            record = dict(zip(columns, row, strict=True))
            if record["path"].startswith(FORGOTTEN):
                self.forgotten[record["path"]] = record
                continue
            self.stored[record["path"]] = record
            if record["missing_since"] and "#" in record["path"]:
                self.with_copies.add(record["path"].rpartition("#")[0])
        self.file_problems: list[tuple[str, str]] = []
        # The problems of files (an empty file, a FIFO, a symlink loop) the index holds from
        # the builds before: each is said once, by the build that finds it (a line's is, as
        # only a new line is read), not again by every build while it stands (pastfix
        # status lists those). A forced build, which reads every line again, says them all.
        self.told: set[tuple[str, str]] = (
            set()
            if force
            else set(conn.execute("SELECT path, reason FROM problems WHERE file_id IS NULL"))
        )
        # What the stored files' persisted outputs looked like when read (not needed
        # by a bulk build, which reads them all).
        self.side_files = {} if self.bulk else _stored_side_files(conn)
        self.touched: set[str] = set()
        # Of the touched sessions, those only an append of one file touched: the first
        # line it read, by session (see refresh_fixes).
        self.appended: dict[str, tuple[int, int]] = {}
        # Ids of the files read or retracted by this build.
        self.changed: set[int] = set()
        # Archived files found again unchanged (see _plan, _unarchive).
        self.returned: list[dict[str, Any]] = []
        # Stored files found under another name, by their stored path (see _find_moves).
        self.moved: dict[str, Plan] = {}
        # A file a bulk build reads under another name than a stored one's (a symlink, a
        # folder mounted elsewhere): its path -> the stored path (_cleared_paths).
        self.aliases: dict[str, str] = {}
        # The files whose rows a bulk build kept rather than read again (see _clear).
        self.kept_ids: list[int] = []
        # Every source file found by this build, by path: how _repair_duplicates reads
        # one again (a `whole` one with its companions, as its reader gave it).
        self.sources: dict[str, SourceFile] = {}
        # Whether this bulk build fills an index that held no file (see run), or a
        # helper's new side file (see Shard): a file's read that fails deletes what it
        # stored (_delete_file_rows).
        self.new_index = False
        # Whether a bulk build computed every session and fix with its helper (see Shard).
        self.per_session_done = False
        # Whether rows were set aside that _keep_cut_rows has yet to put back.
        self.aside = False
        # The highest message id before the file being read (a refresh), and whether the
        # ids of its rows from before were noted (_read_before): see _reclaim.
        self.first_id: int | None = None
        self.read_before = False
        # Whether the file being read (a refresh) took rows back from its kept copies.
        self.reclaimed = False
        # The highest id of tool_errors_fts when this refresh began, if the index was whole
        # then (see _watch_errors_fts).
        self.errors_indexed: int | None = None
        self.column_names: dict[str, list[str]] = {}

    # -- planning -------------------------------------------------------

    def _plan(self) -> tuple[list[Plan], list[dict[str, Any]], list[dict[str, Any]]]:
        """The files to read; the stored files found gone, to archive; those to drop."""
        plans: list[Plan] = []
        seen: set[str] = set()
        # Folders that could not be read: the files they held keep their rows.
        kept: list[str] = []
        for root, agent in self.roots:
            for source in self._reader(agent).iter_source_files(root):
                if source.path in seen:
                    continue
                seen.add(source.path)
                self.sources[source.path] = source
                if source.problem:
                    self._file_problem(source.path, source.problem)
                    kept.append(source.path)
                    continue
                try:
                    source.path.encode()
                except UnicodeEncodeError:
                    self._file_problem(source.path, "file name is not UTF-8")
                    continue
                try:
                    st = os.stat(source.path)
                    if not S_ISREG(st.st_mode):
                        self._file_problem(source.path, "not a regular file")
                        continue
                    if st.st_size == 0:
                        self._file_problem(source.path, "empty file")
                    stored = None if self.bulk else self._stored_of(source.path)
                    plan = self._plan_file(source, st, stored)
                    if (
                        stored is not None
                        and (plan is None or not plan.rewrite)
                        and _side_files_changed(self.side_files.get(stored["id"], ()))
                    ):
                        # The transcript is as it was, a file beside it is not: read
                        # it again, so that the new text takes the marker's place.
                        plan = Plan(source, st, stored, 0, True)
                    if plan is None and stored is not None and stored["missing_since"]:
                        self.returned.append(stored)  # back as it was
                except OSError as e:
                    # The file keeps whatever rows it has until it can be read.
                    self._file_problem(source.path, f"cannot read: {e.strerror or e}")
                    continue
                if plan:
                    plans.append(plan)
        self.stats.files_seen = len(seen)
        demo = str(transcripts.DEMO_PROJECTS)
        demo_is_source = any(str(r) == demo for r, _ in self.roots)
        gone: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []
        for path, record in self.stored.items():
            if path in seen or any(path.startswith(k + os.sep) for k in kept):
                continue
            under = any(path.startswith(str(r) + os.sep) for r, _ in self.roots)
            if _is_demo(path):
                # The demo stands in until real transcripts are indexed (see README):
                # its sessions go, they are not archived.
                if under or not demo_is_source:
                    dropped.append(record)
            elif under or self._looked_for(record):
                gone.append(record)
        plans = self._find_moves(plans, gone + self._stored_elsewhere(plans, seen, gone))
        gone = [r for r in gone if r["missing_since"] is None and r["path"] not in self.moved]
        plans.sort(key=lambda p: p.source.path)
        return plans, gone, dropped

    def _looked_for(self, record: dict[str, Any]) -> bool:
        """Whether a stored file in none of the stores found by this build was looked for in
        vain: it lies in a folder given as a source, is of an agent read, and is not there.

        A folder that holds no transcript is no store (agents.stores), so the stores found
        are not every folder a build looks into: a Claude Code project folder beside a Codex
        folder is a store of its own, and once its last transcript is deleted, or the folder
        is, it is none, and its files were found gone by no build. A file that is still
        there (in a store the bounded walk of agents.stores did not reach, a folder that
        cannot be looked into) is not gone. One stat per such file not found gone before:
        none on a refresh where every file is where it was.
        """
        path = record["path"]
        if not _looked_in(path, record["agent"], self.searched, self.agent):
            return False
        if record["missing_since"]:
            return True  # gone before: one a moved file can be (see _find_moves)
        try:
            os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            return True
        except OSError:
            return False  # cannot tell: it keeps its rows as they are
        return False

    def _stored_elsewhere(
        self, plans: list[Plan], seen: set[str], gone: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The stored files of no folder this build looked into that a new file of it may
        be (see _find_moves): the same file by another name (its device and inode: a store
        indexed through a link, then through its real path), or one no longer where it was
        that a new file has the name and folder's name of (a store copied to a new place and
        removed from the old, which this build was not given). Each was stored twice, its
        rows once (a security test, session 33: 77 files became 154, session_meta doubled).
        One still there as another file is a copy: both are kept. One stat for each stored
        file whose inode or names a new file has, on builds that find new files."""
        new = [plan for plan in plans if plan.stored is None]
        if not new:
            return []
        by_inode = {plan.stat.st_ino: plan for plan in new}
        names = {_names(plan.source.path) for plan in new}
        listed = {record["path"] for record in gone}
        found = []
        for path, record in self.stored.items():
            if path in seen or path in listed or record["missing_since"] or _is_demo(path):
                continue
            plan = by_inode.get(record["inode"])
            if plan is None and _names(path) not in names:
                continue
            try:
                st = os.stat(path)
            except (FileNotFoundError, NotADirectoryError):
                found.append(record)
                continue
            except OSError:
                continue  # cannot tell: it keeps its rows as they are
            if plan is not None and os.path.samestat(st, plan.stat):
                found.append(record)
        return found

    def _find_moves(self, plans: list[Plan], gone: list[dict[str, Any]]) -> list[Plan]:
        """The plans left once the files that moved are told from new ones (self.moved).

        A new file with the inode or the name of a stored one that is gone, and its
        content up to the stored offset (_begins_with), is that file in another
        place (a renamed project folder, a copy restored from a backup): a refresh
        moves its row, a bulk build reads it under its new name, and neither keeps
        a copy of it in the archive. So is one that is the stored file by another name
        (_stored_elsewhere), whatever it holds now: a rewrite of it since is read as one,
        what it no longer holds kept.
        """
        if not gone:
            return plans
        by_inode = {r["inode"]: r for r in gone}
        # (several of one name: Copilot's `events.jsonl`, opencode's `opencode.db`, each
        # tried, the one in a folder of the same name first)
        by_name: dict[str, list[dict[str, Any]]] = {}
        for r in gone:
            by_name.setdefault(os.path.basename(r["path"]), []).append(r)
        left = []
        for plan in plans:
            record = None
            if plan.stored is None or self.bulk:
                folder, name = _names(plan.source.path)
                named = sorted(by_name.get(name, ()), key=lambda r: _names(r["path"])[0] != folder)
                for candidate in (by_inode.get(plan.stat.st_ino), *named):
                    if candidate is None or candidate["path"] in self.moved:
                        continue
                    try:
                        if _same_file(candidate["path"], plan.stat) or self._begins_with(
                            plan.source.path, plan.stat, candidate
                        ):
                            record = candidate
                            break
                    except OSError:
                        continue
            if record is not None:
                self.moved[record["path"]] = plan
                if self.bulk:
                    left.append(plan)
            else:
                left.append(plan)
        return left

    def _plan_file(
        self, source: SourceFile, st: os.stat_result, stored: dict[str, Any] | None
    ) -> Plan | None:
        """What to do with a file whose stored row is `stored`: None when it is unchanged."""
        if stored is None:
            return Plan(source, st, None, 0, False)
        if _version(source, st) == (stored["size"], stored["mtime_ns"], stored["inode"]):
            return None
        if not source.whole and self._is_append(source.path, st, stored):
            return Plan(source, st, stored, stored["offset"], False)
        return Plan(source, st, stored, 0, True)

    @staticmethod
    def _is_append(path: str, st: os.stat_result, stored: dict[str, Any]) -> bool:
        """Whether the file only grew since it was read (OSError when it cannot be read).

        Same inode, not shorter, and the same bytes at its head and just before the
        stored offset: a file rewritten in place, say its last line changed from
        `"is_error": true` to `false`, differs there and is re-indexed. Then the
        same CRC-32 of every byte before the offset: a line in the middle
        rewritten at the same length (`"is_error":false`) differs only there.
        Reading the prefix costs ~1 ms per MB, only for files that grew.
        """
        return st.st_ino == stored["inode"] and Builder._begins_with(path, st, stored)

    @staticmethod
    def _begins_with(path: str, st: os.stat_result, stored: dict[str, Any]) -> bool:
        """Whether the file at `path` begins with the bytes `stored` was read up to
        (its hashes and CRC; OSError when it cannot be read)."""
        offset = stored["offset"]
        if st.st_size < offset or not stored["tail_hash"] or stored.get("prefix_crc") is None:
            return False
        with _open_regular(path) as f:
            head = f.read(min(HEAD_BYTES, offset))
            f.seek(max(0, offset - TAIL_BYTES))
            tail = f.read(offset - max(0, offset - TAIL_BYTES))
            if _hash(head) != stored["head_hash"] or _hash(tail) != stored["tail_hash"]:
                return False
            f.seek(0)
            return _prefix_crc(f, offset) == stored["prefix_crc"]

    def _reader(self, agent: str) -> Reader:
        """The reader of `agent`'s files, unless the build was given one for all."""
        return self.reader or agents.reader(agent)

    def _openable(self, plans: list[Plan]) -> list[Plan]:
        """The plans of a forced build whose stored files open now. A bulk build clears the
        rows of every file it reads again before reading it, so one that then fails to open
        (no read permission, a mount gone since planning) lost them all: it keeps its rows
        as they are instead, and is told (the index is the archive). One open per stored
        file, on forced builds only. So does one whose read failed halfway, or found it
        changed since planning, in a pass of this build before (self.kept, _ReadFailed)."""
        moved = {id(plan): old for old, plan in self.moved.items()}
        openable = []
        for plan in plans:
            stored = plan.source.path in self.stored or id(plan) in moved
            reason = self.kept.get(plan.source.path)
            try:
                if stored and reason is None:
                    _open_regular(plan.source.path).close()
            except OSError as e:
                reason = _read_error(e)
            if reason is not None:
                self._file_problem(plan.source.path, f"{reason}; its rows are kept")
                self.moved.pop(moved.get(id(plan), ""), None)
                continue
            openable.append(plan)
        return openable

    def _file_problem(self, path: str, reason: str) -> None:
        self.file_problems.append((_printable(path), reason))

    def _stored_of(self, path: str) -> dict[str, Any] | None:
        """The stored row of the file at `path`: its own, or its forgotten one's (FORGOTTEN)
        with its path, which an unchanged file is not read again by."""
        stored = self.stored.get(path)
        if stored is None and self.forgotten:
            forgotten = self.forgotten.get(forgotten_key(path))
            if forgotten is not None:
                return {**forgotten, "path": path}
        return stored

    def _stored_row(self, path: str) -> dict[str, Any] | None:
        if self.forgotten:  # its own row first, else its forgotten one's (_stored_of)
            cursor = self.conn.execute(
                "SELECT * FROM source_files WHERE path IN (?1, ?2) ORDER BY path = ?2",
                [path, forgotten_key(path)],
            )
        else:
            cursor = self.conn.execute("SELECT * FROM source_files WHERE path = ?", [path])
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip([d[0] for d in cursor.description], row, strict=True)) | {"path": path}

    def _recheck(self, plan: Plan) -> Plan | None:
        """The plan made again if another build changed the file's row since planning.

        Run inside the write transaction: two builds at once must not both read
        a file from the same old offset.
        """
        stored = self._stored_row(plan.source.path)
        if stored == plan.stored:
            return plan
        try:
            return self._plan_file(plan.source, plan.stat, stored)
        except OSError as e:
            self._file_problem(plan.source.path, f"cannot read: {e.strerror or e}")
            return None

    # -- running --------------------------------------------------------

    def run(
        self,
        progress: Callable[[int], None] | None,
        on_plan: Callable[[int, int], None] | None,
    ) -> BuildStats:
        conn = self.conn
        plans, gone, dropped = self._plan()
        if self.bulk and (self.stored or self.kept):
            plans = self._openable(plans)
        # Decided before the helper starts, which is told what to watch.
        cleared = self._cleared_paths(plans, dropped) if self.bulk else set()
        aside = self._needing_aside(plans) if self.bulk else []
        set_aside = {plan.source.path for plan, _, _ in aside}
        self.watched = {p: self.stored.get(p) for p in sorted(self.replacing) if p not in set_aside}
        if on_plan:
            on_plan(len(plans), sum(p.stat.st_size - p.start for p in plans))
        if self.bulk:
            # One transaction for everything. A new database is still in
            # rollback-journal mode, which costs almost nothing while filling new
            # pages (WAL would write every page twice); it switches to WAL below.
            # A forced rebuild stays in WAL so that readers are never locked out.
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            conn.execute("PRAGMA temp_store=MEMORY")  # the sorts of the deferred indexes
            mine, theirs = _split(plans)
            try:
                if theirs:
                    _crc32()  # its module loaded before the fork, once for both processes
                shard = Shard.start(self, theirs) if theirs else None
            except BaseException:  # such as a full disk while it made its side files
                remove_side_files(Shard.side_path(self.db_path))
                raise
            self.stats.processes = 2 if shard else 1
            try:
                # Not IMMEDIATE: that would lock the helper's attached side file too.
                conn.execute("BEGIN")
                # Through the session indexes, before they are dropped below.
                self._set_aside_of(aside)
                # Secondary indexes are cheaper to build once, sorted, than row by
                # row; unique ones stay, since INSERT OR IGNORE relies on them, and so
                # do the partial ones on failed results (see _secondary_indexes).
                deferred = _secondary_indexes(conn)
                for name, _ in deferred:
                    conn.execute(f"DROP INDEX [{name}]")
                if self.force or conn.execute("SELECT 1 FROM source_files LIMIT 1").fetchone():
                    # Forced, or another build filled the index while this one planned.
                    self._clear(cleared)
                else:
                    self.new_index = True
                for record in gone:
                    self._archive(record)
                for plan in mine:
                    self._index_file(plan, progress)
                    if shard:
                        shard.poll(progress)
                made: set[str] = set()  # the deferred indexes made already
                if shard:
                    own_sessions = None
                    if shard.per_session and not self.kept_ids:
                        # This half's sessions and fixes while the helper computes its own (see
                        # Shard), through indexes of this half's rows. They are dropped before
                        # the copy and made again after it: kept, the copy's inserts split
                        # their pages in the middle, and left them 13% larger (the index 0.451x
                        # its transcripts at 500 MB, over the 0.45x of issue 4), for 1% fewer
                        # of a 200 MB build's instructions and the same CPU time after the
                        # helper's rows came (0.29-0.35 s either way, session 18).
                        early = [(n, sql) for n, sql in deferred if n in PER_SESSION_INDEXES]
                        for _, sql in early:
                            conn.execute(sql)
                        own_sessions = self.touched | call_sessions(conn)
                        refresh_fixes(conn)
                        self._refresh_sessions(all_sessions=True)
                        for name, _ in early:
                            conn.execute(f"DROP INDEX [{name}]")
                    if not shard.merge(progress, own_sessions):
                        self.stats.processes = 1
                        for plan in theirs:  # the helper failed: do its share here
                            self._index_file(plan, progress)
                lost = {p: r for p, r in self.failed.items() if p in self.replacing}
                if lost:
                    raise _ReadFailed(lost)  # their rows are cleared: keep them instead
                for name, sql in deferred:
                    if name not in made:
                        conn.execute(sql)
                # Every file is read: what the changed ones lost is kept (_set_aside_of).
                self._keep_cut_rows()
                # Before the helper's sessions and fixes are waited for: made while it
                # computes them (0.42G instructions of a 200 MB build), not after.
                conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
                if shard:
                    # The helper computed its sessions and fixes meanwhile (see Shard).
                    shard.merge_sessions(progress)
                if shard and shard.again is not None:
                    refresh_sessions(conn, shard.again)
                    refresh_fixes(conn, shard.again)
                    self.per_session_done = True
                if not self.per_session_done:
                    self._refresh_sessions(all_sessions=True)
                self._finish()
                conn.execute("COMMIT")
            except BaseException:
                if shard:  # a full disk needs the space back; Ctrl-C leaves nothing behind
                    shard.discard()
                raise
            if shard:
                shard.remove()
        else:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._watch_errors_fts()
            self._write_grouped(
                list(self.moved.items()), lambda m: self._move(m[0], m[1], progress)
            )
            if self.deadline is not None:
                plans = self._within_budget(plans)
            self._write_grouped(
                plans, lambda plan: self._refresh_file(plan, progress), until=self.deadline
            )
            self._write_grouped(dropped, self._remove_file)
            self._write_grouped(gone, self._archive)
            self._write_grouped(self.returned, self._unarchive)
            if self.changed:
                self._repair_duplicates()
            stale = state(conn, "stale")
            stored = conn.execute("SELECT path, reason FROM problems WHERE file_id IS NULL")
            if (
                stale
                or sorted(stored) != sorted(self.file_problems)
                or not signatures_current(conn)
                or not fixes_current(conn)
                or (self.redact and not redaction_current(conn))
            ):
                conn.execute("BEGIN")
                self._finish()
                conn.execute("COMMIT")
            else:
                # Nothing was written since the last complete build: the error
                # index is already what a refresh would make it.
                self._count_file_problems()
        conn.execute("PRAGMA journal_mode=WAL")
        # A new index holds nothing that its transcripts, read a moment ago, do not: its
        # build leaves writing it back to the OS instead of waiting for an fsync of the
        # whole file when the connection closes (0.05 s of a 1.7 s build at 200 MB, 223 MB
        # of index at 500 MB). A power cut within the OS's writeback delay (~30 s) may lose
        # it, as one during the build could; the next build syncs at its first checkpoint.
        # Any other build syncs (synchronous=NORMAL): an index that held rows before may
        # hold sessions whose transcripts are gone.
        conn.execute(f"PRAGMA synchronous={'OFF' if self.new_index else 'NORMAL'}")
        self.stats.sessions_without_transcript = conn.execute(
            "SELECT count(*) FROM sessions INDEXED BY idx_sessions_deleted"
            " WHERE transcript_deleted_at IS NOT NULL"
        ).fetchone()[0]
        self.stats.skipped_sources = skipped_sources(conn, [root for root, _ in self.roots])
        return self.stats

    def _within_budget(self, plans: list[Plan]) -> list[Plan]:
        """The files an incremental build with a time budget can read before its deadline,
        at BUDGET_BYTES_PER_SECOND; each of the others is left to the next build, its offset
        not moved. The deadline is asked between files, so one large file was read whole:
        `hook --refresh` took 3.6 s over a new 300 MB transcript (a security tester's
        finding, session 28)."""
        room = ((self.deadline or 0.0) - time.perf_counter()) * BUDGET_BYTES_PER_SECOND
        kept = []
        for plan in plans:
            size = plan.stat.st_size - plan.start
            if plan.stored is not None:
                # the fixes of the sessions it holds are made again (FIX_BYTES_PER_FAILURE)
                size += self._failures_of(plan.stored["session_ids"]) * FIX_BYTES_PER_FAILURE
            if size > room:
                self.stats.files_left += 1
                continue
            room -= size
            kept.append(plan)
        self.room = room
        return kept

    def _failures_of(self, session_ids: str | None) -> int:
        """The failed results the index holds of these sessions."""
        return sum(
            self.conn.execute(
                "SELECT count(*) FROM tool_results INDEXED BY idx_tr_session_errors"
                " WHERE session_id = ? AND is_error = 1",
                [session_id],
            ).fetchone()[0]
            for session_id in _ids(session_ids)
        )

    def _spend(self, size: int) -> None:
        """Count `size` bytes of a persisted output about to be read against the room the
        budget left (_within_budget); _OutOfTime when there is none. A transcript's size
        says nothing of the files its markers name: 300 of 900 KB each, beside a small
        transcript, took `hook --refresh` 9.5 s (a security test, session 33)."""
        self.room -= size
        if self.room < 0:
            raise _OutOfTime

    def _write_grouped(
        self, items: Sequence[Any], write: Callable[[Any], None], until: float | None = None
    ) -> None:
        """Call write(item) for each item, committing about every GROUP_SECONDS; after
        `until` (perf_counter), for none: the next build does the rest.

        What commits together is some files' rows, their offsets and their
        sessions: an interrupted build leaves a consistent index.
        """
        started: float | None = None
        for item in items:
            if until is not None and time.perf_counter() >= until:
                self.stats.files_left += 1
                continue
            if started is None:
                self._begin()
                self.touched, self.appended = set(), {}
                started = time.perf_counter()
            write(item)
            if time.perf_counter() - started >= GROUP_SECONDS:
                self._refresh_sessions()
                self.conn.execute("COMMIT")
                started = None
        if started is not None:
            self._refresh_sessions()
            self.conn.execute("COMMIT")

    def _refresh_file(self, plan: Plan, progress: Callable[[int], None] | None) -> None:
        current = self._recheck(plan)
        if current is not None:
            self._index_file(current, progress)

    def _archive(self, record: dict[str, Any]) -> None:
        """Keep the rows of a file that is gone, and record since when (see m012_archive).

        The index is the archive: Claude Code deletes old transcripts, and only
        `pastfix forget` removes what they held.
        """
        current = self._stored_row(record["path"])
        if current is None or current["missing_since"]:
            return  # another build removed or archived it meanwhile
        self.conn.execute(
            "UPDATE source_files SET missing_since = ? WHERE id = ?", [_now(), current["id"]]
        )
        self._touch(_ids(current["session_ids"]))
        self.stats.files_missing += 1

    def _move(self, old_path: str, plan: Plan, progress: Callable[[int], None] | None) -> None:
        """Give a stored file its new name (see _find_moves), then read what it gained."""
        current = self._stored_row(old_path)
        if current is None or self._stored_row(plan.source.path) is not None:
            return  # another build got there first: the next one sees the rest
        source = plan.source
        self.conn.execute(
            "UPDATE source_files SET path = ?, session_id = ?, project_dir = ?, agent = ?,"
            " missing_since = NULL WHERE id = ?",
            [source.path, source.session_id, source.project_dir, source.agent, current["id"]],
        )
        # (its bad lines' problems name it as status lists them: by the path now read)
        self.conn.execute(
            "UPDATE problems SET path = ? WHERE file_id = ?", [source.path, current["id"]]
        )
        self._touch(_ids(current["session_ids"]))
        self._rename_copies(old_path, source)
        self._refresh_file(Plan(source, plan.stat, current, 0, False), progress)

    def _rename_copies(self, old_path: str, source: SourceFile) -> None:
        """Give the kept copies of a file that moved (`<path>#<session id>`) its new name."""
        if old_path not in self.with_copies:
            return
        self.conn.execute(
            "UPDATE source_files SET path = ? || substr(path, ?), project_dir = ?"
            " WHERE path > ? AND path < ? AND missing_since IS NOT NULL",
            [source.path, len(old_path) + 1, source.project_dir, f"{old_path}#", f"{old_path}$"],
        )
        self.with_copies.add(source.path)

    def _unarchive(self, record: dict[str, Any]) -> None:
        """An archived file found again as it was: its rows are its own again."""
        self.conn.execute(
            "UPDATE source_files SET missing_since = NULL WHERE id = ?", [record["id"]]
        )
        self._touch(_ids(record["session_ids"]))
        self.stats.files_returned += 1

    def _remove_file(self, record: dict[str, Any]) -> None:
        current = self._stored_row(record["path"])
        if current is None:
            return  # another build removed it meanwhile
        self._retract(current)
        self.conn.execute("DELETE FROM source_files WHERE id = ?", [current["id"]])
        self.stats.files_removed += 1

    def _repair_duplicates(self) -> None:
        """Give each duplicated uuid to the first file in path order, as a fresh build does.

        Resumed sessions can repeat lines of another file. INSERT OR IGNORE keeps
        whichever file came first in *this* build, so when a file changes, the
        group of files it shares ids with is re-indexed together, in path order.
        """
        conn = self.conn
        if not linked_any(conn, self.changed):
            return
        group = set(self.changed)
        frontier = list(group)
        while frontier:
            linked: set[int] = set()
            for i in range(0, len(frontier), 500):
                chunk = frontier[i : i + 500]
                linked.update(
                    r[0]
                    for r in conn.execute(
                        "SELECT other_id FROM _duplicate_links"
                        f" WHERE file_id IN ({','.join('?' * len(chunk))})",
                        chunk,
                    )
                )
            frontier = list(linked - group)
            group.update(frontier)
        ids = sorted(group)
        marks = ",".join("?" * len(ids))
        self._begin()
        self.touched, self.appended = set(), {}
        cursor = conn.execute(
            f"SELECT * FROM source_files WHERE id IN ({marks}) ORDER BY path", ids
        )
        columns = [d[0] for d in cursor.description]
        # An archived file of the group keeps its rows as they are (they cannot be
        # read again), and so does one of no source of this build (a backup indexed once
        # with --source, the same file by another path): read as this build does not know
        # it, a Gemini chat file was taken for JSON lines and an opencode store for a text
        # (a security test, session 33). The others are re-read around them.
        records = [
            record
            for row in cursor
            if (record := dict(zip(columns, row, strict=True)))["missing_since"] is None
            and record["path"] in self.sources
        ]
        if not records:
            conn.execute("ROLLBACK")
            return
        ids = [record["id"] for record in records]
        marks = ",".join("?" * len(ids))
        # Rows re-read here were counted when first read; keep the summary about this build.
        stats, self.stats = self.stats, BuildStats()
        # Set aside, not only retracted: what a file of the group no longer holds (cut since
        # its last read, and left by a refresh's budget or read under another name) is
        # kept as a rewrite's is (_keep_cut_rows); retracted, it was lost (a security test,
        # session 33: 30 messages and 10 failures became 15 and 5).
        for record in records:
            self._set_aside(record)
        conn.execute(
            f"DELETE FROM _duplicate_links WHERE file_id IN ({marks}) OR other_id IN ({marks})",
            ids + ids,
        )
        for record in records:
            source = self.sources[record["path"]]
            try:
                st = os.stat(source.path)
            except OSError:
                st = None  # reported by the file scan
            if st is None or not self._index_file(
                Plan(source, st, record, 0, True), None, retract=False
            ):
                # A file of the group cannot be read now: keep every row as it
                # was, to be repaired by a later build.
                conn.execute("ROLLBACK")
                self.aside = False
                self.stats = stats
                return
        # the rows put back get new ids: the full-text index takes them as a read's rows
        top = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
        self._keep_cut_rows()
        conn.execute(
            "INSERT INTO messages_fts(rowid, text) SELECT id, text FROM messages WHERE id > ?",
            [top],
        )
        self._refresh_sessions()
        conn.execute("COMMIT")
        self.stats = stats

    def _cleared_paths(self, plans: list[Plan], dropped: list[dict[str, Any]]) -> set[str]:
        """The stored files a bulk build reads again or drops: those it plans, the demo's,
        and those it plans under another name (a symlink, a moved folder still there)."""
        paths = {p.source.path for p in plans} | {r["path"] for r in dropped} | set(self.moved)
        planned = {(p.stat.st_dev, p.stat.st_ino): p.source.path for p in plans}
        # The plans whose failed read would lose cleared rows (see _ReadFailed).
        self.replacing = {p.source.path for p in plans if p.source.path in self.stored}
        self.replacing.update(p.source.path for p in self.moved.values())
        for path, record in self.stored.items():
            if path in paths or record["missing_since"]:
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in planned:
                paths.add(path)
                self.replacing.add(planned[st.st_dev, st.st_ino])
                self.aliases[planned[st.st_dev, st.st_ino]] = path
        return paths

    def _clear(self, paths: set[str]) -> None:
        """Delete the rows of the stored files at `paths`, those a bulk build reads again
        (or drops); every other file keeps its rows.

        Those are the archive: files whose transcript is gone, files of sources
        this build was not given, files that cannot be read now. A redaction
        setting that changed is brought to them in _finish (and _redact_again).
        """
        conn = self.conn
        for fts in ("messages_fts", "tool_errors_fts"):
            # both are filled again from every stored row at the end of the build
            conn.execute(f"INSERT INTO {fts}({fts}) VALUES('delete-all')")
        stored = conn.execute("SELECT id, path FROM source_files").fetchall()
        self.kept_ids = sorted(i for i, path in stored if path not in paths)
        conn.execute("DELETE FROM sessions")  # all recomputed
        conn.execute("DELETE FROM fixes")
        if not self.kept_ids:
            for table in (*DATA_TABLES, *FILE_TABLES, "source_files"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute("DELETE FROM _duplicate_links")
            return
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS _cleared (id INTEGER PRIMARY KEY)")
        conn.execute("DELETE FROM _cleared")
        conn.executemany(
            "INSERT INTO _cleared VALUES (?)", [(i,) for i, path in stored if path in paths]
        )
        for table in (*DATA_TABLES, *FILE_TABLES, "source_files"):
            column = "id" if table == "source_files" else "file_id"
            conn.execute(f"DELETE FROM {table} WHERE {column} IN (SELECT id FROM _cleared)")
        conn.execute("DELETE FROM problems WHERE file_id IS NULL")
        conn.execute(
            "DELETE FROM _duplicate_links WHERE file_id IN (SELECT id FROM _cleared)"
            " OR other_id IN (SELECT id FROM _cleared)"
        )
        if self.stats.redact_changed:
            # The kept files that are still on disk (another source's) are read
            # again with the new setting when a build next sees them.
            conn.execute(
                "UPDATE source_files SET size = -1, tail_hash = NULL"
                " WHERE missing_since IS NULL AND id IN (SELECT value FROM json_each(?))",
                [json.dumps(self.kept_ids)],
            )

    def _finish(self) -> None:
        conn = self.conn
        conn.execute("DELETE FROM problems WHERE file_id IS NULL")
        conn.executemany(
            INSERT_SQL["problems"],
            [(None, path, None, reason, "") for path, reason in self.file_problems],
        )
        self._count_file_problems()
        # First, so that whatever is derived below is derived from the redacted text.
        self._redact_again()
        # A bulk build prepared every row it wrote; a refresh may keep older ones.
        stale_kinds = not self.bulk and not signatures_current(conn)
        if stale_kinds:
            refresh_signatures(conn)
        # A bulk build computes every fix here (unless its two halves did: see Shard); a
        # refresh computed those of the sessions it touched, unless the rules or the kinds
        # they read changed.
        if (self.bulk and not self.per_session_done) or stale_kinds or not fixes_current(conn):
            refresh_fixes(conn)
        set_state(conn, "signature_version", str(SIGNATURE_VERSION))
        set_state(conn, "redact", str(int(self.redact)))
        indexed = self.errors_indexed
        if indexed is not None and not conn.execute("SELECT 1 FROM _errors_fts_changed").fetchone():
            add_tool_errors_fts(conn, indexed)
        else:
            refresh_tool_errors_fts(conn)
        set_state(conn, "stale", None)

    def _watch_errors_fts(self) -> None:
        """Note whether tool_errors_fts may take only the failures a refresh adds.

        refresh_tool_errors_fts indexes every failure again (50M instructions for the
        1,795 of a 1 MB append's index, 26 ms at 10,000), for the few an append adds. When
        the last build completed (the index was whole: nothing `stale`), its highest id
        is noted, and temporary triggers mark any change of a row at or below it: a
        failure deleted (a file read again from its start, removed, forgotten), its text
        or is_error changed (redacted again, a set-aside row put back), an id reused.
        With none, _finish indexes the failures above that id, the rows a whole refresh
        would add; else it refreshes the whole index, as before.
        """
        conn = self.conn
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS _errors_fts_changed (x PRIMARY KEY)")
        conn.execute("DELETE FROM _errors_fts_changed")
        self.errors_indexed = None
        if state(conn, "stale") is not None:
            return
        (indexed,) = conn.execute(
            "SELECT coalesce(max(id), 0) FROM tool_errors_fts_docsize"
        ).fetchone()
        for name, event, row in (
            ("deleted", "DELETE", "old"),
            ("changed", "UPDATE OF content, is_error", "old"),
            ("inserted", "INSERT", "new"),
        ):
            conn.execute(f"DROP TRIGGER IF EXISTS temp._errors_fts_{name}")
            conn.execute(
                f"CREATE TEMP TRIGGER _errors_fts_{name} AFTER {event} ON main.tool_results"
                f" WHEN {row}.id <= {int(indexed)}"
                " BEGIN INSERT OR IGNORE INTO _errors_fts_changed VALUES (1); END"
            )
        self.errors_indexed = indexed

    def _redact_again(self) -> None:
        """Bring stored rows in line with the current rules (see reredact); record their version."""
        conn = self.conn
        if not self.redact:
            set_state(conn, "redaction_version", None)
            return
        # A bulk build redacted every row it wrote, not those it kept (see _clear);
        # a refresh may keep older ones.
        if (not self.bulk or self.kept_ids) and not redaction_current(conn):
            touched, rows, secrets = reredact(conn, self.kept_ids if self.bulk else None)
            # Anything else derived per session from the stored text is recomputed here too.
            refresh_sessions(conn, touched)
            refresh_fixes(conn, touched)
            self.stats.reredacted_rows += rows
            self.stats.redactions += secrets
        set_state(conn, "redaction_version", str(REDACTION_VERSION))

    def _count_file_problems(self) -> None:
        for path, reason in self.file_problems:
            if (path, reason) not in self.told:
                self.stats.add_problems(path, [(None, reason)])

    def _begin(self) -> None:
        """Start a write transaction of an incremental build (see _build_state)."""
        self.conn.execute("BEGIN IMMEDIATE")
        set_state(self.conn, "stale", "1")

    def _set_aside(self, record: dict[str, Any], base: str | None = None) -> None:
        """Set the rows of a stored file's old read aside before it is read again from its
        start, with those of its kept copies, and delete them (see ASIDE_TABLES).

        Whatever its new content no longer holds (the lines a user cut, the messages a
        /rewind dropped, the sessions deleted from opencode's database) goes back under
        `<path>#<session id>` once the new rows are stored (_keep_cut_rows); what it holds
        again is replaced by the new read, so a result changed to a success is one.
        `base`: set aside only `record`, a kept copy of the file at `base` (_reclaim).
        """
        conn = self.conn
        path = base or record["path"]
        self.aside = True
        for table in ASIDE_TABLES:
            conn.execute(
                f"CREATE TEMP TABLE IF NOT EXISTS _aside_{table} AS"
                f" SELECT * FROM main.{table} WHERE 0"
            )
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS _read_before (id INTEGER PRIMARY KEY)")
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS _aside_files (file_id INTEGER PRIMARY KEY,"
            " base TEXT, project_dir TEXT, agent TEXT, copy INTEGER, positional INTEGER)"
        )
        copies = []
        if base is None:
            cursor = conn.execute(
                # every path that starts with `path#`: '$' is the character after '#'
                "SELECT * FROM source_files WHERE path > ? AND path < ?"
                " AND missing_since IS NOT NULL",
                [f"{path}#", f"{path}$"],
            )
            columns = [d[0] for d in cursor.description]
            copies = [dict(zip(columns, row, strict=True)) for row in cursor]
        positional = agents.positional_ids(record["agent"], path)
        for each in (record, *copies):
            conn.execute(
                "INSERT OR IGNORE INTO _aside_files VALUES (?, ?, ?, ?, ?, ?)",
                [
                    each["id"],
                    path,
                    record["project_dir"],
                    record["agent"],
                    each["path"] != path,
                    positional,
                ],
            )
            for sid in _ids(each["session_ids"]):
                for table in DATA_TABLES:  # through each table's session index
                    conn.execute(
                        f"INSERT INTO _aside_{table} SELECT * FROM main.{table}"
                        " WHERE session_id = ? AND file_id = ?",
                        [sid, each["id"]],
                    )
            conn.execute(
                "INSERT INTO _aside_redactions SELECT * FROM main.redactions WHERE file_id = ?",
                [each["id"]],
            )
            self._retract(each)

    def _needing_aside(self, plans: list[Plan]) -> list[tuple[Plan, str | None, dict[str, Any]]]:
        """The plans of a bulk build whose stored rows are set aside before it clears them
        (_set_aside_of), with the path each was stored under if it moved, and its row: those
        whose content changed other than by growing, those with kept copies, whose new read
        stands for the rows it holds again (_set_aside), those read whole, whose read
        takes more than their own bytes (a Gemini session's project from a .project_root,
        projects.json or a checkpoint beside it, an opencode message's parts), which may be
        gone, and those with a persisted output gone since it was read (_side_outputs_gone).
        One that cannot be told (its prefix unreadable now) is set aside too."""
        # (the same file stored under another name is set aside as a moved one: cleared
        # unread, `--force` lost what it no longer holds, a security test of session 33)
        moved_from = {**self.aliases, **{plan.source.path: old for old, plan in self.moved.items()}}
        outputs_gone = _side_outputs_gone(self.conn)
        found = []
        for plan in plans:
            old = moved_from.get(plan.source.path)
            record = self.stored.get(old or plan.source.path)
            if record is None:
                continue
            if old is not None:  # read under its new name, as a refresh would (_move)
                record = {**record, "path": plan.source.path}
            try:
                again = self._plan_file(plan.source, plan.stat, record)
                rewrite = again is not None and again.rewrite
            except OSError:
                rewrite = True
            # (a moved file's copies go by its old name until _set_aside_of renames them)
            copies = (old or plan.source.path) in self.with_copies
            if rewrite or copies or plan.source.whole or record["id"] in outputs_gone:
                found.append((plan, old, record))
        return found

    def _set_aside_of(self, aside: list[tuple[Plan, str | None, dict[str, Any]]]) -> None:
        """Before a bulk build clears the files it reads again: set aside the rows of those
        _needing_aside found, so that what they lost is kept."""
        for plan, old, record in aside:
            if old is not None:  # (only one with kept copies has any to rename)
                self._rename_copies(old, plan.source)
            self._set_aside(record)

    def _keep_side_outputs(self) -> None:
        """A result read again whose persisted output is gone (Claude Code's cleanup of a
        session's tool-results/, a backup without it) gives the preview its line holds: it
        keeps the full text its row set aside had, and its problem says so."""
        conn = self.conn
        marker = transcripts.PERSISTED_OPEN
        conn.execute(
            """UPDATE main.tool_results AS r SET content = a.content,
            content_length = a.content_length, signature = a.signature, kind = a.kind
            FROM _aside_tool_results a WHERE a.tool_use_id = r.tool_use_id
            AND instr(r.content, :marker) > 0 AND instr(a.content, :marker) = 0
            AND EXISTS (SELECT 1 FROM main._persisted_outputs p WHERE p.file_id = r.file_id
                        AND p.tool_use_id = r.tool_use_id AND p.problem IS NOT NULL)""",
            {"marker": marker},
        )
        if conn.execute("SELECT changes()").fetchone()[0]:
            conn.execute(
                """UPDATE main.problems SET reason = replace(reason, :indexed, :kept)
                WHERE EXISTS (SELECT 1 FROM main.tool_results r
                JOIN _aside_tool_results a ON a.tool_use_id = r.tool_use_id
                WHERE r.file_id = problems.file_id AND r.line_no = problems.line_no
                AND r.content = a.content AND instr(r.content, :marker) = 0)""",
                {
                    "marker": marker,
                    "indexed": transcripts.PREVIEW_INDEXED,
                    "kept": transcripts.PREVIEW_KEPT,
                },
            )

    def _keep_cut_rows(self, now: set[str] | None = None) -> None:
        """Put back the rows set aside (_set_aside) that the index does not hold again, each
        under the kept copy of its session, `<path>#<session id>` (made, or deleted once
        empty, here); then empty the aside.

        `now`: the sessions the file's new read holds (one file: a refresh); None, those
        its stored row names (a bulk build, its files all read).
        """
        conn = self.conn
        if not self.aside:
            return
        self.aside = False
        by_key, by_text = HELD_SQL["messages"]
        self._keep_side_outputs()
        for table in ("tool_calls", "tool_results", "session_meta"):
            conn.execute(f"DELETE FROM _aside_{table} WHERE {HELD_SQL[table]}")
        positional = conn.execute("SELECT 1 FROM _aside_files WHERE positional").fetchone()
        # By key first (a key numbering a line is no identity: _rename_numbered): what a
        # rewrite keeps of its messages is seldom any, and the list of the sessions'
        # texts is then never made.
        own_key = f"{by_key} AND file_id IN (SELECT file_id FROM _aside_files WHERE NOT positional)"
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS _held_uuids (uuid TEXT PRIMARY KEY)")

        conn.execute(
            f"INSERT OR IGNORE INTO _held_uuids SELECT uuid FROM _aside_messages WHERE {own_key}"
            " AND file_id IN (SELECT file_id FROM _aside_files WHERE agent != 'claude')"
        )
        conn.execute(f"DELETE FROM _aside_messages WHERE {own_key if positional else by_key}")
        for numbered, ts_x, ts_m in ((0, "''", "''"), (1, *TIME_KEYS)):
            if conn.execute(
                "SELECT 1 FROM _aside_messages WHERE text > '' AND file_id IN (SELECT file_id"
                " FROM _aside_files WHERE agent != 'claude' AND positional = ?) LIMIT 1",
                [numbered],
            ).fetchone():
                same = by_text.format(positional=numbered, ts_x=ts_x, ts_m=ts_m)
                conn.execute(f"DELETE FROM _aside_messages WHERE {same}")
        conn.execute("DELETE FROM _held_uuids")
        if positional:
            self._rename_numbered(by_key)
            conn.execute(f"DELETE FROM _aside_messages WHERE {by_key}")
        cut = conn.execute(
            "SELECT DISTINCT f.base, f.project_dir, f.agent, a.session_id FROM ("
            + " UNION ".join(f"SELECT file_id, session_id FROM _aside_{t}" for t in DATA_TABLES)
            + ") a JOIN _aside_files f ON f.file_id = a.file_id ORDER BY 1, 4"
        ).fetchall()
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS _kept (base TEXT, session_id TEXT, id INTEGER,"
            " PRIMARY KEY (base, session_id))"
        )
        held: dict[str, set[str]] = {}
        for base, project_dir, agent, sid in cut:
            path = f"{base}#{sid}"
            found = conn.execute("SELECT id FROM source_files WHERE path = ?", [path]).fetchone()
            if found:
                kept_id = found[0]
            else:
                if base not in held and now is not None:
                    held[base] = now
                elif base not in held:
                    row = self._stored_row(base)
                    held[base] = set(_ids(row["session_ids"])) if row else set()
                if sid not in held[base]:
                    self.stats.files_missing += 1  # the whole session is gone from the file
                kept_id = conn.execute(
                    "INSERT INTO source_files (path, session_id, project_dir, agent, size,"
                    " mtime_ns, inode, offset, lines, session_ids, missing_since, indexed_at)"
                    " VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, ?, ?, ?)",
                    [
                        path,
                        sid,
                        project_dir,
                        agent,
                        msgspec.json.encode([sid]).decode(),
                        _now(),
                        _now(),
                    ],
                ).lastrowid
                if self.bulk and kept_id is not None:  # as the kept files are (_redact_again)
                    self.kept_ids.append(kept_id)
            conn.execute("INSERT INTO _kept VALUES (?, ?, ?)", [base, sid, kept_id])
            self.with_copies.add(base)
            self._touch([sid])
        if conn.execute("SELECT 1 FROM _aside_redactions LIMIT 1").fetchone():
            # for ASIDE_REDACTION_SESSION_SQL, a lookup per record
            for table, key in (
                ("messages", "uuid"),
                ("tool_calls", "tool_use_id"),
                ("tool_results", "tool_use_id"),
                ("session_meta", "session_id"),
            ):
                conn.execute(
                    f"CREATE INDEX IF NOT EXISTS temp._aside_{table}_key ON _aside_{table} ({key})"
                )
        for table in ASIDE_TABLES:
            names = self._columns(table)
            cols = ", ".join(names)
            picked = ", ".join(f"a.{n}" for n in names)
            session = ASIDE_REDACTION_SESSION_SQL if table == "redactions" else "a.session_id"
            rows = (
                f" FROM _aside_{table} a JOIN _aside_files f ON f.file_id = a.file_id"
                f" JOIN _kept k ON k.base = f.base AND k.session_id = {session}"
            )
            if table != "redactions":  # those a kept copy held before are not counted again
                self.stats.rows_kept += conn.execute(
                    f"SELECT count(*) {rows} WHERE NOT f.copy"
                ).fetchone()[0]
            conn.execute(
                f"INSERT OR IGNORE INTO main.{table} (file_id, {cols}) SELECT k.id, {picked}"
                f"{rows} ORDER BY a.rowid"
            )
        # Kept copies whose every row the new read holds again: gone.
        conn.execute(
            "DELETE FROM source_files WHERE id IN (SELECT file_id FROM _aside_files WHERE copy)"
            " AND id NOT IN (SELECT id FROM _kept)"
        )
        for table in (*ASIDE_TABLES, "files"):
            conn.execute(f"DELETE FROM _aside_{table}")
        conn.execute("DELETE FROM _kept")

    def _rename_numbered(self, by_key: str) -> None:
        """Give another id to the rows set aside from a file whose ids number its lines
        (agents.positional_ids) when a row of other content now has theirs: the line they
        named was cut from the middle. A row without text goes so only with a call or
        result of its own that is kept. The new id, `<id>~<hash of its content>`, is the
        same on every build, which never makes one: a later rewrite keeps it as it is.
        The rows held by their text are gone first (_keep_cut_rows).
        """
        conn = self.conn
        # (Not correlated: each IN list is made once, where one made per row, without an
        # index, took 20 s for the 7,500 rows of a 6 MB session.)
        found = conn.execute(
            "SELECT a.rowid, a.file_id, a.uuid, a.timestamp, a.kind, a.text FROM _aside_messages a"
            " JOIN _aside_files f ON f.file_id = a.file_id WHERE f.positional"
            f" AND ({by_key.replace('_aside_messages.', 'a.')}) AND (a.text > ''"
            " OR a.uuid IN (SELECT message_uuid FROM _aside_tool_calls)"
            " OR a.uuid IN (SELECT message_uuid FROM _aside_tool_results))"
        ).fetchall()
        for rowid, file_id, uuid, timestamp, kind, text in found:
            if self.stats.redact_changed and self._same_but_redaction(uuid, timestamp, kind, text):
                conn.execute("DELETE FROM _aside_messages WHERE rowid = ?", [rowid])
                continue
            new = f"{uuid}~{_hash(f'{timestamp}|{kind}|{text}'.encode())[:12]}"
            conn.execute("UPDATE _aside_messages SET uuid = ? WHERE rowid = ?", [new, rowid])
            conn.execute(
                "UPDATE _aside_redactions SET row_key = ?"
                " WHERE table_name = 'messages' AND row_key = ? AND file_id = ?",
                [new, uuid, file_id],
            )
            for table in ("tool_calls", "tool_results"):
                conn.execute(
                    f"UPDATE _aside_{table} SET message_uuid = ?"
                    " WHERE message_uuid = ? AND file_id = ?",
                    [new, uuid, file_id],
                )

    def _same_but_redaction(self, uuid: str, timestamp: str, kind: str, text: str) -> bool:
        """Whether the message the index holds again as `uuid` is the one set aside, its
        text changed only by the redaction setting (a build that turned it off or on):
        the same line, not another that took its number (_rename_numbered). Both texts
        redacted alike, they are the same; a change of the setting is rare, and only
        the rows whose number another text took are compared."""
        from pastfix.redact import redact  # not loaded by a build with nothing to read

        row = self.conn.execute(
            "SELECT timestamp, kind, text FROM main.messages WHERE uuid = ?", [uuid]
        ).fetchone()
        if row is None or (row[0], row[1]) != (timestamp, kind):
            return False
        return redact(row[2] or "")[0] == redact(text or "")[0]

    def _columns(self, table: str) -> list[str]:
        """The columns of `table` a row keeps when it moves to another file (not its rowid)."""
        if table not in self.column_names:
            self.column_names[table] = [
                r[1]
                for r in self.conn.execute(f"PRAGMA main.table_info({table})")
                if r[1] not in ("id", "file_id")
            ]
        return self.column_names[table]

    def _retract(self, record: dict[str, Any]) -> None:
        """Delete every row a file contributed (its sessions are then refreshed)."""
        conn = self.conn
        file_id = record["id"]
        self.changed.add(file_id)
        session_ids = _ids(record["session_ids"])
        self._touch(session_ids)
        self._touch(self._summarised_sessions(file_id, session_ids))
        for sid in session_ids:
            if not self.bulk:  # a bulk build fills the FTS index anew from the rows
                conn.execute(
                    "INSERT INTO messages_fts(messages_fts, rowid, text)"
                    " SELECT 'delete', id, text FROM messages WHERE session_id = ? AND file_id = ?",
                    [sid, file_id],
                )
            for table in DATA_TABLES:
                conn.execute(
                    f"DELETE FROM {table} WHERE session_id = ? AND file_id = ?", [sid, file_id]
                )
        conn.execute("DELETE FROM problems WHERE file_id = ?", [file_id])
        conn.execute("DELETE FROM redactions WHERE file_id = ?", [file_id])
        conn.execute("DELETE FROM _persisted_outputs WHERE file_id = ?", [file_id])

    def _index_file(
        self, plan: Plan, progress: Callable[[int], None] | None, retract: bool = True
    ) -> bool:
        """Index what `plan` says to read of one file; False, changing nothing, if it cannot.

        A rewritten file's old rows are set aside first (unless the caller retracted them,
        `retract=False`), and those its new content does not hold are kept (_set_aside),
        inside the same savepoint as its new rows.
        """
        conn = self.conn
        source = plan.source
        stored = plan.stored
        if stored is not None:
            file_id = stored["id"]
            lines = 0 if plan.rewrite else stored["lines"]
            session_ids = set() if plan.rewrite else set(_ids(stored["session_ids"]))
            head_hash = stored["head_hash"]
            skipped = 0 if plan.rewrite else stored["skipped_lines"]
        else:
            file_id = None
            lines, session_ids, head_hash, skipped = 0, set(), "", 0
        # Read on from the stored offset (an append, checked by _is_append), the
        # CRC goes on from the stored one.
        crc = stored["prefix_crc"] if stored is not None and plan.start else 0
        tail_hash = ""
        offset = plan.start
        first_id = None
        # A file that turns out unreadable, even halfway, changes nothing: its
        # old rows stay with its old offset. A new file of a build into an empty index
        # has no old rows: what it stored is deleted instead of rolled back to a
        # savepoint, whose journal of the pages the file's rows changed (the unique
        # indexes' pages above all) was 1.6% of a fresh build's instructions.
        savepoint = not (self.new_index and stored is None)
        if savepoint:
            conn.execute("SAVEPOINT file")
        aside = plan.rewrite and stored is not None and retract
        self.reclaimed = False
        if aside:
            assert stored is not None
            self._set_aside(stored)
        if not self.bulk:
            first_id = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
        self.first_id, self.read_before = first_id, False
        forgotten = forgotten_key(source.path) if self.forgotten else None
        if file_id is None:
            if forgotten in self.forgotten:  # a forced build reads it again, as new
                conn.execute("DELETE FROM source_files WHERE path = ?", [forgotten])
            file_id = conn.execute(
                "INSERT INTO source_files (path, session_id, project_dir, agent, size, mtime_ns,"
                " inode, offset, lines) VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0)",
                [source.path, source.session_id, source.project_dir, source.agent],
            ).lastrowid
        elif forgotten in self.forgotten and self.forgotten[forgotten]["id"] == file_id:
            # A forgotten file that grew or was rewritten is read (its new lines, or all of
            # it): its row is a file's again, with its name.
            conn.execute(
                "UPDATE source_files SET path = ?, session_id = ?, project_dir = ? WHERE id = ?",
                [source.path, source.session_id, source.project_dir, file_id],
            )
        reader = self._reader(source.agent)
        # The calls of this file read so far that print a secret alone, whose results the
        # runs read next may hold (see prepare._redact_printed).
        printing: Printing = {}
        try:
            with _open_regular(source.path) as f:
                if source.path in self.watched and self._changed_since_planned(plan, f):
                    raise OSError(0, "changed since the build planned", source.path)
                if source.whole:
                    # Read and parsed as one: its records are not lines to read on from.
                    if source.database:
                        # Opened by its reader (which first checks it is a database at
                        # all), and only streamed here: opencode's store of a long
                        # history weighs gigabytes, mostly tables no reader reads.
                        batch = reader.parse_file(source, b"")
                        offset = os.fstat(f.fileno()).st_size
                        crc = _prefix_crc(f, offset)
                    else:
                        # At most MAX_WHOLE_BYTES, else an OSError: not read, its rows kept.
                        data = read_whole(f)
                        crc, offset = _crc32()(data, 0), len(data)
                        batch = reader.parse_file(source, data)
                        del data  # before its rows are prepared and saved
                    outputs = self._read_side_outputs(batch, source)
                    batch = prepare(batch, redact_secrets=self.redact, printing=printing)
                    self._save_batch(file_id, source.path, batch)
                    self._save_side_outputs(file_id, outputs)
                    session_ids.update(batch.session_ids)
                    lines, skipped = batch.lines, batch.skipped
                    self.stats.bytes_read += offset
                    if progress:
                        progress(offset)
                # Read from its start: is it a text file at all? (see lines.not_text)
                binary = None if offset or source.whole else not_text(f.read(TEXT_HEAD))
                dropped = 0  # the lines of such a file that were problems, told as one
                # A reader whose lines lean on earlier ones (a Codex poll names the command
                # an earlier call started) parses every run of this read with what the
                # lines before it leave, those before the offset too (Reader.reads_on).
                parse_lines = reader.parse_lines
                reads_on = getattr(reader, "reads_on", None)
                if reads_on is not None and not source.whole:
                    parse_lines = reads_on(f, offset, source.session_id)
                f.seek(offset)
                for run in () if source.whole else _runs(f, crc):
                    if run.too_long:
                        # Said once, and read on from its end (or the file's).
                        lines += 1
                        batch = Batch(lines=1)
                        reason = (
                            f"a line of {run.size:,} bytes, longer than the"
                            f" {MAX_LINE_BYTES >> 20} MB a line may be: not read"
                        )
                        batch.problems.append(Problem(lines, reason, line_head(run.data)))
                        batch = prepare(batch, redact_secrets=self.redact)
                        self._save_batch(file_id, source.path, batch)
                    elif run.size:
                        batch = parse_lines(
                            run.data,
                            first_line_no=lines + 1,
                            default_session_id=source.session_id,
                        )
                        if binary:  # its good lines, if any, are kept
                            dropped += len(batch.problems)
                            batch.problems.clear()
                        # Before prepare(): the text read from a side file is
                        # redacted, cut and signed as any other.
                        outputs = self._read_side_outputs(batch, source)
                        if plan.start and self.redact and batch.tool_results:
                            self._printing_stored(batch, printing)
                        batch = prepare(batch, redact_secrets=self.redact, printing=printing)
                        self._save_batch(file_id, source.path, batch)
                        self._save_side_outputs(file_id, outputs)
                        session_ids.update(batch.session_ids)
                        lines += batch.lines
                        skipped += batch.skipped
                    offset += run.size
                    crc = run.crc
                    self.stats.bytes_read += run.read
                    if progress and run.read:
                        progress(run.read)
                if dropped:
                    batch = Batch()
                    reason = f"{binary}: {count(dropped, 'line')} skipped"
                    batch.problems.append(Problem(None, reason, ""))
                    self._save_batch(file_id, source.path, batch)
                if source.path in self.watched and f.tell() < plan.stat.st_size:
                    # Cut short while it was read (`truncate`, `head -c ... >` over it): the
                    # check on opening saw it whole, but its cleared rows would not all
                    # come back from what is left.
                    raise OSError(0, "changed since the build planned", source.path)
                if plan.start < HEAD_BYTES:
                    # Hash exactly the bytes a later build re-reads to compare.
                    f.seek(0)
                    head_hash = _hash(f.read(min(HEAD_BYTES, offset)))
                f.seek(max(0, offset - TAIL_BYTES))
                tail_hash = _hash(f.read(offset - max(0, offset - TAIL_BYTES)))
        except (*READ_ERRORS, _OutOfTime) as e:
            if savepoint:
                conn.execute("ROLLBACK TO file")
                conn.execute("RELEASE file")
            else:
                self._delete_file_rows(file_id)
            if aside or self.reclaimed:
                # Its own aside is rolled back with the rest; the rows a bulk build set
                # aside before (_set_aside_of) are not, and are still put back.
                self.aside = False
            if isinstance(e, _OutOfTime):
                self.stats.files_left += 1  # no problem: the next build reads it
                return False
            self.failed[source.path] = _read_error(e)
            self._file_problem(source.path, self.failed[source.path])
            return False
        if aside or self.reclaimed:  # before the FTS rows below, which index the kept ones too
            self._keep_cut_rows(session_ids)
        if self.first_id is not None:  # (lowered by _reclaim)
            conn.execute(
                "INSERT INTO messages_fts(rowid, text) SELECT id, text FROM messages WHERE id > ?",
                [self.first_id],
            )
        conn.execute(
            "UPDATE source_files SET size = ?, mtime_ns = ?, inode = ?, offset = ?, lines = ?,"
            " head_hash = ?, tail_hash = ?, session_ids = ?, skipped_lines = ?, indexed_at = ?,"
            " prefix_crc = ?, missing_since = NULL WHERE id = ?",
            [
                *plan.version,
                offset,
                lines,
                head_hash,
                tail_hash,
                msgspec.json.encode(sorted(session_ids)).decode(),
                skipped,
                _now(),
                crc,
                file_id,
            ],
        )
        read_before = self.read_before
        if read_before:
            conn.execute("DELETE FROM _read_before")
        if savepoint:
            conn.execute("RELEASE file")
        self.changed.add(file_id)
        # Read on from where it was, its stored rows as they were: the fixes of its sessions
        # are computed again only where the new lines can change them (refresh_fixes).
        appended = (
            stored is not None
            and plan.start > 0
            and not plan.rewrite
            and not source.whole
            and not aside
            and not self.reclaimed
            and not read_before
        )
        for sid in session_ids:
            if appended and sid not in self.touched:
                assert stored is not None
                self.touched.add(sid)
                self.appended[sid] = (file_id, stored["lines"] + 1)
            else:
                self._touch([sid])
        if not self.bulk:
            self._touch(self._summarised_sessions(file_id, session_ids))
        self.stats.files_read += 1
        return True

    def _touch(self, session_ids: Iterable[str]) -> None:
        """Mark `session_ids` to refresh, all their fixes computed again."""
        for sid in session_ids:
            self.touched.add(sid)
            self.appended.pop(sid, None)

    def _delete_file_rows(self, file_id: int) -> None:
        """Delete all that a new file of a new index stored, its source_files row too: the
        index is as if it had not been read, as a rollback to its savepoint leaves it (its
        rows have the highest ids, so the next file's get the same ids either way)."""
        conn = self.conn
        for table in (*DATA_TABLES, *FILE_TABLES):
            conn.execute(f"DELETE FROM {table} WHERE file_id = ?", [file_id])
        conn.execute(
            "DELETE FROM _duplicate_links WHERE file_id = ? OR other_id = ?", [file_id, file_id]
        )
        conn.execute("DELETE FROM source_files WHERE id = ?", [file_id])

    def _changed_since_planned(self, plan: Plan, f: BinaryIO) -> bool:
        """Whether a watched file (see self.watched) no longer begins with what the index
        read of it: its rows, cleared, would not all come back. Growth is no change (a live
        session written to while a forced build runs); the stat says when to look."""
        st = os.fstat(f.fileno())
        if (st.st_size, st.st_mtime_ns, st.st_ino) == (
            plan.stat.st_size,
            plan.stat.st_mtime_ns,
            plan.stat.st_ino,
        ):
            return False
        stored = self.watched[plan.source.path]
        if stored is None:  # stored under another name: only its inode and size tell
            return st.st_ino != plan.stat.st_ino or st.st_size < plan.stat.st_size
        return not self._begins_with(plan.source.path, st, stored)

    def _save_batch(self, file_id: int, path: str, batch: Batch) -> None:
        conn = self.conn
        stats = self.stats
        # The rows stored, not those parsed: INSERT OR IGNORE drops an id already held
        # (a session file copied beside its original: 33 rows of ../shared/corpus/real).
        stored = self._insert_rows(file_id, batch)
        parsed = len(batch.messages) + len(batch.tool_calls) + len(batch.tool_results)
        ignored = parsed + len(batch.meta) - sum(stored.values())
        # Once per read, and not while its old rows are aside: the rows of its kept copies
        # then are too, and those ignored are another file's. What is not held again goes
        # back once the whole file is read (_index_file): put back after one chunk of many,
        # the next took them again (deleting from messages_fts rows it never held).
        reclaimed = ignored and not self.bulk and not self.aside and self._reclaim(path)
        if reclaimed:
            self.reclaimed = True
            # Lines the file holds again (a truncated transcript restored from a backup,
            # read on from where it was cut): its new read stands for them, as a rewrite's.
            for table, count in self._insert_rows(file_id, batch).items():
                stored[table] += count
            ignored = parsed + len(batch.meta) - sum(stored.values())
        failed = sum(r.is_error for r in batch.tool_results)
        if stored["tool_results"] < len(batch.tool_results):
            failed = stored_failures(conn, "tool_results", stored["tool_results"])
        if ignored:
            stats.duplicates += ignored
            self._flag_duplicates(file_id, batch)
        if batch.problems:
            conn.executemany(
                INSERT_SQL["problems"],
                [(file_id, path, p.line_no, p.reason, p.excerpt) for p in batch.problems],
            )
        if batch.redactions:
            conn.executemany(INSERT_SQL["redactions"], [(file_id, *r) for r in batch.redactions])
            stats.redactions += sum(r.occurrences for r in batch.redactions)
        stats.new_lines += batch.lines
        stats.messages += stored["messages"]
        stats.tool_calls += stored["tool_calls"]
        stats.tool_results += stored["tool_results"]
        stats.failed_tool_results += failed
        if batch.problems:
            stats.add_problems(path, [(p.line_no, p.reason) for p in batch.problems])
        stats.skipped_lines += batch.skipped

    def _insert_rows(self, file_id: int, batch: Batch) -> dict[str, int]:
        """Insert the data rows of `batch`; how many each table stored (not those ignored)."""
        conn = self.conn
        stored: dict[str, int] = {}
        for table, field_name in _BATCH_DATA.items():
            before = conn.total_changes
            rows = getattr(batch, field_name)
            if rows:
                # (file_id, *row) made in C: 0.1 against 0.36 us a row (115,000 at 200 MB)
                conn.executemany(INSERT_SQL[table], map(add, repeat((file_id,)), rows))
            stored[table] = conn.total_changes - before
        return stored

    def _reclaim(self, path: str) -> bool:
        """Set the rows of the kept copies of the file at `path` aside (see _set_aside), when
        it has any: some rows of its batch were ignored, maybe as theirs."""
        if path not in self.with_copies:
            return False
        cursor = self.conn.execute(
            "SELECT * FROM source_files WHERE path > ? AND path < ? AND missing_since IS NOT NULL",
            [f"{path}#", f"{path}$"],
        )
        columns = [d[0] for d in cursor.description]
        copies = [dict(zip(columns, row, strict=True)) for row in cursor]
        for copy in copies:
            self._set_aside(copy, base=path)
        if copies and self.first_id is not None:
            # Their rows go back with new ids, maybe below the highest the read started
            # from (the ids they free are used again): messages_fts indexes from there.
            top = self.conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
            self.first_id = min(self.first_id, top)
        if copies and self.first_id is not None and not self.read_before:
            # once per read: the ids of rows it stored are new, or those the kept copies freed
            self.read_before = True
            self.conn.execute(
                "INSERT INTO _read_before SELECT id FROM main.messages WHERE id <= ? AND"
                " file_id = (SELECT id FROM source_files WHERE path = ?)",
                [self.first_id, path],
            )
        return bool(copies)

    def _printing_stored(self, batch: Batch, printing: Printing) -> None:
        """Add to `printing` the stored calls that print a secret alone of the results of
        `batch` whose call it does not hold: a read from a stored offset may begin between a
        call and its result (a build while the command ran). By id, the key of tool_calls."""
        held = {call.tool_use_id for call in batch.tool_calls}
        ids = [
            r.tool_use_id
            for r in batch.tool_results
            if r.tool_use_id not in held and r.tool_use_id not in printing
        ]
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = self.conn.execute(
                "SELECT tool_use_id, name, command, file_path FROM tool_calls"
                " WHERE (command IS NOT NULL OR file_path IS NOT NULL)"
                f" AND tool_use_id IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            printing_calls(rows, printing)

    def _read_side_outputs(self, batch: Batch, source: SourceFile) -> list[PersistedOutput]:
        """Put the full text of the agent's persisted outputs in place of their markers."""
        read = agents.side_outputs(source.agent)
        if read is None:
            return []
        return read(batch, source, None if self.deadline is None else self._spend)

    def _save_side_outputs(self, file_id: int, outputs: list[PersistedOutput]) -> None:
        if outputs:
            self.conn.executemany(
                INSERT_SQL["_persisted_outputs"], [(file_id, *output) for output in outputs]
            )
            self.stats.persisted_outputs += sum(o.problem is None for o in outputs)

    def _flag_duplicates(self, file_id: int, batch: Batch) -> None:
        """Link this file to the files that already hold its ids (see _repair_duplicates)."""
        conn = self.conn
        owners: set[int] = set()
        for table, (field_name, column) in UNIQUE_KEYS.items():
            keys = list(map(attrgetter(column), getattr(batch, field_name)))
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                owners.update(
                    r[0]
                    for r in conn.execute(
                        f"SELECT DISTINCT file_id FROM {table} WHERE {column} IN"
                        f" ({','.join('?' * len(chunk))}) AND file_id != ?",
                        [*chunk, file_id],
                    )
                )
        conn.executemany(
            "INSERT OR IGNORE INTO _duplicate_links (file_id, other_id) VALUES (?, ?)",
            [pair for other in owners for pair in ((file_id, other), (other, file_id))],
        )

    def _summarised_sessions(self, file_id: int, session_ids: Iterable[str]) -> set[str]:
        """Sessions titled by a summary line of this file (whose leafUuid they hold)."""
        found: set[str] = set()
        for sid in session_ids:
            found.update(
                r[0]
                for r in self.conn.execute(
                    "SELECT DISTINCT m.session_id FROM session_meta sm"
                    " JOIN messages m ON m.uuid = sm.leaf_uuid"
                    " WHERE sm.session_id = ? AND sm.file_id = ? AND sm.leaf_uuid IS NOT NULL",
                    [sid, file_id],
                )
            )
        return found

    def _refresh_sessions(self, all_sessions: bool = False) -> None:
        if all_sessions:
            self.touched = stored_sessions(self.conn)
        if self.touched:
            refresh_sessions(self.conn, self.touched)
            if not all_sessions:  # a bulk build computes every fix in _finish
                refresh_fixes(self.conn, self.touched, self.appended)


# A side file as a build saw it: its path, then size, mtime and ctime (None: not found).
SideFile = tuple[str, int | None, int | None, int | None]


def _stored_side_files(conn: Connection) -> dict[int, list[SideFile]]:
    """The persisted outputs of the stored files, by file id (see _side_files_changed)."""
    found: dict[int, list[SideFile]] = {}
    for file_id, *side in conn.execute(
        "SELECT file_id, path, size, mtime_ns, ctime_ns FROM _persisted_outputs"
    ):
        found.setdefault(file_id, []).append(tuple(side))
    return found


def _side_outputs_gone(conn: Connection) -> set[int]:
    """The stored files with a persisted output whose full text the index holds and whose
    file is gone now: read again, each would give the preview its line holds for that text
    (a bulk build sets their rows aside: _keep_side_outputs). One stat per such output."""
    return {
        file_id
        for file_id, path in conn.execute(
            "SELECT p.file_id, p.path FROM _persisted_outputs p JOIN tool_results r"
            " ON r.tool_use_id = p.tool_use_id AND r.file_id = p.file_id"
            " WHERE instr(r.content, ?) = 0",
            [transcripts.PERSISTED_OPEN],
        )
        if not os.path.lexists(path)
    }


def _side_files_changed(side_files: Iterable[SideFile]) -> bool:
    """Whether a persisted output appeared or changed since it was read.

    One lstat() each (a no-change refresh of an index with none pays one SELECT; a link
    is not followed, as it is not read). A file that is gone now changes nothing: what
    was read from it stays indexed, as Claude Code deletes the folder with the transcript.
    """
    for path, size, mtime_ns, ctime_ns in side_files:
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if (st.st_size, st.st_mtime_ns, st.st_ctime_ns) != (size, mtime_ns, ctime_ns):
            return True
    return False


def _secondary_indexes(conn: Connection) -> list[tuple[str, str]]:
    """The indexes a bulk build drops for the load and creates after it.

    Not the partial ones (`WHERE is_error = 1`): they hold ~3% of the tool results,
    so keeping them up to date costs next to nothing, while creating each afterwards
    scans the whole table in the build's last, single-process part (four scans,
    0.05-0.06 s at 500 MB; kept, the load takes 0-0.03 s longer).
    """
    return conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        " AND sql NOT LIKE 'CREATE UNIQUE%' AND sql NOT LIKE '% WHERE %'"
        " AND tbl_name IN (?, ?, ?)",
        ["messages", "tool_calls", "tool_results"],
    ).fetchall()


class _Run(NamedTuple):
    """What _runs read next of a file."""

    data: bytes  # complete lines to parse; of a line too long, its head
    size: int  # the bytes of the file they are: the offset moves on by this much
    crc: int  # the CRC-32 of the file up to the end of them (prefix_crc)
    read: int  # the bytes read from the file since the last run (progress)
    too_long: bool = False  # one line over MAX_LINE_BYTES, not read


def _runs(f: BinaryIO, crc: int) -> Iterator[_Run]:
    """The rest of `f` as runs of complete lines, a chunk at a time; `crc` is that of
    the file up to where it is read from.

    A line no chunk ends is held, its parts joined once one does; one that grows over
    MAX_LINE_BYTES is read on to its end (or the file's) without being held, and comes
    as a run of its own (`too_long`). A run of `size` 0 only tells what was read. The
    unfinished line a file ends in is not returned: it is read again next time.
    """
    crc32 = _crc32()
    parts: list[bytes] = []  # the start of the line no chunk has ended yet
    held = 0  # its bytes
    head: bytes | None = None  # the head of a line too long, while it is read on
    ahead = crc  # with it: the CRC of the file up to what is read of it
    while chunk := f.read(CHUNK_BYTES):
        read = len(chunk)
        if head is not None:
            end = chunk.find(b"\n") + 1
            ahead = crc32(memoryview(chunk)[: end or read], ahead)
            held += end or read
            if not end:
                yield _Run(b"", 0, crc, read)
                continue
            crc = ahead
            yield _Run(head, held, crc, 0, too_long=True)
            head, held = None, 0
            chunk = chunk[end:]
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            parts.append(chunk)
            held += len(chunk)
            if held > MAX_LINE_BYTES:
                head, ahead = parts[0][:EXCERPT_SOURCE_BYTES], crc
                for part in parts:
                    ahead = crc32(part, ahead)
                parts = []
            yield _Run(b"", 0, crc, read)
            continue
        data = b"".join((*parts, chunk)) if parts else chunk
        cut += held
        parts = [data[cut:]] if cut < len(data) else []
        held = len(data) - cut
        crc = crc32(memoryview(data)[:cut], crc)
        yield _Run(data[:cut] if held else data, cut, crc, read)
    if head is not None:
        # The file ends in it: not read again from its middle by the next build.
        yield _Run(head, held, ahead, 0, too_long=True)


def _split(plans: list[Plan]) -> tuple[list[Plan], list[Plan]]:
    """The files this process reads, and the later ones (in path order) a helper reads."""
    ends = list(accumulate(p.stat.st_size for p in plans))
    if not ends or ends[-1] < PARALLEL_MIN_BYTES or len(plans) < 2 or (os.cpu_count() or 1) < 2:
        return plans, []
    # The first files that hold the share; the helper gets one file at least.
    cut = min(bisect_left(ends, ends[-1] * OWN_SHARE) + 1, len(plans) - 1)
    # Not between two files of one session (a Claude Code session and its subagents'): the
    # fixes of a session both halves hold are computed again after the copy, by this
    # process alone (a 2.7 MB session of ../shared/corpus/real: 0.4G instructions, a ninth
    # of its build). The cut between two sessions nearest to that one, in bytes.
    sessions = [p.source.session_id for p in plans]
    apart = [
        c for c in range(1, len(plans)) if sessions[c] is None or sessions[c] != sessions[c - 1]
    ]
    if apart:
        share = ends[cut - 1]
        cut = min(apart, key=lambda c: abs(ends[c - 1] - share))
    return plans[:cut], plans[cut:]


def linked_any(conn: Connection, file_ids: set[int]) -> bool:
    ids = sorted(file_ids)
    return any(
        conn.execute(
            "SELECT 1 FROM _duplicate_links"
            f" WHERE file_id IN ({','.join('?' * len(ids[i : i + 500]))}) LIMIT 1",
            ids[i : i + 500],
        ).fetchone()
        for i in range(0, len(ids), 500)
    )


def _ids(stored: str | None) -> list[str]:
    return msgspec.json.decode(stored) if stored else []


def _version(source: SourceFile, st: os.stat_result) -> tuple[int, int, int]:
    """What tells a change of a source file: its size, mtime and inode, with the sizes
    and mtimes of its companions (a database's -wal) for a `whole` one."""
    size, mtime_ns = st.st_size, st.st_mtime_ns
    for path in source.companions:
        try:
            other = os.stat(path)
        except OSError:
            continue
        size += other.st_size
        mtime_ns = max(mtime_ns, other.st_mtime_ns)
    return size, mtime_ns, st.st_ino


@functools.cache
def _crc32() -> Callable[[bytes | memoryview, int], int]:
    """zlib's CRC-32 (prefix_crc), from ISA-L where the isal package is installed.

    The same value as zlib.crc32, six times faster: 0.012 s against 0.072 s of CPU for
    the 200 MB benchmark corpus (~3% of a single-process build). Looked up on first use:
    a build that reads nothing (the no-change refresh) does not import it.
    """
    try:
        from isal import isal_zlib
    except ImportError:  # no isal wheel for this platform
        import zlib

        return zlib.crc32
    return isal_zlib.crc32


def _prefix_crc(f: BinaryIO, size: int) -> int:
    """The CRC-32 of the next `size` bytes of `f` (fewer if it ends first), read in blocks."""
    crc, crc32 = 0, _crc32()
    while size > 0:
        block = f.read(min(PREFIX_BLOCK_BYTES, size))
        if not block:
            break
        crc = crc32(block, crc)
        size -= len(block)
    return crc


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _hash(data: bytes) -> str:
    # hashlib's blake2b is _blake2's; hashlib itself loads OpenSSL's libcrypto (~11M
    # instructions, ~3 ms, in each process of a bulk build), which no build has a use for.
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without its own hashes
        from hashlib import blake2b

    return blake2b(data, digest_size=16).hexdigest()
