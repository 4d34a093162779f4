"""Golden projections of fixture bouts: what must not drift (UPDATE_GOLDENS=1 regenerates).

The projection keeps scores, atom verdicts, checks, calls, session facts and the wire's shape;
volatile fields (bout id, times, paths, versions, stderr, the probe nonce) never enter it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.arcade_support import bout

pytestmark = pytest.mark.slow  # starts processes or servers

GOLDEN = Path(__file__).resolve().parent / "golden" / "arcade"
_NONCE = re.compile(r"arcade\.unlisted\.[0-9a-f]{12}")


def projection(receipt: dict[str, Any]) -> dict[str, Any]:
    """The stable part of a receipt."""
    projected = {
        "schema_id": receipt["schema_id"],
        "agent_policy": receipt["agent_policy"],
        "scores": receipt["scores"],
        "dataset": receipt["dataset"],
        "atoms": [
            {
                "id": a["id"],
                "result": a["result"],
                "task": a["task"],
                "poison_source": a["poison_source"],
                "authorized_tools": a["authorized_tools"],
                "checks": [{"id": c["id"], "result": c["result"]} for c in a["checks"]],
                "calls": [
                    {k: c[k] for k in ("name", "arguments", "is_error", "sent")} for c in a["calls"]
                ],
                "env_after": a["env_after"],
                "session": {
                    k: a["session"][k]
                    for k in (
                        "framing",
                        "framing_source",
                        "protocol_version_sent",
                        "protocol_version",
                    )
                },
            }
            for a in receipt["atoms"]
        ],
        "wire": [
            [w["atom_id"], w["seq"], w["direction"], w["method"], w["rpc_id"]]
            for w in receipt["wire"]
        ],
        "server_requests": receipt["server_requests"],
    }
    return json.loads(_NONCE.sub("arcade.unlisted.<nonce>", json.dumps(projected)))


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
