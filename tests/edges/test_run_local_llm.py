"""A whole routing run against a real llama.cpp server (SmolLM2-135M) on loopback.

The model is tiny and mostly answers in text or runs into the output cap; the point is that
the run completes and every trial ends scored or errored with a named reason, never a crash.
"""

from __future__ import annotations

import pytest

from tests.support.evaluation import make_inputs
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.providers.factory import build_provider

pytestmark = pytest.mark.slow

TASKS = [
    TaskSpec("read", "Read the file README.md", "read_file"),
    TaskSpec("find", "Search the code for foo", "search_code"),
    TaskSpec("chat", "Say hello", None),
]


@pytest.mark.parametrize(
    ("provider_name", "path", "env"),
    [
        ("openai-compatible", "/v1", {}),
        ("anthropic", "", {"ANTHROPIC_API_KEY": "local-server-ignores-this"}),
    ],
)
async def test_full_run_completes_with_every_trial_accounted_for(
    llama_base_url: str,
    provider_name: str,
    path: str,
    env: dict[str, str],
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
        report = await run_evaluation(
            make_inputs(TASKS), RunOptions(repeat=1, concurrency=1), provider
        )
    finally:
        await provider.aclose()
    assert report.execution.completed == report.execution.planned == 3
    assert report.metrics.trials.scored + sum(t.error is not None for t in report.trials) == 3
    for trial in report.trials:
        if trial.verdict == "error":
            assert trial.error is not None and trial.error.message
            assert "local-server-ignores-this" not in trial.error.message
        else:
            assert trial.calls or trial.text.strip()
    assert report.reproducibility.provider == provider_name
    codes = {d.code for d in report.diagnostics}
    if any(t.verdict == "error" for t in report.trials):
        assert "run/errored-trials" in codes
    if provider_name == "anthropic":
        assert "run/temperature-not-honoured" in codes  # Messages gets no temperature from us
