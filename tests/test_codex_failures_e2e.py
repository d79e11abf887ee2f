"""A real Codex user's failures, found with their fixes: Codex CLI writes the rollouts.

The real Codex CLI (tests/npm_clients.py's CODEX_VERSION, installed with npm once;
$PASTFIX_CODEX names another) runs `codex exec` once per scenario, with HOME and
CODEX_HOME in a temporary folder, against a scripted Responses API on the loopback
interface. In each, the "model" makes a call that fails the way a user's does, then the
call that fixes it, then the one that confirms it. pastfix then builds an index from the
rollouts Codex wrote and must store each failure as failed, with its text, and find it by
the error as Codex's terminal showed it, first, with the fixing step on its card. Built
as a user's, the rollouts have no line of a type pastfix does not know.

The scenarios take about 10 s in all (11 runs of `codex exec`, 0.3 to 1.5 s each, on this
2-core machine). A scenario whose failure pastfix did not recognise before this test:
view_image of a missing file, exec_command in a missing workdir, a test run that outlived
its exec_command and failed when polled with write_stdin, an MCP tool's error (its
isError only in the item_completed event). The test skips when npm is missing or the
install fails, unless $PASTFIX_REQUIRE_CODEX is set (CI), where it fails.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from mock_api import MockAPI, event_stream
from npm_clients import assert_indexed_whole, client, codex_executable

from pastfix import build as pbuild
from pastfix.cli import cli

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
# A model whose metadata Codex 0.171.0 ships offers the apply_patch tool (freeform); MCP
# tools are offered at once (not behind tool_search) only for a model Codex does not know.
MODEL, MCP_MODEL = "gpt-5.5", "gpt-5.1-codex"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
Step = dict | Callable[[dict], dict]


def exec_command(call_id: str, cmd: str, **more: object) -> dict:
    arguments = json.dumps({"cmd": cmd, **more})
    return {"type": "function_call", "call_id": call_id, "name": "exec_command",
            "arguments": arguments}  # fmt: skip


def function(call_id: str, name: str, args: dict, namespace: str | None = None) -> dict:
    item = {"type": "function_call", "call_id": call_id, "name": name}
    item["arguments"] = json.dumps(args)
    return {**item, "namespace": namespace} if namespace else item


def patch(call_id: str, body: str) -> dict:
    text = f"*** Begin Patch\n{body}*** End Patch\n"
    return {"type": "custom_tool_call", "call_id": call_id, "name": "apply_patch", "input": text}


def poll(call_id: str, of: str) -> Callable[[dict], dict]:
    """A write_stdin to the process that the call `of` left running (its id from its output)."""

    def step(body: dict) -> dict:
        [output] = [
            i["output"]
            for i in body["input"]
            if i["type"] == "function_call_output" and i["call_id"] == of
        ]
        session = int(re.search(r"session ID (\d+)", output).group(1))
        args = {"session_id": session, "chars": "", "yield_time_ms": 5000}
        return function(call_id, "write_stdin", args)

    step.call_id = call_id  # type: ignore[attr-defined]
    return step


@dataclass
class Scenario:
    """Calls that fail, then fix, then confirm; the error as Codex's terminal shows it."""

    name: str
    steps: list[Step]
    failed: str  # the call that fails
    fixed: str  # the call that succeeds after the fix
    error: str
    card: str  # on the found failure's card: the step that fixed it
    files: dict[str, str | bytes] = field(default_factory=dict)
    model: str = MODEL
    mcp: bool = False

    def call_ids(self) -> list[str]:
        return [s["call_id"] if isinstance(s, dict) else s.call_id for s in self.steps]  # type: ignore[union-attr]


