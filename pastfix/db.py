"""The index file: its connection and schema, its settings, and what is derived from its rows.

Everything here reads or writes an index that exists: the tables that a build
fills (pastfix.build) and what is computed from them again, without the
transcripts (sessions, fixes, signatures, the full-text tables, a redaction with
newer rules).
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from sqlite3 import Connection
from typing import TYPE_CHECKING, Any

import msgspec

# LATEST_MIGRATION: when an index already has it, the build skips importing
# sqlite-utils (~70 ms of a ~100 ms no-change refresh).
from pastfix import LATEST_MIGRATION, agents, paths
from pastfix.agents import NOT_INTERRUPTED_SQL, TYPED_OR_ASKED_SQL, TYPED_SQL
from pastfix.prepare import REDACTION_VERSION
from pastfix.records import (
    TABLES,
)
from pastfix.times import known_time

if TYPE_CHECKING:
    from sqlite_utils import Database

# Python 3.11's sqlite3 binds a None through its adaptation protocol (only an exact int,
# float, str or bytearray skips it), which looks for PrepareProtocol.__adapt__ and raises
# and clears an AttributeError with a formatted message: ~1,600 instructions a NULL, and a
# 200 MB build binds 172,000 of them (3.5% of its instructions). A registered adapter is
# found first; the `get` of an empty dict returns None for any argument, in C.
# Process-wide, and the same NULL for every other user of sqlite3 in the process
# (Datasette with the plugin).
_NOTHING: dict[None, None] = {}
sqlite3.register_adapter(type(None), _NOTHING.get)


PAGE_SIZE = 8192
# The schema of a new index (migrations.schema_script).
SCHEMA_SCRIPT = Path(__file__).with_name("schema.sql")


BUSY_TIMEOUT = 60.0


# The versions of the rules of pastfix.signatures (key_line(), normalise(), classify())
# and of pastfix.fixes, kept here so that a build that reads nothing need not load the
# rules (~130M instructions, ~20 ms) to compare them with the index's, as
# pastfix.prepare.REDACTION_VERSION is for redaction. Raise one when its rules change:
# the next build recomputes every stored signature and kind, or every fix.
SIGNATURE_VERSION = 46
FIX_VERSION = 94


# SQLite page cache for the build (negative = KiB).
CACHE_KIB = 131072


# The tables of sessions' rows (pastfix.records.TABLES), and those of what a build recorded
# about each file besides them: cleared and kept with it.
DATA_TABLES = tuple(table.name for table in TABLES if table.data)
FILE_TABLES = tuple(table.name for table in TABLES if not table.data)
# The tables whose rows a duplicated session repeats, by their Batch field and unique key
# (pastfix.build's duplicate checks, pastfix.shard's copy).
UNIQUE_KEYS = {
    t.name: (t.batch_field, t.key) for t in TABLES if t.unique and t.batch_field and t.key
}


# The FTS5 tokenizers a build may use (`pastfix build --tokenizer`), each with the
# options it accepts and their values. porter wraps unicode61 (the default) or
# ascii, whose options follow it: "porter unicode61 remove_diacritics 2".
# trigram's remove_diacritics needs SQLite 3.45, newer than the one we ship on.
TOKENIZERS: dict[str, dict[str, tuple[str, ...]]] = {
    "unicode61": {"remove_diacritics": ("0", "1", "2")},
    "ascii": {},
    "porter": {},
    "trigram": {"case_sensitive": ("0", "1")},
}
DEFAULT_TOKENIZER = "unicode61"
# Both full-text tables, with the tokenizer left to fill in. messages_fts is
# written as sqlite-utils' enable_fts() writes it (migrations.m002_full_text).
FTS_TABLES = {
    "messages_fts": (
        'CREATE VIRTUAL TABLE "messages_fts" USING FTS5 (\n    "text",\n'
        "    tokenize='{tokenize}',\n    content=\"messages\"\n)"
    ),
    "tool_errors_fts": (
        "CREATE VIRTUAL TABLE tool_errors_fts USING fts5(content, tokenize='{tokenize}',"
        ' content="tool_results", content_rowid="id")'
    ),
}


INSERT_SQL = {table.name: table.insert_sql for table in TABLES}


# The first prompt that titles a session (`session`: its id's column; `sidechain`: a
# further condition), as agents.typed_title makes it of what its agent wrote.
FIRST_PROMPT_TITLE_SQL = (
    "(SELECT title FROM (SELECT typed_title((SELECT agent FROM source_files"
    " WHERE id = messages.file_id), text) AS title, timestamp, line_no"
    " FROM messages WHERE session_id = {session}"
    " AND kind = 'prompt' AND is_meta = 0 {sidechain} AND text > ''"
    f" AND {TYPED_OR_ASKED_SQL} AND {NOT_INTERRUPTED_SQL})"
    " WHERE title IS NOT NULL ORDER BY timestamp, line_no LIMIT 1)"
)
# A session of slash commands only: the first, as typed (`/init`).
SLASH_TITLE_SQL = (
    "(SELECT prompt_title((SELECT agent FROM source_files WHERE id = messages.file_id), text)"
    " FROM messages WHERE session_id = {session} {sidechain}"
    " AND kind = 'prompt' AND is_meta = 0 AND text LIKE '<command-%</command-name>%'"
    " ORDER BY timestamp, line_no LIMIT 1)"
)


# The summaries that name a message of a session (Claude Code's, by its leafUuid), each with
# that message's session and time: from every message of the sessions of `_touched`, or
# (SUMMARIES_FIRST) from every summary. refresh_sessions fills _touched_summaries with them.
_SUMMARIES_SQL = (
    "SELECT m.session_id, m.timestamp, sm.value FROM _touched t CROSS JOIN messages m"
    " ON m.session_id = t.session_id JOIN session_meta sm ON sm.leaf_uuid = m.uuid"
    " WHERE sm.key = 'summary'"
)
# (through idx_meta_leaf, whose entries with a leaf are the summaries; each message named
# found by its uuid)
_SUMMARIES_FIRST_SQL = (
    "SELECT m.session_id, m.timestamp, sm.value FROM session_meta sm INDEXED BY idx_meta_leaf"
    " CROSS JOIN messages m ON m.uuid = sm.leaf_uuid"
    " WHERE sm.leaf_uuid IS NOT NULL AND sm.key = 'summary'"
    " AND m.session_id IN (SELECT session_id FROM _touched)"
)
# Summaries read from their side when the index holds at most this many a session refreshed:
# a session's messages are each looked up for their uuid, and a session has hundreds (a
# fresh build of the 200 MB benchmark corpus: 52,619 messages, 6 summaries).
SUMMARIES_FIRST_PER_SESSION = 16


def _summary_title_sql(session: str, summaries: str | None) -> str:
    """The summary naming a session's latest message that has one (the latest summary of
    that message), from the table `summaries` of (session_id, timestamp, value) rows, or
    None: from the messages and the summaries themselves."""
    if summaries is not None:
        return (
            f"(SELECT value FROM {summaries} WHERE session_id = {session}"
            " ORDER BY timestamp DESC, value LIMIT 1)"
        )
    return f"""(SELECT sm.value FROM messages m JOIN session_meta sm ON sm.leaf_uuid = m.uuid
         WHERE m.session_id = {session} AND sm.key = 'summary'
         ORDER BY m.timestamp DESC, sm.value LIMIT 1)"""


def _files_sql(session: str, files: str | None) -> str:
    """The files holding a session's messages or metadata, as a subquery of their ids: from
    the table `files` of (session_id, file_id) rows, or None: from the rows themselves."""
    if files is not None:
        return f"SELECT file_id FROM {files} WHERE session_id = {session}"
    return (
        f"SELECT file_id FROM messages WHERE session_id = {session}"
        f" UNION SELECT file_id FROM session_meta WHERE session_id = {session}"
    )


def title_sql(session: str, summaries: str | None = None) -> str:
    """A session's title, as an SQL expression of its id's column `session`: the title its
    agent gave it (a custom title, an AI title, Claude Code's summary), else what its user
    typed first (agents.prompt_title) in its main thread, then a slash command there, then
    in any thread (Claude Code 1.0.x kept subagents' turns in the session's file), else
    its first prompt as it is, else its first command. `summaries`: see
    _summary_title_sql."""
    main = "AND is_sidechain = 0"
    return f"""coalesce(
        (SELECT value FROM session_meta WHERE session_id = {session} AND key = 'custom_title'
         ORDER BY line_no DESC, value LIMIT 1),
        (SELECT value FROM session_meta WHERE session_id = {session} AND key = 'ai_title'
         ORDER BY line_no DESC, value LIMIT 1),
        {_summary_title_sql(session, summaries)},
        {FIRST_PROMPT_TITLE_SQL.format(session=session, sidechain=main)},
        {SLASH_TITLE_SQL.format(session=session, sidechain=main)},
        {FIRST_PROMPT_TITLE_SQL.format(session=session, sidechain="")},
        (SELECT CASE WHEN length(text) > {agents.TITLE_CHARS}
         THEN rtrim(substr(text, 1, {agents.TITLE_CHARS - 1})) || '…' ELSE text END
         FROM messages WHERE session_id = {session}
         AND kind = 'prompt' AND is_meta = 0 AND text > '' AND {TYPED_SQL}
         AND {NOT_INTERRUPTED_SQL} ORDER BY timestamp, line_no LIMIT 1),
        {SLASH_TITLE_SQL.format(session=session, sidechain="")})"""


def deleted_sql(session: str, files: str | None = None) -> str:
    """When a session's transcript was found deleted, as an SQL expression of its id's column
    `session` (NULL while it is on disk): when none of the files of its own messages is
    left, its main thread's; a subagent's file beside it (Claude Code 2.0's `agent-*.jsonl`,
    2.1's `<session>/subagents/`) is none that `--resume` opens, and with the transcript
    deleted while those stayed the session was not said to be (a new user's try, nu36).
    A session no file holds a message of its own in (a subagent's lines alone, metadata)
    is deleted when none of its files is left. `files`: see _files_sql.

    NULL at once when none of its files is gone (every session of a fresh build): the files
    of its own messages are among them, and finding those reads every message's row (a
    third of the sessions' refresh of a fresh build, 171M instructions at 200 MB)."""
    own = (
        f"SELECT file_id FROM messages WHERE session_id = {session}"
        " AND NOT coalesce(is_sidechain, 0)"
    )
    every = _files_sql(session, files)
    return f"""CASE WHEN EXISTS (SELECT 1 FROM source_files g WHERE g.id IN ({every})
                             AND g.missing_since IS NOT NULL)
     THEN (SELECT CASE WHEN count(*) = count(f.missing_since) THEN max(f.missing_since) END
           FROM source_files f
           WHERE f.id IN ({own}) OR (NOT EXISTS ({own}) AND f.id IN ({every}))) END"""


# One row per session, recomputed from the rows of the sessions in _touched, with the files
# and summaries of those sessions that refresh_sessions gathers first (_touched_files,
# _touched_summaries): each gathered once, where three subqueries of each session read its
# messages' files and one looked up every message for a summary naming it.
REFRESH_SESSIONS_SQL = f"""
INSERT OR REPLACE INTO sessions (session_id, project, title, first_ts, last_ts, git_branch,
    version, message_count, tool_call_count, tool_error_count, source_paths, agent,
    transcript_deleted_at)
SELECT t.session_id,
    -- the directory the session was started in: the first cwd recorded
    coalesce(
        (SELECT cwd FROM messages WHERE session_id = t.session_id AND cwd > ''
         ORDER BY timestamp, line_no LIMIT 1),
        -- Codex's session_meta line, read by an earlier build than its messages
        (SELECT value FROM session_meta WHERE session_id = t.session_id AND key = 'cwd'
         ORDER BY line_no LIMIT 1),
        (SELECT project_of_dir(f.agent, f.project_dir) FROM source_files f
         WHERE f.id IN ({_files_sql("t.session_id", "_touched_files")})
         ORDER BY f.path LIMIT 1)),
    -- its title (title_sql)
    {title_sql("t.session_id", "_touched_summaries")},
    (SELECT min(timestamp) FROM messages WHERE session_id = t.session_id),
    (SELECT max(timestamp) FROM messages WHERE session_id = t.session_id),
    coalesce(
        (SELECT git_branch FROM messages WHERE session_id = t.session_id AND git_branch > ''
         ORDER BY timestamp DESC LIMIT 1),
        (SELECT value FROM session_meta WHERE session_id = t.session_id AND key = 'git_branch'
         ORDER BY line_no DESC LIMIT 1)),
    coalesce(
        (SELECT version FROM messages WHERE session_id = t.session_id AND version > ''
         ORDER BY timestamp DESC LIMIT 1),
        (SELECT value FROM session_meta WHERE session_id = t.session_id AND key = 'cli_version'
         ORDER BY line_no DESC LIMIT 1)),
    (SELECT count(*) FROM messages WHERE session_id = t.session_id),
    (SELECT count(*) FROM tool_calls WHERE session_id = t.session_id),
    (SELECT count(*) FROM tool_results INDEXED BY idx_tr_session_errors
     WHERE session_id = t.session_id AND is_error = 1),
    (SELECT json_group_array(path) FROM (
        SELECT f.path FROM source_files f
        WHERE f.id IN ({_files_sql("t.session_id", "_touched_files")})
        ORDER BY f.path)),
    coalesce(
        (SELECT f.agent FROM source_files f
         WHERE f.id IN ({_files_sql("t.session_id", "_touched_files")})
         ORDER BY f.path LIMIT 1),
        'claude'),
    -- kept in the index after its transcript was deleted (deleted_sql)
    {deleted_sql("t.session_id", "_touched_files")}
FROM _touched t
WHERE EXISTS (SELECT 1 FROM messages WHERE session_id = t.session_id)
   OR EXISTS (SELECT 1 FROM session_meta WHERE session_id = t.session_id)
"""


class BuildError(Exception):
    """A build that cannot start: the message is meant for the user."""


def state(conn: Connection, name: str) -> str | None:
    """A value of _build_state, where a build records itself (its settings, the versions of
    the rules its rows were made by, the last build: status reads it), None when unset."""
    row = conn.execute("SELECT value FROM _build_state WHERE name = ?", [name]).fetchone()
    return None if row is None else str(row[0])


def set_state(conn: Connection, name: str, value: str | None) -> None:
    """Set a value of _build_state (None: unset it)."""
    if value is None:
        conn.execute("DELETE FROM _build_state WHERE name = ?", [name])
    else:
        conn.execute("INSERT OR REPLACE INTO _build_state VALUES (?, ?)", [name, value])


def check_db_path(path: Path, create: bool = True) -> None:
    """Refuse a path that is a directory, a FIFO or a device, or a file that is not SQLite
    (`create`: one a build would write the index into; else one forget reads it from).

    SQLite opens a FIFO or /dev/null as a file: 'disk I/O error', or 'no such table:
    _sqlite_migrations', after the build had made its lock file beside it (/dev/null.lock)."""
    folder = paths.folder_not_index(path)
    if folder:
        raise BuildError(folder)
    if path.exists() and not path.is_file():
        raise BuildError(f"{path} is not a regular file: give the path of a database file")
    if companion := paths.companion_not_file(path):
        raise BuildError(companion)
    if path.exists() and path.stat().st_size > 0:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                why = "refusing to overwrite it" if create else "it holds no pastfix index"
                raise BuildError(f"{path} is not a SQLite database; {why}")


def create_private(path: str | Path) -> None:
    """Create `path`, empty, readable by its owner only (0600), unless it exists: an index
    holds the user's history, and SQLite made it 0644, readable by every user of the
    machine (a security test, session 33). SQLite gives its -wal, -shm and -journal the
    mode of their database. A file that exists keeps the mode its owner gave it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def connect(
    path: str | Path, create: bool = True, busy_timeout: float = BUSY_TIMEOUT
) -> Connection:
    """Open (creating if needed) an index with its schema up to date, in autocommit mode.

    `create=False` (pastfix forget) refuses a file that holds no index yet, empty or an
    empty SQLite database, instead of writing a new index into it. `busy_timeout`: how
    long to wait for another process's lock."""
    path = Path(path)
    check_db_path(path, create)
    if not create and (not path.is_file() or path.stat().st_size == 0):
        raise BuildError(f"{path} is empty: it holds no pastfix index")
    if create:
        create_private(path)
    # A concurrent build holds the write lock for one file's transaction at a
    # time (or a whole fresh build): wait for it rather than fail at once.
    conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not names:
            # Tool output rows are large: 8 KiB pages hold them with less overflow
            # chaining (bulk inserts ~10% faster than with 4 KiB).
            conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
        if names and "_sqlite_migrations" not in names:
            raise BuildError(f"{path} is a SQLite database that pastfix did not create")
        if not names and not create:
            raise BuildError(f"{path} is an empty SQLite database: it holds no pastfix index")
        if not names and SCHEMA_SCRIPT.is_file():
            # A new file gets the migrated schema from its script (see
            # migrations.schema_script): 2 ms, where the migrations are ~75 ms. It has
            # nothing to lose, so nothing is synced until the build's own commit. (An
            # install without the script runs the migrations below.)
            synchronous = conn.execute("PRAGMA synchronous").fetchone()[0]
            conn.execute("PRAGMA synchronous=OFF")
            conn.executescript(f"BEGIN; {SCHEMA_SCRIPT.read_text()} COMMIT;")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            names = {"_sqlite_migrations"}
        applied = set()
        if names:
            applied = {
                r[0]
                for r in conn.execute(
                    "SELECT name FROM _sqlite_migrations WHERE migration_set = 'pastfix'"
                )
            }
        # Another program's database that keeps its own sqlite-utils migrations has a
        # `_sqlite_migrations` table too, of its own migration set: a build wrote the
        # index's 20 tables into it. Tables, but no migration of pastfix's, are not ours;
        # `_sqlite_migrations` alone is a first build stopped before its first migration.
        if not applied and {n for n in names if not n.startswith("sqlite_")} - {
            "_sqlite_migrations"
        }:
            raise BuildError(f"{path} is a SQLite database that pastfix did not create")
        newer = sorted(name for name in applied if name > LATEST_MIGRATION)
        if newer:
            # Migrations are numbered (m012_archive): one after ours is a newer pastfix's,
            # whose columns or rules this one does not know to fill. Writing its rows there
            # left them without what it adds, and it would not know to fill them again.
            raise BuildError(
                f"{path} was built by a newer pastfix (migration {newer[-1]}): upgrade"
                " pastfix to write to it; pastfix find and Datasette can still read it"
            )
        if LATEST_MIGRATION not in applied:
            from sqlite_utils import Database

            from pastfix.migrations import migrations

            # An index made by an older pastfix (or from a script older than the
            # migrations). No sqlite-utils plugins: the migrations use none, and finding
            # them (entry points of every installed package) is ~27 ms.
            migrations.apply(Database(conn, execute_plugins=False))
    except BaseException:
        conn.close()
        raise
    # Here, not only in refresh_sessions: see there.
    conn.create_function("project_of_dir", 2, agents.project_of_dir, deterministic=True)
    conn.create_function("prompt_title", 2, agents.prompt_title, deterministic=True)
    conn.create_function("typed_title", 2, agents.typed_title, deterministic=True)
    return conn


def open_database(path: str | Path) -> Database:
    """The index as a sqlite-utils Database, schema up to date."""
    from sqlite_utils import Database

    return Database(connect(path))


def refresh_tool_errors_fts(conn: Connection) -> None:
    """Empty tool_errors_fts and refill it from the failed tool results.

    Wholesale, not by triggers: tool_results rows are replaced when a tool
    call is re-indexed (a rewritten or retracted file), and a trigger pair
    would leave superseded text searchable or accumulate duplicates. A plain
    DELETE FROM corrupts an external-content FTS table, hence 'delete-all'.
    Run it inside the transaction of the build's last writes.
    """
    conn.execute("INSERT INTO tool_errors_fts(tool_errors_fts) VALUES('delete-all')")
    conn.execute(
        "INSERT INTO tool_errors_fts(rowid, content)"
        " SELECT id, content FROM tool_results INDEXED BY idx_tr_errors"
        " WHERE is_error = 1 ORDER BY id"
    )


def add_tool_errors_fts(conn: Connection, after: int) -> None:
    """Index in tool_errors_fts the failed tool results of ids above `after`, which it
    holds every other of (see pastfix.build's _watch_errors_fts)."""
    conn.execute(
        "INSERT INTO tool_errors_fts(rowid, content)"
        " SELECT id, content FROM tool_results INDEXED BY idx_tr_errors"
        " WHERE is_error = 1 AND id > ? ORDER BY id",
        [after],
    )


def refresh_signatures(conn: Connection) -> None:
    """Recompute the signature and kind of every failed tool result.

    New rows get theirs as they are parsed (pastfix.prepare); this brings older
    rows in line when the rules change (SIGNATURE_VERSION) or when
    an index built before signatures existed is refreshed.
    """
    from pastfix import signatures

    conn.create_function("error_signature", 1, signatures.signature, deterministic=True)
    conn.create_function("error_kind", 1, signatures.classify, deterministic=True)
    conn.execute(
        "UPDATE tool_results SET signature = error_signature(content),"
        " kind = error_kind(content) WHERE is_error = 1"
    )


def signatures_current(conn: Connection) -> bool:
    """Whether the stored signatures were made by this version of the rules."""
    return state(conn, "signature_version") == str(SIGNATURE_VERSION)


def redaction_current(conn: Connection) -> bool:
    """Whether the stored text was redacted by this version of the rules (REDACTION_VERSION).

    An index redacted before the version was recorded has version 1.
    """
    return state(conn, "redaction_version") == str(REDACTION_VERSION)


def reredact(conn: Connection, file_ids: Sequence[int] | None = None) -> tuple[set[str], int, int]:
    """Redact every stored text again with the current rules, in place (only the
    rows of `file_ids` when given).

    Run by a build when the index's redaction version is older than
    REDACTION_VERSION: what the new rules catch is replaced in the rows already
    stored, without the transcripts (they may be gone), in the caller's
    transaction. Each text is redacted as a new one is (pastfix.prepare.redactor);
    the secrets found are added to `redactions`, failed results whose text
    changed are signed again, and messages_fts is rebuilt when a message
    changed, since its index would still hold the old words. A text cut by an
    earlier build keeps what its cut left of a secret too short to recognise.

    Returns the sessions whose rows changed (sessions, and whatever else is
    derived per session, are the caller's to recompute), the rows changed and
    the secrets replaced.
    """
    from pastfix.prepare import NUL_COLUMNS, Printing, printing_calls, redactor
    from pastfix.redact import redact_printed

    touched: set[str] = set()
    rows_changed = secrets = 0
    where, args = "", []
    if file_ids is not None:
        where, args = " WHERE file_id IN (SELECT value FROM json_each(?))", [json.dumps(file_ids)]
    # the calls whose results are a secret printed alone (see prepare._redact_printed)
    printing: Printing = {}
    printing_calls(
        conn.execute(
            f"SELECT tool_use_id, name, command, file_path FROM tool_calls{where or ' WHERE 1'}"
            " AND (command IS NOT NULL OR file_path IS NOT NULL)",
            args,
        ),
        printing,
    )
    for spec in TABLES:
        if not spec.text:
            continue
        table, columns = spec.name, spec.text
        redactors = [redactor(table, column) for column in columns]
        session = "session_id" if spec.data else "NULL"
        cursor = conn.execute(
            f"SELECT rowid, file_id, {session}, {spec.key or 'NULL'}, line_no,"
            f" {', '.join(f'[{c}]' for c in columns)} FROM [{table}]{where}",
            args,
        )
        updates: list[tuple[int, dict[str, str]]] = []
        found: list[tuple[Any, ...]] = []
        for rowid, file_id, session_id, row_key, line_no, *values in cursor:
            changed: dict[str, str] = {}
            for column, redact, value in zip(columns, redactors, values, strict=True):
                if not value or not isinstance(value, str):
                    continue
                # a call's command or description stored with NULs by rules before version
                # 18, which drops them as a new one's are (UTF-16 text read as UTF-8: the
                # NULs hid a token from every rule)
                plain = value
                if table == "tool_calls" and column in NUL_COLUMNS and "\x00" in value:
                    plain = value.replace("\x00", "")
                printed: dict[str, int] = {}
                if table == "tool_results" and row_key in printing:
                    plain, printed = redact_printed(plain, printing[row_key])
                text, kinds = redact(plain)
                if printed:
                    kinds = {k: kinds.get(k, 0) + printed.get(k, 0) for k in {*kinds, *printed}}
                if kinds or plain != value:
                    changed[column] = text
                    for kind, n in sorted(kinds.items()):
                        found.append((file_id, table, row_key, line_no, column, kind, n))
                        secrets += n
            if changed:
                updates.append((rowid, changed))
                if session_id:
                    touched.add(session_id)
        for rowid, changed in updates:
            assignments = ", ".join(f"[{column}] = ?" for column in changed)
            conn.execute(
                f"UPDATE [{table}] SET {assignments} WHERE rowid = ?", [*changed.values(), rowid]
            )
        if updates and table == "tool_results":
            _sign_again(conn, [rowid for rowid, _ in updates])
        if updates and table == "messages":
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
        conn.executemany(INSERT_SQL["redactions"], found)
        rows_changed += len(updates)
    return touched, rows_changed, secrets


def _sign_again(conn: Connection, rowids: list[int]) -> None:
    """Recompute the signature and kind of the failed results among `rowids` (see reredact)."""
    from pastfix import signatures

    for i in range(0, len(rowids), 500):
        chunk = rowids[i : i + 500]
        rows = conn.execute(
            f"SELECT rowid, content FROM tool_results WHERE is_error = 1"
            f" AND rowid IN ({','.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        conn.executemany(
            "UPDATE tool_results SET signature = ?, kind = ? WHERE rowid = ?",
            [
                (signatures.signature(content), signatures.classify(content), rowid)
                for rowid, content in rows
            ],
        )


def redact_setting(conn: Connection) -> bool | None:
    """Whether the index's text was redacted; None for an empty index.

    An index built before redaction existed holds the text as it was.
    """
    if conn.execute("SELECT 1 FROM source_files LIMIT 1").fetchone() is None:
        return None
    return state(conn, "redact") == "1"


def parse_tokenizer(text: str) -> str:
    """The tokenizer `text` names, normalised ("trigram case_sensitive 0"); ValueError if
    it is not one of TOKENIZERS with options it accepts."""
    words = text.lower().split()
    name, options = (words[0], words[1:]) if words else ("", [])
    accepted = TOKENIZERS.get(name)
    if accepted is not None and name == "porter" and options:
        wrapped = options[0] if options else DEFAULT_TOKENIZER
        if wrapped in ("unicode61", "ascii"):
            accepted = TOKENIZERS[wrapped]
            options = options[1:]
            words = ["porter", wrapped, *options]
    if accepted is None:
        raise ValueError(
            f"unknown tokenizer {text.strip()!r}: choose {', '.join(TOKENIZERS)}, with"
            ' options such as "unicode61 remove_diacritics 2" or "trigram case_sensitive 0"'
        )
    pairs = list(zip(options[::2], options[1::2], strict=False))
    if len(options) % 2 or any(value not in accepted.get(key, ()) for key, value in pairs):
        choices = "; ".join(f"{k} {'|'.join(v)}" for k, v in accepted.items()) or "none"
        raise ValueError(
            f"bad options for tokenizer {name!r} in {text.strip()!r} (options: {choices})"
        )
    normal = " ".join(words)
    try:  # what this SQLite's FTS5 accepts
        sqlite3.connect(":memory:").execute(
            f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{normal}')"
        )
    except sqlite3.Error as e:
        raise ValueError(f"tokenizer {normal!r}: {e}") from e
    return normal


def tokenizer_setting(conn: Connection) -> str:
    """The FTS5 tokenizer of the index's full-text tables (DEFAULT_TOKENIZER unless set)."""
    return state(conn, "tokenizer") or DEFAULT_TOKENIZER


def set_tokenizer(conn: Connection, tokenizer: str) -> None:
    """Recreate messages_fts and tool_errors_fts with `tokenizer` and record it.

    FTS5 cannot change the tokenizer of a table: both are dropped and created
    again, then refilled from the stored rows, in one transaction. The
    transcripts are not read again. Refilled before a forced build too, which
    fills them again itself: left empty for it, a forced build that then failed
    (a full disk, Ctrl-C) left every row unsearchable for good.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        for name, sql in FTS_TABLES.items():
            conn.execute(f"DROP TABLE IF EXISTS {name}")
            conn.execute(sql.format(tokenize=tokenizer))
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
        refresh_tool_errors_fts(conn)
        set_state(conn, "tokenizer", tokenizer)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# The part of a file a read tool was asked for, by each agent's argument names: Claude
# Code's and opencode's offset and limit, Gemini CLI's too (start_line and end_line in its
# newer read_file), Copilot CLI's view_range, a PDF's pages (see pastfix.fixes.Call.part).
_PART_ARGUMENTS = ("offset", "limit", "start_line", "end_line", "view_range", "pages")
_PART_SQL = ", ".join(f"'{name}', json_extract(c.input, '$.{name}')" for name in _PART_ARGUMENTS)
_READ_TOOLS_SQL = ", ".join(f"'{name}'" for name in sorted(agents.tools(agents.READ)))
_SEARCH_TOOLS_SQL = ", ".join(f"'{name}'" for name in sorted(agents.tools(agents.SEARCH)))
_POLLS_SQL = "'write_stdin', 'wait'"  # (fixes._POLLS: fixes is imported on first use)


def _url(tool_input: object) -> str | None:
    """The page a call without a command or file fetched (WebFetch's url), if any."""
    if not isinstance(tool_input, str) or '"url"' not in tool_input:
        return None
    try:
        url = json.loads(tool_input).get("url")
    except (ValueError, AttributeError):
        return None
    return url if isinstance(url, str) and url else None


# The calls of one session in order of time, with what their results said (see
# pastfix.fixes); those of one time in order of file and line by FIX_CALLS_SQL, or by
# _calls_in_order; a session not ordered by time (see _by_place), in the order of its lines
# by FIX_CALLS_BY_PLACE_SQL.
_FIX_CALLS_COLUMNS = f"""
c.tool_use_id, c.timestamp, c.name, c.command, c.file_path,
  CASE WHEN c.name IN ({_SEARCH_TOOLS_SQL}) AND json_valid(c.input)
       THEN json_extract(c.input, '$.pattern') END,
  c.agent_id,
  -- bits of one value (each column costs a turn of Python's sqlite3 through its locks):
  -- 1, whether it has a result, from the unique index alone (reading each result's row
  -- for is_error costs a page read per call; the failures are known already); 2, a Codex
  -- command still running when its output was taken (only these calls' result rows are
  -- read, for their kind); 4, a Codex command run outside its sandbox, as the agent asked
  -- (0.5x's with_escalated_permissions, later sandbox_permissions = 'require_escalated')
  exists (SELECT 1 FROM tool_results r WHERE r.tool_use_id = c.tool_use_id)
  + CASE WHEN c.name IN ('exec_command', 'write_stdin') THEN 2 * exists (SELECT 1 FROM
         tool_results r WHERE r.tool_use_id = c.tool_use_id AND r.kind = 'running') ELSE 0 END
  + CASE WHEN c.command IS NOT NULL AND json_valid(c.input)
         THEN 4 * (coalesce(json_extract(c.input, '$.with_escalated_permissions') = 1, 0)
                   OR coalesce(json_extract(c.input, '$.sandbox_permissions'), '')
                      = 'require_escalated') ELSE 0 END,
  coalesce(c.is_sidechain, 0),
  -- the message of a subagent's call without an agent id (see _sidechain_threads)
  CASE WHEN c.agent_id IS NULL AND coalesce(c.is_sidechain, 0) IS NOT 0
       THEN c.message_uuid END,
  -- the folder a shell tool was told to run in: Gemini CLI's dir_path (directory before
  -- 0.2x), Codex's workdir (working_directory for local_shell)
  CASE WHEN c.command IS NOT NULL AND json_valid(c.input)
       THEN coalesce(json_extract(c.input, '$.dir_path'), json_extract(c.input, '$.directory'),
                     json_extract(c.input, '$.workdir'),
                     json_extract(c.input, '$.working_directory')) END,
  -- a read's input, for the part of the file it asked for (see _read_part)
  CASE WHEN c.name IN ({_READ_TOOLS_SQL}) THEN c.input END,
  -- the input of a call without a command or file (Task, Skill, an MCP tool, WebFetch),
  -- and of Codex's write_stdin (the keys it sent)
  CASE WHEN (c.command IS NULL AND c.file_path IS NULL) OR c.name = 'write_stdin'
       THEN c.input END
"""
FIX_CALLS_BY_TIME_SQL = f"""SELECT {_FIX_CALLS_COLUMNS} FROM tool_calls c INDEXED BY idx_tc_session
WHERE c.session_id = ? AND c.timestamp >= ? ORDER BY c.timestamp"""
FIX_CALLS_SQL = FIX_CALLS_BY_TIME_SQL + ", c.file_id, c.line_no"
# (with each call's file and line after the columns the rules read)
FIX_CALLS_BY_PLACE_SQL = f"""SELECT {_FIX_CALLS_COLUMNS}, c.file_id, c.line_no
FROM tool_calls c INDEXED BY idx_tc_session
WHERE c.session_id = ? ORDER BY c.file_id, c.line_no, c.rowid"""
_CALL_PLACE_SQL = "SELECT file_id, line_no FROM tool_calls WHERE tool_use_id = ?"
# (A failure's kind comes after its content in the row: reading it for every call of a
# session would walk the overflow pages of every large output.)
FIX_ERRORS_SQL = (
    "SELECT tool_use_id, content, timestamp, kind FROM tool_results"
    " INDEXED BY idx_tr_session_errors WHERE session_id = ? AND is_error = 1"
)
_PROMPTS_WHERE = (
    "kind IN ('prompt', 'queued_prompt') AND is_meta = 0 AND is_sidechain = 0"
    # a slash command and its output are not a prompt the user typed, nor the marker Claude
    # Code writes after a call the user rejected or stopped (`[Request interrupted by user
    # for tool use]`): counted, it and the `continue` after it closed the window before the
    # call was redone (held out, session 9: 3 rejected calls redone in 2 people's sessions);
    # nor a text an agent wrote in tags: a background task's `<task-notification>` closed
    # the window of a failed run before its rerun (twentieth held-out set)
    f" AND {TYPED_SQL} AND {NOT_INTERRUPTED_SQL}"
)
# A reply that only agrees to what the agent asked ("Want me to add it?", then "yes go
# ahead"): the agent's turn goes on, so it is no prompt of the fix rules. Counted, it and
# the question before it ("why do I need httpx?") closed the window of a test run before
# the dependency was added (twenty-fifth held-out set, a new user's try).
_AGREED = (
    "y", "yes", "yep", "yeah", "yup", "ok", "okay", "sure", "proceed", "go ahead", "yes go ahead",
    "yes, go ahead", "ok go ahead", "ok, go ahead", "okay go ahead", "sure go ahead", "do it",
    "yes do it", "yes, do it", "ok do it", "please do", "yes please", "yes, please",
    "please proceed", "yes proceed", "go for it", "yes go for it", "sounds good", "lgtm",
    "pls do", "do that", "yes do that", "go on",
)  # fmt: skip
_TYPED_PROMPTS_WHERE = (
    f"{_PROMPTS_WHERE} AND lower(trim(text, ' .!' || char(10) || char(13)))"
    f" NOT IN ({', '.join(repr(w) for w in _AGREED)})"
)
_FIX_PROMPTS_WHERE = f"{_TYPED_PROMPTS_WHERE} AND timestamp IS NOT NULL"
FIX_PROMPTS_SQL = f"SELECT timestamp FROM messages WHERE session_id = ? AND {_FIX_PROMPTS_WHERE}"
# A session's prompts where its lines, not its times, are its order (_by_place): with a
# time or without.
_FIX_PROMPTS_BY_PLACE_SQL = f"""
SELECT file_id, line_no, timestamp FROM messages
WHERE session_id = ? AND {_TYPED_PROMPTS_WHERE}"""
# Every session's, in one pass over the table (see refresh_fixes), with the text of each
# that approved a plan (_approvals).
_ALL_PROMPTS_SQL = f"""
SELECT session_id, timestamp,
  CASE WHEN substr(text, 1, {len(agents.PLAN_PROMPT)}) = '{agents.PLAN_PROMPT}' THEN text END
FROM messages WHERE {_FIX_PROMPTS_WHERE}"""
# How long before and after a plan's rejection the session that implements it begins: at
# once, when the user chose "clear context" (its prompt 1 ms before the rejection's
# record: fortieth held-out set). The bounds let these be found through indexes of time.
APPROVAL_BEFORE_SECONDS = 60
APPROVAL_AFTER_SECONDS = 600
_PLAN_PROMPT_SQL = (
    "m.kind IN ('prompt', 'queued_prompt') AND m.is_sidechain = 0"
    f" AND substr(m.text, 1, {len(agents.PLAN_PROMPT)}) = '{agents.PLAN_PROMPT}'"
)
# The prompts that approved a plan, of the sessions begun about when it was rejected (the
# incremental refresh: the sessions rows are current).
_APPROVING_PROMPTS_SQL = f"""
SELECT m.timestamp, m.text FROM sessions s
JOIN messages m INDEXED BY idx_messages_session
  ON m.session_id = s.session_id AND m.timestamp BETWEEN ?1 AND ?2
WHERE s.first_ts BETWEEN ?1 AND ?2 AND {_PLAN_PROMPT_SQL}"""
# A session's prompts that approved a plan, and the sessions of the plans rejected about
# then: whose fixes it changes.
_SESSION_PLAN_PROMPTS_SQL = f"""
SELECT m.timestamp FROM messages m INDEXED BY idx_messages_session
WHERE m.session_id = ? AND {_PLAN_PROMPT_SQL}"""
_APPROVAL_TOOLS_SQL = ", ".join(f"'{name}'" for name in sorted(agents.APPROVAL_TOOLS))
_PLANS_REJECTED_SQL = f"""
SELECT DISTINCT r.session_id FROM tool_results r
JOIN tool_calls c ON c.tool_use_id = r.tool_use_id
WHERE r.is_error = 1 AND r.timestamp BETWEEN ? AND ? AND r.kind = 'rejected'
  AND c.name IN ({_APPROVAL_TOOLS_SQL})"""
# Every session with a plan recorded as rejected (a bulk build's halves: see
# rejected_plan_sessions).
_ALL_PLANS_REJECTED_SQL = f"""
SELECT DISTINCT r.session_id FROM tool_results r
JOIN tool_calls c ON c.tool_use_id = r.tool_use_id
WHERE r.is_error = 1 AND r.kind = 'rejected' AND c.name IN ({_APPROVAL_TOOLS_SQL})"""
# When the first failed call of a session was made.
# The first call of a session the rules read: its first failure; or, for a Codex poll that
# failed, the exec_command that started what it polled, whose folder and sandbox the poll
# takes (fixes.settled). Read from the poll on, the exec_command unseen, a rerun of the
# command in the same folder was "changed: in <folder>" (a `tsc --noEmit` whose poll
# failed, run again as it was: thirty-third held-out set, no step by its label).
FIX_SINCE_SQL = f"""
SELECT min(coalesce(CASE WHEN c.name IN ({_POLLS_SQL}) THEN (
    SELECT max(e.timestamp) FROM tool_calls e INDEXED BY idx_tc_session
    WHERE e.session_id = c.session_id AND e.timestamp <= c.timestamp
      AND e.name = 'exec_command' AND e.command = c.command) END, c.timestamp))
FROM tool_results r INDEXED BY idx_tr_session_errors
JOIN tool_calls c ON c.tool_use_id = r.tool_use_id WHERE r.session_id = ? AND r.is_error = 1"""
FIX_OUTPUT_SQL = "SELECT coalesce(content, '') FROM tool_results WHERE tool_use_id = ?"
# The secondary indexes refresh_fixes and refresh_sessions read through (a bulk build's
# helper creates them in its side file to compute its sessions there: see Shard).
PER_SESSION_INDEXES = (
    "idx_tc_session",
    "idx_messages_session",
    "idx_tr_session_errors",
    "idx_meta_session",
    "idx_meta_leaf",
)


# The arguments of a read that may name a part, as SQLite reads them from its input.
_READ_PART_SQL = (
    f"SELECT CASE WHEN json_valid(?1) THEN json_object({_PART_SQL.replace('c.input', '?1')}) END"
)
# An argument's name spelt with escapes (`\u006fffset`, which SQLite 3.45 and later read
# as `offset`) holds `\u`.
_PART_TEXTS = ("\\u", *_PART_ARGUMENTS)


def _read_part(conn: Connection, tool_input: object) -> str | None:
    """The part of a file a read asked for (see _part), its input parsed only when its text
    names one of _PART_ARGUMENTS: most reads ask for the whole file (28 of 5,297 at 200 MB
    name one), and each read's input parsed by FIX_CALLS_SQL took its reads of a session's
    calls from 421M instructions to 458M."""
    if isinstance(tool_input, str) and not any(text in tool_input for text in _PART_TEXTS):
        return None  # (parsed, no part: no value, or the input is no JSON)
    return _part(conn.execute(_READ_PART_SQL, [tool_input]).fetchone()[0])


@functools.lru_cache(maxsize=256)
def _part(arguments: str | None) -> str | None:
    """The part of a file a read asked for, as `limit 50` (its arguments that are set).
    Cached: most reads ask for all of it, in the same words (4,295 reads at 200 MB)."""
    if not arguments:
        return None
    found = msgspec.json.decode(arguments)
    words = [
        f"{name} {json.dumps(value) if isinstance(value, list) else value}"
        for name, value in found.items()
        if value is not None
    ]
    return " ".join(words) or None


_new_call = tuple.__new__


def _calls_in_order(conn: Connection, session_id: str, since: str) -> list[Any]:
    """FIX_CALLS_SQL's rows, read in idx_tc_session's order of time, so that SQLite does not
    sort them all for the few calls that share a time (its temporary B-tree was 85M of the
    570M instructions of these reads at 200 MB): those are put in order of file and line
    here. Where that order is not whole (two calls of one line, a file or line that is no
    integer), SQLite sorts the session's calls, as before."""
    rows = conn.execute(FIX_CALLS_BY_TIME_SQL, [session_id, since]).fetchall()
    tied = {row[0] for a, b in pairwise(rows) if a[1] == b[1] for row in (a, b)}
    if not tied:
        return rows
    place = {call: conn.execute(_CALL_PLACE_SQL, [call]).fetchone() for call in tied}
    where = [(row[1], *place[row[0]]) for row in rows if row[0] in tied and place[row[0]]]
    if (
        len(where) < len(tied)
        or any(type(row[1]) is not str for row in rows)
        or any(type(file) is not int or type(line) is not int for _, file, line in where)
        or len(set(where)) < len(where)
    ):
        return conn.execute(FIX_CALLS_SQL, [session_id, since]).fetchall()
    return sorted(rows, key=lambda row: (row[1], *(place.get(row[0]) or (0, 0))))


# The earliest and the latest time of a session's calls (through idx_tc_session, where a
# call without one sorts first, and text that is no time after every time).
_CALL_TIMES_SQL = """
SELECT (SELECT timestamp FROM tool_calls INDEXED BY idx_tc_session WHERE session_id = ?1
        ORDER BY timestamp LIMIT 1),
       (SELECT timestamp FROM tool_calls INDEXED BY idx_tc_session WHERE session_id = ?1
        ORDER BY timestamp DESC LIMIT 1)"""
# Where each failure of a session was written, in the order of its lines (_by_place).
_FAILED_PLACES_SQL = (
    "SELECT tool_use_id, file_id, line_no FROM tool_results"
    " INDEXED BY idx_tr_session_errors WHERE session_id = ? AND is_error = 1"
)


def _by_place(conn: Connection, session_id: str, failed_at: Iterable[str | None]) -> bool:
    """Whether a session's calls, results and prompts are put in order by where they were
    written (file and line: the transcript's own order), not by their times: when one of
    its calls or failures has no time (no timestamp, `""`, text that is none, the epoch of
    a zero: times.known_time). The rules' order and windows compare times, which such a
    row fails: a session written without timestamps lost every fix ("fixed: no", the same
    two calls fixed with them: a new user's try, nu48 finding 1). A session whose calls
    all have times is read by them, as it always was (every held-out set's)."""
    first, last = conn.execute(_CALL_TIMES_SQL, [session_id]).fetchone()
    times = (first, last, *failed_at)
    return any(known_time(at) is None for at in times)


def _place(file_id: object, line_no: object, nth: int) -> str:
    """A row's place in its session as text that sorts as the transcript's lines do: its
    file, its line, and its `nth` among the rows of that line (a prompt first, a result
    last: PLACE_LAST). Stands for its time where the rules read a session by place."""
    file = file_id if type(file_id) is int else 0
    line = line_no if type(line_no) is int else 0
    return f"{file:012d}:{line:012d}:{nth:06d}"


PLACE_LAST = 999_999  # (a result's nth: after the calls of its line)


def _calls_by_place(
    conn: Connection, session_id: str, failed: Iterable[str]
) -> tuple[list[Any], dict[str, Any]]:
    """FIX_CALLS_BY_PLACE_SQL's rows from the first failure on, as FIX_SINCE_SQL reads them
    by time (a failed Codex poll: from the exec_command it polled), each with its place
    (_place) for its time; and the time each place stands for."""
    from pastfix import fixes

    rows = conn.execute(FIX_CALLS_BY_PLACE_SQL, [session_id]).fetchall()
    failures = set(failed)
    start = len(rows)
    for i, row in enumerate(rows):
        if row[0] not in failures:
            continue
        begun = i
        if row[2] in fixes._POLLS:
            begun = next(
                (j for j in range(i - 1, -1, -1) if rows[j][2] == "exec_command"
                 and rows[j][3] == row[3]),
                i,
            )  # fmt: skip
        start = min(start, begun)
    placed = []
    real: dict[str, Any] = {}
    nth = 0
    for i, row in enumerate(rows):
        same_line = i > 0 and rows[i - 1][-2:] == row[-2:]
        nth = nth + 1 if same_line else 1
        at = _place(row[-2], row[-1], nth)
        real[at] = row[1]
        if i >= start:
            placed.append((row[0], at, *row[2:-2]))
    return placed, real


def refresh_fixes(
    conn: Connection,
    session_ids: Iterable[str] | None = None,
    appended: Mapping[str, tuple[int, int]] | None = None,
) -> None:
    """Recompute what followed each failed call of `session_ids` (every session: None).

    Derived from the stored rows alone, so that it holds for sessions whose
    transcript is gone; see pastfix.fixes for the rules. `appended`: the sessions that only
    grew, by the file and first line of their new rows; of those, the failures whose fixes
    the new rows cannot change keep their rows (see _kept_by_append).
    """
    # (kept rows must be what these rules make of what they read)
    appended = appended if appended and fixes_current(conn) and signatures_current(conn) else {}
    every = session_ids is None
    prompts_of: dict[str, list[str]] | None = None
    approving: list[tuple[str, str]] | None = None  # every prompt that approved a plan
    if session_ids is None:
        conn.execute("DELETE FROM fixes")
        # The prompts of every session in one pass over the table: asked session by
        # session, each message's row is read through the index (200 MB: 83M instructions,
        # against 55M).
        prompts_of = {}
        approving = []
        for session, at, plan in conn.execute(_ALL_PROMPTS_SQL):
            prompts_of.setdefault(session, []).append(at)
            if plan is not None:
                approving.append((at, plan))
        session_ids = [
            row[0]
            for row in conn.execute(
                "SELECT DISTINCT session_id FROM tool_results INDEXED BY idx_tr_session_errors"
                " WHERE is_error = 1"
            )
        ]
    else:
        session_ids = list(session_ids)
        session_ids += sorted(_approved_from(conn, session_ids) - set(session_ids))
        conn.executemany(
            "DELETE FROM fixes WHERE session_id = ?",
            [(s,) for s in session_ids if s not in appended],
        )

    outputs: dict[str, str] = {}  # of this session's calls: asked again by later failures

    def output(tool_use_id: str) -> str:
        if tool_use_id not in outputs:
            row = conn.execute(FIX_OUTPUT_SQL, [tool_use_id]).fetchone()
            outputs[tool_use_id] = signatures.without_startup(row[0]) if row and row[0] else ""
        return outputs[tool_use_id]

    def input_of(tool_use_id: str) -> str | None:
        # (a failed edit's, asked by few rules: fixes.session_fixes)
        row = conn.execute(_INPUT_SQL, [tool_use_id]).fetchone()
        return row[0] if row and isinstance(row[0], str) else None

    rows = []
    for session_id in session_ids:
        failed = conn.execute(FIX_ERRORS_SQL, [session_id]).fetchall()
        if not failed:
            if session_id in appended:
                conn.execute("DELETE FROM fixes WHERE session_id = ?", [session_id])
            continue
        outputs.clear()
        # Imported on first use: a refresh of sessions that never failed does not compile
        # the rules (~130M instructions with those of signatures).
        from pastfix import fixes, signatures

        # what the commands printed, not the shell's startup files (Codex 0.63 in a macOS
        # sandbox: Homebrew's `/bin/ps: Operation not permitted` before every output)
        errors = {
            tool_use_id: signatures.without_startup(content or "")
            for tool_use_id, content, _, _ in failed
        }
        kinds = {tool_use_id: kind for tool_use_id, _, _, kind in failed}
        # (what each place stands for, of a session read by place: its stored time)
        real: dict[str, Any] = {}
        by_place = _by_place(conn, session_id, [at for _, _, at, _ in failed])
        since: str | None = None
        if by_place:
            rows_of, real = _calls_by_place(conn, session_id, errors)
        else:
            # what follows the first failure (a call is made before its result is)
            first = min((at for _, _, at, _ in failed if at), default="")
            since = conn.execute(FIX_SINCE_SQL, [session_id]).fetchone()[0] or first
            rows_of = _calls_in_order(conn, session_id, since)
        thread = _sidechain_threads(conn, session_id, rows_of)
        # Made in C, each field in Call's order (its own __new__ is a Python function, and
        # 16,845 calls are made at 200 MB).
        calls = [
            _new_call(
                fixes.Call,
                (
                    row[0],  # tool_use_id
                    row[1],  # timestamp
                    row[2],  # name
                    row[3],  # command
                    row[4],  # file_path
                    row[5],  # pattern
                    row[6] if row[6] is not None or not row[8] else thread.get(row[9]),  # agent_id
                    row[0] in errors or not row[7] & 1,  # failed
                    kinds.get(row[0]),  # kind
                    bool(row[8]),  # sidechain
                    row[10] if isinstance(row[10], str) and row[10] else None,  # workdir
                    None if row[11] is None else _read_part(conn, row[11]),  # part
                    _url(row[12]),  # url
                    row[12] if isinstance(row[12], str) else None,  # input
                    bool(row[7] & 2),  # running
                    bool(row[7] & 4),  # escalated
                    None,  # outcome_of
                ),
            )
            for row in rows_of
        ]
        read = calls  # (their inputs as the rules ask for them: see _kept_by_append)
        tools = fixes.inputs_read(calls, errors)
        if tools:
            calls = _with_inputs(conn, session_id, since, calls, tools)
        if by_place:
            prompts = []
            for file_id, line_no, at in conn.execute(_FIX_PROMPTS_BY_PLACE_SQL, [session_id]):
                prompts.append(_place(file_id, line_no, 0))
                real[prompts[-1]] = at
            results_at = {
                tool_use_id: _place(file_id, line_no, PLACE_LAST)
                for tool_use_id, file_id, line_no in conn.execute(_FAILED_PLACES_SQL, [session_id])
            }
        else:
            prompts = (
                prompts_of.get(session_id, [])
                if prompts_of is not None
                else [row[0] for row in conn.execute(FIX_PROMPTS_SQL, [session_id])]
            )
            results_at = {tool_use_id: at for tool_use_id, _, at, _ in failed if at}
        approved = _approvals(conn, calls, results_at, approving)
        kept: set[str] = set()
        if session_id in appended:
            # (by place, an append is read whole: _kept_by_append compares times)
            kept = (
                set()
                if by_place
                else _kept_by_append(
                    conn, session_id, appended[session_id], (read, calls), errors, thread, tools
                )
            )
            conn.execute(
                "DELETE FROM fixes WHERE session_id = ?"
                " AND tool_use_id NOT IN (SELECT value FROM json_each(?))",
                [session_id, json.dumps(sorted(kept))],
            )
        while True:
            unfound = [t for t, k in kinds.items() if k == "string_not_found" and t not in kept]
            done = _already_made(conn, session_id, unfound, by_place) if unfound else set()
            failed_rules: list[tuple[str, Exception]] = []
            try:
                found = list(
                    fixes.session_fixes(
                        calls,
                        prompts,
                        errors,
                        output,
                        signatures.key_line,
                        signatures.signature,
                        done,
                        failed_rules,
                        results_at,
                        approved,
                        [t for t in errors if t not in kept] if kept else None,
                        input_of,
                    )
                )
            except Exception as e:  # noqa: BLE001
                if kept:
                    # (raised on the failures computed again: on the whole session, as a
                    # full refresh computes it, it may too)
                    conn.execute("DELETE FROM fixes WHERE session_id = ?", [session_id])
                    kept = set()
                    continue
                # A rule that fails on some session (a command it cannot read) must not stop
                # the build nor lose its rows: its failures are kept, found and shown
                # without a fix.
                print(
                    f"pastfix: the fix rules failed on session {session_id}"
                    f" ({type(e).__name__}: {e}); its failures are kept without what fixed"
                    " them",
                    file=sys.stderr,
                )
                found, failed_rules = [], []
            break
        if failed_rules:
            # one failure the rules could not read (a URL they could not parse) loses its
            # own fix only: the session's others are kept
            tool_use_id, error = failed_rules[0]
            print(
                f"pastfix: the fix rules failed on {len(failed_rules)} failure(s) of session"
                f" {session_id} (first {tool_use_id}: {type(error).__name__}: {error});"
                " they are kept without what fixed them",
                file=sys.stderr,
            )
        for fix in found:
            if by_place:
                # (stored as the transcript wrote them: a card says "an unknown time")
                fix.confirmed_at = real.get(fix.confirmed_at) if fix.confirmed_at else None
                fix.window_end = real.get(fix.window_end) if fix.window_end else None
            rows.append(
                (
                    fix.tool_use_id,
                    session_id,
                    fix.outcome,
                    fix.confirmed_by,
                    fix.confirmed_at,
                    msgspec.json.encode([step.to_dict() for step in fix.remedy]).decode(),
                    msgspec.json.encode(fix.others).decode(),
                    fix.window_end,
                )
            )
    conn.executemany("INSERT OR REPLACE INTO fixes VALUES (?,?,?,?,?,?,?,?)", rows)
    if every:
        # Only then are all of them this version's: the sessions a partial refresh did not
        # compute keep the rules that made them, and a build that finds the index of
        # another version computes every fix again (Builder._finish). Stamped by the
        # refresh of the sessions a build touched, an index of older rules passed for
        # current, and its other sessions kept their old fixes.
        set_state(conn, "fix_version", str(FIX_VERSION))


def _approval_bounds(at: str, before: int, after: int) -> tuple[str, str] | None:
    """The times `before` seconds before `at` and `after` seconds after it, written as Claude
    Code writes its timestamps (`2026-03-06T01:43:03.361Z`); None when `at` is not a time."""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return None

    def written(t: datetime) -> str:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"

    return written(moment - timedelta(seconds=before)), written(moment + timedelta(seconds=after))


def _approvals(
    conn: Connection,
    calls: Sequence[Any],
    results_at: dict[str, str],
    approving: list[tuple[str, str]] | None,
) -> set[str]:
    """The plans of `calls` recorded as rejected that a session begun then implements
    (fixes.approved_plan): `approving`, every prompt that approved a plan (a full refresh),
    or, when None, those of the sessions begun about then, read from the sessions rows."""
    from pastfix import fixes

    approved = set()
    for call in calls:
        if call.name not in agents.APPROVAL_TOOLS or call.kind != "rejected":
            continue
        bounds = _approval_bounds(
            results_at.get(call.tool_use_id) or call.timestamp,
            APPROVAL_BEFORE_SECONDS,
            APPROVAL_AFTER_SECONDS,
        )
        if bounds is None:
            continue
        start, end = bounds
        prompts = (
            [(at, text) for at, text in approving if start <= at <= end]
            if approving is not None
            else conn.execute(_APPROVING_PROMPTS_SQL, [start, end]).fetchall()
        )
        if any(fixes.approved_plan(call.input, text) for _, text in prompts):
            approved.add(call.tool_use_id)
    return approved


def _approved_from(conn: Connection, session_ids: Sequence[str]) -> set[str]:
    """The sessions whose rejected plans a prompt of `session_ids` may have approved: their
    fixes change with a session that began after they were last computed."""
    found: set[str] = set()
    for session_id in session_ids:
        for (at,) in conn.execute(_SESSION_PLAN_PROMPTS_SQL, [session_id]):
            # (the rejection comes up to APPROVAL_AFTER_SECONDS before the prompt)
            bounds = _approval_bounds(at, APPROVAL_AFTER_SECONDS, APPROVAL_BEFORE_SECONDS)
            if bounds is not None:
                found.update(row[0] for row in conn.execute(_PLANS_REJECTED_SQL, bounds))
    return found


def rejected_plan_sessions(conn: Connection) -> set[str]:
    """The sessions with a plan recorded as rejected: a session that approved it may be in
    the other half of a bulk build (pastfix.shard), so their fixes are computed again after
    the copy."""
    return {row[0] for row in conn.execute(_ALL_PLANS_REJECTED_SQL)}


# The calls, results and prompts of a session read from one file from a line on (an
# append's), whether each is a prompt (FIX_PROMPTS_SQL's), and its time.
_APPENDED_SQL = f"""
SELECT 'call', tool_use_id, timestamp, name FROM tool_calls
WHERE session_id = ?1 AND file_id = ?2 AND line_no >= ?3
UNION ALL SELECT 'result', tool_use_id, timestamp, NULL FROM tool_results
WHERE session_id = ?1 AND file_id = ?2 AND line_no >= ?3
UNION ALL SELECT 'message', NULL, timestamp, CASE WHEN {_FIX_PROMPTS_WHERE} THEN 'prompt' END
FROM messages WHERE session_id = ?1 AND file_id = ?2 AND line_no >= ?3
  AND (is_sidechain = 1 OR {_FIX_PROMPTS_WHERE})"""
_OLD_PROMPTS_SQL = f"""
SELECT timestamp FROM messages WHERE session_id = ?1 AND {_FIX_PROMPTS_WHERE}
  AND NOT (file_id = ?2 AND line_no >= ?3)"""


def _kept_by_append(
    conn: Connection,
    session_id: str,
    since: tuple[int, int],
    calls: tuple[list[Any], list[Any]],
    errors: dict[str, str],
    thread: dict[str, str],
    tools: set[str],
) -> set[str]:
    """The failures of a session that only grew (its new rows those of file `since[0]`
    from line `since[1]` on) whose stored fixes stand (fixes.unchanged_by_append); none
    when the new rows are not all at the session's end as the rules read it: a new call,
    result or prompt not later than every old call and prompt, a result of a call not new
    (its call's outcome changes), a Codex poll (it settles the command it polls: see
    fixes.settled), a subagent's message where subagents are told apart by their
    messages' links (_sidechain_threads), a new call for which the rules read the inputs
    of more calls (fixes.inputs_read: a rejected edit makes them read every edit's), or a
    plan recorded as rejected in the session (a prompt of this session or another may
    approve it: _approvals).
    `calls`: the session's calls as read, and with those inputs."""
    from pastfix import fixes

    new_calls: set[str] = set()
    new_results: list[str] = []
    new_times: list[Any] = []  # of the new calls and prompts
    prompts_added = False
    for kind, tool_use_id, at, name in conn.execute(_APPENDED_SQL, [session_id, *since]):
        if kind == "call":
            if name in fixes._POLLS:
                return set()
            new_calls.add(tool_use_id)
            new_times.append(at)
        elif kind == "result":
            new_results.append(tool_use_id)
        elif name == "prompt":
            prompts_added = True
            new_times.append(at)
        elif thread:
            return set()  # (a subagent's message)
    if not new_calls and not new_results and not prompts_added:
        return set(errors)
    if any(c.name in agents.APPROVAL_TOOLS and c.kind == "rejected" for c in calls[0]):
        return set()  # (whether a prompt approved it may change with any new one: _approvals)
    if any(t not in new_calls for t in new_results):
        return set()  # (a failure of an earlier call would also move where the rules read from)
    read, calls_read = calls
    old_calls = {c.tool_use_id: c.timestamp for c in read if c.tool_use_id not in new_calls}
    old = [c for c in read if c.tool_use_id in old_calls]
    if fixes.inputs_read(old, {t: e for t, e in errors.items() if t in old_calls}) != tools:
        return set()
    old_prompts = sorted(row[0] for row in conn.execute(_OLD_PROMPTS_SQL, [session_id, *since]))
    last = max([*old_calls.values(), *old_prompts], default="")
    if any(type(at) is not str or at <= last for at in new_times):
        return set()
    return fixes.unchanged_by_append(calls_read, errors, new_calls, old_prompts, prompts_added)


_EDIT_TOOLS_SQL = ", ".join(f"'{name}'" for name in sorted(agents.tools(agents.EDIT)))
_INPUTS_SQL = """
SELECT tool_use_id, input FROM tool_calls INDEXED BY idx_tc_session
WHERE session_id = ? AND timestamp >= ? AND name IN (SELECT value FROM json_each(?))
"""
# (of a session read by place: all its calls of those tools)
_ALL_INPUTS_SQL = """
SELECT tool_use_id, input FROM tool_calls INDEXED BY idx_tc_session
WHERE session_id = ? AND name IN (SELECT value FROM json_each(?))
"""


def _with_inputs(
    conn: Connection, session_id: str, since: str | None, calls: list[Any], tools: set[str]
) -> list[Any]:
    """`calls` with the inputs of those of `tools` (fixes.inputs_read): a later edit of the
    file of an edit the user rejected redoes it only when it writes the same
    (fixes._same_edit), the retry of a call whose input was at fault says what it
    changed in it (fixes._input_change), and a script file written may do what a command
    that could not run was to (fixes.written_code). Read only for a session with such a call: an
    edit's input is the largest part of most calls' rows."""
    names = json.dumps(sorted(tools))
    inputs = dict(
        conn.execute(_INPUTS_SQL, [session_id, since, names])
        if since is not None
        else conn.execute(_ALL_INPUTS_SQL, [session_id, names])
    )
    return [
        c._replace(input=inputs[c.tool_use_id]) if c.tool_use_id in inputs else c for c in calls
    ]


_INPUT_SQL = "SELECT input FROM tool_calls WHERE tool_use_id = ?"

# An edit's input, and those of the successful edits of its file before it, latest first.
_EDIT_INPUT_SQL = (
    "SELECT file_path, timestamp, input, file_id, line_no FROM tool_calls WHERE tool_use_id = ?"
)
_EARLIER_EDITS_SQL = f"""
SELECT c.input FROM tool_calls c INDEXED BY idx_tc_session
WHERE c.session_id = ? AND c.timestamp < ? AND c.file_path = ? AND c.name IN ({_EDIT_TOOLS_SQL})
  AND NOT EXISTS (SELECT 1 FROM tool_results r WHERE r.tool_use_id = c.tool_use_id AND r.is_error)
ORDER BY c.timestamp DESC LIMIT 30
"""
# (of a session read by place: the edits written on its lines before)
_EARLIER_EDITS_BY_PLACE_SQL = f"""
SELECT c.input FROM tool_calls c INDEXED BY idx_tc_session
WHERE c.session_id = ? AND (c.file_id, c.line_no) < (?, ?) AND c.file_path = ?
  AND c.name IN ({_EDIT_TOOLS_SQL})
  AND NOT EXISTS (SELECT 1 FROM tool_results r WHERE r.tool_use_id = c.tool_use_id AND r.is_error)
ORDER BY c.file_id DESC, c.line_no DESC LIMIT 30
"""


def _already_made(
    conn: Connection, session_id: str, unfound: list[str], by_place: bool = False
) -> set[str]:
    """Which of the edits whose text was not found had nothing left to do (fixes.already_made).
    `by_place`: the edits before one are those of the lines before it (_by_place)."""
    from pastfix import fixes

    done = set()
    for tool_use_id in unfound:
        row = conn.execute(_EDIT_INPUT_SQL, [tool_use_id]).fetchone()
        if row is None or not row[0] or not (row[1] or by_place):
            continue
        path, at, edit_input, file_id, line_no = row
        earlier = [
            r[0]
            for r in (
                conn.execute(_EARLIER_EDITS_BY_PLACE_SQL, [session_id, file_id, line_no, path])
                if by_place
                else conn.execute(_EARLIER_EDITS_SQL, [session_id, at, path])
            )
        ]
        if earlier and fixes.already_made(edit_input, earlier):
            done.add(tool_use_id)
    return done


def _sidechain_threads(
    conn: Connection, session_id: str, calls: Sequence[Sequence[Any]]
) -> dict[str, str]:
    """Which subagent each sidechain message belongs to, where Claude Code did not say.

    Claude Code 1.0 wrote the messages of parallel subagents into the session's file
    with no agent id: each subagent is then the chain of parent links back to its
    first sidechain message, which names the thread.
    """
    if not any(row[6] is None and row[8] for row in calls):
        return {}
    parent: dict[str, str | None] = {}
    for uuid, parent_uuid in conn.execute(
        "SELECT uuid, parent_uuid FROM messages WHERE session_id = ? AND is_sidechain = 1",
        [session_id],
    ):
        parent[uuid] = parent_uuid
    root: dict[str, str] = {}
    for start in parent:
        path: list[str] = []
        uuid = start
        while uuid not in root and len(path) < len(parent):
            up = parent.get(uuid)
            if up is None or up not in parent:
                break
            path.append(uuid)
            uuid = up
        top = root.get(uuid, uuid)
        for node in [*path, uuid]:
            root[node] = top
    return {uuid: f"sidechain:{top}" for uuid, top in root.items()}


def fixes_current(conn: Connection) -> bool:
    """Whether the stored fixes were made by this version of the rules."""
    return state(conn, "fix_version") == str(FIX_VERSION)


def stored_sessions(conn: Connection) -> set[str]:
    """Every session the stored messages and metadata name."""
    return {
        row[0]
        for row in conn.execute(
            "SELECT session_id FROM messages UNION SELECT session_id FROM session_meta"
        )
    }


def refresh_sessions(conn: Connection, session_ids: Iterable[str]) -> None:
    """Recompute the sessions rows of `session_ids` from their messages and metadata."""
    try:
        conn.create_function("project_of_dir", 2, agents.project_of_dir, deterministic=True)
        conn.create_function("prompt_title", 2, agents.prompt_title, deterministic=True)
        conn.create_function("typed_title", 2, agents.typed_title, deterministic=True)
    except sqlite3.OperationalError:
        # Defined already (connect does), and not to be redefined now: an FTS5
        # 'rebuild' keeps a statement active until the transaction ends (reredact).
        pass
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS _touched (session_id TEXT PRIMARY KEY)")
    conn.execute("DELETE FROM _touched")
    conn.executemany("INSERT INTO _touched VALUES (?)", [(sid,) for sid in session_ids])
    conn.execute("DELETE FROM sessions WHERE session_id IN (SELECT session_id FROM _touched)")
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS _touched_files (session_id, file_id,"
        " PRIMARY KEY (session_id, file_id)) WITHOUT ROWID"
    )
    conn.execute("DELETE FROM _touched_files")
    # (a NULL file_id is left out: it is no file's, and matches none in the subqueries)
    for table in ("messages", "session_meta"):
        conn.execute(
            "INSERT OR IGNORE INTO _touched_files SELECT x.session_id, x.file_id"
            f" FROM _touched t CROSS JOIN {table} x ON x.session_id = t.session_id"
        )
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS _touched_summaries (session_id, timestamp, value)"
    )
    conn.execute(
        "CREATE INDEX IF NOT EXISTS temp._touched_summaries_session"
        " ON _touched_summaries (session_id, timestamp, value)"
    )
    conn.execute("DELETE FROM _touched_summaries")
    (summaries,) = conn.execute(
        "SELECT count(*) FROM session_meta WHERE leaf_uuid IS NOT NULL"
    ).fetchone()
    (touched,) = conn.execute("SELECT count(*) FROM _touched").fetchone()
    first = summaries <= SUMMARIES_FIRST_PER_SESSION * touched
    conn.execute(
        f"INSERT INTO _touched_summaries {_SUMMARIES_FIRST_SQL if first else _SUMMARIES_SQL}"
    )
    conn.execute(REFRESH_SESSIONS_SQL)


def stored_failures(conn: Connection, table: str, inserted: int) -> int:
    """How many of the `inserted` rows just added to `table` (tool_results) are failures.

    Asked only when some rows were ignored as duplicates (which rows, the insert does
    not say). The rows just added hold the table's highest ids: a rowid without
    AUTOINCREMENT is one more than the highest.
    """
    return conn.execute(
        f"SELECT count(*) FROM (SELECT is_error FROM {table} ORDER BY id DESC LIMIT ?)"
        " WHERE is_error",
        [inserted],
    ).fetchone()[0]


def call_sessions(conn: Connection) -> set[str]:
    """The sessions of the stored tool calls (through idx_tc_session).

    With the sessions a bulk build's half read (Builder.touched: those of its
    messages, results and metadata), every session it holds rows of.
    """
    return {r[0] for r in conn.execute("SELECT DISTINCT session_id FROM tool_calls")}
