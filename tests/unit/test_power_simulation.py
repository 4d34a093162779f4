"""The planner's power against an independent simulation of diff's gate, and its drop models.

The independent side shares no code with the planner: its own prior, drop models, random
numbers (Python's ``random``) and its own exact sign-flip test (a direct convolution of
probabilities). Both sides use 2,000 draws, so the difference of two estimates has a standard
error of at most 0.016 and the tolerance of 0.05 is three of them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.support.gate_simulation import independent_power
from whichtool_tui.evaluation.permutation import _exact_tail, _exact_tail_int64
from whichtool_tui.evaluation.power import design_rates, prior_rates
from whichtool_tui.evaluation.power_sim import (
    DropModel,
    _float_tail,
    concentrated_rates,
    min_changed_tasks,
    simulate_power,
    spread_rates,
)

DRAWS = 2_000
# (tasks, repeats, drop, model, --max-accuracy-drop): tasks 5-100, repeats 1-20, drops 0.05-0.3.
GRID: list[tuple[int, int, float, DropModel, float | None]] = [
    (5, 20, 0.3, "spread", None),
    (8, 3, 0.2, "concentrated", None),
    (12, 1, 0.3, "spread", None),
    (20, 5, 0.1, "spread", None),
    (20, 5, 0.1, "concentrated", None),
    (30, 10, 0.05, "spread", None),
    (40, 2, 0.15, "concentrated", None),
    (60, 3, 0.1, "spread", 0.05),
    (100, 1, 0.1, "spread", None),
    (100, 20, 0.05, "concentrated", 0.03),
]


@pytest.mark.parametrize(("tasks", "repeat", "drop", "model", "cap"), GRID)
def test_planner_power_matches_an_independent_simulation(
    tasks: int, repeat: int, drop: float, model: DropModel, cap: float | None
) -> None:
    planned = simulate_power(design_rates(None, tasks), repeat, drop, model, cap, DRAWS)
    assert planned.draws == DRAWS and planned.error <= 0.0112
    independent = independent_power(tasks, repeat, drop, model, cap)
    assert abs(planned.power - independent) <= 0.05, (planned.power, independent)


def test_the_drop_models_take_the_stated_drop() -> None:
    rates = prior_rates(10)
    for dropped in (spread_rates(rates, 0.2), concentrated_rates(rates, 0.2)):
        assert sum(rates) / 10 - sum(dropped) / 10 == pytest.approx(0.2)
        assert all(0 <= q <= p for p, q in zip(rates, dropped, strict=True))
    spread = [p - q for p, q in zip(rates, spread_rates(rates, 0.2), strict=True)]
    assert max(spread) - min(spread) == pytest.approx(0.0)  # every task loses the same here
    concentrated = concentrated_rates(rates, 0.2)
    assert concentrated[-3:] == [pytest.approx(rates[-3] + rates[-2] + rates[-1] - 2.0), 0, 0]


def test_the_floor_of_the_exact_test_and_holm() -> None:
    assert min_changed_tasks() == 6  # 2^(1-5) = 0.0625 > 0.05 >= 2^(1-6)
    assert min_changed_tasks(8) == 9  # Holm over 8 tools: 8 x 2^(1-8) = 0.0625
    # Five tasks can never gate, however large the drop and however many repeats.
    assert simulate_power(design_rates(None, 5), 50, 0.4, "spread", None, 500).power == 0.0


def test_max_accuracy_drop_lowers_power_and_can_make_it_nil() -> None:
    rates = design_rates(None, 30)
    free = simulate_power(rates, 5, 0.1, "spread", None, 1_000)
    capped = simulate_power(rates, 5, 0.1, "spread", 0.1, 1_000)
    above = simulate_power(rates, 5, 0.1, "spread", 0.5, 1_000)
    assert free.power > capped.power > above.power == 0.0


def test_the_array_count_and_the_float_screen_agree_with_the_integer_count() -> None:
    rng = random.Random(5)
    for _ in range(300):
        size, repeat = rng.randint(1, 120), rng.choice([1, 2, 3, 5, 10, 20])
        values = [rng.randint(-repeat, repeat) or 1 for _ in range(size)]
        magnitudes = Counter(abs(value) for value in values)
        exact = _exact_tail(magnitudes, sum(values))
        assert _exact_tail_int64(magnitudes, sum(values)) == exact  # the same float, bit for bit
        assert abs(_float_tail(magnitudes, sum(values)) - exact) < 1e-12
