"""`run TARGET`: the routing benchmark, or with --dry-run its plan and price (no model called).

Only flags are declared at import time; the engine, targets and providers load in ``execute``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from whichtool_tui import limits
from whichtool_tui.commands._argtypes import (
    MAX_SAFE_INTEGER,
    add_allow_http_provider,
    add_rerun_flags,
    non_negative_number,
    number_between,
    whole_number,
)
from whichtool_tui.reports.run_formats import RUN_FORMATS

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.usecases.api import (
        DiscoveryOptions,
        PreparedRun,
        RunInputs,
        RunOptions,
        RunReport,
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `run` (defaults None so config values can fill the gaps)."""
    add = parser.add_argument
    add("target", nargs="?", help="snapshot file, server command line, or http(s) URL")
    add(
        "--tasks",
        metavar="FILE",
        help="task set (default: config `tasks`, then whichtool.tasks.yaml/.yml/.json)",
    )
    add(
        "--transport",
        metavar="NAME",
        help="snapshot, stdio, http or legacy-sse (inferred when omitted)",
    )
    add(
        "--provider",
        metavar="NAME",
        help="anthropic, openai, openai-chat, openrouter, together, vllm, ollama, "
        "openai-compatible, mock, keyword or embedding (offline baselines)",
    )
    add("--model", metavar="NAME", help="model name for the provider")
    add("--base-url", metavar="URL", help="override the provider's base URL")
    add_allow_http_provider(parser)
    add_rerun_flags(
        parser,
        seed_help=f"run seed for tool orders and provider seeds (default {limits.DEFAULT_SEED})",
        budget_scope=("real runs above this many trials", "real runs on more tools than this"),
        repeat_help="trials per task",
        timeout_help="seconds per model request, counted from when it is sent (not while it "
        "waits behind --concurrency)",
    )
    add(
        "--temperature",
        metavar="F",
        type=number_between(limits.MIN_TEMPERATURE, limits.MAX_TEMPERATURE),
        help=f"sampling temperature (default {limits.DEFAULT_TEMPERATURE:g})",
    )
    add("--reasoning-effort", metavar="LEVEL", help="forwarded where the API has it")
    add(
        "--max-output-tokens",
        metavar="N",
        type=whole_number(1, limits.MAX_OUTPUT_TOKENS),
        help=f"output cap sent with every request, in every API shape "
        f"(default {limits.DEFAULT_MAX_OUTPUT_TOKENS})",
    )
    add("--format", choices=RUN_FORMATS, default=None, help="output format (default terminal)")
    add("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    add(
        "--cache",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="reuse cached answers for identical requests (default on)",
    )
    add(
        "--cache-dir",
        metavar="DIR",
        help="cache folder (default: the platform cache folder, ~/.cache/whichtool-tui on Linux)",
    )
    add("--min-accuracy", metavar="F", type=number_between(0, 1), help="gate: accuracy >= F")
    add(
        "--max-over-trigger",
        metavar="F",
        type=number_between(0, 1),
        help="gate: over-trigger <= F",
    )
    add(
        "--max-context-tokens",
        metavar="N",
        type=whole_number(0, MAX_SAFE_INTEGER),
        help="gate: surface tokens <= N",
    )
    add(
        "--max-error-rate",
        metavar="F",
        type=number_between(0, 1),
        help="run is invalid above this share of errored trials (default 0.1)",
    )
    add(
        "--min-scored",
        metavar="N",
        type=whole_number(1, MAX_SAFE_INTEGER),
        help="run is invalid below this many scored trials (default 1)",
    )
    add("--only", action="append", metavar="TAG", help="keep tasks with this tag (repeatable)")
    add("--skip", action="append", metavar="TAG", help="drop tasks with this tag (repeatable)")
    add("--dry-run", action="store_true", help="plan and price; call no model")
    add(
        "--seconds-per-trial",
        metavar="SECONDS",
        type=non_negative_number,
        help="wall-clock guess for --dry-run",
    )
    add(
        "--detect",
        type=number_between(0.001, 0.999),
        metavar="DROP",
        help="accuracy drop the --dry-run power plan is sized for (default 0.05)",
    )
    add(
        "--baseline",
        metavar="F",
        help="a pilot run whose per-task rates the --dry-run power plan simulates from",
    )
    add(
        "--max-accuracy-drop",
        type=number_between(0, 1),
        metavar="X",
        help="the diff gate the --dry-run power plan is sized for: it fires only when the "
        "mean drop also exceeds X",
    )
    add(
        "--discovery",
        choices=("upfront", "deferred"),
        default=None,
        help="upfront (default: every tool offered) or deferred: the model gets only a search "
        "tool, the search answers, then the found tools are offered; compared with upfront",
    )
    add(
        "--discovery-variant",
        dest="discovery_variant",
        choices=("search", "names"),
        default=None,
        help="with --discovery deferred: search alone (default), or names: the search tool "
        "also lists the bare tool names and accepts select:NAME",
    )
    add(
        "--retriever",
        metavar="NAME",
        default=None,
        help="with --discovery deferred: the search that answers the query: bm25 (default), "
        "regex, semantic, or a host search profile (anthropic-bm25, anthropic-regex, "
        "claude-code, codex, pi, fastmcp)",
    )
    add(
        "--top-k",
        dest="top_k",
        metavar="N",
        type=whole_number(1, 50),
        help="with --discovery deferred: tools the search returns (default 5)",
    )
    add(
        "--compare-upfront",
        dest="compare_upfront",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --discovery deferred: also run every task upfront and compare (default on)",
    )
    add(
        "--min-similarity",
        dest="min_similarity",
        metavar="F",
        type=number_between(-1, 1),
        help="embedding baseline and semantic search: the similarity floor (default 0.30)",
    )
    add("--config", metavar="FILE", help="whichtool.config.json or .yaml")
    add("--color", action=argparse.BooleanOptionalAction, default=None, help="colour output")
    from whichtool_tui.commands.run_batch import add_scale_out_flags

    add_scale_out_flags(parser)


