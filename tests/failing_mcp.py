"""A stdio MCP server whose tools fail, for the Codex end-to-end tests: run as a script.

`query` answers a tool error (`isError: true`, a Postgres message) unless its SQL names
`accounts`; `explain` always answers a JSON-RPC error. Newline-delimited JSON-RPC, as
Codex's MCP client speaks it over stdio.
"""

import json
import sys

TOOLS = [
    {
        "name": "query",
        "description": "Run SQL",
        "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}},
    },
    {"name": "explain", "description": "Explain", "inputSchema": {"type": "object"}},
]
MISSING = 'ERROR:  relation "users" does not exist\nLINE 1: select count(*) from users'
REFUSED = "connection to the database refused"


def answer(request: dict) -> dict | None:
    method, params = request.get("method"), request.get("params") or {}
    if request.get("id") is None:
        return None  # a notification
    reply: dict = {"jsonrpc": "2.0", "id": request["id"]}
    if method == "initialize":
        version = params.get("protocolVersion", "2025-06-18")
        info = {"name": "db", "version": "1"}
        reply["result"] = {"protocolVersion": version, "capabilities": {"tools": {}}}
        reply["result"]["serverInfo"] = info
    elif method == "tools/list":
        reply["result"] = {"tools": TOOLS}
    elif method == "tools/call" and params.get("name") == "query":
        sql = (params.get("arguments") or {}).get("sql", "")
        ok = "accounts" in sql
        text = '[{"count": 3}]' if ok else MISSING
        reply["result"] = {"content": [{"type": "text", "text": text}], "isError": not ok}
    elif method == "tools/call":
        reply["error"] = {"code": -32603, "message": REFUSED}
    else:
        reply["result"] = {}
    return reply


def main() -> None:
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line))
        except ValueError:
            continue
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
