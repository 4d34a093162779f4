"""`inspect TARGET`: the free static review of a tool surface (no model, no key).

Only flags are declared at import time; targets, the engine and the renderers load in
``execute``. ``tools/list`` is read exactly once; ``--save-snapshot`` writes that same listing.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from whichtool_tui.commands._argtypes import MAX_SAFE_INTEGER, number_between, whole_number
from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.limits import INSPECT_MAX_TOOLS

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.usecases.api import InspectReport, InspectResult


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `inspect`."""
    add = parser.add_argument
    add(
        "target",
        nargs="*",
        metavar="TARGET",
        help="a snapshot .json, an http(s):// URL, or a command with --transport stdio "
        "(default: the config target)",
    )
    add("--transport", metavar="NAME", help="snapshot, stdio, http or legacy-sse (alias sse)")
    add(
        "--format",
        default=None,
        metavar="FORMAT",
        help="terminal (default), json, markdown, junit, badge, sarif",
    )
    add("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    add(
        "--max-context-tokens",
        dest="max_context_tokens",
        metavar="N",
        type=whole_number(0, MAX_SAFE_INTEGER),
        help="fail (exit 1) when the estimated surface tokens exceed N",
    )
    add(
        "--max-tools",
        dest="max_tools",
        metavar="N",
        type=whole_number(1, INSPECT_MAX_TOOLS),
        help="warn above this many tools (default 6, at most 100,000; config trials.maxTools)",
    )
    add(
        "--provider",
        metavar="NAME",
        help="label the token estimate with the provider it approximates",
    )
    add("--config", metavar="FILE", help="whichtool.config.json or .yaml")
    add(
        "--save-snapshot",
        dest="save_snapshot",
        metavar="FILE",
        help="also save tools/list as served",
    )
    add(
        "--tasks",
        metavar="FILE",
        help="also review findability: would a deferring host's tool search find each "
        "task's expected tool? (task set .yaml/.json)",
    )
    add(
        "--retriever",
        action="append",
        metavar="NAME",
        help="with --tasks: bm25, regex, semantic, a host search profile (anthropic-bm25, "
        "anthropic-regex, claude-code, codex, pi, fastmcp) or hosts for all six (repeatable; "
        "default bm25 and regex, plus semantic when the embedding extra is installed)",
    )
    add(
        "--min-similarity",
        dest="min_similarity",
        metavar="F",
        type=number_between(-1, 1),
        help="with --tasks: the semantic search's confidence floor (default 0.30)",
    )
    add(
        "--host",
        action="append",
        metavar="NAME",
        help="also check compatibility with a host profile (repeatable; `all`; see docs/hosts.md)",
    )
    add(
        "--require-host",
        dest="require_host",
        action="append",
        metavar="NAME",
        help="like --host, and exit 1 when that host is incompatible (repeatable; `all`)",
    )
    add(
        "--host-server-name",
        dest="host_server_name",
        metavar="NAME",
        help="the server name hosts prefix tool names with (Claude Code: mcp__NAME__tool; "
        "default: the server's own name)",
    )
    add(
        "--host-fix-out",
        dest="host_fix_out",
        metavar="FILE",
        help="write an RFC 6902 patch that makes the surface fit the named hosts where a "
        "mechanical fix exists",
    )
    add("--color", action=argparse.BooleanOptionalAction, default=None, help="colour output")
    from whichtool_tui.commands.inspect_targets import add_target_flags

    add_target_flags(parser)


def _one_target(args: argparse.Namespace) -> str | None:
    targets: list[str] = args.target or []
    if len(targets) > 1:
        raise WhichtoolError(
            "cli/too-many-targets",
            "inspect takes one target",
            'Quote a stdio command line as one argument: --transport stdio "node server.js".',
        )
    return targets[0] if targets else None


def _format(args: argparse.Namespace) -> str:
    from whichtool_tui.reports.inspect_json import INSPECT_FORMATS

    chosen = args.format or "terminal"
    if chosen not in INSPECT_FORMATS:
        raise WhichtoolError(
            "cli/unknown-format",
            f"Unknown inspect format `{chosen}`. Available: {', '.join(INSPECT_FORMATS)}",
            "html exists for run reports only.",
        )
    return chosen


def build_report(args: argparse.Namespace, settings: Settings, target: str | None) -> InspectResult:
    """The inspect use case with this command's flags; says on stderr what --save-snapshot wrote."""
    from whichtool_tui.usecases.inspect import inspect, request_from_flags

    request = request_from_flags(args, target)
    result = inspect(request, settings)
    if result.host_fix_operations is not None:
        from whichtool_tui.redact import redact_paths

        sys.stderr.write(
            f"Wrote {result.host_fix_operations} patch operation(s) to "
            f"{redact_paths(args.host_fix_out)} (applies to {result.host_fix_applies_to})\n"
        )
    if args.save_snapshot:
        from whichtool_tui.redact import redact_paths

        count = result.saved_tools
        sys.stderr.write(
            f"Saved {count} tool{'' if count == 1 else 's'} to {redact_paths(args.save_snapshot)}\n"
        )
    return result


