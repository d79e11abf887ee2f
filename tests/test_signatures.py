import json

import pytest
from conftest import REAL_PROJECTS, build_index, needs_real_corpus
from corpus import Session
from hypothesis import given, settings
from hypothesis import strategies as st

from pastfix import queries
from pastfix import signatures as sig
from pastfix.signatures import (
    ERROR,
    KINDS,
    MAX_SIGNATURE,
    classify,
    key_line,
    normalise,
    signature,
)

PY_TRACEBACK = """Exit code 1
Traceback (most recent call last):
  File "<string>", line 6, in <module>
  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"""

PY_CHAINED = """Traceback (most recent call last):
  File "/home/a/app.py", line 3, in <module>
    d["x"]
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/a/app.py", line 5, in <module>
    raise RuntimeError("config broken")
RuntimeError: config broken
Error in sys.excepthook: nothing"""

TSC = """npm warn Unknown env config "store-dir". This will stop working in the next major version.

src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'.
src/b.ts(9,1): error TS2307: Cannot find module 'zod' or its corresponding type declarations.

Found 2 errors in 2 files."""

ESLINT = """Exit code 1

/home/u/proj/src/app.ts
   33:15  warning  Unsafe argument of type `any`  @typescript-eslint/no-unsafe-argument
   70:36  error    '_rank' is defined but never used  @typescript-eslint/no-unused-vars

✖ 2 problems (1 error, 1 warning)"""

PYTEST = """Exit code 1
============================= test session starts ==============================
collected 3 items

tests/test_x.py .F.                                                      [100%]

=================================== FAILURES ===================================
___________________________________ test_y ____________________________________

    def test_y():
>       assert add(1, 2) == 4
E       AssertionError: assert 3 == 4
E        +  where 3 = add(1, 2)

tests/test_x.py:7: AssertionError
=========================== short test summary info ============================
FAILED tests/test_x.py::test_y - AssertionError: assert 3 == 4
========================= 1 failed, 2 passed in 0.12s ========================="""

PYTEST_SUMMARY_ONLY = """Exit code 1
FAILED tests/test_x.py::test_y - AssertionError: assert 3 == 4
1 failed, 2 passed in 0.12s"""

NPM = """Exit code 254
npm error code ENOENT
npm error syscall open
npm error path /home/u/proj/package.json
npm error errno -2
npm error enoent Could not read package.json: Error: ENOENT: no such file or directory
npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log"""

NPM_OLD = """npm WARN config global `--global`, `--local` are deprecated.
npm ERR! code ELIFECYCLE
npm ERR! errno 1
npm ERR! app@1.0.0 build: `webpack`"""

ESBUILD = """Exit code 1
✘ [ERROR] Could not resolve "js/app.js"

1 error
/home/USER/projects/x/assets/node_modules/esbuild/lib/main.js:1467
  let error = new Error(text);
              ^

Error: Build failed with 1 error:
error: Could not resolve "js/app.js"
    at failureErrorWithLog (/home/USER/x/assets/node_modules/esbuild/lib/main.js:1467:15)"""

CARGO = """Exit code 101
   Compiling demo v0.1.0 (/home/u/demo)
warning: unused variable: `x`
 --> src/main.rs:2:9
error[E0308]: mismatched types
 --> src/main.rs:4:18
  |
4 |     let y: u32 = "no";
  |            ---   ^^^^ expected `u32`, found `&str`
error: could not compile `demo` (bin "demo") due to 1 previous error; 1 warning emitted"""

GO = """Exit code 1
# example.com/demo
./main.go:3:2: undefined: foo
./main.go:7:9: undefined: bar"""

GIT_PUSH = """Exit code 128
fatal: The current branch spotter-dov has no upstream branch.
To push the current branch and set the remote as upstream, use

    git push --set-upstream origin spotter-dov
"""

GIT_ERROR = """Exit code 1
error: pathspec 'nope.txt' did not match any file(s) known to git"""

NODE_TYPEERROR = """> app@0.1.0 build
> next build

> Build error occurred
[TypeError: generate is not a function]"""

EXUNIT = """Exit code 2
Running ExUnit with seed: 624694, max_cases: 32

     warning: variable "messages" is unused (if the variable is not meant to be used, prefix...)

  1) test renders (SpotterWeb.SessionLiveTest)
     test/spotter_web/live/session_live_test.exs:42
     ** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.
     stacktrace:
       test/spotter_web/live/session_live_test.exs:47: (test)

Finished in 1.3 seconds (0.00s async, 1.3s sync)
12 tests, 12 failures"""

PRE_COMMIT = (
    "Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\n"
    "Run 'mix format' to fix.\\n\\nFix these issues before committing."
)


