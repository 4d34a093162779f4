"""What a host's tool search can index for one tool, built once for inspect and for runs.

One builder (``build_document``) serves ``inspect --tasks`` and ``run --discovery deferred``, so
both rank the same text: name, title, ``annotations.title`` (where GitHub's server and FastMCP
put titles), description, parameter names, top-level parameter descriptions and the recursive
schema text some hosts index. Each search profile picks the fields it reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.discovery.text import content_words, index_terms, name_index_terms, text_terms
from whichtool_tui.surface.naming import name_tokens

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_VARIANT_KEYS = ("anyOf", "oneOf", "allOf")


@dataclass(frozen=True)
class ToolDocument:
    """One tool as its search text: the parts kept apart for findings, joined for searching."""

    name: str
    served_index: int
    title: str | None
    description: str
    parameter_names: tuple[str, ...]
    annotations_title: str | None = None
    parameter_descriptions: tuple[str, ...] = ()
    # Schema descriptions and property names, depth first (items and variants included).
    schema_parts: tuple[str, ...] = ()

    @property
    def titles(self) -> tuple[str, ...]:
        """The top-level title, then ``annotations.title`` when it says something else."""
        found = [self.title] if self.title else []
        if self.annotations_title and self.annotations_title != self.title:
            found.append(self.annotations_title)
        return tuple(found)

    @property
    def first_sentence(self) -> str:
        """The description up to its first sentence end or line break: what listings show."""
        text = self.description.strip()
        match = _SENTENCE_END.search(text)
        return text if match is None else text[: match.end()].strip()

    @property
    def search_text(self) -> str:
        """Name (as written and split), titles, description and parameter names, one text."""
        parts = [self.name, " ".join(name_tokens(self.name)), *self.titles, self.description]
        parts.extend(self.parameter_names)
        return "\n".join(part for part in parts if part)

    @property
    def terms(self) -> tuple[str, ...]:
        """Generic BM25 tokens: the raw name, every name part (short ones too), then the rest."""
        words: list[str] = []
        for title in self.titles:
            words += content_words(title)
        words += content_words(self.description)
        for parameter in self.parameter_names:
            words += name_tokens(parameter)
        return (*name_index_terms(self.name), *index_terms(words))

    @property
    def name_terms(self) -> frozenset[str]:
        """Stemmed content terms of the name alone."""
        return frozenset(index_terms(name_tokens(self.name)))

    @property
    def term_set(self) -> frozenset[str]:
        """Distinct terms of the whole search text."""
        return frozenset(self.terms)

    @property
    def first_sentence_terms(self) -> frozenset[str]:
        """Distinct terms of the name and the first sentence: what a short listing shows."""
        return self.name_terms | frozenset(text_terms(self.first_sentence))


def parameter_names(input_schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Top-level property names of an input schema, in schema order."""
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return ()
    return tuple(str(name) for name in properties)


def parameter_descriptions(input_schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Top-level property descriptions (strings only), in schema order."""
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return ()
    return tuple(
        value["description"]
        for value in properties.values()
        if isinstance(value, Mapping) and isinstance(value.get("description"), str)
    )


def schema_parts(schema: Any, depth: int = 0) -> list[str]:
    """Descriptions and property names through properties, items and variants (depth-bounded)."""
    if not isinstance(schema, Mapping) or depth > 32:
        return []
    parts: list[str] = []
    if isinstance(schema.get("description"), str):
        parts.append(schema["description"])
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name, value in properties.items():
            parts.append(str(name))
            parts += schema_parts(value, depth + 1)
    parts += schema_parts(schema.get("items"), depth + 1)
    for key in _VARIANT_KEYS:
        variants = schema.get(key)
        if isinstance(variants, list):
            for variant in variants:
                parts += schema_parts(variant, depth + 1)
    return parts


def _annotations_title(annotations: Mapping[str, Any] | None) -> str | None:
    title = annotations.get("title") if isinstance(annotations, Mapping) else None
    return title if isinstance(title, str) and title.strip() else None


def build_document(
    name: str,
    description: str | None,
    input_schema: Mapping[str, Any],
    served_index: int,
    title: str | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> ToolDocument:
    """The one document builder: every field any search profile indexes."""
    return ToolDocument(
        name=name,
        served_index=served_index,
        title=title if title and title.strip() else None,
        description=description or "",
        parameter_names=parameter_names(input_schema),
        annotations_title=_annotations_title(annotations),
        parameter_descriptions=parameter_descriptions(input_schema),
        schema_parts=tuple(part for part in schema_parts(input_schema) if part.strip()),
    )


def surface_documents(tools: Sequence[Any]) -> tuple[ToolDocument, ...]:
    """Documents for normalised surface tools, in served order (resolved schemas, titles)."""
    ordered = sorted(tools, key=lambda tool: tool.served_index)
    return tuple(
        build_document(
            tool.name,
            tool.description,
            tool.input_schema_resolved,
            tool.served_index,
            tool.title,
            tool.annotations,
        )
        for tool in ordered
    )


def documents_of_specs(tools: Sequence[Any]) -> tuple[ToolDocument, ...]:
    """Documents for provider ToolSpecs (name, description, input_schema) in served order."""
    return tuple(
        build_document(tool.name, tool.description, tool.input_schema, index)
        for index, tool in enumerate(tools)
    )
