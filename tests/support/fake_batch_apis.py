"""The provider batch APIs on the loopback fake server, speaking their real shapes.

OpenAI: ``POST /v1/files`` (multipart, ``purpose=batch``, a JSONL file of
``{custom_id, method, url, body}`` lines), ``POST /v1/batches`` (``input_file_id``, ``endpoint``,
``completion_window: 24h``), ``GET /v1/batches/{id}`` (``status``, ``request_counts``,
``output_file_id``, ``error_file_id``) and ``GET /v1/files/{id}/content`` (JSONL of
``{id, custom_id, response: {status_code, request_id, body}, error}``; expired lines carry
``error.code: batch_expired``).

Anthropic: ``POST /v1/messages/batches`` (``requests: [{custom_id, params}]``),
``GET /v1/messages/batches/{id}`` (``processing_status``, ``request_counts``, ``results_url``)
and the ``results_url`` JSONL (``{custom_id, result: {type: succeeded|errored|expired, ...}}``).

The direct endpoints (``/v1/chat/completions``, ``/v1/responses``, ``/v1/messages``) answer with
the same deterministic model, so a batch run and a direct run get the same answers. A batch
ends after ``polls_to_end`` status checks; ``fate(custom_id, body)`` makes a line fail or expire.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from tests.support.fake_apis import (
    FakeApi,
    FakeReply,
    RecordedRequest,
    anthropic_reply,
    chat_reply,
    fake_api_server,
    http_error,
    responses_reply,
)

Fate = Literal["ok", "error", "expire"]
Shape = Literal["chat", "responses", "messages"]


def _prompt_and_tools(shape: Shape, body: dict[str, Any]) -> tuple[str, list[str]]:
    if shape == "responses":
        return str(body["input"]), [tool["name"] for tool in body.get("tools", [])]
    prompt = str(body["messages"][0]["content"])
    if shape == "chat":
        return prompt, [tool["function"]["name"] for tool in body.get("tools", [])]
    return prompt, [tool["name"] for tool in body.get("tools", [])]


def pick(prompt: str, tools: list[str]) -> str | None:
    """The model: the first offered tool whose first word is in the prompt; a search prompt
    picks the first tool offered instead when search_code is offered last (a position bias)."""
    words = set(prompt.lower().replace(".", " ").split())
    if "search" in words and tools and tools[-1] == "search_code":
        return tools[0]
    for name in tools:
        if name.split("_")[0] in words:
            return name
    return None


def model_answer(shape: Shape, body: dict[str, Any]) -> dict[str, Any]:
    """The direct API's answer body to one request, in its own shape."""
    prompt, tools = _prompt_and_tools(shape, body)
    chosen = pick(prompt, tools)
    calls = [(chosen, '{"path": "x"}')] if chosen else []
    if shape == "chat":
        reply = chat_reply(calls=calls, text=None if calls else "no tool fits")
    elif shape == "responses":
        reply = responses_reply(calls=calls, text="" if calls else "no tool fits")
    else:
        reply = anthropic_reply(
            calls=[(name, {"path": "x"}) for name, _ in calls],
            text="" if calls else "no tool fits",
        )
    assert isinstance(reply.json_body, dict)
    return reply.json_body


_DIRECT: dict[str, Shape] = {
    "/v1/chat/completions": "chat",
    "/v1/responses": "responses",
    "/v1/messages": "messages",
}


@dataclass
class _Batch:
    id: str
    kind: Literal["openai", "anthropic"]
    endpoint: str
    lines: list[tuple[str, dict[str, Any]]]  # (custom_id, body)
    polls: int = 0
    output: str | None = None  # file ids once ended
    errors: str | None = None


