"""The receipt use cases: read a saved bout receipt (whole, or its score-free wire for the
timeline), export its tape, and build a dataset from a folder of receipts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.arcade.receipt import BoutReceipt


@dataclass(frozen=True)
class ReceiptRead:
    """A receipt as read: the raw JSON (the wire views read it) and, when validated, the model."""

    path: str
    data: dict[str, Any]
    receipt: BoutReceipt | None


def read_receipt(path: str, *, score_free_wire: bool = False) -> ReceiptRead:
    """Read and validate a receipt; ``score_free_wire`` checks everything but the wire (a
    timeline of 100,000 events would take twice as long to its first row) and keeps no model."""
    from whichtool_tui.arcade.receipt import read_receipt_data, validate_receipt

    data = read_receipt_data(path)
    if score_free_wire:
        validate_receipt({**data, "wire": []}, path)
        return ReceiptRead(path, data, None)
    return ReceiptRead(path, data, validate_receipt(data, path))


def receipt_text(receipt: BoutReceipt) -> str:
    """The receipt as canonical JSON (the bytes a bout writes)."""
    from whichtool_tui.arcade.receipt import receipt_json

    return receipt_json(receipt)


def write_receipt_timeline(read: ReceiptRead, out: TextIO, *, verbose: bool = False) -> None:
    """The wire, one row per event, then the house call when the receipt was validated."""
    from whichtool_tui.arcade.render import write_timeline
    from whichtool_tui.arcade.timeline import TapeView

    write_timeline(TapeView(read.data), out, verbose=verbose, data=read.data)
    if read.receipt is not None:
        out.write(score_text(read.receipt))


def score_text(receipt: BoutReceipt) -> str:
    """The house call: scores, the contrastive recap and each atom's checks."""
    from whichtool_tui.arcade.render import score_panel

    return score_panel(receipt)


def export_tape(path: str, output: str | None = None) -> str:
    """The score-free tape of a validated receipt, as canonical JSON; written to ``output``
    when given (atomically), and returned either way."""
    from whichtool_tui.arcade.receipt import canonical_json
    from whichtool_tui.arcade.tape import build_tape
    from whichtool_tui.files import write_atomic

    read = read_receipt(path)
    text = canonical_json(build_tape(read.data))
    if output:
        write_atomic(output, text)
    return text


@dataclass(frozen=True)
class DatasetWritten:
    """What ``write_dataset`` wrote: row counts and the manifest."""

    train_rows: int
    holdout_rows: int
    manifest: dict[str, Any]
    manifest_path: Path


def write_dataset(receipt_dir: str, output: str) -> DatasetWritten:
    """train.jsonl, holdout.jsonl and manifest.json from every receipt under ``receipt_dir``."""
    from whichtool_tui.arcade.dataset import build_dataset, jsonl
    from whichtool_tui.arcade.receipt import canonical_json
    from whichtool_tui.files import write_atomic

    source = Path(receipt_dir)
    if not source.is_dir():
        raise WhichtoolError(
            "dataset/not-a-folder", f"{source} is not a folder", "Pass a folder of receipts."
        )
    train, holdout, manifest = build_dataset(source)
    out = Path(output)
    write_atomic(out / "train.jsonl", jsonl(train))
    write_atomic(out / "holdout.jsonl", jsonl(holdout))
    write_atomic(out / "manifest.json", canonical_json(manifest))
    return DatasetWritten(len(train), len(holdout), manifest, out / "manifest.json")
