"""One session spread over thousands of files, each appended to (issue 10, defect 11).

    python benchmarks/spread_session.py [--files 5000] [--spread 2500] [--work-dir DIR]

Writes --files small transcript files, --spread of them subagent files of one session
and the rest sessions of their own; times a fresh build, appends one line to each of
the --spread files, and times the incremental build that reads them, then a fresh
build of the grown corpus for comparison. Prints the three timings.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pastfix import build as pbuild  # noqa: E402

SESSION = "5e55104e-0000-4000-8000-000000000000"


def _line(session: str, uuid: str, text: str, ts: str, agent: str | None = None) -> str:
    line = {
        "type": "user",
        "uuid": uuid,
        "sessionId": session,
        "timestamp": ts,
        "cwd": "/home/dev/app",
        "isSidechain": agent is not None,
        "agentId": agent,
        "message": {"role": "user", "content": text},
    }
    return json.dumps(line) + "\n"


def write_corpus(root: Path, files: int, spread: int) -> list[Path]:
    project = root / "-home-dev-app"
    subagents = project / SESSION / "subagents"
    subagents.mkdir(parents=True)
    grown = []
    for i in range(files):
        if i < spread:
            path = subagents / f"agent-{i:05d}.jsonl"
            session, agent = SESSION, f"{i:05d}"
            grown.append(path)
        else:
            session, agent = f"00000000-0000-4000-8000-{i:012d}", None
            path = project / f"{session}.jsonl"
        ts = f"2026-01-01T10:{i // 3600 % 60:02d}:{i % 60:02d}Z"
        with open(path, "w") as f:
            for n in range(5):
                f.write(_line(session, f"u-{i}-{n}", f"line {n} of file {i}", ts, agent))
    return grown


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--spread", type=int, default=2500)
    parser.add_argument("--work-dir", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(dir=args.work_dir))
    try:
        projects = work / "projects"
        grown = write_corpus(projects, args.files, args.spread)
        db = work / "index.db"
        t = time.perf_counter()
        pbuild.build(db, [projects])
        fresh = time.perf_counter() - t
        for i, path in enumerate(grown):
            with open(path, "a") as f:
                f.write(_line(SESSION, f"extra-{i}", "appended", "2026-01-02T00:00:00Z", "x"))
        t = time.perf_counter()
        stats = pbuild.build(db, [projects])
        incremental = time.perf_counter() - t
        assert stats.files_read == len(grown), stats
        db.unlink()
        t = time.perf_counter()
        pbuild.build(db, [projects])
        fresh_after = time.perf_counter() - t
        print(
            f"{args.files} files, {args.spread} of one session appended:"
            f" fresh {fresh:.2f}s, incremental {incremental:.2f}s,"
            f" fresh of the grown corpus {fresh_after:.2f}s"
        )
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
