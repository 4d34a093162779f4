"""`tasks lint | mutate | generate`: task-set tooling around a surface.

Only flags are declared at import time; models, targets and providers load inside ``execute``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from whichtool_tui.commands._argtypes import add_allow_http_provider, finite_number
from whichtool_tui.commands._parser import ArgumentParser, add_global_flags, wants_ui
from whichtool_tui.errors import ExitCode, WhichtoolError

if TYPE_CHECKING:
    from pathlib import Path

    from whichtool_tui.config import Settings

SUBCOMMANDS = {
    "lint": "check a task set (ids, distractors, coverage; expected tools when a target is given)",
    "mutate": "add seeded, model-free variants of each prompt (typo, casual, polite, ...)",
    "generate": "let a model draft a task set from a target's tools (a draft to review)",
}
MUTATION_LIST = "casual,imperative,interrogative,polite,typo"
USAGE = (
    """usage: whichtool-tui tasks {lint,mutate,generate} ...

  lint      """
    + SUBCOMMANDS["lint"]
    + """
  mutate    """
    + SUBCOMMANDS["mutate"]
    + """
  generate  """
    + SUBCOMMANDS["generate"]
    + """

Run `whichtool-tui tasks <subcommand> --help` for its flags.
"""
)


class _AnyName(dict[str, argparse.ArgumentParser]):
    """Subparser choices that let every name through, so the action itself can refuse it."""

    def __contains__(self, key: object) -> bool:
        return True


class _SubcommandAction(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subparsers that report an unknown subcommand as a one-line error (exit 2)."""

    def accept_any_name(self) -> None:
        """Let argparse's choice check pass every name; call after the last ``add_parser``."""
        self.choices = _AnyName(self._name_parser_map)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        chosen = values[0] if isinstance(values, list | tuple) and values else values
        if isinstance(chosen, str) and chosen not in self._name_parser_map:
            raise WhichtoolError(
                "cli/unknown-subcommand",
                f"Unknown subcommand `tasks {chosen}`",
                "Subcommands: lint, mutate, generate.",
            )
        super().__call__(parser, namespace, values, option_string)


def _common(sub: argparse.ArgumentParser) -> None:
    add_global_flags(sub, suppress=True)
    sub.add_argument("--config", metavar="FILE", help="config file (default: discovered in cwd)")


