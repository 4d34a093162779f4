"""Opening a big JSON artefact leaves its parsed objects out of the young generation, so the
first collection after the parse does not scan all of them (0.2-0.5 s of a 100,000-event
receipt's first frame)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a fresh interpreter: no other test's frozen objects

PROBE = """
import gc, json, sys
from whichtool_tui.artefacts import parse_artefact_text

text = json.dumps({"wire": [{"seq": i, "message": {"id": i, "params": {}}} for i in range(20000)]})
data = parse_artefact_text(text, "big.json")
young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
print(len(data["wire"]), young, gc.isenabled(), gc.get_freeze_count())
"""


def test_parsed_objects_skip_the_young_generation(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    events, young, enabled, frozen = result.stdout.split()
    assert events == "20000"
    assert int(young) < 1000, f"{young} objects left for the next young collection"
    assert enabled == "True" and frozen == "0"  # the collector is back on, nothing stays frozen
