"""The small corpora and test data that several test modules share.

write_corpus (three sessions in two projects, one with a subagent) is the find and page
tests' corpus, write_hook_corpus the hook's and the MCP server's (conftest's `index`
fixture builds it), write_status_corpus that of an exit status pasted alone (conftest's
`status_index`); HOSTILE are search texts that must never raise; SECRETS, PEM and
AWS_SECRET are made-up secrets of every kind that redaction must catch; CODEX_AGENT_MESSAGES
are the lines each Codex version writes for a message between agents.
"""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from jsonl import prompt, result, say, tool_use, write_jsonl

from pastfix import queries

APP = "/home/u/app"
LIB = "/home/u/lib"
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ENOENT = "Exit code 1\nError: ENOENT: no such file or directory, open '/home/u/app/dist/index.js'"
READ_OUTPUT = "     1→console.log('ENOENT is only a word here')\n     2→// 100 percent"
HOSTILE = [
    "",
    " ",
    '"',
    '""',
    'foo"',
    "AND",
    "OR",
    "NOT",
    "a AND",
    "ENOENT OR",
    "NEAR(",
    "NEAR(x",
    "NEAR(no file, 3)",
    "(",
    ")",
    "*",
    "ENOENT*",
    "-",
    "-x",
    "a-b",
    "col:x",
    "content:x",
    "ENOENT:",
    "^",
    "+",
    "/home/u/app/dist/index.js",
    "open '/home",
    "%",
    "_",
    "100%",
    "\\",
    "'; drop table sessions; --",
    "\x00",
    "a\x00b",
    "<script>alert(1)</script>",
    "é∑😀",
    "raw:",
    "raw: (",
    "raw: AND",
    "raw: col:x",
    "raw: text:x",
    "raw: NEAR(",
    'raw: "unterminated',
    "x " * 500,
]
FIND_COLUMNS = [
    "session_id",
    "project",
    "failed_at",
    "tool",
    "target",
    "error_snippet",
    "next_text",
    "next_ok_target",
    "files_edited_after",
    "resume",
    "tool_use_id",
    "next_ok_tool_use_id",
    "matched",
    "score",
    "signature",
    "kind",
    "occurrences",
    "left_unsolved",
    "fixed_at",
    "fix_tool_use_id",
    "fix_target",
    "fix_as_was",
    "outcome",
    "remedy",
    "fix_edits",
    "fix_calls",
    "next_calls",
    "session_title",
    "turn_prompt",
    "session_url",
    "error_snippet_html",
    "error",
    "agent",
    "error_length",
    "same_text",
    "text_distance",
    "other_folder",
    "other_shell",
    "shared_words",
    "other_file",
    "other_names",
    "transcript_deleted_at",
    "fix_error",
]


# -- the find and page tests' corpus, written line by line ---------------------


def ts(minute):
    """The timestamp of a line written `minute` minutes into the corpus."""
    return (START + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Session:
    """Lines of one transcript file, with increasing timestamps."""

    def __init__(self, session_id, cwd, start, *, agent_id=None):
        self.session_id = session_id
        self.cwd = cwd
        self.minute = start
        self.agent_id = agent_id
        self.lines = []
        self.n = 0

    def _line(self, kind, **fields):
        self.n += 1
        self.minute += 1
        line = {
            "type": kind,
            "uuid": f"{self.session_id}-{self.agent_id or 'main'}-{self.n}",
            "sessionId": self.session_id,
            "timestamp": ts(self.minute),
            "cwd": self.cwd,
            "version": "2.1.39",
            "isSidechain": self.agent_id is not None,
            **fields,
        }
        if self.agent_id:
            line["agentId"] = self.agent_id
        self.lines.append(line)
        return self

    def prompt(self, text):
        return self._line("user", message={"role": "user", "content": text})

    def say(self, text):
        content = [{"type": "text", "text": text}]
        return self._line("assistant", message={"role": "assistant", "content": content})

    def call(self, tool_use_id, name, **tool_input):
        block = {"type": "tool_use", "id": tool_use_id, "name": name, "input": tool_input}
        return self._line("assistant", message={"role": "assistant", "content": [block]})

    def result(self, tool_use_id, content, error=False):
        block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
        if error:
            block["is_error"] = True
        return self._line("user", message={"role": "user", "content": [block]})

    def compact(self, summary):
        self._line("system", subtype="compact_boundary", content="Conversation compacted")
        self._line("user", isCompactSummary=True, message={"role": "user", "content": summary})
        return self

    def write(self, path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines))


