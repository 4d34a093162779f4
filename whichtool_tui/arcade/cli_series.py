"""The headless `bout --trials N` and `bout --defence CMD`: a series of bouts, one report.

``--trials`` repeats the bout with a model seat and prints per-atom rates; ``--defence`` runs the
fixture bare and behind the user's proxy, honest and lab, and prints the conformance table.
``-o`` keeps the report (JSON, every receipt inside); ``--format`` picks the stdout face.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from whichtool_tui.errors import WhichtoolError


def wants_series(args: argparse.Namespace) -> bool:
    """True when the flags ask for a series rather than one bout."""
    return getattr(args, "trials", None) is not None or getattr(args, "defence", None) is not None


def check_series_flags(args: argparse.Namespace) -> None:
    """The series flags' own refusals, before anything starts."""
    from whichtool_tui.arcade.trials import MAX_TRIALS

    trials = getattr(args, "trials", None)
    defence = getattr(args, "defence", None)
    if trials is not None and not 1 <= trials <= MAX_TRIALS:
        raise WhichtoolError(
            "bout/invalid-flag",
            f"--trials {trials}: must be between 1 and {MAX_TRIALS}",
            "For example: --trials 20 --agent ollama:qwen2.5:7b",
        )
    if defence is None:
        return
    if trials is not None:
        raise WhichtoolError(
            "bout/invalid-flag",
            "--defence and --trials do not combine",
            "Measure the defence once with a scripted seat, or the model's rates without it.",
        )
    if args.target != "fixture":
        raise WhichtoolError(
            "bout/invalid-flag",
            "--defence runs in front of the bundled fixture: use --target fixture",
            "The fixture knows every attack and its honest twin; a live server does not.",
        )
    if not args.allow_live:
        raise WhichtoolError(
            "bout/live-refused",
            "--defence runs your proxy, a program we did not write: pass --allow-live",
            "The fixture behind it stays the bundled one.",
        )
    if getattr(args, "fixture_mode", "lab") != "lab":
        raise WhichtoolError(
            "bout/invalid-flag",
            "--defence runs both fixture modes itself: drop --fixture-mode",
            "Each atom runs lab and honest, bare and behind the defence.",
        )
    from whichtool_tui.arcade.conformance import expand_defence
    from whichtool_tui.arcade.plan import fixture_argv

    expand_defence(defence, fixture_argv())


def run_series_command(args: argparse.Namespace, early: Any = None) -> int:
    """Plan once, run the series, print the chosen face, keep the JSON with -o."""
    import anyio

    from whichtool_tui.arcade.cli_bout import build_plan
    from whichtool_tui.arcade.series_render import render_conformance, render_series
    from whichtool_tui.files import write_atomic

    if early is not None:
        early.close()  # a series starts its own fixture processes
    plan = build_plan(args)
    report: Any
    if args.defence is not None:
        from whichtool_tui.arcade.conformance import run_conformance

        report = anyio.run(run_conformance, plan, args.defence)
        sys.stdout.write(render_conformance(report, args.format))
        failing = report.summary["passed_through"] + report.summary["false_alarm"]
        failing += report.summary["error"]
    else:
        from whichtool_tui.arcade.trials import run_trials

        report = anyio.run(run_trials, plan, args.trials)
        sys.stdout.write(render_series(report, args.format))
        failing = sum(atom.failed + atom.errors for atom in report.atoms)
    if args.output:
        from whichtool_tui.arcade.receipt import canonical_json

        written = write_atomic(args.output, canonical_json(report.model_dump(mode="json")))
        sys.stderr.write(f"Report written to {written}\n")
    if args.strict and failing:
        return 1
    return 0
