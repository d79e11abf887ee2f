"""A bulk build's forked helper: it indexes the later part of the files into a side file
that the builder copies in (see Shard)."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from pastfix.db import (
    BUSY_TIMEOUT,
    CACHE_KIB,
    DATA_TABLES,
    FILE_TABLES,
    PAGE_SIZE,
    PER_SESSION_INDEXES,
    UNIQUE_KEYS,
    call_sessions,
    create_private,
    refresh_fixes,
    refresh_sessions,
    rejected_plan_sessions,
    stored_failures,
    stored_sessions,
)
from pastfix.records import Reader

if TYPE_CHECKING:
    from pastfix.build import Builder, Plan

# Whether one half of a bulk build holds an id the other half's sessions would look up:
# a call whose result, or a result whose call, is in the other half (fixes), or a summary
# whose leaf message is (a session's title).
CROSS_HALF_IDS_SQL = """
SELECT 1 FROM shard.tool_calls s WHERE EXISTS
    (SELECT 1 FROM main.tool_results r WHERE r.tool_use_id = s.tool_use_id)
UNION ALL
SELECT 1 FROM shard.tool_results s WHERE EXISTS
    (SELECT 1 FROM main.tool_calls c WHERE c.tool_use_id = s.tool_use_id)
UNION ALL
SELECT 1 FROM shard.session_meta s WHERE s.leaf_uuid IS NOT NULL AND EXISTS
    (SELECT 1 FROM main.messages m WHERE m.uuid = s.leaf_uuid)
UNION ALL
SELECT 1 FROM main.session_meta s WHERE s.leaf_uuid IS NOT NULL AND EXISTS
    (SELECT 1 FROM shard.messages m WHERE m.uuid = s.leaf_uuid)
LIMIT 1
"""


class _Channel:
    """One end of the pipe from a bulk build's helper to the builder (see Shard): messages
    of lists, dicts, strings and numbers, each sent as its length (4 bytes) and its msgpack.

    multiprocessing's Pipe did the same with pickle; importing it (with socket, selectors
    and pickle) was ~10 ms of the build's start, before the fork.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()

    def send(self, message: Any) -> None:
        data = msgspec.msgpack.encode(message)
        view = memoryview(len(data).to_bytes(4, "big") + data)
        while view:
            view = view[os.write(self.fd, view) :]

    def poll(self) -> bool:
        """Whether recv() has something to return now (or the other end is closed)."""
        if self._complete():
            return True
        waiting = select.poll()  # (not select(): a process may hold fds past FD_SETSIZE)
        waiting.register(self.fd, select.POLLIN)
        return bool(waiting.poll(0))

    def recv(self) -> Any:
        """The next message, waiting for it; EOFError once the other end is closed."""
        while not self._complete():
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise EOFError("the helper closed its end")
            self.pending += chunk
        size = int.from_bytes(self.pending[:4], "big")
        message = msgspec.msgpack.decode(self.pending[4 : 4 + size])
        del self.pending[: 4 + size]
        return message

    def _complete(self) -> bool:
        have = len(self.pending)
        return have >= 4 and have >= 4 + int.from_bytes(self.pending[:4], "big")

    def close(self) -> None:
        os.close(self.fd)


