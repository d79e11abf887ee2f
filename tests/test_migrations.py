import json
import shutil
import sqlite3
import zlib

import pytest
from corpus import CODEX_AGENT_MESSAGES
from jsonl import prompt, result, tool_use, write_jsonl
from sqlite_utils import Database

from pastfix import build as pbuild
from pastfix import db as pdb
from pastfix import fixes
from pastfix.migrations import migrations
from pastfix.records import TABLES


def undo_archive(conn):
    """Take m012_archive back out of a built index, as an older pastfix left it."""
    conn.execute("DROP INDEX idx_sessions_deleted")
    conn.execute("ALTER TABLE sessions DROP COLUMN transcript_deleted_at")
    conn.execute("ALTER TABLE source_files DROP COLUMN missing_since")
    # m012 and every migration after it (their names sort after it), as a build applies them
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm012_archive'")


def test_latest_migration_constant_matches():
    assert pdb.LATEST_MIGRATION == migrations._migrations[-1].name


def test_a_new_index_is_migrated_without_syncs_and_keeps_the_default_after(tmp_path):
    """A new file's migrations commit with synchronous=OFF (nothing to lose); the
    connection connect() returns has SQLite's default again, as an existing index's has."""
    conn = pdb.connect(tmp_path / "index.db")
    default = sqlite3.connect(":memory:").execute("PRAGMA synchronous").fetchone()[0]
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == default
    assert pdb.LATEST_MIGRATION in {
        r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations")
    }
    conn.close()


def test_blank_database_gets_full_schema():
    db = Database(memory=True)
    migrations.apply(db)
    assert set(db.table_names()) >= {
        "sessions",
        "messages",
        "tool_calls",
        "tool_results",
        "session_meta",
        "problems",
        "source_files",
        "messages_fts",
        "tool_errors_fts",
        "_sqlite_migrations",
    }
    assert db.table("tool_results").columns_dict == {
        "id": int,
        "tool_use_id": str,
        "session_id": str,
        "file_id": int,
        "line_no": int,
        "message_uuid": str,
        "timestamp": str,
        "is_error": int,
        "content": str,
        "content_length": int,
        "signature": str,
        "kind": str,
    }
    assert db.table("tool_results").pks == ["id"]
    assert db.table("messages").pks == ["id"]
    assert db.table("tool_calls").pks == ["tool_use_id"]
    indexes = {i.name: (i.columns, i.unique) for i in db.table("tool_results").indexes}
    assert indexes["idx_tr_session"] == (["session_id"], 0)
    assert indexes["idx_tr_errors"] == (["is_error", "id", "content"], 0)
    assert indexes["idx_tr_errors_time"] == (["timestamp"], 0)
    assert indexes["idx_tr_session_errors"] == (["session_id", "timestamp"], 0)
    assert indexes["idx_tr_signature"] == (["signature", "session_id", "kind"], 0)
    partial = db.execute("SELECT sql FROM sqlite_master WHERE name = 'idx_tr_errors'").fetchone()
    assert "WHERE is_error = 1" in partial[0]
    assert [c for c, u in indexes.values() if u] == [["tool_use_id"]]
    messages = {i.name: (i.columns, i.unique) for i in db.table("messages").indexes}
    assert messages["idx_messages_session"] == (["session_id", "timestamp", "file_id"], 0)
    # the archive of m011: when a file was found gone, and a session kept without one
    assert db.table("source_files").columns_dict["missing_since"] is str
    assert db.table("sessions").columns_dict["transcript_deleted_at"] is str
    sessions = {i.name: i.columns for i in db.table("sessions").indexes}
    assert sessions["idx_sessions_deleted"] == ["transcript_deleted_at"]


def test_reapplying_is_a_no_op(tmp_path):
    path = tmp_path / "index.db"
    pdb.connect(path).close()
    schema = sqlite3.connect(path).execute("SELECT sql FROM sqlite_master").fetchall()
    applied = [m.name for m in migrations.applied(Database(path))]
    pdb.connect(path).close()
    migrations.apply(Database(path))
    assert sqlite3.connect(path).execute("SELECT sql FROM sqlite_master").fetchall() == schema
    assert [m.name for m in migrations.applied(Database(path))] == applied


