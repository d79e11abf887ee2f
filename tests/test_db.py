import json
import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FIXTURES, REAL_CORPUS, ROOT, build_index
from jsonl import failing_session, prompt, result, say, tool_use, write_jsonl

from pastfix import build as pbuild
from pastfix import db as pdb
from pastfix import fixes, forget, queries, records, signatures, transcripts
from pastfix import shard as pshard
from pastfix.cli import summary_line

SID = "11111111-1111-4111-8111-111111111111"
SID2 = "22222222-2222-4222-8222-222222222222"
SURROGATES = {"id", "file_id", "indexed_at"}


def snapshot(path):
    """Everything in the index, keyed by natural keys (surrogate ids differ between builds)."""
    conn = sqlite3.connect(path)
    snap = {}
    for table in (
        "sessions",
        "messages",
        "tool_calls",
        "tool_results",
        "session_meta",
        "problems",
        "source_files",
    ):
        info = conn.execute(f"PRAGMA table_info({table})").fetchall()
        columns = [f"t.[{c[1]}]" for c in info if c[1] not in SURROGATES]
        join = ""
        if any(c[1] == "file_id" for c in info):
            columns.append("f.path")
            join = "LEFT JOIN source_files f ON f.id = t.file_id"
        sql = f"SELECT {', '.join(columns)} FROM {table} t {join}"
        snap[table] = sorted(conn.execute(sql).fetchall(), key=repr)
    for fts, table, key in (
        ("messages_fts", "messages", "uuid"),
        ("tool_errors_fts", "tool_results", "tool_use_id"),
    ):
        conn.execute(f"CREATE VIRTUAL TABLE temp.v_{fts} USING fts5vocab(main, {fts}, instance)")
        snap[fts] = sorted(
            conn.execute(
                f"SELECT v.term, t.{key}, v.offset FROM temp.v_{fts} v"
                f" JOIN {table} t ON t.id = v.doc"
            ).fetchall()
        )
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)")
    conn.execute("INSERT INTO tool_errors_fts(tool_errors_fts) VALUES('integrity-check')")
    conn.close()
    return snap


def forgotten(path, tmp_path):
    """The snapshot of a copy of the index at `path` without its archived sessions:
    what the index was before the archive (a fresh build of what is on disk)."""
    copy = tmp_path / f"forgot-{path.name}"
    shutil.copy(path, copy)
    forget.forget(copy, missing=True)
    return snapshot(copy)


def error_hits(path, query):
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT tr.session_id, tr.tool_use_id FROM tool_errors_fts"
        " JOIN tool_results tr ON tr.id = tool_errors_fts.rowid"
        " WHERE tool_errors_fts MATCH ? ORDER BY tr.tool_use_id",
        [query],
    ).fetchall()
    conn.close()
    return rows


def query(path, sql, params=()):
    conn = sqlite3.connect(path)
    rows = conn.execute(sql, params).fetchall()
    conn.close()
    return rows


@pytest.fixture
def projects(tmp_path):
    return tmp_path / "projects"


@pytest.fixture(params=["one process", "two processes"])
def processes(request, monkeypatch):
    """Fresh builds over 16 MB fork a helper; these tests run both ways on small corpora."""
    if request.param == "two processes":
        monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    return request.param


def small_session(projects, sid=SID, error="ENOENT: no such file or directory, open 'a.txt'"):
    path = projects / "-home-dev-app" / f"{sid}.jsonl"
    return write_jsonl(
        path,
        [
            prompt("u1", sid, "read the config", "2026-01-01T10:00:00Z"),
            tool_use(
                "a1",
                sid,
                "t1",
                "Read",
                {"file_path": "/home/dev/app/a.txt"},
                "2026-01-01T10:00:01Z",
            ),
            result("r1", sid, "t1", error, "2026-01-01T10:00:02Z", is_error=True),
            tool_use("a2", sid, "t2", "Bash", {"command": "cat b.txt"}, "2026-01-01T10:00:03Z"),
            result(
                "r2",
                sid,
                "t2",
                "ENOENT appears in a successful output",
                "2026-01-01T10:00:04Z",
                is_error=False,
            ),
            say("a3", sid, "The file was missing, I created it.", "2026-01-01T10:00:05Z"),
        ],
    )


# -- the seven tests of the original design ---------------------------------


def test_schema_declares_error_index(db_path):
    db = pdb.open_database(db_path)
    sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'tool_errors_fts'").fetchone()[0]
    assert 'content="tool_results"' in sql
    # Datasette and datasette-search-all find it through this detection.
    assert db.table("tool_results").detect_fts() == "tool_errors_fts"
    assert db.table("messages").detect_fts() == "messages_fts"
    triggers = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
    assert triggers == []


