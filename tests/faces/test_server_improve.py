"""`improve_descriptions` through the real MCP protocol: the offline loop on the demo gives the
command line's decisions and patch, within the agent caps and with the CLI's error codes."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import jsonpatch
import pytest

from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.mcp_session import call, demo_workspace, mcp_session
from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes

TASKS = "demo-lab.improve.tasks.yaml"


def _workspace(folder: Path) -> Path:
    config = demo_workspace(folder)
    shutil.copy(SNAPSHOTS / TASKS, folder / TASKS)
    return config


def _cli_report(folder: Path, *extra: str) -> tuple[dict[str, Any], list[Any]]:
    out, patch = folder / "cli-report.json", folder / "cli-patch.json"
    argv = ["--no-ui", "improve", str(folder / "demo-lab.json"), "--tasks", str(folder / TASKS)]
    argv += ["--format", "json", "--out", str(out), "--patch-out", str(patch), *extra]
    assert main(argv) == 0
    return json.loads(out.read_text("utf-8")), json.loads(patch.read_text("utf-8"))


async def test_the_offline_loop_returns_the_clis_decisions_and_patch(tmp_path: Path) -> None:
    config = _workspace(tmp_path)
    async with mcp_session(tmp_path, config=config) as session:
        body = await call(session, "improve_descriptions", snapshot="demo-lab.json", tasks=TASKS)
    assert body["ok"] is True, body
    # The operator's log names where the prompts would go before anything is spent.
    log = (tmp_path / "server-stderr.log").read_text("utf-8")
    assert "whichtool-tui mcp: improve_descriptions: " in log
    data = body["data"]
    assert data["schemaVersion"] == "whichtool.mcp-improve-summary/1"
    assert data["provider"] == "keyword" and data["rewriter"] == "rules"
    assert data["baseRun"] is None and data["tuningFailures"] > 0  # it ran the tuning tasks
    report, patch = await asyncio.to_thread(_cli_report, tmp_path)
    # Same loop, same decisions, same patch as the command line.
    assert data["patch"] == patch == report["patch"] and patch
    assert data["surfaceHash"] == report["surfaceHash"]
    decided = {c["id"]: (c["accepted"], c["reason"]) for c in data["candidates"]}
    assert decided == {c["id"]: (c["accepted"], c["reason"]) for c in report["candidates"]}
    assert data["accepted"] >= 1 and data["rejected"] >= 1
    assert data["candidates"][0]["accepted"] is True  # accepted ones first
    for candidate in data["candidates"]:
        held = candidate["heldOut"]
        full = next(c for c in report["candidates"] if c["id"] == candidate["id"])["measurement"]
        assert held["accuracyBefore"] == full["accuracyBefore"]
        assert held["accuracyAfter"] == full["accuracyAfter"]
        assert held["tokenGrowth"] == full["tokenGrowth"]
        if candidate["accepted"]:
            assert held["targetedPaired"]["meanDelta"] > 0
    assert f"{data['accepted']} of {len(report['candidates'])} candidate" in body["summary"]
    # The patch applies with an independent RFC 6902 library and moves only descriptions.
    original = json.loads((tmp_path / "demo-lab.json").read_text("utf-8"))
    patched = jsonpatch.JsonPatch(data["patch"]).apply(original)
    accepted = {c["tool"]: c["descriptionAfter"] for c in data["candidates"] if c["accepted"]}
    assert {t["name"]: t["description"] for t in patched["tools"] if t["name"] in accepted} == (
        accepted
    )


async def test_seed_and_caps_reach_the_loop_and_over_cap_values_are_named(
    tmp_path: Path,
) -> None:
    config = _workspace(tmp_path)
    async with mcp_session(tmp_path, config=config) as session:
        seeded = await call(
            session,
            "improve_descriptions",
            snapshot="demo-lab.json",
            tasks=TASKS,
            seed=3,
            repeat=2,
            maxTokenGrowth=0.05,
        )
        over = await call(session, "improve_descriptions", tasks=TASKS, repeat=21)
        busy = await call(session, "improve_descriptions", tasks=TASKS, concurrency=17)
        share = await call(session, "improve_descriptions", tasks=TASKS, holdoutShare=0.99)
    data = seeded["data"]
    assert data["seed"] == 3 and data["repeat"] == 2
    assert data["patch"] == [] and data["accepted"] == 0  # every rewrite grows past 5%
    assert over["error"]["code"] == busy["error"]["code"] == "mcp/limit-exceeded"
    assert "outside 1-20" in over["error"]["message"]
    assert share["error"]["code"] == "mcp/invalid-arguments"


async def test_refusals_use_the_clis_codes_and_the_operators_rules(tmp_path: Path) -> None:
    config = _workspace(tmp_path)
    other = tmp_path / "other.json"
    snapshot = json.loads((tmp_path / "demo-lab.json").read_text("utf-8"))
    snapshot["tools"] = snapshot["tools"][:-1]
    other.write_text(json.dumps(snapshot), encoding="utf-8")
    async with mcp_session(tmp_path, config=config) as session:
        unknown = await call(session, "improve_descriptions", tasks=TASKS, tools=["nope"])
        override = await call(session, "improve_descriptions", tasks=TASKS, provider="openai")
        outside = await call(session, "improve_descriptions", snapshot="../x.json", tasks=TASKS)
        blocked = await call(session, "improve_descriptions", snapshot="other.json", tasks=TASKS)
    async with mcp_session(tmp_path, ["--allow-provider-overrides"], config=config) as session:
        paid = await call(session, "improve_descriptions", tasks=TASKS, provider="openai")
    # The same code as `improve --tool nope` and `improve` on a task set the surface lacks.
    assert unknown["error"]["code"] == "cli/bad-arguments"
    assert "--tool nope: the snapshot serves no such tool" in unknown["error"]["message"]
    assert blocked["error"]["code"] == "tasks/invalid"
    assert override["error"]["code"] == "mcp/provider-override-disabled"
    assert outside["error"]["code"].startswith("mcp/")
    assert paid["error"]["code"] == "mcp/paid-run-disabled"


async def test_a_paid_improve_holds_the_paid_slot_and_cancel_stops_it(tmp_path: Path) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(calls=[("get_order", "{}")]).slow(1.0)
        provider = {
            "name": "openai-compatible",
            "model": "fake-model",
            "baseUrl": api.base_url + "/v1",
        }
        config = demo_workspace(tmp_path, provider)
        shutil.copy(SNAPSHOTS / TASKS, tmp_path / TASKS)
        # repeat 3: 27 tuning + 27 held-out base + 6 tools x 27, the whole loop under the cap.
        flags = ["--allow-paid-runs", "--allow-provider-overrides", "--max-trials", "216"]
        async with mcp_session(tmp_path, flags, config=config) as session:
            outcome: dict[str, object] = {}

            async def paid_improve() -> None:
                outcome["improve"] = await call(
                    session,
                    "improve_descriptions",
                    tasks=TASKS,
                    provider="openai-compatible",
                    repeat=3,
                    concurrency=1,
                )

            async with anyio.create_task_group() as group:
                group.start_soon(paid_improve)
                with anyio.fail_after(20):
                    while not api.requests:  # noqa: ASYNC110 - filled by the API's thread
                        await anyio.sleep(0.02)
                busy = await call(session, "run_evaluation", repeat=1)
                group.cancel_scope.cancel()  # the client sends notifications/cancelled
            seen = len(api.requests)
            await anyio.sleep(2.5)  # a loop still going would have sent two more requests
            after_cancel = len(api.requests)
            api.responder = lambda request: chat_reply(calls=[("get_order", "{}")])
            again = await call(session, "run_evaluation", repeat=1)
    assert "improve" not in outcome
    assert busy["error"]["code"] == "mcp/run-busy"  # one paid slot, shared with run_evaluation
    assert after_cancel <= seen + 1  # at most the request in flight when it was cancelled
    assert again["data"]["execution"]["scored"] == 10  # the slot was released


async def test_an_offline_loop_has_no_cap_and_a_paid_one_counts_every_candidate(
    tmp_path: Path,
) -> None:
    with fake_api_server() as api:
        provider = {"name": "openai-compatible", "model": "m", "baseUrl": api.base_url + "/v1"}
        config = demo_workspace(tmp_path, provider)
        for name in (TASKS, "git.json", "git.improve.tasks.yaml"):
            shutil.copy(SNAPSHOTS / name, tmp_path / name)
        flags = ["--allow-paid-runs", "--allow-provider-overrides", "--max-trials", "100"]
        async with mcp_session(tmp_path, flags, config=config) as session:
            # 12 tools and 32 held-out runs of 70 trials: past both caps, but it costs nothing.
            offline = await call(
                session,
                "improve_descriptions",
                snapshot="git.json",
                tasks="git.improve.tasks.yaml",
                tools=["git_status", "git_add"],
            )
            paid = await call(
                session,
                "improve_descriptions",
                provider="openai-compatible",
                tasks=TASKS,
                repeat=2,
            )
            paid_plan = await call(
                session,
                "improve_descriptions",
                provider="openai-compatible",
                tasks=TASKS,
                repeat=2,
                dryRun=True,
            )
            offline_plan = await call(
                session,
                "improve_descriptions",
                snapshot="git.json",
                tasks="git.improve.tasks.yaml",
                dryRun=True,
            )
        assert api.requests == []
    assert offline["ok"] is True, offline
    assert offline["data"]["accepted"] >= 1
    assert paid["error"]["code"] == "run/trial-limit"
    # 18 tuning + 18 held-out base + one model rewrite per tool (6) x 18.
    assert paid["error"]["message"] == (
        "improve can send 144 trials (tuning 18 + held-out base 18 + 6 candidate(s) x 18), "
        "above the trial limit of 100"
    )
    # The dry run names the same sum and the refusal a real run would meet, and sends nothing.
    plan = paid_plan["data"]
    assert paid_plan["ok"] is True and plan["schemaVersion"] == "whichtool.mcp-improve-plan/1"
    assert (plan["tuningTrials"], plan["heldOutTrials"], plan["maxCandidates"]) == (18, 18, 6)
    assert plan["totalTrials"] == 144 and plan["maxTrials"] == 100
    assert plan["refused"] == paid["error"]["message"]
    assert "requests go to http://127.0.0.1" in plan["destination"]
    assert "Dry run: at most 144 trials" in paid_plan["summary"]
    free = offline_plan["data"]
    assert free["paid"] is False and free["totalTrials"] is None and free["refused"] is None
    assert free["maxTrials"] is None and free["tools"] == 12
    log = (tmp_path / "server-stderr.log").read_text("utf-8")
    assert "improve_descriptions: improve: keyword is offline: no trial or tool cap applies" in log


def _saved_run(folder: Path, snapshot: str, name: str, *extra: str) -> Path:
    out = folder / name
    argv = ["--no-ui", "run", str(folder / snapshot), "--tasks", str(folder / TASKS)]
    argv += ["--provider", "keyword", "--format", "json", "--out", str(out), "--no-cache"]
    assert main([*argv, "--max-trials", "100", *extra]) == 0
    return out


async def test_a_base_run_supplies_the_tuning_failures_as_on_the_command_line(
    tmp_path: Path,
) -> None:
    config = _workspace(tmp_path)
    base = await asyncio.to_thread(_saved_run, tmp_path, "demo-lab.json", "base-run.json")
    other = tmp_path / "other.json"
    snapshot = json.loads((tmp_path / "demo-lab.json").read_text("utf-8"))
    snapshot["tools"][0]["description"] += " Changed."
    other.write_text(json.dumps(snapshot), encoding="utf-8")
    await asyncio.to_thread(_saved_run, tmp_path, "other.json", "other-run.json")
    skip = ("--skip", "hard")  # a run of part of the task set: some tuning tasks never ran
    await asyncio.to_thread(_saved_run, tmp_path, "demo-lab.json", "partial-run.json", *skip)
    (tmp_path / "not-a-run.json").write_text('{"schemaVersion": "nope"}', encoding="utf-8")
    async with mcp_session(tmp_path, config=config) as session:
        with_run = await call(session, "improve_descriptions", tasks=TASKS, baseRun="base-run.json")
        mismatch = await call(
            session, "improve_descriptions", tasks=TASKS, baseRun="other-run.json"
        )
        partial = await call(
            session, "improve_descriptions", tasks=TASKS, baseRun="partial-run.json"
        )
        missing = await call(session, "improve_descriptions", tasks=TASKS, baseRun="none.json")
        broken = await call(session, "improve_descriptions", tasks=TASKS, baseRun="not-a-run.json")
        outside = await call(
            session, "improve_descriptions", tasks=TASKS, baseRun="../base-run.json"
        )
    assert with_run["ok"] is True, with_run
    data = with_run["data"]
    report, patch = await asyncio.to_thread(_cli_report, tmp_path, "--base-run", str(base))
    assert report["baseRun"] == "base-run.json"
    # The same decisions and patch as `improve --base-run` on the command line.
    assert data["patch"] == patch and patch
    decided = {c["id"]: (c["accepted"], c["reason"]) for c in data["candidates"]}
    assert decided == {c["id"]: (c["accepted"], c["reason"]) for c in report["candidates"]}
    assert data["baseRun"] == "base-run.json"
    assert data["tuningFailures"] == len(report["tuningFailures"]) > 0
    assert mismatch["error"]["code"] == "improve/base-run-mismatch"
    assert "other-run.json was made on another surface" in mismatch["error"]["message"]
    assert "--base-run" not in mismatch["error"]["hint"]  # an agent has no such flag
    assert partial["error"]["code"] == "improve/base-run-mismatch"
    assert "partial-run.json never ran the tuning task" in partial["error"]["message"]
    assert missing["error"]["code"] == "mcp/file-not-found"
    assert broken["error"]["code"] == "run/unsupported-schema"
    assert outside["error"]["code"] == "mcp/path-outside-workspace"
