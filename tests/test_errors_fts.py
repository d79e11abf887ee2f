"""tool_errors_fts after a refresh: an append indexes only the failures it adds (see
pastfix.build's _watch_errors_fts); any other change of a failure indexes them all again.
Either way the index holds what a whole refresh makes of the failures."""

import sqlite3

import pytest
from conftest import build_index
from jsonl import failing_session, write_jsonl

from pastfix import build as pbuild
from pastfix import db as pdb

A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
B = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"


def _terms(db_path, whole=False):
    """Every word of tool_errors_fts with the failure and place it is at (fts5vocab's
    instances), and the failures it holds; with `whole`, of the index refreshed whole."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        if whole:
            pdb.refresh_tool_errors_fts(conn)
        conn.execute("INSERT INTO tool_errors_fts(tool_errors_fts) VALUES('integrity-check')")
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, tool_errors_fts, instance)")
        terms = conn.execute("SELECT * FROM temp.v ORDER BY term, doc, col, offset").fetchall()
        docs = conn.execute("SELECT id FROM tool_errors_fts_docsize ORDER BY id").fetchall()
        conn.execute("ROLLBACK")
    finally:
        conn.close()
    return terms, docs


def _found(db_path, word):
    with sqlite3.connect(db_path) as conn:
        return conn.execute(
            "SELECT count(*) FROM tool_errors_fts WHERE tool_errors_fts MATCH ?", [word]
        ).fetchone()[0]


@pytest.fixture
def refreshes(monkeypatch):
    """How many times a build indexed every failure again."""
    calls = []
    whole = pbuild.refresh_tool_errors_fts
    monkeypatch.setattr(pbuild, "refresh_tool_errors_fts", lambda c: calls.append(1) or whole(c))
    return calls


def _sessions(projects, rounds=2):
    lines_a = failing_session(A, rounds, "error: the zebracorn module broke", "Fix it")
    lines_b = failing_session(B, 2, "error: the quokka type broke", "Fix it")
    path_a = write_jsonl(projects / "-home-dev-a" / f"{A}.jsonl", lines_a)
    write_jsonl(projects / "-home-dev-b" / f"{B}.jsonl", lines_b)
    return path_a


def test_an_append_indexes_only_the_failures_it_adds(tmp_path, refreshes):
    projects, db_path = tmp_path / "projects", tmp_path / "index.db"
    path = _sessions(projects)
    build_index(db_path, projects)
    refreshes.clear()
    # the session grows by two rounds, each a failure with its own words
    grown = failing_session(A, 4, "error: the zebracorn module broke", "Fix it")
    write_jsonl(path, grown[len(failing_session(A, 2, "x", "y")) :], mode="a")
    build_index(db_path, projects)
    assert refreshes == []  # (before: every failure indexed again, for two new ones)
    assert _found(db_path, "step3") == 1 and _found(db_path, "step0") == 2  # (A and B)
    assert _found(db_path, "zebracorn") == 4 and _found(db_path, "quokka") == 2
    assert _terms(db_path) == _terms(db_path, whole=True)


def test_a_file_read_again_from_its_start_indexes_every_failure_again(tmp_path, refreshes):
    projects, db_path = tmp_path / "projects", tmp_path / "index.db"
    path = _sessions(projects)
    build_index(db_path, projects)
    refreshes.clear()
    # rewritten: its failures say other words now (its old rows are deleted)
    write_jsonl(path, failing_session(A, 3, "error: the walrus config broke", "Fix it"))
    build_index(db_path, projects)
    assert refreshes == [1]
    assert _found(db_path, "zebracorn") == 0 and _found(db_path, "walrus") == 3
    assert _terms(db_path) == _terms(db_path, whole=True)


def test_a_refresh_after_an_unfinished_build_indexes_every_failure_again(tmp_path, refreshes):
    projects, db_path = tmp_path / "projects", tmp_path / "index.db"
    path = _sessions(projects)
    build_index(db_path, projects)
    with sqlite3.connect(db_path) as conn:
        # as a build stopped between its groups of files leaves the index
        conn.execute("INSERT OR REPLACE INTO _build_state VALUES ('stale', '1')")
        conn.execute("INSERT INTO tool_errors_fts(tool_errors_fts) VALUES('delete-all')")
    refreshes.clear()
    grown = failing_session(A, 3, "error: the zebracorn module broke", "Fix it")
    write_jsonl(path, grown[len(failing_session(A, 2, "x", "y")) :], mode="a")
    build_index(db_path, projects)
    assert refreshes == [1]
    assert _found(db_path, "zebracorn") == 3 and _found(db_path, "quokka") == 2
    assert _terms(db_path) == _terms(db_path, whole=True)


def test_a_failure_changed_under_the_index_indexes_every_failure_again(tmp_path, refreshes):
    """A row's text changed in the build (redacted again, a set-aside row put back) is
    seen by the triggers, whatever the path that changed it."""
    projects, db_path = tmp_path / "projects", tmp_path / "index.db"
    path = _sessions(projects)
    build_index(db_path, projects)
    refreshes.clear()
    grown = failing_session(A, 3, "error: the zebracorn module broke", "Fix it")
    write_jsonl(path, grown[len(failing_session(A, 2, "x", "y")) :], mode="a")
    builder_finish = pbuild.Builder._finish

    def finish(self):
        self.conn.execute(
            "UPDATE tool_results SET content = 'error: the okapi broke'"
            " WHERE id = (SELECT min(id) FROM tool_results WHERE is_error = 1)"
        )
        builder_finish(self)

    pbuild.Builder._finish = finish
    try:
        build_index(db_path, projects)
    finally:
        pbuild.Builder._finish = builder_finish
    assert refreshes == [1]
    assert _found(db_path, "okapi") == 1
    assert _terms(db_path) == _terms(db_path, whole=True)
