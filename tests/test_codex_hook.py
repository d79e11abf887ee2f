"""pastfix hook as a Codex CLI hook: failures told from PostToolUse, the install into Codex.

The events are the form Codex CLI 0.171.0 sends (tests/test_codex_e2e.py runs
the real CLI): `tool_response` of a shell call is its bare output, and the exit
code is in the rollout's `item_completed` event, written before the hook runs.
"""

import json
import re
import subprocess
import sys
import tomllib

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT, build_index

from pastfix import codex, hook, install
from pastfix.cli import cli

PAST = "0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"  # tests/fixtures/codex/sessions: fixed there
NOW = "01a23170-daec-7791-b187-40b71a24322e"
MISSING_SCRIPT = (
    'npm ERR! Missing script: "test"\nnpm ERR! To see a list of scripts, run:\nnpm ERR!   npm run\n'
)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    db = tmp_path_factory.mktemp("codex-hook") / "index.db"
    build_index(db, FIXTURES / "codex" / "sessions")
    return db


def completed(call_id, exit_code, **extra):
    """The rollout line Codex 0.171.0 writes when a command ends."""
    item = {"type": "CommandExecution", "id": call_id, "status": "failed", "exit_code": exit_code}
    payload = {"type": "item_completed", "item": {**item, **extra}}
    return {"timestamp": "2026-12-01T11:50:09.943Z", "type": "event_msg", "payload": payload}


@pytest.fixture
def rollout(tmp_path):
    path = tmp_path / f"rollout-2026-12-01T11-50-09-{NOW}.jsonl"

    def write(*lines):
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return path

    write({"type": "session_meta", "payload": {"id": NOW, "cwd": "/home/dev/shop"}})
    return write


def event(rollout_path, response=MISSING_SCRIPT, call_id="call_1", **extra):
    return {
        "session_id": NOW,
        "turn_id": "01a23170-dafe-73c3-bf64-5e48481e656b",
        "transcript_path": str(rollout_path),
        "cwd": "/home/dev/shop",
        "hook_event_name": "PostToolUse",
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test"},
        "tool_response": response,
        "tool_use_id": call_id,
        **extra,
    }


def context_of(answer):
    data = json.loads(answer)
    assert data["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    return data["hookSpecificOutput"]["additionalContext"]


def test_a_failed_shell_call_recalls_the_past_fix(index, rollout):
    path = rollout(completed("call_1", 1, aggregated_output=MISSING_SCRIPT))
    text = context_of(hook.respond(json.dumps(event(path)), index))
    assert text.startswith("pastfix: this error was seen before, 1 time in 1 other session")
    assert f"codex resume {PAST}" in text
    # the remedy (the patch) first, then the retry that confirmed it
    assert text.index("fix: edited package.json") < text.index("confirmed: shell `npm test`")
    assert '- "tst": "jest"' in text and '+ "test": "jest"' in text


def test_the_failure_is_the_text_the_build_stores(rollout):
    path = rollout(completed("call_1", 1))
    assert codex.hook_failure(event(path)) == "Exit code 1\n" + MISSING_SCRIPT.rstrip("\n")


@pytest.mark.parametrize(
    "response",
    [
        # the text forms of exec output: the exit code is in the response itself
        "Exit code: 1\nWall time: 0.4 seconds\nOutput:\n" + MISSING_SCRIPT,
        "Chunk ID: 770a34\nWall time: 0.0890 seconds\nProcess exited with code 1\n"
        "Original token count: 15\nOutput:\n" + MISSING_SCRIPT,
        json.dumps({"output": MISSING_SCRIPT, "metadata": {"exit_code": 1}}),
    ],
)
def test_an_exit_code_in_the_response_needs_no_rollout(index, tmp_path, response):
    no_rollout = tmp_path / "nowhere.jsonl"
    text = context_of(hook.respond(json.dumps(event(no_rollout, response)), index))
    assert f"codex resume {PAST}" in text


@pytest.mark.parametrize(
    "lines",
    [
        # an older Codex: the end event of the command
        [{"type": "event_msg", "payload": {"type": "exec_command_end", "call_id": "call_1",
                                           "exit_code": 1}}],
        # the call's output, already written
        [{"type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_1",
          "output": "Process exited with code 1\nOutput:\n" + MISSING_SCRIPT}}],
    ],
)  # fmt: skip
def test_other_rollout_forms_of_the_exit_code(rollout, lines):
    assert codex.hook_failure(event(rollout(*lines))).startswith("Exit code 1\n")


def test_a_line_written_while_the_hook_waits_is_found(rollout, monkeypatch):
    path = rollout()
    waits = []

    def sleep(seconds):  # Codex writes the line during the hook's first pause
        waits.append(seconds)
        with open(path, "a") as f:
            f.write(json.dumps(completed("call_1", 2)) + "\n")

    monkeypatch.setattr(codex.time, "sleep", sleep)
    assert codex.rollout_exit_code(path, "call_1") == 2
    assert waits == [codex.ROLLOUT_PAUSE]


