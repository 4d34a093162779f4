"""The `tasks` command end to end: usage, lint (terminal and whichtool.tasks-lint/1 JSON,
with a snapshot, a config target and a real stdio MCP server), and mutate."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.support import paths
from tests.support.paths import REPO
from tests.support.processes import live_children
from whichtool_tui.cli import main
from whichtool_tui.surface.load import load_snapshot
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.tasks.load import load_task_set

FIXTURES = paths.TASK_FIXTURES
SURFACE_FILE = FIXTURES / "surface.json"
BASIC = FIXTURES / "basic.tasks.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--no-ui", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def test_tasks_without_subcommand_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tasks")
    assert code == 0
    assert out.startswith("usage: whichtool-tui tasks {lint,mutate,generate}")
    assert err == ""


def test_unknown_subcommand_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "tasks", "frobnicate")
    assert code == 2
    assert err.splitlines()[0] == "whichtool-tui: Unknown subcommand `tasks frobnicate`"


def test_lint_without_target_skips_surface_checks(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(BASIC, workdir / "whichtool.tasks.yaml")
    code, out, _err = run(capsys, "tasks", "lint")
    assert code == 0
    assert out.splitlines()[:4] == [
        "whichtool-tui tasks lint",
        "  file      whichtool.tasks.yaml",
        "  tasks     4 total, 1 distractors",
        "  surface   surface not checked: no target given, so the expected-tool and coverage "
        "checks were skipped",
    ]
    assert "info    tasks/thin-coverage" in out
    assert out.rstrip().endswith("they limit what it can show.")


def test_lint_json_with_snapshot_target(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BASIC.read_text().replace("expected: get_ticket", "expected: close_ticket")
    (workdir / "t.yaml").write_text(text)
    shutil.copy(SURFACE_FILE, workdir / "surface.json")
    code, out, _err = run(
        capsys, "tasks", "lint", "surface.json", "--tasks", "t.yaml", "--format", "json"
    )
    assert code == 1
    report = json.loads(out)
    assert list(report) == [
        "schemaVersion",
        "source",
        "surfaceChecked",
        "surfaceHash",
        "ok",
        "coverage",
        "diagnostics",
    ]
    assert report["schemaVersion"] == "whichtool.tasks-lint/1"
    assert report["source"] == "t.yaml"
    assert report["surfaceChecked"] is True
    assert report["surfaceHash"] == normalize_surface(load_snapshot(SURFACE_FILE).raw_tools).hash
    assert report["ok"] is False
    assert report["coverage"] == {
        "taskCount": 4,
        "distractorCount": 1,
        "toolsOnSurface": 3,
        "toolsCovered": 2,
        "uncoveredTools": ["get_ticket"],
    }
    assert [(d["code"], d["severity"]) for d in report["diagnostics"]] == [
        ("tasks/expected-not-on-surface", "error"),
        ("tasks/uncovered-tools", "warning"),
        ("tasks/thin-coverage", "info"),
    ]
    assert report["diagnostics"][0]["detail"] == {"id": "t3", "expected": "close_ticket"}


def test_lint_uses_config_target_and_tasks(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SURFACE_FILE, workdir / "surface.json")
    shutil.copy(BASIC, workdir / "set.yaml")
    config = {"target": {"transport": "snapshot", "path": "surface.json"}, "tasks": "set.yaml"}
    (workdir / "whichtool.config.json").write_text(json.dumps(config))
    code, out, _err = run(capsys, "tasks", "lint")
    assert code == 0
    assert "  surface   3/3 tools covered by at least one task" in out


@pytest.mark.parametrize(
    ("content", "code", "fragment"),
    [
        ("version: 1\ntasks:\n  - id: a\n    prompt: p\n", 2, "set.yaml:3: task 0 (`a`): does not"),
        ("version: 1\ntasks: []\n", 1, "error   tasks/empty"),
        ("version: 1\nx: &a 1\ntasks: []\n", 2, "set.yaml:2: anchors are not allowed"),
    ],
)
def test_lint_exit_codes(
    workdir: Path, capsys: pytest.CaptureFixture[str], content: str, code: int, fragment: str
) -> None:
    (workdir / "set.yaml").write_text(content)
    got, out, err = run(capsys, "tasks", "lint", "--tasks", "set.yaml")
    assert got == code
    assert fragment in (out if code == 1 else err)


def test_lint_refuses_other_formats_and_missing_files(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(BASIC, workdir / "whichtool.tasks.yaml")
    code, _out, err = run(capsys, "tasks", "lint", "--format", "html")
    assert code == 2 and "Available: terminal, json." in err
    code, _out, err = run(capsys, "tasks", "lint", "--tasks", "missing.yaml")
    assert code == 2 and "No task set at missing.yaml" in err


@pytest.mark.slow
def test_lint_against_a_real_stdio_server(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = Path(sys.executable).parent / "mcp-server-time"
    (workdir / "time.tasks.yaml").write_text(
        "version: 1\ntasks:\n"
        "  - id: now\n    prompt: What time is it in Tokyo?\n    expected: get_current_time\n"
        "  - id: alarm\n    prompt: Wake me at six\n    expected: null\n"
    )
    code, out, err = run(
        capsys,
        "tasks",
        "lint",
        "--transport",
        "stdio",
        f"{server} --local-timezone UTC",
        "--tasks",
        "time.tasks.yaml",
        "--format",
        "json",
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["surfaceChecked"] is True
    assert report["surfaceHash"].startswith("sha256:")
    assert report["coverage"]["toolsOnSurface"] == 2
    assert report["coverage"]["uncoveredTools"] == ["convert_time"]
    assert live_children("mcp-server-time", zombies=True) == []


def test_mutate_writes_variants_and_keeps_version_and_surface(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASIC.read_text().replace("surface: null", 'surface: "sha256:abc"')
    (workdir / "whichtool.tasks.yaml").write_text(text)
    code, out, _err = run(capsys, "tasks", "mutate", "--out", "mutated.yaml")
    assert code == 0
    assert out.splitlines()[:7] == [
        "Wrote 16 tasks to mutated.yaml",
        "",
        "  casual         4 produced, 0 skipped",
        "  imperative     2 produced, 2 skipped",
        "  interrogative  1 produced, 3 skipped",
        "  polite         1 produced, 3 skipped",
        "  typo           4 produced, 0 skipped",
    ]
    assert "info    mutate/produced" in out
    written = load_task_set(workdir / "mutated.yaml").task_set
    assert written.surface == "sha256:abc"
    assert [t.id for t in written.tasks][:5] == ["t1", "t2", "t3", "t4", "t1.casual"]
    assert written.tasks[7].prompt == "Show me the openn innvoices"

    code, _out, err = run(capsys, "tasks", "mutate", "--out", "mutated.yaml")
    assert code == 2 and "already exists" in err


def test_mutate_subset_seed_no_originals_json(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(
        capsys,
        "tasks",
        "mutate",
        "--tasks",
        str(BASIC),
        "--out",
        "v.json",
        "--mutations",
        " typo, polite ,",
        "--seed",
        "2",
        "--no-originals",
    )
    assert code == 0
    assert out.startswith("Wrote 5 tasks to v.json\n")
    document = json.loads((workdir / "v.json").read_text())
    # requested order per task: typo, then polite (which declines t2, t3 and t4)
    assert [t["id"] for t in document["tasks"]] == [
        "t1.typo",
        "t1.polite",
        "t2.typo",
        "t3.typo",
        "t4.typo",
    ]
    typo_of_t1 = next(t for t in document["tasks"] if t["id"] == "t1.typo")
    assert typo_of_t1["prompt"] == "Shlw me the open invoices"
    assert typo_of_t1["derivedFrom"] == {"taskId": "t1", "mutation": "typo"}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--tasks", "whichtool.tasks.yaml"], "`tasks mutate` needs --out"),
        (["--out", "o.yaml", "--mutations", "typo,translate"], "Unknown mutation `translate`"),
        (["--out", "o.yaml", "--seed", "x"], "--seed"),
    ],
)
def test_mutate_refusals(
    workdir: Path, capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    shutil.copy(BASIC, workdir / "whichtool.tasks.yaml")
    code, _out, err = run(capsys, "tasks", "mutate", *args)
    assert code == 2
    assert fragment in err
    assert not (workdir / "o.yaml").exists()


def test_demo_task_set_lints_clean_against_the_demo_surface(
    capsys: pytest.CaptureFixture[str],
) -> None:
    demo = REPO / "snapshots" / "demo-lab.json"
    tasks = REPO / "snapshots" / "demo-lab.tasks.yaml"
    code, out, _err = run(
        capsys, "tasks", "lint", str(demo), "--tasks", str(tasks), "--format", "json"
    )
    report = json.loads(out)
    assert code == 0
    assert [d["severity"] for d in report["diagnostics"]] == ["info"]  # thin coverage only
    assert report["coverage"]["uncoveredTools"] == []
    assert report["coverage"]["distractorCount"] == 3
