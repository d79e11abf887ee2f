"""`pastfix mcp install` / `uninstall`: the MCP server at Claude Code's user scope.

With the claude CLI on the PATH it goes through `claude mcp add --scope user` (a fake
CLI here records what it is asked; the real one is driven by tests/test_e2e_claude.py);
without it, into the file that CLI writes: ~/.claude.json, or
$CLAUDE_CONFIG_DIR/.claude.json.
"""

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import build_index

from pastfix import install
from pastfix.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, ["mcp", *args])


@pytest.fixture
def no_cli(monkeypatch, tmp_path):
    """A PATH without a claude CLI."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


def test_install_writes_the_user_config_with_absolute_paths(no_cli, fake_home, tmp_path):
    config = fake_home / ".claude.json"
    other = {"command": "other", "args": []}
    config.write_text(json.dumps({"numStartups": 3, "mcpServers": {"other": other}}))
    db = tmp_path / "my index.db"
    said = [
        f"Added the pastfix MCP server to {config}",
        f"Already installed: the pastfix MCP server in {config}; nothing changed",
    ]
    for again in said:  # idempotent, and said so
        result = invoke("install", "--db", str(db))
        assert result.exit_code == 0, result.output
        assert again in result.output
    data = json.loads(config.read_text())
    assert data["numStartups"] == 3 and data["mcpServers"]["other"] == other
    entry = data["mcpServers"]["pastfix"]
    assert entry["type"] == "stdio" and os.path.isabs(entry["command"])
    assert entry["args"][-3:] == ["mcp", "--db", str(db.absolute())]

    assert invoke("uninstall").exit_code == 0
    assert json.loads(config.read_text()) == {"numStartups": 3, "mcpServers": {"other": other}}
    again = invoke("uninstall")
    assert again.exit_code == 0 and "No pastfix MCP server" in again.output


def test_install_follows_claude_config_dir(no_cli, monkeypatch, tmp_path, fake_home):
    folder = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    assert invoke("install").exit_code == 0
    assert "pastfix" in json.loads((folder / ".claude.json").read_text())["mcpServers"]
    assert not (fake_home / ".claude.json").exists()


def test_a_broken_user_config_is_a_one_line_error(no_cli, fake_home):
    (fake_home / ".claude.json").write_text("{not json")
    result = invoke("install")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {fake_home / '.claude.json'} is not valid JSON")
    assert len(result.output.strip().splitlines()) == 1


def fake_claude(folder, fail_add=False):
    """A `claude` that logs its arguments and answers as Claude Code 2.1 does."""
    log = folder / "calls.jsonl"
    script = folder / "claude"
    script.write_text(
        f"""#!/bin/sh
printf '%s\\n' "$*" >> {log}
case "$2" in
  remove) [ -f {folder}/added ] && /bin/rm {folder}/added && exit 0
          echo 'No MCP server named "pastfix" in user scope' >&2; exit 1 ;;
  add) {"echo 'boom' >&2; exit 1" if fail_add else f"/usr/bin/touch {folder}/added; exit 0"} ;;
