"""Synthetic Claude Code transcripts: benchmark corpora and the shipped demo corpus.

``generate_corpus()`` writes a tree shaped like ``~/.claude/projects``: one directory per
project (the cwd with every non-alphanumeric character turned into ``-``), one JSONL file per
session, and subagent files in the layout of the Claude Code version that wrote the session:

* 1.0.x: subagent turns inline in the session file (``isSidechain: true``, no ``agentId``);
* 2.0.x: ``<project>/agent-<id>.jsonl`` next to the session file;
* 2.1.x: ``<project>/<session>/subagents/agent-<id>.jsonl``, plus ``agent-acompact-<hex>.jsonl``
  compaction helpers.

Line shapes, key orders and error texts follow the real transcripts described in the project's
transcript-format notes. Failed tool calls carry real error identifiers, and most of them are
followed by what a user would want to find later: an explanation, an edit, and a successful
retry.

Output is a pure function of the arguments: each session draws from its own ``random.Random``
seeded with ``(seed, session index)``, and timestamps come from a simulated clock, never the
wall clock. Files are streamed line by line, so memory stays flat whatever the corpus size.

``write_demo()`` writes the small fixed corpus shipped in ``pastfix/demo/projects``.
Run ``python benchmarks/synthetic.py --help`` for the command-line interface.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

__all__ = ["CorpusStats", "generate_corpus", "write_demo", "main"]

JSON = dict[str, Any]

# Versions to mix, with weights: roughly how often each shows up in a busy ~/.claude/projects.
VERSIONS: tuple[tuple[str, int], ...] = (
    ("1.0.98", 7),
    ("1.0.108", 4),
    ("2.0.76", 12),
    ("2.1.15", 5),
    ("2.1.16", 4),
    ("2.1.38", 8),
    ("2.1.39", 20),
    ("2.1.128", 24),
    ("2.1.140", 16),
)
DEFAULT_START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
DEMO_START = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)

# Tuned so that about 3% of tool results end up with is_error:true (see the calibration test).
FIX_TURN_RATE = 0.28
INCIDENTAL_ERROR_RATE = 0.016
IMAGE_RATE = 0.005
HUGE_READ_RATE = 0.004
HUGE_BASH_RATE = 0.002


@dataclass
class CorpusStats:
    """What a generation run wrote."""

    files: int = 0
    bytes: int = 0
    lines: int = 0
    sessions: int = 0
    subagent_files: int = 0
    projects: int = 0
    tool_results: int = 0
    failed_tool_results: int = 0
    images: int = 0
    line_types: dict[str, int] = field(default_factory=dict)

    @property
    def error_fraction(self) -> float:
        return self.failed_tool_results / self.tool_results if self.tool_results else 0.0


# ---------------------------------------------------------------------------------------------
# Version flavours


@dataclass(frozen=True)
class _Flavor:
    version: str
    vt: tuple[int, ...]
    layout: str  # "inline" (1.0.x), "flat" (2.0.x) or "nested" (2.1.x)
    snapshots: bool  # file-history-snapshot lines, slug
    progress: bool  # progress lines (2.1.14-2.1.39 only)
    source_uuid: bool  # sourceToolAssistantUUID on tool results
    turn_duration: bool
    new_order: bool  # 2.1.128+: envelope keys after the body, attachments, ai-title, promptId
    exit_prefix: bool  # "Exit code N\n" in front of failed Bash output
    caller: float  # share of tool_use blocks carrying caller:{type:direct}
    inference_geo: bool
    model: str
    sub_model: str


@functools.cache
def _flavor(version: str) -> _Flavor:
    v = tuple(int(x) for x in version.split("."))
    if v < (2, 0, 0):
        model = "claude-sonnet-4-20250514"
        sub_model = model
    elif v < (2, 1, 0):
        model, sub_model = "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"
    elif v < (2, 1, 30):
        model, sub_model = "claude-opus-4-5-20251101", "claude-haiku-4-5-20251001"
    elif v < (2, 1, 100):
        model, sub_model = "claude-opus-4-6", "claude-haiku-4-5-20251001"
    else:
        model, sub_model = "claude-opus-4-7", "claude-haiku-4-5-20251001"
    return _Flavor(
        version=version,
        vt=v,
        layout="inline" if v < (2, 0, 0) else "flat" if v < (2, 1, 0) else "nested",
        snapshots=v >= (2, 0, 76),
        progress=(2, 1, 14) <= v < (2, 1, 100),
        source_uuid=v >= (2, 1, 14),
        turn_duration=v >= (2, 1, 14),
        new_order=v >= (2, 1, 100),
        exit_prefix=v >= (2, 0, 0),
        caller=1.0 if v >= (2, 1, 100) else 0.4 if v >= (2, 1, 38) else 0.0,
        inference_geo=v >= (2, 1, 38),
        model=model,
        sub_model=sub_model,
    )


# ---------------------------------------------------------------------------------------------
# Vocabulary

_STACKS: dict[str, JSON] = {
    "ts": {
        "names": ["webapp", "dashboard", "storefront", "admin-portal", "docs-site", "checkout"],
        "comps": [
            "UserList",
            "InvoiceTable",
            "SettingsPanel",
            "ProjectCard",
            "OrderSummary",
            "TeamMembers",
            "NotificationBell",
            "SearchBar",
            "BillingForm",
            "ActivityFeed",
        ],
        "models": [
            ("User", "users", "user"),
            ("Invoice", "invoices", "invoice"),
            ("Project", "projects", "project"),
            ("Order", "orders", "order"),
            ("TeamMember", "members", "member"),
            ("Notification", "notifications", "notification"),
        ],
        "props": [
            ("avatarUrl", "string"),
            ("displayName", "string"),
            ("createdAt", "string"),
            ("dueDate", "string | null"),
            ("lastLoginAt", "string | null"),
            ("isArchived", "boolean"),
            ("ownerId", "string"),
            ("totalCents", "number"),
            ("role", "'admin' | 'member'"),
        ],
        "libs": ["api", "format", "auth", "dates", "analytics", "currency"],
    },
    "py": {
        "names": ["billing-api", "ml-pipeline", "scraper", "reports-service", "etl-jobs"],
        "mods": ["invoices", "payments", "customers", "exporters", "tasks", "parsers", "ledger"],
        "fns": [
            ("to_cents", "amount", "19.999", "2000", "1999"),
            ("apply_discount", "total", "100.0, 0.15", "85.0", "85.00000000000001"),
            ("compute_tax", "subtotal", "49.95", "4.5", "4.49"),
            ("round_price", "price", "2.675", "2.68", "2.67"),
        ],
        "classes": [("Invoice", "total"), ("Customer", "email"), ("Payment", "amount")],
        "missing": [
            (
                "pydantic_settings",
                "pydantic-settings>=2.2",
                "from pydantic_settings import BaseSettings",
            ),
            (
                "dateutil",
                "python-dateutil>=2.9",
                "from dateutil.relativedelta import relativedelta",
            ),
            ("yaml", "PyYAML>=6.0", "import yaml"),
            ("httpx", "httpx>=0.27", "import httpx"),
            ("tenacity", "tenacity>=8.2", "from tenacity import retry, stop_after_attempt"),
        ],
    },
    "go": {
        "names": ["ingest", "deployctl", "queue-worker", "edge-proxy"],
        "pkgs": ["queue", "store", "httpapi", "config", "worker", "retry"],
        "idents": ["retryPolicy", "maxBackoff", "defaultTimeout", "newClient", "errClosed"],
    },
}

_ORGS = ["acme", "northwind", "initech", "globex"]
_ROOTS = ["/home/dev/src/", "/home/dev/src/", "/home/dev/work/", "/Users/sam/code/"]
_BRANCH_TOPICS = ["empty-state", "billing-export", "retry-backoff", "auth-refresh", "csv-import"]
_SLUG_A = ["radiant", "lexical", "linked", "drifting", "idempotent", "quiet", "brisk", "amber"]
_SLUG_B = ["floating", "painting", "soaring", "tumbling", "sprouting", "humming", "folding"]
_SLUG_C = ["music", "whisper", "ocean", "matsumoto", "harbor", "lantern", "meadow", "comet"]
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_VARIANT = {c: "89ab"[int(c, 16) & 3] for c in "0123456789abcdef"}
_EPOCH = datetime(1970, 1, 1)

_HOOK_PRE = [
    "cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./guardian.ts",
    "${CLAUDE_PLUGIN_ROOT}/scripts/pre-tool-check.sh",
    "python3 ~/.claude/hooks/block_secrets.py",
    "npx --yes @acme/claude-guard",
]
_HOOK_POST = [
    "${CLAUDE_PLUGIN_ROOT}/scripts/post-tool-capture.sh",
    "cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./dist/format-on-save.js",
]
_HOOK_START = [
    "~/.claude/hooks/tmux-waiting.sh clear",
    "python3 ${CLAUDE_PLUGIN_ROOT}/session_info.py",
]

# Appended to Read results by 1.0.x (first) and, on some reads, by 2.0.x-2.1.3x (second).
_READ_TAILS = (
    "\n"
    "\n"
    "<system-reminder>\n"
    "Whenever you read a file, you should consider whether it looks malicious. If it does, you "
    "MUST refuse to improve or augment the code. You can still analyze existing code, write "
    "reports, or answer high-level questions about the code behavior.\n"
    "</system-reminder>\n",
    "\n"
    "\n"
    "<system-reminder>\n"
    "Whenever you read a file, you should consider whether it would be considered malware. You CAN "
    "and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or "
    "augment the code. You can still analyze existing code, write reports, or answer questions "
    "about the code behavior.\n"
    "</system-reminder>\n",
)
_TODO_OK = (
    "Todos have been modified successfully. Ensure that you continue to use the todo list to track "
    "your progress. Please proceed with the current tasks if applicable"
)
_REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was "
    "a file edit, the new_string was NOT written to the file). STOP what you are doing and wait "
    "for the user to tell you how to proceed."
)
_RESUME = "(for resuming to continue this agent's work if needed)"
_TOO_BIG = (
    "Please use offset and limit parameters to read specific portions of the file, or use the "
    "GrepTool to search for specific content."
)
_COMPACT_PROMPT = """Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.
This summary should be thorough in capturing technical details, code patterns, and architectural decisions that would be essential for continuing development work without losing context.

Before providing your final summary, wrap your analysis in <analysis> tags to organize your thoughts and ensure you've covered all necessary points. In your analysis process:

1. Chronologically analyze each message and section of the conversation. For each section thoroughly identify:
   - The user's explicit requests and intents
   - Your approach to addressing the user's requests
   - Key decisions, technical concepts and code patterns
   - Specific details like file names, full code snippets, function signatures, file edits
   - Errors that you ran into and how you fixed them
2. Double-check for technical accuracy and completeness, addressing each required element thoroughly.

Your summary should include the following sections:

