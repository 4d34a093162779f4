"""Turn the calls a provider returned into the report's ``{name, arguments, rawArguments?}`` shape.

Pure: no I/O. A reply that cannot be represented faithfully in a report (too many calls,
non-JSON values, non-finite numbers, cycles) is a provider error for that trial, never an
invalid report.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.limits import MAX_CALLS_PER_TRIAL
from whichtool_tui.providers.base import ProposedCall, ProviderError, RouteReply

_MAX_DEPTH = 256


@dataclass(frozen=True)
class NormalizedCall:
    """One proposed call as recorded: ``arguments`` is an object or None, never anything else."""

    name: str | None
    arguments: dict[str, Any] | None
    raw_arguments: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The report form; ``rawArguments`` only when the arguments were not a JSON object."""
        out: dict[str, Any] = {"name": self.name, "arguments": self.arguments}
        if self.raw_arguments is not None:
            out["rawArguments"] = self.raw_arguments
        return out


class _Malformed(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _malformed(index: int, reason: str) -> ProviderError:
    return ProviderError(
        "provider/malformed-call",
        f"Provider returned malformed tool call #{index}: {reason}",
        "The reply cannot be recorded faithfully; the trial counts as an error, not a verdict.",
    )


def _check_plain(value: Any, active: set[int], depth: int) -> None:
    """Raise _Malformed unless ``value`` is plain JSON (finite numbers, str keys, no cycles)."""
    if depth > _MAX_DEPTH:
        raise _Malformed("arguments are nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Malformed("arguments contain a non-finite number")
        return
    if type(value) is dict:
        if id(value) in active:
            raise _Malformed("arguments contain a cycle")
        active.add(id(value))
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Malformed("arguments have a non-string key")
            _check_plain(item, active, depth + 1)
        active.discard(id(value))
        return
    if type(value) is list:
        if id(value) in active:
            raise _Malformed("arguments contain a cycle")
        active.add(id(value))
        for item in value:
            _check_plain(item, active, depth + 1)
        active.discard(id(value))
        return
    raise _Malformed(f"arguments contain a non-JSON value ({type(value).__name__})")


def _reject_constant(token: str) -> Any:
    raise _Malformed(f"arguments contain the non-finite number {token}")


def normalize_call(call: ProposedCall, index: int) -> NormalizedCall:
    """Normalise one call; ``index`` is 1-based and only used in the error message."""
    if call.name is not None and not isinstance(call.name, str):
        raise _malformed(index, "the tool name is not a string")
    name = call.name if call.name else None
    raw = call.arguments
    try:
        if raw is None:
            return NormalizedCall(name, None)
        if isinstance(raw, str):
            try:
                parsed = json.loads(raw, parse_constant=_reject_constant)
            except (ValueError, RecursionError):
                return NormalizedCall(name, None, raw)
            _check_plain(parsed, set(), 0)
            if type(parsed) is dict:
                return NormalizedCall(name, parsed)
            return NormalizedCall(name, None, raw)
        _check_plain(raw, set(), 0)
    except _Malformed as exc:
        raise _malformed(index, exc.reason) from None
    if type(raw) is dict:
        return NormalizedCall(name, raw)
    return NormalizedCall(name, None, json.dumps(raw, ensure_ascii=False))


def normalize_calls(reply: RouteReply | Sequence[ProposedCall]) -> list[NormalizedCall]:
    """Normalise every call of a reply in provider order; raise ProviderError when malformed."""
    calls = reply.calls if isinstance(reply, RouteReply) else reply
    if len(calls) > MAX_CALLS_PER_TRIAL:
        raise _malformed(
            MAX_CALLS_PER_TRIAL + 1, f"more than {MAX_CALLS_PER_TRIAL} calls in one turn"
        )
    return [normalize_call(call, index) for index, call in enumerate(calls, start=1)]
