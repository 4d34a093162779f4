"""The operator's choices for one server process, and how targets are opened under them.

The HTTP credential is taken out of the process environment at startup and kept here, so it can
reach the configured target (when its origin matches) and can never reach a target an agent
named: dynamic targets are opened with an environment that no longer holds it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from whichtool_tui.config import Settings
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.auth import AUTH_ENV, ORIGIN_ENV, authorization_headers
from whichtool_tui.providers.presets import OFFLINE_PROVIDERS
from whichtool_tui.server.paths import agent_file
from whichtool_tui.targets import TargetSpec, resolve_target

AGENT_MAX_REPEAT = 20
AGENT_MAX_CONCURRENCY = 16


@dataclass(frozen=True)
class ServerOptions:
    """Startup flags merged over the JSON config; fixed for the life of the process."""

    settings: Settings
    allow_paid_runs: bool = False
    allow_dynamic_targets: bool = False
    allow_provider_overrides: bool = False
    max_trials: int = 50
    max_tools: int = 6
    cache: bool = False
    cache_dir: str = ".whichtool-cache"
    result_file: str | None = None
    workspace: Path = field(default_factory=Path.cwd)
    http_credentials: Mapping[str, str] = field(default_factory=dict, repr=False)


def take_http_credentials(environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Remove the HTTP credential variables from the environment and return them."""
    env = os.environ if environ is None else environ
    taken: dict[str, str] = {}
    for name in (AUTH_ENV, ORIGIN_ENV):
        value = env.pop(name, None)
        if value is not None:
            taken[name] = value
    return taken


def is_paid_provider(name: str | None) -> bool:
    """Every provider that sends prompts over the network counts as paid; keyword and mock not."""
    return name is not None and name not in OFFLINE_PROVIDERS


def open_target(options: ServerOptions, target: str | None, transport: str | None) -> TargetSpec:
    """The configured target, or (with --allow-dynamic-targets) the one the agent named."""
    if target is None and transport is None:
        spec = resolve_target(None, None, options.settings)
        if spec.url is not None:
            headers = authorization_headers(spec.url, spec.headers, options.http_credentials)
            spec = dataclasses.replace(spec, headers=headers)
        return spec
    if not options.allow_dynamic_targets:
        raise WhichtoolError(
            "mcp/dynamic-target-disabled",
            "This server only inspects its configured target",
            "The operator can start it with --allow-dynamic-targets to accept `target` and "
            "`transport` from agents.",
        )
    spec = resolve_target(target, transport, options.settings)
    if spec.transport == "snapshot" and spec.path is not None:
        confined = agent_file(spec.path, options.workspace)
        spec = dataclasses.replace(spec, path=str(confined))
    return spec