esac
"""
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


def test_install_goes_through_the_claude_cli_when_there_is_one(monkeypatch, tmp_path, fake_home):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = fake_claude(bin_dir)
    monkeypatch.setenv("PATH", str(bin_dir))
    db = tmp_path / "index.db"
    assert invoke("install", "--db", str(db)).exit_code == 0
    assert invoke("install", "--db", str(db)).exit_code == 0
    calls = log.read_text().splitlines()
    exe = " ".join(install.pastfix_executable())
    add = f"mcp add --scope user pastfix -- {exe} mcp --db {db.absolute()}"
    assert calls == ["mcp remove --scope user pastfix", add, "mcp remove --scope user pastfix", add]
    assert not (fake_home / ".claude.json").exists()
    assert "Removed the pastfix MCP server" in invoke("uninstall").output
    assert "No pastfix MCP server" in invoke("uninstall").output


def test_a_failing_claude_cli_is_a_one_line_error(monkeypatch, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_claude(bin_dir, fail_add=True)
    monkeypatch.setenv("PATH", str(bin_dir))
    result = invoke("install")
    assert result.exit_code == 1
    assert result.output == "Error: `claude mcp add` failed: boom\n"


def test_install_for_codex_writes_its_config_table(monkeypatch, tmp_path):
    codex_home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    db = tmp_path / "index.db"
    for _ in range(2):  # idempotent
        result = invoke("install", "--agent", "codex", "--db", str(db))
        assert result.exit_code == 0, result.output
    config = (codex_home / "config.toml").read_text()
    assert config.count("[mcp_servers.pastfix]") == 1
    assert str(db.absolute()) in config
    assert (
        "Removed the pastfix MCP server from Codex"
        in invoke("uninstall", "--agent", "codex").output
    )
    assert "[mcp_servers.pastfix]" not in (codex_home / "config.toml").read_text()


def test_install_for_codex_keeps_a_config_with_a_byte_order_mark(monkeypatch, tmp_path):
    """Notepad's byte order mark: `is not valid TOML (Invalid statement (at line 1, column
    1))`, though Codex reads the file."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    config = codex_home / "config.toml"
    config.write_bytes(b'\xef\xbb\xbfmodel = "o3"\r\n[mcp_servers.other]\r\ncommand = "x"\r\n')
    db = tmp_path / "index.db"
    result = invoke("install", "--agent", "codex", "--db", str(db))
    assert result.exit_code == 0, result.output
    text = config.read_bytes()
    assert text.startswith(b'\xef\xbb\xbfmodel = "o3"\r\n[mcp_servers.other]\r\ncommand = "x"\r\n')
    assert install.codex_mcp_found(config) == [(str(config), str(db.absolute()))]
    assert invoke("uninstall", "--agent", "codex").exit_code == 0
    assert config.read_bytes() == (
        b'\xef\xbb\xbfmodel = "o3"\r\n[mcp_servers.other]\r\ncommand = "x"\r\n'
    )


@pytest.mark.parametrize("installed", [False, True])
@pytest.mark.parametrize("agent", ["claude", "codex", "copilot", "gemini", "opencode"])
def test_install_where_it_cannot_write_is_a_one_line_error(
    no_cli, fake_home, tmp_path, unwritable, agent, installed
):
    """A read-only home was a traceback (OSError from mkdir or tempfile.mkstemp): one line,
    exit 1, and every file as it was; uninstall alike."""
    db = tmp_path / "index.db"
    if installed:
        assert invoke("install", "--agent", agent, "--db", str(tmp_path / "old.db")).exit_code == 0
    config = Path(install.MCP_SERVERS[agent].where())
    before = {p: p.read_bytes() for p in fake_home.rglob("*") if p.is_file()}
    unwritable(fake_home)
    result = invoke("install", "--agent", agent, "--db", str(db))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot write {config}: Read-only file system")
    assert len(result.stderr.splitlines()) == 1
    result = invoke("uninstall", "--agent", agent)
    if installed:
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: cannot write {config}: Read-only file system\n",
        )
    else:
        assert result.exit_code == 0
    assert {p: p.read_bytes() for p in fake_home.rglob("*") if p.is_file()} == before


# -- every agent: the table, and the JSON configs of Gemini CLI, Copilot CLI and opencode --


def test_every_agent_has_an_mcp_entry_and_a_skills_folder():
    from pastfix import agents
    from pastfix import cli as cli_module

    assert list(install.MCP_SERVERS) == list(install.SKILLS) == list(agents.NAMES)
    assert cli_module.MCP_AGENTS == cli_module.SKILL_AGENTS == tuple(agents.NAMES)


# agent, its override, the file under that folder, under HOME without it, the servers' key
JSON_AGENTS = [
    ("gemini", "GEMINI_CLI_HOME", ".gemini/settings.json", ".gemini/settings.json", "mcpServers"),
    ("copilot", "COPILOT_HOME", "mcp-config.json", ".copilot/mcp-config.json", "mcpServers"),
    ("opencode", "XDG_CONFIG_HOME", "opencode/opencode.json", ".config/opencode/opencode.json",
     "mcp"),
]  # fmt: skip


def entry_command(agent, entry):
    """The command line of pastfix's entry, in the agent's form."""
    if agent == "opencode":
        assert (entry["type"], entry["enabled"]) == ("local", True)
        return entry["command"]
    if agent == "copilot":
        assert (entry["type"], entry["tools"]) == ("local", ["*"])
    return [entry["command"], *entry["args"]]


@pytest.mark.parametrize("agent, variable, under, default, key", JSON_AGENTS)
def test_install_for_another_agent_keeps_the_rest_of_its_file(
    agent, variable, under, default, key, fake_home, tmp_path
):
    config = fake_home / default
    config.parent.mkdir(parents=True)
    other = {"command": "other", "args": ["--x"]}
    before = {"theme": "dark", key: {"other": other}, "nested": {"a": [1, 2]}}
    config.write_text(json.dumps(before))
    said = [
        f"Added the pastfix MCP server to {config}",
        f"Updated the pastfix MCP server in {config}",
    ]
    for db, line in zip((tmp_path / "old.db", tmp_path / "my index.db"), said, strict=True):
        result = invoke("install", "--agent", agent, "--db", str(db))  # again: replaced
        assert result.exit_code == 0, result.output
        assert line in result.output
    data = json.loads(config.read_text())
    assert {k: v for k, v in data.items() if k != key} == {"theme": "dark", "nested": {"a": [1, 2]}}
    assert list(data[key]) == ["other", "pastfix"] and data[key]["other"] == other
    command = entry_command(agent, data[key]["pastfix"])
    assert command == install.mcp_server_command(tmp_path / "my index.db")
    assert os.path.isabs(command[0]) and command[-3:] == [
        "mcp",
        "--db",
        str(tmp_path / "my index.db"),
    ]

    result = invoke("uninstall", "--agent", agent)
    assert result.exit_code == 0
    from pastfix import agents

    assert result.output == f"Removed the pastfix MCP server from {agents.label(agent)}\n"
    assert json.loads(config.read_text()) == before
    again = invoke("uninstall", "--agent", agent)
    assert again.output == f"No pastfix MCP server in {agents.label(agent)}'s user scope\n"


@pytest.mark.parametrize("agent, variable, under, default, key", JSON_AGENTS)
def test_install_for_another_agent_follows_its_override(
    agent, variable, under, default, key, fake_home, tmp_path, monkeypatch
):
    folder = tmp_path / "elsewhere"
    monkeypatch.setenv(variable, str(folder))
    assert invoke("install", "--agent", agent, "--db", str(tmp_path / "i.db")).exit_code == 0
    assert "pastfix" in json.loads((folder / under).read_text())[key]
    assert not (fake_home / default).exists()
    assert invoke("uninstall", "--agent", agent).exit_code == 0
    assert json.loads((folder / under).read_text()) == {key: {}}


@pytest.mark.parametrize("agent, variable, under, default, key", JSON_AGENTS)
@pytest.mark.parametrize(
    "text, told",
    [
        ('{"theme": "dark",', "is not valid JSON"),
        ("[1, 2]", "does not hold a JSON object"),
        ('{"mcpServers": [], "mcp": []}', "is not an object"),
    ],
)
def test_a_broken_file_of_another_agent_is_refused_untouched(
    agent, variable, under, default, key, text, told, fake_home
):
    config = fake_home / default
    config.parent.mkdir(parents=True)
    config.write_text(text)
    for command in ("install", "uninstall"):
        result = invoke(command, "--agent", agent)
        if command == "uninstall" and told == "is not an object":
            assert result.exit_code == 0  # nothing of pastfix's there: nothing to remove
            continue
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: ") and told in result.output
        assert str(config) in result.output and len(result.output.strip().splitlines()) == 1
        if command == "install":  # the client's own command, which keeps its comments
            assert f"run `{agent} mcp add " in result.output
    assert config.read_text() == text


