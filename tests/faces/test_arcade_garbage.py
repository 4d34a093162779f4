"""Garbage in, one line out: receipt, tape and dataset over files that are not receipts."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import run_cli
from whichtool_tui.arcade.jsonfile import MAX_JSON_FILE_BYTES

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.fixture(scope="module")
def real_receipt(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One real fixture bout's receipt, shared by the tests that mangle it."""
    from whichtool_tui.cli import main

    folder = tmp_path_factory.mktemp("bout")
    out = folder / "r.json"
    argv = ["bout", "--target", "fixture", "--no-prompt", "--sandbox", str(folder / "sb")]
    assert main([*argv, "-o", str(out)]) == 0
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _garbage(folder: Path) -> dict[str, Path]:
    """One file per kind of bad input; the huge one is sparse so it costs no disk or time."""
    folder.mkdir(parents=True, exist_ok=True)
    payloads = {
        "not-utf8": b"\xff\xfe{\x00}",
        "not-json": b"receipt, honestly",
        "empty": b"",
        "deep": b"[" * 200_000,
        "list": b"[1, 2]",
        "wrong-schema": b'{"schema_id": "whichtool.run/2"}',
        "wrong-shape": json.dumps({"schema_id": "mcp-arcade.bout/v1", "atoms": 5}).encode(),
    }
    paths: dict[str, Path] = {}
    for name, payload in payloads.items():
        path = folder / f"{name}.json"
        path.write_bytes(payload)
        paths[name] = path
    huge = folder / "huge.json"
    with huge.open("wb") as stream:
        stream.truncate(MAX_JSON_FILE_BYTES + 1)
    paths["huge"] = huge
    folder_path = folder / "a-folder.json"
    folder_path.mkdir()
    paths["folder"] = folder_path
    return paths


EXPECTED = {
    "not-utf8": "is not UTF-8 text",
    "not-json": "is not valid JSON (line 1, column 1",
    "empty": "is not valid JSON",
    "deep": "nested too deeply",
    "list": "not a JSON object",
    "wrong-schema": "is not a mcp-arcade.bout/v1 receipt",
    "wrong-shape": "is not a valid receipt: ",
    "huge": "-byte limit",
    "folder": "is a folder, which is not a regular file",
}


@pytest.mark.parametrize(
    "command", [["receipt"], ["receipt", "--timeline"], ["receipt", "--timeline", "--score"]]
)
def test_receipt_refuses_garbage_in_one_line(
    tmp_path: Path, capsys: Any, command: list[str]
) -> None:
    for name, path in _garbage(tmp_path / "in").items():
        code, out, err = run_cli([*command, str(path)], capsys)
        lines = err.splitlines()
        assert code == 2, (name, err)
        assert out == ""
        assert lines[0].startswith("whichtool-tui: ") and EXPECTED[name] in lines[0], (name, err)
        assert "Traceback" not in err and "codec" not in err and "Errno" not in err


def test_tape_refuses_garbage_and_writes_nothing(tmp_path: Path, capsys: Any) -> None:
    target = tmp_path / "out.tape.json"
    for name, path in _garbage(tmp_path / "in").items():
        code, out, err = run_cli(["tape", str(path), "-o", str(target)], capsys)
        assert code == 2, (name, err)
        assert EXPECTED[name] in err.splitlines()[0], (name, err)
        assert out == "" and "Traceback" not in err
    assert not target.exists()


def _mangled(receipt: dict[str, Any]) -> list[dict[str, Any]]:
    """Valid-looking receipts with one field of the wrong JSON type each."""
    cases: list[dict[str, Any]] = []
    for path, value in [
        (("wire",), 5),
        (("wire", 0, "atom_id"), ["x"]),
        (("wire", 0, "seq"), "x"),
        (("atoms",), "x"),
        (("atoms", 0, "checks"), 5),
        (("atoms", 0, "tools_before"), "x"),
        (("atoms", 0, "session", "server_info", "name"), 5),
        (("server_requests",), 5),
        (("dataset", "holdout_atom_ids"), [["x"]]),
        (("dataset",), "x"),
    ]:
        data = copy.deepcopy(receipt)
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        cases.append(data)
    return cases


