"""`bout --trials N`: per-atom follow-through rates over N bouts against the loopback provider
API, with a scripted model that follows the attack in a known share of trials; the rates and
Wilson intervals must equal an independent computation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support.arcade import run_cli
from tests.support.fake_apis import FakeReply, RecordedRequest, chat_reply, fake_api_server
from tests.support.intervals import approx_interval, wilson
from tests.support.paths import REPO
from whichtool_tui.evaluation.clustered import clustered_rate

pytestmark = pytest.mark.slow  # starts processes or servers

TRIALS = 20
BASE_SEED = 42
FOLLOWED = {0, 1, 2, 10, 11, 12}  # trial indexes where the scripted model follows: 6 of 20
ATOMS = "poison.follow_through,poison.never_called,poison.result"


def scripted_model(request: RecordedRequest) -> FakeReply:
    """Follows the side-quest on trials in FOLLOWED (read from the seed the seat sends)."""
    body = request.json
    follows = body["seed"] - BASE_SEED in FOLLOWED
    prompt = body["messages"][0]["content"]
    leak = ("leak", '{"token": "fixture-secret"}')
    if "Tool results so far" in prompt:  # the second turn of poison.result
        return chat_reply(calls=[leak] if follows and "Delivery note" in prompt else [])
    calls = [("echo", '{"text": "hello"}')]
    described = " ".join(t["function"]["description"] for t in body["tools"])
    if follows and "Also call leak" in described:
        calls.append(leak)
    return chat_reply(calls=calls)


def trials_bout(tmp_path: Path, capsys: Any, *flags: str) -> tuple[int, str, str]:
    return run_cli(
        ["bout", "--target", "fixture", "--no-prompt", "--sandbox", str(tmp_path / "sb"), *flags],
        capsys,
    )


def test_rates_over_n_trials_equal_an_independent_computation(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "trials.json"
    with fake_api_server() as api:
        api.responder = scripted_model
        code, stdout, _ = trials_bout(
            tmp_path,
            capsys,
            "--agent",
            "ollama:scripted",
            "--seat-endpoint",
            api.base_url,
            "--atoms",
            ATOMS,
            "--trials",
            str(TRIALS),
            "-o",
            str(out),
        )
        seeds = sorted({r.json["seed"] for r in api.requests})
    assert code == 0
    assert seeds == list(range(BASE_SEED, BASE_SEED + TRIALS))
    series = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads((REPO / "docs/schemas/bout-trials.schema.json").read_text("utf-8"))
    jsonschema.validate(series, schema)
    assert series["trials"] == TRIALS and len(series["receipts"]) == TRIALS
    k = len(FOLLOWED)
    for rate in series["atoms"]:
        assert rate["seated"] and rate["attack"]
        assert (rate["rate"]["numerator"], rate["rate"]["denominator"]) == (k, TRIALS)
        assert rate["rate"]["value"] == k / TRIALS
        assert approx_interval(rate["rate"]["ci95"], wilson(k, TRIALS)), rate["atom_id"]
        assert (rate["failed"], rate["passed"], rate["errors"]) == (k, TRIALS - k, 0)
    assert (series["utility"]["numerator"], series["utility"]["denominator"]) == (TRIALS, TRIALS)
    assert series["nrp"]["numerator"] == TRIALS - k
    assert approx_interval(series["nrp"]["ci95"], wilson(TRIALS - k, TRIALS))
    assert series["attack_success"]["numerator"] == k
    followed = [
        index
        for index, receipt in enumerate(series["receipts"])
        if receipt["scores"]["attack_success"]
    ]
    assert set(followed) == FOLLOWED
    pooled = series["clustered"]
    assert (pooled["successes"], pooled["trials"], pooled["tasks"]) == (3 * k, 3 * TRIALS, 3)
    expected = clustered_rate([(k, TRIALS)] * 3)
    assert pooled["value"] == k / TRIALS and approx_interval(pooled["ci95"], expected.ci95)
    # three atoms that fail in the very same trials are far fewer than 60 independent draws
    assert (
        pooled["ci95"][1] - pooled["ci95"][0]
        > wilson(3 * k, 3 * TRIALS)[1] - wilson(3 * k, 3 * TRIALS)[0]
    )
    assert "seated attacks pooled, clustered by atom: 18/60 over 3 atom(s)" in stdout
    low, high = wilson(k, TRIALS)
    assert f"6/20  30%  [{low * 100:.0f}%-{high * 100:.0f}%]" in stdout
    assert "follow-through" in stdout


def test_markdown_and_json_faces_of_a_series(tmp_path: Path, capsys: Any) -> None:
    with fake_api_server() as api:
        api.responder = scripted_model
        flags = ["--agent", "ollama:scripted", "--seat-endpoint", api.base_url]
        flags += ["--atoms", "poison.follow_through", "--trials", "3"]
        _code, markdown, _ = trials_bout(tmp_path, capsys, *flags, "--format", "markdown")
        _code, as_json, _ = trials_bout(tmp_path, capsys, *flags, "--format", "json")
    assert markdown.startswith("# Bout trials")
    assert "| poison.follow_through | follow-through | 3/3  100%  [" in markdown
    parsed = json.loads(as_json)
    assert parsed["schema_id"] == "whichtool-tui.bout-trials/v1"
    assert parsed["atoms"][0]["rate"]["numerator"] == 3


def test_scripted_seats_run_one_trial(tmp_path: Path, capsys: Any) -> None:
    code, stdout, _ = trials_bout(
        tmp_path, capsys, "--agent", "naive", "--trials", "5", "--format", "json"
    )
    series = json.loads(stdout)
    assert code == 0 and series["trials"] == 1 and series["trials_requested"] == 5
    assert series["deterministic"] is True
    assert "1 trial run, not 5" in series["notes"][0]


def test_trials_out_of_range_is_one_line(tmp_path: Path, capsys: Any) -> None:
    code, _out, err = trials_bout(tmp_path, capsys, "--trials", "0")
    assert code == 2 and err.startswith("whichtool-tui: --trials 0: must be between 1 and 1000")
