"""The contract between the run engine and every model back-end.

A provider turns one routing request (a bare prompt plus the tools in a given order) into the
calls the model proposed, its text and usage. It never executes a tool. Failures are raised as
``ProviderError`` so the runner can record them as the trial's ``error``.
"""

from __future__ import annotations

import hashlib
import json
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
    # Which trial this is; only scripted mocks look at it (per-(task, trial) scripts).
    task_id: str | None = None
    trial_index: int | None = None


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
    stop_reason: str | None = None  # the API's stop/finish reason or status, as given


@dataclass(frozen=True)
class Capabilities:
    """What the back-end honours; a setting it ignores is recorded as unsupported."""

    seed: bool = False
    temperature_zero: bool = False
    logprobs: bool = False
    disable_thinking: bool = False
    # Whether the temperature value is sent at all, and whether a reasoning effort is forwarded.
    temperature: bool = False
    reasoning_effort: bool = False

    def unsupported_settings(
        self, temperature: float, seed: int | None, reasoning_effort: str | None
    ) -> tuple[str, ...]:
        """Names of the requested settings that never reach the model, for the report."""
        unsupported: list[str] = []
        if not self.temperature or (temperature == 0 and not self.temperature_zero):
            unsupported.append("temperature")
        if seed is not None and not self.seed:
            unsupported.append("seed")
        if reasoning_effort is not None and not self.reasoning_effort:
            unsupported.append("reasoning_effort")
        return tuple(unsupported)


# The offline back-ends (mock, keyword, embedding) are deterministic: seeded, exact at
# temperature zero, no logprobs, nothing to think; only the mock also takes a temperature.
OFFLINE_CAPABILITIES = Capabilities(
    seed=True, temperature_zero=True, logprobs=False, disable_thinking=True, temperature=False
)


def single_pick_reply(picked: str | None, abstain_text: str) -> RouteReply:
    """A baseline's answer: one call of ``picked`` with empty arguments, or an abstention."""
    if picked is None:
        return RouteReply(calls=(), text=abstain_text, stop_reason="stop")
    return RouteReply(calls=(ProposedCall(picked, {}),), text="", stop_reason="tool_calls")


class ProviderError(WhichtoolError):
    """A provider call failed; becomes the trial's ``error{message, retryable, hint?}``."""

    def __init__(
        self,
        code: str,
        message: str,
        hint: str | None = None,
        retryable: bool = False,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(code, message, hint)
        self.retryable = retryable
        self.status = status  # the HTTP status when the failure was an HTTP answer
        self.retry_after = retry_after  # seconds the answer's Retry-After asked to wait


@dataclass(frozen=True)
class ProviderIdentity:
    """Who answered: recorded in the report's reproducibility block."""

    name: str
    model: str
    endpoint: str | None  # redacted
    request_fingerprint: str | None
    capabilities: Capabilities = field(default_factory=Capabilities)
    is_baseline: bool = False  # the offline keyword provider: a baseline, never "a model"
    # What keeps cache entries apart: the request fingerprint mixed with a digest of the credential
    # in use (never the credential itself). "" means "the request fingerprint"; None keeps this
    # provider out of the cache (a scripted mock's answers depend on its script).
    cache_fingerprint: str | None = field(default="", repr=False)

    @property
    def cache_identity(self) -> str | None:
        """The fingerprint the trial cache keys on, or None when answers must not be cached."""
        return self.request_fingerprint if self.cache_fingerprint == "" else self.cache_fingerprint


def options_fingerprint(options: dict[str, Any]) -> str:
    """The sha256 of a provider's settings as sorted compact JSON: its request fingerprint."""
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def credential_fingerprint(request_fingerprint: str, credential: str | None) -> str:
    """A cache fingerprint that differs per credential; one-way, so no key can be read back."""
    if not credential:
        return request_fingerprint
    material = b"whichtool-cache-credential\0" + request_fingerprint.encode() + b"\0"
    return hashlib.sha256(material + credential.encode("utf-8", "surrogatepass")).hexdigest()


class Provider(Protocol):
    """A routing back-end. ``generate`` is optional free text (task drafting)."""

    identity: ProviderIdentity

    async def route(self, request: RouteRequest) -> RouteReply:
        """Send one routing request and return the proposed calls; raise ProviderError."""
        ...

    async def aclose(self) -> None:
        """Release the shared HTTP client and anything else held."""
        ...


def can_generate(provider: object) -> bool:
    """True when a provider can draft free text; the CLI ``mock`` cannot, by contract."""
    return callable(getattr(provider, "generate", None))


def can_structure(provider: object) -> bool:
    """True when a provider can answer with a JSON object in its API's structured shape."""
    return callable(getattr(provider, "generate_structured", None))
