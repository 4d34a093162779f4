"""Document vectors for the semantic search: batched encoding gives the vectors single encoding
gives, and the vectors are kept between runs in the cache folder (hashes and vectors, no text)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.discovery.documents import build_document
from whichtool_tui.discovery.embedding import CACHE_KEY, embedding_available
from whichtool_tui.discovery.vector_cache import FILE_NAME, VectorCache, text_digest

needs_model = pytest.mark.skipif(
    not embedding_available(), reason="the embedding extra is not installed (.ci/run installs it)"
)

TEXTS = [
    "Weather forecast for a city.",
    "Read a file from disk, with its metadata and permissions, at most 10 MB.",
    "Email an invoice to a customer.",
    "x",
    "Ünïcödé tëxt and an emoji 😀 in a description that runs on for a while longer.",
    "Email an invoice to a customer.",  # a repeat
]


def test_the_cache_keeps_vectors_by_model_and_digest(tmp_path: Path) -> None:
    cache = VectorCache("model-a", tmp_path)
    vector = (0.25, -0.5, 1.0 / 3.0)
    cache.put_many({text_digest("hello"): vector})
    cache.close()
    again = VectorCache("model-a", tmp_path)
    found = again.get_many([text_digest("hello"), text_digest("other")])
    assert {digest: tuple(row.tolist()) for digest, row in found.items()} == {
        text_digest("hello"): vector
    }
    assert VectorCache("model-b", tmp_path).get_many([text_digest("hello")]) == {}
    assert b"hello" not in (tmp_path / FILE_NAME).read_bytes()


def test_a_cache_that_cannot_be_opened_is_a_miss_not_an_error(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    cache = VectorCache("model-a", blocked)
    cache.put_many({"d": (1.0,)})
    assert VectorCache("model-a", blocked).get_many(["d"]) == {}  # nothing kept for later runs
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / FILE_NAME).write_bytes(b"this is not sqlite" * 100)
    assert VectorCache("model-a", damaged).get_many(["d"]) == {}


@needs_model
def test_batched_vectors_are_the_single_texts_vectors_to_the_bit() -> None:
    from whichtool_tui.discovery.embedding import load_embedding_model

    model = load_embedding_model()
    assert model.encode_many(TEXTS) == [model._encode(text) for text in TEXTS]


@needs_model
def test_batches_encoded_side_by_side_give_the_single_texts_vectors_to_the_bit() -> None:
    from whichtool_tui.discovery.embedding import BATCH_WORKERS, ENCODE_BATCH, load_embedding_model

    texts = [f"{' '.join(TEXTS[: 1 + n % 5])} number {n}" for n in range(3 * ENCODE_BATCH + 1)]
    model = load_embedding_model()
    matrix = model._encode_batches(texts)  # four batches, BATCH_WORKERS of them at a time
    assert BATCH_WORKERS >= 1 and matrix.shape == (len(texts), 384)
    assert [tuple(row) for row in matrix.tolist()] == [model._encode(text) for text in texts]


@needs_model
def test_the_cached_matrix_is_the_single_texts_vectors_and_encodes_each_text_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from whichtool_tui.discovery.embedding import (
        EmbeddingModel,
        cached_vectors,
        load_embedding_model,
    )

    model = load_embedding_model()
    encoded: list[str] = []
    real = EmbeddingModel._encode_batches

    def counting(self: EmbeddingModel, texts: list[str]) -> Any:
        encoded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(EmbeddingModel, "_encode_batches", counting)
    cache = VectorCache(CACHE_KEY, tmp_path)
    matrix = cached_vectors(TEXTS, cache)
    assert sorted(encoded) == sorted(set(TEXTS))  # the repeat went through the model once
    assert [tuple(row) for row in matrix.tolist()] == [model._encode(text) for text in TEXTS]
    encoded.clear()
    cache.close()
    again = cached_vectors(TEXTS, VectorCache(CACHE_KEY, tmp_path))
    assert encoded == [] and again.tolist() == matrix.tolist()  # read back to the bit


def test_a_process_asks_the_file_for_a_vector_once(tmp_path: Path) -> None:
    cache = VectorCache("model-a", tmp_path)
    cache.put_many({"d": (0.5, 0.25)})
    cache.close()
    reader = VectorCache("model-a", tmp_path)
    assert reader.get_many(["d"])["d"].tolist() == [0.5, 0.25]
    (tmp_path / FILE_NAME).unlink()  # gone from disk: the second read comes from memory
    assert reader.get_many(["d", "e"])["d"].tolist() == [0.5, 0.25]


@needs_model
def test_a_second_run_reads_every_document_vector_from_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from whichtool_tui.discovery import embedding, semantic
    from whichtool_tui.discovery.embedding import EmbeddingModel
    from whichtool_tui.discovery.semantic import SemanticRetriever

    schema: dict[str, Any] = {"type": "object", "properties": {}}
    documents = [build_document(f"tool_{n}", text, schema, n) for n, text in enumerate(TEXTS)]
    encoded: list[str] = []
    real = EmbeddingModel._encode_batches

    def counting(self: EmbeddingModel, texts: list[str]) -> list[tuple[float, ...]]:
        encoded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(EmbeddingModel, "_encode_batches", counting)
    first = SemanticRetriever(documents).search("Will it rain in Oslo tomorrow?")
    assert len(encoded) == len({doc.search_text for doc in documents}) + 1  # and the prompt
    encoded.clear()
    semantic.shared_cache().close()  # as a new process would open it
    semantic._caches.clear()
    monkeypatch.setattr(embedding, "_model", None)  # as in a new process: no model loaded
    second = SemanticRetriever(documents).search("Will it rain in Oslo tomorrow?")
    assert encoded == []
    assert embedding._model is None  # every vector was cached: the model was never loaded
    assert second == first and first.hits[0].name == "tool_0"
    path = semantic.shared_cache().path
    with sqlite3.connect(path) as db:
        models = {row[0] for row in db.execute("SELECT DISTINCT model FROM vectors")}
    assert models == {CACHE_KEY}
    for stored in path.parent.glob(FILE_NAME + "*"):  # the file and its write-ahead log
        assert b"Weather forecast" not in stored.read_bytes()


@needs_model
def test_a_second_inspect_with_tasks_loads_no_model_and_reports_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from tests.support.paths import SNAPSHOTS
    from whichtool_tui.cli import main
    from whichtool_tui.discovery import embedding, semantic

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(embedding, "_model", None)
    argv = ["--no-ui", "inspect", str(SNAPSHOTS / "demo-lab.json"), "--format", "json"]
    argv += ["--tasks", str(SNAPSHOTS / "demo-lab.tasks.yaml"), "--retriever", "semantic"]
    sections = []
    for run in ("cold", "warm"):
        out = tmp_path / f"{run}.json"
        assert main([*argv, "--out", str(out)]) in (0, 1)
        sections.append(json.loads(out.read_text())["findability"])
        assert (embedding._model is None) == (run == "warm")
        semantic.shared_cache().close()  # as a new process: nothing in memory, no model
        semantic._caches.clear()
        monkeypatch.setattr(embedding, "_model", None)
    assert sections[0] == sections[1] and sections[0]["semanticOverlap"]


@needs_model
def test_the_embedding_baseline_and_inspect_share_the_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from tests.support.paths import SNAPSHOTS
    from whichtool_tui.cli import main
    from whichtool_tui.discovery import embedding, semantic
    from whichtool_tui.discovery.embedding import EmbeddingModel
    from whichtool_tui.discovery.semantic import SemanticRetriever

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(embedding, "_model", None)
    encoded: list[str] = []
    real = EmbeddingModel._encode_batches

    def counting(self: EmbeddingModel, texts: list[str]) -> Any:
        encoded.extend(texts)
        return real(self, texts)

    def new_process() -> None:  # nothing in memory, no model
        semantic.shared_cache().close()
        semantic._caches.clear()
        monkeypatch.setattr(embedding, "_model", None)
        encoded.clear()

    monkeypatch.setattr(EmbeddingModel, "_encode_batches", counting)
    # The baseline reads what a model is sent (no titles): untitled tools give both one text.
    listing = json.loads((SNAPSHOTS / "demo-lab.json").read_text(encoding="utf-8"))
    for tool in listing["tools"]:
        tool.pop("title", None)
        tool.get("annotations", {}).pop("title", None)
    surface, tasks = str(tmp_path / "untitled.json"), str(SNAPSHOTS / "demo-lab.tasks.yaml")
    Path(surface).write_text(json.dumps(listing), encoding="utf-8")
    run = ["--no-ui", "run", surface, "--tasks", tasks, "--provider", "embedding"]
    run += ["--repeat", "1", "--format", "json"]
    argv = [*run, "--cache-dir", str(tmp_path / "trials-1"), "--out", str(tmp_path / "1.json")]
    assert main(argv) in (0, 1)
    tool_texts = set()
    original_init = SemanticRetriever.__init__

    def remembering(self: SemanticRetriever, documents: Any, *args: Any, **kw: Any) -> None:
        tool_texts.update(doc.search_text for doc in documents)
        original_init(self, documents, *args, **kw)

    monkeypatch.setattr(SemanticRetriever, "__init__", remembering)
    new_process()
    inspect = ["--no-ui", "inspect", surface, "--tasks", tasks, "--retriever", "semantic"]
    assert main([*inspect, "--format", "json", "--out", str(tmp_path / "inspect.json")]) in (0, 1)
    assert tool_texts and not tool_texts & set(encoded)  # the baseline's run had kept them all
    new_process()
    argv = [*run, "--cache-dir", str(tmp_path / "trials-2"), "--out", str(tmp_path / "2.json")]
    assert main(argv) in (0, 1)  # a new trial folder: every pick is made again
    assert encoded == [] and embedding._model is None  # from inspect's and the first run's
    picks = [
        {trial["taskId"]: trial["pick"] for trial in json.loads(path.read_text())["trials"]}
        for path in (tmp_path / "1.json", tmp_path / "2.json")
    ]
    assert picks[0] == picks[1] and picks[0]["order.cancel"] == "cancel_order"


@needs_model
def test_the_baseline_keeps_its_search_only_for_the_same_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from whichtool_tui.providers.base import RouteRequest, ToolSpec
    from whichtool_tui.providers.embedding import EmbeddingProvider

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    weather = ToolSpec("get_forecast", "Weather forecast for a city.", schema)
    invoice = ToolSpec("send_invoice", "Email an invoice to a customer.", schema)
    provider = EmbeddingProvider(min_similarity=0.3)

    def pick(prompt: str, *tools: ToolSpec) -> str | None:
        return provider.choose(prompt, RouteRequest(prompt, tools, 0.0, 0))

    rain = "Will it rain in Oslo tomorrow?"
    assert pick(rain, weather, invoice) == "get_forecast"
    kept = provider._last
    assert pick(rain, invoice, weather) == "get_forecast" and provider._last is kept  # reordered
    assert pick("Bill the client by mail", invoice, weather) == "send_invoice"
    # Equal names, other texts: a new search, not the kept one.
    swapped = ToolSpec("get_forecast", "Email an invoice to a customer.", schema)
    other = ToolSpec("send_invoice", "Weather forecast for a city.", schema)
    assert pick(rain, swapped, other) == "send_invoice" and provider._last is not kept
