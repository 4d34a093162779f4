"""The layering contracts in pyproject.toml hold (domain below use cases below faces)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # starts lint-imports in a child process


def lint_imports() -> list[str]:
    """The lint-imports command beside this interpreter (the venv's), else the one on PATH."""
    beside = Path(sys.executable).with_name("lint-imports")
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports is missing: install the test extra (import-linter)")
    return [found]


def test_import_contracts_are_kept() -> None:
    result = subprocess.run(
        [*lint_imports(), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    kept = [line for line in result.stdout.splitlines() if line.endswith(" KEPT")]
    assert len(kept) >= 4, result.stdout
