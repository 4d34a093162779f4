"""What one improve run may send, counted before anything is sent.

An improve run is many routing runs: the tuning tasks on the base surface (none with a base
run), the held-out tasks on the base surface, then the held-out tasks again for every
candidate. With a paid provider the trial cap (``--max-trials``) counts all of them and the tool
cap counts the tools every trial offers; the rewriter is the model, one candidate per tool that
may be rewritten, so the worst case is known up front: every tool (or every ``--tool``) gets one.
Offline providers (the keyword and embedding baselines, mock) cost nothing: no tool or trial
cap applies, and their rule-based candidates are counted as they come. Each single run stays
under the runner's absolute ceilings either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui import limits
from whichtool_tui.errors import TRIAL_LIMIT, WhichtoolError
from whichtool_tui.evaluation.plan import TaskSpec, check_tool_limit, select_tasks


@dataclass(frozen=True)
class ImproveBudget:
    """The trials of each run an improve loop makes, and the caps that apply to their sum."""

    provider: str
    paid: bool
    tools: int  # tools every trial offers the model
    tuning_trials: int  # the base surface on the tuning tasks (0: a base run supplies them)
    held_out_trials: int  # one held-out run: the base surface's, or one candidate's
    max_candidates: int | None  # one model rewrite per tool; None: rule-based, as they come
    max_trials: int | None  # the cap on the sum (None: offline, free)
    max_tools: int | None

    @property
    def total(self) -> int | None:
        """The most trials the loop can send (None when candidates are counted as they come)."""
        if self.max_candidates is None:
            return None
        return self.tuning_trials + self.held_out_trials * (1 + self.max_candidates)

    def parts(self) -> str:
        """The sum spelled out: ``tuning 70 + held-out base 70 + 12 candidates x 70``."""
        tuning = f"tuning {self.tuning_trials}" if self.tuning_trials else "tuning 0 (base run)"
        each = (
            f"{self.max_candidates} candidate(s) x {self.held_out_trials}"
            if self.max_candidates is not None
            else f"{self.held_out_trials} per rule-based candidate"
        )
        return f"{tuning} + held-out base {self.held_out_trials} + {each}"

    def line(self) -> str:
        """One line for stderr and the dry run: what will be sent and which cap it is under."""
        if not self.paid:
            return (
                f"improve: {self.provider} is offline: no trial or tool cap applies "
                f"({self.parts()})"
            )
        return (
            f"improve: at most {self.total} trials on {self.tools} tools ({self.parts()}), "
            f"within --max-trials {self.max_trials} and --max-tools {self.max_tools}"
        )


def run_trials(
    tasks: Sequence[TaskSpec], repeat: int, only: Sequence[str], skip: Sequence[str]
) -> int:
    """Trials one run of ``tasks`` plans (the run's own tag selection applies)."""
    return len(select_tasks(tasks, only, skip)) * repeat


def check_improve_budget(budget: ImproveBudget) -> None:
    """Refuse, before the review and before any request, a paid loop its caps cannot hold:
    the tool cap first, then the whole loop's trials, named with every part of the sum."""
    if not budget.paid or budget.max_trials is None or budget.max_tools is None:
        return
    check_tool_limit(budget.tools, budget.max_tools)
    total = budget.total
    if total is None or total <= budget.max_trials:
        return
    narrow = "name fewer tools (--tool), pass a saved --base-run, or lower --repeat"
    if total > limits.ABSOLUTE_MAX_TRIALS:
        hint = f"Raising --max-trials stops at {limits.ABSOLUTE_MAX_TRIALS}; {narrow}."
    else:
        hint = f"Raise the limit with --max-trials {total}, or {narrow}."
    raise WhichtoolError(
        TRIAL_LIMIT,
        f"improve can send {total} trials ({budget.parts()}), above the trial limit of "
        f"{budget.max_trials}",
        hint,
    )


@dataclass
class TrialLedger:
    """Trials sent so far, so the loop itself never passes the cap the plan was checked under."""

    cap: int | None
    sent: int = 0

    def spend(self, planned: int) -> None:
        """Count a run about to be sent; refuse it if it would pass the cap."""
        if self.cap is not None and self.sent + planned > self.cap:
            raise WhichtoolError(
                TRIAL_LIMIT,
                f"the next run's {planned} trials would pass the trial limit of {self.cap} "
                f"({self.sent} sent)",
                "Raise --max-trials, or narrow the loop with --tool.",
            )
        self.sent += planned
