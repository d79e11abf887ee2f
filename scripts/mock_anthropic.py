"""A scripted stand-in for the Anthropic Messages API, for driving the real Claude Code CLI.

Claude Code (`claude -p`) with ANTHROPIC_BASE_URL pointing here sends its requests
to POST /v1/messages; this server answers them from a script instead of a model,
on 127.0.0.1 only, and keeps every request so a test can read what the CLI sent:
the tool results, the hooks' additionalContext, the tools and skills it offered.

The "model" is a function of the request that returns content blocks (tool_use
blocks, or text to end the turn): a test scripts it by what the request already
holds (which tool calls were made, which tools are offered), so a retried
request gets the same answer and a step can depend on what the last one got
back (the tools ToolSearch loaded, say). Requests that are not the main
conversation (no Bash tool offered: a title, a summary, a quota check) get a
short text. Answers are streamed as server-sent
events when the request asks for `stream`, in the event order the API documents
(message_start, content_block_start/delta/stop, message_delta, message_stop).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Block = dict[str, Any]
Model = Callable[[dict[str, Any]], list[Block]]


def tool_use(name: str, tool_input: dict[str, Any], tool_id: str) -> Block:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def blocks(request: dict[str, Any], role: str, kind: str) -> list[Block]:
    """The content blocks of type `kind` in the request's messages of `role`, in order."""
    found = []
    for message in request.get("messages") or []:
        content = message.get("content")
        if message.get("role") == role and isinstance(content, list):
            found += [b for b in content if isinstance(b, dict) and b.get("type") == kind]
    return found


def calls_made(request: dict[str, Any]) -> set[str]:
    """The ids of the tool calls the "model" already made in this conversation."""
    return {str(b.get("id")) for b in blocks(request, "assistant", "tool_use")}


def tool_names(request: dict[str, Any]) -> list[str]:
    return [str(t.get("name")) for t in request.get("tools") or []]


def is_main(request: dict[str, Any]) -> bool:
    """Whether a request is the main conversation: the one offering the Bash tool."""
    return "Bash" in tool_names(request)


def _events(message_id: str, model: str, answer: list[Block]) -> list[tuple[str, dict[str, Any]]]:
    usage = {"input_tokens": 10, "output_tokens": 1}
    stop = "tool_use" if any(b["type"] == "tool_use" for b in answer) else "end_turn"
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage,
                },
            },
        )
    ]
    for i, block in enumerate(answer):
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": start},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": i}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


class MockAnthropic:
    """The mock server: `with MockAnthropic(steps) as mock:` serves on mock.url."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._count = 0
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:  # connectivity checks
                self.send_response(200)
                self.end_headers()

            def do_GET(self) -> None:
                self._json(200, {})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    request = {}
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._json(200, {"input_tokens": 10})
                    return
                with mock._lock:
                    mock.requests.append(request)
                    mock._count += 1
                    message_id = f"msg_mock_{mock._count}"
                answer = mock.answer(request)
                model = str(request.get("model") or "claude-mock")
                if request.get("stream"):
                    self._stream(_events(message_id, model, answer))
                else:
                    stop = (
                        "tool_use" if any(b["type"] == "tool_use" for b in answer) else "end_turn"
                    )
                    self._json(
                        200,
                        {
                            "id": message_id,
                            "type": "message",
                            "role": "assistant",
                            "model": model,
                            "content": answer,
                            "stop_reason": stop,
                            "stop_sequence": None,
                            "usage": {"input_tokens": 10, "output_tokens": 5},
                        },
                    )

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, events: list[tuple[str, dict[str, Any]]]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def answer(self, request: dict[str, Any]) -> list[Block]:
        if not is_main(request):
            return [text("ok")]
        return self.model(request)

    def main_requests(self) -> list[dict[str, Any]]:
        """The requests of the main conversation, in the order they came."""
        return [r for r in self.requests if is_main(r)]

    def __enter__(self) -> MockAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