@pytest.mark.parametrize(
    "text, expected",
    [
        (PY_TRACEBACK, "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
        (PY_CHAINED, "RuntimeError: config broken"),
        (TSC, "src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'."),
        (
            ESLINT,
            "70:36  error    '_rank' is defined but never used  @typescript-eslint/no-unused-vars",
        ),
        (PYTEST, "E       AssertionError: assert 3 == 4"),
        (PYTEST_SUMMARY_ONLY, "FAILED tests/test_x.py::test_y - AssertionError: assert 3 == 4"),
        # `npm error code X` is followed by the npm line that names the cause.
        (
            NPM,
            "npm error code ENOENT npm error enoent Could not read package.json: Error: ENOENT: "
            "no such file or directory",
        ),
        (NPM_OLD, "npm ERR! code ELIFECYCLE npm ERR! app@1.0.0 build: `webpack`"),
        (
            "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/lft - "
            "Not found\nnpm error 404\nnpm error 404  'lft@*' is not in this registry.",
            "npm error code E404 npm error 404 Not Found - GET https://registry.npmjs.org/lft - "
            "Not found",
        ),
        (ESBUILD, '✘ [ERROR] Could not resolve "js/app.js"'),
        (CARGO, "error[E0308]: mismatched types"),
        (GO, "./main.go:3:2: undefined: foo"),
        (GIT_PUSH, "fatal: The current branch spotter-dov has no upstream branch."),
        (GIT_ERROR, "error: pathspec 'nope.txt' did not match any file(s) known to git"),
        (NODE_TYPEERROR, "[TypeError: generate is not a function]"),
        (EXUNIT, "** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency."),
        ("Exit code 127\n(eval):1: command not found: tree", "(eval):1: command not found: tree"),
        (
            "Exit code 127\n/bin/bash: line 1: python: command not found",
            "/bin/bash: line 1: python: command not found",
        ),
        ("bash: foo: command not found", "bash: foo: command not found"),
        (
            "ls: cannot access 'types/': No such file or directory",
            "ls: cannot access 'types/': No such file or directory",
        ),
        (
            "EISDIR: illegal operation on a directory, read",
            "EISDIR: illegal operation on a directory, read",
        ),
        # Claude Code's own messages: wrapper stripped, first line only.
        ("<tool_use_error>File does not exist.</tool_use_error>", "File does not exist."),
        (
            "<tool_use_error>String to replace not found in file.\n"
            "String:     raise ValueError('boom')\n"
            "    except TypeError: fatal error</tool_use_error>",
            "String to replace not found in file.",
        ),
        (
            "<tool_use_error>InputValidationError: Task failed due to the following issue:\n"
            "The required parameter `prompt` is missing</tool_use_error>",
            "InputValidationError: Task failed due to the following issue: "
            "The required parameter `prompt` is missing",
        ),
        # the issues of a tool's input schema, as JSON on the next lines: the first one's
        # path and message (the key line was `InputValidationError: [`, a new user's try)
        (
            '<tool_use_error>InputValidationError: [\n  {\n    "code": "invalid_type",\n'
            '    "expected": "string",\n    "received": "undefined",\n    "path": [\n'
            '      "prompt"\n    ],\n    "message": "Required"\n  },\n  {\n'
            '    "code": "invalid_type",\n    "path": ["description"],\n'
            '    "message": "Required"\n  }\n]</tool_use_error>',
            "InputValidationError: prompt: Required",
        ),
        (
            # cut after its first issue's message: read by its fields
            'InputValidationError: [\n  {\n    "code": "invalid_type",\n    "path": ["edits", 0,'
            ' "old_string"],\n    "message": "Expected string, received number"\n  },\n  {',
            "InputValidationError: edits.0.old_string: Expected string, received number",
        ),
        (
            "<tool_use_error>Sibling tool call errored</tool_use_error>",
            "Sibling tool call errored",
        ),
        (
            # what the command printed before its time limit stopped it names the error
            "Exit code 143\nCommand timed out after 3m 0s\n-- SQL that follows\nERROR: relation x",
            "ERROR: relation x",
        ),
        (PRE_COMMIT, "Pre-commit validation failed: [FORMAT] Code is not formatted."),
        # Nothing names an error: the first line after "Exit code N", with a
        # header's next line appended.
        (
            "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\n"
            "priv/static/assets\nhint: Use -f if you really want to add them.",
            "The following paths are ignored by one of your .gitignore files: priv/static/assets",
        ),
        # git commit with nothing staged says so in words of its own; a file named for
        # failures in its listing is no error
        (
            "Exit code 1\nOn branch master\nChanges not staged for commit:\n"
            "\tmodified:   .claude.json\n\tdeleted:    .claude/statsig/statsig.failed_logs.65\n\n"
            'no changes added to commit (use "git add" and/or "git commit -a")',
            'no changes added to commit (use "git add" and/or "git commit -a")',
        ),
        (
            "Exit code 1\nOn branch main\nnothing to commit, working tree clean",
            "nothing to commit, working tree clean",
        ),  # fmt: skip
        # an error word inside a path or a test's name is no error
        (
            "Exit code 2\nCompiling src/error_pages/index.ts\n=== RUN   TestScope/Missing_section\n"
            "Build stopped: 1 file could not be compiled",
            "Build stopped: 1 file could not be compiled",
        ),
        # a word that names a way of working is no error: a script's title, then its check
        (
            "Exit code 1\nconfig.toml validation - sequential fail-fast\n=== Step 2 ===\n"
            "  [OK] prefix = riscv64-elf-\n  [FAIL] bin_dir does not exist: /opt/tc/bin\n",
            "[FAIL] bin_dir does not exist: /opt/tc/bin",
        ),
        (
            "Exit code 1\n+ set -euo pipefail\n+ ./deploy.sh --failover\ndeploy refused: quota",
            "deploy refused: quota",
        ),
        # A time limit's words yield to the error the command printed after them.
        (
            "Exit code 124\ncommand timed out after 15491 milliseconds\n\n> next build\n"
            "Failed to compile.\n./src/a.tsx:23:8\nType error: Property 'x' is missing\n",
            "Type error: Property 'x' is missing",
        ),
        (
            "Exit code 124\ncommand timed out after 15491 milliseconds\n> next build\nok\n",
            "command timed out after 15491 milliseconds",
        ),
        ("Command timed out after 2m 0.0s\nlistening on :3000", "Command timed out after 2m 0.0s"),
        # OpenSSH's note that it has no terminal to ask on: the refusal after it is the error
        (
            "ssh_askpass: exec(/usr/bin/ssh-askpass): No such file or directory\r\n"
            "Host key verification failed.",
            "Host key verification failed.",
        ),
        # a port or a name taken says what failed after a program's notice (streamlit's
        # `Collecting usage statistics` was the key line: thirty-second held-out set)
        (
            "Exit code 1\r\n\r\nCollecting usage statistics. To deactivate, set"
            " browser.gatherUsageStats to false.\r\n\r\n"
            "2026-04-03 18:48:16.839 Port 8501 is not available\r",
            "Port 8501 is not available",
        ),
        (
            'Exit code 1\nStarting dev server\nThe name "web" is already in use by a container',
            'The name "web" is already in use by a container',
        ),
        # Only "Exit code N": that is the key line.
        ("Exit code 1\n\n", "Exit code 1"),
        ("Exit code 1", "Exit code 1"),
        ("Error", "Error"),
        ("", ""),
        ("   \n\n ", ""),
    ],
)
def test_key_line(text, expected):
    assert key_line(text) == expected


def test_key_line_strips_ansi():
    text = "Exit code 1\n\x1b[1m\x1b[31merror\x1b[39m: Could not find `Cargo.toml`\x1b[0m"
    assert key_line(text) == "error: Could not find `Cargo.toml`"


def test_key_line_of_a_huge_output_reads_head_and_tail():
    # 200,000 characters of progress, the error at the very end.
    noise = "".join(f"building module {i} of 9999 ok\n" for i in range(7000))
    text = "Exit code 1\n" + noise + "error: linker `cc` not found\n"
    assert len(text) > 200_000
    assert key_line(text) == "error: linker `cc` not found"
    # A single line of 200,000 characters without a newline.
    assert len(key_line("x" * 200_000)) <= 1000


def test_key_line_finds_an_exception_between_long_dumps():
    """A test runner's report: a file's summary in the head, the exception after a dump of
    the page under test, the totals in the tail. The exception is the key line, so that
    three runs failing on three elements are three errors, not one summary line."""

    def report(text: str) -> str:
        page = "".join(f'  <div class="MuiBox-root css-{i}">\n' for i in range(400))
        return (
            "Exit code 1\n\n > vitest run\n ❯ test/a.test.tsx (1 test | 1 failed) 139ms\n"
            f"{page}\nFAIL test/a.test.tsx > renders\n"
            f"TestingLibraryElementError: Found multiple elements with the text: {text}\n"
            f"{page}\n Test Files  1 failed | 2 passed (3)\n"
        )

    one, other = report("Day 1"), report("Airport Hotel")
    assert len(one) > 2 * 4096
    said = "TestingLibraryElementError: Found multiple elements with the text: Day 1"
    assert key_line(one) == said
    assert signature(one) != signature(other)
    # An error named in the window stays the key line: nothing deeper is sought.
    deep = "Exit code 1\nerror: linker `cc` not found\n" + "x\n" * 5000 + "ValueError: later\n"
    assert key_line(deep) == "error: linker `cc` not found"


def test_key_line_of_a_vitest_report_is_the_failed_test_s_message():
    """vitest marks a failed test `×` and prints its message on the next line, `→ ...`,
    under its file's summary (`❯ a.test.tsx (2 tests | 1 failed)`), which names no error:
    two runs of one file failing on different tests are two errors, not one summary. The
    exception the report names the message by further down is taken when there is one;
    a pasted message is the same error with its arrow or without."""

    def report(test: str, message: str, named: str = "") -> str:
        return (
            "Exit code 1\n\n> vitest run\n\n RUN  v2.1.9 /home/me/app\n\n"
            " ❯ tests/pages/Home.test.tsx (2 tests | 1 failed) 72ms\n"
            f"   × Home > {test} 61ms\n     → {message}\n\n"
            + (f" FAIL  tests/pages/Home.test.tsx > Home > {test}\n{named}\n" if named else "")
            + " Test Files  1 failed (1)\n      Tests  1 failed | 1 passed (2)\n"
        )

    label = report("asks for a name", "Unable to find a label with the text of: Name")
    heading = report("shows the heading", 'Found multiple elements with the role "heading"')
    assert key_line(label) == "→ Unable to find a label with the text of: Name"
    assert signature(label) != signature(heading)
    assert signature(label) == signature("Unable to find a label with the text of: Name")
    assert signature(label) == signature("   → Unable to find a label with the text of: Name")
    named = report(
        "loads", "expected null not to be null", "AssertionError: expected null not to be null"
    )
    assert key_line(named) == "AssertionError: expected null not to be null"
    # an arrow after no failed test is no message of one
    assert key_line("Exit code 1\n→ building\nerror: linker `cc` not found\n") == (
        "error: linker `cc` not found"
    )


# Each group: the same bug seen from two (or more) places must give one signature.
SAME_BUG = [
    (
        "Exit code 1\nTraceback (most recent call last):\n"
        '  File "/home/alice/proj/app.py", line 12, in <module>\n'
        "ModuleNotFoundError: No module named 'requests'",
        "Exit code 1\nTraceback (most recent call last):\n"
        '  File "/Users/bob/work/other/app.py", line 99, in main\n'
        "ModuleNotFoundError: No module named 'requests'",
    ),
    (
        "/home/a/proj/src/app.py:12:5: error: Incompatible return value",
        "/srv/ci/checkout/src/app.py:88:1: error: Incompatible return value",
    ),
    (
        "src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'.",
        "web/src/a.ts(40,12): error TS2339: Property 'name' does not exist on type 'User'.",
    ),
    (
        "Error: listen EADDRINUSE: address already in use 127.0.0.1:3000",
        "Error: listen EADDRINUSE: address already in use 127.0.0.1:8080",
    ),
    (
        "Error: process 4242 exited with signal SIGKILL",
        "Error: process 98765 exited with signal SIGKILL",
    ),
    (
        "Error: session 123e4567-e89b-12d3-a456-426614174000 not found",
        "Error: session 9f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b not found",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpa8f3k2/out.json'",
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpzz91qq/out.json'",
    ),
    (
        "error: cannot write /tmp/pytest-of-u/pytest-12/test_a0/out.txt",
        "error: cannot write /var/folders/x1/abc_d/T/pytest-3/test_b0/res.txt",
    ),
    (
        "2024-05-01T10:22:33.123Z ERROR worker crashed",
        "2025-11-30T23:59:01Z ERROR worker crashed",
    ),
    (
        "Exit code 143\nCommand timed out after 3m 0s\nfoo",
        "Exit code 143\nCommand timed out after 2m 0.0s\nbar",
    ),
    (
        "fatal: bad object 3f2a9c1d0e7b",
        "fatal: bad object a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
    ),
    (
        "Exit code 128\nfatal: The current branch spotter-a0y has no upstream branch.",
        "Exit code 128\nfatal: The current branch feat/login-2 has no upstream branch.",
    ),
    (
        "\x1b[31merror\x1b[0m: Request failed after 1.23s",
        "error: Request failed after 120ms",
    ),
    (
        "<tool_use_error>No task found with ID: ac27727</tool_use_error>",
        "<tool_use_error>No task found with ID: b81f0e2</tool_use_error>",
    ),
    (
        "File content (85812 tokens) exceeds maximum allowed tokens (25000). Please use offset",
        "File content (31000 tokens) exceeds maximum allowed tokens (25000). Please use offset",
    ),
    (
        "Exit code 1\ncat: test/jest-e2e.json: No such file or directory",
        "Exit code 1\ncat: /home/u/other/test/jest-e2e.json: No such file or directory",
    ),
    (
        "Error: connect ECONNREFUSED 127.0.0.1:5432",
        "Error: connect ECONNREFUSED 10.0.0.7:5433",
    ),
    # the machine a message names as one, by name or address (nu43 finding 4)
    (
        "Exit code 255\nssh: connect to host localhost port 2227: Connection refused",
        "Exit code 255\nssh: connect to host 10.0.0.5 port 22: Connection refused",
    ),
    (
        "ssh: connect to host myserver port 2227: Connection refused",
        "ssh: connect to host 127.0.0.1 port 2227: Connection refused",
    ),
    (
        "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect",
        "curl: (7) Failed to connect to api.example.com port 443 after 12 ms: Couldn't connect",
    ),
    (
        "ssh: Could not resolve hostname myserver: Name or service not known",
        "ssh: Could not resolve hostname build-01.lan: Name or service not known",
    ),
    (
        "fatal: unable to access 'https://github.com/a/b.git/': Could not resolve host: github.com",
        "fatal: unable to access 'https://gl.example/c.git/': Could not resolve host: gl.example",
    ),
    (
        "Claude requested permissions to write to /path/to/Demo/CLAUDE.md, but you haven't "
        "granted it yet.",
        "Claude requested permissions to write to /home/u/x/CLAUDE.md, but you haven't granted "
        "it yet.",
    ),
]


@pytest.mark.parametrize("a, b", SAME_BUG)
def test_same_bug_from_two_places_has_one_signature(a, b):
    assert signature(a) == signature(b)
    assert signature(a)


# Distinct bugs: no two may share a signature.
DISTINCT = [
    "src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'.",
    "src/a.ts(3,5): error TS2307: Cannot find module 'zod' or its corresponding type declarations.",
    "src/a.ts(3,5): error TS2345: Argument of type 'string' is not assignable to parameter of "
    "type 'number'.",
    "Exit code 1",
    "Exit code 127",
    "Exit code 127\n(eval):1: command not found: tree",
    "Exit code 127\n(eval):1: command not found: python",
    "Error: ENOENT: no such file or directory, open '/x/package.json'",
    "Error: EACCES: permission denied, open '/x/package.json'",
    "EISDIR: illegal operation on a directory, read",
    "ModuleNotFoundError: No module named 'requests'",
    "ImportError: cannot import name 'foo' from 'bar'",
    "KeyError: 'x'",
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    "json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 256 (char 255)",
    "FileNotFoundError: [Errno 2] No such file or directory: 'a.txt'",
    "PermissionError: [Errno 13] Permission denied: 'a.txt'",
    "error[E0308]: mismatched types",
    "error[E0425]: cannot find value `x` in this scope",
    "./main.go:3:2: undefined: foo",
    "fatal: not a git repository (or any of the parent directories): .git",
    "fatal: The current branch spotter-dov has no upstream branch.",
    "error: pathspec 'nope.txt' did not match any file(s) known to git",
    "70:36  error  '_rank' is defined but never used  @typescript-eslint/no-unused-vars",
    "127:23  error  Unsafe member access .id on an `any` value  "
    "@typescript-eslint/no-unsafe-member-access",
    "npm error code ENOENT",
    "npm error code ERESOLVE",
    '✘ [ERROR] Could not resolve "js/app.js"',
    "<tool_use_error>File does not exist.</tool_use_error>",
    "<tool_use_error>File has not been read yet. Read it first before writing to "
    "it.</tool_use_error>",
    "<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>",
    "<tool_use_error>Sibling tool call errored</tool_use_error>",
    "Exit code 143\nCommand timed out after 3m 0s",
    "Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.",
    "Pre-commit validation failed:\\n\\n[DIALYZER]\\nFinding suitable PLTs",
    "cat: package.json: No such file or directory",
    "cat: tsconfig.json: No such file or directory",
    "HTTP 404 Not Found",
    "HTTP 500 Internal Server Error",
    "The user doesn't want to proceed with this tool use. The tool use was rejected.",
]


def test_distinct_bugs_have_distinct_signatures():
    sigs = [signature(t) for t in DISTINCT]
    assert all(sigs)
    dupes = {s for s in sigs if sigs.count(s) > 1}
    assert not dupes, dupes


@pytest.mark.parametrize(
    "line, expected",
    [
        # The place of a diagnostic goes, file name and all.
        ("/home/a/proj/src/app.py:12: error", "<path>:<n>: error"),
        ("./main.go:3:2: undefined: foo", "<path>:<n>:<n>: undefined: foo"),
        ("src/a.ts(3,5): error TS2339", "<path>(<n>,<n>): error TS2339"),
        ("a.js: line 3, col 5, Error - x", "<path>: line <n>, col <n>, Error - x"),
        ("  --> src/main.rs:3:5", "--> <path>:<n>:<n>"),
        # Not places: an IP and port, a time, a shell's own line, a host without a file.
        ("connect 127.0.0.1:5432 at 12:34:56", "connect <ip>:<n> at <time>"),
        ("(eval):1: command not found: tree", "command not found: tree"),
        ("connect localhost:3000: refused", "connect localhost:<n>: refused"),
        (r"C:\Users\x\proj\app.py line 3", "<path>/app.py line <n>"),
        ("ls: src/generated/prisma/: No such file", "ls: <path>/prisma: No such file"),
        ("~/proj/x.txt ../up/y.js priv/static/assets", "<path>/x.txt <path>/y.js <path>/assets"),
        # Not paths: npm scopes, eslint rules, prose.
        (
            "@typescript-eslint/no-unused-vars and/or origin/main",
            "@typescript-eslint/no-unused-vars and/or origin/main",
        ),
        ("open /tmp/tmpab12/x.txt or /var/folders/ab/T/y", "open <tmp> or <tmp>"),
        # each quote is a value, and two or more of them listed one (_STR_LIST)
        ('it\'s in "bar" or `baz`', "it's in <str>"),
        # The module of a missing-module error stays, its version goes; a file by its base name.
        ("No module named 'foo' in \"bar\" or `baz`", "No module named 'foo' in <str>"),
        ("Cannot find module '@scope/pkg-2'", "Cannot find module '@scope/pkg-2'"),
        ("Cannot find module './lib/x.js'", "Cannot find module <path>/x.js"),
        ('Could not resolve "js/app.js"', "Could not resolve <path>/app.js"),
        ("'left-pad@^1.3.0' is not in this registry", "'left-pad@^<n>' is not in this registry"),
        (
            "404 Not Found - GET https://registry.npmjs.org/@acme%2fui - Not found",
            "<n> Not Found - GET <url>/@acme%2fui - Not found",
        ),
        (
            "no required module provides package github.com/a/b-c/v2; to add it:",
            "no required module provides package github.com/a/b-c/v2; to add it:",
        ),
        (
            "Cannot find package 'zod' imported from /home/a/src/x.mjs",
            "Cannot find package 'zod' imported from <path>",
        ),
        # Branch names, in the git messages that name one.
        ("On branch main", "On branch <name>"),
        (
            "error: src refspec release_1.2 does not match any",
            "error: src refspec <name> does not match any",
        ),
        ("! [rejected] main -> main (fetch first)", "! [rejected] <name> -> <name> (fetch first)"),
        ("Node v18.17.0 and python3.11", "Node v<n> and python3.11"),
        # an apostrophe is no quote; a negation is spelled out (_CONTRACTION)
        ("it doesn't exist, can't open", "it does not exist, cannot open"),
        ("see https://github.com/a/b/issues/1 now", "see <url> now"),
        ("id 123e4567-e89b-12d3-a456-426614174000", "id <uuid>"),
        ("commit 3f2a9c1d0e and 0xdeadbeef", "commit <hex> and <hex>"),
        # Claude Code's shell ids are six hex digits (each id was an error of its own)
        ("Shell 1f2e3d is not running", "Shell <hex> is not running"),
        ("at 2024-01-02T03:04:05.123Z and 12:34:56", "at <time> and <time>"),
        # a log's date with slashes (rclone's, Go's log package's) is no path named `16`
        (
            "2025/09/16 14:02:03 ERROR : x at /data/a: not found",
            "ERROR : x at <path>/a: not found",
        ),
        ("[2024-01-02T03:04:05Z] fatal: x", "fatal: x"),
        # a log line's time, and a component's tag before a program's folder, go before the
        # rules for a message's start read it (a CI log's paste; a new user's, session 31)
        ("2026-04-01T10:22:03.1234567Z /bin/sh: 1: cmake: not found", "command not found: cmake"),
        (
            "2026-04-01T10:22:03.125Z [build] /bin/sh: 1: cmake: not found",
            "command not found: cmake",
        ),
        ("10:22:03 [build] /usr/bin/python3: No module named x", "python: No module named x"),
        # ...a tag before a message is kept, as the message is pasted without the time
        ("12:00:01 [vite] Internal server error: x", "[vite] Internal server error: x"),
        ("2026-04-01", "<time>"),
        ("took 1.23s, then 120ms, then 3m 0s", "took <duration>, then <duration>, then <duration>"),
        ("connect ECONNREFUSED 127.0.0.1:5432", "connect ECONNREFUSED <ip>:<n>"),
        ("pid 12345 on port 8080", "pid <n> on port <n>"),
        ("File content (806.5KB) exceeds 256KB", "File content (<size>) exceeds <size>"),
        (
            "Exit code 127, exit status 2, [Errno 13], (os error 2)",
            "Exit code 127, exit status 2, [Errno 13], (os error 2)",
        ),
        ("error TS2339 error[E0308] F401 ENOENT", "error TS2339 error[E0308] F401 ENOENT"),
        ("Your branch is up to date", "Your branch is up to date"),
        ("\x1b[31merror\x1b[0m:   too   many\tspaces ", "error: too many spaces"),
    ],
)
def test_normalise(line, expected):
    assert normalise(line) == expected


def test_normalise_of_text_holding_the_mark_of_kept_values():
    assert normalise("No module named 'x' \x00Z\x00 \x00A\x00") == "No module named 'x' Z A"


def test_normalise_cuts_to_max_signature():
    assert len(normalise("error: " + "word " * 200)) == MAX_SIGNATURE


def test_signature_of_empty_text_is_empty():
    assert signature("") == ""


@pytest.mark.parametrize(
    "text, kind",
    [
        (
            "The user doesn't want to proceed with this tool use. The tool use was rejected "
            "(eg. if it was a file edit, the new_string was NOT written to the file). STOP what "
            "you are doing and wait for the user to tell you how to proceed.",
            "rejected",
        ),
        ("Error: The user doesn't want to proceed with this tool use.", "rejected"),
        ("User rejected tool use", "rejected"),
        ("[Request interrupted by user for tool use]", "interrupted"),
        ("Exit code 137\n[Request interrupted by user for tool use]", "interrupted"),
        ("<tool_use_error>Sibling tool call errored</tool_use_error>", "sibling_error"),
        (
            "<tool_use_error>File has not been read yet. Read it first before writing to "
            "it.</tool_use_error>",
            "not_read",
        ),
        (
            "File has been modified since read, either by the user or by a linter. "
            "Read it again before attempting to write it.",
            "not_read",
        ),
        (
            "File has been unexpectedly modified. Read it again before attempting to write it.",
            "not_read",
        ),
        (
            "Claude requested permissions to write to /path/to/Demo/CLAUDE.md, but you haven't "
            "granted it yet.",
            "permission_denied",
        ),
        ("Permission to use Bash with command rm -rf build has been denied.", "permission_denied"),
        ("PreToolUse:Bash hook error: [/home/u/bin/check]: BLOCKED: use cd first", "hook_blocked"),
        ("Bash operation blocked by hook:\n- [./guard.sh]: no force pushes", "hook_blocked"),
        ("Denied by PermissionRequest hook", "hook_blocked"),
        # GitHub Copilot CLI's words (npm @github/copilot 0.0.340 to 1.0.60)
        ("The user rejected this tool call.", "rejected"),
        ("The user rejected this tool call. User feedback: use pnpm", "rejected"),
        (
            "The tool call required approval from the user, but the user rejected it or an"
            " earlier tool call.",
            "rejected",
        ),
        ("User rejected the tool call", "rejected"),
        (
            "The pending permission request was cancelled before the tool could continue.",
            "rejected",
        ),
        ("The execution of this tool, or a previous tool was interrupted.", "interrupted"),
        ("Permission denied and could not request permission from user", "permission_denied"),
        (
            "Permission denied and could not request permission from user. Try to find an"
            " alternative approach that doesn't require this permission.",
            "permission_denied",
        ),
        ("aborted by user after 31.2s", "interrupted"),
        ("aborted by user", "interrupted"),  # Codex 0.66's, its Wall time header gone
        ("Exit code 1\nAborted by user.", "error"),  # a script's own words
        ("Permission denied by rules: shell(rm)", "permission_denied"),
        ("Permission denied by a PermissionRequest hook: not here", "permission_denied"),
        ("Permission denied: Create file /tmp/x.py", "permission_denied"),
        ("Permission to run this tool was denied due the following rules: rm", "permission_denied"),
        (
            'Access denied: "secrets/.env" is excluded by organization content policy. Do not'
            " attempt to access this file.",
            "permission_denied",
        ),
        ("Denied by preToolUse hook: no force pushes", "hook_blocked"),
        # Claude Code did not run it, having no word on whether it may (nu40 finding 1):
        # auto mode's classifier down, of any model and tool, and the SDK's permission prompt
        # closed; not the classifier's denial of what the call would do
        (
            "claude-opus-4-8 is temporarily unavailable, so auto mode cannot determine the"
            " safety of Bash right now. Wait briefly and then try this action again.",
            "undecided",
        ),
        (
            "Error: claude-opus-5[1m] is temporarily unavailable, so auto mode cannot determine"
            " the safety of WebFetch right now. Wait a moment and then try this action again.",
            "undecided",
        ),
        (
            "Tool permission request failed: Error: Tool permission stream closed before"
            " response received",
            "undecided",
        ),
        (
            "Tool permission request failed: AbortError: Tool permission stream closed before"
            " response received",
            "undecided",
        ),
        (
            "Permission for this action was denied by the Claude Code auto mode classifier."
            " Reason: Blocked by classifier.",
            "permission_denied",
        ),
        ("Exit code 1\nThe service is temporarily unavailable, so try again later", ERROR),
        ("Exit code 143\nCommand timed out after 3m 0s\nsome output", "timeout"),
        ("Command timed out after 2m 0.0s", "timeout"),
        # stopped at its time limit after it printed an error: that error is what it is
        ("Exit code 124\ncommand timed out after 9s\nType error: Property 'x' is missing", ERROR),
        (
            "<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>",
            "string_not_found",
        ),
        (
            "<tool_use_error>InputValidationError: Task failed due to the following issue:\n"
            "The required parameter `prompt` is missing</tool_use_error>",
            "input_validation",
        ),
        ('InputValidationError: [\n  {\n    "code": "invalid_type"', "input_validation"),
        # Real failures, including ones whose output mentions harness-like words.
        ("<tool_use_error>File does not exist.</tool_use_error>", ERROR),
        ("Exit code 1\n(eval):1: permission denied:", ERROR),
        ("Exit code 1\nbash: ./run.sh: Permission denied", ERROR),
        ("Permission denied (publickey).", ERROR),
        ("Permission denied by the remote host", ERROR),
        ("Exit code 1\nPermission denied and could not request permission from user", ERROR),
        ("EACCES: permission denied, open '/etc/x'", ERROR),
        ("Exit code 1\nThe user doesn't want to proceed (quoted by grep)", ERROR),
        ("Exit code 1\nrunning tests\nCommand timed out after 5s (the runner's own output)", ERROR),
        ("Exit code 2\nwarning: pre-commit hook error", ERROR),
        ("Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.", ERROR),
        ("EISDIR: illegal operation on a directory, read", ERROR),
        ("<tool_use_error>No task found with ID: ac27727</tool_use_error>", ERROR),
        ("", ERROR),
    ],
)
def test_classify(text, kind):
    assert classify(text) == kind


def test_codexs_refusals_are_rejections():
    """Codex's words for a command or a patch the user did not approve (its reader's
    REJECTED_PREFIXES) are a rejection, as Claude Code's: one turn for the prompts after
    it, no hook answer."""
    from pastfix import codex

    for words in codex.REJECTED_PREFIXES:
        assert classify(words) == "rejected"


def test_kinds_end_with_error_and_rules_follow_their_order():
    assert KINDS[-1] == ERROR
    assert [k for k, _ in sig._KIND_RULES] == list(KINDS[:-1])


def _real_failed_results():
    out = []
    for path in sorted(REAL_PROJECTS.rglob("*.jsonl")):
        with open(path, "rb") as f:
            for raw in f:
                if b'"is_error":true' not in raw:
                    continue
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                content = (line.get("message") or {}).get("content")
                if not isinstance(content, list):
                    continue
                for block in content:
                    if isinstance(block, dict) and block.get("is_error") is True:
                        text = block.get("content")
                        if isinstance(text, list):
                            text = "\n".join(b.get("text", "") for b in text if isinstance(b, dict))
                        out.append(text or "")
    return out


@pytest.fixture(scope="module")
def real_failed():
    return _real_failed_results()


# Known real failures: (a prefix that picks them, expected kind, expected key line).
REAL_CASES = [
    ("<tool_use_error>Sibling tool call errored", "sibling_error", "Sibling tool call errored"),
    (
        "<tool_use_error>File has not been read yet",
        "not_read",
        "File has not been read yet. Read it first before writing to it.",
    ),
    ("<tool_use_error>File does not exist.", ERROR, "File does not exist."),
    (
        "<tool_use_error>InputValidationError",
        "input_validation",
        "InputValidationError: Task failed due to the following issue: "
        "The required parameter `prompt` is missing",
    ),
    ("The user doesn't want to proceed", "rejected", None),
    ("Exit code 143\nCommand timed out", "timeout", "Command timed out after 3m 0s"),
    (
        "<tool_use_error>String to replace not found",
        "string_not_found",
        "String to replace not found in file.",
    ),
    ("Claude requested permissions", "permission_denied", None),
    (
        "Exit code 127\n(eval):1: command not found: tree",
        ERROR,
        "(eval):1: command not found: tree",
    ),
    ("Exit code 1\n✘ [ERROR] Could not resolve", ERROR, '✘ [ERROR] Could not resolve "js/app.js"'),
    (
        "Exit code 1\nTraceback",
        ERROR,
        "json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 256 (char "
        "255)",
    ),
    ("Exit code 128\nfatal: The current branch", ERROR, None),
    ("Exit code 1\n(eval):1: permission denied", ERROR, "(eval):1: permission denied:"),
    ("EISDIR", ERROR, "EISDIR: illegal operation on a directory, read"),
    ("Pre-commit validation failed", ERROR, None),
    (
        "npm warn Unknown env config",
        ERROR,
        None,
    ),
]


@needs_real_corpus()
@pytest.mark.parametrize("prefix, kind, key", REAL_CASES)
def test_real_failures(real_failed, prefix, kind, key):
    rows = [t for t in real_failed if t.startswith(prefix)]
    assert rows, f"no real failed result starts with {prefix!r}"
    for text in rows:
        assert classify(text) == kind, text[:200]
        if key is not None:
            assert key_line(text) == key
        assert signature(text)


@needs_real_corpus()
def test_real_timeout_and_git_upstream_collapse(real_failed):
    upstream = {
        signature(t)
        for t in real_failed
        if t.startswith("Exit code 128\nfatal: The current branch")
    }
    assert upstream == {"fatal: The current branch <name> has no upstream branch."}
    tsc = [t for t in real_failed if "error TS2307" in t]
    assert tsc and {signature(t) for t in tsc} == {
        "<path>(<n>,<n>): error TS2307: Cannot find module '@testing-library/react' "
        "or its corresponding type declarations."
    }


def test_huge_output_finds_the_error_at_its_end():
    text = "Exit code 1\n" + ("npm warn something deprecated, see the docs for details\n" * 4000)
    text += "npm error code ERESOLVE\n"
    assert len(text) > 200_000
    assert signature(text) == "npm error code ERESOLVE"
    assert classify(text) == "error"


# The same error in another branch, file or version: one signature (issue #18, item 4).
SAME_ERROR_ELSEWHERE = [
    # Branch names whatever they look like, in the git messages that name one.
    (
        "fatal: The current branch main has no upstream branch.",
        "fatal: The current branch spotter-dov has no upstream branch.",
    ),
    (
        "fatal: The current branch feature/x has no upstream branch.",
        "fatal: The current branch release_1.2 has no upstream branch.",
    ),
    (
        "ERROR: Not on a feature branch. Current branch: main",
        "ERROR: Not on a feature branch. Current branch: docs-stack",
    ),
    (
        "error: the current branch is main, switch to a release branch",
        "error: the current branch is release_1.2, switch to a release branch",
    ),
    (
        "error: src refspec main does not match any",
        "error: src refspec feature/login-2 does not match any",
    ),
    ("fatal: couldn't find remote ref main", "fatal: couldn't find remote ref release_1.2"),
    ("fatal: invalid reference: main", "fatal: invalid reference: origin/feature/x"),
    (
        "merge: main - not something we can merge",
        "merge: feature/x - not something we can merge",
    ),
    (
        " ! [rejected]        main -> main (fetch first)",
        " ! [rejected]        spotter-dov -> spotter-dov (fetch first)",
    ),
    (
        "Exit code 1\nOn branch main\nnothing to commit, working tree clean",
        "Exit code 1\nOn branch feature/x\nnothing to commit, working tree clean",
    ),
    (
        "Your branch is ahead of 'origin/main' by 3 commits.",
        "Your branch is ahead of 'origin/feature/x' by 12 commits.",
    ),
    (
        "branch 'main' set up to track 'origin/main'.",
        "branch 'release_1.2' set up to track 'origin/release_1.2'.",
    ),
    (
        "Branch main set up to track remote branch main from origin.",
        "Branch feature/x set up to track remote branch feature/x from origin.",
    ),
    # The file and line of a compiler or linter diagnostic; the code and message stay.
    (
        "src/a.tsx(3,10): error TS2307: Cannot find module '@testing-library/react' or its "
        "corresponding type declarations.",
        "src/b.tsx(7,1): error TS2307: Cannot find module '@testing-library/react' or its "
        "corresponding type declarations.",
    ),
    (
        "src/a.ts:3:5 - error TS2339: Property 'x' does not exist on type 'Y'.",
        "web/other.ts:90:12 - error TS2339: Property 'x' does not exist on type 'Y'.",
    ),
    (
        "file.py:12:5: E501 Line too long (88 > 79)",
        "/home/u/proj/pkg/other.py:3:1: E501 Line too long (120 > 79)",
    ),
    ("main.go:3:2: undefined: foo", "./cmd/server/server.go:10:5: undefined: foo"),
    ("  --> src/main.rs:3:5", "  --> crates/core/src/lib.rs:120:17"),
    (
        'app/models.py:3: error: Incompatible return value type (got "int", expected '
        '"str")  [return-value]',
        'app/views.py:40: error: Incompatible return value type (got "int", expected '
        '"str")  [return-value]',
    ),
    (
        "/home/u/p/src/a.js:3:5: 'x' is defined but never used. [Error/no-unused-vars]",
        "/srv/ci/b.js:10:1: 'x' is defined but never used. [Error/no-unused-vars]",
    ),
    (
        "/home/u/p/src/a.js: line 3, col 5, Error - 'x' is defined but never used.",
        "b.js: line 30, col 1, Error - 'x' is defined but never used.",
    ),
    (
        "Foo.java:12: error: cannot find symbol",
        "src/main/java/Bar.java:3: error: cannot find symbol",
    ),
    (
        "main.c:3:10: fatal error: foo.h: No such file or directory",
        "src/util.c:1:10: fatal error: foo.h: No such file or directory",
    ),
    (
        "** (CompileError) lib/foo.ex:12: undefined function bar/0",
        "** (CompileError) lib/baz/qux_web.ex:3: undefined function bar/0",
    ),
    (
        "Exit code 1\n/tmp/pytest-of-u/pytest-3/test_a0/test_x.py:7: AssertionError",
        "Exit code 1\ntests/test_y.py:70: AssertionError",
    ),
    # A missing module is the same error wherever it is imported from.
    (
        "Error: Cannot find module 'express'\nRequire stack:\n- /home/a/app/index.js",
        "Error: Cannot find module 'express'\nRequire stack:\n- /srv/b/server.js",
    ),
    (
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /home/a/x.mjs",
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/b/y/z.mjs",
    ),
    (
        "Module not found: Error: Can't resolve 'axios' in '/home/a/app/src'",
        "Module not found: Error: Can't resolve 'axios' in '/srv/b/web/src/components'",
    ),
    (
        "C:\\proj\\src\\a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'.",
        "/home/u/proj/src/b.ts(9,1): error TS2339: Property 'x' does not exist on type 'Y'.",
    ),
    # A version bump changes nothing.
    ("requires numpy>=1.26, you have 1.24", "requires numpy>=2.0, you have 1.26.4"),
    (
        "ERROR: Could not find a version that satisfies the requirement torch==2.1.0 "
        "(from versions: none)",
        "ERROR: Could not find a version that satisfies the requirement torch==2.3.1 "
        "(from versions: none)",
    ),
    (
        "npm error 404  'left-pad@^1.3.0' is not in this registry.",
        "npm error 404  'left-pad@^2.0.1' is not in this registry.",
    ),
    (
        "go: github.com/spf13/cobra@v1.8.0: invalid version: unknown revision v1.8.0",
        "go: github.com/spf13/cobra@v1.9.1: invalid version: unknown revision v1.9.1",
    ),
    ("Node.js v18.17.0 is not supported", "Node.js v20.1.0 is not supported"),
    # whose address and which machine (a new user's try, session 29: git's message pasted
    # from a laptop found nothing; the index held it of another machine, fixed)
    (
        "fatal: empty ident name (for <acead@Acead.localdomain>) not allowed",
        "fatal: empty ident name (for <bob@laptop.localdomain>) not allowed",
    ),
    (
        "git@github.com: Permission denied (publickey).",
        "git@gitlab.com: Permission denied (publickey).",
    ),
    (
        "[sudo] senha para esegnorelli: sudo: nenhuma senha foi fornecida",
        "[sudo] senha para maria: sudo: nenhuma senha foi fornecida",
    ),
    (
        "[sudo] password for bob: sudo: a password is required",
        "[sudo] password for alice-w: sudo: a password is required",
    ),
]


SAME_ERROR_ELSEWHERE += [
    # a relative Windows path of another project (a new user's try, session 31)
    (
        "rg: src\\Ecommerce.API\\Controllers\\*.cs: IO error for operation on"
        " src\\Ecommerce.API\\Controllers\\*.cs: The filename, directory name, or volume"
        " label syntax is incorrect. (os error 123)",
        "rg: src\\Api\\Controllers\\*.cs: IO error for operation on src\\Api\\Controllers\\*.cs:"
        " The filename, directory name, or volume label syntax is incorrect. (os error 123)",
    ),
    ("error: cannot open lib\\web\\a.txt", "error: cannot open src\\bin\\a.txt"),
]


def test_escaped_line_breaks_are_no_windows_path():
    """JSON-escaped output (`...not permitted\\n\\"bwrap: ...`) holds backslashes that
    separate no folders: no `<path>` in its signature."""
    escaped = 'exec_command failed: { message: "bwrap: Operation not permitted\\\\n\\\\"zsh: x" }'
    assert "<path>" not in signature(escaped)
    assert signature("error: cannot open lib\\web\\a.txt") == "error: cannot open <path>/a.txt"


@pytest.mark.parametrize("a, b", SAME_ERROR_ELSEWHERE)
def test_same_error_elsewhere_has_one_signature(a, b):
    assert signature(a) == signature(b)
    assert signature(a)


def test_a_value_or_a_count_printed_before_an_error_is_no_key_line():
    """pnpm prints `undefined` on its own line before its `ERR_PNPM_...` error: every such
    failure had the key line `undefined` (twenty-seventh held-out set), one signature for
    every missing script. A value alone on its line is noise; pnpm's code names the error."""
    out = (
        "Exit code 254\nundefined\n\u2009ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\u2009 Command "
        '"type-check" not found\n\nDid you mean "pnpm format:check"?'
    )
    assert key_line(out).split() == [
        "ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL",
        "Command",
        '"type-check"',
        "not",
        "found",
    ]
    assert signature(out) != signature("Exit code 1\nundefined\nError: connect ECONNREFUSED")
    assert key_line("Exit code 1\nnull\nTypeError: x is undefined") == "TypeError: x is undefined"
    assert key_line("undefined\n") == "undefined"  # nothing else to say
    # pytest's count of what it collected, before what stopped the collection
    pytest = (
        "collecting ... collected 0 items / 1 error\nImportError while importing test module"
        " '/Users/x/tests/test_a.py'.\nHint: make sure your test modules/packages have valid"
        " Python names."
    )
    assert key_line(pytest).startswith("ImportError while importing test module")


def test_key_lines_a_new_user_pasted_from_another_machine():
    """Errors whose key line was a line near them, so a paste of the error itself (another
    machine's path, the message alone) was "Not seen before"."""
    # bash's unbound variable, before a script's emoji warning
    script = (
        "/Users/nate/.local/bin/wt/worktree-functions.sh: line 103: RELATED[@]: unbound "
        "variable\n\nℹ️  Fetching from origin...\n⚠️  Warning: Could not fetch from remote\n"
    )
    assert key_line(script).endswith("RELATED[@]: unbound variable")
    assert signature(script) == signature(
        "/home/bob/bin/worktree-functions.sh: line 99: RELATED[@]: unbound variable"
    )
    assert key_line("⚠️  Warning: Could not fetch\nhello\n") == "hello"
    # Node's error with its code in brackets, not the frame of node's own that threw it
    node = (
        "node:internal/modules/run_main:123\n    triggerUncaughtException(\n    ^\n\n"
        "Error [ERR_UNSUPPORTED_DIR_IMPORT]: Directory import '/app/node_modules/x/y' is not "
        "supported resolving ES modules imported from /app/a.js\n    at finalizeResolution "
        "(node:internal/modules/esm/resolve:263:11)\n"
    )
    assert key_line(node).startswith("Error [ERR_UNSUPPORTED_DIR_IMPORT]: Directory import")
    # PowerShell 7's message line, its place glued to it
    record = (
        "Exit code 1\nResourceUnavailable: \r\nLine |\r\n   2 |  rg --files\r\n     |  ~~~~\r\n"
        "     | Program 'rg.exe' failed to run: An error occurred trying to start process "
        "'C:\\Apps\\rg.exe' with working directory 'C:\\Users\\akhil'. Access is denied.At "
        "line:2 char:1\r\n"
    )
    pasted = (
        "Program 'rg.exe' failed to run: An error occurred trying to start process "
        "'C:\\Apps\\rg.exe' with working directory 'C:\\Users\\bob'. Access is denied."
    )
    assert signature(record) == signature(pasted)
    assert signature(pasted).endswith("Access is denied.")
    french = "Le programme « rg.exe » n’a pas pu s’exécuter : Accès refuséAu caractère Ligne:2 : 1"
    assert signature(french).endswith("Accès refusé")


def test_a_name_the_code_could_not_use_is_kept_and_its_place_goes():
    one = (
        "Exit code 1\nfile:///home/a/app/src/List.jsx:12\n"
        "TypeError: Cannot read properties of undefined (reading 'map')\n"
        "    at List (file:///home/a/app/src/List.jsx:12:20)"
    )
    other = "TypeError: Cannot read properties of undefined (reading 'map')"
    assert signature(one) == signature(other)
    assert "'map'" in signature(other)
    # a value that is no name stays a value
    said = "TypeError: Cannot read properties of undefined (reading 'a b')"
    assert signature(said).endswith("(reading <str>)")


# Different errors that differ only in what identifies them: never one signature.
DIFFERENT_ERRORS = [
    # The module or package of a missing-module error is the error.
    (
        "ModuleNotFoundError: No module named 'requests'",
        "ModuleNotFoundError: No module named 'numpy'",
    ),
    (
        'Exit code 1\nTraceback (most recent call last):\n  File "/a/app.py", line 1\n'
        "ModuleNotFoundError: No module named 'yaml'",
        'Exit code 1\nTraceback (most recent call last):\n  File "/a/app.py", line 1\n'
        "ModuleNotFoundError: No module named 'yaml.cyaml'",
    ),
    (
        "src/a.tsx(3,10): error TS2307: Cannot find module '@testing-library/react' or its "
        "corresponding type declarations.",
        "src/a.tsx(3,10): error TS2307: Cannot find module 'zod' or its corresponding type "
        "declarations.",
    ),
    ("Error: Cannot find module 'express'", "Error: Cannot find module 'react'"),
    (
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /a/x.mjs",
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'yup' imported from /a/x.mjs",
    ),
    (
        "Module not found: Error: Can't resolve 'axios' in '/app/src'",
        "Module not found: Error: Can't resolve 'lodash/fp' in '/app/src'",
    ),
    ('✘ [ERROR] Could not resolve "react-dom/client"', '✘ [ERROR] Could not resolve "vue"'),
    (
        '[vite] Internal server error: Failed to resolve import "dayjs" from "src/App.tsx".',
        '[vite] Internal server error: Failed to resolve import "luxon" from "src/App.tsx".',
    ),
    (
        "error TS7016: Could not find a declaration file for module 'lodash'.",
        "error TS7016: Could not find a declaration file for module 'express'.",
    ),
    (
        "error TS2688: Cannot find type definition file for 'node'.",
        "error TS2688: Cannot find type definition file for 'jest'.",
    ),
    (
        "error TS2305: Module '\"@prisma/client\"' has no exported member 'PrismaClient'.",
        "error TS2305: Module '\"@prisma/client\"' has no exported member 'Prisma'.",
    ),
    (
        "ImportError: cannot import name 'soft_unicode' from 'markupsafe'",
        "ImportError: cannot import name 'soft_unicode' from 'jinja2'",
    ),
    (
        "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/left-pad"
        " - Not found\nnpm error 404\nnpm error 404  'left-pad@*' is not in this registry.",
        "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fui"
        " - Not found\nnpm error 404\nnpm error 404  '@acme/ui@*' is not in this registry.",
    ),
    (
        "npm error 404  'left-pad@*' is not in this registry.",
        "npm error 404  'right-pad@*' is not in this registry.",
    ),
    (
        "ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/left-pd: Not Found - 404",
        "ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/rght-pad: Not Found - 404",
    ),
    (
        "error: could not find `ripgrp` in registry `crates-io` with version `*`",
        "error: could not find `fd-findd` in registry `crates-io` with version `*`",
    ),
    (
        "pkg_resources.DistributionNotFound: The 'foo>=1.0' distribution was not found",
        "pkg_resources.DistributionNotFound: The 'bar>=1.0' distribution was not found",
    ),
    (
        "ERROR: No matching distribution found for torch",
        "ERROR: No matching distribution found for tensorflow",
    ),
    ("error[E0432]: unresolved import `serde_json`", "error[E0432]: unresolved import `tokio`"),
    (
        "error[E0433]: failed to resolve: use of undeclared crate or module `anyhow`",
        "error[E0433]: failed to resolve: use of undeclared crate or module `thiserror`",
    ),
    (
        "error: no matching package named `serde_jsn` found",
        "error: no matching package named `tokyo` found",
    ),
    (
        "main.go:5:2: no required module provides package github.com/gin-gonic/gin; to add it:",
        "main.go:5:2: no required module provides package github.com/labstack/gin; to add it:",
    ),
    (
        'main.go:3:8: cannot find package "github.com/spf13/cobra" in any of:',
        'main.go:3:8: cannot find package "github.com/urfave/cli" in any of:',
    ),
    (
        "go: github.com/spf13/cobra@v1.8.0: invalid version: unknown revision v1.8.0",
        "go: github.com/urfave/cobra@v1.8.0: invalid version: unknown revision v1.8.0",
    ),
    # Different git errors about a branch.
    (
        "fatal: The current branch main has no upstream branch.",
        "fatal: The current branch main has multiple upstream branches, refusing to push.",
    ),
    ("error: src refspec main does not match any", "fatal: couldn't find remote ref main"),
    # The message of a diagnostic is kept.
    ("main.go:3:2: undefined: foo", "main.go:3:2: undefined: bar"),
    (
        "src/a.ts(3,5): error TS2339: Property 'x' does not exist on type 'Y'.",
        "src/a.ts(3,5): error TS2551: Property 'x' does not exist on type 'Y'. Did you mean 'z'?",
    ),
    ("file.py:12:5: E501 Line too long (88 > 79)", "file.py:12:5: F401 <str> imported but unused"),
    # the property, attribute or name the code could not use is the error
    (
        "TypeError: Cannot read properties of undefined (reading 'map')",
        "TypeError: Cannot read properties of undefined (reading 'get')",
    ),
    (
        "TypeError: Cannot set properties of null (setting 'value')",
        "TypeError: Cannot set properties of null (setting 'textContent')",
    ),
    (
        "AttributeError: 'NoneType' object has no attribute 'group'",
        "AttributeError: 'str' object has no attribute 'group'",
    ),
    (
        "AttributeError: module 'numpy' has no attribute 'float'",
        "AttributeError: module 'numpy' has no attribute 'int'",
    ),
    ("NameError: name 'np' is not defined", "NameError: name 'os' is not defined"),
    (
        "TypeError: Cannot destructure property 'data' of 'undefined' as it is undefined.",
        "TypeError: Cannot destructure property 'user' of 'undefined' as it is undefined.",
    ),
    # a package at a version or tag is no address
    ("npm error code E404 vite@latest", "npm error code E404 react@latest"),
    (
        "npm error notarget No matching version found for three@0.159.0.",
        "npm error notarget No matching version found for zod@0.159.0.",
    ),  # fmt: skip
]


@pytest.mark.parametrize("a, b", DIFFERENT_ERRORS)
def test_different_errors_have_different_signatures(a, b):
    assert signature(a) != signature(b)


UPSTREAM = (
    "Exit code 128\nfatal: The current branch {0} has no upstream branch.\n"
    "To push the current branch and set the remote as upstream, use\n\n"
    "    git push --set-upstream origin {0}\n"
)
TS2307 = "{0}(3,10): error TS2307: Cannot find module '{1}' or its corresponding type declarations."


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A push on branch spotter-dov; missing modules in src/a.tsx."""
    root = tmp_path_factory.mktemp("elsewhere")
    past = Session("past", "/home/u/app-dov", 0).prompt("push it")
    past.call("push", "Bash", command="git push").result(
        "push", UPSTREAM.format("spotter-dov"), True
    )
    past.call("tsc", "Bash", command="npx tsc")
    past.result("tsc", "Exit code 2\n" + TS2307.format("src/a.tsx", "@testing-library/react"), True)
    past.call("tsc2", "Bash", command="npx tsc")
    past.result("tsc2", "Exit code 2\n" + TS2307.format("src/a.tsx", "zod"), True)
    past.write(root / "projects" / "-home-u-app-dov" / "past.jsonl")
    build_index(root / "index.db", root / "projects")
    conn = queries.connect(root / "index.db")
    yield conn
    conn.close()


@pytest.mark.parametrize(
    "pasted, tool_use_id",
    [
        (UPSTREAM.format("main"), "push"),
        ("fatal: The current branch release_1.2 has no upstream branch.", "push"),
        (TS2307.format("src/components/b.tsx", "@testing-library/react"), "tsc"),
        (TS2307.format("web/src/c.tsx", "zod"), "tsc2"),
        # in the user's language (nu46 finding 2)
        ("fatal: la branche courante main n'a pas de branche amont.", "push"),
        ("Schwerwiegend: Der aktuelle Branch feat/x hat keinen Upstream-Branch.", "push"),
    ],
)
def test_find_past_fix_knows_the_same_error_on_another_branch_or_file(
    elsewhere, pasted, tool_use_id
):
    found = queries.find_past_fix(elsewhere, pasted)
    assert (found[0]["tool_use_id"], found[0]["matched"]) == (tool_use_id, "signature")
    # Another module is not the same error.
    assert [r["tool_use_id"] for r in found if r["matched"] == "signature"] == [tool_use_id]


@pytest.mark.parametrize(
    "output",
    [
        "Exit code 127\n/bin/bash: line 1: python: command not found",
        "bash: python: command not found",
        "/usr/local/bin/bash: line 12: python: command not found",
        "sh: 1: python: not found",
        "sh: 1: exec: python: not found",
        "bash: line 1: exec: python: not found",
        "zsh: command not found: python",
        "zsh:1: command not found: python",
        "(eval):1: command not found: python",
        "fish: Unknown command: python",
        "python : The term 'python' is not recognized as the name of a cmdlet, function,"
        " script file, or operable program.",
        "python: The term 'python' is not recognized as a name of a cmdlet, function, script"
        " file, or executable program.",
        "'python' is not recognized as an internal or external command,\noperable program or"
        " batch file.",
    ],
)
def test_a_command_not_found_is_one_error_in_every_shell(output):
    assert signature(output) == "command not found: python"


# Windows PowerShell 5.1's error records in German, and the same as English prints them: the
# category and the id stay English in every language (nu47 finding 3's pastes).
_PS_RECORD = """{source} : {message}
{place}
+ {command}
+ ~~~~~~
    + CategoryInfo          : ObjectNotFound: ({target}:String) [{activity}], {reason}
    + FullyQualifiedErrorId : {id}
"""


@pytest.mark.parametrize(
    ("english", "localised"),
    [
        (
            "The term 'python' is not recognized as the name of a cmdlet, function, script file,"
            " or operable program. Check the spelling of the name, or if a path was included,"
            " verify that the path is correct and try again.",
            'Die Benennung "python" wurde nicht als Name eines Cmdlet, einer Funktion, einer'
            " Skriptdatei oder eines ausführbaren Programms erkannt. Überprüfen Sie die"
            " Schreibweise des Namens, oder ob der Pfad korrekt ist (sofern enthalten), und"
            " wiederholen Sie den Vorgang.",
        ),
    ],
)
@pytest.mark.parametrize(
    "place", ["At line:1 char:1", "In Zeile:1 Zeichen:1", "発生場所 行:1 文字:1"]
)
def test_a_powershell_record_in_another_language_is_its_english_error(english, localised, place):
    """Its message in the user's words has the English one's signature, made from the
    record's English id and the object its category names: no translation is needed."""
    fields = {"source": "python", "command": "python --version", "target": "python"}
    fields |= {"activity": "", "reason": "CommandNotFoundException"}
    fields |= {"id": "CommandNotFoundException"}
    ours = _PS_RECORD.format(message=english, place="At line:1 char:1", **fields)
    theirs = _PS_RECORD.format(message=localised, place=place, **fields)
    assert signature(ours) == signature(theirs) == "command not found: python"


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("C:\\Users\\jdoe\\proj\\config.json", "C:\\Users\\jdoe\\proj\\config.json"),
        # PowerShell's category cuts a long name to its ends: the message's is the name
        ("C:\\Users\\jdoe...s\\config.json", "C:\\Users\\jdoe\\work\\projects\\config.json"),
    ],
)
def test_a_powershell_path_not_found_in_german_is_the_english_one(target, said):
    fields = {"source": "Get-Content", "command": "Get-Content config.json", "target": target}
    fields |= {"activity": "Get-Content", "reason": "ItemNotFoundException"}
    fields |= {"id": "PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand"}
    english = f"Cannot find path '{said}' because it does not exist."
    german = f'Der Pfad "{said}" kann nicht gefunden werden, da er nicht vorhanden ist.'
    ours = _PS_RECORD.format(message=english, place="At line:1 char:1", **fields)
    theirs = _PS_RECORD.format(message=german, place="In Zeile:1 Zeichen:1", **fields)
    assert signature(theirs) == signature(ours)
    assert (
        signature(theirs)
        == "Get-Content: Cannot find path <path>/config.json because it does not exist."
    )


