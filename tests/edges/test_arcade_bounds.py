"""Schema bombs at several depths end in a receipt and a named FAIL or ERROR, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import atom, http_bout, live_bout, run_cli
from tests.support.net import serve_asgi
from whichtool_tui.arcade.bounds import MAX_STORED_DEPTH, json_depth
from whichtool_tui.arcade.fixture import FixtureState, FixtureSwitches, build_server

pytestmark = pytest.mark.slow  # starts processes or servers

FIXTURE = f"{sys.executable} -m whichtool_tui.arcade.fixture --static"
ATOMS = ("--task", "echo", "--atoms", "inspect.tools_list,schema.bounds")


def _receipt_loads(tmp_path: Path, capsys: Any) -> None:
    code, _out, err = run_cli(["receipt", str(tmp_path / "r.json")], capsys)
    assert code == 0, err


@pytest.mark.parametrize("depth", [200, 480])
def test_a_bomb_past_the_stored_bound_is_an_error_naming_it(
    depth: int, tmp_path: Path, capsys: Any
) -> None:
    code, receipt, out = live_bout(tmp_path, capsys, f"{FIXTURE} --schema-depth {depth}", *ATOMS)
    assert code == 0 and "Traceback" not in out
    inspect = atom(receipt, "inspect.tools_list")
    assert inspect["result"] == "error"
    named = {c["id"]: c["detail"] for c in inspect["checks"] if c["result"] == "error"}
    if "bound" in named:
        assert f"passes the {MAX_STORED_DEPTH}-level bound" in named["bound"]
        assert "tools/list result" in named["bound"]
    else:  # near 480 the parser's own bound depends on how deep the reader's stack already is
        assert depth == 480 and "recursion bound" in named["harness"]
    bounds = atom(receipt, "schema.bounds")
    assert bounds["result"] == "fail"
    assert bounds["checks"][0]["id"] == "stored_depth"
    assert max(json_depth(w["message"]) for w in receipt["wire"]) <= MAX_STORED_DEPTH + 1
    _receipt_loads(tmp_path, capsys)


@pytest.mark.parametrize("depth", [500, 3000])
def test_a_bomb_past_the_parser_is_a_named_protocol_error(
    depth: int, tmp_path: Path, capsys: Any
) -> None:
    code, receipt, out = live_bout(tmp_path, capsys, f"{FIXTURE} --schema-depth {depth}", *ATOMS)
    assert code == 0 and "Traceback" not in out
    harness = atom(receipt, "inspect.tools_list")["checks"][0]
    assert harness["id"] == "harness" and "recursion bound" in harness["detail"]
    bounds = atom(receipt, "schema.bounds")
    assert bounds["result"] == "fail" and bounds["checks"][0]["id"] == "stored_depth"
    _receipt_loads(tmp_path, capsys)


def test_a_bomb_within_the_stored_bound_fails_only_schema_bounds(
    tmp_path: Path, capsys: Any
) -> None:
    code, receipt, _ = live_bout(tmp_path, capsys, f"{FIXTURE} --schema-bomb", *ATOMS)
    assert code == 0
    assert atom(receipt, "inspect.tools_list")["result"] == "pass"
    checks = {c["id"]: c for c in atom(receipt, "schema.bounds")["checks"]}
    assert {k: c["result"] for k, c in checks.items()} == {
        "depth": "fail",
        "size": "pass",
        "remote_ref": "fail",
        "icon_urls": "fail",
        "resource_urls": "fail",
    }
    assert "169.254.169.254" in checks["resource_urls"]["detail"]
    assert "not fetched" in checks["remote_ref"]["detail"]


def test_a_bomb_over_http_is_bounded_too(tmp_path: Path, capsys: Any) -> None:
    app = build_server(FixtureState(FixtureSwitches(schema_depth=100))).streamable_http_app()
    with serve_asgi(app, start_within=20) as running:
        code, receipt, out = http_bout(tmp_path, capsys, running.url("/mcp"), *ATOMS)
    assert code == 0 and "Traceback" not in out
    assert atom(receipt, "inspect.tools_list")["result"] == "error"
    assert atom(receipt, "schema.bounds")["result"] == "fail"
    _receipt_loads(tmp_path, capsys)