def build_options(
    args: argparse.Namespace, settings: Settings, *, offline_default: bool = True
) -> RunOptions:
    """The run's options: its flags over config ``trials``/``thresholds`` over the defaults
    (an offline provider's tool limit defaults to the absolute maximum, unless
    ``offline_default`` is off: the TUI's form, where the provider can still change)."""
    from whichtool_tui.usecases.options import (
        ProviderOverrides,
        RunOverrides,
        from_namespace,
        merge_provider,
        merge_run_options,
    )

    provider = merge_provider(from_namespace(ProviderOverrides, args), settings, "flag").name
    chosen = provider if offline_default else None
    return merge_run_options(from_namespace(RunOverrides, args), settings, chosen, face="flag")


def load_inputs(args: argparse.Namespace, settings: Settings, max_tools: int) -> RunInputs:
    """Open the target, read its surface, load and lint the task set (findings to stderr)."""
    from whichtool_tui.text_safety import redact_message
    from whichtool_tui.usecases.run import RunSource, TaskSetBlockedError
    from whichtool_tui.usecases.run import load_inputs as load

    provider_name = args.provider or (settings.provider.name if settings.provider else None)
    try:
        return load(
            RunSource(args.target, args.transport, args.tasks),
            settings,
            max_tools,
            provider_name,
            blocked_hint="Fix the findings above; `whichtool-tui tasks lint` shows them all.",
        )
    except TaskSetBlockedError as blocked:
        for finding in blocked.findings:
            sys.stderr.write(f"  error {finding.code}: {redact_message(finding.message)}\n")
        raise


