"""Running a bout: every planned atom in a fresh session, the wire kept whole, a receipt at the end.

Atoms run one after another (side by side on the bundled fixture with a scripted seat, reported
in the same order); see atom_session for what one atom does.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from functools import partial
from typing import Any

import anyio

from whichtool_tui.arcade import events
from whichtool_tui.arcade.atom_session import atom_env, run_atom
from whichtool_tui.arcade.atoms import EXTENDED_IDS, HOLDOUT_IDS, AtomSpec, spec_for
from whichtool_tui.arcade.plan import FIXTURE_MODULE, FIXTURE_SECRET, BoutPlan, fixture_argv
from whichtool_tui.arcade.receipt import (
    EXTENDED_SCHEMA_ID,
    HYPOTHESIS,
    SCHEMA_ID,
    AtomResult,
    BoutReceipt,
    OperatorCall,
    RunSettings,
    ServerRequest,
    TargetSpec,
    TaskSpec,
    WireEventModel,
)
from whichtool_tui.arcade.sandbox import lock_sandbox, prepare_atom_dir
from whichtool_tui.arcade.scores import contrastive, score_atoms
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_command_args, redact_url

__all__ = ["FIXTURE_MODULE", "FIXTURE_SECRET", "BoutPlan", "fixture_argv", "run_atom", "run_bout"]


def _start_zygote(plan: BoutPlan) -> Any:
    """A warm fixture parent for the bundled fixture (POSIX), else None."""
    from whichtool_tui.arcade.zygote import start_zygote

    return start_zygote() if plan.kind == "fixture" and plan.defence is None else None


async def _launch(plan: BoutPlan, spec: AtomSpec, warm: Any = None) -> Any:
    """Clean the atom's folder and spawn its server; a spawn error is returned, not raised."""
    from whichtool_tui.mcp_client.recorder import StdioChannel, WireError

    folder = prepare_atom_dir(plan.sandbox, spec.short)
    env = atom_env(plan, spec, folder / "leak.txt")
    try:
        if warm is not None:
            from whichtool_tui.arcade.zygote import channel_for

            return channel_for(warm.spawn(plan.argv[3:], env), plan.framing)
        return await StdioChannel.start(plan.argv, env, None, plan.framing)  # type: ignore[arg-type]
    except WireError as exc:
        return exc


async def _close_leftovers(launched: list[Any]) -> None:
    """Close the servers of atoms that never ran (the bout stopped early), all at once and
    without grace: they got no request, and a Ctrl+C should not wait on each in turn."""
    leftovers = [c for c in launched if c is not None and not isinstance(c, BaseException)]
    if not leftovers:
        return
    with anyio.CancelScope(shield=True):
        async with anyio.create_task_group() as group:
            for channel in leftovers:
                group.start_soon(partial(channel.aclose, urgent=True))


def _scripted(plan: BoutPlan) -> bool:
    """The bundled fixture played by a scripted seat: nothing shared between atoms but the plan.

    Live servers and model seats keep upstream's one-after-another order: a server we did not
    write may share state between instances, and a model server may batch concurrent requests.
    """
    scripted = getattr(plan.seat, "info", None) is None
    return plan.kind == "fixture" and plan.defence is None and scripted


def _now() -> str:
    return datetime.now(UTC).isoformat()


def new_bout_id() -> str:
    """``bout_`` plus 12 hex characters."""
    return "bout_" + uuid.uuid4().hex[:12]


async def run_bout(
    plan: BoutPlan,
    sink: events.EventSink = events.ignore_events,
    bout_id: str | None = None,
) -> BoutReceipt:
    """Run every planned atom in order and assemble the receipt (no operator guess yet).

    The sandbox folder is held for the whole bout; one another bout holds is refused before
    any server starts (``bout/sandbox-busy``).
    """
    try:
        held = lock_sandbox(plan.sandbox)
    except WhichtoolError:
        if plan.zygote is not None:  # a warm parent the caller started early
            plan.zygote.close()
            plan.zygote = None
        raise
    with held:
        return await _run_bout_held(plan, sink, bout_id)


