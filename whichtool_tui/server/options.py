"""The operator's choices for one server process, and how targets are opened under them.

The environment's HTTP credential can reach the configured target (when its origin matches) and
never a target an agent named: dynamic targets are opened with ``env_credential`` off.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from whichtool_tui.config import Settings
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import DEFAULT_MAX_TOOLS, DEFAULT_MAX_TRIALS
from whichtool_tui.server.paths import agent_file
from whichtool_tui.usecases.inspect import target_spec
from whichtool_tui.usecases.providers import is_paid_provider as is_paid_provider

if TYPE_CHECKING:
    from whichtool_tui.provenance import Source
    from whichtool_tui.usecases.api import TargetSpec


@dataclass(frozen=True)
class ServerOptions:
    """Startup flags merged over the JSON config; fixed for the life of the process."""

    settings: Settings
    allow_paid_runs: bool = False
    allow_dynamic_targets: bool = False
    allow_provider_overrides: bool = False
    allow_http_provider: bool = False
    max_trials: int = DEFAULT_MAX_TRIALS
    max_tools: int = DEFAULT_MAX_TOOLS
    # Where the two budgets came from (flag, config or default): they reach a run's and a
    # review's options with the agent's arguments but stay the operator's. A budget missing
    # here counts as the operator's flag.
    budget_sources: Mapping[str, Source] = field(default_factory=dict)
    cache: bool = False
    cache_dir: str | None = None  # None: the platform cache folder (places.default_cache_dir)
    result_file: str | None = None
    workspace: Path = field(default_factory=Path.cwd)


def open_target(options: ServerOptions, target: str | None, transport: str | None) -> TargetSpec:
    """The configured target, or (with --allow-dynamic-targets) the one the agent named."""
    if target is None and transport is None:
        return target_spec(None, None, options.settings)
    if not options.allow_dynamic_targets:
        raise WhichtoolError(
            "mcp/dynamic-target-disabled",
            "This server only inspects its configured target",
            "The operator can start it with --allow-dynamic-targets to accept `target` and "
            "`transport` from agents.",
        )
    spec = dataclasses.replace(
        target_spec(target, transport, options.settings), env_credential=False
    )
    if spec.transport == "snapshot" and spec.path is not None:
        confined = agent_file(spec.path, options.workspace)
        spec = dataclasses.replace(spec, path=str(confined))
    return spec
