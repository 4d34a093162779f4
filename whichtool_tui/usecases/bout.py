"""The bout use case: the `bout` flags validated into a BoutPlan before any process starts.

Both faces that run a bout from the command line call ``build_plan``: the headless one
(``headless/bout.py``) and the TUI's Bout screen (``commands/bout.py`` opens it with the plan).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whichtool_tui.arcade.atoms import ATOM_IDS, UPSTREAM_ATOM_IDS
from whichtool_tui.arcade.bout import BoutPlan, fixture_argv
from whichtool_tui.arcade.receipt import TaskSpec
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import DEFAULT_START_TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Mapping

    from whichtool_tui.arcade.conformance import ConformanceReport
    from whichtool_tui.arcade.events import EventSink
    from whichtool_tui.arcade.receipt import BoutReceipt
    from whichtool_tui.arcade.seats import ModelSeatOptions, SeatProviderOpener
    from whichtool_tui.arcade.trials import TrialSeries
    from whichtool_tui.providers.base import Provider

LIVE_REFUSAL = "the house will not send arbitrary calls to a live server"
ARGS_HINT = """--args takes one JSON object, quoted for the shell: --args '{"text": "hi"}'"""
ATOMS_HINT = "`whichtool-tui atoms` lists the atom ids; separate several with commas."
MAX_N_CLEAN = 1000
"""Clean calls before the rug-pull re-list: far past any rug a server could time, yet bounded."""


def _bad(message: str, hint: str, code: str = "bout/invalid-flag") -> WhichtoolError:
    return WhichtoolError(code, message, hint)


def parse_task(task: str | None, raw_args: str | None) -> TaskSpec | None:
    """--task/--args as the operator's task, with upstream's three refusals."""
    if raw_args is not None and not task:
        raise _bad("--args needs --task", "Name the task tool the arguments are for: --task NAME")
    if not task:
        return None
    arguments: dict[str, Any] = {}
    if raw_args is not None:
        try:
            parsed = json.loads(raw_args)
        except ValueError as exc:
            raise _bad(f"--args is not valid JSON: {exc}", ARGS_HINT) from None
        if not isinstance(parsed, dict):
            raise _bad("--args must be a JSON object", ARGS_HINT)
        arguments = parsed
    return TaskSpec(tool=task, arguments=arguments, source="operator")


def parse_atoms(raw: str | None, default: tuple[str, ...] = UPSTREAM_ATOM_IDS) -> list[str]:
    """--atoms as ids in the given order (``all``: the whole catalog); unknown or empty lists
    are refused. Without it, mcp-arcade's four."""
    if raw is None:
        return list(default)
    if raw.strip() == "all":
        return list(ATOM_IDS)
    ids = [part.strip() for part in raw.split(",") if part.strip()]
    if not ids:
        raise _bad("--atoms: nothing to run", ATOMS_HINT)
    unknown = [i for i in ids if i not in ATOM_IDS]
    if unknown:
        raise _bad(f"--atoms: unknown atom id ({', '.join(unknown)})", ATOMS_HINT)
    return ids


def _command(args: argparse.Namespace) -> list[str]:
    from whichtool_tui.mcp_client.command import split_command

    values: list[str] = list(args.cmd)
    if len(values) == 1 and any(ch.isspace() for ch in values[0]):
        try:
            return split_command(values[0])
        except WhichtoolError as exc:
            hint = 'Quote the whole command once: --cmd "node server.js --flag"'
            raise _bad(exc.message, hint) from None
    return values


def seat_provider_opener(options: ModelSeatOptions, env: Mapping[str, str]) -> SeatProviderOpener:
    """How a model seat opens its provider: the one provider builder, with the seat's timeout,
    output cap and --allow-http-provider, never the config's provider section (the seat is
    named by --agent alone)."""
    from whichtool_tui.usecases.providers import ProviderRequest, open_provider

    def opened(name: str, model: str, base_url: str | None) -> Provider:
        # The seat's endpoint is --seat-endpoint, typed on the command line; the config's
        # provider section never applies to a seat.
        request = ProviderRequest(
            name=name,
            model=model,
            base_url=base_url,
            base_url_source="flag" if base_url else "preset",
            allow_http=options.allow_http,
            timeout=options.timeout,
            max_output_tokens=options.max_output_tokens,
        )
        return open_provider(request, env)

    return opened