def test_upgrade_from_previous_schema_keeps_rows(tmp_path):
    path = tmp_path / "index.db"
    db = Database(path)
    migrations.apply(db, stop_before="m002_full_text")
    db.table("tool_results").insert(
        {"tool_use_id": "t1", "session_id": "s1", "is_error": 1, "content": "ENOENT"}
    )
    db.close()
    pdb.connect(path).close()
    db = Database(path)
    assert [m.name for m in migrations.applied(db)][-1] == pdb.LATEST_MIGRATION
    assert db.table("messages").detect_fts() == "messages_fts"
    assert [r["tool_use_id"] for r in db.table("tool_results").rows] == ["t1"]


def test_upgrade_to_covering_indexes_keeps_rows_and_search(tmp_path):
    path = tmp_path / "index.db"
    db = Database(path)
    migrations.apply(db, stop_before="m003_covering_indexes")
    db.table("tool_results").insert_all(
        [
            {"tool_use_id": "t1", "session_id": "s1", "is_error": 1, "content": "ENOENT: no file"},
            {"tool_use_id": "t2", "session_id": "s1", "is_error": 0, "content": "ENOENT listed"},
        ]
    )
    db.close()
    conn = pdb.connect(path)
    conn.execute("BEGIN")
    pdb.refresh_tool_errors_fts(conn)
    conn.execute("COMMIT")
    plan = conn.execute(
        "EXPLAIN QUERY PLAN SELECT id, content FROM tool_results WHERE is_error = 1 ORDER BY id"
    ).fetchall()
    hits = conn.execute(
        "SELECT tool_use_id FROM tool_results WHERE id IN"
        " (SELECT rowid FROM tool_errors_fts WHERE tool_errors_fts MATCH 'ENOENT')"
    ).fetchall()
    conn.close()
    assert "COVERING INDEX idx_tr_errors" in plan[0][-1]
    assert hits == [("t1",)]


def test_upgrade_sets_project_to_the_first_cwd(tmp_path):
    path = tmp_path / "index.db"
    db = Database(path)
    migrations.apply(db, stop_before="m004_project_is_first_cwd")
    db.table("sessions").insert_all(
        [
            {"session_id": "s1", "project": "/app/web"},  # the old rule: the most frequent cwd
            {"session_id": "s2", "project": "/decoded/from/dir"},  # no message records a cwd
        ]
    )
    db.table("messages").insert_all(
        [
            {"uuid": "u1", "session_id": "s1", "type": "user", "timestamp": "1", "cwd": "/app"},
            {"uuid": "u2", "session_id": "s1", "type": "user", "timestamp": "2", "cwd": "/app/web"},
            {"uuid": "u3", "session_id": "s1", "type": "user", "timestamp": "3", "cwd": "/app/web"},
            {"uuid": "u4", "session_id": "s2", "type": "user", "timestamp": "1", "cwd": ""},
        ]
    )
    db.close()
    pdb.connect(path).close()
    rows = sqlite3.connect(path).execute("SELECT session_id, project FROM sessions ORDER BY 1")
    assert rows.fetchall() == [("s1", "/app"), ("s2", "/decoded/from/dir")]


def test_redactions_table(tmp_path):
    db = Database(memory=True)
    migrations.apply(db)
    assert db.table("redactions").columns_dict == {
        "id": int,
        "file_id": int,
        "table_name": str,
        "row_key": str,
        "line_no": int,
        "column_name": str,
        "kind": str,
        "count": int,
    }
    assert [(i.name, i.columns) for i in db.table("redactions").indexes] == [
        ("idx_redactions_file", ["file_id"])
    ]
    assert [fk.other_table for fk in db.table("redactions").foreign_keys] == ["source_files"]


def test_upgrade_to_redactions_rebuilds_an_unredacted_index(tmp_path):
    """An index built before redaction existed holds secrets: the next build redacts them."""
    projects = tmp_path / "projects"
    key = "glpat-Xy7Zq2Wv9Ut4Rs1Pq8No"
    write_jsonl(projects / "p" / "s1.jsonl", [prompt("u1", "s1", f"key {key}", "2026-01-01")])
    path = tmp_path / "index.db"
    pbuild.build(path, [projects], redact=False)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM _build_state WHERE name = 'redact'")
    conn.commit()
    conn.close()
    stats = pbuild.build(path, [projects])
    assert (stats.mode, stats.redact_changed, stats.redactions) == ("forced", True, 1)
    text = sqlite3.connect(path).execute("SELECT text FROM messages").fetchall()
    assert text == [("key [REDACTED:gitlab-token]",)]


