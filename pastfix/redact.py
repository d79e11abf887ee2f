"""Secrets in transcript text, found and replaced by typed markers: pure functions.

A session prints whatever it meets: a `.env` file it read, a `curl` with an
`Authorization` header, a database URL in a stack trace. The build runs every
stored text through redact() (see pastfix.prepare), which replaces each secret
by a marker naming its kind, such as `[REDACTED:github-token]`, and counts them.

The patterns are a table of regexes, most starting with a provider's
fixed prefix (`ghp_`, `sk-ant-`, `AKIA`). A rule is tried only on a text that
holds one of its anchors, and a rule that starts with a word introducing a
secret (`password`, `token`, ...) only just before that word. Which anchors a
text holds is found in one pass over its bytes by an RE2 set of all of them
(a DFA: four times faster than looking for each anchor with str.find). Most
texts hold no anchor at all. Look-alikes
are kept: a git SHA or a UUID has no prefix and no keyword before it, a
lockfile's `sha512-...` integrity hash matches no pattern, and a value after a
keyword must look like a secret (not a placeholder such as `<your-token>` or
`${TOKEN}`, nor code such as `self.token`).

Markers hold no quotes or backslashes, and no pattern matches across a quote
or a backslash, so JSON text stays valid JSON. JSON text is redacted as the
text it is (redact_json): the strings it holds are decoded and redacted, then
the text as written, so a token that starts a line (`"x\\nghp_..."`) or a
password inside an escaped JSON body is found either way. Any text that holds
an escape which hides a character from the rules (`p\\u0061ssword`, `https:\\/\\/`,
`%5F`, a colour code) is also redacted as it reads with its escapes decoded, and
each secret found so is replaced in the text as written. Every rule's work is
bounded at each anchor (a bounded lookahead, or a scan that is done once per
text), so redaction time grows with the length of a text, never its square.
pastfix.prepare.REDACTION_VERSION says when the rules changed: a build
re-redacts the stored rows of an older version in place (pastfix.db.reredact).
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from heapq import heappop, heappush
from itertools import accumulate, chain, count
from operator import add, itemgetter
from typing import Any, NamedTuple

from pastfix.patterns import lazy

try:
    import re2
except ImportError:  # no google-re2 wheel for this platform: see anchors_in()
    re2 = None

MARKER = "[REDACTED:{}]"
_MARKED = "[REDACTED:"

# The words before `key` that name a key (`api_key`, `API Key`, `secret key`).
_KEY_KINDS = "api|access|secret|private|auth"
# A word that may name a secret (with a suffix such as SECRET_KEY, SECRET_KEY_BASE);
# what is assigned to it is redacted when it looks like a secret.
_KEYWORD = (
    r"(?:passw(?:or)?d|passphrase|secret|token|api[_ -]?key|apikey"
    r"|access[_ -]?key|private[_ -]?key|auth[_ -]?key)(?:[_ -]?(?:key|base))*"
)


# Words that name a secret as the last part of a name, not glued to a word before them
# (`bypass`, `compass`, `sacred`; `OLDPWD`, the shell's): after a separator or a digit,
# in camelCase, or alone (`pass`, `credentials`; `pwd` and `pw` never: `PWD=` is the shell's).
# A value after one is judged by what it is (see _assigned_secret).
# (each word's first letter, then what stands before it looked behind: a lookbehind first
# would keep the regex engine from trying the alternatives by their first letter)
def _part(word: str, alone: str) -> str:
    first = word[0]
    return f"{first}(?:{alone.format(first)}|(?-i:(?<=[a-z0-9]{first.upper()})))" + word[1:]


_PARTS = (
    r"(?:"
    + "|".join(
        (
            _part("pass", "(?<![A-Za-z]{})"),
            _part("cred(?:s|entials?)", "(?<![A-Za-z]{})"),
            _part("pwd", "(?<=[A-Za-z0-9][_.-]{})"),
            # (`ADMIN_PW`, `db.pw`, `dbPw`: a name's own part, never alone, `pw=`)
            _part("pw", "(?<=[A-Za-z0-9][_.-]{})"),
        )
    )
    + ")"
)
# What the assignment rules read a name's last part as: a keyword, or one of those words.
# A number after it, as a second or a newer one is named (`DB_PASSWORD2`, `API_KEY_V2`,
# `"password2"` of Azure's registry credentials; REDACTION_VERSION 19): at most two digits,
# so that a year or a program's name (`Token-2022`) is none.
_NAME_SUFFIX = r"(?:[_-]?v?\d{1,2}(?![0-9]))?"
# The space around an assignment's `:` or `=`: aligned columns' spaces or tabs (at most 40),
# or a few characters with a line break.
_GAP = r"(?:[^\S\n]{0,40}|\s{0,3})"
# Or, between an assignment's sign and its value, a shell's line continuation, a backslash at
# a line's end that the shell reads as nothing (`export API_TOKEN=\` then the value on the
# next line; indented too, as people wrap a long command: REDACTION_VERSION 32).
_VALUE_GAP = r"(?:[^\S\n]{0,40}|\s{0,3}|[^\S\n]{0,3}\\\r?\n[^\S\n]{0,40})"
_NAME_KEYWORD = (
    r"(?:(?:" + _KEYWORD + r"|" + _PARTS + r"(?:[_-]?(?:key|base))*)" + _NAME_SUFFIX + r")"
)
_KEYWORD_ONLY = lazy(r"(?i:" + _KEYWORD + r")")
# The letters that Python's re takes for an `i` where case is ignored, of which RE2 takes
# only two (`İ` and the dotless `ı` too): written out in a gate (see Rule.gate).
_I = "[iIİı]"
# How a name's keyword (_NAME_KEYWORD) ends, with its number, for a rule's gate: each of its
# words' last, and a class holding `\d`'s digits (any digit of Unicode: any character past
# ASCII).
_KEYWORD_END = (
    r"(?i:passw(?:or)?d|passphrase|secret|token|key|base|pass|creds|credent" + _I + r"als?"
    r"|pwd|pw)(?i:[_-]?v?[^\x00-\x2f\x3a-\x7f]{1,2})?"
)
# Substrings (case-sensitive) without which no keyword rule can match, and how
# many characters before each a keyword may start (`private_key`: 8).
_KEY_LEADS = (0, 3, 4, 5, 6, 7, 8)
_KEYWORD_ANCHORS = {
    **dict.fromkeys(("assw", "ASSW", "oken", "OKEN"), (1,)),
    **dict.fromkeys(("ssphrase", "SSPHRASE"), (2,)),
    **dict.fromkeys(("ecret", "ECRET"), (1, 4, 5)),  # aws_secret
    **dict.fromkeys(("key", "Key", "KEY"), _KEY_LEADS),
}
# Those words where a match may start: after a separator (`db_pass`, `DB_PASS`, `mail.pass`,
# `db-pwd`: a lead of -1, the word starts after it), or alone or in camelCase before what
# assigns a value (`pass: '...'`, `"pass":`, `smtpPass = '...'`). `passed`, `PASSED`, `tests
# pass`, `cd x && pwd`, the words of test runs and commands, hold none.
_ASSIGNS = ("=", ":", '"', "'", "\\", " =")
_NAME_KEYWORD_ANCHORS = {
    **_KEYWORD_ANCHORS,
    **dict.fromkeys((s + w for s in "_.-" for w in ("pass", "PASS", "pw", "PW")), (-1,)),
    **dict.fromkeys((w + c for w in ("pass", "Pass", "PASS", "Pwd", "Pw") for c in _ASSIGNS), (0,)),
    **dict.fromkeys(("creds", "Creds", "CREDS"), (0,)),
    **dict.fromkeys(("redential", "REDENTIAL"), (1,)),
}
# (and where the login rule's keyword starts, see _LOGIN: a rule's anchors are among these)
_KEYWORD_LEADS = {
    **_NAME_KEYWORD_ANCHORS,
    **dict.fromkeys(("ogin", "OGIN", "og-in", "OG-IN", "og in", "OG IN"), (1,)),
    **dict.fromkeys(("ign in", "IGN IN", "ign-in", "IGN-IN"), (1,)),
}


def _entropy(value: str) -> float:
    """Shannon entropy of `value`, in bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


_DIGIT = lazy(r"\d")
_LETTER = lazy(r"[^\W\d_]")


def _mixed(value: str) -> bool:
    """Letters and digits both, as generated keys have and words do not."""
    return _DIGIT.search(value) is not None and _LETTER.search(value) is not None


def _random_looking(value: str) -> bool:
    return _mixed(value) and _entropy(value) >= 3.0


def _mixed_match(m: re.Match[str]) -> bool:
    return _mixed(m.group(0))


def _wordy(value: str) -> bool:
    """Words joined by dashes or underscores, as people write placeholders, test values
    and names.

    `dev-only-secret-not-for-production`, `nope-nope-nope`, and the name of a
    variable, `${{ secrets.FIREBASE_SERVICE_ACCOUNT_APP_V1 }}`: generated keys are
    not made of words in one case.
    """
    parts = re.split(r"[-_]", value)
    words = sum(
        len(p) for p in parts if len(p) >= 2 and p.isalpha() and (p.islower() or p.isupper())
    )
    return len(parts) >= 3 and words >= 0.6 * len(value)


_PLACEHOLDER = lazy(
    # (`$` begins a variable, `$DB_PASS`, `${X}`, `$(cmd)`; not `$3cr3t!` or a bcrypt `$2b$...`)
    r"^(?:[%<{\[*]|\$(?:[{(]|[A-Za-z_][A-Za-z0-9_]*$|\d$)|.*(?:\.\.\.|\*\*\*|xxxx|XXXX|\$\{|\{\{|<[A-Za-z_-]+>))"
    r"|^(?i:(?:your|my|the|an?|some|example|sample|dummy|fake|test|placeholder|redacted"
    r"|changeme|none|null|nil|true|false|undefined|required|optional|string|str|bytes|int"
    r"|empty|secret|password|passwd|token|value|env|insert|replace|enter|put)(?:[_-].*)?)$"
)
# A name whose value is as often a path or a word as a secret: a working directory, a
# credentials file or option (`credentials: 'include'`).
_PATH_NAME = lazy(r"(?i)(?:pwd|creds?|credentials?)$")
_WINDOWS_PATH = lazy(r"[A-Za-z]:[\\/]")
# Code, not a value: `self.token`, `os.environ.get`, `config.api_key`.
_DOTTED_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
_ENV_NAME = lazy(r"^[A-Z0-9_]+$")
_VOWEL_LETTERS = frozenset("aeiouAEIOU")


def _dotted_name(value: str) -> bool:
    """Whether `value` is a dotted name of code (see _DOTTED_NAME), not a token whose parts
    a dot joins (REDACTION_VERSION 37: Mapbox's `sk.eyJ1Ijoi....<22>`, a bootstrap token's
    `abcdef.0123456789abcdef` after `token: `, whose parts start with letters too): no part
    of 12 characters or more is generated with few vowels (a name's words hold about two in
    five, random letters one in five: `oauth2ProviderV2Config` stays a name)."""
    if not _DOTTED_NAME.match(value):
        return False
    for part in value.split("."):
        if len(part) >= 12 and _generated(part, 12):
            letters = [c for c in part if c.isalpha()]
            if sum(c in _VOWEL_LETTERS for c in letters) < 0.25 * len(letters):
                return False
    return True


# A package version or range: `"jsonwebtoken": "^9.0.4"` in a package.json.
_VERSION = lazy(r"[~^<>=v]{0,3}\d+(?:\.(?:\d+|[xX*]))+(?:-[0-9A-Za-z.]+)?")


# What is not a letter or a digit (`[\W_]`: what str.isalnum() is not, for the scripts of names).
_NOT_ALNUM = lazy(r"[\W_]+")


def _letters_of(text: str) -> str:
    # (a regex, not a loop over characters: at each of a million `password=` the loop was
    # ~40% of redact()'s time)
    return _NOT_ALNUM.sub("", text.lower())


# (cached: an accepted value is judged again for where it ends, see _assignment_end)
@functools.lru_cache(maxsize=1024)
def _assigned_secret(name: str, value: str, quoted: bool) -> bool:
    """Whether `value`, given to a name that ends in a keyword, looks like a secret."""
    if len(value) < 6 or value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return False
    if value.isdigit() and not re.search(r"(?i)pass|pw", name):
        return False  # max_tokens=4096, token_ttl: 3600
    if _dotted_name(value) or _wordy(value) or _VERSION.fullmatch(value):
        return False
    if _letters_of(value) == _letters_of(name.rpartition(".")[2]):
        return False  # a test's stand-in: `var transactionToken = "transactionToken"`
    if value.startswith("-----"):
        return False  # a PEM header: a key after it is the private-key rule's, else none
    if _PATH_NAME.search(name):
        if value.startswith(("/", "~", ".", "$")) or _WINDOWS_PATH.match(value):
            return False  # `OLD_PWD=/home/dev`, `GOOGLE_APPLICATION_CREDENTIALS=~/sa.json`
        if not _ENV_NAME.match(name):
            # (`credentials: 'include'`, fetch's; `pwd: string`): words, unless random-looking
            return _random_looking(value)
    if not quoted and name.lower() == "pass" and name != "pass":
        return False  # `PASS: tests/test_x.py` (automake, a test runner), `Pass: 12`
    if quoted or _ENV_NAME.match(name):
        return True  # "password": "...", DB_PASSWORD=...
    # An unquoted value in code (`token: str`, `password = other`) is a
    # name more often than a secret: only a random-looking one counts, or a password's
    # letters and digits with a symbol between two of them (see _SYMBOLLED).
    if _random_looking(value):
        return True
    return _PASSWORD_NAME.search(name) is not None and _symbolled(value)


# REDACTION_VERSION 34: a password's symbol between its letters or digits (`ab$cd9ef`,
# `admin@123`, `pa$$w0rd!x`), which no name in code holds (`$` starts a variable, a `.` joins
# an email's or a host's parts); letters and digits alone, `hunter22`, stay a name's.
_SYMBOLLED = lazy(r"[^.()\[\]{}=:/]*[A-Za-z0-9][$!@#%^*~][A-Za-z0-9$!@#%^*~][^.()\[\]{}=:/]*")
_PASSWORD_NAME = lazy(r"(?i)pass|pw")


def _symbolled(value: str) -> bool:
    return _SYMBOLLED.fullmatch(value) is not None and _mixed(value)


class Rule(NamedTuple):
    """A pattern; `group` is the part replaced (0 = all), `check` may veto a match.

    A rule is tried only on texts that hold one of its `anchors`, substrings
    (case-sensitive) that every match contains. A `keyword` rule's pattern,
    which starts with a case-insensitive word that the regex engine would try
    at every position, is only tried just before each anchor.
    """

    kind: str
    # Compiled where it is first tried (_compiled): most texts hold no anchor, and
    # compiling every rule on import was ~80M instructions (~10 ms) of each refresh
    # that read new lines.
    pattern: str
    group: int | str = 0
    check: Callable[[re.Match[str]], bool] | None = None
    anchors: tuple[str, ...] = ()
    keyword: bool = False
    # Whether `pattern` is tried only where each of its anchors starts (with re.match),
    # not searched for: a pattern that starts with a lookbehind or an alternation would be
    # tried at every position of a long text.
    at_anchors: bool = False
    # The kind of a match, when it depends on the match (else `kind`).
    kind_of: Callable[[re.Match[str]], str] | None = None
    # The spans to replace, found by code rather than by `pattern` alone.
    find: Callable[[str], Iterator[tuple[int, int]]] | None = None
    # Where the replaced part of an accepted match ends, when its pattern looks at a
    # bounded head of a longer value: the whole value goes (see _rest_of_value).
    extend: Callable[[re.Match[str]], int] | None = None
    # Substrings (case-sensitive) of which the text must hold one besides an anchor, found
    # in the same pass: a keyword rule that few texts with a keyword need.
    needs: tuple[str, ...] = ()
    # Whether an `at_anchors` pattern starts with its one anchor as it is written (what
    # stands before the anchor asked by a lookbehind after it): its matches are then found
    # by searching for the pattern, in C, not by a scan for the anchor and a match tried
    # at each place (see _searched_matches).
    searched: bool = False
    # A regex of which every match of `pattern` holds a match: a text without one is not
    # looked at further (a search in C for a rarer part of the secret than its anchors,
    # when those are common and the scan for them is a rule's cost).
    holds: str = ""
    # A regex that every match of `pattern` (or every span `find` gives) holds a match of,
    # found in the pass that finds the anchors (GATES): a rule whose anchor is common and
    # seldom leads to a secret (`export default`, an email's `@`) is not tried on a text
    # without one. Written for RE2 and Python's re alike (no lookaround, no `\s` or `\d`,
    # whose classes differ: a class wider than the pattern's instead).
    gate: str = ""


# A rule's pattern, compiled once, when a text first holds one of its anchors.
_compiled = functools.cache(re.compile)


# The characters of a name a keyword may end (`PGPASSWORD`, `x_api_token`, `app.secret`).
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_NAME_MAX = 40


def _name_before(text: str, start: int) -> str:
    """The part of a name just before `start`, at most _NAME_MAX characters.

    In JSON text an escape such as the `\\n` of `"x\\nPGPASSWORD=..."` ends
    the line before it: its letter is no part of the name.
    """
    at = start
    stop = max(0, start - _NAME_MAX)
    while at > stop and text[at - 1] in _NAME_CHARS:
        at -= 1
    if _escaped(text, at):
        at += 1
    return text[at:start]


def _doubled(quotes: str | None) -> bool:
    """Whether a quote of _QUOTES is doubled (`""`, `\\"\\"`)."""
    return quotes is not None and quotes.count('"') + quotes.count("'") == 2


def _assignment(m: re.Match[str]) -> bool:
    """A keyword, at the end of any name, assigned a value that looks like a secret.

    `PGPASSWORD=...`, `GITHUBTOKEN=...` and `x_api_token=...` count as `PASSWORD=...`
    does; `Tokenizer` or `passwordless` never match, since a keyword must end the name.
    """
    name = _name_before(m.string, m.start()) + m.group("keyword")
    if m.group("bracket") and not _bracketed(m, len(name) - len(m.group("keyword"))):
        return False
    quoted = m.group("quote") or m.group("open") or m.group("tick")
    value = m.group("value")
    if _doubled(m.group("open")) and not _doubled(m.group("quote")):
        return False  # `PASSWORD="" USER="x"`: an empty value, then another
    if (m.group("bold") or m.group("bolder")) and not _CODELESS.fullmatch(value):
        return False  # a design's parts: ``- **Token:** `crypto.randomBytes(32)...` ``
    if m.group("prose") is not None:
        # (not after a verb: ``you can pass `-SkipBuild` ``)
        return _KEYWORD_ONLY.fullmatch(m.group("keyword")) is not None and _mentioned(
            m.group("keyword"), value
        )
    if (
        not quoted
        and value.isalpha()
        and ":" in m.string[m.end("keyword") : m.start("value")]
        and _PROSE_AFTER.match(m.string, m.end())
    ):
        # a description (`MONITORING_API_KEY: Shared secret for webhooks`); not after `=`,
        # where words may be the command it is given to (`PGPASSWORD=pw psql mydb`)
        return False
    if not (m.group("open") or m.group("tick")) and m.group("quote") and _NAME.fullmatch(value):
        # a quoted key given a name, in code: `headers={"X-API-Key": api_key}` (fourteenth
        # held-out set: 9 of its 105 values, in two people's tests)
        return False
    word = _env_line_value(m, name)
    if word is not None and word != value:
        # `DB_PASSWORD=Qx7,Lm9&...` on a line of its own: a .env file's value runs to the
        # line's end; a list of numbers is no secret
        return _LETTER.search(word) is not None and _assigned_secret(name, word, False)
    if m.group("paren") and not _random_looking(value):
        return False  # `API_KEY: (required)`, `PASSWORD: [hidden]`
    if _assigned_secret(name, value, bool(quoted)):
        return True
    if m.group("open") and "'" in m.group("open") and _single_quoted_literal(value):
        return _assigned_secret(name, value[1:], True)
    if not quoted and _own_line_password(m, name, value):
        return True
    if not quoted and _conninfo_password(m, name, value):
        return True
    return not quoted and _delimited_secret(m, name) is not None