def build_seat(args: argparse.Namespace) -> Any:
    """The seat named by --agent."""
    from whichtool_tui.arcade.seats import (
        CredulousSeat,
        ModelSeat,
        ModelSeatOptions,
        NaiveSeat,
        TaskOnlySeat,
        parse_agent,
    )

    name, model = parse_agent(args.agent)
    if name == "naive":
        return NaiveSeat()
    if name == "credulous":
        return CredulousSeat()
    if name == "task-only":
        return TaskOnlySeat()
    assert model is not None
    endpoint = args.seat_endpoint
    if name != "ollama" and endpoint == "http://127.0.0.1:11434":
        endpoint = None  # the provider's own default base URL
    options = ModelSeatOptions(
        provider=name,
        model=model,
        endpoint=endpoint,
        temperature=args.seat_temperature,
        seed=args.seat_seed,
        num_ctx=args.seat_num_ctx,
        timeout=args.seat_timeout,
        max_output_tokens=args.seat_max_tokens,
        allow_http=bool(getattr(args, "allow_http_provider", False)),
    )
    seat = ModelSeat(options, os.environ, seat_provider_opener(options, os.environ))
    seat.check_route()
    return seat


def build_plan(args: argparse.Namespace) -> BoutPlan:
    """Validate every flag before any process starts."""
    from whichtool_tui.mcp_client.command import child_environment

    task = parse_task(args.task, args.args)
    defence = getattr(args, "defence", None)
    atom_ids = parse_atoms(args.atoms, ATOM_IDS if defence else UPSTREAM_ATOM_IDS)
    check_series_flags(args)
    if args.timeout <= 0:
        raise _bad("--timeout must be a positive number of seconds", "For example: --timeout 30")
    start_timeout = getattr(args, "start_timeout", DEFAULT_START_TIMEOUT)
    if start_timeout <= 0:
        raise _bad(
            "--start-timeout must be a positive number of seconds",
            "For example: --start-timeout 60",
        )
    if not 0 <= args.n_clean <= MAX_N_CLEAN:
        raise _bad(
            f"--n-clean {args.n_clean}: must be between 0 and {MAX_N_CLEAN}",
            "It counts the clean task calls before the rug-pull re-list (default 3).",
        )
    seat = build_seat(args)
    kind = args.target
    argv: list[str] = []
    url: str | None = None
    recorded: list[str] | None = None
    docker_plan: Any = None
    if kind == "fixture":
        if args.cmd or args.url or args.image:
            raise _bad(
                "--cmd, --url and --image do not apply to the fixture target",
                "Point --target stdio, http or docker (with --allow-live) at your own server.",
            )
        argv = fixture_argv(honest=args.fixture_mode == "honest")
    elif kind == "stdio":
        argv = _command(args)
        if not argv:
            raise _bad("the stdio target needs --cmd", 'For example: --cmd "node server.js"')
    elif kind == "http":
        if not args.url:
            raise _bad(
                "the http target needs --url", "For example: --url http://127.0.0.1:8000/mcp"
            )
        url = args.url
        if not url.startswith(("http://", "https://")):
            raise _bad(
                f"--url {url} is not an http:// or https:// URL",
                "For example: --url http://127.0.0.1:8000/mcp",
            )
        from whichtool_tui.mcp_client.auth import check_http_url

        check_http_url(url)  # no user:password@ in the URL
    else:
        from whichtool_tui.arcade.docker import prepare_docker

        docker_plan = prepare_docker(args)
        recorded = list(docker_plan.command)
    our_image = docker_plan is not None and docker_plan.fixture_image
    live = kind != "fixture" and not our_image
    if live and not args.allow_live:
        raise WhichtoolError(
            "bout/live-refused",
            f"the {kind} target talks to a server we did not write: pass --allow-live",
            "Only the bundled fixture runs without --allow-live.",
        )
    if args.wrap and live and not args.wrap_target:
        raise _bad(
            "--wrap on a live target needs --wrap-target NAME",
            "The fixture may leave it unset; a live server must name the tool to point at.",
            code="bout/wrap-target-required",
        )
    seat_allow: list[str] | None = None
    if live:
        if args.seat_allow:
            seat_allow = [s.strip() for s in args.seat_allow.split(",") if s.strip()]
        else:
            if getattr(seat, "info", None) is not None and not task and not args.wrap_target:
                raise WhichtoolError(
                    "bout/live-refused",
                    LIVE_REFUSAL,
                    "Name the task with --task, or the allowed tools with --seat-allow.",
                )
            seat_allow = [task.tool if task and task.tool else "echo"]
            if args.wrap and args.wrap_target:
                seat_allow.append(args.wrap_target)
    if args.output:
        from whichtool_tui.files import check_output_path

        check_output_path(args.output)  # before any server starts
    base_env = child_environment()
    from whichtool_tui.places import default_sandbox_dir, tag_as_cache

    sandbox = Path(args.sandbox) if args.sandbox else default_sandbox_dir()
    try:
        sandbox.mkdir(parents=True, exist_ok=True)
        if not args.sandbox:  # our own folder: backups skip it (a folder you named is untouched)
            tag_as_cache(sandbox, "bout sandbox")
    except OSError as exc:
        raise _bad(
            f"--sandbox {sandbox}: {exc.strerror or type(exc).__name__}",
            "Pass a folder the bout may create and clean.",
            code="bout/sandbox",
        ) from None
    from whichtool_tui.arcade.atoms import spec_for
    from whichtool_tui.arcade.sandbox import foreign_atom_dir

    for atom_id in atom_ids:  # refused before any server starts, and nothing is deleted
        foreign = foreign_atom_dir(sandbox, spec_for(atom_id).short)
        if foreign is not None:
            raise _bad(
                f"--sandbox {sandbox}: {foreign.name} already exists and was not made by a bout",
                "Pass an empty or new folder; a bout only empties folders it created.",
                code="bout/sandbox-not-ours",
            )
    return BoutPlan(
        kind=kind,
        argv=argv,
        seat=seat,
        atom_ids=atom_ids,
        url=url,
        allow_live=bool(args.allow_live),
        operator_task=task,
        n_clean=args.n_clean,
        sleeper_seed=getattr(args, "sleeper_seed", None),
        timeout=args.timeout,
        start_timeout=start_timeout,
        framing=args.framing,
        split=args.split,
        wrap=bool(args.wrap),
        wrap_target=args.wrap_target,
        seat_allow=seat_allow,
        sandbox=sandbox,
        base_env=base_env,
        recorded_command=recorded,
        docker=docker_plan,
    )


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


