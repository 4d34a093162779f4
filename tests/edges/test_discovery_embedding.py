"""The embedding extra for real: the semantic search, the `embedding` baseline provider, and
onnxruntime kept offline (nothing written to HOME, no connection attempted)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main
from whichtool_tui.discovery.documents import build_document
from whichtool_tui.discovery.embedding import INSTALL_HINT, embedding_available
from whichtool_tui.providers.base import ProviderError

REPO = SNAPSHOTS.parent

pytestmark = pytest.mark.skipif(
    not embedding_available(), reason="the embedding extra is not installed (.ci/run installs it)"
)


def test_semantic_search_ranks_paraphrases_that_share_no_word() -> None:
    from whichtool_tui.discovery.semantic import SemanticRetriever

    schema: dict[str, Any] = {"type": "object", "properties": {}}
    documents = [
        build_document("get_forecast", "Weather forecast for a city.", schema, 0),
        build_document("read_file", "Read a file from disk.", schema, 1),
        build_document("send_invoice", "Email an invoice to a customer.", schema, 2),
    ]
    retriever = SemanticRetriever(documents, min_similarity=0.3)
    ranking = retriever.search("Will it rain in Oslo tomorrow?")
    assert ranking.hits[0].name == "get_forecast"
    assert len(ranking.hits) == 3  # a semantic search ranks every tool
    assert retriever.search("Bill the client by mail").hits[0].name == "send_invoice"


def test_inspect_reports_semantic_ranks_and_overlap_beside_dice(tmp_path: Path) -> None:
    out = tmp_path / "inspect.json"
    argv = ["--no-ui", "inspect", str(SNAPSHOTS / "demo-lab.json")]
    argv += ["--tasks", str(SNAPSHOTS / "demo-lab.tasks.yaml"), "--format", "json"]
    assert main([*argv, "--out", str(out)]) == 0
    section = json.loads(out.read_text())["findability"]
    assert section["retrievers"] == ["bm25", "regex", "semantic"]
    assert section["minSimilarity"] == 0.3
    mug = next(row for row in section["tasks"] if row["id"] == "orders.search.mug")
    assert mug["ranks"]["semantic"] == 1
    pair = section["semanticOverlap"][0]
    assert pair["tools"] == ["list_orders", "search_orders"]
    assert 0.0 < pair["semantic"] <= 1.0 and pair["dice"] > 0.6


def test_embedding_provider_runs_as_a_labelled_baseline(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "run.json"
    argv = ["--no-ui", "run", str(SNAPSHOTS / "demo-lab.json")]
    argv += ["--tasks", str(SNAPSHOTS / "demo-lab.tasks.yaml"), "--provider", "embedding"]
    argv += ["--repeat", "1", "--cache-dir", str(tmp_path / "cache"), "--min-similarity", "0.4"]
    assert main([*argv, "--format", "json", "--out", str(out)]) in (0, 1)
    report = json.loads(out.read_text())
    assert report["reproducibility"]["provider"] == "embedding"
    assert report["reproducibility"]["model"] == "all-MiniLM-L6-v2-onnx-int8@0.40"
    picks = {trial["taskId"]: trial["pick"] for trial in report["trials"]}
    assert picks["order.cancel"] == "cancel_order"
    assert picks["distractor.ticket"] is None
    assert main([*argv]) in (0, 1)
    assert "(embedding baseline, not a model)" in capsys.readouterr().out


def test_without_the_extra_the_provider_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import whichtool_tui.discovery.embedding as embedding
    from whichtool_tui.providers.factory import build_provider

    monkeypatch.setattr(embedding, "embedding_available", lambda: False)
    with pytest.raises(ProviderError) as caught:
        build_provider("embedding", None, None, env={})
    assert caught.value.hint == INSTALL_HINT and "pip install -e '.[embedding]'" in INSTALL_HINT


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("unshare") is None or shutil.which("strace") is None,
    reason="needs unshare and strace",
)
def test_model_writes_nothing_to_home_and_opens_no_connection(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    trace = tmp_path / "trace.txt"
    code = (
        "from whichtool_tui.discovery.embedding import load_embedding_model\n"
        "model = load_embedding_model()\n"
        "print(len(model.encode('what is the weather in Oslo')))\n"
    )
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("ORT_DISABLE_TELEMETRY", None)  # we must set it ourselves
    if subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False).returncode:
        pytest.skip("unshare -n is not permitted here")
    command = ["unshare", "-n", "strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg"]
    result = subprocess.run(
        [*command, "-o", str(trace), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "384"
    assert list(home.rglob("*")) == []
    calls = trace.read_text()
    assert "AF_INET" not in calls and "AF_INET6" not in calls
