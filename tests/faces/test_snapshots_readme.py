"""snapshots/README.md says what `inspect` shows for each bundled snapshot; every figure in its
table is checked here against the real command: tool counts, token estimates, the largest
tool's share, overlap scores, finding codes with their severity, "no errors/warnings", and the
exit code."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

from tests.support.cli import run_headless
from tests.support.paths import REPO

README = REPO / "snapshots" / "README.md"
ROW = re.compile(r"^\| `(?P<file>[\w.-]+\.json)` \| (?P<what>.*?) \| (?P<shows>.*) \|$")
CODE_WITH_SEVERITY = re.compile(r"`([a-z-]+/[A-Za-z-]+)`(?: \(|, )(error|warning|info)\b")
CODE = re.compile(r"`([a-z-]+/[A-Za-z-]+)`")


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in README.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows.append((match["file"], match["what"], match["shows"]))
    return rows


def _inspect(snapshot: str, *flags: str) -> tuple[int, dict[str, Any]]:
    done = run_headless(
        "inspect",
        f"snapshots/{snapshot}",
        *flags,
        "--format",
        "json",
        env=dict(os.environ),
        cwd=REPO,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_the_table_lists_every_bundled_snapshot() -> None:
    listed = {name for name, _, _ in _rows()}
    assert listed == {p.name for p in (REPO / "snapshots").glob("*.json")}


@pytest.mark.slow
@pytest.mark.parametrize(("snapshot", "what", "shows"), _rows(), ids=lambda v: str(v)[:30])
def test_each_rows_figures_match_inspect(snapshot: str, what: str, shows: str) -> None:
    limit = re.search(r"--max-context-tokens (\d+)", shows)
    plain_exit, plain = _inspect(snapshot)
    reports = [plain]
    flagged_exit = None
    if limit:
        flagged_exit, flagged = _inspect(snapshot, "--max-context-tokens", limit.group(1))
        reports.append(flagged)
    findings = {(d["code"], d["severity"]) for r in reports for d in r["diagnostics"]}
    codes = {code for code, _ in findings}

    for claimed in CODE.findall(shows):
        assert claimed in codes, f"{snapshot}: README names {claimed}, inspect does not"
    for claimed, severity in CODE_WITH_SEVERITY.findall(shows):
        assert (claimed, severity) in findings, f"{snapshot}: {claimed} is not a {severity}"

    exits = re.findall(r"exit (\d)", shows)
    assert exits, f"{snapshot}: the row gives no exit code"
    assert int(exits[-1]) == (flagged_exit if limit else plain_exit)

    for count in re.findall(r"(\d+) tools", f"{what} {shows}"):
        assert int(count) == plain["surface"]["toolCount"]
    for tokens in re.findall(r"~([\d,]+) estimated tokens", shows):
        value = int(tokens.replace(",", ""))
        assert abs(plain["tokens"]["total"] - value) <= max(50, value // 50), tokens
    for share in re.findall(r"(\d+)% in one tool", shows):
        totals = [t["total"] for t in plain["tokens"]["byTool"].values()]
        assert round(100 * max(totals) / plain["tokens"]["total"]) == int(share)
    scores = {round(pair["score"], 2) for pair in plain["overlap"]["pairs"]}
    for score in re.findall(r"score ~(0\.\d\d)", shows):
        assert float(score) in scores, f"{snapshot}: no pair scores ~{score}"

    severities = {d["severity"] for d in plain["diagnostics"]}
    if "no errors" in shows:
        assert "error" not in severities
    if "no warnings" in shows or "no errors or warnings" in shows:
        assert not severities & {"error", "warning"}
