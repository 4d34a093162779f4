"""action.yml: its inputs and steps, and its shell steps run locally the way a runner runs them.

Each `run:` step is executed with `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`),
its `env:` expressions resolved from the inputs and earlier step outputs, and the GITHUB_OUTPUT
and GITHUB_STEP_SUMMARY files pointed at temporary files. Steps that `uses:` another action are
not run. The install and comment steps talk to pipx and to GitHub's API: the flow tests skip them,
and their own tests run them against stand-ins for `pipx` and `gh` put first on PATH.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.action import ACTION, action_workspace, run_action
from tests.support.paths import REPO

pytestmark = pytest.mark.slow  # starts processes or servers

PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def test_inputs_outputs_and_steps_match_the_contract() -> None:
    inputs = ACTION["inputs"]
    assert inputs["target"]["required"] is True
    defaults = {name: spec.get("default") for name, spec in inputs.items()}
    assert defaults["tasks"] == "whichtool.tasks.yaml"
    assert (defaults["repeat"], defaults["max-trials"], defaults["max-tools"]) == ("5", "50", "6")
    assert (defaults["cache"], defaults["comment"]) == ("false", "true")
    for optional in (
        "transport",
        "provider",
        "model",
        "min-accuracy",
        "max-over-trigger",
        "max-context-tokens",
        "base-run",
        "max-accuracy-drop",
    ):
        assert defaults[optional] == ""
    assert set(ACTION["outputs"]) == {"accuracy", "report"}
    assert ACTION["runs"]["using"] == "composite"
    steps = [step["id"] for step in ACTION["runs"]["steps"]]
    order = [
        "install",
        "config",
        "inspect",
        "lint",
        "preflight",
        "cache",
        "run",
        "diff",
        "summary",
        "gate",
    ]
    assert [step for step in steps if step in order] == order
    cache = next(step for step in ACTION["runs"]["steps"] if step["id"] == "cache")
    assert cache["uses"].startswith("actions/cache@")
    assert "inputs.cache == 'true'" in cache["if"]
    run_step = next(step for step in ACTION["runs"]["steps"] if step["id"] == "run")
    # The run caches where actions/cache restores and saves, not in the platform cache folder.
    assert f"--cache --cache-dir {cache['with']['path']}" in run_step["run"]
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash"
            # Inputs reach scripts through env only, never pasted into the script text.
            assert "${{" not in step["run"]
            assert "--no-ui" in step["run"] or step["id"] in (
                "install",
                "config",
                "summary",
                "comment",
                "gate",
            )


def test_free_static_pass_without_a_provider(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    run = run_action(workspace, target="demo-lab.json")
    assert all(code == 0 for code in run.codes.values()), run.logs
    assert run.codes.keys() >= {"inspect", "lint", "preflight", "run", "diff", "summary", "gate"}
    inspect = json.loads((workspace / "whichtool-inspect.json").read_text(encoding="utf-8"))
    assert inspect["surface"]["toolCount"] == 6
    assert run.outputs["inspect"] == {"exit-code": "0", "tools": "6"}
    assert run.outputs["lint"]["task-count"] == "10"
    assert "only the free static pass" in run.logs["preflight"]
    assert not (workspace / "whichtool-run.json").exists()
    assert "## whichtool" in run.summary and "inspect" in run.summary
    assert run.action_output("accuracy") == ""
    assert run.action_output("report") == str(workspace / "whichtool-inspect.json")


def test_keyword_run_then_a_diff_against_it(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    first = run_action(workspace, target="demo-lab.json", provider="keyword", repeat="2")
    assert all(code == 0 for code in first.codes.values()), first.logs
    assert "No model was called" in first.logs["preflight"]
    report = json.loads((workspace / "whichtool-run.json").read_text(encoding="utf-8"))
    assert report["reproducibility"]["provider"] == "keyword"
    assert report["reproducibility"]["repeat"] == 2
    assert float(first.action_output("accuracy")) == report["metrics"]["accuracy"]["value"]
    assert first.action_output("report") == str(workspace / "whichtool-run.json")
    assert "whichtool" in first.summary and "run" in first.summary

    shutil.copy(workspace / "whichtool-run.json", workspace / "base-run.json")
    second = run_action(
        workspace,
        target="demo-lab.json",
        provider="keyword",
        repeat="2",
        base_run="base-run.json",
        max_accuracy_drop="0.05",
    )
    assert all(code == 0 for code in second.codes.values()), second.logs
    delta = (workspace / "whichtool-delta.md").read_text(encoding="utf-8")
    assert second.summary.endswith(delta)
    assert second.outputs["diff"]["exit-code"] == "0"


def test_budget_preflight_refuses_before_any_model(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    run = run_action(workspace, target="demo-lab.json", provider="keyword", repeat="6")
    assert run.codes["preflight"] == 2
    assert "60 trials, above max-trials 50" in run.logs["preflight"]
    assert "run" not in run.codes and "gate" not in run.codes
    assert not (workspace / "whichtool-run.json").exists()
    assert run.codes["summary"] == 0 and "inspect" in run.summary


def test_too_many_tools_stops_a_paid_run_but_not_the_static_pass(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    refused = run_action(workspace, target="demo-lab.json", provider="keyword", max_tools="5")
    assert refused.codes["inspect"] == 2
    assert "6 tools, above max-tools 5" in refused.logs["inspect"]
    static = run_action(workspace, target="demo-lab.json", max_tools="5")
    assert static.codes["inspect"] == 0 and static.codes["gate"] == 0


def test_a_failed_threshold_fails_the_gate(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    run = run_action(
        workspace, target="demo-lab.json", provider="keyword", repeat="1", min_accuracy="0.99"
    )
    assert run.codes["run"] == 0 and run.outputs["run"]["exit-code"] == "1"
    assert run.codes["gate"] == 1
    assert "quality gate failed" in run.logs["gate"]
    assert run.summary  # the run's markdown still reaches the job summary


def test_third_party_actions_are_pinned_by_commit_with_the_release_named() -> None:
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    uses = [step["uses"] for step in ACTION["runs"]["steps"] if "uses" in step]
    assert {u.split("@")[0] for u in uses} >= {
        "actions/setup-python",
        "actions/cache",
        "github/codeql-action/upload-sarif",
    }
    for reference in uses:
        assert PINNED.match(reference), reference
        assert re.search(re.escape(reference) + r" # v\d+\.\d+\.\d+\n", text), reference


def test_pip_downloads_are_cached_before_the_install() -> None:
    steps = [step["id"] for step in ACTION["runs"]["steps"]]
    assert steps.index("pip-cache") < steps.index("install")
    cache = next(step for step in ACTION["runs"]["steps"] if step["id"] == "pip-cache")
    assert cache["with"]["path"] == "~/.cache/pip"
    assert "inputs.python-version" in cache["with"]["key"]


def _stand_in(folder: Path, name: str, script: str) -> None:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{script}", encoding="utf-8")
    path.chmod(0o755)


FAKE_PIPX = """
import json, os, sys
from pathlib import Path
with Path(os.environ["FAKE_LOG"]).open("a") as out:
    out.write(json.dumps(sys.argv[1:]) + "\\n")
