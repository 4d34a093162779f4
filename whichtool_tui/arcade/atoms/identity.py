"""``identity.bait_switch``: does the server show a different menu to a different client?

The atom lists the menu in its own session (clientInfo of the house, no capabilities), then in
two fresh sessions under a common agent's clientInfo: declaring nothing (the menu must be the
same), and declaring roots and sampling (every shared tool must be the same; tools only such a
host is offered pass unless their text instructs the model). Menus are compared by content hash.
"""

from __future__ import annotations

from typing import Any

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    compare_menus,
    failed_or_passed,
    menu_hashes,
    skipped,
    tool_infos,
)
from whichtool_tui.arcade.hidden_text import visible
from whichtool_tui.arcade.instructions import scan_menu
from whichtool_tui.arcade.receipt import AtomResult, Check

AGENT_IDENTITY = ("claude-ai", "0.1.0")
"""The clientInfo of the second session: the name a widely used desktop agent sends."""
AGENT_CAPABILITIES: dict[str, Any] = {"roots": {"listChanged": True}, "sampling": {}}
"""What the second session declares: a host with roots and sampling, where the house declares
nothing (a menu keyed on declared capabilities shows scanners the clean one)."""


async def _listing(ctx: AtomContext, capabilities: dict[str, Any]) -> list[dict[str, Any]]:
    """The menu a fresh session under the agent's clientInfo is served."""
    assert ctx.connect_as is not None
    async with ctx.connect_as(*AGENT_IDENTITY) as session:
        session.client_capabilities = dict(capabilities)
        await session.initialize()
        listed: list[dict[str, Any]] = await session.list_tools()
    return listed


def _gated_check(house: list[dict[str, Any]], capable: list[dict[str, Any]]) -> Check:
    """Tools the house also sees must be unchanged; tools only a capable host sees (a sampling
    or roots tool, as server-everything offers) pass unless their text instructs the model."""
    change = compare_menus(menu_hashes(house), menu_hashes(capable))
    extra = [t for t in capable if t.get("name") in change.appeared]
    poisoned = scan_menu(extra)
    bad = bool(change.edited or change.renamed or poisoned)
    if bad:
        parts = [f"{visible(n)} re-described in place" for n in change.edited]
        parts += [f"{visible(o)} renamed to {visible(n)}" for o, n in change.renamed]
        parts += [f"capability-gated {h.describe()}" for h in poisoned]
        return check("capability_menus_match", "fail", "; ".join(parts))
    shown = ", ".join(visible(n) for n in change.appeared)
    gated = f"; capability-gated tools: {shown}" if change.appeared else ""
    return check(
        "capability_menus_match",
        "pass",
        f"declaring {', '.join(sorted(AGENT_CAPABILITIES))} changed no shared tool{gated}",
    )


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List as the house, then as an agent in a fresh session declaring nothing, then as an
    agent declaring roots and sampling; compare each with the house's menu."""
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
    raw_agent = await _listing(ctx, {})
    raw_capable = await _listing(ctx, AGENT_CAPABILITIES)
    agent = tool_infos(raw_agent)
    change = compare_menus(menu_hashes(raw_house), menu_hashes(raw_agent))
    checks = [
        check(
            "second_identity",
            "pass",
            f"two more sessions listed the menu as {name} {version}, declaring nothing, then "
            + ", ".join(sorted(AGENT_CAPABILITIES)),
        ),
        check(
            "menus_match",
            "fail" if change.changed else "pass",
            (f"as {name}: " + change.describe())
            if change.changed
            else "both identities were served the same menu",
        ),
        _gated_check(raw_house, raw_capable),
    ]
    return atom_result(
        ctx,
        failed_or_passed(checks),
        checks,
        authorized_tools=[],
        tools_before=house,
        tools_after=agent,
    )
