"""Token estimate ``heuristic-bpe-v1``: a structural guess at what a tool costs in context.

It is deliberately provider-neutral and labelled ``exact: false`` everywhere: good for
comparing tools with each other and spotting bloat, not for a bill.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from whichtool_tui.surface.canonical import (
    JS_WHITESPACE,
    JS_WHITESPACE_CLASS,
    canonical_json,
    js_string,
)
from whichtool_tui.surface.model import Tool

TOKENIZER_ID = "heuristic-bpe-v1"
SERIALIZATION = "mcp-neutral-compact"
TOKENIZER_NOTE = (
    "A structural estimate with no real vocabulary behind it and no provider in mind. On one "
    "four-tool surface it came out at 2.4x OpenAI's own count and 0.5x Anthropic's; the two "
    "providers differ from each other by more than either differs from it. Compare tools with "
    "it and spot bloat; for billing, use the count your provider reports."
)

_WS = JS_WHITESPACE_CLASS
# Alternatives mirror the reference pre-tokeniser: contraction, letters, up to three digits,
# other symbols, whitespace. In Python's `re`, [^\W\d_] is "letter" and \d is a decimal digit;
# the rare letter-like numerals (Nl/No) that this misfiles are handled by the exact scanner.
_PRETOKEN = re.compile(
    rf"(')(?:[sdmt]|ll|ve|re|LL|VE|RE|S|D|M|T)|([^\W\d_]+)|(\d{{1,3}})|((?:[^\w{_WS[1:-1]}]|_)+)|({_WS}+)"
)
_NEEDS_EXACT = frozenset(("Nl", "No"))
_LONG_CONTRACTIONS = frozenset(("ll", "ve", "re", "LL", "VE", "RE"))


def _whitespace_cost(chunk: str) -> int:
    newlines = chunk.count("\n")
    horizontal = len(chunk) - newlines
    return (newlines + 1) // 2 + (0 if horizontal <= 1 else (horizontal - 1 + 7) // 8)


# Each class's tokens counted as regex chunks: a letter run of length L costs ceil(L / 4), so
# it is the number of 1-4 letter chunks; digits go in chunks of 1-3, symbols in pairs. The three
# classes are disjoint, so one pattern finds every chunk in a single scan of the text.
_CHUNKS = re.compile(rf"[^\W\d_]{{1,4}}|\d{{1,3}}|(?:[^\w{_WS[1:-1]}]|_){{1,2}}")
# Whitespace runs that cost anything: two or more characters, or a lone newline.
_COSTLY_SPACE = re.compile(rf"{_WS}{{2,}}|\n")


def _fast_count(text: str) -> int:
    """The pre-tokeniser's classes are disjoint character sets, so without an apostrophe (the
    one alternative that spans two classes) each class is counted in chunks, in C."""
    if "'" in text:
        return _sequential_count(text)
    total = len(_CHUNKS.findall(text))
    for run in _COSTLY_SPACE.findall(text):
        total += _whitespace_cost(run)
    return total


def _sequential_count(text: str) -> int:
    total = 0
    for match in _PRETOKEN.finditer(text):
        kind = match.lastindex
        size = match.end() - match.start()
        if kind == 2:  # letters
            total += (size + 3) >> 2
        elif kind == 3:  # digits
            total += 1
        elif kind == 5:  # whitespace: a lone space or tab is free
            if size > 1 or match.group(0) == "\n":
                total += _whitespace_cost(match.group(0))
        else:  # contraction or other symbols
            total += (size + 1) >> 1
    return total


def _char_class(char: str) -> str:
    if char in JS_WHITESPACE:
        return "s"
    category = unicodedata.category(char)
    if category[0] == "L":
        return "l"
    if category[0] == "N":
        return "n"
    return "o"


def _exact_count(text: str) -> int:
    """Slow path honouring Unicode ``\\p{L}``/``\\p{N}`` exactly; only for rare numerals."""
    total = 0
    position = 0
    length = len(text)
    while position < length:
        char = text[position]
        if char == "'":
            following = text[position + 1 : position + 3]
            if following in _LONG_CONTRACTIONS:
                total += 2
                position += 3
                continue
            if following[:1] and following[0] in "sdmtSDMT":
                total += 1
                position += 2
                continue
        kind = _char_class(text[position])
        end = position + 1
        limit = position + 3 if kind == "n" else length
        while end < length and end < limit and _char_class(text[end]) == kind:
            end += 1
        chunk = text[position:end]
        if kind == "s":
            total += _whitespace_cost(chunk)
        elif kind == "n":
            total += 1
        elif kind == "l":
            total += (len(chunk) + 3) // 4
        else:
            total += (len(chunk) + 1) // 2
        position = end
    return total


def count_tokens(text: str) -> int:
    """Estimated tokens of ``text`` under heuristic-bpe-v1 (0 for empty text)."""
    if not text:
        return 0
    if not text.isascii() and any(
        unicodedata.category(c) in _NEEDS_EXACT for c in text if ord(c) > 127
    ):
        return _exact_count(text)
    return _fast_count(text)


@dataclass(frozen=True, slots=True)
class ToolTokens:
    """Per-tool estimate: the whole compact serialisation and its parts."""

    total: int
    name: int
    description: int
    schema: int
    envelope: int

    def to_json(self) -> dict[str, int]:
        """Report form, keys in the published order."""
        return {
            "total": self.total,
            "name": self.name,
            "description": self.description,
            "schema": self.schema,
            "envelope": self.envelope,
        }


def counting_serialization(tool: Tool, schema_json: str | None = None) -> str:
    """The mcp-neutral-compact form counted for a tool: name, wire schema, description if sent.

    It is the canonical JSON of ``{name, inputSchema, description?}``; the keys' sorted order
    is description, inputSchema, name, so it is assembled from already-encoded parts.
    """
    if schema_json is None:
        schema_json = tool.input_schema_json
    schema = canonical_json(tool.input_schema) if schema_json is None else schema_json
    head = (
        "{" if tool.description is None else '{"description":' + js_string(tool.description) + ","
    )
    return head + '"inputSchema":' + schema + ',"name":' + js_string(tool.name) + "}"


def tool_tokens(tool: Tool) -> ToolTokens:
    """The token breakdown of one tool; ``envelope`` is what the JSON punctuation adds.

    The total is the count of :func:`counting_serialization`, added up from its parts instead
    of counting the whole text again (see :func:`_joined_count`).
    """
    schema_json = tool.input_schema_json
    if schema_json is None:
        schema_json = canonical_json(tool.input_schema)
    name_json = js_string(tool.name)
    name = count_tokens(name_json)
    schema = count_tokens(schema_json)
    if tool.description is None:
        description = 0
        pieces = [_SCHEMA_KEY_FIRST, (schema_json, schema), _NAME_KEY, (name_json, name), _CLOSE]
    else:
        description_json = js_string(tool.description)
        description = count_tokens(description_json)
        pieces = [
            _DESCRIPTION_KEY,
            (description_json, description),
            _SCHEMA_KEY,
            (schema_json, schema),
            _NAME_KEY,
            (name_json, name),
            _CLOSE,
        ]
    total = _joined_count(pieces)
    return ToolTokens(total, name, description, schema, max(0, total - name - description - schema))


_SYMBOL = rf"(?:[^\w{_WS[1:-1]}]|_)"
_LEADING_SYMBOLS = re.compile(_SYMBOL + "+")
_TRAILING_SYMBOLS = re.compile(_SYMBOL + "+\\Z")
_TAIL = 16  # a piece's closing punctuation is a few characters: look only at its end


def _counted(text: str) -> tuple[str, int]:
    return text, count_tokens(text)


_DESCRIPTION_KEY = _counted('{"description":')
_SCHEMA_KEY = _counted(',"inputSchema":')
_SCHEMA_KEY_FIRST = _counted('{"inputSchema":')
_NAME_KEY = _counted(',"name":')
_CLOSE = _counted("}")


def _joined_count(pieces: list[tuple[str, int]]) -> int:
    """``count_tokens`` of the pieces' texts joined, from each piece's own count.

    Every piece starts and ends with JSON punctuation (a quote, a brace, a comma or a colon),
    so no letter, digit or whitespace run crosses a join; only symbol runs do, and a symbol run
    of L characters costs ceil(L / 2), so a run that crosses joins is priced again as one run.
    No piece starts with an apostrophe, so no contraction straddles a join either. A property
    test compares this with counting the joined text.
    """
    total = 0
    open_run = 0  # the symbol run the text so far ends with, already priced on its own
    for text, count in pieces:
        leading = _LEADING_SYMBOLS.match(text)
        lead = leading.end() if leading else 0
        total += count + (open_run + lead + 1) // 2 - (open_run + 1) // 2 - (lead + 1) // 2
        if lead == len(text):  # all punctuation: the open run just grows
            open_run += lead
        else:
            # Searching a whole piece for an anchored end would try every position.
            tail = text[-_TAIL:]
            trailing = _TRAILING_SYMBOLS.search(tail)
            if trailing is not None and trailing.start() == 0 and len(text) > _TAIL:
                trailing = _TRAILING_SYMBOLS.search(text)
            open_run = trailing.end() - trailing.start() if trailing else 0
    return total
