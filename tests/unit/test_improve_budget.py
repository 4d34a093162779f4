"""The improve budget's arithmetic and the ledger that keeps a loop under its checked cap."""

from __future__ import annotations

import pytest

from whichtool_tui.errors import TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.improve.budget import ImproveBudget, TrialLedger, check_improve_budget


def _budget(**changes: object) -> ImproveBudget:
    values: dict[str, object] = {
        "provider": "openai",
        "paid": True,
        "tools": 12,
        "tuning_trials": 70,
        "held_out_trials": 70,
        "max_candidates": 12,
        "max_trials": 980,
        "max_tools": 12,
    }
    values.update(changes)
    return ImproveBudget(**values)  # type: ignore[arg-type]


def test_the_total_counts_every_candidates_held_out_run() -> None:
    budget = _budget()
    assert budget.total == 70 + 70 + 12 * 70
    assert budget.parts() == "tuning 70 + held-out base 70 + 12 candidate(s) x 70"
    check_improve_budget(budget)  # exactly at the cap: accepted
    assert _budget(tuning_trials=0).parts().startswith("tuning 0 (base run)")


def test_a_paid_budget_is_refused_tools_first_then_trials() -> None:
    with pytest.raises(WhichtoolError) as tools:
        check_improve_budget(_budget(max_tools=6, max_trials=50))
    assert tools.value.code == TOOL_LIMIT
    with pytest.raises(WhichtoolError) as trials:
        check_improve_budget(_budget(max_trials=979))
    assert trials.value.code == TRIAL_LIMIT and "--max-trials 980" in (trials.value.hint or "")
    with pytest.raises(WhichtoolError) as hard:
        check_improve_budget(_budget(max_candidates=20, max_trials=1000))
    assert "stops at 1000" in (hard.value.hint or "")


def test_an_offline_budget_has_no_cap_and_says_so() -> None:
    offline = _budget(
        provider="keyword", paid=False, max_candidates=None, max_trials=None, max_tools=None
    )
    check_improve_budget(offline)
    assert offline.total is None
    assert offline.line() == (
        "improve: keyword is offline: no trial or tool cap applies "
        "(tuning 70 + held-out base 70 + 70 per rule-based candidate)"
    )


def test_the_ledger_refuses_the_run_that_would_pass_the_cap() -> None:
    ledger = TrialLedger(100)
    ledger.spend(60)
    ledger.spend(40)
    with pytest.raises(WhichtoolError) as over:
        ledger.spend(1)
    assert over.value.code == TRIAL_LIMIT and ledger.sent == 100
    free = TrialLedger(None)
    free.spend(10_000)
    assert free.sent == 10_000
