"""opencode's history: the JSON storage tree (v0.5 and v0.6-v1.1 layouts) and opencode.db."""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REAL_CORPUS, build_index
from opencode_tree import copy_tree_into

from pastfix import agents, hook, install, opencode, signatures
from pastfix.cli import cli
from pastfix.lines import MAX_WHOLE_BYTES

DATA = Path(__file__).parent / "data" / "opencode"
STORAGE = DATA / "storage"
SESSION = "ses_5a1b2c3d4ffeAbCdEfGhIjKlMn"
DB_SESSION = "ses_3f2e1d0c9ffeZyXwVuTsRqPoNm"


def read_message(path: Path, storage: Path = STORAGE):
    parts = sorted(str(p) for p in (storage / "part" / path.stem).glob("*.json"))
    return opencode.parse_message_files(path.read_bytes(), tuple(parts))


def read_tree(storage: Path = STORAGE):
    """Every record of a storage tree, the way the build reads it: file by file."""
    batches = [
        opencode.parse_session_file(p.read_bytes()) for p in storage.glob("session/*/*.json")
    ]
    batches += [read_message(p, storage) for p in sorted(storage.glob("message/*/*.json"))]
    return batches


def merged(batches):
    out = opencode.Batch()
    for b in batches:
        for name in ("messages", "tool_calls", "tool_results", "meta", "problems"):
            getattr(out, name).extend(getattr(b, name))
    return out


