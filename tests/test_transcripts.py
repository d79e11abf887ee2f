"""pastfix.transcripts: finding transcript files and parsing their lines into records.

The fixtures under tests/fixtures/ are hand-written, one quirk per file:
projects/ is a small ~/.claude/projects tree with one project per Claude Code
layout, blocks/ holds content shapes, errors/ the error texts the format doc
lists, and bad/ lines that must become problems without losing their neighbours.
"""

import base64
import json
from pathlib import Path

import jsonl
import pytest
from conftest import REAL_CORPUS, REAL_PROJECTS, needs_real_corpus

from pastfix import fixes, transcripts
from pastfix.prepare import prepare
from pastfix.transcripts import (
    MAX_TEXT,
    Message,
    Problem,
    SessionMeta,
    SourceFile,
    ToolCall,
    ToolResult,
    iter_source_files,
    parse_lines,
)

FIXTURES = Path(__file__).parent / "fixtures"
PROJECTS = FIXTURES / "projects"

# The session the blocks/, errors/ and bad/ excerpts belong to.
SESSION = "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70"
APP = "/home/dev/app"

V1_INIT = "0b7e4d1a-2c6f-4e8b-9d3a-5f1c7a2e8b90"
V1 = "3f9a1c2e-58d4-4b7a-a0e1-6c2d9b1f4e07"
V2_0 = "c3d1e2f4-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
V2_1 = "7c4e9a10-3b2d-4f6e-8a1c-9d0e5f7b2a34"
ORPHAN = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
V2_1_128 = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d"
V2_1_232 = "b1c2d3e4-f5a6-4b7c-9d8e-0f1a2b3c4d5e"


def parse_file(path, *, session=SESSION, first_line_no=1):
    return parse_lines(
        Path(path).read_bytes(), first_line_no=first_line_no, default_session_id=session
    )


def fixture_line(path, line_no):
    return Path(path).read_bytes().split(b"\n")[line_no - 1]


def result(tool_use_id, session_id, line_no, message_uuid, timestamp, is_error, content):
    """A ToolResult whose content was stored as written (nothing stripped or capped)."""
    return ToolResult(
        tool_use_id, session_id, line_no, message_uuid, timestamp, is_error, content, len(content)
    )


def message(base, **fields):
    return base._replace(**fields)


# -- iter_source_files ---------------------------------------------------------


def test_iter_source_files_finds_every_layout_in_path_order():
    def source(rel, session_id):
        return SourceFile(str(PROJECTS / rel), session_id, rel.split("/")[0])

    assert list(iter_source_files(PROJECTS)) == [
        source(f"-Users-dev-bookmarks/{V2_1_232}.jsonl", V2_1_232),
        source(f"-home-dev-api/{V2_1}.jsonl", V2_1),
        source(f"-home-dev-api/{V2_1}/subagents/agent-a4e5f60.jsonl", V2_1),
        source(f"-home-dev-api/{V2_1}/subagents/agent-acompact-9b8c7d.jsonl", V2_1),
        source(f"-home-dev-relay/{V2_1_128}.jsonl", V2_1_128),
        source(f"-home-dev-todo/{V1_INIT}.jsonl", V1_INIT),
        source(f"-home-dev-todo/{V1}.jsonl", V1),
        # The parent session file is missing: the directory name still says whose it is.
        source(f"-home-dev-worker/{ORPHAN}/subagents/agent-ab12cd3.jsonl", ORPHAN),
        # 2.0.x agent files sit beside the session: only their lines name it.
        source("-workspace/agent-a3c9e17.jsonl", None),
        source(f"-workspace/{V2_0}.jsonl", V2_0),
    ]


def test_iter_source_files_on_an_empty_directory(tmp_path):
    assert list(iter_source_files(tmp_path)) == []


# -- layouts, one per Claude Code version ----------------------------------------


def v1_uuid(n):
    return f"3f9a{n:04x}-5c1e-4d2a-9b3f-7e6d5c4b3a21"


V1_FILE = PROJECTS / f"-home-dev-todo/{V1}.jsonl"
V1_USER = Message(
    uuid="",
    session_id=V1,
    line_no=0,
    parent_uuid=None,
    type="user",
    kind="prompt",
    timestamp=None,
    text="",
    is_sidechain=0,
    is_meta=0,
    is_compact_summary=0,
    agent_id=None,
    model=None,
    cwd="/home/dev/todo",
    git_branch=None,  # written as "" by 1.0.x
    version="1.0.98",
)
V1_ASSISTANT = V1_USER._replace(type="assistant", model="claude-sonnet-4-20250514")
SUBAGENT_PROMPT = "Create React components for the TODO app in components/: TodoItem and TodoList."


def test_v1_0_main_file_with_inline_sidechain_turns():
    batch = parse_file(V1_FILE, session=V1)

    def m(base, n, line_no, parent, kind, ts, text="", sidechain=0):
        return message(
            base,
            uuid=v1_uuid(n),
            line_no=line_no,
            parent_uuid=parent and v1_uuid(parent),
            kind=kind,
            timestamp=f"2025-09-03T00:{ts}Z",
            text=text,
            is_sidechain=sidechain,
        )

    delegate = "I'll delegate the components to a subagent."
    done = "Created TodoItem in components/TodoItem.tsx."
    assert batch.messages == [
        m(V1_USER, 1, 2, None, "prompt", "52:31.217", "create the TODO components, use a subagent"),
        m(V1_ASSISTANT, 2, 3, 1, "text", "52:34.495", delegate),
        m(V1_ASSISTANT, 3, 4, 2, "tool_use", "52:54.128"),
        # The Task's own turns, inline: the parentUuid chain restarts at null.
        m(V1_USER, 4, 5, None, "prompt", "52:54.163", SUBAGENT_PROMPT, sidechain=1),
        m(V1_ASSISTANT, 5, 6, 4, "tool_use", "52:56.578", sidechain=1),
        m(V1_USER, 6, 7, 5, "tool_result", "52:56.640", sidechain=1),
        m(V1_ASSISTANT, 7, 8, 6, "tool_use", "53:32.683", sidechain=1),
        m(V1_USER, 8, 9, 7, "tool_result", "53:32.725", sidechain=1),
        m(V1_ASSISTANT, 9, 10, 8, "text", "53:39.731", done, sidechain=1),
        m(V1_USER, 10, 11, 3, "tool_result", "53:39.790"),
        m(V1_ASSISTANT, 11, 12, 10, "text", "53:42.101", "The TODO components are in place."),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01calY5VQKipXTVLn7sFYqbc",
            V1,
            4,
            v1_uuid(3),
            "2025-09-03T00:52:54.128Z",
            "Task",
            None,
            None,
            "Build TODO components",
            '{"subagent_type":"general-purpose","description":"Build TODO components",'
            f'"prompt":"{SUBAGENT_PROMPT}"}}',
            None,
            0,
        ),
        ToolCall(
            "toolu_01qrl2DR5yRIv8yWxLT9jrC8",
            V1,
            6,
            v1_uuid(5),
            "2025-09-03T00:52:56.578Z",
            "Write",
            None,
            "/home/dev/todo/components/TodoItem.tsx",
            None,
            '{"file_path":"/home/dev/todo/components/TodoItem.tsx",'
            '"content":"export default function TodoItem() {}\\n"}',
            None,
            1,
        ),
        ToolCall(
            "toolu_01pMoCD6RNSOZyH6ulyk3fo3",
            V1,
            8,
            v1_uuid(7),
            "2025-09-03T00:53:32.683Z",
            "Bash",
            "ls components/",
            None,
            "List the components",
            '{"command":"ls components/","description":"List the components"}',
            None,
            1,
        ),
    ]
    assert batch.tool_results == [
        result(
            "toolu_01qrl2DR5yRIv8yWxLT9jrC8",
            V1,
            7,
            v1_uuid(6),
            "2025-09-03T00:52:56.640Z",
            0,
            "File created successfully at: /home/dev/todo/components/TodoItem.tsx",
        ),
        result(
            "toolu_01pMoCD6RNSOZyH6ulyk3fo3",
            V1,
            9,
            v1_uuid(8),
            "2025-09-03T00:53:32.725Z",
            0,
            "TodoItem.tsx",
        ),
        result(
            "toolu_01calY5VQKipXTVLn7sFYqbc",
            V1,
            11,
            v1_uuid(10),
            "2025-09-03T00:53:39.790Z",
            0,
            done,
        ),
    ]
    assert (batch.problems, batch.lines, batch.skipped) == ([], 12, 0)


def test_v1_0_summary_line_names_a_leaf_in_another_file():
    # What the fixture pair shows (as -path-to-Demo does in the real corpus):
    # the summary on line 1 of one session points at the last line of another.
    summary = json.loads(fixture_line(V1_FILE, 1))
    init = parse_file(PROJECTS / f"-home-dev-todo/{V1_INIT}.jsonl", session=V1_INIT)
    assert summary["leafUuid"] == init.messages[-1].uuid
    assert init.messages[-1].session_id == V1_INIT
    assert summary["leafUuid"] not in {m.uuid for m in parse_file(V1_FILE, session=V1).messages}


def test_v1_0_summary_keeps_its_leaf_uuid():
    # The summary on line 1 describes the session holding its leafUuid (an earlier
    # file here); the build resolves it (tests/test_db.py::test_summary_titles_its_leaf_session).
    batch = parse_file(V1_FILE, session=V1)
    [summary] = [m for m in batch.meta if m.key == "summary"]
    assert summary.session_id == V1 and summary.line_no == 1
    assert summary.leaf_uuid and summary.leaf_uuid not in {m.uuid for m in batch.messages}


def v2_0_uuid(n):
    return f"c3d1{n:04x}-8b2a-4e6f-9c1d-0a3b5c7d9e2f"


