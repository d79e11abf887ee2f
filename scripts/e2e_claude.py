"""pastfix in the real Claude Code CLI, end to end, against a scripted model.

Installs @anthropic-ai/claude-code from npm at CLAUDE_CODE_VERSION (into a cache
folder, never globally), makes a temporary HOME with pastfix's demo index at the
default location and pastfix's hook, skill and MCP server installed the documented
way (`pastfix hook install`, `pastfix skill install`, `pastfix mcp install`), and
runs `claude -p` in a project folder with ANTHROPIC_BASE_URL pointing at a mock
of the Messages API (mock_anthropic.py, on 127.0.0.1). The mock plays the model:

1. a Bash call that fails with `ModuleNotFoundError: No module named 'httpx'`,
   an error the demo index holds with its fix (pyproject.toml edited, then
   `pip install -e '.[test]'`);
2. ToolSearch for pastfix's find_past_fix (Claude Code defers MCP tools behind
   it), then find_past_fix itself with that error;
3. the skill's `pastfix find - --json` as a Bash call, in the project folder;

and the requests Claude Code sent are checked: the one after the failure carries
the hook's past fix and its remedy, the MCP result the model gets is lean JSON,
`pastfix find` answered from the project folder, the skill is in the listing, and
`claude mcp list` (run in the project folder) shows pastfix connected. Last, the
transcript Claude Code wrote is built into an index: no line skipped, its failure stored.

    python scripts/e2e_claude.py            # prints each check; exit status 1 if one fails
    python scripts/e2e_claude.py --keep     # and keeps the temporary folder

Needs node and npm (any Node from 18: the package's binary is native). The
requests are kept in <work>/requests.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from mock_anthropic import MockAnthropic, blocks, calls_made, text, tool_names, tool_use  # noqa: E402

# The Claude Code release driven here: the newest when written, whose MCP tools are
# deferred behind ToolSearch. Its package ships a native binary, so Debian's Node 20 does.
CLAUDE_CODE_VERSION = "2.1.332"
ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "claude-code"

ERROR_LINE = "ModuleNotFoundError: No module named 'httpx'"
# The demo session that fixed it, and its remedy as the hook says it.
DEMO_SESSION = "3c251708-2e3a-4610-b5f2-92b2324f6d1b"
DEMO_REMEDY = ("fix: edited pyproject.toml", "fix: Bash `pip install -e '.[test]'`")
FAIL_COMMAND = 'python3 -c "raise ModuleNotFoundError(\\"No module named \'httpx\'\\")"'
FIND_COMMAND = f"printf '%s\\n' \"{ERROR_LINE}\" | pastfix find - --json --limit 3"
MCP_TOOL = "mcp__pastfix__find_past_fix"
FAIL, SEARCH, ASK, FIND = "toolu_e2e_fail", "toolu_e2e_search", "toolu_e2e_mcp", "toolu_e2e_find"
# Characters of a find_past_fix row as the model reads it: the target is ~1,000.
ROW_BUDGET = 1300


def model(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The scripted model: each step once, in order, by the calls already made."""
    made = calls_made(request)
    if FAIL not in made:
        return [tool_use("Bash", {"command": FAIL_COMMAND, "description": "Start the app"}, FAIL)]
    if ASK not in made:
        offered = tool_names(request)
        if MCP_TOOL not in offered and "ToolSearch" in offered and SEARCH not in made:
            return [tool_use("ToolSearch", {"query": f"select:{MCP_TOOL}"}, SEARCH)]
        return [tool_use(MCP_TOOL, {"error": ERROR_LINE}, ASK)]
    if FIND not in made:
        return [tool_use("Bash", {"command": FIND_COMMAND, "description": "pastfix find"}, FIND)]
    return [text("Done.")]


def install_claude(version: str = CLAUDE_CODE_VERSION, cache: Path = CACHE) -> Path:
    """The `claude` executable of `version`, installed from npm into `cache` if not there."""
    prefix = cache / version
    exe = prefix / "node_modules" / ".bin" / "claude"
    if not exe.exists():
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix),
             f"@anthropic-ai/claude-code@{version}"],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "npm_config_cache": str(cache / "npm")},
            timeout=600,
        )  # fmt: skip
    return exe


@dataclass
class Run:
    """One end-to-end run: what Claude Code sent, and each check's outcome."""

    work: Path
    version: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    mcp_rows: list[int] = field(default_factory=list)

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.checks.append((name, bool(ok), detail))

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(ok for _, ok, _ in self.checks)


def _tool_result(request: dict[str, Any], tool_id: str) -> tuple[str, bool] | None:
    """The text of a tool result in a request, and whether it is an error."""
    for block in blocks(request, "user", "tool_result"):
        if block.get("tool_use_id") == tool_id:
            content = block.get("content")
            if isinstance(content, list):
                content = "".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
            return str(content or ""), bool(block.get("is_error"))
    return None


def _first_with(requests: list[dict[str, Any]], tool_id: str) -> dict[str, Any] | None:
    return next((r for r in requests if _tool_result(r, tool_id) is not None), None)


