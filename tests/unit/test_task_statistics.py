"""Task-level statistics against independent computations: scipy, brute force, subset counting.

scipy is used here only, as the independent reference; the package computes everything itself.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from scipy import stats

from tests.support.run_report_factory import Answer, Task, build_run
from tests.unit.test_position_test import brute_force_position_p
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation import permutation
from whichtool_tui.evaluation.clustered import clustered_rate
from whichtool_tui.evaluation.diff import DiffInput, diff_runs
from whichtool_tui.evaluation.distributions import (
    beta_quantile,
    clopper_pearson,
    regularized_beta,
    student_t_quantile,
)
from whichtool_tui.evaluation.permutation import holm_adjust, mean_interval, sign_flip_test
from whichtool_tui.evaluation.position_test import PositionCounts
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.evaluation.report_model import dump_report_json
from whichtool_tui.evaluation.signtest import sign_test_p_value
from whichtool_tui.evaluation.stats import wilson_interval
from whichtool_tui.evaluation.task_stats import pass_hat_k


def test_beta_t_and_clopper_pearson_match_scipy() -> None:
    rng = random.Random(11)
    for _ in range(300):
        a, b, p, x = rng.uniform(0.1, 200), rng.uniform(0.1, 200), rng.random(), rng.random()
        assert regularized_beta(x, a, b) == pytest.approx(stats.beta.cdf(x, a, b), abs=1e-9)
        assert beta_quantile(p, a, b) == pytest.approx(stats.beta.ppf(p, a, b), abs=1e-9)
    for df in (1, 2, 3, 4, 9, 30, 199, 5000):
        for q in (0.975, 0.9, 0.025):
            assert student_t_quantile(q, df) == pytest.approx(stats.t.ppf(q, df), abs=1e-9)
    for k, n in ((0, 5), (3, 7), (7, 7), (12, 40)):
        low, high = clopper_pearson(k, n)
        ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert (low, high) == pytest.approx((ref.low, ref.high), abs=1e-9)


def _reference_clustered(counts: list[tuple[int, int]]) -> tuple[float, float]:
    """The documented recipe written out again with scipy, step by step."""

    def effective(rows: list[tuple[float, float]]) -> float | None:
        tasks, total = len(rows), sum(m for _, m in rows)
        value = sum(y for y, _ in rows) / total
        variance = tasks / (tasks - 1) * sum((y - value * m) ** 2 for y, m in rows) / total**2
        return value * (1 - value) / variance if variance > 0 else None

    tasks, total = len(counts), sum(m for _, m in counts)
    value = sum(y for y, _ in counts) / total
    rows = [(float(y), float(m)) for y, m in counts]
    observed = effective(rows)
    size = tasks if observed is None else min(total, observed)
    guarded = effective([*rows, (total / tasks / 2, total / tasks)])
    if guarded is not None:
        size = min(size, guarded)
    size = max(1.0, size)
    size *= (stats.t.ppf(0.975, total - 1) / stats.t.ppf(0.975, tasks - 1)) ** 2
    x = value * size
    low = 0.0 if x == 0 else stats.beta.ppf(0.025, x, size - x + 1)
    high = 1.0 if x >= size else stats.beta.ppf(0.975, x + 1, size - x)
    return low, high


@pytest.mark.parametrize(
    "counts",
    [
        [(5, 5)] * 6 + [(0, 5)],
        [(3, 5), (4, 5), (5, 5), (1, 5), (2, 5)],
        [(19, 20), (20, 20), (12, 20), (20, 20), (18, 20), (20, 20), (0, 20), (20, 20)],
        [(1, 3), (2, 5), (4, 4), (0, 2)],
        [(5, 5)] * 7,
    ],
)
def test_clustered_interval_matches_the_recipe_computed_with_scipy(
    counts: list[tuple[int, int]],
) -> None:
    estimate = clustered_rate(counts)
    assert estimate.ci95 == pytest.approx(_reference_clustered(counts), abs=1e-9)
    assert estimate.tasks == len(counts)
    assert estimate.value == pytest.approx(sum(y for y, _ in counts) / sum(m for _, m in counts))


def test_seven_tasks_of_five_identical_repeats_are_no_narrower_than_seven_observations() -> None:
    for passing in range(8):
        counts = [(5, 5)] * passing + [(0, 5)] * (7 - passing)
        clustered = clustered_rate(counts).ci95
        per_task = wilson_interval(passing, 7)
        per_trial = wilson_interval(5 * passing, 35)
        assert clustered is not None and per_task is not None and per_trial is not None
        assert clustered[1] - clustered[0] >= per_task[1] - per_task[0] - 1e-12
        assert clustered[0] <= per_task[0] + 1e-12 and clustered[1] >= per_task[1] - 1e-12
        assert clustered[1] - clustered[0] > per_trial[1] - per_trial[0]


def test_one_task_and_empty_inputs() -> None:
    one = clustered_rate([(3, 5)])
    assert one.tasks == 1 and one.effective_size == 1.0
    assert one.ci95 == pytest.approx(clopper_pearson(0.6, 1.0), abs=1e-12)
    empty = clustered_rate([(0, 0), (0, 0)])
    assert empty.value is None and empty.ci95 is None and empty.tasks == 0


def _brute_force_p(changes: list[Fraction]) -> float:
    observed = abs(sum(changes))
    hits = sum(
        abs(sum(sign * change for sign, change in zip(signs, changes, strict=True))) >= observed
        for signs in itertools.product((1, -1), repeat=len(changes))
    )
    return hits / 2 ** len(changes)


@pytest.mark.parametrize("seed", range(6))
def test_sign_flip_p_value_equals_brute_force_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(1, 12)
    changes = [Fraction(rng.randint(-5, 5), rng.choice((1, 2, 3, 5))) for _ in range(size)]
    result = sign_flip_test(changes)
    assert result.exact
    assert result.p_value == pytest.approx(_brute_force_p(changes), abs=1e-12)


def test_sign_flip_hand_worked_values() -> None:
    # One task flipped on every repeat is one observation: p = 1 (upstream's trial test: 0.031).
    assert sign_flip_test([Fraction(-1), *([Fraction(0)] * 4)]).p_value == 1.0
    assert sign_test_p_value(0, 6) == pytest.approx(0.03125)
    # Six tasks all one way: 2 / 2^6; five: 2 / 2^5.
    assert sign_flip_test([Fraction(-1)] * 6).p_value == pytest.approx(0.03125)
    assert sign_flip_test([Fraction(-1)] * 5).p_value == pytest.approx(0.0625)
    assert sign_flip_test([]).p_value == 1.0


def test_monte_carlo_beyond_the_exact_range_is_seeded_and_close_to_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With one magnitude the sign-flip distribution is binomial: scipy's exact binomial test
    # is the reference. Forcing the sampled path shows the draw count, the seed and the error.
    changes = [Fraction(-1)] * 130 + [Fraction(1)] * 100 + [Fraction(0)] * 20
    exact = stats.binomtest(100, 230, 0.5).pvalue
    assert sign_flip_test(changes).p_value == pytest.approx(exact, abs=1e-9)
    monkeypatch.setattr(permutation, "EXACT_WORK_LIMIT", 0)
    first, second = sign_flip_test(changes), sign_flip_test(changes)
    assert not first.exact and "20000 draws, seed 0" in first.method
    assert first == second
    assert abs(first.p_value - exact) < 0.01
    assert abs(permutation._sampled_tail(Counter({1: 230}), -30, 20_000, 1) - exact) < 0.01


def test_holm_matches_the_step_down_procedure() -> None:
    p_values = [0.01, 0.04, 0.03, 0.005, 0.5, 0.02]
    adjusted = holm_adjust(p_values)
    for alpha in (0.01, 0.03, 0.05, 0.1, 0.2):
        order = sorted(range(len(p_values)), key=lambda i: p_values[i])
        rejected: set[int] = set()
        for rank, index in enumerate(order):
            if p_values[index] > alpha / (len(p_values) - rank):
                break
            rejected.add(index)
        assert {i for i, p in enumerate(adjusted) if p <= alpha} == rejected
    assert adjusted[3] == pytest.approx(0.03)


def test_mean_interval_is_student_t_and_clipped() -> None:
    values = [0.2, -0.1, 0.4, 0.0, 0.3]
    low, high = mean_interval(values) or (0.0, 0.0)
    ref = stats.t.interval(0.95, len(values) - 1, loc=sum(values) / 5, scale=stats.sem(values))
    assert (low, high) == pytest.approx(ref, abs=1e-9)
    assert mean_interval([1.0, -1.0]) == (-1.0, 1.0)
    assert mean_interval([0.5]) is None


@pytest.mark.parametrize(("correct", "scored"), [(0, 4), (3, 5), (5, 5), (4, 7), (1, 1)])
def test_pass_hat_k_equals_explicit_subset_counting(correct: int, scored: int) -> None:
    outcomes = [True] * correct + [False] * (scored - correct)
    curve = pass_hat_k(correct, scored)
    assert len(curve) == scored
    for k in range(1, scored + 1):
        subsets = list(itertools.combinations(outcomes, k))
        counted = sum(all(subset) for subset in subsets) / len(subsets)
        assert curve[k - 1] == pytest.approx(counted, abs=1e-12)
        assert curve[k - 1] == pytest.approx(math.comb(correct, k) / math.comb(scored, k))


TOOLS = {"list_users": 100, "search_users": 120, "get_user": 80}
TASKS = [
    Task("list", "Show every user", "list_users"),
    Task("find", "Find users named Bob", "search_users"),
    Task("get", "Get user 42", "get_user"),
    Task("weather", "Weather in Paris?", None),
]


def _run(answers: dict[tuple[str, int], Answer], repeat: int = 4, seed: int = 2) -> dict[str, Any]:
    return build_run(TOOLS, TASKS, answers, repeat, seed=seed)


def test_reader_fills_the_block_for_files_without_it_and_checks_it_when_present() -> None:
    data = _run({("find", 0): ["list_users"], ("get", 1): "error", ("list", 2): []})
    assert "statistics" not in data  # upstream's shape
    report = parse_run_report(data, "old.json")
    statistics = report.statistics
    assert statistics is not None
    rates = statistics.rates
    assert rates.accuracy.tasks == 3 and rates.accuracy.trials == 11
    assert rates.over_trigger.tasks == 1
    consistency = statistics.consistency
    rows = {row.task_id: row for row in consistency.by_task}
    assert (rows["find"].scored, rows["find"].correct) == (4, 3)
    assert rows["find"].pass_hat_k == pytest.approx([3 / 4, 1 / 2, 1 / 4, 0.0])
    assert (rows["get"].scored, rows["get"].correct) == (3, 3)
    assert [row.k for row in consistency.pass_hat_k] == [1, 2, 3, 4]
    # pass^4: only tasks with four scored repeats count (get lost one to an error).
    assert consistency.pass_hat_k[3].tasks == 2
    assert consistency.pass_hat_k[3].value == pytest.approx((0 + 0) / 2)
    assert consistency.pass_hat_k[0].value == pytest.approx((3 / 4 + 1 + 3 / 4) / 3)
    # find and list changed answers; get (3 scored) and weather never did.
    assert (consistency.unchanged_tasks, consistency.compared_tasks) == (2, 4)
    saved = json.loads(dump_report_json(report))
    assert parse_run_report(saved, "new.json").statistics == statistics
    saved["statistics"]["consistency"]["unchangedTasks"] = 3
    with pytest.raises(WhichtoolError) as refused:
        parse_run_report(saved, "edited.json")
    assert "statistics-mismatch" in refused.value.message


def test_first_position_advantage_is_the_mean_within_task_difference() -> None:
    data = _run({}, repeat=6, seed=9)
    # Fail every trial whose expected tool was not listed first: the advantage is maximal.
    for trial in data["trials"]:
        if trial["expected"] is not None and trial["expectedPosition"] != 0:
            trial["pick"], trial["calls"] = None, []
    answers: dict[tuple[str, int], Answer] = {
        (t["taskId"], t["trialIndex"]): []
        for t in data["trials"]
        if t["expected"] is not None and t["expectedPosition"] != 0
    }
    report = parse_run_report(_run(answers, repeat=6, seed=9), "positions.json")
    assert report.statistics is not None
    position = report.statistics.position
    by_task: dict[str, list[dict[str, Any]]] = {}
    for trial in data["trials"]:
        by_task.setdefault(trial["taskId"], []).append(trial)
    mixed = [
        task
        for task, trials in by_task.items()
        if trials[0]["expected"] is not None
        and {t["expectedPosition"] == 0 for t in trials} == {True, False}
    ]
    assert position.tasks == len(mixed) and position.tasks >= 1
    assert position.advantage == pytest.approx(1.0)
    # Positions permuted within task: every placement of each task's first-position trials.
    counts = [
        PositionCounts(
            len(trials),
            sum(1 for t in trials if t["expectedPosition"] == 0),
            sum(1 for t in trials if t["expectedPosition"] == 0),
            sum(1 for t in trials if t["expectedPosition"] == 0),
        )
        for task, trials in by_task.items()
        if task in mixed
    ]
    assert position.p_value == pytest.approx(brute_force_position_p(counts))
    assert position.p_value < 2 / 2 ** len(mixed)  # stronger than the old sign flip here


def test_one_task_flipped_on_six_repeats_gates_only_at_the_trial_level() -> None:
    base = parse_run_report(_run({}, repeat=6), "base.json")
    head = parse_run_report(
        _run({("find", i): ["list_users"] for i in range(6)}, repeat=6), "head.json"
    )
    by_task = diff_runs(DiffInput(base, "b"), DiffInput(head, "h"), max_accuracy_drop=0.05)
    by_trial = diff_runs(
        DiffInput(base, "b"), DiffInput(head, "h"), max_accuracy_drop=0.05, paired_unit="trial"
    )
    assert by_trial.accuracy.paired.p_value == pytest.approx(0.03125)
    assert not by_trial.ok
    assert by_task.accuracy.by_task is not None
    assert by_task.accuracy.by_task.p_value == 1.0
    assert by_task.accuracy.by_task.mean_delta == pytest.approx(-1 / 3)
    assert by_task.ok and by_task.paired_unit == "task"
    # Upstream's fields are the same whichever unit gates.
    assert by_task.accuracy.paired == by_trial.accuracy.paired
    assert by_task.accuracy.distinguishable == by_trial.accuracy.distinguishable


def _simulated_coverage(tasks: int, repeats: int, rho: float, mean: float, reps: int) -> float:
    rng = random.Random(tasks * 1000 + repeats)
    covered = 0
    for _ in range(reps):
        counts = []
        for _ in range(tasks):
            if rho >= 1:
                rate = 1.0 if rng.random() < mean else 0.0
            elif rho <= 0:
                rate = mean
            else:
                scale = (1 - rho) / rho
                rate = rng.betavariate(mean * scale, (1 - mean) * scale)
            counts.append((sum(rng.random() < rate for _ in range(repeats)), repeats))
        interval = clustered_rate(counts).ci95
        assert interval is not None
        covered += interval[0] <= mean <= interval[1]
    return covered / reps


@pytest.mark.parametrize(("tasks", "repeats", "rho"), [(10, 5, 1.0), (20, 5, 0.5), (10, 20, 0.0)])
def test_seeded_small_coverage_simulation(tasks: int, repeats: int, rho: float) -> None:
    # The full grid is bench/coverage.py; here 300 replications per cell, well above 93%.
    assert _simulated_coverage(tasks, repeats, rho, 0.8, 300) >= 0.93


def _draw_by_draw(items: list[tuple[int, int]], target: int, draws: int, seed: int) -> int:
    """The sampler's definition: one getrandbits call per magnitude per draw, exact integers."""
    generator = random.Random(seed)
    extreme = 0
    for _ in range(draws):
        total = 0
        for magnitude, count in items:
            total += magnitude * (2 * generator.getrandbits(count).bit_count() - count)
        extreme += abs(total) >= target
    return extreme


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("popcount", ["numpy", "byte table"])
def test_blocked_sampler_counts_exactly_what_the_draw_by_draw_definition_counts(
    monkeypatch: pytest.MonkeyPatch, seed: int, popcount: str
) -> None:
    # Word boundaries (31-33, 63-65 signs), magnitudes far past 64 bits (exact fractions scaled
    # by a big common denominator), ties at the target, and draws across block edges.
    import numpy as np

    if popcount == "byte table":
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    monkeypatch.setattr(permutation, "DRAWS_PER_BLOCK", 97)
    rng = random.Random(seed)
    for _ in range(12):
        huge = rng.random() < 0.5
        items: dict[int, int] = {}
        for _ in range(rng.randint(1, 10)):
            magnitude = rng.randint(1, 10 ** rng.randint(0, 5)) * (10**40 if huge else 1)
            items[magnitude] = rng.choice([1, 2, 31, 32, 33, 63, 64, 65, rng.randint(1, 200)])
        pairs = list(items.items())
        reach = sum(magnitude * count for magnitude, count in pairs)
        odd = sum(magnitude * (count % 2) for magnitude, count in pairs)  # a reachable sum
        for target in (0, odd, rng.randint(0, reach), reach):
            draws = rng.choice([1, 96, 97, 98, 300])
            expected = _draw_by_draw(pairs, target, draws, seed)
            assert permutation._extreme_draws(pairs, target, draws, seed) == expected
