"""The build over ../shared/corpus/real, checked against expectations read from the files."""

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import REAL_CORPUS, REAL_PROJECTS, build_index, needs_real_corpus

pytestmark = needs_real_corpus()


def expected_from_files():
    """What the index must hold, computed with the stdlib json module.

    Messages are the user, assistant and system lines, and the prompts queued while the
    agent was busy (queued_command attachments).
    """
    sessions, messages, failed = set(), {}, {}
    for path in sorted(REAL_PROJECTS.rglob("*.jsonl")):
        parts = path.relative_to(REAL_PROJECTS).parts
        default = parts[-3] if "subagents" in parts else path.stem
        for line in path.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            sid = obj.get("sessionId") or (None if path.stem.startswith("agent-") else default)
            queued = obj.get("type") == "attachment" and (
                (obj.get("attachment") or {}).get("type") == "queued_command"
            )
            if (obj.get("type") in ("user", "assistant", "system") or queued) and obj.get("uuid"):
                messages[obj["uuid"]] = sid
                sessions.add(sid)
                content = (obj.get("message") or {}).get("content")
                for block in content if isinstance(content, list) else []:
                    if block.get("type") == "tool_result" and block.get("is_error") is True:
                        failed[block["tool_use_id"]] = (sid, block["content"])
    return sessions, messages, failed


@pytest.fixture(scope="module")
def real_index(tmp_path_factory):
    path = tmp_path_factory.mktemp("real") / "index.db"
    stats = build_index(path, REAL_PROJECTS)
    conn = sqlite3.connect(path)
    yield conn, stats
    conn.close()


def test_every_session_is_indexed(real_index):
    conn, stats = real_index
    sessions, _, _ = expected_from_files()
    assert len(sessions) == 16
    assert {r[0] for r in conn.execute("SELECT session_id FROM sessions")} == sessions
    # The only problems: two persisted outputs whose files were not copied with their
    # transcripts (their markers keep the preview).
    reasons = [r for (r,) in conn.execute("SELECT reason FROM problems ORDER BY reason")]
    assert len(reasons) == stats.problems == 2
    assert all(r.startswith("persisted output not found beside the transcript: ") for r in reasons)
    kept = "; its line is indexed with the preview it holds"
    assert all(r.endswith(kept) for r in reasons)
    assert {r.removesuffix(kept).rsplit("/", 1)[1] for r in reasons} == {
        "bq5qwkh3j.txt",
        "toolu_019CpL49DWBenUxVVCWEXz3L.txt",
    }
    # The orphan subagent (its parent file is not in the corpus) still has its session.
    orphan = "6c2214d7-b87e-4432-8e41-22ba294ea584"
    row = conn.execute(
        "SELECT project, message_count, tool_error_count FROM sessions WHERE session_id = ?",
        [orphan],
    ).fetchone()
    assert row == ("/home/USER/projects/spotter-worktrees/spotter-0rt", 115, 2)


def test_every_message_is_in_its_session(real_index):
    conn, _ = real_index
    _, messages, _ = expected_from_files()
    assert dict(conn.execute("SELECT uuid, session_id FROM messages")) == messages


def test_every_failed_result_is_searchable_in_its_session(real_index):
    conn, _ = real_index
    _, _, failed = expected_from_files()
    assert len(failed) == 93
    # The docsize shadow table lists exactly the rows indexed (a bare SELECT on an
    # external-content table would read every tool_results row instead).
    indexed = dict(
        conn.execute(
            "SELECT tr.tool_use_id, tr.session_id FROM tool_errors_fts_docsize d"
            " JOIN tool_results tr ON tr.id = d.id"
        )
    )
    assert indexed == {tid: sid for tid, (sid, _) in failed.items()}
    for tool_use_id, (_, content) in failed.items():
        # The first tokens, split the way FTS5's unicode61 tokenizer splits them.
        words = re.findall(r"[^\W_]+", content)[:4]
        phrase = '"' + " ".join(words) + '"'
        hits = {
            r[0]
            for r in conn.execute(
                "SELECT tr.tool_use_id FROM tool_errors_fts"
                " JOIN tool_results tr ON tr.id = tool_errors_fts.rowid"
                " WHERE tool_errors_fts MATCH ?",
                [phrase],
            )
        }
        assert tool_use_id in hits, (phrase, content[:200])


def test_successful_output_stays_out_of_the_error_index(real_index):
    conn, _ = real_index
    # b39a066f:1258 is a successful Bash result whose output contains ENOENT.
    assert (
        conn.execute(
            "SELECT count(*) FROM tool_results WHERE is_error = 0 AND content LIKE '%ENOENT%'"
        ).fetchone()[0]
        >= 1
    )
    hits = conn.execute(
        "SELECT DISTINCT tr.is_error FROM tool_errors_fts"
        " JOIN tool_results tr ON tr.id = tool_errors_fts.rowid"
        " WHERE tool_errors_fts MATCH 'ENOENT'"
    ).fetchall()
    assert hits in ([], [(1,)])


