"""The real opencode with pastfix's plugin installed, against a mock of a chat completions API.

opencode (npm opencode-ai at OPENCODE_VERSION) runs `opencode run` with HOME and the XDG
folders in a temporary folder, its model an OpenAI-compatible provider pointed at a small
chat completions server on the loopback interface (MockChat: streaming SSE, the model's
turns scripted). The "model" runs a bash command that fails with an error the index holds
(tests/data/opencode), then answers. The test reads what opencode sent next: the call's
output with pastfix's past fix appended by the plugin. Then the store opencode wrote is
indexed: the session, its project, its failed call and its version, as opencode 1.18 keeps
them; built as a user's, the store has no row of a type pastfix does not know.

A second test installs pastfix's MCP server and skill with `pastfix mcp install --agent
opencode` and `pastfix skill install --agent opencode` into that opencode.json (its other
keys kept) and config folder: the "model" calls find_past_fix under the name opencode
gives it (read from the request's tool list) with that error, and the test reads the
rows opencode sent it next, and the skill in the system prompt.

opencode is installed with npm into a folder under the system's temporary directory, once;
$PASTFIX_OPENCODE names an opencode executable to use instead. The test skips when npm is
missing or the install fails, unless $PASTFIX_REQUIRE_OPENCODE is set, where it fails.
"""

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import build_index
from mock_api import MockAPI, event_stream
from npm_clients import assert_indexed_whole, client, given_or, npm_installed

from pastfix.cli import cli

pytestmark = pytest.mark.slow

OPENCODE_VERSION = "1.18.33"
DATA = Path(__file__).parent / "data" / "opencode"
PAST = "ses_5a1b2c3d4ffeAbCdEfGhIjKlMn"  # its failed build, fixed by an edit
FAILING = (
    "printf '%s\\n' \"Module not found: Error: Can't resolve './quokka-widget' in"
    " '/home/dev/app/src'\" >&2; exit 1"
)
MARK = "pastfix: this error was seen before"


def opencode_executable() -> Path:
    """The opencode command: $PASTFIX_OPENCODE, or OPENCODE_VERSION installed with npm (once)."""
    return given_or(
        "PASTFIX_OPENCODE",
        lambda: npm_installed(
            "opencode-ai", OPENCODE_VERSION, "node_modules/.bin/opencode", name="opencode"
        ),
    )


@pytest.fixture(scope="module")
def opencode():
    return client("PASTFIX_REQUIRE_OPENCODE", opencode_executable)


def chunks(deltas: list[tuple[dict, str | None]]) -> list[dict]:
    """The streamed chunks of a turn: each (delta, finish reason), then the usage."""
    found = [
        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        for delta, finish in deltas
    ]  # fmt: skip
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    return [*found, {"id": "c", "object": "chat.completion.chunk", "created": 0,
                     "model": "m", "choices": [], "usage": usage}]  # fmt: skip


class MockChat(MockAPI):
    """A scripted chat completions API on 127.0.0.1, the model's turn told from the request.

    A request without tools (opencode's title request) gets a title; one with tools and
    no tool result yet, a bash call of FAILING; one with a tool result, an answer. Every
    request body is kept in `requests`.
    """

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        return event_stream([*self.turn(body), "[DONE]"])

    def turn(self, body: dict) -> list[dict]:
        answered = any(m.get("role") == "tool" for m in body.get("messages", []))
        if body.get("tools") and not answered:
            arguments = json.dumps({"command": FAILING, "description": "Build the app"})
            call = {"index": 0, "id": "call_build", "type": "function",
                    "function": {"name": "bash", "arguments": arguments}}  # fmt: skip
            deltas = [({"role": "assistant", "tool_calls": [call]}, None), ({}, "tool_calls")]
        else:
            text = "The build fails on a missing module." if body.get("tools") else "Build"
            deltas = [({"role": "assistant", "content": text}, None), ({}, "stop")]
        return chunks(deltas)

    def tool_outputs(self) -> list[str]:
        return [
            str(m.get("content"))
            for body in self.requests
            for m in body.get("messages", [])
            if m.get("role") == "tool"
        ]


def opencode_home(tmp_path: Path, url: str) -> dict[str, str]:
    """The environment of an opencode whose HOME and XDG folders are under `tmp_path`, its
    model the mock at `url`, every tool allowed."""
    home = tmp_path / "home"
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                              "options": {"baseURL": url, "apiKey": "none"},
                              "models": {"m": {"name": "m", "tool_call": True}}}},
        "model": "mock/m",
        "small_model": "mock/m",
        "permission": {"*": "allow"},
        "share": "disabled",
        "autoupdate": False,
    }  # fmt: skip
    (home / ".config" / "opencode").mkdir(parents=True)
    (home / ".config" / "opencode" / "opencode.json").write_text(json.dumps(config))
    return env


