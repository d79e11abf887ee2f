"""pastfix.queries on plain sqlite3: safe_fts, the canned queries, the session page, `pastfix find`.

The fixture index is built by the real build from JSONL written here (write_corpus, also
used by test_plugin.py and test_browser.py); the real-corpus tests compute their
expectations from the index's own rows.
"""

import codecs
import json
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import jsonl
import pytest
from click.testing import CliRunner
from conftest import REAL_PROJECTS, build_index, needs_real_corpus
from corpus import (
    APP,
    ENOENT,
    FIND_COLUMNS,
    HOSTILE,
    LIB,
    NOVEL,
    OTHER,
    PAST,
    READ_OUTPUT,
    TS_ERROR,
    Session,
    session_page,
    ts,
    write_corpus,
    write_short_error_and_wordy_log,
)
from hypothesis import given
from hypothesis import strategies as st

from pastfix import LATEST_MIGRATION, cards, hook, queries, signatures
from pastfix import db as pdb
from pastfix.cli import cli
from pastfix.records import MAX_TEXT, TEXT_HEAD

# -- a small corpus, written line by line --------------------------------------


@pytest.fixture(scope="module")
def index_path(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    path = root / "index.db"
    build_index(path, write_corpus(root))
    return path


@pytest.fixture
def conn(index_path):
    conn = queries.connect(index_path)
    yield conn
    conn.close()


def rows(conn, sql, **params):
    cursor = conn.execute(sql, params)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor]


# -- safe_fts -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,mode,expected",
    [
        ("EISDIR", "all", '"EISDIR"'),
        ("Exit code 127", "all", '"Exit" "code" "127"'),
        ("Exit code 127", "any", '"Exit" OR "code" OR "127"'),
        ("EISDIR", "any", queries.MATCH_NOTHING),
        ('foo"bar', "all", '"foo""bar"'),
        ("AND OR NOT", "all", '"AND" "OR" "NOT"'),
        ("col:x NEAR(a", "all", '"col:x" "NEAR(a"'),
        ("- * ( ) ^", "all", queries.MATCH_NOTHING),
        ("", "all", queries.MATCH_NOTHING),
        (None, "all", queries.MATCH_NOTHING),
        ("a\x00b", "all", '"a" "b"'),
        ("raw: ENOENT OR EISDIR", "all", "ENOENT OR EISDIR"),
        ("RAW:  NEAR(no file, 3) ", "all", "NEAR(no file, 3)"),
        ("raw: ENOENT OR EISDIR", "any", queries.MATCH_NOTHING),
        ("raw: (", "all", queries.MATCH_NOTHING),
        ("raw: a AND", "all", '"a" "AND"'),
        ("raw: a AND", "any", '"a" OR "AND"'),
        ("raw: col:x", "all", '"col:x"'),
        ("raw: content:x", "all", "content:x"),
    ],
)
def test_safe_fts(text, mode, expected):
    assert queries.safe_fts(text, mode) == expected


def test_safe_fts_raw_checks_the_column():
    assert queries.safe_fts("raw: text:x", "all", "text") == "text:x"
    assert queries.safe_fts("raw: text:x", "all", "content") == '"text:x"'


def test_safe_fts_caps_words():
    assert queries.safe_fts("w " * 100).count('"w"') == queries.MAX_WORDS


def test_a_raw_expression_of_too_many_words_is_matched_as_words():
    """FTS5 checks NEAR(the the ...) in one step of SQLite, which no time limit stops."""
    near = "NEAR(" + " ".join(["the"] * (queries.RAW_MAX_WORDS - 1)) + ")"
    assert queries.safe_fts(f"raw: {near}") == near
    longer = "NEAR(" + " ".join(["the"] * 1000) + ")"
    assert queries.safe_fts(f"raw: {longer}") == queries.safe_fts(longer)


def test_the_parse_cache_keeps_no_long_expression():
    queries._parses_cached.cache_clear()
    queries.safe_fts("raw: a OR b")
    long = "raw: " + "x" * (queries.PARSE_CACHE_CHARS + 1)
    for i in range(3):
        queries.safe_fts(long + str(i))
    assert queries._parses_cached.cache_info().currsize == 1


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("mode", ["all", "any"])
def test_safe_fts_always_parses(text, mode):
    db = sqlite3.connect(":memory:")
    db.execute("create virtual table f using fts5(content)")
    db.execute("insert into f values ('ENOENT no such file a-b x')")
    db.execute("select * from f where f match ?", [queries.safe_fts(text, mode)]).fetchall()


# -- find_past_fix ---------------------------------------------------------------


def test_find_past_fix_rows(conn):
    found = queries.find_past_fix(conn, "ENOENT dist/index.js")
    assert [list(row) for row in found] == [FIND_COLUMNS, FIND_COLUMNS]
    scores = {row.pop("score") for row in found}
    # The same error text scores the same: the more recent failure comes first.
    assert len(scores) == 1 and scores.pop() < 0
    # The key line, the pasted words highlighted in the HTML version only (`dist/index.js`
    # as one: the phrase of its tokens that the words matched).
    snippet = "Error: ENOENT: no such file or directory, open '/home/u/app/dist/index.js'"
    html = (
        "Error: <mark>ENOENT</mark>: no such file or directory, open"
        " &#x27;/home/u/app/<mark>dist/index.js</mark>&#x27;"
    )
    assert found == [
        {
            "session_id": "s2",
            "project": LIB,
            "failed_at": ts(2003),
            "tool": "Bash",
            "target": "npm run build",
            "error_snippet": snippet,
            "next_text": "Creating the missing dist/index.js.",
            "next_ok_target": "npm run build",
            "files_edited_after": [f"{LIB}/dist/index.js"],
            "resume": "claude --resume s2",
            "tool_use_id": "u1",
            "next_ok_tool_use_id": "u3",
            "matched": "all words",
            "signature": signatures.signature(ENOENT),
            "kind": "error",
            "occurrences": 1,
            "left_unsolved": 0,
            # The same command succeeded after the missing file was written: the Write
            # is the remedy, the unchanged retry its confirmation.
            "fixed_at": ts(2007),
            "fix_tool_use_id": "u3",
            "fix_target": "npm run build",
            "fix_as_was": 1,
            "outcome": "fixed",
            "remedy": [
                {
                    "tool_use_id": "u2",
                    "tool": "Write",
                    "target": f"{LIB}/dist/index.js",
                    "change": None,
                }
            ],
            "fix_edits": [
                {
                    "tool": "Write",
                    "file_path": f"{LIB}/dist/index.js",
                    "tool_use_id": "u2",
                    "old": "",
                    "new": "x",
                }
            ],
            "fix_calls": [],
            "next_calls": [],
            "session_title": "build lib",
            "turn_prompt": None,  # its first prompt's turn: the title says it
            "session_url": "/index/-/session/s2?call=u1#call-u1",
            "error_snippet_html": html,
            "error": ENOENT,
            "agent": "claude",
            "error_length": len(ENOENT),
            # Two words of a longer key line: not its text, seven words from it.
            "same_text": 0,
            "text_distance": 7,
            "other_folder": 0,
            "other_shell": 0,
            "shared_words": [],
            "other_file": 0,
            "other_names": 0,
            "transcript_deleted_at": None,
            "fix_error": None,
        },
        {
            "session_id": "s1",
            "project": APP,
            "failed_at": ts(4),
            "tool": "Bash",
            "target": "npm run build",
            "error_snippet": snippet,
            "next_text": "The dist folder is missing; I will create it in build.js.",
            "next_ok_target": "mkdir -p dist && npm run build",
            "files_edited_after": [f"{APP}/build.js"],
            "resume": "claude --resume s1",
            "tool_use_id": "t1",
            "next_ok_tool_use_id": "t3",
            "matched": "all words",
            "signature": signatures.signature(ENOENT),
            "kind": "error",
            "occurrences": 1,
            "left_unsolved": 0,
            # `mkdir -p dist && npm run build` runs the same build after a mkdir: a changed
            # retry, which is part of the remedy and says what changed.
            "fixed_at": ts(8),
            "fix_tool_use_id": "t3",
            "fix_target": "mkdir -p dist && npm run build",
            "fix_as_was": 0,
            "outcome": "fixed",
            "remedy": [
                {"tool_use_id": "t2", "tool": "Edit", "target": f"{APP}/build.js", "change": None},
                {
                    "tool_use_id": "t3",
                    "tool": "Bash",
                    "target": "mkdir -p dist && npm run build",
                    "change": "first mkdir -p dist",
                },
            ],
            "fix_edits": [
                {
                    "tool": "Edit",
                    "file_path": f"{APP}/build.js",
                    "tool_use_id": "t2",
                    "old": "a",
                    "new": "b",
                }
            ],
            "fix_calls": [],
            "next_calls": [],
            "session_title": "fix the build",
            "turn_prompt": None,
            "session_url": "/index/-/session/s1?call=t1#call-t1",
            "error_snippet_html": html,
            "error": ENOENT,
            "agent": "claude",
            "error_length": len(ENOENT),
            "same_text": 0,
            "text_distance": 7,
            "other_folder": 0,
            "other_shell": 0,
            "shared_words": [],
            "other_file": 0,
            "other_names": 0,
            "transcript_deleted_at": None,
            "fix_error": None,
        },
    ]


def test_find_past_fix_next_steps_of_a_read(conn):
    [row] = queries.find_past_fix(conn, "EISDIR: illegal operation")
    assert (row["session_id"], row["tool"], row["target"]) == ("s1", "Read", f"{APP}/src")
    assert row["error_snippet"] == "EISDIR: illegal operation on a directory, read"
    assert row["error_snippet_html"] == (
        "<mark>EISDIR</mark>: <mark>illegal</mark> <mark>operation</mark> on a directory, read"
    )
    assert row["next_text"] == "That is a directory; reading the file inside it."
    assert (row["next_ok_target"], row["next_ok_tool_use_id"]) == (f"{APP}/src/index.js", "t5")
    # Edits before the failure do not count.
    assert row["files_edited_after"] == []


def test_find_past_fix_in_a_subagent_follows_that_subagent(conn):
    [row] = queries.find_past_fix(conn, "File does not exist")
    assert (row["session_id"], row["tool_use_id"], row["project"]) == ("s3", "w1", LIB)
    assert row["next_text"] == "No such file; listing the directory instead."
    assert row["next_ok_target"] == f"{LIB}/README.md"


def test_find_past_fix_falls_back_to_some_words(conn):
    found = queries.find_past_fix(conn, "EISDIR zzzunknownword")
    assert [(r["tool_use_id"], r["matched"]) for r in found] == [("t4", "some words")]
    assert found[0]["error_snippet_html"].startswith("<mark>EISDIR</mark>:")


def test_find_past_fix_matches_words_not_operators(conn):
    # No failure holds the three words ENOENT, OR, EISDIR: some of them match.
    words = queries.find_past_fix(conn, "ENOENT OR EISDIR")
    assert sorted((r["tool_use_id"], r["matched"]) for r in words) == [
        ("t1", "some words"),
        ("t4", "some words"),
        ("u1", "some words"),
    ]
    raw = queries.find_past_fix(conn, "raw: ENOENT OR EISDIR")
    assert sorted((r["tool_use_id"], r["matched"]) for r in raw) == [
        ("t1", "all words"),
        ("t4", "all words"),
        ("u1", "all words"),
    ]
    assert queries.find_past_fix(conn, "raw: ENOENT NOT directory") == []
    # Text in successful results is not searched.
    assert "t5" not in [r["tool_use_id"] for r in queries.find_past_fix(conn, "ENOENT")]


def test_a_query_over_the_time_limit_stops_with_a_one_line_error(index_path, monkeypatch):
    monkeypatch.setattr(queries, "TIME_LIMIT", 1e-6)  # past at the progress handler's first look
    conn = queries.connect(index_path)
    with pytest.raises(queries.QueryError, match=r"^query took longer than 1e-06 s; narrow it$"):
        queries.find_past_fix(conn, "ENOENT dist/index.js")
    # The limit is per query, and the connection is usable after one was stopped.
    conn.time_limit = 0
    assert queries.find_past_fix(conn, "ENOENT dist/index.js")
    conn.close()


def test_a_pattern_too_long_for_sqlites_like_is_still_searched(conn):
    """LIKE refuses a pattern over 50,000 bytes; the queries use instr() for such text."""
    assert queries.run(conn, "session_tool_output", session_id="s1", pattern="x" * 60_000) == []
    assert queries.run(conn, "search_tool_output", pattern="x" * 60_000, project="y" * 60_000) == []
    memory = sqlite3.connect(":memory:")
    found = f"select {queries._contains(':content', ':pattern')}"
    long = "Ab%_\\" * 12_000  # 72,000 bytes once escaped for LIKE
    for content, pattern, expected in [
        ("x" + long.upper() + "y", long, 1),  # ASCII case folded, as LIKE does
        ("x" + long[:-1] + "y", long, 0),
        ("it's 50% done", "50%", 1),  # short text: LIKE, % literal
        ("it's 50 done", "50%", 0),
    ]:
        assert memory.execute(found, {"content": content, "pattern": pattern}).fetchone()[0] == (
            expected
        )


def test_find_past_fix_limit(conn):
    assert [r["tool_use_id"] for r in queries.find_past_fix(conn, "ENOENT", limit=1)] == ["u1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_find_past_fix_hostile_input(conn, text):
    found = queries.find_past_fix(conn, text)
    assert all(row["session_id"] in {"s1", "s2", "s3"} for row in found)


def test_find_past_fix_uses_the_indexes(conn):
    plan = "\n".join(
        r[3]
        for r in conn.execute(
            "explain query plan " + queries.find_past_fix_sql(), {"error": "x", "limit": ""}
        )
    )
    assert "SEARCH n USING INDEX idx_messages_session (session_id=? AND timestamp>?)" in plan
    assert "SEARCH c2 USING INDEX idx_tc_session (session_id=? AND timestamp>?)" in plan
    window = "USING INDEX idx_tc_session (session_id=? AND timestamp>? AND timestamp<?)"
    assert f"SEARCH e {window}" in plan
    # what fixed each failure: its row of the fixes table, its steps by their ids
    assert "SEARCH fx USING INDEX sqlite_autoindex_fixes_1 (tool_use_id=?)" in plan
    assert "SEARCH k USING INDEX sqlite_autoindex_tool_calls_1 (tool_use_id=?)" in plan
    assert "SEARCH tr USING INTEGER PRIMARY KEY (rowid=?)" in plan
    # The one scan: the signature index of the failures (a small partial index), for the
    # signatures that stand in the pasted text, read only when nothing else matched.
    scans = [line for line in plan.splitlines() if line.startswith("SCAN tr")]
    assert scans == ["SCAN tr USING INDEX idx_tr_signature"], scans
    assert "SCAN tool_results" not in plan and "SCAN messages" not in plan


# -- grouped by signature: find_past_fix, recurring_errors, file_history ------------

APP_PY = f"{APP}/src/app.py"
MISSING = "FileNotFoundError: [Errno 2] No such file or directory: '{}'"
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it"
    " was a file edit, the new_string was NOT written to the file). STOP what you are doing and"
    " wait for the user to tell you how to proceed."
)
LOCKED = "error: cannot proceed, the lock file is held\n" + "while installing packages\n" * 40
MAKE_SESSIONS = 25


def traceback(line, path):
    return (
        "Exit code 1\nTraceback (most recent call last):\n"
        f'  File "{APP}/load.py", line {line}, in <module>\n    open(path)\n' + MISSING.format(path)
    )


def write_recurring_corpus(root: Path) -> Path:
    """One error six times in r1 and once in r2, noise, file edits, and many make failures."""
    projects = root / "projects"
    r1 = Session("r1", APP, 0).prompt("load the data")
    for i in range(6):
        r1.call(f"r1-{i}", "Bash", command="python load.py")
        r1.result(f"r1-{i}", traceback(10 + i, f"/tmp/pytest-of-u/pytest-{i}/data.json"), True)
    r1.call("r1-read", "Read", file_path=APP_PY).result("r1-read", "     1→import os")
    r1.call("r1-edit", "Edit", file_path=APP_PY, old_string="x", new_string="y")
    r1.result("r1-edit", "<tool_use_error>String to replace not found in file.", True)
    r1.call("r1-edit2", "Edit", file_path=APP_PY, old_string="os", new_string="sys")
    r1.result("r1-edit2", "The file has been updated.")
    r1.call("r1-rm", "Bash", command="rm -rf build").result("r1-rm", REJECTED, True)
    r1.write(projects / "-home-u-app" / "r1.jsonl")
    r2 = Session("r2", LIB, 5000).prompt("load it here too")
    r2.call("r2-0", "Bash", command="python load.py")
    r2.result("r2-0", traceback(99, "/var/folders/xy/T/run-41/data.json"), True)
    r2.call("r2-lock", "Bash", command="npm install").result("r2-lock", LOCKED, True)
    r2.call("r2-read", "Read", file_path=f"{LIB}/src/app.py").result("r2-read", "1→x")
    r2.write(projects / "-home-u-lib" / "r2.jsonl")
    for n in range(MAKE_SESSIONS):
        make = Session(f"m{n:02}", "/home/u/make", 6000 + 10 * n).prompt("build")
        make.call(f"m{n:02}-1", "Bash", command="make")
        make.result(f"m{n:02}-1", "Exit code 2\nmake: *** [Makefile:12: all] Error 2", True)
        make.write(projects / "-home-u-make" / f"m{n:02}.jsonl")
    return projects


@pytest.fixture(scope="module")
def recurring(tmp_path_factory):
    root = tmp_path_factory.mktemp("recurring")
    build_index(root / "index.db", write_recurring_corpus(root))
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


def test_find_past_fix_one_row_per_session_and_signature(recurring):
    found = queries.find_past_fix(recurring, "FileNotFoundError data.json")
    assert [(r["session_id"], r["occurrences"], r["matched"]) for r in found] == [
        ("r2", 1, "all words"),
        ("r1", 6, "all words"),
    ]
    assert found[0]["signature"] == found[1]["signature"] != ""
    # The group shows its most recent failure among equally good ones.
    assert found[1]["tool_use_id"] == "r1-5"


def test_find_past_fix_matches_an_error_from_another_place_by_signature(recurring):
    pasted = traceback(240, "/tmp/pytest-of-someone/pytest-7/data.json")
    found = queries.find_past_fix(recurring, pasted)
    assert [(r["session_id"], r["matched"], r["occurrences"]) for r in found[:2]] == [
        ("r2", "signature", 1),
        ("r1", "signature", 6),
    ]
    assert found[0]["signature"] == signatures.signature(pasted)
    # No FTS match to highlight: the key line of the past failure is shown.
    # The key line first, then where the other pasted words are.
    first = found[0]["error_snippet"].splitlines()[0]
    assert first == MISSING.format("/var/folders/xy/T/run-41/data.json")
    assert found[0]["score"] is None
    # Only the key line, pasted with other details, finds them too.
    line = MISSING.format("/private/var/folders/q1/T/ci/data.json")
    assert [r["session_id"] for r in queries.find_past_fix(recurring, line)][:2] == ["r2", "r1"]
    # A file outside a temporary folder, its name only in a random one's: the same error
    # about another file, as one of another name is (not "the same error signature": a
    # new user's made-up error got an unrelated file's fix, session 33)
    for other in ("/srv/ci/work/data.json", "models/weights.pt"):
        found = queries.find_past_fix(recurring, MISSING.format(other))
        assert [(r["session_id"], r["other_file"]) for r in found[:2]] == [("r2", 1), ("r1", 1)]


def test_find_past_fix_puts_real_errors_before_noise(recurring):
    found = queries.find_past_fix(recurring, "proceed")
    assert [(r["tool_use_id"], r["kind"]) for r in found] == [
        ("r2-lock", "error"),
        ("r1-rm", "rejected"),
    ]
    # bm25 alone would put the short rejection first.
    assert found[0]["score"] > found[1]["score"]


@pytest.mark.parametrize(
    "limit,rows",
    [("", 20), (None, 20), ("0", 20), ("abc", 20), ("5", 5), (" 25 ", 25), ("-3", 1)],
)
def test_find_past_fix_limit_parameter(recurring, limit, rows):
    found = queries.run(recurring, "find_past_fix", error="make Error 2", limit=limit)
    assert len(found) == rows
    assert len({r["session_id"] for r in found}) == rows


def test_find_past_fix_limit_is_capped(recurring, monkeypatch):
    monkeypatch.setattr(queries, "FIND_MAX", 3)
    sql = queries.find_past_fix_sql()
    found = recurring.execute(sql, {"error": "make Error 2", "limit": "1000"}).fetchall()
    assert len(found) == 3


def test_recurring_errors(recurring):
    found = queries.run(recurring, "recurring_errors", project="", noise="")
    missing = signatures.signature(traceback(1, "/tmp/x/data.json"))
    make = signatures.signature("Exit code 2\nmake: *** [Makefile:12: all] Error 2")
    assert [(r["signature"], r["failures"], r["sessions"], r["projects"]) for r in found[:2]] == [
        (make, MAKE_SESSIONS, MAKE_SESSIONS, 1),
        (missing, 7, 2, 2),
    ]
    first = found[1]
    assert (first["kind"], first["first_seen"], first["last_seen"]) == ("error", ts(3), ts(5003))
    assert first["example"] == MISSING.format("/var/folders/xy/T/run-41/data.json")
    kinds = [r["kind"] for r in found]
    # Real errors first, Claude Code's noise after them.
    assert kinds == sorted(kinds, key=lambda k: k != "error")
    assert {"rejected", "string_not_found"} <= set(kinds)
    hidden = queries.run(recurring, "recurring_errors", project="", noise="hide")
    assert {r["kind"] for r in hidden} == {"error"}
    assert len(hidden) == len(found) - 2
    lib = queries.run(recurring, "recurring_errors", project="u/lib", noise="")
    assert [(r["failures"], r["sessions"]) for r in lib if r["signature"] == missing] == [(1, 1)]
    assert {r["signature"] for r in lib} == {missing, signatures.signature(LOCKED)}


def test_recurring_errors_put_an_exit_status_alone_after_the_errors_named(tmp_path):
    """`Exit code 1` three times led "the errors you keep hitting" above an error met once,
    though find says it names no error (a new user's try, session 35)."""
    rows = []
    for n, (session, error) in enumerate(
        [("s1", "Exit code 1"), ("s2", "Exit code 1"), ("s3", "Exit code 1"),
         ("s4", "Exit code 1\nModuleNotFoundError: No module named 'yaml'")]
    ):  # fmt: skip
        at = f"2026-01-0{n + 1}T10:00:0"
        rows += [
            jsonl.prompt(f"u{n}", session, "run it", at + "0Z"),
            jsonl.tool_use(f"a{n}", session, f"t{n}", "Bash", {"command": "make"}, at + "1Z"),
            jsonl.result(f"r{n}", session, f"t{n}", error, at + "2Z", True),
        ]
    jsonl.write_jsonl(tmp_path / "projects" / "-w-app" / "s.jsonl", rows)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    found = queries.run(conn, "recurring_errors", project="", noise="")
    assert [(r["signature"], r["failures"]) for r in found] == [
        ("ModuleNotFoundError: No module named 'yaml'", 1),
        ("Exit code 1", 3),
    ]


def test_recurring_errors_link_to_find_past_fix(recurring):
    for row in queries.run(recurring, "recurring_errors", project="", noise=""):
        found = queries.find_past_fix(recurring, row["example"], limit=queries.FIND_MAX)
        assert row["sessions"] == sum(r["signature"] == row["signature"] for r in found)


def test_file_history(recurring):
    def history(path):
        return [
            (r["session_id"], r["reads"], r["edits"], r["calls"], r["failed"])
            for r in queries.run(recurring, "file_history", path=path)
        ]

    both = [("r2", 1, 0, 1, 0), ("r1", 1, 2, 3, 1)]
    assert history("src/app.py") == both
    assert history("/src/app.py") == both
    assert history("app.py") == both
    assert history(APP_PY) == [("r1", 1, 2, 3, 1)]
    assert history("p.py") == []
    assert history("") == []
    [r1] = queries.run(recurring, "file_history", path=APP_PY)
    assert r1["last_error"] == "<tool_use_error>String to replace not found in file."
    assert (r1["project"], r1["paths"]) == (APP, APP_PY)


# -- ranking within the matches, and errors not seen before ---------------------------

AGENT_ERROR = "Exit code 1\nError: Agent type '{}' not found. Available agents: general-purpose"
DOCKER = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is it running?"
UNSEEN_ERRORS = json.loads((Path(__file__).parent / "data" / "unseen_errors.json").read_text())


def write_ranking_corpus(root: Path) -> Path:
    """Look-alikes of one signature, newest last; one error fixed in its older session only."""
    projects = root / "projects"
    for n, agent in enumerate(["code-reviewer", "planner", "tester"]):
        s = Session(f"agent{n}", APP, 100 * n).prompt("review")
        s.call(f"ag{n}", "Task", description="Review", subagent_type=agent)
        s.result(f"ag{n}", AGENT_ERROR.format(agent), True).say("No such agent.")
        s.write(projects / "-home-u-app" / f"agent{n}.jsonl")
    fixed = Session("docker-fixed", LIB, 1000).prompt("start it")
    fixed.call("d1", "Bash", command="docker compose up")
    fixed.result("d1", f"Exit code 1\n{DOCKER}", True)
    fixed.call("d2", "Bash", command="colima start").result("d2", "done")
    fixed.call("d3", "Bash", command="docker compose up").result("d3", "Started")
    fixed.write(projects / "-home-u-lib" / "docker-fixed.jsonl")
    unfixed = Session("docker-unfixed", LIB, 2000).prompt("start it again")
    unfixed.call("e1", "Bash", command="docker compose up")
    unfixed.result("e1", f"Exit code 1\n{DOCKER}", True).say("Docker is not running; giving up.")
    unfixed.write(projects / "-home-u-lib" / "docker-unfixed.jsonl")
    return projects


@pytest.fixture(scope="module")
def ranking(tmp_path_factory):
    root = tmp_path_factory.mktemp("ranking")
    build_index(root / "index.db", write_ranking_corpus(root))
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    "agent,session,distances",
    [("code-reviewer", "agent0", [0, 3, 3]), ("planner", "agent1", [0, 2, 3])],
)
def test_find_past_fix_the_text_itself_before_a_look_alike(ranking, agent, session, distances):
    """The failure whose key line is the pasted one first, though look-alikes are newer."""
    for pasted in (
        f"Error: Agent type '{agent}' not found. Available agents: general-purpose",
        AGENT_ERROR.format(agent),  # pasted whole
    ):
        found = queries.find_past_fix(ranking, pasted)
        assert [r["matched"] for r in found] == ["signature"] * 3
        assert found[0]["session_id"] == session
        assert [r["same_text"] for r in found] == [1, 0, 0]
        # The look-alikes differ by the agent's name (code-reviewer is two words), the
        # closest first.
        assert [r["text_distance"] for r in found] == distances


def test_find_past_fix_runs_each_rule_once_per_failure_and_redacts_the_paste_once(
    ranking, monkeypatch
):
    """The rules find_past_fix runs on each failure compared run once for it, though the
    next part of the query reads their answers twice (keyed: ordered by, then shown), and
    the paste is redacted once, though the query reads it in thirty places."""
    from pastfix import redact

    calls: Counter[str] = Counter()

    def counted(name, rule):
        def call(*args):
            calls[name] += 1
            return rule(*args)

        return call

    for name in ("text_distance", "other_folder", "_diagnosed_file"):
        monkeypatch.setattr(queries, name, counted(name, getattr(queries, name)))
    monkeypatch.setattr(redact, "redact", counted("redact", redact.redact))
    path = ranking.execute("pragma database_list").fetchone()[2]
    conn = queries.connect(path)
    try:
        for n, agent in enumerate(("code-reviewer", "planner"), 1):
            found = queries.find_past_fix(conn, AGENT_ERROR.format(agent))
            assert len(found) == 3
            # (each failure compared once: its file, diagnosed once, is no less asked)
            assert calls["text_distance"] == calls["other_folder"] == calls["_diagnosed_file"]
            assert calls["redact"] == n
    finally:
        conn.close()
    assert calls["_diagnosed_file"] >= 6


def write_pasted_among_words_corpus(root: Path) -> Path:
    """One missing page in two projects (the other's fixed, newer), and `ls` of missing
    folders, the other folders' fixed and newer."""
    projects = root / "projects"
    mine = Session("mine", APP, 0).prompt("show the page")
    mine.call("m1", "Bash", command="sed -n 1,40p web/src/app/page.tsx")
    mine.result("m1", "Exit code 2\nsed: web/src/app/page.tsx: No such file or directory", True)
    mine.call("m2", "Bash", command="ls -a .vscode/")
    mine.result("m2", "Exit code 2\nls: cannot access '.vscode/': No such file or directory", True)
    mine.write(projects / "-home-u-app" / "mine.jsonl")
    for n, folder in enumerate(["logs", "types"]):
        other = Session(f"other{n}", LIB, 1000 + 100 * n).prompt("look around")
        other.call(f"o{n}", "Bash", command="sed -n 1,40p site/pages/page.tsx")
        other.result(
            f"o{n}", "Exit code 2\nsed: site/pages/page.tsx: No such file or directory", True
        )
        other.call(f"o{n}b", "Write", file_path=f"{LIB}/site/pages/page.tsx", content="x")
        other.result(f"o{n}b", "File created successfully")
        other.call(f"o{n}c", "Bash", command="sed -n 1,40p site/pages/page.tsx")
        other.result(f"o{n}c", "x")
        other.call(f"l{n}", "Bash", command=f"ls {folder}/")
        other.result(
            f"l{n}", f"Exit code 2\nls: cannot access '{folder}/': No such file or directory", True
        )
        other.call(f"l{n}b", "Bash", command=f"mkdir -p {folder} && ls {folder}/").result(
            f"l{n}b", ""
        )
        other.write(projects / "-home-u-lib" / f"other{n}.jsonl")
    return projects


@pytest.mark.parametrize(
    "around",
    [
        "{}",
        "2026-03-04T05:06:07.890Z {}",
        "getting this error: {} - any idea?",
        "{}\nhint: see above",
    ],
)
def test_find_past_fix_a_key_line_among_words_finds_its_own_failure_first(tmp_path, around):
    """Pasted after a log's timestamp or inside a question, a failure's key line still finds
    that failure first: the one whose paths name every folder the paste names before the
    same error in another project (fixed, newer), and the error itself (its folder's name
    `.vscode/`, a trailing slash and all) before the same error about another folder."""
    build_index(tmp_path / "index.db", write_pasted_among_words_corpus(tmp_path))
    conn = queries.connect(tmp_path / "index.db")
    try:
        page = around.format("sed: web/src/app/page.tsx: No such file or directory")
        found = queries.find_past_fix(conn, page)
        assert [(r["session_id"], r["other_folder"]) for r in found][:1] == [("mine", 0)]
        assert {r["other_folder"] for r in found[1:]} == {1}
        vscode = around.format("ls: cannot access '.vscode/': No such file or directory")
        found = queries.find_past_fix(conn, vscode)
        assert (found[0]["session_id"], found[0]["tool_use_id"]) == ("mine", "m2")
        assert found[0]["other_file"] == 0
        assert (
            queries.text_distance("ls: cannot access 'logs/': x", "ls: cannot access '.vscode/': x")
            == 2
        )
    finally:
        conn.close()


def test_find_past_fix_cleans_the_pasted_text(ranking):
    """ANSI escapes, \r and trailing spaces of a terminal go, as from stored text."""
    pasted = (
        "$ claude agents run   \r\n"
        "\x1b[31mError\x1b[0m: Agent type 'planner' not found. Available agents:"
        " general-purpose  \r\n"
    )
    found = queries.find_past_fix(ranking, pasted)
    assert (found[0]["session_id"], found[0]["same_text"]) == ("agent1", 1)
    assert queries.paste_text(pasted) == (
        "$ claude agents run\n"
        "Error: Agent type 'planner' not found. Available agents: general-purpose"
    )


def test_find_past_fix_a_fixed_failure_before_one_that_was_not(ranking):
    found = queries.find_past_fix(ranking, DOCKER)
    assert [(r["session_id"], r["same_text"], r["fix_tool_use_id"]) for r in found] == [
        ("docker-fixed", 1, "d3"),
        ("docker-unfixed", 1, None),
    ]
    assert queries.find_class(found[0]) < queries.find_class(found[1])


def test_find_past_fix_compares_the_key_lines_of_keyed_rows_only(ranking, monkeypatch):
    """Beyond KEYED_ROWS matches (newest first among equals), key lines are not compared."""
    monkeypatch.setattr(queries, "KEYED_ROWS", 1)
    found = rows(ranking, queries.find_past_fix_sql(), error=DOCKER, limit="")
    assert [(r["session_id"], r["same_text"], r["text_distance"]) for r in found] == [
        ("docker-unfixed", 1, 0),
        ("docker-fixed", 0, queries.UNKEYED_DISTANCE),
    ]


def test_find_past_fix_quoted_values_tell_the_text_from_a_look_alike():
    pasted = "Cannot find module 'react' from src/App.tsx"
    assert queries.same_text("Cannot find module 'react' from /home/u/web/src/App.tsx", pasted)
    assert queries.same_text("Cannot find module ‘react’ from lib/App.tsx", pasted)
    assert not queries.same_text("Cannot find module 'vue' from src/App.tsx", pasted)
    assert queries.text_distance("Cannot find module 'vue' from src/App.tsx", pasted) == 2
    assert queries.text_distance("Cannot find module 'react' from x/App.tsx", pasted) == 0


@pytest.mark.parametrize(
    "error,words",
    [
        ("Segmentation fault (core dumped) in libgtk-3.so.0", ["libgtk-3.so", "libgtk-3.so.0"]),
        ("Error: listen EADDRINUSE: address already in use :::3000", ["EADDRINUSE"]),
        # Only ordinary words: nothing a near match could share.
        ("panic: runtime error: index out of range [3] with length 3", []),
        (
            'ERROR:  duplicate key value violates unique constraint "users_email_key"',
            ["users_email_key"],
        ),
        ("undefined method `each' for nil:NilClass (NoMethodError)", ["NilClass", "NoMethodError"]),
        ("error[E0502]: cannot borrow `v` as mutable", ["E0502"]),
        # an acronym of three letters is no name of the error; a code with digits is
        ("ORA-12154: TLS:could not resolve the connect identifier", ["ORA-12154"]),
        ("SSL: CERTIFICATE_VERIFY_FAILED for the JWT of the API", ["CERTIFICATE_VERIFY_FAILED"]),
        ("java.lang.OutOfMemoryError at 0x7f3a9c2d", ["java.lang", "java.lang.OutOfMemoryError"]),
        ("raw: EADDRINUSE OR ENOENT", []),
        # Joined by `_` or `-<version>` alone, unquoted: a name too, as the README says.
        ("ERROR: violates unique constraint users_email_key", ["users_email_key"]),
        ("error while loading shared libraries: libgtk-3: cannot open", ["libgtk-3"]),
        # Folders every project has are no name of the error: a module not found under
        # node_modules shared only that with the near matches a new user was shown
        ("Error: Cannot find module 'C:\\Users\\me\\node_modules\\x'", []),
        ("Cannot find module '/app/node_modules/left-pad/index.js'", ["index.js"]),
        ("No module named 'x' in /v/.venv/lib/site-packages/__pycache__", []),
        # ... nor the manifests and lockfiles every project of a kind has
        (
            'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because'
            " pnpm-lock.yaml is not up to date with package.json",
            ["ERR_PNPM_OUTDATED_LOCKFILE", "frozen-lockfile"],
        ),
        # Of several lines, the key line's names: not a frame's path, a header, a warning
        (
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads\n'
            "KeyError: 'DATABASE_URL'",
            ["KeyError", "DATABASE_URL"],
        ),
        ('npm warn Unknown env config "store-dir".\nsh: 1: vite: not found', []),
        # a secret's marker is no name of the error (a new user's try, session 27)
        ("Error: connect to postgresql://app:[REDACTED:url-password]@db:5432/app failed", []),
        (
            "** (KeyError) key :user not found in: %{}\n\nFinished in 0.1 seconds\n"
            "Running ExUnit with seed: 1234, max_cases: 16",
            ["KeyError"],
        ),
    ],
)
def test_distinctive_words(error, words):
    assert json.loads(queries.distinctive_words(error)) == words


