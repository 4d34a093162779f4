"""The layering contracts in pyproject.toml hold (domain below use cases below faces)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO

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
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    kept = [line for line in result.stdout.splitlines() if line.endswith(" KEPT")]
    assert len(kept) >= 4, result.stdout


FACES_CONTRACT = "Faces reach the engine only through the use-case layer"
FACES_CONTRACT_ID = "faces-through-usecases"  # the id the contract declares in pyproject.toml


def faces_contract(
    cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """lint-imports on the faces contract alone, in ``cwd``."""
    return subprocess.run(
        [*lint_imports(), "--no-cache", "--contract", FACES_CONTRACT_ID],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


def test_faces_reach_the_engine_only_through_the_use_cases() -> None:
    result = faces_contract(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{FACES_CONTRACT} KEPT" in result.stdout


def test_a_face_importing_the_engine_directly_breaks_the_contract(tmp_path: Path) -> None:
    # A copy of the package whose `report` command reaches into the engine past the use cases.
    shutil.copytree(REPO / "whichtool_tui", tmp_path / "whichtool_tui")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    command = tmp_path / "whichtool_tui" / "commands" / "report.py"
    command.write_text(
        command.read_text(encoding="utf-8")
        + "\n\nfrom whichtool_tui.surface.inspect import inspect_surface  # noqa: E402\n",
        encoding="utf-8",
    )
    result = faces_contract(tmp_path, {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{FACES_CONTRACT} BROKEN" in result.stdout
    assert "whichtool_tui.commands.report -> whichtool_tui.surface.inspect" in result.stdout
