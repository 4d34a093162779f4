"""The trial cache: one JSON file per (provider, model, settings, prompt, tool order).

Layout ``<dir>/trials/<first two hex>/<key>.json``; writes go through the atomic writer; an entry
that is corrupt, missing or over 16 MiB is a miss. Only successful answers are cached, never
errors, and nothing secret is stored: the key is a hash and entries hold only the model's reply.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from whichtool_tui.bounded_read import InputFileError, read_input_bytes
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.report_model import (
    Call,
    ClosedModel,
    TrialUsage,
    js_numbers,
)
from whichtool_tui.files import write_atomic
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.places import default_cache_dir, tag_as_cache
from whichtool_tui.providers.base import ProviderIdentity, RouteRequest, ToolSpec

CACHE_KEY_VERSION = 3
MAX_ENTRY_BYTES = MAX_INPUT_BYTES


class CacheEntry(ClosedModel):
    """A cached reply: every call, the text and usage, and how long the original call took."""

    pick: str | None
    arguments: dict[str, Any] | None
    raw_arguments: str | None = None
    calls: list[Call]
    text: str
    call_count: int
    usage: TrialUsage | None = None
    reasoning_chars: int | None = None
    original_latency_ms: float
    # sha256 of the key and the entry's content: an edited or moved entry is refused.
    integrity: str | None = None


def entry_integrity(key: str, entry: CacheEntry) -> str:
    """The digest binding an entry's content to the key it was stored under."""
    content = js_numbers(entry.model_dump(mode="json", by_alias=True, exclude={"integrity"}))
    return hashlib.sha256(f"{key}\n{canonical_json(content)}".encode()).hexdigest()


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, whole floats as integers: a stable text to hash."""
    return json.dumps(js_numbers(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tool_key_text(tool: ToolSpec) -> str:
    """A tool's part of the key material: the same for every trial that offers it."""
    return canonical_json(
        {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}
    )


def cache_key(
    identity: ProviderIdentity,
    request: RouteRequest,
    tool_text: Callable[[ToolSpec], str] = tool_key_text,
) -> str | None:
    """The sha256 key of a request, or None when the provider cannot be cached (no fingerprint).

    The provider's cache fingerprint already differs per credential (a one-way digest), so
    different keys never share entries and no key can be read back from a cache file name.
    ``tool_text`` may memoise each tool's text: the tools are the bulk of the material and only
    their order changes between trials.
    """
    fingerprint = identity.cache_identity
    if fingerprint is None:
        return None
    material: dict[str, Any] = {
        "provider": identity.name,
        "model": identity.model,
        "endpoint": identity.endpoint,
        "providerFingerprint": fingerprint,
        "temperature": request.temperature,
        "seed": request.seed if identity.capabilities.seed else None,
        "prompt": request.prompt,
    }
    if request.reasoning_effort is not None:
        material["reasoningEffort"] = request.reasoning_effort
    # Every key above sorts before "tools" and "v", so splicing those two in after them gives
    # exactly canonical_json of the whole material.
    tools = ",".join(tool_text(tool) for tool in request.tools)
    text = f'{canonical_json(material)[:-1]},"tools":[{tools}],"v":{CACHE_KEY_VERSION}}}'
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CacheStats:
    """What ``cache info`` reports."""

    location: Path
    entries: int
    size_bytes: int


