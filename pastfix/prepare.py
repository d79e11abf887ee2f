"""The pure step between reading a transcript and writing its rows.

Every reader's records pass through prepare() once, in the process that parsed
them, before they are saved: what is derived from the text is computed here,
the same way whichever agent wrote the transcript. Secrets are redacted first,
so that nothing derived (error signatures) holds one either.
"""

from __future__ import annotations

from typing import Any

from pastfix import signatures
from pastfix.records import Batch, Redaction

# The text columns of each record, redacted in place, and the field that names the row.
TEXT_FIELDS = {
    "messages": ("uuid", ("text",)),
    "tool_calls": ("tool_use_id", ("command", "file_path", "description", "input")),
    "tool_results": ("tool_use_id", ("content",)),
    "session_meta": ("session_id", ("value",)),
    "problems": (None, ("excerpt",)),
}


def prepare(batch: Batch, *, redact_secrets: bool = True) -> Batch:
    """Redact secrets in every text (unless told not to), then sign every failed tool result."""
    if redact_secrets:
        for table, rows in (
            ("messages", batch.messages),
            ("tool_calls", batch.tool_calls),
            ("tool_results", batch.tool_results),
            ("session_meta", batch.meta),
            ("problems", batch.problems),
        ):
            _redact_rows(rows, table, batch.redactions)
    results = batch.tool_results
    for i, result in enumerate(results):
        if result.is_error:
            results[i] = result._replace(
                signature=signatures.signature(result.content),
                kind=signatures.classify(result.content),
            )
    return batch


def _redact_rows(rows: list[Any], table: str, found: list[Redaction]) -> None:
    """Redact the text columns of `rows` in place; add what was replaced to `found`."""
    # Imported on first use: a build that finds nothing changed (the hook's refresh at
    # the end of every session) does not compile the patterns (~20 ms).
    from pastfix.redact import redact

    key, columns = TEXT_FIELDS[table]
    for i, row in enumerate(rows):
        changed: dict[str, str] = {}
        for column in columns:
            value = getattr(row, column)
            if not value:
                continue
            text, kinds = redact(value)
            if kinds:
                changed[column] = text
                row_key = getattr(row, key) if key else None
                found += [
                    Redaction(table, row_key, row.line_no, column, kind, n)
                    for kind, n in sorted(kinds.items())
                ]
        if changed:
            rows[i] = row._replace(**changed)
