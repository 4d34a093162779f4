"""`bout --defence`: every atom behind two small proxies (tests/support/arcade_proxies.py),
over real stdio, and without them; the table's outcomes are each produced for real."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support import paths
from tests.support.arcade import run_cli
from tests.support.arcade_proxies import tool_hash
from tests.support.paths import REPO
from whichtool_tui.arcade.atoms import ATOM_IDS
from whichtool_tui.arcade.fixture import FixtureState, FixtureSwitches

pytestmark = pytest.mark.slow  # starts processes or servers

PROXY = paths.ARCADE_PROXIES
SCHEMA = json.loads((REPO / "docs/schemas/conformance.schema.json").read_text(encoding="utf-8"))


def conformance(tmp_path: Path, capsys: Any, proxy: str, *flags: str) -> dict[str, Any]:
    out = tmp_path / "conformance.json"
    code, stdout, err = run_cli(
        [
            "bout",
            "--target",
            "fixture",
            "--allow-live",
            "--no-prompt",
            "--sandbox",
            str(tmp_path / "sb"),
            "--defence",
            f"{sys.executable} {PROXY} {proxy} -- {{target}}",
            "-o",
            str(out),
            *flags,
        ],
        capsys,
    )
    assert code == 0, err
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(report, SCHEMA)
    assert report["schema_id"] == "whichtool-tui.conformance/v1"
    assert "Conformance of" in stdout
    return report


def table(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {row["atom_id"]: (row["attack"], row["honest"]) for row in report["atoms"]}


def test_a_forwarding_proxy_lets_every_attack_through(tmp_path: Path, capsys: Any) -> None:
    report = conformance(tmp_path, capsys, "forward")
    rows = table(report)
    assert list(rows) == list(ATOM_IDS)
    assert rows.pop("inspect.tools_list") == ("no_attack", "clean")
    assert set(rows.values()) == {("passed_through", "clean")}
    assert report["summary"] == {
        "blocked": 0,
        "passed_through": 15,
        "no_attack": 1,
        "not_reached": 0,
        "error": 0,
        "false_alarm": 0,
    }
    receipts = report["receipts"]
    assert set(receipts) == {"lab", "lab_defended", "honest", "honest_defended"}
    defended = receipts["lab_defended"]
    assert defended["target"]["command"][:2] == [sys.executable, str(PROXY)]
    assert defended["run"]["defence"] == defended["target"]["command"]
    assert receipts["lab"]["run"]["defence"] is None
    assert {a["result"] for a in receipts["honest_defended"]["atoms"]} == {"pass"}


def test_a_pinning_proxy_blocks_the_changes_and_nothing_else(tmp_path: Path, capsys: Any) -> None:
    report = conformance(tmp_path, capsys, "pin")
    rows = table(report)
    blocked = {"temporal.rug_pull", "temporal.rename", "protocol.unlisted_call"}
    for atom_id in blocked:
        assert rows[atom_id] == ("blocked", "clean"), atom_id
    poisoned = {"poison.follow_through", "poison.never_called", "poison.parameter"}
    poisoned |= {"poison.result", "identity.bait_switch", "encoding.hidden"}
    for atom_id in poisoned:
        assert rows[atom_id] == ("passed_through", "clean"), atom_id
    rename = next(r for r in report["atoms"] if r["atom_id"] == "temporal.rename")
    assert rename["results"] == {
        "lab": "fail",
        "lab_defended": "pass",
        "honest": "pass",
        "honest_defended": "pass",
    }
    assert report["summary"]["false_alarm"] == 0


@pytest.fixture
def poisoned_pins(tmp_path: Path) -> Path:
    """Pins approved while the server was poisoned: echo's poisoned definition, nothing else."""
    menu = FixtureState(FixtureSwitches(poison=True)).tools()
    echo = next(t for t in menu if t["name"] == "echo")
    pins = tmp_path / "pins.json"
    pins.write_text(json.dumps({"echo": tool_hash(echo)}), encoding="utf-8")
    return pins


def test_stale_pins_block_the_call_at_the_proxy_and_raise_false_alarms(
    tmp_path: Path, capsys: Any, poisoned_pins: Path
) -> None:
    report = conformance(
        tmp_path,
        capsys,
        f"pin --pins {poisoned_pins}",
        "--atoms",
        "inspect.tools_list,poison.follow_through",
    )
    rows = {row["atom_id"]: row for row in report["atoms"]}
    errand = rows["poison.follow_through"]
    assert errand["attack"] == "blocked"
    assert errand["attack_detail"] == "the seat asked for leak; the call never reached the server"
    defended = next(
        a for a in report["receipts"]["lab_defended"]["atoms"] if a["id"] == errand["atom_id"]
    )
    assert [(c["name"], c["is_error"]) for c in defended["calls"]] == [
        ("echo", False),
        ("leak", True),
    ]
    assert defended["env_after"] == defended["env_before"]
    assert errand["honest"] == "false_alarm"
    assert rows["inspect.tools_list"]["honest"] == "false_alarm"
    assert (
        rows["inspect.tools_list"]["honest_detail"] == "honest pass became fail behind the defence"
    )
    assert report["summary"]["false_alarm"] == 2


def test_defence_flag_refusals(tmp_path: Path, capsys: Any) -> None:
    base = ["bout", "--no-prompt", "--sandbox", str(tmp_path / "sb")]
    cases = [
        (["--target", "fixture", "--defence", "proxy {target}"], "pass --allow-live"),
        (["--target", "fixture", "--allow-live", "--defence", "proxy --"], "needs {target}"),
        (
            ["--target", "stdio", "--cmd", "x", "--allow-live", "--defence", "p {target}"],
            "use --target fixture",
        ),
    ]
    for flags, message in cases:
        code, _out, err = run_cli([*base, *flags], capsys)
        assert code == 2 and message in err.splitlines()[0], (flags, err)


def test_a_deny_all_proxy_is_not_credited_with_attacks_it_never_saw(
    tmp_path: Path, capsys: Any
) -> None:
    rows = table(conformance(tmp_path, capsys, "deny"))
    for temporal in ("temporal.rug_pull", "temporal.rename", "temporal.sleeper"):
        assert rows[temporal][0] == "not_reached"  # no clean call got through: no rug to pull
    assert rows["poison.follow_through"][0] == "blocked"  # the seat asked; the call never left
