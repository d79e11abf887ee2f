"""The real Codex CLI with pastfix installed, against a mock of the OpenAI Responses API.

Codex CLI (npm @openai/codex at npm_clients.CODEX_VERSION) runs `codex exec` with HOME and
CODEX_HOME in a temporary folder, its model provider pointed at a small
Responses API server on the loopback interface (MockResponses: streaming SSE,
the model's turns scripted). The "model" runs a command that fails with an
error the index holds, then one that succeeds, then answers. The test reads
what Codex sent next: the hook's past fix as a developer message beside the
failed call's output, nothing more after the success, the skill in the skill
list, pastfix's MCP tools among the tools; and the SessionEnd hook's build
indexes the new session; the rollout Codex wrote, built as a user's, has no line
of a type pastfix does not know. A second run without
--dangerously-bypass-hook-trust shows why the one-time trust step (/hooks in
Codex's TUI) is needed: an untrusted hook does not run, and `codex exec` says
nothing about it.

Codex is installed with npm into a folder under the system's temporary
directory, once; $PASTFIX_CODEX names a codex executable to use instead. The
test skips when npm is missing or the install fails, unless
$PASTFIX_REQUIRE_CODEX is set (CI), where it fails.
"""

import json
import os
import re
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, build_index
from mock_api import MockAPI, event_stream
from npm_clients import assert_indexed_whole, client, codex_executable

from pastfix import install, queries
from pastfix.cli import cli

pytestmark = pytest.mark.slow

PAST = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"  # tests/fixtures/codex/sessions: fixed there
# Prints the error of the fixture's failed `npm test`, and fails as it did.
FAILING = (
    "printf '%s\\n' 'npm ERR! Missing script: \"test\"' 'npm ERR! To see a list of scripts,"
    " run:' 'npm ERR!   npm run'; exit 1"
)
SUCCEEDING = "echo 'Tests: 3 passed, 3 total'"
MARK = "pastfix: this error was seen before"
# Turns the mock waits, half a second each, for pastfix's MCP tools to be listed.
WAITS = 20


@pytest.fixture(scope="module")
def codex():
    return client("PASTFIX_REQUIRE_CODEX", codex_executable)


class MockResponses(MockAPI):
    """A scripted OpenAI Responses API on 127.0.0.1: the model's turns, told from the input.

    No call's output yet: run FAILING (call_fail), once pastfix's MCP tools are
    offered (until then, up to WAITS times, `sleep 0.5`). Its output: run
    SUCCEEDING (call_ok). That one's output: answer and end the turn. Every
    request body is kept in `requests`.
    """

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        return event_stream(self.turn(body), named=True)

    def turn(self, body: dict) -> list[dict]:
        done, n = answered(body), len(self.requests)
        if "call_ok" in done:
            text = {"type": "output_text", "text": "The tests pass now."}
            item = {"type": "message", "role": "assistant", "id": f"msg_{n}", "content": [text]}
        else:
            call, cmd = ("call_fail", FAILING)
            if "call_fail" in done:
                call, cmd = ("call_ok", SUCCEEDING)
            elif not any("find_past_fix" in name for name in tool_names(body)) and n < WAITS:
                # Codex lists an MCP server's tools once it has started: wait for pastfix's.
                call, cmd = (f"call_wait{n}", "sleep 0.5")
            item = {"type": "function_call", "call_id": call, "name": "exec_command"}
            item["arguments"] = json.dumps({"cmd": cmd})
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
        return [
            {"type": "response.created", "response": {"id": f"resp_{n}"}},
            {"type": "response.output_item.done", "item": item},
            {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}},
        ]


@pytest.fixture
def mock():
    server = MockResponses()
    yield server
    server.close()


@pytest.fixture
def installed(fake_home, monkeypatch, tmp_path, mock):
    """HOME with Codex pointed at the mock and pastfix installed by its own commands."""
    codex_home = fake_home / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        f'model = "gpt-5.1-codex"\nmodel_provider = "mock"\n\n[model_providers.mock]\n'
        f'name = "mock"\nbase_url = "{mock.url}"\nwire_api = "responses"\n'
    )
    db = tmp_path / "index.db"
    build_index(db, FIXTURES / "codex" / "sessions")
    for args in (["hook", "install", "--agent", "codex"], ["skill", "install", "--agent", "codex"]):
        out = CliRunner().invoke(cli, [*args, *(["--db", str(db)] if "hook" in args else [])])
        assert out.exit_code == 0, out.output
    install.install_codex_mcp(install.codex_config_file(), db)
    project = tmp_path / "shop"
    project.mkdir()
    return project