SCENARIOS = [
    Scenario(
        "missing_module",
        [
            exec_command("call_mm_run", "python3 -c 'import greetings; print(greetings.hello())'"),
            patch("call_mm_add", "*** Add File: greetings.py\n+def hello():\n+    return 'hi'\n"),
            exec_command("call_mm_ok", "python3 -c 'import greetings; print(greetings.hello())'"),
        ],
        "call_mm_run",
        "call_mm_ok",
        "ModuleNotFoundError: No module named 'greetings'",
        "fix:    edit greetings.py",
    ),
    Scenario(
        "command_not_found",
        [
            exec_command("call_nf_run", "ack TODO src/"),
            exec_command("call_nf_ok", "grep -rn TODO src/"),
        ],
        "call_nf_run",
        "call_nf_ok",
        "/bin/bash: line 1: ack: command not found",
        "fix:    exec_command grep -rn TODO src/",
        files={"src/app.py": "# TODO: remove\n"},
    ),
    Scenario(
        "patch_context",
        [
            patch(
                "call_pm_bad",
                "*** Update File: cart.py\n@@\n def total(items):\n"
                "-    return sum(item.cost for item in items)\n"
                "+    return sum(item.price * item.qty for item in items)\n",
            ),
            patch(
                "call_pm_ok",
                "*** Update File: cart.py\n@@\n def total(items):\n"
                "-    return sum(i.price for i in items)\n"
                "+    return sum(i.price * i.qty for i in items)\n",
            ),
        ],
        "call_pm_bad",
        "call_pm_ok",
        "apply_patch verification failed: Failed to find expected lines in {project}/cart.py:",
        "fix:    edit cart.py",
        files={"cart.py": "def total(items):\n    return sum(i.price for i in items)\n"},
    ),
    Scenario(
        "missing_file",
        [
            exec_command("call_mf_cat", "cat config/settings.toml"),
            exec_command("call_mf_ok", "cat settings.toml"),
        ],
        "call_mf_cat",
        "call_mf_ok",
        "cat: config/settings.toml: No such file or directory",
        "fix:    exec_command cat settings.toml",
        files={"settings.toml": "debug = true\n"},
    ),
    Scenario(
        "missing_image",
        [
            function("call_mi_view", "view_image", {"path": "screenshots/login.png"}),
            exec_command("call_mi_find", "find . -name login.png"),
            function("call_mi_ok", "view_image", {"path": "docs/login.png"}),
        ],
        "call_mi_view",
        "call_mi_ok",
        "unable to locate image at `{project}/screenshots/login.png`: No such file or directory"
        " (os error 2)",
        "fix:    exec_command find . -name login.png",
        files={"docs/login.png": PNG},
    ),
    Scenario(
        "missing_workdir",
        [
            exec_command("call_wd_run", "ls", workdir="/nonexistent/app"),
            exec_command("call_wd_ok", "ls"),
        ],
        "call_wd_run",
        "call_wd_ok",
        'exec_command failed: CreateProcess { message: "Rejected(\\"Failed to create unified'
        ' exec process: No such file or directory (os error 2)\\")" }',
        "(changed: not in /nonexistent/app)",
    ),
    Scenario(
        "long_test_run",
        [
            exec_command("call_lt_run", "sleep 1; python3 test_cart.py", yield_time_ms=250),
            poll("call_lt_poll", "call_lt_run"),
            patch(
                "call_lt_fix",
                "*** Update File: test_cart.py\n@@\n import sys\n"
                "-sys.exit('FAIL: test_total expected 30, got 32')\n+print('1 passed')\n",
            ),
            exec_command("call_lt_ok", "python3 test_cart.py"),
        ],
        "call_lt_poll",
        "call_lt_ok",
        "FAIL: test_total expected 30, got 32",
        "fix:    edit test_cart.py",
        files={"test_cart.py": "import sys\nsys.exit('FAIL: test_total expected 30, got 32')\n"},
    ),
    Scenario(
        "mcp_tool_error",
        [
            function("call_mcp_bad", "query", {"sql": "select count(*) from users"}, "mcp__db"),
            function("call_mcp_ok", "query", {"sql": "select count(*) from accounts"}, "mcp__db"),
        ],
        "call_mcp_bad",
        "call_mcp_ok",
        'ERROR:  relation "users" does not exist',
        "fix:    mcp__db__query sql: select count(*) from accounts  (changed: sql: select"
        " count(*) from accounts)",
        model=MCP_MODEL,
        mcp=True,
    ),
]
# Turns the mock waits, half a second each, for the MCP server's tools to be listed.
WAITS = 20


