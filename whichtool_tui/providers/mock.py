"""The deterministic ``mock`` provider: no network, no key.

The CLI form always abstains (plumbing, dry runs, CI demos). The scripted form drives tests of
the run engine: fixed picks, several calls, text, errors, cycling sequences, per-task and
per-(task, trial) scripts, a computed responder, and an optional fixed delay.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.providers.base import (
    OFFLINE_CAPABILITIES,
    ProposedCall,
    ProviderError,
    ProviderIdentity,
    RouteReply,
    RouteRequest,
    Usage,
    options_fingerprint,
)

MOCK_MODEL = "mock-1"
MOCK_ABSTAIN_TEXT = "the mock provider chooses nothing by default"
MOCK_CAPABILITIES = dataclasses.replace(OFFLINE_CAPABILITIES, temperature=True)


@dataclass(frozen=True)
class MockStep:
    """One scripted answer: calls and text, or an error raised as ProviderError."""

    calls: tuple[ProposedCall, ...] = ()
    text: str = ""
    error: ProviderError | None = None
    usage: Usage | None = None

    @classmethod
    def pick(cls, name: str | None, arguments: Any = None, text: str = "") -> MockStep:
        """A single call of ``name`` (``{}`` arguments unless given)."""
        return cls((ProposedCall(name, {} if arguments is None else arguments),), text)

    @classmethod
    def multi(cls, *calls: str | tuple[str | None, Any], text: str = "") -> MockStep:
        """Several calls in order; each a name, or a (name, arguments) pair."""
        built = tuple(
            ProposedCall(c, {}) if isinstance(c, str) else ProposedCall(c[0], c[1]) for c in calls
        )
        return cls(built, text)

    @classmethod
    def say(cls, text: str) -> MockStep:
        """No call, only text (an abstention, or a clarification question)."""
        return cls((), text)

    @classmethod
    def fail(
        cls,
        message: str,
        *,
        retryable: bool = False,
        hint: str | None = None,
        code: str = "provider/mock-error",
    ) -> MockStep:
        """The call fails with a ProviderError carrying this message."""
        return cls(error=ProviderError(code, message, hint, retryable))


# What a script entry may be: a step, a tool name (a pick), or None (abstain with no text).
ScriptEntry = MockStep | str | None


def _as_step(entry: ScriptEntry) -> MockStep:
    if isinstance(entry, MockStep):
        return entry
    if entry is None:
        return MockStep()
    return MockStep.pick(entry)


def _fixed_fingerprint(model: str) -> str:
    options = {"provider": "mock", "model": model, "version": 1}
    return options_fingerprint(options)


class MockProvider:
    """A deterministic provider; without a script it abstains with the upstream text.

    Lookup order for each request: ``by_trial[(task_id, trial_index)]``, ``by_task[task_id]``,
    ``responder(request)``, then the next entry of ``sequence`` (cycling when ``cycle``; once
    exhausted without cycling the last entry repeats), else the default abstention.
    """

    def __init__(
        self,
        *,
        model: str = MOCK_MODEL,
        sequence: Sequence[ScriptEntry] = (),
        cycle: bool = True,
        by_task: Mapping[str, ScriptEntry] | None = None,
        by_trial: Mapping[tuple[str, int], ScriptEntry] | None = None,
        responder: Callable[[RouteRequest], ScriptEntry] | None = None,
        delay_seconds: float = 0.0,
    ) -> None:
        scripted = bool(sequence or by_task or by_trial or responder)
        self.identity = ProviderIdentity(
            name="mock",
            model=model,
            endpoint=None,
            request_fingerprint=None,  # a mock has no request options: the report records none
            capabilities=MOCK_CAPABILITIES,
            # The plain mock always answers the same, so its cache key is fixed; a script is
            # dynamic state, and a null fingerprint keeps such runs out of the cache.
            cache_fingerprint=None if scripted else _fixed_fingerprint(model),
        )
        self.scripted = scripted
        self._sequence = [_as_step(entry) for entry in sequence]
        self._cycle = cycle
        self._by_task = {k: _as_step(v) for k, v in (by_task or {}).items()}
        self._by_trial = {k: _as_step(v) for k, v in (by_trial or {}).items()}
        self._responder = responder
        self._delay = delay_seconds
        self._counter = itertools.count()
        self.requests: list[RouteRequest] = []

    def _step_for(self, request: RouteRequest) -> MockStep:
        if request.task_id is not None:
            if request.trial_index is not None:
                found = self._by_trial.get((request.task_id, request.trial_index))
                if found is not None:
                    return found
            if request.task_id in self._by_task:
                return self._by_task[request.task_id]
        if self._responder is not None:
            return _as_step(self._responder(request))
        if self._sequence:
            index = next(self._counter)
            if self._cycle:
                return self._sequence[index % len(self._sequence)]
            return self._sequence[min(index, len(self._sequence) - 1)]
        return MockStep.say(MOCK_ABSTAIN_TEXT)

    async def route(self, request: RouteRequest) -> RouteReply:
        """Answer from the script (or abstain); raise the scripted ProviderError if any."""
        self.requests.append(request)
        step = self._step_for(request)
        if self._delay > 0:
            await asyncio.sleep(self._delay)
        if step.error is not None:
            error = step.error
            raise ProviderError(error.code, error.message, error.hint, error.retryable)
        return RouteReply(
            calls=step.calls,
            text=step.text,
            usage=step.usage,
            latency_ms=self._delay * 1000.0,
            stop_reason="tool_calls" if step.calls else "stop",
        )

    async def aclose(self) -> None:
        """Nothing to release."""


class MockTextProvider(MockProvider):
    """A scripted mock that can also draft text, for tests of ``tasks generate``."""

    def __init__(self, texts: Sequence[str | ProviderError], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texts = list(texts)
        self._text_counter = itertools.count()
        self.prompts: list[str] = []

    async def generate(
        self, prompt: str, temperature: float, max_output_tokens: int | None = None
    ) -> str:
        """Return the next scripted text (cycling), or raise it when it is an error."""
        self.prompts.append(prompt)
        if not self._texts:
            raise ProviderError("provider/empty-text", "The mock has no scripted text")
        item = self._texts[next(self._text_counter) % len(self._texts)]
        if isinstance(item, ProviderError):
            raise ProviderError(item.code, item.message, item.hint, item.retryable)
        return item
