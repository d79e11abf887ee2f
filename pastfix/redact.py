"""Secrets in transcript text, found and replaced by typed markers: pure functions.

A session prints whatever it meets: a `.env` file it read, a `curl` with an
`Authorization` header, a database URL in a stack trace. The build runs every
stored text through redact() (see pastfix.prepare), which replaces each secret
by a marker naming its kind, such as `[REDACTED:github-token]`, and counts them.

The patterns are a table of compiled regexes, most starting with a provider's
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
or a backslash, so JSON text (tool call inputs) stays valid JSON.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, NamedTuple

try:
    import re2
except ImportError:  # no google-re2 wheel for this platform: see anchors_in()
    re2 = None

MARKER = "[REDACTED:{}]"
_MARKED = "[REDACTED:"

# A word that may name a secret (with a suffix such as SECRET_KEY, SECRET_KEY_BASE);
# what is assigned to it is redacted when it looks like a secret.
_KEYWORD = (
    r"(?:passw(?:or)?d|secret|token|api[_-]?key|apikey"
    r"|access[_-]?key|private[_-]?key|auth[_-]?key)(?:[_-]?(?:key|base))*"
)
# Substrings (case-sensitive) without which no keyword rule can match, and how
# many characters before each a keyword may start (`private_key`: 8).
_KEY_LEADS = (0, 3, 4, 5, 6, 7, 8)
_KEYWORD_ANCHORS = {
    **dict.fromkeys(("assw", "ASSW", "oken", "OKEN"), (1,)),
    **dict.fromkeys(("ecret", "ECRET"), (1, 4, 5)),  # aws_secret
    **dict.fromkeys(("key", "Key", "KEY"), _KEY_LEADS),
}


def _entropy(value: str) -> float:
    """Shannon entropy of `value`, in bits per character."""
    counts: dict[str, int] = {}
    for char in value:
        counts[char] = counts.get(char, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _mixed(value: str) -> bool:
    """Letters and digits both, as generated keys have and words do not."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _random_looking(value: str) -> bool:
    return _mixed(value) and _entropy(value) >= 3.0


def _wordy(value: str) -> bool:
    """Words joined by dashes or underscores, as people write placeholders and test values.

    `dev-only-secret-not-for-production`, `nope-nope-nope`: generated keys
    are not made of lower-case words.
    """
    parts = re.split(r"[-_]", value)
    words = sum(len(p) for p in parts if len(p) >= 2 and p.isalpha() and p.islower())
    return len(parts) >= 3 and words >= 0.6 * len(value)


_PLACEHOLDER = re.compile(
    r"^(?:[$%<{\[*]|.*(?:\.\.\.|\*\*\*|xxxx|XXXX|\$\{|\{\{|<[A-Za-z_-]+>))"
    r"|^(?i:(?:your|my|the|an?|some|example|sample|dummy|fake|test|placeholder|redacted"
    r"|changeme|none|null|nil|true|false|undefined|required|optional|string|str|bytes|int"
    r"|empty|secret|password|passwd|token|value|env|insert|replace|enter|put)(?:[_-].*)?)$"
)
# Code, not a value: `self.token`, `os.environ.get`, `config.api_key`.
_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
_ENV_NAME = re.compile(r"^[A-Z0-9_]+$")


def _assigned_secret(name: str, value: str, quoted: bool) -> bool:
    """Whether `value`, given to a name that ends in a keyword, looks like a secret."""
    if len(value) < 6 or value.startswith(_MARKED) or _PLACEHOLDER.match(value):
        return False
    if value.isdigit() and not re.search(r"(?i)pass|pwd", name):
        return False  # max_tokens=4096, token_ttl: 3600
    if _DOTTED_NAME.match(value) or _wordy(value):
        return False
    if quoted or _ENV_NAME.match(name):
        return True  # "password": "...", DB_PASSWORD=...
    # An unquoted value in code (`token: str`, `password = other`) is a
    # name more often than a secret: only a random-looking one counts.
    return _random_looking(value)


class Rule(NamedTuple):
    """A pattern; `group` is the part replaced (0 = all), `check` may veto a match.

    A rule is tried only on texts that hold one of its `anchors`, substrings
    (case-sensitive) that every match contains. A `keyword` rule's pattern,
    which starts with a case-insensitive word that the regex engine would try
    at every position, is only tried just before each anchor.
    """

    kind: str
    pattern: re.Pattern[str]
    group: int | str = 0
    check: Callable[[re.Match[str]], bool] | None = None
    anchors: tuple[str, ...] = ()
    keyword: bool = False
    # The kind of a match, when it depends on the match (else `kind`).
    kind_of: Callable[[re.Match[str]], str] | None = None


_NAME_TAIL = re.compile(r"[A-Za-z0-9_.-]{0,40}$")


