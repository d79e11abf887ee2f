"""Gemini CLI's history (pastfix.gemini): the real corpus against its provenance, the
hand-written shapes the corpus lacks (tests/data/gemini), re-reads of changed files,
mutated input, the AfterTool hook and its install."""

import json
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REAL_CORPUS

from pastfix import agents, gemini, hook, install
from pastfix.cli import cli
from pastfix.lines import MAX_WHOLE_BYTES
from pastfix.records import SourceFile

REAL_GEMINI = REAL_CORPUS / "other-agents" / "gemini"
PROVENANCE = REAL_CORPUS / "other-agents" / "PROVENANCE.md"
DATA = Path(__file__).parent / "data" / "gemini" / "home" / ".gemini"
A = "aaaaaaaa-1111-4111-8111-111111111111"  # a JSONL session: $set, $rewindTo, a bad line
C = "cccccccc-3333-4333-8333-333333333333"  # only in logs.json
D = "dddddddd-4444-4444-8444-444444444444"  # $set.messages replaces its conversation
E = "eeeeeeee-5555-4555-8555-555555555555"  # a subagent of A
F = "ffffffff-6666-4666-8666-666666666666"  # a v0.4-v0.38 JSON session in a hash folder
NPM_ERROR = 'npm ERR! Missing script: "test"'
needs_corpus = pytest.mark.skipif(
    not REAL_GEMINI.is_dir(), reason=f"real corpus not found at {REAL_GEMINI}"
)


def build(db, *sources, more=()):
    args = ["build", str(db), *(a for s in sources for a in ("--source", str(s))), *more]
    result = CliRunner().invoke(cli, [*args, "--json", "-s"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def rows(db, sql, *params):
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql, params)]
    finally:
        conn.close()


def one(db, sql, *params):
    return next(iter(rows(db, sql, *params)[0].values()))


# -- the real corpus, against PROVENANCE.md ---------------------------------------------


def provenance():
    """The gemini table of PROVENANCE.md: (corpus file, what it holds), by kind."""
    text = PROVENANCE.read_text()
    section = text.split("\n## gemini\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[dict]] = {"session": [], "checkpoint": [], "logs": []}
    for line in section.splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) < 6 or not cells[0].startswith("`gemini/"):
            continue
        path, what = cells[0].strip("`").removeprefix("gemini/"), cells[5]
        if m := re.search(
            r"session (\w{8}),.*\*\*(\d+) tool calls, (\d+) failed.*?(\d+) cancel", what
        ):
            found["session"].append(
                dict(path=path, id8=m[1], calls=int(m[2]), failed=int(m[3]), cancelled=int(m[4]))
            )
        elif m := re.search(r"\*\*(\d+) functionCall parts, (\d+) failed, (\d+) cancelled", what):
            found["checkpoint"].append(
                dict(path=path, calls=int(m[1]), failed=int(m[2]), cancelled=int(m[3]))
            )
        elif m := re.search(r"logs.json: (\d+) user-prompt entries across (\d+) sessions", what):
            found["logs"].append(dict(path=path, prompts=int(m[1]), sessions=int(m[2])))
    return found


# A call's failure as Gemini recorded it, told from the stored result: cancelled calls
# start with Gemini's "[Operation Cancelled]"; a shell command's exit code (status
# success in Gemini's record) starts with "Exit code N"; the rest are status "error".
COUNTS_SQL = """
SELECT count(*) AS calls,
       count(*) FILTER (WHERE r.is_error AND r.content NOT LIKE '[Operation Cancelled]%'
                        AND NOT (c.name = 'run_shell_command' AND r.content LIKE 'Exit code %'))
         AS failed,
       count(*) FILTER (WHERE r.is_error AND r.content LIKE '[Operation Cancelled]%'
                        AND r.kind IN ('interrupted', 'rejected')) AS cancelled
FROM tool_calls c JOIN tool_results r USING (tool_use_id)
WHERE c.session_id = ?
"""


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory):
    if not REAL_GEMINI.is_dir():
        pytest.skip(f"real corpus not found at {REAL_GEMINI}")
    db = tmp_path_factory.mktemp("gemini") / "index.db"
    stats = build(db, REAL_GEMINI)
    return db, stats


