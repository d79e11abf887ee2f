"""Remove sessions from the index for good: `pastfix forget`.

The index keeps the sessions whose transcripts are gone (migrations.m012_archive),
so no build removes anything by itself: this does, when a user asks. The rows go,
their full-text entries, and their bytes: secure_delete zeroes what is deleted,
the full-text indexes are rebuilt without them (an FTS5 'delete' leaves the old
terms in older segments until they are merged), and a checkpoint empties the WAL.

A session whose transcript is still on disk keeps its file's stored size and
offset, so an incremental build does not read it again, under a hash of its path
in place of the path (records.FORGOTTEN); a forced build, or a rewrite of the file,
indexes it again: `Forgotten.on_disk` counts those.
"""

from __future__ import annotations

import json
import os
import sqlite3
import string
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pastfix import build as pbuild
from pastfix import db as pdb
from pastfix import paths
from pastfix.patterns import lazy
from pastfix.records import valid_text

# What is listed of each session, and where a session is picked from.
SESSIONS_SQL = (
    "SELECT session_id, project, title, first_ts, last_ts, agent, message_count,"
    " tool_call_count, tool_error_count, transcript_deleted_at FROM sessions"
)
IN_IDS = "(SELECT value FROM json_each(?))"


class ForgetError(Exception):
    """What cannot be forgotten (no index, an unknown session): meant for the user."""


@dataclass
class Forgotten:
    sessions: list[dict[str, Any]]
    # Of those, how many still have a transcript on disk (a forced build reads it again).
    on_disk: int = 0
    # Files of archived transcripts whose every row went (their source_files row too).
    files_removed: int = 0
    # Whether the WAL could be emptied: a reader holding the index open stops it.
    wal_cleared: bool = True
    dry_run: bool = False


def parse_before(text: str) -> str:
    """An ISO date or time as the UTC timestamp prefix sessions are compared with.

    A date or time without a zone is UTC, as the transcripts' timestamps are.
    ValueError when `text` is not ISO 8601.
    """
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            f"{text!r} is not a date: write it as 2026-01-31 or 2026-01-31T18:00"
        ) from None
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when.strftime("%Y-%m-%dT%H:%M:%S")


def _of_prefix(conn: Any, prefix: str) -> str | None:
    """The one session whose id starts with `prefix` (8 characters or more); ForgetError
    when several do."""
    from pastfix import queries

    found = queries.session_of_prefix(conn, prefix)
    if found is None and len(prefix) >= queries.SESSION_PREFIX_CHARS:
        rows = conn.execute(queries.SESSION_PREFIX_SQL, [prefix]).fetchall()
        if len(rows) > 1:
            raise ForgetError(
                f"{prefix} starts the ids of several sessions: give more of the one to forget"
                " (nothing forgotten)"
            )
    return found


def select(
    conn: Any,
    session_ids: Sequence[str] = (),
    project: str | None = None,
    before: str | None = None,
    missing: bool = False,
) -> list[dict[str, Any]]:
    """The sessions that match every criterion given, oldest first.

    `project` takes its subfolders too; `before` (see parse_before) picks the
    sessions last active before it. ForgetError for an id not in the index.
    """
    clauses: list[str] = []
    args: list[Any] = []
    if session_ids:
        known = {
            r[0]
            for r in conn.execute(
                f"SELECT session_id FROM sessions WHERE session_id IN {IN_IDS}",
                [json.dumps(list(session_ids))],
            )
        }
        # a session named by the start of its id, as the hook, the pages and MCP name it
        full = {s: s if s in known else _of_prefix(conn, s) for s in session_ids}
        unknown = [s for s, found in full.items() if found is None]
        from pastfix.queries import SESSION_PREFIX_CHARS

        short = [s for s in unknown if len(s) < SESSION_PREFIX_CHARS]
        if short:
            # (a start of an id names a session from 8 characters: `c0a8` was said to be
            # no session at all, a new user's try, nu36)
            raise ForgetError(
                f"no session {', '.join(unknown)} in the index: an id or its first"
                f" {SESSION_PREFIX_CHARS} characters or more name one (nothing forgotten)"
            )
        if unknown:
            raise ForgetError(f"no session {', '.join(unknown)} in the index: nothing forgotten")
        session_ids = list(dict.fromkeys(str(found) for found in full.values()))
        clauses.append(f"session_id IN {IN_IDS}")
        args.append(json.dumps(list(session_ids)))
    if project is not None:
        clause, folder, sep = _project_clause(project)
        folder = valid_text(folder)  # (bytes that are no UTF-8, which sqlite3 cannot bind)
        clauses.append(clause)
        args += [folder, len(folder) + 1, folder + sep]
    if before is not None:
        clauses.append("last_ts < ?")
        args.append(before)
    if missing:
        clauses.append("transcript_deleted_at IS NOT NULL")
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    cursor = conn.execute(f"{SESSIONS_SQL}{where} ORDER BY last_ts, session_id", args)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor]


