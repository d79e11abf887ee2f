"""What the opencode reader's unit (a message file with its part files) costs a build.

    python benchmarks/opencode_tree.py [--parts 5000] [--per-message 5] [--sessions 10]

Writes a generated opencode JSON storage tree (opencode's own file layout, records shaped
like the real ones of ../shared/corpus/real/other-agents/opencode) with PARTS part files
in messages of PER_MESSAGE parts, then times, each in a fresh index:

- a fresh build of the tree;
- a no-change build (every file and companion stat()ed);
- a build after one part of one message was rewritten (opencode rewrites a part on each
  state change): one message re-read;
- the same tree as an opencode.db (the v1.2+ store, WAL mode): a fresh build, and a
  build after one row changed (the database is re-read whole).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from pastfix import build as pbuild  # noqa: E402

WORK = "/home/dev/app"


def write_tree(storage: Path, parts: int, per_message: int, sessions: int) -> list[Path]:
    """The tree; returns the part files written."""
    written: list[Path] = []
    messages = max(1, parts // per_message)
    per_session = max(1, messages // sessions)
    t = 1_764_265_000_000
    for m in range(messages):
        s = m // per_session
        sid = f"ses_{s:012x}ffeSESSIONSESSIO"
        if m % per_session == 0:
            info = {
                "id": sid,
                "version": "1.0.150",
                "projectID": "p1",
                "directory": WORK,
                "title": f"Session {s}",
                "time": {"created": t, "updated": t},
            }
            _write(storage / "session" / "p1" / f"{sid}.json", info)
        mid = f"msg_{m:012x}MESSAGEMESSAG"
        user = m % 2 == 0
        info = {
            "id": mid,
            "sessionID": sid,
            "role": "user" if user else "assistant",
            "time": {"created": t + m * 1000},
        }
        if not user:
            info.update(
                modelID="claude-sonnet-4-5",
                providerID="anthropic",
                path={"cwd": WORK, "root": WORK},
                finish="tool-calls",
            )
        _write(storage / "message" / sid / f"{mid}.json", info)
        for p in range(per_message):
            pid = f"prt_{m * per_message + p:012x}PARTPARTPART"
            base = {"id": pid, "sessionID": sid, "messageID": mid}
            if user or p == 0:
                part = {**base, "type": "text", "text": f"step {m}.{p}: " + "word " * 40}
            elif p == per_message - 1:
                part = {**base, "type": "step-finish", "reason": "tool-calls", "cost": 0}
            else:
                code = 1 if p % 3 == 0 else 0
                part = {
                    **base,
                    "type": "tool",
                    "callID": f"toolu_{pid}",
                    "tool": "bash",
                    "state": {
                        "status": "completed",
                        "input": {"command": f"npm test -- {m}", "description": "Run"},
                        "output": f"Error: Cannot find module 'mod{m % 50}'\n" * 3,
                        "title": "npm test",
                        "metadata": {"exit": code},
                        "time": {"start": t + m * 1000 + p, "end": t + m * 1000 + p},
                    },
                }
            path = storage / "part" / mid / f"{pid}.json"
            _write(path, part)
            written.append(path)
    return written


def _write(path: Path, obj: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2))


def copy_tree_into(conn: sqlite3.Connection, storage: Path) -> None:
    """The JSON tree's records as opencode 1.2's json-migration.ts copies them (the tests
    build their database fixtures with it too)."""
    for path in storage.glob("session/*/*.json"):
        s = json.loads(path.read_text())
        conn.execute(
            "INSERT INTO session (id, project_id, slug, directory, title, version, time_created,"
            " time_updated) VALUES (?, ?, '', ?, ?, ?, 0, 0)",
            [s["id"], s["projectID"], s["directory"], s["title"], s["version"]],
        )
    for path in storage.glob("message/*/*.json"):
        m = json.loads(path.read_text())
        ids = (m.pop("id"), m.pop("sessionID"))
        conn.execute("INSERT INTO message VALUES (?, ?, 0, 0, ?)", [*ids, json.dumps(m)])
    for path in storage.glob("part/*/*.json"):
        p = json.loads(path.read_text())
        ids = (p.pop("id"), p.pop("messageID"), p.pop("sessionID"))
        conn.execute("INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)", [*ids, json.dumps(p)])


def tree_to_db(storage: Path, db: Path) -> sqlite3.Connection:
    schema = (Path(__file__).parent.parent / "tests/data/opencode/opencode.sql").read_text()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(schema.split("INSERT INTO")[0])
    conn.execute("BEGIN")
    copy_tree_into(conn, storage)
    conn.execute("COMMIT")
    return conn


def timed(label: str, index: Path, source: Path) -> None:
    start = time.perf_counter()
    stats = pbuild.build(index, [source])
    ms = (time.perf_counter() - start) * 1000
    read = getattr(stats, "files_read", "?")
    print(f"{label:<44} {ms:8.0f} ms  files read {read}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", type=int, default=5000)
    parser.add_argument("--per-message", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        top = Path(scratch)
        data = top / "opencode"
        parts = write_tree(data / "storage", args.parts, args.per_message, args.sessions)
        print(f"{len(parts)} parts in {len(parts) // args.per_message} messages")
        index = top / "tree.db"
        timed("JSON tree: fresh build", index, data)
        timed("JSON tree: no-change build", index, data)
        middle = parts[len(parts) // 2]
        middle.write_text(middle.read_text().replace("step", "Step"))
        timed("JSON tree: one part rewritten", index, data)
        store = top / "sqlite"
        store.mkdir()
        conn = tree_to_db(data / "storage", store / "opencode.db")
        index = top / "db.db"
        timed("opencode.db: fresh build", index, store)
        timed("opencode.db: no-change build", index, store)
        conn.execute("UPDATE session SET title = 'Renamed' WHERE rowid = 1")
        timed("opencode.db: one row changed (in the WAL)", index, store)
        conn.close()


if __name__ == "__main__":
    main()
