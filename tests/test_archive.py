"""The index outlives the transcripts: no build path drops a session whose file is gone
(issue 20), and `pastfix forget` removes exactly what it is asked to, with its bytes."""

import json
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT, build_index
from jsonl import failing_session, prompt, say, write_jsonl

from pastfix import build as pbuild
from pastfix import cli, forget, queries
from pastfix import db as pdb

A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
B = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
C = "cccccccc-cccc-4ccc-8ccc-cccccccccccc"
ERRORS = {
    A: "ModuleNotFoundError: No module named 'zebracorn'",
    B: "error TS2339: Property 'quokka' does not exist on type 'Farm'",
    C: "EISDIR: illegal operation on a directory, read 'walrus'",
}
SECRET = "glpat-Xy7Zq2Wv9Ut4Rs1Pq8No"


def corpus(projects):
    """Three sessions in two projects, each failing with its own error and fixing it."""
    paths = {}
    for sid, folder in ((A, "-home-dev-a"), (B, "-home-dev-b"), (C, "-home-dev-b")):
        paths[sid] = write_jsonl(
            projects / folder / f"{sid}.jsonl", failing_session(sid, 3, ERRORS[sid], "Fix it")
        )
    return paths


def findable(db_path):
    """What a user can find: each session's counts and where find_past_fix finds each error."""
    conn = queries.connect(db_path)
    try:
        sessions = conn.execute(
            "SELECT session_id, message_count, tool_call_count, tool_error_count FROM sessions"
            " ORDER BY 1"
        ).fetchall()
        hits = {
            sid: [(r["session_id"], r["tool_use_id"]) for r in queries.find_past_fix(conn, error)]
            for sid, error in ERRORS.items()
        }
        words = conn.execute(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'Fix'"
        ).fetchone()
    finally:
        conn.close()
    return sessions, hits, words


def deleted(db_path):
    conn = sqlite3.connect(db_path)
    rows = conn.execute(
        "SELECT session_id FROM sessions WHERE transcript_deleted_at IS NOT NULL ORDER BY 1"
    ).fetchall()
    conn.close()
    return [r[0] for r in rows]


@pytest.fixture
def projects(tmp_path):
    return tmp_path / "projects"


@pytest.mark.parametrize(
    "rebuild",
    [
        "incremental",
        "forced",
        "forced in two processes",
        "tokenizer",
        "forced with a tokenizer",
        "redaction off",
        "schema migration",
    ],
)
def test_no_build_drops_a_session_whose_transcript_is_gone(
    tmp_path, projects, rebuild, monkeypatch
):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = findable(db_path)
    assert all(before[1].values())
    paths[B].unlink()
    stats = build_index(db_path, projects)
    assert (stats.files_missing, stats.sessions_without_transcript) == (1, 1)
    if rebuild == "forced in two processes":
        monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
        monkeypatch.setattr(pbuild.os, "cpu_count", lambda: 2)
    if rebuild == "schema migration":
        # an index of the version before m012_archive (and every later migration, whose
        # names sort after it): the build applies them
        conn = sqlite3.connect(db_path)
        conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm012_archive'")
        conn.execute("DROP INDEX idx_sessions_deleted")
        conn.execute("ALTER TABLE sessions DROP COLUMN transcript_deleted_at")
        conn.execute("ALTER TABLE source_files DROP COLUMN missing_since")
        conn.commit()
        conn.close()
    kwargs = {
        "incremental": {},
        "forced": {"force": True},
        "forced in two processes": {"force": True},
        "tokenizer": {"tokenizer": "trigram"},
        "forced with a tokenizer": {"tokenizer": "porter", "force": True},
        "redaction off": {"redact": False},
        "schema migration": {},
    }[rebuild]
    stats = build_index(db_path, projects, **kwargs)
    if rebuild == "forced in two processes":
        assert stats.processes == 2
    assert stats.sessions_without_transcript == 1
    assert findable(db_path) == before
    assert deleted(db_path) == [B]
    # and again incrementally, with nothing changed
    assert findable(db_path) == findable(db_path)
    stats = build_index(db_path, projects, **{k: v for k, v in kwargs.items() if k != "force"})
    assert (stats.files_read, stats.sessions_without_transcript) == (0, 1)
    assert findable(db_path) == before


def test_the_deleted_session_says_since_when(tmp_path, projects):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    [(since, files)] = conn.execute(
        "SELECT s.transcript_deleted_at, (SELECT count(*) FROM source_files"
        " WHERE missing_since = s.transcript_deleted_at) FROM sessions s WHERE session_id = ?",
        [A],
    ).fetchall()
    conn.close()
    assert since.endswith("Z") and files == 1
    # a later build keeps the first time it was found gone
    build_index(db_path, projects)
    assert sqlite3.connect(db_path).execute(
        "SELECT transcript_deleted_at FROM sessions WHERE session_id = ?", [A]
    ).fetchall() == [(since,)]


@pytest.mark.parametrize("where", ["agent-a1b2c3d4.jsonl", "{sid}/subagents/agent-a1b2c3d.jsonl"])
def test_a_session_whose_own_transcript_is_gone_is_deleted_though_its_subagents_are_not(
    tmp_path, projects, where
):
    """Claude Code 2.0 writes a subagent's lines beside the session's transcript
    (`agent-*.jsonl`, 2.1 in `<session>/subagents/`): with the transcript deleted and
    those left, `pastfix find` printed `claude --resume <id>`, which cannot work, and
    status said 0 sessions kept without a transcript (a new user's try, nu36). The
    subagents' own session, none of whose lines is the session's, is deleted when they are."""
    paths = corpus(projects)
    agent = projects / "-home-dev-a" / where.format(sid=A)
    lines = failing_session(A, 1, "error: the subagent failed", "Retry")
    for line in lines:
        line.update(isSidechain=True, agentId="a1b2c3d4", uuid=line["uuid"] + "-agent")
    write_jsonl(agent, lines)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    stats = build_index(db_path, projects)
    assert (stats.files_missing, stats.sessions_without_transcript) == (1, 1)
    assert deleted(db_path) == [A]
    conn = queries.connect(db_path)
    try:
        [row] = queries.find_past_fix(conn, ERRORS[A])[:1]
        assert row["session_id"] == A and row["transcript_deleted_at"]
    finally:
        conn.close()
    # an index built before marked none: the migration marks it
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE sessions SET transcript_deleted_at = NULL")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm028_deleted_main_transcript'")
    conn.commit()
    conn.close()
    pdb.connect(db_path).close()
    assert deleted(db_path) == [A]
    # and the session its subagents' lines alone hold, once they go too
    write_jsonl(
        projects / "-home-dev-b" / "agent-b1.jsonl",
        [
            dict(line, uuid=line["uuid"] + "-b", isSidechain=True)
            for line in failing_session(B.replace("b", "d"), 1, "error: alone", "Retry")
        ],
    )
    build_index(db_path, projects)
    alone = B.replace("b", "d")
    assert alone not in deleted(db_path)
    (projects / "-home-dev-b" / "agent-b1.jsonl").unlink()
    build_index(db_path, projects)
    assert alone in deleted(db_path)


@pytest.mark.parametrize("how", ["as it was", "grown", "rewritten", "restored as a copy"])
def test_a_transcript_that_comes_back_is_read_again_without_duplicates(tmp_path, projects, how):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = findable(db_path)
    aside = tmp_path / "aside.jsonl"
    shutil.move(paths[A], aside)
    build_index(db_path, projects)
    assert deleted(db_path) == [A]
    extra = [prompt("late", A, "one more thing", "2026-02-01T00:00:00Z")]
    if how == "as it was":
        shutil.move(aside, paths[A])
    elif how == "grown":
        shutil.move(aside, paths[A])
        write_jsonl(paths[A], extra, "a")
    elif how == "rewritten":
        aside.unlink()
        write_jsonl(paths[A], failing_session(A, 2, ERRORS[A], "Fix it") + extra)
    else:
        shutil.copy(aside, paths[A])
    stats = build_index(db_path, projects)
    assert stats.sessions_without_transcript == 0
    assert deleted(db_path) == []
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    if how == "rewritten":
        # its third round, which the new content no longer holds, is kept beside it: all
        # that was found before still is, with the new prompt
        sessions, hits, words = findable(db_path)
        grown = [(sid, n + (sid == A), calls, errors) for sid, n, calls, errors in before[0]]
        assert (sessions, hits, words) == (grown, before[1], before[2])
        assert findable(fresh) != findable(db_path)
    else:
        assert findable(db_path) == findable(fresh)
    conn = sqlite3.connect(db_path)
    assert conn.execute(
        "SELECT path FROM source_files WHERE missing_since IS NOT NULL"
    ).fetchall() == ([(f"{paths[A]}#{A}",)] if how == "rewritten" else [])
    conn.close()


@pytest.mark.parametrize("how", ["renamed", "copied", "renamed, then grown", "renamed, forced"])
def test_a_transcript_moved_to_another_folder_is_the_same_file(tmp_path, projects, how):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = findable(db_path)
    moved = projects / "-home-dev-renamed" / paths[C].name
    moved.parent.mkdir()
    if how == "copied":  # another file system, a backup
        shutil.copy(paths[C], moved)
        paths[C].unlink()
    else:
        paths[C].rename(moved)
    if how == "renamed, then grown":
        write_jsonl(moved, [prompt("late", C, "one more thing", "2026-02-01T00:00:00Z")], "a")
    stats = build_index(db_path, projects, force=how == "renamed, forced")
    assert (stats.duplicates, stats.files_missing, stats.sessions_without_transcript) == (0, 0, 0)
    # a copy has another inode: it is read again, in place of the stored one
    assert stats.files_read == {"renamed": 0, "copied": 1, "renamed, then grown": 1}.get(how, 3)
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    assert findable(db_path) == findable(fresh)
    if how != "renamed, then grown":
        assert findable(db_path) == before
    conn = sqlite3.connect(db_path)
    assert conn.execute(
        "SELECT source_paths FROM sessions WHERE session_id = ?", [C]
    ).fetchone() == (json.dumps([str(moved)]).replace(" ", ""),)
    conn.close()


def test_turning_redaction_on_redacts_the_archived_rows_in_place(tmp_path, projects):
    corpus(projects)
    leak = write_jsonl(
        projects / "-home-dev-a" / "dddddddd-dddd-4ddd-8ddd-dddddddddddd.jsonl",
        [prompt("s1", "dddddddd-dddd-4ddd-8ddd-dddddddddddd", f"key {SECRET}", "2026-01-01")],
    )
    db_path = tmp_path / "index.db"
    build_index(db_path, projects, redact=False)
    leak.unlink()
    build_index(db_path, projects, redact=False)
    stats = build_index(db_path, projects)
    assert stats.redact_changed and stats.reredacted_rows == 1
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT text FROM messages WHERE uuid = 's1'").fetchall() == [
        ("key [REDACTED:gitlab-token]",)
    ]
    conn.close()
    assert SECRET.encode() not in (db_path.read_bytes() + wal(db_path))