class ScriptedModel(MockAPI):
    """The Responses API of one scenario: its next step once the last one has an output."""

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        self.scenario = scenario

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        n = len(self.requests)
        answered = {i.get("call_id") for i in body["input"] if i["type"].endswith("_output")}
        done = sum(call_id in answered for call_id in self.scenario.call_ids())
        tools = {t.get("name") for tool in body["tools"] for t in [tool, *tool.get("tools", [])]}
        if self.scenario.mcp and "query" not in tools and n < WAITS:
            item: dict = exec_command(f"call_wait{n}", "sleep 0.5")
        elif done < len(self.scenario.steps):
            step = self.scenario.steps[done]
            item = step if isinstance(step, dict) else step(body)
        else:
            text = {"type": "output_text", "text": "Fixed."}
            item = {"type": "message", "role": "assistant", "content": [text]}
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
        return event_stream(
            [
                {"type": "response.created", "response": {"id": f"resp_{n}"}},
                {"type": "response.output_item.done", "item": {"id": f"item_{n}", **item}},
                {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}},
            ],
            named=True,
        )


def run_scenario(codex: Path, home: Path, scenario: Scenario) -> tuple[str, Path]:
    """Codex's session id and project folder after running `scenario` in `home`."""
    mock = ScriptedModel(scenario)
    try:
        config = (
            f'model = "{scenario.model}"\nmodel_provider = "mock"\n\n[model_providers.mock]\n'
            f'name = "mock"\nbase_url = "{mock.url}"\nwire_api = "responses"\n'
        )
        if scenario.mcp:
            server = json.dumps(str(HERE / "failing_mcp.py"))
            config += f"\n[mcp_servers.db]\ncommand = {json.dumps(sys.executable)}\n"
            config += f"args = [{server}]\n"
        (home / ".codex" / "config.toml").write_text(config)
        project = home / scenario.name
        for name, text in scenario.files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            data = text if isinstance(text, bytes) else text.encode()
            (project / name).write_bytes(data)
        project.mkdir(exist_ok=True)
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8",
               "CODEX_HOME": str(home / ".codex")}  # fmt: skip
        # No sandbox: the commands are the test's own, in a temporary folder.
        done = subprocess.run(
            [str(codex), "exec", "--skip-git-repo-check",
             "--dangerously-bypass-approvals-and-sandbox", f"{scenario.name}: fix it"],
            cwd=project, env=env, capture_output=True, text=True, timeout=300,
            stdin=subprocess.DEVNULL,  # (codex exec reads a prompt from a stdin not a tty)
        )  # fmt: skip
    finally:
        mock.close()
    assert done.returncode == 0, done.stderr[-3000:]
    [session] = re.findall(r"^session id: (\S+)$", done.stderr, re.MULTILINE)
    return session, project


@pytest.fixture(scope="module")
def codex_index(tmp_path_factory):
    """Every scenario run by the real Codex, and the index of the rollouts it wrote."""
    codex = client("PASTFIX_REQUIRE_CODEX", codex_executable)
    home = tmp_path_factory.mktemp("codex-home")
    (home / ".codex").mkdir()
    runs = {s.name: run_scenario(codex, home, s) for s in SCENARIOS}
    db = home / "index.db"
    pbuild.build(db, [home / ".codex" / "sessions"])
    return db, runs


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_failure_is_found_with_its_fix(codex_index, scenario):
    db, runs = codex_index
    session, project = runs[scenario.name]
    conn = sqlite3.connect(db)
    try:
        rows = dict(
            (r[0], r[1:])
            for r in conn.execute(
                "SELECT tool_use_id, is_error, content, signature FROM tool_results"
                " WHERE session_id = ?",
                [session],
            )
        )
    finally:
        conn.close()
    error = scenario.error.replace("{project}", str(project))
    is_error, content, signature = rows[scenario.failed]
    if scenario.name == "command_not_found" and shutil.which("ack"):
        pytest.skip("ack is installed here: `ack TODO src/` does not fail")
    assert (is_error, bool(signature)) == (1, True), content
    assert error.split("\n")[0] in content
    assert rows[scenario.fixed][0] == 0
    found = CliRunner().invoke(cli, ["find", error, str(db)])
    assert found.exit_code == 0, found.output
    first = found.output.split("\n2. ")[0]
    assert f"codex resume {session}" in first, found.output
    assert scenario.card in first, first


def test_the_rollouts_index_whole(codex_index, tmp_path):
    # Built as a user's: every line of a type pastfix knows, each scenario's failure stored.
    db, runs = codex_index
    failures = len(SCENARIOS) - (1 if shutil.which("ack") else 0)
    summary = assert_indexed_whole(
        tmp_path / "whole.db", db.parent / ".codex" / "sessions", failures
    )
    assert summary["files_read"] == len(runs)
