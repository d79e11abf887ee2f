"""Builders for Claude Code transcript lines, for tests that write their own sessions."""

import json
from pathlib import Path
from typing import Any

CWD = "/home/dev/app"


def _envelope(kind: str, uuid: str, session: str, ts: str, **extra: Any) -> dict[str, Any]:
    line = {
        "parentUuid": extra.pop("parent", None),
        "isSidechain": extra.pop("sidechain", False),
        "userType": "external",
        "cwd": extra.pop("cwd", CWD),
        "sessionId": session,
        "version": extra.pop("version", "2.1.39"),
        "gitBranch": extra.pop("branch", "main"),
        "type": kind,
        "uuid": uuid,
        "timestamp": ts,
    }
    line.update(extra)
    return line


def prompt(uuid: str, session: str, text: str, ts: str, **extra: Any) -> dict[str, Any]:
    return _envelope("user", uuid, session, ts, message={"role": "user", "content": text}, **extra)


def say(uuid: str, session: str, text: str, ts: str, **extra: Any) -> dict[str, Any]:
    message = {
        "id": "msg_" + uuid,
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-5",
        "content": [{"type": "text", "text": text}],
    }
    return _envelope("assistant", uuid, session, ts, message=message, **extra)


def tool_use(
    uuid: str, session: str, tool_id: str, name: str, tool_input: dict, ts: str, **extra: Any
) -> dict[str, Any]:
    message = {
        "id": "msg_" + uuid,
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-5",
        "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}],
    }
    return _envelope("assistant", uuid, session, ts, message=message, **extra)


def result(
    uuid: str,
    session: str,
    tool_id: str,
    content: Any,
    ts: str,
    is_error: bool | None = None,
    **extra: Any,
) -> dict[str, Any]:
    block: dict[str, Any] = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    sidecar = ("Error: " + content) if is_error and isinstance(content, str) else {"stdout": ""}
    return _envelope(
        "user",
        uuid,
        session,
        ts,
        message={"role": "user", "content": [block]},
        toolUseResult=sidecar,
        **extra,
    )


def write_jsonl(path: Path, lines: list[Any], mode: str = "w") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, mode, encoding="utf-8") as f:
        for line in lines:
            f.write(line if isinstance(line, str) else json.dumps(line))
            f.write("\n")
    return path


def failing_session(session: str, n: int, error: str, fix: str, start: int = 0) -> list[dict]:
    """A session of `n` rounds, each a failed Bash call, an explanation and a fix."""
    lines: list[dict] = [
        prompt(
            f"{session}-p",
            session,
            f"please fix the build of {session}",
            f"2026-01-01T10:00:{start:02d}Z",
        )
    ]
    for i in range(n):
        ts = f"2026-01-01T10:{i // 60 + 1:02d}:{i % 60:02d}Z"
        tid = f"toolu_{session}_{i}"
        lines += [
            tool_use(f"{session}-u{i}", session, tid, "Bash", {"command": f"make step{i}"}, ts),
            result(f"{session}-r{i}", session, tid, f"Exit code 1\n{error} step{i}", ts, True),
            say(f"{session}-s{i}", session, f"{fix} for step {i}", ts),
            tool_use(
                f"{session}-v{i}", session, tid + "b", "Bash", {"command": f"make step{i}"}, ts
            ),
            result(f"{session}-w{i}", session, tid + "b", f"ok step{i}", ts, False),
        ]
    return lines
