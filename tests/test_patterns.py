"""pastfix.patterns: patterns compiled at their first use answer as compiled ones do."""

import marshal
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


def test_importing_the_rule_modules_compiles_no_pattern():
    """Redaction's patterns built from its tables (_PRINTER, _VIEWS, the rests of a wrapped
    token) are lazy too: compiled at import, they cost every build ~9 ms (1 MB append,
    session 39) whether a command printed a secret or not."""
    code = (
        "import base64, binascii, heapq, math, bisect, fnmatch, posixpath, urllib.parse, json\n"
        "import dataclasses, pathlib, shlex\n"
        "try:\n    import re2\nexcept ImportError:\n    pass\n"
        "import re, re._compiler as c\n"
        "made = []\nreal = c.compile\n"
        "c.compile = lambda p, f=0: made.append(p) or real(p, f)\n"
        "import pastfix.redact, pastfix.fixes, pastfix.signatures, pastfix.locales\n"
        "print(len(made), [str(p)[:60] for p in made])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("0 "), out.stdout


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """pastfix.patterns as a new process finds it, its CACHE in tmp_path."""
    from pastfix import patterns

    path = tmp_path / "patterns.re"
    monkeypatch.setattr(patterns, "CACHE", str(path))
    monkeypatch.setattr(patterns, "_entries", None)
    monkeypatch.setattr(patterns, "_made", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def _in_new_process(path, pattern, flags, text):
    """What lazy(pattern, flags) finds in `text` in a new process reading CACHE at `path`,
    and whether it parsed the pattern itself."""
    code = (
        "import sys, re._parser as parser, pastfix.patterns as p\n"
        f"p.CACHE = {str(path)!r}\n"
        "parsed = []\nreal = parser.parse\n"
        "parser.parse = lambda *a: parsed.append(1) or real(*a)\n"
        f"found = p.lazy({pattern!r}, {int(flags)}).findall({text!r})\n"
        "print(repr((found, bool(parsed))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return eval(out.stdout)  # noqa: S307 (our own repr)


def test_a_compiled_pattern_is_kept_for_the_next_process(cache):
    from pastfix import patterns

    pattern = r"(?i)no such (?P<what>file|directory)"
    text = "bash: x: No Such File, no such directory"
    assert _in_new_process(cache, pattern, 0, text) == (["File", "directory"], True)
    assert lazy(pattern).findall(text) == ["File", "directory"]
    patterns.save()
    assert cache.exists()
    # read from the file, not parsed again, and the same matches
    assert _in_new_process(cache, pattern, 0, text) == (["File", "directory"], False)
    # another pattern or other flags are compiled as before
    assert _in_new_process(cache, pattern, re.MULTILINE, text)[1] is True


def test_a_damaged_cache_is_compiled_anew_and_written_again(cache):
    from pastfix import patterns

    cache.write_bytes(b"\xff not marshal")
    assert lazy(r"\d+").findall("a 12 b 3") == ["12", "3"]
    patterns.save()
    assert _in_new_process(cache, r"\d+", 0, "a 12 b 3") == (["12", "3"], False)


def test_no_cache_is_written_where_python_writes_no_bytecode(cache, monkeypatch):
    from pastfix import patterns

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert lazy(r"x+").findall("xx") == ["xx"]
    patterns.save()
    assert not cache.exists()


def test_every_pattern_made_from_its_entry_is_the_compiled_one(cache):
    """Each lazy pattern of pastfix, as save_every() keeps it and a process makes it from
    that, equals re.compile()'s (a Pattern's == compares its flags and SRE code)."""
    from pastfix import patterns

    patterns.save_every()
    entries = marshal.loads(cache.read_bytes())
    assert len(entries) > 400
    for (pattern, flags), entry in entries.items():
        assert patterns._pattern(pattern, entry) == re.compile(pattern, flags), pattern


def test_a_damaged_entry_is_made_again_and_kept(cache):
    from pastfix import patterns

    cache.write_bytes(marshal.dumps({(r"\d+", 0): b"not an entry"}))
    assert lazy(r"\d+").findall("a 12 b 3") == ["12", "3"]
    patterns.save()
    assert _in_new_process(cache, r"\d+", 0, "a 12 b 3") == (["12", "3"], False)


def test_the_patterns_made_from_tables_are_kept_for_the_next_process(cache):
    """pastfix.locales makes four patterns from its tables of translations at their first
    use; compiled by re, they took ~40 ms of every process that read a failure in another
    language or git's words (PowerShell's alone 30 ms, in both processes of a bulk build).
    save_every() keeps them too, and a new process reads them from CACHE, the same."""
    from pastfix import locales, patterns

    patterns.save_every()
    code = (
        "import sys, re._parser as parser, pastfix.patterns as p\n"
        f"p.CACHE = {str(cache)!r}\n"
        "parsed = []\nreal = parser.parse\n"
        "parser.parse = lambda *a: parsed.append(1) or real(*a)\n"
        "from pastfix import locales\n"
        "said = [locales.in_english(line) for line in sys.argv[1:]]\n"
        "def use(made):\n"
        "    for each in made if isinstance(made, tuple) else [made]:\n"
        "        if hasattr(each, 'search'):\n"
        "            each.search('')\n"
        "        elif isinstance(each, tuple):\n"
        "            use(each)\n"
        "for build in locales.BUILT_PATTERNS:\n"
        "    use(build())\n"
        "print(repr((said, len(parsed))))"
    )
    lines = [
        'python : Die Benennung "python" wurde nicht als Name eines Cmdlet erkannt.',
        "fatal: Der aktuelle Branch main hat keinen Upstream-Branch.",
        "ls: Zugriff auf 'x' nicht möglich: Datei oder Verzeichnis nicht gefunden",
    ]
    out = subprocess.run(
        [sys.executable, "-c", code, *lines], capture_output=True, text=True, check=True
    )
    said, parsed = eval(out.stdout)  # noqa: S307 (our own repr)
    assert parsed == 0
    assert said == [locales.in_english(line) for line in lines] and said != lines
