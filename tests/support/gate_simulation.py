"""An independent simulation of diff's accuracy gate, sharing no code with the planner: its own
prior, drop models, random numbers (Python's ``random``) and exact sign-flip test (a direct
convolution of probabilities). The planner's power is checked against it."""

from __future__ import annotations

import random
from typing import Literal

import numpy as np

Model = Literal["spread", "concentrated"]


def independent_rates(tasks: int, drop: float, model: Model) -> tuple[list[float], list[float]]:
    base = [0.5 + (2 * i + 1) / (4 * tasks) for i in range(tasks)]
    if model == "spread":
        # Closed form: sort the rates; delta solves sum(min(p, delta)) = drop * tasks.
        ordered, need = sorted(base), drop * tasks
        for k, rate in enumerate(ordered):
            delta = (need - sum(ordered[:k])) / (tasks - k)
            if delta <= rate:
                break
        return base, [p - min(p, delta) for p in base]
    head, need = list(base), drop * tasks
    for index in sorted(range(tasks), key=lambda i: -base[i]):
        cut = min(head[index], need)
        head[index] -= cut
        need -= cut
    return base, head


def exact_sign_flip_p(changes: list[int]) -> float:
    nonzero = [abs(c) for c in changes if c]
    if not nonzero:
        return 1.0
    law = np.array([1.0])
    for magnitude in nonzero:
        step = np.zeros(2 * magnitude + 1)
        step[0] = step[-1] = 0.5
        law = np.convolve(law, step)
    reach = (len(law) - 1) // 2
    sums = np.abs(np.arange(-reach, reach + 1))
    return float(law[sums >= abs(sum(changes))].sum())


def independent_power(
    tasks: int, repeat: int, drop: float, model: Model, cap: float | None, draws: int = 2_000
) -> float:
    rng = random.Random(tasks * 1000 + repeat)
    base, head = independent_rates(tasks, drop, model)
    fired = 0
    for _ in range(draws):
        changes = [
            sum(rng.random() < q for _ in range(repeat))
            - sum(rng.random() < p for _ in range(repeat))
            for p, q in zip(base, head, strict=True)
        ]
        mean_drop = -sum(changes) / (tasks * repeat)
        found = any(changes) and mean_drop > 0 and exact_sign_flip_p(changes) <= 0.05
        fired += found and (cap is None or mean_drop > cap)
    return fired / draws
