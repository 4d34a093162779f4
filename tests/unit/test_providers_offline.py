"""The offline providers: the scripted mock and the keyword baseline."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec, can_generate
from whichtool_tui.providers.keyword import ABSTAIN_TEXT, KeywordProvider, score_tools, terms
from whichtool_tui.providers.mock import (
    MOCK_ABSTAIN_TEXT,
    MockProvider,
    MockStep,
    MockTextProvider,
)

USERS = (
    ToolSpec("list_users", "List every user account, page by page.", {"type": "object"}),
    ToolSpec("search_users", "Search user accounts by name or email address.", {"type": "object"}),
    ToolSpec("get_user", "Get one user account by its numeric id.", {"type": "object"}),
    ToolSpec("count_users", "Count how many user accounts exist.", {"type": "object"}),
)


def request(prompt: str = "p", task: str | None = None, trial: int | None = None) -> RouteRequest:
    return RouteRequest(prompt, USERS, 0.0, 0, task_id=task, trial_index=trial)


async def test_cli_mock_abstains_with_the_upstream_text() -> None:
    mock = MockProvider()
    reply = await mock.route(request())
    assert reply.calls == () and reply.text == MOCK_ABSTAIN_TEXT
    assert reply.text == "the mock provider chooses nothing by default"
    assert not can_generate(mock)
    caps = mock.identity.capabilities
    assert (caps.seed, caps.temperature_zero, caps.logprobs, caps.disable_thinking) == (
        True,
        True,
        False,
        True,
    )


async def test_sequence_cycles_and_steps_cover_every_shape() -> None:
    mock = MockProvider(
        sequence=[
            "get_user",
            MockStep.multi("list_users", ("get_user", {"id": 3}), text="both"),
            MockStep.say("Which user?"),
            None,
            MockStep.fail("boom", retryable=True, hint="h"),
        ]
    )
    replies = []
    for _ in range(4):
        replies.append(await mock.route(request()))
    assert [c.name for c in replies[0].calls] == ["get_user"]
    assert replies[0].calls[0].arguments == {}
    assert [(c.name, c.arguments) for c in replies[1].calls] == [
        ("list_users", {}),
        ("get_user", {"id": 3}),
    ]
    assert replies[1].text == "both"
    assert (replies[2].calls, replies[2].text) == ((), "Which user?")
    assert (replies[3].calls, replies[3].text) == ((), "")
    with pytest.raises(ProviderError) as caught:
        await mock.route(request())
    assert (caught.value.message, caught.value.retryable, caught.value.hint) == ("boom", True, "h")
    again = await mock.route(request())
    assert [c.name for c in again.calls] == ["get_user"]


async def test_without_cycling_the_last_entry_repeats() -> None:
    mock = MockProvider(sequence=["get_user", "count_users"], cycle=False)
    names = [(await mock.route(request())).calls[0].name for _ in range(4)]
    assert names == ["get_user", "count_users", "count_users", "count_users"]


async def test_per_trial_beats_per_task_beats_responder() -> None:
    mock = MockProvider(
        by_trial={("t1", 2): "count_users"},
        by_task={"t1": "get_user", "t2": None},
        responder=lambda req: "search_users" if "find" in req.prompt else None,
    )
    picks = [
        (await mock.route(request(task="t1", trial=0))).calls,
        (await mock.route(request(task="t1", trial=2))).calls,
        (await mock.route(request(task="t2", trial=0))).calls,
        (await mock.route(request("find bob", task="t3", trial=0))).calls,
    ]
    assert [[c.name for c in calls] for calls in picks] == [
        ["get_user"],
        ["count_users"],
        [],
        ["search_users"],
    ]
    assert len(mock.requests) == 4


async def test_fixed_delay_is_real_and_reported() -> None:
    mock = MockProvider(sequence=["get_user"], delay_seconds=0.01)
    replies = await asyncio.gather(*(mock.route(request()) for _ in range(3)))
    assert all(r.latency_ms == 10.0 for r in replies)


async def test_text_mock_generates_scripted_drafts() -> None:
    mock = MockTextProvider(["draft one", ProviderError("provider/x", "nope")])
    assert can_generate(mock)
    assert await mock.generate("prompt", 0.7) == "draft one"
    with pytest.raises(ProviderError):
        await mock.generate("prompt", 0.7)
    assert mock.prompts == ["prompt", "prompt"]


def test_terms_split_names_stem_and_drop_stopwords() -> None:
    assert terms("Please LIST the users, listing accounts") == {"list", "user", "account"}
    assert terms("getHTTPStatus") == {"gethttpstatu"}


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("search for the account with email bob@example.com", "search_users"),
        ("how many users are there?", "count_users"),
        ("get the user whose numeric id is 42", "get_user"),
        ("list all users", "list_users"),
        ("what's the weather in Paris tomorrow", None),
        ("user account", None),  # shared by every tool: no distinctive term
    ],
)
async def test_keyword_baseline_picks(prompt: str, expected: str | None) -> None:
    baseline = KeywordProvider()
    reply = await baseline.route(request(prompt))
    if expected is None:
        assert reply.calls == ()
        assert reply.text == ABSTAIN_TEXT
    else:
        assert [(c.name, c.arguments) for c in reply.calls] == [(expected, {})]
        assert reply.text == ""


async def test_keyword_is_order_independent_and_deterministic() -> None:
    baseline = KeywordProvider()
    prompt = "count the user accounts by name"
    picks = set()
    for order in itertools.permutations(USERS):
        reply = await baseline.route(RouteRequest(prompt, tuple(order), 0.7, 9))
        picks.add(tuple(c.name for c in reply.calls))
    assert len(picks) == 1
    assert baseline.identity.is_baseline and baseline.identity.name == "keyword"


def test_keyword_ties_and_threshold_abstain() -> None:
    twins = (
        ToolSpec("alpha", "Reads the weather report.", {}),
        ToolSpec("beta", "Reads the weather report.", {}),
        ToolSpec("gamma", "Sends an email.", {}),
    )
    scores = score_tools("weather report please", twins)
    assert scores["alpha"] == scores["beta"] > 0 and scores["gamma"] == 0
    assert KeywordProvider().choose("weather report please", twins) is None
    strict = KeywordProvider(min_score=100.0)
    assert strict.choose("send an email", twins) is None
    assert KeywordProvider().choose("send an email", twins) == "gamma"
    assert strict.identity.request_fingerprint != KeywordProvider().identity.request_fingerprint
