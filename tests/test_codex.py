"""The Codex CLI reader: rollout lines to records, and the failure rule."""

import sqlite3
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, REAL_CORPUS
from corpus import CODEX_AGENT_MESSAGES

from pastfix import build as pbuild
from pastfix import codex, queries
from pastfix.records import Message, SessionMeta, SourceFile, ToolCall, ToolResult

CODEX = FIXTURES / "codex"
SESSIONS = CODEX / "sessions"
SESSION = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
SESSION_FILE = SESSIONS / "2026/03/01" / f"rollout-2026-03-01T10-00-00-{SESSION}.jsonl"
SHAPES = "0195a1b2-c3d4-7e5f-8a6b-000000000002"
SHAPES_FILE = CODEX / "shapes" / f"rollout-2026-03-02T09-00-00-{SHAPES}.jsonl"
REAL_CODEX = REAL_CORPUS / "codex" / "sessions"
PERMISSIONS = "<permissions instructions>sandboxed</permissions instructions>"
ENVIRONMENT = "<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>"
RENAMING = "The script is misspelled as tst in package.json; renaming it."


def parse(path: Path, session_id: str | None, first_line_no: int = 1, skip: int = 0):
    data = b"".join(path.read_bytes().splitlines(keepends=True)[skip:])
    return codex.parse_lines(data, first_line_no=first_line_no, default_session_id=session_id)


def test_iter_source_files_takes_the_session_from_the_file_name(tmp_path):
    (tmp_path / "2026/03/01").mkdir(parents=True)
    (tmp_path / "2026/03/01/notes.jsonl").write_text("{}\n")
    assert list(codex.iter_source_files(SESSIONS)) == [
        SourceFile(str(SESSION_FILE), SESSION, "", None, "codex")
    ]
    assert list(codex.iter_source_files(tmp_path)) == []


def test_is_sessions_folder():
    assert codex.is_sessions_folder(SESSIONS)
    assert codex.is_sessions_folder(SESSIONS / "2026")
    assert codex.is_sessions_folder(CODEX / "shapes")
    assert not codex.is_sessions_folder(FIXTURES / "projects")
    assert not codex.is_sessions_folder(FIXTURES / "nowhere")


def test_a_session_as_records():
    batch = parse(SESSION_FILE, SESSION)
    assert batch.problems == []
    assert batch.skipped == 0
    assert batch.lines == 22
    meta = {m.key: m.value for m in batch.meta}
    assert meta == {
        "cwd": "/home/dev/shop",
        "cli_version": "0.104.0",
        "git_branch": "fix-tests",
        "git_commit": "4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c",
        "originator": "codex_cli_rs",
    }
    assert batch.meta[0] == SessionMeta(SESSION, 1, "cwd", "/home/dev/shop")
    # event_msg copies (user_message, agent_reasoning, agent_message) are not messages
    kinds = [(m.line_no, m.type, m.kind, m.is_meta, m.text) for m in batch.messages]
    assert kinds == [
        (
            2,
            "system",
            "developer",
            1,
            "<permissions instructions>sandboxed</permissions instructions>",
        ),
        (
            3,
            "user",
            "prompt",
            1,
            "<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>",
        ),
        (5, "user", "prompt", 0, "Make the test suite pass"),
        (9, "assistant", "thinking", 0, "**Running the tests first**"),
        (11, "assistant", "text", 0, "Running the test suite."),
        (12, "assistant", "tool_use", 0, ""),
        (14, "user", "tool_result", 0, ""),
        (
            15,
            "assistant",
            "text",
            0,
            "The script is misspelled as tst in package.json; renaming it.",
        ),
        (16, "assistant", "tool_use", 0, ""),
        (17, "user", "tool_result", 0, ""),
        (18, "assistant", "tool_use", 0, ""),
        (19, "user", "tool_result", 0, ""),
        (21, "assistant", "text", 0, "Fixed: the test script was named tst."),
    ]
    assert batch.messages[4] == Message(
        uuid=f"{SESSION}:11",
        session_id=SESSION,
        line_no=11,
        parent_uuid=None,
        type="assistant",
        kind="text",
        timestamp="2026-03-01T10:00:04.000Z",
        text="Running the test suite.",
        is_sidechain=0,
        is_meta=0,
        is_compact_summary=0,
        agent_id=None,
        model=None,
        cwd=None,
        git_branch=None,
        version=None,
    )
    assert batch.tool_calls[0] == ToolCall(
        tool_use_id="call_npmtest1",
        session_id=SESSION,
        line_no=12,
        message_uuid=f"{SESSION}:12",
        timestamp="2026-03-01T10:00:05.000Z",
        name="shell",
        command="npm test",
        file_path=None,
        description=None,
        input='{"command": ["bash", "-lc", "npm test"], "workdir": "/home/dev/shop",'
        ' "timeout_ms": 120000}',
        agent_id=None,
        is_sidechain=0,
    )
    assert [(c.name, c.command, c.file_path) for c in batch.tool_calls] == [
        ("shell", "npm test", None),
        ("apply_patch", None, "package.json"),
        ("shell", "npm test", None),
    ]
    assert batch.tool_results[0] == ToolResult(
        tool_use_id="call_npmtest1",
        session_id=SESSION,
        line_no=14,
        message_uuid=f"{SESSION}:14",
        timestamp="2026-03-01T10:00:06.000Z",
        is_error=1,
        content='Exit code 1\nnpm ERR! Missing script: "test"\nnpm ERR! To see a list of scripts,'
        " run:\nnpm ERR!   npm run",
        content_length=102,
    )
    assert [r.is_error for r in batch.tool_results] == [1, 0, 0]


# The failure rule, one hand-written output of each shape (tests/fixtures/codex/shapes).
SHAPE_RESULTS = [
    # call id, tool, command, is_error, stored content (start)
    ("call_structured_ok", "shell", "ls -la 'my dir'", 0, "total 0"),
    ("call_structured_fail", "shell", "cat config.yml", 1, "Exit code 1\ncat: config.yml: No such"),
    (
        "call_text_fail",
        "shell_command",
        "python -m pytest -x",
        1,
        "Exit code 1\nE   ModuleNotFound",
    ),
    ("call_text_ok", "shell_command", "echo ok", 0, "ok"),
    (
        "call_exec_fail",
        "exec_command",
        "uvicorn app:app --port 8000",
        1,
        "Exit code 1\nERROR:    [Errno 98]",
    ),
    ("call_exec_running", "exec_command", "uvicorn app:app --port 8001", 0, "INFO:     Started"),
    # polls the process call_exec_running left running: its command
    ("call_stdin_ok", "write_stdin", "uvicorn app:app --port 8001", 0, "Shutdown"),
    ("call_mcp_error", "mcp__db__query", None, 1, 'relation "users" does not exist'),
    ("call_mcp_ok", "mcp__db__query", None, 0, "1"),
    ("call_mcp_err", "mcp__db__tables", None, 1, "err: tool call failed"),
    ("call_bad_args", "shell", None, 1, "failed to parse function arguments"),
    ("call_patch_fail", "apply_patch", None, 1, "apply_patch verification failed"),
    ("call_shell_patch", "apply_patch", None, 0, "Success. Updated the following files:\nA req"),
    (
        "call_local",
        "local_shell",
        "pip install -r requirements.txt",
        1,
        "Exit code 1\nERROR: Could",
    ),
]


def test_each_output_shape_and_the_failure_rule():
    batch = parse(SHAPES_FILE, SHAPES)
    calls = {c.tool_use_id: c for c in batch.tool_calls}
    got = [
        (r.tool_use_id, calls[r.tool_use_id].name, calls[r.tool_use_id].command, r.is_error)
        for r in batch.tool_results
    ]
    assert got == [row[:4] for row in SHAPE_RESULTS]
    for result, (*_, start) in zip(batch.tool_results, SHAPE_RESULTS, strict=True):
        assert result.content.startswith(start), result
    assert calls["call_patch_fail"].file_path == "app.py"
    assert calls["call_shell_patch"].file_path == "requirements.txt"


def test_bad_and_unknown_lines():
    batch = parse(SHAPES_FILE, SHAPES)
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (33, "malformed JSON: Input data was truncated"),
        (34, "JSON array, not an object"),
        (35, "function_call_output without a call_id"),
    ]
    assert batch.skipped == 1  # future_line, a line type of a newer Codex
    assert [c.name for c in batch.tool_calls if c.line_no == 31] == ["web_search"]
    assert batch.messages[-1].kind == "compact_summary"
    assert batch.messages[-1].is_compact_summary == 1


