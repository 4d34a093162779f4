"""Extended atoms and mcp-arcade 0.2.0: a receipt holding one is marked ``whichtool-tui.bout/v1``,
so mcp-arcade's own ``receipt`` refuses it and its ``dataset`` drops it as ``invalid:schema_id``
(never mislabels it), while four-atom receipts beside it still load; our reader takes both."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import ARCADE, arcade, bout, run_cli

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not ARCADE.exists(), reason="mcp-arcade 0.2.0 is not installed"),
]  # starts processes or servers


def test_upstream_refuses_extended_receipts_and_still_reads_ours_of_four(
    tmp_path: Path, capsys: Any
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    _code, extended, _ = bout(
        tmp_path, capsys, "--target", "fixture", "--atoms", "all", name="in/extended.json"
    )
    _code, four, _ = bout(tmp_path, capsys, "--target", "fixture", name="in/four.json")
    assert extended["schema_id"] == "whichtool-tui.bout/v1"
    assert four["schema_id"] == "mcp-arcade.bout/v1"
    refused = arcade("receipt", "in/extended.json", cwd=tmp_path)
    assert refused.returncode != 0 and "poison.never_called" in refused.stderr
    shown = arcade("receipt", "in/four.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    made = arcade("dataset", "in", "-o", "out", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    by_name = {r["name"]: r for r in manifest["receipts"]}
    assert by_name["extended.json"]["reason"] == "invalid:schema_id"
    assert by_name["extended.json"]["rows_train"] == by_name["extended.json"]["rows_holdout"] == 0
    assert by_name["four.json"]["rows_train"] == 3 and by_name["four.json"]["rows_holdout"] == 1
    assert manifest["dropped"] == {"invalid:schema_id": 1}


def test_our_dataset_and_receipt_read_extended_receipts(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    bout(tmp_path, capsys, "--target", "fixture", "--atoms", "all", name="in/extended.json")
    code, out, err = run_cli(["receipt", str(folder / "extended.json")], capsys)
    assert code == 0, err
    assert json.loads(out)["schema_id"] == "whichtool-tui.bout/v1"
    code, _out, err = run_cli(["dataset", str(folder), "-o", str(tmp_path / "ds")], capsys)
    assert code == 0, err
    holdout = [
        json.loads(line)
        for line in (tmp_path / "ds" / "holdout.jsonl").read_text().splitlines()
        if line
    ]
    labels = {row["atom_id"]: row["labels"] for row in holdout}
    assert labels["poison.never_called"]["attack_success"] is True
    assert labels["poison.result"]["attack_success"] is True
    assert labels["temporal.rename"]["attack_success"] is None
    assert labels["protocol.unlisted_call"]["result"] == "fail"
    train = (tmp_path / "ds" / "train.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["atom_id"] for line in train) == [
        "inspect.tools_list",
        "poison.follow_through",
        "temporal.rug_pull",
    ]
    shutil.rmtree(folder)
