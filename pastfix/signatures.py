"""Error signatures and harness-noise kinds of failed tool results: pure functions.

A signature is the key line of a failure (the line that names the error, not
the command's echo or the warnings before it) with everything that differs
between two sightings of the same bug replaced by placeholders: paths, numbers,
ids, hashes, ports, timestamps, durations, temp dirs and quoted values. The
build stores one on every failed tool result; find_past_fix normalises pasted
text the same way, so today's error finds last month's.

A kind tells a real failure (`error`) from what Claude Code itself reports:
a rejected or interrupted call, a cancelled sibling, a file not read first.

Bump SIGNATURE_VERSION whenever key_line(), normalise() or classify() change:
the next build then recomputes every stored signature and kind.
"""

from __future__ import annotations

import re

SIGNATURE_VERSION = 1

# Signatures longer than this are cut: a key line is a line, not a log.
MAX_SIGNATURE = 300

ERROR = "error"
# Kinds of failure that Claude Code itself produces, in the order they are tested.
KINDS = (
    "rejected",
    "interrupted",
    "sibling_error",
    "not_read",
    "permission_denied",
    "hook_blocked",
    "timeout",
    "string_not_found",
    "input_validation",
    ERROR,
)


def key_line(text: str) -> str:
    """The most informative line of a failure's output (stub: the last non-empty line)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def normalise(line: str) -> str:
    """`line` with the details that differ between sightings replaced (stub)."""
    line = re.sub(r"\d+", "N", line)
    return line[:MAX_SIGNATURE]


def signature(text: str) -> str:
    """The signature of a failure's output: its key line, normalised."""
    return normalise(key_line(text))


def classify(text: str) -> str:
    """The kind of a failure: ERROR, or one of the harness kinds in KINDS (stub)."""
    return ERROR