def lab_fixture_plan() -> BoutPlan:
    """Every atom against the bundled lab fixture with the naive seat (offline, no key); the
    sandbox is the caller's (the TUI's demo uses a temporary folder)."""
    from whichtool_tui.arcade.seats import NaiveSeat
    from whichtool_tui.mcp_client.command import child_environment

    return BoutPlan(
        kind="fixture",
        argv=fixture_argv(),
        seat=NaiveSeat(),
        atom_ids=list(ATOM_IDS),
        base_env=child_environment(),
    )


async def run_planned_bout(plan: BoutPlan, sink: EventSink | None = None) -> BoutReceipt:
    """Run every planned atom in order and assemble the receipt (no operator guess yet)."""
    from whichtool_tui.arcade.bout import run_bout

    if sink is None:
        return await run_bout(plan)
    return await run_bout(plan, sink)


def receipt_text(receipt: BoutReceipt, guess: str | None = None) -> str:
    """The receipt as canonical JSON; with the operator's ``guess`` recorded on a copy."""
    from whichtool_tui.arcade.receipt import OperatorCall, receipt_json

    if guess is None:
        return receipt_json(receipt)
    copy = receipt.model_copy(deep=True)
    copy.operator_call = OperatorCall(recorded=True, guess=guess, skipped=False)
    return receipt_json(copy)


async def run_defence_series(plan: BoutPlan, defence: str) -> ConformanceReport:
    """``bout --defence CMD``: every atom bare and behind the proxy, lab and honest."""
    from whichtool_tui.arcade.conformance import run_conformance

    return await run_conformance(plan, defence)


async def run_trial_series(plan: BoutPlan, trials: int) -> TrialSeries:
    """``bout --trials N``: the same bout N times with a model seat, rates per atom."""
    from whichtool_tui.arcade.trials import run_trials

    return await run_trials(plan, trials)


def series_json(report: ConformanceReport | TrialSeries) -> str:
    """A series report as canonical JSON (every receipt inside)."""
    from whichtool_tui.arcade.receipt import canonical_json

    return canonical_json(report.model_dump(mode="json"))
