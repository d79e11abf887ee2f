"""Issue 19: no planted secret is readable in the index file, its WAL, or any output.

Secrets are planted where issue 19 found them kept: at the start of a line of a file
written by an Edit (JSON text, where a line break is `\\n`), in an escaped JSON body of a
curl command, in a Codex function call's arguments, in a Claude Code line's cwd and
gitBranch, after a name glued to its keyword (PGPASSWORD), across the 200,000-character cut
and across the 200-character excerpt of a bad line. Then the database bytes, the WAL, `pastfix
find --json`, the hook's answer and the MCP tools' results are searched for every 10
characters of each secret.
"""

import base64
import json
import re
import sqlite3
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import get_type_hints

import anyio
import pytest
from click.testing import CliRunner
from conftest import REAL_PROJECTS, build_index, needs_real_corpus
from corpus import AWS_SECRET, PEM, SECRETS
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonl import prompt, result, say, tool_use, write_jsonl
from mcp import Client

from pastfix import hook, transcripts
from pastfix import mcp as server
from pastfix.cli import cli
from pastfix.prepare import REDACTION_VERSION, prepare
from pastfix.records import EXCERPT_CHARS, MAX_TEXT, TABLES, Batch

SESSION = "aaaaaaaa-0000-4000-8000-0000000000a1"
LATER = "aaaaaaaa-0000-4000-8000-0000000000a2"
CODEX_SESSION = "0195a1b2-c3d4-7e5f-8a6b-00000000c0de"
ERROR = "Exit code 2\nsrc/cfg.ts(3,5): error TS2304: Cannot find name 'cfg'."
PG_PASSWORD = "Pg9Zx8Wv7Ut6"
CURL_PASSWORD = "Cu5Rl4Pw3Qz2"
CWD_TOKEN = "ghp_Cwd0T0k3nV4lu3F0rT3st1ngAbCdEf56789"
BRANCH_KEY = "AKIAB7Q3XW5N2R8T4BRN"
# A Codex `shell` call's argument after `-u`, and a token after a colour code in an Edit.
ARGV_PASSWORD = "Ar9vPw3Qz2Lm"
COLOURED_TOKEN = "glpat-C0l0uR3dT0k3nXy9Zq8W"
# The values that must never be stored, however they are cut.
PLANTED = [*SECRETS.values(), AWS_SECRET, PEM.splitlines()[1], PG_PASSWORD, CURL_PASSWORD]
PLANTED += [CWD_TOKEN, BRANCH_KEY, ARGV_PASSWORD, COLOURED_TOKEN]


def fragments(secret, n=10):
    return [secret[i : i + n] for i in range(len(secret) - n + 1)]


