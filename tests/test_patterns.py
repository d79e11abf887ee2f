"""pastfix.patterns: patterns compiled at their first use answer as compiled ones do."""

import re
import subprocess
import sys

import pytest

from pastfix.patterns import lazy


@pytest.mark.parametrize(
    ("pattern", "flags", "text"),
    [
        (r"(?i)no such (?P<what>file|directory)", 0, "bash: x: No Such File"),
        (r"\berror\b", re.IGNORECASE, "ERROR: it broke\nerror again"),
        (r"^(\w+):", re.MULTILINE, "a: 1\nbb: 2\n"),
    ],
)
def test_a_lazy_pattern_answers_as_a_compiled_one(pattern, flags, text):
    compiled, deferred = re.compile(pattern, flags), lazy(pattern, flags)
    assert deferred.pattern == pattern
    assert deferred.flags == compiled.flags  # inline (?i) included
    assert deferred.groups == compiled.groups
    assert deferred.groupindex == compiled.groupindex
    assert bool(deferred.search(text)) == bool(compiled.search(text))
    assert deferred.findall(text) == compiled.findall(text)
    assert deferred.sub("<x>", text) == compiled.sub("<x>", text)
    spans = [m.span() for m in compiled.finditer(text)]
    assert [m.span() for m in deferred.finditer(text)] == spans
    assert deferred.split(text) == compiled.split(text)


def test_a_bytes_pattern_stays_bytes():
    text = b'"\\ud800" and "\\u0041"'
    assert lazy(rb"\\u[dD][89a-fA-F]").findall(text) == re.findall(rb"\\u[dD][89a-fA-F]", text)
    assert lazy(rb"\\u[dD][89a-fA-F]").findall(text) == [b"\\ud8"]


def test_a_bad_pattern_fails_at_its_first_use():
    pattern = lazy("(unclosed")
    with pytest.raises(re.error):
        pattern.search("x")


def test_importing_the_hooks_modules_compiles_no_pattern():
    """The failure hook imports the rule modules for a few patterns; importing them must
    not compile the rest (a module-level search would undo it for every hook)."""
    code = (
        "import sys, pastfix.hook, pastfix.redact, pastfix.fixes, pastfix.patterns as p\n"
        "lazies = [v for m in list(sys.modules.values()) if m and m.__name__.startswith('pastfix')"
        " for v in vars(m).values() if isinstance(v, p._Lazy)]\n"
        "print(len(lazies), sum('search' in vars(v) for v in lazies))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    made, compiled = map(int, out.stdout.split())
    assert made > 300
    assert compiled <= made // 10, out.stdout
