"""The headless `bout` command: validate flags into a plan, run it, show the tape, then the call.

Order matters: the timeline (no scores) is printed first, the operator's guess is asked next
(when stdin is a terminal and --no-prompt is absent), and only then the house call.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from whichtool_tui.arcade.atoms import ATOM_IDS, UPSTREAM_ATOM_IDS
from whichtool_tui.arcade.bout import BoutPlan, fixture_argv
from whichtool_tui.arcade.receipt import BoutReceipt, OperatorCall, TaskSpec
from whichtool_tui.errors import ExitCode, WhichtoolError

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


def build_seat(args: argparse.Namespace) -> Any:
    """The seat named by --agent."""
    from whichtool_tui.arcade.seats import (
        ModelSeat,
        ModelSeatOptions,
        NaiveSeat,
        TaskOnlySeat,
        parse_agent,
    )

    name, model = parse_agent(args.agent)
    if name == "naive":
        return NaiveSeat()
    if name == "task-only":
        return TaskOnlySeat()
    assert model is not None
    endpoint = args.seat_endpoint
    if name != "ollama" and endpoint == "http://127.0.0.1:11434":
        endpoint = None  # the provider's own default base URL
    seat = ModelSeat(
        ModelSeatOptions(
            provider=name,
            model=model,
            endpoint=endpoint,
            temperature=args.seat_temperature,
            seed=args.seat_seed,
            num_ctx=args.seat_num_ctx,
            timeout=args.seat_timeout,
            max_output_tokens=args.seat_max_tokens,
            allow_http=bool(getattr(args, "allow_http_provider", False)),
        ),
        os.environ,
    )
    seat.check_route()
    return seat


def build_plan(args: argparse.Namespace) -> BoutPlan:
    """Validate every flag before any process starts."""
    from whichtool_tui.arcade.cli_series import check_series_flags
    from whichtool_tui.mcp_client.command import child_environment

    task = parse_task(args.task, args.args)
    defence = getattr(args, "defence", None)
    atom_ids = parse_atoms(args.atoms, ATOM_IDS if defence else UPSTREAM_ATOM_IDS)
    check_series_flags(args)
    if args.timeout <= 0:
        raise _bad("--timeout must be a positive number of seconds", "For example: --timeout 30")
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
    sandbox = Path(args.sandbox)
    try:
        sandbox.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _bad(
            f"--sandbox {sandbox}: {exc.strerror or type(exc).__name__}",
            "Pass a folder the bout may create and clean.",
            code="bout/sandbox",
        ) from None
    return BoutPlan(
        kind=kind,
        argv=argv,
        seat=seat,
        atom_ids=atom_ids,
        url=url,
        allow_live=bool(args.allow_live),
        operator_task=task,
        n_clean=args.n_clean,
        timeout=args.timeout,
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
    """For the fixture: import the SDK now, then fork the fixtures' warm parent from here."""
    from whichtool_tui.arcade import zygote

    if plan.kind != "fixture" or not zygote.can_fork_here():
        return None
    import mcp.client.session  # noqa: F401  (the client needs it anyway; the fork shares it)

    zygote.warm_imports()
    return zygote.start_zygote(fork_here=True)


def run_bout_command(args: argparse.Namespace, early: Any = None) -> int:
    """Plan, run, print the tape, ask, print the call, write the receipt.

    ``early`` is the fixture's warm parent when the caller started it before its imports
    (closed here if a flag is refused; it has run no server yet).
    """
    import anyio

    from whichtool_tui.arcade.cli_series import run_series_command, wants_series

    if wants_series(args):
        return run_series_command(args, early)
    from whichtool_tui.arcade.bout import run_bout
    from whichtool_tui.arcade.receipt import receipt_json
    from whichtool_tui.arcade.render import score_panel, write_timeline
    from whichtool_tui.arcade.timeline import TapeView
    from whichtool_tui.evaluation.gc_pause import gc_paused
    from whichtool_tui.files import write_atomic

    try:
        plan = build_plan(args)
    except BaseException:
        if early is not None:
            early.close()
        raise
    with gc_paused():  # the SDK import and a short bout: long-lived objects, little garbage
        plan.zygote = early or _forked_fixture_parent(plan)
        receipt = anyio.run(run_bout, plan)
    data = json.loads(receipt_json(receipt))
    write_timeline(TapeView(data), sys.stdout)
    sys.stdout.flush()
    receipt.operator_call = ask_operator(bool(args.no_prompt))
    sys.stdout.write(score_panel(receipt))
    if args.output:
        written = write_atomic(args.output, receipt_json(receipt))
        sys.stdout.write(f"Receipt written to {written}\n")
    else:
        sys.stdout.write("Pass -o receipt.json to keep the tape and the house call.\n")
    return exit_code(receipt, bool(args.strict))
