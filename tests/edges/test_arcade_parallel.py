"""Atoms side by side: the receipt and the event stream match a one-after-another bout exactly."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.support.arcade import gone_soon, processes_matching
from whichtool_tui.arcade import bout as bout_module
from whichtool_tui.arcade import events
from whichtool_tui.arcade.bout import run_bout
from whichtool_tui.arcade.receipt import receipt_json
from whichtool_tui.commands import bout as bout_command
from whichtool_tui.usecases.bout import build_plan

pytestmark = pytest.mark.slow  # starts processes or servers


def _plan(sandbox: Path, *flags: str) -> Any:
    parser = argparse.ArgumentParser()
    bout_command.configure(parser)
    args = parser.parse_args(["--target", "fixture", "--sandbox", str(sandbox), *flags])
    return build_plan(args)


def _run(
    sandbox: Path, parallel: bool, *flags: str, env: dict[str, str] | None = None
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    plan = _plan(sandbox, *flags)
    plan.base_env.update(env or {})
    plan.parallel_atoms = parallel
    seen: list[tuple[Any, ...]] = []

    def sink(event: events.BoutEvent) -> None:
        fields = vars(event).copy()
        fields.pop("bout_id", None)
        seen.append((type(event).__name__, json.dumps(fields, sort_keys=True, default=str)))

    receipt = anyio.run(run_bout, plan, sink, "bout_0123456789ab")
    data: dict[str, Any] = json.loads(receipt_json(receipt))
    data.pop("started_at")
    data.pop("finished_at")
    return data, seen


def _count_overlap(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """[atoms running now, most ever running at once], kept by a wrapper around run_atom."""
    counts = [0, 0]
    original = bout_module.run_atom

    async def counted(*args: Any, **kwargs: Any) -> Any:
        counts[0] += 1
        counts[1] = max(counts)
        try:
            return await original(*args, **kwargs)
        finally:
            counts[0] -= 1

    monkeypatch.setattr(bout_module, "run_atom", counted)
    return counts


def test_side_by_side_receipt_and_events_equal_a_sequential_bout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _count_overlap(monkeypatch)
    for flags in ((), ("--agent", "task-only", "--fixture-mode", "honest")):
        counts[1] = 0
        sequential, seq_events = _run(tmp_path / "sb", False, *flags)
        assert counts[1] == 1
        side_by_side, par_events = _run(tmp_path / "sb", True, *flags)
        assert counts[1] == 4  # the four atoms really ran at the same time
        assert side_by_side == sequential
        assert par_events == seq_events
        kinds = [kind for kind, _ in par_events]
        assert kinds[0] == "BoutStarted" and kinds[-1] == "BoutFinished"
        # No atom's events interleave with another's: each block opens and closes in turn.
        order = [json.loads(f)["atom_id"] for k, f in par_events if k == "AtomStarted"]
        assert order == [a["id"] for a in sequential["atoms"]]
        owner = [json.loads(f).get("atom_id") for _, f in par_events[1:-1]]
        blocks = [a for i, a in enumerate(owner) if i == 0 or owner[i - 1] != a]
        assert blocks == order
    assert [a["result"] for a in sequential["atoms"]] == ["pass"] * 4


def test_atoms_that_time_out_report_the_same_side_by_side(tmp_path: Path) -> None:
    hang = {"ARCADE_HANG_ON": "tools/call"}  # every atom's first call never returns
    sequential, seq_events = _run(tmp_path / "sb", False, "--timeout", "1", env=hang)
    side_by_side, par_events = _run(tmp_path / "sb", True, "--timeout", "1", env=hang)
    assert side_by_side == sequential
    assert par_events == seq_events
    assert [a["result"] for a in sequential["atoms"]] == ["error"] * 4
    details = [a["checks"][0]["detail"] for a in sequential["atoms"]]
    assert all(d.startswith("ClientTimeout: tools/call") for d in details), details


def test_cli_bout_leaves_no_fixture_process_behind(tmp_path: Path) -> None:
    marker = str(tmp_path / "marker-sandbox")
    out = tmp_path / "r.json"
    command = [sys.executable, "-m", "whichtool_tui", "--no-ui", "bout", "--target", "fixture"]
    result = subprocess.run(
        [*command, "--no-prompt", "--sandbox", marker, "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        assert result.returncode == 0, result.stderr
        data = json.loads(out.read_text(encoding="utf-8"))
        results = [a["result"] for a in data["atoms"]]
        assert results == ["pass", "fail", "fail", "fail"]
        assert gone_soon(marker), processes_matching(marker)
    finally:
        for pid in processes_matching(marker):
            subprocess.run(["kill", "-9", str(pid)], check=False)
