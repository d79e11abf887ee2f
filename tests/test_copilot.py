"""GitHub Copilot CLI's history (pastfix.copilot): its three formats, failures, ids."""

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REAL_CORPUS

from pastfix import agents, copilot, signatures
from pastfix.cli import cli
from pastfix.lines import MAX_WHOLE_BYTES
from pastfix.prepare import prepare
from pastfix.records import SourceFile

DATA = Path(__file__).parent / "data" / "copilot"
HOME = DATA / "home" / ".copilot"
SESSION = "11111111-2222-4333-8444-555555555555"
EVENTS = HOME / "session-state" / SESSION / "events.jsonl"
WORKSPACE = HOME / "session-state" / SESSION / "workspace.yaml"
LEGACY_SESSION = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
LEGACY = HOME / "history-session-state" / f"session_{LEGACY_SESSION}_1759309200000.json"
FLAT_SESSION = "cccccccc-dddd-4eee-8fff-000000000000"
FLAT = HOME / "session-state" / f"{FLAT_SESSION}.jsonl"
REAL_COPILOT = REAL_CORPUS / "other-agents" / "copilot"
needs_real_copilot = pytest.mark.skipif(
    not REAL_COPILOT.is_dir(),
    reason=f"real Copilot CLI sessions not found at {REAL_COPILOT} (../shared beside the project)",
)


@pytest.fixture(autouse=True)
def no_copilot_env(monkeypatch):
    """No test reads a real Copilot folder named by the environment."""
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)


def events(path=EVENTS, session=SESSION, first_line_no=1, skip=0):
    data = b"".join(path.read_bytes().splitlines(keepends=True)[skip:])
    return copilot.parse_lines(data, first_line_no=first_line_no, default_session_id=session)


def results_by_call(batch):
    return {r.tool_use_id.split(":", 1)[1]: r for r in batch.tool_results}


def calls_by_id(batch):
    return {c.tool_use_id.split(":", 1)[1]: c for c in batch.tool_calls}


# -- events JSONL ---------------------------------------------------------------------


def test_events_messages_in_order_with_kinds():
    batch = events()
    assert batch.problems == []
    assert batch.skipped == 1  # session.future_event, a type of a newer Copilot
    assert batch.lines == 34
    rows = [(m.type, m.kind, m.is_meta, m.text[:30]) for m in batch.messages if m.text]
    assert rows == [
        ("user", "prompt", 0, "the tests fail, fix them"),
        ("assistant", "thinking", 0, "Run them to see the error."),
        ("assistant", "text", 0, "I'll run the tests first."),
        ("system", "error", 1, "Sorry, you have been rate-limi"),
        ("user", "prompt", 1, "You have not yet marked the ta"),
        ("user", "compact_summary", 1, "<overview>Fixed the missing re"),
        ("assistant", "text", 0, "The tests pass now: requests w"),
    ]
    summary = next(m for m in batch.messages if m.kind == "compact_summary")
    assert summary.is_compact_summary == 1
    assert next(m for m in batch.messages if m.kind == "text").model == "claude-sonnet-4.6"


def test_events_ids_are_prefixed_unique_and_stable():
    batch = events()
    uuids = [m.uuid for m in batch.messages]
    assert len(uuids) == len(set(uuids))
    assert all(u.startswith(f"{SESSION}:") for u in uuids)
    assert all(c.tool_use_id.startswith(f"{SESSION}:") for c in batch.tool_calls)
    assert [m.uuid for m in events().messages] == uuids
    # every call and result is placed in the conversation by its message row
    by_uuid = {m.uuid: m for m in batch.messages}
    assert {by_uuid[c.message_uuid].kind for c in batch.tool_calls} == {"tool_use"}
    assert {by_uuid[r.message_uuid].kind for r in batch.tool_results} == {"tool_result"}


def test_events_session_meta_from_session_start():
    meta = {(m.key, m.value) for m in events().meta}
    assert meta == {
        ("cwd", "/home/dev/shop"),
        ("git_branch", "main"),
        ("repository", "dev/shop"),
        ("cli_version", "1.0.60"),
        ("producer", "copilot-agent"),
    }


def test_events_failures_and_their_kinds():
    results = results_by_call(events())
    failed = {call: r.content for call, r in results.items() if r.is_error}
    assert failed == {
        "toolu_01": "Exit code 1\nImportError while importing test module 'tests/test_cart.py'.\n"
        "E   ModuleNotFoundError: No module named 'requests'",
        "toolu_02": "The user rejected this tool call.",
        "toolu_03": "Permission denied and could not request permission from user",
        "toolu_05": "Path already exists",
        "toolu_10": "rg: unrecognized file type: py3",
    }
    kinds = {call: signatures.classify(text) for call, text in failed.items()}
    assert kinds == {
        "toolu_01": "error",
        "toolu_02": "rejected",
        "toolu_03": "permission_denied",
        "toolu_05": "error",
        "toolu_10": "error",
    }
    # exit code 0 is a success, and its marker stays as the model saw it
    assert results["toolu_11"].is_error == 0
    assert results["toolu_11"].content == "3 passed in 0.12s\n<exited with exit code 0>"
    assert "toolu_12" not in results


