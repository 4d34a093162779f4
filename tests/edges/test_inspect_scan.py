"""`inspect --targets FILE --shard I/N` and `report merge` of scans: a registry scan fanned out
over shards merges into the unsharded scan; a target that cannot be read is an entry, not the
end of the scan; other lists, repeated and missing shards are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from whichtool_tui.cli import main

NAMES = ["clean.json", "demo-lab.json", "bloated-schema.json", "everything.json", "filesystem.json"]


@pytest.fixture
def listing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    lines = ["# a registry", *(str(paths.SNAPSHOTS / name) for name in NAMES), "missing.json", ""]
    (tmp_path / "targets.txt").write_text("\n".join(lines), encoding="utf-8")
    return tmp_path / "targets.txt"


def scan(*extra: str) -> int:
    return main(["--no-ui", "inspect", "--targets", "targets.txt", *extra])


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(name).read_text(encoding="utf-8"))
    return data


def test_shards_of_a_scan_merge_into_the_whole_scan(
    listing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("--out", "all.json") == 1  # a missing target and error findings: not ok
    whole = load("all.json")
    assert whole["schemaVersion"] == "whichtool.scan/1" and whole["targetsTotal"] == 6
    assert [entry["index"] for entry in whole["targets"]] == list(range(6))
    missing = whole["targets"][5]
    assert missing["ok"] is False and "error" in missing and "report" not in missing
    assert whole["targets"][1]["report"]["schemaVersion"] == "whichtool.inspect/1"
    for index in (1, 2, 3):
        scan("--shard", f"{index}/3", "--out", f"s{index}.json")
    assert [e["index"] for e in load("s2.json")["targets"]] == [1, 4]
    capsys.readouterr()
    code = main(["--no-ui", "report", "merge", "s3.json", "s1.json", "s2.json", "--out", "m.json"])
    assert code == 1
    assert load("m.json") == whole
    # A JSON list is the same list.
    Path("targets.json").write_text(
        json.dumps([str(paths.SNAPSHOTS / n) for n in NAMES] + ["missing.json"]), encoding="utf-8"
    )
    main(["--no-ui", "inspect", "--targets", "targets.json", "--out", "from-json.json"])
    assert load("from-json.json") == whole


def test_scan_refusals_are_one_line(listing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scan("--shard", "1/2", "--out", "a.json")
    scan("--shard", "2/3", "--out", "other.json")
    capsys.readouterr()
    cases = [
        (["a.json", "other.json"], "another target list"),
        (["a.json", "a.json"], "are both shard 1/2"),
        (["a.json"], "needs at least two"),
    ]
    for files, message in cases:
        assert main(["--no-ui", "report", "merge", *files, "--out", "m.json"]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err
    assert main(["--no-ui", "inspect", "x.json", "--targets", "targets.txt"]) == 2
    assert "either TARGET or --targets" in capsys.readouterr().err
    assert main(["--no-ui", "inspect", "--shard", "1/2", str(paths.SNAPSHOTS / "clean.json")]) == 2
    assert "--shard applies to --targets" in capsys.readouterr().err
    Path("empty.txt").write_text("# nothing\n", encoding="utf-8")
    assert main(["--no-ui", "inspect", "--targets", "empty.txt"]) == 2
    assert "lists no target" in capsys.readouterr().err