def test_opencode_edits_its_jsonc_file_when_only_that_one_exists(fake_home, tmp_path):
    folder = fake_home / ".config" / "opencode"
    folder.mkdir(parents=True)
    jsonc = folder / "opencode.jsonc"
    jsonc.write_text('{"model": "a/b"}')
    assert invoke("install", "--agent", "opencode").exit_code == 0
    assert set(json.loads(jsonc.read_text())) == {"model", "mcp"}
    assert not (folder / "opencode.json").exists()
    # With comments, which pastfix does not keep: refused, untouched.
    jsonc.write_text('{\n  // mine\n  "model": "a/b"\n}\n')
    result = invoke("install", "--agent", "opencode", "--db", str(tmp_path / "i.db"))
    assert result.exit_code == 1 and f"Error: {jsonc} has comments (line 2): pastfix reads" in (
        result.output
    )
    exe = " ".join(install.pastfix_executable())
    assert f", or run `opencode mcp add pastfix -- {exe} mcp --db {tmp_path / 'i.db'}`" in (
        result.output
    )
    assert jsonc.read_text() == '{\n  // mine\n  "model": "a/b"\n}\n'


def test_status_names_the_mcp_server_and_skill_of_every_agent(no_cli, fake_home, tmp_path):
    from pastfix import agents, status

    db = tmp_path / "index.db"
    others = [name for name in agents.NAMES if name != agents.CLAUDE]
    assert status.status(db)["mcp"]["where"] == []
    for name in agents.NAMES:
        assert invoke("install", "--agent", name, "--db", str(db)).exit_code == 0
        assert CliRunner().invoke(cli, ["skill", "install", "--agent", name]).exit_code == 0
    found = status.status(db)
    assert found["mcp_installed"] and found["mcp"]["where"] == [
        f"{fake_home / '.claude.json'} (user)",
        *(str(install.MCP_SERVERS[name].where()) for name in others),
    ]
    assert found["skill_installed"]
    assert [(s["agent"], s["installed"]) for s in found["agent_skills"]] == [
        (name, True) for name in others
    ]
    assert found["agent_skills"][-1]["where"] == str(
        fake_home / ".config" / "opencode" / "skills" / "pastfix"
    )
    for name in agents.NAMES:
        assert invoke("uninstall", "--agent", name).exit_code == 0
    assert status.status(db)["mcp"]["where"] == []


