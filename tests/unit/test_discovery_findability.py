"""Findability: BM25 and regex ranks checked by hand and against an independent BM25, findings,
deferral rules, and `inspect --tasks` end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main
from whichtool_tui.discovery.deferral import predict_deferral
from whichtool_tui.discovery.documents import ToolDocument, build_document
from whichtool_tui.discovery.findability import assess_findability
from whichtool_tui.discovery.lexical import Bm25Retriever, RegexRetriever, keyword_pattern
from whichtool_tui.discovery.ranking import Retriever
from whichtool_tui.evaluation.plan import TaskSpec


def _doc(index: int, name: str, description: str, *params: str) -> ToolDocument:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p: {"type": "string"} for p in params},
    }
    return build_document(name, description, schema, index)


SURFACE = (
    _doc(0, "get_weather", "Current weather for a city.", "city"),
    _doc(1, "read_file", "Read a file from disk.", "path"),
    _doc(2, "weather_alerts", "Severe weather alerts.", "region"),
    _doc(3, "qx_run", "Send an invoice to a customer by email. Also handles weather.", "customer"),
)


def lucene_bm25(
    query: list[str], docs: list[list[str]], k1: float = 1.2, b: float = 0.75
) -> list[float]:
    """A second, independent BM25 (Lucene idf, with the (k1 + 1) factor), for these tests only."""
    count = len(docs)
    average = sum(len(doc) for doc in docs) / count
    scores = []
    for doc in docs:
        total = 0.0
        for term in set(query):
            frequency = sum(1 for other in docs if term in other)
            if frequency == 0:
                continue
            idf = math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            tf = doc.count(term)
            total += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / average))
        scores.append(total)
    return scores


def test_documents_split_names_and_keep_parameters() -> None:
    assert SURFACE[0].terms == (
        "get_weather",
        "get",
        "weather",
        "current",
        "weather",
        "city",
        "city",
    )
    assert SURFACE[3].first_sentence == "Send an invoice to a customer by email."
    assert SURFACE[3].name_terms == frozenset({"run"})


def test_bm25_ranks_by_hand() -> None:
    # "weather city": get_weather has weather twice and city twice in six terms; weather_alerts
    # has weather twice in five; qx_run has weather once in a long text; read_file has neither.
    ranking = Bm25Retriever(SURFACE).search("weather in the city")
    assert [hit.name for hit in ranking.hits] == ["get_weather", "weather_alerts", "qx_run"]
    assert ranking.rank_of("read_file") is None
    assert ranking.confident  # city is in one tool only, so get_weather stands far ahead


def test_bm25_scores_match_an_independent_implementation() -> None:
    documents = [list(doc.terms) for doc in SURFACE]
    for query in ("weather in the city", "read the file at this path", "email a customer"):
        terms = list(Bm25Retriever(SURFACE).scores(query))
        expected = lucene_bm25(sorted(set(_terms(query))), documents)
        # bm25s leaves out the constant (k1 + 1): every score is scaled by 1 / 2.2.
        assert terms == pytest.approx([value / 2.2 for value in expected], rel=1e-5)


def _terms(text: str) -> list[str]:
    from whichtool_tui.discovery.text import text_terms

    return list(text_terms(text))


def test_regex_search_counts_distinct_words_and_keeps_served_order_on_ties() -> None:
    assert keyword_pattern("Weather alerts for my region") == r"\b(?:alert|region|weather)"
    ranking = RegexRetriever(SURFACE).search("Weather alerts for my region")
    # weather_alerts matches alert, region, weather (3); the two others weather only (1 each).
    assert [(hit.name, hit.score) for hit in ranking.hits] == [
        ("weather_alerts", 3.0),
        ("get_weather", 1.0),
        ("qx_run", 1.0),
    ]
    assert ranking.confident
    literal = RegexRetriever(SURFACE).search_pattern("weather(")  # invalid: taken literally
    assert literal.hits == ()


def _assess(tasks: list[TaskSpec], retrievers: list[Retriever] | None = None) -> Any:
    chosen = retrievers or [Bm25Retriever(SURFACE), RegexRetriever(SURFACE)]
    return assess_findability(
        SURFACE, tasks, chosen, predict_deferral(500, len(SURFACE)), task_source="t.yaml"
    )


def test_findability_ranks_rates_and_findings() -> None:
    section = _assess(
        [
            TaskSpec("w1", "Is it raining in Oslo?", "get_weather"),
            TaskSpec("w2", "What is the weather in the city of Oslo?", "get_weather"),
            TaskSpec("inv", "Email the invoice to the customer", "qx_run"),
            TaskSpec("off", "Tell me a joke about the weather and the city", None),
        ]
    )
    ranks = {row.id: row.ranks for row in section.tasks}
    assert ranks["w1"] == {"bm25": None, "regex": None}  # no prompt word is in any tool
    assert ranks["w2"] == {"bm25": 1, "regex": 1}
    assert ranks["inv"] == {"bm25": 1, "regex": 1}
    weather = next(tool for tool in section.tools if tool.name == "get_weather")
    assert weather.found_at["bm25"] == {"at1": 0.5, "at3": 0.5, "at5": 0.5}
    assert section.never_found == {"bm25": [], "regex": []}
    codes = {(f.code, f.tool or ",".join(f.tools or [])) for f in section.findings}
    assert ("findability/missed", "get_weather") in codes
    missed = next(f for f in section.findings if f.code == "findability/missed")
    # 'oslo' is in two prompts (suggested); 'raining' in one only (set apart to check first).
    assert missed.detail["absentWords"] == ["oslo"]
    assert missed.detail["singlePromptWords"] == ["raining"]
    assert "'oslo' (helps bm25, regex)" in (missed.hint or "")
    assert "In this prompt only" in (missed.hint or "") and "'raining'" in (missed.hint or "")
    # qx_run: the name says nothing of invoices, and the first sentence holds the words.
    assert ("findability/name-hides-subject", "qx_run") in codes
    assert ("findability/distractor-retrieves", "get_weather") in codes
    assert section.distractors[0].confident == ["bm25", "regex"]  # city + weather: 2 words


def test_first_sentence_finding_names_the_words_past_it() -> None:
    section = _assess([TaskSpec("wx", "Is there any weather news?", "qx_run")])
    finding = next(
        f for f in section.findings if f.code == "findability/first-sentence-misses-terms"
    )
    assert finding.tool == "qx_run"
    assert finding.detail["keyWords"] == ["weather"]


def test_never_found_tool_is_reported_per_search() -> None:
    section = _assess([TaskSpec("r", "Open my holiday photos", "read_file")])
    assert section.never_found == {"bm25": ["read_file"], "regex": ["read_file"]}
    assert any(f.code == "findability/never-found" for f in section.findings)


def test_deferral_rules_cross_at_their_thresholds() -> None:
    small = predict_deferral(20_000, 128)
    assert [rule.defers for rule in small.rules] == [False, False, True]
    assert not small.deferred_by_size
    large = predict_deferral(20_001, 129)
    assert [rule.defers for rule in large.rules] == [True, True, True]
    section = assess_findability(SURFACE, [], [], large, task_source="t")
    assert [f.code for f in section.findings] == ["deferral/likely-deferred"]


def test_inspect_tasks_json_carries_the_section(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "inspect.json"
    code = main(
        [
            "--no-ui",
            "inspect",
            str(SNAPSHOTS / "demo-lab.json"),
            "--tasks",
            str(SNAPSHOTS / "demo-lab.tasks.yaml"),
            "--retriever",
            "bm25",
            "--retriever",
            "regex",
            "--format",
            "json",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    section = data["findability"]
    assert section["retrievers"] == ["bm25", "regex"]
    ranks = {row["id"]: row["ranks"] for row in section["tasks"]}
    assert ranks["orders.search.mug"] == {"bm25": 4, "regex": 2}
    assert ranks["order.cancel"] == {"bm25": 1, "regex": 1}
    assert {row["id"] for row in section["distractors"]} == {
        "distractor.ticket",
        "distractor.discount",
        "distractor.forecast",
    }
    assert section["deferral"]["rules"][0]["defers"] is False


def test_inspect_refuses_an_unknown_search(capsys: Any) -> None:
    code = main(
        [
            "--no-ui",
            "inspect",
            str(SNAPSHOTS / "demo-lab.json"),
            "--tasks",
            str(SNAPSHOTS / "demo-lab.tasks.yaml"),
            "--retriever",
            "grep",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("whichtool-tui: Unknown search `grep`")
    assert "Traceback" not in err


def test_semantic_without_the_extra_says_how_to_install(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import whichtool_tui.discovery.embedding as embedding

    monkeypatch.setattr(embedding, "embedding_available", lambda: False)
    base = ["--no-ui", "inspect", str(SNAPSHOTS / "demo-lab.json")]
    tasks = ["--tasks", str(SNAPSHOTS / "demo-lab.tasks.yaml")]
    assert main([*base, *tasks, "--retriever", "semantic"]) == 2
    assert "pip install -e '.[embedding]'" in capsys.readouterr().err
    # Without the extra, the default review still runs, and says what it skipped.
    assert main([*base, *tasks]) == 0
    out = capsys.readouterr().out
    assert "semantic skipped: the embedding extra is not installed" in out
    assert "bm25 rank" in out


def test_regex_word_index_ranks_exactly_as_the_pattern_does() -> None:
    retriever = RegexRetriever(SURFACE)
    for prompt in (
        "Weather alerts for my region",
        "read the file at this path please",
        "email the customer an invoice about the weather in the city",
        "nothing matches zzz",
    ):
        indexed = retriever.search(prompt)
        scanned = retriever.search_pattern(keyword_pattern(prompt), prompt)
        assert indexed.hits == scanned.hits
        assert indexed.confident == scanned.confident


@pytest.mark.slow
def test_headless_demo_shows_findability_offline(cli_env: dict[str, str], tmp_path: Path) -> None:
    from tests.support.cli import run_headless

    done = run_headless(
        "inspect",
        str(SNAPSHOTS / "demo-lab.json"),
        "--tasks",
        str(SNAPSHOTS / "demo-lab.tasks.yaml"),
        env=cli_env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Findability (would a deferring host's search find the tool?)" in out
    assert "orders.search.mug" in out and "bm25 rank" in out
    assert "Deferral  ~694 tokens (estimate), 6 tools" in out
    assert "findability/distractor-retrieves" in out
