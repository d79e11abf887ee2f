"""The skill: its frontmatter, its generated schema, its SQL examples run on the fixture index."""

import errno
import os
import re
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import ROOT
from corpus import PAST

from pastfix.cli import cli

SKILL = ROOT / "pastfix" / "skill"
PATTERNS = (SKILL / "references" / "query-patterns.md").read_text()
# What each :parameter of query-patterns.md is bound to on the fixture index.
PARAMS = {
    "fts": '"error" "TS2339:"',
    "signature": "<path>(<n>,<n>): error TS2339: Property <str> does not exist on type <str>.",
    "session_id": PAST,
    "failed_at": "2026-01-01T10:00:02Z",
    "pattern": "built in",
    "fts_text": '"renaming"',
    "path": "order.ts",
}


def examples():
    """(title, sql, columns) of each example in query-patterns.md."""
    found = []
    for section in PATTERNS.split("\n## ")[1:]:
        title = section.splitlines()[0]
        sql = re.search(r"```sql\n(.*?)```", section, re.S)
        if not sql:
            continue
        columns = re.search(r"^Columns: (.*)\.$", section, re.M)
        assert columns, f"{title}: no Columns: line"
        found.append((title, sql.group(1), columns.group(1).split(", ")))
    return found


def test_there_are_examples():
    assert len(examples()) == 7


@pytest.mark.parametrize("title, sql, columns", examples(), ids=lambda x: str(x)[:20])
def test_example_returns_what_the_doc_says(index, title, sql, columns):
    # plain sqlite3, read-only, without pastfix's SQL functions: as an agent runs it
    conn = sqlite3.connect(f"{index.as_uri()}?mode=ro", uri=True)
    try:
        names = set(re.findall(r":(\w+)", sql))
        cursor = conn.execute(sql, {n: PARAMS[n] for n in names})
        rows = cursor.fetchall()
        assert [d[0] for d in cursor.description] == columns
    finally:
        conn.close()
    assert rows, title


def test_example_answers_are_the_fix(index):
    conn = sqlite3.connect(f"{index.as_uri()}?mode=ro", uri=True)
    by_title = {title: sql for title, sql, _ in examples()}
    sql = next(s for t, s in by_title.items() if t.startswith("3."))
    rows = conn.execute(sql, {"session_id": PAST, "failed_at": PARAMS["failed_at"]}).fetchall()
    assert [(tool, target, failed) for _, tool, target, failed in rows] == [
        ("Edit", "/home/dev/app/src/order.ts", 0),
        ("Bash", "npm run build", 0),
    ]


def test_the_unquoted_fts_pitfall_fails_as_the_doc_says(index):
    conn = sqlite3.connect(f"{index.as_uri()}?mode=ro", uri=True)
    assert "fails with\n  `no such column: TS2339`" in PATTERNS
    with pytest.raises(sqlite3.OperationalError, match="no such column: TS2339"):
        conn.execute(
            "select * from tool_errors_fts where tool_errors_fts match 'error TS2339: Property'"
        ).fetchall()


def test_skill_frontmatter():
    text = (SKILL / "SKILL.md").read_text()
    front = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert front
    fields = dict(line.split(": ", 1) for line in front.group(1).splitlines())
    assert fields["name"] == "pastfix"
    assert fields["description"].startswith("Search the user's past coding-agent sessions")
    assert "Use when" in fields["description"] and len(fields["description"]) < 1024
    for link in re.findall(r"\]\((references/[^)]+)\)", text):
        assert (SKILL / link).is_file(), link


def test_schema_md_names_every_table():
    import sqlite_utils

    from pastfix.migrations import migrations

    db = sqlite_utils.Database(memory=True)
    migrations.apply(db)
    schema = (SKILL / "references" / "schema.md").read_text()
    for table in db.table_names():
        if "_fts_" in table or table == "_sqlite_migrations":
            continue
        assert re.search(rf'CREATE (VIRTUAL )?TABLE "?{table}"? ', schema), table


def test_skill_install(tmp_path):
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "skills")])
    assert out.exit_code == 0, out.output
    target = tmp_path / "skills" / "pastfix"
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert files == ["SKILL.md", "references/query-patterns.md", "references/schema.md"]
    assert (target / "SKILL.md").read_text() == (SKILL / "SKILL.md").read_text()
    # again: replaces, never nests
    (target / "stale.md").write_text("old")
    assert CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "skills")])
    assert not (target / "stale.md").exists() and not (target / "pastfix").exists()


def test_skill_install_defaults_to_home(fake_home):
    out = CliRunner().invoke(cli, ["skill", "install"])
    assert out.exit_code == 0, out.output
    assert (fake_home / ".claude" / "skills" / "pastfix" / "SKILL.md").is_file()


def test_skill_install_again_says_updated_or_already_installed(fake_home):
    """Installing again said `Installed ...` whether it replaced an older copy or found the
    same one (then left as it was)."""
    target = fake_home / ".claude" / "skills" / "pastfix"
    said = []
    for _ in range(2):
        out = CliRunner().invoke(cli, ["skill", "install"])
        assert out.exit_code == 0, out.output
        said.append(out.stderr)
    (target / "SKILL.md").write_text("---\nname: pastfix\ndescription: an older skill\n---\n")
    (target / "references" / "gone.md").write_text("no longer shipped")
    out = CliRunner().invoke(cli, ["skill", "install"])
    said.append(out.stderr)
    assert said == [
        f"Installed the pastfix skill in {target}\n",
        f"Already installed: the pastfix skill in {target}; nothing changed\n",
        f"Updated the pastfix skill in {target}\n",
    ]
    assert (target / "SKILL.md").read_text() == (SKILL / "SKILL.md").read_text()
    assert not (target / "references" / "gone.md").exists()


