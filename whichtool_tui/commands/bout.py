"""`bout`: run the atoms against a server and keep the receipt."""

from __future__ import annotations

import argparse
from typing import Any

from whichtool_tui.commands._argtypes import add_allow_http_provider, finite_number
from whichtool_tui.limits import DEFAULT_START_TIMEOUT


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `bout` (defaults as mcp-arcade 0.2.0, plus http and --strict)."""
    add = parser.add_argument
    add(
        "--target",
        choices=("fixture", "stdio", "http", "docker"),
        required=True,
        help="the bundled lab server, a stdio command (--cmd), a Streamable HTTP URL (--url) "
        "or a docker image (--image)",
    )
    add(
        "--cmd",
        action="append",
        default=[],
        metavar="CMD",
        help="stdio argv (repeatable, or one quoted line)",
    )
    add("--url", default=None, metavar="URL", help="Streamable HTTP endpoint (http target)")
    add("--image", default=None, metavar="NAME", help="docker image (docker target)")
    add("--docker-arg", action="append", default=[], metavar="FLAG", help="extra docker run flag")
    add("--bind", action="append", default=[], metavar="SRC:DST", help="docker bind mount")
    add(
        "--agent",
        default="naive",
        metavar="SEAT",
        help="naive (mcp-arcade's) | credulous (any wording, the atom's own channel) | task-only "
        "| ollama:<model> | <provider>:<model>",
    )
    add(
        "--seat-temperature",
        type=finite_number,
        default=0.0,
        metavar="F",
        help="model seat sampling temperature (default %(default)s)",
    )
    add(
        "--seat-seed",
        type=int,
        default=42,
        metavar="N",
        help="model seat seed (default %(default)s)",
    )
    add(
        "--seat-num-ctx",
        type=int,
        default=8192,
        metavar="N",
        help="ollama seat context window in tokens (default %(default)s)",
    )
    add(
        "--seat-endpoint",
        default="http://127.0.0.1:11434",
        metavar="URL",
        help="model seat base URL",
    )
    add("--seat-allow", default=None, metavar="A,B", help="tools a seat may call on live targets")
    add(
        "--seat-timeout",
        type=finite_number,
        default=120.0,
        metavar="SECONDS",
        help="wait per model seat reply; a timeout is an atom ERROR (default %(default)s)",
    )
    add(
        "--seat-max-tokens",
        type=int,
        default=None,
        metavar="N",
        help="output cap for a model seat's reply",
    )
    add_allow_http_provider(parser)
    add("--allow-live", action="store_true", help="required for any target but the fixture")
    add("--task", default=None, metavar="NAME", help="the benign task tool")
    add("--args", default=None, metavar="JSON", help="task arguments (a JSON object)")
    add("--wrap", action="store_true", help="append the house side-quest (poison atom)")
    add(
        "--wrap-target",
        default=None,
        metavar="NAME",
        help="the tool the --wrap side-quest asks for (required on live targets)",
    )
    add(
        "--framing",
        choices=("auto", "ndjson", "content-length"),
        default="auto",
        help="stdio dialect; auto follows the server's first reply (default auto)",
    )
    add(
        "--timeout",
        type=finite_number,
        default=30.0,
        metavar="SECONDS",
        help="seconds to wait per JSON-RPC response, counted once a stdio server is up "
        "(default %(default)s)",
    )
    add(
        "--start-timeout",
        type=finite_number,
        default=DEFAULT_START_TIMEOUT,
        metavar="SECONDS",
        help="seconds a stdio server may take to start before its first answer is due "
        "(default %(default)s)",
    )
    add(
        "--split",
        choices=("train", "holdout", "proof"),
        default="train",
        help="dataset split written on the receipt; proof receipts never reach a dataset "
        "(default train)",
    )
    add("--no-prompt", action="store_true", help="skip the operator's guess")
    add("-o", "--output", default=None, metavar="PATH", help="write the receipt here")
    add(
        "--sandbox",
        default=None,
        metavar="DIR",
        help="folder whose files each atom's sandbox snapshot watches (default: the platform "
        "state folder, ~/.local/state/whichtool-tui/arcade-sandbox on Linux)",
    )
    add("--atoms", default=None, metavar="A,B,C", help="atom ids to run, in this order")
    add(
        "--n-clean",
        type=int,
        default=3,
        metavar="N",
        help="clean task calls before the rug-pull re-list",
    )
    add(
        "--sleeper-seed",
        type=int,
        default=None,
        metavar="N",
        help="temporal.sleeper's seed (default: derived from the bout id; noted on the receipt)",
    )
    add("--fixture-mode", choices=("lab", "honest"), default="lab", help="bundled fixture mode")
    add("--strict", action="store_true", help="exit 1 on any FAIL, 2 on any ERROR")
    add("--trials", type=int, default=None, metavar="N", help="repeat with a model seat: rates")
    add("--defence", default=None, metavar="CMD", help="proxy command with {target}: conformance")
    add(
        "--format",
        choices=("terminal", "json", "markdown", "junit", "sarif"),
        default="terminal",
        help="--trials / --defence output on stdout; for one bout, junit or sarif print the "
        "verdicts for CI instead of the tape (one case or result per atom)",
    )


def opens_tui(args: argparse.Namespace) -> bool:
    """The Bout screen opens on a terminal unless --no-prompt asks for an unattended bout."""
    from whichtool_tui.commands._parser import wants_ui
    from whichtool_tui.usecases.bout import wants_series

    return not args.no_prompt and not wants_series(args) and wants_ui(args)


def _open_in_ui(args: argparse.Namespace) -> int:
    """The interactive face: the planned bout runs on the Bout screen, verdicts hidden until
    the guess; ``-o`` receives the receipt when the bout ends (``s`` saves it with the guess).
    """
    from whichtool_tui.ui.app import StartPoint, run_app
    from whichtool_tui.usecases.bout import build_plan

    plan = build_plan(args)  # every flag is checked before the app opens
    start = StartPoint(
        bout=plan, bout_output=args.output, exit_code=lambda session: _ui_exit(session, args)
    )
    return run_app(debug=bool(getattr(args, "debug", False)), start=start)


def _ui_exit(session: Any, args: argparse.Namespace) -> int:
    """After the Bout screen closes: --strict judges the receipt; no receipt (it failed) is 2."""
    from whichtool_tui.headless.bout import exit_code

    receipt = session.bout.receipt if session.bout is not None else None
    if receipt is None:
        return 2
    return exit_code(receipt, bool(args.strict))


def execute(args: argparse.Namespace) -> int:
    """Run `bout`."""
    from whichtool_tui.gc_phases import gc_paused

    if opens_tui(args):
        return _open_in_ui(args)
    early: Any = _early_fixture(args)
    try:
        with gc_paused():  # imports allocate long-lived objects only: skip the scans
            from whichtool_tui.headless.bout import run_bout_command
    except BaseException:
        if early is not None:
            early.close()
        raise
    code = run_bout_command(args, early)
    _freeze_before_exit()
    return code


def _freeze_before_exit() -> None:
    """In our own CLI process, freeze the heap so interpreter shutdown skips scanning it.

    Tearing down a process that holds the MCP SDK spends ~0.15 s in the collector; frozen
    objects are skipped. Never inside a host process (the test suite calls ``main`` in-process),
    where frozen garbage would never be freed.
    """
    import sys
    from pathlib import Path

    from whichtool_tui.gc_phases import keep_for_session

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    as_module = spec is not None and spec.name == "whichtool_tui.__main__"
    if as_module or Path(sys.argv[0]).name == "whichtool-tui":
        keep_for_session()


def _early_fixture(args: argparse.Namespace) -> object:
    """The fixture's warm parent, started before our own imports so the two overlap.

    None when this process will fork the parent itself after its own SDK import (see
    ``run_bout_command``): one import per bout beats two that compete for the same cores.
    """
    if args.target != "fixture":
        return None
    from whichtool_tui.arcade.zygote import can_fork_here, start_zygote

    return None if can_fork_here() else start_zygote()