def agent_uuid(n):
    return f"a3c9{n:04x}-6e2b-4d8a-b1f0-9c7e5a3d1b24"


V2_0_USER = V1_USER._replace(session_id=V2_0, cwd="/workspace", version="2.0.76")


def test_v2_0_76_session_file():
    batch = parse_file(PROJECTS / f"-workspace/{V2_0}.jsonl", session=V2_0)
    assistant = V2_0_USER._replace(type="assistant", model="claude-sonnet-4-5-20250929")
    answer = "The retry limit is `MAX_RETRIES = 5` in src/client.py, line 12."
    assert batch.messages == [
        message(
            V2_0_USER,
            uuid=v2_0_uuid(1),
            line_no=2,
            timestamp="2026-01-02T19:18:31.028Z",
            text="where is the retry limit configured?",
        ),
        message(
            assistant,
            uuid=v2_0_uuid(2),
            line_no=3,
            parent_uuid=v2_0_uuid(1),
            kind="tool_use",
            timestamp="2026-01-02T19:18:34.214Z",
        ),
        message(
            V2_0_USER,
            uuid=v2_0_uuid(3),
            line_no=4,
            parent_uuid=v2_0_uuid(2),
            kind="tool_result",
            timestamp="2026-01-02T19:18:49.902Z",
        ),
        message(
            assistant,
            uuid=v2_0_uuid(4),
            line_no=5,
            parent_uuid=v2_0_uuid(3),
            kind="text",
            timestamp="2026-01-02T19:18:52.310Z",
            text=answer,
        ),
    ]
    assert [(c.name, c.description) for c in batch.tool_calls] == [("Task", "Find retry limit")]
    assert batch.tool_results == [
        result(
            "toolu_01WoIUiAFxenpkgrjqrMn8jw",
            V2_0,
            4,
            v2_0_uuid(3),
            "2026-01-02T19:18:49.902Z",
            0,
            "MAX_RETRIES = 5 is set in /workspace/src/client.py:12.",
        )
    ]
    # The file-history-snapshot on line 1 is metadata, neither a problem nor skipped.
    assert (batch.problems, batch.lines, batch.skipped) == ([], 5, 0)


def test_v2_0_76_agent_file_beside_the_session_takes_its_session_from_the_lines():
    batch = parse_file(PROJECTS / "-workspace/agent-a3c9e17.jsonl", session=None)
    user = V2_0_USER._replace(is_sidechain=1, agent_id="a3c9e17")
    assistant = user._replace(type="assistant", model="claude-haiku-4-5-20251001")
    found = "MAX_RETRIES = 5 is set in /workspace/src/client.py:12."
    assert batch.messages == [
        message(
            user,
            uuid=agent_uuid(1),
            line_no=1,
            timestamp="2026-01-02T19:18:34.402Z",
            text="Find where the HTTP retry limit is configured in /workspace.",
        ),
        message(
            assistant,
            uuid=agent_uuid(2),
            line_no=2,
            parent_uuid=agent_uuid(1),
            kind="tool_use",
            timestamp="2026-01-02T19:18:37.115Z",
        ),
        message(
            user,
            uuid=agent_uuid(3),
            line_no=3,
            parent_uuid=agent_uuid(2),
            kind="tool_result",
            timestamp="2026-01-02T19:18:37.160Z",
        ),
        message(
            assistant,
            uuid=agent_uuid(4),
            line_no=4,
            parent_uuid=agent_uuid(3),
            kind="text",
            timestamp="2026-01-02T19:18:49.870Z",
            text=found,
        ),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_017L4H56WqdwzdWIaU57y7ny",
            V2_0,
            2,
            agent_uuid(2),
            "2026-01-02T19:18:37.115Z",
            "Grep",
            None,
            "/workspace/src",  # Grep and Glob name their target in `path`
            None,
            '{"pattern":"MAX_RETRIES","path":"/workspace/src","output_mode":"content","-n":true}',
            "a3c9e17",
            1,
        )
    ]
    assert batch.tool_results == [
        result(
            "toolu_017L4H56WqdwzdWIaU57y7ny",
            V2_0,
            3,
            agent_uuid(3),
            "2026-01-02T19:18:37.160Z",
            0,
            "/workspace/src/client.py:12:MAX_RETRIES = 5",
        )
    ]
    assert batch.session_ids == {V2_0}
    assert batch.problems == []


def v2_1_uuid(n):
    return f"7c4e{n:04x}-2a9d-4b3c-8e1f-6d5a4c3b2e10"


V2_1_USER = V1_USER._replace(
    session_id=V2_1, cwd="/home/dev/api", git_branch="otel-bump", version="2.1.39"
)


def test_v2_1_session_file_with_subagents_elsewhere():
    batch = parse_file(PROJECTS / f"-home-dev-api/{V2_1}.jsonl", session=V2_1)
    assistant = V2_1_USER._replace(type="assistant", model="claude-opus-4-6")
    assert batch.messages == [
        message(
            V2_1_USER,
            uuid=v2_1_uuid(1),
            line_no=2,
            timestamp="2026-02-12T14:12:20.101Z",
            text="bump the opentelemetry deps to the latest versions",
        ),
        message(
            assistant,
            uuid=v2_1_uuid(2),
            line_no=3,
            parent_uuid=v2_1_uuid(1),
            kind="tool_use",
            timestamp="2026-02-12T14:12:32.480Z",
        ),
        # line 4 is the agent_progress line: ignored
        message(
            V2_1_USER,
            uuid=v2_1_uuid(4),
            line_no=5,
            parent_uuid=v2_1_uuid(2),
            kind="tool_result",
            timestamp="2026-02-12T14:13:05.911Z",
        ),
        message(
            assistant,
            uuid=v2_1_uuid(5),
            line_no=6,
            parent_uuid=v2_1_uuid(4),
            kind="text",
            timestamp="2026-02-12T14:13:09.240Z",
            text="Latest: opentelemetry_api ~> 1.4 and opentelemetry ~> 1.5.",
        ),
        message(
            V2_1_USER,
            uuid=v2_1_uuid(6),
            line_no=7,
            parent_uuid=v2_1_uuid(5),
            type="system",
            kind="turn_duration",
            timestamp="2026-02-12T14:13:09.262Z",
        ),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01Yd85J7d6LRjQykKel8LKxE",
            V2_1,
            3,
            v2_1_uuid(2),
            "2026-02-12T14:12:32.480Z",
            "Task",
            None,
            None,
            "Look up latest otel versions",
            # `caller` sits beside `input` and is not part of it.
            '{"description":"Look up latest otel versions","prompt":"Search hex.pm for the'
            ' latest opentelemetry_api and opentelemetry versions.",'
            '"subagent_type":"general-purpose"}',
            None,
            0,
        )
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Yd85J7d6LRjQykKel8LKxE",
            V2_1,
            5,
            v2_1_uuid(4),
            "2026-02-12T14:13:05.911Z",
            0,
            "opentelemetry_api 1.4.0, opentelemetry 1.5.0\n"
            "agentId: a4e5f60 (for resuming to continue this agent's work if needed)",
        )
    ]
    assert (batch.problems, batch.lines, batch.skipped) == ([], 7, 0)


def test_v2_1_subagent_file_in_the_session_directory():
    path = PROJECTS / f"-home-dev-api/{V2_1}/subagents/agent-a4e5f60.jsonl"
    batch = parse_file(path, session=V2_1)

    def uuid(n):
        return f"a4e5{n:04x}-9f3c-4e7d-a2b6-1c8d0e5f3a97"

    user = V2_1_USER._replace(is_sidechain=1, agent_id="a4e5f60")
    assistant = user._replace(type="assistant", model="claude-sonnet-4-5-20250929")
    assert batch.messages == [
        message(
            user,
            uuid=uuid(1),
            line_no=1,
            timestamp="2026-02-12T14:12:32.522Z",
            text="Search hex.pm for the latest opentelemetry_api and opentelemetry versions.",
        ),
        message(
            assistant,
            uuid=uuid(2),
            line_no=2,
            parent_uuid=uuid(1),
            kind="tool_use",
            timestamp="2026-02-12T14:12:35.862Z",
        ),
        message(
            user,
            uuid=uuid(4),
            line_no=4,
            parent_uuid=uuid(2),
            kind="tool_result",
            timestamp="2026-02-12T14:12:58.821Z",
        ),
        message(
            assistant,
            uuid=uuid(5),
            line_no=5,
            parent_uuid=uuid(4),
            kind="text",
            timestamp="2026-02-12T14:13:05.344Z",
            text="opentelemetry_api 1.4.0, opentelemetry 1.5.0",
        ),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01SdfARRacb2bFOdjJMekQNY",
            V2_1,
            2,
            uuid(2),
            "2026-02-12T14:12:35.862Z",
            "WebSearch",
            None,
            None,
            None,
            '{"query":"hex.pm opentelemetry_api latest version"}',
            "a4e5f60",
            1,
        )
    ]
    # Successful results in 2.1.x subagent files have no toolUseResult: not needed.
    assert batch.tool_results == [
        result(
            "toolu_01SdfARRacb2bFOdjJMekQNY",
            V2_1,
            4,
            uuid(4),
            "2026-02-12T14:12:58.821Z",
            0,
            'Web search results for query: "hex.pm opentelemetry_api latest version"\n\n'
            "opentelemetry_api 1.4.0 (2026-01-20)",
        )
    ]
    assert (batch.problems, batch.lines, batch.skipped) == ([], 5, 0)


