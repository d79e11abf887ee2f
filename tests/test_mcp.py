"""pastfix mcp: every tool answers with the rows of its canned query, structured and as text."""

import html
import json
import sys
import time
from importlib import metadata

import anyio
import pytest
from conftest import build_index
from corpus import (
    NOVEL,
    OTHER,
    PAST,
    SUDO,
    TS_ERROR,
    write_corpus,
    write_sudo_unsolved,
    write_sudo_workaround,
)
from mcp import Client, StdioServerParameters

from pastfix import cards, queries
from pastfix import mcp as server

TOOLS = {
    "find_past_fix": {"error": TS_ERROR.format(file="lib/order.ts", line=3)},
    "session_errors": {"session_id": PAST},
    "session_tool_output": {"session_id": PAST, "pattern": "built in"},
    "search_messages": {"q": "renaming"},
    "recurring_errors": {},
    "file_history": {"path": "web/order.ts"},
}


async def call_all(target):
    async with Client(target) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        answers = {name: await client.call_tool(name, args) for name, args in TOOLS.items()}
    return names, answers


def expected_rows(index, name, args):
    conn = queries.connect(index)
    try:
        if name == "find_past_fix":
            rows = queries.find_past_fix(conn, args["error"], server.FIND_LIMIT)
        else:
            rows = queries.run(conn, name, **args)
    finally:
        conn.close()
    return json.loads(json.dumps([server.lean_row(name, row) for row in rows]))


def check(index, names, answers):
    assert names == sorted(TOOLS)
    for name, args in TOOLS.items():
        answer = answers[name]
        assert not answer.is_error, answer
        rows = answer.structured_content["rows"]
        assert rows, name
        assert rows == expected_rows(index, name, args), name
        text = answer.content[0].text
        assert text.startswith(f"{name}: {len(rows)} row")
    past_fix = answers["find_past_fix"].structured_content["rows"]
    assert {r["session_id"] for r in past_fix} == {PAST, OTHER}
    assert "confirmed_by: npm run build" in answers["find_past_fix"].content[0].text
    assert "<mark>" not in answers["find_past_fix"].content[0].text
    assert answers["find_past_fix"].structured_content["seen_before"] is True
    assert "text_distance" not in answers["find_past_fix"].content[0].text
    # what the model reads (Claude Code and Codex pass it JSON.stringify'd): lean, no HTML
    # or page links, the remedy with its edit
    for name in TOOLS:
        seen = json.dumps(answers[name].structured_content)
        assert "<mark>" not in seen and "session_url" not in seen and "/-/session/" not in seen
    row = past_fix[0]
    assert set(row) <= set(server.agent_columns("find_past_fix"))
    assert {"error_snippet_html", "error", "fix_edits", "tool_use_id", "score"}.isdisjoint(row)
    assert row["outcome"] == "fixed" and row["resume"] == f"claude --resume {row['session_id']}"
    assert row["remedy"] == [
        {"tool": "Edit", "target": "web/order.ts", "old": "o.total", "new": "o.sum"}
    ]
    assert server.size(row) < server.ROW_CHARS


def test_find_past_fix_says_when_an_error_was_not_seen_before(index):
    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    unseen = anyio.run(ask, "Segmentation fault (core dumped) in libgtk-3.so.0")
    notice = (
        "Not seen before: no past failure has the signature or every word of"
        " 'Segmentation fault (core dumped) in libgtk-3.so.0'."
    )
    # the model reads the structured content (its clients give it nothing else)
    assert unseen.structured_content == {"rows": [], "seen_before": False, "notice": notice}
    assert unseen.content[0].text == f"{notice}\nfind_past_fix: no rows"
    near = anyio.run(ask, "TypeError: order.total is not a function in 'lib/order.ts'")
    rows = near.structured_content["rows"]
    assert near.structured_content["seen_before"] is False
    assert rows and len(rows) <= queries.NEAR_LIMIT
    assert {r["match"].split(":")[0] for r in rows} == {"partial"}
    assert near.content[0].text.startswith("Not seen before: ")
    assert f"partial match{'es' * (len(rows) > 1)}, sharing only " in near.content[0].text
    assert near.structured_content["notice"] == near.content[0].text.split("\n")[0]


def test_each_row_says_how_it_matched_in_the_words_of_its_card(index):
    """`matched: signature` (and `other_file: 0`) was all a row said of the very same
    error and of one of other values alike; each row says it as its card does
    (cards.how_matched), in place of both (a new user's try, session 34)."""

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    def match_of(error):
        return {row["session_id"]: row["match"] for row in ask_rows(error)}

    def ask_rows(error):
        rows = anyio.run(ask, error)["rows"]
        said_by_match = {"matched", "other_file", "other_names", "shared_words"}
        assert all(not said_by_match & set(row) for row in rows)
        return rows

    itself = TS_ERROR.format(file="src/order.ts", line=12)
    assert match_of(itself)[PAST] == "same error"
    other_value = "src/order.ts(12,5): error TS2339: Property 'sum' does not exist on type 'Order'."
    assert match_of(other_value) == {PAST: "same error signature", OTHER: "same error signature"}
    # every name another: not the error seen before (a new user's made-up errors, session 35)
    other_names = (
        "src/order.ts(12,5): error TS2339: Property 'email' does not exist on type 'User'."
    )
    assert match_of(other_names) == {
        PAST: "same error, other names",
        OTHER: "same error, other names",
    }
    answer = anyio.run(ask, other_names)
    assert answer["seen_before"] is False and "not yours" in answer["notice"]
    partial = ask_rows("TypeError: order.total is not a function in 'lib/order.ts'")
    assert partial and all(row["match"].startswith("partial: shares ") for row in partial)
    # each as the card says it
    conn = queries.connect(index)
    for error in (itself, other_value, other_names):
        for row in queries.find_past_fix(conn, error):
            said = cards.format_hit(1, row)
            how = cards.how_matched(row)
            assert (f"   {how}" in said) == (how != "same error"), said


def test_a_row_gives_the_fix_before_the_call_that_confirmed_it(index):
    """The call that confirmed a fix came before the remedy, as `fix_target`, and was often
    the failed command again (`npm run build`, of a TS2769 fixed by two files written): a
    model that took it for the fix would rerun what failed (a new user's try, session 34).
    A row reads the past error, how it matched, the outcome and remedy, then the call
    that confirmed them, named so."""

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    row = anyio.run(ask, TS_ERROR.format(file="src/order.ts", line=12))["rows"][0]
    assert list(row)[:5] == ["error_snippet", "match", "outcome", "remedy", "confirmed_by"]
    assert row["confirmed_by"] == row["target"] == "npm run build"
    assert row["remedy"][0]["tool"] == "Edit" and "fix_target" not in row
    # the output schema lists them in that order
    schema = server.output_model("find_past_fix").model_json_schema()
    assert list(schema["$defs"]["find_past_fix_row"]["properties"])[:5] == list(row)[:5]