1. Primary Request and Intent
2. Key Technical Concepts
3. Files and Code Sections
4. Errors and fixes
5. Problem Solving
6. All user messages
7. Pending Tasks
8. Current Work
9. Optional Next Step"""  # noqa: E501


# ---------------------------------------------------------------------------------------------
# Text pools, built once per process from a fixed seed (independent of the corpus seed)


def _ts_block(r: random.Random, out: list[str]) -> None:
    t, plural, one = r.choice(_STACKS["ts"]["models"])
    p, ty = r.choice(_STACKS["ts"]["props"])
    comp = r.choice(_STACKS["ts"]["comps"])
    k = r.random()
    if k < 0.2:
        out += [f"export interface {t} {{", "  id: string;"]
        out += [f"  {q}: {qt};" for q, qt in r.sample(_STACKS["ts"]["props"], 4)]
        out += ["}", ""]
    elif k < 0.5:
        fn = r.choice(["format", "load", "sort", "filter", "group", "normalize"]) + t + "s"
        out += [
            f"export async function {fn}(client: ApiClient, opts: {{ limit?: number }} = {{}}) {{",
            f"  const res = await client.get<{t}[]>('/api/{plural}', {{ params: opts }});",
            "  if (!res.ok) {",
            f"    throw new ApiError(res.status, `failed to load {plural}: ${{res.statusText}}`);",
            "  }",
            f"  return res.data.filter(({one}) => !{one}.isArchived);",
            "}",
            "",
        ]
    elif k < 0.8:
        out += [
            f"export function {comp}({{ {plural}, onSelect }}: {comp}Props) {{",
            "  const [query, setQuery] = useState('');",
            "  const visible = useMemo(",
            f"    () => {plural}.filter(({one}) => {one}.{p}?.toString().includes(query)),",
            f"    [{plural}, query],",
            "  );",
            "",
            "  return (",
            f'    <section className="{comp.lower()}">',
            "      <SearchBar value={query} onChange={setQuery} />",
            "      {visible.map((" + one + ") => (",
            f"        <Row key={{{one}.id}} onClick={{() => onSelect({one})}}>",
            f"          {{{one}.{p}}}",
            "        </Row>",
            "      ))}",
            "    </section>",
            "  );",
            "}",
            "",
        ]
    else:
        out += [
            f"const {p.upper()}_LABELS: Record<string, string> = {{",
            f"  {p}: '{p.replace('At', ' at')}',",
            f"  id: '{t} ID',",
            "};",
            "",
            f"describe('{comp}', () => {{",
            f"  it('renders the {plural}', () => {{",
            f"    render(<{comp} {plural}={{fixtures.{plural}}} onSelect={{jest.fn()}} />);",
            f"    expect(screen.getAllByRole('row')).toHaveLength(fixtures.{plural}.length);",
            "  });",
            "});",
            "",
        ]


def _py_block(r: random.Random, out: list[str]) -> None:
    mod = r.choice(_STACKS["py"]["mods"])
    cls, attr = r.choice(_STACKS["py"]["classes"])
    fn = r.choice(_STACKS["py"]["fns"])[0]
    k = r.random()
    if k < 0.25:
        out += [
            "@dataclass(frozen=True)",
            f"class {cls}Record:",
            f'    """One {cls.lower()} row as read from the {mod} table."""',
            "",
            "    id: int",
            f"    {attr}: Decimal",
            "    created_at: datetime",
            "    tags: tuple[str, ...] = ()",
            "",
            "",
        ]
    elif k < 0.6:
        out += [
            f"def {fn}_batch(rows: Iterable[dict[str, Any]], *, strict: bool = False) -> "
            f"list[{cls}]:",
            f'    """Convert raw {mod} rows, skipping the ones without an {attr}."""',
            f"    result: list[{cls}] = []",
            "    for row in rows:",
            f'        value = row.get("{attr}")',
            "        if value is None:",
            "            if strict:",
            f"                raise ValueError(f\"row {{row['id']}} has no {attr}\")",
            "            continue",
            f"        result.append({cls}.from_row(row))",
            "    return result",
            "",
            "",
        ]
    elif k < 0.85:
        out += [
            f"def test_{fn}_{mod}(db_session, make_{cls.lower()}):",
            f'    {cls.lower()} = make_{cls.lower()}({attr}=Decimal("12.50"))',
            f"    result = {fn}({cls.lower()}.{attr})",
            '    assert result == Decimal("12.50")',
            f"    assert db_session.query({cls}).count() == 1",
            "",
            "",
        ]
    else:
        out += [
            f'@router.get("/{mod}/{{item_id}}", response_model={cls}Out)',
            f"async def get_{mod}(item_id: int, session: Session = Depends(get_session)):",
            f"    item = session.get({cls}, item_id)",
            "    if item is None:",
            '        raise HTTPException(status_code=404, detail="not found")',
            "    return item",
            "",
            "",
        ]


def _go_block(r: random.Random, out: list[str]) -> None:
    pkg = r.choice(_STACKS["go"]["pkgs"])
    name = pkg.capitalize()
    k = r.random()
    if k < 0.3:
        out += [
            f"// {name}Config holds the tunables for the {pkg} package.",
            f"type {name}Config struct {{",
            '\tMaxRetries int           `yaml:"max_retries"`',
            '\tBackoff    time.Duration `yaml:"backoff"`',
            '\tQueueSize  int           `yaml:"queue_size"`',
            "}",
            "",
        ]
    elif k < 0.75:
        out += [
            f"func (s *{name}Service) Process(ctx context.Context, msg *Message) error {{",
            "\tif msg == nil {",
            "\t\treturn errNilMessage",
            "\t}",
            "\tfor attempt := 0; attempt <= s.cfg.MaxRetries; attempt++ {",
            "\t\tif err := s.handle(ctx, msg); err == nil {",
            "\t\t\treturn nil",
            "\t\t} else if !isRetryable(err) {",
            f'\t\t\treturn fmt.Errorf("{pkg}: process %s: %w", msg.ID, err)',
            "\t\t}",
            "\t\tselect {",
            "\t\tcase <-ctx.Done():",
            "\t\t\treturn ctx.Err()",
            "\t\tcase <-time.After(s.backoff(attempt)):",
            "\t\t}",
            "\t}",
            "\treturn errRetriesExhausted",
            "}",
            "",
        ]
    else:
        out += [
            f"func Test{name}Process(t *testing.T) {{",
            "\ttests := []struct {",
            "\t\tname    string",
            "\t\tmsg     *Message",
            "\t\twantErr bool",
            "\t}{",
            '\t\t{"nil message", nil, true},',
            '\t\t{"ok", &Message{ID: "m-1"}, false},',
            "\t}",
            "\tfor _, tt := range tests {",
            "\t\tt.Run(tt.name, func(t *testing.T) {",
            f"\t\t\tif err := new{name}Service(t).Process(context.Background(), tt.msg); (err != "
            "nil) != tt.wantErr {",
            '\t\t\t\tt.Fatalf("Process() error = %v, wantErr %v", err, tt.wantErr)',
            "\t\t\t}",
            "\t\t})",
            "\t}",
            "}",
            "",
        ]


def _md_block(r: random.Random, out: list[str]) -> None:
    topic = r.choice(
        ["Setup", "Architecture", "Testing", "Deployment", "Conventions", "Troubleshooting"]
    )
    out += [
        f"## {topic}",
        "",
        f"- Run `make {topic.lower()}` before opening a pull request.",
        "- Configuration lives in `config/` and is loaded once at startup.",
        "- Never commit `.env.local`; copy `.env.example` instead.",
        "",
        "```bash",
        "make dev",
        "```",
        "",
    ]


_HEADERS = {
    "ts": [
        "import { useMemo, useState } from 'react';",
        "import { ApiClient, ApiError } from '@/lib/api';",
        "import { Row } from '@/components/Row';",
        "import { SearchBar } from '@/components/SearchBar';",
        "",
    ],
    "py": [
        "from __future__ import annotations",
        "",
        "from collections.abc import Iterable",
        "from dataclasses import dataclass",
        "from datetime import datetime",
        "from decimal import ROUND_HALF_UP, Decimal",
        "from typing import Any",
        "",
        "",
    ],
    "go": [
        "package main",
        "",
        "import (",
        '\t"context"',
        '\t"errors"',
        '\t"fmt"',
        '\t"time"',
        ")",
        "",
    ],
    "md": [
        "# Project notes",
        "",
        "This file is read by Claude Code at the start of every session.",
        "",
    ],
}

_OPEN = [
    "Let me take a look.",
    "I'll start by reproducing the problem.",
    "Let me check the current state first.",
    "Sure. Let me get oriented in the code first.",
]
_FINDINGS = [
    "Defines `{sym}` and the helpers around it.",
    "Holds the types shared by the handlers; nothing here validates input.",
    "Tests cover the happy path only; nothing exercises empty input.",
    "Calls `{sym}` twice per request; the second call looks redundant.",
    "Configuration and defaults, read once at startup.",
    "Thin wrapper around the HTTP client; errors are re-thrown unchanged.",
]
_THINK = [
    'The user asked: "{goal}"',
    "I should first read {file} to see how {sym} is used.",
    "There might be other call sites, so a grep for {sym} is worth doing before editing.",
    "If I change the signature, the tests in {test} will need updating too.",
    "The simplest fix that keeps behaviour the same for existing callers is probably best here.",
    "Let me think about edge cases: empty input, missing fields, and the error path.",
    "Running the full suite takes a while, so I'll start with the focused tests.",
    "I'll keep the diff small and explain the reasoning in the final message.",
]


@dataclass
class _Pools:
    code: dict[str, list[str]]
    num_arrow: list[str]
    num_tab: list[str]
    b64: str
    ids: str
    commits: list[str]


@functools.cache
def _pools() -> _Pools:
    r = random.Random("pastfix-synthetic-pools")
    code: dict[str, list[str]] = {}
    for lang, block in (("ts", _ts_block), ("py", _py_block), ("go", _go_block), ("md", _md_block)):
        lines: list[str] = []
        while len(lines) < 9000:
            block(r, lines)
        code[lang] = lines
    b64 = base64.b64encode(r.randbytes(900_000)).decode()
    ids = r.randbytes(400_000).translate(bytes(ord(_B62[i % 62]) for i in range(256))).decode()
    verbs = ["Fix", "Add", "Refactor", "Remove", "Update", "Handle", "Test", "Document"]
    things = [
        "empty state",
        "retry backoff",
        "CSV export",
        "auth refresh",
        "pagination",
        "tax rounding",
    ]
    commits = [f"{r.choice(verbs)} {r.choice(things)}" for _ in range(200)]
    return _Pools(
        code=code,
        num_arrow=[f"{i:>6}\u2192" for i in range(0, 10001)],
        num_tab=[f"{i}\t" for i in range(0, 10001)],
        b64=b64,
        ids=ids,
        commits=commits,
    )


def _lang(path: str) -> str:
    if path.endswith((".ts", ".tsx", ".js", ".mjs", ".jsx")):
        return "ts"
    if path.endswith(".py"):
        return "py"
    if path.endswith(".go"):
        return "go"
    return "md"


_encode = msgspec.json.Encoder().encode


def _encode_cwd(cwd: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


_ISO_CACHE: dict[int, str] = {}


def _iso(ms: int) -> str:
    """ISO 8601 UTC with milliseconds, like Claude Code writes (cached per second: it is hot)."""
    sec, milli = divmod(ms, 1000)
    head = _ISO_CACHE.get(sec)
    if head is None:
        if len(_ISO_CACHE) > 4096:
            _ISO_CACHE.clear()
        head = _ISO_CACHE[sec] = (_EPOCH + timedelta(seconds=sec)).isoformat()
    return f"{head}.{milli:03d}Z"


def _unwrap(text: str) -> str:
    if text.startswith("<tool_use_error>"):
        return text[len("<tool_use_error>") : -len("</tool_use_error>")]
    return text


# ---------------------------------------------------------------------------------------------
# Output


class _Sink:
    """One JSONL file being written, with running counts."""

    def __init__(self, path: Path, stats: CorpusStats) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._f = path.open("wb", buffering=1 << 18)
        self._stats = stats
        self.lines = 0
        stats.files += 1

    def put(self, kind: str, obj: JSON) -> None:
        data = _encode(obj) + b"\n"
        self._f.write(data)
        st = self._stats
        st.bytes += len(data)
        st.lines += 1
        self.lines += 1
        st.line_types[kind] = st.line_types.get(kind, 0) + 1

    def close(self) -> None:
        self._f.close()


class _Res:
    """A tool result: the tool_result content plus the toolUseResult sidecar."""

    __slots__ = ("content", "tur", "error", "bash", "image")

    def __init__(
        self,
        content: Any,
        tur: Any,
        *,
        error: bool = False,
        bash: bool = False,
        image: bool = False,
    ) -> None:
        self.content = content
        self.tur = tur
        self.error = error
        self.bash = bash
        self.image = image


def _fail(content: str, tur: str | None = None) -> _Res:
    return _Res(content, tur if tur is not None else "Error: " + _unwrap(content), error=True)


@dataclass
class _Project:
    name: str
    stack: str
    cwd: str
    org: str
    weight: float
    npm_err: str = "npm ERR!"
    shell_zsh: bool = False


# ---------------------------------------------------------------------------------------------
# A session: shared state for one main file and its subagents


class _Session:
    def __init__(
        self,
        gen: _Gen,
        project: _Project,
        version: str,
        rng: random.Random,
        start_ms: int,
        *,
        budget: int,
        demo: bool = False,
    ) -> None:
        self.gen = gen
        self.p = project
        self.fl = _flavor(version)
        self.r = rng
        self.ms = start_ms
        self.byte_limit = gen.stats.bytes + budget
        self.demo = demo
        self.pools = _pools()
        self.sid = self.uuid()
        self.dir = gen.root / _encode_cwd(project.cwd)
        self.branch = (
            "main"
            if rng.random() < 0.55
            else f"{rng.choice(['feature', 'fix', 'chore'])}/{rng.choice(_BRANCH_TOPICS)}"
        )
        if self.fl.layout == "inline" and rng.random() < 0.25:
            self.branch = ""
        self.slug = f"{rng.choice(_SLUG_A)}-{rng.choice(_SLUG_B)}-{rng.choice(_SLUG_C)}"
        hooked = self.fl.progress and (demo or rng.random() < 0.85)
        self.pre_hooks = (
            rng.sample(_HOOK_PRE, 1 if demo else rng.choice([2, 4, 4])) if hooked else []
        )
        self.post_hooks = (
            rng.sample(_HOOK_POST, 1 if demo else rng.choice([1, 2, 2])) if hooked else []
        )
        self.stop_hooks = self.fl.snapshots and rng.random() < 0.3
        self.read_files: list[str] = []
        self.tracked: dict[str, JSON] = {}
        self.events: list[str] = []
        self.todos: list[JSON] = []
        self.prompt_id: str | None = None
        self.prompt_uuid = ""
        self.prompt_ts = ""
        self.title = ""
        self.last_prompt = ""
        self.turns = 0
        self.queued = ""
        self.turn_edits: list[str] = []
        self.compacted = 0
        self.main: _Thread | None = None

    # ids and clock ------------------------------------------------------------------------------

    def uuid(self) -> str:
        h = f"{self.r.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:]}"

    def b62(self, n: int) -> str:
        # Real ids never collide: draw fresh random digits rather than a window of a pool.
        v = self.r.getrandbits(6 * n)
        return "".join(_B62[(v >> (6 * i)) % 62] for i in range(n))

    def hex(self, n: int) -> str:
        return f"{self.r.getrandbits(4 * n):0{n}x}"

    def tick(self, lo: int, hi: int) -> str:
        # random() is much cheaper than randint(), and this runs for every line.
        self.ms += lo + int(self.r.random() * (hi - lo + 1))
        return _iso(self.ms)

    def room(self) -> int:
        return self.byte_limit - self.gen.stats.bytes

    def note(self, event: str) -> None:
        self.events.append(event)
        if len(self.events) > 40:
            del self.events[:10]

    def read_size(self) -> int:
        r = self.r
        if self.demo:
            return r.randint(500, 1300)
        if r.random() < HUGE_READ_RATE and self.room() > 2_000_000:
            return r.randint(150_000, 250_000)
        # Lines carry the content twice (tool_result and toolUseResult): 2-50 KB lines.
        size = min(25_000, max(900, int(r.lognormvariate(math.log(2000), 1.2))))
        return min(size, max(900, self.room() // 4))

    def track(self, rel: str) -> None:
        """Record an edited file in file-history, as 2.0.76+ does with snapshot updates."""
        if rel not in self.turn_edits:
            self.turn_edits.append(rel)
        fl = self.fl
        if (
            not fl.snapshots
            or fl.new_order
            or rel in self.tracked
            or self.main is None
            or len(self.tracked) > 40
        ):
            return
        backup = None if self.r.random() < 0.3 else f"{self.hex(16)}@v1"
        self.tracked[rel] = {"backupFileName": backup, "version": 1, "backupTime": _iso(self.ms)}
        snap = {
            "messageId": self.prompt_uuid,
            "trackedFileBackups": dict(self.tracked),
            "timestamp": self.prompt_ts,
        }
        self.main.meta(
            "file-history-snapshot",
            {
                "type": "file-history-snapshot",
                "messageId": self.prompt_uuid,
                "snapshot": snap,
                "isSnapshotUpdate": True,
            },
        )

    # vocabulary ---------------------------------------------------------------------------------

    def vocab(self) -> dict[str, str]:
        r = self.r
        p = self.p
        v: dict[str, str] = {
            "proj": p.name,
            "cwd": p.cwd,
            "org": p.org,
            "branch": self.branch or "main",
            "npm": p.npm_err,
        }
        if p.stack == "ts":
            s = _STACKS["ts"]
            t, plural, one = r.choice(s["models"])
            (prop, pty), (other, oty) = r.sample(s["props"], 2)
            comp = r.choice(s["comps"])
            v.update(
                comp=comp,
                Type=t,
                items=plural,
                item=one,
                prop=prop,
                pty=pty,
                other=other,
                oty=oty,
                lib=r.choice(s["libs"]),
                Items=plural.capitalize(),
                comp_file=f"src/components/{comp}.tsx",
                type_file=f"src/types/{one}.ts",
                test_file=f"src/components/__tests__/{comp}.test.tsx",
                hook_file=f"src/hooks/use{plural.capitalize()}.ts",
                sym=r.choice([comp, f"use{plural.capitalize()}", f"load{t}s"]),
            )
        elif p.stack == "py":
            s = _STACKS["py"]
            pkg = {"ml": "pipeline"}.get(p.name.split("-")[0], p.name.split("-")[0])
            mod = r.choice(s["mods"])
            fn, arg, call, want, got = r.choice(s["fns"])
            cls, attr = r.choice(s["classes"])
            miss = r.choice(s["missing"])
            v.update(
                pkg=pkg,
                mod=mod,
                fn=fn,
                arg=arg,
                call=call,
                want=want,
                got=got,
                Cls=cls,
                attr=attr,
                miss_mod=miss[0],
                miss_dist=miss[1],
                miss_import=miss[2],
                mod_file=f"{pkg}/{mod}.py",
                test_file=f"tests/test_{mod}.py",
                sym=r.choice([fn, f"{cls}Record", f"get_{mod}"]),
                items=mod,
            )
        else:
            s = _STACKS["go"]
            pkg = r.choice(s["pkgs"])
            v.update(
                gopkg=pkg,
                module=f"github.com/{p.org}/{p.name}",
                gofile=f"internal/{pkg}/{pkg}.go",
                ident=r.choice(s["idents"]),
                Name=pkg.capitalize(),
                sym=f"{pkg.capitalize()}Service",
                items=pkg,
            )
        return v

    def code_path(self, v: dict[str, str]) -> str:
        r = self.r
        if self.p.stack == "ts":
            return r.choice(
                [
                    v["comp_file"],
                    v["type_file"],
                    v["hook_file"],
                    v["test_file"],
                    f"src/lib/{v['lib']}.ts",
                    f"src/app/{v['items']}/page.tsx",
                ]
            )
        if self.p.stack == "py":
            return r.choice(
                [v["mod_file"], v["test_file"], f"{v['pkg']}/api.py", f"{v['pkg']}/db.py"]
            )
        return r.choice(
            [
                v["gofile"],
                f"internal/{v['gopkg']}/{v['gopkg']}_test.go",
                f"cmd/{self.p.name}/main.go",
            ]
        )

    def abspath(self, rel: str) -> str:
        return rel if rel.startswith("/") else f"{self.p.cwd}/{rel}"

    def code(self, path: str, size: int, must: Sequence[str] = ()) -> str:
        """Plausible file content of about ``size`` bytes, containing the ``must`` lines."""
        lang = _lang(path)
        pool = self.pools.code[lang]
        n = max(6, min(len(pool) - 1, size // 34))
        o = self.r.randrange(len(pool) - n)
        lines = _HEADERS[lang] + pool[o : o + n]
        if must:
            at = self.r.randrange(len(_HEADERS[lang]), len(lines))
            lines[at:at] = list(must)
        return "\n".join(lines) + "\n"

    def snippet(self, rel: str, n: int) -> tuple[str, str]:
        """``n`` consecutive code lines, starting at a substantial one, and an edit of them."""
        pool = self.pools.code[_lang(rel)]
        o = self.r.randrange(len(pool) - n - 8)
        while len(pool[o].strip()) < 12 and o < len(pool) - n - 8:
            o += 1
        old = "\n".join(pool[o : o + n])
        new = old + "\n" + "\n".join(pool[o + n + 2 : o + n + 2 + self.r.randint(1, 4)])
        return old, new

    def numbered(self, text: str, start: int = 1) -> str:
        nums = self.pools.num_tab if self.fl.new_order else self.pools.num_arrow
        lines = text.split("\n")
        top = len(nums) - 1
        return "\n".join(
            (nums[i] if i <= top else nums[top]) + line for i, line in enumerate(lines, start)
        )

    def sentence(self, pool: Sequence[str], v: dict[str, str], goal: str = "") -> str:
        return self.r.choice(pool).format(
            sym=v.get("sym", "it"),
            file=v.get("comp_file") or v.get("mod_file") or v.get("gofile") or "the module",
            test=v.get("test_file", "the tests"),
            goal=goal or "this fixed",
        )


# ---------------------------------------------------------------------------------------------
# A thread: one parentUuid chain written to one file (a main session, or a subagent)


class _Thread:
    def __init__(
        self,
        s: _Session,
        sink: _Sink,
        *,
        side: bool = False,
        agent_id: str | None = None,
        model: str | None = None,
        parent_task: tuple[_Thread, str, str] | None = None,
    ) -> None:
        self.s = s
        self.sink = sink
        self.side = side
        self.agent_id = agent_id
        self.model = model or s.fl.model
        self.parent: str | None = None
        self.msg: JSON | None = None
        self.tool_uses = 0
        # (parent thread, Task tool_use id, Task prompt), mirrored as agent_progress lines.
        self.parent_task = parent_task
        self.progress_budget = 30
        self.env: JSON = {}
        self.with_slug = False
        self.refresh_env()

    @property
    def subagent_file(self) -> bool:
        return self.agent_id is not None and self.s.fl.layout == "nested"

    def refresh_env(self, slug: bool | None = None) -> None:
        s = self.s
        if slug is not None:
            self.with_slug = slug
        env: JSON = {"userType": "external"}
        if s.fl.new_order:
            env["entrypoint"] = "cli"
        env.update(cwd=s.p.cwd, sessionId=s.sid, version=s.fl.version, gitBranch=s.branch)
        if self.agent_id and not s.fl.new_order:
            env["agentId"] = self.agent_id
        if self.with_slug and s.fl.snapshots:
            env["slug"] = s.slug
        self.env = env

    # low level ----------------------------------------------------------------------------------

    def emit(self, kind: str, body: JSON, parent: str | None, logical: str | None = None) -> None:
        line: JSON = {"parentUuid": parent}
        if logical:
            line["logicalParentUuid"] = logical
        line["isSidechain"] = self.side
        if self.s.fl.new_order:
            if self.agent_id:
                line["agentId"] = self.agent_id
            if kind == "user" and self.s.prompt_id and not self.side:
                line["promptId"] = self.s.prompt_id
            line.update(body)
            line.update(self.env)
        else:
            line.update(self.env)
            line.update(body)
        self.sink.put(kind, line)

    def meta(self, kind: str, obj: JSON) -> None:
        self.sink.put(kind, obj)

    def _new_msg(self) -> JSON:
        s, r = self.s, self.s.r
        fl = s.fl
        if not self.side and fl.vt >= (2, 1) and r.random() < 0.002:
            self.api_errors()
        cache_new = r.randint(200, 30000)
        usage: JSON = {
            "input_tokens": r.randint(1, 12),
            "cache_creation_input_tokens": cache_new,
            "cache_read_input_tokens": r.randint(10000, 150000),
        }
        if fl.new_order:
            usage["output_tokens"] = r.randint(20, 4000)
            usage["server_tool_use"] = {"web_search_requests": 0, "web_fetch_requests": 0}
            usage["service_tier"] = "standard"
            usage["cache_creation"] = {
                "ephemeral_1h_input_tokens": cache_new,
                "ephemeral_5m_input_tokens": 0,
            }
            usage["inference_geo"] = ""
            usage["iterations"] = [
                {
                    "input_tokens": usage["input_tokens"],
                    "output_tokens": usage["output_tokens"],
                    "cache_read_input_tokens": usage["cache_read_input_tokens"],
                    "cache_creation_input_tokens": cache_new,
                    "cache_creation": {
                        "ephemeral_5m_input_tokens": 0,
                        "ephemeral_1h_input_tokens": cache_new,
                    },
                    "type": "message",
                }
            ]
            usage["speed"] = "standard"
        else:
            usage["cache_creation"] = {
                "ephemeral_5m_input_tokens": cache_new,
                "ephemeral_1h_input_tokens": 0,
            }
            usage["output_tokens"] = r.randint(1, 600)
            usage["service_tier"] = "standard"
            if fl.inference_geo:
                usage["inference_geo"] = "not_available"
        self.msg = {"id": "msg_01" + s.b62(22), "req": "req_011C" + s.b62(18), "usage": usage}
        return self.msg

    def assistant(self, block: JSON, stop: str | None = None) -> str:
        s = self.s
        m = self.msg or self._new_msg()
        if s.fl.layout == "inline":
            message: JSON = {
                "id": m["id"],
                "type": "message",
                "role": "assistant",
                "model": self.model,
            }
        else:
            message = {"model": self.model, "id": m["id"], "type": "message", "role": "assistant"}
        message["content"] = [block]
        # 2.1.128+ stamps every line of a message with how the message ended; older versions
        # write null while streaming.
        message["stop_reason"] = (stop or "tool_use") if s.fl.new_order else None
        message["stop_sequence"] = None
        if s.fl.new_order:
            message["stop_details"] = None
        message["usage"] = m["usage"]
        u = s.uuid()
        body = {
            "message": message,
            "requestId": m["req"],
            "type": "assistant",
            "uuid": u,
            "timestamp": s.tick(250, 2600),
        }
        self.emit("assistant", body, self.parent)
        self.parent = u
        self.agent_progress(message)
        return u

    def say(self, text: str, *, final: bool = False) -> None:
        self.assistant({"type": "text", "text": text}, "end_turn" if final else None)

    def think(self, text: str) -> None:
        s = self.s
        sig = "E" + s.pools.b64[(o := s.r.randrange(500_000)) : o + s.r.randint(300, 1400)]
        thinking = "" if s.fl.new_order else text
        self.assistant({"type": "thinking", "thinking": thinking, "signature": sig})

    def user_text(self, text: str | list[JSON], **extra: Any) -> str:
        s = self.s
        u = s.uuid()
        body: JSON = {"type": "user", "message": {"role": "user", "content": text}}
        if extra.pop("isMeta", False):
            body["isMeta"] = True
        body.update(uuid=u, timestamp=s.tick(20, 900))
        body.update(extra)
        self.emit("user", body, self.parent)
        self.parent = u
        self.msg = None
        return u

    def progress(
        self, data: JSON, tool_id: str, parent_tool_id: str, *, step: tuple[int, int] = (3, 900)
    ) -> None:
        s = self.s
        u = s.uuid()
        body = {
            "type": "progress",
            "data": data,
            "toolUseID": tool_id,
            "parentToolUseID": parent_tool_id,
            "uuid": u,
            "timestamp": s.tick(*step),
        }
        self.emit("progress", body, self.parent)
        self.parent = u

    def agent_progress(self, message: JSON) -> None:
        """Mirror a subagent line into the parent as agent_progress (2.1.14-2.1.39)."""
        if not self.parent_task or not self.s.fl.progress or self.progress_budget <= 0:
            return
        self.progress_budget -= 1
        parent, task_id, prompt = self.parent_task
        s = self.s
        inner = {
            "type": "assistant",
            "message": message,
            "uuid": self.parent,
            "timestamp": _iso(s.ms),
        }
        data = {
            "message": inner,
            "normalizedMessages": [inner],
            "type": "agent_progress",
            "prompt": prompt,
            "agentId": self.agent_id,
        }
        parent.progress(data, "agent_" + str(message["id"]), task_id, step=(0, 2))

    def system(self, subtype: str, fields: JSON, *, logical: str | None = None) -> str:
        """A system line; with ``logical`` it starts a new chain (compaction) and points back."""
        s = self.s
        u = s.uuid()
        body: JSON = {"type": "system", "subtype": subtype}
        body.update(fields)
        body.update(timestamp=s.tick(5, 400), uuid=u)
        self.emit("system", body, None if logical else self.parent, logical)
        self.parent = u
        self.msg = None
        return u

    def attachment(self, att: JSON) -> None:
        s = self.s
        if not s.fl.new_order or self.side:
            return
        u = s.uuid()
        self.emit(
            "attachment",
            {"attachment": att, "type": "attachment", "uuid": u, "timestamp": s.tick(0, 30)},
            self.parent,
        )
        self.parent = u

    def api_errors(self) -> None:
        s = self.s
        code = s.r.choice(["FailedToOpenSocket", "ConnectionRefused", "ECONNRESET"])
        cause = {
            "code": code,
            "path": "https://api.anthropic.com/v1/messages?beta=true",
            "errno": 0,
        }
        for attempt in range(1, s.r.randint(1, 3) + 1):
            self.system(
                "api_error",
                {
                    "level": "error",
                    "cause": cause,
                    "error": {"cause": cause},
                    "retryInMs": round(500 * 2 ** (attempt - 1) * (1 + s.r.random() / 4), 6),
                    "retryAttempt": attempt,
                    "maxRetries": 10,
                },
            )

    # tools --------------------------------------------------------------------------------------

    def tool_use(self, name: str, inp: JSON) -> tuple[str, str]:
        s = self.s
        tid = "toolu_01" + s.b62(22)
        block: JSON = {"type": "tool_use", "id": tid, "name": name, "input": inp}
        if s.fl.caller and (s.fl.caller >= 1 or s.r.random() < s.fl.caller):
            block["caller"] = {"type": "direct"}
        self.tool_uses += 1
        return tid, self.assistant(block, "tool_use")

    def hooks(self, name: str, tid: str, event: str) -> None:
        s = self.s
        cmds = s.pre_hooks if event == "PreToolUse" else s.post_hooks
        if event == "PreToolUse" and name not in ("Bash", "Edit", "Write", "MultiEdit"):
            return
        for cmd in cmds:
            data = {
                "type": "hook_progress",
                "hookEvent": event,
                "hookName": f"{event}:{name}",
                "command": cmd,
            }
            self.progress(data, tid, tid, step=(1, 40))

    def result(self, tid: str, au: str, res: _Res, *, long: bool = False) -> None:
        s = self.s
        st = s.gen.stats
        st.tool_results += 1
        if res.error:
            st.failed_tool_results += 1
            block: JSON = {
                "type": "tool_result",
                "content": res.content,
                "is_error": True,
                "tool_use_id": tid,
            }
        else:
            block = {"tool_use_id": tid, "type": "tool_result", "content": res.content}
            if res.bash:
                block["is_error"] = False
        if res.image:
            st.images += 1
        u = s.uuid()
        body: JSON = {
            "type": "user",
            "message": {"role": "user", "content": [block]},
            "uuid": u,
            "timestamp": s.tick(2000, 60000) if long else s.tick(30, 1500),
        }
        if res.tur is not None and (res.error or not self.subagent_file):
            body["toolUseResult"] = res.tur
        if s.fl.source_uuid:
            body["sourceToolAssistantUUID"] = au
        self.emit("user", body, au)
        self.parent = u
        self.msg = None

    def call(self, name: str, inp: JSON, res: _Res, *, long: bool = False) -> None:
        tid, au = self.tool_use(name, inp)
        self.finish(name, tid, au, res, long=long)

    def finish(self, name: str, tid: str, au: str, res: _Res, *, long: bool = False) -> None:
        s = self.s
        if s.fl.progress:
            self.hooks(name, tid, "PreToolUse")
            if long and name == "Bash":
                out = res.content if isinstance(res.content, str) else ""
                shown = out.split("\n")
                for k in range(s.r.randint(1, 4)):
                    part = "\n".join(shown[: max(1, len(shown) * (k + 1) // 5)])[-1200:]
                    data = {
                        "type": "bash_progress",
                        "output": part,
                        "fullOutput": part,
                        "elapsedTimeSeconds": 2 * (k + 1),
                        "totalLines": part.count("\n") + 1,
                        "timeoutMs": 120000,
                    }
                    self.progress(data, f"bash-progress-{k}", tid, step=(1000, 2100))
            if not res.error:
                self.hooks(name, tid, "PostToolUse")
        self.result(tid, au, res, long=long)

    def parallel(self, calls: Sequence[tuple[str, JSON, _Res]]) -> None:
        uses = [self.tool_use(name, inp) for name, inp, _ in calls]
        for (name, _, res), (tid, au) in zip(calls, uses, strict=True):
            self.finish(name, tid, au, res)

    # tool helpers -------------------------------------------------------------------------------

    def bash(self, cmd: str, out: str, desc: str | None = None, *, long: bool = False) -> None:
        inp: JSON = {"command": cmd}
        if desc:
            inp["description"] = desc
        if long and self.s.r.random() < 0.3:
            inp["timeout"] = 300000
        tur: JSON = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        if self.s.fl.vt >= (2, 1):
            tur["noOutputExpected"] = False
        self.call("Bash", inp, _Res(out, tur, bash=True), long=long)

    def bash_err(
        self, cmd: str, code: int, out: str, desc: str | None = None, *, long: bool = False
    ) -> None:
        inp: JSON = {"command": cmd}
        if desc:
            inp["description"] = desc
        text = f"Exit code {code}\n{out}" if self.s.fl.exit_prefix else out
        self.call("Bash", inp, _fail(text), long=long)

    def read_call(
        self,
        rel: str,
        *,
        size: int = 0,
        must: Sequence[str] = (),
        text: str | None = None,
        offset: int = 0,
        limit: int = 0,
    ) -> tuple[JSON, _Res]:
        s = self.s
        path = s.abspath(rel)
        if text is None:
            size = size or s.read_size()
            text = s.code(rel, min(size, 1300) if s.demo else size, must)
        total = text.count("\n") + 1
        start = 1
        if offset:
            start = offset
            text = "\n".join(text.split("\n")[offset - 1 : offset - 1 + limit])
        content = s.numbered(text, start)
        if s.fl.layout == "inline":
            content += _READ_TAILS[0]
        elif not s.fl.new_order and s.r.random() < 0.5:
            content += _READ_TAILS[1]
        tur = {
            "type": "text",
            "file": {
                "filePath": path,
                "content": text,
                "numLines": text.count("\n") + 1,
                "startLine": start,
                "totalLines": total,
            },
        }
        inp: JSON = {"file_path": path}
        if offset:
            inp.update(offset=offset, limit=limit)
        if rel not in s.read_files:
            s.read_files.append(rel)
            if len(s.read_files) > 30:
                del s.read_files[0]
        return inp, _Res(content, tur)

    def read(
        self,
        rel: str,
        *,
        size: int = 0,
        must: Sequence[str] = (),
        text: str | None = None,
        offset: int = 0,
        limit: int = 0,
    ) -> None:
        inp, res = self.read_call(rel, size=size, must=must, text=text, offset=offset, limit=limit)
        self.call("Read", inp, res)

    def fail(self, name: str, inp: JSON, content: str, tur: str | None = None) -> None:
        self.call(name, inp, _fail(content, tur))

    def edit(self, rel: str, old: str, new: str, *, original: str | None = None) -> None:
        s = self.s
        path = s.abspath(rel)
        if original is None:
            size = min(30_000, max(800, int(s.r.lognormvariate(math.log(5000), 1.0))))
            original = s.code(rel, size if not s.demo else 800, old.split("\n"))
        before = original[: original.find(old)].count("\n") + 1
        old_lines, new_lines = old.split("\n"), new.split("\n")
        ctx = original.split("\n")[max(0, before - 4) : before - 1]
        hunk = {
            "oldStart": max(1, before - len(ctx)),
            "oldLines": len(ctx) + len(old_lines),
            "newStart": max(1, before - len(ctx)),
            "newLines": len(ctx) + len(new_lines),
            "lines": [" " + c for c in ctx]
            + ["-" + c for c in old_lines]
            + ["+" + c for c in new_lines],
        }
        if s.fl.new_order:
            content = f"The file {path} has been updated successfully."
        else:
            updated = original.replace(old, new, 1)
            snippet = "\n".join(
                updated.split("\n")[max(0, before - 6) : before + len(new_lines) + 5]
            )
            content = (
                f"The file {path} has been updated. Here's the result of running `cat -n` on a "
                f"snippet of the edited file:\n{s.numbered(snippet, max(1, before - 5))}"
            )
        tur = {
            "filePath": path,
            "oldString": old,
            "newString": new,
            "originalFile": original,
            "structuredPatch": [hunk],
            "userModified": False,
            "replaceAll": False,
        }
        inp: JSON = {"file_path": path, "old_string": old, "new_string": new}
        if s.fl.new_order:
            inp = {"replace_all": False, **inp}
        self.call("Edit", inp, _Res(content, tur))
        s.track(rel)
        if s.fl.new_order and s.r.random() < 0.25 and not self.side:
            snippet = s.numbered("\n".join(new_lines[:6]) + "\n", before).replace("\u2192", "\t")
            self.attachment({"type": "edited_text_file", "filename": path, "snippet": snippet})

    def multi_edit(self, rel: str, edits: Sequence[tuple[str, str]]) -> None:
        s = self.s
        path = s.abspath(rel)
        original = s.code(
            rel,
            s.r.randint(1500, 6000) if not s.demo else 1200,
            [line for old, _ in edits for line in old.split("\n")],
        )
        eds = [{"old_string": o, "new_string": n, "replace_all": False} for o, n in edits]
        lines = [
            f'{i}. Replaced "{o[:50]}..." with "{n[:50]}..."' for i, (o, n) in enumerate(edits, 1)
        ]
        content = f"Applied {len(edits)} edits to {path}:\n" + "\n".join(lines)
        tur = {
            "filePath": path,
            "edits": eds,
            "originalFileContents": original,
            "structuredPatch": [],
            "userModified": False,
        }
        self.call(
            "MultiEdit",
            {"file_path": path, "edits": [{"old_string": o, "new_string": n} for o, n in edits]},
            _Res(content, tur),
        )
        s.track(rel)

    def write(self, rel: str, text: str, *, original: str | None = None) -> None:
        """Create a file, or overwrite ``original`` (an "update" in the sidecar)."""
        s = self.s
        path = s.abspath(rel)
        kind = "create" if original is None else "update"
        tur: JSON = {"type": kind, "filePath": path, "content": text, "structuredPatch": []}
        if s.fl.snapshots:
            tur["originalFile"] = original
        if original is None:
            msg = f"File created successfully at: {path}"
        else:
            msg = f"The file {path} has been updated successfully."
        self.call("Write", {"file_path": path, "content": text}, _Res(msg, tur))
        s.track(rel)

    def glob(self, pattern: str, files: Sequence[str]) -> None:
        s = self.s
        paths = [s.abspath(f) for f in files]
        tur = {
            "filenames": paths,
            "durationMs": s.r.randint(8, 400),
            "numFiles": len(paths),
            "truncated": False,
        }
        self.call("Glob", {"pattern": pattern}, _Res("\n".join(paths) or "No files found", tur))

    def grep(self, pattern: str, hits: Sequence[str], *, content: bool = False) -> None:
        s = self.s
        if content:
            text = "\n".join(hits)
            tur: JSON = {
                "mode": "content",
                "numFiles": 0,
                "filenames": [],
                "content": text,
                "numLines": len(hits),
            }
            inp: JSON = {"pattern": pattern, "output_mode": "content", "-n": True}
        else:
            paths = [s.abspath(h) for h in hits]
            text = f"Found {len(paths)} file{'s' if len(paths) != 1 else ''}\n" + "\n".join(paths)
            tur = {"mode": "files_with_matches", "filenames": paths, "numFiles": len(paths)}
            inp = {"pattern": pattern}
        self.call("Grep", inp, _Res(text, tur))


# ---------------------------------------------------------------------------------------------
# Command outputs


def _jest_pass(s: _Session, v: dict[str, str], suites: int) -> str:
    names = [f"src/components/__tests__/{c}.test.tsx" for c in _STACKS["ts"]["comps"]]
    names += [f"src/lib/__tests__/{lib}.test.ts" for lib in _STACKS["ts"]["libs"]]
    picked = [names[i % len(names)] for i in range(suites)]
    tests = sum(s.r.randint(2, 9) for _ in picked)
    body = "\n".join(f"PASS {n}" for n in picked)
    return (
        "\n"
        f"> {v['proj']}@0.1.0 test\n"
        "> jest\n"
        "\n"
        f"{body}\n"
        "\n"
        f"Test Suites: {suites} passed, {suites} total\n"
        f"Tests:       {tests} passed, {tests} total\n"
        "Snapshots:   0 total\n"
        f"Time:        {s.r.uniform(1.2, 9.5):.3f} s\n"
        "Ran all test suites."
    )


def _pytest_pass(s: _Session, v: dict[str, str], n: int, verbose: bool = False) -> str:
    secs = s.r.uniform(0.3, 12)
    if verbose:
        rows = []
        mods = _STACKS["py"]["mods"]
        for i in range(n):
            mod = mods[i % len(mods)]
            rows.append(
                f"tests/test_{mod}.py::test_{mod}_case_{i} "
                f"PASSED{' ' * 20}[{100 * (i + 1) // n:>3}%]"
            )
        bar = "=" * 30
        return (
            f"{bar} test session starts {bar}\ncollected {n} items\n\n"
            + "\n".join(rows)
            + f"\n\n{bar} {n} passed in {secs:.2f}s {bar}"
        )
    dots = "." * n
    chunks = [dots[i : i + 70] for i in range(0, n, 70)]
    return "\n".join(
        f"{c:<72}[{min(100, 100 * 70 * (k + 1) // n):>3}%]" for k, c in enumerate(chunks)
    ) + (f"\n{n} passed in {secs:.2f}s")


def _go_pass(s: _Session, v: dict[str, str]) -> str:
    mod = v["module"]
    lines = [
        f"ok  \t{mod}/internal/{p}\t{s.r.uniform(0.005, 2):.3f}s" for p in _STACKS["go"]["pkgs"]
    ]
    lines.insert(0, f"?   \t{mod}/cmd/{v['proj']}\t[no test files]")
    return "\n".join(lines)


def _git_log(s: _Session) -> str:
    return "\n".join(f"{s.hex(7)} {s.r.choice(s.pools.commits)}" for _ in range(s.r.randint(5, 15)))


def _git_status(s: _Session, files: Sequence[str]) -> str:
    mods = "\n".join(f"\tmodified:   {f}" for f in files)
    return (
        f"On branch {s.branch or 'main'}\nChanges not staged for commit:\n"
        '  (use "git add <file>..." to update what will be committed)\n'
        '  (use "git restore <file>..." to discard changes in working directory)\n'
        f"{mods}\n"
        "\n"
        'no changes added to commit (use "git add" and/or "git commit -a")'
    )


def _git_diff(s: _Session, rel: str, size: int) -> str:
    body = s.code(rel, size).split("\n")
    hunk = "\n".join(
        ("+" if i % 7 == 0 else "-" if i % 11 == 0 else " ") + line for i, line in enumerate(body)
    )
    return (
        f"diff --git a/{rel} b/{rel}\n"
        f"index {s.hex(7)}..{s.hex(7)} 100644\n"
        f"--- a/{rel}\n"
        f"+++ b/{rel}\n"
        f"@@ -1,{len(body)} +1,{len(body)} @@\n"
        f"{hunk}"
    )


def _ls(s: _Session, files: Sequence[str]) -> str:
    rows = [
        f"total {4 * len(files) + 8}",
        "drwxr-xr-x  6 dev dev  4096 Jan  5 09:12 .",
        "drwxr-xr-x 14 dev dev  4096 Jan  5 09:10 ..",
    ]
    for f in files:
        rows.append(
            f"-rw-r--r--  1 dev dev {s.r.randint(200, 40000):>5} Jan  {s.r.randint(1, 9)} "
            f"1{s.r.randint(0, 9)}:{s.r.randint(10, 59)} {f.rsplit('/', 1)[-1]}"
        )
    return "\n".join(rows)


def _build_log(s: _Session, size: int) -> str:
    v = s.vocab()
    paths = [s.code_path(v) for _ in range(16)]
    ids = s.pools.ids
    lines = []
    n = 0
    for i in range(size // 90 + 1):
        o = (i * 7919) % (len(ids) - 40)
        line = (
            f"[{i % 999 + 1:>3}/999] compiling {paths[i % 16]} ({i * 37 % 400 + 1} ms) "
            f"{ids[o : o + 32]}"
        )
        lines.append(line)
        n += len(line) + 1
        if n >= size:
            break
    return "\n".join(lines)


# How a symbol shows up in `rg -n` output, per language.
_USES = {
    "ts": ["import {{ {sym} }} from '@/lib/api';", "  const data = {sym}(query);"],
    "py": ["from .service import {sym}", "    result = {sym}(row)", "def {sym}(*args, **kwargs):"],
    "go": ["\tsvc := New{sym}(cfg)", "func (s *{sym}) Run(ctx context.Context) error {{"],
    "md": ["- `{sym}` is documented here"],
}


def _lead(t: _Thread, text: str, p: float = 0.3) -> None:
    """Sometimes say what the next tool call is for, as the assistant usually does."""
    if t.s.r.random() < p:
        t.say(text)


def _normal_bash(t: _Thread, v: dict[str, str]) -> None:
    s, r = t.s, t.s.r
    stack = s.p.stack
    k = r.random()
    files = [s.code_path(v) for _ in range(r.randint(1, 5))]
    sym = v["sym"]
    if r.random() < HUGE_BASH_RATE and s.room() > 3_000_000:
        _lead(t, "The build log should show where it slows down. Let me look at all of it.", 0.8)
        t.bash(
            "cat logs/build.log",
            _build_log(s, r.randint(300_000, 480_000)),
            "Show the full build log",
        )
    elif k < 0.12:
        _lead(t, "Let me check what has changed so far.")
        t.bash("git status", _git_status(s, files), "Show working tree status")
    elif k < 0.2:
        _lead(t, "Let me look at the recent history of this area.")
        t.bash(f"git log --oneline -{r.randint(5, 15)}", _git_log(s), "Show recent commits")
    elif k < 0.3:
        rel = files[0]
        _lead(t, f"Let me review the diff for `{rel}`.")
        size = r.randint(300, 900) if s.demo else r.randint(600, 6000)
        t.bash(f"git diff {rel}", _git_diff(s, rel, size), "Show diff")
    elif k < 0.38:
        d = files[0].rsplit("/", 1)[0]
        _lead(t, f"Let me see what else is in `{d}`.")
        t.bash(f"ls -la {d}", _ls(s, files), "List directory")
    elif k < 0.48:
        uses = _USES[_lang(files[0])]
        hits = [f"{f}:{r.randint(1, 300)}:{r.choice(uses).format(sym=sym)}" for f in files]
        _lead(t, f"Let me find everywhere `{sym}` is used.")
        t.bash(
            f'rg -n "{sym}" {"src" if stack == "ts" else "."}',
            "\n".join(hits),
            f"Find usages of {sym}",
        )
    elif stack == "ts":
        if k < 0.7:
            _lead(t, "Let me run the tests.")
            t.bash(
                "npm test",
                _jest_pass(s, v, r.randint(3, 8 if s.demo else 40)),
                "Run the test suite",
                long=True,
            )
        elif k < 0.85:
            _lead(t, "Type-checking to be safe.")
            t.bash("npx tsc --noEmit", "", "Type-check the project")
        else:
            t.bash(
                "npm run lint", f"\n> {v['proj']}@0.1.0 lint\n> eslint . --max-warnings=0\n", "Lint"
            )
    elif stack == "py":
        if k < 0.72:
            verbose = r.random() < 0.3 and not s.demo
            cmd = "python3 -m pytest -v" if verbose else "python3 -m pytest -q"
            n = r.randint(20, 60 if s.demo else 400)
            _lead(t, "Let me run the tests.")
            t.bash(cmd, _pytest_pass(s, v, n, verbose), "Run the test suite", long=True)
        elif k < 0.86:
            t.bash("ruff check .", "All checks passed!", "Lint with ruff")
        else:
            _lead(t, "Type-checking to be safe.")
            t.bash(
                f"mypy {v['pkg']}",
                f"Success: no issues found in {r.randint(12, 80)} source files",
                "Type-check",
            )
    else:
        if k < 0.72:
            _lead(t, "Let me run the tests.")
            t.bash("go test ./...", _go_pass(s, v), "Run all tests", long=True)
        elif k < 0.86:
            t.bash("go build ./...", "", "Build all packages")
        else:
            t.bash("go vet ./...", "", "Vet")


def _verify(t: _Thread, v: dict[str, str]) -> None:
    s, r = t.s, t.s.r
    files = sorted({s.code_path(v) for _ in range(r.randint(1, 3))})
    if r.random() < 0.4:
        t.bash("git status --short", "\n".join(f" M {f}" for f in files), "Show changed files")
    elif s.p.stack == "ts":
        t.bash("npm test", _jest_pass(s, v, r.randint(3, 8)), "Run the test suite", long=True)
    elif s.p.stack == "py":
        t.bash(
            "python3 -m pytest -q",
            _pytest_pass(s, v, r.randint(30, 90)),
            "Run the test suite",
            long=True,
        )
    else:
        t.bash("go test ./...", _go_pass(s, v), "Run all tests", long=True)


def _screenshot(t: _Thread) -> None:
    """An MCP screenshot: the only place images show up inside tool_result content."""
    s, r = t.s, t.s.r
    _lead(t, "Let me take a screenshot to see what the page looks like now.", 0.5)
    text = (
        "### Result\n"
        "- [Screenshot of viewport](.playwright-mcp/page.png)\n"
        "### Ran Playwright code\n"
        "// Screenshot viewport and save it as page.png\n"
        "await page.screenshot({ path: 'page.png' });\n"
    )
    n = 4 * (min(r.randint(30_000, 250_000), max(8_000, s.room() // 2)) // 4)
    o = 4 * r.randrange(0, (len(s.pools.b64) - n) // 4)
    image = {
        "type": "image",
        "source": {
            "data": "iVBORw0KGgoAAAANSUhEUgAA" + s.pools.b64[o : o + n],
            "media_type": "image/png",
            "type": "base64",
        },
    }
    # The sidecar is the same list: a third toolUseResult shape besides string and object.
    content = [{"type": "text", "text": text}, image]
    inp: JSON = {"type": "png", "filename": "page.png"}
    t.call("mcp__playwright__browser_take_screenshot", inp, _Res(content, content, image=True))


def _mcp(t: _Thread, v: dict[str, str]) -> None:
    s, r = t.s, t.s.r
    if r.random() < 0.5:
        num = r.randint(10, 900)
        _lead(t, f"Let me read issue #{num} first.", 0.5)
        issue = {
            "number": num,
            "title": f"{v['items']} page breaks on empty data",
            "state": "open",
            "body": "Steps to reproduce:\n1. Open the page with a fresh account\n2. See the error",
            "labels": [{"name": "bug"}],
            "user": {"login": "sam"},
            "comments": r.randint(0, 8),
        }
        content = [{"type": "text", "text": json.dumps(issue, indent=2, ensure_ascii=False)}]
        inp: JSON = {"owner": s.p.org, "repo": s.p.name, "issue_number": num}
        t.call("mcp__github__get_issue", inp, _Res(content, content))
        return
    _lead(t, "Let me check what is actually in the dev database.", 0.5)
    rows = "\n".join(
        f"| {i} | {s.hex(8)} | {r.randint(100, 99999)} |" for i in range(r.randint(3, 40))
    )
    content = [{"type": "text", "text": f"| id | ref | amount_cents |\n|---|---|---|\n{rows}"}]
    t.call(
        "mcp__postgres__query",
        {"sql": f"select id, ref, amount_cents from {v['items']} limit 40"},
        _Res(content, content),
    )


def _todo(t: _Thread, goal: str) -> None:
    s = t.s
    old = s.todos
    if not old or all(td["status"] == "completed" for td in old):
        new = [
            {
                "content": f"Reproduce: {goal}",
                "status": "in_progress",
                "activeForm": "Reproducing the problem",
            },
            {
                "content": "Implement the fix",
                "status": "pending",
                "activeForm": "Implementing the fix",
            },
            {
                "content": "Run the test suite",
                "status": "pending",
                "activeForm": "Running the test suite",
            },
        ]
    else:
        new = [dict(td) for td in old]
        for td in new:
            if td["status"] == "in_progress":
                td["status"] = "completed"
            elif td["status"] == "pending":
                td["status"] = "in_progress"
                break
    s.todos = new
    t.call("TodoWrite", {"todos": new}, _Res(_TODO_OK, {"oldTodos": old, "newTodos": new}))


def _normal_step(t: _Thread, v: dict[str, str], *, read_only: bool = False) -> None:
    s, r = t.s, t.s.r
    if r.random() < IMAGE_RATE and not s.demo:
        _screenshot(t)
        return
    k = r.random()
    if read_only:
        k = r.choice([0.1, 0.45, 0.45, 0.45, 0.78, 0.85])
    if k < 0.36:
        _normal_bash(t, v)
    elif k < 0.56:
        if r.random() < 0.12 and not s.demo:
            _lead(t, "Let me read the related files together.")
            calls = []
            for _ in range(r.randint(2, 4)):
                inp, res = t.read_call(s.code_path(v))
                calls.append(("Read", inp, res))
            t.parallel(calls)
        else:
            rel = s.code_path(v)
            _lead(
                t,
                r.choice(
                    [f"Let me look at `{rel}`.", f"Reading `{rel}` to see how it is structured."]
                ),
            )
            t.read(rel)
    elif k < 0.7:
        rel = r.choice(s.read_files) if s.read_files and r.random() < 0.8 else s.code_path(v)
        old, new = s.snippet(rel, r.randint(1, 4))
        _lead(t, f"I'll update `{rel}`.", 0.4)
        t.edit(rel, old, new)
    elif k < 0.76:
        rel = s.code_path(v).replace(".", "_new.", 1) if r.random() < 0.5 else s.code_path(v)
        _lead(t, f"Creating `{rel}`.", 0.4)
        t.write(rel, s.code(rel, r.randint(600, 7000)))
    elif k < 0.82:
        files = [s.code_path(v) for _ in range(r.randint(1, 8))]
        _lead(t, f"Searching for `{v['sym']}`.")
        t.grep(v["sym"], sorted(set(files)))
    elif k < 0.87:
        files = [s.code_path(v) for _ in range(r.randint(1, 12))]
        ext = "." + files[0].rsplit(".", 1)[-1]
        t.glob("**/*" + ext, sorted({f for f in files if f.endswith(ext)}))
    elif k < 0.89:
        _todo(t, v.get("items", "the task"))
    elif k < 0.9:
        rel = r.choice(s.read_files) if s.read_files else s.code_path(v)
        (a, a2), (b, b2) = s.snippet(rel, 1), s.snippet(rel, 2)
        t.multi_edit(rel, [(a, a2), (b, b2)])
    elif k < 0.92 and not s.demo:
        _mcp(t, v)
    else:
        _normal_bash(t, v)


# ---------------------------------------------------------------------------------------------
# Error scenarios: a failing call, then (usually) an explanation, a fix and a successful retry.
# Each returns the closing message for the turn.


def _sc_ts_map(t: _Thread, v: dict[str, str]) -> str:
    comp, items, item = v["comp"], v["items"], v["item"]
    jsx = "      {" + items + ".map((" + item + ") => ("
    fail = (
        "\n"
        f"> {v['proj']}@0.1.0 test\n"
        f"> jest {comp}\n"
        "\n"
        f"FAIL {v['test_file']}\n"
        f"  \u25cf {comp} \u203a shows an empty state when there are no {items}\n"
        "\n"
        "    TypeError: Cannot read properties of undefined (reading 'map')\n"
        "\n"
        "      40 |   return (\n"
        f'      41 |     <ul className="{comp.lower()}-list">\n'
        f"    > 42 | {jsx}\n"
        "         |               ^\n"
        f"      43 |         <li key={{{item}.id}}>{{{item}.{v['prop']}}}</li>\n"
        "      44 |       ))}\n"
        "\n"
        f"      at map (src/components/{comp}.tsx:42:15)\n"
        "      at renderWithHooks (node_modules/react-dom/cjs/react-dom.development.js:15486:18)\n"
        "      at mountIndeterminateComponent (node_modules/react-dom/cjs/react-dom.development.js"
        ":20103:13)\n"
        "\n"
        "Test Suites: 1 failed, 1 total\n"
        "Tests:       1 failed, 5 passed, 6 total\n"
        "Snapshots:   0 total\n"
        "Time:        2.184 s\n"
        f"Ran all test suites matching /{comp}/i."
    )
    t.say(f"Let me reproduce it with the {comp} tests first.")
    t.bash_err(f"npm test -- {comp}", 1, fail, f"Run the {comp} tests")
    t.say(
        f"`{items}` is `undefined` until the request resolves, and `{comp}` calls `.map` on it "
        "directly. I'll default it to an empty array so the empty state renders instead of "
        "crashing."
    )
    t.read(v["comp_file"], must=[jsx], size=2400)
    fixed = "      {(" + items + " ?? []).map((" + item + ") => ("
    t.edit(v["comp_file"], jsx, fixed)
    out = f"\n> {v['proj']}@0.1.0 test\n> jest {comp}\n\nPASS {v['test_file']}\n\n"
    out += "Test Suites: 1 passed, 1 total\nTests:       6 passed, 6 total\nSnapshots:   0 total\n"
    out += f"Time:        1.973 s\nRan all test suites matching /{comp}/i."
    t.bash(f"npm test -- {comp}", out, f"Re-run the {comp} tests")
    t.s.note(
        f"`TypeError: Cannot read properties of undefined (reading 'map')` in {comp}: fixed with "
        f"`({items} ?? [])`"
    )
    return (
        f"Fixed the crash in `{v['comp_file']}`: `{items}` is `undefined` while the request is in "
        f"flight, so the component now maps over `({items} ?? [])`. All 6 {comp} tests pass, "
        "including the empty-state case."
    )


def _sc_ts2339(t: _Thread, v: dict[str, str]) -> str:
    comp, typ, prop = v["comp"], v["Type"], v["prop"]
    fail = (
        f"src/components/{comp}.tsx(57,24): error TS2339: Property '{prop}' does not exist on type "
        f"'{typ}'.\n"
        f"src/hooks/use{v['Items']}.ts(31,18): error TS2339: Property '{prop}' does not exist on "
        f"type '{typ}'.\n"
        "\n"
        "Found 2 errors in 2 files.\n"
        "\n"
        "Errors  Files\n"
        f"     1  src/components/{comp}.tsx:57\n"
        f"     1  src/hooks/use{v['Items']}.ts:31"
    )
    t.bash_err("npx tsc --noEmit", 2, fail, "Type-check the project")
    t.say(
        f"The API now returns `{prop}`, but the `{typ}` interface in `{v['type_file']}` was never "
        "updated, so both call sites fail with TS2339. Adding it to the interface as an optional "
        "field."
    )
    old = f"  {v['other']}: {v['oty']};\n}}"
    t.read(
        v["type_file"],
        must=[f"export interface {typ} {{", "  id: string;", *old.split("\n")],
        size=1800,
    )
    t.edit(v["type_file"], old, f"  {v['other']}: {v['oty']};\n  {prop}?: {v['pty']};\n}}")
    t.bash("npx tsc --noEmit", "", "Re-run the type checker")
    t.s.note(
        f"`error TS2339: Property '{prop}' does not exist on type '{typ}'`: added `{prop}?` to "
        f"{v['type_file']}"
    )
    return (
        f"`tsc` is clean again. `{typ}` in `{v['type_file']}` now declares `{prop}?: {v['pty']}`. "
        "It is optional because older records don't have it, so callers should handle `undefined`."
    )


_TSCONFIG = """{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["dom", "dom.iterable", "esnext"],
    "strict": true,
    "noEmit": true,
    "module": "esnext",
    "moduleResolution": "bundler",
    "jsx": "preserve",
    "baseUrl": "."
  },
  "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx"],
  "exclude": ["node_modules"]
}
"""


def _sc_ts2307(t: _Thread, v: dict[str, str]) -> str:
    lib, comp = v["lib"], v["comp"]
    fail = (
        f"src/components/{comp}.tsx(4,28): error TS2307: Cannot find module '@/lib/{lib}' or its "
        "corresponding type declarations.\n"
        f"src/app/{v['items']}/page.tsx(2,22): error TS2307: Cannot find module '@/lib/{lib}' or "
        "its corresponding type declarations.\n"
        "\n"
        "Found 2 errors in 2 files."
    )
    t.bash_err("npx tsc --noEmit", 2, fail, "Type-check the project")
    t.say(
        "The imports use the `@/` alias, but `tsconfig.json` has no `paths` entry for it, so "
        f"TypeScript can't resolve `@/lib/{lib}` (TS2307). I'll add the mapping."
    )
    t.read("tsconfig.json", text=_TSCONFIG)
    t.edit(
        "tsconfig.json",
        '    "baseUrl": "."',
        '    "baseUrl": ".",\n    "paths": {\n      "@/*": ["./src/*"]\n    }',
        original=_TSCONFIG,
    )
    t.bash("npx tsc --noEmit", "", "Re-run the type checker")
    t.s.note(
        f"`error TS2307: Cannot find module '@/lib/{lib}'`: added `paths` alias to tsconfig.json"
    )
    return (
        'Added `"paths": {"@/*": ["./src/*"]}` to `tsconfig.json`. The `@/lib/...` imports resolve '
        "now and `tsc --noEmit` passes."
    )


_DND = [
    ("react-beautiful-dnd", "13.1.1", '"^16.8.5 || ^17.0.0 || ^18.0.0"', "@hello-pangea/dnd"),
    ("react-helmet", "6.1.0", '">=16.3.0 <19"', "react-helmet-async"),
    ("react-sortable-hoc", "2.0.0", '"^16.3.0 || ^17.0.0"', "@dnd-kit/sortable"),
]


def _sc_eresolve(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    dep, ver, peer, repl = s.r.choice(_DND)
    npm = v["npm"]
    stamp = _iso(s.ms).replace(":", "_").replace(".", "_")
    fail = "\n".join(
        f"{npm} {line}".rstrip()
        for line in [
            "code ERESOLVE",
            "ERESOLVE unable to resolve dependency tree",
            "",
            f"While resolving: {v['proj']}@0.1.0",
            "Found: react@19.0.0",
            "node_modules/react",
            '  react@"^19.0.0" from the root project',
            "",
            "Could not resolve dependency:",
            f"peer react@{peer} from {dep}@{ver}",
            f"node_modules/{dep}",
            f'  {dep}@"*" from the root project',
            "",
            "Fix the upstream dependency conflict, or retry",
            "this command with --force or --legacy-peer-deps",
            "to accept an incorrect (and potentially broken) dependency resolution.",
            "",
            "",
            "For a full report see:",
            f"/home/dev/.npm/_logs/{stamp}-eresolve-report.txt",
        ]
    )
    fail += (
        "\n"
        "\n"
        f"{npm} A complete log of this run can be found in: "
        f"/home/dev/.npm/_logs/{stamp}-debug-0.log"
    )
    t.bash_err(f"npm install {dep}", 1, fail, f"Install {dep}")
    t.say(
        f"`{dep}` declares a peer range that stops before React 19, so npm refuses to install it "
        f"(ERESOLVE). Rather than forcing it with `--legacy-peer-deps`, I'll use `{repl}`, the "
        "maintained drop-in replacement that supports React 19."
    )
    t.bash(
        f"npm install {repl}",
        "\n"
        "added 3 packages, and audited 412 packages in 4s\n"
        "\n"
        "98 packages are looking for funding\n"
        "  run `npm fund` for details\n"
        "\n"
        "found 0 vulnerabilities",
        f"Install {repl}",
    )
    old = f"import {{ DragDropContext, Droppable }} from '{dep}';"
    t.edit(v["comp_file"], old, old.replace(dep, repl))
    t.bash("npm test", _jest_pass(s, v, s.r.randint(3, 12)), "Run the test suite", long=True)
    s.note(f"`npm ERR! code ERESOLVE` installing {dep}: switched to {repl}")
    return (
        f"`{dep}` can't be installed next to React 19 (its peer range ends at 18), so I installed "
        f"`{repl}` instead and updated the import in `{v['comp_file']}`. Tests pass; no "
        "`--legacy-peer-deps` needed."
    )


_PKG_JSON = """{{
  "name": "{proj}",
  "version": "0.1.0",
  "private": true,
  "scripts": {{
    "dev": "next dev",
    "build": "next build",
    "test": "jest"
  }},
  "dependencies": {{
    "next": "14.2.3",
    "react": "19.0.0",
    "react-dom": "19.0.0"
  }},
  "devDependencies": {{
    "eslint": "^8.57.0",
    "eslint-config-next": "14.2.3",
    "jest": "^29.7.0",
    "typescript": "^5.4.5"
  }}
}}
"""


def _sc_missing_script(t: _Thread, v: dict[str, str]) -> str:
    npm = v["npm"]
    fail = (
        f'{npm} Missing script: "lint"\n{npm}\n{npm} To see a list of scripts, run:\n{npm}   '
        "npm run\n"
        "\n"
        f"{npm} A complete log of this run can be found in: "
        f"/home/dev/.npm/_logs/{_iso(t.s.ms)[:10]}T09_41_07_512Z-debug-0.log"
    )
    t.bash_err("npm run lint", 1, fail, "Lint the project")
    t.say(
        "There is no `lint` script in `package.json` yet. I'll add one that runs ESLint with zero "
        "warnings allowed."
    )
    pkg = _PKG_JSON.format(proj=v["proj"])
    t.read("package.json", text=pkg)
    t.edit(
        "package.json",
        '    "test": "jest"',
        '    "test": "jest",\n    "lint": "eslint . --max-warnings=0"',
        original=pkg,
    )
    t.bash(
        "npm run lint",
        f"\n> {v['proj']}@0.1.0 lint\n> eslint . --max-warnings=0\n",
        "Lint the project",
    )
    t.s.note('`npm ERR! Missing script: "lint"`: added the script to package.json')
    return (
        'Added `"lint": "eslint . --max-warnings=0"` to `package.json`; `npm run lint` runs clean.'
    )


def _sc_enoent_env(t: _Thread, v: dict[str, str]) -> str:
    cwd = v["cwd"]
    fail = (
        "\n"
        f"> {v['proj']}@0.1.0 db:seed\n"
        "> node scripts/seed.mjs\n"
        "\n"
        "node:internal/fs/utils:356\n"
        "    throw err;\n"
        "    ^\n"
        "\n"
        f"Error: ENOENT: no such file or directory, open '{cwd}/.env.local'\n"
        "    at Object.openSync (node:fs:596:3)\n"
        "    at Object.readFileSync (node:fs:464:35)\n"
        f"    at loadEnv (file://{cwd}/scripts/seed.mjs:8:22)\n"
        f"    at file://{cwd}/scripts/seed.mjs:14:1\n"
        "    at ModuleJob.run (node:internal/modules/esm/module_job:234:25) {\n"
        "  errno: -2,\n"
        "  code: 'ENOENT',\n"
        "  syscall: 'open',\n"
        f"  path: '{cwd}/.env.local'\n"
        "}\n"
        "\n"
        "Node.js v20.11.1"
    )
    t.bash_err("npm run db:seed", 1, fail, "Seed the local database")
    t.say(
        "The seed script reads `.env.local` unconditionally, and a fresh clone only has "
        "`.env.example`, hence the ENOENT. I'll make it fall back to `.env.example`."
    )
    old = "  const raw = readFileSync(new URL('../.env.local', import.meta.url), 'utf8');"
    new = (
        "  const local = new URL('../.env.local', import.meta.url);\n"
        "  const file = existsSync(local) ? local : new URL('../.env.example', import.meta.url);\n"
        "  const raw = readFileSync(file, 'utf8');"
    )
    t.read("scripts/seed.mjs", must=["function loadEnv() {", old], size=1400)
    t.edit("scripts/seed.mjs", old, new)
    t.bash(
        "npm run db:seed",
        "\n"
        f"> {v['proj']}@0.1.0 db:seed\n"
        "> node scripts/seed.mjs\n"
        "\n"
        f"Seeded 140 rows into {v['items']}.",
        "Seed the local database",
    )
    t.s.note(
        "`Error: ENOENT: no such file or directory, open '.env.local'` in db:seed: fall back to "
        ".env.example"
    )
    return (
        "`npm run db:seed` works on a fresh clone now: `scripts/seed.mjs` falls back to "
        "`.env.example` when `.env.local` is missing."
    )


def _sc_eslint(t: _Thread, v: dict[str, str]) -> str:
    hook, items = v["hook_file"], v["Items"]
    fail = (
        "\n"
        f"> {v['proj']}@0.1.0 lint\n"
        "> eslint . --max-warnings=0\n"
        "\n"
        f"{v['cwd']}/{hook}\n"
        "   3:21  error    'useMemo' is defined but never used  "
        "@typescript-eslint/no-unused-vars\n"
        f"  27:6   warning  React Hook useEffect has a missing dependency: 'fetch{items}'. Either "
        "include it or remove the dependency array  react-hooks/exhaustive-deps\n"
        "\n"
        "\u2716 2 problems (1 error, 1 warning)\n"
        "\n"
        "ESLint found too many warnings (maximum: 0)."
    )
    if t.s.r.random() < 0.4 and not t.s.demo:
        sib = "<tool_use_error>Sibling tool call errored</tool_use_error>"
        text = f"Exit code 1\n{fail}" if t.s.fl.exit_prefix else fail
        t.parallel(
            [
                ("Bash", {"command": "npm run lint", "description": "Lint"}, _fail(text)),
                (
                    "Bash",
                    {"command": "npm test", "description": "Run tests"},
                    _fail(sib, "Sibling tool call errored"),
                ),
            ]
        )
    else:
        t.bash_err("npm run lint", 1, fail, "Lint the project")
    t.say(
        f"Two lint problems in `{hook}`: an unused `useMemo` import, and `fetch{items}` missing "
        "from the `useEffect` dependency list. Fixing both."
    )
    imp = "import { useEffect, useMemo, useState } from 'react';"
    dep_old = "  }, []);"
    t.read(hook, must=[imp, f"  useEffect(() => {{\n    fetch{items}();\n{dep_old}"], size=1600)
    t.multi_edit(
        hook,
        [
            (imp, "import { useEffect, useState } from 'react';"),
            (dep_old, f"  }}, [fetch{items}]);"),
        ],
    )
    t.bash(
        "npm run lint",
        f"\n> {v['proj']}@0.1.0 lint\n> eslint . --max-warnings=0\n",
        "Lint the project",
    )
    t.s.note(f"eslint `no-unused-vars` and `react-hooks/exhaustive-deps` in {hook}: fixed")
    return (
        f"Lint is clean: removed the unused `useMemo` import and added `fetch{items}` to the "
        f"effect's dependencies in `{hook}`."
    )


def _sc_eaddrinuse(t: _Thread, v: dict[str, str]) -> str:
    fail = (
        "\n"
        f"> {v['proj']}@0.1.0 dev\n"
        "> next dev\n"
        "\n"
        "Error: listen EADDRINUSE: address already in use :::3000\n"
        "    at Server.setupListenHandle [as _listen2] (node:net:1872:16)\n"
        "    at listenInCluster (node:net:1920:12)\n"
        "    at Server.listen (node:net:2008:7) {\n"
        "  code: 'EADDRINUSE',\n"
        "  errno: -98,\n"
        "  syscall: 'listen',\n"
        "  address: '::',\n"
        "  port: 3000\n"
        "}"
    )
    t.bash_err("npm run dev", 1, fail, "Start the dev server")
    pid = str(t.s.r.randint(20000, 60000))
    t.say(
        "Something is already listening on port 3000, probably a dev server from an earlier run. "
        "Let me find it."
    )
    t.bash("lsof -ti tcp:3000", pid, "Find the process on port 3000")
    t.bash(f"kill {pid}", "", "Stop the stale dev server")
    t.bash(
        "npm run dev",
        "\n"
        f"> {v['proj']}@0.1.0 dev\n"
        "> next dev\n"
        "\n"
        "  \u25b2 Next.js 14.2.3\n"
        "  - Local:        http://localhost:3000\n"
        "\n"
        " \u2713 Ready in 2.1s",
        "Start the dev server",
        long=True,
    )
    t.s.note(f"`EADDRINUSE: address already in use :::3000`: killed stale process {pid}")
    return (
        f"Port 3000 was held by a stale dev server (pid {pid}); I stopped it and `npm run dev` is "
        "up at http://localhost:3000."
    )


_PYPROJECT = """[project]
name = "{proj}"
version = "0.4.0"
requires-python = ">=3.11"
dependencies = [
    "fastapi>=0.110",
    "pydantic>=2.6",
    "sqlalchemy>=2.0",
    "uvicorn[standard]>=0.29",
]

