"""The rules of pastfix.fixes: what fixed a failed call, on hand-made call sequences."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastfix import build as pbuild
from pastfix import cards, db, fixes, signatures

_ids = itertools.count(1)


def call(name="Bash", command=None, file_path=None, failed=False, pattern=None, **kw):
    n = next(_ids)
    return fixes.Call(
        tool_use_id=kw.pop("id", f"t{n}"),
        timestamp=kw.pop("at", f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}Z"),
        name=name,
        command=command,
        file_path=file_path,
        pattern=pattern,
        agent_id=kw.pop("agent_id", None),
        failed=failed,
        kind=kw.pop("kind", None),
        sidechain=kw.pop("sidechain", False),
        workdir=kw.pop("workdir", None),
        part=kw.pop("part", None),
        url=kw.pop("url", None),
        input=kw.pop("input", None),
        running=kw.pop("running", False),
        escalated=kw.pop("escalated", False),
    )


def run(calls, errors, outputs=None, prompts=()):
    """Every failure's Fix, by tool_use_id."""
    found = fixes.session_fixes(
        calls,
        prompts,
        {c.tool_use_id: errors[c.tool_use_id] for c in calls if c.tool_use_id in errors},
        lambda tool_use_id: (outputs or {}).get(tool_use_id, ""),
        signatures.key_line,
        signatures.signature,
    )
    return {fix.tool_use_id: fix for fix in found}


def steps(fix):
    return [(s.tool_use_id, s.change) for s in fix.remedy]


def store_call(conn, n, tool_use_id, name, tool_input, content, kind=None, **columns):
    """A call and its result, the `n`th of session `s`, inserted as the build stores them:
    `columns` (command, file_path) beside the input, `kind` a failure's (None: it did not
    fail)."""
    timestamp = f"2026-01-01T00:00:0{n}Z"
    names = "".join(f", {column}" for column in columns)
    conn.execute(
        f"INSERT INTO tool_calls (tool_use_id, session_id, line_no, timestamp, name{names},"
        f" input) VALUES (?, 's', ?, ?, ?{', ?' * len(columns)}, ?)",
        [tool_use_id, n, timestamp, name, *columns.values(), tool_input],
    )
    conn.execute(
        "INSERT INTO tool_results (tool_use_id, session_id, line_no, timestamp, is_error,"
        " content, kind) VALUES (?, 's', ?, ?, ?, ?, ?)",
        [tool_use_id, n, timestamp, kind is not None, content, kind],
    )


def test_a_formatter_before_an_unchanged_retry_is_the_remedy():
    failed = call(command='git add -A && git commit -m "feat: x"', failed=True)
    look = call(command="git status")
    fmt = call(command="mix format")
    check = call(command="mix test 2>&1 | tail -5")
    retry = call(command='git add -A && git commit -m "feat: x, formatted"')
    error = "Pre-commit validation failed:\n[FORMAT] Code is not formatted.\nRun 'mix format'"
    fix = run([failed, look, fmt, check, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    # the look and the test run changed nothing; a new commit message is no change
    assert steps(fix) == [(fmt.tool_use_id, None)]
    assert fix.others == [look.tool_use_id, check.tool_use_id]


@pytest.mark.parametrize(
    "before, after, change",
    [
        (
            "git push 2>&1",
            "git push --set-upstream origin main 2>&1",
            "+--set-upstream +origin +main",
        ),
        ("tsx run.ts", "/usr/local/bin/tsx run.ts", "-tsx +/usr/local/bin/tsx"),
        (
            "npx prisma generate",
            "./node_modules/.bin/prisma generate",
            "-npx -prisma +./node_modules/.bin/prisma",
        ),
        ("python gen.py", "python3 gen.py", "-python +python3"),
        # a program's name mistyped, or another version of it: one letter apart
        ("pyhton3 greet.py", "python3 greet.py", "-pyhton3 +python3"),
        ("gti status --short", "git status --short", "-gti +git"),
        ("pip install rich", "pip3 install rich", "-pip +pip3"),
        # npm passes options on to `create` only after `--`
        (
            "pnpm create vite@latest web --template react-ts",
            "npm create vite@latest web -- --template react-ts",
            "-pnpm +npm +--",
        ),
        ("apt-get install -y jq", "sudo apt-get install -y jq", "+sudo"),
        ("git add a.css b.ex", "git add -f a.css", "-b.ex +-f"),
    ],
)
def test_a_changed_retry_is_the_remedy_and_says_what_changed(before, after, change):
    failed = call(command=before, failed=True)
    retry = call(command=after)
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1\nerror: nope"})[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert steps(fix) == [(retry.tool_use_id, change)]


def test_an_unchanged_retry_with_nothing_between_has_no_remedy_steps():
    failed = call(command="curl -sf http://localhost:8000/health", failed=True)
    retry = call(command="curl -sf http://localhost:8000/health")
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 7"})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, fix.remedy) == (fixes.FIXED, retry.tool_use_id, [])


@pytest.mark.parametrize(
    "before, after",
    [
        ("rm -r build", "rg -r build"),  # names of two letters
        ("pyhton3 greet.py", "python3 other.py"),  # another file
        ("pyhton3 greet.py", "python3 greet.py -v"),  # another flag
        ("pnpm create vite web --template vue", "npm create vite web -- --template react"),
        ("gcc a.c", "g++ a.c"),  # two letters apart
    ],
)
def test_a_program_spelt_otherwise_is_a_retry_only_with_every_other_word_the_same(before, after):
    failed = call(command=before, failed=True)
    other = call(command=after)
    fix = run([failed, other], {failed.tool_use_id: "Exit code 127\nnot found"})
    assert fix[failed.tool_use_id].outcome != fixes.FIXED


def test_another_script_is_not_a_retry():
    failed = call(command="npm run build", failed=True)
    other = call(command="npm run test")
    fix = run([failed, other], {failed.tool_use_id: "Exit code 1\nBuild failed"})[
        failed.tool_use_id
    ]
    assert fix.outcome == fixes.NOT_FIXED and fix.confirmed_by is None


def test_a_file_found_elsewhere_and_read_there_is_fixed():
    """The Glob that found it by its name is no step: the Read at its path is the fix (the
    labels of the thirtieth, thirty-second and thirty-seventh held-out sets), the Read made
    again with its path corrected: fixed, as those labels say (see _path_corrected)."""
    failed = call("Read", file_path="/p/src/config.yaml", failed=True)
    glob = call("Glob", pattern="**/config.yaml")
    read = call("Read", file_path="/p/conf/config.yaml")
    fix = run([failed, glob, read], {failed.tool_use_id: "File does not exist."})
    assert fix[failed.tool_use_id].outcome == fixes.FIXED
    assert [s.tool_use_id for s in fix[failed.tool_use_id].remedy] == [read.tool_use_id]


def test_a_file_read_in_the_folder_of_one_not_there_may_be_the_one_meant():
    """A name guessed (`conn_case.ex`), the folder searched, then `data_case.ex` read there:
    the file meant, worked around. A speculative MEMORY.md, then the folder searched for
    something else and docker-compose.yml read: no way around it (eleventh held-out set,
    not a problem)."""
    error = "File does not exist."
    failed = call("Read", file_path="/p/test/support/conn_case.ex", failed=True)
    glob = call("Glob", pattern="/p/test/support/*")
    read = call("Read", file_path="/p/test/support/data_case.ex")
    fix = run([failed, glob, read], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, read.tool_use_id)
    memory = call("Read", file_path="/p/MEMORY.md", failed=True)
    glob = call("Glob", pattern="/p/**/docker-compose*.yml")
    compose = call("Read", file_path="/p/docker-compose.yml")
    fix = run([memory, glob, compose], {memory.tool_use_id: error})[memory.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX


def test_a_folder_read_as_a_file_then_a_file_in_it():
    failed = call("Read", file_path="/p/test/support", failed=True)
    ls = call(command="ls /p/test/support")
    read = call("Read", file_path="/p/test/support/data_case.ex")
    fix = run([failed, ls, read], {failed.tool_use_id: "EISDIR: illegal operation on a directory"})
    # `ls` of the folder is the way round, the Read of a file in it the next task (FIX_VERSION
    # 19 made that Read confirm it, the listing its step, as two labels of three had it; the
    # labels of sets 30-40 and the real corpus call the listing the way round 5 times of 6)
    fix = fix[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, ls.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [ls.tool_use_id]


def test_the_same_program_through_another_shell_tool():
    failed = call(command="Get-ChildItem C:\\src", failed=True)
    other = call("PowerShell", command="Get-ChildItem C:\\src")
    fix = run([failed, other], {failed.tool_use_id: "command not found: Get-ChildItem"})
    assert fix[failed.tool_use_id].outcome == fixes.WORKED_AROUND


def test_a_missing_program_replaced_by_another_asking_the_same_filter():
    """`fc-list | rg -i "Maple Mono"`: fc-list is not on macOS; `system_profiler
    SPFontsDataType | rg -i -m 20 "Maple Mono"` asked the same question of another source
    (ninth held-out set, worked around). Another pattern, or a `| head`, is no question."""
    failed = call("exec_command", command='fc-list | rg -i "Maple Mono|NF CN"', failed=True)
    error = {failed.tool_use_id: "Exit code 1\nzsh:1: command not found: fc-list"}
    same = call(
        "exec_command", command='system_profiler SPFontsDataType | rg -i -m 20 "Maple Mono|NF CN"'
    )
    fix = run([failed, same], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, same.tool_use_id)
    for other in ("system_profiler SPFontsDataType | rg -i Menlo", "brew list | head -20"):
        later = call("exec_command", command=other)
        assert run([failed, later], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_missing_program_replaced_by_another_on_the_same_path():
    failed = call(command="tree src/lib -L 2", failed=True)
    find = call(command="find src/lib -maxdepth 2 -type d")
    fix = run([failed, find], {failed.tool_use_id: "(eval):1: command not found: tree"})
    assert fix[failed.tool_use_id].confirmed_by == find.tool_use_id


def test_a_bare_status_127_is_a_program_not_found():
    """`cat a 2>/dev/null || cat b 2>/dev/null` said only `Exit code 127`, the shell's status
    for a program it did not find; a grep of b then answered (seventeenth held-out set).
    Another status said alone is no such thing."""
    failed = call(command="cat /p/b/.gitignore 2>/dev/null || cat /p/.gitignore 2>/dev/null")
    failed = failed._replace(failed=True)
    grep = call(command="grep -n 'uv' /p/.gitignore")
    said = (("Exit code 127", fixes.WORKED_AROUND), ("Exit code 1", fixes.ANSWERED))
    for status, outcome in said:
        fix = run([failed, grep], {failed.tool_use_id: status})[failed.tool_use_id]
        assert fix.outcome == outcome


@pytest.mark.parametrize(
    "command, written, made",
    [
        ("npx tailwindcss init -p", "/p/tailwind.config.js", True),
        ("./node_modules/.bin/tailwindcss init -p", "/p/tailwind.config.js", True),
        ("tsc --init", "/p/tsconfig.json", True),
        ("npx eslint --init", "/p/.eslintrc.json", True),
        ("npx tailwindcss init -p", "/p/src/App.tsx", False),
        ("git init", "/p/.gitignore", False),
        ("npx tailwindcss build -o out.css", "/p/tailwind.config.js", False),
        # a package manager's init writes its manifest (twenty-second held-out set)
        ("npm init -y 2>&1", "/p/package.json", True),
        ("go mod init example.com/app", "/p/go.mod", True),
        ("npm install", "/p/package.json", False),
        ("npm init -y", "/p/go.mod", False),
        # and so does a scaffolder (thirty-third held-out set)
        ("npx create-next-app@latest . --typescript", "/p/package.json", True),
        ("npm create vite@latest app -- --template react", "/p/package.json", True),
        ("pnpm dlx create-next-app@latest .", "/p/package.json", True),
        ("yarn create next-app", "/p/package.json", True),
        ("npx create-next-app@latest .", "/p/tsconfig.json", False),
        ("npx next build", "/p/package.json", False),
    ],
)
def test_a_programs_init_that_failed_then_its_config_written(command, written, made):
    """`npx tailwindcss init -p`: tailwind 4 has no CLI to run (`could not determine
    executable to run`), and the agent wrote tailwind.config.js itself (seventeenth held-out
    set: 3 failures, worked around). Only the program's own config file, and only after an
    init: a Write of another file, or of .gitignore after `git init`, is none."""
    failed = call(command=command, failed=True)
    write = call("Write", file_path=written)
    error = {failed.tool_use_id: "npm error could not determine executable to run"}
    fix = run([failed, write], error)[failed.tool_use_id]
    assert (fix.outcome == fixes.WORKED_AROUND) is made


@pytest.mark.parametrize(
    "command, written, made",
    [
        ("npm create vite@latest frontend -- --template react-ts", "frontend/package.json", True),
        ("npx create-next-app@latest .", "package.json", True),
        ("npx create-next-app@latest .", "./package.json", True),
        ("npm init -y", "package.json", True),
        # another folder's manifest is another project's; another file, no scaffold's
        ("npm create vite@latest frontend -- --template react-ts", "backend/package.json", False),
        ("npx create-next-app@latest .", "/srv/other/package.json", False),
        ("npm create vite@latest frontend -- --template react-ts", "frontend/notes.md", False),
        ("npm install", "package.json", False),
    ],
)
def test_a_scaffolder_that_could_not_run_then_its_files_written_by_the_shell(
    command, written, made
):
    """`npm create vite@latest frontend` could not reach the registry (ENOTFOUND), then the
    agent made the folders and wrote the app through heredocs, package.json first (thirty-
    eighth held-out set, worked around): the shell's write of the manifest, in the folder the
    scaffolder was given, is the way round, and the mkdir before it its step."""
    failed = call(command=command, failed=True)
    mkdir = call(command="mkdir -p frontend/src/pages frontend/public")
    write = call(command=f'cat <<\'EOF\' > {written}\n{{\n  "name": "app"\n}}\nEOF')
    error = {
        failed.tool_use_id: "npm error code ENOTFOUND\nnpm error network request to "
        "https://registry.npmjs.org/create-vite failed, reason: getaddrinfo ENOTFOUND"
    }
    fix = run([failed, mkdir, write], error)[failed.tool_use_id]
    if made:
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, write.tool_use_id)
        assert mkdir.tool_use_id in [s for s, _ in steps(fix)]
    else:
        assert fix.outcome == fixes.NOT_FIXED


def test_a_name_search_that_missed_a_folder_answered_by_a_listing_in_it():
    """`rg --files -g '*__tests__*' frontend/src` found nothing (exit 1): `__tests__` is a
    folder, and rg matches such a glob against file names; `ls frontend/src/hooks` printed
    `__tests__` (thirty-eighth held-out set, labelled fixed, Unsure). A listing of names the
    pattern does not match, or outside the folder searched, answers nothing."""
    failed = call("shell", command="rg --files -g '*__tests__*' frontend/src", failed=True)
    error = {failed.tool_use_id: "Exit code 1"}
    listing = call("shell", command="ls frontend/src/hooks")
    printed = {listing.tool_use_id: "__tests__\nuseAutoSelect.ts\nuseNumberSelection.ts\n"}
    fix = run([failed, listing], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, listing.tool_use_id)
    other = {listing.tool_use_id: "useAutoSelect.ts\nuseNumberSelection.ts\n"}
    assert run([failed, listing], error, other)[failed.tool_use_id].outcome == fixes.ANSWERED
    above = call("shell", command="ls frontend")
    printed = {above.tool_use_id: "__tests__\nsrc\n"}
    assert run([failed, above], error, printed)[failed.tool_use_id].outcome == fixes.ANSWERED


def test_a_shell_grep_of_a_file_not_there_redone_by_the_grep_tool():
    """`grep -n 'sequence: "w"' ~/.config/qs/App/shell.qml`: no such file, the files copied
    one folder too high; moved into App/, then the Grep tool's search of shell.qml for the
    same pattern (thirty-eighth held-out set, worked around, the move its step). Another
    pattern or another file is another search."""
    failed = call(command="grep -n 'sequence: \"w\"' ~/.config/qs/App/shell.qml", failed=True)
    error = {
        failed.tool_use_id: "Exit code 2\ngrep: /home/me/.config/qs/App/shell.qml: No such "
        "file or directory"
    }
    move = call(command="mkdir -p ~/.config/qs/App && mv ~/.config/qs/shell.qml ~/.config/qs/App/")
    path = "/home/me/.config/qs/App/shell.qml"
    grep = call("Grep", file_path=path, pattern='sequence: "w"')
    fix = run([failed, move, grep], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)
    assert {s for s, _ in steps(fix)} == {move.tool_use_id, grep.tool_use_id}
    relative = call(command="grep -n 'sequence' App/shell.qml", failed=True)
    error[relative.tool_use_id] = "grep: App/shell.qml: No such file or directory"
    fix = run([relative, call("Grep", file_path=path, pattern="sequence")], error)
    assert fix[relative.tool_use_id].outcome == fixes.WORKED_AROUND
    for other in (
        call("Grep", file_path=path, pattern="Shortcut"),
        call("Grep", file_path="/home/me/.config/qs/App/theme.toml", pattern='sequence: "w"'),
    ):
        fix = run([failed, move, other], error)[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED


def test_a_search_of_a_path_not_there_redone_on_a_file_in_it():
    """A Grep of `apps/api/src/modules/auth/guards` (its glob `index.ts`) from inside
    apps/api, so that the path was not there, then the same pattern in the absolute path of
    index.ts in that folder (seventeenth held-out set). Another pattern is another search."""
    failed = call("Grep", file_path="apps/api/src/modules/auth/guards", failed=True)
    failed = failed._replace(pattern="AuthGuard")
    error = {failed.tool_use_id: "<tool_use_error>Path does not exist: apps/api</tool_use_error>"}
    inside = "/u/be/apps/api/src/modules/auth/guards/index.ts"
    retry = call("Grep", file_path=inside, pattern="AuthGuard")
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    other = call("Grep", file_path=inside, pattern="JwtModule")
    elsewhere = call("Grep", file_path="/u/be/apps/api/src/app.module.ts", pattern="AuthGuard")
    for later in (other, elsewhere):
        assert run([failed, later], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_search_of_a_folder_not_there_redone_above_it_or_without_its_path():
    """A Glob of `**/*.styl` in app/styles/register, a folder not there, then the same
    pattern in app/styles, or with no path: the search run where it could be (nu49's
    held-out set, "fixed: no"). Another pattern there, or the same one in another folder
    beside it, is another search."""
    failed = call("Glob", pattern="**/*.styl", file_path="/w/app/styles/register", failed=True)
    error = {
        failed.tool_use_id: "<tool_use_error>Directory does not exist: /w/app/styles/register"
        "</tool_use_error>"
    }
    for path in ("/w/app/styles", None):
        retry = call("Glob", pattern="**/*.styl", file_path=path)
        fix = run([failed, retry], error)[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    for other in (
        call("Glob", pattern="**/register*.css", file_path="/w/app/styles"),
        call("Glob", pattern="**/*.styl", file_path="/w/app/scripts"),
    ):
        assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_call_cancelled_with_its_sibling_is_fixed_by_what_its_rerun_needed():
    """flake8 cancelled because its parallel pytest failed; a test edited; flake8 rerun
    alone failed (not installed); `uv pip install flake8 && uv run flake8` worked. The
    cancelled call never ran: its remedy is the install, not the edit before the rerun
    (seventeenth held-out set)."""
    cancelled = call(command="uv run flake8 src", failed=True, kind="sibling_error")
    edit = call("Edit", file_path="/p/tests/test_a.py")
    rerun = call(command="uv run flake8 src", failed=True)
    fixed = call(command="uv pip install flake8 && uv run flake8 src")
    errors = {
        cancelled.tool_use_id: "<tool_use_error>Sibling tool call errored</tool_use_error>",
        rerun.tool_use_id: "Exit code 2\nerror: Failed to spawn: `flake8`",
    }
    fix = run([cancelled, edit, rerun, fixed], errors)[cancelled.tool_use_id]
    assert fix.confirmed_by == fixed.tool_use_id
    assert edit.tool_use_id not in [s for s, _ in steps(fix)]


def test_a_call_cancelled_beside_a_failure_and_its_rerun_are_no_retry_of_it():
    """Five `ls` of guessed folders sent together; the one with a folder not there exits
    1, the next two are cancelled with it, and the first cancelled one is rerun alone and
    lists its folders. Neither retried the failed `ls` (thirty-third held-out set: not a
    problem, the card said fixed by the rerun, the cancelled call its step)."""
    failed = call(command="ls /p/buyback/lib/\nls /p/buyback/consts/ 2>/dev/null", failed=True)
    cancelled = call(command="ls /p/notification/lib/", failed=True, kind="sibling_error")
    other = call(command="ls /p/packages/email/", failed=True, kind="sibling_error")
    rerun = call(command="ls /p/notification/lib/")
    cancel = "<tool_use_error>Cancelled: parallel tool call Bash(ls /p/…) errored</tool_use_error>"
    errors = {failed.tool_use_id: "Exit code 1\na.ts\nb.ts"}
    errors |= {cancelled.tool_use_id: cancel, other.tool_use_id: cancel}
    fixed = run([failed, cancelled, other, rerun], errors, {rerun.tool_use_id: "x.ts"})
    fix = fixed[failed.tool_use_id]
    # (nothing retried it: the last look's errors thrown away, its status was its answer,
    # fixes._looked_quietly)
    assert fix.outcome == fixes.ANSWERED
    assert fix.remedy == []
    # the cancelled call's own rerun is still its retry; the other, not run again, cancelled
    assert fixed[other.tool_use_id].outcome == fixes.CANCELLED
    assert fixed[cancelled.tool_use_id].confirmed_by == rerun.tool_use_id


@pytest.mark.parametrize(
    ("again", "printed", "fixed"),
    [
        ("rg --files -g 'UC-*.md'", "UC-01.md\nUC-02.md", True),  # the folder left out
        ("rg --files . -g 'UC-*.md'", "./UC-01.md", True),  # a folder above it
        ("rg --files docs -g 'UC-*.md'", "docs/UC-01.md", False),  # another folder
        ("rg --files -g 'UC-*.md'", "specs/x/UC-01.md", False),  # found where it looked
        ("rg --files -g '*.md'", "UC-01.md", False),  # another glob: another question
    ],
)
def test_a_search_that_found_nothing_run_again_above_its_folder(again, printed, fixed):
    """`rg --files specs -g 'UC-*.md'` exits 1, listing nothing; the same search without
    `specs` lists the files at the root: it was fixed by leaving out the folder (thirty-
    third held-out set, a Codex user)."""
    failed = call("shell_command", command="rg --files specs -g 'UC-*.md'", failed=True)
    retry = call("shell_command", command=again)
    errors = {failed.tool_use_id: "Exit code 1"}
    fix = run([failed, retry], errors, {retry.tool_use_id: printed})[failed.tool_use_id]
    assert (fix.confirmed_by == retry.tool_use_id) == fixed


@pytest.mark.parametrize(
    ("again", "printed", "fixed"),
    [
        ("git ls-remote --heads origin | grep -E 'x-specs$'", "Exit code 1", True),
        # its errors sent to the matcher, or away: an error would not have shown
        ("git ls-remote --heads origin 2>&1 | grep -E 'x-specs$'", "Exit code 1", False),
        ("git ls-remote --heads origin 2>/dev/null | grep -E 'x-specs$'", "Exit code 1", False),
        # the matcher not fed by what failed
        ("git ls-remote --heads origin; grep -E 'x-specs$' branches.txt", "Exit code 1", False),
    ],
)
def test_a_retry_whose_piped_matcher_found_nothing_got_past_the_error(again, printed, fixed):
    """`git ls-remote --heads origin | grep -E '...'` could not resolve github.com in
    Codex's sandbox; run outside it, it exited 1 with nothing printed: grep matched no
    branch, which answered the check (thirty-third held-out set, fixed by its label)."""
    failed = call(
        "shell_command", command="git ls-remote --heads origin | grep -E 'x-specs$'", failed=True
    )
    retry = call("shell_command", command=again, failed=True, escalated=True)
    errors = {
        failed.tool_use_id: "Exit code 1\nfatal: unable to access 'https://github.com/a/b.git/':"
        " Could not resolve host: github.com",
        retry.tool_use_id: printed,
    }
    fix = run([failed, retry], errors)[failed.tool_use_id]
    assert (fix.confirmed_by == retry.tool_use_id) == fixed
    if fixed:
        assert fix.outcome == fixes.FIXED
        assert steps(fix) == [(retry.tool_use_id, "with escalated permissions")]


def test_an_edit_of_a_script_a_failed_command_ran_is_no_other_way_of_its_cat():
    """A launch of a script that then `cat` its log was killed by its own `pkill -f`
    (exit 144); the script was edited, and the launch without pkill worked. The Edit is
    of the script, not of the file `cat` showed: no other way of looking at it
    (thirty-third held-out set: the card said worked around by the Edit)."""
    failed = call(
        command="pkill -f 'scripts/panel.py'\n~/scripts/panel.py > /tmp/gui.log 2>&1 &\n"
        "sleep 4\ncat /tmp/gui.log",
        failed=True,
    )
    edit = call("Edit", file_path="/home/u/scripts/panel.py")
    launch = call(command="~/scripts/panel.py > /tmp/gui.log 2>&1 &\nsleep 4\ncat /tmp/gui.log")
    printed = {launch.tool_use_id: "Gtk-Message: panel up"}
    fix = run([failed, edit, launch], {failed.tool_use_id: "Exit code 144"}, printed)
    fix = fix[failed.tool_use_id]
    assert fix.confirmed_by == launch.tool_use_id
    assert fix.outcome == fixes.FIXED
    # (a Read of the log it showed is still the other way)
    read = call("Read", file_path="/tmp/gui.log")
    fix = run([failed, read], {failed.tool_use_id: "Exit code 144"})[failed.tool_use_id]
    assert fix.confirmed_by == read.tool_use_id


def test_an_edit_refused_then_a_read_first():
    failed = call("Edit", file_path="/p/a.py", failed=True, kind="not_read")
    read = call("Read", file_path="/p/a.py")
    retry = call("Edit", file_path="/p/a.py")
    error = "File has not been read yet. Read it first before writing to it."
    fix = run([failed, read, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert [s.tool_use_id for s in fix.remedy] == [read.tool_use_id]


def test_an_edit_refused_then_the_file_written_by_the_shell():
    failed = call("Write", file_path="/p/types/index.ts", failed=True)
    heredoc = call(command="cat > /p/types/index.ts << 'EOF'\nexport type A = 1\nEOF")
    fix = run([failed, heredoc], {failed.tool_use_id: "File has not been read yet."})
    assert fix[failed.tool_use_id].outcome == fixes.WORKED_AROUND


@pytest.mark.parametrize(
    "script",
    [
        "python - <<'PY'\nfrom pathlib import Path\npath = Path('/per/dev/ws/ui/src/main.tsx')\n"
        "path.write_text(path.read_text().replace('a', 'b'))\nPY",
        "python3 - << 'EOF'\npath = \"/per/dev/ws/ui/src/main.tsx\"\nwith open(path) as f:\n"
        '    text = f.read()\nwith open(path, "w") as f:\n    f.write(text)\nEOF',
        'node -e \'require("fs").writeFileSync("ui/src/main.tsx", src)\'',
    ],
)
def test_an_edit_the_tool_could_not_make_then_a_script_that_writes_the_file(script):
    """Codex's apply_patch failing on every file (`Io(Os { code: 2, kind: NotFound })`), or
    an Edit a hook blocked, then the file written by a script: no `> file` names it, its
    code does. A script that only reads the file, or writes another one, is no way round."""
    error = 'execution error: Io(Os { code: 2, kind: NotFound, message: "No such file" })'
    failed = call("apply_patch", file_path="ui/src/main.tsx", failed=True)
    done = call(command=script)
    fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, done.tool_use_id)
    # the change is the tool, not the folder the script ran in
    done = call("exec_command", command=script, workdir="/per/dev/ws")
    fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
    assert steps(fix) == [(done.tool_use_id, "apply_patch → exec_command")]
    for other in (
        "python3 -c \"print(open('/per/dev/ws/ui/src/main.tsx').read())\"",
        "python3 - <<'PY'\nPath('/per/dev/ws/ui/src/App.tsx').write_text('x')\nPY",
    ):
        failed = call("apply_patch", file_path="ui/src/main.tsx", failed=True)
        done = call(command=other)
        fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED


def test_an_edit_made_by_a_script_run_in_the_files_folder_naming_it_alone():
    """The Edit tool failing on a Windows checkout again and again ("File has been
    unexpectedly modified"), then `cd` into the file's folder and a `node -e` that writes
    `'server.js'` (nineteenth held-out set: 7 failures of one file). Not a script run in
    another folder, nor one that writes a file of another name."""
    error = "File has been unexpectedly modified. Read it again before attempting to write it."
    failed = call("Edit", file_path="C:/Users/me/app/backend/server.js", failed=True)
    script = "node -e \"\nconst fs = require('fs');\nfs.writeFileSync('server.js', s);\n\""
    for folder in ('"C:/Users/me/app/backend"', "backend", "c:/users/me/app/backend"):
        done = call(command=f"cd {folder} && {script}")
        fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, done.tool_use_id)
    for other in (
        f'cd "C:/Users/me/app/frontend" && {script}',
        f"cd backend && {script}".replace("'server.js'", "'server.test.js'"),
    ):
        done = call(command=other)
        fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED, other


@pytest.mark.parametrize(
    "masked",
    ["npm test || true", "npm test 2>/dev/null || echo 'tests skipped'", "npm test; exit 0"],
)
def test_a_retry_that_hides_the_error_claims_no_fix(masked):
    failed = call(command="npm test", failed=True)
    retry = call(command=masked)
    printed = {retry.tool_use_id: "3 failing\ntests skipped"}
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1\n3 failing"}, printed)
    assert fix[failed.tool_use_id].outcome == fixes.PAPERED_OVER
    assert fix[failed.tool_use_id].outcome not in fixes.CLAIMS_FIX


def test_a_retry_that_only_stops_demanding_what_failed_claims_no_fix():
    """A check run again with the flag that demanded what was missing taken out got past the
    error by not asking (`--require-tasks`, `ERROR: tasks.md not found`: thirty-ninth
    held-out set, abandoned; a new user's try, nu41): papered over, as `|| true` is; the
    same demand met later is the fix. A formatter's `--check` taken out does the work, and
    a flag put in besides is another run."""
    script = "cd /p && .specify/scripts/bash/check-prerequisites.sh --json"
    error = "ERROR: tasks.md not found in /p/specs/001-x\nRun /speckit.tasks first"
    for command, retry in (
        (f"{script} --require-tasks --include-tasks", script),
        ("npx tsc --noEmit --strict", "npx tsc --noEmit"),
        ("npx eslint . --max-warnings=0", "npx eslint ."),
        ("gcc -Wall -Werror -c x.c", "gcc -Wall -c x.c"),
    ):
        failed, done = call(command=command, failed=True), call(command=retry)
        fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.PAPERED_OVER, command
    failed = call(command=f"{script} --require-tasks --include-tasks", failed=True)
    asked = call(command=script)
    write = call("Write", file_path="/p/specs/001-x/tasks.md")
    again = call(command=f"{script} --require-tasks --include-tasks")
    fix = run([failed, asked, write, again], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    for command, retry in (
        ("black --check app.py", "black app.py"),
        ("pytest --strict-markers tests", "pytest --strict-markers tests -p no:cacheprovider"),
    ):
        failed, done = call(command=command, failed=True), call(command=retry)
        fix = run([failed, done], {failed.tool_use_id: "Exit code 1"})[failed.tool_use_id]
        assert fix.outcome == fixes.FIXED, command


def test_what_a_masked_check_said_was_missing_then_made_is_its_fix():
    """A check that demanded a file (`--require-tasks`: `ERROR: tasks.md not found`), run
    next without the demand, then tasks.md written, the check never run again: the writing
    met the demand, so it is the fix, as an install is of a program never run again; the
    card said `papered over` (thirty-ninth held-out set, a new user's try, nu46 finding 4).
    So for a file a build said was not there, its failure let through (`|| true`), then
    written. A file the error does not name is none, and the failure stays papered over."""
    script = "cd /p && .specify/scripts/bash/check-prerequisites.sh --json"
    for command, retry, error, path in (
        (
            f"{script} --require-tasks --include-tasks",
            script,
            "ERROR: tasks.md not found in /p/specs/001-x\nRun /speckit.tasks first",
            "/p/specs/001-x/tasks.md",
        ),
        (
            "node scripts/build.js",
            "node scripts/build.js || true",
            "Error: ENOENT: no such file or directory, open '/p/config/site.json'",
            "/p/config/site.json",
        ),
    ):
        for made, outcome in ((path, fixes.FIXED), ("/p/notes/plan.md", fixes.PAPERED_OVER)):
            failed, asked = call(command=command, failed=True), call(command=retry)
            read = call("Read", file_path="/p/specs/001-x/plan.md")
            write = call("Write", file_path=made)
            printed = {asked.tool_use_id: error}
            found = run([failed, asked, read, write], {failed.tool_use_id: error}, printed)
            fix = found[failed.tool_use_id]
            assert fix.outcome == outcome, (command, made)
            if outcome == fixes.FIXED:
                assert fix.confirmed_by == write.tool_use_id
                assert steps(fix) == [(write.tool_use_id, None)]


def test_a_look_whose_failure_a_later_look_masked_was_answered():
    """A look at a path not there (`sed -n`, `cat`, `ls`), then the same look again behind
    an `ls` with `|| true` after it, exploring: no error was hidden, it found nothing again;
    the card said `papered over`, "a later call only hid the error" (thirty-ninth held-out
    set, a Codex user who then found the code elsewhere; a new user's try, nu46 finding 4).
    It was answered, as the look alone is. A check masked so still papers over."""
    api = "modules/frontend/src/lib/api"
    failed = call(
        "shell",
        command=f"sed -n '1,200p' {api}/index.ts && sed -n '1,180p' {api}/fetch.ts",
        failed=True,
    )
    retry = call(
        "shell",
        command=f"ls -la {api} && sed -n '1,200p' {api}/index.ts || true"
        f" && sed -n '1,200p' {api}/fetch.ts || true",
    )
    other = call("shell", command="sed -n '1,200p' modules/frontend/src/hooks/api/base.ts")
    error = f"sed: {api}/index.ts: No such file or directory"
    printed = {retry.tool_use_id: f"total 64\nmenu-categories.ts\nsed: {api}/index.ts: No such"}
    fix = run([failed, retry, other], {failed.tool_use_id: error}, printed)[failed.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    failed, retry = call(command="npm test", failed=True), call(command="npm test || true")
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1\n3 failing"})
    assert fix[failed.tool_use_id].outcome == fixes.PAPERED_OVER


def test_a_retry_that_passes_because_an_edit_stopped_the_check_failing_claims_no_fix():
    """The family of a demanding flag taken out, made by an edit: `set -e` taken out of the
    script the command ran, `|| true` put into it, a failing test marked skipped or
    expected to fail, its assertions taken out. The retry passes by asking less: papered
    over. An edit that changes an assertion, or fixes the code, is a fix; so is a skip
    marker put into a file that is no test and that the command did not run."""

    def edit(path, old, new):
        data = {"file_path": path, "old_string": old, "new_string": new}
        return call("Edit", file_path=path, input=json.dumps(data))

    test = "tests/test_db.py"
    for command, step in (
        (
            "bash scripts/deploy.sh",
            edit("scripts/deploy.sh", "set -euo pipefail\ncp a b", "cp a b"),
        ),
        ("bash scripts/deploy.sh", edit("scripts/deploy.sh", "cp a b\n", "cp a b || true\n")),
        ("pytest tests", edit(test, "def test_open():", "@pytest.mark.skip\ndef test_open():")),
        ("pytest tests", edit(test, "def test_open():", "@pytest.mark.xfail\ndef test_open():")),
        ("npx jest", edit("src/db.test.ts", "it('opens', () => {", "it.skip('opens', () => {")),
        ("pytest tests", edit(test, "    x = open_db()\n    assert x.ok\n", "    x = open_db()\n")),
    ):
        failed, again = call(command=command, failed=True), call(command=command)
        fix = run([failed, step, again], {failed.tool_use_id: "Exit code 1\nFAILED"})
        assert fix[failed.tool_use_id].outcome == fixes.PAPERED_OVER, (command, step.input)
    for command, step in (
        ("pytest tests", edit(test, "    assert x.ok\n", "    assert x.ok is True\n")),
        ("pytest tests", edit("app/db.py", "return None", "return Db()")),
        ("bash scripts/deploy.sh", edit("docs/notes.md", "cp a b", "cp a b || true")),
    ):
        failed, again = call(command=command, failed=True), call(command=command)
        fix = run([failed, step, again], {failed.tool_use_id: "Exit code 1\nFAILED"})
        assert fix[failed.tool_use_id].outcome == fixes.FIXED, (command, step.input)
        # (a document the run never named is no step of it: _beside_the_run)
        made = [] if step.file_path == "docs/notes.md" else [(step.tool_use_id, None)]
        assert steps(fix[failed.tool_use_id]) == made


def test_a_git_look_with_no_repository_or_a_failure_provoked_on_purpose_was_answered():
    """An orientation `git status` where there is no repository, the agent going on, and
    inline code that met the exception it was written to provoke (it catches it and quotes
    its message: a read-only database refused), nothing fixing either: 'answered', not
    'not fixed' (thirty-first held-out set, both not a problem; nu42 finding 7). Not a
    git command that changes things, one a `git init` then let run, nor code that catches
    another exception or quotes nothing of the message."""
    no_repo = "fatal: not a git repository (or any parent up to mount point /)"
    provoke = (
        "python -c \"\nimport db\ntry:\n    db.open('ro.db')\n"
        "except RuntimeError as exc:\n    assert 'read-only' in str(exc)\n\"\""
    )
    raised = (
        "Traceback (most recent call last):\n  File ...\n"
        "RuntimeError: SQLite database is read-only: ro.db"
    )
    for command, error in (
        ("git status --short", no_repo),
        ("cd /w/app && git log --oneline -5", no_repo),
        (provoke, raised),
    ):
        failed, other = (
            call(command=command, failed=True),
            call("Read", file_path="/w/app/README.md"),
        )
        fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.ANSWERED, command
    for command, error in (
        ("git commit -m x", no_repo),
        (provoke.replace("RuntimeError", "ValueError"), raised),
        (provoke, raised.replace("SQLite database is read-only", "disk I/O failed")),
    ):
        failed, other = (
            call(command=command, failed=True),
            call("Read", file_path="/w/app/README.md"),
        )
        fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED, command
    failed, init, again = (
        call(command="git status", failed=True),
        call(command="git init"),
        call(command="git status"),
    )
    fix = run([failed, init, again], {failed.tool_use_id: no_repo})[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(init.tool_use_id, None)])


def test_a_command_given_a_file_for_its_folder_is_redone_on_that_file():
    """Codex's `cat` with `workdir` set to the file (`NotADirectory`), five files in a row,
    each then `cat`ed by its path from the repository (nineteenth held-out set). The
    retry is the cat of that file, not of the next one."""
    error = 'execution error: Io(Os { code: 20, kind: NotADirectory, message: "Not a directory" })'
    specs = "/r/specs/001"
    tasks = call("shell", command="cat", failed=True, workdir=f"{specs}/tasks.md")
    plan = call("shell", command="cat", failed=True, workdir=f"{specs}/plan.md")
    cat_plan = call("shell", command=f"cat {specs}/plan.md", workdir="/r")
    cat_tasks = call("shell", command=f"cat {specs}/tasks.md", workdir="/r")
    fix = run(
        [tasks, plan, cat_plan, cat_tasks], {tasks.tool_use_id: error, plan.tool_use_id: error}
    )
    assert (fix[tasks.tool_use_id].outcome, fix[tasks.tool_use_id].confirmed_by) == (
        fixes.FIXED,
        cat_tasks.tool_use_id,
    )
    assert fix[plan.tool_use_id].confirmed_by == cat_plan.tool_use_id
    assert steps(fix[tasks.tool_use_id]) == [
        (cat_tasks.tool_use_id, "tasks.md as its argument, not its folder")
    ]
    # another program on it is another question
    head = call("shell", command=f"head -5 {specs}/tasks.md", workdir="/r")
    fix = run([tasks, head], {tasks.tool_use_id: error})
    assert fix[tasks.tool_use_id].outcome == fixes.NOT_FIXED


def test_gits_own_options_are_not_its_subcommand():
    """`git -C app status` is a `git status`; `git -c user.name=x commit` a `git commit`
    (nineteenth held-out set: each redone so, and neither was taken for a retry)."""
    assert fixes._program(["git", "-C", "app", "status"]) == ("git", ["status"])
    assert fixes._program(["git", "--no-pager", "-c", "a=b", "log", "-1"]) == ("git", ["log", "-1"])
    for command, error, retry in (
        (
            "git -C stryv-lab status",
            "fatal: cannot change to 'stryv-lab': No such file or directory",
            "git -C /Users/me/stryv-lab status",
        ),
        (
            'git commit -m "chore: init"',
            "Author identity unknown\n\n*** Please tell me who you are.",
            'git -c user.name="Me" -c user.email="me@x.org" commit -m "chore: init"',
        ),
    ):
        failed = call(command=command, failed=True)
        done = call(command=retry)
        fix = run([failed, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, done.tool_use_id), command
    failed = call(command="git -C app status", failed=True)
    other = call(command="git -C app log -1")
    fix = run([failed, other], {failed.tool_use_id: "fatal: cannot change to 'app'"})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_fallback_that_said_nothing_of_its_own_did_not_run():
    """`cat x 2>/dev/null || echo "File not accessible"` that printed the file, not those
    words: the cat worked, nothing was hidden (nineteenth held-out set; a `cd ... && ls
    types/ 2>/dev/null || echo` of ../shared/corpus/real, labelled fixed by it). A fallback
    whose words are in the output, or that says nothing or cannot be told, hides it: a
    check's error papered over, a look's answered all the same (_shell_only_looked)."""
    for command, error, hidden in (
        ("ls -la types/", "ls: cannot access 'types/': No such file or directory", None),
        ("npm run build -w types/", "Exit code 1\nerror TS2307", fixes.PAPERED_OVER),
    ):
        failed = call(command=command, failed=True)
        hidden = hidden or fixes.ANSWERED
        for retry, printed, outcome in (
            (f'cd /p && {command} 2>/dev/null || echo "No types dir"', "index.ts", fixes.FIXED),
            (f"cd /p && {command} 2>/dev/null || echo 'No types dir'", "No types dir", hidden),
            (f'cd /p && {command} || echo "missing: $d"', "index.ts", hidden),
            (f'cd /p && {command} || printf "%s\\n" gone', "index.ts", hidden),
            (f"cd /p && {command} || true", "index.ts", hidden),
            (f'cd /p && {command} || echo "No types dir"; ls x || true', "index.ts", hidden),
        ):
            done = call(command=retry)
            fix = run([failed, done], {failed.tool_use_id: error}, {done.tool_use_id: printed})
            assert fix[failed.tool_use_id].outcome == outcome, retry


def test_a_success_whose_output_still_has_the_error_confirms_nothing():
    failed = call(command="npm test", failed=True)
    piped = call(command="npm test 2>&1 | tail -20")
    edit = call("Edit", file_path="/p/src/sum.js")
    retry = call(command="npm test")
    error = "Exit code 1\nFAIL src/sum.test.js\nExpected: 3, Received: 4"
    outputs = {piped.tool_use_id: "FAIL src/sum.test.js\nExpected: 3, Received: 4\n"}
    fix = run([failed, piped, edit, retry], {failed.tool_use_id: error}, outputs)
    assert fix[failed.tool_use_id].confirmed_by == retry.tool_use_id
    assert [s.tool_use_id for s in fix[failed.tool_use_id].remedy] == [edit.tool_use_id]


def test_nothing_succeeded_claims_no_fix():
    failed = call(command="make deploy", failed=True)
    later = [call("Read", file_path="/p/Makefile"), call(command="echo 'could not deploy'")]
    fix = run([failed, *later], {failed.tool_use_id: "Exit code 2\nmake: *** [deploy] Error 1"})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_chain_of_failures_gives_each_error_its_own_remedy():
    first = call(command="mix test test/live_test.exs", failed=True)
    edit_one = call("Edit", file_path="/p/mix.exs")
    second = call(command="mix test test/live_test.exs", failed=True)
    edit_two = call("Edit", file_path="/p/test/live_test.exs")
    ok = call(command="mix test test/live_test.exs")
    errors = {
        first.tool_use_id: "Exit code 1\n** (RuntimeError) requires lazy_html",
        second.tool_use_id: "Exit code 2\n12 tests, 11 failures",
    }
    found = run([first, edit_one, second, edit_two, ok], errors)
    assert [s.tool_use_id for s in found[first.tool_use_id].remedy] == [edit_one.tool_use_id]
    assert [s.tool_use_id for s in found[second.tool_use_id].remedy] == [edit_two.tool_use_id]
    assert found[first.tool_use_id].confirmed_by == ok.tool_use_id


def test_the_same_error_again_moves_the_remedy_after_it():
    first = call(command="pytest -q", failed=True)
    useless = call("Edit", file_path="/p/a.py")
    again = call(command="pytest -q", failed=True)
    useful = call("Edit", file_path="/p/b.py")
    ok = call(command="pytest -q")
    error = "Exit code 1\nE   ImportError: cannot import name 'x' from 'b'"
    found = run(
        [first, useless, again, useful, ok], {first.tool_use_id: error, again.tool_use_id: error}
    )
    assert [s.tool_use_id for s in found[first.tool_use_id].remedy] == [useful.tool_use_id]


def test_steps_that_took_away_some_of_its_errors_are_the_remedy_when_nothing_after_did():
    """`tsc` fails on three files; `.js` added to one file's imports, the next run shows
    the other's errors only (the first's moved a line up); an unused block removed, the
    next shows one fewer; then the agent's edits are refused (the file changed under it)
    and the run passes (thirty-fifth held-out set): the edits that took errors away are the
    fix of each run before them. Runs that showed the same errors each time leave no
    remedy: the steps before them did nothing seen."""
    ts = "src/a.test.ts({},1): error TS6192: All imports in import declaration are unused."
    first = call(command="pnpm run typecheck", failed=True)
    edit_one = call("Edit", file_path="/p/src/b.test.ts")
    second = call(command="pnpm run typecheck", failed=True)
    edit_two = call("Edit", file_path="/p/src/a.test.ts")
    third = call(command="pnpm run typecheck", failed=True)
    refused = call("Edit", file_path="/p/src/a.test.ts", failed=True)
    look = call(command="head -30 src/a.test.ts")
    ok = call(command="pnpm run typecheck")
    texts = {
        first.tool_use_id: "\n".join(
            [
                ts.format(25),
                "src/a.test.ts(349,13): error TS6133: 'mock' is declared but never read.",
                "src/b.test.ts(18,27): error TS2835: Relative import paths need extensions.",
            ]
        ),
        second.tool_use_id: "\n".join(
            [ts.format(24), "src/a.test.ts(347,13): error TS6133: 'mock' is declared..."]
        ),
        third.tool_use_id: ts.format(24),
        refused.tool_use_id: "File has been modified since read.",
    }
    calls = [first, edit_one, second, edit_two, third, refused, look, ok]
    found = run(calls, texts, outputs=texts)
    assert [s.tool_use_id for s in found[first.tool_use_id].remedy] == [
        edit_one.tool_use_id,
        edit_two.tool_use_id,
    ]
    assert [s.tool_use_id for s in found[second.tool_use_id].remedy] == [edit_two.tool_use_id]
    assert found[third.tool_use_id].remedy == []
    assert {found[c.tool_use_id].confirmed_by for c in (first, second, third)} == {ok.tool_use_id}

    same = {**texts, second.tool_use_id: texts[first.tool_use_id]}
    same[third.tool_use_id] = same[first.tool_use_id]
    found = run(calls, same, outputs=same)
    assert found[first.tool_use_id].remedy == []


def test_the_window_ends_at_the_second_prompt():
    failed = call(command="cargo build", failed=True, at="2026-01-01T00:00:01Z")
    ok = call(command="cargo build", at="2026-01-01T00:00:09Z")
    error = {failed.tool_use_id: "Exit code 101\nerror[E0432]: unresolved import"}
    one = ["2026-01-01T00:00:05Z"]
    two = ["2026-01-01T00:00:05Z", "2026-01-01T00:00:07Z"]
    assert run([failed, ok], error, prompts=one)[failed.tool_use_id].outcome == fixes.FIXED
    # two turns: a prompt, the agent's call, a prompt
    step = call(command="cargo clean", at="2026-01-01T00:00:06Z")
    fix = run([failed, step, ok], error, prompts=two)[failed.tool_use_id]
    assert (fix.outcome, fix.others) == (fixes.NOT_FIXED, [step.tool_use_id])
    other = call(command="cargo build --release", at="2026-01-01T00:00:09Z")
    assert run([failed, other], error, prompts=two)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # the same command run again, nothing done between: fixed outside (see _run_again)
    fix = run([failed, ok], error, prompts=two)[failed.tool_use_id]
    assert (fix.outcome, fix.remedy) == (fixes.FIXED, [])


def test_the_prompts_after_a_call_the_user_stopped_are_one_turn():
    """A Task the user stopped, then "why are you reading zsh settings?" and "respect my Fish
    shell preferences", then the Task again with the user's correction: the prompts before
    the agent's next call were the user's say on the call stopped (fourth held-out set)."""
    failed = call(
        "Task",
        input='{"prompt": "Configure my statusLine from my shell PS1 configuration"}',
        failed=True,
        kind="interrupted",
        at="2026-01-01T00:00:01Z",
    )
    redo = call(
        "Task",
        input='{"prompt": "Configure my statusLine from my Fish shell configuration"}',
        at="2026-01-01T00:00:09Z",
    )
    stopped = {failed.tool_use_id: "[Request interrupted by user for tool use]"}
    two = ["2026-01-01T00:00:05Z", "2026-01-01T00:00:07Z"]
    assert (
        run([failed, redo], stopped, prompts=two)[failed.tool_use_id].confirmed_by
        == redo.tool_use_id
    )
    # a prompt, a call of the agent's, a prompt: the window ends there
    look = call("Read", file_path="/h/.zshrc", at="2026-01-01T00:00:06Z")
    assert (
        run([failed, look, redo], stopped, prompts=two)[failed.tool_use_id].outcome
        == fixes.NOT_FIXED
    )


def test_the_prompts_after_another_call_the_user_rejected_are_one_turn():
    """`git status` outside a repository; a question of what to commit, which the user
    rejected, then "can't it all be committed?" and "use a .gitignore and commit it all";
    then `git init` and `git status --short` (thirty-eighth held-out set, fixed). The
    prompts after the rejected question were the user's say on it, one turn."""
    failed = call(command="git status 2>&1", failed=True, at="2026-01-01T00:00:01Z")
    asked = call("AskUserQuestion", failed=True, kind="rejected", at="2026-01-01T00:00:02Z")
    init = call(command="git init", at="2026-01-01T00:00:09Z")
    status = call(command="git status --short | head -20", at="2026-01-01T00:00:10Z")
    errors = {
        failed.tool_use_id: "Exit code 128\nfatal: not a git repository (or any parent up to"
        " mount point /)",
        asked.tool_use_id: "The user doesn't want to proceed with this tool use.",
    }
    two = ["2026-01-01T00:00:05Z", "2026-01-01T00:00:07Z"]
    fix = run([failed, asked, init, status], errors, prompts=two)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, status.tool_use_id)
    assert [s for s, _ in steps(fix)][0] == init.tool_use_id
    # the question answered, not rejected: the two prompts are two turns
    answered = asked._replace(failed=False, kind=None)
    fix = run([failed, answered, init, status], errors, prompts=two)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_retry_that_failed_again_starts_the_turns_anew():
    """A commit the user rejected, saying what to change, redone and rejected again with
    more to change, then made: each rejected retry was the agent still at it (fourth
    held-out set: the card said nothing that followed succeeded)."""
    failed = call(
        command="git commit -m 'x, signed'", failed=True, at="2026-01-01T00:00:01Z", kind="rejected"
    )
    again = call(
        command="git commit -m 'x'", failed=True, at="2026-01-01T00:00:04Z", kind="rejected"
    )
    ok = call(command="git commit -m 'x.'", at="2026-01-01T00:00:08Z")
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected"
    errors = {failed.tool_use_id: rejected, again.tool_use_id: rejected}
    prompts = ["2026-01-01T00:00:02Z", "2026-01-01T00:00:06Z"]
    fix = run([failed, again, ok], errors, prompts=prompts)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ok.tool_use_id)
    # another command between the turns is no retry: the window closes
    other = call(command="git status", at="2026-01-01T00:00:04Z")
    fix = run([failed, other, ok], errors, prompts=prompts)[failed.tool_use_id]
    assert fix.outcome == fixes.DECLINED


def test_a_subagent_success_does_not_confirm_the_main_threads_failure():
    failed = call(command="npm ci", failed=True)
    theirs = call(command="npm ci", sidechain=True)
    other_agent = call(command="npm ci", agent_id="a1", sidechain=True)
    found = run([failed, theirs, other_agent], {failed.tool_use_id: "Exit code 1\nnpm ERR! x"})
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_steps_the_error_names_come_first():
    failed = call(command="git commit -m 'x'", failed=True)
    edit = call("Edit", file_path="/p/lib/other.ex")
    fmt = call(command="mix format")
    retry = call(command="git commit -m 'x'")
    error = "Pre-commit: Code is not formatted. Run 'mix format' to fix."
    fix = run([failed, edit, fmt, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy] == [fmt.tool_use_id, edit.tool_use_id]


@pytest.mark.parametrize(
    "command, changes",
    [
        ("ls -la src", False),
        ("git status && git diff", False),
        ("pytest -x tests/", False),
        ("mix credo --strict lib/a.ex 2>&1 | tail", False),
        ("npx tsc --noEmit", False),
        ("npm run test", False),
        ("eslint --fix src/", True),
        ("npm run format", True),
        ("pip install requests", True),
        ("mkdir -p build", True),
        ("git pull --rebase", True),
        ("git config --global credential.helper store", True),
        ("bash -c 'mix format'", True),
    ],
)
def test_which_commands_change_state(command, changes):
    assert fixes._changes_state(call(command=command)) is changes


def test_a_tool_without_a_target_retried():
    failed = call("Task", input='{"description": "x"}', failed=True)
    retry = call("Task", input='{"description": "x", "prompt": "find x"}')
    fix = run([failed, retry], {failed.tool_use_id: "InputValidationError: prompt is required"})
    assert fix[failed.tool_use_id].confirmed_by == retry.tool_use_id
    assert steps(fix[failed.tool_use_id]) == [(retry.tool_use_id, "+prompt: find x")]


def test_a_retry_whose_input_its_tool_took_got_past_the_refusal():
    """An AskUserQuestion given one option (`InputValidationError: ... Too small: expected
    array to have >=2 items`), then asked again with two, which the user dismissed: the
    corrected call passed its tool's check, so it confirms the fix, its input the change
    (thirty-eighth held-out set). A retry refused again did not get past it; a later call
    that succeeded confirms it first. A command the user rejected, then let run and failing
    on something else, is no such retry: the "no" may have been to doing it at all
    (thirty-second held-out set, not a problem)."""
    one = '{"questions": [{"question": "Name?", "options": [{"label": "later"}]}]}'
    two = '{"questions": [{"question": "Name?", "options": [{"label": "later"}, {"label": "x"}]}]}'
    failed = call("AskUserQuestion", input=one, failed=True, kind="input_validation")
    retry = call("AskUserQuestion", input=two, failed=True, kind="rejected")
    errors = {
        failed.tool_use_id: '<tool_use_error>InputValidationError: [{"code": "too_small",'
        ' "message": "Too small: expected array to have >=2 items"}]</tool_use_error>',
        retry.tool_use_id: "The user doesn't want to proceed with this tool use. The tool use"
        " was rejected",
    }
    fix = run([failed, retry], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert [s for s, _ in steps(fix)] == [retry.tool_use_id]
    refused = call("AskUserQuestion", input=one, failed=True, kind="input_validation")
    again = {**errors, refused.tool_use_id: errors[failed.tool_use_id]}
    assert run([failed, refused], again)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    asked = call("AskUserQuestion", input=two)
    fix = run([failed, retry, asked], errors)[failed.tool_use_id]
    assert fix.confirmed_by == asked.tool_use_id
    checkout = call(command="git checkout master", failed=True, kind="rejected")
    later = call(command="git checkout master 2>&1", failed=True, kind="error")
    errors = {
        checkout.tool_use_id: "The user doesn't want to take this action right now.",
        later.tool_use_id: "Exit code 1\nerror: Your local changes to the following files would"
        " be overwritten by checkout:\n\tREADME.md",
    }
    assert run([checkout, later], errors)[checkout.tool_use_id].outcome == fixes.DECLINED


REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real" / "projects"
LABELS = Path(__file__).resolve().parent / "data" / "fix_labels.jsonl"


@pytest.fixture(scope="module")
def real_quality(tmp_path_factory):
    if not REAL.is_dir():
        pytest.skip(f"{REAL} not found: the real corpus lives in ../shared beside the checkout")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import fix_quality

    path = tmp_path_factory.mktemp("quality") / "index.db"
    pbuild.build(path, [REAL])
    conn = sqlite3.connect(path)
    try:
        return fix_quality.measure(fix_quality.read_labels(LABELS), fix_quality.cards(conn))
    finally:
        conn.close()


def test_every_label_names_a_real_failure_of_the_corpus(real_quality):
    assert real_quality["labelled"] == len(LABELS.read_text().splitlines())
    assert real_quality["labelled"] >= 60


def test_the_cards_show_the_labelled_remedy(real_quality):
    """Floors a little under what docs/benchmarks.md reports, so that a rule change that
    loses remedies fails here (the figures themselves are measured, not asserted)."""
    assert real_quality["remedy_shown"]["rate"] >= 0.8
    assert real_quality["fix_claimed"]["rate"] >= 0.8
    assert real_quality["abandoned_no_claim"]["rate"] >= 0.9


def test_a_push_that_could_not_authenticate_fixed_by_a_credential_helper():
    failed = call(command="git push origin main", failed=True)
    look = call(command="git remote -v")
    helper = call(command="git config --global credential.helper store")
    retry = call(command="git push origin main")
    error = "fatal: could not read Username for 'https://github.com': No such device or address"
    fix = run([failed, look, helper, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(helper.tool_use_id, None)]


def test_a_later_call_that_only_prints_a_message_claims_nothing():
    failed = call(command="npm test", failed=True)
    note = call(command="echo 'tests fail on CI only, moving on'")
    fix = run([failed, note], {failed.tool_use_id: "Exit code 1\n2 failing"})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_folder_read_as_a_file_then_listed_then_a_file_in_it_read():
    failed = call("Read", file_path="/p/internal/queue", failed=True)
    glob = call("Glob", pattern="internal/queue/*")
    read = call("Read", file_path="/p/internal/queue/queue_test.go")
    fix = run(
        [failed, glob, read], {failed.tool_use_id: "EISDIR: illegal operation on a directory"}
    )
    fix = fix[failed.tool_use_id]
    # the folder listed reached the goal (FIX_VERSION 8; before, the Read of a file in it
    # confirmed, the Glob a step)
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, glob.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [glob.tool_use_id]
    # without a listing, the Read of a file in it
    fix = run([failed, read], {failed.tool_use_id: "EISDIR: illegal operation on a directory"})
    assert fix[failed.tool_use_id].confirmed_by == read.tool_use_id


@pytest.mark.parametrize(
    "command,other,same",
    [
        ("git push", "git push --set-upstream origin main 2>&1", True),
        ("cd /x && npm run build", "npm run build | tail -5", True),
        ("npm run build", "npm run test", False),
        ("git", "git status", False),
        ("make", "make", True),
        ("pytest -x", "pytest", True),
        (None, "ls", False),
    ],
)
def test_the_same_intent(command, other, same):
    assert (fixes._shared_intent(command, other) is not None) is same
    assert (fixes._shared_intent(other, command) is not None) is same


def test_recording_the_work_is_no_remedy_but_for_its_own_programs_failure():
    """A commit, a push or an issue tracker's update between a failure and its passing
    retry records the work; it fixed nothing the check met. For a failed commit, the
    `git add` before it is the remedy."""
    failed = call(command="mix dialyzer", failed=True)
    edit = call("Edit", file_path="/w/lib/a.ex")
    close = call(command='bd close app-3 --reason "done"')
    commit = call(command="git add -A && git commit -m wip")
    retry = call(command="mix dialyzer")
    error = "lib/a.ex:3:no_return Function run/0 has no local return."
    fix = run([failed, edit, close, commit, retry], {failed.tool_use_id: error})
    assert steps(fix[failed.tool_use_id]) == [(edit.tool_use_id, None)]
    # git's own failure: the git add is what changed
    failed = call(command="git commit -m x", failed=True)
    add = call(command="git add lib/a.ex")
    retry = call(command="git commit -m x")
    error = 'nothing added to commit but untracked files present (use "git add" to track)'
    fix = run([failed, add, retry], {failed.tool_use_id: error})
    assert steps(fix[failed.tool_use_id]) == [(add.tool_use_id, None)]


def test_a_search_is_a_step_of_another_way_only_for_a_path_that_was_lost():
    """A missing file found by a search under another name, then read: the search is a step.
    A search that reads a config to understand a lint error is a look, not a remedy."""
    failed = call("Read", file_path="/w/src/util.ts", failed=True)
    search = call("Glob", pattern="**/utils.ts", file_path="/w/src")
    read = call("Read", file_path="/w/src/utils.ts")
    error = "File does not exist."
    fix = run([failed, search, read], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.WORKED_AROUND
    assert (search.tool_use_id, None) in steps(fix)
    failed = call("Edit", file_path="/w/eslint.config.mjs", failed=True)
    grep = call(command='grep -n "no-unused-vars" /w/eslint.config.mjs')
    other = call("Write", file_path="/w/eslint.config.mjs")
    error = "String to replace not found in file.\nString: rules: {}"
    fix = run([failed, grep, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.WORKED_AROUND
    assert grep.tool_use_id not in [s.tool_use_id for s in fix.remedy]


OTHER_AGENTS = REAL.parent / "other-agents"
OTHER_LABELS = LABELS.parent / "fix_labels_other_agents.jsonl"
OUTCOMES = {"fixed", "worked_around", "abandoned", "not_a_problem"}


def read_other_labels():
    return [json.loads(line) for line in OTHER_LABELS.read_text().splitlines()]


def test_the_other_agents_labels_have_the_fields_of_the_claude_labels():
    """Only the format: these labels are a held-out set, so no score is asserted on them."""
    fields = list(json.loads(LABELS.read_text().splitlines()[0]))
    for label in read_other_labels():
        assert list(label) == fields
        assert label["outcome"] in OUTCOMES
        assert (label["retry"] is not None) is (label["outcome"] in ("fixed", "worked_around"))
        if label["retry"] is None:
            assert label["remedy"] == []


def test_each_failure_of_gemini_and_copilot_has_one_label_naming_real_calls(tmp_path):
    if not OTHER_AGENTS.is_dir():
        pytest.skip(f"{OTHER_AGENTS} not found: the real corpus lives in ../shared beside the repo")
    path = tmp_path / "index.db"
    pbuild.build(path, [OTHER_AGENTS])
    conn = sqlite3.connect(path)
    try:
        failed = conn.execute(
            "SELECT r.tool_use_id FROM tool_results r JOIN sessions s USING (session_id)"
            " WHERE r.is_error = 1 AND s.agent IN ('gemini', 'copilot')"
        ).fetchall()
        calls = set(conn.execute("SELECT session_id, tool_use_id FROM tool_calls").fetchall())
        names = dict(conn.execute("SELECT tool_use_id, name FROM tool_calls").fetchall())
    finally:
        conn.close()
    labels = read_other_labels()
    assert sorted(label["tool_use_id"] for label in labels) == sorted(t for (t,) in failed)
    for label in labels:
        assert label["tool"] == names[label["tool_use_id"]]
        for step in label["remedy"] + [label["retry"]] * (label["retry"] is not None):
            assert (label["session_id"], step) in calls, (label["tool_use_id"], step)


@pytest.mark.parametrize(
    "tool, read, error",
    [
        ("Edit", "Read", "<tool_use_error>String to replace not found in file.\nString: x"),
        ("edit", "view", "No match found"),  # Copilot CLI
        ("replace", "read_file", "Failed to edit, 0 occurrences found for old_string in a.ts."),
    ],
)
def test_an_edit_whose_text_was_not_found_is_fixed_by_reading_the_file_again(tool, read, error):
    """The Read that gave the text the file has, then the edit with it: both are steps."""
    kind = signatures.classify(error)
    assert kind == "string_not_found"
    failed = call(tool, file_path="/p/a.ts", failed=True, kind=kind)
    other = call(read, file_path="/p/b.ts")
    again = call(read, file_path="/p/a.ts")
    edit = call(tool, file_path="/p/a.ts")
    fix = run([failed, other, again, edit], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, edit.tool_use_id)
    assert steps(fix) == [
        (again.tool_use_id, None),
        (edit.tool_use_id, "with the text the file has"),
    ]
    # Another failure of an edit (not its text): the edit that applied is no step of its own.
    failed = call(tool, file_path="/p/a.ts", failed=True, kind="error")
    again, edit = call(read, file_path="/p/a.ts"), call(tool, file_path="/p/a.ts")
    fix = run([failed, again, edit], {failed.tool_use_id: "EACCES"})[failed.tool_use_id]
    assert steps(fix) == []


def test_a_patch_whose_context_line_was_not_found_is_fixed_by_the_reworked_patch():
    """Codex's apply_patch `Failed to find context 'def f(' in x.py`, then a look at the file
    and a reworked patch that applied: the patch is the step, with what it changed, as an
    edit's whose text was not found (the card said only "confirmed: apply_patch x.py
    succeeded": thirty-seventh held-out set, labelled the reworked patch; nu44 finding 11)."""
    error = (
        "apply_patch verification failed: Failed to find context 'def crop(' in"
        " D:\\github\\face\\apps/api/preprocess.py"
    )
    kind = signatures.classify(error)
    failed = call("apply_patch", file_path="apps/api/preprocess.py", failed=True, kind=kind)
    look = call("shell_command", command='cmd /c findstr /n "def crop" apps\\api\\preprocess.py')
    patch = call("apply_patch", file_path="apps/api/preprocess.py")
    fix = run([failed, look, patch], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, patch.tool_use_id)
    assert steps(fix) == [(patch.tool_use_id, "with the text the file has")]


def test_a_copilot_edit_says_only_no_match_found_and_that_alone_is_its_kind():
    assert signatures.classify("No match found") == "string_not_found"
    assert signatures.classify("No match found in 3 files\nsrc/a.ts") == signatures.ERROR
    assert (
        signatures.classify(
            "apply_patch verification failed: Failed to find expected lines in /p/a.py:\nx = 1"
        )
        == "string_not_found"
    )


@pytest.mark.parametrize(
    "before, after, change",
    [
        # Gemini CLI's dir_path, Codex's workdir: the tool's own folder argument
        ({"command": "npm run build"}, {"command": "npm run build", "workdir": "app"}, "in app"),
        (
            {"command": "npm run build", "workdir": "/p"},
            {"command": "npm run build", "workdir": "/p/app"},
            "in /p/app",
        ),
        # a cd of the command itself
        ({"command": "npm run build"}, {"command": "cd app && npm run build"}, "in app"),
        ({"command": "cd app && npm test"}, {"command": "npm test"}, "not in app"),
    ],
)
def test_a_retry_in_another_folder_is_a_changed_retry(before, after, change):
    failed = call(failed=True, **before)
    retry = call(**after)
    error = "npm error enoent Could not read package.json"
    fix = run([failed, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(retry.tool_use_id, change)]


def test_the_same_folder_is_no_change():
    failed = call(command="npm test", workdir="/p", failed=True)
    retry = call(command="npm test", workdir="/p")
    fix = run([failed, retry], {failed.tool_use_id: "Error: flaky"})[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED and steps(fix) == []


@pytest.mark.parametrize(
    "before, after, change",
    [
        # a Codex session of set 32 (nu47 finding 4): shown `(changed: in /p)`, as if going
        # into the folder had got past `pytest: command not found`
        (
            {"command": "pytest --version"},
            {"command": "cd /p && python3 -m unittest discover -s tests/unit"},
            "pytest → python3 -m unittest discover; in /p",
        ),
        (
            {"command": "pytest -q", "workdir": "/p"},
            {"command": "python3 -m unittest", "workdir": "/p/lib"},
            "pytest → python3 -m unittest; in /p/lib",
        ),
        # outside the sandbox too
        (
            {"command": "pytest -q"},
            {"command": "python3 -m unittest", "escalated": True},
            f"{fixes.ESCALATED}; pytest → python3 -m unittest",
        ),
        # the same program in another folder: the folder, then the words it changed (the
        # folder alone: test_a_retry_in_another_folder_is_a_changed_retry)
        (
            {"command": "python app.py"},
            {"command": "cd /p && python3 app.py"},
            "in /p; -python +python3",
        ),
    ],
)
def test_a_retry_of_another_program_in_another_folder_names_the_program_first(
    before, after, change
):
    failed = call("exec_command", failed=True, **before)
    retry = call("exec_command", **after)
    program = before["command"].split()[0]
    error = f"Exit code 127\n/bin/bash: {program}: command not found"
    fix = run([failed, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert steps(fix) == [(retry.tool_use_id, change)]


def test_the_folder_argument_of_a_stored_shell_call_reaches_the_rules(tmp_path):
    """refresh_fixes reads dir_path (Gemini CLI) and workdir (Codex) from a call's input."""
    conn = db.connect(tmp_path / "index.db")
    calls = [
        ("c1", "2026-01-01T00:00:01Z", {"command": "npm run build"}, 1, "npm error enoent x"),
        ("c2", "2026-01-01T00:00:02Z", {"command": "npm run build", "dir_path": "app"}, 0, "ok"),
        ("c3", "2026-01-01T00:00:03Z", {"cmd": "make", "workdir": "/p"}, 1, "make: *** Error 2"),
        ("c4", "2026-01-01T00:00:04Z", {"cmd": "make", "workdir": "/p/lib"}, 0, "done"),
    ]
    for n, (tool_use_id, at, tool_input, error, content) in enumerate(calls):
        command = tool_input.get("command") or tool_input.get("cmd")
        conn.execute(
            "INSERT INTO tool_calls (tool_use_id, session_id, line_no, timestamp, name, command,"
            " input) VALUES (?, 's', ?, ?, 'run_shell_command', ?, ?)",
            [tool_use_id, n, at, command, json.dumps(tool_input)],
        )
        conn.execute(
            "INSERT INTO tool_results (tool_use_id, session_id, line_no, timestamp, is_error,"
            " content, kind) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n, at, error, content, signatures.ERROR if error else None],
        )
    db.refresh_fixes(conn)
    found = {
        row[0]: (row[1], [step["change"] for step in json.loads(row[2])])
        for row in conn.execute("SELECT tool_use_id, confirmed_by, remedy FROM fixes")
    }
    assert found == {"c1": ("c2", ["in app"]), "c3": ("c4", ["in /p/lib"])}


def test_a_file_too_large_read_in_parts_is_a_changed_retry():
    error = "File content (806.5KB) exceeds maximum allowed size (256KB)."
    failed = call("Read", file_path="/p/app.js", failed=True)
    retry = call("Read", file_path="/p/app.js", part="limit 50")
    fix = run([failed, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(retry.tool_use_id, "read limit 50")]


def test_the_part_a_stored_read_asked_for_reaches_the_rules(tmp_path):
    """refresh_fixes reads each agent's arguments for a part of a file (offset, limit,
    Copilot CLI's view_range) from a read call's input."""
    conn = db.connect(tmp_path / "index.db")
    error = "File content (85812 tokens) exceeds maximum allowed tokens (25000)."
    calls = [
        ("r1", "Read", {"file_path": "/p/a.jsonl"}, 1, error),
        ("r2", "Read", {"file_path": "/p/a.jsonl", "offset": 10, "limit": 5}, 0, "1→{}"),
        ("v1", "view", {"path": "/p/b.rs"}, 1, "File too large"),
        ("v2", "view", {"path": "/p/b.rs", "view_range": [1, 40]}, 0, "fn main() {}"),
    ]
    for n, (tool_use_id, name, tool_input, failed, content) in enumerate(calls):
        path = tool_input.get("file_path") or tool_input.get("path")
        conn.execute(
            "INSERT INTO tool_calls (tool_use_id, session_id, line_no, timestamp, name, file_path,"
            " input) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n, f"2026-01-01T00:00:0{n}Z", name, path, json.dumps(tool_input)],
        )
        conn.execute(
            "INSERT INTO tool_results (tool_use_id, session_id, line_no, timestamp, is_error,"
            " content, kind) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n, f"2026-01-01T00:00:0{n}Z", failed, content, "error"],
        )
    db.refresh_fixes(conn)
    found = {
        row[0]: (row[1], [step["change"] for step in json.loads(row[2])])
        for row in conn.execute("SELECT tool_use_id, confirmed_by, remedy FROM fixes")
    }
    assert found == {
        "r1": ("r2", ["read offset 10 limit 5"]),
        "v1": ("v2", ["read view_range [1, 40]"]),
    }


def test_windows_paths_have_folders_and_file_names_too():
    """Gemini CLI and Copilot CLI on Windows name files C:\\Users\\...: the same file name in
    another folder, and a file in a folder read as a file, are found as with POSIX paths."""
    error = "File path must be within one of the workspace directories: C:\\Users\\me\\dev\\app"
    failed = call("write_file", file_path="C:\\Users\\me\\.gemini\\tmp\\ab12\\msg.txt", failed=True)
    other = call("write_file", file_path="C:\\Users\\me\\dev\\app\\.gemini\\tmp\\msg.txt")
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    # (the same write to the path allowed: fixed, as fix_labels_other_agents.jsonl says)
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, other.tool_use_id)
    assert steps(fix) == [
        (other.tool_use_id, ".gemini/tmp/ab12/msg.txt → dev/app/.gemini/tmp/msg.txt")
    ]
    folder = call("view", file_path="D:\\Source\\app\\src", failed=True)
    inside = call("view", file_path="D:\\Source\\app\\src\\main.rs")
    fix = run([folder, inside], {folder.tool_use_id: "EISDIR: illegal operation"})
    assert fix[folder.tool_use_id].confirmed_by == inside.tool_use_id


def test_a_change_says_what_the_retry_ran_before_it_and_after_it():
    change = fixes.command_change(
        "git add a.ex b.ex", "git add a.ex c.ex && git commit -m 'feat: x y'"
    )
    assert change == "-b.ex +c.ex; then git commit -m"
    assert fixes.command_change("npm run build", "mkdir -p dist && npm run build") == (
        "first mkdir -p dist"
    )


def test_an_empty_word_taken_out_is_shown_as_such():
    """`gemini -p ""` then `gemini -p " "`: the change read `changed: -` (a new user's
    try, session 27)."""
    assert fixes.command_change('gemini -p "" 2>&1', 'gemini -p " " 2>&1') == '-""'


def test_a_long_change_is_cut_at_a_word():
    failed = "git add " + " ".join(f"lib/spotter/services/module_{n}.ex" for n in range(12))
    change = fixes.command_change(
        failed, "git add lib/spotter/services/module_0.ex lib/other.ex && git commit -m x"
    )
    assert len(change) <= fixes.CHANGE_CHARS + 2 and change.endswith(" …")
    assert not change[:-2].endswith("-")


def test_a_file_read_whole_that_was_too_large_is_not_worked_around_by_its_namesake():
    """The same file name in another folder is what was meant when the path was wrong (a
    file that does not exist); a file too large, binary or not read yet was the right one,
    and a Read of another aisuite.go (models/ beside controller/) reached nothing."""
    error = "File content (10847 tokens) exceeds maximum allowed tokens (10000)."
    failed = call("Read", file_path="/p/pkg/controller/aisuite.go", failed=True)
    namesake = call("Read", file_path="/p/pkg/models/aisuite.go")
    part = call("Read", file_path="/p/pkg/controller/aisuite.go", part="limit 150")
    fix = run([failed, namesake, part], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, part.tool_use_id)
    for error, kind in [
        ("This tool cannot read binary files. The file appears to be a binary .xlsx file.", None),
        ("File has not been read yet. Read it first before writing to it.", "not_read"),
    ]:
        failed = call("Edit", file_path="/p/a/book.xlsx", failed=True, kind=kind)
        namesake = call("Edit", file_path="/p/b/book.xlsx")
        fix = run([failed, namesake], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED
    failed = call("Read", file_path="/p/src/config.yaml", failed=True)
    namesake = call("Read", file_path="/p/conf/config.yaml")
    fix = run([failed, namesake], {failed.tool_use_id: "File does not exist."})
    assert fix[failed.tool_use_id].confirmed_by == namesake.tool_use_id


def test_a_search_that_found_a_missing_file_is_a_step_and_the_read_there_confirms():
    """`find -name x` after a Read of x failed is the search that found it, not the file read
    another way: the Read at the found path confirms, with the search as a step. Listing a
    folder that was read as a file still reaches that goal itself."""
    failed = call("Read", file_path="/w/spec/system/flow_spec.rb", failed=True)
    find = call(command='find . -name "flow_spec.rb" -type f')
    read = call("Read", file_path="/w/api/spec/system/flow_spec.rb")
    error = "<tool_use_error>File does not exist.</tool_use_error>"
    fix = run([failed, find, read], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, read.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [find.tool_use_id, read.tool_use_id]
    # a look of its folder that printed only what its `|| echo` says found nothing: no step
    # (thirty-second held-out set: `ls -la /p/.planning 2>/dev/null || echo "NO_PLANNING_DIR"`)
    look = call(command='ls -la /w/spec/system 2>/dev/null || echo "NO_SYSTEM_DIR"')
    fix = run(
        [failed, look, find, read],
        {failed.tool_use_id: error},
        {look.tool_use_id: "NO_SYSTEM_DIR\n"},
    )
    assert [s.tool_use_id for s in fix[failed.tool_use_id].remedy] == [
        find.tool_use_id,
        read.tool_use_id,
    ]


def test_a_glob_of_everything_under_the_folder_is_no_step_of_the_same_name_read_elsewhere():
    """A Read of CLAUDE.md at a Windows vault's root, not there; `**/CLAUDE*` globbed in the
    vault, then the Read of `__LOCAL-REPO\\CLAUDE.md`: the Read alone (thirty-second
    held-out set), as for a `**` below the folder."""
    failed = call("Read", file_path="D:\\vault\\CLAUDE.md", failed=True)
    glob = call("Glob", pattern="**/CLAUDE*", file_path="D:\\vault")
    read = call("Read", file_path="D:\\vault\\__LOCAL-REPO\\CLAUDE.md")
    error = {failed.tool_use_id: "<tool_use_error>File does not exist.</tool_use_error>"}
    fix = run([failed, glob, read], error)[failed.tool_use_id]
    assert (fix.outcome, [s.tool_use_id for s in fix.remedy]) == (
        fixes.FIXED,
        [read.tool_use_id],
    )


def test_a_glob_by_the_name_is_no_step_of_the_same_name_read_elsewhere():
    """A Read of INVESTIGATION_REPORT.md at the repository's root, not there; a Glob of
    `**/INVESTIGATION_REPORT.md` found it in claude-instance/, then read: the Read alone
    (thirty-seventh held-out set, 2), as for a `**` over the folder. A Glob that found a
    file of another name read then is a step."""
    failed = call("Read", file_path="/p/INVESTIGATION_REPORT.md", failed=True)
    glob = call("Glob", pattern="**/INVESTIGATION_REPORT.md")
    read = call("Read", file_path="/p/claude-instance/INVESTIGATION_REPORT.md")
    error = {failed.tool_use_id: "<tool_use_error>File does not exist.</tool_use_error>"}
    outputs = {glob.tool_use_id: "/p/claude-instance/INVESTIGATION_REPORT.md"}
    fix = run([failed, glob, read], error, outputs)[failed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy] == [read.tool_use_id]


def test_a_search_tool_that_failed_is_worked_around_by_the_same_search_in_the_shell():
    """Claude Code's Glob and Grep run its bundled ripgrep; when that cannot run (`spawn
    .../rg EACCES`), the agent searches with find or grep: the same search, another way.
    A shell search for something else reaches nothing."""
    error = "spawn /opt/homebrew/lib/node_modules/@anthropic-ai/claude-code/vendor/rg EACCES"
    glob = call("Glob", pattern="**/*aisuite*", failed=True)
    other = call(command='grep -rn "harbor" /p/pkg')
    find = call(command='find /p -type f -name "*aisuite*" | head -60')
    grep = call("Grep", pattern="AISuiteCatalog", file_path="/p/pkg/db", failed=True)
    bash_grep = call(command="grep -rn 'AISuiteCatalog' /p/pkg/db/")
    errors = {glob.tool_use_id: error, grep.tool_use_id: error}
    found = run([glob, other, find, grep, bash_grep], errors)
    assert found[glob.tool_use_id].confirmed_by == find.tool_use_id
    assert found[glob.tool_use_id].outcome == fixes.WORKED_AROUND
    assert found[grep.tool_use_id].confirmed_by == bash_grep.tool_use_id
    # a pattern with a space, quoted, is read too (thirty-second held-out set: `No such tool
    # available: Grep`, then `grep -n "function bundleFileTree\\|..." public/app.js`)
    error = "<tool_use_error>Error: No such tool available: Grep</tool_use_error>"
    grep = call("Grep", pattern="function bundleFileTree", file_path="/p/app.js", failed=True)
    bash_grep = call(command='cd /p && grep -n "function bundleFileTree\\|file-tabs" app.js')
    found = run([grep, bash_grep], {grep.tool_use_id: error})
    assert found[grep.tool_use_id].confirmed_by == bash_grep.tool_use_id


def test_a_file_too_large_to_read_whole_searched_with_grep_instead():
    """What Claude Code's message advises ("search for specific content instead"): a Grep of
    the same file reaches the goal; a Grep elsewhere does not."""
    error = "File content (21901 tokens) exceeds maximum allowed tokens (10000)."
    failed = call("Read", file_path="/s/tool-results/t1.txt", failed=True)
    elsewhere = call("Grep", pattern="session", file_path="/s/tool-results/t2.txt")
    grep = call("Grep", pattern="session|JSONL", file_path="/s/tool-results/t1.txt")
    fix = run([failed, elsewhere, grep], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)


def test_edits_of_other_files_are_no_remedy_for_an_edit_refused_as_not_read():
    """Ten parallel Edits refused ('not read yet'), each file read, the ten Edits again: the
    Read of its own file is each one's remedy, not the other files' edits made before its
    own retry."""
    paths = [f"/k/{env}/auth.yaml" for env in ("dev", "prod", "exp")]
    error = "File has not been read yet. Read it first before writing to it."
    failed = [call("Edit", file_path=p, failed=True, kind="not_read") for p in paths]
    reads = [call("Read", file_path=p) for p in paths]
    retries = [call("Edit", file_path=p) for p in paths]
    found = run([*failed, *reads, *retries], {f.tool_use_id: error for f in failed})
    for f, read, retry in zip(failed, reads, retries, strict=True):
        fix = found[f.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
        assert [s.tool_use_id for s in fix.remedy] == [read.tool_use_id]


def test_only_the_first_read_of_a_file_refused_as_not_read_is_its_remedy():
    """An Edit of a file just moved (so not read yet), then a Read of its end, a Grep, a
    Read of another part and the edit that applied: the first Read made it read, the one
    after was for the edit's text (thirty-second held-out set, the card showed both)."""
    path = "/v/00-meta/memory-system/quickstart.md"
    error = "File has not been read yet. Read it first before writing to it."
    failed = call("Edit", file_path=path, failed=True, kind="not_read")
    first = call("Read", file_path=path, part="offset 345")
    grep = call("Grep", pattern="00-meta/session-memory", file_path="/v/00-meta/memory-system")
    again = call("Read", file_path=path, part="offset 30 limit 10")
    edit = call("Edit", file_path=path)
    fix = run([failed, first, grep, again, edit], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, edit.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [first.tool_use_id]


def test_a_binary_file_the_read_tool_refused_read_by_a_script_in_the_shell():
    """Read cannot read an .xlsx; a python -c script that opens it (its path inside the
    script's quotes) reaches the goal. A listing of the file only looks at it."""
    error = (
        "<tool_use_error>This tool cannot read binary files. The file appears to be a binary"
        " .xlsx file. Please use appropriate tools for binary file analysis.</tool_use_error>"
    )
    failed = call("Read", file_path="/home/d/finance/book.xlsx", failed=True)
    ls = call(command="ls -la /home/d/finance/book.xlsx")
    script = call(
        command='python3 -c "import openpyxl\nwb = openpyxl.load_workbook('
        "'/home/d/finance/book.xlsx')\nprint(wb.sheetnames)\""
    )
    fix = run([failed, ls, script], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, script.tool_use_id)


def _fix_of_stored(tmp_path, name, input_, calls, prompts):
    """The outcome and confirmation refresh_fixes stores for the first of `calls` (id, time,
    failed, output, and optionally its own input), each a call of tool `name` with `input_`
    unless it has its own, in one session whose user messages are `prompts` (time, kind,
    text)."""
    conn = db.connect(tmp_path / "index.db")
    for n, (tool_use_id, at, error, content, *own) in enumerate(calls):
        this = own[0] if own else input_
        conn.execute(
            "INSERT INTO tool_calls (tool_use_id, session_id, line_no, timestamp, name, input,"
            " command) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n * 4, at, name, json.dumps(this), this.get("command")],
        )
        conn.execute(
            "INSERT INTO tool_results (tool_use_id, session_id, line_no, timestamp, is_error,"
            " content, kind) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n * 4, at, error, content, error and signatures.classify(content)],
        )
    for n, (at, kind, text) in enumerate(prompts):
        conn.execute(
            "INSERT INTO messages (uuid, session_id, line_no, type, kind, timestamp, text,"
            " is_meta, is_sidechain) VALUES (?, 's', ?, 'user', ?, ?, ?, 0, 0)",
            [f"m{n}", n + 2, kind, at, text],
        )
    db.refresh_fixes(conn)
    return conn.execute(
        "SELECT outcome, confirmed_by FROM fixes WHERE tool_use_id = ?", [calls[0][0]]
    ).fetchone()


@pytest.mark.parametrize("prompts", [1, 2])
@pytest.mark.parametrize("stamp", [None, "", "1970-01-01T00:00:00Z", "9:41 am"])
def test_a_session_without_times_is_read_in_the_order_of_its_lines(tmp_path, prompts, stamp):
    """A failure, the user's prompts, then a retry that passed, stored without times (no
    timestamp, `""`, the epoch, text that is none): the calls were read from the first
    failure's time on, which a NULL is not, and the rules' windows compared times, so such
    a session lost every fix (a new user's try, nu48 finding 1). Read by the order of its
    lines, its fix is the one its times give: fixed across one prompt, not across two
    (PROMPTS_CROSSED), the prompts placed among the calls by their lines too."""
    found = []
    for timed in (True, False):
        conn = db.connect(tmp_path / f"{timed}.db")
        calls = [("c1", "npm test", "Exit code 1\nError: Cannot find module 'jest'", 1)]
        calls += [("c2", "npm install -D jest", "added 1 package", 0)]
        calls += [("c3", "npm test", "1 passed", 0)]
        lines = [1, 4 + 2 * prompts, 6 + 2 * prompts]
        for (tool_use_id, command, content, error), line in zip(calls, lines, strict=True):
            at = f"2026-01-01T00:00:{line:02d}Z" if timed else stamp
            for table, column in (("tool_calls", "name, command"), ("tool_results", "is_error")):
                values = ["Bash", command] if table == "tool_calls" else [error]
                conn.execute(
                    f"INSERT INTO {table} (tool_use_id, session_id, file_id, line_no, timestamp,"
                    f" {column}{', content' * (table == 'tool_results')}) VALUES"
                    f" (?, 's', 1, ?, ?, ?{', ?' * (len(values) - 1)}"
                    f"{', ?' * (table == 'tool_results')})",
                    [tool_use_id, line + (table == "tool_results"), at, *values]
                    + ([content] if table == "tool_results" else []),
                )
        for n in range(prompts):
            at = f"2026-01-01T00:00:{4 + 2 * n:02d}Z" if timed else stamp
            conn.execute(
                "INSERT INTO messages (uuid, session_id, file_id, line_no, type, kind, timestamp,"
                " text, is_meta, is_sidechain) VALUES (?, 's', 1, ?, 'user', 'prompt', ?, ?, 0, 0)",
                [f"m{n}", 4 + 2 * n, at, f"try something else {n}"],
            )
        db.refresh_fixes(conn)
        found.append(conn.execute("SELECT outcome, confirmed_by, remedy FROM fixes").fetchall())
    outcome = {1: (fixes.FIXED, "c3"), 2: (fixes.NOT_FIXED, None)}[prompts]
    assert [row[:2] for row in found[0]] == [outcome]
    assert found[1] == found[0]


def test_an_interruption_is_no_prompt_the_window_counts(tmp_path):
    """Claude Code writes `[Request interrupted by user for tool use]` as a user message
    after a rejected call: the user typed only the `continue` that follows. Counted as a
    prompt, the two closed the window before the call was redone (held out: a rejected
    new_page, then `continue`; a rejected Write, then the user's correction)."""
    calls = [
        ("c1", "2026-01-01T00:00:01Z", 1, "The user doesn't want to proceed with this tool use."),
        ("c2", "2026-01-01T00:00:09Z", 0, "# new_page response"),
    ]
    prompts = [
        ("2026-01-01T00:00:02Z", "prompt", "[Request interrupted by user for tool use]"),
        ("2026-01-01T00:00:05Z", "prompt", "continue"),
    ]
    found = _fix_of_stored(
        tmp_path, "mcp__chrome-devtools__new_page", {"url": "http://x"}, calls, prompts
    )
    assert found == (fixes.FIXED, "c2")


def test_a_reply_that_only_agrees_is_no_prompt_the_window_counts(tmp_path):
    """The agent asked "Want me to add it?", the user asked why, then said "yes go ahead":
    the agreement is no new turn, so the test run after the dependency was added is in the
    failed run's window (twenty-fifth held-out set, a new user's try). A reply that says
    what to do next is a prompt: after it, the run is another task's (the agent began that
    test first; run again with nothing done between, see
    test_a_command_run_again_as_it_was_past_the_prompts_is_fixed)."""
    calls = [
        ("c1", "2026-01-01T00:00:01Z", 1, "Exit code 2\nRuntimeError: requires httpx"),
        ("c2", "2026-01-01T00:00:09Z", 0, "1 passed"),
    ]
    prompts = [
        ("2026-01-01T00:00:03Z", "prompt", "why do I need httpx?"),
        ("2026-01-01T00:00:05Z", "prompt", "Yes, go ahead.\n"),
    ]
    command = {"command": "uv run pytest tests/test_api.py"}
    assert _fix_of_stored(tmp_path, "Bash", command, calls, prompts) == (fixes.FIXED, "c2")
    prompts[1] = ("2026-01-01T00:00:05Z", "prompt", "now add a test for the login page")
    calls.insert(1, ("c3", "2026-01-01T00:00:07Z", 0, "", {"command": "mkdir -p tests/login"}))
    (tmp_path / "other").mkdir()
    found = _fix_of_stored(tmp_path / "other", "Bash", command, calls, prompts)
    assert found[0] == fixes.NOT_FIXED


def test_a_page_not_found_is_not_worked_around_by_another_sites_page():
    """WebFetch has no file or command, but it has a page: a fetch of another site does
    not reach its goal (held out: a 404 of the user's GitHub repository, then the Home
    Manager manual, was 'worked around')."""
    failed = call("WebFetch", url="https://github.com/me/dotfiles", failed=True)
    other = call("WebFetch", url="https://nix-community.github.io/home-manager/index.xhtml")
    error = {failed.tool_use_id: "Request failed with status code 404"}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    same_site = call("WebFetch", url="https://github.com/me/dotfiles/blob/main/README.md")
    fix = run([failed, same_site], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, same_site.tool_use_id)


def test_a_search_that_found_nothing_is_not_fixed_by_another_search():
    """`rg` exits 1 when nothing matches: a later search for something else shares its
    folder and glob but is another question (held out: a Codex session's `rg` for a module
    that does not exist was 'fixed' by a search for other names; Claude Code 1.0's `find |
    xargs grep` that matched nothing, by a find of other names in the same folder)."""
    failed = call(command="rg -n 'defmodule .*CreateCustomer' lib -g '*.ex'", failed=True)
    other = call(command="rg -n 'defmodule .*Create|create_customer' lib -g '*.ex'")
    error = {failed.tool_use_id: "Exit code 1"}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    # the same search after an edit that added what it looks for: that edit fixed it
    edit = call("Edit", file_path="/p/lib/customers.ex")
    again = call(command="rg -n 'defmodule .*CreateCustomer' lib -g '*.ex'")
    printed = {again.tool_use_id: "lib/customers.ex:1:defmodule App.CreateCustomer do"}
    fix = run([failed, other, edit, again], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (
        fixes.FIXED,
        again.tool_use_id,
        [(edit.tool_use_id, None)],
    )
    # a search that failed on its pattern (not one that found nothing) is fixed by the
    # search with a pattern rg accepts
    bad = call(command=r"rg -n 'a\nb|c' lib -g '*.ex'", failed=True)
    good = call(command="rg -n 'b|c' lib -g '*.ex'")
    regex = {bad.tool_use_id: 'Exit code 2\nrg: the literal "\\n" is not allowed in a regex'}
    assert run([bad, good], regex)[bad.tool_use_id].outcome == fixes.FIXED


def test_a_tool_called_again_with_the_same_input_is_no_change():
    """A tool without a file or command called again as it was (the user stopped an MCP
    call, then said `continue`) is a retry without a change: the card said 'called again
    with other input' of the same url (held out)."""
    page = '{"url": "http://localhost:8081/pdp/"}'
    failed = call("mcp__chrome__new_page", input=page, failed=True)
    retry = call("mcp__chrome__new_page", input=page)
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    fix = run([failed, retry], rejected)[failed.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (retry.tool_use_id, [])
    other = call("mcp__chrome__new_page", input='{"url": "http://localhost:8081/other/"}')
    fix = run([failed, other], rejected)[failed.tool_use_id]
    assert steps(fix) == [(other.tool_use_id, "url: http://localhost:8081/other/")]


def test_the_lines_of_a_script_are_commands_of_their_own():
    """A newline ends a command (the tokenizer let the blank before it eat it, so a loop's
    body was one command: `continue base= ${f%.*} sips ...`), a backslash at the end of a
    line continues it, and `do`, `done`, a quoted value after `x=` are no programs: the card
    showed `then do base= ${f%.*} magick ...` for a loop run with another program (held
    out)."""
    failed = 'for f in /d/*.png /d/*.jpg; do\n  [ -f "$f" ] || continue\n  base="${f%.*}"\n'
    failed += '  sips -z 572 943 "$f" --out "${base}.webp"\ndone'
    retry = (
        'for f in /d/*.png; do\n  base="${f%.*}"\n  magick "$f" -resize 943x572! "${base}.webp"\n'
    )
    retry += "done"
    assert [i.program for i in fixes.intents(failed)] == ["for", "[", "sips"]
    assert fixes.command_change(failed, retry) == (
        "-/d/*.jpg; then magick $f -resize 943x572! ${base}.webp"
    )
    assert [i.words for i in fixes.intents("docker run \\\n  -v a:b img\nls")] == [
        ("docker", "run", "-v", "a:b", "img"),
        ("ls",),
    ]


ROLLOUT = "0195a1b2-c3d4-7e5f-8a6b-00000000f100"


def _codex_rollout(path: Path, items: list[tuple[str, str, str]]) -> None:
    """A Codex rollout of (call id, tool, arguments or output) items: a call, then its output."""
    lines = [{"type": "session_meta", "payload": {"id": ROLLOUT}}]
    for n, (call_id, name, text) in enumerate(items):
        at = f"2026-12-01T10:00:{n:02d}.000Z"
        if name == "output":
            payload = {"type": "function_call_output", "call_id": call_id, "output": text}
        else:
            payload = {"type": "function_call", "name": name, "arguments": text, "call_id": call_id}
        lines.append({"timestamp": at, "type": "response_item", "payload": payload})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_codex_command_still_running_confirms_nothing(tmp_path):
    """exec_command returns after yield_time_ms with `Process running with session ID N`;
    how the command ends, the write_stdin that polls it says. The running build confirmed
    the fix of the failed one before its own poll failed with the same error (held out,
    session 9: a tsc build and a Rust check, 2 people's rollouts). The exec_command whose
    poll saw it pass is the retry."""
    build = json.dumps({"cmd": "npm run build", "yield_time_ms": 1000})

    def poll(n):
        return json.dumps({"session_id": n, "chars": "", "yield_time_ms": 1000})

    error = "Process exited with code 1\nOutput:\nsrc/App.tsx(89,62): error TS2339: Property 'id'"
    patch = "*** Begin Patch\n*** Update File: src/App.tsx\n@@\n-a\n+b\n*** End Patch\n"
    _codex_rollout(
        tmp_path / "sessions/2026/12/01" / f"rollout-2026-12-01T10-00-00-{ROLLOUT}.jsonl",
        [
            ("c1", "exec_command", build),
            ("c1", "output", error),
            ("c2", "exec_command", build),
            (
                "c2",
                "output",
                "Process running with session ID 7\nOutput:\n> tsc -b && vite build\n",
            ),
            ("c3", "write_stdin", poll(7)),
            ("c3", "output", error),
            ("c4", "apply_patch", json.dumps({"input": patch})),
            ("c4", "output", "Success. Updated the following files:\nM src/App.tsx\n"),
            ("c5", "exec_command", build),
            (
                "c5",
                "output",
                "Process running with session ID 8\nOutput:\n> tsc -b && vite build\n",
            ),
            ("c6", "write_stdin", poll(8)),
            ("c6", "output", "Process exited with code 0\nOutput:\nbuilt in 2.1s\n"),
        ],
    )
    pbuild.build(tmp_path / "index.db", [tmp_path / "sessions"])
    conn = sqlite3.connect(tmp_path / "index.db")
    kinds = dict(conn.execute("SELECT tool_use_id, kind FROM tool_results WHERE is_error = 0"))
    assert kinds == {"c2": "running", "c4": None, "c5": "running", "c6": None}
    found = {
        row[0]: row[1:]
        for row in conn.execute("SELECT tool_use_id, outcome, confirmed_by, remedy FROM fixes")
    }
    outcome, confirmed_by, remedy = found["c1"]
    assert (outcome, confirmed_by) == (fixes.FIXED, "c5")
    assert [s["tool_use_id"] for s in json.loads(remedy)] == ["c4"]


@pytest.mark.parametrize(
    "command, looks",
    [
        ("conda env list", True),
        ("conda env list 2>/dev/null; ls /p/models/", True),
        ("docker compose ps", True),
        ("docker compose logs web", True),
        ("uv pip list", True),
        ("conda env create -f environment.yml", False),
        ("docker compose up -d", False),
        ("uv pip install opencv-python", False),
        ("conda install numpy", False),
    ],
)
def test_a_groups_verb_that_looks_is_a_look(command, looks):
    """`conda env list; ls models/` was the first step of a `No module named 'cv2'` fix
    whose remedy is the run in the env (a new user's try, session 35; thirty-fourth
    held-out set): a subcommand that groups others (`env`, `compose`, `pip`) looks when
    its verb does."""
    steps = [c.command for c in fixes.next_steps([call(command=command)])]
    assert steps == ([] if looks else [command])


@pytest.mark.parametrize(
    "command, looks",
    [
        ("jar tf /c/cache/minecraft-merged.jar | grep item/SwordItem", True),
        ("jar -tf app.jar", True),
        ("tar -tzf dist.tgz | head", True),
        ("tar tf dist.tar", True),
        ("unzip -l build.zip", True),
        ("javap -p /tmp/mc/net/minecraft/item/Item$Settings.class | head -60", True),
        ("nm -D libfoo.so | grep init", True),
        ("ldd ./bin/app", True),
        ("jar xf minecraft-merged.jar net/minecraft/item", False),
        ("tar -xzf dist.tgz", False),
        ("unzip build.zip -d out", False),
    ],
)
def test_a_look_into_an_archive_or_a_binary_is_a_look(command, looks):
    """Six `jar tf` lists of a game's classes and a `javap` were the steps of a compile
    error's fix whose remedy was one edit (thirty-sixth held-out set): what an archive or
    a binary holds is looked at, not changed; extracting it is a step."""
    steps = [c.command for c in fixes.next_steps([call(command=command)])]
    assert steps == ([] if looks else [command])


def test_a_run_that_made_the_missing_file_looked_at_again_is_its_step():
    """`cat dist/RELEASE_NOTES.md`: not there; `python3 scripts/generate_release_docs.py`
    printed nothing and the same cat then showed the notes (thirty-sixth held-out set): the
    script made the file, though a python run is most often a check. A look at another path
    is told by what names it (twentieth held-out set): there the run is no step."""
    error = "Exit code 1\ncat: dist/RELEASE_NOTES.md: No such file or directory"
    missing = call("shell", command="cat dist/RELEASE_NOTES.md", failed=True)
    generate = call("shell", command="python3 scripts/generate_release_docs.py --tag v0.0.0")
    again = call("shell", command="cat dist/RELEASE_NOTES.md")
    fix = run([missing, generate, again], {missing.tool_use_id: error})[missing.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (again.tool_use_id, [(generate.tool_use_id, None)])
    elsewhere = call("shell", command="cat docs/RELEASE_NOTES.md")
    fix = run([missing, generate, elsewhere], {missing.tool_use_id: error})[missing.tool_use_id]
    assert fix.confirmed_by == elsewhere.tool_use_id
    assert [step for step, _ in steps(fix)] == [elsewhere.tool_use_id]  # (the path changed)


def test_sed_that_only_prints_is_a_look():
    """Codex reads files with `sed -n '1,200p' x` and `nl -ba x | sed -n ...` (every rollout
    of the third held-out set): no remedy step. `sed -i` and a script that writes are."""
    failed = call(command="npm run build", failed=True)
    looks = [
        call(command="sed -n '1,200p' src/App.tsx"),
        call(command="nl -ba src/a.ts | sed -n '1,40p'"),
    ]
    edits = [
        call(command="sed -i 's/foo/bar/' src/App.tsx"),
        call(command="sed 's/a/b/w out.txt' x"),
    ]
    retry = call(command="npm run build")
    error = "Exit code 1\nsrc/App.tsx(3,1): error TS2304: Cannot find name 'foo'."
    fix = run([failed, *looks, *edits, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [e.tool_use_id for e in edits]


def test_a_python_script_that_writes_a_file_is_a_remedy_step():
    """A python run checks (a test script), unless its code writes a file: a CRLF script
    converted by `python3 - <<'PY' ... write_bytes(...)`, then run again (held out)."""
    failed = call(command=".specify/scripts/bash/check.sh --json", failed=True)
    check = call(
        command="python3 - <<'PY'\nprint(open('.specify/scripts/bash/check.sh').read())\nPY"
    )
    convert = call(
        command="python3 - <<'PY'\nfrom pathlib import Path\n"
        "p = Path('.specify/scripts/bash/check.sh')\n"
        "p.write_bytes(p.read_bytes().replace(b'\\r\\n', b'\\n'))\nPY"
    )
    retry = call(command=".specify/scripts/bash/check.sh --json")
    error = "Exit code 127\n/usr/bin/env: 'bash\\r': No such file or directory"
    fix = run([failed, check, convert, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [convert.tool_use_id]


def test_text_written_to_a_file_by_cat_or_echo_is_a_remedy_step():
    """`cat > x <<'EOF'` and `echo x >> .gitignore` write files (the Codex rollouts of the
    third held-out set rewrite configs so); `cat x 2>/dev/null` and a pipe into a script
    whose code holds a `>` only look."""
    failed = call(command="npm run build --workspace ui", failed=True)
    looks = [
        call(command="cat ui/tsconfig.json 2>/dev/null"),
        call(command='cat s.json | python3 -c "import json,sys; print(len(sys.argv) > 1)"'),
        call(command="cat <<EOF\nif a > b\nEOF"),
    ]
    writes = [
        call(command="cat > ui/vite.config.ts <<'EOF'\nexport default {}\nEOF"),
        call(command="echo 'dist/' >> .gitignore"),
    ]
    retry = call(command="npm run build --workspace ui")
    error = "Exit code 1\nvite.config.ts(16,3): error TS2769: No overload matches this call."
    fix = run([failed, *looks, *writes, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [w.tool_use_id for w in writes]


def test_shell_writes_of_other_files_are_no_remedy_for_a_write_refused_as_not_read():
    """Writes of three files refused (not read yet), each then written by `cat > x <<EOF`:
    each failure's way round is its own file's, the others' are no steps of it."""
    error = "<tool_use_error>File has not been read yet. Read it first before writing to it."
    names = ["state.ts", "utils.ts", "react.ts"]
    failed = [call("Write", file_path=f"/p/types/{n}", failed=True, kind="not_read") for n in names]
    cats = [call(command=f"cat > types/{n} << 'EOF'\nexport {{}}\nEOF") for n in names]
    found = run([*failed, *cats], {f.tool_use_id: error for f in failed})
    for f, cat in zip(failed, cats, strict=True):
        fix = found[f.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, cat.tool_use_id)
        assert [s.tool_use_id for s in fix.remedy] == [cat.tool_use_id]


def test_echoed_headers_are_no_intent_of_a_look():
    """`echo "=== x ==="` labels the output of the looks around it: two such labels are no
    retry of each other (a `diff -r` that exited 1 was "confirmed" by another `echo; ls`, a
    pure look shown as a step `changed: ----`)."""
    failed = call(
        command='echo "=== mine ==="; ls -la ~/a/skill/; echo; diff -r ~/a/skill/ ~/b/skill/',
        failed=True,
    )
    other = call(
        command='echo "=== theirs ==="; ls -la ~/c/other/; echo "---"; wc -l ~/c/other/SKILL.md'
    )
    error = {failed.tool_use_id: "Exit code 1\n=== mine ===\nSKILL.md\nOnly in /b/skill: x.md"}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # the same diff run again confirms it
    again = call(command="diff -r ~/a/skill/ ~/b/skill/")
    assert run([failed, other, again], error)[failed.tool_use_id].confirmed_by == again.tool_use_id
    # an echo alone is still retried by an echo
    said = call(command='echo "hello there"', failed=True)
    same = call(command='echo "hello there"')
    fix = run([said, same], {said.tool_use_id: "Exit code 1"})[said.tool_use_id]
    assert fix.confirmed_by == same.tool_use_id


def test_a_look_that_ends_in_a_grep_that_matched_nothing_found_nothing():
    """A grep exits 1 when no line matched, whatever the looks before it printed: such a
    command is confirmed only by the same search again, not by a grep of another pattern in
    the same folder (the Rust sources, after the manifests held none)."""
    failed = call(
        command='cd /p; find . -name Cargo.toml; echo "=== grep ==="; grep -rn "log_ng" .',
        failed=True,
    )
    other = call(command='cd /p; grep -rn "log_ng" --include=*.rs . | head')
    error = {failed.tool_use_id: "Exit code 1\n./framework/Cargo.toml\n=== grep ==="}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    # a find that exits 1 failed: the next find of the same name fixes it
    bad = call(command="find /p -name Cargo.toml", failed=True)
    good = call(command="find /q -name Cargo.toml")
    found = {bad.tool_use_id: "Exit code 1\nfind: '/p': No such file or directory"}
    assert run([bad, good], found)[bad.tool_use_id].outcome == fixes.FIXED


def test_the_looks_a_chain_never_reached_past_a_grep_that_found_nothing_are_no_retry():
    """`wc ... && echo "--- c ---" && grep -n '^#include' a.c && echo "--- h ---" && grep -n
    '^#include' a.h`: the grep of a.c found nothing and `&&` stopped there, as its output,
    ending at `--- c ---`, shows. The rest run next (`echo "--- h ---"; grep ... a.h`) is
    the rest of the look, not a retry of the search that found nothing (nu49's held-out set,
    "fixed" by it). The grep of a.c again is its retry."""
    failed = call(
        command='cd /p && wc -l a.c && echo "--- c ---" && grep -n "^#include" a.c'
        ' && echo "--- h ---" && grep -n "^#include" a.h',
        failed=True,
    )
    rest = call(command='cd /p && echo "--- h ---"; grep -n "^#include" a.h')
    error = {failed.tool_use_id: "Exit code 1\n1805 a.c\n--- c ---\n"}
    printed = {rest.tool_use_id: '--- h ---\n1:#include "b.h"'}
    assert run([failed, rest], error, printed)[failed.tool_use_id].outcome == fixes.ANSWERED
    edit = call("Edit", file_path="/p/a.c")
    again = call(command='cd /p && grep -n "^#include" a.c')
    printed[again.tool_use_id] = '1:#include "a.h"'
    fix = run([failed, rest, edit, again], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)


def test_a_look_of_a_path_not_there_is_worked_around_by_a_find_of_its_name():
    """`ls -d pkg/*syslog*` matched nothing (ls exits 2), then `find . -iname '*syslog*'`
    found where it is: the guessed path, then the search, as a Read of a missing file is
    worked around by a Glob. A find of other names is not; `D=$(find ...)` runs find."""
    failed = call(command="ls -d /b/package/*plugin_syslog* 2>/dev/null", failed=True)
    other = call(command="find /b -maxdepth 4 -iname '*plugin_ptp*'")
    found = call(command="find /b -maxdepth 4 -iname '*plugin_syslog*' | head")
    error = {failed.tool_use_id: "Exit code 2\n"}
    printed = {found.tool_use_id: "/b/package/network/plugin_syslog"}
    fix = run([failed, other, found], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, found.tool_use_id)
    gone = call(command="ls -la ~/p/skills/brainstorming/", failed=True)
    where = call(
        command="D=$(find ~/p/cache -path '*skills/brainstorming*' -type d | head -1); ls \"$D\""
    )
    missing = {
        gone.tool_use_id: "ls: cannot access '/h/p/brainstorming/': No such file or directory"
    }
    assert run([gone, where], missing)[gone.tool_use_id].confirmed_by == where.tool_use_id
    # a helper's substitution is no intent of a command: `tmp=$(mktemp)` of two scripts
    pair = fixes._shared_intent("t=$(mktemp); bash $t/x.sh", "t=$(mktemp -d); bash $t/x.sh")
    assert pair is not None and pair[0].program == "bash"


def test_a_tool_redone_with_other_input_is_a_changed_retry_not_another_way():
    """A Task the user stopped, redone with their correction, and a plan rejected, then
    reshaped, are the call again, changed: fixed, not worked around; so is a MultiEdit
    refused as not read, redone as an Edit of that file after its Read."""
    failed = call(
        "Task",
        input='{"description": "Configure statusLine from shell PS1"}',
        failed=True,
        kind="interrupted",
    )
    redo = call("Task", input='{"description": "Configure statusLine for Fish shell"}')
    fix = run([failed, redo], {failed.tool_use_id: "[Request interrupted by user for tool use]"})[
        failed.tool_use_id
    ]
    assert (fix.outcome, steps(fix)) == (
        fixes.FIXED,
        [(redo.tool_use_id, "description: Configure statusLine for Fish shell")],
    )
    multi = call("MultiEdit", file_path="/p/README.md", failed=True, kind="not_read")
    read = call("Read", file_path="/p/README.md")
    edit = call("Edit", file_path="/p/README.md")
    not_read = {
        multi.tool_use_id: "File has not been read yet. Read it first before writing to it."
    }
    fix = run([multi, read, edit], not_read)[multi.tool_use_id]
    assert (fix.outcome, steps(fix)) == (
        fixes.FIXED,
        [(read.tool_use_id, None), (edit.tool_use_id, "MultiEdit → Edit")],
    )
    # a page of another site is neither; another page of the same site is another way
    page = call("WebFetch", url="https://a.dev/x", failed=True)
    other = call("WebFetch", url="https://a.dev/y")
    fix = run([page, other], {page.tool_use_id: "Request failed with status code 404"})[
        page.tool_use_id
    ]
    assert fix.outcome == fixes.WORKED_AROUND


def test_a_search_that_printed_its_matches_over_an_unreadable_path_needs_no_fix():
    """rg exits 2 when a path cannot be read (a broken .gitignore glob, a guessed file not
    there) and still prints what it found: the search answered, so the edits and another
    rg after it are no fix; the same search again is its retry. A pattern given as a path
    (`rg -n a -n "def b" x.py`: `rg: def b: No such file`) is a search not run as meant."""
    search = "rg -n 'Shortlist|Athena' app/src/main/java -g '!**/build/**'"
    failed = call("exec_command", command=search, failed=True)
    edit = call("apply_patch", file_path="/p/app/src/main/java/Shortlist.kt")
    later = call("exec_command", command="rg -n 'onTabSelected' app/src/main/java")
    error = (
        "Exit code 2\nrg: /p/.gitignore: line 1: error parsing glob '\\': dangling '\\'\n"
        "app/src/main/java/a/Shortlist.kt:55:    object Athena\n"
    )
    fix = run([failed, edit, later], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    again = call("exec_command", command=search)
    printed = {again.tool_use_id: "app/src/main/java/a/Shortlist.kt:55:    object Athena"}
    fix = run([failed, edit, again], {failed.tool_use_id: error}, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    # the patterns read as files: the rg of one pattern fixed it
    pair = call(command='rg -n "def run_git" -n "def run_editor" src/core.py', failed=True)
    one = call(command='rg -n "def run_editor" src/core.py')
    misread = {
        pair.tool_use_id: "Exit code 2\nrg: def run_editor: No such file or directory (os error"
        " 2)\nsrc/core.py:280:def run_git(args):"
    }
    assert run([pair, one], misread)[pair.tool_use_id].confirmed_by == one.tool_use_id
    # a complaint of several lines, no match: the regex refused
    regex = call(command=r'rg -n "a\nb|c" lib -g "*.ex"', failed=True)
    fixed = call(command='rg -n "b|c" lib -g "*.ex"')
    refused = {
        regex.tool_use_id: 'Exit code 2\nrg: the literal "\\n" is not allowed in a regex\n\n'
        "Consider enabling multiline mode with the --multiline flag (or -U for short)."
    }
    assert run([regex, fixed], refused)[regex.tool_use_id].confirmed_by == fixed.tool_use_id


def test_a_retry_that_printed_the_key_line_succeeded_when_its_status_is_its_own():
    """`npm test | tail` exits 0 when the tests fail: a piped retry whose output still holds
    the failure's key line confirms nothing. A `quarto render` that exited 0 by itself
    succeeded, though it printed the warning that was the failure's key line."""
    failed = call(command="npm test 2>&1 | tail -5", failed=True)
    piped = call(command="npm test 2>&1 | tail -5")
    plain = call(command="npm test")
    error = {failed.tool_use_id: "Exit code 1\nFAIL src/a.test.ts: expected 2 to be 3"}
    outputs = {c.tool_use_id: "FAIL src/a.test.ts: expected 2 to be 3" for c in (piped, plain)}
    fix = run([failed, piped, plain], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == plain.tool_use_id
    render = call(command="quarto render", failed=True)
    edit = call("Edit", file_path="/p/blog/posts/design/index.qmd")
    again = call(command="quarto render")
    warned = "[WARNING] Citeproc: citation WakeHPC not found"
    errors = {
        render.tool_use_id: f"[ 5/12] docs/grants/step.qmd\n{warned}\n[10/12] blog/posts/"
        "design/index.qmd\nFile ../../references.bib not found in resource path"
    }
    outputs = {again.tool_use_id: f"[ 5/12] docs/grants/step.qmd\n{warned}\n[12/12] x.qmd"}
    fix = run([render, edit, again], errors, outputs)[render.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (again.tool_use_id, [(edit.tool_use_id, None)])


@pytest.mark.parametrize(
    "printed",
    [
        "src/a.ts(3,1): error TS2304\nTypescript found 74 errors in 27 files.",
        "Found 2 errors in 1 file (checked 9 source files)",
        "FAILED tests/test_x.py::test_y\n6 failed, 40 passed in 2.10s",
        "=========== 1 failed, 44 passed, 2 warnings in 3.01s ===========",
        "Tests:       2 failed, 10 passed, 12 total",
        "✖ 5 problems (2 errors, 3 warnings)",
        "test result: FAILED. 227 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out",
        "failures:\n    tests::a\n\nerror: test failed, to rerun pass `--bin obstruct`",
    ],
)
def test_a_piped_check_that_counted_failures_confirms_nothing(printed):
    """`npm run typecheck 2>&1 | tail -50` exits 0 whatever tsc found: a new user's card
    claimed a fix, confirmed by a type check that ended `Typescript found 74 errors`, where
    the agent gave up. Its own count of what failed, more than none, says it failed; the
    same count of none, or the same output from a command whose status is its own, does
    not."""
    failed = call(command="npm run typecheck", failed=True)
    edit = call("Edit", file_path="/p/src/a.ts")
    piped = call(command="npm run typecheck 2>&1 | tail -50")
    error = {failed.tool_use_id: "Exit code 2\nsrc/a.ts(3,1): error TS2307: Cannot find module 'x'"}
    fix = run([failed, edit, piped], error, {piped.tool_use_id: printed})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    clean = "0 failed" if "failed" in printed else "Found 0 errors"
    fix = run([failed, edit, piped], error, {piped.tool_use_id: clean})[failed.tool_use_id]
    assert fix.confirmed_by == piped.tool_use_id
    own = call(command="npm run typecheck")  # it exited 0 by itself: it passed
    fix = run([failed, edit, own], error, {own.tool_use_id: printed})[failed.tool_use_id]
    assert fix.confirmed_by == own.tool_use_id


def test_a_check_cut_short_by_head_confirms_nothing():
    """`cargo test -- --nocapture 2>&1 | head -5` printed `running 231 tests` and one
    passing test, exit 0 from head, while six tests still failed: a card showed it as the
    fix, where the parser and the tests were edited after it (thirty-fourth held-out set).
    The verdict a test runner prints last was cut off. A run whose whole output head kept,
    or a program's run (`cargo run`, whose output is its own), is seen to its end."""
    failed = call(command="cargo test 2>&1", failed=True)
    cut = call(command='cargo test -- --nocapture 2>&1 | head -5; echo "---"')
    edit = call("Edit", file_path="/p/src/parser.rs")
    passed = call(command="cargo test 2>&1 | tail -3")
    error = {
        failed.tool_use_id: "Exit code 101\nrunning 231 tests\ntest result: FAILED. 225 passed;"
        " 6 failed\n\nerror: test failed, to rerun pass `--bin obstruct`"
    }
    started = "   Finished `test` profile\n   Running unittests\n\nrunning 231 tests\n"
    started += "test a ... ok\n"
    outputs = {
        cut.tool_use_id: started + "---",
        passed.tool_use_id: "test result: ok. 231 passed; 0 failed",
    }
    fix = run([failed, cut, edit, passed], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == passed.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [edit.tool_use_id]
    whole = call(command="cargo test 2>&1 | head -50")
    outputs[whole.tool_use_id] = started + "\ntest result: ok. 231 passed; 0 failed"
    fix = run([failed, edit, whole], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == whole.tool_use_id
    assert fixes._cut_short(cut, outputs[cut.tool_use_id])
    assert not fixes._cut_short(cut._replace(command="cargo run 2>&1 | head -5"), started)
    assert not fixes._cut_short(cut._replace(command="cargo test 2>&1 | head -c 5"), started)
    assert fixes._cut_short(cut._replace(command="pytest -q | head -n 3"), started)


@pytest.mark.parametrize(
    "look, printed",
    [
        (
            './node_modules/.bin/tsc --traceResolution --noEmit -p x.json 2>&1 | rg -n "xlsx"',
            "23116:======== Resolving module 'xlsx' from '/p/src/libs/tabularFile.ts'. ========",
        ),
        ("npx tsc --noEmit 2>&1 | grep -n tabularFile", "src/libs/tabularFile.ts"),
        ("npx tsc --noEmit 2>&1 | sed -n '/xlsx/p'", "import xlsx from 'xlsx';"),
        ("npx tsc --noEmit --listFiles | sed -n '1,3p'", "a.ts\nb.ts\nc.ts"),
        ("npx tsc --noEmit --listFiles | sed 2q", "a.ts\nb.ts"),
    ],
)
def test_a_check_piped_into_a_search_confirms_nothing(look, printed):
    """`tsc --traceResolution --noEmit 2>&1 | rg -n "xlsx|tabularFile"` after `Cannot find
    module 'xlsx'`, exit 0 from rg, was shown as the fix (`+--traceResolution`), where the
    agent only looked and the plain `tsc --noEmit` passed later with no step: thirty-third
    held-out set, a new user's try (session 38). A search keeps the lines it asked for, the
    verdict only by chance, and its status is its own; `sed -n '1,3p'` and `sed 2q` cut the
    run as head does."""
    failed = call(command="npx tsc --noEmit -p tsconfig.json", failed=True)
    looked = call(command=look)
    plain = call(command="npx tsc --noEmit -p tsconfig.json")
    error = {
        failed.tool_use_id: "Exit code 2\nsrc/libs/tabularFile.ts:3:18 - error TS2307: Cannot"
        " find module 'xlsx' or its corresponding type declarations."
    }
    fix = run([failed, looked, plain], error, {looked.tool_use_id: printed})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (fixes.FIXED, plain.tool_use_id, [])
    assert looked.tool_use_id in fix.others


@pytest.mark.parametrize(
    "command, printed",
    [
        # the lines kept say it passed
        ('npm test 2>&1 | grep -E "Test Files|Tests|passed"', " Test Files  3 passed (3)"),
        ("npx tsc --noEmit 2>&1 | grep -v warning", ""),  # all but the warnings
        ("npx tsc --noEmit 2>&1 | tail -5", "done"),  # the end, where the verdict is
        ("npx tsc --noEmit 2>&1 | sed -n '1,80p'", "a.ts"),  # all of it
        ("npx tsc --noEmit 2>&1 | sed 's/^/  /'", "a.ts"),
        ("git ls-remote origin | grep -E 'refs/heads/main$'", "abc refs/heads/main"),  # no check
    ],
)
def test_a_filter_that_keeps_the_verdict_cuts_nothing_short(command, printed):
    """What _cut_short leaves a piped check's confirmation to: a search whose lines say it
    passed, `grep -v`, `tail`, a `sed` that kept all or changed lines, a search of what a
    program that is no check printed."""
    assert not fixes._cut_short(call(command=command), printed)


@pytest.mark.parametrize(
    "command, refusal",
    [
        (
            "git checkout main && git pull origin main",
            "error: Your local changes to the following files would be overwritten by merge:"
            "\n\tsrc/app.ts\nPlease commit your changes or stash them before you merge.",
        ),
        (
            "git filter-branch --index-filter 'git rm --cached x'",
            "Cannot rewrite branches: You have unstaged changes.",
        ),
    ],
)
def test_git_refused_over_local_changes_then_reset_to_a_ref_is_worked_around(command, refusal):
    """git refused a pull (or a filter-branch) over changes not committed; the agent then
    dropped them with `git reset --hard origin/main`, which put the branch where the pull
    was to take it: worked around, the reset its step. A reset with no ref goes nowhere,
    and a reset after another error is no way round it."""
    failed = call(command=command, failed=True)
    stash = call(command="git stash")
    reset = call(command="git reset --hard origin/main && git log --oneline -3")
    fix = run([failed, stash, reset], {failed.tool_use_id: f"Exit code 1\n{refusal}"})[
        failed.tool_use_id
    ]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, reset.tool_use_id)
    bare = call(command="git reset --hard")
    fix = run([failed, bare], {failed.tool_use_id: refusal})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    other = "fatal: unable to access 'https://github.com/a/b.git/': Could not resolve host"
    fix = run([failed, reset], {failed.tool_use_id: other})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_failure_that_got_further_is_another_one():
    """A render of 12 files failed on a missing references.bib at file 2; that file's path
    fixed, the next render failed with the same message at file 4, then, fixed too, it
    passed: each failure's remedy is the edit of its own file, not the last edit. The same
    error where the run stopped as far is the same failure: its remedy is after it."""
    missing = "File references.bib not found in resource path"

    def rendered(n):
        return "".join(f"\r[{i:2}/12] f{i}.qmd\n" for i in range(1, n + 1))

    first = call(command="quarto render", failed=True)
    edit2 = call("Edit", file_path="/p/f2.qmd")
    second = call(command="quarto render", failed=True)
    edit4 = call("Edit", file_path="/p/f4.qmd")
    done = call(command="quarto render")
    errors = {
        first.tool_use_id: rendered(2) + missing,
        second.tool_use_id: rendered(4) + missing,
    }
    found = run([first, edit2, second, edit4, done], errors)
    assert steps(found[first.tool_use_id]) == [(edit2.tool_use_id, None)]
    assert steps(found[second.tool_use_id]) == [(edit4.tool_use_id, None)]
    errors[second.tool_use_id] = rendered(2) + missing
    found = run([first, edit2, second, edit4, done], errors)
    assert steps(found[first.tool_use_id]) == [(edit4.tool_use_id, None)]


def test_a_command_run_in_a_nix_shell_is_that_command():
    """`nix develop -c bash -lc '...'` runs the script in the flake's shell: `cargo` not
    found outside it, then the chain inside it, is a retry, changed; a file taken out of
    the script's prettier changes it (the card said nothing changed: third held-out
    set). `bash -lc` is `bash -c` with a login shell."""
    chain = "cargo fmt --all && npx prettier --write ui/App.tsx kernel/main.rs && cargo test"
    assert [(i.program, i.sub) for i in fixes.intents(f"nix develop -c bash -lc '{chain}'")] == [
        ("cargo", "fmt"),
        ("prettier", None),
        ("cargo", "test"),
    ]
    assert [i.program for i in fixes.intents("nix develop .#dev --command pytest -x")] == ["pytest"]
    failed = call("exec_command", command=chain, failed=True)
    inside = call("exec_command", command=f"nix develop -c bash -lc '{chain}'")
    fix = run(
        [failed, inside], {failed.tool_use_id: "Exit code 127\nbash: cargo: command not found"}
    )
    assert fix[failed.tool_use_id].confirmed_by == inside.tool_use_id
    fewer = chain.replace(" kernel/main.rs", "")
    assert (
        fixes.command_change(
            f"nix develop -c bash -lc '{chain}'", f"nix develop -c bash -lc '{fewer}'"
        )
        == "then npx prettier --write ui/App.tsx"
    )


def test_a_script_nix_shell_runs_is_its_commands_with_the_packages_it_adds():
    """`nix-shell -p cargo rustc --run 'cargo check ...'` runs cargo in a shell that has it:
    after `cargo: command not found`, the retry, changed by the packages (tenth held-out
    set: not fixed before)."""
    check = "cargo check --manifest-path kernel/Cargo.toml"
    inside = f"nix-shell -p cargo rustc --run '{check}'"
    assert [(i.program, i.sub) for i in fixes.intents(inside)] == [("cargo", "check")]
    assert fixes.command_change(check, inside) == "+nix-shell +-p +rustc +--run"
    failed = call("exec_command", command=check, failed=True)
    retry = call("exec_command", command=inside)
    error = "Exit code 127\n/run/current-system/sw/bin/bash: line 1: cargo: command not found"
    fix = run([failed, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert steps(fix) == [(retry.tool_use_id, "+nix-shell +-p +rustc +--run")]


def test_a_wrapper_put_in_front_of_a_script_is_the_change():
    """`cargo: command not found`, then the same chain in `nix develop -c bash -lc '...'`:
    the change is the shell it now runs in (the card said only "then npx prettier ...",
    the tenth held-out set)."""
    chain = "cargo fmt --all && npx prettier --write ui/App.tsx && cargo test"
    assert fixes.command_change(chain, f"nix develop -c bash -lc '{chain}'") == (
        "+nix +develop +-c +bash +-lc"
    )
    assert fixes.command_change(f"bash -lc '{chain}'", f"bash -lc '{chain}'") is None


@pytest.mark.parametrize(
    ("command", "programs"),
    [
        # a redirection inside quotes took the closing quote with it, and the rest of the
        # command became the script (mirrors' corpus: nine commands after it were lost)
        ("bash -c 'cat < /dev/null > /dev/tcp/h/22' && echo up", ["cat", "echo"]),
        ('grep -c "<<<<<<<\\|>>>>>>>" a.go && go build ./...', ["grep", "go"]),
        ('echo hi > "out file.txt" && ls', ["echo", "ls"]),
    ],
)
def test_a_redirection_inside_quotes_leaves_the_quote(command, programs):
    assert [i.program for i in fixes.intents(command)] == programs


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("uv run --with rich python x.py", "python"),
        ("uv run -- pytest -x", "pytest"),
        ("conda run -n ml pytest tests", "pytest"),
        ("poetry run -C api pytest", "pytest"),
        ("pnpm exec --filter web vitest run", "vitest"),
    ],
)
def test_a_runners_options_are_not_its_program(command, program):
    """`uv run --with rich python x.py` runs python: `--with` and its value are uv's."""
    assert [i.program for i in fixes.intents(command)] == [program]


def test_a_look_of_everything_is_retried_only_by_itself():
    """`git branch -l` cancelled by the user (who then named the branch), then `git branch
    --contains 217a8fa main`: a list of every branch, then a question about one, is not the
    look again (Gemini CLI labels: not a problem, "fixed"; a look the user stopped that
    nothing looked again: declined). `git status`, then `git status --short`, and `git
    push`, then `git push origin main`, are."""
    listed = call("run_shell_command", command="git branch -l", failed=True, kind="interrupted")
    asked = call("run_shell_command", command="git branch --contains 217a8fa main")
    stopped = {listed.tool_use_id: "[Operation Cancelled] Reason: User cancelled the operation."}
    assert run([listed, asked], stopped)[listed.tool_use_id].outcome == fixes.DECLINED
    for before, after in [
        ("git status", "git status --short"),
        ("git push", "git push origin main"),
    ]:
        assert fixes._shared_intent(before, after) is not None


def test_a_call_the_user_stopped_then_another_request_is_no_fix():
    """A Task stopped ("sorry, I meant for Claude Code, globally"), then a Task of another
    subject; a Glob rejected, then a Glob of another pattern; a plan rejected, then a plan
    of something else: the user's "no", not a failure fixed, nor worked around. The same
    Glob again, and a Task failing on its input then run with other input, are retries."""
    stopped = "[Request interrupted by user for tool use]"
    task = call(
        "Task",
        input=json.dumps(
            {
                "description": "Explore hooks and notifications",
                "prompt": "Explore the codebase to understand:\n1. How hooks are implemented",
            }
        ),
        failed=True,
        kind="interrupted",
    )
    other = call(
        "Task",
        input=json.dumps(
            {
                "description": "Claude Code hooks documentation",
                "prompt": "Find documentation on Claude Code hooks - specifically:\n1. x",
            }
        ),
    )
    fix = run([task, other], {task.tool_use_id: stopped})[task.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected"

    def glob_of(pattern, **kw):
        return call("Glob", pattern=pattern, input=json.dumps({"pattern": pattern}), **kw)

    glob = glob_of("src/widgets/**/value*", failed=True, kind="rejected")
    near = glob_of("src/widgets/landing-page/**/*")
    same = glob_of("src/widgets/**/value*")
    fix = run([glob, near, same], {glob.tool_use_id: rejected})[glob.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, same.tool_use_id)
    assert run([glob, near], {glob.tool_use_id: rejected})[glob.tool_use_id].outcome == (
        fixes.DECLINED
    )
    plan = call(
        "ExitPlanMode",
        input='{"plan": "# Implementation Plan: Guides & Forms System\n\n## Schema"}',
        failed=True,
        kind="rejected",
    )
    save = call("ExitPlanMode", input='{"plan": "# Save Implementation Plan to Gitignored File"}')
    assert run([plan, save], {plan.tool_use_id: rejected})[plan.tool_use_id].outcome == (
        fixes.DECLINED
    )
    # an error, not the user's no: other input is the change that made it run
    bad = call("Task", input='{"description": "Analyze project structure"}', failed=True)
    good = call("Task", input='{"description": "Check package configuration", "prompt": "x"}')
    error = {bad.tool_use_id: "InputValidationError: The required parameter `prompt` is missing"}
    assert run([bad, good], error)[bad.tool_use_id].outcome == fixes.FIXED


def test_a_look_the_user_stopped_or_denied_that_nothing_looked_again_is_declined():
    """A look the user stopped while it ran (Reads and repo-wide greps as the user ended the
    session, an Explore subagent stopped to say what was meant) or denied at a subagent's
    permission prompt, that nothing looked again, is the user's "no" (fixes._declined): over
    real + sets 30-40, 9 not a problem stored "not fixed" (the last session's "Left /
    next"). Not another call stopped (it may have hung: a clipboard write, the session
    ending, abandoned), a deletion however it is spelt, nor a look a setting or the auto
    mode classifier refused."""
    stopped = "[Request interrupted by user for tool use]"
    denied = (
        "Permission for this tool use was denied. The tool use was rejected (eg. if it was a"
        " file edit, the new_string was NOT written to the file). Try a different approach"
    )
    explore = json.dumps({"subagent_type": "Explore", "description": "Explore hooks"})
    for failed, said in (
        (call("Read", file_path="/p/src/Login.tsx", failed=True, kind="interrupted"), stopped),
        (
            call(
                command='cd /p && grep -r "OLD NAME" --include="*.md" .',
                kind="interrupted",
                failed=True,
            ),
            "Exit code 137\n" + stopped,
        ),
        (call("Task", input=explore, failed=True, kind="interrupted"), stopped),
        (
            call(
                command="PYTHONPATH=. python -c 'import fitz; print(fitz.open(\"a.pdf\"))'",
                failed=True,
                kind="interrupted",
            ),
            stopped,
        ),
        (
            call(
                command="flatpak list --app 2>&1 | grep -i teams",
                failed=True,
                kind="permission_denied",
            ),
            denied,
        ),
    ):
        went_on = call("Edit", file_path="/p/settings.json")
        fix = run([failed, went_on], {failed.tool_use_id: said})[failed.tool_use_id]
        assert fix.outcome == fixes.DECLINED, failed
    for failed, said in (
        (call(command='echo "test" | wl-copy', failed=True, kind="interrupted"), stopped),
        (call(command="npm run dev", failed=True, kind="interrupted"), stopped),
        (call(command="git branch -D old", failed=True, kind="interrupted"), stopped),
        (
            call(
                "Task",
                input='{"description": "Convert citations"}',
                failed=True,
                kind="interrupted",
            ),
            stopped,
        ),
        (
            call(command="grep -rn Host ~/.ssh/config", failed=True, kind="permission_denied"),
            "Permission for this action was denied by the Claude Code auto mode classifier.",
        ),
    ):
        fix = run([failed], {failed.tool_use_id: said})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED, failed
    # looked again: the retry fixed it
    read = call("Read", file_path="/p/a.md", failed=True, kind="interrupted")
    again = call("Read", file_path="/p/a.md")
    fix = run([read, again], {read.tool_use_id: stopped})[read.tool_use_id]
    assert fix.outcome == fixes.FIXED


def test_a_folder_read_as_a_file_is_worked_around_by_a_glob_of_it():
    """A Read of a folder (EISDIR), then a Glob of what is in it, by a pattern relative to
    the project (`app/Models/*.php`) or by its path: the folder listed. A Glob of another
    folder is not."""
    eisdir = "EISDIR: illegal operation on a directory, read"
    failed = call("Read", file_path="/p/app/Models", failed=True)
    other = call("Glob", pattern="app/Views/*.php")
    glob = call("Glob", pattern="app/Models/*.php")
    fix = run([failed, other, glob], {failed.tool_use_id: eisdir})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, glob.tool_use_id)
    tests = call("Read", file_path="/p/tests", failed=True)
    listed = call("Glob", pattern="**/*.php", file_path="/p/tests")
    fix = run([tests, listed], {tests.tool_use_id: eisdir})[tests.tool_use_id]
    assert fix.confirmed_by == listed.tool_use_id
    alone = call("Read", file_path="/p/lib", failed=True)
    elsewhere = call("Glob", pattern="src/lib/*.ts")
    assert (
        run([alone, elsewhere], {alone.tool_use_id: eisdir})[alone.tool_use_id].outcome
        == fixes.NOT_FIXED
    )


def test_an_inline_script_is_retried_only_by_one_on_the_same_thing():
    """`python3 - <<EOF` and `python3 -c "..."` have no arguments: their code says what they
    are for. A heredoc that read a token file is not retried by a YAML check of another
    file; a script on the same file, changed, is its retry."""
    failed = call(
        command="python3 - <<'EOF'\ns = open('/h/me/token').read()\nprint(len(s))\nEOF", failed=True
    )
    check = call(
        command="cd /p && python3 -c \"\nimport yaml\nyaml.safe_load(open('ci/actt.yml'))\n\""
    )
    denied = {
        failed.tool_use_id: "Permission for this action was denied by the auto mode classifier."
    }
    assert run([failed, check], denied)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="python3 -c \"print(len(open('/h/me/token').read().strip()))\"")
    assert run([failed, check, again], denied)[failed.tool_use_id].confirmed_by == again.tool_use_id
    # a script run by its file is still retried by that file run again
    script = call(command="python3 build.py --fast", failed=True)
    rerun = call(command="python3 build.py")
    fix = run([script, rerun], {script.tool_use_id: "Exit code 1\nValueError: x"})[
        script.tool_use_id
    ]
    assert fix.confirmed_by == rerun.tool_use_id


def test_inline_code_that_looks_into_what_a_script_read_is_no_rerun_of_it():
    """A heredoc that compared two parsers on a BVH file failed on a shape; then one that
    imported a helper of one parser to print the joints it read from that file: the same
    path, and none of the work of the failed code (thirtieth held-out set, a new user's try).
    The fix was the patch, confirmed by the comparison run again."""
    compare = (
        "PYTHONPATH=ardy:. python - <<'PY'\nfrom pathlib import Path\nimport torch\n"
        "from kimodo.bvh import parse_bvh_motion as ref_parse\n"
        "from src.motion import parse_bvh_motion, SOMASkeleton30, MotionRepresentation\n"
        "p=Path('data/bvh/Idle_Left_001.bvh')\nrr,rt,rf=ref_parse(p)\nlr,lt,lf=parse_bvh_motion(p)\n"
        "print('parse', (rr-lr).abs().max().item(), rr.shape)\n"
        "ours=MotionRepresentation(SOMASkeleton30(),120).encode(lr,lt,canonicalize=True)\nPY"
    )
    failed = call("exec_command", command=compare, failed=True)
    look = call(
        "exec_command",
        command="python - <<'PY'\nfrom src.motion.bvh import _parse_hierarchy\n"
        "p=Path('data/bvh/Idle_Left_001.bvh')\nn,c,_=_parse_hierarchy(p.read_text().splitlines())"
        "\nprint(len(n), n[:5])\nPY",
    )
    patch = call("apply_patch", file_path="src/motion/bvh.py")
    again = call("exec_command", command=compare)
    error = {
        failed.tool_use_id: "Exit code 1\nTraceback (most recent call last):\n"
        "RuntimeError: The size of tensor a (77) must match the size of tensor b (78)"
    }
    fix = run([failed, look, patch, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix) == [(patch.tool_use_id, None)]


def test_a_script_that_was_to_write_a_file_is_worked_around_by_the_shell_writing_it():
    """A `node <<'JS'` whose code writes files failed on its own syntax, then `cat > x
    <<'EOF'` wrote one of them: its goal reached another way. Another inline script, on
    another file, is no retry of it."""
    failed = call(
        command="node <<'JS'\nconst fs = require('fs');\nfs.writeFileSync('ui/vite.config.ts')\nJS",
        failed=True,
    )
    other = call(command='node -e \'const fs=require("fs"); fs.readFileSync("kernel/src/run.rs")\'')
    wrote = call(command="cat > ui/vite.config.ts <<'EOF'\nexport default {};\nEOF")
    error = {failed.tool_use_id: "Exit code 1\n[stdin]:200\nSyntaxError: Unexpected token '.'"}
    fix = run([failed, other, wrote], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, wrote.tool_use_id)


def test_a_file_call_rejected_with_guidance_is_redone_on_the_file_named():
    """A Write the user rejected, saying "change the name to an easy one", then the Write of
    commit.md: the agent's next Write is the redo, fixed, on another path. Without a prompt
    before it, or for a later Write, it is not."""
    failed = call(
        "Write",
        file_path="/h/.claude/commands/conventional-commit.md",
        failed=True,
        kind="rejected",
        at="2026-01-01T00:00:01Z",
    )
    redo = call("Write", file_path="/h/.claude/commands/commit.md", at="2026-01-01T00:00:05Z")
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    fix = run([failed, redo], rejected, prompts=["2026-01-01T00:00:03Z"])[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (
        fixes.FIXED,
        [(redo.tool_use_id, "conventional-commit.md → commit.md")],
    )
    assert run([failed, redo], rejected)[failed.tool_use_id].outcome == fixes.DECLINED
    first = call("Write", file_path="/h/notes.md", failed=True, at="2026-01-01T00:00:04Z")
    fix = run([failed, first, redo], {**rejected}, prompts=["2026-01-01T00:00:03Z"])[
        failed.tool_use_id
    ]
    assert fix.outcome == fixes.DECLINED


def test_a_read_the_user_rejected_is_redone_only_of_that_file():
    """The live binds.conf's Read rejected, the user saying it works after a reload and
    asking of something else, then the script of that question read (thirty-eighth
    held-out set, not a problem): a Read asks for its file, and the next Read of another
    is for the next task, not its redo on the file the user named, as an edit's is when it
    writes the same. A Read of that file again is its retry."""
    failed = call(
        "Read",
        file_path="/h/.config/hypr/binds.conf",
        failed=True,
        kind="rejected",
        at="2026-01-01T00:00:01Z",
    )
    other = call("Read", file_path="/h/.local/bin/screenshot-region", at="2026-01-01T00:00:05Z")
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    prompts = ["2026-01-01T00:00:03Z"]
    assert run([failed, other], rejected, prompts=prompts)[failed.tool_use_id].outcome == (
        fixes.DECLINED
    )
    again = call("Read", file_path="/h/.config/hypr/binds.conf", at="2026-01-01T00:00:07Z")
    fix = run([failed, other, again], rejected, prompts=prompts)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)


def test_a_retry_that_got_past_the_error_is_its_step():
    """A gradle build the sandbox refused, run outside it (still running, then its poll
    failing to compile), the code fixed, and the build run again as it was: the retry
    outside the sandbox got past the error, and is its step, `with escalated permissions`;
    the last build changed nothing. A poll runs as its command was run: the compile
    failure's card says nothing of the sandbox (its poll's input did not say it)."""
    build = "./gradlew :app:compileDebugKotlin"
    failed = call("exec_command", command=build, failed=True)
    outside = call("exec_command", command=build, escalated=True, running=True)
    polled = call("write_stdin", command=build, running=True)
    broke = call("write_stdin", command=build, failed=True)
    patch = call("apply_patch", file_path="/p/app/Screen.kt")
    again = call("exec_command", command=build, escalated=True, running=True)
    built = call("write_stdin", command=build)
    errors = {
        failed.tool_use_id: 'exec_command failed: SandboxDenied { message: "Exception in thread'
        " main java.io.FileNotFoundException: /h/.gradle/x.zip.lck (Operation not permitted)",
        broke.tool_use_id: "Exit code 1\n> Task :app:compileDebugKotlin FAILED\n"
        "e: file:///p/app/Screen.kt:531:41 Unresolved reference: AnimatedVisibility",
    }
    found = run([failed, outside, polled, broke, patch, again, built], errors)
    fix = found[failed.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (
        again.tool_use_id,
        [(outside.tool_use_id, fixes.ESCALATED)],
    )
    fix = found[broke.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (again.tool_use_id, [(patch.tool_use_id, None)])
    # a confirmation that changed the retry again keeps the change: the retry was half right
    other = call("exec_command", command=build + " --offline", escalated=True, running=True)
    done = call("write_stdin", command=build + " --offline")
    fix = run([failed, outside, polled, broke, patch, other, done], errors)[failed.tool_use_id]
    assert [change for _, change in steps(fix)] == [f"{fixes.ESCALATED}; +--offline"]


def test_a_retry_outside_the_sandbox_that_failed_on_something_else_got_past_it():
    """Codex's sandbox refused `uv pip install pillow` (its cache) and could not start for
    `python predict.py`; each run again with escalated permissions failed on something
    else, no network, a missing `--url`, and nothing later succeeded (thirty-second
    held-out set, 2 people): the retry got past the sandbox, fixed with escalated
    permissions. Not when the retry was refused again, nor a retry left in the sandbox."""
    install = "uv pip install --python ./.venv/bin/python3 pillow"
    failed = call("exec_command", command=f"command -v uv && {install}", failed=True)
    outside = call("exec_command", command=install, escalated=True, failed=True)
    look = call("exec_command", command="ls node_modules")
    errors = {
        failed.tool_use_id: "exec_command failed: CreateProcess { message: "
        '"Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 2, stderr: '
        "error: Failed to initialize cache at `/h/.cache/uv`: Permission denied (os error 13)",
        outside.tool_use_id: "Exit code 2\nerror: Request failed after 3 retries\n"
        "  Caused by: Failed to fetch: `https://files.pythonhosted.org/x.whl`",
    }
    fix = run([failed, outside, look], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, outside.tool_use_id)
    assert steps(fix) == [(outside.tool_use_id, fixes.ESCALATED)]
    script = call("exec_command", command="python predict.py", failed=True)
    usage = call("exec_command", command="python predict.py", escalated=True, failed=True)
    said = {
        script.tool_use_id: "exec_command failed: Sandbox Denied: bwrap: loopback: Failed"
        " RTM_NEWADDR: Operation not permitted",
        usage.tool_use_id: "Exit code 2\nusage: predict.py [-h] --url URL\n"
        "predict.py: error: the following arguments are required: --url",
    }
    assert run([script, usage], said)[script.tool_use_id].confirmed_by == usage.tool_use_id
    # refused again, in other words: it did not get past the refusal
    again = {
        **errors,
        outside.tool_use_id: "Exit code 2\nerror: failed to open file"
        " `/h/.cache/uv/x.lock`: Permission denied (os error 13)",
    }
    assert run([failed, outside], again)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    inside = call("exec_command", command=install, failed=True)
    errors[inside.tool_use_id] = errors[outside.tool_use_id]
    assert run([failed, inside], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_retry_outside_the_sandbox_the_user_stopped_got_past_nothing():
    """Codex's sandbox refused a branch's lock file (`cannot lock ref ... Operation not
    permitted`); the escalated retry's whole output is `aborted by user` (kind
    `interrupted`), and the rollout ends (thirty-sixth held-out set, abandoned): a call the
    user stopped shows nothing of how its command went, so it confirms nothing, outside the
    sandbox, after its arguments were refused or another script run. One that failed on its
    own does."""
    script = ".specify/scripts/bash/create-new-feature.sh --json --short-name x 'the spec'"
    failed = call("shell_command", command=script, failed=True)
    errors = {
        failed.tool_use_id: "Exit code 128\nfatal: cannot lock ref 'refs/heads/001-x': Unable"
        " to create '/r/.git/refs/heads/001-x.lock': Operation not permitted"
    }
    for said in ("aborted by user", "aborted by user after 31.2s"):
        stopped = call(
            "shell_command", command=script, escalated=True, failed=True, kind="interrupted"
        )
        fix = run([failed, stopped], {**errors, stopped.tool_use_id: said})[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.NOT_FIXED, None)
    ran = call("shell_command", command=script, escalated=True, failed=True)
    said = {**errors, ran.tool_use_id: "Exit code 1\nerror: spec template not found"}
    assert run([failed, ran], said)[failed.tool_use_id].confirmed_by == ran.tool_use_id
    taskkill = call(command="taskkill /F /PID 24648", failed=True)
    stopped = call(command="taskkill //F //PID 24648", failed=True, kind="interrupted")
    refused = {
        taskkill.tool_use_id: "Exit code 1\nERROR: Invalid argument/option - 'F:/'.",
        stopped.tool_use_id: "[Request interrupted by user for tool use]",
    }
    assert run([taskkill, stopped], refused)[taskkill.tool_use_id].outcome == fixes.NOT_FIXED
    # nor another script run after one npm did not know: aborted, it may have said so again
    typo = call(command="npm run biuld", failed=True)
    for kind, said in (("interrupted", "aborted by user"), (None, "Exit code 2\nerror TS2304")):
        build = call(command="npm run build", failed=True, kind=kind)
        outputs = {typo.tool_use_id: 'npm ERR! Missing script: "biuld"', build.tool_use_id: said}
        fix = run([typo, build], outputs, outputs)[typo.tool_use_id]
        assert fix.outcome == (fixes.FIXED if kind is None else fixes.NOT_FIXED)


def test_a_retry_whose_arguments_were_taken_that_failed_on_something_else_got_past_them():
    """`taskkill /F /PID 24648` from Git Bash, which made `/F` a path (`invalid
    argument/option - 'F:/'`), then `taskkill //F //PID 24648`, which failed because the
    process had ended: the program took its arguments, so the retry got past the refusal
    and fixed it (thirty-third held-out set), as one outside the sandbox gets past its
    refusal. Not when the retry's arguments were refused too, when it is the same command,
    nor when the user rejected it."""
    failed = call(command="taskkill /F /PID 24648", failed=True)
    doubled = call(command="taskkill //F //PID 24648", failed=True)
    started = call(command="pnpm run dev")
    errors = {
        failed.tool_use_id: "ERROR: Invalid argument/option - 'F:/'.\n"
        'Type "TASKKILL /?" for usage.',
        doubled.tool_use_id: 'ERROR: The process "24648" not found.',
    }
    fix = run([failed, doubled, started], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, doubled.tool_use_id)
    assert steps(fix) == [(doubled.tool_use_id, "-/F -/PID +//F +//PID")]
    # a program's own words for a flag it does not have, then one it has
    flag = call(command="gh pr checks 12 --wait", failed=True)
    watch = call(command="gh pr checks 12 --watch", failed=True)
    said = {
        flag.tool_use_id: "unknown flag: --wait\n\nUsage:  gh pr checks [<number>] [flags]",
        watch.tool_use_id: "X  build  1m2s  https://github.com/o/r/actions/runs/1",
    }
    assert run([flag, watch], said)[flag.tool_use_id].confirmed_by == watch.tool_use_id
    # refused again, and the same command again: neither got past it
    wrong = call(command="gh pr checks 12 --wach", failed=True)
    said[wrong.tool_use_id] = "unknown flag: --wach"
    assert run([flag, wrong], said)[flag.tool_use_id].outcome == fixes.NOT_FIXED
    same = call(command="taskkill /F /PID 24648", failed=True)
    errors[same.tool_use_id] = errors[doubled.tool_use_id]
    assert run([failed, same], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # a retry the user rejected never ran (thirty-second held-out set, abandoned)
    rejected = call(command="gh pr checks 12 --watch", failed=True, kind="rejected")
    said[rejected.tool_use_id] = "The user doesn't want to proceed with this tool use."
    assert run([flag, rejected], said)[flag.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_retry_that_found_the_program_not_found_got_past_it():
    """`cmake: command not found`, installed by the user in their own terminal, then `cd
    build-debug && cmake .. && make` that configured and failed to compile; `python -m
    pytest` not found, then `python3 -m pytest` failing on its missing pytest (thirty-sixth
    held-out set, 2 people): the shell found the program this time, so the retry got past
    the error and fixed it, as one outside the sandbox gets past its refusal. Not when it
    was not found again (by another name of it), nor when its chain failed before it."""
    failed = call(command="mkdir -p build && cd build && cmake ..", failed=True)
    built = call(command="cd build && cmake -DGUI=ON .. && make -j4", failed=True)
    errors = {
        failed.tool_use_id: "/bin/bash: line 1: cmake: command not found",
        built.tool_use_id: "Exit code 2\n-- Configuring done\n[ 10%] Building CXX object a.o\n"
        "src/a.cpp:3:10: fatal error: SDL.h: No such file or directory",
    }
    fix = run([failed, built], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, built.tool_use_id)
    tests = call(command="python -m pytest -q", failed=True)
    other = call(command="python3 -m pytest -q", failed=True)
    said = {
        tests.tool_use_id: "Exit code 127\nbash: line 1: python: command not found",
        other.tool_use_id: "Exit code 1\n/usr/bin/python3: No module named pytest",
    }
    fix = run([tests, other], said)[tests.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(other.tool_use_id, "-python +python3")])
    # not found again, by another name of it
    said[other.tool_use_id] = "Exit code 127\nbash: line 1: python3: command not found"
    assert run([tests, other], said)[tests.tool_use_id].outcome == fixes.NOT_FIXED
    # run as a module that is not there either: the same pytest missing
    runner = call(command="pytest --version", failed=True)
    module = call(command="python3 -m pytest --version", failed=True)
    said[runner.tool_use_id] = "Exit code 127\n/bin/bash: pytest: command not found"
    said[module.tool_use_id] = "Exit code 1\n/usr/bin/python3: No module named pytest"
    assert run([runner, module], said)[runner.tool_use_id].outcome == fixes.ANSWERED
    # its chain failed before the program: a folder not there, nothing after it ran
    gone = call(command="cd build && cmake ..", failed=True)
    errors[gone.tool_use_id] = "/bin/bash: line 1: cd: build: No such file or directory"
    assert run([failed, gone], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_command_run_again_as_it_was_past_the_prompts_is_fixed():
    """`git commit` could not lock a ref that root owned; without sudo, the agent asked the
    user to chown it in their own terminal, looked as the user said "check it" twice, then
    ran the same commit `&& git push`; Git not installed, the user installed it ("done",
    "done"), and the same `git init` and `git config` worked (thirty-sixth held-out set, 2
    people): the window closed at the prompts, but the agent did nothing between but look
    and fail. Not when the agent did something between, nor a command changed."""
    message = "git commit -m \"$(cat <<'EOF'\nfeat: add model\nEOF\n)\""
    failed = call(command=message, failed=True, at="2026-01-01T00:00:01Z")
    chown = call(command="sudo chown me .git/refs", failed=True, at="2026-01-01T00:00:03Z")
    look = call(command="ls -la .git/refs/heads", at="2026-01-01T00:00:05Z")
    look_again = call(command="ls -la .git/refs/heads", at="2026-01-01T00:00:07Z")
    ok = call(command=f"{message} && git push origin x", at="2026-01-01T00:00:09Z")
    errors = {
        failed.tool_use_id: "Exit code 128\nfatal: cannot lock ref 'HEAD': Unable to create"
        " '.git/refs/heads/x.lock': Permission denied",
        chown.tool_use_id: "Exit code 127\n/bin/bash: line 1: sudo: command not found",
    }
    prompts = ["2026-01-01T00:00:04Z", "2026-01-01T00:00:06Z", "2026-01-01T00:00:08Z"]
    calls = [failed, chown, look, look_again, ok]
    fix = run(calls, errors, prompts=prompts)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ok.tool_use_id)
    # the agent did something between: what the prompts asked may be another task's
    made = call(command="git checkout -b other", at="2026-01-01T00:00:07Z")
    calls = [failed, chown, look, made, ok]
    assert run(calls, errors, prompts=prompts)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # a command changed: another commit
    other = call(command="git commit -m 'other work'", at="2026-01-01T00:00:09Z")
    calls = [failed, chown, look, look_again, other]
    assert run(calls, errors, prompts=prompts)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # commands sent together, failed again together, then run as they were: the one that ran
    # first is no doing of the agent's for the other
    init = call("PowerShell", command="git init", failed=True, at="2026-01-01T00:01:00Z")
    email = call(
        "PowerShell", command="git config user.email a@b.c", failed=True, at="2026-01-01T00:01:00Z"
    )
    init_again = call("PowerShell", command="git init", failed=True, at="2026-01-01T00:01:10Z")
    email_again = call(
        "PowerShell", command="git config user.email a@b.c", failed=True, at="2026-01-01T00:01:10Z"
    )
    init_ok = call("PowerShell", command="git init", at="2026-01-01T00:01:20Z")
    email_ok = call("PowerShell", command="git config user.email a@b.c", at="2026-01-01T00:01:20Z")
    missing = "Exit code 1\ngit : The term 'git' is not recognized as the name of a cmdlet"
    errors = {c.tool_use_id: missing for c in (init, email, init_again, email_again)}
    prompts = ["2026-01-01T00:01:02Z", "2026-01-01T00:01:04Z", "2026-01-01T00:01:06Z"]
    prompts += ["2026-01-01T00:01:15Z"]
    calls = [init, email, init_again, email_again, init_ok, email_ok]
    found = run(calls, errors, prompts=prompts)
    assert found[init.tool_use_id].confirmed_by == init_ok.tool_use_id
    assert found[email.tool_use_id].confirmed_by == email_ok.tool_use_id
    # the `git init` that went through is no step of the `git config` that did too: both
    # failed on Git not there, and what let one through (outside) let the other (nu41
    # finding 7: the card said "fix: git init", then "Git still isn't being recognized")
    for failed in (email, email_again):
        fix = found[failed.tool_use_id]
        assert (fix.confirmed_by, fix.remedy) == (email_ok.tool_use_id, []), failed.tool_use_id
    # a step that ran a command which had failed with another error is still one
    init = call("PowerShell", command="git init", failed=True, at="2026-01-01T00:02:00Z")
    email = call(
        "PowerShell", command="git config user.email a@b.c", failed=True, at="2026-01-01T00:02:01Z"
    )
    init_ok = call("PowerShell", command="git init", at="2026-01-01T00:02:02Z")
    email_ok = call("PowerShell", command="git config user.email a@b.c", at="2026-01-01T00:02:03Z")
    other = "Exit code 128\nfatal: not a git repository (or any of the parent directories)"
    denied = "Exit code 1\nfatal: cannot mkdir .git: Permission denied"
    found = run(
        [init, email, init_ok, email_ok], {init.tool_use_id: denied, email.tool_use_id: other}
    )
    assert steps(found[email.tool_use_id]) == [(init_ok.tool_use_id, None)]


def test_a_codex_retry_outside_the_sandbox_says_so(tmp_path):
    """A Codex command the sandbox refused, run again with escalated permissions (0.5x's
    with_escalated_permissions, later sandbox_permissions = require_escalated): the card
    says so, where it showed the same command and no change."""
    conn = db.connect(tmp_path / "index.db")
    refused = "error: cannot open '.git/FETCH_HEAD': Operation not permitted"
    calls = [
        ("c1", {"command": ["bash", "-lc", "git fetch --all"]}, 1, refused),
        (
            "c2",
            {"command": ["bash", "-lc", "git fetch --all"], "with_escalated_permissions": True},
            0,
            "",
        ),
        ("c3", {"cmd": "git checkout -b x"}, 1, "fatal: cannot lock ref: Operation not permitted"),
        ("c4", {"cmd": "git checkout -b x", "sandbox_permissions": "require_escalated"}, 0, ""),
        ("c5", {"cmd": "make"}, 1, "make: *** Error 2"),
        ("c6", {"cmd": "make", "sandbox_permissions": "use_default"}, 0, "done"),
    ]
    for n, (tool_use_id, tool_input, error, content) in enumerate(calls):
        command = tool_input.get("cmd") or tool_input["command"][-1]
        kind = signatures.ERROR if error else None
        store_call(
            conn, n, tool_use_id, "shell", json.dumps(tool_input), content, kind, command=command
        )
    db.refresh_fixes(conn)
    found = {
        row[0]: (row[1], [step["change"] for step in json.loads(row[2])])
        for row in conn.execute("SELECT tool_use_id, confirmed_by, remedy FROM fixes")
    }
    assert found == {
        "c1": ("c2", [fixes.ESCALATED]),
        "c3": ("c4", [fixes.ESCALATED]),
        "c5": ("c6", []),
    }


def test_a_shell_look_of_a_file_not_there_is_worked_around_by_a_look_of_it_elsewhere():
    """`sed -n '1,60p' net/x.mk` of a file one folder deeper (its error names it), then a
    grep of net/pkg/x.mk: the file looked at where it is. A look of another file is not."""
    failed = call(
        command="cd /b; ls net/ | grep -i syslog; sed -n '1,60p' net/plugin_syslog.mk", failed=True
    )
    other = call(command="cd /b; grep -n DEPS net/ptp/plugin_ptp.mk")
    there = call(
        command="cd /b/net; ls plugin_syslog/; grep -n DEPS plugin_syslog/plugin_syslog.mk"
    )
    sed = "sed: can't read net/plugin_syslog.mk: No such file or directory"
    error = {failed.tool_use_id: f"Exit code 2\n{sed}"}
    fix = run([failed, other, there], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, there.tool_use_id)


def test_a_shell_look_of_a_file_not_there_is_redone_from_the_folder_a_later_cd_went_into():
    """Its path is read from the folder each call went into: `sed` of moxa/pkg/net/x.mk from
    /b, then a grep of x/x.mk from /b/moxa/pkg/net, keeps its folder (nu49's held-out set:
    "answered", the two paths taken as given from one folder). A grep of that name in
    another folder of /b is another file."""
    failed = call(command="cd /b; sed -n '1,60p' moxa/pkg/net/plugin_syslog.mk", failed=True)
    elsewhere = call(command="cd /b; grep -n DEPS other/dir/plugin_syslog.mk")
    there = call(command="cd /b/moxa/pkg/net; grep -n DEPS plugin_syslog/plugin_syslog.mk")
    error = {
        failed.tool_use_id: "Exit code 2\nsed: can't read moxa/pkg/net/plugin_syslog.mk: No"
        " such file or directory"
    }
    fix = run([failed, elsewhere, there], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, there.tool_use_id)
    assert run([failed, elsewhere], error)[failed.tool_use_id].outcome == fixes.ANSWERED


def test_a_search_the_shell_could_not_parse_found_nothing_and_its_requoted_run_fixed_it():
    """zsh exits 1 on a command it could not parse (`zsh:1: parse error near `)'`): an `rg`
    whose quotes broke ran no search, so its status is no "no match" and the same search
    with simpler quotes that ran is its fix (nu49's held-out set, a Codex session:
    "answered"). A search that did run and found nothing is still answered."""
    failed = call(command='rg -n "<\\.icon[^\\n]*name=\\"([^"]+)\\"" lib', failed=True)
    simpler = call(command='rg -n "<\\.icon" lib')
    error = {failed.tool_use_id: "Exit code 1\nzsh:1: parse error near `)'"}
    assert not fixes.found_nothing(failed.command, error[failed.tool_use_id])
    fix = run([failed, simpler], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, simpler.tool_use_id)
    assert fixes.found_nothing('rg -n "<\\.icon" lib', "Exit code 1\n")


def test_what_find_exec_runs_is_an_intent_of_its_own():
    """`find net -name x.mk -exec grep -n DEPS {} +` greps x.mk: refused by a wrapper (`rtk
    find does not support compound predicates`), it is retried by `grep -n DEPS pkg/x.mk`."""
    failed = call(
        command='find net -name "plugin_syslog.mk" -exec grep -n "DEPS" {} +', failed=True
    )
    grep = call(command="cd net; grep -n DEPS plugin_syslog/plugin_syslog.mk")
    error = {failed.tool_use_id: "Exit code 1\nrtk: rtk find does not support compound predicates"}
    fix = run([failed, grep], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, grep.tool_use_id)
    assert [i.program for i in fixes.intents("find . -name '*.py' -exec rm {} \\;")] == [
        "find",
        "rm",
    ]


def test_a_find_that_failed_printing_nothing_is_worked_around_by_a_glob_of_its_names():
    """find's non-zero status is an error, not "no match" (a grep's 1 is): a find that
    exited 2 printing nothing, then a Glob of its name in its folder, is worked around by
    that Glob; a Glob of the name elsewhere, or of another name, asks another question
    (seventh held-out set: 10 finds of one session)."""
    failed = call(command='find /h/.claude/agents -name "*dominik*" 2>/dev/null', failed=True)
    elsewhere = call("Glob", file_path="/h/p/.claude", pattern="**/*dominik*")
    other = call("Glob", file_path="/h/.claude/agents", pattern="**/*.json")
    glob = call("Glob", file_path="/h/.claude/agents", pattern="**/*dominik*")
    error = {failed.tool_use_id: "Exit code 2"}
    fix = run([failed, elsewhere, other, glob], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, glob.tool_use_id)
    # a name test's pattern itself, in a folder inside the find's, and an absolute pattern
    md = call(command='find /h/.claude -type f -name "*.md"', failed=True)
    inside = call("Glob", pattern="/h/.claude/agents/**/*.md")
    fix = run([md, inside], {md.tool_use_id: "Exit code 2"})[md.tool_use_id]
    assert fix.confirmed_by == inside.tool_use_id
    # a find piped to a grep has the grep's status: its 1 still found nothing
    piped = call(command='find /p -name "*.ts" | xargs grep -l "useTodos"', failed=True)
    named = call(command='find /p -name "*Filter*"')
    assert run([piped, named], {piped.tool_use_id: "Error"})[piped.tool_use_id].outcome == (
        fixes.ANSWERED
    )


def test_node_in_print_mode_only_looks():
    """`node -p "require('./node_modules/typescript/package.json').name"` asks an
    expression's value: between `ls -la node_modules/xlsx` (not there) and the same `ls`
    that found it, it is no step (thirty-third held-out set: the only step shown), and no
    work done next. `node -e` runs code that may change things."""
    failed = call("exec_command", command="ls -la node_modules/xlsx", failed=True)
    asked = call(
        "exec_command", command="node -p \"require('./node_modules/typescript/package.json').name\""
    )
    again = call("exec_command", command="ls -la node_modules/xlsx")
    error = {failed.tool_use_id: "ls: node_modules/xlsx: No such file or directory"}
    fix = run([failed, asked, again], error)[failed.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (again.tool_use_id, [])
    assert run([failed, asked], error)[failed.tool_use_id].others == []
    ran = call("exec_command", command="node -e \"require('fs').mkdirSync('node_modules/xlsx')\"")
    fix = run([failed, ran, again], error)[failed.tool_use_id]
    assert steps(fix) == [(ran.tool_use_id, None)]


def test_a_listing_of_a_pattern_that_failed_is_worked_around_by_a_glob_of_it():
    """cmd's `dir /s /b src\\*.js` run by Git Bash's `dir` (`cannot access '/s'`), then a
    Glob of `src/**/*.js`: the same files listed by another tool, worked around (thirty-third
    held-out set). A Glob of other files, or of that name in another folder, is another
    question."""
    failed = call(command='cd "c:\\code\\app" && dir /s /b src\\*.js', failed=True)
    other = call("Glob", pattern="src/**/*.tsx")
    elsewhere = call("Glob", pattern="lib/**/*.js")
    glob = call("Glob", pattern="src/**/*.js")
    error = {
        failed.tool_use_id: "dir: cannot access '/s': No such file or directory\n"
        "dir: cannot access 'src*.js': No such file or directory"
    }
    fix = run([failed, other, elsewhere, glob], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, glob.tool_use_id)
    listed = call(command="ls -la src/*.js", failed=True)
    said = {listed.tool_use_id: "ls: cannot access 'src/*.js': No such file or directory"}
    assert run([listed, elsewhere], said)[listed.tool_use_id].outcome == fixes.ANSWERED
    # a listing of a folder, no pattern: a Glob in it is no listing of it
    folder = call(command="ls src", failed=True)
    said = {folder.tool_use_id: "ls: cannot access 'src': No such file or directory"}
    assert run([folder, glob], said)[folder.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_search_of_a_path_not_there_is_worked_around_by_the_path_found_and_used():
    """`rg x arguments` said No such file; `ls -a` showed `.arguments`, and a script read
    `.arguments/a.json`: worked around, the listing that showed the name a step (seventh
    held-out set). An `ls` of a path not there asked whether it is there: another path's
    use is no fix of it."""
    failed = call("shell", command='rg "feature description" -n arguments', failed=True)
    plain = call("shell", command="ls")
    shown = call("shell", command="ls -a")
    used = call("shell", command="python - <<'PY'\nprint(open('.arguments/a.json').read())\nPY")
    error = {
        failed.tool_use_id: "Exit code 2\nrg: arguments: IO error for operation on arguments:"
        " No such file or directory (os error 2)"
    }
    outputs = {plain.tool_use_id: "LICENSE\n", shown.tool_use_id: ".\n..\n.arguments\nLICENSE\n"}
    fix = run([failed, plain, shown, used], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, used.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [shown.tool_use_id, used.tool_use_id]
    looked = call(command="ls /usr/lib/jvm/java-21/bin/javac", failed=True)
    other = call(command="JAVA_HOME=/h/.jdks/t21 /h/.jdks/t21/bin/javac Main.java")
    gone = {looked.tool_use_id: "ls: cannot access '/usr/lib/jvm/java-21/bin/javac': No such file"}
    assert run([looked, other], gone)[looked.tool_use_id].outcome == fixes.ANSWERED


def test_an_options_value_is_no_subcommand():
    """`javac -d out x.java`: `out` is -d's value, not a subcommand, so the compile run by a
    JDK's full path with another -d folder is its retry (seventh held-out set: javac not
    found, then `$JAVA_HOME/bin/javac -d /tmp/out`, was 'not fixed')."""
    failed = call(command="javac -d out src/kakuro/*.java 2>&1", failed=True)
    retry = call(command="export JAVA_HOME=/h/jdk && $JAVA_HOME/bin/javac -d /t/out /t/src/*.java")
    error = {failed.tool_use_id: "Exit code 127\n/bin/bash: line 1: javac: command not found"}
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    # a subcommand is still the first argument: `cargo build` is not `cargo test`
    assert fixes.intents("mytool build x y")[0].sub == "build"


def test_a_subcommand_of_a_noun_takes_its_verb():
    """`gh pr checks 108` exits 1 when a check failed: `gh pr view 108` or `gh pr close 108`
    is no retry of it (seventh held-out set: 2 CI failures never fixed were 'fixed' so);
    `gh pr review 12 --approve` refused, then `gh pr merge 12`, both acts on the PR, is
    worked around (fourth)."""
    failed = call(command="gh pr checks 108 --repo me/app", failed=True)
    view = call(command="gh pr view 108 --repo me/app --json baseRefName")
    close = call(command='gh pr close 108 --repo me/app --comment "wrong base"')
    error = {failed.tool_use_id: "Exit code 1\nUnit Tests\tfail\t51s\thttps://x"}
    assert run([failed, view, close], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="gh pr checks 108 --repo me/app")
    fix = run([failed, view, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    review = call(command="gh pr review 12 --approve", failed=True)
    merge = call(command="gh pr merge 12 --squash")
    refused = {review.tool_use_id: "Exit code 1\nfailed to create review: Can not approve"}
    fix = run([review, merge], refused)[review.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, merge.tool_use_id)


def test_a_listing_that_names_a_missing_file_found_where_it_is():
    """A Read of a file that does not exist, a listing of its folder, a Read of the folder's
    README, then a listing of its subfolders that prints the file's name: that listing found
    where the file went, not the README (seventh held-out set: 4 plans moved to completed/).
    When a Read of that name follows the listing, that Read is the other way (fifth)."""
    failed = call("Read", file_path="/p/docs/plans/PlanDec29.md", failed=True)
    folder = call(command="ls -la /p/docs/plans/")
    readme = call("Read", file_path="/p/docs/plans/README.md")
    sub = call(command="ls -la /p/docs/plans/completed/ && ls -la /p/docs/plans/in-progress/")
    outputs = {
        folder.tool_use_id: "completed\nin-progress\nREADME.md",
        sub.tool_use_id: ".rw-r--r--@  30k me 31 Dec 2025 PlanDec29.md\n",
    }
    error = {failed.tool_use_id: "<tool_use_error>File does not exist.</tool_use_error>"}
    fix = run([failed, folder, readme, sub], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, sub.tool_use_id)
    found = call("Read", file_path="/p/docs/plans/completed/PlanDec29.md")
    fix = run([failed, folder, readme, sub, found], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == found.tool_use_id
    # without a listing that names it, the README read after the search still is the way
    fix = run([failed, folder, readme], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == readme.tool_use_id


def test_a_glob_that_found_nothing_is_no_step_and_one_that_listed_the_file_is():
    """A Read of a file not there, a Glob of its name that found nothing, then a Glob of
    everything in the folder the user named, which printed the file, then its Read: the
    listing is the step, the empty search is not (seventh held-out set)."""
    failed = call("Read", file_path="/d/docs/ticket/wizards/upload.py", failed=True)
    none = call("Glob", pattern="**/upload.py")
    listing = call("Glob", file_path="/d/addons/ticket", pattern="**/*")
    read = call("Read", file_path="/d/addons/ticket/wizards/upload.py")
    outputs = {
        none.tool_use_id: "No files found",
        listing.tool_use_id: "/d/addons/ticket/models/a.py\n/d/addons/ticket/wizards/upload.py",
    }
    error = {failed.tool_use_id: "File does not exist."}
    fix = run([failed, none, listing, read], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, read.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [listing.tool_use_id, read.tool_use_id]


def test_a_question_the_user_declined_to_answer_is_not_retried_by_the_next():
    """AskUserQuestion rejected because the user wants to clarify: they talk, then the agent
    asks another question on the same subject. The first was answered in the chat, not
    fixed by the second (seventh held-out set, and the Claude labels). One the tool refused
    (a header too long) is still retried."""
    ask = '{"questions":[{"question":"How deep should traversal of object properties go?"}]}'
    again = '{"questions":[{"question":"How deep should traversal go, and its default?"}]}'
    failed = call("AskUserQuestion", input=ask, failed=True, kind="rejected")
    later = call("AskUserQuestion", input=again)
    error = {failed.tool_use_id: "The user doesn't want to proceed with this tool use. ..."}
    fix = run([failed, later], error)[failed.tool_use_id]
    assert fix.outcome == fixes.DECLINED
    refused = call("AskUserQuestion", input=ask, failed=True)
    long = {refused.tool_use_id: "params/questions/0/header must NOT have more than 16 characters"}
    assert run([refused, later], long)[refused.tool_use_id].outcome == fixes.FIXED


def test_a_version_or_help_call_is_no_retry_of_a_run():
    """`python3 -m pytest --version` says pytest is there; it runs no tests, so it confirms
    no test run (seventh held-out set: 4 pytest runs killed in the sandbox were 'fixed' by
    it). The run itself, again, is the retry; `--version` retries `--version`."""
    failed = call("shell", command="pytest tests/unit -q", failed=True)
    version = call("shell", command="python3 -m pytest --version")
    again = call("shell", command="python3 -m pytest tests/unit -q")
    error = {failed.tool_use_id: "failed in sandbox: sandbox error: command was killed by a signal"}
    fix = run([failed, version, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    asked = call("shell", command="pytest --version", failed=True)
    fix = run([asked, version], {asked.tool_use_id: "Exit code 127\npytest: not found"})
    assert fix[asked.tool_use_id].confirmed_by == version.tool_use_id


def test_a_nouns_verb_says_whether_it_looks():
    """`gh pr view 108` looks, `gh pr close 108` acts: of a subcommand that is a noun, its
    verb says which (the card of a log view the user stopped showed two `gh pr view` calls
    as steps: seventh held-out set)."""
    assert not fixes._changes_state(call(command="gh pr view 108 --json baseRefName"))
    assert not fixes._changes_state(call(command="gh run view 42 --log-failed"))
    assert fixes._changes_state(call(command='gh pr close 108 --comment "wrong base"'))


def test_an_output_filters_own_error_is_retried_by_that_filter():
    """`ss | awk '...' >> port.csv` failed in awk (its error names it): `ss` alone, or with
    another filter, did not fail and fixes nothing; a probe of one of the script's words
    neither; the same script on another source, into port.csv, works it around (seventh
    held-out set: 5 awk failures 'fixed' by `ss -tulpnH`)."""
    script = '\'{split($5,a,":"); port=a[2]; proc=$7; split(proc,"/",p); print port","proc}\''
    failed = call("shell", command=f"ss -tulpnH | awk {script} >> port.csv", failed=True)
    plain = call("shell", command="ss -tulpnH")
    probe = call("shell", command="ss -tulpnH | awk '{n=split($5,a,\":\"); print n}'")
    preview = call("shell", command=f"lsof -i -P -n | awk {script} | head")
    written = call("shell", command=f"lsof -i -P -n | awk {script} >> port.csv")
    error = {
        failed.tool_use_id: "Exit code 2\nawk: cmd. line:1: (FILENAME=- FNR=13) fatal: split:"
        " second argument is not an array"
    }
    fix = run([failed, plain, probe, preview, written], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, written.tool_use_id)
    assert run([failed, plain, probe], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_search_that_found_nothing_is_worked_around_by_another_searcher_that_found_it():
    """`rg --files -g '*.x.yaml'` skips hidden and ignored folders and exits 1; `find . -name
    '*.x.yaml'` then found the file (sixth held-out set: 2 Codex searches, worked around by
    their labels). Another program on the same words, printing what it found, is another
    way; on other words, or printing nothing, it is not."""
    failed = call("shell_command", command="rg --files -g '*.butler.yaml'", failed=True)
    find = call("shell_command", command="find . -name '*.butler.yaml'")
    error = {failed.tool_use_id: "Exit code 1"}
    found = {find.tool_use_id: "./.ai-clean/specs/a.butler.yaml\n"}
    fix = run([failed, find], error, found)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, find.tool_use_id)
    assert steps(fix) == [(find.tool_use_id, None)]
    assert run([failed, find], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    other = call("shell_command", command="find . -name '*.yaml'")
    assert (
        run([failed, other], error, {other.tool_use_id: "./a.yaml"})[failed.tool_use_id].outcome
        == fixes.ANSWERED
    )


def test_the_shells_startup_lines_do_not_reach_the_rules(tmp_path):
    """Codex 0.63 in a macOS sandbox prints Homebrew's `/bin/ps: Operation not permitted`
    before every output: an `rg` that found nothing printed more than its status, so it was
    no search that found nothing (sixth held-out set)."""
    ps = "/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted"
    conn = db.connect(tmp_path / "index.db")
    calls = [
        ("c1", "2026-01-01T00:00:01Z", "rg --files -g '*.butler.yaml'", 1, f"Exit code 1\n{ps}"),
        (
            "c2",
            "2026-01-01T00:00:02Z",
            "find . -name '*.butler.yaml'",
            0,
            f"{ps}\n./.a/x.butler.yaml\n",
        ),
        ("c3", "2026-01-01T00:00:03Z", "rg -n needle lib", 1, f"Exit code 1\n{ps}"),
        ("c4", "2026-01-01T00:00:04Z", "rg -n other lib", 0, f"{ps}\nlib/a.py:1: other"),
    ]
    for n, (tool_use_id, at, command, error, content) in enumerate(calls):
        conn.execute(
            "INSERT INTO tool_calls (tool_use_id, session_id, line_no, timestamp, name, command,"
            " input) VALUES (?, 's', ?, ?, 'shell_command', ?, ?)",
            [tool_use_id, n, at, command, json.dumps({"command": command})],
        )
        conn.execute(
            "INSERT INTO tool_results (tool_use_id, session_id, line_no, timestamp, is_error,"
            " content, kind) VALUES (?, 's', ?, ?, ?, ?, ?)",
            [tool_use_id, n, at, error, content, signatures.ERROR if error else None],
        )
    db.refresh_fixes(conn)
    found = dict(conn.execute("SELECT tool_use_id, outcome FROM fixes"))
    # the find is another way; another pattern is another question, not a retry
    assert found == {"c1": fixes.WORKED_AROUND, "c3": fixes.ANSWERED}


def test_a_subagents_edit_the_main_agent_made_after_it():
    """A subagent without a Write tool (Claude Code's statusline-setup) tried an Edit of a
    file that did not exist, and reported so; the main agent then wrote the file (sixth
    held-out set: 2 such Edits, fixed by their labels). Another call of the main thread does
    not confirm a subagent's failure: a test run again is the main agent's own."""
    edit = call("Edit", file_path="/h/.claude/settings.json", failed=True, sidechain=True)
    read = call("Read", file_path="/h/.zshrc", sidechain=True)
    write = call("Write", file_path="/h/.claude/settings.json")
    error = {edit.tool_use_id: "<tool_use_error>File does not exist.</tool_use_error>"}
    fix = run([edit, read, write], error)[edit.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, write.tool_use_id)
    other = call("Write", file_path="/h/.claude/other.json")
    assert run([edit, read, other], error)[edit.tool_use_id].outcome == fixes.NOT_FIXED
    tests = call(command="pytest -x", failed=True, agent_id="a1")
    again = call(command="pytest -x --tb=no")
    found = run([tests, again], {tests.tool_use_id: "FAILED test_a.py::test_x"})
    assert found[tests.tool_use_id].outcome == fixes.NOT_FIXED


def test_the_edits_of_a_subagent_the_main_agent_started_are_its_steps():
    """`npm start` failed; the main agent asked a Task to fix the imports, whose subagent
    read index.ts and edited it; the next `npm start` worked (sixteenth held-out set: 2
    failures whose cards showed no step). Claude Code 1.0's sidechain without an id and a
    later version's agent id alike. A subagent's calls after the main thread's next call
    (run in the background) are not the main thread's steps, nor those without a Task."""
    error = "Exit code 1\nTypeError: createLogger is not a function"
    for thread in ({"sidechain": True}, {"agent_id": "a1", "sidechain": True}):
        failed = call(command="npm start", failed=True)
        task = call("Task", input='{"description": "Fix logger imports"}')
        read = call("Read", file_path="/p/index.ts", **thread)
        edit = call("Edit", file_path="/p/index.ts", **thread)
        retry = call(command="npm start")
        fix = run([failed, task, read, edit, retry], {failed.tool_use_id: error})
        assert fix[failed.tool_use_id].confirmed_by == retry.tool_use_id
        assert [s for s, _ in steps(fix[failed.tool_use_id])] == [edit.tool_use_id]
    look = call(command="git status")
    later = call("Edit", file_path="/p/index.ts", sidechain=True)
    for calls in ([failed, task, look, later, retry], [failed, look, read, edit, retry]):
        fix = run(calls, {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.confirmed_by == retry.tool_use_id
        assert steps(fix) == []


def test_a_chain_that_exited_2_before_its_search_did_not_find_nothing():
    """`ls /mnt/c/Users/a/ 2>/dev/null && find /mnt/c/Users/a -maxdepth 3 -name Dockerfile |
    head -20` in Git Bash, where the WSL path is not there: exit 2, ls's, printed nothing.
    No search that found nothing exits 2 (a matcher's "no match" is 1), so it is no search
    retried only as it was: an Agent call, with no result in the main file, whose subagent
    ran `find "C:/Users/a" ...`, which found the folders, got past it (thirty-fourth held-out
    set, labelled worked around: the card said not fixed). A grep that exited 1 found
    nothing, and the find of other names is still another question."""
    command = (
        "ls /mnt/c/Users/a/ 2>/dev/null && find /mnt/c/Users/a -maxdepth 3"
        ' -name "Dockerfile" 2>/dev/null | head -20'
    )
    failed = call(command=command, failed=True)
    agent = call("Agent", failed=True)  # (its result not in the main file)
    find = call(
        command='find "C:/Users/a" -maxdepth 3 -name "Dockerfile" 2>/dev/null',
        agent_id="a1",
        sidechain=True,
    )
    outputs = {find.tool_use_id: "C:/Users/a/dev/app/Dockerfile"}
    fix = run([failed, agent, find], {failed.tool_use_id: "Exit code 2"}, outputs)
    assert fix[failed.tool_use_id].confirmed_by == find.tool_use_id
    grep = call(command="ls src && grep -rn Dockerfile src", failed=True)
    other = call(command="grep -rn Containerfile src")
    outputs = {other.tool_use_id: "src/a.sh:1:Containerfile"}
    fix = run([grep, other], {grep.tool_use_id: "Exit code 1"}, outputs)
    assert fix[grep.tool_use_id].outcome == fixes.ANSWERED


def test_a_look_of_a_path_not_there_is_retried_only_by_a_look_of_that_name():
    """`sed -n '1,200p' a/quickfix.py`: No such file; `ls a`, then `sed -n '1,200p'
    a/docstrings.py` shares the sed's script, not its question: another file (sixth held-out
    set: not a problem, as a Read of a missing file, then a Read of another, is no retry).
    zsh's `no matches found: app/favicon*`, then `ls -la public/` of the same command,
    likewise. The same name at another path, or a path that lost its slash, is one."""
    error = "Exit code 1\nsed: a/quickfix.py: No such file or directory"
    failed = call("shell_command", command="sed -n '1,200p' a/quickfix.py", failed=True)
    ls = call("shell_command", command="ls a")
    other = call("shell_command", command="sed -n '1,200p' a/docstrings.py")
    found = run([failed, ls, other], {failed.tool_use_id: error})
    assert found[failed.tool_use_id].outcome == fixes.ANSWERED
    there = call("shell_command", command="sed -n '1,200p' a/b/quickfix.py")
    fix = run([failed, ls, there], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, there.tool_use_id)
    glob = call(command="ls /p/public/ 2>/dev/null; ls /p/app/favicon* 2>/dev/null", failed=True)
    listed = call(command="ls -la /p/public/")
    zsh = {glob.tool_use_id: "Exit code 1\n(eval):1: no matches found: /p/app/favicon*"}
    assert run([glob, listed], zsh)[glob.tool_use_id].outcome == fixes.ANSWERED
    typo = call(command="sed -n '1,200p' docsOrchestratorArchitecture.md", failed=True)
    right = call(command="sed -n '1,200p' docs/OrchestratorArchitecture.md")
    lost = {
        typo.tool_use_id: "Exit code 2\nsed: can't read docsOrchestratorArchitecture.md: No such"
    }
    assert run([typo, right], lost)[typo.tool_use_id].outcome == fixes.FIXED


def test_a_look_of_a_glob_no_file_matched_is_retried_by_a_look_of_what_it_kept():
    """`sed -n '150,320p' specs/001-build-a-a???` (no file matched, so sed got the `?`s),
    then the same sed of specs/001-build-a-web/data-model.md (thirty-ninth held-out set, a
    Codex user, fixed): the glob kept `001-build-a-` of the name. A look whose path starts
    otherwise is of another file, and a glob that kept less than a word says nothing."""
    error = "Exit code 2\nsed: can't read specs/001-build-a-a???: No such file or directory"
    failed = call("shell", command="sed -n '150,320p' specs/001-build-a-a???", failed=True)
    right = call("shell", command="sed -n '150,320p' specs/001-build-a-web/data-model.md")
    fix = run([failed, right], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, right.tool_use_id)
    other = call("shell", command="sed -n '150,320p' specs/002-payments/data-model.md")
    assert run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id].outcome == (
        fixes.ANSWERED
    )
    short = call("shell", command="sed -n '1,80p' src/a?.ts", failed=True)
    guess = call("shell", command="sed -n '1,80p' src/api.ts")
    said = {short.tool_use_id: "Exit code 2\nsed: can't read src/a?.ts: No such file or directory"}
    assert run([short, guess], said)[short.tool_use_id].outcome == fixes.ANSWERED


def test_a_look_of_a_name_not_there_is_not_retried_by_that_name_in_a_folder_apart():
    """`ls .../food-service && rg ... && sed -n '1,200p' .../food-service/page.tsx`, the
    page not there, then a sed of `.../wholesaler/hq/sales-order/page.tsx`: a route's
    `page.tsx` is in every route's folder, and that one is another page (thirty-ninth
    held-out set, a Codex user: not a problem; the card had it fixed), and so is the app's
    own `page.tsx` above it. The name in a folder below the failed one's, or one that ends
    as it does, is the file meant, found."""
    app = "modules/frontend/src/app"
    failed = call(
        "shell",
        command=f"ls -la {app}/food-service && rg -n '^export default' {app}/food-service -S"
        f" && sed -n '1,200p' {app}/food-service/page.tsx",
        failed=True,
    )
    missing = f"sed: {app}/food-service/page.tsx: No such file or directory"
    error = {failed.tool_use_id: f"Exit code 1\n{missing}"}
    listed = call("shell", command=f"ls -la {app}/wholesaler")
    apart = call("shell", command=f"sed -n '1,240p' {app}/wholesaler/hq/sales-order/page.tsx")
    assert run([failed, listed, apart], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    above = call("shell", command=f"sed -n '1,200p' {app}/page.tsx")
    assert run([failed, above], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    for path in (f"{app}/food-service/hq/page.tsx", "web/src/app/food-service/page.tsx"):
        below = call("shell", command=f"sed -n '1,240p' {path}")
        fix = run([failed, listed, below], error)[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, below.tool_use_id)


@pytest.mark.parametrize(
    "script, error",
    [
        (
            "ruby -e \"require 'yaml'; d = YAML.load_file('out/status.yaml'); puts d.size\"",
            "Exit code 127\n/bin/bash: line 1: ruby: command not found",
        ),
        (
            "node -e \"const y=require('yaml'); const fs=require('fs');"
            " console.log(y.parse(fs.readFileSync('out/status.yaml','utf8')))\"",
            "Exit code 1\nError: Cannot find module 'yaml'\nRequire stack:\n- /p/[eval]",
        ),
    ],
)
def test_inline_code_that_could_not_run_is_worked_around_by_a_look_of_its_file(script, error):
    """A check of a generated YAML file by `ruby -e` (ruby not there) or `node -e` (its
    `yaml` module not there), then `rg '^  epic-' out/status.yaml | wc -l`: another program
    on the file the code was to read (thirty-ninth held-out set, a Codex user, both worked
    around). Code that writes the file is not done by a look of it; a look of another file
    is none."""
    failed = call("exec_command", command=script, failed=True)
    count = call("exec_command", command="rg '^  epic-[0-9]+: ' out/status.yaml | wc -l")
    errors = {failed.tool_use_id: error}
    fix = run([failed, count], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, count.tool_use_id)
    other = call("exec_command", command="rg '^## Epic' out/epics.md | wc -l")
    assert run([failed, other], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    ruby_writes = script.replace("puts d.size", "File.write('out/status.yaml', d.to_yaml)")
    writing = ruby_writes.replace("console.log(", "fs.writeFileSync('out/status.yaml', ")
    writes = call("exec_command", command=writing, failed=True)
    errors = {writes.tool_use_id: error}
    assert run([writes, count], errors)[writes.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_renamed_file_found_by_a_glob_of_its_folders_is_worked_around():
    """A Read of tests/adapters/test_boost_runner.py, which the user had renamed; a Glob of
    `tests/**/*.py` listed test_xgboost_runner.py there, which was read (sixth held-out set).
    The `**` searched the folder: the Glob is a step, the Read in that folder confirms. A
    Glob whose `**` lies under another folder searched not that one."""
    failed = call("Read", file_path="/p/tests/adapters/test_boost_runner.py", failed=True)
    glob = call("Glob", pattern="tests/**/*.py")
    read = call("Read", file_path="/p/tests/adapters/test_xgboost_runner.py")
    error = {failed.tool_use_id: "File does not exist."}
    fix = run([failed, glob, read], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, read.tool_use_id)
    assert [s[0] for s in steps(fix)] == [glob.tool_use_id, read.tool_use_id]
    elsewhere = call("Glob", pattern="src/**/*.py")
    fix = run([failed, elsewhere, read], error)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_missing_program_installed_is_fixed_by_the_install():
    """`gh auth status`: command not found; the user said "brew install gh" and the agent
    ran it, and never ran gh again (sixth held-out set, fixed by its label): the install is
    the step. An install of something else is not."""
    failed = call(command="gh auth status 2>&1", failed=True)
    install = call(command="brew install gh")
    error = {failed.tool_use_id: "Exit code 127\n(eval):1: command not found: gh"}
    fix = run([failed, install], error, prompts=["2026-01-01T00:00:00.5Z"])[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, install.tool_use_id)
    assert steps(fix) == [(install.tool_use_id, None)]
    other = call(command="sudo apt-get install -y jq")
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    apt = call(command="sudo apt-get install -y gh")
    assert run([failed, apt], error)[failed.tool_use_id].outcome == fixes.FIXED


@pytest.mark.parametrize("said", ["gh not found", "which: no gh in (/usr/bin:/bin)", "Exit code 1"])
def test_a_program_which_did_not_find_is_fixed_by_its_install(said):
    """`which gh && gh pr create --fill` failed ("gh not found"), then `brew install gh`, and gh
    was never run again: the install is the step, as after a shell's `command not found`.
    A `which` whose error is another's is no such check."""
    failed = call(command="which gh && gh pr create --fill", failed=True)
    install = call(command="brew install gh")
    error = {failed.tool_use_id: f"Exit code 1\n{said}" if said[0] != "E" else said}
    fix = run([failed, install], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, install.tool_use_id)
    assert steps(fix) == [(install.tool_use_id, None)]
    other = {failed.tool_use_id: "Exit code 1\nerror: unknown flag --fill"}
    assert run([failed, install], other)[failed.tool_use_id].outcome == fixes.NOT_FIXED


@pytest.mark.parametrize(
    "probe", ["gh --version", "which gh && gh --version", "command -v gh", "type gh"]
)
def test_a_probe_for_a_program_not_there_is_not_fixed_by_its_install(probe):
    """`gh --version`: `gh: command not found`, then the apt source added and `sudo apt
    install gh -y`, gh never run again (thirty-sixth held-out set; `which gh && gh
    --version`, then `brew install gh`: thirty-fourth; both not a problem by their labels):
    a probe that only asked whether the program is there got its answer, and the install
    is the next goal, not its fix. Run again after the install, the probe is fixed by it."""
    failed = call(command=probe, failed=True)
    install = call(command="sudo apt install gh -y")
    error = {failed.tool_use_id: "/bin/bash: gh: command not found"}
    fix = run([failed, install], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.ANSWERED, None)
    assert fix.others == [install.tool_use_id]
    again = call(command=probe)
    fix = run([failed, install, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix) == [(install.tool_use_id, None)]


def test_looks_beside_a_probe_that_failed_are_no_retry_of_it():
    """`pacman -Qq | grep -i hypr; which hyprshot` printed the packages and `hyprshot not
    found`, exit 1: the probe's answer, and the next package search (`pacman -Qq | grep -i
    shot`) asks another question (thirty-eighth held-out set, not a problem, "fixed" by
    it). The probe run again, once the program is there, is its retry; beside a key line
    that names no program probed, the look may be what failed."""
    failed = call(command="pacman -Qq | grep -i hypr; which hyprshot 2>/dev/null", failed=True)
    look = call(command="pacman -Qq | grep -i shot; ls /usr/bin/ | grep -i 'hypr|shot'")
    error = {failed.tool_use_id: "Exit code 1\nhyprland\nhyprlock\nhyprshot not found"}
    fix = run([failed, look], error, {look.tool_use_id: "hyprctl"})[failed.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    again = call(command="which hyprshot")
    fix = run([failed, look, again], error, {again.tool_use_id: "/usr/bin/hyprshot"})
    assert fix[failed.tool_use_id].confirmed_by == again.tool_use_id
    other = {failed.tool_use_id: "Exit code 1\nerror: could not open database"}
    fix = run([failed, look], other, {look.tool_use_id: "hyprctl"})[failed.tool_use_id]
    assert fix.confirmed_by == look.tool_use_id


def test_a_page_a_fetch_could_not_read_is_got_by_curl_or_gh():
    """WebFetch of a private repository's pull request is a 404; `gh pr view 6621` read it
    (eleventh held-out set): worked around, and the card says the tool changed. `curl` of
    the same page is another way too; `gh` of another number, or an echo of the page, is
    not."""
    url = "https://github.com/acme/web/pull/6621"
    failed = call("WebFetch", url=url, failed=True, input=f'{{"url": "{url}"}}')
    error = {failed.tool_use_id: "Request failed with status code 404"}
    for way in ("gh pr view 6621 --repo acme/web", f"curl -sL {url}/"):
        later = call(command=way)
        fix = run([failed, later], error)[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, later.tool_use_id)
        assert steps(fix) == [(later.tool_use_id, "WebFetch → Bash")]
    for other in ("gh pr view 6622", f"echo {url}"):
        later = call(command=other)
        assert run([failed, later], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_file_tool_given_a_url_is_retried_on_the_saved_page():
    """A Grep of `https://code.claude.com/docs/en/` (`Path does not exist: https://...`),
    then the same Grep of the tool-results file that kept a WebFetch of a page of that site
    (fortieth held-out set, fixed): the retry, its target a page's local copy. So is one of
    a file `curl -o` saved after the failure. A file that holds another site's page, or one
    no fetch wrote, is not."""
    home = "/home/me/.claude/projects/-home-me/s1/tool-results"
    fetch = call("WebFetch", url="https://code.claude.com/docs/en/claude-directory.md")
    failed = call(
        "Grep", file_path="https://code.claude.com/docs/en/", pattern="JSONL", failed=True
    )
    error = {failed.tool_use_id: "Path does not exist: https://code.claude.com/docs/en/."}
    saved = call("Grep", file_path=f"{home}/{fetch.tool_use_id}.txt", pattern="session|JSONL")
    fix = run([fetch, failed, saved], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, saved.tool_use_id)

    curl = call(command="curl -sL -o docs.html https://code.claude.com/docs/en/overview")
    grep = call("Grep", file_path="/home/me/docs.html", pattern="JSONL")
    fix = run([failed, curl, grep], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, grep.tool_use_id)

    other = call("WebFetch", url="https://docs.example.com/en/overview")
    for later in (
        [other, call("Grep", file_path=f"{home}/{other.tool_use_id}.txt", pattern="JSONL")],
        [call("Grep", file_path=f"{home}/t999.txt", pattern="JSONL")],
        [call("Grep", file_path="/home/me/notes.md", pattern="JSONL")],
    ):
        assert run([fetch, failed, *later], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_page_refused_then_searched_for_is_worked_around():
    """WebFetch of a journal's page is a 403; a web search for the paper it was to verify
    (its author and journal) did it (twelfth held-out set, twice). A search of the site's
    name made at the same moment, in parallel, answers nothing it asked."""
    page = json.dumps(
        {
            "url": "https://academic.oup.com/pnasnexus/article/3/12/pgae533",
            "prompt": "Verify the Salecha et al. (2024) PNAS Nexus paper on social desirability",
        }
    )
    failed = call("WebFetch", url="https://academic.oup.com/x", failed=True, input=page)
    error = {failed.tool_use_id: "Request failed with status code 403"}
    search = call(
        "WebSearch", input='{"query": "Salecha et al 2024 PNAS Nexus social desirability"}'
    )
    fix = run([failed, search], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, search.tool_use_id)
    assert [(s.change, s.target) for s in fix.remedy] == [
        ("WebFetch → WebSearch", "Salecha et al 2024 PNAS Nexus social desirability")
    ]
    site = call("WebSearch", input='{"query": "oup academic pnasnexus article list"}')
    assert run([failed, site], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_script_a_windows_shell_runs_is_its_commands():
    """From Git Bash `taskkill /F /IM chrome.exe` fails (`/F` is made a path, `F:/`);
    `cmd.exe //c "taskkill /F /IM chrome.exe"` runs it as Windows reads it (eleventh
    held-out set): the retry, changed by the shell."""
    assert [i.program for i in fixes.intents('cmd.exe //c "taskkill /F /IM chrome.exe"')] == [
        "taskkill"
    ]
    assert [i.program for i in fixes.intents('pwsh -Command "npm test"')] == ["npm"]
    failed = call(command="taskkill /F /IM chrome.exe 2>&1", failed=True)
    retry = call(command='cmd.exe //c "taskkill /F /IM chrome.exe"')
    error = {failed.tool_use_id: "Exit code 1\nERROR: Invalid argument/option - 'F:/'."}
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(retry.tool_use_id, "+cmd.exe +//c")]


def test_a_first_argument_taken_for_a_subcommand_is_still_that_word():
    """`devbox shell --command "..."` takes `shell` for a subcommand (more words follow);
    `devbox shell` alone, for an argument: the same command (eleventh held-out set, the
    flag dropped after `rm -rf .devbox`). `devbox run echo` is another subcommand."""
    failed = call(command='timeout 30 devbox shell --command "echo works"', failed=True)
    error = {failed.tool_use_id: "Exit code 1\nError: unknown flag: --command"}
    other = call(command="devbox run echo works")
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    retry = call(command="devbox shell")
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)


@pytest.mark.parametrize(
    ("command", "programs"),
    [
        ("# Step 2: kill the workers\npkill -9 -f train.py\necho done", ["pkill", "echo"]),
        ('echo "a # b" # a comment\nls', ["echo", "ls"]),
        ("# don't: an apostrophe in a comment\nls x", ["ls"]),
        ("echo $# ${#x} a#b https://x.io/#part", ["echo"]),
        ('git commit -m "fix #12"', ["git"]),
    ],
)
def test_a_comment_is_no_command(command, programs):
    assert [i.program for i in fixes.intents(command)] == programs


def test_two_scripts_labelled_alike_are_not_one_command():
    """`# Step 2: ...` then `pkill ...` exited 1; `# Step 3: ...` then `nvidia-smi` shared
    the word "Step" of their comments and was its retry (eleventh held-out set, not a
    problem)."""
    failed = call(
        command="# Step 2: Kill all child processes (torchrun, workers)\n"
        'pkill -9 -f "train.py.*w4" 2>/dev/null\npkill -9 -f torchrun 2>/dev/null\n'
        'echo "Killed child processes"',
        failed=True,
    )
    check = call(command="# Step 3: Wait and check GPU\nsleep 5 && nvidia-smi 2>/dev/null")
    printed = {check.tool_use_id: "41773"}
    fix = run([failed, check], {failed.tool_use_id: "Exit code 1"}, printed)[failed.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX


def test_a_changed_retry_that_got_past_the_error_is_its_step():
    """`pnpm eslint x.vue` failed on formatting and `curly`; `pnpm eslint --fix x.vue` fixed
    the formatting and failed on `curly` alone; edits; `pnpm eslint x.vue` as it was
    passed (eleventh held-out set: the card had no step). `--fix` got past this error."""
    lint = "pnpm eslint src/a.vue"
    failed = call(command=lint, failed=True)
    fixed = call(command=lint.replace("eslint", "eslint --fix"), failed=True)
    edit = call("Edit", file_path="/p/src/a.vue")
    again = call(command=lint)
    errors = {
        failed.tool_use_id: "Exit code 1\n/p/src/a.vue\n  3:1  error  Delete `·` prettier/prettier",
        fixed.tool_use_id: "Exit code 1\n/p/src/a.vue\n  9:5  error  Expected { after 'if'  curly",
    }
    fix = run([failed, fixed, edit, again], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix) == [(fixed.tool_use_id, "+--fix")]
    # the `curly` failure: the edit
    assert steps(run([failed, fixed, edit, again], errors)[fixed.tool_use_id])[0] == (
        edit.tool_use_id,
        None,
    )


def test_a_missing_module_installed_is_fixed_by_the_install():
    """`python3 -c "import docx"`: No module named 'docx'; `pip install python-docx | tail
    -5`, refused (PEP 668) but exit 0 from tail; then `... --break-system-packages | tail
    -5`; the import never run again (ninth held-out set): fixed by the install, the last of
    two whose status is tail's. A module of a path (`./util`) names no package."""
    failed = call(command='python3 -c "import docx" 2>&1', failed=True)
    refused = call(command="pip install python-docx 2>&1 | tail -5")
    done = call(command="pip install python-docx --break-system-packages 2>&1 | tail -5")
    error = {failed.tool_use_id: "Exit code 1\nModuleNotFoundError: No module named 'docx'"}
    fix = run([failed, refused, done], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, done.tool_use_id)
    node = call(command="node scripts/a.mjs", failed=True)
    add = call(command="npm install playwright")
    error = {node.tool_use_id: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'playwright'"}
    assert run([node, add], error)[node.tool_use_id].confirmed_by == add.tool_use_id
    error = {node.tool_use_id: "Error: Cannot find module './util'"}
    assert run([node, add], error)[node.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_silent_failure_is_not_confirmed_by_a_silent_pipe():
    """A find that exited 2 printing nothing, run again through `| head`, printing nothing:
    the status is head's, and nothing says find worked (seventh held-out set). A pipe that
    printed what it found confirms it."""
    failed = call(command='find /h/.claude -name "*mck*" 2>/dev/null', failed=True)
    silent = call(command='find /h -name "*mck*" 2>/dev/null | head -20')
    error = {failed.tool_use_id: "Exit code 2"}
    assert run([failed, silent], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    fix = run([failed, silent], error, {silent.tool_use_id: "/h/a/mck.md"})[failed.tool_use_id]
    assert fix.confirmed_by == silent.tool_use_id


@pytest.mark.parametrize(
    "between",
    [
        "npm login --registry https://registry.npmjs.org",
        "npm i lodash",
        "npm ci",
        "yarn add lodash",
        "pnpm add -D lodash",
        "npm rebuild better-sqlite3",
        "npm cache clean --force",
        "npm config set registry https://registry.npmjs.org",
        "npm audit fix",
    ],
)
def test_a_package_managers_own_subcommand_changes_state(between):
    """`npm publish` refused (401), `npm login`, the publish passing: the login is the remedy,
    as an install (`npm i`, `yarn add`), a rebuild or a config change is; the package
    managers' subcommands were all taken for scripts, which check."""
    failed = call(command="npm publish", failed=True)
    step = call(command=between)
    retry = call(command="npm publish")
    error = {failed.tool_use_id: "npm ERR! code E401\nnpm ERR! 401 Unauthorized - PUT"}
    fix = run([failed, step, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(step.tool_use_id, None)]


@pytest.mark.parametrize(
    "between", ["npm run lint", "npm test", "npm run link", "npm config get registry", "npm ls"]
)
def test_a_script_a_package_manager_runs_checks(between):
    failed = call(command="npm publish", failed=True)
    step = call(command=between)
    retry = call(command="npm publish")
    error = {failed.tool_use_id: "npm ERR! code E401\nnpm ERR! 401 Unauthorized - PUT"}
    fix = run([failed, step, retry], error)[failed.tool_use_id]
    assert steps(fix) == [] and fix.others == [step.tool_use_id]


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("sudo -u postgres /usr/lib/postgresql/17/bin/initdb -D /srv/pg", "initdb"),
        ("sudo -iu postgres psql -c 'select 1'", "psql"),
        ("sudo apt-get install -y libpq-dev", "apt-get"),
        ("timeout -s KILL 30 pytest -x", "pytest"),
        ("nice -n 5 make", "make"),
        ("nice -n5 make", "make"),
        ("xargs -I {} cp {} /tmp/out", "cp"),
        ("env -u DEBUG npm test", "npm"),
        ("doas -u www git pull", "git"),
    ],
)
def test_a_wrappers_option_takes_its_value(command, program):
    """`sudo -u postgres initdb` runs initdb, as postgres: the user was taken for the
    program, so `initdb` run without sudo after a chown was no retry of it (ninth held-out
    set, labelled fixed by that chown and initdb, shown as not fixed)."""
    assert [i.program for i in fixes.intents(command)] == [program]


def test_a_command_run_as_another_user_is_retried_without_it():
    initdb = "/usr/lib/postgresql/17/bin/initdb -D /home/me/db/data --auth-local trust"
    failed = call(command=f"sudo -u postgres {initdb}", failed=True)
    chown = call(command="sudo chown -R me:me /home/me/db/data")
    retry = call(command=initdb)
    error = 'initdb: error: could not access directory "/home/me/db/data": Permission denied'
    fix = run([failed, chown, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED and fix.confirmed_by == retry.tool_use_id
    assert {s for s, _ in steps(fix)} == {chown.tool_use_id, retry.tool_use_id}


@pytest.mark.parametrize(
    ("failed_path", "retried_path"),
    [
        (
            'C:\\vault\\"2021-11-03 - Terminal launch failures.md"',
            "C:\\vault\\2021-11-03 - Terminal launch failures.md",
        ),
        ("'/home/me/notes/a b.md'", "/home/me/notes/a b.md"),
        ('/home/me/"my docs"/a.md', "/home/me/my docs/a.md"),
        ("c:\\Users\\me\\a.md", "C:\\Users\\me\\a.md"),
    ],
)
def test_a_read_of_the_same_file_without_quotes_or_in_another_case_on_windows_is_a_retry(
    failed_path, retried_path
):
    """A path quoted as a shell would take it, given to a tool that takes it as it is:
    "File does not exist", then the Read of the path without the quotes (ninth held-out
    set). On Windows the drive's paths are the same in any case."""
    failed = call("Read", file_path=failed_path, failed=True)
    look = call("Glob", pattern="*Terminal*")
    retry = call("Read", file_path=retried_path)
    fix = run([failed, look, retry], {failed.tool_use_id: "File does not exist."})
    assert fix[failed.tool_use_id].confirmed_by == retry.tool_use_id


def test_a_file_of_another_case_on_linux_is_another_file():
    failed = call("Read", file_path="/home/me/README.md", failed=True)
    other = call("Read", file_path="/home/me/readme.md")
    assert not fixes._retry(failed, other)
    assert fixes._same_file("/srv/'a'/b", "/srv/a/b") and not fixes._same_file("/a/b", None)


@pytest.mark.parametrize(
    "command",
    [
        'git mv "!/README 1.md" "!/SWARM-LOOP.md"',
        "cp templates/loop.md notes/SWARM-LOOP.md",
        "python3 gen.py > notes/SWARM-LOOP.md",
    ],
)
def test_a_file_the_shell_could_not_make_made_by_the_edit_tool_is_worked_around(command):
    """A copy, a move or a redirection that failed, then the Write of the file it was to
    make: another way to the same file (four `git mv` of a Git Bash path that turned into
    another, ninth held-out set). A Write of another file is not."""
    failed = call(command=command, failed=True)
    other = call("Write", file_path="/home/me/vault/notes/OTHER.md")
    write = call("Write", file_path="c:\\Users\\me\\vault\\notes\\SWARM-LOOP.md")
    error = "fatal: bad source, source=!C:/Program Files/Git/README 1.md"
    fix = run([failed, other, write], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.WORKED_AROUND and fix.confirmed_by == write.tool_use_id
    assert fixes._files_of(failed, written=True) == {"SWARM-LOOP.md"}
    assert fixes._files_of(call(command="git mv -f a.md"), written=True) == {"a.md"}


def test_powershells_looking_cmdlets_are_looks():
    """`Get-Item`, `Test-Path`, `Select-Object` (any case) only look, as `ls` does; `Out-File`,
    `New-Item` and `Invoke-WebRequest` act. A download that timed out, then a `Get-Item` of
    its file: the look at the chain's end was taken for its work, and the `Get-Item` for its
    retry (ninth held-out set, Codex on Windows)."""
    for name in ("Get-Item", "get-childitem", "Test-Path", "Select-Object", "Out-Null"):
        assert name in fixes.LOOK
    for name in ("Out-File", "New-Item", "Invoke-WebRequest", "Remove-Item", "Get", "get-"):
        assert name not in fixes.LOOK
    download = (
        "New-Item -ItemType Directory -Force -Path 'tmp' | Out-Null;"
        " Invoke-WebRequest -Uri 'https://example.com/App.exe' -OutFile 'tmp\\App.exe';"
        " Get-Item 'tmp\\App.exe' | Select-Object FullName, Length"
    )
    failed = call("shell_command", command=download, failed=True)
    look = call("shell_command", command="Get-Item 'tmp\\App.exe' -ErrorAction SilentlyContinue")
    error = "Exit code 124\ncommand timed out after 120034 milliseconds"
    fix = run([failed, look], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX


def test_a_retry_that_left_out_what_the_error_named_is_no_fix_when_it_is_done_later():
    """`git add` of a tracked file under an ignored folder, refused; the same add and commit
    without it; then `git add -f` of it and `commit --amend`: the goal was to commit it, and
    the `-f` leads the card, the retry that left it out a step (the real corpus, three
    sessions; the card said `changed: -priv/static/assets/x.css`: a new user's try). Never
    added after all, leaving it out was the fix; a file the key line does not name (one of
    three a linter checked) is left out as a change of the retry."""
    failed = call(
        command="git add lib/a.ex priv/static/assets/x.css test/a_test.exs && git commit -m 'feat'",
        failed=True,
    )
    without = call(command="git add lib/a.ex test/a_test.exs && git commit -m 'feat'")
    look = call(command="git ls-files priv/static/assets/x.css")
    forced = call(command="git add -f priv/static/assets/x.css && git commit --amend --no-edit")
    error = {
        failed.tool_use_id: "Exit code 1\nThe following paths are ignored by one of your"
        " .gitignore files:\npriv/static/assets\nhint: Use -f if you really want to add them."
    }
    fix = run([failed, without, look, forced], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, forced.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [forced.tool_use_id, without.tool_use_id]
    fix = run([failed, without, look], error)[failed.tool_use_id]
    assert steps(fix) == [(without.tool_use_id, "-priv/static/assets/x.css")]
    lint = call(command="mix credo --strict lib/a.ex lib/b.ex", failed=True)
    one = call(command="mix credo --strict lib/a.ex")
    other = call(command="mix credo --strict lib/b.ex")
    found = {lint.tool_use_id: "Exit code 2\n[D] Nested modules could be aliased. lib/a.ex:135:5"}
    assert run([lint, one, other], found)[lint.tool_use_id].confirmed_by == one.tool_use_id


def test_a_changed_retry_that_split_the_work_says_what_changed_of_it_not_what_moved():
    """`git add` of files, one of them under an ignored folder, refused: the files added
    by the retry the error's file was left out of, or by a `git add` beside the `-f` in the
    fixing call, were not taken out. The card said `changed: -lib/a.ex -test/a_test.exs
    +-f` (the real corpus, three sessions; a new user's try): only the `-f` changed."""
    files = "lib/a.ex priv/static/assets/x.css test/a_test.exs"
    error = "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\n"
    error += "priv/static/assets\nhint: Use -f if you really want to add them."
    failed = call(command=f"git add {files} && git commit -m 'feat'", failed=True)
    without = call(command="git add lib/a.ex test/a_test.exs && git commit -m 'feat'")
    forced = call(command="git add -f priv/static/assets/x.css && git commit --amend --no-edit")
    fix = run([failed, without, forced], {failed.tool_use_id: error})[failed.tool_use_id]
    assert steps(fix) == [
        (forced.tool_use_id, "+-f; then git commit --amend --no-edit"),
        (without.tool_use_id, None),
    ]
    failed = call(command=f"git add {files} && git commit -m 'feat'", failed=True)
    both = call(
        command="git add -f priv/static/assets/x.css && git add lib/a.ex test/a_test.exs"
        " && git commit -m 'feat'"
    )
    fix = run([failed, both], {failed.tool_use_id: error})[failed.tool_use_id]
    assert steps(fix) == [(both.tool_use_id, "+-f")]
    # a file left out for good is still taken out, and a command that adds another is shown
    failed = call(command=f"git add {files}", failed=True)
    other = call(command="git add -f priv/static/assets/x.css && git add lib/a.ex lib/b.ex")
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert steps(fix) == [
        (other.tool_use_id, "-test/a_test.exs +-f; then git add lib/a.ex lib/b.ex")
    ]


def test_a_look_subcommand_at_a_chains_end_is_no_retry_of_its_work():
    """`rm a && git add b && git status` failed at the `git add`: a `git status` alone looks,
    and redoes none of the chain's work (ninth held-out set: "fixed" with nothing in it,
    labelled abandoned). A `git add -A` that staged it is the retry."""
    failed = call(
        command='rm "notes/README 1.md" && git add notes/LOOP.md && git status', failed=True
    )
    status = call(command="git status --short | grep LOOP")
    error = "Exit code 128\nfatal: pathspec 'notes/LOOP.md' did not match any files"
    fix = run([failed, status], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX
    add = call(command="git add -A && git status --short")
    fix = run([failed, status, add], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == add.tool_use_id


@pytest.mark.parametrize(
    ("failed", "error", "later"),
    [
        # the build failed: the restart that never ran, run alone, rebuilt nothing
        (
            "cd app && npm run build && pm2 restart web",
            "Exit code 1\n> Build error occurred\nError: Turbopack build failed with 3 errors:",
            "pm2 restart web",
        ),
        # the first `git add` failed on its path: the second never ran
        (
            "git add api-gateway && git add docs/prd.json && git commit -m 'x'",
            "Exit code 128\nfatal: pathspec 'api-gateway' did not match any files",
            "git add docs/prd.json",
        ),
        # the error names the program before a colon: the deploy after it never ran
        (
            "make dist && ./deploy.sh prod",
            "Exit code 2\ncc -c main.c\nmake: *** [Makefile:12: dist] Error 1",
            "./deploy.sh prod",
        ),
        # the commit failed: the `git add` before it had run and done its part
        (
            "git add docs/prd.json && git commit -m 'x'",
            'Exit code 1\nno changes added to commit (use "git add" and/or "git commit -a")',
            "git add docs/prd.json",
        ),
        # the same inside `bash -lc` (Codex)
        (
            "bash -lc 'npm run build && pm2 restart web'",
            "Exit code 1\nError: Turbopack build failed with 3 errors:",
            "pm2 restart web",
        ),
    ],
)
def test_a_chains_command_that_never_ran_is_no_retry_of_it(failed, error, later):
    """In a failed `a && b`, what came after the command the error names never ran, and what
    came before it ran and did its part: that command alone, later, is no retry of the
    failure (ninth and tenth held-out sets: both "fixed" so, both abandoned). The whole
    chain again is."""
    first = call(command=failed, failed=True)
    alone = call(command=later)
    fix = run([first, alone], {first.tool_use_id: error})[first.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX
    again = call(command=failed)
    fix = run([first, alone, again], {first.tool_use_id: error})[first.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert fix.confirmed_by == again.tool_use_id


@pytest.mark.parametrize(
    ("failed", "error", "later"),
    [
        # the key line names the last command: it ran, and failed
        (
            "git add . && git commit -m 'x' && git push",
            "Exit code 128\nerror: failed to push some refs to 'origin'",
            "git push",
        ),
        # it names none of them: which one failed is not known
        (
            "git add . && git commit -m 'x' && git push",
            "Exit code 128\nfatal: could not read Username for 'https://github.com'",
            "git push",
        ),
        # a check first: what it checked was then made so (figlet installed), the rest is
        # the goal
        (
            'which figlet && figlet -f slant "Hi"',
            "Exit code 1\nwhich: no figlet in (/usr/bin:/bin)",
            'figlet -f slant "Hi"',
        ),
        # removing what was not there: the goal was met
        (
            "rm .git/index.lock && git add a.go",
            "Exit code 1\nrm: cannot remove '.git/index.lock': No such file or directory",
            "git add a.go",
        ),
        # a `cd` into a folder not there: nothing after it ran, and it is the goal
        (
            "cd backend && npm pkg set engines.node=22 && cd .. && git add backend",
            "Exit code 1\n(eval):cd:1: no such file or directory: backend",
            "npm pkg set engines.node=22",
        ),
        # a program not found fails wherever the chain runs it
        (
            "cargo fmt --all && npx prettier --write ui/a.tsx && cargo test",
            "Exit code 127\nbash: line 1: cargo: command not found",
            "nix develop -c cargo test",
        ),
        # `;` runs every command whatever failed
        ("npm run build; pm2 restart web", "Exit code 1\nError: build failed", "pm2 restart web"),
    ],
)
def test_a_chains_later_command_is_a_retry_when_it_may_have_failed(failed, error, later):
    first = call(command=failed, failed=True)
    alone = call(command=later)
    fix = run([first, alone], {first.tool_use_id: error})[first.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert fix.confirmed_by == alone.tool_use_id


@pytest.mark.parametrize(
    ("failed", "error", "retry", "retry_error"),
    [
        # the checkout refused, then after `git stash` it switched branches and `cat` failed
        (
            "git checkout deploy && cat .gitignore",
            "Exit code 1\nerror: Your local changes to the following files would be"
            " overwritten by checkout:\n\t.claude/settings.local.json",
            "git checkout deploy && cat .gitignore",
            "Exit code 1\nSwitched to branch 'deploy'\ncat: .gitignore: No such file or directory",
        ),
        # the build failed, then built, and the start after it failed
        (
            "npm run build",
            "Exit code 1\nType error: Property 'x' does not exist on type 'Y'.",
            "npm run build && npm start",
            'Exit code 1\nnpm error Missing script: "start"',
        ),
    ],
)
def test_a_retry_that_failed_later_in_its_chain_confirms_the_fix(failed, error, retry, retry_error):
    """`&&` runs a command only when the one before it succeeded: a retry that failed in a
    later part of its chain got past this failure (thirteenth held-out set: `git stash`, then
    the checkout worked and the `cat` after it failed)."""
    first = call(command=failed, failed=True)
    step = call(command="git stash" if "git" in failed else "sed -i 's/x/y/' src/a.ts")
    again = call(command=retry, failed=True)
    errors = {first.tool_use_id: error, again.tool_use_id: retry_error}
    fix = run([first, step, again], errors)[first.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix)[0] == (step.tool_use_id, None)
    # failed in the same part again, with another error: nothing said it got past
    same_part = call(command=retry, failed=True)
    other = "Exit code 1\nerror: pathspec 'deploy' did not match any file(s) known to git"
    if "git" in failed:
        errors = {first.tool_use_id: error, same_part.tool_use_id: other}
        fix = run([first, step, same_part], errors)[first.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED


def test_a_retry_that_failed_where_its_error_names_no_part_confirms_nothing():
    """Which part of `a && b` failed is known only when the key line names it."""
    first = call(command="npm run build", failed=True)
    again = call(command="npm run build && npm start", failed=True)
    errors = {
        first.tool_use_id: "Exit code 1\nType error: Property 'x' does not exist on type 'Y'.",
        again.tool_use_id: "Exit code 1\nError: listen EADDRINUSE: address already in use :::3000",
    }
    assert run([first, again], errors)[first.tool_use_id].outcome == fixes.NOT_FIXED


def test_an_installer_not_found_is_worked_around_by_another_installing_the_package():
    """`brew install yt-dlp`: command not found: brew; then `pip3 install yt-dlp` (thirteenth
    held-out set, worked around). Another installer installing something else is not."""
    failed = call(command="brew install yt-dlp", failed=True)
    error = {failed.tool_use_id: "Exit code 127\n(eval):1: command not found: brew"}
    pip = call(command="pip3 install --user yt-dlp==2025.1.1")
    fix = run([failed, pip], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, pip.tool_use_id)
    assert steps(fix) == [(pip.tool_use_id, None)]
    other = call(command="pip3 install requests")
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_missing_test_runner_is_worked_around_by_another_running_the_tests():
    """pytest not there (`command not found`, `No module named pytest`, and `pip install
    pytest` with no network), then the tests written for unittest and run by it: the first
    run that passed is the way round, and all of it (thirty-second held-out set, 3 Codex
    failures). A run of the runner that was missing is none, nor another runner's version."""
    probe = call("exec_command", command="pytest --version", failed=True)
    module = call("exec_command", command="python3 -m pytest --version", failed=True)
    install = call(
        "exec_command", command="python3 -m pip install --user pytest httpx", failed=True
    )
    errors = {
        probe.tool_use_id: "Exit code 127\n/bin/bash: pytest: command not found",
        module.tool_use_id: "Exit code 1\n/usr/bin/python3: No module named pytest",
        install.tool_use_id: "Exit code 1\nERROR: Could not find a version that satisfies"
        " the requirement pytest (from versions: none)",
    }
    written = call("exec_command", command="cat > tests/test_x.py <<'EOF'\nimport unittest\nEOF")
    unit = "python3 -m unittest discover -s tests"
    red = call("exec_command", command=unit, failed=True)
    errors[red.tool_use_id] = "Exit code 1\nERROR: test_x (test_x.T.test_x)\nNotImplementedError"
    patch = call("apply_patch", file_path="/p/src/x.py")
    version = call("exec_command", command="python3 -m unittest --help")
    green = call("exec_command", command=unit)
    calls = [probe, module, install, written, red, patch, version, green]
    found = run(calls, errors)
    for failed in (probe, module, install):
        fix = found[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, green.tool_use_id)
        assert steps(fix) == [(green.tool_use_id, None)]
    again = call("exec_command", command="pytest -q")
    assert run([probe, again], errors)[probe.tool_use_id].outcome != fixes.WORKED_AROUND
    assert run([probe, written, version], errors)[probe.tool_use_id].outcome == fixes.ANSWERED


def test_a_poll_is_no_retry_of_keys_a_closed_stdin_refused():
    """Codex's write_stdin of Ctrl-C to a command run without a tty fails (stdin is
    closed); the polls that follow send nothing and only wait for the run's end: no retry
    of the interrupt (tenth held-out set, abandoned). Keys sent again, once it is run with
    a tty, are."""
    run_ = "nix develop -c just test"
    ctrl_c = call(
        "write_stdin", command=run_, failed=True, input='{"session_id":7,"chars":"\\u0003"}'
    )
    poll = call("write_stdin", command=run_, input='{"session_id":7,"chars":""}')
    error = "write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true"
    fix = run([ctrl_c, poll], {ctrl_c.tool_use_id: error})[ctrl_c.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX
    again = call("write_stdin", command=run_, input='{"session_id":9,"chars":"\\u0003"}')
    fix = run([ctrl_c, poll, again], {ctrl_c.tool_use_id: error})[ctrl_c.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id


def test_a_wait_on_a_session_id_is_worked_around_by_a_poll_of_that_session():
    """Codex's `wait` given the session id of a command exec_command left running, which is
    no code-mode cell's (`exec cell 12556 not found`), then write_stdin polling that session
    while the command still ran (thirtieth held-out set, worked around). A poll of another
    session waits on another command."""
    bench = "python bench.py --workers 8"
    waited = call("wait", failed=True, input='{"cell_id":"12556","yield_time_ms":30000}')
    error = "Script error:\nexec cell 12556 not found"
    other = call("write_stdin", command="npm run dev", input='{"session_id":901,"chars":""}')
    polled = call(
        "write_stdin", command=bench, input='{"session_id":12556,"chars":""}', running=True
    )
    fix = run([waited, other], {waited.tool_use_id: error})[waited.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    fix = run([waited, other, polled], {waited.tool_use_id: error})[waited.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, polled.tool_use_id)


def test_a_search_not_found_is_no_way_round_by_another_search_of_its_file():
    """`rg "dry" instalador.sh`, rg not installed, then grep of the file for its functions
    and a part of it by sed: the same file, another question; "dry" was never searched in
    it again (thirty-fifth held-out set, abandoned). A grep of the same word, or the whole
    file shown, answers it."""
    failed = call(command='rg "dry" instalador.sh', failed=True)
    errors = {failed.tool_use_id: "Exit code 127\nbash: line 1: rg: command not found"}
    functions = call(command='grep -n "()" instalador.sh | head')
    part = call(command="sed -n '280,360p' instalador.sh")
    fix = run([failed, functions, part], errors)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    for answer in ('grep -n "dry" instalador.sh', "cat instalador.sh"):
        again = call(command=answer)
        printed = {again.tool_use_id: '12:DRY_RUN="${DRY_RUN:-0}"'}
        fix = run([failed, functions, part, again], errors, printed)[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, again.tool_use_id)


def test_a_file_renamed_in_the_retry_is_the_file_that_failed():
    """`python3 calendar.py` hid the standard library's module; `mv calendar.py cal.py &&
    python3 cal.py` ran the same script under a new name: the retry, with the move."""
    failed = call(command="chmod +x s/calendar.py && python3 s/calendar.py", failed=True)
    error = (
        "Exit code 1\nAttributeError: module 'calendar' has no attribute 'TextCalendar'"
        " (consider renaming '/h/s/calendar.py' since it has the same name as the standard"
        " library module named 'calendar')"
    )
    renamed = call(command="mv s/calendar.py s/cal.py && python3 s/cal.py")
    fix = run([failed, renamed], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert fix.confirmed_by == renamed.tool_use_id
    other = call(command="python3 s/other.py")
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX


@pytest.mark.parametrize(
    ("command", "words", "operators"),
    [
        ("awk -F'|' '{print $1}' f.txt", ["awk", "-F|", "{print $1}", "f.txt"], []),
        ("cut -d'|' -f1 f.txt | sort", ["cut", "-d|", "-f1", "f.txt", "|", "sort"], ["|"]),
        ("tr '|' ';' < a.txt", ["tr", "|", ";"], []),
        ('cd "$HOME"/proj && make', ["cd", "$HOME/proj", "&&", "make"], ["&&"]),
        ("a|b", ["a", "|", "b"], ["|"]),
        # a command substitution is part of its word (twentieth held-out set)
        (
            "XDG_RUNTIME_DIR=/run/user/$(id -u) systemctl --user start x",
            ["XDG_RUNTIME_DIR=/run/user/$(id -u)", "systemctl", "--user", "start", "x"],
            [],
        ),
        ("kill $(lsof -t -i:3000 | head -1)", ["kill", "$(lsof -t -i:3000 | head -1)"], []),
    ],
)
def test_a_quoted_operator_is_a_word_and_parts_written_together_are_one(command, words, operators):
    """The shell's words: `-F'|'` is `-F|`, an argument, not a pipe. Taken for a pipe, it
    left a simple command of no words, and the rules' IndexError failed the whole build of
    a real transcript (tenth held-out set)."""
    found = fixes._words(command)
    assert found == words
    assert [w for w in found if fixes._is_operator(w)] == operators


def test_a_command_the_rules_once_failed_on_is_read():
    failed = call(command="awk -F'|' '{print $1}' /srv/dl/list.txt | head", failed=True)
    retry = call(command="awk -F'|' '{print $2}' /srv/dl/list.txt")
    error = "awk: cannot open /srv/dl/list.txt (No such file or directory)"
    assert [i.program for i in fixes.intents(failed.command)] == ["awk"]
    fix = run([failed, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id


def _edit(old, new, **more):
    return json.dumps({"file_path": "/p/app.py", "old_string": old, "new_string": new, **more})


@pytest.mark.parametrize(
    ("failed", "earlier", "done"),
    [
        # the same edit twice
        (_edit("foo()", "bar()"), [_edit("foo()", "bar()")], True),
        # a replace_all, then an edit of one of its places
        (
            _edit("  x = foo()", "  x = bar()"),
            [_edit("foo()", "  x = bar()", replace_all=True)],
            True,
        ),
        # a MultiEdit, a Write of the whole file
        # opencode's edit as stored: its own keys and the canonical ones its reader adds
        (_edit("a = 1", "a = 2"), [_edit("a = 1", "a = 2", oldString="a = 1")], True),
        (
            _edit("a = 1", "a = 2"),
            [
                json.dumps(
                    {
                        "edits": [
                            {"old_string": "b", "new_string": "c"},
                            {"old_string": "a = 1", "new_string": "a = 2"},
                        ]
                    }
                )
            ],
            True,
        ),
        (_edit("a = 1", "a = 2"), [json.dumps({"content": "import os\na = 2\n"})], True),
        # an earlier edit that wrote something else: the text is to be found again
        (_edit("foo()", "bar()"), [_edit("foo()", "baz()")], False),
        # a deletion: what it keeps is in what it replaces, found anywhere
        (_edit("x = 1\n# old\n", "x = 1\n"), [_edit("x = 1\n# old\n", "x = 1\n")], False),
        # only part of a MultiEdit done before
        (
            json.dumps(
                {
                    "edits": [
                        {"old_string": "a", "new_string": "b1"},
                        {"old_string": "c", "new_string": "d1"},
                    ]
                }
            ),
            [_edit("a", "b1")],
            False,
        ),
        (_edit("foo()", "bar()"), [], False),
        ("not json", [_edit("foo()", "bar()")], False),
    ],
)
def test_an_edit_whose_text_an_earlier_edit_wrote_was_already_done(failed, earlier, done):
    """Not a problem by every label (a replace_all before an edit of one of its places, the
    same Gemini replace run again): the card showed the next edit as its fix."""
    assert fixes.already_made(failed, earlier) is done


# -- the rules never raise, whatever the commands and errors ---------------------------

_PIECES = (
    "ls cat git add commit mv cp sudo -u npm run build | || && ; & cd /tmp/x a.txt awk"
    " find . -name *.py -exec rm {} \\; xargs -I bash -c -lc python3 -m pytest nix develop"
    " --command env FOO=1 timeout 30 2>&1 > out.txt tee -a Get-Item Out-Null ! do done if"
    " then fi gh pr view 12 = # $# which nix-shell -p --run cmd.exe //c /c powershell"
    " -Command uv --with conda -n < 2>/dev/null devbox shell rg -i grep pnpm exec --"
).split() + [
    "'|'",
    '"a b"',
    "'",
    '"',
    "$(",
    ")",
    "`",
    "-F'|'",
    "{print $1}",
    "\n",
    "\\",
    "<<EOF\nx\nEOF",
    "# a comment",
    "'# x'",
    "'a > b'",
    '"x < y"',
    "x=$(find . -name y)",
]
_COMMANDS = st.lists(st.sampled_from(_PIECES), max_size=14).map(" ".join) | st.text(max_size=60)
_ERRORS = st.sampled_from(
    [
        "Exit code 1",
        "bash: line 1: rg: command not found",
        "which: no gh in (/bin)",
        "ModuleNotFoundError: No module named 'x'",
        "fatal: pathspec 'a.txt' did not match any files",
        "make: *** [x] Error 1",
        "no changes added to commit",
        "Request failed with status code 403",
        "write_stdin failed: stdin is closed",
        "File does not exist.",
        "String to replace not found in file.",
        "",
    ]
) | st.text(max_size=80)
_INPUTS = st.sampled_from(
    [None, "{}", '{"prompt": "verify Smith Nature"}', '{"query": "Smith Nature"}',
     '{"chars": "\\u0003"}', '{"chars": ""}', "not json", "[1, 2]", '{"prompt": 5}']
)  # fmt: skip
_TOOLS = ["Bash", "Read", "Edit", "Write", "exec_command", "write_stdin", "Glob", "Task",
          "WebFetch", "WebSearch", "MultiEdit"]  # fmt: skip


@st.composite
def _sessions(draw):
    found = []
    for _ in range(draw(st.integers(1, 8))):
        name = draw(st.sampled_from(_TOOLS))
        shell = name in fixes.SHELL_TOOLS
        found.append(
            call(
                name,
                command=draw(_COMMANDS) if shell else None,
                file_path=draw(st.sampled_from([None, "/a/b.txt", "", "/a/", "C:\\a\\b.md"]))
                if name in fixes.FILE_TOOLS
                else None,
                failed=draw(st.booleans()),
                kind=draw(st.sampled_from([None, "rejected", "string_not_found", "running"])),
                url=draw(st.sampled_from([None, "https://github.com/a/b/pull/12"]))
                if name == "WebFetch"
                else None,
                input=draw(_INPUTS),
                running=draw(st.booleans()) and name in ("exec_command", "write_stdin"),
            )
        )
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_sessions(), _ERRORS, st.text(max_size=40))
def test_the_rules_never_raise(calls, error, output):
    """A rule that raised on one transcript's command once stopped a whole build (an
    IndexError of `awk -F'|'`, session 13): any command, error and output, and no rule
    raises. (20,000 examples of this ran clean when it was written.)"""
    failed = {c.tool_use_id: error for c in calls if c.failed}
    list(
        fixes.session_fixes(
            calls, [], failed, lambda _: output, signatures.key_line, signatures.signature
        )
    )
    for one in calls:
        fixes.command_change(one.command, calls[0].command)
        fixes._not_failing(one.command, signatures.key_line(error))


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        # Gemini CLI's ask_user refusing a header over 16 characters, asked again without
        (
            {"questions": [{"header": "Continue without the API?", "question": "Go on?"}]},
            {"questions": [{"type": "yesno", "question": "Go on?"}]},
            "-questions[0].header, +questions[0].type: yesno",
        ),
        # Copilot's grep refusing a file type, run on a folder instead
        (
            {"pattern": "Failed", "type": "rs"},
            {"pattern": "Failed", "path": "src"},
            "-type: rs, +path: src",
        ),
        ({"limit": 10, "deep": False}, {"limit": 20, "deep": True}, "limit: 20, deep: true"),
        # a parameter the tool did not know, given the same value under its own name
        (
            {"pattern": "mopt_review", "file_path": "/u/src/pdp.php", "context": 3},
            {"pattern": "mopt_review", "path": "/u/src/pdp.php", "context": 4},
            "file_path → path, context: 4",
        ),
        (
            {"prompt": "x"},
            {"prompt": "Summarise every failing test in the suite and what it asserts"},
            "prompt: Summarise every failing test in the sui…",
        ),
        # more than INPUT_CHANGES fields: said as before
        ({"a": 1, "b": 2, "c": 3, "d": 4}, {"a": 5, "b": 6, "c": 7, "d": 8}, None),
    ],
)
def test_a_retry_with_other_input_says_what_changed(before, after, change):
    """A tool without a command or file, called again with other input: the card says which
    fields changed, where it said "called again with other input" (a new user could not
    tell what made the difference)."""
    failed = call("mcp__ask__ask_user", input=json.dumps(before), failed=True)
    retry = call("mcp__ask__ask_user", input=json.dumps(after))
    fix = run([failed, retry], {failed.tool_use_id: "params must NOT have more than 16 characters"})
    assert steps(fix[failed.tool_use_id]) == [
        (retry.tool_use_id, change or "called again with other input")
    ]


@pytest.mark.parametrize("check", ["npx knip", "bunx vue-tsc --noEmit", "deno lint", "bun test"])
def test_more_checkers_only_check(check):
    """A run of a checker changes nothing: `npx knip` run twice between `Missing script:
    "knip"` and its fix was shown as two remedy steps (twelfth held-out set)."""
    failed = call(command="npm run knip", failed=True)
    looked = call(command=check)
    edit = call("Edit", file_path="/app/package.json")
    retry = call(command="npm run knip")
    error = {failed.tool_use_id: 'Exit code 1\nnpm error Missing script: "knip"'}
    fix = run([failed, looked, edit, retry], error)[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(edit.tool_use_id, None)])


@pytest.mark.parametrize(
    "look", ["dpkg -l | grep -i jdk", "rpm -qa | grep java", "apt-cache policy openjdk-21-jdk"]
)
def test_a_package_managers_query_only_looks(look):
    """`dpkg -l` lists what is installed: a new user's javac card showed it as a step."""
    failed = call(command="javac -d out src/*.java", failed=True)
    query = call(command=look)
    retry = call(command="/opt/jdk/bin/javac -d out src/*.java")
    error = {failed.tool_use_id: "Exit code 127\n/bin/bash: line 1: javac: command not found"}
    fix = run([failed, query, retry], error)[failed.tool_use_id]
    assert fix.outcome == fixes.FIXED
    assert query.tool_use_id not in [s.tool_use_id for s in fix.remedy]
    install = call(command="dpkg -i jdk.deb")
    fix = run([failed, install, retry], error)[failed.tool_use_id]
    assert install.tool_use_id in [s.tool_use_id for s in fix.remedy]


def test_an_activated_environment_is_no_shared_intent():
    """`. .venv/bin/activate && pytest -q` failed; `. .venv/bin/activate && alembic
    history` shares only the activation, which every command of the session has: no retry.
    The same tests run again in it are one. A failing `. config.env` alone is what failed,
    and a sourced file's functions called after it are part of the goal."""
    failed = call(command=". .venv/bin/activate && pytest -q", failed=True)
    other = call(command=". .venv/bin/activate && alembic history")
    error = {failed.tool_use_id: "Exit code 1\n== 2 failed, 9 passed in 1.20s =="}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="source .venv/bin/activate && pytest -q tests/test_api.py")
    fix = run([failed, other, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    conda = call(command="conda activate ml && python train.py", failed=True)
    listed = call(command="conda activate ml && ls data")
    error = {conda.tool_use_id: "Exit code 1\nFileNotFoundError: data/x.csv"}
    assert run([conda, listed], error)[conda.tool_use_id].outcome == fixes.NOT_FIXED
    sourced = call(command="source lib/util.sh && util_hash abc", failed=True)
    retry = call(command="bash -c 'source lib/util.sh; h=$(util_hash abc); echo $h'")
    error = {sourced.tool_use_id: "Exit code 1\n(eval):1: permission denied:"}
    assert run([sourced, retry], error)[sourced.tool_use_id].outcome == fixes.FIXED
    env = call(command=". settings.env", failed=True)
    fixed = call(command=". /srv/app/settings.env && echo $PORT")
    error = {env.tool_use_id: "Exit code 127\n(eval):.:1: no such file or directory: settings.env"}
    assert run([env, fixed], error)[env.tool_use_id].outcome == fixes.FIXED


def test_what_was_cleared_away_first_is_no_shared_intent():
    """`docker rm -f app; docker run ... app; curl ...` failed at the curl; a later `docker
    exec app ls; docker rm -f app` shares only the container cleared away first: no retry
    (twenty-second held-out set). The run again, after the Dockerfile's edit, is one. A
    cleanup alone is what was tried."""
    failed = call(
        command="docker rm -f app >/dev/null 2>&1\ndocker run -d --name app -p 80:80 app:latest"
        "\nsleep 3\ncurl -s localhost:80",
        failed=True,
    )
    look = call(command="docker exec app ls -la /opt/app; docker rm -f app >/dev/null 2>&1")
    error = {failed.tool_use_id: "Exit code 56\ncurl: (56) Recv failure: Connection reset by peer"}
    assert run([failed, look], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    edit = call(name="Edit", file_path="/w/app/Dockerfile", input='{"old_string": "a"}')
    again = call(
        command="docker build -t app:latest . && docker rm -f app; docker run -d --name app"
        " -p 80:80 app:latest; sleep 3; curl -s localhost:80"
    )
    fix = run([failed, look, edit, again], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    for cleared in ("pkill -f 'node server.js'", "rm -rf dist", "docker stop app"):
        alone = call(command=cleared, failed=True)
        retry = call(command=f"sudo {cleared}")
        error = {alone.tool_use_id: "Exit code 1\nOperation not permitted"}
        assert run([alone, retry], error)[alone.tool_use_id].outcome == fixes.FIXED, cleared


def test_a_push_to_another_remote_is_no_retry_nor_a_step():
    """`git push upstream main` could not reach its host; `git push mirror main` went to
    another: no retry, and no step of the later push to upstream that went through. The
    same remote by URL may be the same remote."""
    failed = call(command="git push upstream main", failed=True)
    mirror = call(command="git push mirror main")
    error = {failed.tool_use_id: "fatal: unable to access 'https://example.org/a/b.git/': 403"}
    assert run([failed, mirror], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    token = call(command="gh auth setup-git")
    retry = call(command="git push upstream main")
    fix = run([failed, mirror, token, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(token.tool_use_id, None)]
    url = call(command="git push https://me@example.org/a/b.git main")
    assert run([failed, url], error)[failed.tool_use_id].outcome == fixes.FIXED


_PUSH = "git add a.txt && git commit -m 'add a' && git push upstream main"


@pytest.mark.parametrize(
    "command, error, retry",
    [
        (
            _PUSH,
            "fatal: unable to access 'https://example.org/a/b.git/': Failed to connect to"
            " example.org port 443 after 21035 ms: Could not connect to server",
            "git push upstream main",
        ),
        (
            _PUSH,
            "fatal: unable to access 'https://example.org/a/b.git/': Recv failure: Connection"
            " was reset",
            "git push upstream main",
        ),
        (
            "npm install left-pad",
            "npm error code ENOTFOUND\nnpm error network request to https://registry.example.org"
            " failed, reason: getaddrinfo ENOTFOUND registry.example.org",
            "npm install left-pad",
        ),
    ],
)
def test_a_host_not_reached_then_the_same_command_has_no_steps(command, error, retry):
    """A host not reached, then the same command as it was, which went through: the
    network came back. What came between (files removed, a commit, a push elsewhere) made
    no difference to it; a proxy set did. Of `git add && git commit && git push`, the push
    failed: a later commit is no retry of it."""
    failed = call(command=command, failed=True)
    removed = call(command="rm *.svg")
    commit = call(command="git add -A && git commit -m 'clean up'")
    mirror = call(command="git push mirror main")
    again = call(command=retry)
    calls = [failed, removed, commit, mirror, again]
    fix = run(calls, {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (fixes.FIXED, again.tool_use_id, [])
    proxy = call(command="git config --global http.proxy http://127.0.0.1:7890")
    fix = run([failed, removed, proxy, again], {failed.tool_use_id: error})[failed.tool_use_id]
    assert steps(fix) == [(proxy.tool_use_id, None)]


def test_a_server_on_this_machine_not_reached_keeps_its_steps():
    """`Failed to connect to localhost port 3000`: the server was not running, and starting
    it is the step."""
    failed = call(command="curl -s http://localhost:3000/health", failed=True)
    start = call(command="docker compose up -d web")
    retry = call(command="curl -s http://localhost:3000/health")
    error = {failed.tool_use_id: "Exit code 7\ncurl: (7) Failed to connect to localhost port 3000"}
    fix = run([failed, start, retry], error)[failed.tool_use_id]
    assert steps(fix) == [(start.tool_use_id, None)]


def test_mix_hex_info_only_looks():
    """`mix hex.info x` prints what Hex knows of a package: no step of a fix of mix.exs."""
    failed = call(command="mix deps.get", failed=True)
    info = call(command="mix hex.info joken_jwks")
    edit = call("Edit", file_path="/app/mix.exs")
    retry = call(command="mix deps.get")
    error = {failed.tool_use_id: "Exit code 1\n** (Mix) Hex dependency resolution failed"}
    fix = run([failed, info, edit, retry], error)[failed.tool_use_id]
    assert steps(fix) == [(edit.tool_use_id, None)]


def test_a_flag_taken_out_reads_without_it():
    """A retry without a flag: `without --force-with-lease`, where `---force-with-lease`
    read as a typo (a new user's card)."""
    assert fixes.command_change("git push --force-with-lease", "git push") == (
        "without --force-with-lease"
    )
    assert fixes.command_change("psql -U app db", "sudo -u postgres psql db") == (
        "without -U -app +sudo +-u +postgres"
    )


@pytest.mark.parametrize(
    "command, error, made",
    [
        (
            "docker restart api_server",
            "Exit code 1\nError response from daemon: No such container: api_server",
            "docker compose -p shop up -d --build api_server",
        ),
        (
            "pg_ctlcluster 16 billing start",
            "Error: specified cluster '16 billing' does not exist",
            "pg_createcluster 16 billing --start",
        ),
    ],
)
def test_an_object_not_there_made_anew_is_worked_around(command, error, made):
    """A container or cluster the command named was not there; a command that made it by
    that name reached the goal another way. One that names it without making it (a look)
    does not, nor does one that makes another."""
    failed = call(command=command, failed=True)
    listed = call(command="pg_lsclusters")
    create = call(command=made)
    fix = run([failed, listed, create], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, create.tool_use_id)
    assert steps(fix) == [(create.tool_use_id, None)]
    other = call(command=made.replace("api_server", "worker").replace("billing", "main"))
    assert run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id].outcome == (
        fixes.NOT_FIXED
    )


def test_a_note_written_to_a_temp_folder_is_no_step():
    """A summary of the work written to /tmp (`cat > /tmp/summary.md <<EOF`) changes
    nothing the failure met: no step. A file written in the project is one, and so is a
    script written to /tmp that the confirmation runs, as part of it."""
    failed = call(command="npx tsc --noEmit src/a.ts", failed=True)
    note = call(command="cat > /tmp/summary.md << 'EOF'\n# Step 2\ndone > all\nEOF")
    config = call(command="cat > tsconfig.json << 'EOF'\n{}\nEOF")
    retry = call(command="npx tsc --noEmit src/a.ts")
    error = {failed.tool_use_id: "Exit code 2\nsrc/a.ts(3,1): error TS2307: Cannot find module"}
    fix = run([failed, note, config, retry], error)[failed.tool_use_id]
    assert steps(fix) == [(config.tool_use_id, None)]
    script = call(command="cat > /tmp/fix_imports.py << 'EOF'\nprint(1)\nEOF")
    ran = call(command="python3 /tmp/fix_imports.py && npx tsc --noEmit src/a.ts")
    fix = run([failed, script, ran], error)[failed.tool_use_id]
    assert fix.confirmed_by == ran.tool_use_id
    assert script.tool_use_id in [s.tool_use_id for s in fix.remedy]


def test_an_install_refused_then_redone_shows_the_one_that_installed():
    """`No module named 'yaml'`, then `pip install pyyaml | tail -3` (refused, exit 0 from
    tail), then `pip install pyyaml --user`: the install that did it is the step, not the
    refused one too."""
    failed = call(command='python3 -c "import yaml"', failed=True)
    refused = call(command="pip install pyyaml 2>&1 | tail -3")
    done = call(command="pip install --user pyyaml")
    error = {failed.tool_use_id: "Exit code 1\nModuleNotFoundError: No module named 'yaml'"}
    fix = run([failed, refused, done], error)[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(done.tool_use_id, None)])


def test_a_retry_that_quoted_a_pattern_says_so():
    # zsh's `no matches found` for a bare `[id]` or `%(title)s`: the quotes are the fix,
    # and the shell reads the same words from both commands
    assert (
        fixes.command_change(
            "sed -n '1,200p' app/api/[orgId]/route.ts", "sed -n '1,200p' 'app/api/[orgId]/route.ts'"
        )
        == "quoted app/api/[orgId]/route.ts"
    )
    assert (
        fixes.command_change(
            "yt-dlp -o ~/Videos/%(title)s.mp4 URL", 'yt-dlp -o "~/Videos/%(title)s.mp4" URL'
        )
        == "quoted ~/Videos/%(title)s.mp4"
    )
    assert fixes.command_change("ls src/[id]/x.ts", r"ls src/\[id\]/x.ts") == (
        "quoted src/[id]/x.ts"
    )
    # quoting a word without a pattern, or nothing changed at all, is no change
    assert fixes.command_change("cat src/a.ts", "cat 'src/a.ts'") is None
    assert fixes.command_change("cat src/[id].ts", "cat src/[id].ts") is None


def test_a_retry_with_fewer_of_the_same_words_is_not_another_order():
    # rg's patterns have spaces: no words of the intent, so only the repeated -n differ
    failed = 'rg -n "def a" -n "def b" -n "def c" src/x.py'
    assert fixes.command_change(failed, 'rg -n "def c" src/x.py') == "fewer words"
    assert fixes.command_change("git add -A a", "git add a -A") == (
        "the same words in another order"
    )


def test_a_file_too_large_searched_to_find_where_to_read_is_fixed_by_the_read_in_part():
    error = "File content (38934 tokens) exceeds maximum allowed tokens (25000)."
    failed = call("Read", file_path="/p/pages/warranty.js", failed=True)
    grep = call("Grep", file_path="/p/pages/warranty.js", pattern="handleSubmit")
    other = call("Edit", file_path="/p/lib/api.js")
    part = call("Read", file_path="/p/pages/warranty.js", part="offset 1780 limit 150")
    fix = run([failed, grep, other, part], {failed.tool_use_id: error})[failed.tool_use_id]
    # the search found where; the Read in part read it. An edit of another file made the
    # file no smaller: no step
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, part.tool_use_id)
    assert steps(fix) == [(part.tool_use_id, "read offset 1780 limit 150")]
    # never read in part: the search was the other way
    fix = run([failed, grep, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)
    # read in part only once the agent had done much other work: the search got what it
    # was for, the later Read is of another purpose (thirtieth held-out set, worked around)
    work = [call("Edit", file_path=f"/p/models/m{n}.js") for n in range(fixes.NEARBY_CALLS)]
    fix = run([failed, grep, *work, part], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)


def test_an_install_with_a_version_pinned_is_a_retry_of_the_same_packages():
    # npm refused the tree (ERESOLVE); the same packages at older versions went in
    failed = "npm install @react-three/fiber three --save"
    retry = "npm install @react-three/fiber@8.15.19 three@0.159.0 --save --legacy-peer-deps"
    assert fixes._shared_intent(failed, retry) is not None
    assert fixes.command_change(failed, retry) == (
        "-@react-three/fiber -three +@react-three/fiber@8.15.19 +three@0.159.0 +--legacy-peer-deps"
    )
    assert fixes._shared_intent("pip install bcrypt", 'pip install "bcrypt<4.0"') is not None
    # another package is another install; and only an install's arguments lose a version
    assert fixes._shared_intent("npm install three", "npm install react@18") is None
    assert fixes.intents("ssh deploy@web1 uptime")[0].args == {"deploy@web1", "uptime"}


def test_a_codex_patch_the_user_rejected_is_redone_on_its_file_after_their_questions():
    """Codex's `patch rejected by user` is a rejection like Claude Code's: the prompts
    before the agent's next call (why is this needed? is it done? continue) are one turn,
    and a patch of that file after a patch of another is the redo, not the other one
    (sixteenth held-out set: 2 cards claimed nothing, one the other file)."""
    rejected = "patch rejected by user"
    assert signatures.classify(rejected) == "rejected"
    failed = call(
        "apply_patch", file_path="/p/hooks/useTeam.ts", failed=True, kind="rejected", at="T01"
    )
    look = call("shell", command="rg useTeam -n", at="T10")
    other = call("apply_patch", file_path="/p/api/teams/route.ts", at="T11")
    redo = call("apply_patch", file_path="/p/hooks/useTeam.ts", at="T12")
    prompts = ["T02", "T03", "T04"]  # why? is it done? continue
    fix = run([failed, look, other, redo], {failed.tool_use_id: rejected}, prompts=prompts)
    fix = fix[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, redo.tool_use_id)
    # no patch of that file again: the next patch is the redo the user asked for
    fix = run([failed, look, other], {failed.tool_use_id: rejected}, prompts=prompts)
    assert fix[failed.tool_use_id].confirmed_by == other.tool_use_id


@pytest.mark.parametrize(
    "error",
    [
        "Exit code 2\nbash: -c: line 0: syntax error near unexpected token `('",
        "Exit code 1\nzsh:1: no matches found: app/teams/[id]/page.tsx",
    ],
)
def test_a_view_of_another_file_is_no_retry_of_a_view_that_failed(error):
    """`sed -n '1,200p' app/teams/[id]/page.tsx`, which the shell could not parse, then
    views of other files with the same line range, one of them of the same name: another
    question each, not its retry; the same path quoted is (sixteenth held-out set)."""
    failed = call(command="sed -n '1,200p' app/teams/[id]/page.tsx", failed=True)
    other = call(command="sed -n '1,200p' app/dashboard/hooks/useDashboard.ts")
    same_name = call(command="cd /p && sed -n '1,260p' app/page.tsx")
    found = run([failed, other, same_name], {failed.tool_use_id: error})
    # (a path no file matched was the look's answer; a line the shell could not parse, none)
    answered = "no matches found" in error
    assert found[failed.tool_use_id].outcome == (fixes.ANSWERED if answered else fixes.NOT_FIXED)
    quoted = call(command="sed -n '1,200p' '/p/app/teams/[id]/page.tsx'")
    fix = run([failed, other, quoted], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, quoted.tool_use_id)
    if "no matches found" in error:
        # another program on the same path, quoted (twenty-second held-out set)
        cat = call(command="cat 'app/teams/[id]/page.tsx'")
        fix = run([failed, other, cat], {failed.tool_use_id: error})[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, cat.tool_use_id)


def test_a_folder_rmdir_could_not_remove_removed_with_what_it_held():
    failed = call(command="rmdir data/node_modules && rmdir data", failed=True)
    removed = call(command="rm -rf data")
    error = "Exit code 1\nrmdir: data/node_modules: Directory not empty"
    fix = run([failed, removed], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, removed.tool_use_id)
    other = call(command="rm -rf build")
    assert run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id].outcome == (
        fixes.NOT_FIXED
    )


def test_a_server_run_again_until_the_time_limit_got_past_its_error():
    """`EADDRINUSE`, `lsof -i :8080`, `kill 60782`, then the same server run until Claude
    Code's time limit stopped it: it started, so the kill fixed it (sixteenth held-out set,
    2 people). A time-out that still printed the error fixed nothing."""
    failed = call(command="node serve.ts", failed=True)
    look = call(command="lsof -i :8080")
    kill = call(command="kill 60782")
    again = call(command="node serve.ts", failed=True, kind="timeout")
    error = "Exit code 1\nError: listen EADDRINUSE: address already in use :::8080"
    ran = "Command timed out after 5s\nChart server running at http://localhost:8080/"
    found = run([failed, look, kill, again], {failed.tool_use_id: error, again.tool_use_id: ran})
    fix = found[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [kill.tool_use_id]
    still = f"Command timed out after 5s\n{error}"
    found = run([failed, look, kill, again], {failed.tool_use_id: error, again.tool_use_id: still})
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_server_still_running_on_another_port_got_past_its_error():
    """Codex's streamlit exited at once on a taken port, then ran on another and was still
    serving when exec_command returned (`Process running`, no poll seeing its end): that
    run fixed it (thirty-second held-out set, 3 failures; they were "not fixed"). A build
    still running that has printed another error fixed nothing."""
    server = "streamlit run app.py --server.port {}"
    failed = call("exec_command", command=server.format(8501), failed=True)
    look = call("exec_command", command="ss -ltn")
    again = call("exec_command", command=server.format(8503), running=True)
    error = "Exit code 1\nCollecting usage statistics.\n\n18:48:16.839 Port 8501 is not available"
    serving = (
        "Collecting usage statistics.\n\n  You can now view your Streamlit app in your browser.\n"
    )
    found = run([failed, look, again], {failed.tool_use_id: error}, {again.tool_use_id: serving})
    fix = found[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix) == [(again.tool_use_id, "-8501 +8503")]
    for printed in (error, "Collecting usage statistics.\nerror[E0308]: mismatched types\n"):
        found = run(
            [failed, look, again], {failed.tool_use_id: error}, {again.tool_use_id: printed}
        )
        assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_piped_run_that_raised_the_same_exception_in_other_words_confirms_nothing():
    """The agent reworded the error's message, then ran the script `2>&1 | tail -5`, exit 0
    from tail, printing `ModuleNotFoundError:` again in the new words: the card showed the
    rewording and that run as the fix (a new user's try, session 35; set 30). The run in
    the environment that has the module is the fix. Another exception printed by a piped
    run (a warning logged as `UserWarning:`) is no sign of this one."""
    failed = call("exec_command", command="python viz.py data", failed=True)
    reword = call("apply_patch", file_path="viz.py")
    piped = call("exec_command", command="python viz.py data 2>&1 | tail -5")
    env = call("exec_command", command="conda run -n kimodo python viz.py data")
    error = "Exit code 1\nTraceback (most recent call last):\n"
    error += "ModuleNotFoundError: No module named 'viser'"
    again = "  import viser\nModuleNotFoundError: viz.py needs the viser build: pip install viser\n"
    calls = [failed, reword, piped, env]
    fix = run(calls, {failed.tool_use_id: error}, {piped.tool_use_id: again})[failed.tool_use_id]
    assert fix.confirmed_by == env.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [env.tool_use_id]
    other = "UserWarning: no GPU found\nserving on :8080\n"
    fix = run(calls, {failed.tool_use_id: error}, {piped.tool_use_id: other})[failed.tool_use_id]
    assert fix.confirmed_by == piped.tool_use_id


def test_a_piped_run_that_printed_the_error_again_moves_the_remedy_after_it():
    """`npm start | head` exits 0 with the error printed again, in other words than the
    key line (its timestamp): the edits before it did not fix it, those after it did
    (sixteenth held-out set: the card showed the edits before)."""
    failed = call(command="npm start", failed=True)
    wrong = call("Edit", file_path="/p/logger.ts")
    piped = call(command="npm start 2>&1 | head -50")
    right = call("Edit", file_path="/p/database.ts")
    retry = call(command="npm start")
    said = 'error: Failed to start: Class constructors cannot be invoked without new {{"at":"{}"}}'
    error = "Exit code 1\n" + said.format("19:26:25")
    outputs = {piped.tool_use_id: "> start\n" + said.format("19:29:13") + "\n"}
    fix = run([failed, wrong, piped, right, retry], {failed.tool_use_id: error}, outputs)
    fix = fix[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [right.tool_use_id]


def test_a_script_that_caught_the_error_and_printed_it_fixed_nothing():
    """A PowerShell script tried again with a `try { } catch { }` exits 0, printing the
    failed call's message in its own words (`Zip2 error: Exception calling "OpenRead"
    ...`): the error came again, so it is no fix (twenty-sixth held-out set, abandoned;
    the card showed it as the fix). The same command run again printing the same line
    is left alone (a build's warning printed by every run, the failure another line)."""
    said = 'Exception calling "OpenRead" with "1" argument(s): "End of Central Directory."'

    def script(zip_file, label):
        return (
            'powershell.exe -Command "\nAdd-Type -Assembly System.IO.Compression.FileSystem\n'
            f"try {{ $zip = [System.IO.Compression.ZipFile]::OpenRead('{zip_file}') }}\n"
            f"catch {{ Write-Host '{label}' $_.Exception.Message }}\n\""
        )

    failed = call(command=script("a.zip", "Error:"), failed=True)
    again = call(command=script("b.zip", "Zip2 error:"))
    errors = {failed.tool_use_id: f"Exit code 1\nError: {said}"}
    found = run([failed, again], errors, {again.tool_use_id: f"Zip2 error: {said}\nPrincipal: x"})
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    found = run([failed, again], errors, {again.tool_use_id: "a.txt\nb.txt\n"})
    assert found[failed.tool_use_id].confirmed_by == again.tool_use_id
    # the same command, printing the same line and succeeding: the line was no failure
    build = call(command="npx next build", failed=True)
    rebuild = call(command="npx next build")
    warned = "Module not found: Can't resolve '@react-native-async-storage/async-storage' in x"
    errors = {build.tool_use_id: f"Exit code 1\n{warned}\nType error: y"}
    found = run([build, rebuild], errors, {rebuild.tool_use_id: f"{warned}\nCompiled."})
    assert found[build.tool_use_id].confirmed_by == rebuild.tool_use_id


def test_a_skill_the_tool_did_not_know_followed_from_its_instructions():
    failed = call("Skill", input='{"skill": "apply-grant", "args": "x"}', failed=True)
    listing = call(command="ls ~/.claude/skills/apply-grant/")
    read = call("Read", file_path="/Users/me/.claude/skills/apply-grant/SKILL.md")
    error = "<tool_use_error>Unknown skill: apply-grant</tool_use_error>"
    fix = run([failed, listing, read], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, read.tool_use_id)
    other = call("Read", file_path="/Users/me/.claude/skills/other/SKILL.md")
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_skill_stopped_at_its_own_command_done_by_hand():
    """A skill whose `!`cmd`` line failed did none of its steps: the agent running that
    command itself, or the step the skill is named after, worked it around (thirty-fifth
    held-out set and the real corpus, both labelled so)."""
    failed = call("Skill", input='{"skill": "fix-on-my-computer"}', failed=True)
    error = (
        'Bash command failed for pattern "!`bun run test`": (eval):1: command not found: bun\n'
        "[stderr]\n(eval):1: command not found: bun"
    )
    probe = call(command='which bun 2>/dev/null || command -v bun 2>/dev/null || echo "no"')
    install = call(command="curl -fsSL https://bun.sh/install | bash 2>&1 | tail -20")
    tests = call(command='PATH="$HOME/.bun/bin:$PATH" ~/.bun/bin/bun run test 2>&1')
    found = run([failed, probe, install, tests], {failed.tool_use_id: error})
    fix = found[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, tests.tool_use_id)
    # (`command -v bun` asks where bun is: no step, as `which bun` is none)
    assert [s.tool_use_id for s in fix.remedy] == [tests.tool_use_id, install.tool_use_id]
    lint = call(command='PATH="$HOME/.bun/bin:$PATH" ~/.bun/bin/bun run lint 2>&1')
    fix = run([failed, install, lint], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED

    commit = call("Skill", input='{"skill": "handgemacht:commit"}', failed=True)
    error = (
        'Bash command failed for pattern "!`git log --oneline main..HEAD`": [stderr]\n'
        "fatal: ambiguous argument 'main..HEAD': unknown revision or path not in the working tree."
    )
    look = call(command='git diff --stat && echo "---" && git log --oneline -5')
    by_hand = call(command='git add lib/a.ex && git commit -m "feat: a"')
    fix = run([commit, look, by_hand], {commit.tool_use_id: error})[commit.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, by_hand.tool_use_id)
    # a skill that ran and failed at one of its steps said something else: no way round it
    ran = call("Skill", input='{"skill": "handgemacht:commit"}', failed=True)
    fix = run([ran, by_hand], {ran.tool_use_id: "Error: commit hook failed"})[ran.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_an_edit_refused_then_written_into_another_file_is_worked_around():
    """An edit that could not apply (not read yet), never made in its file, whose lines the
    agent then wrote into a new file: that file was its way round (the real corpus, 4
    failures of one hook). An edit made in its file after is its fix, though the same lines
    went into a sibling file first (thirtieth held-out set)."""
    hook = "\n".join(
        [
            "export function useTodos(): UseTodosReturn {",
            "  const [todos, setTodos] = useState<Todo[]>([]);",
            "  const addTodo = useCallback((title: string) => {",
            "    setTodos(prev => [...prev, newTodo]);",
            "}",
        ]
    )
    write = json.dumps({"file_path": "/p/src/hooks/useTodos.ts", "content": hook})
    refused = call(
        "Write", file_path="/p/src/hooks/useTodos.ts", failed=True, kind="not_read", input=write
    )
    error = (
        "<tool_use_error>File has not been read yet."
        " Read it first before writing to it.</tool_use_error>"
    )
    read = call("Read", file_path="/p/src/hooks/useTodos.ts")
    other = call(
        "Write",
        file_path="/p/src/hooks/index.ts",
        input=json.dumps({"file_path": "/p/src/hooks/index.ts", "content": "export * from './x';"}),
    )
    moved = call(
        "Write",
        file_path="/p/src/hooks/useSimpleTodos.ts",
        input=json.dumps({"file_path": "/p/src/hooks/useSimpleTodos.ts", "content": hook}),
    )
    found = run([refused, read, other, moved], {refused.tool_use_id: error})
    fix = found[refused.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, moved.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [moved.tool_use_id]
    # made in its file after all: that edit is the fix, not the sibling's
    again = call(
        "Write",
        file_path="/p/src/hooks/useTodos.ts",
        input=json.dumps({"file_path": "/p/src/hooks/useTodos.ts", "content": hook}),
    )
    fix = run([refused, moved, read, again], {refused.tool_use_id: error})[refused.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    # a file that writes a few of its lines (an index, a test) is no way round it
    fix = run([refused, read, other], {refused.tool_use_id: error})[refused.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_rounds_of_a_build_stopped_at_its_time_limit_each_fixed_by_their_own_edit():
    """Codex 0.5x stopped each `npm run build` at its time limit after the build had
    printed its error: one type error a round, each fixed by the patch after it, and the
    last run printed none (eighteenth held-out set, 3 rounds: none was fixed while the
    time limit was every run's key line). The kind and key line come from the output."""
    limit = "Exit code 124\ncommand timed out after 15491 milliseconds\n\n> next build\n"
    errors_by_round = [
        "Failed to compile.\n./src/a.tsx:23:8\nType error: Property 'feedback' is missing",
        "Failed to compile.\n./src/b.ts:449:35\nType error: Property 'errors' does not exist",
        " ✓ Compiled successfully in 7.3s\n   Generating static pages (12/12)",
    ]
    builds, edits, calls, errors = [], [], [], {}
    for n, printed in enumerate(errors_by_round):
        text = limit + printed
        build = call("shell", command="npm run build", failed=True, kind=signatures.classify(text))
        builds.append(build)
        errors[build.tool_use_id] = text
        calls.append(build)
        if n < len(errors_by_round) - 1:
            edits.append(call("apply_patch", file_path=f"/p/src/{'ab'[n]}.tsx"))
            calls.append(edits[-1])
    assert [b.kind for b in builds] == ["error", "error", "timeout"]
    found = run(calls, errors)
    for build, edit in zip(builds[:-1], edits, strict=True):
        fix = found[build.tool_use_id]
        assert fix.outcome == fixes.FIXED and fix.confirmed_by == builds[-1].tool_use_id
        assert [s.tool_use_id for s in fix.remedy] == [edit.tool_use_id]
    # the same rounds where the last run printed the first error again: nothing was fixed
    errors[builds[-1].tool_use_id] = limit + errors_by_round[0]
    again = run(calls, errors)
    assert again[builds[0].tool_use_id].outcome == fixes.NOT_FIXED


def test_a_command_the_shell_could_not_parse_written_again_is_fixed_by_that_rewrite():
    """Nothing of a command the shell could not parse ran: the next command that runs a
    program it named on a path it named is it, written again (eighteenth held-out set: an rg
    whose quotes did not balance; cmd's `if not exist` sent to Git Bash). `|| true` after
    it hides no error: none ran."""
    failed = call(command='rg -n "add_parser\\(\\"a|b|c\\" opk/cli/main.py -n -S', failed=True)
    error = "Exit code 2\nbash: -c: line 1: unexpected EOF while looking for matching `\"'"
    again = call(command='rg -n "add_parser\\(\\"a" opk/cli/main.py || true')
    fix = run([failed, again], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [again.tool_use_id]
    folder = '"C:\\Users\\me\\proj\\output"'
    cmd = call(command=f"if not exist {folder} mkdir {folder}", failed=True)
    said = "Exit code 2\n/usr/bin/bash: eval: line 2: syntax error: unexpected end of file"
    made = call(command=f"mkdir -p {folder}")
    fix = run([cmd, made], {cmd.tool_use_id: said})[cmd.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, made.tool_use_id)
    # a search of the folder it is in, on mostly the same words (twenty-fifth held-out set)
    here = call(command='rg -n "\\b(pixi|pixi\\.toml|conda-lock)\\b|vllm -n || true', failed=True)
    again_here = call(command='ls -la && rg -n "pixi\\.toml|conda\\.yml" -S || true')
    fix = run([here, again_here], {here.tool_use_id: error})[here.tool_use_id]
    assert fix.confirmed_by == again_here.tool_use_id
    elsewhere = call(command='rg -n "torch|cuda" -S')
    assert run([here, elsewhere], {here.tool_use_id: error})[here.tool_use_id].outcome == (
        fixes.NOT_FIXED
    )
    # another program, or the same one on another path, is another command
    for other in ("ls opk/cli/main.py", 'rg -n "a" opk/other.py'):
        other_call = call(command=other)
        found = run([failed, other_call], {failed.tool_use_id: error})
        assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # the shell's words, not a program's own syntax error
    for text, said in [
        ("bash: -c: line 0: syntax error near unexpected token `('", True),
        ("sh: 1: Syntax error: Unterminated quoted string", True),
        ('zsh:1: unmatched "', True),
        ("(eval):1: parse error near `)'", True),
        ('  File "gen.py", line 3\nSyntaxError: unexpected EOF while parsing', False),
        ("jq: error: syntax error, unexpected end of file", False),
    ]:
        assert fixes._says_unparsed(f"Exit code 2\n{text}") is said, text


def test_a_startup_file_the_shell_could_not_parse_is_no_complaint_of_the_command():
    """A zsh session that sources conda printed `conda.sh:48: parse error near `()'` and its
    hook's `(eval):1: parse error near `()'` at the top of every output: a `python -c` test
    that raised after them ran, so its rewrite is no command "written so that the shell
    could parse it" (thirty-first held-out set, a new user's try: the run that passed once
    bcrypt was installed was shown as a step of `no such table: user`, and a deliberate
    check that raised as it should was "fixed" by the next script)."""
    startup = (
        "load_conda:unalias:8: not enough arguments\n"
        "/home/me/miniconda3/etc/profile.d/conda.sh:48: defining function based on alias `conda'\n"
        "/home/me/miniconda3/etc/profile.d/conda.sh:48: parse error near `()'\n"
        "(eval):1: defining function based on alias `conda'\n"
        "(eval):1: parse error near `()'\n"
    )
    traceback = 'Traceback (most recent call last):\n  File "<string>", line 5, in <module>\n'

    def test(body):
        return call(command=f'python -c "\nfrom server.main import app\n{body}\n"', failed=True)

    failed = test("client = TestClient(app)\nclient.post('/auth/register')")
    past = test("with TestClient(app) as client:\n    client.post('/auth/register')")
    install = call(command='pip install "bcrypt<4.0" 2>&1 | tail -3')
    passed = call(command=test("with TestClient(app) as c:\n    c.post('/auth/register')").command)
    errors = {
        failed.tool_use_id: f"Exit code 1\n{startup}GET /health OK\n{traceback}"
        "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) no such table: user",
        past.tool_use_id: f"Exit code 1\n{startup}{traceback}"
        "ValueError: password cannot be longer than 72 bytes",
    }
    outputs = {passed.tool_use_id: f"{startup}All tests passed!"}
    found = run([failed, past, install, passed], errors, outputs)
    fix = found[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, passed.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [past.tool_use_id]
    assert steps(found[past.tool_use_id]) == [(install.tool_use_id, None)]
    # a check that raised as it should, then another script: nothing it could not parse
    check = test("from server.database import check\ncheck('ro.db')")
    said = f"Exit code 1\n{startup}{traceback}RuntimeError: SQLite database is read-only: ro.db"
    other = call(command='rm -f ro.db\npython -c "\nfrom server.main import app\nprint(app)\n"')
    fix = run([check, other], {check.tool_use_id: said})[check.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    # the shell's own complaint in that session, its key line once the startup file's
    # lines are gone (as the build reads every output: signatures.without_startup), still
    # is one
    folder = '"C:\\Users\\me\\proj\\output"'
    cmd = call(command=f"if not exist {folder} mkdir {folder}", failed=True)
    complaint = signatures.without_startup(f"Exit code 1\n{startup}zsh:1: parse error near `mkdir'")
    made = call(command=f"mkdir -p {folder}")
    fix = run([cmd, made], {cmd.tool_use_id: complaint})[cmd.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, made.tool_use_id)


def test_calls_that_failed_alike_are_each_redone_by_the_call_that_shares_their_input():
    """Four messages refused for want of a `summary`, then four sent with one: each
    failure's retry is the one to its own recipient (eighteenth held-out set: every card
    named the first)."""
    names = ["analyst", "builder", "checker"]
    failed = [
        call("SendMessage", input=json.dumps({"to": n, "message": "stop"}), failed=True)
        for n in names
    ]
    sent = [
        call("SendMessage", input=json.dumps({"to": n, "message": "stop", "summary": "Stop"}))
        for n in names
    ]
    error = "<tool_use_error>summary is required when message is a string</tool_use_error>"
    found = run([*failed, *sent], {f.tool_use_id: error for f in failed})
    for one, redone in zip(failed, sent, strict=True):
        fix = found[one.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, redone.tool_use_id)
        assert [s.tool_use_id for s in fix.remedy] == [redone.tool_use_id]
    # one failure, redone with another input: its retry still
    other = call("SendMessage", input=json.dumps({"to": "all", "summary": "Stop"}))
    fix = run([failed[0], other], {failed[0].tool_use_id: error})[failed[0].tool_use_id]
    assert fix.confirmed_by == other.tool_use_id


def test_a_module_guessed_as_a_folder_then_viewed_as_a_file_worked_around_it():
    """`sed` of hooks/base/index.ts, not there, then of hooks/api/base.ts: the module base
    is a file (eighteenth held-out set). A file of another name is another question."""
    failed = call("shell", command="sed -n '1,220p' src/hooks/base/index.ts", failed=True)
    error = "Exit code 1\nsed: src/hooks/base/index.ts: No such file or directory"
    found = call("shell", command="sed -n '1,200p' src/hooks/api/base.ts")
    fix = run([failed, found], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, found.tool_use_id)
    other = call("shell", command="sed -n '1,200p' src/hooks/api/client.ts")
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    assert fixes._module_names("src/lib/types/racquet.ts") == {"racquet.ts", "types.ts"}
    assert fixes._module_names("src/index.ts") == {"index.ts"}  # src names no module


def test_a_module_guessed_as_a_folder_then_read_as_a_file_worked_around_it():
    """A Read of src/lib/types/racquet.ts, not there, then of src/lib/types.ts in the
    subproject that holds the app (seventeenth held-out set); not when the file was there
    (too large), and not a file of another name."""
    failed = call("Read", file_path="/p/src/lib/types/racquet.ts", failed=True)
    found = call("Read", file_path="/p/app/src/lib/types.ts")
    fix = run([failed, found], {failed.tool_use_id: "File does not exist."})
    assert fix[failed.tool_use_id].outcome == fixes.WORKED_AROUND
    assert fix[failed.tool_use_id].confirmed_by == found.tool_use_id
    large = "File content (30100 tokens) exceeds maximum allowed tokens (25000)."
    fix = run([failed, found], {failed.tool_use_id: large})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED
    other = call("Read", file_path="/p/app/src/lib/utils.ts")
    fix = run([failed, other], {failed.tool_use_id: "File does not exist."})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_chain_cancelled_with_its_sibling_is_rerun_by_the_call_that_runs_most_of_it():
    """`git add . && git commit -m "x" && git push` cancelled beside a push of another
    repository that failed; that push made, then the chain run again in its folder: the
    rerun is the one that shares most of it, not the other push (twentieth held-out set)."""
    cancelled = call(
        command='git add . && git commit -m "Restructure" && git push', kind="sibling_error"
    )
    cancelled = cancelled._replace(failed=True)
    other = call(command="git remote set-url origin https://h/x.git && git push 2>&1")
    rerun = call(command='cd /p/users && git add . && git commit -m "Restructure" && git push')
    errors = {cancelled.tool_use_id: "<tool_use_error>Sibling tool call errored</tool_use_error>"}
    fix = run([cancelled, other, rerun], errors)[cancelled.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, rerun.tool_use_id)
    # a chain that ran and failed at its push is retried by the push alone, as before
    pushed = call(command='git add . && git commit -m "R" && git push', failed=True)
    again = call(command="git push --set-upstream origin main")
    whole = call(command='git add . && git commit -m "R2" && git push')
    error = {pushed.tool_use_id: "fatal: The current branch main has no upstream branch."}
    fix = run([pushed, again, whole], error)[pushed.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id


def test_a_look_at_a_path_not_there_then_elsewhere_has_no_unrelated_steps():
    """`cat src/training/main.py` not there; environments listed, a package installed; then
    `cat src/models/main.py`: the path changed, and the install made no such file
    (twentieth held-out set: 8 steps shown)."""
    failed = call(command="cat /p/src/training/main.py", failed=True)
    install = call(command="conda run -n thesis pip install torchvision -q")
    found = call(command="cat /p/src/models/main.py")
    error = {failed.tool_use_id: "cat: /p/src/training/main.py: No such file or directory"}
    fix = run([failed, install, found], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, found.tool_use_id)
    assert [s for s, _ in steps(fix)] == [found.tool_use_id]
    # the same path again: what came between may have made it, and stays a step
    again = call(command="cat /p/src/training/main.py")
    failed2 = call(command="cat /p/src/training/main.py", failed=True)
    install2 = call(command="conda run -n thesis pip install torchvision -q")
    error2 = {failed2.tool_use_id: error[failed.tool_use_id]}
    fix = run([failed2, install2, again], error2)[failed2.tool_use_id]
    assert install2.tool_use_id in [s for s, _ in steps(fix)]


def test_a_variable_set_by_a_command_substitution_is_no_program():
    """`XDG_RUNTIME_DIR=/run/user/$(id -u) systemctl --user start x` runs systemctl: split
    inside `$(...)`, its program was `-u)`, and the rerun with the variable spelt out was no
    retry of it (twentieth held-out set: not fixed)."""
    command = "XDG_RUNTIME_DIR=/run/user/$(id -u) systemctl --user start x.service 2>&1"
    assert [(i.program, sorted(i.args)) for i in fixes.intents(command)] == [
        ("systemctl", ["start", "x.service"])
    ]
    failed = call(command=command, failed=True)
    linger = call(command="loginctl enable-linger me")
    retry = call(command="XDG_RUNTIME_DIR=/run/user/1005 systemctl --user start x.service")
    error = {failed.tool_use_id: "Exit code 1\nFailed to connect to bus: No such file or directory"}
    fix = run([failed, linger, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert linger.tool_use_id in [s for s, _ in steps(fix)]


def test_an_agents_notification_is_no_prompt_the_window_counts(tmp_path):
    """Claude Code writes a background task's end as a user message (`<task-notification>`,
    kind queued_prompt): counted as a prompt, it and the user's one closed the window of a
    failed run before its rerun (twentieth held-out set). Texts an agent wrote in tags are
    not prompts the user typed."""
    calls = [
        ("c1", "2026-01-01T00:00:01Z", 1, "Exit code 1\n[FAIL] bin_dir does not exist: /x/bin"),
        ("c2", "2026-01-01T00:00:09Z", 0, "all steps passed"),
    ]
    prompts = [
        ("2026-01-01T00:00:02Z", "prompt", "check it step by step"),
        ("2026-01-01T00:00:05Z", "queued_prompt", "<task-notification>\n<task-id>b1</task-id>"),
    ]
    found = _fix_of_stored(tmp_path, "Bash", {"command": "python3 validate.py"}, calls, prompts)
    assert found == (fixes.FIXED, "c2")


@pytest.mark.parametrize(
    ("retry_command", "printed", "outcome"),
    [
        # its errors in its output, which holds other text and not the error: a success
        ("ssh -T git@github.com 2>&1 || true", "Hi dev! You've successfully authenticated", "fix"),
        # the error again, hidden by `|| true`
        ("ssh -T git@github.com 2>&1 || true", "Host key verification failed.", "masked"),
        # its errors not in its output: the mask may hide them
        ("ssh -T git@github.com || true", "", "masked"),
    ],
)
def test_a_masked_retry_whose_output_kept_its_errors_without_this_one_confirms(
    retry_command, printed, outcome
):
    """`ssh -T git@github.com` exits 1 when it works, so the retry after `ssh-keyscan ... >>
    ~/.ssh/known_hosts` had `2>&1 || true`, and printed the greeting: the card said `papered
    over`, its fix not shown (nineteenth held-out set; a new user's find, session 26)."""
    failed = call(command="ssh -T git@github.com", failed=True)
    scan = call(command="ssh-keyscan -t ed25519 github.com >> ~/.ssh/known_hosts")
    retry = call(command=retry_command)
    error = {
        failed.tool_use_id: "ssh_askpass: exec(/usr/bin/ssh-askpass): No such file or directory"
        "\r\nHost key verification failed."
    }
    outputs = {scan.tool_use_id: "# github.com:22 SSH-2.0-85ba476", retry.tool_use_id: printed}
    fix = run([failed, scan, retry], error, outputs)[failed.tool_use_id]
    if outcome == "fix":
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
        assert [s.tool_use_id for s in fix.remedy] == [scan.tool_use_id]
    else:
        assert fix.outcome == fixes.PAPERED_OVER


def test_a_retry_moved_to_another_folder_comes_after_the_steps_before_it():
    """A module copied where a script imports it, then the script run again from the
    package's folder: the card's first step was that retry (`changed: in ...`), the copy
    second (nineteenth held-out set; a new user's find, session 26)."""
    failed = call(command="npm run generate:css && npm run build", failed=True)
    copy = call(command="mkdir -p app/lib && cp ../admin/app/lib/cssGenerator.ts app/lib/")
    retry = call(command="cd /home/dev/packages/site && npm run generate:css")
    error = {
        failed.tool_use_id: "Exit code 1\nError: Cannot find module '../app/lib/cssGenerator'\n"
        "npm error code 1\nnpm error command failed"
    }
    fix = run([failed, copy, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [copy.tool_use_id, retry.tool_use_id]
    # a retry changed otherwise (its own words) still comes first when the error names it
    other = call(command="npm run generate:css -- --out dist && npm run build")
    fix = run([failed, copy, other], error)[failed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy][0] == other.tool_use_id


def test_a_search_program_not_found_then_another_on_the_same_words_is_worked_around():
    """`rg: command not found` in a WSL, then `grep -R "aider" -n`, which found it: worked
    around (twenty-first held-out set); an unrelated search after it is not."""
    failed = call("shell", command='rg -n "aider" -n', failed=True)
    other = call("shell", command='grep -R "aider" -n')
    error = {failed.tool_use_id: "Exit code 127\nbash: line 1: rg: command not found"}
    fix = run([failed, other], error, {other.tool_use_id: "a.txt:1:aider"})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, other.tool_use_id)
    elsewhere = call("shell", command='grep -R "ollama" -n')
    fix = run([failed, elsewhere], error, {elsewhere.tool_use_id: "b.txt:1:ollama"})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_search_not_found_whose_pattern_looks_like_an_option_is_worked_around():
    """`rg -n "--profiles="`, rg not found; grep took the same pattern for an option, then
    `grep -R -- '--profiles=' .` found it: the same words searched (thirty-fifth held-out
    set, Codex, labelled worked around). Those words are the pattern's, not its flags': a
    grep of `--line-number` alone is another question."""
    failed = call("shell", command='rg --no-heading --line-number "--profiles="', failed=True)
    misused = call("shell", command='grep -R --line-number "--profiles="', failed=True)
    other = call("shell", command="grep -R --line-number -- '--profiles=' .")
    error = {
        failed.tool_use_id: "Exit code 127\nbash: line 1: rg: command not found",
        misused.tool_use_id: "Exit code 2\ngrep: unrecognized option '--profiles='",
    }
    found = {other.tool_use_id: "./a.jsonl:15:--profiles="}
    fix = run([failed, misused, other], error, found)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, other.tool_use_id)
    elsewhere = call("shell", command="grep -R --line-number -- '--models=' .")
    fix = run([failed, elsewhere], error, {elsewhere.tool_use_id: "./a:1:--models="})
    assert fix[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_windows_path_bash_took_apart_then_viewed_by_its_msys_path_is_worked_around():
    """`ping -n 30 127.0.0.1 >nul && type C:\\...\\x.output 2>nul` in Git Bash: exit 1 and
    nothing else; bash took the backslashes for escapes. `cat /c/.../x.output` printed it:
    worked around (thirty-fifth held-out set). Not with the path quoted, where the status
    says nothing of why, nor in a shell that is not bash."""
    path = "C:\\Users\\me\\AppData\\Local\\Temp\\tasks\\x.output"
    failed = call(command=f"ping -n 30 127.0.0.1 >nul && type {path} 2>nul", failed=True)
    shown = call(command="cat /c/Users/me/AppData/Local/Temp/tasks/x.output")
    error = {failed.tool_use_id: "Exit code 1"}
    printed = {shown.tool_use_id: "Test Suite\n3 passed"}
    fix = run([failed, shown], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, shown.tool_use_id)
    quoted = call(command=f'ping -n 30 127.0.0.1 >nul && type "{path}" 2>nul', failed=True)
    error = {quoted.tool_use_id: "Exit code 1"}
    assert run([quoted, shown], error, printed)[quoted.tool_use_id].outcome == fixes.NOT_FIXED
    other = call("PowerShell", command=f"type {path} 2>nul", failed=True)
    error = {other.tool_use_id: "Exit code 1"}
    assert run([other, shown], error, printed)[other.tool_use_id].outcome == fixes.ANSWERED


def test_a_folder_read_as_a_file_then_listed_from_home_is_the_way_round():
    """A subagent's Read of `/Users/me/.claude`, a folder (EISDIR), then `ls -la
    ~/.claude/`: the listing is the way round (thirty-fifth held-out set), a Read of a file
    in it after it or not. A listing of a folder inside it is neither."""
    failed = call("Read", file_path="/Users/me/.claude", failed=True)
    listed = call(command="ls -la ~/.claude/ 2>/dev/null | head -30")
    inside = call(command="ls -la ~/.claude/hooks/ 2>/dev/null")
    read = call("Read", file_path="/Users/me/.claude/settings.json")
    error = {failed.tool_use_id: "EISDIR: illegal operation on a directory, read"}
    printed = {listed.tool_use_id: "settings.json\nhooks", inside.tool_use_id: "a.ts"}
    fix = run([failed, listed, inside], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, listed.tool_use_id)
    fix = run([failed, listed, inside, read], error, printed)[failed.tool_use_id]
    assert (fix.confirmed_by, [s.tool_use_id for s in fix.remedy]) == (
        listed.tool_use_id,
        [listed.tool_use_id],
    )
    fix = run([failed, inside], error, printed)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_retry_that_got_past_run_again_with_more_is_the_step():
    """`cd ~/.claude && bun hooks/self-test.ts` crashed (`ENOENT ... .claude/.claude/
    agents`); run from the project's folder it got past that and failed on a missing folder;
    then `rm -rf x; cd ~/p && bun .claude/hooks/self-test.ts` passed. That retry's change
    fixed this error (thirty-fifth held-out set, labelled so), not the confirmation's, which
    also cleared what the next error left."""
    failed = call(command="cd ~/.claude && bun hooks/self-test.ts 2>&1", failed=True)
    past = call(command="cd ~/p && bun .claude/hooks/self-test.ts 2>&1", failed=True)
    made = call(command="mkdir -p ~/.claude/history/sessions")
    passed = call(
        command='rm -rf ~/.claude/history/x 2>/dev/null; echo "=== again ===" && cd ~/p'
        " && bun .claude/hooks/self-test.ts 2>&1"
    )
    error = {
        failed.tool_use_id: "Exit code 1\nENOENT: no such file or directory, scandir"
        " '/Users/me/p/.claude/.claude/agents'",
        past.tool_use_id: "Exit code 1\nHistory Directory: Missing: /Users/me/p/.claude/history",
    }
    fix = run([failed, past, made, passed], error, {passed.tool_use_id: "ok"})
    fix = fix[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, passed.tool_use_id)
    assert steps(fix) == [
        (past.tool_use_id, "in ~/p; -hooks/self-test.ts +.claude/hooks/self-test.ts")
    ]


def test_a_word_taken_for_an_option_then_given_after_double_dash_is_a_retry():
    """`grep -R "--profiles="`: `unrecognized option`; `grep -R -- '--profiles=' .` is its
    changed retry (twenty-first held-out set). After `--` a word is an argument."""
    failed = call("shell", command='grep -R --line-number "--profiles="', failed=True)
    retry = call("shell", command="grep -R --line-number -- '--profiles=' .")
    error = {
        failed.tool_use_id: "Exit code 2\ngrep: unrecognized option '--profiles='\n"
        "Usage: grep [OPTION]... PATTERNS [FILE]..."
    }
    fix = run([failed, retry], error, {retry.tool_use_id: "./a:15:--profiles="})
    assert (fix[failed.tool_use_id].outcome, fix[failed.tool_use_id].confirmed_by) == (
        fixes.FIXED,
        retry.tool_use_id,
    )
    (intent,) = fixes.intents("grep -R -- '--profiles=' .")
    assert (intent.args, intent.flags) == (frozenset({"--profiles=", "."}), frozenset({"-R"}))


@pytest.mark.parametrize(("home", "same"), [("/Users/dev", True), ("/home/dev", False)])
def test_a_path_in_another_case_is_the_same_file_on_macos(home, same):
    """A Write of `PLAN.md` refused as not read, where `plan.md` had been read, then a Write
    of `plan.md`: fixed on macOS, whose disk is case-insensitive (twenty-first held-out
    set); on Linux two files."""
    failed = call("Write", file_path=f"{home}/app/PLAN.md", failed=True, kind="not_read")
    retry = call("Write", file_path=f"{home}/app/plan.md")
    error = {failed.tool_use_id: "File has not been read yet. Read it first before writing to it."}
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome == fixes.FIXED) is same


def test_a_todo_lists_update_is_no_call_a_card_lists_before_the_fix():
    """A card's `before:` lines listed TodoWrite and TaskUpdate calls (a new user's try,
    session 26): an agent's own plan says nothing of how the error went."""
    failed = call(command="npm test", failed=True)
    todo = call("TodoWrite", input='{"todos": []}')
    task = call("TaskUpdate", input='{"taskId": "2", "status": "in_progress"}')
    plan = call("update_plan", input='{"plan": []}')
    look = call(command="cat package.json")
    edit = call("Edit", file_path="/p/src/a.test.js")
    retry = call(command="npm test")
    error = {failed.tool_use_id: "Exit code 1\nFAIL src/a.test.js\n  expected 2, got 3"}
    fix = run([failed, todo, task, plan, look, edit, retry], error)[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(edit.tool_use_id, None)])
    assert fix.others == [look.tool_use_id]
    assert {"TodoWrite", "TaskUpdate", "update_plan", "write_todos"} <= fixes.PLAN_TOOLS
    assert "Task" not in fixes.PLAN_TOOLS  # a subagent's run


def test_of_several_reads_before_a_reanchored_edit_the_one_that_showed_its_text_is_a_step():
    """An edit's text not found, then three Reads of parts of the file and the edit that
    applied, anchored at what the last one showed: the card listed every Read (sixteenth
    and twentieth held-out sets name the one Read). None showed it: the last one."""
    failed = call("Edit", file_path="/p/v.py", failed=True, kind="string_not_found")
    parts = [call("Read", file_path="/p/v.py", part=f"{n}-{n + 40}") for n in (170, 330, 280)]
    edit = call(
        "Edit",
        file_path="/p/v.py",
        input=json.dumps(
            {"old_string": '    src = os.path.join(tmpdir, "a.c")\n', "new_string": "x"}
        ),
    )
    shown = {
        parts[0].tool_use_id: "175\t    qemu_cfg = os.path.join(",
        parts[1].tool_use_id: '331\t    src = os.path.join(tmpdir, "a.c")',
        parts[2].tool_use_id: "282\t# Step 6",
    }
    error = {failed.tool_use_id: "<tool_use_error>String to replace not found in file."}
    fix = run([failed, *parts, edit], error, shown)[failed.tool_use_id]
    assert [s for s, _ in steps(fix)] == [parts[1].tool_use_id, edit.tool_use_id]
    shown[parts[1].tool_use_id] = "331\t    elsewhere"
    fix = run([failed, *parts, edit], error, shown)[failed.tool_use_id]
    assert [s for s, _ in steps(fix)] == [parts[2].tool_use_id, edit.tool_use_id]


def test_powershell_without_sed_then_get_content_of_the_file():
    """PowerShell has no sed: `sed -n '1,200p' x` (`The term 'sed' is not recognized`),
    then `Get-Content x` viewed the same file another way (twenty-second held-out set);
    Get-Content of another file is no other way."""
    failed = call(
        name="shell",
        command="pwsh.exe -NoLogo -Command 'sed -n \"1,200p\" frontend/vite.config.ts'",
        failed=True,
    )
    error = (
        "Exit code 1\nsed: The term 'sed' is not recognized as a name of a cmdlet, function,"
        " script file, or executable program."
    )
    other = call(name="shell", command="pwsh.exe -Command 'Get-Content -Path frontend/index.html'")
    found = run([failed, other], {failed.tool_use_id: error}, {other.tool_use_id: "<html>"})
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    same = call(
        name="shell",
        command="pwsh.exe -Command 'Get-Content -Path frontend/vite.config.ts -TotalCount 200'",
    )
    outputs = {other.tool_use_id: "<html>", same.tool_use_id: "import x from 'vite'"}
    fix = run([failed, other, same], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, same.tool_use_id)


def test_a_patch_the_shell_could_not_apply_then_applied_by_the_tool():
    """A patch given to the shell (`apply_patch << 'PATCH'` in PowerShell, a parse error; or
    without its `*** Begin Patch`), then the apply_patch tool on that file: worked around
    (twenty-second held-out set, 2; nineteenth, 1)."""
    failed = call(
        name="shell",
        command="pwsh.exe -NoLogo -Command 'apply_patch << 'PATCH'\n*** Begin Patch\n"
        "*** Update File: frontend/vite.config.ts\n@@\n-  https: true,\n*** End Patch\nPATCH'",
        failed=True,
    )
    error = "Exit code 1\nParserError: \nMissing file specification after redirection operator."
    elsewhere = call(name="apply_patch", file_path="frontend/src/main.ts")
    found = run([failed, elsewhere], {failed.tool_use_id: error})
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    patch = call(name="apply_patch", file_path="frontend/vite.config.ts")
    fix = run([failed, patch], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, patch.tool_use_id)


def test_a_search_that_could_not_run_then_found_nothing():
    """`rg "- \\[ \\]" x` took its pattern for a flag; `rg -c -- '- \\[ \\]' x` ran and found
    nothing (exit 1, no output): that answered it, the card says so (twenty-second held-out
    set; a new user's try). A search that found nothing is no fix of one that found nothing,
    and a build that exits 1 is no search."""
    failed = call(command='rg "- \\[ \\]" -c specs/req.md', failed=True)
    error = {failed.tool_use_id: "Exit code 2\nrg: unrecognized flag - "}
    retry = call(command="rg -c -- '- \\[ \\]' specs/req.md", failed=True)
    errors = {**error, retry.tool_use_id: "Exit code 1"}
    outputs = {retry.tool_use_id: "Exit code 1"}
    fix = run([failed, retry], errors, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    row = {"fix_error": "Exit code 1", "fix_target": retry.command}
    assert cards.succeeded(row) == "ran, and found nothing (Exit code 1), which answered it"
    empty = call(command="rg -c 'TODO' specs/req.md", failed=True)
    again = call(command="rg -c -i 'todo' specs/req.md", failed=True)
    errors = {empty.tool_use_id: "Exit code 1", again.tool_use_id: "Exit code 1"}
    found = run([empty, again], errors, {again.tool_use_id: "Exit code 1"})
    assert found[empty.tool_use_id].outcome == fixes.ANSWERED
    build = call(command="make -C specs", failed=True)
    rebuilt = call(command="make -C specs all", failed=True)
    errors = {
        build.tool_use_id: "Exit code 2\nmake: *** No rule",
        rebuilt.tool_use_id: "Exit code 1",
    }
    found = run([build, rebuilt], errors, {rebuilt.tool_use_id: "Exit code 1"})
    assert found[build.tool_use_id].outcome == fixes.NOT_FIXED
    assert cards.succeeded({"fix_error": "Exit code 1", "fix_target": "make all"}).startswith(
        "got past this error"
    )


def test_powershell_filters_after_a_pipe_are_no_shared_intent():
    """`Get-Process node | Where-Object {...} | Select-Object Id` (in Git Bash: not found),
    then a PowerShell query of other processes through the same filters: no retry
    (twenty-second held-out set); the same query run by PowerShell is one."""
    failed = call(
        command='Get-Process node | Where-Object { $_.CommandLine -like "*n8n*" }'
        " | Select-Object Id",
        failed=True,
    )
    error = {
        failed.tool_use_id: "Exit code 127\n/usr/bin/bash: line 1: Get-Process: command not found"
    }
    other = call(
        command='powershell -Command "Get-CimInstance Win32_Process -Filter'
        " \\\"Name = 'ssh.exe'\\\" | Where-Object { $_.CommandLine -match 'serveo' }"
        ' | Select-Object ProcessId"'
    )
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    same = call(
        command='powershell -Command "Get-Process node | Where-Object { $_.CommandLine -like'
        " '*n8n*' } | Select-Object Id\""
    )
    fix = run([failed, same], error, {same.tool_use_id: "Id\n6220"})[failed.tool_use_id]
    assert fix.confirmed_by == same.tool_use_id


def test_powershell_blocks_and_their_keywords_are_no_shared_intent():
    """`try { $v = & python --version 2>&1; Write-Output ... } catch { ... }` hit the
    Microsoft Store's stub; a later `foreach ($u in @(...)) { try { $r = Invoke-WebRequest
    ... } catch { ... } }` shared only the keywords and braces of PowerShell's blocks, taken
    for a program `try`: no retry (thirty-eighth held-out set, "fixed" so, its card showing
    the failed `python -c` between). A brace alone ends a command, and a loop's head
    runs none; the command inside the block is what runs."""
    ran = [i.program for i in fixes.intents("try { $v = & python --version } catch { x }")]
    assert "python" in ran and "x" in ran and not {"try", "catch", "{", "}"} & set(ran)
    assert [i.program for i in fixes.intents("foreach ($u in $urls) { curl $u }")] == ["curl"]
    assert [i.program for i in fixes.intents("find . -name x -exec rm {} +")] == ["find", "rm"]
    failed = call(
        "PowerShell",
        command='try { $v = & python --version 2>&1; Write-Output "python --version => $v" }'
        ' catch { Write-Output "python NG: $($_.Exception.Message)" }',
        failed=True,
    )
    fetch = call(
        "PowerShell",
        command="foreach ($u in @('http://localhost:8000/a.js')) {\n"
        "  try { $r = Invoke-WebRequest -Uri $u -UseBasicParsing -TimeoutSec 5 }"
        ' catch { Write-Output ("{0} => NG" -f $u) }\n}',
    )
    error = {failed.tool_use_id: "Exit code 49\npython --version => Python"}
    fix = run([failed, fetch], error, {fetch.tool_use_id: "HTTP 200"})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_powershell_options_value_is_no_shared_intent():
    """`powershell -ExecutionPolicy Bypass -File ./check.ps1` failed; `... -File
    ./cleanup.ps1` ran another script, sharing only the option's value `Bypass`: no retry
    (twenty-second held-out set). The same script run again is one."""
    failed = call(command="powershell -ExecutionPolicy Bypass -File ./check.ps1", failed=True)
    error = {failed.tool_use_id: "Exit code 1\n[-] Docker: NOT RUNNING"}
    other = call(command="powershell -ExecutionPolicy Bypass -File ./cleanup.ps1")
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="powershell -ep bypass -File .\\check.ps1")
    fix = run([failed, again], error, {again.tool_use_id: "[+] Docker: RUNNING"})
    assert fix[failed.tool_use_id].confirmed_by == again.tool_use_id


def test_an_edit_whose_text_was_not_found_is_redone_before_the_next_prompt():
    """Six patches of a file's headings did not apply; the agent went another way, the user
    then asked for a label's colour, and the patch of that file for it was taken for their
    redo (twenty-second held-out set, a new user's try). An edit whose text was not found
    is redone in its turn: after a prompt, an edit of the file is the prompt's."""
    failed = call("apply_patch", file_path="src/page.tsx", failed=True, kind="string_not_found")
    error = {failed.tool_use_id: "apply_patch verification failed: Failed to find expected lines"}
    later = call("apply_patch", file_path="src/page.tsx")
    asked = [later.timestamp.replace("Z", ".000Z")]  # between the two
    found = run([failed, later], error, prompts=asked)[failed.tool_use_id]
    assert found.outcome == fixes.NOT_FIXED
    fix = run([failed, later], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, later.tool_use_id)


def test_a_search_that_said_why_it_could_not_search_found_nothing_no():
    """`rg x src\\Controllers\\*.cs` on Windows (a glob nothing expanded) exited 1 saying
    `rg: src\\Controllers\\*.cs: IO error ... (os error 123)`: it was taken for a search that
    found nothing, so the folder searched next was no retry (twenty-third held-out set)."""
    failed = call(command='rg -n "Authorize" src\\Api\\Controllers\\*.cs', failed=True)
    error = {
        failed.tool_use_id: "Exit code 1\nrg: src\\Api\\Controllers\\*.cs: IO error for operation"
        " on src\\Api\\Controllers\\*.cs: The filename syntax is incorrect. (os error 123)"
    }
    folder = call(command='rg -n "Authorize" src/Api/Controllers')
    fix = run([failed, folder], error, {folder.tool_use_id: "x.cs:7:[Authorize]"})
    assert fix[failed.tool_use_id].confirmed_by == folder.tool_use_id
    assert fixes.found_nothing('rg -n "Authorize" src', "Exit code 1\n")
    assert not fixes.found_nothing('rg -n "Authorize" src', error[failed.tool_use_id])


def test_a_check_that_could_not_start_confirms_nothing():
    """`npx tsc --noEmit 2>&1 | head -60` exited 0 (head's status) with `Error: Cannot find
    module '.../typescript/bin/tsc'`: the card said the fix of the `cd` before it
    "succeeded"; the check that ran clean later confirms it (eighteenth held-out set, a new
    user's try)."""
    failed = call(command="cd apps/api && npx tsc --noEmit", failed=True)
    error = {failed.tool_use_id: "Exit code 1\n(eval):cd:1: no such file or directory: apps/api"}
    crashed = call(command="npx tsc --noEmit 2>&1 | head -60")
    clean = call(command="/w/node_modules/typescript/bin/tsc --noEmit -p apps/api")
    outputs = {
        crashed.tool_use_id: "node:internal/modules/cjs/loader:1423\n  throw err;\n\n"
        "Error: Cannot find module '/w/node_modules/.pnpm/typescript@5.8.3/bin/tsc'",
        clean.tool_use_id: "",
    }
    fix = run([failed, crashed, clean], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == clean.tool_use_id


def test_a_run_that_crashed_behind_a_pipe_confirms_nothing():
    """`python3 app.py 2>&1 | head -20` exits 0 (head's status) though the program crashed:
    its traceback says so, and the run that then worked confirms the fix. A look at a log
    that holds a traceback (`tail app.log`) is no crash of its own."""
    failed = call(command="python3 app.py", failed=True)
    error = {failed.tool_use_id: "Exit code 1\nModuleNotFoundError: No module named 'yaml'"}
    install = call(command="pip install pyyaml")
    crashed = call(command="python3 app.py 2>&1 | head -20")
    edit = call("Edit", file_path="/p/app.py")
    clean = call(command="python3 app.py 2>&1 | head -20")
    outputs = {
        crashed.tool_use_id: 'Traceback (most recent call last):\n  File "app.py", line 3\n'
        "KeyError: 'port'",
        clean.tool_use_id: "serving on :8000",
    }
    fix = run([failed, install, crashed, edit, clean], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == clean.tool_use_id
    assert not fixes._crashed(call(command="tail -50 app.log | head"), outputs[crashed.tool_use_id])


def test_edits_of_files_the_failure_only_warned_about_are_no_steps():
    """`next build` failed on a type error in groups/page.tsx after eslint's warnings of
    other files; the patch of that page, then patches that cleared the warnings, then the
    build that passed: the warnings failed nothing, their patches are no steps (thirty-first
    held-out set, a new user's try). When the warnings are the failure (`--max-warnings 0`),
    they are."""
    failed = call(name="shell", command="npm run build", failed=True)
    warnings = (
        "./src/app/curriculum/page.tsx\n"
        "6:10  Warning: 'Suspense' is defined but never used.  no-unused-vars\n\n"
    )
    error = (
        f"Exit code 1\n   Linting and checking validity of types ...\n\n{warnings}"
        "Failed to compile.\n\n./src/app/profiles/groups/page.tsx:23:8\n"
        "Type error: Property 'feedback' is missing in type '{}' but required in type 'Props'."
    )
    page = call(name="apply_patch", file_path="src/app/profiles/groups/page.tsx")
    warned = call(name="apply_patch", file_path="src/app/curriculum/page.tsx")
    build = call(name="shell", command="npm run build")
    fix = run([failed, page, warned, build], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, steps(fix)) == (fixes.FIXED, [(page.tool_use_id, None)])
    assert warned.tool_use_id in fix.others
    lint = call(name="shell", command="npx eslint src --max-warnings 0", failed=True)
    said = f"Exit code 1\n{warnings}ESLint found too many warnings (maximum: 0)."
    again = call(name="shell", command="npx eslint src --max-warnings 0")
    fix = run([lint, warned, again], {lint.tool_use_id: said})[lint.tool_use_id]
    assert steps(fix) == [(warned.tool_use_id, None)]


def test_a_run_that_crashed_behind_a_pipe_is_no_step():
    """A YAML check that failed on its ERB, then `bundle exec rails runner ... 2>&1 | head
    -5` (exit 0 from head: bundler could not load rails, Ruby's exception and its frames),
    then the check rewritten, which passed: the rails run did nothing, and is no step of the
    fix (thirty-first held-out set, a new user's card showed it as one). The same run that
    did its work is one."""
    yml = "File.read('/p/config/models/appointment_types.yml')"
    failed = call(
        command=f"ruby -ryaml -rerb -e \"YAML.load(ERB.new({yml}).result); puts 'YAML is valid'\"",
        failed=True,
    )
    error = {
        failed.tool_use_id: "Exit code 1\n(erb):402:in '<main>': uninitialized constant"
        " ActiveRecord (NameError)\n\tfrom /r/lib/erb.rb:1012:in 'Kernel#eval'"
    }
    rails = call(command='bundle exec rails runner "AppointmentType.first(3)" 2>&1 | head -5')
    passed = call(
        command=f"ruby -ryaml -e \"\ncontent = {yml}\ncontent.gsub!(/<%= .*? %>/, 'x')\n"
        "YAML.safe_load(content)\nputs 'YAML structure is valid'\n\""
    )
    crash = (
        "bundler: failed to load command: rails (/r/bin/rails)\n"
        "/r/bundler/definition.rb:697:in 'Bundler::Definition#materialize': Could not find"
        " aws-sdk-s3-1.208.0 in locally installed gems (Bundler::GemNotFound)\n"
        "\tfrom /r/bundler/definition.rb:237:in 'Bundler::Definition#specs'"
    )
    fix = run([failed, rails, passed], error, {rails.tool_use_id: crash})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, passed.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [passed.tool_use_id]
    ran = run([failed, rails, passed], error, {rails.tool_use_id: "[1, 2, 3]"})
    assert [s.tool_use_id for s in ran[failed.tool_use_id].remedy] == [
        rails.tool_use_id,
        passed.tool_use_id,
    ]
    # Ruby's exception is a crash only with its frames after it (older Rubies quote with `)
    assert fixes._crashed(rails, crash.replace("'Bundler::Definition#specs'", "`specs'"))
    assert not fixes._crashed(rails, "x.rb:3:in 'y': done (OK)")


@pytest.mark.parametrize(
    "search",
    [
        lambda: call("Grep", pattern="getTenderType", file_path="/p/pkg/client"),
        lambda: call(command='grep -n "nombrecontacto" /p/pkg/client/http_client_test.go'),
    ],
)
def test_a_file_too_large_to_read_searched_in_its_folder_or_by_the_shell(search):
    """A Read refused as too large, then the file's folder searched by Grep, or the file by
    the shell's grep: worked around (twenty-fourth held-out set, 2 people). Not a Grep of
    another folder, nor a grep of another file."""
    error = "File content (63502 tokens) exceeds maximum allowed tokens (25000)."
    failed = call("Read", file_path="/p/pkg/client/http_client_test.go", failed=True)
    other = call("Grep", pattern="getTenderType", file_path="/p/internal")
    other_file = call(command='grep -n "x" /p/pkg/client/http_client.go')
    way = search()
    found = run([failed, other, other_file, way], {failed.tool_use_id: error})
    fix = found[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, way.tool_use_id)


def test_arguments_the_program_refused_are_retried_by_a_run_with_others():
    """`--short-name requires a value` of a script given a long description: the same script
    run with other arguments is the retry, though they share none (twenty-fourth held-out
    set). Not its --help, and not when the failed call was itself a --help (its usage was
    the answer)."""
    failed = call(
        command='.specify/x/create-feature.sh --json "a long description" --short-name "cook"',
        failed=True,
    )
    error = {failed.tool_use_id: "Exit code 1\nError: --short-name requires a value"}
    helped = call(command=".specify/x/create-feature.sh --help")
    look = call(command="sed -n '1,200p' .specify/x/create-feature.sh")
    retry = call(command=".specify/x/create-feature.sh --json test")
    fix = run([failed, helped, look, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    usage = call(command="gemini --help", failed=True)
    prompt = call(command='gemini -p "hi"')
    found = run([usage, prompt], {usage.tool_use_id: "Exit code 255\nUsage: gemini [options]"})
    assert found[usage.tool_use_id].outcome == fixes.ANSWERED


def test_the_help_of_a_subcommand_refused_is_retried_by_its_run_once_made():
    """`kira test --help` refused (`invalid choice: 'test'`): the help never ran, the agent
    wrote the subcommand, and `kira test` ran, far into the window (thirty-sixth held-out
    set, labelled fixed by the edits; a new user's try, nu41 finding 6). Not a run of another
    subcommand, nor one without the word refused."""
    error = (
        "Exit code 2\nusage: prime kira [-h] {validate,mentor} ...\nprime kira: error: argument"
        " action: invalid choice: 'test' (choose from 'validate', 'mentor')"
    )
    failed = call("shell", command="python3 vesselos.py kira test --help", failed=True)
    looks = [call("shell", command=f"sed -n '1,200p' cli/f{n}.py") for n in range(30)]
    edits = [call("apply_patch", file_path=f"/p/cli/{name}.py") for name in ("prime", "commands")]
    ran = call("shell", command="python3 vesselos.py kira test")
    fix = run([failed, *looks, *edits, ran], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ran.tool_use_id)
    assert [s for s, _ in steps(fix)] == [e.tool_use_id for e in edits]
    for other in ("python3 vesselos.py kira validate", "python3 vesselos.py kira"):
        done = call("shell", command=other)
        fix = run([failed, *edits, done], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED, other


def test_a_run_that_replaced_the_word_the_error_quotes_is_a_changed_retry():
    """`git log --oneline 2026-01-25`: `fatal: ambiguous argument '2026-01-25': unknown
    revision`; the branch was `branch-2026-01-25`, and the same log of it is the retry,
    though they share no argument (other agents' sessions, a new user's try: "not fixed").
    A log with other words besides (`main --not ...`) asks something else; a word the error
    does not quote, replaced, is no retry of it."""
    error = (
        "Exit code 1\nfatal: ambiguous argument '2026-01-25': unknown revision or path not in"
        " the working tree.\nUse '--' to separate paths from revisions, like this:\n"
        "'git <command> [<revision>...] -- [<file>...]'"
    )
    failed = call("run_shell_command", command="git log --oneline 2026-01-25", failed=True)
    other = call("run_shell_command", command="git log main --not branch-2026-01-25")
    retry = call("run_shell_command", command="git log --oneline branch-2026-01-25")
    fix = run([failed, other, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(retry.tool_use_id, "-2026-01-25 +branch-2026-01-25")]
    fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    failed = call(command="git log --oneline release", failed=True)
    shown = call(command="git log --oneline main")
    quoted = {failed.tool_use_id: "Exit code 128\nfatal: bad default revision 'HEAD'"}
    assert run([failed, shown], quoted)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_another_subcommand_that_needs_no_word_the_error_quotes_is_a_changed_retry():
    """`git reset HEAD . && git add a b` before the first commit: `fatal: ambiguous argument
    'HEAD': unknown revision`; then `git rm -r --cached .; git add a b`, which unstages
    without HEAD (thirty-second held-out set, fixed). A look of the same paths, or another
    subcommand on other paths, is none."""
    error = (
        "Exit code 128\nfatal: ambiguous argument 'HEAD': unknown revision or path not in"
        " the working tree."
    )
    failed = call(command="git reset HEAD . && git add .gitignore app/x.js", failed=True)
    status = call(command="git status --short .")
    other = call(command="git rm --cached app/y.js")
    unstaged = call(command="git rm -r --cached . 2>/dev/null; git add .gitignore app/x.js")
    fix = run([failed, status, other, unstaged], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, unstaged.tool_use_id)
    fix = run([failed, status, other], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_path_whose_variable_the_shell_left_is_fixed_by_the_path_written_out():
    """cmd's `dir "%APPDATA%\\Claude\\logs" /B` in Git Bash (`cannot access
    '%APPDATA%\\Claude\\logs'`), then `ls -lt` of that folder written out (thirty-second
    held-out set, fixed); a `~` in quotes likewise. Another folder is no retry."""
    failed = call(command='dir "%APPDATA%\\Claude\\logs" /B /O-D', failed=True)
    error = {
        failed.tool_use_id: "Exit code 2\ndir: cannot access '%APPDATA%\\Claude\\logs': No such"
        " file or directory\ndir: cannot access '/B': No such file or directory"
    }
    other = call(command='ls -lt "C:\\Users\\me\\AppData\\Roaming\\Claude\\cache"')
    listed = call(command='ls -lt "C:\\Users\\me\\AppData\\Roaming\\Claude\\logs" | head -20')
    fix = run([failed, other, listed], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, listed.tool_use_id)
    assert "+C:\\Users\\me\\AppData\\Roaming\\Claude\\logs" in steps(fix)[0][1]
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.ANSWERED
    tilde = call(command="cat '~/notes/todo.md'", failed=True)
    said = {tilde.tool_use_id: "Exit code 1\ncat: '~/notes/todo.md': No such file or directory"}
    shown = call(command="cat /home/me/notes/todo.md")
    assert run([tilde, shown], said)[tilde.tool_use_id].confirmed_by == shown.tool_use_id


def test_what_follows_a_heredocs_delimiter_is_the_commands():
    """`cat <<'EOF' > test/x_test.go` writes the file (its body aside), and `cat <<EOF |
    kubectl apply -f -` runs kubectl: the rest of the delimiter's line is the command's, not
    the heredoc's (Codex's rewrites of a Go test were no steps of the run they fixed:
    twenty-fourth held-out set)."""
    rewrite = call(command="cat <<'EOF' > test/usecase/x_test.go\npackage usecase_test\nEOF\n")
    assert fixes._changes_state(rewrite)
    assert [
        (i.program, i.sub) for i in fixes.intents("cat <<EOF | kubectl apply -f -\nkind: Pod\nEOF")
    ] == [
        ("cat", None),
        ("kubectl", "apply"),
    ]
    failed = call(command="go test ./...", failed=True)
    error = {
        failed.tool_use_id: 'Exit code 1\ntest/usecase/x_test.go:4:2: "bytes" imported and not used'
    }
    retry = call(command="go test ./...")
    fix = run([failed, rewrite, retry], error)[failed.tool_use_id]
    assert steps(fix) == [(rewrite.tool_use_id, None)]


@pytest.mark.parametrize(
    "url,host",
    [
        ("https://admin:[REDACTED:url-password]@db.example.com:5432/x", "db.example.com"),
        ("https://[REDACTED:url-password]@db.example.com/x", "db.example.com"),
        ("https://docs.example.com]/x", "docs.example.com"),
        ("https://x.com:abc/", "x.com"),
        ("https://GitHub.com/a/b/pull/3", "github.com"),
    ],
)
def test_a_url_urllib_cannot_read_still_has_a_host(url, host):
    """A page fetch of a URL with a password, once redacted (`[REDACTED:url-password]` reads
    as an IPv6 address in brackets), or a model's malformed URL: urllib raised, and the fix
    rules lost every fix of the session (a security tester's finding, session 28)."""
    assert fixes._host(url) == host


def test_a_rule_that_fails_on_one_failure_loses_only_its_fix(monkeypatch):
    """With `failed_rules`, a rule raising on one failure costs that failure its fix; the
    session's other failures keep theirs, and the exception is handed back."""
    one = call(command="npm test", failed=True)
    install = call(command="npm install left-pad")
    retry = call(command="npm test")
    other = call("WebFetch", failed=True)
    errors = {one.tool_use_id: "Error: Cannot find module 'left-pad'", other.tool_use_id: "403"}
    real = fixes.fix_of

    def failing(failed, *args, **kw):
        if failed.tool_use_id == other.tool_use_id:
            raise ValueError("Invalid IPv6 URL")
        return real(failed, *args, **kw)

    monkeypatch.setattr(fixes, "fix_of", failing)
    failed_rules = []
    found = list(
        fixes.session_fixes(
            [one, install, retry, other],
            (),
            errors,
            lambda t: "",
            signatures.key_line,
            signatures.signature,
            (),
            failed_rules,
        )
    )
    assert [(f.tool_use_id, f.confirmed_by) for f in found] == [
        (one.tool_use_id, retry.tool_use_id)
    ]
    assert [(t, type(e)) for t, e in failed_rules] == [(other.tool_use_id, ValueError)]
    with pytest.raises(ValueError):
        list(fixes.session_fixes([one, install, retry, other], (), errors, lambda t: ""))


@pytest.mark.parametrize(
    "command",
    [
        'perl -0pi -e "s/3\\. Old/3. New/" .specify/templates/plan-template.md',
        "sed -i 's/Old/New/' .specify/templates/plan-template.md",
        "sed -i.bak -e 's/Old/New/' .specify/templates/plan-template.md",
    ],
)
def test_an_edit_refused_then_the_file_edited_in_place_by_the_shell(command):
    """An apply_patch of a file that is not UTF-8 (`stream did not contain valid UTF-8`),
    then `perl -0pi -e` of it: worked around (twenty-fourth held-out set); so with `sed -i`.
    Not `sed -n`, which only prints."""
    failed = call("apply_patch", file_path=".specify/templates/plan-template.md", failed=True)
    error = {
        failed.tool_use_id: "error: Failed to read file to update x: stream did not contain valid"
        " UTF-8"
    }
    look = call(command="sed -n '30,80p' .specify/templates/plan-template.md")
    way = call(command=command)
    fix = run([failed, look, way], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, way.tool_use_id)


def test_a_program_run_by_its_windows_path_is_that_program():
    """`cmake: command not found` in Git Bash, then Visual Studio's cmake.exe by its full
    path: the same program (its folder and `.exe` aside), so a retry (twenty-fourth
    held-out set)."""
    cmake = '"/c/Program Files/VS/CMake/bin/cmake.exe" -S . -B build'
    assert [(i.program, i.sub) for i in fixes.intents(cmake)] == [("cmake", None)]
    assert [i.program for i in fixes.intents("C:\\tools\\node.exe app.js")] == ["node"]
    failed = call(command="cmake -S . -B build", failed=True)
    error = {failed.tool_use_id: "Exit code 127\n/usr/bin/bash: line 1: cmake: command not found"}
    retry = call(command=cmake)
    fix = run([failed, retry], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)


def test_cmd_that_printed_only_its_banner_ran_nothing():
    """Git Bash's `cmd /c "x.exe --version"` (its `/c` made a path) starts cmd, which prints
    its banner and prompt and runs nothing: no confirmation; PowerShell's run of it is."""
    failed = call(command=".\\kuzu_cli\\kuzu.exe --version", failed=True)
    error = {failed.tool_use_id: "/usr/bin/bash: line 1: .kuzu_clikuzu.exe: command not found"}
    banner = call(command='cmd /c "kuzu_cli\\kuzu.exe --version"')
    ran = call(command='powershell -Command ".\\kuzu_cli\\kuzu.exe --version"')
    outputs = {
        banner.tool_use_id: "Microsoft Windows [Version 10.0.26100.4652]\r\n(c) Microsoft"
        " Corporation. All rights reserved.\r\n\r\nC:\\Users\\t\\app>",
        ran.tool_use_id: "Kuzu 0.11.1",
    }
    fix = run([failed, banner, ran], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == ran.tool_use_id


def test_cmds_banner_in_another_language_ran_nothing_either():
    """cmd's banner in French (`[version ...]`, `Tous droits réservés.`) is no run either: a
    card said fixed by it (twenty-seventh held-out set, abandoned)."""
    failed = call(
        command="npx dotenv-cli -e .env -- npx @firecrawl/mcp-server --version", failed=True
    )
    error = {
        failed.tool_use_id: "/usr/bin/bash: Files\\Git\\bin\\bash.exe: No such file or directory"
    }
    banner = call(command='cmd /c "npx dotenv-cli -e .env -- npx @firecrawl/mcp-server --help"')
    outputs = {
        banner.tool_use_id: "Microsoft Windows [version 10.0.26100.4652]\r\n(c) Microsoft"
        " Corporation. Tous droits réservés.\r\n\r\nE:\\sandbox\\app>"
    }
    fix = run([failed, banner], error, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    outputs[banner.tool_use_id] += "dir\r\n Volume in drive E"
    assert run([failed, banner], error, outputs)[failed.tool_use_id].outcome == fixes.FIXED


@pytest.mark.parametrize(
    "failed_command,message,other",
    [
        (
            "pnpm type-check 2>&1",
            "undefined\n\u2009ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\u2009 Command"
            ' "type-check" not found',
            "pnpm tsc --noEmit 2>&1",
        ),
        (
            "yarn test:client src/a.test.ts",
            'error Command "test:client" not found.',
            "cd client && yarn test src/a.test.ts",
        ),
        ("npm run typecheck", 'npm error Missing script: "typecheck"', "npm run check"),
    ],
)
def test_a_script_the_package_manager_did_not_know_then_another_one(failed_command, message, other):
    """A script the project does not have, then the package manager running another one (or
    a tool of the project) is what it was for, run as the project has it (twenty-second and
    twenty-seventh held-out sets). An install between is no such run, and a `--help` says
    how, not does it."""
    failed = call(command=failed_command, failed=True)
    error = {failed.tool_use_id: f"Exit code 1\n{message}"}
    install = call(command=failed_command.split()[0] + " install")
    helped = call(command=failed_command.split()[0] + " --help")
    way = call(command=other)
    fix = run([failed, install, helped, way], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, way.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy][:1] == [install.tool_use_id]
    # another error: the package manager's next run is no answer to it
    other_error = {failed.tool_use_id: "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:5432"}
    assert run([failed, way], other_error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_listing_of_the_scripts_is_no_run_of_one_but_a_step_of_the_run_it_led_to():
    """`yarn test:web`, no such script; `yarn run | grep test` lists the scripts (`yarn run`
    names none), then `yarn test_web` runs the one it printed: that run got past the error,
    the listing is its step, not its confirmation (nu49's held-out set). A listing that
    printed another name is no step."""
    failed = call(command='yarn test:web --grep "two-step sync"', failed=True)
    listing = call(command="cd /p && yarn run | grep test")
    ran = call(command="yarn test_web")
    error = {
        failed.tool_use_id: 'Exit code 1\nUsage Error: Couldn\'t find a script named "test:web".'
    }
    printed = {listing.tool_use_id: "   - test_web\n   - test_webdb"}
    fix = run([failed, listing, ran], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ran.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [listing.tool_use_id]
    printed = {listing.tool_use_id: "   - test_e2e"}
    fix = run([failed, listing, ran], error, printed)[failed.tool_use_id]
    assert (fix.confirmed_by, fix.remedy) == (ran.tool_use_id, [])


def test_a_script_the_package_manager_did_not_know_then_another_one_that_failed_on_more():
    """`yarn test:web`, no such script at the root; then `cd ynab_web && yarn test`, which
    ran the tests, and they failed: it got past the missing script, and the edits after it
    were for the tests (the real corpus; a new user's try: "not fixed", then: the edits).
    Another script not found is no way past it."""
    failed = call(command='yarn test:web --filter="loading-state-test"', failed=True)
    tests = call(command='cd ynab_web && yarn test --filter="loading-state-test"', failed=True)
    edit = call("Edit", file_path="ynab_web/tests/loading-state-test.ts")
    errors = {
        failed.tool_use_id: 'Exit code 1\nUsage Error: Couldn\'t find a script named "test:web".',
        tests.tool_use_id: "Exit code 1\nnot ok 1 Chrome - loading state: Assertion Failed",
    }
    fix = run([failed, tests, edit], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, tests.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [tests.tool_use_id]
    errors[tests.tool_use_id] = 'Exit code 1\nUsage Error: Couldn\'t find a script named "test".'
    assert run([failed, tests, edit], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_inline_code_the_shell_broke_run_from_a_file():
    """`node -e "..."` whose template literal bash took for a substitution, then the same
    code written to a file and run by node: the fix (nineteenth held-out set). A file that
    was not written since, or another program, is not it."""
    failed = call(command='cd "C:/app/backend" && node -e "\nconst s = `${x}`;\n"', failed=True)
    error = {
        failed.tool_use_id: "Exit code 1\n/usr/bin/bash: command substitution: line 85: syntax"
        " error near unexpected token `)'"
    }
    check = call(command='cd "C:/app/backend" && node old-script.cjs')
    written = call("Write", file_path="C:/app/backend/fix-webhooks.cjs")
    ran = call(command='cd "C:/app/backend" && node fix-webhooks.cjs')
    fix = run([failed, check, written, ran], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ran.tool_use_id)
    assert written.tool_use_id in [s.tool_use_id for s in fix.remedy]
    assert run([failed, check], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # a heredoc written by the shell counts as well
    heredoc = call(command="cat > fix.py <<'EOF'\nprint(1)\nEOF")
    py = call(command="python -c \"\nprint('it's')\n\"", failed=True)
    unparsed = {
        py.tool_use_id: "/usr/bin/bash: -c: line 3: unexpected EOF while looking for matching `\"'"
    }
    by_file = call(command="python fix.py")
    assert run([py, heredoc, by_file], unparsed)[py.tool_use_id].confirmed_by == by_file.tool_use_id


def test_a_script_rewritten_under_another_name_and_run_works_around_it():
    """`python process_nav_data.py` crashed; `process_nav_data_v2.py` written, then run by
    python in the same folder: the script rewritten whole (twenty-ninth held-out set, five
    failures of one session). Not a script written before the failure, another program, a
    script of another kind or folder, nor one that was not written."""
    cd = 'cd "/Users/me/nav data" && '
    failed = call(command=cd + "python process_nav_data.py", failed=True)
    error = {failed.tool_use_id: "Traceback (most recent call last):\nKeyError: 'sheet_1'"}
    written = call("Write", file_path="/Users/me/nav data/process_nav_data_v2.py")
    ran = call(command=cd + "python process_nav_data_v2.py")
    fix = run([failed, written, ran], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, ran.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [written.tool_use_id, ran.tool_use_id]
    # not written since the failure
    assert run([written, failed, ran], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # by another program, of another kind, in another folder
    for other in (
        "node process_nav_data_v2.py",
        "python tools/process_nav_data_v2.py",
    ):
        assert (
            run([failed, written, call(command=cd + other)], error)[failed.tool_use_id].outcome
            == fixes.NOT_FIXED
        ), other
    shell_js = call(command="cat > gen.js <<'EOF'\nconsole.log(1)\nEOF")
    assert (
        run([failed, shell_js, call(command=cd + "node gen.js")], error)[failed.tool_use_id].outcome
        == fixes.NOT_FIXED
    )
    # by its absolute path; not a script that looks into the failure (eighteenth held-out
    # set: `bash .../verify-plugin.sh` failing, then `debug-plugin.sh`, abandoned)
    failed_abs = call(command="bash /home/me/kit/scripts/verify-plugin.sh", failed=True)
    error_abs = {failed_abs.tool_use_id: "Exit code 1\nplugin not registered"}
    for name, outcome in (
        ("register-plugin.sh", fixes.WORKED_AROUND),
        ("debug-plugin.sh", fixes.NOT_FIXED),
    ):
        script = f"/home/me/kit/scripts/{name}"
        steps = [failed_abs, call("Write", file_path=script), call(command=f"bash {script}")]
        assert run(steps, error_abs)[failed_abs.tool_use_id].outcome == outcome, name
    # written by the shell counts as well
    heredoc = call(command="cat > process_v3.py <<'EOF'\nprint(1)\nEOF")
    by_file = call(command="python process_v3.py")
    fix = run([failed, heredoc, by_file], error)[failed.tool_use_id]
    assert fix.confirmed_by == by_file.tool_use_id


def test_a_repository_the_missing_program_named_reached_by_its_url():
    """`gh repo view owner/repo`, gh not installed, then `git clone` of that repository's
    URL: worked around (twenty-eighth held-out set). Another repository's URL is not."""
    failed = call(command="gh repo view 17871787/nutrient-data-v2", failed=True)
    error = {failed.tool_use_id: "/usr/bin/bash: line 1: gh: command not found"}
    cloned = call(command="git clone https://github.com/17871787/nutrient-data-v2.git")
    fix = run([failed, cloned], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, cloned.tool_use_id)
    ssh = call(command="git clone git@github.com:17871787/nutrient-data-v2")
    assert run([failed, ssh], error)[failed.tool_use_id].confirmed_by == ssh.tool_use_id
    other = call(command="git clone https://github.com/17871787/nutrient-data-v3.git")
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # a failure of another kind: gh's own error is no missing program
    refused = {failed.tool_use_id: "GraphQL: Could not resolve to a Repository"}
    assert run([failed, cloned], refused)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_dotenv_runs_the_command_after_its_options():
    """`npx dotenv-cli -e .env -- npx x --version` runs x: a later `dotenv-cli ... -- node -e`
    is no retry of it (twenty-seventh held-out set, abandoned)."""
    failed = call(
        command="npx dotenv-cli -e .env -- npx @firecrawl/mcp-server --version", failed=True
    )
    error = {
        failed.tool_use_id: "/usr/bin/bash: Files\\Git\\bin\\bash.exe: No such file or directory"
    }
    other = call(command='npx dotenv-cli -e .env -- node -e "console.log(process.env.A)"')
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="npx dotenv-cli -e .env.local -- npx @firecrawl/mcp-server --help")
    assert run([failed, again], error)[failed.tool_use_id].outcome == fixes.FIXED


def test_a_checks_fixer_script_is_its_retry():
    """`bun lint` (prettier's `Code style issues found`), then `bun lint:fix`: the project's
    script that fixes what the other checks (twenty-seventh held-out set); not another
    script (`bun build`)."""
    failed = call(command="bun lint", failed=True)
    error = {
        failed.tool_use_id: "$ prettier --check .\n[warn] Code style issues found in the"
        " above file."
    }
    built = call(command="bun build")
    fixer = call(command="bun lint:fix")
    fix = run([failed, built, fixer], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, fixer.tool_use_id)
    assert run([failed, built], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_script_that_was_to_save_is_not_retried_by_one_that_reads():
    """A `python -c` that was to add totals to a workbook and save it, which bash could not
    parse, then one that only prints that workbook's rows, both after the same `cd`: no
    retry, no rewrite (twenty-seventh held-out set, abandoned). One that saves it is."""
    book = "r'C:\\Users\\a\\Desktop\\costs.xlsx'"
    failed = call(
        command=f'cd "C:\\Users\\a\\xlsx" && python -c "\nfrom openpyxl import load_workbook\n'
        f"wb = load_workbook({book})\nsheet = wb['Costs']\nsheet.cell(20, 1).value = 'it's'\n"
        'wb.save(file_path)\n"',
        failed=True,
    )
    error = {
        failed.tool_use_id: "Exit code 2\n/usr/bin/bash: -c: line 7: unexpected EOF while"
        " looking for matching `''"
    }
    look = call(
        command=f'cd "C:\\Users\\a\\xlsx" && python -c "\nfrom openpyxl import load_workbook\n'
        f"wb = load_workbook({book})\nprint(wb['Costs'].max_row)\n\""
    )
    assert run([failed, look], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    saved = call(
        command=f'cd "C:\\Users\\a\\xlsx" && python -c "\nfrom openpyxl import load_workbook\n'
        f"wb = load_workbook({book})\nwb['Costs'].cell(20, 1).value = 'total'\nwb.save({book})\n\""
    )
    fix = run([failed, look, saved], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, saved.tool_use_id)


@pytest.mark.parametrize(
    "failed_command,wider,found",
    [
        ('rg -n "datatable"', 'rg -n "datatable" -i apps/web/src', "apps/web/src/x.js:3:DataTable"),
        ("rg --files -g '.specify/**'", "rg --files .specify", ".specify/memory/constitution.md"),
        ('rg -n "apiKey" src', 'rg -n --hidden "apiKey" src', "src/.env.js:1:apiKey"),
    ],
)
def test_a_search_that_found_nothing_widened_and_found_it(failed_command, wider, found):
    """Case ignored, hidden files searched, a glob given up for the folder it named: the same
    search made wider, finding what the first missed, is its retry (twenty-fourth held-out
    set, 2 people). Another pattern stays another question."""
    failed = call(command=failed_command, failed=True)
    other = call(command='rg -n "Table" -i apps/web/src')
    retry = call(command=wider)
    outputs = {other.tool_use_id: "apps/web/src/y.js:1:Table", retry.tool_use_id: found}
    fix = run([failed, other, retry], {failed.tool_use_id: "Exit code 1"}, outputs)[
        failed.tool_use_id
    ]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)


@pytest.mark.parametrize(
    "retry_command,fixed",
    [
        ('rg -n "chat_sessions" supabase/migrations -S', True),
        ('rg -n "create table" supabase/migrations -S', True),
        ('rg -n "chat_session" supabase/migrations -S', False),  # a word cut, not dropped
        ('rg -n "chat_sessions" supabase -S', False),  # another folder too
        ('rg -n "sessions" supabase/migrations -S', False),  # another word
        ('rg -n "create table chat_sessions" supabase/migrations -S -w', False),
    ],
)
def test_a_search_that_found_nothing_asked_with_fewer_words_found_it(retry_command, fixed):
    """`rg -n "create table chat_sessions" supabase/migrations`, exit 1, then the same search
    for `chat_sessions` alone, which printed `CREATE TABLE IF NOT EXISTS chat_sessions`: the
    same question asked more widely, its retry (thirty-fourth held-out set, a Codex user).
    A word changed, or a folder, is another question; so is one alternative of `a|b`; and
    so is the word alone when no line it printed holds the others (the table altered, never
    created there: the thirty-fourth's own, fixed but unsure by its label; `rg "class Kira"
    cli`, then `rg "kira" cli` listing its uses: thirty-sixth, not a problem)."""
    failed = call(
        "shell_command",
        command='rg -n "create table chat_sessions" supabase/migrations -S',
        failed=True,
    )
    retry = call("shell_command", command=retry_command)
    created = "supabase/migrations/002_chat.sql:4:CREATE TABLE IF NOT EXISTS chat_sessions ("
    altered = "supabase/migrations/021_mode.sql:10:ALTER TABLE chat_sessions"
    outputs = {retry.tool_use_id: f"{altered}\n{created}"}
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1"}, outputs)[failed.tool_use_id]
    assert (fix.confirmed_by == retry.tool_use_id) is fixed
    outputs = {retry.tool_use_id: f"{altered}\nsupabase/migrations/022_x.sql:3:-- create a column"}
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1"}, outputs)[failed.tool_use_id]
    assert fix.confirmed_by is None
    kira = call("shell", command='rg "class Kira" cli -n', failed=True)
    uses = call("shell", command='rg "kira" cli -n')
    outputs = {
        uses.tool_use_id: "cli/commands.py:21:from agents.kira.kira_agent import KiraAgent\n"
        'cli/prime.py:111:    p_kira = sub.add_parser("kira", help="Kira agent commands")'
    }
    fix = run([kira, uses], {kira.tool_use_id: "Exit code 1"}, outputs)[kira.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.ANSWERED, None)
    either = call(
        "shell_command", command='rg -n "chat_sessions|chat_session_mode" supabase', failed=True
    )
    one = call("shell_command", command='rg -n "chat_sessions" supabase')
    outputs = {one.tool_use_id: "supabase/migrations/021_mode.sql:10:ALTER TABLE chat_sessions"}
    fix = run([either, one], {either.tool_use_id: "Exit code 1"}, outputs)[either.tool_use_id]
    assert fix.outcome == fixes.ANSWERED


@pytest.mark.parametrize(
    "failed_command,retry_command,fixed",
    [
        (
            'grep -RIn "absolute-overlaps|checkOverlaps" src',
            'grep -RIn "absolute-overlaps" src/a.ts',
            True,
        ),
        ('grep -rn "foo|bar" src', 'grep -rnE "foo|bar" src', True),
        ('grep -rn "foo|bar" src', 'grep -rn "foo\\|bar" src', True),
        ('grep -rn "foo|bar" src', 'grep -rn "baz" src', False),  # another question
        ('grep -rnE "foo|bar" src', 'grep -rn "foo" src', False),  # `|` was alternation
        ('grep -rnF "foo|bar" src', 'grep -rn "foo" src', False),  # fixed strings
    ],
)
def test_a_basic_regex_alternation_asked_again_as_the_user_meant_it(
    failed_command, retry_command, fixed
):
    """grep's basic regex reads `a|b` as three characters and finds nothing: the search made
    again with `-E`, `\\|` or one alternative, finding it, is its retry (twenty-fifth
    held-out set). Not when `|` was already alternation or meant as a character."""
    failed = call(command=failed_command, failed=True)
    retry = call(command=retry_command)
    outputs = {retry.tool_use_id: "src/a.ts:46:  absolute-overlaps foo baz"}
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1"}, outputs)[failed.tool_use_id]
    assert (fix.confirmed_by == retry.tool_use_id) is fixed


def test_a_look_that_never_ran_is_made_again_by_another_look_of_its_path():
    """Cancelled with its sibling, `find src/processors -type f` never ran; `ls -la
    src/processors/` then did what it was for. PowerShell's `Test-Path` of a Windows path,
    cancelled so, was answered by Git Bash's listing of its folder that printed its name
    (twentieth and twenty-second held-out sets). A look of another path is no such retry."""
    cancelled = "<tool_use_error>Sibling tool call errored</tool_use_error>"
    failed = call(command="find /w/src/processors -type f", failed=True, kind="sibling_error")
    other = call(command="ls -la /w/src/storage/")
    again = call(command="ls -la /w/src/processors/")
    outputs = {other.tool_use_id: "db.py", again.tool_use_id: "__init__.py"}
    fix = run([failed, other, again], {failed.tool_use_id: cancelled}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    test = call(
        command='Test-Path "C:\\Users\\me\\.claude\\projects" && echo EXISTS',
        failed=True,
        kind="sibling_error",
    )
    listing = call(command='ls -la "/c/Users/me/.claude/" | grep projects')
    outputs = {listing.tool_use_id: "drwxr-xr-x 1 me 0 May  8 21:05 projects"}
    fix = run([test, listing], {test.tool_use_id: cancelled}, outputs)[test.tool_use_id]
    assert fix.confirmed_by == listing.tool_use_id


def test_a_call_sent_beside_the_failed_one_is_not_its_fix():
    """Two Tasks sent in one turn, one refused for want of a prompt: the other, made before
    the error came back, neither redoes it nor answers it; the Task made after is the retry
    (a new user's try, session 28)."""
    failed = call("Task", failed=True, at="2026-01-01T00:00:00.100Z", input='{"description": "a"}')
    beside = call(
        "Task", at="2026-01-01T00:00:00.200Z", input='{"description": "b", "prompt": "x"}'
    )
    retry = call("Task", at="2026-01-01T00:00:40.000Z", input='{"description": "a", "prompt": "y"}')
    error = "InputValidationError: The required parameter `prompt` is missing"
    found = fixes.session_fixes(
        [failed, beside, retry],
        (),
        {failed.tool_use_id: error},
        lambda t: "",
        answered={failed.tool_use_id: "2026-01-01T00:00:01.000Z"},
    )
    assert [f.confirmed_by for f in found] == [retry.tool_use_id]


def test_a_retry_sent_beside_a_failure_whose_error_the_agent_had_met_is_its_fix():
    """Two `qzcli logs --tail 300` runs left running (`--raw`, `--json`); the `--raw` poll
    timed out, then, in one turn, the `--json` poll (timing out the same) and a new `--tail
    80 --raw` run were sent, whose later poll printed the log (thirty-eighth held-out set,
    both timeouts fixed by the new run). The new run was sent before the second timeout came
    back, but after the first had: it answers the error, met twice. A call sent beside a
    failure whose error the agent had not met is still no fix of it."""
    q = "qzcli logs --tail {} --{} job-5acf"
    timeout = "Exit code 1\nHTTPSConnectionPool(host='qz.x', port=443): Read timed out."

    def t(s):
        return f"2026-01-01T00:00:{s:06.3f}Z"

    raw = call("exec_command", command=q.format(300, "raw"), running=True, at=t(1))
    json_ = call("exec_command", command=q.format(300, "json"), running=True, at=t(1.1))
    poll_raw = call("write_stdin", command=q.format(300, "raw"), failed=True, at=t(2))
    poll_json = call("write_stdin", command=q.format(300, "json"), failed=True, at=t(30))
    new = call("exec_command", command=q.format(80, "raw"), running=True, at=t(30.001))
    poll_new = call("write_stdin", command=q.format(80, "raw"), at=t(45))
    errors = {poll_raw.tool_use_id: timeout, poll_json.tool_use_id: timeout}
    answered = {poll_raw.tool_use_id: t(29), poll_json.tool_use_id: t(30.1)}
    calls = [raw, json_, poll_raw, poll_json, new, poll_new]
    found = {
        f.tool_use_id: f
        for f in fixes.session_fixes(
            calls,
            (),
            errors,
            lambda _: "log",
            signatures.key_line,
            signatures.signature,
            answered=answered,
        )  # fmt: skip
    }
    for failed in (poll_raw, poll_json):
        fix = found[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, new.tool_use_id)
    # the first poll's error unmet when the second was sent: the new run, beside it, is none
    answered[poll_raw.tool_use_id] = t(31)
    found = {
        f.tool_use_id: f
        for f in fixes.session_fixes(
            calls,
            (),
            errors,
            lambda _: "log",
            signatures.key_line,
            signatures.signature,
            answered=answered,
        )  # fmt: skip
    }
    assert found[poll_json.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_view_whose_program_crashed_is_redone_by_another_viewer():
    """PowerShell's `Get-Content` of a file crashed (`Internal CLR error`), then cmd's `type`
    of it: worked around (twenty-fourth held-out set). A search that could not parse its
    pattern is not answered by a view of the file."""
    crashed = "Exit code: -1073741819\nFatal error. Internal CLR error. (0x80131506)"
    failed = call(
        "shell_command",
        command="Get-Content -TotalCount 220 .\\apps\\web\\lib\\api.ts",
        failed=True,
    )
    way = call("shell_command", command="cmd /c type .\\apps\\web\\lib\\api.ts")
    outputs = {way.tool_use_id: "export const api = 1"}
    fix = run([failed, way], {failed.tool_use_id: crashed}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, way.tool_use_id)
    search = call(command='rg "{{" -n docs/template.md', failed=True)
    view = call(command="head -n 40 docs/template.md")
    error = {
        search.tool_use_id: "Exit code 2\nrg: regex parse error:\n    (?:{{)\nerror: repetition"
    }
    found = run([search, view], error, {view.tool_use_id: "# Brief: {{name}}"})
    assert found[search.tool_use_id].outcome == fixes.NOT_FIXED


def test_the_steps_done_next_are_calls_that_did_more_than_look():
    """After a failure nothing fixed, what a card says was done next: the first three calls
    that succeeded and did more than look, whatever the agent's name for a look."""
    looks = [
        call("Read", file_path="/p/a.py"),
        call(command="cd /p && ls -la && git diff --stat"),
        call(command="sed -n '1,40p' x.py"),
        call(command="gh pr view 12"),
        call(command="npm --version"),
        call("Grep", pattern="x"),
        call("TodoWrite"),
        call("BashOutput"),
        call("read_powershell"),
        call("KillShell"),
        call("WebFetch", url="https://example.com"),
        call(command="make", failed=True),
        call("exec_command", command="npm run dev", running=True),
    ]
    steps = [
        call(command="python3 convert_v2.py"),
        call("Write", file_path="/p/notes.md"),
        call("Task", input='{"description": "look into it"}'),
        call(command="npm test"),
    ]
    chosen = fixes.next_steps([looks[0], steps[0], *looks[1:], *steps[1:]])
    assert chosen == steps[:3]


def test_a_command_the_agent_stopped_itself_is_no_failure_to_fix():
    """A Codex write_stdin that sent only Ctrl-C to the server it had started: its exit
    status is that stop (`CondaError: KeyboardInterrupt`, exit 1). A later run of another
    command of the same program was taken for its retry, and the card said "fixed" by four
    calls of other work (thirtieth held-out set)."""
    server = "conda run -n kimodo python -m viser --port 8080"
    started = call("exec_command", command=server, running=True)
    stop = call(
        "write_stdin",
        command=server,
        failed=True,
        input=json.dumps({"session_id": 7, "chars": "\u0003"}),
    )
    other = call("exec_command", command="conda run -n kimodo python -m unittest tests.test_x -v")
    error = "Exit code 1\n^C(viser) Server stopped\n\nCondaError: KeyboardInterrupt"
    fix = run([started, stop, other], {stop.tool_use_id: error})[stop.tool_use_id]
    assert (fix.outcome, fix.remedy, fix.confirmed_by) == (fixes.STOPPED, [], None)
    # keys typed into a prompt that then failed are no stop
    typed = call(
        "write_stdin",
        command=server,
        failed=True,
        input=json.dumps({"session_id": 7, "chars": "y\n"}),
    )
    found = run([started, typed, other], {typed.tool_use_id: error})[typed.tool_use_id]
    assert found.outcome != fixes.STOPPED


@pytest.mark.parametrize(
    "failed_command",
    ["python workers/ingestion.py --skill x", "PYTHONPATH=/srv/api python3 workers/ingestion.py"],
)
@pytest.mark.parametrize(
    "instead",
    [
        'PYTHONPATH=. python -c "from workers.ingestion import Worker; Worker().run()"',
        "python3 - <<'PY'\nimport workers.ingestion as w\nw.main()\nPY",
        "cd /srv/api && python -m workers.ingestion --skill x",
    ],
)
def test_a_script_that_could_not_import_its_package_run_as_its_module_is_worked_around(
    failed_command, instead
):
    """`python workers/ingestion.py`: `No module named 'stores'` (its package's folder not
    on the path), then the worker imported by inline code or run with -m: the work done as
    a module (thirtieth held-out set, two failures of one session)."""
    failed = call(command=failed_command, failed=True)
    other = call(command=instead)
    for error in (
        "Exit code 1\nTraceback (most recent call last):\n"
        "ModuleNotFoundError: No module named 'stores'",
        "Exit code 1\nImportError: attempted relative import with no known parent package",
    ):
        fix = run([failed, other], {failed.tool_use_id: error})[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, other.tool_use_id)
    # another module imported, or another error, is no such way
    elsewhere = call(command='python -c "from workers.export import run; run()"')
    fix = run([failed, elsewhere], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    typo = "Exit code 1\nNameError: name 'x' is not defined"
    assert run([failed, other], {failed.tool_use_id: typo})[failed.tool_use_id].outcome != (
        fixes.WORKED_AROUND
    )


def test_two_scripts_of_one_interpreter_are_two_programs():
    """`python visualize_dataset.py /tmp/smoke --limit 1` failed (`No module named 'viser'`);
    `python dataset/preprocess_dataset.py --output /tmp/smoke --max 1` after it shares two
    arguments but runs another program: it was taken for the retry (thirtieth held-out
    set). The same script by another path or interpreter name still is one."""
    failed = call(
        command="python visualize_dataset.py /tmp/smoke --split train --limit 1", failed=True
    )
    other = call(command="python dataset/preprocess_dataset.py --output /tmp/smoke --max 1")
    error = {failed.tool_use_id: "Exit code 1\nModuleNotFoundError: No module named 'viser'"}
    assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    again = call(command="python3 ./visualize_dataset.py /tmp/smoke --split train --limit 1")
    assert run([failed, again], error)[failed.tool_use_id].confirmed_by == again.tool_use_id


def test_another_way_followed_by_the_same_failure_again_did_not_reach_the_goal():
    """`git merge` refused over local changes, then `git reset --hard HEAD`, then the same
    merge refused the same way (the files kept coming back): the reset was no other way to
    the merge, and moving the files away before the merge that went through fixed it
    (thirty-first held-out set, 2 failures). Without the merge failing again, the reset
    still works around it."""
    refused = (
        "Exit code 1\nerror: Your local changes to the following files would be overwritten"
        " by merge:\n\t.claude/settings.local.json\nPlease commit your changes or stash them"
        " before you merge.\nAborting"
    )
    failed = call(command="git merge subway-dmb", failed=True)
    reset = call(command="git reset --hard HEAD")
    again = call(command="git merge subway-dmb", failed=True)
    moved = call(command="mv .claude/settings.local.json /tmp/settings.local.json.backup")
    merged = call(command="git merge subway-dmb")
    errors = {failed.tool_use_id: refused, again.tool_use_id: refused}
    fix = run([failed, reset, again, moved, merged], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (
        fixes.FIXED,
        merged.tool_use_id,
        [(moved.tool_use_id, None)],
    )
    fix = run([failed, reset, moved, merged], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, reset.tool_use_id)


def test_a_rewritten_query_that_got_past_the_error_is_its_step():
    """`rails runner "<query>"` failing on a new error each time the query was rewritten,
    then one that ran: each failure's step is the rewrite that got past it (its query is
    quoted text, no word of its intent), not nothing (thirty-first held-out set, 3
    failures). A rewrite beside a fix made before it (an install) is no step of its own."""
    runner = 'DISABLE_SPRING=1 bundle exec rails runner "\n{}\n" 2>&1'
    gems = call(command=runner.format("CareCase.joins(:member).where(status: 'active').first"))
    install = call(command="bundle install 2>&1 | tail -10")
    joined = call(command=runner.format("CareCase.joins(:member).limit(20).first"), failed=True)
    column = call(command=runner.format("CareCase.where(service_line_id: 'x').first"), failed=True)
    ran = call(command=runner.format("CareCase.order(id: :desc).limit(5).each { |c| p c }"))
    errors = {
        gems.tool_use_id: "Exit code 1\nCould not find aws-sdk-s3-1.208.0 in locally installed"
        " gems (Bundler::GemNotFound)",
        joined.tool_use_id: "Exit code 1\nCan't join 'CareCase' to association named 'member';"
        " perhaps you misspelled it? (ActiveRecord::ConfigurationError)",
        column.tool_use_id: 'Exit code 1\nPG::UndefinedColumn: ERROR:  column "service_line_id"'
        " does not exist",
    }
    found = run([gems, install, joined, column, ran], errors)
    rewritten = "its quoted text rewritten"
    assert [steps(found[c.tool_use_id]) for c in (gems, joined, column)] == [
        [(install.tool_use_id, None)],
        [(column.tool_use_id, rewritten)],
        [(ran.tool_use_id, rewritten)],
    ]
    assert {found[c.tool_use_id].confirmed_by for c in (gems, joined, column)} == {ran.tool_use_id}


def test_inline_code_rewritten_is_a_change_of_its_retry():
    """`python3 -c` whose code failed, then other code that ran: the retry was changed (its
    code is no word of its intent, so the card showed no step); an option's quoted value
    (`git commit -m`) is no change of what a command does."""
    failed = call(
        command="python3 -c \"import json; print(json.load(open('a.json'))['x'])\"", failed=True
    )
    retry = call(command="python3 -c \"import json; print(json.load(open('a.json')).get('x'))\"")
    errors = {failed.tool_use_id: "Exit code 1\nKeyError: 'x'"}
    fix = run([failed, retry], errors)[failed.tool_use_id]
    assert steps(fix) == [(retry.tool_use_id, "its code rewritten")]
    failed = call(command='git commit -m "add the parser"', failed=True)
    retry = call(command='git commit -m "add the new parser"')
    errors = {failed.tool_use_id: "Exit code 1\nerror: gpg failed to sign the data"}
    assert steps(run([failed, retry], errors)[failed.tool_use_id]) == []


def test_how_a_retry_was_rewritten_is_read_once_per_pair():
    """_rewritten is asked of the same two commands for each failure they fix: it reads
    them once, and answers each time as it did (inline code, quoted text, nothing)."""
    fixes._rewritten.cache_clear()
    pairs = [
        (
            "python3 -c \"import json; print(json.load(open('a.json'))['x'])\"",
            "python3 -c \"import json; print(json.load(open('a.json')).get('x'))\"",
            "its code rewritten",
        ),
        (
            'rails runner "puts User.where(active: true).count"',
            'rails runner "puts User.where(active: false).count"',
            "its quoted text rewritten",
        ),
        ('git commit -m "add the parser"', 'git commit -m "add a parser"', None),
        ("ls src", "pytest -x", None),
    ]
    for _ in range(3):
        for failed, retry, change in pairs:
            assert fixes._rewritten(failed, retry) == change
    assert fixes._rewritten.cache_info().misses == len(pairs)


def test_a_sessions_commands_are_split_and_read_once():
    """The rules ask for a command's simple commands, the files it names and its acting parts
    for each failure whose window holds it: each is read once a command, and each caller
    gets what it would have alone (a list or set of its own to change)."""
    for cached in (fixes._segments, fixes._files_named, fixes._acting_parts):
        cached.cache_clear()
    commands = [
        "cd app && npm test -- --watch=false | tail -20",
        "npm run build > build.log 2>&1",
        "npm test -- --watch=false",
        "cp dist/app.js public/app.js && ls public",
    ]
    calls = []
    errors = {}
    for n in range(4):  # four failures of the same commands, each window holding the rest
        for command in commands:
            made = call(command=command, failed=command != commands[-1])
            calls.append(made)
            if made.failed:
                errors[made.tool_use_id] = f"Exit code 1\nError: step {n} failed"
    run(calls, errors)
    assert fixes._segments.cache_info().misses == len(commands)
    assert fixes._segments.cache_info().hits > 0
    assert fixes._files_named.cache_info().hits > 0
    first = fixes.segments(commands[0])
    assert first == [["npm", "test", "--", "--watch=false"]]
    first[0].append("--changed")
    first.append(["rm", "-rf", "/"])
    assert fixes.segments(commands[0]) == [["npm", "test", "--", "--watch=false"]]
    made = call(command=commands[-1])
    written = fixes._files_of(made, written=True)
    assert written == {"app.js"}
    written.add("x.js")
    assert fixes._files_of(made, written=True) == {"app.js"}
    assert fixes._acting_parts(commands[-1]) == {("cp", "dist/app.js", "public/app.js")}


def test_an_outputs_words_are_read_once_for_the_steps_it_names():
    """_named compares each step's programs with the words of the failure's output: the
    output is read once for all its steps, and each step is named as before."""
    fixes._error_words.cache_clear()
    error = "Exit code 1\n" + "\n".join(f"test {n} ok" for n in range(500)) + "\nRun 'mix format'"
    failed = call(command="mix test", failed=True)
    named = [call(command="mix format"), call(command="npm ci"), call(command="make")]
    assert [fixes._named(step, error, failed) for step in named] == [True, False, False]
    assert [fixes._named(step, error, failed) for step in named] == [True, False, False]
    assert fixes._error_words.cache_info().misses == 1


def test_a_chains_failure_is_read_once_per_command_and_key_line():
    """_chain_failure is asked of a failed chain for each retry of its window, by several
    rules: it reads the chain once, and answers each time as it did."""
    fixes._chain_failure.cache_clear()
    command = "npm run build && pm2 restart x"
    key_line = "npm error Missing script: build"
    for _ in range(3):
        chain, failing = fixes._chain_failure(command, key_line)
        assert [[i.program for i in part] for part in chain] == [["npm"], ["pm2"]]
        assert set(failing) == {0}
        assert [i.program for i in fixes._not_failing(command, key_line)] == ["pm2"]
    assert fixes._chain_failure.cache_info().misses == 1


@pytest.mark.parametrize(
    "word",
    [
        "(cd",
        "test)",
        "f(x)",
        "$(id -u)",
        "x))",
        "a)b)",
        "((gc",
        "main.js)",
        ")",
        "-p",
        "",
        'print(len(open("a.txt").read()))',
        "x = (1, (2)); print(x))",
    ],
)
def test_a_groups_parentheses_are_read_as_each_character_was(word):
    """_ungrouped reads only a word's parentheses (a word may be a script of thousands of
    characters): what it keeps is what a walk over each character keeps."""

    def walked(words):
        kept, depth, opened = [], 0, 0
        bare = words[0].lstrip("(")
        opened = len(words[0]) - len(bare)
        words = [bare, *words[1:]] if bare or not opened else words[1:]
        for w in words:
            shut = 0
            for char in w:
                if char == "(":
                    depth, shut = depth + 1, 0
                elif char == ")" and depth:
                    depth, shut = depth - 1, 0
                elif char == ")":
                    shut += 1
                else:
                    shut = 0
            if shut:
                w = w[:-shut]
                if opened:
                    return [*kept, w] if w else kept
            if w or not shut:
                kept.append(w)
        return kept

    for words in (["echo", word], ["(cd", "x", word], ["echo", word, "y)"], ["(echo", f"{word}z)"]):
        assert fixes._ungrouped(words) == walked(words), words


def test_warned_files_are_told_with_one_match_of_each_line():
    """_warned_only matches each line of an output once, however many files it warns of (a
    test log of thousands of lines and many files was matched again for each file), and
    tells the same files: those named only by warnings, not those an error or another line
    names too."""
    log = ["src/a.ts", "  3:1  warning  unused x", "src/b.ts", "  4:2  warning  unused y"]
    log += ["src/c.ts", "  5:1  error  missing z", "lib/d.py:3: warning: old", "see src/b.ts"]
    log += [f"line {n} of the run" for n in range(200)]
    counted = {"n": 0}

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def match(self, line):
            counted["n"] += 1
            return self.pattern.match(line)

    error = "\n".join(log)
    expected = {"src/a.ts", "lib/d.py"}
    assert fixes._warned_only(error) == expected
    patched = pytest.MonkeyPatch()
    with patched.context() as m:
        m.setattr(fixes, "_REPORTED_FILE", Counting(fixes._REPORTED_FILE))
        m.setattr(fixes, "_FILE_FINDING", Counting(fixes._FILE_FINDING))
        assert fixes._warned_only(error) == expected
    assert counted["n"] <= 2 * len(log)


def test_a_cached_search_of_a_command_answers_as_its_pattern():
    """Whether a command writes a file, or an output says no tests ran, is asked of the same
    text for each call of a window: cached and searched only when a text holds one of the
    pattern's needles, each answers as its pattern's search does."""
    texts = [
        "python3 - <<'EOF'\nopen('out.csv', 'w').write(x)\nEOF",
        "node -e \"fs.writeFileSync('a.json', s)\"",
        "python3 -c \"df.to_csv('x.csv')\"",
        "python3 -c \"print(open('a').read())\"",
        "ls -la " + "x" * 5000,
        "Ran 0 tests in 0.000s\n\nNO TESTS RAN",
        "collected 0 items\n\n==== no tests ran in 0.01s ====",
        "ran 10 tests",
        "Kelvin: \u212aran 0 tests",
        "pytest: xno tests ran",
    ]
    fixes._writes_file.cache_clear()
    for text in texts:
        assert fixes._writes_file(text) is bool(fixes._WRITES_FILE.search(text)), text
        assert fixes._says_no_tests(text) is bool(fixes._NO_TESTS.search(text)), text
    assert fixes._writes_file.cache_info().hits == 0
    for text in texts:
        fixes._writes_file(text)
    assert fixes._writes_file.cache_info().hits == len(texts)


def test_a_retry_its_program_refused_got_past_nothing():
    """`devbox shell` timed out, then `timeout 30 devbox shell --command ...` refused (`unknown
    flag: --command`: it never ran), then `rm -rf .devbox` and `devbox shell`: the removal
    is a step, not cut off by the refused retry as a retry that got past the error
    (thirty-first held-out set)."""
    failed = call(command="DEVBOX_DEBUG=1 devbox shell", failed=True)
    flag = call(command="timeout 30 devbox shell --command \"echo 'Shell works'\"", failed=True)
    removed = call(command="rm -rf .devbox")
    shell = call(command="devbox shell")
    errors = {
        failed.tool_use_id: "Command timed out after 1m 0.0s level=DEBUG msg=print-dev-env",
        flag.tool_use_id: "Error: unknown flag: --command",
    }
    fix = run([failed, flag, removed, shell], errors)[failed.tool_use_id]
    assert (fix.confirmed_by, sorted(step for step, _ in steps(fix))) == (
        shell.tool_use_id,
        sorted([removed.tool_use_id, shell.tool_use_id]),
    )


def test_an_edit_the_user_rejected_is_redone_only_by_one_writing_the_same():
    """An Edit of a theme's colours the user rejected ("not a fan of catppuccin, maybe tokyo
    night?"), then an edit of that file setting the theme's name: not its redo, the user's
    "no" (thirty-first held-out set, 2 not a problem). The same colours written again, or an
    edit whose texts are not known, are."""
    colours = json.dumps(
        {"old_string": 'bg "#1e1e2e"\nfg "#cdd6f4"', "new_string": 'bg "#11111b"\nfg "#cdd6f4"'}
    )
    failed = call("Edit", file_path="/d/config.kdl", failed=True, kind="rejected", input=colours)
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    named = {"old_string": 'theme "catppuccin-mocha"', "new_string": 'theme "tokyo-night-dark"'}
    theme = call("Edit", file_path="/d/config.kdl", input=json.dumps(named))
    assert run([failed, theme], rejected)[failed.tool_use_id].outcome == fixes.DECLINED
    write = call("Write", file_path="/d/config.kdl", input='{"content": "theme \\"nord\\""}')
    assert run([failed, write], rejected)[failed.tool_use_id].outcome == fixes.DECLINED
    same = call("Edit", file_path="/d/config.kdl", input=colours)
    unknown = call("Edit", file_path="/d/config.kdl")
    for redo in (same, unknown):
        fix = run([failed, theme, redo], rejected)[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, redo.tool_use_id)


def test_the_build_reads_the_edits_inputs_of_a_session_with_a_rejected_edit(tmp_path):
    """refresh_fixes gives the rules the inputs of a session's edits when the user rejected
    one (the rest of the time an edit's input is not read): the later edit of the file that
    writes something else is no redo."""
    conn = db.connect(tmp_path / "index.db")
    calls = [
        ("e1", '{"old_string": "let a = 1", "new_string": "let alpha = import ./alpha"}', 1),
        ("e2", '{"old_string": "lib, nixpkgs", "new_string": "nixpkgs, hardware"}', 0),
    ]
    for n, (tool_use_id, tool_input, error) in enumerate(calls):
        content = "The user doesn't want to proceed with this tool use." if error else "ok"
        kind = "rejected" if error else None
        store_call(
            conn, n, tool_use_id, "Edit", tool_input, content, kind, file_path="/p/default.nix"
        )
    db.refresh_fixes(conn)
    assert conn.execute("SELECT outcome FROM fixes WHERE tool_use_id = 'e1'").fetchone() == (
        fixes.DECLINED,
    )


def test_a_poll_that_failed_first_runs_where_its_command_was_started(tmp_path):
    """Codex's `tsc --noEmit` still running when exec_command returned, its poll failing
    with `Cannot find module 'xlsx'`, the session's first failure; the same command run
    again later, in the same folder, passed. The calls were read from the poll on, its
    exec_command unseen, so the poll had no folder and the rerun was "changed: in <folder>"
    (thirty-third held-out set, no step by its label). They are read from that
    exec_command on."""
    conn = db.connect(tmp_path / "index.db")
    tsc = "./node_modules/.bin/tsc --noEmit -p tsconfig.json"
    started = json.dumps({"cmd": tsc, "workdir": "/u/app"})
    polled = json.dumps({"session_id": 7, "chars": ""})
    store_call(conn, 1, "e1", "exec_command", started, "Process running with session ID 7",
               command=tsc)  # fmt: skip
    conn.execute("UPDATE tool_results SET kind = 'running' WHERE tool_use_id = 'e1'")
    store_call(conn, 2, "p1", "write_stdin", polled, "Exit code 2\nsrc/a.ts:3:18 - error"
               " TS2307: Cannot find module 'xlsx'", "error", command=tsc)  # fmt: skip
    store_call(conn, 3, "e2", "exec_command", started, "", command=tsc)
    db.refresh_fixes(conn)
    assert conn.execute("SELECT outcome, confirmed_by, remedy FROM fixes").fetchall() == [
        (fixes.FIXED, "e2", "[]")
    ]
    assert {name.strip(" '") for name in db._POLLS_SQL.split(",")} == fixes._POLLS


def test_a_search_without_a_path_retried_on_a_folder_says_what_changed(tmp_path):
    """Copilot's grep given `type: rs` (`rg: unrecognized file type: rs`), then without it
    and given `path`, its folder: the card said "called again with other input", where the
    dropped type is the lesson (a new user's try, session 38). The retry names a file, whose
    input was not read: the build reads the inputs of such a session's calls of that tool."""
    conn = db.connect(tmp_path / "index.db")
    asked = {"pattern": "Failed to connect", "type": "rs"}
    store_call(conn, 1, "g1", "grep", json.dumps(asked), "rg: unrecognized file type: rs", "error")
    store_call(conn, 2, "v1", "view", json.dumps({"path": "/u/app"}), "src", file_path="/u/app")
    again = {"pattern": "Failed to connect", "path": "/u/app/src"}
    store_call(conn, 3, "g2", "grep", json.dumps(again), "/u/app/src/errors.rs",
               file_path="/u/app/src")  # fmt: skip
    db.refresh_fixes(conn)
    outcome, confirmed_by, remedy = conn.execute(
        "SELECT outcome, confirmed_by, remedy FROM fixes"
    ).fetchone()
    assert (outcome, confirmed_by) == (fixes.FIXED, "g2")
    assert [step["change"] for step in json.loads(remedy)] == ["-type: rs, +path: /u/app/src"]


def test_a_retry_of_a_call_with_a_file_whose_input_its_tool_refused_says_what_changed(tmp_path):
    """A Grep given `file_path` (`InputValidationError: ... An unexpected parameter
    `file_path` was provided`), then one given `path`: its card said only "confirmed:
    Grep src/page.php succeeded", the renamed parameter that fixed it nowhere (a new
    user's try, session 34; a Write given `file_content` alike). The build reads the inputs
    of such a session's calls of that tool (a call with a file's input is not read the
    rest of the time), and the retry is a step saying what it changed in it."""
    conn = db.connect(tmp_path / "index.db")
    calls = [
        ("g1", "Grep", '{"pattern": "review", "file_path": "/u/src/page.php", "context": 3}'),
        ("g2", "Grep", '{"pattern": "review", "path": "/u/src/page.php", "context": 4}'),
        ("w1", "Write", '{"file_path": "/u/NOTES.md", "file_content": "# Notes"}'),
        ("w2", "Write", '{"file_path": "/u/NOTES.md", "content": "# Notes"}'),
    ]
    refused = {
        "g1": "Grep failed due to the following issue:\nAn unexpected parameter `file_path` was"
        " provided",
        "w1": "Write failed due to the following issues:\nThe required parameter `content` is"
        " missing\nAn unexpected parameter `file_content` was provided",
    }
    for n, (tool_use_id, name, tool_input) in enumerate(calls):
        path = json.loads(tool_input).get("file_path") or json.loads(tool_input)["path"]
        error = refused.get(tool_use_id)
        if error:
            content = f"<tool_use_error>InputValidationError: {error}</tool_use_error>"
            store_call(
                conn, n, tool_use_id, name, tool_input, content, "input_validation", file_path=path
            )
        else:
            store_call(conn, n, tool_use_id, name, tool_input, "ok", file_path=path)
    db.refresh_fixes(conn)
    found = {
        tool_use_id: (outcome, confirmed_by, json.loads(remedy))
        for tool_use_id, outcome, confirmed_by, remedy in conn.execute(
            "SELECT tool_use_id, outcome, confirmed_by, remedy FROM fixes"
        )
    }
    assert found["g1"] == (
        fixes.FIXED,
        "g2",
        [{"tool_use_id": "g2", "tool": "Grep", "target": "/u/src/page.php",
          "change": "file_path → path, context: 4"}],
    )  # fmt: skip
    assert found["w1"][:2] == (fixes.FIXED, "w2")
    assert [step["change"] for step in found["w1"][2]] == ["file_content → content"]


@pytest.mark.parametrize(
    ("command", "error", "page", "worked_around"),
    [
        # thirty-first held-out set: the latest release read from its page instead
        (
            "gh release view --repo kvndrsslr/sketchybar-app-font --json tagName",
            "Exit code 4\nTo get started with GitHub CLI, please run:  gh auth login",
            "https://github.com/kvndrsslr/sketchybar-app-font/releases/latest",
            True,
        ),
        (
            "gh pr list --repo acme/api",
            "Exit code 127\n/bin/bash: line 1: gh: command not found",
            "https://github.com/acme/api/pulls",
            True,
        ),
        # another repository's page answers nothing of this one
        (
            "gh release view --repo acme/api",
            "Exit code 4\nTo get started with GitHub CLI, please run:  gh auth login",
            "https://github.com/acme/web/releases",
            False,
        ),
        # a page read makes no pull request
        (
            "gh pr create --repo acme/api --fill",
            "Exit code 4\nTo get started with GitHub CLI, please run:  gh auth login",
            "https://github.com/acme/api/pulls",
            False,
        ),
        # the command ran, and failed on what it asked: not a way round it
        (
            "gh release view v9 --repo acme/api",
            "Exit code 1\nrelease not found",
            "https://github.com/acme/api/releases",
            False,
        ),
    ],
)
def test_a_look_at_a_repository_that_could_not_run_is_worked_around_by_its_page(
    command, error, page, worked_around
):
    """`gh release view --repo o/r` refused until its user logs in, then a WebFetch of the
    repository's releases page, which gave the version asked for: the card said "not fixed"
    and showed later edits (thirty-first held-out set, worked around)."""
    failed = call(command=command, failed=True)
    fetched = call("WebFetch", url=page, input=json.dumps({"url": page, "prompt": "latest?"}))
    fix = run([failed, fetched], {failed.tool_use_id: error})[failed.tool_use_id]
    if worked_around:
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, fetched.tool_use_id)
    else:
        assert fix.outcome == fixes.NOT_FIXED


def test_a_command_a_subagent_was_not_allowed_to_run_is_confirmed_by_the_main_agents_retry():
    """`ffprobe` denied to an Explore subagent (`Permission to use Bash has been denied`),
    then run by the main agent after the subagent answered: its retry, as a subagent's edit
    is confirmed by the main agent's edit of that file (thirty-first held-out set). A
    command that failed otherwise in the subagent is not."""
    probe = "ffprobe -v error -show_entries stream=width,height /m/a.webm"
    task = call("Task", input='{"description": "find the videos"}')
    denied = call(command=probe, failed=True, kind="permission_denied", agent_id="a1")
    last = call("Glob", pattern="**/*.webm", agent_id="a1")
    ran = call(command=f"{probe} 2>/dev/null && ffprobe -v error /m/b.mp4")
    errors = {denied.tool_use_id: "Permission to use Bash has been denied."}
    fix = run([task, denied, last, ran], errors)[denied.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, ran.tool_use_id)
    broken = denied._replace(kind=None)
    errors = {broken.tool_use_id: "Exit code 1\n/m/a.webm: Invalid data found"}
    assert run([task, broken, last, ran], errors)[broken.tool_use_id].outcome == fixes.NOT_FIXED


def _cached_searches() -> list[tuple[str, object, re.Pattern[str]]]:
    """Each of fixes' cached searches of a failure's output (_cached_search), with its
    pattern."""
    import inspect

    found = []
    for name, value in vars(fixes).items():
        says = getattr(value, "__wrapped__", None)
        if getattr(says, "__qualname__", "") == "_cached_search.<locals>.says":
            found.append((name, value, inspect.getclosurevars(says).nonlocals["search"].__self__))
    return found


def test_needles_of_a_pattern_are_what_every_match_holds() -> None:
    assert fixes._needles(re.compile(r"does not exist|ENOENT")) == ["does not exist", "ENOENT"]
    # a long enough run of the sequence's own characters is enough
    assert fixes._needles(re.compile(r"\bfatal: (?:x|y)+ here")) == ["fatal: "]
    # a group, and a branch inside one branch
    assert fixes._needles(re.compile(r"a(?:bcd|efg)|(?:xyz)\d")) == ["bcd", "efg", "xyz"]
    # a branch that may match nothing of its own: no needles, always searched
    assert fixes._needles(re.compile(r"abc|\d+")) is None
    # flags of a group's own: its case is not the pattern's
    assert fixes._needles(re.compile(r"(?i:ab)\d")) is None
    assert len(_cached_searches()) >= 10
    # most of the rules' searches are skipped by their needles
    assert sum(fixes._needles(pattern) is not None for _, _, pattern in _cached_searches()) >= 10


# Pieces of the outputs the cached searches are asked of: their needles in other cases, the
# letters of other scripts a letter matches ignoring case (the kelvin sign, long s, dotted I).
_PIECES = sorted(
    {
        variant
        for _, _, pattern in _cached_searches()
        for needle in fixes._needles(pattern) or []
        for variant in (needle, needle.upper(), needle.lower(), needle.swapcase(), needle[1:])
    }
    | {" ", "\n", "`", "127", "Exit code", "line 3: syntax error", "\u212a", "\u017f", "\u0130"}
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_PIECES), st.text(alphabet="aAkKsSiI \n:-.\u212a\u017f", max_size=5)
        ),
        max_size=12,
    )
)
def test_a_cached_search_says_what_its_pattern_does(pieces: list[str]) -> None:
    """The needles' shortcut gives the search's own answer, whatever the output."""
    text = "".join(pieces)
    for name, says, pattern in _cached_searches():
        assert says(text) == (pattern.search(text) is not None), (name, text)  # type: ignore[operator]


def test_a_test_run_that_found_nothing_is_fixed_by_what_changes_what_it_collects():
    """unittest's discovery from `tests` ran no tests (`-----`, `Ran 0 tests`, `NO TESTS
    RAN`); the agent ran each subfolder alone, patched the code those runs failed on,
    made the `__init__.py` files, and ran the discovery from `tests` again. A run of a
    subfolder is no retry, passing or failing, and a patch of the code under test is no
    step: the `__init__.py` files are the remedy, the discovery the fix (thirty-second
    held-out set, a Codex rollout). The separator line is no key line: every later run
    prints it too."""
    base = "cd /p && python3 -m unittest discover -s tests -p 'test_*.py'"
    sub = "cd /p && python3 -m unittest discover -s tests/unit -p 'test_*.py'"
    empty = call("exec_command", command=base, failed=True)
    red = call("exec_command", command=sub, failed=True)
    errors = {
        empty.tool_use_id: "Exit code 5\n\n" + "-" * 70 + "\nRan 0 tests in 0.000s\n\nNO TESTS RAN",
        red.tool_use_id: "Exit code 1\nE\n"
        + "=" * 70
        + "\nERROR: test_x (test_x.T.test_x)\n"
        + "-" * 70
        + "\nNotImplementedError",
    }
    assert signatures.key_line(errors[empty.tool_use_id]) == "NO TESTS RAN"
    patch = call("apply_patch", file_path="/p/src/app/x.py")
    init = call("exec_command", command=": > /p/tests/__init__.py; : > /p/tests/unit/__init__.py")
    ok = "\n" + "-" * 70 + "\nRan 10 tests in 0.002s\n\nOK"
    green = call("exec_command", command=sub)
    whole = call("exec_command", command=base)
    calls = [empty, red, patch, init, green, whole]
    fix = run(calls, errors, {green.tool_use_id: ok, whole.tool_use_id: ok})[empty.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, whole.tool_use_id)
    assert steps(fix) == [(init.tool_use_id, None)]
    # a file that says what is collected is a step wherever it is
    config = call("Edit", file_path="/p/pyproject.toml")
    fix = run([empty, config, whole], errors)[empty.tool_use_id]
    assert steps(fix) == [(config.tool_use_id, None)]


def test_a_retry_of_a_failure_sent_beside_this_one_is_no_step_of_its_fix():
    """`git config --global user.name` and `... user.email` sent in one message, both
    failing as not set; once the user gave both, the name was set, then the email: the
    name's setter fixed its own failure, not the email's (thirty-third held-out set)."""
    name = call(command="git config --global user.name", failed=True, at="2026-01-01T00:00:00.1Z")
    email = call(command="git config --global user.email", failed=True, at="2026-01-01T00:00:00.2Z")
    set_name = call(command='git config --global user.name "me"', at="2026-01-01T00:01:00Z")
    set_email = call(command='git config --global user.email "me@x.org"', at="2026-01-01T00:01:01Z")
    calls = [name, email, set_name, set_email]
    found = fixes.session_fixes(
        calls,
        (),
        {name.tool_use_id: "Error", email.tool_use_id: "Error"},
        lambda t: "",
        signatures.key_line,
        signatures.signature,
        answered={
            name.tool_use_id: "2026-01-01T00:00:01Z",
            email.tool_use_id: "2026-01-01T00:00:01Z",
        },
    )
    cards = {fix.tool_use_id: fix for fix in found}
    assert cards[email.tool_use_id].confirmed_by == set_email.tool_use_id
    assert [s.tool_use_id for s in cards[email.tool_use_id].remedy] == [set_email.tool_use_id]
    assert [s.tool_use_id for s in cards[name.tool_use_id].remedy] == [set_name.tool_use_id]
    # sent one after the other, the name's answer seen first, its setter may be a step
    found = fixes.session_fixes(
        calls,
        (),
        {name.tool_use_id: "Error", email.tool_use_id: "Error"},
        lambda t: "",
        signatures.key_line,
        signatures.signature,
        answered={
            name.tool_use_id: "2026-01-01T00:00:00.15Z",
            email.tool_use_id: "2026-01-01T00:00:01Z",
        },
    )
    email_fix = next(fix for fix in found if fix.tool_use_id == email.tool_use_id)
    assert set_name.tool_use_id in [s.tool_use_id for s in email_fix.remedy]


def test_a_script_run_by_file_is_retried_by_its_text_read_into_a_variable():
    """The auto mode classifier refused `powershell -ExecutionPolicy Bypass -File
    repro.ps1`; the script read into `$code` and given to `-Command $code` broke on its
    quotes, and then, base64-encoded into `$enc`, to `-EncodedCommand $enc`, ran (thirty-
    eighth held-out set, fixed by that run). Another script's text is another run."""
    ps = "& 'C:\\Windows\\SysWOW64\\WindowsPowerShell\\v1.0\\powershell.exe' -NoProfile "
    failed = call(
        "PowerShell", command=ps + "-ExecutionPolicy Bypass -File 'C:\\aaa\\repro.ps1'", failed=True
    )
    read = "$code = Get-Content 'C:\\aaa\\{}' -Raw\n"
    plain = call(
        "PowerShell", command=read.format("repro.ps1") + ps + "-Command $code", failed=True
    )
    encode = "$enc = [Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes($code))\n"
    encoded = call(
        "PowerShell", command=read.format("repro.ps1") + encode + ps + "-EncodedCommand $enc"
    )
    errors = {
        failed.tool_use_id: "Permission for this action was denied by the Claude Code auto mode"
        " classifier. Reason: Runs an unseen script with `-ExecutionPolicy Bypass`",
        plain.tool_use_id: "Exit code 1\nGet-Process : A positional parameter cannot be found"
        " that accepts argument 'Is64Bit'.",
    }
    fix = run([failed, plain, encoded], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, encoded.tool_use_id)
    other = call(
        "PowerShell", command=read.format("other.ps1") + encode + ps + "-EncodedCommand $enc"
    )
    assert run([failed, other], errors)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    # a variable named like another is not it
    assert fixes._fed_scripts(read.format("a.ps1") + "pwsh -Command $codex") == ()


@pytest.mark.parametrize(
    "command, conclusion, concluded",
    [
        ("git fetch origin && git merge -m 'Merge' origin/main", "git add a && git commit", True),
        ("git pull origin main", "git commit --no-edit", True),
        ("git pull --rebase origin main", "GIT_EDITOR=true git rebase --continue", True),
        ("git cherry-pick abc123", "git cherry-pick --continue", True),
        # a rebase is not concluded by a commit; nor a merge by an amend of the last commit
        ("git rebase main", "git commit -m 'x'", False),
        ("git merge origin/main", "git commit --amend --no-edit", False),
    ],
)  # fmt: skip
def test_a_merge_stopped_on_conflicts_is_fixed_by_the_commit_that_concludes_it(
    command, conclusion, concluded
):
    """`git merge` stopped on an add/add conflict in README.md; the file rewritten, `git add
    README.md && git commit` concluded the merge (thirty-eighth held-out set, fixed; the merge
    is never run again). A rebase is concluded by `git rebase --continue`. After the merge
    was given up (`git merge --abort`), a commit is of other work."""
    failed = call(command=command, failed=True)
    write = call("Write", file_path="/p/README.md")
    end = call(command=conclusion)
    error = {
        failed.tool_use_id: "Exit code 1\nAuto-merging README.md\nCONFLICT (add/add): Merge "
        "conflict in README.md\nAutomatic merge failed; fix conflicts and then commit the result."
    }
    fix = run([failed, write, end], error)[failed.tool_use_id]
    if not concluded:
        assert fix.outcome == fixes.NOT_FIXED
        return
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, end.tool_use_id)
    assert write.tool_use_id in [s for s, _ in steps(fix)]
    if "commit" in conclusion:
        abort = call(command="git merge --abort")
        fix = run([failed, abort, write, end], error)[failed.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED


def test_a_failure_takes_the_fix_of_its_next_attempt_that_got_past_it():
    """A script piped into `powershell -Command -` broke on its lines; the same script fed
    to `Invoke-Expression` (a retry: the same script, another runner) failed on another
    error, and a script written anew then ran: the first failure's fix is the second's
    (thirty-third held-out set). A pipe into a runner that still shows the first error got
    past nothing."""
    feed = 'Get-Content "C:\\w\\check.ps1" -Raw | '
    first = call(
        "PowerShell", command=feed + "powershell.exe -NonInteractive -Command -", failed=True
    )
    second = call("PowerShell", command=feed + "Invoke-Expression", failed=True)
    write = call("Write", file_path="C:\\w\\check2.ps1")
    ran = call("PowerShell", command='Get-Content "C:\\w\\check2.ps1" -Raw | Invoke-Expression')
    errors = {
        first.tool_use_id: "Exit code 1\nAt line:1 char:10\nUnexpected token 'in' in expression"
        " or statement.",
        second.tool_use_id: "Exit code 1\nInvoke-Expression: Variable reference is not valid."
        " ':' was not followed by a valid variable name character.",
    }
    assert fixes._retry(first, second)
    cards = run([first, second, write, ran], errors)
    assert cards[second.tool_use_id].confirmed_by == ran.tool_use_id
    fix = cards[first.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (cards[second.tool_use_id].outcome, ran.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [write.tool_use_id]
    # the same error again: that attempt got past nothing
    errors[second.tool_use_id] = errors[first.tool_use_id]
    assert run([first, second, write, ran], errors)[first.tool_use_id].outcome == fixes.NOT_FIXED
    # a script run by its file, and one piped in, are the same script
    assert fixes._retry(
        call(command="cat run.sh | bash", failed=True), call(command="bash ./run.sh")
    )
    # a build of another package, failing on its own missing module, got past nothing of
    # this one's (admin-dashboard's build, abandoned, took the fix of public-site's: a new
    # user's try, session 35; set 35's label)
    build = call(command="cd /p/packages/admin && npm run build", failed=True)
    other = call(command="npm run generate:css && npm run build", failed=True)
    copy = call(command="cp /p/packages/admin/lib/css.ts /p/packages/site/lib/")
    generated = call(command="cd /p/packages/site && npm run generate:css")
    errors = {
        build.tool_use_id: "Exit code 1\nModule not found: Can't resolve './TokenVault'",
        other.tool_use_id: "Exit code 1\nError: Cannot find module '../lib/css'",
    }
    assert run([build, other, copy, generated], errors)[build.tool_use_id].outcome == (
        fixes.NOT_FIXED
    )


def test_a_failure_takes_the_fix_of_its_next_attempt_that_set_its_name_right():
    """npm had no package of the name given (`'@google/generative-ai-cli@*' is not in this
    registry`); after a search, the right name failed on EACCES, and the same with sudo
    installed it: the 404's fix is the sudo install (thirty-sixth held-out set). The
    attempt sets right the name the error quoted, npm's version range aside; one that asks
    for another package as well is no such attempt, and one whose own failure nothing fixed
    gives nothing."""
    wrong = call(command="npm install -g @google/generative-ai-cli", failed=True)
    search = call(command="npm search gemini cli --json | head -20")
    right = call(command="npm install -g @google/gemini-cli", failed=True)
    sudo = call(command="sudo npm install -g @google/gemini-cli")
    errors = {
        wrong.tool_use_id: "Exit code 1\nnpm error code E404\nnpm error 404  "
        "'@google/generative-ai-cli@*' is not in this registry.",
        right.tool_use_id: "Exit code 243\nnpm error code EACCES\nnpm error Error: EACCES:"
        " permission denied, mkdir '/usr/lib/node_modules/@google'",
    }
    cards = run([wrong, search, right, sudo], errors)
    assert cards[right.tool_use_id].confirmed_by == sudo.tool_use_id
    assert steps(cards[right.tool_use_id]) == [(sudo.tool_use_id, "+sudo")]
    fix = cards[wrong.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, sudo.tool_use_id)
    # what the sudo install changed of the 404's command: the name set right, and sudo (the
    # card said `changed: +sudo`, the EACCES's change: a new user's try, nu39)
    assert steps(fix) == [
        (sudo.tool_use_id, "-@google/generative-ai-cli +@google/gemini-cli; +sudo")
    ]
    for other in ("npm install -g @google/gemini-cli typescript", "npm install -g left-pad"):
        again = call(command=other, failed=True)
        errors[again.tool_use_id] = errors[right.tool_use_id]
        fix = run([wrong, search, again, sudo], errors)[wrong.tool_use_id]
        assert fix.outcome == fixes.NOT_FIXED, other


def test_a_command_its_own_pkill_killed_is_fixed_by_the_retry_without_it():
    """`pkill -f 'scripts/panel.py'` in a command that launches scripts/panel.py matches the
    shell's own command line and kills it (exit 144, nothing printed). Only the launch
    without that pkill fixed it: the edits made between, for another task, are no steps
    (thirty-third held-out set: they headed the card); a clean-up run apart is one. A
    pkill whose pattern cannot match its own text (`[p]anel` with panel named nowhere
    else), or a command killed with output, is not such a failure."""
    launch = "pkill -f 'scripts/panel.py' 2>/dev/null; sleep 0.5\nsetsid nohup ~/scripts/panel.py &"
    assert fixes._kills_itself(launch)
    assert fixes._kills_itself("pkill -9f -u me panel.py; ./panel.py &")
    assert not fixes._kills_itself("pkill -f '[p]anel.py'; sleep 1")
    assert not fixes._kills_itself("pkill panel.py; ./panel.py &")  # its name, not its line
    killed = call(command=launch, failed=True)
    edit = call("Edit", file_path="/home/u/scripts/panel.py")
    config = call("Edit", file_path="/home/u/.config/bar/config.jsonc")
    again = call(command="setsid nohup ~/scripts/panel.py &\nsleep 4; pgrep -f panel.py")
    alive = {again.tool_use_id: "4242 python3 /home/u/scripts/panel.py"}
    fix = run([killed, edit, config, again], {killed.tool_use_id: "Exit code 144"}, alive)
    fix = fix[killed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [again.tool_use_id]
    # a clean-up run on its own first is part of the new way, the edits still none
    cleanup = call(command="rm -f /run/user/1000/panel.pid")
    calls = [killed, edit, cleanup, config, again]
    fix = run(calls, {killed.tool_use_id: "Exit code 144"}, alive)[killed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy] == [cleanup.tool_use_id, again.tool_use_id]
    # killed some other way, with output: the edits are steps as ever
    errors = {killed.tool_use_id: "Exit code 143\nstarting panel"}
    fix = run([killed, edit, config, again], errors, alive)[killed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy][:2] == [edit.tool_use_id, config.tool_use_id]


def test_a_stop_whose_own_pkill_killed_it_only_looking_after_is_stopped():
    """`pkill -f "generate_dataset_200k"; sleep 2; ps aux | grep generate_dataset | wc -l`
    killed its own shell (exit 144) with the workers it was for: what came after the kill
    only looked, so the kill did all the command was to do, and a later look at the
    processes is no retry of it (thirty-sixth held-out set, not a problem; the card said
    fixed by a `ps aux | grep` over the rewritten generator's log). A command that was to
    launch something after its pkill still needs the launch
    (test_a_command_its_own_pkill_killed_is_fixed_by_the_retry_without_it)."""
    stop = 'pkill -f "generate_dataset_200k" 2>/dev/null; sleep 2; ps aux | grep generate_dataset'
    killed = call(command=f"{stop} | grep -v grep | wc -l", failed=True)
    write = call("Write", file_path="/s/generate_dataset_200k.py")
    launch = call(command="python generate_dataset_200k.py 2>&1 | tee /tmp/gen.log")
    look = call(
        command="sleep 60 && tail -15 /tmp/gen.log && ls data/chunks/ | wc -l && ps aux | grep"
        " 'python generate_dataset' | grep -v grep | awk '{sum+=$3} END {print sum}'"
    )
    calls = [killed, write, launch, look]
    said = {
        killed.tool_use_id: "Exit code 144",
        look.tool_use_id: "Dispatching 48 workers\n0\n4610.9",
    }
    fix = run(calls, said, said)[killed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, fix.remedy) == (fixes.STOPPED, None, [])
    # with a launch after its pkill, the launch never ran: the relaunch fixes it
    relaunch = f"{stop}; python generate_dataset_200k.py &"
    failed = call(command=relaunch, failed=True)
    again = call(command="python generate_dataset_200k.py &")
    fix = run([failed, again], {failed.tool_use_id: "Exit code 144"})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    # killed with output, by something else: no such stop
    said[killed.tool_use_id] = "Exit code 137\nKilled"
    other = run(calls, said, said)[killed.tool_use_id]
    assert other.outcome != fixes.STOPPED


# A script over a saved dump that failed on `KeyError: 'id'`, its rewrite that guarded the
# key, and the one after that which read the elements where they were (thirty-sixth
# held-out set): the last shares half the words of the second, not of the first.
_DUMP_FAILED = """
import json, sys
data = json.load(sys.stdin)
for item in data:
    if item.get("type") == "text":
        elements = json.loads(item["text"])
        for el in elements[-20:]:
            styles = [s.get("name", "") for s in (el.get("styles") or [])]
            print(f"type={el.get('type')} | styles={styles} | id={el['id'].get('element')}")
        break
"""
_DUMP_GUARDED = """
import json, sys
data = json.load(sys.stdin)
for item in data:
    if item.get("type") == "text":
        elements = json.loads(item["text"])
        for el in elements[-20:]:
            if isinstance(el, dict) and "id" in el:
                styles = [s.get("name", "") for s in (el.get("styles") or [])]
                print(f"type={el.get('type')} | styles={styles} | id={el['id']}")
        break
"""
_DUMP_DEEPER = """
import json, sys
raw = sys.stdin.read()
data = json.loads(raw)
text_items = [d for d in data if d.get("type") == "text"]
content = json.loads(text_items[0]["text"])
elems = content[0]["data"] if isinstance(content, list) else content["data"]
print(f"Total: {len(elems)}")
for el in elems[-20:]:
    if isinstance(el, dict):
        styles = [s.get("name", "") for s in (el.get("styles") or [])]
        print(f"type={el.get('type')} | styles={styles} | id={json.dumps(el.get('id', {}))}")
"""


def test_a_rewrite_of_printing_code_that_printed_nothing_is_no_fix_before_one_that_did():
    """A `python3 -c` over a saved dump failed on `KeyError: 'id'`; its first rewrite guarded
    the key and exited 0 printing nothing (Claude Code: `(Bash completed with no output)`),
    for the elements sat one level deeper; the next rewrite, of that one, read them there
    and printed them (thirty-sixth held-out set, fixed by that one; the card named the
    silent one). A silent rewrite that nothing later printed past stays the fix: code that
    prints only on trouble says nothing when all is well."""
    dump = "cat /h/tool-results/element_tool.txt | python3 -c "
    failed = call(command=dump + shlex.quote(_DUMP_FAILED), failed=True)
    guarded = call(command=dump + shlex.quote(_DUMP_GUARDED))
    deeper = call(command=dump + shlex.quote(_DUMP_DEEPER))
    said = {
        failed.tool_use_id: "Exit code 1\nTraceback (most recent call last):\nKeyError: 'id'",
        guarded.tool_use_id: "(Bash completed with no output)",
        deeper.tool_use_id: 'Total: 1156\ntype=String | styles=[] | id={"element": "1fb"}',
    }
    fix = run([failed, guarded, deeper], said, said)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, deeper.tool_use_id)
    assert steps(fix) == [(deeper.tool_use_id, "its code rewritten")]
    # nothing printed later: the silent rewrite is still the fix
    fix = run([failed, guarded], said, said)[failed.tool_use_id]
    assert fix.confirmed_by == guarded.tool_use_id
    # and a rewrite that printed, of another script, is none of it
    other = call(command="python3 -c 'import sys; print(sys.version)'")
    said[other.tool_use_id] = "3.12.3"
    fix = run([failed, guarded, other], said, said)[failed.tool_use_id]
    assert fix.confirmed_by == guarded.tool_use_id


def test_a_conflict_moved_to_another_file_is_no_fix_and_a_question_confirms_nothing():
    """create-next-app refused a folder holding README.md; `mv README.md README.md.bak &&`
    the same, refused for README.md.bak: the obstacle moved, not another error past it (the
    card showed that retry as the fix). The runs that then stopped at an unanswered `? ... ›`
    question wrote nothing: neither confirmation nor step; the package.json written by
    hand is the way round (thirty-third held-out set). The same error about another file
    without such a move is still the first one's fix, a render that got further (see
    test_a_failure_that_got_further_is_another_one)."""
    scaffold = "npx create-next-app@latest . --typescript --eslint"

    def conflict(name):
        return (
            "Exit code 1\nThe directory portfolio contains files that could conflict:\n\n"
            f"  {name}\n\nEither try using a new directory name, or remove the files listed above."
        )

    first = call(command=scaffold, failed=True)
    moved = call(command=f"mv README.md README.md.bak && {scaffold}", failed=True)
    rm = call(command="rm README.md.bak")
    asked = call(command=scaffold)
    answered = call(command=f"printf 'n\\n' | {scaffold}")
    manifest = call("Write", file_path="/p/package.json")
    calls = [first, moved, rm, asked, answered, manifest]
    errors = {
        first.tool_use_id: conflict("README.md"),
        moved.tool_use_id: conflict("README.md.bak"),
    }
    question = "? Would you like to use React Compiler? › No / Yes"
    outputs = {
        asked.tool_use_id: question,
        answered.tool_use_id: f"{question}✔ Would you like to use React Compiler? … No / Yes\n"
        "? Would you like your code inside a `src/` directory? › No / Yes",
    }
    found = run(calls, errors, outputs)
    for failed in (first, moved):
        fix = found[failed.tool_use_id]
        assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, manifest.tool_use_id)
        assert asked.tool_use_id not in {s.tool_use_id for s in fix.remedy}
    assert steps(found[first.tool_use_id])[0] == (rm.tool_use_id, None)
    # the scaffolder that went on past its questions did the work
    outputs[asked.tool_use_id] = "✔ Would you like to use React Compiler? … No\nSuccess!"
    fix = run(calls, errors, outputs)[first.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, asked.tool_use_id)
    assert steps(fix) == [(rm.tool_use_id, None)]
    # README.md.bak's conflict without a move that made it: the first one got past
    other = call(command=f"rm README.md && {scaffold}", failed=True)
    errors[other.tool_use_id] = conflict("README.md.bak")
    fix = run([first, other, rm, asked], errors, outputs)[first.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, asked.tool_use_id)
    assert other.tool_use_id in {s.tool_use_id for s in fix.remedy}


@pytest.mark.parametrize(
    ("command", "printed", "fixed"),
    [
        # sudo refused it again, its status lost behind head
        ("sudo -n apt-get update 2>&1 | head -5", "sudo: a password is required", False),
        # npx's errors are npm's
        (
            "npx --yes x-cli db 'SELECT 1' 2>&1 || npx --yes y-cli --help | head -5",
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/x-cli",
            False,
        ),
        # a warning of its own is no failure; nor another program's words
        ("sudo -n apt-get update 2>&1 | head -5", "sudo: warning: x\nHit:1 jammy InRelease", True),
        ("sudo -n apt-get update 2>&1 | head -5", "Hit:1 jammy InRelease\nReading lists", True),
    ],
)
def test_a_retry_whose_program_said_it_failed_behind_a_pipe_confirms_nothing(
    command, printed, fixed
):
    """`sudo apt-get install -y gh` could not ask for a password; `sudo -n apt-get update
    2>&1 | head -5` exited 0 from head, printing only sudo's `a password is required`: the
    card showed it as the fix (thirty-fourth held-out set, abandoned by its label). So did a
    `npx ... || ...` that got npm's 404."""
    failed = call(command="sudo apt-get update && sudo apt-get install -y gh", failed=True)
    retry = call(command=command.replace("x-cli db", "apt-get update"))
    errors = {
        failed.tool_use_id: "Exit code 1\nsudo: a terminal is required to read the password;"
        " either use the -S option\nsudo: a password is required"
    }
    fix = run([failed, retry], errors, {retry.tool_use_id: printed})[failed.tool_use_id]
    assert (fix.outcome in fixes.CLAIMS_FIX) == fixed


@pytest.mark.parametrize(
    ("again", "fixed"),
    [
        ('rg -n "from runware" a.py', True),  # the word it was after, asked otherwise
        ('rg -n "import requests" a.py', False),  # another module
        ('rg -n "from runware" b.py', False),  # another file
        ('rg -n -i "from runware" a.py', False),  # another flag: see _searched_wider
    ],
)
def test_a_search_that_found_nothing_reworded_around_its_word(again, fixed):
    """`rg -n "import runware" a.py` exits 1; `rg -n "from runware" a.py` finds line 23:
    the same question, asked as the code says it (thirty-fourth held-out set, a Codex user,
    fixed, the retry its step)."""
    failed = call("shell", command='rg -n "import runware" a.py', failed=True)
    retry = call("shell", command=again)
    printed = {retry.tool_use_id: "23:from runware import Runware\n"}
    fix = run([failed, retry], {failed.tool_use_id: "Exit code 1"}, printed)[failed.tool_use_id]
    assert (fix.confirmed_by == retry.tool_use_id) == fixed
    if fixed:
        assert steps(fix) == [(retry.tool_use_id, "-import +from")]


@pytest.mark.parametrize(
    ("printed", "found"),
    [
        ("a06-Student_Notes_Handbook.py\nzbackup/a06-Student_Notes_Handbook.py", True),
        ("a06_Student_Notes_Handbook.py", False),  # the name it had: not there either
        ("a07-Student_Notes_Index.py", False),  # another file
    ],
)
def test_a_look_of_a_file_not_there_found_spelt_otherwise(printed, found):
    """`ls a06_Student_Notes_Handbook.py`: No such file; many calls later, `rg --files | rg
    "Student_Notes"` lists `a06-Student_Notes_Handbook.py`: the name had a hyphen
    (thirty-fourth held-out set, a Codex user, fixed)."""
    failed = call("shell", command="ls a06_Student_Notes_Handbook.py", failed=True)
    others = [call("shell", command=f'rg "lib{n}" --glob "*.py"') for n in range(12)]
    search = call("shell", command='rg --files | rg "Student_Notes"')
    error = "Exit code 2\nls: cannot access 'a06_Student_Notes_Handbook.py': No such file"
    fix = run([failed, *others, search], {failed.tool_use_id: error}, {search.tool_use_id: printed})
    assert (fix[failed.tool_use_id].confirmed_by == search.tool_use_id) == found


def test_a_look_above_the_folder_is_not_fixed_by_one_of_that_name_in_it():
    """`ls ../../docs` (the output folder a prompt named): not there; `ls docs` lists the
    project's own (thirty-fourth held-out set, not a problem by its label). The same look
    after the folder was made is its retry."""
    error = "Exit code 2\nls: cannot access '../../docs': No such file or directory"
    failed = call("shell_command", command="ls ../../docs", failed=True)
    inside = call("shell_command", command="ls docs")
    made = call("shell_command", command="sudo mkdir -p ../../docs")
    again = call("shell_command", command="ls ../../docs")
    fix = run([failed, inside], {failed.tool_use_id: error}, {inside.tool_use_id: "a.md"})
    assert fix[failed.tool_use_id].outcome == fixes.ANSWERED
    fix = run([failed, inside, made, again], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.confirmed_by, steps(fix)) == (again.tool_use_id, [(made.tool_use_id, None)])


def _edit(old, new, **kw):
    return call(
        "Edit",
        file_path="/p/prompts.py",
        input=json.dumps({"file_path": "/p/prompts.py", "old_string": old, "new_string": new}),
        **kw,
    )


_PROMPT = (
    "def agent():\n"
    '    mode = "read-only" if _config.read_only else "read and write"\n'
    '    prompt = f"You are a specialist with {mode} access.\\n"\n'
    '    prompt += "Use query_graphql with a targeted GraphQL query for related nodes."\n'
)


def test_an_edit_the_user_stopped_is_redone_by_the_edit_that_makes_its_change():
    """A rewrite of a prompt function (taking `_config.read_only` out) rejected by the user
    to add "remove all references to gql also"; the agent first took `query_graphql` out,
    an edit whose text the rewrite also held, then `_config.read_only`: that edit is the
    redo, and the gql edit no step of it (thirty-fourth held-out set)."""
    rewrite = _PROMPT.replace(' if _config.read_only else "read and write"', "").replace(
        "{mode}", "read-only"
    )
    failed = _edit(_PROMPT, rewrite, failed=True, kind="rejected")
    gql = _edit(
        "Use query_graphql with a targeted GraphQL query for related nodes.",
        "Use get_nodes with relationship filters for related nodes.",
    )
    redo = _edit(
        'mode = "read-only" if _config.read_only else "read and write"', 'mode = "read-only"'
    )
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    fix = run([failed, gql, redo], rejected, prompts=["2026-01-01T00:59:00Z"])
    fix = fix[failed.tool_use_id]
    assert fix.confirmed_by == redo.tool_use_id
    assert gql.tool_use_id not in [s.tool_use_id for s in fix.remedy]


def test_an_edit_whose_text_was_not_found_is_redone_only_by_an_edit_of_its_change():
    """An Edit of a prompt's Step 2 that an earlier edit had already replaced (String to
    replace not found), then a Read and an edit of the system prompt below it: no redo
    (thirty-fourth held-out set, not a problem). A table row its Edit was to take out,
    taken out alone after a Read, is (the same set, fixed)."""
    failed = _edit(
        "### Step 2\nRecall the available read-only commands from the system prompt.",
        "### Step 2\nChoose the most appropriate command from the commands below.",
        failed=True,
        kind="string_not_found",
    )
    read = call("Read", file_path="/p/prompts.py")
    other = _edit(
        "You are a network specialist with read-only access.\n## Available commands",
        "You are a network specialist with read-only access.\n## Available tools\n- send",
    )
    error = {failed.tool_use_id: "String to replace not found in file."}
    assert run([failed, read, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    row = "| `x://graphql-schema` | *(none)* | Complete GraphQL SDL for advanced queries |"
    failed = _edit(
        f"| Resource | What |\n|---|---|\n{row}\n| `x://branches` | All branches |",
        "| Resource | What |\n|---|---|\n| `x://branches` | All branches |",
        failed=True,
        kind="string_not_found",
    )
    removed = _edit(row, "")
    fix = run([failed, read, removed], {failed.tool_use_id: "String to replace not found"})
    assert fix[failed.tool_use_id].confirmed_by == removed.tool_use_id


@pytest.mark.parametrize(
    ("read", "printed", "fixed"),
    [
        (
            "cat /tmp/tasks/b1.output",
            "Traceback (most recent call last):\nModuleNotFoundError: x",
            False,
        ),
        ("cat /tmp/tasks/b1.output", "epoch 1/200 loss 0.41", True),  # it ran
        ("cat /tmp/other.log", "Traceback (most recent call last):\nValueError: y", True),
    ],
)
def test_a_run_sent_to_the_background_whose_output_then_shows_it_crashed_fixes_nothing(
    read, printed, fixed
):
    """A training run the user stopped, run again in the background (Claude Code prints its
    job id and output file), then `cat` of that file: `ModuleNotFoundError: No module named
    'torch'`. It only started: no fix (thirty-fourth held-out set). A crash in another file
    says nothing of it."""
    failed = call(command="python train.py --epochs 100", failed=True, kind="rejected")
    again = call(command="cd app && python train.py --epochs 200 2>&1")
    look = call(command=read)
    started = (
        "Command running in background with ID: b1. Output is being written to:"
        " /tmp/tasks/b1.output"
    )
    errors = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    outputs = {again.tool_use_id: started, look.tool_use_id: printed}
    fix = run([failed, again, look], errors, outputs)[failed.tool_use_id]
    assert (fix.confirmed_by == again.tool_use_id) == fixed


def test_a_read_past_the_end_of_the_file_confirms_nothing():
    """A log too large to read whole, then a Read at an offset past its last line (Claude
    Code answers only that the file is shorter), then one at an offset it has: that one is
    the fix, its part the change (thirty-fifth held-out set). A file of one empty line read
    at offset 1 gets the warning too, and was read as it is."""
    error = "File content (66049 tokens) exceeds maximum allowed tokens (25000)."
    failed = call("Read", file_path="/r/install.log", failed=True)
    past = call("Read", file_path="/r/install.log", part="offset 6000 limit 500")
    tail = call("Read", file_path="/r/install.log", part="offset 2000 limit 215")
    warning = (
        "<system-reminder>Warning: the file exists but is shorter than the provided offset"
        " (6000). The file has 2215 lines.</system-reminder>"
    )
    outputs = {past.tool_use_id: warning, tail.tool_use_id: "  2000→Unpacking x ..."}
    fix = run([failed, past, tail], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, tail.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [tail.tool_use_id]
    missing = call("Read", file_path="/r/empty.txt", failed=True)
    empty = call("Read", file_path="/r/empty.txt", part="offset 1")
    outputs = {empty.tool_use_id: warning.replace("(6000)", "(1)").replace("2215", "1")}
    found = run([missing, empty], {missing.tool_use_id: "File does not exist."}, outputs)
    assert found[missing.tool_use_id].confirmed_by == empty.tool_use_id


def test_a_search_with_a_short_word_dropped_and_a_flag_given_once_asks_the_same():
    """`grep -n "Etapa 3" -n instalador.sh` found nothing; `grep -n "ETAPA" instalador.sh`
    listed the stage headers: the same question with its short word dropped, and `-n`
    given once (thirty-fifth held-out set, a Codex user). Another word kept is another
    question."""
    failed = call("shell", command='grep -n "Etapa 3" -n instalador.sh', failed=True)
    other = call("shell", command='grep -n "Stage" instalador.sh')
    retry = call("shell", command='grep -n "ETAPA" instalador.sh')
    outputs = {
        other.tool_use_id: "12:# Stage",
        retry.tool_use_id: "638:#---- ETAPA 3: apt ----",
    }
    fix = run([failed, other, retry], {failed.tool_use_id: "Exit code 1"}, outputs)[
        failed.tool_use_id
    ]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)


def test_a_file_the_read_could_not_find_shown_by_the_shell_beside_its_listing():
    """A Read of a Git Bash path (`/c/Users/...`) on Windows: `File does not exist.`; then
    `ls -la` of its folder, printing its name, and `cat` of the file sent beside it: the cat
    read the file, and is the way round, not the listing (thirty-fifth held-out set, 2
    worked around). The listing alone is still the way when nothing read the file."""
    path = "/c/Users/me/debt/contracts/CollectionAutomator.sol"
    failed = call("Read", file_path=path, failed=True)
    listing = call(command="ls -la /c/Users/me/debt/contracts/")
    cat = call(command=f"cat {path}")
    outputs = {
        listing.tool_use_id: "-rw-r--r-- 1 me 197121 27199 Nov 14 CollectionAutomator.sol",
        cat.tool_use_id: "pragma solidity ^0.8.20;",
    }
    errors = {failed.tool_use_id: "<tool_use_error>File does not exist.</tool_use_error>"}
    fix = run([failed, listing, cat], errors, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, cat.tool_use_id)
    alone = run([failed, listing], errors, outputs)[failed.tool_use_id]
    assert alone.confirmed_by == listing.tool_use_id


def test_a_script_that_names_what_a_command_that_could_not_run_was_to_work_on():
    """A command refused by Codex's approval policy (`rm -rf dist frontend state
    pipeline/state/voice_log.json`), then a `python3 - <<'PY'` that removes them; a python
    script on Windows without Python (`Python was not found`), then a node script writing
    the same files (thirty-sixth held-out set, both worked around). A script that names
    less than half of it, or after another error, is none."""
    removed = call(
        "shell", "python3 - <<'PY'\nimport shutil\nfrom pathlib import Path\n"
        "for name in ('dist', 'frontend', 'state'):\n    shutil.rmtree(Path(name))\n"
        "(Path('pipeline') / 'state' / 'voice_log.json').unlink()\nPY"
    )  # fmt: skip
    refused = call("shell", "rm -rf dist frontend state pipeline/state/voice_log.json", failed=True)
    error = {
        refused.tool_use_id: "exec command rejected: dangerous command detected; rejected by"
        " user approval settings"
    }
    fix = run([refused, removed], error)[refused.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, removed.tool_use_id)
    assert steps(fix) == [(removed.tool_use_id, None)]
    # a script that names one of the four ('state', a key of its dict) did not do it
    keyed = call("shell", "python3 -c \"import json; print(json.load(open('a.json'))['state'])\"")
    assert run([refused, keyed], error)[refused.tool_use_id].outcome == fixes.NOT_FIXED
    # an rm that failed on what it removed is no program missing nor refused
    gone = {refused.tool_use_id: "rm: cannot remove 'dist': Device or resource busy"}
    assert run([refused, removed], gone)[refused.tool_use_id].outcome == fixes.NOT_FIXED

    base = r"c:\Users\me\mod\textures\item"
    failed = call(
        command=f"python3 - << 'EOF'\nimport os\nbase = r\"{base}\"\n"
        "with open(os.path.join(base, \"ruby.png\"), \"wb\") as f:\n    f.write(b'')\n"
        "with open(os.path.join(base, \"ruby_sword.png\"), \"wb\") as f:\n    f.write(b'')\nEOF",
        failed=True,
    )  # fmt: skip
    check = call(command="py -3 --version 2>/dev/null || node --version 2>/dev/null")
    node = call(
        command="node - << 'EOF'\nconst fs = require('fs');\n"
        "const base = 'c:/Users/me/mod/textures/item/';\n"
        "fs.writeFileSync(base + 'ruby.png', png(ruby));\n"
        "fs.writeFileSync(base + 'ruby_sword.png', png(sword));\nEOF"
    )  # fmt: skip
    missing = {
        failed.tool_use_id: "Exit code 49\nPython was not found; run without arguments to"
        " install from the Microsoft Store, or disable this shortcut from Settings"
    }
    fix = run([failed, check, node], missing)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, node.tool_use_id)
    assert steps(fix) == [(node.tool_use_id, None)]
    other = call(command="node -e \"require('fs').writeFileSync('icon.png', png())\"")
    assert run([failed, check, other], missing)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_cd_whose_windows_folder_bash_ate_is_done_on_its_files_by_their_full_path():
    """`cd D:\\Work\\Okki\\output && grep -o '"tier": "[A-Z]"' baselines.json | sort |
    uniq -c` in Git Bash: the backslashes taken for escapes, `cd: $'D:WorkOkkioutput': No
    such file or directory`, and no grep ran (no search that found nothing). A `node -e`
    reading `D:/Work/Okki/output/baselines.json` then counted the tiers (thirty-ninth
    held-out set, worked around). A script on another file, one that writes (not a look, as
    the grep was), or a cd that bash did not mangle, is none."""
    cd = "cd D:\\Work\\Okki\\output && "
    failed = call(
        command=cd + 'grep -o \'"tier": "[A-Z]"\' baselines.json | sort | uniq -c',
        failed=True,
    )
    error = {
        failed.tool_use_id: "Exit code 1\n/usr/bin/bash: line 1: cd: $'D:WorkOkkioutput': No"
        " such file or directory"
    }
    assert not fixes.found_nothing(failed.command, error[failed.tool_use_id])

    def node(path, code="console.log(Object.keys(d).length)"):
        read = f"const d=JSON.parse(require('fs').readFileSync('{path}','utf-8')); "
        return call(command=f'node -e "{read}{code}"')

    counted = node("D:/Work/Okki/output/baselines.json")
    fix = run([failed, counted], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, counted.tool_use_id)
    for other in (
        node("D:/Work/Okki/output/other.json"),
        node("D:/Work/Okki/output/baselines.json", "require('fs').writeFileSync('x.json', d)"),
    ):
        assert run([failed, other], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    quoted = failed._replace(
        command=failed.command.replace("cd D:\\Work\\Okki\\output", "cd D:/nowhere")
    )
    assert run([quoted, counted], error)[quoted.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_listing_bash_could_not_parse_is_made_by_a_glob_in_its_folder():
    """`ls "X:\\addons\\hr_fields\\"`: the trailing backslash escaped the closing quote,
    `unexpected EOF while looking for matching`, and the Glob `hr_fields/migrations/**`
    answered what the listing was for (thirty-ninth held-out set, worked around). A Glob
    of another folder, or after a listing that ran and found no such folder, is none."""
    failed = call(command='ls "X:\\addons\\hr_fields\\"', failed=True)
    error = {
        failed.tool_use_id: "Exit code 2\n/usr/bin/bash: eval: line 1: unexpected EOF while"
        " looking for matching `\"'"
    }
    for pattern, path, outcome in (
        ("hr_fields/migrations/**", None, fixes.WORKED_AROUND),
        ("migrations/**", "X:\\addons\\hr_fields", fixes.WORKED_AROUND),
        ("hr_payroll/migrations/**", None, fixes.NOT_FIXED),
    ):
        glob = call("Glob", pattern=pattern, file_path=path)
        assert run([failed, glob], error)[failed.tool_use_id].outcome == outcome
    glob = call("Glob", pattern="hr_fields/migrations/**")
    gone = {failed.tool_use_id: "ls: cannot access 'X:/addons/hr_fields': No such file"}
    assert run([failed, glob], gone)[failed.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_look_whose_program_was_not_found_is_answered_by_a_file_tool_of_its_path():
    """`jq -r '[.results[].stage] | unique[]' "D:\\x\\heat.json"` (jq: command not found),
    then the Grep tool's listing of the stage values in that file: worked around by it, not
    by a later shell grep of another field (thirty-ninth held-out set). A look at another
    file, or a command that was to change the file, is none."""
    path = r"D:\x\heat.json"
    failed = call(command=f"jq -r '[.results[].stage] | unique[]' \"{path}\" 2>&1", failed=True)
    grep = call("Grep", file_path=path, pattern='"stage":\\s*"[^"]*"')
    shell = call(command=f'grep -o \'"lastSender": "[^"]*"\' "{path}" | sort | uniq -c')
    error = {failed.tool_use_id: "/usr/bin/bash: line 1: jq: command not found"}
    fix = run([failed, grep, shell], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)
    elsewhere = grep._replace(file_path=r"D:\x\other.json")
    assert run([failed, elsewhere], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    moved = call(command=f'mv "{path}" /tmp/heat.json', failed=True)
    moved_error = {moved.tool_use_id: "/usr/bin/bash: line 1: mv: command not found"}
    assert run([moved, grep], moved_error)[moved.tool_use_id].outcome == fixes.NOT_FIXED


def test_a_python_that_exited_49_saying_nothing_is_the_store_alias():
    """Git Bash on Windows ran the Microsoft Store's stand-in for Python: `python -c` and
    `python3 -c` scripts that were to read JSON files exited 49 with no output, worked
    around by the Grep tool of the file, `head -c` of it, or a `node -e` script doing the
    same work (thirty-ninth held-out set, 5 failures). A script of Python's own exiting 49
    after printing, another status, a script that was to write the file, or a look at
    another file is none."""
    path = r"D:\Work\Okki\data\heat.json"
    script = f"import json\nwith open(r'{path}') as f:\n    data = json.load(f)\nprint(len(data))"
    failed = call(command=f'python -c "{script}" 2>&1', failed=True)
    grep = call("Grep", file_path=path, pattern='"stage": "[^"]*"')
    other = call("Grep", file_path=r"D:\Work\Okki\data\other.json", pattern="stage")
    silent = {failed.tool_use_id: "Exit code 49"}
    fix = run([failed, grep], silent)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, grep.tool_use_id)
    assert run([failed, other], silent)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    for status in ("Exit code 1", "Exit code 49\n12"):
        said = {failed.tool_use_id: status}
        assert run([failed, grep], said)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    dumped = "\njson.dump(data, open('x.json', 'w'))"
    writes = call(command=f'python -c "{script}{dumped}"', failed=True)
    fix = run([writes, grep], {writes.tool_use_id: "Exit code 49"})[writes.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED

    # in its folder: `head -c` of the file its code opened
    cd = 'cd "D:\\Work\\Okki\\output" && '
    dump = call(
        command=cd + "python -c \"import json\nwith open('baselines.json') as f:\n"
        '    data = json.load(f)\nprint(list(data))"',
        failed=True,
    )
    head = call(command=cd + "head -c 2000 baselines.json")
    fix = run([dump, head], {dump.tool_use_id: "Exit code 49"})[dump.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, head.tool_use_id)

    # a node script on the same file, its lines printed by templates not counted as paths
    listing = call(
        command=cd + "python3 -c \"import json\nwith open('baselines.json') as f:\n"
        "    data = json.load(f)\nfor k in data: print(f'{k}: {data[k][0]}/{data[k][1]}')\n"
        "print(f'done: {len(data)}/{len(data)}')\"",
        failed=True,
    )
    node = call(
        command=cd + "node -e \"const fs = require('fs');\n"
        "const data = JSON.parse(fs.readFileSync('baselines.json', 'utf8'));\n"
        "for (const k in data) console.log(k + ': ' + data[k][0] + '/' + data[k][1]);\""
    )
    fix = run([listing, node], {listing.tool_use_id: "Exit code 49"})[listing.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, node.tool_use_id)


_DATA = "/mnt/c/Users/me/Projects/data"


def _sqljs_session(conn, opened: str, second: str, second_error: str | None) -> None:
    """`sqlite3 DATA/workspace.db ".tables"` (command not found), then `second` (its output
    `second_error` when it failed), then a Write of init-db.mjs whose code opens `opened`
    with sql.js, `npm install sql.js` and `node init-db.mjs` (thirty-fourth held-out set)."""
    script = f"import initSqlJs from 'sql.js';\nconst dbPath = '{opened}';\n"
    calls = [
        ("s1", "Bash", f'sqlite3 "{_DATA}/workspace.db" ".tables" 2>&1', None),
        ("s2", "Bash", second, None),
        ("s3", "Write", None, f"{_DATA}/init-db.mjs"),
        ("s4", "Bash", f"cd {_DATA} && npm install sql.js", None),
        ("s5", "Bash", "node init-db.mjs 2>&1", None),
    ]
    for n, (tool_use_id, name, command, path) in enumerate(calls):
        tool_input = json.dumps(
            {"file_path": path, "content": script} if path else {"command": command}
        )
        if tool_use_id == "s1":
            error = "Exit code 127\n/bin/bash: line 1: sqlite3: command not found"
            store_call(conn, n, "s1", name, tool_input, error, "error", command=command)
        elif tool_use_id == "s2" and second_error:
            store_call(conn, n, "s2", name, tool_input, second_error, "error", command=command)
        elif path:
            store_call(conn, n, tool_use_id, name, tool_input, "ok", file_path=path)
        else:
            store_call(conn, n, tool_use_id, name, tool_input, "ok", command=command)
    db.refresh_fixes(conn)


def test_a_script_file_written_and_run_that_opens_what_a_missing_program_was_given(tmp_path):
    """`sqlite3 .../data/workspace.db ".tables"` (command not found), then a Write of
    init-db.mjs whose code opens that database with sql.js, `npm install sql.js` and `node
    init-db.mjs`: worked around, those three the steps (thirty-fourth held-out set). The
    build reads the content of the session's writes for it; a script file that opens
    another database is none."""
    for opened, worked_around in (
        (f"{_DATA}/workspace.db", True),
        ("/mnt/c/Users/me/other.db", False),
    ):
        conn = db.connect(tmp_path / f"{worked_around}.db")
        _sqljs_session(conn, opened, f"ls -la {_DATA}/", None)
        outcome, confirmed_by, remedy = conn.execute(
            "SELECT outcome, confirmed_by, remedy FROM fixes WHERE tool_use_id = 's1'"
        ).fetchone()
        if worked_around:
            assert (outcome, confirmed_by) == (fixes.WORKED_AROUND, "s5")
            assert [s["tool_use_id"] for s in json.loads(remedy)] == ["s3", "s4", "s5"]
        else:
            assert outcome == fixes.NOT_FIXED


def test_an_install_refused_of_a_missing_program_is_worked_around_as_its_absence_was(
    tmp_path,
):
    """`sqlite3: command not found`, then `sudo apt-get install -y sqlite3` refused (sudo
    asked for a password), then init-db.mjs written, `npm install sql.js` and `node
    init-db.mjs`: the install is worked around by those steps too, as its label says
    (thirty-fourth held-out set; it was "not fixed", a new user's try, nu42 finding 4). An
    install of another program, or one whose program's absence nothing got past, is not."""
    sudo = (
        "Exit code 1\nsudo: a terminal is required to read the password; either use the -S"
        " option to read from standard input or configure an askpass helper\n"
        "sudo: a password is required"
    )
    for package, opened, expected in (
        ("sqlite3", f"{_DATA}/workspace.db", fixes.WORKED_AROUND),
        ("postgresql-client", f"{_DATA}/workspace.db", fixes.NOT_FIXED),
        ("sqlite3", "/mnt/c/Users/me/other.db", fixes.NOT_FIXED),
    ):
        conn = db.connect(tmp_path / f"{package}-{len(opened)}.db")
        install = f"sudo apt-get update && sudo apt-get install -y {package}"
        _sqljs_session(conn, opened, install, sudo)
        outcome, confirmed_by, remedy = conn.execute(
            "SELECT outcome, confirmed_by, remedy FROM fixes WHERE tool_use_id = 's2'"
        ).fetchone()
        assert outcome == expected, (package, opened)
        if expected == fixes.WORKED_AROUND:
            assert confirmed_by == "s5"
            assert [s["tool_use_id"] for s in json.loads(remedy)] == ["s3", "s4", "s5"]


def test_a_command_the_task_tool_could_not_stop_killed_by_the_shell():
    """TaskStop of a background command (`No task found with ID: bev9zowtl`), then `kill
    150533` of its process, read from `ps`: worked around (thirty-sixth held-out set). A
    look at the processes alone is not."""
    failed = call("TaskStop", input='{"task_id":"bev9zowtl"}', failed=True)
    error = {
        failed.tool_use_id: "<tool_use_error>No task found with ID: bev9zowtl</tool_use_error>"
    }
    looked = call(command="ps aux | grep 'python train'")
    assert run([failed, looked], error)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    killed = call(command='kill 150533 2>/dev/null; echo "Killed training process"')
    fix = run([failed, looked, killed], error)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, killed.tool_use_id)


def test_a_retry_whose_check_failed_behind_a_pipe_got_past_an_earlier_part_of_its_chain():
    """`pip install ... && pytest | tail` refused by PEP 668, then the same chain in a new
    venv whose tests failed (exit 0 from tail): `&&` ran pytest only once the install
    succeeded, so that retry confirms the install's fix, not the passing run after the test
    edits (thirty-seventh held-out set, labelled fixed by the retry). A chain whose last
    part failed unpiped may have failed there: its retry failing behind a pipe confirms
    nothing."""
    failed = call(
        command="pip install pytest -q && python -m pytest tests/ 2>&1 | tail -5", failed=True
    )
    error = {
        failed.tool_use_id: "Exit code 1\nerror: externally-managed-environment\n\n"
        "× This environment is externally managed"
    }
    retry = call(
        command="python3 -m venv .venv && source .venv/bin/activate && pip install -q pytest"
        " && python -m pytest tests/ 2>&1 | tail -5"
    )
    edit = call("Edit", file_path="/p/tests/test_x.py")
    passed = call(command="source .venv/bin/activate && python -m pytest tests/ 2>&1 | tail -5")
    outputs = {
        retry.tool_use_id: "FAILED tests/test_x.py::test_a\n== 2 failed, 40 passed in 1.20s ==",
        passed.tool_use_id: "== 42 passed in 1.10s ==",
    }
    fix = run([failed, retry, edit, passed], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [retry.tool_use_id]

    unpiped = call(command="npm ci && npm test", failed=True)
    error = {unpiped.tool_use_id: "Exit code 1\nTests: 2 failed, 40 passed"}
    again = call(command="npm ci && npm test 2>&1 | tail -5")
    outputs = {again.tool_use_id: "Tests: 1 failed, 41 passed"}
    fix = run([unpiped, again], error, outputs)[unpiped.tool_use_id]
    assert fix.confirmed_by != again.tool_use_id


def test_each_rewrite_of_inline_code_that_got_past_its_error_is_that_errors_step():
    """A data script rewritten on each of its errors (a keyword the model lacks, then a NOT
    NULL column, then another), the last version running: each failure's step is the
    rewrite that came next, which got past it, not a look at the model's columns between
    (its `source .venv/bin/activate` changes nothing the script met) nor the last version
    (thirty-seventh held-out set)."""
    base = "from app import db, Regulation, Financial, JobOffer\nsession = db.session()\n"
    versions = [
        base + "session.add(Regulation(titre='x', secteurs_json='[]'))\nsession.commit()",
        base + "session.add(Regulation(titre='x', secteurs='[]'))\n"
        "session.add(Financial(annee=2024))\nsession.commit()",
        base + "session.add(Regulation(titre='x', secteurs='[]'))\n"
        "session.add(Financial(annee=2024, source='pappers'))\n"
        "session.add(JobOffer(titre='dev'))\nsession.commit()",
        base + "session.add(Regulation(titre='x', secteurs='[]'))\n"
        "session.add(Financial(annee=2024, source='pappers'))\n"
        "session.add(JobOffer(titre='dev', url='https://x'))\nsession.commit()\nprint('ok')",
    ]
    runs = [
        call(command=f"source .venv/bin/activate && python << 'EOF'\n{code}\nEOF", failed=n < 3)
        for n, code in enumerate(versions)
    ]
    look = call(
        command='source .venv/bin/activate && python -c "from app import Regulation;'
        ' print([c.name for c in Regulation.__table__.columns])"'
    )
    errors = {
        runs[0].tool_use_id: "Exit code 1\nTraceback (most recent call last):\n"
        "TypeError: 'secteurs_json' is an invalid keyword argument for Regulation",
        runs[1].tool_use_id: "Exit code 1\nTraceback (most recent call last):\n"
        "sqlalchemy.exc.IntegrityError: (sqlite3.IntegrityError) NOT NULL constraint failed:"
        " financials.source",
        runs[2].tool_use_id: "Exit code 1\nTraceback (most recent call last):\n"
        "sqlalchemy.exc.IntegrityError: (sqlite3.IntegrityError) NOT NULL constraint failed:"
        " job_offers.url",
    }
    found = run([runs[0], look, *runs[1:]], errors, {runs[3].tool_use_id: "ok"})
    for n in range(3):
        fix = found[runs[n].tool_use_id]
        assert fix.confirmed_by == runs[3].tool_use_id
        assert steps(fix) == [(runs[n + 1].tool_use_id, "its code rewritten")]


def test_a_look_or_a_pull_that_changed_nothing_is_no_step():
    """`docker compose -p geox restart geox_server` (`no such service`), then a look at the
    project's containers (`docker compose -p geox ps`: `geox` is the option's value, `ps`
    the verb) and a `git pull` that was `Already up to date.`, then the service built and
    started: its own step alone (thirty-seventh held-out set)."""
    failed = call(
        command="cd /root/GEOX && docker compose -p geox restart geox_server", failed=True
    )
    error = {failed.tool_use_id: "Exit code 1\nno such service: geox_server"}
    ps = call(command="cd /root/GEOX && docker compose -p geox ps 2>&1")
    pull = call(command="git pull origin main 2>&1 | tail -5")
    up = call(command="cd /root/GEOX && docker compose -p geox up -d --build geox_server")
    outputs = {
        ps.tool_use_id: "NAME      IMAGE     COMMAND   SERVICE   CREATED   STATUS    PORTS",
        pull.tool_use_id: "From https://github.com/x/GEOX\n * branch  main -> FETCH_HEAD\n"
        "Already up to date.",
    }
    fix = run([failed, ps, pull, up], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == up.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [up.tool_use_id]
    # a pull that brought changes in is a step
    outputs[pull.tool_use_id] = "Updating 1a2b3c..4d5e6f\nFast-forward\n compose.yml | 4 ++--"
    fix = run([failed, ps, pull, up], error, outputs)[failed.tool_use_id]
    assert [s.tool_use_id for s in fix.remedy] == [pull.tool_use_id, up.tool_use_id]


def test_cmds_findstr_is_a_look():
    """`cmd /c findstr /n "def f" a\\b.py` looks for a line: no step of the fix after it
    (thirty-seventh held-out set, Codex on Windows)."""
    failed = call(command="python app.py", failed=True)
    error = {failed.tool_use_id: "Exit code 1\nNameError: name 'resize' is not defined"}
    look = call(command='cmd /c findstr /n "def resize" app.py')
    edit = call("Edit", file_path="/p/app.py")
    again = call(command="python app.py")
    fix = run([failed, look, edit, again], error)[failed.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [edit.tool_use_id]


def test_a_program_not_found_again_by_another_spelling_met_the_same_obstacle():
    """Git Bash ate the backslashes of `.\\kuzu_cli\\kuzu.exe`, then of `kuzu_cli\\kuzu.exe`;
    cmd printed its banner and ran nothing; PowerShell ran it: the fix is the PowerShell run,
    not the second try, which failed the same way (thirty-seventh held-out set)."""
    failed = call(command=".\\kuzu_cli\\kuzu.exe --version", failed=True)
    retry = call(command="kuzu_cli\\kuzu.exe --version", failed=True)
    banner = call(command='cmd /c "kuzu_cli\\kuzu.exe --version"')
    ps = call(command='powershell -Command ".\\kuzu_cli\\kuzu.exe --version"')
    errors = {
        failed.tool_use_id: "Exit code 127\n/usr/bin/bash: line 1: .kuzu_clikuzu.exe: command"
        " not found",
        retry.tool_use_id: "Exit code 127\n/usr/bin/bash: line 1: kuzu_clikuzu.exe: command"
        " not found",
    }
    outputs = {
        banner.tool_use_id: "Microsoft Windows [Version 10.0.26100.4652]\n"
        "(c) Microsoft Corporation. All rights reserved.\n\nC:\\Users\\me\\app>",
        ps.tool_use_id: "Kuzu 0.11.1",
    }
    fix = run([failed, retry, banner, ps], errors, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == ps.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [ps.tool_use_id]
    assert not fixes._not_found_again("make", "bash: cmake: command not found")


def test_cmd_that_only_printed_its_banner_is_no_step():
    """`cmd /c "kuzu.exe :memory: < x.cypher"` from Git Bash printed cmd's banner and ran
    nothing: no step of the fix of PowerShell's refused `<` (thirty-seventh held-out set)."""
    failed = call(command="kuzu.exe x.cypher", failed=True)
    error = {failed.tool_use_id: "Exit code 1\nError: x.cypher: no such database"}
    banner = call(command='cmd /c "kuzu.exe :memory: < x.cypher"')
    edit = call("Write", file_path="/p/x.cypher")
    again = call(command="kuzu.exe x.cypher")
    outputs = {
        banner.tool_use_id: "Microsoft Windows [Version 10.0.26100.4652]\n"
        "(c) Microsoft Corporation. All rights reserved.\n\nC:\\Users\\me\\app>",
        again.tool_use_id: "ok",
    }
    fix = run([failed, banner, edit, again], error, outputs)[failed.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [edit.tool_use_id]


_UNDECIDED = (
    "claude-opus-4-8 is temporarily unavailable, so auto mode cannot determine the safety of"
    " Bash right now. Wait briefly and then try this action again."
)


def test_nothing_done_after_a_call_auto_mode_could_not_judge_is_its_fix():
    """Auto mode refused a Bash call while its classifier was unavailable; an emulator was
    started and awaited, then the script run with a path: the run confirms it, and neither
    what came between nor the path it was run with is a step: the classifier came back
    (thirty-seventh held-out set; the card said `fix: ... (changed: +system-images/...)`,
    a new user's try, nu40 finding 1)."""
    failed = call(command="cd /p/rootAVD && ./rootAVD.sh", failed=True, kind="undecided")
    emulator = call(command="emulator -avd sdk36 -no-snapshot &")
    wait = call(command='adb wait-for-device && echo "Device connected"')
    again = call(command="cd /p/rootAVD && ./rootAVD.sh system-images/android-36/")
    fix = run([failed, emulator, wait, again], {failed.tool_use_id: _UNDECIDED})
    assert fix[failed.tool_use_id].confirmed_by == again.tool_use_id
    assert steps(fix[failed.tool_use_id]) == []


def test_a_retry_that_ran_after_auto_mode_could_not_judge_has_its_own_fix():
    """Once a retry of the call auto mode could not judge ran, and failed on an error of its
    own (`ModuleNotFoundError`), what fixed that is the fix, as of a call cancelled with its
    sibling: the install."""
    failed = call(command="python3 train.py", failed=True, kind="undecided")
    ran = call(command="python3 train.py", failed=True)
    install = call(command="pip install torch")
    again = call(command="python3 train.py --epochs 2")
    errors = {
        failed.tool_use_id: _UNDECIDED,
        ran.tool_use_id: "Exit code 1\nModuleNotFoundError: No module named 'torch'",
    }
    fix = run([failed, ran, install, again], errors)[failed.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id
    assert [s.tool_use_id for s in fix.remedy][:1] == [install.tool_use_id]


@pytest.mark.parametrize(
    "command, looks",
    [
        ("sudo ufw status", True),
        ("sudo iptables -L INPUT -n", True),
        ("ip addr show", True),
        ('curl -s -o /dev/null -w "%{http_code}" http://localhost:8502', True),
        ("curl -I https://example.com", True),
        ("sudo ufw allow 8502/tcp", False),
        ("sudo iptables -A INPUT -p tcp --dport 8502 -j ACCEPT", False),
        ("ip addr add 10.0.0.2/24 dev eth0", False),
        ("curl -s -o /dev/null -X POST http://localhost:8502/reset", False),
        ("curl -o app.tgz https://example.com/app.tgz", False),
    ],
)
def test_a_firewall_list_an_address_shown_and_a_status_probe_are_looks(command, looks):
    """A diagnostic script of `sudo ufw status`, `sudo iptables -L`, a curl of the
    dashboard's status code and `ip addr show | grep "inet "` looked (thirty-seventh
    held-out set): `sudo` is no subcommand of ufw, its `status` is; a curl that throws
    the body away or asks only for headers, sending nothing, asks how a server answers."""
    steps = [c.command for c in fixes.next_steps([call(command=command)])]
    assert steps == ([] if looks else [command])


def test_a_look_piped_into_a_matcher_that_matched_nothing_found_nothing():
    """`docker ps -a | grep -i wiki && echo --- && find ...` exited 1 and printed nothing:
    no container matched, the rest never ran. The same grep again, reported a success by
    Claude Code, `(Bash completed with no output)`, found nothing again, and fixes nothing;
    one that printed a container found it. A diagnostic script whose last command, `ip addr
    show | grep "inet " | grep -v 127.0.0.1`, matched nothing after its other sections had
    printed, was no failure the `ufw allow` its answer led to fixed (thirty-seventh held-out
    set, 3 not a problem)."""
    failed = call(
        command='docker ps -a | grep -i wiki && echo "---" && find /root -type d -name'
        ' "*wiki*" 2>/dev/null | head -10',
        failed=True,
    )
    again = call(command='docker ps -a 2>&1 | grep -i "wiki"')
    error = {failed.tool_use_id: "Exit code 1"}
    assert fixes.found_nothing(failed.command, "Exit code 1")
    for printed, outcome in [
        ("(Bash completed with no output)", fixes.ANSWERED),
        ("", fixes.ANSWERED),
        ("3f2a  outline/wiki:latest  Up 2 hours  wiki", fixes.FIXED),
    ]:
        fix = run([failed, again], error, {again.tool_use_id: printed})[failed.tool_use_id]
        assert fix.outcome == outcome
    # a quiet grep's status is its answer
    quiet_failed = call(command="rg -qi wiki docs", failed=True)
    quiet = call(command="rg -qi wiki docs")
    fix = run([quiet_failed, quiet], {quiet_failed.tool_use_id: "Exit code 1"})
    assert fix[quiet_failed.tool_use_id].outcome == fixes.FIXED
    script = call(
        command='echo "=== UFW ==="\nsudo ufw status 2>/dev/null || echo "off"\n'
        'echo "=== iptables ==="\nsudo iptables -L INPUT -n 2>/dev/null | head -10\n'
        'curl -s -o /dev/null -w "HTTP %{http_code}" http://localhost:8502\n'
        'echo "=== IP ==="\nip addr show | grep "inet " | grep -v 127.0.0.1',
        failed=True,
    )
    printed = (
        "Exit code 1\n=== UFW ===\nStatus: active\n22/tcp ALLOW Anywhere\n=== iptables ===\n"
        "Chain INPUT (policy DROP)\nHTTP 200\n=== IP ==="
    )
    opened = call(command="sudo ufw allow 8502/tcp && sudo ufw status | grep 850")
    fix = run([script, opened], {script.tool_use_id: printed})[script.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    # the look piped into the matcher failed: no search that found nothing
    assert not fixes.found_nothing(
        "git ls-remote --heads origin | grep -E 'x$'",
        "Exit code 1\nfatal: unable to access 'https://github.com/a/b.git/': Could not resolve"
        " host: github.com",
    )


def test_a_search_of_file_names_is_not_found_by_a_search_of_lines():
    """`rg --files -g '*.constitution'` found no file of that extension; `rg -n
    "Constitution|constitution|principle" .specify README.md` then printed lines of
    constitution.md: another question, no widening of the first (thirty-seventh held-out
    set, not a problem). The names searched for hidden files too found it."""
    failed = call("shell_command", command="rg --files -g '*.constitution'", failed=True)
    lines = call(
        "shell_command", command='rg -n "Constitution|constitution|principle" .specify README.md'
    )
    grep = call("shell_command", command="grep -rn constitution .specify")
    printed = {
        lines.tool_use_id: ".specify/memory/constitution.md:1:# [PROJECT_NAME] Constitution",
        grep.tool_use_id: ".specify/memory/constitution.md:1:# [PROJECT_NAME] Constitution",
    }
    error = {failed.tool_use_id: "Exit code 1"}
    assert run([failed, lines], error, printed)[failed.tool_use_id].outcome == fixes.ANSWERED
    assert run([failed, grep], error, printed)[failed.tool_use_id].outcome == fixes.ANSWERED
    hidden = call("shell_command", command="rg --files --hidden -g '*.constitution'")
    names = {hidden.tool_use_id: ".specify/memory/team.constitution"}
    fix = run([failed, hidden], error, names)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, hidden.tool_use_id)
    find = call("shell_command", command="find . -name '*.constitution'")
    found = {find.tool_use_id: "./.specify/memory/team.constitution"}
    fix = run([failed, find], error, found)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, find.tool_use_id)


def test_a_write_rejected_for_a_new_task_is_not_redone_by_its_write():
    """The user rejected a Write of docker_inventory.txt and asked for a manage-stack.sh
    script: the Write of that script is the next task, not the inventory redone on another
    file (thirty-seventh held-out set, not a problem). A Write of the same text under the
    name the user gave is its redo."""
    inventory = "Docker Container Inventory\nContainer Name: n8n\nStatus: running\nNetworks"
    failed = call(
        "Write",
        file_path="/workspace/docker_inventory.txt",
        failed=True,
        kind="rejected",
        at="2026-01-01T00:00:01Z",
        input=json.dumps({"file_path": "/workspace/docker_inventory.txt", "content": inventory}),
    )
    script = "#!/bin/bash\nCONTAINERS=(n8n qdrant)\nshow_usage() {\n  echo usage\n}"
    other = call(
        "Write",
        file_path="/workspace/manage-stack.sh",
        at="2026-01-01T00:00:05Z",
        input=json.dumps({"file_path": "/workspace/manage-stack.sh", "content": script}),
    )
    rejected = {failed.tool_use_id: "The user doesn't want to proceed with this tool use."}
    prompt = ["2026-01-01T00:00:03Z"]
    assert run([failed, other], rejected, prompts=prompt)[failed.tool_use_id].outcome == (
        fixes.DECLINED
    )
    renamed = call(
        "Write",
        file_path="/workspace/inventory.txt",
        at="2026-01-01T00:00:05Z",
        input=json.dumps({"file_path": "/workspace/inventory.txt", "content": inventory}),
    )
    fix = run([failed, renamed], rejected, prompts=prompt)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, renamed.tool_use_id)


def test_a_run_that_printed_only_cmds_banner_is_no_step():
    """PowerShell refused `kuzu.exe :memory: < test.cypher`; `cmd /c "kuzu.exe :memory: <
    test.cypher"` from Git Bash printed cmd's banner and prompt and ran nothing; the
    statements piped into kuzu.exe then ran. The banner's run is no step of that fix
    (thirty-seventh held-out set), as it is no confirmation."""
    failed = call(command='powershell -Command ".\\kuzu.exe :memory: < test.cypher"', failed=True)
    banner = call(command='cmd /c "kuzu.exe :memory: < test.cypher"')
    piped = call(
        command='echo "CREATE NODE TABLE P(id INT64);" | powershell -Command ".\\kuzu.exe :memory:"'
    )
    error = {
        failed.tool_use_id: "+ .\\kuzu.exe :memory: < test.cypher\n"
        "    + FullyQualifiedErrorId : RedirectionNotSupported"
    }
    printed = {
        banner.tool_use_id: "Microsoft Windows [Version 10.0.26100.4652]\n(c) Microsoft"
        " Corporation. All rights reserved.\n\nC:\\Users\\me\\addin>",
        piped.tool_use_id: "Opening the database under in-memory mode.\nTable P has been created.",
    }
    fix = run([failed, banner, piped], error, printed)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (fixes.FIXED, piped.tool_use_id, [])


def test_a_view_cmd_broke_redone_by_powershell():
    """`cmd /c if exist .specify\\memory\\constitution.md (type ...) else (echo MISSING)`,
    broken by cmd's parsing, then `Get-Content -Raw .\\.specify\\memory\\constitution.md`:
    worked around (thirty-seventh held-out set, Codex). cmd's test guards the view; a
    Get-Content of another file is no other way to it."""
    failed = call(
        "shell_command",
        "cmd /c if exist .specify\\memory\\constitution.md (type"
        " .specify\\memory\\constitution.md) else (echo MISSING)",
        failed=True,
    )
    error = {
        failed.tool_use_id: "Exit code 1\n'\"# [PROJECT_NAME] Constitution\"' is not recognized"
        " as an internal or external command,\noperable program or batch file."
    }
    assert [i.program for i in fixes.intents(failed.command)] == ["type", "echo"]
    other = call("shell_command", "Get-Content -Raw .\\.specify\\memory\\plan.md")
    shown = call("shell_command", "Get-Content -Raw .\\.specify\\memory\\constitution.md")
    outputs = {other.tool_use_id: "# Plan", shown.tool_use_id: "# [PROJECT_NAME] Constitution"}
    fix = run([failed, other, shown], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, shown.tool_use_id)
    assert run([failed, other], error, outputs)[failed.tool_use_id].outcome == fixes.ANSWERED


def test_a_file_search_that_missed_answered_by_a_view_of_the_file():
    """`rg --files -g '.specify/memory/constitution.md' -g 'constitution.md'` found nothing
    (rg skips hidden folders), then `ls -a` and `cat .specify/memory/constitution.md`:
    worked around by the cat (thirty-seventh held-out set, Codex). Not a view of every file
    a wildcard asks for (`-g '*.md'`, then README.md), nor of the file written since."""
    failed = call(
        "shell_command",
        "rg --files -g '.specify/memory/constitution.md' -g 'constitution.md'",
        failed=True,
    )
    error = {failed.tool_use_id: "Exit code 1"}
    listed = call("shell_command", "ls -a")
    viewed = call("shell_command", "cat .specify/memory/constitution.md")
    outputs = {listed.tool_use_id: ".\n..\n.specify\nREADME.md", viewed.tool_use_id: "# Const"}
    fix = run([failed, listed, viewed], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, viewed.tool_use_id)
    assert steps(fix) == [(viewed.tool_use_id, None)]
    written = call("Write", file_path="/p/.specify/memory/constitution.md")
    fix = run([failed, written, viewed], error, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    every = call("shell_command", "rg --files -g '*.md'", failed=True)
    readme = call("shell_command", "cat README.md")
    outputs[readme.tool_use_id] = "# Readme"
    fix = run([every, readme], {every.tool_use_id: "Exit code 1"}, outputs)[every.tool_use_id]
    assert fix.outcome == fixes.ANSWERED


def test_a_blocked_look_made_in_a_container_that_mounts_its_paths():
    """`ls -la /home/me/.n8n /home/me/qdrant_storage` blocked (Claude Code may only list
    the allowed working directories), then six edits of a script, then `docker run --rm -v
    /home/me/.n8n:/mnt_n8n ... alpine sh -lc 'ls -la /mnt_n8n'`: worked around, the docker
    run its only step (thirty-seventh held-out set). A container mounting another folder
    looked at nothing the look asked."""
    failed = call(
        command="ls -la /workspace/ && ls -la /home/me/.n8n /home/me/qdrant_storage 2>/dev/null"
        ' || echo "Some host paths may not exist"',
        failed=True,
    )
    error = {
        failed.tool_use_id: "<tool_use_error>ls in '/home/me/.n8n' was blocked. For security,"
        " Claude Code may only list files in the allowed working directories for this"
        " session: '/workspace'.</tool_use_error>"
    }
    edits = [call("Edit", file_path="/workspace/manage-stack.sh") for _ in range(6)]

    def container(source):
        return call(
            command=f"docker run --rm \\\n  -v {source}:/mnt_n8n \\\n  alpine sh -lc '\n"
            '    echo "--- /mnt_n8n ---"; ls -la /mnt_n8n || true\''
        )

    looked = container("/home/me/.n8n")
    outputs = {looked.tool_use_id: "--- /mnt_n8n ---\ntotal 500\n-rw-r--r-- 1 config"}
    fix = run([failed, *edits, looked], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, looked.tool_use_id)
    assert steps(fix) == [(looked.tool_use_id, None)]
    other = container("/home/me/other")
    outputs[other.tool_use_id] = outputs[looked.tool_use_id]
    fix = run([failed, *edits, other], error, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_script_run_as_one_line_worked_around_by_one_of_its_lines():
    """A file inventory whose line breaks were lost: `wc` of `find x | wc -l` was given the
    next line's words for files (`wc: echo: No such file or directory`); then `find x -type
    f | sort` listed the files: worked around, not the filter's own error (thirty-seventh
    held-out set, 2 such scripts). The script run again whole is its fix."""
    script = (
        '\nfind /s/jay -type f | wc -l && echo "total files"\necho\n'
        'echo "Skill scripts:" && find /s/jay/skills -name "*.py" | wc -l\n'
        "du -sh /s/jay\n"
    )
    failed = call(command=script, failed=True)
    error = {
        failed.tool_use_id: "Exit code 1\nwc: echo: No such file or directory\nwc: 'Skill"
        " scripts:': No such file or directory\n\n27\ntotal files echo echo\n0 total"
    }
    listed = call(command="find /s/jay -type f | sort | head -30")
    outputs = {listed.tool_use_id: "/s/jay/README.md\n/s/jay/skills/a.py"}
    fix = run([failed, listed], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, listed.tool_use_id)
    assert steps(fix) == [(listed.tool_use_id, None)]
    again = call(command=script.replace("\n", " ;\n"))
    outputs[again.tool_use_id] = "27\ntotal files\n\nSkill scripts:\n6\n1.2M /s/jay"
    fix = run([failed, again], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)


def test_a_guessed_read_made_of_the_file_a_listing_showed_under_its_own_kind():
    """A Read of a guessed `script/core_parser.py` (not there), `ls parser/` printing
    `core_parser.cpp`, then a Read of `parser/core_parser.cpp`: worked around (thirty-seventh
    held-out set). Not without the listing, nor a file of another stem."""
    failed = call("Read", file_path="/p/script/core_parser.py", failed=True)
    error = {failed.tool_use_id: "File does not exist. Note: your current working directory is /p."}
    listed = call(command="ls -la /p/parser/")
    outputs = {listed.tool_use_id: "total 16\ndrwxr-xr-x command\n-rw-r--r-- 13790 core_parser.cpp"}
    read = call("Read", file_path="/p/parser/core_parser.cpp")
    fix = run([failed, listed, read], error, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, read.tool_use_id)
    assert steps(fix) == [(read.tool_use_id, "script/core_parser.py → parser/core_parser.cpp")]
    assert run([failed, read], error, outputs)[failed.tool_use_id].outcome == fixes.NOT_FIXED
    other = call("Read", file_path="/p/parser/heap_walker.cpp")
    outputs[listed.tool_use_id] += "\n-rw-r--r-- 100 heap_walker.cpp"
    fix = run([failed, listed, other], error, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_an_undo_is_no_retry_and_a_subcommand_refused_never_ran():
    """`claude mcp add serena ...` refused (`MCP server serena already exists`), then
    `claude mcp restart serena` (`error: unknown command 'restart'`), its help, `claude mcp
    remove serena`, and the same add again: the add is the retry, the removal its step. The
    removal was taken for the add's changed retry, and the restart, which never ran, for what
    got past the error (thirty-sixth held-out set; a new user's try, nu39: the hook told the
    agent to run the restart). The restart is fixed by the re-add too, the removal a step."""
    add = "claude mcp add serena -- serena-mcp-server --context ide-assistant --project $(pwd)"
    failed = call(command=add, failed=True)
    restart = call(command="claude mcp restart serena", failed=True)
    helped = call(command="claude mcp --help")
    remove = call(command="claude mcp remove serena")
    again = call(command=add)
    errors = {
        failed.tool_use_id: "MCP server serena already exists in local config",
        restart.tool_use_id: "error: unknown command 'restart'",
    }
    cards = run([failed, restart, helped, remove, again], errors)
    fix = cards[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    assert steps(fix) == [(remove.tool_use_id, None)]
    fix = cards[restart.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [remove.tool_use_id, again.tool_use_id]
    # an undo is no retry of any command that does not undo; of one that does, it is
    for one, other, same in [
        ("git remote add origin x", "git remote remove origin", False),
        ("docker compose up -d web", "docker compose down web", False),
        ("claude mcp remove serena", "claude mcp remove serena -s user", True),
        ("claude mcp add serena x", "claude mcp add serena y", True),
    ]:
        pair = fixes._shared_intent(one, other)
        assert (pair is not None) == same, (one, other)


def test_a_failed_retry_that_never_ran_or_met_the_same_obstacle_is_no_step():
    """A failed retry is a step only when it got past the error: it ran and failed on
    another. Not when the shell could not parse it (a heredoc under `sudo /bin/bash -c
    '...'` broken by a quote of its text, then `... | sudo tee` wrote the file: thirty-fourth
    held-out set), nor when the shell did not find its program either, spelt otherwise
    (`.\\kuzu_cli\\kuzu.exe`, then `kuzu_cli\\kuzu.exe`, bash eating the backslashes, then
    `powershell -Command`: thirty-seventh). Each was the card's fix."""
    write = "cat <<'EOF' > ../docs/req.md\n# Req\nEOF"
    failed = call("shell_command", command=write, failed=True)
    heredoc = "sudo /bin/bash -c 'cat <<\"EOF\" > /home/docs/req.md\n# Req\nEOF'"
    broken = call("shell_command", command=heredoc, failed=True)
    tee = call(
        "shell_command", command="cat <<'EOF' | sudo tee /home/docs/req.md > /dev/null\n# Req\nEOF"
    )
    errors = {
        failed.tool_use_id: "Exit code 1\n/bin/bash: line 1: ../docs/req.md: Permission denied",
        broken.tool_use_id: "Exit code 2\n/bin/bash: -c: line 59: syntax error near unexpected"
        " token `('",
    }
    fix = run([failed, broken, tee], errors)[failed.tool_use_id]
    assert fix.confirmed_by == tee.tool_use_id
    assert broken.tool_use_id not in [s.tool_use_id for s in fix.remedy]

    dotted = call(command=".\\kuzu_cli\\kuzu.exe --version", failed=True)
    bare = call(command="kuzu_cli\\kuzu.exe --version", failed=True)
    shelled = call(command='powershell -Command ".\\kuzu_cli\\kuzu.exe --version"')
    errors = {
        dotted.tool_use_id: "/usr/bin/bash: line 1: .kuzu_clikuzu.exe: command not found",
        bare.tool_use_id: "/usr/bin/bash: line 1: kuzu_clikuzu.exe: command not found",
    }
    fix = run([dotted, bare, shelled], errors)[dotted.tool_use_id]
    assert fix.confirmed_by == shelled.tool_use_id
    assert [s.tool_use_id for s in fix.remedy] == [shelled.tool_use_id]


def test_a_failed_retry_before_another_way_is_no_step():
    """A changed retry that failed on another error, then another way that did the work: the
    way went round what the retry met, which is no step of it (`timeout 90 & type C:\\...`
    in Git Bash, then `ping -n 30 ... && type C:\\...` failing, then `cat /c/...` read the
    file: thirty-fifth held-out set, the ping shown as the fix)."""
    path = "C:\\Users\\me\\AppData\\Local\\Temp\\tasks\\b7.output"
    failed = call(command=f"timeout 90 & type {path} 2>nul", failed=True)
    pinged = call(command=f"ping -n 30 127.0.0.1 >nul && type {path} 2>nul", failed=True)
    cat = call(command="cat /c/Users/me/AppData/Local/Temp/tasks/b7.output")
    errors = {
        failed.tool_use_id: "Exit code 1\nTry 'timeout --help' for more information.",
        pinged.tool_use_id: "Exit code 1",
    }
    fix = run([failed, pinged, cat], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, cat.tool_use_id)
    assert [s.tool_use_id for s in fix.remedy] == [cat.tool_use_id]


def test_commands_appended_to_a_retry_are_no_change_of_it():
    """`git commit` refused a lock (`.git` owned by root), the user's chown in their own
    terminal, then `git commit ... && git push origin x`: the commit ran as it was, and the
    push after it could not have made it work (set 36: the card said `changed: then git
    push origin ...`, its label no step). A changed part after the first, or a step
    before, is still a change."""
    commit = 'git commit -m "feat: a b"'
    assert fixes.command_change(commit, f"{commit} && git push origin x") is None
    assert fixes.command_change(f"ls -la .git/HEAD && {commit}", f"{commit} && git push") is None
    assert fixes.command_change(commit, f"git add . && {commit} && git push origin x") == (
        "first git add .; then git push origin x"
    )
    failed = call(command=commit, failed=True)
    look = call(command="ls -la .git/refs/heads/")
    retry = call(command=f"{commit} && git push origin x")
    error = (
        "Exit code 128\nfatal: cannot lock ref 'HEAD': Unable to create"
        " '.git/refs/heads/x.lock': Permission denied"
    )
    fix = run([failed, look, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert (fix.confirmed_by, fix.remedy) == (retry.tool_use_id, [])


def test_a_list_file_written_by_sudo_tee_is_a_step():
    """`echo "deb ..." | sudo tee /etc/apt/sources.list.d/x.list` writes the file: after
    the malformed list file's `rm`, its rewrite is the remedy's second step (thirty-sixth
    held-out set; the card listed it as `before:`, a look)."""
    failed = call(command="sudo apt update", failed=True)
    rm = call(command="sudo rm /etc/apt/sources.list.d/gh.list")
    tee = call(
        command='echo "deb [arch=amd64] https://cli.github.com/packages stable main" | sudo tee'
        " /etc/apt/sources.list.d/gh.list > /dev/null"
    )
    retry = call(command="sudo apt update")
    error = (
        "E: Malformed entry 1 in list file /etc/apt/sources.list.d/gh.list ([option] not"
        " assignment)"
    )
    fix = run([failed, rm, tee, retry], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == retry.tool_use_id
    assert steps(fix) == [(rm.tool_use_id, None), (tee.tool_use_id, None)]


@pytest.mark.parametrize(
    "retry, change",
    [
        (
            {"old_string": "    fi\n}\n\nup_containers() {", "new_string": "    fi\n}\n\nx"},
            "with a longer old_string, found once",
        ),
        ({"old_string": "    fi\n}", "new_string": "x", "replace_all": True}, None),
        (
            {"old_string": "stop_stack() {", "new_string": "x"},
            "with another old_string, found once",
        ),
    ],
)
def test_an_edit_whose_text_was_in_the_file_twice_is_fixed_by_what_its_retry_changed(retry, change):
    """`Found 2 matches of the string to replace, but replace_all is false`, then the Edit of
    the file with more of the text around it: the card said only "confirmed: Edit
    manage-stack.sh succeeded", its remedy empty (thirty-seventh held-out set, labelled the
    retry; a new user's try, nu40 finding 10). The retry is the step, with what made it match
    once: a longer old_string, another, or replace_all."""
    path = "/p/manage-stack.sh"
    mine = {"file_path": path, "old_string": "    fi\n}", "new_string": "    fi\n}\n\nx"}
    failed = call("Edit", file_path=path, failed=True, input=json.dumps(mine))
    again = call("Edit", file_path=path, input=json.dumps({"file_path": path, **retry}))
    error = (
        "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. To"
        " replace all occurrences, set replace_all to true. To replace only one occurrence,"
        " please provide more context to uniquely identify the instance.\nString:     fi\n}"
        "</tool_use_error>"
    )
    fix = run([failed, again], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.confirmed_by == again.tool_use_id
    assert steps(fix) == [(again.tool_use_id, change or "with replace_all, every match replaced")]
    assert fixes.inputs_read([failed, again], {failed.tool_use_id: error}) == {"Edit"}


@pytest.mark.parametrize(
    "command, error, answered",
    [
        # a diagnostic whose last grep matched nothing, every section printed (nu40 a04)
        (
            'echo "=== UFW ==="; sudo ufw status; ip addr show | grep "inet 10"',
            "Exit code 1\n=== UFW ===\nStatus: active",
            True,
        ),
        ('rg "\\[[A-Z_]+\\]" .specify/memory/constitution.md', "Exit code 1", True),
        ("which docker brew pipx", "Exit code 1", True),
        (
            "ls .specify/templates/commands",
            "Exit code 1\nls: .specify/templates/commands: No such file or directory",
            True,
        ),
        (
            "rg -n FND-001 requirements specs",
            "Exit code 2\nrg: specs: No such file or directory"
            " (os error 2)\nrequirements/seed.md:3:FND-001",
            True,
        ),
        ("ls specs 2>/dev/null", "Exit code 1", True),
        # what did more than look is no answer: a build, a removal (of a file gone: already
        # so, see test_a_call_to_bring_about_what_already_held_is_already_so)
        ("npm run build", "Exit code 1\nerror TS2322: Type 'string' is not assignable", False),
        ("rm -r build README.md", "Exit code 1\nrm: build: Permission denied", False),
    ],
)
def test_a_look_whose_failure_was_its_answer_is_answered_not_unfixed(command, error, answered):
    """A failed shell look that nothing fixed, whose failure was its answer (a search that
    found nothing, a probe of a program not there, a look at a path not there): `answered`,
    which claims no fix and says the session went on from it, not "not fixed", which a user
    read as a dead end (nu40 finding 6: a diagnostic's last grep, exit 1; over the held-out
    sets 30 to 39, 117 such failures are not a problem by their labels, 15 not)."""
    failed = call(command=command, failed=True)
    then = call("Write", file_path="/p/.specify/memory/constitution.md")
    fix = run([failed, then], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == (fixes.ANSWERED if answered else fixes.NOT_FIXED)
    assert fix.outcome not in fixes.CLAIMS_FIX and fix.others == [then.tool_use_id]
    # a Read of a file not there is as often a guess at a file it needed: not an answer
    read = call("Read", file_path="/p/docs/plan.md", failed=True)
    fix = run([read, then], {read.tool_use_id: "File does not exist."})[read.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


@pytest.mark.parametrize(
    "command, error, answered",
    [
        # nothing printed on either stream, no redirect needed: its status was the answer
        ("lsof -i :3001", "Exit code 1", True),
        ("git config --global credential.helper", "Exit code 1", True),
        ("git config --get user.email", "Error", True),
        (
            "Get-Process POWERPNT,WINWORD -ErrorAction SilentlyContinue | Select-Object Name",
            "Exit code 1",
            True,
        ),
        ('cmd /c findstr /n "^" apps\\api\\preprocess.py', "Exit code 1", True),
        # its other looks printed, the last one's errors thrown away
        (
            "ls /w/api/lib/\nls /w/api/consts/ 2>/dev/null",
            "Exit code 1\nadd-event.ts\nindex.ts",
            True,
        ),
        (
            'Get-ChildItem "src/app/pos" -Name; Get-ChildItem "src/app/order" -Name 2>$null',
            "Exit code 1\nactions.ts\npage.tsx",
            True,
        ),
        # inline code that only reads, its errors thrown away
        (
            'python3 -c "from x.admin import A; print(A.list_filter)" 2>/dev/null',
            "Exit code 1",
            True,
        ),
        (
            "cd /w/app && git log --oneline -5",
            "Exit code 128\nfatal: your current branch 'main' does not have any commits yet",
            True,
        ),
        # an error it printed, errors sent to the output, or not thrown away: no answer
        (
            "ls /w/lib; ls /w/consts 2>/dev/null",
            "Exit code 1\nls: /w/lib: Permission denied",
            False,
        ),
        ('python3 -c "import x; print(x.y)"', "Exit code 1", False),
        ('python3 -c "import x; print(x.y)" 2>&1', "Exit code 1\nx.ts\ny.ts", False),
        # a look the agent's tool would not run (Claude Code's working folders) never ran
        (
            'ls /.dockerenv 2>/dev/null && echo "Docker" || echo "Not in Docker"',
            "<tool_use_error>ls in '/.dockerenv' was blocked. For security, Claude Code may only"
            " list files in the allowed working directories for this session</tool_use_error>",
            False,
        ),
        # setting a value, or one that changes
        ('git config --global user.name "A B"', "Exit code 255", False),
        ("git config --unset credential.helper", "Exit code 5", False),
    ],
)
def test_a_look_that_said_no_word_of_why_it_failed_was_answered(command, error, answered):
    """A shell look whose status was all it said: nothing printed on either stream (`lsof -i
    :3001`, a `git config` key not set), or, with its errors thrown away, only what its
    other looks found (the last `ls` of a folder not there); inline code that only reads
    with its errors thrown away; a `git log` before the first commit. `answered`, not "not
    fixed" (held-out sets 32 to 40: 9 such looks, each not a problem by its label)."""
    failed = call(command=command, failed=True)
    then = call("Read", file_path="/w/app/package.json")
    fix = run([failed, then], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome == (fixes.ANSWERED if answered else fixes.NOT_FIXED)
    # a rejected look's words are no error's either: still the user's "no"
    rejected = call(command=command, failed=True, kind="rejected")
    no = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    fix = run([rejected, then], {rejected.tool_use_id: no})[rejected.tool_use_id]
    assert fix.outcome == fixes.DECLINED


def test_a_call_to_bring_about_what_already_held_is_already_so():
    """A removal of what is gone, a stop of what is not running, a making of what is there,
    a copy onto the file itself, an edit that changes nothing (fixes.ALREADY_SO): "not
    fixed" read as a dead end (nu40 finding 6; thirty-third, thirty-seventh and
    thirty-eighth held-out sets, not a problem by their labels)."""
    gone = "Exit code 1\nrm: README.md: No such file or directory"
    for command, error in (
        ("rm README.md.bak README.md", gone),
        ("pkill -f create-next-app", "Exit code 1"),
        ("killall node", "Exit code 1\nnode: no process found"),
        ("kill 4242", "Exit code 1\nbash: kill: (4242) - No such process"),
        (
            "git rm --cached a.png b.png && git status --short",
            "fatal: pathspec 'a.png' did not match any files",
        ),
        ("mkdir out", "Exit code 1\nmkdir: cannot create directory 'out': File exists"),
        ("git checkout -b feat", "fatal: a branch named 'feat' already exists"),
        ("gt deacon start", "Exit code 1\nError: Deacon session already running."),
        ("cp ~/.dotfiles/x ~/x", "cp: '/h/.dotfiles/x' and '/h/x' are the same file"),
        ("git add a && git commit -m x", "Exit code 1\nnothing to commit, working tree clean"),
    ):
        failed = call(command=command, failed=True)
        went_on = call(command="npm run build")
        fix = run([failed, went_on], {failed.tool_use_id: error})[failed.tool_use_id]
        assert fix.outcome == fixes.ALREADY_SO, command
    noop = call("Edit", file_path="/p/home.nix", failed=True)
    same = "No changes to make: old_string and new_string are exactly the same."
    assert run([noop], {noop.tool_use_id: same})[noop.tool_use_id].outcome == fixes.ALREADY_SO
    # the same edit put right after it: fixed, as before
    right = call("Edit", file_path="/p/home.nix")
    fix = run([noop, right], {noop.tool_use_id: same})[noop.tool_use_id]
    assert fix.outcome == fixes.FIXED
    # a second rm of what the first took, gone too: neither was a problem
    first = call(command="rm README.md.bak README.md", failed=True)
    second = call(command="rm README.md.bak", failed=True)
    errors = {first.tool_use_id: gone, second.tool_use_id: gone.replace("md:", "md.bak:")}
    found = run([first, second], errors)
    assert [found[c.tool_use_id].outcome for c in (first, second)] == [fixes.ALREADY_SO] * 2


def test_what_held_redone_or_undone_is_not_already_so():
    """A call whose state held is no "already so" when the session redid it (a retry that
    met another error: a commit's, see test_a_commit_with_nothing_to_commit_then_a_chain_
    that_stopped_before_its_commit), undid what held (`rm -rf out` after `mkdir out`: the
    folder there was not the one wanted), or when what came after it in its chain never ran
    (`mkdir out && cp ...`)."""
    exists = "Exit code 1\nmkdir: cannot create directory 'out': File exists"
    failed = call(command="mkdir out", failed=True)
    undo = call(command="rm -rf out")
    assert run([failed, undo], {failed.tool_use_id: exists})[failed.tool_use_id].outcome == (
        fixes.NOT_FIXED
    )
    chained = call(command="mkdir out && cp a.txt out/", failed=True)
    outcome = run([chained], {chained.tool_use_id: exists})[chained.tool_use_id].outcome
    assert outcome == fixes.NOT_FIXED
    # the error of a look after the removal, not the removal's
    look = call(command="rm -i x; ls x", failed=True)
    said = "Exit code 2\nls: cannot access 'x': No such file or directory"
    assert run([look], {look.tool_use_id: said})[look.tool_use_id].outcome == fixes.NOT_FIXED


def test_an_edit_whose_text_a_look_after_showed_in_the_file_is_already_so():
    """An edit that could not apply to the file as it was (its text not found, the file
    changed since read, not read yet), whose text a look at the file soon after showed there
    already, had nothing to do (fixes._shown_made): another writer had made the change
    (thirty-third, thirty-fifth and thirty-eighth held-out sets, 7 not a problem stored
    "not fixed")."""

    def edit(old, new, kind="not_read", path="/p/src/a.test.ts"):
        text = json.dumps({"file_path": path, "old_string": old, "new_string": new})
        return call("Edit", file_path=path, failed=True, kind=kind, input=text)

    changed = "File has been modified since read, either by the user or by a linter."
    old, new = "import { a } from './a';", "import { a, token } from './a';"
    shown = f"// tests\n{new}\nimport {{ b }} from './b';\n"
    for look, printed in (
        (call(command="head -30 /p/src/a.test.ts"), shown),
        (call("Read", file_path="/p/src/a.test.ts"), "     1\t// tests\n     2\t" + new),
        (call(command="grep -n token /p/src/a.test.ts"), f"2:{new}"),
    ):
        failed = edit(old, new)
        found = run([failed, look], {failed.tool_use_id: changed}, {look.tool_use_id: printed})
        assert found[failed.tool_use_id].outcome == fixes.ALREADY_SO, look.command
    # an insertion after a line: the file shows the line and what it was to add after it
    bind = "bind = SUPER, Print, exec, shot"
    failed = edit(bind, f"{bind}\nbind = ALT SHIFT, 4, exec, region", path="/h/binds.conf")
    read = call("Read", file_path="/h/binds.conf")
    printed = f"1\t{bind}\n2\tbind = ALT SHIFT, 4, exec, region\n"
    found = run([failed, read], {failed.tool_use_id: changed}, {read.tool_use_id: printed})
    assert found[failed.tool_use_id].outcome == fixes.ALREADY_SO
    # a Write of a file not read that held that text already
    content = '/// <reference types="vite/client" />\n'
    write = call(
        "Write",
        file_path="/p/src/env.d.ts",
        failed=True,
        kind="not_read",
        input=json.dumps({"file_path": "/p/src/env.d.ts", "content": content}),
    )
    read = call("Read", file_path="/p/src/env.d.ts")
    errors = {write.tool_use_id: "File has not been read yet. Read it first before writing to it."}
    found = run([write, read], errors, {read.tool_use_id: "1\t" + content})
    assert found[write.tool_use_id].outcome == fixes.ALREADY_SO
    # a Codex patch whose lines were taken out already: the file shows the hunk without them
    patch = (
        "*** Begin Patch\n*** Update File: /w/coaching.py\n@@\n"
        "     cfg = Config(\n         enabled=True,\n-        device=config.device,\n"
        "         temperature=config.temperature,\n     )\n*** End Patch\n"
    )
    applied = call(
        "apply_patch",
        file_path="/w/coaching.py",
        failed=True,
        kind="string_not_found",
        input=json.dumps({"input": patch}),
    )
    look = call("exec_command", command="sed -n '20,30p' /w/coaching.py")
    after = (
        "    cfg = Config(\n        enabled=True,\n        temperature=config.temperature,\n    )\n"
    )
    errors = {applied.tool_use_id: "apply_patch verification failed: Failed to find expected lines"}
    found = run([applied, look], errors, {look.tool_use_id: after})
    assert found[applied.tool_use_id].outcome == fixes.ALREADY_SO


def test_the_build_reads_the_input_of_an_edit_its_look_after_may_show_made(tmp_path):
    """The build loads no edit's input unless a rule asks for its tool's (inputs_read): the
    texts of a failed edit that could not apply are read by its id (session_fixes'
    input_of), so that a look after it shows them made (fixes._shown_made)."""
    conn = db.connect(tmp_path / "index.db")
    path = "/p/src/env.d.ts"
    content = '/// <reference types="vite/client" />\n'
    written = json.dumps({"file_path": path, "content": content})
    refused = "File has not been read yet. Read it first before writing to it."
    store_call(conn, 1, "w1", "Write", written, refused, "not_read", file_path=path)
    store_call(
        conn, 2, "r1", "Read", json.dumps({"file_path": path}), "1\t" + content, file_path=path
    )
    db.refresh_fixes(conn)
    (outcome,) = conn.execute("SELECT outcome FROM fixes WHERE tool_use_id = 'w1'").fetchone()
    assert outcome == fixes.ALREADY_SO


def test_an_edit_a_look_after_did_not_show_made_is_not_already_so():
    """Not when the look shows the text it was to replace still there (an edit of a part of
    a longer line), only some of what it was to write, another file, or when the file was
    edited after it."""

    def edit(old, new, path="/p/a.py"):
        text = json.dumps({"file_path": path, "old_string": old, "new_string": new})
        return call("Edit", file_path=path, failed=True, kind="string_not_found", input=text)

    missing = "String to replace not found in file."
    # a deletion whose result is in the line that still holds what it was to take out
    failed = edit("from x import a, b, c", "from x import a, b")
    look = call(command="sed -n '1,5p' /p/a.py")
    printed = {look.tool_use_id: "from x import a, b, c\n"}
    found = run([failed, look], {failed.tool_use_id: missing}, printed)
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    failed = edit("timeout = 10\nretries = 1", "timeout = 30\nretries = 5")
    for look, text in (
        (call("Read", file_path="/p/a.py"), "1\ttimeout = 30\n2\tretries = 1\n"),
        (call(command="cat /p/b.py"), "timeout = 30\nretries = 5\n"),
    ):
        found = run([failed, look], {failed.tool_use_id: missing}, {look.tool_use_id: text})
        assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED, look
    read = call("Read", file_path="/p/a.py")
    redo = call("Edit", file_path="/p/a.py")
    shown = {read.tool_use_id: "1\ttimeout = 30\n2\tretries = 5\n"}
    found = run([failed, read, redo], {failed.tool_use_id: missing}, shown)
    assert found[failed.tool_use_id].outcome != fixes.ALREADY_SO


_PLAN_REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if"
    " it was a file edit, the new_string was NOT written to the file). "
)


def test_a_plan_approved_with_clear_context_was_no_rejection():
    """Claude Code records "clear context and implement" as a rejected ExitPlanMode, and a
    new session's first prompt is `Implement the following plan:` and that plan (fortieth
    held-out set): the plan was approved, and it is the retry that fixed the plans the user
    rejected before it, each with what to change. A prompt that implements another plan,
    or pastes this one after other words, approves nothing."""
    plan = "# Plan: typing animation\n\n## Context\nthree lines,   one per role\n"
    prompt = f"Implement the following plan:\n\n{plan.replace('   ', ' ')}\n\nIf you need..."
    assert fixes.approved_plan(json.dumps({"plan": plan}), prompt)
    assert not fixes.approved_plan(json.dumps({"plan": plan}), f"Please look at this:\n{plan}")
    other = "Implement the following plan:\n\n# Plan: typing animation\n\n## Context\nswap"
    assert not fixes.approved_plan(json.dumps({"plan": plan}), other)
    assert not fixes.approved_plan(json.dumps({"plan": ""}), "Implement the following plan:\n")

    said = _PLAN_REJECTED + "To tell you how to proceed, the user said:\nsplit it into three"
    first = call("ExitPlanMode", input=json.dumps({"plan": "# Plan: typing\none"}), failed=True,
                 kind="rejected")  # fmt: skip
    edit = call("Edit", file_path="/home/me/.claude/plans/x.md")
    last = call("ExitPlanMode", input=json.dumps({"plan": plan}), failed=True, kind="rejected")
    stop = _PLAN_REJECTED + "STOP what you are doing and wait for the user to tell you how"
    errors = {first.tool_use_id: said, last.tool_use_id: stop}
    found = {
        f.tool_use_id: f
        for f in fixes.session_fixes(
            [first, edit, last],
            [],
            errors,
            lambda _: "",
            signatures.key_line,
            signatures.signature,
            approved={last.tool_use_id},
        )
    }
    assert found[last.tool_use_id].outcome == fixes.APPROVED
    fix = found[first.tool_use_id]
    assert (fix.outcome, fix.confirmed_by, steps(fix)) == (
        fixes.FIXED,
        last.tool_use_id,
        [(edit.tool_use_id, None)],
    )
    # not approved: the last rejection confirms nothing
    assert run([first, edit, last], errors)[first.tool_use_id].outcome == fixes.DECLINED


def test_a_session_that_approves_a_plan_changes_the_earlier_sessions_fixes(tmp_path, monkeypatch):
    """The session that implements a plan approved with "clear context" begins after the
    session that rejected it was indexed: the next build recomputes that session's fixes
    (db._approved_from), as a build of both at once computes them, in one process or in
    two, each half computing its own sessions' fixes (pastfix.shard: recomputed)."""
    from jsonl import prompt, result, tool_use, write_jsonl

    plan = "# Plan: typing animation\n\n## Context\nthree lines, one per role"
    old, new = "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"

    def rejected(uuid, tool_id, text, ts):
        line = result(uuid, old, tool_id, _PLAN_REJECTED + text, ts, is_error=True)
        line["toolUseResult"] = "User rejected tool use"
        return line

    first = {"plan": "# Plan: typing animation\n\none line"}
    edit = {"file_path": "/home/me/.claude/plans/x.md", "old_string": "one", "new_string": plan}
    lines = [
        prompt("p1", old, "plan the typing animation", "2026-03-06T01:28:31.000Z"),
        tool_use("u1", old, "toolu_first", "ExitPlanMode", first, "2026-03-06T01:30:00.000Z"),
        rejected("r1", "toolu_first", "the user said:\nthree lines", "2026-03-06T01:31:00.000Z"),
        tool_use("u2", old, "toolu_edit", "Edit", edit, "2026-03-06T01:32:00.000Z"),
        result("r2", old, "toolu_edit", "ok", "2026-03-06T01:32:01.000Z"),
        tool_use(
            "u3", old, "toolu_last", "ExitPlanMode", {"plan": plan}, "2026-03-06T01:40:00.000Z"
        ),
        rejected("r3", "toolu_last", "STOP what you are doing", "2026-03-06T01:43:03.361Z"),
    ]
    projects = tmp_path / "projects" / "-home-me-site"
    write_jsonl(projects / f"{old}.jsonl", lines)
    index = tmp_path / "index.db"
    pbuild.build(index, [tmp_path / "projects"])

    def outcomes():
        conn = sqlite3.connect(index)
        found = dict(conn.execute("SELECT tool_use_id, outcome FROM fixes").fetchall())
        conn.close()
        return found

    assert outcomes() == {"toolu_first": fixes.DECLINED, "toolu_last": fixes.DECLINED}
    implement = f"Implement the following plan:\n\n{plan}\n"
    write_jsonl(
        projects / f"{new}.jsonl",
        [prompt("p2", new, implement, "2026-03-06T01:43:03.360Z")],
    )
    pbuild.build(index, [tmp_path / "projects"])
    approved = {"toolu_first": fixes.FIXED, "toolu_last": fixes.APPROVED}
    assert outcomes() == approved
    index.unlink()
    pbuild.build(index, [tmp_path / "projects"])
    assert outcomes() == approved
    index.unlink()
    monkeypatch.setattr(pbuild, "PARALLEL_MIN_BYTES", 0)
    assert pbuild.build(index, [tmp_path / "projects"]).processes == 2
    assert outcomes() == approved


def test_a_ci_workflow_or_a_script_the_run_never_ran_is_no_step_of_its_fix():
    """A CLI subcommand not there (`kira test`: `invalid choice: 'test'`), then the agent's
    method, the parser's subcommand, a CI job for it and a new release script, then the run
    again, passing: the CI job runs on a push and the script on its own, and neither the
    run nor its error names them, so they are no steps (thirty-sixth held-out set, the
    label names the three edits of the code run). A failure of CI, or a script the run
    names, keeps them."""
    error = "prime kira: error: argument action: invalid choice: 'test' (choose from 'seal')"
    failed = call("shell", command="python3 vesselos.py kira test --help", failed=True)
    agent = call("apply_patch", file_path="app/agents/kira/kira_agent.py")
    parser = call("apply_patch", file_path="app/cli/prime.py")
    ci = call("apply_patch", file_path="app/.github/workflows/ci.yml")
    script = call("apply_patch", file_path="app/scripts/generate_release_docs.py")
    look = call("shell", command="sed -n '1,160p' app/.github/workflows/ci.yml")
    doc = call("apply_patch", file_path="app/docs/ARCHITECTURE.md")
    retry = call("shell", command="python3 vesselos.py kira test")
    calls = [failed, agent, parser, look, ci, script, doc, retry]
    fix = run(calls, {failed.tool_use_id: f"Exit code 2\n{error}"})[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert steps(fix) == [(agent.tool_use_id, None), (parser.tool_use_id, None)]

    act = call("shell", command="act -j test", failed=True)
    again = call("shell", command="act -j test")
    fix = run([act, ci, again], {act.tool_use_id: "Error: Job 'test' failed"})[act.tool_use_id]
    assert steps(fix) == [(ci.tool_use_id, None)]
    gen = call("shell", command="python3 scripts/generate_release_docs.py --tag v1", failed=True)
    rerun = call("shell", command="python3 scripts/generate_release_docs.py --tag v1")
    failure = {gen.tool_use_id: "Traceback ...\nKeyError: 'version'"}
    assert steps(run([gen, script, rerun], failure)[gen.tool_use_id]) == [
        (script.tool_use_id, None)
    ]


def test_a_look_the_shell_did_not_run_is_worked_around_by_a_look_by_full_path():
    """After `git worktree remove` took away the shell's folder, `git worktree list` (and
    `cd repo && git worktree list`) exited 1 printing nothing, which git never does when it
    runs; `/bin/ls -la` of the folder above ran and showed whether the worktree was gone:
    worked around (thirty-ninth held-out set), though `git worktree list`, run again after
    the folder's `rm -rf`, still failed: a check of that, not of the listing. A look by
    full path elsewhere, or by its plain name, is none; nor is a silent grep's exit 1."""
    silent = "Exit code 1"
    repo = "/Users/me/project/webtech-monorepo"
    failed = call(command=f"cd {repo} && git worktree list", failed=True)
    plain = call(command="ls -la /Users/me/project/", failed=True)
    elsewhere = call(command="/bin/ls -la /tmp/other/")
    listing = call(command="/bin/ls -la /Users/me/project/")
    removed = call(command="rm -rf /Users/me/project/fix-user-access-device")
    again = call(command=f"cd {repo} && git worktree list", failed=True)
    errors = {c.tool_use_id: silent for c in (failed, plain, again)}
    fix = run([failed, plain, elsewhere, listing, removed, again], errors)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, listing.tool_use_id)
    outcome = run([failed, plain, elsewhere], errors)[failed.tool_use_id].outcome
    assert outcome not in fixes.CLAIMS_FIX
    grep = call(command="cd /Users/me/project && grep -rn worktree notes.md", failed=True)
    fix = run([grep, listing], {grep.tool_use_id: silent})[grep.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX


def test_rejections_that_ask_for_other_changes_each_have_their_own_steps():
    """A plan rejected for one change ("three lines"), its file edited, rejected again for
    another ("add PyTorch"), edited, then accepted: each rejection's steps are the edits made
    for it (fortieth held-out set). A second rejection that says more of the same change
    (`I dont use btop set that as super shift alt t instead`, then `super shift alt t should
    open btop`) is the same obstacle: the edits after it are the first one's steps too."""

    def plan(text, **kw):
        return call("ExitPlanMode", input=json.dumps({"plan": f"# Plan: site\n{text}"}), **kw)

    def said(words):
        return f"{_PLAN_REJECTED}To tell you how to proceed, the user said:\n{words}"

    first = plan("one line", failed=True, kind="rejected")
    lines = call("Edit", file_path="/home/me/.claude/plans/x.md")
    second = plan("three lines", failed=True, kind="rejected")
    torch = call("Edit", file_path="/home/me/.claude/plans/x.md")
    accepted = plan("three lines, pytorch")
    errors = {
        first.tool_use_id: said("split the roles into three lines of typing animation"),
        second.tool_use_id: said("add pytorch under python in the skills"),
    }
    found = run([first, lines, second, torch, accepted], errors)
    assert [steps(found[c.tool_use_id]) for c in (first, second)] == [
        [(lines.tool_use_id, None)],
        [(torch.tool_use_id, None)],
    ]
    errors[first.tool_use_id] = said("I dont use btop set that as super shift alt t instead")
    errors[second.tool_use_id] = said("super shift alt t should open btop")
    found = run([first, lines, second, torch, accepted], errors)
    assert steps(found[first.tool_use_id]) == [(torch.tool_use_id, None)]


def test_a_file_tool_made_again_on_the_same_name_at_another_path_is_fixed():
    """The same tool on the same file name at a corrected path is the failed call made again,
    changed: fixed by the labels' definition (nu44 finding 8: an Edit of a typed
    `~/.claire/settings.json`, Codex's apply_patch without the repository's folder, a Read
    from the wrong root, 23 labelled fixed over real + sets 30-40, shown "worked around").
    Another file, or another tool on it, is still another way."""
    error = "<tool_use_error>File does not exist.</tool_use_error>"
    typo = call("Edit", file_path="/home/u/.claire/settings.json", failed=True)
    edit = call("Edit", file_path="/home/u/.claude/settings.json")
    fix = run([typo, edit], {typo.tool_use_id: error})[typo.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, edit.tool_use_id)
    read = call("Read", file_path="/home/u/packages/api/loader.go", failed=True)
    look = call(command="find /home/u -name loader.go")
    again = call("Read", file_path="/home/u/work/app/packages/api/loader.go")
    fix = run([read, look, again], {read.tool_use_id: error})[read.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    # another file of the folder a listing showed: another way still
    guessed = call("Read", file_path="/p/script/core_parser.py", failed=True)
    listing = call(command="ls /p/parser")
    other = call("Read", file_path="/p/parser/core_parser.cpp")
    outputs = {listing.tool_use_id: "core_parser.cpp\nheap.cpp\n"}
    found = run([guessed, listing, other], {guessed.tool_use_id: error}, outputs)
    assert found[guessed.tool_use_id].outcome == fixes.WORKED_AROUND


def test_a_file_tools_look_for_an_optional_file_not_there_is_answered():
    """A Read of a hidden file (`.env`, `~/.bash_profile`) or of the agent's memory index not
    there, or of a file the agent then wrote itself, only asked whether it was there, as the
    shell's `cat .env` does: 'answered' (nu44 finding 2). A guessed name of a file it needed,
    never found, stays not fixed (thirty-ninth held-out set: `configs/prompt.sh`, abandoned)."""
    error = "<tool_use_error>File does not exist.</tool_use_error>"
    for path in (
        "/home/rj/app/.env.local",
        "/Users/p/.bash_profile",
        "/Users/p/.claude/projects/-Users-p-site/memory/MEMORY.md",
    ):
        read = call("Read", file_path=path, failed=True)
        other = call("Read", file_path="/home/rj/app/package.json")
        fix = run([read, other], {read.tool_use_id: error})[read.tool_use_id]
        assert fix.outcome == fixes.ANSWERED, path
    readme = call("Read", file_path="/w/README.md", failed=True)
    written = call("Write", file_path="/w/README.md")
    fix = run([readme, written], {readme.tool_use_id: error})[readme.tool_use_id]
    assert fix.outcome == fixes.ANSWERED
    guessed = call("Read", file_path="/Users/p/dotfiles/configs/prompt.sh", failed=True)
    other = call("Read", file_path="/Users/p/dotfiles/configs/aliases.sh")
    fix = run([guessed, other], {guessed.tool_use_id: error})[guessed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED
    # a file written long after, the session's other work between, was no look before writing
    late = call("Read", file_path="/w/memory/migration.md", failed=True)
    work = [call(command=f"grep -n x src/{n}.kt") for n in range(fixes.NEARBY_CALLS)]
    wrote = call("Write", file_path="/w/memory/migration.md")
    fix = run([late, *work, wrote], {late.tool_use_id: error})[late.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_rejected_call_nothing_made_again_is_the_users_no():
    """A call the user rejected never ran: nothing redoing it, it is 'declined', not 'not
    fixed' ("fixed: no" read as an error left open: nu44 finding 2, 19 rejections labelled
    not a problem). Redone, it is fixed as before; a command the user stopped while it ran
    (it may have hung) stays not fixed."""
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected"
    prompts = ["2026-01-01T00:00:30Z"]
    edit = call(
        "Edit", file_path="/d/theme.kdl", failed=True, kind="rejected", at="2026-01-01T00:00:20Z"
    )
    other = call(command="cat /d/keys.kdl", at="2026-01-01T00:00:40Z")
    found = run([edit, other], {edit.tool_use_id: rejected}, prompts=prompts)
    assert found[edit.tool_use_id].outcome == fixes.DECLINED
    look = call(
        command="docker network ls", failed=True, kind="rejected", at="2026-01-01T00:00:21Z"
    )
    same = call(command="docker network ls", at="2026-01-01T00:00:41Z")
    fix = run([look, same], {look.tool_use_id: rejected})[look.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, same.tool_use_id)
    stopped = "Exit code 137\n[Request interrupted by user for tool use]"
    build = call(
        command="npm run build", failed=True, kind="interrupted", at="2026-01-01T00:00:22Z"
    )
    later = call(command="git status", at="2026-01-01T00:00:42Z")
    fix = run([build, later], {build.tool_use_id: stopped}, prompts=prompts)[build.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_rejection_is_fixed_by_doing_what_the_users_words_named():
    """A call the user rejected with words that name what to do instead: a command they
    quoted, run (`Use command "yarn test_webdb --grep=..."`, then that run, failing on the
    test it ran: it got past the "no"), is fixed; a name they gave, acted on (`Should we
    reuse BudgetSyncType?`, then an edit using it), or the rejected edit's file put back
    when they said to revert, is worked around (nu49's held-out set: 3 stored declined,
    labelled fixed, worked around, worked around). Words that name nothing, a look at what
    they named, a name the rejected call held itself, stay declined, as does an earlier
    failure whose retry they rejected."""
    from pastfix import transcripts

    def said(words):
        return transcripts.REJECTED_SAID + words

    test = call(
        command="cd /w/lib && yarn test Parser --grep 'clears'", failed=True, kind="rejected"
    )
    webdb = call(command="cd /w/lib && yarn test_webdb --grep='clears goal'", failed=True)
    errors = {
        test.tool_use_id: said('Use command "yarn test_webdb --grep="My test"" with its name'),
        webdb.tool_use_id: "Exit code 1\n  1 failing\n  AssertionError: expected 0 to equal 1",
    }
    fix = run([test, webdb], errors)[test.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, webdb.tool_use_id)
    # words that name nothing: the next run is no redo of the rejected one
    errors[test.tool_use_id] = said("I made db change.  Try running test again")
    assert run([test, webdb], errors)[test.tool_use_id].outcome == fixes.DECLINED

    edit = call(
        "Edit", file_path="/w/lib/app/viewModels/MonthViewModel.ts", failed=True, kind="rejected"
    )
    diff = call(command="git diff lib/app/viewModels/MonthViewModel.ts")
    back = call(command="git checkout lib/app/viewModels/MonthViewModel.ts")
    words = "I don't want changes to the ViewModel files.  Let's revert changes to those files."
    found = run([edit, diff, back], {edit.tool_use_id: said(words)})
    fix = found[edit.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, back.tool_use_id)
    # a failure before it whose retry the user rejected so: theirs, not its way through
    unread = call(
        "Edit", file_path="/w/lib/app/viewModels/MonthViewModel.ts", failed=True, kind="not_read"
    )
    read = call("Read", file_path="/w/lib/app/viewModels/MonthViewModel.ts")
    errors = {
        unread.tool_use_id: "<tool_use_error>File has not been read yet.</tool_use_error>",
        edit.tool_use_id: said(words),
    }
    found = run([unread, read, edit, diff, back], errors)
    assert found[unread.tool_use_id].outcome == fixes.NOT_FIXED

    write = call(
        "Write",
        file_path="/w/lib/constants/BackfillState.ts",
        failed=True,
        kind="rejected",
        input=json.dumps({"content": "export enum BackfillState {}"}),
    )
    enum = call(
        "Write",
        file_path="/w/lib/constants/InitialLoadState.ts",
        input=json.dumps({"content": "export enum InitialLoadState {}"}),
    )
    uses = call(
        "Edit",
        file_path="/w/lib/managers/SyncManager.ts",
        input=json.dumps({"old_string": "x", "new_string": "BudgetSyncType.Bootstrap"}),
    )
    errors = {write.tool_use_id: said("Should we reuse BudgetSyncType?  Maybe a map of them?")}
    fix = run([write, enum, uses], errors)[write.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.WORKED_AROUND, uses.tool_use_id)
    assert steps(fix)[0] == (enum.tool_use_id, None)
    # a name the rejected call held is what was rejected; a look at a name acts on nothing
    errors = {write.tool_use_id: said("Why BackfillState? Read /w/lib/managers/SyncManager.ts")}
    look = call("Read", file_path="/w/lib/managers/SyncManager.ts")
    other = call(
        "Edit",
        file_path="/w/lib/managers/Other.ts",
        input=json.dumps({"old_string": "x", "new_string": "BackfillState.Done"}),
    )
    assert run([write, look, other], errors)[write.tool_use_id].outcome == fixes.DECLINED
    # a question rejected to clarify: Claude Code's words quote it with the answers given,
    # which the plan then used, a talk with the user, no fix
    ask = call("AskUserQuestion", failed=True, kind="rejected", input='{"questions": []}')
    plan = call("Write", file_path="/p/plan.md", input='{"content": "PostgreSQL + docker"}')
    clarify = (
        'The user wants to clarify these questions.\n- "Which database?"\n  Answer: PostgreSQL'
    )
    errors = {ask.tool_use_id: said(clarify)}
    assert run([ask, plan], errors)[ask.tool_use_id].outcome == fixes.DECLINED


def test_a_look_cancelled_beside_a_failed_call_and_not_run_again_is_cancelled():
    """A look Claude Code cancelled because a call sent beside it failed never ran: nothing
    running it again, it is 'cancelled', not 'not fixed' (real + sets 30-40: 4 such, not a
    problem; a Read of a guessed template beside another, a `pacman -Qs` beside a `which`).
    Run again, it is fixed as before; a cancelled edit not made again stays not fixed (work
    that may be left undone)."""
    sibling = "<tool_use_error>Sibling tool call errored</tool_use_error>"
    parallel = (
        "<tool_use_error>Cancelled: parallel tool call Bash(which teams teams-for-linux)"
        " errored</tool_use_error>"
    )
    which = call(command="which teams teams-for-linux", failed=True)
    pacman = call(command="pacman -Qs teams 2>&1", failed=True, kind="sibling_error")
    read = call("Read", file_path="/p/lib/a_live.html.heex", failed=True, kind="sibling_error")
    then = call("Read", file_path="/p/lib/a_live.ex")
    errors = {
        which.tool_use_id: "Exit code 1\nteams not found",
        pacman.tool_use_id: parallel,
        read.tool_use_id: sibling,
    }
    found = run([which, pacman, read, then], errors)
    assert found[pacman.tool_use_id].outcome == fixes.CANCELLED
    assert found[read.tool_use_id].outcome == fixes.CANCELLED
    assert fixes.CANCELLED not in fixes.CLAIMS_FIX
    again = call(command="pacman -Qs teams 2>&1")
    fix = run([which, pacman, again], errors)[pacman.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, again.tool_use_id)
    edit = call("Edit", file_path="/p/lib/a.ex", failed=True, kind="sibling_error")
    fix = run([which, edit, then], {**errors, edit.tool_use_id: sibling})[edit.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_powershell_pipeline_rewritten_as_a_loop_over_a_variable():
    """`(Get-Content -Raw x) -split ... | Select-Object -Index 130..260` could not bind its
    range; `$lines = (Get-Content -Raw x) -split ...; for (...) { $lines[$i] }` read the same
    file again and printed the lines: the variable and the group's parentheses are not the
    program (thirty-fifth held-out set, fixed; a new user's trial nu47 finding 1). The same
    loop over another file is no retry."""
    failed = call(
        name="shell",
        command="pwsh -NoProfile -Command '($c = Get-Content -Raw frontend/main.js) -split"
        ' "\\r?\\n" | Select-Object -Index 130..260 | Out-String\'',
        failed=True,
    )
    error = (
        "Exit code 1\nSelect-Object: Cannot bind parameter 'Index'. Cannot convert value"
        ' "130..260" to type "System.Int32".'
    )
    loop = "for ($i=130; $i -le 260 -and $i -lt $lines.Length; $i++) { $lines[$i] }"
    other = call(
        name="shell",
        command=f"pwsh -NoProfile -Command '$lines = (Get-Content -Raw src/app.rs) -split"
        f' "\\r?\\n"; {loop}\'',
    )
    outputs = {other.tool_use_id: "fn main() {"}
    found = run([failed, other], {failed.tool_use_id: error}, outputs)
    assert found[failed.tool_use_id].outcome == fixes.NOT_FIXED
    retry = call(
        name="shell",
        command=f"pwsh -NoProfile -Command '$lines = (Get-Content -Raw frontend/main.js) -split"
        f' "\\r?\\n"; {loop}\'',
    )
    outputs[retry.tool_use_id] = "const app = init();"
    fix = run([failed, other, retry], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert [i.program for i in fixes.intents("(cd web && make test)")] == ["make"]
    assert fixes.intents("pwsh -c '$x=(Get-Content a.txt)'")[0].args == {"a.txt"}


def test_a_commit_with_nothing_to_commit_then_a_chain_that_stopped_before_its_commit():
    """`git add docs/prd.json && git commit` said `no changes added to commit` (the change
    was committed already); `git add api && git add docs/prd.json && git commit` then failed
    at its first `git add`: its commit never ran, so redid nothing, and `git status` showed
    the tree clean: already so (thirty-fifth held-out set, not a problem; a new user's trial
    nu47 finding 2). When that chain's commit ran and failed otherwise, it was redone."""
    failed = call(command="git add docs/prd.json && git commit -m 'Mark US-9 done'", failed=True)
    error = (
        "Exit code 1\nOn branch master\nChanges not staged for commit:\n"
        "\tmodified:   .claude.json\n"
        'no changes added to commit (use "git add" and/or "git commit -a")'
    )
    chain = "git add api && git add docs/prd.json && git commit -m 'Mark US-9 done'"
    short = call(command=chain, failed=True)
    status = call(command="git status docs/prd.json")
    errors = {
        failed.tool_use_id: error,
        short.tool_use_id: "Exit code 128\nfatal: pathspec 'api' did not match any files",
    }
    outputs = {status.tool_use_id: "On branch master\nnothing to commit, working tree clean"}
    fix = run([failed, short, status], errors, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.ALREADY_SO
    ran = call(command="git add docs/prd.json && git commit -m 'Mark US-9 done'", failed=True)
    errors[ran.tool_use_id] = "Exit code 1\nerror: gpg failed to sign the data"
    fix = run([failed, ran, status], errors, outputs)[failed.tool_use_id]
    assert fix.outcome == fixes.NOT_FIXED


def test_a_filter_powershell_could_not_bind_redone_by_expressions_over_a_variable():
    """`Get-Content x | Select-Object -Index 90..110` (a range Select-Object could not bind),
    then `$lines = Get-Content x; $lines[94..108]`: the file kept in a variable and the lines
    selected by PowerShell's own expression, not the command before the filter alone
    (thirty-seventh held-out set, fixed). A rewrite of a look whose expressions PowerShell
    could not run is its retry too (`$lines = Get-Content README.md; $start = ($lines |
    ...).LineNumber; ...`, then the same with `$idx`: thirty-fifth, fixed)."""
    path = "'Script\\Blueprint\\BaseMons.lua'"
    failed = call(
        name="shell_command",
        command=f"Get-Content -LiteralPath {path} | Select-Object -Index 90..110",
        failed=True,
    )
    error = (
        "Exit code 1\nSelect-Object : Cannot bind parameter 'Index'. Cannot convert value"
        ' "90..110" to type "System.Int32".'
    )
    retry = call(
        name="shell_command", command=f"$lines = Get-Content -LiteralPath {path}; $lines[94..108]"
    )
    outputs = {retry.tool_use_id: "local BaseMons = {}"}
    fix = run([failed, retry], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert fix.remedy[0].change == "then $lines[94..108]"
    section = "($lines | Select-String -Pattern '^## Start$' | Select-Object -First 1).LineNumber"
    failed = call(
        name="shell",
        command=f"pwsh -Command '$lines = Get-Content README.md; $start = {section};"
        " $lines[$start-1..($start+20)] | ForEach-Object { $_ }'",
        failed=True,
    )
    error = "InvalidOperation: Method invocation failed because [System.Object[]] does not"
    retry = call(
        name="shell",
        command=f"pwsh -Command '$lines = Get-Content README.md; $idx = {section};"
        " if ($idx) { $from=[Math]::Max(0,$idx-1); $lines[$from..($idx+20)] }'",
    )
    outputs = {retry.tool_use_id: "## Start\nnpm install"}
    fix = run([failed, retry], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)


def test_a_script_read_into_a_variable_and_run_then_encoded_shows_its_change():
    """`$code = Get-Content x.ps1 -Raw; & powershell.exe -Command $code` mangled the script's
    quotes; the same script encoded and run by `-EncodedCommand` fixed it. The retry shares
    with it only the look that read the script (the variable is no program): its change is
    still told, not "ran again as it was" (thirty-eighth held-out set)."""
    read = "$code = Get-Content 'C:\\aaa\\repro.ps1' -Raw"
    shell = "& 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' -NoProfile"
    failed = call(name="PowerShell", command=f"{read}\n{shell} -Command $code", failed=True)
    error = "Get-Process : A positional parameter cannot be found that accepts argument 'Is64Bit'."
    encode = "$enc = [Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes($code))"
    retry = call(name="PowerShell", command=f"{read}\n{encode}\n{shell} -EncodedCommand $enc")
    outputs = {retry.tool_use_id: "Is64Bit: False"}
    fix = run([failed, retry], {failed.tool_use_id: error}, outputs)[failed.tool_use_id]
    assert (fix.outcome, fix.confirmed_by) == (fixes.FIXED, retry.tool_use_id)
    assert fix.remedy and fix.remedy[0].change


@pytest.mark.parametrize(
    ("failed", "error", "look"),
    [
        (
            call(command="cat .claude/settings.json", failed=True),
            "Exit code 1\ncat: .claude/settings.json: No such file or directory",
            call(command="cat ~/.claude/settings.json"),
        ),
        (
            call(command="cat .claude/settings.json", failed=True),
            "Exit code 1\ncat: .claude/settings.json: No such file or directory",
            call(command="ls -la ~/.claude/settings.json"),
        ),
        (
            call("Read", file_path="/home/me/app/.npmrc", failed=True),
            "<tool_use_error>File does not exist.</tool_use_error>",
            call("Read", file_path="/home/me/.npmrc"),
        ),
        (
            call(command="stat /Users/me/.config/app/settings.json", failed=True),
            "Exit code 1\nstat: /Users/me/.config/app/settings.json: No such file or directory",
            call(command="stat /Users/me/work/app/.config/app/settings.json"),
        ),
    ],
)
def test_a_look_at_another_file_of_the_same_name_is_no_fix(failed, error, look):
    """`ls ~/.claude/settings.json` after `cat .claude/settings.json` found no such file
    was its fix (`-.claude/settings.json +~/.claude/settings.json`), or its way round: the
    user's settings are another file than the project's (a new user's try, ans41 finding
    4). What the failed look found, that the file is not there, was its answer."""
    fix = run([failed, look], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome not in fixes.CLAIMS_FIX
    assert (fix.confirmed_by, fix.remedy) == (None, [])


def test_a_file_read_where_it_is_in_the_project_is_still_the_fix():
    """A file looked for in the wrong folder and read where it is: the same name in another
    folder of the project, not the home folder's, is the file meant."""
    failed = call("Read", file_path="/home/me/app/src/auth.ts", failed=True)
    found = call("Read", file_path="/home/me/app/lib/auth.ts")
    error = "<tool_use_error>File does not exist.</tool_use_error>"
    fix = run([failed, found], {failed.tool_use_id: error})[failed.tool_use_id]
    assert fix.outcome in fixes.CLAIMS_FIX
    assert fix.confirmed_by == found.tool_use_id


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet="~/ab.\t\n\u00a0'\"x", max_size=30),
    st.text(alphabet="~/ab.x", min_size=1, max_size=6),
)
def test_a_word_alone_is_what_its_pattern_finds(text: str, word: str) -> None:
    """_alone (whether `ls` was given a folder, `~/.claude`, as a word of its own) answers
    as the pattern compiled for each folder did: at the text's start or after a space (a
    no-break one too), at its end or before a space or a quote, maybe with a `/` between."""
    pattern = rf"(?<!\S){re.escape(word)}/?(?![^\s'\"])"
    for at in (text, word + text, text + word, f"{text} {word}/ {text}", f"{text}{word}/x"):
        assert fixes._alone(at, word) == (re.search(pattern, at) is not None), at
