"""Golden inspect reports (JSON and terminal) for every hand-made flawed snapshot.

Regenerate after an intended change with ``WHICHTOOL_REGEN_GOLDEN=1`` and review the diff
like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import paths
from tests.support.paths import REPO
from whichtool_tui.reports.inspect_json import render_inspect
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.load import load_snapshot

GOLDEN = paths.GOLDEN / "inspect"
REGENERATE = os.environ.get("WHICHTOOL_REGEN_GOLDEN") == "1"
# snapshot name -> (max_context_tokens, expected ok, the codes that must be present)
CASES: dict[str, tuple[int | None, bool, set[str]]] = {
    "clean": (None, True, set()),
    "identical-descriptions": (None, False, {"descriptions/identical"}),
    "contradictory-annotations": (None, False, {"annotations/contradictory-read-only-destructive"}),
    "near-duplicate": (None, True, {"overlap/high"}),
    "invalid-header": (None, False, {"x-mcp-header/invalid", "x-mcp-header/present"}),
    "bloated-schema": (4000, False, {"threshold/maxContextTokens"}),
    "malformed": (
        None,
        False,
        {
            "surface/malformed-tool",
            "surface/missing-tool-name",
            "surface/duplicate-tool-name",
            "surface/non-string-description",
            "surface/missing-input-schema",
            "descriptions/missing",
        },
    ),
    "demo-lab": (None, True, {"overlap/high"}),
}


def _check(path: Path, text: str) -> None:
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"missing golden {path.name}; run with WHICHTOOL_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs from the golden file"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_reports(name: str) -> None:
    limit, expected_ok, codes = CASES[name]
    listing = load_snapshot(REPO / "snapshots" / f"{name}.json", cwd=REPO)
    report = inspect_surface(listing, max_context_tokens=limit)
    found = {d.code for d in report.diagnostics}
    assert codes <= found
    assert report.ok is expected_ok
    if name in ("clean", "demo-lab", "near-duplicate"):
        assert not any(d.severity == "error" for d in report.diagnostics)
    if name == "clean":
        assert not any(d.severity == "warning" for d in report.diagnostics)
    json_text = report.to_json_text()
    assert json_text == inspect_surface(listing, max_context_tokens=limit).to_json_text()
    assert json.loads(json_text)["schemaVersion"] == "whichtool.inspect/1"
    terminal = render_inspect(report, "terminal")
    assert terminal.isascii() and "\x1b" not in terminal
    _check(GOLDEN / f"{name}.report.json", json_text)
    _check(GOLDEN / f"{name}.terminal.txt", terminal)


@pytest.mark.parametrize("name", ["demo-lab", "malformed", "invalid-header"])
def test_saved_report_reads_back_into_the_model(name: str) -> None:
    from whichtool_tui.surface.report_model import InspectReport

    text = (GOLDEN / f"{name}.report.json").read_text(encoding="utf-8")
    assert InspectReport.model_validate(json.loads(text)).to_json_text() == text
