"""The headless `bout --trials N` and `bout --defence CMD`: a series of bouts, one report.

``--trials`` repeats the bout with a model seat and prints per-atom rates; ``--defence`` runs the
fixture bare and behind the user's proxy, honest and lab, and prints the conformance table.
``-o`` keeps the report (JSON, every receipt inside); ``--format`` picks the stdout face.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def run_series_command(args: argparse.Namespace, early: Any = None) -> int:
    """Plan once, run the series, print the chosen face, keep the JSON with -o."""
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.files import write_atomic
    from whichtool_tui.usecases.bout import (
        build_plan,
        run_defence_series,
        run_trial_series,
        series_json,
    )
    from whichtool_tui.usecases.series_text import series_report_text

    if early is not None:
        early.close()  # a series starts its own fixture processes
    plan = build_plan(args)
    report: Any
    if args.defence is not None:
        report = run_coroutine(run_defence_series(plan, args.defence))
        sys.stdout.write(series_report_text(report, args.format))
        failing = report.summary["passed_through"] + report.summary["false_alarm"]
        failing += report.summary["error"]
    else:
        report = run_coroutine(run_trial_series(plan, args.trials))
        sys.stdout.write(series_report_text(report, args.format))
        failing = sum(atom.failed + atom.errors for atom in report.atoms)
    if args.output:
        written = write_atomic(args.output, series_json(report))
        sys.stderr.write(f"Report written to {written}\n")
    if args.strict and failing:
        return 1
    return 0
