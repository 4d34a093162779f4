"""One atom in a fresh session: its environment, its transport, its result, never a crash.

Each atom gets a new process (or HTTP session) with its own ``ARCADE_*`` environment and a
cleaned sandbox folder. An atom that cannot finish becomes ERROR with a single ``harness``
check; the child is always reaped and its wire is kept.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from whichtool_tui.arcade import events
from whichtool_tui.arcade.atoms import EXTENDED_IDS, AtomSpec
from whichtool_tui.arcade.atoms.common import AtomContext
from whichtool_tui.arcade.bounds import TOO_DEEP_KIND, clip_depth, deepest_breach
from whichtool_tui.arcade.plan import FIXTURE_SECRET, BoutPlan
from whichtool_tui.arcade.receipt import (
    AtomResult,
    Check,
    ServerRequest,
    SessionInfo,
    WireEventModel,
)
from whichtool_tui.arcade.sandbox import prepare_atom_dir, snapshot_dir
from whichtool_tui.redact import redact_secret_text

AtomRunner = Callable[[AtomContext, Any], Awaitable[AtomResult]]

# The SDK's HTTP client logs a traceback for a message it cannot parse (a schema bomb past its
# JSON recursion limit); the atom reports that itself, as one named line.
logging.getLogger("mcp").addHandler(logging.NullHandler())


def _runner(atom_id: str) -> AtomRunner:
    from whichtool_tui.arcade.atoms import (
        bounds,
        errands,
        forged,
        hidden,
        identity,
        inspect,
        instructions,
        notifications,
        poison,
        rename,
        rug_pull,
        server_requests,
        sleeper,
        unlisted,
    )

    runners: dict[str, AtomRunner] = {
        "inspect.tools_list": inspect.run,
        "poison.follow_through": poison.run,
        "temporal.rug_pull": rug_pull.run,
        "protocol.unlisted_call": unlisted.run,
        "poison.never_called": errands.run_never_called,
        "poison.parameter": errands.run_parameter,
        "poison.result": errands.run_result,
        "temporal.rename": rename.run,
        "identity.bait_switch": identity.run,
        "encoding.hidden": hidden.run,
        "schema.bounds": bounds.run,
        "display.forged": forged.run,
        "protocol.server_requests": server_requests.run,
        "injection.notifications": notifications.run,
        "poison.instructions": instructions.run,
        "temporal.sleeper": sleeper.run,
    }
    return runners[atom_id]


EXTENDED_SWITCHES = {
    "poison.never_called": "ARCADE_POISON_NEVER_CALLED",
    "poison.parameter": "ARCADE_POISON_PARAMETER",
    "poison.result": "ARCADE_POISON_RESULT",
    "identity.bait_switch": "ARCADE_BAIT_SWITCH",
    "encoding.hidden": "ARCADE_HIDDEN",
    "schema.bounds": "ARCADE_SCHEMA_BOMB",
    "display.forged": "ARCADE_FORGED",
    "protocol.server_requests": "ARCADE_ELICIT_SECRET",
    "injection.notifications": "ARCADE_NOTIFY_INJECT",
    "poison.instructions": "ARCADE_INSTRUCTION_POISON",
}
SELF_SNAPSHOT_IDS = frozenset({"temporal.rug_pull", "temporal.sleeper"})
"""Atoms that take their own sandbox snapshots around their calls."""
"""The fixture switch each extended atom turns on (the rename atom sets ARCADE_RENAME_AFTER)."""


def atom_env(plan: BoutPlan, spec: AtomSpec, leak_path: Path) -> dict[str, str]:
    """The per-atom switches every target receives (live servers too, as upstream).

    The extended atoms' switches are added only to bouts that run an extended atom, so a bout
    of mcp-arcade's four sends exactly mcp-arcade's variables.
    """
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
    if plan.kind == "fixture":
        # Our own server runs our own code: the package this process imported, not whichever
        # copy the child's interpreter would find (a proxy in front passes this on too).
        import whichtool_tui

        home = str(Path(whichtool_tui.__file__).resolve().parent.parent)
        inherited = env.get("PYTHONPATH")
        env["PYTHONPATH"] = home + (os.pathsep + inherited if inherited else "")
    if any(atom_id in EXTENDED_IDS for atom_id in plan.atom_ids):
        for atom_id, key in EXTENDED_SWITCHES.items():
            env[key] = "1" if spec.id == atom_id else "0"
        env["ARCADE_RENAME_AFTER"] = str(plan.n_clean) if spec.id == "temporal.rename" else "0"
        if spec.id == "temporal.sleeper":  # the lab's sleeper pulls the rug past N, before K
            env["ARCADE_RUG_AFTER"] = str(2 * plan.n_clean + 1)
    return env


_ERROR_NAMES = {
    "timeout": "ClientTimeout",
    "start-timeout": "StartTimeout",
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
    from whichtool_tui.mcp_client.recorder import StdioChannel, recorded_channel, recorded_http

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
    async with recorded_channel(
        channel, recorder, plan.timeout, start_timeout=plan.start_timeout
    ) as wire:
        yield wire


def _second_session(
    plan: BoutPlan, argv: list[str], env: Mapping[str, str], recorder: Any, name: str
) -> Callable[[str, str], contextlib.AbstractAsyncContextManager[Any]]:
    """How an atom opens one more fresh session (new process, HTTP session or container) under
    another clientInfo, recorded on the same atom's wire."""

    @contextlib.asynccontextmanager
    async def connect_as(client_name: str, client_version: str) -> AsyncIterator[Any]:
        from whichtool_tui.mcp_client.recorder import (
            StdioChannel,
            recorded_channel,
            recorded_http,
        )

        identity = (client_name, client_version)
        if plan.kind == "http":
            assert plan.url is not None
            async with recorded_http(
                plan.url, recorder, request_timeout=plan.timeout, client_info=identity
            ) as wire:
                yield wire
            return
        second_argv = argv
        second_name = name + "-b" if name else ""
        if plan.docker is not None:
            second_argv = plan.docker.argv(second_name, [k for k in env if k.startswith("ARCADE_")])
        try:
            channel = await StdioChannel.start(second_argv, env, None, plan.framing)  # type: ignore[arg-type]
            async with recorded_channel(
                channel, recorder, plan.timeout, identity, start_timeout=plan.start_timeout
            ) as wire:
                yield wire
        finally:
            if plan.docker is not None:
                from whichtool_tui.arcade import docker

                docker.force_remove(second_name)

    return connect_as