def test_v2_1_compaction_helper_file():
    path = PROJECTS / f"-home-dev-api/{V2_1}/subagents/agent-acompact-9b8c7d.jsonl"
    batch = parse_file(path, session=V2_1)

    def uuid(n):
        return f"9b8c{n:04x}-3d7e-4a2f-8b6c-0e9d1f4a7c35"

    user = V2_1_USER._replace(is_sidechain=1, agent_id="acompact-9b8c7d")
    assert batch.messages == [
        message(
            user,
            uuid=uuid(1),
            line_no=1,
            # It hangs off the last line of the parent session, not off null.
            parent_uuid=v2_1_uuid(6),
            timestamp="2026-02-12T14:47:09.231Z",
            text="Your task is to create a detailed summary of the conversation so far, paying"
            " close attention to the user's explicit requests and your previous actions.",
        ),
        message(
            user,
            uuid=uuid(2),
            line_no=2,
            parent_uuid=uuid(1),
            type="assistant",
            kind="text",
            timestamp="2026-02-12T14:48:36.518Z",
            text="<analysis>\nThe user asked to bump the opentelemetry deps.\n</analysis>",
            model="claude-opus-4-6",
        ),
    ]
    assert (batch.tool_calls, batch.tool_results, batch.problems) == ([], [], [])


def test_orphan_subagent_file_without_its_parent_session():
    path = PROJECTS / f"-home-dev-worker/{ORPHAN}/subagents/agent-ab12cd3.jsonl"
    batch = parse_file(path, session=ORPHAN)

    def uuid(n):
        return f"ab12{n:04x}-7c3e-4f9a-8d2b-5e1c0a6f4b83"

    user = V1_USER._replace(
        session_id=ORPHAN,
        is_sidechain=1,
        agent_id="ab12cd3",
        cwd="/home/dev/worker",
        git_branch="main",
        version="2.1.38",
    )
    assistant = user._replace(type="assistant", model="claude-haiku-4-5-20251001")
    assert [(m.line_no, m.uuid, m.type, m.kind) for m in batch.messages] == [
        (1, uuid(1), "user", "prompt"),
        (2, uuid(2), "assistant", "tool_use"),
        (4, uuid(4), "user", "tool_result"),
        (5, uuid(5), "assistant", "text"),
    ]
    assert batch.messages[0] == message(
        user,
        uuid=uuid(1),
        line_no=1,
        timestamp="2026-02-10T22:15:38.102Z",
        text="Summarise the layout of the repository.",
    )
    assert batch.messages[3] == message(
        assistant,
        uuid=uuid(5),
        line_no=5,
        parent_uuid=uuid(4),
        kind="text",
        timestamp="2026-02-10T22:15:47.015Z",
        text="tree is not installed; falling back to find.",
    )
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01Wq4Rz8Nc2Hv6Yt0Lp3Jk7D",
            ORPHAN,
            2,
            uuid(2),
            "2026-02-10T22:15:44.380Z",
            "Bash",
            "tree -L 2",
            None,
            "Show the directory tree",
            '{"command":"tree -L 2","description":"Show the directory tree"}',
            "ab12cd3",
            1,
        )
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Wq4Rz8Nc2Hv6Yt0Lp3Jk7D",
            ORPHAN,
            4,
            uuid(4),
            "2026-02-10T22:15:44.594Z",
            1,
            "Exit code 127\n(eval):1: command not found: tree",
        )
    ]
    assert batch.session_ids == {ORPHAN}


def test_v2_1_128_metadata_lines_and_caller():
    batch = parse_file(PROJECTS / f"-home-dev-relay/{V2_1_128}.jsonl", session=V2_1_128)

    def uuid(n):
        return f"5a6b{n:04x}-4c8e-4b2d-9f1a-7e3c5d9b1a60"

    user = V1_USER._replace(
        session_id=V2_1_128, cwd="/home/dev/relay", git_branch="feature/15", version="2.1.128"
    )
    assistant = user._replace(type="assistant", model="claude-opus-4-7")
    ticket = "# Ticket #15: relay: WSConn adapter for the registry Conn interface"
    assert batch.messages == [
        message(user, uuid=uuid(1), line_no=3, timestamp="2026-05-08T18:21:40.324Z", text=ticket),
        message(
            assistant,
            uuid=uuid(3),
            line_no=6,
            parent_uuid=uuid(2),  # the attachment line before it
            kind="thinking",
            timestamp="2026-05-08T18:21:43.910Z",
            text="The ticket wants an adapter around websocket.Conn; read the interface first.",
        ),
        message(
            assistant,
            uuid=uuid(4),
            line_no=7,
            parent_uuid=uuid(3),
            kind="tool_use",
            timestamp="2026-05-08T18:21:44.402Z",
        ),
        message(
            user,
            uuid=uuid(5),
            line_no=8,
            parent_uuid=uuid(4),
            kind="tool_result",
            timestamp="2026-05-08T18:21:44.471Z",
        ),
        message(
            assistant,
            uuid=uuid(7),
            line_no=12,
            parent_uuid=uuid(6),
            kind="text",
            timestamp="2026-05-08T18:21:47.125Z",
            text="Conn has three methods; the adapter wraps websocket.Conn.",
        ),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01Ja5Kc7Md9Pf1Rh3Tj5Vl7X",
            V2_1_128,
            7,
            uuid(4),
            "2026-05-08T18:21:44.402Z",
            "Read",
            None,
            "/home/dev/relay/registry/conn.go",
            None,
            '{"file_path":"/home/dev/relay/registry/conn.go"}',
            None,
            0,
        )
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Ja5Kc7Md9Pf1Rh3Tj5Vl7X",
            V2_1_128,
            8,
            uuid(5),
            "2026-05-08T18:21:44.471Z",
            0,
            "     1→package registry\n     2→\n     3→type Conn interface {",
        )
    ]
    # Every ai-title is kept; the later one is the current title.
    assert batch.meta == [
        SessionMeta(V2_1_128, 5, "ai_title", "WSConn adapter"),
        SessionMeta(V2_1_128, 10, "ai_title", "Implement WSConn adapter for the relay registry"),
    ]
    # queue-operation, attachment and last-prompt are known metadata: not "skipped".
    assert (batch.problems, batch.lines, batch.skipped) == ([], 12, 0)


def test_v2_1_232_extra_keys_and_metadata_lines():
    batch = parse_file(PROJECTS / f"-Users-dev-bookmarks/{V2_1_232}.jsonl", session=V2_1_232)

    def uuid(n):
        return f"b1c2{n:04x}-5e9a-4c3d-8f2b-6a0d4e8c2f71"

    user = V1_USER._replace(
        session_id=V2_1_232, cwd="/Users/dev/bookmarks", git_branch="HEAD", version="2.1.232"
    )
    assert batch.messages == [
        message(
            user,
            uuid=uuid(2),
            line_no=5,
            parent_uuid=uuid(1),
            timestamp="2026-08-15T05:53:55.129Z",
            text="clean node_modules and reinstall",
        ),
        message(
            user,
            uuid=uuid(3),
            line_no=7,
            parent_uuid=uuid(2),
            type="assistant",
            kind="tool_use",
            timestamp="2026-08-15T05:54:01.015Z",
            model="claude-fable-5",
        ),
        message(
            user,
            uuid=uuid(4),
            line_no=8,
            parent_uuid=uuid(3),
            kind="tool_result",
            timestamp="2026-08-15T05:54:19.608Z",
        ),
        message(
            user,
            uuid=uuid(5),
            line_no=10,
            parent_uuid=uuid(4),
            type="system",
            kind="turn_duration",
            timestamp="2026-08-15T05:54:19.720Z",
        ),
    ]
    assert [(c.name, c.command) for c in batch.tool_calls] == [
        ("Bash", "rm -rf node_modules && pnpm install")
    ]
    # The 2.1.232 rejection: toolDenialKind/userFeedback beside an ordinary error row.
    assert batch.tool_results == [
        result(
            "toolu_01Xc4Vb6Nm8Qw0Er2Ty4Ui6O",
            V2_1_232,
            8,
            uuid(4),
            "2026-08-15T05:54:19.608Z",
            1,
            "The user doesn't want to proceed with this tool use. The tool use was rejected"
            " (eg. if it was a file edit, the new_string was NOT written to the file). To tell"
            " you how to proceed, the user said:\nuse pnpm store prune first",
        )
    ]
    assert batch.meta == [SessionMeta(V2_1_232, 11, "ai_title", "Reinstall bookmarks dependencies")]
    # mode, permission-mode, agent-name, file-history-delta: metadata, not skipped.
    assert (batch.problems, batch.lines, batch.skipped) == ([], 11, 0)


# -- block shapes ----------------------------------------------------------------


def block_uuid(tag, n):
    return f"{tag}{n:04x}-7f3a-4c2e-9b1d-5e8f0a2c4d6b"


APP_USER = V1_USER._replace(session_id=SESSION, cwd=APP, git_branch="main", version="2.1.39")
OPUS = APP_USER._replace(type="assistant", model="claude-opus-4-6")


def test_assistant_message_split_one_block_per_line():
    batch = parse_file(FIXTURES / "blocks/assistant_one_block_per_line.jsonl")

    def uuid(n):
        return block_uuid("a1b0", n)

    assert batch.messages == [
        message(
            APP_USER,
            uuid=uuid(1),
            line_no=1,
            timestamp="2026-02-12T09:00:00.000Z",
            text="why does the build fail on CI?",
        ),
        message(
            OPUS,
            uuid=uuid(2),
            line_no=2,
            parent_uuid=uuid(1),
            kind="thinking",
            timestamp="2026-02-12T09:00:03.100Z",
            text="The CI log mentions a missing lockfile.",
        ),
        message(
            OPUS,
            uuid=uuid(3),
            line_no=3,
            parent_uuid=uuid(2),
            kind="text",
            timestamp="2026-02-12T09:00:03.600Z",
            text="Let me look at the workflow file.",
        ),
        message(
            OPUS,
            uuid=uuid(4),
            line_no=4,
            parent_uuid=uuid(3),
            kind="tool_use",
            timestamp="2026-02-12T09:00:04.020Z",
        ),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "toolu_01Rk7Vq2Ls9Xb4Nw8Tc3Hd6F",
            SESSION,
            4,
            uuid(4),
            "2026-02-12T09:00:04.020Z",
            "Read",
            None,
            "/home/dev/app/.github/workflows/ci.yml",
            None,
            '{"file_path":"/home/dev/app/.github/workflows/ci.yml"}',
            None,
            0,
        )
    ]


