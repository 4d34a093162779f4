"""`run --discovery deferred` end to end: the search step, the host's answer, the call step,
over real HTTP in the Chat Completions and Messages shapes, the keyword baseline, the cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_apis import (
    FakeReply,
    RecordedRequest,
    anthropic_reply,
    chat_reply,
    fake_api_server,
    responses_reply,
)
from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers

SURFACE = str(SNAPSHOTS / "demo-lab.json")
TASKS = str(SNAPSHOTS / "demo-lab.tasks.yaml")


def _tool_names(request: RecordedRequest) -> list[str]:
    tools = request.json.get("tools") or []
    return [tool["function"]["name"] if "function" in tool else tool["name"] for tool in tools]


def _prompt(request: RecordedRequest) -> str:
    if "input" in request.json:  # the Responses API
        return str(request.json["input"])
    content = request.json["messages"][0]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def _model(shape: str) -> Any:
    """A scripted model: it searches with the prompt, then calls the first tool offered; upfront
    it calls the last tool of the served order it was shown."""

    def reply(calls: list[tuple[str, dict[str, Any]]]) -> FakeReply:
        text = "" if calls else "None of these tools fits."
        if shape == "messages":
            return anthropic_reply(calls=calls, text=text)
        encoded = [(name, json.dumps(arguments)) for name, arguments in calls]
        if shape == "responses":
            return responses_reply(calls=encoded, text=text)
        return chat_reply(calls=encoded, text=text or None)

    def respond(request: RecordedRequest) -> FakeReply:
        names = _tool_names(request)
        if names == ["tool_search"]:
            if "distractor" in _prompt(request) or "ticket" in _prompt(request):
                return reply([])
            return reply([("tool_search", {"query": _prompt(request)})])
        return reply([(names[0], {})])

    return respond


def _run(tmp_path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "run.json"
    code = main(
        [
            "--no-ui",
            "run",
            SURFACE,
            "--tasks",
            TASKS,
            "--repeat",
            "1",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--format",
            "json",
            "--out",
            str(out),
            "--discovery",
            "deferred",
            *extra,
        ]
    )
    return code, json.loads(out.read_text())


@pytest.mark.parametrize("shape", ["chat", "messages", "responses"])
def test_deferred_run_records_both_steps_over_http(
    shape: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    if shape == "messages":
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
        provider = ["--provider", "anthropic", "--model", "fake-model"]
    elif shape == "responses":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
        provider = ["--provider", "openai", "--model", "fake-model"]
    else:
        provider = ["--provider", "openai-compatible", "--model", "fake-model"]
    with fake_api_server() as api:
        api.responder = _model(shape)
        base = api.base_url if shape == "messages" else api.base_url + "/v1"
        code, report = _run(tmp_path, *provider, "--base-url", base)
        requests = list(api.requests)
    assert code in (0, 1)
    block = report["discovery"]
    assert block["mode"] == "deferred" and block["retriever"] == "bm25"
    steps = {step["taskId"]: step for step in block["trials"]}
    mug = steps["orders.search.mug"]
    assert mug["querySource"] == "model" and mug["searched"] is True
    assert mug["query"] == "Find any orders that mention the blue ceramic mug."
    assert mug["searchCalls"][0]["name"] == "tool_search"
    assert mug["retrieved"] == ["get_order", "cancel_order", "list_orders", "search_orders"]
    assert mug["expectedRank"] == 4 and mug["found"] is True
    trials = {trial["taskId"]: trial for trial in report["trials"]}
    # Found, but not picked: the model took the first tool the search returned.
    assert trials["orders.search.mug"]["pick"] == "get_order"
    assert trials["order.cancel"]["verdict"] == "correct"
    assert steps["distractor.ticket"]["searched"] is False
    assert trials["distractor.ticket"]["verdict"] == "correct-abstention"
    assert block["found"]["numerator"] == 7 and block["picked"]["numerator"] == 6
    # The wire: a search step with the search tool alone, then the retrieved tools in rank order.
    search_steps = [r for r in requests if _tool_names(r) == ["tool_search"]]
    assert len(search_steps) == 10
    mug_calls = [r for r in requests if "mug" in _prompt(r)]
    assert [_tool_names(r) for r in mug_calls if len(_tool_names(r)) < 6] == [
        ["tool_search"],
        mug["retrieved"],
    ]
    # The upfront arm ran on the same plan with all six tools, and the comparison pairs tasks.
    upfront = [r for r in requests if len(_tool_names(r)) == 6]
    assert len(upfront) == 10
    comparison = block["comparison"]
    assert len(comparison["tasks"]) == 7
    assert comparison["improved"] + comparison["regressed"] + comparison["ties"] == 7
    assert len(block["upfront"]) == 10


def test_names_variant_lists_names_and_selects_by_name(tmp_path: Path) -> None:
    with fake_api_server() as api:

        def respond(request: RecordedRequest) -> FakeReply:
            names = _tool_names(request)
            if names == ["tool_search"]:
                described = request.json["tools"][0]["function"]["description"]
                assert "Deferred tools: " in described and "cancel_order" in described
                return chat_reply(calls=[("tool_search", '{"query": "select:cancel_order,nope"}')])
            return chat_reply(calls=[(names[0], "{}")])

        api.responder = respond
        provider = ["--provider", "openai-compatible", "--model", "fake-model"]
        flags = ["--base-url", api.base_url + "/v1", "--discovery-variant", "names"]
        code, report = _run(tmp_path, *provider, *flags, "--no-compare-upfront")
        sent = len(api.requests)
        _, again = _run(tmp_path, *provider, *flags, "--no-compare-upfront")
        assert len(api.requests) == sent == 20  # both steps of every trial came from the cache
    assert again["discovery"] == report["discovery"]
    assert code in (0, 1)
    block = report["discovery"]
    assert block["variant"] == "names" and "comparison" not in block
    assert all(step["retrieved"] == ["cancel_order"] for step in block["trials"])
    assert block["found"]["numerator"] == 1  # only order.cancel expects cancel_order


def test_keyword_baseline_searches_with_the_prompt_and_is_cached(tmp_path: Path) -> None:
    code, first = _run(tmp_path, "--provider", "keyword")
    assert code in (0, 1)
    steps = first["discovery"]["trials"]
    assert all(step["querySource"] == "prompt" for step in steps)
    assert first["discovery"]["found"]["numerator"] == 7
    code, second = _run(tmp_path, "--provider", "keyword")
    assert second["discovery"]["trials"] == steps
    assert any(finding["code"] == "run/cache-hits" for finding in second["diagnostics"])


def test_stray_deferred_flags_are_refused(capsys: Any) -> None:
    code = main(
        ["--no-ui", "run", SURFACE, "--tasks", TASKS, "--provider", "keyword", "--top-k", "3"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("whichtool-tui: --top-k applies to deferred discovery only")


def test_saved_deferred_run_renders_in_every_format(tmp_path: Path, capsys: Any) -> None:
    _, report = _run(tmp_path, "--provider", "keyword", "--retriever", "regex")
    saved = tmp_path / "run.json"
    for fmt, marker in (
        ("terminal", "Deferred discovery"),
        ("markdown", "### Deferred discovery"),
        ("html", "<h2>Deferred discovery</h2>"),
    ):
        assert main(["--no-ui", "report", str(saved), "--format", fmt]) in (0, 1)
        out = capsys.readouterr().out
        assert marker in out and "orders.search.mug" in out
        assert "paired by task" in out
    assert report["discovery"]["retriever"] == "regex"