[project.optional-dependencies]
test = ["pytest>=8", "httpx>=0.27", "mypy>=1.9", "ruff>=0.4"]
"""


def _sc_module_not_found(t: _Thread, v: dict[str, str]) -> str:
    cwd, pkg, miss = v["cwd"], v["pkg"], v["miss_mod"]
    fail = (
        "Traceback (most recent call last):\n"
        '  File "<frozen runpy>", line 198, in _run_module_as_main\n'
        '  File "<frozen runpy>", line 88, in _run_code\n'
        f'  File "{cwd}/{pkg}/main.py", line 5, in <module>\n'
        f"    from {pkg}.settings import settings\n"
        f'  File "{cwd}/{pkg}/settings.py", line 3, in <module>\n'
        f"    {v['miss_import']}\nModuleNotFoundError: No module named '{miss}'"
    )
    t.bash_err(f"python3 -m {pkg}.main", 1, fail, "Start the app")
    dist = v["miss_dist"].split(">")[0]
    t.say(
        f"`{pkg}/settings.py` imports `{miss}`, which comes from the `{dist}` distribution, but it "
        "isn't declared in `pyproject.toml`, so a fresh virtualenv doesn't have it. Adding the "
        "dependency."
    )
    pyproject = _PYPROJECT.format(proj=v["proj"])
    t.read("pyproject.toml", text=pyproject)
    t.edit(
        "pyproject.toml",
        '    "pydantic>=2.6",',
        f'    "pydantic>=2.6",\n    "{v["miss_dist"]}",',
        original=pyproject,
    )
    t.bash(
        "pip install -e '.[test]'",
        f"Obtaining file://{cwd}\n"
        "  Installing build dependencies ... done\n"
        f"Successfully installed {dist}-2.9.0 {v['proj']}-0.4.0",
        "Install the project",
        long=True,
    )
    t.bash(
        f"python3 -m {pkg}.main",
        "INFO:     Started server process [48311]\n"
        "INFO:     Waiting for application startup.\n"
        "INFO:     Application startup complete.\n"
        "INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)",
        "Start the app",
        long=True,
    )
    t.s.note(
        f"`ModuleNotFoundError: No module named '{miss}'`: added {v['miss_dist']} to pyproject.toml"
    )
    return (
        f"The app starts now. `{miss}` was imported but never declared; I added `{v['miss_dist']}` "
        "to `pyproject.toml` and reinstalled."
    )


_MAKEFILE = """.PHONY: test lint run

