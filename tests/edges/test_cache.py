"""The trial cache: key, layout, atomic entries, misses on damage, hits at latency 0, CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.evaluation import make_inputs
from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.run_project import run_args, write_project
from whichtool_tui.cli import main
from whichtool_tui.evaluation.cache import (
    MAX_ENTRY_BYTES,
    TrialCache,
    cache_info,
    cache_key,
    format_size,
)
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import Call, TrialError, TrialUsage
from whichtool_tui.providers.base import Capabilities, ProviderIdentity, RouteRequest, ToolSpec
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.keyword import KeywordProvider
from whichtool_tui.providers.mock import MockProvider

pytestmark = pytest.mark.slow  # starts processes or servers

IDENTITY = ProviderIdentity(
    name="openai-compatible",
    model="m",
    endpoint="http://127.0.0.1:1/v1",
    request_fingerprint="f" * 64,
    capabilities=Capabilities(seed=True, temperature_zero=True),
)
TOOLS = (ToolSpec("a", "first", {"type": "object"}), ToolSpec("b", "second", {}))
REQUEST = RouteRequest(prompt="do a", tools=TOOLS, temperature=0.0, seed=7)


def test_key_is_stable_and_sensitive_to_what_changes_the_answer() -> None:
    key = cache_key(IDENTITY, REQUEST)
    assert key is not None and len(key) == 64
    assert cache_key(IDENTITY, replace(REQUEST, task_id="other", trial_index=3)) == key
    changed = [
        replace(REQUEST, prompt="do b"),
        replace(REQUEST, tools=TOOLS[::-1]),
        replace(REQUEST, temperature=0.5),
        replace(REQUEST, seed=8),
        replace(REQUEST, reasoning_effort="low"),
    ]
    assert len({cache_key(IDENTITY, request) for request in changed} | {key}) == 6
    assert cache_key(replace(IDENTITY, model="n"), REQUEST) != key
    no_seed = replace(IDENTITY, capabilities=Capabilities(seed=False))
    assert cache_key(no_seed, REQUEST) == cache_key(no_seed, replace(REQUEST, seed=8))
    assert cache_key(replace(IDENTITY, request_fingerprint=None), REQUEST) is None


def test_layout_roundtrip_and_damaged_entries_are_misses(tmp_path: Path) -> None:
    cache = TrialCache(tmp_path / "c")
    key = cache_key(IDENTITY, REQUEST)
    assert key is not None
    outcome = TrialOutcome(
        calls=(
            Call(name="a", arguments={"x": 1}),
            Call(name=None, arguments=None, raw_arguments="["),
        ),
        text="t",
        usage=TrialUsage(prompt_tokens=3, completion_tokens=1),
        latency_ms=812.5,
    )
    cache.put(key, outcome)
    path = tmp_path / "c" / "trials" / key[:2] / f"{key}.json"
    stored = json.loads(path.read_text())
    assert stored["originalLatencyMs"] == 812.5 and stored["callCount"] == 2
    assert stored["pick"] == "a" and stored["calls"][1]["rawArguments"] == "["
    hit = cache.get(key)
    assert hit is not None and hit.from_cache and hit.latency_ms == 0
    assert hit.calls == outcome.calls and hit.usage == outcome.usage
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp files left
    path.write_text("{not json")
    assert cache.get(key) is None
    path.write_text(json.dumps({**stored, "callCount": 5}))
    assert cache.get(key) is None
    path.write_bytes(b" " * (MAX_ENTRY_BYTES + 1))
    assert cache.get(key) is None
    cache.put(key, TrialOutcome.failed(TrialError(message="boom", retryable=True)))
    assert cache.get(key) is None  # errors are never cached


async def test_second_run_is_served_from_cache(tmp_path: Path) -> None:
    inputs = make_inputs(
        [TaskSpec("r", "read the file", "read_file"), TaskSpec("n", "tell a joke", None)]
    )
    cache = TrialCache(tmp_path)
    options = RunOptions(repeat=3)
    first = await run_evaluation(inputs, options, KeywordProvider(), cache=cache)
    assert cache.hits == 0 and cache_info(tmp_path).entries == 6
    second = await run_evaluation(inputs, options, KeywordProvider(), cache=cache)
    assert cache.hits == 6
    assert all(t.latency_ms == 0 for t in second.trials)
    hits = [d for d in second.diagnostics if d.code == "run/cache-hits"]
    assert len(hits) == 1 and hits[0].severity == "info" and "6 of 6" in hits[0].message
    assert [t.verdict for t in first.trials] == [t.verdict for t in second.trials]
    assert not any(d.code == "run/cache-hits" for d in first.diagnostics)


def test_cli_run_uses_cache_then_info_and_clear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WHICHTOOL_PROVIDER_API_KEY", raising=False)
    write_project(tmp_path)
    with fake_api_server() as api:
        args = run_args(api.base_url, "--repeat", "2", "--format", "json", "--cache-dir", "cc")
        api.responder = lambda _request: chat_reply(calls=[("search_code", '{"query": "q"}')])
        assert main(args) == 0
        assert len(api.requests) == 8
        assert main(args) == 0
        assert len(api.requests) == 8  # every answer came from the cache
    capsys.readouterr()
    assert main(["--no-ui", "cache", "info", "--dir", "cc"]) == 0
    stats = cache_info(tmp_path / "cc")
    assert capsys.readouterr().out == (
        f"location  cc\nentries   8\nsize      {format_size(stats.size_bytes)}\n"
        "batches   0 pending (run --resume-batch STATE)\n"
    )
    assert main(["--no-ui", "cache", "clear", "--dir", "cc"]) == 0
    assert capsys.readouterr().out == "Removed 8 cached trials from cc.\n"
    assert not (tmp_path / "cc" / "trials").exists()
    assert main(["--no-ui", "cache", "bogus"]) == 2
    assert "Unknown subcommand `cache bogus`" in capsys.readouterr().err


def test_size_formatting() -> None:
    assert format_size(0) == "0 B"
    assert format_size(1023) == "1023 B"
    assert format_size(1536) == "1.5 KB"
    assert format_size(5 * 1024 * 1024 + 1) == "5.0 MB"


def test_different_credentials_never_share_entries(tmp_path: Path) -> None:
    def identity(env: dict[str, str]) -> ProviderIdentity:
        return build_provider("openai-compatible", "m", "http://127.0.0.1:1/v1", env=env).identity

    first = identity({"WHICHTOOL_PROVIDER_API_KEY": "key-one-SECRET"})
    second = identity({"WHICHTOOL_PROVIDER_API_KEY": "key-two-SECRET"})
    keyless = identity({})
    assert first.request_fingerprint == second.request_fingerprint  # the report cannot tell
    cache = TrialCache(tmp_path)
    keys = {cache.key_for(who, REQUEST) for who in (first, second, keyless)}
    assert None not in keys and len(keys) == 3
    key = cache.key_for(first, REQUEST)
    assert key is not None
    cache.put(key, TrialOutcome(text="hello"))
    assert cache.get(key) is not None
    second_key = cache.key_for(second, REQUEST)
    assert second_key is not None and cache.get(second_key) is None
    assert "SECRET" not in repr(first)
    for path in tmp_path.rglob("*"):
        assert "SECRET" not in path.name
        assert not path.is_file() or b"SECRET" not in path.read_bytes()


def test_the_plain_mock_is_cached_under_a_fixed_key_and_a_scripted_one_never() -> None:
    plain = MockProvider().identity
    assert plain.request_fingerprint is None  # what the report records
    key = cache_key(plain, REQUEST)
    assert key is not None and key == cache_key(MockProvider().identity, REQUEST)
    assert cache_key(MockProvider(sequence=["a"]).identity, REQUEST) is None
