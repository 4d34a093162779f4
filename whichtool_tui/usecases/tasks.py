"""The task-set use cases: lint (against a surface when there is one), mutate and generate, the
same for ``tasks`` on the command line, the TUI's Tasks screen and the MCP server's
``validate_task_file``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.diagnostics import Diagnostic
    from whichtool_tui.providers.base import Provider
    from whichtool_tui.surface.model import NormalizedSurface
    from whichtool_tui.tasks.generate import GenerationResult
    from whichtool_tui.tasks.lint import Coverage
    from whichtool_tui.tasks.load import LoadedTaskSet
    from whichtool_tui.tasks.model import Task, TaskSet
    from whichtool_tui.tasks.mutate import MutationResult
    from whichtool_tui.usecases.providers import ProviderRequest

LINT_SCHEMA_VERSION = "whichtool.tasks-lint/1"


def task_file(explicit: str | None, settings: Settings, cwd: Path | None = None) -> Path:
    """The task file a command means: the one named, else config ``tasks``, else the default."""
    from whichtool_tui.tasks.load import resolve_task_file

    return resolve_task_file(explicit, settings, cwd)


def load_tasks(path: str | Path, cwd: Path | None = None) -> LoadedTaskSet:
    """Read and validate a task set strictly (every refusal is a one-line WhichtoolError)."""
    from whichtool_tui.tasks.load import load_task_set

    return load_task_set(path, cwd)


def surface_tools(surface: NormalizedSurface | None) -> list[str] | None:
    """The tool names a lint checks expected tools against (None: no surface known)."""
    return None if surface is None else [tool.name for tool in surface.tools]


def lint_findings(
    task_set: TaskSet, tool_names: list[str] | None, surface_hash: str | None
) -> list[Diagnostic]:
    """Every lint finding of a task set in memory (the Tasks screen lints as it is edited);
    ``tool_names`` None when no surface is known."""
    from whichtool_tui.tasks.lint import lint_task_set

    return lint_task_set(task_set, tool_names, surface_hash)


def in_memory(task_set: TaskSet, path: str) -> LoadedTaskSet:
    """A task set being edited, as a run reads a loaded one (its file may be unsaved)."""
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.tasks.load import LoadedTaskSet

    return LoadedTaskSet(
        task_set=task_set,
        source=redact_paths(path),
        path=Path(path),
        format="json" if path.endswith(".json") else "yaml",
    )


@dataclass(frozen=True)
class TasksLint:
    """A task set's lint: its findings (load and lint, sorted), coverage and verdict."""

    source: str
    surface_hash: str | None
    surface_checked: bool
    coverage: Coverage
    diagnostics: list[Diagnostic]
    ok: bool

    def to_json_data(self) -> dict[str, Any]:
        """The ``whichtool.tasks-lint/1`` document ``tasks lint --format json`` prints."""
        return {
            "schemaVersion": LINT_SCHEMA_VERSION,
            "source": self.source,
            "surfaceChecked": self.surface_checked,
            "surfaceHash": self.surface_hash,
            "ok": self.ok,
            "coverage": self.coverage.model_dump(by_alias=True),
            "diagnostics": [diagnostic.to_json() for diagnostic in self.diagnostics],
        }


def lint_tasks(loaded: LoadedTaskSet, surface: NormalizedSurface | None) -> TasksLint:
    """Lint a loaded task set, against the surface when one is given."""
    from whichtool_tui.diagnostics import sort_diagnostics
    from whichtool_tui.tasks.lint import lint_ok, task_coverage

    found = lint_findings(
        loaded.task_set, surface_tools(surface), None if surface is None else surface.hash
    )
    diagnostics = sort_diagnostics(loaded.diagnostics + found)
    return TasksLint(
        source=loaded.source,
        surface_hash=None if surface is None else surface.hash,
        surface_checked=surface is not None,
        coverage=task_coverage(loaded.task_set, surface_tools(surface)),
        diagnostics=diagnostics,
        ok=lint_ok(diagnostics),
    )


def surface_of(raw_tools: Sequence[Any]) -> NormalizedSurface:
    """A served ``tools/list`` normalised (what lint and generate read)."""
    from whichtool_tui.surface.normalize import normalize_surface

    return normalize_surface(list(raw_tools))


def read_surface(
    target: str | None, transport: str | None, settings: Settings
) -> NormalizedSurface:
    """A target's surface, read once and normalised (blocking; the CLI's way)."""
    from whichtool_tui.usecases.inspect import read_listing, target_spec

    return surface_of(read_listing(target_spec(target, transport, settings)).raw_tools)


