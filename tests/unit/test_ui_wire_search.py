"""WireSearch: the same answers as a full scan, reading only rows an earlier answer kept."""

from __future__ import annotations

import random
from collections.abc import Sequence

from whichtool_tui.ui.wire_search import KEPT_ANSWERS, WireSearch


class CountingTexts(Sequence[str]):
    """Search texts that count how many rows were read."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.reads = 0

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        self.reads += 1
        return self.texts[index]


def make_texts(count: int, seed: int = 7) -> list[str]:
    chooser = random.Random(seed)
    words = ["tools/call", "echo", "leak_env", "2025-11-25", "initialize", "result", "error"]
    return [" ".join(chooser.sample(words, 3)) + f" id {index}" for index in range(count)]


def brute(texts: Sequence[str], query: str, pool: list[int]) -> list[int]:
    return [index for index in pool if query in texts[index]]


def test_answers_match_a_full_scan_for_typing_deleting_and_new_words() -> None:
    texts = CountingTexts(make_texts(2_000))
    search = WireSearch()
    everything = list(range(len(texts)))
    for query in ["t", "to", "too", "tools", "tool", "", "2", "20", "2025", "e", "ec", "echo"]:
        found = search.find(query, "scope", lambda: texts, lambda: list(everything))
        assert found == brute(texts.texts, query, everything), query


def test_typing_on_reads_only_the_rows_the_last_answer_kept() -> None:
    texts = CountingTexts(make_texts(2_000))
    search = WireSearch()
    everything = list(range(len(texts)))
    first = search.find("leak", "scope", lambda: texts, lambda: list(everything))
    assert texts.reads == len(texts)  # the first keystroke reads every row
    texts.reads = 0
    narrowed = search.find("leak_env 2", "scope", lambda: texts, lambda: list(everything))
    assert texts.reads == len(first) < len(texts)
    assert set(narrowed) <= set(first)
    texts.reads = 0
    again = search.find("leak", "scope", lambda: texts, lambda: list(everything))
    assert again == first and texts.reads == 0  # deleting back: the kept answer, nothing read
    texts.reads = 0
    search.find("env", "scope", lambda: texts, lambda: list(everything))
    assert texts.reads == len(texts)  # "env" is not in any kept query: it reads every row
    texts.reads = 0
    search.find("_env", "scope", lambda: texts, lambda: list(everything))
    assert texts.reads < len(texts)  # a new word narrows from "env", which it contains


def test_a_new_scope_forgets_the_kept_answers() -> None:
    texts = CountingTexts(make_texts(500))
    search = WireSearch()
    odd = [index for index in range(len(texts)) if index % 2]
    search.find("echo", "all rows", lambda: texts, lambda: list(range(len(texts))))
    found = search.find("echo", "odd rows", lambda: texts, lambda: list(odd))
    assert found == brute(texts.texts, "echo", odd)
    assert search.find("", "odd rows", lambda: texts, lambda: list(odd)) == odd


def test_the_kept_answers_are_bounded_and_keep_the_unsearched_pool() -> None:
    texts = CountingTexts(make_texts(300))
    search = WireSearch()
    everything = list(range(len(texts)))
    for index in range(KEPT_ANSWERS * 3):
        query = f"id {index}"
        found = search.find(query, "scope", lambda: texts, lambda: list(everything))
        assert found == brute(texts.texts, query, everything)
    assert len(search._answers) == KEPT_ANSWERS
    assert "" in search._answers
