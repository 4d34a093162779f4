"""The exact sign test against the contract's fixed values and a brute-force binomial sum."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from whichtool_tui.evaluation.signtest import is_distinguishable, sign_test_p_value


def brute_force(improved: int, regressed: int) -> float:
    n = improved + regressed
    if n == 0:
        return 1.0
    tail = sum(Fraction(comb(n, k), 2**n) for k in range(min(improved, regressed) + 1))
    return float(min(Fraction(1), 2 * tail))


@pytest.mark.parametrize(
    ("improved", "regressed", "expected"),
    [(0, 1, 1.0), (1, 0, 1.0), (0, 5, 0.0625), (0, 6, 0.03125), (4, 4, 1.0), (0, 0, 1.0)],
)
def test_fixed_values(improved: int, regressed: int, expected: float) -> None:
    assert sign_test_p_value(improved, regressed) == pytest.approx(expected, abs=1e-15)


def test_eight_one_sided_pairs_are_distinguishable() -> None:
    assert sign_test_p_value(0, 8) < 0.05
    assert is_distinguishable(0, 8)


def test_five_is_not_enough_and_six_is() -> None:
    assert not is_distinguishable(5, 0)
    assert is_distinguishable(6, 0)
    assert not is_distinguishable(0, 0)


def test_symmetric() -> None:
    assert sign_test_p_value(3, 11) == sign_test_p_value(11, 3)


def test_random_cases_match_brute_force() -> None:
    rng = random.Random(20260)
    for _ in range(300):
        improved = rng.randint(0, 120)
        regressed = rng.randint(0, 120)
        assert sign_test_p_value(improved, regressed) == pytest.approx(
            brute_force(improved, regressed), rel=1e-9, abs=1e-300
        )


def test_large_counts_do_not_overflow() -> None:
    p = sign_test_p_value(40_000, 60_000)
    assert 0.0 <= p < 1e-100
    assert sign_test_p_value(50_000, 50_000) == pytest.approx(1.0)


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        sign_test_p_value(-1, 2)
