"""The naive baseline: index transcripts the way peers in this ecosystem do.

stdlib `json.loads` on every line (the bulky `toolUseResult` sidecar included), rows built as
dicts, sqlite-utils `insert_all` per file (one transaction per batch of 100 rows), and FTS5
kept up to date by triggers created before the load (`enable_fts(..., create_triggers=True)`)
on messages.text and on a table of failed tool results.

It extracts the same rows as pastfix (messages, tool calls, tool results, failed results
searchable) with the same 200,000-character cap on long text, so the two builds do
comparable work. Run it as a process so its wall time includes startup, like `pastfix build`:

    python benchmarks/naive.py naive.db --source CORPUS_DIR
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from sqlite_utils import Database

MAX_TEXT = 200_000


def iter_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for dirpath, _, filenames in os.walk(root):
        found.extend(Path(dirpath, f) for f in filenames if f.endswith(".jsonl"))
    return sorted(found)


def flatten(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, dict) and block.get("type") in ("image", "document"):
                parts.append(f"[{block.get('type')}]")
            else:
                parts.append(json.dumps(block))
        return "\n".join(parts)
    return "" if content is None else json.dumps(content)


def cap(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:150_000] + "\n[...]\n" + text[-50_000:]


def parse_file(path: Path) -> tuple[list[dict], list[dict], list[dict]]:
    """The message, tool call and tool result rows of one transcript file."""
    messages: list[dict] = []
    calls: list[dict] = []
    results: list[dict] = []
    default_session = path.stem
    with open(path, encoding="utf-8", errors="replace") as f:
        for line_no, line in enumerate(f, 1):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict) or obj.get("type") not in ("user", "assistant", "system"):
                continue
            uuid = obj.get("uuid")
            if not uuid:
                continue
            session_id = obj.get("sessionId") or default_session
            timestamp = obj.get("timestamp")
            texts = []
            message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
            content = message.get("content") if message else obj.get("content")
            if isinstance(content, str):
                texts.append(content)
            elif isinstance(content, list):
                for block in content:
                    if not isinstance(block, dict):
                        continue
                    kind = block.get("type")
                    if kind == "text":
                        texts.append(block.get("text") or "")
                    elif kind == "thinking":
                        texts.append(block.get("thinking") or "")
                    elif kind == "tool_use":
                        tool_input = block.get("input") or {}
                        calls.append(
                            {
                                "tool_use_id": block.get("id"),
                                "session_id": session_id,
                                "line_no": line_no,
                                "message_uuid": uuid,
                                "timestamp": timestamp,
                                "name": block.get("name"),
                                "command": tool_input.get("command"),
                                "file_path": tool_input.get("file_path"),
                                "input": cap(json.dumps(tool_input)),
                            }
                        )
                    elif kind == "tool_result":
                        results.append(
                            {
                                "tool_use_id": block.get("tool_use_id"),
                                "session_id": session_id,
                                "line_no": line_no,
                                "message_uuid": uuid,
                                "timestamp": timestamp,
                                "is_error": 1 if block.get("is_error") else 0,
                                "content": cap(flatten(block.get("content"))),
                            }
                        )
            messages.append(
                {
                    "uuid": uuid,
                    "session_id": session_id,
                    "line_no": line_no,
                    "parent_uuid": obj.get("parentUuid"),
                    "type": obj.get("type"),
                    "timestamp": timestamp,
                    "text": cap("\n\n".join(texts)),
                    "is_sidechain": 1 if obj.get("isSidechain") else 0,
                    "model": message.get("model") if message else None,
                    "cwd": obj.get("cwd"),
                    "git_branch": obj.get("gitBranch"),
                    "version": obj.get("version"),
                }
            )
    return messages, calls, results


def create_schema(db: Database) -> None:
    db.table("messages").create(
        {
            "uuid": str,
            "session_id": str,
            "line_no": int,
            "parent_uuid": str,
            "type": str,
            "timestamp": str,
            "text": str,
            "is_sidechain": int,
            "model": str,
            "cwd": str,
            "git_branch": str,
            "version": str,
        },
        pk="uuid",
    )
    db.table("tool_calls").create(
        {
            "tool_use_id": str,
            "session_id": str,
            "line_no": int,
            "message_uuid": str,
            "timestamp": str,
            "name": str,
            "command": str,
            "file_path": str,
            "input": str,
        },
        pk="tool_use_id",
    )
    result_columns = {
        "tool_use_id": str,
        "session_id": str,
        "line_no": int,
        "message_uuid": str,
        "timestamp": str,
        "is_error": int,
        "content": str,
    }
    db.table("tool_results").create(result_columns, pk="tool_use_id")
    db.table("tool_errors").create(result_columns, pk="tool_use_id")
    db.table("messages").enable_fts(["text"], create_triggers=True)
    db.table("tool_errors").enable_fts(["content"], create_triggers=True)


def build(db_path: Path, root: Path) -> dict[str, int]:
    """Index every transcript under `root` into a new database at `db_path`."""
    db = Database(db_path, recreate=True)
    create_schema(db)
    counts = {"files": 0, "messages": 0, "tool_calls": 0, "tool_results": 0, "failed": 0}
    for path in iter_files(root):
        messages, calls, results = parse_file(path)
        db.table("messages").insert_all(messages, ignore=True)
        db.table("tool_calls").insert_all(calls, ignore=True)
        db.table("tool_results").insert_all(results, ignore=True)
        errors = [r for r in results if r["is_error"]]
        db.table("tool_errors").insert_all(errors, ignore=True)
        counts["files"] += 1
        counts["messages"] += len(messages)
        counts["tool_calls"] += len(calls)
        counts["tool_results"] += len(results)
        counts["failed"] += len(errors)
    db.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db_path", type=Path)
    parser.add_argument("--source", type=Path, required=True)
    args = parser.parse_args()
    started = time.perf_counter()
    counts = build(args.db_path, args.source)
    print(json.dumps({**counts, "seconds": round(time.perf_counter() - started, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
