"""The real agent CLIs the end-to-end tests drive, installed from npm once into a cache.

Each test names its pinned version; $PASTFIX_<AGENT> points at a copy instead. When npm
is missing or an install fails, the test skips, or fails where $PASTFIX_REQUIRE_<AGENT>
is set (.ci/run sets them all).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

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