def write_outputs(
    report: InspectReport, args: argparse.Namespace, settings: Settings, report_format: str
) -> None:
    """stdout or --out, then config ``report.formats`` as ``<report.out>.<ext>`` (no html)."""
    from whichtool_tui.headless.output import deliver, deliver_extra_formats
    from whichtool_tui.reports.colour import output_width
    from whichtool_tui.reports.inspect_json import render_inspect, render_inspect_json_chunks

    extra_formats = [
        extra
        for extra in settings.report.formats or []
        if extra != "html" and not (extra == "terminal" and not args.out)
    ]
    artifact = None
    if "sarif" in (report_format, *extra_formats):
        from whichtool_tui.reports.inspect_sarif import sarif_artifact

        artifact = sarif_artifact(
            report, saved_snapshot=args.save_snapshot, config_path=settings.source
        )

    def render(color: bool) -> str | list[bytes | memoryview]:
        if report_format == "json":  # the largest output: written in pieces, never joined
            return render_inspect_json_chunks(report)
        if args.out:
            return render_inspect(report, report_format, sarif_artifact=artifact)
        return render_inspect(
            report,
            report_format,
            color=color,
            width=output_width(sys.stdout),
            sarif_artifact=artifact,
        )

    deliver(render, args.out, f"{report_format} report", args.color)
    deliver_extra_formats(
        lambda extra: render_inspect(report, extra, sarif_artifact=artifact),
        settings.report.out,
        extra_formats,
        "report",
    )


def opens_tui(args: argparse.Namespace) -> bool:
    """The Surface screen opens on a terminal unless a flag asks for a file or a format.

    --out, --format and --save-snapshot are outputs, so they print; --max-tools,
    --max-context-tokens and --provider shape the review the screen shows.
    """
    from whichtool_tui.commands._parser import wants_ui

    asks_hosts = args.host or args.require_host or args.host_fix_out
    return not (args.out or args.format or args.save_snapshot or asks_hosts) and wants_ui(args)


def _open_in_ui(args: argparse.Namespace, settings: Settings, target: str | None) -> int:
    """The interactive face: snapshot, stdio, http or the config target on the Surface screen."""
    from whichtool_tui.ui.app import StartPoint, run_app
    from whichtool_tui.ui.engine import start_target
    from whichtool_tui.ui.session import ReviewOptions

    review = ReviewOptions(args.config, args.max_tools, args.max_context_tokens, args.provider)
    start = StartPoint(
        target=start_target(target, args.transport, settings),
        tasks=args.tasks,  # the Surface screen's found@5 column reads the open task set
        section="surface",
        review=review,
        settings=settings,
        exit_code=_ui_exit,
    )
    return run_app(debug=bool(getattr(args, "debug", False)), start=start)


def _ui_exit(session: Any) -> int:
    """After the Surface screen closes: 1 when the review shown failed, 2 when none loaded."""
    view = session.surface
    if view is None:
        return int(ExitCode.ERROR)
    return int(ExitCode.THRESHOLD_FAILED if view.ok is False else ExitCode.OK)


def execute(args: argparse.Namespace) -> int:
    """Run `inspect`: exit 0 when ok, 1 on an error finding or failed threshold, 2 on errors."""
    from whichtool_tui.config import load_settings

    if args.targets or args.shard:
        from whichtool_tui.commands import inspect_targets

        if not args.targets:
            raise WhichtoolError(
                "cli/bad-arguments", "--shard applies to --targets", "Add --targets FILE."
            )
        return inspect_targets.execute(args, load_settings(args.config))
    target = _one_target(args)
    report_format = _format(args)
    settings = load_settings(args.config)
    if opens_tui(args):
        return _open_in_ui(args, settings, target)
    if args.host_fix_out:
        _check_fix_path(args.host_fix_out, (args.out, args.save_snapshot, target))
    result = build_report(args, settings, target)
    write_outputs(result.report, args, settings, report_format)
    _done_until_exit()
    return int(ExitCode.OK if result.ok else ExitCode.THRESHOLD_FAILED)


def _check_fix_path(path: str, others: tuple[str | None, ...]) -> None:
    """The patch never overwrites the report, the saved snapshot or the snapshot inspected."""
    from pathlib import Path

    from whichtool_tui.files import check_output_path

    wanted = Path(path).expanduser().resolve()
    for other in others:
        if other and Path(other).expanduser().resolve() == wanted:
            raise WhichtoolError(
                "cli/bad-arguments",
                "--host-fix-out names a file inspect also reads or writes",
                "Write the patch to a file of its own, e.g. --host-fix-out hosts.patch.json.",
            )
    check_output_path(path)


def _done_until_exit() -> None:
    """In our own process, once every output is written: what is alive stays until exit, so the
    interpreter's final collections need not scan it (about 0.3 s after 1,000 tools). Exit
    handlers, the child sweep and the flushing of stdout still run as usual."""
    from whichtool_tui.shutdown import owns_process

    if owns_process():
        from whichtool_tui.gc_phases import keep_for_session

        keep_for_session()
