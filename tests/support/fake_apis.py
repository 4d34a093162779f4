"""A real HTTP server on 127.0.0.1 that answers like the model APIs, with scripted replies.

It speaks whatever shape you queue: helpers build Anthropic Messages, OpenAI Responses and Chat
Completions answers (tool calls, several calls, text only, refusals, truncation), plus HTTP
errors, malformed JSON, oversized and slow replies. Every request is recorded (method, path,
headers, raw body, parsed JSON) so tests can assert the exact bodies and headers sent.

Usage::

    with fake_api_server() as api:
        api.queue(chat_reply(calls=[("get_user", '{"id": 1}')]))
        provider = build_provider("openai-compatible", "m", api.base_url + "/v1", env={})
        ...
        assert api.requests[0].json["model"] == "m"

Replies are served first-in first-out whatever the path (``queue(reply, path="/v1/messages")``
restricts one to a path). When the queue is empty, ``api.responder(request)`` answers if set
(for benchmarks: a fixed reply after a fixed delay), else ``api.default`` (a 500 by default).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "FakeApi",
    "FakeReply",
    "RecordedRequest",
    "anthropic_reply",
    "chat_reply",
    "fake_api_server",
    "http_error",
    "malformed_json",
    "responses_reply",
]


@dataclass(frozen=True)
class FakeReply:
    """One scripted HTTP answer; ``json_body`` wins over ``body`` when both are given."""

    status: int = 200
    json_body: Any = None
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0
    chunked: bool = False  # send without Content-Length, in chunks (tests the streaming cap)

    def payload(self) -> bytes:
        """The bytes sent as the response body."""
        if self.json_body is not None:
            return json.dumps(self.json_body).encode("utf-8")
        return self.body or b""

    def slow(self, seconds: float) -> FakeReply:
        """The same reply, sent after ``seconds``."""
        return FakeReply(
            self.status, self.json_body, self.body, self.headers, seconds, self.chunked
        )


@dataclass(frozen=True)
class RecordedRequest:
    """A request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]  # lowercased names
    raw: bytes
    json: Any  # the parsed body, or None when it was not JSON


@dataclass
class FakeApi:
    """The running server: where it listens, what to answer, and what it received."""

    base_url: str
    requests: list[RecordedRequest] = field(default_factory=list)
    default: FakeReply = field(
        default_factory=lambda: FakeReply(500, {"error": {"message": "no scripted reply"}})
    )
    responder: Callable[[RecordedRequest], FakeReply] | None = None
    _queue: deque[tuple[str | None, FakeReply]] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def queue(self, *replies: FakeReply, path: str | None = None) -> None:
        """Append replies to the FIFO; with ``path``, only a request to that path takes them."""
        with self._lock:
            for reply in replies:
                self._queue.append((path, reply))

    def pending(self) -> int:
        """How many queued replies are still unserved."""
        with self._lock:
            return len(self._queue)

    def next_reply(self, request: RecordedRequest) -> FakeReply:
        """Record ``request`` and choose its reply (used by the handler thread)."""
        with self._lock:
            self.requests.append(request)
            for index, (path, reply) in enumerate(self._queue):
                if path is None or path == request.path:
                    del self._queue[index]
                    return reply
        if self.responder is not None:
            return self.responder(request)
        return self.default


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in separate writes
    api: FakeApi  # set on the per-server subclass

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        request = RecordedRequest(
            self.command,
            self.path,
            {k.lower(): v for k, v in self.headers.items()},
            raw,
            parsed,
        )
        reply = self.api.next_reply(request)
        if reply.delay > 0:
            time.sleep(reply.delay)
        payload = reply.payload()
        try:
            self.send_response(reply.status)
            names = {name.lower() for name, _ in reply.headers}
            if "content-type" not in names:
                self.send_header("content-type", "application/json")
            for name, value in reply.headers:
                self.send_header(name, value)
            if reply.chunked:
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                step = 1 << 20
                for start in range(0, len(payload), step):
                    piece = payload[start : start + step]
                    self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_POST = _serve
    do_GET = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 stalls bursts of concurrent connects


