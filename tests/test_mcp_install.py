"""`pastfix mcp install` / `uninstall`: the MCP server at Claude Code's user scope.

With the claude CLI on the PATH it goes through `claude mcp add --scope user` (a fake
CLI here records what it is asked; the real one is driven by tests/test_e2e_claude.py);
without it, into the file that CLI writes: ~/.claude.json, or
$CLAUDE_CONFIG_DIR/.claude.json.
"""

import json
import os
import stat

import pytest
from click.testing import CliRunner

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
    for _ in range(2):  # idempotent
        result = invoke("install", "--db", str(db))
        assert result.exit_code == 0, result.output
        assert f"Added the pastfix MCP server to {config}" in result.output
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
