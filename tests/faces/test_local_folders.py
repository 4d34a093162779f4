"""Local folders (issue 12, item 13): cache entries are bound to their key, `cache clear` removes
only what the cache wrote, and a bout never deletes a folder it did not create."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from whichtool_tui.cli import main
from whichtool_tui.evaluation.cache import TrialCache, cache_clear, cache_key
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
TOOLS = (ToolSpec("a", "first", {"type": "object"}), ToolSpec("b", "second", {}))


def _stored(cache: TrialCache, prompt: str) -> tuple[str, Path]:
    key = cache_key(IDENTITY, RouteRequest(prompt, TOOLS, 0.0, 1))
    assert key is not None
    cache.put(key, TrialOutcome(calls=(Call(name="a", arguments={}),), latency_ms=5.0))
    return key, cache.directory / "trials" / key[:2] / f"{key}.json"


def test_an_edited_or_moved_entry_is_never_replayed(tmp_path: Path) -> None:
    cache = TrialCache(tmp_path)
    key, path = _stored(cache, "do a")
    assert cache.get(key) is not None
    entry = json.loads(path.read_text(encoding="utf-8"))
    assert len(entry["integrity"]) == 64
    edited = dict(entry, calls=[{"name": "b", "arguments": {}}], pick="b")
    path.write_text(json.dumps(edited), encoding="utf-8")
    assert cache.get(key) is None  # an answer the model never gave
    other, other_path = _stored(cache, "do b")
    other_path.write_text(json.dumps(entry), encoding="utf-8")  # a valid entry, wrong key
    assert cache.get(other) is None
    unsigned = {k: v for k, v in entry.items() if k != "integrity"}
    path.write_text(json.dumps(unsigned), encoding="utf-8")
    assert cache.get(key) is None


def test_the_cache_folder_carries_a_cachedir_tag(tmp_path: Path) -> None:
    cache = TrialCache(tmp_path / "c")
    _stored(cache, "do a")
    tag = (tmp_path / "c" / "CACHEDIR.TAG").read_text(encoding="utf-8")
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert cache_clear(tmp_path / "c") == 1
    assert (tmp_path / "c" / "CACHEDIR.TAG").exists()  # not an entry: clear keeps it


def test_cache_clear_deletes_only_entries_it_wrote(tmp_path: Path) -> None:
    cache = TrialCache(tmp_path)
    _key, path = _stored(cache, "do a")
    notes = tmp_path / "trials" / "notes.txt"
    notes.write_text("mine", encoding="utf-8")
    stray = path.parent / "README.json"
    stray.write_text("{}", encoding="utf-8")
    kept_folder = tmp_path / "trials" / "work"
    kept_folder.mkdir()
    assert cache_clear(tmp_path) == 1
    assert not path.exists()
    assert notes.exists() and stray.exists() and kept_folder.is_dir()
    assert main(["--no-ui", "cache", "clear", "--dir", str(tmp_path)]) == 0
    assert notes.read_text(encoding="utf-8") == "mine"


@pytest.mark.slow
def test_bout_never_deletes_a_folder_it_did_not_create(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox = tmp_path / "home"
    precious = sandbox / "poison" / "thesis.tex"
    precious.parent.mkdir(parents=True)
    precious.write_text("years of work", encoding="utf-8")
    code = main(["--no-ui", "bout", "--target", "fixture", "--no-prompt", "--atoms",
                 "poison.follow_through", "--sandbox", str(sandbox)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "was not made by a bout" in err, err
    assert precious.read_text(encoding="utf-8") == "years of work"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the fixture bout runs on Linux here")
def test_a_bout_reuses_only_its_own_marked_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox = tmp_path / "sb"
    receipt_path = tmp_path / "r.json"
    argv = ["--no-ui", "bout", "--target", "fixture", "--no-prompt", "--atoms",
            "poison.follow_through", "--sandbox", str(sandbox),
            "-o", str(receipt_path)]  # fmt: skip
    assert main(argv) in (0, 1)
    assert (sandbox / "poison" / ".whichtool-sandbox").is_file()
    receipt = json.loads(receipt_path.read_text(encoding="utf-8"))
    assert ".whichtool-sandbox" not in json.dumps(receipt)
    assert main(argv) in (0, 1)  # its own folder is emptied and reused
    capsys.readouterr()
