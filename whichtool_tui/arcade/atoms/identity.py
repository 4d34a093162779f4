"""``identity.bait_switch``: does the server show a different menu to a different client?

The atom lists the menu in its own session (clientInfo of the house), then opens a second fresh
session under a common agent's clientInfo and lists again; the two menus are compared by name
and content hash. FAIL iff they differ.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    compare_menus,
    menu_hashes,
    skipped,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult

AGENT_IDENTITY = ("claude-ai", "0.1.0")
"""The clientInfo of the second session: the name a widely used desktop agent sends."""


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List as the house, list again as an agent in a fresh session, compare."""
    raw_house = await wire.list_tools()
    house = tool_infos(raw_house)
    name, version = AGENT_IDENTITY
    if ctx.connect_as is None:
        return skipped(
            ctx,
            "applicable",
            "this target cannot open a second session under another clientInfo",
            tools_before=house,
            tools_after=house,
        )
    async with ctx.connect_as(name, version) as second:
        await second.initialize()
        raw_agent = await second.list_tools()
    agent = tool_infos(raw_agent)
    change = compare_menus(menu_hashes(raw_house), menu_hashes(raw_agent))
    checks = [
        check("second_identity", "pass", f"a second session listed the menu as {name} {version}"),
        check(
            "menus_match",
            "fail" if change.changed else "pass",
            (f"as {name}: " + change.describe())
            if change.changed
            else "both identities were served the same menu",
        ),
    ]
    return atom_result(
        ctx,
        "fail" if change.changed else "pass",
        checks,
        authorized_tools=[],
        tools_before=house,
        tools_after=agent,
    )
