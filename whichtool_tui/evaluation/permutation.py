"""The task-level paired test: a sign-flip permutation test over per-task changes, plus Holm.

Under "no change", which run a task's trials came from is arbitrary, so each task's change is
as likely to carry either sign. Flipping signs over tasks (never over trials) gives the exact
null distribution of the summed change, whatever the within-task correlation. Changes are exact
fractions, scaled to integers, so ties are exact and the distribution is counted, not sampled,
whenever that stays small; beyond that a seeded Monte Carlo draws the same distribution.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from whichtool_tui.evaluation.distributions import student_t_quantile

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

MONTE_CARLO_DRAWS = 20_000
MONTE_CARLO_SEED = 0
# Exact counting costs about (distinct sums) x (tasks) steps; past this the sums are sampled.
EXACT_WORK_LIMIT = 4_000_000
ALWAYS_EXACT_TASKS = 20
EXACT_METHOD = "sign-flip over tasks, exact"


@dataclass(frozen=True)
class SignFlipResult:
    """A two-sided sign-flip p-value and how it was obtained."""

    p_value: float
    method: str
    exact: bool


def integer_changes(changes: Sequence[Fraction]) -> list[int]:
    """The changes on one integer scale (their denominators' least common multiple)."""
    scale = math.lcm(*(change.denominator for change in changes)) if changes else 1
    return [int(change * scale) for change in changes]


def _exact_tail(magnitudes: Counter[int], observed: int) -> float:
    """P(|sum of ±a| >= |observed|) by convolving one binomial per distinct magnitude."""
    distribution: dict[int, int] = {0: 1}
    flips = 0
    for magnitude, count in sorted(magnitudes.items()):
        weights = [math.comb(count, j) for j in range(count + 1)]
        grown: defaultdict[int, int] = defaultdict(int)
        for total, ways in distribution.items():
            for j, weight in enumerate(weights):
                grown[total + magnitude * (2 * j - count)] += ways * weight
        distribution = dict(grown)
        flips += count
    extreme = sum(ways for total, ways in distribution.items() if abs(total) >= abs(observed))
    tail: float = extreme / 2**flips
    return tail


_INT64_FLIPS = 62
"""Up to this many flips every count of sign assignments fits a signed 64-bit integer."""
_ARRAY_REACH = 1_000_000


def _exact_tail_int64(magnitudes: Counter[int], observed: int) -> float | None:
    """``_exact_tail`` over numpy arrays indexed by the sum: the same integer counts, so the
    same p-value. int64 up to 62 flips, beyond that arrays of Python integers (exact, and
    still several times faster than a dictionary); None when the sums pass a million."""
    flips = sum(magnitudes.values())
    reach = sum(magnitude * count for magnitude, count in magnitudes.items())
    if reach > _ARRAY_REACH:
        return None
    import numpy as np

    kind = np.int64 if flips <= _INT64_FLIPS else object
    distribution = np.zeros(2 * reach + 1, dtype=kind)
    distribution[reach] = 1
    low = high = reach  # the indices the support spans so far
    for magnitude, count in sorted(magnitudes.items()):
        grown = np.zeros_like(distribution)
        support = distribution[low : high + 1]
        for j in range(count + 1):
            shift = magnitude * (2 * j - count)
            grown[low + shift : high + 1 + shift] += math.comb(count, j) * support
        distribution = grown
        low, high = low - magnitude * count, high + magnitude * count
    sums = np.abs(np.arange(-reach, reach + 1))
    extreme = int(distribution[sums >= abs(observed)].sum())
    tail: float = extreme / 2**flips
    return tail


def exact_work(magnitudes: Counter[int]) -> int:
    work, support = 0, 1
    for magnitude, count in magnitudes.items():
        support = min(support + 2 * magnitude * count, 2**62)
        work += support * (count + 1)
    return work


def _sampled_tail(magnitudes: Counter[int], observed: int, draws: int, seed: int) -> float:
    """The same tail by Monte Carlo: a Binomial(count, 1/2) of plus signs per magnitude, drawn
    as the popcount of ``generator.getrandbits(count)``, magnitude after magnitude, draw after
    draw (``_extreme_draws`` counts them in blocks, to the same result)."""
    extreme = _extreme_draws(list(magnitudes.items()), abs(observed), draws, seed)
    # Counting the observed assignment itself keeps the estimate a valid p-value.
    return (extreme + 1) / (draws + 1)


DRAWS_PER_BLOCK = 2_000
"""Draws whose generator words are taken and counted at once (a few MB at 100 magnitudes)."""
_SAFE_BITS = 60
_TOLERANCE = 2.0**-40
"""Relative to the largest possible |sum|: far above float64's error on a dot product of a few
thousand terms (about n * 2**-53), so a draw this close to the observed sum is re-summed
exactly."""


def _extreme_draws(items: list[tuple[int, int]], target: int, draws: int, seed: int) -> int:
    """How many draws have |sum of ±magnitude| >= ``target``: numpy over blocks of draws.

    ``getrandbits(k)`` takes ceil(k / 32) 32-bit words, least significant first, and keeps the
    top bits of the last one; ``getrandbits(32 * n)`` is n words unshifted. One big call thus
    yields every word the per-magnitude calls would take, in order, and a magnitude's plus
    signs are the popcount of its words (the last shifted as the small call shifts it).
    Magnitudes are exact fractions scaled to integers and may not fit 64 bits: sums are made
    in float64 scaled below 2**60, and a draw within the error bound of ``target`` is summed
    again in exact integers, so the count is the one exact arithmetic gives (0.155 s of pure
    Python per read of a 100-task, 100,000-trial run became 0.020 s).
    """
    import numpy as np

    if draws <= 0:
        return 0
    generator = random.Random(seed)
    magnitudes = [magnitude for magnitude, _count in items]
    counts = np.array([count for _magnitude, count in items], dtype=np.int64)
    spans = [-(-int(count) // 32) for count in counts]
    width = sum(spans)
    starts = np.cumsum([0, *spans[:-1]])
    shifts = np.zeros(width, dtype=np.uint32)
    for first, span, count in zip(starts.tolist(), spans, counts.tolist(), strict=True):
        shifts[first + span - 1] = 32 * span - count
    reach = sum(magnitude * count for magnitude, count in items)
    scale = 1 << max(0, reach.bit_length() - _SAFE_BITS)
    scaled = np.array([magnitude / scale for magnitude in magnitudes], dtype=np.float64)
    goal, tolerance = target / scale, reach / scale * _TOLERANCE
    extreme = 0
    for low in range(0, draws, DRAWS_PER_BLOCK):
        block = min(DRAWS_PER_BLOCK, draws - low)
        raw = generator.getrandbits(32 * width * block).to_bytes(4 * width * block, "little")
        words = np.frombuffer(raw, dtype="<u4").reshape(block, width) >> shifts
        plus = np.add.reduceat(_popcount(words), starts, axis=1)
        signs = 2 * plus - counts  # per draw and magnitude: plus signs minus minus signs
        sums = np.abs(signs.astype(np.float64) @ scaled)
        extreme += int(np.count_nonzero(sums >= goal + tolerance))
        for row in np.flatnonzero(np.abs(sums - goal) < tolerance).tolist():
            exact = sum(m * s for m, s in zip(magnitudes, signs[row].tolist(), strict=True))
            extreme += abs(exact) >= target
    return extreme


def _popcount(words: NDArray[np.uint32]) -> NDArray[np.int64]:
    """Set bits per word (numpy 2's ``bitwise_count``, else a byte table)."""
    import numpy as np

    counted = getattr(np, "bitwise_count", None)
    if counted is not None:
        ones: NDArray[np.int64] = counted(words).astype(np.int64)
        return ones
    table = np.array([value.bit_count() for value in range(256)], dtype=np.int64)
    by_byte = table[np.ascontiguousarray(words, dtype="<u4").view(np.uint8)]
    summed: NDArray[np.int64] = by_byte.reshape(*words.shape, 4).sum(axis=-1)
    return summed


def sign_flip_test(
    changes: Sequence[Fraction], draws: int = MONTE_CARLO_DRAWS, seed: int = MONTE_CARLO_SEED
) -> SignFlipResult:
    """Two-sided p-value of the summed per-task change under random sign flips (1 when none)."""
    return sign_flip_scaled(integer_changes(changes), draws, seed)


def sign_flip_scaled(
    changes: Sequence[int], draws: int = MONTE_CARLO_DRAWS, seed: int = MONTE_CARLO_SEED
) -> SignFlipResult:
    """``sign_flip_test`` of changes already on one integer scale."""
    scaled = [value for value in changes if value != 0]
    if not scaled:
        return SignFlipResult(1.0, EXACT_METHOD, True)
    observed = sum(scaled)
    magnitudes = Counter(abs(value) for value in scaled)
    if len(scaled) <= ALWAYS_EXACT_TASKS or exact_work(magnitudes) <= EXACT_WORK_LIMIT:
        tail = _exact_tail_int64(magnitudes, observed)
        if tail is None:
            tail = _exact_tail(magnitudes, observed)
        return SignFlipResult(min(1.0, tail), EXACT_METHOD, True)
    p_value = _sampled_tail(magnitudes, observed, draws, seed)
    method = f"sign-flip over tasks, monte carlo ({draws} draws, seed {seed})"
    return SignFlipResult(min(1.0, p_value), method, False)


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """Student-t 95% interval for the mean of per-task changes in rate, clipped to [-1, 1].

    None with fewer than 2 tasks. A change in a rate cannot leave [-1, 1], so with very few
    tasks the t interval is cut there rather than shown past it.
    """
    count = len(values)
    if count < 2:
        return None
    mean = math.fsum(values) / count
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    half = student_t_quantile(0.975, count - 1) * math.sqrt(variance / count)
    return (max(-1.0, mean - half), min(1.0, mean + half))


def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order (family-wise error control)."""
    count = len(p_values)
    order = sorted(range(count), key=lambda index: p_values[index])
    adjusted = [1.0] * count
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
