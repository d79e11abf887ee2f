"""The pure step between reading a transcript and writing its rows.

Every reader's records pass through prepare() once, in the process that parsed
them, before they are saved: what is derived from the text is computed here,
the same way whichever agent wrote the transcript.
"""

from __future__ import annotations

from pastfix import signatures
from pastfix.transcripts import Batch


def prepare(batch: Batch) -> Batch:
    """Give every failed tool result its signature and kind."""
    results = batch.tool_results
    for i, result in enumerate(results):
        if result.is_error:
            results[i] = result._replace(
                signature=signatures.signature(result.content),
                kind=signatures.classify(result.content),
            )
    return batch
