"""Wilson intervals and proportions, checked against the closed form computed independently."""

from __future__ import annotations

import math

import pytest

from whichtool_tui.evaluation.stats import proportion, wilson_interval

Z = 1.959963984540054


def closed_form(k: int, n: int) -> tuple[float, float]:
    """The textbook Wilson score interval, written out term by term."""
    p_hat = k / n
    z_squared = Z**2
    centre = (p_hat + z_squared / (2 * n)) / (1 + z_squared / n)
    margin = (Z / (1 + z_squared / n)) * math.sqrt(p_hat * (1 - p_hat) / n + z_squared / (4 * n**2))
    return max(0.0, centre - margin), min(1.0, centre + margin)


def test_zero_of_zero_has_null_value_and_interval() -> None:
    empty = proportion(0, 0)
    assert empty.value is None
    assert empty.ci95 is None
    assert wilson_interval(0, 0) is None


@pytest.mark.parametrize(("k", "n"), [(0, 5), (5, 5), (3, 10), (15, 21)])
def test_wilson_matches_closed_form(k: int, n: int) -> None:
    measured = proportion(k, n)
    low, high = closed_form(k, n)
    assert measured.value == pytest.approx(k / n, abs=1e-12)
    assert measured.ci95 is not None
    assert measured.ci95[0] == pytest.approx(low, abs=1e-12)
    assert measured.ci95[1] == pytest.approx(high, abs=1e-12)
    assert 0.0 <= measured.ci95[0] <= measured.value <= measured.ci95[1] <= 1.0


def test_published_reference_points() -> None:
    # 4/5 ~ [0.376, 0.964]; 15/21 ~ [50%, 86%]; 3/9 ~ [12%, 65%]; 0/5 starts at 0, 5/5 ends at 1.
    four_of_five = wilson_interval(4, 5)
    assert four_of_five is not None
    assert round(four_of_five[0], 3) == 0.376 and round(four_of_five[1], 3) == 0.964
    fifteen = wilson_interval(15, 21)
    assert fifteen is not None
    assert (round(fifteen[0] * 100), round(fifteen[1] * 100)) == (50, 86)
    three = wilson_interval(3, 9)
    assert three is not None
    assert (round(three[0] * 100), round(three[1] * 100)) == (12, 65)
    assert proportion(0, 5).ci95 == (0.0, pytest.approx(closed_form(0, 5)[1]))
    assert proportion(5, 5).ci95 == (pytest.approx(closed_form(5, 5)[0]), 1.0)


def test_impossible_proportion_is_refused() -> None:
    with pytest.raises(ValueError):
        proportion(6, 5)
