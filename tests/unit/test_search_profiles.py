"""Host search profiles: the data files, the one document builder, each host's tokeniser and
BM25 checked by hand, golden rankings per profile on a fixed surface, and exact names."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPO as ROOT
from whichtool_tui.discovery.documents import build_document, surface_documents
from whichtool_tui.discovery.host_search import (
    ClaudeCodeRetriever,
    ProfileBm25Retriever,
    ProfileRegexRetriever,
    bounded_pattern,
)
from whichtool_tui.discovery.profiles import PROFILE_ORDER, load_profiles, profile_text
from whichtool_tui.discovery.ranking import HOST_RETRIEVERS
from whichtool_tui.discovery.review import build_retriever
from whichtool_tui.discovery.text import names_in_text
from whichtool_tui.discovery.tokenizers import codex_tokens, fastmcp_tokens, pi_tokens
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.tasks.load import load_task_set

FIXTURES = ROOT / "tests" / "fixtures" / "search_profiles"
GOLDEN = FIXTURES / "rankings.golden.json"  # not under tests/golden: that holds schema files
LEXICAL = [name for name in PROFILE_ORDER if name != "semantic"]


def _surface_documents() -> Any:
    raw = json.loads((FIXTURES / "surface.json").read_text())["tools"]
    return surface_documents(normalize_surface(raw).tools)


def _prompts() -> dict[str, str]:
    tasks = load_task_set(FIXTURES / "surface.tasks.yaml").task_set.tasks
    return {task.id: task.prompt for task in tasks}


def test_every_profile_states_its_fields_tokeniser_k_exact_names_and_sources() -> None:
    profiles = load_profiles()
    assert tuple(profiles) == PROFILE_ORDER
    assert set(HOST_RETRIEVERS) == {
        "anthropic-bm25",
        "anthropic-regex",
        "claude-code",
        "codex",
        "pi",
        "fastmcp",
    }
    for profile in profiles.values():
        assert profile.fields and profile.tokenizer and profile.top_k >= 1
        assert profile.facts
        for fact in profile.facts:
            assert fact.source
            assert fact.verified == "2026-12-03" or fact.verified.startswith("unverified: ")
    assert profiles["anthropic-regex"].max_pattern_length == 200
    assert profiles["claude-code"].exact_name == "select"
    assert (profiles["codex"].top_k, profiles["pi"].top_k, profiles["fastmcp"].top_k) == (8, 8, 5)


def test_one_builder_keeps_titles_annotation_titles_and_parameter_text() -> None:
    docs = {doc.name: doc for doc in _surface_documents()}
    assert docs["ui_get"].annotations_title == "Widget state"
    assert docs["ui_get"].titles == ("Widget state",)
    assert "widget" in docs["ui_get"].terms and "state" in docs["ui_get"].terms
    assert docs["list_branches"].titles == ("Branch list",)
    assert docs["list_branches"].parameter_descriptions[0] == "Account that owns the repository."
    # Recursive schema text reaches array items and anyOf variants.
    assert "A triage label such as urgent." in docs["create_ticket_59"].schema_parts
    assert {"latitude", "longitude", "A city or postcode."} <= set(docs["getForecast"].schema_parts)
    # The generic profile keeps the raw name and the short and numeric name parts.
    assert docs["ui_get"].terms[:3] == ("ui_get", "ui", "get")
    assert docs["create_ticket_59"].terms[:4] == ("create_ticket_59", "create", "ticket", "59")


def test_profile_texts_follow_each_hosts_fields() -> None:
    profiles = load_profiles()
    doc = build_document(
        "list_branches",
        "List branches.",
        {"type": "object", "properties": {"repo": {"type": "string", "description": "Repo."}}},
        0,
        title="Branch list",
    )
    assert profile_text(profiles["fastmcp"], doc) == "list_branches List branches. repo Repo."
    assert (
        profile_text(profiles["pi"], doc) == "list_branches list branches List branches. repo Repo."
    )
    assert profile_text(profiles["codex"], doc) == (
        "list_branches list branches list_branches list branches List branches. repo Repo."
    )
    assert "Branch list" in profile_text(profiles["bm25"], doc)
    assert "Branch list" not in profile_text(profiles["anthropic-bm25"], doc)


def test_tokenisers_as_their_sources_write_them() -> None:
    assert fastmcp_tokens("getForecast for a UI_get") == ["getforecast", "for", "ui", "get"]
    assert pi_tokens("getForecast of the branches and boxes") == [
        "get",
        "forecast",
        "branch",
        "box",
    ]
    assert pi_tokens("class pages") == ["class", "page"]
    assert codex_tokens("Use list_branches on the repositories") == ["list_branch", "repositori"]


def _okapi(query: list[str], docs: list[list[str]], k1: float, b: float) -> list[float]:
    """An independent Okapi BM25 with the ln(1 + ...) idf, for these tests only."""
    average = sum(len(doc) for doc in docs) / len(docs)
    scores = []
    for doc in docs:
        total = 0.0
        for term in query:
            frequency = sum(1 for other in docs if term in other)
            if frequency:
                idf = math.log(1 + (len(docs) - frequency + 0.5) / (frequency + 0.5))
                tf = doc.count(term)
                total += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / average))
        scores.append(total)
    return scores


@pytest.mark.parametrize("name", ["anthropic-bm25", "codex", "pi", "fastmcp"])
def test_host_bm25_equals_an_independent_computation(name: str) -> None:
    profile = load_profiles()[name]
    assert profile.bm25 is not None
    documents = _surface_documents()
    retriever = ProfileBm25Retriever(profile, documents)
    tokens = build_retriever(documents, name, 0.3)._tokens  # type: ignore[attr-defined]
    corpus = [tokens(profile_text(profile, doc)) for doc in documents]
    for prompt in _prompts().values():
        query = tokens(prompt)
        if profile.bm25.query_terms == "distinct":
            query = list(dict.fromkeys(query))
        expected = _okapi(query, corpus, profile.bm25.k1, profile.bm25.b)
        assert retriever.scores(prompt) == pytest.approx(expected, rel=1e-12)


def test_fastmcp_counts_repeated_query_words_and_pi_does_not() -> None:
    documents = _surface_documents()
    profiles = load_profiles()
    fastmcp = ProfileBm25Retriever(profiles["fastmcp"], documents)
    pi = ProfileBm25Retriever(profiles["pi"], documents)
    assert fastmcp.scores("branch branch")[6] == pytest.approx(2 * fastmcp.scores("branch")[6])
    assert pi.scores("branch branch") == pi.scores("branch")


def test_anthropic_regex_keeps_patterns_within_200_characters() -> None:
    profile = load_profiles()["anthropic-regex"]
    retriever = ProfileRegexRetriever(profile, _surface_documents())
    long_prompt = " ".join(f"word{index:03d}alpha" for index in range(40)) + " branches"
    pattern = bounded_pattern(long_prompt, 200)
    assert 0 < len(pattern) <= 200 and "branch" not in pattern  # whole stems, cut at the limit
    assert retriever.search_pattern("branch|" + "x" * 200).hits == ()  # the API's limit
    assert retriever.search_pattern("branch").top(2) == ("list_branches", "delete_branch")
    assert retriever.search_pattern("(unclosed").hits == ()


def test_claude_code_select_and_exact_names_win() -> None:
    profile = load_profiles()["claude-code"]
    documents = _surface_documents()
    retriever = ClaudeCodeRetriever(profile, documents)
    assert retriever.search_query("select:ui_get,nope,ui_get").top(5) == ("ui_get",)
    assert retriever.search("Call create_ticket_59 about the login").top(1) == ("create_ticket_59",)
    # '+word' requires the word in a name part: only branch tools remain.
    assert set(retriever.search_query("+branch delete").top(5)) == {
        "delete_branch",
        "list_branches",
    }
    assert retriever.search_query("+branch delete").top(1) == ("delete_branch",)
    assert names_in_text("run getforecast, then UI_GET", [d.name for d in documents]) == [
        "getForecast",
        "ui_get",
    ]


def _golden_rankings() -> dict[str, Any]:
    documents = _surface_documents()
    profiles = load_profiles()
    golden: dict[str, Any] = {}
    for name in LEXICAL:
        retriever = build_retriever(documents, name, 0.3)
        golden[name] = {
            "documents": {doc.name: profile_text(profiles[name], doc) for doc in documents},
            "rankings": {
                task_id: list(retriever.search(prompt).top(8))
                for task_id, prompt in _prompts().items()
            },
        }
    return golden


def test_golden_rankings_per_profile_on_a_fixed_surface() -> None:
    actual = _golden_rankings()
    if os.environ.get("UPDATE_GOLDENS") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n")
    assert actual == json.loads(Path(GOLDEN).read_text())


def test_exact_names_with_short_and_numeric_parts_come_first_under_generic_bm25() -> None:
    from whichtool_tui.discovery.lexical import Bm25Retriever

    schema = {"type": "object", "properties": {"summary": {"type": "string"}}}
    documents = [
        build_document(f"create_ticket_{i}", f"Open a support ticket in queue {i}.", schema, i)
        for i in range(1, 61)
    ]
    documents += [
        build_document("get_ui_state", "Get the UI state; get it fast.", schema, 61),
        build_document("ui_get", "Fetch a widget.", schema, 62),
    ]
    bm25 = Bm25Retriever(documents)
    assert bm25.search("Call create_ticket_59 about the broken login").top(1) == (
        "create_ticket_59",
    )
    assert bm25.search("invoke ui_get for the sales widget").top(1) == ("ui_get",)


def test_summary_reports_exact_name_recall_and_the_found_at_k_curve() -> None:
    from whichtool_tui.discovery.deferral import predict_deferral
    from whichtool_tui.discovery.findability import assess_findability
    from whichtool_tui.evaluation.plan import TaskSpec

    documents = _surface_documents()
    tasks = load_task_set(FIXTURES / "surface.tasks.yaml").task_set.tasks
    specs = [TaskSpec(id=t.id, prompt=t.prompt, expected=t.expected) for t in tasks]
    names = ["bm25", "codex", "claude-code"]
    section = assess_findability(
        documents,
        specs,
        [build_retriever(documents, name, 0.3) for name in names],
        predict_deferral(1000, len(documents)),
        task_source="fixture",
    )
    by_name = {item.retriever: item for item in section.summary}
    assert section.curve_ks == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {item.exact_name_tasks for item in section.summary} == {4}  # four prompts name tools
    assert by_name["claude-code"].exact_name_at1 == 1.0  # select: puts them first
    assert by_name["codex"].k == 8 and by_name["bm25"].k == 5
    for item in section.summary:
        assert item.curve == sorted(item.curve) and len(item.curve) == 8
        assert item.found_at_k == item.curve[item.k - 1]
        assert len(item.missed) == round((1 - item.found_at_k) * 10)


def test_each_host_search_is_judged_at_its_own_k() -> None:
    from whichtool_tui.discovery.deferral import predict_deferral
    from whichtool_tui.discovery.findability import assess_findability
    from whichtool_tui.evaluation.plan import TaskSpec

    schema = {"type": "object", "properties": {}}
    documents = [
        build_document(f"queue_{i}", "Open a support ticket.", schema, i) for i in range(9)
    ]  # nine equal texts: ties keep served order, so queue_6 ranks 7th everywhere
    task = TaskSpec(id="t", prompt="open a support ticket", expected="queue_6")
    names = ["bm25", "codex"]
    section = assess_findability(
        documents,
        [task],
        [build_retriever(documents, name, 0.3) for name in names],
        predict_deferral(100, 9),
        task_source="t",
    )
    assert section.tasks[0].ranks == {"bm25": 7, "codex": 7}
    assert section.never_found == {"bm25": ["queue_6"], "codex": []}  # Codex loads 8
    (missed,) = [f for f in section.findings if f.code == "findability/missed"]
    assert "bm25 (rank 7)" in missed.message and "codex" not in missed.message
