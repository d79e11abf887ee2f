"""Whether two indexes store the same rows, table by table (for changes meant to be faster only).

    python benchmarks/same_rows.py before.db after.db

Every table of sqlite_master, FTS5 shadow tables included (their segments must come out
the same too), is read in primary-key order (else rowid order) and hashed; so is the schema. The
columns that say when a build ran (source_files.indexed_at, _sqlite_migrations.applied_at,
the time and duration in _build_state's last_build) are left out. Exits 1 and names the
tables that differ.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys

# Columns that hold the time of the build, not what it read.
WHEN = {"source_files": {"indexed_at"}, "_sqlite_migrations": {"applied_at"}}
# The keys of _build_state's last_build record that say when and how long (pastfix status).
LAST_BUILD_WHEN = ("at", "seconds")


def _without_when(name: str, row: tuple) -> tuple:
    """`row` of table `name` without what says when the build ran."""
    if name == "_build_state" and row[0] == "last_build":
        record = json.loads(row[1])
        for key in LAST_BUILD_WHEN:
            record.pop(key, None)
        return (row[0], json.dumps(record, sort_keys=True), *row[2:])
    return row


def table_hashes(path: str) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    hashes: dict[str, str] = {}
    schema = hashlib.blake2b(digest_size=16)
    names = []
    for kind, name, sql in conn.execute(
        "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
    ):
        schema.update(repr((kind, name, sql)).encode())
        if kind == "table" and not (sql or "").upper().startswith("CREATE VIRTUAL"):
            names.append(name)
    hashes["(schema)"] = schema.hexdigest()
    for name in names:
        info = conn.execute(f"PRAGMA table_info([{name}])").fetchall()
        columns = [r[1] for r in info if r[1] not in WHEN.get(name, set())]
        keys = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        # By primary key: the rowids of `sessions` follow the order of a Python set,
        # which differs from run to run.
        order = ", ".join(f"[{k}]" for k in keys) if keys else "rowid"
        digest = hashlib.blake2b(digest_size=16)
        count = 0
        picked = ", ".join(f"[{c}]" for c in columns)
        for row in conn.execute(f"SELECT {picked} FROM [{name}] ORDER BY {order}"):
            digest.update(repr(_without_when(name, row)).encode())
            count += 1
        hashes[name] = f"{digest.hexdigest()} ({count} rows)"
    conn.close()
    return hashes


def main() -> int:
    a, b = (table_hashes(p) for p in sys.argv[1:3])
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for name in differ:
        print(f"differs: {name}: {a.get(name)} / {b.get(name)}")
    if not differ:
        print(f"same rows in all {len(a) - 1} tables, and the same schema")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
