"""Coverage of the task-clustered interval, and size and power of the paired gates, by simulation.

Run: .venv/bin/python bench/coverage.py [--replications N] [--paired-replications N] [--jobs J]
Needs numpy (the ``test`` extra). Prints tables beside their targets; asserts nothing.

Model: a task set is a sample from a population of tasks. Each task has its own success rate,
drawn from a beta distribution with mean ``p`` and intra-task correlation ``rho`` (0: every task
has rate p and repeats are independent; 1: a task always passes or always fails). Each repeat
is a Bernoulli draw at the task's rate. Targets: the 95% task-clustered interval covers ``p`` in
at least 93% of replications in every cell; the task-level gate fires (p <= 0.05) in at most
6% of replications under both nulls.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import numpy as np
except ModuleNotFoundError:  # pragma: no cover - the bench says what it needs
    raise SystemExit("bench/coverage.py needs numpy: pip install -e '.[test]'") from None

from whichtool_tui.evaluation.clustered import clustered_rate
from whichtool_tui.evaluation.permutation import sign_flip_test
from whichtool_tui.evaluation.signtest import sign_test_p_value
from whichtool_tui.evaluation.stats import wilson_interval

TASKS = (10, 20, 50)
REPEATS = (1, 5, 20)
CORRELATIONS = (0.0, 0.5, 1.0)
RATES = (0.5, 0.7, 0.8, 0.9, 0.95)
COVERAGE_TARGET = 0.93
FALSE_POSITIVE_TARGET = 0.06
LEVEL = 0.05


def task_rates(rng: np.random.Generator, mean: float, rho: float, tasks: int) -> np.ndarray:
    """Per-task success rates with the given mean and intra-task correlation."""
    if rho <= 0:
        return np.full(tasks, mean)
    if rho >= 1:
        return (rng.random(tasks) < mean).astype(float)
    scale = (1 - rho) / rho
    return rng.beta(mean * scale, (1 - mean) * scale, tasks)


def coverage_cell(cell: tuple[int, int, float, int, int]) -> tuple[int, int, float, list[float]]:
    """Coverage of the clustered and the trial-level Wilson interval for one (T, R, rho)."""
    tasks, repeats, rho, replications, seed = cell
    rng = np.random.default_rng(seed)
    row: list[float] = []
    for mean in RATES:
        clustered = wilson = 0
        for _ in range(replications):
            successes = rng.binomial(repeats, task_rates(rng, mean, rho, tasks))
            estimate = clustered_rate([(int(k), repeats) for k in successes])
            assert estimate.ci95 is not None
            low, high = estimate.ci95
            clustered += low <= mean <= high
            interval = wilson_interval(int(successes.sum()), tasks * repeats)
            assert interval is not None
            wilson += interval[0] <= mean <= interval[1]
        row += [clustered / replications, wilson / replications]
    return tasks, repeats, rho, row


def paired_cell(cell: tuple[str, float, int, int]) -> tuple[str, float, float, float]:
    """How often each gate fires (p <= 0.05) for one scenario at one correlation."""
    scenario, rho, replications, seed = cell
    rng = np.random.default_rng(seed)
    tasks, repeats, mean = 20, 5, 0.8
    task_fired = trial_fired = 0
    for _ in range(replications):
        base_rates = task_rates(rng, mean, rho, tasks)
        if scenario == "reshuffle null":
            head_rates = task_rates(rng, mean, rho, tasks)
        elif scenario == "unchanged null":
            head_rates = base_rates
        else:
            drop = 0.05 if scenario == "5-point drop" else 0.10
            head_rates = base_rates * (mean - drop) / mean
        base = rng.random((tasks, repeats)) < base_rates[:, None]
        head = rng.random((tasks, repeats)) < head_rates[:, None]
        improved = int((head & ~base).sum())
        regressed = int((base & ~head).sum())
        trial_fired += sign_test_p_value(improved, regressed) <= LEVEL
        changes = [
            Fraction(int(h) - int(b), repeats)
            for h, b in zip(head.sum(1), base.sum(1), strict=True)
        ]
        task_fired += sign_flip_test(changes).p_value <= LEVEL
    return scenario, rho, task_fired / replications, trial_fired / replications


def main() -> None:
    """Print the coverage table, then the false-positive and power table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=1000)
    parser.add_argument("--paired-replications", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    cells = [
        (tasks, repeats, rho, args.replications, 1000 + index)
        for index, (tasks, repeats, rho) in enumerate(
            (t, r, c) for t in TASKS for r in REPEATS for c in CORRELATIONS
        )
    ]
    scenarios = ("unchanged null", "reshuffle null", "5-point drop", "10-point drop")
    paired = [
        (scenario, rho, args.paired_replications, 5000 + index)
        for index, (scenario, rho) in enumerate((s, c) for s in scenarios for c in CORRELATIONS)
    ]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        coverage = list(pool.map(coverage_cell, cells))
        gates = list(pool.map(paired_cell, paired))
    print(
        f"Coverage of 95% intervals ({args.replications} replications per cell; target >= "
        f"{COVERAGE_TARGET:.0%} for the task-clustered interval)"
    )
    print("| tasks | repeats | rho | " + " | ".join(f"p={p:g}" for p in RATES) + " |")
    print("|---:|---:|---:|" + "---:|" * len(RATES))
    worst = 1.0
    worst_wilson = 1.0
    for tasks, repeats, rho, row in coverage:
        shown = []
        for index in range(len(RATES)):
            clustered, wilson = row[2 * index], row[2 * index + 1]
            worst, worst_wilson = min(worst, clustered), min(worst_wilson, wilson)
            shown.append(f"{clustered:.3f} ({wilson:.3f})")
        print(f"| {tasks} | {repeats} | {rho:g} | " + " | ".join(shown) + " |")
    print("cells: task-clustered (trial-level Wilson in brackets)")
    verdict = "meets" if worst >= COVERAGE_TARGET else "MISSES"
    print(
        f"worst task-clustered coverage: {worst:.3f} (target >= {COVERAGE_TARGET:.2f}: "
        f"{verdict}); worst trial-level Wilson: {worst_wilson:.3f}"
    )
    print()
    print(
        f"How often the gate fires at p <= {LEVEL} (20 tasks x 5 repeats, base rate 0.8, "
        f"{args.paired_replications} replications; target <= {FALSE_POSITIVE_TARGET:.0%} "
        "for the task-level gate under both nulls)"
    )
    print("| scenario | rho | task-level sign-flip | trial-level sign test |")
    print("|---|---:|---:|---:|")
    worst_fp = 0.0
    for scenario, rho, task_rate, trial_rate in gates:
        if scenario.endswith("null"):
            worst_fp = max(worst_fp, task_rate)
        print(f"| {scenario} | {rho:g} | {task_rate:.3f} | {trial_rate:.3f} |")
    verdict = "meets" if worst_fp <= FALSE_POSITIVE_TARGET else "MISSES"
    print(
        f"worst task-level false-positive rate: {worst_fp:.3f} (target <= "
        f"{FALSE_POSITIVE_TARGET:.2f}: {verdict})"
    )
    print(f"elapsed: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
