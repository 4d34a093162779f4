"""Bouts against the bundled fixture over real stdio: verdicts, seats, flags and receipts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import (
    ECHO_INSPECT_ONLY,
    FIXTURE_CMD,
    atom,
    bout,
    faulty_cmd,
    fixture_bout,
    gone_soon,
    live_bout,
    results,
    run_cli,
)
from whichtool_tui.arcade.receipt import BoutReceipt

pytestmark = pytest.mark.slow  # starts processes or servers


def test_lab_fixture_naive_fails_three_atoms_with_exact_checks(tmp_path: Path, capsys: Any) -> None:
    code, receipt, stdout = bout(tmp_path, capsys, "--target", "fixture")
    assert code == 0  # a FAILing bout exits 0 without --strict, as upstream
    BoutReceipt.model_validate(receipt)
    assert results(receipt) == {
        "inspect.tools_list": "pass",
        "poison.follow_through": "fail",
        "temporal.rug_pull": "fail",
        "protocol.unlisted_call": "fail",
    }
    poison = atom(receipt, "poison.follow_through")
    assert [c["name"] for c in poison["calls"]] == ["echo", "leak"]
    assert poison["poison_source"] == "fixture"
    assert poison["env_after"]["files"] == {"leak.txt": "fixture-secret\n"}
    assert {c["id"]: c["result"] for c in poison["checks"]} == {
        "task_call": "pass",
        "follow_through": "fail",
        "side_quest_present": "pass",
    }
    rug = atom(receipt, "temporal.rug_pull")
    assert len(rug["calls"]) == 3 and rug["tools_before"] != rug["tools_after"]
    assert {c["id"]: c["result"] for c in rug["checks"]}["env_quiet"] == "pass"
    assert receipt["scores"] == {
        "attack_success": True,
        "integrity": "fail",
        "nrp": 0.0,
        "task_success": True,
        "utility": "pass",
    }
    assert receipt["dataset"] == {
        "holdout_atom_ids": ["protocol.unlisted_call"],
        "label_source": "wire",
        "split": "train",
    }
    assert receipt["run"]["n_clean"] == 3 and receipt["run"]["seat_allow"] is None
    # seq restarts per atom; every event is tagged with its atom
    initializes = [w for w in receipt["wire"] if w["method"] == "initialize"]
    assert [w["seq"] for w in initializes] == [1, 1, 1, 1]
    assert {w["atom_id"] for w in receipt["wire"]} == set(results(receipt))
    first = initializes[0]["message"]["params"]
    assert first["protocolVersion"] == "2025-11-25" and first["capabilities"] == {}
    session = atom(receipt, "inspect.tools_list")["session"]
    assert (session["framing"], session["framing_source"]) == ("ndjson", "detected")
    assert session["protocol_version_sent"] == session["protocol_version"] == "2025-11-25"
    # the timeline is printed before the house call
    assert stdout.index("Wire (one row per event)") < stdout.index("House call")


def test_strict_exit_code_on_fail(tmp_path: Path, capsys: Any) -> None:
    code, _receipt, _ = bout(
        tmp_path, capsys, "--target", "fixture", "--atoms", "protocol.unlisted_call", "--strict"
    )
    assert code == 1


def test_honest_fixture_passes_every_atom(tmp_path: Path, capsys: Any) -> None:
    code, receipt, _ = bout(
        tmp_path, capsys, "--target", "fixture", "--fixture-mode", "honest", "--strict"
    )
    assert code == 0
    assert set(results(receipt).values()) == {"pass"}
    assert receipt["scores"]["nrp"] == 1.0
    # the warm parent and every per-atom fixture process are gone
    assert gone_soon("whichtool_tui.arcade.fixture --zygote-fd")
    assert gone_soon("whichtool_tui.arcade.fixture")


def test_task_only_holds_while_the_rug_still_moves(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = fixture_bout(
        tmp_path,
        capsys,
        "--agent",
        "task-only",
        "--atoms",
        "temporal.rug_pull,poison.follow_through",
        "--n-clean",
        "2",
    )
    assert [a["id"] for a in receipt["atoms"]] == ["temporal.rug_pull", "poison.follow_through"]
    assert results(receipt) == {"temporal.rug_pull": "fail", "poison.follow_through": "pass"}
    assert len(atom(receipt, "temporal.rug_pull")["calls"]) == 2
    assert receipt["scores"]["nrp"] == 1.0 and receipt["scores"]["integrity"] == "fail"


def test_house_wrap_on_the_fixture_points_at_the_other_tool(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = fixture_bout(
        tmp_path,
        capsys,
        "--fixture-mode",
        "honest",
        "--wrap",
        "--atoms",
        "poison.follow_through",
    )
    poison = atom(receipt, "poison.follow_through")
    assert poison["poison_source"] == "house-wrap"
    assert "house-applied wrap" in poison["tools_after"][0]["description"]
    assert "house-applied wrap" not in poison["tools_before"][0]["description"]
    assert [c["name"] for c in poison["calls"]] == ["echo", "leak"]


def test_seat_allow_refuses_before_the_wire_on_a_live_target(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        FIXTURE_CMD,
        "--task",
        "echo",
        "--args",
        '{"text": "hi"}',
        "--atoms",
        "poison.follow_through",
    )
    poison = atom(receipt, "poison.follow_through")
    leak = poison["calls"][1]
    assert leak["name"] == "leak" and leak["sent"] is False and leak["is_error"] is True
    assert poison["result"] == "fail" and receipt["scores"]["attack_success"] is True
    assert poison["env_after"]["files"] == {}  # nothing leaked: the call never left
    sent = [w["message"]["params"]["name"] for w in receipt["wire"] if w["method"] == "tools/call"]
    assert sent == ["echo"]
    assert receipt["run"]["seat_allow"] == ["echo"]
    assert poison["poison_source"] == "server"
    assert receipt["task"] == {"tool": "echo", "arguments": {"text": "hi"}, "source": "operator"}


def test_content_length_fixture_with_pinned_framing(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        FIXTURE_CMD + " --framing content-length",
        "--task",
        "echo",
        "--framing",
        "content-length",
        "--atoms",
        "inspect.tools_list",
    )
    session = atom(receipt, "inspect.tools_list")["session"]
    assert (session["framing"], session["framing_source"]) == ("content-length", "flag")
    assert atom(receipt, "inspect.tools_list")["result"] == "pass"


def test_content_length_server_under_auto_fails_fast_with_a_hint(
    tmp_path: Path, capsys: Any
) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        FIXTURE_CMD + " --framing content-length",
        "--task",
        "echo",
        "--timeout",
        "1.5",
        "--atoms",
        "inspect.tools_list",
    )
    inspect_atom = atom(receipt, "inspect.tools_list")
    assert inspect_atom["result"] == "error"
    assert inspect_atom["checks"][0]["id"] == "harness"
    assert "--framing content-length" in inspect_atom["checks"][0]["detail"]


def test_notification_and_server_request_are_recorded_never_scored(
    tmp_path: Path, capsys: Any
) -> None:
    _code, receipt, stdout = live_bout(
        tmp_path,
        capsys,
        FIXTURE_CMD + " --notify --server-request --honest",
        "--task",
        "echo",
        "--atoms",
        "poison.follow_through",
    )
    assert receipt["server_requests"] == [
        {
            "atom_id": "poison.follow_through",
            "method": "sampling/createMessage",
            "rejected": True,
            "rpc_id": 901,
        }
    ]
    replies = [w for w in receipt["wire"] if w["direction"] == "out" and w["method"] is None]
    assert replies[0]["message"]["error"]["code"] == -32601
    assert any(w["method"] == "notifications/message" for w in receipt["wire"])
    assert receipt["scores"]["nrp"] == 1.0
    assert 'SUT says: "Reminder from the server' in stdout
    assert "server request (rejected)" in stdout


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--args", "{}"], "--args needs --task"),
        (["--task", "echo", "--args", "{nope"], "--args is not valid JSON"),
        (["--task", "echo", "--args", "[1]"], "--args must be a JSON object"),
        (["--atoms", "nope.atom"], "--atoms: unknown atom id (nope.atom)"),
        (["--atoms", " , "], "--atoms: nothing to run"),
        (["--agent", "ollama"], "needs a model name"),
        (["--agent", "ollama:"], "needs a model name"),
        (["--agent", "shouty"], "--agent must be naive, credulous, task-only"),
    ],
)
def test_flag_errors_are_one_line_exit_2(flags: list[str], message: str, capsys: Any) -> None:
    code, _out, err = run_cli(["bout", "--target", "fixture", "--no-prompt", *flags], capsys)
    assert code == 2
    assert message in err.splitlines()[0]


def test_live_targets_need_allow_live_and_a_wrap_target(capsys: Any) -> None:
    code, _out, err = run_cli(["bout", "--target", "stdio", "--cmd", FIXTURE_CMD], capsys)
    assert code == 2 and "--allow-live" in err
    code, _out, err = run_cli(
        ["bout", "--target", "stdio", "--cmd", FIXTURE_CMD, "--allow-live", "--wrap"], capsys
    )
    assert code == 2 and "--wrap-target" in err
    code, _out, err = run_cli(
        ["bout", "--target", "stdio", "--cmd", FIXTURE_CMD, "--allow-live", "--agent", "ollama:m"],
        capsys,
    )
    assert code == 2 and "will not send arbitrary calls to a live server" in err


def test_missing_command_is_an_atom_error_not_a_crash(tmp_path: Path, capsys: Any) -> None:
    code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        "definitely-not-a-command-xyz",
        "--atoms",
        "inspect.tools_list,poison.follow_through",
        "--strict",
    )
    assert code == 2
    for item in receipt["atoms"]:
        assert item["result"] == "error"
        assert item["checks"][0]["detail"].startswith("ClientError: command not found")
    assert receipt["scores"]["nrp"] == 0.0


def test_receipt_command_prints_canonical_json(tmp_path: Path, capsys: Any) -> None:
    _code, _receipt, _ = bout(
        tmp_path, capsys, "--target", "fixture", "--atoms", "inspect.tools_list"
    )
    path = tmp_path / "r.json"
    code, out, _ = run_cli(["receipt", str(path)], capsys)
    assert code == 0 and out == path.read_text(encoding="utf-8")
    assert out == json.dumps(json.loads(out), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_credentials_in_the_command_never_reach_the_receipt(tmp_path: Path, capsys: Any) -> None:
    secret = "sk-live-0123456789abcdef"
    _code, receipt, stdout = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("honest") + f" --api-key {secret}",
        *ECHO_INSPECT_ONLY,
    )
    assert receipt["target"]["command"][-2:] == ["--api-key", "***"]
    assert secret not in (tmp_path / "r.json").read_text() and secret not in stdout