# REDACTION_VERSION 35: a `$` that starts a value in single quotes, where a shell (and PHP,
# Perl) expands no variable: a password's (`DB_PASSWORD='$ecretPa55'`, `mysql
# -p'$ecretPa55'`) when what follows it is no variable's name: a symbol in it, or letters
# of both cases and digits with no `_` (`'$DB_PASSWORD'`, `'$db_pass'`, `'${X}'`, which
# Compose and a Makefile expand, stay).
_VARIABLE_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*|[{(].*")
_LOWER = lazy(r"[a-z]")
_UPPER = lazy(r"[A-Z]")


def _single_quoted_literal(value: str) -> bool:
    rest = value[1:]
    if not value.startswith("$") or len(rest) < 5 or rest.startswith(("{", "(")):
        return False
    if _VARIABLE_NAME.fullmatch(rest) is None:
        return True
    return (
        "_" not in rest
        and _mixed(rest)
        and _LOWER.search(rest) is not None
        and _UPPER.search(rest) is not None
    )


def _stands_in(value: str, text: str, at: int) -> bool:
    """Whether a command's password `value`, at `at` of `text`, is a placeholder or a
    variable: not a `$` in single quotes (see _single_quoted_literal)."""
    if _PLACEHOLDER.match(value) is None:
        return False
    if not at or text[at - 1] != "'":
        return True
    # (judged whole, to its closing quote: a command's value stops at `&` or `;`, which
    # single quotes hold as they do `$`)
    end = text.find("'", at, at + 201)
    return not _single_quoted_literal(text[at:end] if end > 0 else value)


# REDACTION_VERSION 34: a password's name first on its line, a colon's or an `=`'s (without
# spaces: a shell's, a `.properties`' line) and a password of letters alone to the line's end
# (`db_password: sunshine` of YAML, `ansible_become_password: hunterqx`,
# `spring.datasource.password=sunshine`), which _assigned_secret reads as a name in code; a
# word said of a password, a type or a stand-in stays (see _chosen_letters).
# (REDACTION_VERSION 35: `pass:` alone too, a mail or a proxy setting's key: `smtp:` then
# `pass: sunshine`; not `bypass:`, `PASS:` of a test runner's line)
_PASSWORD_END = lazy(r"(?i)(?:passw(?:or)?d|passphrase)\Z|(?<![A-Za-z])pass\Z")


def _own_line_password(m: re.Match[str], name: str, value: str) -> bool:
    sign = m.string[m.end("keyword") : m.start("value")]
    if sign.strip() != ":" and sign != "=":
        return False
    if _PASSWORD_END.search(m.group("keyword")) is None or m.group("bold") or m.group("paren"):
        return False
    if not _chosen_letters(value, True) or _AT_LINE_END.match(m.string, m.end("value")) is None:
        return False
    start = m.start() - (len(name) - len(m.group("keyword")))
    return _OWN_LINE_KEY.search(m.string, max(0, start - 75), start) is not None


# REDACTION_VERSION 35: libpq's connection string, `host=db user=app password=sunshine
# dbname=x` (psycopg2.connect's, psql's, pg_dump's), told by another of its keywords just
# before or after `password=`, space apart: a password there of letters alone (as people
# choose them, _chosen_letters) or of letters and digits (`tiger123`), which in code alone
# would be a name.
_CONNINFO_KEY = r"(?:host|hostaddr|port|user|dbname|sslmode|connect_timeout)="
_CONNINFO_BEFORE = lazy(
    r"(?:^|(?<=[\s\"'(]))" + _CONNINFO_KEY + r"[^\s\"'`\\=,;()]{1,100}[^\S\n]{1,4}\Z"
)
_CONNINFO_AFTER = lazy(r"[^\S\n]{1,4}" + _CONNINFO_KEY)
_ALNUM = lazy(r"[A-Za-z0-9]{6,40}")


def _conninfo_password(m: re.Match[str], name: str, value: str) -> bool:
    if name.lower() != "password" or m.string[m.end("keyword") : m.start("value")] != "=":
        return False
    if not (_chosen_letters(value, True) or (_ALNUM.fullmatch(value) and _mixed(value))):
        return False
    text, start = m.string, m.start() - (len(name) - len(m.group("keyword")))
    return (
        _CONNINFO_AFTER.match(text, m.end("value")) is not None
        or _CONNINFO_BEFORE.search(text, max(0, start - 110), start) is not None
    )


# What opens a name in brackets: `[` and a quote (`os.environ['X']`, `ENV[\"X\"]` in JSON).
_OPEN_BRACKET = lazy(r"\[\\{0,7}[\"']\Z")


def _bracketed(m: re.Match[str], before: int) -> bool:
    """Whether the name of `m`, starting `before` characters before the match, is quoted in
    brackets (`os.environ['OPENAI_KEY'] = '...'`, `process.env["DB_PASSWORD"] = "..."`,
    `ENV['API_TOKEN'] = '...'`), as the `]` after its quote says."""
    start = m.start() - before
    return _OPEN_BRACKET.search(m.string, max(0, start - 10), start) is not None


# A word, up to a space, a quote or a backslash: an unquoted value with the delimiters that
# end a value in code (`Zx;KY34Bh8DW4ro`, `ab&YOr4dqPSi0O9`); one longer than this is read
# no further.
_WORD = lazy(r"[^\s\"'`\\]{1,100}")
# What ends a value in a list of assignments (`pw;User=bob`, `a=1&api_key=...`, `a; b: c`).
_NEXT_ASSIGNMENT = lazy(r"[;&,|][\w.-]+[=:]")
# The characters that end an unquoted value in code, but may be part of a secret.
_DELIMITERS = frozenset(",;()[]{}<>|&")
# Code, not a value: a call, an index, an operator (`getpass()`, `argv[1]`, `a&&b`).
_CODE = lazy(r"\w[(\[]|&&|\|\||[=!<>]=|=>|->|::")


def _delimited_secret(m: re.Match[str], name: str) -> str | None:
    """The unquoted value of an assignment `m` to the end of its word, when a delimiter
    cut the value short and the whole word looks like a secret (`password: Zx;KY34Bh8DW4ro`
    read only `Zx`): random-looking, and no code."""
    if m.string[m.end("value") : m.end("value") + 1] not in _DELIMITERS:
        return None  # (most values: what ends them is a space, a quote or the text's end)
    word = _WORD.match(m.string, m.start("value"))
    if word is None or word.end() - word.start() == 100:
        return None
    text = word.group()
    after = _NEXT_ASSIGNMENT.search(text)
    if after is not None:
        text = text[: after.start()]
    text = text.rstrip(",;")
    if len(text) <= len(m.group("value")) or _CODE.search(text):
        return None
    return text if _random_looking(text) and _assigned_secret(name, text, False) else None


# A variable's name, without digits: a secret has some, or is quoted.
_NAME = lazy(r"[A-Za-z_]+")
# The unquoted value of a .env line: up to a space, a quote or a backslash (a JSON escape).
_ENV_WORD = lazy(r"[^\s\"'`\\]*+")
# What may stand before an upper-case name on its line: `export`, `set`, indentation.
_ENV_LEAD = lazy(r"(?:[^\S\n]*(?:export|set|declare -x)[^\S\n]+|[^\S\n]*)\Z")
_ENV_LEAD_MAX = 24


def _env_line_value(m: re.Match[str], name: str) -> str | None:
    """The whole value of `NAME=value` when it is a line of a .env file or a shell
    assignment (an upper-case name first on its line, then `=`), where the
    delimiters that end a value in code (`,;&()` ...) are part of it."""
    text = m.string
    if m.group("quote") or m.group("open") or m.group("tick") or m.group("prose") is not None:
        return None
    if text[m.end("keyword") : m.start("value")] not in ("=", "s=") or not _ENV_NAME.match(name):
        return None
    start = m.start() - (len(name) - len(m.group("keyword")))
    # what stands before the name on its line, looked for in a bounded window
    lead = max(0, start - _ENV_LEAD_MAX)
    before = text[lead:start]
    escape = before.rfind("\\n")
    line = max(before.rfind("\n") + 1, escape + 2 if escape >= 0 else 0)
    if (line == 0 and lead > 0) or not _ENV_LEAD.match(before, line):
        return None
    word = _ENV_WORD.match(text, m.start("value")).group()  # type: ignore[union-attr]
    return word.rstrip(",;")


def _assignment_end(m: re.Match[str]) -> int:
    """Where the value of an accepted assignment ends (see _rest_of_value, _env_line_value)."""
    if m.group("open"):
        return _rest_of_value(m, _QUOTED_REST)
    if m.group("tick"):
        return _rest_of_value(m, _TICKED_REST)
    name = _name_before(m.string, m.start()) + m.group("keyword")
    word = _env_line_value(m, name)
    if word is None and not m.group("quote") and not _assigned_secret(name, m["value"], False):
        word = _delimited_secret(m, name)
    end = m.start("value") + len(word) if word is not None else _rest_of_value(m, _VALUE_REST)
    text = m.string
    if end == len(text) or text[end] not in "\r\n\\":
        return end  # (almost every value: a space, a quote or the text's end follows)
    # A value a terminal or a log wrapped (`password=` and its value on two lines): its
    # line fills a terminal's width, the value is long enough to have been cut, and the
    # lines after are its rest by the rules of a wrapped token (_wrapped_rest_end).
    line = _line_start(text, m.start())
    if end - line < WRAPPED_VALUE_LINE or end - m.start("value") < WRAPPED_VALUE_MIN:
        return end
    return _wrapped_rest_end(text, line, m.start(), end)


# The shortest line and value of a wrapped value (a terminal is 80 columns wide or more; a
# value of some length is what a wrap cuts, where a short one ended its line).
WRAPPED_VALUE_LINE = 40
WRAPPED_VALUE_MIN = 12


# A word and another after an unquoted value: the value begins a sentence.
_PROSE_AFTER = lazy(r" [a-z]{2,} [a-z]{2,}")


def _mentioned(keyword: str, value: str) -> bool:
    """A value in backticks after a keyword in prose (see RULES): judged as a quoted value
    given to that word, so that code (`str`, `os.environ["X"]`) and placeholders are kept."""
    if any(c in value for c in "()[]{}$<>=") or " " in value.strip():
        return False  # code or a phrase, not a value
    if _IDENTIFIER.match(value) and not _DIGIT.search(value):
        return False  # a name (`GITHUB_TOKEN`, `authToken`), as prose names them
    return _assigned_secret(keyword, value, True)


_IDENTIFIER = lazy(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


def _quoted_password(m: re.Match[str]) -> bool:
    """A quoted password in SQL or given to a hashing function (see RULES), unless a
    placeholder or a marker already."""
    return _assigned_secret("password", m.group("value"), True)


def _env_default(m: re.Match[str]) -> bool:
    """The default given in code to an environment variable whose name ends in a keyword
    (`os.environ.get("DB_PASSWORD", "...")`, `process.env.API_TOKEN || '...'`, `ENV["X_SECRET"]
    or "..."`, `getenv("PGPASSWORD", "...")`): the literal is what the secret is when the
    variable is unset, so usually the secret itself. Only where `env` is written just
    before the name, so that a list of names (`("password", "username")`) is none."""
    name = _name_before(m.string, m.start())
    start = m.start() - len(name)
    if "env" not in m.string[max(0, start - 20) : m.start()].lower():
        return False
    return _assigned_secret(name + m.group("keyword"), m.group("value"), True)


_SUFFIX_AT_END = lazy(_NAME_SUFFIX + r"\Z")


def _escaped(text: str, at: int) -> bool:
    """Whether text[at] is the letter of an escape such as \\n in JSON text."""
    return at >= 1 and text[at - 1] == "\\" and text[at] in "nrt"


def _keyword_kind(keyword: str) -> str:
    keyword = _SUFFIX_AT_END.sub("", keyword.lower())
    for word, kind in (("pass", "password"), ("pw", "password"), ("token", "token")):
        if word in keyword:
            return kind
    return "api-key" if keyword.endswith("key") and "secret" not in keyword else "secret"


def _assigned_kind(m: re.Match[str]) -> str:
    return _keyword_kind(m.group("keyword"))


def _url_password(m: re.Match[str]) -> bool:
    if not m.string[max(0, m.start() - 2) : m.start()].isalnum():
        return False  # a scheme comes first (postgres://), not a drive (C:\, C:/)
    password = m.group("password")
    user = m.group("user")
    if (user.startswith("[REDACTED") and not user.endswith("]")) or "[REDACTED" in password:
        return False  # a token in the user part, redacted already: `https://[REDACTED:...]@`
    if password.startswith(_MARKED) or _PLACEHOLDER.match(password):
        return False
    if password.partition("@")[0] == "x-oauth-basic":
        return False  # GitHub's word for "the token is the user": the user goes (url-token)
    # a host and its port, then a path, a query or a fragment that holds an `@`
    # (`host:8080@`, `http://localhost:3000/users/@me`), or an IPv6 host (`[::1]:8080/@x`)
    return not (_PORT.match(password) or user.startswith("[") and not user.endswith("]"))


# A port, then the end of a URL's host: a password is more than that.
_PORT = lazy(r"\d{1,5}(?:[/?#]|\Z)")
# A host with a dot (or localhost), its port, and the end of the host.
_HOST = lazy(
    r"(?:localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+|\[[0-9a-fA-F:.]+\])"
    r"(?::\d{1,5})?[/?#]"
)
_URL_END = lazy(r"[/?#]")


def _url_password_end(m: re.Match[str]) -> int:
    """Where the password of an accepted URL ends: at the last `@` before the first `/`, `?`
    or `#` when a host follows that `@` (`https://u:pw@registry.example.com/@scope/pkg`), else
    at the last `@` before a host (`mysql://root:Jt5M4/2DX@127.0.0.1/db`)."""
    password = m.group("password")
    cut = _URL_END.search(password)
    if cut is not None:
        at = password.rfind("@", 0, cut.start())
        if at >= 0 and _HOST.match(password, at + 1):
            return m.start("password") + at
    return m.end("password")


# REDACTION_VERSION 25: a URL's credentials without its scheme, as a DSN or a setting
# writes them (`app:PW@db.internal:5432/app`, `DB=user:PW@10.0.0.5/appdb`, Go's MySQL
# `root:PW@tcp(127.0.0.1:3306)/db`): a user and a password before an `@` that the address
# of a service follows, a host with its port (`db:5432`, a compose service's name too) or
# with a dot and a path (`db.internal/app`), or Go's `tcp(` and `unix(`. An `@` after
# something else is an email (`from:bob1990@gmail.com`), an image's digest
# (`node:20@sha256:...`) or an npm alias (`npm:react@18.2.0`). The password is judged as
# a quoted password's (see _assigned_secret: no placeholder, word list or version).
_BARE_HOST = lazy(
    r"(?:tcp|unix)\("
    r"|(?:localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+|\[[0-9a-fA-F:.]+\])"
    r"(?::\d{1,5})?/"
    r"|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*:\d{1,5}(?=[/?#\s\"'`,;)\]\\]|\Z)"
)
_BARE_USERINFO = lazy(r"[A-Za-z0-9_.%+-]{0,64}:(?P<password>[^\s\"'`\\<>]{1,200})")
# What stands before a URL's user (a space, a quote, `=`, a bracket: `DB=app:PW@...`).
_BEFORE_USER = " \t\n\"'`<>(,;={|"
# How far before its `@` a user and its password start.
_USERINFO_MAX = 266


# An `@` that a service's address follows (_BARE_HOST): most `@`s are of emails,
# decorators and packages' scopes, which its match at each passes in C.
_BARE_AT = lazy("@(?=" + _BARE_HOST.pattern + ")")
# The gate of the rule (see Rule.gate): a `:` and a password before the `@` (not starting with
# a `/`: a scheme's `://` is the other rule's), and the start of a service's address after it.
_BARE_GATE = (
    r":[^\t\n\v\f\r \"'`\\<>/][^\t\n\v\f\r \"'`\\<>]*@"
    r"(?:tcp\(|unix\(|localhost|\[|[A-Za-z0-9-]+[.:])"
)


def _bare_url_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password of each URL without a scheme the text holds (see _BARE_HOST), in order:
    each `@` that a service's address follows, read back to what stands before its user
    (linear: 266 characters at most before each).

    Each `@` is found by str.find, then the address looked for after it: a search of the
    text for _BARE_AT finds the same places, but re reads each character in a loop of its
    own where str.find's memchr reads words (the 8,491 texts of a build with an `@`, 31
    MB, 31,270 `@`s: 340M instructions by the search, 296M so).
    """
    find, follows = text.find, _BARE_AT.match
    at = find("@")
    while at >= 0:
        if follows(text, at) is not None:
            yield from _bare_url_password(text, at)
        at = find("@", at + 1)


def _bare_url_password(text: str, at: int) -> Iterator[tuple[int, int]]:
    """The password before the `@` at `at` that a service's address follows, if any."""
    lo = max(0, at - _USERINFO_MAX)
    if text.find(":", lo, at) >= 0:
        start = max(text.rfind(c, lo, at) for c in _BEFORE_USER) + 1
        m = _BARE_USERINFO.fullmatch(text, max(start, lo), at)
        if m is not None:
            password = m["password"]
            # (a scheme's `//`, `https://u:pw@`, or its password already taken, a
            # marker's `]`: the url-password rule's)
            if not password.startswith("/") and not password.endswith("]"):
                if _assigned_secret("password", password, True):
                    yield m.span("password")


def _bearer(m: re.Match[str]) -> bool:
    token = m.group("token")
    return not token.startswith(_MARKED) and not _PLACEHOLDER.match(token) and _mixed(token)


# How long a token after a keyword must be, but after a name of a key (`API key ref-2f38...`,
# 24 characters: a ref.tools key a session's prompt gave, kept), where 16 will do.
_KEY_TOKEN = 32
_KEY_COMPOUND = lazy(rf"(?i:(?:{_KEY_KINDS})[_ -]?key)")


def _near_keyword(m: re.Match[str]) -> bool:
    start = m.start()
    if m.group("keyword").lower() == "key" and start and m.string[start - 1].isalnum():
        if not _escaped(m.string, start - 1):
            return False  # monkey, hotkey: only `key` as a word of its own
    token = m.group("token")
    if len(token) < _KEY_TOKEN and not _KEY_COMPOUND.fullmatch(m.group("keyword")):
        return False  # under 32 characters, only after `API key`, `secret key` and their kin
    if token.startswith(_MARKED) or not _mixed(token) or _wordy(token):
        return False
    if "@" in m.string[m.end("keyword") : m.start("token")]:
        return False  # a package or action at a version: `create-github-app-token@<sha>`
    hexadecimal = _HEX.fullmatch(token) is not None
    return _entropy(token) >= (3.0 if hexadecimal else 3.5)


_HEX = lazy(r"[0-9a-fA-F]+")
_UPPER = lazy(r"[A-Z]")


def _openai(m: re.Match[str]) -> bool:
    """OpenAI's keys mix cases; keys of the same shape from other providers (DeepSeek's
    `sk-` and 32 hex digits, OpenRouter's `sk-or-v1-` and 64) are long and random-looking
    instead. A slug such as `sk-2024-annual-report-final-version` is words."""
    body = m.group(0)[3:]
    if _DIGIT.search(body) is None:
        return False
    if _UPPER.search(body) is not None:
        return True
    return len(body) >= 32 and not _wordy(body) and _random_looking(body)


def _cases(m: re.Match[str]) -> bool:
    """Both cases of letters, as a generated token has (Hugging Face's are letters only)."""
    token = m.group(0)
    return token != token.lower() and token != token.upper()


def _basic_credentials(m: re.Match[str]) -> bool:
    """An `Authorization: Basic` value that decodes to `user:password`."""
    token = m.group("token")
    try:
        decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return False
    user, colon, password = decoded.partition(":")
    return bool(colon and password) and decoded.isprintable()


def _command_password(m: re.Match[str]) -> bool:
    """A password given on a command line (`curl -u user:pw`, `mysql -pPW`,
    `sshpass -p PW`, `--password PW`): not a variable, a placeholder or a uid:gid."""
    password = m.group("password")
    if password.startswith(_MARKED) or _stands_in(password, m.string, m.start("password")):
        return False
    return "user" not in m.re.groupindex or not password.isdigit()  # uid:gid


def _pwd_password(m: re.Match[str]) -> bool:
    """`MYSQL_PWD=...`, not a working directory (`OLD_PWD=/home/dev`, `PROJECT_PWD=.`)."""
    return _command_password(m) and not m.group("password").startswith(("/", "~", "."))


def _option_password(m: re.Match[str]) -> bool:
    """`--password PW`, where a word may be the next argument instead (`psql --password
    mydb` asks for one): a value of lowercase letters only is kept, unless an `=` gives it
    and it is a password people choose (`--password=sunshine`, see _chosen_letters:
    REDACTION_VERSION 34)."""
    password = m.group("password")
    if not _command_password(m):
        return False
    if not (password.isalpha() and password.islower()):
        return True
    return m.string[m.start("password") - 1] == "=" and _chosen_letters(password, False)


# Where a word starts in text that may be JSON: after an escape such as the \n
# of `"x\nghp_..."` or a \u001b, as after a space; after a URL's percent-escape
# (`%3Dghp_...`, `%0A`, `%20`); and after a terminal's colour code (`ESC[32m`,
# `ESC[1;32m`, `ESC[38;5;196m`, its `m` no letter of the word), which only the text of
# messages and results has removed (a Write, an Edit, a command keep theirs).
_ESCAPE_BEHIND = (
    r"\\[nrt]",
    r"\\u[0-9a-fA-F]{4}",
    r"%[0-9a-fA-F]{2}",
    r"\[m",
    r"\[\dm",
    r"[\[;]\d\dm",
    r";\dm",
    r";\d\d\dm",
)


# After a fixed prefix of n characters: not preceded by a character that
# would make the match part of a longer word (an escape's letter is none; a
# dash is none either: `feat-ghp_...`, a token pasted into a branch's name; nor a
# digit, which a counter or a column glued to the token ends: `7ghp_...`, `0AKIA...`).
def _alone(n: int) -> str:
    dots = "." * n
    escapes = "".join(f"|(?<={e}{dots})" for e in _ESCAPE_BEHIND)
    return f"(?:(?<![A-Za-z_]{dots}){escapes})"


# A quote before or after a keyword, as written in JSON text nested up to three deep
# (`\\\"password\\\":` in a tool input holding `curl -d "{\"password\":...}"`).
_QUOTE = r"\\{0,7}[\"']"
# The end of a string, what joins it to the next and the next's start, between a scheme
# and its token (REDACTION_VERSION 22): code that builds a header puts the two in two
# strings (`"SSWS " + "00..."`, `'Bearer ' + 'ya29...'`): `+` (JS, Python, Java, Go), `.` and
# `..` (PHP, Perl, Lua), `&` (VB), `||` (SQL), `~` (D), or nothing, Python's and C's strings
# side by side (`("SSWS "\n "00...")`).
_CONCAT = r"(?:\s|\\t){0,10}" + _QUOTE + r"\s{0,10}(?:\+|\.{1,2}|&|\|\||~)?\s{0,10}" + _QUOTE
# One or two: a quote doubled to escape it (`""REF_API_KEY"":""...""` of a JSON config
# given to cmd or PowerShell in double quotes, as a session's command may hold it).
_QUOTES = r"(?:" + _QUOTE + r"){1,2}"


# The characters of a value: no quote, backslash, space or delimiter, so that a
# replacement never breaks the JSON or the line around it.
_VALUE = r"[^\s\"'`\\,;()\[\]{}<>|&]"
# The assignment rule's gate (see Rule.gate): the keyword's end; what may stand before its
# sign (an `s`, quotes, a bracket, bold, spaces: no letter or digit); the sign, then its
# gap's characters (spaces of any script, a backslash's line break) and what starts a value
# (a quote, a backtick, a bracket, or a character of _VALUE); or in prose the backtick after
# the word. JSX's `key={...}` has a brace after its sign, which starts no value: of the 3,037
# texts of the 200 MB corpus and ../shared/corpus/real with a keyword's end, an assignment's
# sign and no letter between, 135 hold a gate.
_ASSIGNMENT_GATE = (
    _KEYWORD_END + r"s?[^A-Za-z0-9]*(?:[:=]>?\**(?:[\t\n\v\f\r \x1c-\x1f\\]|[^\x00-\x7f])*"
    r"[^\t\n\v\f\r \x1c-\x1f,;)\]{}<>|&]|`|(?:is|was)[^A-Za-z0-9]*`)"
)

# The head of a token the high-entropy rule judges (a longer one goes whole if it passes).
_TOKEN_MAX = 1024
# A value of a name in Markdown's bold (`**API Key**: ...`) judged at all: one word, no code.
_CODELESS = lazy(_VALUE + "+")
# The rest of a value whose head a rule judged: possessive, scanned once for each value replaced.
_VALUE_REST = lazy(_VALUE + "*+")
_QUOTED_REST = lazy(r"[^\"'\\\n]*+")
_TICKED_REST = lazy(r"[^`\\\n]*+")
_TOKEN_REST = lazy(r"[A-Za-z0-9+/_=-]*+")


# A token that a terminal or a log wrapped (fixed-width output): its line ends right after
# it, and the next line holds only token characters up to its own end, the first no dash
# (a diff's removed line, a list's item, a flag: `--no-verify`). The line's end is a line
# break, or the `\\n` of JSON text.
_LINE_END = r"(?:\r?\n|(?:\\{1,16}r)?\\{1,16}n)"
_REST_LINE = r"(?P<rest>{}{{0,1099}})(?=[\r\n\"\\]|\Z)"
_TOKEN_REST_LINE = _REST_LINE.format("[A-Za-z0-9_][A-Za-z0-9_-]")
# (a JWT's rest holds its dots, and may start with one or with a dash: see _wrapped_jwts)
_JWT_REST_LINE = _REST_LINE.format("[A-Za-z0-9_.-][A-Za-z0-9_.-]")
# ... or, when the token's line starts with what a tool or a layout puts before each line,
# holds the same before the rest (the next line number): a diff's mark (an added, removed
# or context line of `git diff`, a unified diff, an apply_patch), a line number (Read's
# `    12→`, `cat -n`'s `    12<tab>`, grep's `12:` and `path:12:`, or `-` on a context
# line, bat's `  12 │ `), a box's or a table's border (`│ `, `| `), an indent, or a mark
# and an indent (`+    key: ...`).
_NUMBERED_LEAD = lazy(
    r"(?P<pad>[^\S\n]*)(?P<n>\d{1,9})(?P<sep>→|\t|\\t|[:-]|[^\S\n]*[│|][^\S\n]?)"
    r"|(?P<file>[\w./~-]{1,200})[:-](?P<fn>\d{1,9})[:-]"
)
_FIXED_LEAD = lazy(r"[+-]?[^\S\n]*(?:[│|][^\S\n]*)?")
# A line that is a word (`Done`, `OK`, `next-step`), a number (a pid, a count, grep's
# `1115-`) or holds an anchor (the next token of a list, one a line) is what followed a
# token, not its rest.
_PLAIN_WORD = lazy(r"_*[A-Z]?[a-z]+(?:[_-][a-z]+)*|[A-Z]+(?:[_-][A-Z]+)*|[\d-]+")
# ... and behind a lead, a name of words in camel case too: an indent, a line number or a
# border is before each of a list of fields or imports (`  mergedAt`, `   474→    ToolCall`).
_CAMEL_NAME = lazy(r"_*[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}")
_LINE_MAX = 1100


def _line_start(text: str, at: int) -> int:
    """Where the line that holds `at` starts: after a line break or JSON's `\\n`."""
    lo = max(0, at - _LINE_MAX)
    escaped = text.rfind("\\n", lo, at)
    return max(lo, text.rfind("\n", lo, at) + 1, escaped + 2 if escaped >= 0 else 0)


# The separators of a numbered lead, and what stands around each on the next line.
_NUMBERED_SEPARATORS = (
    ("→", r"[^\S\n]*→[^\S\n]*"),
    ("\t", r"[^\S\n]*\t[^\S\n]*"),
    ("\\t", r"[^\S\n]*\\t[^\S\n]*"),
    # (grep's context line is `12-` where a match is `12:`)
    (":", "[:-]"),
    ("-", "[:-]"),
    ("│", r"[^\S\n]*│[^\S\n]*"),
    ("|", r"[^\S\n]*\|[^\S\n]*"),
)


class _Rests(NamedTuple):
    """The patterns of a rest line (see _REST_LINE): with no lead, behind a numbered lead
    (by its separator), behind grep's `path:12:`; and the rest line's own pattern."""

    plain: re.Pattern[str]
    numbered: dict[str, re.Pattern[str]]
    file: re.Pattern[str]
    line: str


def _rests(rest_line: str) -> _Rests:
    return _Rests(
        lazy(_LINE_END + rest_line),
        {
            sep: lazy(_LINE_END + r"[^\S\n]*(?P<n>\d{1,9})" + around + rest_line)
            for sep, around in _NUMBERED_SEPARATORS
        },
        lazy(_LINE_END + r"(?P<file>[\w./~-]{1,200})[:-](?P<n>\d{1,9})[:-]" + rest_line),
        rest_line,
    )


_TOKEN_RESTS = _rests(_TOKEN_REST_LINE)
# (compiled where a text first holds a wrapped JWT's head: few do)
_jwt_rests = functools.cache(lambda: _rests(_JWT_REST_LINE))


class _Lead(NamedTuple):
    """The lead of a token's line (see _NUMBERED_LEAD): its length, the pattern of a next
    line's lead and rest, and what that lead's file and number must be (None: any)."""

    length: int
    rest: re.Pattern[str]
    file: str | None = None
    number: int | None = None

    def match(self, text: str, at: int, k: int) -> re.Match[str] | None:
        """The lead and rest of the k-th line after the token's, at `at`."""
        m = self.rest.match(text, at)
        if m is None or self.number is None:
            return m
        if int(m["n"]) != self.number + k or (self.file is not None and m["file"] != self.file):
            return None
        return m


def _lead(text: str, line: int, before: int, rests: _Rests) -> _Lead | None:
    """The lead of the line that starts at `line`, before a token at `before` (see
    _NUMBERED_LEAD), None when it has none; the next lines' rests by `rests`."""
    numbered = _NUMBERED_LEAD.match(text, line, before)
    if numbered and numbered["file"]:
        return _Lead(len(numbered[0]), rests.file, numbered["file"], int(numbered["fn"]))
    if numbered:
        sep = numbered["sep"].strip(" \u00a0")
        return _Lead(len(numbered[0]), rests.numbered[sep], None, int(numbered["n"]))
    fixed = _FIXED_LEAD.match(text, line, before)
    if not (fixed and fixed[0]):
        return None
    # (after a diff's mark or a box's border, the indent of the token's line, one space or
    # none: a wrap's rest starts where the file's or the box's lines do)
    head = fixed[0].rstrip()
    tail = fixed[0][len(head) :]
    lead = re.escape(fixed[0])
    if head:
        lead = re.escape(head) + f"(?:{re.escape(tail)}|[^\\S\\n]?)"
    # (few leads, each compiled once: the re module keeps them)
    return _Lead(len(fixed[0]), re.compile(_LINE_END + lead + rests.line))


def _wrapped_end(m: re.Match[str]) -> int:
    """Where a token of a fixed prefix that `m` matched ends, with the rest of it that
    a wrap put on the lines after (see _REST_LINE).

    A wrap fills a line: the rest is no longer than the line the token ends, and it goes
    on to the next line only while each line it fills is as long.
    """
    text, end = m.string, m.end()
    if end == len(text) or text[end] not in "\r\n\\":
        return end  # (almost every token: a space, a quote or the text's end follows)
    return _wrapped_rest_end(text, _line_start(text, m.start()), m.start(), end)


def _wrapped_rest_end(
    text: str, line: int, start: int, end: int, rests: _Rests = _TOKEN_RESTS
) -> int:
    """The end of the rest of a token or a value from `start` to `end`, on a line from
    `line`, that a wrap put on the lines after it (see _REST_LINE, or `rests`); `end` when
    none."""
    for word, rest_end, behind in _rest_lines(text, line, start, end, rests):
        if (
            _PLAIN_WORD.fullmatch(word)
            or (behind and _CAMEL_NAME.fullmatch(word))
            or _DOTTED_WORDS.fullmatch(word)
            or anchors_in(word)
        ):
            break  # (a line of its own: a word, a name, a path, another token of a list)
        end = rest_end
    return end


# An opaque `Bearer` token a wrap cut (REDACTION_VERSION 21: its first line went, its rest
# stayed): its rest holds what the token may (`.`, `~`, `+`, `/`, `=`), its first character
# a token's (not a mark, a path's `/` or `.`); a rest of words joined by them is a path or a
# name (`src/main.py`, `app.config`), the line after the token (see _DOTTED_WORDS).
_bearer_rests = functools.cache(lambda: _rests(_REST_LINE.format("[A-Za-z0-9_][A-Za-z0-9._~+/=-]")))
_DOTTED_WORDS = lazy(rf"(?:{_PLAIN_WORD.pattern})(?:[./](?:{_PLAIN_WORD.pattern}))+/?")


def _wrapped_bearer_end(m: re.Match[str]) -> int:
    """Where a `Bearer` token ends, with the rest of it a wrap put on the lines after."""
    text, end = m.string, m.end()
    if end == len(text) or text[end] not in "\r\n\\":
        return end
    return _wrapped_rest_end(text, _line_start(text, m.start()), m.start(), end, _bearer_rests())


def _rest_lines(
    text: str, line: int, start: int, end: int, rests: _Rests
) -> Iterator[tuple[str, int, bool]]:
    """The lines after a token from `start` to `end`, on a line from `line`, that may hold
    what a wrap put there of it, each as its rest, where the rest ends and whether it stands
    behind the lead of the token's line (see _REST_LINE), until the caller stops.

    A wrap fills a line: a rest is no longer than the line the token ends, and the lines
    go on only while each rest fills its line as the token's does.
    """
    width = end - line
    lead = _lead(text, line, start, rests) if line < start else None
    k = 0
    while True:
        k += 1
        # A rest behind the same lead fills its line after it, as the token's line does.
        rest = lead.match(text, end, k) if lead is not None else None
        behind = rest is not None
        fill = width - lead.length if rest and lead else width
        rest = rest or rests.plain.match(text, end)
        if rest is None:
            return
        word = rest["rest"]
        if len(word) > fill:
            return
        yield word, rest.end(), behind
        end = rest.end()
        if len(word) < fill:
            return


# A JWT a terminal or a log wrapped (`kubectl create token`, `gcloud auth
# print-identity-token`, `cat token.txt` at 40 to 120 columns; REDACTION_VERSION 20): a
# wrap falls before its second dot as often as not, where the jwt rule, which wants its
# three parts on one line, finds nothing. Its head: a line that ends after its first part,
# or after its first dot and some of its second part (a head with both dots is the jwt
# rule's, its signature's rest a token's).
_JWT_HEAD = lazy(r"eyJ" + _alone(3) + r"[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?")
_JWT_RUN = lazy(r"[A-Za-z0-9_.-]*+")
# A whole JWT, its signature 16 characters or more (HS256's is 43), or none (`alg: none`).
_JWT_WHOLE = lazy(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.(?:[A-Za-z0-9_-]{16,})?")
# The longest JWT read across lines (an Azure access token with its groups is ~4 KB).
_JWT_MAX = 16_384


def _jwt_read(word: str, dots: int, need: str) -> tuple[int, str] | None:
    """What is known of a JWT read so far, its dots and what of its second part's `eyJ` is
    still to come, once `word` follows it; None when `word` cannot: a third dot, a second
    part that is not the base64 of a JSON object, or none (`eyJ...` `..`)."""
    for k, piece in enumerate(word.split(".")):
        if k:
            dots += 1
            if dots > 2 or need:
                return None
            need = "eyJ" if dots == 1 else ""
        if need:
            if not need.startswith(piece[: len(need)]):
                return None
            need = need[len(piece) :]
    return dots, need


def _wrapped_jwts(text: str) -> Iterator[tuple[int, int]]:
    """The spans of JWTs a wrap cut before their second dot (see _JWT_HEAD), each with
    every line of it: each line after the head's that may be a wrapped rest (_rest_lines,
    a dot allowed) while the JWT read so far can go on, and when whole, its signature's
    rest by the rules of a wrapped token's (no word, no dash first). Each head is read to
    the end of its run of token characters once, and a line read after one head is not a
    head again: linear."""
    done = 0
    for at in _anchor_starts(text, ("eyJ",)):
        if at < done:
            continue
        run = _JWT_RUN.match(text, at).end()  # type: ignore[union-attr]
        done = run
        if run == len(text) or text[run] not in "\r\n\\":
            continue
        head = _JWT_HEAD.fullmatch(text, at, run)
        read = _jwt_read(text[at:run], 0, "") if head else None
        if read is None:
            continue
        parts, length, end = [text[at:run]], run - at, run
        for word, rest_end, behind in _rest_lines(
            text, _line_start(text, at), at, run, _jwt_rests()
        ):
            whole = read == (2, "")
            if whole and (
                word[0] == "-"
                or _PLAIN_WORD.fullmatch(word)
                or (behind and _CAMEL_NAME.fullmatch(word))
            ):
                break  # (a line of its own after a whole JWT: `Done`, `--flag`, `  fieldName`)
            more = _jwt_read(word, *read)
            if more is None or length + len(word) > _JWT_MAX:
                break
            read, end, length = more, rest_end, length + len(word)
            parts.append(word)
        done = max(done, end)
        if end > run and _JWT_WHOLE.fullmatch("".join(parts)):
            yield at, end


# A JWT split across lines by what is no part of it (REDACTION_VERSION 21): a string
# concatenated in code (`"eyJ...." +` and `"eyJ...." +` on the next line, a backslash that
# continues a line, JSON text's `\"` and `\n` of the same), or its signature on the next
# line after an indent its first line does not have (the wrap of _wrapped_jwts has nothing
# between its lines). A gap is quotes, spaces, line ends and `+`, at most 60 characters,
# and joins strings (a `+`, or a quote on either side) or holds a line end, but not once
# the signature is whole (_SIGNED): a line end alone after a JWT is the wrap's to judge.
# Or its parts are apart (REDACTION_VERSION 22): items of a list or of arguments (`["eyJ...",
# "eyJ...", "..."]`, `".".join([...])`), values of a dict or of keywords (`"payload":
# "eyJ..."`, `p="eyJ..."`, a key of 30 characters at most), pieces of a template (`${'eyJ...'}.
# ${'eyJ...'}`): a comma, a key, a dot or a template's `}${` in the gap puts the dot the two
# parts have between them. (No bracket or brace but a template's pair: what goes keeps the
# text around it valid JSON.)
_JWT_GAP = lazy(
    r"(?:[\s\"'`+,.]|\\{1,16}[nrt\"'`]|\\(?=\r?\n)|\}\.?\$\{"
    r"|(?P<key>[A-Za-z_][\w-]{0,30}(?:\\{0,16}[\"'`])?[^\S\n]{0,3}[:=])){1,60}"
)
_APART = lazy(r"[,.]|\$\{")
_GAP_LINE_END = lazy(r"[\r\n+]|\\[nr]")
# The shortest signature an algorithm makes, HS256's 32 bytes in base64url: one shorter
# has more to come.
_SIGNED = 43
# A piece on a line of its own after a line end (a signature indented under its JWT) ends
# its line, or its string; the first word of a line that goes on (`S3` of `S3 Access Key:`
# under `service_role key: eyJ...` in `supabase status`) is no part of a JWT before it.
_PIECE_ENDS_LINE = lazy(r"[^\S\n]*(?:[\r\n\"'`\\,;)\]}]|\Z)")
_QUOTES_AROUND = lazy(r"[\"'`\\].*[\"'`]\Z", re.DOTALL)


def _jwt_lengths(word: str, dots: int, lengths: tuple[int, ...]) -> tuple[int, ...]:
    """The lengths of a JWT's three parts read so far, with `dots` dots, once `word`
    follows them (a word _jwt_read accepts: no third dot)."""
    grown = list(lengths)
    for k, piece in enumerate(word.split(".")):
        grown[dots + k] += len(piece)
    return tuple(grown)


def _jwt_done(read: tuple[int, str], lengths: tuple[int, ...]) -> bool:
    """Whether a JWT read so far (_jwt_read, _jwt_lengths) is one to redact: its header and
    payload, each `eyJ` and 8 characters or more, and a signature of 16 or more, or none
    (`alg: none`), or no second dot yet. A header and payload are what a signature signs:
    redacted, the signature left wherever it stands (`signature: ...` on a line of its
    own) is no token."""
    if read[1] or read[0] == 0 or min(lengths[:2]) < 11:
        return False
    return read[0] == 1 or lengths[2] == 0 or lengths[2] >= 16


def _split_jwts(text: str) -> Iterator[tuple[int, int]]:
    """The spans of JWTs split across lines by quotes, `+` or indents (see _JWT_GAP), from
    the head of the first piece to the end of the last that makes them one (_jwt_done), and
    those of a header and payload alone; the piece after a header with no dot that starts
    with `eyJ` is its payload (`"eyJhbGc..." +` and `"eyJzdWIi..."`). A JWT whole on one
    line is the jwt rule's. Each piece is read once, after one head: linear."""
    done = 0
    for at in _anchor_starts(text, ("eyJ",)):
        if at < done or not _JWT_HEAD.match(text, at):
            continue
        end = _JWT_RUN.match(text, at).end()  # type: ignore[union-attr]
        done = end
        read = _jwt_read(text[at:end], 0, "")
        if read is None:
            continue
        lengths = _jwt_lengths(text[at:end], 0, (0, 0, 0))
        best = end if read[0] == 1 and _jwt_done(read, lengths) else None
        while end - at < _JWT_MAX:
            gap = _JWT_GAP.match(text, end)
            if gap is None:
                break
            # (a dot after the quotes is the part's: `"<payload>"` then `".Q"`)
            joined = "+" in gap[0] or _QUOTES_AROUND.match(gap[0].rstrip(".")) is not None
            if not joined and (lengths[2] >= _SIGNED or not _GAP_LINE_END.search(gap[0])):
                break
            piece_end = _JWT_RUN.match(text, gap.end()).end()  # type: ignore[union-attr]
            word = text[gap.end() : piece_end]
            # A string joined to it is its next piece, whatever it holds (`"U" +`), until it
            # is whole; a line is one of its own when it is a word or starts with a dash
            # (`Done`, `signature:`, `--flag`).
            ends = not joined or lengths[2] >= _SIGNED
            # (a dot the gap ended with starts the piece: `.Q` on a line is no word)
            first = "." + word if gap[0].endswith(".") else word
            if not word or (ends and (first[0] == "-" or _PLAIN_WORD.fullmatch(first))):
                break
            if not joined and gap["key"] is None and not _PIECE_ENDS_LINE.match(text, piece_end):
                break  # (a label's word, `S3 Access Key:`: see _PIECE_ENDS_LINE)
            if gap["key"] is not None or _APART.search(gap[0]):
                if read[0] == 2 and lengths[2] or (text[end - 1] == "." and "." in gap[0]):
                    break  # (its three parts are read, or two dots: what follows is another)
                if text[end - 1] != ".":
                    word = "." + word  # (the next part, apart: the dot is in the gap or none)
            elif read == (0, "") and lengths[0] >= 11 and word.startswith("eyJ"):
                word = "." + word  # (a header, then its payload: the dot went to neither)
            more = _jwt_read(word, *read)
            if more is None:
                break
            lengths = _jwt_lengths(word, read[0], lengths)
            read, end = more, piece_end
            done = end
            if _jwt_done(read, lengths):
                best = end
        if best is not None:
            yield at, best


def _rest_of_value(m: re.Match[str], rest: re.Pattern[str]) -> int:
    """The end of the value whose bounded head `m` matched (its last group).

    A rule judges the first 500 or 1,024 characters of a value, so that the
    time spent at each keyword is bounded; once it has judged them a secret,
    the rest goes too, rather than staying behind the marker.
    """
    return rest.match(m.string, m.end()).end()  # type: ignore[union-attr]


# A PEM header or footer of a private key: "-----BEGIN RSA PRIVATE KEY-----".
_PEM_HEADER = r"-----{}[A-Z0-9 ]{{0,30}} PRIVATE KEY(?: BLOCK)?-----"
_PEM_BEGIN = lazy(_PEM_HEADER.format("BEGIN"))
_PEM_END = lazy(_PEM_HEADER.format("END"))
# What a tool puts before each line of a file it shows, at the start of a line (or of a
# JSON text's \\n): Claude Code's Read and Edit `     2→` (`cat -n`'s tab is space), `bat`'s
# `   2 │ `, grep's `key.pem:`, `key.pem:12:` and `key.pem-12-`, and `12:` or `12-`. The
# longest such prefix is taken (a body matched possessively takes the first prefix it finds,
# and the shortest could stop it at a dot that the longest holds).
_PEM_LINE_PREFIX = (
    r"(?:(?<=\n)|(?<=\\n))[^\S\n]*"
    r"(?:\d{1,9}[^\S\n]*[→│|:-]|[\w./~-]{1,200}(?::\d{1,9}:|-\d{1,9}-|:))"
)
# What lies between a header and its footer (a JSON text's \\n and \\t escapes too, and the
# quotes of a key written as string lines of source: `"MIIE...\\n"`), and what a block
# cut short holds (no dash: it stops at the next header). A line's prefix is tried first.
_PEM_BODY = lazy(r"(?:" + _PEM_LINE_PREFIX + r"|[A-Za-z0-9+/=\s:,\"'-]|\\+[nrt\"])*+")
_PEM_CUT_BODY = lazy(r"(?:" + _PEM_LINE_PREFIX + r"|[A-Za-z0-9+/=\s\"']|\\+[nrt\"])*+")


# A run of a key's base64, as every line of a PEM body but the last short one holds.
_KEY_TEXT = lazy(r"[A-Za-z0-9+/]{16}")


def _private_keys(text: str) -> Iterator[tuple[int, int]]:
    """The spans of PEM private keys: from a header to the first footer after it,
    or, when none follows with only key text between, to where the key text stops.

    Each footer is found once and each run of key text is scanned once, however
    many headers share it: 6,000 headers without a footer cost one pass, not
    6,000 scans to the end of the text.
    """
    ends = [m.span() for m in _PEM_END.finditer(text)]
    next_end = 0
    body_from = body_to = -1  # the last run of key text scanned, from a header
    done = 0
    for header in _PEM_BEGIN.finditer(text):
        start, after = header.span()
        if start < done:
            continue
        while next_end < len(ends) and ends[next_end][0] < after:
            next_end += 1
        end = None
        if next_end < len(ends):
            # A header inside the last run ends where it does: the run is the same.
            if not body_from <= after <= body_to:
                body_from, body_to = after, _PEM_BODY.match(text, after).end()  # type: ignore[union-attr]
            if body_to >= ends[next_end][0]:
                end = ends[next_end][1]
        if end is None:
            end = _PEM_CUT_BODY.match(text, after).end()  # type: ignore[union-attr]
        if not _KEY_TEXT.search(text, after, end):
            continue  # a header named in a document (`BEGIN PRIVATE KEY-----\n...`): no key
        done = end
        yield start, end


# `htpasswd -b FILE USER PASSWORD` (`-nb USER PASSWORD`: no file), its options first, up
# to what ends a command.
_HTPASSWD = lazy(
    r"htpasswd(?P<options>(?:[^\S\n]{1,10}-[A-Za-z]{1,10}){1,6})"
    r"(?P<args>(?:[^\S\n]{1,10}(?:\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|[^\s\"'`\\;|&<>()]{1,200})){2,3})"
)
# An argument, quoted or not (its text in the group `text`).
_ARGUMENT = lazy(r"\"(?P<q2>[^\"\n]+)\"|'(?P<q1>[^'\n]+)'|(?P<bare>[^\s\"'`\\;|&<>()]+)")


def _htpasswd_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password of each `htpasswd` in batch mode (`-b`): its last argument but
    none, the file's, the user's and the password's (the user's and the password's with
    `-n`, which prints the line instead of writing a file)."""
    for m in _HTPASSWD.finditer(text):
        options = m.group("options")
        if "b" not in options:
            continue
        args = list(_ARGUMENT.finditer(text, m.start("args"), m.end("args")))
        wanted = 2 if "n" in options else 3
        if len(args) < wanted:
            continue
        password = args[wanted - 1]
        group = password.lastgroup or "bare"
        if _PLACEHOLDER.match(password.group(group)) or password.group(group).startswith(_MARKED):
            continue
        yield password.span(group)


# A cookie's value in a `Cookie:` or `Set-Cookie:` header (or curl's `-b`/`--cookie`): a
# session's, which whoever holds it is logged in as. Only a long random-looking one: a
# preference (`theme=dark`) or an analytics id of words stays.
# (its pairs start with the first, and end at a colon, which no cookie holds and every
# header ends: the pairs of two headers never overlap; an option's unquoted value ends at
# a space)
# REDACTION_VERSION 30: a header in a map of them, its name quoted (`{'Cookie': 'sid=...'}`, a
# log of a client's request, `"Set-Cookie": "..."` in JSON).
_COOKIE_HEADER = lazy(
    r"(?i:(?<![\w-])(?P<header>(?:set-)?cookie(?:" + _QUOTE + r")?:[^\S\n]{0,10})"
    r"|(?<![\w-])--cookie[\s=]|(?<=\s)-b\s)"
    r"[^\S\n]{0,10}(?P<q>" + _QUOTE + r")?"
    r"(?P<pairs>[\w.$-]{1,100}=(?:(?(header)[^\n\"'\\:]|(?(q)[^\n\"'\\:]|[^\s\"'\\:]))){0,2000})"
)
_COOKIE_PAIR = lazy(r"(?:^|[;,]\s{0,3})[\w.$-]{1,100}=(?P<value>[^;,\s\"'\\]{16,1000})")


# Where a header or option may start before each of its anchors: `cookie:`, `set-cookie:`,
# `--cookie`, and after the space before `-b` (a text that only says "cookie" holds none).
_COOKIE_LEADS = {
    **{f"{w}{q}:": (1, 5) for w in ("ookie", "OOKIE") for q in ("", '"', "'", '\\"')},
    "--cookie": (0,),
    " -b ": (-1,),
}


def _cookie_values(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the session cookies in `text` (see _COOKIE_HEADER), the header tried
    only where its anchors are (a search would try it at every position)."""
    done = 0
    starts = sorted(
        {
            at - lead
            for anchor, leads in _COOKIE_LEADS.items()
            for at in _anchor_starts(text, (anchor,))
            for lead in leads
        }
    )
    for at in starts:
        if at < done or at < 0:
            continue
        m = _COOKIE_HEADER.match(text, at)
        if m is None:
            continue
        done = m.end()
        pairs = m.group("pairs")
        for pair in _COOKIE_PAIR.finditer(pairs):
            value = pair.group("value")
            if value.startswith(_MARKED) or _PLACEHOLDER.match(value):
                continue
            letters = len(_LETTER.findall(value))
            # (an analytics id, `GA1.2.1234567890.1234567890`, is numbers)
            if _random_looking(value) and not _wordy(value) and letters >= len(value) / 4:
                start = m.start("pairs") + pair.start("value")
                yield start, start + len(value)


# GitLab's token prefixes besides `glpat-` (docs.gitlab.com, security/tokens): pipeline
# trigger, runner, deploy, CI/CD job, feed, incoming mail, agent for Kubernetes, OAuth
# application secret, SCIM, feature flags client, workspace and runner registration tokens.
_GITLAB_PREFIXES = (
    "glptt-",
    "glrt-",
    "gldt-",
    "glcbt-",
    "glft-",
    "glimt-",
    "glagent-",
    "gloas-",
    "glsoat-",
    "glffct-",
    "glwt-",
    "glrtr-",
)
# A GitLab token's body; a routable token (GitLab 18) goes on after a dot with a version
# and another dot and part (`glpat-<27>.01.<9>`), which the body alone left behind.
_GITLAB_BODY = r"[A-Za-z0-9_-]{20,}(?:\.[0-9]{1,4}\.[A-Za-z0-9]{4,40}(?![A-Za-z0-9_-]))?"

# Other providers' tokens, each by its fixed prefix and the shape after it: kind,
# prefix, pattern of the rest, check, anchors (the prefix when empty).
_PROVIDER_TOKENS: tuple[
    tuple[str, str, str, Callable[[re.Match[str]], bool] | None, tuple[str, ...]], ...
] = (
    ("npm-token", "npm_", r"[A-Za-z0-9]{36}(?![A-Za-z0-9])", _mixed_match, ()),
    ("pypi-token", "pypi-", r"AgE[A-Za-z0-9_-]{50,}", None, ("pypi-AgE",)),
    ("huggingface-token", "hf_", r"[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])", _cases, ()),
    ("sendgrid-key", "SG.", r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", None, ()),
    ("digitalocean-token", "do", r"[opr]_v1_[a-f0-9]{64}", None, ("dop_v1_", "doo_v1_", "dor_v1_")),
    ("slack-token", "xapp-", r"\d-[A-Za-z0-9-]{10,}", None, ()),
    ("google-oauth-token", "ya29.", r"[A-Za-z0-9_-]{30,}", None, ()),
    # (a refresh token: `1//0` and ~100 characters, what `gcloud auth` stores)
    ("google-oauth-token", "1//0", r"[A-Za-z0-9_-]{40,}", _mixed_match, ()),
    ("stripe-key", "whsec_", r"[A-Za-z0-9+/]{32,}", _mixed_match, ()),
    ("google-client-secret", "GOCSPX-", r"[A-Za-z0-9_-]{28}", None, ()),
    ("grafana-token", "glsa_", r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", None, ()),
    ("grafana-token", "glc_", r"[A-Za-z0-9+/]{32,}={0,2}", None, ()),
    (
        "shopify-token",
        "shp",
        r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
        None,
        ("shpat_", "shpss_", "shpca_", "shppa_"),
    ),
    ("databricks-token", "dapi", r"[a-f0-9]{32}(?:-\d+)?(?![A-Za-z0-9])", None, ()),
    ("linear-key", "lin_api_", r"[A-Za-z0-9]{40}", None, ()),
    ("vault-token", "hv", r"[sb]\.[A-Za-z0-9_-]{24,}", None, ("hvs.", "hvb.")),
    (
        "doppler-token",
        "dp.",
        r"(?:st|pt|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,}",
        None,
        (),
    ),
    ("pulumi-token", "pul-", r"[a-f0-9]{40}", None, ()),
    ("supabase-token", "sbp_", r"[a-f0-9]{40}", None, ()),
    # REDACTION_VERSION 20 (session 33's security test): GitLab's pipeline trigger, runner
    # and deploy tokens (`glpat-` has a rule of its own), Heroku's, Atlassian's and Postman's
    # API keys, NuGet's (`nuget push -k oy2...`: 46 characters in lowercase); 21: the rest of
    # GitLab's prefixes (a CI/CD job's, a feed's, an incoming mail's, an agent's, an OAuth
    # application's secret, a SCIM's, a feature flags client's, a workspace's, a runner's
    # registration), each routable as `glpat-` may be (_GITLAB_BODY)
    *(("gitlab-token", p, _GITLAB_BODY, _mixed_match, ()) for p in _GITLAB_PREFIXES),
    ("heroku-token", "HRKU-", r"[A-Za-z0-9_-]{20,}", _mixed_match, ()),
    # (its checksum after `=`, 8 hex digits, and no more: `ATATT3...=bbbb...` of a longer
    # word took the word's rest too, a property test of session 33)
    (
        "atlassian-token",
        "ATATT3",
        r"[A-Za-z0-9_-]{40,}(?:=[A-Fa-f0-9]{8}(?![A-Za-z0-9_-]))?",
        _mixed_match,
        (),
    ),
    ("postman-key", "PMAK-", r"[a-fA-F0-9]{24}-[a-fA-F0-9]{34}(?![A-Za-z0-9])", None, ()),
    ("nuget-key", "oy2", r"[a-z0-9]{43,50}(?![A-Za-z0-9])", _mixed_match, ()),
    # REDACTION_VERSION 34: Fly.io's tokens, as `fly auth token` and `fly tokens create` print
    # them (`FlyV1 fm2_...`, macaroons joined by commas, base64)
    ("fly-token", "FlyV1 ", r"f[a-z][0-9]_[A-Za-z0-9+/=_,-]{40,}", _mixed_match, ()),
)


# A Discord bot's token: the base64 of its user id (17 to 20 digits; no fixed prefix, but
# the base64 of digits starts with what the first two say, `MT` for `1x`, and its third
# character is one of ten), a dot, 6 characters (a time), a dot and an HMAC (27 or 38).
# Bare, in `client.login("...")`, as `DISCORD_TOKEN=...` (a value with dots, which the
# rules for a name's value take for code) and after `Authorization: Bot`.
_DISCORD_HEADS = tuple(
    first + third
    for first in ("MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT")
    for third in "AEIMQUYcgk"
)
# (its time and its HMAC: what the rule looks for first, see Rule.holds)
_DISCORD_TAIL = r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}"
_DISCORD_TOKEN = (
    r"[MNO][DTjz][AEIMQUYcgk]"
    + _alone(3)
    + r"(?P<id>[A-Za-z0-9]{20,24})"
    + _DISCORD_TAIL
    + r"(?![A-Za-z0-9_-])"
)


def _discord_token(m: re.Match[str]) -> bool:
    """A Discord token's first part is the base64 of a user id: 17 to 20 digits."""
    encoded = m.group(0).partition(".")[0]
    if len(encoded) % 4 == 1:
        return False
    try:
        user_id = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except binascii.Error:
        return False
    return user_id.isdigit() and 17 <= len(user_id) <= 20


def _credentials(introduced_by: str, anchors: tuple[str, ...]) -> Rule:
    """A rule for the base64 of `user:password` after what introduces it (an `Authorization:
    Basic` header, a Docker config's `"auth"`, an .npmrc's `_auth=`), tried at `anchors`."""
    token = r"(?P<token>[A-Za-z0-9+/]{6,500}={0,2})"
    return Rule(
        "basic-auth",
        introduced_by + token,
        "token",
        _basic_credentials,
        anchors=anchors,
        at_anchors=True,
    )


# REDACTION_VERSION 13 (session 28): forms a security test found kept.

# A command line's option that gives a token (`vercel --token T`, `netlify --auth T`,
# `wrangler --api-token T`), and the kind of what it gives.
_TOKEN_OPTIONS = {
    "--token": "token",
    "--auth": "token",
    "--auth-token": "token",
    "--api-token": "token",
    "--access-token": "token",
    "--secret": "secret",
    "--client-secret": "secret",
    "--api-key": "api-key",
}
# A value made of what a generated token holds (base64, base64url, hex).
_TOKEN_CHARS = lazy(r"[A-Za-z0-9+/_-]+={0,2}")
_UUID = lazy(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def _generated(value: str, shortest: int = 16) -> bool:
    """Whether `value` looks generated, as a token or a key is: token characters only,
    `shortest` or more of them, letters and digits mixed and random-looking, no words
    (`dev-only-secret`), no path (`keys/prod/signing2`), no UUID (an id), no run of hex
    digits alone under 32 (a hash a cache key holds)."""
    if len(value) < shortest or value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return False
    if not _TOKEN_CHARS.fullmatch(value) or _wordy(value) or _UUID.fullmatch(value):
        return False
    if "/" in value and (
        "-" in value or "_" in value or any(len(p) >= 4 and p.isalpha() for p in value.split("/"))
    ):
        return False  # a path or a name: `TaylorAI/bge-micro-v2`, `keys/prod/signing2`
    if _HEX.fullmatch(value) and len(value) < 32:
        return False
    return _random_looking(value)


# A Kubernetes bootstrap token (`kubeadm join --token abcdef.0123456789abcdef`): an id and a
# secret, six and sixteen lowercase letters and digits, joined by a dot (REDACTION_VERSION 28).
_BOOTSTRAP_TOKEN = lazy(r"[a-z0-9]{6}\.[a-z0-9]{16}")


def _option_token(m: re.Match[str]) -> bool:
    """`--token T` and its kin (see _TOKEN_OPTIONS): a generated value, not a word (which
    may be the next argument) nor a docker build's `--secret id=npmrc,src=...`; or a
    bootstrap token."""
    value = m.group("password")
    return _generated(value, 8) or (
        _BOOTSTRAP_TOKEN.fullmatch(value) is not None and _mixed(value.partition(".")[2])
    )


# A name that ends in `KEY` (`OPENAI_KEY`, `SIGNING_KEY`, `masterKey`) whose value is no
# secret but an id or a column: what the name says before `KEY`.
_PUBLIC_KEY_NAME = lazy(
    r"(?i:public|publishable|pub|site|anon|primary|foreign|sort|partition|hash|range|cache"
    r"|idempotency|dedupe?|lookup|query|storage|object|s3|file|row|column|index|unique"
    r"|composite|map|dict|group|i18n|translation|message|label|field|attr|attribute|ssh"
    r"|host|gpg|pgp|kms|model|repo|path|url|name|key)[_.-]?\Z"
)


def _key_name_secret(name: str, value: str) -> bool:
    """A value given to a name ending in `KEY` that no keyword rule reads (`OPENAI_KEY`,
    `ENCRYPTION_KEY`, `JWT_KEY`, `LICENSE_KEY`): a secret only when it looks generated
    (see _generated), and the name is not one of an id or a column (`PRIMARY_KEY`,
    `cache_key`, `partitionKey`, see _PUBLIC_KEY_NAME)."""
    head = name[:-3]
    if not head or _KEY_NAME.search(name):
        return False
    if _PUBLIC_KEY_NAME.search(head):
        # but Azure's `"primaryKey"` (Event Hubs, Service Bus, Maps), the base64 of 32 bytes
        # or more, padded, as no row's id is (REDACTION_VERSION 19)
        return head.lower().endswith("primary") and _PADDED_KEY.fullmatch(value) is not None
    return _generated(value)


_PADDED_KEY = lazy(r"[A-Za-z0-9+/]{42,500}={1,2}")


def _named_key(m: re.Match[str]) -> bool:
    """`OPENAI_KEY=...`, `"signingKey": "..."`, Laravel's `APP_KEY=base64:...`."""
    head = _name_before(m.string, m.start())
    if m.group("bracket") and not _bracketed(m, len(head)):
        return False
    name = head + m.group("sep") + m.group("keyword")
    after = m.string[m.end("value") : m.end("value") + 1]
    if m.group("open") and after not in ('"', "'", "\\"):
        return False  # a quoted value that goes on (`"abc" + x`, a template)
    if after and not (after.isspace() or after in "\"'`,;}\\"):
        return False  # code or a path: `SIGNING_KEY = derive2Key(...)`, `x_key=ab12.pem`
    return _key_name_secret(name, m.group("value"))


def _name_of_kind(name: str) -> str | None:
    """The kind of a secret given to `name`, when its name says it holds one: it ends in a
    keyword (`DB_PASSWORD`, `apiToken`) or in `KEY` (`OPENAI_KEY`); else None."""
    named = _KEY_NAME.search(name)
    if named:
        return _keyword_kind(named.group("keyword"))
    if name[-4:-3] in ("_", ".", "-") and name[-3:] in ("KEY", "key", "Key"):
        return "key"
    if name.endswith("Key") and (name[-4:-3].islower() or name[-4:-3].isdigit()):
        return "key"  # camelCase: `signingKey`
    return None


# A token a web page's form holds for the session that loaded it, no credential:
# `<input type="hidden" name="authenticity_token" value="...">` (Rails), `csrf_token`.
_FORM_TOKEN = lazy(r"(?i)csrf|xsrf|authenticity|verification")


def _named_value(m: re.Match[str]) -> bool:
    """A name and its value given as two fields (`- name: DB_PASSWORD` then `value: ...`,
    `{name: 'DB_PASSWORD', value: '...'}`, `<add key="DbPassword" value="..." />`, `<entry
    key="password">...</entry>`): judged as the value given to that name."""
    name, value = m.group("name"), m.group("value")
    kind = _name_of_kind(name)
    if kind is None or _FORM_TOKEN.search(name):
        return False
    if kind == "key":
        return _key_name_secret(name, value)
    return _assigned_secret(name, value, True)


# A constant of WordPress's that holds a secret by a name no keyword ends: its keys and salts
# (`AUTH_KEY`, `NONCE_SALT`), 64 printable characters generated for each site.
_SALT_NAME = lazy(r"(?i)(?:^|_)(?:key|salt)$")
_TEMPLATE = lazy(r"\{\{|\$\{|<\?(?:php|=)")


def _defined_secret(m: re.Match[str]) -> bool:
    """`define( 'NAME', 'value' )`: a keyword's name judged as a named value's
    (`DB_PASSWORD`), a key's or a salt's when its value is 32 characters or more of many
    kinds, as generated (`AUTH_KEY`, not `'put your unique phrase here'`)."""
    value = m.group("value")
    if _SALT_NAME.search(m.group("name")):
        # (any character of the generator's may start one, `{` or `<` too: no placeholder's
        # first character says it is none, but a template's braces do)
        return len(value) >= 32 and _entropy(value) >= 4.0 and not _TEMPLATE.search(value)
    return _named_value(m)


def _named_value_kind(m: re.Match[str]) -> str:
    return _name_of_kind(m.group("name")) or "secret"


def _element(m: re.Match[str]) -> bool:
    """`<password>...</password>`: an XML element whose name ends in a keyword, its text
    judged as a quoted value given to that name, the closing tag the opening's."""
    name = _name_before(m.string, m.start()) + m.group("keyword")
    opened = m.start() - (len(name) - len(m.group("keyword")))
    if opened == 0 or m.string[opened - 1] != "<" or m.group("close") != name:
        return False
    return _assigned_secret(name, m.group("value"), True)


# The end of a table's header of names and values (`Key    Value`, `NAME    VALUE`, a box's
# `│ NAME │ VALUE │`), which tells a table from a line of two words as its rule of dashes
# does (see RULES).
_TABLE_HEADS = tuple(gap + word for gap in ("  ", "\t", "│ ", "| ") for word in ("Value", "VALUE"))
# (REDACTION_VERSION 38: a Markdown table's `| name | value |`, its header in lower case)
_BOXED_HEADS = tuple(gap + "value" for gap in ("│ ", "| "))


def _table_secret(m: re.Match[str]) -> bool:
    """A line of a name ending in a keyword, spaces and a value (a table `vault kv get`
    prints): the name starts its line (an indent, a diff's mark or a border before it at
    most), and the value looks generated (`password    required`, `token    9.0.2`, prose
    stay). A box's cells (`│ DB_PASSWORD │ ... │`) start with a border; a value one space
    after its name, which fills its column, starts where the line above has a column's."""
    text, start = m.string, m.start()
    name = _name_before(text, start) + m.group("keyword")
    opened = start - (len(name) - len(m.group("keyword")))
    line = _line_start(text, opened)
    # (an indent, a diff's mark, `+password    ...` of an added file or an apply_patch, a
    # box's border: what stands before a wrapped token's rest too)
    lead = _FIXED_LEAD.fullmatch(text, line, opened)
    if lead is None:
        return False
    gap = m.group("gap")
    boxed = m.group("border") is not None
    if boxed != ("│" in gap or "|" in gap) or boxed != ("│" in lead[0] or "|" in lead[0]):
        return False  # (a box's row has its borders, a table's none)
    if gap == " " and not _below_a_column(text, line, m.start("value") - line):
        return False
    value = m.group("value")
    if boxed and _mixed(value) and _assigned_secret(name, value, True):
        return True  # (a cell's password, `| DB_PASSWORD | Marble637#rib |`: REDACTION_VERSION 38)
    return _generated(value, 8) and _assigned_secret(name, value, False)


def _below_a_column(text: str, line: int, column: int) -> bool:
    """Whether the line above the one that starts at `line` has a column that starts at
    `column` (a space, then what is not): a table's header or row."""
    if line >= 2 and text.startswith("\\n", line - 2):
        above_end = line - 2 - (2 if text.startswith("\\r", line - 4) else 0)
    elif line and text[line - 1] == "\n":
        above_end = line - 1 - (1 if text[line - 2 : line - 1] == "\r" else 0)
    else:
        return False
    above = _line_start(text, above_end)
    at = above + column
    return at < above_end and text[at - 1] == " " and not text[at].isspace()


def _url_user_token(m: re.Match[str]) -> bool:
    """A token as a URL's whole user (`https://<token>@github.com`, `https://<token>:x-oauth-
    basic@github.com`): a generated one of 20 or more characters, not a name (`git@`,
    `postgres@`)."""
    if not m.string[max(0, m.start() - 2) : m.start()].isalnum():
        return False  # a scheme comes first
    return _generated(m.group("user"), 20)


# The kind of the token an `Authorization` header's scheme gives (see RULES).
_SCHEME_KINDS = {"token": "token", "bot": "discord-token", "ssws": "okta-token"}


def _authorization_token(m: re.Match[str]) -> bool:
    """`Authorization: token T` (GitHub's, Django REST framework's `Token T`)."""
    return _bearer(m) and len(m.group("token")) >= 8


# A PEM private key, base64 encoded once more (a kubeconfig's `client-key-data:`, what
# `kubectl config view --raw` prints): `-----BEGIN` is `LS0tLS1CRUdJTi`.
def _encoded_private_key(m: re.Match[str]) -> bool:
    head = m.group(0)[:80]
    try:
        decoded = base64.b64decode(head[: len(head) // 4 * 4])
    except binascii.Error:
        return False
    return b"PRIVATE KEY" in decoded


_PUTTY_PRIVATE = lazy(r"Private-Lines:[^\S\n]{0,3}(?P<n>\d{1,3})(?:\r?\n|\\r\\n|\\n)")
_PUTTY_LINE = lazy(r"(?P<line>[A-Za-z0-9+/=]{1,200})(?:\r?\n|\\r\\n|\\n|\Z)")


def _putty_keys(text: str) -> Iterator[tuple[int, int]]:
    """The private lines of a PuTTY key (`.ppk`): the `Private-Lines: N` of a text that holds
    `PuTTY-User-Key-File-`, and the N lines of base64 after it (at most 999 lines)."""
    for m in _PUTTY_PRIVATE.finditer(text):
        end = at = m.end()
        for _ in range(int(m.group("n"))):
            line = _PUTTY_LINE.match(text, at)
            if line is None:
                break
            at, end = line.end(), line.end("line")
        if end > m.end():
            yield m.end(), end


def _query_secret(m: re.Match[str]) -> bool:
    """`?key=...`, `&auth=...` (Firebase), `?pwd=...` in a URL: a generated value; an OAuth
    redirect's `?code=...`, random-looking (GitHub's 20 hex digits, Google's `4/0A...`)."""
    value = m.group("value")
    if m.group("param") == "code":
        return _random_code(value)
    return _generated(value, 6 if m.group("param") == "pwd" else 16)


_QUERY_KINDS = {"key": "api-key", "auth": "token", "pwd": "password", "code": "token"}


# REDACTION_VERSION 14 (session 28, later): what version 13 left.


def _random_code(value: str) -> bool:
    """A one-time code or a key that looks generated, 16 characters or more: random-looking,
    no words, no UUID (an id), no placeholder; hex of any length (an OAuth code is 20)."""
    if len(value) < 16 or value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return False
    return not (_wordy(value) or _UUID.fullmatch(value)) and _random_looking(value)


def _salt(m: re.Match[str]) -> bool:
    """`SALT=...`, `PASSWORD_SALT: ...`, `"passwordSalt": "..."`: a generated value (see
    _generated) given to a name whose last part is `salt`; `salt: 10` (bcrypt's rounds), a
    word or a variable stay."""
    at = m.start()
    before = m.string[at - 1] if at else ""
    if before.isalnum() and not (m.group("keyword") == "Salt" and before.islower()):
        return False  # glued to a word: `basalt`, `NOSALT`; camelCase's `passwordSalt` is a part
    if m.group("bracket") and not _bracketed(m, 0):
        return False
    after = m.string[m.end("value") : m.end("value") + 1]
    if after and not (after.isspace() or after in "\"'`,;}\\"):
        return False  # code or a path: `SALT = derive2Salt(...)`
    return _generated(m.group("value"))


def _literal(m: re.Match[str]) -> bool:
    """kubectl's `--from-literal=NAME=VALUE`: judged as the value given to NAME, and a bare
    `key=` when the value looks generated."""
    if m.group("name").lower() == "key":
        return _generated(m.group("value"))
    return _named_value(m)


def _literal_kind(m: re.Match[str]) -> str:
    return "key" if m.group("name").lower() == "key" else _named_value_kind(m)


def _stored_secret(m: re.Match[str]) -> bool:
    """`gh secret set NAME --body VALUE`: whatever its name, the value is a secret when it
    is one by the judges of a quoted value (see _stored)."""
    return _stored(m.group("value"))


# What stands for a value a store is given, not the value: a file (AWS's `file://`,
# `fileb://`; the `@file` of az and vault), stdin (`-`).
_FILE_REFS = ("file://", "fileb://", "@", "-")


def _stored(value: str) -> bool:
    """A value a secret store holds or is given, whatever its name (REDACTION_VERSION 23):
    a secret by the judges of a quoted value (no variable, placeholder, word or number), not
    a lowercase word (`--body production`: a setting kept as a secret), not a file's name."""
    if (value.isalpha() and value.islower()) or value.startswith(_FILE_REFS):
        return False
    return _assigned_secret("SECRET", value, True)


# The start of HTTP Digest's credentials, `Digest username="...", realm=...`, and the
# `response="..."` that follows on its line (the password hashed with the server's nonce,
# as good as it to replay a request).
_DIGEST = lazy(r"Digest[^\S\n]{1,10}[a-z]{1,10}=")
_DIGEST_RESPONSE = lazy(r"response=(?:\\{0,7}\")?(?P<token>[0-9a-fA-F]{32,128})(?![0-9a-fA-F])")
# How far after `Digest ` its `response=` is looked for.
_DIGEST_MAX = 500


def _digest_responses(text: str) -> Iterator[tuple[int, int]]:
    """The `response` of each Digest header: looked for on its line, up to 500 characters
    after `Digest ` (a search in C, once for each header)."""
    done = 0
    for at in _anchor_starts(text, ("Digest ",)):
        if at < done or _DIGEST.match(text, at) is None:
            continue
        end = min(len(text), at + _DIGEST_MAX)
        line = text.find("\n", at, end)
        end = end if line < 0 else line
        found = text.find("response=", at, end)
        if found < 0 or text[found - 1] not in " ,\t":
            continue
        m = _DIGEST_RESPONSE.match(text, found)
        if m is not None:
            done = m.end()
            yield m.span("token")


# An Azure Key Vault secret's id (`https://<vault>.vault.azure.net/secrets/<name>/<version>`,
# in each of Azure's clouds): the `value` of the object that holds it is the secret, whatever
# its name (`dbpass`, `conn`): after it, as `az keyvault secret show` and `set` print their
# keys sorted, or before it, as the REST API answers (`{"value": "...", "id": ...}`); or the
# last field of its line, as `-o tsv` and `-o table` print them (REDACTION_VERSION 22).
_VAULT_SECRET_IDS = tuple(
    f".{host}/secrets/"
    for host in (
        "vault.azure.net",
        "vault.azure.cn",
        "vault.usgovcloudapi.net",
        "vault.microsoftazure.de",
    )
)
_VAULT_VALUE = (
    r"(?<![\w-])(?:" + _QUOTE + r")?(?:value|Value)(?:" + _QUOTE + r")?[^\S\n]{0,3}:\s{0,3}"
    r"(?:\\{0,7}\"(?P<dq>[^\"\\\n]{1,1000})(?=\\{0,7}\")|\\{0,7}'(?P<sq>[^'\\\n]{1,1000})'"
    r"|(?P<bare>[^\s\"'`\\,{}\[\]]{1,1000})(?=[\s,}\]]|\Z))"
)
_BRACE_OR_VALUE = lazy(r"[{}]|" + _VAULT_VALUE)
# The fields of a line after an id: apart by a tab or two spaces or more.
_FIELDS = lazy(r"(?:\t|[^\S\n]{2,})(?P<field>[^\s\"'`\\]{1,1000})")
# How far from its id a secret's value is looked for (an object's other keys between).
_VAULT_MAX = 2000


def _vault_value(m: re.Match[str]) -> tuple[int, int] | None:
    group = m.lastgroup or ""
    value = m[group]
    if value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return None
    return m.span(group)


def _vault_secret_values(text: str) -> Iterator[tuple[int, int]]:
    """The value of each Key Vault secret whose id the text holds (see _VAULT_SECRET_IDS),
    looked for at most _VAULT_MAX characters from the id and not past the one before or
    after it, in the object that holds it (no brace between them): linear."""
    ids = _anchor_starts(text, _VAULT_SECRET_IDS)
    done = 0
    for k, at in enumerate(ids):
        hi = min(len(text), at + _VAULT_MAX, ids[k + 1] if k + 1 < len(ids) else len(text))
        lo = max(done, at - _VAULT_MAX, ids[k - 1] if k else 0)
        # (before it: not a Key Vault reference's `"value": "@Microsoft.KeyVault(SecretUri=...`)
        span = _value_before(text, lo, at)
        if span is None:
            line_end = text.find("\n", at, hi)
            fields = list(_FIELDS.finditer(text, at, hi if line_end < 0 else line_end))
            if len(fields) >= 2 and _generated(fields[-1]["field"], 8):
                span = fields[-1].span("field")
        if span is None:
            span = _value_after(text, at, hi)
        if span is not None:
            done = span[1]
            yield span


def _value_before(text: str, lo: int, at: int) -> tuple[int, int] | None:
    """The span of the last value in `text[lo:at]`, when no brace follows it (the object
    `at` is in) and it ended before `at`."""
    before = None
    for m in _BRACE_OR_VALUE.finditer(text, lo, at):
        before = m if m.lastgroup and m.end() < at else None
    return None if before is None else _vault_value(before)


def _value_after(text: str, at: int, hi: int) -> tuple[int, int] | None:
    """The span of the first value in `text[at:hi]` of the object `at` is in (none in an
    object inside it, none once it is closed)."""
    depth = 0
    for m in _BRACE_OR_VALUE.finditer(text, at, hi):
        if m.lastgroup:
            if depth == 0:
                return _vault_value(m)
        elif m[0] == "{":
            depth += 1
        elif depth == 0:
            return None
        else:
            depth -= 1
    return None


def _header_key(m: re.Match[str]) -> bool:
    """`Ocp-Apim-Subscription-Key: ...` (Azure API Management's key): mixed, 16 or more."""
    return _bearer(m) and len(m.group("token")) >= 16


# What a tool puts before each line of a file it shows: Read's `     1→`, `cat -n`'s tab,
# grep's `1:`, opencode's read's `00001| `.
_VIEW_PREFIX = r"[^\S\n]*(?:\d{1,9}(?:→|\t|\\t|:|\|)[^\S\n]*)?"
# A line of a `.pgpass` file, `host:port:database:user:password` (five fields, the port a
# number or `*`), after what a tool puts before it (_VIEW_PREFIX) or an `echo` and a quote.
_PGPASS_LINE = lazy(
    _VIEW_PREFIX + r"(?:echo[^\S\n]{1,5}(?:-e[^\S\n]{1,5})?)?"
    r"(?:\\{0,7}[\"'])?(?P<host>[A-Za-z0-9.*_-]{1,253}):(?:\d{1,5}|\*)"
    r":[^\s:\"'`\\]{1,100}:[^\s:\"'`\\]{1,100}:(?P<password>[^\s:\"'`\\]{1,200})"
    r"(?=[\s\"'`\\]|\Z)"
)
# Where a line starts: after a line break, JSON's `\n`, or a quote (a file's text as a
# JSON string, a Write's `"content": "..."`).
_LINE_BREAK = lazy(r"\n|\\n|\"")


def _pgpass_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password of each `.pgpass` line of a text that names the file (a heredoc or an
    `echo` that writes it, a Write's input): tried at each line's start, no further."""
    for at in chain((0,), (m.end() for m in _LINE_BREAK.finditer(text))):
        m = _PGPASS_LINE.match(text, at)
        if m is None:
            continue
        host, password = m.group("host"), m.group("password")
        if not (host == "*" or "." in host or _LETTER.search(host)):
            continue  # a time or a list of numbers: `2024-01-02:10:30:00:ok`
        if password.startswith(_MARKED) or _PLACEHOLDER.match(password):
            continue
        yield m.span("password")


# REDACTION_VERSION 16 (session 30): command-line passwords a security test found kept, and
# a password typed into a prompt.

# What feeds a command its input: an `echo` or a `printf` (of `'%s\n'` and the value, or of
# the value and `\n`) into a pipe, its value quoted (any character but a quote, a backslash
# or a line break: `'Tr0ub4dor&3x'`, `'correct horse battery staple'`, `$'PW'`) or not; then
# what may stand between it and the pipe: a redirection (`2>/dev/null`), the end of a
# group (`(echo PW) |`, `{ echo PW; } |`). (REDACTION_VERSION 17: a quoted value was one
# word of a bare value's characters, and the pipe had to follow it.)
_FED = lazy(
    r"(?<![\w-])(?:echo[^\S\n]{1,10}(?:-[neE]{1,3}[^\S\n]{1,10})?"
    r"|printf[^\S\n]{1,10}(?:\\{0,7}[\"']%s(?:\\{1,7}n)?\\{0,7}[\"'][^\S\n]{1,10})?)"
    r"(?:\$?\\{0,7}[\"'](?P<quoted>[^\"'\\\n]{4,200})(?:\\{1,7}n)?\\{0,7}[\"']"
    r"|(?P<bare>[^\s\"'`\\;|&<>()]{4,200})(?:\\{1,7}n)?)"
    r"(?:[^\S\n]{1,10}[0-2]?>{1,2}[^\S\n]{0,3}(?:&[0-2]|[^\s\"'`\\;|&<>()]{1,100})){0,2}"
    r"(?:[^\S\n]{0,10}(?:;[^\S\n]{0,10})?[)}])?[^\S\n]{0,10}\|"
)
# A here-string after a command that reads a password from its input (`sudo -S <<< 'PW' ...`).
_HERE_STRING = lazy(
    r"<<<[^\S\n]{0,10}(?:\$?\\{0,7}[\"'](?P<quoted>[^\"'\\\n]{4,200})(?:\\{1,7}n)?\\{0,7}[\"']"
    r"|(?P<bare>[^\s\"'`\\;|&<>()]{4,200})(?:\\{1,7}n)?(?=[\s;|&)]|\Z))"
)
# A heredoc after `sudo -S` (`sudo -S apt-get install x <<EOF`, then the password on the
# body's first line, one word alone on it).
_HEREDOC = lazy(
    r"<<-?[^\S\n]{0,3}(?P<q>[\"'])?(?P<tag>[A-Za-z_][A-Za-z0-9_]{0,30})(?(q)[\"'])"
    r"[^\n]{0,300}\n[^\S\n]{0,10}(?P<bare>[^\s\"'`\\]{4,200})[^\S\n]{0,10}(?=\n|\Z)"
)
# The commands that read a password (or `user:password` lines) from their input: a login's
# `--password-stdin` (docker's, helm's, podman's, oras's), `sudo` given `-S` (`--stdin`)
# among its options (see _sudo_reads), `passwd --stdin`, `chpasswd`. How far before one the
# `echo` is looked for, and after it a here-string or a heredoc.
_READS_PASSWORD = (
    "--password-stdin",
    "sudo ",
    "passwd --stdin",
    "chpasswd",
    # (REDACTION_VERSION 38: cryptsetup, which reads a passphrase from a pipe)
    "cryptsetup ",
)
_ECHO_MAX = 400
_HERE_MAX = 300
# What ends a command: a pipe, `;`, `&`, a line break not continued by a backslash.
_COMMAND_END = lazy(r"[|;&]|(?<!\\)\n")
# A word of sudo's options (`-u postgres`, `-p ''`, `--user=x`, `-nS`), after a space.
_SUDO_WORD = lazy(
    r"[^\S\n]{1,10}(?P<word>(?:\"[^\"\n]{0,100}\"|'[^'\n]{0,100}'|[^\s\"'`;|&<>()]{1,100}){1,4})"
)
# sudo's options that take a value: the letters (`-u USER`, `-uUSER`), the long names.
_SUDO_VALUE_LETTERS = frozenset("ughpUCDrtT")
_SUDO_VALUE_NAMES = frozenset(
    (
        "--user",
        "--group",
        "--host",
        "--prompt",
        "--other-user",
        "--close-from",
        "--chdir",
        "--role",
        "--type",
        "--command-timeout",
    )
)
# How many words of sudo's options are read.
_SUDO_WORDS = 12


def _sudo_reads(text: str, at: int) -> bool:
    """Whether the `sudo` at `at` reads its password from its input: `-S` (`--stdin`) among
    its options, in any order and grouped with others (`sudo -u postgres -S`, `sudo -p ''
    -S`, `sudo -nS`), before its command (12 words at most)."""
    if at and (text[at - 1].isalnum() or text[at - 1] in "_.-"):
        return False
    pos = at + len("sudo")
    for _ in range(_SUDO_WORDS):
        m = _SUDO_WORD.match(text, pos)
        if m is None:
            return False
        pos = m.end()
        word = m.group("word")
        if word == "--" or not word.startswith("-") or len(word) < 2:
            return False  # the command
        if word.startswith("--"):
            name, eq, _ = word.partition("=")
            if name == "--stdin":
                return True
            value = name in _SUDO_VALUE_NAMES and not eq
        else:
            value = False
            for i, letter in enumerate(word[1:], 2):
                if letter == "S":
                    return True
                if letter in _SUDO_VALUE_LETTERS:
                    value = i == len(word)  # (`-uS`: the user is `S`)
                    break
                if not letter.isalpha():
                    return False
        if value:
            m = _SUDO_WORD.match(text, pos)
            if m is None:
                return False
            pos = m.end()
    return False


def _fed_value(m: re.Match[str]) -> tuple[int, int] | None:
    """The span of what _FED, _HERE_STRING or _HEREDOC took for a password, if it may be
    one: not a variable, a placeholder or a marker."""
    group = "quoted" if "quoted" in m.re.groupindex and m.group("quoted") is not None else "bare"
    value = m.group(group)
    if value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return None
    return m.span(group)


def _fed_passwords(
    text: str, reads: tuple[str, ...] = _READS_PASSWORD
) -> Iterator[tuple[int, int]]:
    """The password fed to each command that reads it from its input (_READS_PASSWORD):
    the `echo` or `printf` of the last pipe before it, on its line and in its command
    (`echo PW | sudo -S apt-get ...`, `printf '%s\\n' PW | docker login ... --password-stdin`),
    or a here-string after it in its command (`sudo -S <<< 'PW' ...`), or for `sudo -S` the
    first line of a heredoc after it (`sudo -S cmd <<EOF`, a line of letters and digits);
    for `chpasswd`, what follows the user's colon (`echo 'bob:PW' | chpasswd`)."""
    spans: list[tuple[int, int]] = []
    done = 0
    for at in _anchor_starts(text, reads):
        sudo = text.startswith("sudo", at)
        if sudo and not _sudo_reads(text, at):
            continue
        lines = text.startswith("chpasswd", at)
        lo = max(0, at - _ECHO_MAX)
        pipe = text.rfind("|", lo, at)
        found = None
        if pipe >= 0 and not any(c in text[pipe + 1 : at] for c in "\n;&"):
            feeder = max(text.rfind("echo", lo, pipe), text.rfind("printf", lo, pipe))
            m = _FED.match(text, feeder) if feeder >= done else None
            if m is not None and m.end() == pipe + 1:
                found = m
        if found is None:
            stop = _COMMAND_END.search(text, at + 1, min(len(text), at + _HERE_MAX))
            hi = stop.start() if stop else min(len(text), at + _HERE_MAX)
            here = text.find("<<<", at, hi)
            if here >= 0:
                found = _HERE_STRING.match(text, here)
            elif sudo and (here := text.find("<<", at, hi)) >= 0:
                found = _HEREDOC.match(text, here)
                if found is not None and not (
                    found.group("bare") != found.group("tag")
                    and _mixed(found.group("bare"))
                    and _assigned_secret("password", found.group("bare"), True)
                ):
                    found = None
        span = _fed_value(found) if found is not None else None
        if found is None or span is None:
            continue
        start, end = span
        if lines:
            colon = text.find(":", start, end)
            if colon < 0 or colon + 1 == end:
                continue
            start = colon + 1
            if text.startswith(_MARKED, start) or _PLACEHOLDER.match(text[start:end]):
                continue
        done = max(done, found.end())
        spans.append((start, end))
    yield from sorted(spans)


# A program whose option takes a password as its argument, or as what follows a user in it:
# the program's names (each followed by a space where it is run) and what stands before the
# password among its arguments. `mysql -p`, `sshpass -p`, `docker login -p`, `redis-cli -a`
# and `--password PW` have rules of their own (see RULES).
_ARG = r"(?:\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|[^\s\"'`\\;|&<>()]{1,100})"
_PASSWORD_OPTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("mongosh", "mongo", "mongodump", "mongorestore", "mongoexport", "mongoimport"),
        r"-p[^\S\n]{1,10}",
    ),
    (("sqlcmd", "bcp"), r"-P[^\S\n]{0,10}"),
    (("az login",), r"-p[^\S\n]{1,10}"),
    (("keytool", "jarsigner"), r"-(?:src|dest|new)?(?:storepass|keypass)[^\S\n]{1,10}"),
    (
        ("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"),
        r"-w[^\S\n]{0,10}",
    ),
    (("gpg", "gpg2"), r"--passphrase(?:[^\S\n]{1,10}|=)"),
    (("ssh-keygen",), r"-[NP][^\S\n]{1,10}"),
    (("x11vnc",), r"-(?:passwd|viewpasswd|storepasswd)[^\S\n]{1,10}"),
    (
        ("smbclient", "rpcclient", "smbcacls", "smbget"),
        # (a Windows domain before the user, `CORP\bob%PW`, its backslash JSON's `\\` too)
        r"(?:-U[^\S\n]{0,10}|--user(?:name)?=)(?P<opened>\\{0,7}[\"'])?"
        r"(?:[^\s%\"'`\\]{1,100}\\{1,7})?[^\s%\"'`\\]{1,100}%",
    ),
    (
        ("net use", "NET USE", "Net use"),
        # (`/user:bob PW`, or the password after the share, before `/user:`)
        r"(?:/(?i:user|u):[^\s\"']{1,100}|\\\\[^\s\"']{1,200})[^\S\n]{1,10}",
    ),
    (("mysqladmin",), r"password[^\S\n]{1,10}"),
    (
        ("rabbitmqctl",),
        r"(?:add_user|change_password|authenticate_user)[^\S\n]{1,10}" + _ARG + r"[^\S\n]{1,10}",
    ),
    (("zip",), r"-P[^\S\n]{1,10}"),
    (("7z", "7za", "7zz"), r"-p"),
    # (REDACTION_VERSION 34: and the password OpenSSL hashes for /etc/shadow or htpasswd,
    # `openssl passwd -6 PW`)
    (
        ("openssl",),
        # (REDACTION_VERSION 35: a salt given before it, `openssl passwd -1 -salt S PW`)
        r"(?:-k|passwd(?:[^\S\n]{1,10}(?:-(?:1|5|6|apr1|aixmd5|crypt)"
        r"|-salt[^\S\n]{1,10}[^\s\"'`\\;|&<>()]{1,100})){0,3})[^\S\n]{1,10}",
    ),
    # REDACTION_VERSION 24: docker login's kin, and NuGet's feeds and keys
    (
        (
            "podman login",
            "buildah login",
            "skopeo login",
            "nerdctl login",
            "oras login",
            "helm registry login",
            "crane auth login",
        ),
        r"-p[^\S\n]{1,10}",
    ),
    (("dotnet nuget add source", "dotnet nuget update source"), r"-p[^\S\n]{1,10}"),
    (("dotnet nuget push", "nuget push"), r"-k[^\S\n]{1,10}"),
    # REDACTION_VERSION 25: PyPI's upload (`-u __token__ -p pypi-...`, or a password)
    (("twine upload", "twine register"), r"-p[^\S\n]{1,10}"),
    # REDACTION_VERSION 34: a Windows account's password (`net user bob PW /add`)
    (("net user", "NET USER", "Net user"), r"[^\s/\"']{1,100}[^\S\n]{1,10}"),
    # REDACTION_VERSION 35: Oracle's logon, `sqlplus USER/PW@DB` (or without `@DB`), and
    # the same at its prompt, `SQL> conn USER/PW@TNS`: the first argument, or the first after
    # `-S`/`-L` (not a path or `and/or` in a sentence that names sqlplus); the password ends
    # at the `@`, a connect identifier's (its own value group: see _PROGRAM_OPTION)
    (
        ("sqlplus", "SQL> conn", "SQL> connect", "SQL> CONN", "SQL> CONNECT"),
        r"(?:(?<=sqlplus )|(?<=conn )|(?<=connect )|(?<=CONN )|(?<=CONNECT )|(?<=-[SLsl] )"
        r"|(?<=-silent ))[A-Za-z_][\w$#]{0,127}/"
        r"(?P<bare>[^\s\"'`\\;|&<>()@/-][^\s\"'`\\;|&<>()@]{2,199})(?=@|\s|\Z)",
    ),
)
# A password after what stands before it (a group of _PASSWORD_OPTIONS), quoted or not; not
# an option (`-`, `/`).
_OPTION_VALUE = (
    r"(?:\\{0,7}[\"'](?P<quoted>[^\"'\\\n]{1,200})(?=\\{0,7}[\"'])"
    r"|(?P<bare>[^\s\"'`\\;|&<>()/-][^\s\"'`\\;|&<>()]{3,199}))"
)
# A password in quotes a lead opened (smbclient's `-U 'CORP\bob%PW'`): what they hold.
_OPENED_VALUE = r"(?(opened)(?P<inside>[^\"'\\\n]{4,200})(?=\\{0,7}[\"'])|" + _OPTION_VALUE + ")"
_VALUE_GROUPS = ("inside", "quoted", "bare")
# (compiled where a text first holds the program's name: 35 patterns were ~20M instructions
# of every build's start)
_PROGRAM_OPTION = {
    program: rf"(?<=\s)(?:{lead})"
    + ("" if "(?P<bare>" in lead else _OPENED_VALUE if "(?P<opened>" in lead else _OPTION_VALUE)
    for programs, lead in _PASSWORD_OPTIONS
    for program in programs
}
# How far after a program's name its options are read (its command: to a pipe, `;`, `&` or
# an unescaped line break, not in quotes).
_OPTIONS_MAX = 400
# What ends a command, or opens quotes; and quotes closed on their line.
_COMMAND_END_OR_QUOTE = lazy(r"[|;&\"']|(?<!\\)\n")
_IN_QUOTES = lazy(r"'[^'\n]*'|\"[^\"\n]*\"")


def _command_end(text: str, at: int, hi: int) -> int:
    """Where the command at `at` ends (`hi` at most): the first pipe, `;`, `&` or unescaped
    line break outside quotes (`gpg --passphrase 'a&b;c' ...`: REDACTION_VERSION 17; a quote
    not closed on its line is read as a character). Each character read once."""
    pos = at
    while (m := _COMMAND_END_OR_QUOTE.search(text, pos, hi)) is not None:
        if m.group() not in "\"'":
            return m.start()
        quoted = _IN_QUOTES.match(text, m.start(), hi)
        pos = quoted.end() if quoted else m.end()
    return hi


def _program_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password each program of _PASSWORD_OPTIONS is given on its command line
    (`keytool ... -storepass PW -keypass PW`, `smbclient //nas/s -U bob%PW`): its options
    read from its name to the end of its command (400 characters at most), once for each
    stretch of text a program's name starts (linear)."""
    spans: list[tuple[int, int]] = []
    done: dict[str, int] = {}
    for program, pattern in _PROGRAM_OPTION.items():
        for at in _anchor_starts(text, (program + " ",)):
            if at < done.get(program, 0) or (
                at and (text[at - 1].isalnum() or text[at - 1] in "_.-")
            ):
                continue
            stop = _command_end(text, at, min(len(text), at + _OPTIONS_MAX))
            done[program] = stop
            for m in _compiled(pattern).finditer(text, at + len(program), stop):
                group = next(g for g in _VALUE_GROUPS if m.re.groupindex.get(g) and m.group(g))
                value = m.group(group)
                if value.startswith(_MARKED) or _stands_in(value, text, m.start(group)):
                    continue
                spans.append(m.span(group))
    yield from sorted(spans)


# A password typed into a prompt: a Codex `write_stdin` whose `chars` are one word on a
# line (`{"session_id": 77, "chars": "PW\n"}`, a code-mode cell's `tools.write_stdin({...,
# chars: "PW\n"})`), which agents send to answer `[sudo] password for x:`, `Enter
# password:`, a passphrase.
# (REDACTION_VERSION 17: a quote or a backslash in it, escaped, `"Qm7\"x9\n"`, or a
# quote other than the one around it; each escape one backslash and what it escapes, so a
# run of backslashes is read one way only.)
_TYPED = lazy(
    r"chars(?:\\{0,7}[\"'])?[^\S\n]{0,3}:[^\S\n]{0,3}(?P<bs>\\{0,7})(?P<q>[\"'`])"
    r"(?P<password>(?:[^\s\"'`\\]|(?!(?P=q))[\"'`]|\\[\"'`\\]){1,200}?)"
    r"(?:\\{1,7}[rn]){0,2}(?P=bs)(?P=q)"
)
_ESCAPED = lazy(r"\\(.)")


def _typed_password(m: re.Match[str]) -> bool:
    """`chars` that look like a password, judged as a quoted value given to `password` (no
    placeholder, variable, word of a name, version), and no lowercase word (`exit`, `yes`,
    `quit`: what a shell or a prompt is also sent) nor a number (a menu's choice)."""
    value = _ESCAPED.sub(r"\1", m.group("password"))
    if value.isdigit() or (value.isalpha() and value.islower()):
        return False
    return _assigned_secret("password", value, True)


# REDACTION_VERSION 23 (session 35, later): a secret store's value, whatever its name (a
# hunt planted secrets in transcripts and found these kept): what its CLI prints, what it
# is given on a command line or through a pipe, and a Kubernetes Secret's values.

# AWS Secrets Manager's value as `get-secret-value` prints it: `"SecretString": "..."`
# (JSON, YAML, a table's cell `| SecretString | ... |`), or the fourth field of `--output
# text`'s line (ARN, date, name, the secret, version: the keys sorted). When it holds a JSON
# object, each string in it (`{"username": "app", "dbpass": "..."}`, a flat object as the
# console writes one), each judged as a stored value (see _stored).
_SECRET_STRING = lazy(
    r"(?<![A-Za-z0-9_])SecretString(?:" + _QUOTE + r")?(?:[^\S\n]{0,3}[:=]|[^\S\n]{0,40}[|│])"
    r"[^\S\n]{0,40}(?P<open>" + _QUOTE + r")?(?:(?P<object>\{)"
    r"|(?(open)(?P<quoted>[^\"'\\\n]{1,1000})(?=\\{0,7}[\"'])"
    # (a bare value ends its word: not code's `SecretString=json.dumps(x)`)
    r"|(?P<bare>[^\s\"'`\\|│,{}()\[\]]{1,1000})(?=[\s,}|│]|\Z)))"
)
_SECRET_TEXT = lazy(
    r"arn:aws:secretsmanager:[^\s\"'`\\]{1,300}\t(?:\d{4}-[^\t\n]{1,40}|\d{9,11}(?:\.\d{1,9})?)"
    r"\t[^\t\n]{1,600}\t(?:(?P<object>\{)|(?P<bare>[^\t\n\"'`\\]{1,1000})\t)"
)
_STORED_PAIR = lazy(
    _QUOTE
    + r"[^\"'\\\n]{1,100}"
    + _QUOTE
    + r"\s{0,3}:\s{0,3}"
    + _QUOTE
    + r"(?P<value>[^\"'\\\n]{1,1000})(?="
    + _QUOTE
    + r")"
)
_BRACE = lazy(r"[{}]")
# How far a stored JSON object's closing brace is looked for.
_STORED_OBJECT_MAX = 4000


def _stored_object(text: str, at: int) -> tuple[list[tuple[int, int]], int]:
    """The spans of the string values of the JSON object that opens at `at`, those that
    look like stored secrets (see _stored), and where the object (or what is read of it)
    ends: its own closing brace, the objects it holds read too (REDACTION_VERSION 25:
    `{"db": {"host": "h"}, "dbpw": "V"}`, whose value after the first `}` was kept)."""
    hi = min(len(text), at + _STORED_OBJECT_MAX)
    end, depth = hi, 0
    for brace in _BRACE.finditer(text, at, hi):
        depth += 1 if brace[0] == "{" else -1
        if depth == 0:
            end = brace.start()
            break
    pairs = _STORED_PAIR.finditer(text, at, end)
    return [m.span("value") for m in pairs if _stored(m["value"])], end


def _secret_strings(text: str) -> Iterator[tuple[int, int]]:
    """Each Secrets Manager value the text holds (see _SECRET_STRING), in order."""
    spans: list[tuple[int, int]] = []
    for anchor, pattern in (
        ("SecretString", _SECRET_STRING),
        ("arn:aws:secretsmanager:", _SECRET_TEXT),
    ):
        done = 0  # (where the last object read ends: each read once)
        for at in _anchor_starts(text, (anchor,)):
            m = pattern.match(text, at) if at >= done else None
            if m is None:
                continue
            if m["object"]:
                object_spans, done = _stored_object(text, m.start("object"))
                spans += object_spans
                continue
            group = "quoted" if m.groupdict().get("quoted") else "bare"
            if _stored(m[group]):
                spans.append(m.span(group))
    yield from sorted(spans)


# REDACTION_VERSION 30 (session 38): a third hunt's shapes.
# Vault's KV version 2 secret as its HTTP API returns it (an MCP server's or a client's
# result, `curl $VAULT_ADDR/v1/secret/data/app`): `"data": {"data": {...}, "metadata":
# {...}}`, the inner object the secret's names and values whatever they are, each judged as
# a stored value (see _stored). The `metadata` beside it says it is Vault's.
# (the pattern starts with the word, which the regex engine finds as a literal; the name's
# quote before it is looked at apart)
_KV2_DATA = lazy(
    r"data"
    + _QUOTE
    + r"\s{0,40}:\s{0,40}\{\s{0,40}"
    + _QUOTE
    + r"data"
    + _QUOTE
    + r"\s{0,40}:\s{0,40}(?P<object>\{)"
)
_KV2_METADATA = lazy(r"\}\s{0,40},\s{0,40}" + _QUOTE + r"metadata" + _QUOTE + r"\s{0,40}:")


def _kv2_values(text: str) -> Iterator[tuple[int, int]]:
    """The values of each Vault KV v2 secret the text holds (see _KV2_DATA), each object
    read once."""
    done = 0
    for m in _KV2_DATA.finditer(text):
        if m.start() < done or text[m.start() - 1 : m.start()] not in ('"', "'"):
            continue
        spans, done = _stored_object(text, m.start("object"))
        if _KV2_METADATA.match(text, done):
            yield from spans


# Terraform's state and `terraform output -json`: an output declared sensitive holds its
# value beside `"sensitive": true` in one object (`{"value": "...", "type": "string",
# "sensitive": true}`), and a `random_password` resource its password as its instance's
# `"result"`, whatever either is named.
_TF_SENSITIVE = lazy(r"sensitive" + _QUOTE + r"\s{0,3}:\s{0,3}true\b")
_TF_STRING = (
    _QUOTE + r"\s{0,3}:\s{0,3}" + _QUOTE + r"(?P<value>[^\"'\\\n]{1,1000})(?=" + _QUOTE + r")"
)
_TF_VALUE = lazy(_QUOTE + r"value" + _TF_STRING)
_TF_RESULT = lazy(_QUOTE + r"result" + _TF_STRING)
# How far around `sensitive` its object's value, and after `random_password` its result, are
# looked for.
_TF_MAX = 2000


def _terraform_values(text: str) -> Iterator[tuple[int, int]]:
    """A sensitive output's value and a random password's result (see _TF_SENSITIVE), each
    looked for in a bounded window of its anchor; the text around the anchors is read once
    (the braces before an anchor where the last one's reading stopped, an object once)."""
    spans: set[tuple[int, int]] = set()
    opened = closed = close = -1  # the last `{` and `}` before an anchor, the first `}` after
    back = ahead = done = 0  # where those were looked for up to; where the last object ends
    sensitive = False
    for at in _anchor_starts(text, ("sensitive",)):
        if _TF_SENSITIVE.match(text, at) is None:
            continue
        sensitive = True
        start = max(back, at - _TF_MAX)
        opened = max(opened, text.rfind("{", start, at))
        closed = max(closed, text.rfind("}", start, at))
        back = at
        if close < at:
            close = text.find("}", max(at, ahead), at + _TF_MAX)
            ahead = at + _TF_MAX
        # (the object that holds it: from its `{` before to its `}` after, no other between)
        if opened < at - _TF_MAX or close < 0 or close <= done:
            continue
        done = close
        lo = max(opened, closed + 1)
        spans.update(v.span("value") for v in _TF_VALUE.finditer(text, lo, close))
    if sensitive and "value" in text:
        spans.update(_sensitive_objects(text))
    done = 0
    for at in _anchor_starts(text, ("random_password",)):
        if at < done:
            continue
        done = min(len(text), at + _TF_MAX)
        v = _TF_RESULT.search(text, at, done)
        if v is not None:
            spans.add(v.span("value"))
    yield from sorted(s for s in spans if _stored(text[s[0] : s[1]]))


# REDACTION_VERSION 32: a sensitive output whose value is an object (`terraform output
# -json`'s `{"sensitive": true, "type": ["object", {...}], "value": {"host": "db", "signing":
# "..."}}`, a state's `{"value": {...}, "type": [...], "sensitive": true}`), whose braces the
# window of _terraform_values does not see past: the strings of the `"value"` object that is
# a member of the same object as `"sensitive": true`, at any depth, whatever their names.
# The text's braces are read once, with a stack of the objects open (linear).
_TF_OBJECT_TOKEN = lazy(
    r"[{}]|(?<=[\"'])(?:(?P<sensitive>sensitive)"
    + _QUOTE
    + r"\s{0,3}:\s{0,3}true\b|value"
    + _QUOTE
    + r"\s{0,3}:\s{0,3}(?=\{))"
)


def _sensitive_objects(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the string values of each sensitive output's object value (see
    _TF_OBJECT_TOKEN), to be judged as stored secrets."""
    stack: list[int] = []  # where each object open starts
    sensitive: set[int] = set()  # the objects that hold `"sensitive": true`
    values: list[tuple[int, int]] = []  # each `"value": {`: the object it is in, its own
    closes: dict[int, int] = {}
    value = False
    for m in _TF_OBJECT_TOKEN.finditer(text):
        brace = m[0]
        if brace == "{":
            if value:
                values.append((stack[-1] if stack else -1, m.start()))
                value = False
            stack.append(m.start())
        elif brace == "}":
            if stack:
                closes[stack.pop()] = m.start()
        elif m["sensitive"]:
            if stack:
                sensitive.add(stack[-1])
        else:
            value = True
    for parent, opened in values:
        if parent in sensitive and opened in closes:
            for pair in _STORED_PAIR.finditer(text, opened, closes[opened]):
                yield pair.span("value")


# AWS Systems Manager's parameter of type `SecureString` as `get-parameter(s)
# --with-decryption` prints it: the `Value` of the object whose `Type` it is, after it or
# before it (as a Key Vault id's, see _vault_secret_values), whatever the parameter's name;
# or the field after it on `--output text`'s line (its keys sorted: `Type`, `Value`).
_SECURE_TYPE = lazy(r"(?<![\w-])Type(?:" + _QUOTE + r")?[^\S\n]{0,3}:\s{0,3}(?:" + _QUOTE + r")?\Z")
_SECURE_TEXT = lazy(r"\tSecureString\t(?P<value>[^\t\n\"'`\\]{1,1000})(?=[\t\r\n]|\Z)")


def _secure_strings(text: str) -> Iterator[tuple[int, int]]:
    """The value of each SSM SecureString parameter the text holds, in order (linear: each
    looked for between the one before and the one after, 2000 characters at most)."""
    ids = _anchor_starts(text, ("SecureString",))
    done = 0
    for k, at in enumerate(ids):
        span = None
        m = _SECURE_TEXT.match(text, at - 1) if at else None
        if m is not None:
            value = m["value"]
            if not (value.startswith(_MARKED) or _PLACEHOLDER.match(value)):
                span = m.span("value")
        elif _SECURE_TYPE.search(text, max(0, at - 40), at):
            hi = min(len(text), at + _VAULT_MAX, ids[k + 1] if k + 1 < len(ids) else len(text))
            lo = max(done, at - _VAULT_MAX, ids[k - 1] if k else 0)
            span = _value_before(text, lo, at) or _value_after(text, at, hi)
        if span is not None:
            done = span[1]
            yield span


# A secret store's command given the value on its command line, whatever its name: the
# command's words (what each anchor starts), the patterns of its options, a word its
# command must hold (AWS's `--type SecureString`: a `String` parameter is a setting), and
# whether its value is judged as a stored secret's (see _stored) or must look generated (a
# store of settings, Heroku's config: `WEB_CONCURRENCY=2`, `BUILDPACK_URL=https://...`).
_STORE_VALUE = (
    r"(?:\\{0,7}[\"'](?P<quoted>[^\"'\\\n]{1,500})(?=\\{0,7}[\"'])"
    r"|(?P<bare>[^\s\"'`\\;|&<>()]{1,500}))"
)
# `NAME=VALUE`, or all of it in quotes (`'NAME=a b'`).
_STORE_PAIR = (
    r"(?:(?P<opened>" + _QUOTE + r")[A-Za-z_][A-Za-z0-9_.-]{0,100}="
    r"(?P<inside>[^\"'\\\n]{1,500})(?=\\{0,7}[\"'])"
    r"|[A-Za-z_][A-Za-z0-9_.-]{0,100}=" + _STORE_VALUE + ")"
)


def _store_option(option: str) -> str:
    return r"(?<=\s)" + option + r"(?:[^\S\n]{1,10}|=)" + _STORE_VALUE


# `put`, its options (`-flags=42`, `--lease=1234abcd`), then a key (a name or a path) and
# its value.
_KV_PUT = (
    r"(?<=\s)put(?:[^\S\n]{1,10}-{1,2}[\w-]{1,40}(?:=[^\s\"'`\\;|&<>()]{0,100})?){0,8}"
    r"[^\S\n]{1,10}\\{0,7}[\"']?"
)
_KV_KEY = r"[^\s\"'`\\;|&<>()-][^\s\"'`\\;|&<>()]{0,300}"
_KV_SECRET_KEY = r"(?:[^\s\"'`\\;|&<>()]{0,300}[/._-])?(?i:" + _NAME_KEYWORD + r")"
_KV_VALUE = r"\\{0,7}[\"']?[^\S\n]{1,10}" + _STORE_VALUE
# (each store's anchors, its options' patterns, the word its command needs, whether its
# value is judged as a stored secret's)
_Stores = tuple[tuple[tuple[str, ...], tuple[str, ...], str, bool], ...]
_SECRET_STORES: _Stores = (
    (("ssm put-parameter",), (_store_option("--value"),), "SecureString", True),
    (
        (
            "secretsmanager create-secret",
            "secretsmanager put-secret-value",
            "secretsmanager update-secret",
        ),
        (_store_option("--secret-string"),),
        "",
        True,
    ),
    (("keyvault secret set",), (_store_option("--value"),), "", True),
    (
        ("create secret ",),
        (
            r"(?<=\s)--from-literal(?:=|[^\S\n]{1,10})" + _STORE_PAIR,
            _store_option("--docker-password"),
        ),
        "",
        True,
    ),
    (
        (
            "vault kv put",
            "vault kv patch",
            "fly secrets set",
            "flyctl secrets set",
            "supabase secrets set",
            "doppler secrets set",
        ),
        (r"(?<=\s)" + _STORE_PAIR,),
        "",
        True,
    ),
    (("heroku config:set", "dokku config:set"), (r"(?<=\s)" + _STORE_PAIR,), "", False),
    # REDACTION_VERSION 25: `vault write`'s `NAME=V`, judged as a stored secret's under
    # `secret/` (the KV engine's mount, a secret whatever its name), else as a setting's
    # (`vault write pki/roles/x ttl=72h`, `auth/jwt/config oidc_discovery_url=...`: a name
    # that is a keyword, `password=`, is the assignment rules'); and the value of a key
    # given to Consul's and etcd's stores of settings (`consul kv put app/db/password V`,
    # `etcdctl put /app/api_token V`), judged as a stored secret's when the key's last
    # part is a keyword, else as a setting's (`consul kv put app/max_conns 100`).
    (("vault write",), (r"(?<=\s)" + _STORE_PAIR,), " secret/", True),
    (("vault write",), (r"(?<=\s)" + _STORE_PAIR,), "", False),
    (("consul kv put", "etcdctl put"), (_KV_PUT + _KV_SECRET_KEY + _KV_VALUE,), "", True),
    (("consul kv put", "etcdctl put"), (_KV_PUT + _KV_KEY + _KV_VALUE,), "", False),
)
_STORE_GROUPS = ("inside", "quoted", "bare")

# REDACTION_VERSION 24 (session 35, third round): a credential a tool is told to keep, given
# on its command line, whatever its value looks like: a package manager's setting that names
# a registry's credential (npm's `.npmrc` keys, `npm config set //npm.corp/:_authToken V`,
# which the `.npmrc` rule reads only as `KEY=V`; yarn 2's `npmAuthToken`; poetry's and
# composer's `http-basic.<repo> USER PW`; bundler's `<host> USER:PW`), a login given its
# token as its argument (`cargo login T`, `wandb login T`), a registry's `--creds USER:PW`
# (skopeo, podman, buildah). Laid out as _SECRET_STORES: the setting's name says what the
# value is, so it is judged as a stored secret's (see _stored); a login's bare argument must
# look generated (`vault login -method=github`, `cargo login --registry corp` stay).
_SETTING_END = r"\\{0,7}[\"']?(?:[^\S\n]{1,10}|=)"
_LOGIN_VALUE = (
    r"(?<=\s)(?:\\{0,7}[\"'](?P<quoted>[^\"'\\\n]{16,500})(?=\\{0,7}[\"'])"
    r"|(?P<bare>[^\s\"'`\\;|&<>()=-][^\s\"'`\\;|&<>()=]{15,499})(?=[\s;|&)]|\Z))"
)
_CREDENTIAL_SETTINGS: _Stores = (
    (
        ("npm config set", "npm set ", "pnpm config set", "pnpm set ", "yarn config set"),
        (
            r"(?<=[\s\"'/:.])(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)"
            + _SETTING_END
            + _STORE_VALUE,
        ),
        "",
        True,
    ),
    (
        ("poetry config",),
        (
            r"(?<=\s)pypi-token\.[\w.-]{1,100}[^\S\n]{1,10}" + _STORE_VALUE,
            r"(?<=\s)http-basic\.[\w.-]{1,100}[^\S\n]{1,10}"
            + _ARG
            + r"[^\S\n]{1,10}"
            + _STORE_VALUE,
        ),
        "",
        True,
    ),
    (
        ("composer config",),
        (
            r"(?<=\s)(?:github-oauth|gitlab-token|gitlab-oauth|bearer)\.[\w.-]{1,200}[^\S\n]{1,10}"
            + _STORE_VALUE,
            r"(?<=\s)(?:http-basic|bitbucket-oauth)\.[\w.-]{1,200}[^\S\n]{1,10}"
            + _ARG
            + r"[^\S\n]{1,10}"
            + _STORE_VALUE,
        ),
        "",
        True,
    ),
    (
        ("bundle config",),
        (
            r"(?<=\s)(?:https?://)?[\w-]{1,63}(?:\.[\w-]{1,63})+/?[^\S\n]{1,10}\\{0,7}[\"']?"
            r"[^\s:\"'`\\]{1,100}:" + _STORE_VALUE,
        ),
        "",
        True,
    ),
    (
        ("--creds", "--src-creds", "--dest-creds"),
        (
            r"(?<=\s)--(?:src-|dest-)?creds(?:[^\S\n]{1,10}|=)\\{0,7}[\"']?[^\s:\"'`\\]{1,100}:"
            + _STORE_VALUE,
        ),
        "",
        True,
    ),
    (
        (
            "cargo login",
            "wandb login",
            "vault login",
            "ngrok authtoken",
            "add-authtoken",
            "mc alias set",
            "mc config host add",
        ),
        (_LOGIN_VALUE,),
        "",
        False,
    ),
)


def _store_values(text: str, stores: _Stores) -> Iterator[tuple[int, int]]:
    """The value each secret store's command of `stores` (_SECRET_STORES,
    _CREDENTIAL_SETTINGS) is given (`aws ssm put-parameter ... --value V --type
    SecureString`, `vault kv put secret/app conn=V`): its options read from its words to the
    end of its command (400 characters at most), once for each stretch of text (linear)."""
    spans: list[tuple[int, int]] = []
    for anchors, patterns, needs, stored in stores:
        done = 0
        for at in _anchor_starts(text, anchors):
            if at < done:
                continue
            stop = done = _command_end(text, at, min(len(text), at + _OPTIONS_MAX))
            if needs and text.find(needs, at, stop) < 0:
                continue
            for pattern in patterns:
                for m in _compiled(pattern).finditer(text, at, stop):
                    group = next(g for g in _STORE_GROUPS if m.re.groupindex.get(g) and m[g])
                    value = m[group]
                    if stored and _stored(value) or not stored and _generated(value):
                        spans.append(m.span(group))
    yield from sorted(spans)


# The commands that read a secret to store from their input, whatever its name (`echo V |
# gh secret set NAME`, `printf V | wrangler secret put NAME`, `echo -n V | gcloud secrets
# versions add NAME --data-file=-`): the `echo` or `printf` fed to them, as to a command that
# reads a password (see _fed_passwords).
_READS_SECRET = (
    "gh secret set",
    "secret put",
    "gcloud secrets create",
    "gcloud secrets versions add",
    "docker secret create",
    "vercel env add",
    "functions:secrets:set",
)


# REDACTION_VERSION 29: a store's command that reads its value from its input, given it in a
# heredoc (`vault write secret/app - <<EOF`, `consul kv put app/db/password - <<EOF`, `vault
# write secret/x value=- <<EOF`, `cat <<EOF | kubectl create secret generic db
# --from-file=creds=/dev/stdin`, `gh secret set NAME <<EOF`): the store's line holds a
# heredoc's `<<TAG` and, but for the stores that read their input unasked (_READS_SECRET), a
# word that names its input (`-`, `=-`, `/dev/stdin`, `file:///dev/stdin`). The body, to its
# TAG line (at most _HEREDOC_MAX characters), is what is stored: each value of a JSON object,
# each `NAME=V` or `NAME: V` line's value, each line that is one word, judged as a stored
# secret's (see _stored); a store of settings' (Consul's, etcd's, `vault write` outside
# `secret/`) must look generated unless the key it is stored under or its own name names a
# secret (`consul kv put app/max_conns - <<EOF` of `100` stays).
_HEREDOC_STORES = (
    "vault kv put",
    "vault kv patch",
    "vault write",
    "consul kv put",
    "etcdctl put",
    "create secret ",
    "secretsmanager ",
    "ssm put-parameter",
    *_READS_SECRET,
)
# (the stores whose every value is a secret's; `vault write` only under `secret/`)
_SECRET_HEREDOC = (
    "vault kv",
    "create secret ",
    "secretsmanager ",
    "ssm put-parameter",
    *_READS_SECRET,
)
_HEREDOC_TAG = lazy(
    r"(?<!<)<<(?!<)-?[^\S\n]{0,3}(?P<q>\\{0,7}[\"'])?(?P<tag>[A-Za-z_][A-Za-z0-9_]{0,30})"
)
_READS_INPUT = lazy(r"(?<=[\s=])(?:-|/dev/stdin|file:///dev/stdin)(?=[\s;|&)]|\Z)")
_HEREDOC_LINE = 600
_HEREDOC_MAX = 4000
# A JSON object's string value; a `NAME=V` (`export NAME=V`) or YAML's `NAME: V` line.
_JSON_PAIR = lazy(r"\"(?P<name>[^\"\\\n]{1,100})\"[^\S\n]*:[^\S\n]*\"(?P<value>[^\"\\\n]{1,500})\"")
_BODY_PAIR = lazy(
    r"[^\S\n]*(?:-[^\S\n]+)?(?:export[^\S\n]+)?(?P<q>[\"']?)(?P<name>[\w.-]{1,100})(?P=q)"
    r"[^\S\n]*[=:][^\S\n]*(?P<o>[\"']?)(?P<value>[^\s\"'`\\]{1,500})(?P=o)[^\S\n]*\r?"
)
_BODY_WORD = lazy(r"[^\S\n]*(?P<value>[^\s\"'`\\]{4,500})[^\S\n]*\r?")


def _heredoc_body(text: str, line_end: int, tag: str) -> tuple[int, int]:
    """The span of the heredoc body whose `<<TAG` line ends at `line_end`: the lines after it
    up to the line that is TAG (its leading tabs allowed), at most _HEREDOC_MAX characters."""
    start = line_end + 1
    hi = min(len(text), start + _HEREDOC_MAX)
    at = start
    while at < hi:
        end = text.find("\n", at, hi)
        end = hi if end < 0 else end
        if text[at:end].strip("\t\r") == tag:
            return start, at
        at = end + 1
    return start, hi


def _body_values(text: str, start: int, end: int) -> Iterator[tuple[str | None, int, int]]:
    """Each value a heredoc's body (`text[start:end]`) gives to store, with its name if it
    has one: a JSON object's strings, `NAME=V` and `NAME: V` lines, lines that are a word."""
    if text[start:end].lstrip().startswith("{"):
        for m in _JSON_PAIR.finditer(text, start, end):
            yield m["name"], *m.span("value")
        return
    for line in _LINE.finditer(text, start, end):
        pair = _BODY_PAIR.fullmatch(text, line.start(), line.end())
        if pair is not None and not pair["value"].startswith(("|", ">")):
            yield pair["name"], *pair.span("value")
        elif (word := _BODY_WORD.fullmatch(text, line.start(), line.end())) is not None:
            yield None, *word.span("value")


def _heredoc_store_values(text: str) -> Iterator[tuple[int, int]]:
    """The values a heredoc gives a store that reads them from its input (see
    _HEREDOC_STORES): each store's line read once, each body once (linear)."""
    spans: list[tuple[int, int]] = []
    done = 0
    for at in _anchor_starts(text, _HEREDOC_STORES):
        if at < done:
            continue
        lo = text.rfind("\n", max(0, at - _HEREDOC_LINE), at) + 1
        hi = text.find("\n", at, at + _HEREDOC_LINE)
        if hi < 0:
            continue
        done = hi
        line = text[lo:hi]
        heredoc = _HEREDOC_TAG.search(line)
        if heredoc is None:
            continue
        store = next(s for s in _HEREDOC_STORES if text.startswith(s, at))
        if store not in _READS_SECRET and _READS_INPUT.search(line) is None:
            continue
        secret = store.startswith(_SECRET_HEREDOC) or (
            store == "vault write" and " secret/" in line
        )
        if not secret and store in ("consul kv put", "etcdctl put"):
            secret = _compiled(_KV_PUT + _KV_SECRET_KEY + r"(?=[\s\"'])").search(line) is not None
        start, end = _heredoc_body(text, hi, heredoc["tag"])
        done = end
        for name, value_start, value_end in _body_values(text, start, end):
            value = text[value_start:value_end]
            named = name is not None and _name_of_kind(name) is not None
            if _stored(value) if secret or named else _generated(value):
                spans.append((value_start, value_end))
    yield from spans


# A Kubernetes Secret's values, whatever their names (`DATABASE_URL: cG9zdGdyZXM6Ly8...`,
# the base64 of a URL whose password no rule sees): the entries of its `data:` (base64,
# judged decoded) and `stringData:` (as written) in the YAML object whose `kind: Secret`
# the text holds (`kubectl get secret -o yaml`, a manifest written, edited or applied, a
# diff's added lines): its keys at the indent of `kind:`, above it and below it, to a line
# of a smaller indent or `---`.
_KUBE_KIND = lazy(r"kind:[^\S\n]{1,3}(?P<q>[\"']?)Secret(?P=q)[^\S\n]*(?=\r?\n|\Z)")
_KUBE_BLOCK = lazy(r"(?:data|stringData):[^\S\n]*\r?")
_KUBE_ENTRY = lazy(
    r"[A-Za-z0-9_.-]{1,253}:[^\S\n]{1,40}(?:(?P<q>[\"'])(?P<quoted>[^\"'\\\n]{1,4000})(?P=q)"
    r"|(?P<bare>[^\s\"'`\\|>#][^\s\"'`\\]{0,4000}))[^\S\n]*\r?\Z"
)
# How many characters of an object are read each way from its `kind: Secret`.
_KUBE_MAX = 50_000


def _kube_line(text: str, start: int, mark: str) -> tuple[int, str] | None:
    """The line at `start` (its end, its text without `mark`), None if it lacks the mark."""
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    line = text[start:end]
    if not line.startswith(mark):
        return None
    return end, line[len(mark) :]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _kube_data(value: str) -> bool:
    """A `data:` value that is a secret: base64 of a file (several lines, a JSON object, not
    text: a keystore) or of a stored value (see _stored)."""
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    try:
        decoded = raw.decode().strip()
    except UnicodeDecodeError:
        return len(raw) >= 8
    return "\n" in decoded or decoded.startswith(("{", "[")) or _stored(decoded)


# REDACTION_VERSION 25: a Secret as JSON (`kubectl get secret -o json`, a manifest written
# as JSON): the string values of its `"data"` (judged as YAML's, see _kube_data) and
# `"stringData"` objects, in the object whose `"kind"` is `"Secret"`: the `"kind"` right
# after the object (kubectl sorts its keys: `apiVersion`, `data`, `kind`), or else the last
# one before it (a List's items are each of their own kind: a ConfigMap's `data` stays).
_KUBE_JSON_KIND = lazy(
    _QUOTE + r"kind" + _QUOTE + r"\s{0,3}:\s{0,3}" + _QUOTE + r"(?P<kind>[A-Za-z]{1,60})"
)
_KUBE_JSON_DATA = lazy(_QUOTE + r"(?P<block>data|stringData)" + _QUOTE + r"\s{0,3}:\s{0,3}(?=\{)")
# How far after a data object's end its kind is looked for.
_KUBE_KIND_AFTER = 40


def _kube_json_secret_values(text: str) -> Iterator[tuple[int, int]]:
    """The values of each Secret's data the JSON text holds (see _KUBE_JSON_KIND), in order
    (linear: each object read once, its kind found by bisection)."""
    kinds = list(_KUBE_JSON_KIND.finditer(text))
    if not any(k["kind"] == "Secret" for k in kinds):
        return
    starts = [k.start() for k in kinds]
    done = 0
    for m in _KUBE_JSON_DATA.finditer(text):
        if m.start() < done:
            continue
        spans, end = _stored_object(text, m.end())
        done = end
        i = bisect_right(starts, end)
        if i < len(kinds) and starts[i] - end <= _KUBE_KIND_AFTER:
            kind = kinds[i]["kind"]
        else:
            j = bisect_right(starts, m.start()) - 1
            kind = kinds[j]["kind"] if j >= 0 else ""
        if kind != "Secret":
            continue
        for start, stop in spans:
            if m["block"] == "stringData" or _kube_data(text[start:stop]):
                yield start, stop


def _kube_secret_values(text: str) -> Iterator[tuple[int, int]]:
    """The values of each Kubernetes Secret's `data:` and `stringData:` in the text (see
    _KUBE_KIND), in order; each object read once (linear)."""
    done = 0
    for at in _anchor_starts(text, ("kind: Secret",)):
        if at < done or _KUBE_KIND.match(text, at) is None:
            continue
        line_start = text.rfind("\n", 0, at) + 1
        head = text[line_start:at]
        mark = "+" if head.startswith("+") else ""
        lead = head[len(mark) :]
        if lead.strip(" ") not in ("", "-"):
            continue
        indent = len(lead.replace("-", " "))
        # the object's first line: up to a line of a smaller indent (its list item's `- `,
        # the object's first key, is its first line)
        first = line_start
        while first > max(done, at - _KUBE_MAX):
            above = text.rfind("\n", 0, first - 1) + 1
            read = _kube_line(text, above, mark)
            if read is None or read[1].startswith("---"):
                break
            line = read[1]
            if line.strip() and _indent(line) < indent:
                if line.lstrip(" ").startswith("- ") and _indent(line) + 2 == indent:
                    first = above
                break
            first = above
        # its lines, each read once: a `data:` or `stringData:` key at its indent, then the
        # entries under it
        pos, block, child = first, "", -1
        while pos < min(len(text), at + _KUBE_MAX):
            read = _kube_line(text, pos, mark)
            if read is None:
                break
            end, line = read
            keys = line.replace("- ", "  ", 1) if pos == first else line
            depth = _indent(keys)
            if line.strip():
                if pos > line_start and (depth < indent or line.startswith("---")):
                    break
                if depth == indent:
                    block = keys.strip().rstrip(":") if _KUBE_BLOCK.fullmatch(keys, depth) else ""
                    child = -1
                elif block and (child < 0 or depth == child):
                    child = depth
                    m = _KUBE_ENTRY.match(line, depth)
                    if m is not None:
                        group = "quoted" if m["quoted"] else "bare"
                        value = m[group]
                        judged = _kube_data(value) if block == "data" else _stored(value)
                        if judged and not value.startswith(_MARKED):
                            offset = pos + len(mark)
                            yield offset + m.start(group), offset + m.end(group)
            pos = end + 1
        done = pos


# REDACTION_VERSION 28: a secret a CLI prints under a label of its own, which names no keyword
# the rules read, whatever it looks like (a UUID is an id elsewhere): Consul's and Nomad's ACL
# token (`consul acl token create`'s `SecretID:   <uuid>`, its JSON's `"SecretID": "<uuid>"`,
# `nomad acl bootstrap`'s `Secret ID    = <uuid>`), and what `vault operator init` prints
# (`Unseal Key 1: <base64>`, `Initial Root Token: hvs.<...>`). A label and its value on one
# line, in a table's alignment or as JSON.
_LABELS = {"SecretID": "token", "Secret ID": "token", "Unseal Key": "key", "Root Token": "token"}
_LABELLED = (
    r"(?P<label>SecretID|Secret ID|Unseal Key(?: \d{1,2})?|Root Token)(?:" + _QUOTE + r")?"
    r"[^\S\n]{0,40}[:=][^\S\n]{0,40}(?:" + _QUOTE + r")?(?P<value>[A-Za-z0-9+/=._-]{8,500})"
    r"(?![A-Za-z0-9+/=._-])"
)


def _labelled_secret(m: re.Match[str]) -> bool:
    """`SecretID: <uuid>`: no placeholder, marker or word (`SecretID: <hidden>`,
    `Secret ID = anonymous`), letters and digits mixed."""
    value = m.group("value")
    if value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return False
    return _mixed(value)


# REDACTION_VERSION 29: a YAML block scalar given to a name that says it holds a secret
# (`password: |`, `api_key: >-`, then the value on the lines below, indented more than the
# name): each of those lines that is one word, judged as the value given to that name (a PEM
# key's lines are the private-key rule's), or several (_BLOCK_WORDS). At most _BLOCK_MAX
# characters of lines.
_BLOCK_START = lazy(r":[^\S\n]{0,3}[|>][-+]?[1-9]?[-+]?[^\S\n]*(?:#[^\n]{0,200})?\r?\n")
_BLOCK_LINE = lazy(r"(?P<indent>[^\S\n]*)(?P<value>[^\s\"'`\\]{1,500})?[^\S\n]*\r?")
_BLOCK_MAX = 2000
# REDACTION_VERSION 31: a line of several words, a passphrase (`password: |` then `correct
# horse battery staple`), under any name of a secret but a key's (a PEM key's header is
# words): at most 12 words of 100 characters.
_BLOCK_WORDS = lazy(
    r"[^\S\n]*(?P<value>[^\s\"'`\\]{1,100}(?:[^\S\n]{1,3}[^\s\"'`\\]{1,100}){1,11})[^\S\n]*\r?"
)


def _passphrase(name: str, value: str) -> bool:
    """Whether `value`, words given to `name`, is a passphrase: judged as a quoted value
    (_assigned_secret: no placeholder, `{{ .Values.password }}`), and no sentence that tells
    what to give (`Set it in the vault.`, `see below:`)."""
    return not value.endswith((".", ":")) and _assigned_secret(name, value, True)


def _block_scalars(text: str) -> Iterator[tuple[int, int]]:
    """The lines of each YAML block scalar a secret's name is given (see _BLOCK_START)."""
    spans: list[tuple[int, int]] = []
    done = 0
    for at in _anchor_starts(text, (": |", ": >", ":|", ":>")):
        if at < done:
            continue
        start = _BLOCK_START.match(text, at)
        name = _name_before(text, at)
        if start is None or not name or (kind := _name_of_kind(name)) is None:
            continue
        line = text.rfind("\n", 0, at - len(name)) + 1
        lead = text[line : at - len(name)]
        if lead.strip(" -"):
            continue  # (a name inside a line: no key of YAML's)
        pos, hi = start.end(), min(len(text), start.end() + _BLOCK_MAX)
        while pos < hi:
            end = text.find("\n", pos, hi)
            end = hi if end < 0 else end
            m = _BLOCK_LINE.fullmatch(text, pos, end)
            if m is None:
                if len(text[pos:end]) - len(text[pos:end].lstrip()) <= len(lead):
                    break
                words = _BLOCK_WORDS.fullmatch(text, pos, end)
                if words is not None and kind != "key" and _passphrase(name, words["value"]):
                    spans.append(words.span("value"))
            elif m["value"] is not None:
                if len(m["indent"]) <= len(lead):
                    break
                value = m["value"]
                if (
                    kind == "key"
                    and _key_name_secret(name, value)
                    or (kind != "key" and _assigned_secret(name, value, True))
                ):
                    spans.append(m.span("value"))
            pos = end + 1
        done = pos
    yield from spans


# REDACTION_VERSION 29: Redis's password, given to the server (`CONFIG SET requirepass PW`,
# `redis.conf`'s `requirepass PW` and `masterauth PW`) or to log in (`AUTH PW`, `AUTH user
# PW`, in a text that names Redis): not a variable, a placeholder or a lowercase word.
_REDIS_VALUE = (
    r"[^\S\n]{1,10}(?P<q>\\{0,7}[\"'])?(?P<password>[^\s\"'`\\;|&<>()]{1,200})"
    r"(?(q)\\{0,7}[\"']|(?=[\s;|&)]|\Z))"
)
_REDIS_SETTING = r"(?i:requirepass|masterauth)" + _REDIS_VALUE
_REDIS_AUTH = r"AUTH(?:[^\S\n]{1,10}[\w.@-]{1,64}(?=[^\S\n]{1,10}\S))?" + _REDIS_VALUE
_REDIS_NAMES = ("redis", "Redis", "REDIS", ":6379")


# REDACTION_VERSION 31: a secret named in a sentence by its kind alone, `<Provider> key V`,
# `the token V`, `admin password V` ("Rotate the leaked Stripe key V" of a TodoWrite, a
# message), where the rules want 32 characters after a keyword (see _near_keyword) or a
# provider's prefix: a value that looks generated (_generated) after a keyword that is a word
# of prose, a word before it on its line (or a line a backslash continues), one space (or
# ` is `, `: `) after it, and the value ending a word. A key of data, whose value is an id or
# a hash, is no secret (`cache key`, `primary key`, `sort key`: their words, and a run of hex
# digits or a word after any), nor a token that pages a list. The rule is the table's last:
# what a value's own rule takes keeps its kind (`Authorization: token V`, `mysqladmin -u root
# password V`).
_PROSE_KEYWORD = (
    r"(?P<keyword>(?i:key|token|secret|passw(?:or)?d|passphrase))(?: is |: | )"
    r"(?P<token>[A-Za-z0-9+/_=-]{16,1024})"
)
# (its gate: the keyword and the value's first 16 characters; 4,425 of the 4,429 texts with a
# keyword's anchor that the 200 MB corpus and ../shared/corpus/real gave the rule hold none)
_PROSE_GATE = r"(?i:key|token|secret|passw(?:or)?d|passphrase)(?: is |: | )[A-Za-z0-9+/_=-]{16}"
_PROSE_ENDS = frozenset(".,;:!?)]\"'`")
_DATA_KEYS = frozenset(
    (
        "cache primary sort partition foreign unique composite compound hash range row index"
        " idempotency dedup dedupe lookup shard routing public object map dict cluster"
        " group join natural surrogate candidate message translation i18n locale list"
        " page pagination continuation next sync resume cursor cancellation"
    ).split()
)
# (the line may be a command's continued with a backslash: `echo "Rotate the \` then `key V"`;
# or the keyword opens a parenthesis, a sentence's aside: `the Stripe webhook (secret V)`,
# REDACTION_VERSION 32)
_WORD_BEFORE = lazy(
    r"(?:(?:^|(?<=[\s(]))(?P<word>[A-Za-z][A-Za-z0-9]{0,30})"
    r"(?:[^\S\n]|[^\S\n]?\\\r?\n[^\S\n]{0,40})|(?<=[\w.,;:!?][^\S\n])\()\Z"
)


def _named_in_prose(m: re.Match[str]) -> bool:
    """A value in a sentence after a secret's kind (see _PROSE_KEYWORD): a word before the
    keyword on its line (`Stripe key`, `admin password`), not a key of data's, the value
    generated, ending a word, and not hex digits alone."""
    start = m.start()
    before = _WORD_BEFORE.search(m.string, max(0, start - 75), start)
    if before is None or (before["word"] or "").lower() in _DATA_KEYS:
        return False  # (a name's end, `csrf_token`, `x.secret`, has no space before it)
    token, end = m.group("token"), m.end("token")
    if end < len(m.string) and not (m.string[end].isspace() or m.string[end] in _PROSE_ENDS):
        return False  # (a word cut short, by an invisible character: the rest is no prose)
    # (hex digits in groups too: a fingerprint's or an id's, `3f0a2b1c-1234-4abc`)
    return _HEX.fullmatch(token.replace("-", "")) is None and _generated(token)


# REDACTION_VERSION 32: a password under 16 characters named in a sentence (`the staging
# password is hunter2x!`, `the root password was set to Summer2024.`, `log in with the
# password k9Xq2LmP4b and`), which _named_in_prose leaves to _generated's 16 characters: a
# shorter run of letters and digits is as often a word, a version or an id. A password is the
# short secret people choose and say: after `password`, `passwd`, `passphrase` or `secret` as
# a word (not a name's end, `db_password`, which the assignment rules read), ` is `, ` was `,
# ` set to `, ` to ` or ` is now ` (or `: ` or one space after a word or in an aside, as
# _named_in_prose's), one word of 6 to 15 characters up to a space or the sentence's
# punctuation, letters and digits both (`required`, `8 characters`, `stored in .env` stay),
# no code or path (brackets, `/`, `$`, `.` before a letter: a file's name), no count with its
# unit (`12chars`), no name of an algorithm, an encoding or a protocol (`SHA256`,
# `argon2id`, `base64`, `HS256`: the words of a sentence that says how a password is kept),
# and no word that says it stands in for one (`secret12345`, `password1` of a test; see
# _STAND_IN_WORDS).
_SHORT_PASSWORD = (
    r"(?<![\w.$/-])(?P<keyword>(?i:passw(?:or)?d|passphrase|secret))"
    # (REDACTION_VERSION 35: the account it is for, named between: `the password for admin
    # is X`, `for the deploy user`; a linking verb's only, see _short_password)
    r"(?P<whose> for (?:the )?[A-Za-z0-9_.@-]{1,32}(?: (?:user|account|login))?)?"
    r"(?P<link> (?:was set|is set|is now|is|was|set) to | is now | is | was | to |: | )"
    # (REDACTION_VERSION 36: up to 64 characters, a passphrase's, see _chosen_passphrase;
    # 37: up to 128)
    r"(?P<value>[^\s\"'`\\()\[\]{}<>|;,$/][^\s\"'`\\()\[\]{}<>|;,/]{4,126}"
    r"[^\s\"'`\\()\[\]{}<>|;,/.:])"
    r"(?=[.,;:]?(?:\s|\Z|[)\"'`\]]))"
)
_TECHNICAL = lazy(
    r"(?i:sha|md|hs|rs|es|ps|aes|rsa|des|pbkdf|argon|bcrypt|scrypt|base|utf|crc|ed|x|ipv"
    r"|https?|tls|ssl|oauth|v)[-_]?\d[\w-]*|\d+[A-Za-z]+"
)
_DOT_WORD = lazy(r"\.[A-Za-z]")
_LETTERS = lazy(r"[^A-Za-z]+")


def _short_password(m: re.Match[str]) -> bool:
    """A password of fewer than 16 characters in a sentence (see _SHORT_PASSWORD)."""
    value = m.group("value")
    if _PLACEHOLDER.match(value) or value.startswith(_MARKED):
        return False
    if m.group("whose") and m.group("link") in (" ", ": ", " to "):
        return False  # (a prompt, `[sudo] password for bob: `, and what follows it)
    if not _mixed(value):
        return _chosen_word(m)
    if len(value) > _SHORT:
        return False  # (what looks generated is _named_in_prose's)
    if _TECHNICAL.fullmatch(value) or _DOT_WORD.search(value) or _VERSION.fullmatch(value):
        return False
    if _LETTERS.sub("", value).lower() in _STANDS_IN:
        return False  # a test's stand-in: `password is test1234`, `example123`
    if m.group("link") in (" ", ": "):
        start = m.start()
        before = _WORD_BEFORE.search(m.string, max(0, start - 75), start)
        return before is not None
    return True


# REDACTION_VERSION 34: a password of letters alone told in a sentence (`the db password is
# sunshine`, `the root password was set to Hunterqx.`) or on a line of its own (`password:
# hunterqx`, YAML's, a note's): the word people choose, which _short_password's letters and
# digits miss. A word after `password is` is far more often what a sentence says of the
# password (`required`, `incorrect`, `hashed`, `stored in`), or a type in code (`password:
# string;`): only a linking verb's (` is `, ` was `, ` set to `, ` is now `; not ` to `, an
# infinitive's, `the password to access`) or a colon's, one word of 6 to 15 letters that ends
# its clause (a `.` or `,`, the line's end, `and`, `until`, `for`, `but`, an aside's `(`; after
# a colon, a key first on its line, the line's end), in lower case or capitalized, no word of
# _SAID_OF_A_PASSWORD nor one with the ending of an adjective, a participle or an adverb
# (`-ed`, `-ing`, `-ible`, `-ive`, `-ly`, ...), and no stand-in's (_STAND_IN_WORDS). In mixed
# case it is a name in camelCase (`password: hashedPw`, `password: SecretStr`), unless its
# letters are random, with few vowels, after a linking verb (`the secret is ybjFwjePac`: words
# hold about two in five vowels, random letters one in five).
_SAID_OF_A_PASSWORD = frozenset(
    (
        "always never either neither whatever whichever something anything nothing everything"
        " another already rather instead indeed correct incorrect invalid secure insecure strong"
        " stronger weaker unique random hidden broken unknown plaintext cleartext blank static"
        " public private simple complex common default enough absent present wrong pretty better"
        " worse longer shorter within without inside outside before after because behind beyond"
        " between through during against toward towards around across almost merely please"
        " string number boolean object integer buffer option unicode verbatim itself yourself"
        " unclear minimum maximum twelve sixteen eighteen twenty thirty length visible"
        " obvious trivial normal proper hashed salted reused github gitlab google online"
        " offline inline encoded there where elsewhere somewhere"
    ).split()
)
_WORD_ENDINGS = (
    *("ed", "ing", "able", "ible", "ive", "ous", "ful", "less", "ent", "ant", "al", "ic"),
    *("ly", "ish", "ary", "ory", "ize", "ise", "ness", "tion", "sion", "ity", "est", "ward"),
)
_CLAUSE_END = lazy(
    r"[.,;!?]?[^\S\n]*(?:\r?\n|\Z)|[.,!?)](?:\s|\Z)|[^\S\n]+(?:\(|(?:and|until|for|but|btw)\b)"
)
# (or a comment after it, YAML's and a shell's: `db_password: sunshine # prod`,
# REDACTION_VERSION 35)
_AT_LINE_END = lazy(r"[^\S\n]*+(?:(?<=[^\S\n])#[^\n]*+)?(?:\r?\n|\Z)")
# (a key first on its line: YAML's, a list's item's)
_OWN_LINE_KEY = lazy(r"(?:^|(?<=\n))[^\S\n]*(?:[-*][^\S\n]+)?\Z")
_VOWELS = frozenset("aeiouAEIOU")


def _chosen_letters(value: str, colon: bool) -> bool:
    """Whether `value` is a password of letters alone as people choose them (see
    _SAID_OF_A_PASSWORD); `colon` when a key's colon gives it (where mixed case is a type's:
    `password: SecretStr`)."""
    if _chosen_passphrase(value):
        return True
    if not (value.isascii() and value.isalpha() and 6 <= len(value) <= _SHORT):
        return False
    if value.islower() or (value[0].isupper() and value[1:].islower()):
        word = value.lower()
        return not (
            word in _SAID_OF_A_PASSWORD or word in _STAND_IN_WORDS or word.endswith(_WORD_ENDINGS)
        )
    return not colon and sum(c in _VOWELS for c in value) < 0.25 * len(value)


def _chosen_word(m: re.Match[str]) -> bool:
    """A password of letters alone in a sentence or after a key's colon (see
    _SAID_OF_A_PASSWORD)."""
    link = m.group("link")
    if link in (" ", " to ") or not _chosen_letters(m.group("value"), link == ": "):
        return False
    if link != ": ":
        return _CLAUSE_END.match(m.string, m.end()) is not None
    start = m.start()
    lead = max(0, start - 75)
    if _OWN_LINE_KEY.search(m.string, lead, start) is not None:
        return _AT_LINE_END.match(m.string, m.end()) is not None
    return (
        _WORD_BEFORE.search(m.string, lead, start) is not None
        and _CLAUSE_END.match(m.string, m.end()) is not None
    )


# REDACTION_VERSION 36: a passphrase, the long password people choose (`the db password is
# correcthorsebattery`, `password: correct-horse-battery-staple`), which _chosen_letters's 15
# letters kept and _generated's 16 characters do not take (words are not random). The same
# places as a password of letters alone (a linking verb's, a key's colon on its own line,
# `--password=`), and one of: 16 to 64 letters in lower case or capitalized, without the
# ending of an adjective, a participle or an adverb (the few words that long:
# `indistinguishable`, `internationalization`); or three to eight words of 3 to 12 letters
# joined by `-`, none a word of a sentence's (_PROSE_WORDS: `one-time-use`,
# `not-for-production`, `end-to-end`) nor a participle (`-ed`, `-ing`), the last not said of a
# password (_SAID_OF_A_PASSWORD) nor with such an ending (`auto-generated`). Words apart
# (`correct horse battery staple`) are a sentence's unless the sentence says where they end:
# in quotes after a linking verb (`the password is "correct horse battery staple"`; not after
# a colon, a message's in code, `password: "Password must be..."`), or after `passphrase is`
# up to the clause's end (see _PHRASE).
_SHORT = 15
_PROSE_WORDS = frozenset(
    (
        "the and for not nor are was were with from into onto your you has have had must should"
        " will can may this that its per via use used only time case end auto self non multi all"
        " any each every well long short low high lower upper mixed plain text base read write"
        " user users account password passwords passphrase phrase key keys set get new old off"
        " out who what when how why which than then also just more most less least very too"
        " same other our their his her him them they she one two three four five six eight"
        " ten first last next real full half never always ever anywhere nowhere everywhere still"
        " yet again here there"
    ).split()
)
_VERB_ENDINGS = ("ed", "ing")
# (REDACTION_VERSION 37: 128 letters and twelve words, where 36 read 64 and eight: a
# passphrase of nine words, or of 72 letters, was kept)
_PASSPHRASE_MAX = 128
_PHRASE_WORDS_MAX = 12
_PHRASE_WORD = lazy(r"[a-z]{3,12}|[A-Z][a-z]{2,11}")


def _phrase_words(words: list[str]) -> bool:
    """Whether `words` are a passphrase's (see _PROSE_WORDS)."""
    if not 3 <= len(words) <= _PHRASE_WORDS_MAX or not all(
        _PHRASE_WORD.fullmatch(w) for w in words
    ):
        return False
    lower = [w.lower() for w in words]
    if any(w in _PROSE_WORDS or w in _STAND_IN_WORDS or w.endswith(_VERB_ENDINGS) for w in lower):
        return False  # (`is never stored anywhere`, `is hashed using bcrypt`)
    return not (lower[-1] in _SAID_OF_A_PASSWORD or lower[-1].endswith(_WORD_ENDINGS))


def _chosen_passphrase(value: str) -> bool:
    """Whether `value` is a passphrase of letters alone or of words joined by `-` (see
    _PROSE_WORDS)."""
    if "-" in value:
        return len(value) <= _PASSPHRASE_MAX and _phrase_words(value.split("-"))
    if not (value.isascii() and value.isalpha() and _SHORT < len(value) <= _PASSPHRASE_MAX):
        return False
    if not (value.islower() or (value[0].isupper() and value[1:].islower())):
        return False
    return not value.lower().endswith(_WORD_ENDINGS)


_PHRASE = (
    r"(?<![\w.$/-])(?P<keyword>(?i:passw(?:or)?d|passphrase))"
    r"(?P<link> (?:was set|is set|is now|is|was|set) to | is now | is | was )"
    r"(?P<quote>[\"'`])?(?P<value>[A-Za-z]{3,12}(?: (?!(?:and|but)\b)[A-Za-z]{3,12}){2,11})"
    # (REDACTION_VERSION 37: or a clause that `and` or `but` starts, after `passphrase is`:
    # `the passphrase is correct horse battery and the key is in ~/.ssh`)
    r"(?=[\"'`]|[.,;!?](?:\s|\Z)|[^\S\n]*(?:\r?\n|\Z)|(?P<clause> (?:and|but) ))"
)


def _phrase(m: re.Match[str]) -> bool:
    """Words apart as a passphrase, in quotes or after `passphrase is` (see _PROSE_WORDS)."""
    quote, after = m.group("quote"), m.string[m.end() : m.end() + 1]
    if quote is not None:
        if after != quote:
            return False
    elif m.group("keyword").lower() != "passphrase" or (after and after in "\"'`"):
        return False  # (a quote closed that no quote opened)
    return _phrase_words(m.group("value").split(" "))


# REDACTION_VERSION 36: a passphrase in an aside of the sentence that names a password (`the
# right password is in wp-config (correcthorsebattery)`, an assistant's reply): the
# parenthesis holds letters alone, 16 to 64 as _chosen_passphrase reads them, after
# `password` or `passphrase` with at most 60 characters between and no sentence's end, line's
# end or other parenthesis. A shorter word is an aside's (`(optional)`, `(see below)`), and a
# name holding the keyword is the setting's (`(mysqlnativepassword)`). Neither the real
# corpus, the held-out sets nor 7,041 files of code and docs hold one such aside.
_ASIDE = (
    r"(?<![\w.$/-])(?P<keyword>(?i:passw(?:or)?d|passphrase))(?![\w-])[^\n.()]{0,60}"
    r"\((?P<value>[A-Za-z]{16,128})\)"
)


def _aside(m: re.Match[str]) -> bool:
    """A passphrase in parentheses after a password's word (see _ASIDE)."""
    value = m.group("value")
    return "pass" not in value.lower() and _chosen_passphrase(value)


# REDACTION_VERSION 36: a login and its password told as `user / password` (`my admin login
# is jdoe / Winter2026!`, `credentials: deploy/Hunter2x`): after `login`, `credentials` or
# `creds` and a linking verb or a colon, a user's name, a `/` (spaces around it or not) and a
# password of 6 to 40 characters with letters and digits both, as a quoted password's (no
# placeholder, stand-in or version). A path (`/api/login`), a pair of words (`login is
# GET/POST`) or of letters (`root/toor`) is no password.
_LOGIN = (
    r"(?<![\w.$/-])(?:(?P<keyword>(?i:log-?in|credentials|creds))(?: (?:is|are) |: )"
    # (REDACTION_VERSION 37: or told how to log in, `log in with admin / X`, `sign in as
    # deploy/X`)
    r"|(?i:(?:log|sign)[ -]?in) (?i:with|using|as) )"
    r"(?P<user>[A-Za-z0-9_.@+-]{1,40})(?: / |/)"
    r"(?P<value>[^\s/\"'`\\()\[\]{}<>|;,]{5,39}[^\s/\"'`\\()\[\]{}<>|;,.:])"
    r"(?=[.,;:)]?(?:\s|\Z))"
)
# (its gate: the word, a user, a `/` and six characters of a password; the rule was tried on
# 2,830 texts of the 200 MB corpus and ../shared/corpus/real, `login` of code, and found none)
_LOGIN_GATE = (
    r"(?:(?i:log-?" + _I + r"n|credent" + _I + r"als|creds)(?: (?:is|are) |: )"
    r"|(?i:(?:log|s" + _I + r"gn)[ -]?" + _I + r"n) (?i:w" + _I + r"th|us" + _I + r"ng|as) )"
    r"[A-Za-z0-9_.@+-]+(?: / |/)[^\t\n\v\f\r /\"'`\\()\[\]{}<>|;,]{6}"
)


def _login(m: re.Match[str]) -> bool:
    """A password after its user's name and a `/` (see _LOGIN)."""
    value = m.group("value")
    if _PLACEHOLDER.match(value) or value.startswith(_MARKED) or _VERSION.fullmatch(value):
        return False
    if _LETTERS.sub("", value).lower() in _STANDS_IN:
        return False
    return _mixed(value)


# REDACTION_VERSION 37: a password told in another language (`mon mot de passe est X`,
# `mein Passwort ist X`, `mi contraseña es X`, `salasana on X`, `パスワードは X`, `密码是 X`,
# `пароль: X`, `hasło to X`, `la password è X`), which the English rules above do not read:
# the language's word for a password, its linking verb or a colon (or a particle, `は`, `是`),
# and one word of 6 to 40 characters with letters and digits both, as _short_password judges
# one (no placeholder, version, algorithm's name, file's name or stand-in). Letters alone are
# as often the sentence's next word (`ist falsch`, `est requis`) and stay.
_FOREIGN_WORDS = (
    "mot de passe",
    *("passwort", "kennwort", "contraseña", "contrasena", "senha", "salasana", "wachtwoord"),
    *("hasło", "haslo", "пароль", "lösenord", "losenord", "passord", "adgangskode", "şifre"),
    *("heslo", "jelszó", "parola", "password è"),
)
_FOREIGN_SCRIPT_WORDS = ("パスワード", "密码", "密碼", "비밀번호")
_FOREIGN_PASSWORD = (
    r"(?:(?<![\w.$/-])(?i:"
    + "|".join(w.replace(" ", "[^\\S\\n]") for w in _FOREIGN_WORDS)
    # (words of scripts without spaces: what stands before them is a word of the sentence)
    + ")|"
    + "|".join(_FOREIGN_SCRIPT_WORDS)
    + r")(?P<link>[^\S\n]?[:：][^\S\n]?|(?<=[^\x00-\x7f])(?:は|是|为|為|는)[^\S\n]?"
    r"|(?<!è)[^\S\n]+(?i:est|ist|lautet|war|es|era|é|e|era|on|oli|is|was|to|jest|je|är|var|er"
    r"|olarak|este|—|–)[^\S\n]+|(?<=è)[^\S\n]+)"
    r"(?P<value>[^\s\"'`\\()\[\]{}<>|;,/。、：][^\s\"'`\\()\[\]{}<>|;,/。、：]{4,38}"
    r"[^\s\"'`\\()\[\]{}<>|;,/.:。、：])"
    r"(?=[.,;:!?)]?(?:\s|\Z|[)\"'`\]])|[。、])"
)
_FOREIGN_ANCHORS = tuple(
    dict.fromkeys(
        case
        for w in _FOREIGN_WORDS
        for case in (w, w[0].upper() + w[1:], w.upper())
        if case != "PASSWORD È"
    )
) + (*_FOREIGN_SCRIPT_WORDS, "PASSWORD È")


def _foreign_password(m: re.Match[str]) -> bool:
    """A password told in another language (see _FOREIGN_PASSWORD)."""
    value = m.group("value")
    if _PLACEHOLDER.match(value) or value.startswith(_MARKED) or not _mixed(value):
        return False
    if _TECHNICAL.fullmatch(value) or _DOT_WORD.search(value) or _VERSION.fullmatch(value):
        return False
    return _LETTERS.sub("", value).lower() not in _STANDS_IN


# REDACTION_VERSION 38 (sec44: of 202 shapes planted in 618 places, the kept ones).

# A password given to a call that takes a user and a password, in that order: requests'
# and httpx's `auth=('u', 'PW')`, `HTTPBasicAuth('u', 'PW')`, aiohttp's `BasicAuth(...)`,
# .NET's `new NetworkCredential("u", "PW")`, Java's `new PasswordAuthentication("u",
# "PW".toCharArray())`, Apache's `UsernamePasswordCredentials(...)`, Mongo's
# `db.changeUserPassword("u", "PW")`, smtplib's and ftplib's `.login("u", "PW")`, and JDBC's
# `DriverManager.getConnection(url, "u", "PW")` (its URL first). The user a string or a
# name; the password a string of no spaces, judged as a quoted value given to `password`.
_CALL_USER = r"(?:\"[^\"\\\n]{0,200}\"|'[^'\\\n]{0,200}'|[A-Za-z_][\w.]{0,100})"
_CREDENTIAL_CALL_NAMES = (
    *("HTTPBasicAuth(", "HTTPDigestAuth(", "HTTPProxyAuth(", "BasicAuth(", "DigestAuth("),
    *("NetworkCredential(", "PasswordAuthentication(", "UsernamePasswordCredentials("),
    *("changeUserPassword(", ".login("),
)
_CREDENTIAL_CALL = (
    r"(?:(?<![\w.])auth[^\S\n]?=[^\S\n]?[(\[]"
    r"|getConnection\(\s{0,10}(?:\"[^\"\\\n]{0,300}\"|[A-Za-z_][\w.]{0,100})\s{0,10},"
    r"|(?:" + "|".join(re.escape(name) for name in _CREDENTIAL_CALL_NAMES) + r"))"
    r"\s{0,10}" + _CALL_USER + r"\s{0,10},\s{0,10}"
    r"(?P<q>[\"'])(?P<value>[^\s\"'\\]{1,200})(?P=q)(?=\s{0,10}[,)\].])"
)
_CREDENTIAL_CALL_ANCHORS = (
    "auth=(",
    "auth = (",
    "auth=[",
    "getConnection(",
    *_CREDENTIAL_CALL_NAMES,
)


def _called_password(m: re.Match[str]) -> bool:
    """A password given to a call (see _CREDENTIAL_CALL): not a variable's `$`, nor what a
    quoted value given to `password` would not be (a placeholder, a stand-in, a name)."""
    value = m.group("value")
    return not value.startswith("$") and _assigned_secret("password", value, True)


# PowerShell's `ConvertTo-SecureString 'PW' -AsPlainText -Force` (or `-String 'PW'`, its
# options in any order): the string, when `-AsPlainText` stands in the same command.
_SECURE_STRING = (
    r"(?i:ConvertTo-SecureString)(?:[^\S\n]{1,10}-(?i:AsPlainText|Force)){0,4}"
    r"[^\S\n]{1,10}(?:-(?i:String)[^\S\n]{1,10})?"
    r"(?P<q>[\"'])(?P<value>[^\"'`\n]{1,200})(?P=q)"
)
_AS_PLAIN_TEXT = lazy(r"(?i)-AsPlainText")
_PS_COMMAND_END = 200


def _plain_secure_string(m: re.Match[str]) -> bool:
    value = m.group("value")
    if m.group("q") == '"' and "$" in value:
        return False  # (a variable, expanded in double quotes)
    if not _assigned_secret("password", value, True):
        return False
    text = m.string
    head = text[m.start() : m.start("value")]
    stop = _command_end(text, m.end(), min(len(text), m.end() + _PS_COMMAND_END))
    return _AS_PLAIN_TEXT.search(head) is not None or (
        _AS_PLAIN_TEXT.search(text, m.end(), stop) is not None
    )


# A password given as a DSL's argument, a name that ends in `password` then a space and a
# quoted string: Gradle's signing config, `storePassword "PW"` / `keyPassword 'PW'`, Chef's
# and Puppet's `password "PW"`; first on its line or after a `{` or `;`.
_DSL_PASSWORD = (
    r"(?i:assw(?:or)?d)[^\S\n](?P<q>[\"'])(?P<value>[^\s\"'\\]{1,200})(?P=q)"
    r"(?=[^\S\n]*(?:[;,})]|//|#|\r?\n|\Z))"
)
_DSL_LEAD = lazy(r"(?:\A|\n|[{;])[^\S\n]*\Z")


def _dsl_password(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    keyword = text[start : m.start("q") - 1]
    name = _name_before(text, start) + keyword
    opened = start - (len(name) - len(keyword))
    if not name[:1].isalpha() or "." in name:
        return False
    if _DSL_LEAD.search(text, max(0, opened - 200), opened) is None:
        return False
    return _called_password(m)


# MongoDB's `db.createUser({user: "app", pwd: "PW", ...})`: `pwd` as an object's key, its
# value quoted (`PWD=` is the shell's working directory, and `"pwd": "/home/x"` a path).
_MONGO_PWD = (
    r"pwd(?P<kq>[\"']?)[^\S\n]{0,3}:[^\S\n]{0,3}(?P<q>[\"'])(?P<value>[^\s\"'\\]{1,200})(?P=q)"
)


def _mongo_pwd(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if m.group("kq"):
        start -= 1
        if start < 0 or text[start] != m.group("kq"):
            return False
    if start and (text[start - 1].isalnum() or text[start - 1] in "_.$-"):
        return False
    value = m.group("value")
    if value.startswith(("/", "~", ".", "$")) or _WINDOWS_PATH.match(value):
        return False
    return _called_password(m)


# A Wi-Fi pre-shared key: wpa_supplicant's `psk="PW"` (or the 64 hex digits it is hashed to,
# which join the network as well), NetworkManager's `psk=PW`, hostapd's `wpa_psk=`.
_PSK = (
    r"(?:(?<![\w.-])|(?<=wpa_))(?i:psk)[^\S\n]{0,3}=[^\S\n]{0,3}"
    r"(?P<open>\")?(?P<value>(?(open)[^\"\\\n]{8,63}|[^\s\"'`\\]{8,64}))(?(open)\"|(?=\s|\Z))"
)


def _psk(m: re.Match[str]) -> bool:
    value = m.group("value")
    if value.startswith(_MARKED) or _PLACEHOLDER.match(value) or value.startswith("$"):
        return False
    return _assigned_secret("password", value, True)


# A password printed by what made it, alone on the line after the one that introduces it
# (Jenkins' `Please use the following password to proceed to installation:`, then a blank
# line and the password; Elasticsearch's `Password for the elastic user (reset with ...):`)
# or after `is :` on that line (`The generated password for the elastic built-in superuser is
# : PW`): one word that looks generated, the line's last.
_PRINTED_PASSWORD = (
    r"(?i:assw(?:or)?d)[^\n:]{0,100}"
    r"(?:[^\S\n]is[^\S\n]?:[^\S\n]{1,3}|:[^\S\n]*\r?\n(?:[^\S\n]*\r?\n)?[^\S\n]*)"
    r"(?P<value>[^\s\"'`\\]{12,200})[^\S\n]*(?=\r?\n|\Z)"
)


def _printed_password(m: re.Match[str]) -> bool:
    """One word that looks generated, or of a generated password's letters of both cases,
    digits and symbols (Elasticsearch's `Vy*xIW5LWnzML_EjURi0`), not of code's."""
    value = m.group("value")
    if _generated(value, 12):
        return True
    return (
        _PASSWORD_CHARS.fullmatch(value) is not None
        and _LOWER.search(value) is not None
        and _UPPER.search(value) is not None
        and _random_looking(value)
        and _assigned_secret("password", value, True)
    )


_PASSWORD_CHARS = lazy(r"[A-Za-z0-9!#$%&*+=?@^_~-]+")


# An expect script's answer to a password prompt: `expect "password:"` (or `"*assword*"`,
# `{Passphrase}`), then `send "PW\r"` on its line or the next.
_EXPECT_SEND = (
    r"expect(?:[^\S\n]{1,10}-[a-z]{1,10}){0,4}[^\S\n]{1,10}[\"{][^\"{}\n]{0,60}"
    r"(?i:assw|assphrase)[^\"{}\n]{0,60}[\"}][^\S\n]{0,10}(?:\{[^\S\n]{0,10}|\r?\n[^\S\n]{0,40})"
    r"send(?:[^\S\n]{1,10}--)?[^\S\n]{1,10}\"(?P<value>[^\s\"\\$\[]{1,200})(?:\\[rn]){0,2}\""
)


def _sent_password(m: re.Match[str]) -> bool:
    return _assigned_secret("password", m.group("value"), True)


# `pwd for the router is PW`: the words people shorten `password` to, before the account
# it is for and a linking verb (as _SHORT_PASSWORD reads `password for X is PW`).
_ABBREVIATED_PASSWORD = (
    r"(?<![\w.$/-])(?P<keyword>(?i:pwd|pw|pass))"
    r"(?P<whose> for (?:the )?[A-Za-z0-9_.@-]{1,32}(?: (?:user|account|login))?)"
    r"(?P<link> (?:was set|is set|is now|is|was|set) to | is now | is | was )"
    r"(?P<value>[^\s\"'`\\()\[\]{}<>|;,$/][^\s\"'`\\()\[\]{}<>|;,/]{4,62}"
    r"[^\s\"'`\\()\[\]{}<>|;,/.:])"
    r"(?=[.,;:]?(?:\s|\Z|[)\"'`\]]))"
)
_ABBREVIATED_ANCHORS = tuple(
    case + " for " for word in ("pwd", "pw", "pass") for case in (word, word.title(), word.upper())
)

# A Google app password, four groups of four lower-case letters (`abcd efgh ijkl mnop`), after
# `app password` (or `app-specific password`) and a colon or `is`; no group a word of a
# sentence's or a stand-in's.
_APP_PASSWORD = (
    r"(?i:app(?:[- ]specific)?[ -]passwords?)[^\n:]{0,30}?(?::|[^\S\n]is)[^\S\n]{0,3}"
    r"(?P<q>[\"'`])?(?P<value>[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4})(?![\w-])"
)
_APP_PASSWORD_ANCHORS = tuple(
    lead + rest
    for lead in ("app", "App", "APP")
    for rest in (" password", " Password", " PASSWORD", "-specific password", "-Specific Password")
)


def _app_password(m: re.Match[str]) -> bool:
    groups = m.group("value").split()
    if len(set(groups)) < 3:
        return False  # `xxxx xxxx xxxx xxxx`
    return not any(g in _PROSE_WORDS or g in _STAND_IN_WORDS or g in _ENGLISH_FOURS for g in groups)


# Common four-letter words, of which an app password's random letters hold none: `this
# will work fine` after `app password is` is a sentence.
_ENGLISH_FOURS = frozenset(
    (
        "this that with will work fine from your have been what when them they then than"
        " also only just like make need does done here there were into more most some such"
        " each over very much many must back down both good well long same case used"
        " text code file line time note step test pass fail able sure once next last less"
        " mail sign auth gmail"
    ).split()
)

# A wallet's seed phrase (BIP39's 12, 15, 18, 21 or 24 words of 3 to 8 letters) after
# `seed phrase`, `mnemonic` or `recovery phrase` and `is`, a colon or `=`: the longest such
# count of words up to where the sentence goes on (a word of _PROSE_WORDS after them), a
# third of them at most words of a sentence's.
_SEED_PHRASE = lazy(
    r"(?i:seed[ -]phrase|seed words|mnemonic(?: phrase)?|recovery phrase)"
    r"(?:[^\S\n]{1,3}(?:is|was)[^\S\n]{1,3}|[^\S\n]{0,3}[:=][^\S\n]{0,3})"
    r"(?P<q>[\"'`])?(?P<value>[a-z]{3,8}(?: [a-z]{3,8}){11,40})"
)
# (each word's letters after its first, in the cases people write it: the phrase is matched
# from the letter before)
_SEED_ANCHORS = (
    *("eed phrase", "eed Phrase", "EED PHRASE", "eed-phrase", "eed words", "eed Words"),
    *("nemonic", "NEMONIC", "ecovery phrase", "ecovery Phrase", "ECOVERY PHRASE"),
)
_SEED_COUNTS = (24, 21, 18, 15, 12)


def _seed_phrases(text: str) -> Iterator[tuple[int, int]]:
    done = 0
    for at in _anchor_starts(text, _SEED_ANCHORS):
        at -= 1
        if at < done or at < 0 or (at and text[at - 1].isalnum()):
            continue
        m = _SEED_PHRASE.match(text, at)
        if m is None:
            continue
        words = m.group("value").split(" ")
        rest = m.end()
        for k in _SEED_COUNTS:
            if k > len(words):
                continue
            if k == len(words):
                ends = rest == len(text) or not text[rest].isalnum()
            else:
                ends = words[k] in _PROSE_WORDS
            if ends and sum(w in _PROSE_WORDS for w in words[:k]) * 3 <= k:
                start = m.start("value")
                end = start + len(" ".join(words[:k]))
                done = end
                yield start, end
                break


RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        _PEM_HEADER.format("BEGIN"),
        anchors=("-----BEGIN",),
        find=lambda text: _private_keys(text),
    ),
    Rule(
        "anthropic-key",
        r"sk-ant-" + _alone(7) + r"[A-Za-z0-9_-]{20,}",
        anchors=("sk-ant-",),
        extend=_wrapped_end,
    ),
    Rule(
        "openai-key",
        r"sk-" + _alone(3) + r"(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        check=_openai,
        anchors=("sk-",),
        extend=_wrapped_end,
    ),
    Rule(
        "github-token",
        r"gh" + _alone(2) + r"[pousr]_[A-Za-z0-9]{30,}",
        anchors=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        extend=_wrapped_end,
    ),
    Rule(
        "github-token",
        r"github_pat_" + _alone(11) + r"\w{22,}",
        anchors=("github_pat_",),
        extend=_wrapped_end,
    ),
    Rule(
        "gitlab-token",
        r"glpat-" + _alone(6) + _GITLAB_BODY,
        anchors=("glpat-",),
        extend=_wrapped_end,
    ),
    Rule(
        "slack-token",
        r"xox" + _alone(3) + r"[abprs]-[A-Za-z0-9-]{10,}",
        anchors=("xox",),
        extend=_wrapped_end,
    ),
    Rule(
        "discord-webhook",
        (
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/[A-Za-z0-9_-]+"
        ),
        anchors=("/api/webhooks/",),
    ),
    Rule(
        "teams-webhook",
        r"https://[A-Za-z0-9-]{1,100}\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]+",
        anchors=(".webhook.office.com/",),
    ),
    Rule(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+",
        anchors=("https://hooks.slack.com/",),
    ),
    Rule(
        "stripe-key",
        r"[rs]k_" + _alone(3) + r"(?:live|test)_[A-Za-z0-9]{16,}",
        anchors=("_live_", "_test_"),
        extend=_wrapped_end,
    ),
    Rule(
        "aws-access-key-id",
        # (20 characters as AWS issues them, up to 128 as IAM's API allows; after a digit too,
        # `0AKIA...`, not after a capital, which would make it part of a longer word)
        r"A(?:(?<![A-Z]A)|(?<=%[0-9a-fA-F]{2}A))[KS]IA[A-Z0-9]{16,124}(?![A-Z0-9])",
        anchors=("AKIA", "ASIA"),
        extend=_wrapped_end,
    ),
    Rule(
        "aws-secret-key",
        (
            r"(?i:aws_?secret_?(?:access_?)?key|secret_?access_?key)(?:" + _QUOTE + r")?"
            r"\s{0,40}[:=]\s{0,40}(?:" + _QUOTE + r")?(?P<key>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        "key",
        anchors=("ecret", "ECRET"),
        keyword=True,
    ),
    Rule(
        "google-api-key",
        r"AIza" + _alone(4) + r"[0-9A-Za-z_-]{35}",
        anchors=("AIza",),
        extend=_wrapped_end,
    ),
    # (a wrap's lines first, then a split's, which the jwt rule would cut to their first
    # piece: `"eyJ...eyJ...." +`)
    Rule("jwt", _JWT_HEAD.pattern, anchors=("eyJ",), find=_wrapped_jwts),
    Rule("jwt", _JWT_HEAD.pattern, anchors=("eyJ",), find=_split_jwts),
    Rule(
        "jwt",
        r"eyJ" + _alone(3) + r"[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        anchors=("eyJ",),
        extend=_wrapped_end,
    ),
    Rule(
        "bearer-token",
        (
            # (an auth scheme is case-insensitive, RFC 7235: `AUTHORIZATION: BEARER ...`)
            r"(?i:earer)(?:(?<=\b[Bb](?i:earer))|(?<=\\[nrt][Bb](?i:earer)))"
            r"(?:(?:\s|\\t){1,40}|" + _CONCAT + r")"
            r"(?P<token>[A-Za-z0-9._~+/=-]{16,})"
        ),
        "token",
        _bearer,
        anchors=("earer", "EARER"),
        # (a search for a case-insensitive word would try it at every position)
        at_anchors=True,
        extend=_wrapped_bearer_end,
    ),
    # REDACTION_VERSION 34: Terraform Cloud's API token (`<14>.atlasv1.<60 or more>`, a
    # `.terraformrc`'s `token = "..."`, which the keyword rules take for a dotted name)
    Rule(
        "terraform-token",
        r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}",
        check=_mixed_match,
        anchors=(".atlasv1.",),
    ),
    *(
        Rule(
            kind,
            re.escape(prefix) + _alone(len(prefix)) + body,
            check=check,
            anchors=anchors or (prefix,),
            extend=_wrapped_end,
        )
        for kind, prefix, body, check, anchors in _PROVIDER_TOKENS
    ),
    Rule(
        "discord-token",
        _DISCORD_TOKEN,
        check=_discord_token,
        anchors=_DISCORD_HEADS,
        at_anchors=True,
        # (its heads are common: 713 texts of the 200 MB generated corpus and the real one
        # hold one, 49 long ones 32 or more, and none of them a tail)
        holds=_DISCORD_TAIL,
        extend=_wrapped_end,
    ),
    Rule(
        "telegram-bot-token",
        r"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
        anchors=(":AA",),
    ),
    Rule(
        "azure-storage-key",
        r"(?:Account|SharedAccess)Key=(?P<key>[A-Za-z0-9+/]{20,}={0,2})",
        "key",
        anchors=("ccountKey=", "ccessKey="),
    ),
    # (in any case, as Bearer; `asic` alone is in every text that says "basic")
    _credentials(r"(?i:basic)" + _alone(5) + r"(?:\s|\\t){1,40}", ("Basic", "basic", "BASIC")),
    # A password on a command line. Each pattern looks at most a few hundred
    # characters past its anchor.
    Rule(
        "password",
        (
            r"(?:\bcurl\b[^\n|;&]{0,300}?\s(?:-[uU][\s=]{0,3}|--(?:proxy-)?user[\s=]{1,3})|\bwget\b[^\n|;&]{0,300}?\s--(?:http-)?user=)"
            r"[\"']?(?P<user>[^\s:\"'`\\]{0,100}):(?P<password>[^\s\"'`\\;|&<>()]{1,200})"
        ),
        "password",
        _command_password,
        anchors=("curl", "wget"),
        at_anchors=True,
    ),
    Rule(
        "password",
        (
            r"(?:\bmysql(?:dump|admin|sh|import)?\b[^\n|;&]{0,300}?\s-p[\"']?"
            r"|\bsshpass\s{1,10}-p\s{0,10}[\"']?"
            r"|\bdocker\s{1,10}login\b[^\n|;&]{0,300}?\s-p\s{1,10}[\"']?"
            r"|\bredis-cli\b[^\n|;&]{0,300}?\s-a\s{1,10}[\"']?"
            r")(?P<password>[^\s\"'`\\;|&<>()-][^\s\"'`\\;|&<>()]{3,200})"
        ),
        "password",
        _command_password,
        anchors=("mysql", "sshpass", "docker login", "redis-cli"),
        at_anchors=True,
    ),
    Rule(
        "password",
        (
            r"(?<![\w-])--pass(?:word|wd)?(?:\s{1,10}|=)[\"']?"
            r"(?P<password>[^\s\"'`\\;|&<>()-][^\s\"'`\\;|&<>()]{3,200})"
        ),
        "password",
        _option_password,
        anchors=("--pass",),
        at_anchors=True,
    ),
    Rule(
        "password",
        (
            # (and a camelCase name's, `userPWD="..."` of an Azure publish profile; not the
            # shell's `PWD=`, `OLDPWD=`: REDACTION_VERSION 19)
            r"(?:(?<=[A-Za-z0-9])_(?:PWD|pwd)|(?<=;)(?:Pwd|PWD|pwd)|(?<=; )(?:Pwd|PWD|pwd)"
            r"|(?<=[a-z])PWD)(?:" + _QUOTE + r")?"
            r"\s{0,3}[:=]\s{0,3}(?:" + _QUOTE + r")?(?P<password>[^\s\"'`\\;,]{4,200})"
        ),
        "password",
        _pwd_password,
        anchors=("_PWD", "_pwd", "Pwd=", "PWD=", "pwd=", 'PWD"', "PWD\\"),
        at_anchors=True,
    ),
    # REDACTION_VERSION 19: `Authorization: Basic $(echo -n user:PW | base64)`, the base64
    # made on the command line (and a Docker config's `auth` so made), and the keys `az
    # storage account keys list` prints, as JSON (`"keyName": "key1", "permissions":
    # "FULL", "value": "..."`) or a table (`key1  FULL  ...`).
    Rule(
        "password",
        (
            r"(?:echo|printf)(?:[^\S\n]{1,10}-[neE]{1,3}){0,3}(?:[^\S\n]{1,10}[\"']%s[\"'])?"
            r"[^\S\n]{1,10}(?P<q>[\"']?)(?P<user>[^\s:\"'`\\|]{0,100}):"
            r"(?P<password>[^\s\"'`\\|]{1,200})(?P=q)[^\S\n]{0,10}\|[^\S\n]{0,10}base64\b"
        ),
        "password",
        _command_password,
        anchors=("echo", "printf"),
        at_anchors=True,
        needs=("base64",),
    ),
    Rule(
        "azure-storage-key",
        (
            r"keyName"
            + _QUOTE
            + r"\s{0,3}:\s{0,3}"
            + _QUOTE
            + r"[^\"'\\\n]{1,40}"
            + _QUOTE
            + r"(?:\s{0,40},\s{0,40}"
            + _QUOTE
            + r"\w{1,40}"
            + _QUOTE
            + r"\s{0,3}:\s{0,3}"
            + _QUOTE
            + r"[^\"'\\\n]{0,60}"
            + _QUOTE
            + r"){0,3}\s{0,40},\s{0,40}"
            + _QUOTE
            + r"value"
            + _QUOTE
            + r"\s{0,3}:\s{0,3}"
            + _QUOTE
            + r"(?P<value>[A-Za-z0-9+/]{40,500}={0,2})"
        ),
        "value",
        anchors=("keyName",),
        at_anchors=True,
    ),
    Rule(
        "azure-storage-key",
        r"(?:FULL|Full)[^\S\n]{1,40}(?P<value>[A-Za-z0-9+/]{40,500}={0,2})(?![A-Za-z0-9+/=])",
        "value",
        check=lambda m: _generated(m.group("value")),
        anchors=("FULL", "Full"),
        at_anchors=True,
    ),
    # The signature of a signed URL (Azure SAS, S3 and GCS presigned): whoever has it
    # reads or writes the object until it expires.
    Rule(
        "url-signature",
        (
            r"(?:(?<=[?&])sig|(?<=X-Amz)-Signature|(?<=X-Goog)-Signature)="
            r"(?P<signature>[A-Za-z0-9%+/=_-]{16,1000})"
        ),
        "signature",
        anchors=("sig=", "-Signature="),
        at_anchors=True,
    ),
    # REDACTION_VERSION 30: a value a GitHub Actions step masks in its log (`echo
    # "::add-mask::$TOKEN"`), which a secret is, printed as the runner ran it (`##[command]echo
    # "::add-mask::..."` in `gh run view --log`), or a workflow's own echo of a literal.
    Rule(
        "secret",
        r"::add-mask::(?P<value>[^\s\"'`\\]{1,1000})",
        "value",
        lambda m: _stored(m["value"]),
        anchors=("::add-mask::",),
        at_anchors=True,
    ),
    Rule(
        "password",
        "htpasswd",
        anchors=("htpasswd",),
        find=_htpasswd_passwords,
    ),
    Rule(
        "session-cookie",
        "cookie",
        anchors=tuple(_COOKIE_LEADS),
        find=_cookie_values,
    ),
    # A .netrc entry: `machine HOST login USER password PW`.
    Rule(
        "password",
        (
            r"machine\s{1,10}(?:localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,10})"
            r"\s{1,10}login\s{1,10}\S{1,200}\s{1,10}password\s{1,10}"
            r"(?P<password>[^\s\"'`\\]{1,200})"
        ),
        "password",
        _command_password,
        anchors=("machine",),
        at_anchors=True,
    ),
    # A Docker config's `"auths": {"registry": {"auth": "<base64 of user:password>"}}`.
    _credentials(r"auth" + _QUOTE + r"\s{0,3}:\s{0,3}" + _QUOTE, ('auth"', "auth'", "auth\\")),
    # npm's legacy `_auth=` in an .npmrc.
    _credentials(r"_auth\s{0,3}=\s{0,3}[\"']?", ("_auth",)),
    Rule(
        "url-password",
        (
            # (no user: `redis://:pw@host`; an `@`, `/`, `#` or `?` not percent-encoded in
            # the password: `://app:Pa55@w0rd@db`, `://root:Jt5M4/2DX@127.0.0.1/db`, the
            # userinfo ends at the last `@` before a host; after the scheme's `:`, one slash
            # to three, or two backslashes or more, as typed: `https:/u:pw@h`, `http:\\u:pw@h`)
            # (a user an earlier rule took whole, `s3://[REDACTED:aws-access-key-id]:S@b`,
            # is a marker: the password after it is the URL's still)
            r":(?:/{1,3}|\\{2,16})"
            r"(?P<user>\[REDACTED:[a-z0-9-]{1,40}\]|[^\s:/?#@\"'`\\<>]{0,100})"
            r":(?P<password>[^\s\"'`\\<>]{1,200})"
            # (REDACTION_VERSION 36: or nothing after the `@`, the text's, its line's or a
            # quoted string's end: an Edit's fragment, `old_string: postgres://app:PW@`)
            r"@(?=[A-Za-z0-9\[]|[\"'`]|[^\S\n]*(?:\r?\n|\Z))"
        ),
        "password",
        _url_password,
        anchors=(":/", ":\\\\"),
        extend=_url_password_end,
    ),
    Rule("url-password", "@", anchors=("@",), find=_bare_url_passwords, gate=_BARE_GATE),
    Rule(
        "secret-assignment",
        (
            r"(?P<keyword>(?i:" + _NAME_KEYWORD + r"))s?(?P<quote>" + _QUOTES + r")?"
            # (a name in brackets, `os.environ['DB_PASSWORD'] = '...'`, see _bracketed)
            r"(?P<bracket>(?<=[\"'])\])?"
            # `: ` or `= `, in Markdown's bold or not (`**API Key**: `, `**Password:** `);
            # or, in prose, a value in backticks right after the word (``the password `...`
            # ``, ``DB password (`...`)``, ``token is `...` ``)
            # (aligned, `password:    x` of YAML and `op item get`, `KEY    = x` of an ini:
            # up to 40 spaces or tabs, 3 with a line break)
            r"(?:(?P<bold>\*\*?)?"
            + _GAP
            # (REDACTION_VERSION 38: a Makefile's `:=`, `::=` and `?=`, Go's `:=`)
            + r"(?:=>|::?=|\?=|[:=])(?(bold)|(?P<bolder>\*\*?)?)"
            + _VALUE_GAP
            + r"|(?P<prose>[^\S\n]{1,3}(?:(?:is|was)[^\S\n]{1,3})?\(?(?=`)))"
            # (a value in brackets, as a YAML plain scalar may be: `PASSWORD: (1HVo%Jcuz3)`)
            r"(?:(?P<open>" + _QUOTES + r")|(?P<tick>`)|(?<=[:=\s])(?P<paren>[(\[]))?"
            r"(?P<value>(?(open)[^\"'\\\n]{1,500}|(?(tick)[^`\\\n]{1,500}|" + _VALUE + r"{1,500})))"
        ),
        "value",
        _assignment,
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        kind_of=_assigned_kind,
        extend=_assignment_end,
        gate=_ASSIGNMENT_GATE,
    ),
    # SQL's password of a user or role: `CREATE USER app WITH PASSWORD '...'`, `ALTER ROLE
    # app PASSWORD '...'`, MySQL's `IDENTIFIED BY '...'`.
    Rule(
        "password",
        r"(?i:password|identified by) '(?P<value>[^'\\\n]{1,200})'",
        "value",
        _quoted_password,
        ("PASSWORD '", "password '", "Password '", "IDENTIFIED BY '", "identified by '"),
        at_anchors=True,
    ),
    # REDACTION_VERSION 34: PHP's constants, `define( 'DB_PASSWORD', '...' )` (WordPress's
    # wp-config.php: its database's password and its eight keys and salts), the name and its
    # value two strings of one call (see _defined_secret)
    Rule(
        "secret",
        (
            r"define\(\s{0,3}(?P<q>\\{0,7}['\"])(?P<name>[A-Za-z0-9_.-]{1,80})(?P=q)\s{0,3},"
            r"\s{0,40}(?P<open>\\{0,7}['\"])(?P<value>[^'\"\\\n]{1,500})(?P=open)"
        ),
        "value",
        _defined_secret,
        ("define(",),
        at_anchors=True,
        kind_of=_named_value_kind,
    ),
    # The password a password-hashing function is given as a literal: `bcrypt.hash('...',
    # 10)`, `bcrypt.compare('...', hash)`, Python's `bcrypt.hashpw(b'...', ...)`, PHP's
    # `password_hash('...')`, Werkzeug's `generate_password_hash('...')`.
    Rule(
        "password",
        (
            r"(?:bcrypt\.(?:hash|compare)(?:Sync|pw)?|hashpw|password_hash|argon2\.hash)"
            r"\(\s{0,3}b?(?P<q>['\"])(?P<value>[^'\"\\\n]{1,200})(?P=q)"
        ),
        "value",
        _quoted_password,
        ("bcrypt.hash", "bcrypt.compare", "hashpw(", "password_hash(", "argon2.hash("),
        at_anchors=True,
    ),
    Rule(
        "secret-default",
        (
            r"(?P<keyword>(?i:" + _NAME_KEYWORD + r"))(?:" + _QUOTE + r")?\]?\s{0,3}"
            r"(?:\|\||\?\?|,|\bor\b)\s{0,3}" + _QUOTE + r"(?P<value>[^\"'\\\n]{1,500})"
        ),
        "value",
        _env_default,
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        needs=("env", "ENV", "Env"),
        kind_of=_assigned_kind,
        extend=lambda m: _rest_of_value(m, _QUOTED_REST),
        gate=_KEYWORD_END + r"[^A-Za-z0-9]*(?:\|\||\?\?|,|or)[^A-Za-z0-9]*[\"'][^\"'\\\n]",
    ),
    Rule(
        "high-entropy-token",
        (
            r"(?P<keyword>(?i:" + _KEYWORD + r"|key))(?i:s?" + _NAME_SUFFIX + r")\b"
            r"[^A-Za-z0-9\n\"\\]{1,4}(?:is\s{1,3})?"
            r"(?P<token>[A-Za-z0-9+/_=-]{16," + str(_TOKEN_MAX) + r"})"
        ),
        "token",
        _near_keyword,
        # (the assignment rule's anchors, though its words are fewer: the two share where
        # their keywords may start, found once)
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        extend=lambda m: _rest_of_value(m, _TOKEN_REST),
        # (the pattern without its `\b`, a class for `\d` and `\s` that holds theirs, and the
        # token's first 16 characters)
        gate=(
            r"(?i:passw(?:or)?d|passphrase|secret|token|key|base)"
            r"(?i:s?(?:[_-]?v?[^\x00-\x2f\x3a-\x7f]{1,2})?)"
            r"[^A-Za-z0-9\n\"\\]{1,4}(?:is[^A-Za-z0-9+/_=-]{1,3})?[A-Za-z0-9+/_=-]{16}"
        ),
    ),
    # REDACTION_VERSION 13 (session 28)
    Rule(
        "token",
        (
            r"(?<![\w-])(?P<option>--(?:token|auth|auth-token|api-token|access-token|secret"
            r"|client-secret|api-key))(?:\s{1,10}|=)[\"']?"
            r"(?P<password>[^\s\"'`\\;|&<>()-][^\s\"'`\\;|&<>()]{3,200})"
        ),
        "password",
        _option_token,
        anchors=(
            "--token",
            "--auth",
            "--api-token",
            "--access-token",
            "--secret",
            "--client-secret",
            "--api-key",
        ),
        at_anchors=True,
        kind_of=lambda m: _TOKEN_OPTIONS[m.group("option")],
    ),
    Rule(
        "key",
        (
            r"(?P<sep>[_.-]|(?<=[a-z0-9])(?=K))(?P<keyword>KEY|[Kk]ey)(?P<quote>" + _QUOTES + r")?"
            r"(?P<bracket>(?<=[\"'])\])?"
            r"\s{0,3}(?:=>|[:=])(?:[^\S\n]{0,3}\\\r?\n[^\S\n]{0,40}|\s{0,3})"
            r"(?P<open>" + _QUOTES + r")?(?:base64:)?(?P<value>[A-Za-z0-9+/_=-]{16,500}+)"
        ),
        "value",
        _named_key,
        anchors=("_KEY", "_key", "-KEY", "-key", "Key"),
        at_anchors=True,
        gate=r"(?:KEY|[Kk]ey)[^A-Za-z0-9]*[:=][^A-Za-z0-9]*(?:base64:)?[A-Za-z0-9+/_=-]{16}",
    ),
    Rule(
        "secret",
        (
            # (and a field's label, `"label": "password", "value": "..."` of 1Password's `op
            # item get --format json`: REDACTION_VERSION 22)
            r"(?<![A-Za-z0-9_])(?:name|Name|key|Key|label|Label)(?:"
            + _QUOTE
            + r")?\s{0,3}[:=]\s{0,3}"
            r"(?P<q>" + _QUOTE + r")?(?P<name>[A-Za-z0-9_.-]{1,80})(?(q)" + _QUOTE + r")"
            r"(?:[^\S\n]{0,3},?[^\S\n]{0,3}(?:(?:\r?\n|\\r?\\n)[^\S\n]{0,40}(?:-[^\S\n]{1,3})?)?"
            r"(?:" + _QUOTE + r")?(?:value|Value)(?:" + _QUOTE + r")?\s{0,3}[:=]\s{0,3}"
            r"|(?(q)\s{0,3}>|(?!)))"
            r"(?P<open>" + _QUOTE + r")?"
            r"(?P<value>(?(open)[^\"'\\\n<>]{1,500}|[^\s\"'`\\<>,;{}]{1,500}))"
        ),
        "value",
        _named_value,
        anchors=(
            "name:",
            'name":',
            "name':",
            'name\\"',
            "Name:",
            'Name":',
            "name=",
            "name =",
            'key="',
            "key='",
            'Key="',
            'key=\\"',
            'label":',
            'label\\"',
            "label:",
        ),
        at_anchors=True,
        needs=("value", "Value", "</"),
        kind_of=_named_value_kind,
    ),
    Rule(
        "secret",
        (
            r"(?P<keyword>(?i:" + _NAME_KEYWORD + r"))>(?P<value>[^<>\n\"'\\]{1,500})"
            r"</(?P<close>[A-Za-z0-9_.:-]{1,80})>"
        ),
        "value",
        _element,
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        needs=("</",),
        kind_of=_assigned_kind,
        gate=_KEYWORD_END + r">[^<>\n\"'\\]+</",
    ),
    # A table of names and values, one a line, as `vault kv get` and `vault read` print
    # them (`password    A1a-ckirty...`: spaces between, no `=` or `:`; REDACTION_VERSION
    # 20), and PowerShell's `Get-ChildItem env:`: a line of a name and its value alone, the
    # value generated, in a text that holds a table's rule of dashes under its header
    # (`---    -----`; tried at every keyword, the rule cost 7% of redact() on the real
    # corpus, and a line of two words alone is no table), or its header without the rule
    # (`Key         Value`: a table pasted without its rule, a tool that prints none;
    # REDACTION_VERSION 21).
    Rule(
        "secret",
        (
            # (REDACTION_VERSION 22: a box's cells, `│ NAME │ VALUE │` of `doppler secrets`;
            # one space after a name that fills its column, see _table_secret)
            r"(?P<keyword>(?i:" + _NAME_KEYWORD + r"))"
            r"(?P<gap>\t|[^\S\n]{1,40}|[^\S\n]{0,40}[│|][^\S\n]{0,40})"
            r"(?P<value>[^\s\"'`\\│]{8,200})(?=[^\S\n]*(?:(?P<border>[│|])|\n|\\{1,16}[rn]|\Z))"
        ),
        "value",
        _table_secret,
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        needs=("  -----", "\t-----", *_TABLE_HEADS, *_BOXED_HEADS),
        kind_of=_assigned_kind,
    ),
    Rule(
        "url-token",
        (
            r":(?:/{1,3}|\\{2,16})(?P<user>[A-Za-z0-9_-]{20,200})(?::x-oauth-basic)?"
            # (REDACTION_VERSION 36: or nothing after the `@`, the text's, its line's or a
            # quoted string's end: an Edit's fragment, `old_string: postgres://app:PW@`)
            r"@(?=[A-Za-z0-9\[]|[\"'`]|[^\S\n]*(?:\r?\n|\Z))"
        ),
        "user",
        _url_user_token,
        anchors=(":/", ":\\\\"),
    ),
    Rule(
        "token",
        (
            # (Discord's `Bot` and Okta's `SSWS` too: REDACTION_VERSION 20)
            r"(?i:authorization)(?:" + _QUOTE + r")?\s{0,3}[:=]\s{0,3}(?:" + _QUOTE + r")?"
            r"(?P<scheme>token|Token|TOKEN|Bot|BOT|bot|SSWS|ssws)"
            r"(?:(?:\s|\\t){1,10}|" + _CONCAT + r")"
            r"(?P<token>[A-Za-z0-9._~+/=-]{8,500})"
        ),
        "token",
        _authorization_token,
        anchors=("Authorization", "authorization", "AUTHORIZATION"),
        at_anchors=True,
        kind_of=lambda m: _SCHEME_KINDS[m.group("scheme").lower()],
    ),
    # Okta's scheme without its header (REDACTION_VERSION 21): `-H "SSWS 00..."` where the
    # header's name went elsewhere, a config's `okta_token: SSWS 00...`. `SSWS` names Okta's
    # scheme and nothing else, and its API token has one shape, `00` and 40 characters; a
    # `00...` without the scheme is any id's.
    Rule(
        "okta-token",
        (
            r"SSWS" + _alone(4) + r"(?:(?:\s|\\t){1,10}|" + _CONCAT + r")"
            r"(?P<token>00[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])"
        ),
        "token",
        anchors=("SSWS",),
        at_anchors=True,
    ),
    Rule(
        "private-key",
        "Private-Lines",
        anchors=("Private-Lines:",),
        needs=("PuTTY-User-Key-File-",),
        find=_putty_keys,
    ),
    Rule(
        "private-key",
        r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,1000}",
        check=_encoded_private_key,
        anchors=("LS0tLS1CRUdJTi",),
        extend=lambda m: _rest_of_value(m, _TOKEN_REST),
    ),
    Rule(
        "private-key",
        r"AGE-SECRET-KEY-1[0-9A-Z]{50,100}",
        anchors=("AGE-SECRET-KEY-1",),
    ),
    Rule(
        "api-key",
        (
            r"[?&](?P<param>key|auth|pwd|code)=(?P<value>[A-Za-z0-9+/_-]{6,500}={0,2})"
            r"(?![A-Za-z0-9+/_=.%-])"
        ),
        "value",
        _query_secret,
        anchors=("?key=", "&key=", "?auth=", "&auth=", "?pwd=", "&pwd=", "?code=", "&code="),
        at_anchors=True,
        kind_of=lambda m: _QUERY_KINDS[m.group("param")],
    ),
    # REDACTION_VERSION 14
    Rule(
        "secret",
        (
            r"(?P<keyword>SALT|[Ss]alt)(?P<quote>" + _QUOTES + r")?(?P<bracket>(?<=[\"'])\])?"
            r"\s{0,3}(?:=>|[:=])\s{0,3}(?P<open>" + _QUOTES + r")?"
            r"(?P<value>[A-Za-z0-9+/_=-]{16,500}+)"
        ),
        "value",
        _salt,
        anchors=("SALT", "Salt", "salt"),
        at_anchors=True,
    ),
    # Windows' `setx NAME VALUE` (`/M` for the machine's), PowerShell's and .NET's
    # `[Environment]::SetEnvironmentVariable("NAME", "VALUE", ...)`: judged as the value
    # given to NAME (see _named_value).
    Rule(
        "secret",
        (
            r"(?<![\w-])(?i:setx)[^\S\n]{1,10}(?:/[A-Za-z][^\S\n]{1,10})?"
            r"(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,80})[^\S\n]{1,10}(?P<open>" + _QUOTE + r")?"
            r"(?P<value>(?(open)[^\"'\\\n]{1,500}|[^\s\"'`\\]{1,500}))"
        ),
        "value",
        _named_value,
        anchors=("setx ", "SETX ", "Setx "),
        at_anchors=True,
        kind_of=_named_value_kind,
    ),
    Rule(
        "secret",
        (
            r"SetEnvironmentVariable\(\s{0,3}"
            + _QUOTE
            + r"(?P<name>[A-Za-z0-9_.-]{1,80})"
            + _QUOTE
            + r"\s{0,3},\s{0,3}(?P<open>"
            + _QUOTE
            + r")(?P<value>[^\"'\\\n]{1,500})"
        ),
        "value",
        _named_value,
        anchors=("SetEnvironmentVariable(",),
        at_anchors=True,
        kind_of=_named_value_kind,
    ),
    # `gh secret set NAME --body VALUE` (`-b VALUE`), its other options between.
    Rule(
        "secret",
        (
            r"gh secret set[^\S\n]{1,10}(?P<name>[A-Za-z_][A-Za-z0-9_]{0,100})"
            r"(?:[^\S\n][^\n|;&]{0,200}?)?[^\S\n](?:--body|-b)(?:[^\S\n]{1,10}|=|(?=[\"']))"
            r"(?P<open>" + _QUOTE + r")?"
            r"(?P<value>(?(open)[^\"'\\\n]{1,500}|[^\s\"'`\\;|&<>()]{1,500}))"
        ),
        "value",
        _stored_secret,
        anchors=("gh secret set",),
        at_anchors=True,
        kind_of=lambda m: _name_of_kind(m.group("name")) or "secret",
    ),
    Rule(
        "password",
        "--password-stdin",
        anchors=_READS_PASSWORD,
        find=_fed_passwords,
    ),
    # kubectl's `create secret generic NAME --from-literal=KEY=VALUE`.
    Rule(
        "secret",
        (
            r"--from-literal(?:=|[^\S\n]{1,10})(?P<q>" + _QUOTE + r")?"
            r"(?P<name>[A-Za-z0-9_.-]{1,80})=(?P<value>(?(q)[^\"'\\\n]{1,500}"
            r"|[^\s\"'`\\;|&<>()]{1,500}))"
        ),
        "value",
        _literal,
        anchors=("--from-literal",),
        at_anchors=True,
        kind_of=_literal_kind,
    ),
    Rule(
        "password",
        "pgpass",
        anchors=("pgpass", "PGPASS"),
        find=_pgpass_passwords,
    ),
    Rule(
        "token",
        "Digest",
        anchors=("Digest ",),
        find=_digest_responses,
    ),
    Rule(
        "api-key",
        (
            r"(?i:ocp-apim-subscription-key)(?:" + _QUOTE + r")?\s{0,3}[:=]\s{0,3}"
            r"(?:" + _QUOTE + r")?(?P<token>[A-Za-z0-9]{16,200})(?![A-Za-z0-9])"
        ),
        "token",
        _header_key,
        anchors=("Ocp-Apim-Subscription-Key", "ocp-apim-subscription-key"),
        at_anchors=True,
    ),
    # REDACTION_VERSION 16
    Rule(
        "password",
        "program options",
        anchors=tuple(program + " " for program in _PROGRAM_OPTION),
        find=_program_passwords,
    ),
    # sshpass's variable (`SSHPASS=PW sshpass -e ssh ...`, `export SSHPASS='PW'`)
    Rule(
        "password",
        (
            r"(?<![\w-])SSHPASS(?:\\{0,7}[\"'])?[^\S\n]{0,3}[=:][^\S\n]{0,3}(?:\\{0,7}[\"'])?"
            r"(?P<password>[^\s\"'`\\;|&<>()]{4,200})"
        ),
        "password",
        _command_password,
        anchors=("SSHPASS",),
        at_anchors=True,
    ),
    # REDACTION_VERSION 22
    Rule(
        "secret",
        "vault secrets",
        anchors=_VAULT_SECRET_IDS,
        find=_vault_secret_values,
    ),
    # REDACTION_VERSION 23
    Rule(
        "secret",
        "SecretString",
        anchors=("SecretString", "arn:aws:secretsmanager:"),
        find=_secret_strings,
    ),
    Rule("secret", "SecureString", anchors=("SecureString",), find=_secure_strings),
    # REDACTION_VERSION 30
    Rule("secret", "vault kv2", anchors=("metadata",), find=_kv2_values),
    Rule("secret", "terraform", anchors=("sensitive", "random_password"), find=_terraform_values),
    Rule(
        "secret",
        "secret stores",
        anchors=tuple(chain.from_iterable(anchors for anchors, *_ in _SECRET_STORES)),
        find=lambda text: _store_values(text, _SECRET_STORES),
    ),
    # REDACTION_VERSION 24
    Rule(
        "secret",
        "credential settings",
        anchors=tuple(chain.from_iterable(anchors for anchors, *_ in _CREDENTIAL_SETTINGS)),
        find=lambda text: _store_values(text, _CREDENTIAL_SETTINGS),
    ),
    Rule(
        "secret",
        "--password-stdin",
        anchors=_READS_SECRET,
        find=lambda text: _fed_passwords(text, _READS_SECRET),
    ),
    # REDACTION_VERSION 29
    Rule(
        "secret",
        "heredoc stores",
        anchors=_HEREDOC_STORES,
        needs=("<<",),
        find=_heredoc_store_values,
    ),
    Rule("secret", "block scalars", anchors=(": |", ": >", ":|", ":>"), find=_block_scalars),
    Rule("secret", ".env written", anchors=(".env",), find=lambda t: _written_env_values(t)),
    Rule(
        "password",
        _REDIS_SETTING,
        "password",
        _option_password,
        anchors=("requirepass", "REQUIREPASS", "masterauth", "MASTERAUTH"),
        at_anchors=True,
    ),
    Rule(
        "password",
        _REDIS_AUTH,
        "password",
        lambda m: not _name_before(m.string, m.start()) and _option_password(m),
        anchors=("AUTH ",),
        at_anchors=True,
        needs=_REDIS_NAMES,
    ),
    Rule("secret", "kind: Secret", anchors=("kind: Secret",), find=_kube_secret_values),
    Rule("secret", "Secret", anchors=("Secret",), needs=("kind",), find=_kube_json_secret_values),
    Rule(
        "password",
        _TYPED.pattern,
        "password",
        _typed_password,
        anchors=('chars":', 'chars\\":', "chars:"),
        at_anchors=True,
    ),
    # REDACTION_VERSION 28
    Rule(
        "token",
        _LABELLED,
        "value",
        _labelled_secret,
        anchors=tuple(_LABELS),
        at_anchors=True,
        kind_of=lambda m: _LABELS[m.group("label").rstrip(" 0123456789")],
    ),
    # REDACTION_VERSION 30: a variable a shell exports given a literal that looks generated,
    # under a name that says nothing of a secret (`export SIGNING=8f3Kq...; echo ok`, `+ export
    # DEPLOY_HOOK=...` of a `set -x` trace), as a `.env`'s line is read (see _env_values):
    # `export PORT=3000`, a path, a word, a UUID, and a run of hex digits (a commit's SHA, an
    # image's digest) stay. The rules read the other names by what they say (`DB_PASSWORD=`),
    # and this rule is the table's last: a name's own rule reads it first (`SSHPASS=`).
    Rule(
        "secret",
        (
            r"export(?<![\w.-]export)[^\S\n]+(?P<name>[A-Za-z_][A-Za-z0-9_]{0,100})=[\"']?"
            r"(?P<value>[A-Za-z0-9+/_=-]{16,1000})(?=[\s;&|)\"'\\]|\Z)"
        ),
        "value",
        lambda m: (
            _name_of_kind(m["name"]) is None
            and _generated(m["value"])
            and not _HEX.fullmatch(m["value"])
        ),
        anchors=("export",),
        at_anchors=True,
        searched=True,
        # (`export`, then a name given a value of 16 characters: `export` is in 9,161 texts of
        # the 200 MB corpus and ../shared/corpus/real, a module's `export default` mostly)
        gate=r"export[^A-Za-z0-9_\n]+[A-Za-z_][A-Za-z0-9_]*=[\"']?[A-Za-z0-9+/_=-]{16}",
    ),
    # REDACTION_VERSION 31: a secret named in a sentence by its kind (see _named_in_prose)
    Rule(
        "secret",
        _PROSE_KEYWORD,
        "token",
        _named_in_prose,
        tuple(_NAME_KEYWORD_ANCHORS),
        keyword=True,
        kind_of=_assigned_kind,
        gate=_PROSE_GATE,
    ),
    # REDACTION_VERSION 32: a short password named in a sentence (see _SHORT_PASSWORD)
    Rule(
        "password",
        _SHORT_PASSWORD,
        "value",
        _short_password,
        ("assw", "ASSW", "ssphrase", "SSPHRASE", "ecret", "ECRET"),
        keyword=True,
        kind_of=_assigned_kind,
    ),
    # REDACTION_VERSION 36: a passphrase's words apart (see _chosen_passphrase) or in an aside
    # (see _ASIDE), a login's `user / password` (see _LOGIN)
    Rule("password", _PHRASE, "value", _phrase, ("assw", "ASSW", "ssphrase", "SSPHRASE"), True),
    Rule("password", _ASIDE, "value", _aside, ("assw", "ASSW", "ssphrase", "SSPHRASE"), True),
    Rule(
        "password",
        _FOREIGN_PASSWORD,
        "value",
        _foreign_password,
        _FOREIGN_ANCHORS,
        at_anchors=True,
    ),
    Rule(
        "password",
        _LOGIN,
        "value",
        _login,
        (
            *("ogin", "OGIN", "og-in", "OG-IN", "og in", "OG IN"),
            *("ign in", "IGN IN", "ign-in", "IGN-IN"),
            *("creds", "Creds", "CREDS", "redential", "REDENTIAL"),
        ),
        keyword=True,
        gate=_LOGIN_GATE,
    ),
    # REDACTION_VERSION 38: a password given to a call (see _CREDENTIAL_CALL), to PowerShell's
    # ConvertTo-SecureString, to a DSL's `storePassword "PW"`, to Mongo's `pwd:`; a Wi-Fi key;
    # a password printed after the line that introduces it, sent by an expect script, told
    # after `pwd for X is`; a Google app password, a wallet's seed phrase
    Rule(
        "password",
        _CREDENTIAL_CALL,
        "value",
        _called_password,
        _CREDENTIAL_CALL_ANCHORS,
        at_anchors=True,
    ),
    Rule(
        "password",
        _SECURE_STRING,
        "value",
        _plain_secure_string,
        ("ConvertTo-SecureString", "convertto-securestring", "ConvertTo-Securestring"),
        at_anchors=True,
    ),
    Rule(
        "password",
        _DSL_PASSWORD,
        "value",
        _dsl_password,
        tuple(w + " " + q for w in ("assword", "ASSWORD", "asswd", "ASSWD") for q in "\"'"),
        at_anchors=True,
    ),
    Rule(
        "password",
        _MONGO_PWD,
        "value",
        _mongo_pwd,
        # (and as JSON text writes the key, `pwd\":`: the text is decoded where one is)
        ("pwd:", "pwd :", 'pwd":', "pwd':", 'pwd\\":'),
        at_anchors=True,
    ),
    Rule(
        "password",
        _PSK,
        "value",
        _psk,
        ("psk=", "psk =", "PSK=", "PSK =", "Psk="),
        at_anchors=True,
    ),
    Rule(
        "password",
        _PRINTED_PASSWORD,
        "value",
        _printed_password,
        ("assw", "ASSW"),
        at_anchors=True,
    ),
    Rule(
        "password",
        _EXPECT_SEND,
        "value",
        _sent_password,
        ('expect "', "expect {", "expect -"),
        at_anchors=True,
    ),
    Rule(
        "password",
        _ABBREVIATED_PASSWORD,
        "value",
        _short_password,
        _ABBREVIATED_ANCHORS,
        at_anchors=True,
    ),
    Rule("password", _APP_PASSWORD, "value", _app_password, _APP_PASSWORD_ANCHORS, at_anchors=True),
    Rule("secret", "seed phrase", anchors=_SEED_ANCHORS, find=_seed_phrases),
)

# An escape that hides from the rules the character it stands for: JSON's `\u0061` and
# `\/` (a model's JSON: `{"p\u0061ssword": ...}`, `"https:\/\/admin:pw@db"`), a hex escape
# (`\x41`), a URL's percent-escape (`?api_key%3D...`, `ghp%5F...`), and a terminal's colour
# code (`DB_PASSWORD=ESC[32m...`, written as `\u001b[32m`, `\033[32m` or `\e[32m` in a
# command), which starts a word as a space does. Any number of backslashes: the JSON of a
# JSON string escapes an escape's own backslash. And characters that hide one: an invisible
# one inside a token or a name (a zero-width space, joiner or non-joiner, a word joiner, a
# byte order mark, a soft hyphen: `ghp_abc<U+200B>def...`), read as nothing, and the
# full-width `＝` and `：` of an IME between a name and its value, read as `=` and `:`.
# (Its first character a class, then the rest looked behind: a search for the class is
# twenty times faster than one for the alternation, ~4 ns a character.)
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_FOLDED = {**dict.fromkeys(_INVISIBLE, ""), "\uff1a": ":", "\uff1d": "="}
_ESCAPE = lazy(
    r"[\x1b\\%" + "".join(_FOLDED) + r"]"
    r"(?:(?:(?<=\x1b)|(?<=\\)\\*(?:u001[bB]|x1[bB]|033|e))(?P<colour>\[[0-9;]{0,20}m)"
    r"|(?<=\\)\\*(?:u(?P<u>[0-9a-fA-F]{4})|x(?P<x>[0-9a-fA-F]{2})|(?P<slash>/))"
    r"|(?<=%)(?P<percent>[0-7][0-9a-fA-F])"
    r"|(?<=[" + "".join(_FOLDED) + r"])(?P<folded>))"
)
# Fixed strings without which a text holds none of those escapes, found in the scan for
# the rules' anchors (ANCHORS): a text that holds one is also redacted as it reads with
# its escapes decoded (_escaped_spans). Percent-escapes of ASCII only: `%C3%A9` is é.
ESCAPE_ANCHORS = frozenset(
    (
        "\\u",
        "\\x",
        "\\/",
        "\\033",
        "\\e[",
        "\x1b",
        *(f"%{d}" for d in "01234567"),
        *_FOLDED,
    )
)


# Every anchor of every rule and of an escape, found together in one pass over a text's
# bytes.
ANCHORS = tuple(
    dict.fromkeys(
        [*(a for rule in RULES for a in (*rule.anchors, *rule.needs)), *sorted(ESCAPE_ANCHORS)]
    )
)
# The rules' gates (Rule.gate), found in the same pass: a text's anchors (anchors_in) hold
# each gate it has a match of, by its pattern, when they hold an anchor of a rule. A gate
# alone, or with escapes alone, is dropped: the texts that hold an anchor, and what is done
# with them, are those that the anchors alone gave.
GATES = tuple(dict.fromkeys(rule.gate for rule in RULES if rule.gate))
# What the set finds, by its number: the anchors, then the gates.
_FOUND = ANCHORS + GATES
# The anchors that gate no rule, and the gates: a text that holds none but these holds no gate.
_NO_RULE = ESCAPE_ANCHORS.union(GATES)


# The rules each anchor gates, by their place in RULES (which is the order they run in):
# a text holds one or two anchors, and looking the rules up is cheaper than asking
# each of the ~40 whether it has one.
def _rules_of() -> dict[str, tuple[int, ...]]:
    # (each rule's anchors walked once: asking each rule of each anchor was 3.6 ms of every
    # import, the hook's too)
    rules_of: dict[str, tuple[int, ...]] = dict.fromkeys(_FOUND, ())
    for i, rule in enumerate(RULES):
        for anchor in dict.fromkeys(rule.anchors):
            rules_of[anchor] += (i,)
    return rules_of


_RULES_OF = _rules_of()


def _scanner() -> Any:
    """An RE2 set of every anchor, or None without google-re2."""
    if re2 is None:
        return None
    scanner = re2.Set.SearchSet()
    for anchor in ANCHORS:
        scanner.Add(re2.escape(anchor))
    for gate in GATES:
        scanner.Add(gate)
    scanner.Compile()
    return scanner


_SCANNER = _scanner()
# The set's own Match, past the wrapper's Python call (which only encodes a str and turns
# [] into None): most texts hold no anchor, and for them the call is most of redact()'s work.
_SCANNED: Any = None if _SCANNER is None else getattr(_SCANNER, "_set", _SCANNER).Match
_UNANCHORED = None if re2 is None else re2._re2.RE2.Anchor.UNANCHORED
# Texts shorter than this hold no secret any rule finds.
_MIN_LENGTH = 12
# ASCII texts shorter than this are scanned joined (see _holding_anchors).
_JOINED_MAX = 1000


def anchors_in(text: str) -> set[str]:
    """The ANCHORS that `text` holds, all found in one pass.

    Without google-re2 (installed with --no-deps where it has no wheel), a check per
    anchor finds the same, about three times slower.
    """
    if _SCANNER is None:
        present = {anchor for anchor in ANCHORS if anchor in text}
        if present and not present <= ESCAPE_ANCHORS:
            present.update(gate for gate in GATES if _compiled(gate).search(text))
        return present
    # Anchors are ASCII: the bytes of other characters (a lone surrogate too) are no part of one.
    return _present(_SCANNED(text.encode("utf-8", "surrogatepass")))


def _present(found: list[int]) -> set[str]:
    """The anchors and gates the set found (by their numbers in _FOUND), a gate only with an
    anchor of a rule (see GATES)."""
    present = {_FOUND[i] for i in found}
    if present <= _NO_RULE and not present.isdisjoint(GATES):
        return present.difference(GATES)
    return present


def redact_each(
    texts: Iterable[str | None], *, json: bool = False
) -> list[tuple[int, str, dict[str, int]]]:
    """redact() (redact_json() if `json`) of each of `texts` that holds a secret, in order:
    its index, its redacted text and how many of each kind. Empty and None texts are skipped.
    """
    return redact_columns([(list(texts), json)])[0]


def redact_columns(
    columns: Sequence[tuple[Sequence[str | None], bool]],
) -> list[list[tuple[int, str, dict[str, int]]]]:
    """redact_each() of each of `columns`, given as its texts and whether they are JSON.

    The build's way through a batch (pastfix.prepare): its columns are scanned as one
    list (_holding_anchors), and the rules run only on the texts that hold an anchor.
    """
    starts = list(accumulate((len(texts) for texts, _ in columns), initial=0))
    found: list[list[tuple[int, str, dict[str, int]]]] = [[] for _ in columns]
    texts = list(chain.from_iterable(texts for texts, _ in columns))
    for i, text, present in _holding_anchors(texts):
        c = bisect_right(starts, i) - 1
        redacted, kinds = (_redact_json if columns[c][1] else _redact)(text, present)
        if kinds:
            found[c].append((i - starts[c], redacted, kinds))
    return found


def _holding_anchors(texts: Sequence[str | None]) -> list[tuple[int, str, set[str]]]:
    """Each of `texts` that holds an anchor: its index, the text and the anchors, in order.

    Short ASCII texts (~80% of the texts, ~13% of the bytes) are scanned joined, by a
    search for the first anchor of what is left: a call to RE2 costs ~2,000
    instructions besides its bytes, as many as ~120 bytes of scan, and most texts hold
    no anchor. The text where one starts is scanned by the set whole, for all it holds
    (its gates too), and the search goes on from the next text. Longer ones are scanned
    one by one, without the copy into the joined buffer. The search's own DFA costs ~10M
    instructions to build in each process, so the joined scan pays on large builds only
    (fresh builds, both processes: 200 MB generated -144M instructions of 14.1G, 50 MB
    -22M of 4.56G, ../shared/corpus/real +22M of 5.10G).
    """
    if _SCANNER is None:
        return [
            (i, text, present)
            for i, text in enumerate(texts)
            if text and len(text) >= _MIN_LENGTH and (present := anchors_in(text))
        ]
    match = _SCANNED
    short: list[int] = []
    found: list[tuple[int, str, set[str]]] = []
    for i, text in enumerate(texts):
        if text and len(text) >= _MIN_LENGTH:
            if text.isascii():
                if len(text) < _JOINED_MAX:
                    short.append(i)
                    continue
                hits = match(text.encode())
            else:
                hits = _match_utf8(match, text)
            if hits and (present := _present(hits)):
                found.append((i, text, present))
    if short:
        found += _joined_hits(match, [texts[i] for i in short], short)  # type: ignore[misc]
        found.sort(key=itemgetter(0))
    return found


def _joined_hits(
    match: Callable[[Any], list[int]], texts: list[str], at: list[int]
) -> Iterator[tuple[int, str, set[str]]]:
    """_holding_anchors() of ASCII `texts`, whose indexes are `at`, scanned as one buffer.

    A NUL between two texts is no part of an anchor, so none is found across them.
    """
    joined = "\0".join(texts).encode()
    # Where each text ends in `joined` (a NUL after each but the last).
    ends = list(map(add, accumulate(map(len, texts)), count()))
    search = _first_anchor()
    view = memoryview(joined)
    pos, size = 0, len(joined)
    while pos < size:
        start = search(_UNANCHORED, joined, pos, size)[0][0]
        if start < 0:
            break
        k = bisect_right(ends, start)
        stop = ends[k]
        # (from the text's start: a gate's match may start before the first anchor,
        # `password` before its `assw`)
        yield at[k], texts[k], _present(match(view[stop - len(texts[k]) : stop]))
        pos = stop + 1


def _match_utf8(match: Callable[[Any], list[int]], text: str) -> list[int]:
    """The set's hits in a text that is not ASCII.

    It is scanned in the UTF-8 that msgspec's msgpack encoding of it holds after its
    header: that encoding leaves the UTF-8 cached in the str, where sqlite3 binds it from,
    so the text is encoded once, not twice (17 MB of the 200 MB corpus's tool output:
    ~180M instructions). The build has msgspec loaded already.
    """
    try:
        packed = _msgpack()(text)
        return match(memoryview(packed)[_MSGPACK_HEADER.get(packed[0], 1) :])
    except UnicodeEncodeError:
        # A lone surrogate. Anchors are ASCII: the bytes of other characters are no
        # part of one.
        return match(text.encode("utf-8", "surrogatepass"))


@functools.cache
def _msgpack() -> Callable[[Any], bytes]:
    """msgspec's msgpack encoder, imported once (an import statement is ~8,000 instructions)."""
    from msgspec.msgpack import encode

    return encode


@functools.cache
def _first_anchor() -> Callable[..., list[tuple[int, int]]]:
    """RE2's Match of an alternation of every anchor: where the first anchor of a text
    starts. The module's own search, past its wrapper, which maps offsets between str
    and UTF-8 for each call."""
    pattern = re2._re2.RE2("|".join(map(re2.escape, ANCHORS)).encode(), re2.Options())
    return pattern.Match


# The length of msgpack's header of a str by its first byte: str8, str16, str32 (a fixstr's
# is 1 byte).
_MSGPACK_HEADER = {0xD9: 2, 0xDA: 3, 0xDB: 5}


def redact(text: str) -> tuple[str, dict[str, int]]:
    """`text` with every secret replaced by its marker, and how many of each kind.

    Returns `text` itself and an empty dict when there is nothing to redact.
    """
    # (most texts hold no anchor: answered here, by the scan alone)
    if len(text) < _MIN_LENGTH or not (present := anchors_in(text)):
        return text, {}
    return _redact(text, present)


def _redact(text: str, present: set[str]) -> tuple[str, dict[str, int]]:
    """redact() of a text that holds the anchors `present`."""
    found: dict[str, int] = {}
    if not present:
        return text, found
    if present.isdisjoint(ESCAPE_ANCHORS):
        return _run_rules(text, present, found), found
    # A text with escapes: what the rules find as it is written and what they find in it
    # with its escapes decoded, both, a secret that both found in part replaced whole. As
    # written, a token that an escape splits (`xoxb-12\u00334...`) is cut at the escape;
    # decoded, a password that holds a percent-escaped delimiter (`-p3iwW%3CZz...`) is
    # cut at the delimiter.
    spans: list[tuple[int, int, str]] = []
    _run_rules(text, present, {}, spans)
    spans = _union(spans, _escaped_spans(text))
    if not spans:
        return text, found
    parts: list[str] = []
    done = 0
    for start, end, kind in spans:
        parts += (text[done:start], MARKER.format(kind))
        found[kind] = found.get(kind, 0) + 1
        done = end
    parts.append(text[done:])
    return "".join(parts), found


def _union(
    spans: list[tuple[int, int, str]], more: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """The spans that `spans` and `more` (each in order, none overlapping) cover, those
    that overlap joined, of the kind of the first."""
    joined: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(spans + more):
        if joined and start < joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]), joined[-1][2])
        else:
            joined.append((start, end, kind))
    return joined


def _run_rules(
    text: str,
    present: set[str],
    found: dict[str, int],
    replaced: list[tuple[int, int, str]] | None = None,
) -> str:
    """`text` with what the rules that `present` gates find replaced, in their order; with
    `replaced`, that list is set to the spans of `text` replaced (see _placed)."""
    starts: _Starts = {}
    if len(present) == 1:
        (anchor,) = present
        gated: Iterable[int] = _RULES_OF[anchor]
    else:
        gated = sorted({i for anchor in present for i in _RULES_OF[anchor]})
    for i in gated:
        rule = RULES[i]
        if rule.needs and present.isdisjoint(rule.needs):
            continue
        if rule.gate and rule.gate not in present:
            continue
        if replaced is None:
            text = _apply(rule, text, found, present, starts)
            continue
        spans: list[tuple[int, int, str]] = []
        text = _apply(rule, text, found, present, starts, spans)
        if spans:
            replaced[:] = _placed(replaced, spans)
    return text


def _marker_length(kind: str) -> int:
    return len(MARKER.format(kind))


def _placed(
    marks: list[tuple[int, int, str]], spans: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """The spans of the first text replaced once `spans` of the text the earlier
    replacements (`marks`, spans of the first text) made are replaced too: a marker a new
    span covers (part of) goes into it whole."""
    result: list[tuple[int, int, str]] = []
    k = 0
    # how much longer the text is than the first, by the markers before the one looked at
    grown = 0
    for start, end, kind in spans:
        # (in the current text, mark k starts at its start + grown and ends at that + its
        # marker's length)
        while k < len(marks) and marks[k][0] + grown + _marker_length(marks[k][2]) <= start:
            result.append(marks[k])
            grown += _marker_length(marks[k][2]) - (marks[k][1] - marks[k][0])
            k += 1
        if k < len(marks) and marks[k][0] + grown <= start:
            first = marks[k][0]  # the span starts inside a marker: it takes the marker's span
        else:
            first = start - grown
        last = end - grown
        while k < len(marks) and marks[k][0] + grown < end:
            mark_end = marks[k][0] + grown + _marker_length(marks[k][2])
            grown += _marker_length(marks[k][2]) - (marks[k][1] - marks[k][0])
            last = marks[k][1] if mark_end >= end else end - grown
            k += 1
        result.append((first, last, kind))
    result += marks[k:]
    return result


def _stand_in(m: re.Match[str]) -> str:
    """What an escape stands for: a character (a colour code: a space), or nothing (an
    invisible character, also when escaped: `\\u200b`; an escaped NUL, `\\u0000`)."""
    if m.lastgroup == "colour":
        return " "
    if m.lastgroup == "slash":
        return "/"
    if m.lastgroup == "folded":
        return _FOLDED[m.group()]
    decoded = chr(int(m.group(m.lastgroup), 16))  # type: ignore[arg-type]
    if decoded == "\x00":
        # UTF-16 text read as UTF-8 holds one after each character (`g\u0000h\u0000p\u0000_`
        # in a Write's input of a file a tool wrote so): a text is stored without them
        # (records.clean_text), but a tool call's input is JSON as the model wrote it, its
        # NULs escaped. Read as nothing, as an invisible character is; not an anchor of its
        # own, as _FOLDED's are (a raw NUL separates the texts of _joined_hits).
        return ""
    return _FOLDED.get(decoded, decoded)


# How far before an escape, and after it, the anchor of a match that the escape is part
# of may be: a rule reads at most 1,024 characters after its anchor (a token), the
# anchor may follow the escape (`\u0067hp_`, `p\u0061ssword`, `%5F`).
_BEFORE_ESCAPE = 1100
_AFTER_ESCAPE = 64


def _anchors_near(view: str, at: list[int]) -> set[str]:
    """The anchors of `view` that a match which holds one of the escapes at `at` (their
    positions in `view`) may start from; a PEM header anywhere, whose key has no bound.

    The rules as written found what the escapes are no part of: the view is redacted
    again only by the rules an escape may have hidden something from (most escapes, a
    colour code in a long log, are far from any anchor).
    """
    present = {"-----BEGIN"} if "-----BEGIN" in view else set()
    windows: list[list[int]] = []
    for p in at:
        if windows and p - _BEFORE_ESCAPE <= windows[-1][1]:
            windows[-1][1] = p + _AFTER_ESCAPE
        else:
            windows.append([max(0, p - _BEFORE_ESCAPE), p + _AFTER_ESCAPE])
    for start, end in windows:
        present |= anchors_in(view[start:end])
    if not present <= ESCAPE_ANCHORS:
        # (a gate's match may reach past a window: here no rule waits for its gate)
        present.update(GATES)
    return present


def _escaped_spans(text: str) -> list[tuple[int, int, str]]:
    """The spans of `text` that hold what the rules find in it once its escapes are
    decoded (_ESCAPE), with their kinds, in order.

    The text read with its escapes decoded (its view) holds each escape as the
    character it stands for; a secret the rules replace in the view spans the text
    from its first character (or escape) to its last, so that an escape is replaced
    whole or kept whole (JSON text stays valid).
    """
    parts: list[str] = []
    # For each escape: where its character is in the view (or the next character, for an
    # escape that stands for nothing), how many characters it stands for (1 or 0), and
    # where it starts and ends in `text`.
    at_view: list[int] = []
    widths: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    done = grown = 0
    for m in _ESCAPE.finditer(text):
        start, end = m.span()
        stand_in = _stand_in(m)
        parts += (text[done:start], stand_in)
        at_view.append(start + grown)
        widths.append(len(stand_in))
        starts.append(start)
        ends.append(end)
        grown -= end - start - len(stand_in)
        done = end
    if not parts:
        return []
    parts.append(text[done:])
    view = "".join(parts)
    present = _anchors_near(view, at_view)
    if present <= ESCAPE_ANCHORS:
        return []
    spans: list[tuple[int, int, str]] = []
    _run_rules(view, present, {}, spans)

    # (an escape that stands for nothing shares its place in the view with the escape or
    # character after it: the last escape at or before a place is the one looked up)
    def first(p: int) -> int:  # where the view's p-th character starts in `text`
        k = bisect_right(at_view, p) - 1
        if k < 0:
            return p
        if at_view[k] == p and widths[k]:
            return starts[k]
        return ends[k] + p - at_view[k] - widths[k]

    def after(p: int) -> int:  # where the view's p-th character ends in `text`
        k = bisect_right(at_view, p) - 1
        return ends[k] if k >= 0 and at_view[k] == p and widths[k] else first(p) + 1

    return [(first(start), after(end - 1), kind) for start, end, kind in spans]


def redact_json(text: str) -> tuple[str, dict[str, int]]:
    """JSON `text` (a tool call's input) redacted as the text it is; see redact().

    In JSON text a line break is the two characters `\\n` and a quote is `\\"`, so
    a token that starts a line of a file being written, or a password in an
    escaped JSON body, hides from rules made for text. When the text holds an
    anchor, the strings it holds are decoded and redacted, a string given to a
    name that ends in a keyword (`{"password": "..."}`) is judged as such, and
    the value is encoded again if anything changed; then the JSON text itself
    is redacted, for what spans several strings. Text that is not JSON is
    redacted as text. Most texts hold no anchor and are not decoded.
    """
    if len(text) < _MIN_LENGTH or not (present := anchors_in(text)):
        return text, {}
    return _redact_json(text, present)


def _redact_json(text: str, present: set[str]) -> tuple[str, dict[str, int]]:
    """redact_json() of a text that holds the anchors `present`."""
    found: dict[str, int] = {}
    if not present:
        return text, found
    if present <= ESCAPE_ANCHORS and anchors_in(_ESCAPE.sub(_stand_in, text)) <= ESCAPE_ANCHORS:
        return text, found  # escapes (`\u00e9`) that hide no anchor: nothing to decode
    # Imported here: the hook and `pastfix find` redact a pasted error with redact(),
    # and msgspec's import is ~15 ms of a hook's answer (the build has it loaded).
    import msgspec

    try:
        value = msgspec.json.decode(text)
        redacted = _redact_value(value, found)
        if found:
            text = msgspec.json.encode(redacted).decode()
            present = anchors_in(text)
    except (msgspec.DecodeError, msgspec.EncodeError, RecursionError, UnicodeEncodeError):
        found.clear()  # not JSON (a lone surrogate): redacted as text below
    text, more = _redact(text, present)
    for kind, n in more.items():
        found[kind] = found.get(kind, 0) + n
    return text, found


# A JSON key that ends in a keyword: `password`, `PGPASSWORD`, `x_api_token`.
_KEY_NAME = lazy(r"(?P<keyword>(?i:" + _NAME_KEYWORD + r"))$")


def _redact_value(value: Any, found: dict[str, int]) -> Any:
    """A decoded JSON value with each string in it redacted (see redact_json)."""
    if isinstance(value, str):
        text, kinds = redact(value)
        for kind, n in kinds.items():
            found[kind] = found.get(kind, 0) + n
        return text
    if isinstance(value, list):
        items = [_redact_value(item, found) for item in value]
        if len(items) > 1 and all(isinstance(item, str) for item in items):
            return _redact_argv(items, found)
        return items
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            key = _redact_value(key, found)
            item = _redact_value(item, found)
            if isinstance(item, str) and len(key) <= 2 * _NAME_MAX and "\n" not in item:
                named = _KEY_NAME.search(key)
                if named and len(item) <= 500 and _assigned_secret(key, item, quoted=True):
                    kind = _keyword_kind(named.group("keyword"))
                    found[kind] = found.get(kind, 0) + 1
                    item = MARKER.format(kind)
            result[key] = item
        return result
    return value


# How much of the arguments before one is read with it (a rule looks a few hundred
# characters back: `curl ... -u`).
_ARGV_CONTEXT = 400


def _redact_argv(items: list[str], found: dict[str, int]) -> list[str]:
    """A list of strings (a Codex `shell` call's argv: `["curl", "-u", "admin:pw", ...]`),
    each redacted already, with what the command they make says of each: a password is
    an argument only after the word that introduces it."""
    joined = " ".join(items)
    if len(joined) < _MIN_LENGTH or not (present := anchors_in(joined)):
        return items
    if not _redact(joined, present)[1]:
        return items  # the common case: nothing more, one pass
    result = list(items)
    for k in range(1, len(result)):
        head = " ".join(result[:k])[-_ARGV_CONTEXT:] + " "
        redacted, kinds = redact(head + result[k])
        if not kinds:
            continue
        # The secret is in this argument (what came before it unchanged), else it starts
        # in those before: then the argument goes whole.
        kind = next(iter(kinds))
        if redacted.startswith(head):
            result[k] = redacted[len(head) :]
        else:
            result[k] = MARKER.format(kind)
        for kind, n in kinds.items():
            found[kind] = found.get(kind, 0) + n
    return result


# Where the keywords of a text may start, by the anchors looked for, for the text
# they were found in: the two keyword rules with the same anchors share one search.
_Starts = dict[frozenset[str], tuple[str, list[int]]]


def _apply(
    rule: Rule,
    text: str,
    found: dict[str, int],
    present: set[str],
    starts: _Starts,
    replaced: list[tuple[int, int, str]] | None = None,
) -> str:
    parts: list[str] = []
    done = 0
    for start, end, kind in _hits(rule, text, present, starts):
        if start < done:
            continue
        # A value cut at its most characters inside a marker an earlier rule put there
        # (`curl -u a:<200 characters>[REDACTED:...]`) takes the marker whole: half of it
        # was left behind (`[REDACTED:password]n]`).
        # (the marker's start before `end`, its text may go past it: a value cut at
        # `[REDACT` of the last marker in it found the one before, and left `:kind]`)
        marked = text.rfind(_MARKED, start, end + len(_MARKED) - 1)
        if 0 <= marked < end and text.find("]", marked) >= end:
            end = text.find("]", marked) + 1
        parts.append(text[done:start])
        parts.append(MARKER.format(kind))
        done = end
        found[kind] = found.get(kind, 0) + 1
        if replaced is not None:
            replaced.append((start, end, kind))
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _hits(
    rule: Rule, text: str, present: set[str], starts: _Starts
) -> Iterator[tuple[int, int, str]]:
    """The spans `rule` replaces in `text`, and their kinds, by start (they may overlap)."""
    if rule.holds and _compiled(rule.holds).search(text) is None:
        return
    if rule.find is not None:
        for start, end in rule.find(text):
            yield start, end, rule.kind
        return
    pattern, group, check = _compiled(rule.pattern), rule.group, rule.check
    # Where the last long value judged no secret ends (see _at_keywords).
    judged = [0]
    if rule.keyword:
        anchors = frozenset(present.intersection(rule.anchors))
        known = starts.get(anchors)
        if known is None or known[0] is not text:
            known = starts[anchors] = (text, _keyword_starts(text, anchors))
        matches: Any = _at_keywords(pattern, text, known[1], group, judged)
    elif rule.searched:
        matches = _searched_matches(pattern, text, group, judged)
    elif rule.at_anchors:
        at = _anchor_starts(text, present.intersection(rule.anchors), rule.anchors)
        matches = _at_keywords(pattern, text, at, group, judged)
    else:
        matches = pattern.finditer(text)
    done = 0
    for m in matches:
        start, end = m.span(group)
        # A match inside the last one replaced is not checked (and would not be replaced).
        if start < done or (judged[0] and m.start() < judged[0]):
            continue
        if check is not None and not check(m):
            if end - start >= _LONG_VALUE:
                judged[0] = end
            continue
        if rule.extend is not None:
            end = rule.extend(m)
        done = end
        yield start, end, rule.kind_of(m) if rule.kind_of else rule.kind


# A value this long, judged no secret, is not judged again from a keyword inside it:
# the head of a run of value characters (500 of a keyword's value, 1,024 of a token) is
# what a rule reads after each keyword, so a text that repeats `password=` was read
# 500 times over (4.6 s for a megabyte; 0.2 s read once).
_LONG_VALUE = 500


def _in_marker(text: str, at: int) -> bool:
    """Whether text[at] is inside a marker: `[REDACTED:token]` names a kind, not a secret."""
    opened = text.rfind(_MARKED, max(0, at - 40), at)
    return opened >= 0 and "]" not in text[opened:at]


# A word that makes a key's name with `key` after a space (`API Key`, `secret key`).
_KEY_NAMED = lazy(rf"(?i:{_KEY_KINDS})$").search


def _keyword_starts(text: str, anchors: frozenset[str]) -> list[int]:
    """Where a keyword holding one of `anchors` may start in `text`, in order.

    The pattern is only tried there (see _KEYWORD_ANCHORS): a regex search would
    try its case-insensitive words at every position.
    """
    starts: set[int] = set()
    find = text.find
    for anchor in anchors:
        leads = _KEYWORD_LEADS[anchor]
        at = find(anchor)
        while at >= 0:
            if leads is _KEY_LEADS and (
                at == 0
                or (
                    not (text[at - 1].isalnum() or text[at - 1] in "_-")
                    and not (text[at - 1] == " " and _KEY_NAMED(text[max(0, at - 8) : at - 1]))
                )
            ):
                starts.add(at)  # a word of its own: `key`, not `api_key` or `API Key`
            elif at >= leads[-1]:
                starts.update(map(at.__sub__, leads))  # (in C: ~7 starts for each `key`)
            else:
                starts.update(at - lead for lead in leads if at >= lead)
            at = find(anchor, at + 1)
    if _MARKED in text:
        starts = {p for p in starts if not _in_marker(text, p)}
    return sorted(starts)


def _anchor_starts(text: str, anchors: Collection[str], among: tuple[str, ...] = ()) -> list[int]:
    """Each place where one of `anchors` occurs in `text`, in order.

    `anchors` are of the set `among` (a rule's): many of them (a Discord token's ninety
    heads, of which a long text of random words holds twenty) are found in one search
    for any of `among` (_searched_starts), not by a scan of the text for each.
    """
    if len(anchors) > _FINDS_MAX and among and _UNANCHORED is not None:
        return _searched_starts(text, anchors, among)
    starts: set[int] = set()
    for anchor in anchors:
        at = text.find(anchor)
        while at >= 0:
            starts.add(at)
            at = text.find(anchor, at + 1)
    return sorted(starts)


# More anchors than this are found by one search (_searched_starts): a scan of a text for
# one costs ~2 instructions a character, RE2's search for any of a set ~20 a byte.
_FINDS_MAX = 10


def _searched_starts(text: str, anchors: Collection[str], among: tuple[str, ...]) -> list[int]:
    """_anchor_starts() by an RE2 search for the first of `among` from each place on: each
    place where one of `among` starts is found, and kept if one of `anchors` does."""
    search = _any_anchor(among)
    data = text.encode("utf-8", "surrogatepass")
    lengths = {len(anchor) for anchor in anchors}
    starts: list[int] = []
    # Where the search is, in `data` and in `text` (anchors are ASCII: a byte of another
    # character is no part of one, and a place found is a character's start).
    pos = at = done = 0
    size = len(data)
    ascii = size == len(text)
    while True:
        found = search(_UNANCHORED, data, pos, size)[0][0]
        if found < 0:
            return starts
        if ascii:
            at = found
        else:
            at += len(data[done:found].decode("utf-8", "surrogatepass"))
            done = found
        if any(text[at : at + n] in anchors for n in lengths):
            starts.append(at)
        pos = found + 1


@functools.cache
def _any_anchor(anchors: tuple[str, ...]) -> Callable[..., list[tuple[int, int]]]:
    """RE2's Match of an alternation of `anchors` (see _first_anchor)."""
    pattern = re2._re2.RE2("|".join(map(re2.escape, anchors)).encode(), re2.Options())
    return pattern.Match


def _at_keywords(
    pattern: re.Pattern[str], text: str, starts: list[int], group: int | str, judged: list[int]
) -> Iterator[re.Match[str]]:
    """The matches of `pattern` at `starts` (see _keyword_starts), by position of their
    secret; a start before judged[0] (the end of a long value that the caller judged no
    secret, see _LONG_VALUE) is not tried.

    A secret follows its match's start, so a match whose secret starts no later than
    the next start is in its place: matches wait in a heap until then.
    """
    waiting: list[tuple[int, int, re.Match[str]]] = []
    match = pattern.match
    for at in starts:
        while waiting and waiting[0][0] <= at:
            yield heappop(waiting)[2]
        if at < judged[0]:
            continue
        m = match(text, at)
        if m is not None:
            heappush(waiting, (m.start(group), at, m))
    while waiting:
        yield heappop(waiting)[2]


def _searched_matches(
    pattern: re.Pattern[str], text: str, group: int | str, judged: list[int]
) -> Iterator[re.Match[str]]:
    """_at_keywords() of a `searched` rule: the same matches, in the same order, each
    place where the pattern matches found by its search from the place after the last.

    A pattern that starts with its anchor matches only where the anchor does, so these
    are the places _at_keywords tries that match; the ones that do not cost no Python call.
    `export` is in 8,066 texts of the 200 MB corpus, 53,536 times, a module's mostly (`export
    default`): a scan of them for it and a match at each were 435M instructions, this
    search 267M.
    """
    waiting: list[tuple[int, int, re.Match[str]]] = []
    search = pattern.search
    pos = 0
    while (m := search(text, pos)) is not None:
        at = pos = m.start()
        pos += 1
        while waiting and waiting[0][0] <= at:
            yield heappop(waiting)[2]
        if at < judged[0]:
            continue
        heappush(waiting, (m.start(group), at, m))
    while waiting:
        yield heappop(waiting)[2]


# -- A secret a command prints alone ------------------------------------------------------
#
# REDACTION_VERSION 26 (session 36): `vault kv get -field=password secret/db` prints the
# password and nothing else, with no name before it and often no shape a rule knows
# (`hunter2`, a UUID as Heroku's older tokens are); the rules above see the output alone
# and kept it. So a shell call whose command is one that prints a secret (_PRINTERS) has
# the lines of its result that are a value alone replaced (redact_printed): the call's
# command says what they are. pastfix.prepare links each result to its call's command.
#
# REDACTION_VERSION 27 (session 36): a credentials file shown whole names no file either:
# `cat ~/.pgpass` prints `host:port:db:user:PW` lines, which the rule of the format reads
# only in a text that names `pgpass` (_pgpass_passwords), and a Read of ~/.netrc puts its
# `     3→` before the `password PW` of an entry's third line, which the rule of an entry
# read from its `machine` no longer reaches. So the command that shows such a file (a row
# of _PRINTERS too: `cat`, `head`, `sed -n`, `type`, `Get-Content` of it), or a read tool
# given its path (printed_secret_kind's `path`), says that its result is that file, and the
# file's format finds its secrets there (_FILE_FORMATS).

# The commands that print a secret alone, each a regex of its words and a kind: a secret
# store's CLI given one value to print (vault's `-field`, kubectl's jsonpath or
# go-template, `op read`, macOS's `security ... -w`), a CLI printing its login's token,
# `openssl rand` (a key made to be used: `JWT_SECRET=` is what the session writes next),
# and a variable printed alone whose name says it holds a secret (`echo "$DB_PASSWORD"`,
# `printenv API_TOKEN`, PowerShell's `$env:API_KEY`). A kind of None is that of the name
# its `name` group holds (see _name_of_kind), which must name a secret: `aws configure get
# region`, `echo $PATH` and `printenv HOME` print none. A store's command that prints more
# than the value (vault's table, kubectl's YAML) prints it on a line with its name, which
# the rules above read; its other lines are no value alone (below). Stores of settings
# where the value is as often no secret (`aws ssm get-parameter` of a `String`, `doppler
# secrets get` without `--plain`, an `op item get` of the whole item) need the option
# that prints a secret.
_OPTIONS_AHEAD = r"(?=[^;&|\n]{0,300}"
_VARIABLE = r"[A-Za-z_][A-Za-z0-9_]{0,100}"
_PRINTERS: tuple[tuple[str, str | None], ...] = (
    (r"vault\s+(?:kv\s+get|read)\b", "secret"),
    (r"(?:kubectl|oc)\s+get\s+secrets?\b", "secret"),
    (r"aws\s+secretsmanager\s+get-secret-value\b", "secret"),
    (r"aws\s+ssm\s+get-parameters?\b" + _OPTIONS_AHEAD + r"--with-decryption)", "secret"),
    (r"aws\s+configure\s+get\s+(?:--profile[= ]\S+\s+)?(?P<name>[\w.-]{1,100})", None),
    (r"az\s+keyvault\s+secret\s+show\b", "secret"),
    (r"az\s+account\s+get-access-token\b", "token"),
    (r"gcloud\s+secrets\s+versions\s+access\b", "secret"),
    (r"gcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b", "token"),
    (r"op\s+read\b", "secret"),
    (r"op\s+item\s+get\b" + _OPTIONS_AHEAD + r"--fields?[\s=])", "secret"),
    (
        r"security\s+find-(?:generic|internet)-password\b" + _OPTIONS_AHEAD + r"\s-w(?!\S))",
        "password",
    ),
    (r"(?:pass|gopass)\s+(?:show|cat)\b", "password"),
    (r"secret-tool\s+lookup\b", "secret"),
    (r"doppler\s+secrets\s+get\b" + _OPTIONS_AHEAD + r"--plain)", "secret"),
    (r"heroku\s+auth:token\b", "token"),
    (r"heroku\s+config:get\s+(?P<name>[\w.-]{1,100})", None),
    (r"gh\s+auth\s+token\b", "token"),
    # REDACTION_VERSION 34: a registry's login password (Amazon ECR's, a token for 12 hours,
    # printed when not piped to `docker login`) and 1Password's session token
    (r"aws\s+ecr(?:-public)?\s+get-login-password\b", "token"),
    (r"op\s+signin\b" + _OPTIONS_AHEAD + r"--raw)", "token"),
    (r"openssl\s+rand\b", "secret"),
    # (`echo $X`, `echo -n "${X}"`, `printf '%s\n' "$X"`: the variable is all it prints)
    (
        r"(?:echo(?:\s+-[neE]{1,3})?|printf(?:\s+(?P<q>[\"'])%s(?:\\n)?(?P=q))?)\s+"
        r"(?P<o>\"?)\$(?P<b>\{)?(?P<name>" + _VARIABLE + r")(?(b)\}|\b(?!:))(?P=o)",
        None,
    ),
    (r"printenv\s+(?P<name>" + _VARIABLE + r")\b", None),
    # REDACTION_VERSION 28: an infrastructure tool's output or setting by its name (`terraform
    # output -raw db_password`, `pulumi config get dbPassword`: `instance_ip` prints none), and
    # the password managers' and secret stores' other CLIs given one value to print
    (r"(?:terraform|tofu|terragrunt)\s+output\s+-raw\s+(?P<name>[\w.-]{1,100})", None),
    (r"pulumi\s+config\s+get\s+(?P<name>[\w.:-]{1,100})", None),
    (
        r"pulumi\s+stack\s+output\s+(?P<name>[\w.-]{1,100})" + _OPTIONS_AHEAD + r"--show-secrets)",
        None,
    ),
    (r"bw\s+get\s+(?:password|totp|notes)\b", "password"),
    (r"lpass\s+show\b" + _OPTIONS_AHEAD + r"--password)", "password"),
    (r"infisical\s+secrets\s+get\b" + _OPTIONS_AHEAD + r"--plain)", "secret"),
    (r"chamber\s+read\b" + _OPTIONS_AHEAD + r"\s-q(?!\S))", "secret"),
    # REDACTION_VERSION 29: a secrets file decrypted to the terminal (`sops -d secrets.yaml`,
    # `sops decrypt x.env`, `ansible-vault view vault.yml`), whose values are secrets
    # whatever their names (see _decrypted_values)
    (r"sops(?:\s+decrypt\b|" + _OPTIONS_AHEAD + r"\s(?:-d|--decrypt)(?!\S)))", "decrypted"),
    (
        r"ansible-vault\s+(?:view\b|decrypt\b" + _OPTIONS_AHEAD + r"--output[= ]-(?!\S)))",
        "decrypted",
    ),
    (
        r"(?:(?:echo|Write-Output|Write-Host)\s+)?(?P<o>\"?)\$env:(?P<name>"
        + _VARIABLE
        + r")\b(?P=o)",
        None,
    ),
)
# The credentials files whose text is redacted by their format when a call shows them
# (_FILE_FORMATS), each a regex of its file's name: PostgreSQL's `.pgpass` (`pgpass.conf` on
# Windows), a `.netrc` (`_netrc` on Windows), a `.env` (`.env.local`, `.env.production`;
# `.envrc` is none). The other credentials files (`~/.aws/credentials`, `~/.docker/config.json`,
# `.npmrc`, `.pypirc`, `~/.kube/config`, `~/.git-credentials`) name each secret as the rules
# above read it wherever it is shown, and need no row.
# REDACTION_VERSION 28: a backup of one (`.pgpass.bak`, `.netrc~`, `pgpass.conf.orig`), a
# `.env` of several parts (`.env.development.local`); and a file that holds a secret alone,
# shown whole (not grep's or sed's lines of it): one in Docker's and Kubernetes' secrets
# mount (`/run/secrets/db_password`), or named by a keyword with no extension but `.txt`
# (`~/.vault-token`, k3s's `node-token`, `api_key.txt`; not `token.go`), its lines that are
# a value alone redacted as a printer's (see redact_printed).
_BACKUP = r"(?:\.(?:bak|backup|orig|old|save|prev|[0-9])|~)?"
_CREDENTIAL_FILES: tuple[tuple[str, str], ...] = (
    ("pgpass", r"(?:\.pgpass|pgpass\.conf)" + _BACKUP),
    ("netrc", r"[._]netrc" + _BACKUP),
    ("env", r"\.env(?:\.[\w-]{1,40}){0,3}" + _BACKUP),
    ("rclone", r"\.?rclone\.conf" + _BACKUP),
    ("ini", r"(?:\.pypirc|\.?my\.cnf)" + _BACKUP),
    (
        "secret",
        r"(?:[\w.-]{0,60}[_.-])?(?i:password|passwd|token|secret|api[_-]?key)(?:\.txt)?"
        r"|run/secrets/[\w.-]{1,100}",
    ),
)
# The viewers of a file alone: what shows it whole.
_WHOLE_VIEWER = r"(?:cat|tac|nl|head|tail|less|more|bat|batcat|type|Get-Content|gc)"
# A command that shows a file as it is, or its lines (`sed -n 1,5p`, `grep -v '^#'`, cmd's
# `type`, PowerShell's `Get-Content`/`gc`), then its options and paths up to the file's name
# (at most _VIEW_GAP characters, no redirection: `cat > ~/.pgpass <<EOF` writes it).
_VIEW_GAP = 300
_VIEWER = r"(?:cat|tac|nl|head|tail|less|more|bat|batcat|sed|awk|grep|rg|type|Get-Content|gc)"
_PRINTERS += tuple(
    (
        (_WHOLE_VIEWER if fmt == "secret" else _VIEWER)
        + rf"\s(?:[^;&|\n<>]{{0,{_VIEW_GAP}}}?[\s/\\\"'=])??(?:{name})[\"']?(?![\w.-])",
        fmt,
    )
    for fmt, name in _CREDENTIAL_FILES
)
# A read tool's path of such a file: its last part.
_CREDENTIAL_PATH = lazy(
    r"(?:\A|[/\\])(?:" + "|".join(f"(?P<{fmt}>{name})" for fmt, name in _CREDENTIAL_FILES) + r")\Z"
)
# One pattern of them all, each row a group `r<n>` (its names numbered to stay apart): a
# command is searched once. A row must stand where a command starts (_PRINTER_LEAD), not in
# a message or an argument (`git commit -m "add vault kv get"`).
# The rows that show a credentials file are a pattern of their own (_VIEWS), tried only on a
# command that holds a file's name: their first words (`cat`, `grep`) are in one command
# of ten, and at each position of every command _PRINTER tries (a build's cost: 0.72 s
# against 0.51 s for the real corpus's calls x100 when they were one pattern).
_FIRST_VIEW = len(_PRINTERS) - len(_CREDENTIAL_FILES)


# A group's name in a row, where _rows_pattern numbers it.
_GROUP_NAME = lazy(r"\(\?(P<|P=|\()(\w+)")


def _rows_pattern(rows: range) -> re.Pattern[str]:
    return lazy(
        r"(?<![\w.$/-])(?:"
        + "|".join(
            f"(?P<r{n}>" + _GROUP_NAME.sub(rf"(?\g<1>\g<2>{n}", row) + ")"
            for n, (row, _) in zip(rows, _PRINTERS[rows.start : rows.stop], strict=True)
        )
        + ")"
    )


_PRINTER = _rows_pattern(range(_FIRST_VIEW))
_VIEWS = _rows_pattern(range(_FIRST_VIEW, len(_PRINTERS)))
# What each file name of _CREDENTIAL_FILES holds, looked for first.
_FILE_NAMES = (
    "pgpass",
    "netrc",
    ".env",
    "rclone",
    "pypirc",
    "my.cnf",
    "assw",
    "oken",
    "OKEN",
    "ecret",
    "ECRET",
    "_key",
    "-key",
)


def _names_file(text: str) -> bool:
    """Whether `text` holds a name of _FILE_NAMES (str's find: ~0.4 µs for a command of the
    real corpus, a third of a regex's)."""
    for name in _FILE_NAMES:
        if name in text:
            return True
    return False


# Where a command starts, read back from a printer: a separator or a group's opening (not
# `$(`, whose output the command takes), then what may stand before a command's name
# (`sudo`, `env`, `VAULT_ADDR=... `, `then`).
# The first words of the rows, searched first: most commands hold none, and this literal
# search is a sixth of the time of _PRINTER's (~15 ns a character of commands, whose
# lookbehind is tried at each). `$env:` may follow `Write-Output "` (at most 16 before it).
_PRINTER_WORDS = lazy(
    r"(?:vault|kubectl|oc|aws|az|gcloud|op|security|pass|secret-tool|doppler|heroku|gh|openssl"
    r"|echo|printf|printenv|terraform|tofu|terragrunt|pulumi|bw|lpass|infisical|chamber|sops"
    r"|ansible-vault)\s|\$env:"
)
_PRINTER_LEAD = lazy(
    r"(?:\A|[;&|\n{`]|(?<!\$)\()[^\S\n]*(?:(?:sudo|env|command|exec|time|then|do|else|!)"
    r"(?:[^\S\n]+-[^\s;&|]{1,40})*[^\S\n]+|[A-Za-z_]\w{0,100}=[^\s;&|]{0,300}[^\S\n]+"
    # (REDACTION_VERSION 28: a container's command, `docker exec app cat /run/secrets/x`,
    # `kubectl exec pod -- cat ...`)
    r"|(?:docker|podman)[^\S\n]+exec(?:[^\S\n]+-[^\s;&|]{1,40})*[^\S\n]+[\w.-]{1,100}[^\S\n]+"
    r"|kubectl[^\S\n]+exec[^;&|\n]{0,200}?[^\S\n]--[^\S\n]+){0,6}\Z"
)
_LEAD_MAX = 400


def _at_command_start(command: str, at: int) -> bool:
    """Whether what starts at `at` in `command` stands where a command starts (see
    _PRINTER_LEAD), looked for from the last `;`, `&`, `|` or line break before it: no lead
    holds one but as its first character (a search of _LEAD_MAX characters for each of 25,000
    `echo $A;` was 0.7 s for 180 KB)."""
    lo = max(0, at - _LEAD_MAX)
    lo = max(lo, *(command.rfind(c, lo, at) for c in ";&|\n"))
    return _PRINTER_LEAD.search(command, lo, at) is not None


# The words of a command after its printer: a redirection, a separator, a quoted or bare
# word (quotes whole: a go-template's `{{.data.password | base64decode}}` is one word). A
# backslash at a line's end continues the command on the next line, as spaces between words
# or inside quotes (`echo "Deploying with \` then `token $TOKEN"`, a wrapped command:
# REDACTION_VERSION 31), where the shell reads it as nothing.
_SHELL_TOKEN = lazy(
    r"(?:[^\S\n]|\\\r?\n)+|&>>?|\d{0,2}>>?&?\d{0,2}-?|\d{0,2}<{1,3}|\|\||&&|[|;&\n()`]"
    r"|(?:'[^']*'|\"(?:[^\"\\]|\\[\s\S])*\"|\\.|[^\s'\"\\|;&<>()`])+|."
)
# A token of _SHELL_TOKEN's between words: spaces, a line's continuation.
_BLANK = lazy(r"(?:[^\S\n]|\\\r?\n)+")
# What a printer's output may go through and still be the value alone (`| base64 -d`,
# `| tr -d '\n'`, `| jq -r .password`); through any other command (`| wc -c`, `| pbcopy`,
# `| sha256sum`) it is that command's output.
_PASSES_VALUE = frozenset(
    ("base64", "tr", "head", "tail", "cut", "jq", "yq", "sed", "awk", "grep", "cat", "tee")
    + ("xargs", "xxd", "sort", "uniq", "rev", "openssl", "Select-Object", "Out-String")
)
_TAIL_MAX = 400


def _printed_alone(command: str, at: int) -> bool:
    """Whether what the printer that ends at `at` prints is the command's output: its stage
    is not given a redirection of its output to a file (`> pw.txt`), and the stages piped
    after it pass a value through (_PASSES_VALUE). Read to its command's end, at most
    _TAIL_MAX characters."""
    piped = redirected = skip = False
    for m in _SHELL_TOKEN.finditer(command, at, min(len(command), at + _TAIL_MAX)):
        token = m.group()
        if _BLANK.fullmatch(token):
            continue
        if redirected:  # the file its output goes to
            return False
        if skip:  # the file of its input or its errors
            skip = False
            continue
        if piped:
            piped = False
            if token.rsplit("/", 1)[-1] not in _PASSES_VALUE:
                return False
            continue
        if token == "|":
            piped = True
        elif token in (";", "&&", "||", "\n", ")", "`", "&"):
            return True
        elif token[0] == "&" and ">" in token:
            return False  # `&> out.txt`: both streams to a file
        elif "<" in token or ">" in token and token[0] == "2":
            # its input, or its errors: `2>/dev/null` (a word to pass), `2>&1` (none)
            skip = not token[-1].isdigit() and not token.endswith("-")
        elif ">" in token:
            if token[-1].isdigit() or token.endswith("-"):
                continue  # `>&2`, `1>&2`: to the terminal still
            redirected = True
    return True


def printed_secret_kind(command: str | None, path: str | None = None) -> Told | None:
    """What a call's result is, when it is a secret alone or a credentials file: the kind of
    the secret `command` prints alone, or the format of the credentials file it shows (a row
    of _PRINTERS standing where a command starts, its output not taken elsewhere), or the
    format of the credentials file at `path`, a read tool's; else None."""
    if path and _names_file(path):
        named = _CREDENTIAL_PATH.search(path)
        if named is not None:
            return named.lastgroup
    if not command:
        return None
    first = _PRINTER_WORDS.search(command)
    told: Told | None = None
    if first is not None:
        told = _told(_PRINTER, command, max(0, first.start() - 16))
        if told is None and "$" in command:
            told = _printed_sentence(command)
    if told is None and _names_file(command):
        # (a credentials file's name, looked for rather than the command that shows it)
        told = _told(_VIEWS, command, 0)
    return told


def _told(rows: re.Pattern[str], command: str, start: int) -> str | None:
    """What the first of `rows` (_PRINTER or _VIEWS) found in `command` from `start` that
    stands where a command starts, and whose output is not taken elsewhere, says."""
    for m in rows.finditer(command, start):
        n = int(next(name for name, value in m.groupdict().items() if value and name[0] == "r")[1:])
        kind = _PRINTERS[n][1]
        if kind is None:
            name = m.group(f"name{n}")
            kind = _name_of_kind(name) or _assigned_printed(command, name, m.start())
            if kind is None:
                continue
        if not _at_command_start(command, m.start()):
            continue
        if _printed_alone(command, m.end()):
            return kind
    return None


# REDACTION_VERSION 28: a variable given a printer's output earlier in the command (`T=$(vault
# kv get -field=token x); echo $T`, `export PW=$(op read op://v/i/p) && echo "$PW"`), whatever
# its name: the assignment's `$(`, the substitution read to its `)` (at most _LEAD_MAX).
_SUBSTITUTION_END = lazy(r"[()]")


def _assigned_printed(command: str, name: str, before: int) -> str | None:
    """The kind of what the printer whose output `name` was given last before `before` in
    `command` prints, if one was (see _told); else None."""
    lo = max(0, before - 4 * _LEAD_MAX)
    assigned = command.rfind(name + "=$(", lo, before)
    if (
        assigned < 0
        or assigned
        and (command[assigned - 1].isalnum() or command[assigned - 1] in "_$.-")
    ):
        return None
    start = assigned + len(name) + 3
    depth, at, hi = 1, start, min(before, start + _LEAD_MAX)
    for paren in _SUBSTITUTION_END.finditer(command, at, hi):
        depth += 1 if paren.group() == "(" else -1
        if depth == 0:
            inner = command[at : paren.start()]
            first = _PRINTER_WORDS.search(inner)
            return None if first is None else _told(_PRINTER, inner, max(0, first.start() - 16))
    return None


# REDACTION_VERSION 29: a secret printed inside a sentence (`echo "token is $GITHUB_TOKEN"`,
# `printf 'pw=%s\n' "$DB_PASSWORD"`, `echo "Using ${STRIPE_KEY} for $ENV"`): the printed
# text's template is read from the `echo`'s or `printf`'s arguments (their literal text, and
# a hole for each variable: a secret's when its name says it holds one or a printer gave it
# to it, see _assigned_printed), and in the output what stands between the literal pieces
# around a secret's hole, one word, is replaced (_sentence_values). A variable printed alone
# is _PRINTERS' (`echo "$TOKEN"`); a part of one (`${TOKEN:0:4}`, `${#TOKEN}`) is no hole of a
# secret.
_HOLE = "\x00"
_OTHER = "\x01"


class Sentence(NamedTuple):
    """What a call prints a secret inside: the secret's kind, and the lines of the printed
    text, literal but for _HOLE where a secret stands and _OTHER where another value does."""

    kind: str
    template: str


# What a call's result is told to be by its command (see printed_secret_kind).
Told = str | Sentence
# (at most this many sentences of a command: each is looked for on every line of its output)
_SENTENCES_MAX = 16
_SENTENCE_PRINTER = lazy(r"(?<![\w.$/-])(?:echo|printf)[^\S\n]+")
# A variable's value in a word (`$X`, `${X}`, `${X:-default}`), any other expansion
# (`${#X}`, `${X:0:4}`, `$1`, `$(cmd)`, a backtick's), an escaped character, or text.
_EXPANSION = lazy(
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]{0,100})(?P<default>:?-[^}]{0,100})?\}"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]{0,100})|\{[^}]{0,200}\}|\((?:[^()]|\([^()]*\))*\)|.?)"
    r"|`[^`]*`?|\\(?P<escaped>.)|(?P<text>[^$`\\]+)",
    re.DOTALL,
)
# A shell word's parts: single-quoted, double-quoted, bare.
_SHELL_QUOTED = lazy(r"'(?P<single>[^']*)'?|\"(?P<double>(?:[^\"\\]|\\.)*)\"?|(?P<bare>[^'\"]+)")
# printf's format: a conversion, an escape, text.
_FORMAT = lazy(r"%(?P<spec>%|[-+ #0]{0,5}\d{0,3}(?:\.\d{1,3})?[a-zA-Z])|\\(?P<escape>.)|[^%\\]+")
_ESCAPES = {"n": "\n", "t": "\t", "r": "", "\\": "\\", '"': '"', "'": "'"}
_SENTENCE_HOLES = lazy(r"([\x00\x01]+)")
_LINE_START = lazy(r"(?m)^(?=.)")
_ECHO_OPTION = lazy(r"-[neE]{1,3}")
_ECHO_ESCAPE = lazy(r"\\(.)")


