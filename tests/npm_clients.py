"""The real agent CLIs the end-to-end tests drive, installed from npm once into a cache.

Each test names its pinned version; $PASTFIX_<AGENT> points at a copy instead. When npm
is missing or an install fails, the test skips, or fails where $PASTFIX_REQUIRE_<AGENT>
is set (.ci/run sets them all).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from click.testing import CliRunner

from pastfix.cli import cli

CACHE = Path(tempfile.gettempdir()) / "pastfix-e2e"
T = TypeVar("T")


def npm_installed(
    package: str,
    version: str,
    inside: str,
    name: str | None = None,
    args: tuple[str, ...] = (),
    timeout: int = 900,
) -> Path:
    """The file `inside` the folder where `package@version` is installed (npm install,
    once); LookupError when npm is missing or the install fails."""
    folder = CACHE / f"{name or package.rsplit('/', 1)[-1]}-{version}"
    found = folder / inside
    if found.exists():
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise LookupError(f"npm not found: cannot install {package}")
    done = subprocess.run(
        [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--no-save",
         *args, f"{package}@{version}"],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    if done.returncode != 0 or not found.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
        raise LookupError(f"npm install {package}@{version} failed: {tail}")
    return found


def given_or(variable: str, install: Callable[[], Path]) -> Path:
    """$`variable` when it is set, else what `install` gives."""
    given = os.environ.get(variable)
    return Path(given) if given else install()


def client(require: str, find: Callable[[], T]) -> T:
    """What `find` gives; a skip (a failure where $`require` is set) when it cannot."""
    try:
        return find()
    except (LookupError, subprocess.TimeoutExpired, OSError) as e:
        if os.environ.get(require):
            pytest.fail(str(e))
        pytest.skip(str(e))


def assert_indexed_whole(db: Path, source: Path, failures: int) -> dict:
    """Build what a real client wrote in `source` as a user would (`pastfix build db
    --source source --json`): every line of a type the reader knows, none it could not
    read, `failures` failed tool results. A version that writes a new line or event type
    fails here. The build's summary."""
    done = CliRunner().invoke(cli, ["build", str(db), "--source", str(source), "--json", "-s"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    counts = {k: summary[k] for k in ("skipped_lines", "problems", "failed_tool_results")}
    found = (counts, summary["problem_examples"], summary["skipped_sources"])
    whole = ({"skipped_lines": 0, "problems": 0, "failed_tool_results": failures}, [], [])
    assert found == whole, f"{source} built: {found}"  # (a helper's assert is not rewritten)
    return summary


# The Codex CLI that test_codex_e2e and test_codex_failures_e2e drive.
CODEX_VERSION = "0.171.0"


def codex_executable() -> Path:
    """The codex command: $PASTFIX_CODEX, or CODEX_VERSION installed with npm (once)."""
    return given_or(
        "PASTFIX_CODEX",
        lambda: npm_installed("@openai/codex", CODEX_VERSION, "node_modules/.bin/codex"),
    )