def test_a_powershell_record_of_another_id_keeps_its_own_words():
    """Only the ids of _RECORD_MESSAGES are made English: another's message stays as said."""
    fields = {"source": "x", "command": "x", "target": "x", "activity": "", "reason": "Foo"}
    text = _PS_RECORD.format(
        message="Etwas ging schief.", place="In Zeile:1 Zeichen:1", id="Foo", **fields
    )
    assert signature(text) == "x : Etwas ging schief."


# cmd.exe's `'python' is not recognized as an internal or external command,` as Windows prints
# it in other languages (its line break where it has one): one signature with the English.
@pytest.mark.parametrize(
    "output",
    [
        'Der Befehl "python" ist entweder falsch geschrieben oder\nkonnte nicht gefunden werden.',
        "'python' n’est pas reconnu en tant que commande interne\nou externe, un programme"
        " exécutable ou un fichier de commandes.",
        '"python" no se reconoce como un comando interno o externo,\nprograma o archivo por'
        " lotes ejecutable.",
        '"python" non è riconosciuto come comando interno o esterno,\n un programma eseguibile o'
        " un file batch.",
        "'python' não é reconhecido como um comando interno\nou externo, um programa operável ou"
        " um arquivo em lotes.",
        '"python" не является внутренней или внешней\nкомандой, исполняемой программой или'
        " пакетным файлом.",
        "'python' は、内部コマンドまたは外部コマンド、\n操作可能なプログラムまたはバッチ"
        " ファイルとして認識されていません。",
        "'python' 不是内部或外部命令，也不是可运行的程序\n或批处理文件。",
        "'python'은(는) 내부 또는 외부 명령, 실행할 수 있는 프로그램, 또는\n배치 파일이 아닙니다.",
        "'python' 不是內部或外部命令、可執行的程式或批次檔。",
    ],
)
def test_cmd_exe_not_recognized_in_another_language_is_the_english_error(output):
    assert signature(output) == "command not found: python"
    assert sig.shell_family(output) == sig.WINDOWS_SHELL
    assert not sig.reports_no_error(output)


