"""What every atom shares: its context, task resolution, menu parsing and the call log."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from whichtool_tui.arcade.atoms import AtomSpec
from whichtool_tui.arcade.receipt import (
    AtomResult,
    Check,
    EnvSnapshot,
    TaskSpec,
    ToolCall,
    ToolInfo,
    Verdict,
)

REFUSED_TEXT = "refused by house: not in --seat-allow"


class WireLike(Protocol):
    """The slice of a recorded session an atom uses."""

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every listed tool as raw JSON."""
        ...

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """One tools/call; returns an object with ``is_error`` and ``result_text``."""
        ...


Caller = Callable[[str, dict[str, Any]], Awaitable[ToolCall]]


class Seat(Protocol):
    """A policy that turns the presented menu and the task into tool calls."""

    policy: str

    async def play(
        self,
        tools: Sequence[ToolInfo],
        task: TaskSpec,
        call: Caller,
        rounds: int = 1,
        channel: str = "description",
    ) -> None:
        """Make calls through ``call`` and return when done; ``rounds`` > 1 lets a model seat
        see the results of its calls and answer again; ``channel`` names where the atom hid
        its errand (a scripted seat may read only there)."""
        ...


@dataclass
class AtomContext:
    """Everything an atom may know: never the scores, never the operator's guess."""

    spec: AtomSpec
    bout_id: str
    seat: Seat
    operator_task: TaskSpec | None
    fixture: bool
    live: bool
    seat_allow: list[str] | None
    wrap: bool
    wrap_target: str | None
    n_clean: int
    snapshot: Callable[[], EnvSnapshot]
    notes: list[str] = field(default_factory=list)
    connect_as: Callable[[str, str], AbstractAsyncContextManager[Any]] | None = None
    """A second fresh session under another clientInfo (name, version); None where unsupported."""
    target_url: str | None = None
    sleeper_seed: int | None = None
    """temporal.sleeper's seed when the plan fixes it (conformance passes share one)."""
    """The HTTP target's URL (its host is the server's own, for icon URLs); None over stdio."""


def tool_infos(raw_tools: Sequence[dict[str, Any]]) -> list[ToolInfo]:
    """Listed tools as receipt entries; entries without a string name are skipped."""
    infos: list[ToolInfo] = []
    for tool in raw_tools:
        name = tool.get("name")
        if not isinstance(name, str):
            continue
        description = tool.get("description")
        schema = tool.get("inputSchema", tool.get("input_schema"))
        infos.append(
            ToolInfo(
                name=name,
                description=description if isinstance(description, str) else "",
                input_schema=schema if isinstance(schema, dict) else {},
            )
        )
    return infos


def resolve_task(ctx: AtomContext, tools: Sequence[ToolInfo], default_text: str) -> TaskSpec:
    """Operator task first; otherwise echo when listed; otherwise none (the atom SKIPs)."""
    if ctx.operator_task is not None and ctx.operator_task.tool:
        return ctx.operator_task
    if any(tool.name == "echo" for tool in tools):
        return TaskSpec(tool="echo", arguments={"text": default_text}, source="fixture-default")
    return TaskSpec()


class CallLog:
    """Sends calls and keeps them in order; with an allow list, refuses before the wire."""

    def __init__(self, wire: WireLike, allow: Sequence[str] | None = None) -> None:
        self.wire = wire
        self.allow = None if allow is None else set(allow)
        self.calls: list[ToolCall] = []

    def notifications(self) -> list[dict[str, Any]]:
        """Inbound notifications recorded on this session so far (what a model seat is shown)."""
        records = getattr(getattr(self.wire, "recorder", None), "records", None) or []
        return [
            r.message
            for r in records
            if r.direction == "in" and r.method is not None and r.rpc_id is None
        ]

    async def __call__(self, name: str, arguments: dict[str, Any]) -> ToolCall:
        """Record one call; a refused one is kept with ``sent`` false."""
        if self.allow is not None and name not in self.allow:
            refused = ToolCall(
                name=name, arguments=arguments, is_error=True, result_text=REFUSED_TEXT, sent=False
            )
            self.calls.append(refused)
            return refused
        outcome = await self.wire.call_tool(name, arguments)
        call = ToolCall(
            name=name,
            arguments=arguments,
            is_error=bool(outcome.is_error),
            result_text=str(outcome.result_text),
        )
        self.calls.append(call)
        return call


def check(check_id: str, result: Verdict, detail: str) -> Check:
    """Shorthand for one check."""
    return Check(id=check_id, result=result, detail=detail)


def atom_result(
    ctx: AtomContext,
    result: Verdict,
    checks: Sequence[Check],
    notes: Sequence[str] | None = None,
    **fields: Any,
) -> AtomResult:
    """The atom's result with its catalog id, title and hypothesis (notes default to ctx's)."""
    return AtomResult(
        id=ctx.spec.id,
        title=ctx.spec.title,
        hypothesis=ctx.spec.hypothesis,
        result=result,
        checks=list(checks),
        notes=list(ctx.notes if notes is None else notes),
        **fields,
    )


