"""The state file of a submitted batch run (``NAME.batch.json`` beside ``--out``).

The state holds the batch ids, the plan's identity and every request's fingerprint (the trial
cache keys sent as ``custom_id``), never a key: ``run --resume-batch`` on any machine that has
the key re-plans the same run, checks it is the same, and collects the answers.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path
from typing import Final, Literal

from pydantic import ConfigDict, ValidationError
from pydantic.alias_generators import to_camel

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import write_atomic
from whichtool_tui.limits import MAX_INPUT_BYTES
from whichtool_tui.redact import redact_paths
from whichtool_tui.strict_model import StrictModel

BATCH_STATE_VERSION: Final = "whichtool.batch/1"
BATCH_STATE_SUFFIX = ".batch.json"


class _CamelModel(StrictModel):
    """State files speak camelCase, as every file the project writes does."""

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, frozen=True, alias_generator=to_camel
    )


class SubmittedBatch(_CamelModel):
    """One batch the provider accepted: its id and which requests it carries."""

    id: str
    first: int  # index of its first request in ``request_fingerprints``
    count: int


class BatchRunState(_CamelModel):
    """What a detached batch run needs to be finished later, anywhere the key is."""

    schema_version: Literal["whichtool.batch/1"] = BATCH_STATE_VERSION
    api: str
    provider: str
    model: str
    endpoint: str | None  # redacted
    plan_fingerprint: str
    planned: int
    shard: str | None = None
    request_fingerprints: list[str]
    cached: int = 0  # trials the trial cache answered before anything was submitted
    batches: list[SubmittedBatch]

    def ids(self) -> list[str]:
        """The batch ids, in submission order."""
        return [batch.id for batch in self.batches]


def state_path_for(out: str) -> Path:
    """``report.json`` -> ``report.batch.json`` (beside the report, whatever its extension)."""
    path = Path(out)
    return (
        path.with_name(path.stem + BATCH_STATE_SUFFIX)
        if path.suffix
        else Path(out + BATCH_STATE_SUFFIX)
    )


def write_state(path: Path, state: BatchRunState) -> None:
    """Write the state file atomically (no secret is in it)."""
    write_atomic(path, state.model_dump_json(indent=1, by_alias=True) + "\n")


def read_state(path: str | Path) -> BatchRunState:
    """The state file, or a one-line ``batch/invalid-state`` error naming what is wrong."""
    shown = redact_paths(str(path))
    try:
        raw = Path(path).read_bytes()[: MAX_INPUT_BYTES * 8 + 1]
    except OSError as exc:
        raise WhichtoolError(
            "batch/invalid-state",
            f"Cannot read the batch state {shown}: {exc.strerror or exc}",
            "Pass the NAME.batch.json that `run --batch-detach` wrote.",
        ) from None
    try:
        return BatchRunState.model_validate_json(raw)
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        raise WhichtoolError(
            "batch/invalid-state",
            f"{shown} is not a batch state file: {first}",
            "Pass the NAME.batch.json that `run --batch-detach` wrote.",
        ) from None


class PendingBatchRun(_CamelModel):
    """One submitted, unfinished batch run, as the trial cache lists it (``cache info``)."""

    state_file: str  # absolute path of its NAME.batch.json
    api: str
    model: str
    batch_ids: list[str]
    requests: int


def _pending_path(cache_dir: Path, state_path: Path) -> Path:
    digest = hashlib.sha256(str(state_path.resolve()).encode("utf-8", "surrogatepass"))
    return cache_dir / "batches" / f"{digest.hexdigest()[:32]}.json"


def register_pending(cache_dir: Path, state_path: Path, state: BatchRunState) -> None:
    """Note the run in the cache folder, so ``cache info`` can list it until it is finished."""
    entry = PendingBatchRun(
        state_file=str(state_path.resolve()),
        api=state.api,
        model=state.model,
        batch_ids=state.ids(),
        requests=len(state.request_fingerprints),
    )
    write_atomic(_pending_path(cache_dir, state_path), entry.model_dump_json(by_alias=True) + "\n")


def unregister_pending(cache_dir: Path, state_path: Path) -> None:
    """Forget a finished run."""
    with contextlib.suppress(OSError):
        _pending_path(cache_dir, state_path).unlink()


def pending_batch_runs(cache_dir: Path) -> list[PendingBatchRun]:
    """Every pending run noted in the cache folder whose state file still exists."""
    found: list[PendingBatchRun] = []
    folder = cache_dir / "batches"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            entry = PendingBatchRun.model_validate_json(path.read_bytes()[:MAX_INPUT_BYTES])
        except (OSError, ValueError, ValidationError):
            continue
        if Path(entry.state_file).is_file():
            found.append(entry)
    return found