if sys.argv[1:] == ["environment", "--value", "PIPX_BIN_DIR"]:
    print(os.environ["FAKE_BIN"])
elif sys.argv[1] == "install":
    binary = Path(os.environ["FAKE_BIN"]) / "whichtool-tui"
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text("#!/bin/sh\\necho whichtool-tui 0.0-isolated\\n")
    binary.chmod(0o755)
"""


@pytest.mark.parametrize(("version", "spec"), [("", str(REPO)), ("1.2.3", "whichtool-tui==1.2.3")])
def test_install_goes_into_its_own_pipx_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str, spec: str
) -> None:
    stand_ins = tmp_path / "stand-ins"
    _stand_in(stand_ins, "pipx", FAKE_PIPX)
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "pipx.log"))
    monkeypatch.setenv("FAKE_BIN", str(tmp_path / "pipx-bin"))
    run = run_action(tmp_path, only={"install"}, stand_ins=stand_ins, whichtool_tui_version=version)
    assert run.codes["install"] == 0, run.logs
    calls = [json.loads(line) for line in (tmp_path / "pipx.log").read_text().splitlines()]
    install = calls[0]
    assert install[:3] == ["install", "--force", "--python"]
    assert install[-1] == spec
    assert Path(install[3]).name.startswith("python")  # the job's Python, not pipx's own
    assert (tmp_path / ".github-path").read_text().strip() == str(tmp_path / "pipx-bin")
    assert "0.0-isolated" in run.logs["install"]  # the version check ran the isolated binary


FAKE_GH = """
import json, os, subprocess, sys
from pathlib import Path
args = sys.argv[1:]
log = Path(os.environ["FAKE_LOG"])
with log.open("a") as out:
    out.write(json.dumps(args) + "\\n")
if "--jq" in args:
    jq = args[args.index("--jq") + 1]
    comments = Path(os.environ["FAKE_COMMENTS"]).read_text()
    sys.stdout.write(subprocess.run(["jq", "-r", jq], input=comments, capture_output=True,
                                    text=True, check=True).stdout)
elif "-F" in args:
    body = args[args.index("-F") + 1].removeprefix("body=@")
    Path(os.environ["FAKE_BODY"]).write_text(Path(body).read_text())
