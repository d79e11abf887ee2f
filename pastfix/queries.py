"""The SQL that answers questions about an index: canned queries and the session page.

One home for every query: the Datasette plugin serves CANNED_QUERIES, `pastfix
find` runs find_past_fix() on a plain sqlite3 connection, and the tests use
both. Nothing here imports click or datasette.

Typed text reaches FTS5 only through the SQL function safe_fts(), registered
by register_functions(): every word is quoted, so quotes, AND, NEAR(, col:x and
a bare '-' are matched as words and never raise a syntax error. Text that
starts with "raw:" is passed to FTS5 as a query expression when it parses, and
is matched as words when it does not.

Under the trigram tokenizer (`pastfix build --tokenizer trigram`) FTS5 matches
substrings, but only of three characters or more. fts_query() then gives FTS5
the longer words alone, and short_words() the others, which the queries check
with LIKE among the FTS5 candidates; when no word is long enough, a LIKE over
the newest rows, bounded by a LIMIT, answers instead (see search_messages and
find_past_fix). Under every other tokenizer fts_query() is safe_fts() and there
are no short words.
"""

from __future__ import annotations

import codecs
import functools
import html
import itertools
import json
import os
import posixpath
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from pastfix import LATEST_MIGRATION, agents, fixes, paths, signatures
from pastfix.patterns import lazy
from pastfix.records import (
    MAX_TEXT,
    PATCH_FILE,
    TEXT_HEAD,
    TEXT_TAIL,
    clean_text,
    valid_text,
    without_lone_surrogates,
)
from pastfix.times import EARLIEST_TIME as EARLIEST_TIME
from pastfix.times import FUTURE_SLACK as FUTURE_SLACK
from pastfix.times import known_time as known_time

RAW_PREFIX = "raw:"
# Words after this many are ignored: a pasted stack trace stays a fast query.
MAX_WORDS = 32
# A raw: expression with more words than this (operators included) is matched as
# words (MAX_WORDS of them), as one that does not parse is: FTS5 checks a NEAR
# group within one step of SQLite, which the time limit cannot stop. On
# ../shared/corpus/real NEAR(the x1000) takes one step of 2.6 s and 44 s in all;
# NEAR(the x63) 0.17 s in all.
RAW_MAX_WORDS = 64
_RAW_WORD = lazy(r"\w+")
# An FTS5 query that parses and matches nothing (an empty phrase).
MATCH_NOTHING = '"."'


# A claimed fix's fixed_at where the time of the call that confirmed it is not known (no
# timestamp, or `""`: a session read by its lines, db._by_place). fixed_at says whether a
# fix is claimed wherever it is read (a card, the hook, MCP, a page), and a NULL there made
# a fixed failure read "fixed: no" (a new user's try, nu48 finding 1); shown, it is no
# time (known_time), so "at an unknown time".
UNKNOWN_FIX_TIME = "unknown"
_FIXED_AT_SQL = f"coalesce(nullif({{t}}, ''), '{UNKNOWN_FIX_TIME}')"


# Whether the timestamp `{t}` is no time known_time takes: a future one, text that is none
# (`yesterday`; a letter sorts after a digit), none at all or one before EARLIEST_TIME
# (NULL, `""`, the epoch). SQL's sort key before the timestamp's own, so that these come
# last, not first among the latest (a NULL's sort key, NULL, came first: the card of a
# session without timestamps stood before the same fix's at a real time, nu48 finding 1).
LATER_THAN_KNOWN = (
    f"(coalesce({{t}} < '{EARLIEST_TIME:%Y-%m-%d}', 1)"
    f" or {{t}} > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+{FUTURE_SLACK.days} day'))"
)
_NO_TIME = datetime.min.replace(tzinfo=UTC)


def known_time_sql(timestamp: str | None) -> str:
    """known_time as SQL's `known_time(t)` sorts it: the time as ISO text in UTC, which sorts
    as the time does (`2026-02-12T21:03:00+00:00`, before `...21:03:00.5+00:00`), or
    `unknown`, after every one (a letter after a digit), when it is none.

    For a sort of every row's own time (the session page's conversation), where
    LATER_THAN_KNOWN's text comparison let `2026-13-45T99:99:99Z` stand among the real
    times and `yesterday` after them by its letters alone. One call a row: the session page
    of 764 messages (its largest of the real corpus and held-out sets 30-39) took 6.0-6.5
    ms sorted by the text, 9.3 ms so, 17-37 ms with two calls a row (`is null` first).
    """
    moment = known_time(timestamp)
    return moment.isoformat() if moment else "unknown"


# A session page's order: the known times in time order, then the rest (by id after it:
# as the transcript wrote them).
KNOWN_TIME_ORDER = "known_time({t})"


FIND_LIMIT = 20
# What a script may ask find_past_fix for with `limit`.
FIND_MAX = 200
# How long `pastfix find` waits for a build that locks the whole index (a fresh one).
BUSY_TIMEOUT = 5.0
# How long one canned query run outside Datasette (`pastfix find`, the MCP tools)
# may take before it is stopped: a `raw:` expression such as NEAR(the the ... x1000)
# ran 32.6 s, and the slowest canned query of the benchmarks takes ~50 ms.
# Datasette stops its own queries at its sql_time_limit_ms; the hook has a shorter limit.
TIME_LIMIT = 5.0
# SQLite virtual machine steps between two looks at the clock in run() (~0.1 ms of work).
PROGRESS_STEPS = 1000
# SQLite's longest LIKE pattern, in bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH).
LIKE_PATTERN_BYTES = 50_000
# find_past_fix's columns that hold JSON arrays (Datasette: add _json=<column> to decode).
JSON_COLUMNS = (
    "files_edited_after",
    "remedy",
    "fix_edits",
    "fix_calls",
    "next_calls",
    "shared_words",
)
# Tool calls that change a file, for "files edited afterwards": every agent's (pastfix.agents).
EDIT_TOOLS = tuple(sorted(fixes.EDIT_TOOLS))
EDIT_TOOLS_SQL = ", ".join(f"'{name}'" for name in EDIT_TOOLS)
# What find_past_fix shows of a fix: edits (with this much of their old and new text)
# and other calls.
FIX_EDITS = 5
FIX_CALLS = 10
FIX_TEXT_CHARS = 800
# Remedy steps `pastfix find` prints for a row (the JSON has them all), and changed
# lines of each edit step.
FIX_STEPS_SHOWN = 5
DIFF_SHOWN = 6
# The whole error as find_past_fix returns it, up to this many characters.
ERROR_CHARS = 3000
# The tables whose presence makes a database a pastfix index.
REQUIRED_TABLES = frozenset(
    {
        "sessions",
        "messages",
        "tool_calls",
        "tool_results",
        "messages_fts",
        "tool_errors_fts",
        "_sqlite_migrations",
    }
)


class NotAnIndex(Exception):
    """A database file that pastfix did not build: the message is meant for the user."""


# What every reading command says of a SQLite database that holds no index (another
# program's), and exits 1: `pastfix status` too.
NOT_AN_INDEX = "{path} is not a pastfix index (see `pastfix build --help`)"


class QueryError(Exception):
    """A query that cannot be answered as asked (too slow, a pattern too long): for the user."""


# -- safe_fts ---------------------------------------------------------------

_validator = sqlite3.connect(":memory:", check_same_thread=False)
_validator_lock = threading.Lock()
_COLUMN = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")


# Raw expressions up to this many characters are remembered by _parses (512 of
# them: at most ~1 MB); a longer one is checked each time. Whole 1 MB expressions
# in the cache took the MCP server from 69 to 273 MB after 200 of them.
PARSE_CACHE_CHARS = 2000


def _parses(expression: str, column: str) -> bool:
    """Whether `expression` is a valid FTS5 query for a table with one `column`."""
    if len(expression) <= PARSE_CACHE_CHARS:
        return _parses_cached(expression, column)
    return _check_parses(expression, column)


@functools.lru_cache(maxsize=512)
def _parses_cached(expression: str, column: str) -> bool:
    return _check_parses(expression, column)


def _check_parses(expression: str, column: str) -> bool:
    return _parse_error(expression, column) is None


def _parse_error(expression: str, column: str) -> str | None:
    """What FTS5 says of `expression` for a table with one `column`, when it does not parse."""
    if not _COLUMN.match(column):
        return f"no such column: {column}"
    with _validator_lock:
        table = f"check_{column}"
        _validator.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING fts5({column})")
        try:
            _validator.execute(f"SELECT 1 FROM {table} WHERE {table} MATCH ?", [expression])
        except sqlite3.Error as e:
            return str(e)
    return None


def _raw_expression(text: str) -> tuple[str, bool] | None:
    """A `raw:` text's FTS5 expression, and whether it has at most RAW_MAX_WORDS words (None:
    no raw text)."""
    stripped = text.lstrip()
    if stripped[: len(RAW_PREFIX)].lower() != RAW_PREFIX:
        return None
    expression = stripped[len(RAW_PREFIX) :].strip()
    found = itertools.islice(_RAW_WORD.finditer(expression), RAW_MAX_WORDS + 1)
    return expression, sum(1 for _ in found) <= RAW_MAX_WORDS


def raw_problem(text: str, column: str = "content") -> str | None:
    """Why a `raw:` text is matched as plain words (see safe_fts), said in one line; None
    when it is no raw text, or its expression is passed to FTS5 as written."""
    raw = _raw_expression(text)
    if raw is None:
        return None
    expression, small = raw
    if not expression:
        return "raw: is followed by no FTS5 expression (raw: ENOENT OR EISDIR)"
    if not small:
        return f"a raw: expression of more than {RAW_MAX_WORDS} words is matched as plain words"
    if _parses(expression, column):
        return None
    error = _parse_error(expression, column)
    return f"raw: FTS5 cannot parse the expression ({error}), so it is matched as plain words"


def _words(text: str) -> list[str]:
    # A word with no letter or digit holds no token for unicode61; as a phrase
    # it would only make the query fail to parse or match nothing.
    return [w for w in text.split() if any(ch.isalnum() for ch in w)][:MAX_WORDS]


def safe_fts(text: object, mode: str = "all", column: str = "content") -> str:
    """Turn typed text into an FTS5 query that always parses.

    mode "all": every word must appear (each word is a quoted phrase).
    mode "any": at least one word must appear; used as a fallback when "all"
    finds nothing, so a raw expression gives MATCH_NOTHING here.
    `column` is the FTS table's column, needed to check a raw expression.
    """
    text = ("" if text is None else str(text)).replace("\x00", " ")
    raw = _raw_expression(text)
    if raw is not None:
        expression, small = raw
        if expression and small and _parses(expression, column):
            return expression if mode == "all" else MATCH_NOTHING
        text = expression
    words = _words(text)
    if mode == "any" and len(words) < 2:
        return MATCH_NOTHING
    joiner = " OR " if mode == "any" else " "
    return joiner.join('"' + w.replace('"', '""') + '"' for w in words) or MATCH_NOTHING


# -- tokenizers --------------------------------------------------------------

# The index's FTS5 tokenizer (db.set_tokenizer records it), as an SQL expression.
TOKENIZER_SQL = (
    "(select coalesce(max(value), 'unicode61') from _build_state where name = 'tokenizer')"
)
# trigram indexes runs of three characters: a shorter word holds none.
TRIGRAM_MIN = 3
# The rows a LIKE answers at most when no word of a query is long enough for trigram.
FALLBACK_LIMIT = 1000


def is_trigram(tokenizer: object) -> bool:
    return str(tokenizer or "").split()[:1] == ["trigram"]


def _is_raw(text: str) -> bool:
    return text.lstrip()[: len(RAW_PREFIX)].lower() == RAW_PREFIX


def _split_words(text: object, tokenizer: object) -> tuple[str, list[str]]:
    """The text FTS5 can match under `tokenizer`, and the words it cannot (trigram only)."""
    text = "" if text is None else str(text)
    if not is_trigram(tokenizer) or _is_raw(text):
        return text, []
    words = _words(text.replace("\x00", " "))
    long = [w for w in words if len(w) >= TRIGRAM_MIN]
    return " ".join(long), [w for w in words if len(w) < TRIGRAM_MIN]


def fts_query(text: object, mode: str, column: str, tokenizer: object) -> str:
    """safe_fts() of the words of `text` that the tokenizer can match (see the module doc)."""
    return safe_fts(_split_words(text, tokenizer)[0], mode, column)


def short_words(text: object, tokenizer: object) -> str:
    """The words of `text` too short for the trigram tokenizer, as a JSON array."""
    return json.dumps(_split_words(text, tokenizer)[1], ensure_ascii=False)


# The markers FTS5's snippet() puts around matches (private-use characters, which
# text does not hold), so that a literal `<mark>` in the text stays text: see snippet_html().
SNIPPET_OPEN, SNIPPET_CLOSE = "\ue000", "\ue001"
SNIPPET_MARKS_SQL = f"char({ord(SNIPPET_OPEN)}), char({ord(SNIPPET_CLOSE)})"


# Markdown marks that read as noise in a snippet of a message: bold, code fences and ticks.
_SNIPPET_MARKUP = lazy(r"\*\*|__|`+")


def snippet_html(snippet: object) -> str:
    """An FTS5 snippet() made with the SNIPPET_ markers, as HTML: escaped, matches in <mark>,
    without the Markdown marks of bold and code (`**Note:**` reads as Note:)."""
    plain = _SNIPPET_MARKUP.sub("", snippet if isinstance(snippet, str) else "")
    escaped = html.escape(plain)
    return escaped.replace(SNIPPET_OPEN, "<mark>").replace(SNIPPET_CLOSE, "</mark>")


def text_snippet(text: object, query: object) -> str:
    """snippet_html() for a row found by LIKE: the text around the first word of `query`
    found in it, HTML-escaped, those words marked with <mark>."""
    text = text if isinstance(text, str) else ""
    found = _words_pattern(query, substrings=True)
    first = found.search(text) if found else None
    start = max(0, first.start() - 60) if first else 0
    piece = text[start : start + 160]
    piece = ("…" if start else "") + piece + ("…" if start + 160 < len(text) else "")
    return mark_words(piece, query, "<mark>", "</mark>", html.escape, substrings=True)


def _short_words_in(column: str, words: str) -> str:
    """SQL: `column` holds every word of the JSON array `words` (short_words), any case."""
    word = _LIKE_LITERAL.format(param="w.value")
    return (
        f"({words} = '[]' or not exists (select 1 from json_each({words}) w"
        f" where {column} not like '%' || {word} || '%' escape '\\'))"
    )


# -- like_anchor --------------------------------------------------------------

# Printable ASCII from the most to the least frequent in tool output, letters of
# either case counted together: the higher of the frequencies measured over
# ../shared/corpus/real and over a synthetic benchmark corpus.
_BY_FREQUENCY = " etsroinacdlmpu._\"()h1f/g:,2-=93ybv4w{}506x7k8>'[];q`<j%z*|\\#@!+~?&$^"
_RARITY = {ch: -i for i, ch in enumerate(_BY_FREQUENCY)}
# A shorter anchor would let most rows through to the real LIKE.
_ANCHOR_MIN = 4
_ANCHOR_MAX = 1000


def like_anchor(text: object) -> str:
    """The end of `text` from a rare character on, escaped for LIKE ... ESCAPE '\\'.

    To match '%TypeError%', SQLite's LIKE stops at every 't' and 'T' of the
    haystack, a twentieth of it, and tries the rest of the pattern there;
    '%ypeError%' stops only at the y's. Every text that contains `text` contains
    its end, so `content LIKE '%' || like_anchor(:x) || '%'` is a prefilter for
    the real LIKE; it makes an unscoped scan of tool output 1.2-3x faster. The
    anchor keeps at least four characters. Characters outside ASCII (which LIKE
    matches slowly) and control characters rank as the most frequent.
    """
    if not isinstance(text, str) or not text:
        return ""
    last = max(0, len(text) - _ANCHOR_MIN)
    start = min(range(last + 1), key=lambda i: (_RARITY.get(text[i].lower(), 1), i))
    # a prefix of the end is in every text the end is in: a short pattern stays fast
    # (and within LIKE's limit)
    tail = text[start : start + _ANCHOR_MAX]
    return tail.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@functools.lru_cache(maxsize=512)
def _short_typed_title(agent: str | None, text: str) -> str | None:
    return agents.typed_title(agent, text)


def _typed_title(agent: str | None, text: str | None) -> str | None:
    """agents.typed_title, remembered for short prompts: find_past_fix's `turn_prompt` asks
    it of the same prompts for every failure of their session (a tenth of find's time)."""
    if text is None or len(text) > 2000:
        return agents.typed_title(agent, text)
    return _short_typed_title(agent, text)


def register_functions(conn: sqlite3.Connection, database_url: str = "/index") -> None:
    """Add the SQL functions the queries use to a connection.

    `database_url` is where the database is served (Datasette's /<name>), for the
    session links of find_past_fix.
    """
    # not deterministic: what is a time to come depends on the clock (FUTURE_SLACK)
    conn.create_function("known_time", 1, known_time_sql)
    conn.create_function("resume_command", 2, agents.resume_command, deterministic=True)
    conn.create_function("resume_command", 3, agents.resume_command, deterministic=True)
    conn.create_function("agent_label", 1, agents.label, deterministic=True)
    conn.create_function("typed_title", 2, _typed_title, deterministic=True)
    conn.create_function("short_reply", 1, agents.short_reply, deterministic=True)
    conn.create_function("turn_asked", 3, agents.turn_asked, deterministic=True)
    conn.create_function("safe_fts", 1, safe_fts, deterministic=True)
    conn.create_function("safe_fts", 2, safe_fts, deterministic=True)
    conn.create_function("safe_fts", 3, safe_fts, deterministic=True)
    conn.create_function("like_anchor", 1, like_anchor, deterministic=True)
    conn.create_function("call_input", 1, call_input, deterministic=True)
    conn.create_function("patch_of", 1, patch_of, deterministic=True)
    conn.create_function("failed_patch_file", 2, failed_patch_file, deterministic=True)
    conn.create_function("error_signature", 1, _text_of(signatures.signature), deterministic=True)
    conn.create_function("error_key_line", 1, _text_of(signatures.key_line), deterministic=True)
    conn.create_function("diagnosed_file", 1, _diagnosed_file, deterministic=True)
    conn.create_function("error_excerpt", 4, error_excerpt, deterministic=True)
    conn.create_function("error_excerpt", 5, error_excerpt, deterministic=True)
    conn.create_function("fts_query", 4, fts_query, deterministic=True)
    conn.create_function("short_words", 2, short_words, deterministic=True)
    conn.create_function("text_snippet", 2, text_snippet, deterministic=True)
    conn.create_function("plain_text", 2, plain_text, deterministic=True)
    conn.create_function("said_about", 5, said_about, deterministic=True)
    conn.create_function("snippet_html", 1, snippet_html, deterministic=True)
    conn.create_function("paste_text", 1, paste_text, deterministic=True)
    conn.create_function("bare_status", 1, bare_status, deterministic=True)
    conn.create_function("says_little", 1, says_little, deterministic=True)
    conn.create_function("says_little_matched", 1, says_little_matched, deterministic=True)
    conn.create_function("reads_as_prose", 1, reads_as_prose, deterministic=True)
    conn.create_function("holds_as_lines", 2, holds_as_lines, deterministic=True)
    conn.create_function("matched_text", 1, matched_text, deterministic=True)
    conn.create_function("exit_status", 1, _exit_status, deterministic=True)
    conn.create_function("pasted_error", 1, _pasted_error(index_redacts(conn)), deterministic=True)
    conn.create_function("required_words", 1, required_words, deterministic=True)
    conn.create_function("distinctive_words", 1, distinctive_words, deterministic=True)
    conn.create_function("any_word_query", 2, any_word_query, deterministic=True)
    conn.create_function("shared_words", 3, shared_words, deterministic=True)
    conn.create_function("only_file_names", 1, only_file_names, deterministic=True)
    conn.create_function("names_the_error", 3, names_the_error, deterministic=True)
    conn.create_function("names_apart", 2, names_apart, deterministic=True)
    conn.create_function("with_message_words", 3, with_message_words, deterministic=True)
    conn.create_function("same_text", 2, same_text, deterministic=True)
    conn.create_function("text_distance", 2, text_distance, deterministic=True)
    conn.create_function("other_folder", 2, other_folder, deterministic=True)
    conn.create_function("other_shell", 2, other_shell, deterministic=True)
    conn.create_function("another_value", 2, another_value, deterministic=True)
    conn.create_function("kept_set_aside", 1, _text_of(_kept_set_aside), deterministic=True)
    conn.create_function("diagnosed_elsewhere", 2, diagnosed_elsewhere, deterministic=True)
    conn.create_function("other_names", 3, other_names, deterministic=True)
    conn.create_function("fix_names_other", 3, fix_names_other, deterministic=True)
    conn.create_function("signature_in_text", 2, signature_in_text, deterministic=True)
    conn.create_function("signature_after_prefix", 2, signature_after_prefix, deterministic=True)
    conn.create_function("signature_goes_on", 2, signature_goes_on, deterministic=True)
    conn.create_function(
        "signature_loosely_in_text", 2, signature_loosely_in_text, deterministic=True
    )
    conn.create_function("signature_loosely_after", 2, signature_loosely_after, deterministic=True)
    conn.create_function("loose_signature", 1, _text_of(signatures.loose), deterministic=True)
    conn.create_function("its_file_is_the_error", 1, its_file_is_the_error, deterministic=True)
    conn.create_function("missing_elsewhere", 6, missing_elsewhere, deterministic=True)
    conn.create_function(
        "session_url",
        2,
        lambda session_id, call: session_path(database_url, str(session_id), call),
        deterministic=True,
    )


def index_redacts(conn: sqlite3.Connection) -> bool:
    """Whether the index's text was redacted when it was built (`_build_state`).

    False for a database that is not a pastfix index, and for an index built with
    --no-redact (or before redaction existed: its next build redacts it).
    """
    try:
        row = conn.execute("SELECT value FROM _build_state WHERE name = 'redact'").fetchone()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == "1"


def _pasted_error(redacts: bool) -> Callable[[object], str]:
    """pasted_error(:error) of an index: the pasted error as the index stores text.

    Where the index's text was redacted, a secret in a pasted error (the token of an npm
    401, the key of `Incorrect API key provided: sk-...`) is a marker in every failure
    stored: left as pasted, it would match neither their signature nor their words, and
    the error's own past session would not be found. Redacted by the same rules, any
    token of that kind matches. Elsewhere the error is matched as it was pasted.
    """

    # (remembered: find_past_fix's SQL asks it of the paste wherever it reads the paste, a
    # constant SQLite computes once in each part of the statement that reads it)
    @functools.lru_cache(maxsize=4)
    def call(value: object) -> str:
        text = "" if value is None else str(value)
        if not redacts or not text:
            return text
        from pastfix.redact import redact  # imported on first use: the hook starts faster

        return redact(text)[0]

    return call


def _exit_status(text: object) -> int | None:
    """signatures.exit_status of any SQL value."""
    return signatures.exit_status(text) if isinstance(text, str) else None


def _text_of(function: Callable[[str], str]) -> Callable[[object], str]:
    """`function` made safe for any SQL value: NULL and numbers are text too."""

    def call(value: object) -> str:
        return function("" if value is None else str(value))

    return call


# -- what find_past_fix computes per row ----------------------------------------

# Words of a pasted error, as FTS5's unicode61 tokenizer sees them.
_TOKEN = lazy(r"[^\W_]+")
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})
# Characters of context shown around a matched word that is not on the key line.
EXCERPT_CONTEXT = 100


# Words that say nothing about an error: never required, never marked, never what makes
# a near match (English function words; "no" and "not" too, which mark every key line).
STOP_WORDS = frozenset(
    """a about after all also am an and any are as at be been before being both but by can
    could did do does doing done for from had has have having he her here him his how i if in
    into is it its itself just me more most my no nor not now of off on once only or other
    our out over own same she should so some such than that the their them then there these
    they this those through to too under until up very was we were what when where which
    while who whom why will with would you your
    aren couldn didn doesn don hadn hasn haven isn shouldn wasn weren won wouldn d ll m re s t ve
    """.split()
)
# A near match (the error was not seen before) shares a name of the error found in at most
# this share of all failures (or in this many, in a small index): a rare identifier.
RARE_SHARE = 0.05
RARE_MIN_DOCS = 2
# Words of errors of every kind, and of paths, that no near match is worth showing for,
# however rare they are in one index (a small one has few failures to tell by).
GENERIC_WORDS = frozenset(
    """error errors err fatal fail failed failure failing warning warn exception cannot
    exit code status line file files directory path found exist exists invalid unable
    denied missing expected unexpected undefined null none nil true false value type main
    master origin head default local usr var bin lib src home tmp opt etc run com org net io
    www http https github gitlab yes
    node modules site packages pycache venv vendor appdata
    package json yaml yml toml lock txt md
    redacted""".split()
)
# (The line before the last: folders every project or machine has, `node_modules`,
# `site-packages`, `C:\Users`: a module not found under node_modules shared only that with
# the near matches a new user was shown, esbuild's and prisma's. The last: the manifests and
# lockfiles every project of a kind has, `package.json`, `pnpm-lock.yaml`: pnpm's outdated
# lockfile shared only those with a bash syntax error and a listing of a project. And the
# word of redact.MARKER, which a pasted error's secret turns into: `[REDACTED:url-password]`
# made near matches of failures that held another secret, session 27.)
# A name in a pasted error (distinctive_words): a word with a digit and a letter or an
# inner capital, words joined by `.`, `_`, `::`, `@` or `-<version>`, or a quoted value.
_NAME = lazy(
    r"(?P<joined>(?<![^\W_])[^\W_]+(?:(?:[._@]|::|-(?=\d))[^\W_]+)+)"
    r"|\b(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+\b"
    r"|\b[^\W_]+[A-Z][^\W_]*\b"
)
_QUOTED_NAME = lazy(
    r"'[^'\n]{1,80}'|\"[^\"\n]{1,80}\"|`[^`\n]{1,80}`|‘[^’\n]{1,80}’|“[^”\n]{1,80}”"
)
# A quoted value shorter than this ('app', 'x') is too common a word to be a name.
MIN_QUOTED = 4
_EDGES = lazy(r"^[\W_]+|[\W_]+$")
# A quoted value of more words than this is a sentence, not a name.
MAX_NAME_WORDS = 4
# Ids, not names: 0x7f3a9c2d, 0f3c9a1e.
_HEX_ID = lazy(r"0x[0-9a-f]+|(?=[a-f]*\d)[0-9a-f]{6,}")
# find_past_fix compares the key lines of this many matches at most with the pasted one
# (key_line() costs ~25 us a failure): the others rank after them in their class.
KEYED_ROWS = 200
# The text_distance of those others: more than any key line's.
UNKEYED_DISTANCE = 1_000_000
# Near matches shown at most when the error was not seen before.
NEAR_LIMIT = 3
# Kinds of failure whose message is the same whatever call failed: the user's stop (Gemini's
# `[Operation Cancelled] Reason: User cancelled the operation.`, Claude Code's `[Request
# interrupted by user]`), a sibling cancelled, a call the agent's tool could not get leave
# to run (auto mode's classifier down: signatures' `undecided`). Such a failure's outcome is
# its call's, so a fixed one does not stand for the others of its session
# (find_past_fix_sql).
NAMELESS_KINDS = ("rejected", "interrupted", "sibling_error", "undecided")
# A failure's next_text is what its agent said next within this many of its calls. Over the
# failures of sets 16-21 and the real corpus (session 27), a third of the next texts came 5
# or more calls on, and of 25 of those read, 22 were of other work (the summary at a
# session's end, the next task: what a new user saw in the hook); of 25 read 2 to 4 calls
# on, 15 of the 20 at 2 or 3 explained the failure or its fix, 1 of the 5 at 4. Of a failure
# got past, not after the call that got past it: of the 43 such next texts of nu42's index
# (of 188 fixed or worked around), about 35 were of other work (`Perfect! Now let me create a
# final comprehensive summary`, the next task, what that call's pytest printed: `Je dois lire
# le fichier generator.py` after PEP 668's venv, nu42 finding 11).
NEXT_TEXT_CALLS = 3
# A path's folders, which text_distance() does not count (other_folder() does): up to its
# last separator that a name follows (`'.vscode/'` is the folder's name).
_PATH_FOLDERS = lazy(r"^.*[/\\](?=.*\w)")
# Quote characters, set aside (not their contents) when a key line is compared with the paste.
_QUOTES = lazy(r"['\"`‘’“”]")


