"""Snapshot files: the three accepted shapes, every refusal code, and the writer's exact bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.surface.load import (
    MAX_SNAPSHOT_BYTES,
    load_snapshot,
    save_snapshot,
    snapshot_ref,
)

TOOLS = [
    {"name": "b_tool", "description": "Second", "inputSchema": {"type": "object"}},
    {"name": "a_tool", "description": "Zürich first", "inputSchema": {"type": "object"}},
    "not even an object",
]


def _write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def test_result_shape_keeps_entries_as_served(tmp_path: Path) -> None:
    listing = load_snapshot(_write(tmp_path / "s.json", {"tools": TOOLS}), cwd=tmp_path)
    assert listing.transport == "snapshot"
    assert listing.ref == "s.json"
    assert listing.raw_tools == TOOLS
    assert listing.diagnostics == []


def test_jsonrpc_envelope_is_unwrapped(tmp_path: Path) -> None:
    envelope = {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS, "nextCursor": None}}
    listing = load_snapshot(_write(tmp_path / "e.json", envelope), cwd=tmp_path)
    assert listing.raw_tools == TOOLS
    assert listing.diagnostics == []


def test_bare_array_loads_with_info(tmp_path: Path) -> None:
    listing = load_snapshot(_write(tmp_path / "a.json", TOOLS), cwd=tmp_path)
    assert listing.raw_tools == TOOLS
    assert [(d.code, d.severity) for d in listing.diagnostics] == [("snapshot/bare-array", "info")]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ('{"tools": [', "snapshot/invalid-json"),
        ('{"tools": [NaN]}', "snapshot/invalid-json"),
        ("", "snapshot/invalid-json"),
        (
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}',
            "snapshot/jsonrpc-error",
        ),
        ('{"items": []}', "snapshot/unrecognised-shape"),
        ('{"tools": {"a": 1}}', "snapshot/unrecognised-shape"),
        ('"just a string"', "snapshot/unrecognised-shape"),
        ('{"result": {"content": []}}', "snapshot/unrecognised-shape"),
    ],
)
def test_bad_snapshots_get_named_codes(tmp_path: Path, content: str, code: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(WhichtoolError) as caught:
        load_snapshot(path, cwd=tmp_path)
    assert caught.value.code == code
    assert caught.value.exit_code == ExitCode.ERROR
    assert "\n" not in caught.value.message
    assert "bad.json" in caught.value.message


def test_jsonrpc_error_message_names_the_code(tmp_path: Path) -> None:
    path = _write(tmp_path / "err.json", {"error": {"code": -32601, "message": "no tools\x1b[2J"}})
    with pytest.raises(WhichtoolError) as caught:
        load_snapshot(path, cwd=tmp_path)
    assert "-32601" in caught.value.message
    assert "\x1b" not in caught.value.message


def test_missing_file_and_directory_are_unreadable(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(WhichtoolError) as caught:
            load_snapshot(path, cwd=tmp_path)
        assert caught.value.code == "snapshot/unreadable"


def test_not_utf8_is_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"tools": ["\xff"]}')
    with pytest.raises(WhichtoolError) as caught:
        load_snapshot(path, cwd=tmp_path)
    assert caught.value.code == "snapshot/invalid-json"


def test_oversize_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_SNAPSHOT_BYTES + 1)
    with pytest.raises(WhichtoolError) as caught:
        load_snapshot(path, cwd=tmp_path)
    assert caught.value.code == "snapshot/too-large"


def test_ref_is_cwd_relative_or_basename(tmp_path: Path) -> None:
    inside = tmp_path / "sub" / "x.json"
    inside.parent.mkdir()
    _write(inside, {"tools": []})
    assert snapshot_ref(inside, cwd=tmp_path) == "sub/x.json"
    assert snapshot_ref(inside, cwd=tmp_path / "sub") == "x.json"
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert snapshot_ref(inside, cwd=other) == "x.json"
    assert load_snapshot(inside, cwd=other).ref == "x.json"


def test_relative_path_resolves_against_process_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path / "rel.json", {"tools": TOOLS})
    monkeypatch.chdir(tmp_path)
    listing = load_snapshot("rel.json")
    assert listing.ref == "rel.json"
    assert len(listing.raw_tools) == 3


def test_save_snapshot_bytes_and_round_trip(tmp_path: Path) -> None:
    path = save_snapshot(TOOLS, tmp_path / "out" / "saved.json")
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps({"tools": TOOLS}, indent=2, ensure_ascii=False) + "\n"
    assert text.startswith('{\n  "tools": [\n')
    assert "Zürich" in text
    assert load_snapshot(path, cwd=tmp_path).raw_tools == TOOLS
    leftovers = [name for name in os.listdir(path.parent) if name != "saved.json"]
    assert leftovers == []


def test_save_snapshot_into_a_file_path_fails_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(WhichtoolError) as caught:
        save_snapshot(TOOLS, blocker / "saved.json")
    assert caught.value.code == "output/unwritable"


def test_save_snapshot_keeps_lone_surrogates_as_escapes(tmp_path: Path) -> None:
    served = json.loads(
        '[{"name": "odd", "description": "half \\ud800 pair, emoji \\ud83d\\ude00"}]'
    )
    path = save_snapshot(served, tmp_path / "odd.json")
    raw = path.read_bytes()
    raw.decode("utf-8")  # valid UTF-8
    assert b"\\ud800" in raw
    assert "😀".encode() in raw
    assert load_snapshot(path, cwd=tmp_path).raw_tools == served