# _NAME as it was before it looked for a joined name only where a word starts.
_OLD_NAME = re.compile(
    r"(?P<joined>[^\W_]+(?:(?:[._@]|::|-(?=\d))[^\W_]+)+)"
    r"|\b(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+\b"
    r"|\b[^\W_]+[A-Z][^\W_]*\b"
)


@given(st.text(alphabet="aZ9._@:-' \n", max_size=40))
def test_names_are_found_where_the_old_pattern_found_them(text):
    """Starting a joined name at a word's start only finds the same names as before."""
    spans = [m.span() for m in queries._NAME.finditer(text)]
    assert spans == [m.span() for m in _OLD_NAME.finditer(text)]


def test_a_long_word_pasted_is_no_long_wait():
    """A pasted word of 500,000 letters (a minified bundle's line, a base64 blob) kept
    `pastfix find` busy for more than 11 minutes, the hook and the MCP tool too: a joined
    name was tried from every letter of the word, to its end. Now 0.13 s."""
    assert queries.distinctive_words("error: " + "x" * 500_000) == "[]"
    # every dotted prefix of a name of 100,000 parts was joined (7 s for 8,000 parts)
    assert json.loads(queries.distinctive_words("Error: " + "ab." * 100_000)) == [
        "ab.ab",
        "ab.ab.ab",
        "ab.ab.ab.ab",
    ]


def test_find_past_fix_near_matches_share_a_rare_name(ranking):
    """Not seen before: at most NEAR_LIMIT rows, each sharing a name of the error."""
    pasted = "OCI runtime create failed: agent 'planner' exited with SIGKILL"
    found = queries.find_past_fix(ranking, pasted)
    assert not queries.seen_before(found)
    assert [(r["session_id"], r["matched"], r["shared_words"]) for r in found] == [
        ("agent1", "some words", ["planner"]),
    ]
    assert queries.not_seen_notice(pasted, found) == (
        "Not seen before: no past failure has the signature or every word of"
        f" {pasted!r}. 1 partial match, sharing only planner: a different error, maybe related."
    )
    # A name in 3 of the 5 failures is not rare: no near match for it.
    assert queries.find_past_fix(ranking, "OCI: agent 'general-purpose' exited") == []


