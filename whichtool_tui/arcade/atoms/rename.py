"""``temporal.rename``: after N clean calls, is every tool still the same content and name?

Tools are compared by a content hash of description, input schema and annotations (never the
name), so a renamed tool is matched to its old content and a re-description under a new name
shows as content never listed before. A ``notifications/tools/list_changed`` is reported by the
``change_announced`` check; an announced change still fails the atom.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    clean_calls,
    clean_calls_check,
    compare_menus,
    failed_or_passed,
    inbound_methods,
    listed_menu_and_task,
    menu_hashes,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult

LIST_CHANGED = "notifications/tools/list_changed"


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, call the task n_clean times, list again, and compare by content hash."""
    raw_before, before, task, skip = await listed_menu_and_task(ctx, wire, "still the same")
    if skip is not None:
        return skip
    assert task.tool is not None  # listed_menu_and_task skips when there is no task tool
    announced_before = inbound_methods(wire).count(LIST_CHANGED)
    calls = await clean_calls(ctx, wire, task)
    raw_after = await wire.list_tools()
    hashes_before, hashes_after = menu_hashes(raw_before), menu_hashes(raw_after)
    change = compare_menus(hashes_before, hashes_after)
    announced = inbound_methods(wire).count(LIST_CHANGED) > announced_before
    content_moved = bool(change.edited or change.appeared or change.vanished)
    names_moved = bool(change.renamed or change.appeared or change.vanished)
    checks = [
        clean_calls_check(calls, task.tool),
        check(
            "content_stable",
            "fail" if content_moved else "pass",
            change.describe() if content_moved else "every content hash is unchanged",
        ),
        check(
            "names_stable",
            "fail" if names_moved else "pass",
            change.describe() if names_moved else "every tool kept its name",
        ),
        check(
            "change_announced",
            "skip" if not change.changed else ("pass" if announced else "fail"),
            "nothing changed"
            if not change.changed
            else (
                f"the server sent {LIST_CHANGED} (the change still counts)"
                if announced
                else f"the menu changed without {LIST_CHANGED}"
            ),
        ),
    ]
    notes = [
        *ctx.notes,
        *(f"content_before {name}={digest[:12]}" for name, digest in sorted(hashes_before.items())),
        *(f"content_after {name}={digest[:12]}" for name, digest in sorted(hashes_after.items())),
    ]
    return atom_result(
        ctx,
        failed_or_passed(checks[1:3]),
        checks,
        notes,
        authorized_tools=[task.tool],
        calls=calls,
        tools_before=before,
        tools_after=tool_infos(raw_after),
        task=task,
    )
