"""Planning: the seeded permutation matches the reference algorithm, selection and budgets."""

from __future__ import annotations

import json

import pytest

from tests.support.evaluation import make_inputs
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.engine import (
    RunOptions,
    check_budgets,
    prepare_run,
    run_evaluation,
)
from whichtool_tui.evaluation.plan import (
    TaskSpec,
    check_plan_size,
    estimate_run,
    plan_trials,
)
from whichtool_tui.evaluation.report_model import report_to_dict
from whichtool_tui.evaluation.runner import RunnerSettings, run_plan
from whichtool_tui.evaluation.seeds import fnv1a, mulberry32, shuffled, trial_seed
from whichtool_tui.evaluation.thresholds import ThresholdSettings
from whichtool_tui.providers.base import Capabilities, ProviderIdentity
from whichtool_tui.providers.mock import MockProvider

# Reference values produced once by the JavaScript formulation of the same algorithms
# (FNV-1a over UTF-16 units, mulberry32, Fisher-Yates from the end, the per-trial seed).
SIX = ["a", "b", "c", "d", "e", "f"]


def test_hash_and_generator_match_reference_values() -> None:
    assert (fnv1a(""), fnv1a("a"), fnv1a("héllo ☃")) == (2166136261, 3826002220, 4118292138)
    random = mulberry32(42)
    assert [random(), random(), random()] == [
        0.6011037519201636,
        0.44829055899754167,
        0.8524657934904099,
    ]


@pytest.mark.parametrize(
    ("run_seed", "task", "index", "seed", "order"),
    [
        (0, "t1", 0, 3987046707, "abfced"),
        (0, "t1", 1, 1224477039, "cdfaeb"),
        (7, "añ", 3, 4256207965, "dbeafc"),
    ],
)
def test_trial_seed_and_order_match_reference(
    run_seed: int, task: str, index: int, seed: int, order: str
) -> None:
    assert trial_seed(run_seed, task, index) == seed
    assert "".join(shuffled(SIX, seed)) == order


def _tasks() -> list[TaskSpec]:
    return [
        TaskSpec("read", "Show me the README", "read_file", ("files",)),
        TaskSpec("find", "Find uses of foo", "search_code", ("code", "slow")),
        TaskSpec("joke", "Tell me a joke", None, ("distractor",)),
    ]


def test_orders_are_permutations_and_avoid_repeats() -> None:
    plan = plan_trials(_tasks(), ["read_file", "search_code", "list_dir"], repeat=5, seed=3)
    assert plan.planned == 15
    for task in plan.selected:
        orders = [t.order for t in plan.trials if t.task is task]
        assert all(sorted(o) == sorted(plan.tool_names) for o in orders)
        assert len(set(orders)) == 5  # 3! = 6 orders available, 5 wanted: no repeats
    read = [t for t in plan.trials if t.task.id == "read"]
    assert [t.expected_position for t in read] == [t.order.index("read_file") for t in read]
    assert all(t.expected_position == -1 for t in plan.trials if t.task.id == "joke")


def test_no_permute_keeps_served_order() -> None:
    plan = plan_trials(_tasks(), ["b_tool", "a_tool"], repeat=3, permute=False)
    assert {t.order for t in plan.trials} == {("b_tool", "a_tool")}


def test_only_and_skip_accumulate() -> None:
    tasks = _tasks()
    both = plan_trials(tasks, ["x"], only=("files", "code"), repeat=1)
    assert [t.id for t in both.selected] == ["read", "find"]
    skipped = plan_trials(tasks, ["x"], only=("files", "code"), skip=("slow",), repeat=1)
    assert [t.id for t in skipped.selected] == ["read"]
    with pytest.raises(WhichtoolError) as error:
        plan_trials(tasks, ["x"], only=("nothing",))
    assert error.value.code == "tasks/none-selected"


async def test_same_seed_same_orders_and_same_report() -> None:
    tasks = _tasks()
    options = RunOptions(repeat=4, seed=11, thresholds=ThresholdSettings(min_accuracy=0.1))

    async def once() -> dict[str, object]:
        provider = MockProvider(
            responder=lambda request: request.tools[0].name  # picks whatever is shown first
        )
        report = report_to_dict(await run_evaluation(make_inputs(tasks), options, provider))
        report.pop("durationMs")
        for trial in report["trials"]:
            trial.pop("latencyMs")
        return report

    first, second = await once(), await once()
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    other = prepare_run(make_inputs(tasks), RunOptions(repeat=4, seed=12)).plan
    same = prepare_run(make_inputs(tasks), options).plan
    assert [t.order for t in other.trials] != [t.order for t in same.trials]


