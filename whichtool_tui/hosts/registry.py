"""The bundled host profiles: loading them once and resolving the names a user typed."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.hosts.profile_model import HostProfile, HostRule

ALL = "all"


@cache
def profiles() -> dict[str, HostProfile]:
    """Every bundled profile by host name (one JSON file per host)."""
    folder = resources.files("whichtool_tui.hosts") / "profiles"
    loaded: dict[str, HostProfile] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            profile = HostProfile.model_validate(json.loads(entry.read_text(encoding="utf-8")))
            loaded[profile.host] = profile
    return loaded


def host_names() -> list[str]:
    """The bundled host names, sorted."""
    return sorted(profiles())


def resolve_hosts(names: Iterable[str]) -> list[str]:
    """The hosts a user named (``all`` for every one), deduplicated in profile order."""
    wanted: set[str] = set()
    known = profiles()
    for name in names:
        if name == ALL:
            wanted.update(known)
        elif name in known:
            wanted.add(name)
        else:
            raise WhichtoolError(
                "cli/unknown-host",
                f"Unknown host `{name}`. Available: {', '.join(host_names())}, all",
                "See docs/hosts.md for what each profile checks.",
            )
    return [name for name in host_names() if name in wanted]


def rules_of(host: str) -> list[tuple[str, HostRule]]:
    """A host's rules with the host each came from (``extends`` first, then its own)."""
    profile = profiles()[host]
    rules: list[tuple[str, HostRule]] = []
    for parent in profile.extends:
        rules.extend(rules_of(parent))
    rules.extend((host, rule) for rule in profile.rules)
    return rules