test:
\tpython -m pytest -q

lint:
\truff check .
\tmypy {pkg}

run:
\tuvicorn {pkg}.main:app --reload
"""


def _sc_python_127(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    msg = (
        "(eval):1: command not found: python"
        if s.p.shell_zsh
        else "/bin/bash: line 1: python: command not found"
    )
    t.bash_err("python -m pytest -q", 127, msg, "Run the tests")
    t.say(
        "There's no `python` on PATH here, only `python3`. The Makefile has the same problem, so "
        "I'll fix it there too."
    )
    mk = _MAKEFILE.format(pkg=v["pkg"])
    t.read("Makefile", text=mk)
    t.edit("Makefile", "\tpython -m pytest -q", "\tpython3 -m pytest -q", original=mk)
    t.bash(
        "make test",
        "python3 -m pytest -q\n" + _pytest_pass(s, v, s.r.randint(30, 200)),
        "Run the tests",
        long=True,
    )
    s.note("`python: command not found` (exit 127): use python3, fixed the Makefile")
    return (
        "The suite passes. `python` isn't installed here (exit 127), so the Makefile now calls "
        "`python3 -m pytest`."
    )


def _sc_pytest_fail(t: _Thread, v: dict[str, str]) -> str:
    fn, mod = v["fn"], v["mod"]
    fail = (
        "..F....                                                                  [100%]\n"
        "=================================== FAILURES ===================================\n"
        f"_____________________________ test_{fn}_rounds_half_up _____________________________\n"
        "\n"
        f"    def test_{fn}_rounds_half_up():\n"
        f">       assert {fn}({v['call']}) == {v['want']}\n"
        f"E       AssertionError: assert {v['got']} == {v['want']}\n"
        f"E        +  where {v['got']} = {fn}({v['call']})\n"
        "\n"
        f"tests/test_{mod}.py:{t.s.r.randint(20, 90)}: AssertionError\n"
        "=========================== short test summary info ============================\n"
        f"FAILED tests/test_{mod}.py::test_{fn}_rounds_half_up - AssertionError: assert {v['got']} "
        f"== {v['want']}\n"
        "1 failed, 6 passed in 0.42s"
    )
    t.bash_err(f"python3 -m pytest {v['test_file']} -q", 1, fail, f"Run the {mod} tests")
    t.say(
        f"`{fn}` does plain float arithmetic and truncates, so `{fn}({v['call']})` gives "
        f"{v['got']} instead of {v['want']}. Money should go through `Decimal` with "
        "`ROUND_HALF_UP`."
    )
    old = f"    return {v['arg']} * 100 if isinstance({v['arg']}, int) else int({v['arg']} * 100)"
    new = (
        f'    return int((Decimal(str({v["arg"]})) * 100).quantize(Decimal("1"), '
        "rounding=ROUND_HALF_UP))"
    )
    t.read(v["mod_file"], must=[f"def {fn}({v['arg']}):", old], size=2600)
    t.edit(v["mod_file"], old, new)
    t.bash(
        f"python3 -m pytest {v['test_file']} -q",
        ".......                                                                  [100%]\n7 passed "
        "in 0.39s",
        f"Re-run the {mod} tests",
    )
    t.s.note(
        f"pytest `AssertionError: assert {v['got']} == {v['want']}` in test_{fn}: Decimal rounding"
    )
    return (
        f"`{fn}` now rounds with `Decimal(...).quantize(..., ROUND_HALF_UP)`; all 7 tests in "
        f"`{v['test_file']}` pass."
    )


def _sc_attr_none(t: _Thread, v: dict[str, str]) -> str:
    mod, cls, attr = v["mod"], v["Cls"], v["attr"]
    lower = cls.lower()
    fail = (
        "....F...........                                                         [100%]\n"
        "=================================== FAILURES ===================================\n"
        f"_________________________ test_export_skips_missing_{lower} __________________________\n"
        "\n"
        f"    def test_export_skips_missing_{lower}(client):\n"
        f'>       resp = client.get("/{mod}/export?{lower}_id=999")\n\n'
        f"tests/test_{mod}.py:58: \n"
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
        f'{v["pkg"]}/{mod}.py:112: in export_{mod}\n    row["{attr}"] = {lower}.{attr}\n'
        f"E   AttributeError: 'NoneType' object has no attribute '{attr}'\n"
        "=========================== short test summary info ============================\n"
        f"FAILED tests/test_{mod}.py::test_export_skips_missing_{lower} - AttributeError: "
        f"'NoneType' object has no attribute '{attr}'\n"
        "1 failed, 15 passed in 1.12s"
    )
    t.bash_err(f"python3 -m pytest {v['test_file']} -q", 1, fail, f"Run the {mod} tests")
    t.say(
        f"`session.get({cls}, ...)` returns `None` for an unknown id and the export uses it "
        "unchecked. Returning 404 instead."
    )
    old = f'    {lower} = session.get({cls}, {lower}_id)\n    row["{attr}"] = {lower}.{attr}'
    new = (
        f"    {lower} = session.get({cls}, {lower}_id)\n    if {lower} is None:\n"
        f'        raise HTTPException(status_code=404, detail="{lower} not found")\n    '
        f'row["{attr}"] = {lower}.{attr}'
    )
    t.read(v["mod_file"], must=old.split("\n"), size=3000)
    t.edit(v["mod_file"], old, new)
    t.bash(
        f"python3 -m pytest {v['test_file']} -q",
        "................                                                         [100%]\n16 "
        "passed in 1.04s",
        f"Re-run the {mod} tests",
    )
    t.s.note(
        f"`AttributeError: 'NoneType' object has no attribute '{attr}'` in export_{mod}: 404 on "
        f"missing {lower}"
    )
    return f"A missing {lower} now gives a 404 instead of an `AttributeError`; all 16 tests pass."


def _sc_mypy(t: _Thread, v: dict[str, str]) -> str:
    cls, attr, mod, pkg = v["Cls"], v["attr"], v["mod"], v["pkg"]
    lower = cls.lower()
    n = t.s.r.randint(20, 60)
    fail = (
        f'{pkg}/{mod}.py:88: error: Item "None" of "{cls} | None" has no attribute "{attr}"  '
        f"[union-attr]\nFound 1 error in 1 file (checked {n} source files)"
    )
    t.bash_err(f"mypy {pkg}", 1, fail, "Type-check")
    t.say(
        f"`find_{lower}` can return `None`, and line 88 uses `.{attr}` without checking. Adding a "
        "guard."
    )
    old = f'    {lower} = find_{lower}(session, {lower}_id)\n    row["{attr}"] = {lower}.{attr}'
    new = (
        f"    {lower} = find_{lower}(session, {lower}_id)\n    if {lower} is None:\n"
        f'        raise {cls}NotFound({lower}_id)\n    row["{attr}"] = {lower}.{attr}'
    )
    t.read(v["mod_file"], must=old.split("\n"), size=2200)
    t.edit(v["mod_file"], old, new)
    t.bash(f"mypy {pkg}", f"Success: no issues found in {n} source files", "Type-check")
    t.s.note(
        f'mypy `Item "None" of "{cls} | None" has no attribute "{attr}"  [union-attr]`: added a '
        "None guard"
    )
    return (
        f"mypy is clean. `{v['mod_file']}` now raises `{cls}NotFound` when the lookup returns "
        "`None`."
    )


def _sc_psql(t: _Thread, v: dict[str, str]) -> str:
    fail = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/.venvs/app/bin/alembic", line 8, in <module>\n    sys.exit(main())\n'
        "  ...\nsqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: "
        "connection to "
        'server at "127.0.0.1", port 5432 failed: Connection refused\n'
        "\tIs the server running on that host and accepting TCP/IP connections?\n(Background on "
        "this error at: https://sqlalche.me/e/20/e3q8)"
    )
    t.bash_err("alembic upgrade head", 1, fail, "Apply migrations")
    t.say(
        "Postgres isn't running: nothing is listening on 5432. The compose file has a `db` "
        "service; starting it."
    )
    t.bash(
        "docker compose up -d db",
        f" Network {v['proj']}_default  Created\n Container {v['proj']}-db-1  Started",
        "Start Postgres",
        long=True,
    )
    t.bash(
        "alembic upgrade head",
        "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\n"
        "INFO  [alembic.runtime.migration] Will assume transactional DDL.\n"
        "INFO  [alembic.runtime.migration] Running upgrade 3f1c2a9b7d10 -> 8e2d41f0c6aa, add "
        f"{v['mod']} index",
        "Apply migrations",
    )
    t.s.note(
        '`connection to server at "127.0.0.1", port 5432 failed: Connection refused`: docker '
        "compose up -d db"
    )
    return (
        "Migrations are applied. The failure was just Postgres not running; `docker compose up -d "
        "db` starts it."
    )


def _sc_precommit(t: _Thread, v: dict[str, str]) -> str:
    mod_file = v["mod_file"]
    msg = f"Add {v['mod']} export"
    fail = (
        "trim trailing whitespace.................................................Passed\n"
        "ruff.....................................................................Failed\n"
        "- hook id: ruff\n"
        "- exit code: 1\n"
        "\n"
        f"{mod_file}:3:8: F401 [*] `os` imported but unused\n"
        "Found 1 error.\n"
        "[*] 1 fixable with the `--fix` option.\n"
        "\n"
        "ruff-format..............................................................Passed"
    )
    t.bash_err(f'git commit -am "{msg}"', 1, fail, "Commit")
    t.say(
        f"The ruff pre-commit hook rejected the commit: `import os` in `{mod_file}` is unused "
        "(F401). Removing it."
    )
    t.edit(mod_file, "import json\nimport os\n", "import json\n")
    t.bash(
        f'git commit -am "{msg}"',
        "trim trailing whitespace.................................................Passed\n"
        "ruff.....................................................................Passed\n"
        "ruff-format..............................................................Passed\n"
        f"[{v['branch']} {t.s.hex(7)}] {msg}\n"
        " 2 files changed, 41 insertions(+), 6 deletions(-)",
        "Commit",
    )
    t.s.note(
        f"pre-commit ruff `F401 [*] \\`os\\` imported but unused` in {mod_file}: removed import"
    )
    return f"Committed on `{v['branch']}` after removing the unused `os` import that ruff flagged."


def _sc_go_undefined(t: _Thread, v: dict[str, str]) -> str:
    gofile, ident, pkg = v["gofile"], v["ident"], v["gopkg"]
    fail = f"# {v['module']}/internal/{pkg}\n{gofile}:57:14: undefined: {ident}"
    t.bash_err("go build ./...", 1, fail, "Build all packages")
    t.say(
        f"`{ident}` was removed from `internal/{pkg}` in the last refactor but `{gofile}` still "
        "uses it. I'll restore it as a package-level value."
    )
    old = 'var errRetriesExhausted = errors.New("retries exhausted")'
    t.read(gofile, must=[old], size=2600)
    t.edit(gofile, old, old + f"\n\nvar {ident} = 30 * time.Second")
    t.bash("go build ./...", "", "Build all packages")
    t.s.note(f"go build `undefined: {ident}` in {gofile}: restored the declaration")
    return f"`go build ./...` succeeds; `{ident}` is declared again in `{gofile}`."


def _sc_go_test(t: _Thread, v: dict[str, str]) -> str:
    pkg, name, mod = v["gopkg"], v["Name"], v["module"]
    fail = (
        f"--- FAIL: Test{name}Backoff (0.00s)\n"
        f"    --- FAIL: Test{name}Backoff/zero_attempts (0.00s)\n"
        f"        {pkg}_test.go:48: backoff(0) = 1s, want 0s\n"
        "FAIL\n"
        f"FAIL\t{mod}/internal/{pkg}\t0.014s\n"
        "FAIL"
    )
    t.bash_err(f"go test ./internal/{pkg}/...", 1, fail, f"Test {pkg}")
    t.say(
        "`backoff(0)` should not wait at all before the first attempt, but it returns the base "
        "delay. Fixing the off-by-one."
    )
    old = "\treturn s.cfg.Backoff * time.Duration(1<<attempt)"
    new = (
        "\tif attempt == 0 {\n"
        "\t\treturn 0\n"
        "\t}\n"
        "\treturn s.cfg.Backoff * time.Duration(1<<(attempt-1))"
    )
    t.read(
        v["gofile"],
        must=[f"func (s *{name}Service) backoff(attempt int) time.Duration {{", old, "}"],
        size=2400,
    )
    t.edit(v["gofile"], old, new)
    t.bash(f"go test ./internal/{pkg}/...", f"ok  \t{mod}/internal/{pkg}\t0.012s", f"Test {pkg}")
    t.s.note(f"go test `--- FAIL: Test{name}Backoff` backoff(0) = 1s: off-by-one fixed")
    return (
        f"`Test{name}Backoff` passes: `backoff(0)` now returns 0 and later attempts double from "
        "the base delay."
    )


def _sc_go_vet(t: _Thread, v: dict[str, str]) -> str:
    gofile = v["gofile"]
    fail = f"# {v['module']}/internal/{v['gopkg']}\n{gofile}:31:2: declared and not used: resp"
    t.bash_err("go vet ./...", 1, fail, "Vet")
    t.say(
        "`resp` is assigned but never used, which Go rejects. The status check was meant to use it."
    )
    old = "\tresp, err := s.client.Do(req)\n\tif err != nil {\n\t\treturn err\n\t}"
    new = old + (
        "\n\tdefer resp.Body.Close()\n\tif resp.StatusCode >= 300 {\n\t\treturn "
        'fmt.Errorf("upstream: %s", resp.Status)\n\t}'
    )
    t.edit(gofile, old, new)
    t.bash("go vet ./...", "", "Vet")
    t.s.note("go vet `declared and not used: resp`: check the status code")
    return "`go vet` is clean; the response status is checked and the body closed."


def _sc_git_upstream(t: _Thread, v: dict[str, str]) -> str:
    br = v["branch"] if v["branch"] != "main" else "feature/empty-state"
    fail = (
        f"fatal: The current branch {br} has no upstream branch.\n"
        "To push the current branch and set the remote as upstream, use\n"
        "\n"
        f"    git push --set-upstream origin {br}\n"
        "\n"
        "To have this happen automatically for branches without a tracking\n"
        "upstream, see 'push.autoSetupRemote' in 'git help config'.\n"
    )
    t.bash_err("git push", 128, fail, "Push the branch")
    t.say("The branch has never been pushed, so it has no upstream. Pushing with `-u` to set it.")
    out = (
        "remote: \n"
        f"remote: Create a pull request for '{br}' on GitHub by visiting:\n"
        f"remote:      https://github.com/{v['org']}/{v['proj']}/pull/new/{br}\n"
        "remote: \n"
        f"To github.com:{v['org']}/{v['proj']}.git\n"
        f" * [new branch]      {br} -> {br}\n"
        f"branch '{br}' set up to track 'origin/{br}'."
    )
    t.bash(f"git push -u origin {br}", out, "Push and set upstream")
    num = t.s.r.randint(40, 400)
    t.bash(
        f"gh pr create --fill --base main --head {br}",
        f"https://github.com/{v['org']}/{v['proj']}/pull/{num}",
        "Open a PR",
    )
    t.s.note(
        f"`fatal: The current branch {br} has no upstream branch` (exit 128): git push -u origin "
        f"{br}"
    )
    return (
        f"Pushed `{br}` with upstream tracking and opened "
        f"https://github.com/{v['org']}/{v['proj']}/pull/{num}."
    )


def _sc_timeout(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    stack = s.p.stack
    if stack == "py":
        cmd, narrow = "python3 -m pytest", 'python3 -m pytest -m "not integration" -q'
        partial = "tests/integration/test_sync.py::test_full_sync "
        ok = _pytest_pass(s, v, s.r.randint(60, 300))
    elif stack == "go":
        cmd, narrow = "go test ./...", "go test -short ./..."
        partial = f"ok  \t{v['module']}/internal/config\t0.004s\n=== RUN   TestIntegrationSync"
        ok = _go_pass(s, v)
    else:
        cmd, narrow = "npm run test:e2e", "npm test"
        partial = (
            "\n"
            f"> {v['proj']}@0.1.0 test:e2e\n"
            "> playwright test\n"
            "\n"
            "Running 24 tests using 2 workers\n"
        )
        ok = _jest_pass(s, v, s.r.randint(5, 20))
    t.bash_err(
        cmd, 143, f"Command timed out after 2m 0s\n{partial}", "Run the full test suite", long=True
    )
    t.say(
        "The integration tests wait on services that aren't running here and hit the 2-minute "
        "limit. Running the unit tests on their own."
    )
    t.bash(narrow, ok, "Run the unit tests", long=True)
    s.note(f"`Command timed out after 2m 0s` (exit 143) running `{cmd}`: ran `{narrow}` instead")
    return (
        f"Unit tests pass (`{narrow}`). The full `{cmd}` needs the integration services; it timed "
        "out after 2 minutes here."
    )


def _sc_read_missing(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    real = s.code_path(v)
    name = real.rsplit("/", 1)[-1]
    guess = ("lib/" if not real.startswith("lib/") else "src/") + name
    t.fail(
        "Read",
        {"file_path": s.abspath(guess)},
        "<tool_use_error>File does not exist.</tool_use_error>",
    )
    t.say(f"Wrong path for `{name}`; let me find it.")
    t.glob(f"**/{name}", [real])
    t.read(real)
    s.note(f"Read `File does not exist.` for {guess}: the file is at {real}")
    return f"Found it at `{real}`."


def _sc_read_dir(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    real = s.code_path(v)
    d = real.rsplit("/", 1)[0]
    t.fail("Read", {"file_path": s.abspath(d)}, "EISDIR: illegal operation on a directory, read")
    t.say(f"`{d}` is a directory. Listing it to pick the right file.")
    files = sorted({real, *(s.code_path(v) for _ in range(3))})
    t.glob(f"{d}/*", [f for f in files if f.startswith(d)] or [real])
    t.read(real)
    s.note(f"`EISDIR: illegal operation on a directory, read` on {d}: read {real} instead")
    return f"Read `{real}` (the earlier read pointed at the directory `{d}`)."


def _sc_read_too_large(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    big = {
        "ts": "public/build/app.js",
        "py": "tests/fixtures/large_export.json",
        "go": "testdata/events.ndjson",
    }
    rel = big[s.p.stack]
    if s.r.random() < 0.5:
        msg = (
            f"<tool_use_error>File content ({s.r.randint(300, 990)}.{s.r.randint(0, 9)}KB) exceeds "
            f"maximum allowed size (256KB). {_TOO_BIG}</tool_use_error>"
        )
    else:
        msg = (
            f"File content ({s.r.randint(26000, 99000)} tokens) exceeds maximum allowed tokens "
            f"(25000). {_TOO_BIG}"
        )
    t.fail("Read", {"file_path": s.abspath(rel)}, msg)
    t.say("Too big to read whole. Searching for the relevant part and reading just that range.")
    ln = s.r.randint(200, 3000)
    t.grep(v["sym"], [f"{s.abspath(rel)}:{ln}:{v['sym']}"], content=True)
    text = s.code(rel, 40000)
    lines = text.count("\n")
    off = min(ln, max(1, lines - 80))
    t.read(rel, text=text, offset=off, limit=80)
    s.note(f"Read `exceeds maximum allowed` on {rel}: used Grep then offset/limit")
    return f"`{rel}` is too large to read at once, so I read only the 80 lines around `{v['sym']}`."


def _sc_edit_not_found(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    rel = s.code_path(v)
    actual, new = s.snippet(rel, 3)
    stale = actual.replace("  ", "    ", 1) if "  " in actual else actual.replace("\t", "    ", 1)
    if stale == actual:
        stale = actual.replace(" ", "  ", 1)
    t.fail(
        "Edit",
        {"file_path": s.abspath(rel), "old_string": stale, "new_string": new},
        f"<tool_use_error>String to replace not found in file.\nString: {stale}</tool_use_error>",
    )
    t.say(
        "The file was reformatted since I last read it, so my `old_string` no longer matches. "
        f"Re-reading `{rel}`."
    )
    original = s.code(rel, 2400, actual.split("\n"))
    t.read(rel, text=original)
    t.edit(rel, actual, new, original=original)
    s.note(f"Edit `String to replace not found in file.` on {rel}: re-read, then edited")
    return f"Updated `{rel}` (the first attempt used stale indentation)."


def _sc_not_read(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    rel = s.code_path(v)
    old, new = s.snippet(rel, 2)
    original = s.code(rel, 2000, [old])
    msg = (
        "<tool_use_error>File has not been read yet. Read it first before writing to "
        "it.</tool_use_error>"
    )
    # Retry with the tool that failed, once the file has been read.
    if s.r.random() < 0.4:
        updated = original.replace(old, new, 1)
        t.fail("Write", {"file_path": s.abspath(rel), "content": updated}, msg)
        t.read(rel, text=original)
        t.write(rel, updated, original=original)
        s.note(f"Write `File has not been read yet` on {rel}: read it first")
    else:
        t.fail("Edit", {"file_path": s.abspath(rel), "old_string": old, "new_string": new}, msg)
        t.read(rel, text=original)
        t.edit(rel, old, new, original=original)
        s.note(f"Edit `File has not been read yet` on {rel}: read it first")
    return f"Updated `{rel}`."


def _sc_input_validation(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    if s.r.random() < 0.5:
        name, missing = "Task", "prompt"
        inp: JSON = {
            "subagent_type": "general-purpose",
            "description": f"Explore {v['items']} handling",
        }
    else:
        name, missing = "Edit", "old_string"
        inp = {"file_path": s.abspath(s.code_path(v)), "new_string": "// TODO"}
    raw = (
        "[\n"
        "  {\n"
        '    "code": "invalid_type",\n'
        '    "expected": "string",\n'
        '    "received": "undefined",\n'
        '    "path": [\n'
        f'      "{missing}"\n'
        "    ],\n"
        '    "message": "Required"\n'
        "  }\n"
        "]"
    )
    t.fail(
        name,
        inp,
        f"<tool_use_error>InputValidationError: {name} failed due to the following issue:\nThe "
        f"required parameter `{missing}` is missing</tool_use_error>",
        "InputValidationError: " + raw,
    )
    s.note(
        f"`InputValidationError: The required parameter \\`{missing}\\` is missing` calling {name}"
    )
    if name == "Task":
        _task(t, v, f"Explore {v['items']} handling")
    else:
        _sc_not_read(t, v)
    return ""


def _sc_permission(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    rel = "CLAUDE.md"
    text = s.code(rel, 1500)
    t.fail(
        "Write",
        {"file_path": s.abspath(rel), "content": text},
        f"Claude requested permissions to write to {s.abspath(rel)}, but you haven't granted it "
        "yet.",
    )
    t.say("I need write permission for `CLAUDE.md`; trying again now that it's approved.")
    t.write(rel, text)
    return "Wrote `CLAUDE.md` with the project's commands and conventions."


def _sc_tree_127(t: _Thread, v: dict[str, str]) -> str:
    s = t.s
    msg = (
        "(eval):1: command not found: tree"
        if s.p.shell_zsh
        else "/bin/bash: line 1: tree: command not found"
    )
    t.bash_err("tree -L 2 -I node_modules", 127, msg, "Show the directory tree")
    files = sorted({s.code_path(v) for _ in range(8)})
    t.bash(
        "find . -maxdepth 3 -type f -not -path '*/node_modules/*' -not -path './.git/*' | sort",
        "\n".join("./" + f for f in files),
        "List project files",
    )
    return ""


def _sc_rejected(t: _Thread, v: dict[str, str]) -> str:
    t.fail(
        "Bash",
        {"command": "rm -rf node_modules dist && npm install", "description": "Clean reinstall"},
        _REJECTED,
        "User rejected tool use",
    )
    t.user_text([{"type": "text", "text": "[Request interrupted by user for tool use]"}])
    return ""


@dataclass(frozen=True)
class _Scenario:
    name: str
    stacks: str  # "ts py go" etc.
    run: Callable[[_Thread, dict[str, str]], str]
    prompt: str = ""  # a fix turn's prompt; empty for incidental-only scenarios
    title: str = ""
    read_only: bool = False  # usable inside an exploring subagent


_SCENARIOS: tuple[_Scenario, ...] = (
    _Scenario(
        "ts_map",
        "ts",
        _sc_ts_map,
        "The {comp} page crashes when there are no {items} yet. Can you fix it?",
        "Fix {comp} crash when {items} is empty",
    ),
    _Scenario(
        "ts2339",
        "ts",
        _sc_ts2339,
        "CI fails on the type check since the API added {prop}, can you take a look?",
        "Fix TS2339 on {Type}.{prop}",
    ),
    _Scenario(
        "ts2307",
        "ts",
        _sc_ts2307,
        "I moved the helpers into src/lib and now the build can't find them",
        "Fix @/lib import resolution",
    ),
    _Scenario(
        "eresolve",
        "ts",
        _sc_eresolve,
        "Add drag and drop reordering to the {comp}",
        "Add drag and drop to {comp}",
    ),
    _Scenario(
        "missing_script",
        "ts",
        _sc_missing_script,
        "Set up linting so CI can run `npm run lint`",
        "Add npm lint script",
    ),
    _Scenario(
        "enoent_env",
        "ts",
        _sc_enoent_env,
        "`npm run db:seed` fails on a fresh clone, can you fix it?",
        "Fix db:seed on fresh clone",
    ),
    _Scenario(
        "eslint",
        "ts",
        _sc_eslint,
        "Lint is failing on my branch, please fix it",
        "Fix lint errors in hooks",
    ),
    _Scenario(
        "eaddrinuse", "ts", _sc_eaddrinuse, "Start the dev server for me", "Start dev server"
    ),
    _Scenario(
        "module_not_found",
        "py",
        _sc_module_not_found,
        "The app won't start on my new laptop, can you see why?",
        "Fix missing dependency at startup",
    ),
    _Scenario("python_127", "py", _sc_python_127, "Run the test suite", "Run test suite"),
    _Scenario(
        "pytest_fail",
        "py",
        _sc_pytest_fail,
        "test_{fn} started failing after the rounding change, can you fix it?",
        "Fix {fn} rounding",
    ),
    _Scenario(
        "attr_none",
        "py",
        _sc_attr_none,
        "The {mod} export 500s when the {Cls} doesn't exist",
        "Return 404 for missing {Cls}",
    ),
    _Scenario(
        "mypy", "py", _sc_mypy, "Make mypy pass before I open the PR", "Fix mypy union-attr error"
    ),
    _Scenario(
        "psql", "py", _sc_psql, "Apply the new migration locally", "Apply database migration"
    ),
    _Scenario("precommit", "py", _sc_precommit, "Commit what we have", "Commit {mod} export"),
    _Scenario(
        "go_undefined",
        "go",
        _sc_go_undefined,
        "The build is broken after the {gopkg} refactor",
        "Fix undefined {ident} in {gopkg}",
    ),
    _Scenario(
        "go_test", "go", _sc_go_test, "Test{Name}Backoff is failing, fix it", "Fix {gopkg} backoff"
    ),
    _Scenario(
        "go_vet",
        "go",
        _sc_go_vet,
        "go vet complains about {gopkg}, can you clean it up?",
        "Fix go vet error",
    ),
    _Scenario(
        "git_upstream",
        "ts py go",
        _sc_git_upstream,
        "Push the branch and open a PR",
        "Push branch and open PR",
    ),
    _Scenario(
        "timeout",
        "ts py go",
        _sc_timeout,
        "Run the full test suite before I merge",
        "Run full test suite",
    ),
    _Scenario("read_missing", "ts py go", _sc_read_missing, read_only=True),
    _Scenario("read_dir", "ts py go", _sc_read_dir, read_only=True),
    _Scenario("read_too_large", "ts py go", _sc_read_too_large, read_only=True),
    _Scenario("edit_not_found", "ts py go", _sc_edit_not_found),
    _Scenario("not_read", "ts py go", _sc_not_read),
    _Scenario("input_validation", "ts py go", _sc_input_validation),
    _Scenario("tree_127", "ts py go", _sc_tree_127, read_only=True),
    _Scenario("rejected", "ts", _sc_rejected),
    _Scenario("permission", "ts py go", _sc_permission),
)
_BY_NAME = {sc.name: sc for sc in _SCENARIOS}

_GENERIC_PROMPTS = {
    "ts": [
        (
            "Add a loading skeleton to the {comp} while {items} are fetched",
            "Add loading skeleton to {comp}",
        ),
        ("Can you add pagination to the {items} list?", "Add pagination to {items} list"),
        ("Write tests for {comp}", "Write tests for {comp}"),
        ("Why is {comp} re-rendering so often?", "Investigate {comp} re-renders"),
        ("Add a `{prop}` column to the {items} table", "Add {prop} column"),
    ],
    "py": [
        ("Add an endpoint to export {mod} as CSV", "Add CSV export for {mod}"),
        ("The nightly {mod} job is slow, can you profile it?", "Profile nightly {mod} job"),
        ("Add retry with backoff to the {mod} client", "Add retries to {mod} client"),
        ("Write tests for {fn}", "Write tests for {fn}"),
    ],
    "go": [
        ("Add a --dry-run flag to the {proj} command", "Add --dry-run flag"),
        ("Make the worker shut down gracefully on SIGTERM", "Graceful shutdown on SIGTERM"),
        ("Add metrics for the {gopkg} queue depth", "Add {gopkg} queue metrics"),
        ("Explain how {Name}Service retries work", "Explain {Name}Service retries"),
    ],
}


# Relative weights of errors that happen along the way, outside a dedicated fix turn.
_INCIDENTAL = {
    "read_missing": 4.0,
    "read_dir": 1.0,
    "read_too_large": 1.5,
    "edit_not_found": 4.0,
    "not_read": 2.5,
    "input_validation": 1.0,
    "tree_127": 1.5,
    "rejected": 0.3,
    "permission": 1.5,
    "git_upstream": 0.5,
    "timeout": 1.0,
}


def _incidental(s: _Session) -> _Scenario:
    cands = _scenarios_for(s.p.stack, version=s.fl.version, prompted=False)
    return s.r.choices(cands, [_INCIDENTAL.get(sc.name, 0.4) for sc in cands])[0]


def _scenarios_for(
    stack: str, *, version: str, prompted: bool, read_only: bool = False
) -> list[_Scenario]:
    out = []
    for sc in _SCENARIOS:
        if (
            stack not in sc.stacks.split()
            or (prompted and not sc.prompt)
            or (read_only and not sc.read_only)
        ):
            continue
        if sc.name == "permission" and not version.startswith("1."):
            continue
        out.append(sc)
    return out


# ---------------------------------------------------------------------------------------------
# Subagents


def _task(t: _Thread, v: dict[str, str], description: str, *, error: str = "") -> None:
    """A Task tool call whose subagent is written in the layout of the session's version."""
    s = t.s
    r = s.r
    prompt = (
        f"Explore how {v['sym']} is implemented and used in this repository. Report the files "
        "involved, the main functions and their signatures, and anything that looks fragile. Do "
        "not modify any files."
    )
    inp = {
        "description": description,
        "prompt": prompt,
        "subagent_type": r.choice(["Explore", "general-purpose"]),
    }
    tid, au = t.tool_use("Task", inp)
    agent_id = "a" + s.hex(6)
    fl = s.fl
    sub_sink: _Sink | None = None
    if fl.layout == "inline":
        sub = _Thread(s, t.sink, side=True, model=fl.sub_model)
    else:
        path = (
            s.dir / f"agent-{agent_id}.jsonl"
            if fl.layout == "flat"
            else s.dir / s.sid / "subagents" / f"agent-{agent_id}.jsonl"
        )
        sub_sink = _Sink(path, s.gen.stats)
        s.gen.stats.subagent_files += 1
        sub = _Thread(
            s,
            sub_sink,
            side=True,
            agent_id=agent_id,
            model=fl.sub_model,
            parent_task=(t, tid, prompt) if fl.progress else None,
        )
        sub.refresh_env(t.with_slug)
    if fl.progress:
        t.hooks("Task", tid, "PreToolUse")
    t0 = s.ms
    sub.user_text(prompt)
    n = r.randint(2, 4) if s.demo else r.randint(3, 12)
    files: list[str] = []
    for i in range(n):
        if i == 0:
            sub.say(
                f"I'll explore how `{v['sym']}` is implemented. Let me start with the project "
                "layout."
            )
        if s.room() <= 0 and i > 1:
            break
        if error and i == 1:
            _BY_NAME[error].run(sub, v)
            continue
        if not s.demo and r.random() < INCIDENTAL_ERROR_RATE * 1.5:
            ro = _scenarios_for(s.p.stack, version=fl.version, prompted=False, read_only=True)
            r.choice(ro).run(sub, v)
            continue
        _normal_step(sub, v, read_only=True)
        files.append(s.code_path(v))
    parts = [f"## How {v['sym']} works\n"]
    for f in sorted(set(files))[: 3 if s.demo else 8]:
        pool = s.pools.code[_lang(f)]
        o = r.randrange(len(pool) - 12)
        excerpt = "\n".join(pool[o : o + (4 if s.demo else r.randint(4, 40))])
        parts.append(f"### `{f}`\n{s.sentence(_FINDINGS, v)}\n\n```\n{excerpt}\n```\n")
    parts.append(
        "**Fragile spots:** error handling around empty results is inconsistent; two call sites "
        "assume the list is always present."
    )
    summary = "\n".join(parts)
    sub.say(summary, final=True)
    if sub_sink is not None:
        sub_sink.close()
    dur = s.ms - t0
    usage = {
        "input_tokens": r.randint(1, 9),
        "cache_creation_input_tokens": r.randint(500, 9000),
        "cache_read_input_tokens": r.randint(9000, 60000),
        "output_tokens": r.randint(200, 3000),
        "service_tier": "standard",
    }
    body = [{"type": "text", "text": summary}]
    if fl.layout == "inline":
        content: list[JSON] = body
        tur: JSON = {
            "content": body,
            "totalDurationMs": dur,
            "totalTokens": r.randint(9000, 90000),
            "totalToolUseCount": sub.tool_uses,
            "usage": usage,
        }
    else:
        content = [
            *body,
            {"type": "text", "text": f"agentId: {agent_id} {_RESUME}"},
        ]
        tur = {
            "status": "completed",
            "prompt": prompt,
            "agentId": agent_id,
            "content": body,
            "totalDurationMs": dur,
            "totalTokens": r.randint(9000, 90000),
            "totalToolUseCount": sub.tool_uses,
            "usage": usage,
        }
    if fl.progress:
        t.hooks("Task", tid, "PostToolUse")
    t.result(tid, au, _Res(content, tur))
    s.note(f"Subagent {agent_id} explored {v['sym']}")