def _expanded(word: str, command: str, at: int, kinds: list[str]) -> str:
    """The template of a shell word as it prints: its quotes gone, each variable a hole
    (_HOLE for one that holds a secret, whose kind is added to `kinds`)."""
    parts: list[str] = []
    for quoted in _SHELL_QUOTED.finditer(word):
        if quoted["single"] is not None:
            parts.append(quoted["single"])
            continue
        inner = quoted["double"] if quoted["double"] is not None else quoted["bare"]
        for m in _EXPANSION.finditer(inner):
            name = m["braced"] or m["name"]
            if m["text"] is not None:
                parts.append(m["text"])
            elif m["escaped"] == "\n":
                pass  # a line's continuation (see _SHELL_TOKEN): the shell prints nothing
            elif m["escaped"] is not None:
                # (in quotes a backslash escapes only these: `\t` stays for printf or echo -e)
                parts.append(m["escaped"] if m["escaped"] in '$`"\\\n' else m[0])
            elif name:
                kind = _name_of_kind(name) or _assigned_printed(command, name, at)
                if kind is not None:
                    kinds.append(kind)
                parts.append(_OTHER if kind is None else _HOLE)
            else:
                parts.append(_OTHER)
    return "".join(parts)


def _printed_template(command: str, start: int, words: list[str]) -> tuple[str, list[str]]:
    """The template of what `echo` or `printf` (the word at `start`, its arguments `words`)
    prints, and the kinds of the secrets in it."""
    kinds: list[str] = []
    if command.startswith("echo", start):
        escapes = False
        while words and _ECHO_OPTION.fullmatch(words[0]):
            escapes = escapes or "e" in words.pop(0)
        text = " ".join(_expanded(w, command, start, kinds) for w in words)
        if escapes:
            text = _ECHO_ESCAPE.sub(lambda m: _ESCAPES.get(m[1], m[0]), text)
        return text, kinds
    if not words or words[0].startswith("-"):
        return "", []  # (`printf -v NAME`: it prints nothing)
    args = [_expanded(w, command, start, kinds) for w in words[1:]]
    parts = []
    for m in _FORMAT.finditer(_expanded(words[0], command, start, kinds)):
        if m["spec"] == "%":
            parts.append("%")
        elif m["spec"]:
            arg = args.pop(0) if args else ""
            parts.append(arg if m["spec"][-1] in "sbq" else _OTHER)
        elif m["escape"] is not None:
            parts.append(_ESCAPES.get(m["escape"], m[0]))
        else:
            parts.append(m[0])
    return "".join(parts), kinds