def test_events_tool_calls_fields_and_canonical_edit_keys():
    calls = calls_by_id(events())
    assert calls["toolu_01"].name == "bash"
    assert calls["toolu_01"].command == "pytest -q"
    assert calls["toolu_01"].description == "Run the tests"
    edit = json.loads(calls["toolu_04"].input)
    assert calls["toolu_04"].file_path == "/home/dev/shop/requirements.txt"
    assert edit["old_str"] == edit["old_string"] == "flask\n"
    assert edit["new_str"] == edit["new_string"] == "flask\nrequests\n"
    assert edit["file_path"] == edit["path"]
    create = json.loads(calls["toolu_05"].input)
    assert create["content"] == create["file_text"] == "import sys\n"
    # str_replace_editor's view is a read, stored as Copilot's own `view` tool
    assert calls["toolu_06"].name == "view"
    assert calls["toolu_06"].file_path == "/home/dev/shop/conftest.py"
    insert = json.loads(calls["toolu_07"].input)
    assert (insert["old_string"], insert["new_string"]) == ("", "import os\n")
    patch = calls["call_08"]
    assert patch.name == "apply_patch" and patch.file_path == "/home/dev/shop/cart.py"
    assert json.loads(patch.input)["input"].startswith("*** Begin Patch")
    # a command the person ran with `!`
    assert calls["u-1"].command == "git status"


def test_events_sub_agent_calls_are_a_sidechain():
    batch = events()
    calls = calls_by_id(batch)
    assert (calls["toolu_10"].agent_id, calls["toolu_10"].is_sidechain) == ("toolu_09", 1)
    assert (calls["toolu_09"].agent_id, calls["toolu_09"].is_sidechain) == (None, 0)
    result = results_by_call(batch)["toolu_10"]
    message = next(m for m in batch.messages if m.uuid == result.message_uuid)
    assert (message.agent_id, message.is_sidechain) == ("toolu_09", 1)


def test_events_read_from_an_offset_store_what_a_whole_read_stores():
    whole = events()
    for cut in (1, 5, 9, 20, 33):
        head = events(first_line_no=1, skip=0)
        lines = EVENTS.read_bytes().splitlines(keepends=True)
        head = copilot.parse_lines(
            b"".join(lines[:cut]), first_line_no=1, default_session_id=SESSION
        )
        tail = events(first_line_no=cut + 1, skip=cut)
        assert head.messages + tail.messages == whole.messages
        assert head.tool_calls + tail.tool_calls == whole.tool_calls
        assert head.tool_results + tail.tool_results == whole.tool_results
        assert head.meta + tail.meta == whole.meta


def test_flat_jsonl_prompt_without_its_datetime_tag_and_unknown_version():
    batch = events(FLAT, FLAT_SESSION)
    assert [(m.kind, m.text) for m in batch.messages] == [
        ("prompt", "what does main.py do?"),
        ("text", "It starts the server."),
    ]
    # "unknown" is what the VS Code extension's copy writes: no version
    assert {m.key for m in batch.meta} == {"producer"}


def test_bad_event_lines_are_problems_and_cost_no_neighbour():
    batch = events(DATA / "bad-events.jsonl", None)
    reasons = {p.line_no: p.reason for p in batch.problems}
    assert reasons == {
        2: "malformed JSON: Input data was truncated",
        3: "JSON that is not an object",
        4: "user.message event without a data object",
        5: "user.message event without an id",
        6: "tool.execution_complete without a success flag",
        7: "tool call without a toolCallId",
        8: "invalid UTF-8",
        10: "an event without a type",
    }
    # the session comes from session.start when the file name gave none
    assert [(m.session_id, m.text) for m in batch.messages] == [
        ("99999999-0000-4000-8000-000000000000", "fine")
    ]
    assert all(p.excerpt for p in batch.problems)


def test_a_number_json_cannot_hold_is_a_problem_of_its_line():
    line = b'{"type":"user.message","id":"x","data":{"content":"a","n":1e400}}\n'
    batch = copilot.parse_lines(line, first_line_no=1, default_session_id=SESSION)
    assert [p.reason for p in batch.problems] == ["Number out of range - at `$.data[...]`"]


def test_events_before_any_session_start_without_a_session_are_problems():
    line = b'{"type":"user.message","data":{"content":"hi"},"id":"x"}\n'
    batch = copilot.parse_lines(line, first_line_no=3, default_session_id=None)
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (3, "an event before the session.start that names its session")
    ]


# -- the legacy history-session-state JSON ------------------------------------------------


def legacy():
    return copilot.parse_file(_source(LEGACY, LEGACY_SESSION), LEGACY.read_bytes())


def _source(path, session_id):
    return SourceFile(str(path), session_id, "", None, copilot.AGENT, whole=True)


def test_legacy_timeline_messages_calls_and_problems():
    batch = legacy()
    rows = [(m.type, m.kind, m.text[:25]) for m in batch.messages if m.text]
    assert rows == [
        ("user", "prompt", "deploy it"),
        ("assistant", "text", "jest is not installed; ru"),
        ("system", "error", 'Model call failed: {"mess'),
    ]
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (None, "timeline entry 9: user entry without a text"),
        (None, "timeline entry 10: not an object"),
    ]
    calls = calls_by_id(batch)
    assert list(calls) == ["call_a", "call_b", "call_c", "call_d"]  # call_d: requested only
    assert calls["call_a"].command == "npm run deploy"
    edit = json.loads(calls["call_b"].input)
    assert (edit["file_path"], edit["old_string"], edit["new_string"]) == (
        "/srv/app/deploy.sh",
        "set -e",
        "set -eu",
    )
    assert all(m.uuid.startswith(f"{LEGACY_SESSION}:") for m in batch.messages)