@needs_corpus
def test_every_session_call_and_failure_of_the_provenance_is_indexed(corpus_db):
    db, stats = corpus_db
    listed = provenance()
    assert len(listed["session"]) == 9 and len(listed["checkpoint"]) == 2
    assert stats["problems"] == 0 and stats["skipped_lines"] == 0
    for row in listed["session"]:
        (session,) = rows(db, "SELECT * FROM sessions WHERE session_id LIKE ?", row["id8"] + "%")
        assert session["agent"] == "gemini"
        counts = rows(db, COUNTS_SQL, session["session_id"])[0]
        assert counts == {k: row[k] for k in ("calls", "failed", "cancelled")}, row["path"]
    for row in listed["checkpoint"]:
        path = REAL_GEMINI / row["path"]
        session_id = gemini.checkpoint_session(path, path.parent)
        counts = rows(db, COUNTS_SQL, session_id)[0]
        assert counts == {k: row[k] for k in ("calls", "failed", "cancelled")}, row["path"]
    for row in listed["logs"]:
        found = rows(
            db,
            "SELECT count(*) AS prompts, count(DISTINCT m.session_id) AS sessions"
            " FROM messages m JOIN source_files f ON f.id = m.file_id WHERE f.path = ?",
            str(REAL_GEMINI / row["path"]),
        )[0]
        assert found == {"prompts": row["prompts"], "sessions": row["sessions"]}, row["path"]
    # Each session once: the 44feaa33 pair is one, so 8 chat sessions + 2 checkpoints +
    # the logs' sessions (none of which has a chat file in its folder).
    sessions = one(db, "SELECT count(*) FROM sessions WHERE agent = 'gemini'")
    assert sessions == 8 + 2 + sum(r["sessions"] for r in listed["logs"])
    calls = sum(r["calls"] for r in listed["session"] if r["path"].count("44feaa33") == 0)
    calls += 4 + sum(r["calls"] for r in listed["checkpoint"])  # 44feaa33's 4 calls, once
    assert one(db, "SELECT count(*) FROM tool_calls") == calls == 291


@needs_corpus
def test_the_session_stored_under_two_folder_names_is_indexed_once(corpus_db):
    db, _ = corpus_db
    copies = sorted(REAL_GEMINI.rglob("session-2026-01-27T18-01-44feaa33.json"))
    assert len(copies) == 2
    alone = gemini.parse_file(
        SourceFile(str(copies[0]), None, str(copies[0].parent.parent), agent="gemini"),
        copies[0].read_bytes(),
    )
    session_id = alone.messages[0].session_id
    stored = rows(db, "SELECT uuid FROM messages WHERE session_id = ?", session_id)
    assert sorted(r["uuid"] for r in stored) == sorted(m.uuid for m in alone.messages)
    assert one(db, "SELECT count(*) FROM tool_calls WHERE session_id = ?", session_id) == 4


@needs_corpus
def test_projects_come_from_project_root_projects_json_or_the_hash(corpus_db):
    db, _ = corpus_db
    project = {r["session_id"][:8]: r["project"] for r in rows(db, "SELECT * FROM sessions")}
    assert project["8dddde09"] == "/home/anthonyguera"  # .project_root of a slug folder
    assert project["93c0da34"] == r"C:\Users\acodu\dev\dashboard_mictlan"  # by its hash
    assert project["ec3c3e6f"] == r"C:\Users\acodu\dev\dashboard_mictlan"
    assert project["9cfc5cfa"] == "/home/smitee"  # a checkpoint: the folder it names


@needs_corpus
def test_find_with_a_gemini_failures_key_line_finds_its_session(corpus_db):
    db, _ = corpus_db
    error = "File not found: /home/anthonyguera/src/data/vocabContent.ts"
    result = CliRunner().invoke(cli, ["find", error, str(db)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "read_file (Gemini CLI) failed" in result.output
    assert "resume: gemini --resume 16a02704-6391-4649-8aab-cd8ac592ff4f" in result.output


# -- the hand-written shapes ------------------------------------------------------------


@pytest.fixture
def home(tmp_path):
    """A copy of tests/data/gemini's ~/.gemini, to change."""
    copy = tmp_path / "home" / ".gemini"
    shutil.copytree(DATA, copy)
    return copy


@pytest.fixture
def fixture_db(tmp_path, home):
    db = tmp_path / "index.db"
    build(db, home)
    return db


def test_the_fixture_folder_is_gemini_s_and_its_default(home, monkeypatch):
    assert agents.stores(home) == [(home, "gemini")]
    assert agents.stores(home / "tmp") == [(home / "tmp", "gemini")]
    assert agents.stores(home / "tmp" / "app") == [(home / "tmp" / "app", "gemini")]
    assert agents.stores(home.parent) == [(home, "gemini")]  # a home folder's copy
    assert gemini.default_folders() == [Path.home() / ".gemini"]
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home.parent))
    assert agents.default_sources("gemini") == [home]