def test_a_read_from_an_offset_uses_the_file_names_session():
    # A later build reads on from line 12: the session_meta line is not read again.
    batch = parse(SESSION_FILE, SESSION, first_line_no=12, skip=11)
    assert batch.problems == []
    assert {m.session_id for m in batch.messages} == {SESSION}
    assert batch.messages[0].uuid == f"{SESSION}:12"
    assert batch.meta == []
    assert [r.tool_use_id for r in batch.tool_results] == [
        "call_npmtest1",
        "call_patch1",
        "call_npmtest2",
    ]
    # Without a session id from anywhere, response items cannot be placed.
    orphan = parse(SESSION_FILE, None, first_line_no=12, skip=11)
    assert orphan.messages == []
    assert orphan.problems[0].reason == "response_item before any session_meta"


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (["bash", "-lc", "npm test && npm run lint"], "npm test && npm run lint"),
        (["/bin/zsh", "-c", "ls"], "ls"),
        (["git", "commit", "-m", "fix it"], "git commit -m 'fix it'"),
        ("cargo build", "cargo build"),
        ([], None),
        ([1, 2], None),
        (None, None),
    ],
)
def test_shell_command(command, text):
    assert codex.shell_command(command) == text


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ('{"output": "ok", "metadata": {"exit_code": 0}}', ("ok", False)),
        ('{"output": "", "metadata": {"exit_code": 127}}', ("Exit code 127", True)),
        ("Exit code: 2\nWall time: 0 seconds\nOutput:\n", ("Exit code 2", True)),
        ("Process running with session ID 3\nOutput:\nwaiting", ("waiting", False)),
        ([{"type": "input_text", "text": "a"}, {"type": "input_image"}], ("a\n[image]", False)),
        ({"content": "denied", "success": False}, ("denied", True)),
        ("Exit code: 1 is what the docs say", ("Exit code: 1 is what the docs say", False)),
        ("plain output", ("plain output", False)),
        ('{"not": "exec output"}', ('{"not": "exec output"}', False)),
        # newer Codex: the command first, then the headers
        (
            "Command: /bin/bash -lc false\nChunk ID: ab12\nWall time: 0.1 seconds\n"
            "Process exited with code 1\nOriginal token count: 0\nOutput:\n",
            ("Exit code 1", True),
        ),
        ("Command: pwd\nOutput:\n/tmp/proj\n", ("/tmp/proj\n", False)),
        (
            "Command: bash -lc 'a\nb'\nProcess exited with code 3\nOutput:\nno",
            ("Exit code 3\nno", True),
        ),
        (
            "Command: not a header\nand not exec output",
            ("Command: not a header\nand not exec output", False),
        ),
        # MCP content blocks as a JSON string (2025), and as items after a Wall time (0.171.0)
        ('[{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]', ("a\nb", False)),
        ("[1, 2]", ("[1, 2]", False)),
        (
            [
                {"type": "input_text", "text": "Wall time: 0.1 seconds\nOutput:"},
                {"type": "input_text", "text": "tool call error: tool call failed for `db/q`"},
            ],
            ("tool call error: tool call failed for `db/q`", True),
        ),
        # ... and as that JSON string after a Wall time header (versions between)
        ('Wall time: 0.1 seconds\nOutput:\n[{"type": "text", "text": "a"}]', ("a", False)),
        (
            'Wall time: 0.1 seconds\nOutput:\n[{"type": "text", "text": "tool call error: x"}]',
            ("tool call error: x", True),
        ),
        (
            "write_stdin failed: Unknown process id 3",
            ("write_stdin failed: Unknown process id 3", True),
        ),
        ("image path `/tmp/shots` is not a file", ("image path `/tmp/shots` is not a file", True)),
        # older Codex: a sandbox failure and a timeout, as plain text
        (
            "failed in sandbox LinuxSeccomp with execution error: Denied",
            ("failed in sandbox LinuxSeccomp with execution error: Denied", True),
        ),
        (
            "failed in sandbox: sandbox error: command was killed by a signal",
            ("failed in sandbox: sandbox error: command was killed by a signal", True),
        ),
        (
            "command timed out after 10000 milliseconds",
            ("command timed out after 10000 milliseconds", True),
        ),
        # a call the user stopped while it ran
        ("aborted by user after 31.2s", ("aborted by user after 31.2s", True)),
        # ... and as Codex 0.66 wrote it, after a header line and no `Output:` line
        ("Wall time: 16.5 seconds\naborted by user", ("aborted by user", True)),
        # ... and as 0.4x-0.5x wrote it when the user aborted the turn (codex.ABORTED)
        ("aborted", ("aborted", True)),
        ("aborted the merge", ("aborted the merge", False)),
        ("Wall time: 0.2 seconds\nbuild ok", ("Wall time: 0.2 seconds\nbuild ok", False)),
        # an apply_patch whose context is not in the file (0.3x, as text, no exit code)
        (
            "error: Failed to find expected lines in /p/README.md:\nold line",
            ("error: Failed to find expected lines in /p/README.md:\nold line", True),
        ),
        # a command's own output that says error later is not Codex's failure message
        ("build ok\nerror: none", ("build ok\nerror: none", False)),
        # code mode's cells: their status, wall time and Output: lines go
        ("Script completed\nOutput:\nhi", ("hi", False)),
        ("Script running with cell ID 8\nWall time 1.0 seconds\n", ("", False)),
        ("Script failed\nScript error:\nboom", ("Script error:\nboom", True)),
        (
            "Script completed\nWall time 2.0 seconds\nOutput:\n"
            '{"chunk_id":"a","exit_code":2,"output":"x"}',
            ("Exit code 2\nx", True),
        ),
        ('Script completed\nOutput:\n{"chunk_id":"a","exit_code":0,"output":"x"}', ("x", False)),
        # the words alone, without the lines that follow a cell's status, are a text's own
        ("Script completed\nhello", ("Script completed\nhello", False)),
        # a cell that printed the web tool's refusal to open a page or file: it failed
        (
            "Script completed\nWall time 0.3 seconds\nOutput:\n"
            "URL https://example.com/a.md is not safe to open (non-retryable error)\n",
            ("URL https://example.com/a.md is not safe to open (non-retryable error)\n", True),
        ),
        (
            "Script completed\nOutput:\nError: /p/notes.pdf: not safe to open",
            ("Error: /p/notes.pdf: not safe to open", True),
        ),
        # a page that says those words further down is what the cell read
        (
            "Script completed\nOutput:\n# Security\nA link is not safe to open unless...",
            ("# Security\nA link is not safe to open unless...", False),
        ),
    ],
)
def test_tool_output(output, expected):
    assert codex.tool_output(output) == expected


@pytest.mark.skipif(not REAL_CODEX.is_dir(), reason=f"real corpus not found at {REAL_CODEX}")
def test_real_rollouts_parse_without_problems():
    files = list(codex.iter_source_files(REAL_CODEX))
    assert len(files) == 2
    counts = []
    for source in files:
        batch = parse(Path(source.path), source.session_id)
        assert batch.problems == [] and batch.skipped == 0
        assert {m.session_id for m in batch.messages} == {source.session_id}
        counts.append((len(batch.tool_calls), len(batch.tool_results)))
        assert {c.tool_use_id for c in batch.tool_calls} == {
            r.tool_use_id for r in batch.tool_results
        }
    assert counts == [(118, 118), (5, 5)]


def test_default_sources(fake_home, monkeypatch):
    from pastfix import agents as sources
    from pastfix import transcripts

    claude, codex_home = fake_home / ".claude" / "projects", fake_home / ".codex" / "sessions"
    assert sources.default_sources() == [transcripts.DEMO_PROJECTS]
    codex_home.mkdir(parents=True)
    # Real Codex sessions are never mixed with the demo.
    assert sources.default_sources() == [codex_home]
    assert sources.default_sources("claude") == [transcripts.DEMO_PROJECTS]
    claude.mkdir(parents=True)
    assert sources.default_sources() == [claude, codex_home]
    assert sources.default_sources("codex") == [codex_home]
    monkeypatch.setenv("CODEX_HOME", str(fake_home / "elsewhere"))
    assert sources.default_sources("codex") == [fake_home / "elsewhere" / "sessions"]


def test_default_sources_follow_claude_config_dir(fake_home, monkeypatch):
    from pastfix import agents as sources

    (fake_home / ".claude" / "projects").mkdir(parents=True)  # not read: the variable wins
    config = fake_home / "work-claude"
    (config / "projects").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert sources.default_sources() == [config / "projects"]
    assert sources.default_sources("claude") == [config / "projects"]


HEADER = "0195a1b2-c3d4-7e5f-8a6b-000000000003"
HEADER_FILE = CODEX / "command_header" / f"rollout-2026-05-04T02-00-00-{HEADER}.jsonl"


