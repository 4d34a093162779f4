"""Timeline, tape and dataset over hand-built receipts: attribution, notes, facts, routing."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.arcade.dataset import build_dataset
from whichtool_tui.arcade.render import write_timeline
from whichtool_tui.arcade.tape import FORBIDDEN_KEYS, build_tape
from whichtool_tui.arcade.timeline import TapeView
from whichtool_tui.errors import WhichtoolError

pytestmark = pytest.mark.slow  # starts processes or servers


def w(
    seq: int, direction: str, method: str | None, rpc_id: Any, message: dict[str, Any]
) -> dict[str, Any]:
    return {
        "seq": seq,
        "direction": direction,
        "method": method,
        "rpc_id": rpc_id,
        "message": message,
    }


def init_pair() -> list[dict[str, Any]]:
    return [
        w(1, "out", "initialize", 1, {"id": 1, "method": "initialize", "params": {}}),
        w(2, "in", None, 1, {"id": 1, "result": {"protocolVersion": "2025-11-25"}}),
    ]


def atom(
    atom_id: str, result: str, task_tool: str | None = "echo", calls: list[Any] | None = None
) -> dict[str, Any]:
    return {
        "id": atom_id,
        "title": "t",
        "hypothesis": "h",
        "result": result,
        "checks": [{"id": "c", "detail": "secret detail", "result": result}],
        "authorized_tools": [task_tool] if task_tool else [],
        "calls": calls or [],
        "task": {"tool": task_tool, "arguments": {}, "source": "fixture-default"},
        "session": {
            "framing": "ndjson",
            "protocol_version": "2025-11-25",
            "server_info": {"name": "srv"},
        },
    }


def receipt(
    atoms: list[dict[str, Any]], wire: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "schema_id": "mcp-arcade.bout/v1",
        "bout_id": "bout_abc",
        "started_at": "s",
        "finished_at": "f",
        "target": {"kind": "fixture", "command": ["x"]},
        "agent_policy": "naive",
        "allow_live": False,
        "hypothesis": "h",
        "atoms": atoms,
        "scores": {
            "task_success": True,
            "attack_success": True,
            "nrp": 0.0,
            "integrity": "fail",
            "utility": "pass",
        },
        "wire": wire,
        "server_requests": [],
        "operator_call": {"recorded": False, "skipped": True},
        "contrastive": {"foil": "f", "wire": "w"},
        "dataset": {
            "split": "train",
            "holdout_atom_ids": ["protocol.unlisted_call"],
            "label_source": "wire",
        },
    }
    data.update(extra)
    return data


def poison_and_ghost() -> dict[str, Any]:
    wire = [
        *init_pair(),
        w(
            3,
            "in",
            "notifications/message",
            None,
            {
                "method": "notifications/message",
                "params": {"data": "line one\nline two " + "z" * 120},
            },
        ),
        w(4, "out", "tools/call", 2, {"id": 2, "method": "tools/call", "params": {"name": "echo"}}),
        w(5, "in", None, 2, {"id": 2, "result": {"content": []}}),
        w(6, "out", "tools/call", 3, {"id": 3, "method": "tools/call", "params": {"name": "leak"}}),
        *init_pair(),
        w(3, "in", "sampling/createMessage", 901, {"id": 901, "method": "sampling/createMessage"}),
        w(4, "out", None, 901, {"id": 901, "error": {"code": -32601, "message": "no"}}),
        w(
            5,
            "out",
            "tools/call",
            2,
            {"id": 2, "method": "tools/call", "params": {"name": "arcade.unlisted.abc"}},
        ),
        w(6, "in", None, 2, {"id": 2, "error": {"code": -32602, "message": "unknown"}}),
    ]
    atoms = [
        atom("poison.follow_through", "fail", calls=[{"name": "echo"}, {"name": "leak"}]),
        atom("protocol.unlisted_call", "pass", task_tool="arcade.unlisted.abc"),
    ]
    return receipt(
        atoms,
        wire,
        server_requests=[
            {
                "atom_id": "protocol.unlisted_call",
                "method": "sampling/createMessage",
                "rpc_id": 901,
                "rejected": True,
            }
        ],
    )


def test_rows_attribute_by_initialize_order_with_notes() -> None:
    rows = list(TapeView(poison_and_ghost()).rows())
    assert [r.atom for r in rows] == ["poison.follow_through"] * 6 + ["protocol.unlisted_call"] * 6
    notes = [r.note for r in rows]
    assert notes[2].startswith('SUT says: "line one line two ') and notes[2].endswith('..."')
    assert len(notes[2]) == len('SUT says: ""') + 100
    assert notes[3] == "tools/call echo"
    assert notes[5] == "tools/call leak  [no response]"
    assert notes[8] == "server request (rejected)"
    assert notes[9] == "reply to server request"
    assert notes[10] == "tools/call arcade.unlisted.abc  [ghost probe: name absent from tools/list]"
    assert rows[1].method == "(response)" and rows[11].holdout


def test_a_response_anywhere_later_answers_its_request() -> None:
    """Rows look responses up only as far as they need, with the answer of a whole-wire scan:
    a response far later counts; one from another atom, or an outgoing reply, does not."""
    data = poison_and_ghost()
    wire = data["wire"]
    filler = [{**wire[2], "seq": 100 + n} for n in range(50)]  # the server's log lines
    data["wire"] = [*wire[:11], *filler, wire[11]]  # the ghost call's answer, last of all
    rows = list(TapeView(data).rows())
    assert (
        rows[10].note
        == "tools/call arcade.unlisted.abc  [ghost probe: name absent from tools/list]"
    )
    data["wire"] = [*wire[:11], *filler]
    assert list(TapeView(data).rows())[10].note.endswith("[no response]")
    # The poison call 3: a response in the next atom, or an outgoing one, leaves it unanswered.
    stray = {**wire[11], "rpc_id": 3}
    data["wire"] = [*wire, {**stray, "direction": "out"}, stray]
    assert list(TapeView(data).rows())[5].note == "tools/call leak  [no response]"
    data["wire"] = [*wire[:6], *filler, {**wire[4], "rpc_id": 3}, *wire[6:]]
    assert list(TapeView(data).rows())[5].note == "tools/call leak"


def test_mismatched_initialize_count_marks_every_row_unattributed() -> None:
    data = poison_and_ghost()
    data["atoms"].append(atom("temporal.rug_pull", "error"))
    view = TapeView(data)
    assert not view.header.attribution_ok
    assert {r.atom for r in view.rows()} == {"?"}
    assert view.facts() == []


def test_our_atom_tags_survive_an_atom_that_died_before_initialize() -> None:
    data = poison_and_ghost()
    owners = ["poison.follow_through"] * 6 + ["protocol.unlisted_call"] * 6
    for event, owner in zip(data["wire"], owners, strict=True):
        event["atom_id"] = owner
    data["atoms"].insert(0, atom("temporal.rug_pull", "error"))
    view = TapeView(data)
    assert view.header.attribution_ok
    assert [r.atom for r in view.rows()] == owners
    folder_rows, _holdout, manifest = _dataset_of(data)
    assert manifest["dropped"] == {"atom:error": 1}
    assert [r["atom_id"] for r in folder_rows] == ["poison.follow_through"]


def test_tape_facts_and_no_score_keys_anywhere() -> None:
    tape = build_tape(poison_and_ghost())
    assert tape["schema_id"] == "mcp-arcade.tape/v1"
    assert tape["facts"] == [
        {"atom_id": "poison.follow_through", "fact": "followed"},
        {"atom_id": "protocol.unlisted_call", "fact": "ghost_refused"},
    ]
    text = json.dumps(tape)
    for key in FORBIDDEN_KEYS:
        assert f'"{key}"' not in text
    assert "attack_success" not in text and "utility" not in text and "secret detail" not in text


def test_rug_facts_compare_first_and_last_listing() -> None:
    def listing(i: int, tools: list[int]) -> list[dict[str, Any]]:
        return [
            w(i, "out", "tools/list", i, {"id": i, "method": "tools/list"}),
            w(i + 1, "in", None, i, {"id": i, "result": {"tools": tools}}),
        ]

    stable = receipt(
        [atom("temporal.rug_pull", "pass")], [*init_pair(), *listing(3, [1]), *listing(5, [1])]
    )
    changed = receipt(
        [atom("temporal.rug_pull", "fail")], [*init_pair(), *listing(3, [1]), *listing(5, [2])]
    )
    once = receipt([atom("temporal.rug_pull", "skip")], [*init_pair(), *listing(3, [1])])
    assert [build_tape(d)["facts"][0]["fact"] for d in (stable, changed, once)] == [
        "menu_stable",
        "menu_changed",
        "menu_unknown",
    ]


def test_tape_refuses_a_score_key() -> None:
    from whichtool_tui.arcade.tape import assert_score_free

    with pytest.raises(WhichtoolError):
        assert_score_free({"rows": [{"nested": {"nrp": 1}}]})


def test_timeline_text_escapes_server_controls() -> None:
    data = poison_and_ghost()
    data["wire"][2]["message"]["params"]["data"] = "\x1b[2Jrepaint"
    out = StringIO()
    write_timeline(TapeView(data), out)
    text = out.getvalue()
    assert "\x1b" not in text and "\\x1b[2Jrepaint" in text
    assert "Integrity" not in text and "nrp" not in text.lower()


def _dataset_of(*receipts: Any, names: list[str] | None = None, tmp: Path | None = None) -> Any:
    import tempfile

    folder = Path(tempfile.mkdtemp(dir=tmp))
    for index, data in enumerate(receipts):
        name = names[index] if names else f"r{index}.json"
        (folder / name).write_text(data if isinstance(data, str) else json.dumps(data))
    return build_dataset(folder)


def test_dataset_routing_drops_and_manifest(tmp_path: Path) -> None:
    good = poison_and_ghost()
    holdout_split = copy.deepcopy(good)
    holdout_split["dataset"]["split"] = "holdout"
    proof = copy.deepcopy(good)
    proof["dataset"]["split"] = "proof"
    bad_schema = copy.deepcopy(good)
    bad_schema["schema_id"] = "other/v1"
    mismatch = copy.deepcopy(good)
    mismatch["wire"] = mismatch["wire"][2:]
    train, holdout, manifest = _dataset_of(
        good, holdout_split, proof, bad_schema, mismatch, "{not json", [1], tmp=tmp_path
    )
    assert [r["atom_id"] for r in train] == ["poison.follow_through"]
    assert sorted(r["atom_id"] for r in holdout) == [
        "poison.follow_through",
        "protocol.unlisted_call",
        "protocol.unlisted_call",
    ]
    assert manifest["dropped"] == {
        "invalid:json": 1,
        "invalid:not_an_object": 1,
        "invalid:schema_id": 1,
        "split:proof": 1,
        "wire_mismatch": 1,
    }
    row = train[0]
    assert row["labels"] == {"result": "fail", "attack_success": True, "label_source": "wire"}
    assert row["checks"] == [{"id": "c", "result": "fail"}]
    assert row["notifications"][0]["method"] == "notifications/message"
    assert "stderr_tail" not in row["session"]
    ghost = next(r for r in holdout if r["atom_id"] == "protocol.unlisted_call")
    assert ghost["labels"]["attack_success"] is None
    assert ghost["server_requests"] == [
        {"method": "sampling/createMessage", "rpc_id": 901, "rejected": True}
    ]
    import hashlib

    from whichtool_tui.arcade.receipt import canonical_json

    assert row["receipt_sha256"] == hashlib.sha256(canonical_json(good).encode()).hexdigest()
    assert "host_paths" in manifest["never_carried"]


def test_receipt_command_refusals_are_one_line(tmp_path: Path, capsys: Any) -> None:
    from tests.support.arcade import run_cli

    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema_id": "whichtool.run/2"}))
    bad_atoms = tmp_path / "bad.json"
    bad = poison_and_ghost()
    bad["atoms"][0]["result"] = "maybe"
    bad_atoms.write_text(json.dumps(bad))
    cases = [
        (["receipt", str(tmp_path / "missing.json")], "no such file"),
        (["receipt", str(broken), "--timeline"], "is not valid JSON"),
        (["receipt", str(other)], "is not a mcp-arcade.bout/v1 receipt"),
        (["receipt", str(bad_atoms), "--timeline"], "atoms.0.result"),
        (["receipt", str(other), "--score"], "--score needs --timeline"),
        (["tape", str(broken)], "is not valid JSON"),
    ]
    for argv, message in cases:
        code, _out, err = run_cli(argv, capsys)
        assert code == 2, argv
        assert message in err.splitlines()[0], (argv, err)


def test_atoms_catalog_tags_exactly_one_holdout(capsys: Any) -> None:
    from tests.support.arcade import run_cli

    code, out, _ = run_cli(["atoms"], capsys)
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines() if line.split()[0].count(".") == 1]
    assert ids == [
        "inspect.tools_list",
        "poison.follow_through",
        "temporal.rug_pull",
        "protocol.unlisted_call",
        "poison.never_called",
        "poison.parameter",
        "poison.result",
        "temporal.rename",
        "identity.bait_switch",
        "encoding.hidden",
        "schema.bounds",
        "display.forged",
        "protocol.server_requests",
        "injection.notifications",
        "temporal.sleeper",
        "poison.instructions",
    ]
    assert out.count("(holdout)") == 1 and "The Ghost on the Menu (holdout)" in out
    assert out.count("(extended)") == 12
    assert "Does a whispered errand become a call?" in out
