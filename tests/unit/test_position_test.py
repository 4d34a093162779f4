"""The position test permutes positions within task: exact against brute force, sampled against
exact, and its false-positive rate under a no-position-effect null by seeded simulation."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from tests.support.run_report_factory import Task, build_run
from whichtool_tui.evaluation.permutation import sign_flip_test
from whichtool_tui.evaluation.position_test import (
    PositionCounts,
    _sampled,
    position_permutation_test,
)
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.evaluation.report_model import dump_report_json
from whichtool_tui.evaluation.task_stats import LEGACY_POSITION_TEST, POSITION_TEST, legacy_position


def brute_force_position_p(tasks: list[PositionCounts]) -> float:
    """Every placement of each task's first-position labels over its trials, counted."""
    per_task = []
    for task in tasks:
        outcomes = [1] * task.successes + [0] * (task.trials - task.successes)
        per_task.append(
            [
                task.change(sum(outcomes[i] for i in chosen))
                for chosen in itertools.combinations(range(task.trials), task.first)
            ]
        )
    observed = abs(sum(task.change(task.first_successes) for task in tasks))
    extreme = total = 0
    for combo in itertools.product(*per_task):
        total += 1
        extreme += abs(sum(combo, Fraction(0))) >= observed
    return extreme / total


CASES = [
    [PositionCounts(4, 2, 1, 1), PositionCounts(5, 3, 2, 2), PositionCounts(3, 1, 1, 1)],
    [PositionCounts(6, 3, 2, 0), PositionCounts(6, 3, 2, 0), PositionCounts(4, 4, 1, 1)],
    [PositionCounts(5, 2, 1, 0), PositionCounts(5, 4, 3, 3), PositionCounts(4, 1, 2, 1)],
]


@pytest.mark.parametrize("tasks", CASES)
def test_exact_tail_is_the_brute_force_count(tasks: list[PositionCounts]) -> None:
    result = position_permutation_test(tasks)
    assert result.exact and "permutation within task" in result.method
    assert result.p_value == pytest.approx(brute_force_position_p(tasks), abs=1e-12)


def test_sampled_tail_agrees_with_the_exact_one() -> None:
    tasks = [PositionCounts(8, 5, 2, 2), PositionCounts(7, 3, 3, 0), PositionCounts(9, 4, 2, 2)] * 3
    exact = position_permutation_test(tasks)
    assert exact.exact
    observed = sum((task.change(task.first_successes) for task in tasks), Fraction(0))
    sampled = _sampled(tasks, observed, 20_000, 0)
    assert sampled == pytest.approx(exact.p_value, abs=4 * np.sqrt(0.25 / 20_000))


def test_nothing_that_can_vary_gives_p_one_and_bad_counts_are_refused() -> None:
    assert position_permutation_test([PositionCounts(4, 4, 1, 1)]).p_value == 1.0
    with pytest.raises(ValueError):
        position_permutation_test([PositionCounts(4, 2, 4, 2)])


def test_a_real_first_position_advantage_is_found() -> None:
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(30):
        first = rng.random(10) < 0.3
        success = rng.random(10) < np.where(first, 0.9, 0.4)
        if 0 < first.sum() < 10:
            rows.append(
                PositionCounts(10, int(success.sum()), int(first.sum()), int(success[first].sum()))
            )
    assert position_permutation_test(rows).p_value < 0.001


NULL_DATASETS = 2_000
# (tasks, repeats, tools): the expected tool is first in a trial with chance 1 / tools.
NULL_CELLS = [(5, 3, 3), (10, 5, 4), (30, 5, 4), (20, 10, 8), (50, 3, 8), (40, 10, 5)]


def _null_counts(
    rng: np.random.Generator, tasks: int, repeats: int, tools: int
) -> list[PositionCounts]:
    """One run with no position effect: half the tasks always or never pass (temperature 0),
    half pass at a rate of their own; positions are shuffled independently of success."""
    deterministic = rng.random(tasks) < 0.5
    rates = np.where(deterministic, (rng.random(tasks) < 0.7) * 1.0, rng.uniform(0.2, 0.8, tasks))
    first = rng.random((tasks, repeats)) < 1.0 / tools
    success = rng.random((tasks, repeats)) < rates[:, None]
    return [
        PositionCounts(
            repeats,
            int(success[task].sum()),
            int(first[task].sum()),
            int((success[task] & first[task]).sum()),
        )
        for task in range(tasks)
        if 0 < first[task].sum() < repeats
    ]


@pytest.mark.parametrize(("tasks", "repeats", "tools"), NULL_CELLS)
def test_false_positive_rate_under_no_position_effect(tasks: int, repeats: int, tools: int) -> None:
    rng = np.random.default_rng(2026 + tasks * 100 + repeats)
    fired = tested = 0
    for _ in range(NULL_DATASETS):
        counts = _null_counts(rng, tasks, repeats, tools)
        if not counts:
            continue
        # 400 draws where the tail is sampled: (k + 1) / (draws + 1) is a valid p-value at any
        # draw count, so the rate measured is the test's, at a price the suite can pay.
        fired += position_permutation_test(counts, draws=400).p_value <= 0.05
        tested += 1
    assert tested >= 0.95 * NULL_DATASETS
    assert fired / tested <= 0.06


TOOLS = {"a_tool": 10, "b_tool": 10, "c_tool": 10}
TASKS = [Task(f"t{i}", f"Prompt {i}", ["a_tool", "b_tool", "c_tool"][i % 3]) for i in range(6)]


def test_a_file_with_the_sign_flip_position_block_is_checked_then_upgraded() -> None:
    answers = {(f"t{i}", j): [] for i in range(6) for j in range(6) if (i + j) % 3 == 0}
    data = build_run(TOOLS, TASKS, answers, 6, seed=11)
    fresh = parse_run_report(data, "run.json")
    assert fresh.statistics is not None
    assert fresh.statistics.position.test.startswith(POSITION_TEST)
    legacy = legacy_position(fresh.trials)
    assert legacy.test.startswith(LEGACY_POSITION_TEST)
    old = json.loads(dump_report_json(fresh))
    old["statistics"]["position"] = json.loads(legacy.model_dump_json(by_alias=True))
    upgraded = parse_run_report(old, "old.json")
    assert upgraded.statistics == fresh.statistics
    old["statistics"]["position"]["pValue"] = 0.5 if legacy.p_value != 0.5 else 0.25
    with pytest.raises(Exception, match="statistics"):
        parse_run_report(old, "tampered.json")


def test_a_skewed_null_where_the_sign_flip_fires_too_often() -> None:
    """30 tasks x 10 repeats over 10 tools, every task passing 90% of the time: a task is
    first about once, so its change is +0.11 nine times in ten and -1 otherwise. No position
    effect, yet a sign flip over tasks (which assumes a symmetric change) fires ~12% of the
    time; the within-task permutation stays within the level."""
    rng = np.random.default_rng(40)
    fired = flipped = tested = 0
    for _ in range(NULL_DATASETS):
        first = rng.random((30, 10)) < 0.1
        success = rng.random((30, 10)) < 0.9
        counts = [
            PositionCounts(
                10, int(success[t].sum()), int(first[t].sum()), int(success[t][first[t]].sum())
            )
            for t in range(30)
            if 0 < first[t].sum() < 10
        ]
        fired += position_permutation_test(counts, draws=400).p_value <= 0.05
        changes = [row.change(row.first_successes) for row in counts]
        flipped += sign_flip_test(changes, draws=400).p_value <= 0.05
        tested += 1
    assert fired / tested <= 0.06
    assert flipped / tested > 0.08