def make_db(path: Path, script: Path = DATA / "opencode.sql") -> sqlite3.Connection:
    """The SQLite fixture as opencode keeps it: in WAL mode, its rows still in the WAL."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.executescript(script.read_text())
    return conn


# -- the JSON tree ------------------------------------------------------------------


def test_the_fixture_tree_gives_each_failure_with_the_text_the_model_got():
    batch = merged(read_tree())
    assert not batch.problems
    calls = {c.tool_use_id: c for c in batch.tool_calls}
    failed = {
        calls[r.tool_use_id].name + " " + r.content.splitlines()[0]: signatures.classify(r.content)
        for r in batch.tool_results
        if r.is_error
    }
    assert failed == {
        "bash Exit code 1": "error",  # completed, metadata.exit 1
        "read Error: File not found: /home/dev/webapp/src/quokka-widget.ts": "error",
        "edit Error: oldString not found in content": "string_not_found",
        "bash Error: The user rejected permission to use this specific tool call."
        " You may try again with different parameters.": "rejected",
        "write Error: Tool execution aborted": "interrupted",
    }
    ok = [calls[r.tool_use_id].command for r in batch.tool_results if not r.is_error]
    assert ok == [None, "npm run build"]  # the edit that worked, the build that passed
    build = next(r for r in batch.tool_results if r.content.startswith("Exit code 1"))
    assert "Module not found: Error: Can't resolve './quokka-widget'" in build.content
    assert signatures.key_line(build.content).startswith("Module not found")


def test_a_failed_model_call_is_an_error_message():
    batch = merged(read_tree())
    errors = [(m.uuid, m.type, m.text) for m in batch.messages if m.kind == "error"]
    assert errors == [
        (
            "msg_b0a1000050001EEEEEEEEEEEEE",
            "system",
            "ProviderAuthError: Invalid API key for anthropic",
        )
    ]


def test_messages_keep_opencode_ids_roles_and_order():
    batch = merged(read_tree())
    rows = [(m.kind, m.type, m.uuid) for m in batch.messages]
    assert rows[:5] == [
        ("prompt", "user", "prt_b0a1000010002aaaaaaaaaaaaa"),
        ("thinking", "assistant", "prt_b0a1000020003bbbbbbbbbbbb2"),
        ("tool_use", "assistant", "prt_b0a1000020004bbbbbbbbbbbb3"),
        ("tool_result", "user", "prt_b0a1000020004bbbbbbbbbbbb3:result"),
        ("tool_use", "assistant", "prt_b0a1000020005bbbbbbbbbbbb4"),
    ]
    assert {m.session_id for m in batch.messages} == {SESSION}
    assert len({m.uuid for m in batch.messages}) == len(batch.messages)
    prompt = batch.messages[0]
    assert (prompt.text, prompt.timestamp) == (
        "npm run build fails, please fix it",
        "2025-11-27T17:36:41.000Z",
    )
    assert batch.messages[1].model == "claude-sonnet-4-5"
    assert batch.messages[1].cwd == "/home/dev/webapp"


def test_the_session_file_gives_project_title_and_version():
    meta = merged(read_tree()).meta
    assert {(m.key, m.value) for m in meta} == {
        ("cwd", "/home/dev/webapp"),
        ("cli_version", "1.0.150"),
        ("ai_title", "Fix the webpack build"),
    }


def test_opencode_s_placeholder_title_is_no_title():
    data = json.dumps(
        {"id": "ses_x", "version": "0.5.28", "title": "New session - 2026-01-17T11:51:28.078Z"}
    ).encode()
    assert [m.key for m in opencode.parse_session_file(data).meta] == ["cli_version"]


def test_edit_and_write_inputs_carry_the_canonical_keys_beside_opencode_s():
    calls = {c.name: c for c in merged(read_tree()).tool_calls if c.name in ("edit", "write")}
    edit = json.loads(calls["edit"].input)
    assert edit["file_path"] == edit["filePath"] == "/home/dev/webapp/src/index.ts"
    assert edit["old_string"] == edit["oldString"]
    assert edit["new_string"] == edit["newString"]
    write = json.loads(calls["write"].input)
    assert (write["file_path"], write["content"]) == (
        "/home/dev/webapp/CHANGELOG.md",
        "- fixed the widget import\n",
    )
    assert calls["edit"].file_path == "/home/dev/webapp/src/index.ts"


def test_multiedit_edits_and_patch_files_are_read():
    args = {"filePath": "a.py", "edits": [{"filePath": "a.py", "oldString": "x", "newString": "y"}]}
    out = opencode.canonical_input(args)
    assert out["edits"][0]["old_string"] == "x" and out["file_path"] == "a.py"
    patch = {"patchText": "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"}
    assert opencode._file_path("apply_patch", patch) == "src/app.py"


def test_a_running_tool_is_a_call_without_a_result():
    part = {
        "id": "prt_1",
        "type": "tool",
        "tool": "bash",
        "callID": "c",
        "state": {"status": "running", "input": {"command": "sleep 9"}, "time": {"start": 1}},
    }
    batch = _message_with(part)
    assert [c.command for c in batch.tool_calls] == ["sleep 9"]
    assert batch.tool_results == []


def test_a_bash_that_exited_zero_or_without_an_exit_code_is_no_failure():
    for metadata in ({"exit": 0}, {}, {"exit": None}, {"exit": True}):
        part = {
            "id": "prt_1",
            "type": "tool",
            "tool": "bash",
            "callID": "c",
            "state": {
                "status": "completed",
                "input": {"command": "ls"},
                "output": "x",
                "title": "",
                "metadata": metadata,
                "time": {"start": 1, "end": 2},
            },
        }
        assert [r.is_error for r in _message_with(part).tool_results] == [0]


def _message_with(*parts, role="assistant"):
    info = {"id": "msg_1", "sessionID": "ses_1", "role": role, "time": {"created": 1}}
    data = [
        (i + 2, json.dumps({"sessionID": "ses_1", "messageID": "msg_1", **p}).encode(), "p")
        for i, p in enumerate(parts)
    ]
    return opencode.parse_message(json.dumps(info).encode(), data)


def test_a_bad_part_is_a_problem_and_its_neighbours_are_read(tmp_path):
    storage = tmp_path / "storage"
    shutil.copytree(STORAGE, storage)
    bad = storage / "part/msg_b0a1000020001BBBBBBBBBBBBB/prt_b0a1000020005bbbbbbbbbbbb4.json"
    bad.write_bytes(bad.read_bytes()[:40])
    batch = read_message(
        storage / f"message/{SESSION}/msg_b0a1000020001BBBBBBBBBBBBB.json", storage
    )
    assert [(p.line_no, p.reason.split(":")[0]) for p in batch.problems] == [
        (5, "part prt_b0a1000020005bbbbbbbbbbbb4.json")
    ]
    assert "malformed JSON" in batch.problems[0].reason
    assert len(batch.tool_calls) == 1  # the bash call before it


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "malformed JSON"),
        (b"[1, 2]", "JSON list, not an object"),
        (b'{"id": "msg_1", "role": "user"}', "message without an id or sessionID"),
        (b'{"id": "msg_\xff"}', "invalid UTF-8"),
    ],
)
def test_a_bad_message_file_is_a_problem(data, reason):
    batch = opencode.parse_message(data, [])
    assert len(batch.problems) == 1 and batch.problems[0].reason.startswith(reason)
    assert batch.messages == []


def test_a_part_with_a_lone_surrogate_is_read():
    raw = b'{"id": "prt_1", "type": "text", "text": "bad \\ud83d half"}'
    info = json.dumps({"id": "msg_1", "sessionID": "ses_1", "role": "user"}).encode()
    batch = opencode.parse_message(info, [(2, raw, "prt_1.json")])
    assert [m.text for m in batch.messages] == ["bad \ufffd half"]


# -- the SQLite store ---------------------------------------------------------------


def test_the_database_is_read_with_rows_that_are_only_in_its_wal(tmp_path):
    db = tmp_path / "opencode.db"
    writer = make_db(db)
    assert Path(f"{db}-wal").stat().st_size > db.stat().st_size  # nothing checkpointed
    batch = opencode.read_database(db)
    writer.close()
    assert not batch.problems
    failed = [r.content.splitlines()[0] for r in batch.tool_results if r.is_error]
    assert failed == [
        "Exit code 127",
        "Error: ENOENT: no such file or directory, scandir '/home/dev/api/vendored'",
    ]
    assert [m.text for m in batch.messages if m.kind == "error"] == ["MessageOutputLengthError"]
    assert {(m.key, m.value) for m in batch.meta} >= {("cwd", "/home/dev/api")}
    assert {m.session_id for m in batch.messages} == {DB_SESSION}


def test_reading_the_database_neither_writes_it_nor_blocks_its_writer(tmp_path):
    db = tmp_path / "opencode.db"
    writer = make_db(db)
    store = (db, Path(f"{db}-wal"))
    writer.execute("BEGIN IMMEDIATE")  # opencode in the middle of a write
    writer.execute("UPDATE session SET title = 'Renamed' WHERE id = ?", [DB_SESSION])
    before = [p.read_bytes() for p in store]
    batch = opencode.read_database(db)
    assert [p.read_bytes() for p in store] == before
    writer.execute("COMMIT")  # not blocked: nothing was locked against it
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("COMMIT")
    writer.close()
    assert ("ai_title", "Install the dependencies") in {(m.key, m.value) for m in batch.meta}


def left_by_a_stopped_opencode(db: Path) -> None:
    """The store of an opencode stopped before it checkpointed (killed, or still running
    elsewhere): rows committed to the -wal, its -shm beside it, and no process holding
    them (a writer in this process would share its -shm with the reader)."""
    make_db(db).close()  # its schema and rows, checkpointed
    script = (
        "import os, sqlite3, sys\n"
        "w = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "w.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "w.execute(\"UPDATE session SET title = 'Renamed' WHERE id = ?\", [sys.argv[2]])\n"
        "os._exit(0)\n"  # no checkpoint on close
    )
    subprocess.run([sys.executable, "-c", script, str(db), DB_SESSION], check=True)
    assert Path(f"{db}-wal").stat().st_size and Path(f"{db}-shm").exists()


def store_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_stopped_opencode_s_store_is_read_with_its_wal_and_nothing_written(tmp_path):
    """A read-only connection writes its read marks into the -shm, even a read-only one
    when run as root: the store is read with the -shm opened read-only, and no byte of the
    .db, the -wal or the -shm changes."""
    db = tmp_path / "opencode.db"
    left_by_a_stopped_opencode(db)
    before = store_files(tmp_path)
    batch = opencode.read_database(db)
    assert store_files(tmp_path) == before
    assert ("ai_title", "Renamed") in {(m.key, m.value) for m in batch.meta}  # from the -wal


def test_a_closed_store_is_read_without_a_file_made_beside_it(tmp_path):
    """No -wal (opencode closed it, checkpointed): read immutable, so SQLite makes no -wal
    or -shm in opencode's folder, as a read-only connection would."""
    db = tmp_path / "opencode.db"
    make_db(db).close()
    before = store_files(tmp_path)
    assert list(before) == ["opencode.db"]
    batch = opencode.read_database(db)
    assert store_files(tmp_path) == before
    assert not batch.problems and len(batch.tool_calls) == 3