def _warmup_agent(s: _Session) -> None:
    """2.0.x wrote a tiny 'Warmup' agent file next to many sessions."""
    agent_id = "a" + s.hex(6)
    sink = _Sink(s.dir / f"agent-{agent_id}.jsonl", s.gen.stats)
    s.gen.stats.subagent_files += 1
    th = _Thread(s, sink, side=True, agent_id=agent_id, model=s.fl.sub_model)
    th.user_text("Warmup")
    th.say(
        "I'm ready to help you explore and analyze this codebase. I'm operating in read-only mode: "
        "I can search for files with glob patterns, search contents with grep, and read files.",
        final=True,
    )
    sink.close()


# ---------------------------------------------------------------------------------------------
# Turns and sessions


def _prompt(t: _Thread, text: str, title: str, *, first: bool, queued: bool = False) -> None:
    s = t.s
    r = s.r
    fl = s.fl
    if not first:
        s.ms += r.randint(200, 3000) if queued else r.randint(20_000, 900_000)
    if fl.new_order:
        s.prompt_id = s.uuid()
        if first and r.random() < 0.3:
            ts = _iso(s.ms)
            t.meta(
                "queue-operation",
                {
                    "type": "queue-operation",
                    "operation": "enqueue",
                    "timestamp": ts,
                    "sessionId": s.sid,
                    "content": text,
                },
            )
            t.meta(
                "queue-operation",
                {
                    "type": "queue-operation",
                    "operation": "dequeue",
                    "timestamp": ts,
                    "sessionId": s.sid,
                },
            )
    u = s.uuid()
    s.prompt_uuid, s.prompt_ts = u, _iso(s.ms)
    if fl.snapshots:
        t.meta(
            "file-history-snapshot",
            {
                "type": "file-history-snapshot",
                "messageId": u,
                "snapshot": {
                    "messageId": u,
                    "trackedFileBackups": dict(s.tracked),
                    "timestamp": s.prompt_ts,
                },
                "isSnapshotUpdate": False,
            },
        )
    if not first and fl.snapshots and not t.with_slug:
        t.refresh_env(slug=True)
    extra: JSON = {}
    if fl.snapshots and not fl.new_order:
        extra["thinkingMetadata"] = {"level": "high", "disabled": False, "triggers": []}
        extra["todos"] = []
    if fl.vt >= (2, 1) and first:
        extra["permissionMode"] = r.choice(
            ["default", "default", "acceptEdits", "bypassPermissions"]
        )
    body: JSON = {
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": u,
        "timestamp": s.tick(0, 50),
    }
    body.update(extra)
    t.emit("user", body, t.parent)
    t.parent = u
    t.msg = None
    s.last_prompt = text
    if not s.title:
        s.title = title
    s.note(f"User: {text}")
    if fl.new_order and first:
        t.attachment(
            {
                "type": "deferred_tools_delta",
                "addedNames": ["AskUserQuestion", "CronCreate", "WebFetch", "WebSearch"],
                "addedLines": ["AskUserQuestion", "CronCreate", "WebFetch", "WebSearch"],
                "removedNames": [],
                "readdedNames": [],
                "pendingMcpServers": [],
            }
        )
        t.attachment(
            {
                "type": "mcp_instructions_delta",
                "addedNames": ["github", "postgres"],
                "addedBlocks": [
                    "## github\nUse these tools to read issues and pull requests.",
                    "## postgres\nRead-only SQL access to the local development database.",
                ],
                "removedNames": [],
            }
        )
        t.attachment(
            {
                "type": "skill_listing",
                "content": "- update-config: Configure the Claude Code harness via "
                "settings.json.\n- review: Review the current diff for bugs.",
                "skillCount": 2,
                "isInitial": True,
            }
        )


