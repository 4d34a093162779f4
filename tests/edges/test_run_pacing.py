"""Adaptive concurrency against a loopback API that rate-limits: a 429 storm slows the run and
it completes; Retry-After is honoured; the limit is cut and regrown but never exceeded; a
5xx without Retry-After still fails its trial at once, and endless 429s end as errors."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from tests.support.fake_apis import FakeReply, RecordedRequest, chat_reply, fake_api_server
from tests.support.run_project import run_args, write_project
from whichtool_tui.cli import main
from whichtool_tui.evaluation.pacing import RATE_LIMIT_RETRIES, Pacer
from whichtool_tui.evaluation.plan import TaskSpec, plan_trials
from whichtool_tui.evaluation.runner import RunnerSettings, run_plan
from whichtool_tui.providers.base import ToolSpec
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.http import parse_retry_after

pytestmark = pytest.mark.slow  # starts loopback servers


def too_many(retry_after: str = "0") -> FakeReply:
    return FakeReply(
        429, {"error": {"message": "rate limited"}}, headers=(("retry-after", retry_after),)
    )


class Storm:
    """The first ``count`` requests are refused with 429; the server also counts how many
    requests it held at once."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen = 0
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> FakeReply:
        with self.lock:
            self.seen += 1
            refused = self.seen <= self.count
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if refused:
                return too_many()
            time.sleep(0.02)
            return chat_reply(calls=[("read_file", '{"path": "a"}')])
        finally:
            with self.lock:
                self.in_flight -= 1


def test_a_429_storm_slows_the_run_and_it_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    storm = Storm(count=20)
    with fake_api_server() as api:
        api.responder = storm
        code = main(
            run_args(
                api.base_url,
                "--repeat",
                "4",
                "--concurrency",
                "8",
                "--no-cache",
                "--max-error-rate",
                "0",
                "--format",
                "json",
                "--out",
                "run.json",
            )
        )
    report = json.loads(Path("run.json").read_text(encoding="utf-8"))
    assert code in (0, 1), report["execution"]
    assert report["execution"]["errored"] == 0 and report["execution"]["ok"] is True
    pacing = report["pacing"]
    assert pacing["rateLimitWaits"] == 20
    assert pacing["maxConcurrency"] == 8
    assert 1 <= pacing["lowestConcurrency"] < 8
    assert pacing["lowestConcurrency"] <= pacing["settledConcurrency"] <= 8
    assert storm.most_in_flight <= 8
    assert storm.seen == 16 + 20


def test_a_clean_run_has_no_pacing_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    with fake_api_server() as api:
        api.responder = Storm(count=0)
        main(run_args(api.base_url, "--no-cache", "--format", "json", "--out", "run.json"))
    assert "pacing" not in json.loads(Path("run.json").read_text(encoding="utf-8"))


TOOLS = (ToolSpec("read_file", "Read a file.", {"type": "object"}),)


async def _run(api_url: str, pacer: Pacer, repeat: int = 1) -> list[object]:
    provider = build_provider("openai-compatible", "m", api_url + "/v1", env={})
    plan = plan_trials([TaskSpec("t", "Read the file", "read_file")], ["read_file"], repeat=repeat)
    try:
        return list(
            await run_plan(
                plan,
                provider,
                {t.name: t for t in TOOLS},
                RunnerSettings(concurrency=2),
                pacer=pacer,
            )
        )
    finally:
        await provider.aclose()


async def test_retry_after_is_honoured_and_cuts_the_limit_once_per_burst() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    with fake_api_server() as api:
        api.queue(too_many("7"), too_many("3"), chat_reply(calls=[("read_file", "{}")]))
        pacer = Pacer(4, sleep=sleep)
        outcomes = await _run(api.base_url, pacer)
    assert slept == [7.0, 3.0]
    assert pacer.waits == 2
    assert pacer.lowest == 1  # 4 -> 2 -> 1: each retry was sent after the last cut
    assert pacer.current == 2  # one clean answer at a limit of 1 grows it by one
    assert all(o.error is None for o in outcomes)


async def test_a_5xx_without_retry_after_fails_its_trial_at_once() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    with fake_api_server() as api:
        api.queue(FakeReply(503, {"error": {"message": "down"}}))
        pacer = Pacer(2, sleep=sleep)
        outcomes = await _run(api.base_url, pacer)
    assert slept == [] and pacer.waits == 0
    assert outcomes[0].error is not None


async def test_endless_429s_end_as_the_trial_error() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    with fake_api_server() as api:
        api.responder = lambda _request: too_many()
        pacer = Pacer(2, sleep=sleep)
        outcomes = await _run(api.base_url, pacer)
        sent = len(api.requests)
    assert len(slept) == RATE_LIMIT_RETRIES and sent == RATE_LIMIT_RETRIES + 1
    error = outcomes[0].error
    assert error is not None and "429" in error.message


async def test_clean_answers_grow_the_limit_back_but_never_past_it() -> None:
    pacer = Pacer(4)
    async with pacer.slot() as generation:
        pacer.rate_limited(generation)
        pacer.rate_limited(generation)  # the same burst: one cut
    assert pacer.current == 2
    for _ in range(40):
        pacer.succeeded()
    assert pacer.current == 4


def test_retry_after_takes_seconds_or_an_http_date() -> None:
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after("-3") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past: no wait
    later = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 3600))
    value = parse_retry_after(later)
    assert value is not None and 3500 < value <= 3600