def test_a_closed_store_that_changes_while_it_is_read_is_read_again(tmp_path, monkeypatch):
    """Read immutable, a store opencode starts writing meanwhile could be read torn: one
    whose stat changed during the read is read again, and one that changed during every
    read is a problem (its rows kept by the build), never a torn read."""
    db = tmp_path / "opencode.db"
    make_db(db).close()
    stamps = iter(range(1_000_000))
    monkeypatch.setattr(opencode, "READ_PAUSE", 0)
    monkeypatch.setattr(opencode, "_stamps", lambda *paths: [next(stamps), None])
    with pytest.raises(OSError, match="unreadable database: it changed during every read"):
        opencode.read_database(db)
    calls = iter([[1, None], [2, None], [3, None], [3, None]])  # changed once, then not
    monkeypatch.setattr(opencode, "_stamps", lambda *paths: next(calls))
    assert len(opencode.read_database(db).tool_calls) == 3


def test_a_wal_without_its_shm_is_read_from_a_bounded_copy(tmp_path, monkeypatch):
    """SQLite cannot read a -wal without making a -shm beside it: a store copied without
    its -shm (no process has it open) is copied, but only up to MAX_WHOLE_BYTES."""
    db = tmp_path / "opencode.db"
    left_by_a_stopped_opencode(db)
    Path(f"{db}-shm").unlink()
    before = store_files(tmp_path)
    batch = opencode.read_database(db)
    assert store_files(tmp_path) == before
    assert ("ai_title", "Renamed") in {(m.key, m.value) for m in batch.meta}
    monkeypatch.setattr(opencode.lines, "MAX_WHOLE_BYTES", 4096)
    with pytest.raises(OSError, match="its -wal has no -shm beside it, and the two"):
        opencode.read_database(db)
    assert store_files(tmp_path) == before


def test_a_file_named_opencode_db_that_is_no_database_is_neither_read_nor_copied(
    tmp_path, monkeypatch
):
    """A 2 GB sparse file named opencode.db was copied whole into $TMPDIR (and read into
    memory by the build) before SQLite said it was no database: its header says so first."""
    db = tmp_path / "opencode.db"
    with db.open("wb") as f:
        f.truncate(2 << 30)  # sparse: no disk used
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with pytest.raises(OSError, match="not an SQLite database"):
        opencode.read_database(db)
    assert list(scratch.iterdir()) == []


def test_a_corrupt_database_cannot_be_read(tmp_path):
    """Raised as OSError, as an unreadable file is: the build keeps the rows it had."""
    db = tmp_path / "opencode.db"
    db.write_bytes(b"this is not a database" * 200)
    with pytest.raises(OSError, match="not an SQLite database"):
        opencode.read_database(db)
    db.write_bytes(opencode.SQLITE_HEADER + b"\0garbage" * 1000)
    with pytest.raises(OSError, match="unreadable database: file is not a database"):
        opencode.read_database(db)


def test_a_database_without_opencode_s_tables_is_a_problem(tmp_path):
    db = tmp_path / "opencode.db"
    sqlite3.connect(db).execute("CREATE TABLE other (x)").connection.close()
    reasons = [p.reason for p in opencode.read_database(db).problems]
    assert reasons == [
        "cannot read the session table: no such table: session",
        "cannot read the part table: no such table: part",
        "cannot read the message table: no such table: message",
    ]


def test_a_bad_data_column_costs_that_row_alone(tmp_path):
    db = tmp_path / "opencode.db"
    make_db(db).execute(
        "UPDATE part SET data = '{broken' WHERE id = 'prt_c0d1000020003bbbbbbbbbbbb2'"
    ).connection.close()
    batch = opencode.read_database(db)
    assert [p.reason.split(":")[0] for p in batch.problems] == [
        "part prt_c0d1000020003bbbbbbbbbbbb2"
    ]
    assert len(batch.tool_calls) == 2


def test_a_data_column_that_is_not_utf8_costs_nothing_else(tmp_path):
    db = tmp_path / "opencode.db"
    make_db(db).execute(
        """UPDATE part SET data = CAST('{"type": "text", "text": "caf' || X'E9' || '"}' AS TEXT)"""
        " WHERE id = 'prt_c0d1000010002aaaaaaaaaaaaa'"
    ).connection.close()
    batch = opencode.read_database(db)
    assert batch.problems == []
    assert [m.text for m in batch.messages if m.kind == "prompt"] == ["caf\ufffd"]
    assert len(batch.tool_calls) == 3


def test_the_same_session_in_the_tree_and_the_database_has_the_same_ids(tmp_path):
    """opencode 1.2 copies the JSON tree into opencode.db and keeps it: the build must see
    one session, so both readers give every row the same id and content."""
    db = tmp_path / "opencode.db"
    conn = make_db(db)
    copy_tree_into(conn, STORAGE)
    conn.close()

    def rows(batch):
        return (
            sorted(
                m[:2] + m[4:]
                for m in (m._replace(line_no=0) for m in batch.messages)
                if m.session_id == SESSION
            ),
            sorted(c._replace(line_no=0) for c in batch.tool_calls if c.session_id == SESSION),
            sorted(r._replace(line_no=0) for r in batch.tool_results if r.session_id == SESSION),
            sorted({(m.key, m.value) for m in batch.meta if m.session_id == SESSION}),
        )

    assert rows(opencode.read_database(db)) == rows(merged(read_tree()))