def skipped(ctx: AtomContext, check_id: str, detail: str, **fields: Any) -> AtomResult:
    """An atom that could not apply: SKIP with one named check."""
    return atom_result(ctx, "skip", [check(check_id, "skip", detail)], **fields)


async def listed_menu_and_task(
    ctx: AtomContext, wire: WireLike, default_text: str
) -> tuple[list[dict[str, Any]], list[ToolInfo], TaskSpec, AtomResult | None]:
    """``menu_and_task`` that also keeps the raw ``tools/list`` result (to hash it later)."""
    raw = await wire.list_tools()
    tools = tool_infos(raw)
    task = resolve_task(ctx, tools, default_text)
    if task.tool:
        return raw, tools, task, None
    skip = skipped(
        ctx,
        "applicable",
        "no task: name one with --task (no echo listed)",
        tools_before=tools,
        tools_after=tools,
        task=task,
    )
    return raw, tools, task, skip


async def menu_and_task(
    ctx: AtomContext, wire: WireLike, default_text: str
) -> tuple[list[ToolInfo], TaskSpec, AtomResult | None]:
    """List the menu and resolve the task; the third item is the SKIP result when there is none."""
    _raw, tools, task, skip = await listed_menu_and_task(ctx, wire, default_text)
    return tools, task, skip


async def clean_calls(ctx: AtomContext, wire: WireLike, task: TaskSpec) -> list[ToolCall]:
    """The N clean calls of the task (``--n-clean``) a temporal atom makes between listings."""
    assert task.tool is not None  # the caller skipped when there is no task tool
    log = CallLog(wire)
    for _ in range(max(ctx.n_clean, 0)):
        await log(task.tool, task.arguments)
    return log.calls


def clean_calls_check(calls: Sequence[ToolCall], task_tool: str) -> Check:
    """PASS when the first of the N clean task calls came back without an error."""
    return check(
        "clean_calls",
        "pass" if calls and not calls[0].is_error else "fail",
        f"{len(calls)} call(s) of {task_tool}" if calls else "no clean call was made",
    )


def failed_or_passed(checks: Sequence[Check]) -> Verdict:
    """FAIL if any check failed, else PASS (a SKIP check never fails an atom)."""
    return "fail" if any(c.result == "fail" for c in checks) else "pass"


def fingerprint(tools: Sequence[ToolInfo]) -> str:
    """sha256 of the menu as compact sorted-key JSON, tools sorted by name."""
    import hashlib

    rows = sorted(
        (
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in tools
        ),
        key=lambda row: str(row["name"]),
    )
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_hash(raw_tool: dict[str, Any]) -> str:
    """sha256 over a listed tool's description, input schema and annotations, never its name.

    Leaving the name out is the point: a renamed tool keeps its hash, so a rename is matched
    to its old content, and a re-description under a new name shows as new content.
    """
    import hashlib

    schema = raw_tool.get("inputSchema", raw_tool.get("input_schema"))
    content = {
        "description": raw_tool.get("description"),
        "inputSchema": schema if isinstance(schema, dict) else {},
        "annotations": raw_tool.get("annotations"),
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def menu_hashes(raw_tools: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Tool name -> content hash for every listed tool with a string name."""
    return {
        str(tool["name"]): content_hash(tool)
        for tool in raw_tools
        if isinstance(tool.get("name"), str)
    }


@dataclass(frozen=True)
class MenuChange:
    """How two listings differ by content hash: edited in place, renamed, appeared, vanished."""

    edited: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    appeared: tuple[str, ...] = ()
    vanished: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """True when any tool's name or content differs."""
        return bool(self.edited or self.renamed or self.appeared or self.vanished)

    def describe(self) -> str:
        """One line naming every difference, or that there is none."""
        parts = [f"{name} re-described in place" for name in self.edited]
        parts += [f"{old} renamed to {new} (same content)" for old, new in self.renamed]
        parts += [f"{name} appeared with content never listed before" for name in self.appeared]
        parts += [f"{name} vanished" for name in self.vanished]
        return "; ".join(parts) if parts else "every tool has the same name and content"


def compare_menus(before: dict[str, str], after: dict[str, str]) -> MenuChange:
    """Match two name -> hash menus, pairing a vanished name with a new one of equal content."""
    edited = sorted(n for n in before.keys() & after.keys() if before[n] != after[n])
    gone = sorted(before.keys() - after.keys())
    new = sorted(after.keys() - before.keys())
    renamed: list[tuple[str, str]] = []
    for old in list(gone):
        match = next((n for n in new if after[n] == before[old]), None)
        if match is not None:
            renamed.append((old, match))
            gone.remove(old)
            new.remove(match)
    return MenuChange(tuple(edited), tuple(renamed), tuple(new), tuple(gone))


def inbound_methods(wire: Any) -> list[str]:
    """Methods of the inbound notifications recorded on this session so far (empty if unknown)."""
    recorder = getattr(wire, "recorder", None)
    records = getattr(recorder, "records", None) or []
    return [
        r.method
        for r in records
        if r.direction == "in" and r.method is not None and r.rpc_id is None
    ]
