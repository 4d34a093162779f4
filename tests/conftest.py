"""Fixtures every test folder shares (unit, edges, faces, ui, browser): this conftest sits above
them all. Paths live in tests/support/paths.py, the binary in tests/support/cli.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fake_apis import FakeApi, fake_api_server
from tests.support.layout import layout_guard

# A real local LLM server, started once per session for every test that asks for it.
from tests.support.llama import llama_base_url  # noqa: F401
from tests.support.places import PlatformDirs, point_platform_dirs
from tests.support.slow_guard import (
    _slow_mark_guard,  # noqa: F401
    mark_whole_app_tests_slow,
)

# A test module outside tests/unit, edges, faces, ui and browser fails collection.
pytest_pycollect_makemodule = layout_guard(Path(__file__).parent)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Pilot and snapshot tests are marked slow (see ``mark_whole_app_tests_slow``)."""
    mark_whole_app_tests_slow(items)


@pytest.fixture
def cli_env() -> dict[str, str]:
    """An environment for subprocess runs of the CLI: no colour, no inherited secrets."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("WHICHTOOL_HTTP_AUTHORIZATION", None)
    env["NO_COLOR"] = "1"
    return env


@pytest.fixture
def api() -> Iterator[FakeApi]:
    """A loopback server speaking the provider APIs, stopped when the test ends."""
    with fake_api_server() as server:
        yield server


@pytest.fixture(scope="session", autouse=True)
def _platform_dirs_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Session- and module-scoped fixtures that copy the environment get temporary XDG homes
    too, so nothing a test starts writes the user's cache or state folders."""
    with pytest.MonkeyPatch.context() as patch:
        point_platform_dirs(patch, tmp_path_factory.mktemp("platform-dirs"))
        yield


@pytest.fixture(scope="session", autouse=True)
def _orphans_come_back_to_the_test_process() -> None:
    """Make this process a child subreaper: a server a test leaked re-parents here, so the
    leftover checks can walk our own descendants instead of every process on the machine."""
    from whichtool_tui.process_tree import become_subreaper

    become_subreaper()


@pytest.fixture(autouse=True)
def platform_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> PlatformDirs:
    """Fresh XDG cache and state homes per test: the default trial cache and bout sandbox
    start empty, and the real home is never written (outside the test's tmp_path, so tests
    that list tmp_path see only their own files)."""
    return point_platform_dirs(monkeypatch, tmp_path_factory.mktemp("xdg"))


@pytest.fixture
def isolated_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform_dirs: PlatformDirs
) -> Path:
    """A fresh TUI state folder, so no test reads or writes the user's recent files (the XDG
    cache and state homes are already the test's own, see ``platform_dirs``)."""
    state = tmp_path / "state"
    monkeypatch.setenv("WHICHTOOL_TUI_STATE_DIR", str(state))
    return state
