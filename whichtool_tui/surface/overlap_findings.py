"""Overlap findings: identical descriptions, near-duplicate families and pairs, short texts.

Built without validation where a surface can produce many (every field is made here from
trusted values); a family of two reads exactly as the pair finding upstream defines.
"""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.bulk import trusted_diagnostic
from whichtool_tui.surface.canonical import js_fixed, js_length
from whichtool_tui.surface.families import Family, listed_members, named_members, shared_template
from whichtool_tui.surface.model import Tool
from whichtool_tui.surface.rule_catalog import RULES

HIGH_OVERLAP = 0.6
NOTABLE_OVERLAP = 0.4
MAX_SCORED_CHARACTERS = 20_000
"""Description characters scored for overlap; a longer description gets descriptions/oversized."""


def fixed(score: float, digits: int) -> str:
    """``toFixed`` text; the exact-tie fallback is rare, so the plain format goes first."""
    scaled = score * 10**digits
    if abs(scaled - int(scaled) - 0.5) > 1e-6:
        return f"{score:.{digits}f}"
    return js_fixed(score, digits)


def pair_diagnostic(first: str, second: str, score: float) -> Diagnostic:
    """The upstream pair finding (also a family of two)."""
    shown = fixed(score, 2)
    if score >= HIGH_OVERLAP:
        code, severity = "overlap/high", "warning"
        message = (
            f"`{first}` and `{second}` overlap at {shown} on name plus description; a "
            "model is likely to mix them up (a run measures whether it does)"
        )
    else:
        code, severity = "overlap/notable", "info"
        message = f"`{first}` and `{second}` overlap at {shown}"
    return trusted_diagnostic(
        code,
        severity,
        message,
        tools=[first, second],
        detail={"score": float(fixed(score, 4))},
        hint=_PAIR_HINTS[code],
    )


_PAIR_HINTS = {code: RULES[code].help for code in ("overlap/high", "overlap/notable")}


def description_diagnostics(tools: Sequence[Tool]) -> list[Diagnostic]:
    """Missing (warning), very short (info, under 20 characters) and oversized descriptions."""
    found = []
    for tool in tools:
        length = js_length(tool.description_text)
        if length == 0:
            found.append(
                Diagnostic(
                    code="descriptions/missing",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}` has no description; a model sees only its "
                        "name and schema"
                    ),
                    tool=tool.name,
                )
            )
        elif length < 20:
            found.append(
                Diagnostic(
                    code="descriptions/very-short",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}` has a {length}-character description, too little to "
                        "tell it apart from a neighbour"
                    ),
                    tool=tool.name,
                    detail={"length": length},
                )
            )
        elif length > MAX_SCORED_CHARACTERS:
            found.append(
                Diagnostic(
                    code="descriptions/oversized",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}` has a {length:,}-character description; overlap "
                        f"scores only its first {MAX_SCORED_CHARACTERS:,}, and a model reads "
                        "all of it on every turn"
                    ),
                    tool=tool.name,
                    detail={"length": length, "scored": MAX_SCORED_CHARACTERS},
                    hint=RULES["descriptions/oversized"].help,
                )
            )
    return found


def identical_diagnostic(names: list[str]) -> Diagnostic:
    """One error per group of identical descriptions (a group of two reads as upstream's)."""
    if len(names) == 2:
        first, second = names
        message = (
            f"`{first}` and `{second}` have identical descriptions: nothing in the text says "
            "which one to pick"
        )
        return Diagnostic(
            code="descriptions/identical", severity="error", message=message, tools=names
        )
    message = (
        f"{len(names):,} tools have identical descriptions ({named_members(names)}): nothing "
        "in the text says which one to pick"
    )
    return Diagnostic(
        code="descriptions/identical",
        severity="error",
        message=message,
        tools=listed_members(names),
        detail={"members": len(names)},
    )


def family_diagnostic(
    family: Family, tools: Sequence[Tool], descriptions: Sequence[str], *, high: bool
) -> Diagnostic:
    """One finding for a family: a family of two is the plain pair finding."""
    names = [tools[member].name for member in family.members]
    if len(names) == 2:
        return pair_diagnostic(names[0], names[1], family.best)
    code, severity = ("overlap/high", "warning") if high else ("overlap/notable", "info")
    template = shared_template([descriptions[member] for member in family.members])
    at = f"highest pair {fixed(family.best, 2)}, typical {fixed(family.mean, 2)}"
    if high:
        message = (
            f"{len(names):,} tools overlap as one family on name plus description ({at}): "
            f"{named_members(names)}; a model is likely to mix them up (a run measures "
            "whether it does)"
        )
    else:
        message = f"{len(names):,} tools overlap as one family ({at}): {named_members(names)}"
    detail: dict[str, object] = {
        "score": float(fixed(family.best, 4)),
        "typicalScore": float(fixed(family.mean, 4)),
        "members": len(names),
        "pairs": family.pairs,
        "bestPair": [tools[family.best_pair[0]].name, tools[family.best_pair[1]].name],
    }
    if template is not None:
        detail["template"] = template
        hint = (
            f'They share one template ("{template}"): serve one tool that takes the varying '
            "part as a parameter, or make each description say what only that tool does."
        )
    else:
        hint = (
            "Make each description say what only that tool does and when to pick it over the "
            "others in the family, or merge the tools."
        )
    return trusted_diagnostic(
        code, severity, message, tools=listed_members(names), detail=detail, hint=hint
    )
