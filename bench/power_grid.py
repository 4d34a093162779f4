"""The power planner against an independent simulation of diff's gate, over a grid of designs.

Prints one row per design (tasks x repeats x drop x model): the planner's simulated power with
its Monte Carlo standard error, the independent simulation's, and the difference. 2,000 draws a
side; the test suite checks a smaller grid within 0.05.

    .venv/bin/python bench/power_grid.py [--quick]
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.gate_simulation import independent_power  # noqa: E402
from whichtool_tui.evaluation.power import design_rates  # noqa: E402
from whichtool_tui.evaluation.power_sim import DROP_MODELS, simulate_power  # noqa: E402

TASKS = (5, 10, 20, 50, 100)
REPEATS = (1, 3, 10, 20)
DROPS = (0.05, 0.1, 0.2, 0.3)


def main() -> None:
    quick = "--quick" in sys.argv
    tasks, repeats, drops = ((10, 50), (1, 10), (0.1, 0.3)) if quick else (TASKS, REPEATS, DROPS)
    started = time.perf_counter()
    worst = 0.0
    print("| tasks | repeats | drop | model | planner | ± | independent | difference |")
    print("|---:|---:|---:|---|---:|---:|---:|---:|")
    for count, repeat, drop, model in itertools.product(tasks, repeats, drops, DROP_MODELS):
        planned = simulate_power(design_rates(None, count), repeat, drop, model)
        other = independent_power(count, repeat, drop, model, None)
        worst = max(worst, abs(planned.power - other))
        print(
            f"| {count} | {repeat} | {drop:g} | {model} | {planned.power:.3f} | "
            f"{planned.error:.3f} | {other:.3f} | {planned.power - other:+.3f} |"
        )
    print(f"\nlargest |difference| {worst:.3f}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
