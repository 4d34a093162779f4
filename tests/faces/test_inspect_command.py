"""`inspect` end to end: exit codes, formats, --out, config outputs, colour, real servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mcp_http_server import TOOL_COUNT, serve
from tests.support.paths import REPO
from tests.support.reference_servers import time_command
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers

SNAPSHOTS = REPO / "snapshots"


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("WHICHTOOL_HTTP_AUTHORIZATION", raising=False)
    monkeypatch.delenv("WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN", raising=False)
    monkeypatch.chdir(tmp_path)


def _snapshot(name: str) -> str:
    return str(SNAPSHOTS / f"{name}.json")


def _children() -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(pid) for pid in text)
    return found


def test_clean_exits_0_and_error_finding_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-ui", "inspect", _snapshot("clean")]) == 0
    out = capsys.readouterr().out
    assert "whichtool-tui inspect" in out and "No errors or warnings." in out
    assert "(estimate, heuristic-bpe-v1)" in out
    assert out.rstrip().endswith("read tools/list and stopped there.")
    assert main(["--no-ui", "inspect", _snapshot("contradictory-annotations")]) == 1
    assert main(["--no-ui", "inspect", _snapshot("near-duplicate")]) == 0  # warnings never fail


def test_json_is_byte_deterministic_and_carries_the_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--no-ui", "inspect", _snapshot("demo-lab"), "--format", "json", "--provider", "openai"])
    first = capsys.readouterr().out
    main(["--no-ui", "inspect", _snapshot("demo-lab"), "--format", "json", "--provider", "openai"])
    assert capsys.readouterr().out == first
    report = json.loads(first)
    assert report["schemaVersion"] == "whichtool.inspect/1"
    assert report["tokens"]["tokenizer"] == {
        "id": "heuristic-bpe-v1",
        "exact": False,
        "approximates": "openai",
        "note": report["tokens"]["tokenizer"]["note"],
    }
    assert report["target"] == {"transport": "snapshot", "ref": "demo-lab.json"}  # outside cwd


def test_max_context_tokens_threshold_and_config_fallback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["--no-ui", "inspect", _snapshot("bloated-schema"), "--max-context-tokens", "4000"])
        == 1
    )
    out = capsys.readouterr().out
    assert "FAIL  maxContextTokens" in out
    (tmp_path / "whichtool.config.json").write_text(
        json.dumps({"thresholds": {"maxContextTokens": 4000}}), encoding="utf-8"
    )
    assert main(["--no-ui", "inspect", _snapshot("bloated-schema"), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["thresholds"][0]["limit"] == 4000 and report["thresholdsOk"] is False
    # The flag overrides the config.
    assert (
        main(["--no-ui", "inspect", _snapshot("bloated-schema"), "--max-context-tokens", "9000"])
        == 0
    )


def test_max_tools_flag_moves_the_warning(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--no-ui", "inspect", _snapshot("demo-lab"), "--format", "json", "--max-tools", "5"])
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert "surface/large-tool-set" in codes
    main(["--no-ui", "inspect", _snapshot("demo-lab"), "--format", "json"])
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert "surface/large-tool-set" not in codes


def test_inspect_max_tools_goes_to_100000_and_run_keeps_1000(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # inspect runs no model: its --max-tools only says when to warn, up to registry sizes
    main(["--no-ui", "inspect", _snapshot("demo-lab"), "--format", "json", "--max-tools", "100000"])
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert "surface/large-tool-set" not in codes
    assert main(["--no-ui", "inspect", _snapshot("demo-lab"), "--max-tools", "100001"]) == 2
    assert "outside" in capsys.readouterr().err
    assert main(["--no-ui", "run", _snapshot("demo-lab"), "--max-tools", "1001"]) == 2
    err = capsys.readouterr().err
    assert "1000" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("fmt", "needle"),
    [
        ("markdown", "## whichtool inspect"),
        ("junit", '<testsuite name="whichtool.inspect"'),
        ("badge", '"label": "tool surface"'),
    ],
)
def test_other_formats(fmt: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-ui", "inspect", _snapshot("identical-descriptions"), "--format", fmt]) == 1
    out = capsys.readouterr().out
    assert needle in out
    if fmt == "junit":
        assert 'failures="1"' in out and "descriptions/identical" in out
    if fmt == "badge":
        badge = json.loads(out)
        assert badge["color"] == "red" and badge["message"].endswith(", 1 error")


def test_badge_colour_by_size(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--no-ui", "inspect", _snapshot("bloated-schema"), "--format", "badge"])
    assert json.loads(capsys.readouterr().out)["color"] == "yellow"
    main(["--no-ui", "inspect", _snapshot("clean"), "--format", "badge"])
    assert json.loads(capsys.readouterr().out)["color"] == "green"


def test_out_writes_atomically_and_config_extra_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "whichtool.config.json").write_text(
        json.dumps(
            {"report": {"formats": ["terminal", "json", "html", "badge"], "out": "extra/r"}}
        ),
        encoding="utf-8",
    )
    code = main(
        [
            "--no-ui",
            "inspect",
            _snapshot("clean"),
            "--out",
            "main.md",
            "--format",
            "markdown",
            "--color",
        ]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "Wrote markdown report to main.md" in err
    assert sorted(p.name for p in (tmp_path / "extra").iterdir()) == [
        "r.badge.json",
        "r.json",
        "r.txt",
    ]
    assert "\x1b" not in (tmp_path / "extra" / "r.txt").read_text()  # files are never coloured
    assert (tmp_path / "main.md").read_text().startswith("## whichtool inspect")
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_save_snapshot_writes_the_served_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["--no-ui", "inspect", _snapshot("malformed"), "--save-snapshot", "saved.json"]) == 1
    )
    assert "Saved 5 tools to saved.json" in capsys.readouterr().err
    saved = json.loads((tmp_path / "saved.json").read_text())
    original = json.loads(Path(_snapshot("malformed")).read_text())
    assert saved == original  # raw, malformed entries included


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "html"], "Available: terminal, json, markdown, junit, badge, sarif"),
        (["second.json"], "inspect takes one target"),
        (["--max-context-tokens", "-1"], "outside"),
        (["--max-tools", "0"], "outside"),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--no-ui", "inspect", _snapshot("clean"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_unreadable_and_invalid_snapshots_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert main(["--no-ui", "inspect", "bad.json"]) == 2
    assert main(["--no-ui", "inspect", "missing.json"]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "Cannot read snapshot" in err


def test_colour_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from whichtool_tui.reports.colour import use_colour

    class Tty:
        def isatty(self) -> bool:
            return True

    tty = Tty()
    assert use_colour(None, tty, env={}) is True  # type: ignore[arg-type]
    # no-color.org: an empty NO_COLOR is unset; any other value turns colour off
    assert use_colour(None, tty, env={"NO_COLOR": ""}) is True  # type: ignore[arg-type]
    assert use_colour(None, tty, env={"NO_COLOR": "0"}) is False  # type: ignore[arg-type]
    assert use_colour(None, sys.stderr, env={"FORCE_COLOR": "1"}) is True
    assert use_colour(None, sys.stderr, env={"FORCE_COLOR": "0"}) is sys.stderr.isatty()
    assert use_colour(True, tty, env={"NO_COLOR": "1"}) is True  # type: ignore[arg-type]
    assert use_colour(True, tty, to_file=True, env={}) is False  # type: ignore[arg-type]


def test_force_color_and_no_color_in_a_real_process(cli_env: dict[str, str]) -> None:
    env = {k: v for k, v in cli_env.items() if k != "NO_COLOR"}
    command = [sys.executable, "-m", "whichtool_tui", "--no-ui", "inspect", _snapshot("clean")]
    coloured = subprocess.run(
        command, env={**env, "FORCE_COLOR": "1"}, capture_output=True, text=True, timeout=60
    )
    assert "\x1b[" in coloured.stdout
    plain = subprocess.run(
        command,
        env={**env, "FORCE_COLOR": "1", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "\x1b[" not in plain.stdout and plain.stdout.isascii()


def test_headless_inspect_never_imports_textual() -> None:
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"code = main(['--no-ui', 'inspect', {_snapshot('clean')!r}, '--format', 'json'])\n"
        "print('textual' in sys.modules, code, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stderr.strip().splitlines()[-1] == "False 0"


def test_inspect_real_stdio_server_and_save_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = time_command()
    if command is None:
        pytest.skip("mcp-server-time is not installed")
    before = _children()
    code = main(
        [
            "--no-ui",
            "inspect",
            "--transport",
            "stdio",
            command,
            "--format",
            "json",
            "--save-snapshot",
            "time.json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["target"]["transport"] == "stdio"
    assert {tool["name"] for tool in report["surface"]["tools"]} == {
        "get_current_time",
        "convert_time",
    }
    saved = json.loads((tmp_path / "time.json").read_text())
    assert len(saved["tools"]) == 2
    assert _children() <= before  # the server process is gone


def test_inspect_over_streamable_http_with_pagination(capsys: pytest.CaptureFixture[str]) -> None:
    with serve() as server:
        code = main(["--no-ui", "inspect", server.url(), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert report["target"]["transport"] == "http"
    assert report["surface"]["toolCount"] == TOOL_COUNT
    assert "mcp/paginated" in {d["code"] for d in report["diagnostics"]}
