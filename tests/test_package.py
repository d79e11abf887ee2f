"""What `pip install pastfix` ships: the CLI, the library, the plugin, the skill, the demo."""

import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT

PACKAGE = ROOT / "pastfix"


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    # hatchling comes with the test extra: no download, no isolated build environment.
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    subprocess.run([*command, "-w", str(out), str(ROOT)], check=True, capture_output=True)
    (wheel,) = out.glob("pastfix-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_the_wheel_holds_the_package_and_nothing_else(wheel_files):
    shipped = {name for name in wheel_files if not name.startswith("pastfix-")}
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert shipped == on_disk
    assert {name.split("/")[0] for name in wheel_files} == {"pastfix", "pastfix-0.1.0.dist-info"}


def test_the_wheel_ships_what_runs_and_no_benchmark_or_test_code(wheel_files):
    for needed in (
        "pastfix/cli.py",
        "pastfix/plugin/__init__.py",
        "pastfix/plugin/templates/pastfix_find.html",
        "pastfix/plugin/static/pastfix.css",
        "pastfix/skill/SKILL.md",
    ):
        assert needed in wheel_files
    assert any(name.startswith("pastfix/demo/projects/") for name in wheel_files)
    for name in wheel_files:
        parts = name.split("/")
        assert not {"benchmarks", "tests"} & set(parts), name
        assert not parts[-1].startswith(("synthetic", "test_", "conftest", "bench")), name
