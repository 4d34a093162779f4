"""`improve` says why it measured little: tools whose failing tuning prompts have no held-out
prompt are named before measuring (and in the dry run), the reason leads the report and its
JSON notes, and their candidates are skipped with nothing spent on them (a loopback API counts
every request)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.support.cli import run_headless
from tests.support.fake_apis import FakeApi, fake_api_server
from tests.support.improve import is_rewrite, keyword_model, rewrite_prompt_tool
from tests.support.mcp_session import server_env
from tests.support.paths import REPO

pytestmark = pytest.mark.slow  # runs the binary; a loopback API listens

GIT = REPO / "snapshots" / "git.json"
ONE_PER_TOOL = REPO / "snapshots" / "git.tasks.yaml"  # one prompt per tool, two distractors


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        server.responder = keyword_model("chat", {})
        yield server


def _paid(api: FakeApi, *extra: str) -> list[str]:
    return [
        "improve", str(GIT), "--tasks", str(ONE_PER_TOOL), "--provider", "openai-compatible",
        "--model", "m", "--base-url", api.base_url + "/v1", "--repeat", "1",
        "--max-trials", "1000", "--max-tools", "12", *extra,
    ]  # fmt: skip


def test_one_prompt_per_tool_names_the_unmeasurable_tools_and_spends_nothing_on_them(
    api: FakeApi,
) -> None:
    dry = run_headless(*_paid(api, "--dry-run"), env=server_env())
    assert dry.returncode == 0, dry.stderr
    assert "have no held-out prompt" in dry.stdout and api.requests == []
    done = run_headless(*_paid(api, "--format", "json"), env=server_env())
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    note = report["notes"][0]
    assert "have no held-out prompt" in note
    held = {task_id for task_id in report["split"]["heldOut"]}
    failing = [f["expected"] for f in report["tuningFailures"] if f["expected"] is not None]
    missing = [name for name in failing if name in note.split(": ", 1)[1]]
    assert missing, note
    # Said on stderr before any candidate was measured.
    lines = done.stderr.splitlines()
    said = next(i for i, line in enumerate(lines) if "no held-out prompt" in line)
    measured = [i for i, line in enumerate(lines) if line.startswith("candidate ")]
    assert all(said < i for i in measured)
    # Every rewrite asked for was measured: none was paid for and then found unmeasurable.
    rewritten = [rewrite_prompt_tool(r.json)[0] for r in api.requests if is_rewrite(r.json)]
    assert sorted(rewritten) == sorted(c["tool"] for c in report["candidates"])
    assert not any("cannot be measured" in c["reason"] for c in report["candidates"])
    # A tool with neither its own held-out prompt nor a measurable partner got no request.
    assert set(missing) - set(rewritten)
    assert any("skipped unmeasured" in n for n in report["notes"])
    assert held  # the split kept some tools measurable
    text = run_headless(*_paid(api), env=server_env())
    first = text.stdout.split("Tuning failures")[0]
    assert "have no held-out prompt" in first  # the reason leads the human report


VETO = REPO / "tests" / "fixtures" / "improve_veto"


def test_a_second_router_vetoes_a_rewrite_the_measuring_router_accepts(api: FakeApi) -> None:
    # The rewrite stuffs the words of another tool's requests into export_table: the keyword
    # router (presence of distinctive words, names weighted) still routes those requests right
    # and now also routes the held-out "dump that spreadsheet data", so it would accept; a BM25
    # tool search then ranks export_table above rotate_signing_keys for "rotate the signing
    # keys", which falls out of its top 5.
    overfit = {"description": "Dump a spreadsheet of data to rotate signing keys.", "title": None}
    api.responder = keyword_model("chat", {"export_table": overfit})
    done = run_headless(
        "improve", str(VETO / "surface.json"), "--tasks", str(VETO / "tasks.yaml"),
        "--provider", "openai-compatible", "--model", "m", "--base-url", api.base_url + "/v1",
        "--repeat", "1", "--seed", "2", "--max-trials", "1000", "--max-tools", "12",
        "--format", "json", env=server_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["split"]["heldOut"] == ["rotate.one", "export.dump", "export.csv2"]
    (candidate,) = [c for c in report["candidates"] if c["tool"] == "export_table"]
    assert not candidate["accepted"] and report["acceptedTools"] == []
    assert candidate["reason"].startswith(
        "vetoed by an independent router: bm25 search (k 5) fell from 3 to 2 of 3 held-out"
    )
    assert "improved the 2 held-out tasks expecting `export_table`" in candidate["reason"]
    assert report["patch"] == []
