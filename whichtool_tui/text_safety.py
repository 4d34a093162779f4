"""The one output boundary: every string that came from outside (a server, a provider, a task
file, a config) passes through here on its way to a person, whatever the output language.

* ``sanitize_text``: C0 and C1 controls, DEL, bidi controls, line/paragraph separators,
  zero-width characters and Unicode tags shown as visible escapes (``\\x1b``, ``\\u202e``).
  An OSC, CSI or DCS sequence starts with ESC (or the C1 ``\\x9b``/``\\x9d``/``\\x90``), so it
  reaches the output as inert text: ``\\x1b]52;c;...\\x07``.
* ``ascii_safe``: the same, then anything non-ASCII escaped (plain terminal tables).
* ``markdown_cell`` / ``markdown_code`` / ``markdown_text``: Markdown that renders the text as
  text (no raw HTML, no table pipes, no code-span breakouts).
* ``html_text`` and ``xml_escape``: HTML and XML (JUnit, SARIF) character data and attributes.
* ``redact_message``: secrets and machine paths masked (``redact.py``), then made visible: the
  one function for errors, toasts, titles and receipts' command lines.

JSON outputs keep exact data and do not come here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from whichtool_tui.redact import redact_paths, redact_secret_text, redact_url

# Controls, DEL, bidi marks, line/paragraph separators, zero-width characters and Unicode tags
# (invisible text a model reads and a person does not see).
_INVISIBLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
# Non-characters XML 1.0 cannot carry at all, even escaped (controls are escaped first).
_XML_INVALID = re.compile("[\ufffe\uffff]")
_URL_IN_TEXT = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>`]+")
# Markdown characters that start a link or image, or end a table cell, anywhere in a line.
_MARKDOWN_INLINE = re.compile(r"([\\\[\]|])")


def _escape_one(match: re.Match[str]) -> str:
    char = match.group(0)
    if char == "\n":
        return "\\n"
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def sanitize_text(text: str) -> str:
    """Escape controls, DEL, bidi marks, separators, zero-width characters and Unicode tags
    as visible sequences."""
    return _INVISIBLE.sub(_escape_one, text)


def sanitize_lines(text: str) -> str:
    """``sanitize_text`` for several lines: the line breaks stay, everything else is escaped."""
    return "\n".join(sanitize_text(line) for line in text.split("\n"))


def strip_controls(text: str) -> str:
    """Drop what sanitize_text escapes (whitespace ones become a space): for names that must
    read the same in every viewer, such as JUnit test names."""
    return _INVISIBLE.sub(lambda match: " " if match.group(0) in "\t\n\r" else "", text)


def has_invisible(text: str) -> bool:
    """True when ``text`` holds a character ``sanitize_text`` would escape."""
    return _INVISIBLE.search(text) is not None


def ascii_safe(text: str) -> str:
    """Controls escaped as visible sequences, then anything non-ASCII as a backslash escape."""
    if text.isascii() and text.isprintable():  # nothing to escape: most text, quickly
        return text
    return sanitize_text(text).encode("ascii", "backslashreplace").decode("ascii")


def xml_escape(text: str) -> str:
    """Escape text for an XML attribute or element: controls and bidi shown as visible escapes
    (line breaks kept), the two non-characters XML cannot hold replaced, markup escaped."""
    cleaned = _XML_INVALID.sub("\ufffd", sanitize_lines(text))
    return (
        cleaned.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def html_text(text: str) -> str:
    """Text for HTML element content or a quoted attribute: visible controls, markup escaped."""
    return (
        sanitize_text(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )


def markdown_cell(text: str) -> str:
    """Make text safe inside a Markdown table cell: no pipes, no raw HTML, one line."""
    flat = sanitize_text(text.replace("\r\n", " ").replace("\n", " "))
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def markdown_code(text: str) -> str:
    """Inline code that survives backticks and pipes inside the text."""
    flat = sanitize_text(text).replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def markdown_text(text: str) -> str:
    """One line of Markdown prose: no raw HTML, no link or image (no tracking pixel), no table
    pipe, no heading or list marker at its start. Backticks and emphasis are left to render,
    since our own wording quotes names in backticks and neither can fetch or run anything."""
    flat = sanitize_text(text.replace("\r\n", " ").replace("\n", " "))
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = _MARKDOWN_INLINE.sub(r"\\\1", flat)
    if escaped[:1] in ("#", "+", "-", "=", ">") or re.match(r"\d+[.)]", escaped):
        escaped = "\\" + escaped
    return escaped


def json_for_display(text: str) -> str:
    """JSON text (from any serializer) with every invisible character inside its strings
    written as a ``\\uXXXX`` escape: the same data, nothing raw for a viewer to act on."""
    return _INVISIBLE.sub(_json_escape_one, text)


def json_for_stream(text: str, stream: TextIO) -> str:
    """JSON about to be printed: on a terminal, ``json_for_display`` (a bidi or C1 character
    inside a string cannot act on the screen); into a pipe or file, the bytes unchanged."""
    isatty = getattr(stream, "isatty", None)
    return json_for_display(text) if isatty is not None and isatty() else text


def _json_escape_one(match: re.Match[str]) -> str:
    char = match.group(0)
    if char == "\n":  # a line break between values, never inside a JSON string
        return char
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def redact_message(text: str) -> str:
    """Prepare any message for output (stderr, toasts, titles, receipts): secrets after
    secret-named flags, in ``key=value`` / ``key: value`` pairs and key-shaped words masked,
    URLs redacted, paths shortened, controls escaped."""
    text = redact_secret_text(text)
    text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    return sanitize_text(redact_paths(text))


@dataclass(frozen=True)
class Escapes:
    """How one output language shows a name and a line of outside text, for renderers that
    share one wording between the terminal and Markdown."""

    code: Callable[[str], str]
    text: Callable[[str], str]


MARKDOWN = Escapes(markdown_code, markdown_text)
TERMINAL = Escapes(sanitize_text, sanitize_text)