def test_only_is_error_rows_are_indexed(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    assert query(db_path, "SELECT count(*) FROM tool_errors_fts_docsize") == [(1,)]


def test_hit_leads_to_session_and_tool_use_id(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    rows = query(
        db_path,
        "SELECT s.session_id, s.project, tc.tool_use_id, tc.name, tc.file_path"
        " FROM tool_errors_fts JOIN tool_results tr ON tr.id = tool_errors_fts.rowid"
        " JOIN sessions s ON s.session_id = tr.session_id"
        " JOIN tool_calls tc ON tc.tool_use_id = tr.tool_use_id"
        " WHERE tool_errors_fts MATCH '\"no such file\"'",
    )
    assert rows == [(SID, "/home/dev/app", "t1", "Read", "/home/dev/app/a.txt")]


def test_refresh_is_idempotent(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    before = snapshot(db_path)
    conn = sqlite3.connect(db_path)
    with conn:
        pdb.refresh_tool_errors_fts(conn)
        pdb.refresh_tool_errors_fts(conn)
    conn.close()
    assert snapshot(db_path) == before
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]


def test_reindexing_same_tool_use_id_leaves_no_stale_text(db_path, projects):
    path = small_session(projects)
    build_index(db_path, projects)
    path.write_text(path.read_text().replace("ENOENT: no such file", "EACCES: permission denied"))
    build_index(db_path, projects)
    assert error_hits(db_path, "ENOENT") == []
    assert error_hits(db_path, "EACCES") == [(SID, "t1")]
    assert query(db_path, "SELECT count(*) FROM tool_results WHERE tool_use_id = 't1'") == [(1,)]


def test_result_that_stops_being_an_error_drops_out(db_path, projects):
    path = small_session(projects)
    build_index(db_path, projects)
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    path.write_text(path.read_text().replace('"is_error": true', '"is_error": false'))
    build_index(db_path, projects)
    assert error_hits(db_path, "ENOENT") == []
    assert query(db_path, "SELECT tool_error_count FROM sessions") == [(0,)]


def test_a_forced_build_of_another_source_keeps_this_ones(db_path, projects, tmp_path):
    small_session(projects)
    build_index(db_path, projects)
    before = snapshot(db_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    build_index(db_path, empty, force=True)
    assert snapshot(db_path) == before


def test_forgetting_everything_empties_the_index(db_path, projects, tmp_path):
    small_session(projects)
    build_index(db_path, projects)
    shutil.rmtree(projects)
    projects.mkdir()
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM tool_results") == [(2,)]
    assert forget.forget(db_path, missing=True).files_removed == 1
    assert query(db_path, "SELECT count(*) FROM tool_results") == [(0,)]
    assert query(db_path, "SELECT count(*) FROM source_files") == [(0,)]
    assert query(db_path, "SELECT count(*) FROM tool_errors_fts_docsize") == [(0,)]
    assert error_hits(db_path, "ENOENT") == []
    snapshot(db_path)  # integrity checks pass on the emptied index


# -- what a build writes ------------------------------------------------------


def test_build_writes_rows(db_path, projects, processes):
    small_session(projects)
    stats = build_index(db_path, projects)
    assert (stats.files_read, stats.messages, stats.tool_results, stats.failed_tool_results) == (
        1,
        6,
        2,
        1,
    )
    assert query(
        db_path,
        "SELECT session_id, project, title, first_ts, last_ts, git_branch, version,"
        " message_count, tool_call_count, tool_error_count, source_paths FROM sessions",
    ) == [
        (
            SID,
            "/home/dev/app",
            "read the config",
            "2026-01-01T10:00:00Z",
            "2026-01-01T10:00:05Z",
            "main",
            "2.1.39",
            6,
            2,
            1,
            json.dumps([str(projects / "-home-dev-app" / f"{SID}.jsonl")]),
        ),
    ]
    assert query(db_path, "SELECT uuid, type, kind, text FROM messages ORDER BY line_no") == [
        ("u1", "user", "prompt", "read the config"),
        ("a1", "assistant", "tool_use", ""),
        ("r1", "user", "tool_result", ""),
        ("a2", "assistant", "tool_use", ""),
        ("r2", "user", "tool_result", ""),
        ("a3", "assistant", "text", "The file was missing, I created it."),
    ]
    assert query(db_path, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'missing'") == (
        query(db_path, "SELECT id FROM messages WHERE uuid = 'a3'")
    )
    assert query(db_path, "PRAGMA journal_mode") == [("wal",)]


def test_a_none_is_stored_as_null_through_the_adapter_the_build_registers(db_path, projects):
    # pdb registers an adapter for None (the sqlite3 module's own way raised and cleared an
    # AttributeError per NULL bound); a NULL must stay a NULL, not a text or a 0.
    assert sqlite3.adapters[(type(None), sqlite3.PrepareProtocol)](None) is None
    conn = sqlite3.connect(":memory:")
    assert conn.execute("SELECT ? IS NULL, typeof(?)", [None, None]).fetchone() == (1, "null")
    conn.close()
    small_session(projects)
    build_index(db_path, projects)
    # the first line has no parent, a prompt no model and no agent: NULL, as read
    assert query(
        db_path,
        "SELECT typeof(parent_uuid), typeof(model), typeof(agent_id) FROM messages"
        " WHERE uuid = 'u1'",
    ) == [("null", "null", "null")]
    assert query(db_path, "SELECT count(*) FROM tool_results WHERE signature IS NULL") == [(1,)]


def test_project_is_the_directory_the_session_started_in(db_path, projects):
    # The agent's cd moves later lines into subdirectories, however many of them.
    sub = "/home/dev/app/web"
    write_jsonl(
        projects / "-home-dev-app" / f"{SID}.jsonl",
        [
            prompt("u1", SID, "build the web app", "2026-01-01T10:00:00Z"),
            say("a1", SID, "Building.", "2026-01-01T10:00:01Z", cwd=sub),
            say("a2", SID, "Still building.", "2026-01-01T10:00:02Z", cwd=sub),
            say("a3", SID, "Done.", "2026-01-01T10:00:03Z", cwd=sub),
        ],
    )
    build_index(db_path, projects)
    assert query(db_path, "SELECT project FROM sessions") == [("/home/dev/app",)]


def test_second_build_reads_nothing(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    before = snapshot(db_path)
    stats = build_index(db_path, projects)
    assert (stats.files_seen, stats.files_read, stats.bytes_read, stats.new_lines) == (1, 0, 0, 0)
    assert snapshot(db_path) == before


# -- convergence ----------------------------------------------------------------


def corpus_v1(projects):
    a = write_jsonl(
        projects / "-home-dev-a" / f"{SID}.jsonl",
        failing_session(SID, 5, "TypeError: x is undefined", "Guard x"),
    )
    b = write_jsonl(
        projects / "-home-dev-b" / f"{SID2}.jsonl",
        failing_session(SID2, 4, "error TS2339: Property 'y' does not exist", "Add y"),
    )
    sub = write_jsonl(
        projects / "-home-dev-b" / SID2 / "subagents" / "agent-abc1234.jsonl",
        [
            {**line, "isSidechain": True, "agentId": "abc1234", "uuid": "sub-" + line["uuid"]}
            for line in failing_session(
                "sub", 2, "ModuleNotFoundError: No module named 'q'", "Install q"
            )
        ],
    )
    gone = write_jsonl(
        projects / "-home-dev-c" / "33333333-3333-4333-8333-333333333333.jsonl",
        failing_session("c", 2, "EISDIR: illegal operation", "Use a file"),
    )
    return a, b, sub, gone


def corpus_v2(a, b, sub, gone, projects):
    """Every kind of change at once: append, rewrite (shrink), new file, deletion."""
    write_jsonl(a, failing_session(SID, 7, "TypeError: x is undefined", "Guard x")[31:], "a")
    lines = b.read_text().splitlines()
    b.write_text("\n".join(lines[:6]).replace("Add y", "Declare y") + "\n")
    gone.unlink()
    write_jsonl(
        projects / "-home-dev-d" / "44444444-4444-4444-8444-444444444444.jsonl",
        failing_session("d", 3, "Exit code 127 command not found: tree", "Install tree"),
    )
    sub.write_text(sub.read_text() + "{not json\n")


def _split_corpus(projects, shape):
    """Two files, the first (in path order) read by the builder, the second by its helper."""
    a = projects / "-home-dev-a" / f"{SID}.jsonl"
    b = projects / "-home-dev-b" / f"{SID2}.jsonl"
    first = failing_session(SID, 3, "TypeError: x is undefined", "Guard x")
    second = failing_session(SID2, 2, "ENOENT: no such file", "Create it")
    if shape == "a session in both halves":
        # its first failure in the builder's file, the retry that fixed it in the helper's
        first, second = first[:3], [{**line, "sessionId": SID} for line in first[3:]] + second
    elif shape == "a call of one half, its result in the other":
        # the retry that passed, in the helper's file, has its result in the builder's
        # (under another session): without it the retry would confirm nothing
        passed = {**second[5], "sessionId": SID}
        first, second = [*first, passed], second[:5] + second[6:]
    elif shape == "duplicates":
        second = [{**line, "sessionId": SID2} for line in first[:6]] + second
    elif shape == "a session id holding a NUL, in both halves":
        # SQLite's json_each ends a text at an escaped NUL: the session was copied twice
        odd = "s\x00"
        first, second = first[:3], [*first[3:], *second]
        first = [{**line, "sessionId": odd} for line in first]
        second = [{**line, "sessionId": odd} for line in second[:3]] + second[3:]
    write_jsonl(a, first)
    write_jsonl(b, second)


def _built_in_one_and_two_processes(tmp_path, projects, monkeypatch):
    """Fresh indexes of `projects`, one.db built in one process, two.db in two."""
    one = tmp_path / "one.db"
    assert build_index(one, projects).processes == 1
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    two = tmp_path / "two.db"
    assert build_index(two, projects).processes == 2
    return one, two


@pytest.mark.parametrize(
    "shape",
    [
        "apart",
        "a session in both halves",
        "a call of one half, its result in the other",
        "duplicates",
        "a session id holding a NUL, in both halves",
    ],
)
def test_two_processes_store_the_fixes_one_would(tmp_path, projects, monkeypatch, shape):
    """Each half computes its sessions' fixes (see pastfix.shard.Shard); a session or a tool_use_id
    that both halves hold, or a row of the helper's that the copy ignored, makes the
    builder compute them again from the merged rows."""
    _split_corpus(projects, shape)
    one, two = _built_in_one_and_two_processes(tmp_path, projects, monkeypatch)
    fixes = "SELECT * FROM fixes ORDER BY tool_use_id"
    assert query(one, fixes) and query(two, fixes) == query(one, fixes)
    assert snapshot(two) == snapshot(one)


def test_two_processes_leave_the_per_session_indexes_as_dense_as_one(
    tmp_path, projects, monkeypatch
):
    """The builder's per-session indexes, made early for its own sessions' fixes, are made
    again after the copy of the helper's rows: inserted into, their pages split in the
    middle and the index grew past 0.45x its transcripts (issue 4)."""
    for n in range(120):
        sid = f"{n * 7919 % 1000:03d}e8f0c-1b2a-4c3d-9e8f-0123456789ab"
        lines = [prompt(f"u{n}", sid, "go", "2026-01-01T10:00:00Z")]
        for k in range(20):
            at = f"2026-01-01T10:{k:02d}:01Z"
            lines.append(tool_use(f"a{n}-{k}", sid, f"t{n}-{k}", "Bash", {"command": "ls"}, at))
            lines.append(result(f"r{n}-{k}", sid, f"t{n}-{k}", "x" * 40, at, is_error=k == 3))
        write_jsonl(projects / f"-home-dev-p{n % 9}" / f"{sid}.jsonl", lines)
    one, two = _built_in_one_and_two_processes(tmp_path, projects, monkeypatch)
    pages = "SELECT count(*) FROM dbstat WHERE name = ?"
    for index in ("idx_messages_session", "idx_tc_session"):
        assert query(two, pages, (index,)) == query(one, pages, (index,))


def test_the_files_of_one_session_go_to_one_process(monkeypatch):
    """The split falls between two sessions, the nearest in bytes to OWN_SHARE: the fixes of a
    session both halves hold are computed again, by the builder alone, after the copy."""
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(pbuild, "OWN_SHARE", 0.5)
    monkeypatch.setattr(pbuild.os, "cpu_count", lambda: 2)

    def plan(session_id, size):
        return SimpleNamespace(
            source=SimpleNamespace(session_id=session_id), stat=SimpleNamespace(st_size=size)
        )

    # a session's file and its subagents' (40, 45, 55, 60 bytes in), then another session
    plans = [plan("a", 40), plan("b", 5), plan("b", 10), plan("b", 5), plan("c", 50)]
    mine, theirs = pbuild._split(plans)  # type: ignore[arg-type]
    assert [p.source.session_id for p in mine] == ["a", "b", "b", "b"]  # 60 of 110 bytes
    plans[-1] = plan("c", 30)
    mine, theirs = pbuild._split(plans)  # type: ignore[arg-type]
    assert [p.source.session_id for p in mine] == ["a"]  # 40 of 90 bytes


def test_the_summary_counts_the_rows_stored_not_those_ignored_as_duplicates(
    tmp_path, projects, processes
):
    """A session file copied into another project folder, then gone on (a copied
    worktree): its copied lines are ignored as duplicates, its own are stored; the
    counts say what the tables hold, whichever process read the copy."""
    original = failing_session(SID, 3, "TypeError: x is undefined", "Guard x")
    write_jsonl(projects / "-home-dev-a" / f"{SID}.jsonl", original)
    went_on = failing_session(SID2, 2, "ENOENT: no such file", "Create it")
    write_jsonl(projects / "-home-dev-b" / f"{SID}.jsonl", original + went_on)
    db = tmp_path / "index.db"
    stats = build_index(db, projects)
    assert stats.processes == (2 if processes == "two processes" else 1)
    assert stats.duplicates == 16 + 6 + 6  # the original's messages, calls and results
    counts = query(
        db,
        "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM tool_calls),"
        " (SELECT count(*) FROM tool_results),"
        " (SELECT count(*) FROM tool_results WHERE is_error = 1)",
    )
    assert (
        [(stats.messages, stats.tool_calls, stats.tool_results, stats.failed_tool_results)]
        == counts
        == [(16 + 11, 6 + 4, 6 + 4, 3 + 2)]
    )


def test_fresh_incremental_forced_and_retracted_builds_converge(tmp_path, projects, processes):
    files = corpus_v1(projects)
    b = files[1]
    incremental = tmp_path / "incremental.db"
    build_index(incremental, projects)
    corpus_v2(*files, projects)
    stats = build_index(incremental, projects)
    assert (stats.files_removed, stats.files_missing, stats.sessions_without_transcript) == (
        0,
        1,
        1,
    )
    fresh = tmp_path / "fresh.db"
    assert build_index(fresh, projects).processes == (2 if processes == "two processes" else 1)
    assert not list(tmp_path.glob("*.part-*"))
    forced = tmp_path / "forced.db"
    shutil.copy(incremental, forced)
    stats = build_index(forced, projects, force=True)
    assert (stats.files_missing, stats.sessions_without_transcript) == (0, 1)
    expected = snapshot(fresh)
    assert expected["tool_results"] and expected["problems"]
    # the deleted transcript's session is kept, by either build
    archived = snapshot(incremental)
    assert archived != expected
    assert snapshot(forced) == archived
    # the rows b's shrink cut are kept too, under b#SID2 (a session whose transcript is
    # still there: forget --missing keeps it); everything else is what a fresh build reads
    cut = f"{b}#{SID2}"
    assert query(incremental, "SELECT count(*) FROM source_files WHERE path = ?", [cut]) == [(1,)]

    def apart(snap):
        return {
            table: [
                row for row in rows if cut not in row and (table != "sessions" or SID2 not in row)
            ]
            for table, rows in snap.items()
            if not table.endswith("_fts")
        }

    assert forgotten(forced, tmp_path) == forgotten(incremental, tmp_path)
    assert apart(forgotten(incremental, tmp_path)) == apart(expected)
    # everything a session contributed is kept when its folder goes
    shutil.rmtree(projects / "-home-dev-b")
    build_index(incremental, projects)
    fresh2 = tmp_path / "fresh2.db"
    build_index(fresh2, projects)
    assert forgotten(incremental, tmp_path) == snapshot(fresh2)
    assert query(
        incremental,
        "SELECT message_count > 0, transcript_deleted_at IS NOT NULL FROM sessions"
        " WHERE session_id = ?",
        [SID2],
    ) == [(1, 1)]


def test_torn_last_line_is_left_for_next_build(db_path, projects, tmp_path):
    path = projects / "-home-dev-app" / f"{SID}.jsonl"
    lines = [json.dumps(x) for x in failing_session(SID, 2, "ENOENT missing", "Create it")]
    whole = "\n".join(lines) + "\n"
    cut = len(whole) - 40
    path.parent.mkdir(parents=True)
    path.write_text(whole[:cut])
    stats = build_index(db_path, projects)
    assert stats.problems == 0
    assert query(db_path, "SELECT lines FROM source_files") == [(len(lines) - 1,)]
    assert query(db_path, "SELECT count(*) FROM messages") == [(len(lines) - 1,)]
    with open(path, "a") as f:
        f.write(whole[cut:])
    build_index(db_path, projects)
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    assert snapshot(db_path) == snapshot(fresh)
    assert query(db_path, "SELECT count(*) FROM messages") == [(len(lines),)]


# -- bad input -----------------------------------------------------------------


def test_a_line_too_long_is_skipped_and_said_once_and_the_lines_around_it_kept(
    db_path, projects, tmp_path, monkeypatch, processes
):
    """A line over MAX_LINE_BYTES (256 MB; here 4 KB, chunks of 1 KB) is read on to its
    end without being held, said as a problem with its line number, and not read again;
    the lines before and after it are indexed as if it were not there. A line over many
    chunks but under the limit is read whole."""
    monkeypatch.setattr(pbuild, "CHUNK_BYTES", 1024)
    monkeypatch.setattr(pbuild, "MAX_LINE_BYTES", 4096)
    session = [json.dumps(x) for x in failing_session(SID, 2, "ENOENT gone", "Create it")]
    long_ok = json.dumps(say("long-ok", SID, "zebracorn " * 300, "2026-01-01T09:00:00Z"))
    too_long = json.dumps(say("too-long", SID, "quagga " * 2000, "2026-01-01T09:00:01Z"))
    assert 3000 < len(long_ok) < 4096 < len(too_long)
    path = projects / "-home-dev-app" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join([session[0], long_ok, too_long, *session[1:]]) + "\n")
    stats = build_index(db_path, projects)
    assert stats.problems == 1
    ((line_no, reason),) = query(db_path, "SELECT line_no, reason FROM problems")
    assert line_no == 3
    assert f"a line of {len(too_long) + 1:,} bytes" in reason
    stored = {u for (u,) in query(db_path, "SELECT uuid FROM messages")}
    assert "long-ok" in stored and "too-long" not in stored
    assert len(stored) == len(session) + 1
    assert query(db_path, "SELECT count(*) FROM messages WHERE text LIKE '%quagga%'") == [(0,)]
    assert query(db_path, "SELECT lines FROM source_files") == [(len(session) + 2,)]
    assert len(error_hits(db_path, "ENOENT")) == 2
    # read on from its end: a second build reads nothing and says it once
    assert build_index(db_path, projects).files_read == 0
    assert query(db_path, "SELECT count(*) FROM problems") == [(1,)]
    # and an append after it is read as an append
    with open(path, "a") as f:
        f.write(json.dumps(say("later", SID, "appended", "2026-01-01T11:00:00Z")) + "\n")
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM messages WHERE uuid = 'later'") == [(1,)]
    assert query(db_path, "SELECT count(*) FROM problems") == [(1,)]


@pytest.mark.parametrize(
    "calls",
    [
        # calls of one time in two files, and of another
        [("01", 2, 5), ("00", 1, 9), ("01", 1, 9), ("01", 1, 3), ("02", 1, 1), ("00", 3, 1)],
        [("01", 1, 4), ("01", 1, 4), ("00", 1, 2), ("01", 1, 2)],  # two calls of one line
        [("01", 1, 4), ("01", None, 2), ("00", 1, 2), ("01", 1, 3)],  # a NULL file
        [("01", 1, 4), ("00", None, 2), ("02", 1, 2)],  # no two calls of one time
    ],
)
def test_the_calls_of_one_time_come_in_the_order_sqlite_sorts_them(tmp_path, calls):
    """_calls_in_order reads a session's calls in order of time alone and orders those of
    one time by file and line itself, or has SQLite sort them where it cannot: the same
    rows, in the same order, as FIX_CALLS_SQL."""
    conn = pdb.connect(tmp_path / "index.db")
    for n, (second, file_id, line_no) in enumerate(calls):
        conn.execute(
            "INSERT INTO tool_calls (tool_use_id, session_id, file_id, line_no, timestamp,"
            " name, command) VALUES (?, 's', ?, ?, ?, 'Bash', 'ls')",
            [f"c{n}", file_id, line_no, f"2026-01-01T00:00:{second}Z"],
        )
    want = conn.execute(pdb.FIX_CALLS_SQL, ["s", ""]).fetchall()
    assert [row[0] for row in want] != [f"c{n}" for n in range(len(calls))]
    assert pdb._calls_in_order(conn, "s", "") == want


def test_a_fix_rule_that_fails_on_a_session_loses_nothing(
    db_path, projects, monkeypatch, capsys, processes
):
    """A bug of the fix rules on some session's commands (an IndexError on a real
    transcript failed the whole build, and a fresh one kept nothing): the build finishes,
    every row is kept and found, that session's failures have no fix, and stderr says so."""
    small_session(projects)
    real = fixes.session_fixes

    def failing(calls, *args):
        if calls:
            raise IndexError("tuple index out of range")
        return real(calls, *args)

    monkeypatch.setattr(fixes, "session_fixes", failing)
    stats = build_index(db_path, projects)
    assert stats.failed_tool_results == 1
    assert len(error_hits(db_path, "ENOENT")) == 1
    assert query(db_path, "SELECT count(*) FROM fixes") == [(0,)]
    err = capsys.readouterr().err
    assert f"the fix rules failed on session {SID} (IndexError" in err
    monkeypatch.setattr(fixes, "session_fixes", real)
    build_index(db_path, projects, force=True)
    assert query(db_path, "SELECT count(*) FROM fixes") == [(1,)]


def test_an_edit_an_earlier_edit_had_made_is_already_done(db_path, projects, tmp_path):
    """An Edit whose text was not found because a replace_all had already made its change:
    `already done`, no fix claimed, and `pastfix find` says why."""
    edit = {"file_path": "/home/dev/app/a.py", "old_string": "foo()", "new_string": "bar()"}
    path = projects / "-home-dev-app" / f"{SID}.jsonl"
    write_jsonl(
        path,
        [
            prompt("u1", SID, "rename foo to bar", "2026-01-01T10:00:00Z"),
            tool_use(
                "a1", SID, "t1", "Edit", {**edit, "replace_all": True}, "2026-01-01T10:00:01Z"
            ),
            result("r1", SID, "t1", "The file has been updated.", "2026-01-01T10:00:02Z"),
            tool_use("a2", SID, "t2", "Edit", edit, "2026-01-01T10:00:03Z"),
            result(
                "r2",
                SID,
                "t2",
                "<tool_use_error>String to replace not found in file.\n"
                "String: foo()</tool_use_error>",
                "2026-01-01T10:00:04Z",
                is_error=True,
            ),
            tool_use(
                "a3",
                SID,
                "t3",
                "Edit",
                {**edit, "old_string": "baz", "new_string": "qux"},
                "2026-01-01T10:00:05Z",
            ),
            result("r3", SID, "t3", "The file has been updated.", "2026-01-01T10:00:06Z"),
        ],
    )
    build_index(db_path, projects)
    assert query(db_path, "SELECT tool_use_id, outcome, remedy FROM fixes") == [
        ("t2", "already done", "[]")
    ]
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "pastfix",
            "find",
            "String to replace not found in file",
            "--db",
            str(db_path),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert "an earlier edit had already written what it was to write" in found.stdout, found.stdout


def test_a_file_ending_in_an_endless_line_is_read_once(db_path, projects, monkeypatch):
    """A transcript whose last line never ends and outgrows MAX_LINE_BYTES (a sparse
    file, a dump: 3 GB of zeros took 228 s and 6 GB of memory, and was read again by
    every build): its lines before are kept, the endless one is said once, and the next
    build does not read it again."""
    monkeypatch.setattr(pbuild, "CHUNK_BYTES", 1024)
    monkeypatch.setattr(pbuild, "MAX_LINE_BYTES", 4096)
    session = [json.dumps(x) for x in failing_session(SID, 1, "ENOENT gone", "Create it")]
    path = projects / "-home-dev-app" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(("\n".join(session) + "\n").encode() + b"\0" * 20_000)
    stats = build_index(db_path, projects)
    assert stats.problems == 1
    assert query(db_path, "SELECT count(*) FROM messages") == [(len(session),)]
    ((line_no, reason),) = query(db_path, "SELECT line_no, reason FROM problems")
    assert line_no == len(session) + 1 and "a line of 20,000 bytes" in reason
    assert query(db_path, "SELECT offset FROM source_files") == [(path.stat().st_size,)]
    again = build_index(db_path, projects)
    assert again.files_read == 0 and again.bytes_read == 0
    assert query(db_path, "SELECT count(*) FROM problems") == [(1,)]


def test_bad_lines_are_recorded_and_good_lines_kept(db_path, projects, processes):
    sid = SID
    good = [json.dumps(x) for x in failing_session(sid, 1, "ENOENT gone", "Create it")]
    bad = [
        "{not json",
        '["an", "array"]',
        "// a comment line",
        json.dumps(prompt("b1", sid, "x", "2026-01-01T10:00:00Z")).replace(
            '"content": "x"', '"content": 42'
        ),
        json.dumps(result("b2", sid, "tb", "boom", "2026-01-01T10:00:00Z", True)).replace(
            '"is_error": true', '"is_error": "true"'
        ),
        json.dumps({**prompt("b3", sid, "x", "2026-01-01T10:00:00Z"), "message": "a string"}),
    ]
    path = projects / "-home-dev-app" / f"{sid}.jsonl"
    path.parent.mkdir(parents=True)
    data = "\n".join(g + "\n" + b for g, b in zip(good, bad, strict=False)) + "\n"
    data = data.encode() + b'{"type": "user", "uuid": "\xff\xfe"}\n'
    path.write_bytes(data)
    stats = build_index(db_path, projects)
    assert stats.messages == len(good)
    assert stats.problems == len(bad) + 1
    problems = query(db_path, "SELECT line_no, reason FROM problems ORDER BY line_no")
    assert [line for line, _ in problems] == [2, 4, 6, 8, 10, 12, 13]
    reasons = [reason for _, reason in problems]
    assert reasons[0].startswith("malformed JSON")
    assert reasons[1:] == [
        "JSON array, not an object",
        "comment line, not JSON",
        "message content is an int",
        "tool_result is_error is a str, not a boolean",
        "user line whose message is a str",
        "invalid UTF-8",
    ]
    assert error_hits(db_path, "ENOENT") == [(sid, f"toolu_{sid}_0")]


def test_unknown_types_are_counted_not_problems(db_path, projects):
    lines = failing_session(SID, 1, "ENOENT gone", "Create it")
    lines.insert(2, {"type": "brand-new-line-type", "sessionId": SID})
    block = {"type": "hologram", "data": 1}
    lines.insert(3, say("n1", SID, "x", "2026-01-01T10:00:00Z"))
    lines[3]["message"]["content"].append(block)
    write_jsonl(projects / "-home-dev-app" / f"{SID}.jsonl", lines)
    stats = build_index(db_path, projects)
    assert stats.problems == 0
    assert stats.skipped_lines == 2
    assert query(db_path, "SELECT skipped_lines FROM source_files") == [(2,)]


def test_empty_and_unreadable_files_are_problems(db_path, projects, processes):
    small_session(projects)
    empty = projects / "-home-dev-app" / "55555555-5555-4555-8555-555555555555.jsonl"
    empty.write_text("")
    dangling = projects / "-home-dev-app" / "66666666-6666-4666-8666-666666666666.jsonl"
    os.symlink(projects / "nowhere.jsonl", dangling)
    stats = build_index(db_path, projects)
    assert stats.problems == 2
    assert query(db_path, "SELECT path, line_no, reason FROM problems ORDER BY path") == [
        (str(empty), None, "empty file"),
        (str(dangling), None, "cannot read: No such file or directory"),
    ]
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    # Still reported, not duplicated, on the next build; gone once fixed.
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM problems") == [(2,)]
    dangling.unlink()
    write_jsonl(empty, [prompt("e1", empty.stem, "now it has a line", "2026-01-02T00:00:00Z")])
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM problems") == [(0,)]
    assert query(db_path, "SELECT title FROM sessions WHERE session_id = ?", [empty.stem]) == [
        ("now it has a line",)
    ]


def test_huge_line_is_indexed_with_head_and_tail(db_path, projects):
    big = "x" * (3 * 1024 * 1024) + "\nFATAL: the informative last line"
    write_jsonl(
        projects / "-home-dev-app" / f"{SID}.jsonl",
        [
            tool_use("a1", SID, "t1", "Bash", {"command": "make"}, "2026-01-01T10:00:00Z"),
            result("r1", SID, "t1", big, "2026-01-01T10:00:01Z", is_error=True),
            say("a2", SID, "after", "2026-01-01T10:00:02Z"),
        ],
    )
    build_index(db_path, projects)
    [(content, length)] = query(db_path, "SELECT content, content_length FROM tool_results")
    assert length == len(big)
    assert len(content) < transcripts.MAX_TEXT + 100
    assert content.startswith("xxxx") and content.endswith("FATAL: the informative last line")
    assert "characters omitted" in content
    assert error_hits(db_path, "informative") == [(SID, "t1")]
    assert query(db_path, "SELECT count(*) FROM messages") == [(3,)]


def test_image_becomes_placeholder(db_path, projects):
    content = [
        {"type": "text", "text": "screenshot taken"},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "QUJD" * 200_000},
        },
    ]
    write_jsonl(
        projects / "-home-dev-app" / f"{SID}.jsonl",
        [result("r1", SID, "t1", content, "2026-01-01T10:00:01Z")],
    )
    build_index(db_path, projects)
    assert query(db_path, "SELECT content FROM tool_results") == [
        ("screenshot taken\n[image/png 586 KB]",)
    ]


@pytest.mark.parametrize("kind", ["directory", "fifo", "not-sqlite", "foreign-sqlite"])
def test_bad_db_path_is_refused_and_untouched(tmp_path, projects, kind):
    small_session(projects)
    target = tmp_path / "target"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":  # or a device: SQLite opened it, after the lock file was made
        os.mkfifo(target)
    elif kind == "not-sqlite":
        target.write_text("my precious notes\n")
    else:
        conn = sqlite3.connect(target)
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.commit()
        conn.close()
    before = None if kind in ("directory", "fifo") else target.read_bytes()
    with pytest.raises(pdb.BuildError) as e:
        build_index(target, projects)
    assert str(target) in str(e.value)
    if kind == "fifo":
        assert str(e.value) == f"{target} is not a regular file: give the path of a database file"
    elif before is not None:
        assert target.read_bytes() == before
    if kind != "foreign-sqlite":  # told by its tables, once the build holds its lock
        assert sorted(p.name for p in tmp_path.iterdir()) == ["projects", "target"]


def test_missing_source_is_refused(db_path, tmp_path):
    with pytest.raises(pdb.BuildError, match="source directory not found"):
        build_index(db_path, tmp_path / "nope")
    assert not db_path.exists()


# -- crashes --------------------------------------------------------------------


def big_corpus(projects, sessions, rounds):
    for i in range(sessions):
        sid = f"{i:08d}-0000-4000-8000-000000000000"
        write_jsonl(
            projects / f"-home-dev-p{i % 5}" / f"{sid}.jsonl",
            failing_session(sid, rounds, f"ENOENT file{i} missing " + "z" * 2000, "Create it"),
        )


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.35, 0.6, 0.9])
def test_kill_during_build_then_rebuild_converges(tmp_path, delay):
    # ~32 MB: a build takes about a second here, so the kills land mid-build.
    projects = tmp_path / "projects"
    big_corpus(projects, 80, 60)
    db_path = tmp_path / "index.db"
    # Half the corpus is indexed first, so the kill can also land in an incremental build.
    later = projects / "-home-dev-p4"
    parked = tmp_path / "parked"
    shutil.move(later, parked)
    build_index(db_path, projects)
    shutil.move(parked, later)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for target, force in ((db_path, False), (tmp_path / "fresh-killed.db", False), (db_path, True)):
        args = [
            sys.executable,
            "-m",
            "pastfix",
            "build",
            str(target),
            "--source",
            str(projects),
            "-s",
        ] + (["--force"] if force else [])
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if target.exists():
            conn = sqlite3.connect(target)
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            conn.close()
        build_index(target, projects)
    clean = tmp_path / "clean.db"
    build_index(clean, projects)
    expected = snapshot(clean)
    assert snapshot(db_path) == expected
    assert snapshot(tmp_path / "fresh-killed.db") == expected


