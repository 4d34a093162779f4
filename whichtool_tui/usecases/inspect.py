"""The inspect use case: a target's ``tools/list`` read once and reviewed under the one options
merge, the same for ``inspect`` on the command line, the TUI's Surface screen and the MCP
server's ``inspect_surface``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whichtool_tui.usecases.options import (
    FindabilityOverrides,
    HostOverrides,
    InspectOptions,
    InspectOverrides,
    merge_host_options,
    merge_inspect_options,
)

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from whichtool_tui.config import Settings
    from whichtool_tui.hosts.report_model import HostVerdict
    from whichtool_tui.provenance import FaceSource
    from whichtool_tui.surface.inspect import CostedSurface
    from whichtool_tui.surface.listing import ServedListing
    from whichtool_tui.surface.model import NormalizedSurface
    from whichtool_tui.surface.report_model import InspectReport
    from whichtool_tui.surface.served import ServedTool
    from whichtool_tui.targets import TargetSpec


@dataclass(frozen=True)
class InspectRequest:
    """What to inspect and how: the target as typed, the review's overrides, the extras.

    A frozen dataclass like the overrides it carries (their option metadata is not pydantic's).
    """

    target: str | None = None
    transport: str | None = None
    review: InspectOverrides = field(default_factory=InspectOverrides)
    findability: FindabilityOverrides = field(default_factory=FindabilityOverrides)
    hosts: HostOverrides = field(default_factory=HostOverrides)
    save_snapshot: str | None = None
    face: FaceSource = "flag"  # the source of the review's given values (``review_options``)


def request_from_flags(args: argparse.Namespace, target: str | None) -> InspectRequest:
    """The command line's inspect request: each overrides field reads the flag of its name."""
    from whichtool_tui.usecases.options import from_namespace

    return InspectRequest(
        target=target,
        transport=args.transport,
        review=from_namespace(InspectOverrides, args),
        findability=from_namespace(FindabilityOverrides, args),
        hosts=from_namespace(HostOverrides, args),
        save_snapshot=args.save_snapshot,
    )


@dataclass(frozen=True)
class InspectResult:
    """The listing as served (for raw views and snapshots) and its typed review."""

    listing: ServedListing
    report: InspectReport
    required_hosts: tuple[str, ...] = ()
    host_fix_operations: int | None = None  # how many --host-fix-out wrote, when asked
    host_fix_applies_to: str | None = None  # which document its pointers address

    @property
    def hosts_ok(self) -> bool:
        """False when a host named by ``--require-host`` (or ``all``) is incompatible."""
        from whichtool_tui.hosts.registry import resolve_hosts

        if not self.required_hosts or self.report.hosts is None:
            return True
        required = set(resolve_hosts(self.required_hosts))
        return all(v.compatible for v in self.report.hosts if v.host in required)

    @property
    def ok(self) -> bool:
        """The exit verdict: the review is ok and every required host is compatible."""
        return self.report.ok and self.hosts_ok

    @property
    def saved_tools(self) -> int:
        """How many tools a ``save_snapshot`` wrote (the whole listing)."""
        return len(self.listing.raw_tools)


def target_spec(target: str | None, transport: str | None, settings: Settings) -> TargetSpec:
    """A typed target (or, with neither given, the config's) resolved and checked, not opened."""
    from whichtool_tui.targets import resolve_target

    return resolve_target(target, transport, settings)


def read_listing(spec: TargetSpec) -> ServedListing:
    """``tools/list`` once, from a snapshot or a server (blocking; the CLI's way)."""
    from whichtool_tui.targets import load_listing

    return load_listing(spec)


async def fetch_listing(spec: TargetSpec) -> ServedListing:
    """``tools/list`` once, from a snapshot or a server, on the running loop (TUI, server)."""
    from whichtool_tui.targets import fetch_listing as fetch

    return await fetch(spec)


def opened_snapshot_listing(path: str, document: Any) -> ServedListing:
    """The listing of a snapshot already read and parsed by ``open`` (so a face shows it
    without reading the file again); a re-inspect reads the file as any target is read."""
    from whichtool_tui.surface.load import listing_from_document, snapshot_ref

    return listing_from_document(document, snapshot_ref(path))[0]


def check_target(target: str | None, transport: str | None, settings: Settings) -> str:
    """The target's transport, checked now so bad input fails before a face opens; a snapshot
    is read once (cheap) so a broken file fails too, while live servers are not contacted."""
    spec = target_spec(target, transport, settings)
    if spec.transport == "snapshot" and spec.path is not None:
        from whichtool_tui.surface.load import load_snapshot

        load_snapshot(spec.path)
    return spec.transport


def save_snapshot(raw_tools: list[Any], path: str) -> Path:
    """Write ``tools/list`` as served, as a snapshot file (atomically); returns where."""
    from whichtool_tui.surface.load import save_snapshot as save

    return save(raw_tools, path)


def overlap_score(first: tuple[str, str], second: tuple[str, str]) -> float:
    """The Dice overlap of two (name, description) tools, scored as the static review scores
    its pairs (for any two tools, beyond the report's top pairs)."""
    from whichtool_tui.surface.naming import name_tokens
    from whichtool_tui.surface.overlap import dice, normalize_for_overlap

    def text(name: str, description: str) -> str:
        return normalize_for_overlap(" ".join(name_tokens(name)) + " " + description)

    return dice(text(*first), text(*second))


def found_at_five(
    raw_tools: list[Any],
    surface: NormalizedSurface | None,
    tasks: Sequence[tuple[str, str, str | None]],
    total_tokens: int,
) -> dict[str, tuple[int, int]]:
    """Per tool with tasks: how many of its (id, prompt, expected) tasks put it in BM25 tool
    search's top 5, of how many (the Surface screen's findability column)."""
    from whichtool_tui.discovery.column import found_at_k
    from whichtool_tui.evaluation.plan import TaskSpec
    from whichtool_tui.surface.normalize import normalize_surface

    normalized = surface if surface is not None else normalize_surface(raw_tools)
    wanted = [TaskSpec(task_id, prompt, expected) for task_id, prompt, expected in tasks]
    return found_at_k(normalized, wanted, total_tokens)


def host_verdicts(
    raw_tools: list[Any],
    tokens_by_tool: dict[str, int],
    settings: Settings,
    names: Sequence[str] | None = None,
) -> list[HostVerdict]:
    """Host verdicts for a listing (the TUI's hosts view): the hosts named, else the config's
    ``inspect.hosts`` and ``requireHosts``, else every profile."""
    from whichtool_tui.hosts.engine import evaluate_hosts
    from whichtool_tui.hosts.registry import ALL, resolve_hosts

    options = merge_host_options(HostOverrides(), settings)
    chosen = tuple(names or ()) or options.hosts or (ALL,)
    return evaluate_hosts(raw_tools, resolve_hosts(chosen), options.server_name, tokens_by_tool)


def review_options(request: InspectRequest, settings: Settings) -> InspectOptions:
    """The review's options merged for a request, each value with its source."""
    return merge_inspect_options(request.review, settings, face=request.face)


def review_listing(listing: ServedListing, merged: InspectOptions) -> InspectReport:
    """The static review of a listing under merged inspect options (no model, no I/O)."""
    from whichtool_tui.surface.inspect import inspect_surface

    return inspect_surface(
        listing,
        max_tools=merged.max_tools,
        max_context_tokens=merged.max_context_tokens,
        approximates=merged.approximates,
        rules=merged.rules,
    )


def served_tools(listing: ServedListing) -> list[ServedTool]:
    """The listing's tools as served, read without normalising (cheap at any size): what a
    face lists first while ``cost_listing`` counts the tokens."""
    from whichtool_tui.surface.served import served_tools as read_served

    return read_served(listing.raw_tools)


def cost_listing(listing: ServedListing) -> CostedSurface:
    """A listing normalised and each tool's tokens counted, before any check runs: what a face
    shows first at registry scale (the TUI's tool list), the review following."""
    from whichtool_tui.surface.inspect import cost_surface

    return cost_surface(listing)


def review_costed(costed: CostedSurface, merged: InspectOptions) -> InspectReport:
    """The static review of a costed listing under merged inspect options: the report
    ``review_listing`` gives, reusing the normalisation and token counts already made."""
    from whichtool_tui.surface.inspect import review_costed as review_surface

    return review_surface(
        costed,
        max_tools=merged.max_tools,
        max_context_tokens=merged.max_context_tokens,
        approximates=merged.approximates,
        rules=merged.rules,
    )


def inspect(request: InspectRequest, settings: Settings) -> InspectResult:
    """Resolve the target, read tools/list once, optionally save it, review it, and with a task
    set add the findability review."""
    host_options = merge_host_options(request.hosts, settings)
    if host_options.wanted:
        from whichtool_tui.hosts.registry import resolve_hosts

        resolve_hosts(host_options.hosts)  # an unknown name fails before the target opens
    spec = target_spec(request.target, request.transport, settings)
    listing = read_listing(spec)
    if request.save_snapshot:
        save_snapshot(listing.raw_tools, request.save_snapshot)
    report = review_listing(listing, review_options(request, settings))
    findability = request.findability
    if findability.tasks is not None:
        from whichtool_tui.discovery.attach import with_findability

        report = with_findability(
            report,
            listing,
            findability.tasks,
            settings,
            findability.retriever,
            findability.min_similarity,
        )
    if host_options.wanted:
        from whichtool_tui.hosts.attach import with_hosts

        report = with_hosts(report, listing, host_options.hosts, host_options.server_name)
    if host_options.fix_out:
        from whichtool_tui.hosts.attach import write_host_fix

        prefix, applies_to = _patch_prefix(spec, request.save_snapshot)
        written = write_host_fix(
            report, listing, prefix, host_options.fix_out, host_options.server_name
        )
        return InspectResult(listing, report, host_options.required, written, applies_to)
    return InspectResult(listing, report, host_options.required)


def _patch_prefix(spec: TargetSpec, saved_snapshot: str | None) -> tuple[str, str]:
    """Where a patch's pointers find the tools, and the document that holds them: the
    snapshot's own shape, else the ``{"tools": [...]}`` file --save-snapshot writes."""
    from whichtool_tui.improve.patch import SHAPE_PREFIX

    if spec.transport == "snapshot" and spec.path is not None:
        from whichtool_tui.redact import redact_paths
        from whichtool_tui.surface.load import load_snapshot_document

        shape = load_snapshot_document(spec.path)[2]
        return SHAPE_PREFIX[shape], redact_paths(str(spec.path))
    from whichtool_tui.redact import redact_paths

    where = redact_paths(saved_snapshot) if saved_snapshot else "a --save-snapshot file"
    return SHAPE_PREFIX["result"], where
