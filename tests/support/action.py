"""Runs action.yml's shell steps locally, the way a GitHub runner runs them (see
tests/faces/test_action.py for what each step is checked for)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests.support.paths import REPO, SNAPSHOTS

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"^\$\{\{\s*(.+?)\s*\}\}$")
NOT_RUN_LOCALLY = {"install", "comment"}
GITHUB_CONTEXT = {"event.pull_request.number": "17", "repository": "octo/server"}


@dataclass
class ActionRun:
    """What a local run of the action's shell steps left behind."""

    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    logs: dict[str, str] = field(default_factory=dict)
    summary: str = ""

    def action_output(self, name: str) -> str:
        """An output of the action, resolved the way its `outputs:` block says."""
        match = EXPRESSION.match(ACTION["outputs"][name]["value"])
        assert match is not None
        _, step, _, key = match.group(1).split(".")
        return self.outputs.get(step, {}).get(key, "")


def _resolve(value: Any, inputs: dict[str, str], run: ActionRun) -> str:
    text = str(value)
    match = EXPRESSION.match(text)
    if match is None:
        return text
    parts = match.group(1).split(".")
    if parts[0] == "inputs":
        return inputs[parts[1]]
    if parts[0] == "steps" and parts[2] == "outputs":
        return run.outputs.get(parts[1], {}).get(parts[3], "")
    if parts == ["github", "action_path"]:
        return str(REPO)
    if parts[0] == "github" and ".".join(parts[1:]) in GITHUB_CONTEXT:
        return GITHUB_CONTEXT[".".join(parts[1:])]
    raise AssertionError(f"a shell step reads an expression the test cannot resolve: {text}")


def _read_outputs(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        values[key] = value
    return values


def run_action(
    workspace: Path, only: set[str] | None = None, stand_ins: Path | None = None, **given: str
) -> ActionRun:
    """Run the shell steps in ``workspace`` with ``given`` inputs (underscores for dashes).

    ``only`` runs just those steps (the install and comment steps included); ``stand_ins`` is a
    folder put first on PATH, for the programs a step would reach GitHub or PyPI through.
    """
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({name.replace("_", "-"): value for name, value in given.items()})
    summary_file = workspace / "step-summary.md"
    summary_file.write_text("", encoding="utf-8")
    run = ActionRun()
    failed = False
    venv_bin = str(Path(sys.executable).parent)
    for step in ACTION["runs"]["steps"]:
        step_id = step["id"]
        condition = str(step.get("if", ""))
        if "uses" in step:
            continue
        if (step_id not in only) if only is not None else (step_id in NOT_RUN_LOCALLY):
            continue
        if failed and "always()" not in condition:
            continue
        output_file = workspace / f".output-{step_id}"
        output_file.write_text("", encoding="utf-8")
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.endswith("_API_KEY") and not key.startswith(("WHICHTOOL_", "GITHUB_"))
        }
        path = venv_bin + os.pathsep + env.get("PATH", "")
        env.update(
            PATH=(f"{stand_ins}{os.pathsep}{path}" if stand_ins else path),
            NO_COLOR="1",
            GITHUB_OUTPUT=str(output_file),
            GITHUB_PATH=str(workspace / ".github-path"),
            GITHUB_STEP_SUMMARY=str(summary_file),
        )
        for key, value in (step.get("env") or {}).items():
            env[key] = _resolve(value, inputs, run)
        script = workspace / f".step-{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        run.codes[step_id] = completed.returncode
        run.logs[step_id] = completed.stdout + completed.stderr
        run.outputs[step_id] = _read_outputs(output_file)
        failed = failed or completed.returncode != 0
    run.summary = summary_file.read_text(encoding="utf-8")
    return run


def action_workspace(tmp_path: Path) -> Path:
    """A workspace holding the demo surface and its task set, as a repository would."""
    shutil.copy(SNAPSHOTS / "demo-lab.json", tmp_path / "demo-lab.json")
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", tmp_path / "whichtool.tasks.yaml")
    return tmp_path
