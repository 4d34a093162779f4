"""The two-step protocol of a deferring host: the model searches, then calls what was found.

Step 1 offers only a search tool (variant ``names`` also lists the bare tool names in its
description, as hosts list deferred tools, and accepts ``select:NAME[,NAME]`` to load tools by
name, as Claude Code's tool search does). The query is answered by the chosen retriever; step 2
offers the top ``k`` tools it returned, in rank order, with the same single user message. A
baseline provider has no query of its own: it searches with the prompt verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from whichtool_tui.discovery.lexical import RegexRetriever
from whichtool_tui.discovery.ranking import Ranking, Retriever
from whichtool_tui.evaluation.report_model import Call
from whichtool_tui.providers.base import ToolSpec

SEARCH_TOOL_NAME = "tool_search"
SELECT_PREFIX = "select:"
DiscoveryVariant = Literal["search", "names"]
DISCOVERY_VARIANTS: tuple[DiscoveryVariant, ...] = ("search", "names")

_QUERY_HELP = {
    "bm25": "keywords describing the capability you need",
    "semantic": "a short description of the capability you need",
    "regex": "a regular expression (case-insensitive) matched against tool names, "
    "descriptions and parameter names, e.g. 'weather|forecast'",
    "keyword": "keywords describing the capability you need; or 'select:NAME' "
    "(comma-separated) to load tools by name",
}


def _query_help(retriever: str) -> str:
    """The query parameter's help for a generic search or a host profile's ranker."""
    if retriever in _QUERY_HELP:
        return _QUERY_HELP[retriever]
    from whichtool_tui.discovery.profiles import profile_named

    profile = profile_named(retriever)
    if profile.ranker == "regex":
        return (
            f"{_QUERY_HELP['regex']}; at most {profile.max_pattern_length} characters"
            if profile.max_pattern_length
            else _QUERY_HELP["regex"]
        )
    return _QUERY_HELP.get(profile.ranker, _QUERY_HELP["bm25"])


def search_tool(
    retriever: str, top_k: int, variant: DiscoveryVariant, names: Sequence[str]
) -> ToolSpec:
    """The only tool step 1 offers: search the deferred tools; the found ones become callable."""
    description = (
        f"Search the available tools. Returns up to {top_k} tools whose definitions match the "
        "query; they become callable in your next step. Call this before any other tool."
    )
    query_help = _query_help(retriever)
    if variant == "names":
        description += f" Deferred tools: {', '.join(names)}."
        query_help += f"; or '{SELECT_PREFIX}NAME' (comma-separated) to load tools by name"
    return ToolSpec(
        name=SEARCH_TOOL_NAME,
        description=description,
        input_schema={
            "type": "object",
            "properties": {"query": {"type": "string", "description": query_help}},
            "required": ["query"],
        },
    )


@dataclass(frozen=True)
class SearchCall:
    """What the model asked the search tool (None: it did not call it with a text query)."""

    searched: bool
    query: str | None


def read_search_call(calls: Sequence[Call]) -> SearchCall:
    """The first call to the search tool and its ``query`` argument, if any."""
    for call in calls:
        if call.name != SEARCH_TOOL_NAME:
            continue
        arguments: Any = call.arguments
        query = arguments.get("query") if isinstance(arguments, Mapping) else None
        return SearchCall(searched=True, query=query if isinstance(query, str) else None)
    return SearchCall(searched=False, query=None)


def answer_query(
    query: str, retriever: Retriever, variant: DiscoveryVariant, names: Sequence[str]
) -> Ranking:
    """The host's answer to a search query: ``select:`` by name, a pattern, or a text search."""
    stripped = query.strip()
    if variant == "names" and stripped.lower().startswith(SELECT_PREFIX):
        from whichtool_tui.discovery.ranking import Hit

        wanted = [part.strip() for part in stripped[len(SELECT_PREFIX) :].split(",")]
        known = set(names)
        chosen = list(dict.fromkeys(name for name in wanted if name in known))
        return Ranking("select", query, tuple(Hit(name, 1.0) for name in chosen), bool(chosen))
    from whichtool_tui.discovery.host_search import ClaudeCodeRetriever, ProfileRegexRetriever

    if isinstance(retriever, ClaudeCodeRetriever):
        return retriever.search_query(stripped)
    if isinstance(retriever, RegexRetriever | ProfileRegexRetriever):
        return retriever.search_pattern(stripped, query)
    return retriever.search(stripped)