def test_mcp_and_codex_failure_texts(tmp_path):
    nowhere = tmp_path / "nowhere.jsonl"
    mcp = {"content": [{"type": "text", "text": "database is locked"}], "isError": True}
    assert codex.hook_failure(event(nowhere, mcp, tool_name="mcp__db__query")) == (
        "database is locked"
    )
    patch = "apply_patch verification failed: Failed to find expected lines in src/a.py"
    assert codex.hook_failure(event(nowhere, patch, tool_name="apply_patch")) == patch


@pytest.mark.parametrize(
    "case",
    [
        "succeeded",  # exit code 0 in the rollout
        "not in the rollout",  # unsure: silent
        "no rollout",
        "other call",
        "no response",
        "exit 0 header",
        "not a shell",  # a bare output of another tool says nothing
        "claude's PostToolUse",  # no turn_id: Claude Code has its own failure event
        "own session",  # the past failure is in the calling session
        "rejected",  # the user refused the command: nothing to recall
    ],
)
def test_silent(index, rollout, tmp_path, case):
    path = rollout(completed("call_1", 1))
    data = event(path)
    if case == "succeeded":
        data = event(rollout(completed("call_1", 0)))
    elif case == "not in the rollout":
        data = event(rollout())
    elif case == "no rollout":
        data = event(tmp_path / "gone.jsonl")
    elif case == "other call":
        data = event(path, call_id="call_2")
    elif case == "no response":
        del data["tool_response"]
    elif case == "exit 0 header":
        data = event(tmp_path / "gone.jsonl", "Exit code: 0\nOutput:\n" + MISSING_SCRIPT)
    elif case == "not a shell":
        data = event(path, tool_name="mcp__shop__run")
    elif case == "claude's PostToolUse":
        del data["turn_id"]
    elif case == "own session":
        data = event(path, session_id=PAST)
    elif case == "rejected":
        data = event(path, "exec command rejected by user")
    assert hook.respond(json.dumps(data), index) == ""


def test_a_success_answers_before_opening_the_index(rollout, tmp_path):
    # No index there: a failure would be told on stderr, a success never looks.
    data = event(rollout(completed("call_1", 0)))
    assert hook.respond(json.dumps(data), tmp_path / "no-index.db") == ""


