"""Description rules: text that only restates the name, placeholder text, and overlapping pairs
whose descriptions never say when to prefer one over the other."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.bulk import trusted_diagnostic
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.families import listed_members, named_members
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.rule_catalog import RULES
from whichtool_tui.surface.rule_text import content_words, covered_by, mentions, text_words
from whichtool_tui.surface.schema_walk import schema_parameters

# Upper case only: "todo" is a legitimate word on a to-do list server. No XXX: it is a common
# format mask ("XXX-XXX-XXXX").
_PLACEHOLDER_UPPER = re.compile(r"\b(TODO|TBD|FIXME)\b")
_PLACEHOLDER_ANY = re.compile(
    r"lorem ipsum|\bdescription (goes )?here\b|\b(add|insert|write) (a |the )?description\b"
    r"|\bplaceholder (description|text)\b|\bto be (written|documented|described)\b",
    re.IGNORECASE,
)
# Phrases that tell a model when to pick this tool over a neighbour.
# Matched against lowercased text (no IGNORECASE: it is several times slower here).
_PREFERENCE = re.compile(
    r"\b(?:instead|rather than|prefer|preferred|preferable|unlike|as opposed to|versus|vs\.?"
    r"|in contrast|do not use|don't use|not for|only (?:when|if|for)"
    r"|use (?:this|it)(?: tool)? (?:when|for|if|only|to)|use when|better (?:for|when|suited))\b"
)
# Every phrase above starts with one of these words: most descriptions skip the regex.
_PREFERENCE_LEADS = frozenset(
    [
        "instead",
        "rather",
        "prefer",
        "preferred",
        "preferable",
        "unlike",
        "as",
        "versus",
        "vs",
        "in",
        "do",
        "don",
        "not",
        "only",
        "use",
        "better",
    ]
)
_NEGATIONS = frozenset(["not", "without", "except", "excluding", "never"])
_WORDS = re.compile(r"[a-z0-9]+")
CONTRAST_WINDOW = 3


def _hint(code: str) -> str:
    return RULES[code].help


def restates_name(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """A description whose every meaningful word is already in the name adds nothing."""
    found = []
    for tool in surface.tools:
        words = content_words(tool.description_text)
        if words and covered_by(words, frozenset(name_tokens(tool.name))):
            found.append(
                Diagnostic(
                    code="descriptions/restates-name",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}`: the description only restates the name "
                        f"({tool.description_text.strip()!r})"
                    ),
                    tool=tool.name,
                    hint=_hint("descriptions/restates-name"),
                )
            )
    return found


# Every placeholder phrase holds one of these words: an ASCII text (where ignoring case is
# plain lower-casing) with none of them lowered cannot match, and skips the case-blind regex.
_PLACEHOLDER_WORDS = ("lorem ipsum", "description", "placeholder", "to be ")
_PLACEHOLDER_MARKS = ("TODO", "TBD", "FIXME")


def placeholder_match(text: str) -> str | None:
    """The placeholder text found in ``text`` (TODO, lorem ipsum, ...), or None."""
    if any(mark in text for mark in _PLACEHOLDER_MARKS):
        match = _PLACEHOLDER_UPPER.search(text)
        if match:
            return match.group(0)
    if text.isascii():
        lowered = text.lower()
        if not any(word in lowered for word in _PLACEHOLDER_WORDS):
            return None
    match = _PLACEHOLDER_ANY.search(text)
    return match.group(0) if match else None


def _described(tool: Tool) -> Iterator[tuple[str | None, str]]:
    yield None, tool.description_text
    for parameter in schema_parameters(tool.input_schema_resolved):
        description = parameter.schema.get("description")
        if isinstance(description, str):
            yield parameter.path, description


def placeholders(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Placeholder text left in a tool or parameter description reads as an unfinished tool."""
    found = []
    for tool in surface.tools:
        for parameter, text in _described(tool):
            match = placeholder_match(text)
            if match is None:
                continue
            where = (
                f"parameter `{parameter}` of tool `{tool.name}`"
                if parameter
                else (f"Tool `{tool.name}`")
            )
            found.append(
                Diagnostic(
                    code="descriptions/placeholder",
                    severity="warning",
                    message=f"{where}: the description holds placeholder text ({match!r})",
                    tool=tool.name,
                    detail={"parameter": parameter, "text": match}
                    if parameter
                    else {"text": match},
                    hint=_hint("descriptions/placeholder"),
                )
            )
    return found