def write_corpus(root: Path) -> Path:
    """Three sessions in two projects, one with a subagent; returns the projects dir."""
    projects = root / "projects"
    s1 = (
        Session("s1", APP, 0)
        .prompt("fix the build")
        .say("Let me build it.")
        .call("t1", "Bash", command="npm run build", description="Build")
        .result("t1", ENOENT, error=True)
        .say("The dist folder is missing; I will create it in build.js.")
        .call("t2", "Edit", file_path=f"{APP}/build.js", old_string="a", new_string="b")
        .result("t2", "The file has been updated.")
        .call("t3", "Bash", command="mkdir -p dist && npm run build")
        .result("t3", "built in 100% of the time, see done_x")
        .call("t4", "Read", file_path=f"{APP}/src")
        .result("t4", "EISDIR: illegal operation on a directory, read", error=True)
        .say("That is a directory; reading the file inside it.")
        .call("t5", "Read", file_path=f"{APP}/src/index.js")
        .result("t5", READ_OUTPUT)
        .compact("This session is being continued from a previous conversation.")
        .call("t6", "Bash", command="cat notes.txt")
        .result("t6", "<script>alert(1)</script> <mark>not a match</mark>", error=True)
        .say("Done.")
    )
    s1.write(projects / "-home-u-app" / "s1.jsonl")
    s2 = (
        Session("s2", LIB, 2000)
        .prompt("build lib")
        .call("u1", "Bash", command="npm run build")
        .result("u1", ENOENT, error=True)
        .say("Creating the missing dist/index.js.")
        .call("u2", "Write", file_path=f"{LIB}/dist/index.js", content="x")
        .result("u2", "File created successfully")
        .call("u3", "Bash", command="npm run build")
        .result("u3", "ok")
    )
    s2.write(projects / "-home-u-lib" / "s2.jsonl")
    s3 = Session("s3", LIB, 3000).prompt("explore").call("v1", "Task", description="Look")
    s3.result("v1", "Explored.").say("The subagent is done.")
    s3.write(projects / "-home-u-lib" / "s3.jsonl")
    agent = (
        Session("s3", LIB, 3001, agent_id="a1")
        .prompt("Look around")
        .call("w1", "Read", file_path=f"{LIB}/missing.txt")
        .result("w1", "<tool_use_error>File does not exist.</tool_use_error>", error=True)
        .say("No such file; listing the directory instead.")
        .call("w2", "Read", file_path=f"{LIB}/README.md")
        .result("w2", "# lib")
    )
    agent.write(projects / "-home-u-lib" / "s3" / "subagents" / "agent-a1.jsonl")
    return projects


# -- failures that ended with several exit statuses -------------------------------------

# Each session's failure, by the exit status it ended with: the others hold that status's
# number elsewhere (`line 1`, `(1,5)`), as a look-alike of it would.
STATUS_FAILURES = {
    "status1": 'Exit code 1\nnpm ERR! Missing script: "lint"',
    "status127": "Exit code 127\n/bin/bash: line 1: python: command not found",
    "status2": "Exit code 2\nsrc/a.ts(1,5): error TS2304: Cannot find name 'x'.",
    "nostatus": "<tool_use_error>Error: exit code 1 of the last step was ignored</tool_use_error>",
}


def write_status_corpus(root: Path) -> Path:
    """One session per failure of STATUS_FAILURES, each fixed by the next call; returns the
    projects dir."""
    projects = root / "projects"
    for n, (session_id, error) in enumerate(STATUS_FAILURES.items()):
        s = Session(session_id, APP, 100 * n).prompt("run it")
        s.call(f"{session_id}-t1", "Bash", command="make").result(f"{session_id}-t1", error, True)
        s.call(f"{session_id}-t2", "Bash", command="make").result(f"{session_id}-t2", "ok")
        s.write(projects / "-home-u-app" / f"{session_id}.jsonl")
    return projects


def session_page(conn, session_id, **args):
    page = queries.session_page(conn, session_id, **args)
    assert page is not None
    return page


# -- the hook's corpus ----------------------------------------------------------

TS_ERROR = "{file}({line},5): error TS2339: Property 'total' does not exist on type 'Order'."
PAST = "aaaaaaaa-0000-4000-8000-000000000001"
OTHER = "bbbbbbbb-0000-4000-8000-000000000002"
NOVEL = "cccccccc-0000-4000-8000-000000000003"
NOW = "dddddddd-0000-4000-8000-000000000004"