def write_outputs(
    report: RunReport, args: argparse.Namespace, settings: Settings, report_format: str
) -> None:
    """stdout or --out, then any config ``report.formats`` as ``<report.out>.<ext>``."""
    from whichtool_tui.headless.output import deliver, deliver_extra_formats
    from whichtool_tui.reports.run_formats import render_run

    deliver(
        lambda colour: render_run(report, report_format, colour),
        args.out,
        f"{report_format} report",
        args.color,
    )
    # A terminal report already printed to stdout is not written again as a file.
    terminal_printed = report_format == "terminal" and not args.out
    deliver_extra_formats(
        lambda extra: render_run(report, extra),
        settings.report.out,
        [f for f in settings.report.formats or [] if not (terminal_printed and f == "terminal")],
        "report",
    )


def discovery_options(args: argparse.Namespace, settings: Settings) -> DiscoveryOptions | None:
    """The deferred-discovery settings through the options merge (None: an upfront run)."""
    from whichtool_tui.usecases.options import (
        DiscoveryOverrides,
        from_namespace,
        merge_discovery_options,
    )

    return merge_discovery_options(from_namespace(DiscoveryOverrides, args), settings)


def _provider_request(
    args: argparse.Namespace, settings: Settings, options: RunOptions | None = None
) -> Any:
    """This command's provider flags merged over the config: the one provider builder's request."""
    from whichtool_tui.usecases.options import ProviderOverrides, from_namespace, merge_provider
    from whichtool_tui.usecases.providers import ProviderRequest

    return ProviderRequest.of(
        merge_provider(from_namespace(ProviderOverrides, args), settings, "flag"),
        allow_http=args.allow_http_provider,
        timeout=None if options is None else options.timeout,
        max_output_tokens=None if options is None else options.max_output_tokens,
        min_similarity=args.min_similarity,
    )


async def _spend(
    inputs: RunInputs,
    options: RunOptions,
    args: argparse.Namespace,
    settings: Settings,
    prepared: PreparedRun,
) -> RunReport:
    from whichtool_tui.headless.progress import RunProgress
    from whichtool_tui.usecases.providers import open_provider, open_trial_cache
    from whichtool_tui.usecases.run import spend

    cache = open_trial_cache(args.cache, args.cache_dir)
    provider = open_provider(_provider_request(args, settings, options))
    sys.stderr.write(_destination(args, settings) + "\n")
    progress = RunProgress()
    discovery = discovery_options(args, settings)
    if discovery is not None and discovery.compare_upfront:
        sys.stderr.write(
            "whichtool-tui: deferred discovery: the upfront arm runs first (no progress "
            "shown), then each deferred trial sends a search step and a call step\n"
        )
    try:
        return await spend(
            inputs,
            options,
            prepared,
            provider,
            cache=cache,
            sink=progress,
            discovery=discovery,
        )
    finally:
        progress.close()


def _destination(args: argparse.Namespace, settings: Settings) -> str:
    """Where this run's requests and key go, checked by the key-routing rules."""
    from whichtool_tui.usecases.providers import provider_destination

    return provider_destination(_provider_request(args, settings))


def _check_outputs(args: argparse.Namespace, settings: Settings) -> None:
    """Every file the run will write is checked before the first paid request."""
    from whichtool_tui.files import check_output_path
    from whichtool_tui.reports.inspect_json import FORMAT_EXTENSIONS

    if args.out:
        check_output_path(args.out)
    if settings.report.out:
        inputs = [path for path in (args.config, settings.tasks, args.target) if path]
        for extra in settings.report.formats or []:
            check_output_path(
                f"{settings.report.out}.{FORMAT_EXTENSIONS[extra]}", inputs=inputs, from_config=True
            )


def opens_tui(args: argparse.Namespace) -> bool:
    """The Run screen opens on a terminal unless --dry-run, --format or --out asks for output.

    A deferred-discovery run prints too: the Run screen sends every tool upfront (its report
    opens on Results with `open`).
    """
    from whichtool_tui.commands._parser import wants_ui
    from whichtool_tui.commands.run_batch import wants_batch

    deferred = args.discovery == "deferred"
    headless = args.dry_run or args.format or args.out or deferred or wants_batch(args)
    return not headless and wants_ui(args)