def test_jsonl_records_are_replayed_as_gemini_replays_them(fixture_db):
    db = fixture_db
    uuids = [r["uuid"] for r in rows(db, "SELECT uuid FROM messages WHERE session_id = ?", A)]
    # the last copy of m2 (with its call) wins; $rewindTo m6 dropped m6 and m7
    assert f"{A}:m2" in uuids and f"{A}:m2:thinking" in uuids and f"{A}:m8" in uuids
    assert f"{A}:m6" not in uuids and f"{A}:m7" not in uuids
    (npm,) = rows(
        db,
        "SELECT c.*, r.is_error, r.content, r.kind FROM tool_calls c JOIN tool_results r"
        " USING (tool_use_id) WHERE c.tool_use_id = ?",
        f"{A}:run_shell_command_1777629605000_0",
    )
    assert npm["command"] == "npm test" and npm["is_error"] == 1
    assert npm["content"].startswith(f"Exit code 1\n> app@1.0.0 test\n{NPM_ERROR}")
    assert "Process Group PGID" not in npm["content"]
    (problem,) = rows(db, "SELECT line_no, reason FROM problems WHERE path LIKE '%aaaaaaaa.jsonl'")
    assert problem == {"line_no": 12, "reason": "malformed JSON: Input data was truncated"}
    kinds = rows(
        db,
        "SELECT c.name, r.kind, r.content FROM tool_calls c JOIN tool_results r"
        " USING (tool_use_id) WHERE c.session_id = ? AND r.is_error ORDER BY c.name",
        A,
    )
    assert [(k["name"], k["kind"]) for k in kinds] == [
        ("read_file", "error"),
        ("replace", "rejected"),  # the user declined it: noise
        ("run_shell_command", "error"),
    ]
    assert kinds[0]["content"] == "File not found: /tmp/app/missing.txt"
    # $set.messages: the conversation replaced, then one more message
    texts = [r["text"] for r in rows(db, "SELECT text FROM messages WHERE session_id = ?", D)]
    assert texts == ["hello", "the summary of what was said", "bye"]
    assert one(db, "SELECT title FROM sessions WHERE session_id = ?", D)
    # the subagent's session, in its parent's folder
    assert one(db, "SELECT file_path FROM tool_calls WHERE session_id = ?", E) == "/home/u/app"


def test_logs_json_prompts_only_for_sessions_without_a_chat_file(fixture_db):
    db = fixture_db
    assert one(db, "SELECT count(*) FROM messages WHERE text = 'run the tests'") == 1
    prompts = rows(db, "SELECT text, type, kind FROM messages WHERE session_id = ?", C)
    assert [p["text"] for p in prompts] == ["what does npm ci do", "/quit"]
    assert {(p["type"], p["kind"]) for p in prompts} == {("user", "prompt")}
    assert one(db, "SELECT project FROM sessions WHERE session_id = ?", C) == "/home/u/app"
    problems = rows(db, "SELECT line_no, reason FROM problems WHERE path LIKE '%logs.json'")
    assert problems == [{"line_no": 4, "reason": "log entry is not an object"}]