# PowerShell 7's `python: The term 'python' is not recognized as a name of a cmdlet, ...` in
# other languages, as its resource strings say it (DiscoveryExceptions.<lang>.resx of
# PowerShell's repository; French's spaces are no-break ones), with no error record under it
# whose English id would say which error it is (nu47 finding 3); and Windows PowerShell 5.1's
# German first line alone, pasted without its record.
@pytest.mark.parametrize(
    "output",
    [
        "python: Der Begriff „python“ wird nicht als Name eines Cmdlets, einer Funktion, einer"
        " Skriptdatei oder eines ausführbaren Programms erkannt.\nPrüfen Sie die Schreibweise"
        " des Namens bzw. stellen Sie sicher, dass der Pfad korrekt angegeben wurde, und"
        " versuchen Sie es erneut.",
        "python: Le terme\xa0«\xa0python\xa0»\xa0n’est pas reconnu comme nom d’applet de"
        " commande, d’une fonction, d’un fichier de script ou d’un programme exécutable.",
        'python: El término "python" no se reconoce como nombre de un cmdlet, función, archivo'
        " de script o programa ejecutable.",
        "python: Il termine 'python' non è riconosciuto come nome di un cmdlet, di una funzione,"
        " di un file di script o di un programma eseguibile.",
        'python: O termo "python" não é reconhecido como um nome de um cmdlet, função, arquivo'
        " de script ou programa executável.",
        'python: Термин "python" не распознается как имя, которое является именем для'
        " выполнения, функции, файла сценария или исполняемой программы.",
        "python: 用語 'python' は、コマンドレット、関数、スクリプト ファイル、または実行可能"
        "プログラムの名前として認識されません。",
        "python: 'python' 용어는 cmdlet, 함수, 스크립트 파일 또는 실행 프로그램의 이름으로"
        " 인식되지 않습니다.",
        "python: 术语 'python' 不会被识别为 cmdlet、函数、脚本文件或可执行程序的名称。",
        "python: 無法將 'python' 字詞辨識為 Cmdlet、函式、指令檔或可執行程式的名稱。",
        "python: Termin „python” nie jest rozpoznawany jako nazwa polecenia cmdlet, funkcji,"
        " pliku skryptu lub programu wykonywalnego.",
        "python: 'python' terimi bir cmdlet, işlev, betik dosyası veya yürütülebilir program"
        " adı olarak tanınmıyor.",
        "python: Výraz python nebyl rozpoznán jako název rutiny, funkce, souboru skriptu ani"
        " spustitelného programu.",
        'python : Die Benennung "python" wurde nicht als Name eines Cmdlet, einer Funktion, einer'
        " Skriptdatei oder eines ausführbaren",
    ],
)
def test_powershell_not_recognized_in_another_language_is_the_english_error(output):
    assert signature(output) == "command not found: python"
    assert sig.shell_family(output) == sig.WINDOWS_SHELL
    assert not sig.reports_no_error(output)


# PowerShell 7's `Get-Content: Cannot find path 'X' because it does not exist.` (PathNotFound)
# in other languages, as its resource strings say it (SessionStateStrings.<lang>.resx of
# PowerShell's repository; French's spaces are no-break ones), with no record under it: of a
# path with a space in it too, which is all up to its quote (or, unquoted, Czech's words).
_PS_PATH_NOT_FOUND = [
    "Cesta {} se nenašla, protože neexistuje.",
    'Der Pfad "{}" wurde nicht gefunden, da er nicht vorhanden ist.',
    "No se encuentra la ruta de acceso '{}' porque no existe.",
    "Impossible de trouver le chemin d'accès «\xa0{}\xa0», car il n'existe pas.",
    "Non è possibile trovare il percorso '{}' perché non esiste.",
    "パス '{}' は存在しないため、見つかりません。",
    "경로 '{}'이(가) 없으므로 찾을 수 없습니다.",
    "Nie można odnaleźć ścieżki „{}”, ponieważ nie istnieje.",
    "Não é possível localizar o caminho '{}' porque ele não existe.",
    'не удается найти путь "{}", поскольку он не существует.',
    "‘{}' yolu mevcut olmadığından bulunamıyor.",
    "找不到路径“{}”，因为该路径不存在。",
    "找不到路徑 '{}'，因為它不存在。",
]


@pytest.mark.parametrize("said", _PS_PATH_NOT_FOUND)
@pytest.mark.parametrize(
    ("command", "path"),
    [
        ("Get-Content", r"C:\Users\jdoe\proj\config.json"),
        ("Set-Location", r"C:\Program Files\My App"),
        ("Remove-Item", "dist"),
    ],
)
def test_powershell_path_not_found_in_another_language_is_the_english_error(said, command, path):
    english = f"{command}: Cannot find path '{path}' because it does not exist."
    output = f"{command}: {said.format(path)}"
    assert signature(output) == signature(english)
    assert signature(f"Exit code 1\n{output}") == signature(f"Exit code 1\n{english}")
    assert sig.shell_family(output) == sig.shell_family(english)
    assert sig.reports_no_error(output) == sig.reports_no_error(english)
    # another path is another file's error, in any language (the path kept, as English's)
    assert signature(f"{command}: {said.format('C:/x/other.txt')}") != signature(output)


def test_a_line_that_only_starts_as_powershells_path_not_found_keeps_its_words():
    """German's and Spanish's first words are ASCII and common: only the whole message is one."""
    from pastfix.locales import in_english

    for line in ('Der Pfad "C:/x" ist zu lang', "No se encuentra la ruta de acceso al servidor"):
        assert in_english(line) == line


def test_a_line_that_only_starts_as_powershells_german_keeps_its_words():
    """German 5.1's first words are ASCII and common: only its whole message is one."""
    assert signature("Die Benennung der Datei ist falsch") == "Die Benennung der Datei ist falsch"


# Each error as bash 5.2, coreutils 9.1, glibc 2.36 and git 2.39 print it under LANGUAGE=xx
# (Debian 12's catalogues), and its English: one signature in every language (pastfix.locales).
LOCALISED = {
    "bash: line 1: python: command not found": [
        "bash: Zeile 1: python: Kommando nicht gefunden.",
        "bash: ligne 1: python\xa0: commande introuvable",
        "bash: línea 1: python: orden no encontrada",
        "bash: linha 1: python: comando não encontrado",
        "bash: riga 1: python: comando non trovato",
        "bash: строка 1: python: команда не найдена",
        "bash: 行 1: python: コマンドが見つかりません",
        "bash: 行 1: python: 未找到命令",
        "bash: 줄 1: python: 명령어를 찾을 수 없음",
        "bash: python: Kommando nicht gefunden.",  # (nu46 finding 2's paste)
    ],
    "cat: /x/a.txt: No such file or directory": [
        "cat: /x/a.txt: Datei oder Verzeichnis nicht gefunden",
        "cat: /x/a.txt: Aucun fichier ou dossier de ce type",
        "cat: /x/a.txt: No existe el fichero o el directorio",
        "cat: /x/a.txt: Ficheiro ou pasta inexistente",
        "cat: /x/a.txt: Arquivo ou diretório inexistente",
        "cat: /x/a.txt: File o directory non esistente",
        "cat: /x/a.txt: Нет такого файла или каталога",
        "cat: /x/a.txt: そのようなファイルやディレクトリはありません",
        "cat: /x/a.txt: 没有那个文件或目录",
        "cat: /x/a.txt: 그런 파일이나 디렉터리가 없습니다",
    ],
    "ls: cannot access 'docs': No such file or directory": [
        "ls: Zugriff auf 'docs' nicht möglich: Datei oder Verzeichnis nicht gefunden",
        "ls: impossible d'accéder à 'docs': Aucun fichier ou dossier de ce type",
        "ls: no se puede acceder a 'docs': No existe el fichero o el directorio",
        "ls: não foi possível acessar 'docs': Arquivo ou diretório inexistente",
        "ls: impossibile accedere a 'docs': File o directory non esistente",
        "ls: невозможно получить доступ к 'docs': Нет такого файла или каталога",
        "ls: 'docs' にアクセスできません: そのようなファイルやディレクトリはありません",
        "ls: 无法访问 'docs': 没有那个文件或目录",
        "ls: 'docs'에 접근할 수 없음: 그런 파일이나 디렉터리가 없습니다",
    ],
    "bash: line 1: cd: web: No such file or directory": [
        "bash: Zeile 1: cd: web: Datei oder Verzeichnis nicht gefunden",
        "bash: ligne 1 : cd: web: Aucun fichier ou dossier de ce type",
        "bash: 1 行: cd: web: そのようなファイルやディレクトリはありません",
        "bash: 第 1 行：cd: web: 没有那个文件或目录",
        "bash: 행 1번: cd: web: 그런 파일이나 디렉터리가 없습니다",
    ],
    "bash: line 1: ./deploy.sh: Permission denied": [
        "bash: Zeile 1: ./deploy.sh: Keine Berechtigung",
        "bash: ligne 1: ./deploy.sh: Permission non accordée",
        "bash: línea 1: ./deploy.sh: Permiso denegado",
        "bash: linha 1: ./deploy.sh: Permissão recusada",
        "bash: linha 1: ./deploy.sh: Permissão negada",
        "bash: riga 1: ./deploy.sh: Permesso negato",
        "bash: строка 1: ./deploy.sh: Отказано в доступе",
        "bash: 行 1: ./deploy.sh: 許可がありません",
        "bash: 行 1: ./deploy.sh: 权限不够",
        "bash: 줄 1: ./deploy.sh: 허가 거부",
    ],
    "fatal: The current branch main has no upstream branch.": [
        "Schwerwiegend: Der aktuelle Branch main hat keinen Upstream-Branch.",
        "fatal\xa0: La branche courante main n'a pas de branche amont.",
        "fatal: la branche courante main n'a pas de branche amont.",  # (nu46 finding 2's)
        "fatal: La rama actual main no tiene una rama upstream.",
        "致命错误：当前分支 main 没有对应的上游分支。",
    ],
    "fatal: not a git repository (or any of the parent directories): .git": [
        "Schwerwiegend: Kein Git-Repository (oder irgendeines der Elternverzeichnisse): .git",
        "fatal : ni ceci ni aucun de ses répertoires parents n'est un dépôt git : .git",
        "fatal: no es un repositorio git (ni ninguno de los directorios superiores): .git",
        "fatal: .git non è un repository Git (né lo è alcuna delle directory genitrici)",
        "fatal: не найден git репозиторий (или один из родительских каталогов): .git",
        "致命错误：不是 git 仓库（或者任何父目录）：.git",
        "fatal: (현재 폴더 또는 상위 폴더 중 일부가) 깃 저장소가 아닙니다: .git",
    ],
    "fatal: pathspec 'a.txt' did not match any files": [
        "Schwerwiegend: Pfadspezifikation 'a.txt' stimmt mit keinen Dateien überein",
        "fatal: спецификатор пути «a.txt» не соответствует ни одному файлу",
        "致命錯誤: 路徑規格 “a.txt” 未符合任何檔案",
    ],
}


@pytest.mark.parametrize(
    "english, said", [(english, said) for english, each in LOCALISED.items() for said in each]
)
def test_an_error_in_another_language_is_the_english_one(english, said):
    """The same error printed in the user's language has the English one's signature: a
    paste of it found no past failure (nu46 finding 2), whose fix is the same."""
    assert signature(said) == signature(english)
    # as a failed call's output holds it too, the key line found among others
    assert signature(f"Exit code 1\n{said}\n") == signature(f"Exit code 1\n{english}\n")


def test_a_localised_error_line_is_the_key_line_as_the_english_one_is():
    """A line in another language names its error as the English one does: make's summary
    under it said more than it (`Error 1`: 1, the German line none)."""
    output = (
        "Exit code 2\nmake: *** [Makefile:3: all] Error 1\n"
        "bash: Zeile 3: gh: Kommando nicht gefunden."
    )
    assert signature(output) == "command not found: gh"


@pytest.mark.parametrize(
    "said, other",
    [
        # another command, another file, another error: as in English, each its own
        ("bash: Zeile 1: python: Kommando nicht gefunden.", "bash: python3: command not found"),
        ("cat: a.txt: Datei oder Verzeichnis nicht gefunden", "cat: b.txt: No such file"),
        ("bash: línea 1: ./x.sh: Permiso denegado", "bash: ./x.sh: No such file or directory"),
        ("fatal: La rama actual main no tiene una rama upstream.", "fatal: not a git repository"),
    ],
)
def test_an_error_in_another_language_is_no_other_error(said, other):
    assert signature(said) != signature(other)


@pytest.mark.parametrize(
    "line",
    [
        # no catalogue's words: a program's own message and a sentence stay as they are
        "Fehler: Datei nicht gefunden",
        "错误: 需要 websocket-client: pip install websocket-client",
        "Erreur génération pdf: No module named 'weasyprint'",
        "fatal: La rama actual no importa",
        "Hinweis: Kommando nicht gefunden, bitte installieren",
    ],
)
def test_other_words_in_another_language_stay_as_they_are(line):
    assert signature(line) == normalise(line)
    assert "command not found" not in signature(line)
    assert "No such file" not in signature(line)


def test_a_command_not_found_keeps_the_command():
    """The missing command is the error: python and pnpm have different fixes."""
    assert signature("zsh: command not found: pnpm") == "command not found: pnpm"
    # Other errors that say "not found" are left as they are.
    for line in ("Error: module not found: x", "bash: ./run.sh: No such file or directory"):
        assert not signature(line).startswith("command not found"), line


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            "Exit code 1\n(eval):cd:1: no such file or directory: backend",
            "cd: no such file or directory: backend",
        ),
        ("zsh:cd:3: no such file or directory: backend", "cd: no such file or directory: backend"),
        ("cd: no such file or directory: backend", "cd: no such file or directory: backend"),
        # dash's, in a Makefile or an npm script, and bash's: the same folder not there
        ("/bin/sh: 1: cd: can't cd to backend", "cd: no such file or directory: backend"),
        ("sh: 12: cd: can't cd to backend", "cd: no such file or directory: backend"),
        (
            "bash: line 1: cd: backend: No such file or directory",
            "cd: no such file or directory: backend",
        ),
        # pasted among other words, as find reads a question
        (
            "getting this error: (eval):cd:1: no such file or directory: backend - any idea?",
            "getting this error: cd: no such file or directory: backend - any idea?",
        ),
        (
            "(eval):1: no matches found: ~/.claude-backup-*",
            "zsh: no matches found: <path>/.claude-backup-*",
        ),
        (
            "zsh: no matches found: ~/.claude-backup-*",
            "zsh: no matches found: <path>/.claude-backup-*",
        ),
    ],
)
def test_where_zsh_was_is_no_part_of_its_error(output, expected):
    """Claude Code runs commands through zsh's eval (`(eval):cd:1: ...`), a script says
    `zsh:cd:3:`, a terminal `cd: ...`: one error, pasted from either."""
    assert signature(output) == expected


@pytest.mark.parametrize("version", ["v22.16.0", "10.33.2", "Python 3.11.7", "git version 2.39.2"])
def test_what_a_version_check_printed_before_the_failure_is_not_the_key_line(version):
    """`node --version && pnpm --version`: node's version, then pnpm's refusal, which names
    no error word: the key line was `v22.16.0`, signed `v<n>`, and every later failure of
    the chain with pnpm's words was another error (sixteenth held-out set)."""
    refusal = 'This project is configured to use yarn because /u/package.json has a "x" field'
    assert key_line(f"Exit code 1\n{version}\n{refusal}") == refusal
    assert key_line(f"Exit code 1\n{version}") == version  # nothing else: it stands for it


def test_when_nothing_names_an_error_a_warning_is_not_the_key_line():
    output = (
        "Exit code 1\n"
        "warning: in the working copy of 'a.txt', LF will be replaced by CRLF\n"
        "The following paths are ignored by one of your .gitignore files:\n"
        "dist\n"
        "hint: Use -f if you really want to add them."
    )
    assert key_line(output) == (
        "The following paths are ignored by one of your .gitignore files: dist"
    )
    # Only noise: the first line still stands for it.
    assert key_line("warning: a\nhint: b") == "warning: a"


# Claude Code's own messages as versions and places word them: the same error.
CLAUDE_CODE_REWORDED = [
    # 2.1.39 and 2.1.89: the advice after the error changed
    (
        "File content (85812 tokens) exceeds maximum allowed tokens (25000). Please use offset"
        " and limit parameters to read specific portions of the file, or use the GrepTool to"
        " search for specific content.",
        "File content (21901 tokens) exceeds maximum allowed tokens (10000). Use offset and"
        " limit parameters to read specific portions of the file, or search for specific"
        " content instead of reading the whole file.",
    ),
    # 2.1.68 and later add where Claude ran (the project's folder) to a missing file
    (
        "<tool_use_error>File does not exist.</tool_use_error>",
        "File does not exist. Note: your current working directory is /Users/x/tele/paas.",
    ),
    (
        "File does not exist. Note: your current working directory is /home/d/finance.",
        "<tool_use_error>File does not exist. Note: your current working directory is"
        " /Users/x/My Project.</tool_use_error>",
    ),
    # a cancelled sibling names the call that errored (2.1.81, was "Sibling tool call errored")
    (
        "<tool_use_error>Cancelled: parallel tool call Bash(which teams teams-for-linux"
        " teams-nightl…) errored</tool_use_error>",
        "<tool_use_error>Cancelled: parallel tool call Bash(gh pr view 1972 --repo"
        " utilitywarehouse/…) errored</tool_use_error>",
    ),
]


@pytest.mark.parametrize("a, b", CLAUDE_CODE_REWORDED)
def test_claude_codes_messages_reworded_by_version_or_place_have_one_signature(a, b):
    assert signature(a) == signature(b)


def test_a_cancelled_parallel_call_is_a_sibling_error_and_keeps_what_names_the_error():
    text = (
        "<tool_use_error>Cancelled: parallel tool call Bash(which teams teams-for-linux"
        " teams-nightl…) errored</tool_use_error>"
    )
    assert classify(text) == "sibling_error"
    assert signature(text) == "Cancelled: parallel tool call <str> errored"
    # what the file is about is kept: another message, another signature
    assert signature("File does not exist. Note: your current working directory is /a.") == (
        "File does not exist."
    )
    assert signature("Exit code 1\nls: ./Note: No such file or directory") != signature(
        "Exit code 1\nls: ./x: No such file or directory"
    )


_PS = "/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted"


@pytest.mark.parametrize(
    "text, expected",
    [
        # Codex in a macOS sandbox: Homebrew's shellenv (sourced by the login shell) prints
        # this before every output; the command's own error is the key line
        (
            f"Exit code 127\n{_PS}\nzsh:1: command not found: pytest",
            "zsh:1: command not found: pytest",
        ),
        (
            f"Exit code 1\n{_PS}\nsed: a.py: No such file or directory",
            "sed: a.py: No such file or directory",
        ),
        # a search that found nothing printed nothing of its own
        (f"Exit code 1\n{_PS}", "Exit code 1"),
        # the user's startup files, zsh's and bash's wording, go when the command said more
        (
            "Exit code 1\n/Users/me/.zshrc:12: command not found: pyenv\nThe build stopped",
            "The build stopped",
        ),
        (
            "Exit code 2\n/home/me/.bash_profile: line 3: nvm: command not found\n"
            "make: *** [all] Error 2",
            "make: *** [all] Error 2",
        ),
        ("Exit code 1\n/etc/zshrc:7: no such file or directory: /x\nerror: bad", "error: bad"),
        # a script of a profile.d folder, sourced by one (conda's: thirty-first held-out set)
        (
            "Exit code 1\n/home/me/miniconda3/etc/profile.d/conda.sh:48: parse error near `()'\n"
            "/etc/profile.d/lang.sh: line 3: warning: setlocale\nThe build stopped",
            "The build stopped",
        ),
        # the snapshot of the user's shell Claude Code sources before each command, which
        # evaluates conda's function again (thirty-sixth held-out set)
        (
            "Exit code 1\n/home/z/miniconda3/etc/profile.d/conda.sh: line 48: syntax error near"
            " unexpected token `('\n/home/z/.claude/shell-snapshots/snapshot-bash-177-j7rk.sh:"
            " eval: line 89: syntax error near unexpected token `('\n/home/z/.claude/shell-"
            'snapshots/snapshot-bash-177-j7rk.sh: eval: line 89: `conda() { /c/conda "$@"; }\''
            "\nTotal loss: 9.8\nGradient check: Traceback (most recent call last):\n  File"
            ' "<string>", line 29'
            "\nRuntimeError: element 0 of tensors does not require grad",
            "RuntimeError: element 0 of tensors does not require grad",
        ),
        (
            "Exit code 1\n/Users/me/.claude/shell-snapshots/snapshot-zsh-1760-jk.sh:12: command"
            " not found: compdef\nError: Cannot find module 'left-pad'",
            "Error: Cannot find module 'left-pad'",
        ),
        # ... but are the error when nothing else was printed (`source ~/.zshrc`)
        (
            "Exit code 1\n/Users/me/.zshrc:12: command not found: foo",
            "/Users/me/.zshrc:12: command not found: foo",
        ),
        # a project's own script is no startup file
        (
            "Exit code 1\n./deploy.sh: line 5: foo: command not found",
            "./deploy.sh: line 5: foo: command not found",
        ),
    ],
)
def test_the_shells_startup_lines_are_no_key_line(text, expected):
    assert key_line(text) == expected


