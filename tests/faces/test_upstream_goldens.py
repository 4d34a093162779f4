"""Upstream whichtool's own committed reports load in `report`, `diff` and `open`.

The files under tests/upstream/ were written by upstream whichtool 0.1.0 (see its README for the
source commit); nothing here regenerates them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from tests.support.cli import run_headless
from tests.support.paths import UPSTREAM
from tests.support.upstream_schemas import upstream_validator
from whichtool_tui.evaluation.reader import load_run_report
from whichtool_tui.reports.run_formats import RUN_FORMATS

UPSTREAM_RUN = UPSTREAM / "golden" / "run.report.json"
UPSTREAM_INSPECT = UPSTREAM / "examples" / "ambiguous-server" / "report.json"
RUN_SCHEMA_ID = (
    "https://raw.githubusercontent.com/mattagame/whichtool/main/schemas/run-report.schema.json"
)


def _env() -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1"}


def _with_bare_rates(path: Path, target: Path) -> Path:
    """The same run with confusionPairs[].rate as the bare number older writers used."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for pair in data["metrics"]["confusionPairs"]:
        pair["rate"] = pair["rate"]["value"]
    target.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return target


def test_the_upstream_files_are_upstream_shaped() -> None:
    run = json.loads(UPSTREAM_RUN.read_text(encoding="utf-8"))
    assert run["metrics"]["confusionPairs"][0]["rate"]["denominator"] == 15
    assert upstream_validator("run-report").is_valid(run)
    assert upstream_validator("inspect-report").is_valid(
        json.loads(UPSTREAM_INSPECT.read_text(encoding="utf-8"))
    )


@pytest.mark.slow
@pytest.mark.parametrize("report_format", RUN_FORMATS)
def test_report_renders_the_upstream_run_in_every_format(report_format: str) -> None:
    done = run_headless("report", str(UPSTREAM_RUN), "--format", report_format, env=_env())
    # upstream's run failed two thresholds on purpose, so report exits 1, not 2
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    assert done.stdout.strip()
    if report_format == "terminal":
        assert "list_users <-> search_users" in done.stdout
        assert "rate 40%" in done.stdout


def _missing_or_changed(theirs: Any, ours: Any, where: str = "") -> list[str]:
    """Upstream's fields that our file lacks or gives another value (our additions allowed)."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return [
            problem
            for key, value in theirs.items()
            for problem in (
                _missing_or_changed(value, ours[key], f"{where}.{key}")
                if key in ours
                else [f"{where}.{key} is missing"]
            )
        ]
    if isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours):
        return [
            problem
            for index, (a, b) in enumerate(zip(theirs, ours, strict=True))
            for problem in _missing_or_changed(a, b, f"{where}[{index}]")
        ]
    return [] if theirs == ours else [f"{where}: {theirs!r} became {ours!r}"]


@pytest.mark.slow
def test_report_json_of_the_upstream_run_keeps_every_upstream_field() -> None:
    done = run_headless("report", str(UPSTREAM_RUN), "--format", "json", env=_env())
    theirs = json.loads(UPSTREAM_RUN.read_text(encoding="utf-8"))
    assert _missing_or_changed(theirs, json.loads(done.stdout)) == []


def test_a_bare_number_rate_reads_back_as_upstreams_proportion(tmp_path: Path) -> None:
    bare = _with_bare_rates(UPSTREAM_RUN, tmp_path / "bare.json")
    [pair] = load_run_report(bare).metrics.confusion_pairs
    [upstream_pair] = load_run_report(UPSTREAM_RUN).metrics.confusion_pairs
    assert pair.rate == upstream_pair.rate
    assert (pair.rate.numerator, pair.rate.denominator) == (6, 15)


@pytest.mark.slow
@pytest.mark.parametrize("bad_rate", [0, -0.5, 1.5, True, "0.4"])
def test_an_impossible_bare_rate_is_refused(tmp_path: Path, bad_rate: Any) -> None:
    data = json.loads(UPSTREAM_RUN.read_text(encoding="utf-8"))
    data["metrics"]["confusionPairs"][0]["rate"] = bad_rate
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_headless("report", str(path), env=_env())
    assert done.returncode == 2
    assert done.stderr.startswith("whichtool-tui: ") and "confusionPairs" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_diff_pairs_the_upstream_run_with_itself_and_with_our_older_shape(
    tmp_path: Path,
) -> None:
    bare = _with_bare_rates(UPSTREAM_RUN, tmp_path / "bare.json")
    for head in (UPSTREAM_RUN, bare):
        done = run_headless("diff", str(UPSTREAM_RUN), str(head), "--format", "json", env=_env())
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["comparable"] is True
        assert report["newConfusions"] == [] and report["resolvedConfusions"] == []
        assert report["accuracy"]["paired"]["matched"] == 21


@pytest.mark.slow
def test_open_describes_the_upstream_run_and_inspect_report() -> None:
    run = run_headless("open", str(UPSTREAM_RUN), env=_env())
    assert run.returncode == 0, run.stderr
    assert "run report (whichtool.run/2)" in run.stdout.splitlines()[0]
    inspect = run_headless("open", str(UPSTREAM_INSPECT), env=_env())
    assert inspect.returncode == 0, inspect.stderr
    assert "inspect report (whichtool.inspect/1)" in inspect.stdout.splitlines()[0]
    assert "1 errors, 4 warnings, 1 info" in inspect.stdout


async def test_open_shows_the_upstream_files_on_their_screens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from whichtool_tui.artefacts import load_artefact
    from whichtool_tui.ui.app import WhichtoolApp

    monkeypatch.setenv("WHICHTOOL_TUI_STATE_DIR", str(tmp_path / "state"))
    for path, section in ((UPSTREAM_RUN, "results"), (UPSTREAM_INSPECT, "surface")):
        artefact = load_artefact(path)
        app = WhichtoolApp(artefact)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.current_mode == section, path.name
            assert not any(n.severity == "error" for n in app._notifications), path.name
            if section == "results":
                assert app.session.run is not None
                [pair] = app.session.run.metrics.confusion_pairs
                assert pair.rate.denominator == 15


def test_the_confusion_pairs_we_write_are_upstreams_shape() -> None:
    """Our own run golden's pairs against upstream's confusionPair definition."""
    ours = json.loads((paths.GOLDEN / "run" / "scenario.json").read_text())
    pairs = ours["metrics"]["confusionPairs"]
    assert pairs, "the scenario golden has a confusion pair to check"
    check = upstream_validator("run-report").evolve(
        schema={"$ref": f"{RUN_SCHEMA_ID}#/$defs/confusionPair"}
    )
    for pair in pairs:
        errors = [error.message for error in check.iter_errors(pair)]
        assert errors == [], errors


# Our additive top-level blocks (SPEC: upstream's fields stay, with upstream's meaning); upstream's
# closed schema has no room for them, so they are the whole of the difference, and no more.
ADDITIVE_RUN_KEYS = {"statistics", "discovery"}


def test_our_run_report_is_upstreams_schema_plus_the_documented_additive_blocks() -> None:
    ours = json.loads((paths.GOLDEN / "run" / "scenario.json").read_text())
    assert "statistics" in ours
    stripped = {key: value for key, value in ours.items() if key not in ADDITIVE_RUN_KEYS}
    errors = [
        f"{list(error.absolute_path)}: {error.message}"
        for error in upstream_validator("run-report").iter_errors(stripped)
    ]
    assert errors == []
