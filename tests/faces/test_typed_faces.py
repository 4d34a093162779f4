"""The faces read reports through their typed models: a saved file the model refuses is one
named error, and a view built from the model equals the one built from the saved JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.paths import UI_DATA
from whichtool_tui.artefacts import describe, load_artefact
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.server.summaries import inspect_summary
from whichtool_tui.surface.report_model import InspectReport
from whichtool_tui.ui.surface_model import build_surface_view
from whichtool_tui.usecases.saved_runs import parse_diff


def test_a_saved_inspect_report_the_model_refuses_is_one_named_error(tmp_path: Path) -> None:
    data = json.loads((UI_DATA / "lab-inspect.json").read_text())
    del data["surface"]["toolCount"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(WhichtoolError) as refused:
        describe(load_artefact(broken))
    assert refused.value.code == "open/invalid-report"
    assert "surface.toolCount" in refused.value.message


def test_a_saved_diff_the_model_refuses_is_one_named_error() -> None:
    data = json.loads((UI_DATA / "lab-diff.json").read_text())
    data["accuracy"]["delta"] = "lots"
    with pytest.raises(WhichtoolError) as refused:
        parse_diff(data, "lab-diff.json")
    assert refused.value.code == "diff/invalid"
    assert "accuracy.delta" in refused.value.message


def test_the_surface_view_is_the_same_from_the_model_and_from_the_saved_json() -> None:
    data = json.loads((UI_DATA / "lab-inspect.json").read_text())
    report = InspectReport.model_validate(data)
    assert build_surface_view(report) == build_surface_view(data)
    view = build_surface_view(report)
    assert len(view.tools) == report.surface.tool_count
    assert {finding.code for finding in view.findings} == {d.code for d in report.diagnostics}


def test_the_agent_summary_counts_every_finding_of_the_typed_report() -> None:
    report = InspectReport.model_validate(json.loads((UI_DATA / "lab-inspect.json").read_text()))
    _text, data = inspect_summary(report)
    severities = [d.severity for d in report.diagnostics]
    assert data["findings"] == {
        level: severities.count(level) for level in ("error", "warning", "info")
    }
    assert data["surface"] == {"hash": report.surface.hash, "toolCount": report.surface.tool_count}
