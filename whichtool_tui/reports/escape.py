"""Escaping untrusted text (tool names, prompts, model replies) for each output language."""

from __future__ import annotations

import re

from whichtool_tui.redact import sanitize_text

# Characters XML 1.0 cannot carry at all, even escaped.
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_escape(text: str) -> str:
    """Escape text for an XML attribute or element, replacing characters XML cannot hold."""
    cleaned = _XML_INVALID.sub("\ufffd", text)
    return (
        cleaned.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def markdown_cell(text: str) -> str:
    """Make text safe inside a Markdown table cell: no pipes, no raw HTML, one line."""
    flat = sanitize_text(text.replace("\r\n", " ").replace("\n", " "))
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def markdown_code(text: str) -> str:
    """Inline code that survives backticks and pipes inside the text."""
    flat = sanitize_text(text).replace("|", "\\|")
    fence = "``" if "`" in flat else "`"
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"
