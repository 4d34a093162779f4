"""The trial cache and the bout sandbox live in the platform cache and state folders (issue 12
item 13, issue 15 item 8), never in the working directory; --cache-dir and --sandbox still
choose any folder. Every test here runs under temporary XDG homes (tests/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.places import PlatformDirs
from whichtool_tui import places
from whichtool_tui.cli import main
from whichtool_tui.evaluation.cache import TrialCache, cache_key
from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.report_model import Call
from whichtool_tui.providers.base import Capabilities, ProviderIdentity, RouteRequest, ToolSpec

IDENTITY = ProviderIdentity(
    name="openai-compatible",
    model="m",
    endpoint="http://127.0.0.1:1/v1",
    request_fingerprint="f" * 64,
    capabilities=Capabilities(seed=True, temperature_zero=True),
)


def _store_one(cache: TrialCache) -> str:
    key = cache_key(IDENTITY, RouteRequest("do a", (ToolSpec("a", "first", {}),), 0.0, 1))
    assert key is not None
    cache.put(key, TrialOutcome(calls=(Call(name="a", arguments={}),), latency_ms=5.0))
    return key


def test_the_folders_follow_xdg_and_fall_back_to_the_home(
    platform_dirs: PlatformDirs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert places.default_cache_dir() == platform_dirs.cache
    assert places.default_sandbox_dir() == platform_dirs.sandbox
    from whichtool_tui.ui.recent import STATE_DIR_ENV, state_dir

    monkeypatch.delenv(STATE_DIR_ENV, raising=False)
    assert state_dir() == platform_dirs.state_home / "whichtool-tui"  # recent files beside it
    # Without the XDG variables, the home's .cache and .local/state (platformdirs' rule).
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert places.default_cache_dir() == tmp_path / "home" / ".cache" / "whichtool-tui"
    assert places.default_sandbox_dir() == (
        tmp_path / "home" / ".local" / "state" / "whichtool-tui" / "arcade-sandbox"
    )


def test_the_default_cache_is_the_platform_folder_with_a_tag(
    platform_dirs: PlatformDirs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    cache = TrialCache()
    key = _store_one(cache)
    assert cache.directory == platform_dirs.cache
    assert (platform_dirs.cache / "trials" / key[:2] / f"{key}.json").is_file()
    tag = (platform_dirs.cache / "CACHEDIR.TAG").read_text(encoding="utf-8")
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert list(tmp_path.iterdir()) == []  # nothing in the working directory
    assert main(["--no-ui", "cache", "info"]) == 0
    info = capsys.readouterr().out
    assert f"location  {platform_dirs.cache}\n" in info and "entries   1\n" in info
    assert main(["--no-ui", "cache", "clear"]) == 0
    assert "Removed 1 cached trials" in capsys.readouterr().out
    assert (platform_dirs.cache / "CACHEDIR.TAG").exists()  # not an entry: clear keeps it
    # --dir still names any folder, and the default one is left alone.
    other = tmp_path / "elsewhere"
    _store_one(TrialCache(other))
    assert main(["--no-ui", "cache", "info", "--dir", str(other)]) == 0
    assert "entries   1\n" in capsys.readouterr().out


@pytest.mark.slow  # starts the bundled fixture
def test_a_bout_without_sandbox_uses_the_state_folder(
    platform_dirs: PlatformDirs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    argv = ["--no-ui", "bout", "--target", "fixture", "--no-prompt", "-o", str(tmp_path / "r.json")]
    assert main(argv) == 0, capsys.readouterr().err
    receipt = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [a["result"] for a in receipt["atoms"]] == ["pass", "fail", "fail", "fail"]
    assert list(work.iterdir()) == []  # no ./.arcade-sandbox any more
    sandbox = platform_dirs.sandbox
    assert (sandbox / "CACHEDIR.TAG").read_text(encoding="utf-8").startswith("Signature: ")
    folders = sorted(p.name for p in sandbox.iterdir() if p.is_dir())
    assert folders == ["inspect", "poison", "rugpull", "unlisted"]
    assert all((sandbox / name / ".whichtool-sandbox").is_file() for name in folders)
    # The poisoned fixture wrote its leak where ARCADE_LEAK_PATH pointed: inside that folder.
    assert (sandbox / "poison" / "leak.txt").is_file()
    # A folder named with --sandbox gets atom folders only, no tag at its top.
    named = tmp_path / "named"
    argv = [*argv[:-2], "--sandbox", str(named), "-o", str(tmp_path / "r2.json")]
    assert main(argv) == 0
    assert not (named / "CACHEDIR.TAG").exists() and (named / "inspect").is_dir()


@pytest.mark.slow  # a refused bout must start no server; the check walks our processes
def test_a_sandbox_another_bout_holds_is_refused_before_any_server(
    platform_dirs: PlatformDirs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.support.processes import processes_matching
    from whichtool_tui.arcade.sandbox import lock_sandbox

    receipt = tmp_path / "r.json"
    argv = ["--no-ui", "bout", "--target", "fixture", "--no-prompt", "-o", str(receipt)]
    with lock_sandbox(platform_dirs.sandbox):  # as a bout running in another terminal does
        code = main(argv)
        err = capsys.readouterr().err
        assert processes_matching("whichtool_tui.arcade.fixture") == []
    assert code == 2
    assert err.startswith("whichtool-tui: the sandbox ") and "in use by another bout" in err
    assert not receipt.exists()
    assert main(argv) == 0  # released: the next bout runs