def test_command_header_outputs_of_newer_codex():
    """`Command: ...` before `Chunk ID:` / `Process exited with code N` (and the older form)."""
    batch = parse(HEADER_FILE, HEADER)
    assert batch.problems == []
    assert [(r.tool_use_id, r.is_error, r.content.split("\n")[0]) for r in batch.tool_results] == [
        ("call_cmd_ok", 0, "fb5ef21"),
        ("call_cmd_fail", 1, "Exit code 1"),
        ("call_cmd_script", 1, "Exit code 2"),
        ("call_cmd_running", 0, "  VITE v5.4.0  ready in 412 ms"),
        ("call_old_fail", 1, "Exit code 1"),
    ]
    # No header line is kept: the text is what Claude Code's Bash would hold.
    assert not any("Chunk ID" in r.content or "Command:" in r.content for r in batch.tool_results)


def test_a_command_header_failure_is_found_by_its_error(tmp_path):
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [CODEX / "command_header"])
    conn = queries.connect(db_path)
    rows = queries.find_past_fix(conn, "AssertionError: expected 30 to be 32", 5)
    assert [(r["session_id"], r["tool_use_id"]) for r in rows] == [(HEADER, "call_cmd_fail")]


# Codex 0.171.0, as it wrote them against the mock Responses API (lines trimmed of
# their metadata): unified exec, Codex's own failure messages, MCP calls in a namespace.
V0171 = "0195a1b2-c3d4-7e5f-8a6b-000000000004"
V0171_FILE = CODEX / "v0171" / f"rollout-2026-12-01T18-38-00-{V0171}.jsonl"


def test_the_failures_codex_0171_writes():
    batch = parse(V0171_FILE, V0171)
    assert batch.problems == []
    calls = {c.tool_use_id: c for c in batch.tool_calls}
    got = [
        (r.tool_use_id, calls[r.tool_use_id].name, r.is_error, r.content.split("\n")[0])
        for r in batch.tool_results
    ]
    assert got == [
        ("call_lt_run", "exec_command", 0, ""),
        ("call_lt_poll", "write_stdin", 1, "Exit code 1"),
        ("call_lt_fix", "apply_patch", 0, "Success. Updated the following files:"),
        ("call_lt_ok", "exec_command", 0, "1 passed"),
        ("call_image", "view_image", 1, "unable to locate image at `/home/dev/shop/screenshots/"
         "login.png`: No such file or directory (os error 2)"),
        ("call_workdir", "exec_command", 1, 'exec_command failed: CreateProcess { message: '
         '"Rejected(\\"Failed to create unified exec process: No such file or directory (os '
         'error 2)\\")" }'),
        ("call_gone", "write_stdin", 1, "write_stdin failed: Unknown process id 999999"),
        # isError is in the item_completed event alone; the Wall time header goes
        ("call_mcp_users", "mcp__db__query", 1, 'ERROR:  relation "users" does not exist'),
        ("call_mcp_rpc", "mcp__db__explain", 1, "tool call error: tool call failed for "
         "`db/explain`"),
        ("call_mcp_ok", "mcp__db__query", 0, '[{"count": 3}]'),
    ]  # fmt: skip
    # The poll holds the command it polled: the run that passes after the fix confirms it.
    assert calls["call_lt_poll"].command == "sleep 1; python3 test_cart.py"
    assert calls["call_gone"].command is None
    assert calls["call_image"].file_path == "screenshots/login.png"


def test_a_long_test_run_that_failed_is_found_with_its_fix(tmp_path):
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [CODEX / "v0171"])
    conn = queries.connect(db_path)
    [row] = queries.find_past_fix(conn, "FAIL: test_total expected 30, got 32", 5)
    assert (row["session_id"], row["tool_use_id"]) == (V0171, "call_lt_poll")
    outcome, confirmed, remedy = conn.execute(
        "SELECT outcome, confirmed_by, remedy FROM fixes WHERE tool_use_id = 'call_lt_poll'"
    ).fetchone()
    # the poll failed, the command run again passed: a retry (write_stdin says how an
    # exec_command ended), not another way
    assert (outcome, confirmed) == ("fixed", "call_lt_ok")
    assert "call_lt_fix" in remedy
    [row] = queries.find_past_fix(conn, 'ERROR:  relation "users" does not exist', 5)
    assert row["tool_use_id"] == "call_mcp_users"


def test_polls_after_a_ctrl_c_to_a_closed_stdin_do_not_fix_it(tmp_path):
    """The index hands the fix rules the keys a write_stdin sent: Ctrl-C to a command run
    without a tty fails, and the polls after it (sending nothing) are no retry of it."""

    def item(ts: str, payload: dict) -> dict:
        return {"timestamp": f"2026-03-18T19:{ts}Z", "type": "response_item", "payload": payload}

    def stdin(call_id: str, chars: str) -> dict:
        arguments = msgspec.json.encode({"session_id": 7, "chars": chars}).decode()
        return {"type": "function_call", "name": "write_stdin", "arguments": arguments,
                "call_id": call_id}  # fmt: skip

    def output(call_id: str, text: str) -> dict:
        return {"type": "function_call_output", "call_id": call_id, "output": text}

    header = "Chunk ID: a\nWall time: 5.0 seconds\n{}\nOriginal token count: 9\nOutput:\n"
    running = header.format("Process running with session ID 7")
    rows = [
        {"timestamp": "2026-03-18T19:20:00Z", "type": "session_meta",
         "payload": {"id": SESSION, "timestamp": "2026-03-18T19:20:00Z", "cwd": "/p"}},
        item("20:01", {"type": "function_call", "name": "exec_command", "call_id": "c_run",
                       "arguments": '{"cmd":"just test"}'}),
        item("20:02", output("c_run", running + "building")),
        item("20:03", stdin("c_ctrl_c", "\u0003")),
        item("20:04", output("c_ctrl_c", "write_stdin failed: stdin is closed for this session;"
                             " rerun exec_command with tty=true to keep stdin open")),
        item("20:05", stdin("c_poll", "")),
        item("20:06", output("c_poll", running + "compiling")),
        item("20:07", stdin("c_end", "")),
        item("20:08", output("c_end", header.format("Process exited with code 0") + "ok")),
    ]  # fmt: skip
    conn = sqlite3.connect(index_rollout(tmp_path, SESSION, rows, "2026-03-18T19-20-00"))
    assert conn.execute(
        "SELECT is_error FROM tool_results WHERE tool_use_id = 'c_ctrl_c'"
    ).fetchone() == (1,)
    outcome, confirmed = conn.execute(
        "SELECT outcome, confirmed_by FROM fixes WHERE tool_use_id = 'c_ctrl_c'"
    ).fetchone()
    assert (outcome, confirmed) == ("not fixed", None)


def test_a_patch_that_failed_on_a_later_file_is_shown_on_that_file(tmp_path):
    """A patch of several files whose error names its second: the card said `on:` the
    patch's first file (a new user's try, session 34), though that one had not failed."""
    patch = (
        "*** Begin Patch\n*** Update File: ui/vite.config.ts\n@@\n-  plugins: []\n"
        "+  plugins: [react()]\n*** Update File: ui/src/App.tsx\n@@\n-  type Workspace,\n"
        "+  type Space,\n*** End Patch"
    )
    error = "apply_patch verification failed: Failed to find expected lines in {}:\n  type W"

    def patch_call(ts: str, call_id: str, named: str) -> list[dict]:
        call = {"type": "custom_tool_call", "name": "apply_patch", "call_id": call_id,
                "input": patch}  # fmt: skip
        output = {"type": "custom_tool_call_output", "call_id": call_id,
                  "output": error.format(named)}  # fmt: skip
        return [
            {"timestamp": f"2026-03-18T19:{ts}:01Z", "type": "response_item", "payload": call},
            {"timestamp": f"2026-03-18T19:{ts}:02Z", "type": "response_item", "payload": output},
        ]

    rows = [
        {"timestamp": "2026-03-18T19:20:00Z", "type": "session_meta",
         "payload": {"id": SESSION, "timestamp": "2026-03-18T19:20:00Z", "cwd": "/p"}},
        *patch_call("21", "c_second", "/p/ui/src/App.tsx"),
        *patch_call("22", "c_first", "/p/ui/vite.config.ts"),
        *patch_call("23", "c_neither", "/p/ui/src/MyApp.tsx"),
    ]  # fmt: skip
    conn = queries.connect(index_rollout(tmp_path, SESSION, rows, "2026-03-18T19-20-00"))
    rows = queries.find_past_fix(conn, "apply_patch verification failed", 10)
    assert {r["tool_use_id"]: r["target"] for r in rows} == {
        "c_second": "ui/src/App.tsx",
        "c_first": "ui/vite.config.ts",
        "c_neither": "ui/vite.config.ts",
    }


