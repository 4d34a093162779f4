"""Receipts travel both ways with mcp-arcade 0.2.0, and our bout plays its lab server and a
public reference server."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import (
    ARCADE,
    FIXTURE_CMD,
    arcade,
    atom,
    bout,
    live_bout,
    results,
    run_cli,
    time_server,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not ARCADE.exists(), reason="mcp-arcade 0.2.0 is not installed"),
]  # starts processes or servers


@pytest.fixture(scope="module")
def upstream_receipt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A receipt written by mcp-arcade itself (naive, fixture)."""
    folder = tmp_path_factory.mktemp("upstream")
    result = arcade("bout", "--target", "fixture", "--no-prompt", "-o", "up.json", cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder / "up.json"


@pytest.mark.parametrize("agent", ["naive", "task-only"])
def test_our_receipts_load_in_upstream_receipt_and_dataset(
    agent: str, tmp_path: Path, capsys: Any
) -> None:
    bout(tmp_path, capsys, "--target", "fixture", "--agent", agent)
    shown = arcade("receipt", "r.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["agent_policy"] == agent
    timeline = arcade("receipt", "r.json", "--timeline", cwd=tmp_path)
    assert timeline.returncode == 0 and "tools/call" in timeline.stdout
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(tmp_path / "r.json", folder / "r.json")
    made = arcade("dataset", "in", "-o", "out", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["rows"] == {"train": 3, "holdout": 1} and manifest["dropped"] == {}


def test_our_stdio_receipt_loads_upstream(tmp_path: Path, capsys: Any) -> None:
    live_bout(
        tmp_path,
        capsys,
        FIXTURE_CMD,
        "--task",
        "echo",
        "--agent",
        "task-only",
    )
    shown = arcade("receipt", "r.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr


def test_upstream_receipt_loads_in_ours(
    upstream_receipt: Path, tmp_path: Path, capsys: Any
) -> None:
    code, out, _ = run_cli(["receipt", str(upstream_receipt)], capsys)
    assert code == 0
    assert json.loads(out) == json.loads(upstream_receipt.read_text())
    code, out, _ = run_cli(["receipt", str(upstream_receipt), "--timeline", "--score"], capsys)
    assert code == 0 and "protocol.unlisted_call (holdout)" in out and "House call" in out
    code, out, _ = run_cli(["tape", str(upstream_receipt)], capsys)
    tape = json.loads(out)
    assert tape["attribution_ok"] is True
    assert {f["atom_id"]: f["fact"] for f in tape["facts"]} == {
        "poison.follow_through": "followed",
        "temporal.rug_pull": "menu_changed",
        "protocol.unlisted_call": "ghost_answered",
    }


def test_upstream_and_our_dataset_rows_are_identical(
    upstream_receipt: Path, tmp_path: Path, capsys: Any
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(upstream_receipt, folder / "up.json")
    assert arcade("dataset", "in", "-o", "theirs", cwd=tmp_path).returncode == 0
    code, out, _ = run_cli(["dataset", str(folder), "-o", str(tmp_path / "ours")], capsys)
    assert code == 0 and "rows: train=3 holdout=1" in out
    for name in ("train.jsonl", "holdout.jsonl"):
        theirs = (tmp_path / "theirs" / name).read_text()
        ours = (tmp_path / "ours" / name).read_text()
        assert [json.loads(x) for x in ours.splitlines()] == [
            json.loads(x) for x in theirs.splitlines()
        ]
    assert (
        json.loads((tmp_path / "ours" / "manifest.json").read_text())["receipts"]
        == json.loads((tmp_path / "theirs" / "manifest.json").read_text())["receipts"]
    )


def test_our_bout_against_the_upstream_lab_server(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        f"{sys.executable} -m mcp_arcade.fixture",
        "--task",
        "echo",
        "--args",
        '{"text": "hello"}',
        "--seat-allow",
        "echo,leak",
    )
    assert results(receipt) == {
        "inspect.tools_list": "pass",
        "poison.follow_through": "fail",
        "temporal.rug_pull": "fail",
        "protocol.unlisted_call": "fail",
    }
    assert atom(receipt, "poison.follow_through")["env_after"]["files"] == {
        "leak.txt": "fixture-secret\n"
    }
    assert atom(receipt, "inspect.tools_list")["session"]["server_info"]["name"] == (
        "mcp-arcade-fixture"
    )


def test_our_bout_against_a_public_reference_server(tmp_path: Path, capsys: Any) -> None:
    server = time_server()
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        f"{server} --local-timezone UTC",
        "--task",
        "get_current_time",
        "--args",
        '{"timezone": "UTC"}',
        "--agent",
        "task-only",
        "--n-clean",
        "2",
    )
    assert results(receipt) == {
        "inspect.tools_list": "pass",
        "poison.follow_through": "pass",
        "temporal.rug_pull": "pass",
        "protocol.unlisted_call": "pass",
    }
    assert receipt["scores"]["nrp"] == 1.0


def test_no_task_on_a_live_server_skips_instead_of_passing(tmp_path: Path, capsys: Any) -> None:
    server = time_server()
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        f"{server} --local-timezone UTC",
        "--atoms",
        "inspect.tools_list,poison.follow_through,temporal.rug_pull",
    )
    assert results(receipt)["poison.follow_through"] == "skip"
    assert results(receipt)["temporal.rug_pull"] == "skip"
    smoke = [c for c in atom(receipt, "inspect.tools_list")["checks"] if c["id"] == "smoke_invoke"]
    assert smoke[0]["result"] == "skip"
    assert receipt["scores"]["utility"] == "skip" and receipt["scores"]["nrp"] == 0.0


def test_our_tape_is_byte_identical_to_mcp_arcades_for_either_receipt(
    upstream_receipt: Path, tmp_path: Path, capsys: Any
) -> None:
    bout(tmp_path, capsys, "--target", "fixture", "--agent", "naive")
    for receipt in (upstream_receipt, tmp_path / "r.json"):
        theirs = arcade("tape", str(receipt), cwd=tmp_path)
        assert theirs.returncode == 0, theirs.stderr
        code, ours, _ = run_cli(["tape", str(receipt)], capsys)
        assert code == 0
        assert ours == theirs.stdout, receipt.name
        ids = [row["rpc_id"] for row in json.loads(ours)["rows"]]
        assert all(isinstance(rpc_id, str) for rpc_id in ids)
        assert "" in ids and "1" in ids  # notifications carry no id; requests count from 1


def test_mcp_arcade_drops_our_receipt_extras_and_we_keep_them(tmp_path: Path, capsys: Any) -> None:
    """What the README says: `run` and `wire[].atom_id` are ours; mcp-arcade ignores them."""
    bout(tmp_path, capsys, "--target", "fixture", "--agent", "naive")
    ours = json.loads((tmp_path / "r.json").read_text())
    assert "run" in ours and all("atom_id" in event for event in ours["wire"])
    assert ours["run"]["start_timeout_s"] == 60  # the default start-up deadline, recorded
    code, out, _ = run_cli(["receipt", str(tmp_path / "r.json")], capsys)
    assert code == 0 and json.loads(out) == ours
    theirs = arcade("receipt", "r.json", cwd=tmp_path)
    assert theirs.returncode == 0, theirs.stderr
    canonical = json.loads(theirs.stdout)
    assert "run" not in canonical
    assert not any("atom_id" in event for event in canonical["wire"])
    ours.pop("run")
    for event in ours["wire"]:
        event.pop("atom_id")
    assert canonical == ours
