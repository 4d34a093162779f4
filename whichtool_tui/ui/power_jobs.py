"""The App's power sizing: a run plan's simulated power, made off the UI thread.

Simulating diff's gate takes seconds of CPU for a session's first plan (and a fraction of a
second for each new repeat count), so the Run screen draws the rest of its plan at once and
asks the App for the power. One thread worker in an exclusive group sizes the inputs asked
for last: a newer ask cancels the older worker, whose simulation then stops at its next block
of draws. The result is posted as a message and kept in ``session.power_plans`` per inputs;
the visible section redraws from the session, so a plan for inputs the form has left since is
kept for them and simply not shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import get_current_worker

from whichtool_tui.errors import CancelledError, WhichtoolError
from whichtool_tui.ui.messages import PowerSized
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session_updates import SessionApp

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import PowerInputs, PowerPlan

POWER_PLANS_KEPT = 32  # plans a session remembers (the oldest goes first)


class PowerJobs(SessionApp):
    """Size run plans' power in a thread; JobsApp adds the other workers."""

    _sizing: PowerInputs | None = None  # the inputs the power worker is simulating

    def power_plan_for(self, inputs: PowerInputs) -> PowerPlan | WhichtoolError | None:
        """The plan for ``inputs`` when it was sized already; else None, and it is being sized
        (started now unless these inputs are the ones being sized)."""
        known = self.session.power_plans.get(inputs)
        if known is None and inputs != self._sizing:
            self._sizing = inputs
            self.size_power(inputs)
        return known

    @work(thread=True, exclusive=True, group="power", exit_on_error=False, description="power")
    def size_power(self, inputs: PowerInputs) -> None:
        """Simulate the plan, then hand it to the App (returns once the App holds it, so a
        finished power worker means the screen shows its plan)."""
        from whichtool_tui.usecases.run import sized_power

        worker = get_current_worker()
        plan: PowerPlan | WhichtoolError
        try:
            plan = sized_power(inputs, stop=lambda: worker.is_cancelled)
        except CancelledError:
            return  # a newer plan (or quitting) took over: nothing to show
        except WhichtoolError as error:
            plan = error
        except Exception as error:  # said on the plan's power line, never a traceback
            plan = WhichtoolError("ui/power-failed", f"{type(error).__name__}: {error}")
        # Textual's typing of call_from_thread cannot take an async callback returning None.
        hand_over: Any = self.apply  # awaited there: it returns once the App holds the plan
        self.call_from_thread(hand_over, PowerSized(inputs, plan))

    def on_power_sized(self, message: PowerSized) -> None:
        """The plan joins the session's; the visible section redraws if it shows one."""
        plans = self.session.power_plans
        plans[message.inputs] = message.plan
        while len(plans) > POWER_PLANS_KEPT:
            del plans[next(iter(plans))]
        if self._sizing == message.inputs:
            self._sizing = None
        screen = self.screen
        if isinstance(screen, SectionScreen):
            screen.power_sized()
        message.applied.set()