def _titles(t: _Thread) -> None:
    s = t.s
    lp = s.last_prompt.replace("\n", " ")
    lp = lp if len(lp) <= 200 else lp[:199] + "\u2026"
    t.meta(
        "last-prompt",
        {"type": "last-prompt", "lastPrompt": lp, "leafUuid": t.parent, "sessionId": s.sid},
    )
    t.meta("ai-title", {"type": "ai-title", "aiTitle": s.title, "sessionId": s.sid})


def _new_order_extras(t: _Thread) -> None:
    """2.1.128+ sprinkles reminders and rewrites its title/last-prompt lines as it goes."""
    r = t.s.r
    k = r.random()
    if k < 0.06:
        t.attachment({"type": "todo_reminder", "content": [], "itemCount": 0})
    elif k < 0.09:
        t.attachment({"type": "task_reminder", "content": [], "itemCount": 0})
    elif k < 0.22:
        _titles(t)


_FOLLOW_UPS = [
    "also make sure the {items} tests still pass",
    "and don't forget the changelog",
    "actually, keep the old behaviour behind a flag",
    "can you also check the {sym} callers?",
]


def _queue(t: _Thread, v: dict[str, str]) -> None:
    s = t.s
    text = s.r.choice(_FOLLOW_UPS).format(items=v.get("items", "unit"), sym=v["sym"])
    t.meta(
        "queue-operation",
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": _iso(s.ms),
            "sessionId": s.sid,
            "content": text,
        },
    )
    if s.r.random() < 0.2:
        t.meta(
            "queue-operation",
            {
                "type": "queue-operation",
                "operation": "remove",
                "timestamp": s.tick(500, 9000),
                "sessionId": s.sid,
                "content": text,
            },
        )
    else:
        s.queued = text


