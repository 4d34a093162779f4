"""Power and budget planning: the formula against scipy, the pilot variance, and the dry run."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from scipy import stats

from tests.support.run_project import write_project
from tests.support.run_report_factory import Task, build_run
from whichtool_tui.cli import main
from whichtool_tui.evaluation.power import (
    change_variance,
    gate_power,
    pilot_within_variance,
    plan_power,
    repeats_needed,
    tasks_needed,
)
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.evaluation.report_model import dump_report_json


@pytest.mark.parametrize(
    ("tasks", "repeat", "detect", "within"),
    [(20, 5, 0.05, 0.25), (200, 1, 0.1, 0.1), (7, 20, 0.2, 0.0), (500, 3, 0.05, 0.16)],
)
def test_power_is_the_two_sided_normal_approximation(
    tasks: int, repeat: int, detect: float, within: float
) -> None:
    sigma = math.sqrt(detect * (1 - detect) + 2 * within / repeat)
    shift = math.sqrt(tasks) * detect / sigma
    z = stats.norm.ppf(0.975)
    expected = stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z)
    assert gate_power(tasks, repeat, detect, within) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("repeat", "within"), [(1, 0.25), (5, 0.25), (5, 0.05), (20, 0.0)])
def test_tasks_needed_is_the_smallest_count_reaching_80_percent(repeat: int, within: float) -> None:
    needed = tasks_needed(repeat, 0.05, within)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert needed == math.ceil(z * z * change_variance(0.05, within, repeat) / 0.05**2)
    assert gate_power(needed, repeat, 0.05, within) >= 0.8
    assert gate_power(needed - 1, repeat, 0.05, within) < 0.8 + 1e-3


def test_repeats_needed_and_its_limit() -> None:
    # 7 tasks can never show a 5-point drop: even noiseless runs need ~150 tasks.
    assert repeats_needed(7, 0.05, 0.25) is None
    repeats = repeats_needed(400, 0.05, 0.25)
    assert repeats is not None
    assert gate_power(400, repeats, 0.05, 0.25) >= 0.8
    assert repeats == 1 or gate_power(400, repeats - 1, 0.05, 0.25) < 0.8


TOOLS = {"list_users": 100, "get_user": 80}
TASKS = [Task("list", "Show every user", "list_users"), Task("get", "Get user 42", "get_user")]


def test_pilot_variance_is_the_mean_unbiased_within_task_variance() -> None:
    answers = {("list", 0): ["get_user"], ("get", 1): "error", ("get", 2): []}
    report = parse_run_report(build_run(TOOLS, TASKS, answers, 4), "pilot.json")
    # list: 3 of 4 correct -> 3*1/(4*3) = 0.25; get: 2 of 3 scored correct -> 2*1/(3*2) = 1/3.
    assert pilot_within_variance(report) == pytest.approx((0.25 + 1 / 3) / 2)
    plan = plan_power(2, 4, 0.05, 100, 4, 2.0, report)
    assert plan.within_variance == pytest.approx((0.25 + 1 / 3) / 2)
    assert plan.variance_source == "measured on the pilot run"
    option = next(o for o in plan.options if o.repeat == 4)
    assert option.trials == option.tasks * 4
    assert option.prompt_tokens == option.trials * 100
    assert option.seconds == math.ceil(option.trials * 2.0 / 4)


def test_dry_run_prints_the_power_plan_with_and_without_a_pilot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    base = ["--no-ui", "run", "surface.json", "--provider", "keyword", "--dry-run"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "  power         " in out
    assert "to detect a 5-point drop" in out and "assumed 0.25" in out
    assert "80% plans: " in out
    pilot = tmp_path / "pilot.json"
    report = parse_run_report(build_run(TOOLS, TASKS, {("list", 0): ["get_user"]}, 4), "p")
    pilot.write_text(dump_report_json(report), encoding="utf-8")
    assert main([*base, "--detect", "0.1", "--baseline", str(pilot)]) == 0
    out = capsys.readouterr().out
    assert "to detect a 10-point drop" in out and "measured on the pilot run" in out
    assert main([*base, "--baseline", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
    assert main([*base, "--detect", "0"]) == 2
    assert "--detect" in capsys.readouterr().err
