"""The real Gemini CLI with pastfix's hooks, against a mock of the Gemini API.

Gemini CLI (npm @google/gemini-cli at GEMINI_VERSION) runs `gemini -p` with HOME and
GEMINI_CLI_HOME in a temporary folder, an API key, and GOOGLE_GEMINI_BASE_URL pointed
at a small server on the loopback interface that answers streamGenerateContent with
scripted turns (server-sent events). `pastfix hook install --agent gemini` wrote the
hooks into $GEMINI_CLI_HOME/.gemini/settings.json. The "model" runs a command that fails
with an error the index holds (tests/data/gemini's npm failure, fixed there by a
write_file), reads a missing file (a call that fails: the fixture's read of one failed
too), runs one that succeeds, then answers. The test reads what Gemini sent next: the
hook's past fix appended to the failed command's result, in <hook_context>; the read's
error followed by the recall (the reason of a "deny": Gemini drops additionalContext from
a failed call's result); nothing after the success; and the SessionEnd hook's build
indexes the new session with both failures, as they were, without the recall. Built as a
user's, the chat file Gemini wrote has no record of a type pastfix does not know.

A second test installs pastfix's MCP server and skill with `pastfix mcp install --agent
gemini` and `pastfix skill install --agent gemini`: the "model" calls find_past_fix under
the name Gemini gives it (read from the request's tool list) with that npm error, and the
test reads the rows Gemini sent it next, and the skill in the system instruction.

Gemini CLI is installed with npm into a folder under the system's temporary directory,
once; $PASTFIX_GEMINI names a gemini executable to use instead. The test skips when npm
is missing or the install fails, unless $PASTFIX_REQUIRE_GEMINI is set, where it fails.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import build_index
from mock_api import MockAPI
from npm_clients import assert_indexed_whole, client, given_or, npm_installed

from pastfix.cli import cli

pytestmark = pytest.mark.slow

GEMINI_VERSION = "0.61.0"  # runs on Debian's Node 20 (engines: node >= 20)
DATA = Path(__file__).parent / "data" / "gemini" / "home" / ".gemini"
PAST = "aaaaaaaa-1111-4111-8111-111111111111"  # the fixture session that fixed it
FAILING = "printf '%s\\n' 'npm ERR! Missing script: \"test\"' 'npm ERR!   npm run'; exit 1"
SUCCEEDING = "echo 'Tests: 3 passed'"
MARK = "pastfix: this error was seen before"


def gemini_executable() -> Path:
    """The gemini command: $PASTFIX_GEMINI, or GEMINI_VERSION installed with npm (once)."""
    return given_or(
        "PASTFIX_GEMINI",
        lambda: npm_installed(
            "@google/gemini-cli", GEMINI_VERSION, "node_modules/.bin/gemini", name="gemini"
        ),
    )


@pytest.fixture(scope="module")
def gemini():
    return client("PASTFIX_REQUIRE_GEMINI", gemini_executable)


def function_responses(request: dict) -> list[dict]:
    return [
        part["functionResponse"]
        for content in request.get("contents") or []
        for part in content.get("parts") or []
        if isinstance(part, dict) and "functionResponse" in part
    ]


def offers_shell(request: dict) -> bool:
    return any(
        f.get("name") == "run_shell_command"
        for tool in request.get("tools") or []
        for f in tool.get("functionDeclarations") or []
    )


class MockGemini(MockAPI):
    """generateContent / streamGenerateContent, answered from the script in `turn`; only
    the requests that offer the shell (the agent's turns) are kept."""

    def __init__(self) -> None:
        super().__init__(base="")

    missing = ""  # the file the read_file step reads, which does not exist

    def keep(self, path: str, body: dict) -> bool:
        return "countTokens" not in path and offers_shell(body)

    def turn(self, request: dict) -> list[dict]:
        """The model's parts: the failing command, a read of a missing file, the
        succeeding command, then text."""
        if not offers_shell(request):
            return [{"text": '{"reasoning": "simple", "complexity_score": 10}'}]
        steps = [
            ("run_shell_command", {"command": FAILING}),
            ("read_file", {"file_path": self.missing}),
            ("run_shell_command", {"command": SUCCEEDING}),
        ]
        done = len(function_responses(request))
        if done < len(steps):
            name, args = steps[done]
            return [{"functionCall": {"name": name, "args": args}}]
        return [{"text": "The tests pass."}]

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        if "countTokens" in path:
            return "application/json", json.dumps({"totalTokens": 10}).encode()
        answer = {
            "candidates": [
                {
                    "content": {"role": "model", "parts": self.turn(body)},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 1,
                "totalTokenCount": 11,
            },
            "modelVersion": "gemini-2.5-pro",
        }
        if "streamGenerateContent" in path:
            return "text/event-stream", f"data: {json.dumps(answer)}\r\n\r\n".encode()
        return "application/json", json.dumps(answer).encode()


FIXED_READ = "cccccccc-3333-4333-8333-333333333333"


def write_read_fixed(path: Path) -> None:
    """A Gemini chat whose read of a missing file failed, then wrote it and read it."""

    def call(n: int, name: str, args: dict, response: dict, status: str) -> dict:
        at = f"2026-05-03T09:00:{n:02d}.000Z"
        result = {"functionResponse": {"id": f"{name}_{n}", "name": name, "response": response}}
        return {
            "id": f"m{n}",
            "timestamp": at,
            "type": "gemini",
            "content": "",
            "toolCalls": [
                {
                    "id": f"{name}_{n}",
                    "name": name,
                    "args": args,
                    "result": [result],
                    "status": status,
                    "timestamp": at,
                }
            ],
        }

    notes = {"file_path": "/tmp/app/notes.txt"}
    lines = [
        {
            "sessionId": FIXED_READ,
            "projectHash": "2bf7c3a6",
            "startTime": "2026-05-03T09:00:00.000Z",
            "lastUpdated": "2026-05-03T09:00:09.000Z",
            "kind": "main",
        },
        {
            "id": "m1",
            "timestamp": "2026-05-03T09:00:01.000Z",
            "type": "user",
            "content": [{"text": "read the notes"}],
        },
        call(2, "read_file", notes, {"error": "File not found: /tmp/app/notes.txt"}, "error"),
        call(
            3,
            "write_file",
            {**notes, "content": "notes\n"},
            {"output": "Successfully created and wrote to new file: /tmp/app/notes.txt."},
            "success",
        ),
        call(4, "read_file", notes, {"output": "notes\n"}, "success"),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture
def api():
    server = MockGemini()
    yield server
    server.close()


def run_gemini(gemini, api, home, gemini_home, project, prompt):
    """`gemini -p prompt` against the mock, the settings pastfix wrote kept, with the API key
    auth, no folder trust (so user MCP servers run) and no usage statistics added."""
    settings_path = gemini_home / ".gemini" / "settings.json"  # the override is honoured
    settings = json.loads(settings_path.read_text())
    settings["security"] = {
        "auth": {"selectedType": "gemini-api-key"},
        "folderTrust": {"enabled": False},
    }
    settings["privacy"] = {"usageStatisticsEnabled": False}
    settings_path.write_text(json.dumps(settings))
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(gemini_home),
        "GEMINI_API_KEY": "test-key",
        "GOOGLE_GEMINI_BASE_URL": api.url,
        "NO_COLOR": "1",
    }
    done = subprocess.run(
        [str(gemini), "-p", prompt, "--yolo", "-m", "gemini-2.5-pro", "-o", "text"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done, env


def declared(request: dict) -> list[str]:
    """The names of the functions a request offers the model."""
    return [
        f.get("name", "")
        for tool in request.get("tools") or []
        for f in tool.get("functionDeclarations") or []
    ]


# Turns the MCP mock waits, half a second each, for pastfix's tools to be offered.
WAITS = 20
ERROR = 'npm ERR! Missing script: "test"'


class MockGeminiMcp(MockGemini):
    """The model calls pastfix's find_past_fix with ERROR once Gemini offers it (until then,
    up to WAITS times, `sleep 0.5`), then answers."""

    tool = ""  # the name Gemini gives pastfix's find_past_fix

    def turn(self, request: dict) -> list[dict]:
        if not offers_shell(request):
            return super().turn(request)
        ours = [name for name in declared(request) if name.endswith("find_past_fix")]
        done = function_responses(request)
        if ours and not any(r.get("name") == ours[0] for r in done):
            self.tool = ours[0]
            return [{"functionCall": {"name": ours[0], "args": {"error": ERROR}}}]
        if not ours and len(done) < WAITS:
            return [
                {"functionCall": {"name": "run_shell_command", "args": {"command": "sleep 0.5"}}}
            ]
        return [{"text": "Found it." if ours else "No pastfix tool."}]


def test_the_mcp_tool_and_the_skill_reach_the_model_in_gemini_cli(gemini, tmp_path, monkeypatch):
    home, gemini_home, project = tmp_path / "home", tmp_path / "gemini-home", tmp_path / "app"
    for folder in (home, gemini_home, project):
        folder.mkdir()
    db = tmp_path / "index.db"
    build_index(db, DATA)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(gemini_home))
    for args in (["mcp", "install", "--agent", "gemini", "--db", str(db)],
                 ["skill", "install", "--agent", "gemini"]):  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    assert (gemini_home / ".gemini" / "skills" / "pastfix" / "SKILL.md").is_file()
    api = MockGeminiMcp()
    try:
        done, _ = run_gemini(gemini, api, home, gemini_home, project, "how was this fixed?")
    finally:
        api.close()
    assert "Found it." in done.stdout, (done.stdout + done.stderr)[-3000:]
    assert api.tool == "mcp_pastfix_find_past_fix"
    # The skill is listed in the system instruction, from $GEMINI_CLI_HOME/.gemini/skills.
    listing = api.requests[0]["systemInstruction"]["parts"][0]["text"]
    skill = gemini_home / ".gemini" / "skills" / "pastfix" / "SKILL.md"
    assert "<name>pastfix</name>" in listing and f"<location>{skill}</location>" in listing
    # What find_past_fix answered, as Gemini sent it to the model next: Gemini 0.61 passes
    # an MCP result's text content (pastfix's compact rows), not its structured content.
    [answer] = [r for r in function_responses(api.requests[-1]) if r["name"] == api.tool]
    output = answer["response"]["output"]
    assert output.startswith("<untrusted_context>\nfind_past_fix: 1 row\n1.\n"), output
    assert f"  session_id: {PAST}\n" in output and f"  resume: gemini --resume {PAST}\n" in output
    assert "  outcome: fixed\n" in output and '"target": "package.json"' in output
    # The chat Gemini wrote, built as a user's: every record known, no call failed.
    assert_indexed_whole(tmp_path / "whole.db", gemini_home / ".gemini", failures=0)


def test_the_after_tool_hook_recalls_a_past_fix_in_gemini_cli(gemini, api, tmp_path, monkeypatch):
    home, gemini_home, project = tmp_path / "home", tmp_path / "gemini-home", tmp_path / "app"
    for folder in (home, gemini_home, project):
        folder.mkdir()
    db = tmp_path / "index.db"
    # The fixture's read of a missing file was not fixed, which the hook does not recall:
    # beside it, a past session that wrote the file it could not read, then read it.
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    write_read_fixed(data / "tmp" / "app" / "chats" / "session-2026-05-03T09-00-cccccccc.jsonl")
    build_index(db, data)
    api.missing = str(project / "missing.txt")
    past_sessions = {r[0] for r in sqlite3.connect(db).execute("SELECT session_id FROM sessions")}
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(gemini_home))
    result = CliRunner().invoke(cli, ["hook", "install", "--agent", "gemini", "--db", str(db)])
    assert result.exit_code == 0, result.output
    done, env = run_gemini(gemini, api, home, gemini_home, project, "run the tests")
    assert "The tests pass." in done.stdout
    version = subprocess.run([str(gemini), "--version"], env=env, capture_output=True, text=True)
    assert version.stdout.strip() == GEMINI_VERSION

    # What Gemini sent the model after each call: the failure with pastfix's context.
    after_failure = next(r for r in api.requests if len(function_responses(r)) == 1)
    (failed,) = function_responses(after_failure)
    output = failed["response"]["output"]
    assert "Exit Code: 1" in output and "<hook_context>" + MARK in output
    assert f"gemini --resume {PAST}" in output and "package.json" in output
    # A failed call's result is {"error": ...} alone: the recall comes as a deny's reason.
    after_read = next(r for r in api.requests if len(function_responses(r)) == 2)
    error = function_responses(after_read)[1]["response"]["error"]
    assert error.startswith(f"File not found: {project / 'missing.txt'}\n\n{MARK}")
    assert f"session {FIXED_READ}" in error and "fix: edited /tmp/app/notes.txt" in error
    assert "not fixed there" not in error
    last = next(r for r in api.requests if len(function_responses(r)) == 3)
    assert "pastfix" not in function_responses(last)[2]["response"]["output"]

    # SessionEnd started a build of $GEMINI_CLI_HOME/.gemini in the background.
    deadline = time.monotonic() + 60
    new = []
    while time.monotonic() < deadline and not new:
        time.sleep(0.5)
        try:
            conn = sqlite3.connect(db, timeout=5)
            found = conn.execute(
                "SELECT s.session_id, s.agent, s.project, (SELECT count(*) FROM tool_results r"
                " WHERE r.session_id = s.session_id AND r.is_error) FROM sessions s"
            ).fetchall()
            conn.close()
        except sqlite3.Error:
            continue
        new = [r for r in found if r[0] not in past_sessions]
    assert len(new) == 1, new
    session_id, agent, project_root, failures = new[0]
    assert agent == "gemini" and failures == 2
    assert Path(project_root).resolve() == project.resolve()
    # Stored as the failures they were, without pastfix's answers to them.
    stored = sqlite3.connect(db).execute(
        "SELECT content FROM tool_results WHERE session_id = ? AND is_error ORDER BY rowid",
        [session_id],
    )
    assert [r[0] for r in stored] == [
        'Exit code 1\nnpm ERR! Missing script: "test"\nnpm ERR!   npm run',
        f"File not found: {project / 'missing.txt'}",
    ]
    # Built as a user's: every record of the chat Gemini wrote known, both failures stored.
    whole = assert_indexed_whole(tmp_path / "whole.db", gemini_home / ".gemini", failures=2)
    assert (whole["tool_calls"], whole["tool_results"]) == (3, 3)