@dataclass(frozen=True)
class MutateRequest:
    """``tasks mutate``: which set, where to, which mutations, the seed, and the originals."""

    tasks: str | None
    out: str | None
    mutations: str | None = None  # comma-separated names; None: every mutation
    seed: int = 0
    keep_originals: bool = True
    force: bool = False


@dataclass(frozen=True)
class Mutated:
    """What ``mutate_file`` wrote and how each mutation fared."""

    result: MutationResult
    out: str


def mutate_in_memory(tasks: list[Task], seed: int = 0) -> MutationResult:
    """Every mutation of every task, in memory (the Tasks screen previews them first)."""
    from whichtool_tui.tasks.mutate import mutate_tasks

    return mutate_tasks(tasks, seed=seed)


def mutate_file(request: MutateRequest, settings: Settings) -> Mutated:
    """Add seeded, model-free variants of a task set and write them beside it (never over it)."""
    from whichtool_tui.tasks.model import TaskSet
    from whichtool_tui.tasks.mutate import check_mutation_names, mutate_tasks
    from whichtool_tui.tasks.writer import guard_overwrite, write_task_set

    source = task_file(request.tasks, settings)
    if request.out is None:
        raise WhichtoolError(
            "cli/missing-argument",
            "`tasks mutate` needs --out",
            "It never writes over the set it reads: the originals stay authoritative.",
        )
    guard_overwrite(request.out, request.force)
    loaded = load_tasks(source)
    names = None
    if request.mutations is not None:
        names = [name.strip() for name in request.mutations.split(",") if name.strip()]
        check_mutation_names(names)
    result = mutate_tasks(
        loaded.task_set.tasks, names, seed=request.seed, keep_originals=request.keep_originals
    )
    output = TaskSet(
        version=loaded.task_set.version, surface=loaded.task_set.surface, tasks=result.tasks
    )
    write_task_set(output, request.out)
    return Mutated(result, request.out)


def save_tasks(
    task_set: TaskSet, path: str | Path, comments_from: str | Path | None = None
) -> Path:
    """Write a task set through the one atomic writer (the format follows the extension);
    ``comments_from`` carries the opening comments of the YAML it was read from."""
    from whichtool_tui.tasks.writer import write_task_set

    return write_task_set(task_set, path, comments_from=comments_from)


@dataclass(frozen=True)
class DraftRequest:
    """``tasks generate`` (or the Tasks screen's draft): where to, how many, and which model."""

    out: str
    provider: ProviderRequest
    force: bool = False
    tasks_per_tool: int | None = None  # None: the generator's defaults
    distractors: int | None = None
    temperature: float | None = None
    max_tools: int | None = None  # None: no tool ceiling checked (the TUI's draft)


@dataclass(frozen=True)
class Drafted:
    """The validated draft and the file it went to."""

    result: GenerationResult
    written: Path


def check_draft_output(request: DraftRequest) -> None:
    """Refuse an existing output file (without ``force``) or an unwritable path, before any
    server or model is contacted."""
    from whichtool_tui.tasks.writer import guard_overwrite

    guard_overwrite(request.out, request.force)


async def draft_tasks(
    request: DraftRequest,
    surface: NormalizedSurface,
    settings: Settings,
    on_asking: Callable[[Provider], Awaitable[None] | None] | None = None,
) -> Drafted:
    """Let a model draft a task set over ``surface``; refuses an existing file (without
    ``force``) before the model is asked and again before writing. ``on_asking`` sees the open
    provider just before the request goes out (the faces say where it goes)."""
    from whichtool_tui.tasks.generate import (
        DEFAULT_DISTRACTORS,
        DEFAULT_TASKS_PER_TOOL,
        DEFAULT_TEMPERATURE,
        check_tool_limit,
        generate_task_set,
    )
    from whichtool_tui.tasks.writer import guard_overwrite
    from whichtool_tui.usecases.providers import open_provider

    check_draft_output(request)
    if request.max_tools is not None:
        check_tool_limit(len(surface.tools), request.max_tools)
    provider = open_provider(request.provider)
    try:
        if on_asking is not None:
            said = on_asking(provider)
            if said is not None:
                await said
        result = await generate_task_set(
            provider,
            surface,
            tasks_per_tool=(
                DEFAULT_TASKS_PER_TOOL if request.tasks_per_tool is None else request.tasks_per_tool
            ),
            distractors=DEFAULT_DISTRACTORS if request.distractors is None else request.distractors,
            temperature=DEFAULT_TEMPERATURE if request.temperature is None else request.temperature,
        )
    finally:
        await provider.aclose()
    guard_overwrite(request.out, request.force)  # it may have appeared meanwhile
    written = save_tasks(result.task_set, request.out)
    return Drafted(result, written)
