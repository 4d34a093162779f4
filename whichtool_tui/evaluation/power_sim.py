"""The accuracy gate's power by simulation: diff's own task-level test, run on simulated pairs
of runs.

A design is one base success rate per task (from a pilot run, or a stated prior), a repeat
count and a drop model. Each draw simulates a base and a head run of every task (binomial
successes over the repeats, at the base rate and at the dropped rate), turns them into the
per-task changes diff computes, and asks diff's own code whether the gate finds the drop: the
task-level verdict (``significant_change``: the sign-flip test over tasks, p <= 0.05) and, with
``--max-accuracy-drop``, the rule that fails the diff (``drop_breaches``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from whichtool_tui.errors import CancelledError
from whichtool_tui.evaluation.diff import drop_breaches
from whichtool_tui.evaluation.diff_tasks import significant_change
from whichtool_tui.evaluation.permutation import (
    ALWAYS_EXACT_TASKS,
    EXACT_WORK_LIMIT,
    exact_work,
)
from whichtool_tui.evaluation.signtest import PAIRED_SIGNIFICANCE_LEVEL

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

DropModel = Literal["spread", "concentrated"]
DROP_MODELS: tuple[DropModel, ...] = ("spread", "concentrated")
SIMULATION_DRAWS = 2_000
SIMULATION_SEED = 0
_BLOCK = 250
_SEARCH_BLOCK = 100  # a search step settles which side of the target it is on sooner


_STOP: ContextVar[Callable[[], bool] | None] = ContextVar("power_stop", default=None)


@contextmanager
def stoppable(stop: Callable[[], bool]) -> Iterator[None]:
    """Simulations in this context end with ``CancelledError`` once ``stop()`` says so (asked
    between blocks of draws): a plan nobody waits for any more stops spending CPU. Nothing
    partial is kept, since a cached result is only ever a finished one."""
    token = _STOP.set(stop)
    try:
        yield
    finally:
        _STOP.reset(token)


def spread_rates(rates: Sequence[float], drop: float) -> list[float]:
    """Every task loses min(p, delta), delta chosen so that the mean falls by ``drop``."""
    target = drop * len(rates)
    low, high = 0.0, max(rates, default=0.0)
    for _ in range(100):
        middle = (low + high) / 2
        if sum(min(rate, middle) for rate in rates) < target:
            low = middle
        else:
            high = middle
    return [rate - min(rate, high) for rate in rates]


def concentrated_rates(rates: Sequence[float], drop: float) -> list[float]:
    """The tasks with the highest base rate fall to 0, one after another (the last one part of
    the way), until the mean falls by ``drop``."""
    left = drop * len(rates)
    dropped = list(rates)
    for index in sorted(range(len(rates)), key=lambda i: (-rates[i], i)):
        taken = min(dropped[index], left)
        dropped[index] -= taken
        left -= taken
        if left <= 1e-12:
            break
    return dropped


def dropped_rates(rates: Sequence[float], drop: float, model: DropModel) -> list[float]:
    """The head run's per-task rates under a drop model; refused when the drop cannot happen."""
    if drop > math.fsum(rates) / max(1, len(rates)) + 1e-12:
        raise ValueError("the drop is larger than the mean base accuracy")
    return spread_rates(rates, drop) if model == "spread" else concentrated_rates(rates, drop)


@dataclass(frozen=True)
class PowerEstimate:
    """A simulated power: the share of draws in which the gate fired."""

    power: float
    draws: int

    @property
    def error(self) -> float:
        """The Monte Carlo standard error of ``power``."""
        return math.sqrt(max(self.power * (1 - self.power), 0.25 / self.draws) / self.draws)


_SCREEN_MARGIN = 1e-9
"""The FFT convolution below errs by about 1e-14 in absolute terms; a p this far from the
level decides exactly as the test's integer count does."""


@lru_cache(maxsize=1024)
def _half_binomial(count: int) -> NDArray[np.float64]:
    """P(j plus signs) for j = 0..count: Binomial(count, 1/2)."""
    import numpy as np

    return np.array([math.comb(count, j) / 2**count for j in range(count + 1)])


