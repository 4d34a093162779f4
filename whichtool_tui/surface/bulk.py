"""Allocation-heavy phases (scoring 499,500 pairs, sorting tens of thousands of findings)."""

from __future__ import annotations

from typing import Any

from whichtool_tui.diagnostics import Diagnostic

_new_diagnostic = Diagnostic.__new__
_set = object.__setattr__
_PAIR_FIELDS = ("code", "severity", "message", "tools")


def trusted_diagnostic(
    code: str,
    severity: str,
    message: str,
    *,
    tools: list[str],
    detail: Any = None,
    hint: str | None = None,
) -> Diagnostic:
    """A pair finding built without validation, from values the caller made itself.

    A template-heavy 1,000-tool surface yields up to 499,500 pair findings per pair rule;
    validating each would cost more than scoring every pair.
    """
    item = _new_diagnostic(Diagnostic)
    _set(
        item,
        "__dict__",
        {
            "code": code,
            "severity": severity,
            "message": message,
            "tool": None,
            "tools": tools,
            "detail": detail,
            "hint": hint,
        },
    )
    fields = set(_PAIR_FIELDS)
    if detail is not None:
        fields.add("detail")
    if hint is not None:
        fields.add("hint")
    _set(item, "__pydantic_fields_set__", fields)
    _set(item, "__pydantic_extra__", None)
    _set(item, "__pydantic_private__", None)
    return item