def test_legacy_results_are_what_the_model_got():
    results = results_by_call(legacy())
    assert {call: (r.is_error, r.content) for call, r in results.items()} == {
        # the tool message of chatMessages, not the timeline's log
        "call_a": (
            1,
            "The tool call required approval from the user, but the user rejected it or an"
            " earlier tool call.",
        ),
        "call_b": (
            1,
            "Permission to run this tool was denied due the following rules: write(/srv)",
        ),
        "call_c": (1, "Exit code 1\nError: Cannot find module 'jest'"),
    }
    kinds = [signatures.classify(r.content) for r in results.values()]
    assert kinds == ["rejected", "permission_denied", "error"]


def test_legacy_rejection_without_any_text_gets_copilots_words():
    doc = json.loads(LEGACY.read_text())
    doc["chatMessages"] = []
    batch = copilot.parse_legacy(json.dumps(doc).encode(), LEGACY_SESSION)
    rejected = results_by_call(batch)["call_a"]
    assert rejected.content == copilot.LEGACY_REJECTED
    assert signatures.classify(rejected.content) == "rejected"
    # without chatMessages, a denial's log is its text
    assert results_by_call(batch)["call_b"].content == "Permission denied"


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"{not json", "malformed JSON"),
        (b"[]", "JSON that is not an object"),
        (b'{"sessionId": "s"}', "session file without a timeline list"),
        (b'{"timeline": []}', "session file without a sessionId"),
        (b'{"sessionId": "s\xff", "timeline": []}', "invalid UTF-8"),
    ],
)
def test_bad_legacy_files_are_one_problem(data, reason):
    batch = copilot.parse_legacy(data, None)
    assert len(batch.problems) == 1 and batch.problems[0].reason.startswith(reason)
    assert batch.messages == []


# -- workspace.yaml ---------------------------------------------------------------------


def test_workspace_yaml_gives_cwd_and_the_title_the_person_gave():
    batch = copilot.parse_file(_source(WORKSPACE, SESSION), WORKSPACE.read_bytes())
    assert batch.problems == []
    assert {(m.session_id, m.key, m.value) for m in batch.meta} == {
        (SESSION, "cwd", "/home/dev/shop"),
        (SESSION, "repository", "dev/shop"),
        (SESSION, "custom_title", "Fix: missing requests"),
    }


def test_workspace_yaml_summary_is_a_generated_title_and_values_stay_text():
    text = b"id: s\ncwd: D:\\Source\\app\nsummary: Fix MCP Config File\ncreated_at: 2026-03-20\n"
    batch = copilot.parse_workspace(text, None)
    assert {(m.session_id, m.key, m.value) for m in batch.meta} == {
        ("s", "cwd", "D:\\Source\\app"),
        ("s", "ai_title", "Fix MCP Config File"),
    }


def test_a_lone_surrogate_in_workspace_yaml_is_made_a_replacement_character():
    """YAML reads "\\ud800" as a lone surrogate, which UTF-8 cannot hold: stored as it was,
    it stopped the file's read with a UnicodeEncodeError (a security test, session 33)."""
    text = b'id: "s\\U0000dc00"\ncwd: /x\nsummary: "Fix \\ud800 MCP"\n'
    batch = copilot.parse_workspace(text, None)
    assert batch.problems == []
    assert {(m.session_id, m.key, m.value) for m in batch.meta} == {
        ("s\ufffd", "cwd", "/x"),
        ("s\ufffd", "ai_title", "Fix \ufffd MCP"),
    }


