"""One writer for our JSON reports: ``JSON.stringify(value, null, 2)`` bytes at Rust speed.

The run, diff and inspect reports must read exactly as the upstream JavaScript tool writes them.
pydantic's serializer already matches JavaScript on strings, key order, indentation and most
numbers; it differs only on whole floats (``12.0``, JS ``12``), on some exponent forms (``1e-6``
and ``1e+16``, JS ``0.000001`` and ``10000000000000000``) and on ``-0.0``. Those few number
tokens are rewritten afterwards, which is several times faster than the pure-Python indented
writer (``canonical.js_pretty_json``, still the reference and the fallback for what the Rust
serializer refuses: lone surrogates, which JavaScript escapes).
"""

from __future__ import annotations

import heapq
import re
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError, to_json

from whichtool_tui.gc_phases import gc_paused
from whichtool_tui.surface.canonical import js_number, js_pretty_json

# Where a number token may differ from JavaScript: it ends in ".0" or an exponent. Pretty-printed
# JSON puts every scalar after a space (": " or indentation) and before ",\n" or "\n"; a string
# can never contain a raw newline, so a match is never inside a string. Searching for these
# endings (literal-led) and walking back to the token start is 3x faster than a pattern that
# starts at the token, and the two endings searched apart (each pattern then starts with a
# literal the scanner skips to) 4x faster again than one alternation. Their matches never
# overlap (one ends in ".0", the other in an exponent's digits), so merged by position they are
# the alternation's matches.
_WHOLE_FLOAT_ENDING = re.compile(rb"\.0(?=,?\n)")
_EXPONENT_ENDING = re.compile(rb"e[-+]\d+(?=,?\n)")
_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:e[-+]\d+)?")
_TOKEN_CHARS = frozenset(b"0123456789.-+e")

# The document as pieces to write one after another: slices of pydantic's bytes (views, not
# copies) and the few respelled number tokens, so a 20 MB report is held once, not four times.
JsonChunks = list[bytes | memoryview]


_EXACT_INTEGERS = 2.0**53


def _as_js(token: str) -> str:
    """The JavaScript spelling of a number token that pydantic spelled otherwise."""
    value = float(token)
    if value.is_integer() and _EXACT_INTEGERS <= abs(value) < 1e21:
        # JavaScript keeps the shortest round-trip digits and pads with zeros (1.2e20 is
        # 120000000000000000000), where int(value) would spell out the binary value's digits.
        mantissa, _, exponent = repr(value).partition("e")
        whole, _, fraction = mantissa.partition(".")
        digits = whole + fraction.rstrip("0")
        return digits + "0" * (
            int(exponent or 0) + len(whole.lstrip("-")) - len(digits.lstrip("-"))
        )
    return js_number(value)


def _javascript_numbers(raw: bytes) -> JsonChunks:
    """``raw`` in pieces, with the few number tokens where pydantic and JavaScript differ
    respelled, then the closing newline. UTF-8 continuation bytes are never ASCII, so the
    patterns match exactly where they would in the decoded text."""
    pieces: JsonChunks = []
    view = memoryview(raw)
    done = 0
    endings = heapq.merge(
        _WHOLE_FLOAT_ENDING.finditer(raw),
        _EXPONENT_ENDING.finditer(raw),
        key=lambda match: match.start(),
    )
    for match in endings:
        start = match.start()
        while start > done and raw[start - 1] in _TOKEN_CHARS:
            start -= 1
        token = raw[start : match.end()]
        if raw[start - 1 : start] != b" " or not _NUMBER.fullmatch(token):
            continue
        pieces.append(view[done:start])
        pieces.append(_as_js(token.decode("ascii")).encode("ascii"))
        done = match.end()
    pieces.append(view[done:] if done else raw)
    pieces.append(b"\n")
    return pieces


def _joined(pieces: JsonChunks) -> str:
    """The pieces as one text, for callers that want the document whole."""
    return b"".join(pieces).decode("utf-8")


def dump_js_json(model: BaseModel) -> str:
    """The model's wire form (aliases) as ``JSON.stringify(x, null, 2)`` plus a newline."""
    with gc_paused():
        try:
            raw = model.model_dump_json(by_alias=True, indent=2).encode("utf-8")
        except PydanticSerializationError:
            # Lone surrogates cannot be written as UTF-8: the slow writer escapes them as JS does.
            return js_pretty_json(model.model_dump(mode="json", by_alias=True))
        return _joined(_javascript_numbers(raw))


def dump_js_value(value: Any) -> str:
    """Plain JSON data (dicts, lists, strings, numbers) as ``JSON.stringify(x, null, 2)`` + newline.

    Byte-identical to ``js_pretty_json``: a property test compares the two on random documents.
    """
    if not isinstance(value, dict | list) or not value:
        return js_pretty_json(value)  # a bare scalar has no leading space for the fix-up to key on
    return _joined(dump_js_value_chunks(value))


def dump_js_value_chunks(value: Any) -> JsonChunks:
    """``dump_js_value(value)`` as UTF-8 pieces to write in order, for a report too big to copy."""
    if not isinstance(value, dict | list) or not value:
        return [js_pretty_json(value).encode("utf-8", "backslashreplace")]
    with gc_paused():
        try:
            raw = to_json(value, indent=2, inf_nan_mode="null")
        except PydanticSerializationError:
            return [js_pretty_json(value).encode("utf-8", "backslashreplace")]
        return _javascript_numbers(raw)
