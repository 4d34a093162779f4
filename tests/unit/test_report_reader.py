"""The strict run reader: a good report reads back, and every broken invariant is named."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.run_report_factory import demo_run
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.reader import (
    InconsistentRunError,
    load_run_report,
    parse_run_report,
)

Mutation = Callable[[dict[str, Any]], None]


def _trial(data: dict[str, Any], task: str, index: int) -> dict[str, Any]:
    return next(t for t in data["trials"] if t["taskId"] == task and t["trialIndex"] == index)


def test_a_consistent_report_reads_back() -> None:
    report = parse_run_report(demo_run(min_accuracy=0.9), "run.json")
    assert report.metrics.accuracy.numerator == 5
    assert report.ok is False
    assert len(report.trials) == 15


def _set(path: str, value: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> None:
        node: Any = data
        *parents, last = path.split(".")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value

    return apply


def _wrong_verdict(data: dict[str, Any]) -> None:
    _trial(data, "find-bob", 0)["verdict"] = "correct"


def _call_count(data: dict[str, Any]) -> None:
    _trial(data, "get-42", 1)["callCount"] = 1


def _additional_flag(data: dict[str, Any]) -> None:
    _trial(data, "get-42", 1)["unexpectedAdditionalCalls"] = False


def _projection(data: dict[str, Any]) -> None:
    _trial(data, "find-bob", 0)["pick"] = "search_users"


def _error_with_text(data: dict[str, Any]) -> None:
    _trial(data, "how-many", 2)["text"] = "partial"


def _order(data: dict[str, Any]) -> None:
    trial = _trial(data, "list-all", 0)
    trial["order"] = [*trial["order"][:-1], trial["order"][0]]


def _position(data: dict[str, Any]) -> None:
    trial = _trial(data, "list-all", 0)
    trial["expectedPosition"] = (trial["expectedPosition"] + 1) % 4


def _duplicate_trial(data: dict[str, Any]) -> None:
    data["trials"].append(copy.deepcopy(data["trials"][0]))


def _trial_index(data: dict[str, Any]) -> None:
    _trial(data, "list-all", 0)["trialIndex"] = 7


def _duplicate_task(data: dict[str, Any]) -> None:
    data["tasks"]["list"][1]["id"] = data["tasks"]["list"][0]["id"]


def _cost_part(data: dict[str, Any]) -> None:
    data["contextCost"]["byTool"]["get_user"]["envelope"] += 1


def _cost_total(data: dict[str, Any]) -> None:
    data["contextCost"]["total"] += 1


def _cost_tools(data: dict[str, Any]) -> None:
    data["contextCost"]["byTool"]["extra_tool"] = {
        "total": 0,
        "name": 0,
        "description": 0,
        "schema": 0,
        "envelope": 0,
    }


def _metrics(data: dict[str, Any]) -> None:
    data["metrics"]["confusionMatrix"]["(none)"]["(none)"] += 1


def _pair_count(data: dict[str, Any]) -> None:
    data["metrics"]["confusionPairs"][0]["swaps"] = 4


def _threshold(data: dict[str, Any]) -> None:
    data["thresholds"][0]["ok"] = True


def _execution(data: dict[str, Any]) -> None:
    data["execution"]["planned"] = 16


def _execution_ok(data: dict[str, Any]) -> None:
    data["execution"]["maxErrorRate"] = 0.01


def _headline_ok(data: dict[str, Any]) -> None:
    data["ok"] = True


def _unknown_task(data: dict[str, Any]) -> None:
    _trial(data, "list-all", 0)["taskId"] = "ghost"


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (_set("metrics.accuracy.value", 0.5), "proportion-value"),
        (_set("metrics.accuracy.ci95", [0.8, 0.2]), "proportion-interval"),
        (_set("metrics.abstention.ci95", [0.0, 1.5]), "proportion-interval"),
        (_wrong_verdict, "verdict-mismatch"),
        (_call_count, "call-count"),
        (_additional_flag, "additional-calls-flag"),
        (_projection, "trial-projection"),
        (_error_with_text, "error-trial"),
        (_order, "order-not-permutation"),
        (_position, "expected-position"),
        (_duplicate_trial, "duplicate-trial"),
        (_trial_index, "trial-index"),
        (_duplicate_task, "duplicate-task"),
        (_set("tasks.distractors", 2), "distractor-count"),
        (_cost_part, "context-cost-sum"),
        (_cost_total, "context-cost-sum"),
        (_cost_tools, "context-cost-tools"),
        (_metrics, "metrics-mismatch"),
        (_pair_count, "metrics-mismatch"),
        (_threshold, "thresholds-mismatch"),
        (_set("thresholdsOk", True), "thresholds-mismatch"),
        (_execution, "execution-mismatch"),
        (_execution_ok, "execution-mismatch"),
        (_headline_ok, "ok-mismatch"),
        (_set("reproducibility.temperature", 2.5), "limits"),
        (_set("reproducibility.repeat", 0), "limits"),
        (_set("reproducibility.concurrency", 65), "limits"),
        (_unknown_task, "unknown-task"),
    ],
)
def test_each_broken_invariant_is_refused_with_its_reason(mutate: Mutation, reason: str) -> None:
    data = demo_run(min_accuracy=0.9)
    mutate(data)
    with pytest.raises(InconsistentRunError) as caught:
        parse_run_report(data, "run.json")
    assert caught.value.reason == reason
    assert caught.value.code == "run/inconsistent"
    assert caught.value.exit_code == 2
    assert "run.json" in caught.value.message


@pytest.mark.parametrize(
    "path",
    [
        "surprise",
        "reproducibility.surprise",
        "metrics.byTool.0.surprise",
        "trials.3.surprise",
        "trials.0.calls.0.surprise",
        "execution.errorRate.surprise",
    ],
)
def test_every_layer_is_closed(path: str) -> None:
    data = demo_run()
    _set(path, 1)(data)
    with pytest.raises(WhichtoolError) as caught:
        parse_run_report(data, "run.json")
    assert caught.value.code == "run/invalid"
    assert "surprise" in caught.value.message


@pytest.mark.parametrize("version", ["whichtool.run/3", "whichtool.inspect/1", None, 2])
def test_other_schema_versions_are_unsupported(version: Any) -> None:
    data = demo_run()
    data["schemaVersion"] = version
    with pytest.raises(WhichtoolError) as caught:
        parse_run_report(data, "run.json")
    assert caught.value.code == "run/unsupported-schema"
    assert "whichtool.run/2" in (caught.value.hint or "")


def _as_run_v1(data: dict[str, Any]) -> dict[str, Any]:
    legacy = copy.deepcopy(data)
    legacy["schemaVersion"] = "whichtool.run/1"
    del legacy["reproducibility"]["requestFingerprint"]
    for trial in legacy["trials"]:
        del trial["calls"]
        del trial["unexpectedAdditionalCalls"]
        trial["verdict"] = "correct"  # recomputed on upgrade
    del legacy["execution"]
    legacy["metrics"]["accuracy"] = {"numerator": 0, "denominator": 0, "value": None, "ci95": None}
    return legacy


def test_legacy_run_v1_is_upgraded_and_recomputed() -> None:
    current = demo_run(min_accuracy=0.9)
    report = parse_run_report(_as_run_v1(current), "old.json")
    assert report.schema_version == "whichtool.run/2"
    assert report.reproducibility.request_fingerprint is None
    assert report.metrics.accuracy.numerator == current["metrics"]["accuracy"]["numerator"]
    multi = next(t for t in report.trials if t.task_id == "get-42" and t.trial_index == 1)
    assert multi.verdict == "unexpected-additional-calls"
    assert [c.name for c in multi.calls] == ["get_user", None]
    assert report.execution.max_error_rate == 0.1
    assert report.execution.min_scored == 1
    assert report.ok is False


def test_files_read_from_disk(tmp_path: Path) -> None:
    good = tmp_path / "run.json"
    good.write_text(json.dumps(demo_run(), indent=2), encoding="utf-8")
    assert load_run_report(good).ok is True
    broken = tmp_path / "broken.json"
    broken.write_text('{"schemaVersion": ', encoding="utf-8")
    with pytest.raises(WhichtoolError) as caught:
        load_run_report(broken)
    assert caught.value.code == "run/invalid-json"
    with pytest.raises(WhichtoolError) as caught:
        load_run_report(tmp_path / "missing.json")
    assert caught.value.code == "run/not-found"
    edited = tmp_path / "edited.json"
    data = demo_run()
    data["ok"] = False
    edited.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InconsistentRunError) as inconsistent:
        load_run_report(edited)
    assert inconsistent.value.reason == "ok-mismatch"


def test_nan_is_not_a_proportion_value(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    text = json.dumps(demo_run()).replace('"value": 0.0', '"value": NaN', 1)
    assert "NaN" in text
    path.write_text(text, encoding="utf-8")
    with pytest.raises(WhichtoolError):
        load_run_report(path)


def test_the_position_method_label_is_not_a_figure() -> None:
    data = demo_run()
    data["metrics"]["position"]["method"] = "another writer's label"
    assert parse_run_report(data, "run.json").metrics.position.method == "another writer's label"


def test_a_bom_is_read_past_and_bad_bytes_are_named(tmp_path: Path) -> None:
    # The file's bytes go straight to the fast validator; what it cannot take is decoded by
    # the strict path, which drops a BOM and names the first byte that is not UTF-8.
    text = json.dumps(demo_run())
    with_bom = tmp_path / "bom.json"
    with_bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert load_run_report(with_bom).ok is True
    bad = tmp_path / "latin1.json"
    cut = text.index('"prompt"')
    bad.write_bytes(text[:cut].encode("utf-8") + b"\xe9" + text[cut:].encode("utf-8"))
    with pytest.raises(WhichtoolError) as caught:
        load_run_report(bad)
    assert caught.value.code == "run/invalid-json"
    assert f"is not UTF-8 text (byte {cut})" in caught.value.message