def negated_words(description: str) -> frozenset[str]:
    """Words within a few words after a negation ("not yet staged" gives yet, staged)."""
    words = _WORDS.findall(description.lower())
    found: set[str] = set()
    for index, word in enumerate(words):
        if word in _NEGATIONS:
            found.update(words[index + 1 : index + 1 + CONTRAST_WINDOW])
    return frozenset(found)


@dataclass(frozen=True, slots=True)
class _Reading:
    name: str
    lowered_name: str
    tokens: frozenset[str]
    lowered: str
    negated: frozenset[str]
    prefers: bool


def _read(tool: Tool) -> _Reading:
    text = tool.description_text
    return _Reading(
        name=tool.name,
        lowered_name=tool.name.lower(),
        tokens=frozenset(name_tokens(tool.name)),
        lowered=text.lower(),
        negated=negated_words(text),
        prefers=bool(_PREFERENCE_LEADS & text_words(text))
        and _PREFERENCE.search(text.lower()) is not None,
    )


def _guides(own: _Reading, other: _Reading) -> bool:
    """Names the other tool, or negates a word only the other's name has (not yet staged)."""
    if other.lowered_name in own.lowered:
        return True
    if not own.negated:
        return False
    return any(mentions(token, own.negated) for token in other.tokens - own.tokens)


_UNGUIDED = "descriptions/overlap-without-preference"


def overlap_without_preference(
    surface: NormalizedSurface, options: CheckOptions
) -> list[Diagnostic]:
    """For each family of pairs scored >= 0.6: does any description say when to pick it?

    A family of two is the upstream-style pair check. A larger family (a templated surface
    can put hundreds of tools in one) gets one finding listing the members that neither state
    a preference nor name a sibling; each text is read once, never pair by pair.
    """
    families = options.high_overlap_families or options.high_overlap_pairs
    if not families:
        return []
    # Only the families' members are read (once each), not every tool of the surface.
    wanted = {name for family in families for name in family}
    readings = {tool.name: _read(tool) for tool in surface.tools if tool.name in wanted}
    found = []
    for family in families:
        members = [readings[name] for name in family if name in readings]
        if len(members) == 2:
            finding = _unguided_pair(members[0], members[1])
        else:
            finding = _unguided_family(members)
        if finding is not None:
            found.append(finding)
    return found


def _unguided_pair(a: _Reading, b: _Reading) -> Diagnostic | None:
    if a.prefers or b.prefers or _guides(a, b) or _guides(b, a):
        return None
    first, second = a.name, b.name
    return trusted_diagnostic(
        _UNGUIDED,
        "warning",
        f"`{first}` and `{second}` overlap heavily and neither description says "
        "when to use it instead of the other",
        tools=[first, second],
        hint=(
            f'Add a sentence to each, e.g. in `{first}`: "Use `{second}` instead '
            'when ..."; or merge the two tools.'
        ),
    )


_NAME_LIKE = re.compile(r"[a-z0-9][a-z0-9_.\-]*[a-z0-9]|[a-z0-9]")


def _unguided_family(members: list[_Reading]) -> Diagnostic | None:
    names = {member.lowered_name for member in members}
    unguided = [
        member.name
        for member in members
        if not member.prefers
        and not any(
            word in names and word != member.lowered_name
            for word in _NAME_LIKE.findall(member.lowered)
        )
    ]
    if len(unguided) < 2:
        return None
    first, second = unguided[0], unguided[1]
    return trusted_diagnostic(
        _UNGUIDED,
        "warning",
        f"{len(unguided):,} of the {len(members):,} tools in one overlapping family "
        f"({named_members(unguided)}) never say when to use them instead of the others",
        tools=listed_members(unguided),
        detail={"members": len(members), "unguided": len(unguided)},
        hint=(
            f"Add a sentence to each saying when to pick it over its siblings (in `{first}`: "
            f'"Use `{second}` instead when ..."), or serve one tool that takes the varying '
            "part as a parameter."
        ),
    )


register_check("descriptions/restates-name", restates_name)
register_check("descriptions/placeholder", placeholders)  # reads parameter descriptions too
register_check(
    "descriptions/overlap-without-preference",
    overlap_without_preference,
    reads_overlap=True,
    text_only=True,
)
