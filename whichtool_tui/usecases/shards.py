"""The shard use cases: restrict a planned run to shard ``i/N``, record the shard in its report,
and merge every shard's report into the one the unsharded run would have written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import SHARD_COUNT

if TYPE_CHECKING:
    from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions
    from whichtool_tui.evaluation.report_model import RunReport
    from whichtool_tui.evaluation.shards import ShardSpec

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def shard_spec(text: str) -> ShardSpec:
    """``i/N`` as a shard (1 <= i <= N <= 1000), or a one-line ``run/invalid-shard`` error."""
    from whichtool_tui.evaluation.shards import ShardSpec

    found = _SHARD.match(text)
    if found:
        index, count = int(found.group(1)), int(found.group(2))
        if SHARD_COUNT.contains(count) and 1 <= index <= count:
            return ShardSpec(index, count)
    raise WhichtoolError(
        "run/invalid-shard",
        f"--shard {text!r} is not i/N with 1 <= i <= N <= {SHARD_COUNT.high}",
        "Pass --shard like 2/4 (the second of four shards).",
    )


def shard_prepared(
    inputs: RunInputs, options: RunOptions, prepared: PreparedRun, text: str
) -> PreparedRun:
    """The prepared run restricted to shard ``text``, priced again for its own trials."""
    from dataclasses import replace

    from whichtool_tui.evaluation.plan import estimate_run
    from whichtool_tui.evaluation.shards import shard_plan

    plan = shard_plan(prepared.plan, shard_spec(text))
    estimate = estimate_run(
        plan, inputs.context_cost.total, options.concurrency, options.seconds_per_trial
    )
    return replace(
        prepared,
        plan=plan,
        estimate=estimate,
        within_trial_limit=plan.planned <= options.max_trials,
    )


def attach_shard(
    report: RunReport, inputs: RunInputs, options: RunOptions, full: PreparedRun, text: str
) -> RunReport:
    """The shard's report with its shard block (the full plan's fingerprint and task order)."""
    from whichtool_tui.evaluation.shards import shard_block

    block = shard_block(report, inputs, options, full.plan, shard_spec(text))
    return report.model_copy(update={"shard": block})


def merge_reports(paths: Sequence[str]) -> RunReport:
    """Every shard's saved report, read strictly, merged into one (refusing mismatches)."""
    from whichtool_tui.evaluation.shards import merge_shards
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.usecases.saved_runs import load_report

    if len(paths) < 2:
        raise WhichtoolError(
            "cli/missing-argument",
            "`report merge` needs at least two shard reports",
            "Usage: whichtool-tui report merge SHARD1.json SHARD2.json ... [--out FILE]",
        )
    return merge_shards([(redact_paths(path), load_report(path)) for path in paths])
