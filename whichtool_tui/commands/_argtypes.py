"""Argument types shared by commands: finite numbers and whole numbers within bounds.

Kept free of heavy imports: command modules use these while only declaring their flags.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

# Re-exported for the flag declarations that bound integers by it.
from whichtool_tui.limits import MAX_SAFE_INTEGER as MAX_SAFE_INTEGER
from whichtool_tui.limits import Bound


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


def bounded(bound: Bound) -> Callable[[str], int]:
    """The argparse type of a setting declared in ``limits`` (its range, its words)."""
    return whole_number(bound.low, bound.high)


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


def add_rerun_flags(
    parser: argparse.ArgumentParser,
    seed_help: str | None = None,
    budget_scope: tuple[str, str] = (
        "a re-run above this many trials per side",
        "a re-run on more tools than this",
    ),
    repeat_help: str = "trials per task on each side",
    timeout_help: str = "seconds per model request",
) -> None:
    """The trial flags every command that sends trials declares (run, surface-diff, improve):
    repeat, seed, permutation, budgets, concurrency and request timeout, their ranges and
    defaults from ``limits`` (declared here once; each command words only what differs)."""
    from whichtool_tui import limits

    add = parser.add_argument
    add(
        "--repeat",
        type=bounded(limits.REPEAT),
        metavar="N",
        help=f"{repeat_help} (default {limits.REPEAT.default}, {limits.REPEAT.span})",
    )
    add(
        "--seed",
        type=whole_number(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
        metavar="N",
        help=seed_help or f"run seed shared by both sides (default {limits.DEFAULT_SEED})",
    )
    add(
        "--permute",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="shuffle the tool order per trial (default on)",
    )
    add(
        "--max-trials",
        metavar="N",
        type=bounded(limits.MAX_TRIALS),
        help=f"refuse {budget_scope[0]} (default "
        f"{limits.MAX_TRIALS.default}, at most {limits.MAX_TRIALS.high})",
    )
    add(
        "--max-tools",
        metavar="N",
        type=bounded(limits.MAX_TOOLS),
        help=f"refuse {budget_scope[1]} (default {limits.MAX_TOOLS.default}, "
        f"at most {limits.MAX_TOOLS.high})",
    )
    add(
        "--concurrency",
        metavar="N",
        type=bounded(limits.CONCURRENCY),
        help=f"requests in flight (default {limits.CONCURRENCY.default}, "
        f"{limits.CONCURRENCY.span})",
    )
    add(
        "--timeout",
        metavar="SECONDS",
        type=number_between(0.001, limits.MAX_REQUEST_TIMEOUT_SECONDS),
        help=f"{timeout_help} (default {limits.DEFAULT_REQUEST_TIMEOUT_SECONDS:g})",
    )
