"""redact() alone, in one process, over every stored text of an index.

    python benchmarks/redaction.py benchmarks/.work/full.db

Reads the text columns that the build redacts (messages, tool calls, tool results) from
an index, then times `redact()` and its anchor scan (`anchors_in()`) over all of them,
best of three, in CPU seconds. The index's texts are already redacted; an index built
with --no-redact gives the same timings when it holds no secret, as the generated
corpora do.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from pastfix.prepare import TEXT_FIELDS
from pastfix.redact import anchors_in, redact

TABLES = ("messages", "tool_calls", "tool_results")


def texts(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [
            value
            for table in TABLES
            for column in TEXT_FIELDS[table][1]
            for (value,) in conn.execute(f"select [{column}] from [{table}]")
            if value
        ]


def best_of_three(function: Callable[[str], object], values: list[str]) -> float:
    timings = []
    for _ in range(3):
        started = time.process_time()
        for value in values:
            function(value)
        timings.append(time.process_time() - started)
    return min(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, help="a pastfix index")
    values = texts(parser.parse_args().db)
    print(f"{len(values):,} texts, {sum(map(len, values)) / 1e6:.1f} M characters")
    print(f"redact():     {best_of_three(redact, values):.2f} s")
    print(f"anchors_in(): {best_of_three(anchors_in, values):.2f} s")


if __name__ == "__main__":
    main()
