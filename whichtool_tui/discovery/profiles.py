"""Search profiles: how each host's tool search indexes and ranks tools, read from data files.

One JSON file per profile in ``search_profiles/`` says which document fields the host indexes,
its tokeniser, its ranker and parameters, how many tools it loads (k), whether an exact tool
name wins, and each fact's source and the date it was verified (or why it is unverified).
These are search profiles, not the host compatibility profiles of inspect.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.surface.naming import name_tokens

FieldName = Literal[
    "name",
    "nameSpaced",
    "nameParts",
    "title",
    "annotationsTitle",
    "description",
    "parameterNames",
    "parameterDescriptions",
    "schemaText",
]
Ranker = Literal["bm25s", "bm25", "regex", "keyword", "semantic"]
ExactName = Literal["raw-name-term", "select", "no-guarantee"]
# Generic searches first (the default set), then the host profiles.
PROFILE_ORDER = (
    "bm25",
    "regex",
    "semantic",
    "anthropic-bm25",
    "anthropic-regex",
    "claude-code",
    "codex",
    "pi",
    "fastmcp",
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Bm25Parameters(_Model):
    """Okapi/Lucene BM25 constants and whether repeated query words count again."""

    k1: float
    b: float
    query_terms: Literal["distinct", "repeated"] = Field(alias="queryTerms")


class ProfileFact(_Model):
    """One fact about the host, where it comes from, and when it was checked."""

    fact: str
    source: str
    verified: str


class SearchProfile(_Model):
    """How one host's tool search sees a surface."""

    name: str
    host: str
    ranker: Ranker
    fields: list[FieldName]
    tokenizer: str
    bm25: Bm25Parameters | None
    top_k: int = Field(alias="topK")
    exact_name: ExactName = Field(alias="exactName")
    max_pattern_length: int | None = Field(alias="maxPatternLength")
    facts: list[ProfileFact]

    @property
    def unverified(self) -> list[str]:
        """The facts this profile could not verify, with why."""
        return [fact.fact for fact in self.facts if fact.verified.startswith("unverified")]

    def method(self) -> str:
        """One line for reports: host, ranker, fields, k and exact-name behaviour."""
        ranker: str = self.ranker
        if self.bm25 is not None:
            ranker = f"{ranker} (k1 {self.bm25.k1:g}, b {self.bm25.b:g})"
        exact = {
            "raw-name-term": "the raw name is a term",
            "select": "an exact name in the prompt wins (select:)",
            "no-guarantee": "exact names not guaranteed first",
        }[self.exact_name]
        return (
            f"{self.host}: {ranker} over {', '.join(dict.fromkeys(self.fields))}; "
            f"tokeniser {self.tokenizer}; k {self.top_k}; {exact}"
        )


def _field_texts(document: ToolDocument, field: FieldName) -> tuple[str, ...]:
    if field == "name":
        return (document.name,)
    if field == "nameSpaced":
        return (document.name.replace("_", " "),)
    if field == "nameParts":
        return (" ".join(name_tokens(document.name)),)
    if field == "title":
        return (document.title,) if document.title else ()
    if field == "annotationsTitle":
        return document.titles[1:] if document.title else document.titles
    if field == "description":
        return (document.description,)
    if field == "parameterNames":
        return document.parameter_names
    if field == "parameterDescriptions":
        return document.parameter_descriptions
    return document.schema_parts


def profile_text(profile: SearchProfile, document: ToolDocument) -> str:
    """The text a profile indexes for one tool: its fields in order, space-joined."""
    parts = [text for field in profile.fields for text in _field_texts(document, field)]
    return " ".join(part.strip() for part in parts if part.strip())


@cache
def load_profiles() -> dict[str, SearchProfile]:
    """Every bundled search profile by name, in ``PROFILE_ORDER``."""
    folder = resources.files("whichtool_tui.discovery").joinpath("search_profiles")
    found: dict[str, SearchProfile] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            profile = SearchProfile.model_validate(json.loads(entry.read_text("utf-8")))
            found[profile.name] = profile
    return {name: found[name] for name in PROFILE_ORDER if name in found}


def profile_named(name: str) -> SearchProfile:
    """The bundled profile with this name (callers check the name first)."""
    return load_profiles()[name]