class TrialCache:
    """Reads and writes cached replies under one directory."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory) if directory else default_cache_dir()
        self.hits = 0
        # id(tool) -> (tool, its key text); the tool is kept so its id cannot be reused.
        self._tool_texts: dict[int, tuple[ToolSpec, str]] = {}

    def _tool_text(self, tool: ToolSpec) -> str:
        known = self._tool_texts.get(id(tool))
        if known is None or known[0] is not tool:
            known = self._tool_texts[id(tool)] = (tool, tool_key_text(tool))
        return known[1]

    def key_for(self, identity: ProviderIdentity, request: RouteRequest) -> str | None:
        """The key of a request (None: this provider's answers are not cached)."""
        return cache_key(identity, request, self._tool_text)

    def _path(self, key: str) -> Path:
        return self.directory / "trials" / key[:2] / f"{key}.json"

    def get(self, key: str) -> TrialOutcome | None:
        """The cached outcome at latency 0, or None on a miss (absent, corrupt or oversized)."""
        path = self._path(key)
        try:
            raw = read_input_bytes(
                path, prefix="cache", what="cache entry", max_bytes=MAX_ENTRY_BYTES
            )
            entry = CacheEntry.model_validate_json(raw, by_alias=True)
        except (InputFileError, ValueError, ValidationError):
            return None
        if entry.call_count != len(entry.calls) or entry.integrity != entry_integrity(key, entry):
            return None  # edited by hand, or copied from another key: never replayed
        self.hits += 1
        return TrialOutcome(
            calls=tuple(entry.calls),
            text=entry.text,
            usage=entry.usage,
            reasoning_chars=entry.reasoning_chars,
            latency_ms=0.0,
            from_cache=True,
        )

    def put(self, key: str, outcome: TrialOutcome) -> None:
        """Store a successful outcome; errors are never cached."""
        if outcome.error is not None:
            return
        first = outcome.calls[0] if outcome.calls else None
        entry = CacheEntry(
            pick=first.name if first else None,
            arguments=first.arguments if first else None,
            raw_arguments=first.raw_arguments if first else None,
            calls=list(outcome.calls),
            text=outcome.text,
            call_count=len(outcome.calls),
            usage=outcome.usage,
            reasoning_chars=outcome.reasoning_chars,
            original_latency_ms=outcome.latency_ms,
        )
        entry = entry.model_copy(update={"integrity": entry_integrity(key, entry)})
        data = js_numbers(entry.model_dump(mode="json", by_alias=True))
        write_atomic(self._path(key), json.dumps(data, ensure_ascii=False) + "\n")
        self._tag_folder()

    def _tag_folder(self) -> None:
        """Mark the folder as a cache so backups skip it."""
        tag_as_cache(self.directory, "trial cache")


def cli_trial_cache(enabled: bool | None, directory: str | None) -> TrialCache | None:
    """The cache a run started from the command line uses (headless or in the TUI alike).

    On unless ``--no-cache`` (``enabled`` False), under ``--cache-dir`` or the platform cache
    folder (``places.default_cache_dir``).
    """
    if enabled is False:
        return None
    return TrialCache(directory)


_ENTRY_NAME = re.compile(r"^[0-9a-f]{64}\.json$")
_SHARD_NAME = re.compile(r"^[0-9a-f]{2}$")


def _entry_files(directory: Path) -> list[Path]:
    """Files shaped like entries this cache wrote (``trials/ab/<64 hex>.json``), nothing else."""
    trials = directory / "trials"
    if not trials.is_dir() or trials.is_symlink():
        return []
    return [
        path
        for path in trials.glob("*/*.json")
        if _SHARD_NAME.match(path.parent.name)
        and _ENTRY_NAME.match(path.name)
        and path.name.startswith(path.parent.name)
        and path.is_file()
        and not path.is_symlink()
    ]


def cache_info(directory: str | Path | None = None) -> CacheStats:
    """Count entries and bytes under ``<dir>/trials`` (the default cache without a folder)."""
    folder = Path(directory) if directory else default_cache_dir()
    files = _entry_files(folder)
    size = 0
    for path in files:
        try:
            size += path.stat().st_size
        except OSError:
            continue
    return CacheStats(location=folder, entries=len(files), size_bytes=size)


def cache_clear(directory: str | Path | None = None) -> int:
    """Remove the entries under ``<dir>/trials`` and return how many; other files are kept."""
    folder = Path(directory) if directory else default_cache_dir()
    removed = 0
    for path in _entry_files(folder):
        with contextlib.suppress(OSError):
            path.unlink()
            removed += 1
    # Only folders left empty go; anything else found there was not ours and stays.
    trials = folder / "trials"
    for shard in sorted(trials.glob("*")) if trials.is_dir() else []:
        if _SHARD_NAME.match(shard.name) and shard.is_dir() and not shard.is_symlink():
            with contextlib.suppress(OSError):
                shard.rmdir()
    with contextlib.suppress(OSError):
        trials.rmdir()
    return removed


def format_size(size_bytes: int) -> str:
    """B below 1 KiB, else KB or MB with one decimal."""
    if size_bytes < 1024:
        return f"{size_bytes} B"
    if size_bytes < 1024 * 1024:
        return f"{size_bytes / 1024:.1f} KB"
    return f"{size_bytes / (1024 * 1024):.1f} MB"