def test_server_tool_use_is_a_tool_call():
    batch = parse_file(FIXTURES / "blocks/server_tool_use_advisor.jsonl")
    assert [(m.line_no, m.kind, m.text) for m in batch.messages] == [
        (1, "server_tool_use", ""),
        (2, "text", "The advisor agrees: keep the migration additive."),
    ]
    assert batch.tool_calls == [
        ToolCall(
            "srvtoolu_01Lq8Wn3Tz5Rk2Vx7Yc4Bd9H",
            SESSION,
            1,
            block_uuid("a2b0", 1),
            "2026-08-15T06:51:42.431Z",
            "advisor",
            None,
            None,
            None,
            "{}",
            None,
            0,
        )
    ]


def test_user_prompts_as_string_and_as_text_blocks():
    batch = parse_file(FIXTURES / "blocks/user_prompt_shapes.jsonl")
    assert [(m.line_no, m.type, m.kind, m.is_meta, m.text) for m in batch.messages] == [
        (1, "user", "prompt", 0, "fix the flaky test in tests/test_sync.py"),
        (
            2,
            "user",
            "prompt",
            0,
            "<command-message>review is running…</command-message>\n"
            "<command-name>/review</command-name>",
        ),
        (3, "user", "prompt", 1, "Review the current diff for bugs."),
        (4, "user", "prompt", 0, "[Request interrupted by user]"),
    ]


def test_tool_result_string_content_keeps_read_line_prefixes():
    batch = parse_file(FIXTURES / "blocks/tool_result_string_read.jsonl")
    assert [(c.name, c.file_path) for c in batch.tool_calls] == [
        ("Read", "/home/dev/app/src/sync.py")
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Sa8Db3Fe5Hg7Jk9Lm1Np3Q",
            SESSION,
            2,
            block_uuid("a4b0", 2),
            "2026-02-12T09:20:00.120Z",
            0,
            "     1→import time\n     2→\n     3→def sync(retries=3):",
        )
    ]


def test_tool_result_list_of_text_blocks_is_joined():
    batch = parse_file(FIXTURES / "blocks/tool_result_text_blocks.jsonl")
    assert batch.tool_results == [
        result(
            "toolu_01Tb9Ec4Gf6Ih8Kl0Mn2Oq4S",
            SESSION,
            2,
            block_uuid("a5b0", 2),
            "2026-01-21T20:54:11.400Z",
            0,
            "Green curry is the most popular Thai curry.\n"
            "agentId: a6c1f02 (for resuming to continue this agent's work if needed)",
        )
    ]


def test_tool_result_base64_image_becomes_a_placeholder():
    path = FIXTURES / "blocks/tool_result_image_base64.jsonl"
    batch = parse_file(path)
    data = json.loads(fixture_line(path, 2))["message"]["content"][0]["content"][1]["source"]
    assert len(base64.b64decode(data["data"])) == 1026  # what the fixture holds
    assert batch.tool_results == [
        result(
            "toolu_01Uc0Fd5Hg7Ji9Lm1No3Pr5T",
            SESSION,
            2,
            block_uuid("a6b0", 2),
            "2026-01-24T07:13:47.182Z",
            0,
            "### Result\n- [Screenshot of viewport](.playwright-mcp/home.png)\n[image/png 1 KB]",
        )
    ]
    assert data["data"][:40] not in batch.tool_results[0].content
    assert batch.messages[1].text == ""


def test_large_image_placeholder_is_in_megabytes():
    data = base64.b64encode(b"\x89PNG" + bytes(1_500_000 - 4)).decode()
    line = {
        "type": "user",
        "uuid": "6f1e0001-2b3c-4d5e-8f90-a1b2c3d4e5f6",
        "sessionId": SESSION,
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Screenshot",
                    "content": [
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/jpeg", "data": data},
                        }
                    ],
                }
            ],
        },
    }
    batch = parse_lines(
        json.dumps(line).encode() + b"\n", first_line_no=1, default_session_id=SESSION
    )
    assert [(r.content, r.content_length) for r in batch.tool_results] == [
        ("[image/jpeg 1.4 MB]", 19)
    ]


def test_tool_result_tool_reference_blocks():
    batch = parse_file(FIXTURES / "blocks/tool_result_tool_reference.jsonl")
    assert [(c.name, c.input) for c in batch.tool_calls] == [
        ("ToolSearch", '{"query":"select:TaskCreate,TaskUpdate","max_results":2}')
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Vd1Ge6Ih8Kj0Mn2Op4Qs6U",
            SESSION,
            2,
            block_uuid("a7b0", 2),
            "2026-08-15T07:05:10.090Z",
            0,
            "[tool_reference TaskCreate]\n[tool_reference TaskUpdate]",
        )
    ]


def test_tool_result_object_content_is_stored_as_json():
    batch = parse_file(FIXTURES / "blocks/tool_result_object_content.jsonl")
    assert batch.tool_results == [
        result(
            "toolu_01We2Hf7Ji9Lk1No3Pq5Rt7V",
            SESSION,
            2,
            block_uuid("a8b0", 2),
            "2026-02-12T09:30:00.210Z",
            0,
            '{"columns":["count(*)"],"rows":[[42]]}',
        )
    ]


def test_tool_result_empty_string_and_empty_list():
    batch = parse_file(FIXTURES / "blocks/tool_result_empty.jsonl")
    assert [(c.name, c.command, c.file_path) for c in batch.tool_calls] == [
        ("Bash", "git add src/sync.py", None),
        ("Grep", None, "/home/dev/app/src"),
    ]
    assert batch.tool_results == [
        result(
            "toolu_01Xf3Ig8Kj0Ml2Op4Qr6Su8W",
            SESSION,
            2,
            block_uuid("a9b0", 2),
            "2026-02-12T09:40:00.300Z",
            0,
            "",
        ),
        result(
            "toolu_01Yg4Jh9Lk1Nm3Pq5Rs7Tv9X",
            SESSION,
            4,
            block_uuid("a9b0", 4),
            "2026-02-12T09:40:02.150Z",
            0,
            "",
        ),
    ]


def test_is_error_true_false_and_missing():
    batch = parse_file(FIXTURES / "blocks/is_error_true_false_missing.jsonl")
    names = {c.tool_use_id: c.name for c in batch.tool_calls}
    assert [
        (r.line_no, names[r.tool_use_id], r.is_error, r.content) for r in batch.tool_results
    ] == [
        (
            2,
            "Bash",
            1,
            "Exit code 1\nFAILED tests/test_sync.py::test_retry - AssertionError: assert 3 == 5",
        ),
        (4, "Edit", 0, "The file /home/dev/app/src/sync.py has been updated successfully."),
        (6, "Bash", 0, "12 passed in 0.41s"),
    ]


def test_compact_boundary_and_compact_summary():
    batch = parse_file(FIXTURES / "blocks/compact_boundary.jsonl")

    def uuid(n):
        return block_uuid("abb0", n)

    assert batch.messages[1:] == [
        message(
            APP_USER,
            uuid=uuid(2),
            line_no=2,
            parent_uuid=None,  # the chain restarts; logicalParentUuid is not a parent
            type="system",
            kind="compact_boundary",
            timestamp="2026-02-12T16:13:25.613Z",
            text="Conversation compacted",
        ),
        message(
            APP_USER,
            uuid=uuid(3),
            line_no=3,
            parent_uuid=uuid(2),
            kind="compact_summary",
            timestamp="2026-02-12T16:13:25.614Z",
            text="This session is being continued from a previous conversation that ran out of"
            " context. The summary below covers the earlier portion of the conversation.\n\n"
            "Analysis:\nThe user asked to fix the flaky sync test and push the branch.",
            is_compact_summary=1,
        ),
        message(
            APP_USER,
            uuid=uuid(4),
            line_no=4,
            parent_uuid=uuid(3),
            timestamp="2026-02-12T16:14:02.000Z",
            text="now open the PR",
        ),
    ]


def test_system_api_error_lines_keep_their_cause():
    batch = parse_file(FIXTURES / "blocks/system_api_error.jsonl")
    system = APP_USER._replace(type="system", kind="api_error", git_branch=None, version="2.1.15")
    api = "https://api.anthropic.com/v1/messages?beta=true"
    assert [m for m in batch.messages if m.type == "system"] == [
        message(
            system,
            uuid=block_uuid("acb0", 2),
            line_no=2,
            parent_uuid=block_uuid("acb0", 1),
            timestamp="2026-01-22T21:11:35.158Z",
            text=f"API error: FailedToOpenSocket {api}",
        ),
        message(
            system,
            uuid=block_uuid("acb0", 3),
            line_no=3,
            parent_uuid=block_uuid("acb0", 2),
            timestamp="2026-01-22T21:11:35.732Z",
            text=f"API error: ConnectionRefused {api}",
        ),
    ]


