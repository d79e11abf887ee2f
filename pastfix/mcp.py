"""`pastfix mcp`: the index as an MCP server, for agents to ask on their own.

Each tool returns the rows of the canned query of the same name (queries.run,
queries.find_past_fix): as structured content ({"rows": [...]}) for clients
that read it, and as compact text, one short block per row, for the model. No
SQL here. Built on the official MCP Python SDK (mcp 2.x, MCPServer) over stdio.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

from pastfix import queries

# Characters of one text value shown in the compact text (the structured rows are whole).
TEXT_VALUE_CHARS = 300
# The find_past_fix columns the compact text leaves out: HTML and links for the web page,
# and a ranking key that the order of the rows already says.
HIDDEN_COLUMNS = frozenset({"error_snippet_html", "session_url", "error", "text_distance"})

INSTRUCTIONS = (
    "Search the user's past Claude Code sessions (an index of every transcript). After a"
    " tool call fails, call find_past_fix with the error text: it returns earlier failures"
    " of the same error and what fixed them (outcome; remedy: the steps that made the"
    " difference, then the call that confirmed them), and the session id for"
    " `claude --resume`. Then session_errors / session_tool_output to read"
    " one session, search_messages for discussions, recurring_errors for frequent"
    " failures, file_history for the sessions that touched a file."
)


def _value(value: Any) -> str:
    if isinstance(value, list | dict):
        value = json.dumps(value, ensure_ascii=False)
    flat = " ".join(str(value).split())
    return flat if len(flat) <= TEXT_VALUE_CHARS else flat[: TEXT_VALUE_CHARS - 1] + "…"


def compact_text(name: str, rows: list[dict[str, Any]]) -> str:
    """Rows as short `column: value` blocks, empty values left out."""
    if not rows:
        return f"{name}: no rows"
    blocks = []
    for i, row in enumerate(rows, 1):
        lines = [f"{i}."]
        for column, value in row.items():
            if column in HIDDEN_COLUMNS or value in (None, "", [], {}):
                continue
            lines.append(f"  {column}: {_value(value)}")
        blocks.append("\n".join(lines))
    return f"{name}: {len(rows)} row{'s' * (len(rows) != 1)}\n" + "\n".join(blocks)


def result(name: str, rows: list[dict[str, Any]], error: str | None = None) -> CallToolResult:
    """A tool's answer: the rows as structured content and as compact text.

    find_past_fix's (given the `error`) also says whether the error was seen before
    (queries.seen_before), and when not, says so first in the text: its rows are only
    partial matches.
    """
    text = compact_text(name, rows)
    structured: dict[str, Any] = {"rows": rows}
    if error is not None:
        structured["seen_before"] = queries.seen_before(rows)
        if not structured["seen_before"]:
            text = queries.not_seen_notice(error, rows) + "\n" + text
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )


def _description(name: str) -> str:
    return str(queries.CANNED_QUERIES[name]["description"])


def create_server(db_path: Path) -> MCPServer:
    """An MCP server answering from the index at `db_path` (opened read-only per call)."""
    server = MCPServer("pastfix", instructions=INSTRUCTIONS)

    def ask(name: str, **params: object) -> CallToolResult:
        # A ToolError's message reaches the client; any other exception is
        # reported as "Error executing tool X" alone, its reason lost (an index
        # deleted or rebuilt mid-session, a query over its time limit).
        try:
            conn: sqlite3.Connection = queries.connect(db_path)
            try:
                if name == "find_past_fix":
                    error, limit = str(params["error"]), int(str(params["limit"]))
                    return result(name, queries.find_past_fix(conn, error, limit), error)
                rows = queries.run(conn, name, **params)
            finally:
                conn.close()
        except (queries.NotAnIndex, queries.QueryError) as e:
            raise ToolError(str(e)) from None
        except sqlite3.Error as e:
            raise ToolError(f"{db_path} cannot be read: {e}") from None
        return result(name, rows)

    @server.tool(description=_description("find_past_fix"))
    def find_past_fix(error: str, limit: int = 5) -> CallToolResult:
        return ask("find_past_fix", error=error, limit=max(1, min(limit, queries.FIND_MAX)))

    @server.tool(description=_description("session_errors"))
    def session_errors(session_id: str) -> CallToolResult:
        return ask("session_errors", session_id=session_id)

    @server.tool(description=_description("session_tool_output"))
    def session_tool_output(session_id: str, pattern: str) -> CallToolResult:
        return ask("session_tool_output", session_id=session_id, pattern=pattern)

    @server.tool(description=_description("search_messages"))
    def search_messages(q: str) -> CallToolResult:
        return ask("search_messages", q=q)

    @server.tool(description=_description("recurring_errors"))
    def recurring_errors(project: str = "", noise: str = "") -> CallToolResult:
        return ask("recurring_errors", project=project, noise=noise)

    @server.tool(description=_description("file_history"))
    def file_history(path: str) -> CallToolResult:
        return ask("file_history", path=path)

    return server


def serve(db_path: Path) -> None:
    """Run the server on standard input and output until the client closes them."""
    create_server(db_path).run("stdio")
