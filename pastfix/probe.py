"""`pastfix probe`: how well each search path finds the session of a past failure.

The measurement behind the failed-result index, run on the user's own index.
Error identifiers are sampled from failed tool results (IDENTIFIERS says which),
and every (identifier, session holding it) pair asks three search paths whether
their first page (PAGE rows) shows that session:

- messages_fts: the message text alone (prompts, replies, thinking);
- tool_errors_fts: failed tool output, rows ranked by bm25, one per failure;
- find_past_fix: the canned query, one row per session and signature.

Each pair is `right` (the session is on the page), `wrong_only` (the page shows
other sessions only) or `absent` (the page is empty). A second measure pastes
failures' key lines, once as recorded and once with their paths, numbers and
ids changed, their whole output (as people paste an error), and their key line
among other words (a timestamp, a question, a hint line), and counts how often the
failure's own session comes first. It samples failures whose key line
only one session has, so "its own session" is the one right answer as recorded
and whole; other sessions may have the same signature (the look-alikes that
find_past_fix must rank after the text itself). With the paths and numbers
changed, a look-alike that differs from it only in those is as good an answer:
that column counts how often the own session still comes first.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable
from typing import Any

from pastfix import queries, signatures
from pastfix.patterns import lazy

DEFAULT_SAMPLE = 200
# The rows of a first page, for every search path.
PAGE = queries.FIND_LIMIT

# Errno names of POSIX and Node.js, matched as whole words.
_ERRNO = (
    "ENOENT EACCES EISDIR ENOTDIR EEXIST EPERM ENOTEMPTY EADDRINUSE EADDRNOTAVAIL ECONNREFUSED"
    " ECONNRESET ECONNABORTED ETIMEDOUT EHOSTUNREACH ENETUNREACH EPIPE EMFILE ENFILE ENOSPC"
    " EROFS EBUSY EAGAIN EINVAL ENOTFOUND EAI_AGAIN ELOOP ENAMETOOLONG EXDEV ENOMEM ENOEXEC"
    " ERR_MODULE_NOT_FOUND ERR_REQUIRE_ESM ERR_INVALID_ARG_TYPE ERR_UNKNOWN_FILE_EXTENSION"
).split()
# Messages Claude Code and common tools write the same way every time.
_PHRASES = (
    "File does not exist",
    "File has not been read yet",
    "File has been modified since read",
    "String to replace not found",
    "Sibling tool call errored",
    "command not found",
    "No such file or directory",
    "Permission denied",
    "Command timed out",
    "has no upstream branch",
    "Cannot find module",
    "not a git repository",
    "Address already in use",
    "Connection refused",
    "exceeds maximum allowed",
    "Module not found",
)
# How identifiers are recognised in failed output (documented in the README).
IDENTIFIERS: list[tuple[str, re.Pattern[str]]] = [
    ("errno", lazy(r"\b(?:" + "|".join(_ERRNO) + r")\b")),
    # Exception and error class names: TypeError, JSONDecodeError, InputValidationError
    ("exception", lazy(r"\b[A-Z][A-Za-z0-9]*[a-z0-9](?:Error|Exception)\b")),
    ("compiler code", lazy(r"\berror (?:TS|CS)\d{4}\b|\berror\[E\d{4}\]")),
    ("exit code", lazy(r"\bExit code \d+\b")),
    ("phrase", lazy("|".join(re.escape(p) for p in _PHRASES), re.IGNORECASE)),
]
# A phrase is counted once however it is capitalised.
_CANONICAL = {p.lower(): p for p in _PHRASES}
# Enough of a long output to find its identifiers.
_SCAN_CHARS = 20_000

_FAILURES_SQL = (
    "select tr.id, tr.session_id, tr.content, tr.signature from tool_results tr"
    " indexed by idx_tr_errors where tr.is_error = 1 order by tr.id"
)
_MESSAGES_SQL = f"""
select m.session_id from messages_fts f join messages m on m.id = f.rowid
where messages_fts match safe_fts(:q, 'all', 'text') order by f.rank limit {PAGE}
"""
_TOOL_ERRORS_SQL = f"""
select tr.session_id from tool_errors_fts f join tool_results tr on tr.id = f.rowid
where tool_errors_fts match safe_fts(:q) order by f.rank, tr.timestamp desc limit {PAGE}
"""

PATHS = ("messages_fts", "tool_errors_fts", "find_past_fix")
# What is pasted of a failure: its key line as recorded, with other paths and numbers, its
# whole output, and its key line among other words (WORDS_AROUND).
VARIANTS = ("recorded", "changed", "whole", "in words")
# How people paste a key line among other words: after a log's timestamp, inside a
# question, above a hint line. Each failure gets one, in turn.
WORDS_AROUND = (
    "2026-03-04T05:06:07.890Z {}",
    "getting this error: {} - any idea?",
    "{}\nhint: see the output above for details",
)


def identifiers(text: str) -> set[str]:
    """The error identifiers in a failure's output."""
    text = text[:_SCAN_CHARS]
    found = {m.group(0) for _, pattern in IDENTIFIERS for m in pattern.finditer(text)}
    return {_CANONICAL.get(ident.lower(), ident) for ident in found}


