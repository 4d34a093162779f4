"""Findings shared by every report: one shape, one ordering (worst first)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, Protocol

from pydantic import model_validator

from whichtool_tui.strict_model import StrictModel

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


class Diagnostic(StrictModel):
    """One finding: a stable code, a severity, a message naming what it is about, and a hint."""

    code: str
    severity: Severity
    message: str
    tool: str | None = None
    tools: list[str] | None = None
    detail: Any = None
    hint: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _hint_from_detail(cls, data: Any) -> Any:
        """Read back a hint that the inspect report's wire form keeps in ``detail.hint``."""
        if not isinstance(data, dict) or data.get("hint") is not None:
            return data
        detail = data.get("detail")
        if not isinstance(detail, dict) or not isinstance(detail.get("hint"), str):
            return data
        rest = {key: value for key, value in detail.items() if key != "hint"}
        return {**data, "hint": detail["hint"], "detail": rest or None}

    def to_upstream_json(self) -> dict[str, Any]:
        """The form upstream's closed diagnostic schema accepts: our hint rides in ``detail``.

        Upstream allows no extra diagnostic fields but any object as ``detail``, so the fix text
        is written as ``detail.hint`` (read back by the validator above).
        """
        data = {key: value for key, value in self.__dict__.items() if value is not None}
        hint = data.pop("hint", None)
        if hint is not None:
            detail = data.get("detail")
            data["detail"] = (
                {**detail, "hint": hint} if isinstance(detail, dict) else {"hint": hint}
            )
        return data

    def target_key(self) -> str:
        """The tool (or joined tools) this finding is about, for sorting."""
        if self.tool is not None:
            return self.tool
        return ",".join(self.tools or [])

    def to_json(self) -> dict[str, Any]:
        """The report form: absent optional fields are left out, not written as null."""
        return self.model_dump(mode="json", exclude_none=True)


def sort_diagnostics(items: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Severity (error < warning < info), then code, then target, then message."""
    return sorted(
        items, key=lambda d: (SEVERITY_RANK[d.severity], d.code, d.target_key(), d.message)
    )


class HasSeverity(Protocol):
    """Anything with a finding's severity (a Diagnostic, a run report's diagnostic)."""

    @property
    def severity(self) -> str: ...


def count_by_severity(items: Iterable[HasSeverity]) -> dict[str, int]:
    """How many findings of each severity, every severity present (zero when none)."""
    counts = dict.fromkeys(SEVERITY_RANK, 0)
    for item in items:
        counts[item.severity] += 1
    return counts
