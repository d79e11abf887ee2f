"""pastfix in the real Claude Code CLI from npm, against a scripted Messages API (issue 21).

scripts/e2e_claude.py does the work (and says how); this test runs it and asserts each
of its checks. Without node and npm, or when npm cannot install Claude Code, the test
is skipped, unless CI=true or PASTFIX_REQUIRE_CLAUDE=1 (set by .ci/run): there it fails.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import e2e_claude  # noqa: E402

REQUIRED = os.environ.get("CI") == "true" or os.environ.get("PASTFIX_REQUIRE_CLAUDE") == "1"


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason} (required here: CI=true or PASTFIX_REQUIRE_CLAUDE=1)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def claude():
    if not (shutil.which("npm") and shutil.which("node")):
        unavailable("node and npm are not installed (apt-get install nodejs npm)")
    try:
        return e2e_claude.install_claude()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        unavailable(
            f"npm could not install Claude Code {e2e_claude.CLAUDE_CODE_VERSION}: {detail[-300:]}"
        )


@pytest.mark.slow
def test_the_hook_the_mcp_tool_and_the_skill_in_claude_code(claude, tmp_path):
    result = e2e_claude.run(tmp_path, claude)
    assert result.version.startswith(e2e_claude.CLAUDE_CODE_VERSION), result.version
    failed = [f"{name}: {detail}" for name, ok, detail in result.checks if not ok]
    assert not failed, "\n".join(failed)
    names = [name for name, _, _ in result.checks]
    assert len(names) == 11, names  # every check ran
    assert result.mcp_rows and max(result.mcp_rows) <= e2e_claude.ROW_BUDGET
