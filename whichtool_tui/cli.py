"""Parse the command line, then hand over to the command's module (headless) or the TUI.

Command modules under ``whichtool_tui/commands/`` only define their flags at import time; every
heavy import (pydantic models, the MCP SDK, textual) happens inside ``execute`` so that
``--version`` and ``--help`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol, cast

from whichtool_tui import __version__
from whichtool_tui.commands._parser import PROG, ArgumentParser, add_global_flags, wants_ui
from whichtool_tui.errors import ExitCode, WhichtoolError

__all__ = ["PROG", "ArgumentParser", "add_global_flags", "build_parser", "main", "wants_ui"]

# name -> one-line summary; the module whichtool_tui.commands.<module> implements it.
COMMANDS: dict[str, tuple[str, str]] = {
    "inspect": ("inspect", "static review of a tool surface (no model, no key)"),
    "tasks": ("tasks", "task-set tooling: lint, mutate, generate"),
    "run": ("run", "the routing benchmark; --dry-run plans and prices it"),
    "report": ("report", "re-render a saved run in any format"),
    "diff": ("diff", "paired comparison of two saved runs"),
    "surface-diff": (
        "surface_diff",
        "which tools two snapshots disagree on, and the tasks that moves (--provider re-runs)",
    ),
    "improve": (
        "improve",
        "description rewrites kept only when held-out routing says they help; writes a patch",
    ),
    "cache": ("cache", "the trial cache: info, clear"),
    "bout": ("bout", "run the security atoms against a server"),
    "atoms": ("atoms", "the atom catalog"),
    "receipt": ("receipt", "print a saved receipt, or its wire timeline"),
    "tape": ("tape", "export the score-free tape of a receipt"),
    "dataset": ("dataset", "receipts -> JSONL rows, holdout split, manifest"),
    "fixture": ("fixture", "run the bundled lab MCP server on stdio"),
    "mcp": ("mcp_server", "whichtool-tui as an MCP server for agents"),
    "open": ("open_file", "open a saved artefact in the TUI"),
    "demo": ("demo", "write the bundled demo files into a folder (every example uses them)"),
}

# One example closes every command's --help: what a newcomer would type first (offline where
# the command allows it). Each uses only the files `demo init` writes or an earlier example
# produces, in this order, so all of them work after any install (tests/faces/test_help_examples).
MCP_CONFIG_NAME = "whichtool.mcp.json"  # what `demo init` writes for the MCP server
_LAB = "demo-lab.json"
_LAB_TASKS = "demo-lab.tasks.yaml"
_HEADLESS = f"{PROG} --no-ui"
EXAMPLES: dict[str, str] = {
    "demo": f"{PROG} demo init tour && cd tour",
    "demo init": f"{PROG} demo init tour && cd tour",
    "": f"{_HEADLESS} inspect {_LAB}",
    "inspect": f"{_HEADLESS} inspect {_LAB} --tasks {_LAB_TASKS} --format json --out inspect.json",
    "tasks": f"{_HEADLESS} tasks lint {_LAB} --tasks {_LAB_TASKS}",
    "tasks lint": f"{_HEADLESS} tasks lint {_LAB} --tasks {_LAB_TASKS}",
    "tasks mutate": f"{_HEADLESS} tasks mutate --tasks {_LAB_TASKS} --out variants.yaml --seed 0",
    "tasks generate": f"{_HEADLESS} tasks generate {_LAB} --provider ollama --model qwen2.5:7b "
    "--out draft.yaml",
    "run": f"{_HEADLESS} run {_LAB} --tasks {_LAB_TASKS} --provider keyword --format json "
    "--out run.json",
    "report": f"{_HEADLESS} report run.json --format markdown --out run.md",
    "diff": f"{_HEADLESS} diff run.json run.json --max-accuracy-drop 0.05",
    "surface-diff": f"{_HEADLESS} surface-diff {_LAB} demo-lab.head.json --tasks {_LAB_TASKS} "
    "--provider keyword",
    "improve": f"{_HEADLESS} improve {_LAB} --tasks demo-lab.improve.tasks.yaml "
    "--patch-out descriptions.patch.json",
    "cache": f"{_HEADLESS} cache info",
    "bout": f"{_HEADLESS} bout --target fixture --no-prompt -o receipts/receipt.json",
    "atoms": f"{_HEADLESS} atoms --rationale",
    "receipt": f"{_HEADLESS} receipt receipts/receipt.json --timeline",
    "tape": f"{_HEADLESS} tape receipts/receipt.json -o tape.json",
    "dataset": f"{_HEADLESS} dataset receipts/ -o dataset/",
    "fixture": f"{PROG} fixture --http 8000",
    "mcp": f"{PROG} mcp --config {MCP_CONFIG_NAME}",
    "open": f"{PROG} open run.json",
}


def _example(key: str) -> str:
    return f"example:\n  {EXAMPLES[key]}"


DESCRIPTION = (
    "Evidence about an MCP server: is its tool surface readable, does a model pick the right "
    "tool, does it behave honestly on the wire. Tools are never executed by inspect or run: "
    "they read tools/list and stop there."
)


class CommandModule(Protocol):
    """What every module under whichtool_tui/commands/ provides."""

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """Declare the command's flags; must import nothing heavy."""
        ...

    def execute(self, args: argparse.Namespace) -> int:
        """Do the work and return the exit code; heavy imports happen here."""
        ...