# A Windows folder, as Codex and Copilot on Windows record a session's cwd: a drive's
# (`C:\\Users\\me\\proj`, `c:/Users/me/proj`) or a share's (`\\\\server\\share`).
_WINDOWS = lazy(r"[A-Za-z]:(?:[\\/]|\Z)|[\\/]{2}[^\\/]")
# A stored project as a Windows folder is compared: backslashes, in lower case (SQLite's
# lower() folds ASCII letters only, and so does _ASCII_LOWER the folder given).
_WINDOWS_PROJECT = "lower(replace(project, '/', '\\'))"
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _project_clause(project: str) -> tuple[str, str, str]:
    """The SQL that picks the sessions of `project` and its subfolders (given the folder,
    its length + 1 and the folder with a separator after it), that folder and that
    separator. A Windows
    folder matches with either slash and in any case of its ASCII letters, as Windows
    opens it (it matched nothing: read as a POSIX path, it became `<cwd>/C:\\...`, a
    security test of session 33; `D:/claudeworkspace` did not match `d:\\ClaudeWorkspace`,
    a new user's try, nu46 finding 12); `/` would be every project, and is refused
    (ForgetError): `--before`, `--missing` say which sessions go of all of them."""
    if _WINDOWS.match(project):
        folder = project.replace("/", "\\").rstrip("\\").translate(_ASCII_LOWER)
        clause = f"({_WINDOWS_PROJECT} = ? OR substr({_WINDOWS_PROJECT}, 1, ?) = ?)"
        return clause, folder, "\\"
    # `~` as pastfix reads it everywhere (paths.home: an empty HOME is not `/`)
    folder = os.path.abspath(paths.expand(project)).rstrip("/")
    if not folder:
        raise ForgetError(
            f"--project {project} is every project: name a project's folder (--before or"
            " --missing pick sessions of every project)"
        )
    return "(project = ? OR substr(project, 1, ?) = ?)", folder, "/"


def forget(
    db_path: str | Path,
    session_ids: Sequence[str] = (),
    project: str | None = None,
    before: str | None = None,
    missing: bool = False,
    dry_run: bool = False,
    only: Collection[str] | None = None,
    on_wait: Callable[[], None] | None = None,
) -> Forgotten:
    """Remove the sessions that match (see select) from the index at `db_path`, with
    their bytes; with `dry_run`, only say which they are.

    `only`: of those, only these ids, the ones a user was shown and said yes to. A build
    may end between the list and the answer (the SessionEnd hook's, say): a session
    whose transcript it found gone matched `--missing` then, was never shown, and went
    with the others, for good. `on_wait()` is called when a build holds the index a
    moment (build_lock)."""
    db_path = Path(db_path)
    if not db_path.is_file():
        raise ForgetError(f"{db_path} not found: there is no index to forget from")
    if dry_run:
        return _listed(db_path, session_ids, project, before, missing)
    try:
        with pbuild.build_lock(db_path, on_wait=on_wait):
            conn = pdb.connect(db_path, create=False)
            try:
                check_sessions(conn, db_path)
                found = select(conn, session_ids, project, before, missing)
                if only is not None:
                    found = [s for s in found if s["session_id"] in only]
                done = _found(found, dry_run)
                if done.sessions:
                    done.files_removed = _delete(conn, [s["session_id"] for s in done.sessions])
                    busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                    done.wal_cleared = busy == 0
            finally:
                conn.close()
    except sqlite3.Error as e:  # said as a build says it: read-only, damaged, locked
        raise ForgetError(pbuild.error_text(db_path, e)) from e
    except pdb.BuildError as e:  # not SQLite, or not pastfix's: connect() writes to neither
        raise ForgetError(str(e)) from e
    return done


def _listed(
    db_path: Path,
    session_ids: Sequence[str],
    project: str | None,
    before: str | None,
    missing: bool,
) -> Forgotten:
    """A dry run: the sessions that match, read as find reads them.

    Neither the build lock nor a writable connection: both create files beside the
    index, and a dry run in a read-only folder (a team's shared index) failed, 'is
    read-only: changing index.db needs files beside it', for a list.
    """
    from pastfix import queries  # read-only and immutable where need be (read_uri)

    try:
        conn = queries.connect(db_path)
    except queries.NotAnIndex as e:
        raise ForgetError(str(e)) from e
    try:
        check_sessions(conn, db_path)
        return _found(select(conn, session_ids, project, before, missing), dry_run=True)
    except sqlite3.DatabaseError as e:
        raise ForgetError(queries.open_error(db_path, e)) from e
    finally:
        conn.close()


def _found(sessions: list[dict[str, Any]], dry_run: bool) -> Forgotten:
    return Forgotten(
        sessions,
        on_disk=sum(s["transcript_deleted_at"] is None for s in sessions),
        dry_run=dry_run,
    )


def check_sessions(conn: Any, db_path: Path) -> None:
    """ForgetError when the sessions table, or one of its indexes, is damaged.

    select() reads that table alone, through its indexes: with the table's pages
    overwritten, `--missing` read only the empty idx_sessions_deleted, and said 'No
    session matches' of a damaged index. SQLite checks that table and its indexes only,
    not the whole file: 0.8 ms for the 18 sessions of ../shared/corpus/real, 65 ms for
    100,000 sessions.
    """
    from pastfix.queries import damaged_index

    rows = [r[0] for r in conn.execute("PRAGMA quick_check(sessions)")]
    if rows != ["ok"]:
        raise ForgetError(damaged_index(db_path, "; ".join(rows[:3])))


