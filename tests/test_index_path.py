"""`pastfix find` and `pastfix probe` without DB_PATH: ./index.db, else the hook's index.

The skill and the hook's closing line tell an agent to run `pastfix find - --json` in
whatever project folder its session is in, where there is no index.db (issue 21).
"""

import json
import shutil

import pytest
from click.testing import CliRunner
from conftest import build_index
from corpus import PAST, TS_ERROR, fixed_session
from jsonl import write_jsonl

from pastfix import transcripts
from pastfix.cli import cli

ERROR = TS_ERROR.format(file="lib/order.ts", line=3)
# README's example, which the demo sessions hold
DEMO_ERROR = "fatal: The current branch main has no upstream branch."


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


def test_build_default_db_whose_folder_cannot_be_made_is_one_line(project, fake_home):
    """~/.local made by another user or `sudo` (or a file in its place): `pastfix build
    --default-db` stopped with a NotADirectoryError or PermissionError traceback, where
    `hook install` and `mcp install` say it in one line."""
    (fake_home / ".local").write_text("")  # a file where the folder would be
    result = CliRunner().invoke(cli, ["build", "--default-db", "-s"])
    folder = fake_home / ".local" / "share" / "pastfix"
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: cannot create {folder}, the index's folder: Not a directory\n",
    )


def both(index, project, fake_home):
    """./index.db and the default index, copies of one index: the default one's path."""
    default = fake_home / ".local" / "share" / "pastfix" / "index.db"
    default.parent.mkdir(parents=True)
    shutil.copy(index, default)
    shutil.copy(index, project / "index.db")
    return default


@pytest.mark.parametrize(
    "command",
    [["find", ERROR], ["find", ERROR, "--json"], ["probe", "--json"], ["status"]],
)
def test_reading_the_local_index_while_the_default_one_exists_is_said(
    index, project, fake_home, command
):
    """The quick start's ./index.db was read before the index built with --default-db, and
    `find` said "Not seen before" of errors the other holds, naming neither (nu40 finding
    2): one line on stderr says which was read, and that the other is there. Not when the
    index is named; --json's output stays as it is."""
    default = both(index, project, fake_home)
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 0, result.output
    verb = "Searched" if command[0] == "find" else "Read"
    said = f"{verb} ./index.db (in {project}), not the default index {default}: --db names it"
    assert said in result.stderr.splitlines()
    if "--json" in command:
        json.loads(result.stdout)
    for named in (["--db", "index.db"], ["--db", str(default)], ["index.db"]):
        result = CliRunner().invoke(cli, [*command, *named])
        assert result.exit_code == 0, result.output
        assert "not the default index" not in result.stderr


def test_forget_says_which_index_it_reads_too(index, project, fake_home):
    default = both(index, project, fake_home)
    result = CliRunner().invoke(cli, ["forget", "--missing", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert f"not the default index {default}" in result.stderr.splitlines()[0]


def test_find_names_the_index_of_an_error_not_seen(index, project, fake_home):
    """A "Not seen before" from an index no one named says which it searched; a seen error
    needs no such line, nor an index named."""
    default = fake_home / ".local" / "share" / "pastfix" / "index.db"
    default.parent.mkdir(parents=True)
    shutil.copy(index, default)
    unseen = "zqxwv-frobnicator exploded: flux capacitor unaligned"
    for args in ([unseen], [unseen, "--json"]):
        result = find(*args)
        assert result.exit_code == 0, result.output
        lines = result.stderr.splitlines()
        assert f"Searched {default}" in lines
        assert any(line.startswith("Not seen before") for line in lines)
    assert "Searched" not in find(ERROR).stderr
    assert "Searched" not in find(unseen, "--db", str(default)).stderr


def test_the_quick_starts_demo_index_gives_way_to_the_default_one(index, project, fake_home):
    """The quick start leaves ./index.db of the demo sessions, and README's next step builds
    the default index: `find` run from the quick start's folder searched the demo, "Not seen
    before" of errors the other holds fixed (a new user's try, nu43 finding 5). A ./index.db
    of the demo only now gives way to the default index; named, or alone, it is read."""
    build_index(project / "index.db", transcripts.DEMO_PROJECTS)
    demo_only = find(DEMO_ERROR, "--json")
    assert demo_only.exit_code == 0 and json.loads(demo_only.stdout), demo_only.output
    assert PAST not in sessions(find(ERROR, "--json"))
    default = fake_home / ".local" / "share" / "pastfix" / "index.db"
    default.parent.mkdir(parents=True)
    shutil.copy(index, default)
    result = find(ERROR, "--json")
    assert PAST in sessions(result)
    assert "not the default index" not in result.stderr
    status = CliRunner().invoke(cli, ["status"])
    assert str(default) in status.stdout and "index.db (in" not in status.stderr
    assert json.loads(find(DEMO_ERROR, "--json", "--db", "index.db").stdout)
    # ./index.db that holds more than the demo is still read first, and said to be
    mine = project.parent / "mine"
    write_jsonl(mine / "-home-dev-app" / f"{PAST}.jsonl", fixed_session(PAST, 1, "a.ts", 1))
    build_index(project / "index.db", mine)
    assert "not the default index" in find(ERROR, "--json").stderr
