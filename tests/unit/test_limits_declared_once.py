"""Every limit is declared once (issue 25, item 5): the flags of every command that sends
trials, the engine's re-checks and their messages read ``limits``; nothing else spells a cap."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from whichtool_tui import limits
from whichtool_tui.cli import build_parser
from whichtool_tui.commands._argtypes import bounded
from whichtool_tui.errors import WhichtoolError

PACKAGE = Path(__file__).resolve().parents[2] / "whichtool_tui"


def test_a_bound_reads_the_same_in_every_message() -> None:
    assert limits.REPEAT.span == "1-1000" and limits.CONCURRENCY.span == "1-64"
    assert limits.REPEAT.outside(1001) == "--repeat 1001 is outside 1-1000"
    assert limits.CONCURRENCY.hint() == "Pass --concurrency with a whole number from 1 to 64."
    with pytest.raises(argparse.ArgumentTypeError, match="1001 is outside 1-1000"):
        bounded(limits.REPEAT)("1001")
    assert bounded(limits.REPEAT)("1000") == 1000


@pytest.mark.parametrize("size", [16 << 20, 1 << 30, 512 << 10, 1000])
def test_byte_sizes_are_said_in_whole_units(size: int) -> None:
    said = limits.byte_size(size)
    assert said in ("16 MiB", "1 GiB", "512 KiB", "1,000 bytes")


@pytest.mark.parametrize("command", [["run", "x"], ["improve", "x"], ["surface-diff", "a", "b"]])
@pytest.mark.parametrize(
    ("flag", "bound"),
    [
        ("--repeat", limits.REPEAT),
        ("--concurrency", limits.CONCURRENCY),
        ("--max-trials", limits.MAX_TRIALS),
        ("--max-tools", limits.MAX_TOOLS),
    ],
)
def test_every_trial_command_takes_the_same_range(
    command: list[str], flag: str, bound: limits.Bound
) -> None:
    parser = build_parser()
    parsed = parser.parse_args([*command, flag, str(bound.high)])
    assert getattr(parsed, flag.lstrip("-").replace("-", "_")) == bound.high
    with pytest.raises(WhichtoolError) as refused:
        parser.parse_args([*command, flag, str(bound.high + 1)])
    assert f"argument {flag}: {bound.high + 1} is outside {bound.span}" == refused.value.message


def test_no_module_spells_the_input_cap_or_clamps_a_setting() -> None:
    spelled = re.compile(r"16 \* 1024 \* 1024|16_777_216")
    clamped = re.compile(r"max\(1, min\(int\(")
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "limits.py"
        and (spelled.search(text := path.read_text(encoding="utf-8")) or clamped.search(text))
    ]
    assert offenders == []