def test_upgrade_to_session_agent_marks_every_indexed_session_claude(tmp_path):
    projects = tmp_path / "projects"
    write_jsonl(projects / "p" / "s1.jsonl", [prompt("u1", "s1", "hello", "2026-01-01")])
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    undo_archive(conn)
    conn.execute("ALTER TABLE sessions DROP COLUMN agent")
    conn.execute("ALTER TABLE source_files DROP COLUMN agent")
    conn.execute("ALTER TABLE source_files DROP COLUMN prefix_crc")
    conn.execute("DROP TABLE fixes")
    _undo_m011(conn)
    conn.execute(
        "DELETE FROM _sqlite_migrations"
        " WHERE name IN ('m008_session_agent', 'm009_prefix_crc', 'm010_fixes')"
    )
    conn.commit()
    conn.close()
    db = pdb.open_database(path)
    assert db.table("sessions").columns_dict["agent"] is str
    assert list(db.execute("SELECT session_id, agent FROM sessions")) == [("s1", "claude")]
    assert list(db.execute("SELECT agent FROM source_files")) == [("claude",)]
    db.conn.close()


def test_a_file_indexed_before_prefix_crc_is_reread_whole_when_it_grows(tmp_path):
    projects = tmp_path / "projects"
    session = projects / "p" / "s1.jsonl"
    write_jsonl(session, [prompt("u1", "s1", "hello", "2026-01-01")])
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    undo_archive(conn)
    conn.execute("ALTER TABLE source_files DROP COLUMN prefix_crc")
    conn.execute("DROP TABLE fixes")
    _undo_m011(conn)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name IN ('m009_prefix_crc', 'm010_fixes')")
    conn.commit()
    conn.close()
    write_jsonl(session, [prompt("u2", "s1", "again", "2026-01-02")], "a")
    stats = pbuild.build(path, [projects])
    assert (stats.files_read, stats.new_lines) == (1, 2)  # read whole, not from the offset
    conn = sqlite3.connect(path)
    crc = conn.execute("SELECT prefix_crc FROM source_files").fetchone()[0]
    assert crc == zlib.crc32(session.read_bytes())
    conn.close()


def test_an_index_from_before_fixes_gets_them_at_its_next_build_without_reading_a_file(tmp_path):
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "p" / "s1.jsonl",
        [
            prompt("u1", "s1", "push it", "2026-01-01T00:00:00Z"),
            tool_use("a1", "s1", "t1", "Bash", {"command": "git push"}, "2026-01-01T00:00:01Z"),
            result("r1", "s1", "t1", "fatal: no upstream", "2026-01-01T00:00:01Z", True),
            tool_use(
                "a2",
                "s1",
                "t2",
                "Bash",
                {"command": "git push -u origin main"},
                "2026-01-01T00:00:02Z",
            ),
            result("r2", "s1", "t2", "ok", "2026-01-01T00:00:02Z", False),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    undo_archive(conn)
    conn.execute("DROP TABLE fixes")
    _undo_m011(conn)
    conn.execute("DELETE FROM _build_state WHERE name = 'fix_version'")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm010_fixes'")
    conn.commit()
    conn.close()
    stats = pbuild.build(path, [projects])
    assert stats.files_read == 0
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT tool_use_id, outcome, confirmed_by FROM fixes").fetchall() == [
        ("t1", "fixed", "t2")
    ]
    conn.close()


def _undo_m011(conn):
    """An index from before m011_persisted_outputs (the shortcut in db.connect skips
    migrations when the latest one is applied: undo_archive first)."""
    conn.execute("DROP TABLE _persisted_outputs")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm011_persisted_outputs'")


def test_an_index_from_before_persisted_outputs_rereads_transcripts_with_markers(tmp_path):
    from conftest import FIXTURES

    projects = tmp_path / "projects"
    shutil.copytree(FIXTURES / "persisted", projects)
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    # What an older pastfix stored: the marker, not the file's text.
    conn.execute(
        "UPDATE tool_results SET content = '<persisted-output>' || content"
        " WHERE tool_use_id = 'toolu_01PersistFail0000000001'"
    )
    undo_archive(conn)
    _undo_m011(conn)
    conn.commit()
    conn.close()
    stats = pbuild.build(path, [projects])
    assert stats.files_read == 1  # the transcript with the marker, not its subagent's
    conn = sqlite3.connect(path)
    [(content,)] = conn.execute(
        "SELECT content FROM tool_results WHERE tool_use_id = 'toolu_01PersistFail0000000001'"
    )
    assert content.endswith("ModuleNotFoundError: No module named 'shop.cart_totals'")
    conn.close()


