"""The JSON report of the hand-counted scenario against a golden file (volatile fields zeroed).

Regenerate with WHICHTOOL_REGEN_GOLDEN=1 after an intended change, and review the diff.
"""

from __future__ import annotations

import json
import os
from typing import Any

from tests.support import paths
from tests.support.scenario import run_scenario

GOLDEN = paths.GOLDEN / "run" / "scenario.json"
REGENERATE = os.environ.get("WHICHTOOL_REGEN_GOLDEN") == "1"


def _normalised(report: dict[str, Any]) -> str:
    report["durationMs"] = 0
    report["reproducibility"]["whichtoolVersion"] = "0.0.0"
    for trial in report["trials"]:
        trial["latencyMs"] = 0
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


async def test_scenario_json_matches_golden() -> None:
    text = _normalised(await run_scenario())
    if REGENERATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
