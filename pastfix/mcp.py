"""`pastfix mcp`: the index as an MCP server, for agents to ask on their own.

Each tool returns the rows of the canned query of the same name (queries.run,
queries.find_past_fix), cut to what an agent acts on (lean_row): Claude Code and
Codex give the model a tool's structured content, JSON.stringify'd, and nothing
else (issue 21), so that is the answer, with an output schema; the same rows as
compact text, one short block per row, for clients that read only text. Which
columns, and how much of each, is the canned query's own `columns`
(queries.CANNED_QUERIES); a find_past_fix row says how it matched in its card's words
and gives what fixed the error first (FIND_FIRST). No SQL here. Built on the official
MCP Python SDK (mcp 2.x, MCPServer) over stdio.
"""

from __future__ import annotations

import html
import json
import os
import sqlite3
import threading
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, jsonrpc_message_adapter

from pastfix import agents, cards, queries, records
from pastfix.patterns import lazy

# Characters of one text value shown in the compact text.
TEXT_VALUE_CHARS = 300
# Rows find_past_fix gives when no limit is asked: an agent wants the best few, and each
# row is what the model reads (~950 characters, see queries.FIND_PAST_FIX_COLUMNS).
FIND_LIMIT = 5
# recurring_errors' rows when no limit is given: the most frequent signatures.
RECURRING_SHOWN = 20
# The rows session_tool_output and search_messages give when no limit is asked.
SHOWN = 20
# The most rows a query gives, where it has a most: a notice says "or more" of as many.
QUERY_ROWS = {"search_messages": queries.SEARCH_ROWS}
# The limits the tools take: their range is in the tools' input schema.
FindLimit = Annotated[int, pydantic.Field(ge=1, le=queries.FIND_MAX)]
RecurringLimit = Annotated[int, pydantic.Field(ge=1, le=queries.RECURRING_LIMIT)]
OutputLimit = Annotated[int, pydantic.Field(ge=1, le=queries.FIND_MAX)]
SearchLimit = Annotated[int, pydantic.Field(ge=1, le=queries.SEARCH_ROWS)]
# Characters of a find_past_fix row above which its remedy loses its last steps.
ROW_CHARS = 1000
# Keys of the entries of a list column (remedy, fix_edits) left out: ids of calls, which
# link the page's cards.
_ID_KEY = lazy(r"(^|_)tool_use_id$")
_TAG = lazy(r"</?mark>")
# The Python type of each JSON Schema type of queries.CANNED_QUERIES' columns.
_TYPES: dict[str, Any] = {"string": str, "integer": int, "array": list[Any]}

# find_past_fix's `command`, as its description says it (queries.with_goals).
COMMAND_SAID = (
    " Give the shell command that failed (command), when there is one: a past failure only"
    " worked around on the way to another goal (other packages, other programs) is then"
    f" `{queries.OTHER_GOAL}`, not the error seen before. Without it, a command the error"
    " shows above its exit status is read as it."
)

INSTRUCTIONS = (
    "Search the user's past coding-agent sessions"
    f" ({', '.join(agents.label(name) for name in agents.NAMES)}: an index of every"
    " transcript). After a tool call fails, call find_past_fix with the error text: it"
    " returns earlier failures of the same error and what fixed them (outcome; remedy: the"
    " steps that made the difference, then the call that confirmed them), their agent and"
    " the command that resumes their session. Then session_errors / session_tool_output to read"
    " one session, search_messages for discussions, recurring_errors for frequent"
    " failures, file_history for the sessions that touched a file."
)


def _value(value: Any) -> str:
    if isinstance(value, list | dict):
        value = json.dumps(value, ensure_ascii=False)
    flat = " ".join(str(value).split())
    return flat if len(flat) <= TEXT_VALUE_CHARS else flat[: TEXT_VALUE_CHARS - 1] + "…"