def test_skill_install_never_removes_a_folder_that_is_not_the_skill(tmp_path):
    """`--dest .` run beside a clone of pastfix's repository: its `pastfix` folder is no
    copy of the skill, and was removed with everything in it (a security test, session
    32). Refused, and left as it was; so is a link, and a folder of another SKILL.md."""
    clone = tmp_path / "code" / "pastfix"
    (clone / ".git").mkdir(parents=True)
    (clone / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (clone / "MY_NOTES.md").write_text("uncommitted work")
    (clone / "pastfix").mkdir()
    (clone / "pastfix" / "cli.py").write_text("print(1)")
    before = sorted(str(p.relative_to(clone)) for p in clone.rglob("*"))
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "code")])
    assert out.exit_code == 1
    assert out.stderr == (
        f"Error: {clone} is a folder of other files, not a copy of pastfix's skill: move it"
        " away first, or give another --dest\n"
    )
    assert sorted(str(p.relative_to(clone)) for p in clone.rglob("*")) == before
    assert (clone / "MY_NOTES.md").read_text() == "uncommitted work"
    assert not list((tmp_path / "code").glob(".pastfix-skill-*"))
    # another skill's SKILL.md, or a link to a folder
    other = tmp_path / "other" / "pastfix"
    other.mkdir(parents=True)
    (other / "SKILL.md").write_text("---\nname: my-notes\n---\n")
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "other")])
    assert out.exit_code == 1 and (other / "SKILL.md").read_text() == "---\nname: my-notes\n---\n"
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "pastfix").symlink_to(clone)
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(linked)])
    assert out.exit_code == 1 and (clone / "MY_NOTES.md").exists()


def test_skill_install_over_a_file_says_it_is_a_file(tmp_path, fake_home):
    """A file named pastfix was `not a copy of pastfix's skill (it holds other files)`, and
    a file in the place of the skills folder `cannot install ...: File exists`."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "pastfix").write_text("notes")
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "skills")])
    assert (out.exit_code, out.stderr) == (
        1,
        f"Error: {tmp_path / 'skills' / 'pastfix'} is a file, not a copy of pastfix's skill:"
        " move it away first, or give another --dest\n",
    )
    skills = fake_home / ".claude" / "skills"
    skills.parent.mkdir()
    skills.write_text("notes")
    out = CliRunner().invoke(cli, ["skill", "install"])
    assert (out.exit_code, out.stderr) == (
        1,
        f"Error: {skills} is a file, not a folder: move it away first\n",
    )
    assert skills.read_text() == "notes"


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_skill_install_where_it_cannot_write_is_a_one_line_error(tmp_path, unwritable, code):
    unwritable(tmp_path / "skills", code)
    out = CliRunner().invoke(cli, ["skill", "install", "--dest", str(tmp_path / "skills")])
    assert (out.exit_code, out.stderr) == (
        1,
        f"Error: cannot install the skill in {tmp_path / 'skills' / 'pastfix'}:"
        f" {os.strerror(code)}\n",
    )


def test_skill_install_follows_claude_config_dir(fake_home, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(fake_home / "work-claude"))
    out = CliRunner().invoke(cli, ["skill", "install"])
    assert out.exit_code == 0, out.output
    assert (fake_home / "work-claude" / "skills" / "pastfix" / "SKILL.md").is_file()
    assert not (fake_home / ".claude").exists()


@pytest.mark.parametrize(
    "agent, default, variable, under",
    [
        ("codex", ".agents/skills", None, None),
        ("copilot", ".copilot/skills", "COPILOT_HOME", "skills"),
        ("gemini", ".gemini/skills", "GEMINI_CLI_HOME", ".gemini/skills"),
        ("opencode", ".config/opencode/skills", "XDG_CONFIG_HOME", "opencode/skills"),
    ],
)
def test_skill_install_goes_into_each_agents_user_folder(
    agent, default, variable, under, fake_home, monkeypatch, tmp_path
):
    out = CliRunner().invoke(cli, ["skill", "install", "--agent", agent])
    assert out.exit_code == 0, out.output
    target = fake_home / default / "pastfix"
    assert out.output == f"Installed the pastfix skill in {target}\n"
    assert (target / "SKILL.md").read_text() == (SKILL / "SKILL.md").read_text()
    if variable:
        monkeypatch.setenv(variable, str(tmp_path / "elsewhere"))
        assert CliRunner().invoke(cli, ["skill", "install", "--agent", agent]).exit_code == 0
        assert (tmp_path / "elsewhere" / under / "pastfix" / "SKILL.md").is_file()


def test_skill_install_for_an_agent_that_loads_none_says_so(fake_home, monkeypatch):
    from pastfix import install

    others = {name: folder for name, folder in install.SKILLS.items() if name != "gemini"}
    monkeypatch.setattr(install, "SKILLS", others)
    out = CliRunner().invoke(cli, ["skill", "install", "--agent", "gemini"])
    assert (out.exit_code, out.output) == (2, "Error: Gemini CLI loads no skills from a folder\n")
    assert not any(fake_home.rglob("SKILL.md"))