def test_turning_redaction_off_keeps_the_archived_rows_redacted_and_says_so(tmp_path, projects):
    corpus(projects)
    leak = write_jsonl(
        projects / "-home-dev-a" / "dddddddd-dddd-4ddd-8ddd-dddddddddddd.jsonl",
        [prompt("s1", "dddddddd-dddd-4ddd-8ddd-dddddddddddd", f"key {SECRET}", "2026-01-01")],
    )
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    leak.unlink()
    build_index(db_path, projects)
    result = CliRunner().invoke(
        cli.cli, ["build", str(db_path), "--source", str(projects), "--no-redact"]
    )
    assert result.exit_code == 0, result.output
    assert (
        "Redaction turned off (--no-redact): every file was re-indexed; the 1 session kept"
        " without a transcript keeps its redacted text" in result.stderr
    )
    assert "1 session kept without a transcript" in result.stderr.splitlines()[-1]
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT text FROM messages WHERE uuid = 's1'").fetchall() == [
        ("key [REDACTED:gitlab-token]",)
    ]
    conn.close()


def test_build_json_counts_the_sessions_kept_without_a_transcript(tmp_path, projects):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    paths[C].unlink()
    result = CliRunner().invoke(
        cli.cli, ["build", str(db_path), "--source", str(projects), "--json", "-s"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert (stats["files_missing"], stats["sessions_without_transcript"]) == (2, 2)
    assert "2 sessions kept without a transcript" in result.stderr


# -- forget ----------------------------------------------------------------------


def wal(db_path):
    side = db_path.with_name(db_path.name + "-wal")
    return side.read_bytes() if side.exists() else b""


def test_forget_removes_a_session_and_its_bytes(tmp_path, projects):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    assert b"zebracorn" in db_path.read_bytes() + wal(db_path)
    # a reader keeps the index open, as Datasette does, but holds no transaction
    reader = sqlite3.connect(db_path)
    reader.execute("SELECT count(*) FROM sessions").fetchall()
    done = forget.forget(db_path, [A])
    reader.close()
    assert [s["session_id"] for s in done.sessions] == [A]
    assert (done.files_removed, done.on_disk, done.wal_cleared) == (1, 0, True)
    assert b"zebracorn" not in db_path.read_bytes() + wal(db_path)
    sessions, hits, _ = findable(db_path)
    assert [s[0] for s in sessions] == [B, C]
    assert hits[A] == [] and hits[B] and hits[C]
    conn = sqlite3.connect(db_path)
    for table in ("messages", "tool_calls", "tool_results", "session_meta", "fixes"):
        assert conn.execute(
            f"SELECT count(*) FROM {table} WHERE session_id = ?", [A]
        ).fetchone() == (0,)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)")
    conn.close()


def test_a_forgotten_transcript_still_on_disk_is_kept_by_no_name_and_not_read_again(
    tmp_path, projects
):
    """forget kept the file's row with its path (`-home-dev-a/<session id>.jsonl`: the
    user, the project and the session; nu41), so that the next build would not read it
    again: the row keeps its size and hashes under a hash of the path. Unchanged, the file is
    not read again; grown, its new lines are, and its row has its name back."""
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    done = forget.forget(db_path, [A])
    assert (done.files_removed, done.on_disk) == (0, 1)
    index = db_path.read_bytes() + wal(db_path)
    assert A.encode() not in index and b"-home-dev-a" not in index
    conn = sqlite3.connect(db_path)
    kept = conn.execute(
        "SELECT path, session_id, project_dir, session_ids FROM source_files"
        " WHERE path NOT LIKE ? ORDER BY path",
        [f"{projects}%"],
    ).fetchall()
    assert kept == [(pbuild.forgotten_key(str(paths[A])), None, None, "[]")]
    assert kept[0][0].startswith("forgotten:") and len(kept[0][0]) == len("forgotten:") + 64
    conn.close()
    build_index(db_path, projects)
    sessions, hits, _ = findable(db_path)
    assert [s[0] for s in sessions] == [B, C] and hits[A] == []
    # the session goes on: only what it wrote since is read, under the file's name again
    with paths[A].open("a") as f:
        f.write(json.dumps(say("late", A, "back again: narwhal", "2026-02-01T00:00:00Z")) + "\n")
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    assert conn.execute(
        "SELECT text FROM messages WHERE session_id = ? ORDER BY id", [A]
    ).fetchall() == [("back again: narwhal",)]
    assert conn.execute(
        "SELECT count(*) FROM source_files WHERE path = ? AND session_ids = ?",
        [str(paths[A]), json.dumps([A])],
    ).fetchone() == (1,)
    assert conn.execute(
        "SELECT count(*) FROM source_files WHERE path LIKE 'forgotten:%'"
    ).fetchone() == (0,)
    conn.close()


def test_forget_removes_a_bad_line_of_the_session_from_a_file_that_holds_another(
    tmp_path, projects
):
    """Claude Code 1.0.x wrote a resumed session into the file it resumed: a bad line of
    the forgotten one, its excerpt that line's text, goes; the other's stays (a security
    test, session 30)."""
    one, other = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
    bad = (
        '{"type":"user","sessionId":"' + one + '","message":{"role":"user",'
        '"content":"zzforgetme private words"'
    )
    lines = [
        prompt("p1", one, "first words", "2026-01-01T10:00:00Z"),
        bad,
        say("s1", one, "an answer", "2026-01-01T10:00:02Z"),
        prompt("p2", other, "zzkeepme later words", "2026-01-01T11:00:00Z"),
        '{"type":"user","sessionId":"' + other + '","message":{"content":"zzkeepbad"',
        say("s2", other, "another answer", "2026-01-01T11:00:02Z"),
    ]
    write_jsonl(projects / "-w" / f"{one}.jsonl", lines)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    excerpts = "SELECT group_concat(excerpt) FROM problems"
    assert "zzforgetme" in sqlite3.connect(db_path).execute(excerpts).fetchone()[0]
    forget.forget(db_path, [one])
    left = sqlite3.connect(db_path).execute(excerpts).fetchone()[0]
    assert "zzforgetme" not in left and "zzkeepbad" in left
    assert b"zzforgetme" not in db_path.read_bytes() + wal(db_path)


def test_forget_picks_by_project_date_and_missing_and_a_dry_run_changes_nothing(tmp_path, projects):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[C].unlink()
    build_index(db_path, projects)
    conn = pdb.connect(db_path)
    picked = {
        "project": forget.select(conn, project="/home/dev/app"),
        "none": forget.select(conn, project="/home/dev/ap"),
        "missing": forget.select(conn, missing=True),
        "before": forget.select(conn, before=forget.parse_before("2000-01-01")),
        "after": forget.select(conn, before=forget.parse_before("2999-01-01T00:00+02:00")),
    }
    conn.close()
    ids = {k: [s["session_id"] for s in v] for k, v in picked.items()}
    assert ids["project"] and set(ids["project"]) == {A, B, C}  # failing_session's cwd
    assert ids["none"] == [] and ids["before"] == []
    assert ids["missing"] == [C]
    assert set(ids["after"]) == {A, B, C}
    # `~` is the home folder pastfix reads everywhere: with HOME empty, the password
    # database's (Python's own expansion made it `/app`)
    conn = pdb.connect(db_path)
    for home in ("/home/dev", ""):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("HOME", home)
            mp.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_dir="/home/dev"))
            tilde = forget.select(conn, project="~/app")
            assert {s["session_id"] for s in tilde} == {A, B, C}, home
    conn.close()
    before = db_path.read_bytes()
    done = forget.forget(db_path, missing=True, dry_run=True)
    assert [s["session_id"] for s in done.sessions] == [C]
    assert findable(db_path)[0][2][0] == C and db_path.read_bytes() == before


def test_forget_a_windows_project_with_either_slash_and_refuses_every_project(tmp_path, projects):
    """Codex and Copilot on Windows record a cwd such as `C:\\Users\\me\\proj`: read as a
    POSIX path it became `<cwd>/C:\\...` and matched nothing; `/` matched nothing either,
    where it says every project (a security test of session 33): it is refused."""
    cwds = {
        "win-a": "C:\\Users\\me\\proj",
        "win-b": "c:/Users/me/proj/sub",
        "win-c": "C:\\Users\\me\\proj2",
        "posix": "/home/dev/app",
    }
    for session, cwd in cwds.items():
        write_jsonl(
            projects / "-p" / f"{session}.jsonl",
            [prompt(f"{session}-1", session, "hello", "2026-01-01T10:00:00Z", cwd=cwd)],
        )
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    conn = pdb.connect(db_path)
    # in any case of its letters, as Windows opens it (`D:/claudeworkspace` did not match
    # `d:\\ClaudeWorkspace`: a new user's try, nu46 finding 12)
    for given in (
        "C:\\Users\\me\\proj",
        "c:\\Users\\me\\proj\\",
        "C:/Users/me/proj",
        "c:/users/ME/Proj",
    ):
        picked = {s["session_id"] for s in forget.select(conn, project=given)}
        assert picked == {"win-a", "win-b"}, given
    # a POSIX folder's case is its name's
    assert forget.select(conn, project="/home/dev/APP") == []
    assert {s["session_id"] for s in forget.select(conn, project="C:\\")} == {
        "win-a",
        "win-b",
        "win-c",
    }
    assert [s["session_id"] for s in forget.select(conn, project="/home/dev")] == ["posix"]
    conn.close()
    for given in ("/", "//", "/.."):
        result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--project", given, "-y"])
        assert result.exit_code == 1, given
        assert result.stderr.startswith(f"Error: --project {given} is every project: "), given
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM sessions").fetchone() == (4,)


def test_forget_an_unknown_session_is_an_error_and_forgets_nothing(tmp_path, projects):
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    result = CliRunner().invoke(
        cli.cli, ["forget", str(db_path), "--session", A, "--session", "nope1234"]
    )
    assert result.exit_code == 1
    assert result.stderr == "Error: no session nope1234 in the index: nothing forgotten\n"
    assert len(findable(db_path)[0]) == 3
    # a start of an id too short to name one says how long it must be (a new user's
    # `--session c0a8` was no session, nu36)
    result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--session", A[:4]])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: no session {A[:4]} in the index: an id or its first 8 characters or more"
        " name one (nothing forgotten)\n"
    )
    assert len(findable(db_path)[0]) == 3