def test_a_near_match_of_the_errors_code_before_one_of_a_file_name(tmp_path):
    """Not seen before: a near match that shares the error's code (`TS2307`) comes before
    one that shares only a file name of the paste's path (`index.ts`), which is none since
    a file name alone makes no near match (nu43 finding 1). An `ls` listing and an `lsd`
    error came first (nu38 finding 6): the TS2307 failure, about another file, came after
    them. (About another module, it is now the same error about other names.)"""
    projects = tmp_path / "projects"
    ts = "src/utils/sheet.ts:5:22 - error TS2307: Cannot find module 'xlsx' or its corresponding"
    for sid, minutes, command, error in (
        ("tsc", 0, "npx tsc --noEmit", f"Exit code 2\n{ts} type declarations."),
        ("lsd", 100, "lsd src/index.ts", "Exit code 2\nlsd: src/index.ts: No such file"),
        ("make", 200, "make", "Exit code 2\nmake: *** [all] Error 2"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", error, error=True)
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = (
            "src/index.ts:1:20 - error TS2307: Cannot find module 'lodash' or its"
            " corresponding type declarations."
        )
        found = queries.find_past_fix(conn, pasted)
        assert not queries.seen_before(found)
        # (another module's TS2307 is the same error about other names: another_value)
        assert [(r["session_id"], r["other_names"]) for r in found] == [("tsc", 1)]
    finally:
        conn.close()


def test_a_near_match_shares_a_word_it_can_name_or_is_not_shown(tmp_path):
    """The full-text index matches more loosely than a word can be named (`café` for
    `cafe`, its accents set aside): such a row was shown as `[partial: shares ]`, sharing
    nothing (a new user's try, session 30). The failure is found when it shares a name."""
    sid = "11111111-1111-4111-8111-111111111111"
    at = "2026-01-01T10:00:0{}Z".format
    lines = []
    said = ["importer: cafe loader broke the parser", "make: *** [all] Error 2", "npm error E404"]
    for i, text in enumerate(said):
        lines += [
            jsonl.tool_use(f"a{i}", sid, f"t{i}", "Bash", {"command": "make"}, at(2 * i)),
            jsonl.result(f"r{i}", sid, f"t{i}", f"Exit code 1\n{text}", at(2 * i + 1), True),
        ]
    jsonl.write_jsonl(tmp_path / "projects" / "-w" / f"{sid}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    assert queries.find_past_fix(conn, "zzqx: the Café.Loader zzvalidator rejected it") == []
    found = queries.find_past_fix(conn, "zzqx: the cafe.loader zzvalidator rejected it")
    assert [(r["tool_use_id"], r["shared_words"]) for r in found] == [("t0", ["cafe.loader"])]


def _near_match_index(tmp_path: Path) -> sqlite3.Connection:
    """An index of failures that share only a word that names nothing with a new user's
    made-up errors (nu41 finding 9), and of one that shares the message of one of them."""
    projects = tmp_path / "projects"
    failures = (
        (
            "elixir",
            "mix test",
            "** (RuntimeError) no :secret_key_base configuration found in"
            " SpotterWeb.Endpoint.\nFinished in 2.3s",
        ),
        (
            "cuda",
            "python train.py",
            "RuntimeError: Expected all tensors to be on the same"
            " device, but got weight is on cpu, different from other tensors on cuda:0",
        ),
        ("pip", "python3 -m pip install x", "/usr/bin/python3: No module named pip"),
        (
            "gradle",
            "./gradlew runClient",
            "Execution failed for task ':runClient'.\n"
            "> Process 'command java' finished with non-zero exit value 1\n"
            "  at java.lang.Thread.run(Thread.java:1583)",
        ),
        (
            "apt",
            "sudo apt update",
            "E: Malformed entry 1 in list file"
            " /etc/apt/sources.list.d/github-cli.list ([option] not assignment)",
        ),
        ("py", "python -c 1", "TypeError: list indices must be integers or slices, not str"),
        ("js", "node a.js", "TypeError: Cannot read properties of undefined (reading 'trim')"),
        ("make", "make", "make: *** [all] Error 2"),
        (
            "frames",
            "pytest",
            "Traceback (most recent call last):\n"
            '  File "/home/u/app/.venv/lib/python3.13/site-packages/_pytest/python.py",'
            " line 498, in importtestmodule\nE   ModuleNotFoundError: No module named 'aiosmtplib'",
        ),
        (
            "table",
            "python seed.py",
            "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) no such table: user\n"
            "[SQL: SELECT user.id, user.username FROM user]",
        ),
        (
            "venv",
            "python3.13 -m venv .venv",
            "The virtual environment was not created successfully because ensurepip is not"
            " available. On Debian/Ubuntu systems, you need to install the python3-venv"
            " package using the following command.\n\n    apt install python3.13-venv",
        ),
        (
            "lock",
            "ls -la .git && git commit -m wip",
            "-rw-r--r-- 1 root root 23 HEAD\nfatal: cannot lock ref 'HEAD': Unable to create"
            " '/srv/app/.git/refs/heads/main.lock': Permission denied",
        ),
        (
            "dump",
            "mysqldump shop",
            "mysqldump: Got error: 1045: Access denied for user 'root'@'localhost' (using"
            " password: NO) when trying to connect",
        ),
        # a word of a file's name in a path, of a shell's glob, and the same word said by
        # the error (nu48 finding 8)
        (
            "glob",
            "git add web/src/pages/[id]/index.tsx",
            "(eval):1: no matches found: web/src/pages/[id]/index.tsx",
        ),
        (
            "ts",
            "npx tsc",
            "src/a.ts(3,5): error TS2536: Type 'k' cannot be used to index type 'T'.",
        ),
    )
    for n, (sid, command, error) in enumerate(failures):
        (
            Session(sid, APP, 10 * n)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    return queries.connect(tmp_path / "index.db")


@pytest.mark.parametrize(
    "pasted, near",
    [
        # the exception class alone names the kind of error, not which: the failure that
        # says the same of its tensors is a near match, Elixir's other RuntimeError is not
        # (another wording of the same device error is the same error: SIGNATURE_VERSION 34)
        (
            "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type"
            " (torch.FloatTensor) should be the same: tensors on cuda:0 and cpu",
            [("cuda", ["RuntimeError", "cuda", "weight", "tensors", "cpu"])],
        ),
        (
            "TypeError: Cannot read properties of null (reading 'map')",
            [("js", ["TypeError", "read", "properties", "reading"])],
        ),
        # a package the class is in, and a class with no message shared
        (
            'Exception in thread "main" java.lang.NullPointerException: Cannot invoke'
            ' "String.length()" because "s" is null',
            [],
        ),
        # a duration differs between two runs of anything
        ("Compiled successfully in 2.3s", []),
        # an interpreter's folder of the paste's own path
        (
            "ImportError: cannot import name 'soft_unicode' from 'markupsafe'"
            " (/usr/lib/python3/dist-packages/markupsafe/__init__.py)",
            [],
        ),
        # a folder shared with the message: apt's sources, another file's malformed entry
        (
            "E: Malformed entry 3 in list file /etc/apt/sources.list.d/docker.list (Component)",
            [("apt", ["sources.list", "sources.list.d", "malformed", "entry", "list"])],
        ),
        # a name a failure holds only as a folder of its traceback's frames, and one it
        # holds only joined otherwise (`user.id` of its SQL: FTS5's phrase `user id`), name
        # nothing of it (nu42 finding 5); the failure that names the package does
        ("E: Unable to locate package python3.13-venv", [("venv", ["python3.13"])]),
        ('PG::UndefinedColumn: ERROR:  column "user_id" does not exist', []),
        # the account an error names is whoever ran it (nu44 finding 5): `ls -l`'s owner
        # `root` makes no near match; mysqldump's, which says the same of that account, does
        (
            "ERROR 1698 (28000): Access denied for user 'root'@'localhost' from sudo",
            [("dump", ["root", "localhost", "access", "user"])],
        ),
        # a name the failures hold only as a part of a file's name or a path is no word of
        # their error (nu48 finding 8: zsh's `no matches found: .../index.tsx` for it); the
        # error that says it is a near match
        (
            "Select-Object: Cannot bind parameter 'Index'. Cannot convert value \"130..260\" to"
            ' type "System.Int32"',
            [("ts", ["Index"])],
        ),
    ],
)
def test_a_near_match_shares_what_names_the_error(tmp_path, pasted, near):
    """A near match shares something that names the error: a name other than its exception
    class or its path's folders, or else its message's words, not a duration (nu41 F9)."""
    conn = _near_match_index(tmp_path)
    try:
        found = queries.find_past_fix(conn, pasted)
        assert not queries.seen_before(found)
        assert [(r["session_id"], r["shared_words"]) for r in found] == near
    finally:
        conn.close()


@pytest.mark.parametrize(
    "pasted, prose",
    [
        ("how do I center a div in css?", True),
        ("Why does npm install fail with EACCES?", True),
        ("The quick brown fox jumps over the lazy dog", True),
        ("Please make the login page look nicer.", True),
        # what programs say
        ("File does not exist.", False),
        ("Segmentation fault (core dumped)", False),
        ("Killed", False),
        ("Exit code 1", False),
        ("Nothing to commit, working tree clean", False),
        ("error: could not lock config file", False),
        # a program's name before what it says (nu45 finding 1)
        ("sudo: a password is required", False),
        ("fatal: the remote end hung up unexpectedly", False),
        ("The user doesn't want to proceed with this tool use.", False),
        # a program's question names no error either (a failure whose key line it is is
        # found by its signature)
        ("Did you mean 'x'?", True),
        ("the", False),
        ("raw: how OR why", False),
    ],
)
def test_reads_as_prose(pasted, prose):
    assert queries.reads_as_prose(pasted) is prose


def test_a_question_is_not_an_error_seen_before(tmp_path):
    """`how do I center a div in css?` had two "fixed" cards, matched by every word of it:
    `text-align: center`, `div` and `css` of an HTML dump in a failed test's output, and
    MCP's `seen_before` said true (nu41 finding 2). Prose is not looked for by its words,
    and the notice says it names no error; a failure whose key line reads so is found by
    its signature still."""
    projects = tmp_path / "projects"
    dump = (
        'Assertion with =~ failed\ncode: assert html =~ ">agent</span>"\nleft: "<style>'
        " .empty-state { text-align: center; } div.header { display: flex; } /* css */"
        ' </style><div class="badge">agent</div>"'
    )
    for n, (sid, error) in enumerate(
        (("mix", dump), ("mcp", "MCP server serena already exists in local config"))
    ):
        (
            Session(sid, APP, 10 * n)
            .call(f"{sid}1", "Bash", command="mix test")
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .call(f"{sid}2", "Bash", command="mix test")
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = "how do I center a div in css?"
        found = queries.find_past_fix(conn, pasted)
        assert found == []
        assert queries.not_seen_notice(pasted, found) == (
            "'how do I center a div in css?' names no error: it reads as a question, not as"
            " a program's output. Long outputs of any error hold its words, so it is looked"
            " for as a failure's error line or lines only, and no past failure's reads so."
            " Paste the line that names the error to find that error."
        )
        # not a question: the words of the dump, as pasted from it, still find it
        found = queries.find_past_fix(conn, "text-align: center; } div.header")
        assert [(r["session_id"], r["matched"]) for r in found] == [("mix", "all words")]
        # a sentence that is a failure's own key line is that failure
        found = queries.find_past_fix(conn, "MCP server serena already exists in local config")
        assert [(r["session_id"], r["matched"]) for r in found] == [("mcp", "signature")]
        assert queries.seen_before(found)
    finally:
        conn.close()


def test_a_sentence_held_as_a_failures_lines_is_found(tmp_path):
    """PEP 668's headline `This environment is externally managed` (pip prints it after a
    `×`) and git's `Please make sure you have the correct access rights and the repository
    exists.` (over two lines) read as sentences and were refused, no rows, while the index
    held them (nu45 finding 1): a sentence a failure holds as its lines is found by its
    words there (holds_as_lines); one whose words are only scattered in outputs is not."""
    projects = tmp_path / "projects"
    pip = (
        "error: externally-managed-environment\n\n× This environment is externally managed\n"
        "╰─> To install Python packages system-wide, try apt install python3-xyz."
    )
    other = "the environment variable PATH is not managed here; this is an externally set value"
    for n, (sid, error) in enumerate((("pip", pip), ("env", other))):
        (
            Session(sid, APP, 10 * n)
            .call(f"{sid}1", "Bash", command="pip install requests")
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .call(f"{sid}2", "Bash", command="true")
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, "This environment is externally managed")
        assert [(r["session_id"], r["matched"]) for r in found] == [("pip", "all words")]
        # every word in `env`'s output too, but no line of it: prose there
        assert queries.find_past_fix(conn, "This is an environment that is managed") == []
    finally:
        conn.close()


@pytest.mark.parametrize(
    "content, held",
    [
        ("x\nPlease make sure you have the correct access rights\nand the repository exists.", 1),
        ("× This environment is externally managed\nmore", 1),
        ("so This environment is externally managed", 0),
        ("This environment is externally managed by apt", 0),
        (None, 0),
    ],
)
def test_holds_as_lines(content, held):
    pasted = (
        "Please make sure you have the correct access rights and the repository exists."
        if content and "Please" in content
        else "This environment is externally managed"
    )
    assert queries.holds_as_lines(content, pasted) is bool(held)


def test_a_warning_alone_names_no_error():
    """`npm warn deprecated inflight@1.0.6: ...` pasted alone was "Not seen before", as an
    error new to the index (nu45 finding 6): a command that warns goes on."""
    warned = "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory."
    assert queries.not_seen_notice(warned, []).startswith(
        "'npm warn deprecated inflight@1.0.6: This module is not supported, and leaks…' names"
        " no error: it is a warning"
    )
    # a compiler's too (it goes on; `-D warnings` makes it `error: unused variable`)
    assert "names no error: it is a warning" in queries.not_seen_notice(
        "warning: unused variable: `x`", []
    )
    assert queries.no_error_notice("npm error code ENOENT\nnpm warn config x") is None
    assert queries.no_error_notice("TypeError: x is not a function") is None


def test_the_not_seen_notice_quotes_the_error_as_pasted():
    """repr() doubled a Windows path's backslashes: the notice named an error never pasted."""
    notice = queries.not_seen_notice(r"C:\Users\me\app.dll was not found", [])
    assert notice == (
        "Not seen before: no past failure has the signature or every word of"
        r" 'C:\Users\me\app.dll was not found'."
    )
    assert queries.not_seen_notice("can't open 'a.txt'", []).endswith(
        """every word of "can't open 'a.txt'"."""
    )
    pasted = "Traceback (most recent call last):\n  ...\nOSError: C:\\tmp\\x is busy\n"
    assert queries.not_seen_notice(pasted, []).endswith(
        r"(its key line: 'OSError: C:\tmp\x is busy')."
    )


def test_the_not_seen_notice_says_no_secret_back():
    """The notice quoted a pasted token as it was pasted, to the terminal and, by MCP, into
    the agent's context (a new user's try, session 25): it is redacted as the index is."""
    token = "ghp_u9Xk2LmQ7rTz4WvB8nYc3JdH6sPa1EfG0iKo"
    for pasted in (f"zorblax failed: token {token} rejected", f"x\nerror: bad token {token}\n"):
        notice = queries.not_seen_notice(pasted, [])
        assert token not in notice and "[REDACTED" in notice


def test_unseen_errors_on_the_demo_corpus(tmp_path):
    from pastfix import transcripts

    build_index(tmp_path / "index.db", transcripts.DEMO_PROJECTS)
    conn = queries.connect(tmp_path / "index.db")
    assert_not_seen_before(conn, UNSEEN_ERRORS)
    conn.close()


def assert_not_seen_before(conn, errors):
    assert len(errors) == 30
    for error in errors:
        found = queries.find_past_fix(conn, error)
        assert not queries.seen_before(found), error
        assert len(found) <= queries.NEAR_LIMIT, error
        names = json.loads(queries.distinctive_words(error))
        for row in found:
            assert row["matched"] == "some words"
            assert row["shared_words"] and set(row["shared_words"]) <= set(names), error
        notice = queries.not_seen_notice(error, found)
        assert notice.startswith("Not seen before: no past failure has the signature or every")


def test_stop_words_are_never_marked():
    text = "fatal: The current branch main has no upstream branch."
    marked = queries.mark_words(text, text, "[", "]")
    assert marked == "[fatal]: The [current] [branch] [main] has no [upstream] [branch]."
    html = queries.error_excerpt(text, "the branch has no upstream", "<mark>", "</mark>")
    assert html == (
        "fatal: The current <mark>branch</mark> main has no <mark>upstream</mark>"
        " <mark>branch</mark>."
    )


def test_a_letter_alone_is_never_marked():
    """A highlight is a word that names something: not apt's `E:` prefix, which marked the
    `E` of pytest's `E   ModuleNotFoundError` (nu42 finding 5), nor any letter alone."""
    pytest_log = "E   ModuleNotFoundError: No module named 'aiosmtplib'\nW x failed in 0.2s"
    pasted = "E: Unable to locate package python3.13-venv\nW: x package can be upgraded"
    assert queries.mark_words(pytest_log, pasted, "[", "]") == pytest_log
    for tokenizer in ("", "trigram"):
        assert "[" not in queries.error_excerpt(pytest_log, pasted, "[", "]", tokenizer)
    # a word of two characters or more still is, and a letter inside a word's phrase
    assert queries.mark_words("E: no go for x-y", "E go x-y", "[", "]") == "E: no [go] for [x-y]"
    # a digit alone is: an exit status
    assert queries.mark_words("Exit code 1", "Exit code 1", "[", "]") == "[Exit] [code] [1]"


UPSTREAM = "fatal: The current branch feature/empty-state has no upstream branch."
MY_FEATURE = "fatal: The current branch my-feature has no upstream branch."


def test_a_pasted_word_is_marked_whole_as_the_matching_takes_it():
    """The words of a paste are matched as spaces separate them (safe_fts quotes each), a
    word of several tokens as their phrase: the `feature` of `my-feature` alone is not
    marked inside `feature/empty-state` (the demo's upstream error)."""
    marked = "[fatal]: The [current] [branch] feature/empty-state has no [upstream] [branch]."
    assert queries.mark_words(UPSTREAM, MY_FEATURE, "[", "]") == marked
    assert queries.error_excerpt(UPSTREAM, MY_FEATURE, "[", "]") == marked
    variants = "my-feature, my_feature, My Feature, my/feature, feature, myfeature, my-features"
    assert queries.mark_words(variants, "my-feature", "[", "]") == (
        "[my-feature], [my_feature], [My Feature], [my/feature], feature, myfeature, my-features"
    )
    # trigram: the characters pasted, as its FTS5 phrase is
    assert queries.error_excerpt(UPSTREAM, MY_FEATURE, "[", "]", "trigram") == (
        "[fatal:] The [current] [branch] feature/empty-state has no [upstream] [branch.]"
    )
    assert queries.mark_words(variants, "my-feature", "[", "]", substrings=True) == (
        "[my-feature], my_feature, My Feature, my/feature, feature, myfeature, [my-feature]s"
    )


def test_the_find_page_marks_no_part_of_a_word(tmp_path):
    """error_snippet_html, what the find page shows: the pasted words, each whole."""
    s = Session("up", APP, 0).prompt("push it").call("p1", "Bash", command="git push")
    s.result("p1", f"Exit code 128\n{UPSTREAM}", True)
    s.call("p2", "Bash", command="git push -u origin feature/empty-state").result("p2", "ok")
    s.write(tmp_path / "projects" / "-home-u-app" / "up.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, MY_FEATURE)
    conn.close()
    assert row["matched"] == "signature"
    assert row["error_snippet_html"] == (
        "<mark>fatal</mark>: The <mark>current</mark> <mark>branch</mark> feature/empty-state"
        " has no <mark>upstream</mark> <mark>branch</mark>."
    )


# -- what fixed it: fix extraction ------------------------------------------------------

ASSERTION = "Exit code 1\nE   AssertionError: assert 1 == 2\nFAILED tests/test_a.py::test_x"
TS2339 = "Exit code 2\nsrc/x.ts(3,5): error TS2339: Property 'y' does not exist on type 'Z'."


PARSE = "Exit code 1\nE   ParseError: unexpected token '}' at line 3"


def write_fix_corpus(root: Path) -> Path:
    """One session per shape of fix (see the tests below)."""
    projects = root / "projects"
    # A failing test, one edit, then the same test passes (without its -x flag).
    one = Session("f1", APP, 0).prompt("make the test pass")
    one.call("f1-b1", "Bash", command="pytest tests/test_a.py -x").result("f1-b1", ASSERTION, True)
    one.call("f1-e1", "Edit", file_path=f"{APP}/a.py", old_string="return 1", new_string="return 2")
    one.result("f1-e1", "The file has been updated.")
    one.call("f1-b2", "Bash", command="pytest tests/test_a.py").result("f1-b2", "1 passed")
    one.write(projects / "-home-u-app" / "f1.jsonl")
    # A Read, two edits and a failed lint before the build passes, run from another dir.
    several = Session("f2", APP, 100).prompt("fix the types")
    several.call("f2-b1", "Bash", command="npm run build").result("f2-b1", TS2339, True)
    several.call("f2-r1", "Read", file_path=f"{APP}/src/x.ts").result("f2-r1", "1→const z")
    several.call("f2-e1", "Edit", file_path=f"{APP}/src/types.ts", old_string="a", new_string="b")
    several.result("f2-e1", "The file has been updated.")
    several.call("f2-e2", "Edit", file_path=f"{APP}/src/x.ts", old_string="z.y", new_string="z.w")
    several.result("f2-e2", "The file has been updated.")
    several.call("f2-l1", "Bash", command="npm run lint").result("f2-l1", "Exit code 1\nlint", True)
    several.call("f2-b2", "Bash", command=f"cd {APP} && npm run build").result("f2-b2", "built")
    several.write(projects / "-home-u-app" / "f2.jsonl")
    # Another command succeeded: not a retry.
    other = Session("f3", APP, 200).prompt("run it")
    other.call("f3-b1", "Bash", command="python app.py")
    other.result("f3-b1", "Exit code 127\nbash: python: command not found", True)
    other.call("f3-b2", "Bash", command="python3 app.py").result("f3-b2", "ok")
    other.write(projects / "-home-u-app" / "f3.jsonl")
    # No retry; the next prompt ends what counts as "after".
    none = Session("f4", APP, 300).prompt("deploy")
    none.call("f4-b1", "Bash", command="make deploy")
    none.result("f4-b1", "Exit code 2\nmake: *** No rule to make target 'deploy'.  Stop.", True)
    none.call("f4-e1", "Edit", file_path=f"{APP}/Makefile", old_string="a", new_string="b")
    none.result("f4-e1", "The file has been updated.")
    none.prompt("never mind, do something else")
    none.call("f4-e2", "Edit", file_path=f"{APP}/other.py", old_string="a", new_string="b")
    none.result("f4-e2", "The file has been updated.")
    none.write(projects / "-home-u-app" / "f4.jsonl")
    # The fix in a subagent, while the main thread runs the same command in between.
    main = Session("f5", APP, 400).prompt("check the go build").call("f5-t", "Task")
    main.minute = 402
    main.call("f5-main", "Bash", command="go test ./...").result("f5-main", "ok (main thread)")
    main.result("f5-t", "Done.")
    main.write(projects / "-home-u-app" / "f5.jsonl")
    sub = Session("f5", APP, 400, agent_id="g1").prompt("run the go tests")
    sub.call("f5-s1", "Bash", command="go test ./...")
    sub.result("f5-s1", "Exit code 1\n./main.go:3:2: undefined: foo", True)
    sub.minute = 403
    sub.call("f5-s2", "Edit", file_path=f"{APP}/main.go", old_string="foo", new_string="bar")
    sub.result("f5-s2", "The file has been updated.")
    sub.call("f5-s3", "Bash", command="go test ./...").result("f5-s3", "ok")
    sub.write(projects / "-home-u-app" / "f5" / "subagents" / "agent-g1.jsonl")
    # Parallel calls: the other file's read is not the retry; the read of the same file is.
    parallel = Session("f6", APP, 500).prompt("read both")
    parallel.call("f6-p1", "Read", file_path=f"{APP}/a.txt")
    parallel.call("f6-p2", "Read", file_path=f"{APP}/b.txt")
    parallel.result("f6-p1", "<tool_use_error>File does not exist.</tool_use_error>", True)
    parallel.result("f6-p2", "1→b")
    parallel.call("f6-w", "Write", file_path=f"{APP}/a.txt", content="a\n")
    parallel.result("f6-w", "File created successfully")
    parallel.call("f6-p3", "Read", file_path=f"{APP}/a.txt").result("f6-p3", "1→a")
    parallel.write(projects / "-home-u-app" / "f6.jsonl")
    # One MultiEdit of three changes, then the test passes.
    multi = Session("f7", APP, 600).prompt("fix the parser")
    multi.call("f7-b1", "Bash", command="pytest tests/test_p.py").result("f7-b1", PARSE, True)
    edits = [{"old_string": f"v{i}", "new_string": f"w{i}"} for i in range(3)]
    multi.call("f7-m", "MultiEdit", file_path=f"{APP}/p.py", edits=edits)
    multi.result("f7-m", "Applied 3 edits to p.py")
    multi.call("f7-b2", "Bash", command="pytest tests/test_p.py").result("f7-b2", "3 passed")
    multi.write(projects / "-home-u-app" / "f7.jsonl")
    # Nothing seen to fix it: what was done next, looks and failures aside.
    later = Session("f8", APP, 700).prompt("convert the workbook")
    later.call("f8-r1", "Read", file_path=f"{APP}/book.xlsx")
    later.result("f8-r1", "This tool cannot read binary files.", True)
    later.call("f8-l", "Bash", command=f"ls -la {APP} && git status").result("f8-l", "x")
    later.call("f8-g", "Grep", pattern="xlsx").result("f8-g", "book.xlsx")
    later.call("f8-f", "Bash", command="python3 dump.py").result("f8-f", "Exit code 1\nboom", True)
    later.call("f8-o", "BashOutput", bash_id="b1").result("f8-o", "running")
    later.call("f8-p", "Bash", command="python3 dump_v2.py book.xlsx").result("f8-p", "rows: 3")
    later.call("f8-w", "Write", file_path=f"{APP}/notes.md", content="3 rows")
    later.result("f8-w", "File created")
    later.call("f8-c", "Bash", command="git commit -am notes").result("f8-c", "1 file changed")
    later.call("f8-t", "Bash", command="npm test").result("f8-t", "ok")
    later.write(projects / "-home-u-app" / "f8.jsonl")
    return projects


@pytest.fixture(scope="module")
def fixes(tmp_path_factory):
    root = tmp_path_factory.mktemp("fixes")
    build_index(root / "index.db", write_fix_corpus(root))
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


def fix_of(conn, error, session_id):
    [row] = [r for r in queries.find_past_fix(conn, error) if r["session_id"] == session_id]
    return row


def test_fix_after_one_edit(fixes):
    row = fix_of(fixes, "AssertionError: assert 1 == 2", "f1")
    assert (row["fix_tool_use_id"], row["fix_target"]) == ("f1-b2", "pytest tests/test_a.py")
    assert row["fixed_at"] == ts(6)
    assert row["fix_edits"] == [
        {
            "tool": "Edit",
            "file_path": f"{APP}/a.py",
            "tool_use_id": "f1-e1",
            "old": "return 1",
            "new": "return 2",
        }
    ]
    assert row["fix_calls"] == []


def test_fix_after_several_edits_and_a_read(fixes):
    row = fix_of(fixes, "error TS2339", "f2")
    assert row["fix_tool_use_id"] == "f2-b2"
    # The file the error names comes first.
    assert [e["file_path"] for e in row["fix_edits"]] == [f"{APP}/src/x.ts", f"{APP}/src/types.ts"]
    assert row["fix_edits"][0]["new"] == "z.w"
    assert row["fix_calls"] == [
        {"tool": "Read", "target": f"{APP}/src/x.ts", "ok": True},
        {"tool": "Bash", "target": "npm run lint", "ok": False},
    ]


def test_another_name_of_the_program_is_a_changed_retry(fixes):
    row = fix_of(fixes, "python: command not found", "f3")
    assert (row["outcome"], row["fix_tool_use_id"], row["fix_edits"]) == ("fixed", "f3-b2", [])
    # The retry is the remedy, and says what changed.
    assert row["remedy"] == [
        {
            "tool_use_id": "f3-b2",
            "tool": "Bash",
            "target": "python3 app.py",
            "change": "-python +python3",
        }
    ]


def test_no_retry_shows_the_edits_before_the_next_prompt(fixes):
    row = fix_of(fixes, "No rule to make target", "f4")
    assert row["fixed_at"] is None
    assert row["files_edited_after"] == [f"{APP}/Makefile"]


def test_no_fix_lists_the_steps_done_next(fixes):
    row = fix_of(fixes, "This tool cannot read binary files.", "f8")
    assert (row["outcome"], row["fixed_at"]) == ("not fixed", None)
    # the first three calls that succeeded and did more than look: not the Read, the
    # `ls && git status`, the Grep, the failed script or the BashOutput; not `npm test`
    assert row["next_calls"] == [
        {"tool": "Bash", "target": "python3 dump_v2.py book.xlsx", "file_path": None,
         "tool_use_id": "f8-p"},
        {"tool": "Write", "target": f"{APP}/notes.md", "file_path": f"{APP}/notes.md",
         "tool_use_id": "f8-w"},
        {"tool": "Bash", "target": "git commit -am notes", "file_path": None,
         "tool_use_id": "f8-c"},
    ]  # fmt: skip
    card = cards.format_hit(1, row)
    assert (
        "   fixed:  no, nothing soon after it in that session was seen to get past it\n"
        "   then:   Bash python3 dump_v2.py book.xlsx\n"
        "           edit notes.md\n"
        "           Bash git commit -am notes\n"
    ) in card
    # notes.md is a step above: not listed again as a file edited
    assert "edited:" not in card


def test_a_fix_claimed_lists_no_steps_done_next(fixes):
    assert fix_of(fixes, "AssertionError: assert 1 == 2", "f1")["next_calls"] == []


def test_fix_in_a_subagent_is_that_subagents(fixes):
    row = fix_of(fixes, "undefined: foo", "f5")
    assert row["fix_tool_use_id"] == "f5-s3"
    assert [e["file_path"] for e in row["fix_edits"]] == [f"{APP}/main.go"]
    # The main thread's run of the same command is another agent's.
    assert row["fix_calls"] == []


def test_fix_among_parallel_calls(fixes):
    row = fix_of(fixes, "File does not exist", "f6")
    assert row["fix_tool_use_id"] == "f6-p3"
    # The Read of b.txt sent beside the failed one, before its error came back, is none of
    # the calls before the fix (fixes._sent_after).
    assert row["fix_calls"] == []
    assert row["fix_edits"] == [
        {
            "tool": "Write",
            "file_path": f"{APP}/a.txt",
            "tool_use_id": "f6-w",
            "old": "",
            "new": "a\n",
        }
    ]


def test_fix_by_multiedit_shows_each_of_its_edits(fixes):
    row = fix_of(fixes, "ParseError: unexpected token", "f7")
    assert row["fix_tool_use_id"] == "f7-b2"
    assert row["fix_edits"] == [
        {
            "tool": "MultiEdit",
            "file_path": f"{APP}/p.py",
            "tool_use_id": "f7-m",
            "old": f"v{i}",
            "new": f"w{i}",
        }
        for i in range(3)
    ]


def test_snippet_is_the_key_line_of_long_output():
    frames = "".join(f'  File "/app/m{i}.py", line {i}, in f\n    f()\n' for i in range(200))
    traceback = f"Exit code 1\nTraceback (most recent call last):\n{frames}ValueError: bad input\n"
    assert queries.error_excerpt(traceback, "ValueError") == "ValueError: bad input"
    npm = "npm warn deprecated inflight@1.0.6\n" * 50 + "npm error code E404\nnpm error 404 x\n"
    assert queries.error_excerpt(npm, "E404").splitlines()[0] == (
        "npm error code E404 npm error 404 x"
    )
    # Words that are not on the key line are shown where they are.
    excerpt = queries.error_excerpt(traceback, "ValueError m7.py")
    assert excerpt.splitlines()[0] == "ValueError: bad input"
    assert 'File "/app/m7.py", line 7' in excerpt.splitlines()[1]
    html = queries.error_excerpt("x <b>ValueError</b>", "valueerror", "<mark>", "</mark>")
    assert html == "x &lt;b&gt;<mark>ValueError</mark>&lt;/b&gt;"
    # A message written with `\n` escapes (a hook's, in JSON): its key line once, not then
    # again with the escapes (a new user's try, session 26)
    hook = (
        "Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\n"
        "Run 'mix format' to fix.\\n\\nFix these issues before committing."
    )
    assert queries.error_excerpt(hook, "Pre-commit validation failed: Run mix format") == (
        "Pre-commit validation failed: [FORMAT] Code is not formatted. Run 'mix format' to"
        " fix. Fix these issues before committing."
    )
    # Words just before a key line longer than the context around them: shown with it
    # once, not the key line and then its start again after them.
    path = "_build/dev/lib/app/priv/repo/migrations/" + "x" * 90 + ".exs"
    git = f"Exit code 128\nfatal: pathspec '{path}' is beyond a symbolic link"
    assert queries.error_excerpt(git, git) == " ".join(git.split())


def test_words_pasted_after_the_key_line_are_shown_after_it_and_none_is_cut():
    # esbuild's error, pasted with the lines under it: the words after the key line were
    # left out, and what came before it shown instead (`Exit code 1 ✘ [ERROR] ...`).
    esbuild = (
        'Exit code 1\n✘ [ERROR] Could not resolve "js/app.js"\n\n1 error\n'
        "/home/u/app/assets/node_modules/esbuild/lib/main.js:1467\n  throw err;"
    )
    pasted = esbuild.split("\n", 1)[1].rsplit("\n", 1)[0]
    assert queries.error_excerpt(esbuild, pasted) == (
        '✘ [ERROR] Could not resolve "js/app.js" 1 error'
        " /home/u/app/assets/node_modules/esbuild/lib/main.js:1467 throw err;"
    )
    # The context around a word elsewhere starts and ends between words.
    text = "alpha " * 30 + "needle " + "omega " * 30 + "\nError: boom happened"
    [key, around] = queries.error_excerpt(text, "Error: boom happened needle").splitlines()
    assert key == "Error: boom happened"
    assert around.startswith("… alpha ") and around.endswith(" omega …")
    assert set(around.split()) == {"…", "alpha", "needle", "omega"}
    # Text without spaces near the cut (a long path, Chinese) is cut where it is.
    text = "x" * 200 + " needle " + "y" * 200 + "\nError: boom happened"
    around = queries.error_excerpt(text, "boom needle").splitlines()[1]
    assert around == "… " + "x" * 99 + " needle " + "y" * 99 + " …"


def test_context_that_takes_in_the_key_line_does_not_repeat_it():
    # git's hint, pasted with the error: the context of its words began inside the key
    # line, which was shown, then its end again ("… branch. To push the current ...").
    git = (
        "Exit code 128\nfatal: The current branch spotter-fum has no upstream branch.\n"
        "To push the current branch and set the remote as upstream, use\n\n"
        "    git push --set-upstream origin spotter-fum\n\n"
        "To have this happen automatically for branches without a tracking\n"
        "upstream, see 'push.autoSetupRemote' in 'git help config'.\n"
    )
    pasted = "\n".join(git.splitlines()[1:5])
    [excerpt] = queries.error_excerpt(git, pasted).splitlines()
    assert excerpt.startswith("fatal: The current branch spotter-fum has no upstream branch. To")
    assert excerpt.count("has no upstream branch") == 1
    assert "git push --set-upstream origin spotter-fum" in excerpt
    # The same where the key line is two lines of the output joined (git add's).
    ignored = (
        "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\n"
        "priv/static/assets\nhint: Use -f if you really want to add them.\n"
        "hint: Turn this message off by running\n"
        'hint: "git config advice.addIgnoredFile false"\n'
    )
    pasted = "\n".join(ignored.splitlines()[1:5])
    assert queries.error_excerpt(ignored, pasted) == (
        "The following paths are ignored by one of your .gitignore files: priv/static/assets"
        " hint: Use -f if you really want to add them. hint: Turn this message off by running"
        ' hint: "git config advice.addIgnoredFile false"'
    )
    # and the words before the key line, with it
    hint = "hint: run it again\n" + "x " * 10 + "\nfatal: not a git repository\n"
    assert queries.error_excerpt(hint, "again fatal: not a git repository") == (
        "hint: run it again " + "x " * 10 + "fatal: not a git repository"
    )


def test_the_context_of_pasted_words_leaves_claude_codes_wrapper_out():
    # Claude Code shows "Error: File does not exist."; the stored result wraps it in
    # <tool_use_error>, whose "error" matched the pasted "Error" and was shown with it.
    stored = "<tool_use_error>File does not exist.</tool_use_error>"
    assert queries.error_excerpt(stored, "Error: File does not exist.") == "File does not exist."
    html = queries.error_excerpt(stored, "Error: File does not exist.", "<b>", "</b>")
    assert html == "<b>File</b> does not <b>exist</b>."


def test_pastfix_find_reads_a_pipe(index_path):
    import subprocess
    import sys

    pasted = "Error: ENOENT: no such file or directory, open '/elsewhere/dist/index.js'\n"
    result = subprocess.run(
        [sys.executable, "-m", "pastfix", "find", "-", str(index_path), "--json"],
        input=pasted,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["tool_use_id"], r["matched"]) for r in rows] == [
        ("u1", "signature"),
        ("t1", "signature"),
    ]
    assert rows[0]["fix_edits"] == [
        {
            "tool": "Write",
            "file_path": f"{LIB}/dist/index.js",
            "tool_use_id": "u2",
            "old": "",
            "new": "x",
        }
    ]


PIPED = "fatal: detected dubious ownership in repository at '/x'\r\n\x1b[31mhint\x1b[0m: é\r\n"


@pytest.mark.parametrize(
    "data",
    [
        PIPED.encode(),
        codecs.BOM_UTF8 + PIPED.encode(),
        # Windows PowerShell's `>` and `|`
        codecs.BOM_UTF16_LE + PIPED.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + PIPED.encode("utf-16-be"),
        PIPED.encode("utf-16-le"),
        PIPED.encode("utf-16-be"),
    ],
)
def test_a_piped_error_is_read_by_its_encoding(data):
    text = queries.read_pasted(data)
    assert (
        text == "fatal: detected dubious ownership in repository at '/x'\n\x1b[31mhint\x1b[0m: é\n"
    )


@pytest.mark.parametrize(
    ("data", "text"),
    [
        # Latin-1 (or any bytes that are no UTF-8): each such byte U+FFFD, as stored text
        (
            "Datei nicht gefunden: Größe.txt".encode("latin-1"),
            "Datei nicht gefunden: Gr\ufffd\ufffde.txt",
        ),
        (b"", ""),
        (b"x", "x"),
        # a NUL or two on the other side of UTF-16 text: U+xx00 (U+4E00 is 一)
        ("一 failed: cannot open x.txt".encode("utf-16-le"), "一 failed: cannot open x.txt"),
        ("一 failed: cannot open x.txt".encode("utf-16-be"), "一 failed: cannot open x.txt"),
        # valid UTF-8 that holds U+FFFD itself: a stored output of Windows, decoded wrongly
        # when it was read, copied from a card (a new user's try, session 26)
        (
            '\ufffd\ufffd\ufffd\ufffd: \ufffd\ufffd\ufffd\ufffd "24648"\ufffd\ufffd'.encode(),
            '\ufffd\ufffd\ufffd\ufffd: \ufffd\ufffd\ufffd\ufffd "24648"\ufffd\ufffd',
        ),
    ],
)
def test_a_piped_error_without_a_bom(data, text):
    assert queries.read_pasted(data) == text


@pytest.mark.parametrize(
    "data",
    [
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00",
        bytes.fromhex("89504e470d0a1a0a0000000d49484452"),  # a PNG
        bytes(range(128, 256)) * 4,  # no NUL, and no UTF-8
        b"ENOENT\x00no such file",
        "UTF-32, not UTF-16".encode("utf-32"),
    ],
)
def test_piped_binary_data_is_no_error_text(data):
    with pytest.raises(queries.NotText, match=re.escape(queries.NOT_TEXT)):
        queries.read_pasted(data)


# -- the other canned queries ----------------------------------------------------


def test_session_tool_output_searches_every_result_of_one_session(conn):
    sql = queries.SESSION_TOOL_OUTPUT_SQL
    found = rows(conn, sql, session_id="s1", pattern="enoent")
    assert [(r["tool_use_id"], r["is_error"], r["tool"]) for r in found] == [
        ("t1", 1, "Bash"),
        ("t5", 0, "Read"),
    ]
    assert found[1] == {
        "timestamp": ts(14),
        "tool": "Read",
        "target": f"{APP}/src/index.js",
        "is_error": 0,
        "excerpt": READ_OUTPUT,
        "content_length": len(READ_OUTPUT),
        "tool_use_id": "t5",
        "session_id": "s1",
    }
    assert rows(conn, sql, session_id="s2", pattern="index.js")[0]["tool_use_id"] == "u1"


@pytest.mark.parametrize(
    "pattern,expected",
    [
        ("100%", ["t3"]),  # not "100 percent" in t5
        ("%", ["t3"]),
        ("done_x", ["t3"]),
        ("_", ["t3"]),
        ("o_e", []),  # as a wildcard, _ would match "done" and "open"
        ("\\", []),
        ("", ["t1", "t2", "t3", "t4", "t5", "t6"]),
    ],
)
def test_session_tool_output_like_is_literal(conn, pattern, expected):
    found = rows(conn, queries.SESSION_TOOL_OUTPUT_SQL, session_id="s1", pattern=pattern)
    assert [r["tool_use_id"] for r in found] == expected


def test_session_tool_output_uses_idx_tr_session(conn):
    plan = [
        r[3]
        for r in conn.execute(
            "explain query plan " + queries.SESSION_TOOL_OUTPUT_SQL,
            {"session_id": "s1", "pattern": "x"},
        )
    ]
    assert plan[0] == "SEARCH tr USING INDEX idx_tr_session (session_id=?)"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("TypeError", "ypeError"),  # y is rarer than t
        ("Exit code 127", "xit code 127"),
        ("ENOENT", "NOENT"),
        ("TS2339", "2339"),  # at least four characters are kept
        ("zod", "zod"),
        ("a_b%c\\d", "\\%c\\\\d"),  # escaped for ESCAPE '\\'
        ("naïve wörld", "wörld"),  # never from a non-ASCII character
        ("", ""),
        (None, ""),
    ],
)
def test_like_anchor(text, expected):
    assert queries.like_anchor(text) == expected


@pytest.mark.parametrize("text", ["TypeError", "Exit code 127", "a_b%c\\d", "é∑😀 x", "%_\\", "ab"])
def test_like_anchor_is_implied_by_the_whole_text(conn, text):
    """Every haystack the text matches, its anchor matches too: it can only prefilter."""
    for haystack in (text, f"before {text} after", f"{text.upper()} {text.lower()}"):
        matched = conn.execute(
            "select ? like '%' || like_anchor(?) || '%' escape '\\'", [haystack, text]
        ).fetchone()[0]
        assert matched == 1, haystack


def test_search_tool_output_searches_every_session(conn):
    sql = queries.SEARCH_TOOL_OUTPUT_SQL
    found = rows(conn, sql, pattern="enoent", project="")
    assert [(r["tool_use_id"], r["session_id"], r["is_error"]) for r in found] == [
        ("u1", "s2", 1),
        ("t5", "s1", 0),
        ("t1", "s1", 1),
    ]
    assert found[1] == {
        "timestamp": ts(14),
        "project": APP,
        "tool": "Read",
        "target": f"{APP}/src/index.js",
        "is_error": 0,
        "excerpt": READ_OUTPUT,
        "content_length": len(READ_OUTPUT),
        "tool_use_id": "t5",
        "session_id": "s1",
    }
    assert [r["tool_use_id"] for r in rows(conn, sql, pattern="ENOENT", project="u/lib")] == ["u1"]
    assert [r["tool_use_id"] for r in rows(conn, sql, pattern="# LIB", project="")] == ["w2"]


@pytest.mark.parametrize(
    "pattern,expected",
    [
        ("100%", ["t3"]),
        ("done_x", ["t3"]),
        ("o_e", []),  # as a wildcard, _ would match "done" and "open"
        ("\\", []),
        ("", []),  # an empty form does not scan everything
    ],
)
def test_search_tool_output_like_is_literal(conn, pattern, expected):
    found = rows(conn, queries.SEARCH_TOOL_OUTPUT_SQL, pattern=pattern, project="")
    assert [r["tool_use_id"] for r in found] == expected


def test_search_tool_output_keeps_the_newest(conn):
    sql = queries.SEARCH_TOOL_OUTPUT_SQL.replace(
        f"limit {queries.SEARCH_TOOL_OUTPUT_LIMIT}", "limit 2"
    )
    # w2 ("# lib") is newer but has no e
    assert [r["tool_use_id"] for r in rows(conn, sql, pattern="e", project="")] == ["w1", "v1"]


def test_session_errors(conn):
    found = rows(conn, queries.SESSION_ERRORS_SQL, session_id="s1")
    assert [(r["tool_use_id"], r["tool"], r["target"]) for r in found] == [
        ("t1", "Bash", "npm run build"),
        ("t4", "Read", f"{APP}/src"),
        ("t6", "Bash", "cat notes.txt"),
    ]
    assert found[0] == {
        "failed_at": ts(4),
        "tool": "Bash",
        "target": "npm run build",
        "error": ENOENT,
        "content_length": len(ENOENT),
        "is_sidechain": 0,
        "agent_id": None,
        "tool_use_id": "t1",
        "session_id": "s1",
    }
    sub = rows(conn, queries.SESSION_ERRORS_SQL, session_id="s3")
    assert [(r["tool_use_id"], r["is_sidechain"], r["agent_id"]) for r in sub] == [("w1", 1, "a1")]


def test_search_messages(conn):
    found = rows(conn, queries.SEARCH_MESSAGES_SQL, project="", q="missing")
    assert sorted((r["session_id"], r["uuid"]) for r in found) == [
        ("s1", "s1-main-5"),
        ("s2", "s2-main-4"),
    ]
    by_uuid = {r["uuid"]: r for r in found}
    assert by_uuid["s2-main-4"] == {
        "session_id": "s2",
        "project": LIB,
        "timestamp": ts(2004),
        "role": "assistant",
        "kind": "text",
        "snippet": "Creating the <mark>missing</mark> dist/index.js.",
        "is_sidechain": 0,
        "uuid": "s2-main-4",
        "is_meta": 0,
        "copies": 1,
        "matched": "all words",
        "session_title": "build lib",
        "resume": "claude --resume s2",
    }
    # Tool output is not in messages; sidechain text is.
    assert rows(conn, queries.SEARCH_MESSAGES_SQL, project="", q="EISDIR") == []
    assert [
        r["is_sidechain"] for r in rows(conn, queries.SEARCH_MESSAGES_SQL, project="", q="listing")
    ] == [1]
    assert (
        len(rows(conn, queries.SEARCH_MESSAGES_SQL, project="", q="raw: missing OR subagent")) == 3
    )


def test_search_messages_falls_back_to_messages_holding_some_words(conn):
    """`cuda device mismatch` found nothing, as no message said "mismatch" (nu41): when
    fewer than SEARCH_FEW messages hold every word, those holding some follow them, said so."""

    def search(q):
        return [
            (r["uuid"], r["matched"])
            for r in rows(conn, queries.SEARCH_MESSAGES_SQL, project="", q=q)
        ]

    some = search("missing zebra")
    assert sorted(some) == [("s1-main-5", "some words"), ("s2-main-4", "some words")]
    assert (
        queries.search_notice([{"matched": m} for _, m in some])
        == "No message holds every word; these hold some of them."
    )
    # the one message holding both words first, then those holding one of them
    both = search("missing dist/index.js")
    assert both[0] == ("s2-main-4", "all words")
    assert len(both) > 1 and {m for _, m in both[1:]} == {"some words"}
    assert queries.search_notice([{"matched": m} for _, m in both]) == (
        "Only 1 message holds every word (first); the others hold some of them."
    )
    # one word, or a raw: expression, is matched as given
    assert search("zebra") == []
    assert search("raw: missing AND zebra") == []
    assert queries.search_notice([{"matched": "all words"}]) is None


# cmd.exe's GBK output of `taskkill /F /PID 24648` from Git Bash, as Claude Code 2.0.29
# stored it (heldout33 part 1, h33p1 #17): it decoded the bytes as UTF-8, each invalid
# sequence became U+FFFD, and a few byte pairs that happen to be UTF-8 became Cyrillic
# (`Ч` is D0 A7, GBK's 效). The original was `错误: 无效参数/选项 - 'F:/'。` and
# `键入 "TASKKILL /?" 以了解用法。`.
GBK_AS_UTF8 = (
    "\ufffd\ufffd\ufffd\ufffd: \ufffd\ufffd\u0427\ufffd\ufffd\ufffd\ufffd/\u0461\ufffd\ufffd"
    " - 'F:/'\ufffd\ufffd\r\n\ufffd\ufffd\ufffd\ufffd \"TASKKILL /?\" \ufffd\ufffd\ufffd\u02fd"
    "\ufffd\ufffd\u00f7\ufffd\ufffd\ufffd"
)


def test_console_output_the_agent_stored_as_replacement_characters_is_found_by_its_ascii(
    tmp_path,
):
    """Nothing can bring back text the transcript holds as U+FFFD (its bytes are gone, and
    no decoding of the rest gives them: ftfy's repairs need every byte), so it is stored as
    the transcript has it, and found by what survived: its ASCII words (nu41 finding 5)."""
    session = "e0e0e0e0-0000-4000-8000-000000000001"
    lines = [
        jsonl.prompt("p", session, "restart the dev server", "2026-01-01T10:00:00Z"),
        jsonl.tool_use(
            "u",
            session,
            "toolu_kill",
            "Bash",
            {"command": "taskkill /F /PID 24648"},
            "2026-01-01T10:00:01Z",
        ),
        jsonl.result("r", session, "toolu_kill", GBK_AS_UTF8, "2026-01-01T10:00:02Z", True),
    ]
    jsonl.write_jsonl(tmp_path / "projects" / "C--code-app" / f"{session}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        stored = conn.execute("SELECT content FROM tool_results WHERE is_error = 1").fetchall()
        assert stored == [(GBK_AS_UTF8,)]
        found = queries.find_past_fix(conn, "TASKKILL /?")
        assert [(r["tool_use_id"], r["matched"]) for r in found] == [("toolu_kill", "all words")]
        # the second line as the user sees it: its one name the stored text still holds
        found = queries.find_past_fix(conn, '键入 "TASKKILL /?" 以了解用法。')
        assert [(r["tool_use_id"], r["shared_words"]) for r in found] == [
            ("toolu_kill", ["TASKKILL"])
        ]
        output = queries.run(conn, "search_tool_output", pattern="- 'F:/'", project="")
        assert [r["tool_use_id"] for r in output] == ["toolu_kill"]
    finally:
        conn.close()


def test_search_messages_gives_injected_text_once_after_the_rest(tmp_path):
    """A hook's reminder injected in every turn came back once per turn, as "user prompt"."""
    reminder = "<system-reminder>PostToolUse hook: frobnicate warnings</system-reminder>"
    for n in (1, 2, 3):
        session = Session(f"m{n}", APP, 10 * n).prompt(f"frobnicate the widget {n}")
        session._line("user", isMeta=True, message={"role": "user", "content": reminder})
        session._line("user", isMeta=True, message={"role": "user", "content": reminder})
        session.write(tmp_path / "projects" / "-home-u-app" / f"m{n}.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.run(conn, "search_messages", q="frobnicate")
    finally:
        conn.close()
    assert [(r["is_meta"], r["copies"], r["kind"]) for r in found] == [
        (0, 1, "prompt"),
        (0, 1, "prompt"),
        (0, 1, "prompt"),
        (1, 6, "prompt"),
    ]


def test_recent_failures(conn):
    found = rows(conn, queries.RECENT_FAILURES_SQL, project="")
    assert [r["tool_use_id"] for r in found] == ["w1", "u1", "t6", "t4", "t1"]
    assert found[1] == {
        "session_id": "s2",
        "project": LIB,
        "failed_at": ts(2003),
        "tool": "Bash",
        "target": "npm run build",
        "error": ENOENT,
        "tool_use_id": "u1",
    }
    assert [r["tool_use_id"] for r in rows(conn, queries.RECENT_FAILURES_SQL, project="u/app")] == [
        "t6",
        "t4",
        "t1",
    ]
    assert rows(conn, queries.RECENT_FAILURES_SQL, project="%") == []


@pytest.mark.parametrize("text", HOSTILE)
def test_other_queries_hostile_input(conn, text):
    for sql, params in [
        (queries.SESSION_TOOL_OUTPUT_SQL, {"session_id": text, "pattern": text}),
        (queries.SESSION_TOOL_OUTPUT_SQL, {"session_id": "s1", "pattern": text}),
        (queries.SESSION_ERRORS_SQL, {"session_id": text}),
        (queries.SEARCH_TOOL_OUTPUT_SQL, {"pattern": text, "project": text}),
        (queries.SEARCH_TOOL_OUTPUT_SQL, {"pattern": text, "project": ""}),
        (queries.SEARCH_MESSAGES_SQL, {"q": text, "project": ""}),
        (queries.RECENT_FAILURES_SQL, {"project": text}),
    ]:
        conn.execute(sql, params).fetchall()


# -- the session page ------------------------------------------------------------


def test_session_page(conn):
    page = session_page(conn, "s1")
    assert (page["page"], page["pages"], page["message_count"]) == (1, 1, 19)
    assert page["session"]["session_id"] == "s1" and page["resume"] == "claude --resume s1"
    assert [f["tool_use_id"] for f in page["failures"]] == ["t1", "t4", "t6"]
    kinds = [m["kind"] for m in page["messages"]]
    assert kinds[:5] == ["prompt", "text", "tool_use", "tool_result", "text"]
    assert "compact_boundary" in kinds
    assert [m["is_compact_summary"] for m in page["messages"]].count(1) == 1
    [call_message] = [
        m
        for m in page["messages"]
        if m["tool_calls"][:1] and m["tool_calls"][0]["tool_use_id"] == "t1"
    ]
    call = call_message["tool_calls"][0]
    assert (call["name"], call["command"], call["result"]["is_error"]) == (
        "Bash",
        "npm run build",
        1,
    )
    assert call["result"]["content"] == ENOENT
    assert all(not m["tool_results"] for m in page["messages"])
    calls = {c["tool_use_id"]: c for m in page["messages"] for c in m["tool_calls"]}
    # The Edit of build.js, whole, for its diff; and what fixed t1: that Edit, then the
    # changed retry `mkdir -p dist && npm run build`, which confirmed it.
    assert calls["t2"]["edits"] == [{"old": "a", "new": "b"}]
    assert calls["t1"]["edits"] == []
    assert calls["t1"]["fix"] == {
        "outcome": "fixed",
        "fixed_by": ["t2", "t3"],
        "confirmed_by": "t3",
    }
    assert calls["t2"]["fix"] == {"remedy_of": ["t1"]}
    assert calls["t3"]["fix"] == {"remedy_of": ["t1"], "confirms": ["t1"]}


def test_the_session_pages_failures_say_what_failed_not_the_exit_code(conn):
    # Every shell failure starts `Exit code N`, which the list of a session's failures
    # showed for each of them (12 failed calls of a Codex session, all `Exit code 2`);
    # a Claude Code 1.0.21 result that starts with a progress line's `\r` showed nothing.
    failure = session_page(conn, "s1")["failures"][0]
    assert failure["error"] == ENOENT
    assert failure["key_line"] == ENOENT.splitlines()[1]  # Error: ENOENT: ...


@pytest.mark.parametrize(
    "tool, tool_input, parts",
    [
        (
            "Edit",
            {"file_path": "a", "old_string": "x", "new_string": "y"},
            [{"old": "x", "new": "y"}],
        ),
        (
            "MultiEdit",
            {
                "edits": [
                    {"old_string": "a", "new_string": "b"},
                    {"old_string": "c", "new_string": ""},
                ]
            },
            [{"old": "a", "new": "b"}, {"old": "c", "new": ""}],
        ),
        ("Write", {"file_path": "a", "content": "new file"}, [{"old": "", "new": "new file"}]),
        (
            "apply_patch",
            {"input": "*** Begin Patch\n+x\n*** End Patch"},
            [{"patch": "*** Begin Patch\n+x\n*** End Patch"}],
        ),
        (
            "apply_patch",
            {"command": ["apply_patch", "*** Begin Patch\n-y"]},
            [{"patch": "*** Begin Patch\n-y"}],
        ),
        ("Edit", "not json", []),
        ("Bash", {"command": "ls"}, []),
    ],
)
def test_edit_parts(tool, tool_input, parts):
    text = tool_input if isinstance(tool_input, str) else json.dumps(tool_input)
    assert queries.edit_parts(tool, text if tool != "Bash" else None) == parts


def test_session_page_with_a_subagent(conn):
    page = session_page(conn, "s3")
    sidechain = [m["uuid"] for m in page["messages"] if m["is_sidechain"]]
    assert sidechain == [f"s3-a1-{n}" for n in range(1, 7)]
    assert {m["agent_id"] for m in page["messages"] if m["is_sidechain"]} == {"a1"}


def test_session_page_pages(conn):
    def page(**args):
        found = session_page(conn, "s1", page_size=4, **args)
        calls = [
            (c["tool_use_id"], bool(c["result"]))
            for m in found["messages"]
            for c in m["tool_calls"]
        ]
        alone = [r["tool_use_id"] for m in found["messages"] for r in m["tool_results"]]
        return found["page"], [m["uuid"][8:] for m in found["messages"]], calls, alone

    assert session_page(conn, "s1", page_size=4)["pages"] == 5
    assert page() == (1, ["1", "2", "3", "4"], [("t1", True)], [])
    # t3's call ends page 2; its result opens page 3, on its own there.
    assert page(page=2) == (2, ["5", "6", "7", "8"], [("t2", True), ("t3", True)], [])
    assert page(call="t4") == (3, ["9", "10", "11", "12"], [("t4", True)], ["t3"])
    assert page(message="s1-main-19")[0] == 5
    assert page(page=99)[0] == 5
    assert page(page=0)[0] == 1
    assert page(call="no-such-call")[0] == 1


def test_session_page_of_an_unknown_session(conn):
    assert queries.session_page(conn, "nope") is None


# -- connect and `pastfix find` --------------------------------------------------


def test_connect_refuses_what_is_not_an_index(tmp_path):
    with pytest.raises(queries.NotAnIndex, match="not found: build it"):
        queries.connect(tmp_path / "missing.db")
    (tmp_path / "text.db").write_text("hello")
    with pytest.raises(queries.NotAnIndex, match="is not a SQLite database"):
        queries.connect(tmp_path / "text.db")
    sqlite3.connect(tmp_path / "other.db").execute("create table t (x)")
    with pytest.raises(queries.NotAnIndex, match="is not a pastfix index"):
        queries.connect(tmp_path / "other.db")


def test_cli_find(index_path):
    result = CliRunner().invoke(cli, ["find", "EISDIR", str(index_path)])
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"1. Read failed 2026-01-05 09:11 UTC in {APP}\n"
        "   session: fix the build\n"
        # a Read ran nothing: what it was on, relative to the project (was `ran:    {APP}/src`)
        "   on:     src\n"
        "   error:  EISDIR: illegal operation on a directory, read\n"
        # a folder read as a file, then a file in it: that Read is the remedy
        # paths in the project relative to it, as the edits' and the find page's are
        "   fix:    Read src/index.js  (changed: src → src/index.js)\n"
        # another way (the file in the folder), not the Read of the folder made to work
        "   worked around: that call succeeded\n"
        "   next:   That is a directory; reading the file inside it.\n"
        "   resume: claude --resume s1\n"
    )


def test_cli_find_shows_the_fix(index_path):
    result = CliRunner().invoke(cli, ["find", "ENOENT", str(index_path), "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:8] == [
        f"1. Bash failed 2026-01-06 18:23 UTC in {LIB}",
        "   session: build lib",
        "   ran:    npm run build",
        "   error:  Error: ENOENT: no such file or directory, open '/home/u/app/dist/index.js'",
        "   fix:    edit dist/index.js",
        "             + x",
        "   confirmed: Bash npm run build succeeded",
        "   next:   Creating the missing dist/index.js.",
    ]


def test_cli_find_reads_the_error_from_stdin(index_path):
    # Quotes and $ need no escaping; the path is another one than recorded.
    pasted = "Exit code 1\nError: ENOENT: no such file or directory, open '/srv/$x \"y/a.js'\n"
    piped = CliRunner().invoke(cli, ["find", "-", str(index_path), "--json"], input=pasted)
    assert piped.exit_code == 0, piped.output
    conn = queries.connect(index_path)
    assert json.loads(piped.stdout) == queries.find_past_fix(conn, pasted)
    conn.close()
    assert [r["tool_use_id"] for r in json.loads(piped.stdout)] == ["u1", "t1"]


def test_a_paste_longer_than_a_stored_text_is_read_as_its_head_and_tail():
    head, middle, tail = "h" * TEXT_HEAD, "m" * 5_000_000, "t" * (MAX_TEXT - TEXT_HEAD)
    read = queries.pasted(head + middle + tail)
    assert read == f"{head}\n{tail}"
    assert queries.pasted(read) == read  # the CLI's paste, read again by find_past_fix
    assert queries.pasted("short \ud83d text") == "short \ufffd text"


def test_cli_find_of_a_whole_log_pasted_finds_the_error_at_its_end(index_path):
    """A build log of megabytes pasted whole: the error at its end is found, as the same
    error pasted alone (the middle of such a paste is not read: see queries.pasted)."""
    error = "Exit code 1\nError: ENOENT: no such file or directory, open '/srv/app/a.js'\n"
    log = "".join(f"[{i:07d}] compiling module {i} of the bundle\n" for i in range(120_000))
    assert len(log) > 4_000_000
    piped = CliRunner().invoke(cli, ["find", "-", str(index_path), "--json"], input=log + error)
    assert piped.exit_code == 0, piped.output
    alone = CliRunner().invoke(cli, ["find", "-", str(index_path), "--json"], input=error)
    found = [r["tool_use_id"] for r in json.loads(piped.stdout)]
    assert found == [r["tool_use_id"] for r in json.loads(alone.stdout)] == ["u1", "t1"]


def test_cli_find_marks_the_failures_that_only_hold_the_errors_words(tmp_path):
    """`File does not exist.`: its own failure, then a Dialyzer log holding every word of
    it. The log's card looked like another sighting of the error (a new user's try); after
    the error's own failures it says it only shares the words."""
    write_short_error_and_wordy_log(tmp_path / "projects")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    result = CliRunner().invoke(cli, ["find", "File does not exist.", str(tmp_path / "index.db")])
    heads = [line for line in result.stdout.splitlines() if re.match(r"\d+\. ", line)]
    assert len(heads) == 2
    assert not heads[0].endswith("]") and heads[1].endswith("[same words, maybe another error]")
    # alone, the words are what there is: not marked
    write_short_error_and_wordy_log(tmp_path / "words", with_error=False)
    build_index(tmp_path / "words.db", tmp_path / "words")
    result = CliRunner().invoke(cli, ["find", "File does not exist.", str(tmp_path / "words.db")])
    assert "[same words" not in result.stdout and result.stdout.startswith("1. ")


def test_cli_find_says_when_an_error_was_not_seen_before(index_path):
    result = CliRunner().invoke(cli, ["find", "EISDIR zzzunknownword", str(index_path)])
    assert result.exit_code == 0
    assert result.stderr == (
        "Not seen before: no past failure has the signature or every word of"
        " 'EISDIR zzzunknownword'. 1 partial match, sharing only EISDIR: a different error,"
        " maybe related.\n\n"
    )
    assert result.stdout.startswith(
        f"1. Read failed 2026-01-05 09:11 UTC in {APP}  [partial: shares EISDIR]"
    )
    # JSON: the rows on stdout, the notice on stderr.
    result = CliRunner().invoke(cli, ["find", "EISDIR zzzunknownword", str(index_path), "--json"])
    assert [(r["matched"], r["shared_words"]) for r in json.loads(result.stdout)] == [
        ("some words", ["EISDIR"])
    ]
    assert result.stderr.startswith("Not seen before: ") and result.stderr.endswith("related.\n")
    # A known error: no notice.
    result = CliRunner().invoke(cli, ["find", "EISDIR", str(index_path), "--json"])
    assert result.stderr == ""


def test_a_paste_whose_other_error_line_was_seen_finds_that_lines_failures(index_path):
    """A pasted log whose key line is new (a log line of its own, with its time and path),
    with an error line that was a past failure's key line: `pastfix find` shows that line's
    failures, saying which line they are of, not "Not seen before" (new users' tries,
    sessions 25 and 33: the familiar line alone found its fix). Made-up lines around a
    made-up error, or a line that only holds the words of past failures, still find
    nothing."""
    log = (
        "[2026-04-01 10:22:03] ERROR: step 'build' failed in /home/me/zzzproj\n"
        "Error: ENOENT: no such file or directory, open '/srv/x/dist/index.js'\n"
    )
    result = CliRunner().invoke(cli, ["find", log, str(index_path)])
    assert result.exit_code == 0
    assert result.stderr == (
        # (the log's time is no part of its key line: signatures.without_log_prefix)
        "Its key line, \"ERROR: step 'build' failed in"
        ' /home/me/zzzproj", was not seen before; another error line of it was, "Error:'
        " ENOENT: no such file or directory, open '/srv/x/dist/index.js'\": the failures"
        " below are that line's (it may follow from the key line's error, not cause it).\n\n"
    )
    assert result.stdout.startswith("1. Bash failed ")
    assert "resume: claude --resume s1" in result.stdout
    rows = json.loads(CliRunner().invoke(cli, ["find", log, str(index_path), "--json"]).stdout)
    assert sorted((r["session_id"], r["matched"]) for r in rows) == [
        ("s1", "signature"),
        ("s2", "signature"),
    ]
    conn = queries.connect(index_path)
    try:
        assert queries.by_other_line(conn, log.splitlines()[0]) is None
        for unseen in (
            "ModuleNotFoundError: No module named 'zzzpandas'\nfatal: zzz is not a thing\n",
            # a line whose words past failures hold, that was no failure's key line
            "[2026-04-01 10:22:03] ERROR: zzz failed\nError: no such file or directory, read\n",
            "[2026-04-01 10:22:03] ERROR: zzz failed\nError: Exit code 1\n",
        ):
            assert queries.by_other_line(conn, unseen) is None, unseen
            result = CliRunner().invoke(cli, ["find", unseen, str(index_path)])
            assert result.stderr.startswith("Not seen before: "), unseen
        # deep in a long build log, not only near its ends (a new user's try, session 27)
        noise = "".join(f"[{i:05d}] info compiling module src/w{i}.tsx ok\n" for i in range(300))
        long_log = (
            noise
            + "Error: ENOENT: no such file or directory, open '/srv/x/dist/index.js'\n"
            + noise
            + "npm error code ELIFECYCLE\n"
        )
        assert len(long_log) > 20_000
        line, rows = queries.by_other_line(conn, long_log) or ("", [])
        assert line == "Error: ENOENT: no such file or directory, open '/srv/x/dist/index.js'"
        assert sorted(r["session_id"] for r in rows) == ["s1", "s2"]
    finally:
        conn.close()


def test_a_paste_from_claude_codes_terminal_is_found_by_the_error_under_its_status(index):
    """`⎿  Error: Exit code 2` above the output, as Claude Code's terminal shows a failed
    call: the key line is the error under it (signatures.status_of), the same for the find
    page's query, `pastfix find` and MCP, and no notice calls the status the error and the
    error a line that "may follow from" it (nu46 finding 1)."""
    error = TS_ERROR.format(file="lib/order.ts", line=7)
    for paste in (
        f"⏺ Bash(npm run build)\n  ⎿  Error: Exit code 2\n     > tsc\n     {error}",
        f"Error: Exit code 2\n> tsc\n{error}",
    ):
        result = CliRunner().invoke(cli, ["find", paste, str(index)])
        assert result.exit_code == 0 and result.stderr == "", paste
        assert result.stdout.startswith("1. Bash failed ")
        conn = queries.connect(index)
        try:
            rows = queries.run(conn, "find_past_fix", error=paste)
        finally:
            conn.close()
        assert {(r["session_id"], r["matched"]) for r in rows} == {
            (PAST, "signature"),
            (OTHER, "signature"),
        }
    # alone, it names no error: as `Exit code 2` does
    assert queries.says_little("  ⎿  Error: Exit code 2")
    assert queries.matched_text("Error: Exit code 2") == "Exit code 2"


def test_a_paste_of_two_errors_says_the_other_one_was_seen_too(index):
    """A paste holding two errors, each the key line of past failures, is answered for its
    key line's: the other is named, not left out without a word (`sudo: a password is
    required` with `bash: jq: command not found` gave the jq cards alone, nu46 finding 7)."""
    ts = TS_ERROR.format(file="src/order.ts", line=12)
    two = f"ModuleNotFoundError: No module named 'zebra_stripes'\n{ts}\n"
    result = CliRunner().invoke(cli, ["find", two, str(index)])
    assert result.exit_code == 0
    assert result.stderr == (
        'The failures below are of its key line, "ModuleNotFoundError: No module named'
        " 'zebra_stripes'\"; another error line of it was seen before too, \"src/order.ts(12,5):"
        " error TS2339: Property 'total' does not exist on type…\": paste that line alone to"
        " find its failures.\n\n"
    )
    assert f"claude --resume {NOVEL}" in result.stdout and PAST not in result.stdout
    # the other way round: the TS2339 cards, and the module named
    result = CliRunner().invoke(cli, ["find", f"{ts}\n", str(index)])
    assert result.stderr == ""


def test_a_line_the_found_failures_hold_too_is_no_second_error(tmp_path):
    """A line that comes with the key line's error (git's `error: failed to push some refs`
    under a rule's refusal) was a past failure's key line too, alone; but the failures found
    hold it: no second error (queries.other_seen_line)."""
    refs = "error: failed to push some refs to 'github.com:me/zzz.git'"
    rejected = "remote: error: GH013: Repository rule violations found for refs/heads/main."
    first = Session("push1", APP, 0).prompt("push").call("a1", "Bash", command="git push")
    first.result("a1", f"Exit code 1\nTo github.com:me/zzz.git\n{rejected}\n{refs}", error=True)
    second = Session("push2", APP, 100).prompt("push").call("b1", "Bash", command="git push")
    second.result("b1", f"Exit code 1\n{refs}", error=True)
    first.write(tmp_path / "projects" / "-home-u-app" / "push1.jsonl")
    second.write(tmp_path / "projects" / "-home-u-app" / "push2.jsonl")
    build_index(tmp_path / "i.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "i.db")
    try:
        paste = f"{rejected}\n{refs}"
        assert signatures.key_line(paste) == rejected
        rows = queries.find_past_fix(conn, paste)
        assert queries.seen_before(rows)
        assert list(queries.other_seen_lines(conn, paste)) == [refs]
        assert queries.by_which_line(conn, paste, rows) == (rows, None)
    finally:
        conn.close()


def test_not_seen_before_names_a_pasted_tracebacks_key_line():
    # It quoted the first 80 characters: 'Traceback (most recent call last): File "/ho…'.
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app/main.py", line 3, in <module>\n'
        "    import pandas as pd\n"
        "ModuleNotFoundError: No module named 'pandas'\n"
    )
    assert queries.not_seen_notice(traceback, []) == (
        "Not seen before: no past failure has the signature or every word of the pasted"
        " error (its key line: \"ModuleNotFoundError: No module named 'pandas'\")."
    )
    # One line: quoted as it is.
    assert queries.not_seen_notice("Segmentation fault", []) == (
        "Not seen before: no past failure has the signature or every word of 'Segmentation fault'."
    )


def test_cli_find_json_is_the_query(index_path, conn):
    result = CliRunner().invoke(cli, ["find", "ENOENT", str(index_path), "--json", "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == queries.find_past_fix(conn, "ENOENT", limit=1)


def test_cli_find_defaults_to_index_db(index_path, monkeypatch):
    monkeypatch.chdir(index_path.parent)
    result = CliRunner().invoke(cli, ["find", "nothing-like-it"])
    assert (result.exit_code, result.stdout) == (0, "")
    # (which index said "not seen": none was named)
    assert result.stderr == (
        f"Searched {index_path}\n"
        "Not seen before: no past failure has the signature or every word of 'nothing-like-it'.\n"
    )


def test_an_index_no_build_has_finished_is_not_said_to_have_not_seen_the_error(tmp_path):
    """A fresh build writes its rows in one transaction after the schema: meanwhile the
    index is empty to a reader, and `pastfix find` said "Not seen before" of every error
    (and exit 0), as the MCP tool said it had not been seen. A finished build that found
    nothing still says it."""
    path = tmp_path / "index.db"
    pdb.connect(path).close()  # the schema, as the first build leaves it until it ends
    said = f"{path} holds nothing yet: no build of it has finished"
    result = CliRunner().invoke(cli, ["find", "EISDIR", str(path)])
    assert result.exit_code == 1 and said in result.output and "Not seen" not in result.output
    (tmp_path / "empty").mkdir()
    build_index(path, tmp_path / "empty")
    result = CliRunner().invoke(cli, ["find", "EISDIR", str(path)])
    assert result.exit_code == 0 and result.stderr.startswith("Not seen before: ")


def test_an_index_from_an_older_pastfix_asks_for_a_build(index_path, tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(index_path, old)
    conn = sqlite3.connect(old)
    conn.execute("delete from _sqlite_migrations where name = ?", [LATEST_MIGRATION])
    conn.commit()
    conn.close()
    result = CliRunner().invoke(cli, ["find", "ENOENT", str(old)])
    assert (result.exit_code, result.output) == (
        1,
        f"Error: {old} was built by an older pastfix: run `pastfix build {old}` to bring it"
        " up to date\n",
    )


def test_cli_find_errors(tmp_path):
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(cli, ["find", "x", str(missing)])
    assert result.exit_code == 1
    assert result.output == f"Error: {missing} not found: build it with `pastfix build {missing}`\n"
    result = CliRunner().invoke(cli, ["find", "x", str(tmp_path), "--limit", "0"])
    assert result.exit_code == 2


def test_format_hit():
    row = {
        "tool": "Bash",
        "failed_at": "2026-03-04T05:06:07.000Z",
        "project": "/p",
        "target": "npm  run\nbuild",
        "error_snippet": "a bb c",
        "next_text": None,
        "next_ok_target": None,
        "files_edited_after": ["/p/a", "/q/b"],
        "resume": "claude --resume s",
        "matched": "all words",
        "signature": "a bb c",
        "kind": "error",
        "occurrences": 1,
        "left_unsolved": 0,
        "session_title": None,
        "fixed_at": None,
        "outcome": "not fixed",
    }
    assert cards.format_hit(3, row, ("*", "*"), "BB") == (
        "3. Bash failed 2026-03-04 05:06 UTC in /p\n"
        "   ran:    npm run build\n"
        "   error:  a *bb* c\n"
        "   fixed:  no, nothing soon after it in that session was seen to get past it\n"
        "   edited: a, /q/b\n"
        "   resume: claude --resume s"
    )
    row.update(
        matched="signature",
        kind="not_read",
        occurrences=4,
        session_title="the\ntitle",
        fixed_at="2026-01-01T00:00:00Z",
        fix_target="npm run build",
        fix_tool_use_id="t9",
        outcome="fixed",
        remedy=[
            {"tool_use_id": "t2", "tool": "Bash", "target": "npm ci", "change": None},
            {"tool_use_id": "t3", "tool": "Edit", "target": "/p/x.js", "change": None},
            {"tool_use_id": "t4", "tool": "Edit", "target": "/p/x.js", "change": None},
        ],
        fix_edits=[
            {
                "tool": "Edit",
                "file_path": "/p/x.js",
                "tool_use_id": "t3",
                "old": "a\nb",
                "new": "c",
            },
            {"tool": "Edit", "file_path": "/p/x.js", "tool_use_id": "t4", "old": "d", "new": "e"},
        ],
        fix_calls=[{"tool": "Read", "target": "/p/x.js", "ok": False}],
    )
    assert cards.format_hit(1, row, ("*", "*"), "bb").splitlines() == [
        "1. Bash failed (not read) 2026-03-04 05:06 UTC in /p, 4 times in this session",
        "   session: the title",
        "   ran:    npm run build",
        "   error:  a *bb* c",
        "   same error signature",  # (not its signature again: the error line above)
        "   fix:    Bash npm ci",
        # two edits of one file in a row: one step
        "   fix:    edit x.js (2 edits)",
        # each line the edit took out, not the two on one line
        "             - a",
        "             - b",
        "             + c",
        "             - d",
        "             + e",
        "   confirmed: Bash npm run build succeeded",
        "   before: Read x.js (failed)",
        "   resume: claude --resume s",
    ]
    # a confirmation that got past this error and failed on another says so, not "succeeded"
    # (a new user's try, session 26: `Failed to connect to bus` gone, then a port in use)
    row["fix_error"] = "Error: listen EADDRINUSE: address already in use :::27337"
    said = "got past this error, then failed on another: Error: listen EADDRINUSE: address"
    assert f"   confirmed: Bash npm run build {said}" in cards.format_hit(1, row)
    assert "succeeded" not in cards.format_hit(1, row)


def fixed_row(**changes):
    """A find_past_fix row whose fix is one edit (t3) confirmed by a retry (t9)."""
    row = {
        "tool": "Bash",
        "failed_at": "2026-01-01T00:00:00Z",
        "project": "/p",
        "target": "mix test",
        "error_snippet": "boom",
        "next_text": None,
        "next_ok_target": None,
        "files_edited_after": [],
        "resume": "claude --resume s",
        "matched": "signature",
        "same_text": 1,
        "signature": "boom",
        "kind": "error",
        "occurrences": 1,
        "left_unsolved": 0,
        "session_title": None,
        "fixed_at": "2026-01-01T00:01:00Z",
        "fix_target": "mix test",
        "fix_tool_use_id": "t9",
        "outcome": "fixed",
        "remedy": [{"tool_use_id": "t3", "tool": "Edit", "target": "/p/a.ex", "change": None}],
        "fix_edits": [],
        "fix_calls": [],
    }
    row.update(changes)
    return row


def test_a_fix_by_the_same_call_again_says_so_not_that_the_call_was_the_fix():
    """Git not installed; the user installed it in their own terminal and restarted the shell,
    and the same `git init` went through: the card said "confirmed: PowerShell git init
    succeeded" over the agent's next words, "Git still isn't being recognized" (a new user's
    try, nu41 finding 7). Run again as it was, with no step and no call between, it says
    so, in the card and the hook, as the find page does; not of a retry that changed, nor
    with steps."""
    row = fixed_row(
        tool="PowerShell",
        target="git init",
        fix_target="git init",
        fix_as_was=1,
        remedy=[],
        next_text="Git still isn't being recognized. Restart PowerShell.",
    )
    again = "the same call, run again as it was with nothing changed in the session between,"
    card = cards.format_hit(1, row).splitlines()
    assert f"   confirmed: {again} succeeded" in card
    assert card[-2:] == [
        "   next:   Git still isn't being recognized. Restart PowerShell.",
        "   resume: claude --resume s",
    ]
    assert f"  confirmed: {again} succeeded" in hook._fix(row)
    for changed in (
        {"fix_as_was": 0, "fix_target": "& 'C:/Program Files/Git/cmd/git.exe' init"},
        {"remedy": [{"tool_use_id": "t3", "tool": "Edit", "target": "/p/a", "change": None}]},
        {"fix_calls": [{"tool": "PowerShell", "target": "winget install Git.Git", "ok": True}]},
    ):
        other = {**row, **changed}
        assert again not in cards.format_hit(1, other), changed
        assert not any(again in line for line in hook._fix(other)), changed


def test_an_edit_shows_the_lines_it_changed_not_its_shared_start():
    # Two edits of many lines that differ only past what one line of the card holds:
    # flattened, both sides read the same; as a line diff, the changed line shows.
    head = "".join(f"  defp helper_{i}(x), do: x + {i}\n" for i in range(8))
    edit = {
        "tool": "Edit",
        "file_path": "/p/a.ex",
        "tool_use_id": "t3",
        "old": head + "  @default_budget 4000\nend",
        "new": head + "  @default_budget 8000\nend",
    }
    assert cards.edit_lines(edit) == [
        ("-", "  @default_budget 4000"),
        ("+", "  @default_budget 8000"),
    ]
    card = cards.format_hit(1, fixed_row(fix_edits=[edit])).splitlines()
    assert card[card.index("   fix:    edit a.ex") + 1 :][:2] == [
        "             - @default_budget 4000",
        "             + @default_budget 8000",
    ]


def test_an_edit_of_more_lines_than_shown_says_how_many_are_left_out():
    new = "\n".join(f"line {i}" for i in range(10))
    edit = {"tool": "Write", "file_path": "/p/a.ex", "tool_use_id": "t3", "old": "", "new": new}
    card = cards.format_hit(1, fixed_row(fix_edits=[edit])).splitlines()
    at = card.index("   fix:    edit a.ex")
    assert card[at + 1 : at + 8] == [
        *(f"             + line {i}" for i in range(queries.DIFF_SHOWN)),
        "             … 4 more lines",
    ]


def test_an_edit_cut_to_fix_text_chars_shows_no_change_where_it_was_cut():
    # fix_edits holds FIX_TEXT_CHARS of each side: the two sides are cut at other places
    # of the same line, which is no change of the edit.
    tail = "x" * queries.FIX_TEXT_CHARS
    cut = queries.FIX_TEXT_CHARS
    edit = {
        "tool": "Edit",
        "file_path": "/p/a.ex",
        "tool_use_id": "t3",
        "old": ("same\nold\n" + tail)[:cut],
        "new": ("same\nnewer\n" + tail)[:cut],
    }
    assert cards.edit_lines(edit) == [("-", "old"), ("+", "newer")]
    # A new file (nothing taken out): its first lines.
    assert cards.edit_lines({"tool": "Write", "old": "", "new": "a\n\nb"}) == [
        ("+", "a"),
        ("+", "b"),
    ]


def test_an_edit_that_adds_a_long_line_after_the_one_it_keeps_shows_that_line_cut():
    # A plan's Edit that kept a line of 250 characters and added one of 600 after it
    # (../shared/corpus/real): cut to FIX_TEXT_CHARS and then at its last whole line, the
    # new side read as the old one, and every card showed an empty diff.
    kept = "- MUI: " + "collections = Card grid; " * 10
    added = "- **Notifications:** " + "success snackbar on every mutation; " * 20
    cut = queries.FIX_TEXT_CHARS
    edit = {"tool": "Edit", "file_path": "/p/plan.md", "tool_use_id": "t3"}
    edit |= {"old": kept[:cut], "new": (kept + "\n" + added)[:cut]}
    assert cards.edit_lines(edit) == [("+", (kept + "\n" + added)[:cut].split("\n")[1])]
    # the find page's diff (with the line around it) is the same change
    assert [sign for sign, _ in cards.edit_diff(edit)] == [" ", "+"]


def test_the_signature_is_said_only_when_the_text_differs_from_the_pasted_one():
    # Pasted as it was recorded (same_text), the signature repeated the error line:
    # 40 of 94 real cards. When the text differs, it says why the failure matched.
    same = cards.format_hit(1, fixed_row(same_text=1, signature="boom"))
    assert "same error signature" not in same
    other = cards.format_hit(1, fixed_row(same_text=0, signature="boom <n>"))
    assert "   same error signature: boom <n>\n" in other
    # a match by words says nothing of signatures
    words = cards.format_hit(1, fixed_row(matched="all words", same_text=0))
    assert "same error signature" not in words


def test_in_project_reads_windows_folders_as_windows_does():
    # Gemini CLI and Copilot CLI on Windows: the card's edits and files were shown whole.
    app = "C:\\Users\\me\\dev\\app"
    assert cards.in_project(app + "\\src\\Header.jsx", app) == "src\\Header.jsx"
    # either separator, any case, a folder given with its separator
    assert cards.in_project("c:\\users\\me\\dev\\app\\src/x.jsx", app + "\\") == "src/x.jsx"
    assert cards.in_project(app + "2\\x.jsx", app) == app + "2\\x.jsx"
    assert cards.in_project("D:\\x.jsx", app) == "D:\\x.jsx"
    # POSIX folders as before: case counts, only / separates
    assert cards.in_project("/p/a/b", "/p") == "a/b"
    assert cards.in_project("/P/a", "/p") == "/P/a"
    assert cards.in_project("/pa/b", "/p") == "/pa/b"
    row = fixed_row(
        project=app,
        fix_edits=[
            {
                "tool": "replace",
                "file_path": app + "\\src\\a.ex",
                "tool_use_id": "t3",
                "old": "a",
                "new": "b",
            }
        ],
    )
    assert "   fix:    edit src\\a.ex\n" in cards.format_hit(1, row)


def test_an_edit_made_again_shows_what_changed_and_a_stopped_row_shows_what_came_next():
    """An Edit refused for finding its text twice, made again with a longer old_string: the
    card said "confirmed: Edit manage-stack.sh succeeded" (a new user's try, nu40 finding
    10); the edit made again is the step, with its change, as a command's is. And a row found
    by a paste that names a stop (a rejection) tells what came next there, `then:`, never
    `fix:` under a notice that says no fix is the user's (nu40 finding 9)."""
    from pastfix import cards

    edit = {"tool": "Edit", "file_path": "/p/run.sh", "tool_use_id": "t9", "old": "fi", "new": "x"}
    row = fixed_row(
        tool="Edit",
        target="/p/run.sh",
        fix_target="/p/run.sh",
        remedy=[
            {
                "tool_use_id": "t9",
                "tool": "Edit",
                "target": "/p/run.sh",
                "change": "with a longer old_string, found once",
            }
        ],
        fix_edits=[edit],
    )
    card = cards.format_hit(1, row).splitlines()
    assert "   fix:    edit run.sh  (changed: with a longer old_string, found once)" in card
    assert "   and that call succeeded" in card
    stopped = cards.format_hit(1, {**row, "matched": queries.STOPPED}).splitlines()
    assert "   then:   edit run.sh  (changed: with a longer old_string, found once)" in stopped
    assert not any(line.lstrip().startswith(("fix:", "confirmed:")) for line in stopped)
    # ...with its outcome, in words (`--json` says `fixed`; the card said nothing of it:
    # nu44 finding 11)
    assert (
        "   outcome: what came next there fixed it (no fix of yours: the paste names no error)"
    ) in stopped
    assert cards.fix_words({**row, "matched": queries.STOPPED})["heading"] == (
        "Done next there, which fixed it"
    )
    around = {**row, "matched": queries.STOPPED, "outcome": "worked around"}
    assert cards.fix_words(around)["heading"] == "Done next there, which worked around it"
    assert cards.fix_words(row)["heading"] == "Fixed"
    # the find page heads what came next in grey, without the tick that says "fixed"
    # (nu40 finding 9)
    assert cards.fix_words({**row, "matched": queries.STOPPED})["look"] == "unfixed"
    assert cards.fix_words(row)["look"] == "fixed"


def test_one_line_cuts_between_words():
    # The next reply, a title, a command: cut mid-word they read as typos ("presenta…").
    assert queries.one_line("the quick\nbrown fox jumps", 12) == "the quick…"
    assert queries.one_line("a b, c d, e f", 9) == "a b, c…"
    assert queries.one_line("short enough", 12) == "short enough"
    # A long word past the middle (a path, Chinese without spaces) is cut where it falls.
    path = "cat /" + "x" * 40
    assert queries.one_line(path, 20) == path[:19] + "…"
    assert queries.one_line("数据库" * 20, 10) == ("数据库" * 20)[:9] + "…"


def test_plain_text_leaves_out_reasoning_in_thinking_tags():
    """A model that wrote its reasoning into its reply (`<thinking>...</thinking>`): the
    card's "next:" showed it raw; the reply after it is what was said."""
    reply = "<thinking>\nThe fetch failed, maybe private.\n</thinking>\n\nI can't reach the PR."
    assert queries.plain_text(reply) == "I can't reach the PR."
    assert queries.plain_text("Done.\n<thinking>cut off in the mid") == "Done."
    assert queries.plain_text("a <b>thinking</b> word") == "a <b>thinking</b> word"


def test_a_session_of_no_known_folder_says_no_folder():
    card = cards.format_hit(1, fixed_row(project=None)).splitlines()
    assert card[0] == "1. Bash failed 2026-01-01 00:00 UTC"


def test_a_call_known_by_its_input_alone_shows_what_the_input_says(tmp_path):
    # An MCP tool has no command, file or description: its JSON input was shown with
    # JSON's quotes and doubled backslashes, and the remedy step, which the fixes table
    # names no target for, as the tool's name alone.
    from jsonl import prompt, result, say, tool_use, write_jsonl

    sid, tool = "s-mcp", "mcp__beads__ready"
    error = "MCP server 'beads': Error calling tool 'ready': No beads workspace found."
    write_jsonl(
        tmp_path / "projects" / "-home-dev-app" / f"{sid}.jsonl",
        [
            prompt("p1", sid, "what is ready?", "2026-01-01T10:00:00Z"),
            tool_use("u1", sid, "t1", tool, {"limit": 20}, "2026-01-01T10:00:01Z"),
            result("r1", sid, "t1", error, "2026-01-01T10:00:02Z", True),
            say("a1", sid, "Setting the workspace first.", "2026-01-01T10:00:03Z"),
            tool_use(
                "u2", sid, "t2", tool, {"limit": 20, "root": "C:\\src\\app"}, "2026-01-01T10:00:04Z"
            ),
            result("r2", sid, "t2", "3 issues ready", "2026-01-01T10:00:05Z", False),
        ],
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, error)
    conn.close()
    assert row["target"] == "limit: 20"
    assert [(s["tool"], s["target"]) for s in row["remedy"]] == [
        (tool, "limit: 20, root: C:\\src\\app")
    ]
    card = cards.format_hit(1, row)
    assert "   on:     limit: 20\n" in card
    assert f"   fix:    {tool} limit: 20, root: C:\\src\\app  (changed: " in card


def test_call_input():
    assert queries.call_input('{"pattern": "src/**/*.ts", "type": "rs"}') == (
        "pattern: src/**/*.ts, type: rs"
    )
    # JSON's escapes are JSON's: a Windows path, a line break, a quote
    assert queries.call_input(r'{"root": "D:\\a", "text": "x\ny \"z\""}') == (
        'root: D:\\a, text: x\ny "z"'
    )
    # nested values, empty ones left out; numbers, booleans and null as JSON writes them
    assert queries.call_input(
        '{"questions": [{"question": "Go?", "header": ""}], "n": 3, "ok": false}'
    ) == ("questions: question: Go?, n: 3, ok: false")
    assert queries.call_input("not json {") == "not json {"
    assert queries.call_input('"a string"') == '"a string"'
    assert queries.call_input(None) is None
    assert len(queries.call_input('{"a": "' + "x" * 1000 + '"}')) == queries.INPUT_CHARS


# -- the real corpus ---------------------------------------------------------------

WORD = re.compile(r"[^\W_]+")


@pytest.fixture(scope="module")
def real_conn(tmp_path_factory):
    if not REAL_PROJECTS.is_dir():
        pytest.skip(f"real corpus not found at {REAL_PROJECTS}")
    path = tmp_path_factory.mktemp("real") / "index.db"
    build_index(path, REAL_PROJECTS)
    conn = queries.connect(path)
    yield conn
    conn.close()


def failures(conn):
    return rows(
        conn,
        "select tr.id, tr.tool_use_id, tr.session_id, tr.timestamp, tr.content, tr.signature,"
        " m.is_sidechain, m.agent_id from tool_results tr join messages m"
        " on m.uuid = tr.message_uuid where tr.is_error = 1",
    )


def groups_of(failed, words, text):
    """The (session, signature) groups find_past_fix should return for `text` (an exit
    status alone: of the failures that ended with it)."""
    wanted = {w.lower() for w in WORD.findall(text)}
    pasted = signatures.signature(text)
    status = queries.bare_status(text)
    return {
        (f["session_id"], f["signature"])
        for f in failed
        if (wanted <= words[f["id"]] or (pasted and f["signature"] == pasted))
        and (status is None or signatures.exit_status(f["content"]) == status)
    }


@needs_real_corpus()
def test_real_corpus_every_failure_is_found_by_its_rarest_word(real_conn):
    failed = failures(real_conn)
    assert len(failed) == 93
    words = {f["id"]: {w.lower() for w in WORD.findall(f["content"])} for f in failed}
    df = Counter(w for ws in words.values() for w in ws)
    for f in failed:
        if not words[f["id"]]:
            continue
        rarest = min(words[f["id"]], key=lambda w: (df[w], -len(w), w))
        found = queries.find_past_fix(real_conn, rarest, limit=queries.FIND_MAX)
        groups = [(r["session_id"], r["signature"]) for r in found]
        assert len(groups) == len(set(groups)), rarest
        assert set(groups) == groups_of(failed, words, rarest), rarest
        assert (f["session_id"], f["signature"]) in groups, rarest


@needs_real_corpus()
@pytest.mark.parametrize(
    "identifier",
    [
        "EISDIR",
        "InputValidationError",
        "File does not exist",
        "Exit code 127",
        "error TS2307",
        "String to replace not found in file",
        "File has not been read yet",
        "Sibling tool call errored",
        "command not found",
        "No such file or directory",
    ],
)
def test_real_corpus_identifiers(real_conn, identifier):
    failed = failures(real_conn)
    words = {f["id"]: {w.lower() for w in WORD.findall(f["content"])} for f in failed}
    expected = groups_of(failed, words, identifier)
    assert expected, identifier
    found = queries.find_past_fix(real_conn, identifier, limit=queries.FIND_MAX)
    assert sorted((r["session_id"], r["signature"]) for r in found) == sorted(expected)
    # an exit status alone names no error, nor a sibling's cancel: its rows say so (nu38
    # finding 10, nu39 finding 10)
    little = queries.says_little_matched(identifier)
    assert {r["matched"] for r in found} <= ({little} if little else {"all words", "signature"})
    for r in found:
        assert r["resume"] == f"claude --resume {r['session_id']}"
        if r["matched"] == "all words":
            assert "<mark>" in r["error_snippet_html"]
        assert r["occurrences"] == sum(
            f["session_id"] == r["session_id"] and f["signature"] == r["signature"] for f in failed
        )
    # In the order of find_class (the text itself, the signature, real errors before
    # Claude Code's noise, the closest text, fixed ones), then by bm25.
    ranked = [(*queries.find_class(r), r["score"] is None, r["score"] or 0) for r in found]
    assert ranked == sorted(ranked)


def test_what_was_said_next_of_a_fixed_failure_is_said_by_its_fix_at_the_latest(tmp_path):
    """nu42's PEP 668 failure was got past, without a word, by a venv's `pip install ... &&
    pytest`, and what the agent said next was of the tests that printed (`Je dois lire le
    fichier generator.py`): the hook quoted it as "the assistant said next". Of a failure got
    past, what is said after the call that got past it is of what that call printed, or of
    the next task; what is said before it, up to that call, is kept."""
    from corpus import APP, Session

    pep668 = (
        "Exit code 1\nerror: externally-managed-environment\n\n"
        "× This environment is externally managed"
    )
    fix = "python3 -m venv .venv && . .venv/bin/activate && pip install pytest && pytest"
    projects = tmp_path / "projects" / "-home-u-app"
    (
        Session("silent", APP, 0)
        .call("s1", "Bash", command="pip install pytest")
        .result("s1", pep668, error=True)
        .call("s2", "Bash", command=fix)
        .result("s2", "3 failed, 9 passed")
        .say("I need to read generator.py to fix the tests.")
        .write(projects / "silent.jsonl")
    )
    (
        Session("said", APP, 0)
        .call("t1", "Bash", command="pip install pytest")
        .result("t1", pep668, error=True)
        .say("The system Python is externally managed: a venv, then.")
        .call("t2", "Bash", command=fix)
        .result("t2", "9 passed")
        .say("All tests pass; now the README.")
        .write(projects / "said.jsonl")
    )
    (
        Session("unfixed", APP, 0)
        .call("u1", "Bash", command="pip install pytest")
        .result("u1", pep668, error=True)
        .call("u2", "Read", file_path="/home/u/app/README.md")
        .result("u2", "# app")
        .say("The README says nothing of a venv.")
        .write(projects / "unfixed.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, "error: externally-managed-environment")
    finally:
        conn.close()
    assert {r["session_id"]: (bool(r["fixed_at"]), r["next_text"]) for r in found} == {
        "silent": (True, None),
        "said": (True, "The system Python is externally managed: a venv, then."),
        # not got past: what came next, as before
        "unfixed": (False, "The README says nothing of a venv."),
    }


@needs_real_corpus()
def test_real_corpus_what_happened_next(real_conn):
    """next_text and the next successful call, recomputed in Python from the index's rows."""
    messages = rows(
        real_conn,
        "select session_id, timestamp, type, kind, text, is_sidechain, agent_id, model"
        " from messages order by timestamp, id",
    )
    calls = rows(
        real_conn,
        "select c.tool_use_id, c.session_id, c.timestamp, c.name, c.agent_id, c.is_sidechain,"
        " r.is_error from tool_calls c left join tool_results r on r.tool_use_id = c.tool_use_id"
        " order by c.timestamp, c.rowid",
    )
    call_of = {c["tool_use_id"]: c for c in calls}
    failed = failures(real_conn)
    words = {f["id"]: {w.lower() for w in WORD.findall(f["content"])} for f in failed}
    df = Counter(w for ws in words.values() for w in ws)
    with_next = 0
    for f in failed:
        rarest = min(words[f["id"]], key=lambda w: (df[w], -len(w), w))
        # The failure's group, shown by its first failure matching best: start from that one.
        [row] = [
            r
            for r in queries.find_past_fix(real_conn, rarest, limit=queries.FIND_MAX)
            if (r["session_id"], r["signature"]) == (f["session_id"], f["signature"])
        ]
        f = next(g for g in failed if g["tool_use_id"] == row["tool_use_id"])
        first = next(
            (
                m["text"][:2000]
                for m in messages
                if m["session_id"] == f["session_id"]
                and m["timestamp"] > f["timestamp"]
                and m["type"] == "assistant"
                and m["kind"] == "text"
                and m["text"]
                and m["model"] != "<synthetic>"
                and m["is_sidechain"] == f["is_sidechain"]
                and m["agent_id"] == f["agent_id"]
                # of one got past, not after the call that got past it
                and (row["fixed_at"] is None or m["timestamp"] <= row["fixed_at"])
                # said before more than NEXT_TEXT_CALLS of the agent's calls followed
                and sum(
                    c["session_id"] == f["session_id"]
                    and f["timestamp"] < c["timestamp"] < m["timestamp"]
                    and c["is_sidechain"] == f["is_sidechain"]
                    and c["agent_id"] == f["agent_id"]
                    for c in calls
                )
                <= queries.NEXT_TEXT_CALLS
            ),
            None,
        )
        if first is not None and queries._OTHER_WORK.match(queries._MARKS.sub("", first)):
            # a reply of other work ("Perfect! ..."): from the sentence naming the failure
            # on, in that reply or a later one, or nothing (said_about)
            assert row["next_text"] is None or row["next_text"][:40] in " ".join(
                queries.plain_text(m["text"], 100_000)
                for m in messages
                if m["session_id"] == f["session_id"] and m["timestamp"] > f["timestamp"]
            )
        else:
            next_text = None if first is None else queries.plain_text(first, 600)
            assert row["next_text"] == (next_text or None)
        call = call_of[f["tool_use_id"]]
        ok = next(
            (
                c["tool_use_id"]
                for c in calls
                if c["session_id"] == f["session_id"]
                and c["timestamp"] > call["timestamp"]
                and c["name"] == call["name"]
                and c["agent_id"] == call["agent_id"]
                and c["is_error"] == 0
            ),
            None,
        )
        assert row["next_ok_tool_use_id"] == ok
        with_next += bool(row["next_text"] or row["next_ok_target"] or row["files_edited_after"])
    assert with_next >= 80


def test_cli_find_takes_the_index_as_db_too(index_path):
    # `hook` and `mcp` take --db: a user who typed `find --db index.db ERROR` was told to
    # put -- before an error starting with '-'.
    result = CliRunner().invoke(cli, ["find", "--db", str(index_path), "EISDIR", "--json"])
    assert result.exit_code == 0, result.output
    assert (
        result.stdout
        == CliRunner().invoke(cli, ["find", "EISDIR", str(index_path), "--json"]).stdout
    )


def test_cli_find_error_starting_with_a_dash(index_path):
    text = "-bash: npm: command not found"
    result = CliRunner().invoke(cli, ["find", text, str(index_path)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: No such option '-b'. To search for an error that starts with '-', put -- before"
        " it (pastfix find -- '-bash: npm: command not found') or pipe it in"
        " (... | pastfix find -)"
    )
    result = CliRunner().invoke(cli, ["find", "--json", "--", text, str(index_path)])
    assert result.exit_code == 0, result.output
    # It shares only the stop word "not" with a failure: not seen before, no near match.
    assert json.loads(result.stdout) == []
    # The way the message offers: the text on stdin.
    piped = CliRunner().invoke(cli, ["find", "--json", "-", str(index_path)], input=text)
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout) == json.loads(result.stdout)


@needs_real_corpus()
def test_real_corpus_unseen_errors(real_conn):
    """Thirty errors that occur nowhere in the real corpus: each is new, with few near matches."""
    assert_not_seen_before(real_conn, UNSEEN_ERRORS)


# -- Codex failures ---------------------------------------------------------------

CODEX_SESSIONS = Path(__file__).parent / "fixtures" / "codex" / "sessions"
CODEX_SID = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"


@pytest.fixture(scope="module")
def both_agents(tmp_path_factory):
    root = tmp_path_factory.mktemp("both")
    path = root / "index.db"
    build_index(path, write_corpus(root), CODEX_SESSIONS)
    conn = queries.connect(path)
    yield conn
    conn.close()


def test_find_past_fix_finds_a_codex_failure_and_its_fix(both_agents):
    found = queries.find_past_fix(both_agents, 'npm ERR! Missing script: "tests"')
    assert [list(row) for row in found] == [FIND_COLUMNS]
    row = found[0]
    assert {k: row[k] for k in ("session_id", "project", "tool", "target", "matched")} == {
        "session_id": CODEX_SID,
        "project": "/home/dev/shop",
        "tool": "shell",
        "target": "npm test",
        "matched": "signature",
    }
    assert (row["agent"], row["resume"]) == ("codex", f"codex resume {CODEX_SID}")
    assert (row["signature"], row["kind"]) == ("npm error Missing script: <str>", "error")
    # The fix: the retry of the same command that succeeded, and the patch before it.
    assert (row["fix_tool_use_id"], row["fix_target"]) == ("call_npmtest2", "npm test")
    [patch] = row["fix_edits"]
    assert (patch["tool"], patch["file_path"], patch["old"]) == ("apply_patch", "package.json", "")
    # The patch is the edit: shown as the lines it takes out and puts in.
    assert cards.patch_lines(patch["new"]) == [
        ("-", '    "tst": "jest"'),
        ("+", '    "test": "jest"'),
    ]
    assert row["files_edited_after"] == ["package.json"]
    assert row["next_text"] == "The script is misspelled as tst in package.json; renaming it."
    text = cards.format_hit(1, row)
    assert "shell (Codex) failed" in text
    assert '             - "tst": "jest"\n             + "test": "jest"' in text
    claude = queries.find_past_fix(both_agents, "ENOENT dist/index.js")
    assert {r["agent"] for r in claude} == {"claude"}
    assert {r["resume"].split()[0] for r in claude} == {"claude"}


def test_a_session_resumed_into_an_older_file_is_resumed_by_that_files_name(tmp_path):
    """Claude Code 1.0.x wrote the lines of a resumed session, under its new sessionId,
    into the file it resumed (a 1.0.21 file of the fifth held-out set holds six sessions),
    and `claude --resume` opens a transcript by its file's name: the card and the session
    page gave `claude --resume <the line's sessionId>`, which finds no conversation."""
    first, resumed = "9ed8d415-0000-4000-8000-000000000001", "1814a2a6-0000-4000-8000-000000000002"
    rows = [
        jsonl.prompt("u1", first, "set the project up", "2025-06-17T20:00:00Z"),
        jsonl.prompt("u2", resumed, "render the site", "2025-06-17T21:00:00Z"),
        jsonl.tool_use(
            "a1", resumed, "t1", "Bash", {"command": "quarto render"}, "2025-06-17T21:00:01Z"
        ),
        jsonl.result(
            "r1", resumed, "t1", "File references.bib not found", "2025-06-17T21:00:02Z", True
        ),
    ]
    jsonl.write_jsonl(tmp_path / "projects" / "-w-its" / f"{first}.jsonl", rows)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, "File references.bib not found")
    assert (row["session_id"], row["resume"]) == (resumed, f"claude --resume {first}")
    assert session_page(conn, resumed)["resume"] == f"claude --resume {first}"
    assert session_page(conn, first)["resume"] == f"claude --resume {first}"
    # The card says why the id is another than the session's, which read as a mistake;
    # the find page too, beside its Copy button.
    assert f"resume: claude --resume {first} ({cards.RESUMED_IN_FILE})" in cards.format_hit(1, row)
    assert cards.resume_note({**row, "session_id": first}) is None
    assert cards.resume_note({**row, "resume": None}) is None
    import asyncio

    from datasette.app import Datasette

    async def page():
        ds = Datasette([str(tmp_path / "index.db")])
        url = "/index/find_past_fix"
        return (await ds.client.get(url, params={"error": "File references.bib not found"})).text

    assert f'<span class="pf-muted">({cards.RESUMED_IN_FILE})</span>' in asyncio.run(page())


@pytest.mark.parametrize(
    "arguments",
    [
        # Codex 0.3x's shell, as Codex 0.35 and 0.38 ran it (the fifth held-out set)
        {"command": ["bash", "-lc", "apply_patch << 'PATCH'\n{patch}PATCH"]},
        # exec_command's cmd
        {"cmd": "apply_patch <<'EOF'\n{patch}EOF\n"},
    ],
)
def test_a_patch_a_shell_ran_is_the_fixs_edit(tmp_path, arguments):
    """A patch given to apply_patch through the shell was found as the fix's edit, but its
    lines were not: the find card showed an empty diff, `pastfix find` and the hook a bare
    `fix: edit package.json`, as only the apply_patch tool's own input was read."""
    [rollout] = CODEX_SESSIONS.glob("*/*/*/*.jsonl")
    lines = rollout.read_text().splitlines(keepends=True)
    [i] = [n for n, line in enumerate(lines) if '"name":"apply_patch"' in line]
    item = json.loads(lines[i])
    patch = item["payload"]["input"]
    ran = {
        key: [w.replace("{patch}", patch) for w in value]
        if isinstance(value, list)
        else value.replace("{patch}", patch)
        for key, value in arguments.items()
    }
    item["payload"] = {
        "type": "function_call",
        "name": "shell" if "command" in ran else "exec_command",
        "arguments": json.dumps(ran),
        "call_id": "call_patch1",
    }
    lines[i] = json.dumps(item) + "\n"
    lines[i + 1] = lines[i + 1].replace('"custom_tool_call_output"', '"function_call_output"')
    copy = tmp_path / "sessions" / rollout.relative_to(CODEX_SESSIONS)
    copy.parent.mkdir(parents=True)
    copy.write_text("".join(lines))
    build_index(tmp_path / "index.db", tmp_path / "sessions")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, 'npm ERR! Missing script: "tests"')
    [edit] = row["fix_edits"]
    assert (edit["tool"], edit["file_path"]) == ("apply_patch", "package.json")
    assert [cards.edit_lines(e) for e in row["fix_edits"]] == [
        [("-", '    "tst": "jest"'), ("+", '    "test": "jest"')]
    ]
    card = cards.format_hit(1, row)
    assert '             - "tst": "jest"\n             + "test": "jest"' in card


def test_codex_sessions_in_recurring_errors_and_session_pages(both_agents):
    found = queries.run(both_agents, "recurring_errors", project="", noise="")
    agents = {r["signature"]: r["agents"] for r in found}
    assert agents["npm error Missing script: <str>"] == "codex"
    assert set(agents.values()) == {"claude", "codex"}
    page = queries.session_page(both_agents, CODEX_SID)
    assert page is not None
    assert (page["session"]["agent"], page["resume"]) == ("codex", f"codex resume {CODEX_SID}")
    calls = [c for m in page["messages"] for c in m["tool_calls"]]
    assert [(c["name"], c["result"]["is_error"]) for c in calls] == [
        ("shell", 1),
        ("apply_patch", 0),
        ("shell", 0),
    ]


@pytest.mark.parametrize(
    "text, path",
    [
        ("src/app.py", "src/app.py"),
        ("/home/u/proj/src/app.py:12:5", "/home/u/proj/src/app.py"),
        ("what went wrong with lib/x.ts", "lib/x.ts"),
        ("Cannot find module './utils'", None),  # a module, not a file
        ("package.json", "package.json"),
        (
            "Error: ENOENT: no such file or directory, open '/u/app/dist/index.js'",
            "/u/app/dist/index.js",
        ),
        ("EISDIR: illegal operation on a directory, read", None),
        ("see https://example.com/a/b.js", None),
        ("fatal: The current branch main has no upstream branch.", None),
        ("", None),
    ],
)
def test_pasted_path(text, path):
    assert queries.pasted_path(text) == path


def test_snippet_html_drops_the_marks_of_bold_and_code():
    marked = f"**Note:** run {queries.SNIPPET_OPEN}`git push`{queries.SNIPPET_CLOSE} <b> ```"
    assert queries.snippet_html(marked) == "Note: run <mark>git push</mark> &lt;b&gt; "


# -- a past failure's signature among other words ---------------------------------

NOT_A_REPO = "fatal: not a git repository (or any of the parent directories): .git"


@pytest.fixture(scope="module")
def among(tmp_path_factory):
    """Failures whose key lines a user pastes with other words around them."""
    root = tmp_path_factory.mktemp("among")
    projects = root / "projects"
    (
        Session("repo", APP, 0)
        .call("g1", "Bash", command="git status")
        .result("g1", NOT_A_REPO, error=True)
        .call("g2", "Bash", command="git init")
        .result("g2", "Initialized empty Git repository")
        .call("g3", "Bash", command="git status")
        .result("g3", "On branch main")
        .write(projects / "-home-u-app" / "repo.jsonl")
    )
    (
        # Its signature stands inside the one above: when both do, the longer says more.
        Session("part", LIB, 100)
        .call("p1", "Bash", command="git log")
        .result("p1", "not a git repository (or any of the parent directories): .git", error=True)
        .write(projects / "-home-u-lib" / "part.jsonl")
    )
    (
        Session("rg", LIB, 200)
        .call("r1", "Bash", command="rg -t rs Failed")
        .result("r1", "rg: unrecognized file type: rs", error=True)
        .call("r2", "Bash", command="rg -t rust Failed")
        .result("r2", "src/main.rs: Failed")
        .call("x1", "Bash", command="make")
        .result("x1", "Exit code 2", error=True)
        .write(projects / "-home-u-lib" / "rg.jsonl")
    )
    (
        Session("java", LIB, 300)
        .call("j1", "Bash", command="javac Main.java")
        .result("j1", "Exit code 127\n/bin/bash: line 1: javac: command not found", error=True)
        .call("j2", "Bash", command="sudo apt-get install -y default-jdk")
        .result("j2", "Setting up default-jdk")
        .call("j3", "Bash", command="javac Main.java")
        .result("j3", "")
        .write(projects / "-home-u-lib" / "java.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    "pasted",
    [
        f"2026-03-04T05:06:07.890Z {NOT_A_REPO}",
        f"git says: {NOT_A_REPO} - why?",
        f"{NOT_A_REPO}.\nhint: run git init first",
        f"$ git commit -m wip\n[hook] {NOT_A_REPO} (exit 128)",
    ],
)
def test_a_signature_among_other_words_is_the_same_error(among, pasted):
    """Neither its signature nor every word matches; the recorded one stands in it."""
    found = queries.find_past_fix(among, pasted)
    assert queries.seen_before(found)
    # Only the longest signature found: the failure whose signature is part of it is left.
    assert [(r["session_id"], r["matched"]) for r in found] == [("repo", "signature")]
    assert found[0]["fix_target"] == "git status"


@pytest.mark.parametrize(
    "pasted",
    [
        "getting this error: bash: javac: command not found - any idea?",
        "2026-03-04T05:06:07.890Z /bin/bash: line 1: javac: command not found",
        "zsh says command not found: javac when I build",
    ],
)
def test_a_program_not_found_among_other_words_is_the_same_error(among, pasted):
    """A shell's "not found" is signed in one form whatever the shell (`command not found:
    javac`); pasted among other words it is found in that form too (twelfth held-out set:
    such pastes found nothing)."""
    found = queries.find_past_fix(among, pasted)
    assert [(r["session_id"], r["matched"]) for r in found] == [("java", "signature")]
    other = "getting this error: bash: java: command not found - any idea?"
    assert not queries.seen_before(queries.find_past_fix(among, other))


def test_of_a_shells_error_about_other_names_those_of_its_family_come_first(tmp_path):
    """A pasted PowerShell `awk : The term 'awk' is not recognized` had three bash and zsh
    `command not found` cards (their ways round, `find` for `tree`, `python3`), its
    PowerShell kin (`sed`, worked around with `Get-Content`) left out of the three (nu45
    finding 5): the paste says which family of shells wrote it, and of rows as good those
    written by that family come first (queries.other_shell); bash's paste keeps bash's."""
    projects = tmp_path / "projects"
    term = (
        "{0} : The term '{0}' is not recognized as the name of a cmdlet, function, script"
        " file, or operable program. Check the spelling of the name, or if a path was"
        " included, verify that the path is correct and try again."
    )
    (
        Session("pwsh", "C:\\Users\\me\\app", 0)
        .call("w1", "Bash", command="sed -n 1,50p app.py")
        .result("w1", term.format("sed"), error=True)
        .call("w2", "Bash", command="Get-Content app.py -First 50")
        .result("w2", "import os")
        .write(projects / "C--Users-me-app" / "pwsh.jsonl")
    )
    for n, (name, line) in enumerate(
        [("tree", "(eval):1: command not found: tree"), ("gh", "bash: gh: command not found")]
    ):
        (
            Session(f"posix{n}", APP, 100 + 100 * n)
            .call(f"p{n}1", "Bash", command=f"{name} .")
            .result(f"p{n}1", f"Exit code 127\n{line}", error=True)
            .call(f"p{n}2", "Bash", command="find . -type d")
            .result(f"p{n}2", "./src")
            .write(projects / "-home-u-app" / f"posix{n}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, term.format("awk"))
        assert [r["session_id"] for r in found][0] == "pwsh"
        assert [r["other_shell"] for r in found] == [0, 1, 1]
        found = queries.find_past_fix(conn, "zsh:1: command not found: awk")
        assert [r["session_id"] for r in found][-1] == "pwsh"
        assert [r["other_shell"] for r in found] == [0, 0, 1]
        # a paste that says no shell orders as before
        assert {r["other_shell"] for r in queries.find_past_fix(conn, "awk: not found")} <= {0}
    finally:
        conn.close()


@pytest.mark.parametrize(
    "text, family",
    [
        ("sed : The term 'sed' is not recognized as the name of a cmdlet, function", "windows"),
        ("'awk' is not recognized as an internal or external command,", "windows"),
        ("x\n    + CategoryInfo          : ObjectNotFound: (awk:String) []", "windows"),
        ("Exit code 127\n/bin/bash: line 1: gh: command not found", "posix"),
        ("zsh:1: no matches found: src/(auth)/page.tsx", "posix"),
        ("sh: 1: vite: not found", "posix"),
        ("(eval):1: command not found: tree", "posix"),
        ("fatal: not a git repository", None),
        ("TypeError: x is not a function", None),
    ],
)
def test_shell_family(text, family):
    assert signatures.shell_family(text) == family


def test_a_signature_stands_in_the_text_only_as_whole_words(among):
    assert queries.signature_in_text(
        "rg: unrecognized file type: rs", "error: rg: unrecognized file type: rs!"
    )
    for pasted in ("xrg: unrecognized file type: rs", "rg: unrecognized file type: rsync"):
        assert not queries.signature_in_text("rg: unrecognized file type: rs", pasted), pasted
        assert not queries.seen_before(queries.find_past_fix(among, pasted)), pasted


@pytest.mark.parametrize(
    "pasted",
    [
        "bash: line 1: javac-wrapper: command not found",
        "zsh:1: command not found: javac-watch",
        "zsh: command not found: javac.sh",
        "sh: x-javac: command not found",
    ],
)
def test_a_program_is_found_only_by_its_whole_name(among, pasted):
    """`-` and `.` join the parts of one name: a missing `cargo-nextest` is another program
    than a missing `cargo`, whose fix was a shell that had cargo (a new user's made-up
    pastes were told "same error signature", session 35)."""
    found = queries.find_past_fix(among, pasted)
    assert not queries.seen_before(found), [r["signature"] for r in found]
    javac = "command not found: javac"
    assert queries.signature_in_text(javac, f"{pasted} - any idea?") == 0
    assert queries.signature_goes_on(javac + "-wrapper", javac) == 0
    assert queries.signature_in_text(javac, "zsh: command not found: javac.") == 1
    assert queries.signature_in_text(javac, "zsh: command not found: javac (again)") == 1


def test_a_signature_that_says_too_little_is_not_looked_for(among):
    """`Exit code <n>` stands in many a text: it names no error on its own."""
    assert queries.signature_in_text("Exit code <n>", "make said Exit code <n> twice") == 0
    found = queries.find_past_fix(among, "make: Exit code 2 after the tests, strangely")
    assert not queries.seen_before(found)


PUSH_REJECTED = (
    "To github.com:u/app.git\n ! [rejected]        main -> main (fetch first)\n"
    "error: failed to push some refs to 'github.com:u/app.git'\n"
    "hint: Updates were rejected because the remote contains work that you do not"
)
PUSH_PROTECTED = (
    "remote: error: GH013: Repository rule violations found for refs/heads/main.\n"
    "remote: - GITHUB PUSH PROTECTION\nremote:   - Push cannot contain secrets\n"
    "To https://github.com/u/site.git\n"
    " ! [remote rejected] main -> main (push declined due to repository rule violations)\n"
    "error: failed to push some refs to 'https://github.com/u/site.git'"
)


def test_another_error_of_a_pasted_text_is_not_its_error(tmp_path):
    """A pasted text of several errors is named by its key line: GitHub's push protection
    (`GH013`), then git's `error: failed to push some refs`, is not the push rejected for
    work the remote had, whose key line that was and whose fix was a `git pull --rebase`
    (eighteenth held-out set). Pasted around words of its own, that push is found still."""
    (
        Session("push", APP, 0)
        .call("p1", "Bash", command="git push origin main")
        .result("p1", "Exit code 1\n" + PUSH_REJECTED, error=True)
        .call("p2", "Bash", command="git pull --rebase origin main")
        .result("p2", "Successfully rebased and updated refs/heads/main.")
        .call("p3", "Bash", command="git push origin main")
        .result("p3", "main -> main")
        .write(tmp_path / "projects" / "-home-u-app" / "push.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    with queries.connect(tmp_path / "index.db") as conn:
        found = queries.find_past_fix(conn, PUSH_PROTECTED)
        assert not queries.seen_before(found)
        assert all(r["matched"] == "some words" for r in found)
        for pasted in (
            PUSH_REJECTED.replace("u/app", "me/other"),
            "$ git push\nerror: failed to push some refs to 'origin' - what now?",
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["matched"]) for r in found] == [("push", "signature")]


def test_the_pasted_error_itself_is_matched_as_before(among):
    """Its own signature or words match: signatures in the text are not looked for."""
    asked = []

    def counted(signature, error):
        asked.append(signature)
        return queries.signature_in_text(signature, error)

    among.create_function("signature_in_text", 2, counted)
    try:
        for pasted, sessions in (
            (NOT_A_REPO, {"repo"}),
            ("not a git repository", {"repo", "part"}),
        ):
            found = queries.find_past_fix(among, pasted)
            assert {r["session_id"] for r in found} == sessions, pasted
        assert asked == []
        queries.find_past_fix(among, f"git says: {NOT_A_REPO} - why?")
        assert len(asked) == 5  # each distinct signature of a failure, once
    finally:
        among.create_function("signature_in_text", 2, queries.signature_in_text)


def test_of_one_sessions_failures_the_one_fixed_soonest_stands_for_them(tmp_path):
    """The same error twice in a session, fixed in two minutes the first time and claimed
    fixed only two hours later the second (Gemini CLI's ask_user, whose second claimed fix
    was another question after the user's next prompt): the card is the first's."""
    error = "Error: Cannot find module 'left-pad'"
    session = (
        Session("twice", APP, 0)
        .call("f1", "Bash", command="npm test")
        .result("f1", error, error=True)
        .call("i1", "Bash", command="npm install left-pad")
        .result("i1", "added 1 package")
        .call("t1", "Bash", command="npm test")
        .result("t1", "ok")
        .call("f2", "Bash", command="npm test")
        .result("f2", error, error=True)
    )
    session.minute += 120
    session.call("i2", "Bash", command="npm ci").result("i2", "added 300 packages")
    session.call("t2", "Bash", command="npm test").result("t2", "ok")
    session.write(tmp_path / "projects" / "-home-u-app" / "twice.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, error)
    finally:
        conn.close()
    assert [(r["tool_use_id"], r["fix_tool_use_id"], r["occurrences"]) for r in found] == [
        ("f1", "t1", 2)
    ]


def test_of_one_sessions_failures_a_fixed_one_stands_for_a_later_unfixed_one(tmp_path):
    """A cmake error fixed, then met again later at another line and left: pasted as the
    later one says it (its line number, which only it holds), the session's card is the
    fixed one, not "not fixed" (a new user's try, session 33). A session that never fixed
    it still shows its latest."""
    error = (
        "Exit code 1\nCMake Error at CMakeLists.txt:{line} (find_package):\n"
        '  Could not find a package configuration file provided by "Qt6" with any of\n'
        "-- Configuring incomplete, errors occurred!"
    )
    fixed = (
        Session("fixed", APP, 0)
        .call("c1", "Bash", command="cmake -B build")
        .result("c1", error.format(line=12), error=True)
        .call("i1", "Bash", command="sudo apt-get install -y qt6-base-dev")
        .result("i1", "Setting up qt6-base-dev")
        .call("c2", "Bash", command="cmake -B build")
        .result("c2", "-- Configuring done")
    )
    fixed.minute += 55
    fixed.call("c3", "Bash", command="cmake -B build2").result("c3", error.format(line=14), True)
    fixed.write(tmp_path / "projects" / "-home-u-app" / "fixed.jsonl")
    left = Session("left", APP, 500).call("l1", "Bash", command="cmake -B b")
    left.result("l1", error.format(line=12), True).call("l2", "Bash", command="cmake -B b")
    left.result("l2", error.format(line=14), True)
    left.write(tmp_path / "projects" / "-home-u-app" / "left.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, "CMake Error at CMakeLists.txt:14 (find_package):")
    finally:
        conn.close()
    assert [(r["session_id"], r["tool_use_id"], r["outcome"], r["occurrences"]) for r in found] == [
        ("fixed", "c1", "fixed", 2),
        ("left", "l2", "not fixed", 2),
    ]
    # the fixed one's card says the same error was also left there unsolved (nu40 finding
    # 8: it hid that); a session that never fixed it says "not fixed" itself
    assert [r["left_unsolved"] for r in found] == [1, 0]
    card = cards.format_hit(1, found[0])
    assert "   also:   the same error was also left unsolved once there" in card.splitlines()
    assert "also:" not in cards.format_hit(2, found[1])


def test_of_one_sessions_stops_a_fixed_one_does_not_stand_for_the_others(tmp_path):
    """A stop's message is the same whatever call the user stopped: a `git add` cancelled,
    then done once a branch was made, and another `git add` cancelled and never done. The
    session's card was the first's, its fix the `git checkout -b` (Gemini CLI, a new user's
    try, session 33): the closest, then the last, stands, as for failures none fixed."""
    stop = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected"
        " (eg. if it was a file edit, the new_string was NOT written to the file). STOP what"
        " you are doing and wait for the user to tell you how to proceed."
    )
    (
        Session("stops", APP, 0)
        .call("a1", "Bash", command="git add notes.md")
        .result("a1", stop, error=True)
        .call("b1", "Bash", command="git checkout -b docs")
        .result("b1", "Switched to a new branch 'docs'")
        .call("a2", "Bash", command="git add notes.md")
        .result("a2", "")
        .call("a3", "Bash", command="git add src/app.py src/version.py")
        .result("a3", stop, error=True)
        .call("s1", "Bash", command="git status --short")
        .result("s1", "M src/app.py")
        .write(tmp_path / "projects" / "-home-u-app" / "stops.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    with queries.connect(tmp_path / "index.db") as conn:
        found = queries.find_past_fix(conn, stop)
        outcomes = dict(conn.execute("select tool_use_id, outcome from fixes"))
    assert outcomes["a1"] == "fixed"
    assert [(r["tool_use_id"], r["outcome"], r["occurrences"]) for r in found] == [
        ("a3", "declined", 2)
    ]


def test_pastfix_find_folds_the_same_fix_in_several_sessions(tmp_path):
    """Three worktrees, each pushed without an upstream and then with --set-upstream: one
    card naming the other sessions, as the find page shows them (a new user saw three alike
    cards in the terminal and one on the page); a different fix keeps its card, and --json
    keeps every row."""
    projects = tmp_path / "projects"
    for n, branch in enumerate(["feat-a", "feat-b", "feat-c", "feat-d"]):
        fix = f"git push --set-upstream origin {branch}"
        if branch == "feat-d":
            fix = f"git push -u origin {branch} --force"
        (
            Session(f"push-{branch}", f"/home/u/worktrees/{branch}", 100 * n)
            .prompt(f"ship {branch}")
            .call(f"p1-{n}", "Bash", command="git push")
            .result(f"p1-{n}", f"fatal: The current branch {branch} has no upstream branch.", True)
            .call(f"p2-{n}", "Bash", command=fix)
            .result(f"p2-{n}", "branch set up to track")
            .write(projects / f"-home-u-worktrees-{branch}" / f"push-{branch}.jsonl")
        )
    db = tmp_path / "index.db"
    build_index(db, projects)
    error = "fatal: The current branch main has no upstream branch."
    result = CliRunner().invoke(cli, ["find", error, str(db)])
    assert result.exit_code == 0, result.output
    cards = result.output.split("\n\n")
    assert len(cards) == 2, result.output
    [forced] = [card for card in cards if "--force" in card]
    [folded] = [card for card in cards if card != forced]
    assert "same fix" not in forced
    assert "   same fix in 3 sessions; also: ship feat-" in folded
    rows = json.loads(CliRunner().invoke(cli, ["find", error, str(db), "--json"]).output)
    assert len(rows) == 4


# -- the same error about another file -------------------------------------------


@pytest.fixture(scope="module")
def other_file(tmp_path_factory):
    """Failures that name a file: pasted about another, they are the same error."""
    root = tmp_path_factory.mktemp("other_file")
    projects = root / "projects"
    (
        Session("cat", APP, 0)
        .call("c1", "Bash", command="cat nonexistent.txt")
        .result("c1", "cat: nonexistent.txt: No such file or directory", error=True)
        .call("c2", "Bash", command="ls")
        .result("c2", "notes.txt")
        .call("c3", "Bash", command="cat notes.txt")
        .result("c3", "hello")
        .write(projects / "-home-u-app" / "cat.jsonl")
    )
    ignored = "The following paths are ignored by one of your .gitignore files:"
    (
        Session("ignored", APP, 100)
        .call("i1", "Bash", command="git add priv/static/assets/app.css")
        .result("i1", f"{ignored}\npriv/static/assets\nhint: Use -f", error=True)
        .call("i2", "Bash", command="git add assets/css/app.css")
        .result("i2", "")
        .write(projects / "-home-u-app" / "ignored.jsonl")
    )
    (
        Session("cd", LIB, 200)
        .call("d1", "Bash", command="cd backend && npm test")
        .result("d1", "Exit code 1\n(eval):cd:1: no such file or directory: backend", error=True)
        .call("d2", "Bash", command="npm test")
        .result("d2", "ok")
        .write(projects / "-home-u-lib" / "cd.jsonl")
    )
    (
        Session("module", LIB, 300)
        .call("m1", "Bash", command="python app.py")
        .result("m1", "ModuleNotFoundError: No module named 'numpy.core'", error=True)
        .call("m2", "Bash", command="pip install numpy")
        .result("m2", "Successfully installed numpy")
        .call("m3", "Bash", command="python app.py")
        .result("m3", "ok")
        .write(projects / "-home-u-lib" / "module.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    ("pasted", "session"),
    [
        (
            "The following paths are ignored by one of your .gitignore files:\ndist\n"
            "hint: Use -f if you really want to add them.",
            "ignored",
        ),
        ("cat: missing.txt: No such file or directory", "cat"),
        ("cat: notes: No such file or directory", "cat"),
        ("$ cat data/missing.json\ncat: data/missing.json: No such file or directory", "cat"),
        ("(eval):cd:1: no such file or directory: frontend", "cd"),
        # as a terminal's zsh prints it (the README's example), or a script's
        ("cd: no such file or directory: frontend", "cd"),
        ("zsh:cd:2: no such file or directory: frontend", "cd"),
    ],
)
def test_the_same_error_about_another_file_is_found(other_file, pasted, session):
    """A file's name is kept in a signature, but when no failure has the pasted error's own
    signature or words, the same error about another file is the one to show (a new user's
    `cd: frontend` where history had `cd: backend`). Seen before, but for a file or folder
    that was not there: another one's fix made or looked for that one, and a new user's `ls`
    of a missing folder was "seen before" with another project's `mkdir` and `chmod` (nu42
    finding 9): not seen about this file, said so."""
    found = queries.find_past_fix(other_file, pasted)
    # of one that nothing fixed there: no fix to speak of
    unfixed = [{**row, "fixed_at": None} for row in found]
    # what the pasted path is: cd's a folder, cat's a file (queries.missing_kind)
    kind = {"cd": "folder", "cat": "file"}.get(session, "path")
    assert queries.other_files_notice(unfixed * 2, pasted).endswith(
        f"2 past failures had the same error about other {kind}s; what came next there was about"
        f" those {kind}s."
    )
    fixed = [{"fixed_at": "2026-01-05T09:03:00.000Z", "occurrences": 2}]
    assert queries.other_files_notice(fixed, pasted) == (
        f"2 past failures had the same error about other {kind}s; their fixes were for those"
        f" {kind}s."
    )
    missing = session != "ignored"
    assert queries.seen_before(found) is not missing
    assert [(r["session_id"], r["matched"]) for r in found] == [(session, "signature")]
    if missing:
        assert queries.not_seen_notice(pasted, found).startswith(
            f"Not seen about this {kind}: 1 past failure had the same error about another {kind}; "
        )
    assert not found[0]["same_text"]
    # and the card says so, not "same error signature" alone
    assert found[0]["other_file"] == 1
    card = cards.format_hit(1, found[0], error=pasted)
    # as the notice names the pasted path: another folder of a `cd` (nu45)
    another = f"another {kind if missing else 'file'}"
    assert f"   same error, {another}" in card
    # the signature after it only when it is not the error line shown above it
    error_line, signature = found[0]["error_snippet"].split("\n")[0], found[0]["signature"]
    assert (f"{another}: {signature}\n" in card) is (signature != error_line)


@pytest.mark.parametrize(
    ("pasted", "kind"),
    [
        ("ls: cannot access 'build/output': No such file or directory", "folder"),
        ("ls: build/output: No such file or directory", "folder"),
        ("cd: no such file or directory: frontend", "folder"),
        ("bash: cd: frontend: No such file or directory", "folder"),
        ("mkdir: cannot create directory 'out/a': No such file or directory", "folder"),
        ("cat: src/: Is a directory", "folder"),
        ("cp: cannot stat 'dist/': No such file or directory", "folder"),
        ("ls: cannot access 'src/app.py': No such file or directory", "file"),
        ("cat: todo: No such file or directory", "file"),
        ("sed: can't read src/Header.jsx: No such file or directory", "file"),
        ("File does not exist.", "file"),
        ("bash: ./run.sh: No such file or directory", "file"),
        ("zsh: permission denied: ./deploy", "file"),
        ("python: can't open file '/home/me/app/main': [Errno 2] No such file", "file"),
        ("cp: cannot stat 'dist': No such file or directory", "path"),
        ("FileNotFoundError: [Errno 2] No such file or directory: 'data'", "path"),
        ("error: see https://example.com/ (No such file or directory: data)", "path"),
    ],
)
def test_a_missing_path_is_said_as_what_the_error_says_it_is(pasted, kind):
    """A folder's `ls` and `cd` were "not seen about this file" (nu42 finding 11): the
    noun is what the error says its path is, "path" when it does not say."""
    assert queries.missing_kind(pasted) == kind
    assert queries.not_seen_about(pasted) == f"Not seen about this {kind}"
    rows = [{"fixed_at": "2026-01-05T09:03:00.000Z", "occurrences": 2}]
    assert queries.other_files_notice(rows, pasted) == (
        f"2 past failures had the same error about other {kind}s; their fixes were for"
        f" those {kind}s."
    )


def test_a_signature_match_is_not_said_about_another_file(other_file, among):
    """Its own signature, or one among other words, is the same error about the same file."""
    for conn, pasted in (
        (other_file, "cat: nonexistent.txt: No such file or directory"),
        (among, f"git says: {NOT_A_REPO} - why?"),
    ):
        [row] = queries.find_past_fix(conn, pasted)
        assert row["other_file"] == 0
        assert "another file" not in cards.format_hit(1, row, error=pasted)


@pytest.mark.parametrize(
    "pasted",
    [
        "ModuleNotFoundError: No module named 'requests.adapters'",
        "cat: missing.txt: Permission denied",
        "head: missing.txt: No such file or directory",
    ],
)
def test_another_module_or_another_error_about_a_file_is_not(other_file, pasted):
    """Only the file is set aside: a module's name, the program and the message stay."""
    assert not queries.seen_before(queries.find_past_fix(other_file, pasted))


def test_the_same_file_needs_no_loose_match(other_file):
    """Its own signature matches: the files are not set aside."""
    found = queries.find_past_fix(other_file, "cat: nonexistent.txt: No such file or directory")
    assert [(r["session_id"], r["same_text"]) for r in found] == [("cat", 1)]


@pytest.mark.parametrize(
    ("signature", "form"),
    [
        ("cat: nonexistent.txt: No such file", "cat: <path>: No such file"),
        ("cat: notes: No such file or directory", "cat: <path>: No such file or directory"),
        ("open <path>/y.go: no such file or directory", "open <path>: no such file or directory"),
        ("cd:<n>: no such file or directory: x", "cd:<n>: no such file or directory: <path>"),
        # in zsh's words the program comes first and stays: `cd`'s is not a script's
        ("cd: no such file or directory: x", "cd: no such file or directory: <path>"),
        ("zsh: no such file or directory: <path>/run.sh", "zsh: no such file or directory: <path>"),
        ("write to <path>/README.md, but", "write to <path>, but"),
        ("No module named 'numpy.core'", "No module named 'numpy.core'"),
        ("hint: advice.addIgnoredFile false", "hint: advice.addIgnoredFile false"),
        ("error: os.path is not a file", "error: os.path is not a file"),
    ],
)
def test_loose_sets_aside_the_file_only(signature, form):
    assert signatures.loose(signature) == form


@pytest.mark.parametrize(
    ("pasted", "little"),
    [
        ("Exit code 1", True),
        ("Exit code 127\n", True),
        ("  Process exited with code 2.", True),
        ("exit status 1", True),
        ("Error", True),
        ("Command timed out after 2m 0s", True),
        ("Exit code 143\nCommand timed out after 120000ms", True),
        ("Exit code: 1", True),  # Codex's shell
        ("Exit Code: 1", True),  # Gemini CLI's
        ("<exited with exit code 1>", True),  # Copilot CLI's
        ("Exit code 1\nmake: *** [all] Error 2", False),
        ("Command timed out after 2m 0s\nError: connect ECONNREFUSED 127.0.0.1:5432", False),
        ("error: linker `cc` not found", False),
        ("", False),
        # only words most failures hold (a new user's `pastfix find the`, session 26)
        ("the", True),
        ("x", True),
        ("a 1", True),
        ("is not", True),
        ("EPERM", False),
        ("ls x", False),
        ("raw: the", False),
        # Claude Code's wrapper tags are no words of an error (a line's end, copied: nu45)
        ("}</tool_use_error>", True),
        ("<tool_use_error>the</tool_use_error>", True),
        ("<tool_use_error>File does not exist.</tool_use_error>", False),
    ],
)
def test_an_exit_status_alone_says_little(pasted, little):
    """What only says how a command ended, or holds only common words, names no error (the
    find page and `pastfix find` say so above what it found); an error's own line does."""
    assert queries.says_little(pasted) is little


def test_a_pasted_wrapper_tag_is_no_word_of_the_error(conn):
    """`}</tool_use_error>`, the end of a line copied from a transcript, matched every
    Claude Code tool error by all its words (`tool`, `use`, `error`), twenty cards said to
    be seen (nu45): it names no error, and its rows say so."""
    found = queries.find_past_fix(conn, "}</tool_use_error>")
    assert found and {row["matched"] for row in found} == {queries.COMMON_WORDS}
    assert queries.says_little_notice("}</tool_use_error>").startswith(
        "'}</tool_use_error>' names no error: only common words"
    )
    # and where no failure holds the tags, not "Not seen before" either
    assert queries.not_seen_notice("}", []).startswith("'}' names no error")


REJECTION = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if"
    " it was a file edit, the new_string was NOT written to the file). STOP what you are"
    " doing and wait for the user to tell you how to proceed."
)


@pytest.mark.parametrize(
    ("pasted", "stopped"),
    [
        (REJECTION, True),
        (f"Error: {REJECTION}\n", True),
        ("[Request interrupted by user for tool use]", True),
        ("exec command rejected by user", True),  # Codex's
        ("Cancelled: parallel tool call Bash(npm test) errored", True),
        # Claude Code's: it did not run the call, auto mode's classifier down (nu40 finding 1)
        (
            "claude-opus-4-8 is temporarily unavailable, so auto mode cannot determine the"
            " safety of Bash right now. Wait briefly and then try this action again.",
            True,
        ),
        ("Tool permission request failed: Error: Tool permission stream closed", True),
        # a program's refusal or its word `rejected` is its error
        (" ! [rejected]        main -> main (fetch first)", False),
        ("error: failed to push some refs to 'github.com:me/app.git'", False),
        ("Permission to use Bash has been denied.", False),
        ("raw: rejected", False),
        ("", False),
    ],
)
def test_an_agent_s_word_of_a_stopped_call_says_little(pasted, stopped):
    """A user's rejection, an interrupt, a call cancelled with its sibling: the agent's word of
    a call that was stopped names no error of a program, and reads the same whatever the call
    did. Pasted, it had the cards of other sessions' rejected calls, "fixed" by their next
    try (a new user's try, nu39 finding 10): it is said to name no error, as an exit status
    alone is, and its rows match as `stopped`."""
    assert queries.says_little(pasted) is stopped
    assert (queries.says_little_matched(pasted) == queries.STOPPED) is stopped
    if stopped:
        notice = queries.says_little_notice(pasted)
        assert "names no error: it is the agent's word of a call that was stopped" in notice


@pytest.mark.parametrize(
    ("pasted", "status"),
    [
        ("Exit code 1", 1),
        ("Exit code 127\n", 127),
        ("  Process exited with code 2.", 2),
        ("exit status 1", 1),
        ("Exit code: 1", 1),
        ("Exit Code: -1", -1),
        ("<exited with exit code 127>", 127),
        ("Exit code 143\nCommand timed out after 120000ms", 143),
        ("Exit code 1\nexit status 1\nError", 1),
        ("Exit code 1\nexit status 2", None),  # two statuses: neither is the one
        ("Error", None),
        ("Command timed out after 2m 0s", None),
        ("Exit code 1\nmake: *** [all] Error 2", None),
        ("", None),
    ],
)
def test_the_exit_status_pasted_alone(pasted, status):
    assert queries.bare_status(pasted) == status


@pytest.fixture
def statuses(status_index):
    conn = queries.connect(status_index)
    yield conn
    conn.close()


@pytest.mark.parametrize(
    ("pasted", "sessions"),
    [
        ("Exit code 1", ["status1"]),
        ("Exit code: 1", ["status1"]),
        ("Exit Code: 1", ["status1"]),
        ("Process exited with code 1", ["status1"]),
        ("exit status 1", ["status1"]),
        ("<exited with exit code 1>", ["status1"]),
        ("Exit code 1\nError", ["status1"]),
        ("Exit code 127", ["status127"]),
        ("Process exited with code 2", ["status2"]),
        ("Exit code 9", []),
    ],
)
def test_find_past_fix_of_an_exit_status_alone_keeps_the_failures_that_ended_so(
    statuses, pasted, sessions
):
    """An exit status pasted alone, in any agent's words, finds the failures that ended with
    that status, as stored (`Exit code 1` first): not `Exit code 127` nor `Exit code 2` for
    the `1` of their `line 1` or `(1,5)`, nor a failure that only says `exit code 1`."""
    found = queries.find_past_fix(statuses, pasted)
    assert [r["session_id"] for r in found] == sessions
    if found:
        # marked as stored, in whichever agent's words it was pasted
        status = queries.bare_status(pasted)
        assert found[0]["error_snippet_html"].startswith(
            f"<mark>Exit</mark> <mark>code</mark> <mark>{status}</mark> "
        )


def test_find_past_fix_of_an_error_keeps_failures_of_every_status(statuses):
    """Only a status pasted alone keeps those that ended with it: `Error` alone, and an
    error's own words, find failures whatever their status."""
    found = {r["session_id"] for r in queries.find_past_fix(statuses, "Error")}
    assert found == {"status2", "nostatus"}
    found = queries.find_past_fix(statuses, "exit code 1 of the last step was ignored")
    assert [r["session_id"] for r in found] == ["nostatus"]
    found = queries.find_past_fix(statuses, "line 1: python: command not found")
    assert [r["session_id"] for r in found] == ["status127"]


def test_a_fix_confirmed_by_a_call_that_failed_on_another_error_says_so(tmp_path):
    """A changed retry that got past the error and failed on another (pastfix.fixes: `git
    checkout x && cat .gitignore` failing at `cat`) confirms the fix; the card said that call
    "succeeded" (a new user's try, session 26: `Failed to connect to bus` gone, then
    `systemctl status` exit 3). `fix_error` names what it failed on, null when it did not."""
    session = Session("co", APP, 0).prompt("switch to deploy")
    session.call("c1", "Bash", command="git checkout deploy && cat .gitignore")
    refused = "error: Your local changes to the following files would be overwritten by checkout:"
    session.result("c1", f"Exit code 1\n{refused}\n\tapp.py", True)
    session.call("c2", "Bash", command="git stash")
    session.result("c2", "Saved working directory")
    session.call("c3", "Bash", command="git checkout deploy && cat .gitignore")
    missing = "cat: .gitignore: No such file or directory"
    session.result("c3", f"Switched to branch 'deploy'\nExit code 1\n{missing}", True)
    session.write(tmp_path / "projects" / "-home-u-app" / "co.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    (row,) = queries.find_past_fix(conn, refused)
    (other,) = queries.find_past_fix(conn, missing)
    conn.close()
    assert (row["outcome"], row["fix_tool_use_id"], row["fix_error"]) == ("fixed", "c3", missing)
    said = f"got past this error, then failed on another: {missing}"
    assert said in cards.format_hit(1, row) and "succeeded" not in cards.format_hit(1, row)
    assert other["fix_error"] is None


@pytest.mark.parametrize(("calls_between", "said"), [(0, True), (3, True), (4, False)])
def test_next_text_is_what_was_said_within_a_few_calls(tmp_path, calls_between, said):
    """The text said many calls after a failure was of other work (the summary at a
    session's end, which a new user found the hook spent its room on): next_text is what
    the agent said within NEXT_TEXT_CALLS of its calls, else nothing."""
    from jsonl import prompt, result, say, tool_use, write_jsonl

    assert queries.NEXT_TEXT_CALLS == 3
    sid = "4e47e471-0000-4000-8000-000000000001"

    def at(n):
        return f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}Z"

    lines = [
        prompt("u0", sid, "build it", at(0)),
        tool_use("a1", sid, "t1", "Bash", {"command": "make"}, at(1)),
        result("r1", sid, "t1", "Exit code 2\nmake: *** No rule to make target 'al'", at(2), True),
    ]
    for n in range(calls_between):
        lines += [
            tool_use(f"a{n + 2}", sid, f"t{n + 2}", "Bash", {"command": f"ls d{n}"}, at(3 + 2 * n)),
            result(f"r{n + 2}", sid, f"t{n + 2}", "ok", at(4 + 2 * n), False),
        ]
    # Claude Code's own line in the agent's place is no reply (model `<synthetic>`)
    synthetic = say("s0", sid, "No response requested.", at(49))
    synthetic["message"]["model"] = "<synthetic>"
    lines += [synthetic, say("s1", sid, "The target is all, not al: make all.", at(50))]
    write_jsonl(tmp_path / "p" / "-w-app" / f"{sid}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "p")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, "No rule to make target")
    conn.close()
    assert row["next_text"] == ("The target is all, not al: make all." if said else None)


def test_a_heredocs_text_is_no_word_of_the_fix_a_reply_names():
    """The words a fixing call put in are its first line's: a heredoc's text holds the words of
    any reply about that work (`Now let me create the basic folder structure for the TODO
    app:` after `File has not been read yet`, fixed by `cat > types/index.ts << 'EOF'` whose
    text said the same), which named nothing of the failure."""
    reply = json.dumps(["Now let me create the basic folder structure for the TODO app:"])
    fix = "cat > types/index.ts << 'EOF'\n// the basic folder structure of the TODO app\nEOF"
    error = "File has not been read yet. Read it first before writing to it."
    assert queries.said_about(reply, error, None, "/w/types/index.ts", fix) is None
    named = json.dumps(["Now let me write it with cat instead:"])
    assert queries.said_about(named, error, None, "/w/types/index.ts", fix) == (
        "Now let me write it with cat instead:"
    )


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        # a closing pleasantry: from the sentence that names the failure (its program)
        (
            "Perfect! I showed three tools in one turn. 1. Write: made data.txt\n"
            "2. Bash: make failed on the target's name, so I ran make all.",
            "Bash: make failed on the target's name, so I ran make all.",
        ),
        # a summary of other work that names nothing of it: no line
        ("Summary: I added the docs and a README for the app.", None),
        # the next task: no line
        ("Now let me create the basic folder structure for the app:", None),
        # a reply about it in words of its own, as it was
        ("Let me check the Makefile's targets:", "Let me check the Makefile's targets:"),
    ],
)
def test_next_text_is_what_was_said_of_the_failure(tmp_path, reply, said):
    """The hook's `the assistant said next:` quoted a closing pleasantry (`Perfect! I just
    demonstrated multiple tools in one turn ...` after `python: command not found`, nu47
    finding 7): a reply that opens as other work is quoted from its first sentence that
    names the failure (its error, program, file or fix, or error talk), else not at all."""
    from jsonl import prompt, result, say, tool_use, write_jsonl

    sid = "4e47e471-0000-4000-8000-000000000002"
    lines = [
        prompt("u0", sid, "build it", "2026-01-01T00:00:00Z"),
        tool_use("a1", sid, "t1", "Bash", {"command": "make al"}, "2026-01-01T00:00:01Z"),
        result(
            "r1",
            sid,
            "t1",
            "Exit code 2\nmake: *** No rule to make target 'al'",
            "2026-01-01T00:00:02Z",
            True,
        ),
        say("s1", sid, reply, "2026-01-01T00:00:03Z"),
    ]
    write_jsonl(tmp_path / "p" / "-w-app" / f"{sid}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "p")
    conn = queries.connect(tmp_path / "index.db")
    [row] = queries.find_past_fix(conn, "No rule to make target")
    conn.close()
    assert row["next_text"] == said


def test_a_call_made_several_times_in_a_row_is_one_before_line():
    """Six Reads of one file were six `before:` lines of a card (a new user's try, session
    27): one, saying how many times."""
    read = {"tool": "Read", "target": "src/tests.rs", "ok": 1}
    calls = [read, dict(read), dict(read), {"tool": "Bash", "target": "ls", "ok": 1}, read]
    assert cards.fold_calls(calls) == [(read, 3), (calls[3], 1), (read, 1)]
    assert cards.fold_calls([read, {**read, "ok": 0}]) == [(read, 1), ({**read, "ok": 0}, 1)]


def test_the_same_error_about_another_file_beats_a_shorter_one_found_in_the_text(tmp_path):
    """`(eval):1: permission denied: .../sync-check.sh` pasted: a past `permission denied:`
    naming no file stood in the text and was the only card, though another script's same
    error had been fixed by its chmod (a new user's try, session 27). The match that says
    more of the text wins; its own file's would win over both."""
    from jsonl import result, tool_use, write_jsonl

    def session(sid, error, fix):
        return [
            tool_use(
                f"{sid}1", sid, f"{sid}-t1", "Bash", {"command": "./x.sh"}, "2026-01-01T10:00:00Z"
            ),
            result(f"{sid}2", sid, f"{sid}-t1", error, "2026-01-01T10:00:01Z", True),
            tool_use(f"{sid}3", sid, f"{sid}-t2", "Bash", {"command": fix}, "2026-01-01T10:00:02Z"),
            result(f"{sid}4", sid, f"{sid}-t2", "ok", "2026-01-01T10:00:03Z", False),
        ]

    bare = "Exit code 126\n(eval):1: permission denied: "
    named = "Exit code 126\n(eval):1: permission denied: /Users/x/.claude/scripts/security-check.sh"
    write_jsonl(tmp_path / "p" / "a" / "aaaa.jsonl", session("aaaa", bare, "bash -c 'source x'"))
    write_jsonl(
        tmp_path / "p" / "b" / "bbbb.jsonl",
        session("bbbb", named, "chmod +x /Users/x/.claude/scripts/security-check.sh"),
    )
    build_index(tmp_path / "index.db", tmp_path / "p")
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = "(eval):1: permission denied: /Users/me/.claude/scripts/sync-check.sh"
        found = queries.find_past_fix(conn, pasted)
        assert [(r["session_id"], r["other_file"]) for r in found] == [("bbbb", 1)]
    finally:
        conn.close()


def test_the_pasted_error_after_what_a_script_said_first_is_that_error(tmp_path):
    """A script's `console.error("Error creating snapshot:", e)` put its words before
    Node's error in the stored signature: the same error pasted alone was "not seen
    before" (a new user's try, session 27). An error that says too little alone (`Error`)
    does not match so."""
    from jsonl import result, tool_use, write_jsonl

    sid = "5c41p7e1"
    said = (
        "Exit code 1\nError creating snapshot: Error [ERR_MODULE_NOT_FOUND]: Cannot find module"
        " '/w/shop/models/plugins/toJSON' imported from /w/shop/models/User.js"
    )
    write_jsonl(
        tmp_path / "p" / "w" / f"{sid}.jsonl",
        [
            tool_use("u1", sid, "t1", "Bash", {"command": "node snap.js"}, "2026-01-01T10:00:00Z"),
            result("r1", sid, "t1", said, "2026-01-01T10:00:01Z", True),
        ],
    )
    build_index(tmp_path / "index.db", tmp_path / "p")
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = (
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'C:\\\\Users\\\\bob\\\\shop\\\\models"
            "\\\\plugins\\\\toJSON' imported from C:\\\\Users\\\\bob\\\\shop\\\\models\\\\Order.js"
        )
        found = queries.find_past_fix(conn, pasted)
        assert [(r["session_id"], r["matched"]) for r in found] == [(sid, "signature")]
        assert queries.signature_after_prefix("x: Error", "Error") == 0
    finally:
        conn.close()


def test_a_fifo_named_as_the_index_is_said_to_be_no_file(tmp_path):
    """`hook --db fifo.db` said "not found: build it with ...", which would build over it."""
    import os

    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    with pytest.raises(queries.NotAnIndex, match="is not an index: not a regular file"):
        queries.connect(fifo)


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_a_fifo_beside_the_index_is_refused_by_every_command_not_waited_on(tmp_path, suffix):
    """A FIFO `index.db-journal`: SQLite opens a journal it finds to see whether it is
    hot, and the open waits for a writer for ever (the hook, find, status, forget and the
    MCP server hung; a build ignored SIGTERM holding its lock: a security test, session
    32). Each says so in one line, at once."""
    import os
    import subprocess
    import sys

    db = tmp_path / "index.db"
    build_index(db, write_corpus(tmp_path / "corpus"))
    os.mkfifo(tmp_path / f"index.db{suffix}")
    said = f"index.db{suffix} is not a regular file"
    with pytest.raises(queries.NotAnIndex, match=said):
        queries.connect(db)
    env = {**os.environ, "HOME": str(tmp_path)}
    for args in (
        ["find", "npm ERR! Missing script", str(db)],
        ["forget", str(db), "--missing", "--dry-run"],
        ["build", str(db), "--source", str(tmp_path / "corpus")],
        ["status", str(db)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "pastfix", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert said in done.stderr + done.stdout, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_a_paste_cut_short_finds_the_line_it_starts():
    """The first sentence of Claude Code's `cd to '/x' was blocked. For security, ...` found
    nothing (a new user's try, session 28): a past signature that goes on from the pasted
    one, at a word's end, is that error. Not one cut inside a word, nor a paste that says
    too little on its own."""
    past = "cd to <str> was blocked. For security, Claude Code may only change directories"
    assert queries.signature_goes_on(past, "cd to <str> was blocked.") == 1
    assert queries.signature_goes_on(past, "cd to <str> was block") == 0
    assert queries.signature_goes_on(past, "cd to") == 0
    assert queries.signature_goes_on(past, past) == 0
    pasted = "cd to '/home/me/other/dir' was blocked."
    assert queries.signature_goes_on(past, signatures.signature(pasted)) == 1


def test_a_confirmation_cut_where_the_failed_call_reads_the_same_shows_the_difference():
    """A retry that differs from the failed command only past the card's width looked the
    same on the card (`confirmed:` cut where `ran:` was): it is shown from a little before
    the first difference (a new user's try, session 28)."""
    from pastfix import cards

    head = 'CMAKE="/c/Program Files/Microsoft Visual Studio/18/Community/CMake/bin/cmake.exe" ' * 3
    ran = head + '"$CMAKE" -S . -B build -G "Visual Studio 18 2022" -A x64'
    fixed = head + '"$CMAKE" -S . -B build -G "Visual Studio 18 2026" -A x64'
    shown = cards.where_it_differs(fixed, ran, 200)
    assert shown.startswith("…") and shown.endswith('"Visual Studio 18 2026" -A x64')
    assert len(shown) <= 200
    assert cards.where_it_differs("npm test", "npm run test", 200) == "npm test"


def test_a_compilers_message_pasted_without_its_place_stands_in_the_text():
    """`go test`'s `<path>:<n>:<n>: no required module provides package ...` and tsc's
    `<path>(<n>,<n>): error TS2307: ...`: the message alone, among other words, is that
    error (the place a compiler names is no part of what a user pastes of it)."""
    go = "<path>:<n>:<n>: no required module provides package github.com/google/uuid; to add it:"
    pasted = (
        "go test said: no required module provides package github.com/google/uuid; to add it: help?"
    )
    assert queries.signature_in_text(go, pasted) == 1
    ts = "<path>(<n>,<n>): error TS2307: Cannot find module 'react' or its corresponding type"
    assert (
        queries.signature_in_text(
            ts,
            "got error TS2307: Cannot find module 'react' or its corresponding type declarations",
        )
        == 1
    )
    assert (
        queries.signature_in_text(
            ts, "got error TS2307: Cannot find module 'vue' or its corresponding type declarations"
        )
        == 0
    )


def test_next_text_is_not_claude_codes_placeholder_of_an_empty_reply(tmp_path):
    """Claude Code writes `(no content)` for a reply of no text: no next words (a new
    user's card said `next:   (no content)`, session 32); the reply after it is."""
    s = "abababab-0000-4000-8000-000000000001"
    t = "2026-01-02T10:00:"
    lines = [
        jsonl.prompt(f"{s}-p", s, "run it", t + "00Z"),
        jsonl.tool_use(f"{s}-1", s, f"{s}-t1", "Bash", {"command": "frobctl up"}, t + "01Z"),
        jsonl.result(
            f"{s}-2", s, f"{s}-t1", "Exit code 1\nfrobctl: quantum flux misaligned", t + "02Z", True
        ),
        jsonl.say(f"{s}-3", s, "(no content)", t + "03Z"),
        jsonl.say(f"{s}-4", s, "The flux needs a reset first.", t + "04Z"),
    ]
    jsonl.write_jsonl(tmp_path / "projects" / "-home-dev-app" / f"{s}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    [row] = queries.find_past_fix(
        queries.connect(tmp_path / "index.db"), "frobctl: quantum flux misaligned"
    )
    assert row["next_text"] == "The flux needs a reset first."


# -- a pasted error with a log's prefixes, a prompt's line or a traceback's frames ---------

MIX_PUBSUB = (
    "** (RuntimeError) failed to start Mix.PubSub, reason: {{:shutdown, {:failed_to_start_child,"
    ' Mix.PubSub.Subscriber, {%Mix.Error{message: "failed to open a TCP socket", mix: 1}, '
    '[{Mix, :raise, 2, [file: ~c"lib/mix.ex", line: 632]}]}}}}'
)
VISER = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/proj/kimodo_reimpl/visualize.py", line 285, in __init__\n'
    "    import viser\nModuleNotFoundError: No module named 'viser'\n\n"
    "The above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/home/u/proj/visualize_dataset.py", line 12, in <module>\n    main()\n'
    "ModuleNotFoundError: kimodo_reimpl.visualize requires the viser dependency."
)


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """Failures that a user pastes from a log, a terminal or another checkout."""
    root = tmp_path_factory.mktemp("logged")
    projects = root / "projects"
    (
        Session("mix", APP, 0)
        .call("m1", "Bash", command="mix ecto.migrate")
        .result(
            "m1",
            f"Exit code 1\n{MIX_PUBSUB}\n    (mix 1.19.5) lib/mix/pubsub.ex:36: M.start/0\n",
            error=True,
        )
        .write(projects / "-home-u-app" / "mix.jsonl")
    )
    (
        Session("viser", LIB, 100)
        .call("v1", "Bash", command="python visualize_dataset.py")
        .result("v1", f"Exit code 1\n{VISER}", error=True)
        .write(projects / "-home-u-lib" / "viser.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


# A new occurrence of the Mix error: another term, so not its signature; its words are.
MIX_AGAIN = (
    "** (RuntimeError) failed to start Mix.PubSub, reason: {{:shutdown, {:failed_to_start_child,"
    ' Mix.PubSub.Subscriber, {%Mix.Error{message: "failed to open a TCP socket", mix: 1}, []}}}}'
)


@pytest.mark.parametrize(
    "pasted, session",
    [
        (MIX_AGAIN, "mix"),
        (f"$ mix ecto.migrate\n{MIX_AGAIN}", "mix"),
        (f"me@box:~/app$ mix ecto.migrate\n{MIX_AGAIN}", "mix"),
        (f"2026-05-03 08:12:55 $ mix ecto.migrate\n2026-05-03 08:12:56 {MIX_AGAIN}", "mix"),
        (f"[2026-05-03 08:12:56] {MIX_AGAIN}", "mix"),
        (f"08:12:56 {MIX_AGAIN}\n08:12:56     (mix 1.19.5) lib/mix/pubsub.ex:40: M.start/0", "mix"),
        # the whole traceback from another checkout, its frames and their source lines
        (
            'Traceback (most recent call last):\n  File "/home/me/work/kimodo_reimpl/'
            'visualize.py", line 290, in setup\n    import viser\n'
            "ModuleNotFoundError: No module named 'viser'",
            "viser",
        ),
    ],
)
def test_a_log_s_prefixes_a_prompt_and_frames_are_no_words_of_the_error(logged, pasted, session):
    """A failure matched by every word of a pasted error is still matched with a log's time
    before each line, the prompt's line of the command above it, or the frames of another
    checkout's traceback: they say where and when it ran, which the stored output does not
    hold. Each of these was "Not seen before" (a new user's tries, session 33)."""
    found = queries.find_past_fix(logged, pasted)
    assert queries.seen_before(found)
    assert [(r["session_id"], r["matched"]) for r in found] == [(session, "all words")]


def test_the_words_a_failure_must_hold_leave_out_where_it_ran():
    pasted = (
        "2026-05-03 08:12:55 $ mix ecto.migrate\n[2026-05-03 08:12:56] ** (RuntimeError) boom\n"
        '  File "/home/me/a.py", line 3, in f\n    import viser\n'
        "    at run (/home/me/app/x.js:3:5)\nPS C:\\app> npm test\nKeyError: 'x'"
    )
    assert queries.required_words(pasted) == "(RuntimeError) boom KeyError: 'x'"
    # a paste that is nothing else keeps its words
    assert queries.required_words("$ mix ecto.migrate") == "mix ecto.migrate"


# -- the same error about another thing: a file, a module, a program ----------------------

TS_OVERLOAD = "vite.config.ts(16,3): error TS2769: No overload matches this call."
PATCH_FILE = "/Users/someone/projects/website/docs/README.md"
REGISTRY = (
    'Tool "replace" not found in registry. Tools must use the exact names that are registered.'
    ' Did you mean one of: "read_file", "glob", "web_fetch"?'
)


@pytest.fixture(scope="module")
def look_alikes(tmp_path_factory):
    """Failures a made-up error of another file, module or program looks like."""
    root = tmp_path_factory.mktemp("look_alikes")
    projects = root / "projects"
    (
        Session("tsc", APP, 0)
        .call("t1", "Bash", command="npx tsc --noEmit")
        .result("t1", f"Exit code 2\n{TS_OVERLOAD}", error=True)
        .call("t2", "Edit", file_path=f"{APP}/vite.config.ts", old_string="test:", new_string="")
        .result("t2", "The file has been updated.")
        .call("t3", "Bash", command="npx tsc --noEmit")
        .result("t3", "")
        .write(projects / "-home-u-app" / "tsc.jsonl")
    )
    (
        Session("pyd", LIB, 100)
        .call("p1", "Bash", command="python -c 'import server'")
        .result(
            "p1",
            'Exit code 1\nTraceback (most recent call last):\n  File "<string>", line 1, in'
            " <module>\nModuleNotFoundError: No module named 'pydantic_settings'",
            error=True,
        )
        .call("p2", "Bash", command="pip install pydantic-settings")
        .result("p2", "Successfully installed pydantic-settings-2.1.0")
        .write(projects / "-home-u-lib" / "pyd.jsonl")
    )
    (
        Session("gt", LIB, 200)
        .call("g1", "Bash", command="gt deacon logs")
        .result(
            "g1",
            'Exit code 1\nError: unknown command "logs" for "gt deacon"\n\n'
            "Run 'gt deacon --help' for available commands",
            error=True,
        )
        .call("g2", "Bash", command="gt deacon status")
        .result("g2", "Deacon: running")
        .write(projects / "-home-u-lib" / "gt.jsonl")
    )
    (
        Session("patch", LIB, 300)
        .call("a1", "Bash", command="apply_patch")
        .result(
            "a1",
            f"apply_patch verification failed: Failed to find expected lines in {PATCH_FILE}:\n"
            "## Install",
            error=True,
        )
        .call("a2", "Bash", command="rg -n 'gemini' src")
        .result("a2", "Exit code 1", error=True)
        .call("r1", "Bash", command="replace firebase.json")
        .result("r1", REGISTRY, error=True)
        .write(projects / "-home-u-lib" / "patch.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


def test_a_diagnostic_about_another_file_is_the_same_error_about_another_file(look_alikes):
    """tsc's `file(line,col): error TSnnnn` is one signature in any file (one TS2339 in ten
    files is one recurring error), but the fix of an error in vite.config.ts is no fix of
    one in src/app.ts: it is the same error about another file, not "the very same error"
    (a new user's made-up error had vite.config.ts's fix unmarked, session 34)."""
    pasted = "src/app.ts(3,5): error TS2769: No overload matches this call."
    found = queries.find_past_fix(look_alikes, pasted)
    assert [(r["session_id"], r["matched"], r["same_text"], r["other_file"]) for r in found] == [
        ("tsc", "signature", 0, 1)
    ]
    assert "same error, another file" in cards.format_hit(1, found[0], error=pasted)
    for same in (TS_OVERLOAD, "src/" + TS_OVERLOAD.replace("(16,3)", "(9,1)")):
        found = queries.find_past_fix(look_alikes, same)
        assert [(r["session_id"], r["same_text"], r["other_file"]) for r in found] == [
            ("tsc", 1, 0)
        ]
    # the message alone names no file: the same error signature, as before
    found = queries.find_past_fix(look_alikes, "error TS2769: No overload matches this call.")
    assert [(r["session_id"], r["other_file"]) for r in found] == [("tsc", 0)]


def test_a_codex_sandbox_denial_is_shown_as_the_output_it_holds():
    """Codex 0.118's denied command is stored as Rust's Debug text of the error, the output
    in it escaped twice: a card showed `...(os error 13)\\n\", truncated_after_lines: None
    }, aggregated_output: ...` (a new user's try, nu36). It shows what the command printed."""
    denied = (
        'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output:'
        ' ExecToolCallOutput { exit_code: 2, stdout: StreamOutput { text: \\"\\",'
        ' truncated_after_lines: None }, stderr: StreamOutput { text: \\"/u/bin/uv\\\\n'
        "error: Failed to initialize cache at `/u/.cache/uv`\\\\n  Caused by: failed to open"
        ' file `/u/.cache/uv/x`: Permission denied (os error 13)\\\\n\\",'
        " truncated_after_lines: None }, aggregated_output: StreamOutput { text:"
        ' \\"error: Failed to initialize cache at `/u/.cache/uv`\\\\n  Caused by: it said'
        ' \\\\\\"no\\\\\\"\\\\n\\", truncated_after_lines: None }, duration: 0ns,'
        ' timed_out: false }, network_policy_decision: None }))" }'
    )
    # (its key line with its cause: signatures._root_cause)
    assert queries.error_excerpt(denied, "") == (
        'error: Failed to initialize cache at `/u/.cache/uv` Caused by: it said "no"'
    )
    assert signatures.unwrap(denied) == (
        'error: Failed to initialize cache at `/u/.cache/uv`\n  Caused by: it said "no"'
    )
    # without both streams as they came: stderr, then stdout
    alone = re.sub(r", aggregated_output: StreamOutput \{.*?None \}", "", denied)
    assert signatures.unwrap(alone).startswith("/u/bin/uv\nerror: Failed to initialize")
    # any other text is as it is
    assert signatures.unwrap("exec_command failed: no such session") == (
        "exec_command failed: no such session"
    )


def test_a_linter_diagnostic_under_another_files_header_is_about_another_file(tmp_path):
    """ESLint's stylish format and Next.js's build put the file on the line above its
    diagnostics (`./app/[locale]/layout.tsx`, then `26:43  Error: Unexpected any. ...`):
    pasted under page.tsx, layout.tsx's error was "the same error", the hook's too, with
    layout.tsx's edit for fix (a new user's try, nu36)."""
    from jsonl import result, tool_use, write_jsonl

    lint = "26:43  Error: Unexpected any. Specify a different type.  @typescript-eslint/no-any"
    out = f"Exit code 1\n\nFailed to compile.\n\n./app/[locale]/layout.tsx\n{lint}\n"
    write_jsonl(
        tmp_path / "p" / "a" / "aaaa.jsonl",
        [
            tool_use(
                "a1", "aaaa", "t1", "Bash", {"command": "npm run build"}, "2026-01-01T10:00:00Z"
            ),
            result("a2", "aaaa", "t1", out, "2026-01-01T10:00:01Z", True),
            tool_use(
                "a3", "aaaa", "t2", "Bash", {"command": "npm run build"}, "2026-01-01T10:00:02Z"
            ),
            result("a4", "aaaa", "t2", "ok", "2026-01-01T10:00:03Z", False),
        ],
    )
    build_index(tmp_path / "index.db", tmp_path / "p")
    conn = queries.connect(tmp_path / "index.db")
    try:
        other = f"./app/[locale]/page.tsx\n{lint.replace('26:43', '12:9')}"
        found = queries.find_past_fix(conn, other)
        assert [(r["session_id"], r["same_text"], r["other_file"]) for r in found] == [
            ("aaaa", 0, 1)
        ]
        assert "same error, another file" in cards.format_hit(1, found[0], error=other)
        for same in (f"./app/[locale]/layout.tsx\n{lint}", lint):
            found = queries.find_past_fix(conn, same)
            assert [(r["session_id"], r["same_text"], r["other_file"]) for r in found] == [
                ("aaaa", 1, 0)
            ]
    finally:
        conn.close()


def test_another_module_holding_the_pasted_ones_words_is_no_match_by_every_word(look_alikes):
    """The full-text index splits `pydantic_settings` at `_`: `No module named 'pydantic'`
    held every word of it, and was shown as the error with its fix (a new user's try,
    session 34). It is another module: the same error about other names (nu43 finding 4)."""
    found = queries.find_past_fix(look_alikes, "ModuleNotFoundError: No module named 'pydantic'")
    assert not queries.seen_before(found)
    assert [(r["session_id"], r["matched"], r["other_names"]) for r in found] == [
        ("pyd", "signature", 1)
    ]
    for same in ("No module named 'pydantic_settings'", "ModuleNotFoundError pydantic settings"):
        found = queries.find_past_fix(look_alikes, same)
        assert [r["session_id"] for r in found if r["matched"] != "some words"] == ["pyd"]


def test_a_usage_error_of_another_program_is_another_error(look_alikes):
    """cobra's `unknown command "logs" for "docker compose"` is not gt's `for "gt deacon"`:
    its fix was `gt deacon status` (a new user's try, session 34)."""
    found = queries.find_past_fix(look_alikes, 'Error: unknown command "logs" for "docker compose"')
    assert not queries.seen_before(found)
    found = queries.find_past_fix(look_alikes, 'Error: unknown command "log" for "gt deacon"')
    assert [(r["session_id"], r["matched"]) for r in found] == [("gt", "signature")]


def test_a_signature_ending_in_a_colon_is_found_in_a_paste_without_it(look_alikes):
    """Codex's `Failed to find expected lines in x:` (the lines follow), pasted without its
    `:` and about another file, was "not seen before"; with it, the same error about
    another file (a new user's try, session 34)."""
    for end in ("", ":"):
        pasted = f"apply_patch verification failed: Failed to find expected lines in a.rs{end}"
        found = queries.find_past_fix(look_alikes, pasted)
        assert [(r["session_id"], r["other_file"]) for r in found] == [("patch", 1)], end


def test_a_list_of_another_length_is_the_same_error(look_alikes):
    """Gemini CLI's `Did you mean one of: ...?` lists as many tools as it has: one listed
    was "not seen before" (a new user's try, session 34)."""
    pasted = REGISTRY.replace("replace", "edit_file").split(" Did you")[0] + (
        ' Did you mean one of: "replace"?'
    )
    found = queries.find_past_fix(look_alikes, pasted)
    assert [(r["session_id"], r["matched"]) for r in found] == [("patch", "signature")]


def test_a_prompts_line_above_an_exit_status_names_no_error(look_alikes):
    """`$ rg "status" src` then `Exit code 1` says only how a command ended, as `Exit code 1`
    alone does: its warning was lost and every failure holding `Exit code 1` came (a new
    user's try, session 34)."""
    pasted = '$ rg "status" src/app/profiles/groups\nExit code 1'
    assert queries.says_little(pasted)
    assert queries.bare_status(pasted) == 1
    found = queries.find_past_fix(look_alikes, pasted)
    assert found[0]["tool_use_id"] == "a2"
    assert all(signatures.exit_status(r["error"]) == 1 for r in found)


@pytest.mark.parametrize(
    "command",
    [
        "lsof -i :3001",
        'rg "status" src/app/profiles/groups',
        'grep -rn "TypeError" src',  # (its words name an error: it is still the command)
        "diff expected.txt actual.txt",
        "NODE_ENV=test test -f dist/index.js",
        "Get-Process -Name node",
        "● Bash(lsof -i :3001)",  # Claude Code's terminal: the call's title over `⎿  Error:`
    ],
)
def test_a_command_pasted_above_its_exit_status_names_no_error(look_alikes, command):
    """`lsof -i :3001` then `Exit code 1`, without a prompt: the command was the key line,
    "not seen before" as `lsof -i :<n>`, where the exit status alone says that lsof, grep,
    diff or test found nothing (a new user's try, ans41 finding 1). Every agent stores the
    status first, so what stands above it is the command, never its output."""
    pasted = f"{command}\nExit code 1"
    assert signatures.key_line(pasted) == "Exit code 1"
    assert queries.says_little(pasted)
    assert queries.bare_status(pasted) == 1
    found = queries.find_past_fix(look_alikes, pasted)
    assert found[0]["tool_use_id"] == "a2"
    assert all(signatures.exit_status(r["error"]) == 1 for r in found)
    assert {r["matched"] for r in found} == {queries.EXIT_STATUS}


@pytest.mark.parametrize(
    "status",
    ["Process exited with code 1", "Exit code: 1", "Exit Code: 1", "<exited with exit code 1>"],
)
def test_a_command_pasted_above_any_agents_exit_status_names_no_error(look_alikes, status):
    """Codex's `Process exited with code 1` (and `Exit code: 1`), Gemini CLI's `Exit Code:
    1`, Copilot CLI's `<exited with exit code 1>`: each is the exit status Claude Code's
    `Exit code 1` is, and the command pasted above it was still the key line, `lsof -i
    :<n>` (signatures.echoed_lines read Claude Code's alone)."""
    pasted = f"lsof -i :3001\n{status}"
    assert signatures.ended_so(status) == "Exit code 1"
    assert signatures.key_line(pasted) == status
    assert signatures.echoed_command(pasted) == "lsof -i :3001"
    assert queries.says_little(pasted)
    assert queries.bare_status(pasted) == 1
    found = queries.find_past_fix(look_alikes, pasted)
    assert found[0]["tool_use_id"] == "a2"
    assert {r["matched"] for r in found} == {queries.EXIT_STATUS}
    # a line that says more than the status is none (Go's own `exit status 1` is output)
    for line in (f"{status} after 3s", "exit status 1", f"echo {status}"):
        assert signatures.ended_so(line) is None, line


@pytest.mark.parametrize(
    ("pasted", "key"),
    [
        # an error above the status names it, wherever it stands
        ("npm ERR! missing script: build\nExit code 1", "npm ERR! missing script: build"),
        ("grep: x.txt: No such file or directory\nExit code 2", None),
        # the output below the status is the output, the command above it no part of it
        ("npm run build\nExit code 127\nsh: 1: vite: not found", "sh: 1: vite: not found"),
        # a key pressed to stop it says it was stopped (test_a_key_pressed_...)
        ("^C\nExit code 130", "^C"),
        # no status: a line alone is what was pasted
        ("lsof -i :3001", "lsof -i :3001"),
    ],
)
def test_what_stands_above_an_exit_status_that_is_no_command(pasted, key):
    assert signatures.key_line(pasted) == (key or pasted.split("\n")[0])
    assert not queries.says_little(pasted)


ZOD = "Type error: Property 'errors' does not exist on type 'ZodError<{ code: string; }>'."
CHAIN = (
    "Type error: Type '{ active: boolean | undefined; }[]' is not assignable to type 'Row[]'.\n"
    "  Types of property 'active' are incompatible.\n"
    "    Type 'boolean | undefined' is not assignable to type 'boolean'."
)


IDENT = (
    "Author identity unknown\n\n*** Please tell me who you are.\n\nRun\n\n  git config --global"
    ' user.email "you@example.com"\n  git config --global user.name "Your Name"\n\nto set your'
    " account's default identity.\n\nfatal: unable to auto-detect email address (got '{got}')"
)


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    """Failures whose signatures say `<str>` for the names they quote, each fixed."""
    root = tmp_path_factory.mktemp("named")
    projects = root / "projects"
    (
        Session("zod", APP, 0)
        .call("z1", "Bash", command="npm run build")
        .result("z1", f"Exit code 1\nFailed to compile.\n./src/groups.ts:41:8\n{ZOD}", error=True)
        .call(
            "z2",
            "Edit",
            file_path="/home/u/app/src/groups.ts",
            old_string="error.errors",
            new_string="error.issues",
        )
        .result("z2", "The file /home/u/app/src/groups.ts has been updated.")
        .call("z3", "Bash", command="npm run build")
        .result("z3", "Compiled successfully")
        .write(projects / "-home-u-app" / "zod.jsonl")
    )
    (
        Session("chain", LIB, 100)
        .call("c1", "Bash", command="npm run build")
        .result("c1", f"Exit code 1\nFailed to compile.\n{CHAIN}", error=True)
        .call(
            "c2",
            "Edit",
            file_path="/home/u/lib/src/rows.ts",
            old_string="active: row.active",
            new_string="active: Boolean(row.active)",
        )
        .result("c2", "The file /home/u/lib/src/rows.ts has been updated.")
        .call("c3", "Bash", command="npm run build")
        .result("c3", "Compiled successfully")
        .write(projects / "-home-u-lib" / "chain.jsonl")
    )
    (
        Session("yarn", LIB, 200)
        .call("y1", "Bash", command="yarn lint")
        .result("y1", 'Exit code 1\nUsage Error: Couldn\'t find a script named "lint".', error=True)
        .call("y2", "Bash", command="yarn eslint .")
        .result("y2", "Done in 2.1s")
        .write(projects / "-home-u-lib" / "yarn.jsonl")
    )
    (
        Session("ident", APP, 300)
        .call("i1", "Bash", command='git commit -m "x"')
        .result("i1", f"Exit code 128\n{IDENT.format(got='ryoryo@super3.(none)')}", error=True)
        .call(
            "i2", "Bash", command='git config user.email "r@example.jp" && git config user.name r'
        )
        .result("i2", "")
        .call("i3", "Bash", command='git commit -m "x"')
        .result("i3", "[main 1a2b3c4] x")
        .write(projects / "-home-u-app" / "ident.jsonl")
    )
    name = IDENT.split("\n\nfatal:")[0].replace("Author", "Committer")
    (
        Session("ident-name", LIB, 400)
        .call("n1", "Bash", command="git cherry-pick 9cad3c94")
        .result(
            "n1",
            f"Exit code 128\n{name}\n\nfatal: empty ident name (for <t@t1v-n-8e.internal>) not"
            " allowed",
            error=True,
        )
        .call(
            "n2", "Bash", command='git config user.email "t@example.com" && git config user.name t'
        )
        .result("n2", "")
        .call("n3", "Bash", command="git cherry-pick --continue --no-edit")
        .result("n3", "[main 5d6e7f8] x")
        .write(projects / "-home-u-lib" / "ident-name.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    "pasted",
    [
        "Type error: Property 'email' does not exist on type 'User'.",
        "[2026-12-07 09:12:44] ERROR: Type error: Property 'status' does not exist on type 'Bar'.",
        "Type error: Type 'string' is not assignable to type 'number'.",
    ],
)
def test_an_error_signature_about_other_names_is_not_the_error_seen_before(named, pasted):
    """The names a signature says `<str>` for (a TypeScript property and type) all other
    than a past failure's: the same error signature, but its fix edited those names (Zod's
    `.errors`), which a new user was shown as "the same error" on every front end (session
    35). Matched as `same error, other names`, not seen before."""
    from pastfix import cards

    found = queries.find_past_fix(named, pasted)
    assert found and all(r["matched"] == "signature" and r["other_names"] for r in found)
    assert [cards.how_matched(r) for r in found] == ["same error, other names"] * len(found)
    assert not queries.seen_before(found)
    notice = queries.not_seen_notice(pasted, found)
    # the signature quoted as the signature, the paste as the paste (nu42 finding 8)
    shown = queries.one_line(found[0]["signature"], 80)
    assert notice.startswith(f"Not seen before: past failures have its error signature, '{shown}'")
    assert f"but none names what {queries._quoted(queries.one_line(pasted, 80))} names" in notice
    assert "not yours" in notice


def test_a_fix_that_names_none_of_the_other_names_carries_over(named):
    """`Couldn't find a script named "lint"`, fixed by running `yarn eslint .` instead: a
    fix that names no script, which carries over to a paste of another script's name. Its
    card was "same error, other names: its fix is not yours" (nu49 finding 4)."""
    found = queries.find_past_fix(named, 'Usage Error: Couldn\'t find a script named "lint:fix".')
    assert [(r["session_id"], r["matched"], r["other_names"]) for r in found] == [
        ("yarn", "signature", 0)
    ]
    assert queries.seen_before(found)


def test_a_fix_about_the_other_name_is_not_yours(tmp_path):
    """The same error's fix that names its own script (`"e2e"` added to package.json) is
    about that name: `same error, other names` still, for a paste of another script's. The
    one that ran another script instead carries over, and comes first."""
    missing = 'Exit code 1\nUsage Error: Couldn\'t find a script named "{}".'
    projects = tmp_path / "projects"
    (
        Session("added", APP, 0)
        .call("a1", "Bash", command="yarn e2e")
        .result("a1", missing.format("e2e"), error=True)
        .call(
            "a2",
            "Edit",
            file_path="/home/u/app/package.json",
            old_string='"scripts": {',
            new_string='"scripts": {\n    "e2e": "playwright test",',
        )
        .result("a2", "The file /home/u/app/package.json has been updated.")
        .call("a3", "Bash", command="yarn e2e")
        .result("a3", "Done in 2.1s")
        .write(projects / "-home-u-app" / "added.jsonl")
    )
    (
        Session("listed", LIB, 100)
        .call("l1", "Bash", command="yarn test:unit")
        .result("l1", missing.format("test:unit"), error=True)
        .call("l2", "Bash", command="yarn test")
        .result("l2", "Done in 3.0s")
        .write(projects / "-home-u-lib" / "listed.jsonl")
    )
    build_index(tmp_path / "index.db", projects)
    with queries.connect(tmp_path / "index.db") as conn:
        found = queries.find_past_fix(conn, missing.format("test:e2e"))
        assert {(r["session_id"], r["outcome"], r["other_names"]) for r in found} == {
            ("added", "fixed", 1),
            ("listed", "fixed", 0),
        }
        assert found[0]["session_id"] == "listed"
        assert queries.seen_before(found)
        assert [cards.how_matched(r) for r in found] == [
            "same error signature",
            "same error, other names",
        ]


@pytest.mark.parametrize("got", ["me@laptop.(none)", "me@laptop.example.org"])
def test_the_machine_s_address_a_git_error_quotes_is_no_other_name(named, got):
    """git's `unable to auto-detect email address (got 'me@laptop.(none)')` quotes the address
    it made of the user and the host: the machine's, which no fix names. The past session's
    `'ryoryo@super3.(none)'` was "same error, other names: its fix is not yours", and the hook
    stayed silent, when `git config user.email` is the fix (a new user's try, nu40 finding 3).
    The name's variant (`empty ident name`) is the same error."""
    from pastfix import cards

    found = queries.find_past_fix(named, IDENT.format(got=got))
    assert {(r["session_id"], r["other_names"]) for r in found} == {
        ("ident", 0),
        ("ident-name", 0),
    }
    assert "same error, other names" not in [cards.how_matched(r) for r in found]
    assert queries.seen_before(found)


def test_git_s_identity_errors_are_one_error():
    """Git could not make the committer's name (`empty ident name (for <...>) not allowed`)
    or email (`unable to auto-detect email address`): one error, fixed by `git config
    user.name` and `user.email`, under the same hint. The name's variant, labelled fixed so,
    was not found by a paste of the email's (a new user's try, nu40 finding 3)."""
    email = IDENT.format(got="me@laptop.(none)")
    name = email.split("\n\nfatal:")[0] + "\n\nfatal: empty ident name (for <me@x.org>) not allowed"
    disabled = "fatal: no email was given and auto-detection is disabled"
    assert (
        signatures.signature(email) == signatures.signature(name) == signatures.signature(disabled)
    )
    assert signatures.signature("fatal: unable to access 'x': The requested URL returned 403") != (
        signatures.signature(email)
    )


def test_an_error_about_its_own_names_ranks_before_one_about_other_names(named):
    """The error itself (its names, another line) is `same error`, seen before, and under
    another file's header the same error about another file (Next.js names the file above
    its `Type error:`); one that shares a name with a failure stays that error signature; a
    name quoted below the failure's key line (the last line of tsc's chain, pasted) is the
    failure's too."""
    from pastfix import cards

    itself = queries.find_past_fix(named, ZOD.replace("code", "joinCode"))
    assert itself[0]["session_id"] == "zod" and queries.seen_before(itself)
    same = queries.find_past_fix(named, f"./src/groups.ts:3:1\n{ZOD}")
    assert (same[0]["session_id"], cards.how_matched(same[0])) == ("zod", "same error")
    other = queries.find_past_fix(named, f"./src/other.ts:3:1\n{ZOD}")
    assert (other[0]["session_id"], cards.how_matched(other[0])) == (
        "zod",
        "same error, another file",
    )
    shares = "Type error: Property 'errors' does not exist on type 'Issue'."
    found = queries.find_past_fix(named, shares)
    assert [cards.how_matched(r) for r in found] == ["same error signature"]
    assert queries.seen_before(found)
    inner = queries.find_past_fix(named, "Type error: " + CHAIN.splitlines()[-1].strip())
    assert [(r["session_id"], r["matched"], r["other_names"]) for r in inner] == [
        ("chain", "signature", 0)
    ]
    assert queries.seen_before(inner)
    assert queries.find_class(found[0]) < queries.find_class(
        queries.find_past_fix(named, "Type error: Property 'x' does not exist on type 'Y'.")[0]
    )


def test_a_quoted_path_of_another_file_or_no_file_is_not_the_same_error(tmp_path):
    """A quoted path the signature says `<str>` for is neither a name nor a file the
    signature keeps: `fatal: Invalid path '/tmp/foo'`, pasted, was "the same error
    signature" of a failure about `'/!'`, and the hook gave its fix (nu38 finding 2). Another
    path that names a file is the same error about another file; one that names none (`/!`)
    is the same error about other names; the same file is that error, and the same name in
    another folder another file (queries.another_path)."""
    from pastfix import cards, hook

    git = "fatal: Invalid path '{}': No such file or directory"
    projects = tmp_path / "projects"
    for sid, minutes, path, fix in (
        ("bang", 0, "/!", "git add './!/agent.sh'"),
        ("file", 100, "src/app.c", "git add ./src/app.c"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=f"git add '{path}'")
            .result(f"{sid}1", "Exit code 128\n" + git.format(path), error=True)
            .call(f"{sid}2", "Bash", command=fix)
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    # with only the failure about '/!': other names, not seen, and the hook says nothing
    (projects / "-home-u-app" / "file.jsonl").rename(tmp_path / "file.jsonl")
    build_index(tmp_path / "bang.db", projects)
    conn = queries.connect(tmp_path / "bang.db")
    try:
        found = queries.find_past_fix(conn, git.format("/tmp/foo"))
        assert [(r["session_id"], r["other_names"]) for r in found] == [("bang", 1)]
        assert not queries.seen_before(found)
        event = {"session_id": "new", "error": "Exit code 128\n" + git.format("/tmp/foo")}
        assert hook.matches(conn, event) == []
    finally:
        conn.close()
    (tmp_path / "file.jsonl").rename(projects / "-home-u-app" / "file.jsonl")
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:

        def how(path):
            found = queries.find_past_fix(conn, git.format(path))
            return {(r["session_id"], cards.how_matched(r)) for r in found}

        assert how("/!") == {("bang", "same error"), ("file", "same error, other names")}
        assert how("src/app.c") == {("file", "same error"), ("bang", "same error, other names")}
        # another file, or a temporary file (some file); the same name in another folder is
        # another file, as the hook says (queries.another_path)
        for path in ("lib/util.c", "/tmp/foo", "lib/app.c"):
            assert how(path) == {
                ("file", "same error, another file"),
                ("bang", "same error, other names"),
            }
        # (of a file that was not there: not seen about it either, its_file_is_the_error)
        found = queries.find_past_fix(conn, git.format("/tmp/foo"))
        assert [(r["session_id"], r["other_file"], r["other_names"]) for r in found] == [
            ("bang", 0, 1),
            ("file", 1, 1),
        ]
        assert not queries.seen_before(found)
    finally:
        conn.close()


def test_another_file_run_that_was_not_there_is_not_the_error_seen_before(tmp_path):
    """bash's `./run.sh: No such file or directory`, a script's, and dash's `./gradlew: not
    found` are zsh's `no such file or directory: <path>/X`: pasted, each was "the same error
    about another file" of a zsh failure on `./node_modules/.bin/prisma` fixed by a `cd
    backend`, and the hook gave that fix for `./gradlew` (nu41 finding 1). A file run that
    was not there is the error's subject: another one's row is other names, not seen before,
    and the hook says nothing; the same file, in any folder and shell's words, is the error.
    A file a program read (`cat: x: No such file`) stays the same error about another file."""
    from pastfix import cards, hook

    projects = tmp_path / "projects"
    for sid, minutes, call, error, fix in (
        (
            "prisma",
            0,
            "./node_modules/.bin/prisma migrate dev",
            "(eval):1: no such file or directory: ./node_modules/.bin/prisma",
            "cd backend && ./node_modules/.bin/prisma migrate dev",
        ),
        (
            "script",
            100,
            "python3 tools/gen.py",
            "python3: can't open file '/x/app/tools/gen.py': [Errno 2] No such file or directory",
            "python3 scripts/gen.py",
        ),
        ("cat", 200, "cat notes.txt", "cat: notes.txt: No such file or directory", "cat a.txt"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=call)
            .result(f"{sid}1", "Exit code 127\n" + error, error=True)
            .call(f"{sid}2", "Bash", command=fix)
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        for pasted, sid in (
            ("bash: ./run.sh: No such file or directory", "prisma"),
            ("./deploy.sh: line 3: ./config/env.sh: No such file or directory", "prisma"),
            ("/bin/sh: 1: ./gradlew: not found", "prisma"),
            ("zsh: no such file or directory: ./bin/dev", "prisma"),
            ("python: can't open file '/home/me/app/main.py': [Errno 2] No such file", "script"),
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["other_file"], r["other_names"]) for r in found] == [
                (sid, 1, 1)
            ], pasted
            assert cards.how_matched(found[0]) == "same error, another file"
            assert not queries.seen_before(found)
            assert queries.not_seen_notice(pasted, found).startswith(
                "Not seen about this file: 1 past failure had the same error about another file"
            )
            event = {"session_id": "new", "error": f"Exit code 127\n{pasted}"}
            assert hook.matches(conn, event) == [], pasted
        # the same file in another shell's words: the error seen before; at the same path
        # only, as the hook says (queries.another_path): in another project, its path is
        # another file (nu44 finding 1), and `pastfix find` said "seen before" of it
        for pasted, seen in (
            (f"/bin/sh: 1: {APP}/node_modules/.bin/prisma: not found", True),
            ("/bin/sh: 1: /srv/web/node_modules/.bin/prisma: not found", False),
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["other_names"]) for r in found] == [("prisma", not seen)]
            assert queries.seen_before(found) is seen
            event = {"session_id": "new", "error": f"Exit code 127\n{pasted}"}
            assert bool(hook.matches(conn, {**event, "cwd": APP})) is seen
        pasted = "/bin/sh: 1: ./node_modules/.bin/prisma: not found"
        event = {"session_id": "new", "cwd": APP, "error": f"Exit code 127\n{pasted}"}
        assert [r["session_id"] for r in hook.matches(conn, event)] == ["prisma"]
        event = {**event, "cwd": "/srv/web"}
        assert hook.matches(conn, event) == []
        # a file a program read: the same error about another file, not there either: not
        # seen about this file (nu42 finding 9)
        found = queries.find_past_fix(conn, "cat: todo.txt: No such file or directory")
        assert [(r["session_id"], r["other_file"], r["other_names"]) for r in found] == [
            ("cat", 1, 1)
        ]
        assert not queries.seen_before(found)
    finally:
        conn.close()


def test_a_missing_file_is_the_same_file_only_at_the_same_path(tmp_path):
    """`pastfix find`, MCP and the find page say "seen before" of a missing file as the hook
    does (queries.another_path, nu44 finding 1): a Read of another project's `package.json`,
    not there, is another file, and `cat: /home/me/proj/package.json: No such file ...`,
    pasted, was told seen before with its fix. A paste carries no project: its absolute path
    is compared, a relative one is relative to nothing (any path that ends with it, its `..`
    any folder), a bare name is the same file as before, and Claude Code's note says where
    its `File does not exist.` ran. A session's failure at the pasted path stands for its
    group, not one at another path that was fixed."""
    from pastfix import hook

    projects = tmp_path / "projects"
    read = "<tool_use_error>File does not exist.</tool_use_error>"
    cat = "cat: {}: No such file or directory"
    (
        Session("read", LIB, 0)
        .call("r1", "Read", file_path=f"{LIB}/package.json")
        .result("r1", read, error=True)
        .call("r2", "Bash", command="ls packages")
        .result("r2", "desktop")
        .call("r3", "Read", file_path=f"{LIB}/packages/desktop/package.json")
        .result("r3", "{}")
        .write(projects / "-home-u-lib" / "read.jsonl")
    )
    (
        Session("cat", APP, 100)
        .call("c1", "Bash", command="cat docs/a.md")
        .result("c1", "Exit code 1\n" + cat.format("docs/a.md"), error=True)
        .call("c2", "Bash", command="cat doc/a.md")
        .result("c2", "ok")
        .call("c3", "Bash", command="cat lib/a.md")
        .result("c3", "Exit code 1\n" + cat.format("lib/a.md"), error=True)
        .write(projects / "-home-u-app" / "cat.jsonl")
    )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        note = "File does not exist. Note: your current working directory is {}."
        for pasted, seen in (
            (f"Read {LIB}/package.json: File does not exist.", True),
            ("Read /home/me/proj/package.json: File does not exist.", False),
            (note.format(LIB), True),
            (note.format("/home/me/proj"), False),
            # no place: as before
            ("File does not exist.", True),
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [r["session_id"] for r in found] == ["read"], pasted
            assert queries.seen_before(found) is seen, pasted
            assert found[0]["other_file"] == (not seen)
            said = queries.not_seen_notice(pasted, found)
            assert said.startswith("Not seen about this file: 1 past failure had") is not seen
        for pasted, seen in (
            (cat.format("docs/a.md"), True),
            (cat.format(f"{APP}/docs/a.md"), True),
            (cat.format("../app/docs/a.md"), True),
            (cat.format("src/a.md"), False),
            (cat.format("/srv/web/docs/a.md"), False),
        ):
            found = queries.find_past_fix(conn, pasted)
            assert queries.seen_before(found) is seen, pasted
            event = {"session_id": "new", "cwd": APP, "error": f"Exit code 1\n{pasted}"}
            assert bool(hook.matches(conn, event)) is seen, pasted
        # the failure of lib/a.md, not docs/a.md's, fixed by a `cat doc/a.md`
        for pasted in (cat.format("lib/a.md"), cat.format(f"{APP}/lib/a.md")):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["target"], r["fixed_at"], r["other_file"]) for r in found] == [
                ("cat lib/a.md", None, 0)
            ]
    finally:
        conn.close()


def test_the_token_a_parser_stopped_at_is_no_name(tmp_path):
    """PowerShell's `Unexpected token 'config' in expression or statement.`: a script's `"✓
    config found"` read in the console's code page. The past session broke at `'repo'` and
    was fixed by `✓` to `[OK]`, yours at `'config'`: "same error, other names", not seen
    before, and the hook said nothing (nu41 finding 4). The token is where parsing broke,
    no name the error is about; a JSON parser's is what the text held, and stays one."""
    from pastfix import cards, hook

    ps = "At C:\\x\\check.ps1:9 char:20\nUnexpected token '{}' in expression or statement."
    json_error = "SyntaxError: Unexpected token '{}', \"{}\" is not valid JSON"
    projects = tmp_path / "projects"
    for sid, minutes, error, fix in (
        ("ps", 0, ps.format("repo"), "Edit check.ps1"),
        ("json", 100, json_error.format("<", "<!DOCTYPE "), "curl -H 'Accept: json' x"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command="run")
            .result(f"{sid}1", "Exit code 1\n" + error, error=True)
            .call(f"{sid}2", "Bash", command=fix)
            .result(f"{sid}2", "ok")
            .call(f"{sid}3", "Bash", command="run")
            .result(f"{sid}3", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        for pasted in (ps.format("config"), "Unexpected token '}' in expression or statement."):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["other_names"]) for r in found] == [("ps", 0)]
            assert cards.how_matched(found[0]) == "same error signature"
            assert queries.seen_before(found)
            event = {"session_id": "new", "error": f"Exit code 1\n{pasted}"}
            assert [r["session_id"] for r in hook.matches(conn, event)] == ["ps"]
        found = queries.find_past_fix(conn, json_error.format("u", "undefined"))
        assert [(r["session_id"], r["other_names"]) for r in found] == [("json", 1)]
    finally:
        conn.close()
    for line, names in (
        ("SyntaxError: Unexpected token '}'", ()),
        ("SyntaxError: '(' was never closed", ()),
        ("SyntaxError: unmatched ')'", ()),
        ("Property 'email' does not exist on type 'User'.", ("email", "User")),
    ):
        assert signatures.quoted_names(line) == names


def test_a_name_said_bare_at_the_end_is_a_name(tmp_path):
    """docker's `No such container: X` names the container bare: another container was "not
    seen before" with no row, while a quoted name of another thing found its error as
    "same error, other names" (nu40 finding 7). The same container is the error seen before;
    another is the same error about other names, whose fix the hook does not give."""
    from pastfix import cards, hook

    docker = "Error response from daemon: No such container: {}"
    projects = tmp_path / "projects"
    (
        Session("geox", APP, 0)
        .call("g1", "Bash", command="docker logs geox_server")
        .result("g1", "Exit code 1\n" + docker.format("geox_server"), error=True)
        .call("g2", "Bash", command="docker compose up -d --build")
        .result("g2", "Container geox_server Started")
        .write(projects / "-home-u-app" / "geox.jsonl")
    )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, docker.format("webapp"))
        assert [(r["session_id"], cards.how_matched(r)) for r in found] == [
            ("geox", "same error, other names")
        ]
        assert not queries.seen_before(found)
        assert hook.matches(conn, {"session_id": "new", "error": docker.format("webapp")}) == []
        itself = queries.find_past_fix(conn, docker.format("geox_server"))
        assert [(r["session_id"], cards.how_matched(r)) for r in itself] == [("geox", "same error")]
        assert queries.seen_before(itself)
    finally:
        conn.close()


def test_a_path_with_a_space_finds_the_same_error(tmp_path):
    """A folder with a space in its name (`my project`, Windows's `My Project (copy)`) made
    sed's missing file "not seen before", with partial matches sharing only `app.js`, where
    the same paste without the space found the error about another file (nu40 finding 5).
    (In its own project: in another, the same name is another file, queries.another_path.)"""
    from pastfix import cards

    sed = "sed: can't read {}: No such file or directory"
    for n, project in enumerate(("/home/me/my project", "C:\\Users\\me\\My Project (copy)")):
        projects = tmp_path / f"projects{n}"
        (
            Session("sed", project, 0)
            .call("s1", "Bash", command="sed -n 1,20p src/AppShell.jsx")
            .result("s1", "Exit code 2\n" + sed.format("src/AppShell.jsx"), error=True)
            .call("s2", "Bash", command="sed -n 1,20p src/app-shell.jsx")
            .result("s2", "import React from 'react'")
            .write(projects / "project" / "sed.jsonl")
        )
        build_index(tmp_path / f"index{n}.db", projects)
        conn = queries.connect(tmp_path / f"index{n}.db")
        try:
            for folder, name, said in (
                (f"{project}/src", "AppShell.jsx", "same error"),
                (f"{project}/src", "app.js", "same error, another file"),
                ("/home/u/app/src", "AppShell.jsx", "same error, another file"),
            ):
                found = queries.find_past_fix(conn, sed.format(f"{folder}/{name}"))
                assert [(r["session_id"], cards.how_matched(r)) for r in found] == [("sed", said)]
        finally:
            conn.close()


def test_another_wording_or_path_of_an_error_finds_it(tmp_path):
    """PyTorch's device mismatch in its older wording was "a different error" of the fix for
    the newer one (nu39 finding 4), and a Windows path whose folder's name held `(2001776)`
    was found only by a byte-exact paste (nu40 finding 5): each is the same error."""
    torch = (
        'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
        "    loss = model(x)\nRuntimeError: Expected all tensors to be on the same device, but"
        " got mat1 is on cuda:0, different from other tensors on cpu (when checking argument in"
        " method wrapper_CUDA_addmm)"
    )
    patch = (
        "apply_patch verification failed: Failed to find expected lines in C:\\WeGameApps\\"
        "OasisEraEditor(2001776)\\ShadowTrackerExtra\\Script\\TaskMgr.lua:\n    local x = 1"
    )
    projects = tmp_path / "projects"
    for sid, minutes, failed, command, edited in (
        ("torch", 0, "Exit code 1\n" + torch, "python train.py", "train.py"),
        ("patch", 100, patch, "lua check TaskMgr.lua", "TaskMgr.lua"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", failed, error=True)
            .call(f"{sid}2", "Edit", file_path=f"{APP}/{edited}", old_string="a", new_string="b")
            .result(f"{sid}2", "ok")
            .call(f"{sid}3", "Bash", command=command)
            .result(f"{sid}3", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        for pasted, sid in (
            (
                "RuntimeError: Expected all tensors to be on the same device, but found at least"
                " two devices, cuda:0 and cpu!",
                "torch",
            ),
            (
                "apply_patch verification failed: Failed to find expected lines in C:\\Games\\"
                "Editor\\Script\\Lin\\TaskMgr.lua:",
                "patch",
            ),
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["matched"]) for r in found][:1] == [(sid, "signature")]
    finally:
        conn.close()


def test_a_quoted_ref_or_date_is_a_name(tmp_path):
    """git's `ambiguous argument 'X'` quotes a ref, a range or a date: each is a name, a date
    by its kind. A new user's `'origin/develop'` had a fix for `'2026-01-25'` first as the
    same error signature (a date was no name), while `'HEAD'` was other names (nu36)."""
    from pastfix import cards

    git = "fatal: ambiguous argument '{}': unknown revision or path not in the working tree."
    projects = tmp_path / "projects"
    for sid, minutes, ref, fix in (
        ("date", 0, "2026-01-25", "git log branch-2026-01-25"),
        ("head", 100, "HEAD", "git commit --allow-empty -m init"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=f"git log {ref}")
            .result(f"{sid}1", "Exit code 128\n" + git.format(ref), error=True)
            .call(f"{sid}2", "Bash", command=fix)
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, git.format("origin/develop"))
        assert {(r["session_id"], cards.how_matched(r)) for r in found} == {
            ("date", "same error, other names"),
            ("head", "same error, other names"),
        }
        assert not queries.seen_before(found)
        # another date is the same error (its numbers aside), as the same ref is, before
        # the other names
        for ref, first in (("2026-02-01", "date"), ("HEAD", "head")):
            found = queries.find_past_fix(conn, git.format(ref))
            assert [(r["session_id"], cards.how_matched(r)) for r in found][0] == (
                first,
                "same error",
            )
            assert [cards.how_matched(r) for r in found][1:] == ["same error, other names"]
            assert queries.seen_before(found)
    finally:
        conn.close()


YNAB = (
    "global failure: YNABServerError (unknown_error): GET /api/v2/user got HTTP 0:"
    " Client network error"
)


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory):
    """Failures whose key lines a script's words go on after, or come before."""
    root = tmp_path_factory.mktemp("wrapped")
    projects = root / "projects"
    (
        Session("sync", APP, 0)
        .call("s1", "Bash", command="yarn test")
        .result("s1", f"Exit code 1\n{YNAB} (error)", error=True)
        .call("s2", "Bash", command="yarn test --offline")
        .result("s2", "1 passed")
        .write(projects / "-home-u-app" / "sync.jsonl")
    )
    (
        Session("ember", LIB, 100)
        .call("e1", "Bash", command="yarn test")
        .result(
            "e1",
            'Exit code 1\nPromise rejected during "shows the month": Assertion Failed: Cannot'
            " override the computed property `firstMonth` on [object Object].",
            error=True,
        )
        .call("e2", "Bash", command="yarn test --filter month")
        .result("e2", "1 passed")
        .write(projects / "-home-u-lib" / "ember.jsonl")
    )
    (
        Session("cat", LIB, 200)
        .call("c1", "Bash", command="cat a.json")
        .result(
            "c1", "Exit code 1\ncat: a.json: No such file or directory (os error 2)", error=True
        )
        .call("c2", "Bash", command="cat b.json")
        .result("c2", "Exit code 1\ncat: b.json: No such file or directory", error=True)
        .write(projects / "-home-u-lib" / "cat.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


def test_the_same_error_about_another_file_is_found_cut_short_or_after_a_prefix(wrapped):
    """A YNAB sync's `GET /api/v2/user ... Client network error (error)`: pasted about
    another endpoint without the `(error)` after it, it was not seen before (a new user's
    try, session 35). The signature that goes on, or comes after a script's words, once
    the files both name are set aside, is the same error about another file; only when no
    signature stands in the paste (`cat: c.json: No such file or directory` is the `cat`
    failure of no `(os error 2)`)."""
    from pastfix import cards

    pasted = YNAB.replace("/user", "/budgets")
    found = queries.find_past_fix(wrapped, pasted)
    assert [(r["session_id"], cards.how_matched(r)) for r in found] == [
        ("sync", "same error, another file")
    ]
    assert queries.seen_before(found)
    assert queries.signature_loosely_after(
        signatures.signature(YNAB + " (error)"), signatures.signature(pasted)
    )
    cat = queries.find_past_fix(wrapped, "cat: c.json: No such file or directory")
    assert [r["error_snippet"] for r in cat] == ["cat: b.json: No such file or directory"]


def test_a_javascript_errors_message_after_a_scripts_words_is_that_error(wrapped):
    """Node prints `Error: ` before an Error's message, a script's wrapper its own words
    (`Promise rejected during "x": Assertion Failed: ...`): pasted as Node printed it,
    with its own names, it is that error; with others, that error about other names (a new
    user's `lastMonth` found nothing, `firstMonth` its session; session 35)."""
    from pastfix import cards

    message = "Assertion Failed: Cannot override the computed property `{}` on [object Object]."
    own = queries.find_past_fix(wrapped, "Error: " + message.format("firstMonth"))
    assert [r["session_id"] for r in own] == ["ember"] and queries.seen_before(own)
    other = queries.find_past_fix(wrapped, "Error: " + message.format("lastMonth"))
    assert [(r["session_id"], cards.how_matched(r)) for r in other] == [
        ("ember", "same error, other names")
    ]


def test_a_patch_made_again_at_another_path_shows_the_path_change():
    """A Codex patch whose file it could not read, then the same patch at the right path
    (`vesselos-dev-research/` put in front): the path made the difference, not the patch's
    lines, which the failed one had too (its card showed eleven lines of imports: a new
    user's try, nu39). An edit at its own path, or another tool's, shows its lines."""
    patch = "*** Begin Patch\n*** Update File: x\n@@\n-import json\n+import re\n*** End Patch"
    moved = "vesselos/agents/kira.py"
    step = {"tool_use_id": "t9", "tool": "apply_patch", "target": moved}
    edit = {"tool": "apply_patch", "file_path": moved, "tool_use_id": "t9", "old": "", "new": patch}
    row = fixed_row(
        tool="apply_patch",
        target="agents/kira.py",
        fix_target=moved,
        outcome="worked around",
        remedy=[{**step, "change": "agents/kira.py → vesselos/agents/kira.py"}],
        fix_edits=[edit],
    )
    assert [s["edits"] for s in cards.remedy_steps(row)] == [[]]
    card = cards.format_hit(1, row).splitlines()
    assert "   fix:    apply_patch vesselos/agents/kira.py  (changed: agents/kira.py →" in (
        "\n".join(card)
    )
    assert not any("import" in line for line in card)
    for change in (None, "with the text the file has"):
        row["remedy"] = [{**step, "change": change}]
        assert [len(s["edits"]) for s in cards.remedy_steps(row)] == [1]


def test_a_look_that_was_its_answer_is_headed_nothing_to_fix():
    """A search that found nothing, a program or a path not there (fixes.ANSWERED): `fixed:
    nothing to fix`, and why, on the terminal's card and the find page's heading; "fixed: no,
    nothing ... got past it" read as a dead end (nu40 finding 6)."""
    said = cards.not_fixed_words({"outcome": "answered"})
    assert said["fixed"] == "nothing to fix"
    assert said["heading"] == "Nothing to fix: it only looked"
    assert "was its answer" in said["why"]
    assert cards.not_fixed_words({"outcome": "not fixed"})["fixed"] == "no"
    assert cards.not_fixed_words({"outcome": None})["heading"] == "Not fixed in this session"
    # what it was to bring about already held (fixes.ALREADY_SO: an rm of a file gone)
    said = cards.not_fixed_words({"outcome": "already so"})
    assert said["heading"] == "Nothing to fix: it was already so"
    assert said["fixed"] == "nothing to fix" and "already held" in said["why"]
    # a call the user rejected that nothing made again (fixes.DECLINED): their "no"
    said = cards.not_fixed_words({"outcome": "declined"})
    assert said["heading"] == "Nothing to fix: the user said no"
    assert said["fixed"] == "nothing to fix" and "never ran" in said["why"]
    # a look cancelled as a call sent beside it failed, not run again (fixes.CANCELLED)
    said = cards.not_fixed_words({"outcome": "cancelled"})
    assert said["heading"] == "Nothing to fix: it was cancelled as a call beside it failed"
    assert said["fixed"] == "nothing to fix" and "before it ran" in said["why"]
    assert cards.outcomes_line([{"outcome": "cancelled"}] * 2).count("cancelled (a call") == 1


@pytest.fixture(scope="module")
def lints(tmp_path_factory):
    """Diagnostics of a name the code declares, each fixed by dropping it: tsc's TS6133,
    ESLint's no-unused-vars, Ruff's F401, rustc's unused variable; and TS2339 of a property."""
    root = tmp_path_factory.mktemp("lints")
    projects = root / "projects"
    for sid, minutes, command, error, old, new in (
        (
            "tsc",
            0,
            "npx tsc --noEmit",
            "src/App.tsx(1,8): error TS6133: 'React' is declared but its value is never read.",
            "import React, { useState } from 'react';",
            "import { useState } from 'react';",
        ),
        (
            "eslint",
            100,
            "npx eslint src",
            "/home/u/app/src/a.js\n  3:7  error  'unused' is assigned a value but never used"
            "  no-unused-vars",
            "const unused = 1;\n",
            "",
        ),
        (
            "ruff",
            200,
            "ruff check .",
            "app/main.py:1:8: F401 [*] `os` imported but unused",
            "import os\n",
            "",
        ),
        (
            "rustc",
            300,
            "cargo build",
            "warning: unused variable: `count`\n --> src/main.rs:4:9",
            "let count = 0;",
            "let _count = 0;",
        ),
        (
            "zod",
            400,
            "npx tsc --noEmit",
            "src/groups.ts(41,8): error TS2339: Property 'errors' does not exist on type"
            " 'ZodError<any>'.",
            "error.errors",
            "error.issues",
        ),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .call(f"{sid}2", "Edit", file_path=f"{APP}/src/x", old_string=old, new_string=new)
            .result(f"{sid}2", f"The file {APP}/src/x has been updated.")
            .call(f"{sid}3", "Bash", command=command)
            .result(f"{sid}3", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    ("pasted", "session"),
    [
        (
            "src/hooks/useFoo.ts(4,10): error TS6133: 'useState' is declared but its value is"
            " never read.",
            "tsc",
        ),
        (
            "/home/u/web/src/b.js\n  9:7  error  'total' is assigned a value but never used"
            "  no-unused-vars",
            "eslint",
        ),
        ("app/cli.py:2:8: F401 [*] `sys` imported but unused", "ruff"),
        ("warning: unused variable: `items`\n --> src/lib.rs:9:9", "rustc"),
    ],
)
def test_a_diagnostic_of_a_declared_name_is_the_error_seen_before_for_any_name(
    lints, pasted, session
):
    """A compiler's or linter's diagnostic of a name the user's code declares (unused, never
    read) is fixed the same way whatever the name: a new user's TS6133 of `'useState'` was
    "Not seen before: ... its fix is not yours" beside the fix of `'React'`, the same import
    dropped (nu42 finding 8). Seen before, not other names (signatures.lints_a_name)."""
    found = queries.find_past_fix(lints, pasted)
    assert [(r["session_id"], r["matched"], r["other_names"]) for r in found] == [
        (session, "signature", 0)
    ]
    assert queries.seen_before(found)


def test_a_property_the_code_lacks_stays_other_names(lints):
    """TS2339's property is what the code uses, not declares: another one's fix is that
    name's (Zod's `.errors` to `.issues`), not seen before, and the hook says nothing; of
    TS6133's the hook gives the fix."""
    pasted = "src/user.ts(3,9): error TS2339: Property 'email' does not exist on type 'User'."
    found = queries.find_past_fix(lints, pasted)
    assert [(r["session_id"], r["other_names"]) for r in found] == [("zod", 1)]
    assert not queries.seen_before(found)
    assert hook.matches(lints, {"session_id": "new", "error": f"Exit code 2\n{pasted}"}) == []
    unused = "src/a.ts(4,10): error TS6133: 'useState' is declared but its value is never read."
    event = {"session_id": "new", "error": f"Exit code 2\n{unused}"}
    assert [r["session_id"] for r in hook.matches(lints, event)] == ["tsc"]


@pytest.mark.parametrize(
    "pasted",
    [
        "   Compiling foo v0.1.0 (/home/dana/foo)\n    Finished `dev` profile [unoptimized +"
        " debuginfo] target(s) in 2.31s\n     Running `target/debug/foo`",
        "collected 42 items\n\ntests/test_api.py ..........      [100%]\n\n===== 42 passed in"
        " 3.21s =====",
        "added 214 packages, and audited 215 packages in 6s\n\nfound 0 vulnerabilities",
        "The deploy went fine today, all services are green and the migration ran without issues.",
        # a commit as git log prints it, its message a person's words (nu43 finding 7)
        "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a\nAuthor: Me <me@example.com>\nDate:  "
        " Mon Dec 7 10:00:00 2026 +0000\n\n    fix typo in README\n\n    Closes: #12",
        "commit 3f2a1b9 (HEAD -> main)\nMerge: 1a2b3c4 5d6e7f8\nAuthor: Me <me@example.com>\n\n"
        "    Fix the crash on EISDIR\n\ncommit 1a2b3c4\nAuthor: You <you@example.com>\n\n    init",
        # a success log names what it built, in capitals and units; git status's clean tree
        # is a state (nu48 finding 6)
        "Compiled successfully in 4.2s\n  ✓ Linting and checking validity of types\n  ✓"
        " Generating static pages (12/12)\nRoute (app)      Size     First Load JS\n┌ ○ /    "
        "  5.2 kB         92.1 kB",
        "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit,"
        " working tree clean",
        # an exit status of 0 above it: the command succeeded (`Exit code 1` above it does not)
        "Exit code 0\nAll tests passed in 3.2s",
    ],
)
def test_a_success_log_or_a_statement_names_no_error(pasted):
    """A paste with no word of anything gone wrong was "Not seen before: ... the pasted error"
    (nu42 finding 10): it names no error, as a question does, worded for a program's output."""
    notice = queries.not_seen_notice(pasted, [])
    assert " names no error: it reads as a program's output (or a statement) that reports" in (
        notice
    )
    assert "pasted error" not in notice


def test_the_near_matches_of_a_paste_that_names_no_error_are_said_to_be_no_error_of_it():
    """Its notice said "names no error", then "3 partial matches ...: a different error, maybe
    related", of cards shown as near an error it did not name (nu47 finding 3)."""
    pasted = "added 214 packages, and audited 215 packages in 6s\n\nfound 0 vulnerabilities"
    rows = [{"matched": "some words", "shared_words": ["audited"]}]
    notice = queries.not_seen_notice(pasted, rows)
    assert " names no error: " in notice
    assert "different error" not in notice
    assert notice.endswith(
        " 1 partial match below, sharing only audited: a failure of its own, not of an error"
        " it names."
    )


@pytest.mark.parametrize(
    "pasted",
    [
        "File does not exist.",
        "Killed",
        "EISDIR",
        'ImagePullBackOff: Back-off pulling image "ghcr.io/acme/worker:v2.3.0"',
        "Segmentation fault (core dumped) in libgtk-3.so.0",
        "Build finished with 2 errors",
        "zqxwv-frobnicator exploded: flux capacitor unaligned",
        "zzz\nyyy",
        # a commit's record holds no error, what follows it may
        "commit 3f2a1b9\nAuthor: Me <me@example.com>\n\n    bump\nerror: cannot lock ref",
        # a failing exit status: the command failed, whatever else it printed (nu48 F6)
        "Exit code 1\nAll tests passed",
        "Exit code 1\nOn branch main\nnothing to commit, working tree clean",
        # a success word does not hide an error's name
        "Compiled successfully\nEISDIR",
    ],
)
def test_an_error_without_an_error_line_is_still_not_seen_before(pasted):
    """A word that denies, of trouble, or an error's name in capitals or camel case is an
    error's, though no line scores as one (signatures.reports_no_error)."""
    assert queries.not_seen_notice(pasted, []).startswith("Not seen before: ")


def test_a_paste_cut_short_finds_the_error_a_script_named_first(tmp_path):
    """A monorepo's `@astrolab/web:typecheck: src/App.tsx(1,48): error TS6059: ... 'rootDir'
    is expected to contain all source files.`, pasted without the script's prefix and its
    last sentence, was "a different error" and the MCP tool's `seen_before: false` (nu43
    finding 1): a prefix and a cut are each matched, and both at once too. Not a cut inside
    a word, nor a paste that says too little alone."""
    projects = tmp_path / "projects"
    said = (
        "@astrolab/web:typecheck: src/App.tsx(1,48): error TS6059: File"
        " '/w/astrolab/packages/shared/src/index.ts' is not under 'rootDir'"
        " '/w/astrolab/apps/web/src'. 'rootDir' is expected to contain all source files."
    )
    (
        Session("ts", APP, 0)
        .call("ts1", "Bash", command="pnpm typecheck")
        .result("ts1", f"Exit code 2\n{said}", error=True)
        .write(projects / "-home-u-app" / "ts.jsonl")
    )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = (
            "error TS6059: File '/x/packages/shared/src/index.ts' is not under 'rootDir'"
            " '/x/apps/web/src'."
        )
        found = queries.find_past_fix(conn, pasted)
        assert queries.seen_before(found)
        assert [(r["session_id"], r["matched"]) for r in found] == [("ts", "signature")]
    finally:
        conn.close()
    past = "x:y: <path>(<n>,<n>): error TS6059: File <str> is not under <str> <str>. More words."
    assert queries.signature_after_prefix(past, "error TS6059: File <str> is not under <str>") == 1
    assert queries.signature_after_prefix(past, "error TS6059: File <str> is not und") == 0
    assert queries.signature_after_prefix(past, "error TS6059") == 0


def test_a_file_name_alone_makes_no_partial_match(tmp_path):
    """A file's name taken from the paste's path (`index.ts`, `main.rs`) is in failures of
    every kind: nu43's unseen TS6059 had a partial match of `sed: frontend/src/router/
    index.ts: No such file or directory`, a Rust panic at `src/main.rs:42:5` one of a
    `Get-Content` of another `main.rs`. A failure that shares only a file name is no
    partial match; one that shares the error's code is."""
    projects = tmp_path / "projects"
    for sid, minutes, command, error in (
        ("sed", 0, "sed -n 1,9p src/router/index.ts", "sed: src/router/index.ts: No such file"),
        (
            "gc",
            100,
            "Get-Content src\\main.rs",
            "Get-Content : Cannot find path 'C:\\a\\src\\main.rs' because it does not exist.",
        ),
        ("tsc", 200, "tsc", "src/a.ts(1,2): error TS6307: File '/w/b.ts' is not listed"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = "error TS6059: File '/x/packages/shared/src/index.ts' is not under 'rootDir'."
        assert queries.find_past_fix(conn, pasted) == []
        panic = "thread 'main' panicked at src/main.rs:42:5:\ncalled `Option::unwrap()` on a `None`"
        assert queries.find_past_fix(conn, panic) == []
        found = queries.find_past_fix(conn, "error TS6307: '/x/src/index.ts' left out of project")
        assert [(r["session_id"], r["shared_words"]) for r in found] == [("tsc", ["TS6307"])]
    finally:
        conn.close()


@pytest.mark.parametrize("name", ["index.d.mts", "index.d.cts", "Button.svelte", "Hero.astro"])
def test_a_modern_file_name_alone_makes_no_partial_match(tmp_path, name):
    """A tree listing's `index.d.mts` was a partial match of an unseen error about another
    package's `index.d.mts`, sharing that name only: `.mts` was no file's extension
    (signatures.FILE_EXTENSIONS; ans41 finding 2), where `index.d.ts` makes none."""
    projects = tmp_path / "projects"
    listing = f"node_modules/zod/dist\n├── {name}\n└── index.js\ntree: error opening dir"
    for sid, minutes, command, error in (
        ("tree", 0, "tree node_modules/zod/dist", listing),
        ("ls", 100, f"ls dist/esm/{name}", f"ls: cannot access 'dist/esm/{name}': No such file"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        pasted = f"error TS6059: File '/x/packages/shared/dist/{name}' is not under 'rootDir'."
        assert queries.find_past_fix(conn, pasted) == []
    finally:
        conn.close()


def test_another_program_not_found_is_the_same_error_about_other_names(tmp_path):
    """PowerShell's `The term 'awk' is not recognized ...` had no row while the index held
    the same error for sed (nu43 finding 4), as `zsh: command not found: jq` had none beside
    `rg`'s: the program a shell did not find is a value its signature keeps (another_value),
    so another program's is the same error about other names, not seen before, its fix not
    yours. A module missing alike; near matches follow them."""
    projects = tmp_path / "projects"
    for sid, minutes, command, error in (
        (
            "sed",
            0,
            "sed -n 1,9p cli.py",
            "sed : The term 'sed' is not recognized as the name"
            " of a cmdlet, function, script file, or operable program.",
        ),
        ("pil", 100, "python3 a.py", "ModuleNotFoundError: No module named 'PIL'"),
        ("np", 200, "rg numpy", "a.py:3: numpy broke"),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        for pasted in (
            "awk : The term 'awk' is not recognized as the name of a cmdlet, function, script"
            " file, or operable program.",
            "zsh: command not found: awk",
        ):
            found = queries.find_past_fix(conn, pasted)
            assert [(r["session_id"], r["matched"], r["other_names"]) for r in found] == [
                ("sed", "signature", 1)
            ]
            assert not queries.seen_before(found)
            assert "its error signature, 'command not found: <str>', but none names" in (
                queries.not_seen_notice(pasted, found)
            )
        found = queries.find_past_fix(conn, "ModuleNotFoundError: No module named 'numpy'")
        assert [(r["session_id"], r["matched"], r["other_names"]) for r in found] == [
            ("pil", "signature", 1),
            ("np", "some words", 0),
        ]
        notice = queries.not_seen_notice("ModuleNotFoundError: No module named 'numpy'", found)
        assert notice.endswith(
            "The 1 below (same error, other names) was about those: its fix is not yours."
            " Then 1 partial match, sharing only numpy: a different error, maybe related."
        )
    finally:
        conn.close()


def test_of_one_sessions_occurrences_the_card_is_the_one_that_names_the_pasted_files(tmp_path):
    """quarto's `File references.bib not found in resource path`, met 3 times in one session
    as it rendered one file after another, each fixed by an edit of the file it was at: the
    output of the second, pasted whole, had the card of the first, its fix in
    technical-plan.qmd (nu43 finding 6). The occurrence that names the paste's files stands
    for the session (names_apart); a key line alone names none of them, and the one fixed
    soonest still stands."""
    files = ("docs/plan.qmd", "docs/annotated_bibliography.qmd", "docs/step_proposal.qmd")
    session = Session("quarto", APP, 0)
    outputs = []
    for i, name in enumerate(files):
        shown = "\n".join(f"[{n + 1}/12] {f}" for n, f in enumerate(files[: i + 1]))
        outputs.append(f"{shown}\nFile references.bib not found in resource path")
        session.call(f"r{i}", "Bash", command="quarto render")
        session.result(f"r{i}", f"Exit code 1\n{outputs[-1]}", error=True)
        session.call(
            f"e{i}", "Edit", file_path=f"/home/u/app/{name}", old_string="a", new_string="b"
        )
        session.result(f"e{i}", "The file has been updated.")
    session.call("ok", "Bash", command="quarto render").result("ok", "Output created")
    session.write(tmp_path / "projects" / "-home-u-app" / "quarto.jsonl")
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, outputs[1])
        assert [(r["tool_use_id"], r["occurrences"]) for r in found] == [("r1", 3)]
        key = queries.find_past_fix(conn, "File references.bib not found in resource path")
        assert [r["tool_use_id"] for r in key] == ["r0"]  # as before
    finally:
        conn.close()
    assert queries.names_apart(outputs[0], outputs[1]) == 1  # it lacks the paste's file
    assert queries.names_apart(outputs[2], outputs[1]) == 1  # it names another
    assert queries.names_apart(outputs[2], "File references.bib not found") == 0


def test_a_key_pressed_to_stop_a_command_is_no_key_line():
    """`^C` then `Process exited with code 130` was read as the key line `^C`, "not seen
    before" where the failures that ended with 130 were (nu43 finding 7): the terminal's echo
    of the key yields to another line, so the paste says only how the command ended. When
    nothing but Claude Code's `Exit code N` is there besides, the echo stays the key line:
    it tells an interrupted command from others that ended so (labelled pastes of held-out
    sets 31 and 37 found theirs by it)."""
    pasted = "^C\nProcess exited with code 130"
    assert signatures.key_line(pasted) == "Process exited with code 130"
    assert queries.says_little(pasted) and queries.bare_status(pasted) == 130
    assert signatures.key_line("Exit code 1\n^C") == "^C"
    assert not queries.says_little("Exit code 1\n^C")
    assert signatures.key_line("^C^Z\nwatching for file changes") == "watching for file changes"


CONDA = (
    "/home/zeus/miniconda3/etc/profile.d/conda.sh: line 48: syntax error near unexpected token `('"
)
SPECKIT = "ERROR: tasks.md not found in /Users/c/00 vibe_projects/bb/specs/001-bridges"


@pytest.fixture(scope="module")
def nu44(tmp_path_factory):
    """A nix argument missing, a shell's start-up noise over a failure, and spec-kit's check in a
    folder with a space in its name: each fixed."""
    root = tmp_path_factory.mktemp("nu44")
    projects = root / "projects"
    (
        Session("nix", LIB, 0)
        .call("x1", "Bash", command="nix flake check")
        .result(
            "x1",
            "Exit code 1\nerror: function 'anonymous lambda' called without required argument"
            " 'lib'",
            error=True,
        )
        .call("x2", "Edit", file_path=f"{LIB}/home.nix", old_string="{ pkgs", new_string="{ lib")
        .result("x2", f"The file {LIB}/home.nix has been updated.")
        .call("x3", "Bash", command="nix flake check")
        .result("x3", "all checks passed!")
        .write(projects / "-home-u-lib" / "nix.jsonl")
    )
    (
        Session("conda", APP, 100)
        .call("c1", "Bash", command="python train.py")
        .result(
            "c1",
            f"Exit code 1\n{CONDA}\nRuntimeError: Expected all tensors to be on the same device",
            error=True,
        )
        .call("c2", "Edit", file_path=f"{APP}/train.py", old_string="w", new_string="w.to(d)")
        .result("c2", f"The file {APP}/train.py has been updated.")
        .call("c3", "Bash", command="python train.py")
        .result("c3", f"{CONDA}\nepoch 1 done")
        .write(projects / "-home-u-app" / "conda.jsonl")
    )
    (
        Session("speckit", APP, 200)
        .call("s1", "Bash", command=".specify/scripts/bash/check-prerequisites.sh --json")
        .result("s1", f"Exit code 1\n{SPECKIT}\nRun /speckit.tasks first.", error=True)
        .call("s2", "Write", file_path=f"{APP}/specs/001-bridges/tasks.md", content="- [ ] x")
        .result("s2", f"File created successfully at: {APP}/specs/001-bridges/tasks.md")
        .call("s3", "Bash", command=".specify/scripts/bash/check-prerequisites.sh --json")
        .result("s3", '{"FEATURE_DIR": "x"}')
        .write(projects / "-home-u-app" / "speckit.jsonl")
    )
    (
        Session("heredoc", APP, 300)
        .call("h1", "Bash", command="cat <<'EOF' > ../../docs/requirements.md_DRAFT.md\nx\nEOF")
        .result(
            "h1",
            "Exit code 1\n/bin/bash: line 1: ../../docs/requirements.md_DRAFT.md: Permission"
            " denied",
            error=True,
        )
        .call("h2", "Bash", command="cat <<'EOF' | sudo tee /home/docs/requirements.md_DRAFT.md")
        .result("h2", "x")
        .write(projects / "-home-u-app" / "heredoc.jsonl")
    )
    build_index(root / "index.db", projects)
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


def test_a_script_not_executable_is_no_file_written(nu44):
    """A script not executable, pasted, was "the same error, another file" of a heredoc's
    write, whose fix was `sudo tee` (nu42 finding 2): a file run and a file written are two
    errors. The write's own error, pasted with its exit status, is found."""
    found = queries.find_past_fix(nu44, "bash: ./deploy.sh: Permission denied")
    assert [(r["session_id"], r["matched"]) for r in found if r["matched"] == "signature"] == []
    write = "Exit code 1\n/bin/bash: line 1: ../../docs/requirements.md_DRAFT.md: Permission denied"
    found = queries.find_past_fix(nu44, write)
    assert [(r["session_id"], r["matched"]) for r in found] == [("heredoc", "signature")]
    assert queries.seen_before(found)


def test_nix_s_other_argument_is_the_same_error_about_other_names(nu44):
    """nix's `'pkgs'` missing, pasted, was "same error signature" of `'lib'`'s, without the
    note that the names differ (nu44 finding 11)."""
    pasted = "error: function 'anonymous lambda' called without required argument 'pkgs'"
    found = queries.find_past_fix(nu44, pasted)
    assert [(r["session_id"], cards.how_matched(r)) for r in found] == [
        ("nix", "same error, other names")
    ]
    assert not queries.seen_before(found)
    same = queries.find_past_fix(nu44, pasted.replace("'pkgs'", "'lib'"))
    assert [r["session_id"] for r in same] == ["nix"] and queries.seen_before(same)


def test_start_up_noise_pasted_with_one_s_own_home_is_found(nu44):
    """A shell's start-up noise is no failure's signature: it is found by its words, and the
    user's name in its home folder was one (nu44 finding 9)."""
    for user in ("zeus", "alice"):
        found = queries.find_past_fix(nu44, CONDA.replace("zeus", user))
        assert [r["session_id"] for r in found] == ["conda"]
        assert queries.seen_before(found)


def test_spec_kit_s_check_in_a_spaced_folder_is_found_for_another_spec(nu44):
    """The folder `00 vibe_projects` split the stored path; the same check of another spec, in
    that folder or another, was "not seen before" (nu44 finding 4)."""
    for pasted in (
        SPECKIT.replace("001-bridges", "002-other"),
        "ERROR: tasks.md not found in /home/bob/proj/specs/002-payments. Run /speckit.tasks first",
    ):
        found = queries.find_past_fix(nu44, pasted)
        assert [r["session_id"] for r in found][:1] == ["speckit"], pasted


def test_a_name_for_what_has_no_name_is_no_name_shared(tmp_path):
    """Nix's `function 'anonymous lambda' called without required argument 'lib'` and `...
    'pkgs'` share only `'anonymous lambda'`, its word for a function without a name: they
    were "the same error signature", `'lib'`'s fix and no note of other names, where
    `No module named 'requests'` of another module has one (nu44 finding 11)."""
    lib = "error: function 'anonymous lambda' called without required argument 'lib'"
    (
        Session("nix", APP, 0)
        .call("n1", "Bash", command="nix flake check")
        .result("n1", f"Exit code 1\n{lib}\n  at home.nix:1:1", error=True)
        .write(tmp_path / "projects" / "-home-u-app" / "nix.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    conn = queries.connect(tmp_path / "index.db")
    try:
        found = queries.find_past_fix(conn, lib.replace("'lib'", "'pkgs'"))
        assert [(r["session_id"], r["other_names"]) for r in found] == [("nix", 1)]
        assert not queries.seen_before(found)
        assert "same error, other names" in cards.format_hit(1, found[0])
        found = queries.find_past_fix(conn, lib)
        assert [(r["session_id"], r["other_names"]) for r in found] == [("nix", 0)]
    finally:
        conn.close()
    # ('lib' is a value the signature sets aside: SIGNATURE_VERSION 37, kept_set_aside)
    assert "'anonymous lambda'" not in signatures.quoted_names(lib)


@pytest.mark.parametrize(
    ("tool", "target", "another"),
    [
        # another package installed, by another program or with other steps around it
        ("Bash", "sudo apt-get install -y jq", True),
        ("Bash", "bash -lc 'brew install jq'", True),
        # the same package, or a command that says no goal of its own
        ("Bash", "sudo apt install sqlite3", False),
        (None, None, False),
        # the program installed there run on a file: a way round a missing program carries over
        ("Bash", "sqlite3 other.db .schema", False),
        # a file tool's way round (a folder listed, a long file searched) is of the tool's
        # use, for any file
        ("Read", "/home/u/app/README.md", False),
    ],
)
def test_a_workaround_of_another_goal_is_the_same_error_for_another_goal(tool, target, another):
    """A failure only worked around reached its own goal another way (sql.js for sqlite3):
    of a call with another goal (fixes.goal) it is `same error, another goal`, not the error
    seen before; a fixed one changed the failed call, and stays (nu45 finding 2)."""
    row = {
        "matched": "signature",
        "same_text": 1,
        "other_names": 0,
        "other_file": 0,
        "outcome": "worked around",
        "tool": "Bash",
        "target": "sudo apt-get update && sudo apt-get install -y sqlite3 2>&1 | tail -5",
    }
    assert queries.another_goal(row, tool, target) is another
    assert not queries.another_goal({**row, "outcome": "fixed"}, tool, target)
    marked = {**row, "other_goal": queries.another_goal(row, tool, target)}
    assert cards.how_matched(marked) == (queries.OTHER_GOAL if another else "same error")
    assert queries.seen_before([marked]) is not another


@pytest.mark.parametrize(
    ("theirs", "mine", "another"),
    [
        # the same program on another script or file: what it acts on tells the goal
        (
            "node -e \"const yaml=require('yaml'); yaml.parse(s)\"",
            "node scripts/check-status.js",
            True,
        ),
        ("jq -r '.results[]' data/heat.json 2>&1", "jq '.dependencies' package.json", True),
        ("sed -n '1,20p' src/a.ts", "sed -n '5,9p' src/b.ts", True),
        # the same file, subcommand or program given nothing: the same goal
        ("node scripts/check-status.js --all", "node scripts/check-status.js", False),
        ("git push", "git push -u origin main", False),
        ("pytest", "pytest tests/test_a.py", False),
    ],
)
def test_the_same_program_on_another_file_is_another_goal(theirs, mine, another):
    """A failure worked around by `node -e` requiring yaml (counted with rg instead) was
    recalled as the fix of `node scripts/check-status.js` missing yaml too, as the same
    program made them the same goal (a new user's hook events, nu48 finding 5): what a call
    acts on is its goal (fixes.same_goal), its program only when it is given nothing."""
    row = {"matched": "signature", "outcome": "worked around", "tool": "Bash", "target": theirs}
    assert queries.another_goal(row, "Bash", mine) is another


def test_with_the_command_a_paste_naming_no_error_has_its_programs_rows_first():
    """`Exit code 1` with the command `lsof -i :3001`: the rows of that program first (a
    `sudo lsof` among them), the rest as they were; rows of an error are not moved, and
    without a command nothing is (nu48 finding 4)."""

    def row(n, target, matched=queries.EXIT_STATUS):
        return {"n": n, "matched": matched, "tool": "Bash", "target": target, "outcome": "fixed"}

    rows = [row(1, "npm test"), row(2, "git config user.name"), row(3, "sudo lsof -i :3000")]
    ordered = queries.with_goals(rows, "lsof -i :3001")
    assert [r["n"] for r in ordered] == [3, 1, 2]
    assert [r["n"] for r in queries.with_goals(rows, None)] == [1, 2, 3]
    errors = [row(1, "npm test", "signature"), row(2, "lsof -i :1", "signature")]
    assert [r["n"] for r in queries.with_goals(errors, "lsof -i :3001")] == [1, 2]


def test_a_fix_that_replaced_every_match_comes_after_one_made_unique(tmp_path):
    """An Edit whose text the file held more than once (`Found 12 matches ... replace_all is
    false`), fixed in one session by replace_all and in an older one by a longer
    old_string: whether every match was meant was the newer session's intent, not the
    error's, and the hook recalled replace_all first for an Edit of `}\\n` (a new user's
    try, nu46 finding 5). The longer anchor comes first, on find and in the hook alike."""
    several = (
        "<tool_use_error>Found {n} matches of the string to replace, but replace_all is false."
        " To replace all occurrences, set replace_all to true. To replace only one occurrence,"
        " please provide more context to uniquely identify the instance.\nString: {old}"
        "</tool_use_error>"
    )
    projects = tmp_path / "projects"
    path = f"{APP}/src/parser.rs"
    for sid, minutes, old, retry in (
        ("longer", 0, "    }\n", {"old_string": "        x\n    }\n", "new_string": "    }\n\n"}),
        (
            "every",
            100,
            "let p: Vec<T> = parse();",
            {"old_string": "let p: Vec<T> = parse();", "new_string": "let p = parse();"}
            | {"replace_all": True},
        ),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Edit", file_path=path, old_string=old, new_string=old + "\n")
            .result(f"{sid}1", several.format(n=2, old=old), error=True)
            .call(f"{sid}2", "Edit", file_path=path, **retry)
            .result(f"{sid}2", f"The file {path} has been updated.")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)
    conn = queries.connect(tmp_path / "index.db")
    try:
        error = several.format(n=12, old="}\n")
        found = queries.find_past_fix(conn, error)
        assert [(r["session_id"], r["outcome"]) for r in found] == [
            ("longer", "fixed"),
            ("every", "fixed"),
        ]
        assert [queries.every_match(r["remedy"]) for r in found] == [False, True]
        assert queries.find_class(found[0]) < queries.find_class(found[1])
        tool_input = {"file_path": "/home/me/proj/src/lib.rs", "old_string": "}\n"}
        event = {"session_id": "new", "cwd": "/home/me/proj", "tool_name": "Edit"}
        event |= {"tool_input": tool_input, "error": error}
        assert [r["session_id"] for r in hook.matches(conn, event)] == ["longer", "every"]
    finally:
        conn.close()


def test_another_file_is_named_as_the_notice_above_names_the_pasted_path():
    """Under "Not seen about this folder" (a pasted `ls` of a folder) a card said "same error,
    another file" (nu45): of an error whose file is its subject, the card names the pasted
    path's kind, as the notice does (cards.other_file_kind); a compiler's diagnostic in
    another file stays "another file"."""
    ls = {
        "matched": "signature",
        "signature": "ls: cannot access <path>: No such file or directory",
        "other_file": 1,
        "other_names": 1,
    }
    pasted = "ls: cannot access 'build/output': No such file or directory"
    assert queries.not_seen_about(pasted) == "Not seen about this folder"
    assert cards.how_matched(ls, pasted) == "same error, another folder"
    assert cards.how_matched(ls) == "same error, another file"
    tsc = {
        "matched": "signature",
        "signature": "error TS6133: <str> is declared but its value is never read.",
        "other_file": 1,
        "other_names": 0,
    }
    assert cards.how_matched(tsc, "src/a.ts(4,10): error TS6133: 'x' is declared") == (
        "same error, another file"
    )


def test_the_english_message_a_paste_was_read_as_is_said_once_stopped():
    """A git line is a sentence with its own stop: the notice ends with it, not `.'.`."""
    french = "fatal: la branche courante main n'a pas de branche amont."
    rows = [{"matched": "signature", "signature": signatures.signature(french)}]
    assert queries.english_notice(french, rows) == (
        "Read as its English message: 'fatal: The current branch main has no upstream branch.'"
    )
    german = "bash: python: Kommando nicht gefunden."
    rows = [{"matched": "signature", "signature": signatures.signature(german)}]
    assert queries.english_notice(german, rows) == (
        "Read as its English message: 'bash: python: command not found'."
    )


def test_a_push_refused_for_a_large_file_is_found_without_its_trace(tmp_path):
    """GitHub's refusal of a push for a file over its limit was keyed on the trace id it
    prints first (`remote: error: Trace: <hex>`): a paste of its other lines, about another
    file of another repository, was not seen before (nu49 finding 3)."""
    limit = "this exceeds GitHub's file size limit of 100.00 MB"
    code = (
        "remote: error: GH001: Large files detected. You may want to try Git Large File"
        " Storage - https://git-lfs.github.com."
    )
    refused = (
        "Exit code 1\nremote: error: Trace: 6621385e83524cb08caf396928008f131e13eff1\n"
        "remote: error: See https://gh.io/lfs for more information.\n"
        f"remote: error: File mod/zfs.ko is 103.31 MB; {limit}\n{code}\n"
        "To https://github.com/me/app\n ! [remote rejected] main -> main (pre-receive hook"
        " declined)\nerror: failed to push some refs to 'https://github.com/me/app'"
    )
    (
        Session("push", APP, 0)
        .call("p1", "Bash", command="git push origin main")
        .result("p1", refused, error=True)
        .call("p2", "Bash", command="git rm --cached mod/zfs.ko && git commit --amend --no-edit")
        .result("p2", "rm 'mod/zfs.ko'")
        .call("p3", "Bash", command="git push origin main")
        .result("p3", "main -> main")
        .write(tmp_path / "projects" / "-home-u-app" / "push.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    pasted = (
        f"remote: error: File data/model.bin is 240.00 MB; {limit}\n{code}\n"
        " ! [remote rejected] main -> main (pre-receive hook declined)\n"
        "error: failed to push some refs to 'https://github.com/you/other'"
    )
    with queries.connect(tmp_path / "index.db") as conn:
        for paste in (pasted, f"remote: error: Trace: 0a1b2c3d4e5f6789\n{pasted}"):
            found = queries.find_past_fix(conn, paste)
            assert [(r["session_id"], r["matched"], r["outcome"]) for r in found] == [
                ("push", "signature", "fixed")
            ]
