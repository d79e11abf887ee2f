"""The no-change refresh and the hook, before and after the archive of issue 20.

    python benchmarks/archive.py --before /tmp/pf-before --rounds 3

`--before` is a tree of the pastfix to compare with (`git archive <commit> | tar -x -C
DIR`); the other is this checkout. Both run through PYTHONPATH, which costs every
import of a process a lookup there (~20 ms a process here: leaving it out of one
side only showed a 24 ms "gain"). Each round times both,
in alternating order (the machine is shared): `measure_refresh` of run.py (a
no-change refresh over the ~1,000-file refresh corpus, and 1 MB appends), then a
no-change refresh of the same corpus with a third of its files deleted (which only
the archive keeps), then `measure_hook` on an index of ../shared/corpus/real.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import run  # noqa: E402  the harness, beside this file

CHECKOUT = Path(__file__).parent.parent
REAL = CHECKOUT.parent / "shared" / "corpus" / "real" / "projects"


def with_tree(tree: str | None) -> None:
    """Run the pastfix of `tree` (None: this checkout) in the processes started from now."""
    os.environ["PYTHONPATH"] = tree or str(CHECKOUT)


def archived_refresh(corpus: Path, work: Path, runs: int) -> list[float]:
    """No-change refreshes (ms) once a third of the corpus's files are deleted."""
    live, db = work / "gone", work / "gone.db"
    shutil.rmtree(live, ignore_errors=True)
    shutil.copytree(corpus, live, copy_function=os.link)
    run.remove_db(db)
    run.pastfix_build(db, live)
    for path in run.jsonl_files(live)[::3]:
        path.unlink()
    run.pastfix_build(db, live)  # finds them gone
    run.settle()
    walls = []
    for _ in range(runs):
        proc, stats = run.pastfix_build(db, live)
        assert stats["files_read"] == 0, stats
        walls.append(proc.wall * 1000)
    return walls


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="tree of the pastfix to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/pf-archive-bench"))
    args = parser.parse_args()
    work = args.work_dir
    work.mkdir(parents=True, exist_ok=True)
    corpus = run.cached_corpus(work, "sessions-450-seed1", seed=1, sessions=450)
    results: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for i in range(args.rounds):
        order = [("before", args.before), ("after", None)]
        for name, tree in order if i % 2 == 0 else order[::-1]:
            with_tree(tree)
            mine = work / name
            mine.mkdir(exist_ok=True)
            got = results[name]
            rows = run.measure_refresh(corpus, mine, args.runs)
            got.setdefault("no-change", []).append(rows[0].value() or 0)
            got.setdefault("append", []).append(rows[1].value() or 0)
            got.setdefault("no-change, a third gone", []).append(
                statistics.median(archived_refresh(corpus, mine, args.runs))
            )
            if REAL.is_dir():
                db = mine / "real.db"
                run.remove_db(db)
                run.pastfix_build(db, REAL)
                hook = run.measure_hook(db, 20, 0, 2)
                got.setdefault("hook p50", []).append(hook[0].value() or 0)
    os.environ.pop("PYTHONPATH", None)
    for what in results["after"]:
        before = ", ".join(f"{v:.0f}" for v in results["before"][what])
        after = ", ".join(f"{v:.0f}" for v in results["after"][what])
        print(f"| {what} | {before} ms | {after} ms |")


if __name__ == "__main__":
    main()