def assert_no_secret(where, data):
    """No 10 characters of any planted secret in `data` (text, or bytes of the index)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for secret in PLANTED:
        for fragment in fragments(secret):
            assert fragment not in text, (where, fragment)


def fixed_session(session, day, cwd="/home/dev/app", branch="main"):
    """A build that fails, an edit that writes secrets at the start of lines, the build passing."""
    t = f"2026-01-0{day}T10:00:"
    build = {"command": "npm run build"}
    lines = "".join(f"\n{value}" for value in SECRETS.values())
    edit = {
        "file_path": "/home/dev/app/src/cfg.ts",
        "old_string": "const x = 1",
        "new_string": f"const cfg = {{{lines}\n}}\n{PEM}\naws_secret_access_key={AWS_SECRET}"
        f"\n// \x1b[32m{COLOURED_TOKEN}\x1b[0m",
    }
    curl = f'curl -d "{{\\"password\\":\\"{CURL_PASSWORD}\\"}}" https://api.example.com'
    envelope = {"cwd": cwd, "branch": branch}
    return [
        prompt(f"{session}-p", session, "fix the build", t + "00Z", **envelope),
        tool_use(f"{session}-1", session, f"{session}-t1", "Bash", build, t + "01Z", **envelope),
        result(
            f"{session}-2",
            session,
            f"{session}-t1",
            f"{ERROR}\nPGPASSWORD={PG_PASSWORD} psql failed",
            t + "02Z",
            True,
            **envelope,
        ),
        say(
            f"{session}-3",
            session,
            f"cfg is missing; PGPASSWORD={PG_PASSWORD}",
            t + "03Z",
            **envelope,
        ),
        tool_use(f"{session}-4", session, f"{session}-t2", "Edit", edit, t + "04Z", **envelope),
        result(f"{session}-5", session, f"{session}-t2", "updated", t + "05Z", False, **envelope),
        tool_use(
            f"{session}-6",
            session,
            f"{session}-t4",
            "Bash",
            {"command": curl},
            t + "06Z",
            **envelope,
        ),
        result(f"{session}-7", session, f"{session}-t4", "ok", t + "07Z", False, **envelope),
        tool_use(f"{session}-8", session, f"{session}-t3", "Bash", build, t + "08Z", **envelope),
        result(f"{session}-9", session, f"{session}-t3", "built", t + "09Z", False, **envelope),
    ]


def bad_line(secret, at):
    """A line cut short (malformed JSON) whose secret starts `at` characters in."""
    head = '{"type":"user","message":{"content":"'
    return head + "x" * (at - len(head) - 1) + " " + secret + " and more"


def codex_rollout(path):
    args = json.dumps({"command": ["bash", "-lc", f"cat > .env <<EOF\n{SECRETS['anthropic-key']}"]})
    argv = json.dumps({"command": ["curl", "-u", f"admin:{ARGV_PASSWORD}", "https://api.shop"]})
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.104.0"}
    lines = [
        {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta", "payload": meta},
        {
            "timestamp": "2026-03-01T10:00:05.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": args,
                "call_id": "call_env1",
            },
        },
        {
            "timestamp": "2026-03-01T10:00:06.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": argv,
                "call_id": "call_curl1",
            },
        },
    ]
    write_jsonl(path, lines)


@pytest.fixture(scope="module")
def planted_files(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted")
    project = root / "projects" / "-home-dev-app"
    write_jsonl(project / f"{SESSION}.jsonl", fixed_session(SESSION, 1))
    codex_rollout(
        root / "codex" / "2026/03/01" / f"rollout-2026-03-01T10-00-00-{CODEX_SESSION}.jsonl"
    )
    db = root / "index.db"
    build_index(db, root / "projects", root / "codex")
    # Then an incremental build, whose writes go through the WAL: a session started in a
    # folder named after a token on a branch named after a key, a text cut across a secret,
    # and bad lines whose secret spans the excerpt's cut.
    cut = MAX_TEXT - 50_000  # where the head kept by cap_text ends: 150,000
    long = "lorem ipsum " * (cut // 12) + "x" * (cut % 12 - 20) + " " + SECRETS["github-token"]
    long += " " + "dolor sit " * 6_000
    later = fixed_session(LATER, 2, cwd=f"/home/dev/{CWD_TOKEN}", branch=f"fix/{BRANCH_KEY}")
    branch = {"cwd": f"/home/dev/{CWD_TOKEN}", "branch": f"fix/{BRANCH_KEY}"}
    later.append(
        result(f"{LATER}-10", LATER, f"{LATER}-t3", long, "2026-01-02T10:00:10Z", True, **branch)
    )
    later.append(bad_line(SECRETS["openai-key"], EXCERPT_CHARS - 20))
    later.append(bad_line(f"x\\n{SECRETS['slack-token']}", EXCERPT_CHARS - 10))
    write_jsonl(project / f"{LATER}.jsonl", later)
    # A reader stays open, as Datasette does: the WAL outlives the build's connection.
    reader = sqlite3.connect(db)
    reader.execute("SELECT count(*) FROM messages").fetchone()
    stats = build_index(db, root / "projects", root / "codex")
    assert stats.mode == "incremental" and stats.problems == 2
    wal = db.with_name(db.name + "-wal").read_bytes()
    reader.close()
    return db, wal


@pytest.fixture
def planted(planted_files):
    return planted_files[0]


def test_the_planted_secrets_were_indexed_as_markers(planted):
    conn = sqlite3.connect(planted)
    kinds = dict(conn.execute("SELECT kind, sum(count) FROM redactions GROUP BY kind"))
    conn.close()
    for kind in [*SECRETS, "private-key", "aws-secret-key", "password"]:
        assert kinds.get(kind), kind


def test_no_secret_in_the_database_file_or_its_wal(planted_files):
    db, wal = planted_files
    assert len(wal) > 100_000  # the incremental build's pages, the long text's among them
    assert_no_secret("WAL", wal)
    assert_no_secret(db.name, db.read_bytes())


def test_sessions_are_named_after_a_redacted_cwd_and_branch(planted):
    conn = sqlite3.connect(planted)
    row = conn.execute("SELECT project, git_branch FROM sessions WHERE session_id = ?", [LATER])
    assert row.fetchone() == (
        "/home/dev/[REDACTED:github-token]",
        "fix/[REDACTED:aws-access-key-id]",
    )
    conn.close()


def test_no_secret_in_find_json(planted):
    out = CliRunner().invoke(cli, ["find", ERROR, str(planted), "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert {r["session_id"] for r in rows} >= {SESSION, LATER}
    assert "[REDACTED:github-token]" in out.output  # the fix's edit is shown, redacted
    assert_no_secret("find --json", out.output)


def test_no_secret_in_the_hooks_answer(planted):
    event = {
        "session_id": "dddddddd-0000-4000-8000-000000000004",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "npm run build"},
        "error": ERROR,
    }
    answer = hook.respond(json.dumps(event), planted)
    context = json.loads(answer)["hookSpecificOutput"]["additionalContext"]
    assert "edited src/cfg.ts" in context and "[REDACTED:" in context
    assert_no_secret("hook", answer)


def test_no_secret_in_the_mcp_results(planted):
    calls = {
        "find_past_fix": {"error": ERROR},
        "session_errors": {"session_id": LATER},
        "session_tool_output": {"session_id": SESSION, "pattern": "PGPASSWORD"},
        "search_messages": {"q": "cfg"},
        "file_history": {"path": "src/cfg.ts"},
    }

    async def call_all():
        async with Client(server.create_server(planted)) as client:
            return {name: await client.call_tool(name, args) for name, args in calls.items()}

    answers = anyio.run(call_all)
    for name, answer in answers.items():
        assert not answer.is_error, (name, answer)
        assert answer.structured_content["rows"], name
        assert_no_secret(name, json.dumps(answer.structured_content) + answer.content[0].text)


# -- a secret at any position of the cuts, through a reader and prepare() ---------------

_KINDS = sorted(SECRETS)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(_KINDS),
    st.integers(-60, 10),
    st.sampled_from(["head", "tail"]),
    st.sampled_from([" ", "\n", "="]),
)
def test_a_secret_across_a_cut_keeps_no_part_of_itself(kind, offset, cut, separator):
    """The 200,000-character cut keeps 150,000 characters and the last 50,000: a secret
    straddling either edge is redacted first, so neither side keeps a part of it."""
    secret = SECRETS[kind]
    length = MAX_TEXT + 10_000
    edge = MAX_TEXT - 50_000 if cut == "head" else length - 50_000
    at = edge + offset
    text = "a" * (at - 1) + separator + secret + separator
    text += "b" * (length - len(text))
    sid = SESSION
    lines = [
        say(f"{sid}-1", sid, text, "2026-01-01T10:00:01Z"),
        tool_use(
            f"{sid}-2",
            sid,
            "t1",
            "Write",
            {"file_path": "/a", "content": text},
            "2026-01-01T10:00:02Z",
        ),
        result(f"{sid}-3", sid, "t1", text, "2026-01-01T10:00:03Z", True),
    ]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    batch = prepare(transcripts.parse_lines(data, first_line_no=1, default_session_id=sid))
    stored = [batch.messages[0].text, batch.tool_calls[0].input, batch.tool_results[0].content]
    assert all("characters omitted" in value for value in stored)
    for value in stored:
        for fragment in fragments(secret):
            assert fragment not in value


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_KINDS), st.integers(-60, 5), st.sampled_from(["", "\\n", "\\t"]))
def test_a_secret_across_the_excerpt_of_a_bad_line_keeps_no_part_of_itself(kind, offset, escape):
    secret = SECRETS[kind]
    line = bad_line(f"q{escape}{secret}" if escape else secret, EXCERPT_CHARS + offset)
    batch = prepare(
        transcripts.parse_lines(line.encode() + b"\n", first_line_no=1, default_session_id=SESSION)
    )
    [problem] = batch.problems
    assert len(problem.excerpt) <= EXCERPT_CHARS
    for fragment in fragments(secret):
        assert fragment not in problem.excerpt


def test_a_text_that_redaction_makes_longer_than_the_cut_is_cut():
    """A marker can be longer than its secret: a text just under the cut that grows past it
    is cut after redaction, as one that was over it."""
    text = "a" * (MAX_TEXT - 20) + " DB_PASSWORD=Zx9Yw8"
    sid = SESSION
    lines = [result(f"{sid}-1", sid, "t1", text, "2026-01-01T10:00:01Z", True)]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    batch = prepare(transcripts.parse_lines(data, first_line_no=1, default_session_id=sid))
    [stored] = batch.tool_results
    assert "Zx9Yw8" not in stored.content and "characters omitted" in stored.content
    assert stored.content.endswith("DB_PASSWORD=[REDACTED:password]")


def test_prepare_keeps_the_rows_it_does_not_change():
    """Only a row one of whose texts was redacted or cut is replaced (a cwd that repeats on
    every line of a session is redacted once, and its rows kept)."""
    sid = SESSION
    lines = [
        say(f"{sid}-{i}", sid, f"step {i}", f"2026-01-01T10:00:0{i}Z", cwd="/home/dev/app")
        for i in range(3)
    ]
    lines.append(say(f"{sid}-9", sid, f"see {SECRETS['github-token']}", "2026-01-01T10:00:09Z"))
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    parsed = transcripts.parse_lines(data, first_line_no=1, default_session_id=sid)
    before = list(parsed.messages)
    batch = prepare(parsed)
    assert [a is b for a, b in zip(before, batch.messages, strict=True)] == [True] * 3 + [False]
    assert batch.messages[3].text == "see [REDACTED:github-token]"


def _record_with(table, column, text):
    """A row of `table` whose `column` holds `text`, its other fields plain values of their type."""
    values = {
        name: 1 if kind is int else f"{name}-1"
        for name, kind in get_type_hints(table.record).items()
    }
    return table.record(**{**values, column: text})


# The text fields of the records that are not redacted: ids, times, names and kinds that a
# reader or pastfix writes, never free text (a problem's reason is pastfix's own words).
NOT_FREE_TEXT = {
    "uuid", "session_id", "parent_uuid", "type", "kind", "timestamp", "agent_id", "model",
    "version", "tool_use_id", "message_uuid", "name", "signature", "key", "leaf_uuid",
    "reason", "table_name", "row_key", "column_name",
}  # fmt: skip


def test_every_text_field_a_reader_fills_is_redacted_or_no_free_text():
    """A new text field of a record is redacted (in the table spec's `text`) or named here."""
    for table in TABLES:
        if table.batch_field:
            hints = get_type_hints(table.record)
            texts = {name for name, kind in hints.items() if kind in (str, str | None)}
            assert texts - set(table.text) <= NOT_FREE_TEXT, table.name


@pytest.mark.parametrize(
    ("table", "column"),
    [(t, c) for t in TABLES if t.batch_field for c in t.text],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_every_text_column_of_the_write_path_is_redacted(table, column):
    """prepare() redacts each text column the table spec names (pastfix.records.TABLES),
    and records the redaction under the row's key: a column added to the spec is covered."""
    secret = SECRETS["github-token"]
    text = json.dumps({"token": secret}) if column in table.json else f"token {secret}"
    batch = Batch()
    getattr(batch, table.batch_field).append(_record_with(table, column, text))
    [row] = getattr(prepare(batch), table.batch_field)
    assert secret not in getattr(row, column) and "[REDACTED:github-token]" in getattr(row, column)
    [found] = batch.redactions
    assert (found.table_name, found.column_name) == (table.name, column)
    assert found.row_key == (getattr(row, table.key) if table.key else None)


# -- stored rows re-redacted when the rules change ---------------------------------------


def test_rows_of_older_rules_are_redacted_again_in_place(tmp_path):
    """The next build redacts what older rules kept, without the transcripts."""
    projects = tmp_path / "projects"
    write_jsonl(projects / "-home-dev-app" / f"{SESSION}.jsonl", fixed_session(SESSION, 1))
    db = tmp_path / "index.db"
    build_index(db, projects)
    token = SECRETS["github-token"]
    conn = sqlite3.connect(db)
    with conn:  # an index redacted by the rules of version 1, which kept these
        conn.execute("UPDATE _build_state SET value = '1' WHERE name = 'redaction_version'")
        conn.execute(
            "UPDATE tool_calls SET input = ? WHERE tool_use_id = ?",
            [json.dumps({"content": f"x\n{token}"}), f"{SESSION}-t2"],
        )
        conn.execute(
            "UPDATE messages SET text = ?, cwd = ? WHERE uuid = ?",
            [f"set PGPASSWORD={PG_PASSWORD} first", f"/home/{CWD_TOKEN}", f"{SESSION}-p"],
        )
        conn.execute(
            "UPDATE tool_results SET content = ? WHERE tool_use_id = ?",
            # and a token of a kind the rules of version 3 added
            [f"{ERROR}\nnpm {SECRETS['npm-token']} DBPASSWORD={PG_PASSWORD}", f"{SESSION}-t1"],
        )
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
    conn.close()
    # no file changed: nothing is read
    out = CliRunner().invoke(cli, ["build", str(db), "--source", str(projects), "--json"])
    assert out.exit_code == 0, out.output
    assert "Redaction rules changed: 3 stored rows redacted again" in out.stderr
    stats = SimpleNamespace(**json.loads(out.stdout))
    assert stats.files_read == 0 and stats.reredacted_rows == 3
    conn = sqlite3.connect(db)
    assert conn.execute(
        "SELECT value FROM _build_state WHERE name = 'redaction_version'"
    ).fetchone() == (str(REDACTION_VERSION),)
    [(text, cwd)] = conn.execute("SELECT text, cwd FROM messages WHERE uuid = ?", [f"{SESSION}-p"])
    assert (text, cwd) == (
        "set PGPASSWORD=[REDACTED:password] first",
        "/home/[REDACTED:github-token]",
    )
    [(content, signature)] = conn.execute(
        "SELECT content, signature FROM tool_results WHERE tool_use_id = ?", [f"{SESSION}-t1"]
    )
    assert content.endswith("npm [REDACTED:npm-token] DBPASSWORD=[REDACTED:password]")
    assert "TS2304" in signature
    # the full-text index no longer holds the words of the old text
    assert conn.execute(
        "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", [f'"{PG_PASSWORD}"']
    ).fetchone() == (0,)
    assert conn.execute(
        "SELECT project FROM sessions WHERE session_id = ?", [SESSION]
    ).fetchone() == ("/home/[REDACTED:github-token]",)
    added = conn.execute("SELECT table_name, column_name, kind FROM redactions ORDER BY 1, 2, 3")
    assert {tuple(r) for r in added} >= {
        ("messages", "cwd", "github-token"),
        ("messages", "text", "password"),
        ("tool_calls", "input", "github-token"),
        ("tool_results", "content", "npm-token"),
        ("tool_results", "content", "password"),
    }
    conn.close()
    assert_no_secret("index.db", db.read_bytes())
    assert (
        not db.with_name("index.db-wal").exists()
        or db.with_name("index.db-wal").stat().st_size == 0
    )
    # and the next build has nothing left to do
    assert build_index(db, projects).reredacted_rows == 0


def test_a_command_stored_with_nuls_before_version_18_is_redacted_again_without_them(tmp_path):
    """REDACTION_VERSION 18 drops the NULs of a new call's command and description (UTF-16
    text read as UTF-8 hid a token from every rule); a call stored before kept them, and
    its token, through every re-redaction."""
    projects = tmp_path / "projects"
    write_jsonl(projects / "-home-dev-app" / f"{SESSION}.jsonl", fixed_session(SESSION, 1))
    db = tmp_path / "index.db"
    build_index(db, projects)
    token = SECRETS["github-token"]
    utf16 = "\x00".join(f"echo {token}") + "\x00"
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE _build_state SET value = '17' WHERE name = 'redaction_version'")
        conn.execute(
            "UPDATE tool_calls SET command = ?, description = ? WHERE tool_use_id = ?",
            [utf16, "Run\x00 it", f"{SESSION}-t2"],
        )
    conn.close()
    assert build_index(db, projects).reredacted_rows == 1
    conn = sqlite3.connect(db)
    [(command, description)] = conn.execute(
        "SELECT command, description FROM tool_calls WHERE tool_use_id = ?", [f"{SESSION}-t2"]
    )
    conn.close()
    assert (command, description) == ("echo [REDACTED:github-token]", "Run it")
    assert_no_secret("index.db", db.read_bytes())


@needs_real_corpus()
def test_the_real_corpus_keeps_its_six_redactions_and_no_more(tmp_path):
    """The count the README gives: 6 values redacted, all the password `postgres` of local
    development databases, checked by hand; a new rule that redacts more must say why."""
    db = tmp_path / "real.db"
    build_index(db, REAL_PROJECTS)
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT kind, table_name, column_name, sum(count) FROM redactions GROUP BY 1, 2, 3"
    ).fetchall()
    conn.close()
    assert sorted(rows) == [
        ("password", "tool_calls", "input", 1),
        ("url-password", "tool_calls", "input", 4),
        ("url-password", "tool_results", "content", 1),
    ]


_TEXT = st.text(alphabet=st.sampled_from(list("ab -_:/=\"'\\\n{}(") + ["é", "🙂"]), max_size=40)


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(_KINDS),
    _TEXT,
    st.sampled_from([" ", "\n", "=", "\t", '"', "\\n"]),
    _TEXT,
    st.sampled_from(["prompt", "input", "result", "cwd", "branch"]),
)
def test_a_secret_anywhere_is_not_in_the_database_bytes(kind, before, separator, after, where):
    """Through the whole build, fresh then incremental (its pages in the WAL)."""
    secret = SECRETS[kind]
    text = before + separator + secret + separator + after
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project = root / "projects" / "-home-dev-app"
        write_jsonl(project / f"{SESSION}.jsonl", fixed_session(SESSION, 1))
        db = root / "index.db"
        build_index(db, root / "projects")
        envelope = {"cwd": text} if where == "cwd" else {}
        envelope = {"branch": text} if where == "branch" else envelope
        sid, t = LATER, "2026-01-02T10:00:0"
        lines = [
            prompt(f"{sid}-p", sid, text if where == "prompt" else "go", t + "0Z", **envelope),
            tool_use(f"{sid}-1", sid, "t9", "Write", {"content": text}, t + "1Z", **envelope),
            result(f"{sid}-2", sid, "t9", text if where == "result" else "ok", t + "2Z", True),
        ]
        write_jsonl(project / f"{LATER}.jsonl", lines)
        reader = sqlite3.connect(db)
        reader.execute("SELECT 1 FROM messages").fetchone()
        build_index(db, root / "projects")
        stored = db.read_bytes() + db.with_name("index.db-wal").read_bytes()
        reader.close()
    for fragment in fragments(secret):
        assert fragment.encode() not in stored


# -- a pasted error that holds a secret is matched as the index stores it ------------------

NPM_401 = (
    "npm ERR! code E401\n"
    "npm ERR! 401 Unauthorized - PUT https://registry.npmjs.org/app - token {} rejected"
)
OTHER_NPM_TOKEN = "npm_Other9Tok3nV4lu3F0rT3st1ngAbCdEf1234"


