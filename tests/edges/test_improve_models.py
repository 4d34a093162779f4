"""The model path of `improve` against a real loopback HTTP server in the three API shapes.

The loopback "model" routes like the keyword baseline over the descriptions each request carries
and answers rewrite requests with scripted descriptions, so an accepted or rejected rewrite is a
measured one: the scripted text changes what later routing requests carry and what is picked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_apis import FakeApi, fake_api_server
from tests.support.improve import is_rewrite, keyword_model, rewrite_prompt_tool
from tests.support.paths import REPO
from whichtool_tui.cli import main
from whichtool_tui.improve.rewrite_request import REWRITE_SCHEMA, SCHEMA_NAME
from whichtool_tui.tasks.load import load_task_set

pytestmark = pytest.mark.slow  # a loopback server listens

LAB = REPO / "snapshots" / "demo-lab.json"
IMPROVE_TASKS = REPO / "snapshots" / "demo-lab.improve.tasks.yaml"
SEARCH = "List orders, newest first, that match a text query, with their status and total."
HELPFUL = {
    "search_orders": {
        "description": SEARCH + " Use it to find orders that mention a word or phrase.",
        "title": None,
    }
}
HARMFUL = {
    # Written like list_orders' task prompts: it draws the held-out list prompts to search_orders.
    "search_orders": {
        "description": "List every order a customer has placed, latest first, with their status.",
        "title": None,
    }
}
# A paid loop's cap counts the worst case up front: 9 tuning + 9 held-out base trials, then one
# model rewrite per tool (6) measured on the 9 held-out tasks, at --repeat 1.
PAID_LOOP_TRIALS = 9 + 9 + 6 * 9
SHAPES = {
    # shape: (provider, model, base-url suffix, key variable)
    "chat": ("openai-compatible", "local-model", "/v1", None),
    "responses": ("openai", "gpt-test", "/v1", "OPENAI_API_KEY"),
    "messages": ("anthropic", "claude-test", "", "ANTHROPIC_API_KEY"),
}


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        yield server


def run_improve(
    api: FakeApi,
    shape: str,
    rewrites: dict[str, dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    provider, model, suffix, key = SHAPES[shape]
    if key:
        monkeypatch.setenv(key, "sk-loopback-test")
    api.responder = keyword_model(shape, rewrites)
    patch_file = tmp_path / "patch.json"
    code = main(
        [
            "--no-ui", "improve", str(LAB), "--tasks", str(IMPROVE_TASKS),
            "--provider", provider, "--model", model, "--base-url", api.base_url + suffix,
            "--repeat", "1", "--format", "json", "--patch-out", str(patch_file),
            "--max-trials", str(PAID_LOOP_TRIALS),
        ]
    )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert f"improve: at most {PAID_LOOP_TRIALS} trials on 6 tools" in captured.err
    report = json.loads(captured.out)
    # The cap counts every run the loop makes: tuning, held-out base, one per measured candidate.
    measured = [c for c in report["candidates"] if c["measurement"] is not None]
    routing = [r for r in api.requests if not is_rewrite(r.json)]
    assert len(routing) == 9 + 9 + 9 * len(measured) <= PAID_LOOP_TRIALS
    return report, json.loads(patch_file.read_text(encoding="utf-8"))


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, unescaped (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def rewrite_requests(api: FakeApi) -> list[dict[str, Any]]:
    return [request.json for request in api.requests if is_rewrite(request.json)]


def check_shape(shape: str, body: dict[str, Any]) -> None:
    if shape == "chat":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": REWRITE_SCHEMA},
        }
        assert "tools" not in body
    elif shape == "responses":
        assert body["text"]["format"] == {
            "type": "json_schema", "name": SCHEMA_NAME, "strict": True, "schema": REWRITE_SCHEMA,
        }  # fmt: skip
        assert body["store"] is False and "tools" not in body
    else:
        assert body["tool_choice"] == {"type": "tool", "name": SCHEMA_NAME}
        assert [tool["input_schema"] for tool in body["tools"]] == [REWRITE_SCHEMA]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_scripted_rewrite_is_accepted_in_every_shape(
    api: FakeApi,
    shape: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    report, patch = run_improve(api, shape, HELPFUL, capsys, monkeypatch, tmp_path)
    assert report["rewriter"] == "model" and report["baseline"] is False
    requests = rewrite_requests(api)
    # One structured request per involved tool, each in the provider's own shape.
    asked = [rewrite_prompt_tool(body)[0] for body in requests]
    assert sorted(asked) == sorted({c["tool"] for c in report["candidates"]})
    assert len(asked) == len(set(asked))
    for body in requests:
        check_shape(shape, body)
    accepted = [c for c in report["candidates"] if c["accepted"]]
    assert [c["tool"] for c in accepted] == ["search_orders"]
    assert accepted[0]["descriptionAfter"] == HELPFUL["search_orders"]["description"]
    assert accepted[0]["measurement"]["targetedPaired"]["meanDelta"] > 0
    assert patch == [
        {
            "op": "replace",
            "path": "/tools/1/description",
            "value": HELPFUL["search_orders"]["description"],
        }
    ]
    # Tools whose reply kept the text are refused unmeasured, and say so.
    for candidate in report["candidates"]:
        if candidate["tool"] != "search_orders":
            assert candidate["measurement"] is None
            assert candidate["reason"] == "the reply keeps the description as it is"


@pytest.mark.parametrize("shape", list(SHAPES))
def test_held_out_prompts_never_reach_the_rewriter(
    api: FakeApi,
    shape: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    report, _ = run_improve(api, shape, HELPFUL, capsys, monkeypatch, tmp_path)
    tasks = {task.id: task for task in load_task_set(str(IMPROVE_TASKS)).task_set.tasks}
    held_out = [tasks[task_id].prompt for task_id in report["split"]["heldOut"]]
    tuning_failed = [f["prompt"] for f in report["tuningFailures"]]
    sent = ["\n".join(strings(body)) for body in rewrite_requests(api)]
    assert sent and tuning_failed
    for prompt in held_out:
        assert not any(prompt in text for text in sent), prompt
    # The failing tuning prompts did reach it (the check above is not vacuous).
    assert any(tuning_failed[0] in text for text in sent)
    # Held-out prompts did reach the router: they are what the measurement ran on.
    routed = ["\n".join(strings(r.json)) for r in api.requests if not is_rewrite(r.json)]
    assert all(any(p in text for text in routed) for p in held_out)


def test_a_harmful_rewrite_is_rejected_with_its_figures(
    api: FakeApi,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    report, patch = run_improve(api, "chat", HARMFUL, capsys, monkeypatch, tmp_path)
    candidate = next(c for c in report["candidates"] if c["tool"] == "search_orders")
    assert candidate["accepted"] is False
    measured = candidate["measurement"]
    assert measured["accuracyPaired"]["meanDelta"] < 0
    assert measured["accuracyPaired"]["regressed"] >= 1
    assert measured["accuracyAfter"]["value"] < measured["accuracyBefore"]["value"]
    assert "held-out accuracy fell" in candidate["reason"]
    assert patch == [] and report["final"] is None


def test_a_reply_that_renames_the_tool_is_refused(
    api: FakeApi,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    sneaky = {
        "search_orders": {
            "description": "Find orders by text.",
            "title": None,
            "name": "find_orders",
            "inputSchema": {"type": "object"},
        }
    }
    report, patch = run_improve(api, "chat", sneaky, capsys, monkeypatch, tmp_path)
    candidate = next(c for c in report["candidates"] if c["tool"] == "search_orders")
    assert candidate["accepted"] is False and candidate["measurement"] is None
    assert "`inputSchema`, `name`" in candidate["reason"]
    assert patch == []


def test_a_failing_rewrite_request_is_kept_as_a_refused_candidate(
    api: FakeApi,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    router = keyword_model("chat", {})

    def respond(request: Any) -> Any:
        from tests.support.fake_apis import chat_reply

        if is_rewrite(request.json):
            return chat_reply(text="this is not JSON")
        return router(request)

    api.responder = respond
    code = main(
        [
            "--no-ui", "improve", str(LAB), "--tasks", str(IMPROVE_TASKS),
            "--provider", "openai-compatible", "--model", "m", "--base-url", api.base_url + "/v1",
            "--repeat", "1", "--format", "json", "--max-trials", str(PAID_LOOP_TRIALS),
        ]
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["candidates"] and all(not c["accepted"] for c in report["candidates"])
    assert all("not JSON" in c["reason"] for c in report["candidates"])


def test_a_title_rewrite_is_a_replace_on_title_and_applies(
    api: FakeApi,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import jsonpatch

    titled = {"search_orders": {**HELPFUL["search_orders"], "title": "Search orders by their text"}}
    report, patch = run_improve(api, "responses", titled, capsys, monkeypatch, tmp_path)
    assert [op["path"] for op in patch] == ["/tools/1/title", "/tools/1/description"]
    candidate = next(c for c in report["candidates"] if c["accepted"])
    assert candidate["titleBefore"] == "Search orders"
    assert candidate["titleAfter"] == "Search orders by their text"
    original = json.loads(LAB.read_text(encoding="utf-8"))
    patched = jsonpatch.apply_patch(original, patch)
    assert patched["tools"][1]["title"] == "Search orders by their text"
    rest = [
        {k: v for k, v in t.items() if k not in ("title", "description")} for t in patched["tools"]
    ]
    assert rest == [
        {k: v for k, v in t.items() if k not in ("title", "description")} for t in original["tools"]
    ]