def test_ansi_escapes_are_stripped():
    path = FIXTURES / "blocks/ansi_escapes.jsonl"
    batch = parse_file(path)
    raw = json.loads(fixture_line(path, 2))["message"]["content"][0]["content"]
    assert "\x1b[32m" in raw
    assert batch.tool_results == [
        ToolResult(
            "toolu_01Ck8Nl3Po5Rq7Tu9Vw1Xz3B",
            SESSION,
            2,
            block_uuid("adb0", 2),
            "2026-02-10T21:15:41.200Z",
            0,
            "✔ Installation in progress... ☕\n🚀  Successfully created project api",
            len(raw),  # the length as written, escapes included
        )
    ]
    assert [(m.line_no, m.kind, m.text) for m in batch.messages if m.type == "system"] == [
        (
            3,
            "local_command",
            "<local-command-stdout>Kept model as Default (recommended)</local-command-stdout>",
        ),
    ]


def test_summary_on_the_last_line_names_this_session():
    batch = parse_file(FIXTURES / "blocks/summary_last_line.jsonl")
    summary = json.loads(fixture_line(FIXTURES / "blocks/summary_last_line.jsonl", 3))
    assert summary["leafUuid"] == batch.messages[-1].uuid
    assert batch.meta == [SessionMeta(SESSION, 3, "summary", "Sushi poem", batch.messages[-1].uuid)]


