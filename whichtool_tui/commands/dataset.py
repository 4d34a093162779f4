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

    from whichtool_tui.text_safety import redact_message
    from whichtool_tui.usecases.receipts import write_dataset

    written = write_dataset(args.receipt_dir, args.output)
    manifest = written.manifest
    # The folder's name is shown as any path is: shortened, its controls escaped.
    sys.stdout.write(
        f"rows: train={written.train_rows} holdout={written.holdout_rows}  "
        f"receipts={len(manifest['receipts'])}  dropped={manifest['dropped']}\n"
        f"Manifest written to {redact_message(str(written.manifest_path))}\n"
    )
    return 0