async def _run_bout_held(
    plan: BoutPlan, sink: events.EventSink, bout_id: str | None
) -> BoutReceipt:
    """``run_bout`` once the sandbox is ours."""
    bout_id = bout_id or new_bout_id()
    started = _now()
    sink(events.BoutStarted(bout_id, tuple(plan.atom_ids)))
    plan.sandbox.mkdir(parents=True, exist_ok=True)
    atoms: list[AtomResult] = []
    wire: list[WireEventModel] = []
    server_requests: list[ServerRequest] = []
    specs = [spec_for(atom_id) for atom_id in plan.atom_ids]
    # Spawn every atom's server up front: still one fresh process per atom, each talked to only
    # by its own atom, but their start-up (imports) overlaps instead of adding up.
    prestart = plan.docker is None and plan.kind != "http" and len(set(plan.atom_ids)) == len(specs)
    zygote = plan.zygote or (_start_zygote(plan) if prestart else None)
    plan.zygote = None
    launched: list[Any] = [await _launch(plan, spec, zygote) for spec in specs] if prestart else []
    outcomes: list[Any] = [None] * len(specs)

    async def one(index: int, atom_sink: events.EventSink) -> None:
        current = launched[index] if prestart else None
        if prestart:
            launched[index] = None
        outcomes[index] = await run_atom(plan, specs[index], bout_id, atom_sink, current)

    try:
        if prestart and plan.parallel_atoms and _scripted(plan):
            # Each atom has its own process and sandbox folder: run them side by side, then
            # report and assemble in plan order, exactly as a sequential run would.
            ordered = events.OrderedSinks(sink, len(specs))

            async def side_by_side(index: int) -> None:
                await one(index, ordered.for_atom(index))
                ordered.finish(index)

            async with anyio.create_task_group() as group:
                for index in range(len(specs)):
                    group.start_soon(side_by_side, index)
        else:
            for index in range(len(specs)):
                await one(index, sink)
        for atom, atom_wire, atom_requests in outcomes:
            atoms.append(atom)
            wire.extend(atom_wire)
            server_requests.extend(atom_requests)
    finally:
        await _close_leftovers(launched)
        if zygote is not None:
            zygote.close()
    scores = score_atoms(atoms)
    extended = any(a.id in EXTENDED_IDS for a in atoms) or plan.seat.policy == "credulous"
    receipt = BoutReceipt(
        schema_id=EXTENDED_SCHEMA_ID if extended else SCHEMA_ID,
        bout_id=bout_id,
        started_at=started,
        finished_at=_now(),
        target=TargetSpec(
            kind=plan.kind,
            command=redact_command_args(
                plan.recorded_command if plan.recorded_command is not None else plan.argv
            ),
            framing=plan.framing,
            timeout_s=plan.timeout,
            url=redact_url(plan.url) if plan.url else None,
            image=plan.docker.image if plan.docker is not None else None,
            docker_args=list(plan.docker.docker_args) if plan.docker is not None else [],
            binds=list(plan.docker.binds) if plan.docker is not None else [],
        ),
        agent_policy=plan.seat.policy,
        allow_live=plan.allow_live,
        hypothesis=HYPOTHESIS,
        task=plan.operator_task or TaskSpec(),
        atoms=atoms,
        scores=scores,
        wire=wire,
        server_requests=server_requests,
        operator_call=OperatorCall(recorded=False, guess=None, skipped=True),
        contrastive=contrastive(atoms, scores, plan.seat.policy),
        dataset={
            "split": plan.split,
            "holdout_atom_ids": sorted({a.id for a in atoms if a.id in HOLDOUT_IDS}),
            "label_source": "wire",
        },
        run=RunSettings(
            seat_allow=plan.seat_allow,
            wrap=plan.wrap,
            wrap_target=plan.wrap_target,
            n_clean=plan.n_clean,
            atoms=list(plan.atom_ids),
            defence=redact_command_args(plan.defence) if plan.defence is not None else None,
            start_timeout_s=plan.start_timeout if plan.kind != "http" else None,
        ),
    )
    sink(events.BoutFinished(bout_id))
    return receipt
