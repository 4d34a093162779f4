"""Annotation coherence: do the declared hints agree with each other and with the tool's name?

Annotations are hints, never guarantees; this checks their internal consistency only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.model import Tool
from whichtool_tui.surface.naming import classify_name
from whichtool_tui.surface.report_model import AnnotationCoverage, AnnotationsSection, HintCoverage

HINT_DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
KNOWN_KEYS = frozenset(("title", *HINT_DEFAULTS))
CAVEAT = (
    "Annotations are hints, not guarantees: the MCP specification tells clients not to treat "
    "them as a security boundary. This review checks that they are consistent with each other "
    "and with the tool names, not that they are true; only executing a tool could show that, "
    "and nothing here executes one."
)


_ABSENT = object()


def _hint(tool: Tool, key: str) -> Any:
    """The declared value (``null`` included), or ``_ABSENT`` when the key is not there."""
    return _ABSENT if tool.annotations is None else tool.annotations.get(key, _ABSENT)


def _declares(tool: Tool, key: str) -> bool:
    return _hint(tool, key) is not _ABSENT


def _tool_diagnostics(tool: Tool) -> tuple[list[Diagnostic], int, list[str]]:
    """Findings for one tool, how many boolean hints it declares, and which ones."""
    found: list[Diagnostic] = []
    declared: list[str] = []
    for key, default in HINT_DEFAULTS.items():
        if not _declares(tool, key):
            continue
        value = _hint(tool, key)
        if not isinstance(value, bool):
            shown = json.dumps(value, ensure_ascii=False)
            found.append(
                Diagnostic(
                    code="annotations/non-boolean-hint",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}`: `{key}` is {shown}, not a boolean, so clients use "
                        f"the default ({str(default).lower()})"
                    ),
                    tool=tool.name,
                    detail={"hint": key, "value": shown},
                )
            )
            continue
        declared.append(key)
    for key in tool.annotations or {}:
        if key not in KNOWN_KEYS:
            found.append(
                Diagnostic(
                    code="annotations/unknown-key",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}`: `annotations.{key}` is not an MCP "
                        "annotation; clients ignore it"
                    ),
                    tool=tool.name,
                    detail={"key": key},
                )
            )
    read_only = _hint(tool, "readOnlyHint")
    destructive = _hint(tool, "destructiveHint")
    semantics, verb = classify_name(tool.name)
    if read_only is True and destructive is True:
        found.append(
            Diagnostic(
                code="annotations/contradictory-read-only-destructive",
                severity="error",
                message=(
                    f"Tool `{tool.name}` declares both `readOnlyHint: true` and "
                    "`destructiveHint: true`; a read-only tool cannot destroy anything, so one "
                    "of the two is wrong (clients ignore the destructive hint when read-only is "
                    "set)"
                ),
                tool=tool.name,
            )
        )
    if read_only is True and semantics in ("mutate", "destructive"):
        found.append(
            Diagnostic(
                code="annotations/read-only-with-mutating-name",
                severity="warning",
                message=(
                    f"Tool `{tool.name}` declares `readOnlyHint: true`, yet its name leads with "
                    f"`{verb}`, which reads as a write; the hint or the name misleads"
                ),
                tool=tool.name,
                detail={"verb": verb or "", "semantics": semantics},
            )
        )
    if read_only is False and semantics == "read":
        found.append(
            Diagnostic(
                code="annotations/write-hint-with-read-name",
                severity="info",
                message=(
                    f"Tool `{tool.name}` reads as `{verb}` but declares `readOnlyHint: false`; "
                    "clients will treat it as a write and may ask for confirmation"
                ),
                tool=tool.name,
                detail={"verb": verb or "", "semantics": semantics},
            )
        )
    if semantics == "destructive" and read_only is not True and destructive is False:
        found.append(
            Diagnostic(
                code="annotations/destructive-name-declared-safe",
                severity="warning",
                message=(
                    f"Tool `{tool.name}` reads as `{verb}` but declares `destructiveHint: false`, "
                    "which lets clients skip the confirmation step"
                ),
                tool=tool.name,
                detail={"verb": verb or ""},
            )
        )
    return found, len(declared), declared


def analyze_annotations(tools: Sequence[Tool]) -> tuple[AnnotationsSection, list[Diagnostic]]:
    """Coverage per hint plus every coherence finding (see the reference rules)."""
    diagnostics: list[Diagnostic] = []
    pending_read_hints: list[Diagnostic] = []
    by_hint = dict.fromkeys(HINT_DEFAULTS, 0)
    annotated = 0
    for tool in tools:
        found, declared_count, declared = _tool_diagnostics(tool)
        diagnostics.extend(found)
        for key in declared:
            by_hint[key] += 1
        if declared_count:
            annotated += 1
        semantics, verb = classify_name(tool.name)
        if semantics == "read" and not _declares(tool, "readOnlyHint"):
            pending_read_hints.append(
                Diagnostic(
                    code="annotations/read-tool-missing-read-only-hint",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}` reads by its name but declares no `readOnlyHint`; "
                        "clients default to false and treat it as a possibly destructive write"
                    ),
                    tool=tool.name,
                    detail={"verb": verb or ""},
                )
            )
    if annotated:
        diagnostics.extend(pending_read_hints)
    count = len(tools)
    if count and not annotated:
        diagnostics.append(
            Diagnostic(
                code="annotations/absent-surface-wide",
                severity="warning",
                message=(
                    "No tool declares any annotation, so clients assume the defaults for all "
                    f"{count} (not read-only, possibly destructive, not idempotent, open-world) "
                    "and choose the confirmation behaviour for you"
                ),
                tools=[tool.name for tool in tools],
                detail={"defaults": dict(HINT_DEFAULTS)},
            )
        )
    elif annotated and annotated < count:
        missing = [
            tool.name
            for tool in tools
            if not any(key in KNOWN_KEYS and key != "title" for key in tool.annotations or {})
        ]
        diagnostics.append(
            Diagnostic(
                code="annotations/partial-coverage",
                severity="warning",
                message=(
                    f"{annotated} of {count} tools declare annotations; the others fall back to "
                    "the defaults, so the surface is inconsistent about what needs confirming"
                ),
                tools=missing,
                detail={"annotated": annotated, "total": count},
            )
        )
    coverage = AnnotationCoverage(
        tool_count=count,
        annotated=annotated,
        by_hint=HintCoverage(
            read_only_hint=by_hint["readOnlyHint"],
            destructive_hint=by_hint["destructiveHint"],
            idempotent_hint=by_hint["idempotentHint"],
            open_world_hint=by_hint["openWorldHint"],
        ),
    )
    return AnnotationsSection(coverage=coverage, caveat=CAVEAT), diagnostics
