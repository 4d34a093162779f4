"""`run --batch`, `--batch-detach` and `--resume-batch STATE`: a planned run executed through
the provider's batch API, waited for here or collected later (on any machine with the key).

The flags are declared here, once; ``run`` calls ``add_batch_flags`` and hands over to
``execute`` after its own checks (budgets, output paths), so a batch run is the same planned
run as a direct one, only executed differently.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from whichtool_tui import limits
from whichtool_tui.commands._argtypes import bounded, number_between
from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.usecases.api import PreparedRun, RunInputs, RunOptions, RunReport


def shard_text(text: str) -> str:
    """``--shard``'s argparse type: ``i/N``, checked by the shard use case's own rule."""
    from whichtool_tui.usecases.shards import shard_spec

    try:
        return shard_spec(text).text
    except WhichtoolError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def add_scale_out_flags(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `run` that take it past one machine: batches and shards."""
    add = parser.add_argument
    add(
        "--shard",
        metavar="SHARD",
        type=shard_text,
        help="I/N: run shard I of N, every N-th task in task-id order (a CI matrix job); "
        "`report merge` combines the shards' JSON reports",
    )
    add(
        "--batch",
        action="store_true",
        help="send the trials through the provider's batch API (openai, openai-chat, "
        "anthropic): the published batch discount, results within 24 h; waits and reports",
    )
    add(
        "--batch-detach",
        action="store_true",
        help="with --batch: submit, write NAME.batch.json beside --out and exit; finish later "
        "with --resume-batch",
    )
    add(
        "--resume-batch",
        metavar="STATE",
        help="finish a detached batch run: the same target, tasks and flags, plus its "
        "NAME.batch.json",
    )
    add(
        "--batch-poll",
        metavar="SECONDS",
        type=number_between(limits.MIN_BATCH_POLL_SECONDS, limits.MAX_BATCH_POLL_SECONDS),
        help=f"seconds between batch status checks (default {limits.DEFAULT_BATCH_POLL_SECONDS:g})",
    )
    add(
        "--batch-max-lines",
        metavar="N",
        type=bounded(limits.BATCH_MAX_LINES),
        help="requests per batch, below the provider's documented limit "
        "(default: that limit: 50,000 OpenAI, 100,000 Anthropic)",
    )


def wants_batch(args: argparse.Namespace) -> bool:
    """True when this run goes through a batch API (submitted now or resumed)."""
    return bool(
        getattr(args, "batch", False)
        or getattr(args, "batch_detach", False)
        or getattr(args, "resume_batch", None)
    )


def check_flags(args: argparse.Namespace) -> None:
    """Refuse batch flag combinations that cannot work, before anything loads."""
    if args.batch_detach and not args.out:
        raise WhichtoolError(
            "batch/detach-needs-out",
            "--batch-detach needs --out: the state file is written beside the report",
            "Pass --out FILE; the state goes to FILE's name + .batch.json.",
        )
    if args.resume_batch and args.batch_detach:
        raise WhichtoolError(
            "batch/conflicting-flags",
            "--resume-batch finishes a detached run; it cannot detach again",
            "Drop --batch-detach.",
        )
    if wants_batch(args) and args.discovery == "deferred":
        raise WhichtoolError(
            "batch/conflicting-flags",
            "--discovery deferred sends two dependent requests per trial; it cannot be batched",
            "Drop --batch, or run deferred discovery direct.",
        )
    for flag, value in (
        ("--batch-poll", args.batch_poll),
        ("--batch-max-lines", args.batch_max_lines),
    ):
        if value is not None and not wants_batch(args):
            raise WhichtoolError(
                "batch/flag-without-batch", f"{flag} applies only with --batch", "Add --batch."
            )


def dry_run_rows(
    args: argparse.Namespace, provider_name: str | None, prepared: PreparedRun
) -> list[tuple[str, str]]:
    """The dry-run plan's batch rows (split and price), when --batch is asked for."""
    if not wants_batch(args):
        return []
    from whichtool_tui.reports.batch_price import dry_run_batch_rows
    from whichtool_tui.usecases.batch import batch_facts_for

    facts = batch_facts_for(provider_name)
    estimate = prepared.estimate
    return dry_run_batch_rows(
        estimate.prompt_tokens_total, prepared.plan.planned, facts, args.batch_max_lines
    )


def _progress() -> Callable[[str], None]:
    """Print the batch progress line on stderr each time it changes."""
    last = [""]

    def show(line: str) -> None:
        if line != last[0]:
            last[0] = line
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    return show


def execute(
    args: argparse.Namespace,
    settings: Settings,
    inputs: RunInputs,
    options: RunOptions,
    prepared: PreparedRun,
    report_format: str,
    finish: Callable[[RunReport], RunReport],
) -> int:
    """Submit (or resume), then detach with the state file or wait, collect and report
    (``finish`` adds what the command adds to every report, such as its shard)."""
    from whichtool_tui.commands.run import _destination, _provider_request, write_outputs
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.reports.run_verdict import run_exit_code
    from whichtool_tui.usecases.batch import (
        BatchOptions,
        batch_facts_for,
        finish_batch_run,
        read_batch_state,
        remove_batch_state,
        state_path_for,
        submit_batch_run,
    )
    from whichtool_tui.usecases.providers import open_provider, open_trial_cache

    request = _provider_request(args, settings, options)
    batch_facts_for(request.name)
    cache = open_trial_cache(args.cache, args.cache_dir)
    sys.stderr.write(_destination(args, settings) + "\n")
    batch = BatchOptions(
        state_path=state_path_for(args.out) if args.out else None,
        poll_seconds=args.batch_poll or limits.DEFAULT_BATCH_POLL_SECONDS,
        max_lines=args.batch_max_lines,
        shard=args.shard,
    )
    shown = redact_paths(str(batch.state_path)) if batch.state_path else "(no --out: none)"
    if args.resume_batch:
        state = read_batch_state(args.resume_batch)
        batch = BatchOptions(
            state_path=Path(args.resume_batch),
            poll_seconds=batch.poll_seconds,
            max_lines=batch.max_lines,
            shard=args.shard,
        )
    else:
        provider = open_provider(request)
        state = run_coroutine(submit_batch_run(inputs, options, prepared, provider, cache, batch))
        sys.stderr.write(
            f"whichtool-tui: submitted {len(state.request_fingerprints):,} requests in "
            f"{len(state.batches)} batch(es) to the {state.api} "
            f"({state.cached:,} trials answered by the cache); batch ids: "
            f"{', '.join(state.ids()) or 'none'}; state: {shown}\n"
        )
    if args.batch_detach:
        sys.stderr.write(
            "whichtool-tui: detached. Finish with the same command, --batch-detach replaced by "
            f"--resume-batch {shown}\n"
        )
        return 0
    provider = open_provider(request)
    report = run_coroutine(
        finish_batch_run(
            inputs, options, prepared, provider, cache, state, batch, on_progress=_progress()
        )
    )
    write_outputs(finish(report), args, settings, report_format)
    if batch.state_path is not None:
        remove_batch_state(batch.state_path, cache)
    return run_exit_code(report)