def index_rollout(tmp_path: Path, session: str, rows: list[dict], started: str) -> Path:
    """`rows` as the rollout Codex writes for `session` started at `started`
    (`2026-03-18T19-20-00`), under tmp_path/sessions, indexed: the index's path."""
    path = tmp_path / "sessions" / started[:10].replace("-", "/")
    path /= f"rollout-{started}-{session}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(msgspec.json.encode(row) + b"\n" for row in rows))
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [tmp_path / "sessions"])
    return db_path


def mcp_lines(end: dict, output: object, *, end_first: bool = True) -> bytes:
    """An MCP call, its mcp_tool_call_end event and its output, as rollout lines."""
    call = {"type": "function_call", "name": "mcp__db__query", "arguments": "{}", "call_id": "c1"}
    event = {"type": "mcp_tool_call_end", "call_id": "c1", "duration": {"secs": 0, "nanos": 1}}
    event["invocation"] = {"server": "db", "tool": "query", "arguments": {}}
    lines = [
        {"type": "session_meta", "payload": {"id": SHAPES}},
        {"type": "response_item", "payload": call},
        {"type": "event_msg", "payload": {**event, "result": end}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
                                              "output": output}},
    ]  # fmt: skip
    if not end_first:
        lines[2], lines[3] = lines[3], lines[2]
    return b"".join(msgspec.json.encode(line) + b"\n" for line in lines)


# Codex versions that persist mcp_tool_call_end (codex-rs/core/src/rollout/policy.rs)
# write its result as serde writes a Result; their output is the content blocks as a
# JSON string (codex-rs/protocol/src/models.rs, FunctionCallOutputPayload).
BLOCKS = '[{"type":"text","text":"relation \\"users\\" does not exist"}]'


@pytest.mark.parametrize(
    ("end", "end_first", "is_error"),
    [
        ({"Ok": {"content": [], "isError": True}}, True, 1),
        ({"Ok": {"content": [], "isError": True}}, False, 1),  # the event after the output
        ({"Err": "tool call failed: timed out"}, True, 1),
        ({"Ok": {"content": [], "isError": False}}, True, 0),
        ({"Ok": {"content": []}}, True, 0),
    ],
)
def test_an_mcp_call_end_event_says_whether_it_failed(end, end_first, is_error):
    data = mcp_lines(end, BLOCKS, end_first=end_first)
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SHAPES)
    assert batch.problems == []
    [result] = batch.tool_results
    assert (result.is_error, result.content) == (is_error, 'relation "users" does not exist')


# Codex 0.171.0's bookkeeping lines, as its `codex exec` wrote them against the mock
# (tests/test_codex_e2e.py; world_state trimmed of most of its state), then one of a type
# no Codex writes.
BOOKKEEPING = [
    '{"timestamp":"2026-12-01T19:04:46.826Z","ordinal":4,"type":"world_state","payload":'
    '{"full":true,"state":{"agents_md":{},"apps_instructions":false,"environments":'
    '{"environments":{"local":{"cwd":"/home/dev/shop","status":"available","shell":"bash"}},'
    '"current_date":"2026-12-01","timezone":"Etc/UTC"},"model":"gpt-5.1-codex",'
    '"realtime":{"active":false},"skills":{"includeInstructions":true}}}}',
    '{"timestamp":"2026-12-01T19:04:46.852Z","ordinal":10,"type":"token_usage_record",'
    '"payload":{"thread_id":"01a232fe-c0ae-79c2-88b2-26f17ae8f057","turn_id":'
    '"01a232fe-c0da-7302-841a-a1b9cb59d8f5","session_id":"01a232fe-c0ae-79c2-88b2-'
    '26f17ae8f057","root_turn_id":"01a232fe-c0da-7302-841a-a1b9cb59d8f5","response_id":'
    '"resp_1","usage":{"input_tokens":1,"cached_input_tokens":0,"cache_write_input_tokens":0,'
    '"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2},"turn_token_usage":'
    '{"input_tokens":1,"output_tokens":1,"total_tokens":2},"thread_token_usage":'
    '{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}',
    '{"timestamp":"2026-12-01T19:04:47.000Z","type":"hologram","payload":{"x":1}}',
]


def test_bookkeeping_lines_of_codex_0171_are_known():
    data = "".join(line + "\n" for line in BOOKKEEPING).encode()
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert batch.problems == [] and batch.messages == []
    assert batch.skipped == 1  # the hologram alone


def test_an_exec_command_that_failed_for_its_command_is_a_failure():
    """Codex 0.118 says which command could not start (`exec_command failed for `cmd`: ...`,
    codex-rs's FunctionCallError for a CreateProcess error): the sandbox denied `ps` here,
    exit code 127. Read as a success before, as only `exec_command failed:` was known."""
    denied = (
        "exec_command failed for `/bin/zsh -lc 'ps -p 94190 -o pid='`: CreateProcess { message:"
        ' "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 127, stderr:'
        ' StreamOutput { text: \\"zsh:1: operation not permitted: ps\\\\n\\" } }))" }'
    )
    lines = [
        {"type": "session_meta", "payload": {"id": SHAPES}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
         "arguments": '{"cmd":"ps -p 94190 -o pid="}', "call_id": "c1"}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
                                              "output": denied}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
         "arguments": '{"cmd":"echo exec_command failed for x"}', "call_id": "c2"}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2",
                                              "output": "exec_command failed for x\n"}},
    ]  # fmt: skip
    data = b"".join(msgspec.json.encode(line) + b"\n" for line in lines)
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SHAPES)
    got = {r.tool_use_id: r.is_error for r in batch.tool_results}
    # an echo of the words without the backquoted command is output, not Codex's message
    assert got == {"c1": 1, "c2": 0}


def test_lines_cut_from_the_middle_of_a_rollout_are_kept_once(tmp_path):
    """A Codex message is `<session>:<line>`: cut lines 11-14 (a reply, the failing call
    and its output) and the lines after take their numbers. Every text, call and failure
    of the old read stays, once each; the session page shows each message once."""
    sessions = tmp_path / "sessions"
    path = sessions / SESSION_FILE.relative_to(SESSIONS)
    path.parent.mkdir(parents=True)
    lines = SESSION_FILE.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines))
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [sessions])

    def state():
        conn = sqlite3.connect(db_path)
        try:
            return (
                sorted(conn.execute("SELECT type, kind, text FROM messages WHERE text > ''")),
                sorted(conn.execute("SELECT tool_use_id, name FROM tool_calls")),
                sorted(conn.execute("SELECT tool_use_id, is_error, content FROM tool_results")),
                conn.execute("SELECT message_count, tool_error_count FROM sessions").fetchall(),
            )
        finally:
            conn.close()

    before = state()
    assert RENAMING in [text for _, _, text in before[0]]
    path.write_bytes(b"".join(lines[:10] + lines[14:]))
    stats = pbuild.build(db_path, [sessions])
    assert stats.rows_kept > 0 and stats.duplicates == 0
    after = state()
    assert after[:3] == before[:3]
    conn = queries.connect(db_path)
    try:
        rows = queries.find_past_fix(conn, 'npm ERR! Missing script: "test"', 5)
        assert [r["session_id"] for r in rows] == [SESSION]
        page = queries.session_page(conn, SESSION, page_size=1000)
    finally:
        conn.close()
    assert page is not None
    texts = [m["text"] for m in page["messages"] if m["text"]]
    assert len(texts) == len(set(texts)) == len(before[0])
    for force in (False, True, False):
        again = pbuild.build(db_path, [sessions], force=force)
        assert (again.rows_kept, again.duplicates) == (0, 0)
        assert state() == after


def test_messages_between_agents_are_read_once_each():
    data = "".join(line + "\n" for line in CODEX_AGENT_MESSAGES).encode()
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert batch.problems == [] and batch.skipped == 0
    got = [(m.line_no, m.type, m.kind, m.is_meta, m.text) for m in batch.messages]
    assert got == [
        (2, "user", "agent_message", 0, "/root/worker → /root (FINAL_ANSWER)\n\n"
         "child done: tests pass after pinning fastapi"),
        (5, "user", "agent_message", 0,
         "/root → /root/worker\n\nRun the test suite and fix what fails"),
        (6, "user", "agent_message", 0, "/root/worker → /root\n\ndone: npm test passes"),
        (7, "user", "agent_message", 0, "/root → /root/worker\n\ncheck the lockfile"),
        (8, "user", "prompt", 0, '{"trigger_turn": 1}'),
    ]  # fmt: skip