@pytest.mark.slow
def test_the_command_answers_codex(index, rollout):
    path = rollout(completed("call_1", 1))
    done = subprocess.run(
        [sys.executable, "-m", "pastfix", "hook", "--db", str(index)],
        input=json.dumps(event(path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"codex resume {PAST}" in context_of(done.stdout)


# -- install into Codex ----------------------------------------------------------------

OTHER_HOOKS = {
    "hooks": {
        "PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit-log"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    }
}


def test_hook_install_agent_codex_writes_codex_home(fake_home, monkeypatch, tmp_path):
    codex_home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    codex_home.mkdir()
    (codex_home / "hooks.json").write_text(json.dumps(OTHER_HOOKS))
    db = tmp_path / "data" / "index.db"
    out = CliRunner().invoke(cli, ["hook", "install", "--agent", "codex", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert "/hooks" in out.stderr  # the one-time trust step
    data = json.loads((codex_home / "hooks.json").read_text())
    assert data["hooks"]["Stop"] == OTHER_HOOKS["hooks"]["Stop"]
    other, ours = data["hooks"]["PostToolUse"]
    assert other == OTHER_HOOKS["hooks"]["PostToolUse"][0]
    assert ours["matcher"] == "*"
    [handler] = ours["hooks"]
    assert handler["command"].split()[0].startswith("/")
    assert f" hook --db {db.absolute()}" in handler["command"]
    [end] = data["hooks"]["SessionEnd"]
    assert end["hooks"][0]["timeout"] == install.CODEX_END_TIMEOUT
    assert f"--source {codex_home / 'sessions'} " in end["hooks"][0]["command"]
    assert not (fake_home / ".claude").exists() and not (fake_home / ".codex").exists()
    once = (codex_home / "hooks.json").read_text()
    CliRunner().invoke(cli, ["hook", "install", "--agent", "codex", "--db", str(db)])
    assert (codex_home / "hooks.json").read_text() == once
    out = CliRunner().invoke(cli, ["hook", "uninstall", "--agent", "codex"])
    assert out.exit_code == 0 and "Removed pastfix's hooks from" in out.stderr
    assert json.loads((codex_home / "hooks.json").read_text()) == OTHER_HOOKS


def test_hook_install_agent_codex_defaults_to_dot_codex(fake_home):
    out = CliRunner().invoke(cli, ["hook", "install", "--agent", "codex"])
    assert out.exit_code == 0, out.output
    data = json.loads((fake_home / ".codex" / "hooks.json").read_text())
    command = data["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert str(fake_home / ".local" / "share" / "pastfix" / "index.db") in command
    assert not (fake_home / ".claude").exists()


@pytest.mark.slow
def test_the_installed_codex_hook_works(tmp_path, index, rollout):
    hooks = tmp_path / "hooks.json"
    install.install_codex_hooks(hooks, index)
    command = json.loads(hooks.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    failed = json.dumps(event(rollout(completed("call_1", 1))))
    done = subprocess.run(["sh", "-c", command], input=failed, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"codex resume {PAST}" in context_of(done.stdout)
    ok = json.dumps(event(rollout(completed("call_1", 0))))
    done = subprocess.run(["sh", "-c", command], input=ok, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_skill_install_agent_codex(fake_home):
    out = CliRunner().invoke(cli, ["skill", "install", "--agent", "codex"])
    assert out.exit_code == 0, out.output
    assert (fake_home / ".agents" / "skills" / "pastfix" / "SKILL.md").is_file()
    assert not (fake_home / ".claude").exists()


CONFIG = """# my Codex settings
model = "gpt-5.1-codex"

[mcp_servers.docs]
command = "docs-server"

[mcp_servers.pastfix]
command = "/old/pastfix"
args = ["mcp"]

[mcp_servers.pastfix.env]
PASTFIX_DB = "/old/index.db"

[features]
hooks = true  # on by default
"""


def test_install_codex_mcp_replaces_its_table_and_keeps_the_rest(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    db = tmp_path / "my index" / "index.db"
    install.install_codex_mcp(config, db)
    text = config.read_text()
    data = tomllib.loads(text)
    ours = data["mcp_servers"]["pastfix"]
    assert ours == install.codex_mcp_table(db)
    assert ours["command"].startswith("/") and ours["args"][-3:] == ["mcp", "--db", str(db)]
    assert data["mcp_servers"]["docs"] == {"command": "docs-server"}
    assert data["model"] == "gpt-5.1-codex" and data["features"] == {"hooks": True}
    assert text.startswith("# my Codex settings\n") and "hooks = true  # on by default" in text
    assert "/old/" not in text
    install.install_codex_mcp(config, db)
    assert config.read_text() == text
    assert install.uninstall_codex_mcp(config)
    data = tomllib.loads(config.read_text())
    assert "pastfix" not in data["mcp_servers"] and data["features"] == {"hooks": True}
    assert not install.uninstall_codex_mcp(config)


def test_install_codex_mcp_into_a_new_config(tmp_path):
    config = tmp_path / "codex" / "config.toml"
    install.install_codex_mcp(config, tmp_path / "index.db")
    assert set(tomllib.loads(config.read_text())) == {"mcp_servers"}
    assert install.uninstall_codex_mcp(config)
    assert config.read_text() == ""


@pytest.mark.parametrize(
    "text",
    [
        "model = [broken",  # not TOML
        'mcp_servers = { pastfix = { command = "x" } }\n',  # defined in a way not to edit
    ],
)
def test_install_codex_mcp_refuses_what_it_cannot_edit(tmp_path, text):
    config = tmp_path / "config.toml"
    config.write_text(text)
    with pytest.raises(install.InstallError) as e:
        install.install_codex_mcp(config, tmp_path / "index.db")
    assert config.read_text() == text
    assert "fix it first" in str(e.value) or "codex mcp add pastfix -- /" in str(e.value)


def test_the_readme_s_test_event_recalls_the_past_fix(index, tmp_path):
    """README's "A test event": its Codex event and rollout line, as written there, are what
    the hook reads (nu44 finding 11: building one needed codex.py)."""
    readme = (ROOT / "README.md").read_text()
    part = readme.split("**A test event.**")[1].split("**What was verified")[0]
    blocks = [
        "\n".join(line[4:] for line in block.splitlines())
        for block in re.findall(r"\n\n((?:    .*\n)+)", part)
        if block.lstrip().startswith("{")
    ]
    said, line = (json.loads(block) for block in blocks)
    assert said["tool_use_id"] == line["payload"]["item"]["id"]
    rollout = tmp_path / "rollout.jsonl"
    said["transcript_path"] = str(rollout)
    rollout.write_text(json.dumps(line) + "\n")
    text = context_of(hook.respond(json.dumps(said), index))
    assert text.startswith("pastfix: this error was seen before") and PAST in text
    line["payload"]["item"]["exit_code"] = 0
    rollout.write_text(json.dumps(line) + "\n")
    assert not hook.respond(json.dumps(said), index)
