"""Anthropic's Message Batches API: create with ``requests: [{custom_id, params}]``, poll
``processing_status`` until ``ended``, then read the ``results_url`` JSONL (succeeded, errored,
canceled and expired lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.batch_api import (
    ANTHROPIC_BATCH,
    BatchFacts,
    BatchLine,
    BatchProgress,
    LineResult,
    compact_json,
)
from whichtool_tui.providers.batch_http import BatchTransport
from whichtool_tui.providers.http import HttpProvider


def _count(counts: dict[str, Any], name: str) -> int:
    value = counts.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _error_text(result: dict[str, Any]) -> str:
    """The message of an ``errored`` result (``error.error.message`` in the API's shape)."""
    error = result.get("error")
    inner = error.get("error") if isinstance(error, dict) else None
    if isinstance(inner, dict):
        kind = inner.get("type")
        message = inner.get("message")
        return f"{kind}: {message}" if kind and message else str(message or kind or "errored")
    return "errored"


class AnthropicBatchApi:
    """Message Batches under the Messages endpoint (``{base}/v1/messages/batches``)."""

    facts: BatchFacts = ANTHROPIC_BATCH

    def __init__(self, provider: HttpProvider) -> None:
        self.transport = BatchTransport(provider)
        self.batches_url = provider.url.rstrip("/") + "/batches"

    def line_bytes(self, line: BatchLine) -> int:
        """The request's share of the 256 MB create body (a separating comma included)."""
        return len(compact_json({"custom_id": line.custom_id, "params": line.body}).encode()) + 1

    async def submit(self, lines: Sequence[BatchLine]) -> str:
        """Create the batch with every request inline."""
        created = await self.transport.post_json(
            self.batches_url,
            {"requests": [{"custom_id": line.custom_id, "params": line.body} for line in lines]},
        )
        batch_id = created.get("id")
        if not isinstance(batch_id, str) or not batch_id:
            raise ProviderError("provider/invalid-response", "The new message batch has no id")
        return batch_id

    async def _batch(self, batch_id: str) -> dict[str, Any]:
        return await self.transport.get_json(f"{self.batches_url}/{batch_id}")

    async def poll(self, batch_id: str) -> BatchProgress:
        """``processing_status`` and ``request_counts`` (errored, canceled, expired: failed)."""
        batch = await self._batch(batch_id)
        status = str(batch.get("processing_status") or "unknown")
        counts = batch.get("request_counts")
        counts = counts if isinstance(counts, dict) else {}
        succeeded = _count(counts, "succeeded")
        failed = sum(_count(counts, name) for name in ("errored", "canceled", "expired"))
        return BatchProgress(
            batch_id=batch_id,
            state="ended" if status == "ended" else "pending",
            total=succeeded + failed + _count(counts, "processing"),
            completed=succeeded,
            failed=failed,
            status=status,
            reason=None if status != "ended" else "the batch ended without this request",
        )

    async def results(self, batch_id: str) -> list[LineResult]:
        """Every line of ``results_url`` (fetched only on the base URL's origin)."""
        batch = await self._batch(batch_id)
        url = batch.get("results_url")
        if not isinstance(url, str) or not url:
            url = f"{self.batches_url}/{batch_id}/results"
        results: list[LineResult] = []
        for row in await self.transport.get_jsonl(url):
            custom_id = row.get("custom_id")
            result = row.get("result")
            if not isinstance(custom_id, str) or not isinstance(result, dict):
                continue
            kind = result.get("type")
            message = result.get("message")
            if kind == "succeeded" and isinstance(message, dict):
                results.append(LineResult(custom_id, message))
            elif kind == "errored":
                results.append(LineResult(custom_id, None, _error_text(result)))
            elif kind == "expired":
                results.append(LineResult(custom_id, None, "expired before the batch ran it", True))
            else:
                results.append(LineResult(custom_id, None, f"the batch result is {kind!r}"))
        return results

    async def aclose(self) -> None:
        """Close the transport and the provider."""
        await self.transport.aclose()
