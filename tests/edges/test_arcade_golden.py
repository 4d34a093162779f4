"""Golden projections of fixture bouts: what must not drift (UPDATE_GOLDENS=1 regenerates).

The projection keeps scores, atom verdicts, checks, calls, session facts and the wire's shape;
volatile fields (bout id, times, paths, versions, stderr, the probe nonce) never enter it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import ARCADE_GOLDEN as GOLDEN
from tests.support.arcade import bout, projection

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.mark.parametrize("agent", ["naive", "task-only"])
def test_fixture_bout_matches_golden(agent: str, tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = bout(tmp_path, capsys, "--target", "fixture", "--agent", agent)
    golden = GOLDEN / f"fixture-{agent}.json"
    actual = projection(receipt)
    if os.environ.get("UPDATE_GOLDENS") == "1":
        golden.write_text(json.dumps(actual, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    assert actual == json.loads(golden.read_text(encoding="utf-8"))


def test_the_two_dialects_differ_only_in_session_facts(tmp_path: Path, capsys: Any) -> None:
    _code, framed, _ = bout(
        tmp_path, capsys, "--target", "fixture", "--framing", "content-length", name="cl.json"
    )
    projected = projection(framed)
    assert {a["session"]["framing"] for a in projected["atoms"]} == {"content-length"}
    assert {a["session"]["framing_source"] for a in projected["atoms"]} == {"flag"}
    golden = json.loads((GOLDEN / "fixture-naive.json").read_text(encoding="utf-8"))
    for view in (projected, golden):
        for item in view["atoms"]:
            item.pop("session")
    assert projected == golden