def test_duplicated_lines_of_a_resumed_session_converge(tmp_path, projects, processes):
    """A resumed session repeats lines of another file: the first file in path order owns them."""
    original = failing_session(SID, 3, "TypeError: x is undefined", "Guard x")
    resumed = [{**line, "sessionId": SID2} for line in original[:8]]
    resumed += failing_session(SID2, 2, "ENOENT: no such file", "Create it")
    a = projects / "-home-dev-a" / f"{SID}.jsonl"
    b = projects / "-home-dev-b" / f"{SID2}.jsonl"
    write_jsonl(b, resumed)
    incremental = tmp_path / "incremental.db"
    build_index(incremental, projects)
    write_jsonl(a, original)  # appears later, but sorts first
    stats = build_index(incremental, projects)
    # 8 messages, 3 tool calls and 3 results of b were already indexed from a
    assert (stats.files_read, stats.duplicates) == (1, 14)
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    assert snapshot(incremental) == snapshot(fresh)
    assert query(incremental, "SELECT session_id FROM messages WHERE uuid = ?", [f"{SID}-u0"]) == [
        (SID,)
    ]
    a.unlink()
    build_index(incremental, projects)
    # a's rows are kept, and still own the ids b repeats
    assert query(incremental, "SELECT session_id FROM messages WHERE uuid = ?", [f"{SID}-u0"]) == [
        (SID,)
    ]
    assert query(incremental, "SELECT count(*) FROM messages") == query(
        fresh, "SELECT count(*) FROM messages"
    )
    # forgotten, they go to b, whose copies the next build reads again
    forget.forget(incremental, missing=True)
    build_index(incremental, projects)
    fresh2 = tmp_path / "fresh2.db"
    build_index(fresh2, projects)
    assert snapshot(incremental) == snapshot(fresh2)
    assert query(incremental, "SELECT session_id FROM messages WHERE uuid = ?", [f"{SID}-u0"]) == [
        (SID2,)
    ]


def test_summary_titles_its_leaf_session(db_path, tmp_path, processes):
    """A 1.0.x summary on line 1 names the earlier session whose message is its leafUuid."""
    from conftest import FIXTURES

    projects = tmp_path / "projects"
    shutil.copytree(FIXTURES / "projects" / "-home-dev-todo", projects / "-home-dev-todo")
    init, later = sorted((projects / "-home-dev-todo").glob("*.jsonl"))
    summary = json.loads(later.read_text().splitlines()[0])
    build_index(db_path, projects)
    titles = dict(query(db_path, "SELECT session_id, title FROM sessions"))
    assert titles[init.stem] == summary["summary"]
    assert titles[later.stem] != summary["summary"]
    # Incrementally: the summary's file arrives after the session it names, then goes.
    incremental = tmp_path / "incremental.db"
    later.rename(tmp_path / later.name)
    build_index(incremental, projects)
    assert query(incremental, "SELECT title FROM sessions") != [(summary["summary"],)]
    (tmp_path / later.name).rename(later)
    build_index(incremental, projects)
    assert snapshot(incremental) == snapshot(db_path)
    later.unlink()
    build_index(incremental, projects)
    # kept with its transcript gone, the summary still titles the session it names
    titles = dict(query(incremental, "SELECT session_id, title FROM sessions"))
    assert titles[init.stem] == summary["summary"]
    forget.forget(incremental, [later.stem])
    assert (
        dict(query(incremental, "SELECT session_id, title FROM sessions"))[init.stem]
        != (summary["summary"])
    )


@pytest.mark.parametrize("per_session", [0, 1000], ids=["by-messages", "by-summaries"])
def test_sessions_gather_files_and_summaries_as_each_session_would(
    tmp_path, monkeypatch, per_session
):
    """refresh_sessions gathers the touched sessions' files and the summaries naming their
    messages once (_touched_files, _touched_summaries; the summaries from every message of
    those sessions, or from every summary), where each session's row read them itself (a
    third of a fresh build's sessions refresh, twice more for the files): the title and the
    time its transcript was found deleted are what each session's own subqueries say,
    title_sql and deleted_sql as a migration runs them."""
    monkeypatch.setattr(pdb, "SUMMARIES_FIRST_PER_SESSION", per_session)
    projects = tmp_path / "projects"
    shutil.copytree(FIXTURES / "projects" / "-home-dev-todo", projects / "-home-dev-todo")
    init, later = sorted((projects / "-home-dev-todo").glob("*.jsonl"))
    summary = json.loads(later.read_text().splitlines()[0])["summary"]
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    init.unlink()  # its rows kept, its session's transcript found deleted
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    conn.create_function("typed_title", 2, pdb.agents.typed_title)
    conn.create_function("prompt_title", 2, pdb.agents.prompt_title)
    own = conn.execute(
        f"SELECT session_id, {pdb.title_sql('s.session_id')},"
        f" {pdb.deleted_sql('s.session_id')} FROM sessions s ORDER BY 1"
    ).fetchall()
    stored = conn.execute(
        "SELECT session_id, title, transcript_deleted_at FROM sessions ORDER BY 1"
    ).fetchall()
    assert stored == own
    rows = {sid: (title, gone) for sid, title, gone in stored}
    assert rows[init.stem][0] == summary and rows[init.stem][1] is not None
    assert rows[later.stem][0] != summary and rows[later.stem][1] is None


def test_duplicate_repair_is_limited_to_the_linked_files(tmp_path, projects, processes):
    """A change elsewhere does not re-read the files that share ids."""
    original = failing_session(SID, 3, "TypeError: x is undefined", "Guard x")
    resumed = [{**line, "sessionId": SID2} for line in original[:8]]
    write_jsonl(projects / "-home-dev-a" / f"{SID}.jsonl", original)
    write_jsonl(projects / "-home-dev-b" / f"{SID2}.jsonl", resumed)
    other = "33333333-3333-4333-8333-333333333333"
    other_path = write_jsonl(
        projects / "-home-dev-c" / f"{other}.jsonl",
        failing_session(other, 1, "EISDIR", "Use a file"),
    )
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM _duplicate_links") == [(2,)]

    parsed = []

    class CountingReader:
        iter_source_files = staticmethod(transcripts.iter_source_files)

        @staticmethod
        def parse_lines(data, *, first_line_no, default_session_id):
            parsed.append(default_session_id)
            return transcripts.parse_lines(
                data, first_line_no=first_line_no, default_session_id=default_session_id
            )

    write_jsonl(other_path, failing_session(other, 2, "EISDIR", "Use a file")[6:], "a")
    build_index(db_path, projects, reader=CountingReader)
    assert parsed == [other]
    parsed.clear()
    write_jsonl(
        projects / "-home-dev-b" / f"{SID2}.jsonl",
        failing_session(SID2, 1, "ENOENT", "Create it"),
        "a",
    )
    build_index(db_path, projects, reader=CountingReader)
    assert sorted(parsed) == sorted([SID2, SID, SID2])  # the change, then the group
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    assert snapshot(db_path) == snapshot(fresh)


def test_build_after_an_interrupted_one_refreshes_the_error_index(db_path, projects):
    """A build killed between its file commits and its final refresh leaves a marker."""
    small_session(projects)
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    with conn:  # the state right after the file commits of an interrupted build
        conn.execute("INSERT INTO tool_errors_fts(tool_errors_fts) VALUES('delete-all')")
        conn.execute("INSERT OR REPLACE INTO _build_state VALUES ('stale', '1')")
    conn.close()
    assert error_hits(db_path, "ENOENT") == []
    stats = build_index(db_path, projects)
    assert stats.files_read == 0
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    assert query(db_path, "SELECT name FROM _build_state ORDER BY 1") == [
        ("fix_version",),
        ("last_build",),
        ("redact",),
        ("redaction_version",),
        ("signature_version",),
        ("sources",),
    ]


def test_a_reader_can_stay_open_while_builds_write(db_path, projects):
    """WAL: Datasette keeps reading while an incremental or forced build writes."""
    path = small_session(projects)
    build_index(db_path, projects)
    reader = sqlite3.connect(db_path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM messages").fetchone() == (6,)
    write_jsonl(path, [say("a4", SID, "one more", "2026-01-01T10:00:06Z")], "a")
    assert build_index(db_path, projects).messages == 1
    assert build_index(db_path, projects, force=True).messages == 7
    assert reader.execute("SELECT count(*) FROM messages").fetchone() == (6,)  # its snapshot
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM messages").fetchone() == (7,)
    reader.close()


def test_a_failing_helper_process_loses_nothing(tmp_path, projects, monkeypatch):
    corpus_v1(projects)
    expected = tmp_path / "expected.db"
    build_index(expected, projects)

    def broken(*args):
        raise OSError("disk on fire")

    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(pshard, "_run_shard", broken)
    db_path = tmp_path / "index.db"
    stats = build_index(db_path, projects)
    assert stats.processes == 1  # the builder did the helper's share itself
    assert snapshot(db_path) == snapshot(expected)


@pytest.mark.parametrize("when", ["reading", "starting the helper"])
def test_a_builder_that_fails_leaves_no_helper_nor_side_file(tmp_path, projects, monkeypatch, when):
    """A full disk under a two-process build: the error, and the space back at once (the
    helper's side file held 6.5 MB of an 8 MB tmpfs until the next build)."""
    corpus_v1(projects)
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    builder = os.getpid()
    children = []
    real_fork, real_index, real_connect = os.fork, pbuild.Builder._index_file, sqlite3.connect

    def fork():
        pid = real_fork()
        children.append(pid)
        return pid

    def index_file(self, *args, **kwargs):
        if os.getpid() == builder:  # the helper goes on with its share
            raise sqlite3.OperationalError("database or disk is full")
        return real_index(self, *args, **kwargs)

    def connect(path, *args, **kwargs):
        if str(path).endswith(".sessions"):  # its rows file is made by then
            raise sqlite3.OperationalError("database or disk is full")
        return real_connect(path, *args, **kwargs)

    monkeypatch.setattr(os, "fork", fork)
    if when == "reading":
        monkeypatch.setattr(pbuild.Builder, "_index_file", index_file)
    else:
        monkeypatch.setattr(pdb.sqlite3, "connect", connect)
    db_path = tmp_path / "index.db"
    with pytest.raises(pdb.BuildError, match="database or disk is full"):
        build_index(db_path, projects)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("index.db")) == [
        "index.db",
        "index.db.lock",
    ]
    for pid in children:  # reaped already
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert len(children) == (1 if when == "reading" else 0)  # a helper ran, or none began


@pytest.mark.parametrize("how", ["raises", "dies"])
def test_a_helper_that_fails_after_its_rows_loses_nothing(tmp_path, projects, monkeypatch, how):
    """The helper commits its rows, then computes its sessions and fixes while the builder
    copies them (see pastfix.shard.Shard): failing there, it leaves them to the builder."""
    corpus_v1(projects)
    expected = tmp_path / "expected.db"
    build_index(expected, projects)
    builder = os.getpid()
    real = pshard.refresh_sessions

    def failing_in_the_helper(conn, session_ids):
        if os.getpid() != builder:
            if how == "dies":
                os._exit(3)
            raise OSError("disk on fire")
        return real(conn, session_ids)

    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(pshard, "refresh_sessions", failing_in_the_helper)
    db_path = tmp_path / "index.db"
    stats = build_index(db_path, projects)
    assert stats.processes == 2  # its rows were kept
    assert snapshot(db_path) == snapshot(expected)
    assert query(db_path, "SELECT * FROM fixes ORDER BY 1") == query(
        expected, "SELECT * FROM fixes ORDER BY 1"
    )
    assert list(tmp_path.glob("index.db.part-*")) == []


# -- signatures and kinds ------------------------------------------------------------