def test_forget_a_session_by_the_start_of_its_id(tmp_path, projects):
    """The hook, the pages and MCP name a session by its first 8 characters; forget took
    only the whole id ("no session bc565592": a new user's try, session 27). Fewer than 8,
    or a start several ids share, names none."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    conn = pdb.connect(db_path)
    try:
        assert [s["session_id"] for s in forget.select(conn, [A[:8]])] == [A]
        assert [s["session_id"] for s in forget.select(conn, [A[:8], A])] == [A]
        with pytest.raises(forget.ForgetError, match="no session"):
            forget.select(conn, [A[:7]])
    finally:
        conn.close()
    result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--session", A[:8], "--yes"])
    assert result.exit_code == 0, result.output
    assert len(findable(db_path)[0]) == 2
    conn = pdb.connect(db_path)
    try:
        with pytest.raises(forget.ForgetError, match="no session"):
            forget.select(conn, [A])  # gone
    finally:
        conn.close()
    twin = sqlite3.connect(db_path)
    twin.execute("UPDATE sessions SET session_id = ? WHERE session_id = ?", [B[:8] + C[8:], C])
    twin.commit()
    twin.close()
    conn = pdb.connect(db_path)
    try:
        with pytest.raises(forget.ForgetError, match="several sessions"):
            forget.select(conn, [B[:8]])
    finally:
        conn.close()


def test_forget_of_a_session_id_given_as_db_path_names_session(tmp_path, projects, monkeypatch):
    """`pastfix forget <session id>` (a new user's first guess, nu47 finding 5) read the id
    as the index: with --db it said `give DB_PATH or --db, not both`. Any agent's id, or
    its start, that names no file says to give it with --session, in one line; a file of
    that name is still the index."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    monkeypatch.chdir(tmp_path)
    for given in (A, A[:8], A[:11], "ses_3f2e1d0c9ffeZyXwVuTsRqPoNm"):
        for args in (["--db", str(db_path)], ["--dry-run"], []):
            result = CliRunner().invoke(cli.cli, ["forget", given, *args])
            assert (result.exit_code, result.stderr) == (
                2,
                f"Error: {given} is no index but reads as a session's id: to forget that"
                f" session, `pastfix forget --session {given}`\n",
            ), args
    assert len(findable(db_path)[0]) == 3
    # an index named so is read as one; neither a word nor a path reads as an id
    (tmp_path / A[:8]).write_bytes(db_path.read_bytes())
    result = CliRunner().invoke(cli.cli, ["forget", A[:8], "--session", A, "--yes"])
    assert result.exit_code == 0, result.output
    assert len(findable(tmp_path / A[:8])[0]) == 2
    for other in ("cafe", "indexes/2026.db", A[:7]):
        result = CliRunner().invoke(cli.cli, ["forget", other, "--missing"])
        assert "reads as a session" not in result.stderr


def test_forget_from_a_file_that_is_no_index_is_a_one_line_error(tmp_path):
    """It was a traceback (BuildError); and neither file is written. A file that is not
    SQLite was said as a build says it, `refusing to overwrite it`: forget never would."""
    junk = tmp_path / "notes.db"
    junk.write_text("not a database")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    # Both were made into a new, empty index, then nothing matched.
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.db"
    sqlite3.connect(blank).execute("VACUUM").connection.close()
    assert blank.stat().st_size > 0
    for path, error in (
        (junk, f"{junk} is not a SQLite database; it holds no pastfix index"),
        (other, f"{other} is a SQLite database that pastfix did not create"),
        (empty, f"{empty} is empty: it holds no pastfix index"),
        (blank, f"{blank} is an empty SQLite database: it holds no pastfix index"),
    ):
        before = path.read_bytes()
        result = CliRunner().invoke(cli.cli, ["forget", str(path), "--missing"])
        assert (result.exit_code, result.stderr) == (1, f"Error: {error}\n")
        assert path.read_bytes() == before


@pytest.mark.parametrize("command", ["forget", "build"])
def test_a_read_only_folder_is_named_without_calling_forget_a_build(
    tmp_path, projects, monkeypatch, command
):
    """forget in a read-only folder said 'a build needs to create files beside the index'.
    Root writes anywhere, so the lock file's creation is what fails here."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    (tmp_path / "index.db.lock").unlink()
    real_open = os.open

    def read_only_open(path, flags, *args):
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only_open)
    monkeypatch.setattr(pbuild, "_writable", lambda path: path != str(tmp_path))
    args = ["--missing"] if command == "forget" else ["--source", str(projects), "-s"]
    result = CliRunner().invoke(cli.cli, [command, str(db_path), *args])
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: {tmp_path} is read-only: changing index.db needs files beside it"
        " (index.db.lock, a journal)\n",
    )


def test_a_dry_run_only_reads_so_it_lists_in_a_read_only_folder(tmp_path, projects, monkeypatch):
    """`forget --dry-run` took the build lock and opened the index to write, so in a
    read-only folder it failed ('is read-only: changing index.db needs files beside it')
    just to list. Root writes anywhere: the folder is made read-only for pastfix's checks,
    and creating the lock file fails as it would there."""
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    (tmp_path / "index.db.lock").unlink()
    real_open, real_access = os.open, os.access

    def read_only_open(path, flags, *args):
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only_open)
    monkeypatch.setattr(
        os, "access", lambda path, mode: mode != os.W_OK and real_access(path, mode)
    )
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--missing", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == [A]
    assert result.stderr.startswith("Would forget 1 session (")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_a_damaged_sessions_table_is_said_by_a_dry_run_that_finds_nothing(tmp_path, projects):
    """With the sessions table's page overwritten, `--missing` read only the (empty,
    intact) index of deleted transcripts, and said 'No session matches: nothing
    forgotten' of a damaged index."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sessions'").fetchone()[0]
    conn.close()
    with open(db_path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xff" * 2000)
    for extra in (["--dry-run"], []):
        result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--missing", *extra])
        assert (result.exit_code, result.stdout) == (1, ""), result.output
        assert result.stderr == (
            f"Error: {db_path} is damaged (database disk image is malformed): move it aside"
            f" and run `pastfix build {db_path}`; the sessions it kept without a transcript"
            f" are only in it (`sqlite3 {db_path} .recover` may save them)\n"
        )


def test_forget_without_db_path_reads_the_index_status_shows(tmp_path, projects, monkeypatch):
    """From a folder without ./index.db, status showed the hook's index and forget said
    'index.db not found: there is no index to forget from'."""
    corpus(projects)
    db_path = tmp_path / "data" / "index.db"
    db_path.parent.mkdir()
    build_index(db_path, projects)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("PASTFIX_DB", str(db_path))
    result = CliRunner().invoke(cli.cli, ["forget", "--session", B])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Forgot 1 session (")
    assert [s[0] for s in findable(db_path)[0]] == [A, C]
    monkeypatch.setenv("PASTFIX_DB", str(tmp_path / "none.db"))
    result = CliRunner().invoke(cli.cli, ["forget", "--missing"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no index found: looked in index.db (in ")


def test_forget_cli_says_what_it_removed(tmp_path, projects):
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    runner = CliRunner()
    result = runner.invoke(cli.cli, ["forget", str(db_path), "--session", B, "--dry-run"])
    assert result.exit_code == 0, result.output
    assert B in result.stdout
    assert result.stderr.startswith("Would forget 1 session (")
    result = runner.invoke(cli.cli, ["forget", str(db_path), "--session", B])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Forgot 1 session (")
    assert "1 of them still has its transcript on disk" in result.stderr
    # the next refresh does not read it again
    stats = build_index(db_path, projects)
    assert stats.files_read == 0
    assert [s[0] for s in findable(db_path)[0]] == [A, C]
    result = runner.invoke(cli.cli, ["forget", str(db_path)])
    assert result.exit_code == 2
    assert "say what to forget" in result.stderr
    result = runner.invoke(cli.cli, ["forget", str(db_path), "--before", "yesterday"])
    assert result.exit_code == 2
    assert "is not a date" in result.stderr


def test_forget_on_a_terminal_asks_first(tmp_path, projects, monkeypatch):
    """It removed sessions for good without a word, those whose transcripts are gone
    included, which no build can bring back."""
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    monkeypatch.setattr(cli, "interactive", lambda: True)
    runner = CliRunner()
    args = ["forget", str(db_path), "--session", A, "--session", B]
    result = runner.invoke(cli.cli, args, input="n\n")
    assert result.exit_code == 1
    assert [line.split()[0] for line in result.stdout.splitlines()] == [A, B]
    assert result.stderr == (
        f"Forget 2 sessions from {db_path} for good (1 of them kept without a transcript,"
        " in no other place)? [y/N]: n\nNothing forgotten\n"
    )
    assert [s[0] for s in findable(db_path)[0]] == [A, B, C]
    result = runner.invoke(cli.cli, args, input="y\n")
    assert result.exit_code == 0, result.output
    assert "Forgot 2 sessions (" in result.stderr
    assert [s[0] for s in findable(db_path)[0]] == [C]
    result = runner.invoke(cli.cli, ["forget", str(db_path), "--session", C, "--yes"])
    assert (result.exit_code, result.stderr.startswith("Forgot 1 session (")) == (0, True)
    assert findable(db_path)[0] == []


def test_forget_removes_only_the_sessions_it_listed(tmp_path, projects, monkeypatch):
    """A build that ends while forget waits for its answer (the SessionEnd hook's) finds
    another transcript gone: that session matched `--missing` then, was never listed nor
    asked about, and went with the one that was, for good (session 16's red team)."""
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    monkeypatch.setattr(cli, "interactive", lambda: True)

    def meanwhile(question, **kwargs):
        paths[B].unlink()
        build_index(db_path, projects)
        return True

    monkeypatch.setattr(cli.click, "confirm", meanwhile)
    result = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--missing"])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == [A]
    assert result.stderr.startswith("Forgot 1 session (")
    assert [s[0] for s in findable(db_path)[0]] == [B, C]


def test_forget_says_it_waits_for_a_build(tmp_path, projects):
    """Behind a build it waited without a word, as a second build no longer does."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    args = [sys.executable, "-m", "pastfix", "forget", str(db_path), "--session", B, "--yes"]
    with pbuild.build_lock(db_path):
        child = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
        time.sleep(pbuild.WAIT_NOTICE_SECONDS + 1)
    stderr = child.communicate(timeout=60)[1]
    assert child.returncode == 0, stderr
    assert stderr.startswith(f"waiting for a build of {db_path} to finish...\nForgot 1 session")


@pytest.mark.asyncio
async def test_session_page_and_find_card_say_the_transcript_is_gone(tmp_path, projects):
    from datasette.app import Datasette

    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    [(since,)] = sqlite3.connect(db_path).execute(
        "SELECT transcript_deleted_at FROM sessions WHERE session_id = ?", [A]
    )
    note = f"deleted on {since[:10]}; kept in the index"
    ds = Datasette([str(db_path)])
    page = (await ds.client.get(f"/index/-/session/{A}")).text
    assert f'<dd class="pf-archived">{note}</dd>' in page
    assert note not in (await ds.client.get(f"/index/-/session/{B}")).text
    data = (await ds.client.get(f"/index/-/session/{A}.json")).json()
    assert data["session"]["transcript_deleted_at"] == since
    found = (await ds.client.get("/index/find_past_fix", params={"error": ERRORS[A]})).text
    assert f"Transcript {note}." in found
    other = (await ds.client.get("/index/find_past_fix", params={"error": ERRORS[B]})).text
    assert "Transcript deleted" not in other


# -- status ------------------------------------------------------------------------


@pytest.fixture
def claude_home(fake_home, monkeypatch):
    """Claude Code's folder in the temporary home, named by CLAUDE_CONFIG_DIR too."""
    folder = fake_home / ".claude"
    folder.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    monkeypatch.delenv("PASTFIX_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(fake_home / "data"))
    return folder


def status_json(*args):
    result = CliRunner().invoke(cli.cli, ["status", *map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_status_of_nothing_says_what_to_do(tmp_path, claude_home, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = status_json()
    assert found["index"] == str(claude_home.parent / "data" / "pastfix" / "index.db")
    assert (found["exists"], found["sessions"], found["sessions_without_transcript"]) == (
        False,
        0,
        0,
    )
    assert (found["last_build"], found["cleanup_period_days"], found["hook_installed"]) == (
        None,
        None,
        False,
    )
    assert (found["mcp_installed"], found["skill_installed"]) == (False, False)
    # each source has the keys it has once an index is built ("exists" was left out)
    assert found["sources"] and all(
        set(s)
        == {
            "path",
            "agent",
            "exists",
            "files",
            "files_without_transcript",
            "files_with_rows_kept",
            "read_by_last_build",
            "read_by_stopped_build",
        }
        for s in found["sources"]
    )
    assert found["advice"][0].startswith("No index at ")
    assert "run pastfix hook install" in found["advice"][1]
    text = CliRunner().invoke(cli.cli, ["status"]).stdout
    assert "hook:       not installed in" in text and "run pastfix hook install" in text


def test_status_of_an_index_with_everything_installed(tmp_path, projects, claude_home):
    from pastfix import install

    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    settings = claude_home / "settings.json"
    settings.write_text(json.dumps({"cleanupPeriodDays": 7}))
    install.install_hooks(settings, db_path)
    install.install_skill(claude_home / "skills")
    (claude_home / ".claude.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "pastfix": {"command": "/x/bin/pastfix", "args": ["mcp", "--db", str(db_path)]}
                }
            }
        )
    )
    found = status_json(db_path)
    assert found["index"] == str(db_path)
    assert found["size_bytes"] >= db_path.stat().st_size > 0
    assert (found["sessions"], found["sessions_without_transcript"], found["failures"]) == (
        3,
        1,
        9,
    )
    assert found["last_build"]["mode"] == "incremental"
    assert found["last_build"]["sources"] == [{"path": str(projects), "agent": "claude"}]
    assert found["sources"] == [
        {
            "path": str(projects),
            "agent": "claude",
            "exists": True,
            "files": 3,
            "files_without_transcript": 1,
            "files_with_rows_kept": 0,
            "read_by_last_build": True,
            "read_by_stopped_build": False,
        }
    ]
    assert found["hook_installed"] and found["hook"]["events"] == [
        "PostToolUseFailure",
        "SessionEnd",
    ]
    assert found["cleanup_period_days"] == 7
    assert found["mcp_installed"] and found["mcp"]["where"] == [
        f"{claude_home / '.claude.json'} (user)"
    ]
    assert found["skill_installed"]
    assert found["advice"] == []


def test_status_lists_every_source_the_index_holds(tmp_path, projects, claude_home):
    """After `build --agent codex`, status listed only the Codex folder, as if the index
    held nothing else: it lists every source any build read that the index holds files of,
    and says which the last build did not read; an index built before builds recorded
    them (no `sources` in _build_state) gets each agent's folder from its files."""
    from conftest import FIXTURES

    corpus(projects)
    rollouts = tmp_path / "codex" / "sessions"
    shutil.copytree(FIXTURES / "codex" / "sessions", rollouts)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects, rollouts)
    build_index(db_path, rollouts)
    here = {
        "exists": True,
        "files_without_transcript": 0,
        "files_with_rows_kept": 0,
        "read_by_stopped_build": False,
    }
    codex = {"path": str(rollouts), "agent": "codex", **here, "files": 1}
    claude = {"path": str(projects), "agent": "claude", **here, "files": 3}
    assert status_json(db_path)["sources"] == [
        {**codex, "read_by_last_build": True},
        {**claude, "read_by_last_build": False},
    ]
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    assert [line for line in text.splitlines() if line.startswith("source:")] == [
        f"source:     {rollouts} (codex, 1 file indexed, 0 of them deleted since)",
        f"source:     {projects} (claude, 3 files indexed, 0 of them deleted since,"
        " not read by the last build)",
    ]
    build_index(db_path, projects / "-home-dev-b")  # one project's folder: counted once
    assert status_json(db_path)["sources"] == [
        {**claude, "path": str(projects / "-home-dev-b"), "files": 2, "read_by_last_build": True},
        {**codex, "read_by_last_build": False},
        {**claude, "files": 1, "read_by_last_build": False},
    ]
    build_index(db_path, rollouts)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("DELETE FROM _build_state WHERE name = 'sources'")
    conn.close()
    assert status_json(db_path)["sources"] == [
        {**codex, "read_by_last_build": True},
        {**claude, "read_by_last_build": False},  # the folder its two projects share
    ]


def test_status_lists_project_folders_side_by_side_as_their_folder(tmp_path, claude_home):
    """A backup of Claude Code's project folders beside `codex/` is read as one source for
    each project, and status listed a line for each: three or more alike, side by side, are
    one line for their folder, with their counts added (JSON keeps each)."""
    from conftest import FIXTURES

    backup = tmp_path / "backup"
    corpus(backup)
    d = "dddddddd-dddd-4ddd-8ddd-dddddddddddd"
    write_jsonl(backup / "-home-dev-c" / f"{d}.jsonl", failing_session(d, 3, "boom", "Fix it"))
    shutil.copytree(FIXTURES / "codex" / "sessions", backup / "codex" / "sessions")
    db_path = tmp_path / "index.db"
    build_index(db_path, backup)
    sources = status_json(db_path)["sources"]
    assert sorted(s["path"] for s in sources if s["agent"] == "claude") == [
        str(backup / f) for f in ("-home-dev-a", "-home-dev-b", "-home-dev-c")
    ]
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    assert [line for line in text.splitlines() if line.startswith("source:")] == [
        f"source:     {backup} (claude, 3 folders, 4 files indexed, 0 of them deleted since)",
        f"source:     {backup / 'codex' / 'sessions'} (codex, 1 file indexed, 0 of them"
        " deleted since)",
    ]
    (backup / "-home-dev-c" / f"{d}.jsonl").unlink()
    build_index(db_path, backup)
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    line = f"source:     {backup} (claude, 3 folders, 4 files indexed, 1 of them deleted since)"
    assert line in text.splitlines()


@pytest.mark.parametrize("name", ["sources", "last_build"])
def test_a_build_state_that_is_not_json_is_no_traceback(tmp_path, projects, claude_home, name):
    """A hand-edited _build_state value (not JSON) ended `pastfix status` and the next
    build with a traceback; both go on as if it were not there, and the build writes it
    anew."""
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE _build_state SET value = '[1' WHERE name = ?", [name])
    conn.close()
    assert [s["files"] for s in status_json(db_path)["sources"] if s["path"] == str(projects)] == [
        3
    ]
    build_index(db_path, projects)
    found = status_json(db_path)
    assert found["last_build"]["sources"] == [{"path": str(projects), "agent": "claude"}]
    assert [(s["path"], s["files"]) for s in found["sources"]] == [(str(projects), 3)]


# -- Claude Code project folders beside another agent's store ---------------------------


def mixed_folder(tmp_path, beside):
    """The corpus's project folders right in a folder beside another agent's store (a
    copy of ~/.codex, ~/.copilot), which a --source reads each by its own agent's reader:
    every project folder is then a store of its own (pastfix.agents.stores)."""
    from conftest import FIXTURES, ROOT

    mixed = tmp_path / "mixed"
    paths = corpus(mixed)
    if beside == "codex":
        shutil.copytree(FIXTURES / "codex" / "sessions", mixed / "codex" / "sessions")
    else:
        shutil.copytree(ROOT / "tests" / "data" / "copilot" / "home" / ".copilot", mixed / beside)
    return mixed, paths


def build_json(db_path, *args):
    result = CliRunner().invoke(cli.cli, ["build", str(db_path), *map(str, args), "--json", "-s"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr


def missing_since(db_path):
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT path, missing_since IS NOT NULL FROM source_files").fetchall()
    conn.close()
    return {path for path, gone in rows if gone}


@pytest.mark.parametrize("beside", ["codex", ".copilot"])
@pytest.mark.parametrize("gone", ["the file", "the project folder"])
def test_a_transcript_gone_from_a_project_folder_beside_another_store_is_found_gone(
    tmp_path, claude_home, beside, gone
):
    """Held-out set 12, part 2: Claude Code project folders beside a codex/ folder. A
    project folder is a store of its own there, and one whose last transcript is deleted,
    or that is removed, is none: its files were found gone by no build (`read 0 of 6
    files`, no `kept without a transcript`, missing_since NULL), so `status` counted none
    deleted, as a source the last build did not read, and `forget --missing` found none.
    """
    mixed, paths = mixed_folder(tmp_path, beside)
    db_path = tmp_path / "index.db"
    before, _ = build_json(db_path, "--source", mixed)
    assert before["files_missing"] == before["sessions_without_transcript"] == 0
    held = findable(db_path)
    assert {A, B, C} <= {s[0] for s in held[0]} and all(held[1].values())
    project = mixed / "-home-dev-a"
    if gone == "the file":
        paths[A].unlink()
        assert project.is_dir() and not any(project.iterdir())
    else:
        shutil.rmtree(project)
    after, stderr = build_json(db_path, "--source", mixed)
    assert (after["files_seen"], after["files_missing"], after["files_read"]) == (
        before["files_seen"] - 1,
        1,
        0,
    )
    assert after["sessions_without_transcript"] == 1
    assert ", 1 session kept without a transcript" in stderr
    assert missing_since(db_path) == {str(paths[A])}
    assert deleted(db_path) == [A]
    # every row is kept, and a build after it changes nothing
    assert findable(db_path) == held
    again, _ = build_json(db_path, "--source", mixed)
    assert (again["files_read"], again["files_missing"]) == (0, 0)
    assert again["sessions_without_transcript"] == 1
    assert findable(db_path) == held
    found = status_json(db_path)
    assert found["sessions_without_transcript"] == 1
    [source] = [s for s in found["sources"] if s["path"] == str(project)]
    assert source == {
        "path": str(project),
        "agent": "claude",
        "exists": gone == "the file",
        "files": 1,
        "files_without_transcript": 1,
        "files_with_rows_kept": 0,
        "read_by_last_build": True,
        "read_by_stopped_build": False,
    }
    assert {"path": str(project), "agent": "claude"} in found["last_build"]["sources"]
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    assert f"source:     {project} (claude, 1 file indexed, 1 of them deleted since" in text
    assert "not read by the last build" not in text
    listed = CliRunner().invoke(cli.cli, ["forget", str(db_path), "--missing", "--dry-run"])
    assert listed.exit_code == 0, listed.output
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [A]
    assert "Would forget 1 session " in listed.stderr
    # a forced build keeps it as it is
    forced, _ = build_json(db_path, "--source", mixed, "--force")
    assert forced["sessions_without_transcript"] == 1
    assert missing_since(db_path) == {str(paths[A])} and deleted(db_path) == [A]
    assert findable(db_path) == held


def test_a_project_folder_beside_another_store_that_comes_back_is_its_own_again(
    tmp_path, claude_home
):
    mixed, paths = mixed_folder(tmp_path, "codex")
    db_path = tmp_path / "index.db"
    build_index(db_path, mixed)
    kept = tmp_path / "kept"
    shutil.move(mixed / "-home-dev-b", kept)
    assert build_index(db_path, mixed).files_missing == 2
    assert deleted(db_path) == [B, C]
    shutil.move(kept, mixed / "-home-dev-b")
    stats = build_index(db_path, mixed)
    assert (stats.files_read, stats.files_returned, stats.sessions_without_transcript) == (0, 2, 0)
    assert missing_since(db_path) == set() and deleted(db_path) == []
    # renamed, it is the same files, none of them gone
    shutil.move(mixed / "-home-dev-b", mixed / "-home-dev-b2")
    stats = build_index(db_path, mixed)
    assert (stats.files_read, stats.files_missing, stats.sessions_without_transcript) == (0, 0, 0)
    assert missing_since(db_path) == set()


def test_a_file_beside_another_store_is_found_gone_only_by_a_build_that_looks_for_it(
    tmp_path, claude_home
):
    """A build looks for the files of the agents it reads in the folders it is given, not
    elsewhere; and a file still there, in a folder that is no store any more, is not gone."""
    mixed, paths = mixed_folder(tmp_path, "codex")
    db_path = tmp_path / "index.db"
    build_index(db_path, mixed)
    paths[A].unlink()
    assert build_index(db_path, mixed, agent="codex").files_missing == 0
    assert build_index(db_path, mixed / "codex").files_missing == 0
    assert missing_since(db_path) == set()
    # another tool's notes in place of B's and C's folder's transcripts: no store, but there
    for sid in (B, C):
        paths[sid].write_text('{"label": "not a transcript"}\n')
    stats = build_index(db_path, mixed)
    assert (stats.files_missing, stats.sessions_without_transcript) == (1, 1)
    assert missing_since(db_path) == {str(paths[A])}


def test_status_says_when_the_hook_reads_another_index(tmp_path, projects, claude_home):
    """Run in a project folder, status showed ./index.db and 'hook: installed', and not that
    the hook reads the index it was installed with, elsewhere."""
    from pastfix import install

    corpus(projects)
    here, default = tmp_path / "here" / "index.db", tmp_path / "my data" / "index.db"
    for path in (here, default):
        path.parent.mkdir()
        build_index(path, projects)
    settings = claude_home / "settings.json"
    install.install_hooks(settings, default)
    found = status_json(here)
    assert found["hook"]["index"] == str(default)

    def hook_line(path):
        text = CliRunner().invoke(cli.cli, ["status", str(path)]).stdout
        return [line for line in text.splitlines() if line.startswith("hook:")][0]

    assert hook_line(here) == (
        f"hook:       installed in {settings} (it reads {default}, not this index)"
    )
    assert hook_line(default) == f"hook:       installed in {settings}"
    assert status_json(tmp_path / "none.db")["hook"]["index"] == str(default)
    assert not any(line.startswith("The hook reads") for line in status_json(here)["advice"])
    default.unlink()
    assert f"The hook reads {default}, which is not built: until a session's end builds it," in (
        " ".join(status_json(here)["advice"])
    )
    install.uninstall_hooks(settings)
    assert status_json(here)["hook"] == {"settings": str(settings), "events": [], "index": None}


@pytest.mark.parametrize(
    "settings, told",
    [
        ({}, "unset, so 30 days"),
        ({"cleanupPeriodDays": 14}, "(14 days)"),
        ({"cleanupPeriodDays": 365}, None),
        ({"cleanupPeriodDays": 0}, "set a large number of days instead"),
    ],
)
def test_hook_install_mentions_a_short_cleanup_period_and_leaves_it(
    tmp_path, claude_home, settings, told
):
    path = claude_home / "settings.json"
    path.write_text(json.dumps(settings))
    result = CliRunner().invoke(
        cli.cli, ["hook", "install", "--settings", str(path), "--db", str(tmp_path / "i.db")]
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if "cleanupPeriodDays" in line]
    if told:
        assert len(lines) == 1 and told in lines[0]
    else:
        assert lines == []
    assert json.loads(path.read_text()).get("cleanupPeriodDays") == settings.get(
        "cleanupPeriodDays"
    )


def test_the_duplicates_repair_reads_again_around_an_archived_file(tmp_path, projects):
    """A resumed session repeats lines of another file: when that file is gone and the
    resumed one grows, the repair re-reads the resumed one and keeps the archived rows."""
    original = failing_session(A, 3, ERRORS[A], "Fix it")
    resumed = [{**line, "sessionId": B} for line in original[:8]]
    resumed += failing_session(B, 2, ERRORS[B], "Fix it")
    a = write_jsonl(projects / "-home-dev-a" / f"{A}.jsonl", original)
    b = write_jsonl(projects / "-home-dev-b" / f"{B}.jsonl", resumed)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = findable(db_path)
    a.unlink()
    build_index(db_path, projects)
    write_jsonl(b, [prompt("late", B, "one more thing", "2026-02-01T00:00:00Z")], "a")
    stats = build_index(db_path, projects)
    assert stats.files_read == 1 and stats.sessions_without_transcript == 1
    sessions, hits, _ = findable(db_path)
    assert hits == before[1]
    assert dict((s[0], s[1]) for s in sessions) == {
        A: dict((s[0], s[1]) for s in before[0])[A],
        B: dict((s[0], s[1]) for s in before[0])[B] + 1,
    }
    assert build_index(db_path, projects, force=True).sessions_without_transcript == 1
    assert findable(db_path)[:2] == (sessions, hits)


def test_status_of_an_index_from_an_older_pastfix_says_to_build(tmp_path, projects, claude_home):
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    conn.execute("DROP INDEX idx_sessions_deleted")
    conn.execute("ALTER TABLE sessions DROP COLUMN transcript_deleted_at")
    conn.execute("ALTER TABLE source_files DROP COLUMN missing_since")
    conn.commit()
    conn.close()
    found = status_json(db_path)
    assert (found["sessions"], found["sessions_without_transcript"]) == (3, 0)
    assert found["advice"][0] == (
        "built by an older pastfix: run pastfix build to bring it up to date"
    )
    assert found["sources"][0]["files"] == 3


def test_status_of_an_index_no_build_has_finished_says_so(tmp_path, claude_home):
    """During its first build an index shows 0 sessions, 0 messages, 0 failures, which
    said nothing of why."""
    db_path = tmp_path / "index.db"
    pdb.connect(db_path).close()  # the schema, as the first build leaves it until it ends
    found = status_json(db_path)
    assert (found["sessions"], found["last_build"]) == (0, None)
    assert found["advice"][0].startswith(
        f"{db_path} holds nothing yet: no build of it has finished (the first may still be"
    )


def test_status_and_find_during_a_first_build_say_it_is_running(tmp_path, claude_home):
    """A first build writes every row in one transaction: until it ends, status showed 0 of
    everything and "the first may still be running, or was stopped", find the same."""
    db_path = tmp_path / "index.db"
    pdb.connect(db_path).close()  # the schema, which a first build commits before its rows
    with pbuild.build_lock(db_path):  # as the build holds it, from start to end
        found = status_json(db_path)
        text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).output
        find = CliRunner().invoke(cli.cli, ["find", "ENOENT", str(db_path)])
    running = queries.UNBUILT_RUNNING.format(path=db_path)
    assert (found["build_running"], found["advice"][0]) == (True, running)
    assert "\nbuild:      running now\n" in text and running in text
    assert (find.exit_code, find.output) == (1, f"Error: {running}\n")
    after = status_json(db_path)  # the lock is free again: stopped, not running
    assert after["build_running"] is False and "may still be running" in after["advice"][0]


def test_status_after_a_stopped_build_lists_what_it_was_given(tmp_path, claude_home, monkeypatch):
    """A first build stopped by Ctrl-C (a new user's, nu47 finding 6) left status listing
    the default folders, which it was not given, as the index's sources: now those of its
    --source, marked as its latest build's that did not finish. A later build stopped after
    it stored some files had their sources "not read by the last build"."""
    (claude_home / "projects").mkdir()  # a default folder, which no build here reads
    backup = tmp_path / "backup"
    for sid, folder in ((A, "one"), (B, "two"), (C, "two")):
        write_jsonl(
            backup / folder / "-home-dev-app" / f"{sid}.jsonl",
            failing_session(sid, 3, "ENOENT x", "Create it"),
        )
    one, two = backup / "one", backup / "two"
    db_path = tmp_path / "index.db"

    def interrupted(_):  # Ctrl-C, as it lands in the build
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pbuild.build(db_path, [one], progress=interrupted)
    found = status_json(db_path)
    assert (found["last_build"], found["build_running"]) == (None, False)
    assert [(s["path"], s["read_by_stopped_build"]) for s in found["sources"]] == [(str(one), True)]
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    assert (
        f"source:     {one} (claude, 0 files indexed, 0 of them deleted since, its latest" in text
    )
    assert str(claude_home / "projects") not in text
    pbuild.build(db_path, [one])
    found = status_json(db_path)
    assert [(s["path"], s["read_by_stopped_build"]) for s in found["sources"]] == [
        (str(one), False)
    ]
    stored = []

    def after_one(_):  # after the first file is stored
        stored.append(1)
        if len(stored) > 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(pbuild, "GROUP_SECONDS", 0)  # each file its own transaction
    with pytest.raises(KeyboardInterrupt):
        pbuild.build(db_path, [one, two], progress=after_one)
    assert len(findable(db_path)[0]) == 2  # it stored one of two's files
    found = status_json(db_path)
    assert found["last_build"]["sources"] == [{"path": str(one), "agent": "claude"}]
    assert [(s["path"], s["read_by_stopped_build"]) for s in found["sources"]] == [
        (str(one), True),
        (str(two), True),
    ]
    text = CliRunner().invoke(cli.cli, ["status", str(db_path)]).stdout
    assert "not read by the last build" not in text
    assert text.count("its latest build did not finish") == 2


def test_status_during_a_first_build_lists_the_sources_it_reads(tmp_path, claude_home):
    """A first build commits nothing before its end: status listed the default folders
    (~/.claude/projects, which this build does not read), not its --source and --codex."""
    (claude_home / "projects").mkdir()  # a default folder, which this build does not read
    sessions = tmp_path / "backup" / "codex"
    shutil.copytree(FIXTURES / "codex" / "sessions", sessions)
    projects = tmp_path / "backup" / "claude"
    write_jsonl(
        projects / "-home-dev-app" / f"{A}.jsonl", failing_session(A, 3, "ENOENT x", "Create it")
    )
    db_path = tmp_path / "index.db"
    reading, seen, done = threading.Event(), [], []

    def progress(_):  # inside the build's one transaction, holding its lock
        if not reading.is_set():
            reading.set()
            seen.append(
                (status_json(db_path), CliRunner().invoke(cli.cli, ["status", str(db_path)]))
            )

    def run():
        done.append(pbuild.build(db_path, [sessions, projects], progress=progress))

    build = threading.Thread(target=run)
    build.start()
    build.join(60)
    assert done and done[0].mode == "fresh"
    found, text = seen[0]
    given = [{"path": str(sessions), "agent": "codex"}, {"path": str(projects), "agent": "claude"}]
    assert (found["build_running"], found["last_build"], found["build_sources"]) == (
        True,
        None,
        given,
    )
    assert [{"path": s["path"], "agent": s["agent"]} for s in found["sources"]] == given
    assert (
        f"\nbuild:      running now, reading {sessions} (codex), {projects} (claude)\n"
        in text.output
    )
    assert f"source:     {sessions} (codex, 0 files indexed" in text.output
    assert str(claude_home / "projects") not in text.output
    after = status_json(db_path)  # ended: the sources its last_build recorded
    assert (after["build_running"], after["build_sources"]) == (False, None)
    assert [(s["path"], s["files"]) for s in after["sources"]] == [
        (str(sessions), 1),
        (str(projects), 1),
    ]


@pytest.mark.slow
def test_status_while_a_real_first_build_runs(tmp_path, claude_home):
    projects = tmp_path / "projects"
    for i in range(80):  # ~32 MB: a fresh build of a second or more
        sid = f"{i:08d}-0000-4000-8000-000000000000"
        session = failing_session(sid, 60, f"ENOENT file{i} missing " + "z" * 2000, "Create it")
        write_jsonl(projects / f"-home-dev-p{i % 5}" / f"{sid}.jsonl", session)
    db_path = tmp_path / "index.db"
    args = [sys.executable, "-m", "pastfix", "build", str(db_path), "--source", str(projects)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    build = subprocess.Popen([*args, "-s"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        found: dict = {"problem": "not created yet"}
        while found.get("problem"):  # until the schema is committed
            assert build.poll() is None, build.stderr.read()
            time.sleep(0.05)
            if db_path.exists():
                found = status_json(db_path)
        if build.poll() is not None:
            pytest.skip("the build ended before status read the index")
        assert found["build_running"] is True
        assert found["advice"][0] == queries.UNBUILT_RUNNING.format(path=db_path)
    finally:
        build.communicate(timeout=120)
    assert build.returncode == 0
    assert status_json(db_path)["build_running"] is False


def test_status_of_a_file_that_is_not_an_index(tmp_path, claude_home):
    path = tmp_path / "notes.db"
    path.write_bytes(b"not sqlite at all" * 10)
    result = CliRunner().invoke(cli.cli, ["status", str(path)])
    assert result.exit_code == 1
    # What find says of it too.
    assert result.stderr == f"Error: {path} is not a SQLite database\n"


def test_status_of_another_programs_database_says_only_that(tmp_path, claude_home):
    """Another program's SQLite database was shown as an empty index: `holds: 0 sessions`,
    the default folders as its sources, and advice to chmod 600 a file that "holds your
    history", before the line that said it is not a pastfix index; then (flt39) the
    index's, the hook's and MCP's lines with that line last, exit 0 (a new user, nu47
    finding 9). Now it is that line alone, exit 1, as find says it, in JSON too."""
    path = tmp_path / "notes.db"
    sqlite3.connect(path).execute("CREATE TABLE notes (text)").connection.close()
    path.chmod(0o644)
    said = f"Error: {path} is not a pastfix index (see `pastfix build --help`)\n"
    for json_ in ([], ["--json"]):
        result = CliRunner().invoke(cli.cli, ["status", str(path), *json_])
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", said)
    result = CliRunner().invoke(cli.cli, ["find", "--db", str(path), "ImportError: no x"])
    assert (result.exit_code, result.stderr) == (1, said)
    # a first build's file before it commits the schema: the build is said, not an error
    with pbuild.build_lock(path, sources=[(tmp_path, "claude")]):
        result = CliRunner().invoke(cli.cli, ["status", str(path)])
    assert result.exit_code == 0, result.output
    assert f"build:      running now, reading {tmp_path} (claude)" in result.stdout
    assert queries.UNBUILT_RUNNING.format(path=path) in result.stdout


def test_find_says_a_session_cannot_be_resumed_when_its_transcript_is_gone(tmp_path, projects):
    paths = corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    paths[A].unlink()
    build_index(db_path, projects)
    [(since,)] = sqlite3.connect(db_path).execute(
        "SELECT transcript_deleted_at FROM sessions WHERE session_id = ?", [A]
    )
    result = CliRunner().invoke(cli.cli, ["find", ERRORS[A], str(db_path)])
    assert result.exit_code == 0, result.output
    assert (
        f"resume: claude --resume {A} (transcript deleted on {since[:10]}; kept in the index)"
        in result.stdout
    )
    result = CliRunner().invoke(cli.cli, ["find", ERRORS[B], str(db_path)])
    assert f"resume: claude --resume {B}\n" in result.stdout + "\n"


def test_status_names_each_agents_hook_where_that_agent_is_used(tmp_path, fake_home):
    from pastfix import agents

    others = [name for name in agents.NAMES if name != agents.CLAUDE]
    assert status_json(tmp_path / "index.db")["agent_hooks"] == []
    for name in others:
        agents.reader(name).default_folders()[0].mkdir(parents=True, exist_ok=True)
    found = status_json(tmp_path / "index.db")["agent_hooks"]
    assert [(h["agent"], h["installed"]) for h in found] == [(n, False) for n in others]
    for name in others:
        db = str(tmp_path / "index.db")
        result = CliRunner().invoke(cli.cli, ["hook", "install", "--agent", name, "--db", db])
        assert result.exit_code == 0, result.output
    found = status_json(tmp_path / "index.db")["agent_hooks"]
    assert [(h["agent"], h["installed"]) for h in found] == [(n, True) for n in others]
    text = CliRunner().invoke(cli.cli, ["status", str(tmp_path / "index.db")]).stdout
    assert f"hook:       installed for {agents.label(others[-1])} in" in text
    # each hook's index, as its file names it
    assert [h["index"] for h in found] == [str(tmp_path / "index.db")] * len(others)
    assert not [line for line in status_json(tmp_path / "index.db")["advice"] if "s hook" in line]
    # installed with another index, not built: named, and the advice says to build it
    other = tmp_path / "other.db"
    for name in others:
        result = CliRunner().invoke(
            cli.cli, ["hook", "install", "--agent", name, "--db", str(other)]
        )
        assert result.exit_code == 0, result.output
    found = status_json(tmp_path / "index.db")
    assert [h["index"] for h in found["agent_hooks"]] == [str(other)] * len(others)
    assert [line for line in found["advice"] if "s hook reads" in line] == [
        f"{agents.label(name)}'s hook reads {other}, which is not built: until a session's end"
        f" builds it, the hook recalls nothing; run pastfix build {other}"
        for name in others
    ]
    text = CliRunner().invoke(cli.cli, ["status", str(tmp_path / "index.db")]).stdout
    assert f"(it reads {other}, not this index)" in text
    for name in others:
        CliRunner().invoke(cli.cli, ["hook", "uninstall", "--agent", name])
    found = status_json(tmp_path / "index.db")["agent_hooks"]
    assert [h["installed"] for h in found] == [False] * len(others)


@pytest.mark.parametrize(
    "agent, name, read_for, text, told",
    [
        ("gemini", ".gemini/settings.json", {"hook", "mcp"}, "{bad", "is not valid JSON ("),
        ("copilot", ".copilot/hooks/pastfix.json", {"hook"}, "{bad", "is not valid JSON ("),
        ("copilot", ".copilot/mcp-config.json", {"mcp"}, "[1]", "does not hold a JSON object"),
        ("codex", ".codex/hooks.json", {"hook"}, "{bad", "is not valid JSON ("),
        # what hook install refuses: status said "not installed", no problem named
        ("codex", ".codex/hooks.json", {"hook"}, '{"hooks": [1, 2]}', 'holds "hooks" that are'),
        ("codex", ".codex/config.toml", {"mcp"}, "[mcp_servers", "is not valid TOML ("),
        ("claude", ".claude.json", {"mcp"}, "{bad", "is not valid JSON ("),
        ("opencode", ".config/opencode/opencode.json", {"mcp"}, "{bad", "is not valid JSON ("),
        # a number of over 4,300 digits, which Python's int() refuses: a ValueError traceback
        (
            "gemini",
            ".gemini/settings.json",
            {"hook", "mcp"},
            "[" + "9" * 5000 + "]",
            "is not valid JSON (",
        ),
        ("codex", ".codex/config.toml", {"mcp"}, "a = " + "9" * 5000, "is not valid TOML ("),
        # Gemini CLI reads JSON with comments: such a file is not said to be broken.
        (
            "gemini",
            ".gemini/settings.json",
            {"hook", "mcp"},
            '{\n  // mine\n  "a": 1\n}',
            "has comments (line 2): pastfix reads and writes plain JSON only, so remove them first",
        ),
    ],
)
def test_status_says_an_agents_config_it_cannot_read(
    tmp_path, fake_home, agent, name, read_for, text, told
):
    """With ~/.gemini/settings.json not JSON, status said 'hook: not installed for Gemini
    CLI' and 'mcp: not installed', as of a file it had read; Claude Code's settings alone
    had a note."""
    from pastfix import agents

    path = fake_home / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    found = status_json(tmp_path / "index.db")
    said = [h["problem"] for h in found["agent_hooks"] if "problem" in h]
    said += [p["problem"] for p in found["mcp"]["problems"] if p["agent"] == agent]
    assert len(said) == len(read_for) and len(set(said)) == 1, found
    problem = said[0]
    assert problem.startswith(f"{path} {told}")
    hooks = [h for h in found["agent_hooks"] if h["where"] == str(path)]
    assert [h.get("problem") for h in hooks] == ([problem] if "hook" in read_for else [])
    mcp = [p for p in found["mcp"]["problems"] if p["config"] == str(path)]
    assert [(p["agent"], p["problem"]) for p in mcp] == (
        [(agent, problem)] if "mcp" in read_for else []
    )
    lines = CliRunner().invoke(cli.cli, ["status", str(tmp_path / "index.db")]).stdout
    lines = [line for line in lines.splitlines() if problem in line]
    expected = []
    if "hook" in read_for:
        expected.append(
            f"hook:       not installed for {agents.label(agent)} in {path} ({problem})"
        )
    if "mcp" in read_for:
        expected.append(f"mcp:        not read for {agents.label(agent)}: {problem}")
    assert lines == expected
    path.write_text("{}" if path.suffix == ".json" else "")
    found = status_json(tmp_path / "index.db")
    assert found["mcp"]["problems"] == []
    assert not any("problem" in h for h in found["agent_hooks"])


def test_status_gives_claude_codes_advice_only_where_claude_code_is_used(tmp_path, fake_home):
    """A machine with only Gemini CLI is not told how Claude Code deletes transcripts."""
    (fake_home / ".gemini").mkdir()
    found = status_json(tmp_path / "index.db")
    assert not any("cleanupPeriodDays" in line for line in found["advice"])
    (fake_home / ".claude").mkdir()
    found = status_json(tmp_path / "index.db")
    assert any("run pastfix hook install" in line for line in found["advice"])


# -- a transcript that shrinks or is rewritten keeps what it lost (the index is the archive) --

D = "dddddddd-dddd-4ddd-8ddd-dddddddddddd"
ROUNDS = 40


def long_session(projects):
    """One session of ROUNDS rounds, each failing with its own error word and then fixed."""
    path = projects / "-home-dev-d" / f"{D}.jsonl"
    lines = failing_session(D, ROUNDS, "ModuleNotFoundError: No module named 'zebracorn'", "Fix")
    for line in lines:
        if line.get("toolUseResult") and line["message"]["content"][0]["is_error"]:
            step = int(line["uuid"].rsplit("r", 1)[1])
            line["message"]["content"][0]["content"] += f" quagga{step}"
    return write_jsonl(path, lines)


def kept_state(db_path):
    """Every row a user can reach, with its file kind (the transcript, or a kept copy)."""
    conn = sqlite3.connect(db_path)
    try:
        return {
            "messages": conn.execute(
                "SELECT m.uuid, m.text, f.path LIKE '%#%' FROM messages m"
                " JOIN source_files f ON f.id = m.file_id ORDER BY m.uuid"
            ).fetchall(),
            "results": conn.execute(
                "SELECT tool_use_id, is_error, signature, kind FROM tool_results ORDER BY 1"
            ).fetchall(),
            "calls": conn.execute("SELECT tool_use_id FROM tool_calls ORDER BY 1").fetchall(),
            "fixes": conn.execute("SELECT * FROM fixes ORDER BY 1").fetchall(),
            "sessions": conn.execute(
                "SELECT session_id, message_count, tool_call_count, tool_error_count,"
                " transcript_deleted_at FROM sessions ORDER BY 1"
            ).fetchall(),
            "files": conn.execute(
                "SELECT path, missing_since IS NOT NULL, session_ids FROM source_files ORDER BY 1"
            ).fetchall(),
            "fts": conn.execute("SELECT count(*) FROM messages_fts").fetchone(),
            "errors_fts": conn.execute("SELECT count(*) FROM tool_errors_fts").fetchone(),
            "page": session_page(db_path),
        }
    finally:
        conn.close()


def session_page(db_path):
    """The session page of D, as its messages with their calls and results, in order."""
    conn = queries.connect(db_path)
    try:
        page = queries.session_page(conn, D, page_size=10_000)
    finally:
        conn.close()
    if page is None:
        return None
    return [
        (
            m["uuid"],
            [c["tool_use_id"] for c in m["tool_calls"]],
            [r["tool_use_id"] for c in m["tool_calls"] if (r := c.get("result"))]
            + [r["tool_use_id"] for r in m["tool_results"]],
        )
        for m in page["messages"]
    ]


def found_everywhere(db_path, step):
    """Whether the failure of round `step` is found by `pastfix find` and its fix text by
    messages_fts, once each."""
    result = CliRunner().invoke(cli.cli, ["find", f"quagga{step}", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    hits = [r["tool_use_id"] for r in json.loads(result.stdout)]
    conn = sqlite3.connect(db_path)
    words = conn.execute(
        "SELECT m.uuid FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid"
        " WHERE messages_fts MATCH ?",
        [f'"Fix for step {step}"'],
    ).fetchall()
    conn.close()
    return hits == [f"toolu_{D}_{step}"] and words == [(f"{D}-s{step}",)]


def truncate_to_half(path):
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 2]))


@pytest.mark.parametrize("rebuild", ["incremental", "forced", "forced in two processes"])
def test_a_transcript_truncated_to_half_keeps_every_row_it_lost(
    tmp_path, projects, rebuild, monkeypatch
):
    path = long_session(projects)
    corpus(projects)  # other sessions beside it, which stay as they were
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = kept_state(db_path)
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    truncate_to_half(path)
    if rebuild == "forced in two processes":
        monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
        monkeypatch.setattr(pbuild.os, "cpu_count", lambda: 2)
    stats = build_index(db_path, projects, force=rebuild != "incremental")
    if rebuild == "forced in two processes":
        assert stats.processes == 2
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    assert stats.rows_kept > 0 and stats.duplicates == 0
    after = kept_state(db_path)
    # the same rows, failures, signatures, fixes and counts, and the same session page,
    # each once; the cut ones under a kept copy
    assert [m[:2] for m in after["messages"]] == [m[:2] for m in before["messages"]]
    assert len(after["page"]) == len({m[0] for m in after["page"]}) == ROUNDS * 5 + 1
    for key in ("results", "calls", "fixes", "sessions", "fts", "errors_fts", "page"):
        assert after[key] == before[key], key
    cut = {uuid for uuid, _, kept in after["messages"] if kept}
    assert f"{D}-s{ROUNDS - 1}" in cut and f"{D}-p" not in cut
    assert (f"{path}#{D}", 1, json.dumps([D])) in after["files"]
    # idempotent: built again, incrementally and forced, nothing changes
    for force in (False, True, False):
        again = build_index(db_path, projects, force=force)
        assert (again.rows_kept, again.duplicates) == (0, 0)
        assert kept_state(db_path) == after
    conn = sqlite3.connect(db_path)
    conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)")
    conn.close()


def test_a_claude_code_message_cut_keeps_a_text_it_repeats(tmp_path, projects):
    """Claude Code says the same short thing many times in a session (`Done.`, a lone
    blank line): each is its own message, by its uuid. Cut from the transcript, every one
    is kept, not only those whose text the part left holds once (the rule by text is for
    agents whose ids number lines)."""
    path = projects / "-home-dev-d" / f"{D}.jsonl"
    lines = [say(f"{D}-done{i}", D, "Done.", f"2026-01-01T00:{i:02d}:00Z") for i in range(10)]
    write_jsonl(path, lines)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    truncate_to_half(path)
    stats = build_index(db_path, projects)
    assert stats.rows_kept == 5
    assert ", 5 rows that files no longer hold kept in " in cli.summary_line(stats)
    conn = sqlite3.connect(db_path)
    kept = conn.execute("SELECT count(*) FROM messages WHERE text = 'Done.'").fetchone()
    conn.close()
    assert kept == (10,)
    # status counts the transcript once, as a file with rows kept, and no file as deleted
    (source,) = status_json(db_path)["sources"]
    assert (source["files"], source["files_without_transcript"]) == (1, 0)
    assert source["files_with_rows_kept"] == 1


def test_a_result_rewritten_to_a_success_in_a_truncated_transcript_is_one(tmp_path, projects):
    path = long_session(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    lines = path.read_text().splitlines(keepends=True)[: ROUNDS * 5 // 2]
    middle = next(i for i, line in enumerate(lines) if f'"uuid": "{D}-r5"' in line)
    lines[middle] = lines[middle].replace('"is_error": true', '"is_error": false')
    path.write_text("".join(lines))
    build_index(db_path, projects)
    conn = sqlite3.connect(db_path)
    failed = {r[0] for r in conn.execute("SELECT tool_use_id FROM tool_results WHERE is_error")}
    [(errors,)] = conn.execute("SELECT tool_error_count FROM sessions")
    conn.close()
    assert f"toolu_{D}_5" not in failed
    assert failed == {f"toolu_{D}_{step}" for step in range(ROUNDS) if step != 5}
    assert errors == ROUNDS - 1
    assert not found_everywhere(db_path, 5)
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS) if step != 5)
    # a forced build of the same files changes nothing
    before = kept_state(db_path)
    build_index(db_path, projects, force=True)
    assert kept_state(db_path) == before


def test_the_lines_of_a_truncated_transcript_that_come_back_are_its_own_again(tmp_path, projects):
    path = long_session(projects)
    whole = path.read_text()
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = kept_state(db_path)
    truncate_to_half(path)
    build_index(db_path, projects)
    path.write_text(whole)  # restored from a backup
    stats = build_index(db_path, projects)
    assert kept_state(db_path) == before
    assert stats.duplicates == 0 and stats.to_dict().get("rows_kept") == 0
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects)
    assert kept_state(db_path) == kept_state(fresh)


def test_forget_removes_the_rows_kept_from_a_truncated_transcript(tmp_path, projects):
    path = long_session(projects)
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    truncate_to_half(path)
    build_index(db_path, projects)
    done = forget.forget(db_path, [D])
    assert [s["session_id"] for s in done.sessions] == [D]
    assert done.files_removed == 1  # the kept copy; the transcript's row stays, emptied
    assert b"quagga" not in db_path.read_bytes() + wal(db_path)
    conn = sqlite3.connect(db_path)
    for table in ("messages", "tool_calls", "tool_results", "session_meta", "fixes", "sessions"):
        assert conn.execute(
            f"SELECT count(*) FROM {table} WHERE session_id = ?", [D]
        ).fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM source_files WHERE path LIKE '%#%'").fetchone() == (
        0,
    )
    conn.close()
    assert not found_everywhere(db_path, ROUNDS - 1)
    build_index(db_path, projects)
    assert not found_everywhere(db_path, ROUNDS - 1)


@pytest.mark.parametrize("rebuild", ["incremental", "forced"])
def test_the_kept_rows_of_a_truncated_transcript_move_with_it(tmp_path, projects, rebuild):
    path = long_session(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    truncate_to_half(path)
    build_index(db_path, projects)
    before = kept_state(db_path)
    moved = projects / "-home-dev-renamed" / path.name
    moved.parent.mkdir()
    path.rename(moved)  # a renamed project folder
    stats = build_index(db_path, projects, force=rebuild == "forced")
    assert (stats.rows_kept, stats.duplicates, stats.files_missing) == (0, 0, 0)
    after = kept_state(db_path)
    assert after["files"] == [
        (str(moved), 0, json.dumps([D])),
        (f"{moved}#{D}", 1, json.dumps([D])),
    ]
    assert {k: v for k, v in after.items() if k != "files"} == {
        k: v for k, v in before.items() if k != "files"
    }
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))


def refuse_to_open(monkeypatch, path):
    """Make `path` fail to open, as a file without read permission does (tests run as root)."""
    real = pbuild._open_regular

    def open_regular(name):
        if name == str(path):
            raise PermissionError(13, "Permission denied", name)
        return real(name)

    monkeypatch.setattr(pbuild, "_open_regular", open_regular)


@pytest.mark.parametrize("rebuild", ["incremental", "forced", "forced in two processes"])
def test_a_new_file_that_cannot_be_read_keeps_what_a_truncated_one_lost(
    tmp_path, projects, rebuild, monkeypatch
):
    """A file that fails to open rolls back its own read: the rows other files set aside
    before (a forced build sets aside every cut file's first) are still put back."""
    path = long_session(projects)
    corpus(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = kept_state(db_path)
    truncate_to_half(path)
    new = write_jsonl(projects / "-home-dev-z" / "zzzz.jsonl", [say("z1", "zzzz", "hi", "t")])
    refuse_to_open(monkeypatch, new)
    if rebuild == "forced in two processes":
        monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
        monkeypatch.setattr(pbuild.os, "cpu_count", lambda: 2)
    stats = build_index(db_path, projects, force=rebuild != "incremental")
    assert any("zzzz.jsonl" in p and "cannot read" in p for p in stats.problem_examples)
    assert stats.rows_kept > 0
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    after = kept_state(db_path)
    for key in ("results", "calls", "fixes", "sessions", "fts", "errors_fts", "page"):
        assert after[key] == before[key], key


def fts_in_step(db_path):
    """Whether messages_fts indexes every message, and only those (FTS5's own check)."""
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)")
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
    return True


def test_a_transcript_cut_mid_line_then_completed_keeps_its_rows_searchable(tmp_path, projects):
    """Cut in the middle of a line (half of it left), the transcript's cut rows are kept;
    the line written out in full later is read as an append that takes its row back from
    the kept copy, whose other rows go back to it with new ids: those were below the
    highest id the read started from, so messages_fts never indexed them again (21 of a
    41-message session no longer found by their words)."""
    path = long_session(projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = kept_state(db_path)
    lines = path.read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    path.write_bytes(b"".join(lines[:half]) + lines[half][:40])
    build_index(db_path, projects)
    assert fts_in_step(db_path)
    path.write_bytes(b"".join(lines[: half + 1]))  # the line written out
    stats = build_index(db_path, projects)
    assert stats.duplicates == 0
    assert fts_in_step(db_path)
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    after = kept_state(db_path)
    for key in ("results", "calls", "fixes", "sessions", "fts", "errors_fts", "page"):
        assert after[key] == before[key], key
    for force in (False, True):
        build_index(db_path, projects, force=force)
        assert kept_state(db_path) == after


def test_status_counts_a_cut_transcript_deleted_since_as_one_file_deleted(tmp_path, projects):
    """The kept copy of a cut transcript is part of that file: gone with it, it is no second
    file deleted ('3 files indexed, 2 of them deleted since' of two transcripts, one gone)."""
    path = long_session(projects)
    write_jsonl(projects / "-home-dev-a" / f"{A}.jsonl", failing_session(A, 2, ERRORS[A], "Fixed"))
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    truncate_to_half(path)
    build_index(db_path, projects)
    path.unlink()
    build_index(db_path, projects)
    (source,) = status_json(db_path)["sources"]
    assert (source["files"], source["files_without_transcript"]) == (2, 1)
    assert source["files_with_rows_kept"] == 0
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    assert deleted(db_path) == [D]


@pytest.mark.parametrize("change", ["cut again", "restored"])
def test_a_transcript_read_in_many_chunks_takes_its_kept_rows_back_once(
    tmp_path, projects, monkeypatch, change
):
    """A transcript larger than a chunk (CHUNK_BYTES, 16 MB) whose rows a kept copy holds
    and another file shares (a resumed session's copy of its first lines): each chunk
    took the copy's rows back and put the unread ones back at once, and the next chunk's
    took them again, deleting from messages_fts rows it never held: the build failed,
    the index 'damaged' (FTS5), on every build after."""
    monkeypatch.setattr(pbuild, "CHUNK_BYTES", 4096)
    lines = failing_session(D, ROUNDS, "ModuleNotFoundError: No module named 'zebracorn'", "Fix")
    for line in lines:
        if line.get("toolUseResult") and line["message"]["content"][0]["is_error"]:
            line["message"]["content"][0]["content"] += f" quagga{line['uuid'].rsplit('r', 1)[1]}"
    path = write_jsonl(projects / "-home-dev-d" / f"{D}.jsonl", lines)
    write_jsonl(projects / "-home-dev-d" / "0-resumed.jsonl", lines[:5])  # first by path
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = kept_state(db_path)
    write_jsonl(path, lines[:100])
    build_index(db_path, projects)
    if change == "cut again":
        write_jsonl(path, lines[:80])
    else:
        write_jsonl(path, lines)  # from a backup
    build_index(db_path, projects)
    assert fts_in_step(db_path)
    assert all(found_everywhere(db_path, step) for step in range(ROUNDS))
    after = kept_state(db_path)
    for key in ("calls", "sessions", "fts", "errors_fts", "page"):
        assert after[key] == before[key], key
    build_index(db_path, projects, force=True)
    assert kept_state(db_path) == after


def test_status_says_the_cleanup_setting_is_unknown_when_it_cannot_be_read(tmp_path, claude_home):
    """A settings file that is not JSON, or a cleanupPeriodDays that is no number: status
    said `keeps transcripts 30 days (cleanupPeriodDays unset)`, then advised `pastfix hook
    install`, which refuses that file (a new user's try, session 25)."""
    from pastfix import status

    settings = claude_home / "settings.json"
    settings.write_text("{bad")
    found = status.status(tmp_path / "index.db")
    assert found["cleanup_period_days"] is None
    assert found["cleanup_problem"] == f"{settings} cannot be read"
    text = status.format_text(found)
    assert f"cleanup:    unknown ({settings} cannot be read)" in text
    advice = [line for line in found["advice"] if "hook install" in line]
    assert advice == [
        f"{found['hook']['problem']}; then pastfix hook install indexes Claude Code's sessions"
        " before it deletes them"
    ]
    settings.write_text('{"cleanupPeriodDays": "abc"}')
    found = status.status(tmp_path / "index.db")
    assert found["cleanup_problem"] == 'cleanupPeriodDays is "abc", not a number'
    settings.write_text('{"cleanupPeriodDays": 7}')
    found = status.status(tmp_path / "index.db")
    assert "cleanup_problem" not in found and found["cleanup_period_days"] == 7


def _counts(db):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT (SELECT count(*) FROM messages),"
            " (SELECT count(*) FROM tool_results WHERE is_error = 1)"
        ).fetchone()
    finally:
        conn.close()


SID_DUP = "d0d0d0d0-1111-4111-8111-111111111111"


def _indexed_by_a_link_then_cut(tmp_path):
    """A session of 10 failures indexed through a symlinked folder, then cut to 16 lines:
    the index, the real folder and the counts before the cut."""
    lines = failing_session(SID_DUP, 10, "Error: boom", "Retry")
    real = tmp_path / "real"
    path = write_jsonl(real / "-home-u-app" / f"{SID_DUP}.jsonl", lines)
    (tmp_path / "link").symlink_to(real)
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "link")
    before = _counts(db)
    write_jsonl(path, lines[:16])
    return db, real, before


def test_a_copy_of_a_session_in_another_source_cut_since_keeps_its_rows(tmp_path):
    """A session in two sources (a backup indexed once with --source): the live copy grows
    and the build is of its source only, while the backup was cut since. The duplicate
    repair read the backup again without setting its rows aside, and lost what it no longer
    held (30 messages and 10 failures became 16 and 5: a security test, session 33)."""
    lines = failing_session(SID_DUP, 10, "Error: boom", "Retry")
    backup = write_jsonl(tmp_path / "X" / "-home-u-app" / f"{SID_DUP}.jsonl", lines)
    live = write_jsonl(tmp_path / "Y" / "-home-u-app" / f"{SID_DUP}.jsonl", lines[:26])
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "X", tmp_path / "Y")
    before = _counts(db)
    assert before[1] == 10
    write_jsonl(backup, lines[:16])  # the backup cut
    write_jsonl(live, [say("late", SID_DUP, "one more", "2026-01-01T11:00:00Z")], mode="a")
    build_index(db, tmp_path / "Y")
    assert _counts(db) == (before[0] + 1, before[1])


def test_a_forced_build_of_a_file_stored_under_another_name_keeps_what_it_lost(tmp_path):
    """Indexed through a symlinked folder, then cut, then `--force` through the real folder:
    the stored file, the same one by inode, was cleared unread (30 messages and 10 failures
    became 15 and 5: a security test, session 33). It is set aside as a moved file is."""
    db, real, before = _indexed_by_a_link_then_cut(tmp_path)
    build_index(db, real, force=True)
    assert _counts(db) == before


def _store_rows(db):
    conn = sqlite3.connect(db)
    try:
        return (
            sorted(r[0] for r in conn.execute("SELECT path FROM source_files")),
            conn.execute("SELECT count(*) FROM session_meta").fetchone()[0],
            sorted(r[0] for r in conn.execute("SELECT path FROM problems")),
        )
    finally:
        conn.close()


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("how", ["through a link, then the real folder", "copied, the old removed"])
def test_a_store_indexed_under_a_new_path_is_stored_once(tmp_path, how, force):
    """The same store by a new path, the old one not given to the build: each file was stored
    a second time, its rows once (77 files became 154, session_meta doubled: a security
    test, session 33). Its rows are the file's under its new name, as a moved file's are."""
    real = tmp_path / "real"
    paths = corpus(real)
    e = "eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee"
    bad = write_jsonl(
        real / "-home-dev-a" / f"{e}.jsonl", [prompt("e1", e, "hello", "2026-01-01"), "not json"]
    )
    db = tmp_path / "index.db"
    if how.startswith("through a link"):
        (tmp_path / "link").symlink_to(real)
        build_index(db, tmp_path / "link")
        now = real
    else:
        build_index(db, real)
        now = tmp_path / "elsewhere"
        shutil.copytree(real, now)
        shutil.rmtree(real)
    before = findable(db)
    files, meta, problems = _store_rows(db)
    stats = build_index(db, now, force=force)
    assert stats.duplicates == 0
    assert _store_rows(db) == (
        sorted(str(now / p.relative_to(real)) for p in {*paths.values(), bad}),
        meta,
        [str(now / bad.relative_to(real))] * len(problems),
    )
    assert len(files) == len(paths) + 1 and len(problems) == 1
    fresh = tmp_path / "fresh.db"
    build_index(fresh, now)
    assert findable(db) == findable(fresh) == before


def test_a_copy_of_a_store_beside_it_is_a_copy(tmp_path):
    """A store copied while the old one is still there is two stores (a backup): the old
    file keeps its rows, and the copy is stored as the other file it is."""
    real = tmp_path / "real"
    paths = corpus(real)
    db = tmp_path / "index.db"
    build_index(db, real)
    shutil.copytree(real, tmp_path / "backup")
    build_index(db, tmp_path / "backup")
    assert len(_store_rows(db)[0]) == 2 * len(paths)


@pytest.mark.parametrize("force", [False, True])
def test_a_store_by_a_new_path_cut_since_is_stored_once_with_what_it_lost(tmp_path, force):
    """Indexed through a symlinked folder, cut, then built through the real folder: the file
    is the stored one by another name (its inode), so it is read again as a rewrite of it,
    what it no longer holds kept, not stored a second time beside it."""
    db, real, before = _indexed_by_a_link_then_cut(tmp_path)
    path = real / "-home-u-app" / f"{SID_DUP}.jsonl"
    build_index(db, real, force=force)
    assert _counts(db) == before
    conn = sqlite3.connect(db)
    assert conn.execute(
        "SELECT path, missing_since IS NOT NULL FROM source_files ORDER BY 1"
    ).fetchall() == [(str(path), 0), (f"{path}#{SID_DUP}", 1)]
    conn.close()
