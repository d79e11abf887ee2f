"""Whether transcripts read in appends store what one fresh build of them stores.

    python benchmarks/append_check.py CORPUS... [--points 7] [--tree DIR] [--against DIR]

For each corpus, each transcript (`.jsonl`) is cut at `--points` lines in turn: just after
a failed tool result (the first, and one in its middle), at a fifth, four fifths and half
of its lines (a turn's middle, mostly), after its last failed result and two lines before
its end (most windows closed before the new lines). For each point, the files cut there are
built fresh, then the rest of every file is appended in two steps, each followed by
`pastfix build`; the index is then compared, table by table, with a fresh build of the
whole files: fixes, tool_calls, tool_results, problems and sessions, every column but the
rows' own ids (a file's id as its path; each row as a digest). Prints the differences;
exits 1 if any. With `--tree`, the builds import pastfix from that folder, and the
failures whose rows an append kept (db._kept_by_append) are counted; with `--against
TREE`, where the appends differ from the fresh build, they are compared with that tree's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

TABLES = ("fixes", "tool_calls", "tool_results", "problems", "sessions")
# Run as `pastfix build`, counting the failures an append kept, where the tree has the rule.
DRIVER = """
import sys
from pastfix import cli, db
kept = [0]
rule = getattr(db, "_kept_by_append", None)
if rule is not None:
    def counted(*args, **kwargs):
        found = rule(*args, **kwargs)
        kept[0] += len(found)
        return found
    db._kept_by_append = counted
try:
    cli.cli(sys.argv[1:], standalone_mode=False)
finally:
    print(f"kept {kept[0]}", file=sys.stderr)
"""


def build(python: str, tree: str, db: Path, source: Path) -> int:
    env = {**os.environ, "HOME": str(db.parent / "home"), "PYTHONPATH": tree}
    done = subprocess.run(
        [python, "-c", DRIVER, "build", str(db), "--source", str(source), "-s"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=db.parent,
    )
    if done.returncode:
        sys.exit(f"build failed: {done.stderr[-2000:]}")
    kept = [line for line in done.stderr.splitlines() if line.startswith("kept ")]
    return int(kept[-1].split()[1]) if kept else 0


def rows(db: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(db)
    paths = dict(conn.execute("SELECT id, path FROM source_files"))
    found = {}
    for table in TABLES:
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info([{table}])") if r[1] != "id"]
        got = []
        for row in conn.execute(f"SELECT {', '.join(columns)} FROM [{table}]"):
            named = tuple(
                paths.get(value, value) if name == "file_id" else value
                for name, value in zip(columns, row, strict=True)
            )
            # (a digest, the first columns to name it: a large corpus's outputs are gigabytes)
            digest = hashlib.blake2b(repr(named).encode(), digest_size=16).hexdigest()
            got.append((repr(named[:3])[:200], digest))
        found[table] = sorted(got)
    conn.close()
    return found


def cut_points(lines: list[bytes], points: int) -> list[int]:
    """Where to cut a file's lines (how many to keep), `points` of them at most."""
    failed = [
        n + 1 for n, line in enumerate(lines) if b'"is_error":true' in line.replace(b" ", b"")
    ]
    picks = [failed[0], failed[len(failed) // 2]] if failed else []
    picks += [len(lines) * k // 5 for k in (1, 4)] + [len(lines) // 2]
    # near the end: most failures' windows closed before the new lines
    picks += [failed[-1], len(lines) - 2] if failed else [len(lines) - 2]
    found = []
    for n in picks:
        if 0 < n < len(lines) and n not in found:
            found.append(n)
    return found[:points]


def appended(
    python: str, tree: str, db: Path, source: Path, files: dict, cuts: dict, point: int
) -> tuple[dict[str, list[tuple]], int, int]:
    """The rows of an index of the files cut at `point`, their rest appended in two steps
    (each file whole again afterwards); how many files were cut, and failures kept."""
    rest = {}
    for name, lines in files.items():
        at = cuts[name]
        if not at:
            continue
        n = at[min(point, len(at) - 1)]
        (source / name).write_bytes(b"".join(lines[:n]))
        rest[name] = lines[n:]
    build(python, tree, db, source)
    kept = 0
    for step in range(2):
        for name, tail in rest.items():
            half = (len(tail) + 1) // 2
            part = tail[:half] if step == 0 else tail[half:]
            with open(source / name, "ab") as f:
                f.write(b"".join(part))
        kept += build(python, tree, db, source)
    return rows(db), len(rest), kept


def compare(label: str, got: dict, want: dict, against: str) -> int:
    """Print how the tables of `got` differ from `want`'s; how many differ."""
    differences = 0
    for table in TABLES:
        if got[table] != want[table]:
            extra = set(got[table]) - set(want[table])
            lost = set(want[table]) - set(got[table])
            differences += 1
            print(f"{label}: {table} differs: {len(extra)} rows not in {against},"
                  f" {len(lost)} of it missing")  # fmt: skip
            for row in sorted(extra)[:3]:
                print("  +", repr(row)[:300])
            for row in sorted(lost)[:3]:
                print("  -", repr(row)[:300])
    return differences


def check(corpus: Path, points: int, python: str, tree: str, other: str | None) -> int:
    work = Path(tempfile.mkdtemp(prefix="append-check-"))
    differences = 0
    try:
        # (one folder for every build: the rows name their files by path)
        whole = work / "source"
        shutil.copytree(corpus, whole, symlinks=False)
        (work / "home").mkdir()
        fresh = work / "fresh.db"
        build(python, tree, fresh, whole)
        want = rows(fresh)
        files = {p.relative_to(whole): p.read_bytes().splitlines(keepends=True)
                 for p in whole.rglob("*.jsonl")}  # fmt: skip
        cuts = {name: cut_points(lines, points) for name, lines in files.items()}
        for point in range(points):
            label = f"{corpus} point {point}"
            got, cut, kept = appended(
                python, tree, work / f"cut{point}.db", whole, files, cuts, point
            )
            differ = compare(label, got, want, "the fresh build")
            print(f"{label}: {cut} files cut, {len(want['fixes'])} fixes, {kept} kept by"
                  f" appends, {'DIFFERENT' if differ else 'same'}", flush=True)  # fmt: skip
            differences += differ
            if other is not None and differ:
                theirs, _, _ = appended(
                    python, other, work / f"other{point}.db", whole, files, cuts, point
                )
                same = not compare(label, got, theirs, f"{other}'s appends")
                print(f"{label}: as {other}'s appends: {'same' if same else 'DIFFERENT'}")
    finally:
        shutil.rmtree(work)
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--points", type=int, default=7)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--against", help="another tree: where appends differ from a fresh"
                        " build, whether that tree's appends give the same rows")  # fmt: skip
    args = parser.parse_args()
    differences = sum(
        check(c, args.points, args.python, args.tree, args.against) for c in args.corpora
    )
    print(json.dumps({"differences": differences}))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
