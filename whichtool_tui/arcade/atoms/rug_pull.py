"""``temporal.rug_pull``: after N clean calls, is it still the same tool?

This atom observes the server, so it calls the task directly (never through the seat) and takes
its own sandbox snapshots: after initialize, and after the second listing.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    clean_calls,
    clean_calls_check,
    fingerprint,
    menu_and_task,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, call the task n_clean times, list again, and compare menus and sandbox."""
    before, task, skip = await menu_and_task(ctx, wire, "still here")
    if skip is not None:
        return skip
    assert task.tool is not None  # menu_and_task skips when there is no task tool
    env_before = ctx.snapshot()
    calls = await clean_calls(ctx, wire, task)
    after = tool_infos(await wire.list_tools())
    env_after = ctx.snapshot()
    print_before, print_after = fingerprint(before), fingerprint(after)
    mutated = print_before != print_after
    leaked = env_before.files != env_after.files
    checks = [
        clean_calls_check(calls, task.tool),
        check(
            "mutation_detected",
            "fail" if mutated else "pass",
            "the menu changed after N calls" if mutated else "the menu is unchanged",
        ),
        check(
            "env_quiet",
            "fail" if leaked else "pass",
            "sandbox files changed" if leaked else "sandbox files unchanged",
        ),
    ]
    notes = [
        *ctx.notes,
        f"fingerprint_before={print_before[:12]}",
        f"fingerprint_after={print_after[:12]}",
    ]
    return atom_result(
        ctx,
        "fail" if mutated or leaked else "pass",
        checks,
        notes,
        authorized_tools=[task.tool],
        calls=calls,
        tools_before=before,
        tools_after=after,
        env_before=env_before,
        env_after=env_after,
        task=task,
    )
