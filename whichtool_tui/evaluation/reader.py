"""Strict re-reading of a saved run: closed layers, then every invariant of the run format.

``report`` and ``diff`` trust nothing in a file: verdicts, metrics, thresholds, execution and
``ok`` are recomputed from the trials with the same pure functions the run used, and the first
disagreement is refused with a named reason. Legacy ``whichtool.run/1`` files are upgraded.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from whichtool_tui import limits
from whichtool_tui.bounded_read import decode_text, parse_json_text, read_input_bytes
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.metrics import compute_metrics
from whichtool_tui.evaluation.report_model import RUN_SCHEMA_VERSION, RunReport, ScoredTrial
from whichtool_tui.evaluation.stats import Proportion
from whichtool_tui.evaluation.task_stats import (
    LEGACY_POSITION_TEST,
    compute_statistics,
    legacy_position,
)
from whichtool_tui.evaluation.thresholds import (
    ThresholdSettings,
    evaluate_execution,
    evaluate_thresholds,
)
from whichtool_tui.evaluation.verdicts import judge
from whichtool_tui.gc_phases import gc_paused
from whichtool_tui.redact import redact_paths

LEGACY_RUN_SCHEMA_VERSION = "whichtool.run/1"
MAX_TRIALS = 100_000
MAX_TASKS = 100_000
MAX_REPORT_BYTES = 1 << 30
_TOLERANCE = 1e-12


class InconsistentRunError(WhichtoolError):
    """A run file that parses but breaks an invariant; ``reason`` names which one."""

    def __init__(self, source: str, reason: str, detail: str) -> None:
        super().__init__(
            "run/inconsistent",
            f"{source} is not a consistent run report ({reason}): {detail}",
            "The file was edited or produced by a broken writer; re-run to get a fresh report.",
        )
        self.reason = reason


def _where(trial: ScoredTrial) -> str:
    return f"trial {trial.task_id}#{trial.trial_index}"


def _check_proportion(source: str, name: str, rate: Proportion) -> None:
    if rate.denominator < 0 or rate.numerator < 0 or rate.numerator > rate.denominator:
        raise InconsistentRunError(
            source, "proportion-counts", f"{name} is {rate.numerator}/{rate.denominator}"
        )
    if rate.denominator == 0:
        if rate.value is not None or rate.ci95 is not None:
            raise InconsistentRunError(
                source, "proportion-value", f"{name} has no trials but a value or interval"
            )
        return
    expected = rate.numerator / rate.denominator
    if rate.value is None or not abs(rate.value - expected) <= _TOLERANCE:
        raise InconsistentRunError(
            source,
            "proportion-value",
            f"{name} value {rate.value} is not {rate.numerator}/{rate.denominator}",
        )
    if rate.ci95 is None:
        raise InconsistentRunError(source, "proportion-interval", f"{name} has no interval")
    low, high = rate.ci95
    if not (0.0 <= low <= high <= 1.0):
        raise InconsistentRunError(
            source,
            "proportion-interval",
            f"{name} interval [{low}, {high}] is not ordered in [0,1]",
        )


def _proportions(report: RunReport) -> Iterable[tuple[str, Proportion]]:
    metrics = report.metrics
    yield "metrics.accuracy", metrics.accuracy
    yield "metrics.abstention", metrics.abstention
    yield "metrics.overTrigger", metrics.over_trigger
    yield "metrics.phantom", metrics.phantom
    yield "metrics.multiCallRate", metrics.multi_call_rate
    yield "metrics.clarification", metrics.clarification
    yield "execution.errorRate", report.execution.error_rate
    for tool in metrics.by_tool:
        yield f"metrics.byTool[{tool.tool}].accuracy", tool.accuracy
        yield f"metrics.byTool[{tool.tool}].argumentAccuracy", tool.argument_accuracy
    for bucket in metrics.position.buckets:
        yield f"metrics.position.buckets[{bucket.position}]", bucket.accuracy


def _check_limits(source: str, report: RunReport) -> None:
    repro = report.reproducibility
    problems = []
    low, high = limits.MIN_TEMPERATURE, limits.MAX_TEMPERATURE
    if not (low <= repro.temperature <= high) or not math.isfinite(repro.temperature):
        problems.append(f"temperature {repro.temperature} is outside {low}-{high}")
    if not limits.REPEAT.contains(repro.repeat):
        problems.append(f"repeat {repro.repeat} is outside {limits.REPEAT.span}")
    if not limits.CONCURRENCY.contains(repro.concurrency):
        problems.append(f"concurrency {repro.concurrency} is outside {limits.CONCURRENCY.span}")
    if len(report.trials) > MAX_TRIALS:
        problems.append(f"{len(report.trials)} trials exceed {MAX_TRIALS}")
    if len(report.tasks.list) > MAX_TASKS:
        problems.append(f"{len(report.tasks.list)} tasks exceed {MAX_TASKS}")
    if problems:
        raise InconsistentRunError(source, "limits", "; ".join(problems))


def _check_tasks(source: str, report: RunReport) -> dict[str, str | None]:
    tasks = report.tasks
    expected_by_id: dict[str, str | None] = {}
    for task in tasks.list:
        if task.id in expected_by_id:
            raise InconsistentRunError(source, "duplicate-task", f"task id {task.id!r} repeats")
        expected_by_id[task.id] = task.expected
    distractors = sum(1 for task in tasks.list if task.expected is None)
    if distractors != tasks.distractors:
        raise InconsistentRunError(
            source,
            "distractor-count",
            f"tasks.distractors is {tasks.distractors} but the list has {distractors}",
        )
    if tasks.selected != len(tasks.list):
        raise InconsistentRunError(
            source,
            "task-count",
            f"tasks.selected is {tasks.selected} but the list has {len(tasks.list)}",
        )
    return expected_by_id


def _check_context_cost(source: str, report: RunReport, tools: list[str]) -> None:
    cost = report.context_cost
    for name, tokens in cost.by_tool.items():
        parts = tokens.name + tokens.description + tokens.schema_ + tokens.envelope
        if parts != tokens.total:
            raise InconsistentRunError(
                source,
                "context-cost-sum",
                f"contextCost.byTool[{name}] total {tokens.total} is not the sum of its parts "
                f"({parts})",
            )
    total = sum(tokens.total for tokens in cost.by_tool.values())
    if total != cost.total:
        raise InconsistentRunError(
            source, "context-cost-sum", f"contextCost.total {cost.total} is not {total}"
        )
    if sorted(cost.by_tool) != tools:
        raise InconsistentRunError(
            source, "context-cost-tools", "contextCost.byTool names differ from metrics.byTool"
        )


def _check_trial(
    source: str, trial: ScoredTrial, surface: set[str], expected_by_id: dict[str, str | None]
) -> None:
    if trial.task_id not in expected_by_id:
        raise InconsistentRunError(
            source, "unknown-task", f"{_where(trial)} names no selected task"
        )
    if trial.expected != expected_by_id[trial.task_id]:
        raise InconsistentRunError(
            source, "expected-mismatch", f"{_where(trial)} expects a different tool than its task"
        )
    calls = trial.calls
    if len(calls) > limits.MAX_CALLS_PER_TRIAL:
        raise InconsistentRunError(source, "limits", f"{_where(trial)} has more than 1000 calls")
    if trial.call_count != len(calls):
        raise InconsistentRunError(
            source,
            "call-count",
            f"{_where(trial)} callCount {trial.call_count} != {len(calls)} calls",
        )
    if trial.unexpected_additional_calls != (len(calls) > 1):
        raise InconsistentRunError(
            source, "additional-calls-flag", f"{_where(trial)} unexpectedAdditionalCalls is wrong"
        )
    first = calls[0] if calls else None
    projection = (first.name, first.arguments, first.raw_arguments) if first else (None, None, None)
    if (trial.pick, trial.arguments, trial.raw_arguments) != projection:
        raise InconsistentRunError(
            source, "trial-projection", f"{_where(trial)} pick/arguments are not its first call"
        )
    errored = trial.error is not None
    if errored != (trial.verdict == "error"):
        raise InconsistentRunError(
            source,
            "error-trial",
            f"{_where(trial)} has verdict {trial.verdict} but error is {errored}",
        )
    if errored and (
        calls
        or trial.text
        or trial.latency_ms != 0
        or trial.usage is not None
        or trial.argument_check is not None
        or trial.asked_for_clarification
    ):
        raise InconsistentRunError(
            source,
            "error-trial",
            f"{_where(trial)} errored but records calls, text, latency or usage",
        )
    verdict = judge(trial.expected, calls, errored, surface)
    if verdict != trial.verdict:
        raise InconsistentRunError(
            source,
            "verdict-mismatch",
            f"{_where(trial)} says {trial.verdict} but its calls give {verdict}",
        )
    if len(trial.order) != len(surface) or set(trial.order) != surface:
        raise InconsistentRunError(
            source,
            "order-not-permutation",
            f"{_where(trial)} order is not a permutation of the tools",
        )
    position = trial.order.index(trial.expected) if trial.expected in surface else -1
    if position != trial.expected_position:
        raise InconsistentRunError(
            source,
            "expected-position",
            f"{_where(trial)} expectedPosition {trial.expected_position} should be {position}",
        )


def _same(left: Any, right: Any) -> bool:
    """Structural equality where floats may differ by rounding noise only."""
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(_same(left[k], right[k]) for k in left)
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(
            _same(a, b) for a, b in zip(left, right, strict=True)
        )
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return abs(left - right) <= _TOLERANCE * max(1.0, abs(left), abs(right))
    return bool(left == right)


def _first_difference(left: Any, right: Any, path: str) -> str:
    if isinstance(left, dict) and isinstance(right, dict):
        if left.keys() != right.keys():
            return f"{path} keys differ"
        for key in left:
            if not _same(left[key], right[key]):
                return _first_difference(left[key], right[key], f"{path}.{key}")
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            if not _same(a, b):
                return _first_difference(a, b, f"{path}[{index}]")
    return f"{path} is {json.dumps(left)[:80]}, recomputed {json.dumps(right)[:80]}"


def _check_recomputed(source: str, report: RunReport, tools: list[str]) -> None:
    trials = report.trials
    planned = report.tasks.selected * report.reproducibility.repeat
    if report.execution.planned != planned:
        raise InconsistentRunError(
            source,
            "execution-mismatch",
            f"execution.planned {report.execution.planned} is not {report.tasks.selected} tasks "
            f"x {report.reproducibility.repeat} repeats",
        )
    token_totals = {name: cost.total for name, cost in report.context_cost.by_tool.items()}
    metrics = compute_metrics(trials, tools, token_totals, planned)
    stored = report.metrics.model_dump(mode="json", by_alias=True)
    fresh = metrics.model_dump(mode="json", by_alias=True)
    # The method is a label, not a figure: other writers may name the same computation otherwise.
    fresh["position"]["method"] = stored["position"]["method"]
    if not _same(stored, fresh):
        raise InconsistentRunError(
            source, "metrics-mismatch", _first_difference(stored, fresh, "metrics")
        )
    limits: dict[str, float] = {t.name: t.limit for t in report.thresholds}
    if len(limits) != len(report.thresholds):
        raise InconsistentRunError(source, "thresholds-mismatch", "a threshold repeats")
    settings = ThresholdSettings(
        min_accuracy=limits.get("minAccuracy"),
        max_over_trigger=limits.get("maxOverTrigger"),
        max_context_tokens=(
            int(limits["maxContextTokens"]) if "maxContextTokens" in limits else None
        ),
        max_error_rate=report.execution.max_error_rate,
        min_scored=report.execution.min_scored,
    )
    thresholds, _ = evaluate_thresholds(metrics, report.context_cost.total, settings)
    fresh_thresholds = {t.name: (t.actual, t.ok) for t in thresholds}
    for threshold in report.thresholds:
        actual, ok = fresh_thresholds[threshold.name]
        if not _same(threshold.actual, actual) or threshold.ok is not ok:
            raise InconsistentRunError(
                source,
                "thresholds-mismatch",
                f"threshold {threshold.name} says {threshold.actual} ok={threshold.ok}, "
                f"recomputed {actual} ok={ok}",
            )
    thresholds_ok = all(t.ok for t in report.thresholds)
    if report.thresholds_ok is not thresholds_ok:
        raise InconsistentRunError(source, "thresholds-mismatch", "thresholdsOk is wrong")
    execution, _ = evaluate_execution(trials, planned, settings)
    stored_execution = report.execution.model_dump(mode="json", by_alias=True)
    fresh_execution = execution.model_dump(mode="json", by_alias=True)
    if not _same(stored_execution, fresh_execution):
        raise InconsistentRunError(
            source,
            "execution-mismatch",
            _first_difference(stored_execution, fresh_execution, "execution"),
        )
    has_error = any(d.severity == "error" for d in report.diagnostics)
    ok = execution.ok and thresholds_ok and not has_error
    if report.ok is not ok:
        raise InconsistentRunError(source, "ok-mismatch", f"ok is {report.ok}, recomputed {ok}")


def check_run_report(report: RunReport, source: str) -> None:
    """Raise InconsistentRunError at the first broken invariant of the run format."""
    _check_limits(source, report)
    for name, rate in _proportions(report):
        _check_proportion(source, name, rate)
    expected_by_id = _check_tasks(source, report)
    tools = sorted(tool.tool for tool in report.metrics.by_tool)
    if len(set(tools)) != len(tools):
        raise InconsistentRunError(source, "duplicate-tool", "metrics.byTool repeats a tool")
    _check_context_cost(source, report, tools)
    surface = set(tools)
    seen: set[tuple[str, int]] = set()
    repeat = report.reproducibility.repeat
    for trial in report.trials:
        key = (trial.task_id, trial.trial_index)
        if key in seen:
            raise InconsistentRunError(source, "duplicate-trial", f"{_where(trial)} repeats")
        seen.add(key)
        if not 0 <= trial.trial_index < repeat:
            raise InconsistentRunError(
                source, "trial-index", f"{_where(trial)} index is outside 0..{repeat - 1}"
            )
        _check_trial(source, trial, surface, expected_by_id)
    _check_recomputed(source, report, tools)


def with_statistics(report: RunReport, source: str) -> RunReport:
    """The report with its task-level statistics: checked when present, computed when absent.

    Upstream's files and ours from before these numbers existed carry no ``statistics`` block;
    it is a pure function of the trials, so it is filled in here rather than refused.
    """
    tools = sorted(tool.tool for tool in report.metrics.by_tool)
    fresh = compute_statistics(report.trials, tools, report.reproducibility.repeat)
    if report.statistics is None:
        return report.model_copy(update={"statistics": fresh})
    stored = report.statistics.model_dump(mode="json", by_alias=True)
    recomputed = fresh.model_dump(mode="json", by_alias=True)
    if stored["position"]["test"].startswith(LEGACY_POSITION_TEST):
        # Written before the position test permuted positions within task: check the figures
        # that file's writer computed, then carry the valid test instead.
        legacy = legacy_position(report.trials)
        recomputed["position"] = legacy.model_dump(mode="json", by_alias=True)
    # Method names are labels, not figures: another writer may word the same computation otherwise.
    recomputed["intervalMethod"] = stored["intervalMethod"]
    recomputed["position"]["test"] = stored["position"]["test"]
    if not _same(stored, recomputed):
        raise InconsistentRunError(
            source, "statistics-mismatch", _first_difference(stored, recomputed, "statistics")
        )
    if report.statistics.position.test.startswith(LEGACY_POSITION_TEST):
        return report.model_copy(update={"statistics": fresh})
    return report


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    location = ".".join(str(part) for part in first["loc"]) or "(top level)"
    if first["type"] == "extra_forbidden":
        return f"`{location}` is not a field of the run format"
    if first["type"] == "missing":
        return f"`{location}` is missing"
    return f"`{location}`: {first['msg']}"


def parse_run_report(data: Any, source: str) -> RunReport:
    """Validate parsed JSON as a run report (run/2, or run/1 upgraded) and every invariant."""
    if not isinstance(data, dict):
        raise WhichtoolError("run/invalid", f"{source} is not a run report: expected a JSON object")
    version = data.get("schemaVersion")
    if version == LEGACY_RUN_SCHEMA_VERSION:
        from whichtool_tui.evaluation.legacy_run import upgrade_run_v1

        data = upgrade_run_v1(data, source)
    elif version != RUN_SCHEMA_VERSION:
        shown = json.dumps(version)[:60] if version is not None else "missing"
        raise WhichtoolError(
            "run/unsupported-schema",
            f"{source}: unsupported schemaVersion {shown}",
            f"This build reads `{RUN_SCHEMA_VERSION}` and `{LEGACY_RUN_SCHEMA_VERSION}`.",
        )
    with gc_paused():
        try:
            report = RunReport.model_validate(data, by_alias=True)
        except ValidationError as error:
            raise WhichtoolError(
                "run/invalid",
                f"{source} is not a valid run report: {_describe(error)}",
                "Only files written by `run --format json` can be read.",
            ) from None
        check_run_report(report, source)
        return with_statistics(report, source)


def load_run_report(path: str | Path) -> RunReport:
    """Read, parse and strictly validate a saved run file."""
    return parse_run_report_text(read_run_bytes(path), redact_paths(str(path)))


def read_run_bytes(path: str | Path) -> bytes:
    """A saved run's bytes, read within the report size cap (unread, missing: one-line error)."""
    shown = redact_paths(str(path))
    data = read_input_bytes(
        path,
        prefix="run",
        what="run report",
        hint="Only files written by `run --format json` can be read.",
        max_bytes=MAX_REPORT_BYTES,
        shown=shown,
    )
    if len(data) > limits.MAX_INPUT_BYTES and _RUN_SCHEMA_MARK.search(data) is None:
        # Parsing a big JSON file that is no run report costs minutes and gigabytes before its
        # missing schemaVersion is seen: a run report names its schema, so look for it first.
        raise WhichtoolError(
            "run/not-a-run-report",
            f"{shown} is not a run report: its {len(data):,} bytes name no whichtool.run schema",
            "Only files written by `run --format json` can be read.",
        )
    return data


