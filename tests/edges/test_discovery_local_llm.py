"""A deferred run against the real llama.cpp server (SmolLM2-135M) on loopback: the wire path.

The model is tiny and rarely searches; the point is that every trial's search step reaches the
server with the search tool alone, and ends recorded (searched or not) and scored or errored.
"""

from __future__ import annotations

import pytest

from tests.support.evaluation import make_inputs
from whichtool_tui.discovery.deferred_run import DiscoveryOptions, run_deferred_evaluation
from whichtool_tui.evaluation.engine import RunOptions
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.providers.factory import build_provider

pytestmark = pytest.mark.slow

TASKS = [TaskSpec("read", "Read the file README.md", "read_file")]


@pytest.mark.parametrize(
    ("provider_name", "path", "env"),
    [
        ("openai-compatible", "/v1", {}),
        ("anthropic", "", {"ANTHROPIC_API_KEY": "local-server-ignores-this"}),
    ],
)
async def test_deferred_run_over_the_real_server(
    llama_base_url: str, provider_name: str, path: str, env: dict[str, str]
) -> None:
    provider = build_provider(
        provider_name,
        "smollm2",
        llama_base_url + path,
        env=env,
        timeout=60,
        max_output_tokens=12,
        base_url_source="flag",  # typed: a vendor key may follow only a typed URL off its host
    )
    try:
        report = await run_deferred_evaluation(
            make_inputs(TASKS),
            RunOptions(repeat=1, concurrency=1),
            provider,
            DiscoveryOptions(retriever="bm25"),
        )
    finally:
        await provider.aclose()
    block = report.discovery
    assert block is not None and block.comparison is not None
    assert len(block.trials) == 1 and len(block.upfront or []) == 1
    step = block.trials[0]
    assert step.query_source == "model"
    if step.error is not None:  # a named failure of the search step (e.g. the output cap)
        assert report.trials[0].verdict == "error" and step.offered is False
    elif step.searched:
        assert step.query is not None or step.retrieved == []
    else:
        assert step.retrieved == [] and step.offered is False
    assert report.execution.completed == 1
    for trial in report.trials:
        assert trial.verdict != "error" or (trial.error is not None and trial.error.message)