def test_codexs_sandbox_wrapper_is_no_key_line():
    """Codex 0.3x wraps a command that failed in its sandbox as `failed in sandbox X with
    execution error: ..., stdout: <out>, stderr: <err>`: two builds with different
    TypeScript errors had that one line as key line, so one signature (fifth held-out set)."""
    wrap = "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error,"
    one = (
        f"{wrap} exit code: 2, stdout: \n> tsc --noEmit\n\nsrc/a.ts(80,9): error TS2322: Type"
        " '\"user\"' is not assignable to type 'Role'.\nExit status 2\n, stderr: (node:1)"
        " [DEP0169] DeprecationWarning: `url.parse()`"
    )
    other = one.replace(
        "error TS2322: Type '\"user\"' is not assignable to type 'Role'.",
        ("error TS2741: Property 'x' is missing in type 'A' but required in type 'B'."),
    )
    assert (
        key_line(one)
        == "src/a.ts(80,9): error TS2322: Type '\"user\"' is not assignable to type 'Role'."
    )
    assert signature(one) != signature(other)
    assert key_line(
        f"{wrap} exit code: 1, stdout: , stderr: mkdir: /x: Operation not permitted"
    ) == ("mkdir: /x: Operation not permitted")
    # nothing but the wrapper: it is the key line
    assert key_line(f"{wrap} exit code: 1, stdout: , stderr: ").startswith("failed in sandbox")


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Exit code 1\nnpm ERR! Missing script: lint", 1),
        ("Exit code 127\n/bin/bash: line 1: python: command not found", 127),
        ("Exit code -1", -1),
        ("  Exit code 2  \n", 2),
        ("Error: Exit code 128\nfatal: not a git repository", 128),
        ("<tool_use_error>Exit code 3\nboom</tool_use_error>", 3),
        ("Exit code 143\nCommand timed out after 2m 0s", 143),
        ("exit code 1 of the last step", None),
        ("npm ERR! Exit code 1", None),
        ("Exit code 12a", None),
        ("Exit code: 1", None),
        ("Command timed out after 2m 0s", None),
        ("", None),
    ],
)
def test_exit_status_is_the_status_a_failure_is_stored_with(text, status):
    """Every agent's reader stores a failed command with `Exit code N` first; only that line,
    where classify() reads it, is its exit status."""
    assert sig.exit_status(text) == status
    if status is not None:
        assert sig.exit_status(sig.status_line(status)) == status


# A Gradle build that failed in compileDebugKotlin (thirteenth held-out set, cut).
GRADLE_KOTLIN = """Exit code 1

> Task :app:compileDebugKotlin FAILED
e: file:///Users/n/leapscholar-android/app/src/main/java/com/x/ui/ShortlistScreen.kt:531:41 \
'fun ColumnScope.AnimatedVisibility(visible: Boolean): Unit' cannot be called in this context \
with an implicit receiver. Use an explicit receiver if necessary.
[Incubating] Problems report is available at: file:///Users/n/leapscholar-android/build/x.html

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileDebugKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunner
   > Compilation error. See log for more details

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 1m 15s"""

# One whose compiler line came after Gradle's cause (KSP), its warnings before it.
GRADLE_KSP = """Exit code 1
> Task :bol-bachchan-android:compileDebugKotlin
w: file:///Users/n/app/src/main/java/com/x/WaveRecorder.kt:100:13 This is a delicate API and \
its use requires care. Make sure you fully read and understand documentation.
> Task :bol-bachchan-android:bundleLibCompileToJarDebug


FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:kspDebugKotlin'.
> A failure occurred while executing com.google.devtools.ksp.gradle.KspAAWorkerAction
   > Error while resolving ksp.org.jetbrains.kotlin.fir.declarations.impl.FirPropertyImpl
     from STATUS to BODY_RESOLVE


> Task :app:kspDebugKotlin FAILED
e: [ksp] ksp.org.jetbrains.kotlin.utils.exceptions.KotlinIllegalArgumentExceptionWithAttachments
* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 18s"""


@pytest.mark.parametrize(
    "output, expected",
    [
        (
            GRADLE_KOTLIN,
            "e: file:///Users/n/leapscholar-android/app/src/main/java/com/x/ui/ShortlistScreen.kt"
            ":531:41 'fun ColumnScope.AnimatedVisibility(visible: Boolean): Unit' cannot be"
            " called in this context with an implicit receiver. Use an explicit receiver if"
            " necessary.",
        ),
        (
            GRADLE_KSP,
            "Execution failed for task ':app:kspDebugKotlin'. > A failure occurred while"
            " executing com.google.devtools.ksp.gradle.KspAAWorkerAction > Error while resolving"
            " ksp.org.jetbrains.kotlin.fir.declarations.impl.FirPropertyImpl",
        ),
        (
            "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
            "Could not resolve all files for configuration ':app:debugRuntimeClasspath'.\n"
            "> Could not find com.squareup.retrofit2:retrofit:3.9.0.\n"
            "  Required by:\n      project :app\n\n* Try:\n> Run with --stacktrace option",
            "Could not resolve all files for configuration ':app:debugRuntimeClasspath'."
            " > Could not find com.squareup.retrofit2:retrofit:3.9.0.",
        ),
    ],
)
def test_a_gradle_builds_key_line_is_its_error_not_its_banner(output, expected):
    """`> Task :app:x FAILED` and `FAILURE: Build failed with an exception.` are in every
    failed build: as key lines, any Kotlin error matched any other."""
    assert key_line(output) == expected


def test_gradle_errors_of_one_task_are_not_one_signature():
    other = (
        "> Task :app:compileDebugKotlin FAILED\ne: file:///Users/me/app/src/main/java/com/x/"
        "ProfileViewModel.kt:88:17 Unresolved reference: userRepository\n"
    )
    assert signature(other) == "e: <url> Unresolved reference: userRepository"
    assert signature(other) != signature(GRADLE_KOTLIN)
    retrofit = "FAILURE: Build failed with an exception.\n\n* What went wrong:\n" + (
        "Could not resolve all dependencies for configuration ':app:debugCompileClasspath'.\n"
        "> Could not resolve com.squareup.retrofit2:retrofit:3.9.0."
    )
    assert signature(retrofit) != signature(GRADLE_KSP)
    # as pasted, no line of it is the KSP crash's signature
    assert signature(GRADLE_KSP) not in sig.normalised_lines(retrofit)


def test_a_warning_in_brackets_loses_to_the_error():
    """quarto render (twelfth held-out set): pandoc's warning came first."""
    output = (
        "Exit code 1\n[ 5/12] docs/grants/step_proposal.qmd\n"
        "[WARNING] Citeproc: citation WakeHPC not found\n[ 6/12] docs/index.qmd\n"
        "File ../../references.bib not found in resource path\n"
    )
    assert key_line(output) == "File ../../references.bib not found in resource path"


@pytest.mark.parametrize(
    "bash, zsh",
    [
        # Claude Code runs commands through bash or zsh, whichever the user's shell is
        (
            "Exit code 1\nbash: line 16: cd: apps/api: No such file or directory",
            "Exit code 1\n(eval):cd:1: no such file or directory: apps/api",
        ),
        (
            "bash: cd: apps/api: No such file or directory",
            "cd: no such file or directory: apps/api",
        ),
        (
            "/bin/bash: line 1: venv/bin/activate: No such file or directory",
            "(eval):source:1: no such file or directory: venv/bin/activate",
        ),
        (
            "bash: line 1: ./run.sh: No such file or directory",
            "zsh: no such file or directory: ./run.sh",
        ),
        ("bash: line 1: ./deploy.sh: Permission denied", "zsh: permission denied: ./deploy.sh"),
        ("bash: cd: /etc/hosts: Not a directory", "cd: not a directory: /etc/hosts"),
        ("bash: line 1: gh: command not found", "zsh:1: command not found: gh"),
        ("./deploy.sh: line 3: gh: command not found", "./deploy.sh:3: command not found: gh"),
        ("gh: command not found", "command not found: gh"),
    ],
)
def test_a_shells_error_about_a_file_is_one_error_in_bash_and_zsh(bash, zsh):
    assert signature(bash) == signature(zsh)


def test_a_shells_error_about_a_file_keeps_what_failed():
    # a cd is not a run of a script, and a program's own message stays as it is
    assert signature("bash: cd: apps/api: No such file or directory") != signature(
        "bash: apps/api: No such file or directory"
    )
    assert signature("cat: notes.md: No such file or directory") == (
        "cat: notes.md: No such file or directory"
    )
    # a cd's error does not hold a run's: no bare `no such file or directory: <path>`
    run = sig.loose(signature("bash: line 5: .husky/_/husky.sh: No such file or directory"))
    assert run not in sig.loose(signature("(eval):cd:1: no such file or directory: apps/api"))


def test_a_negation_spelled_short_or_long_is_one_signature():
    """curl's words changed between versions."""
    assert signature(
        "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server"
    ) == signature(
        "curl: (7) Failed to connect to localhost port 8080 after 2 ms: Could not connect to server"
    )
    # a missing module's name is read before (`Can't resolve 'x'` keeps x)
    assert signature("Module not found: Error: Can't resolve 'lodash' in '/x/src'") == (
        "Module not found: Error: Cannot resolve 'lodash' in <str>"
    )


def test_kotlin_errors_before_2_0_lose_their_place_as_2_0_errors_do():
    """Kotlin 1.x placed an error as `e: /x/A.kt: (12, 5): `, 2.0 as `e: file:///x/A.kt:12:5 `:
    the same error in another file, or at another line, is one signature in either form."""
    old = [
        "e: /home/me/app/src/main/kotlin/App.kt: (12, 5): Unresolved reference: foo",
        "Exit code 1\n> Task :app:compileKotlin FAILED\n"
        "e: /home/me/app/src/main/kotlin/Other.kt: (3, 17): Unresolved reference: foo\n"
        "FAILURE: Build failed with an exception.",
        "e: C:\\Users\\me\\app\\Other.kt: (3, 17): Unresolved reference: foo",
    ]
    new = "e: file:///home/me/app/src/main/kotlin/App.kt:40:9 Unresolved reference: foo"
    assert {signature(text) for text in old} == {signature(new)}
    # The message stays: another reference, or another error, is another signature.
    assert signature(old[0].replace(": foo", ": bar")) != signature(new)
    assert signature("e: /x/A.kt: (1, 2): Type mismatch: inferred type is String") != signature(new)


_NAME = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,20}", fullmatch=True)
_FOLDER = st.from_regex(
    r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,12}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,12}){0,3}", fullmatch=True
)


@settings(max_examples=200, deadline=None)
@given(name=_NAME, line=st.integers(1, 9999))
def test_every_shell_form_of_a_missing_program_is_one_signature(name, line):
    """Whatever the program and the line: bash's, dash's, `exec`'s and zsh's words."""
    forms = [
        f"sh: {line}: {name}: not found",
        f"sh: {line}: exec: {name}: not found",
        f"/bin/sh: {line}: exec: {name}: not found",
        f"bash: line {line}: exec: {name}: not found",
        f"/bin/bash: line {line}: {name}: command not found",
        f"zsh: command not found: {name}",
    ]
    signed = {signature(form) for form in forms}
    assert len(signed) == 1
    assert signed.pop().startswith("command not found: ")


@settings(max_examples=200, deadline=None)
@given(folder=_FOLDER, line=st.integers(1, 9999), absolute=st.booleans())
def test_a_folder_cd_could_not_enter_is_one_signature_in_dash_bash_and_zsh(folder, line, absolute):
    folder = f"/home/me/{folder}" if absolute else folder
    forms = [
        f"/bin/sh: {line}: cd: can't cd to {folder}",
        f"sh: {line}: cd: can't cd to {folder}",
        f"bash: line {line}: cd: {folder}: No such file or directory",
        f"(eval):cd:{line}: no such file or directory: {folder}",
    ]
    assert len({signature(form) for form in forms}) == 1


@settings(max_examples=200, deadline=None)
@given(
    folder=_FOLDER,
    file=st.from_regex(r"[A-Z][A-Za-z0-9]{0,15}\.kts?", fullmatch=True),
    at=st.tuples(*[st.integers(1, 9999)] * 4),
    message=st.sampled_from(
        ["Unresolved reference: foo", "Type mismatch: inferred type is String but Int was expected"]
    ),
)
def test_a_kotlin_error_is_one_signature_placed_either_way(folder, file, at, message):
    path = f"/home/me/{folder}/{file}"
    old = f"e: {path}: ({at[0]}, {at[1]}): {message}"
    new = f"e: file://{path}:{at[2]}:{at[3]} {message}"
    assert signature(old) == signature(new)


@settings(max_examples=200, deadline=None)
@given(folder=_FOLDER, line=st.integers(1, 9999), absolute=st.booleans())
def test_a_file_a_shell_could_not_use_is_one_signature_in_dash_bash_and_zsh(folder, line, absolute):
    """A script not there, not executable, a file to source or to write to: dash's words
    (`sh: 1: ./x: not found`, `cannot open`) are bash's and zsh's error; a file it could not
    write, not there or not allowed, its own (`cannot create ...`)."""
    path = f"/home/me/{folder}/run.sh" if absolute else f"./{folder}/run.sh"
    missing = [
        f"sh: {line}: {path}: not found",
        f"bash: {path}: No such file or directory",
        f"bash: line {line}: {path}: No such file or directory",
        f"zsh: no such file or directory: {path}",
        f"sh: {line}: .: cannot open {path}: No such file",
        f"sh: {line}: .: Can't open {path}",
    ]
    denied = [
        f"sh: {line}: {path}: Permission denied",
        f"bash: {path}: Permission denied",
        f"Exit code 126\nbash: line {line}: {path}: Permission denied",
        f"(eval):{line}: permission denied: {path}",
    ]
    # a file a shell could not write: dash says so, bash and zsh by their exit status
    written = [
        f"/bin/sh: {line}: cannot create {path}: Permission denied",
        f"Exit code 1\nbash: line {line}: {path}: Permission denied",
        f"Exit code 1\nzsh: permission denied: {path}",
    ]
    assert len({signature(text) for text in missing}) == 1
    assert len({signature(text) for text in denied}) == 1
    assert len({signature(text) for text in written}) == 1
    # a write into a folder that is not there (`> out/x.log` before `mkdir -p out`)
    no_folder = f"/bin/sh: {line}: cannot create {path}: Directory nonexistent"
    assert len({signature(t) for t in (missing[0], denied[0], written[0], no_folder)}) == 4


def test_a_write_into_a_missing_folder_is_no_script_not_there():
    """dash's `cannot create X: Directory nonexistent` (a redirect into a folder not made
    yet) was `zsh: no such file or directory: X`, the signature of a script not there (`sh: 1:
    X: not found`), whose fix (the script's path, a `cd`) is no `mkdir -p`. It is a file
    dash could not write, whatever the reason (`Is a directory` was read as a missing file
    named `X: Is a directory`), its own subject (refuses_a_shell_file)."""
    write = "/bin/sh: 1: cannot create /x/out/build.log: Directory nonexistent"
    run = "/bin/sh: 1: /x/out/build.log: not found"
    assert signature(write) == "sh: cannot create <path>/build.log: Directory nonexistent"
    assert sig.loose(signature(write)) != sig.loose(signature(run))
    assert not sig.runs_a_missing_file(signature(write))
    assert sig.refuses_a_shell_file(signature(write)) and sig.says_a_file_is_missing(
        signature(write)
    )
    assert signature("sh: 2: cannot create /x/out: Is a directory") == (
        "sh: cannot create <path>/out: Is a directory"
    )
    # a file dash could not open is bash's and zsh's error, whatever the reason
    assert signature("sh: 1: .: cannot open /x/env: Is a directory") == (
        signature("bash: /x/env: Is a directory")
    )


@settings(max_examples=100, deadline=None)
@given(
    code=st.sampled_from(["ENOENT", "E404", "ERESOLVE", "EACCES", "ELIFECYCLE"]),
    detail=st.from_regex(r"[A-Za-z][A-Za-z0-9 ._-]{0,30}[A-Za-z0-9]", fullmatch=True),
)
def test_npm_9_and_npm_10_say_one_error(code, detail):
    """npm 10 says `npm error` where npm 9 said `npm ERR!`: an upgrade keeps the signature."""
    old = f"npm ERR! code {code}\nnpm ERR! {detail}"
    new = f"npm error code {code}\nnpm error {detail}"
    assert signature(old) == signature(new)
    assert "ERR!" not in signature(old)


def test_an_errno_keeps_its_number_where_no_message_says_it():
    assert signature("OSError: [Errno 2] No such file") != signature(
        "OSError: [Errno 13] Permission denied"
    )
    assert signature("failed with errno 2") != signature("failed with errno 13")
    # Not an address: C++'s and Rust's paths keep their `::`.
    assert "std::vector::size" in signature("undefined reference to std::vector::size()")


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        # Windows folders that start with n: `\n` in a path is no escaped line break
        (
            r"Error: Cannot find module 'C:\Users\me\node_modules\x\index.js'",
            "Error: Cannot find module <path>/index.js",
        ),
        (r"npm error path C:\Users\me\new-app\package.json", "npm error path <path>/package.json"),
        (r"\\server\share\new\run.cmd: Permission denied", "run.cmd: Permission denied"),
        (
            r"'\\server\share\new\run.cmd' is not recognized as an internal or external command",
            r"command not found: \\server\share\new\run.cmd",
        ),
        # ...while a hook's message still has its escaped line breaks read as such
        (
            r"Pre-commit validation failed:\n\n[FORMAT] src/a.py needs formatting\nRun black",
            "Pre-commit validation failed: [FORMAT] <path>/a.py needs formatting",
        ),
    ],
)
def test_a_windows_path_is_not_cut_at_its_folders_that_start_with_n(output, expected):
    assert signature(output) == expected


@pytest.mark.parametrize(
    "outputs",
    [
        # the program's folder, its .exe and which Python it is go
        [
            "python: can't open file '/x/y.py': [Errno 2] No such file or directory",
            "python3: can't open file '/a/b/y.py': [Errno 2] No such file or directory",
            "/usr/bin/python3.11: can't open file '/a/y.py': [Errno 2] No such file or directory",
            r"C:\Program Files\Python 3.11\python.exe: can't open file 'C:\x\y.py': [Errno 2]"
            " No such file or directory",
        ],
        [
            "/usr/local/bin/node: bad option: --foo",
            "node: bad option: --foo",
            r"C:\nodejs\node.exe: bad option: --foo",
        ],
        # a script's `#!/usr/bin/env node` without node: the shell's command not found
        [
            "/usr/bin/env: 'node': No such file or directory",
            "env: node: No such file or directory",
            "zsh: command not found: node",
        ],
        # a socket's or a database's address is a URL like any other
        [
            "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker"
            " daemon running?",
            "Cannot connect to the Docker daemon at unix:///Users/me/.docker/run/docker.sock. Is"
            " the docker daemon running?",
        ],
        [
            "Error: connect ECONNREFUSED postgres://app@localhost:5432/app",
            "Error: connect ECONNREFUSED postgresql://me@db.internal:6543/other",
        ],
        # a port in use on any address and any system
        [
            "Error: listen EADDRINUSE: address already in use :::3000",
            "Error: listen EADDRINUSE: address already in use 127.0.0.1:8080",
            "Error: listen EADDRINUSE: address already in use [::1]:5173",
            "Error: listen EADDRINUSE: address already in use ::1:5173",
        ],
        # Linux numbers EADDRINUSE 98, macOS 48: the message says which
        [
            "OSError: [Errno 98] Address already in use",
            "OSError: [Errno 48] Address already in use",
        ],
    ],
)
def test_one_error_wherever_its_program_or_port_lies(outputs):
    assert len({signature(output) for output in outputs}) == 1


def test_a_program_keeps_its_name():
    """Only the folder and `.exe` go: node and deno, python and pip differ."""
    assert signature("/usr/bin/node: bad option: --foo") != signature(
        "/usr/bin/deno: bad option: --foo"
    )
    assert signature("/usr/bin/pip3: error: x") != signature("/usr/bin/python3: error: x")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # Windows PowerShell 5.1's parser error: the message after the source and carets
        (
            "Exit code 1\nAt line:1 char:10\n+ ach ($sh in $s.Shapes) {\n+          ~~\n"
            "Unexpected token 'in' in expression or statement.\n"
            "    + CategoryInfo          : ParserError: (:) [],"
            " ParentContainsErrorRecordException\n"
            "    + FullyQualifiedErrorId : UnexpectedToken\n",
            "Unexpected token 'in' in expression or statement.",
        ),
        # localized, in a script
        (
            'Exit code 1\nNo C:\\x\\verificar.ps1:117 caractere:50\n+ ... Write-Host "a"\n'
            "+                                                  ~~~~\n"
            'A cadeia de caracteres não tem o terminador: ".\n'
            "    + CategoryInfo          : ParserError: (:) [],"
            " ParentContainsErrorRecordException\n"
            "    + FullyQualifiedErrorId : TerminatorExpectedAtEndOfString\n",
            'A cadeia de caracteres não tem o terminador: ".',
        ),
        # a run-time error: its message before the record
        (
            "You cannot call a method on a null-valued expression.\nAt line:1 char:3\n"
            "+   $pres.Close()\n+   ~~~~~~~~~~~~~\n"
            "    + CategoryInfo          : InvalidOperation: (:) [], RuntimeException\n"
            "    + FullyQualifiedErrorId : InvokeMethodOnNull\n",
            "You cannot call a method on a null-valued expression.",
        ),
        # a native program's error, its category wrapped onto a line of its own
        (
            "Exit code 1\nnode.exe : Not enough arguments following: p\n"
            "At C:\\x\\gemini.ps1:22 char:14\n+ ... & node\n+   ~~~~\n"
            "    + CategoryInfo          : NotSpecified: (Not enough argumen \n"
            "   ts following: p:String) [], RemoteException\n"
            "    + FullyQualifiedErrorId : NativeCommandError\n",
            "node.exe : Not enough arguments following: p",
        ),
        # PowerShell 7's
        (
            "Exit code 1\nParserError: \nLine |\n   1 |  apply_patch << 'PATCH'\n"
            "     |               ~\n     | Missing file specification after redirection operator.",
            "ParserError: Missing file specification after redirection operator.",
        ),
    ],
)
def test_a_powershell_error_records_key_line_is_its_message(text, key):
    """Every PowerShell error record ends in the same `+ CategoryInfo : ParserError: (:)
    [], ParentContainsErrorRecordException`, which was their key line: two parse errors were
    one error, and the hook said so (a new user's try, session 27)."""
    assert sig.key_line(text) == key