"""


def _comment_step(tmp_path: Path, comments: list[dict[str, Any]]) -> list[list[str]]:
    if shutil.which("jq") is None:
        pytest.skip("jq stands in for gh's --jq filter")
    stand_ins = tmp_path / "stand-ins"
    _stand_in(stand_ins, "gh", FAKE_GH)
    (tmp_path / "comments.json").write_text(json.dumps(comments), encoding="utf-8")
    (tmp_path / "whichtool-summary.md").write_text("## whichtool inspect\n", encoding="utf-8")
    env = {
        "FAKE_LOG": str(tmp_path / "gh.log"),
        "FAKE_COMMENTS": str(tmp_path / "comments.json"),
        "FAKE_BODY": str(tmp_path / "body.md"),
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        run = run_action(tmp_path, only={"comment"}, stand_ins=stand_ins)
    assert run.codes["comment"] == 0, run.logs
    body = (tmp_path / "body.md").read_text(encoding="utf-8")
    assert body.startswith("<!-- whichtool-tui:pr-summary -->\n## whichtool inspect")
    return [json.loads(line) for line in (tmp_path / "gh.log").read_text().splitlines()]


def test_the_marked_comment_is_edited_in_place(tmp_path: Path) -> None:
    calls = _comment_step(
        tmp_path,
        [
            {"id": 7, "body": "Looks good to me"},
            {"id": 42, "body": "<!-- whichtool-tui:pr-summary -->\nold summary"},
            {"id": 50, "body": "a reviewer quoting whichtool-tui without the marker"},
        ],
    )
    assert calls[0][:3] == ["api", "--paginate", "repos/octo/server/issues/17/comments"]
    assert calls[1][:4] == ["api", "--method", "PATCH", "repos/octo/server/issues/comments/42"]
    assert len(calls) == 2


def test_without_a_marked_comment_one_is_created(tmp_path: Path) -> None:
    calls = _comment_step(tmp_path, [{"id": 7, "body": "Looks good to me"}])
    assert calls[1][:4] == ["api", "--method", "POST", "repos/octo/server/issues/17/comments"]
    assert len(calls) == 2


def test_sarif_is_written_for_upload(tmp_path: Path) -> None:
    from tests.support.sarif_github import github_problems

    workspace = action_workspace(tmp_path)
    run = run_action(workspace, target="demo-lab.json")
    assert run.codes["inspect"] == 0, run.logs
    log = json.loads((workspace / "whichtool-inspect.sarif").read_text(encoding="utf-8"))
    assert github_problems(log) == []
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in log["runs"][0]["results"]
        for loc in result["locations"]
    }
    assert uris == {"demo-lab.json"}  # the snapshot in the repository, not the saved copy
    upload = next(step for step in ACTION["runs"]["steps"] if step["id"] == "upload-sarif")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "whichtool-inspect.sarif"
    assert upload["continue-on-error"] is True and "inputs.sarif == 'true'" in upload["if"]
    other = tmp_path / "without-sarif"
    other.mkdir()
    skipped = run_action(action_workspace(other), target="demo-lab.json", sarif="false")
    assert skipped.codes["inspect"] == 0
    assert not (other / "whichtool-inspect.sarif").exists()


def test_require_hosts_fails_the_gate_and_the_matrix_reaches_the_summary(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    run = run_action(
        workspace, target="demo-lab.json", hosts="claude-code, anthropic",
        require_hosts="chatgpt-apps",
    )  # fmt: skip
    assert run.outputs["inspect"]["exit-code"] == "1"  # demo-lab leaves hints to the defaults
    assert run.codes["gate"] == 1
    inspect = json.loads((workspace / "whichtool-inspect.json").read_text(encoding="utf-8"))
    verdicts = {v["host"]: v["compatible"] for v in inspect["hosts"]}
    assert verdicts == {"anthropic": True, "chatgpt-apps": False, "claude-code": True}
    markdown = (workspace / "whichtool-inspect.md").read_text(encoding="utf-8")
    assert "### Hosts" in markdown
    (tmp_path / "ok").mkdir()
    passing = run_action(action_workspace(tmp_path / "ok"), target="demo-lab.json",
                         require_hosts="anthropic")  # fmt: skip
    assert passing.outputs["inspect"]["exit-code"] == "0"


def test_a_shard_input_runs_one_share_of_the_tasks_and_its_budget(tmp_path: Path) -> None:
    workspace = action_workspace(tmp_path)
    # 10 tasks x 6 repeats is 60 trials, above max-trials 50; one shard of two is 30.
    run = run_action(workspace, target="demo-lab.json", provider="keyword", repeat="6", shard="2/2")
    assert run.codes["preflight"] == 0 and run.codes["run"] in (0, 1), run.logs
    report = json.loads((workspace / "whichtool-run.json").read_text(encoding="utf-8"))
    assert report["shard"]["index"] == 2 and report["shard"]["count"] == 2
    assert report["execution"]["planned"] == 30 and report["shard"]["plannedTotal"] == 60
