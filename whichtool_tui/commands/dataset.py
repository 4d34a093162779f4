"""`dataset`: receipts -> JSONL rows (train / holdout) and a manifest."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `dataset`."""
    parser.add_argument("receipt_dir", metavar="DIR", help="a folder of receipts (searched deep)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="output folder")


def execute(args: argparse.Namespace) -> int:
    """Write train.jsonl, holdout.jsonl and manifest.json."""
    import sys
    from pathlib import Path

    from whichtool_tui.arcade.dataset import build_dataset, jsonl
    from whichtool_tui.arcade.receipt import canonical_json
    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.files import write_atomic

    source = Path(args.receipt_dir)
    if not source.is_dir():
        raise WhichtoolError(
            "dataset/not-a-folder", f"{source} is not a folder", "Pass a folder of receipts."
        )
    train, holdout, manifest = build_dataset(source)
    out = Path(args.output)
    write_atomic(out / "train.jsonl", jsonl(train))
    write_atomic(out / "holdout.jsonl", jsonl(holdout))
    write_atomic(out / "manifest.json", canonical_json(manifest))
    dropped = manifest["dropped"]
    sys.stdout.write(
        f"rows: train={len(train)} holdout={len(holdout)}  "
        f"receipts={len(manifest['receipts'])}  dropped={dropped}\n"
        f"Manifest written to {out / 'manifest.json'}\n"
    )
    return 0