def test_windows_powershell_puts_a_space_before_the_colon():
    """Windows PowerShell 5.1's `Get-Content : Cannot find path` is PowerShell 7's
    `Get-Content: ...`: one signature (a new user's try, session 27)."""
    old = "Get-Content : Cannot find path 'D:\\work\\app\\package.json' because it does not exist."
    new = "Get-Content: Cannot find path 'C:\\p\\package.json' because it does not exist."
    assert sig.signature(old) == sig.signature(new)
    assert sig.signature("a : b") == "a : b"


def test_a_file_gnu_quotes_is_kept_as_bsds_unquoted_one():
    """GNU's `ls: cannot access 'docs/a.md'` made the file `<str>`: every `ls` of a missing
    path was one error, and the hook gave their unrelated fixes as "same error signature"
    (a new user's try, session 27). Its name is kept, and another file is loose()'s."""
    gnu = "ls: cannot access 'docs/ARCHITECTURE.md': No such file or directory"
    assert (
        sig.signature(gnu) == "ls: cannot access <path>/ARCHITECTURE.md: No such file or directory"
    )
    other = "ls: cannot access '.claude/skills': No such file or directory"
    assert sig.signature(other) != sig.signature(gnu)
    assert sig.loose(sig.signature(other)) == sig.loose(sig.signature(gnu))
    assert sig.signature("mkdir: cannot create directory ‘/opt/x’: Permission denied") == (
        "mkdir: cannot create directory <path>/x: Permission denied"
    )
    assert (
        sig.signature("error: cannot open 'x': it is locked")
        == "error: cannot open x: it is locked"
    )


@pytest.mark.parametrize(
    "a, b",
    [
        (
            "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.csv'",
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/x/models/w.pt'",
        ),
        (
            "python3: can't open file '/home/a/run.py': [Errno 2] No such file or directory",
            "python: can't open file 'scripts/train.py': [Errno 2] No such file or directory",
        ),
        (
            "PermissionError: [Errno 13] Permission denied: '/etc/app.conf'",
            "PermissionError: [Errno 13] Permission denied: '/tmp/tmpa81x/out.log'",
        ),
        (
            "FileNotFoundError: [WinError 3] The system cannot find the path specified: "
            "'C:\\Users\\me\\a.json'",
            "FileNotFoundError: [WinError 3] The system cannot find the path specified: "
            "'D:\\x\\b.json'",
        ),
        (
            "Error: ENOENT: no such file or directory, open '/home/a/app/config.json'",
            "Error: ENOENT: no such file or directory, open 'src/settings.yaml'",
        ),
        (
            "OSError: [Errno 18] Invalid cross-device link: '/a/b.txt' -> '/c/d.txt'",
            "OSError: [Errno 18] Invalid cross-device link: '/a/e.txt' -> '/c/f.txt'",
        ),
        (
            "error: pathspec 'feature-x' did not match any file(s) known to git",
            "error: pathspec 'src/a.py' did not match any file(s) known to git",
        ),
        # PowerShell's (a made-up one about lib.rs was "the same error signature" of
        # another project's main.rs, and the hook gave its fix: a new user's try, session 35)
        (
            "Get-Content: Cannot find path 'C:\\proj\\src\\lib.rs' because it does not exist.",
            "Get-Content: Cannot find path 'C:\\w\\app\\main.rs' because it does not exist.",
        ),
        ("Error: Cannot find module './utils'", "Error: Cannot find module '../lib/helpers'"),
        (
            "src/a.tsx(1,20): error TS2307: Cannot find module '@/components/Button' or its "
            "corresponding type declarations.",
            "src/b.tsx(2,21): error TS2307: Cannot find module '@/lib/utils' or its corresponding "
            "type declarations.",
        ),
        (
            "Error: Cannot find module '/home/a/app/dist/index.js'",
            "Error: Cannot find module '/srv/b/dist/main.js'",
        ),
        ('✘ [ERROR] Could not resolve "js/app.js"', '✘ [ERROR] Could not resolve "src/main.ts"'),
    ],
)
def test_the_file_an_error_quotes_is_kept_and_another_file_is_loose(a, b):
    """Python's `[Errno 2] ...: 'x'`, Node's `ENOENT ..., open 'x'`, git's pathspec and a
    module's file were `<str>`: a made-up error about another file had "the same error
    signature" and that file's fix (a new user's tries, session 33). Each keeps its file's
    base name as GNU's quoted one does; the same error about another file is loose()'s."""
    assert signature(a) != signature(b)
    assert sig.loose(signature(a)) == sig.loose(signature(b))
    assert "<str>" not in signature(a) + signature(b)


def test_a_quoted_file_with_a_space_or_nothing_stays_a_value():
    """A quoted name with a space in it is no token a path rule can read; an empty one (an
    unset variable's) names no file."""
    assert signature("PermissionError: [Errno 13] Permission denied: 'my file.txt'") == (
        "PermissionError: [Errno <n>] Permission denied: <str>"
    )
    assert signature("FileNotFoundError: [Errno 2] No such file or directory: ''") == (
        "FileNotFoundError: [Errno <n>] No such file or directory: <str>"
    )
    # a temporary file is some file: the same error about another file, not the same error
    tmp = signature("FileNotFoundError: [Errno 2] No such file or directory: '/tmp/x/a.json'")
    assert tmp == "FileNotFoundError: [Errno <n>] No such file or directory: <tmp>"
    home = signature("FileNotFoundError: [Errno 2] No such file or directory: '/home/u/a.json'")
    assert tmp != home and sig.loose(tmp) == sig.loose(home)


@pytest.mark.parametrize(
    "spaced, plain",
    [
        (
            "sed: can't read /home/me/my project/src/app.js: No such file or directory",
            "sed: can't read /home/me/project/src/app.js: No such file or directory",
        ),
        (
            "sed: can't read C:\\Users\\me\\My Project (copy)\\src\\app.js: No such file or"
            " directory",
            "sed: can't read C:\\Users\\me\\project\\src\\app.js: No such file or directory",
        ),
        (
            "cat: /Users/me/My Drive/a.txt: No such file or directory",
            "cat: ~/a.txt: No such file or directory",
        ),
        (
            "ls: cannot access '/home/me/my project/a.txt': No such file or directory",
            "ls: cannot access 'a/b/a.txt': No such file or directory",
        ),
        ("grep: /home/me/my project/src: Is a directory", "grep: /home/me/src: Is a directory"),
        (
            "bash: line 1: cd: /home/me/my project/web: No such file or directory",
            "cd: no such file or directory: /home/me/web",
        ),
        (
            "cat: C:\\Users\\John Smith\\AppData\\Local\\Temp\\x\\a.txt: Permission denied",
            "cat: /tmp/x/b.txt: Permission denied",
        ),
    ],
)
def test_a_path_with_a_space_before_an_os_error_is_one_path(spaced, plain):
    """A folder with a space in its name split the path in two (`<path>/my <path>/app.js`):
    the same error was "not seen before" (nu40 finding 5). Before an OS error's message, or
    after zsh's, it is one path, named by its base name."""
    assert signature(spaced) == signature(plain)


def test_a_space_before_another_paths_start_is_no_part_of_a_path():
    """Only the path the message is about: a path before it, and words, stay."""
    assert signature("error: /usr/bin/git failed for /x y/z/a.txt: Permission denied") == (
        "error: <path>/git failed for <path>/a.txt: Permission denied"
    )
    assert signature("cat: /home/me/My Notes.txt: No such file or directory") == (
        "cat: <path>/My Notes.txt: No such file or directory"
    )


@pytest.mark.parametrize(
    "delimited, plain",
    [
        # a folder's copy or id glued to its name, in a Windows path (nu40 finding 5)
        (
            "apply_patch verification failed: Failed to find expected lines in C:\\WeGameApps"
            "\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\Script\\TaskMgr.lua:",
            "apply_patch verification failed: Failed to find expected lines in C:\\Games\\Editor"
            "\\Script\\Lin\\TaskMgr.lua:",
        ),
        (
            "C:\\x\\Editor(2001776)\\Script\\TaskMgr.lua:123: attempt to index a nil value",
            "C:\\Games\\Editor\\TaskMgr.lua:7: attempt to index a nil value",
        ),
        ("error: /home/me/app(1)/src/a.rs: bad", "error: /srv/app/src/a.rs: bad"),
        # a Windows path with a space in a folder's name, up to its file, anywhere
        (
            "'C:\\Program Files (x86)\\Microsoft Visual Studio\\bin\\cl.exe' failed: C:\\Program"
            " Files (x86)\\Microsoft Visual Studio\\bin\\cl.exe is not a compiler",
            "'C:\\VS\\bin\\cl.exe' failed: D:\\tools\\cl.exe is not a compiler",
        ),
        (
            "warning: C:\\Users\\John Smith\\AppData\\Local\\Temp\\x y\\a.txt is stale",
            "warning: C:\\Users\\me\\AppData\\Local\\Temp\\b.txt is stale",
        ),
        # a quoted path with a space in a folder's name, in an OS error
        (
            "FileNotFoundError: [Errno 2] No such file or directory: '/Users/me/Library/Mobile"
            " Documents/com~apple~CloudDocs/data.csv'",
            "FileNotFoundError: [Errno 2] No such file or directory: 'data/data.csv'",
        ),
        (
            "Error: ENOENT: no such file or directory, open '/home/me/My Project (copy)/package"
            ".json'",
            "Error: ENOENT: no such file or directory, open '/srv/app/package.json'",
        ),
        (
            "python3: can't open file '/home/me/my project/run.py': [Errno 2] No such file or"
            " directory",
            "python: can't open file '/srv/run.py': [Errno 2] No such file or directory",
        ),
        (
            "Get-Content: Cannot find path 'C:\\Program Files (x86)\\App\\app.ini' because it"
            " does not exist.",
            "Get-Content: Cannot find path 'C:\\App\\app.ini' because it does not exist.",
        ),
        (
            "fatal: pathspec 'My Drive/notes/a.md' did not match any files",
            "fatal: pathspec 'notes/a.md' did not match any files",
        ),
        # GNU's programs quote a file with a space in it, and only such a one
        (
            "cat: '/Users/me/Library/Application Support/Code/User/settings.json': No such file"
            " or directory",
            "cat: /home/me/.config/Code/User/settings.json: No such file or directory",
        ),
    ],
)
def test_a_delimited_path_with_a_space_or_parentheses_is_one_path(delimited, plain):
    """A path stopped at a space or at `(`: `<path>/OasisEraEditor(<n>)\\...\\TaskMgr.lua`, and
    another path to the same file was another error; a quoted path with a space in it was
    `<str>` where the same error without the space named its file (nu40 finding 5). Where
    quotes, an OS error or Windows's rules for names say where it ends, it is one path."""
    assert signature(delimited) == signature(plain)


def test_words_around_a_delimited_path_stay():
    """A path with a space in it is taken whole only where it is delimited: the words after a
    Windows path's file, a bare name with a space in it, a call's parentheses at a path's end
    and an unquoted path with no OS error after it stay as they were read."""
    assert signature("C:\\My Project (copy)\\src\\app.lua failed, see C:\\x\\b.txt") == (
        "<path>/app.lua failed, see <path>/b.txt"
    )
    assert signature("PermissionError: [Errno 13] Permission denied: 'my file.txt'") == (
        "PermissionError: [Errno <n>] Permission denied: <str>"
    )
    assert signature("#3 /usr/lib/libc.so.6(+0x29d90) [0x7f12]") == (
        "#<n> <path>/libc.so.6(+<hex>) [<hex>]"
    )
    assert signature("error: could not open /home/me/my.d project/a.js for reading") == (
        "error: could not open <path>/my.d <path>/a.js for reading"
    )


@pytest.mark.parametrize(
    "spaced, plain",
    [
        # spec-kit's check, from a folder named `00 vibe_projects` (nu44 finding 4)
        (
            "ERROR: tasks.md not found in /Users/me/00 vibe_projects/app/specs/001-byte-bridges",
            "ERROR: tasks.md not found in /home/u/app/specs/002-byte-bridges",
        ),
        (
            "error: could not open /home/me/my project/a.js for reading",
            "error: could not open /srv/a.js for reading",
        ),
        (
            "warning: ~/Library/Mobile Documents/com~apple~CloudDocs/x is stale",
            "warning: /x/y/x is stale",
        ),
        # several spaces in a folder's name, and in two (`00 vibe projects`, `my app`)
        (
            "ERROR: tasks.md not found in /Users/a/00 vibe projects/my app/specs/001-byte-bridges",
            "ERROR: tasks.md not found in /home/u/app/specs/002-byte-bridges",
        ),
        (
            "File created successfully at: /Users/me/Documents/PAI - TPOS/001-byte-bridges",
            "File created successfully at: /x/001-byte-bridges",
        ),
    ],
)
def test_an_unquoted_path_whose_next_word_goes_on_with_a_folder_is_one_path(spaced, plain):
    """A word after an absolute path's space that goes on with a `/` and starts no path is
    its next folder: the leftover of the split (`<path>/<n> <path>/<n>-byte-bridges`) made
    the same error in another folder "a different error" (nu44 finding 4)."""
    assert signature(spaced) == signature(plain)
    assert sig.loose(signature(spaced)) == sig.loose(
        signature(spaced.replace("001-byte-bridges", "002-other"))
    )


@pytest.mark.parametrize(
    "line, expected",
    [
        ("cp a/b c/d", "cp a/b c/d"),
        ("diff --git a/src/x.py b/src/x.py", "diff --git <path>/x.py <path>/x.py"),
        ("cp /x/a.txt b/c", "cp <path>/a.txt b/c"),
        ("error: /usr/bin/git failed for src/x", "error: <path>/git failed for src/x"),
        ("mv /x/a /y/b", "mv <path>/a <path>/b"),
        # a program of a `bin` folder and its arguments, a flag
        ("/x/venv/bin/python src/app.py", "<path>/python <path>/app.py"),
        ("/x/bin/streamlit run frontend/app.py", "<path>/streamlit run <path>/app.py"),
        ("/x/bin/gcc -I/x/include", "<path>/gcc <path>/include"),
        # the words of a sentence after a path (a task list's, held-out set 39)
        ("POST /v1/reports endpoint in src/x.py", "POST <path>/reports endpoint in <path>/x.py"),
        ("GET /api/blog API route at src/x.ts", "GET <path>/blog API route at <path>/x.ts"),
        ("/x/my app/y in src/z", "<path>/y in src/z"),
        ("/speckit.plan — set your a/b rules", "<path>/speckit.plan — set your a/b rules"),
        # a comment's marker starts no path
        ("//set the proper avl/SEW values", "//set the proper avl/SEW values"),
    ],
)
def test_two_paths_a_space_apart_stay_two(line, expected):
    """Not after a relative path, a file's name, a program of a `bin` folder or before
    another path's start, a flag or a sentence's words: two paths, or a path and words."""
    assert signature(line) == expected


@pytest.mark.parametrize(
    "home, other",
    [
        ("ls: cannot open directory '/home/alice': Permission denied", "/Users/bob"),
        ("cd: /Users/alice: Permission denied", "C:\\Users\\Bob"),
    ],
)
def test_a_home_folder_is_no_name(home, other):
    """A home folder is `~` whoever's it is: its user's name says whose machine it is."""
    user = "/home/alice" if "/home/alice" in home else "/Users/alice"
    assert signature(home) == signature(home.replace(user, other))
    assert "<path>:" in signature(home)
    assert signature("cd: /Users/alice/x: Permission denied") == ("cd: <path>/x: Permission denied")


def test_as_output_leaves_out_a_home_folder_s_user():
    """The words a failure must hold: not the user of a home folder (nu44 finding 9)."""
    assert sig.as_output("/home/alice/miniconda3/etc/profile.d/conda.sh: line 48: x") == (
        "~/miniconda3/etc/profile.d/conda.sh: line 48: x"
    )
    assert sig.as_output("see C:\\Users\\Bob\\a.txt or /srv/home/x") == (
        "see ~\\a.txt or /srv/home/x"
    )


@pytest.mark.parametrize(
    "line, token",
    [
        ("/bin/bash: -c: line 59: syntax error near unexpected token `('", "`('"),
        ("bash: -c: line 3: syntax error near unexpected token `newline'", "`newline'"),
        ("zsh:1: parse error near `)'", "`)'"),
        # bash's next line, the source it stopped in, pasted on the same line
        (
            "bash: -c: line 1: syntax error near unexpected token `(' bash: -c: line 1: `f() {'",
            "`('",
        ),
    ],
)
def test_a_shell_s_unexpected_token_is_kept_and_set_aside(line, token):
    """The token a shell's parser stopped at tells its fixes apart (`(`, `fi`, `newline`):
    kept, and set aside as a kept value is, so another token is the same error about
    another name."""
    assert token in signature(line)
    assert token not in sig.kept_set_aside(signature(line))
    other = line.replace(token, "`fi'", 1)
    assert signature(other) != signature(line)
    assert sig.kept_set_aside(signature(other)) == sig.kept_set_aside(signature(line))


@pytest.mark.parametrize(
    "line, other",
    [
        ("error: undefined variable 'pkgs'", "error: undefined variable 'lib'"),
        (
            "error: function 'anonymous lambda' called without required argument 'lib'",
            "error: function 'anonymous lambda' called without required argument 'home-manager'",
        ),
    ],
)
def test_nix_s_missing_name_is_kept(line, other):
    """The name nix could not find in the code, as Python's `name 'np' is not defined`: two
    errors of one form (nu44 finding 11), each the other's "same error, other names"."""
    assert signature(line) != signature(other)
    assert sig.kept_set_aside(signature(line)) == sig.kept_set_aside(signature(other))


@pytest.mark.parametrize(
    "error, other",
    [
        (
            "cat: /home/me/My Notes.txt: No such file or directory",
            "cat: /home/me/a.txt: No such file or directory",
        ),
        (
            "FileNotFoundError: [Errno 2] No such file or directory: '/x/My Notes.txt'",
            "FileNotFoundError: [Errno 2] No such file or directory: '/x/a.txt'",
        ),
        (
            "bash: line 1: cd: /home/me/my project: No such file or directory",
            "cd: no such file or directory: /srv/web",
        ),
        (
            "Error: EACCES: permission denied, open '/x/my dir/My Notes.txt'",
            "Error: EACCES: permission denied, open '/x/a.txt'",
        ),
        (
            "python: can't open file '/x/my dir/run me.py': [Errno 2] No such file or directory",
            "python: can't open file '/x/run.py': [Errno 2] No such file or directory",
        ),
    ],
)
def test_a_file_named_with_a_space_is_set_aside_whole(error, other):
    """A base name with a space in it, which normalise() keeps where an OS error says where
    it ends, is one file to loose(): it was `<path> <path>` (`<path>/My` and a bare
    `Notes.txt`), and the same error about another file was not found."""
    assert signature(error) != signature(other)
    assert sig.loose(signature(error)) == sig.loose(signature(other))


@pytest.mark.parametrize(
    "extension",
    ["mts", "cts", "d.mts", "d.cts", "mjs", "cjs", "tsx", "jsx", "vue", "svelte", "astro"],
)
def test_a_modern_file_name_is_a_file_to_loose(extension):
    """A bare name with the extension of an ES module's or CommonJS's TypeScript (`.mts`,
    `.cts`, a package's `index.d.mts`) or of a framework's component is a file's: the same
    error about another such file is loose()'s, as it is about a `.ts` (ans41 finding 2)."""
    a = signature(f"error: could not load index.{extension} while bundling")
    b = signature(f"error: could not load main.{extension} while bundling")
    assert a != b
    assert sig.loose(a) == sig.loose(b) == "error: could not load <path> while bundling"


def test_words_after_a_path_are_no_file_name_to_loose():
    """Only where an OS error ends it: words after a path stay words."""
    assert sig.loose("x: <path>/My Notes.txt is missing") == "x: <path> <path> is missing"


@pytest.mark.parametrize(
    "wording",
    [
        "RuntimeError: Expected all tensors to be on the same device, but found at least two"
        " devices, cuda:0 and cpu!",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two"
        " devices, mps:0 and cpu! (when checking argument for argument mat1 in method"
        " wrapper_mm)",
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cuda:0,"
        " different from other tensors on cpu (when checking argument in method"
        " wrapper_CUDA_addmm)",
        "RuntimeError: Expected all tensors to be on the same device, but got index is on cpu,"
        " different from other tensors on cuda:0 (when checking argument in method"
        " wrapper_CUDA__index_select)",
    ],
)
def test_torchs_device_mismatch_is_one_error_in_any_wording(wording):
    """PyTorch words which tensors were on which devices by version and operation: one error,
    with one fix (nu39 finding 4: the other wording was "a different error")."""
    stored = (
        'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
        "RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu,"
        " different from other tensors on cuda:0 (when checking argument in method"
        " wrapper_CUDA_nll_loss_forward)"
    )
    shared = "RuntimeError: Expected all tensors to be on the same device"
    assert signature(wording) == signature(stored) == shared