class Shard:
    """A forked helper that indexes the later half of a bulk build into a side file.

    Parsing is Python and holds the GIL, so a second core only helps in another
    process; shipping rows between processes costs as much as parsing them, so
    the helper writes them to its own SQLite file, which the builder copies in
    with INSERT ... SELECT (no Python per row) inside its single transaction.

    Each half also computes its own sessions and their fixes (refresh_sessions and
    refresh_fixes, 0.2-0.35 s of a 200 MB build, 40% of what only the builder did
    after the merge): the helper in its side file, the builder before it waits. A
    session's row and fixes read its own rows, the calls and results of the
    tool_use_ids its fixes name and the messages its summaries name; those the
    builder keeps are those of sessions that only one half holds, when no such id
    of one half is in the other (CROSS_HALF_IDS_SQL, and no row ignored as a
    duplicate by the copy). Any other session is computed again after the copy,
    and every one when the copy ignored a row: the result is that of one refresh
    over the merged rows.

    The helper commits its rows and says so ("rows") before it computes its
    sessions and fixes, which it writes into a second side file (`.sessions`, its
    rows file attached): the builder copies the rows, makes the deferred indexes
    and the full-text index meanwhile (1.3G instructions at 200 MB, the helper's
    sessions and fixes 1.3G), then takes those ("sessions"). The builder reads the
    rows file in its own transaction until it commits, so the helper writes nothing
    there after "rows".
    """

    def __init__(
        self, builder: Builder, path: Path, pid: int, pipe: _Channel, per_session: bool
    ) -> None:
        self.builder, self.path, self.pid, self.pipe = builder, path, pid, pipe
        self.result: dict[str, Any] | None = None
        # Whether the helper computes its sessions and their fixes; once the copy kept
        # them, the sessions the builder must compute again (see merge).
        self.per_session = per_session
        self.again: set[str] | None = None
        # The sessions both halves hold, when the helper's others can be kept (see merge).
        self.both: set[str] | None = None
        self.sessions_path = Path(f"{path}.sessions")
        self.sessions_done: bool | None = None  # the helper's "sessions": True, or failed
        self.reaped = False

    @staticmethod
    def side_path(db_path: Path) -> Path:
        """The helper's rows file (its sessions file is this path + .sessions)."""
        return db_path.with_name(f"{db_path.name}.part-{os.getpid()}")

    @classmethod
    def start(cls, builder: Builder, plans: list[Plan]) -> Shard:
        path = cls.side_path(builder.db_path)
        for suffix in ("", "-journal"):  # left by a helper of that pid that died
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        # The tables the helper writes, as the index has them, with the unique indexes
        # that INSERT OR IGNORE relies on: 2 ms, where connect() would run every
        # migration again (18 ms, before the helper can start).
        create_private(path)  # (rows of the index, as private as it)
        side = sqlite3.connect(path, isolation_level=None)
        side.execute(f"PRAGMA page_size={PAGE_SIZE}")
        # One transaction, no fsync: a side file left by a crash is discarded (it was an
        # fsync or three per statement, ~45 of them before the helper could start).
        side.execute("PRAGMA synchronous=OFF")
        side.execute("BEGIN")
        # (Its sessions and fixes go into the second side file, made below.)
        tables: tuple[str, ...] = ("source_files", "_duplicate_links", *DATA_TABLES, *FILE_TABLES)
        for (sql,) in builder.conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN"
            f" ({', '.join('?' * len(tables))}) AND (type = 'table' OR sql LIKE 'CREATE UNIQUE%')"
            " ORDER BY type DESC",
            tables,
        ):
            side.execute(sql)
        side.execute("COMMIT")
        side.close()
        sessions_path = Path(f"{path}.sessions")
        for suffix in ("", "-journal"):
            Path(f"{sessions_path}{suffix}").unlink(missing_ok=True)
        create_private(sessions_path)
        side = sqlite3.connect(sessions_path, isolation_level=None)
        side.execute("PRAGMA synchronous=OFF")
        side.execute("BEGIN")
        for (sql,) in builder.conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name IN"
            " ('sessions', 'fixes', '_build_state')"
        ):
            side.execute(sql)
        side.execute("COMMIT")
        side.close()
        # A forced build may keep archived rows, with sessions the helper cannot see.
        per_session = not builder.force
        indexes = [
            sql
            for (sql,) in builder.conn.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name IN"
                f" ({', '.join('?' * len(PER_SESSION_INDEXES))})",
                PER_SESSION_INDEXES,
            )
        ]
        # Attached before the builder's transaction begins (SQLite forbids it after).
        builder.conn.execute("ATTACH DATABASE ? AS shard", [str(path)])
        builder.conn.execute("ATTACH DATABASE ? AS shard_sessions", [str(sessions_path)])
        # The rules' modules, loaded once, here, for both processes: imported by the first
        # batch of each, they were loaded twice (a few ms in the helper). Redaction's rules
        # themselves are compiled by each process as its texts need them.
        import pastfix.fixes  # noqa: F401
        import pastfix.signatures  # noqa: F401

        if builder.redact:
            import pastfix.redact  # noqa: F401
        read_end, write_end = os.pipe()
        ours, theirs = _Channel(read_end), _Channel(write_end)
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the helper: never returns, never touches the builder's connection
            code = 1
            try:
                ours.close()
                _run_shard(
                    type(builder),
                    path,
                    plans,
                    builder.reader,
                    theirs,
                    parent,
                    builder.redact,
                    indexes if per_session else None,
                    builder.watched,
                )
                code = 0
            except BaseException as e:  # reported to the builder, which does the work itself
                theirs.send(("failed", f"{type(e).__name__}: {e}"))
            finally:
                os._exit(code)
        theirs.close()
        return cls(builder, path, pid, ours, per_session)

    def poll(self, progress: Callable[[int], None] | None) -> None:
        try:
            while self.result is None and self.pipe.poll():
                self._receive(progress)
        except (EOFError, OSError):
            self.result = {}  # it died: merge() falls back

    def _receive(self, progress: Callable[[int], None] | None) -> None:
        kind, value = self.pipe.recv()
        if kind == "progress" and progress:
            progress(value)
        elif kind == "rows":
            self.result = value
        elif kind == "sessions":
            self.sessions_done = True
        elif kind == "failed":
            if self.result is None:  # the builder does the helper's share itself
                self.result = {}
            else:  # its sessions and fixes: the builder computes them after the copy
                self.sessions_done = False

    def merge(
        self, progress: Callable[[int], None] | None, own_sessions: set[str] | None = None
    ) -> bool:
        """Wait for the helper and copy its rows in; False if it failed.

        `own_sessions`: the sessions of this half, whose fixes the builder computed;
        None if it did not (see the class's docstring). When the helper's fixes are
        kept, `again` says which sessions to compute once the indexes are made.
        """
        try:
            while self.result is None:
                self._receive(progress)
        except (EOFError, OSError):
            self.result = {}
        result = self.result
        if not result:
            self._reap()
            return False
        self.builder.stats.add(result["stats"])
        self.builder.file_problems += [tuple(p) for p in result["file_problems"]]
        self.builder.failed.update(result["failed"])
        conn = self.builder.conn
        # Before the copy: the main tables hold this half's rows only.
        apart = (
            own_sessions is not None
            and result.get("sessions") is not None
            and conn.execute(CROSS_HALF_IDS_SQL).fetchone() is None
        )
        ignored = self._copy()
        if apart and not ignored:
            assert own_sessions is not None
            self.both = own_sessions.intersection(result["sessions"])
        return True

    def merge_sessions(self, progress: Callable[[int], None] | None) -> None:
        """Wait for the helper's sessions and fixes, and keep those of the sessions only its
        half holds (see merge); `again` then says which the builder computes itself. When
        they cannot be kept or the helper failed, `again` stays None: every session and fix
        is computed after the copy."""
        try:
            while self.per_session and self.result and self.sessions_done is None:
                self._receive(progress)
        except (EOFError, OSError):
            self.sessions_done = False
        self._reap()
        if self.both is None or not self.sessions_done:
            return
        conn = self.builder.conn
        # the ids bound one by one, not as JSON: json_each ends a text at an escaped NUL
        # (a session id of "\u0000" was read as "", and its session copied twice)
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS _both (session_id TEXT PRIMARY KEY)")
        conn.execute("DELETE FROM _both")
        conn.executemany("INSERT INTO _both VALUES (?)", [(sid,) for sid in self.both])
        for table in ("sessions", "fixes"):
            conn.execute(
                f"INSERT INTO main.{table} SELECT * FROM shard_sessions.{table}"
                " WHERE session_id NOT IN (SELECT session_id FROM _both)"
            )
        # (and those of plans rejected, which a session of the other half may have approved)
        self.again = self.both | rejected_plan_sessions(conn)

    def _reap(self) -> None:
        if not self.reaped:
            os.waitpid(self.pid, 0)
            self.reaped = True

    def _copy(self) -> int:
        """Copy the helper's rows in; how many were ignored as duplicates of this half's."""
        conn = self.builder.conn
        columns = "path, session_id, project_dir, agent, size, mtime_ns, inode, offset, lines,"
        columns += " head_hash, tail_hash, session_ids, skipped_lines, indexed_at, prefix_crc"
        conn.execute(
            f"INSERT INTO source_files ({columns}) SELECT {columns} FROM shard.source_files"
            " ORDER BY path"
        )
        conn.execute("CREATE TEMP TABLE _file_map (old INTEGER PRIMARY KEY, new INTEGER)")
        conn.execute(
            "INSERT INTO _file_map SELECT s.id, m.id"
            " FROM shard.source_files s JOIN main.source_files m ON m.path = s.path"
        )
        conn.execute(
            "INSERT OR IGNORE INTO _duplicate_links SELECT a.new, b.new"
            " FROM shard._duplicate_links l JOIN _file_map a ON a.old = l.file_id"
            " JOIN _file_map b ON b.old = l.other_id"
        )
        keys = {table: key for table, (_, key) in UNIQUE_KEYS.items()}
        duplicates = 0
        for table in (*DATA_TABLES, *FILE_TABLES):
            names = [
                r[1]
                for r in conn.execute(f"PRAGMA main.table_info({table})")
                if r[1] not in ("id", "file_id")
            ]
            cols = ", ".join(names)
            picked = ", ".join(f"s.{n}" for n in names)
            before = conn.total_changes
            rows = conn.execute(f"SELECT count(*) FROM shard.{table}").fetchone()[0]
            conn.execute(
                f"INSERT OR IGNORE INTO main.{table} (file_id, {cols}) SELECT f.new, {picked}"
                f" FROM shard.{table} s JOIN _file_map f ON f.old = s.file_id ORDER BY s.rowid"
            )
            ignored = rows - (conn.total_changes - before)
            if ignored and table in keys:
                # Ids held by both halves stay with the first file in path order,
                # as in one process; link the files as _flag_duplicates would.
                # The helper counted them as stored (in its side file): they are not.
                stats = self.builder.stats
                stats.duplicates += ignored
                setattr(stats, table, getattr(stats, table) - ignored)
                if table == "tool_results":
                    stats.failed_tool_results -= conn.execute(
                        "SELECT count(*) FROM shard.tool_results WHERE is_error"
                    ).fetchone()[0] - stored_failures(conn, "main.tool_results", rows - ignored)
                duplicates += ignored
                key = keys[table]
                conn.execute(
                    "INSERT OR IGNORE INTO _duplicate_links SELECT DISTINCT f.new, m.file_id"
                    f" FROM shard.{table} s JOIN _file_map f ON f.old = s.file_id"
                    f" JOIN main.{table} m ON m.{key} = s.{key} WHERE m.file_id != f.new"
                )
        conn.execute(
            "INSERT OR IGNORE INTO _duplicate_links SELECT other_id, file_id FROM _duplicate_links"
        )
        conn.execute("DROP TABLE temp._file_map")
        return duplicates

    def remove(self) -> None:
        self._reap()
        self.builder.conn.execute("DETACH DATABASE shard")
        self.builder.conn.execute("DETACH DATABASE shard_sessions")
        remove_side_files(self.path)

    def discard(self) -> None:
        """After the builder failed (a full disk, Ctrl-C, a damaged index): stop the helper
        and delete its side files at once, the builder's transaction being rolled back by
        its caller. Left for the next build, they held the space a full disk needs back
        (6.5 MB of an 8 MB disk filled by a 30 MB corpus)."""
        if not self.reaped:
            try:
                os.kill(self.pid, signal.SIGKILL)  # not reaped yet: the pid is still its own
            except ProcessLookupError:
                pass
            self._reap()
        # Still attached, maybe in the transaction: unlinked, they go when it closes.
        remove_side_files(self.path)


