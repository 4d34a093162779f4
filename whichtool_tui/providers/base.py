"""The contract between the run engine and every model back-end.

A provider turns one routing request (a bare prompt plus the tools in a given order) into the
calls the model proposed, its text and usage. It never executes a tool. Failures are raised as
``ProviderError`` so the runner can record them as the trial's ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from whichtool_tui.errors import WhichtoolError


@dataclass(frozen=True)
class ToolSpec:
    """A tool as sent to a model: normalised description, canonical wire inputSchema."""

    name: str
    description: str | None
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class RouteRequest:
    """One trial's request: a single user message, tools in the permuted order."""

    prompt: str
    tools: tuple[ToolSpec, ...]
    temperature: float
    seed: int
    reasoning_effort: str | None = None


@dataclass(frozen=True)
class ProposedCall:
    """A call as the provider returned it, before the runner normalises it.

    ``arguments`` is whatever the API gave (a dict, or a JSON string for the OpenAI shapes).
    """

    name: str | None
    arguments: Any


@dataclass(frozen=True)
class Usage:
    """Token counts the provider reported, when it reported them."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True)
class RouteReply:
    """What the model answered to one routing request."""

    calls: tuple[ProposedCall, ...]
    text: str
    usage: Usage | None = None
    reasoning_chars: int | None = None
    latency_ms: float = 0.0


@dataclass(frozen=True)
class Capabilities:
    """What the back-end honours; a setting it ignores is recorded as unsupported."""

    seed: bool = False
    temperature_zero: bool = False
    logprobs: bool = False
    disable_thinking: bool = False


class ProviderError(WhichtoolError):
    """A provider call failed; becomes the trial's ``error{message, retryable, hint?}``."""

    def __init__(
        self, code: str, message: str, hint: str | None = None, retryable: bool = False
    ) -> None:
        super().__init__(code, message, hint)
        self.retryable = retryable


@dataclass(frozen=True)
class ProviderIdentity:
    """Who answered: recorded in the report's reproducibility block."""

    name: str
    model: str
    endpoint: str | None  # redacted
    request_fingerprint: str | None
    capabilities: Capabilities = field(default_factory=Capabilities)
    is_baseline: bool = False  # the offline keyword provider: a baseline, never "a model"


class Provider(Protocol):
    """A routing back-end. ``generate`` is optional free text (task drafting)."""

    identity: ProviderIdentity

    async def route(self, request: RouteRequest) -> RouteReply:
        """Send one routing request and return the proposed calls; raise ProviderError."""
        ...

    async def aclose(self) -> None:
        """Release the shared HTTP client and anything else held."""
        ...


class TextGenerator(Protocol):
    """A provider that can also draft free text (``tasks generate``)."""

    async def generate(
        self, prompt: str, temperature: float, max_output_tokens: int | None = None
    ) -> str:
        """Return the model's text for a plain prompt; raise ProviderError."""
        ...
