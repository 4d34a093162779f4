"""Characters a reviewer cannot see: Unicode tags, bidi controls, zero-width marks, ANSI codes.

``findings`` classifies them in any text; ``visible`` rewrites a text so each one shows as
``⟨U+XXXX⟩`` (a run of tag characters as the ASCII it spells), which is what every face prints
instead of the raw characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

HiddenKind = Literal["tag", "bidi", "zero_width", "ansi"]
KINDS: tuple[HiddenKind, ...] = ("tag", "bidi", "zero_width", "ansi")
_BIDI = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_ZERO_WIDTH = frozenset(
    [0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x180E]
)
_PLAIN_CONTROLS = frozenset([0x09, 0x0A, 0x0D])
# Every character ``kind_of`` names, as one class: the scan of a clean text (nearly all of
# them) runs in the regex engine instead of a Python call per character.
_HIDDEN = re.compile(
    "[\U000e0000-\U000e007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u200b-\u200d\u2060-\u2064\ufeff\u180e"
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
)


def kind_of(char: str) -> HiddenKind | None:
    """Which hidden kind a character is, or None for an ordinary character."""
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if code in _BIDI:
        return "bidi"
    if code in _ZERO_WIDTH:
        return "zero_width"
    if (code < 0x20 and code not in _PLAIN_CONTROLS) or 0x7F <= code <= 0x9F:
        return "ansi"  # ESC and CSI start ANSI sequences; every other C0/C1 control counts too
    return None


@dataclass(frozen=True)
class HiddenFinding:
    """Hidden characters of one kind in one field of one tool."""

    tool: str
    field: str
    kind: HiddenKind
    count: int
    first_offset: int
    decoded: str | None = None  # what a run of tag characters spells

    def describe(self) -> str:
        """One safe line: where, what, how many, and what the tags spell."""
        spelled = f', spelling "{self.decoded}"' if self.decoded else ""
        return (
            f"{visible(self.tool)} {self.field}: {self.count} {self.kind} character(s) "
            f"from offset {self.first_offset}{spelled}"
        )


def decode_tags(text: str) -> str:
    """The ASCII that the Unicode tag characters in ``text`` spell, in order."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


def visible(text: str) -> str:
    """``text`` with every hidden character escaped; a tag run shows the text it spells."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        kind = kind_of(char)
        if kind == "tag":
            end = index
            while end < len(text) and kind_of(text[end]) == "tag":
                end += 1
            out.append(f'⟨tags:"{decode_tags(text[index:end])}"⟩')
            index = end
            continue
        out.append(f"⟨U+{ord(char):04X}⟩" if kind is not None else char)
        index += 1
    return "".join(out)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value (keys included), with a dotted path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", str(key)
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from _strings(item, f"{path}[{position}]")


def _any_hidden(value: Any) -> bool:
    """Whether any string inside a JSON value (keys included) holds a hidden character."""
    if isinstance(value, str):
        return _HIDDEN.search(value) is not None
    if isinstance(value, dict):
        return any(
            _HIDDEN.search(str(key)) is not None or _any_hidden(item) for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_any_hidden(item) for item in value)
    return False


def findings(raw_tools: list[dict[str, Any]]) -> list[HiddenFinding]:
    """Hidden characters in every listed tool's name, title, description, schemas and
    annotations (a title is what an approval dialog shows first)."""
    found: list[HiddenFinding] = []
    for tool in raw_tools:
        name = tool.get("name")
        label = name if isinstance(name, str) else "?"
        fields = [
            ("name", tool.get("name")),
            ("title", tool.get("title")),
            ("description", tool.get("description")),
            ("inputSchema", tool.get("inputSchema", tool.get("input_schema"))),
            ("outputSchema", tool.get("outputSchema")),
            ("annotations", tool.get("annotations")),
        ]
        for field_name, value in fields:
            if not _any_hidden(value):
                continue  # most fields: no path is built for each of their strings
            for path, text in _strings(value, field_name):
                found.extend(_in_text(label, path, text))
    return found


def _in_text(tool: str, path: str, text: str) -> list[HiddenFinding]:
    by_kind: dict[HiddenKind, list[int]] = {}
    for match in _HIDDEN.finditer(text):
        kind = kind_of(match.group())
        if kind is not None:
            by_kind.setdefault(kind, []).append(match.start())
    return [
        HiddenFinding(
            tool=tool,
            field=path,
            kind=kind,
            count=len(offsets),
            first_offset=offsets[0],
            decoded=(decode_tags(text) or None) if kind == "tag" else None,
        )
        for kind, offsets in sorted(by_kind.items(), key=lambda item: KINDS.index(item[0]))
    ]