def fixed_session(session: str, day: int, file: str, line: int) -> list[dict]:
    """A build that fails with TS2339 in `file`, an edit, and the same build succeeding."""
    t = f"2026-01-0{day}T10:00:"
    build = {"command": "npm run build"}
    edit = {"file_path": f"/home/dev/app/{file}", "old_string": "o.total", "new_string": "o.sum"}
    return [
        prompt(f"{session}-p", session, "fix the build", t + "00Z"),
        tool_use(f"{session}-1", session, f"{session}-t1", "Bash", build, t + "01Z"),
        result(
            f"{session}-2",
            session,
            f"{session}-t1",
            "Exit code 2\n> tsc\n" + TS_ERROR.format(file=file, line=line),
            t + "02Z",
            True,
        ),
        say(f"{session}-3", session, "Order has sum, not total: renaming.", t + "03Z"),
        tool_use(f"{session}-4", session, f"{session}-t2", "Edit", edit, t + "04Z"),
        result(f"{session}-5", session, f"{session}-t2", "The file was updated", t + "05Z", False),
        tool_use(f"{session}-6", session, f"{session}-t3", "Bash", build, t + "06Z"),
        result(f"{session}-7", session, f"{session}-t3", "built in 2s", t + "07Z", False),
    ]


# An error, and a log of another error that holds every word of it (a new user's try).
SHORT_ERROR = "<tool_use_error>File does not exist.</tool_use_error>"
WORDY_LOG = (
    "Exit code 1\nPre-commit validation failed: [DIALYZER] No :ignore_warnings opt"
    " specified in mix.exs and default does not exist. Checking file lib/a.ex"
)


def write_short_error_and_wordy_log(projects: Path, with_error: bool = True) -> None:
    """PAST's failure with SHORT_ERROR (unless not `with_error`), OTHER's with WORDY_LOG."""
    for session, day, text in ((PAST, 1, SHORT_ERROR), (OTHER, 2, WORDY_LOG)):
        if session == PAST and not with_error:
            continue
        lines = fixed_session(session, day, f"src/{session}.ts", 3)
        lines[2]["message"]["content"][0]["content"] = text
        write_jsonl(projects / "-home-dev-app" / f"{session}.jsonl", lines)


def novel_session(session: str) -> list[dict]:
    t = "2026-01-03T10:00:"
    return [
        prompt(f"{session}-p", session, "run the script", t + "00Z"),
        tool_use(f"{session}-1", session, f"{session}-t1", "Bash", {"command": "x"}, t + "01Z"),
        result(
            f"{session}-2",
            session,
            f"{session}-t1",
            "Exit code 1\nModuleNotFoundError: No module named 'zebra_stripes'",
            t + "02Z",
            True,
        ),
    ]


def write_hook_corpus(root: Path) -> Path:
    """Two sessions that fixed the same TS2339 build error (PAST, OTHER) and one whose error no
    other session met (NOVEL), in one project; returns the projects dir."""
    project = root / "projects" / "-home-dev-app"
    write_jsonl(project / f"{PAST}.jsonl", fixed_session(PAST, 1, "src/order.ts", 12))
    write_jsonl(project / f"{OTHER}.jsonl", fixed_session(OTHER, 2, "web/order.ts", 40))
    write_jsonl(project / f"{NOVEL}.jsonl", novel_session(NOVEL))
    return root / "projects"


def event(error, session=NOW, **extra):
    return {
        "session_id": session,
        "transcript_path": f"/home/dev/.claude/projects/-home-dev-app/{session}.jsonl",
        "cwd": "/home/dev/app",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "npm run build"},
        "tool_use_id": "toolu_now",
        "error": error,
        "is_interrupt": False,
        **extra,
    }


# -- made-up secrets of every kind, in the shape each provider issues them --------