def run_opencode(opencode, env: dict[str, str], project: Path, prompt: str, mock: MockAPI):
    """`opencode run prompt` in a new folder `project`, the mock closed after it."""
    project.mkdir()
    try:
        # opencode takes its folder from $PWD, which the test's own environment names
        done = subprocess.run(
            [str(opencode), "run", prompt], cwd=project, env={**env, "PWD": str(project)},
            capture_output=True, text=True, timeout=240,
        )  # fmt: skip
    finally:
        mock.close()
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_opencode_shows_the_model_the_past_fix_and_its_store_is_indexed(opencode, tmp_path):
    mock = MockChat()
    env = opencode_home(tmp_path, mock.url)
    home = tmp_path / "home"
    index = tmp_path / "index.db"
    build_index(index, DATA)
    installed = CliRunner().invoke(
        cli, ["hook", "install", "--agent", "opencode", "--db", str(index)], env=env
    )
    assert installed.exit_code == 0, installed.output
    run_opencode(opencode, env, tmp_path / "app", "build the app", mock)

    outputs = mock.tool_outputs()
    assert outputs, [sorted(r) for r in mock.requests]
    assert outputs[0].startswith("Module not found: Error: Can't resolve './quokka-widget'")
    assert MARK in outputs[0]
    assert f"opencode --session {PAST}" in outputs[0]

    # What opencode wrote, read by pastfix: opencode stores the output the model read,
    # the past fix with it, which the reader leaves out.
    store = home / ".local" / "share" / "opencode"
    stats = build_index(index, store)
    assert stats.problems == 0
    conn = sqlite3.connect(index)
    try:
        sessions = conn.execute(
            "SELECT project, version, tool_error_count FROM sessions"
            " WHERE agent = 'opencode' AND session_id != ?",
            [PAST],
        ).fetchall()
        failed = conn.execute(
            "SELECT r.content FROM tool_results r JOIN tool_calls c USING (tool_use_id)"
            " WHERE r.is_error = 1 AND c.command = ?",
            [FAILING],
        ).fetchall()
    finally:
        conn.close()
    assert sessions == [(str(tmp_path / "app"), OPENCODE_VERSION, 1)]
    assert len(failed) == 1 and failed[0][0].startswith("Exit code 1\nModule not found")
    assert MARK not in failed[0][0]
    # The store alone, built as a user's: every message and part known, its failure stored.
    whole = assert_indexed_whole(tmp_path / "whole.db", store, failures=1)
    assert (whole["messages"], whole["tool_calls"]) == (4, 1)


# Turns the MCP mock waits, half a second each, for pastfix's tools to be offered.
WAITS = 20
ERROR = "Module not found: Error: Can't resolve './quokka-widget' in '/home/dev/app/src'"


class MockMcp(MockChat):
    """The model calls pastfix's find_past_fix with ERROR once opencode offers it (until
    then, up to WAITS times, a bash `sleep 0.5`), then answers; a request without tools
    (the title) gets a title."""

    tool = ""  # the name opencode gives pastfix's find_past_fix

    def turn(self, body: dict) -> list[dict]:
        if not body.get("tools"):
            return super().turn(body)
        ours = [n for n in offered(body) if n.endswith("find_past_fix")]
        done = [m.get("tool_call_id") for m in body.get("messages", []) if m.get("role") == "tool"]
        if ours and "call_mcp" not in done:
            self.tool = ours[0]
            call = ("call_mcp", ours[0], {"error": ERROR})
        elif not ours and len(done) < WAITS:
            call = (
                f"call_wait{len(done)}",
                "bash",
                {"command": "sleep 0.5", "description": "wait"},
            )
        else:
            text = "Found it." if ours else "No tool."
            return chunks([({"role": "assistant", "content": text}, None), ({}, "stop")])
        tool_call = {"index": 0, "id": call[0], "type": "function",
                     "function": {"name": call[1], "arguments": json.dumps(call[2])}}  # fmt: skip
        return chunks(
            [({"role": "assistant", "tool_calls": [tool_call]}, None), ({}, "tool_calls")]
        )


def offered(body: dict) -> list[str]:
    return [t.get("function", {}).get("name", "") for t in body.get("tools") or []]


def test_the_mcp_tool_and_the_skill_reach_the_model_in_opencode(opencode, tmp_path):
    mock = MockMcp()
    env = opencode_home(tmp_path, mock.url)
    index = tmp_path / "index.db"
    build_index(index, DATA)
    for args in (["mcp", "install", "--agent", "opencode", "--db", str(index)],
                 ["skill", "install", "--agent", "opencode"]):  # fmt: skip
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 0, result.output
    config = tmp_path / "home" / ".config" / "opencode"
    assert (config / "skills" / "pastfix" / "SKILL.md").is_file()
    assert json.loads((config / "opencode.json").read_text())["model"] == "mock/m"  # kept
    done = run_opencode(opencode, env, tmp_path / "app", "how was this fixed before?", mock)
    assert "Found it." in done.stdout, (done.stdout + done.stderr)[-2000:]
    assert mock.tool == "pastfix_find_past_fix"
    after = mock.requests[-1]
    # The skill is listed in the system prompt, from $XDG_CONFIG_HOME/opencode/skills.
    system = next(str(m["content"]) for m in after["messages"] if m["role"] == "system")
    skill = config / "skills" / "pastfix" / "SKILL.md"
    assert "<name>pastfix</name>" in system and f"<location>{skill}</location>" in system
    # find_past_fix's answer, as opencode sent it to the model next: opencode 1.18 passes an
    # MCP result's text content (pastfix's compact rows), not its structured content.
    [answer] = [m["content"] for m in after["messages"] if m.get("tool_call_id") == "call_mcp"]
    assert answer.startswith("find_past_fix: 1 row\n1.\n"), answer
    assert (
        f"  session_id: {PAST}\n" in answer and f"  resume: opencode --session {PAST}\n" in answer
    )
    assert "  outcome: fixed\n" in answer and "'./widgets/quokka'" in answer
    # The store, built as a user's: every message and part known, no call failed.
    store = tmp_path / "home" / ".local" / "share" / "opencode"
    assert_indexed_whole(tmp_path / "whole.db", store, failures=0)
