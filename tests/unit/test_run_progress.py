"""Progress on stderr: plain `[i/N] task -> pick` lines off a terminal, a rich bar on one."""

from __future__ import annotations

import io

from tests.support.evaluation import make_inputs
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.events import RunPlanned, TrialFinished
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import PlannedTrial, TaskSpec
from whichtool_tui.evaluation.report_model import Call, ScoredTrial, TrialError
from whichtool_tui.evaluation.verdicts import score_trial
from whichtool_tui.headless.progress import RunProgress
from whichtool_tui.providers.mock import MockProvider, MockStep

TASKS = [
    TaskSpec("read", "read it", "read_file"),
    TaskSpec("none", "say hi", None),
    TaskSpec("fail", "break", "list_dir"),
]
SCRIPT = {"read": MockStep.pick("read_file"), "none": None, "fail": MockStep.fail("down")}
TOOLS = ("a", "b")
SCHEMAS = {"a": {"type": "object"}, "b": {"type": "object"}}


async def test_plain_lines_when_not_a_terminal() -> None:
    stream = io.StringIO()
    await run_evaluation(
        make_inputs(TASKS),
        RunOptions(repeat=1, concurrency=1),
        MockProvider(by_task=SCRIPT),
        sink=RunProgress(stream),
    )
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("whichtool-tui: running 3 trials against mock/mock-1;")
    assert lines[0].endswith("Output and reasoning are additional.")
    assert lines[1:] == [
        "  [1/3] read -> read_file",
        "  [2/3] none -> (none)",
        "  [3/3] fail -> error",
    ]


async def test_bar_on_a_terminal_draws_and_is_cleared() -> None:
    stream = io.StringIO()
    progress = RunProgress(stream, interactive=True)
    await run_evaluation(
        make_inputs(TASKS), RunOptions(repeat=2), MockProvider(by_task=SCRIPT), sink=progress
    )
    text = stream.getvalue()
    assert "running 6 trials" in text
    assert "6/6" in text and "accuracy 2/2" in text  # the bar's last frame, before it is cleared
    assert "[1/6]" not in text  # no per-trial lines under the bar
    progress.close()  # closing twice is harmless


async def test_long_runs_log_about_ten_lines_off_a_terminal() -> None:
    stream = io.StringIO()
    many = [TaskSpec(f"read{n}", "read it", "read_file") for n in range(200)]
    await run_evaluation(
        make_inputs(many),
        RunOptions(repeat=5, concurrency=4, max_trials=1000),
        MockProvider(responder=lambda _request: MockStep.pick("read_file")),
        sink=RunProgress(stream, interactive=False),
    )
    counters = [line.split("]")[0] for line in stream.getvalue().splitlines()[1:]]
    assert counters == [f"  [{done}/1000" for done in range(100, 1001, 100)]


def _trial(
    task: str, expected: str | None, picks: tuple[str, ...], error: bool = False
) -> ScoredTrial:
    planned = PlannedTrial(TaskSpec(task, f"prompt {task}", expected), 0, 0, TOOLS)
    calls = tuple(Call(name=pick, arguments={}) for pick in picks)
    failure = TrialError(message="down", retryable=False) if error else None
    return score_trial(planned, TrialOutcome(calls=calls, text="", error=failure), SCHEMAS)


def _bar_after(trials: list[ScoredTrial]) -> str:
    stream = io.StringIO()
    progress = RunProgress(stream, interactive=True)
    progress(RunPlanned(len(trials), "mock", "mock-1", 1, 10))
    for done, trial in enumerate(trials, 1):
        progress(TrialFinished(done, len(trials), trial, from_cache=False))
    progress.close()  # draws the bar's last frame
    return stream.getvalue()


def test_the_bar_counts_only_targeted_trials_that_did_not_error() -> None:
    text = _bar_after(
        [
            _trial("right", "a", ("a",)),
            _trial("wrong", "a", ("b",)),
            _trial("extra", "a", ("a", "b")),  # unexpected additional calls: scored, not right
            _trial("distractor", None, ("a",)),  # over-triggered: not in the accuracy
            _trial("errored", "b", (), error=True),  # errors are left out of every rate
        ]
    )
    assert "accuracy 1/3" in text


def test_the_bar_shows_no_accuracy_before_a_targeted_trial_is_scored() -> None:
    text = _bar_after([_trial("distractor", None, ()), _trial("errored", "a", (), error=True)])
    assert "2/2" in text and "accuracy" not in text