# -- through the build -------------------------------------------------------------

REAL_OPENCODE = REAL_CORPUS / "other-agents" / "opencode"


def index_rows(db_path, sql, args=()):
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


@pytest.mark.skipif(
    not REAL_OPENCODE.is_dir(), reason=f"real opencode sample not found at {REAL_OPENCODE}"
)
def test_every_session_of_the_real_sample_is_indexed(db_path):
    """PROVENANCE.md lists 6 sessions (2 of the JSON tree, 2 of the v0.5 layout, 2 in
    SQLite stores), 5 tool calls, no failed call and 4 failed model calls."""
    homes = sorted(p for p in REAL_OPENCODE.iterdir() if p.is_dir())
    stores = [h / ".local" / "share" / "opencode" for h in homes]
    assert [agents.agent_of(s) for s in stores] == ["opencode"] * 3
    build_index(db_path, *stores)
    provenance = (REAL_OPENCODE.parent / "PROVENANCE.md").read_text()
    section = provenance.split("\n## opencode")[1].split("\n## ")[0]
    listed = set(re.findall(r"ses_[0-9A-Za-z]+", section))
    indexed = dict(index_rows(db_path, "SELECT session_id, agent FROM sessions"))
    assert len(indexed) == 6 and set(indexed.values()) == {"opencode"}
    # the table names the SQLite sessions by a prefix (ses_2c01b767…)
    assert all(any(s.startswith(p) for s in indexed) for p in listed), listed
    assert {s for s in indexed if any(s.startswith(p) for p in listed)} == set(indexed)
    assert index_rows(db_path, "SELECT count(*), sum(is_error) FROM tool_results") == [(5, 0)]
    assert index_rows(db_path, "SELECT count(*) FROM tool_calls") == [(5,)]
    errors = index_rows(db_path, "SELECT text FROM messages WHERE kind = 'error' ORDER BY text")
    assert [e.split(":")[0] for (e,) in errors] == ["APIError"] * 2 + ["UnknownError"] * 2
    assert index_rows(db_path, "SELECT count(*) FROM problems") == [(0,)]
    versions = {v for (v,) in index_rows(db_path, "SELECT version FROM sessions")}
    assert versions == {"0.5.28", "1.0.107", "1.2.25", "1.4.0"}


@pytest.mark.skipif(
    not REAL_OPENCODE.is_dir(), reason=f"real opencode sample not found at {REAL_OPENCODE}"
)
def test_the_real_sample_s_folder_is_read_whole_as_opencode_s(db_path):
    """Given the folder of the three homes, each home's store is found below it; the TUI's
    prompt history (~/.local/state/opencode/prompt-history.jsonl) is not taken for a
    Claude Code project."""
    build_index(db_path, REAL_OPENCODE)
    assert index_rows(db_path, "SELECT count(*), agent FROM sessions") == [(6, "opencode")]
    assert index_rows(db_path, "SELECT count(*) FROM problems") == [(0,)]


