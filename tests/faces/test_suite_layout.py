"""The suite's own layout check: a test module outside the five test folders fails collection.

A real pytest process collects a small tree laid out like tests/ (its conftest installs the
same hook as ours), so what is proved is what a misplaced file would meet in this suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.layout import TEST_FOLDERS, misplaced_reason
from tests.support.paths import REPO

TESTS = REPO / "tests"


def test_the_reason_names_where_test_modules_live() -> None:
    flat = misplaced_reason(TESTS / "test_flat.py", TESTS)
    assert flat is not None and flat.startswith("tests/test_flat.py sits directly in tests/:")
    assert all(f"tests/{folder}" in flat for folder in TEST_FOLDERS)
    stray = misplaced_reason(TESTS / "support" / "test_helper.py", TESTS)
    assert stray is not None and "tests/support/, which is not a test folder" in stray
    for folder in TEST_FOLDERS:
        assert misplaced_reason(TESTS / folder / "deeper" / "test_x.py", TESTS) is None
    assert misplaced_reason(REPO / "bench" / "test_x.py", TESTS) is None


def test_every_module_of_this_suite_is_in_its_place() -> None:
    modules = [path for path in TESTS.rglob("test_*.py") if "node_modules" not in path.parts]
    assert modules
    assert [misplaced_reason(path, TESTS) for path in modules] == [None] * len(modules)


@pytest.mark.slow  # runs pytest in a child process
def test_a_flat_test_module_fails_collection_with_the_reason(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    (tests / "unit").mkdir(parents=True)
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tests / "conftest.py").write_text(
        "from pathlib import Path\n"
        "from tests.support.layout import layout_guard\n"
        "pytest_pycollect_makemodule = layout_guard(Path(__file__).parent)\n",
        encoding="utf-8",
    )
    (tests / "unit" / "test_in_place.py").write_text("def test_a():\n    pass\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]

    def collect() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )

    in_place = collect()
    assert in_place.returncode == 0, in_place.stdout + in_place.stderr
    assert "1 passed" in in_place.stdout
    (tests / "test_flat.py").write_text(
        "import sys\nsys.exit('imported')\n\ndef test_b():\n    pass\n", "utf-8"
    )
    flat = collect()
    assert flat.returncode == 2  # collection errors interrupt the run: nothing runs
    assert "ERROR collecting tests/test_flat.py" in flat.stdout
    assert "tests/test_flat.py sits directly in tests/: test modules live in" in flat.stdout
    assert "imported" not in flat.stdout + flat.stderr  # failed before importing it
    assert "passed" not in flat.stdout
