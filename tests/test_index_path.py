"""`pastfix find` and `pastfix probe` without DB_PATH: ./index.db, else the hook's index.

The skill and the hook's closing line tell an agent to run `pastfix find - --json` in
whatever project folder its session is in, where there is no index.db (issue 21).
"""

import json
import shutil

import pytest
from click.testing import CliRunner
from corpus import PAST, TS_ERROR

from pastfix.cli import cli

ERROR = TS_ERROR.format(file="lib/order.ts", line=3)


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PASTFIX_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    return folder


def find(*args, stdin=None):
    return CliRunner().invoke(cli, ["find", *args], input=stdin)


def sessions(result):
    assert result.exit_code == 0, result.output
    return {row["session_id"] for row in json.loads(result.stdout)}


def test_find_from_a_project_folder_reads_the_default_index(index, project, fake_home):
    default = fake_home / ".local" / "share" / "pastfix" / "index.db"
    default.parent.mkdir(parents=True)
    shutil.copy(index, default)
    assert PAST in sessions(find("-", "--json", stdin=ERROR))


def test_find_reads_pastfix_db_when_set(index, project, monkeypatch):
    monkeypatch.setenv("PASTFIX_DB", str(index))
    assert PAST in sessions(find(ERROR, "--json"))


def test_a_project_index_comes_first(index, project, monkeypatch, tmp_path):
    shutil.copy(index, project / "index.db")
    monkeypatch.setenv("PASTFIX_DB", str(tmp_path / "elsewhere.db"))  # not there: not read
    assert PAST in sessions(find(ERROR, "--json"))


def test_no_index_anywhere_names_every_place_looked(project, fake_home):
    for command in (["find", ERROR], ["probe"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1
        message = result.output.strip()
        assert message.startswith("Error: no index found: looked in index.db (in "), message
        assert str(project) in message
        assert str(fake_home / ".local" / "share" / "pastfix" / "index.db") in message
        assert "pastfix build --default-db" in message
        assert len(message.splitlines()) == 1


def test_probe_from_a_project_folder_reads_pastfix_db(index, project, monkeypatch):
    monkeypatch.setenv("PASTFIX_DB", str(index))
    result = CliRunner().invoke(cli, ["probe", "--json"])
    assert result.exit_code == 0, result.output
    assert "find_past_fix" in json.loads(result.stdout)


def test_a_named_index_that_is_missing_is_still_an_error(project, tmp_path):
    result = find(ERROR, str(tmp_path / "gone.db"))
    assert result.exit_code == 1
    assert "gone.db not found" in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["find", ERROR],
        ["status"],
        ["forget", "--missing"],
        ["probe"],
        ["mcp"],
        ["build"],
        ["hook", "install"],
        ["mcp", "install"],
    ],
)
@pytest.mark.parametrize("how", ["--db", "PASTFIX_DB", "DB_PATH"])
def test_a_folder_given_as_the_index_is_said_to_be_one(
    project, monkeypatch, tmp_path, command, how
):
    """`--db ~/indexes` said `~/indexes not found: build it with pastfix build ~/indexes`;
    `pastfix status ~/indexes` gave click's usage error (exit 2), unlike `build`."""
    folder = tmp_path / "indexes"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # hook install and mcp install write
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    if how == "PASTFIX_DB":
        monkeypatch.setenv("PASTFIX_DB", str(folder))
        if command == ["build"]:
            command = ["build", "--default-db"]
    elif how == "DB_PATH":
        if command[0] in ("mcp", "hook"):
            pytest.skip("mcp and hook take the index as --db only")
        command = [*command, str(folder)]
    else:
        command = [*command, "--db", str(folder)]
    result = CliRunner().invoke(cli, command, input="")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        1,
        f"Error: {folder} is a folder, not an index: name the index file in it,"
        f" such as {folder / 'index.db'}",
    )
    assert list(folder.iterdir()) == []
    assert not (tmp_path / "home").exists()  # nothing installed
