"""Paid runs through the MCP server against a loopback Chat Completions API.

The `openai-compatible` provider counts as paid (it sends prompts over the network to a keyed
API), so these runs need --allow-paid-runs; only one may run at a time, and a client's
`notifications/cancelled` aborts it without leaving a result file behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from tests.support.fake_apis import FakeApi, FakeReply, RecordedRequest, chat_reply, fake_api_server
from tests.support.mcp_session import call, demo_workspace, mcp_session
from tests.support.places import PlatformDirs

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "sk-sentinel-never-echoed-0123456789"


def _provider(api: FakeApi) -> dict[str, str]:
    return {"name": "openai-compatible", "model": "fake-model", "baseUrl": api.base_url + "/v1"}


async def test_paid_run_with_the_operator_flag(tmp_path: Path) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(calls=[("list_orders", '{"customer_id":"1"}')])
        config = demo_workspace(tmp_path, _provider(api))
        result_file = tmp_path / "run.json"
        async with mcp_session(
            tmp_path,
            ["--allow-paid-runs", "--result-file", str(result_file)],
            config=config,
            env={"WHICHTOOL_PROVIDER_API_KEY": SECRET},
        ) as session:
            ran = await call(session, "run_evaluation", repeat=1, concurrency=2)
    data = ran["data"]
    assert data["provider"]["name"] == "openai-compatible"
    assert data["execution"]["scored"] == 10
    assert data["rates"]["accuracy"]["numerator"] == 1  # only the list_orders task is right
    assert len(api.requests) == 10
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in api.requests)
    assert api.requests[0].json["model"] == "fake-model"
    saved = result_file.read_text(encoding="utf-8")
    assert json.loads(saved)["reproducibility"]["provider"] == "openai-compatible"
    assert SECRET not in saved
    assert SECRET not in json.dumps(ran)
    assert SECRET not in (tmp_path / "server-stderr.log").read_text(encoding="utf-8")


async def _wait_for_requests(api: FakeApi, count: int) -> None:
    # The list is filled by the fake API's own thread, so there is no event to wait on.
    with anyio.fail_after(20):
        while len(api.requests) < count:  # noqa: ASYNC110
            await anyio.sleep(0.02)


async def test_one_paid_run_at_a_time_and_cancel_aborts_it(tmp_path: Path) -> None:
    with fake_api_server() as api:

        def slow(request: RecordedRequest) -> FakeReply:
            return chat_reply(calls=[("get_order", "{}")]).slow(1.0)

        api.responder = slow
        config = demo_workspace(tmp_path, _provider(api))
        result_file = tmp_path / "run.json"
        async with mcp_session(
            tmp_path, ["--allow-paid-runs", "--result-file", str(result_file)], config=config
        ) as session:
            outcome: dict[str, object] = {}

            async def first_run() -> None:
                outcome["first"] = await call(session, "run_evaluation", repeat=5, concurrency=1)

            async with anyio.create_task_group() as group:
                group.start_soon(first_run)
                await _wait_for_requests(api, 1)
                busy = await call(session, "run_evaluation", repeat=1)
                free = await call(session, "run_evaluation", repeat=1, dryRun=True)
                group.cancel_scope.cancel()  # the client sends notifications/cancelled
            assert "first" not in outcome
            seen = len(api.requests)
            await anyio.sleep(2.5)  # a run still going would have sent two more requests
            after_cancel = len(api.requests)
            cancelled_left_a_file = result_file.exists()
            api.responder = lambda request: chat_reply(calls=[("get_order", "{}")])
            again = await call(session, "run_evaluation", repeat=1)
    assert busy["error"]["code"] == "mcp/run-busy"
    assert free["ok"] is True  # dry runs are never blocked
    assert after_cancel <= seen + 1  # at most the request in flight when it was cancelled
    assert again["data"]["execution"]["scored"] == 10  # the latch was released
    assert cancelled_left_a_file is False
    assert json.loads(result_file.read_text(encoding="utf-8"))["reproducibility"]["repeat"] == 1


async def test_cache_only_with_the_operator_flag(
    tmp_path: Path, platform_dirs: PlatformDirs
) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(calls=[("get_order", "{}")])
        config = demo_workspace(tmp_path, _provider(api))
        env = {"WHICHTOOL_PROVIDER_API_KEY": SECRET}
        async with mcp_session(tmp_path, ["--allow-paid-runs"], config=config, env=env) as s:
            await call(s, "run_evaluation", repeat=1)
            await call(s, "run_evaluation", repeat=1)
        uncached = len(api.requests)
        cache_dir = tmp_path / "cache"
        flags = ["--allow-paid-runs", "--cache", "--cache-dir", str(cache_dir)]
        async with mcp_session(tmp_path, flags, config=config, env=env) as s:
            cold = await call(s, "run_evaluation", repeat=1)
            warm = await call(s, "run_evaluation", repeat=1)
        cached = len(api.requests) - uncached
    assert uncached == 20  # no cache by default: both runs asked the model
    assert not (tmp_path / ".whichtool-cache").exists()
    assert not platform_dirs.cache.exists()  # nor in the default folder
    assert cached == 10  # the second run was answered from the cache
    assert cold["data"]["execution"]["scored"] == warm["data"]["execution"]["scored"] == 10
    assert "run/cache-hits" in {d["code"] for d in warm["data"]["diagnostics"]}
    entries = list(cache_dir.rglob("*.json"))
    assert len(entries) == 10
    assert all(SECRET not in entry.read_text(encoding="utf-8") for entry in entries)