def _too_deep(error: BaseException) -> bool:
    from whichtool_tui.mcp_client.recorder import WireError

    if not isinstance(error, WireError):
        return False
    return error.kind == TOO_DEEP_KIND or "recursion limit exceeded" in str(error)


def bounded_atom(spec: AtomSpec, atom: AtomResult, records: Any) -> AtomResult:
    """The atom with server values clipped to the stored bound; an atom whose session received
    data past the bound is an ERROR naming it (``schema.bounds`` has judged it already)."""
    for tool in [*atom.tools_before, *atom.tools_after]:
        tool.input_schema = clip_depth(tool.input_schema)
    for call in atom.calls:
        call.arguments = clip_depth(call.arguments)
    atom.task.arguments = clip_depth(atom.task.arguments)
    atom.session.server_info = clip_depth(atom.session.server_info)
    atom.session.server_capabilities = clip_depth(atom.session.server_capabilities)
    breach = deepest_breach(records)
    if breach is None or spec.id == "schema.bounds" or atom.result == "error":
        if breach is not None and atom.result == "error":
            atom.checks.append(Check(id="bound", detail=breach.describe(), result="error"))
        return atom
    atom.result = "error"
    atom.checks.append(Check(id="bound", detail=breach.describe(), result="error"))
    return atom


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
    from whichtool_tui.mcp_client.recorder import Recorder

    sink(events.AtomStarted(spec.id))
    if prestarted is None:
        folder = prepare_atom_dir(plan.sandbox, spec.short)
    else:
        folder = plan.sandbox / spec.short

    def forward(record: Any) -> None:
        sink(
            events.WireEvent(
                spec.id,
                record.seq,
                record.direction,
                record.method,
                record.rpc_id,
                clip_depth(record.message),
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
        target_url=plan.url,
        sleeper_seed=plan.sleeper_seed,
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
    ctx.connect_as = _second_session(plan, argv, env, recorder, name)
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
                if plan.docker is not None and spec.id not in SELF_SNAPSHOT_IDS:
                    atom.env_before, atom.env_after = env_before, ctx.snapshot()
            finally:
                requests = list(wire.server_requests)
                session.protocol_version_sent = session.protocol_version_sent or (
                    wire.facts.protocol_version_sent
                )
    except Exception as exc:  # a server we did not write must never crash the bout
        atom = error_atom(spec, harness_detail(exc), list(ctx.notes))
        if spec.id == "schema.bounds" and _too_deep(exc):
            from whichtool_tui.arcade.atoms.bounds import unreadable_result

            atom = unreadable_result(ctx, harness_detail(exc))
    finally:
        if plan.docker is not None and session.container is not None:
            from whichtool_tui.arcade import docker

            session.container.force_removed = docker.force_remove(name)
    channel = holder.get("channel")
    if channel is not None:
        session.framing = channel.framing
        session.framing_source = channel.framing_source
        # A server's stderr is outside text that may echo a credential: masked before storing.
        session.stderr_tail = redact_secret_text(channel.stderr_tail())
    if plan.framing != "auto" and session.framing_source is None and plan.kind != "http":
        session.framing_source = "flag"
    session.seat = getattr(plan.seat, "info", None)
    atom.session = session
    atom = bounded_atom(spec, atom, recorder.records)
    if plan.docker is None and (spec.id not in SELF_SNAPSHOT_IDS or atom.result == "error"):
        atom.env_before = env_before or snapshot_dir(folder)
        atom.env_after = snapshot_dir(folder)
    sink(events.AtomFinished(spec.id, atom.result))
    wire_events = [
        WireEventModel(
            seq=r.seq,
            direction=r.direction,
            method=r.method,
            rpc_id=r.rpc_id,
            message=clip_depth(r.message),
            atom_id=spec.id,
        )
        for r in recorder.records
    ]
    server_requests = [
        ServerRequest(atom_id=spec.id, method=r.method, rpc_id=r.rpc_id, rejected=r.rejected)
        for r in requests
    ]
    return atom, wire_events, server_requests