def load_command(name: str) -> CommandModule:
    """Import the module behind a command name."""
    module_name = COMMANDS[name][0]
    return cast(CommandModule, importlib.import_module(f"whichtool_tui.commands.{module_name}"))


class PrintCompletion(argparse.Action):
    """``--print-completion SHELL``: write a static completion script built by shtab, exit 0.

    shtab is imported only here, so completion costs nothing on any other start.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> NoReturn:
        import shtab

        sys.stdout.write(shtab.complete(parser, shell=str(values)))
        parser.exit(0)


# Top-level flags that take a value: the word after them is never the command's name.
_VALUED_FLAGS = frozenset(["--theme", "--print-completion"])


def invoked_command(arguments: Sequence[str]) -> str | None:
    """The command a command line runs (its first word that is not a top-level flag), ``""``
    when it names none (the TUI's home, ``--version``, ``--help``: no command's flags needed),
    or None when that is not a known command or the full parser is needed (completion)."""
    words = iter(arguments)
    for word in words:
        if word == "--print-completion" or word.startswith("--print-completion="):
            return None
        if word in _VALUED_FLAGS:
            next(words, None)
        elif word == "--" or not word.startswith("-"):
            return word if word in COMMANDS else None
    return ""


def build_parser(only: str | None = None) -> ArgumentParser:
    """The parser: global flags plus one subparser per command.

    With ``only``, that command alone gets its flags (the others keep their name and summary
    for ``--help`` and error messages): a command line pays for importing one command module,
    and ``only=""`` (no command) for none.
    """
    parser = ArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=_example(""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("--version", "-V", action="version", version=f"{PROG} {__version__}")
    parser.add_argument(
        "--print-completion",
        choices=("bash", "zsh", "tcsh"),
        metavar="SHELL",
        action=PrintCompletion,
        help='print a completion script for bash, zsh or tcsh: eval "$(whichtool-tui '
        '--print-completion bash)"',
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the TUI straight into the offline demo (no key, no network)",
    )
    add_global_flags(parser, suppress=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name, (_module, summary) in COMMANDS.items():
        sub = commands.add_parser(
            name,
            help=summary,
            description=summary,
            epilog=_example(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
            allow_abbrev=False,
        )
        add_global_flags(sub, suppress=True)
        if only is not None and name != only:
            continue
        load_command(name).configure(sub)
        for action in sub._actions:  # a command's own subcommands (tasks lint, ...) too
            if isinstance(action, argparse._SubParsersAction):
                for child, child_parser in action.choices.items():
                    child_parser.epilog = _example(f"{name} {child}")
                    child_parser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def report_error(error: WhichtoolError) -> None:
    """Print an error as one redacted line plus an indented hint on stderr."""
    from whichtool_tui.text_safety import redact_message

    sys.stderr.write(f"{PROG}: {redact_message(error.message)}\n")
    if error.hint:
        sys.stderr.write(f"  {redact_message(error.hint)}\n")


def _dispatch(args: argparse.Namespace, parser: ArgumentParser) -> int:
    if getattr(args, "theme", None):
        from whichtool_tui.ui.preferences import choose_theme

        choose_theme(args.theme)
    if args.command is None:
        if wants_ui(args):
            from whichtool_tui.commands.home import open_home

            return open_home(args)
        if args.demo:
            raise WhichtoolError(
                "cli/demo-needs-terminal",
                "the demo is interactive and needs a terminal",
                "Headless, the same jobs are: demo init tour, then in tour/ inspect "
                "demo-lab.json --tasks demo-lab.tasks.yaml (with findability), run it with "
                "those --tasks and --provider keyword, and bout --target fixture.",
            )
        parser.print_help()
        return ExitCode.OK
    from whichtool_tui.commands._outputs import check_command_outputs

    check_command_outputs(args)  # the output rule, before the command reads or sends anything
    return load_command(args.command).execute(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the process exit code."""
    from whichtool_tui import shutdown

    arguments = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in arguments
    # Only the real process entry (no argv given) takes over SIGTERM/SIGHUP and the exit sweep.
    process_entry = argv is None
    if process_entry:
        # pydantic looks for plugins through importlib.metadata (about 0.1 s of every command's
        # start-up); a command line has none to load. An operator's own setting wins.
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    shutdown.install(process_entry=process_entry)
    if process_entry and isinstance(sys.stdout, io.TextIOWrapper):
        # A report quoting a server's lone surrogate prints it as its escape, never a traceback
        # (stderr already does this); everything else on stdout is unchanged.
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        parser = build_parser(only=invoked_command(arguments))
        args = parser.parse_args(arguments)
        return int(_dispatch(args, parser))
    except WhichtoolError as error:
        if debug:
            traceback.print_exc()
        if error.exit_code == ExitCode.CANCELLED:
            sys.stderr.write(f"{PROG}: {shutdown.interrupted_message()}\n")
            return shutdown.interrupted_exit_code()
        report_error(error)
        return int(error.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: {shutdown.interrupted_message()}\n")
        return shutdown.interrupted_exit_code()
    except BrokenPipeError:
        return int(ExitCode.OK)
    finally:
        shutdown.finish(process_entry=process_entry)