def run_codex(codex, project, *flags):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "CODEX_HOME": os.environ["CODEX_HOME"],
        "LANG": "C.UTF-8",
    }
    # No sandbox: the commands are the test's own, in a temporary folder.
    unsandboxed = "--dangerously-bypass-approvals-and-sandbox"
    command = [
        str(codex),
        "exec",
        "--skip-git-repo-check",
        unsandboxed,
        *flags,
        "make the tests pass",
    ]
    return subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=300
    )


def tool_names(body: dict) -> set[str]:
    """The names of the tools a request offers, those in namespaces too."""
    return {t.get("name", "") for tool in body["tools"] for t in [tool, *tool.get("tools", [])]}


def answered(body: dict) -> set[str]:
    return {i.get("call_id") for i in body["input"] if i["type"] == "function_call_output"}


def pastfix_messages(body: dict) -> list[tuple[int, str]]:
    """The developer messages of a request that carry pastfix's context, with their place."""
    found = []
    for place, item in enumerate(body["input"]):
        if item["type"] == "message" and item.get("role") == "developer":
            text = "".join(c.get("text", "") for c in item["content"])
            if MARK in text:
                found.append((place, text))
    return found


def output_place(body: dict, call_id: str) -> int:
    items = enumerate(body["input"])
    return next(
        p for p, i in items if i["type"] == "function_call_output" and i["call_id"] == call_id
    )


def test_the_past_fix_reaches_the_model_after_a_failed_command(codex, installed, mock):
    done = run_codex(codex, installed, "--dangerously-bypass-hook-trust")
    assert done.returncode == 0, done.stderr[-3000:]
    *waits, before, after_failure, after_success = mock.requests
    assert answered(after_failure) - answered(before) == {"call_fail"}
    assert answered(after_success) - answered(after_failure) == {"call_ok"}
    # The skill is listed, from ~/.agents/skills; pastfix's MCP server is connected.
    skills = json.dumps(before["input"])
    assert "- pastfix: " in skills and str(Path.home() / ".agents" / "skills") in skills
    assert any("find_past_fix" in name for name in tool_names(before)), tool_names(before)
    assert all(pastfix_messages(body) == [] for body in [*waits, before])
    # After the failure: the past fix, remedy first, next to the call's output.
    [(place, text)] = pastfix_messages(after_failure)
    assert abs(place - output_place(after_failure, "call_fail")) == 1
    assert f"codex resume {PAST}" in text
    assert text.index("fix: edited package.json") < text.index("confirmed: shell `npm test`")
    # After the success: nothing more.
    assert [t for _, t in pastfix_messages(after_success)] == [text]
    # At the end, the SessionEnd hook indexes the new session in the background.
    [session] = re.findall(r"^session id: (\S+)$", done.stderr, re.MULTILINE)
    assert session in indexed_sessions(installed.parent / "index.db"), done.stderr[-3000:]
    # The rollout, built as a user's: every line known, its failure stored as one.
    sessions = Path(os.environ["CODEX_HOME"]) / "sessions"
    summary = assert_indexed_whole(installed.parent / "whole.db", sessions, failures=1)
    assert summary["tool_results"] == len(answered(after_success))


def indexed_sessions(db: Path, seconds: float = 30) -> set[str]:
    """The sessions in the index once a background build has added one (or `seconds` passed)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            conn = queries.connect(db)
            try:
                found = {row[0] for row in conn.execute("select session_id from sessions")}
            finally:
                conn.close()
        except (queries.NotAnIndex, sqlite3.OperationalError):
            found = set()
        if len(found) > 1 or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_an_untrusted_hook_does_not_run(codex, installed, mock):
    # Until the user trusts it in /hooks (the TUI): `codex exec` says nothing of it.
    done = run_codex(codex, installed)
    assert done.returncode == 0, done.stderr[-3000:]
    assert any("call_fail" in answered(body) for body in mock.requests)
    assert all(pastfix_messages(body) == [] for body in mock.requests)


def test_codex_lists_the_mcp_server(codex, installed):
    env = {**os.environ, "LANG": "C.UTF-8"}
    done = subprocess.run(
        [str(codex), "mcp", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.startswith("pastfix ")]
    assert install.codex_mcp_table(Path("x"))["command"] in line and "enabled" in line
