"""OpenAI's Batch API: upload the lines as a JSONL file (``purpose=batch``), create a batch on
``/v1/responses`` or ``/v1/chat/completions`` with ``completion_window: 24h``, poll it, then
read its output file (answers) and error file (failed and expired lines).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.batch_api import (
    OPENAI_BATCH,
    BatchFacts,
    BatchLine,
    BatchProgress,
    LineResult,
    compact_json,
)
from whichtool_tui.providers.batch_http import BatchTransport
from whichtool_tui.providers.chat_completions import ChatCompletionsProvider
from whichtool_tui.providers.http import HttpProvider
from whichtool_tui.providers.openai_responses import ResponsesProvider

_ENDED = ("completed", "failed", "expired", "cancelled")
_EXPIRED_CODE = "batch_expired"


def batch_endpoint(provider: HttpProvider) -> str:
    """The ``endpoint`` (and every line's ``url``) of a batch for this provider's API shape."""
    if isinstance(provider, ResponsesProvider):
        return "/v1/responses"
    if isinstance(provider, ChatCompletionsProvider):
        return "/v1/chat/completions"
    raise TypeError(f"{type(provider).__name__} has no OpenAI batch endpoint")


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _line_error(row: dict[str, Any]) -> tuple[str, bool]:
    """Why one output or error-file line has no answer, and whether it expired."""
    error = row.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        message = error.get("message")
        text = f"{code}: {message}" if code and message else str(message or code or "error")
        return text, code == _EXPIRED_CODE
    response = row.get("response")
    if isinstance(response, dict):
        body = response.get("body")
        inner = body.get("error") if isinstance(body, dict) else None
        message = inner.get("message") if isinstance(inner, dict) else None
        status = response.get("status_code")
        return f"HTTP {status}: {message or 'no message'}", False
    return "the line carries neither a response nor an error", False


class OpenAIBatchApi:
    """The Batch API under the provider's base URL (``{base}/files``, ``{base}/batches``)."""

    facts: BatchFacts = OPENAI_BATCH

    def __init__(self, provider: HttpProvider) -> None:
        self.transport = BatchTransport(provider)
        self.endpoint = batch_endpoint(provider)

    def _row(self, line: BatchLine) -> str:
        return compact_json(
            {"custom_id": line.custom_id, "method": "POST", "url": self.endpoint, "body": line.body}
        )

    def line_bytes(self, line: BatchLine) -> int:
        """The line's share of the 200 MB input file, newline included."""
        return len(self._row(line).encode("utf-8")) + 1

    async def submit(self, lines: Sequence[BatchLine]) -> str:
        """Upload the JSONL input file, then create the batch on it."""
        jsonl = "".join(self._row(line) + "\n" for line in lines).encode("utf-8")
        boundary = f"whichtool-{secrets.token_hex(12)}"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n'
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="whichtool-batch.jsonl"\r\n'
            "Content-Type: application/jsonl\r\n\r\n"
        ).encode()
        body = head + jsonl + f"\r\n--{boundary}--\r\n".encode()
        base = self.transport.base_url
        uploaded = await self.transport.post_bytes(
            f"{base}/files", body, f"multipart/form-data; boundary={boundary}"
        )
        file_id = self._id(uploaded, "file")
        created = await self.transport.post_json(
            f"{base}/batches",
            {
                "input_file_id": file_id,
                "endpoint": self.endpoint,
                "completion_window": self.facts.completion_window,
                "metadata": {"created_by": "whichtool-tui run --batch"},
            },
        )
        return self._id(created, "batch")

    def _id(self, answer: dict[str, Any], what: str) -> str:
        value = answer.get("id")
        if not isinstance(value, str) or not value:
            raise ProviderError(
                "provider/invalid-response", f"The Batch API's new {what} has no id"
            )
        return value

    async def _batch(self, batch_id: str) -> dict[str, Any]:
        return await self.transport.get_json(f"{self.transport.base_url}/batches/{batch_id}")

    async def poll(self, batch_id: str) -> BatchProgress:
        """The batch's status and ``request_counts`` (total, completed, failed)."""
        batch = await self._batch(batch_id)
        status = str(batch.get("status") or "unknown")
        counts = batch.get("request_counts")
        counts = counts if isinstance(counts, dict) else {}
        reason = None
        if status in ("failed", "expired", "cancelled"):
            errors = batch.get("errors")
            data = errors.get("data") if isinstance(errors, dict) else None
            messages = [
                str(item.get("message") or item.get("code"))
                for item in data or []
                if isinstance(item, dict)
            ]
            reason = f"the batch ended {status}" + (f": {'; '.join(messages)}" if messages else "")
        return BatchProgress(
            batch_id=batch_id,
            state="ended" if status in _ENDED else "pending",
            total=_count(counts.get("total")),
            completed=_count(counts.get("completed")),
            failed=_count(counts.get("failed")),
            status=status,
            reason=reason,
        )

    async def results(self, batch_id: str) -> list[LineResult]:
        """Answers from the output file, failures and expired lines from the error file."""
        batch = await self._batch(batch_id)
        results: list[LineResult] = []
        for key in ("output_file_id", "error_file_id"):
            file_id = batch.get(key)
            if not isinstance(file_id, str) or not file_id:
                continue
            url = f"{self.transport.base_url}/files/{file_id}/content"
            for row in await self.transport.get_jsonl(url):
                custom_id = row.get("custom_id")
                if not isinstance(custom_id, str):
                    continue
                response = row.get("response")
                body = response.get("body") if isinstance(response, dict) else None
                if (
                    isinstance(response, dict)
                    and response.get("status_code") == 200
                    and isinstance(body, dict)
                    and row.get("error") is None
                ):
                    results.append(LineResult(custom_id, body))
                    continue
                message, expired = _line_error(row)
                results.append(LineResult(custom_id, None, message, expired))
        return results

    async def aclose(self) -> None:
        """Close the transport and the provider."""
        await self.transport.aclose()
