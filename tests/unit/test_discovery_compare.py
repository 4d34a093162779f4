"""The paired, task-level comparison of deferred against upfront, checked by hand."""

from __future__ import annotations

from whichtool_tui.discovery.compare import compare_arms
from whichtool_tui.discovery.run_model import DeferredTrial
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import PlannedTrial, TaskSpec
from whichtool_tui.evaluation.report_model import Call, ScoredTrial
from whichtool_tui.evaluation.verdicts import score_trial

TOOLS = ("a", "b")
SCHEMAS = {"a": {"type": "object"}, "b": {"type": "object"}}


def _trial(task: str, expected: str | None, index: int, pick: str | None) -> ScoredTrial:
    planned = PlannedTrial(TaskSpec(task, f"prompt {task}", expected), index, index, TOOLS)
    calls = (Call(name=pick, arguments={}),) if pick else ()
    return score_trial(planned, TrialOutcome(calls=calls, text="" if pick else "no"), SCHEMAS)


def _step(task: str, index: int, found: bool) -> DeferredTrial:
    return DeferredTrial(
        task_id=task,
        trial_index=index,
        query_source="model",
        searched=True,
        query="q",
        search_calls=[],
        search_text="",
        retrieved=["a"] if found else [],
        expected_rank=1 if found else None,
        found=found,
        offered=found,
    )


def test_tasks_are_compared_by_their_accuracy_in_each_arm() -> None:
    # t1: deferred 0/2, upfront 2/2 (worse); t2: 1/2 vs 1/2 (same); t3: 2/2 vs 1/2 (better);
    # t4: 0/2 vs 2/2 (worse); the distractor is left out of the comparison.
    deferred = [
        _trial("t1", "a", 0, None), _trial("t1", "a", 1, "b"),
        _trial("t2", "a", 0, "a"), _trial("t2", "a", 1, None),
        _trial("t3", "b", 0, "b"), _trial("t3", "b", 1, "b"),
        _trial("t4", "b", 0, None), _trial("t4", "b", 1, None),
        _trial("d", None, 0, None),
    ]  # fmt: skip
    upfront = [
        _trial("t1", "a", 0, "a"), _trial("t1", "a", 1, "a"),
        _trial("t2", "a", 0, "a"), _trial("t2", "a", 1, "b"),
        _trial("t3", "b", 0, "b"), _trial("t3", "b", 1, "a"),
        _trial("t4", "b", 0, "b"), _trial("t4", "b", 1, "b"),
        _trial("d", None, 0, "a"),
    ]  # fmt: skip
    steps = [_step(t.task_id, t.trial_index, t.task_id != "t4") for t in deferred]
    result = compare_arms(deferred, upfront, steps)
    assert (result.improved, result.regressed, result.ties) == (1, 2, 1)
    # Sign flips of the changes -1, +1/2, -1 (sum -3/2): 4 of the 8 sums reach |3/2|.
    assert result.p_value == 0.5
    assert not result.distinguishable
    assert result.method.startswith("task-level paired (deferred - upfront), sign-flip")
    assert result.deferred_accuracy.numerator == 3 and result.deferred_accuracy.denominator == 8
    assert result.upfront_accuracy.numerator == 6
    # per-task differences: -1, 0, +0.5, -1 -> mean -0.375
    assert result.mean_difference == -0.375
    rows = {row.task_id: row for row in result.tasks}
    assert rows["t4"].found.numerator == 0 and rows["t1"].found.numerator == 2
    assert "d" not in rows
    low, high = result.ci95 or (0.0, 0.0)
    assert -1.0 <= low < -0.375 < high <= 1.0
