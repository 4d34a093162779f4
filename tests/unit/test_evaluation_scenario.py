"""A hand-computed ten-trial run: every verdict, rate, count and matrix cell is checked."""

from __future__ import annotations

import json

from tests.support.scenario import A, B, C, run_scenario
from whichtool_tui.evaluation.events import RunEvent, RunFinished, RunPlanned, TrialFinished
from whichtool_tui.evaluation.report_model import dump_report_json, parse_report_json


async def test_every_verdict_and_rate_matches_hand_count() -> None:
    events: list[RunEvent] = []
    report = await run_scenario(events)
    verdicts = {t["taskId"]: t["verdict"] for t in report["trials"]}  # type: ignore[index,union-attr]
    assert verdicts == {
        "t1": "correct",
        "t2": "wrong-tool",
        "t3": "correct",
        "t4": "unexpected-additional-calls",
        "t5": "abstained",
        "t6": "phantom",
        "t7": "error",
        "t8": "correct-abstention",
        "t9": "over-triggered",
        "t10": "correct-abstention",
    }
    metrics = report["metrics"]
    assert isinstance(metrics, dict)
    rates = {
        name: (metrics[name]["numerator"], metrics[name]["denominator"])
        for name in (
            "accuracy",
            "abstention",
            "overTrigger",
            "phantom",
            "multiCallRate",
            "clarification",
        )
    }
    assert rates == {
        "accuracy": (2, 6),
        "abstention": (1, 6),
        "overTrigger": (1, 3),
        "phantom": (1, 6),
        "multiCallRate": (1, 9),
        "clarification": (1, 9),
    }
    assert metrics["trials"] == {"planned": 10, "scored": 9, "errored": 1}
    assert metrics["confusionMatrix"] == {
        "(none)": {"(none)": 2, A: 1},
        A: {A: 1, B: 1},
        B: {B: 1, "(multiple calls)": 1},
        C: {"(none)": 1, "(phantom)": 1},
    }
    [pair] = metrics["confusionPairs"]
    rate = pair.pop("rate")
    assert pair == {
        "tools": [A, B],
        "swaps": 1,
        "aChosenWhenBExpected": 0,
        "bChosenWhenAExpected": 1,
    }
    # upstream's shape: a proportion (1 swap over the 4 trials that expected A or B)
    assert (rate["numerator"], rate["denominator"], rate["value"]) == (1, 4, 0.25)
    assert rate["ci95"][0] < 0.25 < rate["ci95"][1]
    by_tool = {row["tool"]: row for row in metrics["byTool"]}
    assert (by_tool[A]["accuracy"]["numerator"], by_tool[A]["accuracy"]["denominator"]) == (1, 2)
    assert by_tool[A]["confusedWith"] == [{"tool": B, "count": 1}]
    assert by_tool[A]["argumentAccuracy"]["numerator"] == 1
    assert by_tool[A]["argumentAccuracy"]["denominator"] == 1
    assert (
        by_tool[B]["argumentAccuracy"]["numerator"],
        by_tool[B]["argumentAccuracy"]["denominator"],
    ) == (0, 1)
    assert by_tool[B]["hallucinatedParameters"] == 0
    assert (by_tool[C]["abstained"], by_tool[C]["phantom"], by_tool[C]["errors"]) == (1, 1, 1)
    assert by_tool[C]["accuracy"]["denominator"] == 2
    assert [row["tool"] for row in metrics["byTool"]] == [C, A, B]  # 0/2, then 1/2 by name
    trials = {t["taskId"]: t for t in report["trials"]}  # type: ignore[union-attr]
    assert trials["t3"]["argumentCheck"] == {
        "missingRequired": ["query"],
        "hallucinated": [],
        "wrongType": [{"name": "limit", "expected": "integer", "got": "string"}],
        "parsed": True,
        "vacuous": False,
    }
    assert trials["t5"]["askedForClarification"] is True
    assert trials["t7"]["error"] == {
        "message": "upstream exploded",
        "retryable": False,
        "hint": "try later",
    }
    assert trials["t7"]["calls"] == [] and trials["t7"]["latencyMs"] == 0
    assert "usage" not in trials["t7"] and "argumentCheck" not in trials["t7"]
    assert trials["t4"]["unexpectedAdditionalCalls"] is True and trials["t4"]["callCount"] == 2
    position = metrics["position"]
    assert [
        (b["position"], b["accuracy"]["numerator"], b["accuracy"]["denominator"])
        for b in position["buckets"]
    ] == [
        (0, 1, 2),
        (1, 1, 2),
        (2, 0, 2),
    ]
    assert position["spread"] is None and position["comparableTasks"] == 0
    execution = report["execution"]
    assert isinstance(execution, dict)
    assert (execution["ok"], execution["errored"], execution["errorRate"]["value"]) == (
        True,
        1,
        0.1,
    )
    thresholds = {t["name"]: t for t in report["thresholds"]}  # type: ignore[union-attr]
    assert thresholds["minAccuracy"]["ok"] is False
    assert thresholds["minAccuracy"]["actual"] == 2 / 6
    assert thresholds["maxOverTrigger"]["ok"] is True
    assert thresholds["maxContextTokens"] == {
        "name": "maxContextTokens",
        "limit": 100,
        "actual": 30,
        "ok": True,
    }
    codes = [d["code"] for d in report["diagnostics"]]  # type: ignore[union-attr]
    assert codes[0] == "threshold/minAccuracy"
    assert "run/errored-trials" in codes and "run/confusion-pair" in codes
    assert report["thresholdsOk"] is False and report["ok"] is False
    assert isinstance(events[0], RunPlanned) and isinstance(events[-1], RunFinished)
    finished = [e for e in events if isinstance(e, TrialFinished)]
    assert [e.done for e in finished] == list(range(1, 11))


async def test_report_reads_back_strictly() -> None:
    report = await run_scenario()
    text = json.dumps(report, indent=2) + "\n"
    parsed = parse_report_json(text)
    assert dump_report_json(parsed) == text
    report["surprise"] = 1
    try:
        parse_report_json(json.dumps(report))
    except ValueError as exc:
        assert "surprise" in str(exc)
    else:
        raise AssertionError("an unknown top-level key must be refused")