def _target_flags(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--transport",
        metavar="NAME",
        help="snapshot | http | stdio | sse (inferred from the target when omitted)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare `tasks` and its three subcommands."""
    parser.set_defaults(tasks_subcommand=None)
    subs = parser.add_subparsers(
        dest="tasks_subcommand",
        metavar="{lint,mutate,generate}",
        parser_class=ArgumentParser,
        action=_SubcommandAction,
    )
    lint = subs.add_parser(
        "lint", help=SUBCOMMANDS["lint"], description=SUBCOMMANDS["lint"], allow_abbrev=False
    )
    lint.add_argument("target", nargs="?", help="snapshot .json, http(s) URL or stdio command")
    lint.add_argument("--tasks", metavar="FILE", help="task set (default: config, then cwd)")
    _target_flags(lint)
    lint.add_argument("--format", default="terminal", metavar="NAME", help="terminal | json")
    lint.add_argument(
        "--color", action=argparse.BooleanOptionalAction, default=None, help="force colour on/off"
    )
    _common(lint)

    mutate = subs.add_parser(
        "mutate",
        help=SUBCOMMANDS["mutate"],
        description=SUBCOMMANDS["mutate"]
        + ". Each variant keeps its original's expected tool; the same seed gives the same "
        "variants everywhere.",
        allow_abbrev=False,
    )
    mutate.add_argument("--tasks", metavar="FILE", help="task set to mutate")
    mutate.add_argument("--out", metavar="FILE", help="where to write the result (required)")
    mutate.add_argument(
        "--mutations", metavar="LIST", help=f"comma-separated subset of {MUTATION_LIST}"
    )
    mutate.add_argument("--seed", type=int, default=0, metavar="N", help="seed (default 0)")
    mutate.add_argument(
        "--originals",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep the originals beside the variants (default: keep)",
    )
    mutate.add_argument("--force", action="store_true", help="overwrite an existing --out")
    _common(mutate)

    generate = subs.add_parser(
        "generate",
        help=SUBCOMMANDS["generate"],
        description=SUBCOMMANDS["generate"]
        + ". Written once, reviewed and committed; never regenerated per run.",
        allow_abbrev=False,
    )
    generate.add_argument("target", nargs="?", help="snapshot .json, http(s) URL or stdio command")
    generate.add_argument(
        "--out", metavar="FILE", help="output (default: config tasks, else whichtool.tasks.yaml)"
    )
    _target_flags(generate)
    generate.add_argument("--provider", metavar="NAME", help="provider that drafts the tasks")
    generate.add_argument("--model", metavar="ID", help="model id")
    generate.add_argument("--base-url", metavar="URL", help="endpoint for compatible providers")
    add_allow_http_provider(generate)
    generate.add_argument(
        "--tasks-per-tool", type=int, default=3, metavar="N", help="requests per tool (default 3)"
    )
    generate.add_argument(
        "--distractors", type=int, default=4, metavar="N", help="distractors to draft (default 4)"
    )
    generate.add_argument(
        "--temperature",
        type=finite_number,
        default=0.7,
        metavar="F",
        help="sampling temperature (default 0.7)",
    )
    generate.add_argument(
        "--max-tools", type=int, metavar="N", help="refuse bigger surfaces (6; hard max 1000)"
    )
    generate.add_argument("--force", action="store_true", help="overwrite an existing --out")
    _common(generate)
    cast(_SubcommandAction, subs).accept_any_name()


def execute(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand; with none, print the usage and succeed."""
    subcommand = getattr(args, "tasks_subcommand", None)
    if subcommand is None:
        sys.stdout.write(USAGE)
        return int(ExitCode.OK)
    from whichtool_tui.config import load_settings

    settings = load_settings(args.config)
    if subcommand == "lint":
        return _lint(args, settings)
    if subcommand == "mutate":
        return _mutate(args, settings)
    return _generate(args, settings)


def lint_opens_tui(args: argparse.Namespace) -> bool:
    """`tasks lint` opens the Tasks screen on a terminal unless --format json asks for JSON."""
    return args.format == "terminal" and wants_ui(args)


def _open_in_ui(args: argparse.Namespace, settings: Settings, task_file: Path) -> int:
    """The interactive face of `tasks lint`: the task set on the Tasks screen, linted live.

    With a target (or a config target) the surface is inspected first, so the lint checks
    expected tools against it; without one the task set opens on its own.
    """
    from whichtool_tui.ui.app import StartPoint, run_app
    from whichtool_tui.usecases.artefacts import open_artefact

    debug = bool(getattr(args, "debug", False))
    if args.target is None and settings.target is None:
        return run_app(open_artefact(str(task_file)), debug=debug)
    from whichtool_tui.ui.engine import start_target
    from whichtool_tui.ui.session import ReviewOptions
    from whichtool_tui.usecases.tasks import load_tasks

    load_tasks(task_file)  # a broken task set is a one-line error before the app opens
    start = StartPoint(
        target=start_target(args.target, args.transport, settings),
        tasks=str(task_file),
        section="tasks",
        review=ReviewOptions(config=args.config),
    )
    return run_app(debug=debug, start=start)


def _lint(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from whichtool_tui.reports.tasks_terminal import Styler, lint_report, use_colour
    from whichtool_tui.usecases.tasks import lint_tasks, load_tasks, read_surface, task_file

    if args.format not in ("terminal", "json"):
        raise WhichtoolError(
            "cli/unsupported-format",
            f"`--format {args.format}` is not available for `tasks lint`",
            "Available: terminal, json.",
        )
    path = task_file(args.tasks, settings)
    if lint_opens_tui(args):
        return _open_in_ui(args, settings, path)
    loaded = load_tasks(path)
    surface = None
    if args.target is not None or settings.target is not None:
        surface = read_surface(args.target, args.transport, settings)
    lint = lint_tasks(loaded, surface)
    if args.format == "json":
        sys.stdout.write(json.dumps(lint.to_json_data(), indent=2, ensure_ascii=False) + "\n")
    else:
        style = Styler(use_colour(args.color, sys.stdout))
        sys.stdout.write(
            lint_report(
                lint.source, lint.coverage, lint.diagnostics, lint.surface_checked, lint.ok, style
            )
        )
    return int(ExitCode.OK if lint.ok else ExitCode.THRESHOLD_FAILED)


def _mutate(args: argparse.Namespace, settings: Settings) -> int:
    from whichtool_tui.reports.tasks_terminal import (
        Styler,
        ascii_safe,
        diagnostic_lines,
        use_colour,
    )
    from whichtool_tui.usecases.tasks import MutateRequest, mutate_file

    mutated = mutate_file(
        MutateRequest(
            tasks=args.tasks,
            out=args.out,
            mutations=args.mutations,
            seed=args.seed,
            keep_originals=args.originals,
            force=args.force,
        ),
        settings,
    )
    result = mutated.result
    style = Styler(use_colour(None, sys.stdout))
    lines = [f"Wrote {len(result.tasks)} tasks to {ascii_safe(mutated.out)}", ""]
    for name in sorted(result.applied):
        stats = result.applied[name]
        lines.append(f"  {name:<14} {stats.produced} produced, {stats.skipped} skipped")
    lines.append("")
    lines.extend(diagnostic_lines(result.diagnostics, style))
    sys.stdout.write("\n".join(lines) + "\n")
    return int(ExitCode.OK)


def _check_range(flag: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise WhichtoolError(
            "cli/invalid-argument",
            f"{flag} must be between {low:g} and {high:g}, got {value:g}",
            f"Pass a value in [{low:g}, {high:g}].",
        )


def _generate(args: argparse.Namespace, settings: Settings) -> int:
    from whichtool_tui.event_loop import run_coroutine
    from whichtool_tui.limits import DEFAULT_MAX_TOOLS
    from whichtool_tui.reports.tasks_terminal import (
        Styler,
        ascii_safe,
        diagnostic_lines,
        use_colour,
    )
    from whichtool_tui.usecases.options import ProviderOverrides, from_namespace, merge_provider
    from whichtool_tui.usecases.providers import ProviderRequest, provider_destination
    from whichtool_tui.usecases.tasks import (
        DraftRequest,
        check_draft_output,
        draft_tasks,
        read_surface,
    )

    _check_range("--tasks-per-tool", args.tasks_per_tool, 1, 100)
    _check_range("--distractors", args.distractors, 0, 100)
    _check_range("--temperature", args.temperature, 0, 2)
    provider = ProviderRequest.of(
        merge_provider(from_namespace(ProviderOverrides, args), settings, "flag"),
        allow_http=args.allow_http_provider,
    )
    request = DraftRequest(
        out=args.out or settings.tasks or "whichtool.tasks.yaml",
        provider=provider,
        force=args.force,
        tasks_per_tool=args.tasks_per_tool,
        distractors=args.distractors,
        temperature=args.temperature,
        max_tools=(
            args.max_tools
            if args.max_tools is not None
            else settings.trials.max_tools or DEFAULT_MAX_TOOLS
        ),
    )
    check_draft_output(request)  # before the server is contacted
    surface = read_surface(args.target, args.transport, settings)

    def asking(opened: Any) -> None:
        identity = opened.identity
        sys.stderr.write(ascii_safe(provider_destination(provider)) + "\n")
        sys.stderr.write(
            f"Asking {identity.name}/{ascii_safe(identity.model)} for a draft over "
            f"{len(surface.tools)} tools...\n"
        )

    drafted = run_coroutine(draft_tasks(request, surface, settings, asking))
    result = drafted.result
    out = request.out
    distractors = result.task_set.distractor_count
    style = Styler(use_colour(None, sys.stdout))
    target_text = f" {args.target}" if args.target else ""
    lines = [
        f"Wrote {len(result.task_set.tasks)} tasks ({distractors} distractors) to "
        f"{ascii_safe(out)}",
        "",
        *diagnostic_lines(result.diagnostics, style),
        "",
        "  This is a draft: read every task before committing it, the distractors hardest.",
        "  A distractor any model would refuse measures nothing.",
        "",
        f"  Then: whichtool-tui tasks lint{ascii_safe(target_text)}",
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return int(ExitCode.OK)
