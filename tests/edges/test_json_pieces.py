"""A JSON report written in pieces (never joined into one more copy of a large document): the
same bytes as the whole-text writer, on stdout and in ``--out``, and still atomic."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from whichtool_tui.files import write_atomic
from whichtool_tui.surface.report_model import InspectReport

BIN = Path(sys.executable).parent / "whichtool-tui"


def test_pieces_are_written_in_order_and_a_failed_piece_leaves_the_old_file(
    tmp_path: Path,
) -> None:
    target = tmp_path / "report.json"
    document = b'{\n  "a": 1\n}\n'
    write_atomic(target, [memoryview(document)[:5], b"", memoryview(document)[5:]])
    assert target.read_bytes() == document
    bad: list[bytes | memoryview] = [b"partial", "not bytes"]  # type: ignore[list-item]
    with pytest.raises(TypeError):
        write_atomic(target, bad)
    assert target.read_bytes() == document
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


@pytest.mark.slow  # starts the binary
def test_inspect_json_pieces_equal_the_whole_text_on_stdout_and_in_out(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    # Identical descriptions score 1.0 (JavaScript writes 1), and non-ASCII text crosses pieces.
    tools = [
        {"name": f"résumé_{n}", "description": "Fetch the café résumé ➜ for a user, by id."}
        for n in range(30)
    ]
    snapshot = tmp_path / "surface.json"
    snapshot.write_text(json.dumps({"tools": tools}, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "report.json"
    argv = [str(BIN), "--no-ui", "inspect", str(snapshot), "--format", "json"]
    printed = subprocess.run(argv, capture_output=True, env=cli_env, timeout=120, check=False)
    written = subprocess.run(
        [*argv, "--out", str(out)], capture_output=True, env=cli_env, timeout=120, check=False
    )
    assert printed.returncode == written.returncode == 1, printed.stderr
    assert printed.stdout == out.read_bytes()
    text = printed.stdout.decode("utf-8")
    assert '"descriptionScore": 1,' in text and "résumé_0" in text
    assert InspectReport.model_validate(json.loads(text)).to_json_text() == text
