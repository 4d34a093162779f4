"""What one trial produced before it is judged: normalised calls, text, usage, or an error."""

from __future__ import annotations

from dataclasses import dataclass, field

from whichtool_tui.evaluation.report_model import Call, TrialError, TrialUsage


@dataclass(frozen=True)
class TrialOutcome:
    """The raw result of a trial; an error outcome carries no calls, text or usage."""

    calls: tuple[Call, ...] = ()
    text: str = ""
    usage: TrialUsage | None = None
    reasoning_chars: int | None = None
    latency_ms: float = 0.0
    error: TrialError | None = None
    from_cache: bool = field(default=False, compare=False)

    @classmethod
    def failed(cls, error: TrialError) -> TrialOutcome:
        """An errored trial: nothing else is recorded, latency 0."""
        return cls(error=error)
