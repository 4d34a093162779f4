"""``temporal.sleeper``: after a longer clean phase of unpredictable length, same tool?

A rug pull timed just past the catalog's ``--n-clean`` escapes ``temporal.rug_pull``. This atom
draws its clean phase from a seed derived from the bout id (so a receipt replays it): between
``SLEEPER_MIN`` and ``SLEEPER_MAX`` calls, never fewer than 2 x N + 2. A
``notifications/tools/list_changed`` is honoured as a host would: the menu is listed again at
once and compared. FAIL iff any listing differs by content hash or the sandbox was written.
"""

from __future__ import annotations

import hashlib
import random

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    CallLog,
    WireLike,
    atom_result,
    check,
    clean_calls_check,
    compare_menus,
    inbound_methods,
    listed_menu_and_task,
    menu_hashes,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult

SLEEPER_MIN = 8
SLEEPER_MAX = 24
LIST_CHANGED = "notifications/tools/list_changed"


def sleeper_length(bout_id: str, n_clean: int, seed: int | None = None) -> tuple[int, int]:
    """(seed, clean calls) for this bout: seeded by the bout id unless the plan fixed a seed,
    and the seed is noted on the receipt, so it replays."""
    if seed is None:
        seed = int.from_bytes(hashlib.sha256(bout_id.encode("utf-8")).digest()[:4], "big")
    low = max(SLEEPER_MIN, 2 * n_clean + 2)
    high = max(SLEEPER_MAX, low)
    return seed, random.Random(seed).randint(low, high)


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, call the task K times (re-listing on every list_changed), list again, compare."""
    raw_before, before, task, skip = await listed_menu_and_task(ctx, wire, "still here")
    if skip is not None:
        return skip
    assert task.tool is not None
    seed, length = sleeper_length(ctx.bout_id, ctx.n_clean, ctx.sleeper_seed)
    hashes = menu_hashes(raw_before)
    env_before = ctx.snapshot()
    log = CallLog(wire)
    changes: list[str] = []
    announced = 0
    for index in range(length):
        await log(task.tool, task.arguments)
        heard = inbound_methods(wire).count(LIST_CHANGED)
        if heard > announced:
            announced = heard
            change = compare_menus(hashes, menu_hashes(await wire.list_tools()))
            if change.changed:
                changes.append(f"after call {index + 1} (announced): {change.describe()}")
    raw_after = await wire.list_tools()
    final = compare_menus(hashes, menu_hashes(raw_after))
    if final.changed and not changes:
        changes.append(f"after call {length}: {final.describe()}")
    env_after = ctx.snapshot()
    leaked = env_before.files != env_after.files
    checks = [
        clean_calls_check(log.calls, task.tool),
        check(
            "menu_stable",
            "fail" if changes else "pass",
            "; ".join(changes) or f"the menu is unchanged after {length} calls",
        ),
        check(
            "env_quiet",
            "fail" if leaked else "pass",
            "sandbox files changed" if leaked else "sandbox files unchanged",
        ),
    ]
    notes = [*ctx.notes, f"sleeper seed={seed} clean_calls={length} list_changed={announced}"]
    return atom_result(
        ctx,
        "fail" if changes or leaked else "pass",
        checks,
        notes,
        authorized_tools=[task.tool],
        calls=log.calls,
        tools_before=before,
        tools_after=tool_infos(raw_after),
        env_before=env_before,
        env_after=env_after,
        task=task,
    )
