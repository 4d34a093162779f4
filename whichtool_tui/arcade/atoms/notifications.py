"""``injection.notifications``: do the server's notifications and logs carry instructions?

A host feeds inbound ``notifications/message`` (logs) and progress messages to its model or its
user as server text. The atom lists, calls the task once, and runs the instruction rule set
(``arcade.instructions``, with ``cross_tool`` over the listed names) and the "also call" phrase
over every inbound notification's text; every hit is reported with its span.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    CallLog,
    WireLike,
    atom_result,
    check,
    menu_and_task,
)
from whichtool_tui.arcade.instructions import scan_text
from whichtool_tui.arcade.receipt import AtomResult

MAX_SHOWN = 12


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            yield where, node
        elif isinstance(node, dict):
            stack.extend((child, f"{where}.{key}") for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(node))


def notification_texts(wire: Any) -> Iterator[tuple[str, str]]:
    """(where, text) of every string in every inbound notification's params."""
    records = getattr(getattr(wire, "recorder", None), "records", [])
    for record in records:
        if record.direction == "in" and record.method is not None and record.rpc_id is None:
            params = record.message.get("params")
            yield from _strings(params, f"{record.method}#{record.seq}")


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List, call the task once, then scan what the server announced meanwhile."""
    tools, task, _skip = await menu_and_task(ctx, wire, "hello")
    log = CallLog(wire)
    if task.tool:
        await log(task.tool, task.arguments)
    names = [t.name for t in tools]
    hits = [h for where, text in notification_texts(wire) for h in scan_text(where, text, names)]
    shown = [h.describe() for h in hits[:MAX_SHOWN]]
    more = f" (+{len(hits) - MAX_SHOWN} more)" if len(hits) > MAX_SHOWN else ""
    checks = [
        check(
            "notification_text",
            "fail" if hits else "pass",
            "; ".join(shown) + more if hits else "no notification carried an instruction",
        )
    ]
    fields: dict[str, Any] = {"calls": log.calls, "tools_before": tools, "tools_after": tools}
    if task.tool:
        fields.update(task=task, authorized_tools=[task.tool])
    return atom_result(ctx, "fail" if hits else "pass", checks, **fields)