class NotText(Exception):
    """Piped bytes that hold no error's text (read_pasted)."""


NOT_TEXT = (
    "no error text on standard input: it holds binary data (or text in an encoding other"
    " than UTF-8 and UTF-16)"
)
# How much of piped bytes is looked at to tell their encoding and whether they are text.
PIPED_HEAD = 4096
# Byte order marks, and what Python decodes each with (dropping the mark).
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# What no text holds: C0 controls other than whitespace and ESC (ANSI colours), DEL, and
# U+FFFD (a byte that is no UTF-8). More than NOT_TEXT_SHARE of them, or a NUL, is no text.
_NOT_TEXT = lazy("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f\ufffd]")
_CONTROLS = lazy("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
NOT_TEXT_SHARE = 1 / 3


def read_pasted(data: bytes) -> str:
    """An error piped to `pastfix find -`, as text: decoded by its byte order mark (UTF-8,
    UTF-16 LE or BE: Windows PowerShell's `>` and `|` write UTF-16 LE with one), as UTF-16
    without one when NULs fill every other byte, else as UTF-8 (a byte that is none, of
    Latin-1 say, is U+FFFD as in stored text); newlines as a text stream reads them.
    NotText for binary data, which would otherwise be matched (and shown) byte by byte."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None)
    encoding = encoding or _utf16_without_bom(data[:PIPED_HEAD]) or "utf-8"
    try:
        # (valid text may hold U+FFFD itself: a stored output decoded wrongly, copied back)
        text, not_text = data.decode(encoding), _CONTROLS
    except UnicodeDecodeError:
        text, not_text = data.decode(encoding, "replace"), _NOT_TEXT
    head = text[:PIPED_HEAD]
    if "\x00" in head or len(not_text.findall(head)) > NOT_TEXT_SHARE * len(head):
        raise NotText(NOT_TEXT)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16's byte order when NULs fill at least half the byte pairs' one side (the high
    byte of ASCII text) and few of the other (that of U+0100, U+4E00 ...): binary data has
    them on both sides. None when they do not."""
    pairs = len(head) // 2
    even, odd = head[0 : pairs * 2 : 2].count(0), head[1::2].count(0)
    if 2 * odd >= pairs > 0 and 10 * even <= odd:
        return "utf-16-le"
    if 2 * even >= pairs > 0 and 10 * odd <= even:
        return "utf-16-be"
    return None


def pasted(text: str) -> str:
    """A pasted error as find reads it: valid_text, and one longer than a stored text can be
    (MAX_TEXT) read as its head and tail, where a stored text is cut (records.cap_text),
    without the marker, whose words are not the error's. Every word of the paste was read
    once per card and each stored signature looked for in all of it: a 9 MB log pasted
    into pastfix find ran past the 5 s limit, and 1 MB took 1.7 s. The same on a paste
    read so already (the CLI's, then find_past_fix's)."""
    text = valid_text(text)
    if len(text) <= MAX_TEXT:
        return text
    return f"{text[:TEXT_HEAD]}\n{text[-TEXT_TAIL:]}"


def paste_text(error: object) -> str:
    """Pasted text cleaned as stored text is: no ANSI escapes, `\\r` or trailing spaces."""
    text = clean_text("" if error is None else str(error))
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()


# A past failure's signature found inside a pasted error (after a timestamp, within a
# sentence, above a hint line: what people paste around it) names the same error when
# it says enough on its own: this many words of two letters or more outside its
# placeholders (`Exit code <n>` and `Error: <str>` do not).
IN_TEXT_MIN_WORDS = 3
_PLACEHOLDER = lazy(r"<[a-z]+>")
_LETTERS = lazy(r"[^\W\d_]{2,}")


@functools.lru_cache(maxsize=4)
def _pasted_lines(error: str) -> str:
    """The pasted error's lines, normalised, one text: a line break is no word character,
    so a signature (one line) found in it stands in one line."""
    return "\n".join(signatures.normalised_lines(paste_text(error)))


def signature_in_text(signature: object, error: object) -> int:
    """Whether a past failure's `signature` stands, as whole words, in a line of the pasted
    `error` normalised as signatures are (signatures.normalised_lines).

    find_past_fix asks it only of an error whose own signature and words match no
    failure, once for each signature of a failure in the index, and keeps the longest of
    those found (see find_past_fix_sql): most are not in the text, which one find() says.
    """
    if not isinstance(signature, str) or not signature or error is None:
        return 0
    text = _pasted_lines(str(error))
    return int(any(_stands_in(form, text) for form in _forms(signature)))


# Where a compiler's message says it was (`<path>:<n>:<n>: `, tsc's `<path>(<n>,<n>): `),
# which a paste of the message alone leaves out.
_PLACE = lazy(r"^<path>(?:\(<n>,<n>\)|:<n>(?::<n>)?):? +")


def another_value(signature: object, pasted: object) -> int:
    """1 when a failure's `signature` is the `pasted` error's but for a value the signature
    keeps (signatures.kept_set_aside): another module missing, another property read,
    another program's usage. Such a failure may hold every word of the paste, as the
    full-text index splits a name at `_` (`No module named 'pydantic_settings'` holds
    `pydantic`), but it is another error: no match by every word (a new user's `No module
    named 'pydantic'` was shown it as the error, session 34)."""
    if not isinstance(signature, str) or not isinstance(pasted, str) or signature == pasted:
        return 0
    aside = _kept_set_aside(pasted)
    return int(aside != pasted and _kept_set_aside(signature) == aside)


@functools.lru_cache(maxsize=4096)
def _kept_set_aside(signature: str) -> str:
    return signatures.kept_set_aside(signature)


@functools.lru_cache(maxsize=4096)
def its_file_is_the_error(signature: object) -> int:
    """1 when a failure's `signature` says that a file run was not there, that a shell
    could not run or write it, or that a file or folder was not there
    (signatures.its_file_is_the_error): found as the same error
    about another file, it is matched as one about other names (other_names), whose fix is
    not yours."""
    return int(isinstance(signature, str) and signatures.its_file_is_the_error(signature))


def _without_place(signature: str) -> str:
    """A signature without the place its message was said at, if it starts with one (`go
    test`'s `<path>:<n>:<n>: no required module provides package ...` pasted as its
    message: a new user's try, session 28); else as it is."""
    return _PLACE.sub("", signature, count=1) if signature.startswith("<path>") else signature


# What a signature may end with that a paste of its error leaves out: the `:` of a header
# whose lines followed (Codex's `Failed to find expected lines in <path>/a.md:`, then the
# lines), a sentence's `.`.
_END_MARK = ":;,."


@functools.lru_cache(maxsize=4096)
def _forms(signature: str) -> tuple[str, ...]:
    """The forms of a past failure's signature that may stand in a pasted text: as it is,
    without the place its message was said at (_without_place), and each without the
    punctuation it ends with (_END_MARK): pasted without Codex's trailing `:`, the same
    error about another file was "not seen before" (a new user's try, session 34)."""
    forms = (signature, _without_place(signature))
    return tuple(dict.fromkeys(forms + tuple(f.rstrip(_END_MARK) or f for f in forms)))


def _says_enough(signature: str) -> bool:
    """Whether a signature names an error on its own: IN_TEXT_MIN_WORDS words of two letters
    or more outside its placeholders (`Exit code <n>` and `Error: <str>` do not)."""
    return len(_LETTERS.findall(_PLACEHOLDER.sub(" ", signature))) >= IN_TEXT_MIN_WORDS


def signature_after_prefix(signature: object, pasted: object) -> int:
    """Whether a past failure's `signature` is the pasted error's signature after words a
    script printed before it (`Error creating snapshot: Error [ERR_MODULE_NOT_FOUND]: Cannot
    find module <str> imported from <path>`: the same Node error pasted alone was not seen
    before, a new user's try, session 27), there to its end or going on past the paste at a
    word's end as signature_goes_on reads it: a monorepo's `@astrolab/web:typecheck:
    <path>(<n>,<n>): error TS6059: File <str> is not under <str> <str>. <str> is expected to
    contain all source files.`, pasted as its first sentence alone, was "a different error"
    (nu43 finding 1). The pasted one must say enough on its own (IN_TEXT_MIN_WORDS words
    outside its placeholders)."""
    if not isinstance(signature, str) or not isinstance(pasted, str) or not pasted:
        return 0
    if not _after_words(signature, pasted):
        # the message of a JavaScript Error, which Node prints after its class (`Error:
        # Assertion Failed: ...`) and a script's wrapper after its own words (`Promise
        # rejected during <str>: Assertion Failed: ...`: the same error pasted as Node
        # printed it was not found, a new user's try, session 35)
        message = pasted.removeprefix(_JS_ERROR)
        if message == pasted or not _after_words(signature, message):
            return 0
        pasted = message
    return int(_says_enough(pasted))


def _after_words(signature: str, pasted: str) -> bool:
    """Whether `pasted` stands in `signature` after a `: ` (what a script said first), up to
    the signature's end or to a word's end there (_cut_at_word)."""
    said = ": " + pasted
    start = signature.find(said)
    while start >= 0:
        end = start + len(said)
        if end == len(signature) or _cut_at_word(signature, pasted, end):
            return True
        start = signature.find(said, start + 1)
    return False


def _cut_at_word(signature: str, pasted: str, end: int) -> bool:
    """Whether a paste that stops at `end` of a longer `signature` was cut where a word ends
    (`... was blocked.`), not inside one or a name (`cargo` of `cargo-nextest`)."""
    return not (_is_word_char(pasted[-1]) and _goes_on(signature, end))


_JS_ERROR = "Error: "


def signature_goes_on(signature: object, pasted: object) -> int:
    """Whether a past failure's `signature` is the pasted error's signature and more: the
    paste is the start of that error's line, cut at a word's end (`cd to '/x' was blocked.`,
    where Claude Code's line goes on `For security, ...`: a new user pasting the first
    sentence found nothing, session 28). The pasted one must say enough on its own."""
    if not isinstance(signature, str) or not isinstance(pasted, str) or not pasted:
        return 0
    if len(signature) <= len(pasted) or not signature.startswith(pasted):
        return 0
    if not _cut_at_word(signature, pasted, len(pasted)):
        return 0
    return int(_says_enough(pasted))


def signature_loosely_after(signature: object, pasted: object) -> int:
    """Whether a past failure's `signature` is the pasted error's signature after words a
    script printed before it (signature_after_prefix) or going on past it (signature_goes_on)
    once the files both name are set aside (signatures.loose): `GET <path>/budgets got HTTP
    <n>: Client network error`, pasted, is a YNAB sync's `... GET <path>/user got HTTP <n>:
    Client network error (error)` about another endpoint; it was "not seen before" (a new
    user's try, session 35)."""
    if not isinstance(signature, str) or not isinstance(pasted, str) or not pasted:
        return 0
    form, mine = _loose(signature), _loose(pasted)
    if form == signature and mine == pasted:
        return 0  # no file in either: looked for as they are
    return int(bool(signature_after_prefix(form, mine) or signature_goes_on(form, mine)))


@functools.lru_cache(maxsize=4096)
def _loose(signature: str) -> str:
    return signatures.loose(signature)


def signature_loosely_in_text(signature: object, error: object) -> int:
    """Whether a past failure's `signature` stands in a line of the pasted `error` with
    another file where it names one (signatures.loose: the same error about another
    file), as whole words. find_past_fix asks it only when no signature stands in the
    text as it is; most are not there, which the longest of its fixed parts says."""
    if not isinstance(signature, str) or not signature or error is None:
        return 0
    form = signatures.loose(signature)
    if form == signature:
        return 0  # looked for as it is already
    text = _pasted_lines(str(error))
    for each in _forms(form):
        if max(each.split("<path>"), key=len) not in text:
            continue
        if not _says_enough(each):
            continue
        if _loose_pattern(each).search(text):
            return 1
    return 0


# Where a loose signature says `<path>`, the pasted line may have any one name: a file,
# a folder, a path (`<path>/name` once normalised) or a quoted name (`<str>`).
_ANY_NAME = r"(?:<[a-z]+>[^\s:,;'\"()\[\]<>]*|[^\s:,;'\"()\[\]<>]+)"


@functools.lru_cache(maxsize=1024)
def _loose_pattern(form: str) -> re.Pattern[str]:
    """A loose signature as a pattern of whole words, `<path>` standing for any name."""
    body = _ANY_NAME.join(re.escape(part) for part in form.split("<path>"))
    before = r"(?<!\w)(?<!\w-)" if _is_word_char(form[0]) else ""
    after = r"(?![\w]|[-.]\w)" if _is_word_char(form[-1]) else ""
    return re.compile(before + body + after)


def _stands_in(signature: str, text: str) -> int:
    """Whether `signature` stands in `text` as whole words, saying enough on its own
    (IN_TEXT_MIN_WORDS)."""
    start = text.find(signature)
    if start < 0 or not _says_enough(signature):
        return 0
    first, last = _is_word_char(signature[0]), _is_word_char(signature[-1])
    while start >= 0:
        end = start + len(signature)
        if not (first and _goes_on_before(text, start)) and not (last and _goes_on(text, end)):
            return 1
        start = text.find(signature, start + 1)
    return 0


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


# What joins the parts of one name: `cargo-nextest`, `pytest-watch`, `python3.12`, and a
# module's `a.b`. A name that ends where one of these goes on to a word character is
# part of a longer one: `command not found: cargo` does not stand in `cargo-nextest:
# command not found`, another program (its fix was a shell that had cargo; a new user's
# made-up pastes, session 35). Before a name, only `-` joins: `java.lang.` before an
# exception's class names where it was thrown, the same error.
_NAME_JOINS = "-."


def _goes_on(text: str, end: int) -> bool:
    """Whether the word ending before `end` goes on at `end` (_NAME_JOINS)."""
    if end >= len(text):
        return False
    if _is_word_char(text[end]):
        return True
    return text[end] in _NAME_JOINS and end + 1 < len(text) and _is_word_char(text[end + 1])


def _goes_on_before(text: str, start: int) -> bool:
    """Whether the word starting at `start` goes on before it (`x` of `x-cargo`)."""
    if start <= 0:
        return False
    if _is_word_char(text[start - 1]):
        return True
    return text[start - 1] == "-" and start >= 2 and _is_word_char(text[start - 2])


def _is_stop_word(word: str) -> bool:
    """Whether a whitespace-separated word holds only stop words (`the`, `isn't`)."""
    return all(token.lower() in STOP_WORDS for token in _TOKEN.findall(word))


def required_words(error: object) -> str:
    """The words of a pasted error that a failure must all hold to match it by its words.

    Its stop words are left out, unless it has nothing else; raw: queries pass as they are.
    The words of a log's prefixes, a prompt's line and a traceback's frames are left out
    too, unless that leaves nothing (signatures.as_output).
    """
    text = paste_text(error)
    if _is_raw(text):
        return text
    words = signatures.as_output(text).split() or text.split()
    kept = [w for w in words if not _is_stop_word(w)]
    return " ".join(kept or words)


@functools.lru_cache(maxsize=64)
def distinctive_words(error: object) -> str:
    """The names in a pasted error that could make a near match, as a JSON array.

    Words with a digit and a letter (`E0502`, `TS2307`) or a capital after their first
    letter (`NoMethodError`, `EADDRINUSE`); names of several words joined by `.`, `_`, `::`
    or `@` (`java.lang`, `users_email_key`, `Gem::Ext`: each dotted prefix too) or with a
    version (`libgtk-3`); quoted values (`'tsconfig.json'`). Not stop words, GENERIC_WORDS,
    numbers or hex ids. Each once, at most MAX_WORDS; the query keeps those found in few
    failures (RARE_SHARE). FTS5 matches a name of several words as a phrase. Of an error
    pasted as several lines, the names of its key line only, which names the error: a
    traceback's `python3.12` of a frame's path, a test run's `ExUnit` and `max_cases` of its
    header, or npm's `store-dir` of a warning before `sh: 1: vite: not found` made near
    matches of failures that shared nothing else (a new user's tries, session 26).

    Not a value that differs between two sightings of one error, as a signature sets it
    aside (a duration, a size, a version: signatures.normalise leaves no word of it):
    `Compiled successfully in 2.3s` had a near match sharing `2.3s` (a new user's try, nu41
    finding 9). The error's exception class, a folder of its path and a file's name are
    names, but only of its kind or its place, and an account it quotes (_accounts) only
    of who ran it, which a near match may not share alone (names_the_error).
    """
    return json.dumps(list(_error_names(error)[0]), ensure_ascii=False)


@functools.lru_cache(maxsize=64)
def _error_names(
    error: object,
) -> tuple[tuple[str, ...], frozenset[str], str, frozenset[str]]:
    """distinctive_words of a pasted error; those of them that name only its kind or its
    place (lower-cased): its exception class (and the package it is in: `java.lang` of
    `java.lang.NullPointerException`), a folder of a path (`python3`, `sources.list.d`), or
    a file's name (`index.ts`, `main.rs`: a project has many, every project has one, and
    a failure about another of them is no kin of the error: nu43's TS6059 had a partial
    match of `sed: frontend/src/router/index.ts: No such file or directory`, a Rust panic
    at `src/main.rs:42:5` a `Get-Content` of another `main.rs`);
    the line they were read from, its paths' folders left out (signatures.without_folders);
    and the words of its exception class, which are no words of its message."""
    text = paste_text(error)
    if _is_raw(text):
        expression = text.lstrip()[len(RAW_PREFIX) :].strip()
        if expression and _parses(expression, "content"):
            return (), frozenset(), "", frozenset()  # an FTS5 expression: no near matches
        text = expression  # matched as words, as safe_fts() does
    elif "\n" in text:
        text = signatures.key_line(text) or text
    names, kinds = _names_in(text)
    line = signatures.without_folders(text)
    named = {name.lower() for name in _names_in(line)[0]}
    accounts = _accounts(text)
    weak = kinds | {
        name.lower()
        for name in names
        if name.lower() not in named or _FILE_NAME.search(name) or name.lower() in accounts
    }
    kind_words = frozenset(t for kind in kinds for t in _TOKEN.findall(kind))
    return names, frozenset(weak), line, kind_words


def _accounts(text: str) -> frozenset[str]:
    """The values a line quotes as an account, lower-cased: after a word that names one
    (`user 'root'`, `role "postgres"`, `owner 'www-data'`) or on either side of an `@`
    (MySQL's `'root'@'localhost'`). Whoever ran the command, on whichever machine: not what
    went wrong, and said by output of any kind (`ls -l` lists `root root`, a call passes
    `workspace_root`). MySQL's unseen `Access denied for user 'root'@'localhost'` had 3
    partial matches sharing only `root`: a git lock of a file root owned, a beads MCP
    workspace_root and a nix build (nu44 finding 5). Such a name is shared as a file's name
    is (names_the_error): with the words of the message."""
    found = set()
    for m in _QUOTED_NAME.finditer(text):
        before = text[max(0, m.start() - 24) : m.start()]
        if _ACCOUNT_WORD.search(before) or before.endswith("@") or text[m.end() :].startswith("@"):
            found.add(_EDGES.sub("", m.group(0)).lower())
    return frozenset(found)


# A word that names an account, right before the value a line quotes (_accounts).
_ACCOUNT_WORD = lazy(
    r"\b(?:user(?:name)?|role|login|owner|account|group)\s*[=:]?\s*$", re.IGNORECASE
)


def _names_in(text: str) -> tuple[tuple[str, ...], set[str]]:
    """The names of a line (see distinctive_words), and those that are an exception class
    (_KIND) or a package it is in, lower-cased."""
    names: dict[str, str] = {}  # each name once, however it is capitalised
    kinds: set[str] = set()
    for found in _NAME.finditer(text):
        if found.group("joined"):
            parts = re.split(r"(?<=[^\W_])(?=[.@]|::)", found.group("joined"))
            # A prefix of more parts than MAX_NAME_WORDS has more words too: never kept, and
            # joining every prefix of a.b.c... of 8,000 parts took 7 s.
            for end in range(min(2, len(parts)), min(len(parts), MAX_NAME_WORDS) + 1):
                name = "".join(parts[:end])
                names.setdefault(name.lower(), name)
                if _KIND.search(parts[-1]):  # `java.lang` of `java.lang.NullPointerException`
                    kinds.add(name.lower())
        else:
            names.setdefault(found.group(0).lower(), found.group(0))
            if _KIND.search(found.group(0)):
                kinds.add(found.group(0).lower())
    for found in _QUOTED_NAME.finditer(text):
        value = _EDGES.sub("", found.group(0))
        if len(value) >= MIN_QUOTED:
            names.setdefault(value.lower(), value)
    kept = list(
        itertools.islice(
            (
                name
                for name in names.values()
                if any(_distinctive_token(token) for token in _TOKEN.findall(name))
                and len(_TOKEN.findall(name)) <= MAX_NAME_WORDS
                # an acronym of three letters alone is a common word of the trade (`TLS`,
                # `API`, `JWT`): an Oracle `ORA-12154: TLS:could not resolve ...` was given
                # Dialyzer logs that mention TLS (a new user's F11, session 31); `ORA-12154`
                # is a name
                and not (len(name) <= 3 and name.isalpha() and name.isupper())
                and _names_something(name)
            ),
            MAX_WORDS,  # (the first ones only are judged: a log holds hundreds)
        )
    )
    return tuple(kept), kinds & {name.lower() for name in kept}


def _names_something(name: str) -> bool:
    """Whether a name is one still once a signature sets its values aside: not a duration,
    a size or a version alone (`2.3s`, `5MB`, `v1.2.3`: of two characters of it or fewer)."""
    kept = _PLACEHOLDER.sub(" ", signatures.normalise(name))
    return len("".join(_TOKEN.findall(kept))) >= 2


# An exception class, the kind of an error (signatures' `FooError:`, `** (FooError)`).
_KIND = lazy(r"^[A-Z]\w*(?:Error|Exception)$|(?<=[.:])[A-Z]\w*(?:Error|Exception)$")
# Of a near match that shares only the pasted error's exception class or its path's folders,
# the share of its message's words (names_the_error) that the failure's key line must hold.
MESSAGE_SHARE = 0.5


def names_the_error(key_line: object, content: object, error: object) -> int:
    """1 when a near match (a failure that shares a rare name of the pasted error, not its
    signature) shares something that names the error: a name of it other than its exception
    class, its path's folders and file names (_error_names), which it holds as a name (_names_it,
    not only as its paths' folders), or, when it shares those alone, the words
    of its message (MESSAGE_SHARE of them, on the failure's key line). A class is the kind
    of an error, not which one, and a folder where it happened: `TypeError: Cannot read
    properties of null (reading 'map')` had near matches of `TypeError: list indices must be
    integers ...` and `[TypeError: generate is not a function]`, `RuntimeError: Expected all
    tensors to be on the same device ...` Elixir's `** (RuntimeError) no :secret_key_base
    configuration found`, `java.lang.NullPointerException` a Gradle task's failure that
    mentions `java.lang`, and the `python3` of `(/usr/lib/python3/dist-packages/markupsafe/
    __init__.py)` `No module named pip` (a new user's tries, nu41 finding 9); `... of
    undefined (reading 'trim')` shares the message, and so does apt's `E: Malformed entry 1
    in list file <its sources.list.d>/github-cli.list`. 0 for a failure whose key line was
    not compared (KEYED_ROWS): of near matches, the first 200 by bm25 are."""
    names, weak, line, kind_words = _error_names(error)
    text = content if isinstance(content, str) else ""
    found = json.loads(shared_words(text, json.dumps(names)))
    shared = {name.lower() for name in found}
    quoted = _quoted_values(line)
    if any(
        name.lower() not in weak and _names_it(text, name, name.lower() in quoted) for name in found
    ):
        return 1
    if not shared or not isinstance(key_line, str):
        return 0
    message = _message_words(line) - kind_words
    said = _message_words(key_line)
    return int(bool(message) and len(message & said) >= MESSAGE_SHARE * len(message))


# The start and end of a text whose names names_apart compares (a log of any length).
APART_CHARS = 2048


def names_apart(content: object, error: object) -> int:
    """How far a failure's names are from the pasted error's (_names_in: files, modules,
    quoted values, codes), for the failures of one signature in one session, of which one
    card shows one: the paste's names it does not hold, and, when the paste names more than
    its key line does (a log pasted whole), its names the paste does not hold. quarto's
    `File references.bib not found in resource path`, met 3 times in one session as it
    rendered one file after another (`[ 4/12] docs/literature/annotated_bibliography.qmd`,
    then the error), pasted with the file it was rendering, had the card of the first,
    fixed in technical-plan.qmd (nu43 finding 6): the one that names the same files comes
    first, then the one fixed. A key line alone counts only what the failure lacks of it
    (`Property 'email' ...`, another occurrence about `'errors'`): other names elsewhere in
    a failure's output say nothing of it, and the one fixed soonest stays first."""
    if not isinstance(content, str) or error is None:
        return 0
    mine, key = _own_names(paste_text(str(error)))
    if not mine:
        return 0
    if not mine - key:
        # (found as written, not read as names: the cost of a few finds, where _names_in
        # over each failure of the groups made the real corpus's finds 60% slower)
        text = _bounded(content).lower()
        return sum(name not in text for name in mine)
    theirs = _text_names(content)
    return len(mine - theirs) + len(theirs - mine)


@functools.lru_cache(maxsize=4)
def _own_names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names of a pasted text (names_apart), and those of its key line, lower-cased."""
    key = signatures.key_line(text) if "\n" in text else text
    return _text_names(text), frozenset(n.lower() for n in _names_in(key or text)[0])


def _text_names(text: str) -> frozenset[str]:
    """The names of a text's first and last APART_CHARS (_names_in), lower-cased."""
    return frozenset(name.lower() for name in _names_in(_bounded(text))[0])


def _bounded(text: str) -> str:
    """A text's first and last APART_CHARS."""
    if len(text) > 2 * APART_CHARS:
        return text[:APART_CHARS] + "\n" + text[-APART_CHARS:]
    return text


def _names_it(text: str, name: str, quoted: bool) -> bool:
    """Whether a failure's text holds a name of the pasted error as a name of its own (as
    shared_words finds it), not only as a part of a path or a file's name (_in_a_path): a
    folder of a path, which a traceback's frames name by the dozen
    (`.venv/lib/python3.13/site-packages`: 3 near matches of `E: Unable to locate package
    python3.13-venv` shared nothing else, the rule of the paste's own folders), or a file's
    base name (PowerShell's `Cannot bind parameter 'Index'` had 3 near matches of zsh's `no
    matches found: web/src/.../index.tsx`, nu48 finding 8); a value the paste quotes
    (`quoted`) as written, its words joined as there: `user.id` of a SELECT, which FTS5
    matches as the phrase `user id`, is no `"user_id"`, a column (a new user's tries, nu42
    finding 5). A name that is itself a path (`'src/app'`) is found in paths too."""
    if quoted:
        phrase = re.escape(name)
    else:
        phrase = r"[\W_]+".join(re.escape(t) for t in _TOKEN.findall(name))
    a_path = "/" in name or "\\" in name
    for m in re.finditer(rf"(?<![^\W_]){phrase}(?![^\W_])", text, re.IGNORECASE):
        if a_path or not _in_a_path(text, m.start(), m.end()):
            return True
    return False


# What bounds a word of a text that may be a path or a file's name (_in_a_path): spaces,
# quotes and brackets, as outputs set paths apart.
_PATH_EDGE = lazy(r"[\s'\"`()\[\]<>{},;]")
# A file's name in a word (`index.tsx`, `index-universal.js`, `index.d.ts:12:3`).
_HOLDS_FILE = lazy(r"\w\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")(?![\w-])", re.I)


def _in_a_path(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is only a part of a path or of a file's name there: the word
    it is in (bounded by _PATH_EDGE) holds a path's separator or a file's name of a known
    extension (signatures.FILE_EXTENSIONS): `index` of `web/.../index.tsx`, of an `lsd`
    listing's `index-universal.js`, `python3` of `/usr/lib/python3/dist-packages`."""
    before = _PATH_EDGE.split(text[max(0, start - 300) : start])[-1]
    after = _PATH_EDGE.split(text[end : end + 300], maxsplit=1)[0]
    word = before + text[start:end] + after
    return "/" in word or "\\" in word or bool(_HOLDS_FILE.search(word))


@functools.lru_cache(maxsize=64)
def _quoted_values(line: str) -> frozenset[str]:
    """The values a pasted error's line quotes, lower-cased (see _names_in)."""
    return frozenset(_EDGES.sub("", m.group(0)).lower() for m in _QUOTED_NAME.finditer(line))


def with_message_words(shared: object, key_line: object, error: object) -> str:
    """The JSON array `shared` (shared_words of a near match), and when it holds only the
    pasted error's exception class or its path's folders, the words of its message the
    failure's key line holds too, in the paste's order: what made it a near match
    (names_the_error), said so."""
    found = json.loads(shared) if isinstance(shared, str) else []
    _, weak, line, kind_words = _error_names(error)
    if not found or {str(name).lower() for name in found} - weak or not isinstance(key_line, str):
        return json.dumps(found, ensure_ascii=False)
    # (not the names again: an account's name is a word of the message too)
    said = _message_words(key_line) - kind_words - {str(name).lower() for name in found}
    words = dict.fromkeys(t for t in _TOKEN.findall(line.lower()) if t in said)
    return json.dumps(found + list(words), ensure_ascii=False)


def _message_words(line: str) -> set[str]:
    """The words of a key line that can tell two messages apart, lower-cased: not stop
    words, GENERIC_WORDS, numbers or single letters, nor a path's folders or a file's name
    (`index` and `ts` of `index.ts`: _error_names)."""
    line = _FILE_WORD.sub(" ", signatures.without_folders(line))
    return {t for t in _TOKEN.findall(line.lower()) if _distinctive_token(t)}


# A file's name in a line (signatures.FILE_EXTENSIONS), as _FILE_NAME is one alone.
_FILE_WORD = lazy(
    r"[\w.-]*\w\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")(?![\w-])", re.IGNORECASE
)


def _distinctive_token(token: str) -> bool:
    """Whether one word of a name can tell errors apart (see distinctive_words)."""
    word = token.lower()
    return not (
        len(word) < 2
        or word in STOP_WORDS
        or word in GENERIC_WORDS
        or word.isdigit()
        or _HEX_ID.fullmatch(word)
    )


def any_word_query(words: object, tokenizer: object) -> str:
    """An FTS5 query matching any word of the JSON array `words` that the tokenizer can match."""
    try:
        found = json.loads(words) if isinstance(words, str) else []
    except ValueError:
        found = []
    phrases = [fts_query(w, "all", "content", tokenizer) for w in found if isinstance(w, str) and w]
    return " OR ".join(p for p in phrases if p != MATCH_NOTHING) or MATCH_NOTHING


def shared_words(content: object, words: object, tokenizer: object = "") -> str:
    """The names of the JSON array `words` found in `content` (as FTS5 would), as a JSON array.

    A name of several words is found as a phrase; under trigram, inside other words too.
    """
    try:
        found = json.loads(words) if isinstance(words, str) else []
    except ValueError:
        found = []
    text = content if isinstance(content, str) else ""
    shared = []
    for name in found:
        tokens = _TOKEN.findall(name) if isinstance(name, str) else []
        if not tokens:
            continue
        phrase = r"[\W_]+".join(re.escape(t) for t in tokens)
        if not is_trigram(tokenizer):
            phrase = rf"(?<![^\W_]){phrase}(?![^\W_])"
        if re.search(phrase, text, re.IGNORECASE):
            shared.append(name)
    return json.dumps(shared, ensure_ascii=False)


def only_file_names(words: object) -> int:
    """1 when the names a near match shares with the pasted error (shared_words: a JSON
    array, or its list) are all file names (a known extension: `index.ts`), or none; 0 when
    it shares another name, the error's code or kind (`TS2307`, `EADDRINUSE`). A file name
    of the paste's own path is in failures of any error: an unseen `src/index.ts:1:20 -
    error TS2307: Cannot find module 'lodash' ...` had an `ls` listing and an `lsd` error
    that named an `index.ts` as its first partial matches, and the TS2307 failure third
    (nu38 finding 6). find_past_fix ranks a near match of such names after the others: its
    query by the paste's names the failure holds (of distinctive_words), find_class by
    those it shares (shared_words, the rare ones of those)."""
    try:
        found = json.loads(words) if isinstance(words, str) else words
    except ValueError:
        found = []
    names = [w for w in found if isinstance(w, str)] if isinstance(found, list) else []
    return int(all(_FILE_NAME.search(name) for name in names))


# A name that is a file's: it ends with a known extension (signatures.FILE_EXTENSIONS).
_FILE_NAME = lazy(r"\.(?:" + "|".join(signatures.FILE_EXTENSIONS) + r")$", re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _pasted_key(
    error: str,
) -> tuple[str, Counter[str], Counter[str], str | None, frozenset[str], _Paths]:
    """The key line of a pasted error, set aside as same_text() compares it, its words, its
    paths' folders, the file its diagnostic is about (signatures.diagnosed_file), the names
    it quotes (_quoted_names) and the paths it quotes (_quoted_paths)."""
    text = paste_text(error)
    key = signatures.key_line(text) or " ".join(text[:300].split())
    return (
        _set_aside(key),
        _key_words(key),
        _folder_words(key),
        signatures.diagnosed_file(text, key),
        _quoted_names(key),
        _quoted_paths(key),
    )


def other_names(key_line: object, text: object, error: object) -> int | None:
    """NAMES_OTHER when a failure's key line and the pasted error's quote names that their
    signature says `<str>` for (signatures.quoted_names) and no name of the paste is among
    the key line's, nor quoted elsewhere in the failure's `text`: `Type error: Property
    'email' does not exist on type 'User'.` pasted, a failure of `'errors'` on `'ZodError'`
    is the same error signature about other names. (A name the failure quotes below its key
    line is the same error: tsc's `Type 'boolean | undefined' is not assignable to type
    'boolean'.`, pasted, is the last line of a chain whose first line was stored's key.)
    Its fix was an edit of its own names (Zod's `.errors` to `.issues`), which a new user
    was shown as "the same error" on every front end (session 35): such a row is matched
    as `same error, other names` (cards.how_matched), after those that share a name, and
    is not the error seen before (seen_before). Names are compared case-insensitively, and
    those of no letter or digit only when a line quotes nothing else: TypeScript's `'{}'`
    (an empty object type) is in many a TS2741 about other properties, while PowerShell's
    `Unexpected token '}'` is another token than `'='`. A diagnostic of a name the user's code
    declares (`'useState' is declared but its value is never read`: signatures.lints_a_name)
    is the same error for any name: its fix, the import dropped, is of the same kind.

    A quoted path that the signature says `<str>` for is no name (_quoted_names), and the
    signature keeps no file of it (signatures.loose finds none to set aside), so two such
    failures about other paths fell between the two checks: `fatal: Invalid path
    '/tmp/foo': No such file or directory`, pasted, was "the same error signature" of a
    failure about `'/!'`, and the hook gave its fix, a `git add './!/agent.sh'` (nu38
    finding 2). When every path the paste quotes so differs from the key line's (_quoted_paths:
    by base name) and its text quotes none of them elsewhere, the row is the same error
    about another file (FILE_OTHER: other_file) when both name a file (a base name of a
    letter or digit, or a temporary file), else about other names (NAMES_OTHER: `'/!'`
    names none). NULL for NULL."""
    if key_line is None:
        return None
    pasted = _pasted_key("" if error is None else str(error))
    if not isinstance(key_line, str) or not (pasted[4] or pasted[5]):
        return 0
    said = text.lower() if isinstance(text, str) else ""
    names = _quoted_names(key_line)
    if pasted[4] and names and not pasted[4] & names and not _quoted_in(pasted[4], said):
        # a diagnostic of a name the code declares (unused, never read): its fix is of the
        # same kind for any name (signatures.lints_a_name), the error itself
        return 0 if signatures.lints_a_name(key_line) else NAMES_OTHER
    paths = _quoted_paths(key_line)
    mine = {form for form, _ in pasted[5]}
    if not mine or not paths or mine & {form for form, _ in paths}:
        return 0
    if _quoted_in({raw for _, raw in pasted[5]}, said):
        return 0
    files = all(_names_a_file(form) for form, _ in (*paths, *pasted[5]))
    return FILE_OTHER if files else NAMES_OTHER


def fix_names_other(key_line: object, error: object, fix_inputs: object) -> int:
    """1 when the calls of a fix (`fix_inputs`: the inputs of its remedy steps and of the
    call that confirmed it) name a name that the failure's key line quotes and the pasted
    error does not (other_names), 0 when they name none of them: a fix about those names
    (Zod's `.errors` to `.issues`, a script `"test:web"` added to package.json) is no fix
    of yours, while one that names none of them carries over (`yarn run` to list the
    scripts, then `yarn test` in place of `yarn test:web`, for a paste of `Couldn't find a
    script named "test:e2e"`: its three cards were said to be "not yours", nu49 finding
    4). Names are found as words, in any case (_names_it). 1 when there is no key line, it
    quotes no name the fix could write (only `<n>`, `<time>`...), or there is no fix
    (None: the failed call was not changed and got past it; a way round it, reached for
    its own names, shows nothing of what carries over)."""
    if not isinstance(key_line, str) or fix_inputs is None:
        return 1
    mine = _pasted_key("" if error is None else str(error))[4]
    names = _quoted_names(key_line) - mine
    # (a date, a number or an id, by its kind: no fix names it so, the row stays as it is)
    words = [name for name in names if "<" not in name]
    said = fix_inputs if isinstance(fix_inputs, str) else ""
    return int(not words or any(_fix_names(said, name) for name in words))


def _fix_names(said: str, name: str) -> bool:
    """Whether a fix's calls (`said`) name a quoted name: one name whole (`test:web`, not the
    `test` of `yarn test`), or any word of a type written out (`'{ active: boolean |
    undefined; }[]'`, whose fix coerced `active`)."""
    if _ONE_NAME.fullmatch(name):
        return _names_it(said, name, quoted=True)
    return any(_names_it(said, word, quoted=True) for word in _TYPE_WORD.findall(name))


# A quoted name that is one name (`test:web`, `users_email_key`, `@scope/pkg`), and the words
# of one that is not (a type written out).
_ONE_NAME = lazy(r"[\w.:/@$-]+")
_TYPE_WORD = lazy(r"[A-Za-z_$][\w$]+")


# What other_names() says of a failure whose signature is the pasted one's: about other
# names (other_names 1), about another file (other_file 1), or neither (0).
NAMES_OTHER, FILE_OTHER = 1, 2


def _quoted_in(names: Iterable[str], said: str) -> bool:
    """Whether a failure's text (`said`, lower-case) quotes any of `names` (lower-case)."""
    return any(f"{start}{name}{end}" in said for name in names for start, end in _QUOTE_PAIRS)


# How a failure's text may quote a name.
_QUOTE_PAIRS = (("'", "'"), ('"', '"'), ("`", "`"), ("‘", "’"), ("“", "”"))


@functools.lru_cache(maxsize=4096)
def _quoted_names(line: str) -> frozenset[str]:
    """The names a key line quotes (signatures.quoted_names), lower-case, each as normalise()
    has it: a git ref or a branch (`'origin/develop'`, `'HEAD'`) is a name, and so is a date
    or a number, an id or a hash, by its kind (`<time>`, `<n>`, `<uuid>`): the same error
    of another date is no other name, but of a date where yours names a ref it is (a new
    user's `'origin/develop'` had a fix for `'2026-01-25'` first as the same error
    signature, while `'HEAD'` was other names, nu36; a date had been left out). Not a quoted
    path (`<path>`, `<tmp>`): the same error about another file, which same_text and
    text_distance compare."""
    names = frozenset(
        form.lower()
        for quoted in signatures.quoted_names(line)
        if (name := quoted.strip()) and not _PATH_FORM.search(form := signatures.normalise(name))
    )
    return frozenset(name for name in names if _LETTERS_OR_DIGITS.search(name)) or names


_PATH_FORM = lazy(r"<(?:path|tmp)>")

# A quoted path as other_names() compares it: its form as normalise() has it, lower-case
# (`<path>/agent.sh`, `<tmp>`), and as quoted, lower-case.
_Paths = tuple[tuple[str, str], ...]


@functools.lru_cache(maxsize=4096)
def _quoted_paths(line: str) -> _Paths:
    """The quoted paths of a key line that its signature says `<str>` for (those
    _quoted_names leaves out), as other_names() compares them (_Paths)."""
    paths = (
        (signatures.normalise(name).lower(), name.lower())
        for quoted in signatures.quoted_names(line)
        if (name := quoted.strip())
    )
    return tuple((form, raw) for form, raw in paths if _PATH_FORM.search(form))


def _names_a_file(form: str) -> bool:
    """Whether a quoted path's form names a file: a temporary one (`<tmp>`, some file), or
    a base name of a letter or digit (`<path>/agent.sh`; not `<path>/!` nor `<path>`)."""
    if form == "<tmp>":
        return True
    base = form.rpartition("<path>/")[2] if "<path>/" in form else ""
    return bool(_LETTERS_OR_DIGITS.search(base))


_LETTERS_OR_DIGITS = lazy(r"[^\W_]")


# Key lines repeat across the failures of one signature: both are cached.
@functools.lru_cache(maxsize=4096)
def _key_words(line: str) -> Counter[str]:
    """The words of a key line that text_distance() counts: a path's folders are left out,
    as the signature leaves them out (they say where you were, not what failed)."""
    words = (_PATH_FOLDERS.sub("", word) for word in line.split())
    return Counter(token.lower() for word in words for token in _TOKEN.findall(word))


@functools.lru_cache(maxsize=4096)
def _folder_words(line: str) -> Counter[str]:
    """The folder names of a key line's paths, which _key_words() leaves out."""
    found = (_PATH_FOLDERS.match(word) for word in line.split())
    return Counter(
        token.lower() for match in found if match for token in _TOKEN.findall(match.group(0))
    )


@functools.lru_cache(maxsize=4096)
def _set_aside(line: str) -> str:
    """A key line with what differs between two sightings of it replaced, as the signature
    does (paths, numbers, ids), and its quote characters dropped: what was quoted stays, and
    so does a name said bare, which the signature says `<str>` for as it does a quoted one
    (`No such container: webapp` is not `... geox_server`)."""
    bare: list[str] = []
    aside = signatures.normalise(_QUOTES.sub(" ", line), names=bare)
    return " ".join([aside, *bare]).lower()


def same_text(key_line: object, error: object) -> bool | None:
    """Whether a failure's key line is the pasted error's, once paths, numbers, ids and quote
    characters are set aside: `Cannot find module 'react'` is not `... module 'vue'`. (Nor
    is a diagnostic about another file than the pasted one, which find_past_fix's query
    tells by diagnosed_elsewhere: the file can be on the line above.) NULL for NULL: a
    failure whose key line was not compared (KEYED_ROWS)."""
    if not isinstance(key_line, str) or not key_line.strip():
        return None if key_line is None else False
    pasted = _pasted_key("" if error is None else str(error))[0]
    return bool(pasted) and _set_aside(key_line) == pasted


# -- a missing file's path ------------------------------------------------------------


def another_path(mine: Iterable[str], here: str, theirs: Iterable[str], there: str) -> bool:
    """Whether a file or folder that was not there (signatures.says_a_file_is_missing) is
    another one than a past failure's: the one home of the rule that the hook
    (hook.another_files) and find_past_fix (missing_elsewhere: `pastfix find`, MCP, the find
    page) tell them by. `mine` and `theirs` are each side's paths (call_paths), resolved
    against its project, `here` and `there` (folder's form; `here` is "" for a paste that
    does not say where it ran, missing_elsewhere).

    A missing file is the same file only at the same path: the same absolute path, or the
    same relative one in the same project. Compared by base name, a Read of a new
    `/home/me/proj/package.json` was another project's `package.json`, and got its look for
    it in that project's `packages/desktop/ui` (nu44 finding 1); a common name
    (`package.json`, `README.md`, `.env`) was met missing in many projects, each another file,
    whose fix made, renamed or looked for that one. A path with no project to resolve it by
    (a paste's, which carries none) is relative to nothing: the same as any path that ends
    with it (`build/dist` is `/srv/x/build/dist`). With no path on a side (a bare `go.sum`,
    whose signature keeps the name itself; a Read's `File does not exist.`, which names
    none), the same project; a paste's is none, and its bare name is the same file, as its
    signature says."""
    mine, theirs = set(mine), set(theirs)
    if mine and theirs:
        return not any(_same_path(a, b) for a in mine for b in theirs)
    return bool(here) and here != there


def _same_path(a: str, b: str) -> bool:
    """Two paths of resolved's form are one: equal, or one relative to nothing that the
    other ends with, its `..` folders any (`../../docs/a.md` is `/home/docs/a.md`)."""
    return a == b or any(
        not _absolute(short) and whole.endswith(f"/{_UP.sub('', short)}")
        for short, whole in ((a, b), (b, a))
    )


_UP = lazy(r"^(?:\.\./)+")


def call_paths(tool: object, path: object, key_line: object, project: str) -> set[str]:
    """The paths of a failed call's missing file (another_path): a file tool's own (its
    `file_path`), else those its key line names (signatures.named_paths), resolved against
    `project` (folder's form, "" for none)."""
    if tool in _FILE_TOOLS and isinstance(path, str) and path:
        return {resolved(path, project)}
    line = key_line if isinstance(key_line, str) else ""
    return {resolved(p, project) for p in signatures.named_paths(line)}


# The tools whose file is the one they were given (their `file_path`).
_FILE_TOOLS = agents.tools(agents.READ) | agents.tools(agents.EDIT)


def folder(path: str) -> str:
    """A path as another is compared with it: `/` for `\\`, `.` and `..` resolved, no `/` at
    its end, lower-case (`C:\\Users\\me\\App.tsx` and `c:/users/me/app.tsx` are one file)."""
    if not path:
        return ""
    return posixpath.normpath(path.replace("\\", "/")).rstrip("/").lower() or "/"


def resolved(path: str, project: str) -> str:
    """`path` (folder's form) as the absolute path it was in `project` (folder's form);
    as it is with no project."""
    path = folder(path)
    if _absolute(path) or not project:
        return path
    return folder(f"{project}/{path}")


def _absolute(path: str) -> bool:
    return path.startswith(("/", "~")) or bool(_DRIVE.match(path))


_DRIVE = lazy(r"[a-z]:/")


def missing_elsewhere(
    error: object, signature: object, tool: object, path: object, content: object, project: object
) -> int:
    """1 when a failure of the pasted error's signature, of a file or folder that was not
    there (signatures.says_a_file_is_missing), names another path than the paste
    (another_path): the same error about another file (other_file), whose fix made, renamed
    or looked for that one, as the hook says (`cat: /home/me/proj/package.json: No such file
    ...`, pasted, is not another project's Read of its own `package.json`). A paste carries
    no project: its path is absolute, or relative to nothing (another_path), and a bare name
    or none is the same file as before. `content` is the failure's text (its key line's
    paths), `path` its call's file."""
    if not isinstance(signature, str) or not signatures.says_a_file_is_missing(signature):
        return 0
    mine, here = _pasted_paths("" if error is None else str(error))
    if not mine and not here:
        return 0  # (nothing to tell it by: the same file, whatever the failure's path)
    there = folder(project if isinstance(project, str) else "")
    # (its key line only when its call was given no file: a Read's is its file_path)
    key = "" if tool in _FILE_TOOLS and path else signatures.key_line(str(content or ""))
    return int(another_path(mine, here, call_paths(tool, path, key, there), there))


@functools.lru_cache(maxsize=64)
def _pasted_paths(error: str) -> tuple[frozenset[str], str]:
    """The paths a pasted error's key line names (signatures.named_paths), in folder's form,
    and its project: none, so they are relative to nothing, unless the line says where it
    ran (signatures.ran_in: Claude Code's `File does not exist. Note: your current working
    directory is /x/app.`, which names no file, is of a file in `/x/app`)."""
    key = signatures.key_line(paste_text(error))
    here = folder(signatures.ran_in(key))
    return frozenset(resolved(p, here) for p in signatures.named_paths(key)), here


def diagnosed_elsewhere(file: object, error: object) -> int | None:
    """1 when a failure's diagnostic and the pasted error's are about two files (`file`, the
    failure's, and the paste's, by signatures.diagnosed_file): `vite.config.ts(16,3): error
    TS2769: No overload matches this call.`, pasted as `src/app.ts(3,5): ...`, is the same
    error about another file (other_file), not the pasted text (same_text), and so is
    ESLint's `12:9  Error: Unexpected any. ...` under `./app/[locale]/layout.tsx`, pasted
    under `./app/[locale]/page.tsx`. Their signature is one, the place set aside: one
    TS2339 in ten files is one recurring error, and the same error in another file is
    found, but its fix was that file's (a new user's made-up error was shown as "the very
    same error" with a fix of vite.config.ts, session 34; an ESLint error with one of
    layout.tsx, nu36). NULL for NULL: a failure whose key line was not compared, or whose
    diagnostic names no file."""
    if not isinstance(file, str):
        return None
    pasted = _pasted_key("" if error is None else str(error))[3]
    return int(pasted is not None and file.lower() != pasted.lower())


def _diagnosed_file(text: object) -> str | None:
    """signatures.diagnosed_file of a failure's output, for SQL (NULL for NULL)."""
    return signatures.diagnosed_file(text) if isinstance(text, str) else None


def text_distance(key_line: object, error: object) -> int | None:
    """How many words a failure's key line and the pasted error's differ by (0: the same
    text), numbers, names and the file of a path included, not its folders: among failures
    that are the pasted text once these are set aside, the one that names the same branch
    or value comes first. NULL for NULL."""
    if key_line is None:
        return None
    pasted = _pasted_key("" if error is None else str(error))[1]
    words = _key_words(key_line if isinstance(key_line, str) else "")
    # (each word's count here less there, either way: what `(a - b) + (b - a)` of the
    # two Counters sums, without building three more for every failure compared)
    return sum(abs(words[word] - pasted[word]) for word in words.keys() | pasted.keys())


def other_shell(content: object, error: object) -> int:
    """1 when the pasted error and a failure's output were each written by a shell of
    another family (signatures.shell_family: PowerShell or cmd.exe, else a POSIX shell), as
    their own words say: of failures as good, those of the paste's family come first, since
    a way round carries over within a family only (PowerShell's `Get-Content` for a missing
    `sed`, not bash's `find` for a missing `tree`: nu45 finding 5). 0 when either says no
    family. The hook, which also knows the event's folder, orders by it after this
    (hook.same_system_first)."""
    mine = _pasted_shell(error)
    if mine is None or not isinstance(content, str):
        return 0
    theirs = signatures.shell_family(content)
    return int(theirs is not None and theirs != mine)


@functools.lru_cache(maxsize=4)
def _pasted_shell(error: object) -> str | None:
    return signatures.shell_family(paste_text(error)) if isinstance(error, str) else None


def other_folder(key_line: object, error: object) -> int | None:
    """1 when the pasted error's paths name a folder that a failure's key line does not: of
    failures as close by text_distance, those where the pasted path is come first (the same
    `sed: src/app/page.tsx: No such file` in your project and in another's, pasted after a
    log's timestamp: the other one, fixed, came first). Any folder missing counts the same:
    how many are missing says how long the paths are, not how alike. NULL for NULL."""
    if key_line is None:
        return None
    pasted = _pasted_key("" if error is None else str(error))[2]
    return int(bool(pasted - _folder_words(key_line if isinstance(key_line, str) else "")))


def _words_pattern(error: object, substrings: bool = False) -> re.Pattern[str] | None:
    """A regex finding the words of a pasted error where the matching finds them (safe_fts,
    fts_query), case-insensitive: each word as spaces separate them (_paste_units), as the
    phrase of its tokens, whole tokens (`my-feature` is `my feature`, `my_feature`..., not the
    `feature` of `feature/empty-state`).

    With `substrings` (the trigram tokenizer), as its characters, inside other words too: a
    Chinese or Japanese word is part of a longer run of characters. ASCII words under three
    characters stay whole words, or every 'a' and 'to' would be marked.
    """
    return _words_pattern_of(str(error or ""), substrings)


# Per pasted error, not per row: find_past_fix asks for each row it shows (twice), and
# `pastfix find` again for each card; a 200,000-character paste took 80 ms a time.
@functools.lru_cache(maxsize=8)
def _words_pattern_of(error: str, substrings: bool) -> re.Pattern[str] | None:
    units = _paste_units(error)
    if not units:
        return None
    ordered = sorted(set(units), key=len, reverse=True)
    whole = [w for w in ordered if not substrings or (w.isascii() and len(w) < TRIGRAM_MIN)]
    parts = [re.escape(w) for w in ordered if w not in whole]
    # each phrase once (`branch` and `branch.`), the longest first: `my-feature` before `my`
    phrases = {_word_key(w): r"[\W_]+".join(map(re.escape, _TOKEN.findall(w))) for w in whole}
    if phrases:
        alternatives = "|".join(sorted(phrases.values(), key=len, reverse=True))
        parts.append(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])")
    return re.compile("|".join(parts), re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def _pasted_words(error: str) -> tuple[str, ...]:
    """The words of a pasted error (_word_key), longest first (per error: see
    _words_pattern_of)."""
    words = {_word_key(w) for w in _paste_units(error)}
    return tuple(sorted(words, key=lambda w: (-len(w), w)))


@functools.lru_cache(maxsize=8)
def _paste_units(error: str) -> tuple[str, ...]:
    """The words of a pasted error in their order, as the matching takes them (required_words,
    safe_fts), that the snippets mark: each run of characters between spaces that holds a
    token, no stop word alone, no FTS5 operator, no letter alone (_names_a_thing);
    at most MAX_WORDS. Of a raw: expression, each of its tokens."""
    text = paste_text(error)
    if _is_raw(text):
        units = (m.group(0) for m in _TOKEN.finditer(text.lstrip()[len(RAW_PREFIX) :]))
    else:
        units = (m.group(0) for m in re.finditer(r"\S+", text) if _TOKEN.search(m.group(0)))
    kept = (w for w in units if w not in _OPERATORS and not _is_stop_word(w) and _names_a_thing(w))
    return tuple(itertools.islice(kept, MAX_WORDS))


def _names_a_thing(word: str) -> bool:
    """Whether a pasted word is one to mark: not a letter alone. A letter alone is a line's
    prefix (apt's `E:` and `W:`, pytest's `E`) or a variable's name, and marked every `E
    ModuleNotFoundError` of a pytest log found by `E: Unable to locate package
    python3.13-venv` (nu42 finding 5). A digit alone stays: an exit status is matched by it
    (`Exit code 1`), and so does a CJK character alone, a word of its own (`错`, `请`)."""
    tokens = "".join(_TOKEN.findall(word))
    return not (len(tokens) == 1 and tokens.isascii() and tokens.isalpha())


@functools.lru_cache(maxsize=4096)
def _word_key(text: str) -> str:
    """A pasted word, or what _words_pattern found of it, as its tokens: `My-Feature` and
    `my feature` are `my feature`."""
    return " ".join(_TOKEN.findall(text)).lower()


def mark_words(
    text: str,
    error: object,
    mark: str,
    end: str,
    escape: Callable[[str], str] = str,
    substrings: bool = False,
) -> str:
    """`text` with the words of `error` between `mark` and `end`, the rest passed to `escape`.

    `substrings`: inside other words too (see _words_pattern).
    """
    found = _words_pattern(error, substrings)
    pieces, last = [], 0
    for m in found.finditer(text) if found else ():
        pieces += [escape(text[last : m.start()]), mark, escape(m.group(0)), end]
        last = m.end()
    pieces.append(escape(text[last:]))
    return "".join(pieces)


def _key_line_at(around: str, flat: str) -> int:
    """Where the key line `flat` starts in the context `around`, or -1: whole in it, or
    cut at its end (a key line longer than the context), by 20 characters at least."""
    if not flat:
        return -1
    if flat in around:
        return around.index(flat)
    for size in range(min(len(flat), len(around)) - 1, 19, -1):
        if around.endswith(flat[:size]):
            return len(around) - size
    return -1


# How far an excerpt's end moves to stand between two words, at most: text without
# spaces (Chinese, a long path) is cut where it is.
WORD_EDGE = 20


def _word_start(text: str, start: int) -> int:
    """`start` moved on past the word it cuts, if a space comes within WORD_EDGE."""
    if start == 0 or text[start - 1].isspace():
        return start
    space = next(
        (i for i in range(start, min(len(text), start + WORD_EDGE)) if text[i].isspace()), None
    )
    return start if space is None else space + 1


def _word_end(text: str, end: int) -> int:
    """`end` moved back before the word it cuts, if a space comes within WORD_EDGE."""
    if end >= len(text) or text[end].isspace():
        return min(end, len(text))
    space = next(
        (i for i in range(end - 1, max(0, end - WORD_EDGE), -1) if text[i].isspace()), None
    )
    return end if space is None else space


def _key_line_end_in(around: str, flat: str) -> int:
    """How much of the context `around` is the end of the key line `flat` it starts with,
    20 characters at least, else 0."""
    for size in range(min(len(flat), len(around)), 19, -1):
        if around.startswith(flat[-size:]) and (size == len(around) or around[size] == " "):
            return size
    return 0


def error_excerpt(
    content: object, error: object, mark: object = "", end: object = "", tokenizer: object = ""
) -> str:
    """A failure's key line, then the pasted words in context when they are elsewhere.

    With marks ('<mark>', '</mark>') the text is HTML-escaped and the pasted words are
    wrapped in them; without, it is plain text. Under the trigram `tokenizer` words are
    found inside other words too, as FTS5 found them.
    """
    substrings = is_trigram(tokenizer)
    plain = _plain_excerpt(content if isinstance(content, str) else "", error, substrings)
    if not (mark or end):
        return plain
    return mark_words(plain, error, str(mark), str(end), html.escape, substrings)


# (find_past_fix asks each row's excerpt twice, plain and marked, one after the other)
@functools.lru_cache(maxsize=8)
def _plain_excerpt(content: str, error: object, substrings: bool) -> str:
    """error_excerpt without marks."""
    text = signatures.unwrap(content)
    line = signatures.key_line(text) or " ".join(text[:300].split())
    parts = [line]
    found = _words_pattern(error, substrings)
    if found:
        on_line = {_word_key(m.group(0)) for m in found.finditer(line)}
        # The longest pasted word missing from the key line says most: show it in context.
        missing = [w for w in _pasted_words(str(error or "")) if w not in on_line]
        elsewhere = (
            next((m for m in found.finditer(text) if _word_key(m.group(0)) == missing[0]), None)
            if missing
            else None
        )
        if elsewhere:
            start = _word_start(text, max(0, elsewhere.start() - EXCERPT_CONTEXT))
            stop = _word_end(text, elsewhere.end() + EXCERPT_CONTEXT)
            lead, trail = "" if start == 0 else "… ", "" if stop >= len(text) else " …"
            flat = " ".join(line.split())
            key_at = text.find(line)
            key_end = key_at + len(line)
            if key_at >= 0 and start < key_end and stop > key_at:
                # The context takes in the key line, or part of it: one line with it,
                # not the key line and then its end again.
                if elsewhere.start() < key_at:
                    parts = [lead + " ".join(f"{text[start:key_at]} {line}".split())]
                else:
                    parts = [" ".join(f"{line} {text[key_end:stop]}".split()) + trail]
            else:
                # The key line as the output does not hold it (cleaned, or lines joined,
                # or written with `\n` escapes: a hook's message in JSON, whose key line
                # came out twice, the second time with its escapes: a new user's try).
                around = " ".join(text[start:stop].replace("\\n", "\n").split())
                at = _key_line_at(around, flat)
                word = next(
                    (m for m in found.finditer(around) if _word_key(m.group(0)) == missing[0]),
                    None,
                )
                overlap = _key_line_end_in(around, flat)
                if at >= 0 and word and word.start() < at:
                    # The words are just before the key line: show them with it.
                    parts = [lead + around[:at] + flat]
                elif at >= 0:
                    # Just after it: the key line, and on to them.
                    parts = [around[at:] + trail]
                elif overlap:
                    # The context starts inside the key line: on from its end.
                    parts = [flat + around[overlap:] + trail]
                elif around:
                    parts.append(lead + around + trail)
    return "\n".join(parts)


def session_path(
    database_url: str, session_id: str, call: str | None = None, suffix: str = "", **args: str
) -> str:
    """The session page under `database_url` (".json" suffix for its JSON), at a call or message."""
    path = f"{database_url}/-/session/{quote(session_id, safe='')}{suffix}"
    if call:
        args["call"] = call
    query = f"?{urlencode(args)}" if args else ""
    target = f"call-{call}" if call else (f"msg-{args['msg']}" if "msg" in args else "")
    anchor = f"#{quote(target, safe='')}" if target else ""
    return path + query + anchor


def is_index(table_names: set[str] | frozenset[str] | list[str]) -> bool:
    """Whether a database with these tables has pastfix's schema."""
    return REQUIRED_TABLES <= set(table_names)


# -- canned queries ---------------------------------------------------------

# What a tool call worked on, for a call aliased {c}: its command, file or description,
# else its input as call_input() writes it.
TARGET = "coalesce({c}.command, {c}.file_path, {c}.description, call_input({c}.input))"
# The most characters of a call's input that call_input() gives.
INPUT_CHARS = 300


def _input_values(value: object) -> str:
    """A JSON value as a reader wants it: a string as it is, an object as `key: value`."""
    if isinstance(value, dict):
        return ", ".join(
            f"{key}: {_input_values(item)}"
            for key, item in value.items()
            if item not in (None, "", [], {})
        )
    if isinstance(value, list):
        return "; ".join(_input_values(item) for item in value)
    if isinstance(value, str):
        return value
    return json.dumps(value)


def call_input(tool_input: object) -> str | None:
    """A tool call's JSON input as what it says, INPUT_CHARS at most: `pattern: src/**/*.ts,
    type: rs`, not `{"pattern":"src/**/*.ts","type":"rs"}`, whose quotes, `\\n` and
    doubled backslashes (a Windows path) are JSON's, not the call's. For a call with no
    command, file or description (Glob, a Skill, an MCP tool); other text as it is."""
    if not isinstance(tool_input, str):
        return None
    try:
        found = stored_json(tool_input)
    except ValueError:
        return valid_text(tool_input[:INPUT_CHARS])
    text = _input_values(found) if isinstance(found, (dict, list)) else tool_input
    return valid_text(text[:INPUT_CHARS])


def stored_json(text: str) -> Any:
    """A stored JSON text decoded, its lone surrogate escapes (half an emoji) read as
    U+FFFD: json.loads gives them as they are, and SQLite cannot return such a string (a
    Codex call whose arguments held one failed every query that named it: `find`, the
    hook, MCP; a security test, session 34)."""
    if "\\u" in text:
        raw = without_lone_surrogates(text.encode("utf-8", "surrogatepass"))
        text = raw.decode("utf-8", "replace")
    return json.loads(text)


# Text typed into a LIKE is literal: escape \, % and _ (ESCAPE '\').
_LIKE_LITERAL = r"replace(replace(replace({param}, '\', '\\'), '%', '\%'), '_', '\_')"


def _contains(column: str, param: str) -> str:
    """SQL: `column` holds the text of `param`, case-insensitive for ASCII, as LIKE is.

    LIKE refuses a pattern over LIKE_PATTERN_BYTES ("LIKE or GLOB pattern too complex",
    an HTTP 400 in Datasette): such text is found with instr() on lower(), which folds
    the same ASCII letters and has no limit.
    """
    pattern = "'%' || " + _LIKE_LITERAL.format(param=param) + " || '%'"
    return (
        f"(case when length(cast({pattern} as blob)) > {LIKE_PATTERN_BYTES}"
        f" then instr(lower({column}), lower({param})) > 0"
        f" else {column} like {pattern} escape '\\' end)"
    )


def find_limit_sql() -> str:
    """find_past_fix's `limit` in SQL: FIND_LIMIT when empty or not a number, at most FIND_MAX."""
    return (
        f"max(1, min({FIND_MAX}, coalesce(nullif(cast(trim(:limit) as integer), 0), {FIND_LIMIT})))"
    )


def find_limit(limit: object) -> int:
    """How many rows find_past_fix returns for the `limit` parameter (find_limit_sql)."""
    conn = sqlite3.connect(":memory:")
    try:
        value = "" if limit is None else str(limit)
        return int(conn.execute(f"select {find_limit_sql()}", {"limit": value}).fetchone()[0])
    finally:
        conn.close()


# How a row of the pasted error's signature about other names (other_names) matched, in
# the words of its card, the hook, MCP and the find page (pastfix.cards.how_matched).
OTHER_NAMES = "same error, other names"
# ... of the pasted error's signature about another file (other_file).
OTHER_FILE = "same error, another file"
# ... of a failure only worked around, whose call was to do something else (another_goal).
OTHER_GOAL = "same error, another goal"


def another_goal(row: dict[str, Any], tool: str | None, target: str | None) -> bool:
    """Whether a find_past_fix row is the same error met on the way to another goal than the
    call `tool` `target`'s (fixes.goal: the packages installed, the file or script run, the
    subcommand; not the program alone, fixes.same_goal): a failure its session only worked
    around (outcome `worked around`), whose goal is not the call's. A workaround reached
    that session's own goal another way (sql.js from npm instead of `apt-get install
    sqlite3`): for another goal it is no fix, and the
    error (`sudo: a password is required`) does not name either. The hook gave it as the fix
    of a failed `sudo apt-get install -y jq` (nu45 finding 2). A row that was fixed changed
    the failed call, which may well carry over, and a call that says no goal (a pasted
    error: no call) keeps the row as it is. Such a row is matched as OTHER_GOAL
    (cards.how_matched; `other_goal` set by the caller), and is not the error seen before
    for that call, as rows about other names are not."""
    if row.get("outcome") != "worked around":
        return False
    mine = fixes.goal(tool, target)
    theirs = fixes.goal(row.get("tool"), row.get("target"))
    return mine is not None and theirs is not None and not fixes.same_goal(mine, theirs)


# The tool a command given alone (`pastfix find --command`, the MCP tool's `command`) is
# read as: fixes.goal reads every agent's shell tool's command alike.
COMMAND_TOOL = "Bash"


def command_of(error: str, command: str | None) -> str | None:
    """The command that failed with a pasted error, as `pastfix find` and the MCP tool read
    it: the one given (`--command`, the tool's `command`), else the one the paste shows
    above its exit status (signatures.echoed_command: `lsof -i :3001`, then `Exit code 1`),
    as if given: a paste of both had any program's failures first, and no line saying how
    that program's ended (cards.same_program_line), where one with --command had both."""
    if command and command.strip():
        return command
    return signatures.echoed_command(paste_text(error))


def with_goals(rows: list[dict[str, Any]], command: str | None) -> list[dict[str, Any]]:
    """find_past_fix rows for a caller that names the command that failed, as the hook's
    event does (`pastfix find --command`, the MCP tool's `command`): each marked
    `other_goal` (another_goal), but near matches (`some words`: another error already),
    and put after the rows of this goal, as the hook leaves them out of its fixes: a card
    met on the way to another goal came first, above a `sudo apt-get install -y gh` that
    failed as the pasted `sudo apt-get install -y jq` (nu48 finding 3). Of a paste that
    names no error (rows matched as it says_little: `Exit code 1`), those whose command ran
    the command's program (same_program) first: how an exit status ended depends on what
    exited so, and `lsof -i :3001`'s `Exit code 1` had a PowerShell `git config` card
    first, the `answered` looks of rg and grep at rank 7 (nu48 finding 4). Without a
    command, the rows as they are: a pasted error says no goal."""
    if not command or not command.strip():
        return rows
    marked = [
        {
            **row,
            "other_goal": row["matched"] != "some words"
            and another_goal(row, COMMAND_TOOL, command),
        }
        for row in rows
    ]
    return sorted(
        marked,
        key=lambda row: (
            row["other_goal"],
            row["matched"] in SAYS_LITTLE_MATCHES and not same_program(row, command),
        ),
    )


def same_program(row: dict[str, Any], command: str) -> bool:
    """Whether a find_past_fix row's failed call ran a program the shell command `command`
    runs (fixes.goal's programs: `sudo lsof -i :3000` and `lsof -i :3001`)."""
    mine = fixes.goal(COMMAND_TOOL, command)
    theirs = fixes.goal(row.get("tool"), row.get("target"))
    return mine is not None and theirs is not None and bool(mine.programs & theirs.programs)


# Where a find_past_fix row stands before bm25 (find_class).
FindClass = tuple[bool, bool, bool, bool, bool, bool, bool, int, int, int, bool, bool]


def every_match(remedy: list[dict[str, Any]]) -> bool:
    """Whether a fix's remedy set replace_all on an edit whose text the file held more than
    once (fixes.EVERY_MATCH): whether every match was meant was that session's intent (two
    identical functions), not the error's, and on a short anchor (`}\n`) an agent that
    repeats it rewrites every match. A longer old_string, found once, is right whatever
    was meant: among fixes as good it comes first (find_class; a new user's hook event,
    nu46 finding 5: an Edit of `}\n` found 12 times, recalled with replace_all first)."""
    return any(step.get("change") == fixes.EVERY_MATCH for step in remedy)


# (every_match in find_past_fix's ORDER BY)
EVERY_MATCH_SQL = (
    "exists (select 1 from json_each(f.remedy)"
    f" where json_extract(value, '$.change') = '{fixes.EVERY_MATCH}')"
)


def find_class(row: dict[str, Any]) -> FindClass:
    """Where a find_past_fix row stands before bm25 comes in: the first keys of its ORDER BY.

    A good match (the signature or every word) before a near one (some words), and of near
    ones, one that shares the error's code or kind before one that shares only file names
    (only_file_names); the pasted text itself (same_text) before a look-alike; one that
    shares a name it quotes before one about other names (other_names); the error itself
    before the same error about another file (other_file); the same signature before the
    same words; real errors before noise; one written by a shell of the paste's family
    (other_shell); the closest text (text_distance), then the pasted
    path's folders (other_folder); a fixed failure before one that was not fixed, and one
    fixed whatever its session meant before one fixed by replacing every match
    (every_match). Then bm25 and recency.
    """
    near = row["matched"] == "some words"
    return (
        near,
        near and bool(only_file_names(row["shared_words"])),
        not row["same_text"],
        bool(row["other_names"]),
        bool(row["other_file"]),
        row["matched"] != "signature",
        row["kind"] != "error",
        row.get("other_shell") or 0,
        row["text_distance"] or 0,
        row["other_folder"] or 0,
        row["fixed_at"] is None,
        every_match(row.get("remedy") or []),
    )


def seen_before(rows: list[dict[str, Any]]) -> bool:
    """Whether find_past_fix found the error itself: a row with its signature or every word,
    not one whose signature is the error's about other names (other_names), nor one met on
    the way to another goal (other_goal: another_goal). (Or, of a paste
    that says_little, a row that ended as it says, EXIT_STATUS, or holds its words,
    COMMON_WORDS: what it asked for, not partial matches, though it names no error; the
    callers say so, says_little_notice.)

    When not, its rows (NEAR_LIMIT at most, `matched` = `some words`) only share a rare word
    of the error (`shared_words`): near matches, not the same error; or they are that error
    signature about other names (a TypeScript property, a yarn script, an SQL column that
    the paste does not name), whose fixes were for those names, or about another file run
    that was not there or a shell could not run or write (its_file_is_the_error: also
    other_file), whose fix was that file's.
    """
    return any(
        row["matched"] != "some words" and not row.get("other_names") and not row.get("other_goal")
        for row in rows
    )


# Written by every build at its end (pastfix.build._record_build). A fresh build writes every
# row in one transaction after the schema, so until it ends a reader sees an empty index:
# `pastfix find` said "Not seen before" of every error meanwhile.
BUILT_SQL = "select 1 from _build_state where name = 'last_build'"
# What `pastfix find`, the MCP server and `pastfix status` say of such an index.
UNBUILT = (
    "{path} holds nothing yet: no build of it has finished (the first may still be"
    " running, or was stopped): wait for it, or run `pastfix build {path}`"
)
# ... when a build of it holds its lock (paths.build_running): its first, as it holds nothing.
UNBUILT_RUNNING = (
    "{path} holds nothing yet: its first build is running, and what it reads shows when it"
    " ends (it writes every row in one transaction): wait for it"
)


def unbuilt(conn: sqlite3.Connection, path: str | Path) -> str | None:
    """What to say of an index no build has finished yet (instead of "Not seen before");
    None for one that a build has finished."""
    if conn.execute(BUILT_SQL).fetchone():
        return None
    return (UNBUILT_RUNNING if paths.build_running(path) else UNBUILT).format(path=path)


# How many of a pasted text's other error lines are looked up alone (by_other_line).
OTHER_LINES = 3
# Whether a signature is a past failure's (other_seen_lines).
SIGNATURE_SEEN_SQL = (
    "select 1 from tool_results indexed by idx_tr_signature"
    " where is_error = 1 and signature = ? limit 1"
)


def other_seen_lines(conn: sqlite3.Connection, error: str) -> Iterator[str]:
    """The lines of a pasted text other than its key line (signatures.other_lines) that were
    the key line of past failures (their signature), in its order, as the index stores text
    (pasted_error): the one home of which other line of a paste is an error seen before,
    for the page, `pastfix find`, MCP and the hook alike (by_other_line, other_seen_line).
    A shell prompt's line and a traceback's frames are no lines of the error (as_output); a
    line that says little (an exit status, common words) names no error."""
    text = paste_text(conn.execute("select pasted_error(?)", [pasted(error)]).fetchone()[0])
    tried = {signatures.signature(text), ""}
    for line in signatures.other_lines(text):
        signature = signatures.signature(line)
        if signature in tried or says_little(line) or not signatures.as_output(line).strip():
            continue
        tried.add(signature)
        if conn.execute(SIGNATURE_SEEN_SQL, [signature]).fetchone():
            yield line


def by_other_line(
    conn: sqlite3.Connection, error: str, limit: int = FIND_LIMIT
) -> tuple[str, list[dict[str, Any]]] | None:
    """Of a pasted text not seen before, the first other line of it that was the key line
    of past failures (other_seen_lines), and the find_past_fix rows of that line alone.

    The text's key line names it, and its other error lines are not searched with it
    (see signatures.normalised_lines): a log line of the paste's own (`[10:22:03] ERROR:
    step 'build' failed`) above a `fatal: ...` that was fixed before said "not seen before"
    (a new user's try, session 33). Only failures with that line's signature count, not
    those that merely hold its words: a line met only inside other errors' output names
    none of them. At most OTHER_LINES lines are looked up. None when none was seen so."""
    for line in itertools.islice(other_seen_lines(conn, error), OTHER_LINES):
        rows = [row for row in find_past_fix(conn, line, limit) if row["matched"] == "signature"]
        if rows:
            return line, rows
    return None


def other_seen_line(conn: sqlite3.Connection, error: str, rows: list[dict[str, Any]]) -> str | None:
    """Of a pasted text seen before by its key line (its find_past_fix `rows`), another line
    of it that was the key line of past failures (other_seen_lines) and that none of those
    rows holds: a second error pasted with the first, whose failures are not below
    (`sudo: a password is required` with `bash: jq: command not found`: the cards were the
    jq ones alone, in either order, and nothing said so, nu46 finding 7). A line the rows
    hold too comes with their error (git's `error: failed to push some refs` under its
    rejection), no second one. None when there is none."""
    for line in other_seen_lines(conn, error):
        signature = signatures.signature(line)
        if not any(signature in _line_signatures(row.get("error") or "") for row in rows):
            return line
    return None


@functools.lru_cache(maxsize=64)
def _line_signatures(text: str) -> frozenset[str]:
    """The signatures of a failure's text and of each of its other lines alone (other_seen_line):
    not normalised_lines, which leaves out the lines naming another error than its key line."""
    lines = signatures.other_lines(text)
    return frozenset([signatures.signature(text), *map(signatures.signature, lines)])


def by_which_line(
    conn: sqlite3.Connection,
    error: str,
    rows: list[dict[str, Any]],
    limit: int = FIND_LIMIT,
    command: str | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """Which line of a pasted error its cards are of, and what to say of it: the one rule
    of the find page, `pastfix find` and the MCP tool, given the find_past_fix `rows` of the
    whole paste (with_goals of `command`). Not seen before by its key line: the rows of
    another error line of it seen before (by_other_line), with other_line_notice. Seen
    before: the same rows, with second_error_notice when another error line of it was seen
    too and none of them holds it (other_seen_line). Else the rows, and None. (The hook,
    given an event's error, looks for its key line alone, then by_other_line's.)"""
    if seen_before(rows):
        if says_little(error):
            return rows, None
        line = other_seen_line(conn, error, rows)
        return rows, (second_error_notice(error, line) if line else None)
    other = by_other_line(conn, error, limit)
    if other is None:
        return rows, None
    line, found = other
    return with_goals(found, command), other_line_notice(error, line)


def _key_and_line(error: str, line: str) -> tuple[str, str]:
    """A paste's key line and another line of it, each redacted and quoted, as the notices
    of other_line_notice and second_error_notice name them."""
    from pastfix.redact import redact  # imported on first use: the hook starts faster

    key = signatures.key_line(paste_text(redact(error)[0]))
    return _quoted(one_line(key, 80)), _quoted(one_line(redact(line)[0], 80))


def other_line_notice(error: str, line: str) -> str:
    """What `pastfix find`, MCP and the find page say of a paste found by another error line
    of it than its key line (by_other_line)."""
    key, other = _key_and_line(error, line)
    return (
        f"Its key line, {key}, was not seen before; another error line of it was, {other}:"
        " the failures below are that line's (it may follow from the key line's error, not"
        " cause it)."
    )


def second_error_notice(error: str, line: str) -> str:
    """What `pastfix find`, MCP and the find page say of a paste seen before by its key line
    that holds another error seen before (other_seen_line)."""
    key, other = _key_and_line(error, line)
    return (
        f"The failures below are of its key line, {key}; another error line of it was seen"
        f" before too, {other}: paste that line alone to find its failures."
    )


def english_notice(error: str, rows: list[dict[str, Any]]) -> str | None:
    """What `pastfix find`, MCP and the find pages say of a paste whose key line was read as
    its English message (locales.in_english: `bash: python: Kommando nicht gefunden.`) and
    found failures by that message's signature: cards of English errors, and nothing said why
    (session 39). The English line quoted, of the redacted paste. None when the key line is
    English, or the rows are of another line (by_which_line) or only share its words."""
    from pastfix.locales import in_english
    from pastfix.redact import redact  # imported on first use: the hook starts faster

    text = paste_text(redact(error)[0])
    key = signatures.key_line(text).strip()
    english = in_english(key)
    if english == key:
        return None
    signature = signatures.signature(text)
    if not any(r["matched"] == "signature" and r["signature"] == signature for r in rows):
        return None
    said = _quoted(one_line(english, 80))
    # (a sentence's own stop inside the quotes ends it: `... no upstream branch.'`, not `.'.`)
    return f"Read as its English message: {said}" + ("" if said[-2] in ".!?" else ".")


def not_seen_notice(error: str, rows: list[dict[str, Any]]) -> str:
    """What `pastfix find` and the MCP tool say of an error that was not seen before, its
    quote redacted: a token pasted with the error is not said back (to an agent, by MCP)."""
    from pastfix.redact import redact  # imported on first use: the hook starts faster

    error = redact(error)[0]
    pasted = paste_text(error)
    if "\n" in pasted:
        # A traceback or a build log: its first 80 characters are seldom the error.
        key = signatures.key_line(pasted) or pasted
        what = f"the pasted error (its key line: {_quoted(one_line(key, 80))})"
    else:
        what = _quoted(one_line(error, 80))
    head = f"Not seen before: no past failure has the signature or every word of {what}."
    no_error = False  # the paste names no error: its near matches are no error of it
    if names_nothing(error):
        # (`}`, `the`, `}</tool_use_error>`: not seen, but no error either, says_little)
        head = (
            f"{what} names no error: only common words, single letters, numbers or an agent's"
            " markup, and no past failure holds them. Paste the error's own line to find that"
            " error."
        )
    elif said := no_error_notice(error):
        # a question, a sentence or a success log is no error (reads_as_prose: its words
        # were not looked for, "or every word" would not be so)
        head, no_error = said, True
    if not rows:
        return head
    good = [r for r in rows if r["matched"] != "some words"]
    if good and all(r.get("other_goal") for r in good):
        # (with_goals: each only worked around, on the way to another goal)
        one = len(good) == 1
        failures = "the failure" if one else f"the {len(good)} failures"
        ways = "its way round is" if one else "their ways round are"
        return (
            f"Not seen before for this command: {failures} below had the error of {what},"
            f" but {'was' if one else 'were'} only worked around there, on the way to"
            f" another goal ({OTHER_GOAL}): {ways} no fix for this command."
        )
    if any(row["matched"] == "signature" for row in rows):
        # (seen_before: only rows about other names, or other files that were not there)
        if about_other_files(rows):
            return f"{not_seen_about(error)}: {other_files_notice(rows, error)}"
        same = [r for r in rows if r["matched"] == "signature"]
        one = len(same) == 1
        # (of another value it keeps, its form: `command not found: <str>`, not the sed of
        # the first row, another_value)
        shown = one_line(_kept_set_aside(same[0]["signature"] or ""), 80)
        said = (
            f"Not seen before: past failures have its error signature, {_quoted(shown)}, but"
            f" none names what {what} names. The {len(same)} below ({OTHER_NAMES})"
            f" {'was' if one else 'were'} about those: {'its fix is' if one else 'their fixes are'}"
            " not yours."
        )
        # (and near matches after them, when its signature was found only about another
        # value it keeps: other_value)
        near = [r for r in rows if r["matched"] == "some words"]
        return f"{said} Then {_partial(near)}: a different error, maybe related." if near else said
    if no_error:
        # not "a different error": the paste was just said to name none, and a partial card
        # said so of cards shown as near an error (`Der Befehl "python" ist entweder falsch
        # geschrieben oder`, then three `shares python` cards: nu47 finding 3)
        one = len(rows) == 1
        return (
            f"{head} {_partial(rows, 'below')}: {'a failure' if one else 'failures'} of"
            f" {'its' if one else 'their'} own, not of an error it names."
        )
    return f"{head} {_partial(rows)}: a different error, maybe related."


def _partial(rows: list[dict[str, Any]], where: str = "") -> str:
    """`N partial matches, sharing only x, y` of near matches (not_seen_notice); `where`
    after the count (`below`)."""
    words = sorted({w for row in rows for w in row["shared_words"]})
    count = f"{len(rows)} partial match{'es' * (len(rows) != 1)}{' ' * bool(where)}{where}"
    return f"{count}, sharing only {', '.join(words)}"


def about_other_files(rows: list[dict[str, Any]]) -> bool:
    """Whether find_past_fix rows (or cards) not seen_before are all the same error about
    another file, of an error whose file is its subject (its_file_is_the_error), not other
    names (a diagnostic in another file quoting another name is about that name)."""
    return bool(rows) and all(
        row.get("other_file") and its_file_is_the_error(row.get("signature")) for row in rows
    )


def missing_kind(error: object) -> str:
    """What the path of a pasted error whose file is its subject is, "file", "folder" or
    "path" (signatures.missing_path_kind of its key line): the one home of the noun that
    not_seen_about and other_files_notice say."""
    return signatures.missing_path_kind(signatures.key_line(paste_text(error)))


def not_seen_about(error: object) -> str:
    """The head of what `pastfix find`, MCP and the find pages say of a pasted error whose
    file is its subject, seen only about other files (about_other_files): "Not seen about
    this folder" of `ls: cannot access 'build/output'` (missing_kind), not "this file"."""
    return f"Not seen about this {missing_kind(error)}"


def seen_about_other_files(rows: list[dict[str, Any]], error: object) -> str | None:
    """What `pastfix find` and MCP say of an error seen before only about other files: its
    rows of the error itself (not other names, not of a paste that says_little) are each
    `same error, another file`, where the error is not about its file, so their fixes are
    the error's (an EISDIR's `read '<path>'`), and it is no diagnostic (in a file). The card
    said it, stderr nothing, while of a `cat` of another file not there it said "Not seen
    about this file" (a new user's try, nu46 finding 12). None otherwise."""
    good = [r for r in rows if r["matched"] in ("signature", "all words")]
    good = [r for r in good if not r.get("other_names") and not r.get("other_goal")]
    if not good or not all(r.get("other_file") for r in good) or says_little(error):
        return None
    if signatures.diagnosed_file(paste_text(str(error))):
        # a compiler's or linter's diagnostic: its file is where, not what, the error is
        # (a TS6133 of another name in another file, its fix of the same kind)
        return None
    kind = missing_kind(error)
    said = _had_about_others(good, kind)
    if not any(row.get("fixed_at") for row in good):
        return f"Seen only about other {kind}s: {said} nothing there was seen to get past it."
    return (
        f"Seen only about other {kind}s: {said} the error is not about which {kind} it"
        " names, so what got past it there may get past yours."
    )


def _had_about_others(rows: list[dict[str, Any]], kind: str) -> str:
    """`N past failures had the same error about other files;` (seen_about_other_files,
    other_files_notice): counted as failures, each row standing for its `occurrences`."""
    count = sum(row.get("occurrences") or 1 for row in rows)
    one = count == 1
    return (
        f"{count} past failure{'s' * (not one)} had the same error about"
        f" {f'another {kind}' if one else f'other {kind}s'};"
    )


def other_files_notice(rows: list[dict[str, Any]], error: object) -> str:
    """What `pastfix find`, MCP and the find pages say of find_past_fix rows (or cards) of an
    error whose file is its subject (its_file_is_the_error: not there, or a shell could not
    run or write it), each about another file: the same error, but not seen about the
    pasted file, and their fixes made, reached or opened theirs (seen_before). Counted as
    failures, each row standing for its `occurrences` in its session; the pasted `error`'s
    path named as what it is (missing_kind: other folders of an `ls`)."""
    kind = missing_kind(error)
    said = _had_about_others(rows, kind)
    one = sum(row.get("occurrences") or 1 for row in rows) == 1
    those = f"that {kind}" if one else f"those {kind}s"
    if not any(row.get("fixed_at") for row in rows):
        # none got past it (a `cat` that only looked): no fix to speak of
        return f"{said} what came next there was about {those}."
    return f"{said} {'its fix was' if one else 'their fixes were'} for {those}."


# A paste that says only how a command ended, no error: an exit status as the agents
# write it (Claude Code's `Exit code 1`, Codex's `Exit code: 1` and `Process exited with
# code 2`, Gemini's `Exit Code: 1`, Copilot's `<exited with exit code 1>`) or as Go's
# `exit status 1`, `Error`, `Command timed out after 2m 0s` (Claude Code's: the command ran
# past its limit, a hung server or a slow test alike). What it finds ended so too, whatever
# went wrong there: with the exit status it names (bare_status).
_BARE_STATUS = lazy(
    r"(?:exit code:?|process exited with code|exit status) (?P<status>-?\d+)"
    r"|<exited with exit code (?P<copilot>-?\d+)>|error|failed"
    r"|command timed out(?: after [\w .]{1,30})?",
    re.IGNORECASE,
)


def _bare_lines(error: object) -> list[re.Match[str]]:
    """The lines of a pasted error that says_little, matched; none for one that says more.
    A prompt's line and a log's prefix are no part of it (signatures.as_output): `$ rg
    "status" src` above `Exit code 1` is the command that ended so (a new user's paste lost
    the warning and got twenty failures that hold `Exit code 1`, session 34), nor a
    terminal's echo of the key that stopped it (signatures.is_key_echo), unless it is the
    key line (`Exit code 1` and `^C`: those interrupted, by their signature `^C`)."""
    found = []
    for line in signatures.as_output(paste_text(error)).splitlines():
        line = line.strip().rstrip(".")
        if not line or (signatures.is_key_echo(line) and not _echo_is_key(error)):
            continue  # (`^C` above `Process exited with code 130`: the key that stopped it)
        # (as Claude Code's terminal shows it, `⎿  Error: Exit code 1`: signatures.status_of)
        m = _BARE_STATUS.fullmatch(signatures.status_of(line) or line)
        if not m:
            return []
        found.append(m)
    return found


def _echo_is_key(error: object) -> bool:
    return signatures.is_key_echo(signatures.key_line(paste_text(error)))


def says_little(error: object) -> bool:
    """Whether a pasted error names no error: it says only how a command ended
    (_BARE_STATUS), or holds no word that tells one failure from another (names_nothing), or
    is an agent's word of a call stopped (names_a_stop)."""
    return bool(_bare_lines(error)) or names_nothing(error) or names_a_stop(error)


def names_a_stop(error: object) -> bool:
    """Whether a pasted error is an agent's word of a call that was stopped, not a program's
    error: the user's rejection (`The user doesn't want to proceed with this tool use...`),
    the user's interrupt (`[Request interrupted by user]`), a call cancelled because another
    failed, a call the agent's tool did not run for want of leave to (`claude-opus-4-8 is
    temporarily unavailable, so auto mode cannot determine the safety of Bash right now`)
    (NAMELESS_KINDS, as signatures.classify tells them). Every such call reads the same
    whatever it did: a pasted rejection had the cards of other sessions' rejected calls,
    "fixed" by their next try (a new user's try, nu39 finding 10), and a pasted classifier
    outage the card of a script run later with another argument (nu40 finding 1)."""
    text = paste_text(error)
    if not text.strip() or _is_raw(text):
        return False
    return signatures.classify(text.strip()) in NAMELESS_KINDS


def names_nothing(error: object) -> bool:
    """Whether a pasted error's words are all stop words, single letters or numbers (`the`,
    `x`, `a 1`): most failures hold them, so every one matches "by all its words" (a new
    user's `pastfix find the` got three confident cards, session 26). Claude Code's wrapper
    tags are no words of it (signatures.without_wrapper_tags): every failure of its tools
    holds them, and a pasted `}</tool_use_error>`, a line's end, had twenty cards of any
    such failure, matched by all its words (nu45). A raw: query is taken as meant, and a
    character of a script written without spaces is a word (`错`, "wrong", of `错误`: the
    trigram tokenizer finds it)."""
    text = paste_text(error)
    if not text.strip() or _is_raw(text):
        return False
    return all(
        (len(token) < 2 and token.isascii()) or token.isdigit() or token.lower() in STOP_WORDS
        for token in _TOKEN.findall(signatures.without_wrapper_tags(text))
    )


# A question as a person asks one: a question word first, a question mark last.
_QUESTION = lazy(
    r"(?:how|what|why|where|when|which|who|whose|can|could|should|would|will|is|are|do|does"
    r"|did|has|have)\b.*\?",
    re.IGNORECASE | re.DOTALL,
)
# A word of a sentence: letters (an apostrophe inside: `doesn't`), then punctuation at most.
_SENTENCE_WORD = lazy(r"[(\"'“‘]?[^\W\d_]+(?:['’][^\W\d_]+)?[.,;:!?)\"'”’]*")
# A sentence has at least this many words, of which one at least is a stop word.
MIN_SENTENCE_WORDS = 3
# Words that deny: a sentence that holds one says what is not so, as errors do (Claude
# Code's `File does not exist.`, `Nothing to commit`), not what a person asks.
_NEGATIONS = frozenset(
    """not no nor never nothing none neither without cannot aren couldn didn doesn don
    hadn hasn haven isn mustn needn shouldn wasn weren won wouldn""".split()
)


# A program's name or a level before what it says, as programs begin their lines (`sudo: a
# password is required`, `fatal: not a git repository`, `error: ...`): lower case, no space,
# a colon; a person's sentence begins with a word (`Note: ...` is capitalised).
_PROGRAM_PREFIX = lazy(r"[a-z][a-z0-9._+-]*:\s")


@functools.lru_cache(maxsize=64)
def reads_as_prose(error: object) -> bool:
    """Whether a pasted text reads as a person's prose, not a program's output: a question
    (`how do I center a div in css?`, a question word first and a question mark last,
    whatever words it names), or sentences of plain words that name no error (no line the
    signature rules score as an error or a failure: signatures.says_error; no agent's word
    of its own tool, signatures.classify; no word that denies, _NEGATIONS: Claude Code's
    `File does not exist.` is an error) and no path, number or name (each word letters, a
    stop word among them). Its words are found in long outputs of any error (a new
    user's question had two "fixed" cards, matched by every word: `text-align: center`,
    `div` and `css` of an HTML dump in a failed test's assertion, and MCP's `seen_before`
    said true; nu41 finding 2), so find_past_fix does not match it by its words, only by
    its signature, or by its words only in the failures that hold it as their lines
    (holds_as_lines: git's `Please make sure you have the correct access rights`, PEP 668's
    `This environment is externally managed`, each a line a user copies, were refused, nu45
    finding 1). A line that begins with a program's name (_PROGRAM_PREFIX: `sudo: a password
    is required`) is a program's output, whatever its words. The callers say it names no
    error (prose_notice). A raw: query is taken as meant."""
    text = paste_text(error).strip()
    if not text or _is_raw(text) or names_nothing(text):
        return False
    if _QUESTION.fullmatch(text) and "\n" not in text:
        return True
    if signatures.says_error(text) or signatures.classify(text) != signatures.ERROR:
        return False
    if _PROGRAM_PREFIX.match(text) and not _is_stop_word(text.split(":", 1)[0]):
        return False
    words = text.split()
    return (
        len(words) >= MIN_SENTENCE_WORDS
        and all(_SENTENCE_WORD.fullmatch(word) for word in words)
        and any(_is_stop_word(word) for word in words)
        and not any(token.lower() in _NEGATIONS for token in _TOKEN.findall(text))
    )


# What may stand before a line's text: a program's bullet or mark (pip's `× This environment
# is externally managed`, `╰─>`, `•`, `-`), spaces.
_LINE_MARK = lazy(r"^[^\w(\"'`]+")
# How many lines a pasted sentence may span in an output (git wraps its `Please make sure
# you have the correct access rights` / `and the repository exists.` in two).
MAX_HELD_LINES = 4


def holds_as_lines(content: object, text: object) -> bool:
    """Whether a failure's output holds a pasted text as whole lines of it: from a line's
    start (its mark aside, _LINE_MARK) to a line's end, over MAX_HELD_LINES lines at most,
    spaces and case aside. A sentence that is so is a line the user copied from such an
    output, not a person's prose (reads_as_prose): find_past_fix matches it by its words in
    those failures only, not in every long output that holds its words somewhere."""
    if not isinstance(content, str) or not isinstance(text, str):
        return False
    wanted = " ".join(paste_text(text).split()).casefold()
    if not wanted or wanted not in " ".join(content.split()).casefold():
        return False  # (most failures: one pass in C)
    lines = [" ".join(_LINE_MARK.sub("", line).split()).casefold() for line in content.splitlines()]
    for start in range(len(lines)):
        held = ""
        for line in lines[start : start + MAX_HELD_LINES]:
            held = f"{held} {line}" if held else line
            if held == wanted:
                return True
            if len(held) >= len(wanted):
                break
    return False


def prose_notice(error: str) -> str:
    """What `pastfix find`, MCP and the find pages say of a paste that reads_as_prose and was
    not seen before (a failure whose key line reads so would be that failure)."""
    what = "a question" if _QUESTION.fullmatch(paste_text(error).strip()) else "a sentence"
    return (
        f"{_quoted(one_line(error, 80))} names no error: it reads as {what}, not as a"
        " program's output. Long outputs of any error hold its words, so it is looked for as"
        " a failure's error line or lines only, and no past failure's reads so. Paste the line"
        " that names the error to find that error."
    )


def no_error_notice(error: str) -> str | None:
    """What `pastfix find`, MCP and the find pages say of a paste not seen before that names
    no error: a person's prose (reads_as_prose, prose_notice), or a program's output that
    reports none (signatures.reports_no_error: a success log, `42 passed in 3.21s`, called
    "the pasted error" before, nu42 finding 10), or only warns (signatures.only_warns: `npm
    warn deprecated ...` was "Not seen before", nu45 finding 6). None for any other."""
    if reads_as_prose(error):
        return prose_notice(error)
    text = paste_text(error).strip()
    if text and not _is_raw(text) and signatures.only_warns(text):
        return (
            f"{_quoted(one_line(signatures.key_line(text) or text, 80))} names no error: it is"
            " a warning, which a command prints and goes on (npm's `npm warn deprecated`), and"
            " no past failure has its signature or every word. Paste the line that names the"
            " error, if the command failed, to find that error."
        )
    if not text or _is_raw(text) or says_little(text) or not signatures.reports_no_error(text):
        return None
    first = signatures.key_line(text) or text
    return (
        f"{_quoted(one_line(first, 80))} names no error: it reads as a program's output (or a"
        " statement) that reports no error (no line of it says an error, a failure or a warning),"
        " and no past failure has its signature or every word. Paste the line that names the"
        " error to find that error."
    )


@functools.lru_cache(maxsize=64)
def bare_status(error: object) -> int | None:
    """The exit status a pasted error that says_little names (`Exit code 2`, `Process exited
    with code 2`: 2): find_past_fix keeps only the failures that ended with it
    (signatures.exit_status). None for one that names none (`Error`), or several, or says
    more. (Cached: find_past_fix asks it of each row.)"""
    named = {m.group("status") or m.group("copilot") for m in _bare_lines(error)} - {None}
    return int(named.pop()) if len(named) == 1 else None


@functools.lru_cache(maxsize=64)
def matched_text(error: object) -> str | None:
    """A pasted error as find_past_fix matches it: an exit status alone as the failures that
    ended with it store it (`Process exited with code 2` is `Exit code 2`), else as it is."""
    status = bare_status(error)
    if status is not None:
        return signatures.status_line(status)
    return error if isinstance(error, str) else None


def says_little_notice(error: str) -> str:
    """What `pastfix find`, MCP and the find pages say of a pasted error that says_little."""
    if names_a_stop(error):
        return (
            f"{_quoted(one_line(error, 80))} names no error: it is the agent's word of a call"
            " that was stopped (the user rejected or interrupted it, another call failed, or"
            " the agent's tool could not tell whether it may run it), whatever the call did."
            " The failures below were stopped so too; what came next there is no fix of"
            " yours. Paste a program's error to find that error."
        )
    if not _bare_lines(error):
        return (
            f"{_quoted(one_line(error, 80))} names no error: only common words, single"
            " letters, numbers or an agent's markup, which most failures hold, so the failures"
            " below may be of any error. Paste the error's own line to find that error."
        )
    return (
        f"{_quoted(one_line(error, 80))} names no error, only how a command ended: the"
        " failures below ended so too, whatever went wrong in them. Paste the lines of the"
        " error above it to find that error."
    )


def says_little_head(error: str) -> str:
    """The one line `pastfix find` prints on stdout above the cards of a pasted error that
    says_little (the whole notice is on stderr): cards of other failures, their fixes for
    errors of their own, read as answers when stdout alone is read (nu45 finding 4)."""
    if names_a_stop(error):
        why = "were stopped the same way"
    elif _bare_lines(error):
        why = "ended the same way"
    else:
        why = "hold the same common words"
    return (
        f"{_quoted(one_line(error, 40))} names no error: these failures only {why}; their"
        " fixes were for errors of their own, not yours."
    )


# How a row matched a pasted error that says_little (find_past_fix's `matched`, in place of
# `signature` or `all words`): it ended with the exit status pasted alone, or it holds the
# common words pasted, or it was stopped as the pasted call was (names_a_stop). Not the
# error seen: `pastfix find --json` said `signature` of such rows, and MCP's text `same
# error`, while the notice and MCP's `seen_before` said the paste names no error (a new
# user's try, nu38 finding 10).
EXIT_STATUS, COMMON_WORDS, STOPPED = "exit status", "common words", "stopped"
# (each, as with_goals tells the rows of a paste that names no error)
SAYS_LITTLE_MATCHES = (EXIT_STATUS, COMMON_WORDS, STOPPED)


def says_little_matched(error: object) -> str | None:
    """find_past_fix's `matched` of its good matches for a pasted error that says_little:
    EXIT_STATUS, COMMON_WORDS or STOPPED; None for one that names an error."""
    if _bare_lines(error):
        return EXIT_STATUS
    if names_a_stop(error):
        return STOPPED
    return COMMON_WORDS if names_nothing(error) else None


def _quoted(text: str) -> str:
    r"""`text` in quotes, as pasted: repr() showed `C:\Users` as `C:\\Users`."""
    quote = '"' if "'" in text and '"' not in text else "'"
    return f"{quote}{text}{quote}"


def merge_find_rows(lists: Iterable[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The find_past_fix rows of several indexes (each list in the query's order) as one list.

    By find_class, then by the row's rank within its class in its own index, the most
    recent first among rows of the same rank: the best of each index come together. bm25
    itself is not compared across indexes, since it depends on each index's word counts.
    One list comes back in its own order. Near matches stay only when no index saw the
    error (seen_before), NEAR_LIMIT of them.
    """
    keyed = []
    for rows in lists:
        seen: dict[FindClass, int] = {}
        for row in rows:
            group = find_class(row)
            keyed.append((group, seen.get(group, 0), row))
            seen[group] = seen.get(group, 0) + 1
    # (a time that is none, known_time's, sorts last: `9999-12-31` stood first for ever)
    keyed.sort(key=lambda item: known_time(item[2]["failed_at"]) or _NO_TIME, reverse=True)
    keyed.sort(key=lambda item: (item[0], item[1]))
    merged = [row for _, _, row in keyed]
    if seen_before(merged):
        return [row for row in merged if row["matched"] != "some words"]
    return merged[:NEAR_LIMIT]


def _said_next(after: str, between: str) -> str:
    """find_past_fix's replies said after failure `f` (`after`: which messages `n` come
    after it), before more than NEXT_TEXT_CALLS of its agent's calls `b` (`between`: which
    come between it and `n`), each with its time and place to put them in order."""
    return f"""select substr(n.text, 1, 2000) as t, n.timestamp, n.file_id, n.line_no
   from messages n
   where n.session_id = f.session_id and {after}
     and n.type = 'assistant' and n.kind = 'text' and n.text not in ('', '(no content)')
     and n.model is not '<synthetic>'
     and n.is_sidechain = rm.is_sidechain and n.agent_id is rm.agent_id
     and (select count(*) from tool_calls b
          where b.session_id = f.session_id and {between}
            and b.is_sidechain is rm.is_sidechain and b.agent_id is rm.agent_id)
         <= {NEXT_TEXT_CALLS}"""


def _edited_after(after: str) -> str:
    """find_past_fix's files edited after failure `f` (`after`: which edits `e` come after
    it, within its window) by edits that did not fail, each with its time and place."""
    return f"""select e.file_path as path, e.timestamp as t, e.file_id, e.line_no
     from tool_calls e
     where e.session_id = f.session_id and {after}
       and e.name in ({EDIT_TOOLS_SQL}) and e.file_path is not null
       and not exists (select 1 from tool_results r
                       where r.tool_use_id = e.tool_use_id and r.is_error = 1)"""


def find_past_fix_sql() -> str:
    """The find_past_fix query: one row per (session, signature), `:limit` groups at most."""
    edit_tools = EDIT_TOOLS_SQL
    default_agent = agents.CLAUDE
    turn_prompt = agents.TURN_PROMPT_SQL.format(
        agent=f"coalesce(s.agent, '{default_agent}')",
        session="f.session_id",
        at="f.called_at",
        title="s.title",
    )
    claims = ", ".join(f"'{outcome}'" for outcome in sorted(fixes.CLAIMS_FIX))
    nameless = ", ".join(f"'{kind}'" for kind in NAMELESS_KINDS)
    limit = find_limit_sql()
    matched = "matched_text(pasted_error(:error))"
    status = "bare_status(pasted_error(:error))"
    # next_text and files_edited_after of a failure at a time, and of one without (by where
    # each row was written, as the fix rules read its session: db._by_place); one arm or the
    # other, the first through the index of times
    said_timed = _said_next(
        "f.timed and n.timestamp > f.timestamp"
        " and n.timestamp <= coalesce(f.fixed_at, n.timestamp)",
        "b.timestamp > f.timestamp and b.timestamp < n.timestamp",
    )
    said_placed = _said_next(
        "not f.timed and (n.file_id, n.line_no) > (f.failed_file, f.failed_line)"
        " and (f.fixed_line is null or (n.file_id, n.line_no) <= (f.fixed_file, f.fixed_line))",
        "(b.file_id, b.line_no) > (f.failed_file, f.failed_line)"
        " and (b.file_id, b.line_no) < (n.file_id, n.line_no)",
    )
    edited_timed = _edited_after(
        "f.timed and e.timestamp > f.timestamp and e.timestamp < f.window_end"
    )
    edited_placed = _edited_after(
        "not f.timed and (e.file_id, e.line_no) > (f.failed_file, f.failed_line)"
        " and (f.fixed_line is null or (e.file_id, e.line_no) < (f.fixed_file, f.fixed_line))"
        " and (f.fixed_line is not null or (e.file_id, e.line_no) < (select file_id, line_no"
        " from (select a.file_id, a.line_no from tool_calls a where a.session_id = f.session_id"
        " and (a.file_id, a.line_no) > (f.failed_file, f.failed_line)"
        f" order by a.file_id, a.line_no limit {fixes.NEARBY_CALLS})"
        " order by file_id desc, line_no desc limit 1))"
    )
    next_ok = """select c2.tool_use_id from tool_calls c2
  where c2.session_id = f.session_id and {after}
    and c2.name = f.tool and c2.agent_id is f.agent_id
    and exists (select 1 from tool_results r2
                where r2.tool_use_id = c2.tool_use_id and r2.is_error = 0)
  order by {order} limit 1"""
    next_ok_timed = next_ok.format(
        after="f.timed and c2.timestamp > f.called_at", order="c2.timestamp"
    )
    next_ok_placed = next_ok.format(
        after="not f.timed and (c2.file_id, c2.line_no) > (f.called_file, f.called_line)",
        order="c2.file_id, c2.line_no",
    )
    return f"""
-- Failed tool results with the pasted error's signature or every one of its words (stop
-- words aside), else those whose signature stands in the pasted text; only when there are
-- none (the error was not seen before), the NEAR_LIMIT closest of those that share a rare
-- name of it (distinctive_words).
-- Under trigram, words under three characters are checked by LIKE (see fts_query).
-- An exit status pasted alone (`Exit code 2`, `Process exited with code 2`) names no error,
-- only how a command ended: it is matched (signature, words, key line, excerpt) as the
-- failures that ended so store it (`Exit code 2`: matched_text), and only those are kept
-- (prelim: bare_status). The paste as the index stores text (redacted when its text
-- was: pasted_error(:error)) and what is said of it (matched_text, says_little_matched) are
-- constants, which SQLite computes once in each part of the statement that reads them
-- (pasted_error remembers its last answers), not CTEs: SQLite copies a CTE's tree into
-- every reference and plans it again, and the paste's, read in thirty places, was a third
-- of the statement's prepare, paid by every hook's and `pastfix find`'s new connection.
-- (Functions of `error`, cached: a CTE of their values, read by the per-row functions
-- below, made the first query of a process 15 ms slower on a 500 MB index, the hook's
-- case.) A CTE read more than once by the next (keyed, stood, framed) is materialized:
-- SQLite put its columns into the reader as the expressions they are, and ran the
-- per-row functions, subqueries and the failure's text once for each mention.
with pasted as (
  select *, kept_set_aside(signature) != signature as keeps from (
    select error_signature(paste_text({matched})) as signature,
      fts_query(required_words({matched}), 'all', 'content', {TOKENIZER_SQL}) as all_query,
      short_words(required_words({matched}), {TOKENIZER_SQL}) as short,
      -- a person's prose (a question) is matched by its words, which long outputs of any
      -- error hold, only in the failures that hold it as lines (reads_as_prose,
      -- holds_as_lines)
      reads_as_prose({matched}) as prose,
      distinctive_words(pasted_error(:error)) as candidates)
),
by_signature as materialized (
  select id from tool_results indexed by idx_tr_signature
  where is_error = 1 and signature = (select signature from pasted) and signature != ''
),
all_words as materialized (
  select id, score from (
    select rowid as id, rank as score
    from tool_errors_fts
    where tool_errors_fts match (select all_query from pasted)
      and {_short_words_in("tool_errors_fts.content", "(select short from pasted)")}
      and (not (select prose from pasted)
        or holds_as_lines(tool_errors_fts.content, pasted_error(:error)))
    union all
    -- no word long enough for trigram: the newest failures holding the short ones
    select id, 0 from (
      select id from tool_results indexed by idx_tr_errors
      where (select all_query from pasted) = '{MATCH_NOTHING}'
        and (select short from pasted) != '[]' and is_error = 1
        and {_short_words_in("content", "(select short from pasted)")}
        and (not (select prose from pasted) or holds_as_lines(content, pasted_error(:error)))
      order by id desc limit {FALLBACK_LIMIT})) w
  -- not the pasted error's form about another module, name or program (another_value)
  where not (select keeps from pasted) or not another_value(
    (select signature from tool_results where id = w.id), (select signature from pasted))
),
-- Neither its signature nor every word: a past failure's signature may still stand in
-- the pasted text, among words around it (signature_in_text); of the signatures found
-- there, the longest (one inside another found says less).
-- (One row when nothing matched, else none: the cross join below then reads nothing.)
unmatched as materialized (
  select 1 as yes
  where not exists (select 1 from all_words) and not exists (select 1 from by_signature)
),
-- (the distinct signatures of failures, read once, and only when nothing matched)
failed_signatures as materialized (
  select distinct tr.signature from unmatched
  cross join tool_results tr indexed by idx_tr_signature
  where tr.is_error = 1 and tr.signature != ''
),
in_text_signatures as materialized (
  select signature from failed_signatures
  where signature_in_text(signature, pasted_error(:error))
    -- or the pasted error after what a script said first (`Error creating snapshot:
    -- Error [ERR_MODULE_NOT_FOUND]: ...`: signature_after_prefix)
    or signature_after_prefix(signature, (select signature from pasted))
    -- or the pasted error cut short (the first sentence of a longer line: signature_goes_on)
    or signature_goes_on(signature, (select signature from pasted))
),
-- And those that stand there once the files both name are set aside (signatures.loose:
-- the same error about another file): of all found, the longest still wins, so a shorter
-- signature found as it is yields to the same error about another file that says more
-- of the text (`zsh: permission denied:` alone, fixed by another shell, before `zsh:
-- permission denied: <path>/check.sh`, fixed by its chmod: a new user's try, session 27).
-- `after` 1: not there, but the pasted error's signature after what a script said first,
-- or cut short, about another file (signature_loosely_after), counted only when none
-- stands there (in_text): such a signature says more than the paste, so it is no rival of
-- those that do (`cat: <path>: No such file or directory` goes on in a failure's `... (os
-- error 2)`, longer than the `cat` one found in the text). One pass over the signatures,
-- not a CTE of its own with guards: each reference to a materialized CTE above is planned
-- again, and two guards took the query's prepare from 17 ms to 40 ms at 500 MB, paid by
-- every hook's and `pastfix find`'s new connection.
loose_signatures as materialized (
  select signature, loose_signature(signature) as form, after from (
    select signature,
      case when signature_loosely_in_text(signature, pasted_error(:error)) then 0
           when signature_loosely_after(signature, (select signature from pasted)) then 1
      end as after
    from failed_signatures)
  where after is not null
),
found_signatures as (
  select signature, signature as form, 0 as loose, 0 as after from in_text_signatures
  union all select signature, form, 1, after from loose_signatures
),
in_text as materialized (
  select tr.id, s.loose from found_signatures s
  join tool_results tr indexed by idx_tr_signature
    on tr.is_error = 1 and tr.signature = s.signature
  where not exists (
    select 1 from found_signatures longer
    where longer.after < s.after
      or (longer.after = s.after and length(longer.form) > length(s.form)
          and instr(longer.form, s.form) > 0))
),
-- Not seen before: the names of the error found in few failures (RARE_SHARE).
unseen as materialized (
  select exists (select 1 from unmatched) and not exists (select 1 from in_text) as yes
),
-- and those of its signature about another value it keeps (another_value: another module
-- missing, another program not found), the same error about other names: `command not
-- found: awk`, PowerShell's for awk too, had no row while the index held sed's (nu43
-- finding 4)
other_value as materialized (
  select tr.id from failed_signatures s
  join tool_results tr indexed by idx_tr_signature
    on tr.is_error = 1 and tr.signature = s.signature
  where (select yes from unseen) and (select keeps from pasted)
    and another_value(s.signature, (select signature from pasted))
),
rare as materialized (
  select coalesce(json_group_array(word), '[]') as words from (
    select w.value as word, (
      select count(*) from tool_errors_fts
      where tool_errors_fts match fts_query(w.value, 'all', 'content', {TOKENIZER_SQL})) as docs
    from json_each((select candidates from pasted)) w
    where (select yes from unseen))
  -- tool_errors_fts_docsize: one small row per failure, counted fast
  where docs > 0 and docs <= max({RARE_MIN_DOCS}, {RARE_SHARE} * (
    select count(*) from tool_errors_fts_docsize))
),
some_words as materialized (
  select f.rowid as id, f.rank as score from tool_errors_fts f
  join tool_results tr on tr.id = f.rowid
  where tool_errors_fts match any_word_query((select words from rare), {TOKENIZER_SQL})
    and (select yes from unseen) and tr.kind = 'error'
),
-- words: 2 every word, 1 some words, 0 none (a signature match only); loose: 1 for the
-- same error about another file, found only so; other: 1 for its signature about another
-- value (other_value: found only when nothing but near matches was)
matches as (
  select id, min(score) as score, max(same) as same, max(words) as words,
    min(loose) as loose, max(other) as other from (
    select id, null as score, 1 as same, 0 as words, 0 as loose, 0 as other from by_signature
    union all select id, null, 1, 0, loose, 0 from in_text
    union all select id, null, 1, 0, 0, 1 from other_value
    union all select id, score, 0, 2, 0, 0 from all_words
    union all select id, score, 0, 1, 0, 0 from some_words)
  group by id
),
-- How close each failure's key line is to the pasted error's: the same text once paths,
-- numbers, ids and quote characters are set aside (exact), and how many words differ.
-- Computed for the KEYED_ROWS first failures in the order of hits without them (those
-- with every word first): pasting `Error` matches most failures.
prelim as (
  select m.*, row_number() over (
    order by m.same or m.words = 2 desc, m.words desc, tr.kind = 'error' desc,
      m.score is null, m.score, tr.timestamp desc, m.id) as n,
    count(*) over (partition by tr.session_id, coalesce(tr.signature, '')) as together
  from matches m join tool_results tr on tr.id = m.id
  -- `Exit code 2` alone names no error, only how a command ended: those that ended so
  where {status} is null
    or exit_status(substr(tr.content, 1, {signatures.HEAD_CHARS})) = {status}
),
lines as materialized (
  select p.*, case when p.n <= {KEYED_ROWS} then error_key_line(tr.content) end as key_line,
    -- a diagnostic about another file: the same error there (other_file), not the text
    case when p.n <= {KEYED_ROWS} then coalesce(
      diagnosed_elsewhere(diagnosed_file(tr.content), {matched}), 0) else 0 end as elsewhere,
    -- of several in one group (session, signature), how far its names are from the
    -- paste's (names_apart)
    case when p.n <= {KEYED_ROWS} and p.together > 1 then
      names_apart(tr.content, {matched}) else 0 end as apart,
    -- a near match that holds only file names of the paste's, after those that hold its
    -- code or kind (only_file_names; one not compared counts as such). Of its names, not
    -- of the rare ones: a reference to `rare` here made the query's prepare 15% slower.
    case when p.words = 1 and not p.same then coalesce(case when p.n <= {KEYED_ROWS} then
      only_file_names(shared_words(tr.content, distinctive_words(pasted_error(:error)),
        {TOKENIZER_SQL})) end, 1) else 0 end as files,
    -- its signature, of a file or folder not there at another path than the paste's: the
    -- same error about another file (other_file), as the hook tells it (missing_elsewhere)
    case when p.same and not p.loose and its_file_is_the_error(tr.signature) then
      missing_elsewhere({matched}, tr.signature, c.name, c.file_path, tr.content,
        (select project from sessions where session_id = tr.session_id)) else 0 end as moved,
    -- written by a shell of another family than the paste's (other_shell)
    case when p.n <= {KEYED_ROWS} then other_shell(tr.content, {matched}) else 0 end as shell
  from prelim p join tool_results tr on tr.id = p.id
  left join tool_calls c on c.tool_use_id = tr.tool_use_id
),
keyed as materialized (
  select *, coalesce(same_text(key_line, {matched}) and not elsewhere and not moved, 0) as exact,
    coalesce(text_distance(key_line, {matched}), {UNKEYED_DISTANCE}) as distance,
    coalesce(other_folder(key_line, {matched}), 0) as folders,
    -- the same signature, every name it quotes another, or a path it quotes another
    -- file's (other_names: NAMES_OTHER, FILE_OTHER)
    case when other then {NAMES_OTHER}
      when same and not coalesce(same_text(key_line, {matched}), 0) then coalesce(
      other_names(key_line, (select content from tool_results where id = lines.id), {matched}),
      0) else 0 end as names,
    -- a near match shares something that names the error, not its exception class alone
    -- (names_the_error)
    case when words = 1 and not same then names_the_error(key_line,
      (select content from tool_results where id = lines.id), pasted_error(:error))
      else 1 end as named
  from lines
),
-- The one of each (session, signature) whose names are the paste's (names_apart: quarto's
-- `File references.bib not found in resource path` 3 times in a session, pasted with the
-- file it was rendering, had the card of the first, fixed in another file, nu43 finding 6);
-- then a fixed failure stands for the group, whatever its line
-- numbers or file say (a cmake error fixed at 01:16 and met again at 02:11, not fixed:
-- the later one, pasted, had the card say "not fixed"); of those, the closest, then the
-- one fixed soonest (the last of a run of retries before its fix; not a failure whose
-- claimed fix came an hour later, after other work, when the same error was fixed in two
-- minutes before); when none was fixed, the closest, then the last. Not of a message
-- that names no call (NAMELESS_KINDS): a user's cancel of a `git add` never redone, pasted,
-- had the card of another cancel, of another `git add`, fixed by a `git checkout -b`
-- (other agents' sessions, a new user's try); its closest, then its last, stands.
ranked as (
  select tr.id, tr.tool_use_id, tr.session_id, tr.message_uuid, tr.timestamp,
    coalesce(tr.signature, '') as signature, tr.kind, m.score, m.same, m.words, m.exact,
    m.distance, m.folders, m.shell,
    -- (a path that names no file, `'/!'`, is other names: other_names)
    m.loose or m.elsewhere or (m.moved and m.names != {NAMES_OTHER}) or m.names = {FILE_OTHER}
      as loose,
    -- another file's, of a file run that was not there or a shell could not run or write:
    -- its fix made, reached or opened that file, not yours (its_file_is_the_error), as one
    -- about other names (those, when its fix was about them: best)
    m.names = {NAMES_OTHER} as named_other, (m.loose or m.moved or m.names = {FILE_OTHER})
      and its_file_is_the_error(tr.signature) as file_named, m.files, m.moved,
    fx.tool_use_id is not null as fixed,
    row_number() over (
      partition by tr.session_id, coalesce(tr.signature, '')
      -- (the failure at the paste's path before one at another: missing_elsewhere)
      order by m.apart, m.moved,
        fx.tool_use_id is not null and tr.kind not in ({nameless}) desc, m.exact desc,
        m.distance, m.folders, m.same desc,
        m.words desc, m.score is null, m.score,
        coalesce(case when tr.kind not in ({nameless})
          then julianday(fx.confirmed_at) - julianday(tr.timestamp) end, 1e9),
        tr.timestamp desc, tr.id) as nth
  from keyed m join tool_results tr on tr.id = m.id
  -- whether what followed it claims a fix (pastfix.fixes)
  left join fixes fx on fx.tool_use_id = tr.tool_use_id and fx.outcome in ({claims})
  where m.named
),
-- A group none of whose matches was fixed stands by a failure of its signature in its
-- session that was, when one was (the one fixed soonest): pasted with its own line
-- numbers or values, a later sighting matched every word and the one fixed before it did
-- not (a cmake error fixed at 01:16 and met again, unfixed, at 02:11). It keeps how the
-- group matched.
stood as materialized (
  select r.*, (
    select json_array(s.id, s.tool_use_id, s.message_uuid, s.timestamp)
    from tool_results s indexed by idx_tr_signature
    join fixes fx on fx.tool_use_id = s.tool_use_id and fx.outcome in ({claims})
    where r.fixed = 0 and r.signature != '' and r.kind not in ({nameless}) and s.is_error = 1
      and s.signature = r.signature and s.session_id = r.session_id
      -- not another file's, of a file not there at the paste's path: its fix was for that
      -- one (missing_elsewhere)
      and (r.moved or not its_file_is_the_error(s.signature) or not missing_elsewhere(
        {matched}, s.signature, (select name from tool_calls where tool_use_id = s.tool_use_id),
        (select file_path from tool_calls where tool_use_id = s.tool_use_id), s.content,
        (select project from sessions where session_id = s.session_id)))
    order by julianday(fx.confirmed_at) - julianday(s.timestamp), s.timestamp desc, s.id
    limit 1) as fixed_one
  from ranked r where r.nth = 1
),
best as (
  select coalesce(json_extract(fixed_one, '$[0]'), id) as id,
    coalesce(json_extract(fixed_one, '$[1]'), tool_use_id) as tool_use_id, session_id,
    coalesce(json_extract(fixed_one, '$[2]'), message_uuid) as message_uuid,
    coalesce(json_extract(fixed_one, '$[3]'), timestamp) as timestamp, signature, kind,
    score, same, words, exact, distance, folders, shell, loose, files,
    -- about other names: not when the failed call was changed and got past it (`fixed`,
    -- not worked around) by calls that name none of them, which then carry over
    -- (fix_names_other)
    file_named or case when not named_other then 0
      when not (fixed or fixed_one is not null) then 1
      else fix_names_other(error_key_line((select content from tool_results
          where id = coalesce(json_extract(fixed_one, '$[0]'), stood.id))), {matched},
        (select group_concat(k.input, char(10)) from fixes x, tool_calls k
         where x.tool_use_id = coalesce(json_extract(fixed_one, '$[1]'), stood.tool_use_id)
           and x.outcome = '{fixes.FIXED}' and (k.tool_use_id = x.confirmed_by or k.tool_use_id in (
             select json_extract(value, '$.tool_use_id') from json_each(x.remedy))))) end
      as names,
    fixed or fixed_one is not null as fixed
  from stood
),
-- The order of find_past_fix (see find_class).
hits as (
  select * from best
  order by same or words = 2 desc, files, exact desc, names, loose, same desc,
    kind = 'error' desc, shell, distance, folders, fixed desc, score is null, score,
    {LATER_THAN_KNOWN.format(t="timestamp")}, timestamp desc, id
  limit case when (select yes from unseen) then min({NEAR_LIMIT}, {limit}) else {limit} end
),
-- Each failure with what followed it (the fixes table, see pastfix.fixes): whether
-- that claims a fix, and the window of calls after the failure.
outcomes as (
  select h.*, fx.outcome, fx.confirmed_by, fx.confirmed_at, fx.remedy as stored_remedy,
    fx.others, fx.window_end as fx_window_end,
    coalesce(fx.outcome in ({claims}), 0) as claims
  from hits h left join fixes fx on fx.tool_use_id = h.tool_use_id
),
framed as materialized (
  select o.*, c.name as tool, c.timestamp as called_at, c.file_id as called_file,
    c.line_no as called_line, c.agent_id, c.command, c.file_path,
    coalesce(case when c.name = 'apply_patch' then failed_patch_file(c.input,
      (select content from tool_results where id = o.id)) end,
      {TARGET.format(c="c")}) as target,
    case when claims then o.confirmed_by end as fix_tool_use_id,
    case when claims then {_FIXED_AT_SQL.format(t="o.confirmed_at")} end as fixed_at,
    case when claims then {TARGET.format(c="ok")} end as fix_target,
    case when claims then ok.name is c.name and ok.input is c.input end as fix_as_was,
    case when claims then o.stored_remedy else '[]' end as remedy,
    (select content from tool_results where id = o.id) as content,
    coalesce(case when claims then o.confirmed_at end, o.fx_window_end, '9999') as window_end,
    -- (where the failure and its fix were written: the order of a session whose failure
    -- has no time, as the fix rules read it, db._by_place)
    not {LATER_THAN_KNOWN.format(t="o.timestamp")} as timed,
    (select file_id from tool_results where id = o.id) as failed_file,
    (select line_no from tool_results where id = o.id) as failed_line,
    case when claims then ok.file_id end as fixed_file,
    case when claims then ok.line_no end as fixed_line
  from outcomes o
  left join tool_calls c on c.tool_use_id = o.tool_use_id
  left join tool_calls ok on ok.tool_use_id = o.confirmed_by
)
select
  f.session_id,
  s.project,
  f.timestamp as failed_at,
  f.tool,
  f.target,
  error_excerpt(f.content, {matched}, '', '', {TOKENIZER_SQL}) as error_snippet,
  -- what the same agent (main thread or subagent) said next, if it said it before more
  -- than NEXT_TEXT_CALLS of its calls followed the failure (after more, it was of other
  -- work: an end-of-session summary); not Claude Code's own lines in its place (model
  -- `<synthetic>`: `No response requested.`, `You've hit your limit`), nor the
  -- `(no content)` it writes for a reply of no text (a new user's card said `next: (no
  -- content)`, session 32); of a failure got past, said by the call that got past it at
  -- the latest: after it, the agent speaks of what that call printed (the tests a `pip
  -- install ... && pytest` ran) or of its next task (NEXT_TEXT_CALLS)
  -- (said_about: the first reply, or when it is of other work, from the first sentence
  -- of those replies that names the failure)
  (select said_about(json_group_array(t), f.signature, f.command, f.file_path, f.fix_target)
   from ({said_timed}
   union all {said_placed}
   order by 2, 3, 4)) as next_text,
  {TARGET.format(c="ok")} as next_ok_target,
  (select json_group_array(path) from (select path from (
     {edited_timed}
     -- (by where each was written: before its fix, or before the last of its first
     -- NEARBY_CALLS calls, as the fix rules' window_end is: a time that it has not)
     union all {edited_placed})
     group by path order by min(t), min(file_id), min(line_no) limit 10)) as files_edited_after,
  resume_command(s.agent, f.session_id, s.source_paths) as resume,
  f.tool_use_id,
  ok.tool_use_id as next_ok_tool_use_id,
  -- (the paste names no error: how it matched, not the error seen, says_little_matched)
  coalesce(case when f.same or f.words = 2 then says_little_matched(pasted_error(:error))
    end, case when f.same then 'signature' when f.words = 2 then 'all words'
       else 'some words' end) as matched,
  round(f.score, 3) as score,
  f.signature,
  f.kind,
  (select count(*) from tool_results indexed by idx_tr_signature
   where is_error = 1 and signature = f.signature and session_id = f.session_id) as occurrences,
  -- of a row that claims a fix, the failures of its signature in its session that nothing
  -- fixed (`not fixed`; not those with nothing to fix): the fixed one stands for the group,
  -- and hid that the same error was also left unsolved there (a new user's try, nu40
  -- finding 8: a PowerShell `Select-Object -Index` fixed once, given up once)
  case when f.claims and f.kind not in ({nameless}) then (
    select count(*) from tool_results u indexed by idx_tr_signature
    left join fixes ux on ux.tool_use_id = u.tool_use_id
    where u.is_error = 1 and u.signature = f.signature and u.session_id = f.session_id
      and u.id != f.id and coalesce(ux.outcome, 'not fixed') = 'not fixed') else 0 end
    as left_unsolved,
  f.fixed_at,
  f.fix_tool_use_id,
  f.fix_target,
  -- 1: the call that confirmed it is the failed one again, as it was (the same input)
  f.fix_as_was,
  -- outcome: fixed, worked around, papered over, already done, stopped, answered, already
  -- so, approved or not fixed (pastfix.fixes)
  coalesce(f.outcome, 'not fixed') as outcome,
  -- remedy: what made the difference, first what the error names, then in order; a step
  -- the fixes table names no target for (a Task, an MCP tool) gets its call's
  (select json_group_array(json(step)) from (
      select case when coalesce(json_extract(r.value, '$.target'), '') != '' then r.value
        else json_set(r.value, '$.target', coalesce(substr({TARGET.format(c="k")}, 1, 300), ''))
        end as step
      from json_each(f.remedy) r
      left join tool_calls k on k.tool_use_id = json_extract(r.value, '$.tool_use_id')
      order by r.key)) as remedy,
  -- the remedy's edits, each edit of a MultiEdit on its own
  (select json_group_array(json(edit)) from (
      select json_object('tool', e.name, 'file_path', e.file_path, 'tool_use_id', e.tool_use_id,
        'old', substr(coalesce(json_extract(e.input, '$.old_string'),
                               json_extract(part.value, '$.old_string'), ''),
                      1, {FIX_TEXT_CHARS}),
        'new', substr(coalesce(json_extract(e.input, '$.new_string'),
                               json_extract(part.value, '$.new_string'),
                               json_extract(e.input, '$.content'),
                               json_extract(e.input, '$.new_source'),
                               -- Codex's apply_patch: the patch, or the shell call
                               -- that ran it (edit_parts)
                               case when e.name = 'apply_patch' then patch_of(e.input) end, ''),
                      1, {FIX_TEXT_CHARS})) as edit
      from json_each(f.remedy) step
      join tool_calls e on e.tool_use_id = json_extract(step.value, '$.tool_use_id')
      -- a MultiEdit: each of its edits
      left join json_each(case when e.name = 'MultiEdit' and json_valid(e.input)
                               then e.input else '{{}}' end, '$.edits') part
      where e.name in ({edit_tools}) and json_valid(e.input)
      order by step.key, part.key
      limit {FIX_EDITS})) as fix_edits,
  -- the other calls up to the confirmation: what was looked at or tried
  case when f.fixed_at is null then '[]' else (
    select json_group_array(json(step)) from (
      select json_object('tool', k.name, 'target', substr({TARGET.format(c="k")}, 1, 300),
        'ok', json(case when r.is_error = 1 then 'false' else 'true' end)) as step
      from json_each(f.others) other
      join tool_calls k on k.tool_use_id = other.value
      left join tool_results r on r.tool_use_id = k.tool_use_id
      order by other.key limit {FIX_CALLS})) end as fix_calls,
  -- when nothing was seen to fix it: the steps taken next (pastfix.fixes.next_steps: the
  -- first calls after it that succeeded and did more than look), where a way round it
  -- that no rule knows often shows; after a look that was its answer, what it went on to;
  -- after the user's "no", what they chose instead
  case when coalesce(
    f.outcome not in ('not fixed', 'answered', 'already so', 'declined', 'cancelled'), 1)
    then '[]' else (
    select json_group_array(json(step)) from (
      select json_object('tool', k.name, 'target', substr({TARGET.format(c="k")}, 1, 300),
        'file_path', k.file_path, 'tool_use_id', k.tool_use_id) as step
      from json_each(f.others) other
      join tool_calls k on k.tool_use_id = other.value
      order by other.key)) end as next_calls,
  s.title as session_title,
  {turn_prompt} as turn_prompt,
  session_url(f.session_id, f.tool_use_id) as session_url,
  error_excerpt(f.content, {matched}, '<mark>', '</mark>', {TOKENIZER_SQL})
    as error_snippet_html,
  substr(f.content, 1, {ERROR_CHARS}) as error,
  coalesce(s.agent, '{default_agent}') as agent,
  length(f.content) as error_length,
  f.exact as same_text,
  f.distance as text_distance,
  f.folders as other_folder,
  f.shell as other_shell,
  case when f.words = 1 and not f.same
       then with_message_words(shared_words(f.content, (select words from rare), {TOKENIZER_SQL}),
         error_key_line(f.content), pasted_error(:error))
       else '[]' end as shared_words,
  f.loose as other_file,
  f.names as other_names,
  s.transcript_deleted_at,
  -- the key line of the confirming call's own failure, when it got past this error and
  -- failed on another (pastfix.fixes: a changed retry that got past); else null
  case when f.claims then (
    select error_key_line(r.content) from tool_results r
    where r.tool_use_id = f.confirmed_by and r.is_error = 1) end as fix_error
from framed f
left join messages rm on rm.uuid = f.message_uuid
left join sessions s on s.session_id = f.session_id
-- the next call of the same tool by the same agent that did not fail (of a failure without
-- a time, the next by where it was written)
left join tool_calls ok on ok.tool_use_id = coalesce(({next_ok_timed}), ({next_ok_placed}))
-- a near match whose text holds none of the rare words as a word (the full-text index
-- matched a part of one): nothing to say it shares (`[partial: shares ]`, a new user)
where not (f.words = 1 and not f.same
           and shared_words(f.content, (select words from rare), {TOKENIZER_SQL}) = '[]')
-- The order (find_class, then bm25 and recency): a good match (the signature or every
-- word) first, a near match that shares more than file names before one that does not;
-- then the same text, the same signature, real errors before noise, a shell of the
-- paste's family, the closest text, a fixed failure, one not fixed by replacing every
-- match (every_match), bm25, the newest.
order by f.same or f.words = 2 desc, f.files, f.exact desc, f.names, f.loose, f.same desc,
  f.kind = 'error' desc, f.shell,
  f.distance, f.folders, f.fixed_at is not null desc, {EVERY_MATCH_SQL}, f.score is null,
  f.score, {LATER_THAN_KNOWN.format(t="f.timestamp")}, f.timestamp desc, f.id
"""


# What a search of tool output shows of each result: the call, and the text around the match.
_OUTPUT_HIT_COLUMNS = f"""  c.name as tool,
  {TARGET.format(c="c")} as target,
  tr.is_error,
  substr(tr.content, max(1, instr(lower(tr.content), lower(:pattern)) - 200), 600) as excerpt,
  tr.content_length,
  tr.tool_use_id,
  tr.session_id"""

# Lines of an excerpt a page shows above the line that holds the text: the 200 characters
# before it are ten short lines of a build log's YAML, which filled a hit's box (12em,
# scrolled) on the page over every index and left the text out of sight.
EXCERPT_LEAD_LINES = 2


def excerpt_lead(excerpt: str, pattern: str) -> str:
    """An excerpt of _OUTPUT_HIT_COLUMNS from EXCERPT_LEAD_LINES above the line holding
    `pattern` (found as the query finds it, any case), with an ellipsis for what it cut."""
    found = re.search(re.escape(pattern), excerpt, re.IGNORECASE) if pattern else None
    if found is None:
        return excerpt
    start = found.start()
    for _ in range(EXCERPT_LEAD_LINES + 1):
        start = excerpt.rfind("\n", 0, start)
        if start < 0:
            return excerpt
    return "…" + excerpt[start + 1 :]


SESSION_TOOL_OUTPUT_SQL = f"""
-- Every tool result of one session (failed or not) containing the text, in order.
select
  tr.timestamp,
{_OUTPUT_HIT_COLUMNS}
from tool_results tr indexed by idx_tr_session
left join tool_calls c on c.tool_use_id = tr.tool_use_id
where tr.session_id = :session_id
  and {_contains("tr.content", ":pattern")}
order by tr.timestamp, tr.id
"""

SEARCH_TOOL_OUTPUT_LIMIT = 100

SEARCH_TOOL_OUTPUT_SQL = f"""
-- Tool results of every session (failed or not) containing the text, newest first.
-- A full scan of tool output: like_anchor() makes it a fast prefilter first.
with hits as (
  select tr.id, tr.timestamp from tool_results tr
  where :pattern != ''
    and tr.content like '%' || like_anchor(:pattern) || '%' escape '\\'
    and {_contains("tr.content", ":pattern")}
    and (:project = '' or tr.session_id in (
      select session_id from sessions
      where {_contains("project", ":project")}))
  order by tr.timestamp desc, tr.id desc
  limit {SEARCH_TOOL_OUTPUT_LIMIT}
)
select
  tr.timestamp,
  s.project,
{_OUTPUT_HIT_COLUMNS}
from hits h
join tool_results tr on tr.id = h.id
left join tool_calls c on c.tool_use_id = tr.tool_use_id
left join sessions s on s.session_id = tr.session_id
order by h.timestamp desc, h.id desc
"""

SESSION_ERRORS_SQL = f"""
-- Every failed tool result of one session, in order, with the call that failed.
select
  tr.timestamp as failed_at,
  c.name as tool,
  {TARGET.format(c="c")} as target,
  substr(tr.content, 1, 2000) as error,
  tr.content_length,
  c.is_sidechain,
  c.agent_id,
  tr.tool_use_id,
  tr.session_id
from tool_results tr indexed by idx_tr_session_errors
left join tool_calls c on c.tool_use_id = tr.tool_use_id
where tr.session_id = :session_id and tr.is_error = 1
order by tr.timestamp, tr.id
"""

# The most rows search_messages gives (the best by rank).
SEARCH_ROWS = 100
# When fewer messages than this hold every word of a search, those holding some of them
# follow (after them): `cuda device mismatch` found nothing, as no message said "mismatch"
# (a new user's try, nu41), and a user does not know which of their words is the absent one.
SEARCH_FEW = 3
# search_messages' `matched`: how a message matched the words (its rows in this order).
ALL_WORDS, SOME_WORDS = "all words", "some words"

# A messages_fts row of a session in search_messages' `place` (all when no :project).
_IN_PLACE = (
    "(:project = '' or (select m.session_id from messages m where m.id = messages_fts.rowid)"
    " in place)"
)

# The instructions an agent gives its model, stored as system messages: Codex's developer
# and system messages (its sandbox and permissions rules, collaboration mode, personality),
# Copilot's system prompt. The agent's text, alike in every session but for a path or a
# date, not what was said in one: `pastfix search pytest sandbox escalated` gave only 4
# copies of Codex's sandbox rules, each its own text (a new user's try, nu46 finding 11).
# search_messages leaves them out; the session page shows them.
_INSTRUCTIONS = "{m}type = 'system' and {m}kind in ('developer', 'system')"
_NOT_INSTRUCTIONS_FTS = (
    "not (select " + _INSTRUCTIONS.format(m="i.") + " from messages i"
    " where i.id = messages_fts.rowid)"
)

SEARCH_MESSAGES_SQL = f"""
-- Prompts, replies, thinking and summaries containing every word, best first; then the text
-- the agent injected as user lines (is_meta: hook output, reminders, command caveats,
-- AGENTS.md), each text once, with how many of its copies matched (copies): the same
-- reminder in every turn of every session would otherwise fill the page as "user prompt".
-- When fewer than {SEARCH_FEW} messages hold every word, those holding any of them follow,
-- matched 'some words' (FTS5 OR; a raw: expression has no such fallback). Not the agent's
-- instructions to its model (_INSTRUCTIONS).
-- Under trigram, words under three characters are checked by LIKE (see fts_query).
-- In the sessions whose project path contains :project, when it is given (before the
-- limits, so that another project's best matches do not fill them).
with q as (
  select fts_query(:q, 'all', 'text', {TOKENIZER_SQL}) as fts,
    fts_query(:q, 'any', 'text', {TOKENIZER_SQL}) as some,
    short_words(:q, {TOKENIZER_SQL}) as short
),
place as (
  select session_id from sessions where :project != '' and {_contains("project", ":project")}
),
every as materialized (
  select * from (
    select rowid as id, rank,
      snippet_html(snippet(messages_fts, 0, {SNIPPET_MARKS_SQL}, '…', 24)) as snippet
    from messages_fts where messages_fts match (select fts from q)
      and {_short_words_in("messages_fts.text", "(select short from q)")}
      and {_IN_PLACE} and {_NOT_INSTRUCTIONS_FTS}
    order by rank limit {SEARCH_ROWS})
  union all
  -- no word long enough for trigram: the newest messages holding the short ones
  select * from (
    select id, 0 as rank, text_snippet(text, :q) as snippet from messages
    where (select fts from q) = '{MATCH_NOTHING}' and (select short from q) != '[]'
      and {_short_words_in("text", "(select short from q)")}
      and (:project = '' or session_id in place) and not ({_INSTRUCTIONS.format(m="")})
    order by id desc limit {SEARCH_ROWS})
),
some as (
  select rowid as id, rank,
    snippet_html(snippet(messages_fts, 0, {SNIPPET_MARKS_SQL}, '…', 24)) as snippet
  from messages_fts
  where (select count(*) from every) < {SEARCH_FEW} and (select some from q) != '{MATCH_NOTHING}'
    and messages_fts match (select some from q) and rowid not in (select id from every)
    and {_IN_PLACE} and {_NOT_INSTRUCTIONS_FTS}
  order by rank limit {SEARCH_ROWS}
),
hit as (
  select id, rank, snippet, '{ALL_WORDS}' as matched from every
  union all
  select id, rank, snippet, '{SOME_WORDS}' from some
),
found as (
select
  m.session_id,
  s.project,
  m.timestamp,
  m.type as role,
  m.kind,
  hit.snippet,
  m.is_sidechain,
  m.uuid,
  m.is_meta,
  count(*) over same as copies,
  row_number() over (same order by hit.rank, m.id) as copy,
  hit.matched,
  s.title as session_title,
  resume_command(s.agent, m.session_id, s.source_paths) as resume,
  hit.rank
from hit
join messages m on m.id = hit.id
left join sessions s on s.session_id = m.session_id
window same as (partition by hit.matched, case when m.is_meta = 1 then m.text else m.id end)
)
select session_id, project, timestamp, role, kind, snippet, is_sidechain, uuid, is_meta, copies,
  matched, session_title, resume
from found where copy = 1
order by matched = '{SOME_WORDS}', is_meta, rank
"""


def search_notice(rows: Iterable[dict[str, Any]]) -> str | None:
    """What search_messages' rows say of the words when not every row holds all of them
    (SEARCH_FEW), for the MCP tool and the page; None when every row does."""
    matched = Counter(row.get("matched") for row in rows)
    if not matched[SOME_WORDS]:
        return None
    if not matched[ALL_WORDS]:
        return "No message holds every word; these hold some of them."
    n = matched[ALL_WORDS]
    return (
        f"Only {n} message{'s' * (n != 1)} hold{'s' * (n == 1)} every word (first);"
        " the others hold some of them."
    )


def search_said(q: str, rows: list[dict[str, Any]], tokenizer: str | None = None) -> str | None:
    """What the MCP tool and `pastfix search` say beside search_messages' rows: a raw:
    expression matched as words (raw_problem), the words not all held by the rows
    (search_notice), and, when none holds them all, the tokenizer that finds a CJK word
    inside a longer one (search_hint, of the index's `tokenizer`, when given); None when
    none of these."""
    hint = None if tokenizer is None else search_hint(q, rows, tokenizer)
    notices = (raw_problem(q), search_notice(rows), hint)
    return " ".join(n for n in notices if n) or None


def search_hint(q: str, rows: list[dict[str, Any]], tokenizer: str) -> str | None:
    """cjk_hint, when no row of search_messages holds every word of `q`."""
    return None if any(r.get("matched") == ALL_WORDS for r in rows) else cjk_hint(q, tokenizer)


# Chinese, Japanese and Korean letters: Han, kana, Hangul (and their compatibility forms).
_CJK = lazy(
    "[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
)


def cjk_hint(q: str, tokenizer: str) -> str | None:
    """A word of `q` in Chinese, Japanese or Korean under a tokenizer other than trigram:
    a run of such letters without spaces is one word to it, so `터미널` finds nothing in
    `터미널에서`, `数据库` nothing in `无法连接数据库` (README, Tokenizers), which a new user's
    search met with no hint (nu46 finding 11). None otherwise."""
    if is_trigram(tokenizer) or not _CJK.search(q):
        return None
    return (
        f"Under the {tokenizer or 'unicode61'} tokenizer a Chinese, Japanese or Korean word is"
        " found only whole, not inside a longer run of such letters: `pastfix build"
        " --tokenizer trigram` finds it there (README, Tokenizers)."
    )


SEARCH_FAILURES_SQL = f"""
-- Failed tool results holding the words typed into Search everything (pastfix.plugin.team),
-- matched as search_messages matches messages: every word, best first; when fewer than
-- {SEARCH_FEW} failures hold every word, those holding any of them follow, matched
-- 'some words'. find_past_fix reads its text as an error, and what a user types to search
-- is seldom one: `ssh key github` is prose to it, and holds no word of `git@github.com:
-- Permission denied (publickey)` but github. One row per session and signature, its best.
with q as (
  select fts_query(:q, 'all', 'content', {TOKENIZER_SQL}) as fts,
    -- (not by a stop word alone: `a` of `not a match` is in most failures)
    fts_query(required_words(:q), 'any', 'content', {TOKENIZER_SQL}) as some,
    short_words(:q, {TOKENIZER_SQL}) as short
),
every as materialized (
  select rowid as id, rank from tool_errors_fts
  where tool_errors_fts match (select fts from q)
    and {_short_words_in("tool_errors_fts.content", "(select short from q)")}
),
some as (
  select rowid as id, rank from tool_errors_fts
  where (select count(*) from every) < {SEARCH_FEW} and (select some from q) != '{MATCH_NOTHING}'
    and tool_errors_fts match (select some from q) and rowid not in (select id from every)
),
hit as (
  select id, rank, '{ALL_WORDS}' as matched from every
  union all select id, rank, '{SOME_WORDS}' from some
),
-- (every match grouped before the limit: a session's hundred failures of one error, the
-- best by rank, would otherwise fill it)
ranked as (
  select * from (
    select hit.*, row_number() over (
      partition by hit.matched, tr.session_id, coalesce(tr.signature, '')
      order by hit.rank, tr.id) as nth
    from hit join tool_results tr on tr.id = hit.id)
  where nth = 1
  order by matched = '{SOME_WORDS}', rank, id limit {SEARCH_ROWS}
)
select
  tr.session_id,
  s.project,
  tr.timestamp as failed_at,
  c.name as tool,
  {TARGET.format(c="c")} as target,
  (select snippet_html(snippet(tool_errors_fts, 0, {SNIPPET_MARKS_SQL}, '…', 24))
   from tool_errors_fts where tool_errors_fts match (select some from q)
     and rowid = r.id) as error_snippet_html,
  tr.tool_use_id,
  tr.signature,
  tr.kind,
  coalesce(fx.outcome, 'not fixed') as outcome,
  case when fx.outcome in ({", ".join(f"'{o}'" for o in sorted(fixes.CLAIMS_FIX))})
    then {_FIXED_AT_SQL.format(t="fx.confirmed_at")} end as fixed_at,
  r.matched,
  s.title as session_title
from ranked r
join tool_results tr on tr.id = r.id
left join tool_calls c on c.tool_use_id = tr.tool_use_id
left join sessions s on s.session_id = tr.session_id
left join fixes fx on fx.tool_use_id = tr.tool_use_id
order by r.matched = '{SOME_WORDS}', r.rank, tr.id
"""


RECENT_FAILURES_SQL = f"""
-- The latest failed tool results across all projects (or those whose path contains :project).
with latest as (
  select id, tool_use_id, session_id, timestamp from tool_results indexed by idx_tr_errors_time
  where is_error = 1
    and (:project = '' or session_id in (
      select session_id from sessions
      where {_contains("project", ":project")}))
  order by {LATER_THAN_KNOWN.format(t="timestamp")}, timestamp desc
  limit 100
)
select
  l.session_id,
  s.project,
  l.timestamp as failed_at,
  c.name as tool,
  {TARGET.format(c="c")} as target,
  (select substr(content, 1, 300) from tool_results where id = l.id) as error,
  l.tool_use_id
from latest l
left join tool_calls c on c.tool_use_id = l.tool_use_id
left join sessions s on s.session_id = l.session_id
order by {LATER_THAN_KNOWN.format(t="l.timestamp")}, l.timestamp desc
"""

RECURRING_LIMIT = 200

RECURRING_ERRORS_SQL = f"""
-- One row per error signature, most frequent first; Claude Code's own noise after the
-- real errors, or left out when noise is 'hide'.
with failures as (
  select tr.id, tr.signature, tr.kind, tr.session_id, tr.timestamp
  from tool_results tr indexed by idx_tr_signature
  where tr.is_error = 1 and tr.signature > ''
    and (:noise != 'hide' or tr.kind = 'error')
    and (:project = '' or tr.session_id in (
      select session_id from sessions
      where {_contains("project", ":project")}))
),
grouped as (
  select signature,
    -- a signature's kind is that of most of its failures
    case when 2 * sum(kind = 'error') >= count(*) then 'error'
         else max(nullif(kind, 'error')) end as kind,
    count(*) as failures,
    count(distinct session_id) as sessions,
    min(timestamp) as first_seen,
    max(timestamp) as last_seen,
    max(id) as latest_id
  from failures group by signature
)
select
  g.signature,
  g.kind,
  g.failures,
  g.sessions,
  (select count(distinct s.project) from sessions s where s.session_id in (
     select session_id from failures f where f.signature = g.signature)) as projects,
  g.first_seen,
  g.last_seen,
  (select error_key_line(content) from tool_results where id = g.latest_id) as example,
  -- which agents hit it (sessions.agent)
  (select group_concat(agent, ', ') from (
     select distinct s.agent from sessions s where s.session_id in (
       select session_id from failures f where f.signature = g.signature)
     order by s.agent)) as agents
from grouped g
-- a signature that names no error (`Exit code 1`, `Error`: says_little) after those that do
order by g.kind = 'error' desc, says_little(g.signature), g.failures desc, g.sessions desc,
  g.last_seen desc
limit {RECURRING_LIMIT}
"""

FILE_HISTORY_SQL = f"""
-- The sessions whose tool calls read, edited or wrote a file (its full path, or the end
-- of it after a '/'), newest first, with their failed calls on it.
with calls as (
  select c.tool_use_id, c.session_id, c.name, c.timestamp, c.file_path
  from tool_calls c
  where :path != '' and c.file_path is not null
    and (c.file_path = :path
         or substr(c.file_path, -length(ltrim(:path, '/')) - 1) = '/' || ltrim(:path, '/'))
),
per_session as (
  select c.session_id,
    min(c.timestamp) as first_touched,
    max(c.timestamp) as last_touched,
    count(*) as calls,
    sum(c.name = 'Read') as reads,
    sum(c.name in ({EDIT_TOOLS_SQL})) as edits,
    count(r.id) - count(nullif(r.is_error, 1)) as failed,
    group_concat(distinct c.file_path) as paths
  from calls c left join tool_results r on r.tool_use_id = c.tool_use_id
  group by c.session_id
)
select
  p.session_id,
  s.project,
  s.title,
  p.first_touched,
  p.last_touched,
  p.reads,
  p.edits,
  p.calls,
  p.failed,
  (select substr(r.content, 1, 300) from calls c join tool_results r
     on r.tool_use_id = c.tool_use_id and r.is_error = 1
   where c.session_id = p.session_id order by c.timestamp desc limit 1) as last_error,
  p.paths
from per_session p
left join sessions s on s.session_id = p.session_id
order by p.last_touched desc
limit 100
"""


def find_past_fix_description(default_limit: str) -> str:
    """find_past_fix's description, with its default `limit` as the page or the MCP tool has it."""
    return (
        "Paste an error (error): the failed tool calls whose output matches it, best first,"
        " each with what happened in that session: the outcome (fixed, worked around, papered"
        " over, already done, stopped, answered, already so, approved, declined, cancelled, not"
        " fixed), the remedy (the"
        " edits and commands that made the difference) and the call that confirmed it, the"
        " assistant's next reply and"
        " the command to resume the session. One row per session and error signature, with how"
        " often that session hit it. Paths, numbers and ids need not match: the same"
        " signature is enough. Words are matched as words; start with raw: to write an FTS5"
        " query (raw: ENOENT OR EISDIR). How many rows (limit):"
        f" {default_limit}, at most {FIND_MAX}."
    )


# What agents get of each column of a canned query that an MCP tool serves (mcp.py): its
# JSON Schema type and the most characters of each text kept (ALL: whole; HTML: an HTML
# snippet given as plain text), or None: left out, being for the page only (HTML, links,
# the whole error, ranking keys, ids of calls). The keys are the query's columns, in order
# (a test checks them against its SQL): the one list of them. Lists keep at most
# AGENT_ITEMS entries; mcp.lean_row drops a row's last remedy steps past mcp.ROW_CHARS.
# find_past_fix's remedy goes as cards.remedy_steps() shows it, each step with its edits' lines
# (so fix_edits is not repeated), paths inside the project relative to it, and
# files_edited_after only when no fix is claimed (else they are the remedy's).
# Claude Code and Codex give the model a tool's structured content (JSON.stringify'd) and
# nothing else, so these cuts are what it reads. A find_past_fix row of
# ../shared/corpus/real is 4,415 characters whole and 949 cut (medians; p90 12,384 and
# 1,208), of the demo 2,228 and 840 (`python benchmarks/mcp_rows.py index.db`; issue 21).
ALL, HTML = 0, "html"
AGENT_ITEMS = 3
AgentColumn = tuple[str, int | str] | None
FIND_PAST_FIX_COLUMNS: dict[str, AgentColumn] = {
    "session_id": ("string", ALL),
    "project": ("string", ALL),
    "failed_at": ("string", ALL),
    "tool": ("string", ALL),
    "target": ("string", 100),
    "error_snippet": ("string", 160),
    "next_text": ("string", 120),
    "next_ok_target": None,
    "files_edited_after": ("array", 120),
    "resume": ("string", ALL),
    "tool_use_id": None,
    "next_ok_tool_use_id": None,
    "matched": ("string", ALL),
    "score": None,
    "signature": ("string", 120),
    "kind": ("string", ALL),
    "occurrences": ("integer", ALL),
    # of a row that claims a fix: its session's failures of its signature that nothing fixed
    "left_unsolved": ("integer", ALL),
    "fixed_at": None,
    "fix_tool_use_id": None,
    "fix_target": ("string", 100),
    "fix_as_was": None,
    "outcome": ("string", ALL),
    "remedy": ("array", 60),
    "fix_edits": None,
    "fix_calls": None,
    "next_calls": ("array", 100),
    "session_title": ("string", 60),
    # the prompt of the failure's turn, when it is not the session's first
    "turn_prompt": ("string", 60),
    "session_url": None,
    "error_snippet_html": None,
    "error": None,
    "agent": ("string", ALL),
    "error_length": None,
    "same_text": None,
    "text_distance": None,
    "other_folder": None,
    # 1: written by a shell of another family than the paste's (other_shell)
    "other_shell": None,
    "shared_words": ("array", 60),
    # 1: matched as the same error about another file (signatures.loose, or a diagnostic of
    # another file: diagnosed_elsewhere), not as its own
    "other_file": ("integer", ALL),
    # 1: its signature is the pasted error's, but every name it quotes is another
    # (other_names): the same error signature about other names, not the error itself;
    # also, with other_file 1, another file run that was not there or a shell could not run
    # or write (its_file_is_the_error)
    "other_names": ("integer", ALL),
    # when the session's transcript was deleted (`claude --resume` needs it): kept here
    "transcript_deleted_at": ("string", ALL),
    "fix_error": ("string", 120),
}

CANNED_QUERIES: dict[str, dict[str, Any]] = {
    "find_past_fix": {
        "title": "Find past fix",
        "description": find_past_fix_description(f"{FIND_LIMIT} when empty"),
        "sql": find_past_fix_sql(),
        "params": ["error", "limit"],
        "columns": FIND_PAST_FIX_COLUMNS,
        "hide_sql": True,
    },
    "recurring_errors": {
        "title": "Recurring errors",
        "description": (
            "One row per error signature (the key line of a failure, with paths, numbers and"
            " ids replaced), most frequent first, in the projects whose path contains the text"
            " (project), or in all when it is empty. Claude Code's own noise (rejected or"
            " interrupted calls, files not read first, ...) comes after the real errors, and"
            " a signature that names no error (an exit status alone) after those that do;"
            " hide leaves the noise out (noise)."
        ),
        "sql": RECURRING_ERRORS_SQL,
        "params": ["project", "noise"],
        "columns": {
            "signature": ("string", 200),
            "kind": ("string", ALL),
            "failures": ("integer", ALL),
            "sessions": ("integer", ALL),
            "projects": ("integer", ALL),
            "first_seen": ("string", ALL),
            "last_seen": ("string", ALL),
            "example": ("string", 200),
            "agents": ("string", ALL),
        },
        "hide_sql": True,
    },
    "file_history": {
        "title": "File history",
        "description": (
            "The sessions that read, edited or wrote a file (path), newest first, with how many"
            " of their calls on it failed and the last error. A full path, or its end such as"
            " src/app.py."
        ),
        "sql": FILE_HISTORY_SQL,
        "params": ["path"],
        "columns": {
            "session_id": ("string", ALL),
            "project": ("string", ALL),
            "title": ("string", 100),
            "first_touched": ("string", ALL),
            "last_touched": ("string", ALL),
            "reads": ("integer", ALL),
            "edits": ("integer", ALL),
            "calls": ("integer", ALL),
            "failed": ("integer", ALL),
            "last_error": ("string", 300),
            "paths": ("string", 300),
        },
        "hide_sql": True,
    },
    "session_tool_output": {
        "title": "Search one session's tool output",
        "description": (
            "Every tool result of one session (session_id), failed or not, that contains the"
            " text (pattern), case-insensitive. % and _ are literal characters."
        ),
        "sql": SESSION_TOOL_OUTPUT_SQL,
        "params": ["session_id", "pattern"],
        "columns": {
            "timestamp": ("string", ALL),
            "tool": ("string", ALL),
            "target": ("string", 160),
            "is_error": ("integer", ALL),
            "excerpt": ("string", 500),
            "content_length": ("integer", ALL),
            "tool_use_id": None,
            "session_id": ("string", ALL),
        },
        "hide_sql": True,
    },
    "search_tool_output": {
        "title": "Search all tool output",
        "description": (
            "Tool results of every session, failed or not, that contain the text (pattern),"
            " case-insensitive, newest first (at most 100), in the projects whose path contains"
            " the text (project), or in all when it is empty. It reads all tool output, about"
            " 0.1 s per 100 MB; find_past_fix searches failures faster. % and _ are literal"
            " characters."
        ),
        "sql": SEARCH_TOOL_OUTPUT_SQL,
        "params": ["pattern", "project"],
        "hide_sql": True,
    },
    "session_errors": {
        "title": "Failures in one session",
        "description": "Every failed tool result of one session (session_id), in order.",
        "sql": SESSION_ERRORS_SQL,
        "params": ["session_id"],
        "columns": {
            "failed_at": ("string", ALL),
            "tool": ("string", ALL),
            "target": ("string", 160),
            "error": ("string", 500),
            "content_length": ("integer", ALL),
            "is_sidechain": ("integer", ALL),
            "agent_id": ("string", ALL),
            "tool_use_id": None,
            "session_id": ("string", ALL),
        },
        "hide_sql": True,
    },
    "search_messages": {
        "title": "Search messages",
        "description": (
            "Prompts, replies, thinking and compaction summaries containing every word of the"
            " text (q), best first (at most 100); then text the agent injected (is_meta: hook"
            " output, reminders), each text once with how many copies matched. When fewer than"
            f" {SEARCH_FEW} messages hold every word, those holding any of them follow, after"
            " them: `matched` says which ('all words' or 'some words'). Start with raw: for an"
            " FTS5 query (matched as written, no fallback). In the projects whose path contains"
            " the text (project), or in all when it is empty."
        ),
        "sql": SEARCH_MESSAGES_SQL,
        "params": ["q", "project"],
        "columns": {
            "session_id": ("string", ALL),
            "project": ("string", ALL),
            "timestamp": ("string", ALL),
            "role": ("string", ALL),
            "kind": ("string", ALL),
            "snippet": ("string", HTML),
            "is_sidechain": ("integer", ALL),
            "uuid": None,
            # text the agent injected (hook output, reminders), and how often it matched
            "is_meta": ("integer", ALL),
            "copies": ("integer", ALL),
            # 'all words', or 'some words' after fewer than SEARCH_FEW held all of them
            "matched": ("string", ALL),
            "session_title": ("string", 60),
            # the command that reopens the session (its agent's)
            "resume": ("string", ALL),
        },
        "hide_sql": True,
    },
    "recent_failures": {
        "title": "Recent failures",
        "description": (
            "The 100 latest failed tool calls, across projects or in the projects whose path"
            " contains the text (project); leave it empty for all."
        ),
        "sql": RECENT_FAILURES_SQL,
        "params": ["project"],
        "hide_sql": True,
    },
}


# -- the session page -------------------------------------------------------

# A page shows this many messages; a long session is split into pages.
PAGE_SIZE = 500
# Characters of a message, a tool input or a tool result shown on the page; the
# full text is one click away on its row page.
PAGE_TEXT_CHARS = 20_000
PAGE_INPUT_CHARS = 2_000
PAGE_RESULT_CHARS = 5_000

SESSION_SQL = "select * from sessions where session_id = ?"


def has_session(conn: sqlite3.Connection, session_id: str) -> bool:
    """Whether the index holds session `session_id`: a query of one session that gives no
    rows means none, or no such session, which an agent must be told apart."""
    return conn.execute(SESSION_SQL, [session_id]).fetchone() is not None


# The hook names the sessions it counts by their first 8 characters (hook.context).
SESSION_PREFIX_CHARS = 8
SESSION_PREFIX_SQL = (
    "select session_id from sessions where session_id >= ?1 and session_id < ?1 || char(1114111)"
    " order by session_id limit 2"
)


def session_of_prefix(conn: sqlite3.Connection, prefix: str) -> str | None:
    """The one session whose id starts with `prefix`, of SESSION_PREFIX_CHARS or more; None
    when no session's does, or more than one's."""
    if len(prefix) < SESSION_PREFIX_CHARS:
        return None
    found = conn.execute(SESSION_PREFIX_SQL, [prefix]).fetchall()
    return str(found[0][0]) if len(found) == 1 else None


# The sessions stored from the files at these paths (through source_files' unique index:
# the hook runs this on every failure; a match of the paths' ends read every row, 38 ms
# for 10,000 files).
SESSIONS_OF_FILES_SQL = (
    "select distinct j.value from source_files f, json_each(f.session_ids) j"
    " where f.path in (select value from json_each(?))"
)


def sessions_of_files(conn: sqlite3.Connection, paths: Iterable[str]) -> set[str]:
    """The ids of the sessions the index stored from the transcript files at `paths`: Claude
    Code 1.0.x wrote a resumed session's lines, under a new id, into the file of the session
    it resumed, so one file holds several sessions (README, Building the index)."""
    wanted = sorted({path for path in paths if path})
    if not wanted:
        return set()
    return {str(r[0]) for r in conn.execute(SESSIONS_OF_FILES_SQL, [json.dumps(wanted)])}


SESSION_MESSAGE_IDS_SQL = (
    "select id, uuid from messages where session_id = ?"
    f" order by {KNOWN_TIME_ORDER.format(t='timestamp')}, id"
)
SESSION_MESSAGES_SQL = f"""
select id, uuid, type, kind, timestamp, substr(coalesce(text, ''), 1, ?) as text,
  length(coalesce(text, '')) as text_length,
  is_sidechain, is_meta, is_compact_summary, agent_id, model
from messages where session_id = ?
order by {KNOWN_TIME_ORDER.format(t="timestamp")}, id limit ? offset ?
"""
SESSION_CALLS_SQL = f"""
select tool_use_id, message_uuid, timestamp, name, command, file_path, description,
  substr(input, 1, ?) as input, length(input) as input_length, is_sidechain, agent_id,
  -- an edit's whole input, for its diff (the input shown above is cut)
  case when name in ({EDIT_TOOLS_SQL}) then input end
    as edit_input
from tool_calls where session_id = ? and message_uuid in (select value from json_each(?))
order by timestamp, tool_use_id
"""
# What followed each failure of a session (pastfix.fixes), to mark remedies on its page.
SESSION_FIXES_SQL = (
    "select tool_use_id, outcome, confirmed_by, remedy from fixes where session_id = ?"
)
SESSION_RESULTS_SQL = """
select id, tool_use_id, message_uuid, timestamp, is_error,
  substr(coalesce(content, ''), 1, ?) as content, coalesce(content_length, 0) as content_length
from tool_results indexed by idx_tr_session
where session_id = ? and (tool_use_id in (select value from json_each(?))
                          or message_uuid in (select value from json_each(?)))
order by timestamp, id
"""
# A session's failures, each with its key line: the line the list on its page shows, as
# a find card does (the first line is `Exit code N` for every shell failure, and nothing
# for a Claude Code 1.0.21 result that starts with a progress line's carriage return);
# with what the user said on rejecting it (`user_said`), which its key line, "... To tell
# you how to proceed, the user said:", cut off before the words that matter (a new user's
# try, nu46 finding 6), and its outcome (pastfix.fixes).
SESSION_FAILURES_SQL = f"""
select tr.tool_use_id, tr.timestamp, c.name as tool,
  coalesce(c.command, c.file_path, c.description) as target,
  substr(tr.content, 1, 200) as error, error_key_line(tr.content) as key_line,
  nullif(trim(substr(tr.content, nullif(instr(tr.content, '{fixes.USER_SAID}'), 0)
    + {len(fixes.USER_SAID)}, 400), ' ' || char(9, 10, 13)), '') as user_said,
  fx.outcome
from tool_results tr indexed by idx_tr_session_errors
left join tool_calls c on c.tool_use_id = tr.tool_use_id
left join fixes fx on fx.tool_use_id = tr.tool_use_id
where tr.session_id = ? and tr.is_error = 1
order by {KNOWN_TIME_ORDER.format(t="tr.timestamp")}, tr.id
"""
CALL_MESSAGE_SQL = "select message_uuid from tool_calls where tool_use_id = ? and session_id = ?"


# -- the library entry points -----------------------------------------------


class _Index(sqlite3.Connection):
    """A read connection to an index, knowing how long run() lets its queries take."""

    time_limit: float | None = None


def connect(
    path: str | Path, timeout: float | None = None, time_limit: float | None = None
) -> sqlite3.Connection:
    """Open an index read-only, with the SQL functions registered.

    `timeout`: how long each statement waits for a build that locks the index
    (None: BUSY_TIMEOUT). `time_limit`: how long run() lets one query take
    (None: TIME_LIMIT; 0: no limit).
    """
    path = Path(path)
    if not path.is_file():
        if path.exists():  # a FIFO, a device: "not found" sent the user to build over it
            raise NotAnIndex(f"{path} is not an index: not a regular file")
        raise NotAnIndex(f"{path} not found: build it with `pastfix build {path}`")
    if companion := paths.companion_not_file(path):
        raise NotAnIndex(companion)
    try:
        conn = sqlite3.connect(
            read_uri(path),
            uri=True,
            timeout=BUSY_TIMEOUT if timeout is None else timeout,
            factory=_Index,
        )
    except sqlite3.DatabaseError as e:
        raise NotAnIndex(open_error(path, e)) from e
    conn.time_limit = TIME_LIMIT if time_limit is None else time_limit
    try:
        # One read transaction for both checks: they wait for a build's lock once.
        conn.execute("BEGIN")
        names = {row[0] for row in conn.execute("select name from sqlite_master")}
        index = is_index(names)
        current = index and schema_current(conn)
        conn.commit()
    except sqlite3.DatabaseError as e:
        conn.close()
        raise NotAnIndex(open_error(path, e)) from e
    if not index:
        conn.close()
        raise NotAnIndex(NOT_AN_INDEX.format(path=path))
    if not current:
        conn.close()
        raise NotAnIndex(
            f"{path} was built by an older pastfix: run `pastfix build {path}` to bring it"
            " up to date"
        )
    register_functions(conn, f"/{path.stem}")
    return conn


# Whether the newest migration was applied.
SCHEMA_CURRENT_SQL = "select 1 from _sqlite_migrations where migration_set = 'pastfix' and name = ?"


def schema_current(conn: sqlite3.Connection) -> bool:
    """Whether the index has the schema this pastfix queries (see pastfix.LATEST_MIGRATION)."""
    return conn.execute(SCHEMA_CURRENT_SQL, [LATEST_MIGRATION]).fetchone() is not None


def run(conn: sqlite3.Connection, name: str, **params: object) -> list[dict[str, Any]]:
    """Rows of the canned query `name`, as dicts; parameters not given are empty.

    Within the connection's time limit (connect()); a query too slow, or with a
    pattern too long for LIKE, raises QueryError with a one-line message.
    """
    query = CANNED_QUERIES[name]
    # A word given as bytes that are no UTF-8 (an argument in Latin-1) is a str holding
    # surrogates, which sqlite3 refuses to bind: `pastfix search` stopped with a traceback.
    # Stored text is UTF-8, so each is U+FFFD, as a paste's are (pasted()).
    values = {
        p: valid_text(v) if isinstance(v, str) else v
        for p in query["params"]
        for v in [params.get(p, "")]
    }
    with limited(conn):
        return _dicts(conn.execute(query["sql"], values))


@contextmanager
def limited(conn: sqlite3.Connection) -> Iterator[None]:
    """Stop what runs inside (rows are fetched inside too) at `conn`'s time limit.

    A progress handler, not a thread calling interrupt(): it runs between steps
    of SQLite's virtual machine, FTS5's NEAR matching included. SQLite errors a
    user can act on become QueryError.
    """
    seconds = getattr(conn, "time_limit", None)
    deadline = time.monotonic() + seconds if seconds else None
    if deadline is not None:
        conn.set_progress_handler(lambda: time.monotonic() > deadline, PROGRESS_STEPS)
    try:
        yield
    except sqlite3.OperationalError as e:
        if deadline is not None and str(e) == "interrupted" and time.monotonic() > deadline:
            raise QueryError(f"query took longer than {seconds:g} s; narrow it") from None
        if "pattern too complex" in str(e):
            raise QueryError(
                f"a pattern is too long: SQLite's LIKE takes at most {LIKE_PATTERN_BYTES:,}"
                " bytes (escaped); shorten it"
            ) from None
        raise
    finally:
        if deadline is not None:
            conn.set_progress_handler(None, 0)


def read_uri(path: Path) -> str:
    """The URI that opens the index at `path` read-only.

    Reading an index in WAL mode needs its -shm file, which SQLite creates beside it: in
    a folder no one can write (a read-only mount, a team's shared folder), that failed,
    'unable to open database file'. There, with no -wal or -journal file beside it, no
    write can be under way nor left to apply, so the file is opened immutable, as the
    read-only medium it is: no -shm is needed, and nothing is locked.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    folder = path.resolve().parent
    if not os.access(folder, os.W_OK) and not any(
        Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-journal")
    ):
        uri += "&immutable=1"
    return uri


def damaged_index(path: Path, text: str) -> str:
    """What to do with an index SQLite finds malformed (a disk error, a copy cut short):
    the sessions kept without a transcript are in no other place."""
    return (
        f"{path} is damaged ({text}): move it aside and run `pastfix build {path}`;"
        f" the sessions it kept without a transcript are only in it (`sqlite3 {path}"
        " .recover` may save them)"
    )


def open_error(path: Path, error: sqlite3.DatabaseError) -> str:
    """What keeps the index at `path` from being read, in words a user can act on."""
    text = str(error)
    folder = path.resolve().parent
    if "locked" in text:
        return (
            f"{path} is locked by a process writing it (a fresh or --force build holds it"
            " until it ends): try again when it is done"
        )
    if "not a database" in text:
        return f"{path} is not a SQLite database"
    if "malformed" in text:
        return damaged_index(path, text)
    if "user-defined function raised exception" in text:
        # A TEXT value that is not UTF-8 (a damaged page; no build writes one) fails in
        # sqlite3 before the function it is given to runs: said as such, not as a bug.
        return damaged_index(path, "a text in it is not valid UTF-8")
    journal = Path(f"{path}-journal")
    if journal.exists():
        return (
            f"{path} has a leftover journal, {journal}, from an interrupted build, which"
            f" only a writer can roll back: run `pastfix build {path}` with write access"
            f" to {folder}"
        )
    if not os.access(folder, os.W_OK):
        return (
            f"{folder} is read-only: SQLite must create {path.name}-shm beside the index"
            " to read it; copy the index to a writable folder"
        )
    return f"{path} cannot be read: {text}"


def tokenizer(conn: sqlite3.Connection) -> str:
    """The FTS5 tokenizer of an index (see db.set_tokenizer)."""
    return str(conn.execute(f"select {TOKENIZER_SQL}").fetchone()[0])


def find_past_fix(
    conn: sqlite3.Connection, error: str, limit: int = FIND_LIMIT
) -> list[dict[str, Any]]:
    """Rows of the find_past_fix canned query for `error`, as dicts.

    The JSON columns (JSON_COLUMNS) are decoded into lists.
    """
    return decode_json_columns(run(conn, "find_past_fix", error=pasted(error), limit=limit))


def decode_json_columns(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """find_past_fix rows with their JSON columns (JSON_COLUMNS) decoded into lists."""
    for row in rows:
        for column in JSON_COLUMNS:
            row[column] = json.loads(row[column]) if row[column] else []
    return rows


def _dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor]


def session_page(
    conn: sqlite3.Connection,
    session_id: str,
    *,
    page: int | None = None,
    call: str | None = None,
    message: str | None = None,
    page_size: int = PAGE_SIZE,
) -> dict[str, Any] | None:
    """One page of a session's conversation, or None when there is no such session.

    Messages come in time order, each with its tool calls and their results
    (a result whose call is on another page stands on its own). `call` or
    `message` picks the page holding that tool call or message; otherwise
    `page` (1-based, clamped).
    """
    sessions = _dicts(conn.execute(SESSION_SQL, [session_id]))
    if not sessions:
        return None
    order = conn.execute(SESSION_MESSAGE_IDS_SQL, [session_id]).fetchall()
    pages = max(1, -(-len(order) // page_size))
    if call:
        found = conn.execute(CALL_MESSAGE_SQL, [call, session_id]).fetchone()
        message = found[0] if found else message
    position = next((i for i, (_, uuid) in enumerate(order) if uuid == message), None)
    if position is not None:
        page = position // page_size + 1
    page = min(max(page or 1, 1), pages)
    messages = _dicts(
        conn.execute(
            SESSION_MESSAGES_SQL,
            [PAGE_TEXT_CHARS, session_id, page_size, (page - 1) * page_size],
        )
    )
    uuids = json.dumps([m["uuid"] for m in messages])
    calls = _dicts(conn.execute(SESSION_CALLS_SQL, [PAGE_INPUT_CHARS, session_id, uuids]))
    results = _dicts(
        conn.execute(
            SESSION_RESULTS_SQL,
            [PAGE_RESULT_CHARS, session_id, json.dumps([c["tool_use_id"] for c in calls]), uuids],
        )
    )
    result_of = {r["tool_use_id"]: r for r in results}
    marks = _fix_marks(conn, session_id)
    calls_of: dict[str, list[dict[str, Any]]] = {}
    for c in calls:
        c["result"] = result_of.get(c["tool_use_id"])
        c["edits"] = edit_parts(c["name"], c.pop("edit_input"))
        c["fix"] = marks.get(c["tool_use_id"], {})
        calls_of.setdefault(c["message_uuid"], []).append(c)
    on_page = {c["tool_use_id"] for c in calls}
    orphans_of: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        if r["tool_use_id"] not in on_page:
            orphans_of.setdefault(r["message_uuid"], []).append(r)
    for m in messages:
        m["tool_calls"] = calls_of.get(m["uuid"], [])
        m["tool_results"] = orphans_of.get(m["uuid"], [])
    return {
        "session": sessions[0],
        "resume": agents.resume_command(
            sessions[0].get("agent"), session_id, sessions[0].get("source_paths")
        ),
        "agent_label": agents.label(sessions[0].get("agent")),
        "page": page,
        "pages": pages,
        "page_size": page_size,
        "message_count": len(order),
        "failures": _dicts(conn.execute(SESSION_FAILURES_SQL, [session_id])),
        "messages": messages,
    }


def _fix_marks(conn: sqlite3.Connection, session_id: str) -> dict[str, dict[str, Any]]:
    """What the session page says of each call about fixes, by tool_use_id.

    A failure: its `outcome`, its remedy steps (`fixed_by`) and confirming call
    (`confirmed_by`). A remedy step: the failures it helped fix (`remedy_of`); a
    confirming call: the failures it confirmed (`confirms`).
    """
    marks: dict[str, dict[str, Any]] = {}
    for tool_use_id, outcome, confirmed_by, remedy in conn.execute(SESSION_FIXES_SQL, [session_id]):
        claims = outcome in fixes.CLAIMS_FIX
        steps = [step["tool_use_id"] for step in json.loads(remedy or "[]")] if claims else []
        mark = marks.setdefault(tool_use_id, {})
        mark.update(outcome=outcome, fixed_by=steps, confirmed_by=confirmed_by if claims else None)
        for step in steps:
            marks.setdefault(step, {}).setdefault("remedy_of", []).append(tool_use_id)
        if claims and confirmed_by:
            marks.setdefault(confirmed_by, {}).setdefault("confirms", []).append(tool_use_id)
    return marks


def edit_parts(tool: str, tool_input: str | None) -> list[dict[str, str]]:
    """The changes of an edit call as `{"old", "new"}` pairs (each of a MultiEdit), or one
    `{"patch"}` for apply_patch; empty for anything else or input that is not JSON."""
    if not tool_input:
        return []
    try:
        found = stored_json(tool_input)
    except ValueError:
        return []
    if not isinstance(found, dict):
        return []
    if tool == "apply_patch":
        # Codex: the patch tool's input, or the shell command that ran apply_patch
        texts = [found.get("input"), found.get("patch"), found.get("cmd"), found.get("command")]
        texts += [w for w in found.get("command") or [] if isinstance(w, str)]
        patch = next((t for t in texts if isinstance(t, str) and "*** Begin Patch" in t), None)
        return [{"patch": patch}] if patch else []
    parts = found.get("edits") if tool == "MultiEdit" else [found]
    edits = []
    for part in parts if isinstance(parts, list) else []:
        if not isinstance(part, dict):
            continue
        old = part.get("old_string") or part.get("old_source") or ""
        new = part.get("new_string") or part.get("new_source") or part.get("content") or ""
        if isinstance(old, str) and isinstance(new, str) and (old or new):
            edits.append({"old": old, "new": new})
    return edits


def patch_of(tool_input: str | None) -> str | None:
    """The patch of a Codex apply_patch call (find_past_fix's fix_edits): the tool's input,
    or the shell command that ran apply_patch with it (Codex 0.3x's `shell`, 0.98's
    `exec_command`: the fifth held-out set), whose patch the card showed no line of."""
    parts = edit_parts("apply_patch", tool_input)
    return parts[0]["patch"] if parts else None


def failed_patch_file(tool_input: str | None, error: str | None) -> str | None:
    """The file a failed patch's error names when it is not the patch's first (the call's
    file_path, its card's `on:`), else None: Codex's `apply_patch verification failed:
    Failed to find expected lines in /abs/src/App.tsx:` for a patch of `ui/vite.config.ts`
    then `src/App.tsx` (a new user's try, session 34) is a failure on App.tsx."""
    patch = patch_of(tool_input)
    if not patch or not error:
        return None
    head = error[:1000].split("\n", 1)[0]
    files = PATCH_FILE.findall(patch)
    named = next((path for path in files if _names_file(head, path)), None)
    return named if named and named != files[0] else None


def _names_file(text: str, path: str) -> bool:
    """Whether `text` names `path` whole, itself or at the end of a longer path."""
    name = re.escape(path.lstrip("./"))
    return bool(name) and re.search(rf"(?:^|[\s/'\"`]){name}(?=$|[\s:'\"`,])", text) is not None


# A path at the end of pasted text: `src/app.py`, `/home/u/x.ts:12:5`, `'./lib/a.js'`.
_PASTED_PATH = lazy(
    r"""(?:^|\s)['"`(]?(?P<path>(?:~|\.{1,2})?/?(?:[\w@.+-]+/)+[\w@.+-]+|[\w@+-]+\.[A-Za-z]\w{0,7})"""
    r"""(?::\d+){0,2}['"`),.:;]*\s*$"""
)


def pasted_path(text: object) -> str | None:
    """The file path the pasted text is, or ends in, for its file history; None if none.

    A URL is not a path; a path's line and column (`:12:5`) and quotes are left off.
    """
    found = _PASTED_PATH.search(str(text or "").strip()[-500:])
    if not found or "://" in str(text):
        return None
    path = found.group("path").removeprefix("./")
    return path if "/" in path or "." in path.strip(".") else None


def one_line(text: str | None, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis, at a space when
    one is in its second half (a reply, a title, a command's words), else where it falls
    (one long path, Chinese)."""
    flat = " ".join((text or "").split())
    if len(flat) <= width:
        return flat
    cut = flat[: width - 1]
    space = cut.rfind(" ")
    return (cut[:space].rstrip(",;:") if space > width // 2 else cut) + "…"


# Markdown that reads as noise on one line: bold and code marks, heading marks, table rules.
_MARKS = lazy(r"\*\*|__|`")
_BLOCKS = lazy(r"(?m:^#{1,6}\s+)|(?m:^\s*\|?[\s:|-]*-{3,}[\s:|-]*\|?\s*$)")


# A model's reasoning written into its reply as text (`<thinking>...</thinking>`, seen from
# models run through other providers), to the end of the text when it is cut off there.
_THINKING = lazy(r"<thinking>.*?(?:</thinking>|\Z)", re.S)


# A failure's said-next line (find_past_fix's next_text) is the agent's first reply after
# it, unless that reply opens as other work (_OTHER_WORK): a closing pleasantry (`Perfect! I
# just demonstrated multiple tools in one turn ...` after `python: command not found`, the
# hook's line of nu47 finding 7), a summary, the next task (`Now let me create the basic
# folder structure` after `File has not been read yet`). Then it is quoted from the first
# sentence of its replies in the window that names the failure: a word of its signature, a
# program its command ran, the file it worked on, a word its fixing call put in, or a word
# of error talk (_ERROR_TALK); else there is none. Over the 595 failures of held-out sets
# 30-40 and the real corpus with a said-next line, 20 lost it (14 of them of other work, 6
# arguably of the failure: `Now let me make the edits line by line:` after `String to
# replace not found`) and 6 start later (`Perfect! ...` gives `Attempted to run the Python
# script (failed because python isn't available, but let me try with python3)`); of the
# 566 left as they were, 59 read as other work, in words no rule tells (`I have identified
# an inconsistency in your project configuration` after a tool not found, `已去掉卡片顶部的
# ...` after rg's `Exit code 1`: nothing found, the task's summary next). Most first replies that
# name nothing of the failure are about it in words of their own (`Let me find the correct
# paths:` after `File does not exist.`, `服务器没在跑，先启动。` after curl's `000`), so
# naming it is asked only of a reply of other work.
# Words that speak of a failure in any wording: English stems and the words of a few other
# languages (the agents' replies of the held-out sets are in Chinese, Japanese, Korean,
# Russian, German, French, Spanish and Portuguese too).
_ERROR_TALK = lazy(
    r"(?i)\b(?:errors?|fail(?:s|ed|ing|ure)?|issue|problem|missing|not found|(?:does|did)n'?t"
    r" exist|wrong|fehler|erreur|échec|fallo|falla|erro|ошибк\w*|не удалось)\b"
    r"|错误|失败|问题|錯誤|失敗|問題|エラー|오류|에러|실패|문제"
)
# How a reply of other work opens: a pleasantry of success, a summary, a turn to the next
# step (`Now let me read the key source modules`), in English and a few other languages.
_OTHER_WORK = lazy(
    r"(?i)^\W*(?:perfect|great|excellent|awesome|fixed|done|good|all (?:set|done|good)"
    r"|summary|here(?:'s| is) (?:what|a summary)|now\b|parfait|perfekt|super\b|完成|完美|太好"
    r"|好的|完了|완료|좋습니다)"
)
# Where a reply's sentences start: after a sentence's stop and a space, a CJK stop, a line
# (a list's items are sentences of their own).
_SENTENCE = lazy(r"(?<=[.!?;])\s+|(?<=[。！？])|\n+")


def said_about(
    texts: object,
    signature: object,
    command: object,
    file_path: object,
    fix_target: object,
) -> str | None:
    """What the agent said of a failure, as plain_text: the first of `texts` (its replies
    after it, a JSON array in order), or when that opens as other work, those replies from
    the first sentence that names the failure on; None when none does."""
    try:
        replies = json.loads(texts) if isinstance(texts, str) else []
    except ValueError:
        return None
    texts_of = [_THINKING.sub(" ", reply) for reply in replies if isinstance(reply, str)]
    first = _MARKS.sub("", texts_of[0]) if texts_of else ""
    if not _OTHER_WORK.match(first):
        return plain_text(first) or None
    # (only then: a hook's lookup asks it of up to 30 rows)
    words = _failure_words(str(signature or ""), command, file_path, fix_target)
    named = (
        re.compile(
            r"(?<![A-Za-z0-9])(?:"
            + "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
            + r")(?![A-Za-z0-9])",
            re.IGNORECASE,
        )
        if words
        else None
    )
    for text in texts_of:
        starts = [0] + [m.end() for m in _SENTENCE.finditer(text)]
        for start, end in zip(starts, starts[1:] + [len(text)], strict=True):
            sentence = _MARKS.sub("", text[start:end])
            if _ERROR_TALK.search(sentence) or (named and named.search(sentence)):
                # (not a list item's mark: `- Attempted to run the Python script ...`)
                return plain_text(text[start:]).lstrip("-*•· ") or None
    return None


def _failure_words(
    signature: str, command: object, file_path: object, fix_target: object
) -> set[str]:
    """The words that name a failure (said_about): its signature's, its call's programs or
    file, the words its fixing call put in."""
    head = signatures.without_folders(signature)
    words = {t for t in _TOKEN.findall(head.lower()) if _distinctive_token(t) and len(t) > 2}
    mine = str(command or file_path or "")
    if command:
        words |= {i.program.lower() for i in fixes.intents(str(command)) if i.program}
    elif file_path:
        words.add(re.split(r"[/\\]", str(file_path))[-1].lower())
    # (of its first line: a heredoc's text, `cat > types/index.ts << 'EOF'` and the file it
    # writes, holds the words of any summary of that work)
    theirs = {t.lower() for t in _TOKEN.findall(str(fix_target or "").split("\n", 1)[0])}
    words |= {
        t
        for t in theirs - {t.lower() for t in _TOKEN.findall(mine)}
        if _distinctive_token(t) and len(t) > 2 and not t.isdigit()
    }
    return {w for w in words if w and w not in STOP_WORDS}


def plain_text(text: object, width: object = 600) -> str:
    """Markdown as plain text on one line: no `**`, headings or table rules, no reasoning
    in `<thinking>` tags (a card's "next:" showed it raw), cut at a word."""
    plain = _MARKS.sub("", _BLOCKS.sub(" ", _THINKING.sub(" ", str(text or ""))))
    flat = " ".join(plain.replace(" | ", " · ").split())
    flat = flat.strip("| ").replace("| ", "· ").replace(" |", " ·")
    flat = re.sub(r"(?: ·)+ ·", " ·", flat).strip("· ")
    limit = int(width) if isinstance(width, (int, str)) and str(width).isdigit() else 600
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:·") + "…"
