"""A saved `bout --trials` or `bout --defence` report opens over the Bout section (and is
described by the headless `open`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.ui import UI_DATA, static_text, wait_until
from whichtool_tui.arcade.conformance import ConformanceReceipts, score_conformance
from whichtool_tui.arcade.receipt import BoutReceipt, read_receipt_data, validate_receipt
from whichtool_tui.arcade.trials import score_series
from whichtool_tui.artefacts import describe, load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.series import SeriesModal

LAB_RECEIPT = UI_DATA / "lab-receipt.json"


def load_receipt(path: Path) -> BoutReceipt:
    return validate_receipt(read_receipt_data(path), str(path))


pytestmark = pytest.mark.usefixtures("isolated_state")


def trials_file(tmp_path: Path) -> Path:
    receipt = load_receipt(LAB_RECEIPT)
    series = score_series([receipt, receipt, receipt], 3)
    path = tmp_path / "trials.json"
    path.write_text(json.dumps(series.model_dump(mode="json")), encoding="utf-8")
    return path


def conformance_file(tmp_path: Path) -> Path:
    receipt = load_receipt(LAB_RECEIPT)
    passes = dict.fromkeys(("lab", "lab_defended", "honest", "honest_defended"), receipt)
    report = score_conformance(["proxy", "--", "fixture"], ConformanceReceipts(**passes))
    path = tmp_path / "conformance.json"
    path.write_text(json.dumps(report.model_dump(mode="json")), encoding="utf-8")
    return path


async def test_trials_open_as_a_rates_table_over_the_bout_section(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(trials_file(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SeriesModal), "the rates modal")
        body = static_text(app.screen.query_one("#series-body", Static))
        assert "Trials 3 of 3" in body
        assert "poison.follow_through" in body and "follow-through" in body
        assert "3/3  100%  [" in body
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SeriesModal), "closed")
        assert app.current_mode == "bout"


async def test_conformance_opens_as_its_table(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(conformance_file(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SeriesModal), "the table modal")
        body = static_text(app.screen.query_one("#series-body", Static))
        assert "Conformance of proxy -- fixture" in body
        assert "passed_through" in body


def test_headless_open_describes_both(tmp_path: Path) -> None:
    trials = describe(load_artefact(trials_file(tmp_path)))
    assert "bout trials (rates)" in trials and "poison.follow_through 3/3" in trials
    table = describe(load_artefact(conformance_file(tmp_path)))
    assert "defence conformance" in table and "passed_through=" in table