def test_find_past_fix_finds_a_paste_by_another_error_line_that_was_seen(index):
    """A pasted log whose key line is new and whose later error was a past failure's key
    line: the model gets that line's failures, with a notice naming the line they are of
    (queries.by_other_line), as `pastfix find` gives them."""

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    log = (
        "ModuleNotFoundError: No module named 'zzz_unseen'\n"
        "src/order.ts(12,5): error TS2339: Property 'total' does not exist on type 'Order'.\n"
    )
    answer = anyio.run(ask, log)
    assert answer.structured_content["seen_before"] is True
    assert {row["session_id"] for row in answer.structured_content["rows"]} == {PAST, OTHER}
    assert answer.structured_content["notice"] == (
        "Its key line, \"ModuleNotFoundError: No module named 'zzz_unseen'\", was not seen"
        ' before; another error line of it was, "src/order.ts(12,5): error TS2339: Property'
        " 'total' does not exist on type…\": the failures below are that line's (it may"
        " follow from the key line's error, not cause it)."
    )


def test_find_past_fix_names_a_second_error_of_the_paste(index):
    """A paste of two errors, each seen before: the rows are its key line's, and the notice
    names the other line, as `pastfix find` says on stderr (nu46 finding 7)."""

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    ts = TS_ERROR.format(file="src/order.ts", line=12)
    answer = anyio.run(ask, f"ModuleNotFoundError: No module named 'zebra_stripes'\n{ts}")
    assert answer.structured_content["seen_before"] is True
    assert {row["session_id"] for row in answer.structured_content["rows"]} == {NOVEL}
    assert answer.structured_content["notice"] == (
        'The failures below are of its key line, "ModuleNotFoundError: No module named'
        " 'zebra_stripes'\"; another error line of it was seen before too, \"src/order.ts(12,5):"
        " error TS2339: Property 'total' does not exist on type…\": paste that line alone to"
        " find its failures."
    )
    # Claude Code's terminal's `Error: Exit code 2` above an error: no notice, its rows
    plain = anyio.run(ask, f"  ⎿  Error: Exit code 2\n     {ts}")
    assert "notice" not in plain.structured_content
    assert {row["session_id"] for row in plain.structured_content["rows"]} == {PAST, OTHER}


def test_find_past_fix_says_when_the_error_is_an_exit_status_alone(index):
    """`Exit code 1` alone finds failures that ended so, whatever their error: the model is
    told so beside them, as `pastfix find` tells a person on stderr, and neither
    `seen_before` nor a row's `match` says it is the error seen before (they said true and
    "same error": a new user's try, session 35)."""

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    bare = anyio.run(ask, "Exit code 2")
    assert bare.structured_content["seen_before"] is False and bare.structured_content["rows"]
    assert {r["match"] for r in bare.structured_content["rows"]} == {
        "ended the same way (the paste names no error)"
    }
    assert bare.structured_content["notice"] == queries.says_little_notice("Exit code 2")
    assert "names no error, only how a command ended" in bare.structured_content["notice"]
    assert bare.content[0].text.startswith(bare.structured_content["notice"] + "\n")
    # the text content, for text-only clients, as the rows say (it said `same error`: nu38
    # finding 10)
    assert "match: ended the same way (the paste names no error)" in bare.content[0].text
    assert "match: same error" not in bare.content[0].text
    whole = anyio.run(ask, "Exit code 2\n" + TS_ERROR.format(file="lib/order.ts", line=7))
    assert whole.structured_content["seen_before"] is True
    assert "notice" not in whole.structured_content
    assert whole.structured_content["rows"][0]["match"] == "same error"