# Tool searches, web searches and image generations as serde writes ResponseItem's
# ToolSearchCall, ToolSearchOutput, WebSearchCall and ImageGenerationCall (with their
# optional fields; a failed tool search is answered "completed" with no tools), then the
# items with no readable text.
OTHER_ITEMS = [
    {"type": "tool_search_call", "id": "tsc_1", "call_id": "call_search", "status": "completed",
     "execution": "client", "arguments": {"query": "create a calendar event", "limit": 5}},
    {"type": "tool_search_output", "call_id": "call_search", "status": "completed",
     "execution": "client", "tools": [
         {"type": "function", "name": "create_event", "description": "", "strict": False,
          "defer_loading": True, "parameters": {"type": "object", "properties": {}}},
         {"type": "namespace", "name": "mcp__calendar", "description": "Calendar.",
          "tools": [{"type": "function", "name": "list_events", "parameters": {}}]}]},
    {"type": "tool_search_call", "call_id": "call_search_none", "execution": "client",
     "arguments": {"query": "jira"}},
    {"type": "tool_search_output", "call_id": "call_search_none", "status": "completed",
     "execution": "client", "tools": []},
    {"type": "tool_search_call", "execution": "server", "arguments": {"paths": ["crm"]}},
    {"type": "web_search_call", "id": "ws_1", "status": "completed",
     "action": {"type": "search", "query": "fastapi ModuleNotFoundError"}},
    {"type": "web_search_call", "status": "completed",
     "action": {"type": "search", "queries": ["pydantic v2 migration", "fastapi 0.110"]}},
    {"type": "web_search_call", "id": "ws_3", "status": "completed",
     "action": {"type": "find_in_page", "url": "https://docs.example/x", "pattern": "Depends"}},
    {"type": "web_search_call", "id": "ws_4", "status": "completed"},
    {"type": "image_generation_call", "id": "ig_1", "status": "completed",
     "revised_prompt": "A login page mockup", "result": "iVBORw0KGgo="},
    {"type": "additional_tools", "role": "developer", "tools": [{"type": "function",
     "name": "exec_command"}]},
    {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAAAABr"},
    {"type": "compaction_summary", "encrypted_content": "gAAAAABs"},
    {"type": "context_compaction", "encrypted_content": "gAAAAABt"},
    {"type": "compaction_trigger"},
    {"type": "configuration_update", "reasoning": {"effort": "high"}},
    {"type": "ghost_snapshot", "ghost_commit": {"id": "4f1c2d3e", "parent": None}},
    {"type": "other"},
    {"type": "hologram_call"},
]  # fmt: skip


def test_tool_searches_web_searches_and_images_are_calls():
    data = b"".join(
        msgspec.json.encode({"timestamp": f"2026-12-01T18:41:{n:02}.000Z",
                             "type": "response_item", "payload": item}) + b"\n"
        for n, item in enumerate(OTHER_ITEMS)
    )  # fmt: skip
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert batch.problems == []
    assert batch.skipped == 1  # the hologram_call alone
    calls = [(c.tool_use_id, c.name, c.description) for c in batch.tool_calls]
    assert calls == [
        ("call_search", "tool_search", "create a calendar event"),
        ("call_search_none", "tool_search", "jira"),
        ("ws_1", "web_search", "fastapi ModuleNotFoundError"),
        (f"{SESSION}:7", "web_search", "pydantic v2 migration; fastapi 0.110"),
        ("ws_3", "web_search", "Depends in https://docs.example/x"),
        ("ws_4", "web_search", None),
        ("ig_1", "image_generation", "A login page mockup"),
    ]
    assert "iVBOR" not in batch.tool_calls[-1].input  # an image's bytes are not text
    assert msgspec.json.decode(batch.tool_calls[0].input) == OTHER_ITEMS[0]["arguments"]
    results = [(r.tool_use_id, r.is_error, r.content) for r in batch.tool_results]
    assert results == [
        ("call_search", 0, "create_event\nmcp__calendar__list_events"),
        ("call_search_none", 0, "no tools found"),
    ]
    assert [m.kind for m in batch.messages] == ["tool_use", "tool_result"] * 2 + ["tool_use"] * 5


# Lines Codex 0.171.0 wrote (`codex exec` against a mock whose model answered with a
# tool_search_call, then a web_search_call, an image_generation_call and a message):
# Codex has no tool_search tool there ("unsupported call: tool_search" in its log), and
# answers the failed search with a completed output of no tools.
CODEX_0171_SEARCHES = [
    '{"timestamp":"2026-12-01T21:53:56.258Z","ordinal":9,"type":"response_item","payload"'
    ':{"type":"tool_search_call","id":"tsc_probe1","call_id":"call_ts1","status":"complet'
    'ed","execution":"client","arguments":{"query":"calendar event","limit":3},"internal_'
    'chat_message_metadata_passthrough":{"turn_id":"01a23399-a1b0-7f33-abbd-6cf1e82daa3d"'
    '}},"metadata":{"history_sequence":4,"sampled_through_sequence":3,"client_authored":f'
    'alse,"model_search_state":"unused"}}',
    '{"timestamp":"2026-12-01T21:53:56.260Z","ordinal":11,"type":"response_item","payload'
    '":{"type":"tool_search_output","id":"tso_01a23399-a224-7bd3-8571-d7e53e1d5d6b","call'
    '_id":"call_ts1","status":"completed","execution":"client","tools":[],"internal_chat_'
    'message_metadata_passthrough":{"turn_id":"01a23399-a1b0-7f33-abbd-6cf1e82daa3d","cre'
    'ate_time":1796162036.2606547}},"metadata":{"history_sequence":5,"sampled_through_seq'
    'uence":3,"client_authored":false,"model_search_state":"unused"}}',
    '{"timestamp":"2026-12-01T21:53:56.287Z","ordinal":14,"type":"response_item","payload'
    '":{"type":"web_search_call","id":"ws_probe1","status":"completed","action":{"type":"'
    'search","query":"fastapi ModuleNotFoundError","queries":["fastapi ModuleNotFoundErro'
    'r"]},"internal_chat_message_metadata_passthrough":{"turn_id":"01a23399-a1b0-7f33-abb'
    'd-6cf1e82daa3d"}},"metadata":{"history_sequence":6,"sampled_through_sequence":5,"cli'
    'ent_authored":false,"model_search_state":"unused"}}',
    '{"timestamp":"2026-12-01T21:53:56.288Z","ordinal":15,"type":"response_item","payload'
    '":{"type":"image_generation_call","id":"ig_probe1","status":"completed","revised_pro'
    'mpt":"a login page","result":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQV'
    'R42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==","internal_chat_message_metadata_passthro'
    'ugh":{"turn_id":"01a23399-a1b0-7f33-abbd-6cf1e82daa3d"}},"metadata":{"history_sequen'
    'ce":7,"sampled_through_sequence":5,"client_authored":false,"model_search_state":"unu'
    'sed"}}',
]


def test_the_searches_and_images_codex_0171_writes():
    data = "".join(line + "\n" for line in CODEX_0171_SEARCHES).encode()
    batch = codex.parse_lines(data, first_line_no=9, default_session_id=SESSION)
    assert (batch.skipped, batch.problems) == (0, [])
    calls = [(c.tool_use_id, c.name, c.description) for c in batch.tool_calls]
    assert calls == [
        ("call_ts1", "tool_search", "calendar event"),
        ("ws_probe1", "web_search", "fastapi ModuleNotFoundError"),
        ("ig_probe1", "image_generation", "a login page"),
    ]
    assert [(r.tool_use_id, r.is_error, r.content) for r in batch.tool_results] == [
        ("call_ts1", 0, "no tools found")
    ]


def repeating_rollout(path: Path) -> list[bytes]:
    """A rollout of ten turns whose prompts after the first are all `continue` and every
    other reply `Done.`: a user's texts repeat, each its own message."""

    def message(ts: str, role: str, text: str) -> dict:
        part = "input_text" if role == "user" else "output_text"
        payload = {"type": "message", "role": role, "content": [{"type": part, "text": text}]}
        return {"timestamp": ts, "type": "response_item", "payload": payload}

    rows: list[dict] = [
        {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta",
         "payload": {"id": SESSION, "timestamp": "2026-03-01T10:00:00.000Z", "cwd": "/home/dev"}}
    ]  # fmt: skip
    for i in range(10):
        rows.append(message(f"2026-03-01T10:{i:02d}:01Z", "user", "continue" if i else "go"))
        reply = "Done." if i % 2 else f"s{i}"
        rows.append(message(f"2026-03-01T10:{i:02d}:02Z", "assistant", reply))
    lines = [msgspec.json.encode(row) + b"\n" for row in rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(lines))
    return lines


def message_texts(db_path):
    """Every message's text of the index, sorted."""
    conn = sqlite3.connect(db_path)
    try:
        return sorted(r[0] for r in conn.execute("SELECT text FROM messages"))
    finally:
        conn.close()


@pytest.mark.parametrize(
    "cut", ["the end", "the middle", "the end, then grown", "the end, then new turns"]
)
def test_a_text_a_rollout_repeats_is_kept_as_often_as_it_was_cut(tmp_path, cut):
    """A Codex message held again is known by its text (its id numbers its line), but a
    text the part left holds once (`continue`, `Done.`) was not each of the cut ones: the
    nine `continue` prompts of a session cut to its first five turns were five."""
    sessions = tmp_path / "sessions"
    path = sessions / SESSION_FILE.relative_to(SESSIONS)
    lines = repeating_rollout(path)
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [sessions])

    before = message_texts(db_path)
    assert before.count("continue") == 9 and before.count("Done.") == 5
    left = lines[:11] if cut != "the middle" else lines[:7] + lines[13:]
    path.write_bytes(b"".join(left))
    stats = pbuild.build(db_path, [sessions])
    assert stats.duplicates == 0
    if cut == "the end, then grown":
        path.write_bytes(b"".join(left + lines[11:15]))  # two turns back, from a backup
        pbuild.build(db_path, [sessions])
    if cut == "the end, then new turns":
        # an hour later, the same words again: new messages at the numbers the cut freed
        later = [line.replace(b'"2026-03-01T10:', b'"2026-03-01T11:') for line in lines[11:15]]
        path.write_bytes(b"".join(left + later))
        pbuild.build(db_path, [sessions])
        before = sorted(before + ["continue", "Done.", "continue", "s6"])
    after = message_texts(db_path)
    assert after == before
    for force in (False, True, False):
        again = pbuild.build(db_path, [sessions], force=force)
        assert (again.rows_kept, again.duplicates) == (0, 0)
        assert message_texts(db_path) == after