# How every run report (run/1 and run/2) names its schema, whatever its key order.
_RUN_SCHEMA_MARK = re.compile(rb'"schemaVersion"\s*:\s*"whichtool\.run/')


def run_report_proven(raw: bytes, source: str) -> bool:
    """Whether these bytes read as a valid run report, every invariant included (for a helper
    that proves a file while the caller reads another)."""
    try:
        parse_run_report_text(raw, source)
    except WhichtoolError:
        return False
    return True


def parse_proven_run_report(raw: bytes, source: str) -> RunReport:
    """The run report of bytes ``run_report_proven`` accepted: validated again as the model,
    its invariants and stored statistics not re-checked (statistics it lacks are computed)."""
    report = _validated_straight(raw)
    if report is None:  # not a clean run/2 file (run/1, NaN): read it the whole way
        return parse_run_report_text(raw, source)
    return report if report.statistics is not None else with_statistics(report, source)


def _validated_straight(raw: bytes) -> RunReport | None:
    """The model validated straight from the bytes, or None where that parser cannot be used
    (NaN or Infinity would read as numbers) or refuses them (a BOM, run/1, a broken file)."""
    if b"NaN" in raw or b"Infinity" in raw:
        return None
    with gc_paused():
        try:
            return RunReport.model_validate_json(raw, by_alias=True)
        except ValidationError:
            return None


def parse_run_report_text(text: str | bytes, source: str) -> RunReport:
    """Like parse_run_report, from JSON text or its UTF-8 bytes: a current file is validated
    straight from them (a big run is not decoded and encoded again first)."""
    # The fast path validates straight from text, but that parser reads NaN and Infinity as
    # numbers: a file that might hold them takes the strict path, which refuses them. Bytes
    # that are not UTF-8 (or start with a BOM) fail the fast path; the strict path decodes them
    # and names the first bad byte.
    report = _validated_straight(text.encode("utf-8") if isinstance(text, str) else text)
    if report is not None:
        with gc_paused():
            check_run_report(report, source)
            return with_statistics(report, source)
    # Not a clean run/2 file: parse it to say why, or to upgrade run/1.
    if isinstance(text, bytes):
        text = decode_text(text, source, prefix="run", what="run report")
    with gc_paused():
        data = parse_json_text(
            text,
            source,
            prefix="run",
            hint="Only files written by `run --format json` can be read.",
            strict=False,
        )
    return parse_run_report(data, source)