def test_find_shows_the_fixture_s_failure_with_its_agent_and_resume_command(db_path):
    assert agents.agent_of(DATA) == "opencode"
    build_index(db_path, DATA)
    key = "Module not found: Error: Can't resolve './quokka-widget' in '/home/dev/webapp/src'"
    result = CliRunner().invoke(cli, ["find", key, str(db_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    first = result.output.split("\n2. ")[0]
    assert first.startswith("1. bash (opencode) failed")
    assert "error:  " + key in first
    assert "+ import Widget from './widgets/quokka'" in first  # the fix, from edit's input
    assert f"resume: opencode --session {SESSION}" in first
    title, agent = index_rows(db_path, "SELECT title, agent FROM sessions")[0]
    assert (title, agent) == ("Fix the webpack build", "opencode")


def test_a_tree_file_too_large_to_read_whole_is_not_read_and_keeps_its_rows(tmp_path, db_path):
    """opencode's JSON files are read whole, held in memory: a message file or a part file
    over MAX_WHOLE_BYTES (sparse, dumped) is not read. The message's is a problem of the
    file, whose rows stay its own; a part's a problem of that part (line), the message's
    other parts read again as usual, and what the part gave kept in the index."""
    data = tmp_path / "opencode"
    shutil.copytree(STORAGE, data / "storage")
    build_index(db_path, data)
    everything = "SELECT uuid FROM messages UNION ALL SELECT tool_use_id FROM tool_calls"
    before = sorted(index_rows(db_path, everything))
    messages = data / "storage" / "message" / SESSION
    message = messages / "msg_b0a1000010001AAAAAAAAAAAAA.json"
    part = data / "storage" / "part" / "msg_b0a1000020001BBBBBBBBBBBBB"
    part = part / "prt_b0a1000020003bbbbbbbbbbbb2.json"
    for path in (message, part):
        with path.open("r+b") as f:
            f.truncate(MAX_WHOLE_BYTES + 1)  # sparse: no disk used
    build_index(db_path, data)
    assert sorted(index_rows(db_path, everything)) == before
    too_large = f"{MAX_WHOLE_BYTES + 1:,} bytes, more than the 256 MB a file read whole may hold"
    assert index_rows(db_path, "SELECT path, line_no, reason FROM problems ORDER BY path") == [
        (str(messages / "msg_b0a1000010001AAAAAAAAAAAAA.json"), None, f"cannot read: {too_large}"),
        (
            str(messages / "msg_b0a1000020001BBBBBBBBBBBBB.json"),
            3,
            f"cannot read part {part.name}: {too_large}",
        ),
    ]
    paths = "SELECT DISTINCT f.path FROM messages m JOIN source_files f ON f.id = m.file_id"
    assert (str(message),) in index_rows(db_path, paths)


def test_build_agent_opencode_reads_the_xdg_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    shutil.copytree(STORAGE, tmp_path / "data" / "opencode" / "storage")
    assert agents.default_sources("opencode") == [tmp_path / "data" / "opencode"]
    index = tmp_path / "index.db"
    result = CliRunner().invoke(cli, ["build", str(index), "--agent", "opencode"])
    assert result.exit_code == 0, result.output
    assert index_rows(index, "SELECT session_id FROM sessions") == [(SESSION,)]


def test_opencode_db_may_live_elsewhere_under_any_name(tmp_path, monkeypatch, db_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("OPENCODE_DB", str(tmp_path / "elsewhere" / "mine.sqlite"))
    (tmp_path / "elsewhere").mkdir()
    make_db(tmp_path / "elsewhere" / "mine.sqlite").close()
    assert opencode.default_folders() == [tmp_path / "data" / "opencode", tmp_path / "elsewhere"]
    build_index(db_path, tmp_path / "elsewhere")
    assert index_rows(db_path, "SELECT session_id, agent FROM sessions") == [
        (DB_SESSION, "opencode")
    ]


def test_a_database_opencode_has_just_created_is_no_problem(tmp_path, db_path):
    store = tmp_path / "opencode"
    store.mkdir()
    sqlite3.connect(store / "opencode.db").execute("PRAGMA journal_mode = WAL").connection.close()
    assert opencode.read_database(store / "opencode.db").problems == []


def test_a_changed_part_is_re_read_and_a_new_message_picked_up(tmp_path, db_path):
    data = tmp_path / "opencode"
    shutil.copytree(STORAGE, data / "storage")
    build_index(db_path, data)
    part = data / "storage/part/msg_b0a1000030001CCCCCCCCCCCCC/prt_b0a1000030006ccccccccccc05.json"
    obj = json.loads(part.read_text())
    obj["state"]["output"] = "webpack 5.90.0 compiled with 2 warnings"
    part.write_text(json.dumps(obj, indent=2))
    stats = build_index(db_path, data)
    assert stats.files_read == 1  # that message, with its parts
    contents = [c for (c,) in index_rows(db_path, "SELECT content FROM tool_results")]
    assert "webpack 5.90.0 compiled with 2 warnings" in contents
    assert not any("compiled successfully" in c for c in contents)

    new = "msg_b0a1000060001FFFFFFFFFFFFF"
    message = data / f"storage/message/{SESSION}/{new}.json"
    message.write_text(
        json.dumps(
            {"id": new, "sessionID": SESSION, "role": "user", "time": {"created": 1764265090000}}
        )
    )
    (data / "storage/part" / new).mkdir()
    (data / "storage/part" / new / "prt_b0a1000060002fffffffffffff.json").write_text(
        json.dumps(
            {
                "id": "prt_b0a1000060002fffffffffffff",
                "sessionID": SESSION,
                "messageID": new,
                "type": "text",
                "text": "thanks, ship it",
            }
        )
    )
    stats = build_index(db_path, data)
    assert stats.files_read == 1
    prompts = index_rows(db_path, "SELECT text FROM messages WHERE kind = 'prompt' ORDER BY id")
    assert prompts[-1] == ("thanks, ship it",)
    assert build_index(db_path, data).files_read == 0


def test_a_part_added_to_a_message_re_reads_it(tmp_path, db_path):
    data = tmp_path / "opencode"
    shutil.copytree(STORAGE, data / "storage")
    build_index(db_path, data)
    mid = "msg_b0a1000040001DDDDDDDDDDDDD"
    (data / "storage/part" / mid / "prt_b0a1000040003ddddddddddd02.json").write_text(
        json.dumps(
            {
                "id": "prt_b0a1000040003ddddddddddd02",
                "sessionID": SESSION,
                "messageID": mid,
                "type": "text",
                "text": "and the changelog",
            }
        )
    )
    assert build_index(db_path, data).files_read == 1
    assert ("and the changelog",) in index_rows(db_path, "SELECT text FROM messages")


WRITE_PART = "INSERT INTO part VALUES (?, 'msg_c0d1000020001BBBBBBBBBBBBB', ?, 0, 0, ?)"


def _failed_part(n: int) -> str:
    return json.dumps(
        {
            "type": "tool",
            "callID": f"c{n}",
            "tool": "bash",
            "state": {
                "status": "completed",
                "input": {"command": f"make target{n}"},
                "output": f"make: *** No rule to make target 'target{n}'.  Stop.",
                "title": "",
                "metadata": {"exit": 2},
                "time": {"start": 1775000005000 + n, "end": 1775000005001 + n},
            },
        }
    )


def test_a_database_changed_through_its_wal_is_re_read(tmp_path, db_path):
    store = tmp_path / "opencode"
    store.mkdir()
    writer = make_db(store / "opencode.db")
    build_index(db_path, store)
    assert index_rows(db_path, "SELECT count(*) FROM tool_results WHERE is_error = 1") == [(2,)]
    size = (store / "opencode.db").stat().st_size
    writer.execute(WRITE_PART, ["prt_c0d1000020009bbbbbbbbbbbb9", DB_SESSION, _failed_part(9)])
    assert (store / "opencode.db").stat().st_size == size  # the change is in the WAL alone
    assert build_index(db_path, store).files_read == 1
    found = index_rows(db_path, "SELECT content FROM tool_results WHERE is_error = 1")
    assert any("No rule to make target 'target9'" in c for (c,) in found)
    assert build_index(db_path, store).files_read == 0
    writer.close()


def test_a_commit_made_while_the_store_is_read_is_read_by_the_next_build(
    tmp_path, db_path, monkeypatch
):
    """opencode commits between pastfix's read of its store and the build's record of the
    store's version: the build stored the -wal's stat taken after the read, so the next
    build saw no change and never read that commit (CI: 5 failures read of 6 committed)."""
    store = tmp_path / "opencode"
    store.mkdir()
    make_db(store / "opencode.db").close()
    writer = sqlite3.connect(store / "opencode.db", isolation_level=None)

    def commit(n):
        writer.execute(WRITE_PART, [f"prt_c0d10000200{n:04d}bbbbbbbb", DB_SESSION, _failed_part(n)])

    commit(101)
    real_read = opencode._read_tables
    late = [102]

    def read_then_commit(conn, batch):
        real_read(conn, batch)
        while late:
            commit(late.pop())

    monkeypatch.setattr(opencode, "_read_tables", read_then_commit)
    failures = "SELECT count(*) FROM tool_results WHERE is_error = 1"
    build_index(db_path, store)
    assert index_rows(db_path, failures) == [(3,)]  # the fixture's 2 and the first commit
    monkeypatch.setattr(opencode, "_read_tables", real_read)
    assert build_index(db_path, store).files_read == 1
    assert index_rows(db_path, failures) == [(4,)]
    writer.close()


def test_a_build_neither_fails_nor_blocks_opencode_writing(tmp_path, db_path):
    """opencode writes while pastfix builds: every write of a writer that waits for no
    lock (timeout 0) succeeds, and every build reads what was committed before it."""
    store = tmp_path / "opencode"
    store.mkdir()
    make_db(store / "opencode.db").close()
    writer = sqlite3.connect(
        store / "opencode.db", timeout=0, isolation_level=None, check_same_thread=False
    )
    errors: list[Exception] = []
    done = threading.Event()
    written = [0]

    def write():
        n = 100
        while not done.is_set():
            n += 1
            try:
                writer.execute("BEGIN IMMEDIATE")
                writer.execute(
                    WRITE_PART, [f"prt_c0d10000200{n:04d}bbbbbbbb", DB_SESSION, _failed_part(n)]
                )
                writer.execute("COMMIT")
                written[0] += 1
            except sqlite3.Error as e:
                errors.append(e)
                return
            time.sleep(0.001)

    thread = threading.Thread(target=write)
    thread.start()
    try:
        for _ in range(3):
            before = written[0]
            build_index(db_path, store)
            failures = index_rows(db_path, "SELECT count(*) FROM tool_results WHERE is_error = 1")
            assert failures[0][0] >= 2 + before
    finally:
        done.set()
        thread.join()
    assert errors == [] and written[0] > 0
    writer.execute("BEGIN IMMEDIATE")  # a write transaction held open through a build
    writer.execute(WRITE_PART, ["prt_c0d1000020000bbbbbbbbbbbb0", DB_SESSION, _failed_part(0)])
    build_index(db_path, store)
    writer.execute("COMMIT")
    writer.close()
    assert index_rows(db_path, "SELECT count(*) FROM problems") == [(0,)]


def test_a_corrupt_database_is_a_problem_and_its_rows_are_kept(tmp_path, db_path):
    store = tmp_path / "opencode"
    store.mkdir()
    make_db(store / "opencode.db").close()
    build_index(db_path, store)
    (store / "opencode.db").write_bytes(b"\0garbage" * 1000)
    build_index(db_path, store)
    problems = index_rows(db_path, "SELECT reason FROM problems")
    assert problems == [("cannot read: not an SQLite database (it lacks SQLite's header)",)]
    assert index_rows(db_path, "SELECT session_id FROM sessions") == [(DB_SESSION,)]
    assert index_rows(db_path, "SELECT count(*) FROM tool_results WHERE is_error = 1") == [(2,)]


def test_a_session_in_both_the_tree_and_the_database_is_kept_when_the_database_changes(
    tmp_path, db_path
):
    """opencode 1.2 leaves the JSON tree beside the database it copied it into: the rows
    the two share are stored once, and re-reading the database (on every change of its
    WAL) re-reads the files it shares them with, each as the whole file it is."""
    data = tmp_path / "opencode"
    shutil.copytree(STORAGE, data / "storage")
    conn = make_db(data / "opencode.db")
    copy_tree_into(conn, STORAGE)
    build_index(db_path, data)
    count = "SELECT count(*), count(DISTINCT uuid) FROM messages WHERE session_id = ?"
    before = index_rows(db_path, count, [SESSION])
    assert before[0][0] == before[0][1] == 19
    conn.execute("UPDATE session SET title = 'Renamed' WHERE id = ?", [DB_SESSION])
    build_index(db_path, data)
    assert index_rows(db_path, count, [SESSION]) == before
    assert index_rows(db_path, "SELECT title FROM sessions WHERE session_id = ?", [DB_SESSION]) == [
        ("Renamed",)
    ]
    conn.close()


# -- the failure hook (pastfix's opencode plugin) ----------------------------------

BUILD_OUTPUT = (
    "> webapp@2.0.0 build\n> webpack\n\n"
    "Module not found: Error: Can't resolve './quokka-widget' in '/home/dev/other/src'\n"
)
OTHER = "ses_0000000000ffeOTHERSESSIONXX"


def plugin_event(exit_code=1, output=BUILD_OUTPUT, tool="bash", session=OTHER):
    """What pastfix's plugin sends for a call (pastfix/opencode_plugin.js)."""
    return {
        "tool": tool,
        "sessionID": session,
        "callID": "call_1",
        "output": output,
        "metadata": {"exit": exit_code},
    }


def test_the_hook_tells_a_failed_bash_call_as_the_build_stores_it():
    failure = opencode.hook_failure(plugin_event())
    assert failure == {"error": "Exit code 1\n" + BUILD_OUTPUT.rstrip("\n"), "session_id": OTHER}
    assert opencode.hook_failure(plugin_event(exit_code=0)) is None
    assert opencode.hook_failure(plugin_event(tool="read")) is None  # no exit code to tell
    assert opencode.hook_failure({"output": "x"}) is None


def test_pastfix_hook_agent_opencode_recalls_the_fix(db_path):
    build_index(db_path, DATA)
    answer = hook.run(json.dumps(plugin_event()), db_path, agent="opencode")
    assert answer.startswith("pastfix: this error was seen before, 1 time in 1 other session")
    assert ("\n\n" + answer).startswith(opencode.RECALL_MARK)  # what the reader leaves out
    assert f"opencode --session {SESSION}" in answer
    assert "edited src/index.ts" in answer
    # its own session is not recalled to itself, nor a call that worked
    assert hook.run(json.dumps(plugin_event(session=SESSION)), db_path, agent="opencode") == ""
    assert hook.run(json.dumps(plugin_event(exit_code=0)), db_path, agent="opencode") == ""


def test_the_recall_the_plugin_appended_is_not_indexed():
    output = BUILD_OUTPUT + "\n\npastfix: this error was seen before, 1 time in 1 other session"
    state = {"status": "completed", "output": output, "metadata": {"exit": 1}}
    assert opencode.tool_result(state, "bash") == ("Exit code 1\n" + BUILD_OUTPUT.rstrip(), True)


def test_hook_install_agent_opencode_writes_the_plugin_and_uninstall_removes_it(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    plugin = tmp_path / "config" / "opencode" / "plugins" / "pastfix.js"
    db = tmp_path / "index.db"
    runner = CliRunner()
    for _ in range(2):  # a second install replaces the first
        done = runner.invoke(
            cli, ["hook", "install", "--agent", "opencode", "--db", str(db)], env=env
        )
        assert done.exit_code == 0, done.output
    text = plugin.read_text()
    command = json.loads(re.search(r"const COMMAND = (.*)", text).group(1))
    assert command == [
        *install.pastfix_executable(),
        "hook",
        "--agent",
        "opencode",
        "--db",
        str(db.absolute()),
    ]
    assert "__PASTFIX_COMMAND__" not in text
    done = runner.invoke(cli, ["hook", "uninstall", "--agent", "opencode"], env=env)
    assert done.exit_code == 0 and not plugin.exists()
    plugin.write_text("export default {id: 'mine'}\n")  # someone else's file of that name
    done = runner.invoke(cli, ["hook", "install", "--agent", "opencode", "--db", str(db)], env=env)
    assert done.exit_code == 1 and "is not pastfix's plugin" in done.output
    runner.invoke(cli, ["hook", "uninstall", "--agent", "opencode"], env=env)
    assert plugin.read_text() == "export default {id: 'mine'}\n"


def test_status_of_a_plugin_whose_index_json_cannot_read(tmp_path):
    """A hand edit that left `"--db", "\\q"` in the plugin (an escape JSON does not read):
    pastfix status stopped with a JSONDecodeError traceback."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    plugin = tmp_path / "config" / "opencode" / "plugins" / "pastfix.js"
    db = tmp_path / "index.db"
    runner = CliRunner()
    done = runner.invoke(cli, ["hook", "install", "--agent", "opencode", "--db", str(db)], env=env)
    assert done.exit_code == 0, done.output
    text = plugin.read_text()
    plugin.write_text(text.replace(json.dumps(str(db.absolute())), '"\\q"'))
    assert plugin.read_text() != text
    done = runner.invoke(cli, ["status", str(db), "--json"], env=env)
    assert done.exit_code == 0, done.output
    [found] = [h for h in json.loads(done.stdout)["agent_hooks"] if h["agent"] == "opencode"]
    assert (found["installed"], found.get("index")) == (True, None)


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node not found: the plugin's JavaScript is run by it")
@pytest.mark.parametrize(
    ("exit_code", "recalled"), [(1, True), (0, False)], ids=["failed", "succeeded"]
)
def test_the_plugin_appends_the_recall_to_a_failed_call_s_output(
    tmp_path, db_path, exit_code, recalled
):
    """The plugin's tool.execute.after, run by node as opencode (Bun) runs it: it asks
    `pastfix hook --agent opencode` and leaves the answer in output.output."""
    build_index(db_path, DATA)
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "package.json").write_text('{"type": "module"}')
    text = install.opencode_plugin(db_path).replace(
        json.dumps([*install.pastfix_executable()])[1:-1],
        json.dumps([sys.executable, "-m", "pastfix"])[1:-1],
    )
    (folder / "pastfix.js").write_text(text)
    script = f"""
        const plugin = (await import({json.dumps((folder / "pastfix.js").as_uri())})).default
        const hooks = await plugin.server({{}})
        const output = {{title: "", output: {json.dumps(BUILD_OUTPUT)},
                         metadata: {{exit: {exit_code}, output: ""}}}}
        await hooks["tool.execute.after"](
            {{tool: "bash", sessionID: {json.dumps(OTHER)}, callID: "c1", args: {{}}}}, output)
        console.log(JSON.stringify([plugin.id, output.output]))
    """
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    plugin_id, output = json.loads(done.stdout)
    assert plugin_id == "pastfix"
    assert output.startswith(BUILD_OUTPUT)
    assert ("pastfix: this error was seen before" in output) == recalled


# -- bad input, fuzzed --------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
REAL_RECORDS = sorted(p.read_bytes() for p in STORAGE.rglob("*.json"))


def _at(obj, path):
    for key in path:
        obj = obj[key]
    return obj


def _paths(obj, prefix=()):
    """The paths of every object member of `obj`, nested ones too."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))


@st.composite
def mutated_records(draw):
    raw = draw(st.sampled_from(REAL_RECORDS))
    how = draw(st.sampled_from(["truncate", "retype", "drop", "bad utf-8", "surrogate", "deep"]))
    if how == "truncate":
        return raw[: draw(st.integers(0, len(raw)))]
    if how in ("bad utf-8", "surrogate"):
        at = draw(st.integers(0, len(raw)))
        junk = b"\xff" if how == "bad utf-8" else draw(st.sampled_from([b"\\ud83d", b"\\udc00"]))
        return raw[:at] + junk + raw[at:]
    if how == "deep":
        depth = draw(st.integers(100, 3000))
        return raw.rstrip()[:-1] + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"
    obj = json.loads(raw)
    path = draw(st.sampled_from(sorted(_paths(obj))))
    parent = _at(obj, path[:-1])
    if how == "drop":
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(obj).encode()


GOOD_PART = json.dumps({"id": "prt_good", "type": "text", "text": "still read"}).encode()
GOOD_INFO = json.dumps({"id": "msg_good", "sessionID": "ses_1", "role": "user"}).encode()


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(mutated_records())
def test_a_mutated_record_never_raises_nor_costs_its_neighbours(bad):
    as_part = opencode.parse_message(GOOD_INFO, [(2, bad, "bad.json"), (3, GOOD_PART, "good.json")])
    assert "prt_good" in [m.uuid for m in as_part.messages]
    assert all(p.line_no == 2 for p in as_part.problems)
    opencode.parse_message(bad, [(2, GOOD_PART, "good.json")])
    opencode.parse_session_file(bad)


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(mutated_records())
def test_a_mutated_data_column_never_raises_nor_costs_another_row(bad):
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "opencode.db"
        conn = make_db(db)
        conn.execute(
            "UPDATE part SET data = ? WHERE id = 'prt_c0d1000020003bbbbbbbbbbbb2'",
            [bad.decode("utf-8", "replace")],
        )
        conn.close()
        batch = opencode.read_database(db)
    assert "prt_c0d1000020002bbbbbbbbbbbb1" in [c.tool_use_id for c in batch.tool_calls]
    assert "prt_c0d1000010002aaaaaaaaaaaaa" in [m.uuid for m in batch.messages]


def _copy_session(conn: sqlite3.Connection, new: str) -> None:
    """A second session in the store: the fixture's, under other ids."""

    def renamed(column: str) -> str:
        return (
            f"replace(replace(replace({column}, '{DB_SESSION}', '{new}'), 'msg_', 'msg_Z'),"
            " 'prt_', 'prt_Z')"
        )

    conn.execute(
        f"INSERT INTO session SELECT '{new}', project_id, parent_id, slug, directory, title,"
        " version, share_url, summary_additions, summary_deletions, summary_files,"
        " summary_diffs, revert, permission, time_created, time_updated, time_compacting,"
        " time_archived, workspace_id FROM session WHERE id = ?",
        [DB_SESSION],
    )
    conn.execute(
        f"INSERT INTO message SELECT {renamed('id')}, ?, time_created, time_updated,"
        f" {renamed('data')} FROM message WHERE session_id = ?",
        [new, DB_SESSION],
    )
    conn.execute(
        f"INSERT INTO part SELECT {renamed('id')}, {renamed('message_id')}, ?, time_created,"
        f" time_updated, {renamed('data')} FROM part WHERE session_id = ?",
        [new, DB_SESSION],
    )


def test_a_session_deleted_from_the_database_is_kept_by_every_build(tmp_path, db_path):
    """The index is the archive: a session opencode deletes from its database is kept,
    as a deleted transcript file's is, by incremental and forced builds alike; when it
    comes back (a restored database), the database's rows stand for it again."""
    store = tmp_path / "opencode"
    store.mkdir()
    writer = make_db(store / "opencode.db")
    second = "ses_3f2e1d0c9ffeSECONDSESSION"
    _copy_session(writer, second)
    build_index(db_path, store)
    count = "SELECT count(*) FROM messages WHERE session_id = ?"
    (kept,) = index_rows(db_path, count, [second])[0]
    assert kept > 0
    deleted = "SELECT transcript_deleted_at IS NOT NULL FROM sessions WHERE session_id = ?"
    assert index_rows(db_path, deleted, [second]) == [(0,)]
    for table in ("part", "message", "session"):
        column = "id" if table == "session" else "session_id"
        writer.execute(f"DELETE FROM {table} WHERE {column} = ?", [second])
    stats = build_index(db_path, store)
    assert (stats.files_read, stats.files_missing) == (1, 1)
    assert index_rows(db_path, count, [second]) == [(kept,)]
    assert index_rows(db_path, deleted, [second]) == [(1,)]
    assert index_rows(db_path, deleted, [DB_SESSION]) == [(0,)]
    words = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?"
    searchable = index_rows(db_path, words, ["make"])
    build_index(db_path, store, force=True)
    assert index_rows(db_path, count, [second]) == [(kept,)]
    assert index_rows(db_path, words, ["make"]) == searchable
    # restored: read from the database again, once
    _copy_session(writer, second)
    build_index(db_path, store)
    assert index_rows(db_path, count, [second]) == [(kept,)]
    assert index_rows(db_path, deleted, [second]) == [(0,)]
    paths = index_rows(db_path, "SELECT path FROM source_files WHERE path LIKE '%#%'")
    assert paths == []
    assert index_rows(db_path, words, ["make"]) == searchable
    index_rows(db_path, "INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")
    # deleted again, and the next build a forced one
    for table in ("part", "message", "session"):
        column = "id" if table == "session" else "session_id"
        writer.execute(f"DELETE FROM {table} WHERE {column} = ?", [second])
    build_index(db_path, store, force=True)
    assert index_rows(db_path, count, [second]) == [(kept,)]
    assert index_rows(db_path, deleted, [second]) == [(1,)]
    writer.close()


@pytest.mark.parametrize("which", ["part", "wal"])
def test_a_fifo_for_a_part_or_the_wal_neither_blocks_a_build_nor_loses_rows(
    tmp_path, db_path, no_hang, which
):
    """A message's part files and the database's -wal are read beside the file the build
    opened (refusing a FIFO): opened with open(), a FIFO blocked the build for good."""
    data = tmp_path / "opencode"
    shutil.copytree(STORAGE, data / "storage")
    make_db(data / "opencode.db").close()
    build_index(db_path, data)
    held = (
        "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM tool_calls),"
        " (SELECT count(*) FROM tool_results), (SELECT count(*) FROM sessions)"
    )
    before = index_rows(db_path, held)
    if which == "part":
        name = next((data / "storage" / "part").glob("msg_*/prt_*.json"))
    else:
        name = data / "opencode.db-wal"
    name.unlink(missing_ok=True)
    os.mkfifo(name)
    build_index(db_path, data, force=True)
    assert index_rows(db_path, held) == before