def test_a_checkpoint_is_a_session_named_after_its_tag(fixture_db, home):
    db = fixture_db
    path = home / "tmp" / "app" / "checkpoint-fix%20build.json"
    session_id = gemini.checkpoint_session(path, path.parent)
    assert session_id.endswith("-chat-fix build")
    messages = rows(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY line_no", session_id)
    assert messages[0]["is_meta"] == 1  # the environment Gemini injected
    assert [m["kind"] for m in messages if not m["is_meta"]][:3] == ["text", "prompt", "thinking"]
    (call,) = rows(
        db,
        "SELECT c.*, r.is_error, r.content FROM tool_calls c JOIN tool_results r"
        " USING (tool_use_id) WHERE c.session_id = ?",
        session_id,
    )
    assert call["tool_use_id"] == f"{session_id}:run_shell_command-1777000000000-0a1b2c"
    assert call["timestamp"] == "2026-04-24T03:06:40.000Z"  # from the call id
    assert call["is_error"] == 1 and call["content"].startswith("Exit code 2\nmake: ***")
    session = rows(db, "SELECT * FROM sessions WHERE session_id = ?", session_id)[0]
    assert session["project"] == "/home/u/app"
    # `gemini --resume` opens session UUIDs, not checkpoints (/chat resume <tag> does)
    assert agents.resume_command("gemini", session_id) is None
    assert agents.resume_command("gemini", A) == f"gemini --resume {A}"


def test_a_json_session_in_a_hash_folder_gets_its_project_and_canonical_edit_keys(fixture_db):
    db = fixture_db
    session = rows(db, "SELECT * FROM sessions WHERE session_id = ?", F)[0]
    assert session["project"] == "/home/u/old"  # sha256 of a folder its calls name
    assert session["agent"] == "gemini"
    (call,) = rows(db, "SELECT * FROM tool_calls WHERE session_id = ?", F)
    assert call["file_path"] == "/home/u/old/src/greet.py"
    args = json.loads(call["input"])
    assert (args["old_string"], args["new_string"]) == ("helo", "hello")
    assert args["old_content"] == "helo"  # Gemini's own keys stay
    (error,) = rows(
        db, "SELECT type, kind, is_meta FROM messages WHERE session_id = ? AND kind = 'error'", F
    )
    assert error == {"type": "system", "kind": "error", "is_meta": 1}
    assert one(db, "SELECT count(*) FROM problems WHERE reason = 'message is not an object'") == 1


def test_find_shows_the_gemini_fix(fixture_db):
    result = CliRunner().invoke(cli, ["find", NPM_ERROR, str(fixture_db)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "run_shell_command (Gemini CLI) failed" in result.output
    assert "package.json" in result.output  # the write_file that fixed it
    assert f"resume: gemini --resume {A}" in result.output


# -- incremental builds -----------------------------------------------------------------


def snapshot(db):
    return {
        table: sorted(
            map(tuple, (r.values() for r in rows(db, f"SELECT {cols} FROM {table}"))), key=repr
        )
        for table, cols in (
            ("messages", "uuid, session_id, line_no, type, kind, text"),
            ("tool_calls", "tool_use_id, name, command, file_path, input"),
            ("tool_results", "tool_use_id, is_error, content, kind"),
            ("sessions", "session_id, project, title, agent"),
            ("problems", "line_no, reason"),
        )
    }


def by_file(db, session_id):
    """The uuids of a session's messages, by the path of the file that holds them."""
    found = {}
    for r in rows(
        db,
        "SELECT f.path, m.uuid FROM messages m JOIN source_files f ON f.id = m.file_id"
        " WHERE m.session_id = ?",
        session_id,
    ):
        found.setdefault(r["path"], set()).add(r["uuid"])
    return found


def test_a_rewritten_json_session_is_read_again_whole_and_keeps_what_it_lost(
    tmp_path, home, fixture_db
):
    path = next((home / "tmp").glob("*/chats/session-*-ffffffff.json"))
    before = by_file(fixture_db, F)[str(path)]
    calls = one(fixture_db, "SELECT count(*) FROM tool_calls WHERE session_id = ?", F)
    assert calls > 0
    record = json.loads(path.read_text())
    record["messages"] = [
        {"id": "f1", "timestamp": "2025-10-01T10:00:00.000Z", "type": "user", "content": "bye"}
    ]
    path.write_text(json.dumps(record))
    stats = build(fixture_db, home)
    assert stats["files_read"] == 1 and stats["rows_kept"] > 0
    # the file's rows are its new content; every row it no longer holds is kept beside it
    after = by_file(fixture_db, F)
    assert after[str(path)] == {f"{F}:f1"}
    assert after[f"{path}#{F}"] == before - {f"{F}:f1"}
    assert one(fixture_db, "SELECT count(*) FROM tool_calls WHERE session_id = ?", F) == calls
    fresh = tmp_path / "fresh.db"
    build(fresh, home)
    assert by_file(fresh, F) == {str(path): {f"{F}:f1"}}
    assert {k: v for k, v in snapshot(fixture_db).items() if k != "sessions"} != snapshot(fresh)


def test_a_rewound_jsonl_session_keeps_the_messages_rewound(tmp_path, home, fixture_db):
    path = home / "tmp" / "app" / "chats" / f"session-2026-05-01T10-00-{A[:8]}.jsonl"
    before = by_file(fixture_db, A)[str(path)]
    assert {f"{A}:m8", f"{A}:m9"} <= before
    with path.open("a") as f:
        f.write(json.dumps({"$rewindTo": "m8"}) + "\n")
        f.write(json.dumps({"id": "m11", "type": "user", "content": "start over"}) + "\n")
    build(fixture_db, home)
    after = by_file(fixture_db, A)
    # Gemini's /rewind dropped m8 and what followed: the index keeps them, beside the file
    assert f"{A}:m11" in after[str(path)] and f"{A}:m8" not in after[str(path)]
    assert {f"{A}:m8", f"{A}:m9"} <= after[f"{path}#{A}"]
    assert after[str(path)] | after[f"{path}#{A}"] == before | {f"{A}:m11"}
    fresh = tmp_path / "fresh.db"
    build(fresh, home)
    assert by_file(fresh, A) == {str(path): after[str(path)]}
    # built again, incrementally or forced: nothing changes
    state = snapshot(fixture_db)
    for force in ((), ("--force",)):
        again = build(fixture_db, home, more=force)
        assert (again["rows_kept"], again["duplicates"]) == (0, 0)
        assert snapshot(fixture_db) == state
        assert by_file(fixture_db, A) == after


def test_a_new_chat_file_takes_its_sessions_prompts_out_of_logs_json(tmp_path, home, fixture_db):
    chats = home / "tmp" / "app" / "chats"
    (chats / f"session-2026-04-01T08-00-{C[:8]}.json").write_text(
        json.dumps(
            {
                "sessionId": C,
                "projectHash": "0" * 64,
                "messages": [{"id": "c1", "type": "user", "content": "what does npm ci do"}],
            }
        )
    )
    build(fixture_db, home)
    texts = [
        r["text"]
        for r in rows(fixture_db, "SELECT text FROM messages WHERE session_id = ? ORDER BY 1", C)
    ]
    # the prompt from the chat file, once; logs.json's other prompt of the session, which
    # the chat file does not hold (a command), is kept
    assert texts == ["/quit", "what does npm ci do"]
    fresh = tmp_path / "fresh.db"
    build(fresh, home)
    assert [t for t in texts if t != "/quit"] == [
        r["text"] for r in rows(fresh, "SELECT text FROM messages WHERE session_id = ?", C)
    ]


# -- bad input: problems, never a traceback -----------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
SAMPLES = sorted(p for p in DATA.rglob("*") if gemini._file_kind(p))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _retyped(value, draw):
    """`value` with one object member somewhere in it replaced by another JSON value."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: _retyped(value[key], draw)}
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], _retyped(value[i], draw), *value[i + 1 :]]
    return draw(JSON_VALUES)


@st.composite
def mutated_files(draw):
    path = draw(st.sampled_from(SAMPLES))
    data = path.read_bytes()
    how = draw(st.sampled_from(["truncate", "junk", "retype", "retype line", "nest"]))
    if how == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif how == "junk":
        at = draw(st.integers(0, len(data)))
        junk = draw(st.sampled_from([b"\xff", b"\x00", b"\\ud83d", b"\n}\n", b"[", b'"']))
        data = data[:at] + junk + data[at:]
    elif how == "nest":
        depth = draw(st.integers(100, 5000))
        data = data.replace(b"{", b"{" + b'"deep": ' + b"[" * depth + b"]" * depth + b", ", 1)
    elif path.suffix == ".jsonl" and how == "retype line":
        lines = data.splitlines()
        i = draw(st.integers(0, len(lines) - 1))
        try:
            lines[i] = json.dumps(_retyped(json.loads(lines[i]), draw)).encode()
        except ValueError:
            pass  # a sample's own bad line (the fixtures hold some) stays as it is
        data = b"\n".join(lines) + b"\n"
    else:
        try:
            whole = json.loads(data.splitlines()[0] if path.suffix == ".jsonl" else data)
        except ValueError:
            return path, data
        data = json.dumps(_retyped(whole, draw)).encode()
    return path, data


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(mutated_files())
def test_mutated_files_never_raise(sample):
    path, data = sample
    kind = gemini._file_kind(path)
    source = SourceFile(str(path), None, str(gemini._project_dir(path, kind)), agent="gemini")
    batch = gemini.parse_file(source, data)
    assert all(isinstance(p.reason, str) and p.reason for p in batch.problems)
    ids = [m.uuid for m in batch.messages]
    assert len(ids) == len(set(ids))
    assert {r.tool_use_id for r in batch.tool_results} <= {c.tool_use_id for c in batch.tool_calls}


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        (
            "chats/session-2026-01-01T00-00-aaaaaaaa.json",
            b'{"sessionId": "s", "messages": [',
            "malformed JSON",
        ),
        ("chats/session-2026-01-01T00-00-aaaaaaaa.json", b"[1, 2]", "session file holds a list"),
        (
            "chats/session-2026-01-01T00-00-aaaaaaaa.json",
            b'{"messages": []}',
            "session without a sessionId",
        ),
        (
            "chats/session-2026-01-01T00-00-aaaaaaaa.jsonl",
            b'{"id": "x"}\n',
            "no session metadata line",
        ),
        ("logs.json", b'{"a": 1}', "logs.json does not hold a list"),
        ("checkpoint-x.json", b'"text"', "checkpoint does not hold a history list"),
    ],
)
def test_wrong_shapes_are_problems(tmp_path, name, data, reason):
    path = tmp_path / "tmp" / "p" / name
    batch = gemini.parse_file(SourceFile(str(path), None, str(tmp_path / "tmp" / "p")), data)
    assert [p.reason for p in batch.problems if p.reason.startswith(reason)], batch.problems


# -- the AfterTool hook --------------------------------------------------------------------


def after_tool(session_id="99999999-9999-4999-8999-999999999999", **fields):
    return {
        "session_id": session_id,
        "transcript_path": "/x/session.jsonl",
        "cwd": "/home/u/app",
        "hook_event_name": "AfterTool",
        "timestamp": "2026-06-01T00:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "npm test"},
        **fields,
    }


NPM_OUTPUT = (
    f"<untrusted_context>\nOutput: {NPM_ERROR}\nExit Code: 1\nProcess Group PGID: 7"
    "\n</untrusted_context>"
)


@pytest.mark.parametrize(
    ("response", "error"),
    [
        ({"llmContent": NPM_OUTPUT, "returnDisplay": NPM_ERROR}, f"Exit code 1\n{NPM_ERROR}"),
        ({"llmContent": "Output: ok\nProcess Group PGID: 7", "returnDisplay": "ok"}, None),
        (
            {
                "llmContent": "x",
                "error": {"message": "File not found: /a", "type": "file_not_found"},
            },
            "File not found: /a",
        ),
        (
            {"llmContent": "Command was cancelled by user before it could complete. Exit Code: 1"},
            None,
        ),
        ({"llmContent": "", "error": {"message": "[Operation Cancelled] Reason: x"}}, None),
        ("not an object", None),
    ],
)
def test_hook_failure_tells_a_failed_call(response, error):
    found = gemini.hook_failure(after_tool(tool_response=response))
    assert (found and found["error"]) == error
    assert (
        gemini.hook_failure({**after_tool(tool_response=response), "hook_event_name": "BeforeTool"})
        is None
    )


def test_the_hook_recalls_the_gemini_fix_and_is_silent_in_its_own_session(fixture_db):
    event = after_tool(tool_response={"llmContent": NPM_OUTPUT, "returnDisplay": NPM_ERROR})
    answer = json.loads(hook.run(json.dumps(event), fixture_db, agent="gemini"))
    assert answer["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("pastfix: this error was seen before")
    assert f"gemini --resume {A}" in context and "package.json" in context
    assert hook.run(json.dumps({**event, "session_id": A}), fixture_db, agent="gemini") == ""
    ok = after_tool(tool_response={"llmContent": "Output: 3 passing", "returnDisplay": ""})
    assert hook.run(json.dumps(ok), fixture_db, agent="gemini") == ""


def test_hook_install_writes_gemini_settings_and_uninstall_takes_only_its_own(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "g"))
    settings = tmp_path / "g" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    theirs = {"matcher": "write_.*", "hooks": [{"type": "command", "command": "audit.sh"}]}
    settings.write_text(json.dumps({"model": {"name": "x"}, "hooks": {"AfterTool": [theirs]}}))
    db = tmp_path / "index.db"
    for _ in range(2):  # again: replaced, not added twice
        result = CliRunner().invoke(cli, ["hook", "install", "--agent", "gemini", "--db", str(db)])
        assert result.exit_code == 0, result.output
    written = json.loads(settings.read_text())
    assert written["model"] == {"name": "x"}
    after, end = written["hooks"]["AfterTool"], written["hooks"]["SessionEnd"]
    assert after[0] == theirs and len(after) == 2 and len(end) == 1
    (handler,) = after[1]["hooks"]
    assert after[1]["matcher"] == "*" and handler["timeout"] == install.GEMINI_TIMEOUT_MS
    assert f"hook --db {db} --agent gemini" in handler["command"]
    assert f"--source {tmp_path / 'g' / '.gemini'} --agent gemini" in end[0]["hooks"][0]["command"]
    result = CliRunner().invoke(cli, ["hook", "uninstall", "--agent", "gemini"])
    assert result.exit_code == 0, result.output
    assert json.loads(settings.read_text()) == {
        "model": {"name": "x"},
        "hooks": {"AfterTool": [theirs]},
    }


def test_a_shell_failure_is_stored_without_what_after_tool_hooks_appended():
    # Found by tests/test_gemini_e2e.py: Gemini appends the hook's context after the
    # <untrusted_context> wrapper, and the stored failure lost its exit code.
    recalled = f"{NPM_OUTPUT}\n\n<hook_context>pastfix: this error was seen before</hook_context>"
    assert gemini.shell_output(recalled) == (NPM_ERROR, 1)
    text, failed = gemini.result_text("run_shell_command", "success", {"output": recalled})
    assert failed and text == f"Exit code 1\n{NPM_ERROR}"


def test_a_failed_calls_recall_is_a_deny_reason_and_is_not_stored_as_its_error(fixture_db):
    # Gemini CLI sends a failed call's result as {"error": message} alone, dropping
    # additionalContext (seen with 0.61.0): the recall goes in a deny's reason, after
    # the error, and a session file then records that reason as the call's error. (The
    # fixture's npm failure was fixed: one that was not is not recalled.)
    error = {"message": f"Exit code 1\n{NPM_ERROR}", "type": "shell_error"}
    event = after_tool(
        tool_name="run_shell_command", tool_response={"llmContent": "x", "error": error}
    )
    answer = json.loads(hook.run(json.dumps(event), fixture_db, agent="gemini"))
    assert answer["decision"] == "deny"
    assert answer["reason"].startswith(f"{error['message']}\n\n{hook.context([])[:35]}")
    recorded = {"error": answer["reason"]}
    assert gemini.result_text("read_file", "error", recorded) == (error["message"], True)


def test_a_project_folder_named_like_one_of_geminis_own_is_read(tmp_path, home):
    # Slug folders are named after the project's folder: ~/.gemini/tmp/history is a
    # project's, ~/.gemini/history holds /restore's git repositories and is not read.
    shutil.copytree(home / "tmp" / "app", home / "tmp" / "history")
    shutil.copytree(home / "tmp" / "app", home / "history" / "app")
    paths = [s.path for s in gemini.iter_source_files(home)]
    assert any("/tmp/history/chats/" in p for p in paths)
    assert not any("/.gemini/history/" in p for p in paths)


@pytest.mark.asyncio
async def test_the_session_page_shows_the_agent_its_resume_and_gemini_edits(fixture_db):
    from urllib.parse import quote

    import yaml
    from conftest import ROOT
    from datasette.app import Datasette

    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    ds = Datasette([str(fixture_db)], metadata=metadata, template_dir=str(ROOT / "templates"))
    page = (await ds.client.get(f"/index/-/session/{A}")).text
    assert "Gemini CLI" in page and f"<code>gemini --resume {A}</code>" in page
    assert f'id="call-{A}:run_shell_command_1777629605000_0"' in page
    assert "pf-failed" in page and "npm test" in page
    old = (await ds.client.get(f"/index/-/session/{F}")).text
    assert '<span class="pf-del">- helo</span><span class="pf-add">+ hello</span>' in old
    found = (await ds.client.get("/-/pastfix/find?error=" + quote(NPM_ERROR))).text
    assert "Gemini CLI" in found and f"gemini --resume {A}" in found


def test_a_folder_with_a_tmp_and_settings_is_not_taken_for_geminis(tmp_path):
    claude = tmp_path / ".claude"
    (claude / "tmp").mkdir(parents=True)
    (claude / "settings.json").write_text("{}")
    (claude / "installation_id").write_text("x")
    assert not gemini.holds(claude)
    empty = tmp_path / "h" / ".gemini"
    (empty / "tmp").mkdir(parents=True)
    assert gemini.holds(empty)  # a fresh Gemini CLI's folder, by its name


def test_a_rewound_session_keeps_the_prompts_it_repeats(tmp_path):
    """A chat whose prompts after the first are all `continue` and every reply `Done.`,
    rewound to its first two turns: the eight rows it lost were all held by the texts the
    four left (12 messages -> 4); by key first, then by text as many times as held again."""
    gemini = tmp_path / "home" / ".gemini"
    chats = gemini / "tmp" / "app" / "chats"
    chats.mkdir(parents=True)
    sid = "99999999-1111-4111-8111-111111111111"
    path = chats / f"session-2026-05-01T10-00-{sid[:8]}.json"
    messages = []
    for i in range(6):
        ts = f"2026-05-01T10:0{i}"
        text = "continue" if i else "start"
        messages.append({"id": f"u{i}", "timestamp": f"{ts}:00Z", "type": "user", "content": text})
        messages.append(
            {"id": f"g{i}", "timestamp": f"{ts}:30Z", "type": "gemini", "content": "Done."}
        )

    def write(kept):
        path.write_text(json.dumps({"sessionId": sid, "projectHash": "0" * 64, "messages": kept}))

    write(messages)
    db = tmp_path / "index.db"
    build(db, gemini)
    before = snapshot(db)["messages"]
    write(messages[:4])
    stats = build(db, gemini)
    assert stats["rows_kept"] == 8
    assert snapshot(db)["messages"] == before
    for force in ((), ("--force",)):
        again = build(db, gemini, more=force)
        assert (again["rows_kept"], again["duplicates"]) == (0, 0)
        assert snapshot(db)["messages"] == before


@pytest.mark.parametrize(
    "name", ["tmp/app/.project_root", "projects.json", "tmp/app/checkpoint-fix%20build.json"]
)
def test_a_fifo_beside_the_chats_neither_blocks_a_build_nor_loses_rows(
    fixture_db, home, no_hang, name
):
    """A build reads more than the chat files: a project's .project_root, projects.json, the
    head of its checkpoints (for logs.json's project). Opened with open(), one made a FIFO
    blocked the build for good; now it is read as a file that is not there."""
    before = rows(fixture_db, "SELECT session_id FROM sessions ORDER BY 1")
    (home / name).unlink()
    os.mkfifo(home / name)
    build(fixture_db, home, more=["--force"])
    assert rows(fixture_db, "SELECT session_id FROM sessions ORDER BY 1") == before


def test_a_forced_build_keeps_the_project_a_file_beside_the_chats_gave(fixture_db, home):
    """A session's project can come from a file beside its own (.project_root, projects.json,
    a checkpoint's head, for logs.json): gone since, a forced build read the unchanged file
    again without it and dropped the project the index held. The rows the new read of such
    a file (read whole) no longer gives are kept, as an incremental build keeps them."""
    assert one(fixture_db, "SELECT project FROM sessions WHERE session_id = ?", C) == "/home/u/app"
    (home / "tmp" / "app" / ".project_root").unlink()
    (home / "projects.json").write_text('{"projects": {}}')
    build(fixture_db, home)
    assert one(fixture_db, "SELECT project FROM sessions WHERE session_id = ?", C) == "/home/u/app"
    build(fixture_db, home, more=["--force"])
    assert one(fixture_db, "SELECT project FROM sessions WHERE session_id = ?", C) == "/home/u/app"


def test_a_chat_file_too_large_to_read_whole_is_not_read_and_keeps_its_rows(
    tmp_path, home, fixture_db
):
    """A file read whole is held in memory and parsed as one: one over MAX_WHOLE_BYTES (a
    sparse or dumped file; a 4 GB one took 20 s and 4.2 GB before it was found malformed,
    a larger one stopped the build with MemoryError) is not read. It is one problem, every
    other file is indexed, and the rows it gave before it grew stay its own, by incremental
    and forced builds alike."""
    path = next((home / "tmp").glob("*/chats/session-*-ffffffff.json"))
    before = {k: v for k, v in snapshot(fixture_db).items() if k != "problems"}
    assert by_file(fixture_db, F)[str(path)]
    with path.open("r+b") as f:
        f.truncate(MAX_WHOLE_BYTES + 1)  # sparse: no disk used, nothing to read
    new = home / "tmp" / "app" / "chats" / "session-2026-05-03T10-00-99999999.json"
    with new.open("wb") as f:
        f.truncate(2 * MAX_WHOLE_BYTES)
    reason = "cannot read: {:,} bytes, more than the 256 MB a file read whole may hold"
    problems = (
        "SELECT path, reason FROM problems WHERE line_no IS NULL AND path IN (?, ?) ORDER BY path"
    )
    for more, kept in (((), ""), (("--force",), "; its rows are kept")):
        build(fixture_db, home, more=more)
        assert {k: v for k, v in snapshot(fixture_db).items() if k != "problems"} == before
        own = {m[0] for m in before["messages"] if m[1] == F}
        assert by_file(fixture_db, F) == {str(path): own}
        assert rows(fixture_db, problems, str(path), str(new)) == [
            {"path": str(path), "reason": reason.format(MAX_WHOLE_BYTES + 1) + kept},
            {"path": str(new), "reason": reason.format(2 * MAX_WHOLE_BYTES)},
        ]