def run(work: Path, claude: Path, pastfix: Path | None = None) -> Run:
    """Set up a HOME in `work`, run Claude Code against the mock, check what it sent."""
    pastfix = pastfix or Path(sys.executable).parent / "pastfix"
    home, project = work / "home", work / "project"
    project.mkdir(parents=True)
    home.mkdir()
    env = {
        "PATH": os.pathsep.join([str(pastfix.parent), str(claude.parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "LANG": "C.UTF-8",
    }
    result = Run(work)

    def sh(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(args), env=env, cwd=project, capture_output=True, text=True, timeout=timeout
        )

    result.version = sh(str(claude), "--version").stdout.strip()
    for step in (["build", "--default-db", "-s"], ["hook", "install"], ["skill", "install"]):
        done = sh(str(pastfix), *step)
        if done.returncode != 0:
            result.check(f"pastfix {' '.join(step)}", False, done.stderr.strip())
            return result
    done = sh(str(pastfix), "mcp", "install")
    result.check("pastfix mcp install", done.returncode == 0, done.stderr.strip())
    listing = sh(str(claude), "mcp", "list")
    line = next((x for x in listing.stdout.splitlines() if x.startswith("pastfix")), "")
    result.check("claude mcp list: pastfix connected", "Connected" in line, line or listing.stdout)

    with MockAnthropic(model) as mock:
        env["ANTHROPIC_BASE_URL"] = mock.url
        tools = ",".join(["Bash", "ToolSearch", MCP_TOOL])
        done = sh(
            str(claude), "-p", "Start the app.", "--allowedTools", tools,
            "--output-format", "json", "--max-turns", "12",
            timeout=300,
        )  # fmt: skip
        result.requests = mock.main_requests()
    (work / "requests.json").write_text(json.dumps(result.requests, indent=1))
    result.check("claude -p ran", done.returncode == 0, (done.stderr or done.stdout)[-500:])
    _check_requests(result)
    # The session Claude Code just wrote, built as a user's: every line of a type pastfix
    # knows (each new version adds bookkeeping lines), and the failure stored as one.
    built = sh(
        str(pastfix), "build", str(work / "session.db"), "--source",
        str(home / ".claude" / "projects"), "--json", "-s",
    )  # fmt: skip
    try:
        summary = json.loads(built.stdout)
    except json.JSONDecodeError:
        summary = {}
    counts = {k: summary.get(k) for k in ("skipped_lines", "problems", "failed_tool_results")}
    result.check(
        "its transcript indexes with no line skipped",
        built.returncode == 0 and counts == {
            "skipped_lines": 0, "problems": 0, "failed_tool_results": 1,
        } and not summary.get("skipped_sources"),
        f"{counts} {built.stderr.strip()[-300:]}",
    )  # fmt: skip
    return result


def _check_requests(result: Run) -> None:
    requests = result.requests
    first = requests[0] if requests else {}
    skills = json.dumps(first)
    result.check(
        "the skill is in the skill listing",
        "- pastfix: Search the user's past coding-agent sessions" in skills,
    )

    after_failure = _first_with(requests, FAIL)
    seen = json.dumps(after_failure) if after_failure else ""
    context = "pastfix: this error was seen before"
    result.check(
        "the hook's past fix reaches the model after the failure",
        context in seen and DEMO_SESSION in seen,
        "no additionalContext in the next request" if context not in seen else "",
    )
    result.check(
        "with its remedy",
        all(json.dumps(step)[1:-1] in seen for step in DEMO_REMEDY),
        ", ".join(DEMO_REMEDY),
    )

    asked = _first_with(requests, ASK)
    answer = _tool_result(asked, ASK) if asked else None
    if answer is None:
        result.check("the MCP tool answered", False, f"no result of {MCP_TOOL}")
    else:
        content, is_error = answer
        try:
            structured = json.loads(content)
        except json.JSONDecodeError:
            structured = None
        ok = isinstance(structured, dict) and not is_error
        result.check("the MCP result is its structured content", ok, content[:300])
        rows = structured.get("rows", []) if isinstance(structured, dict) else []
        result.mcp_rows = [
            len(json.dumps(r, separators=(",", ":"), ensure_ascii=False)) for r in rows
        ]
        result.check(
            "it finds the past fix",
            any(r.get("session_id") == DEMO_SESSION and r.get("remedy") for r in rows)
            and structured.get("seen_before") is True,
        )
        leaks = [
            w
            for w in ("<mark>", "session_url", "/-/session/", "error_snippet_html")
            if w in content
        ]
        result.check(
            "and is lean",
            not leaks and bool(rows) and max(result.mcp_rows) <= ROW_BUDGET,
            f"rows of {result.mcp_rows} characters" + (f", holding {leaks}" if leaks else ""),
        )

    found = _first_with(requests, FIND)
    answer = _tool_result(found, FIND) if found else None
    ok = answer is not None and not answer[1] and DEMO_SESSION in answer[0]
    result.check(
        "the skill's `pastfix find - --json` works from the project folder",
        ok,
        "" if ok or answer is None else answer[0][:300],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=CLAUDE_CODE_VERSION, help="Claude Code version")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    if not (shutil.which("npm") and shutil.which("node")):
        print("node and npm are needed: apt-get install nodejs npm", file=sys.stderr)
        return 2
    claude = install_claude(args.version)
    work = Path(tempfile.mkdtemp(prefix="pastfix-e2e-"))
    try:
        result = run(work, claude)
        print(f"Claude Code {result.version}, {len(result.requests)} requests to the mock")
        for name, ok, detail in result.checks:
            print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""))
        return 0 if result.ok else 1
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
