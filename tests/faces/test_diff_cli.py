"""Two real runs of one plan through the engine and the scripted mock provider, then `diff`.

The head's script confuses one more pair; the diff names the new confusion and exits 1 only
when the paired change is distinguishable.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.support.cli import run_headless as cli
from tests.support.evaluation import make_inputs
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import dump_report_json
from whichtool_tui.providers.mock import MockProvider, MockStep, ScriptEntry

A, B, C = "read_file", "search_code", "list_dir"
TASKS = [
    TaskSpec("readme", "Show me README.md", A),
    TaskSpec("foo", "Find uses of foo", B),
    TaskSpec("src", "What is in src", C),
    TaskSpec("joke", "Tell me a joke", None),
]
BASE_SCRIPT: dict[str, ScriptEntry] = {"readme": A, "foo": B, "src": C, "joke": MockStep.say("Ha")}
REPEAT = 6


def save_run(path: Path, by_trial: dict[tuple[str, int], ScriptEntry] | None = None) -> Path:
    provider = MockProvider(by_task=BASE_SCRIPT, by_trial=by_trial or {})
    report = asyncio.run(
        run_evaluation(
            make_inputs(TASKS), RunOptions(repeat=REPEAT, max_trials=50, seed=3), provider
        )
    )
    path.write_text(dump_report_json(report), encoding="utf-8")
    return path


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    every_foo_confused = {("foo", i): A for i in range(REPEAT)}
    two_foo_confused = {("foo", i): A for i in range(2)}
    return {
        "base": save_run(tmp_path / "base.json"),
        "head": save_run(tmp_path / "head.json", every_foo_confused),
        "slight": save_run(tmp_path / "slight.json", two_foo_confused),
    }


@pytest.mark.slow
def test_a_distinguishable_new_confusion_exits_1(
    runs: dict[str, Path], cli_env: dict[str, str]
) -> None:
    upstream = ("--paired-unit", "trial")
    result = cli("diff", str(runs["base"]), str(runs["head"]), *upstream, env=cli_env)
    assert result.returncode == 1, result.stderr
    assert "new      read_file <-> search_code" in result.stdout
    assert "diff/new-confusion" in result.stdout
    assert "REGRESSED" in result.stdout
    as_json = cli(
        "diff", str(runs["base"]), str(runs["head"]), *upstream, "--format", "json", env=cli_env
    )
    assert as_json.returncode == 1
    data = json.loads(as_json.stdout)
    assert data["newConfusions"][0]["tools"] == [A, B]
    assert data["newConfusions"][0]["introduced"] == REPEAT
    assert data["newConfusions"][0]["distinguishable"] is True
    assert data["ok"] is False
    assert data["pairedUnit"] == "trial"


@pytest.mark.slow
def test_one_task_flipped_on_every_repeat_does_not_gate_by_default(
    runs: dict[str, Path], cli_env: dict[str, str]
) -> None:
    # Six identical flips of one task are one observation: the task-level gate holds, while
    # upstream's trial-level sign test (above) calls p = 0.031.
    result = cli("diff", str(runs["base"]), str(runs["head"]), "--format", "json", env=cli_env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["pairedUnit"] == "task"
    confusion = data["newConfusions"][0]
    assert confusion["distinguishable"] is True  # upstream's field keeps upstream's meaning
    assert confusion["pValue"] == pytest.approx(0.03125)
    # Both tasks expecting either tool of the pair are compared; only one changed.
    assert confusion["byTask"]["tasks"] == 2
    assert confusion["byTask"]["regressed"] == 1
    assert confusion["byTask"]["unchanged"] == 1
    assert confusion["byTask"]["pValue"] == 1
    assert confusion["byTask"]["distinguishable"] is False
    assert data["ok"] is True
    codes = {d["code"]: d["severity"] for d in data["diagnostics"]}
    assert codes["diff/new-confusion"] == "warning"


@pytest.mark.slow
def test_an_indistinct_new_confusion_exits_0_with_a_warning(
    runs: dict[str, Path], cli_env: dict[str, str]
) -> None:
    result = cli(
        "diff", str(runs["base"]), str(runs["slight"]), "--format", "markdown", env=cli_env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("## whichtool diff")
    assert "| new | read_file ↔ search_code |" in result.stdout
    assert "inconclusive" in result.stdout


@pytest.mark.slow
def test_diff_writes_out_atomically(
    runs: dict[str, Path], cli_env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "delta.md"
    result = cli(
        "diff",
        str(runs["base"]),
        str(runs["head"]),
        "--format",
        "markdown",
        "--out",
        str(out),
        "--paired-unit",
        "trial",
        env=cli_env,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert "Wrote markdown diff to" in result.stderr
    assert out.read_text(encoding="utf-8").startswith("## whichtool diff")


@pytest.mark.slow
def test_incomparable_runs_exit_2(
    runs: dict[str, Path], cli_env: dict[str, str], tmp_path: Path
) -> None:
    other = json.loads(runs["base"].read_text(encoding="utf-8"))
    other["reproducibility"]["model"] = "mock-2"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other), encoding="utf-8")
    result = cli("diff", str(runs["base"]), str(path), env=cli_env)
    assert result.returncode == 2
    assert "INCOMPARABLE" in result.stdout
    assert "model differs: mock-1 vs mock-2" in result.stderr


@pytest.mark.parametrize(
    ("args", "code_text"),
    [
        (["diff"], "needs exactly 2 run files, got 0"),
        (["diff", "a.json"], "needs exactly 2 run files, got 1"),
        (["diff", "a.json", "b.json", "c.json"], "needs exactly 2 run files, got 3"),
        (["diff", "missing.json", "other.json"], "no such file"),
        (["diff", "a.json", "b.json", "--max-accuracy-drop", "2"], "outside 0-1"),
    ],
)
@pytest.mark.slow
def test_bad_arguments_exit_2_with_one_line(
    args: list[str], code_text: str, cli_env: dict[str, str]
) -> None:
    result = cli(*args, env=cli_env)
    assert result.returncode == 2
    assert code_text in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("whichtool-tui: ")


@pytest.mark.slow
def test_max_accuracy_drop_gates_a_distinguishable_drop(
    runs: dict[str, Path], cli_env: dict[str, str]
) -> None:
    result = cli(
        "diff",
        str(runs["base"]),
        str(runs["head"]),
        "--format",
        "json",
        "--max-accuracy-drop",
        "0.1",
        "--paired-unit",
        "trial",
        env=cli_env,
    )
    data = json.loads(result.stdout)
    assert any(d["code"] == "threshold/maxAccuracyDrop" for d in data["diagnostics"])
    assert result.returncode == 1
    by_task = cli(
        "diff",
        str(runs["base"]),
        str(runs["head"]),
        "--format",
        "json",
        "--max-accuracy-drop",
        "0.1",
        env=cli_env,
    )
    # The same drop comes from one task: the default task-level gate does not call it real.
    task_data = json.loads(by_task.stdout)
    assert task_data["accuracy"]["byTask"]["regressed"] == 1
    assert task_data["accuracy"]["byTask"]["pValue"] == 1
    assert not any(d["code"] == "threshold/maxAccuracyDrop" for d in task_data["diagnostics"])
    assert by_task.returncode == 0


def _edited(source: Path, target: Path) -> Path:
    data = json.loads(source.read_text(encoding="utf-8"))
    data["ok"] = not data["ok"]  # every invariant holds but the recomputed ok
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


@pytest.mark.slow
def test_a_run_broken_on_either_side_is_named(
    runs: dict[str, Path], cli_env: dict[str, str], tmp_path: Path
) -> None:
    # The head is proved by a helper beside the base's read; what it finds is still one line
    # naming the file, as when the base is the broken one.
    broken = _edited(runs["head"], tmp_path / "broken.json")
    for base, head in ((runs["base"], broken), (broken, runs["head"])):
        result = cli("diff", str(base), str(head), env=cli_env)
        assert result.returncode == 2, result.stderr
        assert "broken.json" in result.stderr and "ok is" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_head_proved_on_the_second_core_diffs_as_one_read_here(
    runs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from whichtool_tui.surface import second_core
    from whichtool_tui.usecases.saved_runs import DiffRequest, diff_saved

    request = DiffRequest(runs["base"], runs["head"], None, "task")
    serial = diff_saved(request)
    forked: list[bool] = []

    class Recorded(second_core.Pending[bool]):
        def result(self) -> bool:
            forked.append(self.forked)
            return super().result()

    monkeypatch.setattr(second_core, "second_core_free", lambda: True)
    monkeypatch.setattr(second_core, "Pending", Recorded)
    assert diff_saved(request) == serial
    assert forked == [True]
    broken = _edited(runs["head"], runs["head"].with_name("edited.json"))
    with pytest.raises(WhichtoolError, match="ok is"):
        diff_saved(DiffRequest(runs["base"], broken, None, "task"))
    assert forked == [True, True]
