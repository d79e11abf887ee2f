"""The README documents every command and table, and its generated parts are current."""

import re

import pytest
import sqlite_utils
from click.testing import CliRunner
from conftest import ROOT

from pastfix.cli import cli
from pastfix.migrations import migrations

README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_has_help_with_an_example(name):
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.stdout
    assert f"### pastfix {name} --help" in README
    assert re.search(rf"^    \$ pastfix {name}\b", README, re.MULTILINE), name


def test_every_table_is_in_the_readme_schema():
    db = sqlite_utils.Database(memory=True)
    migrations.apply(db)
    for table in db.table_names():
        if "_fts_" in table or table == "_sqlite_migrations":
            continue
        assert re.search(rf'CREATE (VIRTUAL )?TABLE "?{table}"? ', README), table


def test_quick_start_has_exactly_two_commands():
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in section.splitlines() if line.startswith("    ")]
    assert len(commands) == 2
    assert "pastfix build" in commands[0] and "datasette serve" in commands[0]
    assert "127.0.0.1" in commands[0]
    assert commands[1].strip().endswith("pytest")
    assert commands[1].strip() in (ROOT / ".ci" / "run").read_text()