# Made-up secrets of every kind, in the shape each provider issues them.
SECRETS = {
    "anthropic-key": "sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ-sT2uV5xW8yA1bE4cG7hJ0kM3",
    "openai-key": "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4",
    "github-token": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    "gitlab-token": "glpat-Xy7Zq2Wv9Ut4Rs1Pq8No",
    "slack-token": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "slack-webhook": "https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
    "stripe-key": "sk_live_51HqLyjWDarjtT1zdp7dcXaBcDeFgHiJk",
    "aws-access-key-id": "AKIAZ7Q3XW5N2R8T4LMP",
    "google-api-key": "AIzaSyD3kF8mN2pQ7rT9vX1zB4cE6gH0jL5nP8s",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzAwMDAwMDAwfQ"
    ".Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu",
    "npm-token": "npm_Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2u",
    "pypi-token": "pypi-AgEIcHlwaS5vcmcCJGQ4ZjM5YzJiLTdkMWUtNGY2YS04YjBjLTJkNGU2ZjhhMGIxYwACKl",
    "huggingface-token": "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",
    "sendgrid-key": "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",
    "digitalocean-token": "dop_v1_" + "8f3a9c2b7d1e4f6a" * 4,
    "google-oauth-token": "ya29.a0AfH6SMBx8Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7",
    "google-client-secret": "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",
    "grafana-token": "glsa_Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ_8f3a9c2b",
    "shopify-token": "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",
    "databricks-token": "dapi8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c",
    "linear-key": "lin_api_Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW",
    "vault-token": "hvs.CAESIZq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ",
    "doppler-token": "dp.st.dev.Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW8",
    "pulumi-token": "pul-" + "8f3a9c2b7d" * 4,
    "supabase-token": "sbp_" + "8f3a9c2b7d" * 4,
    "telegram-bot-token": "1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq",
    "discord-token": "MTE4NzY1NDMyMTA5ODc2NTQzMg.Gq8vNk.Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5",
    "heroku-token": "HRKU-AAZq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW8yA1bE4cG7hJ0kM3nP6qR9sT",
    "atlassian-token": "ATATT3xFfGF0Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW8yA1bE4cG7hJ0kM3"
    "nP6qR9sT2uV5xW8yA1bE4c=8F3A9C2B",
    "postman-key": "PMAK-65f3a9c2b7d1e4f6a8b0c2d4-8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c2d",
    "nuget-key": "oy2" + "kq8vn2kl5mr7tx1wy4bc6df9gh3jk0pqst2uv5xw8ya1p"[:43],
}
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAq7Bz3Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn\n"
    "8Op0Qr2St4Uv6Wx8Yz0Ab2Cd4Ef6Gh8Ij0Kl2Mn4Op6Qr8St0Uv2Wx4Yz6Ab8Cd==\n"
    "-----END RSA PRIVATE KEY-----"
)
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Qk3v9Zx8"


# -- Codex rollout lines --------------------------------------------------------