def _end_turn(t: _Thread, text: str, turn_start: int) -> None:
    s = t.s
    fl = s.fl
    t.say(text or "Done.", final=True)
    if s.stop_hooks:
        cmds = [
            {"command": c} for c in (s.post_hooks or ['"$CLAUDE_PROJECT_DIR"/hooks/run_hook.sh'])
        ]
        t.system(
            "stop_hook_summary",
            {
                "hookCount": len(cmds),
                "hookInfos": cmds,
                "hookErrors": [],
                "preventedContinuation": False,
                "stopReason": "",
                "hasOutput": False,
                "level": "suggestion",
            },
        )
    if fl.turn_duration:
        t.system("turn_duration", {"durationMs": s.ms - turn_start, "isMeta": False})
    if fl.new_order:
        _titles(t)
    if s.queued:
        t.meta(
            "queue-operation",
            {
                "type": "queue-operation",
                "operation": "dequeue",
                "timestamp": _iso(s.ms),
                "sessionId": s.sid,
            },
        )


def _turn(
    t: _Thread,
    *,
    scenario: str | None = None,
    generic: bool = False,
    steps: int | None = None,
    task: bool | None = None,
    task_error: str = "",
) -> None:
    """One user prompt and everything the assistant does until it hands back control."""
    s = t.s
    r = s.r
    v = s.vocab()
    sc: _Scenario | None = None
    if scenario:
        sc = _BY_NAME[scenario]
    elif not generic and r.random() < FIX_TURN_RATE:
        sc = r.choice(_scenarios_for(s.p.stack, version=s.fl.version, prompted=True))
    queued = bool(s.queued)
    if queued:
        # The user typed this while the previous turn was running; Claude Code queued it.
        text, title = s.queued, s.queued.capitalize()
        s.queued, sc = "", None
    elif sc and sc.prompt:
        text, title = sc.prompt.format_map(v), sc.title.format_map(v)
    else:
        text, title = (x.format_map(v) for x in r.choice(_GENERIC_PROMPTS[s.p.stack]))
    first = s.turns == 0
    s.turns += 1
    s.turn_edits = []
    _prompt(t, text, title, first=first, queued=queued)
    turn_start = s.ms
    if r.random() < 0.4:
        t.think(" ".join(s.sentence(_THINK, v, goal=text) for _ in range(r.randint(2, 7))))
    if r.random() < 0.5:
        t.say(r.choice(_OPEN))
    if r.random() < 0.15:
        _todo(t, title)
    n = steps if steps is not None else max(1, int(r.lognormvariate(2.4, 0.8)))
    closing = ""
    scenario_at = r.randint(0, min(2, n - 1)) if sc else -1
    want_task = task if task is not None else (r.random() < 0.14)
    task_at = r.randint(0, scenario_at if sc else n - 1) if want_task else -1
    for i in range(n):
        if s.room() <= 0:
            break
        if i == task_at:
            _lead(
                t, f"I'll have a subagent map out how `{v['sym']}` is used while I continue.", 0.6
            )
            _task(t, v, f"Explore {v['sym']}", error=task_error)
        if i == scenario_at and sc:
            closing = sc.run(t, v)
            continue
        if sc and s.demo and i > scenario_at:
            # The demo keeps fix turns short: one check after the fix, then the summary.
            if i == scenario_at + 1 and r.random() < 0.6:
                _verify(t, v)
            continue
        if r.random() < 0.05:
            t.think(s.sentence(_THINK, v, goal=text))
        if not s.demo and r.random() < INCIDENTAL_ERROR_RATE:
            inc = _incidental(s)
            inc.run(t, v)
            if inc.name == "rejected":
                return
            continue
        # Before the failure the assistant explores; it only edits in open-ended turns.
        _normal_step(t, v, read_only=bool(sc) and i < scenario_at)
        if s.fl.new_order:
            _new_order_extras(t)
        if s.fl.vt >= (2, 1) and not s.queued and not s.demo and r.random() < 0.01:
            _queue(t, v)
    if not closing:
        closing = _closing(s, v, title)
    _end_turn(t, closing, turn_start)