def test_dataset_drops_garbage_and_keeps_the_good_receipt(
    tmp_path: Path, capsys: Any, real_receipt: dict[str, Any]
) -> None:
    source = tmp_path / "in"
    _garbage(source)
    good = real_receipt
    (source / "good.json").write_text(json.dumps(good), encoding="utf-8")
    for index, data in enumerate(_mangled(good)):
        (source / f"mangled-{index}.json").write_text(json.dumps(data), encoding="utf-8")
    os.symlink(source / "missing-target.json", source / "dangling.json")
    out = tmp_path / "out"
    code, stdout, err = run_cli(["dataset", str(source), "-o", str(out)], capsys)
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    reasons = {r["name"]: r["reason"] for r in manifest["receipts"]}
    assert reasons["good.json"] is None
    assert reasons["not-utf8.json"] == "invalid:json"
    assert reasons["deep.json"] == "invalid:json"
    assert reasons["huge.json"] == "invalid:too_large"
    assert reasons["list.json"] == "invalid:not_an_object"
    assert reasons["mangled-0.json"] == "invalid:no_wire"
    assert reasons["mangled-3.json"] == "invalid:no_atoms"
    assert "dangling.json" not in reasons and "a-folder.json" not in reasons
    good_rows = next(r for r in manifest["receipts"] if r["name"] == "good.json")
    assert good_rows["rows_train"] == 3
    assert manifest["rows"]["train"] >= 3
    assert "rows: train=" in stdout and "Traceback" not in err


@pytest.mark.parametrize("index", range(10))
def test_mangled_receipts_never_crash_the_views(
    tmp_path: Path, capsys: Any, index: int, real_receipt: dict[str, Any]
) -> None:
    data = _mangled(real_receipt)[index]
    path = tmp_path / "mangled.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in (["receipt", "--timeline"], ["tape"], ["receipt"]):
        code, out, err = run_cli([*command, str(path)], capsys)
        assert "Traceback" not in err
        if code == 0:
            assert out.strip(), command
        else:
            assert code == 2 and err.startswith("whichtool-tui: "), (command, err)
            assert len([line for line in err.splitlines() if not line.startswith("  ")]) == 1


def test_dataset_refuses_a_file_or_missing_folder(tmp_path: Path, capsys: Any) -> None:
    a_file = tmp_path / "r.json"
    a_file.write_text("{}")
    for source in (a_file, tmp_path / "missing"):
        code, _out, err = run_cli(["dataset", str(source), "-o", str(tmp_path / "o")], capsys)
        assert code == 2 and "is not a folder" in err.splitlines()[0]


def test_bout_refuses_bad_commands_and_urls_in_one_line(capsys: Any) -> None:
    cases = [
        (["--target", "stdio", "--allow-live", "--cmd", 'node "server.js'], "--cmd"),
        (["--target", "http", "--allow-live", "--url", "localhost:8000/mcp"], "not an http://"),
    ]
    for flags, expected in cases:
        code, out, err = run_cli(["bout", "--no-prompt", *flags], capsys)
        assert code == 2 and out == "" and "Traceback" not in err
        assert expected in err, err


def test_a_device_is_not_a_receipt(capsys: Any) -> None:
    code, _out, err = run_cli(["tape", os.devnull], capsys)
    assert code == 2 and err.splitlines()[0].endswith("is not a regular file")


def test_bout_refuses_a_sandbox_it_cannot_create(tmp_path: Path, capsys: Any) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for sandbox in (a_file, a_file / "below"):
        argv = ["bout", "--target", "fixture", "--no-prompt", "--sandbox", str(sandbox)]
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and err.startswith(f"whichtool-tui: --sandbox {sandbox}: "), err
        assert "Traceback" not in err and out == ""