def test_versions_and_layouts(real_index):
    conn, _ = real_index
    versions = {r[0] for r in conn.execute("SELECT DISTINCT version FROM messages")}
    assert {"1.0.98", "1.0.108", "2.0.76", "2.1.39", "2.1.128", "2.1.232"} <= versions
    # 2.0.x agent file beside the session, and 1.0.x inline sidechains
    assert conn.execute(
        "SELECT session_id, is_sidechain FROM messages WHERE agent_id = 'af1ff21' LIMIT 1"
    ).fetchone() == ("c45af7b1-cb7c-4e51-93db-8cbb250a877a", 1)
    assert conn.execute(
        "SELECT count(*) FROM messages WHERE session_id = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'"
        " AND is_sidechain = 1"
    ).fetchone() == (405,)
    assert conn.execute(
        "SELECT count(*) FROM messages WHERE is_compact_summary = 1"
    ).fetchone() == (5,)
    titles = dict(conn.execute("SELECT session_id, title FROM sessions"))
    assert titles["6fc6d062-1972-4457-9bfd-6b47c7e77e11"] == (
        "Implement WSConn adapter for nhooyr websocket"
    )
    # The summary on line 1 of fe5e1c67 names 1af7fc5e, which holds its leafUuid.
    assert titles["1af7fc5e-8455-4414-9ccd-011d40f70b2a"] == (
        "Empty Repo Setup: CLAUDE.md Foundation Created"
    )
    assert (
        titles["fe5e1c67-53e7-4862-81ae-d0e013e3270b"]
        != titles["1af7fc5e-8455-4414-9ccd-011d40f70b2a"]
    )


def test_second_build_changes_nothing(real_index, tmp_path):
    db_path = tmp_path / "index.db"
    build_index(db_path, REAL_PROJECTS)
    before = Path(db_path).read_bytes()
    stats = build_index(db_path, REAL_PROJECTS)
    assert (stats.files_read, stats.bytes_read) == (0, 0)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT count(*) FROM tool_errors_fts_docsize").fetchone() == (93,)
    conn.close()
    assert len(before) > 0


def test_edge_file_with_comments_and_image(tmp_path):
    project = tmp_path / "projects" / "-Users-pete-edge"
    project.mkdir(parents=True)
    shutil.copy(REAL_CORPUS / "edge" / "images-in-tool-results.jsonl", project)
    db_path = tmp_path / "index.db"
    stats = build_index(db_path, tmp_path / "projects")
    assert stats.problems == 2
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT line_no, reason FROM problems ORDER BY line_no").fetchall() == [
        (1, "comment line, not JSON"),
        (2, "comment line, not JSON"),
    ]
    [(content,)] = conn.execute("SELECT content FROM tool_results").fetchall()
    assert re.search(r"\[image/png \d+ KB\]", content)
    assert "iVBOR" not in content  # no base64
    assert conn.execute("SELECT max(length(content)) FROM tool_results").fetchone()[0] < 10_000


def findable_everything(path):
    """Every session with its counts, every message and failure, and what find_past_fix
    answers for each failure's key line: what a user can find in the index at `path`."""
    from pastfix import queries, signatures

    conn = queries.connect(path)
    try:
        sessions = conn.execute(
            "SELECT session_id, message_count, tool_call_count, tool_error_count FROM sessions"
            " ORDER BY 1"
        ).fetchall()
        messages = conn.execute("SELECT uuid, session_id, text FROM messages ORDER BY 1").fetchall()
        failures = conn.execute(
            "SELECT tool_use_id, session_id, content FROM tool_results WHERE is_error = 1"
            " ORDER BY 1"
        ).fetchall()
        answers = {}
        for _, _, content in failures:
            line = signatures.key_line(content or "")
            if line and line not in answers:
                rows = queries.find_past_fix(conn, line)
                answers[line] = sorted((r["session_id"], r["tool_use_id"]) for r in rows)
        searched = conn.execute(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'error'"
        ).fetchone()
    finally:
        conn.close()
    return sessions, messages, failures, answers, searched


def test_deleting_a_third_of_the_transcripts_keeps_everything_findable(tmp_path):
    """Issue 20's check: incrementally, forced, and with another tokenizer."""
    projects = tmp_path / "projects"
    shutil.copytree(REAL_PROJECTS, projects)
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    before = findable_everything(db_path)
    files = sorted(projects.rglob("*.jsonl"))
    for path in files[::3]:
        path.unlink()
    stats = build_index(db_path, projects)
    assert stats.files_missing == len(files[::3]) and stats.sessions_without_transcript > 0
    assert findable_everything(db_path) == before
    assert build_index(db_path, projects, force=True).sessions_without_transcript == (
        stats.sessions_without_transcript
    )
    assert findable_everything(db_path) == before
    # what a trigram index of every transcript answers
    intact = tmp_path / "intact.db"
    build_index(intact, REAL_PROJECTS, tokenizer="trigram")
    trigram = findable_everything(intact)
    assert trigram[:3] == before[:3] and trigram[3] != before[3]
    build_index(db_path, projects, tokenizer="trigram")
    assert findable_everything(db_path) == trigram
    build_index(db_path, projects, tokenizer="trigram", force=True)
    assert findable_everything(db_path) == trigram
