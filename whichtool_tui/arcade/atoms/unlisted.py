"""``protocol.unlisted_call`` (holdout): does the server answer a name it never listed?

The probe name carries a per-bout nonce so a server cannot special-case it. Only a JSON-RPC
success with ``isError`` false fails the atom; any refusal passes. Integrity only, never
``attack_success``.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms import PROBE_PREFIX
from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    CallLog,
    WireLike,
    atom_result,
    check,
    skipped,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult, TaskSpec

__all__ = ["PROBE_PREFIX", "probe_name", "run"]


def probe_name(bout_id: str) -> str:
    """The ghost tool name for a bout."""
    return PROBE_PREFIX + bout_id.removeprefix("bout_")[:12]


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, then call a name that is not on the menu, once, directly."""
    tools = tool_infos(await wire.list_tools())
    probe = probe_name(ctx.bout_id)
    task = TaskSpec(tool=probe, arguments={}, source="fixture-default")
    if any(t.name == probe for t in tools):
        return skipped(
            ctx,
            "probe_unlisted",
            f"{probe} is listed; nothing was called",
            tools_before=tools,
            tools_after=tools,
            task=task,
        )
    log = CallLog(wire)
    outcome = await log(probe, {})
    answered = not outcome.is_error
    checks = [
        check(
            "probe_unlisted",
            "pass",
            f"tools/call {probe} sent; the name was absent from tools/list",
        ),
        check(
            "unlisted_answered",
            "fail" if answered else "pass",
            "the server answered a name it never listed (success, isError false)"
            if answered
            else "the server refused the unlisted name",
        ),
    ]
    return atom_result(
        ctx,
        "fail" if answered else "pass",
        checks,
        authorized_tools=[],
        calls=log.calls,
        tools_before=tools,
        tools_after=tools,
        task=task,
    )