def test_upgrade_to_the_archive_keeps_every_session_and_archives_what_is_gone(tmp_path):
    projects = tmp_path / "projects"
    kept = write_jsonl(projects / "p" / "s1.jsonl", [prompt("u1", "s1", "hello", "2026-01-01")])
    gone = write_jsonl(projects / "p" / "s2.jsonl", [prompt("u2", "s2", "bye", "2026-01-02")])
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    undo_archive(conn)
    conn.commit()
    conn.close()
    gone.unlink()
    stats = pbuild.build(path, [projects])
    assert (stats.files_read, stats.files_missing, stats.sessions_without_transcript) == (0, 1, 1)
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT s.session_id, s.transcript_deleted_at IS NULL, count(m.id) FROM sessions s"
        " JOIN messages m USING (session_id) GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert rows == [("s1", 1, 1), ("s2", 0, 1)]
    conn.close()
    assert kept.exists()


def _schema(conn):
    """What makes two indexes' schemas the same: every object, and the migrations applied."""
    objects = sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    names = sorted(
        r[0] for r in conn.execute("SELECT migration_set || ' ' || name FROM _sqlite_migrations")
    )
    config = sorted(conn.execute("SELECT * FROM messages_fts_config"))
    return objects, names, config, conn.execute("PRAGMA page_size").fetchone()[0]


def test_the_write_paths_table_spec_names_every_stored_column(tmp_path):
    """Each table a build writes (pastfix.records.TABLES) binds every column the migrations
    made but its rowid, each once, and a record field for each column: a migration that
    adds a column the spec does not write, or a field the table has no column for, fails."""
    conn = pdb.connect(tmp_path / "index.db")
    for table in TABLES:
        stored = [r[1] for r in conn.execute(f"PRAGMA table_info({table.name})") if r[1] != "id"]
        assert sorted(stored) == sorted(["file_id", *table.columns]), table.name
        if table.data:  # bound as (file_id, *row)
            assert table.columns == table.record._fields, table.name
        fields = set(table.record._fields)
        named = {table.key, *table.text, *table.json, *table.repeated}
        assert named - {None} <= fields, table.name
        assert {column for column, _, _ in table.cuts} <= set(table.text), table.name


def test_the_schema_script_is_what_the_migrations_make():
    from pastfix.migrations import schema_script

    assert pdb.SCHEMA_SCRIPT.read_text() == schema_script(), (
        "pastfix/schema.sql is out of date: python -m pastfix.migrations > pastfix/schema.sql"
    )


def test_a_new_index_made_from_the_script_equals_a_migrated_one(tmp_path):
    """connect() makes a new index from pastfix/schema.sql without sqlite-utils: the same
    objects, the same migrations recorded, as running every migration on an empty file."""
    made = pdb.connect(tmp_path / "made.db")
    migrated_conn = sqlite3.connect(tmp_path / "migrated.db", isolation_level=None)
    migrated_conn.execute(f"PRAGMA page_size={pdb.PAGE_SIZE}")
    migrations.apply(Database(migrated_conn))
    assert _schema(made) == _schema(migrated_conn)
    assert len(_schema(made)[1]) == len(migrations._migrations)


def test_a_script_older_than_the_migrations_gets_the_rest_applied(tmp_path, monkeypatch):
    """A script made before the newest migration leaves connect() to apply that one."""
    from sqlite_utils import Migrations

    from pastfix.migrations import schema_script

    older = Migrations("pastfix")
    older._migrations = migrations._migrations[:-1]
    script = tmp_path / "schema.sql"
    script.write_text(schema_script(older))
    monkeypatch.setattr(pdb, "SCHEMA_SCRIPT", script)
    conn = pdb.connect(tmp_path / "index.db")
    migrated = sqlite3.connect(tmp_path / "migrated.db", isolation_level=None)
    migrated.execute(f"PRAGMA page_size={pdb.PAGE_SIZE}")
    migrations.apply(Database(migrated))
    assert _schema(conn)[:2] == _schema(migrated)[:2]


def test_without_the_schema_script_a_new_index_is_migrated(tmp_path, monkeypatch):
    """An install that lost pastfix/schema.sql still makes a new index, by the migrations."""
    monkeypatch.setattr(pdb, "SCHEMA_SCRIPT", tmp_path / "missing.sql")
    conn = pdb.connect(tmp_path / "index.db")
    migrated = sqlite3.connect(tmp_path / "migrated.db", isolation_level=None)
    migrated.execute(f"PRAGMA page_size={pdb.PAGE_SIZE}")
    migrations.apply(Database(migrated))
    assert _schema(conn)[:2] == _schema(migrated)[:2]


