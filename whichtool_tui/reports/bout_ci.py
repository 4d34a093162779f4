"""A bout's receipt as JUnit XML and SARIF 2.1.0, so bouts reach CI the way inspect does.

JUnit: one suite per bout, one case per atom (FAIL a failure, ERROR an error, PASS and SKIP
passing cases, SKIP's reason in ``system-out``). SARIF: one rule per catalogued atom, one result
per failed check of a FAILed atom (level error) and one per ERROR atom (level warning), located
at a stable relative URI made from the target (``mcp-target/bout/...``, line 1), since a bout's
target is a process, not a file; GitHub code scanning drops results without a physical location.
Every string that came from the server is sanitised (``text_safety``).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from whichtool_tui import __version__
from whichtool_tui.arcade.atoms import CATALOG
from whichtool_tui.arcade.receipt import AtomResult, BoutReceipt
from whichtool_tui.reports.junit_xml import JunitCase, JunitSuite, render_junit
from whichtool_tui.text_safety import sanitize_text

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://pypi.org/project/whichtool-tui/"
_UNSAFE_SLUG = re.compile(r"[^A-Za-z0-9._-]+")


def _target_label(receipt: BoutReceipt) -> str:
    target = receipt.target
    if target.kind == "fixture":
        return "fixture"
    if target.kind == "http" and target.url:
        return target.url
    if target.kind == "docker" and target.image:
        return target.image
    return " ".join(target.command) or target.kind


def _failed_checks(atom: AtomResult) -> list[str]:
    return [
        f"{check.id}: {sanitize_text(check.detail)}"
        for check in atom.checks
        if check.result in ("fail", "error")
    ]


def _case(atom: AtomResult) -> JunitCase:
    lines = _failed_checks(atom)
    body = "\n".join(lines)
    if atom.result == "fail":
        return JunitCase(atom.id, "bout", "failure", "fail", (lines or ["FAIL"])[0][:300], body)
    if atom.result == "error":
        return JunitCase(atom.id, "bout", "error", "error", (lines or ["ERROR"])[0][:300], body)
    reason = next((sanitize_text(c.detail) for c in atom.checks if c.result == "skip"), "")
    note = f"skip: {reason}" if atom.result == "skip" else ""
    return JunitCase(atom.id, "bout", system_out=note)


def render_bout_junit(receipt: BoutReceipt) -> str:
    """JUnit XML: one case per atom, stable names (the atom ids)."""
    suite = JunitSuite(
        name=f"bout {sanitize_text(_target_label(receipt))}",
        properties=[
            ("bout_id", receipt.bout_id),
            ("schema_id", receipt.schema_id),
            ("agent_policy", receipt.agent_policy),
            ("target_kind", receipt.target.kind),
        ],
        cases=[_case(atom) for atom in receipt.atoms],
    )
    return render_junit([suite], "whichtool-tui bout")


def target_uri(receipt: BoutReceipt) -> str:
    """A stable relative URI for the bout's target: same target, same URI."""
    slug = _UNSAFE_SLUG.sub("-", _target_label(receipt)).strip("-.")[:120] or "target"
    return f"mcp-target/bout/{receipt.target.kind}/{slug}"


def _rule(index: int) -> dict[str, Any]:
    spec = CATALOG[index]
    return {
        "id": spec.id,
        "name": "".join(p[:1].upper() + p[1:] for p in re.split(r"[._]", spec.id) if p),
        "shortDescription": {"text": spec.title},
        "fullDescription": {"text": spec.hypothesis},
        "help": {"text": spec.rationale or spec.question},
        "defaultConfiguration": {"level": "error"},
        "properties": {"extended": spec.extended},
    }


def _result(atom: AtomResult, rule_index: int, check_id: str, text: str, uri: str) -> Any:
    level = "error" if atom.result == "fail" else "warning"
    basis = "\x00".join([atom.id, check_id, uri])
    return {
        "ruleId": atom.id,
        "ruleIndex": rule_index,
        "level": level,
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": 1},
                },
                "logicalLocations": [{"name": check_id, "kind": "member"}],
            }
        ],
        "partialFingerprints": {
            "whichtoolBout/v1": hashlib.sha256(basis.encode("utf-8")).hexdigest()[:32]
        },
    }


def build_bout_sarif(receipt: BoutReceipt) -> dict[str, Any]:
    """The SARIF log as plain data."""
    index = {spec.id: position for position, spec in enumerate(CATALOG)}
    uri = target_uri(receipt)
    results: list[Any] = []
    for atom in receipt.atoms:
        if atom.result not in ("fail", "error"):
            continue
        prefix = "FAIL" if atom.result == "fail" else "ERROR (the atom could not finish)"
        for check in atom.checks:
            if check.result in ("fail", "error"):
                text = f"{atom.title}: {prefix}. {check.id}: {sanitize_text(check.detail)}"
                results.append(_result(atom, index[atom.id], check.id, text, uri))
    run = {
        "tool": {
            "driver": {
                "name": "whichtool-tui",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(i) for i in range(len(CATALOG))],
            }
        },
        "results": results,
        "columnKind": "utf16CodeUnits",
        "artifacts": [
            {
                "location": {"uri": uri},
                "roles": ["analysisTarget"],
                "description": {"text": "The bout's target itself; it is not a file here."},
            }
        ],
        "properties": {
            "boutId": receipt.bout_id,
            "agentPolicy": receipt.agent_policy,
            "atoms": {atom.id: atom.result for atom in receipt.atoms},
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_bout_sarif(receipt: BoutReceipt) -> str:
    """SARIF 2.1.0 JSON (ASCII), indent 2, trailing newline."""
    return json.dumps(build_bout_sarif(receipt), indent=2, ensure_ascii=True) + "\n"
