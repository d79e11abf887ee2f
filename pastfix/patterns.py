"""Regular expressions compiled where they are first used, not when their module is imported.

The rule modules (signatures, fixes, redact, queries, ...) hold some 450 patterns at module
level. Python compiles a pattern in Python code (re._parser, then re._compiler): 0.1-0.3 ms
each, about 75 ms of every process that imports them all, while the failure hook or a 1 MB
refresh searches with fewer than half of them. `lazy()` stands in for `re.compile()` at
module level: the pattern is compiled at its first use, and its methods are then set on the
object itself, so each later call costs what a compiled pattern's call does (an attribute
of the instance, not a `__getattr__`).

A lazy pattern is not an `re.Pattern`: it cannot be given to `re.sub()` or `re.compile()`,
nor told by `isinstance`; everything else a compiled pattern has, it answers. `.pattern`
is there without compiling; `.flags` compiles (inline flags such as `(?i)` are part of it).
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

# (what a compiled pattern answers, set on the lazy one at its first use)
_ANSWERS = (
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)


class _Lazy:
    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Only names not yet set on the instance come here: the first use, or a name a
        # pattern does not have.
        compiled = re.compile(self.pattern, self._flags)
        for answer in _ANSWERS:
            setattr(self, answer, getattr(compiled, answer))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled when first used."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))