def test_a_cut_rollout_keeps_each_message_once_when_redaction_is_turned_off_and_on(tmp_path):
    """A rollout's message is known by its line's number and its text: the text of a line
    left with a secret changes with the redaction setting, and each change of it (a forced
    read that sets the kept copy's file aside) kept the old text as a message of its own
    under `<id>~<hash>`: 20 messages, 21 after --no-redact, 21 again once back on."""
    sessions = tmp_path / "sessions"
    path = sessions / SESSION_FILE.relative_to(SESSIONS)
    lines = repeating_rollout(path)
    secret = b"use token glpat-Xy7Zq2Wv9Ut4Rs1Pq8No now"
    lines[3] = lines[3].replace(b'"continue"', b'"' + secret + b'"')
    path.write_bytes(b"".join(lines))
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [sessions])
    path.write_bytes(b"".join(lines[:11]))
    pbuild.build(db_path, [sessions])

    cut = message_texts(db_path)
    assert len(cut) == 20 and "use token [REDACTED:gitlab-token] now" in cut
    stats = pbuild.build(db_path, [sessions], redact=False)
    assert stats.redact_changed and stats.rows_kept == 0
    shown = secret.decode().split()[2]
    shown_cut = sorted(t.replace("[REDACTED:gitlab-token]", shown) for t in cut)
    assert message_texts(db_path) == shown_cut
    stats = pbuild.build(db_path, [sessions], redact=True)
    assert stats.redact_changed and stats.rows_kept == 0
    assert message_texts(db_path) == cut


# A rollout of Codex before its payload lines (see the test below).
LEGACY_SESSION = "4bc50446-4fec-4d87-91f7-0080565ab18c"
_LEGACY_FAILED = '{"output":"error: could not find `Cargo.toml`\\n","metadata":{"exit_code":101}}'
_LEGACY_PASSED = '{"output":"test result: ok. 3 passed\\n","metadata":{"exit_code":0}}'
LEGACY = [
    {"id": LEGACY_SESSION, "timestamp": "2025-08-30T12:02:18.162Z", "instructions": "# AGENTS.md",
     "git": {"commit_hash": "03f579f", "branch": "main"}},
    {"record_type": "state"},
    {"type": "message", "id": None, "role": "user",
     "content": [{"type": "input_text", "text": "run the tests"}]},
    {"type": "function_call", "id": "fc_1", "name": "shell",
     "arguments": '{"command":["cargo","test"]}', "call_id": "call_a"},
    {"type": "function_call_output", "call_id": "call_a", "output": _LEGACY_FAILED},
    {"record_type": "state"},
    {"type": "function_call", "id": "fc_2", "name": "shell",
     "arguments": '{"command":["cargo","test"],"workdir":"codex-rs"}', "call_id": "call_b"},
    {"type": "function_call_output", "call_id": "call_b", "output": _LEGACY_PASSED},
    {"type": "message", "id": "msg_1", "role": "assistant",
     "content": [{"type": "output_text", "text": "The tests pass in codex-rs."}]},
]  # fmt: skip


def test_a_rollout_of_codex_before_its_payload_lines_is_read(tmp_path):
    """Codex until about August 2025 wrote a first line {id, timestamp, instructions, git},
    `{"record_type": "state"}` lines and each response item as a line of its own, without
    a time (as JaydenXsoe/ocodex's rollouts of 2025-08 have them). Every line was skipped:
    such a rollout gave nothing. Now its messages, calls and failures are read, in order."""
    sid, lines = LEGACY_SESSION, LEGACY
    folder = tmp_path / "sessions" / "2025" / "08" / "30"
    folder.mkdir(parents=True)
    path = folder / f"rollout-2025-08-30T12-02-18-{sid}.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))
    batch = codex.parse_lines(path.read_bytes(), first_line_no=1, default_session_id=sid)
    assert (batch.skipped, batch.problems) == (0, [])
    assert [(m.type, m.text) for m in batch.messages if m.text] == [
        ("user", "run the tests"),
        ("assistant", "The tests pass in codex-rs."),
    ]
    assert [(r.tool_use_id, r.is_error) for r in batch.tool_results] == [
        ("call_a", 1),
        ("call_b", 0),
    ]
    stamps = [m.timestamp for m in batch.messages]
    assert stamps == sorted(stamps) and stamps[0] == "2025-08-30T12:02:18.165Z"
    assert ("git_branch", "main") in [(m.key, m.value) for m in batch.meta]
    db_path = tmp_path / "index.db"
    stats = pbuild.build(db_path, [tmp_path / "sessions"])
    assert (stats.skipped_lines, stats.failed_tool_results) == (0, 1)
    conn = sqlite3.connect(db_path)
    fixed = conn.execute(
        "SELECT outcome, confirmed_by FROM fixes WHERE tool_use_id = 'call_a'"
    ).fetchall()
    conn.close()
    assert fixed == [("fixed", "call_b")]


def test_a_session_begun_in_the_ide_is_titled_with_its_request(tmp_path):
    """Codex's IDE extension sends the open files before the request (`# Context from my
    IDE setup: ... ## My request for Codex: ...`): 3 sessions of 2 people in the third and
    fifth held-out sets were titled `# Context from my IDE setup: ## Active file: ...`."""
    sid = "0195a1b2-c3d4-7e5f-8a6b-00000000001d"
    ide = (
        "# Context from my IDE setup:\n\n## Active file: package.json\n\n"
        "## Open tabs:\n- sync.ts: modules/backend/src/routes/users/sync.ts\n\n"
        "## My request for Codex:\nfix the lint error\n\nsrc/config/hono.ts:4:33 noBannedTypes\n"
    )
    rows = [
        {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta",
         "payload": {"id": sid, "timestamp": "2026-03-01T10:00:00.000Z", "cwd": "/home/dev"}},
        {"timestamp": "2026-03-01T10:00:01.000Z", "type": "response_item",
         "payload": {"type": "message", "role": "user",
                     "content": [{"type": "input_text", "text": ide}]}},
    ]  # fmt: skip
    db_path = index_rollout(tmp_path, sid, rows, "2026-03-01T10-00-00")
    conn = sqlite3.connect(db_path)
    [(title,)] = conn.execute("SELECT title FROM sessions WHERE session_id = ?", [sid])
    assert title == "fix the lint error\n\nsrc/config/hono.ts:4:33 noBannedTypes"
    # the message keeps all of it: the open files are words to search for
    [(text,)] = conn.execute("SELECT text FROM messages WHERE session_id = ?", [sid])
    assert text == ide
    # an index built before: titled anew (m017 retitles it; m018 reads every rollout again)
    conn.execute("UPDATE sessions SET title = ?", [ide[:200]])
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm017_typed_titles'")
    conn.commit()
    conn.close()
    assert pbuild.build(db_path, [tmp_path / "sessions"]).files_read == 1
    with sqlite3.connect(db_path) as conn:
        [(title,)] = conn.execute("SELECT title FROM sessions WHERE session_id = ?", [sid])
    assert title == "fix the lint error\n\nsrc/config/hono.ts:4:33 noBannedTypes"


