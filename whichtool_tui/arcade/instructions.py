"""The documented rule set for instruction-style poisoning: imperatives aimed at the model.

Each rule is a regular expression over text a server wrote (a description, a parameter's
description, a title, a log line); a hit is reported with its rule, where it sat and the matched
span, shown escaped. The rules follow the published attacks: Invariant Labs' tool-poisoning
notice (2025-04-01: an ``<IMPORTANT>`` block telling the model to read ``~/.cursor/mcp.json`` and
``~/.ssh/id_rsa`` and not to mention it) and the MCP specification's warning that tool
descriptions are untrusted. ``cross_tool`` needs the menu: it fires only on an imperative naming
another listed tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.arcade.hidden_text import visible

RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "hidden_block",
        "a tag-delimited block addressed to the model",
        re.compile(
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|critical)\s*>",
            re.IGNORECASE,
        ),
    ),
    (
        "conceal",
        "asks the model to keep something from the user",
        re.compile(
            r"\b(do not|don't|never|without)\s+(tell(ing)?|mention(ing)?|inform(ing)?|"
            r"reveal(ing)?|show(ing)?|notify(ing)?|alert(ing)?)\b[^.\n]{0,40}\buser\b"
            r"|\bkeep (this|it) (secret|hidden|between us)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "secret_path",
        "names a credential or configuration file",
        re.compile(
            r"~/\.ssh\b|\bid_(rsa|ed25519|ecdsa)\b|~/\.aws\b|\.aws/credentials\b|"
            r"~/\.cursor/mcp\.json|\bmcp\.json\b|/etc/(passwd|shadow)\b|~/\.netrc\b|"
            r"~/\.config/gcloud\b|(^|[\s'\"`])\.env\b",
            re.IGNORECASE,
        ),
    ),
    (
        "override",
        "tells the model to disregard its instructions",
        re.compile(
            r"\bignore (all |any )?(previous|prior|above|earlier|other) "
            r"(instructions|rules|directions)\b|\bdisregard (the |all )?(previous|above|system)\b",
            re.IGNORECASE,
        ),
    ),
)
CROSS_TOOL = "cross_tool"
_IMPERATIVE = r"\b(also call|call|invoke|use|run|execute|trigger)\s+(the\s+)?[`'\"]?"


@dataclass(frozen=True)
class InstructionHit:
    """One rule match: where it sat, which rule, and the matched span (escaped when shown)."""

    where: str
    rule: str
    start: int
    end: int
    span: str

    def describe(self) -> str:
        """``where [start:end] rule: "span"`` with the span shown escaped."""
        where = visible(self.where)
        return f'{where} [{self.start}:{self.end}] {self.rule}: "{visible(self.span)}"'


def scan_text(where: str, text: str, other_tools: Iterable[str] = ()) -> list[InstructionHit]:
    """Every rule hit in one text; ``other_tools`` are the listed names ``cross_tool`` looks for."""
    hits = [
        InstructionHit(where, rule, m.start(), m.end(), m.group(0))
        for rule, _about, pattern in RULES
        for m in pattern.finditer(text)
    ]
    names = sorted({n for n in other_tools if n}, key=len, reverse=True)
    if names:
        alternatives = "|".join(re.escape(n) for n in names)
        pattern = re.compile(_IMPERATIVE + rf"({alternatives})(?![A-Za-z0-9_-])", re.IGNORECASE)
        hits += [
            InstructionHit(where, CROSS_TOOL, m.start(), m.end(), m.group(0))
            for m in pattern.finditer(text)
        ]
    return sorted(hits, key=lambda h: (h.start, h.rule))


def _schema_texts(schema: Any, path: str) -> Iterator[tuple[str, str]]:
    """(path, description or title) of every described node of a schema, iteratively."""
    stack = [(schema, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for key in ("description", "title"):
                if isinstance(node.get(key), str):
                    yield f"{where}.{key}", node[key]
            for key, child in node.items():
                if isinstance(child, dict | list):
                    stack.append((child, f"{where}.{key}"))
        elif isinstance(node, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(node))


def presented_texts(raw_tool: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) of everything a listed tool shows a model: description, titles, schema."""
    name = str(raw_tool.get("name", "?"))
    for key in ("description", "title"):
        if isinstance(raw_tool.get(key), str):
            yield f"{name}.{key}", raw_tool[key]
    annotations = raw_tool.get("annotations")
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        yield f"{name}.annotations.title", annotations["title"]
    yield from _schema_texts(raw_tool.get("inputSchema"), f"{name}.inputSchema")


def scan_menu(raw_tools: Sequence[dict[str, Any]]) -> list[InstructionHit]:
    """Every rule hit over a listed menu; ``cross_tool`` counts only names other than the
    tool's own."""
    names = [str(t.get("name")) for t in raw_tools if isinstance(t.get("name"), str)]
    hits: list[InstructionHit] = []
    for tool in raw_tools:
        own = tool.get("name")
        others = [n for n in names if n != own]
        for where, text in presented_texts(tool):
            hits += scan_text(where, text, others)
    return hits
