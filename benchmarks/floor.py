"""The floor: the least a Python indexer of these transcripts must do (issue 19).

Each line decoded by msgspec into a typed Struct of only the fields kept (the rest skipped
in C), the text of its messages and tool results extracted, `executemany` of those rows per
file into a plain SQLite file (no secondary index, no unique key, journal and sync off, one
transaction), and one FTS5 'rebuild' over messages.text at the end. Nothing else: no tool
calls, sessions, redaction, signatures, problems, caps or incremental bookkeeping. It is
what `pastfix build` is compared with ("Full build / floor" in docs/benchmarks.md), so the
ratio says what pastfix's extra work costs on the same corpus in the same run. One process:
the forked helper of `pastfix build` is part of what is measured against it.

`--plain` is the same pipeline written without tuning: each line decoded into dicts
(`msgspec.json.decode`), SQLite left at its defaults (page size, rollback journal, sync,
cache), the garbage collector on. It is not the yardstick; it shows how much of the ratio
the floor's own tuning accounts for (run.py --plain-floor).

    python benchmarks/floor.py floor.db --source CORPUS_DIR [--plain]
"""

from __future__ import annotations

import argparse
import gc
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import msgspec


class Block(msgspec.Struct):
    type: Any = None
    text: Any = None
    thinking: Any = None
    tool_use_id: Any = None
    content: Any = None
    is_error: Any = None


class Message(msgspec.Struct):
    content: str | list[Block] | None = None


class Line(msgspec.Struct):
    type: Any = None
    uuid: Any = None
    sessionId: Any = None
    timestamp: Any = None
    message: Message | None = None


decode = msgspec.json.Decoder(Line).decode
PRAGMAS = ("page_size=8192", "journal_mode=OFF", "synchronous=OFF", "cache_size=-131072")
SCHEMA = """
CREATE TABLE messages (id INTEGER PRIMARY KEY, uuid TEXT, session_id TEXT, line_no INTEGER,
    type TEXT, timestamp TEXT, text TEXT);
CREATE TABLE tool_results (id INTEGER PRIMARY KEY, tool_use_id TEXT, session_id TEXT,
    line_no INTEGER, is_error INTEGER, content TEXT);
CREATE VIRTUAL TABLE messages_fts USING fts5(text, content="messages", content_rowid="id");
"""


def result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and "text" in b)
    return ""


def parse(data: bytes, session: str) -> tuple[list[tuple], list[tuple]]:
    messages: list[tuple] = []
    results: list[tuple] = []
    for line_no, line in enumerate(data.split(b"\n"), 1):
        try:
            obj = decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if obj.type not in ("user", "assistant") or obj.message is None:
            continue
        sid = obj.sessionId or session
        content = obj.message.content
        texts: list[str] = []
        if isinstance(content, str):
            texts.append(content)
        elif content:
            for b in content:
                if b.type == "text" and isinstance(b.text, str):
                    texts.append(b.text)
                elif b.type == "thinking" and isinstance(b.thinking, str):
                    texts.append(b.thinking)
                elif b.type == "tool_result":
                    error = 1 if b.is_error is True else 0
                    text = result_text(b.content)
                    results.append((b.tool_use_id, sid, line_no, error, text))
        row = (obj.uuid, sid, line_no, obj.type, obj.timestamp, "\n\n".join(texts))
        messages.append(row)
    return messages, results


def parse_plain(data: bytes, session: str) -> tuple[list[tuple], list[tuple]]:
    """parse(), each line decoded into dicts and lists instead of typed structs."""
    messages: list[tuple] = []
    results: list[tuple] = []
    for line_no, line in enumerate(data.split(b"\n"), 1):
        try:
            obj = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue
        if not isinstance(obj, dict) or obj.get("type") not in ("user", "assistant"):
            continue
        message = obj.get("message")
        if not isinstance(message, dict):
            continue
        sid = obj.get("sessionId") or session
        content = message.get("content")
        texts: list[str] = []
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for b in content:
                if not isinstance(b, dict):
                    continue
                kind = b.get("type")
                if kind == "text" and isinstance(b.get("text"), str):
                    texts.append(b["text"])
                elif kind == "thinking" and isinstance(b.get("thinking"), str):
                    texts.append(b["thinking"])
                elif kind == "tool_result":
                    error = 1 if b.get("is_error") is True else 0
                    text = result_text(b.get("content"))
                    results.append((b.get("tool_use_id"), sid, line_no, error, text))
        row = (obj.get("uuid"), sid, line_no, obj["type"], obj.get("timestamp"), "\n\n".join(texts))
        messages.append(row)
    return messages, results


def build(db_path: Path, root: Path, plain: bool = False) -> dict[str, int]:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(db_path, isolation_level=None)
    if not plain:
        gc.disable()
        for pragma in PRAGMAS:
            conn.execute(f"PRAGMA {pragma}")
    read = parse_plain if plain else parse
    conn.executescript(SCHEMA)
    conn.execute("BEGIN")
    counts = {"files": 0, "messages": 0, "tool_results": 0}
    for path in sorted(root.rglob("*.jsonl")):
        messages, results = read(path.read_bytes(), path.stem)
        conn.executemany(
            "INSERT INTO messages (uuid, session_id, line_no, type, timestamp, text)"
            " VALUES (?,?,?,?,?,?)",
            messages,
        )
        conn.executemany(
            "INSERT INTO tool_results (tool_use_id, session_id, line_no, is_error, content)"
            " VALUES (?,?,?,?,?)",
            results,
        )
        counts["files"] += 1
        counts["messages"] += len(messages)
        counts["tool_results"] += len(results)
    conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")
    conn.execute("COMMIT")
    conn.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db_path", type=Path)
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument(
        "--plain", action="store_true", help="decode into dicts, SQLite at its defaults"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    counts = build(args.db_path, args.source, args.plain)
    print(json.dumps({**counts, "seconds": round(time.perf_counter() - started, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
