"""One bounded reader for every file kind (issue 12, items 5, 11 and 12).

Each hostile file goes through every command that reads that kind, through the real CLI entry
point: the answer is always exit 2 and one ``whichtool-tui:`` line (plus its hint), never a
traceback or exit 1.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.run_project import write_project
from tests.support.run_report_factory import demo_run
from whichtool_tui.bounded_read import MAX_NESTING, nesting_exceeds, parse_json_text
from whichtool_tui.cli import main
from whichtool_tui.errors import WhichtoolError

pytestmark = pytest.mark.slow  # starts processes or servers

HUGE_INT = "1" * 5000
DEEP_JSON = "[" * 100_000 + "]" * 100_000
DEEP_YAML = "".join("  " * level + f"k{level}:\n" for level in range(1000)) + "  " * 1000 + "v\n"


def _json_files(folder: Path) -> dict[str, Path]:
    files = {
        "huge-int": f'{{"version": {HUGE_INT}}}',
        "deep": DEEP_JSON,
        "deep-object": '{"a":' * 2000 + "1" + "}" * 2000,
        "nan": '{"version": NaN}',
        "infinity": '{"value": Infinity}',
        "overflow": '{"value": 1e999}',
    }
    paths = {}
    for name, text in files.items():
        path = folder / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def _one_line_refusal(
    run: Callable[[], int], capsys: pytest.CaptureFixture[str], context: str
) -> str:
    code = run()
    err = capsys.readouterr().err
    assert code == 2, (context, code, err)
    assert err.startswith("whichtool-tui: "), (context, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2, (context, err)
    return err


READERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "config": lambda f, p: ["--no-ui", "inspect", str(f / "surface.json"), "--config", str(p)],
    "mcp --config": lambda f, p: ["--no-ui", "mcp", "--config", str(p)],
    "report": lambda f, p: ["--no-ui", "report", str(p)],
    "diff": lambda f, p: ["--no-ui", "diff", str(p), str(p)],
    "receipt": lambda f, p: ["--no-ui", "receipt", str(p)],
    "tape": lambda f, p: ["--no-ui", "tape", str(p)],
    "open": lambda f, p: ["--no-ui", "open", str(p)],
    "snapshot": lambda f, p: ["--no-ui", "inspect", str(p), "--transport", "snapshot"],
    "tasks lint": lambda f, p: ["--no-ui", "tasks", "lint", str(f / "surface.json"), "--tasks",
                                str(p)],
}  # fmt: skip


@pytest.mark.parametrize("reader", sorted(READERS))
def test_deep_huge_and_non_finite_json_is_one_line_everywhere(
    reader: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    for name, path in _json_files(tmp_path).items():
        if reader in ("receipt", "tape", "open") and name in ("huge-int", "nan"):
            continue  # receipts are read tolerantly: a wrong type is not a reader failure
        argv = READERS[reader](tmp_path, path)
        _one_line_refusal(lambda argv=argv: main(argv), capsys, f"{reader} {name}")


@pytest.mark.parametrize("reader", ["config", "tasks lint", "open"])
def test_deep_yaml_is_one_line(
    reader: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    for name, text in (("deep", DEEP_YAML), ("flow", "[" * 1000 + "]" * 1000),
                       ("int", f"version: {HUGE_INT}\n")):  # fmt: skip
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        argv = READERS[reader](tmp_path, path)
        err = _one_line_refusal(lambda argv=argv: main(argv), capsys, f"{reader} {name}")
        assert "nested too deeply" in err or "4,300 digits" in err or "not" in err


SPECIAL_READERS = ["config", "report", "diff", "receipt", "tape", "open", "snapshot", "tasks lint"]


@pytest.mark.parametrize("reader", SPECIAL_READERS)
def test_devices_fifos_and_oversize_files_are_refused_without_reading(
    reader: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    sparse = tmp_path / "huge.json"  # 2 GiB on paper, no blocks on disk: refused by size
    with sparse.open("wb") as stream:
        stream.truncate(2 * 1024 * 1024 * 1024)
    # Nothing ever writes to the FIFO: a reader that opened it would block forever. A watchdog
    # thread would only hide that, so the test relies on the refusal coming first.
    for path in (Path("/dev/zero"), fifo, sparse):
        argv = READERS[reader](tmp_path, path)
        err = _one_line_refusal(lambda argv=argv: main(argv), capsys, f"{reader} {path.name}")
        assert "regular file" in err or "limit" in err or "must be .json" in err, err
    assert threading.active_count() >= 1


def test_a_json_config_refuses_duplicate_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "whichtool.config.json"
    config.write_text('{"tasks": "a.yaml", "tasks": "whichtool.tasks.yaml"}', encoding="utf-8")
    err = _one_line_refusal(
        lambda: main(["--no-ui", "inspect", "surface.json"]), capsys, "duplicate"
    )
    assert "duplicate key 'tasks'" in err


def test_the_run_reader_refuses_infinity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(demo_run()).replace('"durationMs": ', '"durationMs": Infinity, "x": ', 1)
    assert "Infinity" in text
    path = tmp_path / "run.json"
    path.write_text(text, encoding="utf-8")
    err = _one_line_refusal(lambda: main(["--no-ui", "report", str(path)]), capsys, "inf")
    assert "Infinity is not valid JSON" in err


def test_the_nesting_check_is_iterative_and_exact() -> None:
    assert not nesting_exceeds(json.loads("[" * MAX_NESTING + "]" * MAX_NESTING))
    assert nesting_exceeds(json.loads("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)))
    # Mappings and lists mixed, the deep branch beside shallow ones, at and past the limit.
    for depth, deeper in ((MAX_NESTING, False), (MAX_NESTING + 1, True)):
        text = '{"k":[' * (depth // 2) + "[]" * (depth % 2) + "]}" * (depth // 2)
        assert nesting_exceeds(json.loads(text)) is deeper
        assert nesting_exceeds({"wide": list(range(50)), "deep": json.loads(text)}) is (
            depth + 1 > MAX_NESTING
        )
    with pytest.raises(WhichtoolError, match="duplicate key"):
        parse_json_text('{"a": 1, "a": 2}', "x.json", prefix="t")
    assert parse_json_text('{"a": 1, "a": 2}', "x.json", prefix="t", strict=False) == {"a": 2}


async def test_the_mcp_server_answers_a_deep_file_with_a_named_error(tmp_path: Path) -> None:
    from tests.support.mcp_session import call, demo_workspace, mcp_session

    config = demo_workspace(tmp_path)
    (tmp_path / "deep.json").write_text(DEEP_JSON, encoding="utf-8")
    async with mcp_session(tmp_path, ["--allow-dynamic-targets"], config=config) as session:
        answer = await call(session, "inspect_surface", target="deep.json", transport="snapshot")
    assert answer["ok"] is False
    assert answer["error"]["code"] == "snapshot/invalid-json"
    assert "nested too deeply" in answer["error"]["message"]


@pytest.mark.parametrize("flag", ["--timeout", "--seat-timeout", "--seat-temperature"])
def test_bout_refuses_nan_and_infinite_numbers(
    flag: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for value in ("nan", "inf"):
        argv = ["--no-ui", "bout", "--target", "fixture", "--no-prompt", flag, value,
                "--sandbox", str(tmp_path / "sb")]  # fmt: skip
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse's own exit, where main lets it through
            code = int(exit_.code or 0)
        assert code == 2
        assert "not a finite number" in capsys.readouterr().err


def test_the_origin_mismatch_names_both_origins() -> None:
    from whichtool_tui.mcp_client.auth import authorization_headers

    env = {
        "WHICHTOOL_HTTP_AUTHORIZATION": "Bearer t",
        "WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN": "https://mcp.example.com/",
    }
    with pytest.raises(WhichtoolError) as caught:
        authorization_headers("http://127.0.0.1:9/mcp", None, env)
    assert caught.value.message.endswith(
        "(https://mcp.example.com) does not match the target origin (http://127.0.0.1:9)"
    )
    assert "invalid URL" not in caught.value.message