def search_paths(conn: sqlite3.Connection) -> dict[str, Callable[[str], list[str]]]:
    """For each search path, a function from typed text to the sessions of its first page."""

    def column(sql: str) -> Callable[[str], list[str]]:
        return lambda text: [row[0] for row in conn.execute(sql, {"q": text})]

    def find(text: str) -> list[str]:
        return [row["session_id"] for row in queries.find_past_fix(conn, text, PAGE)]

    return {
        "messages_fts": column(_MESSAGES_SQL),
        "tool_errors_fts": column(_TOOL_ERRORS_SQL),
        "find_past_fix": find,
    }


_DIRS = lazy(r"(?<![\w.])/(?:[\w.@+-]+/)+")
# Numbers that differ between sightings: not error codes (TS2339, Errno 2, Exit code 1,
# os error 2) nor versions.
_NUMBER = lazy(r"(?<![\w.-])(?<!code )(?<!Errno )(?<!error )(?<!status )\d+(?![\w.])")
_HEX = lazy(r"\b[0-9a-f]{7,}\b")


def change_details(line: str) -> str:
    """`line` as it might read on another day: other directories, numbers and ids."""
    line = _DIRS.sub("/srv/elsewhere/checkout/", line)
    line = _HEX.sub(lambda m: "".join("abcdef0123456789"[int(c, 16)] for c in m.group(0)), line)
    return _NUMBER.sub(lambda m: str(int(m.group(0)) * 7 + 3), line)


def probe(conn: sqlite3.Connection, sample: int = DEFAULT_SAMPLE, seed: int = 0) -> dict[str, Any]:
    """Sample identifiers and failures from the index and score every search path."""
    rng = random.Random(seed)
    failures = conn.execute(_FAILURES_SQL).fetchall()
    pairs = sorted(
        {(ident, session) for _, session, text, _ in failures for ident in identifiers(text or "")}
    )
    if len(pairs) > sample:
        pairs = sorted(rng.sample(pairs, sample))
    paths = search_paths(conn)
    counts = {path: {"right": 0, "wrong_only": 0, "absent": 0} for path in PATHS}
    found: dict[tuple[str, str], list[str]] = {}
    for ident, session in pairs:
        for path in PATHS:
            if (path, ident) not in found:
                found[(path, ident)] = paths[path](ident)
            sessions = found[(path, ident)]
            outcome = "right" if session in sessions else ("wrong_only" if sessions else "absent")
            counts[path][outcome] += 1
    result: dict[str, Any] = {"pairs": len(pairs)}
    for path in PATHS:
        result[path] = {k: _share(v, len(pairs)) for k, v in counts[path].items()}
    result["first"] = _first_place(failures, paths, rng, sample)
    return result


def _first_place(
    failures: list[tuple[int, str, str, str | None]],
    paths: dict[str, Callable[[str], list[str]]],
    rng: random.Random,
    sample: int,
) -> dict[str, Any]:
    """How often a pasted key line (or whole error) finds its failure's own session first."""
    lines = [
        (session, signatures.key_line(text or ""), text or "")
        for _, session, text, sig in failures
        if sig
    ]
    sessions_of: dict[str, set[str]] = {}
    for session, line, _ in lines:
        sessions_of.setdefault(line, set()).add(session)
    # One failure per key line, among those only one session has.
    chosen: dict[str, tuple[str, str, str]] = {}
    for session, line, text in lines:
        if len(sessions_of[line]) == 1 and line not in chosen and any(ch.isalnum() for ch in line):
            chosen[line] = (session, line, text)
    picked = list(chosen.values())
    if len(picked) > sample:
        picked = rng.sample(picked, sample)
    first = {path: dict.fromkeys(VARIANTS, 0) for path in PATHS}
    for n, (session, line, whole) in enumerate(picked):
        around = WORDS_AROUND[n % len(WORDS_AROUND)].format(line)
        pasted = {
            "recorded": line,
            "changed": change_details(line),
            "whole": whole,
            "in words": around,
        }
        for variant, text in pasted.items():
            for path in PATHS:
                top = paths[path](text)[:1]
                first[path][variant] += top == [session]
    result: dict[str, Any] = {"failures": len(picked)}
    for path in PATHS:
        result[path] = {k: _share(v, len(picked)) for k, v in first[path].items()}
    return result


def _share(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


def format_table(result: dict[str, Any]) -> str:
    """The probe's result as a plain-text table."""
    lines = [
        f"{result['pairs']:,} (identifier, session) pairs: is the session on the first page?",
        "",
        f"{'search path':<17}{'right session':>15}{'other sessions':>16}{'nothing':>9}",
    ]
    for path in PATHS:
        shares = result[path]
        lines.append(
            f"{path:<17}{shares['right']:>15.1%}{shares['wrong_only']:>16.1%}"
            f"{shares['absent']:>9.1%}"
        )
    first = result["first"]
    lines += [
        "",
        f"{first['failures']:,} failures' key lines (and whole errors) pasted:"
        " is their own session first?",
        "",
        f"{'search path':<17}{'as recorded':>13}{'paths, numbers changed':>24}{'whole error':>13}"
        f"{'among other words':>19}",
    ]
    for path in PATHS:
        shares = first[path]
        lines.append(
            f"{path:<17}{shares['recorded']:>13.1%}{shares['changed']:>24.1%}"
            f"{shares['whole']:>13.1%}{shares['in words']:>19.1%}"
        )
    return "\n".join(lines)