def test_find_past_fix_of_an_exit_status_alone_gives_the_failures_that_ended_so(status_index):
    """As `pastfix find` and the find page: `Process exited with code 2` (Codex's words) gives
    the failure stored as `Exit code 2`, not those of another status that hold a `2`."""

    async def ask(error):
        async with Client(server.create_server(status_index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    bare = anyio.run(ask, "Process exited with code 2")
    assert [r["session_id"] for r in bare.structured_content["rows"]] == ["status2"]
    assert bare.structured_content["notice"] == queries.says_little_notice(
        "Process exited with code 2"
    )


def test_find_past_fix_of_an_error_in_another_language_says_what_it_was_read_as(status_index):
    """As `pastfix find`: a paste in another language that found English errors says which
    English message it was read as, in the notice the model is given (session 39)."""

    async def ask(error):
        async with Client(server.create_server(status_index)) as client:
            return await client.call_tool("find_past_fix", {"error": error})

    german = anyio.run(ask, "bash: python: Kommando nicht gefunden.")
    assert [r["session_id"] for r in german.structured_content["rows"]] == ["status127"]
    said = "Read as its English message: 'bash: python: command not found'."
    assert german.structured_content["notice"] == said
    assert german.content[0].text.startswith(said + "\n")
    english = anyio.run(ask, "bash: python: command not found")
    assert "notice" not in english.structured_content


def test_tools_in_process(index):
    names, answers = anyio.run(call_all, server.create_server(index))
    check(index, names, answers)


@pytest.mark.slow
def test_tools_over_stdio(index):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pastfix", "mcp", "--db", str(index)]
    )

    async def bounded():
        with anyio.fail_after(60):
            return await call_all(params)

    names, answers = anyio.run(bounded)
    check(index, names, answers)


def test_compact_text_leaves_out_empty_values_and_cuts_long_ones():
    text = server.compact_text("x", [{"a": "", "b": None, "c": "y" * 1000, "d": [1]}])
    assert text == "x: 1 row\n1.\n  c: " + "y" * 299 + "…\n  d: [1]"
    assert server.compact_text("x", []) == "x: no rows"


def test_mcp_command_of_a_missing_index(tmp_path, monkeypatch):
    """Typed by hand, a one-line error; started by an agent, it serves, says why on stderr
    (the client's log), and each tool call says what to run until the index is built."""
    from click.testing import CliRunner

    from pastfix import build as pbuild
    from pastfix import cli

    db = tmp_path / "none.db"
    monkeypatch.setattr(cli, "at_terminal", lambda: True)
    out = CliRunner().invoke(cli.cli, ["mcp", "--db", str(db)])
    assert out.exit_code == 1
    assert "none.db not found" in out.output
    served = []
    monkeypatch.setattr(server, "serve", served.append)
    monkeypatch.setattr(cli, "at_terminal", lambda: False)
    out = CliRunner().invoke(cli.cli, ["mcp", "--db", str(db)])
    assert (out.exit_code, served) == (0, [db])
    assert out.stderr.startswith("pastfix mcp: ") and "none.db not found" in out.stderr

    def build() -> None:
        write_corpus(tmp_path / "projects")
        pbuild.build(db, [tmp_path / "projects"])

    async def calls():
        async with Client(server.create_server(db)) as client:
            before = await client.call_tool("recurring_errors", {})
            build()
            return before, await client.call_tool("recurring_errors", {})

    before, after = anyio.run(calls)
    assert before.is_error and "none.db not found: build it with `pastfix build" in (
        before.content[0].text
    )
    assert not after.is_error and after.structured_content["rows"]


def test_started_at_a_terminal_it_says_what_it_waits_for(index, monkeypatch):
    """`pastfix mcp` typed by hand waited for a client without a word."""
    from click.testing import CliRunner

    from pastfix import cli

    served = []
    monkeypatch.setattr(server, "serve", served.append)
    monkeypatch.setattr(cli, "at_terminal", lambda: True)
    out = CliRunner().invoke(cli.cli, ["mcp", "--db", str(index)])
    assert (out.exit_code, served) == (0, [index])
    assert out.stderr == (
        f"pastfix mcp: serving {index} to an MCP client on standard input and output; an"
        " agent starts it (pastfix mcp install). Ctrl-D ends it.\n"
    )
    monkeypatch.setattr(cli, "at_terminal", lambda: False)
    assert CliRunner().invoke(cli.cli, ["mcp", "--db", str(index)]).stderr == ""


def call_one(db, name, args, between=None):
    """One tool call to a server on `db`, after `between()` when given (mid-session)."""

    async def go():
        async with Client(server.create_server(db)) as client:
            assert not (await client.call_tool("recurring_errors", {})).is_error
            if between:
                between()
            return await client.call_tool(name, args)

    return anyio.run(go)


def test_errors_keep_their_reason(index, tmp_path, monkeypatch):
    """They used to reach the client as "Error executing tool X" alone."""
    db = tmp_path / "index.db"
    db.write_bytes(index.read_bytes())
    answer = call_one(db, "search_messages", {"q": "renaming"}, db.unlink)
    assert answer.is_error
    assert answer.content[0].text == (
        f"Error executing tool search_messages: {db} not found: build it with `pastfix build {db}`"
    )
    db.write_bytes(index.read_bytes())
    # a pattern longer than SQLite's LIKE takes is still searched
    answer = call_one(db, "session_tool_output", {"session_id": PAST, "pattern": "x" * 60_000})
    assert not answer.is_error
    monkeypatch.setattr(queries, "TIME_LIMIT", 1e-6)
    answer = call_one(db, "find_past_fix", {"error": TS_ERROR.format(file="a.ts", line=1)})
    assert answer.content[0].text == (
        "Error executing tool find_past_fix: query took longer than 1e-06 s; narrow it"
    )


def test_an_empty_error_or_a_damaged_index_is_said_as_pastfix_find(index, tmp_path):
    """An empty error was "Not seen before: ... every word of ''.", as if looked up."""
    answer = call_one(index, "find_past_fix", {"error": " \n"})
    assert answer.is_error
    assert answer.content[0].text == (
        "Error executing tool find_past_fix: error is empty: give the failed call's error text"
    )
    db = tmp_path / "index.db"
    db.write_bytes(index.read_bytes())

    def damage():
        with open(db, "r+b") as f:
            for offset in range(4096, db.stat().st_size, 4096):
                f.seek(offset)
                f.write(b"\xff" * 2000)

    answer = call_one(db, "session_errors", {"session_id": PAST}, damage)
    assert answer.is_error
    damaged = queries.damaged_index(db, "database disk image is malformed")
    assert answer.content[0].text == f"Error executing tool session_errors: {damaged}"


@pytest.mark.parametrize(
    "name, args",
    [("session_errors", {}), ("session_tool_output", {"pattern": "built in"})],
)
def test_an_unknown_session_is_said_not_no_rows(index, name, args):
    """A session id the index does not hold was answered "session_errors: no rows", as a
    session without failures is."""
    answer = call_one(index, name, {"session_id": "no-such-session", **args})
    assert answer.is_error
    assert answer.content[0].text == (
        f"Error executing tool {name}: no session 'no-such-session' in {index}: give a"
        " session_id that find_past_fix, search_messages or file_history returned"
    )
    # an empty one is no session either (session 16's red team: "no rows")
    answer = call_one(index, name, {"session_id": " ", **args})
    assert answer.is_error
    assert answer.content[0].text == (
        f"Error executing tool {name}: session_id is empty: give a session_id that"
        " find_past_fix, search_messages or file_history returned"
    )
    # a session that is there, with nothing that matches: no rows, as before
    answer = call_one(index, "session_tool_output", {"session_id": PAST, "pattern": "zzqx"})
    assert not answer.is_error and answer.content[0].text == "session_tool_output: no rows"


def test_a_session_named_by_the_8_characters_the_hook_shows_is_that_session(index):
    """The hook names the sessions it counts by their first 8 characters (`seen before, 3
    times in 3 other sessions (4d5611e5, fa812bfe, 8463c716)`): a model that asked
    session_errors about one was told there is no such session."""
    whole = call_one(index, "session_errors", {"session_id": PAST})
    short = call_one(index, "session_errors", {"session_id": PAST[:8]})
    assert not short.is_error and short.content[0].text == whole.content[0].text
    assert PAST in short.content[0].text
    answer = call_one(index, "session_tool_output", {"session_id": OTHER[:8], "pattern": "built"})
    assert not answer.is_error and OTHER in answer.content[0].text
    # fewer characters are a guess, not a name
    assert call_one(index, "session_errors", {"session_id": PAST[:4]}).is_error


def test_an_index_no_build_has_finished_is_said_so(tmp_path):
    """During the first build the index is empty to a reader: find_past_fix answered no
    rows, seen_before false, which the model reads as an error never met."""
    from pastfix import db as pdb

    path = tmp_path / "index.db"
    pdb.connect(path).close()
    answer = call_one(path, "find_past_fix", {"error": "EISDIR: illegal operation"})
    assert answer.is_error
    assert f"{path} holds nothing yet: no build of it has finished" in answer.content[0].text


def test_arguments_that_do_not_fit_a_tool_are_said_in_one_line(index):
    """The SDK answered a wrong argument name with pydantic's text: five lines, the input
    echoed, and a link to pydantic's documentation."""
    missing = call_one(index, "find_past_fix", {"errr": "EISDIR"})
    assert missing.is_error
    assert missing.content[0].text == (
        "find_past_fix: 'error' is missing (it takes error, limit, command)"
    )
    wrong = call_one(index, "find_past_fix", {"error": "EISDIR", "limit": "many"})
    assert wrong.is_error and "\n" not in wrong.content[0].text
    assert wrong.content[0].text.startswith("find_past_fix: 'limit': input should be a valid")
    assert "pydantic" not in wrong.content[0].text
    # a limit out of range is refused as `-n` is, and the schema gives the range
    none = call_one(index, "find_past_fix", {"error": "EISDIR", "limit": 0})
    assert none.is_error and none.content[0].text.startswith(
        "find_past_fix: 'limit': input should be greater than or equal to 1"
    )
    many = call_one(index, "recurring_errors", {"limit": queries.RECURRING_LIMIT + 1})
    assert many.is_error and many.content[0].text.startswith(
        f"recurring_errors: 'limit': input should be less than or equal to"
        f" {queries.RECURRING_LIMIT}"
    )
    both = call_one(index, "session_tool_output", {})
    assert both.content[0].text == (
        "session_tool_output: 'session_id' is missing; 'pattern' is missing"
        " (it takes session_id, pattern, limit)"
    )


def test_recurring_errors_says_what_noise_takes(index):
    """`noise` was any string (only 'hide' does anything), so its schema said nothing of
    it, and the flag a model sends for "hide the noise", true, got 'input should be a valid
    string'."""

    async def schema():
        async with Client(server.create_server(index)) as client:
            tools = (await client.list_tools()).tools
        return next(t for t in tools if t.name == "recurring_errors").input_schema

    noise = anyio.run(schema)["properties"]["noise"]
    assert (noise["enum"], noise["default"]) == (["", "hide"], "")
    flag = call_one(index, "recurring_errors", {"noise": True})
    assert flag.is_error
    assert flag.content[0].text == (
        "recurring_errors: 'noise': input should be '' or 'hide' (it takes project, noise, limit)"
    )
    hidden = call_one(index, "recurring_errors", {"noise": "hide"})
    assert not hidden.is_error
    assert {row["kind"] for row in hidden.structured_content["rows"]} == {"error"}


def test_recurring_errors_gives_the_most_frequent_few_unless_asked(index):
    """Every signature of an index was 84 rows, 27,000 characters, in one call (a new
    user's try, session 26): 20 unless `limit` asks, with a notice of how many there were."""
    every = call_one(index, "recurring_errors", {"limit": 200}).structured_content
    assert "notice" not in every and len(every["rows"]) >= 2
    few = call_one(index, "recurring_errors", {"limit": 1})
    assert few.structured_content["rows"] == every["rows"][:1]
    said = f"The first 1 of {len(every['rows'])} rows; give a larger limit for more."
    assert few.structured_content["notice"] == said
    assert few.content[0].text.startswith(said + "\n")
    default = call_one(index, "recurring_errors", {}).structured_content
    assert len(default["rows"]) == min(len(every["rows"]), server.RECURRING_SHOWN)


def test_input_that_is_no_json_rpc_is_said_on_stderr(index):
    """`echo garbage | pastfix mcp` ended with exit 0 and no word: the SDK drops each line
    it cannot parse. A line that is not JSON-RPC is now said on stderr, and input that held
    none that is, exit 1; a client's session with one such line still ends with 0."""
    import subprocess

    def serve(stdin):
        command = [sys.executable, "-m", "pastfix", "mcp", "--db", str(index)]
        return subprocess.run(command, input=stdin, capture_output=True, timeout=60)

    done = serve(b"garbage\n\n[1, 2]")
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode().splitlines() == [
        "pastfix mcp: line 1 of standard input is not JSON (Expecting value: line 1 column 1"
        " (char 0)), ignored: garbage",
        "pastfix mcp: line 3 of standard input is not a JSON-RPC 2.0 message, ignored: [1, 2]",
        "Error: no JSON-RPC message on standard input, only 2 lines that are not one (said"
        " above): pastfix mcp is a server for an MCP client, which an agent starts (pastfix"
        " mcp install)",
    ]
    ping = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    done = serve(b"hello\n" + json.dumps(ping).encode() + b"\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"jsonrpc": "2.0", "id": 7, "result": {}}
    assert done.stderr.decode() == (
        "pastfix mcp: line 1 of standard input is not JSON (Expecting value: line 1 column 1"
        " (char 0)), ignored: hello\n"
    )
    assert serve(b"").returncode == 0  # a client that closes at once said nothing wrong


def test_a_request_whose_id_is_no_string_or_integer_is_said_on_stderr(index):
    """The SDK reads it as a notification and answers nothing, without a word: a client
    waiting for the answer hung."""
    import subprocess

    lines = [
        {"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"},
        {"jsonrpc": "2.0", "id": [1], "method": "ping"},
        {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}},
        {"jsonrpc": "2.0", "id": 7, "method": "ping"},
    ]
    command = [sys.executable, "-m", "pastfix", "mcp", "--db", str(index)]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    # (input is closed once the ping is answered: the SDK may end before answering
    # what was read with the end of input)
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    server.stdin.write(stdin)
    server.stdin.flush()
    assert json.loads(server.stdout.readline()) == {"jsonrpc": "2.0", "id": 7, "result": {}}
    server.stdin.close()
    assert server.wait(timeout=60) == 0
    said = "of standard input is a request whose id is {}, not a string or an integer: no"
    assert server.stderr.read().decode().splitlines() == [
        f"pastfix mcp: line {n} {said.format(what)} answer can name it, ignored: {text}"
        for n, what, text in [
            (1, "an object", json.dumps(lines[0])),
            (2, "an array", json.dumps(lines[1])),
            (3, "a fraction", json.dumps(lines[2])),
        ]
    ]


def test_a_client_that_closes_the_answers_mid_call_ends_the_server_quietly(index):
    """A client killed mid-call (its end of the server's stdout closed) was a 40-line
    BrokenPipeError traceback, exit 1, in the agent's MCP log."""
    import subprocess

    command = [sys.executable, "-m", "pastfix", "mcp", "--db", str(index)]
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    call = {"name": "find_past_fix", "arguments": {"error": "ENOENT"}}
    line = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
    server.stdin.write(json.dumps(line).encode() + b"\n")
    server.stdin.flush()
    server.stdout.close()
    time.sleep(1.5)  # (the answer is written, and fails, while input is still open)
    server.stdin.close()
    assert server.wait(timeout=60) == 0
    assert server.stderr.read() == b""


def test_the_columns_agents_get_are_the_canned_querys_own(index):
    """Each MCP tool's `columns` (queries.CANNED_QUERIES) names its SQL's columns, in order."""
    conn = queries.connect(index)
    for name in TOOLS:
        query = queries.CANNED_QUERIES[name]
        cursor = conn.execute(query["sql"], {p: "" for p in query["params"]})
        assert list(query["columns"]) == [d[0] for d in cursor.description], name


def test_tools_publish_an_output_schema_the_version_and_true_defaults(index):
    async def listing():
        async with Client(server.create_server(index)) as client:
            return client.server_info, (await client.list_tools()).tools

    init, tools = anyio.run(listing)
    assert init.version == metadata.version("pastfix") != ""
    for tool in tools:
        rows = tool.output_schema["properties"]["rows"]
        assert rows["type"] == "array", tool.name
        row_schema = rows["items"]["$ref"].removeprefix("#/$defs/")
        columns = tool.output_schema["$defs"][row_schema]["properties"]
        assert list(columns) == list(server.agent_columns(tool.name)), tool.name
    find = next(t for t in tools if t.name == "find_past_fix")
    assert find.input_schema["properties"]["limit"]["default"] == server.FIND_LIMIT == 5
    assert find.input_schema["properties"]["limit"]["minimum"] == 1
    assert find.input_schema["properties"]["limit"]["maximum"] == queries.FIND_MAX
    assert f"How many rows (limit): {server.FIND_LIMIT} when not given, at most 200." in (
        find.description
    )
    assert "seen_before" in find.output_schema["required"]


def test_a_long_remedy_keeps_its_first_steps_within_the_row_budget():
    step = {"tool": "Bash", "target": "x" * 300, "change": None, "tool_use_id": "t"}
    row = {
        "session_id": "s",
        "project": "/p",
        "fixed_at": "2026-01-01",
        "fix_tool_use_id": "t9",
        "files_edited_after": ["/p/a.py"],
        "remedy": [
            {**step, "tool_use_id": f"t{i}", "target": f"step{i} " + "x" * 300} for i in range(8)
        ],
        "fix_edits": [],
        **{c: "y" * 2000 for c in ("error_snippet", "target", "fix_target", "signature")},
        "matched": "signature",
        **{c: "y" * 2000 for c in ("next_text", "session_title")},
    }
    lean = server.lean_row("find_past_fix", row)
    assert server.size(lean) <= server.ROW_CHARS
    steps = [s["target"][:5] for s in lean["remedy"]]
    assert steps == ["step0", "step1", "step2"][: len(steps)] and 1 <= len(steps) < 3
    assert len(lean["error_snippet"]) == 160
    assert "files_edited_after" not in lean  # a claimed fix: they are the remedy's


def test_no_fix_gives_the_steps_done_next_as_the_card_says_them():
    row = {
        "session_id": "s",
        "project": "/p",
        "fixed_at": None,
        "outcome": "not fixed",
        "matched": "signature",
        "files_edited_after": ["/p/notes.md", "/p/b.py"],
        "remedy": [],
        "fix_edits": [],
        "next_calls": [
            {"tool": "Bash", "target": "python3 v2.py", "file_path": None, "tool_use_id": "a"},
            {
                "tool": "Write",
                "target": "/p/notes.md",
                "file_path": "/p/notes.md",
                "tool_use_id": "b",
            },
        ],  # fmt: skip
    }
    lean = server.lean_row("find_past_fix", row)
    assert lean["next_calls"] == ["Bash python3 v2.py", "edit notes.md"]
    assert lean["files_edited_after"] == ["notes.md", "b.py"]
    assert (
        "next_calls"
        in server.output_model("find_past_fix").model_json_schema()["$defs"]["find_past_fix_row"][
            "properties"
        ]
    )


def test_what_came_next_after_a_stopped_call_is_no_remedy():
    """A row found by a pasted rejection (matched `stopped`): what its session did next is no
    fix of the paste's, so the agent gets it as `next_calls`, in the card's words, not as a
    remedy with the call that confirmed it (a new user's try, nu40 finding 9)."""
    row = {
        "session_id": "s",
        "project": "/p",
        "tool": "Bash",
        "target": "git cherry-pick 9cad3c94",
        "fixed_at": "2026-01-01",
        "outcome": "fixed",
        "fix_tool_use_id": "t2",
        "fix_target": "git cherry-pick --continue",
        "matched": "stopped",
        "files_edited_after": [],
        "remedy": [
            {"tool": "Edit", "target": "/p/a.py", "change": None, "tool_use_id": "t1"},
            {
                "tool": "Bash",
                "target": "git cherry-pick --continue",
                "change": "-9cad3c94 +--continue",
                "tool_use_id": "t2",
            },
        ],
        "fix_edits": [
            {"tool_use_id": "t1", "tool": "Edit", "file_path": "/p/a.py", "old": "a", "new": "b"}
        ],
        "next_calls": [],
    }
    lean = server.lean_row("find_past_fix", row)
    assert "remedy" not in lean and "confirmed_by" not in lean
    assert lean["next_calls"] == [
        "edit a.py",
        "Bash git cherry-pick --continue (changed: -9cad3c94 +--continue), which succeeded",
    ]
    assert lean["match"] == "was stopped so too (the paste names no error)"
    # the same row found by its error: its remedy and confirmation
    lean = server.lean_row("find_past_fix", {**row, "matched": "signature"})
    assert [step["target"] for step in lean["remedy"]] == ["a.py", "git cherry-pick --continue"]


def test_half_an_emoji_in_a_call_over_stdio_is_answered(index):
    """ "\\ud83d", a lone surrogate escape (a string Node cut mid-emoji), is valid JSON the
    SDK's parser refuses: it dropped the whole request, and the agent waited for its
    timeout. The server answers it as it would U+FFFD, then the next call as ever."""
    import selectors
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "pastfix", "mcp", "--db", str(index)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def ask(message):
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        if "id" not in message:
            return None
        # a selector, not select.select: a test process that opened many files before this
        # one has descriptors over FD_SETSIZE, which select() refuses
        with selectors.DefaultSelector() as waiting:
            waiting.register(proc.stdout, selectors.EVENT_READ)
            assert waiting.select(60), f"no answer to {message['method']}"
        return json.loads(proc.stdout.readline())

    try:
        ask(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        )
        ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for i, error in enumerate([TS_ERROR.format(file="a.ts", line=1) + " \ud83d", "x"], 1):
            call = {"name": "find_past_fix", "arguments": {"error": error}}
            answer = ask({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call})
            assert answer["id"] == i and not answer["result"]["isError"], answer
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_long_answers_are_cut_to_a_limit_with_a_notice(index):
    """A session's every output was 243 rows, 128,000 characters, for an empty pattern, and
    a common word's messages 100 rows, and find_past_fix's default 5 left rows out without a
    word (a new user's tries, session 27): each says how many there were, an empty pattern
    or query is refused, and a raw: query FTS5 cannot parse is said."""
    every = call_one(index, "find_past_fix", {"error": "error", "limit": 200}).structured_content
    assert len(every["rows"]) >= 2
    one = call_one(index, "find_past_fix", {"error": "error", "limit": 1}).structured_content
    assert one["rows"] == every["rows"][:1]
    assert one["notice"].endswith("The first 1 of 2 or more rows; give a larger limit for more.")
    assert "notice" not in every or "The first" not in every["notice"]
    session = every["rows"][0]["session_id"]
    full = call_one(index, "session_tool_output", {"session_id": session, "pattern": "e"})
    rows = full.structured_content["rows"]
    few = call_one(
        index, "session_tool_output", {"session_id": session, "pattern": "e", "limit": 1}
    ).structured_content
    assert len(rows) > 1
    assert few["rows"] == rows[:1]
    assert few["notice"] == f"The first 1 of {len(rows)} rows; give a larger limit for more."
    empty = call_one(index, "session_tool_output", {"session_id": session, "pattern": " "})
    assert empty.is_error and "pattern is empty: give text" in empty.content[0].text
    assert "q is empty: give words" in call_one(index, "search_messages", {"q": ""}).content[0].text
    raw = call_one(index, "search_messages", {"q": "raw: ENOENT AND ("}).structured_content
    assert raw["notice"].startswith("raw: FTS5 cannot parse the expression")
    # a word no message holds: the messages holding the others, said so (nu41)
    some = call_one(index, "search_messages", {"q": "renaming zzyzx"}).structured_content
    assert some["notice"] == "No message holds every word; these hold some of them."
    assert some["rows"] and {row["matched"] for row in some["rows"]} == {"some words"}
    # the sessions of a project (`pastfix search --project`, the same query's), and how to
    # resume each row's
    everywhere = call_one(index, "search_messages", {"q": "renaming"}).structured_content["rows"]
    project = everywhere[0]["project"]
    assert everywhere[0]["resume"].endswith(everywhere[0]["session_id"])
    mine = call_one(index, "search_messages", {"q": "renaming", "project": project[-4:]})
    assert mine.structured_content["rows"] == everywhere
    other = call_one(index, "search_messages", {"q": "renaming", "project": "zzyzx"})
    assert other.structured_content["rows"] == []

    async def listing():
        async with Client(server.create_server(index)) as client:
            return (await client.list_tools()).tools

    tool = {t.name: t for t in anyio.run(listing)}["search_messages"]
    assert tool.input_schema["properties"]["limit"]["maximum"] == queries.SEARCH_ROWS


def test_a_line_nested_too_deeply_is_said_and_ignored(capfd):
    """json.loads raised RecursionError in the thread that reads standard input: the thread
    ended, the SDK saw the end of input and the server stopped answering."""
    seen = server._Input()
    seen.check(b"[" * 5000 + b"]" * 5000)
    seen.check(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}')
    assert (seen.lines, seen.other, seen.messages) == (2, 1, 1)
    assert "line 1 of standard input is JSON nested too deeply, ignored" in capfd.readouterr().err


def test_find_past_fix_says_a_missing_file_at_another_path_is_not_seen(tmp_path):
    """MCP's `seen_before` of a file not there as the hook's (queries.another_path, nu44
    finding 1): another project's Read of its `package.json`, not there, is another file,
    its look for it in its own `packages/` no fix of yours; the same path is seen before."""
    from conftest import build_index
    from corpus import LIB, Session

    projects = tmp_path / "projects"
    (
        Session("read", LIB, 0)
        .call("r1", "Read", file_path=f"{LIB}/package.json")
        .result("r1", "<tool_use_error>File does not exist.</tool_use_error>", error=True)
        .call("r2", "Bash", command="ls packages")
        .result("r2", "desktop")
        .call("r3", "Read", file_path=f"{LIB}/packages/desktop/package.json")
        .result("r3", "{}")
        .write(projects / "-home-u-lib" / "read.jsonl")
    )
    build_index(tmp_path / "index.db", projects)

    async def ask(error):
        async with Client(server.create_server(tmp_path / "index.db")) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    other = anyio.run(ask, "Read /home/me/proj/package.json: File does not exist.")
    assert other["seen_before"] is False
    assert [(r["session_id"], r["match"]) for r in other["rows"]] == [
        ("read", "same error, another file")
    ]
    assert other["notice"].startswith(
        "Not seen about this file: 1 past failure had the same error about another file; "
    )
    same = anyio.run(ask, f"Read {LIB}/package.json: File does not exist.")
    assert same["seen_before"] is True and "notice" not in same
    assert [r["session_id"] for r in same["rows"]] == ["read"]


def test_an_error_seen_only_about_other_files_says_so_as_a_file_not_there_does(tmp_path):
    """`cat` of another file not there said "Not seen about this file" on stderr, an EISDIR
    seen only about another path nothing, its card alone saying "same error, another file"
    (a new user's try, nu46 finding 12): `pastfix find` and MCP say that one too, seen
    before (the error is not about which path), and nothing of the path seen itself."""
    from click.testing import CliRunner
    from conftest import build_index
    from corpus import LIB, Session

    from pastfix.cli import cli

    projects = tmp_path / "projects"
    eisdir = "EISDIR: illegal operation on a directory, read '{}'"
    (
        Session("dir", LIB, 0)
        .call("r1", "Read", file_path=f"{LIB}/std/lib")
        .result("r1", eisdir.format(f"{LIB}/std/lib"), error=True)
        .call("r2", "Bash", command=f"ls {LIB}/std/lib")
        .result("r2", "core.obs")
        .call("r3", "Read", file_path=f"{LIB}/std/lib/core.obs")
        .result("r3", "fn main")
        .write(projects / "-home-u-lib" / "dir.jsonl")
    )
    index = tmp_path / "index.db"
    build_index(index, projects)

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    other = eisdir.format("/home/jdoe/proj/std/cobject")
    said = anyio.run(ask, other)
    assert said["seen_before"] is True
    assert [r["match"] for r in said["rows"]] == ["same error, another file"]
    assert said["notice"].startswith(
        "Seen only about other paths: 1 past failure had the same error about another path;"
    )
    found = CliRunner().invoke(cli, ["find", other, str(index)])
    assert found.stderr == said["notice"] + "\n\n"
    assert "same error, another file" in found.stdout

    async def page(error):
        from datasette.app import Datasette

        got = await Datasette([str(index)]).client.get(
            "/index/find_past_fix", params={"error": error}
        )
        return got.text

    assert f"<p>{html.escape(said['notice'], quote=False)}</p>" in anyio.run(page, other)
    own = eisdir.format(f"{LIB}/std/lib")
    assert "Seen only about" not in anyio.run(page, own)
    same = anyio.run(ask, own)
    assert same["seen_before"] is True and "notice" not in same
    assert CliRunner().invoke(cli, ["find", own, str(index)]).stderr == ""


def test_a_second_error_line_and_seen_only_about_other_files_are_both_said(tmp_path):
    """A paste of an EISDIR seen only about another path and a second error line seen
    before: `pastfix find` said which line the cards are of (queries.by_which_line) instead
    of "Seen only about other paths", and the find page too; MCP said the first alone. All
    three say both, the line first."""
    from click.testing import CliRunner
    from conftest import build_index
    from corpus import LIB, Session

    from pastfix.cli import cli

    projects = tmp_path / "projects"
    eisdir = "EISDIR: illegal operation on a directory, read '{}'"
    enoent = f"Error: ENOENT: no such file or directory, open '{LIB}/build/out.js'"
    (
        Session("dir", LIB, 0)
        .call("r1", "Read", file_path=f"{LIB}/std/lib")
        .result("r1", eisdir.format(f"{LIB}/std/lib"), error=True)
        .call("r2", "Bash", command=f"ls {LIB}/std/lib")
        .result("r2", "core.obs")
        .call("r3", "Read", file_path=f"{LIB}/std/lib/core.obs")
        .result("r3", "fn main")
        .write(projects / "-home-u-lib" / "dir.jsonl")
    )
    (
        Session("open", LIB, 10)
        .call("b1", "Bash", command="node build/out.js")
        .result("b1", f"Exit code 1\n{enoent}", error=True)
        .write(projects / "-home-u-lib" / "open.jsonl")
    )
    index = tmp_path / "index.db"
    build_index(index, projects)
    paste = eisdir.format("/home/jdoe/proj/std/cobject") + "\n" + enoent

    async def ask(error):
        async with Client(server.create_server(index)) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    said = anyio.run(ask, paste)
    assert said["seen_before"] is True
    assert [r["match"] for r in said["rows"]] == ["same error, another file"]
    line = 'The failures below are of its key line, "EISDIR: illegal operation on a directory,'
    elsewhere = "Seen only about other paths: 1 past failure had the same error about another"
    assert said["notice"].startswith(line)
    assert f"paste that line alone to find its failures. {elsewhere} path;" in said["notice"]
    found = CliRunner().invoke(cli, ["find", paste, str(index)])
    assert found.stderr == said["notice"] + "\n\n"

    async def page(error):
        from datasette.app import Datasette

        got = await Datasette([str(index)]).client.get(
            "/index/find_past_fix", params={"error": error}
        )
        return " ".join(html.unescape(got.text).split())

    shown = anyio.run(page, paste)
    assert line in shown and elsewhere in shown
    assert shown.index(line) < shown.index(elsewhere)


def test_find_past_fix_says_what_it_found_of_a_missing_folder_a_lint_and_a_log(tmp_path):
    """MCP's `seen_before` and notice as `pastfix find`'s (nu42 findings 8-10): an `ls` of a
    missing folder that matched only other folders is not seen about it (their fixes made
    those: another project's `mkdir`), its rows kept; a TS6133 of another name is seen
    before (its fix, the import dropped, is of the same kind); a success log names no error."""
    from conftest import build_index
    from corpus import APP, Session

    projects = tmp_path / "projects"
    for sid, minutes, command, error, fix in (
        (
            "ls",
            0,
            "ls -d .claude/logs",
            "ls: cannot access '.claude/logs': No such file or directory",
            "mkdir -p .claude/logs",
        ),
        (
            "tsc",
            100,
            "npx tsc --noEmit",
            "src/App.tsx(1,8): error TS6133: 'React' is declared but its value is never read.",
            "npx tsc --noEmit --noUnusedLocals false",
        ),
    ):
        (
            Session(sid, APP, minutes)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .call(f"{sid}2", "Bash", command=fix)
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)

    async def ask(error):
        async with Client(server.create_server(tmp_path / "index.db")) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    missing = anyio.run(ask, "ls: cannot access 'build/output': No such file or directory")
    assert missing["seen_before"] is False
    assert [(r["session_id"], r["match"]) for r in missing["rows"]] == [
        ("ls", "same error, another folder")
    ]
    assert missing["notice"].startswith(
        "Not seen about this folder: 1 past failure had the same error about another folder; "
    )
    lint = anyio.run(
        ask,
        "src/useFoo.ts(4,10): error TS6133: 'useState' is declared but its value is never read.",
    )
    assert lint["seen_before"] is True and "notice" not in lint
    assert [r["session_id"] for r in lint["rows"]] == ["tsc"]
    log = anyio.run(ask, "added 214 packages, and audited 215 packages in 6s")
    assert log["seen_before"] is False and log["rows"] == []
    assert log["notice"].startswith(
        "'added 214 packages, and audited 215 packages in 6s' names no error: it reads as a"
        " program's output"
    )


def test_find_past_fix_finds_a_sentence_that_is_a_failures_lines(tmp_path):
    """`sudo: a password is required` and git's `Please make sure you have the correct access
    rights and the repository exists.`, the lines a user copies, were refused as prose:
    `seen_before` false while the index held them (nu45 finding 1). A line that a stored
    failure holds as its lines is that failure; a sentence that none holds stays refused."""
    from conftest import build_index
    from corpus import APP, Session

    projects = tmp_path / "projects"
    sudo = (
        "sudo: a terminal is required to read the password; either use the -S option to read"
        " from standard input or configure an askpass helper\nsudo: a password is required"
    )
    git = (
        "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote"
        " repository.\n\nPlease make sure you have the correct access rights\nand the"
        " repository exists."
    )
    for n, (sid, command, error) in enumerate(
        (("sudo", "sudo apt-get install -y jq", sudo), ("git", "git push", git))
    ):
        (
            Session(sid, APP, 10 * n)
            .call(f"{sid}1", "Bash", command=command)
            .result(f"{sid}1", f"Exit code 1\n{error}", error=True)
            .call(f"{sid}2", "Bash", command="true")
            .result(f"{sid}2", "ok")
            .write(projects / "-home-u-app" / f"{sid}.jsonl")
        )
    build_index(tmp_path / "index.db", projects)

    async def ask(error):
        async with Client(server.create_server(tmp_path / "index.db")) as client:
            return (await client.call_tool("find_past_fix", {"error": error})).structured_content

    for pasted, sid in (
        ("sudo: a password is required", "sudo"),
        ("Please make sure you have the correct access rights and the repository exists.", "git"),
    ):
        found = anyio.run(ask, pasted)
        assert found["seen_before"] is True, pasted
        assert [r["session_id"] for r in found["rows"]] == [sid]
    prose = anyio.run(ask, "Please make sure the repository is nicer.")
    assert prose["seen_before"] is False and prose["rows"] == []
    assert "names no error: it reads as a sentence" in prose["notice"]


def test_find_past_fix_with_the_command_that_failed(tmp_path):
    """The tool takes the command that failed, as the hook's event gives it: a way round met
    on the way to another goal (sql.js for sqlite3) is then `same error, another goal`, not
    the error seen before; its rows stay as lean (no column of their own for it)."""
    write_sudo_workaround(tmp_path / "projects")
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")

    async def ask(**args):
        async with Client(server.create_server(db)) as client:
            return (
                await client.call_tool("find_past_fix", {"error": SUDO, **args})
            ).structured_content

    jq = anyio.run(lambda: ask(command="sudo apt-get install -y jq"))
    assert jq["seen_before"] is False
    assert [row["match"] for row in jq["rows"]] == [queries.OTHER_GOAL]
    assert jq["notice"].startswith("Not seen before for this command")
    plain = anyio.run(ask)
    assert plain["seen_before"] is True and plain["rows"][0]["match"] == "same error"
    assert anyio.run(lambda: ask(command="sudo apt install sqlite3")) == plain
    # (its way round is no remedy of this call: cards.other_goal_notice names what it ran)
    assert "remedy" not in jq["rows"][0] and "confirmed_by" not in jq["rows"][0]
    assert "remedy" in plain["rows"][0]


def test_find_past_fix_says_which_rows_were_for_another_goal(tmp_path):
    """`sudo: a password is required` for `sudo apt-get install -y jq`: met before not fixed
    installing gh, and worked around on the way to a database (sql.js). MCP said
    `seen_before: true` with the way round first and its steps as the remedy (nu48 finding
    3): now the same goal's row first, the other goal's without a remedy, and a notice
    naming what its way round ran, no fix for this command."""
    write_sudo_workaround(tmp_path / "projects")
    write_sudo_unsolved(tmp_path / "projects")
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")

    async def ask():
        async with Client(server.create_server(db)) as client:
            args = {"error": SUDO, "command": "sudo apt-get install -y jq"}
            return (await client.call_tool("find_past_fix", args)).structured_content

    jq = anyio.run(ask)
    assert jq["seen_before"] is True
    assert [row["match"] for row in jq["rows"]] == ["same error", queries.OTHER_GOAL]
    assert "remedy" not in jq["rows"][1], jq["rows"][1]
    assert "only worked around there, on the way to another goal" in jq["notice"]
    assert "ran npm, node" in jq["notice"] and "no fix for this command" in jq["notice"]


def test_find_past_fix_of_an_exit_status_with_the_command_gives_its_programs_failures(tmp_path):
    """`Exit code 1` of `rg -n useAuthToken src/`: with a small limit the tool gave the
    first rows of any program (fixed `npm test` runs) and never said how rg's own failures
    ended, as `pastfix find --command` does (session 40's leftover): now that program's
    failures first of all that ended so, and the notice says how they ended."""
    from corpus import APP, Session

    projects = tmp_path / "projects" / "-home-u-app"
    for n in range(3):
        (
            Session(f"npm{n}", APP, n)
            .prompt("run the tests")
            .call(f"t{n}", "Bash", command="npm test")
            .result(f"t{n}", "Exit code 1", error=True)
            .call(f"e{n}", "Edit", file_path=f"{APP}/src/a.js", old_string="a", new_string="b")
            .result(f"e{n}", "The file has been updated.")
            .call(f"t{n}b", "Bash", command="npm test")
            .result(f"t{n}b", "all passed")
            .write(projects / f"npm{n}.jsonl")
        )
    (
        Session("rg", APP, 5)
        .prompt("is the old hook still used?")
        .call("r1", "Bash", command="rg -n useLegacyHook src/")
        .result("r1", "Exit code 1", error=True)
        .say("useLegacyHook is no longer used anywhere in src/.")
        .write(projects / "rg.jsonl")
    )
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")

    async def ask(**args):
        async with Client(server.create_server(db)) as client:
            found = await client.call_tool("find_past_fix", {"error": "Exit code 1", **args})
            return found.structured_content

    rg = anyio.run(lambda: ask(limit=2, command="rg -n useAuthToken src/"))
    assert [row["session_id"] for row in rg["rows"]][0] == "rg", rg["rows"]
    assert len(rg["rows"]) == 2
    assert rg["notice"].startswith(queries.says_little_notice("Exit code 1")), rg["notice"]
    assert "1 of them ran rg too: 1 answered." in rg["notice"], rg["notice"]
    assert "rg ended so when it found nothing" in rg["notice"]
    # (all fit: the same line)
    assert "1 of them ran rg too" in anyio.run(lambda: ask(command="rg -n x src"))["notice"]
    # without the command, as it was: no such line, and any program's failures
    plain = anyio.run(lambda: ask(limit=2))
    assert "of them ran" not in plain["notice"]
    assert [row["session_id"] for row in plain["rows"]] != ["rg", "npm0"]
    # the command pasted above its exit status is the command, as if given
    pasted = "rg -n useAuthToken src/\nProcess exited with code 1"
    echoed = anyio.run(lambda: ask(limit=2, error=pasted))
    assert [row["session_id"] for row in echoed["rows"]][0] == "rg", echoed["rows"]
    assert "1 of them ran rg too: 1 answered." in echoed["notice"], echoed["notice"]
