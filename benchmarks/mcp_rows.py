"""How many characters of a find_past_fix row the model reads, whole and as the MCP tool gives it.

Claude Code and Codex pass a tool's structured content to the model JSON.stringify'd and
nothing else (issue 21). For every failed tool result of an index, its key line is asked
of find_past_fix (5 rows, the MCP tool's default), and each row is measured as compact
JSON: whole (every column of the canned query) and lean (mcp.lean_row).

    python benchmarks/mcp_rows.py index.db
"""

import json
import statistics
import sys

from pastfix import mcp, queries, signatures


def measure(db: str) -> dict[str, list[int]]:
    conn = queries.connect(db)
    sizes: dict[str, list[int]] = {"whole": [], "lean": []}
    errors = conn.execute("select content from tool_results where is_error = 1").fetchall()
    for (content,) in errors:
        key = signatures.key_line(content) or content[:200]
        for row in queries.find_past_fix(conn, key, mcp.FIND_LIMIT):
            sizes["whole"].append(len(json.dumps(row, separators=(",", ":"), ensure_ascii=False)))
            sizes["lean"].append(mcp.size(mcp.lean_row("find_past_fix", row)))
    return sizes


def main() -> None:
    for name, values in measure(sys.argv[1]).items():
        values.sort()
        print(
            f"{name:5}  rows {len(values)}  median {statistics.median(values):,.0f}"
            f"  p90 {values[int(len(values) * 0.9)]:,}  max {values[-1]:,}"
        )


if __name__ == "__main__":
    main()