@pytest.mark.parametrize(
    "since",
    [
        "m013_codex_reread",
        "m014_codex_reread_0118",
        "m015_codex_agent_messages",
        "m016_codex_running",
        "m018_codex_sandbox_failures",
        "m019_codex_aborted",
        "m021_codex_patch_errors",
        "m022_codex_aborted_after_wall_time",
        "m024_codex_bare_aborted",
    ],
)
def test_an_index_from_before_the_codex_reread_reads_every_rollout_again(tmp_path, since):
    """m013 to m016, m018, m019, m021, m022, m024: Codex results an older reader stored otherwise
    are read again, and Claude Code's files are not read."""
    from conftest import FIXTURES

    sessions = tmp_path / "sessions"
    shutil.copytree(FIXTURES / "codex" / "v0171", sessions)
    projects = tmp_path / "projects"
    write_jsonl(projects / "p" / "s1.jsonl", [prompt("u1", "s1", "hello", "2026-01-01")])
    path = tmp_path / "index.db"
    pbuild.build(path, [sessions, projects])
    conn = sqlite3.connect(path)
    failed = conn.execute("SELECT count(*) FROM tool_results WHERE is_error = 1").fetchone()[0]
    assert failed > 0
    # What the older reader stored: every Codex result a success.
    conn.execute("UPDATE tool_results SET is_error = 0")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= ?", [since])
    conn.commit()
    conn.close()
    stats = pbuild.build(path, [sessions, projects])
    rollouts = len(list(sessions.rglob("*.jsonl")))
    assert stats.files_read == rollouts
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM tool_results WHERE is_error = 1").fetchone()[0] == (
        failed
    )
    assert conn.execute("SELECT count(*) FROM source_files WHERE size < 0").fetchone()[0] == 0
    conn.close()
    assert pbuild.build(path, [sessions, projects]).files_read == 0


def test_an_index_from_before_agent_messages_reads_every_rollout_again(tmp_path):
    """m015: the messages between agents an older reader skipped are read again."""
    session = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
    meta = (
        '{"timestamp":"2026-12-01T18:40:00.000Z","type":"session_meta","payload":'
        f'{{"id":"{session}","cwd":"/home/dev/shop","cli_version":"0.171.0"}}}}'
    )
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    rollout = sessions / f"rollout-2026-12-01T18-40-00-{session}.jsonl"
    rollout.write_text("".join(line + "\n" for line in [meta, *CODEX_AGENT_MESSAGES]))
    path = tmp_path / "index.db"
    pbuild.build(path, [sessions])
    conn = sqlite3.connect(path)
    query = "SELECT count(*) FROM messages WHERE kind = 'agent_message'"
    assert conn.execute(query).fetchone()[0] == 4
    # What the older reader stored: no agent messages (skipped lines).
    conn.execute("DELETE FROM messages WHERE kind = 'agent_message'")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm015_codex_agent_messages'")
    conn.commit()
    conn.close()
    assert pbuild.build(path, [sessions]).files_read == 1
    conn = sqlite3.connect(path)
    assert conn.execute(query).fetchone()[0] == 4
    conn.close()
    assert pbuild.build(path, [sessions]).files_read == 0


def test_an_index_from_before_server_tool_results_reads_their_files_again(tmp_path):
    """m020: a file with lines an older reader skipped (an advisor's result, Claude Code
    2.1.232) is read again and gets what a fresh build stores; a file without is not."""
    from conftest import FIXTURES

    projects = tmp_path / "projects"
    (projects / "p").mkdir(parents=True)
    advised = projects / "p" / "advised.jsonl"
    shutil.copy(FIXTURES / "bad" / "unknown_block_type.jsonl", advised)
    write_jsonl(projects / "q" / "s1.jsonl", [prompt("u1", "s1", "hello", "2026-01-01")])
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    fresh = conn.execute("SELECT tool_use_id, content FROM tool_results").fetchall()
    assert fresh
    # What the older reader stored: the result's line skipped, and counted so.
    conn.execute("DELETE FROM tool_results")
    conn.execute("UPDATE source_files SET skipped_lines = 1 WHERE path = ?", [str(advised)])
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm020_skipped_reread'")
    conn.commit()
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 1
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT tool_use_id, content FROM tool_results").fetchall() == fresh
    assert conn.execute("SELECT sum(skipped_lines) FROM source_files").fetchone()[0] == 0
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 0


