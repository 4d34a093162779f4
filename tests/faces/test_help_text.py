"""Every command's --help: each flag explained, placeholders in one style, and one example at
the end that names the command it documents."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from whichtool_tui.cli import EXAMPLES, build_parser

PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z0-9]*|[A-Z],[A-Z](?:,[A-Z])?|SRC:DST)$")
VALUELESS = (
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._CountAction,
    argparse._HelpAction,
    argparse._VersionAction,
    argparse.BooleanOptionalAction,
)


def _parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    def walk(
        path: str, parser: argparse.ArgumentParser
    ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
        yield path, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    yield from walk(f"{path} {name}".strip(), child)

    yield from walk("", build_parser())


PARSERS = dict(_parsers())


@pytest.mark.parametrize("path", sorted(PARSERS), ids=lambda p: p or "(top)")
def test_every_flag_has_help_and_a_consistent_placeholder(path: str) -> None:
    for action in PARSERS[path]._actions:
        if isinstance(action, argparse._SubParsersAction) or not action.option_strings:
            continue
        flag = "/".join(action.option_strings)
        if action.help == argparse.SUPPRESS:
            continue
        assert action.help, f"{path} {flag} has no help text"
        if isinstance(action, VALUELESS) or action.choices is not None:
            continue
        assert action.metavar is not None, f"{path} {flag} shows argparse's default placeholder"
        assert PLACEHOLDER.match(str(action.metavar)), f"{path} {flag}: {action.metavar!r}"


@pytest.mark.parametrize("path", sorted(PARSERS), ids=lambda p: p or "(top)")
def test_help_ends_with_one_example_of_that_command(path: str) -> None:
    text = PARSERS[path].format_help().rstrip("\n")
    head, _, example = text.rpartition("\nexample:\n  ")
    assert head and "\n" not in example, f"`{path} --help` does not end with one example"
    assert example == EXAMPLES[path]
    words = example.split()
    assert words[0] == "whichtool-tui"
    command = [w for w in words[1:] if w != "--no-ui"]
    assert command[: len(path.split())] == path.split()