def signature_rows(path):
    return query(path, "SELECT tool_use_id, is_error, signature, kind FROM tool_results ORDER BY 1")


def test_failures_get_a_signature_and_kind(db_path, projects, processes):
    error = "Exit code 1\nError: ENOENT: no such file or directory, open '/home/dev/app/a.txt'"
    small_session(projects, error=error)
    build_index(db_path, projects)
    assert signature_rows(db_path) == [
        ("t1", 1, signatures.signature(error), "error"),
        ("t2", 0, None, None),
    ]
    assert signatures.signature(error).startswith("Error: ENOENT: no such file or directory")


def test_signatures_are_recomputed_when_the_rules_change(db_path, projects, monkeypatch):
    small_session(projects)
    build_index(db_path, projects)
    before = signature_rows(db_path)
    with sqlite3.connect(db_path) as conn:  # made by the rules before these
        conn.execute(
            "UPDATE _build_state SET value = ? WHERE name = 'signature_version'",
            [str(pdb.SIGNATURE_VERSION - 1)],
        )
    conn.close()
    monkeypatch.setattr(signatures, "signature", lambda text: "new " + text[:6])
    monkeypatch.setattr(signatures, "classify", lambda text: "timeout")
    stats = build_index(db_path, projects)
    assert stats.files_read == 0
    assert signature_rows(db_path) == [("t1", 1, "new ENOENT", "timeout"), ("t2", 0, None, None)]
    assert before != signature_rows(db_path)
    # The next build finds them current: nothing to redo.
    monkeypatch.setattr(signatures, "signature", lambda text: "newer")
    build_index(db_path, projects)
    assert signature_rows(db_path)[0][2] == "new ENOENT"


