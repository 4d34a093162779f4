"""`report RUN.json` through the real binary: formats, --out, exit codes and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import paths
from tests.support.cli import run_headless as cli
from tests.support.run_report_factory import Task, build_run, demo_run


def saved(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_exit_code_is_the_runs_own_verdict(tmp_path: Path, cli_env: dict[str, str]) -> None:
    passing = saved(tmp_path, "ok.json", demo_run())
    failing = saved(tmp_path, "fail.json", demo_run(min_accuracy=0.9))
    invalid = saved(
        tmp_path,
        "invalid.json",
        build_run({"a": 5}, [Task("t", "p", "a")], {("t", i): "error" for i in range(3)}, 3),
    )
    assert cli("report", passing, env=cli_env).returncode == 0
    result = cli("report", failing, "--format", "markdown", env=cli_env)
    assert result.returncode == 1
    assert result.stdout.startswith("## whichtool run")
    invalid_run = cli("report", invalid, "--format", "badge", env=cli_env)
    assert invalid_run.returncode == 2
    assert json.loads(invalid_run.stdout)["message"] == "invalid run (0/3 scored)"


@pytest.mark.slow
def test_html_out_is_written_and_announced(tmp_path: Path, cli_env: dict[str, str]) -> None:
    run = saved(tmp_path, "run.json", demo_run())
    out = tmp_path / "r.html"
    result = cli("report", run, "--format", "html", "--out", str(out), env=cli_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "Wrote html report to" in result.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert 'id="whichtool-data"' in page
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_json_is_the_validated_report(tmp_path: Path, cli_env: dict[str, str]) -> None:
    run = saved(tmp_path, "run.json", demo_run())
    result = cli("report", run, "--format", "json", env=cli_env)
    data = json.loads(result.stdout)
    assert data["schemaVersion"] == "whichtool.run/2"
    assert data["metrics"]["accuracy"]["numerator"] == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report"], "needs the saved run file"),
        (["report", "a.json", "b.json"], "takes one run file, got 2"),
        (["report", "missing.json"], "no such file"),
        (["report", "x.json", "--format", "pdf"], "invalid choice"),
    ],
)
@pytest.mark.slow
def test_bad_arguments(args: list[str], message: str, cli_env: dict[str, str]) -> None:
    result = cli(*args, env=cli_env)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_refusals_name_the_reason(tmp_path: Path, cli_env: dict[str, str]) -> None:
    data = demo_run()
    data["schemaVersion"] = "whichtool.run/9"
    result = cli("report", saved(tmp_path, "future.json", data), env=cli_env)
    assert result.returncode == 2
    assert 'unsupported schemaVersion "whichtool.run/9"' in result.stderr
    assert "whichtool.run/2" in result.stderr
    edited = demo_run()
    edited["trials"][0]["verdict"] = "wrong-tool"
    result = cli("report", saved(tmp_path, "edited.json", edited), env=cli_env)
    assert result.returncode == 2
    assert "(verdict-mismatch)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 2  # one line plus its hint
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    result = cli("report", str(tmp_path / "junk.json"), env=cli_env)
    assert result.returncode == 2
    assert "is not valid JSON" in result.stderr


@pytest.mark.slow
def test_a_real_run_reads_back_byte_for_byte(tmp_path: Path, cli_env: dict[str, str]) -> None:
    repo = paths.REPO
    run_json = tmp_path / "run.json"
    made = cli(
        "run",
        str(repo / "snapshots" / "demo-lab.json"),
        "--tasks",
        str(repo / "snapshots" / "demo-lab.tasks.yaml"),
        "--provider",
        "keyword",
        "--repeat",
        "2",
        "--max-tools",
        "50",
        "--no-cache",
        "--format",
        "json",
        "--out",
        str(run_json),
        env=cli_env,
    )
    assert made.returncode in (0, 1), made.stderr
    again = cli("report", str(run_json), "--format", "json", env=cli_env)
    assert again.returncode == made.returncode
    assert again.stdout == run_json.read_text(encoding="utf-8")
    html = cli("report", str(run_json), "--format", "html", env=cli_env)
    data = json.loads(run_json.read_text(encoding="utf-8"))
    tools = len(data["metrics"]["byTool"])
    assert html.stdout.count("<button") == (tools + 1) * (tools + 3)
