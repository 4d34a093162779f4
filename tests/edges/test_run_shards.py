"""`run --shard i/N` and `report merge`: the merged shards of a plan equal the unsharded run's
report (metrics, clustered intervals, pass^k and the other statistics, findings, gates, every
trial) and diff against a base alike; shards of other plans, repeated or missing shards are
refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from whichtool_tui.cli import main

SNAPSHOT = paths.REPO / "snapshots" / "demo-lab.json"
TASKS = paths.REPO / "snapshots" / "demo-lab.tasks.yaml"


def run(out: str, *extra: str) -> int:
    return main(
        [
            "--no-ui",
            "run",
            str(SNAPSHOT),
            "--tasks",
            str(TASKS),
            "--provider",
            "keyword",
            "--repeat",
            "3",
            "--min-accuracy",
            "0.5",
            "--no-cache",
            "--format",
            "json",
            "--out",
            out,
            *extra,
        ]
    )


def load(path: str | Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """Everything but the clock: durations and per-trial latencies."""
    kept = {k: v for k, v in report.items() if k not in ("durationMs", "shard")}
    kept["trials"] = [{k: v for k, v in t.items() if k != "latencyMs"} for t in report["trials"]]
    return kept


@pytest.fixture
def shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    assert run("full.json") in (0, 1)
    names = []
    for index in (1, 2, 3):
        name = f"shard{index}.json"
        assert run(name, "--shard", f"{index}/3") in (0, 1)
        names.append(name)
    return names


def test_merged_shards_equal_the_unsharded_run(
    shards: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    full = load("full.json")
    parts = [load(name) for name in shards]
    assert all(part["shard"]["count"] == 3 for part in parts)
    assert len({part["shard"]["planFingerprint"] for part in parts}) == 1
    task_sets = [{t["taskId"] for t in part["trials"]} for part in parts]
    assert all(task_sets) and sum(len(s) for s in task_sets) == full["tasks"]["selected"]
    assert set().union(*task_sets) == {t["id"] for t in full["tasks"]["list"]}
    assert sum(len(part["trials"]) for part in parts) == len(full["trials"])
    # Shards really differ from the whole: each has only its own trials and metrics.
    assert all(part["metrics"] != full["metrics"] for part in parts)
    capsys.readouterr()
    assert main(["--no-ui", "report", "merge", *shards, "--out", "merged.json"]) == main(
        ["--no-ui", "report", "full.json", "--format", "json", "--out", "again.json"]
    )
    merged = load("merged.json")
    assert "shard" not in merged
    assert comparable(merged) == comparable(full)
    assert merged["statistics"] == full["statistics"]  # clustered intervals, pass^k, ...
    assert merged["durationMs"] == pytest.approx(sum(p["durationMs"] for p in parts))
    # Any order of the shards gives the same report.
    assert main(["--no-ui", "report", "merge", *reversed(shards), "--out", "reversed.json"]) in (
        0,
        1,
    )
    assert comparable(load("reversed.json")) == comparable(merged)


def test_a_merged_run_diffs_against_a_base_as_the_unsharded_run(
    shards: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("base.json", "--seed", "7") in (0, 1)
    main(["--no-ui", "report", "merge", *shards, "--out", "merged.json"])
    outputs = []
    for head in ("full.json", "merged.json"):
        folder = tmp_path / head.removesuffix(".json")
        folder.mkdir()
        shutil.copy(tmp_path / "base.json", folder / "base.json")
        shutil.copy(tmp_path / head, folder / "head.json")
        monkeypatch.chdir(folder)
        texts = {}
        for fmt in ("json", "terminal"):
            main(["--no-ui", "diff", "base.json", "head.json", "--format", fmt, "--out", "d"])
            texts[fmt] = Path("d").read_text(encoding="utf-8")
        outputs.append(texts)
    assert outputs[0] == outputs[1]
    assert '"schemaVersion": "whichtool.diff/2"' in outputs[0]["json"]


def test_mismatched_repeated_and_missing_shards_are_refused(
    shards: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("other.json", "--shard", "2/3", "--seed", "7") in (0, 1)
    capsys.readouterr()
    cases = [
        ([shards[0], "other.json", shards[2]], "shard of another plan"),
        ([shards[0], shards[0], shards[1]], "are both shard 1/3"),
        ([shards[0], shards[1]], "Shard(s) 3 of 3 are missing"),
        ([shards[0], "full.json"], "is not a shard"),
        ([shards[0]], "needs at least two shard reports"),
    ]
    for files, message in cases:
        assert main(["--no-ui", "report", "merge", *files, "--out", "m.json"]) == 2
        err = capsys.readouterr().err
        assert message in err, err
        assert len(err.strip().splitlines()) <= 2 and "Traceback" not in err
    assert not Path("m.json").exists()


@pytest.mark.parametrize("bad", ["0/3", "4/3", "3", "a/b", "1/1001"])
def test_a_bad_shard_is_a_one_line_error(
    bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("x.json", "--shard", bad) == 2
    err = capsys.readouterr().err
    assert "--shard" in err and "Traceback" not in err


def test_more_shards_than_tasks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("x.json", "--shard", "12/12") == 2
    assert "has no tasks" in capsys.readouterr().err


def test_the_example_matrix_runs_every_shard_and_merges_them() -> None:
    import yaml

    workflow = yaml.safe_load((paths.REPO / "examples" / "shard-matrix.yml").read_text("utf-8"))
    shard_job, merge_job = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    count = len(shard_job["strategy"]["matrix"]["shard"])
    assert count == 4 and shard_job["strategy"]["fail-fast"] is False
    action = next(step for step in shard_job["steps"] if "whichtool-tui@" in step.get("uses", ""))
    assert action["with"]["shard"] == "${{ matrix.shard }}/4"
    assert merge_job["needs"] == "shard"
    commands = " ".join(step.get("run", "") for step in merge_job["steps"])
    assert "report merge run-shard-*/whichtool-run.json" in commands