def test_code_mode_cells_are_the_calls_they_make(tmp_path):
    """Codex's code mode (0.14x): one `exec` tool runs the model's JavaScript, which calls
    Codex's tools. A cell that runs a command is that command's call, failed when the
    exec_command result it printed says a non-zero exit_code; a patch in a cell is an
    edit of its file; a cell left running is finished by `wait`, which holds its command;
    a cell whose code threw or whose call was refused failed (twenty-sixth held-out set:
    Codex 0.146's shell failures were all read as successes)."""

    def item(ts: str, payload: dict) -> dict:
        return {"timestamp": f"2026-08-01T07:{ts}Z", "type": "response_item", "payload": payload}

    def cell(call_id: str, code: str) -> dict:
        return {"type": "custom_tool_call", "name": "exec", "call_id": call_id, "input": code}

    def out(call_id: str, text: str, kind: str = "custom_tool_call_output") -> dict:
        return {"type": kind, "call_id": call_id, "output": text}

    def printed(call_id: str, text: str, kind: str = "custom_tool_call_output") -> dict:
        head = "Script completed\nWall time 0.4 seconds\nOutput:\n"
        blocks = [{"type": "input_text", "text": head}, {"type": "input_text", "text": text}]
        return out(call_id, blocks, kind)  # type: ignore[arg-type]

    def result(code: int, output: str) -> str:
        fields = {"chunk_id": "6d9", "wall_time_seconds": 0, "exit_code": code, "output": output}
        return msgspec.json.encode(fields).decode()

    run = 'const r = await tools.exec_command({cmd:"npm test","workdir":"/p"});\ntext(r)\n'
    patch = "*** Begin Patch\\n*** Update File: src/total.js\\n@@\\n-return 32\\n+return 30"
    patched = "Success. Updated the following files:\nM src/total.js\n"
    refused = 'Script failed\nScript error:\nRejected("This action was rejected.")'
    meta = {"id": SESSION, "timestamp": "2026-08-01T07:19:28Z", "cwd": "/p"}
    rows = [
        {"timestamp": "2026-08-01T07:19:28Z", "type": "session_meta", "payload": meta},
        item("20:01", cell("c_test", run)),
        item("20:02", printed("c_test", result(1, "FAIL: total expected 30, got 32\n"))),
        item("20:03", cell("c_patch", f'await tools.apply_patch("{patch}\\n*** End Patch")')),
        item("20:04", printed("c_patch", patched)),
        item("20:05", cell("c_again", "await tools.exec_command({cmd: 'npm test'})")),
        item("20:06", out("c_again", "Script running with cell ID 8\nWall time 1.0 seconds\n")),
        item("20:07", {"type": "function_call", "name": "wait", "call_id": "c_wait",
                       "arguments": '{"cell_id": "8", "yield_time_ms": 30000}'}),
        item("20:08", printed("c_wait", result(0, "1 passed\n"), "function_call_output")),
        item("20:09", cell("c_risky", "await tools.exec_command({cmd: `rm -rf build`})")),
        item("20:10", out("c_risky", refused)),
        item("20:11", cell("c_web", "text(await tools.web__run({search_query: [{q: 'x'}]}))")),
        item("20:12", printed("c_web", "Error: x - Stack Overflow\n")),
    ]  # fmt: skip
    conn = sqlite3.connect(index_rollout(tmp_path, SESSION, rows, "2026-08-01T07-19-28"))
    calls = {
        row[0]: row[1:]
        for row in conn.execute(
            "SELECT tool_use_id, name, command, file_path, is_error, kind, content"
            " FROM tool_calls LEFT JOIN tool_results USING (tool_use_id)"
        )
    }
    assert calls["c_test"][:4] == ("exec_command", "npm test", None, 1)
    assert calls["c_test"][5] == "Exit code 1\nFAIL: total expected 30, got 32"
    assert calls["c_patch"][:4] == ("apply_patch", None, "src/total.js", 0)
    assert calls["c_again"][:5] == ("exec_command", "npm test", None, 0, "running")
    assert calls["c_wait"][:4] == ("wait", "npm test", None, 0)
    assert calls["c_wait"][5] == "1 passed\n"
    assert calls["c_risky"][:4] == ("exec_command", "rm -rf build", None, 1)
    assert calls["c_risky"][5].startswith("Script error:\nRejected(")
    assert calls["c_web"][:4] == ("exec", None, None, 0)
    outcome, confirmed, remedy = conn.execute(
        "SELECT outcome, confirmed_by, remedy FROM fixes WHERE tool_use_id = 'c_test'"
    ).fetchone()
    # the run that passed, as its wait said (a poll that saw it succeed is no call of its own)
    assert (outcome, confirmed) == ("fixed", "c_again")
    assert "c_patch" in remedy


@pytest.mark.parametrize(
    "literal, text",
    [
        ('"npm test -- --grep \\"a b\\""', 'npm test -- --grep "a b"'),
        ("'echo \\'hi\\' \\\\n'", "echo 'hi' \\n"),
        ("`ls ${dir}`", "ls ${dir}"),
        ('"broken \\q"', "broken \\q"),
    ],
)
def test_a_cell_s_string_literal_is_read_as_javascript_reads_it(literal, text):
    assert codex._js_string(literal) == text


@pytest.mark.parametrize(
    "bad",
    [
        '{"timestamp":"2026-02-23T11:41:34.000Z","type":{"a":1},"payload":{}}',
        '{"timestamp":"2026-02-23T11:41:34.000Z","type":["x"]}',
        '{"timestamp":"2026-02-23T11:41:34.000Z","type":"response_item","payload":{"type":[]}}',
        '{"timestamp":"2026-02-23T11:41:34.000Z","type":"event_msg","payload":{"type":{}}}',
    ],
)
def test_a_type_that_is_a_list_or_object_is_a_problem_and_its_neighbours_survive(bad):
    """A list or object does not hash: `in _LEGACY_ITEMS` raised TypeError, which stopped
    every build from then on (a security tester's fuzzing, round eight)."""
    said = '{"timestamp":"2026-02-23T11:41:3%d.000Z","type":"response_item","payload":{"type":'
    said += '"message","role":"user","content":[{"type":"input_text","text":"prompt %d"}]}}'
    data = "\n".join([said % (3, 1), bad, said % (5, 2)]).encode() + b"\n"
    batch = codex.parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert [p.line_no for p in batch.problems] == [2]
    assert "'type' is not a string" in batch.problems[0].reason
    assert [m.text for m in batch.messages] == ["prompt 1", "prompt 2"]


def test_a_code_mode_cell_that_printed_a_refusal_failed_and_is_read_again(tmp_path):
    """A cell that completed printing only its web tool's refusal (`... is not safe to open
    (non-retryable error)`) failed (a new user's Codex session, session 33: it was a
    success); m027: an index that stored it so reads its rollout again."""
    refusal = "URL https://example.com/spec.md is not safe to open (non-retryable error)"
    code = "text(await tools.web__run({open: [{ref_id: 'https://example.com/spec.md'}]}))"
    meta = {"id": SESSION, "timestamp": "2026-08-01T07:19:28Z", "cwd": "/p"}
    rows = [
        {"timestamp": "2026-08-01T07:19:28Z", "type": "session_meta", "payload": meta},
        {
            "timestamp": "2026-08-01T07:20:01Z",
            "type": "response_item",
            "payload": {"type": "custom_tool_call", "name": "exec", "call_id": "c1", "input": code},
        },
        {
            "timestamp": "2026-08-01T07:20:02Z",
            "type": "response_item",
            "payload": {
                "type": "custom_tool_call_output",
                "call_id": "c1",
                "output": f"Script completed\nWall time 0.3 seconds\nOutput:\n{refusal}\n",
            },
        },
    ]
    db = index_rollout(tmp_path, SESSION, rows, "2026-08-01T07-19-28")
    stored = "SELECT is_error, content FROM tool_results WHERE tool_use_id = 'c1'"
    conn = sqlite3.connect(db)
    assert conn.execute(stored).fetchone() == (1, refusal + "\n")
    # What an older reader stored: a success.
    conn.execute("UPDATE tool_results SET is_error = 0 WHERE tool_use_id = 'c1'")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name >= 'm027_codex_cell_refused'")
    conn.commit()
    conn.close()
    assert pbuild.build(db, [tmp_path / "sessions"]).files_read == 1
    conn = sqlite3.connect(db)
    assert conn.execute(stored).fetchone()[0] == 1
    conn.close()