def _delete(conn: Any, session_ids: list[str]) -> int:
    """Delete every row of `session_ids` in one transaction; the files removed."""
    ids = json.dumps(session_ids)
    conn.execute("PRAGMA secure_delete=ON")
    conn.execute("BEGIN IMMEDIATE")
    try:
        files = conn.execute(
            "SELECT DISTINCT f.id, f.session_ids, f.missing_since, f.path FROM source_files f,"
            f" json_each(f.session_ids) j WHERE j.value IN {IN_IDS}",
            [ids],
        ).fetchall()
        # Sessions titled by a summary line of a forgotten one lose that title.
        titled = {
            r[0]
            for r in conn.execute(
                "SELECT DISTINCT m.session_id FROM session_meta sm"
                " JOIN messages m ON m.uuid = sm.leaf_uuid"
                f" WHERE sm.session_id IN {IN_IDS} AND sm.leaf_uuid IS NOT NULL",
                [ids],
            )
        } - set(session_ids)
        # A bad line of a forgotten session in a file that holds others too (Claude Code
        # 1.0.x wrote a resumed session into the file it resumed): its problem row, whose
        # excerpt is that line's text, goes with it when it names the session or lies among
        # its lines (a security test, session 30: it stayed in `problems`).
        conn.execute(
            "DELETE FROM problems WHERE id IN (SELECT p.id FROM problems p"
            f" JOIN json_each(?) j ON instr(p.excerpt, j.value)"
            " WHERE p.file_id IN (SELECT value FROM json_each(?)))"
            " OR id IN (SELECT p.id FROM problems p JOIN"
            "  (SELECT file_id, min(line_no) AS first, max(line_no) AS last FROM messages"
            f"   WHERE session_id IN {IN_IDS} GROUP BY file_id) r"
            "  ON p.file_id = r.file_id AND p.line_no BETWEEN r.first AND r.last)",
            [ids, json.dumps([f[0] for f in files]), ids],
        )
        conn.execute(
            "DELETE FROM redactions WHERE"
            " (table_name = 'messages' AND row_key IN"
            f"   (SELECT uuid FROM messages WHERE session_id IN {IN_IDS}))"
            " OR (table_name IN ('tool_calls', 'tool_results') AND row_key IN"
            f"   (SELECT tool_use_id FROM tool_calls WHERE session_id IN {IN_IDS}"
            f"    UNION SELECT tool_use_id FROM tool_results WHERE session_id IN {IN_IDS}))"
            f" OR (table_name = 'session_meta' AND row_key IN {IN_IDS})",
            [ids, ids, ids, ids],
        )
        for table in (*pdb.DATA_TABLES, "fixes", "_persisted_outputs", "sessions"):
            conn.execute(f"DELETE FROM {table} WHERE session_id IN {IN_IDS}", [ids])
        # A file that shares ids with these (a resumed session) may hold copies of
        # rows that were the forgotten ones': the next build reads it again.
        conn.execute(
            "UPDATE source_files SET size = -1, tail_hash = NULL WHERE missing_since IS NULL"
            " AND id IN (SELECT other_id FROM _duplicate_links WHERE file_id IN"
            " (SELECT value FROM json_each(?)))",
            [json.dumps([f[0] for f in files])],
        )
        removed = 0
        gone = set(session_ids)
        for file_id, stored, missing_since, path in files:
            left = [s for s in json.loads(stored or "[]") if s not in gone]
            if left:
                conn.execute(
                    "UPDATE source_files SET session_ids = ? WHERE id = ?",
                    [json.dumps(left), file_id],
                )
                continue
            conn.execute("DELETE FROM problems WHERE file_id = ?", [file_id])
            conn.execute("DELETE FROM redactions WHERE file_id = ?", [file_id])
            if missing_since:
                conn.execute("DELETE FROM source_files WHERE id = ?", [file_id])
                conn.execute(
                    "DELETE FROM _duplicate_links WHERE file_id = ? OR other_id = ?",
                    [file_id, file_id],
                )
                removed += 1
            else:
                # Kept, with its size and offset, so that a refresh does not read it again,
                # but not its name (records.FORGOTTEN): the path named the user, the project
                # and the session (a new user's find, nu41). One forgotten before, and read
                # again by a forced build since, leaves its old row to this one.
                key = pbuild.forgotten_key(path)
                conn.execute("DELETE FROM source_files WHERE path = ?", [key])
                conn.execute(
                    "UPDATE source_files SET path = ?, session_id = NULL, project_dir = NULL,"
                    " session_ids = '[]' WHERE id = ?",
                    [key, file_id],
                )
        # Rebuilt rather than told 'delete': the old terms would stay in older segments.
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
        pdb.refresh_tool_errors_fts(conn)
        if titled:
            pdb.refresh_sessions(conn, titled)
            pdb.refresh_fixes(conn, titled)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return removed
