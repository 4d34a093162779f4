"""JSON text exactly as a JavaScript ``JSON.stringify`` writes it, plus canonical (sorted) JSON.

The surface hash, the token estimate and the inspect report must be byte-identical to what
the upstream tool produces for the same surface, so numbers, escapes and key order follow the
JavaScript rules rather than Python's ``json`` defaults (``1.0`` is ``1``, ``1e-05`` is
``0.00001``, keys sort by UTF-16 code units, lone surrogates are escaped).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# The C-accelerated encoder when available; it escapes exactly what JSON.stringify escapes.
_encode_string = json.encoder.encode_basestring


def utf16_key(text: str) -> bytes:
    """Sort key that orders strings as JavaScript's ``<`` does (by UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def utf16_sorted(texts: Iterable[str]) -> list[str]:
    """``sorted(texts, key=utf16_key)``, without encoding anything when all of them are ASCII."""
    ordered = sorted(texts)
    if not "".join(ordered).isascii():
        ordered.sort(key=utf16_key)
    return ordered


def js_string(text: str) -> str:
    """A JSON string literal as ``JSON.stringify`` writes it (non-ASCII kept)."""
    encoded: str = _encode_string(text)
    if not encoded.isascii() and _LONE_SURROGATE.search(encoded):
        encoded = _LONE_SURROGATE.sub(_escape_surrogate, encoded)
    return encoded


def js_number(value: int | float) -> str:
    """A number as JavaScript prints it: shortest round-trip digits, JS exponent rules."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 2**53:
        # Exact below 2**53; above it JS prints the shortest digits padded with zeros, which
        # the general path below does.
        return str(int(value))
    sign = "-" if value < 0 else ""
    mantissa, _, exponent_text = repr(abs(value)).partition("e")
    exponent = int(exponent_text) if exponent_text else 0
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # Position of the decimal point relative to the start of `digits`.
    point = len(whole) + exponent - (len(whole + fraction) - len((whole + fraction).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    if -6 < point <= 21:
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    shown_exponent = point - 1
    head = digits[0] + (f".{digits[1:]}" if len(digits) > 1 else "")
    return f"{sign}{head}e{'+' if shown_exponent >= 0 else '-'}{abs(shown_exponent)}"


def canonical_json(value: Any) -> str:
    """Compact JSON with object keys sorted by UTF-16 code units: the hashing/counting form.

    The C encoder writes it when its spelling provably equals JavaScript's (no number token
    Python spells otherwise, key order unaffected by astral characters); anything else takes
    the exact pure-Python writer. A property test compares the two on random documents.
    """
    if isinstance(value, dict | list | tuple) and value:
        try:
            text = _encode_sorted(value)
        except (TypeError, ValueError):
            return _canonical_json_exact(value)
        if not text.isascii():
            if _ASTRAL.search(text) and _SURROGATE_OR_ABOVE.search(text):
                return _canonical_json_exact(value)  # code-point and UTF-16 key order may differ
            if _LONE_SURROGATE.search(text):
                text = _LONE_SURROGATE.sub(_escape_surrogate, text)
        if _UNLIKE_JS_NUMBER.search(text) is None:
            return text
    return _canonical_json_exact(value)


_encode_sorted = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
).encode
# A number token after "[", ":" or "," that Python spells unlike JavaScript: a whole float
# ("12.0", "-0.0") or an exponent ("1e-05"). Inside a string it is a false alarm that only
# sends the value to the exact writer.
_UNLIKE_JS_NUMBER = re.compile(r"[\[:,]-?\d+(?:\.0|(?:\.\d+)?e[-+]?\d+)(?=[,\]}])")
_SURROGATE_OR_ABOVE = re.compile("[\ud800-\uffff]")


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def _canonical_json_exact(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, bool | int | float):
        return js_number(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(_canonical_json_exact(item) for item in value) + "]"
    if isinstance(value, dict):
        parts = [
            f"{js_string(key)}:{_canonical_json_exact(value[key])}"
            for key in sorted(value, key=utf16_key)
        ]
        return "{" + ",".join(parts) + "}"
    return "null"


def _pretty(value: Any, level: int, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(js_string(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = _indent(level + 1)
        out.append("{\n")
        last = len(value) - 1
        for position, (key, child) in enumerate(value.items()):
            out.append(inner)
            out.append(js_string(key))
            out.append(": ")
            if type(child) is str:  # inlined: most leaves are strings
                out.append(js_string(child))
            else:
                _pretty(child, level + 1, out)
            out.append(",\n" if position < last else "\n")
        out.append(_indent(level))
        out.append("}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = _indent(level + 1)
        out.append("[\n")
        last = len(value) - 1
        for position, child in enumerate(value):
            out.append(inner)
            if type(child) is str:
                out.append(js_string(child))
            else:
                _pretty(child, level + 1, out)
            out.append(",\n" if position < last else "\n")
        out.append(_indent(level))
        out.append("]")
    else:
        out.append(_canonical_json_exact(value))


_INDENTS: list[str] = []


def _indent(level: int) -> str:
    while len(_INDENTS) <= level:
        _INDENTS.append("  " * len(_INDENTS))
    return _INDENTS[level]


def js_pretty_json(value: Any) -> str:
    """``JSON.stringify(value, null, 2)`` plus a trailing newline; insertion order is kept."""
    out: list[str] = []
    _pretty(value, 0, out)
    out.append("\n")
    return "".join(out)


# What JavaScript's `\s` and `String.prototype.trim` treat as whitespace (Python's differ).
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
JS_WHITESPACE_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units, so an emoji counts 2."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def as_utf16_units(text: str) -> str:
    """Spell astral characters as surrogate pairs so slicing matches JavaScript strings."""
    if text.isascii() or not _ASTRAL.search(text):
        return text

    def split(match: re.Match[str]) -> str:
        code = ord(match.group(0)) - 0x10000
        return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))

    return _ASTRAL.sub(split, text)


def js_fixed(value: float, digits: int) -> str:
    """``value.toFixed(digits)``: like ``f"{value:.{digits}f}"`` but exact ties round up."""
    shown = f"{value:.{digits}f}"
    scaled = value * 10**digits
    if abs(scaled - math.floor(scaled) - 0.5) < 1e-6:
        exact = Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
        shown = f"{exact:.{digits}f}"
    return shown
