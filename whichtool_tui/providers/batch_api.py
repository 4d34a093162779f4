"""What every provider batch API shares: the published limits and discount (data with their
source), one line to send, one line's result, a batch's progress, and the split into batches.

A batch is a way to execute the same planned requests: each line's body is exactly what the
direct endpoint would receive (``HttpProvider.build_body``), and each answer is read by the
direct endpoint's own parser, so a batch run and a direct run score alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from whichtool_tui.limits import byte_size
from whichtool_tui.providers.base import ProviderError

VERIFIED_ON = "2026-12-03"


@dataclass(frozen=True)
class BatchFacts:
    """One provider's batch limits and price, as published, with where they were read."""

    api: str
    max_requests: int
    max_bytes: int
    discount: float  # the share of the direct price a batch request is billed at
    completion_window: str
    source: str
    verified_on: str = VERIFIED_ON


OPENAI_BATCH = BatchFacts(
    api="OpenAI Batch API",
    max_requests=50_000,
    max_bytes=200 * 1024 * 1024,  # "up to 200 MB" per input file
    discount=0.5,
    completion_window="24h",
    source="https://platform.openai.com/docs/guides/batch and the Batch API reference "
    "(POST /v1/batches: input file up to 50,000 requests and 200 MB; 50% cost discount)",
)
ANTHROPIC_BATCH = BatchFacts(
    api="Anthropic Message Batches API",
    max_requests=100_000,
    max_bytes=256 * 1024 * 1024,  # "100,000 Message requests or 256 MB, whichever first"
    discount=0.5,
    completion_window="24h",
    source="https://platform.claude.com/docs/en/build-with-claude/batch-processing "
    "(a batch holds 100,000 requests or 256 MB; costs reduced by 50%)",
)

BatchState = Literal["pending", "ended"]


@dataclass(frozen=True)
class BatchLine:
    """One request to send: its custom_id (the trial's cache key) and the direct-API body."""

    custom_id: str
    body: dict[str, Any]


@dataclass(frozen=True)
class LineResult:
    """One line's outcome: the direct API's answer body, or why there is none."""

    custom_id: str
    answer: dict[str, Any] | None
    error: str | None = None
    expired: bool = False


@dataclass(frozen=True)
class BatchProgress:
    """Where one submitted batch stands, as the provider counts it."""

    batch_id: str
    state: BatchState
    total: int
    completed: int
    failed: int
    status: str  # the provider's own status word, for the progress line
    # Why lines that have no result got none (a batch that failed validation, expired, ...).
    reason: str | None = None


class BatchApi(Protocol):
    """One provider's batch endpoints, on the route and key its direct endpoint uses."""

    facts: BatchFacts

    def line_bytes(self, line: BatchLine) -> int:
        """How many bytes this line adds to a batch, as the provider counts the limit."""
        ...

    async def submit(self, lines: Sequence[BatchLine]) -> str:
        """Create one batch of ``lines`` (within the limits) and return its id."""
        ...

    async def poll(self, batch_id: str) -> BatchProgress:
        """The batch's status and counts."""
        ...

    async def results(self, batch_id: str) -> list[LineResult]:
        """Every line's result of an ended batch (lines it never ran are absent)."""
        ...

    async def aclose(self) -> None:
        """Release the HTTP client."""
        ...


def compact_json(value: Any) -> str:
    """The JSON text one JSONL line carries (no spaces, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def split_lines(
    lines: Sequence[BatchLine], api: BatchApi, max_requests: int | None = None
) -> Iterator[list[BatchLine]]:
    """Group lines into batches under both documented limits (and ``max_requests`` when lower).

    A single line above the byte limit cannot be sent in any batch: refused before anything is.
    """
    limit = min(api.facts.max_requests, max_requests or api.facts.max_requests)
    chunk: list[BatchLine] = []
    size = 0
    for line in lines:
        try:
            weight = api.line_bytes(line)
        except (TypeError, ValueError) as exc:
            raise ProviderError(
                "provider/invalid-request",
                f"A request cannot be sent as JSON: {exc}",
                "A tool schema holds a value JSON cannot carry (NaN, Infinity or a non-JSON type).",
            ) from None
        if weight > api.facts.max_bytes:
            raise ProviderError(
                "batch/line-too-large",
                f"One request is {weight:,} bytes, above the {api.facts.api} limit of "
                f"{byte_size(api.facts.max_bytes)} per batch",
                "Run without --batch, or offer fewer tools.",
            )
        if chunk and (len(chunk) >= limit or size + weight > api.facts.max_bytes):
            yield chunk
            chunk, size = [], 0
        chunk.append(line)
        size += weight
    if chunk:
        yield chunk
