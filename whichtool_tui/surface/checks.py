"""Pluggable surface lint rules: each is a function (surface, options) -> diagnostics.

Checks that also feed a report section (tokens, annotations, overlap, headers) run inside
``inspect_surface``; everything else registers here, and adding a rule family is one
``register_check`` call in its own module plus an import in ``load_builtin_checks``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.limits import DEFAULT_MAX_TOOLS
from whichtool_tui.surface.model import NormalizedSurface


@dataclass(frozen=True)
class CheckOptions:
    """What a check may need to know beyond the surface.

    ``high_overlap_families`` (tools joined by pairs scored 0.6 or more; a pair is a family of
    two) and ``tool_tokens`` come from the overlap and token passes that already ran, so rules
    reuse those results instead of scoring the surface again. ``high_overlap_pairs`` is read
    as families of two when no families are given.
    """

    max_tools: int = DEFAULT_MAX_TOOLS
    high_overlap_pairs: tuple[tuple[str, str], ...] = ()
    high_overlap_families: tuple[tuple[str, ...], ...] = ()
    tool_tokens: Mapping[str, int] = field(default_factory=dict)


SurfaceCheck = Callable[[NormalizedSurface, CheckOptions], list[Diagnostic]]
_CHECKS: dict[str, SurfaceCheck] = {}


_READS_OVERLAP: set[str] = set()
_TEXT_ONLY: set[str] = set()


def register_check(
    name: str, check: SurfaceCheck, *, reads_overlap: bool = False, text_only: bool = False
) -> SurfaceCheck:
    """Add a rule under a stable name (registering the same name again replaces it).

    ``reads_overlap``: the rule reads ``high_overlap_families``, so it runs once those are known.
    ``text_only``: it reads nothing but the tools' names, descriptions and served indexes (and
    the families, with ``reads_overlap``), so the overlap helper may run it (``text_helper``).
    """
    _CHECKS[name] = check
    for flag, names in ((reads_overlap, _READS_OVERLAP), (text_only, _TEXT_ONLY)):
        if flag:
            names.add(name)
        else:
            names.discard(name)
    return check


def registered_checks() -> list[tuple[str, SurfaceCheck]]:
    """Every registered rule, in name order so reports do not depend on import order."""
    return sorted(_CHECKS.items())


def large_tool_set(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Warn above the review threshold: more tools means more ambiguity and more prompt."""
    count = len(surface.tools)
    if count <= options.max_tools:
        return []
    return [
        Diagnostic(
            code="surface/large-tool-set",
            severity="warning",
            message=(
                f"The surface offers {count} tools, more than the review threshold of "
                f"{options.max_tools}; this is a cautious default, not a model limit, but every "
                "extra tool adds prompt cost and room for confusion"
            ),
            detail={"actual": count, "reviewThreshold": options.max_tools},
            hint="Review the overlap findings; raise the threshold with --max-tools N.",
        )
    ]


register_check("surface/large-tool-set", large_tool_set)


def load_builtin_checks() -> None:
    """Import the rule modules beyond upstream; each registers its checks on import."""
    from whichtool_tui.surface import (  # noqa: F401
        rules_annotations,
        rules_budget,
        rules_descriptions,
        rules_display,
        rules_names,
        rules_parameters,
    )


def run_checks(
    surface: NormalizedSurface,
    options: CheckOptions,
    families_later: Callable[[], tuple[tuple[str, ...], ...]] | None = None,
    text_elsewhere: Callable[[], Mapping[str, list[Diagnostic]]] | None = None,
) -> list[Diagnostic]:
    """Run every registered rule and gather their findings, in rule-name order.

    With ``families_later``, the rules that read the overlap families run last, after it has
    given them (the overlap may still be scoring elsewhere while the other rules run). With
    ``text_elsewhere``, the text-only rules are not run here: their findings come from it
    (``run_text_checks`` in the overlap helper), asked for last.
    """
    load_builtin_checks()
    checks = registered_checks()
    found: dict[str, list[Diagnostic]] = {}
    here = [item for item in checks if text_elsewhere is None or item[0] not in _TEXT_ONLY]
    for name, check in here:
        if families_later is None or name not in _READS_OVERLAP:
            found[name] = check(surface, options)
    if families_later is not None:
        waited = [(name, check) for name, check in here if name in _READS_OVERLAP]
        if waited:
            options = replace(options, high_overlap_families=families_later())
            for name, check in waited:
                found[name] = check(surface, options)
    if text_elsewhere is not None:
        given = text_elsewhere()
        found.update((name, given[name]) for name, _check in checks if name in _TEXT_ONLY)
    return [finding for name, _check in checks for finding in found[name]]


def run_text_checks(
    surface: NormalizedSurface, options: CheckOptions
) -> dict[str, list[Diagnostic]]:
    """The text-only rules' findings by rule name (``options`` carries the overlap families)."""
    load_builtin_checks()
    return {
        name: check(surface, options) for name, check in registered_checks() if name in _TEXT_ONLY
    }
