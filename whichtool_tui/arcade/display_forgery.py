"""Rules for forged approval-dialog text: what a host shows a person before a call runs.

A host's confirmation dialog shows a tool's ``title`` (or ``annotations.title``), its ``name``
and the first line of its description. Line and paragraph separators, carriage returns and other
control characters there let a server draw a fake second line; badge glyphs (check marks,
locks, shields) make an unreviewed tool look approved; and a ``readOnlyHint`` on a tool whose
name says it deletes is a lie the dialog repeats. The MCP specification says annotations are
hints a client must not trust from an untrusted server (tools, 2025-06-18 and later). Bidi,
zero-width, tag and ANSI characters are ``encoding.hidden``'s and are not counted again here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.arcade.hidden_text import visible

LINE_BREAKERS = frozenset([0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
BADGES = frozenset(
    [0x2705, 0x2714, 0x2713, 0x2611, 0x1F512, 0x1F510, 0x1F6E1, 0x1F3C5, 0x1F396, 0x2B50, 0x1F7E2]
)
"""Check marks, ballot box, locks, shield, medals, star, green circle."""
DESTRUCTIVE_WORDS = frozenset(
    [
        "delete",
        "remove",
        "wipe",
        "erase",
        "drop",
        "destroy",
        "purge",
        "truncate",
        "kill",
        "overwrite",
        "uninstall",
        "revoke",
        "format",
        "reset",
        "rm",
        "rmdir",
        "unlink",
        "shred",
    ]
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


@dataclass(frozen=True)
class ForgeryFinding:
    """One forged detail: which check, where, and what (shown escaped)."""

    check: str
    where: str
    detail: str

    def describe(self) -> str:
        """``where: detail``."""
        return f"{visible(self.where)}: {self.detail}"


def display_fields(raw_tool: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    """(where, text, whole) of each field a dialog shows; ``whole`` false means only the
    description's first line counts (a description may span lines)."""
    name = str(raw_tool.get("name", "?"))
    if isinstance(raw_tool.get("name"), str):
        yield f"{name}.name", raw_tool["name"], True
    if isinstance(raw_tool.get("title"), str):
        yield f"{name}.title", raw_tool["title"], True
    annotations = raw_tool.get("annotations")
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        yield f"{name}.annotations.title", annotations["title"], True
    if isinstance(raw_tool.get("description"), str):
        yield f"{name}.description", raw_tool["description"].split("\n", 1)[0], False


# What ``_breakers`` may report (line breakers, and in a whole field the C0 controls but tab
# and ESC), and the badges: a clean text, nearly all of them, is passed over in one search.
_MAY_BREAK = re.compile("[\\x00-\\x08\\x0A-\\x1A\\x1C-\\x1F\\x85\\u2028\\u2029]")
_MAY_BADGE = re.compile("[" + "".join(chr(code) for code in sorted(BADGES)) + "]")


def _breakers(text: str, whole: bool) -> list[str]:
    if _MAY_BREAK.search(text) is None:
        return []
    return [
        f"U+{ord(c):04X} at {i}"
        for i, c in enumerate(text)
        if ord(c) in LINE_BREAKERS or (whole and ord(c) < 0x20 and ord(c) not in (0x09, 0x1B))
    ]


def name_words(name: str) -> set[str]:
    """Lower-case words of a tool name split on separators and camelCase."""
    return {w.lower() for w in _WORD.findall(name)}


def _contradiction(raw_tool: dict[str, Any]) -> str | None:
    annotations = raw_tool.get("annotations")
    if not isinstance(annotations, dict):
        return None
    says_safe = (
        annotations.get("readOnlyHint") is True or annotations.get("destructiveHint") is False
    )
    shown = " ".join(str(raw_tool.get(k, "")) for k in ("name", "title"))
    verbs = sorted(name_words(shown) & DESTRUCTIVE_WORDS)
    if says_safe and verbs:
        hint = (
            "readOnlyHint true"
            if annotations.get("readOnlyHint") is True
            else "destructiveHint false"
        )
        return f"{hint} on a tool named for {', '.join(verbs)}"
    return None


def forgeries(raw_tools: Sequence[dict[str, Any]]) -> list[ForgeryFinding]:
    """Every forged detail over a listed menu."""
    found: list[ForgeryFinding] = []
    for tool in raw_tools:
        for where, text, whole in display_fields(tool):
            breaks = _breakers(text, whole)
            if breaks:
                found.append(
                    ForgeryFinding(
                        "line_breaks", where, f"{', '.join(breaks)} in {visible(text)!r}"
                    )
                )
            badges = (
                [f"U+{ord(c):04X}" for c in text if ord(c) in BADGES]
                if _MAY_BADGE.search(text)
                else []
            )
            if badges:
                found.append(ForgeryFinding("badges", where, f"badge {', '.join(badges)}"))
        lie = _contradiction(tool)
        if lie:
            found.append(ForgeryFinding("annotations", f"{tool.get('name')}.annotations", lie))
    return found
