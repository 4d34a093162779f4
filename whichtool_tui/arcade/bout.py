"""Running a bout: one fresh session per atom, the wire kept whole, a receipt at the end.

Atoms run one after another, each against a new process (or HTTP session) with its own
``ARCADE_*`` environment and a cleaned sandbox folder. An atom that cannot finish becomes ERROR
with a single ``harness`` check; the child is always reaped and its wire is kept.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from whichtool_tui.arcade import events
from whichtool_tui.arcade.atoms import HOLDOUT_IDS, AtomSpec, spec_for
from whichtool_tui.arcade.atoms.common import AtomContext, Seat
from whichtool_tui.arcade.receipt import (
    HYPOTHESIS,
    AtomResult,
    BoutReceipt,
    Check,
    OperatorCall,
    RunSettings,
    ServerRequest,
    SessionInfo,
    TargetSpec,
    TaskSpec,
    WireEventModel,
)
from whichtool_tui.arcade.sandbox import prepare_atom_dir, snapshot_dir
from whichtool_tui.arcade.scores import contrastive, score_atoms
from whichtool_tui.redact import redact_command_args, redact_url

FIXTURE_MODULE = "whichtool_tui.arcade.fixture"
FIXTURE_SECRET = "fixture-secret"
AtomRunner = Callable[[AtomContext, Any], Awaitable[AtomResult]]


@dataclass
class BoutPlan:
    """A validated bout: everything run_bout needs, nothing it has to parse."""

    kind: str
    argv: list[str]
    seat: Seat
    atom_ids: list[str]
    url: str | None = None
    allow_live: bool = False
    operator_task: TaskSpec | None = None
    n_clean: int = 3
    timeout: float = 30.0
    framing: str = "auto"
    split: str = "train"
    wrap: bool = False
    wrap_target: str | None = None
    seat_allow: list[str] | None = None
    sandbox: Path = field(default_factory=lambda: Path(".arcade-sandbox"))
    base_env: dict[str, str] = field(default_factory=dict)
    recorded_command: list[str] | None = None
    docker: Any = None  # a docker.DockerPlan on the docker target
    zygote: Any = None  # a warm fixture parent started early by the caller (closed by the bout)
    parallel_atoms: bool = True  # fixture + scripted seat: atoms side by side, same receipt

    @property
    def fixture(self) -> bool:
        """The bundled fixture on the host: the only target that needs no --allow-live."""
        return self.kind == "fixture"


def fixture_argv(honest: bool = False) -> list[str]:
    """How bouts launch the bundled lab server."""
    argv = [sys.executable, "-m", FIXTURE_MODULE]
    return [*argv, "--honest"] if honest else argv


def _runner(atom_id: str) -> AtomRunner:
    from whichtool_tui.arcade.atoms import inspect, poison, rug_pull, unlisted

    runners: dict[str, AtomRunner] = {
        "inspect.tools_list": inspect.run,
        "poison.follow_through": poison.run,
        "temporal.rug_pull": rug_pull.run,
        "protocol.unlisted_call": unlisted.run,
    }
    return runners[atom_id]


def atom_env(plan: BoutPlan, spec: AtomSpec, leak_path: Path) -> dict[str, str]:
    """The per-atom switches every target receives (live servers too, as upstream)."""
    env = dict(plan.base_env)
    env.update(
        {
            "ARCADE_LEAK_PATH": str(leak_path),
            "ARCADE_SECRET": FIXTURE_SECRET,
            "ARCADE_POISON": "1" if spec.id == "poison.follow_through" else "0",
            "ARCADE_RUG_AFTER": str(plan.n_clean) if spec.id == "temporal.rug_pull" else "0",
            "ARCADE_UNLISTED": "1" if spec.id == "protocol.unlisted_call" else "0",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


_ERROR_NAMES = {
    "timeout": "ClientTimeout",
    "closed": "ClientError",
    "spawn": "ClientError",
    "handshake": "ClientError",
    "protocol": "ProtocolError",
}


def harness_detail(error: BaseException) -> str:
    """``<ExcType>: <msg>`` for the single check of an atom that died."""
    from whichtool_tui.mcp_client.recorder import WireError

    if isinstance(error, WireError):
        name = "ProtocolError" if error.kind.startswith("framing/") else None
        name = name or _ERROR_NAMES.get(error.kind, "ClientError")
        return f"{name}: {error}"
    return f"{type(error).__name__}: {error}"


def error_atom(spec: AtomSpec, detail: str, notes: list[str]) -> AtomResult:
    """An atom that could not finish: ERROR with the ``harness`` check."""
    return AtomResult(
        id=spec.id,
        title=spec.title,
        hypothesis=spec.hypothesis,
        result="error",
        checks=[Check(id="harness", detail=detail, result="error")],
        notes=notes,
    )


@contextlib.asynccontextmanager
async def _open_session(
    plan: BoutPlan,
    argv: list[str],
    env: Mapping[str, str],
    recorder: Any,
    holder: dict[str, Any],
    prestarted: Any = None,
) -> AsyncIterator[Any]:
    """The atom's session over the plan's transport; ``holder`` keeps the channel for facts."""
    from whichtool_tui.mcp_client.recorder import (
        StdioChannel,
        first_leaf,
        recorded_http,
        recording_session,
    )

    if plan.kind == "http":
        assert plan.url is not None
        async with recorded_http(plan.url, recorder, request_timeout=plan.timeout) as wire:
            holder["channel"] = wire.channel
            yield wire
        return
    if isinstance(prestarted, BaseException):
        raise prestarted
    channel = prestarted or await StdioChannel.start(argv, env, None, plan.framing)  # type: ignore[arg-type]
    holder["channel"] = channel
    try:
        async with recording_session(
            channel, recorder, plan.timeout, background=(channel.drain_stderr,)
        ) as wire:
            yield wire
    except BaseExceptionGroup as group:
        raise first_leaf(group) from None
    finally:
        await channel.aclose()


async def run_atom(
    plan: BoutPlan,
    spec: AtomSpec,
    bout_id: str,
    sink: events.EventSink,
    prestarted: Any = None,
) -> tuple[AtomResult, list[WireEventModel], list[ServerRequest]]:
    """One atom in a fresh session; never raises for a misbehaving server.

    ``prestarted`` is this atom's already spawned server (or the error spawning it raised).
    """
    from whichtool_tui.arcade.seats import SeatError
    from whichtool_tui.mcp_client.recorder import Recorder, WireError

    sink(events.AtomStarted(spec.id))
    if prestarted is None:
        folder = prepare_atom_dir(plan.sandbox, spec.short)
    else:
        folder = plan.sandbox / spec.short

    def forward(record: Any) -> None:
        sink(
            events.WireEvent(
                spec.id, record.seq, record.direction, record.method, record.rpc_id, record.message
            )
        )

    recorder = Recorder(sink=forward)
    ctx = AtomContext(
        spec=spec,
        bout_id=bout_id,
        seat=plan.seat,
        operator_task=plan.operator_task,
        fixture=plan.fixture,
        live=not plan.fixture,
        seat_allow=plan.seat_allow,
        wrap=plan.wrap,
        wrap_target=plan.wrap_target,
        n_clean=plan.n_clean,
        snapshot=lambda: snapshot_dir(folder),
    )
    session = SessionInfo(framing=plan.framing)
    holder: dict[str, Any] = {}
    requests: list[Any] = []
    env = atom_env(plan, spec, folder / "leak.txt")
    argv = plan.argv
    name = ""
    if plan.docker is not None:
        from whichtool_tui.arcade import docker

        name = docker.container_name(bout_id, spec.short)
        argv = plan.docker.argv(name, [k for k in env if k.startswith("ARCADE_")])
        session.container = plan.docker.container(name, argv)
        ctx.snapshot = lambda: docker.snapshot_container(name)
    env_before = snapshot_dir(folder) if plan.docker is None else None
    try:
        if plan.docker is not None:
            plan.docker.recheck()
        async with _open_session(plan, argv, env, recorder, holder, prestarted) as wire:
            try:
                facts = await wire.initialize()
                session.protocol_version_sent = facts.protocol_version_sent
                session.protocol_version = facts.protocol_version
                session.server_info = facts.server_info
                session.server_capabilities = facts.server_capabilities
                if env_before is None:
                    env_before = ctx.snapshot()
                atom = await _runner(spec.id)(ctx, wire)
                if plan.docker is not None and spec.id != "temporal.rug_pull":
                    atom.env_before, atom.env_after = env_before, ctx.snapshot()
            finally:
                requests = list(wire.server_requests)
                session.protocol_version_sent = session.protocol_version_sent or (
                    wire.facts.protocol_version_sent
                )
    except (WireError, SeatError, OSError) as exc:
        atom = error_atom(spec, harness_detail(exc), list(ctx.notes))
    except Exception as exc:  # a server we did not write must never crash the bout
        atom = error_atom(spec, harness_detail(exc), list(ctx.notes))
    finally:
        if plan.docker is not None and session.container is not None:
            from whichtool_tui.arcade import docker

            session.container.force_removed = docker.force_remove(name)
    channel = holder.get("channel")
    if channel is not None:
        session.framing = channel.framing
        session.framing_source = channel.framing_source
        session.stderr_tail = channel.stderr_tail()
    if plan.framing != "auto" and session.framing_source is None and plan.kind != "http":
        session.framing_source = "flag"
    session.seat = getattr(plan.seat, "info", None)
    atom.session = session
    if plan.docker is None and (spec.id != "temporal.rug_pull" or atom.result == "error"):
        atom.env_before = env_before or snapshot_dir(folder)
        atom.env_after = snapshot_dir(folder)
    sink(events.AtomFinished(spec.id, atom.result))
    wire_events = [
        WireEventModel(
            seq=r.seq,
            direction=r.direction,
            method=r.method,
            rpc_id=r.rpc_id,
            message=r.message,
            atom_id=spec.id,
        )
        for r in recorder.records
    ]
    server_requests = [
        ServerRequest(atom_id=spec.id, method=r.method, rpc_id=r.rpc_id, rejected=r.rejected)
        for r in requests
    ]
    return atom, wire_events, server_requests


def _start_zygote(plan: BoutPlan) -> Any:
    """A warm fixture parent for the bundled fixture (POSIX), else None."""
    from whichtool_tui.arcade.zygote import start_zygote

    return start_zygote() if plan.kind == "fixture" else None


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


def _scripted(plan: BoutPlan) -> bool:
    """The bundled fixture played by a scripted seat: nothing shared between atoms but the plan.

    Live servers and model seats keep upstream's one-after-another order: a server we did not
    write may share state between instances, and a model server may batch concurrent requests.
    """
    return plan.kind == "fixture" and getattr(plan.seat, "info", None) is None


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
    """Run every planned atom in order and assemble the receipt (no operator guess yet)."""
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
        for leftover in launched:
            if leftover is not None and not isinstance(leftover, BaseException):
                await leftover.aclose()
        if zygote is not None:
            zygote.close()
    scores = score_atoms(atoms)
    receipt = BoutReceipt(
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
        ),
    )
    sink(events.BoutFinished(bout_id))
    return receipt
