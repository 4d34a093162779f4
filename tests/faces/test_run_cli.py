"""The `run` command end to end: dry run, real runs against a loopback Chat Completions server,
exit codes, budgets, output files and flag > config > default precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fake_apis import chat_reply, fake_api_server, http_error
from tests.support.places import PlatformDirs
from tests.support.run_project import run_args, write_project
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "WHICHTOOL_PROVIDER_API_KEY", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    write_project(tmp_path)
    return tmp_path


def test_dry_run_needs_no_key_and_calls_nothing(
    project: Path, capsys: pytest.CaptureFixture[str], platform_dirs: PlatformDirs
) -> None:
    code = main(
        [
            "--no-ui",
            "run",
            "surface.json",
            "--provider",
            "openai",
            "--model",
            "gpt-x",
            "--dry-run",
            "--repeat",
            "20",
            "--seconds-per-trial",
            "3",
            "--only",
            "files",
            "--only",
            "code",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "tasks         3 of 4 in whichtool.tasks.yaml" in out
    assert "trials        60 = 3 tasks x 20 repeats" in out
    assert "BLOCKED until --max-trials is raised to at least 60" in out
    assert "tool check    within the limit" in out
    assert "wall clock    ~1 min at 3s per trial" in out  # ceil(60 * 3 / 4) = 45 s
    assert out.rstrip().endswith("No model was called.")
    assert not platform_dirs.cache.exists()  # a dry run opens no cache
    assert sorted(path.name for path in project.iterdir()) == [
        "surface.json",
        "whichtool.tasks.yaml",
    ]


def test_budget_refusal_names_the_flag(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--repeat", "20"])
    err = capsys.readouterr().err
    assert code == 2
    assert "above the trial limit of 50" in err and "--max-trials 80" in err
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--max-tools", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "--max-tools 3" in err


def test_bad_flags_and_impossible_thresholds_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--no-ui", "run", "surface.json", "--max-trials", "1001"]) == 2
    assert "1001 is outside 1-1000" in capsys.readouterr().err
    assert main(["--no-ui", "run", "surface.json", "--concurrency", "0"]) == 2
    capsys.readouterr()
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--min-scored", "99"])
    assert code == 2
    assert "--min-scored 99 can never be met" in capsys.readouterr().err
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--only", "nope"])
    assert code == 2
    assert "No task selected" in capsys.readouterr().err
    code = main(["--no-ui", "run", "surface.json", "--provider", "openai", "--model", "m"])
    assert code == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_task_lint_errors_block_the_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = project / "whichtool.tasks.yaml"
    tasks.write_text(tasks.read_text().replace("expected: read_file", "expected: no_such_tool"))
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--dry-run"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no_such_tool" in err


def _run_against(api_url: str, *extra: str) -> int:
    return main(run_args(api_url, "--no-cache", "--repeat", "2", *extra, model="fake-model"))


def test_real_run_json_and_threshold_exit_1(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.responder = lambda _request: chat_reply(calls=[("read_file", '{"path": "README.md"}')])
        code = _run_against(api.base_url, "--format", "json", "--min-accuracy", "0.9")
        captured = capsys.readouterr()
    assert code == 1
    report = json.loads(captured.out)
    assert report["schemaVersion"] == "whichtool.run/2"
    assert report["execution"]["ok"] is True
    assert report["metrics"]["accuracy"]["numerator"] == 2
    assert report["metrics"]["accuracy"]["denominator"] == 6
    assert report["metrics"]["overTrigger"]["numerator"] == 2
    assert report["thresholds"][0]["name"] == "minAccuracy" and not report["thresholds"][0]["ok"]
    assert report["reproducibility"]["provider"] == "openai-compatible"
    assert "running 8 trials against openai-compatible/fake-model" in captured.err
    assert "[8/8]" in captured.err  # plain progress lines when stderr is not a terminal
    sent = api.requests[0].json
    assert sent["messages"] == [{"role": "user", "content": sent["messages"][0]["content"]}]
    assert len(api.requests) == 8


def test_provider_failures_beyond_budget_exit_2_and_still_write_out(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.responder = lambda _request: http_error(500, "overloaded")
        code = _run_against(api.base_url, "--format", "json", "--out", "out/run.json")
    err = capsys.readouterr().err
    assert code == 2
    assert "Wrote json report to out/run.json" in err
    report = json.loads((project / "out" / "run.json").read_text())
    assert report["execution"]["ok"] is False
    assert report["metrics"]["trials"] == {"planned": 8, "scored": 0, "errored": 8}
    assert all(t["verdict"] == "error" for t in report["trials"])
    assert report["diagnostics"][0]["severity"] == "error"


def test_config_values_apply_and_flags_win(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "whichtool.config.json").write_text(
        json.dumps(
            {
                "provider": {"name": "keyword"},
                "trials": {"repeat": 2, "seed": 9, "concurrency": 2},
                "thresholds": {"minAccuracy": 0.5},
                "report": {"formats": ["json", "markdown"], "out": "reports/run"},
            }
        )
    )
    code = main(["--no-ui", "run", "surface.json", "--format", "json", "--repeat", "3"])
    captured = capsys.readouterr()
    assert code == 0
    report = json.loads(captured.out)
    repro = report["reproducibility"]
    assert (repro["repeat"], repro["seed"], repro["concurrency"]) == (3, 9, 2)
    assert report["thresholds"][0]["limit"] == 0.5
    assert json.loads((project / "reports" / "run.json").read_text())["ok"] is True
    assert (project / "reports" / "run.md").read_text().startswith("## ")


def test_terminal_report_sections(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--repeat", "2"])
    out = capsys.readouterr().out
    assert code == 0
    for heading in (
        "status: valid (8/8 scored)",
        "Accuracy",
        "Per tool (worst first)",
        "Confusion matrix",
        "Confusion pairs",
        "Position sensitivity",
        "Findings",
        "Thresholds",
    ):
        assert heading in out
    assert "keyword baseline, not a model" in out
    assert out.isascii()
