"""What a host's tool search indexes for one tool: name, title, description, parameter names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.discovery.text import content_words, index_terms, text_terms
from whichtool_tui.surface.naming import name_tokens

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


@dataclass(frozen=True)
class ToolDocument:
    """One tool as its search text: the parts kept apart for findings, joined for searching."""

    name: str
    served_index: int
    title: str | None
    description: str
    parameter_names: tuple[str, ...]

    @property
    def first_sentence(self) -> str:
        """The description up to its first sentence end or line break: what listings show."""
        text = self.description.strip()
        match = _SENTENCE_END.search(text)
        return text if match is None else text[: match.end()].strip()

    @property
    def search_text(self) -> str:
        """Name (as written and split), title, description and parameter names, one text."""
        parts = [self.name, " ".join(name_tokens(self.name))]
        if self.title:
            parts.append(self.title)
        parts.append(self.description)
        parts.extend(self.parameter_names)
        return "\n".join(part for part in parts if part)

    @property
    def terms(self) -> tuple[str, ...]:
        """BM25 tokens of the search text (the raw name is split, so it is not counted twice)."""
        words = list(name_tokens(self.name))
        if self.title:
            words += content_words(self.title)
        words += content_words(self.description)
        for parameter in self.parameter_names:
            words += name_tokens(parameter)
        return tuple(index_terms(words))

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


def build_document(
    name: str,
    description: str | None,
    input_schema: Mapping[str, Any],
    served_index: int,
    title: str | None = None,
) -> ToolDocument:
    """One tool's document from the fields every surface model carries."""
    return ToolDocument(
        name=name,
        served_index=served_index,
        title=title,
        description=description or "",
        parameter_names=parameter_names(input_schema),
    )


def documents_of_specs(tools: Sequence[Any]) -> tuple[ToolDocument, ...]:
    """Documents for provider ToolSpecs (name, description, input_schema) in served order."""
    return tuple(
        build_document(tool.name, tool.description, tool.input_schema, index)
        for index, tool in enumerate(tools)
    )