def test_zshs_unmatched_pattern_is_one_path_and_another_file_is_found():
    """A route's `[eventId]` split zsh's unmatched path in two (`<path>/events[eventId]<path>/
    x.vue`), and a base name holding placeholders (`mcp-data-<n>-<hex>.json`) was no file
    loose() could set aside: the same error about another file was not found (a new user's
    tries, session 27)."""
    route = "zsh:1: no matches found: frontend/src/pages/admin/events/[eventId]/lottery.vue"
    other = "zsh:1: no matches found: src/pages/users/[userId]/profile.vue"
    assert sig.signature(route) == "zsh: no matches found: <path>/lottery.vue"
    assert sig.loose(sig.signature(route)) == sig.loose(sig.signature(other))
    assert sig.signature("(eval):1: no matches found: data-capture/*.ts") == (
        "zsh: no matches found: <path>/*.ts"
    )
    kept = "cp: <path>/mcp-data-<n>-<hex>.json: Operation not permitted"
    assert sig.loose(kept) == "cp: <path>: Operation not permitted"


@pytest.mark.parametrize(
    "line, signed",
    [
        (
            "sed: .specify/templates/commands/*.md: No such file or directory",
            "sed: <path>/*.md: No such file or directory",
        ),
        (
            "ls: src/components/*.tsx: No such file or directory",
            "ls: <path>/*.tsx: No such file or directory",
        ),
        ("cat: docs/**/README.md: No such file", "cat: <path>/README.md: No such file"),
        # markdown's bold around a path is no glob
        ("see **src/a.ts** here", "see **<path>/a.ts** here"),
    ],
)
def test_a_glob_in_any_message_is_one_path(line, signed):
    """A relative path's `*` ended it at the `/` before: `.specify/templates/commands/*.md`
    was `<path>/commands*.md`, a file that is no file (a new user's try, nu36)."""
    assert sig.normalise(line) == signed


def test_an_error_glued_to_a_progress_bar_starts_the_key_line():
    """brew's download bar and its error on one line, the cursor codes between gone: the
    bar was the signature's start, so the same error of another cask was not seen before (a
    new user's try, session 27). An error word after a letter or a space stays as it is."""
    bar = (
        "Exit code 1\n✘ Cask font-x (7.9)    Downloading 145.8MB/-------Error: A `brew"
        " install --cask font-x` process has already locked /Users/x/dl/ab12--X.zip.incomplete."
    )
    assert sig.key_line(bar).startswith("Error: A `brew install --cask font-x` process")
    assert sig.key_line("TypeError: x is not a function") == "TypeError: x is not a function"
    assert sig.key_line("[vite] Error: cannot find x") == "[vite] Error: cannot find x"


def _ember_run(failures: str, command: str = "ember exam --filter=loading") -> str:
    """An ember test run through a wrapper script (jsh), as Claude Code stores it: the
    wrapper's stderr (its `CommandError`) first, then the run's report."""
    return (
        "(node:71556) [DEP0060] DeprecationWarning: The `util._extend` API is deprecated.\n"
        "Testem finished with non-zero exit code. Tests failed.\n\nCommandError\n"
        "    at _$ (file:///home/me/app/node_modules/jsh/dist/index.mjs:346:19)\n"
        f"    at file:///home/me/app/scripts/test.mjs:20:3 {{\n  command: '{command}',\n"
        "  stdout: '',\n  stderr: '',\n  status: 1\n}\n\n"
        "WARNING in ./components/account-widget/lib/analytics.ts 5:0-122\n"
        "export 'Events' (reexported as 'Events') was not found in 'shared/enums'\n\n"
        f"1..4\n# tests 4\n# pass  2\n# skip  0\n# fail  2\n\n{failures}"
    )


def test_a_wrapper_s_command_failed_line_yields_to_the_failure():
    """A line that says only that a command failed (a wrapper's `CommandError`, `Command
    failed with exit code 1`, make's `*** Error 1`) is no key line while another line says
    more: five ember runs failing on five assertions had jsh's `CommandError` for key line,
    one signature, and a pasted assertion was shown another run's fix (a new user's tries,
    session 33)."""
    overlay = (
        "  1) [Chrome 143.0] tests/integration/loading-state-test.ts: shows loading state\n"
        "     Loading overlay is displayed\n\n"
        "     expected: 'Element .overlay exists'\n"
        "       actual: 'Element .overlay does not exist'\n"
    )
    override = (
        "  1) [Chrome 143.0] tests/integration/loading-state-test.ts: shows loading state\n"
        '     Promise rejected during "shows loading state": Assertion Failed: Cannot override'
        " the computed property `firstMonth` on [object Object].\n\n"
        "     Error: Assertion Failed: Cannot override the computed property `firstMonth`\n"
        "         at assert (http://127.0.0.1:7357/assets/chunk.js:93335:13)\n"
    )
    assert key_line(_ember_run(overlay)) == "Loading overlay is displayed"
    assert key_line(_ember_run(override)).startswith("Promise rejected during")
    assert signature(_ember_run(overlay)) != signature(_ember_run(override))
    # the block a user copies from the report is the same error
    assert signature(overlay) == signature(_ember_run(overlay))
    # other wrappers' and runners' last words, stored before the error or after it
    for said in (
        "error Command failed with exit code 1.",
        " ELIFECYCLE  Command failed with exit code 1.",
        "Error: Command failed: npm run build",
        "ExecaError: Command failed with exit code 2: vite build",
        "subprocess.CalledProcessError: Command '['make']' returned non-zero exit status 2.",
        "make: *** [Makefile:3: test] Error 1",
    ):
        out = f"Exit code 1\n{said}\nsrc/a.ts: Cannot connect to the database\n"
        assert key_line(out) == "src/a.ts: Cannot connect to the database", said
        assert key_line(f"Exit code 1\n{said}\nbuilding\n") == said.strip(), said
    # a wrapper's error alone is still the key line of an output that says nothing else
    assert key_line("Exit code 1\nCommandError\n  status: 1\n}\n") == "CommandError"


@pytest.mark.parametrize(
    "prefix",
    ["2026-05-03 08:12:56 ", "[2026-05-03 08:12:56] ", "2026-05-03T08:12:56.112Z ", "08:12:56 "],
)
def test_a_log_s_prefix_of_each_line_is_no_part_of_the_key_line(prefix):
    """A log writes its time (and a tag: `12:01:45 pre-commit | `) before every line: the
    header and its next line are the output's (`Pre-commit validation failed: [FORMAT] ...`),
    and an error line scores as it does without it. Such pastes were "Not seen before" (a
    new user's tries, session 33)."""
    ignored = (
        "The following paths are ignored by one of your .gitignore files:\npriv/static/assets\n"
        "hint: Use -f if you really want to add them.\n"
    )
    logged = "".join(prefix + line + "\n" for line in ignored.splitlines())
    assert key_line(logged) == key_line(ignored)
    assert signature(logged) == signature(ignored)
    hook = "Pre-commit validation failed:\n\n[FORMAT] Code is not formatted.\nRun mix format.\n"
    tagged = "".join(f"{prefix}pre-commit | {line}\n".rstrip(" ") for line in hook.splitlines())
    assert signature(tagged) == "Pre-commit validation failed: [FORMAT] Code is not formatted."
    # an error line after a line that scores less (`failed` of a progress line) wins
    mix = "** (RuntimeError) failed to start Mix.PubSub, reason: :eperm"
    assert key_line(f"{prefix}Compiling failed deps\n{prefix}{mix}\n") == mix
    # the indentation after the prefix stays: a traceback's frames are told by it
    trace = 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nKeyError: 1'
    assert key_line("".join(prefix + line + "\n" for line in trace.splitlines())) == "KeyError: 1"


def test_a_progress_line_yields_to_where_the_command_stopped():
    """When no line names an error, a program's word of what it starts (`Cloning into
    'x'...`) says less than a later line: git's prompt it waited at (a new user's try,
    session 33, was read as the clone's progress)."""
    waited = "Cloning into 'my-repo'...\nUsername for 'https://github.com':\n"
    assert key_line(waited) == "Username for 'https://github.com':"
    assert key_line("Exit code 1\nBuilding…\n") == "Building…"


def test_the_program_a_usage_error_is_for_is_kept():
    """cobra's `unknown command "x" for "prog"` named any program `<str>`: docker compose's
    error had gt's signature and fix (a new user's try, session 34). The program stays, the
    unknown command does not; pflag's flag after `for` stays too."""
    docker = signature('Error: unknown command "logs" for "docker compose"')
    gt = signature('Error: unknown command "logs" for "gt deacon"')
    assert docker == 'Error: unknown command <str> for "docker compose"'
    assert docker != gt
    assert gt == signature('Error: unknown command "status" for "gt deacon"')
    assert sig.loose(docker) == docker  # another program is no other file
    assert signature('Error: invalid argument "x" for "-n, --count" flag') == (
        'Error: invalid argument <str> for "-n, --count" flag'
    )
    assert signature("git: 'statsu' is not a git command. See 'git --help'.") != signature(
        "docker: 'statsu' is not a docker command. See 'docker --help'."
    )


@pytest.mark.parametrize(
    "a, b",
    [
        (
            'Did you mean one of: "read_file", "glob", "web_fetch"?',
            'Did you mean one of: "replace"?',
        ),
        (
            "error: argument cmd: invalid choice: 'x' (choose from 'a', 'b', 'c')",
            "error: argument cmd: invalid choice: 'y' (choose from 'run', 'build')",
        ),
        (
            "TypeError: f() missing 2 required positional arguments: 'a' and 'b'",
            "TypeError: f() missing 3 required positional arguments: 'a', 'b', and 'c'",
        ),
    ],
)
def test_a_list_of_quoted_values_is_one_whatever_its_length(a, b):
    """How many names a program listed is no part of its error: Gemini CLI's one-name
    `Did you mean one of: "replace"?` was "not seen before" beside its three-name one."""
    assert signature(a) == signature(b)
    assert "<str>, <str>" not in signature(a)


@pytest.mark.parametrize(
    "a, b",
    [
        (
            "Error response from daemon: No such container: geox_server",
            "Error response from daemon: No such container: webapp",
        ),
        ("no such service: geox_server", "no such service: api"),
        ("Error: No such image: nginx:latest", "Error: No such image: redis."),
        (
            "sqlite3.OperationalError: no such table: users",
            "sqlite3.OperationalError: no such table: x",
        ),
        ("ERROR 1049 (42000): Unknown database: shop", "ERROR 1049 (42000): Unknown database: db"),
        ("Error: No such tool available: Grep", "Error: No such tool available: mcp__gh__x"),
    ],
)
def test_a_name_said_bare_at_the_end_is_a_name(a, b):
    """docker's `No such container: X` says its name bare, at the end: the same error about
    another container was "not seen before", while a quoted name is `<str>` (nu40 finding 7).
    It is `<str>` too, and one of quoted_names, as a quoted one is."""
    assert signature(a) == signature(b)
    assert signature(a).endswith(": <str>")
    assert sig.quoted_names(a) and sig.quoted_names(a) != sig.quoted_names(b)


@pytest.mark.parametrize(
    "line",
    [
        "cd: no such file or directory: backend",  # a path, read by loose()
        "Error: no such module: fts5",  # the module is the error, as a quoted one
        "fish: Unknown command: cargo",  # the program is the error
        "Unknown command: cargo",
        "Error: unknown flag: --command",  # a flag: no name
        "write failed: unknown error: ENOSPC",  # a code is the error
        "No such container: webapp is gone",  # not at the end
        "Status: active",  # not a name a program did not know
    ],
)
def test_a_bare_word_that_is_the_error_stays(line):
    """A path, a module, a program, a flag or a code said last is the error, or read by its
    own rule: not a name."""
    assert "<str>" not in signature(line)
    assert sig.quoted_names(line) == ()


def test_a_list_is_not_a_value_and_its_message():
    """rustc's `expected `u32`, found `i32``: `found` is no listed value."""
    assert signature("error[E0308]: mismatched types: expected `u32`, found `i32`") == (
        "error[E0308]: mismatched types: expected <str>, found <str>"
    )


@pytest.mark.parametrize(
    "line, file",
    [
        ("src/app.ts(3,5): error TS2769: No overload matches this call.", "app.ts"),
        (r"C:\proj\src\a.tsx(1,20): error TS2307: Cannot find module 'x'", "a.tsx"),
        ("./main.go:3:2: undefined: foo", "main.go"),
        ("app/models.py:12: error: Incompatible types", "models.py"),
        ("src/a.js: line 3, col 5, Error - 'x' is not defined. (no-undef)", "a.js"),
        ("error TS2769: No overload matches this call.", None),
        ("(eval):1: command not found: x", None),
        ("Command timed out after 2m time=12:00 source=/x/main.go:88 msg=x", None),
    ],
)
def test_the_file_a_diagnostic_starts_with(line, file):
    """The file normalise() sets aside with the place (`<path>(<n>,<n>)`), by which
    find_past_fix tells the same error in another file."""
    assert sig.diagnostic_file(line) == file


@pytest.mark.parametrize(
    "text, file",
    [
        # Next.js's build: the file on its line, its ESLint diagnostics below
        (
            "Failed to compile.\n\n./app/[locale]/page.tsx\n12:9  Error: Unexpected any. Specify"
            " a different type.  @typescript-eslint/no-explicit-any\n\ninfo  - Need to disable",
            "page.tsx",
        ),
        # ESLint's stylish format: the key line below another diagnostic of its file
        (
            "/Users/x/My Project/src/a.service.ts\n  3:1  warning  Unexpected console statement"
            "  no-console\n  70:36  error  '_rank' is defined but never used  no-unused-vars\n",
            "a.service.ts",
        ),
        # Next.js's type check: the file and its place above `Type error:`
        (
            "Failed to compile.\n\n./src/lib/groups.ts:352:39\nType error: Property 'errors'"
            " does not exist on type 'ZodError'.\n",
            "groups.ts",
        ),
        # the file on the key line itself (diagnostic_file)
        ("Exit code 2\nsrc/app.ts(3,5): error TS2769: No overload matches this call.", "app.ts"),
        # a diagnostic with no header, a line above that is no file's, a file above another
        # error with no place: none
        ("12:9  Error: Unexpected any. Specify a different type.", None),
        ("Linting and checking validity of types ...\n12:9  Error: Unexpected any.", None),
        ("a.txt\nb.txt\nError: something failed", None),
    ],
)
def test_the_file_a_diagnostic_is_about_may_head_its_lines(text, file):
    """ESLint's stylish format and Next.js's build name a file once, on a line above its
    diagnostics: the ESLint error of page.tsx was the very same error as layout.tsx's, with
    its fix (a new user's try, nu36)."""
    assert sig.diagnosed_file(text) == file


def test_kept_values_set_aside():
    """Every quoted value a signature holds is one normalise() kept: set aside, two errors of
    one form are alike."""
    pydantic = signature("ModuleNotFoundError: No module named 'pydantic'")
    settings = signature("ModuleNotFoundError: No module named 'pydantic_settings'")
    assert pydantic != settings
    assert sig.kept_set_aside(pydantic) == sig.kept_set_aside(settings)
    assert sig.kept_set_aside("cat: <path>/a.json: No") == "cat: <path>/a.json: No"


NIX_TRACE = """checking flake output 'nixosConfigurations'...
error:
       … while checking flake output 'nixosConfigurations'
         at /nix/store/zp2m-source/flake.nix:24:7:
           23|     {
           24|       nixosConfigurations = {
             |       ^

       … while evaluating the option `assertions':

       (stack trace truncated; use '--show-trace' to show the full, detailed trace)

       error: function 'anonymous lambda' called without required argument 'lib'
       at /nix/store/57b2-source/home.nix:1:1:
            1| {
             | ^"""


def test_a_nix_traces_error_is_its_last_error_line():
    """`… while checking flake output 'x'`, the outermost frame under Nix's `error:`, was the
    key line of any error of a flake (a new user's try, session 34)."""
    assert key_line(NIX_TRACE) == (
        "error: function 'anonymous lambda' called without required argument 'lib'"
    )
    other = NIX_TRACE.replace(
        "function 'anonymous lambda' called without required argument 'lib'",
        "attribute 'foo' missing",
    )
    assert signature(other) != signature(NIX_TRACE)
    # an `error:` over no trace is a header still
    assert key_line("error:\n  something broke") == "error: something broke"


def _wrapped(message: str, width: int) -> str:
    """`message` as Windows PowerShell's console prints it, cut every `width` characters."""
    return "\n".join(message[i : i + width] for i in range(0, len(message), width))


COM_ERROR = (
    "New-Object : Retrieving the COM class factory for component with CLSID"
    " {91493441-5A91-11CF-8700-00AA0060263B} failed due to the following error: 80080005"
    " Server execution failed (Exception from HRESULT: 0x80080005 (CO_E_SERVER_EXEC_FAILURE))."
)
COM_RECORD = (
    "\nAt line:4 char:8\n+ $ppt = New-Object -ComObject PowerPoint.Application\n"
    "+        ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
    "    + CategoryInfo          : ResourceUnavailable: (:) [New-Object], COMException\n"
    "    + FullyQualifiedErrorId : NoCOMClassIdentified,Microsoft.PowerShell.Commands."
    "NewObjectCommand\n"
)


@pytest.mark.parametrize("width", [79, 119, 127])
def test_a_powershell_message_wrapped_at_the_consoles_width_is_one_line(width):
    """Windows PowerShell cuts an error's message at its console's width, mid-word: the key
    line was the fragment `e to the following error: <n> Server execution failed ...
    (CO_E_SERVER_EXEC_FAILUR`, and the same error from a wider console, or pasted from a
    log on one line, was "not seen before" (a new user's try, nu38, heldout33/part1)."""
    wrapped = "Exit code 1\n" + _wrapped(COM_ERROR, width) + COM_RECORD
    assert sig.key_line(wrapped) == COM_ERROR
    assert (
        sig.signature(wrapped)
        == sig.signature(COM_ERROR)
        == sig.signature("Exit code 1\n" + COM_ERROR + COM_RECORD)
    )
    # a parse error's message, after its carets, before its category; the cut at a space
    said = (
        "Variable reference is not valid. ':' was not followed by a valid variable name"
        " character. Consider using ${} to delimit the name."
    )
    parse = (
        'Exit code 1\nAt line:1 char:20\n+     Write-Output "s$i: $x"\n+       ~~~\n'
        + _wrapped(said, width)
        + "\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException"
    )
    assert sig.key_line(parse) == said


def test_only_a_powershell_records_message_is_joined():
    """Lines of one length are joined only before PowerShell's place or category, and not
    across a line break of the message's own (a sentence's end, a line with no space)."""
    line = "x" * 100
    assert sig._unwrapped([line, line, "end", "next"]) == [line, line, "end", "next"]
    record = ["At line:1 char:1", "+ x", "+ ~"]
    assert sig._unwrapped([line, "end"] + record) == [line + "end"] + record
    sentence = "Value cannot be null because " + "y" * 70 + "."
    kept = [sentence, "Parameter name: path"] + record
    assert sig._unwrapped(kept) == kept
    # a shorter line above the message is not of it
    joined = [line + "end"] + record
    assert sig._unwrapped(["Exit code 1", line, "end"] + record) == ["Exit code 1"] + joined
    # nor a longer one
    assert sig._unwrapped([line + "zz", line, "end"] + record) == [line + "zz"] + joined


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        # uv's, one cause a line
        (
            "error: Failed to initialize cache at `/home/me/.cache/uv`\n  Caused by: failed to"
            " open file `/home/me/.cache/uv/x/.git`: Permission denied (os error 13)",
            "failed to open file `/home/me/.cache/uv/x/.git`: Permission denied (os error 13)",
        ),
        # uv's chain: the last is the root cause
        (
            "Exit code 2\nerror: Request failed after 3 retries\n  Caused by: Failed to fetch:"
            " `https://files.pythonhosted.org/x.whl`\n  Caused by: client error (Connect)\n"
            "  Caused by: tunnel error: proxy authorization required\n",
            "tunnel error: proxy authorization required",
        ),
        # cargo's, each cause under its own `Caused by:`
        (
            "error: failed to load manifest for workspace member `/x/app`\n\nCaused by:\n"
            "  failed to read `/x/app/Cargo.toml`\n\nCaused by:\n"
            "  No such file or directory (os error 2)\n",
            "No such file or directory (os error 2)",
        ),
        # anyhow's numbered, before its backtrace
        (
            "Error: Failed to read config\n\nCaused by:\n    0: reading /x/c.toml\n"
            "    1: Access is denied. (os error 5)\n\nStack backtrace:\n   0: main\n",
            "Access is denied. (os error 5)",
        ),
        # Java's, between stack frames
        (
            'Exception in thread "main" java.lang.RuntimeException: init failed\n'
            "\tat a.B.c(B.java:3)\n\t... 7 more\nCaused by: java.lang.NullPointerException:"
            " Item id not set\n\tat x.Y.z(Y.java:1)\n",
            "java.lang.NullPointerException: Item id not set",
        ),
    ],
)
def test_an_error_keeps_its_root_cause(text, cause):
    """`error: Failed to initialize cache at <str>` said nothing of why: a paste whose cause
    was `Read-only file system (os error 30)` was shown as the same error, with the fix of
    a `Permission denied` one, Codex's escalated permissions (a new user's try, nu38)."""
    assert sig.key_line(text).endswith(" Caused by: " + cause)
    other = text.replace(cause, "Read-only file system (os error 30)")
    assert sig.signature(other) != sig.signature(text)
    # an error with no cause under it is as it was
    assert "Caused by" not in sig.key_line("error: Failed to initialize cache\nDone.\nCaused by: x")


