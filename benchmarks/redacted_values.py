"""Every value a build redacted, with its context, to check each one by hand.

    pastfix build raw.db --source DIR --no-redact
    pastfix build redacted.db --source DIR
    python benchmarks/redacted_values.py raw.db redacted.db

For each row and column the `redactions` table names, the text of the --no-redact build
is compared with the redacted one: each marker is printed with what it replaced and 40
characters either side. This is how the README's false-positive count of the real corpus
is made.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
from pathlib import Path

from pastfix.records import TABLE

_MARKER = re.compile(r"\[REDACTED:[a-z-]+\]")


def replaced(raw: str, redacted: str) -> list[tuple[str, str, str, str]]:
    """(marker, before, value, after) for each marker of `redacted`, `raw` being the original."""
    found = []
    at = 0  # position in raw of redacted[done:]
    done = 0
    for m in _MARKER.finditer(redacted):
        at += m.start() - done
        following = redacted[m.end() : m.end() + 20]
        end = raw.find(following, at) if following else len(raw)
        end = len(raw) if end < 0 else end
        found.append((m.group(), raw[max(0, at - 40) : at], raw[at:end], raw[end : end + 40]))
        at, done = end, m.end()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", type=Path, help="an index built with --no-redact")
    parser.add_argument("redacted", type=Path, help="the same transcripts, redacted")
    args = parser.parse_args()
    raw, new = sqlite3.connect(args.raw), sqlite3.connect(args.redacted)
    count = 0
    cells = new.execute("SELECT DISTINCT table_name, column_name, row_key FROM redactions")
    for table, column, row_key in cells:
        key = TABLE[table].key or "line_no"
        sql = f"SELECT [{column}] FROM [{table}] WHERE [{key}] = ?"
        for (a,), (b,) in zip(
            raw.execute(sql, [row_key]), new.execute(sql, [row_key]), strict=True
        ):
            for marker, before, value, after in replaced(a or "", b or ""):
                count += 1
                print(f"{table}.{column} {marker}: ...{before!r} [{value!r}] {after!r}...")
    print(f"{count} values redacted")


if __name__ == "__main__":
    main()