def test_an_index_from_before_signatures_gets_them(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE tool_results SET signature = NULL, kind = NULL")
    conn.execute("DELETE FROM _build_state")
    conn.commit()
    conn.close()
    build_index(db_path, projects)
    error = "ENOENT: no such file or directory, open 'a.txt'"
    assert signature_rows(db_path)[0] == ("t1", 1, signatures.signature(error), "error")


# Made-up secrets of every kind the build redacts, and look-alikes it keeps.
PLANTED = {
    "anthropic-key": "sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ-sT2uV5xW8yA1bE4cG7hJ0kM3",
    "openai-key": "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4",
    "github-token": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    "gitlab-token": "glpat-Xy7Zq2Wv9Ut4Rs1Pq8No",
    "slack-token": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "stripe-key": "sk_live_51HqLyjWDarjtT1zdp7dcXaBcDeFgHiJk",
    "aws-access-key-id": "AKIAZ7Q3XW5N2R8T4LMP",
    "aws-secret-key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Qk3v9Zx8",
    "google-api-key": "AIzaSyD3kF8mN2pQ7rT9vX1zB4cE6gH0jL5nP8s",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3",
    "bearer-token": "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
    "url-password": "Tr0ub4dorPw",
    "password": "hunter2hunter2",
    "private-key": "MIIEowIBAAKCAQEAq7Bz3Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn",
}
LOOK_ALIKES = [
    "4f0509c1a2b3c4d5e6f708192a3b4c5d6e7f8091",  # git SHA
    "9d7c2b1a-3e4f-4a5b-8c6d-7e8f9a0b1c2d",  # UUID
    "sha512-Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu6Yy5Tt4Rr3Ee2Ww1Qq0==",  # lockfile
    "/home/dev/app/src/auth/token_store.py",
    "password=<your-password>",
    "the refresh token expired",
]


def secrets_session(projects, sid=SID):
    s = PLANTED
    env = (
        f"ANTHROPIC_API_KEY={s['anthropic-key']}\nOPENAI_API_KEY={s['openai-key']}\n"
        f"GITLAB={s['gitlab-token']}\nSLACK={s['slack-token']}\nSTRIPE={s['stripe-key']}\n"
        f"AWS_ACCESS_KEY_ID={s['aws-access-key-id']}\n"
        f"aws_secret_access_key={s['aws-secret-key']}\nGOOGLE={s['google-api-key']}\n"
        f"DB_PASSWORD={s['password']}\n-----BEGIN PRIVATE KEY-----\n{s['private-key']}\n"
        "-----END PRIVATE KEY-----\n" + "\n".join(LOOK_ALIKES)
    )
    path = projects / "-home-dev-app" / f"{sid}.jsonl"
    return write_jsonl(
        path,
        [
            prompt("u1", sid, f"my token is {s['github-token']}, fix auth", "2026-01-01T10:00:00Z"),
            tool_use(
                "a1",
                sid,
                "t1",
                "Bash",
                {"command": f"curl -H 'Authorization: Bearer {s['bearer-token']}' x.io"},
                "2026-01-01T10:00:01Z",
            ),
            result("r1", sid, "t1", "401 " + env, "2026-01-01T10:00:02Z", is_error=True),
            tool_use(
                "a2",
                sid,
                "t2",
                "Write",
                {"file_path": "/home/dev/app/.env", "content": env},
                "2026-01-01T10:00:03Z",
            ),
            result("r2", sid, "t2", f"jwt {s['jwt']}", "2026-01-01T10:00:04Z", is_error=False),
            say(
                "a3",
                sid,
                f"Use postgres://app:{s['url-password']}@db/app. " + " ".join(LOOK_ALIKES),
                "2026-01-01T10:00:05Z",
            ),
            {
                "type": "custom-title",
                "customTitle": f"rotate {s['github-token']}",
                "sessionId": sid,
            },
            f'{{"broken": "{s["openai-key"]}"',
        ],
    )


def raw_bytes(db_path):
    """The index as stored: the database file and whatever WAL or journal is beside it."""
    data = b""
    for suffix in ("", "-wal", "-journal"):
        path = f"{db_path}{suffix}"
        if os.path.exists(path):
            with open(path, "rb") as f:
                data += f.read()
    return data


def test_planted_secrets_are_not_in_the_database_file(db_path, projects, processes):
    secrets_session(projects)
    stats = build_index(db_path, projects)
    data = raw_bytes(db_path)
    leaked = [kind for kind, secret in PLANTED.items() if secret.encode() in data]
    assert leaked == []
    kept = [text for text in LOOK_ALIKES if text.encode() not in data]
    assert kept == []
    assert stats.redactions == 27 and stats.redact
    # the tool call's input is still JSON, markers in place
    (raw,) = query(db_path, "SELECT input FROM tool_calls WHERE tool_use_id = 't2'")[0]
    assert "DB_PASSWORD=[REDACTED:password]" in json.loads(raw)["content"]
    assert query(db_path, "SELECT title FROM sessions") == [("rotate [REDACTED:github-token]",)]
    assert error_hits(db_path, "REDACTED") == [(SID, "t1")]
    assert error_hits(db_path, "hunter2hunter2") == []


def test_redactions_table_says_where_and_what(db_path, projects, processes):
    secrets_session(projects)
    build_index(db_path, projects)
    rows = query(
        db_path,
        "SELECT table_name, row_key, line_no, column_name, kind, count FROM redactions"
        " ORDER BY line_no, column_name, kind",
    )
    per_kind = sorted(
        ["anthropic-key", "openai-key", "gitlab-token", "slack-token", "stripe-key"]
        + ["aws-access-key-id", "aws-secret-key", "google-api-key", "password", "private-key"]
    )
    assert rows == [
        ("messages", "u1", 1, "text", "github-token", 1),
        ("tool_calls", "t1", 2, "command", "bearer-token", 1),
        ("tool_calls", "t1", 2, "input", "bearer-token", 1),
        *[("tool_results", "t1", 3, "content", kind, 1) for kind in per_kind],
        *[("tool_calls", "t2", 4, "input", kind, 1) for kind in per_kind],
        ("tool_results", "t2", 5, "content", "jwt", 1),
        ("messages", "a3", 6, "text", "url-password", 1),
        ("session_meta", SID, 7, "value", "github-token", 1),
        ("problems", None, 8, "excerpt", "openai-key", 1),
    ]
    assert not any(secret in repr(rows) for secret in PLANTED.values())


def test_turning_redaction_off_and_on_restores_and_redacts(db_path, projects):
    secrets_session(projects)
    build_index(db_path, projects)
    off = build_index(db_path, projects, redact=False)
    assert (off.mode, off.redact, off.redact_changed, off.files_read) == ("forced", False, True, 1)
    data = raw_bytes(db_path)
    assert all(secret.encode() in data for secret in PLANTED.values())
    assert query(db_path, "SELECT count(*) FROM redactions") == [(0,)]
    assert query(db_path, "SELECT title FROM sessions") == [(f"rotate {PLANTED['github-token']}",)]
    # the same setting again: nothing to do
    again = build_index(db_path, projects, redact=False)
    assert (again.mode, again.files_read, again.redact_changed) == ("incremental", 0, False)
    on = build_index(db_path, projects)
    assert (on.mode, on.redact_changed, on.files_read, on.redactions) == ("forced", True, 1, 27)
    data = raw_bytes(db_path)
    assert [kind for kind, secret in PLANTED.items() if secret.encode() in data] == []


def test_redactions_go_with_their_file(db_path, projects):
    path = secrets_session(projects)
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM redactions") == [(27,)]
    by_file = "SELECT f.path, count(*) FROM redactions r JOIN source_files f ON f.id = r.file_id"
    by_file += " GROUP BY 1 ORDER BY 1"
    small_session(projects)  # the same session id, another file: rewrite this one
    write_jsonl(path, [prompt("u9", SID, "no secret here", "2026-01-02T10:00:00Z")])
    build_index(db_path, projects)
    # the rows the rewrite cut are kept, and the records of their secrets with them; the
    # record of a bad line's excerpt goes with the problem, which described the old file
    assert query(db_path, by_file) == [(f"{path}#{SID}", 26)]
    secrets_session(projects, SID2)
    build_index(db_path, projects)
    assert query(db_path, by_file) == [(f"{path}#{SID}", 26), (f"{path.parent}/{SID2}.jsonl", 27)]
    path.unlink()
    (projects / "-home-dev-app" / f"{SID2}.jsonl").unlink()
    build_index(db_path, projects)
    assert query(db_path, "SELECT count(*) FROM redactions") == [(53,)]  # kept, archived
    forget.forget(db_path, missing=True)
    assert query(db_path, "SELECT count(*) FROM redactions") == [(0,)]


# -- faults (issue 10): nothing lost, nothing duplicated, no traceback, no hang ------------


def grown_session(projects, rounds=10):
    """A session file over HEAD_BYTES, indexed once; returns its path."""
    path = projects / "-home-dev-app" / f"{SID}.jsonl"
    write_jsonl(path, failing_session(SID, rounds, "ENOENT: no such file", "Create it"))
    return path


def refuse_to_open(monkeypatch, path):
    """The build's os.open refuses `path` as a file without read permission would; gives
    the real os.open, to put back."""
    real_open = os.open

    def failing_open(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(pbuild.os, "open", failing_open)
    return real_open


def test_a_failed_read_changes_nothing_and_the_next_build_converges(db_path, projects, monkeypatch):
    path = grown_session(projects)
    build_index(db_path, projects)
    before = query(db_path, "SELECT count(*) FROM messages")
    write_jsonl(path, [say("late", SID, "one more line", "2026-01-02T00:00:00Z")], "a")
    real_open = refuse_to_open(monkeypatch, path)
    stats = build_index(db_path, projects)
    assert stats.problem_examples == [f"{path}: cannot read: Permission denied"]
    assert query(db_path, "SELECT count(*) FROM messages") == before
    monkeypatch.setattr(pbuild.os, "open", real_open)
    build_index(db_path, projects)
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_a_forced_build_keeps_the_rows_of_a_file_it_cannot_open(db_path, projects, monkeypatch):
    """A forced build clears what it reads again before reading it: a file that no longer
    opens (its read permission taken away) kept nothing. Now it keeps its rows, is told,
    and the next forced build that can open it reads it as a fresh build would."""
    path = grown_session(projects)
    other = projects / "-home-dev-app" / "other.jsonl"
    write_jsonl(other, failing_session("other", 2, "EPERM: not allowed", "Fix it"))
    build_index(db_path, projects)
    before = snapshot(db_path)
    real_open = refuse_to_open(monkeypatch, path)
    stats = build_index(db_path, projects, force=True)
    assert stats.problem_examples == [f"{path}: cannot read: Permission denied; its rows are kept"]
    assert error_hits(db_path, "ENOENT") and error_hits(db_path, "EPERM")
    after = snapshot(db_path)
    assert {k: v for k, v in after.items() if k != "problems"} == {
        k: v for k, v in before.items() if k != "problems"
    }
    monkeypatch.setattr(pbuild.os, "open", real_open)
    build_index(db_path, projects, force=True)
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_a_fresh_build_keeps_nothing_of_a_file_whose_read_fails_halfway(
    db_path, projects, monkeypatch, processes
):
    """A new index has no savepoint per file (Builder._delete_file_rows): what a file
    stored before its read failed is deleted, and the index, ids included, is the one
    built without that file."""
    grown = grown_session(projects)
    other = projects / "-home-dev-app" / "other.jsonl"
    write_jsonl(other, failing_session("other", 2, "EPERM: not allowed", "Fix it"))
    monkeypatch.setattr(pbuild, "CHUNK_BYTES", 2048)  # the file is read in several runs
    real_parse = transcripts.parse_lines
    runs = 0

    def failing_parse(data, *args, default_session_id=None, **kwargs):
        nonlocal runs
        if default_session_id == SID:
            runs += 1
            if runs == 3:
                raise OSError(5, "Input/output error")
        return real_parse(data, *args, default_session_id=default_session_id, **kwargs)

    monkeypatch.setattr(transcripts, "parse_lines", failing_parse)
    stats = build_index(db_path, projects)
    assert stats.problem_examples == [f"{grown}: cannot read: Input/output error"]
    monkeypatch.undo()
    grown.unlink()
    without = db_path.with_name("without.db")
    build_index(without, projects)
    assert {k: v for k, v in snapshot(db_path).items() if k != "problems"} == {
        k: v for k, v in snapshot(without).items() if k != "problems"
    }
    ids = "SELECT id, uuid FROM messages UNION ALL SELECT id, tool_use_id FROM tool_results"
    assert query(db_path, ids) == query(without, ids)
    assert query(db_path, "SELECT id, path FROM source_files") == query(
        without, "SELECT id, path FROM source_files"
    )


@pytest.mark.parametrize("which", ["first", "last"])
@pytest.mark.parametrize("how", ["read", "parse", "not OSError"])
def test_a_forced_build_keeps_the_rows_of_a_file_whose_read_fails_halfway(
    db_path, projects, monkeypatch, processes, how, which
):
    """A forced build cleared every file it reads again before reading it: one that
    opened, then failed part-way (EIO from the disk, a reader giving up), lost its rows.
    Now they stay as they were, and the file is told, as one that cannot open is.
    (The last file in path order is the helper's, with two processes.)"""
    grown = grown_session(projects)
    other = projects / "-home-dev-app" / "other.jsonl"
    write_jsonl(other, failing_session("other", 2, "EPERM: not allowed", "Fix it"))
    path, sid = (grown, SID) if which == "first" else (other, "other")
    build_index(db_path, projects)
    before = snapshot(db_path)
    if how == "read":
        real_open = pbuild._open_regular

        class Failing:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def read(self, *args):
                raise OSError(5, "Input/output error")

            def __getattr__(self, name):
                return getattr(self.f, name)

        def failing_open(name):
            f = real_open(name)
            return Failing(f) if str(name) == str(path) else f

        monkeypatch.setattr(pbuild, "_open_regular", failing_open)
    else:
        real_parse = transcripts.parse_lines

        def failing_parse(data, *args, default_session_id=None, **kwargs):
            if default_session_id == sid:
                raise OSError(5, "Input/output error") if how == "parse" else ValueError("bad")
            return real_parse(data, *args, default_session_id=default_session_id, **kwargs)

        monkeypatch.setattr(transcripts, "parse_lines", failing_parse)
    stats = build_index(db_path, projects, force=True)
    reason = "Input/output error" if how != "not OSError" else "ValueError: bad"
    assert stats.problem_examples == [f"{path}: cannot read: {reason}; its rows are kept"]
    assert query(db_path, "SELECT path, reason FROM problems WHERE file_id IS NULL") == [
        (str(path), f"cannot read: {reason}; its rows are kept")
    ]
    after = snapshot(db_path)
    assert {k: v for k, v in after.items() if k != "problems"} == {
        k: v for k, v in before.items() if k != "problems"
    }
    monkeypatch.undo()
    build_index(db_path, projects, force=True)
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


@pytest.mark.parametrize("change", ["truncated", "rewritten shorter", "replaced"])
def test_a_file_changed_after_a_forced_build_planned_keeps_its_rows(
    db_path, projects, monkeypatch, processes, change
):
    """A forced build decides from its plan which files to set aside, then clears the
    rest before reading them: a transcript cut short after planning (Claude Code rewriting
    it, an editor) was read as it is then, and every row it no longer held was lost (654
    messages of a real session). It is told and keeps its rows, for the next build to read
    as the rewrite it is; one that only grew meanwhile (a live session) is read as usual."""
    grown = grown_session(projects)
    other = projects / "-home-dev-app" / "other.jsonl"
    write_jsonl(other, failing_session("other", 2, "EPERM: not allowed", "Fix it"))
    live = projects / "-home-dev-app" / "live.jsonl"
    write_jsonl(live, failing_session("live", 2, "EBUSY: busy", "Wait"))
    build_index(db_path, projects)
    before = snapshot(db_path)
    real_plan = pbuild.Builder._plan
    changed = []

    def plan_then_change(self):
        planned = real_plan(self)
        if changed:
            return planned
        changed.append(grown)
        lines = grown.read_bytes().splitlines(keepends=True)
        if change == "truncated":
            grown.write_bytes(b"")
        elif change == "rewritten shorter":
            grown.write_bytes(b"".join(lines[:3]))
        else:
            grown.unlink()
            grown.write_bytes(b"".join(lines[1:]))
        write_jsonl(live, [say("late", "live", "one more line", "2026-01-02T00:00:00Z")], "a")
        return planned

    monkeypatch.setattr(pbuild.Builder, "_plan", plan_then_change)
    stats = build_index(db_path, projects, force=True)
    told = f"{grown}: cannot read: changed since the build planned; its rows are kept"
    empty = [f"{grown}: empty file"] if change == "truncated" else []
    assert stats.problem_examples == [*empty, told]
    after = snapshot(db_path)
    for table in ("messages", "tool_results", "sessions"):
        assert set(before[table]) - set(after[table]) <= {
            row for row in before[table] if "live" in repr(row)
        }, table
    assert query(db_path, "SELECT count(*) FROM messages WHERE uuid = 'late'") == [(1,)]
    assert error_hits(db_path, "ENOENT")


@pytest.mark.parametrize("cut", ["to a few lines", "to nothing"])
def test_a_file_cut_short_while_a_forced_build_reads_it_keeps_its_rows(
    db_path, projects, monkeypatch, processes, cut
):
    """The check made on opening a stored file sees it whole; cut while it is read (a
    `truncate`, a `head -c N > file` over it), the rows cleared for its new read did not all
    come back, and nothing said so (37,000 of 65,550 messages of a 116 MB session lost)."""
    grown = grown_session(projects)
    write_jsonl(
        projects / "-home-dev-app" / "other.jsonl",
        failing_session("other", 2, "EPERM: not allowed", "Fix it"),
    )
    build_index(db_path, projects)
    before = snapshot(db_path)
    inode = grown.stat().st_ino
    keep = (
        b"".join(grown.read_bytes().splitlines(keepends=True)[:3]) if cut != "to nothing" else b""
    )
    real_runs = pbuild._runs

    def cut_then_read(f, crc):
        if os.fstat(f.fileno()).st_ino == inode and grown.stat().st_size > len(keep):
            with open(grown, "r+b") as w:  # in place, as `truncate` does
                w.truncate(len(keep))
        return real_runs(f, crc)

    monkeypatch.setattr(pbuild, "_runs", cut_then_read)
    stats = build_index(db_path, projects, force=True)
    empty = [f"{grown}: empty file"] if cut == "to nothing" else []
    told = f"{grown}: cannot read: changed since the build planned; its rows are kept"
    assert stats.problem_examples == [*empty, told]
    after = snapshot(db_path)
    for table in ("messages", "tool_calls", "tool_results", "sessions"):
        assert set(before[table]) <= set(after[table]), table
    assert error_hits(db_path, "ENOENT") and error_hits(db_path, "EPERM")


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"), ValueError("bad")])
def test_a_read_failing_halfway_through_a_rewrite_keeps_the_old_rows(
    db_path, projects, monkeypatch, error
):
    """Not an OSError either (a decode error no reader caught): the build went down with
    a traceback, every other file unread; now it is this file's problem alone."""
    path = grown_session(projects)
    build_index(db_path, projects)
    before = snapshot(db_path)
    path.write_text(path.read_text().replace("ENOENT", "EACCES"))
    real_parse = transcripts.parse_lines

    def failing_parse(*args, **kwargs):
        raise error

    monkeypatch.setattr(transcripts, "parse_lines", failing_parse)
    stats = build_index(db_path, projects)
    why = "Input/output error" if isinstance(error, OSError) else "ValueError: bad"
    assert stats.problem_examples == [f"{path}: cannot read: {why}"]
    after = snapshot(db_path)
    assert {k: v for k, v in after.items() if k != "problems"} == {
        k: v for k, v in before.items() if k != "problems"
    }
    monkeypatch.setattr(transcripts, "parse_lines", real_parse)
    build_index(db_path, projects)
    assert error_hits(db_path, "EACCES") and not error_hits(db_path, "ENOENT")


def test_an_in_place_rewrite_of_the_last_line_is_not_taken_for_an_append(db_path, projects):
    path = grown_session(projects)
    lines = path.read_text().splitlines(keepends=True)
    last = result("last", SID, "tlast", "EPIPE: broken", "2026-01-02T00:00:00Z", True)
    lines[-1] = json.dumps(last)
    path.write_text("".join(lines) + "\n")
    assert path.stat().st_size > pbuild.HEAD_BYTES
    build_index(db_path, projects)
    assert error_hits(db_path, "EPIPE") == [(SID, "tlast")]
    inode = path.stat().st_ino
    with open(path, "r+") as f:  # in place: same inode, same head, one byte longer
        f.write("".join(lines[:-1]) + lines[-1].replace('"is_error": true', '"is_error": false'))
        f.write("\n")
    assert path.stat().st_ino == inode
    build_index(db_path, projects)
    assert error_hits(db_path, "EPIPE") == []
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_a_rewrite_in_the_middle_plus_an_append_is_not_taken_for_an_append(db_path, projects):
    """The same length, far from both ends: the head and tail hashes alone matched."""
    path = grown_session(projects, rounds=40)
    build_index(db_path, projects)
    assert error_hits(db_path, "step20") == [(SID, f"toolu_{SID}_20")]
    lines = path.read_text().splitlines(keepends=True)
    middle = next(i for i, line in enumerate(lines) if f'"uuid": "{SID}-r20"' in line)
    lines[middle] = lines[middle].replace('"is_error": true', '"is_error":false')
    text = "".join(lines)
    assert len(text) == path.stat().st_size
    assert pbuild.HEAD_BYTES < text.index('"is_error":false') < len(text) - pbuild.TAIL_BYTES
    inode = path.stat().st_ino
    with open(path, "r+") as f:  # in place: same inode, head and tail
        f.write(text)
    write_jsonl(path, [say("late", SID, "one more line", "2026-01-02T00:00:00Z")], "a")
    assert path.stat().st_ino == inode
    assert build_index(db_path, projects).files_read == 1
    assert error_hits(db_path, "step20") == []
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_hostile_files_are_problems_and_the_build_goes_on(db_path, projects):
    small_session(projects)
    folder = projects / "-home-dev-app"
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    (folder / "loop.jsonl").symlink_to(folder / "loop.jsonl")
    odd = os.fsencode(str(folder)) + b"/caf\xe9.jsonl"
    with open(odd, "wb") as f:
        f.write(json.dumps(prompt("odd", SID2, "latin-1 name", "2026-01-01T00:00:00Z")).encode())
    stats = build_index(db_path, projects)
    assert query(db_path, "SELECT path, reason FROM problems ORDER BY path") == [
        (f"{folder}/caf\ufffd.jsonl", "file name is not UTF-8"),
        (f"{folder}/fifo.jsonl", "not a regular file"),
        (f"{folder}/loop.jsonl", "cannot read: Too many levels of symbolic links"),
        (f"{folder}/zero.jsonl", "not a regular file"),
    ]
    assert stats.problems == 4
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    assert build_index(db_path, projects).files_read == 0


def test_a_problem_is_said_by_the_build_that_finds_it_and_then_by_status(db_path, projects):
    """Every incremental build said the same old problems again (`empty.jsonl: empty file`,
    `fifo.jsonl: not a regular file`, the symlink loop) though nothing changed; a user
    hears of a problem once, when it is new, and `pastfix status` lists those standing."""
    from pastfix import status

    small_session(projects)
    folder = projects / "-home-dev-app"
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "loop.jsonl").symlink_to(folder / "loop.jsonl")
    (folder / "empty.jsonl").write_bytes(b"")
    said = [
        f"{folder}/empty.jsonl: empty file",
        f"{folder}/fifo.jsonl: not a regular file",
        f"{folder}/loop.jsonl: cannot read: Too many levels of symbolic links",
    ]
    stats = build_index(db_path, projects)
    assert (stats.problems, sorted(stats.problem_examples)) == (3, said)
    again = build_index(db_path, projects)
    assert (again.problems, again.problem_examples) == (0, [])
    (folder / "empty2.jsonl").write_bytes(b"")  # a new one is said, alone
    again = build_index(db_path, projects)
    assert again.problem_examples == [f"{folder}/empty2.jsonl: empty file"]
    found = status.status(db_path)
    assert (found["problems"], found["problem_examples"]) == (
        4,
        sorted([*said, again.problem_examples[0]]),
    )
    assert status.format_text(found).splitlines()[2:7] == [
        "problems:   4 files or lines skipped, or read in part (the problems table):",
        *[f"              {problem}" for problem in found["problem_examples"]],
    ]
    # a forced build reads every line again, and says every problem again
    assert build_index(db_path, projects, force=True).problems == 4


def test_a_file_that_is_no_text_is_one_problem(db_path, projects):
    """A binary file named *.jsonl gave a problem for each of its lines (14 of
    `malformed JSON: invalid character (byte 0)`); a transcript's bad lines are still told
    one by one, NUL bytes and all."""
    path = small_session(projects)
    folder = path.parent
    (folder / "image.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\n" * 7)
    (folder / "utf16.jsonl").write_bytes('{"type": "user"}\n{}\n'.encode("utf-16"))
    with open(path, "ab") as f:
        f.write(b'\x00\x00\x00\n{"type": "user", "uuid": "\xff"}\n')
    stats = build_index(db_path, projects)
    assert sorted(stats.problem_examples) == sorted(
        [
            f"{folder}/image.jsonl: not a JSONL file (it holds NUL bytes, as binary files do):"
            " 21 lines skipped",
            f"{folder}/utf16.jsonl: not a JSONL file (it holds NUL bytes, as binary files do):"
            " 2 lines skipped",
            f"{path}:{len(path.read_bytes().splitlines()) - 1}: malformed JSON: invalid character"
            " (byte 0)",
            f"{path}:{len(path.read_bytes().splitlines())}: invalid UTF-8",
        ]
    )
    assert error_hits(db_path, "ENOENT") == [(SID, "t1")]
    assert build_index(db_path, projects).problems == 0


def test_a_file_turned_into_a_fifo_after_planning_does_not_hang(db_path, projects, monkeypatch):
    path = small_session(projects)
    real_stat = os.stat
    swapped = []

    def stat_then_swap(name, *args, **kwargs):
        st = real_stat(name, *args, **kwargs)
        if str(name) == str(path) and not swapped:
            swapped.append(path)
            os.unlink(path)
            os.mkfifo(path)
        return st

    monkeypatch.setattr(pbuild.os, "stat", stat_then_swap)
    stats = build_index(db_path, projects)
    assert stats.problem_examples == [f"{path}: cannot read: not a regular file"]


def test_deeply_nested_line_in_a_build_is_a_problem(db_path, projects):
    path = small_session(projects)
    with open(path, "a") as f:
        f.write('{"type": "progress", "data": ' + "[" * 1500 + "]" * 1500 + "}\n")
    stats = build_index(db_path, projects)
    assert stats.problem_examples == [f"{path}:7: JSON nested too deeply"]
    assert stats.messages == 6


def test_a_tree_deeper_than_the_recursion_limit_is_indexed(db_path, projects):
    small_session(projects)
    deep = str(projects / "-home-dev-app")
    for _ in range(1100):
        deep += "/d"
        os.mkdir(deep)
    write_jsonl(Path(deep) / f"{SID2}.jsonl", [prompt("deep", SID2, "deep", "2026-01-01T00:00Z")])
    try:
        stats = build_index(db_path, projects)
    finally:
        os.remove(f"{deep}/{SID2}.jsonl")
        while deep != str(projects / "-home-dev-app"):
            os.rmdir(deep)
            deep = os.path.dirname(deep)
    assert (stats.files_read, stats.messages, stats.problems) == (2, 7, 0)


@pytest.mark.parametrize("how", ["repeated", "nested", "through a symlink"])
def test_a_source_given_twice_is_read_once(tmp_path, projects, how):
    small_session(projects)
    other = {
        "repeated": projects,
        "nested": projects / "-home-dev-app",
        "through a symlink": tmp_path / "link",
    }[how]
    if how == "through a symlink":
        other.symlink_to(projects)
    db_path = tmp_path / "index.db"
    stats = build_index(db_path, projects, other)
    assert (stats.files_seen, stats.messages) == (1, 6)
    build_index(db_path, other, projects)
    path = small_session(projects)
    write_jsonl(path, [say("a4", SID, "one more", "2026-01-01T10:00:06Z")], "a")
    build_index(db_path, projects, other)
    build_index(db_path, projects, other, force=True)
    clean = tmp_path / "clean.db"
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_two_incremental_builds_at_once_do_not_read_a_file_twice(db_path, projects, monkeypatch):
    path = grown_session(projects)
    with open(path, "a") as f:
        f.write(json.dumps({"type": "custom-title", "customTitle": "t", "sessionId": SID}) + "\n")
    build_index(db_path, projects)
    write_jsonl(path, [say("late", SID, "one more line", "2026-01-02T00:00:00Z")], "a")
    write_jsonl(path, ["{not json"], "a")
    real_plan = pbuild.Builder._plan
    other: list[pbuild.BuildStats] = []

    def plan_then_let_another_build_run(self):
        plans = real_plan(self)
        if not other:  # the other build plans and writes while this one waits
            other.append(pbuild.BuildStats())
            other[0] = build_index(db_path, projects)
        return plans

    monkeypatch.setattr(pbuild.Builder, "_plan", plan_then_let_another_build_run)
    stats = build_index(db_path, projects)
    assert other[0].files_read == 1
    assert stats.files_read == 0
    clean = db_path.with_name("clean.db")
    monkeypatch.setattr(pbuild.Builder, "_plan", real_plan)
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_an_unreadable_project_folder_keeps_its_sessions(db_path, projects, monkeypatch):
    small_session(projects)
    other = projects / "-home-dev-other" / f"{SID2}.jsonl"
    write_jsonl(other, [prompt("o1", SID2, "other project", "2026-01-01T00:00:00Z")])
    build_index(db_path, projects)
    before = snapshot(db_path)
    real_scandir = os.scandir

    def scandir(name):
        if str(name).endswith("-home-dev-other"):
            raise PermissionError(13, "Permission denied", str(name))
        return real_scandir(name)

    monkeypatch.setattr(transcripts.os, "scandir", scandir)
    stats = build_index(db_path, projects)
    assert stats.problem_examples == [f"{other.parent}: cannot list: Permission denied"]
    after = snapshot(db_path)
    problem = (str(other.parent), None, "cannot list: Permission denied", "", None)
    assert after.pop("problems") == [problem]
    before.pop("problems")
    assert after == before
    monkeypatch.setattr(transcripts.os, "scandir", real_scandir)
    assert build_index(db_path, projects).problems == 0


def test_a_project_folder_without_read_permission_is_a_problem_not_a_traceback(
    db_path, projects, monkeypatch
):
    """chmod 000 on a project folder: for a user other than root, listing it and stat() of
    anything in it fail. Telling the source's agent stats names in it (Gemini CLI's
    logs.json) and raised PermissionError out of the build."""
    small_session(projects)
    other = projects / "-home-dev-other" / f"{SID2}.jsonl"
    write_jsonl(other, [prompt("o1", SID2, "other project", "2026-01-01T00:00:00Z")])
    build_index(db_path, projects)
    before = snapshot(db_path)
    denied = str(other.parent)
    real_scandir, real_stat = os.scandir, os.stat

    def refuse(name):
        if str(name) == denied or str(name).startswith(denied + os.sep):
            raise PermissionError(13, "Permission denied", str(name))

    def scandir(name="."):
        refuse(name)
        return real_scandir(name)

    def stat(name, *args, **kwargs):
        refuse(name)
        return real_stat(name, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "stat", stat)
    for force in (False, True):
        stats = build_index(db_path, projects, force=force)
        assert stats.problem_examples == [f"{denied}: cannot list: Permission denied"]
        after = snapshot(db_path)
        after.pop("problems")
        assert after == {k: v for k, v in before.items() if k != "problems"}


def test_a_symlinked_project_folder_is_indexed(db_path, projects, tmp_path):
    small_session(projects)
    elsewhere = tmp_path / "elsewhere" / "-home-dev-other"
    write_jsonl(elsewhere / f"{SID2}.jsonl", [prompt("o1", SID2, "linked", "2026-01-01T00:00Z")])
    (projects / "-home-dev-other").symlink_to(elsewhere)
    stats = build_index(db_path, projects)
    assert (stats.files_read, stats.problems) == (2, 0)
    assert query(db_path, "SELECT title FROM sessions WHERE session_id = ?", [SID2]) == [
        ("linked",)
    ]


def test_demo_sessions_are_retracted_once_real_transcripts_are_indexed(db_path, projects):
    demo = build_index(db_path, transcripts.DEMO_PROJECTS)
    assert demo.files_read > 0
    small_session(projects)
    stats = build_index(db_path, projects)
    assert stats.files_removed == demo.files_read
    clean = db_path.with_name("clean.db")
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_stale_side_files_are_removed_by_every_build(db_path, projects):
    small_session(projects)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [
        db_path.with_name(f"index.db.part-{dead.pid}{s}")
        for s in ("", "-journal", ".sessions", ".sessions-journal")
    ]
    live = db_path.with_name(f"index.db.part-{os.getppid()}")
    # Not a helper's: digits that int() does not read, and no number at all.
    others = [db_path.with_name(f"index.db.part-{name}") for name in ("²", "x", "")]
    for path in (*stale, live, *others):
        path.write_bytes(b"x")
    build_index(db_path, projects)
    assert [p.exists() for p in (*stale, live, *others)] == [False] * 4 + [True] * 4


def test_a_session_spread_over_many_changed_files_is_refreshed_once_per_commit(
    db_path, projects, monkeypatch
):
    folder = projects / "-home-dev-app" / SID / "subagents"
    files = [
        write_jsonl(folder / f"agent-{i:03d}.jsonl", [prompt(f"p{i}", SID, "x", "2026-01-01T00Z")])
        for i in range(60)
    ]
    build_index(db_path, projects)
    for i, path in enumerate(files):
        write_jsonl(path, [say(f"s{i}", SID, "y", "2026-01-01T00:01Z")], "a")
    calls = []
    real = pbuild.refresh_sessions
    monkeypatch.setattr(pbuild, "refresh_sessions", lambda *a: calls.append(1) or real(*a))
    assert build_index(db_path, projects).files_read == 60
    assert len(calls) <= 2


# -- Codex rollouts beside Claude Code sessions ---------------------------------

CODEX_FIXTURES = ROOT / "tests" / "fixtures" / "codex" / "sessions"
CODEX_SID = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
CODEX_NAME = f"2026/03/01/rollout-2026-03-01T10-00-00-{CODEX_SID}.jsonl"


@pytest.fixture
def codex_sessions(tmp_path):
    folder = tmp_path / "codex" / "sessions"
    shutil.copytree(CODEX_FIXTURES, folder)
    return folder


def test_claude_and_codex_sessions_side_by_side(db_path, projects, codex_sessions, processes):
    small_session(projects)
    stats = build_index(db_path, projects, codex_sessions)
    assert (stats.files_seen, stats.files_read, stats.problems) == (2, 2, 0)
    assert query(
        db_path,
        "SELECT session_id, agent, project, title, git_branch, version, message_count,"
        " tool_call_count, tool_error_count FROM sessions ORDER BY agent",
    ) == [
        (SID, "claude", "/home/dev/app", "read the config", "main", "2.1.39", 6, 2, 1),
        (
            CODEX_SID,
            "codex",
            "/home/dev/shop",
            "Make the test suite pass",
            "fix-tests",
            "0.104.0",
            13,
            3,
            1,
        ),
    ]
    assert query(db_path, "SELECT agent, session_id FROM source_files ORDER BY agent") == [
        ("claude", SID),
        ("codex", CODEX_SID),
    ]
    assert query(
        db_path,
        "SELECT tool_use_id, name, command, file_path FROM tool_calls WHERE session_id = ?"
        " ORDER BY timestamp",
        [CODEX_SID],
    ) == [
        ("call_npmtest1", "shell", "npm test", None),
        ("call_patch1", "apply_patch", None, "package.json"),
        ("call_npmtest2", "shell", "npm test", None),
    ]
    assert query(
        db_path, "SELECT signature, kind FROM tool_results WHERE is_error = 1 ORDER BY session_id"
    ) == [
        ("npm error Missing script: <str>", "error"),
        ("ENOENT: no such file or directory, open a.txt", "error"),
    ]
    assert error_hits(db_path, '"Missing script"') == [(CODEX_SID, "call_npmtest1")]
    forced = db_path.with_name("forced.db")
    build_index(forced, projects, codex_sessions, force=True)
    assert snapshot(forced) == snapshot(db_path)


def test_codex_rollout_appends_are_read_from_the_stored_offset(db_path, tmp_path, codex_sessions):
    path = codex_sessions / CODEX_NAME
    lines = path.read_bytes().splitlines(keepends=True)
    # A session just started: only its session_meta line is written.
    path.write_bytes(lines[0])
    build_index(db_path, codex_sessions)
    assert query(db_path, "SELECT project, version, agent FROM sessions") == [
        ("/home/dev/shop", "0.104.0", "codex")
    ]
    with open(path, "ab") as f:
        f.write(b"".join(lines[1:14]))
    stats = build_index(db_path, codex_sessions)
    assert (stats.mode, stats.files_read, stats.new_lines, stats.failed_tool_results) == (
        "incremental",
        1,
        13,
        1,
    )
    with open(path, "ab") as f:
        f.write(b"".join(lines[14:]))
    stats = build_index(db_path, codex_sessions)
    assert (stats.new_lines, stats.tool_results) == (8, 2)
    assert query(db_path, "SELECT offset FROM source_files") == [(path.stat().st_size,)]
    fresh = tmp_path / "fresh.db"
    build_index(fresh, codex_sessions)
    assert snapshot(db_path) == snapshot(fresh)


def test_a_sources_agent_is_told_from_its_files(db_path, projects, codex_sessions):
    small_session(projects)
    with pytest.raises(pdb.BuildError, match="holds codex transcripts, not claude's"):
        build_index(db_path, codex_sessions, agent="claude")
    with pytest.raises(pdb.BuildError, match="holds claude transcripts, not codex's"):
        build_index(db_path, projects, agent="codex")
    # An empty folder is the named agent's; later rollouts in it are read as Codex's.
    empty = codex_sessions.parent / "later"
    empty.mkdir()
    build_index(db_path, empty, agent="codex")
    shutil.copytree(codex_sessions, empty, dirs_exist_ok=True)
    build_index(db_path, projects, empty)
    assert query(db_path, "SELECT agent, count(*) FROM sessions GROUP BY agent") == [
        ("claude", 1),
        ("codex", 1),
    ]


def test_a_build_with_nothing_to_read_does_not_load_the_rules(db_path, projects):
    """The refresh at the end of every session mostly finds nothing new: it skips compiling
    the rules of redaction, signatures and fixes (~40 ms) and the hash of a file's head and
    tail; one that reads no failure skips those of signatures and fixes. No build loads
    OpenSSL (hashlib, ~3 ms): that hash is _blake2's."""
    small_session(projects)
    build_index(db_path, projects)
    rules = ("_blake2", "pastfix.fixes", "pastfix.redact", "pastfix.signatures")
    script = (
        "import sys; from pathlib import Path; from pastfix import build;"
        f" build.build(Path({str(db_path)!r}), [Path({str(projects)!r})]);"
        f" print(*[m for m in {(*rules, 'hashlib')!r} if m in sys.modules])"
    )
    unchanged = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert unchanged.stdout.split() == [], unchanged.stderr
    small_session(projects, sid="another")
    changed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert changed.stdout.split() == list(rules), changed.stderr
    # A session that never failed: its text is redacted, no signature or fix is computed.
    write_jsonl(
        projects / "-home-dev-app" / "clean.jsonl",
        [
            prompt("u9", "clean", "rename the config", "2026-01-02T10:00:00Z"),
            say("a9", "clean", "Renamed it.", "2026-01-02T10:00:01Z"),
        ],
    )
    clean = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert clean.stdout.split() == ["_blake2", "pastfix.redact"], clean.stderr


# -- builds at once --------------------------------------------------------------


def start_build(db_path, projects, *extra):
    """`pastfix build` in its own process, its stderr kept."""
    args = [sys.executable, "-m", "pastfix", "build", str(db_path), "--source", str(projects)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [*args, "-s", *extra], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.slow
@pytest.mark.parametrize("kinds", [("fresh", "fresh"), ("incremental", "forced")])
def test_two_builds_at_once_both_succeed(tmp_path, projects, kinds):
    """The second build waits for the first instead of failing with "database is locked".

    Fresh + fresh: both start on an empty index. Incremental + forced: the
    forced build, which holds the whole index in one transaction, starts while
    the incremental one writes the files of a project new since the last build.
    """
    big_corpus(projects, 40, 40)  # ~11 MB: a fresh build takes about half a second
    db_path = tmp_path / "index.db"
    if kinds[0] == "incremental":
        later = [projects / f"-home-dev-p{i}" for i in (2, 3, 4)]
        for folder in later:
            shutil.move(folder, tmp_path / folder.name)
        build_index(db_path, projects)
        for folder in later:
            shutil.move(tmp_path / folder.name, folder)
    one = start_build(db_path, projects)
    time.sleep(0.3 if kinds[0] == "fresh" else 0.1)
    two = start_build(db_path, projects, *(("--force",) if kinds[1] == "forced" else ()))
    errors = [p.communicate(timeout=120)[1] for p in (one, two)]
    assert [one.returncode, two.returncode] == [0, 0], errors
    clean = tmp_path / "clean.db"
    build_index(clean, projects)
    assert snapshot(db_path) == snapshot(clean)


def test_a_build_waits_for_another_and_says_so(db_path, projects):
    small_session(projects)
    build_index(db_path, projects)
    with pbuild.build_lock(db_path):
        proc = start_build(db_path, projects, "--force")
        time.sleep(pbuild.WAIT_NOTICE_SECONDS + 4)
        assert proc.poll() is None  # still waiting
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"waiting for another build of {db_path} to finish" in err
    assert "Forced build: read 1 of 1 file (" in err
    # Its time is its own, not the other build's: the wait is said once, on its own. The
    # lock was held 4 s past the notice, far longer than one small file's build takes even
    # on a loaded machine; a build time that counted the wait could not be below the wait.
    summary = err.strip().splitlines()[-1]
    built, waited = re.search(
        r" in ([\d.]+)s, after waiting ([\d.]+)s for another build$", summary
    ).groups()
    assert float(built) < float(waited)
    assert err.count("waited") + err.count("waiting") == 2
    last = json.loads(
        query(db_path, "SELECT value FROM _build_state WHERE name = 'last_build'")[0][0]
    )
    assert last["seconds"] < float(waited)


def test_a_build_that_did_not_wait_says_nothing_of_waiting(db_path, projects):
    small_session(projects)
    stats = build_index(db_path, projects)
    assert stats.waited_seconds == 0 and "waiting" not in summary_line(stats)


def test_a_build_told_not_to_wait_gives_up_at_once(db_path, projects):
    import fcntl

    small_session(projects)
    with open(pbuild.lock_path(db_path), "w") as other:  # as another process's build holds it
        fcntl.flock(other, fcntl.LOCK_EX)
        started = time.perf_counter()
        with pytest.raises(pbuild.BuildBusy, match="another build of .* is running"):
            build_index(db_path, projects, wait=False)
        assert time.perf_counter() - started < 1
        fcntl.flock(other, fcntl.LOCK_UN)
    with pbuild.build_lock(db_path, wait=False):
        # A build inside its own thread's lock goes on (the hook's refresh takes it first).
        assert build_index(db_path, projects, wait=False).files_read == 1
    assert build_index(db_path, projects, wait=False).files_read == 0


def test_a_build_where_the_lock_cannot_be_created_is_a_one_line_error(tmp_path, projects):
    """Naming the folder, not the lock file the user never asked for."""
    small_session(projects)
    db_path = tmp_path / "missing" / "index.db"
    with pytest.raises(pdb.BuildError) as raised:
        build_index(db_path, projects)
    assert str(raised.value) == f"no folder {tmp_path / 'missing'} to put {db_path} in"


@pytest.mark.parametrize("target_exists", [True, False])
def test_a_lock_file_that_is_a_link_is_never_followed(tmp_path, projects, target_exists):
    """Whoever can write the index's folder (a shared one, /tmp) could link its lock file to
    another of the user's files, which a build wrote and forget truncated, or made through a
    dangling link (a security test, session 29): the build refuses, in one line."""
    small_session(projects)
    db_path = tmp_path / "index.db"
    victim = tmp_path / "notes.txt"
    if target_exists:
        victim.write_text("keep me")
    Path(f"{db_path}.lock").symlink_to(victim)
    with pytest.raises(pdb.BuildError) as raised:
        build_index(db_path, projects)
    assert "is a symbolic link" in str(raised.value)
    if target_exists:
        assert victim.read_text() == "keep me"
    else:
        assert not victim.exists()


def test_a_lock_file_that_is_no_regular_file_or_says_nonsense_is_no_build_s(tmp_path):
    """Whoever can write the index's folder could make its lock a FIFO, which `status`
    waited on for ever, or a held lock's note JSON nested 100,000 deep, or sources without
    their agent, each a traceback (a security test, session 31)."""
    import threading

    from pastfix import paths, status

    db_path = tmp_path / "index.db"
    os.mkfifo(f"{db_path}.lock")
    answers: list[object] = []
    asker = threading.Thread(target=lambda: answers.append(paths.running_build(db_path)))
    asker.daemon = True
    asker.start()
    asker.join(timeout=10)
    assert answers == [None]
    os.unlink(f"{db_path}.lock")
    Path(f"{db_path}.lock").write_text("[" * 100_000)
    with open(f"{db_path}.lock", "rb") as held:
        import fcntl

        fcntl.flock(held, fcntl.LOCK_EX)
        other = os.open(f"{db_path}.lock", os.O_RDONLY)
        try:
            assert paths._said(other) == {}
        finally:
            os.close(other)
    assert status._sources([{"path": "/x"}, {"path": "/y", "agent": "codex"}]) == [
        {"path": "/y", "agent": "codex"}
    ]


# -- persisted outputs: large tool results Claude Code stores beside the transcript ----

PERSISTED = FIXTURES / "persisted"
PSID = "5e55e55e-0000-4000-8000-000000000020"
FAILED_LAST_LINE = "ModuleNotFoundError: No module named 'shop.cart_totals'"


@pytest.fixture
def persisted(tmp_path):
    """A copy of tests/fixtures/persisted, and the folder of its session's side files."""
    root = tmp_path / "projects"
    shutil.copytree(PERSISTED, root)
    return root, root / "-home-dev-shop" / PSID / "tool-results"


def contents(db_path):
    return dict(query(db_path, "SELECT tool_use_id, content FROM tool_results"))


def test_a_persisted_failure_is_indexed_whole_and_found_by_its_last_line(
    persisted, db_path, processes
):
    root, side = persisted
    stats = build_index(db_path, root)
    assert stats.persisted_outputs == 3
    full = (side / "toolu_01PersistFail0000000001.txt").read_text()
    stored = contents(db_path)
    assert stored["toolu_01PersistFail0000000001"] == full  # not the 2 KB preview
    [(length, signature)] = query(
        db_path,
        "SELECT content_length, signature FROM tool_results WHERE tool_use_id = ?",
        ["toolu_01PersistFail0000000001"],
    )
    assert length == len(full)
    assert signature == signatures.signature(full)
    conn = queries.connect(db_path)
    rows = queries.find_past_fix(conn, FAILED_LAST_LINE, 5)
    assert [(r["session_id"], r["tool_use_id"]) for r in rows] == [
        (PSID, "toolu_01PersistFail0000000001")
    ]
    assert rows[0]["fixed_at"]  # the Write, then the test run that passed
    # A list of text blocks saved as JSON is indexed as its text, redacted.
    mcp = stored["toolu_01PersistJson0000000002"]
    assert mcp.startswith("order 0: shipped\n") and "[REDACTED:" in mcp and "ghp_" not in mcp
    # A subagent's Bash output, saved under the shell's task id.
    assert stored["toolu_01PersistTask0000000006"].endswith("all 2200 modules checked")


def test_a_missing_persisted_output_keeps_the_preview_and_is_a_problem(persisted, db_path):
    root, side = persisted
    build_index(db_path, root)
    gone = contents(db_path)["toolu_01PersistGone0000000005"]
    assert gone.startswith("<persisted-output>\nOutput too large (48.8KB).")
    assert gone.endswith("</persisted-output>\n(the log rotated meanwhile)")
    [(reason,)] = query(db_path, "SELECT reason FROM problems WHERE file_id IS NOT NULL")
    # Named from the project folder, as the problem's path is: the whole path, after the
    # transcript's, made the build's stderr line 350 characters long on the real corpus.
    assert reason == (
        "persisted output not found beside the transcript:"
        f" {side.parent.name}/tool-results/toolu_01PersistGone0000000005.txt; its line is"
        " indexed with the preview it holds"
    )


def test_a_persisted_output_is_read_only_from_its_own_session_s_folder_never_by_a_link(
    persisted, db_path, tmp_path
):
    """Someone else's transcripts, indexed with --source, could name any file the user can
    read: a persisted output that is a link to it (`.bash_history`), or a session id that
    is a path (`/home/x`, `../..`) to another folder's tool-results (a security test,
    session 30). Neither is read; each is a problem; a refresh reads nothing again."""
    root, side = persisted
    private = tmp_path / "private.txt"
    private.write_text("PRIVATE-NOTES of the user")
    target = side / "toolu_01PersistGone0000000005.txt"  # the fixture's missing one
    target.symlink_to(private)
    elsewhere = tmp_path / "elsewhere" / "tool-results"
    elsewhere.mkdir(parents=True)
    (elsewhere / "notes.txt").write_text("PRIVATE-ELSEWHERE")
    marker = (
        "<persisted-output>\nOutput too large (41.9KB). Full output saved to: "
        "/x/tool-results/notes.txt\n\nPreview (first 2KB):\nhead\n...\n</persisted-output>"
    )
    named = str(tmp_path / "elsewhere")  # the lines' sessionId
    write_jsonl(
        root / "-w" / "notes.jsonl",
        [
            tool_use("a1", named, "t1", "Bash", {"command": "cat x"}, "2026-01-01"),
            result("r1", named, "t1", marker, "2026-01-01", True),
        ],
    )
    build_index(db_path, root)
    stored = contents(db_path)
    assert "PRIVATE" not in "".join(stored.values())
    assert stored["toolu_01PersistGone0000000005"].startswith("<persisted-output>")
    assert stored["t1"] == marker
    reasons = [r for (r,) in query(db_path, "SELECT reason FROM problems")]
    assert any(r.startswith("persisted output is behind a link, not read:") for r in reasons), (
        reasons
    )
    assert any(r.startswith("persisted output of no session's folder:") for r in reasons)
    assert build_index(db_path, root).files_read == 0


def test_no_persisted_output_is_read_through_a_linked_folder(persisted, db_path, tmp_path):
    """A `tool-results` folder (or the session's folder) that is a link to a folder of the
    user's: the file the marker names is not read from there (a security test, session 31:
    `<session>/tool-results -> ~/private` copied `.bash_history` into the index)."""
    root, side = persisted
    private = tmp_path / "private"
    private.mkdir()
    for name in os.listdir(side):
        (private / name).write_text(f"PRIVATE {name}")
    shutil.rmtree(side)
    side.symlink_to(private)
    build_index(db_path, root)
    assert "PRIVATE" not in "".join(contents(db_path).values())
    reasons = [r for (r,) in query(db_path, "SELECT reason FROM problems")]
    assert sum(r.startswith("persisted output is behind a link, not read:") for r in reasons) == 4
    # the session's folder a link: the same
    session = side.parent
    side.unlink()
    moved = tmp_path / "moved"
    session.rename(moved)
    (moved / "tool-results").symlink_to(private)  # (a link inside a linked folder)
    session.symlink_to(moved)
    build_index(db_path, root, force=True)
    assert "PRIVATE" not in "".join(contents(db_path).values())


def test_a_lone_surrogate_in_a_persisted_json_output_costs_no_row_of_its_transcript(
    persisted, db_path, tmp_path
):
    """A `.json` persisted output holding half an emoji (`"\\ud83d"`) was decoded into a
    string UTF-8 cannot hold, and the whole transcript was not indexed, --force or not
    (UnicodeEncodeError: a security test, session 33). It is made U+FFFD, as in a line."""
    root, side = persisted
    build_index(tmp_path / "clean.db", root)
    expected = contents(tmp_path / "clean.db")
    saved = side / "toolu_01PersistJson0000000002.json"
    saved.write_text(saved.read_text().replace('"order 0: shipped', '"order 0: \\ud83d shipped'))
    stats = build_index(db_path, root)
    assert query(db_path, "SELECT reason FROM problems WHERE reason LIKE '%code%'") == []
    stored = contents(db_path)
    assert stored.keys() == expected.keys()
    assert stored["toolu_01PersistJson0000000002"].startswith("order 0: \ufffd shipped\norder 1")
    assert stats.persisted_outputs == 3
    assert build_index(db_path, root, force=True).persisted_outputs == 3


def test_a_huge_persisted_output_is_read_as_its_head_and_tail(persisted, db_path):
    """A persisted output of gigabytes (a sparse file) was read whole: ~2x its size in
    memory, a MemoryError at 4 GB (a security test, session 31). Only its head and tail are
    read, as much as a stored text keeps, and its last line is still found."""
    root, side = persisted
    big = side / "toolu_01PersistFail0000000001.txt"
    last = big.read_text().rstrip().splitlines()[-1]
    with open(big, "r+b") as f:
        head = f.read(4096)
        f.seek(0)
        f.write(head)
        f.truncate(3 * 1024**3)  # sparse: 3 GB of NULs after the head
        f.seek(0, os.SEEK_END)
        f.write(b"\n" + last.encode() + b"\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    build_index(db_path, root)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 512 * 1024, f"the build's peak memory grew by {grown:,} KiB"
    stored = contents(db_path)["toolu_01PersistFail0000000001"]
    assert len(stored) <= records.MAX_TEXT + 100
    assert stored.rstrip().endswith(last)
    assert stored.startswith(head.decode()[:100])


def test_a_persisted_output_that_appears_or_changes_later_is_read_again(persisted, db_path):
    root, side = persisted
    build_index(db_path, root)
    assert build_index(db_path, root).files_read == 0
    late = side / "toolu_01PersistGone0000000005.txt"
    late.write_text("the whole log\nERROR: disk full")
    stats = build_index(db_path, root)
    assert stats.files_read == 1 and stats.persisted_outputs == 3  # the main transcript
    stored = contents(db_path)
    assert stored["toolu_01PersistGone0000000005"] == (
        "the whole log\nERROR: disk full\n(the log rotated meanwhile)"
    )
    assert query(db_path, "SELECT count(*) FROM problems") == [(0,)]
    assert build_index(db_path, root).files_read == 0
    # Changed in place: read again too.
    (side / "bq5qwkh3j.txt").write_text("all modules checked again")
    assert build_index(db_path, root).files_read == 1  # the subagent's transcript
    assert contents(db_path)["toolu_01PersistTask0000000006"] == "all modules checked again"
    fresh = db_path.with_name("fresh.db")
    build_index(fresh, root)
    assert snapshot(db_path) == snapshot(fresh)


def test_the_full_text_stays_when_the_persisted_output_is_deleted(persisted, db_path):
    root, side = persisted
    build_index(db_path, root)
    before = snapshot(db_path)
    shutil.rmtree(side)  # Claude Code's cleanup, say
    assert build_index(db_path, root).files_read == 0
    assert snapshot(db_path) == before
    conn = queries.connect(db_path)
    assert queries.find_past_fix(conn, FAILED_LAST_LINE, 5)


def test_a_read_again_keeps_the_full_text_of_a_persisted_output_since_deleted(
    persisted, db_path, processes
):
    """A transcript read again from its start (a forced build; a rewrite) after its side
    files went: what was read from them stays, not the 2 KB preview its line holds."""
    root, side = persisted
    build_index(db_path, root)
    before = contents(db_path)
    shutil.rmtree(side)
    stats = build_index(db_path, root, force=True)
    assert stats.files_read == 2
    after = contents(db_path)
    for tool_use_id in ("toolu_01PersistFail0000000001", "toolu_01PersistTask0000000006"):
        assert after[tool_use_id] == before[tool_use_id]
        assert "<persisted-output>" not in after[tool_use_id]
    [(length, signature)] = query(
        db_path,
        "SELECT content_length, signature FROM tool_results WHERE tool_use_id = ?",
        ["toolu_01PersistFail0000000001"],
    )
    assert length == len(before["toolu_01PersistFail0000000001"])
    assert signature == signatures.signature(before["toolu_01PersistFail0000000001"])
    conn = queries.connect(db_path)
    assert queries.find_past_fix(conn, FAILED_LAST_LINE, 5)
    # the problems say so, not that the line is indexed with its preview
    reasons = [r for (r,) in query(db_path, "SELECT reason FROM problems")]
    kept = [r for r in reasons if "toolu_01PersistFail0000000001" in r]
    assert kept and all(r.endswith("; the text read from it before is kept") for r in kept)
    # the one never found keeps its preview, as before
    assert after["toolu_01PersistGone0000000005"] == before["toolu_01PersistGone0000000005"]
    # and so on, build after build: forced again, then the transcript rewritten (its
    # first prompt changed in place)
    build_index(db_path, root, force=True)
    assert contents(db_path) == after
    transcript = root / "-home-dev-shop" / f"{PSID}.jsonl"
    transcript.write_text(transcript.read_text().replace("Run the tests", "Run the suite", 1))
    assert build_index(db_path, root).files_read == 1
    assert contents(db_path) == after


def test_a_huge_persisted_output_keeps_its_head_and_its_last_line(persisted, db_path):
    root, side = persisted
    path = side / "toolu_01PersistFail0000000001.txt"
    path.write_text("ok\n" * 150_000 + FAILED_LAST_LINE)
    build_index(db_path, root)
    stored = contents(db_path)["toolu_01PersistFail0000000001"]
    assert len(stored) < 200_100 and "characters omitted" in stored
    assert stored.startswith("ok\nok\n") and stored.endswith(FAILED_LAST_LINE)
    conn = queries.connect(db_path)
    assert queries.find_past_fix(conn, FAILED_LAST_LINE, 5)


def test_a_marker_inside_a_result_is_not_a_persisted_output(projects, db_path):
    """A tool that prints a transcript (grep, cat) shows markers that are not its own."""
    text = "match: <persisted-output>\nOutput too large (1KB). Full output saved to: /x/y.txt"
    write_jsonl(
        projects / "-home-dev-app" / f"{SID}.jsonl",
        [
            tool_use(
                "a1", SID, "t1", "Bash", {"command": "grep -r persisted"}, "2026-01-01T10:00:01Z"
            ),
            result("r1", SID, "t1", text, "2026-01-01T10:00:02Z"),
        ],
    )
    stats = build_index(db_path, projects)
    assert (stats.persisted_outputs, stats.problems) == (0, 0)
    assert contents(db_path) == {"t1": text}


def test_a_title_cut_from_a_long_first_prompt_ends_in_an_ellipsis(tmp_path):
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    for session_id, text in (("long", "word " * 60), ("fits", "x" * 200)):
        line = {
            "type": "user",
            "uuid": f"{session_id}-1",
            "sessionId": session_id,
            "timestamp": "2026-03-01T10:00:00Z",
            "message": {"role": "user", "content": text},
        }
        (project / f"{session_id}.jsonl").write_text(json.dumps(line) + "\n")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    titles = dict(
        sqlite3.connect(tmp_path / "index.db").execute("select session_id, title from sessions")
    )
    assert titles["long"] == ("word " * 40).strip() + "…"
    assert len(titles["long"]) <= 200
    assert titles["fits"] == "x" * 200


def titles_of_prompts(tmp_path, project, sessions):
    """The titles of sessions of prompts alone (`sessions`: each id's prompts), written
    under `project` and indexed."""
    for session_id, texts in sessions.items():
        lines = [
            {
                "type": "user",
                "uuid": f"{session_id}-{i}",
                "sessionId": session_id,
                "timestamp": f"2026-03-01T10:00:0{i}Z",
                "message": {"role": "user", "content": text},
            }
            for i, text in enumerate(texts)
        ]
        (project / f"{session_id}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    build_index(tmp_path / "index.db", tmp_path / "projects")
    return dict(
        sqlite3.connect(tmp_path / "index.db").execute("select session_id, title from sessions")
    )


def test_a_session_begun_by_a_slash_command_or_in_the_ide_is_titled_as_typed(tmp_path):
    """A session begun by a slash command takes its first typed prompt as its title; one
    of commands only had none, and its page was headed by its id: a Claude Code 1.0.21
    file of the fifth held-out set holds a session of `/init` and one of `/exit`."""
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    init = (  # 1.0.21
        "<command-message>init is analyzing your codebase…</command-message>\n"
        "   <command-name>init</command-name>\n   <command-args></command-args>\n"
        '   <command-contents>{"type": "text", "text": "Please analyze"}</command-contents>'
    )
    model = (  # 2.1
        "<command-name>/model</command-name>\n   <command-message>model</command-message>\n"
        "   <command-args>sonnet</command-args>"
    )
    ide = (  # Claude Code in VS Code: the file open in the editor, then the prompt
        "<ide_opened_file>The user opened the file /w/app/spec.rb in the IDE. This may or may"
        " not be related to the current task.</ide_opened_file>\n\nLook at commit c9d374b"
    )
    sessions = {
        "init": [init],
        "model": [model],
        "typed": [model, "fix the tests"],
        "ide": [ide, "give it to me in markdown"],
    }
    titles = titles_of_prompts(tmp_path, project, sessions)
    assert titles == {
        "init": "/init",
        "model": "/model sonnet",
        "typed": "fix the tests",
        # the first prompt, not the next one, which was the title (2 sessions untitled and
        # 1 titled by its third prompt, of one person in the first held-out set)
        "ide": "Look at commit c9d374b",
    }
    # an index built before had none for the sessions of commands only: m017 gives them
    # theirs without reading a file again
    conn = sqlite3.connect(tmp_path / "index.db")
    conn.execute("UPDATE sessions SET title = NULL WHERE session_id IN ('init', 'model')")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm017_typed_titles'")
    conn.commit()
    conn.close()
    assert build_index(tmp_path / "index.db", tmp_path / "projects").files_read == 0
    with sqlite3.connect(tmp_path / "index.db") as conn:
        assert dict(conn.execute("select session_id, title from sessions")) == titles


def test_a_prompt_of_punctuation_alone_titles_no_session(tmp_path):
    """A first prompt of `.` (sent to wake the agent) titled its session ".", on every card
    of it (a new user's try, session 34): it says nothing, and the next prompt titles the
    session, as after an empty one; a session with nothing else keeps it."""
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    model = "<command-name>/model</command-name>\n   <command-message>model</command-message>"
    sessions = {
        "dot": [".", model, "Why are AF39 and AA50 off by 2 cents?"],
        "marks": ["?!", "…", "修复测试"],
        "alone": ["..."],
    }
    titles = titles_of_prompts(tmp_path, project, sessions)
    assert titles == {
        "dot": "Why are AF39 and AA50 off by 2 cents?",
        "marks": "修复测试",
        "alone": "...",
    }


def test_a_title_holds_no_markdown_emphasis(tmp_path):
    """A card's title was a first prompt written in markdown, `This prompt is designed for
    **Claude Code**...` (nu42 finding 11): its marks go, its words stay, and a glob's `*`
    and a name's underscores are no marks."""
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    sessions = {
        "bold": ["# Task\nThis prompt is designed for **Claude Code** to _build it_ `now`"],
        "glob": ["rm *.pyc, fix __init__.py and my_var: *not* 2*3*4"],
        "struck": ["~~old~~ new __plan B__"],
    }
    assert titles_of_prompts(tmp_path, project, sessions) == {
        "bold": "Task\nThis prompt is designed for Claude Code to build it now",
        "glob": "rm *.pyc, fix __init__.py and my_var: not 2*3*4",
        "struck": "old new plan B",
    }


@pytest.mark.skipif(
    not (REAL_CORPUS / "other-agents").is_dir(),
    reason=f"real corpus of every agent not found at {REAL_CORPUS} (../shared beside the project)",
)
def test_two_processes_store_what_one_would_for_every_agent(tmp_path, monkeypatch):
    """The whole real corpus, five agents: whole files (Gemini's JSON, opencode's message
    units and database, Copilot's workspace.yaml) split across the halves too."""
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 10**12)
    one = tmp_path / "one.db"
    assert build_index(one, REAL_CORPUS).processes == 1
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    two = tmp_path / "two.db"
    assert build_index(two, REAL_CORPUS).processes == 2
    expected = snapshot(one)
    assert {a for (a,) in query(one, "SELECT DISTINCT agent FROM sessions")} == {
        "claude",
        "codex",
        "copilot",
        "gemini",
        "opencode",
    }
    assert snapshot(two) == expected
    fixes = "SELECT * FROM fixes ORDER BY tool_use_id"
    assert query(one, fixes) and query(two, fixes) == query(one, fixes)


def test_the_helpers_channel_carries_a_message_larger_than_the_pipe_whole():
    """The helper's messages to the builder (pastfix.shard._Channel): one larger than a
    pipe's buffer (its rows message lists its problems) arrives whole and in turn, and once
    the helper's end is closed the builder is told (EOFError, as multiprocessing's Pipe
    said)."""
    read_end, write_end = os.pipe()
    ours, theirs = pshard._Channel(read_end), pshard._Channel(write_end)
    problems = [[f"/p/{i}.jsonl", "cannot read: Permission denied"] for i in range(5000)]
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            ours.close()
            theirs.send(("progress", 3))
            theirs.send(("rows", {"file_problems": problems, "sessions": None}))
            theirs.send(("sessions", None))
            code = 0
        finally:
            os._exit(code)
    theirs.close()
    try:
        assert ours.recv() == ["progress", 3]
        kind, value = ours.recv()
        assert (kind, value["file_problems"], value["sessions"]) == ("rows", problems, None)
        assert ours.recv() == ["sessions", None]
        os.waitpid(pid, 0)  # its end is closed: recv() says so at once
        assert ours.poll()
        with pytest.raises(EOFError):
            ours.recv()
    finally:
        ours.close()


def test_the_prefix_crc_is_zlibs_with_or_without_isal(monkeypatch):
    """A grown file's stored prefix_crc must match whichever install reads it next: ISA-L's
    CRC-32 (pastfix.build._crc32) is zlib's, chained over slices as a build reads them, and
    zlib's is the one used where isal is not installed."""
    import zlib

    data = os.urandom(3 * 1024 * 1024 + 17)
    crc = pbuild._crc32()
    assert crc(memoryview(data)[1000:], crc(data[:1000], 0)) == zlib.crc32(data)
    monkeypatch.setitem(sys.modules, "isal", None)  # its import fails
    pbuild._crc32.cache_clear()
    try:
        assert pbuild._crc32() is zlib.crc32
    finally:
        pbuild._crc32.cache_clear()


def test_a_new_index_and_its_side_files_are_readable_by_their_owner_only(
    projects, tmp_path, monkeypatch, processes, request
):
    """SQLite created the index 0644: every user of the machine could read the history it
    holds (a security test, session 33). A new index is 0600, and so are its -wal and -shm
    (SQLite gives them the database's mode), its lock file and a bulk build's helper's side
    files; an index that exists keeps the mode its owner gave it, and status says when
    every user can read it."""
    from pastfix import status

    umask = os.umask(0o022)  # (the common default, which SQLite's 0644 came from)
    request.addfinalizer(lambda: os.umask(umask))
    small_session(projects)
    small_session(projects, "0b2c7d1e-0000-4000-8000-000000000001")  # (two: a helper's share)
    modes: dict[str, int] = {}
    remove_side_files = pshard.remove_side_files

    def noted(path):
        for side in (path, Path(f"{path}.sessions")):
            modes[side.name.split(".part-")[1].replace(str(os.getpid()), "PID")] = (
                side.stat().st_mode & 0o777
            )
        remove_side_files(path)

    monkeypatch.setattr(pshard, "remove_side_files", noted)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    assert oct(db_path.stat().st_mode & 0o777) == "0o600"
    assert oct(Path(f"{db_path}.lock").stat().st_mode & 0o777) == "0o600"
    if processes == "two processes":
        assert modes == {"PID": 0o600, "PID.sessions": 0o600}
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    for side in ("-wal", "-shm"):
        assert oct(Path(f"{db_path}{side}").stat().st_mode & 0o777) == "0o600", side
    conn.close()
    assert "readable by every user" not in "\n".join(status.status(db_path)["advice"])
    # one the user made 0644 (or an older pastfix did) is left so, and said so
    db_path.chmod(0o644)
    small_session(projects, "0b2c7d1e-0000-4000-8000-000000000002")
    build_index(db_path, projects)
    assert oct(db_path.stat().st_mode & 0o777) == "0o644"
    said = [a for a in status.status(db_path)["advice"] if "readable by every user" in a]
    assert said == [
        f"{db_path} is readable by every user of this machine, and holds your history:"
        f" chmod 600 {db_path} keeps it yours"
    ]


@pytest.mark.parametrize(
    ("tool_input", "part", "parsed"),
    [
        ('{"file_path": "a.py"}', None, False),
        ('{"file_path": "a.py", "offset": 10, "limit": 50}', "offset 10 limit 50", True),
        ('{"file_path": "a.py", "view_range": [1, 20]}', "view_range [1, 20]", True),
        ('{"pages": "1-3", "file_path": "x.pdf"}', "pages 1-3", True),
        ('{"file_path": "a.py", "offset": null, "limit": true}', "limit 1", True),
        ('{"file_path": "offset.py"}', None, True),  # named, but no argument
        ('{"file_path": "a.py", "limit": 5', None, True),  # no JSON
        ('{"file_path": "a.py", "\\u006cimit": 5}', "?", True),  # as this SQLite reads it
        ("not json", None, False),
    ],
)
def test_a_reads_part_is_parsed_only_when_its_input_names_one(tmp_path, tool_input, part, parsed):
    """_read_part gives what SQLite's JSON functions read of a read's arguments (as
    FIX_CALLS_SQL did for every read), and asks SQLite only of an input whose text names
    an argument or holds an escape."""
    conn = pdb.connect(tmp_path / "index.db")
    if part == "?":
        (found,) = conn.execute("SELECT json_extract(?, '$.limit')", [tool_input]).fetchone()
        part = None if found is None else f"limit {found}"
    asked: list[str] = []
    conn.set_trace_callback(asked.append)
    assert pdb._read_part(conn, tool_input) == part
    assert bool(asked) is parsed


def _fixes_rows(path):
    return query(path, "SELECT * FROM fixes ORDER BY tool_use_id")


class _Grown:
    """A session of a failure whose window of calls closed long before its end (WINDOW_CALLS
    reads after it, then prompts), and of one failure at its end, built; `call` and
    `append` make lines to add to it."""

    def __init__(self, projects, db_path, early=("npm test", "Error: Cannot find module 'chalk'")):
        self.path = projects / "-home-dev-app" / f"{SID}.jsonl"
        self.db_path, self.projects = db_path, projects
        self.times = (
            f"2026-01-01T{n // 3600:02}:{n // 60 % 60:02}:{n % 60:02}Z" for n in range(9999)
        )
        self.lines = [prompt("p0", SID, "make the tests pass", next(self.times))]
        self.early = self.call("Bash", {"command": early[0]}, early[1], True)
        for n in range(fixes.WINDOW_CALLS + 5):
            self.call("Read", {"file_path": f"/home/dev/app/src/f{n}.ts"}, f"export const f{n} = 1")
        for n in range(3):
            self.lines.append(prompt(f"q{n}", SID, f"now look at part {n}", next(self.times)))
            self.call("Read", {"file_path": f"/home/dev/app/docs/p{n}.md"}, f"part {n}")
        self.late = self.call(
            "Bash", {"command": "pytest"}, "ModuleNotFoundError: No module named 'requests'", True
        )
        write_jsonl(self.path, self.lines)
        build_index(db_path, projects)
        self.written = len(self.lines)

    def call(self, name, tool_input, content, is_error=None, answered=True):
        n = len(self.lines)
        self.lines.append(tool_use(f"u{n}", SID, f"t{n}", name, tool_input, next(self.times)))
        if answered:
            self.lines.append(result(f"r{n}", SID, f"t{n}", content, next(self.times), is_error))
        return f"t{n}"

    def append(self):
        """Write the lines made since the last build, build, and check every row of fixes
        against a fresh build's."""
        write_jsonl(self.path, self.lines[self.written :], mode="a")
        self.written = len(self.lines)
        build_index(self.db_path, self.projects)
        clean = self.db_path.with_name("clean.db")
        clean.unlink(missing_ok=True)
        build_index(clean, self.projects)
        assert _fixes_rows(self.db_path) == _fixes_rows(clean)
        return {row[0]: row for row in _fixes_rows(self.db_path)}


def _kept_rows(monkeypatch):
    """What each refresh_fixes of an append kept (db._kept_by_append), as it returns it."""
    kept = []
    rule = pdb._kept_by_append
    monkeypatch.setattr(pdb, "_kept_by_append", lambda *a: kept.append(rule(*a)) or kept[-1])
    return kept


def test_an_append_keeps_the_fixes_it_cannot_change_and_computes_the_others(
    db_path, projects, monkeypatch
):
    """A session grown at its end: the failure whose window of calls ended before the new
    lines keeps its row; the one the new lines fix, and the new failure, are computed again;
    every row is a fresh build's."""
    grown = _Grown(projects, db_path)
    before = {row[0]: row for row in _fixes_rows(db_path)}
    assert before[grown.late][2] == fixes.NOT_FIXED
    kept = _kept_rows(monkeypatch)
    grown.call("Bash", {"command": "pip install requests"}, "Successfully installed requests")
    grown.call("Bash", {"command": "pytest"}, "5 passed in 0.12s")
    newer = grown.call("Bash", {"command": "npm run lint"}, "Error: eslint: not found", True)
    after = grown.append()
    assert kept == [{grown.early}]
    assert after[grown.early] == before[grown.early]
    assert after[grown.late][2] == fixes.FIXED and newer in after


@pytest.mark.parametrize("change", ["result of an earlier call", "earlier time", "rejected edit"])
def test_an_append_the_rules_read_otherwise_computes_its_session_whole(
    db_path, projects, monkeypatch, change
):
    """New lines that change what the rules read of the old calls: a result of a call
    already stored (its outcome), a call timed before the last one (its place), an edit the
    user rejected (the rules then read every edit's input: fixes.inputs_read)."""
    grown = _Grown(projects, db_path)
    if change == "result of an earlier call":
        pending = grown.call("Bash", {"command": "make"}, "", answered=False)
        grown.append()
        grown.lines.append(
            result("rp", SID, pending, "make: *** [all] Error 2", next(grown.times), True)
        )
    elif change == "earlier time":
        grown.lines.append(
            tool_use("ue", SID, "te", "Bash", {"command": "ls"}, "2026-01-01T00:00:01Z")
        )
        grown.lines.append(result("re", SID, "te", "a.txt", next(grown.times)))
    else:
        rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected."
        edit = {"file_path": "/home/dev/app/a.py", "old_string": "a", "new_string": "b"}
        grown.call("Edit", edit, rejected, True)
    kept = _kept_rows(monkeypatch)
    grown.append()
    assert kept == [set()]


def test_an_append_computes_again_a_look_that_found_no_repository(db_path, projects, monkeypatch):
    """A `git status` outside a repository, its window closed long before: a `git init`
    among the new lines says the repository was needed (fixes._no_repository reads every
    later call), so its row is computed again."""
    no_repository = "fatal: not a git repository (or any of the parent directories): .git"
    grown = _Grown(projects, db_path, early=("git status", no_repository))
    before = {row[0]: row for row in _fixes_rows(db_path)}
    kept = _kept_rows(monkeypatch)
    grown.call("Bash", {"command": "git init"}, "Initialized empty Git repository")
    after = grown.append()
    assert grown.early not in kept[0]
    assert (before[grown.early][2], after[grown.early][2]) == (fixes.ANSWERED, fixes.NOT_FIXED)


def test_an_incremental_build_after_new_fix_rules_recomputes_every_session(tmp_path):
    """A refresh of the sessions a build touched stamped the whole index with this
    version of the fix rules, so the build then skipped recomputing the others: after a
    FIX_VERSION bump, a session that did not grow kept its fixes by the old rules."""
    projects = tmp_path / "projects"
    db_path = tmp_path / "index.db"
    grows = write_jsonl(projects / "p" / f"{SID}.jsonl", failing_session(SID, 2, "E1", "fix"))
    write_jsonl(projects / "p" / f"{SID2}.jsonl", failing_session(SID2, 2, "E2", "fix"))
    build_index(db_path, projects)
    fresh = query(db_path, "SELECT * FROM fixes ORDER BY tool_use_id")
    assert {row[1] for row in fresh} == {SID, SID2}
    conn = sqlite3.connect(db_path)
    with conn:  # the fixes as older rules made them, of a version before this one
        conn.execute("UPDATE fixes SET outcome = 'old rules', confirmed_by = NULL")
        conn.execute("UPDATE _build_state SET value = '1' WHERE name = 'fix_version'")
    conn.close()
    write_jsonl(grows, [say("late", SID, "done", "2026-01-01T11:00:00Z")], "a")
    stats = build_index(db_path, projects)
    assert stats.files_read == 1
    assert query(db_path, "SELECT * FROM fixes ORDER BY tool_use_id") == fresh
    assert query(db_path, "SELECT value FROM _build_state WHERE name = 'fix_version'") == [
        (str(pdb.FIX_VERSION),)
    ]


def test_a_call_rejected_with_the_users_words_is_no_fix_and_a_warmup_no_failure(tmp_path):
    # Claude Code 2.0.x: a call the user rejected, telling the agent what to run instead, has
    # their words alone as its error (nu49 finding 1); its subagents' warm-up calls are
    # refused with `Warmup` (finding 9)
    from pastfix import status

    s, v = "rej", {"version": "2.0.2"}
    script = 'Usage Error: Couldn\'t find a script named "test:unit".'
    said = 'Use command "yarn test_unit --grep=Parser" with the right test name'
    at = [f"2026-01-06T22:{n:02d}:00.000Z" for n in range(10)]
    lines = [
        prompt("p", s, "run the parser test", at[0], **v),
        tool_use("u1", s, "t1", "Bash", {"command": "yarn test:unit --grep Parser"}, at[1], **v),
        result("r1", s, "t1", script, at[1], True, **v),
        tool_use("u2", s, "t2", "Bash", {"command": "yarn test Parser --grep x"}, at[2], **v),
        result("r2", s, "t2", said, at[3], True, **v),
        tool_use("u3", s, "t3", "Bash", {"command": "yarn test_unit --grep=Parser"}, at[4], **v),
        result("r3", s, "t3", "1 passing", at[5], False, **v),
    ]
    warm = {"version": "2.1.1", "sidechain": True, "agentId": "a0e"}
    warmup = [
        prompt("wp", s, "Warmup", at[6], **warm),
        tool_use("wu", s, "w1", "Bash", {"command": "ls -la"}, at[7], **warm),
        result("wr", s, "w1", "Warmup", at[7], True, **warm),
    ]
    projects = tmp_path / "projects"
    write_jsonl(projects / "-p" / f"{s}.jsonl", lines)
    write_jsonl(projects / "-p" / "agent-a0e.jsonl", warmup)
    build_index(tmp_path / "index.db", projects)
    conn = sqlite3.connect(tmp_path / "index.db")
    rows = conn.execute(
        "SELECT r.tool_use_id, r.is_error, r.kind, f.outcome, f.confirmed_by FROM tool_results r"
        " LEFT JOIN fixes f USING (tool_use_id) ORDER BY r.tool_use_id"
    ).fetchall()
    assert rows == [
        # the command the user said, run, got past the missing script: not the rejected call
        ("t1", 1, "error", "fixed", "t3"),
        # and it is what the user's words on rejecting it quoted: that rejection's fix too
        ("t2", 1, "rejected", "fixed", "t3"),
        ("t3", 0, None, None, None),
        ("w1", 0, None, None, None),
    ]
    assert status.status(tmp_path / "index.db")["failures"] == 2
