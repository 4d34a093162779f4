"""The paired diff over hand-built runs: refusals, sign tests, confusions, gates, exit codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.run_report_factory import Answer, Task, build_run
from whichtool_tui.evaluation.diff import DiffInput, diff_exit_code, diff_runs
from whichtool_tui.evaluation.diff_model import DiffReport, dump_diff_json
from whichtool_tui.evaluation.reader import parse_run_report

TOOLS = {"list_users": 100, "search_users": 120, "get_user": 80}
TASKS = [
    Task("list", "Show every user", "list_users"),
    Task("find", "Find users named Bob", "search_users"),
    Task("get", "Get user 42", "get_user"),
    Task("weather", "Weather in Paris?", None),
]
REPEAT = 8


def run(
    answers: dict[tuple[str, int], Answer] | None = None,
    *,
    tools: dict[str, int] | None = None,
    tasks: list[Task] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    return build_run(tools or TOOLS, tasks or TASKS, answers or {}, REPEAT, **kwargs)


def diff(base: dict[str, Any], head: dict[str, Any], drop: float | None = None) -> DiffReport:
    """Upstream's gate (trial-level sign test): these tests pin upstream's rules exactly."""
    return diff_runs(
        DiffInput(parse_run_report(base, "base.json"), "base.json"),
        DiffInput(parse_run_report(head, "head.json"), "head.json"),
        drop,
        paired_unit="trial",
    )


def codes(report: DiffReport) -> dict[str, str]:
    return {d.code: d.severity for d in report.diagnostics}


def swap(task: str, pick: str, count: int) -> dict[tuple[str, int], Answer]:
    return {(task, i): [pick] for i in range(count)}


def test_identical_runs_are_ok_and_note_the_same_surface() -> None:
    report = diff(run(), run())
    assert report.comparable and report.ok
    assert report.accuracy.delta == 0
    assert report.accuracy.paired.matched == 3 * REPEAT
    assert report.over_trigger.paired.matched == REPEAT
    assert report.multi_call.paired.matched == 4 * REPEAT
    assert codes(report) == {"diff/same-surface": "info"}
    assert diff_exit_code(report) == 0


def test_a_distinguishable_new_confusion_fails_the_diff() -> None:
    report = diff(run(), run(swap("find", "list_users", 6)))
    assert [c.tools for c in report.new_confusions] == [("list_users", "search_users")]
    confusion = report.new_confusions[0]
    assert (confusion.introduced, confusion.resolved) == (6, 0)
    assert confusion.p_value == pytest.approx(0.03125)
    assert confusion.distinguishable
    assert confusion.swaps == 6
    assert confusion.denominator == 2 * REPEAT
    assert codes(report)["diff/new-confusion"] == "error"
    assert not report.ok
    assert diff_exit_code(report) == 1
    tool = next(t for t in report.by_tool if t.tool == "search_users")
    assert tool.delta == pytest.approx(-6 / 8)
    assert report.by_tool[0].tool == "search_users"  # sorted by delta ascending
    assert codes(report)["diff/tool-regressed"] == "warning"


def test_five_new_swaps_are_only_inconclusive() -> None:
    report = diff(run(), run(swap("find", "list_users", 5)))
    confusion = report.new_confusions[0]
    assert confusion.p_value == pytest.approx(0.0625)
    assert not confusion.distinguishable
    assert codes(report)["diff/new-confusion"] == "warning"
    assert "inconclusive" in next(
        d.message for d in report.diagnostics if d.code == "diff/new-confusion"
    )
    assert report.ok
    assert diff_exit_code(report) == 0


def test_resolved_confusions_are_reported_as_info() -> None:
    report = diff(run(swap("find", "list_users", 3)), run())
    assert [c.tools for c in report.resolved_confusions] == [("list_users", "search_users")]
    assert report.resolved_confusions[0].resolved == 3
    assert codes(report)["diff/resolved-confusion"] == "info"
    assert report.ok


def test_a_multi_call_regression_fails_only_when_distinguishable() -> None:
    extra = {("get", i): ["get_user", "list_users"] for i in range(6)}
    report = diff(run(), run(extra))
    assert report.multi_call.paired.regressed == 6
    assert report.multi_call.distinguishable
    assert codes(report)["diff/multi-call-regressed"] == "error"
    assert not report.ok
    few = diff(run(), run({("get", i): ["get_user", "list_users"] for i in range(5)}))
    assert "diff/multi-call-regressed" not in codes(few)
    assert few.ok


def test_an_accuracy_drop_gates_only_with_max_accuracy_drop() -> None:
    abstain = {(task, i): [] for task in ("list", "find") for i in range(4)}
    base, head = run(), run(abstain)
    plain = diff(base, head)
    assert plain.accuracy.delta == pytest.approx(-8 / 24)
    assert plain.accuracy.distinguishable
    assert plain.ok  # an accuracy drop alone never fails a diff
    gated = diff(base, head, drop=0.05)
    assert codes(gated)["threshold/maxAccuracyDrop"] == "error"
    assert not gated.ok
    assert diff_exit_code(gated) == 1
    loose = diff(base, head, drop=0.5)
    assert loose.ok


def test_an_indistinct_accuracy_move_is_inconclusive() -> None:
    report = diff(run(), run({("list", 0): [], ("find", 1): []}), drop=0.01)
    assert report.accuracy.delta == pytest.approx(-2 / 24)
    assert not report.accuracy.distinguishable
    assert codes(report)["diff/inconclusive"] == "info"
    assert report.ok


def test_errors_are_excluded_from_pairing() -> None:
    report = diff(run({("list", 0): "error"}), run({("find", 0): "error"}))
    assert report.accuracy.paired.excluded == 2
    assert report.accuracy.paired.matched == 3 * REPEAT - 2


@pytest.mark.parametrize(
    ("head_kwargs", "reason"),
    [
        ({"model": "other"}, "model differs"),
        ({"seed": 99}, "seed differs"),
        ({"tasks": [*TASKS[:3], Task("weather", "Weather in Rome?", None)]}, "selected tasks"),
    ],
)
def test_incomparable_runs_are_refused(head_kwargs: dict[str, Any], reason: str) -> None:
    report = diff(run(), run(**head_kwargs))
    assert not report.comparable
    assert any(reason in item for item in report.incomparable)
    assert codes(report)["diff/incomparable"] == "error"
    assert not report.ok
    assert diff_exit_code(report) == 2


def test_reproducibility_fields_each_make_runs_incomparable() -> None:
    base = run()
    for path, value in [
        (("provider",), "anthropic"),
        (("endpoint",), "http://127.0.0.1:9/v1"),
        (("requestFingerprint",), "f" * 64),
        (("providerCapabilities", "logprobs"), True),
        (("temperature",), 0.5),
        (("reasoningEffort",), "high"),
        (("permuted",), False),
        (("taskSetVersion",), 2),
    ]:
        head = run()
        node = head["reproducibility"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        report = diff(base, head)
        assert not report.comparable, path
        assert any(path[-1] in reason for reason in report.incomparable), path


def test_an_invalid_run_is_incomparable() -> None:
    broken = run({("list", i): "error" for i in range(8)})
    assert broken["execution"]["ok"] is False
    report = diff(run(), broken)
    assert "the head run is not valid (execution.ok is false)" in report.incomparable
    assert diff_exit_code(report) == 2


def test_tool_added_and_removed_and_a_new_surface() -> None:
    head_tools = {"list_users": 100, "search_users": 120, "get_user": 80, "count_users": 60}
    report = diff(run(), run(tools=head_tools))
    assert report.comparable
    assert codes(report)["diff/tool-added"] == "info"
    assert "diff/same-surface" not in codes(report)
    added = next(t for t in report.by_tool if t.tool == "count_users")
    assert added.before is None and added.after is None and added.delta is None
    assert report.context_tokens.delta == 60
    removed = diff(run(tools=head_tools), run())
    assert codes(removed)["diff/tool-removed"] == "info"


def test_json_shape_is_whichtool_diff_2() -> None:
    data = json.loads(dump_diff_json(diff(run(), run(swap("find", "list_users", 6)))))
    assert data["schemaVersion"] == "whichtool.diff/2"
    assert set(data) == {
        "schemaVersion",
        "base",
        "head",
        "comparable",
        "incomparable",
        "accuracy",
        "overTrigger",
        "multiCall",
        "contextTokens",
        "byTool",
        "newConfusions",
        "resolvedConfusions",
        "diagnostics",
        "ok",
        "pairedUnit",  # additive: which test gated
    }
    assert data["pairedUnit"] == "trial"
    assert "byTask" in data["accuracy"]  # additive: the task-level comparison
    assert set(data["accuracy"]["paired"]) == {
        "matched",
        "improved",
        "regressed",
        "excluded",
        "pValue",
        "distinguishable",
    }
    assert data["newConfusions"][0]["tools"] == ["list_users", "search_users"]
    assert data["base"] == {
        "source": "base.json",
        "provider": "mock",
        "model": "scripted",
        "surfaceHash": data["head"]["surfaceHash"],
        "repeat": REPEAT,
    }
