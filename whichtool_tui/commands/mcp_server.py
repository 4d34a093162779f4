"""`mcp --config F.json`: whichtool-tui as an MCP server for agents, over stdio.

Only flags are declared at import time; the SDK and the engine load in ``execute``. The operator
decides here what agents may do: spend money, name targets, switch providers.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from whichtool_tui.commands._argtypes import add_allow_http_provider, whole_number
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS, ABSOLUTE_MAX_TRIALS

if TYPE_CHECKING:
    from whichtool_tui.server.options import ServerOptions


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `mcp` (no positionals: the target comes from the config)."""
    add = parser.add_argument
    add("--config", metavar="FILE", help="JSON config (no discovery; default: empty)")
    add(
        "--allow-paid-runs",
        action="store_true",
        help="let run_evaluation call providers that send prompts to a remote API",
    )
    add(
        "--allow-dynamic-targets",
        action="store_true",
        help="let agents name a target and transport (snapshots must stay in the cwd)",
    )
    add(
        "--allow-provider-overrides",
        action="store_true",
        help="let agents choose the provider and model",
    )
    add_allow_http_provider(parser)
    add(
        "--max-trials",
        metavar="N",
        type=whole_number(1, ABSOLUTE_MAX_TRIALS),
        help="refuse runs above this many trials (default config trials.maxTrials, else 50)",
    )
    add(
        "--max-tools",
        metavar="N",
        type=whole_number(1, ABSOLUTE_MAX_TOOLS),
        help="refuse runs on more tools (default config trials.maxTools, else 6)",
    )
    add("--cache", action="store_true", help="reuse cached trial answers (default off)")
    add(
        "--cache-dir",
        metavar="DIR",
        help="cache folder (default: the platform cache folder, ~/.cache/whichtool-tui on Linux)",
    )
    add(
        "--result-file",
        metavar="FILE",
        help="write each full run report here; agents get only a summary and the path",
    )


def _budget_flags(args: argparse.Namespace) -> argparse.Namespace:
    """Only the budget flags: the server's other flags are not run options."""
    return argparse.Namespace(max_trials=args.max_trials, max_tools=args.max_tools)


def server_options(args: argparse.Namespace) -> ServerOptions:
    """The operator's choices: the flags over the JSON config over the defaults, like `run`'s."""
    from pathlib import Path

    from whichtool_tui.config import Settings, load_settings
    from whichtool_tui.server.options import ServerOptions
    from whichtool_tui.usecases.options import RunOverrides, from_namespace, merge_run_options

    settings = Settings()
    if args.config is not None:
        if not args.config.lower().endswith(".json"):
            raise WhichtoolError(
                "mcp/unsafe-config-format",
                "The MCP server reads JSON configs only",
                "Write the same keys to a .json file and pass it with --config.",
            )
        settings = load_settings(args.config)
    if args.result_file:
        from whichtool_tui.files import check_output_path

        check_output_path(args.result_file)
    flags = from_namespace(RunOverrides, _budget_flags(args))
    budgets = merge_run_options(flags, settings, face="flag")
    return ServerOptions(
        settings=settings,
        allow_paid_runs=args.allow_paid_runs,
        allow_dynamic_targets=args.allow_dynamic_targets,
        allow_provider_overrides=args.allow_provider_overrides,
        allow_http_provider=args.allow_http_provider,
        max_trials=budgets.max_trials,
        max_tools=budgets.max_tools,
        budget_sources={name: budgets.sources[name] for name in ("max_trials", "max_tools")},
        cache=args.cache,
        cache_dir=args.cache_dir,
        result_file=args.result_file,
        workspace=Path.cwd(),
    )


def execute(args: argparse.Namespace) -> int:
    """Serve MCP on stdin/stdout until the client disconnects."""
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.server.app import serve_stdio

    run_coroutine(serve_stdio(server_options(args)))
    return 0