def test_status_names_the_index_each_mcp_server_reads(no_cli, fake_home, tmp_path):
    """status said `mcp: installed in ...` for a server installed with another index (or
    none built): it names the index a server reads when it is not the one shown, and says
    to build an index a server reads that is not there."""
    from pastfix import status

    db, other = tmp_path / "index.db", tmp_path / "elsewhere" / "other.db"
    (tmp_path / "projects").mkdir()
    build_index(db, tmp_path / "projects")
    assert invoke("install", "--db", str(db)).exit_code == 0
    assert invoke("install", "--agent", "codex", "--db", str(other)).exit_code == 0
    found = status.status(db)
    assert [server["index"] for server in found["mcp"]["servers"]] == [str(db), str(other)]
    text = status.format_text(found)
    mcp = next(line for line in text.splitlines() if line.startswith("mcp:"))
    assert f"{fake_home / '.claude.json'} (user), " in mcp
    assert mcp.endswith(f"config.toml (it reads {other})")
    said = [line for line in found["advice"] if "MCP server" in line]
    assert said == [
        f"An MCP server reads {other}, which is not built: its tools find nothing there;"
        f" run pastfix build {other}, or pastfix mcp install again with --db"
    ]
    build_index(other, tmp_path / "projects")
    assert not [line for line in status.status(db)["advice"] if "MCP server" in line]


def test_the_index_of_a_server_is_its_db_argument_or_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("PASTFIX_DB", str(tmp_path / "default.db"))

    def server(*args):
        return {"x": {"command": "/bin/true"}, "p": {"command": "/v/bin/pastfix", "args": args}}

    assert install.pastfix_server_index(server("mcp", "--db", "/a.db")) == "/a.db"
    assert install.pastfix_server_index(server("mcp", "--db=/b.db")) == "/b.db"
    assert install.pastfix_server_index(server("mcp")) == str(tmp_path / "default.db")
    assert install.pastfix_server_index(server("hook")) is None
    assert install.pastfix_server_index({"p": {"command": ["pastfix", "mcp"]}}) == str(
        tmp_path / "default.db"
    )
    assert install.pastfix_server_index(["not", "a", "table"]) is None
    # the PASTFIX_DB its env sets (`claude mcp add -e`; opencode's `environment`)
    env = {"p": {"command": "pastfix", "args": ["mcp"], "env": {"PASTFIX_DB": "/e.db"}}}
    assert install.pastfix_server_index(env) == "/e.db"
    opencode = {"p": {"command": ["pastfix", "mcp"], "environment": {"PASTFIX_DB": "/o.db"}}}
    assert install.pastfix_server_index(opencode) == "/o.db"
    # turned off: Codex's and opencode's `enabled = false`, `"disabled": true`
    for off in ({"enabled": False}, {"disabled": True}):
        assert install.pastfix_server_index({"p": {"command": "pastfix mcp", **off}}) is None
    # no shell reads it: `~` stays; a relative path of a server local to a folder is there
    assert install.pastfix_server_index(server("mcp", "--db=~/t.db")) == "~/t.db"
    assert install.pastfix_server_index(server("mcp", "--db", "i.db"), "/proj") == "/proj/i.db"


def test_status_says_a_servers_tilde_is_not_expanded(no_cli, fake_home, tmp_path):
    """`--db=~/t.db` in a hand-written Codex config: the client starts the server without a
    shell, which would have read ~, so the server finds no index there, even with ~/t.db
    built; status said nothing (a new user's try, session 25)."""
    from pastfix import status

    (fake_home / ".codex").mkdir(exist_ok=True)
    (fake_home / ".codex" / "config.toml").write_text(
        '[mcp_servers.pastfix]\ncommand = "/v/bin/pastfix"\nargs = ["mcp", "--db=~/t.db"]\n'
    )
    (tmp_path / "projects").mkdir()
    build_index(fake_home / "t.db", tmp_path / "projects")
    found = status.status(tmp_path / "index.db")
    assert [server["index"] for server in found["mcp"]["servers"]] == ["~/t.db"]
    assert [line for line in found["advice"] if "MCP server" in line] == [
        "An MCP server reads ~/t.db, whose ~ its client does not expand: its tools find"
        " nothing; run pastfix mcp install again with --db"
    ]


def test_a_config_that_is_a_fifo_is_not_read(tmp_path):
    """Codex's config.toml or opencode's plugin file made a FIFO blocked `status` and `hook
    install --agent opencode` for ever (a security test, session 31): neither is read."""
    config, plugin = tmp_path / "config.toml", tmp_path / "pastfix.js"
    os.mkfifo(config)
    os.mkfifo(plugin)
    assert install.codex_mcp_found(config) == []
    assert not install._is_our_plugin(plugin)
    assert install._plugin_index(plugin) is None
