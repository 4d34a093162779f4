"""`inspect --format sarif` against the official SARIF 2.1.0 schema, and `inspect.rules` in the
config file (off, severity change, ignoreTools, unknown codes refused), through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support.paths import REPO, SARIF_SCHEMA
from whichtool_tui.cli import main
from whichtool_tui.surface.rule_catalog import RULES

SNAPSHOTS = REPO / "snapshots"
# The OASIS SARIF 2.1.0 (errata 01) JSON Schema, unmodified; see tests/schemas/README.md.


@pytest.fixture(autouse=True)
def _in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)


def _validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )


def _inspect(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--no-ui", "inspect", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _json_report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _err = _inspect(capsys, *argv, "--format", "json")
    return code, json.loads(out)


@pytest.mark.parametrize("name", ["filesystem", "demo-lab", "malformed", "invalid-header"])
def test_sarif_validates_and_has_one_result_per_finding(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    snapshot = str(SNAPSHOTS / f"{name}.json")
    _, report = _json_report(capsys, snapshot)
    code, out, _ = _inspect(capsys, snapshot, "--format", "sarif")
    assert code == (0 if report["ok"] else 1)
    sarif = json.loads(out)
    errors = sorted(_validator().iter_errors(sarif), key=str)
    assert not errors, errors[0].message
    run = sarif["runs"][0]
    assert sarif["version"] == "2.1.0"
    results = run["results"]
    assert [r["ruleId"] for r in results] == [d["code"] for d in report["diagnostics"]]
    rules = run["tool"]["driver"]["rules"]
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for result, finding in zip(results, report["diagnostics"], strict=True):
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        assert rule["help"]["text"]  # rule metadata carries the fix
        assert result["level"] == levels[finding["severity"]]
        assert result["message"]["text"] == finding["message"]
        if "tool" in finding or "tools" in finding:
            logical = result["locations"][0]["logicalLocations"]
            functions = [n["name"] for n in logical if n["kind"] == "function"]
            assert functions == ([finding["tool"]] if "tool" in finding else finding["tools"])
            parameter = finding.get("detail", {}).get("parameter") if "tool" in finding else None
            if isinstance(parameter, str):
                assert logical[-1] == {
                    "name": parameter,
                    "fullyQualifiedName": f"{finding['tool']}/{parameter}",
                    "kind": "parameter",
                }


def test_sarif_rules_cover_the_catalog_and_fingerprints_are_stable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    snapshot = str(SNAPSHOTS / "demo-lab.json")
    first = json.loads(_inspect(capsys, snapshot, "--format", "sarif")[1])
    second = json.loads(_inspect(capsys, snapshot, "--format", "sarif")[1])
    assert first == second
    ids = [rule["id"] for rule in first["runs"][0]["tool"]["driver"]["rules"]]
    assert set(RULES) <= set(ids)
    prints = [r["partialFingerprints"]["whichtoolFinding/v1"] for r in first["runs"][0]["results"]]
    assert len(set(prints)) == len(prints)


def test_sarif_out_file_and_relative_snapshot_location(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "surfaces").mkdir()
    (tmp_path / "surfaces" / "lab.json").write_bytes((SNAPSHOTS / "demo-lab.json").read_bytes())
    code, _, err = _inspect(capsys, "surfaces/lab.json", "--format", "sarif", "--out", "scan.sarif")
    assert code == 0 and "Wrote sarif report" in err
    sarif = json.loads((tmp_path / "scan.sarif").read_text(encoding="utf-8"))
    assert not list(_validator().iter_errors(sarif))
    location = sarif["runs"][0]["results"][0]["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "surfaces/lab.json"


def _config(tmp_path: Path, rules: dict[str, Any]) -> str:
    path = tmp_path / "whichtool.config.json"
    path.write_text(json.dumps({"inspect": {"rules": rules}}), encoding="utf-8")
    return str(path)


def _codes(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (d["code"], d["severity"], d.get("tool") or ",".join(d.get("tools", [])))
        for d in report["diagnostics"]
    ]


def test_rule_off_removes_its_findings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    snapshot = str(SNAPSHOTS / "demo-lab.json")
    _, before = _json_report(capsys, snapshot)
    assert any(c == "parameters/description-restates-name" for c, _, _ in _codes(before))
    config = _config(
        tmp_path, {"parameters/description-restates-name": "off", "overlap/high": "off"}
    )
    _, after = _json_report(capsys, snapshot, "--config", config)
    codes = {c for c, _, _ in _codes(after)}
    assert "parameters/description-restates-name" not in codes and "overlap/high" not in codes
    # Everything else is untouched, in the same order.
    kept = [
        item
        for item in _codes(before)
        if item[0] not in ("parameters/description-restates-name", "overlap/high")
    ]
    assert _codes(after) == kept


def test_rule_severity_change_decides_the_exit_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    snapshot = str(SNAPSHOTS / "demo-lab.json")
    config = _config(tmp_path, {"descriptions/overlap-without-preference": "error"})
    code, report = _json_report(capsys, snapshot, "--config", config)
    assert code == 1 and report["ok"] is False
    assert _codes(report)[0] == (
        "descriptions/overlap-without-preference",
        "error",
        "list_orders,search_orders",
    )
    # The reverse: an upstream error downgraded to a warning lets the surface pass.
    contradictory = str(SNAPSHOTS / "contradictory-annotations.json")
    assert _json_report(capsys, contradictory)[0] == 1
    config = _config(
        tmp_path, {"annotations/contradictory-read-only-destructive": {"severity": "warning"}}
    )
    code, report = _json_report(capsys, contradictory, "--config", config)
    assert code == 0 and report["ok"] is True


def test_rule_ignore_tools(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    snapshot = str(SNAPSHOTS / "demo-lab.json")
    config = _config(
        tmp_path,
        {
            "parameters/required-without-example": {"ignoreTools": ["refund_payment"]},
            "overlap/high": {"ignoreTools": ["search_orders"]},  # a pair: either tool counts
        },
    )
    _, report = _json_report(capsys, snapshot, "--config", config)
    found = _codes(report)
    assert ("parameters/required-without-example", "info", "list_orders") in found
    assert not any(
        c == "parameters/required-without-example" and t == "refund_payment" for c, _, t in found
    )
    assert not any(c == "overlap/high" for c, _, _ in found)


def test_config_in_the_working_directory_applies_to_sarif_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _config(tmp_path, {"names/subject-not-in-description": "off"})
    _, out, _ = _inspect(capsys, str(SNAPSHOTS / "filesystem.json"), "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    assert results and all(r["ruleId"] != "names/subject-not-in-description" for r in results)


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ({"names/nope": "off"}, "unknown rule code `names/nope`"),
        ({"names/generic": "loud"}, "`names/generic`: use off, error, warning, info"),
        ({"names/generic": {"ignoretools": ["x"]}}, "`ignoretools` is not a recognised option"),
        ({"threshold/maxContextTokens": "off"}, "cannot be configured"),
    ],
)
def test_bad_rule_settings_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rules: dict[str, Any], expected: str
) -> None:
    config = _config(tmp_path, rules)
    code, out, err = _inspect(capsys, str(SNAPSHOTS / "demo-lab.json"), "--config", config)
    assert code == 2 and out == ""
    first = err.splitlines()[0]
    assert first.startswith("whichtool-tui: ") and expected in first
    assert "Traceback" not in err


def test_yaml_config_is_discovered_with_the_same_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "whichtool.config.yaml").write_text(
        "inspect:\n"
        "  rules:\n"
        "    parameters/missing-description:\n"
        "      severity: error\n"
        "      ignoreTools: [edit_file]\n",
        encoding="utf-8",
    )
    code, report = _json_report(capsys, str(SNAPSHOTS / "filesystem.json"))
    found = [item for item in _codes(report) if item[0] == "parameters/missing-description"]
    assert found == [
        ("parameters/missing-description", "error", "directory_tree"),
        ("parameters/missing-description", "error", "search_files"),
    ]
    assert code == 1