def _printed_sentence(command: str) -> Sentence | None:
    """The template of the sentences `command`'s `echo`s and `printf`s print with a secret's
    variable in them, standing where a command starts and their output not taken elsewhere;
    else None. Their words read to their command's end (at most _TAIL_MAX characters)."""
    templates: list[str] = []
    kind = None
    done = 0  # (where the last printer's words were read to)
    for m in _SENTENCE_PRINTER.finditer(command):
        if m.start() < done:
            # an argument of the printer before, read with its words already (a wrapped
            # command's lines, `echo a \` then `echo b`, are one command, which prints `a echo
            # b`): each word is read once (linear; each `echo` read to _TAIL_MAX was 5.7 s for
            # 180 KB of `echo $A \` lines)
            continue
        if "$" not in command[m.end() : m.end() + _TAIL_MAX]:
            continue
        if not _at_command_start(command, m.start()):
            continue
        words: list[str] = []
        end = m.end()
        for token in _SHELL_TOKEN.finditer(
            command, m.end(), min(len(command), m.end() + _TAIL_MAX)
        ):
            word = token.group()
            if _BLANK.fullmatch(word):
                continue
            if word[0] in "|;&\n()`<>" or word[0].isdigit() and ">" in word:
                break
            words.append(word)
            end = token.end()
        done = end
        template, kinds = _printed_template(command, m.start(), words)
        if _HOLE in template and template not in templates and _printed_alone(command, end):
            templates.append(template)
            kind = kind or kinds[0]
            if len(templates) == _SENTENCES_MAX:
                break
    if kind is None:
        return None
    return Sentence(kind, "\n".join(templates))


