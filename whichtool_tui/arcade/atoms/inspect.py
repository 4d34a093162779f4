"""``inspect.tools_list``: is the published menu the real menu?"""

from __future__ import annotations

from collections import Counter

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    CallLog,
    WireLike,
    atom_result,
    check,
    failed_or_passed,
    resolve_task,
    tool_infos,
)
from whichtool_tui.arcade.receipt import AtomResult, Check


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List the menu, check it, and smoke the task once through the scripted task-only path."""
    tools = tool_infos(await wire.list_tools())
    task = resolve_task(ctx, tools, "ping")
    names = [t.name for t in tools]
    duplicates = sorted(name for name, seen in Counter(names).items() if seen > 1)
    blank = [t.name for t in tools if not t.description.strip()]
    checks: list[Check] = [
        check(
            "nonempty_catalog",
            "pass" if tools else "fail",
            f"{len(tools)} tool(s) listed",
        ),
        check(
            "unique_names",
            "fail" if duplicates else "pass",
            f"duplicate names: {', '.join(duplicates)}" if duplicates else "every name is unique",
        ),
        check(
            "descriptions_present",
            "fail" if blank else "pass",
            f"blank descriptions: {', '.join(blank)}" if blank else "every tool is described",
        ),
    ]
    log = CallLog(wire)
    if task.tool:
        listed = task.tool in names
        checks.append(
            check(
                "task_listed",
                "pass" if listed else "fail",
                f"{task.tool} is {'on' if listed else 'missing from'} the menu",
            )
        )
        first = await log(task.tool, task.arguments)
        checks.append(
            check("smoke_invoke", "fail" if first.is_error else "pass", first.result_text[:200])
        )
    else:
        checks.append(check("smoke_invoke", "skip", "no task named and no echo listed"))
    return atom_result(
        ctx,
        failed_or_passed(checks),
        checks,
        authorized_tools=[task.tool] if task.tool else [],
        calls=log.calls,
        tools_before=tools,
        tools_after=tools,
        task=task,
    )
