"""What the user pointed us at (a snapshot, a command, a URL) and how to get its tool list.

``resolve_target`` turns the command-line target, ``--transport`` and the config into a
``TargetSpec``; ``fetch_listing``/``load_listing`` return the served ``tools/list``. Importing this
module stays cheap: the MCP SDK is loaded only when a live server is contacted.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from whichtool_tui.redact import redact_command_args, redact_url
from whichtool_tui.surface.listing import ServedListing, Transport
from whichtool_tui.text_safety import redact_message

if TYPE_CHECKING:
    from whichtool_tui.config import Settings

TRANSPORTS: tuple[Transport, ...] = ("snapshot", "stdio", "http", "legacy-sse")
_ALIASES: dict[str, Transport] = {"sse": "legacy-sse", "streamable-http": "http"}
_URL = re.compile(r"^https?://", re.IGNORECASE)


@dataclass(frozen=True)
class TargetSpec:
    """A resolved target; ``ref`` is the redacted form every report and error shows.

    Headers and environment may hold secrets, so they are left out of ``repr``.
    """

    transport: Transport
    ref: str
    path: str | None = None
    url: str | None = None
    argv: tuple[str, ...] = ()
    cwd: str | None = None
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    env: dict[str, str] = field(default_factory=dict, repr=False)
    # Whether the environment credential (WHICHTOOL_HTTP_AUTHORIZATION, origin-bound) may be
    # sent; off for targets someone else named, such as an agent talking to our MCP server.
    env_credential: bool = True


def normalize_transport(name: str) -> Transport:
    """The canonical transport name, accepting ``sse`` for ``legacy-sse``."""
    lowered = name.strip().lower()
    canonical = _ALIASES.get(lowered, lowered)
    for known in TRANSPORTS:
        if canonical == known:
            return known
    raise WhichtoolError(
        "target/unknown-transport",
        f"Unknown transport `{redact_message(name)}`",
        "Use one of: snapshot, stdio, http, legacy-sse (alias sse).",
    )


def _snapshot_spec(path: str) -> TargetSpec:
    from whichtool_tui.surface.load import snapshot_ref

    return TargetSpec(transport="snapshot", ref=snapshot_ref(path), path=path)


def _http_spec(transport: Transport, url: str, headers: dict[str, str] | None = None) -> TargetSpec:
    if not _URL.match(url.strip()):
        raise WhichtoolError(
            "target/invalid-url",
            f"`--transport {transport}` needs an http(s) URL, got {redact_message(url)!r}",
            "Give the endpoint, e.g. http://127.0.0.1:8000/mcp",
        )
    return TargetSpec(
        transport=transport, ref=redact_url(url.strip()), url=url.strip(), headers=headers or {}
    )


def _stdio_spec(
    argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None
) -> TargetSpec:
    return TargetSpec(
        transport="stdio",
        ref=redact_message(shlex.join(redact_command_args(argv))),
        argv=tuple(argv),
        env=env or {},
        cwd=cwd,
    )


def _from_cli(target: str, transport: Transport | None) -> TargetSpec:
    from whichtool_tui.mcp_client.command import split_command

    if transport is None:
        if _URL.match(target.strip()):
            return _http_spec("http", target)
        if target.strip().lower().endswith(".json"):
            return _snapshot_spec(target)
        raise WhichtoolError(
            "target/ambiguous",
            f"Cannot tell what kind of target {redact_message(target)!r} is",
            'Pass a .json snapshot, an http(s) URL, or a command with --transport stdio "<cmd>".',
        )
    if transport == "snapshot":
        return _snapshot_spec(target)
    if transport == "stdio":
        return _stdio_spec(split_command(target))
    return _http_spec(transport, target)


def _from_settings(settings: Settings, transport: Transport | None) -> TargetSpec:
    from whichtool_tui.config import HttpTarget, SnapshotTarget
    from whichtool_tui.mcp_client.command import split_command

    configured = settings.target
    if configured is None:
        raise WhichtoolError(
            "target/missing",
            "No target given, and the config has no `target`",
            'Pass a snapshot file, an http(s) URL, or --transport stdio "<cmd>".',
        )
    configured_transport = normalize_transport(configured.transport)
    if transport is not None and transport != configured_transport:
        raise WhichtoolError(
            "target/missing",
            f"No target given, and the config target is not `{transport}` "
            f"(it is `{configured_transport}`)",
            "Pass the target on the command line, or drop --transport.",
        )
    if isinstance(configured, SnapshotTarget):
        return _snapshot_spec(configured.path)
    if isinstance(configured, HttpTarget):
        return _http_spec(configured_transport, configured.url, configured.headers)
    argv = (
        [configured.command, *configured.args]
        if configured.args is not None
        else split_command(configured.command)
    )
    return _stdio_spec(argv, configured.env, configured.cwd)


def resolve_target(target: str | None, transport: str | None, settings: Settings) -> TargetSpec:
    """Decide what to read: the CLI target (inferred or forced) or else the config target."""
    chosen = normalize_transport(transport) if transport is not None else None
    if target is None or target == "":
        return _from_settings(settings, chosen)
    return _from_cli(target, chosen)


async def fetch_listing(
    spec: TargetSpec,
    *,
    timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
) -> ServedListing:
    """The served ``tools/list`` of ``spec``: read from disk, or fetched once from a live server."""
    if spec.transport == "snapshot":
        from whichtool_tui.surface.load import load_snapshot

        assert spec.path is not None
        return load_snapshot(spec.path)
    from whichtool_tui.mcp_client.listing import fetch_server_listing

    return await fetch_server_listing(spec, timeout=timeout)


def load_listing(spec: TargetSpec, timeout: float = DEFAULT_TIMEOUT) -> ServedListing:
    """Synchronous ``fetch_listing`` for headless commands (runs its own event loop)."""
    if spec.transport == "snapshot":
        from whichtool_tui.surface.load import load_snapshot

        assert spec.path is not None
        return load_snapshot(spec.path)
    from whichtool_tui.event_loop import run_coroutine

    return run_coroutine(fetch_listing(spec, timeout=timeout))