def test_a_lone_surrogate_in_workspace_yaml_costs_no_row_of_its_session(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(DATA / "home", home)
    workspace = home / ".copilot" / "session-state" / SESSION / "workspace.yaml"
    workspace.write_text(workspace.read_text().replace("missing requests", "missing \\ud83d"))
    db_path = tmp_path / "index.db"
    build(db_path, "--source", home, "-s")
    assert rows(db_path, "select reason from problems where path = ?", str(workspace)) == []
    assert rows(db_path, "select title from sessions where session_id = ?", SESSION) == [
        ("Fix: missing \ufffd",)
    ]


@pytest.mark.parametrize(
    "data, reason",
    [
        ((DATA / "bad-workspace.yaml").read_bytes(), "malformed YAML"),
        (b"- a\n- b\n", "workspace.yaml is not a mapping"),
        (b"cwd: /x\n", "workspace.yaml without an id"),
        (b"id: s\ncwd: caf\xff\n", "invalid UTF-8"),
    ],
)
def test_bad_workspace_yaml_is_a_problem(data, reason):
    batch = copilot.parse_workspace(data, None)
    assert len(batch.problems) == 1 and batch.problems[0].reason.startswith(reason)
    assert batch.meta == []


def test_a_problems_reason_that_quotes_its_line_is_redacted():
    # (PyYAML names an undefined alias as written; a Copilot event names its type)
    token = "ghp_Zq8vN2kL5mR7tX1wY4bCa1B2c3D4e5F6g7H8"
    yaml_batch = prepare(copilot.parse_workspace(f"id: s\ncwd: *{token}\n".encode(), None))
    line = json.dumps({"type": f"x.{token}", "id": "e1", "timestamp": "2026-04-01T10:00:00Z"})
    events = prepare(
        copilot.parse_lines(f"{line}\n".encode(), first_line_no=1, default_session_id="s")
    )
    for batch, reason in ((yaml_batch, "malformed YAML"), (events, "x.")):
        (problem,) = batch.problems
        assert problem.reason.startswith(reason) and "[REDACTED:github-token]" in problem.reason
        assert token not in problem.reason and token not in problem.excerpt
        assert {r.column_name for r in batch.redactions} >= {"reason"}


# -- where the files are ------------------------------------------------------------------


def test_home_honours_copilot_home(monkeypatch, fake_home):
    assert copilot.home() == fake_home / ".copilot"
    monkeypatch.setenv("COPILOT_HOME", str(fake_home / "elsewhere"))
    assert copilot.home() == fake_home / "elsewhere"
    monkeypatch.setenv("XDG_STATE_HOME", str(fake_home / "state"))
    assert copilot.default_folders() == [fake_home / "elsewhere", fake_home / "state" / ".copilot"]


def test_iter_source_files_finds_every_format_from_any_level():
    expected = [
        (str(LEGACY), LEGACY_SESSION, True),
        (str(EVENTS), SESSION, False),
        (str(WORKSPACE), SESSION, True),
        (str(FLAT), FLAT_SESSION, False),
    ]
    for root in (DATA, DATA / "home", HOME):
        found = [(s.path, s.session_id, s.whole) for s in copilot.iter_source_files(root)]
        assert sorted(found) == sorted(expected), root
        assert {s.agent for s in copilot.iter_source_files(root)} == {"copilot"}
    only = list(copilot.iter_source_files(HOME / "session-state" / SESSION))
    assert [s.path for s in only] == [str(EVENTS), str(WORKSPACE)]


def test_holds(tmp_path):
    assert copilot.holds(HOME)
    assert not copilot.holds(DATA / "home")  # a home folder: found below by agents.agent_of
    assert copilot.holds(HOME / "session-state")
    assert copilot.holds(HOME / "history-session-state")
    assert not copilot.holds(tmp_path)
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "s.jsonl").write_text("{}\n")
    assert not copilot.holds(tmp_path)


# -- the build: sessions, counts, find, incremental reads ----------------------------------


