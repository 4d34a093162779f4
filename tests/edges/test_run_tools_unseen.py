"""The model never saw the tools, and the run says so (issue 12, item 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.run_project import run_args, write_project
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.mark.parametrize(("prompt_tokens", "warned"), [(42, True), (400, False)])
def test_prompt_tokens_far_below_the_surface_estimate_are_a_finding(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    prompt_tokens: int,
    warned: bool,
) -> None:
    write_project(tmp_path)  # a surface the estimate puts at ~190 tokens
    monkeypatch.chdir(tmp_path)
    with fake_api_server() as api:
        # A server whose chat template drops `tools`: every trial abstains on a tiny prompt.
        api.responder = lambda request: chat_reply(text="I can't help", usage=(prompt_tokens, 5))
        code = main([*run_args(api.base_url, "--repeat", "1", "--no-cache", "--format", "json")])
    assert code in (0, 1)
    report = json.loads(capsys.readouterr().out)
    found = [d for d in report["diagnostics"] if d["code"] == "run/tools-not-seen"]
    assert bool(found) is warned
    if warned:
        assert "42 prompt tokens" in found[0]["message"]
        assert "never reached the model" in found[0]["message"]
