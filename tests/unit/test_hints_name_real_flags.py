"""Hints and errors name only flags and commands that exist (issue 30, item 4).

Every hint written in the package (the third argument, or ``hint=``, of a ``WhichtoolError`` or
``ProviderError``, and the module-level ``*_HINT`` strings) is collected from the source; every
``--flag`` in it must be a flag some command declares, and every complete
``whichtool-tui COMMAND ...`` it quotes must parse.
"""

from __future__ import annotations

import argparse
import ast
import re
import shlex
from pathlib import Path

from whichtool_tui.cli import build_parser

PACKAGE = Path(__file__).resolve().parents[2] / "whichtool_tui"
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]+)")
QUOTED_COMMAND = re.compile(r"`(whichtool-tui [^`{}]+)`")
# Flags of other programs a hint may name (an installer's, a server's).
OTHER_PROGRAMS = frozenset({"--no-deps", "--force-reinstall", "--local-timezone"})
# Placeholders for the user's own program in an example command line (a proxy, a server).
USER_PROGRAM_EXAMPLES = frozenset({"--pin-file", "--flag"})
ERRORS = frozenset({"WhichtoolError", "ProviderError", "_bad", "_DetailedError"})


def _text(node: ast.AST) -> str | None:
    """A string literal's text; an f-string's literal parts with its fields as ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None or right is None else left + right
    return None


def _hints() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name not in ERRORS:
                    continue
                candidates = node.args[1:] + [k.value for k in node.keywords if k.arg == "hint"]
            elif isinstance(node, ast.Assign):
                targets = [getattr(t, "id", "") for t in node.targets]
                if not any(t.endswith("HINT") or t.endswith("HINTS") for t in targets):
                    continue
                candidates = [node.value, *getattr(node.value, "values", [])]
            else:
                continue
            for candidate in candidates:
                text = _text(candidate)
                if text:
                    found.append((where, text))
    return found


def _declared_flags(parser: argparse.ArgumentParser) -> set[str]:
    flags: set[str] = set()
    for action in parser._actions:
        flags.update(o for o in action.option_strings if o.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                flags |= _declared_flags(child)
    return flags


def test_hints_are_collected() -> None:
    assert len(_hints()) > 150  # the collector still finds the package's hints


def test_every_flag_a_hint_names_is_declared() -> None:
    declared = _declared_flags(build_parser()) | OTHER_PROGRAMS | USER_PROGRAM_EXAMPLES
    unknown = sorted(
        {
            f"{where}: {flag}"
            for where, text in _hints()
            for flag in FLAG.findall(text)
            if flag not in declared
        }
    )
    assert unknown == []


def test_every_command_a_hint_quotes_parses() -> None:
    parser = build_parser()
    bad = []
    parsed = 0
    for where, text in _hints():
        for command in QUOTED_COMMAND.findall(text):
            words = shlex.split(command)[1:]
            if any(word.isupper() or "…" in word or "..." in word for word in words):
                continue  # a placeholder (FILE, N): the shape, not a command to run
            try:
                parser.parse_args(words)
            except Exception as error:  # the parser raises WhichtoolError
                bad.append(f"{where}: `{command}`: {error}")
            parsed += 1
    assert bad == [] and parsed >= 2
