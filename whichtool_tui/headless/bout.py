"""The headless `bout`: run the plan, print the tape, ask for the operator's call, then score.

Order matters: the timeline (no scores) is printed first, the operator's guess is asked next
(when stdin is a terminal and --no-prompt is absent), and only then the house call.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.usecases.api import BoutPlan, BoutReceipt, OperatorCall
from whichtool_tui.usecases.bout import build_plan


def ask_operator(no_prompt: bool) -> OperatorCall:
    """The guess before the score (cognitive forcing); skipped without a terminal."""
    if no_prompt or not sys.stdin.isatty():
        return OperatorCall(recorded=False, guess=None, skipped=True)
    answer = input("Your call before the score: followed / held / unclear [unclear]: ")
    guess = answer.strip().lower() or "unclear"
    if guess not in ("followed", "held", "unclear"):
        guess = "unclear"
    return OperatorCall(recorded=True, guess=guess, skipped=False)


def exit_code(receipt: BoutReceipt, strict: bool) -> int:
    """0 as upstream; with --strict, 2 on any ERROR, else 1 on any FAIL."""
    if not strict:
        return int(ExitCode.OK)
    results = {atom.result for atom in receipt.atoms}
    if "error" in results:
        return int(ExitCode.ERROR)
    if "fail" in results:
        return int(ExitCode.THRESHOLD_FAILED)
    return int(ExitCode.OK)


def _forked_fixture_parent(plan: BoutPlan) -> Any:
    """For the fixture: fork the fixtures' warm parent from here, with their imports loaded."""
    from whichtool_tui.arcade import zygote

    if plan.kind != "fixture" or not zygote.can_fork_here():
        return None
    zygote.warm_imports()
    return zygote.start_zygote(fork_here=True)


def run_bout_command(args: argparse.Namespace, early: Any = None) -> int:
    """Plan, run, print the tape, ask, print the call, write the receipt.

    ``early`` is the fixture's warm parent when the caller started it before its imports
    (closed here if a flag is refused; it has run no server yet).
    """
    from whichtool_tui.usecases.bout import wants_series
    from whichtool_tui.usecases.bout_ci import CI_FORMATS

    fmt = getattr(args, "format", "terminal")
    if wants_series(args) and fmt in CI_FORMATS:
        if early is not None:
            early.close()
        raise WhichtoolError(
            "bout/invalid-flag",
            f"--format {fmt} is for a single bout; --trials and --defence print terminal, "
            "json or markdown",
            "Drop --trials/--defence, or use --format json.",
        )
    if wants_series(args):
        from whichtool_tui.headless.series import run_series_command

        return run_series_command(args, early)
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.files import write_atomic
    from whichtool_tui.gc_phases import gc_paused
    from whichtool_tui.usecases.bout import receipt_text, run_planned_bout
    from whichtool_tui.usecases.receipts import ReceiptRead, score_text, write_receipt_timeline

    try:
        plan = build_plan(args)
    except BaseException:
        if early is not None:
            early.close()
        raise
    with gc_paused():  # the SDK import and a short bout: long-lived objects, little garbage
        plan.zygote = early or _forked_fixture_parent(plan)
        receipt = run_coroutine(run_planned_bout(plan))
    if fmt in CI_FORMATS:
        from whichtool_tui.usecases.bout_ci import bout_ci_text

        receipt.operator_call = ask_operator(True)
        if args.output:
            write_atomic(args.output, receipt_text(receipt))
        sys.stdout.write(bout_ci_text(receipt, fmt))
        return exit_code(receipt, bool(args.strict))
    # The tape first, from the receipt's JSON as saved: no scores until the operator's call.
    tape = ReceiptRead("", json.loads(receipt_text(receipt)), None)
    write_receipt_timeline(tape, sys.stdout)
    sys.stdout.flush()
    receipt.operator_call = ask_operator(bool(args.no_prompt))
    sys.stdout.write(score_text(receipt))
    if args.output:
        written = write_atomic(args.output, receipt_text(receipt))
        sys.stdout.write(f"Receipt written to {written}\n")
    else:
        sys.stdout.write("Pass -o receipt.json to keep the tape and the house call.\n")
    return exit_code(receipt, bool(args.strict))