# A find_past_fix row as agents get it, beside the canned query's own columns. How it
# matched, in its card's words (cards.how_matched), in place of `matched`, `other_file`,
# `other_names` and `shared_words`, which it says: `signature` alone did not tell the very
# same error from another file's (a new user's try, session 34), nor from one about other
# names (session 35).
_MATCH = {"match": ("string", queries.ALL)}
_SAID_BY_MATCH = ("matched", "other_file", "other_names", "shared_words")
# The call that confirmed the fix, named as that: as `fix_target`, read before the remedy,
# it was the failed command run again (`npm run build`, of a TS2769 fixed by two files
# written: a model that took it for the fix would rerun what failed; session 34).
RENAMED = {"fix_target": "confirmed_by"}
# The keys a find_past_fix row is read in first: the past error, how it matched, then what
# fixed it, the remedy before the call that confirmed it (or, not fixed, what was done
# next); then where and when, in the query's order.
FIND_FIRST = (
    "error_snippet",
    "match",
    "outcome",
    "remedy",
    "confirmed_by",
    "fix_error",
    "next_calls",
    "files_edited_after",
)


def agent_columns(name: str) -> dict[str, tuple[str, int | str]]:
    """The columns of canned query `name` that agents get: (type, cut), in the order they
    are read (the query's, but for find_past_fix's FIND_FIRST), as agents get them named."""
    columns = {
        RENAMED.get(column, column): spec
        for column, spec in queries.CANNED_QUERIES[name]["columns"].items()
        if spec is not None
    }
    if name != "find_past_fix":
        return columns
    columns = {c: s for c, s in columns.items() if c not in _SAID_BY_MATCH} | _MATCH
    return {column: columns[column] for column in FIND_FIRST} | columns


def _cut(value: Any, chars: int | str) -> Any:
    """A value cut to `chars` characters of each text in it (queries.ALL: whole)."""
    if isinstance(value, str):
        if chars == queries.HTML:
            return " ".join(html.unescape(_TAG.sub("", value)).split())
        return value if chars == queries.ALL else queries.one_line(value, int(chars))
    if isinstance(value, list):
        return [_cut(item, chars) for item in value[: queries.AGENT_ITEMS]]
    if isinstance(value, dict):
        return {
            key: _cut(item, chars)
            for key, item in value.items()
            if not _ID_KEY.search(key) and item not in (None, "", [], {})
        }
    return value


def agent_remedy(row: dict[str, Any]) -> list[dict[str, Any]]:
    """A find_past_fix row's remedy for an agent: cards.remedy_steps(), each step with
    the lines its edits take out and put in, paths relative to the project."""
    steps = []
    for step in cards.remedy_steps(row):
        entry: dict[str, Any] = {
            "tool": step["tool"],
            "target": cards.in_project(step["path"] or step["target"], row["project"]),
            "change": step["change"],
        }
        lines = [line for edit in step["edits"] for line in cards.edit_lines(edit)]
        for sign, key in (("-", "old"), ("+", "new")):
            entry[key] = " / ".join(text for s, text in lines if s == sign)
        steps.append(entry)
    return steps


def lean_row(name: str, row: dict[str, Any], error: str | None = None) -> dict[str, Any]:
    """What an agent gets of a row of `name`: its agent columns, cut, empty ones left out
    (`error`: the pasted one, which names another file as its path is, cards.how_matched)."""
    if name == "find_past_fix":
        edited = [] if row["fixed_at"] else row["files_edited_after"]
        went_on = cards.went_on_steps(row) if row["fixed_at"] and cards.went_on(row) else None
        row = {
            **row,
            "remedy": agent_remedy(row),
            "files_edited_after": [cards.in_project(p, row["project"]) for p in edited],
            "next_calls": [step["text"] for step in cards.next_steps(row)],
            "match": cards.how_matched(row, error),
        }
        if row.get("other_goal"):
            # its way round was another goal's: no remedy of this call (the notice names
            # what it ran, cards.other_goal_notice)
            row.update(remedy=[], fix_target=None)
        if went_on is not None:
            # what came next after a call stopped as the pasted one was: no remedy, nor a
            # call that confirmed one (see cards.went_on)
            row.update(remedy=[], fix_target=None, next_calls=went_on)
    row = {RENAMED.get(column, column): value for column, value in row.items()}
    lean = {}
    for column, (_, chars) in agent_columns(name).items():
        value = row.get(column)
        if value not in (None, "", [], {}):
            lean[column] = _cut(value, chars)
    # Over budget (long paths and commands): the remedy's first steps, those the error
    # names, are kept.
    while len(lean.get("remedy", [])) > 1 and size(lean) > ROW_CHARS:
        lean["remedy"].pop()
    return lean


