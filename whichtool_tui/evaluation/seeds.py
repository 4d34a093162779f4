"""The run's reproducible randomness: 32-bit FNV-1a, mulberry32 and a seeded Fisher-Yates.

These match the upstream format bit for bit so that a seed names the same tool orders here and
there; all arithmetic is on unsigned 32-bit integers, as JavaScript's ``>>> 0`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

_MASK = 0xFFFFFFFF
FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193
MULBERRY_INCREMENT = 0x6D2B79F5
GOLDEN = 0x9E3779B9
ATTEMPT_STEP = 0x85EBCA6B

T = TypeVar("T")


def _imul(a: int, b: int) -> int:
    """Unsigned result of a 32-bit integer multiply (``Math.imul(a, b) >>> 0``)."""
    return (a * b) & _MASK


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over UTF-16 code units, as a JavaScript string is hashed."""
    value = FNV_OFFSET
    encoded = text.encode("utf-16-le")
    for index in range(0, len(encoded), 2):
        value ^= encoded[index] | (encoded[index + 1] << 8)
        value = _imul(value, FNV_PRIME)
    return value


def mulberry32(seed: int) -> Callable[[], float]:
    """A mulberry32 generator yielding floats in [0, 1)."""
    state = seed & _MASK

    def next_float() -> float:
        nonlocal state
        state = (state + MULBERRY_INCREMENT) & _MASK
        t = _imul(state ^ (state >> 15), 1 | state)
        t = ((t + _imul(t ^ (t >> 7), 61 | t)) & _MASK) ^ t
        return ((t ^ (t >> 14)) & _MASK) / 4294967296

    return next_float


def trial_seed(run_seed: int, task_id: str, trial_index: int) -> int:
    """The per-(task, trial) seed; also sent to providers that honour a seed."""
    return (fnv1a(f"{run_seed}:{task_id}:{trial_index}") ^ _imul(trial_index + 1, GOLDEN)) & _MASK


def attempt_seed(base: int, attempt: int) -> int:
    """The seed of the n-th reshuffle when an order was already used for the task."""
    return (base + attempt * ATTEMPT_STEP) & _MASK


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """Fisher-Yates from the last position down, driven by mulberry32(seed)."""
    result = list(items)
    random = mulberry32(seed)
    for index in range(len(result) - 1, 0, -1):
        swap = int(random() * (index + 1))
        result[index], result[swap] = result[swap], result[index]
    return result
