"""Build time, index size and query latency per FTS5 tokenizer (issue 13).

    python benchmarks/tokenizers.py --mb 100

Builds the generated corpus once per tokenizer (a fresh build with --tokenizer), then
switches a unicode61 index to trigram (the FTS tables rebuilt from the stored rows),
and times find_past_fix and search_messages on inputs sampled from the index, plus
short words that trigram answers through its LIKE fallback.
"""

import argparse
import sqlite3
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import run  # noqa: E402

from pastfix import queries  # noqa: E402

TOKENIZERS = ("unicode61", "porter", "ascii", "trigram")
# Words under three characters (the LIKE fallback under trigram), alone and with a long one.
SHORT = [{"q": "io"}, {"q": "db"}, {"q": "fs error"}, {"q": "go module"}]


def fts_mb(db: Path) -> dict[str, float]:
    with sqlite3.connect(db) as conn:
        return {
            table: conn.execute(
                "SELECT sum(pgsize) FROM dbstat WHERE name LIKE ? || '%'", [table]
            ).fetchone()[0]
            / 1e6
            for table in ("messages_fts", "tool_errors_fts")
        }


def latency(db: Path, name: str, inputs: list[dict[str, str]], runs: int) -> tuple[float, float]:
    """Median and p95 in ms of the canned query `name` over `inputs`, warm."""
    conn = queries.connect(db)
    samples = []
    for params in inputs:
        queries.run(conn, name, **params)
        for _ in range(runs):
            started = time.perf_counter()
            queries.run(conn, name, **params)
            samples.append((time.perf_counter() - started) * 1000)
    conn.close()
    return statistics.median(samples), run.percentile(samples, 95)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--work-dir", type=Path, default=HERE / ".work")
    args = parser.parse_args()
    work = args.work_dir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    corpus = run.cached_corpus(
        work, f"corpus-{args.mb:g}mb-seed0", seed=0, target_bytes=int(args.mb * 1e6)
    )
    print(
        "| tokenizer | fresh build (s) | DB (MB) | messages_fts (MB) | tool_errors_fts (MB)"
        " | find_past_fix median / p95 (ms) | search_messages median / p95 (ms)"
        " | short words median / p95 (ms) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    inputs = None
    for tokenizer in TOKENIZERS:
        db = work / f"tok-{tokenizer}.db"
        run.remove_db(db)
        run.settle()
        proc, _ = run.pastfix_build(db, corpus, "--tokenizer", tokenizer)
        if inputs is None:
            inputs = run.sample_inputs(db, args.samples, 0)
        sizes = fts_mb(db)
        fix = latency(db, "find_past_fix", inputs["find_past_fix"], args.runs)
        search = latency(db, "search_messages", inputs["search_messages"], args.runs)
        short = latency(db, "search_messages", SHORT, args.runs)
        print(
            f"| {tokenizer} | {proc.wall:.1f} | {run.db_bytes(db) / 1e6:.0f}"
            f" | {sizes['messages_fts']:.1f} | {sizes['tool_errors_fts']:.2f}"
            f" | {fix[0]:.1f} / {fix[1]:.1f} | {search[0]:.1f} / {search[1]:.1f}"
            f" | {short[0]:.1f} / {short[1]:.1f} |",
            flush=True,
        )
    db = work / "tok-unicode61.db"
    run.settle()
    proc, stats = run.pastfix_build(db, corpus, "--tokenizer", "trigram")
    print(
        f"\nSwitching the unicode61 index to trigram: {proc.wall:.1f} s"
        f" (files read: {stats['files_read']}), {run.db_bytes(db) / 1e6:.0f} MB after."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