def size(value: Any) -> int:
    """Characters of `value` as the model reads it: JSON.stringify'd (compact, UTF-8 kept)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def output_model(name: str) -> type[pydantic.BaseModel]:
    """The output schema of tool `name`: {"rows": [...]} (and find_past_fix's seen_before, and
    its notice)."""
    # Empty values are left out (lean_row), never null.
    fields: dict[str, Any] = {
        column: (_TYPES[kind], None) for column, (kind, _) in agent_columns(name).items()
    }
    row = pydantic.create_model(f"{name}_row", **fields)
    top: dict[str, Any] = {"rows": (list[row], ...)}  # type: ignore[valid-type]
    if name == "find_past_fix":
        top["seen_before"] = (bool, ...)
    if name in ("find_past_fix", "recurring_errors"):
        top["notice"] = (str, "")
    return pydantic.create_model(f"{name}_result", **top)


def compact_text(name: str, rows: list[dict[str, Any]]) -> str:
    """Rows as short `column: value` blocks, empty values left out."""
    if not rows:
        return f"{name}: no rows"
    blocks = []
    for i, row in enumerate(rows, 1):
        lines = [f"{i}."]
        for column, value in row.items():
            if value in (None, "", [], {}):
                continue
            lines.append(f"  {column}: {_value(value)}")
        blocks.append("\n".join(lines))
    return f"{name}: {len(rows)} row{'s' * (len(rows) != 1)}\n" + "\n".join(blocks)


def result(
    name: str,
    rows: list[dict[str, Any]],
    error: str | None = None,
    shown: int | None = None,
    capped: int | None = None,
    said: str | None = None,
    same: str | None = None,
) -> CallToolResult:
    """A tool's answer: the lean rows as structured content and as compact text.

    find_past_fix's (given the `error`) also says whether the error was seen before
    (queries.seen_before), and a notice when its rows are not that error's: only partial
    matches (not seen before), or failures that ended as the pasted exit status alone says
    (queries.says_little), as `pastfix find` says on stderr. Clients give the model the
    structured content, so the notice is there (and first in the text). `shown`:
    at most that many rows, and a notice saying how many there were (`capped`: the most
    the query gives, when it had that many: "or more"). `said`: a notice of its own;
    `same`: how the failures of the given command's program ended, said after the notice
    that the paste names no error (cards.same_program_line).
    """
    notices = [said] if said else []
    if shown is not None and len(rows) > shown:
        more = " or more" if capped is not None and len(rows) >= capped else ""
        notices.append(
            f"The first {shown} of {len(rows)}{more} rows; give a larger limit for more."
        )
        rows = rows[:shown]
    lean = [lean_row(name, row, error) for row in rows]
    text = compact_text(name, lean)
    structured: dict[str, Any] = {"rows": lean}
    if error is not None:
        seen = queries.seen_before(rows)
        # An exit status, common words or an agent's word of a stopped call alone name no
        # error: their rows were not "seen before" (each row's `match` says how it matched:
        # cards.how_matched).
        little = seen and queries.says_little(error)
        structured["seen_before"] = seen and not little
        # after `said` (which line of the paste the rows are of, queries.by_which_line),
        # what the rows are, as `pastfix find` and the find page say both
        if not seen:
            notices = [queries.not_seen_notice(error, rows)]
        elif little:
            notices.insert(bool(said), queries.says_little_notice(error))
            if same:
                notices.insert(bool(said) + 1, same)
        elif elsewhere_only := queries.seen_about_other_files(rows, error):
            notices.insert(bool(said), elsewhere_only)
        elif around := cards.other_goal_notice(rows):
            notices.insert(bool(said), around)
        if english := queries.english_notice(error, rows):
            # (a paste in another language found English errors: what it was read as)
            notices.append(english)
    if notices:
        structured["notice"] = " ".join(notices)
        text = structured["notice"] + "\n" + text
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )


def _description(name: str) -> str:
    if name == "find_past_fix":
        return queries.find_past_fix_description(f"{FIND_LIMIT} when not given") + COMMAND_SAID
    described = str(queries.CANNED_QUERIES[name]["description"])
    most = {"recurring_errors": (RECURRING_SHOWN, queries.RECURRING_LIMIT)}
    most |= {"session_tool_output": (SHOWN, queries.FIND_MAX)}
    most |= {"search_messages": (SHOWN, queries.SEARCH_ROWS)}
    if name in most:
        shown, largest = most[name]
        described += f" At most limit rows ({shown} when not given, {largest} at most)."
    return described


def version() -> str:
    """pastfix's version, which the server reports to clients."""
    try:
        return metadata.version("pastfix")
    except metadata.PackageNotFoundError:  # a checkout that is not pip-installed
        return "0+unknown"