def npm_401_session(session):
    """`npm publish` refused for its token, `npm login`, and the publish passing."""
    t = "2026-01-01T10:00:"
    calls = [
        ("npm publish", "Exit code 1\n" + NPM_401.format(SECRETS["npm-token"]), True),
        ("npm login --registry https://registry.npmjs.org", "Logged in as dev", False),
        ("npm publish", "+ app@1.0.0", False),
    ]
    lines = [prompt(f"{session}-p", session, "publish the package", t + "00Z")]
    for i, (command, output, failed) in enumerate(calls, 1):
        tid = f"{session}-t{i}"
        called, answered = f"{t}{2 * i:02d}Z", f"{t}{2 * i + 1:02d}Z"
        lines.append(
            tool_use(f"{session}-u{i}", session, tid, "Bash", {"command": command}, called)
        )
        lines.append(result(f"{session}-r{i}", session, tid, output, answered, failed))
    return lines


@pytest.mark.parametrize("redact", [True, False], ids=["redacted", "no-redact"])
def test_an_error_holding_a_secret_finds_its_past_session(tmp_path, redact):
    """The failure is stored with its token redacted: a pasted error holding the token, or
    another of its kind, must be redacted alike to match its signature and words. An index
    built with --no-redact holds the token itself, and is matched as pasted."""
    projects = tmp_path / "projects"
    write_jsonl(projects / "-home-dev-app" / f"{SESSION}.jsonl", npm_401_session(SESSION))
    db = tmp_path / "index.db"
    build_index(db, projects, redact=redact)
    same = NPM_401.format(SECRETS["npm-token"])
    other = NPM_401.format(OTHER_NPM_TOKEN)
    for pasted, expected in ((same, "signature"), (other, "signature" if redact else None)):
        out = CliRunner().invoke(cli, ["find", pasted, str(db), "--json"])
        assert out.exit_code == 0, out.output
        if expected is None:  # another token: another error, to an index of raw text
            assert "Not seen before" in out.stderr
            continue
        [row] = json.loads(out.stdout)
        assert row["session_id"] == SESSION and row["matched"] == expected
        assert row["outcome"] == "fixed" and "npm login" in json.dumps(row["remedy"])
        if redact:
            assert_no_secret("find --json", out.stdout)
        event = {
            "session_id": LATER,
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "npm publish"},
            "error": "Exit code 1\n" + pasted,
        }
        answer = hook.respond(json.dumps(event), db)
        context = json.loads(answer)["hookSpecificOutput"]["additionalContext"]
        assert f"session {SESSION}" in context and "(same error" in context
        assert "fix: Bash `npm login" in context
        if redact:
            assert_no_secret("hook", answer)


# -- REDACTION_VERSION 8 (session 21's red team): escapes, line prefixes, URLs, case ------

VAULT_ERROR = "VaultError: permission denied reading kv mount zqvault"
FETCH_ERROR = "fetch failed: ECONNREFUSED 10.0.0.7:5432 zqfetch"
# The secrets the red team found kept, each written as they found it (see escaped_session).
ESCAPED = {
    "json-key": "Rz8kQ2vLmN4x",
    "json-url": "Wq7TzK3pLx9v",
    "json-aws": "B7Q3XW5N2R8T4RPX",
    "read-key": PEM.splitlines()[2],
    "url-hash": "p2qL*v7wLS#H8o",
    "url-slash": "Jt5M4/2DXMNaAL",
    "bearer": "ReproBearer7Tk9Qz2Lm4Nx8Vb",
    "basic": "ZGVwbG95OlJlcHJvUGFzczc5",
    "percent": "4rEL*zidW9^4zL",
    "colour": "Qc8Lm4Vx2Rt9",
    "yaml": "KY34Bh8DW4ro",
    "excerpt-token": "Ex3rptT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    "excerpt-url": "Xp9rT3zLm2Qw",
    "codex-token": "C0d3xT0k3nV4lu3F0rT3st1ngAbCdEf12345",
    "codex-url": "Cx7pW2qLm9Rt",
}


def _raw(line, **escaped):
    """A transcript line as JSON text, each of `escaped`'s placeholders replaced by JSON
    text written with escapes, as a model or an agent may write it."""
    text = json.dumps(line)
    for placeholder, raw in escaped.items():
        text = text.replace(json.dumps(placeholder)[1:-1], raw)
    return text


def escaped_session(session):
    t = "2026-02-07T10:00:"
    s = ESCAPED
    read = "\n".join(f"{i:6}→{line}" for i, line in enumerate(PEM.splitlines(), 1))
    yaml = f"db:\n  password: Zx;{s['yaml']}\n"
    curl = (
        f"curl -H 'AUTHORIZATION: BEARER {s['bearer']}' -H 'authorization: basic {s['basic']}'"
        " https://api.example.com"
    )
    return [
        _raw(
            tool_use(
                f"{session}-1",
                session,
                "t1",
                "mcp__vault__read",
                {"mount": "kv", "KEY": "V"},
                t + "01Z",
            ),
            KEY="p\\u0061ssword",
            V=s["json-key"],
        ),
        result(f"{session}-2", session, "t1", VAULT_ERROR, t + "02Z", True),
        _raw(
            tool_use(
                f"{session}-3", session, "t2", "WebFetch", {"url": "URL", "prompt": "p"}, t + "03Z"
            ),
            URL=f"https:\\/\\/admin:{s['json-url']}@db.example.com\\/x",
        ),
        result(f"{session}-4", session, "t2", FETCH_ERROR, t + "04Z", True),
        _raw(
            tool_use(
                f"{session}-5",
                session,
                "t3",
                "Write",
                {"file_path": "/a/c.ini", "content": "C"},
                t + "05Z",
            ),
            C=f"id=\\u0041KIA{s['json-aws']}\\n",
        ),
        result(f"{session}-6", session, "t3", "ok", t + "06Z", False),
        tool_use(f"{session}-7", session, "t4", "Read", {"file_path": "/a/id_rsa"}, t + "07Z"),
        result(f"{session}-8", session, "t4", read, t + "08Z", False),
        prompt(
            f"{session}-9",
            session,
            f"use postgresql://app:{s['url-hash']}@db.internal:5432/app"
            f" and mysql://root:{s['url-slash']}@127.0.0.1/db",
            t + "09Z",
        ),
        _raw(
            tool_use(f"{session}-10", session, "t5", "Bash", {"command": "CMD"}, t + "10Z"),
            CMD=f"{curl} && printf 'DB_PASSWORD=\\\\u001b[32m{s['colour']}\\\\u001b[0m'",
        ),
        result(
            f"{session}-11",
            session,
            "t5",
            f"GET /login?next=%2Fapi%3Fapi_key%3D{s['percent']}",
            t + "11Z",
            True,
        ),
        tool_use(
            f"{session}-12",
            session,
            "t6",
            "Write",
            {"file_path": "/a/db.yml", "content": yaml},
            t + "12Z",
        ),
        result(f"{session}-13", session, "t6", "ok", t + "13Z", False),
        # a line cut short: its excerpt is kept in `problems`
        '{"type":"user","message":{"content":"echo \\u0067hp_'
        + s["excerpt-token"]
        + " https:\\/\\/root:"
        + s["excerpt-url"]
        + "@db.internal\\/x",
    ]