# Messages between agents, as each Codex version writes them. 0.171.0 (the first four
# lines, as it wrote them with multi_agent_v2 on, driven by a mock: the parent's rollout,
# then the subagent's): the delivery's metadata line, then the agent_message item, whose
# text starts with Codex's header; a task the model wrote encrypted has only the header as
# text (the mock's "encrypted" task is plain text, the model's would not be). Older, from
# the source: an inter_agent_communication line alone (RolloutItem::InterAgentCommunication),
# and older still the message's JSON in a message item (to_response_input_item).
CODEX_AGENT_MESSAGES = [
    '{"timestamp":"2026-12-01T21:55:01.245Z","ordinal":23,"type":"inter_agent_communicati'
    'on_metadata","payload":{"trigger_turn":false}}',
    '{"timestamp":"2026-12-01T21:55:01.245Z","ordinal":24,"type":"response_item","payload'
    '":{"type":"agent_message","id":"amsg_01a2339a-9ff6-7151-9770-3555ef22ba77","author":'
    '"/root/worker","recipient":"/root","content":[{"type":"input_text","text":"Message T'
    "ype: FINAL_ANSWER\\nTask name: /root\\nSender: /root/worker\\nPayload:\\nchild done: tes"
    'ts pass after pinning fastapi"}],"internal_chat_message_metadata_passthrough":{"turn'
    '_id":"01a2339a-9f27-7a13-9a26-c813f905d3da","create_time":1796162101.2449877,"conten'
    't_item_metadata":[{"provenance":{"type":"tool","namespace":"collaboration"}}]}},"met'
    'adata":{"history_sequence":10,"sampled_through_sequence":7,"client_authored":false,"'
    'user_input_order":3}}',
    '{"timestamp":"2026-12-01T21:55:01.188Z","ordinal":9,"type":"inter_agent_communicatio'
    'n_metadata","payload":{"trigger_turn":true}}',
    '{"timestamp":"2026-12-01T21:55:01.188Z","ordinal":10,"type":"response_item","payload'
    '":{"type":"agent_message","id":"amsg_01a2339a-9fc4-7c11-961d-973a6be79142","author":'
    '"/root","recipient":"/root/worker","content":[{"type":"input_text","text":"Message T'
    'ype: NEW_TASK\\nTask name: /root/worker\\nSender: /root\\nPayload:\\n"},{"type":"encrypt'
    'ed_content","encrypted_content":"CHILD-TASK-XYZ run the tests"}],"internal_chat_mess'
    'age_metadata_passthrough":{"turn_id":"01a2339a-9fb1-7230-ad79-966ec2d2d8b7","create_'
    'time":1796162101.1880252,"content_item_metadata":[{"provenance":{"type":"tool","name'
    'space":"collaboration"}},{"provenance":{"type":"tool","namespace":"collaboration"}}]'
    '}},"metadata":{"history_sequence":5,"sampled_through_sequence":0,"client_authored":f'
    'alse,"user_input_order":0}}',
    '{"timestamp":"2026-06-01T10:00:04.000Z","type":"inter_agent_communication","payload":'
    '{"author":"/root","recipient":"/root/worker","other_recipients":[],"content":'
    '"Run the test suite and fix what fails","trigger_turn":true}}',
    '{"timestamp":"2026-04-01T10:00:05.000Z","type":"response_item","payload":{"type":'
    '"message","role":"assistant","content":[{"type":"output_text","text":"{\\"author\\":'
    '\\"/root/worker\\",\\"recipient\\":\\"/root\\",\\"other_recipients\\":[],\\"content\\":'
    '\\"done: npm test passes\\",\\"trigger_turn\\":false}"}]}}',
    '{"timestamp":"2026-04-01T10:00:06.000Z","type":"response_item","payload":{"type":'
    '"message","role":"user","content":[{"type":"input_text","text":"{\\"author\\":\\"/root\\",'
    '\\"recipient\\":\\"/root/worker\\",\\"other_recipients\\":[],\\"content\\":\\"check the '
    'lockfile\\",\\"trigger_turn\\":true}"}]}}',
    # a user who pastes JSON is still typing a prompt
    '{"timestamp":"2026-04-01T10:00:07.000Z","type":"response_item","payload":{"type":'
    '"message","role":"user","content":[{"type":"input_text","text":"{\\"trigger_turn\\": 1}"}]}}',
]


# -- a failure worked around on the way to its own goal ----------------------------------

SUDO = (
    "Exit code 1\nsudo: a terminal is required to read the password; either use the -S option"
    " to read from standard input or configure an askpass helper\nsudo: a password is required"
)


def write_sudo_unsolved(projects: Path) -> None:
    """`sudo apt-get install -y gh` refused (SUDO), and nothing got past it (session gh):
    the same error of the same kind of goal as installing jq, beside write_sudo_workaround's
    way round to another goal."""
    (
        Session("gh", APP, 0)
        .prompt("install the github cli")
        .call("gh1", "Bash", command="sudo apt-get install -y gh")
        .result("gh1", SUDO, error=True)
        .say("sudo needs your password here: run `sudo apt-get install -y gh` yourself.")
        .write(projects / "-home-u-app" / "gh.jsonl")
    )


def write_sudo_workaround(projects: Path) -> None:
    """`sqlite3` not found, `sudo apt-get install -y sqlite3` refused (SUDO), both worked
    around by sql.js from npm (session sq): the same sudo error met installing jq is that
    error on the way to another goal (queries.another_goal)."""
    script = f"import initSqlJs from 'sql.js';\nconst dbPath = '{APP}/data/app.db';\n"
    (
        Session("sq", APP, 0)
        .prompt("make the database")
        .call("sq0", "Bash", command=f'sqlite3 "{APP}/data/app.db" ".tables"')
        .result("sq0", "Exit code 127\n/bin/bash: line 1: sqlite3: command not found", error=True)
        .call("sq1", "Bash", command="sudo apt-get update && sudo apt-get install -y sqlite3")
        .result("sq1", SUDO, error=True)
        .say("No sudo: let me use a Node.js script with sql.js to initialize the database.")
        .call("sq2", "Write", file_path=f"{APP}/data/init-db.mjs", content=script)
        .result("sq2", "File created successfully")
        .call("sq3", "Bash", command=f"cd {APP}/data && npm install sql.js 2>&1 | tail -3")
        .result("sq3", "added 1 package")
        .call("sq4", "Bash", command="node init-db.mjs")
        .result("sq4", "database created")
        .write(projects / "-home-u-app" / "sq.jsonl")
    )
