"""`surface-diff` end to end through the binary: real snapshots, a real task set, the keyword
baseline offline.

The head surfaces are made here by editing snapshots/demo-lab.json (and one public reference
snapshot); the paired result of the re-run is checked against two full `run`s of the same
surfaces and a sign-flip p-value counted by brute force over every sign assignment.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.support.cli import run_headless as cli
from tests.support.paths import REPO
from whichtool_tui.schemas import DEFAULT_FOLDER

LAB = REPO / "snapshots" / "demo-lab.json"
LAB_TASKS = REPO / "snapshots" / "demo-lab.tasks.yaml"
GIT = REPO / "snapshots" / "git.json"
GIT_TASKS = REPO / "snapshots" / "git.tasks.yaml"
KEYWORD = ("--provider", "keyword")


def edited(source: Path, target: Path, edits: dict[str, dict[str, Any]]) -> Path:
    """A copy of a snapshot with some tools' fields replaced (``name`` renames)."""
    document = json.loads(source.read_text(encoding="utf-8"))
    for tool in document["tools"]:
        tool.update(edits.get(tool["name"], {}))
    target.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return target


def surface_diff(env: dict[str, str], *args: str) -> tuple[int, dict[str, Any]]:
    result = cli("surface-diff", *args, "--format", "json", env=env)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def task_ids(path: Path, expected: set[str | None]) -> list[str]:
    import yaml

    tasks = yaml.safe_load(path.read_text(encoding="utf-8"))["tasks"]
    return [task["id"] for task in tasks if task.get("expected") in expected]


def lab_description(name: str) -> str:
    tools = json.loads(LAB.read_text(encoding="utf-8"))["tools"]
    return str(next(tool["description"] for tool in tools if tool["name"] == name))