def escaped_rollout(path):
    arguments = (
        '{"command":["bash","-lc","echo \\u0067hp_' + ESCAPED["codex-token"] + " > t && psql"
        " postgres:\\/\\/app:" + ESCAPED["codex-url"] + '@db\\/app"]}'
    )
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.104.0"}
    call = {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": "call_1"}
    output = {"type": "function_call_output", "call_id": "call_1", "output": "Exit code: 2"}
    write_jsonl(
        path,
        [
            {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta", "payload": meta},
            {"timestamp": "2026-03-01T10:00:05.000Z", "type": "response_item", "payload": call},
            {"timestamp": "2026-03-01T10:00:06.000Z", "type": "response_item", "payload": output},
        ],
    )


def _unescaped(text):
    """`text` with JSON and percent escapes decoded, as an output that decodes it shows it."""
    text = re.sub(r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    text = re.sub(r"%([0-7][0-9a-fA-F])", lambda m: chr(int(m.group(1), 16)), text)
    return re.sub(r"\\+/", "/", text)


def assert_no_escaped_secret(where, data):
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for name, secret in ESCAPED.items():
        for fragment in fragments(secret, 8):
            assert fragment not in text and fragment not in _unescaped(text), (where, name)


@pytest.fixture(scope="module")
def escaped_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("escaped")
    write_jsonl(root / "projects" / "-home-dev-r" / f"{SESSION}.jsonl", escaped_session(SESSION))
    escaped_rollout(
        root / "codex" / "2026/03/01" / f"rollout-2026-03-01T10-00-00-{CODEX_SESSION}.jsonl"
    )
    db = root / "index.db"
    stats = build_index(db, root / "projects", root / "codex")
    assert stats.problems == 1
    return db


def test_no_escaped_secret_in_the_database_file_or_its_wal(escaped_index):
    """Each secret the red team found kept is redacted, as the text it was written in."""
    conn = sqlite3.connect(escaped_index)
    kinds = dict(conn.execute("SELECT kind, sum(count) FROM redactions GROUP BY kind"))
    conn.close()
    assert kinds.keys() >= {"password", "url-password", "aws-access-key-id", "private-key"}
    assert kinds.keys() >= {"bearer-token", "basic-auth", "api-key", "github-token"}
    wal = escaped_index.with_name("index.db-wal")
    assert_no_escaped_secret("index.db", escaped_index.read_bytes())
    assert_no_escaped_secret("WAL", wal.read_bytes() if wal.exists() else b"")


def test_no_escaped_secret_in_any_output(escaped_index):
    for error in (VAULT_ERROR, FETCH_ERROR):
        out = CliRunner().invoke(cli, ["find", error, str(escaped_index), "--json"])
        assert out.exit_code == 0, out.output
        assert json.loads(out.output), error  # the failure is found, its call shown
        assert_no_escaped_secret("find --json", out.output)
    calls = {
        "find_past_fix": {"error": VAULT_ERROR},
        "session_errors": {"session_id": SESSION},
        "session_tool_output": {"session_id": SESSION, "pattern": "PRIVATE"},
        "search_messages": {"q": "mysql"},
    }

    async def call_all():
        async with Client(server.create_server(escaped_index)) as client:
            return {name: await client.call_tool(name, args) for name, args in calls.items()}

    for name, answer in anyio.run(call_all).items():
        assert not answer.is_error, (name, answer)
        assert_no_escaped_secret(
            name, json.dumps(answer.structured_content) + answer.content[0].text
        )


def test_escaped_secrets_of_older_rules_are_redacted_again_in_place(tmp_path):
    """An index whose rules kept them (REDACTION_VERSION 7) is redacted by its next build."""
    projects = tmp_path / "projects"
    write_jsonl(projects / "-home-dev-r" / f"{SESSION}.jsonl", escaped_session(SESSION))
    db = tmp_path / "index.db"
    build_index(db, projects, redact=False)
    conn = sqlite3.connect(db)
    with conn:  # what a build of version 7 kept, and that build's setting
        conn.execute("UPDATE _build_state SET value = '7' WHERE name = 'redaction_version'")
        conn.execute("UPDATE _build_state SET value = '1' WHERE name = 'redact'")
    conn.close()
    stats = build_index(db, projects)
    assert stats.files_read == 0 and stats.reredacted_rows >= 8
    assert_no_escaped_secret("index.db", db.read_bytes())


def _escaped(text, hows, rnd):
    """`text` with some characters written as JSON or percent escapes, as JSON text holds them."""
    out = []
    for c in text:
        how = rnd.choice(hows)
        if how == "json":
            out.append(f"\\u{ord(c):04x}")
        elif how == "percent" and c.isascii() and c != "\n":
            out.append(f"%{ord(c):02X}")
        else:
            out.append(json.dumps(c)[1:-1].replace("/", "\\/"))
    return "".join(out)


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(_KINDS),
    _TEXT,
    st.lists(st.sampled_from(["json", "percent", "none"]), min_size=1, max_size=3),
    st.randoms(use_true_random=False),
    st.sampled_from(["input", "key", "result", "excerpt"]),
)
def test_a_secret_behind_escapes_is_not_in_the_database_bytes(kind, before, hows, rnd, where):
    """Any characters of a secret written as escapes, in a tool call's input (a value or,
    with its keyword, a key), a result or a bad line's excerpt: no 10 characters of it in
    the database and its WAL, as stored or decoded."""
    secret = SECRETS[kind]
    text = json.dumps(before)[1:-1] + " " + _escaped(secret, hows, rnd)
    sid, t = LATER, "2026-01-02T10:00:0"
    value = text if where in ("input", "key") else "ok"
    call = _raw(tool_use(f"{sid}-1", sid, "t9", "Write", {"content": "V"}, t + "1Z"), V=value)
    if where == "key":  # the secret's keyword as an escaped key: {"p\u0061ssword": "..."}
        call = _raw(
            tool_use(f"{sid}-1", sid, "t9", "mcp__db__q", {"KEY": "V"}, t + "1Z"),
            KEY="p\\u0061ssword",
            V=_escaped(PG_PASSWORD, hows, rnd),
        )
        secret = PG_PASSWORD
    lines = [call, result(f"{sid}-2", sid, "t9", "ok", t + "2Z", True)]
    if where == "result":
        lines[1] = _raw(result(f"{sid}-2", sid, "t9", "R", t + "2Z", True), R=text)
    if where == "excerpt":
        lines.append('{"type":"user","message":{"content":"' + text)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_jsonl(root / "projects" / "-home-dev-app" / f"{sid}.jsonl", lines)
        db = root / "index.db"
        build_index(db, root / "projects")
        wal = db.with_name("index.db-wal")
        stored = (db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")).decode(
            "utf-8", "replace"
        )
    for fragment in fragments(secret):
        assert fragment not in stored and fragment not in _unescaped(stored), (where, fragment)


# -- REDACTION_VERSION 9 (session 22's red team): digits, names, full-width signs, ----------
# -- invisible characters, wrapped tokens, URLs, and the kinds a hunt found kept -----------

DEPLOY_ERROR = "DeployError: release rejected by gate zqdeploy"
_WIDE_CREDS = base64.b64encode(b"dev:Dk7Rq2Lm9Vx4Tz").decode()
# Each planted text and the secret in it that must never be stored.
RED_TEAM_22 = {
    "aws-after-digit": ("row 0AKIAQ7Z3XW5N2R8T4HNT", "AKIAQ7Z3XW5N2R8T4HNT"),
    "db_pass": ("db_pass=Dp4Ss9Wq2ZxT", "Dp4Ss9Wq2ZxT"),
    "credentials": ("SMTP_CREDENTIALS=Sm7Tp2Cr9DzK", "Sm7Tp2Cr9DzK"),
    "full-width": ("DB_PASSWORD＝Fw3Eq8Ls6ZnP", "Fw3Eq8Ls6ZnP"),
    "zero-width": ("ghp_Zw1dth\u200bQm7Hx2Kd9Lp4Rt6Vb3Nc8Jz5Wf", "Qm7Hx2Kd9Lp4Rt6Vb3Nc8Jz5Wf"),
    "wrapped": ("sk-ant-api03-Wr4pp3dT0k3nF1rstP4rtXy\nS3c0ndP4rtOfTh3W\n", "S3c0ndP4rtOfTh3W"),
    "one-slash": ("https:/admin:Sl4shPw9XqL@db.example.com/app", "Sl4shPw9XqL"),
    "backslashes": ("http:\\\\admin:Bk5lshPw2ZqR@db.example.com/app", "Bk5lshPw2ZqR"),
    "stripe-whsec": ("whsec_Wh5ecR3tXq8Lm2Pz6Kd4Vn7Bj9Tc3Gf1", "Wh5ecR3tXq8Lm2Pz6Kd4Vn7Bj9Tc3Gf1"),
    "google-refresh": (
        "1//0gR3fr3shYk2Wq8Mn5Hd3Lx7Pv9Cz4Fb6Rt-Jg_Ns",
        "R3fr3shYk2Wq8Mn5Hd3Lx7Pv9Cz4",
    ),
    "redis-cli": ("redis-cli -h cache -a Rd5Cl1Pw8zQ ping", "Rd5Cl1Pw8zQ"),
    "htpasswd": ("htpasswd -b -c .htpasswd admin Ht9Pw3Lq7zW", "Ht9Pw3Lq7zW"),
    "cookie": (
        "Set-Cookie: sessionid=C00k13S3ss10nUw4Ej7Ra2Tm9Gy5; HttpOnly",
        "C00k13S3ss10nUw4Ej7Ra2Tm9Gy5",
    ),
    "docker-auths": (json.dumps({"auths": {"ghcr.io": {"auth": _WIDE_CREDS}}}), _WIDE_CREDS),
}


def red_team_22_session(session):
    """Every planted text in every place a Claude Code line stores text."""
    t = "2026-02-08T10:00:"
    blob = "\n".join(f"{name}: {text}" for name, (text, _) in RED_TEAM_22.items())
    listed = prompt(f"{session}-2", session, "x", t + "02Z")
    listed["message"]["content"] = [{"type": "text", "text": blob}]
    as_list = result(f"{session}-7", session, "t2", [{"type": "text", "text": blob}], t + "07Z")
    as_list["toolUseResult"] = {"stdout": blob, "stderr": blob, "interrupted": False}
    curl = "curl -d " + json.dumps(json.dumps({"cfg": blob}))
    return [
        prompt(f"{session}-1", session, "deploy with " + blob, t + "01Z"),
        listed,
        say(f"{session}-3", session, blob, t + "03Z"),
        tool_use(f"{session}-4", session, "t1", "Bash", {"command": blob}, t + "04Z"),
        result(
            f"{session}-5", session, "t1", f"Exit code 1\n{DEPLOY_ERROR}\n{blob}", t + "05Z", True
        ),
        tool_use(
            f"{session}-6",
            session,
            "t2",
            "Write",
            {"file_path": "/a/.env", "content": blob},
            t + "06Z",
        ),
        as_list,
        tool_use(f"{session}-8", session, "t3", "Bash", {"command": curl}, t + "08Z"),
        result(f"{session}-9", session, "t3", json.dumps({"echo": blob}), t + "09Z", False),
    ]


def red_team_22_rollout(path):
    blob = "\n".join(f"{name}: {text}" for name, (text, _) in RED_TEAM_22.items())
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.104.0"}
    arguments = json.dumps({"command": ["bash", "-lc", blob]})
    output = json.dumps({"output": blob, "metadata": {"exit_code": 1}})
    items = [
        {"type": "function_call", "name": "shell", "call_id": "c1", "arguments": arguments},
        {"type": "function_call_output", "call_id": "c1", "output": output},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": blob}],
        },
    ]
    write_jsonl(
        path,
        [{"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta", "payload": meta}]
        + [
            {"timestamp": f"2026-03-01T10:00:0{i}.000Z", "type": "response_item", "payload": p}
            for i, p in enumerate(items, 1)
        ],
    )


def assert_no_red_team_22_secret(where, data):
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for name, (_, secret) in RED_TEAM_22.items():
        for fragment in fragments(secret, 8):
            assert fragment not in text and fragment not in _unescaped(text), (where, name)


def built_twice(tmp_path, project, session, rollout, day):
    """An index of `session`'s lines (a function of its id) in `project` and a Codex
    `rollout` of that `day`, built, then built again with a later session while a reader
    keeps the WAL: the index and its WAL's bytes."""
    projects = tmp_path / "projects" / project
    write_jsonl(projects / f"{SESSION}.jsonl", session(SESSION))
    rollout(
        tmp_path / "codex" / day.replace("-", "/") / f"rollout-{day}T10-00-00-{CODEX_SESSION}.jsonl"
    )
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects", tmp_path / "codex")
    # and again through the WAL, a reader keeping it
    write_jsonl(projects / f"{LATER}.jsonl", session(LATER))
    reader = sqlite3.connect(db)
    reader.execute("SELECT count(*) FROM messages").fetchone()
    build_index(db, tmp_path / "projects", tmp_path / "codex")
    wal = db.with_name("index.db-wal").read_bytes()
    reader.close()
    assert len(wal) > 10_000
    return db, wal


def test_no_red_team_22_secret_in_the_index_its_wal_or_any_output(tmp_path):
    db, wal = built_twice(
        tmp_path, "-home-dev-app", red_team_22_session, red_team_22_rollout, "2026-03-01"
    )
    assert_no_red_team_22_secret("WAL", wal)
    assert_no_red_team_22_secret("index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", DEPLOY_ERROR, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_no_red_team_22_secret("find --json", out.stdout)

    async def call_all():
        async with Client(server.create_server(db)) as client:
            calls = {
                "find_past_fix": {"error": DEPLOY_ERROR},
                "search_messages": {"q": "deploy"},
                "session_tool_output": {"session_id": SESSION, "pattern": "a"},
            }
            return {name: await client.call_tool(name, args) for name, args in calls.items()}

    for name, answer in anyio.run(call_all).items():
        assert not answer.is_error and answer.structured_content["rows"], name
        assert_no_red_team_22_secret(name, json.dumps(answer.structured_content))
    conn = sqlite3.connect(db)
    kinds = dict(conn.execute("SELECT kind, sum(count) FROM redactions GROUP BY kind"))
    conn.close()
    assert kinds.keys() >= {"session-cookie", "stripe-key", "google-oauth-token", "basic-auth"}


# -- REDACTION_VERSION 13 (session 28's security test): a `.env` read, a deploy token on the
# -- command line, a Kubernetes manifest in its output -----------------------------------

VERCEL_ERROR = "Error: Vercel deploy failed zzvercelfail"
APP_KEY = "Jd0Fc9Qz7Lm2Xv4Rt8Wn3Bp6Yh1Ka5ZzQ="
VERCEL_TOKEN = "Vt7Qm2Zx9Lp4Wn8Rk3Bc6Yh1"
K8S_PASSWORD = "Mq8Zr3Lp7Wx2Kv9T"


def security_28_session(session):
    t = "2026-03-02T10:00:"
    manifest = f'env:\n  - name: DB_PASSWORD\n    value: "{K8S_PASSWORD}"\n'
    deploy = {"command": f"npx vercel deploy --prod --token {VERCEL_TOKEN}"}
    return [
        prompt(f"{session}-1", session, "deploy it", t + "01Z"),
        tool_use(f"{session}-2", session, "t1", "Read", {"file_path": "/app/.env"}, t + "02Z"),
        result(
            f"{session}-3",
            session,
            "t1",
            f"     1→APP_NAME=shop\n     2→APP_ENV=production\n     3→APP_KEY=base64:{APP_KEY}",
            t + "03Z",
            False,
        ),
        tool_use(f"{session}-4", session, "t2", "Bash", deploy, t + "04Z"),
        result(f"{session}-5", session, "t2", f"{VERCEL_ERROR}\n{manifest}", t + "05Z", True),
        tool_use(f"{session}-6", session, "t3", "Bash", deploy, t + "06Z"),
        result(f"{session}-7", session, "t3", "deployed", t + "07Z", False),
    ]


# -- REDACTION_VERSION 14 (session 28, later): what version 13 left, in a Windows session
# -- that set its variables and the CI's secrets, then read a config back -----------------

SETX_ERROR = "Error: GitHub secret sync failed zzsecretsync"
SETX_TOKEN = "Vt7Qm2Zx9Lp4Wn8Rk3Bc6Yh1"
GH_BODY = "Gh5Bd7Qx2Lm9Zr4T"
ADMIN_PW = "Hx7kQ2mZp9Lq"
OPENAI_KEY = "Jd0Fc9Qz7Lm2Xv4Rt8Wn3Bp6"


def later_28_session(session):
    t = "2026-03-03T10:00:"
    setx = {"command": f"setx API_TOKEN {SETX_TOKEN} && gh secret set DEPLOY --body {GH_BODY}"}
    config = f"ADMIN_PW={ADMIN_PW}\nos.environ['OPENAI_KEY'] = '{OPENAI_KEY}'\n"
    return [
        prompt(f"{session}-1", session, "sync the secrets", t + "01Z"),
        tool_use(f"{session}-2", session, "t1", "Bash", setx, t + "02Z"),
        result(f"{session}-3", session, "t1", f"{SETX_ERROR}\n{config}", t + "03Z", True),
        tool_use(f"{session}-4", session, "t2", "Bash", setx, t + "04Z"),
        result(f"{session}-5", session, "t2", "SUCCESS: Specified value was saved.", t + "05Z"),
    ]


# -- REDACTION_VERSION 29 (session 37, second round): a heredoc given to a store, a .env and
# -- a redis.conf written, a YAML block scalar ---------------------------------------------

STORE_ERROR = "Error: deploy failed zzheredocstore"
HEREDOC_SECRET = "Hd7Qm2Zx9Lp4Wn8Rk3Bc"
ENV_SIGNING = "Ev5Bd7Qx2Lm9Zr4T8Kw1"
REDIS_PASSWORD = "Rd7kQ2mZp9Lq4"
BLOCK_TOKEN = "Bk0Fc9Qz7Lm2Xv4Rt8Wn3"


def store_29_session(session):
    t = "2026-03-04T10:00:"
    store = {"command": f'vault write secret/app - <<EOF\n{{"signing": "{HEREDOC_SECRET}"}}\nEOF'}
    env = {"file_path": "/srv/app/.env.local", "content": f"PORT=3000\nSIGNING={ENV_SIGNING}\n"}
    conf = {"file_path": "/etc/redis/redis.conf", "content": f"requirepass {REDIS_PASSWORD}\n"}
    values = {
        "file_path": "/srv/app/values.yaml",
        "old_string": "api:",
        "new_string": f"api:\n  api_token: |\n    {BLOCK_TOKEN}\n",
    }
    return [
        prompt(f"{session}-1", session, "deploy the app", t + "01Z"),
        tool_use(f"{session}-2", session, "t1", "Bash", store, t + "02Z"),
        result(f"{session}-3", session, "t1", STORE_ERROR, t + "03Z", True),
        tool_use(f"{session}-4", session, "t2", "Write", env, t + "04Z"),
        result(f"{session}-5", session, "t2", "written", t + "05Z"),
        tool_use(f"{session}-6", session, "t3", "Write", conf, t + "06Z"),
        result(f"{session}-7", session, "t3", "written", t + "07Z"),
        tool_use(f"{session}-8", session, "t4", "Edit", values, t + "08Z"),
        result(f"{session}-9", session, "t4", "updated", t + "09Z"),
        tool_use(f"{session}-10", session, "t5", "Bash", store, t + "10Z"),
        result(f"{session}-11", session, "t5", "Success! Data written to: secret/app", t + "11Z"),
    ]


def assert_none_of(secrets, where, data):
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for secret in secrets:
        for fragment in fragments(secret, 8):
            assert fragment not in text, (where, fragment)


@pytest.mark.parametrize(
    ("session_of", "secrets", "error", "kinds"),
    [
        # REDACTION_VERSION 13: a .env read, a deploy token, a Kubernetes manifest
        (
            security_28_session,
            (APP_KEY, VERCEL_TOKEN, K8S_PASSWORD),
            VERCEL_ERROR,
            {"key", "token", "password"},
        ),
        # REDACTION_VERSION 14: setx, gh secret set, a PW name, a name in brackets
        (
            later_28_session,
            (SETX_TOKEN, GH_BODY, ADMIN_PW, OPENAI_KEY),
            SETX_ERROR,
            {"key", "token", "password", "secret"},
        ),
        # REDACTION_VERSION 29: a heredoc given to a store, a .env and a redis.conf written,
        # a YAML block scalar
        (
            store_29_session,
            (HEREDOC_SECRET, ENV_SIGNING, REDIS_PASSWORD, BLOCK_TOKEN),
            STORE_ERROR,
            {"password", "secret"},
        ),
    ],
)
def test_no_session_28_secret_in_the_index_its_wal_or_find(
    tmp_path, session_of, secrets, error, kinds
):
    projects = tmp_path / "projects" / "-home-dev-shop"
    write_jsonl(projects / f"{SESSION}.jsonl", session_of(SESSION))
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")
    # and again through the WAL, a reader keeping it
    write_jsonl(projects / f"{LATER}.jsonl", session_of(LATER))
    reader = sqlite3.connect(db)
    reader.execute("SELECT count(*) FROM messages").fetchone()
    build_index(db, tmp_path / "projects")
    wal = db.with_name("index.db-wal").read_bytes()
    reader.close()
    assert len(wal) > 10_000
    assert_none_of(secrets, "WAL", wal)
    assert_none_of(secrets, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", error, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(secrets, "find --json", out.stdout)
    conn = sqlite3.connect(db)
    found = dict(conn.execute("SELECT kind, sum(count) FROM redactions GROUP BY kind"))
    conn.close()
    assert found.keys() >= kinds


def test_the_columns_stored_as_written_are_redacted_too(tmp_path):
    """A message's model, version and subagent id and a tool call's name were stored as
    the transcript wrote them (a security tester found a token kept there, session 28):
    they are redacted as every stored text is; the tool's name, redacted, is still a call."""
    token = "ghp_" + "Zx9Lp4Wn8Rk3Bc6Yh1Vt7Qm2Kd5Fs0Ja3Tu"
    session = "5c0375b4-57a5-4f26-b12d-d022ee4e51b8"
    lines = [
        prompt("u1", session, "look it up", "2026-03-03T10:00:01Z", version=f"2.1.{token}"),
        tool_use(
            "u2",
            session,
            "t1",
            f"mcp__gh-{token} search",
            {"q": "x"},
            "2026-03-03T10:00:02Z",
            agentId=f"agent-{token}",
        ),
        result("u3", session, "t1", "Error: 401 Bad credentials", "2026-03-03T10:00:03Z", True),
    ]
    lines[1]["message"]["model"] = f"proxy/{token}"
    write_jsonl(tmp_path / "projects" / "-home-dev-x" / f"{session}.jsonl", lines)
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")
    assert token[:12].encode() not in db.read_bytes()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT name FROM tool_calls").fetchone()[0] == (
        "mcp__gh-[REDACTED:github-token] search"
    )
    conn.close()


# -- REDACTION_VERSION 16 (session 30's security test): command-line passwords, in a Claude
# -- Code session's Bash calls, and passwords typed into a prompt, in a Codex rollout -------

SUDO_ERROR = "zzsudo0: authentication failed"
SESSION_30_COMMANDS = {
    "SUDO": "echo '{}' | sudo -S apt-get install -y libpq-dev",
    "PRINTF": "printf '%s\\n' {} | sudo -S apt-get update",
    "HERE": "sudo -S <<< '{}' systemctl restart app",
    "SSHP": "SSHPASS={} sshpass -e ssh deploy@10.0.0.5 'systemctl restart app'",
    "MONGO": "mongosh -u admin -p {} --authenticationDatabase admin",
    "SQLCMD": "sqlcmd -S db -U sa -P {} -Q 'select 1'",
    "AZ": "az login --service-principal -u 0000-app -p {} --tenant t",
    "KEYTOOL": "keytool -list -keystore release.jks -storepass {}",
    "LDAP": "ldapsearch -x -D cn=admin,dc=x -w {} -b dc=x",
    "SMB": "smbclient //nas/share -U bob%{}",
    "NETUSE": "net use \\\\srv\\share /user:bob {}",
    "GPG": "gpg --batch --passphrase {} -d secrets.gpg",
    "CHPASSWD": "echo 'bob:{}' | chpasswd",
    "PASSWD": "echo -n {} | passwd --stdin bob",
    "MYSQLADMIN": "mysqladmin -u root password {}",
    "RABBIT": "rabbitmqctl add_user admin {}",
    "KEYGEN": "ssh-keygen -t ed25519 -N {} -f deploy_key",
    "VNC": "x11vnc -passwd {} -display :0",
}


def session_30_password(tag):
    return f"Qm7LEAK{tag}9xTz2"


def session_30_session(session):
    return failed_commands_session(session, SESSION_30_COMMANDS, "2026-03-05")


def failed_commands_session(session, commands, day):
    """A session of one failed Bash call for each of `commands`, each holding the password
    session_30_password() gives its tag."""
    t = f"{day}T10:"
    lines = [prompt(f"{session}-p", session, "set it up", t + "00:00Z")]
    for i, (tag, form) in enumerate(commands.items()):
        command = {"command": form.format(session_30_password(tag))}
        lines += [
            tool_use(f"{session}-{i}a", session, f"s{i}", "Bash", command, f"{t}{i + 1:02d}:00Z"),
            result(
                f"{session}-{i}b",
                session,
                f"s{i}",
                f"Exit code 1\nzzsudo{i}: authentication failed",
                f"{t}{i + 1:02d}:30Z",
                True,
            ),
        ]
    return lines


def session_30_rollout(path):
    """Passwords typed into a prompt: a code-mode cell's write_stdin after `sudo`, and a
    write_stdin call after `mysql -p` asked `Enter password:` (the security test's shapes)."""
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.146.0"}
    cell = f'await tools.write_stdin({{session_id: 9, chars: "{session_30_password("CELL")}\\n"}})'
    typed = json.dumps({"session_id": 77, "chars": session_30_password("STDIN") + "\n"})
    running = "Chunk ID: 1\nWall time: 0.2 seconds\nProcess running with session ID 77\n"
    exited = "Chunk ID: 2\nWall time: 0.2 seconds\nProcess exited with code 1\n"
    items = [
        {
            "type": "custom_tool_call",
            "name": "exec",
            "call_id": "c9",
            "input": 'await tools.exec_command({cmd: "sudo apt-get install -y libpq-dev"})',
        },
        {
            "type": "custom_tool_call_output",
            "call_id": "c9",
            "output": "Script running with cell ID 9\n",
        },
        {"type": "custom_tool_call", "name": "exec", "call_id": "c10", "input": cell},
        {
            "type": "custom_tool_call_output",
            "call_id": "c10",
            "output": "Script failed\nWall time 0.4 seconds\nOutput:\n"
            "[sudo] password for dev: \nSorry, try again. zzcode10",
        },
        {
            "type": "function_call",
            "name": "exec_command",
            "call_id": "f11",
            "arguments": json.dumps({"cmd": "mysql -u root -p shop"}),
        },
        {
            "type": "function_call_output",
            "call_id": "f11",
            "output": running + "Original token count: 3\nOutput:\nEnter password: ",
        },
        {"type": "function_call", "name": "write_stdin", "call_id": "f12", "arguments": typed},
        {
            "type": "function_call_output",
            "call_id": "f12",
            "output": exited + "Original token count: 3\nOutput:\nERROR 1045 (28000): "
            "Access denied for user 'root'@'localhost' zzcode12",
        },
    ]
    write_jsonl(
        path,
        [{"timestamp": "2026-03-05T10:00:00.000Z", "type": "session_meta", "payload": meta}]
        + [
            {"timestamp": f"2026-03-05T10:00:{i:02d}.000Z", "type": "response_item", "payload": p}
            for i, p in enumerate(items, 1)
        ],
    )


SESSION_30_SECRETS = [session_30_password(tag) for tag in SESSION_30_COMMANDS] + [
    session_30_password("CELL"),
    session_30_password("STDIN"),
]


def test_no_session_30_password_in_the_index_its_wal_or_find(tmp_path):
    db, wal = built_twice(
        tmp_path, "-home-dev-shop", session_30_session, session_30_rollout, "2026-03-05"
    )
    assert_none_of(SESSION_30_SECRETS, "WAL", wal)
    assert_none_of(SESSION_30_SECRETS, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", SUDO_ERROR, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(SESSION_30_SECRETS, "find --json", out.stdout)
    conn = sqlite3.connect(db)
    typed = dict(
        conn.execute(
            "SELECT tool_use_id, input FROM tool_calls WHERE tool_use_id IN ('c10', 'f12')"
        )
    )
    redactions = conn.execute(
        "SELECT count(*) FROM redactions WHERE table_name = 'tool_calls' AND kind = 'password'"
    ).fetchone()[0]
    conn.close()
    assert typed["f12"] == '{"session_id": 77, "chars": "[REDACTED:password]\\n"}'
    assert 'chars: \\"[REDACTED:password]\\\\n\\"' in typed["c10"]
    # each command in its call's command and input, in two sessions; the two typed passwords
    assert redactions == 4 * len(SESSION_30_COMMANDS) + 2


# -- REDACTION_VERSION 17 (session 31's security test, F5): version 16's forms with their
# -- common variations, in a Claude Code session's Bash calls and a Codex write_stdin -------

SESSION_31_COMMANDS = {
    "SUDOU": "echo '{}' | sudo -u postgres -S psql -c 'select 1'",
    "SUDOP": "echo '{}' | sudo -p '' -S apt-get update",
    "SUDONS": "echo '{}' | sudo -nS true",
    "AMP": "echo '{}&x' | sudo -S apt-get install -y nginx",
    "SPACE": "echo 'correct horse {}' | sudo -S apt-get update",
    "GROUP": "(echo {}) | sudo -S ls",
    "HEREDOC": "sudo -S apt-get update <<EOF\n{}\nEOF",
    "CHPASSWD": "echo 'bob:{}&x' | sudo chpasswd",
    "SMB": "smbclient //nas/share -U 'CORP\\bob%{}' -c ls",
}


def test_no_session_31_password_in_the_index_its_wal_or_find(tmp_path):
    lines = failed_commands_session(SESSION, SESSION_31_COMMANDS, "2026-03-06")
    write_jsonl(tmp_path / "projects" / "-home-dev-shop" / f"{SESSION}.jsonl", lines)
    # a password holding a quote typed into `mysql -p`'s prompt
    typed = json.dumps({"session_id": 77, "chars": 'Qm7"LEAKSTDIN9xTz2\n'})
    items = [
        {
            "type": "function_call",
            "name": "exec_command",
            "call_id": "f1",
            "arguments": json.dumps({"cmd": "mysql -u root -p shop"}),
        },
        {
            "type": "function_call_output",
            "call_id": "f1",
            "output": "Process running with session ID 77\nOutput:\nEnter password: ",
        },
        {"type": "function_call", "name": "write_stdin", "call_id": "f2", "arguments": typed},
        {
            "type": "function_call_output",
            "call_id": "f2",
            "output": "Process exited with code 1\nOutput:\nERROR 1045 (28000): Access denied",
        },
    ]
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.146.0"}
    write_jsonl(
        tmp_path / "codex" / "2026/03/06" / f"rollout-2026-03-06T10-00-00-{CODEX_SESSION}.jsonl",
        [{"timestamp": "2026-03-06T10:00:00.000Z", "type": "session_meta", "payload": meta}]
        + [
            {"timestamp": f"2026-03-06T10:00:{i:02d}.000Z", "type": "response_item", "payload": p}
            for i, p in enumerate(items, 1)
        ],
    )
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects", tmp_path / "codex")
    secrets = [session_30_password(tag) for tag in SESSION_31_COMMANDS] + ["LEAKSTDIN9xTz2"]
    wal = db.with_name("index.db-wal")
    assert_none_of(secrets, "WAL", wal.read_bytes() if wal.exists() else b"")
    assert_none_of(secrets, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", "zzsudo0: authentication failed", str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(secrets, "find --json", out.stdout)
    conn = sqlite3.connect(db)
    redactions = conn.execute(
        "SELECT count(*) FROM redactions WHERE table_name = 'tool_calls' AND kind = 'password'"
    ).fetchone()[0]
    conn.close()
    # each command in its call's command and input; the typed password
    assert redactions == 2 * len(SESSION_31_COMMANDS) + 1


def test_session_30_passwords_of_older_rules_are_redacted_again_in_place(tmp_path):
    """An index whose rules kept them (REDACTION_VERSION 15) is redacted by its next build,
    without the transcripts."""
    projects = tmp_path / "projects" / "-home-dev-shop"
    write_jsonl(projects / f"{SESSION}.jsonl", session_30_session(SESSION))
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")
    kept = {
        f"s{i}": form.format(session_30_password(tag))
        for i, (tag, form) in enumerate(SESSION_30_COMMANDS.items())
    }
    conn = sqlite3.connect(db)
    with conn:  # as the rules of version 15 stored them
        conn.execute("UPDATE _build_state SET value = '15' WHERE name = 'redaction_version'")
        for tool_use_id, command in kept.items():
            conn.execute(
                "UPDATE tool_calls SET command = ?, input = ? WHERE tool_use_id = ?",
                [command, json.dumps({"command": command}), tool_use_id],
            )
    conn.close()
    out = CliRunner().invoke(
        cli, ["build", str(db), "--source", str(tmp_path / "projects"), "--json"]
    )
    assert out.exit_code == 0, out.output
    stats = SimpleNamespace(**json.loads(out.stdout))
    assert stats.files_read == 0 and stats.reredacted_rows == len(kept)
    conn = sqlite3.connect(db)
    conn.execute("VACUUM")
    conn.close()
    assert_none_of(SESSION_30_SECRETS, "index.db", db.read_bytes())


# -- session 31's F: UTF-16 text read as UTF-8 in a tool call's input ---------------------

UTF16_SECRETS = {
    "GITHUB_TOKEN=ghp_Zq8xLEAKA3mW9vRt2KcQ7aBvQ9xLp3mW9xy": "LEAKA3mW9vRt",
    "DB_PASSWORD=Zq8xLEAKB3mW9vRt2KcQ7": "LEAKB3mW9vRt",
    "Authorization: Bearer Zq8xLEAKD3mW9vRt2KcQ7aBvQ9xLp3mW9": "LEAKD3mW9vRt",
    "postgres://admin:Zq8xLEAKE3mW9@db.internal/app": "LEAKE3mW9",
}


def utf16(text):
    """`text` as a tool that writes UTF-16 shows it read as UTF-8: a NUL after each character."""
    return "".join(c + "\0" for c in text)


def utf16_session(session):
    t = "2026-02-09T10:00:"
    lines = [prompt("u-0", session, "write the env file", t + "00Z")]
    for i, line in enumerate(UTF16_SECRETS):
        written = {"file_path": "/w/.env", "content": utf16(line + "\r\n")}
        ran = {"command": "type " + utf16(line), "description": utf16(line)}
        lines += [
            tool_use(f"w-{i}", session, f"toolu_w{i}", "Write", written, f"{t}{2 * i + 1:02d}Z"),
            tool_use(f"b-{i}", session, f"toolu_b{i}", "Bash", ran, f"{t}{2 * i + 2:02d}Z"),
        ]
    return lines


def test_a_secret_in_utf16_text_of_a_tool_call_is_redacted(tmp_path):
    """A Write's content or a Bash call's command holding UTF-16 text read as UTF-8 kept
    its secret: a text is stored without NULs (records.clean_text), but the NULs of an
    input (escaped, `g\\u0000h\\u0000p\\u0000_`) and of the texts taken from it hid the
    secret from the rules. Now an escaped NUL reads as nothing, and the texts taken from an
    input are stored without NULs; an index of the rules before (REDACTION_VERSION 17) is
    redacted in place by its next build."""
    projects = tmp_path / "projects"
    write_jsonl(projects / "-w" / f"{SESSION}.jsonl", utf16_session(SESSION))
    db = tmp_path / "index.db"
    build_index(db, projects)

    def kept():
        conn = sqlite3.connect(db)
        try:
            texts = conn.execute("SELECT command, description, input FROM tool_calls").fetchall()
        finally:
            conn.close()
        seen = "\n".join(t.replace("\\u0000", "").replace("\0", "") for r in texts for t in r if t)
        return {leak for leak in UTF16_SECRETS.values() if leak in seen}, seen

    leaks, seen = kept()
    # each in the Write's input, the Bash call's command and description, and its input twice
    assert leaks == set() and seen.count("[REDACTED:") == 5 * len(UTF16_SECRETS), seen
    conn = sqlite3.connect(db)
    commands = conn.execute("SELECT command FROM tool_calls WHERE name = 'Bash'").fetchall()
    conn.close()
    assert ("type GITHUB_TOKEN=[REDACTED:github-token]",) in commands  # its NULs dropped
    # what the rules of version 17 stored (the inputs as written), redacted in place
    build_index(db, projects, redact=False)
    assert kept()[0] == set(UTF16_SECRETS.values())
    conn = sqlite3.connect(db)
    with conn:
        for name, value in (("redaction_version", "17"), ("redact", "1")):
            conn.execute("INSERT OR REPLACE INTO _build_state VALUES (?, ?)", [name, value])
    conn.close()
    stats = build_index(db, projects)
    assert stats.files_read == 0 and stats.reredacted_rows >= len(UTF16_SECRETS)
    assert kept()[0] == set()


# -- REDACTION_VERSION 20 (session 33's security test, item 7): a system line's subtype --------


def system_line(uuid, session, subtype, timestamp):
    return {
        "type": "system",
        "subtype": subtype,
        "uuid": uuid,
        "sessionId": session,
        "timestamp": timestamp,
        "content": "hook summary",
    }


def test_a_system_lines_subtype_is_redacted(tmp_path):
    """A Claude Code `system` line's subtype is stored as its message's kind, as written: it
    is redacted as every stored text is, and an index whose rules kept it is redacted by its
    next build."""
    token = "ghp_" + "Zx9Lp4Wn8Rk3Bc6Yh1Vt7Qm2Kd5Fs0Ja3Tu"
    session = "6d0375b4-57a5-4f26-b12d-d022ee4e51b8"
    lines = [
        prompt("u1", session, "look it up", "2026-03-03T10:00:01Z"),
        system_line("u2", session, f"stop_hook_summary {token}", "2026-03-03T10:00:02Z"),
        system_line("u3", session, "turn_duration", "2026-03-03T10:00:03Z"),
    ]
    source = tmp_path / "projects"
    write_jsonl(source / "-home-dev-x" / f"{session}.jsonl", lines)
    db = tmp_path / "index.db"
    build_index(db, source)
    assert token[:12].encode() not in db.read_bytes()
    conn = sqlite3.connect(db)
    kinds = "SELECT uuid, kind FROM messages ORDER BY uuid"
    redacted = [
        ("u1", "prompt"),
        ("u2", "stop_hook_summary [REDACTED:github-token]"),
        ("u3", "turn_duration"),
    ]
    assert conn.execute(kinds).fetchall() == redacted
    with conn:  # as the rules of version 19 stored it
        conn.execute("UPDATE _build_state SET value = '19' WHERE name = 'redaction_version'")
        conn.execute("UPDATE messages SET kind = ? WHERE uuid = 'u2'", [f"x {token}"])
    conn.close()
    out = CliRunner().invoke(cli, ["build", str(db), "--source", str(source), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["reredacted_rows"] == 1
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT kind FROM messages WHERE uuid = 'u2'").fetchone() == (
        "x [REDACTED:github-token]",
    )
    conn.close()


# -- REDACTION_VERSION 26 (session 36): a secret a command prints alone, as its whole output ---

PSQL_ERROR = 'psql: error: FATAL:  password authentication failed for user "app"'
# Each command that prints a secret alone, and its output around the secret ({}).
PRINTED = {
    "VAULT": ("vault kv get -field=password secret/db", "{}"),
    "KUBE": ("kubectl get secret db -o jsonpath='{{.data.password}}' | base64 -d", "{}"),
    "TEMPLATE": ("kubectl get secret db -o go-template='{{{{.data.pw | base64decode}}}}'", "{}"),
    "AWS": ("aws configure get aws_secret_access_key --profile prod", "{}\n"),
    "OP": ("op read op://dev/db/password", "{}\n"),
    "SECURITY": ("security find-generic-password -a app -s db -w", "{}\n"),
    "PASS": ("pass show db/app", "{}\nlogin: app\nurl: db.internal\n"),
    "GOPASS": ("gopass show -o db/app", "{}"),
    "SECRETTOOL": ("secret-tool lookup service db user app", "{}"),
    "ECHO": ("echo $DB_PASSWORD", "{}\n"),
    "QUOTED": ('cd /srv/app && echo "$API_KEY"', "{}\n"),
    "PRINTENV": ("printenv SMTP_PASS 2>/dev/null", "{}\n"),
    "HEROKU": ("heroku auth:token", "{}\n"),
    "POWERSHELL": ("$env:OPENAI_API_KEY", "{}\r\n"),
    # REDACTION_VERSION 28: a variable given a store's value, an infrastructure tool's output,
    # a container's secret file
    "VARIABLE": ('V=$(op read op://dev/db/password) && echo "$V"', "{}\n"),
    "TERRAFORM": ("terraform output -raw db_password", "{}"),
    "MOUNTED": ("docker exec app cat /run/secrets/db_password", "{}"),
    # REDACTION_VERSION 29: a secret inside a sentence, a secrets file decrypted
    "SENTENCE": ('echo "token is $GITHUB_TOKEN"', "token is {}\n"),
    "PRINTF": ("printf 'pw=%s\\n' \"$DB_PASSWORD\"", "pw={}\n"),
    "SOPS": ("sops -d secrets.enc.yaml", "stripe: {}\nregion: eu\n"),
}
# What stays: a store's read that failed, variables and settings that are no secret, a
# secret's length.
PRINTED_KEPT = {
    "vault kv get -field=password secret/missing": "No value found at secret/missing",
    "echo $PATH": "/usr/local/bin:/usr/bin:/bin",
    "printenv HOME": "/home/devuser",
    "aws configure get region": "eu-north-1",
    "echo $DB_PASSWORD | wc -c": "19",
    "pass show db/none": "Error: db/none is not in the password store.",
}


def printed_secret(tag, session=SESSION):
    # (a value no other rule knows: letters and digits, no name before it)
    return f"Pr{tag.lower()[:4]}{session[-4:]}9xQ{len(tag)}"


def printed_session(session):
    """psql failing, the password read from each store, psql passing: a fix whose steps
    print each secret alone."""
    t = "2026-03-07T10:"
    lines = [prompt(f"{session}-p", session, "the db login fails", t + "00:00Z")]
    lines += [
        tool_use(
            f"{session}-f", session, f"{session}-tf", "Bash", {"command": "psql"}, t + "00:01Z"
        ),
        result(f"{session}-fr", session, f"{session}-tf", PSQL_ERROR, t + "00:02Z", True),
    ]
    steps = [(c, out.format(printed_secret(tag, session))) for tag, (c, out) in PRINTED.items()]
    for i, (command, output) in enumerate([*steps, *PRINTED_KEPT.items(), ("psql", "ok")]):
        lines += [
            tool_use(
                f"{session}-{i}a",
                session,
                f"{session}-t{i}",
                "Bash",
                {"command": command},
                f"{t}{i + 1:02d}:00Z",
            ),
            result(f"{session}-{i}b", session, f"{session}-t{i}", output, f"{t}{i + 1:02d}:30Z"),
        ]
    return lines


def codex_shell_rollout(path, ids, day, command, printed, argv, shell_printed):
    """Codex: an exec_command of `command` whose output, with its headers, is `printed`,
    and a shell call of `argv` whose JSON output is `shell_printed` (call ids `ids`)."""
    meta = {"id": CODEX_SESSION, "cwd": "/home/dev/shop", "cli_version": "0.171.0"}
    exec_output = (
        "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\n"
        "Original token count: 9\nOutput:\n" + printed
    )
    shell_output = {"output": shell_printed, "metadata": {"exit_code": 0, "duration_seconds": 0.1}}
    exec_id, shell_id = ids
    items = [
        {
            "type": "function_call",
            "name": "exec_command",
            "call_id": exec_id,
            "arguments": json.dumps({"cmd": command}),
        },
        {"type": "function_call_output", "call_id": exec_id, "output": exec_output},
        {
            "type": "function_call",
            "name": "shell",
            "call_id": shell_id,
            "arguments": json.dumps({"command": argv}),
        },
        {"type": "function_call_output", "call_id": shell_id, "output": json.dumps(shell_output)},
    ]
    write_jsonl(
        path,
        [{"timestamp": f"{day}T10:00:00.000Z", "type": "session_meta", "payload": meta}]
        + [
            {"timestamp": f"{day}T10:00:{i:02d}.000Z", "type": "response_item", "payload": p}
            for i, p in enumerate(items, 1)
        ],
    )


def printed_rollout(path):
    """Codex: a store's value printed by exec_command and a variable by a shell call."""
    codex_shell_rollout(
        path,
        ("p1", "p2"),
        "2026-03-07",
        "vault read -field=token secret/ci",
        printed_secret("CODEXEXEC", CODEX_SESSION),
        ["bash", "-lc", "printenv GITHUB_TOKEN"],
        printed_secret("CODEXSHELL", CODEX_SESSION) + "\n",
    )


PRINTED_SECRETS = [printed_secret(tag, s) for tag in PRINTED for s in (SESSION, LATER)] + [
    printed_secret("CODEXEXEC", CODEX_SESSION),
    printed_secret("CODEXSHELL", CODEX_SESSION),
]


def test_no_printed_secret_in_the_index_its_wal_or_any_output(tmp_path):
    db, wal = built_twice(tmp_path, "-home-dev-db", printed_session, printed_rollout, "2026-03-07")
    assert_none_of(PRINTED_SECRETS, "WAL", wal)
    assert_none_of(PRINTED_SECRETS, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", PSQL_ERROR, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(PRINTED_SECRETS, "find --json", out.stdout)
    event = {
        "session_id": "dddddddd-0000-4000-8000-000000000036",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "psql"},
        "error": PSQL_ERROR,
    }
    assert_none_of(PRINTED_SECRETS, "hook", hook.respond(json.dumps(event), db))
    conn = sqlite3.connect(db)
    outputs = dict(conn.execute("SELECT tool_use_id, content FROM tool_results"))
    conn.close()
    assert outputs[f"{SESSION}-t{list(PRINTED).index('PASS')}"] == (
        "[REDACTED:password]\nlogin: app\nurl: db.internal\n"
    )
    assert outputs["p1"] == "[REDACTED:secret]" and outputs["p2"] == "[REDACTED:token]\n"
    # the look-alikes are kept as printed
    for i, output in enumerate(PRINTED_KEPT.values(), len(PRINTED)):
        assert outputs[f"{SESSION}-t{i}"] == output


def test_a_printed_secret_whose_call_an_earlier_build_stored_is_redacted(tmp_path):
    """A build that reads on from between a call and its result (one run while the command
    ran) finds the call in the index; an index of older rules is redacted again in place."""
    session = "6d0375b4-57a5-4f26-b12d-d022ee4e5136"
    secret = printed_secret("VAULT", session)
    path = tmp_path / "projects" / "-home-dev-db" / f"{session}.jsonl"
    call = {"command": "vault kv get -field=password secret/db"}
    write_jsonl(path, [tool_use("u1", session, "t1", "Bash", call, "2026-03-07T10:00:00Z")])
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")
    line = result("u2", session, "t1", secret, "2026-03-07T10:00:01Z")
    write_jsonl(path, [line], mode="a")
    assert build_index(db, tmp_path / "projects").mode == "incremental"
    assert secret[:8].encode() not in db.read_bytes()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT content FROM tool_results").fetchone() == ("[REDACTED:secret]",)
    with conn:  # as the rules before stored it
        older = str(REDACTION_VERSION - 1)
        conn.execute("UPDATE _build_state SET value = ? WHERE name = 'redaction_version'", [older])
        conn.execute("UPDATE tool_results SET content = ?", [secret])
    conn.close()
    assert build_index(db, tmp_path / "projects").reredacted_rows == 1
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT content FROM tool_results").fetchone() == ("[REDACTED:secret]",)
    kinds = conn.execute("SELECT kind, count FROM redactions WHERE table_name = 'tool_results'")
    assert kinds.fetchall() == [("secret", 1), ("secret", 1)]
    conn.close()


# -- REDACTION_VERSION 27 (session 36): a credentials file shown whole, told by its call ------


# The password of each file, of no shape a rule knows and with no name a rule reads
# before it but the file's format (a .pgpass line's fifth field, a .netrc's `password` on a
# line after a tool's prefix, a .env's value of a name that says nothing).
def file_secret(tag, session=SESSION):
    return f"Fv{tag.lower()[:4]}{session[-4:]}7Kq{len(tag)}Zx4Lp"


def pgpass_text(tag, session):
    return f"db.internal:5432:shop:app:{file_secret(tag, session)}\n*:*:*:postgres:hunter2x\n"


def netrc_text(tag, session):
    return f"machine git.acme.io\n  login app\n  password {file_secret(tag, session)}\n"


def read_view(text):
    """Claude Code Read's view of a file: each line after its number and an arrow."""
    return "".join(f"{i:6}→{line}\n" for i, line in enumerate(text.splitlines(), 1))


# Each call that shows a credentials file: its tool, its input and its output.
VIEWS = {
    "CAT": ("Bash", {"command": "cat ~/.pgpass"}, pgpass_text),
    "HEAD": ("Bash", {"command": "head -n 5 /home/dev/.pgpass | sort"}, pgpass_text),
    "SEDN": ("Bash", {"command": "sed -n '1,3p' ~/.netrc"}, netrc_text),
    "CATN": ("Bash", {"command": "cat -n ~/.netrc"}, lambda t, s: read_view(netrc_text(t, s))),
    "ENV": (
        "Bash",
        {"command": "cd /srv/shop && cat .env"},
        lambda t, s: f"PORT=3000\nNODE_ENV=production\nCOOKIE_SIGNING={file_secret(t, s)}\n",
    ),
    "TYPE": (
        "PowerShell",
        {"command": "type %USERPROFILE%\\.pgpass"},
        lambda t, s: pgpass_text(t, s).replace("\n", "\r\n"),
    ),
    "GETCONTENT": ("PowerShell", {"command": "Get-Content ~/.netrc"}, netrc_text),
    "READPG": (
        "Read",
        {"file_path": "/home/dev/.pgpass"},
        lambda t, s: read_view(pgpass_text(t, s)),
    ),
    "READNETRC": (
        "Read",
        {"file_path": "/home/dev/.netrc"},
        lambda t, s: read_view(netrc_text(t, s)),
    ),
    # REDACTION_VERSION 28: a backup's name
    "BACKUP": ("Bash", {"command": "cat ~/.pgpass.bak"}, pgpass_text),
    "READBACKUP": (
        "Read",
        {"file_path": "/home/dev/.netrc~"},
        lambda t, s: read_view(netrc_text(t, s)),
    ),
}
# What stays: a file that is none of them, a count of lines, a file not there.
VIEWS_KEPT = {
    "cat ~/.pgpass | wc -l": "2",
    "cat ~/.pgpass.example": "localhost:5432:shop:app:Ex4mpleOnly9",
    "cat notes/pg.txt": "db.internal:5432:shop:app:NotAFile7Kq",
    "cat .env.example": "PORT=3000\nAPI_URL=http://localhost:3000\n",
}


def views_session(session):
    """psql failing, the credentials files looked at, psql passing."""
    t = "2026-03-08T10:"
    lines = [
        prompt(f"{session}-p", session, "the db login fails", t + "00:00Z"),
        tool_use(
            f"{session}-f", session, f"{session}-tf", "Bash", {"command": "psql"}, t + "00:01Z"
        ),
        result(f"{session}-fr", session, f"{session}-tf", PSQL_ERROR, t + "00:02Z", True),
    ]
    steps = [
        (tool, tool_input, text(tag, session)) for tag, (tool, tool_input, text) in VIEWS.items()
    ]
    steps += [("Bash", {"command": c}, out) for c, out in VIEWS_KEPT.items()]
    for i, (tool, tool_input, output) in enumerate([*steps, ("Bash", {"command": "psql"}, "ok")]):
        lines += [
            tool_use(
                f"{session}-{i}a",
                session,
                f"{session}-t{i}",
                tool,
                tool_input,
                f"{t}{i + 1:02d}:00Z",
            ),
            result(f"{session}-{i}b", session, f"{session}-t{i}", output, f"{t}{i + 1:02d}:30Z"),
        ]
    return lines


def views_rollout(path):
    """Codex: a .pgpass shown by exec_command and a .netrc by a shell call."""
    codex_shell_rollout(
        path,
        ("v1", "v2"),
        "2026-03-08",
        "tail -n 20 ~/.pgpass",
        pgpass_text("CODEXEXEC", CODEX_SESSION),
        ["bash", "-lc", "cat ~/.netrc"],
        netrc_text("CODEXSHELL", CODEX_SESSION),
    )


VIEWED_SECRETS = [file_secret(tag, s) for tag in VIEWS for s in (SESSION, LATER)] + [
    file_secret("CODEXEXEC", CODEX_SESSION),
    file_secret("CODEXSHELL", CODEX_SESSION),
]


def test_no_secret_of_a_credentials_file_shown_whole_in_the_index_its_wal_or_any_output(
    tmp_path,
):
    db, wal = built_twice(tmp_path, "-home-dev-shop", views_session, views_rollout, "2026-03-08")
    assert_none_of(VIEWED_SECRETS, "WAL", wal)
    assert_none_of(VIEWED_SECRETS, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", PSQL_ERROR, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(VIEWED_SECRETS, "find --json", out.stdout)
    event = {
        "session_id": "dddddddd-0000-4000-8000-000000000037",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "psql"},
        "error": PSQL_ERROR,
    }
    assert_none_of(VIEWED_SECRETS, "hook", hook.respond(json.dumps(event), db))
    conn = sqlite3.connect(db)
    outputs = dict(conn.execute("SELECT tool_use_id, content FROM tool_results"))
    conn.close()
    # each secret is replaced by its format's marker, the rest of the file kept
    assert outputs[f"{SESSION}-t{list(VIEWS).index('READNETRC')}"] == (
        "     1→machine git.acme.io\n     2→  login app\n     3→  password [REDACTED:password]\n"
    )
    assert outputs[f"{SESSION}-t{list(VIEWS).index('ENV')}"] == (
        "PORT=3000\nNODE_ENV=production\nCOOKIE_SIGNING=[REDACTED:secret]\n"
    )
    assert outputs["v1"].endswith(
        "db.internal:5432:shop:app:[REDACTED:password]\n*:*:*:postgres:[REDACTED:password]\n"
    )
    # the look-alikes are kept as shown
    for i, output in enumerate(VIEWS_KEPT.values(), len(VIEWS)):
        assert outputs[f"{SESSION}-t{i}"] == output


def test_a_credentials_file_read_by_an_index_of_older_rules_is_redacted_again(tmp_path):
    """A Read's result stored by the rules before is redacted in place, told by its path."""
    session = "6d0375b4-57a5-4f26-b12d-d022ee4e5137"
    secret = file_secret("READPG", session)
    path = tmp_path / "projects" / "-home-dev-db" / f"{session}.jsonl"
    view = read_view(pgpass_text("READPG", session))
    call = {"file_path": "/home/dev/.pgpass"}
    write_jsonl(
        path,
        [
            tool_use("u1", session, "t1", "Read", call, "2026-03-08T10:00:00Z"),
            result("u2", session, "t1", view, "2026-03-08T10:00:01Z"),
        ],
    )
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")
    conn = sqlite3.connect(db)
    redacted = view.replace(secret, "[REDACTED:password]").replace(
        "hunter2x", "[REDACTED:password]"
    )
    assert conn.execute("SELECT content FROM tool_results").fetchone() == (redacted,)
    with conn:  # as the rules before stored it
        older = str(REDACTION_VERSION - 1)
        conn.execute("UPDATE _build_state SET value = ? WHERE name = 'redaction_version'", [older])
        conn.execute("UPDATE tool_results SET content = ?", [view])
    conn.close()
    assert build_index(db, tmp_path / "projects").reredacted_rows == 1
    assert secret[:8].encode() not in db.read_bytes()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT content FROM tool_results").fetchone() == (redacted,)
    conn.close()


# REDACTION_VERSION 30: a third hunt's shapes that the rules kept.
def hunt_38_secret(tag, session=SESSION):
    # (letters and digits, no name before it that a rule reads as a secret's)
    return f"Hq{tag.lower()[:4]}{session[-4:]}3Zv{len(tag)}Kw8Ny"


# Each call: its tool, its input and its output, the secret in them as `{}`.
HUNT_38 = {
    # Vault's KV v2 secret as its API returns it, through an MCP server
    "KV2": (
        "mcp__vault__read_secret",
        {"path": "secret/data/app"},
        '{{"data": {{"data": {{"upstream": "{}"}}, "metadata": {{"version": 3}}}}}}',
    ),
    # Terraform's state read: a sensitive output's value, a random password's result
    "TFOUT": (
        "Read",
        {"file_path": "/srv/infra/terraform.tfstate"},
        read_view(
            '{{\n  "outputs": {{\n    "db_admin": {{\n      "value": "{}",\n'
            '      "type": "string",\n      "sensitive": true\n    }}\n  }}\n}}'
        ),
    ),
    "TFRANDOM": (
        "Bash",
        {"command": "terraform show -json | jq '.values.root_module.resources[0]'"},
        '{{"type": "random_password", "name": "db", "values": {{"length": 24, "result": "{}"}}}}',
    ),
    # GitHub Actions' mask, as a run's log shows its command
    "MASK": (
        "Bash",
        {"command": "gh run view 123 --log | grep mask"},
        'build\tSet up\t2026-03-09T10:00:00Z ##[command]echo "::add-mask::{}"\n',
    ),
    # a variable exported by a `set -x` trace, its name saying nothing
    "TRACE": ("Bash", {"command": "bash -x deploy.sh"}, "+ export DEPLOY_HOOK={}\n+ curl x\n"),
    # a request's headers logged as a map
    "COOKIE": (
        "Bash",
        {"command": "grep -m1 Cookie logs/app.log"},
        "DEBUG headers={{'Cookie': 'session={}; theme=dark'}}\n",
    ),
    # curl's proxy credentials
    "PROXY": (
        "Bash",
        {"command": "curl -x http://proxy.acme.io:3128 --proxy-user ci:{} https://example.org"},
        "<html>",
    ),
    # an rclone.conf read: a backend's `key`
    "RCLONE": (
        "Read",
        {"file_path": "/home/dev/.config/rclone/rclone.conf"},
        read_view("[b2]\ntype = b2\naccount = 0012ab\nkey = {}\n"),
    ),
}
# What stays: a mask of a variable, an exported commit, a theme's cookie, a non-sensitive
# output, an rclone remote's type and region.
HUNT_38_KEPT = {
    'echo "::add-mask::$DEPLOY_TOKEN"': "",
    "export GIT_SHA=8db03ece9f114d423f84f68a315471141c626d5c; make": "ok",
    "grep Cookie logs/ui.log": "DEBUG headers={'Cookie': 'theme=dark'}\n",
    "terraform output -json": '{"ip": {"value": "10.0.0.5", "type": "string", "sensitive": false}}',
    "cat ~/.config/rclone/rclone.conf": "[s3]\ntype = s3\nregion = eu-north-1\n",
}


def hunt_38_session(session):
    """psql failing, each shape's call, the look-alikes, psql passing."""
    t = "2026-03-09T10:"
    lines = [
        prompt(f"{session}-p", session, "the db login fails", t + "00:00Z"),
        tool_use(
            f"{session}-f", session, f"{session}-tf", "Bash", {"command": "psql"}, t + "00:01Z"
        ),
        result(f"{session}-fr", session, f"{session}-tf", PSQL_ERROR, t + "00:02Z", True),
    ]
    steps = []
    for tag, (tool, tool_input, output) in HUNT_38.items():
        secret = hunt_38_secret(tag, session)
        call = {k: v.format(secret) for k, v in tool_input.items()}
        steps.append((tool, call, output.format(secret)))
    steps += [("Bash", {"command": c}, out) for c, out in HUNT_38_KEPT.items()]
    for i, (tool, tool_input, output) in enumerate([*steps, ("Bash", {"command": "psql"}, "ok")]):
        lines += [
            tool_use(
                f"{session}-{i}a",
                session,
                f"{session}-t{i}",
                tool,
                tool_input,
                f"{t}{i + 1:02d}:00Z",
            ),
            result(f"{session}-{i}b", session, f"{session}-t{i}", output, f"{t}{i + 1:02d}:30Z"),
        ]
    return lines


def hunt_38_rollout(path):
    """Codex: an export traced by exec_command, a cookie logged by a shell call."""
    codex_shell_rollout(
        path,
        ("h1", "h2"),
        "2026-03-09",
        "bash -x ./release.sh",
        f"+ export RELEASE_HOOK={hunt_38_secret('CODEXEXEC', CODEX_SESSION)}\n",
        ["bash", "-lc", "grep -m1 Cookie app.log"],
        f'headers: {{"Cookie": "sid={hunt_38_secret("CODEXSHELL", CODEX_SESSION)}"}}\n',
    )


HUNT_38_SECRETS = [hunt_38_secret(tag, s) for tag in HUNT_38 for s in (SESSION, LATER)] + [
    hunt_38_secret("CODEXEXEC", CODEX_SESSION),
    hunt_38_secret("CODEXSHELL", CODEX_SESSION),
]


def test_no_secret_of_session_38s_hunt_in_the_index_its_wal_or_any_output(tmp_path):
    db, wal = built_twice(tmp_path, "-home-dev-ops", hunt_38_session, hunt_38_rollout, "2026-03-09")
    assert_none_of(HUNT_38_SECRETS, "WAL", wal)
    assert_none_of(HUNT_38_SECRETS, "index.db", db.read_bytes())
    out = CliRunner().invoke(cli, ["find", PSQL_ERROR, str(db), "--json"])
    assert out.exit_code == 0 and {r["session_id"] for r in json.loads(out.stdout)} >= {SESSION}
    assert_none_of(HUNT_38_SECRETS, "find --json", out.stdout)
    event = {
        "session_id": "dddddddd-0000-4000-8000-000000000038",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "psql"},
        "error": PSQL_ERROR,
    }
    assert_none_of(HUNT_38_SECRETS, "hook", hook.respond(json.dumps(event), db))
    conn = sqlite3.connect(db)
    outputs = dict(conn.execute("SELECT tool_use_id, content FROM tool_results"))
    conn.close()
    assert outputs[f"{SESSION}-t{list(HUNT_38).index('RCLONE')}"] == read_view(
        "[b2]\ntype = b2\naccount = 0012ab\nkey = [REDACTED:secret]\n"
    )
    assert outputs[f"{SESSION}-t{list(HUNT_38).index('COOKIE')}"] == (
        "DEBUG headers={'Cookie': 'session=[REDACTED:session-cookie]; theme=dark'}\n"
    )
    # the look-alikes are kept as shown
    for i, output in enumerate(HUNT_38_KEPT.values(), len(HUNT_38)):
        assert outputs[f"{SESSION}-t{i}"] == output