def test_a_tool_s_utf16_output_is_stored_readable_and_read_again_from_an_older_index(
    tmp_path,
):
    """cmd.exe's UTF-16 banner read as UTF-8 holds a NUL after each character: stored
    without them, its words can be found, and a `cmd.exe /c` that only opened a prompt
    is no fix of `cmake: command not found` (twenty-fourth held-out set: the card said
    "and that call succeeded"). m026: an index that stored the NULs reads the file again."""
    sid = "11111111-1111-4111-8111-111111111111"
    banner = "Microsoft Windows [Version 10.0.26200.7840]\r\n(c) Microsoft Corporation. All "
    banner += "rights reserved.\r\n\r\nC:\\Users\\me\\app>"
    wide = "".join(c + "\x00" for c in banner)
    at = "2026-01-01T10:00:0{}Z".format
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "-home-dev-app" / f"{sid}.jsonl",
        [
            tool_use("a1", sid, "t1", "Bash", {"command": "cmake --build build"}, at(0)),
            result("r1", sid, "t1", "Exit code 127\ncmake: command not found", at(1), True),
            tool_use(
                "a2", sid, "t2", "Bash", {"command": 'cmd.exe /c "cmake --build build"'}, at(2)
            ),
            result("r2", sid, "t2", wide, at(3), False),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    conn = sqlite3.connect(path)
    stored = "SELECT content FROM tool_results WHERE tool_use_id = 't2'"
    assert conn.execute(stored).fetchone()[0] == banner
    assert conn.execute("SELECT outcome FROM fixes WHERE tool_use_id = 't1'").fetchone()[0] == (
        fixes.NOT_FIXED
    )
    # What an older reader stored: the NULs.
    conn.execute("UPDATE tool_results SET content = ? WHERE tool_use_id = 't2'", [wide])
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm026_nul_text'")
    conn.commit()
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 1
    conn = sqlite3.connect(path)
    assert conn.execute(stored).fetchone()[0] == banner
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 0


def test_an_index_from_a_newer_pastfix_is_read_but_not_written(tmp_path):
    """A migration this pastfix does not know: builds and forget refuse with one line and
    change nothing (they wrote rows without what the newer schema adds); find still reads."""
    from click.testing import CliRunner

    from pastfix.cli import cli

    sid = "11111111-1111-4111-8111-111111111111"
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "-home-dev-app" / f"{sid}.jsonl",
        [
            tool_use("a1", sid, "t1", "Bash", {"command": "ls"}, "2026-01-01T10:00:00Z"),
            result("r1", sid, "t1", "ENOENT: no such file", "2026-01-01T10:00:01Z", True),
        ],
    )
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [projects])
    conn = sqlite3.connect(db_path)
    conn.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
        " VALUES ('pastfix', 'm999_from_the_future', '2027-01-01')"
    )
    conn.commit()
    conn.close()
    write_jsonl(
        projects / "-home-dev-app" / f"{sid}.jsonl",
        [prompt("p2", sid, "later", "2026-01-01T11:00:00Z")],
        mode="a",
    )
    before = db_path.read_bytes()
    error = (
        f"Error: {db_path} was built by a newer pastfix (migration m999_from_the_future):"
        " upgrade pastfix to write to it; pastfix find and Datasette can still read it\n"
    )
    for args in (["build", str(db_path), "--source", str(projects)], ["forget", str(db_path)]):
        got = CliRunner().invoke(cli, [*args, "--missing"] if args[0] == "forget" else args)
        assert (got.exit_code, got.stderr) == (1, error)
        assert db_path.read_bytes() == before
    found = CliRunner().invoke(cli, ["find", "ENOENT: no such file", str(db_path)])
    assert found.exit_code == 0 and "ENOENT" in found.stdout


