"""Test modules live in the five folders of their kind; a module anywhere else fails collection.

A test file written flat in tests/ (or in a folder of its own) still runs, so nothing else
would notice it; the folders carry the suite's conventions (markers, fixtures, what "slow"
means), so a module outside them fails collection with a message that says where it belongs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

TEST_FOLDERS = ("unit", "edges", "faces", "ui", "browser")
"""Where test modules live under tests/ (helpers live in tests/support)."""


def misplaced_reason(module_path: Path, tests_root: Path) -> str | None:
    """Why a test module is in the wrong place under ``tests_root``, or None when it is not."""
    try:
        relative = module_path.relative_to(tests_root)
    except ValueError:
        return None  # not under the tests folder: another conftest's business
    folders = ", ".join(f"tests/{name}" for name in TEST_FOLDERS)
    if len(relative.parts) == 1:
        where = "sits directly in tests/"
    elif relative.parts[0] not in TEST_FOLDERS:
        where = f"sits in tests/{relative.parts[0]}/, which is not a test folder"
    else:
        return None
    return (
        f"tests/{relative.as_posix()} {where}: test modules live in {folders} "
        "(helpers in tests/support); move it to the folder of its kind."
    )


class MisplacedTestModule(pytest.File):
    """A test module in the wrong place: collecting it fails with the reason, never imports it."""

    reason: str = ""

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        """Fail this file's collection (so the run stops) with the reason."""
        raise self.CollectError(self.reason)


def layout_guard(tests_root: Path) -> Callable[..., Any]:
    """A ``pytest_pycollect_makemodule`` hook for a conftest in ``tests_root``."""

    def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> Any:
        reason = misplaced_reason(module_path, tests_root)
        if reason is None:
            return None  # the usual module collector
        module = MisplacedTestModule.from_parent(parent, path=module_path)
        module.reason = reason
        return module

    return pytest_pycollect_makemodule
