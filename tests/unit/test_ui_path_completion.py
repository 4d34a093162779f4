"""Path completion in the path prompts: the typed path extended by the folder's entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from whichtool_tui.ui.widgets.path_suggester import complete_path, shared_start


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "demo-lab.json").write_text("[]", encoding="utf-8")
    (tmp_path / "demo-lab.tasks.yaml").write_text("", encoding="utf-8")
    (tmp_path / "receipts").mkdir()
    (tmp_path / ".hidden").write_text("", encoding="utf-8")
    return tmp_path


def test_one_match_completes_to_the_whole_name(folder: Path) -> None:
    assert complete_path(f"{folder}/rec") == f"{folder}/receipts/"
    assert complete_path(f"{folder}/demo-lab.t") == f"{folder}/demo-lab.tasks.yaml"


def test_several_matches_complete_to_what_they_share(folder: Path) -> None:
    assert complete_path(f"{folder}/de") == f"{folder}/demo-lab."


def test_nothing_to_add_or_no_folder_suggests_nothing(folder: Path) -> None:
    assert complete_path(f"{folder}/demo-lab.") is None  # json or tasks.yaml: no shared start
    assert complete_path(f"{folder}/zzz") is None
    assert complete_path(f"{folder}/missing/x") is None


def test_hidden_entries_need_a_typed_dot(folder: Path) -> None:
    assert complete_path(f"{folder}/") is None  # the visible names share no start
    assert complete_path(f"{folder}/.h") == f"{folder}/.hidden"


def test_shared_start() -> None:
    assert shared_start(["abc", "abd", "ab"]) == "ab"
    assert shared_start(["same", "same"]) == "same"