def stored_title(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT title FROM sessions").fetchone()[0]


def built_again_from(path, projects, stale, since):
    """The title a build gives an index whose session is titled `stale`, as an older pastfix
    built it, and which lacks the migrations from `since` on; no file is read again."""
    conn = sqlite3.connect(path)
    conn.execute("UPDATE sessions SET title = ?", [stale])
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= ?", [since])
    conn.commit()
    conn.close()
    stats = pbuild.build(path, [projects])
    assert stats.files_read == 0  # nothing read again: the migration gave the title
    return stored_title(path)


def test_the_interrupted_marker_is_no_title_built_or_migrated(tmp_path):
    """Claude Code writes `[Request interrupted by user for tool use]` as a user message
    after a rejected call; in a session begun by a slash command it was the first prompt,
    so the session's title (3 sessions of 2 people in a held-out set). A build now takes
    the first typed prompt, and m016 gives it to an index an older pastfix built."""
    sid = "5e551011-0000-4000-8000-000000000001"
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl",
        [
            prompt("u1", sid, "<command-name>/init</command-name>", "2026-01-01T00:00:00Z"),
            prompt("u2", sid, "[Request interrupted by user for tool use]", "2026-01-01T00:00:01Z"),
            prompt("u3", sid, "use Fish, not zsh", "2026-01-01T00:00:02Z"),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    assert stored_title(path) == "use Fish, not zsh"
    marker = "[Request interrupted by user for tool use]"
    assert built_again_from(path, projects, marker, "m016") == "use Fish, not zsh"


@pytest.mark.parametrize(
    "typed, title",
    [
        (
            "\n## User Input\n\n```text\nuser story 2\n```\n\nYou **MUST** consider the user input"
            " before proceeding (if not empty).\n\n## Outline\n\n1. Run `.specify/scripts/x.sh`",
            "user story 2",
        ),
        # spec-kit run without input: the next prompt titles the session
        ("## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input", "go on"),
    ],
)
def test_a_tools_boilerplate_is_no_title_built_or_migrated(tmp_path, typed, title):
    """A session begun by a spec-kit command is titled with what the user typed in that
    boilerplate (5 Codex sessions of 2 people in two held-out sets were titled `## User
    Input ```text ...`); m017 retitles an older index's (Codex's IDE extension: test_codex)."""
    sid = "5e551011-0000-4000-8000-000000000002"
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl",
        [
            prompt("u1", sid, typed, "2026-01-01T00:00:00Z"),
            prompt("u2", sid, "go on", "2026-01-01T00:00:02Z"),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    assert stored_title(path) == title
    assert built_again_from(path, projects, typed[:200], "m017") == title


def test_a_session_of_boilerplate_alone_keeps_its_first_prompt_as_title(tmp_path):
    """A spec-kit command run without input, and nothing typed after: the title is the
    prompt as it is, not none."""
    sid = "5e551011-0000-4000-8000-000000000003"
    projects = tmp_path / "projects"
    typed = "## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input"
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl", [prompt("u1", sid, typed, "2026-01-01T00:00:00Z")]
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT title FROM sessions").fetchone()[0] == typed


def test_a_slash_command_titles_its_session_before_a_subagents_task(tmp_path):
    """Claude Code 1.0.x kept subagents' turns in the session's file: a session begun by a
    slash command given arguments was titled by its first subagent's task, or by a prompt
    typed later (new users' tries, session 27); the command as typed titles it, and m023
    retitles an older index's. A command without arguments (`/clear`) titles none."""
    sid = "5e551011-0000-4000-8000-000000000004"
    projects = tmp_path / "projects"
    command = (
        "<command-message>orchestrator is running…</command-message>\n"
        "<command-name>/orchestrator</command-name>\n"
        "<command-args>@CLAUDE.md update it</command-args>"
    )
    task = "Examine the package.json file(s) in /w/app and report the scripts"
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl",
        [
            prompt("u1", sid, command, "2026-01-01T00:00:00Z"),
            prompt("u2", sid, task, "2026-01-01T00:00:02Z", isSidechain=True),
            # typed an hour later: not what the session was begun for
            prompt("u3", sid, "Thanks! Please update CLAUDE.md", "2026-01-01T01:00:00Z"),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    assert stored_title(path) == "/orchestrator @CLAUDE.md update it"
    assert built_again_from(path, projects, task, "m023") == "/orchestrator @CLAUDE.md update it"
    bare = command.replace("@CLAUDE.md update it", "")
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl",
        [
            prompt("u1", sid, bare, "2026-01-01T00:00:00Z"),
            prompt("u3", sid, "Thanks! Please update CLAUDE.md", "2026-01-01T01:00:00Z"),
        ],
    )
    pbuild.build(path, [projects], force=True)
    assert stored_title(path) == "Thanks! Please update CLAUDE.md"


def test_an_index_from_before_forgotten_keys_keeps_no_forgotten_transcript_s_name(tmp_path):
    """m029: `pastfix forget` kept a forgotten transcript still on disk under its path, its
    session_id and project_dir (nu41: they named the user, the project and the session). The
    row gets the name forget gives it now, all else as it was: the next build reads nothing,
    and the session going on is read alone, under the file's name again. A build's rows of
    files that hold no session (empty, bad lines) keep theirs."""
    from pastfix import forget

    gone, kept = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
    projects = tmp_path / "projects"
    forgotten = write_jsonl(
        projects / "-home-dev-zebracorn" / f"{gone}.jsonl",
        [prompt("u1", gone, "the zebracorn plan", "2026-01-01T00:00:00Z")],
    )
    write_jsonl(
        projects / "-home-dev-app" / f"{kept}.jsonl",
        [prompt("u2", kept, "hello", "2026-01-01T00:00:00Z")],
    )
    (projects / "-home-dev-app" / "empty.jsonl").write_text("")
    (projects / "-home-dev-app" / "bad.jsonl").write_text("not json\n")
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    forget.forget(path, [gone])
    conn = sqlite3.connect(path)
    key = pbuild.forgotten_key(str(forgotten))
    now = conn.execute("SELECT * FROM source_files WHERE path = ?", [key]).fetchone()
    rest = "SELECT * FROM source_files WHERE path != ? ORDER BY id"
    others = conn.execute(rest, [key]).fetchall()
    # What an older forget left: the row under the file's path, with its session and folder.
    conn.execute(
        "UPDATE source_files SET path = ?, session_id = ?, project_dir = ? WHERE path = ?",
        [str(forgotten), gone, "-home-dev-zebracorn", key],
    )
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm029_forgotten_by_no_name'")
    conn.commit()
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 0
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT * FROM source_files WHERE path = ?", [key]).fetchone() == now
    assert conn.execute(rest, [key]).fetchall() == others
    conn.close()
    index = path.read_bytes()
    assert gone.encode() not in index and b"zebracorn" not in index
    # the session goes on: only what it wrote since is read, under the file's name again
    with forgotten.open("a") as f:
        f.write(json.dumps(prompt("u3", gone, "back again", "2026-02-01T00:00:00Z")) + "\n")
    assert pbuild.build(path, [projects]).files_read == 1
    conn = sqlite3.connect(path)
    assert conn.execute(
        "SELECT text FROM messages WHERE session_id = ? ORDER BY id", [gone]
    ).fetchall() == [("back again",)]
    assert conn.execute("SELECT count(*) FROM source_files WHERE path = ?", [key]).fetchone() == (
        0,
    )
    conn.close()


def test_an_index_from_before_reads_again_the_users_words_and_warmups_it_stored_as_failures(
    tmp_path,
):
    """m030: Claude Code 2.0.x's rejection with the user's words alone, and its warm-up
    subagent's calls refused with `Warmup`, were stored as failures (nu49 findings 1, 9): an
    older index reads those files again, and only those."""
    sid, other = "33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"
    said = "I made the db change.  Try running the test again"
    v = {"version": "2.0.2"}
    projects = tmp_path / "projects"
    write_jsonl(
        projects / "-w-app" / f"{sid}.jsonl",
        [
            prompt("p1", sid, "run the test", "2026-01-01T00:00:00Z", **v),
            tool_use(
                "u1", sid, "t1", "Bash", {"command": "yarn test"}, "2026-01-01T00:01:00Z", **v
            ),
            result("r1", sid, "t1", said, "2026-01-01T00:02:00Z", True, **v),
            tool_use("u2", sid, "t2", "Glob", {"pattern": "*"}, "2026-01-01T00:03:00Z", **v),
            result("r2", sid, "t2", "Warmup", "2026-01-01T00:03:00Z", True, **v),
        ],
    )
    write_jsonl(
        projects / "-w-app" / f"{other}.jsonl",
        [
            prompt("p2", other, "build", "2026-01-01T00:00:00Z"),
            tool_use("u3", other, "t3", "Bash", {"command": "make"}, "2026-01-01T00:01:00Z"),
            result(
                "r3",
                other,
                "t3",
                "Exit code 2\nmake: *** No targets.",
                "2026-01-01T00:01:00Z",
                True,
            ),
        ],
    )
    path = tmp_path / "index.db"
    pbuild.build(path, [projects])
    stored = "SELECT tool_use_id, is_error, kind, content FROM tool_results ORDER BY tool_use_id"
    conn = sqlite3.connect(path)
    now = conn.execute(stored).fetchall()
    assert [row[:3] for row in now] == [("t1", 1, "rejected"), ("t2", 0, None), ("t3", 1, "error")]
    # what an older build stored
    conn.execute(
        "UPDATE tool_results SET content = ?, kind = 'error' WHERE tool_use_id = 't1'", [said]
    )
    conn.execute("UPDATE tool_results SET is_error = 1, kind = 'error' WHERE tool_use_id = 't2'")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm030_claude_rejection_words'")
    conn.commit()
    conn.close()
    assert pbuild.build(path, [projects]).files_read == 1
    conn = sqlite3.connect(path)
    assert conn.execute(stored).fetchall() == now
    conn.close()