def build(*args):
    result = CliRunner().invoke(cli, ["build", *map(str, args)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def rows(db_path, sql, *params):
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def counts(db_path):
    """Each session's messages, calls, results and failures, as the index holds them."""
    return {
        sid: (messages, calls, results, failed)
        for sid, messages, calls, results, failed in rows(
            db_path,
            "select s.session_id, s.message_count, s.tool_call_count,"
            " (select count(*) from tool_results r where r.session_id = s.session_id),"
            " s.tool_error_count from sessions s order by s.session_id",
        )
    }


def by_file(db_path):
    """The uuids of the stored messages, by the path of the file that holds them."""
    found: dict[str, set[str]] = {}
    for path, uuid in rows(
        db_path,
        "select f.path, m.uuid from messages m join source_files f on f.id = m.file_id",
    ):
        found.setdefault(path, set()).add(uuid)
    return found


def stored(db_path):
    """Every row a build stores of the transcripts, without the file ids."""
    return {
        "messages": rows(
            db_path,
            "select uuid, session_id, line_no, type, kind, timestamp, text, is_meta,"
            " is_sidechain, agent_id from messages order by uuid",
        ),
        "tool_calls": rows(
            db_path,
            "select tool_use_id, name, command, file_path, input from tool_calls order by 1",
        ),
        "tool_results": rows(
            db_path,
            "select tool_use_id, is_error, content, signature, kind from tool_results order by 1",
        ),
        "meta": rows(db_path, "select session_id, key, value from session_meta order by 1, 2, 3"),
        "sessions": rows(
            db_path,
            "select session_id, agent, project, title, version, git_branch, message_count,"
            " tool_call_count, tool_error_count from sessions order by 1",
        ),
    }


# Per session of the real corpus: PROVENANCE.md's tool calls and failures (`success:
# false` / `result.type: failure`), and what pastfix adds: a call started and never
# completed, and a command that exited non-zero (a success for Copilot).
REAL_SESSIONS = {
    # session: (calls listed, failures listed, calls never completed, exit-code failures)
    "076dfd18-c092-4221-bb1e-efdf478eff3d": (9, 3, 0, 0),
    "e02997e2-e7e7-46ae-8027-b1a73e0cb908": (17, 2, 0, 0),
    "27d7ef99-f7c7-43eb-8599-cb469623c8f7": (27, 1, 1, 0),
    "8baa78ec-b203-4c7f-b1d3-c1170ae84b7d": (268, 6, 1, 3),
}


@needs_real_copilot
def test_real_corpus_every_session_call_and_failure_provenance_lists(tmp_path):
    assert agents.agent_of(REAL_COPILOT) == "copilot"
    db_path = tmp_path / "index.db"
    build(db_path, "--source", REAL_COPILOT, "-s")
    found = counts(db_path)
    assert set(found) == set(REAL_SESSIONS)
    for sid, (calls, failures, open_calls, exit_codes) in REAL_SESSIONS.items():
        _, stored_calls, results, failed = found[sid]
        assert (stored_calls, results, failed) == (
            calls + open_calls,
            calls,
            failures + exit_codes,
        ), sid
        listed = rows(
            db_path,
            "select count(*) from tool_results where session_id = ? and is_error = 1"
            " and content not like 'Exit code %'",
            sid,
        )
        assert listed == [(failures,)], sid
    assert rows(db_path, "select distinct agent from sessions") == [("copilot",)]
    assert rows(db_path, "select count(*) from problems") == [(0,)]
    assert rows(
        db_path,
        "select project, title, version, git_branch from sessions where session_id = ?",
        "8baa78ec-b203-4c7f-b1d3-c1170ae84b7d",
    ) == [
        (
            "D:\\Source\\GitHub\\agent-engram",
            "Fix MCP Config File",
            "1.0.10",
            "007-agent-engineering-refactor",
        )
    ]


@needs_real_copilot
def test_find_a_real_copilot_failure_shows_its_session_and_agent(tmp_path):
    db_path = tmp_path / "index.db"
    build(db_path, "--source", REAL_COPILOT, "-s")
    found = CliRunner().invoke(cli, ["find", "rg: unrecognized file type: rs", str(db_path)])
    assert found.exit_code == 0, found.output
    assert "grep (GitHub Copilot CLI) failed" in found.output
    assert "copilot --resume 8baa78ec-b203-4c7f-b1d3-c1170ae84b7d" in found.output
    legacy = CliRunner().invoke(cli, ["find", "pty.node: invalid ELF header", str(db_path)])
    assert "(GitHub Copilot CLI)" in legacy.output
    assert "copilot --resume 076dfd18-c092-4221-bb1e-efdf478eff3d" in legacy.output


def test_fixture_home_sessions_rows(tmp_path):
    db_path = tmp_path / "index.db"
    build(db_path, "--source", DATA / "home", "-s")
    assert stored(db_path)["sessions"] == [
        (
            SESSION,
            "copilot",
            "/home/dev/shop",
            "Fix: missing requests",
            "1.0.60",
            "main",
            31,
            12,
            5,
        ),
        (LEGACY_SESSION, "copilot", None, "deploy it", None, None, 10, 4, 3),
        (FLAT_SESSION, "copilot", None, "what does main.py do?", None, None, 2, 0, 0),
    ]
    kinds = dict(rows(db_path, "select tool_use_id, kind from tool_results where is_error = 1"))
    assert kinds[f"{SESSION}:toolu_02"] == "rejected"
    assert kinds[f"{SESSION}:toolu_03"] == "permission_denied"
    assert kinds[f"{LEGACY_SESSION}:call_a"] == "rejected"
    assert kinds[f"{SESSION}:toolu_01"] == "error"
    # problems of the legacy file are recorded, not raised
    assert rows(db_path, "select reason from problems order by reason") == [
        ("timeline entry 10: not an object",),
        ("timeline entry 9: user entry without a text",),
    ]


def _events_sources():
    sources = [pytest.param(EVENTS, SESSION, id="fixture")]
    real = REAL_COPILOT / "softwaresalt+agent-engram" / ".copilot" / "session-state"
    real_id = "8baa78ec-b203-4c7f-b1d3-c1170ae84b7d"
    sources.append(
        pytest.param(
            real / real_id / "events.jsonl",
            real_id,
            id="real",
            marks=needs_real_copilot,
        )
    )
    return sources


@pytest.mark.parametrize("events_file, session_id", _events_sources())
def test_appended_events_are_read_from_the_offset_and_store_what_a_fresh_build_does(
    tmp_path, events_file, session_id
):
    lines = events_file.read_bytes().splitlines(keepends=True)
    home = tmp_path / "home" / ".copilot" / "session-state" / session_id
    home.mkdir(parents=True)
    grown = home / "events.jsonl"
    cut = len(lines) * 2 // 3
    grown.write_bytes(b"".join(lines[:cut]))
    db_path = tmp_path / "index.db"
    build(db_path, "--source", tmp_path / "home", "-s")
    with grown.open("ab") as f:
        f.write(b"".join(lines[cut:]))
    again = json.loads(build(db_path, "--source", tmp_path / "home", "--json", "-s").stdout)
    assert again["mode"] != "fresh"
    # only the appended bytes were read
    assert again["bytes_read"] == len(b"".join(lines[cut:]))
    fresh = tmp_path / "fresh.db"
    build(fresh, "--source", tmp_path / "home", "-s")
    assert stored(db_path) == stored(fresh)


def test_a_rewound_events_file_is_read_again_whole(tmp_path):
    # A rewind (truncateToEvent) rewrites events.jsonl with the events before the one
    # rewound to; the session then goes on, appending again.
    folder = tmp_path / "home" / ".copilot" / "session-state" / SESSION
    folder.mkdir(parents=True)
    events_file = folder / "events.jsonl"
    lines = EVENTS.read_bytes().splitlines(keepends=True)
    events_file.write_bytes(b"".join(lines))
    db_path = tmp_path / "index.db"
    build(db_path, "--source", tmp_path / "home", "-s")
    before = stored(db_path)
    event = {"type": "user.message", "id": "after-rewind", "data": {"content": "try again"}}
    events_file.write_bytes(b"".join(lines[:8]) + json.dumps(event).encode() + b"\n")
    build(db_path, "--source", tmp_path / "home", "-s")
    fresh = tmp_path / "fresh.db"
    build(fresh, "--source", tmp_path / "home", "-s")
    # the file's rows are what a fresh build reads; those the rewind dropped are kept beside
    assert by_file(db_path)[str(events_file)] == by_file(fresh)[str(events_file)]
    kept = by_file(db_path)[f"{events_file}#{SESSION}"]
    assert kept and not kept & by_file(fresh)[str(events_file)]
    after = stored(db_path)
    for table in ("tool_calls", "tool_results"):
        assert set(before[table]) <= set(after[table])
    prompts = rows(
        db_path,
        "select m.text from messages m join source_files f on f.id = m.file_id"
        " where m.kind = 'prompt' and f.path = ? order by m.line_no",
        str(events_file),
    )
    assert prompts == [("the tests fail, fix them",), ("try again",)]


def test_a_rewritten_legacy_session_is_reindexed_whole(tmp_path):
    store = tmp_path / "home" / ".copilot" / "history-session-state"
    store.mkdir(parents=True)
    copy = store / LEGACY.name
    copy.write_bytes(LEGACY.read_bytes())
    db_path = tmp_path / "index.db"
    build(db_path, "--source", tmp_path / "home", "-s")
    assert counts(db_path)[LEGACY_SESSION] == (10, 4, 3, 3)
    # Copilot rewrites the file whole: here with the failed npm test and the last
    # entries gone, and the prompt changed
    doc = json.loads(LEGACY.read_text())
    doc["timeline"] = [e for e in doc["timeline"][:4] if isinstance(e, dict)]
    doc["timeline"][1]["text"] = "deploy it now"
    copy.write_text(json.dumps(doc, indent=2))
    build(db_path, "--source", tmp_path / "home", "-s")
    fresh = tmp_path / "fresh.db"
    build(fresh, "--source", tmp_path / "home", "-s")
    assert counts(fresh)[LEGACY_SESSION] == (5, 2, 2, 2)
    # what the file holds is its new content (the prompt changed: the same id, replaced);
    # the entries it lost, the failed npm test among them, are kept beside it
    assert by_file(db_path)[str(copy)] == by_file(fresh)[str(copy)]
    assert by_file(db_path)[f"{copy}#{LEGACY_SESSION}"]
    assert counts(db_path)[LEGACY_SESSION] == (10, 4, 3, 3)
    assert rows(db_path, "select text from messages where kind = 'prompt'") == [("deploy it now",)]
    assert rows(db_path, "select count(*) from problems") == [(0,)]


def test_a_changed_workspace_yaml_is_read_again_alone(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(DATA / "home", home)
    db_path = tmp_path / "index.db"
    build(db_path, "--source", home, "-s")
    workspace = home / ".copilot" / "session-state" / SESSION / "workspace.yaml"
    workspace.write_text(workspace.read_text().replace("Fix: missing requests", "Renamed"))
    again = json.loads(build(db_path, "--source", home, "--json", "-s").stdout)
    assert again["files_read"] == 1 and again["bytes_read"] == workspace.stat().st_size
    assert rows(db_path, "select title from sessions where session_id = ?", SESSION) == [
        ("Renamed",)
    ]
    fresh = tmp_path / "fresh.db"
    build(fresh, "--source", home, "-s")
    assert stored(db_path) == stored(fresh)


def test_a_legacy_session_or_workspace_yaml_grown_too_large_is_not_read_and_keeps_its_rows(
    tmp_path,
):
    """Copilot's legacy session JSON and workspace.yaml are read whole, held in memory: one
    over MAX_WHOLE_BYTES (a sparse or dumped file) is a problem, never read, and the rows
    it gave stay its own; the session's events.jsonl, read by lines, is read as usual."""
    home = tmp_path / "home"
    shutil.copytree(DATA / "home", home)
    db_path = tmp_path / "index.db"
    build(db_path, "--source", home, "-s")
    before = stored(db_path)
    legacy = home / ".copilot" / "history-session-state" / LEGACY.name
    workspace = home / ".copilot" / "session-state" / SESSION / "workspace.yaml"
    for path in (legacy, workspace):
        with path.open("r+b") as f:
            f.truncate(MAX_WHOLE_BYTES + 1)  # sparse: no disk used
    build(db_path, "--source", home, "-s")
    assert stored(db_path) == before
    assert by_file(db_path)[str(legacy)] and f"{legacy}#{LEGACY_SESSION}" not in by_file(db_path)
    too_large = f"cannot read: {MAX_WHOLE_BYTES + 1:,} bytes, more than the 256 MB a file"
    assert rows(db_path, "select path, reason from problems where reason like 'cannot read:%'") == [
        (str(legacy), f"{too_large} read whole may hold"),
        (str(workspace), f"{too_large} read whole may hold"),
    ]


def test_default_sources_and_agent_option_read_copilot_home(tmp_path, fake_home, monkeypatch):
    shutil.copytree(HOME, fake_home / ".copilot")
    assert agents.default_sources("copilot") == [fake_home / ".copilot"]
    assert fake_home / ".copilot" in agents.default_sources()
    db_path = tmp_path / "index.db"
    build(db_path, "--agent", "copilot", "-s")
    assert len(counts(db_path)) == 3
    moved = tmp_path / "elsewhere"
    shutil.move(fake_home / ".copilot", moved)
    monkeypatch.setenv("COPILOT_HOME", str(moved))
    assert agents.default_sources("copilot") == [moved]


# -- the failure hook (postToolUseFailure) ---------------------------------------------------

ERROR = (
    "ImportError while importing test module 'tests/test_api.py'.\n"
    "E   ModuleNotFoundError: No module named 'requests'"
)


def failure_event(error=ERROR, session="99999999-aaaa-4bbb-8ccc-dddddddddddd"):
    """A postToolUseFailure event as Copilot CLI 1.0.60 writes it on the hook's stdin."""
    return {
        "sessionId": session,
        "timestamp": 1775037600000,
        "cwd": "/home/dev/api",
        "toolName": "bash",
        "toolArgs": {"command": "pytest -q", "description": "Run the tests"},
        "error": error,
    }


@pytest.fixture
def indexed(tmp_path):
    db_path = tmp_path / "index.db"
    build(db_path, "--source", DATA / "home", "-s")
    return db_path


def test_hook_recalls_a_copilot_fix_as_additional_context(indexed):
    from pastfix import hook

    answer = json.loads(hook.run(json.dumps(failure_event()), indexed, agent="copilot"))
    assert list(answer) == ["additionalContext"]
    context = answer["additionalContext"]
    assert f"session {SESSION} (copilot --resume {SESSION})" in context
    assert "fix: edited" in context and "requirements.txt" in context


@pytest.mark.parametrize(
    "event",
    [
        failure_event(session=SESSION),  # its own session's failure
        failure_event("The user rejected this tool call."),
        failure_event("Permission denied and could not request permission from user"),
        failure_event("Exit code 1"),  # too generic to mean anything
        failure_event(""),
        {**failure_event(), "error": None},
        {k: v for k, v in failure_event().items() if k != "error"},  # postToolUse's input
        {**failure_event(), "hook_event_name": "PostToolUse"},
    ],
)
def test_hook_is_silent_when_unsure(indexed, event):
    from pastfix import hook

    assert hook.run(json.dumps(event), indexed, agent="copilot") == ""


def test_hook_reads_the_pascal_case_form_too(indexed):
    from pastfix import hook

    event = {
        "hook_event_name": "PostToolUseFailure",
        "session_id": "other",
        "timestamp": "2026-04-01T10:00:00.000Z",
        "cwd": "/x",
        "tool_name": "bash",
        "tool_input": {"command": "pytest"},
        "error": ERROR,
    }
    answer = json.loads(hook.run(json.dumps(event), indexed, agent="copilot"))
    assert SESSION in answer["additionalContext"]


def test_hook_install_writes_copilots_hooks_file_and_its_command_answers(
    indexed, fake_home, tmp_path
):
    result = CliRunner().invoke(
        cli, ["hook", "install", "--agent", "copilot", "--db", str(indexed)]
    )
    assert result.exit_code == 0, result.output
    hooks_file = fake_home / ".copilot" / "hooks" / "pastfix.json"
    assert f"to {hooks_file}" in result.output
    settings = json.loads(hooks_file.read_text())
    assert settings["version"] == 1
    assert sorted(settings["hooks"]) == ["postToolUseFailure", "sessionEnd"]
    [recall] = settings["hooks"]["postToolUseFailure"]
    assert recall["type"] == "command" and recall["timeoutSec"] == 10
    assert "hook --db" in recall["bash"] and "--agent copilot" in recall["bash"]
    [refresh] = settings["hooks"]["sessionEnd"]
    assert f"--source {fake_home / '.copilot'}" in refresh["bash"]
    # the command as Copilot runs it: `bash -c`, the event on stdin
    ran = subprocess.run(
        ["bash", "-c", recall["bash"]],
        input=json.dumps(failure_event()),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert SESSION in json.loads(ran.stdout)["additionalContext"]
    # again: replaced, not added twice
    CliRunner().invoke(cli, ["hook", "install", "--agent", "copilot", "--db", str(indexed)])
    assert json.loads(hooks_file.read_text()) == settings
    result = CliRunner().invoke(cli, ["hook", "uninstall", "--agent", "copilot"])
    assert result.exit_code == 0 and not hooks_file.exists()
    result = CliRunner().invoke(cli, ["hook", "uninstall", "--agent", "copilot"])
    assert "No pastfix hook in" in result.output


def test_hook_install_into_a_repos_hooks_file_keeps_its_other_hooks(indexed, tmp_path):
    hooks_file = tmp_path / ".github" / "hooks" / "checks.json"
    hooks_file.parent.mkdir(parents=True)
    theirs = {"type": "command", "bash": "./scripts/lint.sh", "timeoutSec": 30}
    hooks_file.write_text(
        json.dumps({"version": 1, "hooks": {"postToolUseFailure": [theirs], "agentStop": [theirs]}})
    )
    args = ["--agent", "copilot", "--settings", str(hooks_file)]
    assert CliRunner().invoke(cli, ["hook", "install", *args, "--db", str(indexed)]).exit_code == 0
    hooks = json.loads(hooks_file.read_text())["hooks"]
    assert hooks["postToolUseFailure"][0] == theirs and len(hooks["postToolUseFailure"]) == 2
    assert hooks["agentStop"] == [theirs]
    assert CliRunner().invoke(cli, ["hook", "uninstall", *args]).exit_code == 0
    assert json.loads(hooks_file.read_text()) == {
        "version": 1,
        "hooks": {"postToolUseFailure": [theirs], "agentStop": [theirs]},
    }


def test_hook_install_refuses_a_broken_hooks_file(tmp_path):
    hooks_file = tmp_path / "hooks.json"
    hooks_file.write_text("{not json")
    result = CliRunner().invoke(
        cli, ["hook", "install", "--agent", "copilot", "--settings", str(hooks_file)]
    )
    assert result.exit_code == 1
    assert "is not valid JSON" in result.output and "Traceback" not in result.output


# -- copies, secrets ---------------------------------------------------------------------


def test_a_copy_of_a_session_is_stored_once(tmp_path):
    copy = tmp_path / "backup" / ".copilot"
    shutil.copytree(HOME, copy)
    db_path = tmp_path / "index.db"
    build(db_path, "--source", DATA / "home", "--source", tmp_path / "backup", "-s")
    one = tmp_path / "one.db"
    build(one, "--source", DATA / "home", "-s")
    assert counts(db_path) == counts(one)
    assert stored(db_path)["messages"] == stored(one)["messages"]


def test_secrets_in_copilot_events_are_redacted(tmp_path):
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    folder = tmp_path / "home" / ".copilot" / "session-state" / SESSION
    folder.mkdir(parents=True)
    lines = EVENTS.read_bytes().replace(b"pip install requests", f"echo {token}".encode())
    (folder / "events.jsonl").write_bytes(lines)
    db_path = tmp_path / "index.db"
    build(db_path, "--source", tmp_path / "home", "-s")
    conn = sqlite3.connect(db_path)
    dump = "\n".join(conn.iterdump())
    conn.close()
    assert token not in dump
    assert "[REDACTED:" in dump


# -- fuzzing: mutated real events and documents never raise, never cost a neighbour ------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


def _sample_lines(limit=300):
    """Lines of every event type: the fixtures', and the real sessions' when present."""
    paths = [EVENTS, FLAT]
    if REAL_COPILOT.is_dir():
        paths += sorted(REAL_COPILOT.rglob("*.jsonl"))
    found, seen = [], set()
    for path in paths:
        for line in path.read_bytes().splitlines():
            kind = json.loads(line).get("type")
            if 2 < len(line) < 20_000 and (kind not in seen or len(found) < limit // 2):
                seen.add(kind)
                found.append(line)
    return found[:limit]


SAMPLE_LINES = _sample_lines()
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


def _mutate(draw, value):
    """`value` (a JSON object) with one of its fields, at any depth, replaced."""
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        if draw(st.booleans()):
            return {**value, key: draw(JSON_VALUES)}
        return {**value, key: _mutate(draw, value[key])}
    if isinstance(value, list) and value:
        at = draw(st.integers(0, len(value) - 1))
        return [*value[:at], _mutate(draw, value[at]), *value[at + 1 :]]
    return draw(JSON_VALUES)


@st.composite
def mutated_lines(draw):
    line = draw(st.sampled_from(SAMPLE_LINES))
    how = draw(st.sampled_from(["truncate", "retype", "bad utf-8", "surrogate", "nest"]))
    if how == "truncate":
        return line[: draw(st.integers(0, len(line)))]
    if how == "bad utf-8":
        at = draw(st.integers(0, len(line)))
        return line[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + line[at:]
    if how == "surrogate":
        at = draw(st.integers(0, len(line)))
        return line[:at] + draw(st.sampled_from([b"\\ud83d", b"\\udc00"])) + line[at:]
    if how == "nest":
        depth = draw(st.integers(1, 5000))
        return line[:-1] + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"
    return json.dumps(_mutate(draw, json.loads(line))).encode()


def _good(event_id):
    event = {"type": "user.message", "id": event_id, "data": {"content": event_id}}
    return json.dumps(event).encode()


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(mutated_lines())
def test_mutated_events_never_raise_nor_cost_their_neighbours(bad):
    bad = bad.replace(b"\n", b" ")
    data = _good("before") + b"\n" + bad + b"\n" + _good("after") + b"\n"
    batch = copilot.parse_lines(data, first_line_no=1, default_session_id=SESSION)
    uuids = [m.uuid for m in batch.messages]
    assert uuids[0] == f"{SESSION}:before" and uuids[-1] == f"{SESSION}:after"
    assert batch.lines == 3
    assert all(p.line_no == 2 for p in batch.problems) and len(batch.problems) <= 1


@hypothesis.settings(max_examples=100, deadline=None)
@hypothesis.given(st.data())
def test_a_mutated_legacy_entry_never_raises_nor_costs_the_others(data):
    doc = json.loads(LEGACY.read_text())
    whole = copilot.parse_legacy(LEGACY.read_bytes(), LEGACY_SESSION)
    at = data.draw(st.integers(0, len(doc["timeline"]) - 1))
    doc["timeline"][at] = _mutate(data.draw, doc["timeline"][at])
    batch = copilot.parse_legacy(json.dumps(doc).encode(), LEGACY_SESSION)
    others = [m for m in whole.messages if m.line_no != at + 1]
    assert [m for m in batch.messages if m.line_no != at + 1] == others
    assert len(batch.problems) <= len(whole.problems) + 1


@hypothesis.settings(max_examples=100, deadline=None)
@hypothesis.given(st.data())
def test_a_mutated_or_cut_legacy_document_never_raises(data):
    raw = json.dumps(_mutate(data.draw, json.loads(LEGACY.read_text()))).encode()
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    batch = copilot.parse_legacy(raw, None)
    assert batch.messages or batch.problems or batch.tool_calls == []


@hypothesis.settings(max_examples=100, deadline=None)
@hypothesis.given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_workspace_yaml_never_raises(data):
    batch = copilot.parse_workspace(b"id: s\n" + data, None)
    assert all(m.session_id for m in batch.meta)
    for meta in batch.meta:  # what SQLite can bind: UTF-8
        (meta.session_id + meta.value).encode()