def long_log(length):
    lines = (f"{i:06d} GET /api/bookmarks 200 12ms\n" for i in range(length // 20))
    return "".join(lines)[:length]


@pytest.mark.parametrize("redact_secrets", [True, False])
@pytest.mark.parametrize("extra", [0, 12_345])
def test_long_text_keeps_head_and_tail_with_a_marker(extra, redact_secrets):
    """The reader keeps the whole text; prepare() cuts it, after redaction (see test_redact)."""
    text = long_log(MAX_TEXT + extra)
    lines = [
        {
            "type": "assistant",
            "uuid": "9a8b0001-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
            "sessionId": SESSION,
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        },
        {
            "type": "user",
            "uuid": "9a8b0002-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
            "sessionId": SESSION,
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01Log", "content": text}],
            },
        },
    ]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    batch = prepare(
        parse_lines(data, first_line_no=1, default_session_id=SESSION),
        redact_secrets=redact_secrets,
    )
    [tool_result] = batch.tool_results
    assert tool_result.content_length == len(text)
    for stored in (batch.messages[0].text, tool_result.content):
        if not extra:
            assert stored == text
            continue
        marker = f"\n[... pastfix: {extra:,} characters omitted ...]\n"
        head, tail = stored.split(marker)
        assert len(head) + len(tail) == MAX_TEXT
        assert len(head) > len(tail) > 0
        assert text.startswith(head)
        assert text.endswith(tail)


# -- error texts (format doc, section 7) -------------------------------------------


ERROR_CASES = {
    "bash_exit_code_prefix": [
        ("Bash", 1, "Exit code 127\n/bin/bash: line 1: python: command not found"),
        ("Bash", 1, "Exit code 128\nfatal: The current branch fix-sync has no upstream branch."),
        (
            "Bash",
            1,
            "Exit code 143\nCommand timed out after 3m 0s\n"
            "Running ExUnit with seed: 0, max_cases: 1",
        ),
    ],
    "bash_1_0_raw_stderr": [
        ("Bash", 1, "ls: cannot access 'types/': No such file or directory"),
        ("Bash", 1, "Error"),
    ],
    "tool_use_error_wrapped": [
        ("Read", 1, "<tool_use_error>File does not exist.</tool_use_error>"),
        (
            "Edit",
            1,
            "<tool_use_error>String to replace not found in file.\n"
            "String:   def sync(retries=3):</tool_use_error>",
        ),
        (
            "Write",
            1,
            "<tool_use_error>File has not been read yet."
            " Read it first before writing to it.</tool_use_error>",
        ),
        ("TaskOutput", 1, "<tool_use_error>No task found with ID: b7e31f2</tool_use_error>"),
        (
            "Read",
            1,
            "<tool_use_error>File content (806.5KB) exceeds maximum allowed size (256KB)."
            " Please use offset and limit parameters to read specific portions of the file,"
            " or use the GrepTool to search for specific content.</tool_use_error>",
        ),
    ],
    # The content carries the human form; toolUseResult has the raw zod array.
    "input_validation_error": [
        (
            "Task",
            1,
            "<tool_use_error>InputValidationError: Task failed due to the following issue:\n"
            "The required parameter `prompt` is missing</tool_use_error>",
        ),
    ],
    "sibling_tool_call_errored": [
        ("Bash", 1, "Exit code 1\ncat: notes/todo.txt: No such file or directory"),
        ("Read", 1, "<tool_use_error>Sibling tool call errored</tool_use_error>"),
    ],
    "unwrapped_errors": [
        ("Read", 1, "EISDIR: illegal operation on a directory, read"),
        (
            "Read",
            1,
            "File content (85812 tokens) exceeds maximum allowed tokens (25000). Please use"
            " offset and limit parameters to read specific portions of the file, or use the"
            " GrepTool to search for specific content.",
        ),
        (
            "Write",
            1,
            "Claude requested permissions to write to /home/dev/app/CLAUDE.md,"
            " but you haven't granted it yet.",
        ),
    ],
    "user_rejected_2_1_38": [
        (
            "Edit",
            1,
            "The user doesn't want to proceed with this tool use. The tool use was rejected"
            " (eg. if it was a file edit, the new_string was NOT written to the file). STOP"
            " what you are doing and wait for the user to tell you how to proceed.",
        ),
    ],
    # is_error:false although the text is an error: kept as it is, searchable by text.
    "error_text_in_successful_result": [
        (
            "Bash",
            0,
            "npm error enoent Could not read package.json: Error: ENOENT: no such file or"
            " directory, open '/home/dev/app/frontend/package.json'\n"
            "npm error enoent This is related to npm not being able to find a file.\n"
            "npm error enoent",
        ),
    ],
}


@pytest.mark.parametrize("name", ERROR_CASES)
def test_error_texts_are_stored_verbatim(name):
    batch = parse_file(FIXTURES / f"errors/{name}.jsonl")
    names = {c.tool_use_id: c.name for c in batch.tool_calls}
    assert [(names[r.tool_use_id], r.is_error, r.content) for r in batch.tool_results] == (
        ERROR_CASES[name]
    )
    assert all(r.content_length == len(r.content) for r in batch.tool_results)
    assert (batch.problems, batch.skipped) == ([], 0)


def test_error_result_record():
    batch = parse_file(FIXTURES / "errors/bash_exit_code_prefix.jsonl")
    assert batch.tool_results[0] == result(
        "toolu_01Dl9Om4Qp6Sr8Uv0Wx2Ya4C",
        SESSION,
        2,
        "e1000002-4b1e-4c3d-8f2a-9e0b7d15c3a6",
        "2026-02-12T11:00:00.400Z",
        1,
        "Exit code 127\n/bin/bash: line 1: python: command not found",
    )


def test_queued_command_attachment_is_a_prompt_other_attachments_are_skipped():
    batch = parse_file(FIXTURES / "blocks/attachment_queued_command.jsonl")

    def uuid(n):
        return f"c900000{n}-6a2c-4e8b-9d1f-3b5c7e9a0d42"

    queued = Message(
        uuid(1),
        SESSION,
        1,
        "b8000000-6a2c-4e8b-9d1f-3b5c7e9a0d42",
        "user",
        "queued_prompt",
        "2026-02-03T10:00:01.000Z",
        "also run the linter when the tests pass",
        0,
        0,
        0,
        None,
        None,
        APP,
        "main",
        "2.1.128",
    )
    assert batch.messages == [
        queued,
        queued._replace(
            uuid=uuid(2),
            line_no=2,
            parent_uuid=uuid(1),
            timestamp="2026-02-03T10:00:02.000Z",
            text="and fix this one too [Image #2]\n\n[image/png 1 KB]",
        ),
    ]
    assert (batch.problems, batch.lines, batch.skipped, batch.tool_results) == ([], 4, 0, [])


# -- bad lines ---------------------------------------------------------------------


# file -> (problems as (line_no, reason), line numbers of the messages still parsed)
BAD_LINES = {
    "malformed_json_cut_off_line": ([(2, "malformed JSON: Input data was truncated")], [1, 3]),
    "invalid_utf8_bytes": ([(2, "invalid UTF-8")], [1, 3]),
    "json_array_line": ([(2, "JSON array, not an object")], [1, 3]),
    "json_number_line": ([(2, "JSON int, not an object")], [1, 3]),
    "json_string_line": ([(2, "JSON str, not an object")], [1, 3]),
    "comment_lines_on_top": (
        [(1, "comment line, not JSON"), (2, "comment line, not JSON")],
        [3, 4],
    ),
    "content_is_a_number": ([(2, "message content is an int")], [1, 3]),
    "is_error_a_string": ([(2, "tool_result is_error is a str, not a boolean")], [1, 3]),
    "message_is_a_string": ([(2, "assistant line whose message is a str")], [1, 3]),
    "tool_result_without_tool_use_id": ([(2, "tool_result without a tool_use_id")], [1, 3]),
    "user_line_without_uuid": ([(2, "user line without a uuid")], [1, 3]),
    "object_without_type": ([(2, "line has no string 'type'")], [1, 3]),
    "queued_command_prompt_is_a_number": ([(2, "queued_command prompt is an int")], [1, 3]),
}


@pytest.mark.parametrize("name", BAD_LINES)
def test_bad_line_is_a_problem_and_its_neighbours_survive(name):
    path = FIXTURES / f"bad/{name}.jsonl"
    # The excerpt is cut by prepare(), after redaction.
    batch = prepare(parse_file(path))
    problems, good = BAD_LINES[name]
    assert batch.problems == [
        Problem(n, reason, fixture_line(path, n).decode("utf-8", "replace")[:200])
        for n, reason in problems
    ]
    assert [m.line_no for m in batch.messages] == good
    # Nothing of a bad line is kept, not even the blocks before the bad one.
    assert {r.line_no for r in batch.tool_results} | {c.line_no for c in batch.tool_calls} <= set(
        good
    )
    assert (batch.lines, batch.skipped) == (3 if len(problems) == 1 else 4, 0)


def test_invalid_utf8_excerpt_shows_a_replacement_character():
    line = b'{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"caf\xe9"}}'
    batch = parse_lines(line + b"\n", first_line_no=7, default_session_id=SESSION)
    assert batch.problems == [
        Problem(
            7,
            "invalid UTF-8",
            '{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"caf\ufffd"}}',
        )
    ]


def test_invalid_utf8_in_the_tool_use_result_sidecar_keeps_the_line():
    # toolUseResult duplicates the tool_result content and is never read.
    line = (
        b'{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":'
        b'[{"type":"tool_result","tool_use_id":"toolu_01Cat","content":"(binary)"}]},'
        b'"toolUseResult":{"stdout":"\x89PNG\xff\xfe","stderr":""}}\n'
    )
    batch = parse_lines(line, first_line_no=1, default_session_id=SESSION)
    assert batch.problems == []
    assert [(r.tool_use_id, r.content) for r in batch.tool_results] == [("toolu_01Cat", "(binary)")]


def test_agent_file_line_without_a_session_id_is_a_problem():
    path = FIXTURES / "bad/agent_line_without_session_id.jsonl"
    batch = prepare(parse_file(path, session=None))
    assert batch.problems == [
        Problem(2, "user line without a sessionId", fixture_line(path, 2).decode()[:200])
    ]
    assert [(m.line_no, m.session_id) for m in batch.messages] == [(1, V2_0), (3, V2_0)]


def test_unknown_line_type_is_skipped_not_a_problem():
    batch = parse_file(FIXTURES / "bad/unknown_line_type.jsonl")
    assert [m.line_no for m in batch.messages] == [1, 3]
    assert (batch.problems, batch.meta, batch.lines, batch.skipped) == ([], [], 3, 1)


def test_a_server_tools_result_is_its_calls_result():
    """The advisor (a server tool, 2.1.232): its call and its result, an encrypted advice
    with no text, are a call and a result, not a skipped block."""
    batch = parse_file(FIXTURES / "bad/unknown_block_type.jsonl")
    assert [(m.line_no, m.kind, m.text) for m in batch.messages] == [
        (1, "server_tool_use", ""),
        (2, "advisor_tool_result", ""),
        (3, "text", "Advisor reviewed the plan."),
    ]
    assert [c.tool_use_id for c in batch.tool_calls] == ["srvtoolu_01Mr9Xo4Ua6Sl3Wy8Zd5Ce0J"]
    results = [(r.tool_use_id, r.is_error, r.content) for r in batch.tool_results]
    assert results == [("srvtoolu_01Mr9Xo4Ua6Sl3Wy8Zd5Ce0J", 0, "")]
    assert (batch.problems, batch.skipped) == ([], 0)


# Content blocks of the tools the API runs, as Claude Code 2.1.332's list of block types
# names them, shaped as the Messages API writes them; then one no Claude Code writes.
SERVER_BLOCKS = [
    {"type": "advisor_tool_result", "tool_use_id": "srvtoolu_01A",
     "content": {"type": "advisor_result", "text": "Pin fastapi before upgrading pydantic."}},
    {"type": "advisor_tool_result", "tool_use_id": "srvtoolu_01B",
     "content": {"type": "advisor_tool_result_error", "error_code": "overloaded"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01C", "content": [
        {"type": "web_search_result", "title": "FastAPI release notes",
         "url": "https://fastapi.example/release-notes/", "encrypted_content": "Eq0BCkYI"}]},
    {"type": "mcp_tool_use", "id": "mcptoolu_01D", "name": "query", "server_name": "db",
     "input": {"sql": "select 1"}},
    {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01D", "is_error": True,
     "content": [{"type": "text", "text": "relation \"users\" does not exist"}]},
    {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlx"},
    {"type": "container_upload", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
    {"type": "compaction", "content": "Summary: the tests fail on a missing fastapi pin."},
    {"type": "hologram"},
]  # fmt: skip


def test_the_blocks_of_server_tools_are_results_and_known():
    message = {"role": "assistant", "content": SERVER_BLOCKS}
    line = {"type": "assistant", "uuid": "a1", "sessionId": SESSION,
            "timestamp": "2026-12-01T12:00:00Z", "message": message}  # fmt: skip
    batch = parse_lines(
        (json.dumps(line) + "\n").encode(), first_line_no=1, default_session_id=SESSION
    )
    assert (batch.problems, batch.skipped) == ([], 1)  # the hologram alone
    assert [(c.tool_use_id, c.name) for c in batch.tool_calls] == [("mcptoolu_01D", "query")]
    assert [(r.tool_use_id, r.is_error, r.content) for r in batch.tool_results] == [
        ("srvtoolu_01A", 0, "Pin fastapi before upgrading pydantic."),
        ("srvtoolu_01B", 1, "advisor_tool_result_error: overloaded"),
        ("srvtoolu_01C", 0, "FastAPI release notes\nhttps://fastapi.example/release-notes/"),
        ("mcptoolu_01D", 1, 'relation "users" does not exist'),
    ]
    assert batch.messages[0].text == "Summary: the tests fail on a missing fastapi pin."


def test_blank_lines_are_ignored_but_counted():
    batch = parse_file(FIXTURES / "bad/blank_lines.jsonl")
    assert [(m.line_no, m.text) for m in batch.messages] == [
        (1, "tidy the imports"),
        (4, "Imports sorted."),
    ]
    assert (batch.problems, batch.lines, batch.skipped) == ([], 4, 0)


# -- parsing from the middle of a file ------------------------------------------


def test_first_line_no_numbers_a_tail_of_the_file():
    data = V1_FILE.read_bytes()
    head, tail = data.split(b"\n", 4)[:4], data.split(b"\n", 4)[4]
    assert len(head) == 4
    whole = parse_file(V1_FILE, session=V1)
    rest = parse_lines(tail, first_line_no=5, default_session_id=V1)
    assert rest.messages == [m for m in whole.messages if m.line_no >= 5]
    assert rest.tool_calls == [c for c in whole.tool_calls if c.line_no >= 5]
    assert rest.tool_results == whole.tool_results
    assert (rest.meta, rest.lines) == ([], 8)


def test_first_line_no_numbers_problems():
    path = FIXTURES / "bad/malformed_json_cut_off_line.jsonl"
    tail = path.read_bytes().split(b"\n", 1)[1]
    batch = parse_lines(tail, first_line_no=2, default_session_id=SESSION)
    assert [p.line_no for p in batch.problems] == [2]
    assert [m.line_no for m in batch.messages] == [3]
    assert batch.lines == 2


def test_empty_data():
    batch = parse_lines(b"", first_line_no=40, default_session_id=SESSION)
    assert (batch.messages, batch.problems, batch.lines, batch.skipped) == ([], [], 0, 0)


# -- the real corpus ---------------------------------------------------------------


@needs_real_corpus()
def test_real_corpus_counts_match_the_format_doc():
    calls = results = errors = skipped = 0
    problems = []
    for source in iter_source_files(REAL_PROJECTS):
        batch = parse_file(source.path, session=source.session_id)
        calls += len(batch.tool_calls)
        results += len(batch.tool_results)
        errors += sum(r.is_error for r in batch.tool_results)
        skipped += batch.skipped
        problems += batch.problems
    # tool_use 1,416 + server_tool_use 3; tool_result 1,416 (93 errors) and the 2
    # advisor_tool_result blocks over projects/; every block type is read.
    assert (calls, results, errors, skipped, problems) == (1419, 1418, 93, 0, [])


@needs_real_corpus()
def test_real_edge_file_with_comment_lines_and_a_screenshot():
    batch = parse_file(REAL_CORPUS / "edge/images-in-tool-results.jsonl", session=None)
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (1, "comment line, not JSON"),
        (2, "comment line, not JSON"),
    ]
    [screenshot] = batch.tool_results
    assert screenshot.content.endswith("\n[image/png 443 KB]")
    assert len(screenshot.content) < 1000


@pytest.mark.parametrize("field", ["uuid", "sessionId", "timestamp", "cwd", "gitBranch"])
def test_envelope_field_of_the_wrong_type_is_a_problem(field):
    good = {
        "type": "user",
        "uuid": "0f0e0d0c-1111-4222-8333-444455556666",
        "sessionId": "s1",
        "timestamp": "2026-01-01T00:00:00Z",
        "cwd": "/home/dev/app",
        "gitBranch": "main",
        "message": {"role": "user", "content": "hello"},
    }
    bad = {**good, field: 42}
    data = (json.dumps(good) + "\n" + json.dumps(bad) + "\n").encode()
    batch = parse_lines(data, first_line_no=1, default_session_id="s1")
    assert [m.line_no for m in batch.messages] == [1]
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (2, f"{field} is an int, not a string")
    ]


# -- hostile input (issue 10): a recorded problem, never a traceback -----------------


def _line(text="hello", **extra):
    return json.dumps(
        {
            "type": "user",
            "uuid": extra.pop("uuid", "u1"),
            "sessionId": SESSION,
            "message": {"role": "user", "content": text},
            **extra,
        }
    ).encode()


@pytest.mark.parametrize("where", ["progress", "unknown field", "content"])
def test_deeply_nested_line_is_a_problem_and_its_neighbours_survive(where):
    deep = "[" * 1200 + "]" * 1200
    if where == "progress":
        bad = b'{"type": "progress", "data": ' + deep.encode() + b"}"
    elif where == "unknown field":
        bad = _line(uuid="u2")[:-1] + b', "extra": ' + deep.encode() + b"}"
    else:
        bad = _line(uuid="u2")[:-2] + b', "deep": ' + deep.encode() + b"}}"
    batch = parse_lines(
        _line(uuid="u1") + b"\n" + bad + b"\n" + _line(uuid="u3") + b"\n",
        first_line_no=1,
        default_session_id=SESSION,
    )
    assert [m.uuid for m in batch.messages] == ["u1", "u3"]
    assert [(p.line_no, p.reason) for p in batch.problems] == [(2, "JSON nested too deeply")]


@pytest.mark.parametrize(
    "escape, expected",
    [
        (r"cut \ud83d", "cut \ufffd"),
        (r"\ud83d", "\ufffd"),
        (r"low \udc00 alone", "low \ufffd alone"),
        (r"pair \ud83d\ude00 kept", "pair \U0001f600 kept"),
        (r"two \ud83d\ud83d\ude00", "two \ufffd\U0001f600"),
        (r"escaped \\ud83d stays", r"escaped \ud83d stays"),
    ],
)
def test_lone_surrogate_escape_is_replaced_and_the_line_kept(escape, expected):
    line = b'{"type": "user", "uuid": "u1", "sessionId": "s", "message": {"content": "'
    line += escape.encode() + b'"}, "x": "\\ud83d"}\n'
    batch = parse_lines(line, first_line_no=1, default_session_id=None)
    assert batch.problems == []
    assert [m.text for m in batch.messages] == [expected]


def test_byte_order_mark_does_not_cost_the_first_line():
    data = b"\xef\xbb\xbf" + _line(uuid="u1") + b"\n" + _line(uuid="u2") + b"\n"
    batch = parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert [m.uuid for m in batch.messages] == ["u1", "u2"]
    assert batch.problems == []


def test_iter_source_files_walks_a_tree_deeper_than_the_recursion_limit(tmp_path):
    import os

    deep = str(tmp_path / "proj")
    os.mkdir(deep)
    path = deep
    for _ in range(1100):  # os.makedirs and pathlib would recurse themselves
        path += "/d"
        os.mkdir(path)
    for name in (f"{path}/deep.jsonl", f"{deep}/top.jsonl"):
        open(name, "w").close()
    try:
        found = list(iter_source_files(tmp_path))
    finally:
        os.remove(f"{path}/deep.jsonl")
        folder = path
        while folder != deep:  # shutil.rmtree recurses too: leave pytest a shallow tree
            os.rmdir(folder)
            folder = os.path.dirname(folder)
    assert [f.path for f in found] == [f"{path}/deep.jsonl", f"{deep}/top.jsonl"]


def test_iter_source_files_symlink_loop_named_jsonl_is_listed_not_fatal(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "loop.jsonl").symlink_to(project / "loop.jsonl")
    (project / "ok.jsonl").write_text("")
    assert [Path(f.path).name for f in iter_source_files(tmp_path)] == ["loop.jsonl", "ok.jsonl"]


def test_iter_source_files_reports_unreadable_directories(tmp_path, monkeypatch):
    import os

    from pastfix import transcripts

    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.jsonl").write_text("")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "b.jsonl").write_text("")
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(transcripts.os, "scandir", scandir)
    assert list(iter_source_files(tmp_path)) == [
        SourceFile(
            str(tmp_path / "locked"), None, "locked", problem="cannot list: Permission denied"
        ),
        SourceFile(str(tmp_path / "ok" / "a.jsonl"), "a", "ok"),
    ]


def test_iter_source_files_follows_symlinked_folders_once(tmp_path):
    elsewhere = tmp_path / "elsewhere" / "proj"
    elsewhere.mkdir(parents=True)
    (elsewhere / "s.jsonl").write_text("")
    (elsewhere / "back").symlink_to(elsewhere)  # a loop
    root = tmp_path / "projects"
    root.mkdir()
    (root / "proj").symlink_to(elsewhere)
    (root / "again").symlink_to(elsewhere)
    found = list(iter_source_files(root))
    # Entries are read in name order: "again" is followed, "proj" is the alias.
    problem = f"symlink to a folder read already: {elsewhere}"
    assert found == [
        SourceFile(str(root / "again" / "back"), None, "again", problem=problem),
        SourceFile(str(root / "again" / "s.jsonl"), "s", "again"),
        SourceFile(str(root / "proj"), None, "proj", problem=problem),
    ]


# -- fuzzing (issue 10): mutated real lines never raise, never cost a neighbour ------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


def _real_lines(limit=400):
    """A sample of real lines of every type, from the real corpus (or the fixtures)."""
    root = REAL_PROJECTS if REAL_PROJECTS.is_dir() else PROJECTS
    lines = []
    for path in sorted(root.rglob("*.jsonl")):
        for line in path.read_bytes().splitlines()[:40]:
            if 2 < len(line) < 20_000:
                lines.append(line)
        if len(lines) >= limit:
            break
    return lines


REAL_LINES = _real_lines()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_lines(draw):
    line = draw(st.sampled_from(REAL_LINES))
    how = draw(
        st.sampled_from(
            ["truncate", "retype", "nest", "huge", "bad utf-8", "nul", "surrogate", "block"]
        )
    )
    if how == "truncate":
        return line[: draw(st.integers(0, len(line)))]
    if how in ("bad utf-8", "nul"):
        at = draw(st.integers(0, len(line)))
        bad_utf8 = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])
        junk = b"\x00" if how == "nul" else draw(bad_utf8)
        return line[:at] + junk + line[at:]
    if how == "surrogate":
        at = draw(st.integers(0, len(line)))
        escape = draw(st.sampled_from([b"\\ud83d", b"\\udc00", b"\\ud83d\\u"]))
        return line[:at] + escape + line[at:]
    obj = json.loads(line)
    if not isinstance(obj, dict) or not obj:
        return line
    if how == "retype":
        obj[draw(st.sampled_from(sorted(obj)))] = draw(JSON_VALUES)
    elif how == "nest":
        depth = draw(st.integers(100, 3000))
        obj[draw(st.sampled_from([*sorted(obj), "extra"]))] = (
            json.loads("[" * depth + "]" * depth) if depth < 900 else None
        )
        if depth >= 900:  # json.loads would recurse too: splice the text in
            text = json.dumps(obj)
            return text[:-1].encode() + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"
    elif how == "huge":
        obj[draw(st.sampled_from([*sorted(obj), "extra"]))] = "x" * draw(st.integers(0, 300_000))
    elif how == "block":
        block = {"type": draw(st.text(max_size=12)), "data": draw(JSON_VALUES)}
        message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
        message["content"] = [block]
        obj["message"] = message
    return json.dumps(obj, ensure_ascii=draw(st.booleans())).encode()