def _float_tail(magnitudes: Counter[int], observed: int) -> float:
    """The exact test's tail, P(|sum of +-m| >= |observed|), by FFT convolution of each
    magnitude's binomial law in float64: a fast screen of the test's integer count."""
    import numpy as np

    reach = sum(magnitude * count for magnitude, count in magnitudes.items())
    size = 1 << (2 * reach + 1).bit_length()
    spectrum = np.ones(size // 2 + 1, dtype=np.complex128)
    for magnitude, count in magnitudes.items():
        kernel = np.zeros(size, dtype=np.float64)
        kernel[(magnitude * (2 * np.arange(count + 1) - count)) % size] = _half_binomial(count)
        spectrum *= np.fft.rfft(kernel)
    law = np.fft.irfft(spectrum, size)
    sums = np.arange(size)
    sums = np.where(sums > size // 2, sums - size, sums)  # index -> signed sum
    return float(law[np.abs(sums) >= abs(observed)].sum())


def _distinguishable(changes: tuple[int, ...]) -> bool:
    """diff's task-level verdict on these changes: the float screen where it cannot differ
    from the exact count, the test itself (``significant_change``) everywhere else."""
    scaled = [change for change in changes if change]
    if len(scaled) < min_changed_tasks():
        return False  # the exact test's p is at least 2^(1-K) > 0.05
    magnitudes = Counter(abs(change) for change in scaled)
    exact = len(scaled) <= ALWAYS_EXACT_TASKS or exact_work(magnitudes) <= EXACT_WORK_LIMIT
    if exact and sum(m * c for m, c in magnitudes.items()) <= 1_000_000:
        tail = _float_tail(magnitudes, sum(scaled))
        if abs(tail - PAIRED_SIGNIFICANCE_LEVEL) > _SCREEN_MARGIN:
            return tail <= PAIRED_SIGNIFICANCE_LEVEL
    return significant_change(changes)[1]


@lru_cache(maxsize=65_536)
def gate_fires(changes: tuple[int, ...], repeat: int, max_drop: float | None) -> bool:
    """Whether diff's gate finds a drop in these per-task changes (passes in head minus passes
    in base, over ``repeat`` pairs each): the task-level test is significant and the mean
    change is negative, and with ``max_drop`` also above that limit."""
    mean = sum(changes) / (len(changes) * repeat) if changes else 0.0
    if mean >= 0:
        return False
    distinguishable = _distinguishable(changes)
    if max_drop is None:
        return distinguishable
    return drop_breaches(-mean, max_drop, distinguishable)


def min_changed_tasks(comparisons: int = 1, level: float = PAIRED_SIGNIFICANCE_LEVEL) -> int:
    """Fewest changed tasks whose sign-flip p (at least 2^(1-K), times ``comparisons`` under
    Holm) can reach ``level``."""
    changed = 1
    while comparisons * 2.0 ** (1 - changed) > level:
        changed += 1
    return changed


def simulate_power(
    rates: Sequence[float],
    repeat: int,
    drop: float,
    model: DropModel,
    max_drop: float | None = None,
    draws: int = SIMULATION_DRAWS,
    seed: int = SIMULATION_SEED,
    decide_against: float | None = None,
) -> PowerEstimate:
    """The chance that diff's gate finds the drop, over ``draws`` simulated pairs of runs.

    With ``decide_against`` the draws stop early, in blocks, once the estimate is more than
    four standard errors from that value (a search only needs the side it lies on).
    """
    import numpy as np

    if not rates:
        return PowerEstimate(0.0, draws)
    generator = np.random.default_rng(seed)
    base = np.asarray(rates, dtype=np.float64)
    head = np.clip(np.asarray(dropped_rates(rates, drop, model), dtype=np.float64), 0.0, 1.0)
    fired = done = 0
    stop = _STOP.get()
    while done < draws:
        if stop is not None and stop():
            raise CancelledError("the power simulation was stopped")
        block = min(_BLOCK if decide_against is None else _SEARCH_BLOCK, draws - done)
        before = generator.binomial(repeat, base, size=(block, len(rates)))
        after = generator.binomial(repeat, head, size=(block, len(rates)))
        for row in np.sort(after - before, axis=1).tolist():
            fired += gate_fires(tuple(row), repeat, max_drop)
        done += block
        if decide_against is not None and done < draws:
            share = fired / done
            spread = math.sqrt(max(share * (1 - share), 0.01) / done)
            if abs(share - decide_against) > 4 * spread:
                break
    return PowerEstimate(fired / done, done)