def _sentence_values(output: str, template: str) -> Iterator[tuple[int, int]]:
    """Where a secret stands in `output` by `template` (see Sentence): on each line that
    starts with its first literal piece, the text after each literal piece, found in turn,
    up to the next, one word; by each line of the template with a secret's hole and literal
    text besides spaces (`echo "$A $TOKEN"` would take any line's second word). Each line of
    output read once for each piece: linear."""
    lines = []
    for text in template.split("\n"):
        if _HOLE in text and "".join(_SENTENCE_HOLES.split(text)[::2]).strip():
            lines.append(_SENTENCE_HOLES.split(text))
    spans: set[tuple[int, int]] = set()
    for pieces in lines:
        # (what echo prints starts a line: the lines that start with its first piece)
        starts = _compiled(r"(?m)^" + re.escape(pieces[0])) if pieces[0] else _LINE_START
        for line in starts.finditer(output):
            lo = line.start()
            hi = output.find("\n", lo)
            hi = len(output) if hi < 0 else hi
            while hi > lo and output[hi - 1] in " \t\r":
                hi -= 1
            if lo + len(pieces[0]) > hi:
                continue
            found: list[tuple[int, int]] = []
            at = lo + len(pieces[0])
            for i in range(1, len(pieces), 2):
                holes, after = pieces[i], pieces[i + 1]
                end = output.find(after, at, hi) if after else hi
                if end < 0:
                    break
                value = output[at:end]
                if (
                    _HOLE in holes
                    and len(value) >= 4
                    and not any(c.isspace() for c in value)
                    and not value.startswith(_MARKED)
                    and not _PLACEHOLDER.match(value)
                ):
                    found.append((at, end))
                at = end + len(after)
            else:
                spans.update(found)
    done = 0
    for start, end in sorted(spans):
        if start >= done:
            yield start, end
            done = end