def _good(uuid):
    return json.dumps(
        {"type": "user", "uuid": uuid, "sessionId": SESSION, "message": {"content": uuid}}
    ).encode()


@hypothesis.settings(max_examples=150, deadline=None)
@hypothesis.given(mutated_lines())
def test_mutated_real_lines_never_raise_nor_cost_their_neighbours(bad):
    bad = bad.replace(b"\n", b" ")
    data = _good("before") + b"\n" + bad + b"\n" + _good("after") + b"\n"
    batch = parse_lines(data, first_line_no=1, default_session_id=SESSION)
    uuids = [m.uuid for m in batch.messages]
    assert uuids[0] == "before" and uuids[-1] == "after"
    assert batch.lines == 3
    assert all(p.line_no == 2 for p in batch.problems)
    assert len(batch.problems) <= 1


@pytest.mark.parametrize("kind", ["[]", "{}", "[1]"])
def test_a_type_that_is_a_list_or_object_is_a_problem(kind):
    # Found by the fuzz test above: a list does not hash, so `in IGNORED_TYPES` raised.
    data = b'{"type": ' + kind.encode() + b', "uuid": "u1"}\n'
    batch = parse_lines(data, first_line_no=1, default_session_id=SESSION)
    assert [(p.line_no, p.reason) for p in batch.problems] == [(1, "line has no string 'type'")]


@pytest.mark.parametrize("kind", ["[]", "{}", '["text"]'])
def test_a_content_block_whose_type_is_a_list_or_object_is_a_problem(kind):
    """`btype in SERVER_TOOL_RESULTS` raised TypeError, which stopped every build from then
    on (a security tester's fuzzing, round eight): the line is a problem, its neighbours
    are kept."""
    lines = [
        b'{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"first"}}',
        b'{"type":"user","uuid":"u2","sessionId":"s","message":{"content":[{"type":'
        + kind.encode()
        + b',"text":"x"}]}}',
        b'{"type":"user","uuid":"u3","sessionId":"s","message":{"content":"third"}}',
    ]
    batch = parse_lines(b"\n".join(lines) + b"\n", first_line_no=1, default_session_id=SESSION)
    assert [(p.line_no, p.reason) for p in batch.problems] == [
        (2, "a content block's 'type' is not a string")
    ]
    assert [m.text for m in batch.messages] == ["first", "third"]


# Claude Code's <persisted-output> marker, as 2.1.39 and 2.1.128 write it.
MARKER = (
    "<persisted-output>\nOutput too large (41.9KB). Full output saved to:"
    " /Users/me/.claude/projects/-Users-me-app/08ad9c51/tool-results/bq5qwkh3j.txt\n\n"
    "Preview (first 2KB):\ndiff --git a/x b/x\n...\n</persisted-output>"
)