class _Server(MCPServer):
    """The SDK's server, saying in one line what a call's arguments got wrong: the SDK
    gives pydantic's text, several lines and a link to its documentation."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if not isinstance(e.__cause__, pydantic.ValidationError):
                raise
            tool = self._tool_manager.get_tool(name)
            takes = list(tool.parameters.get("properties", {})) if tool else []
            raise ToolError(arguments_error(name, e.__cause__, takes)) from e.__cause__


def arguments_error(name: str, error: pydantic.ValidationError, takes: list[str]) -> str:
    """`find_past_fix: 'error' is missing (it takes error, limit)`."""
    said = []
    for each in error.errors(include_url=False):
        where = ".".join(str(part) for part in each["loc"]) or "the arguments"
        if each["type"] == "missing":
            said.append(f"{where!r} is missing")
        else:
            said.append(f"{where!r}: {each['msg'].lower()}")
    return f"{name}: {'; '.join(said)} (it takes {', '.join(takes)})"


def create_server(db_path: Path) -> MCPServer:
    """An MCP server answering from the index at `db_path` (opened read-only per call)."""
    server = _Server("pastfix", instructions=INSTRUCTIONS, version=version())

    def ask(name: str, shown: int | None = None, **params: object) -> CallToolResult:
        # A ToolError's message reaches the client; any other exception is
        # reported as "Error executing tool X" alone, its reason lost (an index
        # deleted or rebuilt mid-session, a query over its time limit).
        try:
            conn: sqlite3.Connection = queries.connect(db_path)
            try:
                if name == "find_past_fix":
                    error, limit = str(params["error"]), int(str(params["limit"]))
                    # (a command pasted above its exit status, as if given)
                    command = queries.command_of(error, str(params.get("command") or "")) or ""
                    # one row more than asked: whether the limit left some out
                    rows = queries.with_goals(
                        queries.find_past_fix(conn, error, limit + 1), command
                    )
                    unbuilt = None if queries.seen_before(rows) else queries.unbuilt(conn, db_path)
                    if unbuilt:  # not "not seen before": nothing is there yet
                        raise ToolError(unbuilt)
                    # (which line of the paste the rows are of, as `pastfix find` says)
                    rows, said = queries.by_which_line(conn, error, rows, limit + 1, command)
                    same = None
                    if command and not said and queries.says_little(error):
                        # a paste naming no error, with its command: that program's failures
                        # first of all that ended so, not of the first `limit` (as `pastfix
                        # find --command`), and how they ended (cards.same_program_line)
                        counted = rows
                        if len(rows) > limit:
                            counted = queries.with_goals(
                                queries.find_past_fix(conn, error, queries.FIND_MAX), command
                            )
                            rows = counted[: limit + 1]
                        same = cards.same_program_line(counted, command)
                    return result(
                        name, rows, error, shown=limit, capped=limit + 1, said=said, same=same
                    )
                session = str(params.get("session_id", ""))
                if "session_id" in params and not session.strip():
                    # (it was "no rows", as of a session without failures)
                    raise ToolError(
                        "session_id is empty: give a session_id that find_past_fix,"
                        " search_messages or file_history returned"
                    )
                if session and not queries.has_session(conn, session):
                    # The first characters the hook names a session by are that session.
                    whole = queries.session_of_prefix(conn, session)
                    if whole is None:
                        # It was "session_errors: no rows", as of a session without failures.
                        raise ToolError(
                            f"no session {session!r} in {db_path}: give a session_id that"
                            " find_past_fix, search_messages or file_history returned"
                        )
                    params = {**params, "session_id": whole}
                rows = queries.run(conn, name, **params)
                tokenizer = queries.tokenizer(conn) if name == "search_messages" else ""
            finally:
                conn.close()
        except (queries.NotAnIndex, queries.QueryError) as e:
            raise ToolError(str(e)) from None
        except sqlite3.DatabaseError as e:  # damaged, or locked: what `pastfix find` says
            raise ToolError(queries.open_error(db_path, e)) from None
        except sqlite3.Error as e:
            raise ToolError(f"{db_path} cannot be read: {e}") from None
        said = None
        if name == "search_messages":
            # a raw: expression matched as words, or words not all held by the rows
            said = queries.search_said(str(params["q"]), rows, tokenizer)
        return result(name, rows, shown=shown, capped=QUERY_ROWS.get(name), said=said)

    def tool(fn: Any) -> Any:
        # The output schema: the SDK publishes it and checks every answer against it.
        fn.__annotations__["return"] = Annotated[CallToolResult, output_model(fn.__name__)]
        return server.tool(description=_description(fn.__name__))(fn)

    # limit's range is in the schema, and a limit outside it refused, as `-n` is (0 gave
    # one row without a word: a new user's try)
    @tool
    def find_past_fix(
        error: str, limit: FindLimit = FIND_LIMIT, command: str = ""
    ) -> CallToolResult:
        if not error.strip():  # it was 'Not seen before', as if an error had been looked up
            raise ToolError("error is empty: give the failed call's error text")
        return ask("find_past_fix", error=error, limit=limit, command=command)

    @tool
    def session_errors(session_id: str) -> CallToolResult:
        return ask("session_errors", session_id=session_id)

    # (a session's every output was 243 rows, 128,000 characters, for an empty pattern; a
    # common word's messages 100 rows: a new user's try, session 27)
    @tool
    def session_tool_output(
        session_id: str, pattern: str, limit: OutputLimit = SHOWN
    ) -> CallToolResult:
        if not pattern.strip():
            raise ToolError("pattern is empty: give text of the output to look for")
        return ask("session_tool_output", limit, session_id=session_id, pattern=pattern)

    @tool
    def search_messages(q: str, project: str = "", limit: SearchLimit = SHOWN) -> CallToolResult:
        if not q.strip():
            raise ToolError("q is empty: give words to search the messages for")
        return ask("search_messages", limit, q=q, project=project)

    @tool
    def recurring_errors(
        project: str = "", noise: Literal["", "hide"] = "", limit: RecurringLimit = RECURRING_SHOWN
    ) -> CallToolResult:
        # (every signature of an index was 84 rows, 27,000 characters: a new user's try)
        return ask("recurring_errors", limit, project=project, noise=noise)

    @tool
    def file_history(path: str) -> CallToolResult:
        return ask("file_history", path=path)

    return server


class NotJsonRpc(Exception):
    """Standard input ended without one JSON-RPC message: no MCP client spoke to the server."""


class _Input:
    """What the lines of standard input were: JSON-RPC messages, and lines that were not."""

    def __init__(self) -> None:
        self.lines = 0
        self.messages = 0
        self.other = 0
        self.ended = threading.Event()

    def check(self, line: bytes) -> None:
        """Count `line` (one line of input, repaired), and say on stderr when it is no
        JSON-RPC message: the SDK drops such a line without a word (a debug log), and
        the client, if it was one, waits for an answer that never comes."""
        self.lines += 1
        if not line.strip():
            return
        try:
            message = jsonrpc_message_adapter.validate_json(line, by_name=False)
        except pydantic.ValidationError:
            try:
                json.loads(line)
                reason = "is not a JSON-RPC 2.0 message"
            except ValueError as e:
                reason = f"is not JSON ({e})"
            except RecursionError:
                # ended the thread that reads standard input, and so the server (a
                # security tester's line of 5,000 `[`, round eight)
                reason = "is JSON nested too deeply"
            self.other += 1
            text = queries.one_line(line.decode("utf-8", "replace"), TEXT_VALUE_CHARS)
            _warn(f"pastfix mcp: line {self.lines} of standard input {reason}, ignored: {text}")
        else:
            self.messages += 1
            if type(message).__name__ == "JSONRPCNotification" and b'"id"' in line:
                self._check_id(line)

    def _check_id(self, line: bytes) -> None:
        """Say on stderr a request whose id is neither a string nor an integer (an object,
        an array, true, 1.5, null): the SDK reads it as a notification, which has no id,
        and answers nothing; a client waiting for its answer hung. JSON-RPC's answer would
        be an Invalid Request error with a null id, but the SDK alone writes standard output
        (a line of ours could land inside one of its messages), so it is said here."""
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):
            return
        if not isinstance(request, dict) or "id" not in request:
            return
        kind = {dict: "an object", list: "an array", bool: "true or false", float: "a fraction"}
        what = kind.get(type(request["id"]), "null")
        text = queries.one_line(line.decode("utf-8", "replace"), TEXT_VALUE_CHARS)
        _warn(
            f"pastfix mcp: line {self.lines} of standard input is a request whose id is {what},"
            f" not a string or an integer: no answer can name it, ignored: {text}"
        )


def _warn(text: str) -> None:
    try:
        os.write(2, (text + "\n").encode("utf-8", "replace"))
    except OSError:  # no stderr: the client closed it
        pass


def serve(db_path: Path) -> None:
    """Run the server on standard input and output until the client closes either.

    NotJsonRpc when the input held lines but not one JSON-RPC message (`echo garbage |
    pastfix mcp`): the SDK read and dropped them, and the server ended as after a session.
    """
    seen = _repair_stdin()
    gone = False
    try:
        create_server(db_path).run("stdio")
    except* BrokenPipeError:
        # The client closed its end of the answers (it quit, or was killed, mid-call): the
        # session is over. The SDK's task group raised it as a 40-line traceback, exit 1,
        # into the agent's MCP log.
        gone = True
    if not gone and seen.ended.is_set() and seen.other and not seen.messages:
        lines = "1 line that is" if seen.other == 1 else f"{seen.other:,} lines that are"
        raise NotJsonRpc(
            f"no JSON-RPC message on standard input, only {lines} not one (said above):"
            " pastfix mcp is a server for an MCP client, which an agent starts"
            " (pastfix mcp install)"
        )


def _repair_stdin() -> _Input:
    """Give the SDK the client's messages with each lone surrogate escape made \\uFFFD,
    and tell each line that is no JSON-RPC message (_Input.check); what was read.

    An error text holding half an emoji (a string Node cut, "\\ud83d") is valid JSON, but
    the SDK's parser refuses the whole message and answers nothing: the agent's call
    waited for its timeout. Standard input becomes a pipe fed, line by line, by a thread
    that reads the real one (the SDK reads file descriptor 0 itself, so no stream of ours
    could stand in for it); at the client's end of input the pipe ends too.
    """
    seen = _Input()
    source = os.fdopen(os.dup(0), "rb", buffering=0)
    read, write = os.pipe()
    os.dup2(read, 0)
    os.close(read)

    def pump() -> None:
        with source, os.fdopen(write, "wb", buffering=0) as out:
            pending = b""
            while chunk := source.read(1 << 16):
                pending += chunk
                cut = pending.rfind(b"\n") + 1
                if cut:
                    done = records.without_lone_surrogates(pending[:cut])
                    out.write(done)
                    for line in done.splitlines():
                        seen.check(line)
                    pending = pending[cut:]
            done = records.without_lone_surrogates(pending)
            out.write(done)
            if done:
                seen.check(done)
        seen.ended.set()

    threading.Thread(target=pump, name="pastfix-stdin", daemon=True).start()
    return seen