# A line of a printer's output that is a value alone: one word, no space in it (an error,
# a usage text, `login: bob` of `pass show`'s second line have one), four characters or
# more, no heading (`attributes:`), placeholder or nothing printed (`null`, `None`,
# `<nil>`: a jsonpath or a query that found no value).
_PRINTED_LINE = lazy(r"[^\S\n]*+(?:\d{1,9}→)?(?P<value>\S{4,}+)[^\S\n]*+")
_LINE = lazy(r"[^\n]+")


def _netrc_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password of each entry of a `.netrc`'s text: what follows `password` wherever the
    entry's words stand, a tool's prefix before them too (the file's tokens are words)."""
    for m in _NETRC_PASSWORD.finditer(text):
        if _command_password(m):
            yield m.span("password")


_NETRC_PASSWORD = lazy(r"(?<![\w.-])password[^\S\n]+(?P<password>[^\s\"'`\\]{1,200})")
# A line of a `.env`: `NAME=VALUE` (`export NAME=VALUE`), the value quoted or not.
_ENV_LINE = lazy(
    _VIEW_PREFIX + r"(?:export[^\S\n]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,100})[^\S\n]*="
    r"[^\S\n]*[\"']?(?P<value>[^\s\"'`\\]{1,500})(?=[\s\"']|\Z)"
)


def _env_values(text: str) -> Iterator[tuple[int, int]]:
    """The value of each line of a `.env`'s text whose name says nothing of a secret (the
    rules read those by their name: `DB_PASSWORD=`, `OPENAI_KEY=`) and that looks generated
    as a key does (see _generated: `SESSION_SIGNING=8f3Kq...`; `PORT=3000`, `NODE_ENV=dev`,
    a URL, a path stay), or whose name says so and value is words (see _env_words)."""
    for line in _LINE.finditer(text):
        m = _ENV_LINE.match(text, line.start(), line.end())
        if m is not None and _env_secret(m["name"], m["value"]):
            yield m.span("value")


def _env_secret(name: str, value: str) -> bool:
    """Whether a `.env` file's line `name=value` holds a secret the rules that read names
    leave (see _env_values)."""
    kind = _name_of_kind(name)
    if kind is None:
        return _generated(value) or _unnamed_passphrase(name, value)
    return _env_words(name, kind, value)


# REDACTION_VERSION 34: a `.env`'s value of words under a name that says nothing of what it
# holds (`FOO=correct-horse-battery`, `UPSTREAM=purple_monkey_dishwasher`): a `.env` holds an
# app's secrets and its settings, and a setting of three or more words joined is named for
# what it is, a name, a place, a mode (`APP_NAME=my-cool-shop`, `S3_BUCKET=acme-prod-uploads`,
# `QUEUE=jobs-high-priority`: the last part of its name in _SETTING_NAMES), or says it is
# shown to anyone (`NEXT_PUBLIC_`, `PUBLIC_`: a browser's bundle holds it); under any other
# name, words joined are judged as a secret's name says they are (see _env_words). Only a
# file seen or written whole as a `.env`: the same line in code or prose says nothing.
_SETTING_NAMES = frozenset(
    (
        "name names host hosts hostname url urls uri endpoint domain domains origin origins"
        " region zone bucket queue topic table db database schema user username email env"
        " environment mode level path dir file files port id ids project app service cluster"
        " namespace branch tag tags version image channel prefix suffix format type profile"
        " account org team theme locale lang language timezone tz title label stage role pool"
        " index slug site model models provider providers scope scopes list features feature"
        " flags flag plan tier group subject sender from to repo repository owner driver"
        " engine backend store storage adapter strategy style layout route routes ui"
        " description desc message text"
    ).split()
)


def _unnamed_passphrase(name: str, value: str) -> bool:
    """Words joined under a name that says nothing (see _SETTING_NAMES)."""
    last = name.rpartition("_")[2].rpartition(".")[2].lower()
    if (
        last in _SETTING_NAMES
        or "PUBLIC" in name.upper()
        or not all(c.isalpha() or c in "-_." for c in value)
    ):
        return False
    if len([w for w in _WORDS_OF.split(value) if w]) < 3:
        return False
    return _env_words(name, "secret", value)


# REDACTION_VERSION 32: a `.env` file's secret written as words (`DB_PASSWORD=purple-monkey-
# dishwasher`, `API_TOKEN=sunshine_rainbow_unicorn`, `MAIL_PASSWORD=river.copper.lantern`),
# which the assignment rules keep as a description or a stand-in is written
# (`dev-only-secret-not-for-production`, _wordy): a `.env` holds an app's secrets, so under a
# name that says one (not a key of data's, `CACHE_KEY=user-profile`), words joined are a
# passphrase, unless one of them says it stands in for a secret (_STAND_IN_WORDS: `change-me`,
# `your-api-token`, `local-dev-password`) or it is a file's name or a path.
_STAND_IN_WORDS = frozenset(
    (
        "dev development test testing tests example examples sample dummy fake placeholder"
        " change changeme replace your my me secret secrets password passwd pass pw token key"
        " api local localhost insecure unsafe not here default todo demo prod production"
        " staging override set generate generated random only none null empty value"
        # (REDACTION_VERSION 34: a secret's word as a stand-in spells it, distutils' docs)
        " sekrit secrit"
    ).split()
)
# REDACTION_VERSION 34: a password's word and digits (`password123`, `secret12345`) is no
# stand-in: it says nothing of a test or an example, it is the weak password people choose
# (the first of every list of breached ones), and the assignment rules take it already
# (`DB_PASSWORD=password123`, `"password": "password123"`). A word that says it stands in
# (`test1234`, `example123`, `changeme1`) stays.
_STANDS_IN = _STAND_IN_WORDS - {"secret", "secrets", "password", "passwd", "pass", "pw", "token"}
_WORDS_OF = lazy(r"[-_. ]+")


def _env_words(name: str, kind: str, value: str) -> bool:
    """A value of words under a secret's name in a `.env` (see _STAND_IN_WORDS)."""
    if not _wordy(value.replace(".", "-").replace(" ", "-")) or _PLACEHOLDER.match(value):
        return False
    if kind == "key" and _PUBLIC_KEY_NAME.search(name[:-3]):
        return False
    if "/" in value or "\\" in value or value.startswith("~"):
        return False
    words = [w.lower() for w in _WORDS_OF.split(value) if w]
    if words[-1] in ("json", "yaml", "yml", "pem", "key", "txt", "env", "p12", "pfx", "crt"):
        return False  # a file's name: `service-account.json`
    return not any(w in _STAND_IN_WORDS for w in words)


# An rclone.conf's remotes (REDACTION_VERSION 30): a backend's secret under a name that says
# nothing alone, `key = ...` (Backblaze B2's application key, Azure Blob's account key, a
# crypt remote's), which the rules do not read as a keyword (a key is as often a name); the
# other names of its secrets (`pass`, `secret_access_key`, `token`) they read.
_RCLONE_KEY = lazy(_VIEW_PREFIX + r"key[^\S\n]*=[^\S\n]*(?P<value>[^\s\"'`\\]{1,1000})[^\S\n]*\r?")


def _rclone_keys(text: str) -> Iterator[tuple[int, int]]:
    """The value of each `key = ...` line of an rclone.conf's text judged as a stored
    secret's (see _stored)."""
    for line in _LINE.finditer(text):
        m = _RCLONE_KEY.fullmatch(text, line.start(), line.end())
        if m is not None and _stored(m["value"]):
            yield m.span("value")


# REDACTION_VERSION 34: the password of a `.pypirc` (twine's) or a MySQL option file (`.my.cnf`)
# shown whole: `password = sunshine`, a word the rules read as a name in code; in a file of
# credentials any value of its own (6 characters or more, no placeholder: `*****`) is one.
_INI_PASSWORD = lazy(
    _VIEW_PREFIX + r"(?i:password|passwd)[^\S\n]*=[^\S\n]*(?P<q>[\"']?)"
    r"(?P<value>[^\s\"'`\\]{1,500})(?P=q)[^\S\n]*\r?"
)


def _ini_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The value of each `password = ...` line of an option file's text."""
    for line in _LINE.finditer(text):
        m = _INI_PASSWORD.fullmatch(text, line.start(), line.end())
        if m is not None and _assigned_secret("password", m["value"], True):
            yield m.span("value")


def _decrypted_values(text: str) -> Iterator[tuple[int, int]]:
    """The values of a secrets file's text decrypted (`sops -d`, REDACTION_VERSION 29): each
    value of its JSON, YAML or `.env` lines, or a line that is one word (`sops -d --extract`),
    judged as a stored secret's whatever its name (`region: eu` stays, see _stored)."""
    for _, start, end in _body_values(text, 0, len(text)):
        if _stored(text[start:end]):
            yield start, end


# REDACTION_VERSION 29: a `.env` written (a Write's or an Edit's input, an `apply_patch`'s
# added file, a heredoc sent to one: `cat > .env.local <<EOF`), whose values under names that
# say nothing of a secret are read as a `.env` shown is (see _env_values: `COOKIE_SIGNING=`
# and a generated value; `PORT=3000` stays). The file's name (_ENV_FILE, as a shown one's)
# tells where its text is: after a JSON input's `"file_path": "<name>"`, the strings of its
# `"content"`, `"old_string"` and `"new_string"` (the first found within _ENV_KEY_GAP
# characters, each read to its closing quote, its lines JSON's `\n`), the lines after an
# `apply_patch`'s `*** Add File: <name>` or `*** Update File: <name>`, or the body of a
# heredoc whose line sends it to <name> (`>`, `tee`). At most _ENV_WRITE_MAX characters of
# each.
_ENV_FILE = lazy(r"\.env(?:\.[\w-]{1,40}){0,3}" + _BACKUP + r"(?![\w.-])")
_PATH_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./~\\-:"
_PATH_MAX = 300
# What stands before a `.env` file's name: the start of a path or a word, a folder's `/`.
_BEFORE_ENV_FILE = frozenset("/\\\"' =:>\n\t")
_ENV_PATH_KEY = lazy(
    r"(?:\"|\\{1,7}\")(?:file_?[pP]ath|path)(?:\"|\\{1,7}\")[^\S\n]{0,3}:[^\S\n]{0,3}"
    r"(?:\"|\\{1,7}\")\Z"
)
_ENV_TEXT_KEY = lazy(
    r"(?:\"|\\{1,7}\")(?:content|(?:new|old)_?[sS]tr(?:ing)?|text)(?:\"|\\{1,7}\")[^\S\n]{0,3}:"
    r"[^\S\n]{0,3}(?:\"|\\{1,7}\")"
)
_PATCH_FILE = lazy(r"[^\S\n]*\*\*\* (?:Add|Update) File:[^\S\n]{1,3}\Z")
_SENT_TO = lazy(r"(?:>|\btee(?:[^\S\n]+-[a-z]{1,10})*)[^\S\n]{0,3}[\"']?\Z")
_ENV_KEY_GAP = 20_000
_ENV_WRITE_MAX = 20_000
# A line of a `.env` in any of those texts: its lead (a patch's `+`, spaces), `NAME=VALUE`.
_WRITTEN_ENV = lazy(
    r"[+-]?[^\S\n]*(?:export[^\S\n]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,100})[^\S\n]*=[^\S\n]*"
    r"(?:\\{0,7}[\"'])?(?P<value>[^\s\"'`\\]{1,500})"
)
_WRITTEN_LINE = lazy(r"\n|\\+n")
# Where a JSON string's text ends: a quote no backslash escapes.
_JSON_STRING_END = lazy(r"(?<!\\)(?:\\\\)*\"")


def _written_env_values(text: str) -> Iterator[tuple[int, int]]:
    """The values of each `.env` written (see _ENV_FILE) whose names say nothing and that
    look generated: each text of one read once (linear)."""
    spans: list[tuple[int, int]] = []
    done = 0
    # (the keys of written text, found in one pass for all the names: a name's own search
    # of _ENV_KEY_GAP characters would read a text of names alone again at each)
    keys: Iterator[re.Match[str]] | None = None
    key = None
    for at in _anchor_starts(text, (".env",)):
        if at < done or at and text[at - 1] not in _BEFORE_ENV_FILE:
            continue  # (`process.env.X`: a name's part)
        name = _ENV_FILE.match(text, at)
        if name is None:
            continue
        before = text[max(0, at - _PATH_MAX) : at]
        path = at - (len(before) - len(before.rstrip(_PATH_CHARS)))
        escaped = text.rfind("\\n", max(0, path - _HEREDOC_LINE), path)
        line = max(
            text.rfind("\n", max(0, path - _HEREDOC_LINE), path) + 1, escaped + 2 * (escaped >= 0)
        )
        texts: list[tuple[int, int]] = []
        if _ENV_PATH_KEY.search(text, max(0, path - 30), path):
            # (each of the input's texts: an Edit's `old_string`, the file's, and `new_string`)
            if keys is None:
                keys = _ENV_TEXT_KEY.finditer(text)
                key = next(keys, None)
            limit = name.end() + _ENV_KEY_GAP
            while key is not None and key.start() <= limit:
                if key.start() >= name.end():
                    start = key.end()
                    hi = min(len(text), start + _ENV_WRITE_MAX)
                    close = _JSON_STRING_END.search(text, start, hi)
                    texts.append((start, close.start() if close else hi))
                    limit = texts[-1][1] + 30
                key = next(keys, None)
        elif _PATCH_FILE.match(text, line, path):
            start = text.find("\n", name.end(), name.end() + 10) + 1 or name.end()
            stop = text.find("\n*** ", start, start + _ENV_WRITE_MAX)
            texts.append((start, stop if stop >= 0 else min(len(text), start + _ENV_WRITE_MAX)))
        elif _SENT_TO.search(text, max(0, path - 60), path):
            line_end = text.find("\n", name.end(), name.end() + _HEREDOC_LINE)
            heredoc = _HEREDOC_TAG.search(text, line, line_end) if line_end >= 0 else None
            if heredoc is not None:
                texts.append(_heredoc_body(text, line_end, heredoc["tag"]))
        for pos, end in texts:
            done = end
            while pos < end:
                brk = _WRITTEN_LINE.search(text, pos, end)
                stop = brk.start() if brk else end
                m = _WRITTEN_ENV.match(text, pos, stop)
                if m is not None and _env_secret(m["name"], m["value"]):
                    spans.append(m.span("value"))
                pos = brk.end() if brk else end
    yield from spans


# Each credentials file's format (_CREDENTIAL_FILES): the kind of its secrets, and where they
# are in its text.
_FILE_FORMATS: dict[str, tuple[str, Callable[[str], Iterable[tuple[int, int]]]]] = {
    "pgpass": ("password", _pgpass_passwords),
    "netrc": ("password", _netrc_passwords),
    "env": ("secret", _env_values),
    "rclone": ("secret", _rclone_keys),
    "ini": ("password", _ini_passwords),
    "decrypted": ("secret", _decrypted_values),
}


def redact_printed(output: str, told: Told) -> tuple[str, dict[str, int]]:
    """`output` of a call that prints a secret alone or shows a credentials file (`told`, see
    printed_secret_kind): each line that is a value alone replaced by the marker of the
    secret's kind, or each secret the file's format finds by the marker of its kind; and how
    many of each kind."""
    if isinstance(told, Sentence):
        spans = list(_sentence_values(output, told.template))
        if not spans:
            return output, {}
        return _replaced(output, spans, MARKER.format(told.kind)), {told.kind: len(spans)}
    if told in _FILE_FORMATS:
        kind, find = _FILE_FORMATS[told]
        spans = list(find(output))
        if not spans:
            return output, {}
        return _replaced(output, spans, MARKER.format(kind)), {kind: len(spans)}
    kind = told
    parts: list[str] = []
    done = n = 0
    match = _PRINTED_LINE.fullmatch
    for line in _LINE.finditer(output):
        m = match(output, line.start(), line.end())
        if m is None:
            continue
        value = m.group("value")
        if value.startswith(_MARKED) or value.endswith(":") or _PLACEHOLDER.match(value):
            continue
        parts += (output[done : m.start("value")], MARKER.format(kind))
        done = m.end("value")
        n += 1
    if not n:
        return output, {}
    parts.append(output[done:])
    return "".join(parts), {kind: n}


def _replaced(text: str, spans: list[tuple[int, int]], marker: str) -> str:
    """`text` with each of `spans` (in order, apart) replaced by `marker`."""
    parts: list[str] = []
    done = 0
    for start, end in spans:
        parts += (text[done:start], marker)
        done = end
    parts.append(text[done:])
    return "".join(parts)