def _closing(s: _Session, v: dict[str, str], title: str) -> str:
    if s.turn_edits:
        files = ", ".join(f"`{f}`" for f in s.turn_edits[:4])
        more = f" and {len(s.turn_edits) - 4} more" if len(s.turn_edits) > 4 else ""
        return f"{title}: done. I changed {files}{more}, and the checks pass."
    findings = "\n".join(f"- {s.sentence(_FINDINGS, v)}" for _ in range(s.r.randint(2, 4)))
    return f"Here is what I found ({title[0].lower() + title[1:]}):\n\n{findings}"


def _compact(t: _Thread) -> None:
    s = t.s
    r = s.r
    fl = s.fl
    pre_tokens = r.randint(120_000, 168_000)
    events = "\n".join(f"   - {e}" for e in s.events[-30:])
    summary = (
        "Analysis:\n"
        "Let me chronologically analyze the conversation:\n"
        "\n"
        f"1. The user is working in `{s.p.cwd}` on branch `{s.branch or 'main'}`.\n"
        "2. Events so far:\n"
        f"{events}\n"
        "\n"
        "Summary:\n"
        "1. Primary Request and Intent:\n"
        f"   {s.last_prompt}\n"
        "\n"
        "2. Errors and fixes:\n"
        + "\n".join(f"   - {e}" for e in s.events if "`" in e and not e.startswith("User:"))
        + (
            "\n"
            "\n"
            "3. Pending Tasks:\n"
            "   - Re-run the full test suite and summarise the changes for the user."
        )
    )
    if fl.layout == "nested":
        cid = "acompact-" + s.hex(6)
        sink = _Sink(s.dir / s.sid / "subagents" / f"agent-{cid}.jsonl", s.gen.stats)
        s.gen.stats.subagent_files += 1
        helper = _Thread(s, sink, side=True, agent_id=cid)
        helper.refresh_env(t.with_slug)
        helper.parent = t.parent
        for _ in range(r.randint(0, 3)):
            helper.user_text(
                "<system-reminder>\n"
                "PostToolUse:Edit hook additional context: formatted 1 file\n"
                "</system-reminder>",
                isMeta=True,
            )
        helper.user_text(_COMPACT_PROMPT)
        helper.say(
            f"<analysis>\n{summary}\n</analysis>\n\n<summary>\n{summary}\n</summary>", final=True
        )
        sink.close()
    logical = t.parent
    t.system(
        "compact_boundary",
        {
            "content": "Conversation compacted",
            "isMeta": False,
            "level": "info",
            "compactMetadata": {
                "trigger": r.choice(["auto", "auto", "manual"]),
                "preTokens": pre_tokens,
            },
        },
        logical=logical,
    )
    t.user_text(
        "This session is being continued from a previous conversation that ran out of context. The "
        "summary below covers the earlier portion of the conversation.\n"
        "\n" + summary,
        isVisibleInTranscriptOnly=True,
        isCompactSummary=True,
    )
    s.compacted += 1


@dataclass(frozen=True)
class _Plan:
    """A scripted session (the demo): turns given as scenario names, "" for a generic turn."""

    project: int
    version: str
    turns: tuple[str, ...]
    task_turn: int = -1
    task_error: str = ""
    compact_after: int = -1
    summary: bool = False
    steps: int = 2


def _session(
    gen: _Gen,
    project: _Project,
    version: str,
    rng: random.Random,
    start_ms: int,
    *,
    target_lines: int,
    budget: int,
    plan: _Plan | None = None,
) -> None:
    """Write one session file (and its subagent files): scripted by ``plan``, else random."""
    s = _Session(
        gen,
        project,
        version,
        rng,
        start_ms,
        budget=budget,
        demo=plan is not None,
    )
    fl = s.fl
    r = s.r
    sink = _Sink(s.dir / f"{s.sid}.jsonl", gen.stats)
    gen.stats.sessions += 1
    t = _Thread(s, sink)
    s.main = t
    end_summary = False
    if fl.layout == "inline" and (plan.summary if plan else r.random() < 0.4):
        t.meta(
            "summary",
            {
                "type": "summary",
                "summary": "Earlier session in " + project.name,
                "leafUuid": s.uuid(),
            },
        )
    elif fl.progress and fl.vt < (2, 1, 30) and (plan.summary if plan else r.random() < 0.15):
        end_summary = True
    if fl.layout == "flat" and (plan is not None or r.random() < 0.5):
        _warmup_agent(s)
    if fl.new_order and (plan is not None or r.random() < 0.5):
        t.attachment(
            {
                "type": "hook_success",
                "hookName": "SessionStart:startup",
                "toolUseID": s.uuid(),
                "hookEvent": "SessionStart",
                "content": "",
                "stdout": "",
                "stderr": "",
                "exitCode": 0,
                "command": _HOOK_START[1],
                "durationMs": r.randint(40, 900),
            }
        )
    if fl.progress and (s.pre_hooks or plan is not None):
        tool_id = s.uuid()
        for cmd in _HOOK_START[: r.randint(1, 2)]:
            data = {
                "type": "hook_progress",
                "hookEvent": "SessionStart",
                "hookName": "SessionStart:startup",
                "command": cmd,
            }
            t.progress(data, tool_id, tool_id, step=(1, 20))
    if plan is not None:
        for i, name in enumerate(plan.turns):
            _turn(
                t,
                scenario=name or None,
                generic=not name,
                steps=plan.steps,
                task=(i == plan.task_turn),
                task_error=plan.task_error if i == plan.task_turn else "",
            )
            if i == plan.compact_after:
                _compact(t)
    else:
        can_compact = fl.snapshots and target_lines > 250
        while True:
            _turn(t)
            if sink.lines >= target_lines or s.room() <= 0:
                break
            if can_compact and not s.compacted and sink.lines > target_lines * 0.55:
                _compact(t)
    if end_summary:
        t.meta("summary", {"type": "summary", "summary": s.title, "leafUuid": t.parent})
    sink.close()


class _Gen:
    def __init__(self, root: Path, stats: CorpusStats) -> None:
        self.root = root
        self.stats = stats


def _make_projects(rng: random.Random, n: int) -> list[_Project]:
    projects: list[_Project] = []
    used: set[str] = set()
    stacks = ["ts", "py", "go", "ts", "py", "ts"]
    for i in range(n):
        stack = stacks[i % len(stacks)]
        name = rng.choice(_STACKS[stack]["names"])
        base = name
        k = 2
        while name in used:
            name = f"{base}-{k}"
            k += 1
        used.add(name)
        cwd = rng.choice(_ROOTS) + name
        projects.append(
            _Project(
                name=name,
                stack=stack,
                cwd=cwd,
                org=rng.choice(_ORGS),
                weight=1 / (i + 1) ** 0.7,
                npm_err="npm ERR!" if rng.random() < 0.65 else "npm error",
                shell_zsh=cwd.startswith("/Users/"),
            )
        )
    return projects


def generate_corpus(
    root: Path,
    *,
    seed: int = 0,
    sessions: int | None = None,
    target_bytes: int | None = None,
    projects: int | None = None,
    start: datetime | None = None,
) -> CorpusStats:
    """Write a synthetic corpus under ``root``; stop after ``sessions`` or ``target_bytes``.

    With neither limit given, 20 sessions are written. Sessions start at ``start`` (default
    2026-01-05 09:00 UTC) and move forward in time. The same arguments always produce
    byte-identical files.
    """
    if sessions is None and target_bytes is None:
        sessions = 20
    root = Path(root)
    stats = CorpusStats()
    gen = _Gen(root, stats)
    corpus_rng = random.Random(f"pastfix-synthetic:{seed}")
    est = sessions if sessions is not None else max(3, (target_bytes or 0) // 1_500_000)
    n_projects = projects or max(1, min(24, round(math.sqrt(est) * 1.2)))
    plist = _make_projects(corpus_rng, n_projects)
    stats.projects = len(plist)
    weights = [p.weight for p in plist]
    versions = [v for v, _ in VERSIONS]
    vweights = [w for _, w in VERSIONS]
    start = start or DEFAULT_START
    start = start.replace(tzinfo=UTC) if start.tzinfo is None else start.astimezone(UTC)
    clock = int((start.replace(tzinfo=None) - _EPOCH).total_seconds() * 1000)
    i = 0
    while True:
        if sessions is not None and i >= sessions:
            break
        remaining = (target_bytes - stats.bytes) if target_bytes is not None else 1 << 62
        if remaining <= 0:
            break
        project = corpus_rng.choices(plist, weights)[0]
        version = corpus_rng.choices(versions, vweights)[0]
        clock += corpus_rng.randint(10 * 60_000, 30 * 3_600_000)
        target_lines = int(math.exp(corpus_rng.uniform(math.log(40), math.log(1500))))
        rng = random.Random(f"pastfix-synthetic:{seed}:{i}")
        _session(gen, project, version, rng, clock, target_lines=target_lines, budget=remaining)
        i += 1
    return stats


# The demo: three projects, every layout, a spread of real-looking failures and their fixes.
_DEMO_PROJECTS = (
    _Project("webapp", "ts", "/home/dev/src/webapp", "acme", 1.0),
    _Project("billing-api", "py", "/home/dev/src/billing-api", "acme", 1.0),
    _Project("ingest", "go", "/home/dev/src/ingest", "acme", 1.0),
)
_DEMO_PLANS = (
    _Plan(0, "1.0.98", ("eresolve", "not_read", ""), task_turn=2, summary=True),
    _Plan(0, "2.0.76", ("ts2307", "enoent_env", "missing_script"), task_turn=0, compact_after=1),
    _Plan(
        0,
        "2.1.39",
        ("ts_map", "ts2339", "eslint"),
        task_turn=1,
        task_error="read_missing",
        compact_after=1,
    ),
    _Plan(
        1, "2.1.16", ("module_not_found", "python_127", "pytest_fail"), task_turn=2, summary=True
    ),
    _Plan(1, "2.1.128", ("mypy", "edit_not_found", "git_upstream")),
    _Plan(1, "2.1.39", ("psql", "attr_none", "precommit", "timeout")),
    _Plan(2, "2.1.140", ("go_undefined", "go_test", "read_dir")),
    _Plan(
        2,
        "1.0.108",
        ("go_vet", "input_validation", "read_too_large"),
        task_turn=0,
        task_error="tree_127",
    ),
)


def write_demo(root: Path) -> CorpusStats:
    """Write the small fixed demo corpus (the one shipped in ``pastfix/demo/projects``)."""
    root = Path(root)
    stats = CorpusStats(projects=len(_DEMO_PROJECTS))
    gen = _Gen(root, stats)
    clock = int((DEMO_START.replace(tzinfo=None) - _EPOCH).total_seconds() * 1000)
    for i, plan in enumerate(_DEMO_PLANS):
        rng = random.Random(f"pastfix-demo:{i}")
        clock += 5 * 3_600_000 + rng.randint(0, 3_600_000)
        _session(
            gen,
            _DEMO_PROJECTS[plan.project],
            plan.version,
            rng,
            clock,
            target_lines=0,
            budget=1 << 40,
            plan=plan,
        )
    return stats


# ---------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/synthetic.py",
        description="Write a synthetic Claude Code corpus (a ~/.claude/projects twin) to OUT_DIR.",
    )
    parser.add_argument("out_dir", metavar="OUT_DIR", type=Path)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--mb", type=float, help="stop after about this many megabytes (10^6 bytes)")
    size.add_argument("--sessions", type=int, help="stop after this many sessions")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--projects", type=int, help="number of projects (default: from the size)")
    parser.add_argument("--demo", action="store_true", help="write the fixed demo corpus instead")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.demo:
        stats = write_demo(args.out_dir)
    else:
        stats = generate_corpus(
            args.out_dir,
            seed=args.seed,
            sessions=args.sessions,
            target_bytes=int(args.mb * 1_000_000) if args.mb else None,
            projects=args.projects,
        )
    secs = time.perf_counter() - t0
    mb = stats.bytes / 1e6
    print(
        f"{stats.files:,} files ({stats.sessions:,} sessions, {stats.subagent_files:,} subagent "
        f"files) in {stats.projects} projects: {mb:,.1f} MB, {stats.lines:,} lines, "
        f"{stats.tool_results:,} tool results ({stats.failed_tool_results:,} failed, "
        f"{100 * stats.error_fraction:.1f}%) in {secs:.1f}s ({mb / secs if secs else 0:,.1f} MB/s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
