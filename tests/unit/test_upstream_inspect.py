"""While we write ``whichtool.inspect/1``, our inspect JSON is what upstream's schema accepts.

Also the agreement test on upstream's own ambiguous-server example: the numbers (hash, tokens,
tool summaries, overlap pairs) and the findings (code, target, severity) are upstream's; only the
prose differs, since our sentences are our own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from tests.support.cli import run_headless
from tests.support.paths import REPO, UPSTREAM
from tests.support.upstream_schemas import upstream_validator
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.load import load_snapshot
from whichtool_tui.surface.report_model import InspectReport

AMBIGUOUS = UPSTREAM / "examples" / "ambiguous-server"
BUNDLED = sorted((REPO / "snapshots").glob("*.json"))
INSPECT_GOLDENS = sorted((paths.GOLDEN / "inspect").glob("*.report.json"))
SCHEMA = upstream_validator("inspect-report")


def _errors(data: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in SCHEMA.iter_errors(data)]


def test_every_bundled_snapshot_is_checked() -> None:
    assert len(BUNDLED) >= 10


@pytest.mark.parametrize("snapshot", BUNDLED, ids=lambda p: p.name)
def test_each_bundled_snapshots_report_validates_against_upstreams_schema(snapshot: Path) -> None:
    report = inspect_surface(load_snapshot(snapshot, cwd=REPO))
    data = json.loads(report.to_json_text())
    assert _errors(data) == []
    # the fix text is still there, where upstream's schema allows it
    hinted = [d for d in report.diagnostics if d.hint]
    written = [d for d in data["diagnostics"] if "hint" in (d.get("detail") or {})]
    assert len(written) == len(hinted)


@pytest.mark.parametrize("golden", INSPECT_GOLDENS, ids=lambda p: p.name)
def test_each_inspect_golden_validates_against_upstreams_schema(golden: Path) -> None:
    assert _errors(json.loads(golden.read_text(encoding="utf-8"))) == []


@pytest.mark.slow
def test_the_command_line_json_validates_too(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = run_headless(
        "inspect",
        str(AMBIGUOUS / "tools.json"),
        "--format",
        "json",
        "--out",
        str(out),
        env=dict(os.environ),
    )
    assert done.returncode == 1, done.stderr  # an identical-descriptions error, as upstream
    assert _errors(json.loads(out.read_text(encoding="utf-8"))) == []


def test_a_hint_rides_in_detail_and_reads_back() -> None:
    with_detail = Diagnostic(
        code="overlap/high", severity="warning", message="m", detail={"score": 0.7}, hint="fix"
    )
    bare = Diagnostic(code="names/generic", severity="info", message="m", tool="t", hint="fix")
    plain = Diagnostic(code="descriptions/missing", severity="warning", message="m", tool="t")
    assert with_detail.to_upstream_json()["detail"] == {"score": 0.7, "hint": "fix"}
    assert bare.to_upstream_json() == {
        "code": "names/generic",
        "severity": "info",
        "message": "m",
        "tool": "t",
        "detail": {"hint": "fix"},
    }
    assert "detail" not in plain.to_upstream_json()
    for item in (with_detail, bare, plain):
        assert Diagnostic.model_validate(item.to_upstream_json()) == item


def test_an_upstream_inspect_report_reads_into_our_model() -> None:
    text = (AMBIGUOUS / "report.json").read_text(encoding="utf-8")
    report = InspectReport.model_validate(json.loads(text))
    assert json.loads(report.to_json_text()) == json.loads(text)


class TestAmbiguousServerAgreement:
    """Ours against upstream's committed report for its examples/ambiguous-server surface."""

    ours: dict[str, Any]
    theirs: dict[str, Any]

    @pytest.fixture(autouse=True)
    def _reports(self) -> None:
        listing = load_snapshot(AMBIGUOUS / "tools.json", cwd=REPO)
        self.ours = json.loads(inspect_surface(listing).to_json_text())
        self.theirs = json.loads((AMBIGUOUS / "report.json").read_text(encoding="utf-8"))

    def test_hash_and_tool_summaries(self) -> None:
        assert self.ours["surface"] == self.theirs["surface"]
        assert self.ours["surface"]["hash"].startswith("sha256:5086ee475f20")

    def test_tokens(self) -> None:
        ours, theirs = self.ours["tokens"], self.theirs["tokens"]
        assert (ours["total"], ours["byTool"], ours["serialization"]) == (
            theirs["total"],
            theirs["byTool"],
            theirs["serialization"],
        )
        for key in ("id", "exact", "approximates"):
            assert ours["tokenizer"][key] == theirs["tokenizer"][key]

    def test_annotation_coverage(self) -> None:
        assert self.ours["annotations"]["coverage"] == self.theirs["annotations"]["coverage"]

    def test_all_28_pairs_scored_and_the_reported_ones_identical(self) -> None:
        assert self.ours["overlap"]["pairsConsidered"] == 28
        assert self.ours["overlap"] == self.theirs["overlap"]

    def test_upstreams_six_findings_are_ours_with_the_same_targets_and_severity(self) -> None:
        def key(item: dict[str, Any]) -> tuple[str, str, str | None, tuple[str, ...]]:
            return (item["code"], item["severity"], item.get("tool"), tuple(item.get("tools", ())))

        theirs = {key(item) for item in self.theirs["diagnostics"]}
        ours = {key(item) for item in self.ours["diagnostics"]}
        assert len(theirs) == 6
        assert theirs <= ours, theirs - ours
        upstream_codes = {code for code, *_ in theirs}
        # our extra rules add findings, but none under one of upstream's six codes
        assert {k for k in ours if k[0] in upstream_codes} == theirs

    def test_verdict(self) -> None:
        for key in ("headerParams", "thresholds", "analysisOk", "thresholdsOk", "ok"):
            assert self.ours[key] == self.theirs[key], key