@pytest.mark.slow
def test_a_rename_is_detected_by_content_and_the_task_follows_it(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    head = edited(LAB, tmp_path / "head.json", {"get_order": {"name": "fetch_order"}})
    code, report = surface_diff(cli_env, str(LAB), str(head), "--tasks", str(LAB_TASKS), *KEYWORD)
    assert code == 0
    assert report["changes"] == [
        {
            "kind": "renamed",
            "baseName": "get_order",
            "headName": "fetch_order",
            "fields": [],
            "renameMatch": "content",
        }
    ]
    by_task = {task["taskId"]: task for task in report["affectedTasks"]}
    assert by_task["order.get.items"]["headExpected"] == "fetch_order"
    assert by_task["order.get.items"]["runnable"] is True
    rerun = {row["taskId"]: row for row in report["rerun"]["tasks"]}
    # The renamed tool is still found under its new name: the rename moved nothing.
    assert rerun["order.get.items"]["headCorrect"] == rerun["order.get.items"]["baseCorrect"] > 0


@pytest.mark.slow
def test_a_rename_with_a_reworded_description_is_matched_by_similarity(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    reworded = lab_description("get_order").replace("Return one order", "Return a single order")
    head = edited(
        LAB,
        tmp_path / "head.json",
        {"get_order": {"name": "fetch_order", "description": reworded}},
    )
    _, report = surface_diff(cli_env, str(LAB), str(head))
    [change] = report["changes"]
    assert (change["kind"], change["renameMatch"], change["fields"]) == (
        "renamed",
        "similarity",
        ["description"],
    )
    assert 0.8 <= change["similarity"] < 1
    assert report["affectedTasks"] == [] and report["taskSet"] is None


@pytest.mark.slow
def test_a_description_edit_names_the_tasks_it_can_affect(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    new = "Full-text search over orders: match a query against item names and notes."
    head = edited(LAB, tmp_path / "head.json", {"search_orders": {"description": new}})
    code, report = surface_diff(cli_env, str(LAB), str(head), "--tasks", str(LAB_TASKS))
    assert code == 0 and report["rerun"] is None
    [change] = report["changes"]
    assert change["kind"] == "changed" and change["fields"] == ["description"]
    assert change["descriptionBefore"] == lab_description("search_orders")
    assert change["descriptionAfter"] == new
    # The confusable partner is the pair inspect scores on the base surface.
    inspected = cli("inspect", str(LAB), "--format", "json", env=cli_env)
    pairs = json.loads(inspected.stdout)["overlap"]["pairs"]
    inspect_score = next(
        p["score"] for p in pairs if set(p["tools"]) == {"list_orders", "search_orders"}
    )
    base_partners = [p for p in report["partners"] if p["side"] == "base"]
    assert [(p["changed"], p["partner"]) for p in base_partners] == [
        ("search_orders", "list_orders")
    ]
    assert base_partners[0]["score"] == pytest.approx(inspect_score, abs=1e-4)
    partners = {p["partner"] for p in report["partners"]}
    expected = task_ids(LAB_TASKS, {"search_orders", *partners, None})
    assert [task["taskId"] for task in report["affectedTasks"]] == expected
    assert report["unaffectedTasks"] == 10 - len(expected)
    reasons = {task["taskId"]: task["reasons"] for task in report["affectedTasks"]}
    assert any(
        "confusable with changed `search_orders`" in r for r in reasons["orders.list.customer"]
    )
    text = cli("surface-diff", str(LAB), str(head), "--tasks", str(LAB_TASKS), env=cli_env)
    assert "orders.search.query: expects search_orders (changed description)" in text.stdout
    markdown = cli(
        "surface-diff", str(LAB), str(head), "--tasks", str(LAB_TASKS), "--format", "markdown",
        env=cli_env,
    )  # fmt: skip
    assert markdown.stdout.startswith("## Surface diff\n")
    assert "- orders.search.query: expects `search_orders` (changed description)" in markdown.stdout


def brute_force_p(changes: list[Fraction]) -> float:
    """Two-sided sign-flip p-value over every one of the 2^n sign assignments."""
    observed = abs(sum(changes, Fraction(0)))
    extreme = 0
    for signs in itertools.product((1, -1), repeat=len(changes)):
        flipped = sum((s * c for s, c in zip(signs, changes, strict=True)), Fraction(0))
        extreme += abs(flipped) >= observed
    return float(Fraction(extreme, 2 ** len(changes)))


def full_run(path: Path, out: Path, env: dict[str, str]) -> dict[str, Any]:
    result = cli(
        "run", str(path), "--tasks", str(LAB_TASKS), *KEYWORD, "--format", "json",
        "--out", str(out), env=env,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return dict(json.loads(out.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_the_paired_rerun_equals_two_full_runs_counted_by_hand(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    head = edited(
        LAB,
        tmp_path / "head.json",
        {
            "cancel_order": {"description": lab_description("refund_payment")},
            "refund_payment": {"description": lab_description("cancel_order")},
            "get_order": {"description": "Weather lookup for a warehouse."},
        },
    )
    args = (str(LAB), str(head), "--tasks", str(LAB_TASKS), *KEYWORD)
    code, report = surface_diff(cli_env, *args, "--max-accuracy-drop", "0")
    assert code == 1
    assert report["gate"]["failed"] is True and report["gate"]["failures"]
    rerun = report["rerun"]
    affected = [task["taskId"] for task in report["affectedTasks"]]
    assert [row["taskId"] for row in rerun["tasks"]] == affected
    assert rerun["trialsPerSide"] == 5 * len(affected)

    base_run = full_run(LAB, tmp_path / "base-run.json", cli_env)
    head_run = full_run(head, tmp_path / "head-run.json", cli_env)
    changes: list[Fraction] = []
    for task in affected:
        before = [t for t in base_run["trials"] if t["taskId"] == task]
        after = {t["trialIndex"]: t for t in head_run["trials"] if t["taskId"] == task}
        flips = [
            int(after[t["trialIndex"]]["verdict"] == "correct") - int(t["verdict"] == "correct")
            for t in before
        ]
        changes.append(Fraction(sum(flips), len(flips)))
    paired = rerun["paired"]
    assert paired["tasks"] == len(affected)
    assert paired["regressed"] == sum(1 for c in changes if c < 0) == 3
    assert paired["improved"] == sum(1 for c in changes if c > 0)
    assert paired["meanDelta"] == pytest.approx(float(sum(changes)) / len(changes))
    assert paired["pValue"] == pytest.approx(brute_force_p(changes))
    values = [float(c) for c in changes]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    # Student t, 5 degrees of freedom, 97.5th percentile: 2.5706 (table value).
    low = mean - 2.5706 * sd / math.sqrt(len(values))
    assert paired["ci95"][0] == pytest.approx(max(-1.0, low), abs=1e-3)

    # The same regression fails --fail-on-regression only when it is distinguishable.
    gated = cli("surface-diff", *args, "--fail-on-regression", env=cli_env)
    assert gated.returncode == (1 if paired["distinguishable"] else 0), gated.stderr


@pytest.mark.slow
def test_identical_surfaces_change_nothing_and_rerun_nothing(cli_env: dict[str, str]) -> None:
    args = (str(LAB), str(LAB), "--tasks", str(LAB_TASKS), *KEYWORD, "--fail-on-regression")
    code, report = surface_diff(cli_env, *args)
    assert code == 0
    assert report["changes"] == [] and report["affectedTasks"] == []
    assert report["unchangedTools"] == 6 and report["unaffectedTasks"] == 10
    assert report["rerun"] is None and report["notes"]


@pytest.mark.slow
def test_a_public_surface_added_and_removed_tools_are_not_rerun(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    document = json.loads(GIT.read_text(encoding="utf-8"))
    first, second = document["tools"][0], document["tools"][1]
    removed = first["name"]
    document["tools"] = [
        {**tool, "description": "Brand-new behaviour nobody had before."}
        if tool is second
        else tool
        for tool in document["tools"]
        if tool is not first
    ]
    document["tools"].append(
        {"name": "git_bisect", "description": "Bisect.", "inputSchema": {"type": "object"}}
    )
    head = tmp_path / "git-head.json"
    head.write_text(json.dumps(document), encoding="utf-8")
    args = (str(GIT), str(head), "--tasks", str(GIT_TASKS), *KEYWORD)
    refused = cli("surface-diff", *args, env=cli_env)
    assert refused.returncode == 2 and "--max-tools 12" in refused.stderr
    code, report = surface_diff(cli_env, *args, "--max-tools", "20")
    assert code == 0
    kinds = {(c["kind"], c["baseName"] or c["headName"]) for c in report["changes"]}
    assert ("removed", removed) in kinds and ("added", "git_bisect") in kinds
    assert ("changed", second["name"]) in kinds
    blocked = [t for t in report["affectedTasks"] if not t["runnable"]]
    assert blocked and all(t["expected"] == removed for t in blocked)
    rerun_ids = {row["taskId"] for row in report["rerun"]["tasks"]}
    assert rerun_ids == {t["taskId"] for t in report["affectedTasks"] if t["runnable"]}
    schema = json.loads((DEFAULT_FOLDER / "surface-diff.schema.json").read_text("utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(report)) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("LAB",), "needs exactly 2 snapshot files, got 1"),
        (("LAB", "missing.json"), "Cannot read snapshot"),
        (("LAB", "broken.json"), "broken.json"),
        (("LAB", "LAB", "--provider", "keyword"), "it needs --tasks FILE"),
        (("LAB", "LAB", "--fail-on-regression"), "they need --tasks FILE and --provider"),
        (("LAB", "LAB", "--tasks", "missing.yaml"), "missing.yaml"),
        (("LAB", "LAB", "--repeat", "3"), "--repeat applies to the re-run"),
        (("LAB", "LAB", "--max-accuracy-drop", "2"), "--max-accuracy-drop"),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...], message: str, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    (tmp_path / "broken.json").write_text('{"tools": [', encoding="utf-8")
    names = {"LAB": str(LAB)}
    out = tmp_path / "diff.json"
    given = [names.get(arg, str(tmp_path / arg) if arg.endswith((".json", ".yaml")) else arg)
             for arg in args]  # fmt: skip
    result = cli("surface-diff", *given, "--out", str(out), env=cli_env)
    assert result.returncode == 2, result.stderr
    first, *rest = result.stderr.splitlines()
    assert first.startswith("whichtool-tui: ")
    assert message in first
    assert "Traceback" not in result.stderr and len(rest) <= 1
    assert not out.exists()