def test_a_codex_sandbox_denials_key_line_is_of_the_output_it_holds():
    """Codex 0.118 stores a denied command as Rust's Debug text, its output escaped twice: the
    key line was cut from it at an escaped line break (`error: Failed to initialize cache at
    <str>\\`) or was all of it (`exec_command failed for <str>: CreateProcess { ...
    bwrap: ...`), so the error printed by a shell was another (a new user's try, nu38)."""
    output = "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\\n"
    denied = (
        "exec_command failed for `/bin/zsh -lc 'python predict.py'`: CreateProcess { message:"
        ' "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 1, stdout:'
        ' StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: StreamOutput {'
        f' text: \\"{output}\\", truncated_after_lines: None }}, aggregated_output:'
        f' StreamOutput {{ text: \\"{output}\\", truncated_after_lines: None }}, duration:'
        ' 0ns, timed_out: false }, network_policy_decision: None }))" }'
    )
    assert sig.key_line(denied) == "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted"
    assert sig.signature(denied) == sig.signature(
        "Exit code 1\nbwrap: loopback: Failed RTM_NEWADDR: Operation not permitted"
    )


def test_a_notice_that_carries_on_is_no_key_line():
    """A notice that the program goes on without what it could not find or do (CMake's
    `SDL2 library not found.  Building without graphics support.`) names no error: it was
    the key line of a `make` that failed, whose `make: *** ... Error 2` stood between the
    compiler's warnings of its stderr and CMake's notices of its stdout, outside the
    window's head and tail (a new user's try, nu39: thirty-sixth held-out set)."""
    warnings = "".join(
        f"/home/me/app/src/m{i}.cpp:12:5: warning: unused variable 'x' [-Wunused-variable]\n"
        for i in range(60)
    )
    progress = "".join(f"[ {i}%] Building CXX object src/m{i}.cpp.o\n" for i in range(80))
    build = (
        "CMake Warning at CMakeLists.txt:94 (message):\n"
        "  GLFW library not found.  Building without window support.\n\n"
        f"{warnings}make[1]: *** [CMakeFiles/Makefile2:216: core.dir/all] Error 2\n"
        "make: *** [Makefile:146: all] Error 2\n\n"
        "-- Boost not found - building with std::filesystem\n"
        f"-- Google Test not found. Skipping test targets.\n{progress}"
    )
    assert len(build) > 2 * 4096
    assert key_line(build) == "make[1]: *** [CMakeFiles/Makefile2:216: core.dir/all] Error 2"
    for notice in (
        "SDL2 library not found.  Building without graphics support.",
        "-- SQLite3 not found. Building with in-memory storage.",
        "Telemetry setup failed: timeout. Continuing without tracing.",
        "LLM call failed: 503, using fallback",
    ):
        assert key_line(f"Exit code 1\n{notice}\nsrc/a.ts: Cannot connect to the db\n") == (
            "src/a.ts: Cannot connect to the db"
        ), notice
    # a line that starts as an error does is one, whatever it says next
    said = "error: libfoo not found, using the bundled copy failed too"
    assert key_line(f"Exit code 1\n{said}\nnot found\n") == said
    # an error line of a short output is no notice (`could not` says nothing of going on)
    assert key_line("Exit code 1\nSDL2 could not be found.\n") == "SDL2 could not be found."


def test_apt_s_first_error_line_is_the_key_line():
    """apt marks its errors `E: `: the first names the cause, though no error word is in it
    (`E: Malformed entry 1 in list file x ([option] not assignment)`), the last sums up
    (`E: The list of sources could not be read.`, which was the key line: a new user's try,
    nu39, thirty-sixth held-out set). Its word of dpkg's failure (`E: Sub-process
    /usr/bin/dpkg returned an error code (1)`) says only that a command failed."""
    out = (
        "Exit code 100\nWARNING: apt does not have a stable CLI interface.\n\n"
        "E: Malformed entry 3 in list file /etc/apt/sources.list.d/docker.list (Component)\n"
        "E: The list of sources could not be read.\n"
    )
    assert key_line(out).startswith("E: Malformed entry 3 in list file")
    assert signature(out) == "E: Malformed entry <n> in list file <path>/docker.list (Component)"
    dpkg = (
        "Exit code 100\nSetting up foo (1.2) ...\n"
        "E: Sub-process /usr/bin/dpkg returned an error code (1)\n"
        "Errors were encountered while processing:\n foo\n"
    )
    assert key_line(dpkg) == "Errors were encountered while processing: foo"
    # another program's line that starts `E: ` with an error word scores as it did
    assert key_line("Exit code 1\nE: Unable to locate package libfoo-dev\n") == (
        "E: Unable to locate package libfoo-dev"
    )


def test_venv_s_failing_command_yields_to_what_failed():
    """Debian's venv says what failed, then the command it ran: `Failing command:
    /x/.venv/bin/python3` was the key line of every venv without ensurepip, one signature
    whatever the cause (a new user's try, nu39: thirty-fourth and thirty-sixth held-out
    sets)."""
    out = (
        "Exit code 1\nThe virtual environment was not created successfully because ensurepip"
        " is not\navailable.  On Debian/Ubuntu systems, you need to install the python3-venv\n"
        "package using the following command.\n\n    apt install python3.11-venv\n\n"
        "Failing command: /home/me/proj/.venv/bin/python3\n"
    )
    assert key_line(out) == (
        "The virtual environment was not created successfully because ensurepip is not"
    )
    # alone, it is still the key line
    assert key_line("Exit code 1\nFailing command: /x/.venv/bin/python3\n") == (
        "Failing command: /x/.venv/bin/python3"
    )


def test_the_line_apply_patch_found_in_no_hunk_is_one_value_whatever_quotes_it_holds():
    """Codex's apply_patch quotes the patch's line it could not read (`Unexpected line found
    in update hunk: 'alias c='codex -a never''. Every line should start with ...`): read as
    quoted values, the signature kept part of it (`'alias c=<str>'`), and the same error
    of another line was not seen before (nu41 finding 5). The line is one `<str>`, and no
    name of the error: where the patch's parser stopped."""
    hunk = (
        "error: invalid hunk at line 4, Unexpected line found in update hunk: {}. Every line"
        " should start with ' ' (context line), '+' (added line), or '-' (removed line)"
    )
    header = "error: invalid hunk at line 2, {} is not a valid hunk header. Valid hunk headers"
    lines = ("'alias c='codex -a never -m gpt-5''", "'export PATH=$HOME/bin'", "'f(\"it's\")'")
    for form, said in (
        (hunk, "update hunk: <str>. Every line should start with <str> (context line)"),
        (header, "line <n>, <str> is not a valid hunk header"),
    ):
        signatures = {sig.signature(form.format(line)) for line in lines}
        assert len(signatures) == 1, signatures
        assert said in signatures.pop()
    assert sig.quoted_names(hunk.format("'a = \"b\"'")) == (" ", "+", "-")


@pytest.mark.parametrize(
    "line, refused",
    [
        # a script run that is not executable, in each shell's words
        ("bash: ./deploy.sh: Permission denied", True),
        ("zsh: permission denied: ./deploy.sh", True),
        ("/bin/sh: 1: ./x.sh: Permission denied", True),
        # a redirect's target: bash names no program, a script's line, dash's `cannot create`
        ("/bin/bash: line 1: ../../docs/requirements.md_DRAFT.md: Permission denied", True),
        ("./deploy.sh: line 3: out.log: Permission denied", True),
        ("/bin/sh: 1: cannot create /etc/x.conf: Permission denied", True),
        ("Exit code 1\n/bin/bash: line 1: ../docs/a.md: Permission denied", True),
        # a folder `cd` could not enter, another program's refusal: not a shell's file
        ("bash: line 3: cd: /root: Permission denied", False),
        ("mkdir: cannot create directory '/opt/docs': Permission denied", False),
        ("bash: ./deploy.sh: No such file or directory", False),
    ],
)
def test_a_file_a_shell_could_not_run_or_write_is_the_errors_subject(line, refused):
    """bash's `./deploy.sh: Permission denied` (not executable) was the same signature as a
    Codex heredoc's `zsh: permission denied: <path>/requirements.md_DRAFT.md` (a redirect's
    target), and the hook gave its `sudo tee` (nu42 finding 2): another file's fix (chmod
    +x of that script, sudo to that path) is that file's, as of a file run that was not
    there (runs_a_missing_file)."""
    signature = sig.signature(line)
    assert sig.refuses_a_shell_file(signature) is refused, signature
    assert sig.its_file_is_the_error(signature) is (refused or sig.runs_a_missing_file(signature))
    # a file run that was not there is one of them too
    assert sig.its_file_is_the_error(sig.signature("bash: ./run.sh: No such file or directory"))


@pytest.mark.parametrize(
    "line, missing",
    [
        ("File does not exist.", True),
        ("ls: cannot access 'build/output': No such file or directory", True),
        ("sed: can't read src/components/Header.jsx: No such file or directory", True),
        ("(eval):cd:1: no such file or directory: apps/api", True),
        ("Get-Content : Cannot find path 'C:\\x\\main.rs' because it does not exist.", True),
        ("Error: ENOENT: no such file or directory, open '/x/a.json'", True),
        ("/bin/sh: 1: cannot create out/x.log: Directory nonexistent", True),
        ("bash: ./deploy.sh: Permission denied", False),
        ("Error: /x/app/config/settings.yml does not exist", True),
        # not what a program's code is missing: TypeScript's property, an SQL column
        ("error TS2339: Property 'total' does not exist on type 'Order'.", False),
        ('psycopg.errors.UndefinedColumn: column "user_id" does not exist', False),
        ("ModuleNotFoundError: No module named 'requests'", False),
    ],
)
def test_an_error_that_says_a_file_is_missing(line, missing):
    """says_a_file_is_missing: the hook gives no other file's fix of such an error (nu42
    finding 1); TypeScript's error about another file (a linter's header above it) is not
    one, and its fix is still given."""
    assert sig.says_a_file_is_missing(sig.signature(line)) is missing


def test_a_file_run_and_a_file_written_are_two_errors():
    """A script not executable (`./deploy.sh`, exit 126) was "the same error, another file"
    of a Codex heredoc's write to `../../docs/requirements.md_DRAFT.md` (exit 1), whose fix
    was `sudo tee` (nu42 finding 2): bash says `Permission denied` of both."""
    run = "Exit code 126\n/bin/bash: line 1: ./deploy.sh: Permission denied"
    write = "Exit code 1\n/bin/bash: line 1: ../../docs/requirements.md_DRAFT.md: Permission denied"
    assert signature(run) == "zsh: permission denied: <path>/deploy.sh"
    written = "sh: cannot create <path>/requirements.md_DRAFT.md: Permission denied"
    assert signature(write) == written
    assert sig.loose(signature(run)) != sig.loose(signature(write))
    # the same file run and written: two errors too; pasted alone, a run
    assert signature(write.replace("../../docs/requirements.md_DRAFT.md", "./deploy.sh")) != (
        signature(run)
    )
    assert signature(run.split("\n", 1)[1]) == signature(run)


def test_named_paths_are_the_paths_a_line_names_as_written():
    """The paths the hook compares a missing file's by (pastfix.hook.another_files): those
    the signature keeps as `<path>/<base name>`, not a bare name, which has no folder."""
    assert sig.named_paths(
        "sed: can't read /home/u/app/src/Header.jsx: No such file or directory"
    ) == ["/home/u/app/src/Header.jsx"]
    assert sig.named_paths("ls: cannot access 'build/dist/': No such file") == ["build/dist/"]
    assert sig.named_paths(
        "Get-Content : Cannot find path 'C:\\a\\b.txt' because it does not exist."
    ) == ["C:\\a\\b.txt"]
    assert sig.named_paths("cat: go.sum: No such file or directory") == []
    line = "/usr/bin/bash: line 33: cd: .smart-env/multi: No such file or directory"
    assert sig.named_paths(line) == []


def test_the_folder_claude_code_ran_in_is_no_path_the_line_names():
    """`File does not exist. Note: your current working directory is /x/app.` names no file:
    its note says where the Read ran (ran_in), the project of a pasted one
    (pastfix.queries.missing_elsewhere), not a missing path to compare (named_paths)."""
    line = "File does not exist. Note: your current working directory is /home/u/app."
    assert sig.named_paths(line) == []
    assert sig.ran_in(line) == "/home/u/app"
    assert sig.ran_in("File does not exist. Note: your current working directory is C:\\a.") == (
        "C:\\a"
    )
    assert sig.ran_in("cat: /home/u/app/x: No such file or directory") == ""
    # a folder with a space in its name is one path, as normalise() reads it
    line = "sed: can't read /home/me/my project/src/a.jsx: No such file or directory"
    assert sig.named_paths(line) == ["/home/me/my project/src/a.jsx"]


# A failed call as Claude Code's terminal shows it: the call, its result under `⎿`, the
# error's lines after `Error: ` (nu46 finding 1).
TERMINAL_PASTE = (
    "⏺ Bash(git push)\n"
    "  ⎿  Error: Exit code 128\n"
    "     fatal: The current branch feat/login has no upstream branch.\n"
    "     To push the current branch and set the remote as upstream, use\n"
    "\n"
    "         git push --set-upstream origin feat/login"
)


@pytest.mark.parametrize(
    "text",
    [
        TERMINAL_PASTE,
        "  ⎿  Error: Exit code 128\n     fatal: The current branch feat/login has no upstream"
        " branch.",
        "Error: Exit code 128\nfatal: The current branch feat/login has no upstream branch.",
        "Exit code 128\nfatal: The current branch feat/login has no upstream branch.",
    ],
)
def test_an_exit_status_as_claude_codes_terminal_shows_it_is_no_key_line(text):
    """`Error: Exit code 128`, with or without the `⎿` glyph, is the exit status line that
    `Exit code 128` is: the key line was it, scored as an `Error:` line names an error, and
    the signature `Error: Exit code 128` found no past failure of git's error."""
    assert sig.key_line(text) == "fatal: The current branch feat/login has no upstream branch."
    assert sig.signature(text) == "fatal: The current branch <name> has no upstream branch."


def test_status_of_reads_an_exit_status_line_alone():
    assert sig.status_of("Exit code 1") == "Exit code 1"
    assert sig.status_of("Error: Exit code 128") == "Exit code 128"
    assert sig.status_of("  ⎿  Error: Exit code 2 ") == "Exit code 2"
    assert sig.status_of("⎿  Exit code -1") == "Exit code -1"
    for line in ("Error: Exit code 1 while building", "fatal: Exit code 1", "Exit code", "x"):
        assert sig.status_of(line) is None, line
    # all there is: the key line, as the failures that ended so store it
    assert sig.key_line("  ⎿  Error: Exit code 1") == "Exit code 1"
    assert sig.signature("Error: Exit code 1") == "Exit code 1"
    assert sig.exit_status("  ⎿  Error: Exit code 128\n     fatal: x") == 128


def test_other_lines_are_the_lines_beside_the_key_line():
    """The lines a paste may name another error in (pastfix.queries.other_seen_lines): those
    naming an error outright first, then the rest, without the key line or a status line."""
    text = (
        "Error: Exit code 1\n"
        "sudo: a password is required\n"
        "bash: jq: command not found\n"
        "error: something else broke\n"
    )
    assert sig.key_line(text) == "bash: jq: command not found"
    assert sig.other_lines(text) == ["error: something else broke", "sudo: a password is required"]
    assert sig.other_lines("") == []


@pytest.mark.parametrize(
    "text",
    [
        'Use command "make test_unit --only=Parser" with the right test name',
        "I moved the config myself.  Try the build again without changing it",
        "No.  Can you keep the old helper and only rename the call?",
        "Should we put this in the existing Settings type?  Maybe a map of them?",
        "I don't want changes to the migrations. Let's undo those and keep it in the service.",
        "Revert that, the tests were right",
    ],
)
def test_a_persons_words_to_the_agent_are_the_users_words(text):
    # (Claude Code 2.0.x returned the reason typed on rejecting a call alone: nu49 finding 1)
    assert sig.user_words(text)


@pytest.mark.parametrize(
    "text",
    [
        # programs that address their user, in the second person
        "Your branch is ahead of 'origin/main' by 3 commits.",
        "Hi dev! You've successfully authenticated, but GitHub does not provide shell access.",
        "The following paths are ignored by one of your .gitignore files:\ndist",
        "Please make sure you have the correct access rights\nand the repository exists.",
        'Did you mean one of: "read_file", "glob"?',
        "Cloning into 'my-repo'...",
        "To get started with GitHub CLI, please run:  gh auth login",
        # a program's form, an error named, an exit status, Claude Code's own words
        "ls: cannot access 'types/': No such file or directory",
        "I/O error while reading the disk we use",
        "Exit code 1\nI made this fail on purpose, can you see it?",
        "Error: can you see my file",
        "<tool_use_error>Can you read it first</tool_use_error>",
        "File content (21901 tokens) exceeds maximum allowed tokens (10000). Use offset and"
        " limit parameters to read specific portions of the file.",
        "File does not exist. Note: your current working directory is /home/u/app.",
        '\x1b[31mUsage Error\x1b[39m: Couldn\'t find a script named "test:web".',
        "The user doesn't want to proceed with this tool use. The tool use was rejected",
        # too little, or too much to be a few sentences
        "I did",
        "Warmup",
        "I made a change.\n" * 6,
    ],
)
def test_a_programs_words_are_not_the_users_words(text):
    assert not sig.user_words(text)


def _large_file_push(repo: str, trace: str | None, files: tuple[str, ...]) -> str:
    """A push GitHub refused for files over its size limit, as git prints it."""
    said = [f"remote: error: Trace: {trace}"] if trace else []
    said.append("remote: error: See https://gh.io/lfs for more information.")
    said += [
        f"remote: error: File {file} is 103.31 MB; this exceeds GitHub's file size limit of"
        " 100.00 MB"
        for file in files
    ]
    said += [
        "remote: error: GH001: Large files detected. You may want to try Git Large File"
        " Storage - https://git-lfs.github.com.",
        f"To https://github.com/{repo}",
        " ! [remote rejected] main -> main (pre-receive hook declined)",
        f"error: failed to push some refs to 'https://github.com/{repo}'",
    ]
    return "\n".join(said)


GH001 = (
    "remote: error: GH001: Large files detected. You may want to try Git Large File Storage - <url>"
)


def test_a_remotes_refusal_is_keyed_on_its_code_not_its_trace():
    """GitHub's refusal of a push is keyed on its code's line (`GH001: Large files
    detected`), not its request's trace id above it, nor the first file it names: the same
    refusal of other files, with or without a trace (nu49 finding 3)."""
    stored = _large_file_push("me/app", "6621385e83524cb0", ("a/zfs.ko", "a/zfs.o"))
    assert sig.signature(stored) == GH001
    for pasted in (
        _large_file_push("you/other", None, ("models/big.bin",)),
        _large_file_push("you/other", "987cfc62ea4764a0", ("x/zfs.o", "x/zfs.ko")),
        # (no code: the first line that says what went wrong, not the trace)
        _large_file_push("you/other", "abc123", ("data/big.bin",)).replace("GH001: ", ""),
    ):
        assert sig.signature(pasted) != "remote: error: Trace: <hex>"
    assert sig.signature(_large_file_push("you/other", None, ("models/big.bin",))) == GH001
    assert sig.signature(_large_file_push("you/other", "987cfc62", ("x/zfs.o",))) == GH001


@pytest.mark.parametrize(
    "line",
    [
        "remote: error: Trace: 6621385e83524cb08caf396928008f131e13eff185c7d243b2483129079c33b6",
        "error: Request ID: 5F8A-11C2-9B3E",
        "remote: error: x-request-id: req_011CUabc123",
        "error: Correlation ID: 0e7c1d92-5b1a-4c55-9d6e-3a1e2f9b8c7d",
        "remote: error: See https://gh.io/lfs for more information.",
        "error: See https://docs.example.com/errors/E42 for more details.",
    ],
)
def test_a_request_id_or_a_pointer_to_help_is_no_key_line(line):
    assert sig.key_line(f"{line}\nfatal: could not read from remote repository") == (
        "fatal: could not read from remote repository"
    )


@pytest.mark.parametrize(
    "a, b",
    [
        (
            "Hostname/IP does not match certificate's altnames: Host: download.proxmox.com. is"
            " not in the cert's altnames: DNS:au.cdn.proxmox.com, DNS:de.cdn.proxmox.com,"
            " DNS:*.proxmox.com",
            "Hostname/IP does not match certificate's altnames: Host: download.example.com. is"
            " not in the cert's altnames: DNS:cdn.example.com",
        ),
        (
            "npm error network request to https://registry.npmjs.org/vite failed, reason:"
            " getaddrinfo ENOTFOUND registry.npmjs.org",
            "npm error network request to https://npm.corp.example/vite failed, reason:"
            " getaddrinfo ENOTFOUND npm.corp.example",
        ),
        (
            "getaddrinfo EAI_AGAIN db",
            "getaddrinfo EAI_AGAIN postgres.internal",
        ),
        (
            'go: downloading x: Get "https://proxy.golang.org/x": dial tcp: lookup'
            " proxy.golang.org on 127.0.0.53:53: no such host",
            'go: downloading x: Get "https://goproxy.example/x": dial tcp: lookup'
            " goproxy.example on 10.0.0.2:53: no such host",
        ),
        (
            "ping: google.com: Name or service not known",
            "ping: build-01.lan: Name or service not known",
        ),
    ],
)
def test_the_machine_an_error_names_is_no_part_of_it(a, b):
    """A certificate's names and a name no server answers to are `<host>`: the same error
    of another machine (nu49 finding 4: another host's certificate was not seen before)."""
    assert sig.signature(a) == sig.signature(b)
    assert "<host>" in sig.signature(a)
