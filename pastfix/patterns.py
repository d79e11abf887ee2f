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

What compiling a pattern makes (its flags, SRE code and groups, what `re._compiler` hands
`_sre.compile`) is kept from one process to the next in a file beside the package's
bytecode, `__pycache__/patterns-<tag>.re` (CACHE): a 1 MB append's build compiled 176
patterns, 224M of its 1,038M instructions, and the failure hook some 80. A process
reads the file at its first lazy pattern, builds each pattern it uses from its entry
(`_sre.compile`, which checks the code), and, when it compiled patterns the file did not
hold, writes it again on its way out (`save()`: `pastfix` calls it before it exits). As
bytecode is, it is read wherever it is there, and written where Python writes bytecode:
not under PYTHONDONTWRITEBYTECODE (save_every() writes it then, as compileall writes the
bytecode), nor where that folder cannot be written (a package another user installed),
where each process compiles as before. It is trusted as the bytecode beside it is. An
entry is keyed by the pattern's text and flags, the file by the interpreter's version
(SRE's code changes with it): a pattern changed or gone leaves an entry no one asks for,
and a file of more than MAX_ENTRIES starts again. An entry that cannot be read, or a
Python whose `re` is made otherwise, compiles with `re.compile()`.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
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
        compiled = _compiled(self.pattern, self._flags)
        for answer in _ANSWERS:
            setattr(self, answer, getattr(compiled, answer))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled when first used."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))


# Entries past which the file starts again, with this process's patterns only (pastfix
# holds some 450; each of its versions changes a few).
MAX_ENTRIES = 2000
CACHE: str | None = None  # the file: set by _cache_path() at the first lazy pattern
_entries: dict[tuple[str | bytes, int], bytes] | None = None  # as read from CACHE
_made: dict[tuple[str | bytes, int], bytes] = {}  # compiled by this process


def _cache_path() -> str | None:
    """CACHE, or None in a Python that keeps no bytecode."""
    try:
        import _sre
        import importlib.util

        folder = os.path.dirname(importlib.util.cache_from_source(__file__))
        # (SRE's code, and the case folding it holds, are the interpreter's: its version)
        tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}"
    except (ImportError, AttributeError, NotImplementedError, ValueError):
        return None
    return os.path.join(folder, f"patterns-{tag}.re")


def _read() -> dict[tuple[str | bytes, int], bytes]:
    global CACHE, _entries
    if _entries is None:
        if CACHE is None:
            CACHE = _cache_path()
        _entries = {}
        if CACHE is not None:
            try:
                with open(CACHE, "rb") as f:
                    found = marshal.loads(f.read())
            except (OSError, EOFError, ValueError, TypeError):
                found = None  # none yet, or damaged: written again by save()
            if isinstance(found, dict):
                _entries = found
    return _entries


def _compiled(pattern: str | bytes, flags: int) -> re.Pattern[Any]:
    """re.compile(pattern, flags), from its entry in CACHE when there is one."""
    key = (pattern, int(flags))  # (a RegexFlag is no int to marshal)
    entry = _read().get(key)
    if entry is not None:
        try:
            return _pattern(pattern, entry)
        except Exception:  # noqa: BLE001 (damaged: made again below, and kept by save())
            pass
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        tree = _parser.parse(pattern, key[1])
        code = [int(op) for op in _compiler._code(tree, key[1])]
        made = (key[1] | tree.state.flags, code, tree.state.groups - 1, tree.state.groupdict)
        entry = _made[key] = marshal.dumps(made)
        return _pattern(pattern, entry)
    except Exception:  # noqa: BLE001 (a Python whose re is made otherwise)
        _made.pop(key, None)
        return re.compile(pattern, flags)


def _pattern(pattern: str | bytes, entry: bytes) -> re.Pattern[Any]:
    """The pattern an entry holds, made as re._compiler makes it."""
    import _sre

    flags, code, groups, groupindex = marshal.loads(entry)
    names: list[str | None] = [None] * (groups + 1)
    for name, number in groupindex.items():
        names[number] = name
    return cast(
        "re.Pattern[Any]", _sre.compile(pattern, flags, code, groups, groupindex, tuple(names))
    )


def save() -> None:
    """Write CACHE again with the patterns this process compiled, if any (see above):
    written whole to a file beside it, then renamed over it, so that a process reading it
    meanwhile reads the old or the new one; of two processes saving at once, the patterns
    of the one that renamed first are compiled again by some later process."""
    global _made
    if not _made or CACHE is None or sys.dont_write_bytecode:
        return
    entries = {**(_entries if _entries and len(_entries) < MAX_ENTRIES else {}), **_made}
    _made = {}
    _write(CACHE, entries)


def _write(path: str, entries: dict[tuple[str | bytes, int], bytes]) -> None:
    temporary = f"{path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)  # (as Python makes __pycache__)
        with open(temporary, "wb") as f:
            f.write(marshal.dumps(entries))
        os.replace(temporary, path)
    except OSError:  # a folder this user cannot write, a full disk: nothing kept
        try:
            os.unlink(temporary)
        except OSError:
            pass


def save_every() -> None:
    """Write CACHE with every lazy pattern of pastfix's modules, as compileall writes their
    bytecode (where PYTHONDONTWRITEBYTECODE=1 keeps a run from writing either, a checkout
    compiled so starts as an installed package does: benchmarks/run.py)."""
    import gc
    import importlib
    import pkgutil

    import pastfix

    for module in pkgutil.iter_modules(pastfix.__path__):
        found = importlib.import_module(f"pastfix.{module.name}")
        # (and those a module makes from its tables at their first use: pastfix.locales)
        for build in getattr(found, "BUILT_PATTERNS", ()):
            build()
    entries = _read()
    for found in gc.get_objects():
        if type(found) is _Lazy and (found.pattern, int(found._flags)) not in entries:
            _compiled(found.pattern, found._flags)  # (into _made)
    path = CACHE or _cache_path()
    if path is not None:
        _write(path, {**entries, **_made})