@pytest.mark.parametrize(
    ("content", "name", "rest"),
    [
        (MARKER, "bq5qwkh3j.txt", ""),
        (MARKER + "\nstderr: warning", "bq5qwkh3j.txt", "\nstderr: warning"),  # Bash's stderr
        (
            MARKER.replace(
                "/Users/me/.claude/projects/-Users-me-app/08ad9c51/tool-results/",
                "C:\\Users\\me\\.claude\\projects\\C--app\\08ad9c51\\tool-results\\",
            ),
            "bq5qwkh3j.txt",
            "",
        ),
        (
            MARKER.replace(
                "Output too large (41.9KB). Full output saved to:",
                "Output exceeded the 64MB persist limit; only the first 64MB were saved to:",
            ),
            "bq5qwkh3j.txt",
            "",
        ),
        ("grep: " + MARKER, None, None),  # a transcript read by a tool
        (MARKER.replace("</persisted-output>", ""), None, None),
        ("<persisted-output>\nno path line\n</persisted-output>", None, None),
    ],
)
def test_persisted_name(content, name, rest):
    found = transcripts.persisted_name(content)
    if name is None:
        assert found is None
    else:
        assert found is not None and found[1] == name and content[found[2] :] == rest


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("/p/-home-app/S.jsonl", "/p/-home-app/S/tool-results"),
        ("/p/-home-app/S/subagents/agent-a1.jsonl", "/p/-home-app/S/tool-results"),
    ],
)
def test_side_folder(path, folder):
    assert transcripts.side_folder(SourceFile(path, "S", "-home-app"), "S") == folder


def test_claude_codes_bookkeeping_lines_are_neither_skipped_nor_problems():
    """Claude Code 2.1.332 writes API requests, costs, tools used ... between the messages:
    counted as skipped, they made every build of a current folder warn of a wrong folder."""
    from pastfix.transcripts import IGNORED_TYPES

    sid = "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70"
    lines = [
        {"type": "api-request", "sessionId": sid, "params": {"model": "claude-x"}},
        {"type": "cost-state", "sessionId": sid, "totalCostUSD": 0.0007},
        {"type": "tools-used", "tools": ["Bash"], "sessionId": sid},
        *({"type": t, "sessionId": sid} for t in sorted(IGNORED_TYPES)),
    ]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    batch = parse_lines(data, first_line_no=1, default_session_id=sid)
    assert (batch.lines, batch.skipped, batch.problems, batch.messages) == (len(lines), 0, [], [])


def test_the_entry_types_claude_code_writes_beside_its_table_are_known():
    """2.1.332's writer adds repl-mode, hybrid-organization and host-row to its table of
    entry types (the lines as it writes them): counted as skipped before."""
    sid = SESSION
    lines = [
        {"type": "repl-mode", "replMode": True, "typedEvents": True, "sessionId": sid},
        {"type": "hybrid-organization", "organizationUuid": "5b0c9a2e-0d1f-4e6a-9c3b-7a8d2e1f4c60",
         "sessionId": sid},
        {"type": "host-row", "sessionId": sid, "agentId": "a1b2c3", "timestamp":
         "2026-12-01T12:00:00.000Z", "ranByToolUseId": "toolu_01Repl", "withheld": True},
    ]  # fmt: skip
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    batch = parse_lines(data, first_line_no=1, default_session_id=sid)
    assert (batch.lines, batch.skipped, batch.problems, batch.messages) == (3, 0, [], [])


def test_a_content_replacement_leaves_the_full_result_indexed():
    """A content-replacement line names a result the model got as a <persisted-output>
    preview (Claude Code's per-message budget of tool results); the transcript's own
    tool_result keeps the full text, which stays what is stored."""
    sid = SESSION
    full = "line of output\n" * 20_000
    preview = (
        "<persisted-output>\nOutput too large (293.0KB). Full output saved to: "
        f"/home/dev/.claude/projects/-home-dev-app/{sid}/tool-results/toolu_01Big.txt\n\n"
        "Preview (first 2KB):\nline of output\n...\n</persisted-output>"
    )
    lines = [
        {"type": "assistant", "uuid": "a1", "sessionId": sid, "timestamp": "2026-12-01T12:00:00Z",
         "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01Big",
                     "name": "Bash", "input": {"command": "cat big.log"}}]}},
        {"type": "user", "uuid": "u1", "parentUuid": "a1", "sessionId": sid,
         "timestamp": "2026-12-01T12:00:01Z", "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_01Big", "content": full}]}},
        {"type": "content-replacement", "sessionId": sid, "replacements": [
            {"kind": "tool-result", "toolUseId": "toolu_01Big", "replacement": preview}]},
    ]  # fmt: skip
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    batch = parse_lines(data, first_line_no=1, default_session_id=sid)
    assert (batch.skipped, batch.problems) == (0, [])
    [result] = batch.tool_results
    assert result.content_length == len(full) and "<persisted-output>" not in result.content


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        (
            "<command-name>/orchestrator</command-name><command-args>make an app</command-args>",
            True,
        ),
        ("<command-name>/model</command-name>\n<command-args>sonnet</command-args>", False),
        ("<command-name>/orchestrator</command-name><command-args></command-args>", False),
        ("<command-name>init</command-name><command-args></command-args>", False),
    ],
)
def test_a_command_of_the_users_own_given_arguments_asks_for_work(text, asked):
    """A session begun by `/orchestrator make an app` is titled by it, not by a prompt typed
    an hour later; `/model sonnet` sets Claude Code up and titles nothing (session 27)."""
    assert transcripts.asks(text) is asked


def test_a_symlink_to_a_folder_above_or_to_the_kernels_is_not_followed(tmp_path):
    """A link to `/` (or the home folder holding the store) or to /proc made every build
    walk the whole disk without end (a security tester's finding, session 28): each is one
    problem, and the store's own sessions are read."""
    root = tmp_path / "projects"
    (root / "proj").mkdir(parents=True)
    (root / "proj" / "s.jsonl").write_text("")
    (root / "proj" / "up").symlink_to(tmp_path)
    (root / "proj" / "slash").symlink_to("/")
    (root / "proj" / "kernel").symlink_to("/proc/self")
    found = {(f.path, f.problem) for f in iter_source_files(root)}
    assert (str(root / "proj" / "s.jsonl"), None) in found
    problems = {path: problem for path, problem in found if problem}
    assert (
        problems[str(root / "proj" / "up")]
        == f"symlink to a folder that holds this one: {tmp_path}"
    )
    assert problems[str(root / "proj" / "slash")] == "symlink to a folder that holds this one: /"
    assert problems[str(root / "proj" / "kernel")].startswith("symlink to a system folder: /proc/")
    assert len(found) == 4


def _session_lines(session, calls, version="2.0.2", **extra):
    """A session of `calls` (tool_use_id, tool, input, result content, is_error) of one
    Claude Code version, each call's result after it."""
    lines = [jsonl.prompt(f"{session}-p", session, "run the parser tests", _T0, version=version)]
    for n, (tool_id, tool, tool_input, content, failed) in enumerate(calls):
        at = f"2026-01-06T22:{n + 1:02d}:00.000Z"
        given = {"version": version, **extra}
        lines.append(
            jsonl.tool_use(f"{session}-u{n}", session, tool_id, tool, tool_input, at, **given)
        )
        lines.append(
            jsonl.result(f"{session}-r{n}", session, tool_id, content, at, failed, **given)
        )
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


_T0 = "2026-01-06T22:00:00.000Z"
_SAID = 'Use command "make test_unit --only=Parser" with the right test name'


def test_the_users_words_on_rejecting_a_call_are_stored_as_a_rejection():
    # Claude Code 2.0.x returned the reason typed on rejecting a call alone, as its error
    # (nu49 finding 1): stored after the rejection's sentence of newer versions, it is read
    # as a rejection, with what the user said; a program's output and an MCP server's
    # words stay as they were
    data = _session_lines(
        "s",
        [
            ("t1", "Bash", {"command": "make test"}, "make: *** No rule to make target", True),
            ("t2", "Bash", {"command": "make test Parser"}, _SAID, True),
            ("t3", "Edit", {"file_path": "/a.py"}, "I made the db change.  Try again.", True),
            ("t4", "mcp__db__query", {"sql": "x"}, "I could not run your query", True),
            ("t5", "Bash", {"command": "make test_unit"}, "I ran 3 tests", False),
        ],
    )
    batch = parse_lines(data, first_line_no=1, default_session_id="s")
    prepare(batch, redact_secrets=False)
    said = transcripts.REJECTED_SAID
    assert [(r.tool_use_id, r.is_error, r.content, r.kind) for r in batch.tool_results] == [
        ("t1", 1, "make: *** No rule to make target", "error"),
        ("t2", 1, said + _SAID, "rejected"),
        ("t3", 1, said + "I made the db change.  Try again.", "rejected"),
        ("t4", 1, "I could not run your query", "error"),
        ("t5", 0, "I ran 3 tests", None),
    ]
    assert said.endswith(fixes.USER_SAID + "\n")


def test_the_calls_of_a_subagent_claude_code_only_warms_up_are_no_failures():
    # 2.0.x and 2.1.x send their built-in agents `Warmup` at start and refuse their calls
    # with that word (nu49 finding 9): each result is kept, as no failure
    data = _session_lines(
        "s",
        [
            ("w1", "Bash", {"command": "ls -la"}, "Warmup", True),
            ("w2", "Glob", {"pattern": "**/CLAUDE.md"}, "Warmup", True),
        ],
        version="2.1.1",
        sidechain=True,
        agentId="a0e",
    )
    batch = parse_lines(data, first_line_no=1, default_session_id="s")
    prepare(batch, redact_secrets=False)
    assert [(r.tool_use_id, r.is_error, r.content, r.kind) for r in batch.tool_results] == [
        ("w1", 0, "Warmup", None),
        ("w2", 0, "Warmup", None),
    ]