def _open_in_ui(args: argparse.Namespace, settings: Settings, options: RunOptions) -> int:
    """The interactive face: the plan on the Run screen; nothing is spent until the user runs it."""
    from whichtool_tui.ui.app import StartPoint, run_app
    from whichtool_tui.ui.engine import start_target
    from whichtool_tui.ui.session import ReviewOptions, RunForm
    from whichtool_tui.usecases.options import ProviderOverrides, from_namespace, merge_provider
    from whichtool_tui.usecases.tasks import load_tasks
    from whichtool_tui.usecases.tasks import task_file as resolve_task_file

    target = start_target(args.target, args.transport, settings)
    task_file = resolve_task_file(args.tasks, settings)
    load_tasks(task_file)  # a broken task set is a one-line error before the app opens
    tasks = str(task_file)
    chosen = merge_provider(from_namespace(ProviderOverrides, args), settings, "flag")
    form = RunForm(
        provider=chosen.name or "keyword",
        model=chosen.model,
        base_url=chosen.base_url,
        base_url_source=chosen.base_url_source,
        options=options,
        cache=args.cache,
        cache_dir=args.cache_dir,
    )
    start = StartPoint(
        target=target,
        tasks=tasks,
        section="run",
        review=ReviewOptions(config=args.config),
        run_form=form,
        settings=settings,
        exit_code=_ui_exit,
    )
    return run_app(debug=bool(getattr(args, "debug", False)), start=start)


def _ui_exit(session: Any) -> int:
    """After the Run screen closes: the verdict of a run finished there, else 0 (none spent)."""
    from whichtool_tui.reports.run_verdict import run_exit_code

    return 0 if session.run is None else run_exit_code(session.run)


def execute(args: argparse.Namespace) -> int:
    """Run `run`: load, plan, then dry-run or spend, render, and exit per the run's health."""
    from whichtool_tui.commands import run_batch
    from whichtool_tui.config import load_settings
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.reports.run_verdict import run_exit_code
    from whichtool_tui.usecases.run import check_budgets, power_plan, prepare

    run_batch.check_flags(args)
    report_format = args.format or "terminal"
    settings = load_settings(args.config)
    if opens_tui(args):  # the form's provider can change: keep the paid tool limit there
        return _open_in_ui(args, settings, build_options(args, settings, offline_default=False))
    options = build_options(args, settings)
    discovery_options(args, settings)  # stray deferred-only flags are refused before anything loads
    inputs = load_inputs(args, settings, options.max_tools)
    from whichtool_tui.usecases.shards import attach_shard, shard_prepared

    full = prepared = prepare(inputs, options)
    if args.shard:
        prepared = shard_prepared(inputs, options, full, args.shard)

    def finish(report: RunReport) -> RunReport:
        """The report as this command writes it: with its shard block when sharded."""
        return attach_shard(report, inputs, options, full, args.shard) if args.shard else report

    if args.dry_run:
        from whichtool_tui.reports.run_terminal import render_dry_run
        from whichtool_tui.text_safety import ascii_safe
        from whichtool_tui.usecases.options import from_config

        destination = _destination(args, settings)
        configured = from_config(options, skip=("max_trials", "max_tools"))
        config_row = [("from config", ascii_safe(", ".join(configured)))] if configured else []
        sys.stdout.write(
            render_dry_run(
                prepared,
                len(inputs.tools),
                options.max_trials,
                options.max_tools,
                inputs.task_set_source,
                destination,
                power_plan(prepared, options),
                [
                    *config_row,
                    *run_batch.dry_run_rows(args, _provider_request(args, settings).name, prepared),
                ],
                options.sources,
            )
        )
        return 0
    check_budgets(inputs, prepared, options)
    _check_outputs(args, settings)
    if run_batch.wants_batch(args):
        return run_batch.execute(args, settings, inputs, options, prepared, report_format, finish)
    report = finish(run_coroutine(_spend(inputs, options, args, settings, prepared)))
    write_outputs(report, args, settings, report_format)
    return run_exit_code(report)
