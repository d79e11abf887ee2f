"""A scripted model API on 127.0.0.1, for the end-to-end tests of the real agent CLIs.

A test's mock says what each POST gets (`answer`); every request body it keeps
(`keep`) is in `requests`, so the test reads exactly what reached the "model". A GET
(a model listing) gets an empty list.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class MockAPI:
    def __init__(self, base: str = "/v1") -> None:
        self.requests: list[dict] = []
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._send("application/json", b'{"object": "list", "data": []}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                if mock.keep(self.path, body):
                    mock.requests.append(body)
                self._send(*mock.answer(self.path, body))

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{base}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def keep(self, path: str, body: dict) -> bool:
        return True

    def answer(self, path: str, body: dict) -> tuple[str, bytes]:
        """The content type and body of the answer to a POST of `body` to `path`."""
        raise NotImplementedError

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def event_stream(events: list[Any], named: bool = False) -> tuple[str, bytes]:
    """Server-sent events of `events` (JSON, or a string as it is), `event: <type>` lines
    first when `named` (the Responses API's form)."""
    lines = []
    for e in events:
        head = f"event: {e['type']}\n" if named else ""
        lines.append(f"{head}data: {e if isinstance(e, str) else json.dumps(e)}\n\n")
    return "text/event-stream", "".join(lines).encode()