def test_budgets_name_the_flag_that_raises_them() -> None:
    inputs = make_inputs(_tasks())
    prepared = prepare_run(inputs, RunOptions(repeat=20))
    assert prepared.plan.planned == 60 and not prepared.within_trial_limit
    with pytest.raises(WhichtoolError) as trials:
        check_budgets(inputs, prepared, RunOptions(repeat=20))
    assert trials.value.code == "run/trial-limit"
    assert "--max-trials 60" in (trials.value.hint or "")
    with pytest.raises(WhichtoolError) as tools:
        check_budgets(inputs, prepared, RunOptions(repeat=20, max_tools=2))
    assert tools.value.code == "run/tool-limit"
    assert "--max-tools 3" in (tools.value.hint or "")
    with pytest.raises(WhichtoolError) as scored:
        prepare_run(inputs, RunOptions(repeat=1, thresholds=ThresholdSettings(min_scored=4)))
    assert scored.value.code == "run/impossible-min-scored"
    assert "--min-scored" in scored.value.message
    with pytest.raises(WhichtoolError) as huge:
        check_plan_size(1001, 100)
    assert huge.value.code == "trials/plan-too-large"


async def test_runner_rechecks_limits_before_any_call() -> None:
    inputs = make_inputs(_tasks())
    options = RunOptions(repeat=20, max_trials=1000)
    prepared = prepare_run(inputs, options)
    provider = MockProvider()
    with pytest.raises(WhichtoolError) as error:
        await run_plan(prepared.plan, provider, {}, RunnerSettings(max_trials=10))
    assert error.value.code == "run/trial-limit"
    assert provider.requests == []


def test_estimate_is_surface_plus_mean_prompt_tokens() -> None:
    plan = plan_trials(_tasks(), ["read_file"], repeat=2)
    # prompts of 18, 16 and 14 characters -> 5, 4, 4 tokens -> mean 4.33 -> 4
    estimate = estimate_run(plan, surface_tokens=30, concurrency=4, seconds_per_trial=1.5)
    assert estimate.prompt_tokens_per_trial == 34
    assert estimate.prompt_tokens_total == 34 * 6
    assert estimate.estimated_seconds == 3  # ceil(6 * 1.5 / 4)
    assert estimate_run(plan, 30, 4, None).estimated_seconds is None


async def test_settings_that_never_reach_the_model_are_noted() -> None:
    provider = MockProvider()
    provider.identity = ProviderIdentity(
        name="mock",
        model="no-knobs",
        endpoint=None,
        request_fingerprint=None,
        capabilities=Capabilities(),  # sends no temperature, no seed, no reasoning effort
    )
    report = await run_evaluation(
        make_inputs(_tasks()),
        RunOptions(repeat=1, temperature=0.7, reasoning_effort="low"),
        provider,
    )
    notes = {d.code: d for d in report.diagnostics}
    assert notes["run/settings-not-sent"].detail == {
        "settings": ["temperature", "reasoning_effort"]
    }
    assert "run/no-seed-support" in notes
    assert "run/temperature-not-honoured" not in notes  # that one is about a temperature of 0
    assert report.reproducibility.temperature == 0.7


def test_dry_run_sized_plan_does_not_lay_out_orders() -> None:
    tools = [f"tool_{index}" for index in range(1000)]
    tasks = [TaskSpec(f"task-{index}", "some prompt text", "tool_1") for index in range(20_000)]
    plan = plan_trials(tasks, tools, repeat=5)
    assert plan.planned == 100_000
    estimate = estimate_run(plan, surface_tokens=50_000, concurrency=4, seconds_per_trial=None)
    assert estimate.prompt_tokens_total == 100_000 * (50_000 + 4)
    assert "trials" not in vars(plan)  # nothing was shuffled for the counts
    small = plan_trials(tasks[:2], tools[:4], repeat=3)
    assert len(small.trials) == 6 and "trials" in vars(small)
    with pytest.raises(WhichtoolError) as error:
        plan_trials(tasks + tasks[:1], tools, repeat=5)
    assert error.value.code == "trials/plan-too-large"
