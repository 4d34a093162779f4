"""The power plan: pilot rates, the 80% plans found by the simulation, Holm's reach per tool,
--max-accuracy-drop, and the dry run that prints it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.run_project import write_project
from tests.support.run_report_factory import Task, build_run
from whichtool_tui.cli import main
from whichtool_tui.evaluation.power import (
    POWER_TARGET,
    design_rates,
    pilot_rates,
    plan_power,
    tool_reach,
)
from whichtool_tui.evaluation.power_sim import simulate_power
from whichtool_tui.evaluation.power_text import power_lines
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.evaluation.report_model import dump_report_json

TOOLS = {"list_users": 100, "get_user": 80}
TASKS = [Task("list", "Show every user", "list_users"), Task("get", "Get user 42", "get_user")]


def test_pilot_rates_are_each_tasks_scored_success_rate() -> None:
    answers = {("list", 0): ["get_user"], ("get", 1): "error", ("get", 2): []}
    report = parse_run_report(build_run(TOOLS, TASKS, answers, 4), "pilot.json")
    # list: 3 of 4 correct; get: 2 of 3 scored correct (the errored trial is not scored).
    assert pilot_rates(report) == pytest.approx([2 / 3, 3 / 4])
    assert design_rates([0.0, 1.0], 4) == (0.0, 0.0, 1.0, 1.0)  # the pilot's quantiles


def test_the_plan_reports_both_models_and_plans_that_reach_80_percent() -> None:
    plan = plan_power(12, 5, 0.2, 100, 4, 2.0)
    assert set(plan.power) == {"spread", "concentrated"}
    assert plan.headline.draws == 2_000
    assert plan.min_tasks == 6
    by_repeat = {option.repeat: option for option in plan.options}
    assert set(by_repeat) == {1, 3, 5, 10, 20}
    option = by_repeat[5]
    assert option.tasks is not None and option.power is not None
    assert option.power.power >= POWER_TARGET - 2 * option.power.error
    fewer = simulate_power(design_rates(None, option.tasks - 1), 5, 0.2, "spread")
    assert fewer.power < POWER_TARGET + 2 * fewer.error  # and one task fewer does not
    assert option.trials == option.tasks * 5 and option.prompt_tokens == option.trials * 100
    assert plan.repeats_needed is not None


def test_max_accuracy_drop_is_honoured() -> None:
    free = plan_power(20, 3, 0.3, 100, 4, None)
    capped = plan_power(20, 3, 0.3, 100, 4, None, max_accuracy_drop=0.25)
    # The gate fires only when the measured drop is also above 0.25.
    assert capped.headline.power < free.headline.power - 0.1
    assert "--max-accuracy-drop 0.25" in "\n".join(power_lines(capped))


def test_holm_reach_per_tool() -> None:
    reach = {r.tool: r for r in tool_reach({f"t{i}": 9 if i < 3 else 4 for i in range(8)})}
    assert {r.needed for r in reach.values()} == {9}
    assert [tool for tool, r in sorted(reach.items()) if r.reachable] == ["t0", "t1", "t2"]
    plan = plan_power(48, 3, 0.3, 100, 4, None, tasks_by_tool={"a": 40, "b": 4, "c": 4})
    text = "\n".join(power_lines(plan))
    assert "Holm over 3 tools needs >= 7 changed tasks" in text
    assert "too few: b (4), c (4)" in text


def test_dry_run_prints_the_simulated_plan_with_and_without_a_pilot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    base = ["--no-ui", "run", "surface.json", "--provider", "keyword", "--dry-run"]
    assert main([*base, "--detect", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "  power         " in out
    assert "to detect a 30-point drop" in out and "no pilot run given" in out
    assert "can never gate: fewer than 6 changed tasks" in out
    assert "80% plans: " in out
    pilot = tmp_path / "pilot.json"
    report = parse_run_report(build_run(TOOLS, TASKS, {("list", 0): ["get_user"]}, 4), "p")
    pilot.write_text(dump_report_json(report), encoding="utf-8")
    args = [*base, "--detect", "0.3", "--baseline", str(pilot), "--max-accuracy-drop", "0.1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "per-task rates of the pilot run (2 tasks)" in out
    assert "--max-accuracy-drop 0.1" in out
    assert main([*base, "--baseline", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
    assert main([*base, "--detect", "0"]) == 2
    assert "--detect" in capsys.readouterr().err
    assert main([*base, "--max-accuracy-drop", "2"]) == 2
