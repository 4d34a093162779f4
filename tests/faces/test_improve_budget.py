"""`improve`'s caps count the whole loop, through the installed binary.

A paid loop is refused before anything is sent when every run it can make (tuning, held-out
base, one held-out run per candidate) does not fit --max-trials, and the refusal and the dry run
name that whole count; an offline loop costs nothing and has no cap, so the public git surface
runs with the defaults. A loopback API records every request, so "nothing sent" is observed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.support.cli import run_headless
from tests.support.fake_apis import FakeApi, fake_api_server
from tests.support.improve import is_rewrite, keyword_model
from tests.support.mcp_session import server_env
from tests.support.paths import REPO

pytestmark = pytest.mark.slow  # runs the binary; a loopback API listens

LAB = REPO / "snapshots" / "demo-lab.json"
LAB_TASKS = REPO / "snapshots" / "demo-lab.improve.tasks.yaml"
GIT = REPO / "snapshots" / "git.json"
GIT_TASKS = REPO / "snapshots" / "git.improve.tasks.yaml"
# The demo at --repeat 1: 9 tuning + 9 held-out base trials, one model rewrite per tool (6)
# measured on the 9 held-out tasks.
LAB_PARTS = "tuning 9 + held-out base 9 + 6 candidate(s) x 9"


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        server.responder = keyword_model("chat", {})
        yield server


def _paid(api: FakeApi, *extra: str) -> list[str]:
    return [
        "improve", str(LAB), "--tasks", str(LAB_TASKS), "--provider", "openai-compatible",
        "--model", "m", "--base-url", api.base_url + "/v1", "--repeat", "1", *extra,
    ]  # fmt: skip


def test_offline_loop_on_a_public_surface_needs_no_cap_flags() -> None:
    done = run_headless(
        "improve", str(GIT), "--tasks", str(GIT_TASKS), "--format", "json", env=server_env()
    )
    assert done.returncode == 0, done.stderr
    assert "improve: keyword is offline: no trial or tool cap applies" in done.stderr
    report = json.loads(done.stdout)
    assert report["repeat"] == 5 and any(c["accepted"] for c in report["candidates"])
    # 12 tools (the run default refuses past 6) and, counted over every candidate's held-out
    # run, far more trials than even the hard per-run ceiling of 1,000.
    held_out = len(report["split"]["heldOut"]) * report["repeat"]
    measured = [c for c in report["candidates"] if c["measurement"] is not None]
    assert held_out * (1 + len(measured)) > 1000


def test_a_paid_loop_over_its_cap_is_refused_before_anything_is_sent(api: FakeApi) -> None:
    refused = run_headless(*_paid(api), env=server_env())
    assert refused.returncode == 2
    first, hint = refused.stderr.splitlines()[:2]
    assert first == (
        f"whichtool-tui: improve can send 72 trials ({LAB_PARTS}), above the trial limit of 50"
    )
    assert "--max-trials 72" in hint and "Traceback" not in refused.stderr
    tools = run_headless(*_paid(api, "--max-tools", "5", "--max-trials", "72"), env=server_env())
    assert tools.returncode == 2
    assert "The surface has 6 tools, above the tool limit of 5" in tools.stderr
    hard = run_headless(*_paid(api, "--repeat", "20", "--max-trials", "1000"), env=server_env())
    assert hard.returncode == 2 and "stops at 1000" in hard.stderr
    assert api.requests == []  # every refusal came before the first request


def test_the_dry_run_names_the_whole_count_and_sends_nothing(api: FakeApi) -> None:
    dry = run_headless(*_paid(api, "--dry-run"), env=server_env())
    assert dry.returncode == 0, dry.stderr
    assert f"runs:      {LAB_PARTS}" in dry.stdout
    assert "trials:    at most 72, under --max-trials 50 and --max-tools 6" in dry.stdout
    assert "refused:   improve can send 72 trials" in dry.stdout
    assert "sends to:  provider openai-compatible: requests go to http://127.0.0.1" in dry.stdout
    offline = run_headless(
        "improve", str(GIT), "--tasks", str(GIT_TASKS), "--dry-run", env=server_env()
    )
    assert offline.returncode == 0
    assert "no cap: the provider is offline" in offline.stdout
    assert "runs:      tuning 70 + held-out base 70 + 70 per rule-based candidate" in offline.stdout
    assert api.requests == []


def test_a_narrowed_paid_loop_fits_and_sends_no_more_than_it_said(api: FakeApi) -> None:
    # One tool: 9 + 9 + 1 x 9 = 27 trials, exactly the cap; its rewrite differs, so it is measured.
    rewrite = {"description": "Find orders whose text mentions a word or phrase.", "title": None}
    api.responder = keyword_model("chat", {"search_orders": rewrite})
    done = run_headless(
        *_paid(api, "--tool", "search_orders", "--max-trials", "27", "--format", "json"),
        env=server_env(),
    )
    assert done.returncode == 0, done.stderr
    assert "improve: at most 27 trials on 6 tools" in done.stderr
    report = json.loads(done.stdout)
    assert [c["tool"] for c in report["candidates"]] == ["search_orders"]
    assert report["candidates"][0]["measurement"] is not None
    routing = [request for request in api.requests if not is_rewrite(request.json)]
    rewrites = [request for request in api.requests if is_rewrite(request.json)]
    assert len(routing) == 27 and len(rewrites) == 1
