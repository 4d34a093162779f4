"""The hand-counted ten-trial scenario: a scripted provider whose every trial has a known verdict
(the counts are checked in tests/unit/test_evaluation_scenario.py, the bytes against a golden)."""

from __future__ import annotations

import json

from tests.support.evaluation import make_inputs
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.events import RunEvent
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import dump_report_json
from whichtool_tui.evaluation.thresholds import ThresholdSettings
from whichtool_tui.providers.mock import MockProvider, MockStep

A, B, C = "read_file", "search_code", "list_dir"

TASKS = [
    TaskSpec("t1", "Show me README.md", A),
    TaskSpec("t2", "Open the config file", A),
    TaskSpec("t3", "Find uses of foo", B),
    TaskSpec("t4", "Where is bar defined", B),
    TaskSpec("t5", "What is in src", C),
    TaskSpec("t6", "Show the folder", C),
    TaskSpec("t7", "List the docs folder", C),
    TaskSpec("t8", "Tell me a joke", None),
    TaskSpec("t9", "What is 2+2", None),
    TaskSpec("t10", "Say hello", None),
]

SCRIPT = {
    "t1": MockStep.pick(A, {"path": "README.md"}),  # correct, valid arguments
    "t2": MockStep.pick(B, {"query": "config"}),  # wrong-tool (A expected, B chosen)
    "t3": MockStep.pick(B, {"limit": "ten"}),  # correct, missing query, wrong type
    "t4": MockStep.multi((B, {"query": "bar"}), C),  # unexpected-additional-calls
    "t5": MockStep.say("Which folder do you mean?"),  # abstained + clarification
    "t6": MockStep.pick("open_folder"),  # phantom (not on the surface)
    "t7": MockStep.fail("upstream exploded", hint="try later"),  # error
    "t8": MockStep.say("Why did the tool cross the road?"),  # correct-abstention
    "t9": MockStep.pick(A, {"path": "/tmp/x"}),  # over-triggered
    "t10": MockStep.say("hello"),  # correct-abstention
}


async def run_scenario(events: list[RunEvent] | None = None) -> dict[str, object]:
    """The scenario run through the engine; its JSON report as a dict (events collected)."""
    provider = MockProvider(by_task=SCRIPT)
    report = await run_evaluation(
        make_inputs(TASKS),
        RunOptions(
            repeat=1,
            permute=False,
            max_trials=50,
            thresholds=ThresholdSettings(
                min_accuracy=0.5, max_over_trigger=0.5, max_context_tokens=100
            ),
        ),
        provider,
        sink=events.append if events is not None else lambda _e: None,
    )
    data: dict[str, object] = json.loads(dump_report_json(report))
    return data