def _assignment(m: re.Match[str]) -> bool:
    """A keyword assigned a value that looks like a secret (see _assigned_secret)."""
    text, start = m.string, m.start()
    before = text[start - 1] if start else ""
    if _escaped(text, start - 1):
        before = ""  # JSON text: "...\npassword=..."
    if before.isalpha() and not (before.islower() and text[start].isupper()):
        return False  # mytoken, Tokenizer: only a whole word or a camelCase part counts
    prefix = _NAME_TAIL.search(text, max(0, start - 40), start)
    tail = prefix.group() if prefix else ""
    if prefix and tail and _escaped(text, prefix.start()):
        tail = tail[1:]
    name = tail + m.group("keyword")
    return _assigned_secret(name, m.group("value"), bool(m.group("quote") or m.group("open")))


def _escaped(text: str, at: int) -> bool:
    """Whether text[at] is the letter of an escape such as \\n in JSON text."""
    return at >= 1 and text[at - 1] == "\\" and text[at] in "nrt"


def _assigned_kind(m: re.Match[str]) -> str:
    keyword = m.group("keyword").lower()
    for word, kind in (("pass", "password"), ("pwd", "password"), ("token", "token")):
        if word in keyword:
            return kind
    return "api-key" if keyword.endswith("key") and "secret" not in keyword else "secret"


def _url_password(m: re.Match[str]) -> bool:
    if not m.string[m.start() - 1 : m.start()].isalnum():
        return False  # a scheme comes first: postgres://
    password = m.group("password")
    if m.group("user").startswith("[REDACTED"):
        return False  # a token in the user part, redacted already: `https://[REDACTED:...]@`
    if password.startswith(_MARKED) or _PLACEHOLDER.match(password):
        return False
    return not (password.isdigit() and len(password) <= 5)  # a port: host:8080@


def _bearer(m: re.Match[str]) -> bool:
    token = m.group("token")
    return not token.startswith(_MARKED) and not _PLACEHOLDER.match(token) and _mixed(token)


def _near_keyword(m: re.Match[str]) -> bool:
    start = m.start()
    if start and m.string[start - 1].isalpha():
        return False
    token = m.group("token")
    if token.startswith(_MARKED) or not _mixed(token) or _wordy(token):
        return False
    hexadecimal = all(c in "0123456789abcdefABCDEF" for c in token)
    return _entropy(token) >= (3.0 if hexadecimal else 3.5)


def _openai(m: re.Match[str]) -> bool:
    body = m.group(0)[3:]
    return any(c.isdigit() for c in body) and any(c.isupper() for c in body)


# After a fixed prefix of n characters: not preceded by a character that
# would make the match part of a longer word.
def _alone(n: int) -> str:
    return r"(?<![A-Za-z0-9_-]" + "." * n + ")"


# The characters of a value: no quote, backslash, space or delimiter, so that a
# replacement never breaks the JSON or the line around it.
_VALUE = r"[^\s\"'`\\,;()\[\]{}<>|&]"

RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
            r"(?:(?:[A-Za-z0-9+/=\s:,-]|\\[nr])*?"
            r"-----END[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
            r"|(?:[A-Za-z0-9+/=\s]|\\[nr])*)"
        ),
        anchors=("-----BEGIN",),
    ),
    Rule(
        "anthropic-key",
        re.compile(r"sk-ant-" + _alone(7) + r"[A-Za-z0-9_-]{20,}"),
        anchors=("sk-ant-",),
    ),
    Rule(
        "openai-key",
        re.compile(r"sk-" + _alone(3) + r"(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        check=_openai,
        anchors=("sk-",),
    ),
    Rule(
        "github-token",
        re.compile(r"gh" + _alone(2) + r"[pousr]_[A-Za-z0-9]{30,}"),
        anchors=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    Rule(
        "github-token",
        re.compile(r"github_pat_" + _alone(11) + r"\w{22,}"),
        anchors=("github_pat_",),
    ),
    Rule(
        "gitlab-token",
        re.compile(r"glpat-" + _alone(6) + r"[A-Za-z0-9_-]{20,}"),
        anchors=("glpat-",),
    ),
    Rule(
        "slack-token",
        re.compile(r"xox" + _alone(3) + r"[abprs]-[A-Za-z0-9-]{10,}"),
        anchors=("xox",),
    ),
    Rule(
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
        anchors=("https://hooks.slack.com/",),
    ),
    Rule(
        "stripe-key",
        re.compile(r"(?<![A-Za-z0-9_-])[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
        anchors=("_live_", "_test_"),
    ),
    Rule(
        "aws-access-key-id",
        re.compile(r"A(?<![A-Z0-9]A)[KS]IA[A-Z0-9]{16}(?![A-Z0-9])"),
        anchors=("AKIA", "ASIA"),
    ),
    Rule(
        "aws-secret-key",
        re.compile(
            r"(?i:aws_?secret_?(?:access_?)?key|secret_?access_?key)(?:\\?[\"'])?\s*[:=]\s*"
            r"(?:\\?[\"'])?(?P<key>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        "key",
        anchors=("ecret", "ECRET"),
        keyword=True,
    ),
    Rule(
        "google-api-key",
        re.compile(r"AIza" + _alone(4) + r"[0-9A-Za-z_-]{35}"),
        anchors=("AIza",),
    ),
    Rule(
        "jwt",
        re.compile(r"eyJ" + _alone(3) + r"[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
        anchors=("eyJ",),
    ),
    Rule(
        "bearer-token",
        re.compile(r"earer(?<=\b[Bb]earer)\s+(?P<token>[A-Za-z0-9._~+/=-]{16,})"),
        "token",
        _bearer,
        anchors=("earer",),
    ),
    Rule(
        "url-password",
        re.compile(
            r"://(?P<user>[^\s:/?#@\"'`\\<>]{1,100}):(?P<password>[^\s/?#@\"'`\\<>]{1,200})@"
        ),
        "password",
        _url_password,
        anchors=("://",),
    ),
    Rule(
        "secret-assignment",
        re.compile(
            r"(?P<keyword>(?i:" + _KEYWORD + r"))(?P<quote>\\?[\"'])?\s{0,3}[:=]\s{0,3}"
            r"(?P<open>\\?[\"'])?(?P<value>(?(open)[^\"'\\\n]{1,500}|" + _VALUE + r"{1,500}))"
        ),
        "value",
        _assignment,
        tuple(_KEYWORD_ANCHORS),
        keyword=True,
        kind_of=_assigned_kind,
    ),
    Rule(
        "high-entropy-token",
        re.compile(
            r"(?i:" + _KEYWORD + r"|key)s?\b[^A-Za-z0-9\n\"\\]{1,4}(?:is\s+)?"
            r"(?P<token>[A-Za-z0-9+/_=-]{32,})(?![A-Za-z0-9+/_=-])"
        ),
        "token",
        _near_keyword,
        tuple(_KEYWORD_ANCHORS),
        keyword=True,
    ),
)

# Every anchor of every rule, found together in one pass over a text's bytes.
ANCHORS = tuple(dict.fromkeys(a for rule in RULES for a in rule.anchors))


def _scanner() -> Any:
    """An RE2 set of every anchor, or None without google-re2."""
    if re2 is None:
        return None
    scanner = re2.Set.SearchSet()
    for anchor in ANCHORS:
        scanner.Add(re2.escape(anchor))
    scanner.Compile()
    return scanner


_SCANNER = _scanner()
# Texts shorter than this hold no secret any rule finds.
_MIN_LENGTH = 12


def anchors_in(text: str) -> set[str]:
    """The ANCHORS that `text` holds, all found in one pass.

    Without google-re2 (installed with --no-deps where it has no wheel), a check per
    anchor finds the same, about three times slower.
    """
    if _SCANNER is None:
        return {anchor for anchor in ANCHORS if anchor in text}
    # Anchors are ASCII: the bytes of other characters (a lone surrogate too) are no part of one.
    hits = _SCANNER.Match(text.encode("utf-8", "surrogatepass"))
    return {ANCHORS[i] for i in hits} if hits else set()


def redact(text: str) -> tuple[str, dict[str, int]]:
    """`text` with every secret replaced by its marker, and how many of each kind.

    Returns `text` itself and an empty dict when there is nothing to redact.
    """
    found: dict[str, int] = {}
    if len(text) < _MIN_LENGTH:
        return text, found
    present = anchors_in(text)
    if not present:
        return text, found
    for rule in RULES:
        if not present.isdisjoint(rule.anchors):
            text = _apply(rule, text, found, present)
    return text, found


def _apply(rule: Rule, text: str, found: dict[str, int], present: set[str]) -> str:
    pattern, group, check = rule.pattern, rule.group, rule.check
    if rule.keyword:
        matches = _at_keywords(pattern, text, present.intersection(rule.anchors), group)
    else:
        matches = list(pattern.finditer(text))
    parts: list[str] = []
    done = 0
    for m in matches:
        start, end = m.span(group)
        if start < done or (check is not None and not check(m)):
            continue
        kind = rule.kind_of(m) if rule.kind_of else rule.kind
        parts.append(text[done:start])
        parts.append(MARKER.format(kind))
        done = end
        found[kind] = found.get(kind, 0) + 1
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _at_keywords(
    pattern: re.Pattern[str], text: str, anchors: set[str], group: int | str
) -> list[re.Match[str]]:
    """The matches of `pattern` at the keywords that hold an anchor, by position of their secret.

    The pattern is only tried where a keyword can start (see _KEYWORD_ANCHORS):
    a regex search would try its case-insensitive words at every position.
    """
    starts: set[int] = set()
    for anchor in anchors:
        leads = _KEYWORD_ANCHORS[anchor]
        at = text.find(anchor)
        while at >= 0:
            if leads is _KEY_LEADS and (
                at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_-")
            ):
                starts.add(at)  # a word of its own: `key`, not `api_key`
            else:
                starts.update(at - lead for lead in leads if at >= lead)
            at = text.find(anchor, at + 1)
    matches = [m for m in map(lambda p: pattern.match(text, p), sorted(starts)) if m]
    return sorted(matches, key=lambda m: m.start(group))
