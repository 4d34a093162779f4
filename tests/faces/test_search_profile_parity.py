"""`inspect --tasks` and `run --discovery deferred` rank the same documents: for every search
profile, the deferred run's rank of each expected tool (a baseline searches with the prompt)
equals inspect's rank for the same task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.paths import REPO
from whichtool_tui.cli import main
from whichtool_tui.discovery.embedding import embedding_available
from whichtool_tui.discovery.profiles import PROFILE_ORDER

SURFACE = str(REPO / "tests" / "fixtures" / "search_profiles" / "surface.json")
TASKS = str(REPO / "tests" / "fixtures" / "search_profiles" / "surface.tasks.yaml")
NAMES = [n for n in PROFILE_ORDER if n != "semantic" or embedding_available()]
INSPECT_JSON: list[Path] = []


def _inspect_ranks(tmp_path: Path) -> dict[str, dict[str, int | None]]:
    out = tmp_path / "inspect.json"
    INSPECT_JSON.append(out)
    argv = ["--no-ui", "inspect", SURFACE, "--tasks", TASKS, "--format", "json"]
    for name in NAMES:
        argv += ["--retriever", name]
    assert main([*argv, "--out", str(out)]) in (0, 1)
    tasks = json.loads(out.read_text())["findability"]["tasks"]
    return {name: {task["id"]: task["ranks"][name] for task in tasks} for name in NAMES}


@pytest.fixture(scope="module")
def inspect_ranks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, int | None]]:
    return _inspect_ranks(tmp_path_factory.mktemp("inspect"))


@pytest.mark.parametrize("name", NAMES)
def test_deferred_run_ranks_equal_inspect_ranks(
    name: str, inspect_ranks: dict[str, dict[str, int | None]], tmp_path: Path
) -> None:
    out = tmp_path / "run.json"
    code = main(
        [
            "--no-ui", "run", SURFACE, "--tasks", TASKS, "--provider", "keyword",
            "--discovery", "deferred", "--retriever", name, "--top-k", "8",
            "--no-compare-upfront", "--repeat", "1", "--cache-dir", str(tmp_path / "cache"),
            "--format", "json", "--out", str(out),
        ]
    )  # fmt: skip
    assert code in (0, 1)
    trials = json.loads(out.read_text())["discovery"]["trials"]
    ranks = {t["taskId"]: t["expectedRank"] for t in trials if t["taskId"] in inspect_ranks[name]}
    # The run records the expected tool's rank in the whole ranking (it offers the first 8).
    assert ranks == inspect_ranks[name]
    assert len(ranks) == 10


def _floor(capsys: pytest.CaptureFixture[str], tmp_path: Path, *extra: str) -> int:
    import re

    git = str(REPO / "snapshots" / "git.json")
    git_tasks = str(REPO / "snapshots" / "git.tasks.yaml")
    argv = ["--no-ui", "run", git, "--tasks", git_tasks, "--provider", "keyword", "--repeat", "1"]
    out = tmp_path / f"r{len(extra)}.json"
    code = main([*argv, *extra, "--format", "json", "--out", str(out), "--no-cache"])
    assert code in (0, 1)
    err = capsys.readouterr().err
    match = re.search(r"cold-cache prompt floor ~(\d+) tokens", err)
    assert match, err
    return int(match.group(1))


def test_a_deferred_run_prints_its_own_token_floor(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # git: 12 tools (an offline provider's tool limit is the absolute maximum: no --max-tools).
    upfront = _floor(capsys, tmp_path)
    deferred = ["--discovery", "deferred", "--retriever", "codex"]
    alone = _floor(capsys, tmp_path, *deferred, "--no-compare-upfront")
    both = _floor(capsys, tmp_path, *deferred, "--compare-upfront")
    assert 0 < alone < upfront  # a search tool and 5 of 12 tools cost less than all 12
    assert both == alone + upfront  # with the upfront arm beside it, both floors count


def test_the_findability_json_validates_against_the_inspect_schema(
    inspect_ranks: dict[str, dict[str, int | None]],
) -> None:
    from jsonschema import Draft202012Validator

    from whichtool_tui.schemas import DEFAULT_FOLDER

    schema = json.loads((DEFAULT_FOLDER / "inspect.schema.json").read_text(encoding="utf-8"))
    report = json.loads(INSPECT_JSON[-1].read_text())
    assert [item["retriever"] for item in report["findability"]["summary"]] == NAMES
    assert list(Draft202012Validator(schema).iter_errors(report)) == []


def test_offline_runs_default_to_the_absolute_tool_limit_paid_ones_keep_six(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--no-ui", "run", SURFACE, "--tasks", TASKS, "--repeat", "1", "--no-cache"]
    out = tmp_path / "keyword.json"
    assert main([*base, "--provider", "keyword", "--format", "json", "--out", str(out)]) in (0, 1)
    assert json.loads(out.read_text())["trials"]  # 7 tools, no --max-tools needed
    paid = [*base, "--provider", "openai-compatible", "--model", "m"]
    code = main([*paid, "--base-url", "http://127.0.0.1:9/v1"])  # refused before any request
    assert code == 2
    assert "The surface has 7 tools, above the tool limit of 6" in capsys.readouterr().err
