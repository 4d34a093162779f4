"""``bout --format junit|sarif``: a bout for CI, every server string sanitised, SARIF valid."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support.arcade import fixture_bout, live_bout, run_cli
from tests.support.paths import SARIF_SCHEMA, SUPPORT

pytestmark = pytest.mark.slow  # starts processes or servers

HOSTILE = f"{sys.executable} {SUPPORT / 'hostile_sdk_server.py'}"


def test_junit_has_one_case_per_atom_and_fails_the_failed(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, out = fixture_bout(tmp_path, capsys, "--format", "junit", "--atoms", "all")
    root = ET.fromstring(out)
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert list(cases) == [a["id"] for a in receipt["atoms"]]
    failed = {name for name, c in cases.items() if c.find("failure") is not None}
    assert failed == {a["id"] for a in receipt["atoms"] if a["result"] == "fail"}
    assert root.get("tests") == str(len(receipt["atoms"]))
    assert "Tape bout_" not in out  # the XML only, nothing else on stdout


def test_sarif_from_a_hostile_server_validates_and_shows_nothing_raw(
    tmp_path: Path, capsys: Any
) -> None:
    argv = ("--task", "echo", "--atoms", "display.forged,encoding.hidden", "--format", "sarif")
    _code, _receipt, out = live_bout(tmp_path, capsys, HOSTILE, *argv)
    log = json.loads(out)
    jsonschema.validate(log, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"display.forged", "encoding.hidden"}
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 1 for r in results)
    text = " ".join(r["message"]["text"] for r in results)
    assert "\x1b" not in text and "\n" not in text and "wipe_workspace" in text


def test_ci_formats_are_for_a_single_bout(tmp_path: Path, capsys: Any) -> None:
    argv = ["bout", "--target", "fixture", "--no-prompt", "--trials", "2", "--format", "junit"]
    code, _out, err = run_cli(argv, capsys)
    assert code == 2 and "--format junit is for a single bout" in err.splitlines()[0]
