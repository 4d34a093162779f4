"""The run report as JUnit XML: one testcase per selected task, plus thresholds, run health and
findings. A task's ``time`` is the provider latency of its trials; the document's is the run's."""

from __future__ import annotations

from collections import Counter, defaultdict

from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial
from whichtool_tui.reports.junit_xml import JunitCase, JunitSuite, finding_cases, render_junit

_PASSING = frozenset({"correct", "correct-abstention"})


def _task_case(task_id: str, expected: str | None, trials: list[ScoredTrial]) -> JunitCase:
    classname = expected if expected is not None else "(distractor)"
    seconds = sum(t.latency_ms for t in trials) / 1000
    scored = [t for t in trials if t.verdict != "error"]
    if not scored:
        return JunitCase(
            task_id,
            classname,
            "error",
            "errored",
            f"all {len(trials)} trials errored",
            trials[0].error.message if trials and trials[0].error else "",
            seconds,
        )
    passed = sum(1 for t in scored if t.verdict in _PASSING)
    if passed * 2 > len(scored):
        return JunitCase(task_id, classname, seconds=seconds)
    verdicts = Counter(t.verdict for t in scored if t.verdict not in _PASSING)
    if expected is None:
        kind = "over-trigger"
    elif verdicts.most_common(1)[0][0] == "unexpected-additional-calls":
        kind = "multiple-calls"
    else:
        kind = "wrong-tool"
    picks = Counter(t.pick or "(none)" for t in scored)
    body = "picks: " + ", ".join(f"{name} x{count}" for name, count in picks.most_common())
    message = (
        f"{passed}/{len(scored)} scored trials passed ("
        + ", ".join(f"{verdict} x{count}" for verdict, count in verdicts.most_common())
        + ")"
    )
    return JunitCase(task_id, classname, "failure", kind, message, body, seconds)


def _properties(report: RunReport) -> list[tuple[str, str]]:
    repro = report.reproducibility
    metrics = report.metrics

    def value(number: float | None) -> str:
        return "" if number is None else f"{number:.6g}"

    statistics: list[tuple[str, str]] = []
    if report.statistics is not None:
        rates = report.statistics.rates
        for name, rate in (
            ("accuracy", rates.accuracy),
            ("abstention", rates.abstention),
            ("overTrigger", rates.over_trigger),
            ("phantom", rates.phantom),
            ("multiCallRate", rates.multi_call_rate),
        ):
            low, high = rate.ci95 or (None, None)
            statistics += [
                (f"{name}.taskCi95Low", value(low)),
                (f"{name}.taskCi95High", value(high)),
                (f"{name}.tasks", str(rate.tasks)),
            ]
        consistency = report.statistics.consistency
        statistics += [(f"passHat{row.k}", value(row.value)) for row in consistency.pass_hat_k]
        statistics.append(("unchangedShare", value(consistency.unchanged_share)))
        position = report.statistics.position
        statistics += [
            ("firstPositionAdvantage", value(position.advantage)),
            ("firstPositionPValue", value(position.p_value)),
        ]
    return [
        ("provider", repro.provider),
        ("model", repro.model),
        ("surfaceHash", repro.surface_hash),
        ("repeat", str(repro.repeat)),
        ("seed", str(repro.seed)),
        ("temperature", f"{repro.temperature:g}"),
        ("permuted", str(repro.permuted).lower()),
        ("accuracy", value(metrics.accuracy.value)),
        ("overTrigger", value(metrics.over_trigger.value)),
        ("multiCallRate", value(metrics.multi_call_rate.value)),
        ("scored", str(report.execution.scored)),
        ("planned", str(report.execution.planned)),
        ("contextTokens", str(report.context_cost.total)),
        *statistics,
    ]


def render_run_junit(report: RunReport) -> str:
    """JUnit XML for CI dashboards; a task passes when most of its scored trials are right."""
    by_task: dict[str, list[ScoredTrial]] = defaultdict(list)
    for trial in report.trials:
        by_task[trial.task_id].append(trial)
    selection = JunitSuite("whichtool.tool-selection", _properties(report))
    for task in report.tasks.list:
        selection.cases.append(_task_case(task.id, task.expected, by_task.get(task.id, [])))
    thresholds = JunitSuite("whichtool.thresholds")
    for threshold in report.thresholds:
        if threshold.ok:
            thresholds.cases.append(JunitCase(threshold.name, "threshold"))
        else:
            thresholds.cases.append(
                JunitCase(
                    threshold.name,
                    "threshold",
                    "failure",
                    "threshold",
                    f"{threshold.name}: {threshold.actual:.3f} against a limit of "
                    f"{threshold.limit:g}",
                )
            )
    execution = report.execution
    health = JunitSuite("whichtool.execution")
    if execution.ok:
        health.cases.append(JunitCase("run health", "execution"))
    else:
        health.cases.append(
            JunitCase(
                "run health",
                "execution",
                "error",
                "invalid-run",
                f"invalid run: {execution.scored}/{execution.planned} scored, "
                f"{execution.errored} errored (max error rate {execution.max_error_rate:g}, "
                f"min scored {execution.min_scored})",
            )
        )
    suites = [selection, thresholds, health]
    # Threshold and execution failures already have their cases above; an error finding fails
    # here only when nothing above explains why the run is not ok.
    errors_fail = not report.ok and execution.ok and report.thresholds_ok
    listed = [
        d
        for d in report.diagnostics
        if d.severity != "error" or (errors_fail and not d.code.startswith("threshold/"))
    ]
    if listed:
        suites.append(
            JunitSuite("whichtool.diagnostics", cases=finding_cases(listed, errors_fail=True))
        )
    return render_junit(suites, "whichtool", report.duration_ms / 1000)
