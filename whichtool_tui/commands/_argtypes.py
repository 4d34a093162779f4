"""Argument types shared by commands: finite numbers and whole numbers within bounds.

Kept free of heavy imports: command modules use these while only declaring their flags.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

# Re-exported for the flag declarations that bound integers by it.
from whichtool_tui.limits import MAX_SAFE_INTEGER as MAX_SAFE_INTEGER


def finite_number(text: str) -> float:
    """A finite number (NaN and infinities are refused, as upstream does)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A whole number in ``[low, high]`` (``3.0`` is accepted as 3)."""

    def parse(text: str) -> int:
        value = finite_number(text)
        if not value.is_integer():
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is outside {low}-{high}")
        return int(value)

    return parse


def number_between(low: float, high: float) -> Callable[[str], float]:
    """A finite number in ``[low, high]`` (rates, temperatures)."""

    def parse(text: str) -> float:
        value = finite_number(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is outside {low:g}-{high:g}")
        return value

    return parse


def non_negative_number(text: str) -> float:
    """A finite number that is zero or more (durations)."""
    value = finite_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def add_allow_http_provider(parser: argparse.ArgumentParser) -> None:
    """The opt-in that lets a provider key travel over plain HTTP to a private-network host."""
    parser.add_argument(
        "--allow-http-provider",
        action="store_true",
        default=False,
        help="allow sending a provider key over plain HTTP to a private-network host "
        "(10.x, 192.168.x, *.lan, ...); HTTPS and loopback need no flag",
    )