@contextmanager
def fake_api_server() -> Iterator[FakeApi]:
    """Start the server on a free loopback port; stop it and its threads on exit."""
    api = FakeApi(base_url="")
    handler = type("_BoundHandler", (_Handler,), {"api": api})
    server = _Server(("127.0.0.1", 0), handler)
    api.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-api", daemon=True
    )
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def http_error(status: int, message: str = "error", **extra: Any) -> FakeReply:
    """An API-style JSON error body with the given status."""
    return FakeReply(status, {"error": {"message": message, **extra}})


def malformed_json(status: int = 200) -> FakeReply:
    """A body that is not JSON at all."""
    return FakeReply(status, body=b'{"id": "oops", "choices": [')


# ---- Anthropic Messages -------------------------------------------------------------------


def anthropic_reply(
    calls: Sequence[tuple[str, Any]] = (),
    text: str = "",
    *,
    stop_reason: str | None = None,
    stop_details: dict[str, Any] | None = None,
    thinking: str | None = None,
    usage: tuple[int, int] | None = (12, 5),
) -> FakeReply:
    """A Messages answer: optional thinking, a text block, then one tool_use block per call."""
    content: list[dict[str, Any]] = []
    if thinking is not None:
        content.append({"type": "thinking", "thinking": thinking, "signature": "sig"})
    if text:
        content.append({"type": "text", "text": text})
    for index, (name, arguments) in enumerate(calls):
        content.append(
            {"type": "tool_use", "id": f"toolu_{index:02d}", "name": name, "input": arguments}
        )
    body: dict[str, Any] = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "fake-model",
        "content": content,
        "stop_reason": stop_reason or ("tool_use" if calls else "end_turn"),
        "stop_sequence": None,
    }
    if stop_details is not None:
        body["stop_details"] = stop_details
    if usage is not None:
        body["usage"] = {"input_tokens": usage[0], "output_tokens": usage[1]}
    return FakeReply(200, body)


# ---- OpenAI Responses ---------------------------------------------------------------------


def responses_reply(
    calls: Sequence[tuple[str, str]] = (),
    text: str = "",
    *,
    status: str = "completed",
    incomplete_reason: str | None = None,
    refusal: str | None = None,
    item_status: str = "completed",
    reasoning: str | None = None,
    include_message: bool | None = None,
    usage: tuple[int, int] | None = (20, 7),
) -> FakeReply:
    """A Responses answer: optional reasoning, a message (text or refusal), then function_calls."""
    output: list[dict[str, Any]] = []
    if reasoning is not None:
        output.append(
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": reasoning}],
            }
        )
    if include_message or (include_message is None and (text or refusal is not None)):
        parts: list[dict[str, Any]] = []
        if text:
            parts.append({"type": "output_text", "text": text, "annotations": []})
        if refusal is not None:
            parts.append({"type": "refusal", "refusal": refusal})
        output.append(
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": item_status,
                "content": parts,
            }
        )
    for index, (name, arguments) in enumerate(calls):
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{index}",
                "call_id": f"call_{index}",
                "name": name,
                "arguments": arguments,
                "status": item_status,
            }
        )
    body: dict[str, Any] = {
        "id": "resp_fake",
        "object": "response",
        "status": status,
        "output": output,
    }
    if incomplete_reason is not None:
        body["incomplete_details"] = {"reason": incomplete_reason}
    if usage is not None:
        body["usage"] = {"input_tokens": usage[0], "output_tokens": usage[1]}
    return FakeReply(200, body)


# ---- Chat Completions ---------------------------------------------------------------------


def chat_reply(
    calls: Sequence[tuple[str, str]] = (),
    text: str | None = None,
    *,
    finish_reason: str | None = None,
    refusal: str | None = None,
    reasoning_content: str | None = None,
    usage: tuple[int, int] | None = (30, 9),
) -> FakeReply:
    """A Chat Completions answer with one choice; calls carry their arguments as JSON strings."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for index, (name, arguments) in enumerate(calls)
        ]
    if refusal is not None:
        message["refusal"] = refusal
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
    }
    if usage is not None:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1]}
    return FakeReply(200, body)
