"""One finding per rule that fires the same way on many tools, so a big surface stays readable.

A rule that fires on thousands of tools of a generated surface (every tool's ``id`` parameter
without an example) said the same thing thousands of times. From ``AGGREGATE_MIN_TOOLS`` tools
on, the single-tool findings of one rule with one severity and one fix become one finding: its
``tools`` are every affected tool, ``detail.instances`` every original finding (tool, message,
detail), so nothing is lost; the severity is unchanged. SARIF spreads them out again, one result
per location (``reports/inspect_sarif.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from whichtool_tui.diagnostics import Diagnostic

AGGREGATE_MIN_TOOLS = 10
"""A rule firing one way on at least this many tools is reported once for all of them."""
MOSTLY_SHARE = 0.5
"""A detail value shared by more than this share of the affected tools is named in the message."""
MOSTLY_KEYS = ("parameter", "parameters")
"""The detail fields whose shared value the message names ("mostly parameter `id`")."""
AGGREGATED_KEY = "aggregated"

_Key = tuple[str, str, str | None]


def _key(diagnostic: Diagnostic) -> _Key | None:
    """The way a single-tool finding fires (rule, severity, fix); None for any other finding."""
    if diagnostic.tool is None or diagnostic.tools:
        return None
    return (diagnostic.code, diagnostic.severity, diagnostic.hint)


def aggregate_findings(diagnostics: Sequence[Diagnostic], tool_count: int) -> list[Diagnostic]:
    """``diagnostics`` with each rule that fires one way on many tools folded into one finding
    (at the place of its first instance); every other finding is kept as it was."""
    groups: dict[_Key, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        key = _key(diagnostic)
        if key is not None:
            groups.setdefault(key, []).append(diagnostic)
    folded = {
        key: items
        for key, items in groups.items()
        if len({item.tool for item in items}) >= AGGREGATE_MIN_TOOLS
    }
    if not folded:
        return list(diagnostics)
    kept: list[Diagnostic] = []
    written: set[_Key] = set()
    for diagnostic in diagnostics:
        key = _key(diagnostic)
        if key is None or key not in folded:
            kept.append(diagnostic)
        elif key not in written:  # later instances are inside this one
            written.add(key)
            kept.append(_aggregated(folded[key], tool_count))
    return kept


def _instance(diagnostic: Diagnostic) -> dict[str, Any]:
    entry: dict[str, Any] = {"tool": diagnostic.tool, "message": diagnostic.message}
    if diagnostic.detail is not None:
        entry["detail"] = diagnostic.detail
    return entry


def _mostly(items: Sequence[Diagnostic], tools: int) -> tuple[str, str, int] | None:
    """(detail key, value, tools) of the detail value most affected tools share, if most do."""
    counts: Counter[tuple[str, str]] = Counter()
    for item in items:
        if not isinstance(item.detail, dict):
            continue
        for name, value in item.detail.items():
            if name not in MOSTLY_KEYS:
                continue
            values = value if isinstance(value, list) else [value]
            for one in dict.fromkeys(v for v in values if isinstance(v, str)):
                counts[(name, one)] += 1
    if not counts:
        return None
    (name, value), times = min(counts.items(), key=lambda entry: (-entry[1], entry[0]))
    return (name, value, times) if times > MOSTLY_SHARE * tools else None


def _label(name: str) -> str:
    return "parameter" if name == "parameters" else name


def _aggregated(items: Sequence[Diagnostic], tool_count: int) -> Diagnostic:
    first = items[0]
    tools = sorted({item.tool for item in items if item.tool is not None})
    mostly = _mostly(items, len(tools))
    text = f"`{first.code}` on {len(tools):,} of {tool_count:,} tools"
    if mostly is not None:
        name, value, times = mostly
        text += f", mostly {_label(name)} `{value}` ({times:,})"
    detail: dict[str, Any] = {
        AGGREGATED_KEY: {"tools": len(tools), "of": tool_count, "findings": len(items)},
        "instances": [_instance(item) for item in items],
    }
    if mostly is not None:
        detail["mostly"] = {"key": mostly[0], "value": mostly[1], "tools": mostly[2]}
    return Diagnostic(
        code=first.code,
        severity=first.severity,
        message=f"{text}. For example: {first.message}",
        tools=tools,
        detail=detail,
        hint=first.hint,
    )


def instances(diagnostic: Diagnostic) -> list[Diagnostic] | None:
    """The single-tool findings an aggregated finding stands for (None for any other finding)."""
    detail = diagnostic.detail
    if not isinstance(detail, dict) or AGGREGATED_KEY not in detail:
        return None
    found = detail.get("instances")
    if not isinstance(found, list):
        return None
    return [
        Diagnostic(
            code=diagnostic.code,
            severity=diagnostic.severity,
            message=str(entry.get("message", diagnostic.message)),
            tool=str(entry.get("tool")),
            detail=entry.get("detail"),
            hint=diagnostic.hint,
        )
        for entry in found
        if isinstance(entry, dict)
    ]


SHOWN_TOOLS = 3
"""Tools a terminal or Markdown line names before "and N more" (JSON lists every one)."""


def first_few(names: Sequence[str], limit: int = SHOWN_TOOLS) -> tuple[list[str], int]:
    """The first ``limit`` names and how many more there are (a line a person reads)."""
    return list(names[:limit]), max(0, len(names) - limit)
