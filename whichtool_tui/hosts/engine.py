"""Apply host profiles to a served tool list: findings with effects, verdicts, readiness."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from whichtool_tui.hosts.checks import CHECKS, CheckContext, ServedTool
from whichtool_tui.hosts.profile_model import BLOCKING_EFFECTS
from whichtool_tui.hosts.registry import profiles, rules_of
from whichtool_tui.hosts.report_model import (
    HostFinding,
    HostReadiness,
    HostVerdict,
    TruncationInfo,
)

DEFAULT_SERVER_NAME = "server"
_NOT_IN_CONFIG_KEYS = re.compile(r"[^A-Za-z0-9_-]")


def assumed_server_name(explicit: str | None, served: str | None) -> tuple[str, str]:
    """The server name hosts prefix tools with, and where it came from: the flag as given,
    else the server's own name with characters a config key would not hold made ``_``."""
    if explicit:
        return explicit, "--host-server-name"
    if served:
        return _NOT_IN_CONFIG_KEYS.sub("_", served), "serverInfo.name, cleaned"
    return DEFAULT_SERVER_NAME, "a placeholder: the target did not say"


_LOSE_EVERYTHING = frozenset(("request-rejected", "listing-rejected"))


def served_tools(raw_tools: Sequence[Any]) -> list[ServedTool]:
    """The entries a host can read at all (objects with a string name), first of each name."""
    tools: list[ServedTool] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_tools):
        if isinstance(raw, dict) and isinstance(raw.get("name"), str) and raw["name"] not in seen:
            seen.add(raw["name"])
            tools.append(ServedTool(raw["name"], raw, index))
    return tools


def evaluate_host(
    host: str,
    tools: Sequence[ServedTool],
    context: CheckContext,
    tokens_by_tool: Mapping[str, int],
) -> HostVerdict:
    """One host's findings on the surface, whether it is compatible, and what it would load."""
    findings: list[HostFinding] = []
    for origin, rule in rules_of(host):
        for hit in CHECKS[rule.check](rule, tools, context):
            findings.append(
                HostFinding(
                    tool=hit.tool,
                    rule=f"{origin}/{rule.id}",
                    effect=rule.effect,
                    message=f"{hit.message}: {rule.summary}",
                    source=", ".join(rule.sources),
                    verified=rule.verified,
                    fixable=rule.fix is not None,
                    pointer=hit.pointer,
                    truncation=None
                    if hit.truncation is None
                    else TruncationInfo(at=hit.truncation.at, unseen=hit.truncation.unseen),
                )
            )
    compatible = not any(finding.effect in BLOCKING_EFFECTS for finding in findings)
    assumptions = []
    if any(rule.params.get("prefix") for _, rule in rules_of(host)):
        assumptions.append(
            f"server name `{context.server_name}` ({context.server_name_source}; set "
            "--host-server-name to the name users configure)"
        )
    return HostVerdict(
        host=host,
        title=profiles()[host].title,
        compatible=compatible,
        findings=findings,
        readiness=_readiness(findings, tools, tokens_by_tool),
        assumptions=assumptions,
    )


def _readiness(
    findings: Sequence[HostFinding],
    tools: Sequence[ServedTool],
    tokens_by_tool: Mapping[str, int],
) -> HostReadiness:
    """Tools the model would get (none when the request or the listing fails) and their tokens."""
    from whichtool_tui.surface.tokens import count_tokens

    if any(finding.effect in _LOSE_EVERYTHING for finding in findings):
        return HostReadiness(tool_count=len(tools), tools_seen=0, tokens_loaded=0)
    dropped = {f.tool for f in findings if f.effect == "tool-dropped"}
    seen = [tool.name for tool in tools if tool.name not in dropped]
    tokens = sum(tokens_by_tool.get(name, 0) for name in seen)
    for finding in findings:
        if finding.truncation is not None and finding.tool in seen:
            tokens -= count_tokens(finding.truncation.unseen)
    return HostReadiness(tool_count=len(tools), tools_seen=len(seen), tokens_loaded=max(0, tokens))


def evaluate_hosts(
    raw_tools: Sequence[Any],
    hosts: Sequence[str],
    server_name: str | None,
    tokens_by_tool: Mapping[str, int],
    served_name: str | None = None,
) -> list[HostVerdict]:
    """Every named host's verdict, in the order given (names already resolved)."""
    tools = served_tools(raw_tools)
    name, source = assumed_server_name(server_name, served_name)
    context = CheckContext(server_name=name, server_name_source=source)
    return [evaluate_host(host, tools, context, tokens_by_tool) for host in hosts]