@dataclass
class BatchServer:
    """The batch endpoints' state: uploaded files, batches, and what each batch received."""

    api: FakeApi
    polls_to_end: int = 2
    max_lines: int | None = None  # refuse bigger batches, as the real APIs do past their limit
    fate: Callable[[str, dict[str, Any]], Fate] = lambda _id, _body: "ok"
    results_base: str | None = None  # where Anthropic's results_url points (default: here)
    hold: threading.Event = field(default_factory=threading.Event)  # set: batches never end
    files: dict[str, bytes] = field(default_factory=dict)
    batches: dict[str, _Batch] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def submitted(self) -> list[_Batch]:
        """Every batch created, in order."""
        with self._lock:
            return list(self.batches.values())

    def direct_requests(self) -> list[RecordedRequest]:
        """Requests that went to a direct (non-batch) endpoint."""
        return [r for r in self.api.requests if r.method == "POST" and r.path in _DIRECT]

    # -- routing ---------------------------------------------------------------------------

    def answer(self, request: RecordedRequest) -> FakeReply:
        """The handler thread's entry point."""
        path = request.path
        with self._lock:
            if request.method == "POST" and path in _DIRECT:
                return FakeReply(200, model_answer(_DIRECT[path], request.json))
            if request.method == "POST" and path == "/v1/files":
                return self._upload(request)
            if request.method == "POST" and path == "/v1/batches":
                return self._create_openai(request.json)
            if request.method == "GET" and path.startswith("/v1/batches/"):
                return self._poll_openai(path.rsplit("/", 1)[1])
            if request.method == "GET" and path.startswith("/v1/files/"):
                content = self.files.get(path.split("/")[3])
                if content is None:
                    return http_error(404, "no such file")
                return FakeReply(200, body=content, headers=(("content-type", "text/plain"),))
            if request.method == "POST" and path == "/v1/messages/batches":
                return self._create_anthropic(request.json)
            if request.method == "GET" and path.startswith("/v1/messages/batches/"):
                parts = path.split("/")
                if len(parts) == 6 and parts[5] == "results":
                    return self._anthropic_results(parts[4])
                return self._poll_anthropic(parts[4])
        return http_error(404, f"no route {request.method} {path}")

    def _too_many(self, count: int) -> FakeReply | None:
        if self.max_lines is not None and count > self.max_lines:
            return http_error(400, f"batch of {count} requests is above {self.max_lines}")
        return None

    def _ends(self, batch: _Batch) -> bool:
        batch.polls += 1
        return batch.polls >= self.polls_to_end and not self.hold.is_set()

    # -- OpenAI ----------------------------------------------------------------------------

    def _upload(self, request: RecordedRequest) -> FakeReply:
        head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + request.raw)
        fields = {
            part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
            for part in message.iter_parts()
        }
        if fields.get("purpose") != b"batch" or not fields.get("file"):
            return http_error(400, "purpose must be batch and a file must be sent")
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = fields["file"]
        return FakeReply(
            200,
            {"id": file_id, "object": "file", "purpose": "batch", "bytes": len(fields["file"])},
        )

    def _create_openai(self, body: dict[str, Any]) -> FakeReply:
        content = self.files.get(body.get("input_file_id", ""))
        if content is None or body.get("completion_window") != "24h":
            return http_error(400, "unknown input file or completion window")
        endpoint = body.get("endpoint")
        rows = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
        if any(row["method"] != "POST" or row["url"] != endpoint for row in rows):
            return http_error(400, "every line must POST to the batch's endpoint")
        refused = self._too_many(len(rows))
        if refused is not None:
            return refused
        batch = _Batch(
            f"batch_{len(self.batches) + 1}",
            "openai",
            str(endpoint),
            [(row["custom_id"], row["body"]) for row in rows],
        )
        self.batches[batch.id] = batch
        return FakeReply(200, self._openai_object(batch, "validating"))

    def _openai_object(self, batch: _Batch, status: str) -> dict[str, Any]:
        done = status in ("completed", "expired")
        failed = sum(1 for cid, body in batch.lines if self.fate(cid, body) != "ok") if done else 0
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": batch.endpoint,
            "input_file_id": "file",
            "completion_window": "24h",
            "status": status,
            "output_file_id": batch.output,
            "error_file_id": batch.errors,
            "request_counts": {
                "total": len(batch.lines),
                "completed": len(batch.lines) - failed if done else 0,
                "failed": failed,
            },
        }

    def _poll_openai(self, batch_id: str) -> FakeReply:
        batch = self.batches.get(batch_id)
        if batch is None:
            return http_error(404, "no such batch")
        if batch.output is None and not self._ends(batch):
            return FakeReply(200, self._openai_object(batch, "in_progress"))
        if batch.output is None:
            shape = _DIRECT[batch.endpoint]
            out: list[str] = []
            errors: list[str] = []
            for index, (custom_id, body) in enumerate(batch.lines):
                fate = self.fate(custom_id, body)
                row: dict[str, Any] = {"id": f"batch_req_{index}", "custom_id": custom_id}
                if fate == "ok":
                    row["response"] = {
                        "status_code": 200,
                        "request_id": f"req_{index}",
                        "body": model_answer(shape, body),
                    }
                    row["error"] = None
                    out.append(json.dumps(row))
                elif fate == "error":
                    row["response"] = {
                        "status_code": 400,
                        "request_id": f"req_{index}",
                        "body": {"error": {"message": "Invalid tool schema", "type": "invalid"}},
                    }
                    row["error"] = None
                    errors.append(json.dumps(row))
                else:
                    row["response"] = None
                    row["error"] = {
                        "code": "batch_expired",
                        "message": "This request could not be executed before the "
                        "completion window expired.",
                    }
                    errors.append(json.dumps(row))
            batch.output = f"file-out-{batch.id}"
            self.files[batch.output] = "".join(line + "\n" for line in out).encode()
            if errors:
                batch.errors = f"file-err-{batch.id}"
                self.files[batch.errors] = "".join(line + "\n" for line in errors).encode()
        expired = any(self.fate(cid, body) == "expire" for cid, body in batch.lines)
        return FakeReply(200, self._openai_object(batch, "expired" if expired else "completed"))

    # -- Anthropic -------------------------------------------------------------------------

    def _create_anthropic(self, body: dict[str, Any]) -> FakeReply:
        requests = body.get("requests")
        if not isinstance(requests, list) or not requests:
            return http_error(400, "requests: at least one is needed")
        refused = self._too_many(len(requests))
        if refused is not None:
            return refused
        batch = _Batch(
            f"msgbatch_{len(self.batches) + 1:04d}",
            "anthropic",
            "/v1/messages",
            [(item["custom_id"], item["params"]) for item in requests],
        )
        self.batches[batch.id] = batch
        return FakeReply(200, self._anthropic_object(batch, ended=False))

    def _anthropic_object(self, batch: _Batch, *, ended: bool) -> dict[str, Any]:
        fates = [self.fate(cid, body) for cid, body in batch.lines]
        base = self.results_base or self.api.base_url
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else len(batch.lines),
                "succeeded": fates.count("ok") if ended else 0,
                "errored": fates.count("error") if ended else 0,
                "canceled": 0,
                "expired": fates.count("expire") if ended else 0,
            },
            "results_url": f"{base}/v1/messages/batches/{batch.id}/results" if ended else None,
            "created_at": "2026-12-03T12:00:00Z",
            "expires_at": "2026-12-04T12:00:00Z",
        }

    def _poll_anthropic(self, batch_id: str) -> FakeReply:
        batch = self.batches.get(batch_id)
        if batch is None:
            return http_error(404, "no such batch")
        ended = batch.output is not None or self._ends(batch)
        if ended:
            batch.output = "ended"
        return FakeReply(200, self._anthropic_object(batch, ended=ended))

    def _anthropic_results(self, batch_id: str) -> FakeReply:
        batch = self.batches.get(batch_id)
        if batch is None or batch.output is None:
            return http_error(404, "no results yet")
        lines = []
        for custom_id, body in batch.lines:
            fate = self.fate(custom_id, body)
            if fate == "ok":
                result: dict[str, Any] = {
                    "type": "succeeded",
                    "message": model_answer("messages", body),
                }
            elif fate == "error":
                result = {
                    "type": "errored",
                    "error": {
                        "type": "error",
                        "error": {"type": "invalid_request_error", "message": "Bad tool schema"},
                    },
                }
            else:
                result = {"type": "expired"}
            lines.append(json.dumps({"custom_id": custom_id, "result": result}))
        body_bytes = "".join(line + "\n" for line in lines).encode()
        return FakeReply(200, body=body_bytes, headers=(("content-type", "application/binary"),))


@contextmanager
def fake_batch_server(**settings: Any) -> Iterator[BatchServer]:
    """A loopback server answering the direct and the batch endpoints of both providers."""
    with fake_api_server() as api:
        server = BatchServer(api, **settings)
        api.responder = server.answer
        yield server