def remove_side_files(path: Path) -> None:
    """Delete a helper's side files: its rows file, its .sessions file and their journals."""
    for name in (path, Path(f"{path}.sessions")):
        for suffix in ("", "-journal"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


def _run_shard(
    make_builder: type[Builder],
    path: Path,
    plans: list[Plan],
    reader: Reader | None,
    pipe: _Channel,
    parent: int,
    redact: bool,
    indexes: list[str] | None,
    watched: dict[str, dict[str, Any] | None],
) -> None:
    """The helper process: index `plans` into the side file at `path` with a builder of its
    own (of the builder's class); with `indexes` (PER_SESSION_INDEXES), compute its sessions
    and their fixes there too. `watched`: the builder's (see Builder.watched), whose reads
    fail if their files changed."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)
    conn.execute("PRAGMA synchronous=OFF")
    # A crash discards the side file anyway; an in-memory journal still lets a
    # file that turns unreadable halfway roll back to its savepoint.
    conn.execute("PRAGMA journal_mode=MEMORY")
    # The helper's file has no secondary indexes: a smaller cache keeps the
    # two processes together under ~300 MB.
    conn.execute(f"PRAGMA cache_size=-{CACHE_KIB // 4}")
    builder = make_builder(conn, [], False, reader, path, redact)
    builder.watched = watched
    builder.new_index = True  # its side file is new
    conn.execute("BEGIN")
    for plan in plans:
        if os.getppid() != parent:
            return  # the builder is gone: stop
        builder._index_file(plan, lambda n: pipe.send(("progress", n)))
    sessions = None
    if indexes is not None:
        for sql in indexes:
            conn.execute(sql)
        sessions = sorted(builder.touched | call_sessions(conn))
    conn.execute("COMMIT")
    conn.close()
    done = {
        "stats": builder.stats.to_dict(),
        "file_problems": builder.file_problems,
        "failed": builder.failed,
    }
    pipe.send(("rows", {**done, "sessions": sessions}))
    if indexes is None:
        return
    # Its sessions and fixes, read from the rows it committed (attached: the unqualified
    # tables of the queries are found there) and written beside them, while the builder
    # copies the rows (see Shard).
    out = sqlite3.connect(f"{path}.sessions", isolation_level=None, timeout=BUSY_TIMEOUT)
    out.execute("PRAGMA synchronous=OFF")
    out.execute("PRAGMA journal_mode=MEMORY")
    out.execute("ATTACH DATABASE ? AS rows", [str(path)])
    out.execute("BEGIN")
    refresh_fixes(out)
    refresh_sessions(out, stored_sessions(out))
    out.execute("COMMIT")
    out.close()
    pipe.send(("sessions", None))