def test_half_an_emoji_in_a_calls_arguments_is_read_and_found(tmp_path):
    """A shell call whose arguments (JSON text inside the line) held a lone surrogate escape,
    `\\ud83d`: they were stored as written, the command not read, and every query that showed
    the call (find, the hook, MCP) failed, SQLite refusing the string call_input() gave (a
    security test, session 34)."""
    arguments = '{"command":["bash","-lc","echo \'ok \\ud83d\' && npm test"],"workdir":"/p"}'
    error = "npm ERR! code ELIFECYCLE\nError: Cannot find module 'left-pad'\n"
    rows = [
        {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta",
         "payload": {"id": SESSION, "timestamp": "2026-03-01T10:00:00Z", "cwd": "/p"}},
        {"timestamp": "2026-03-01T10:00:02Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "arguments": arguments,
                     "call_id": "c1"}},
        {"timestamp": "2026-03-01T10:00:03Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "c1",
                     "output": msgspec.json.encode(
                         {"output": error, "metadata": {"exit_code": 1}}).decode()}},
    ]  # fmt: skip
    db_path = index_rollout(tmp_path, SESSION, rows, "2026-03-01T10-00-00")
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT command FROM tool_calls").fetchone() == (
        "echo 'ok \ufffd' && npm test",
    )
    # an index built before: the input as it was written still reads
    conn.execute("UPDATE tool_calls SET command = NULL, input = ?", [arguments])
    conn.commit()
    conn.close()
    index = queries.connect(db_path)
    found = queries.find_past_fix(index, "Error: Cannot find module 'left-pad'")
    assert [(r["tool_use_id"], r["target"]) for r in found] == [
        ("c1", "command: bash; -lc; echo 'ok \ufffd' && npm test, workdir: /p")
    ]


# Every table a build fills from a transcript's lines, compared but for the rows' own ids.
BUILT_TABLES = (
    "messages", "tool_calls", "tool_results", "session_meta", "problems", "fixes", "sessions"
)  # fmt: skip


def built_rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every row of BUILT_TABLES but their ids (a row's file named by its path)."""
    conn = sqlite3.connect(db_path)
    try:
        paths = dict(conn.execute("SELECT id, path FROM source_files"))
        found = {}
        for table in BUILT_TABLES:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] != "id"]
            rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            at = columns.index("file_id") if "file_id" in columns else None
            found[table] = sorted(
                (repr(row if at is None else (*row[:at], paths[row[at]], *row[at + 1 :])))
                for row in rows
            )
        return found
    finally:
        conn.close()


def test_a_rollout_appended_at_any_line_stores_what_a_fresh_build_does(tmp_path, monkeypatch):
    """A rollout's lines lean on earlier ones: a write_stdin polls the command an earlier
    exec_command started, an MCP result's failure is in the event before it, a legacy
    rollout's lines take their time from its first. An append that read on from between
    them stored a poll without its command and a legacy rollout's new lines without a time
    (its title and fixes taken from them): held-out sets 31, 33 and 36. Cut at each line,
    then appended in two builds, every row is a fresh build's."""
    sessions = tmp_path / "sessions"
    legacy = b"".join(msgspec.json.encode(line) + b"\n" for line in LEGACY)
    files = {
        Path("v0171") / V0171_FILE.name: V0171_FILE.read_bytes(),
        Path("shapes") / SHAPES_FILE.name: SHAPES_FILE.read_bytes(),
        Path("legacy") / f"rollout-2025-08-30T12-02-18-{LEGACY_SESSION}.jsonl": legacy,
    }
    for name, data in files.items():
        (sessions / name).parent.mkdir(parents=True, exist_ok=True)
        (sessions / name).write_bytes(data)
    pbuild.build(tmp_path / "fresh.db", [sessions])
    fresh = built_rows(tmp_path / "fresh.db")
    assert fresh["tool_calls"] and fresh["fixes"]
    # read in runs of a line or two (a rollout over CHUNK_BYTES): the same rows
    with monkeypatch.context() as patched:
        patched.setattr(pbuild, "CHUNK_BYTES", 1000)
        pbuild.build(tmp_path / "runs.db", [sessions])
    assert built_rows(tmp_path / "runs.db") == fresh
    split = {name: data.splitlines(keepends=True) for name, data in files.items()}
    for cut in range(1, max(map(len, split.values()))):
        db_path = tmp_path / f"cut{cut}.db"
        for name, lines in split.items():
            (sessions / name).write_bytes(b"".join(lines[:cut]))
        pbuild.build(db_path, [sessions])
        for step in (cut + 1, None):  # a line more, then the rest
            for name, lines in split.items():
                (sessions / name).write_bytes(b"".join(lines[:step]))
            pbuild.build(db_path, [sessions])
        got = built_rows(db_path)
        for table in BUILT_TABLES:
            assert got[table] == fresh[table], (cut, table)


def test_search_leaves_out_the_instructions_codex_gives_its_model(tmp_path):
    """Codex's developer messages (its sandbox and permissions rules, alike in every
    session but for a path) are the agent's text, not what was said: `pastfix search pytest
    sandbox escalated` gave only 4 copies of them (a new user's try, nu46 finding 11).
    search_messages leaves them out; the environment context Codex wrote as a user line
    (the project's) and what was said stay."""
    db_path = tmp_path / "index.db"
    pbuild.build(db_path, [SESSIONS])
    conn = queries.connect(db_path)
    try:
        said = {
            q: [(r["role"], r["kind"]) for r in queries.run(conn, "search_messages", q=q)]
            for q in ("sandboxed", "permissions instructions", "misspelled", "shop")
        }
        kept = conn.execute("select count(*) from messages where kind = 'developer'").fetchone()
    finally:
        conn.close()
    assert said == {
        "sandboxed": [],
        "permissions instructions": [],
        "misspelled": [("assistant", "text")],
        "shop": [("user", "prompt")],
    }
    assert kept == (1,)  # stored still: the session page shows it


def test_a_card_shows_only_the_looks_about_the_failure(tmp_path):
    """Codex reads a project with shell commands: the ten calls between `npm test` failing
    on a missing module and `npm install` were each a `before:` line of its card, most of
    them the agent finding its way (`sed -n` of another file, `rg TODO`, `ls docs`), none
    about the failure (a new user's try, ans41 finding 3). Looks that name what it is about
    (its program, its module, a file its error names) stay."""

    def shell(n: int, command: str, output: str, code: int = 0) -> list[dict]:
        call_id, at = f"c{n}", f"2026-03-18T19:20:{2 * n:02d}Z"
        arguments = msgspec.json.encode({"command": ["bash", "-lc", command]}).decode()
        result = msgspec.json.encode({"output": output, "metadata": {"exit_code": code}})
        return [
            {"timestamp": at, "type": "response_item", "payload": {"type": "function_call",
             "name": "shell", "call_id": call_id, "arguments": arguments}},
            {"timestamp": at, "type": "response_item", "payload": {
             "type": "function_call_output", "call_id": call_id, "output": result.decode()}},
        ]  # fmt: skip

    commands = [
        ("npm test", "Error: Cannot find module 'lodash'\nRequire stack:\n- /p/src/app.js", 1),
        ("sed -n 1,80p src/other.js", "const a = 1;", 0),
        ("rg -n TODO src", "src/x.js:3: // TODO", 0),
        ("ls docs", "a.md", 0),
        ("npm ls lodash", "p@1.0.0 /p\n└── (empty)", 0),
        ("git status --short", " M x.js", 0),
        ("cat node_modules/lodash/package.json", "cat: No such file or directory", 1),
        ("sed -n 1,20p src/app.js", "require('lodash')", 0),
        ("npm install lodash", "added 1 package", 0),
        ("npm test", "ok", 0),
    ]
    rows = [
        {"timestamp": "2026-03-18T19:20:00Z", "type": "session_meta",
         "payload": {"id": SESSION, "timestamp": "2026-03-18T19:20:00Z", "cwd": "/p"}},
    ]  # fmt: skip
    for n, (command, output, code) in enumerate(commands):
        rows += shell(n, command, output, code)
    conn = queries.connect(index_rollout(tmp_path, SESSION, rows, "2026-03-18T19-20-00"))
    [row] = queries.find_past_fix(conn, "Error: Cannot find module 'lodash'", 5)
    assert row["outcome"] == "fixed"
    assert [step["target"] for step in row["remedy"]] == ["npm install lodash"]
    assert [call["target"] for call in row["fix_calls"]] == [
        "npm ls lodash",
        "cat node_modules/lodash/package.json",
        "sed -n 1,20p src/app.js",
    ]
