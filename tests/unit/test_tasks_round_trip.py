"""A task file saved over itself is kept as written: unedited, the same bytes; edited, only the
changed tasks' lines move, and the strict loader still reads the result."""

from __future__ import annotations

from pathlib import Path

import pytest

from whichtool_tui.tasks.load import load_task_set
from whichtool_tui.tasks.model import Task
from whichtool_tui.tasks.writer import write_task_set

REPO = Path(__file__).resolve().parents[2]
BUNDLED = sorted(
    [*(REPO / "snapshots").glob("*.tasks.yaml"), *(REPO / "examples").rglob("*.tasks.yaml")]
)

HAND_WRITTEN = """\
# our routing tasks: keep the weather ones last
version: 1
surface: null   # not pinned yet
tasks:
# users
- id: users.list          # the basic one
  prompt: List users in the workspace
  expected: list_users
  tags: []
- id: 'users.search'
  prompt: >-
    Find the users whose
    names include Ada
  expected: search_users
  tags: [search]

# weather
- id: weather.rome
  prompt: "Current weather for the city of Rome"
  expected: get_weather
  tags: []
- {id: distractor.joke, prompt: Tell me a joke, expected: null, tags: [distractor]}
"""


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: path.name)
def test_an_unedited_save_of_a_bundled_file_is_byte_identical(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    write_task_set(load_task_set(copy).task_set, copy, comments_from=copy)
    assert copy.read_bytes() == path.read_bytes()


def test_bundled_files_exist() -> None:
    assert len(BUNDLED) >= 2


def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "ours.tasks.yaml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    return path


def test_an_unedited_save_of_a_hand_formatted_file_keeps_every_byte(tmp_path: Path) -> None:
    path = hand_file(tmp_path)
    write_task_set(load_task_set(path).task_set, path, comments_from=path)
    assert path.read_text(encoding="utf-8") == HAND_WRITTEN


def test_an_edit_changes_only_the_edited_tasks_lines(tmp_path: Path) -> None:
    """The edited task's block is written afresh; every other line stays as typed."""
    path = hand_file(tmp_path)
    task_set = load_task_set(path).task_set
    tasks = list(task_set.tasks)
    tasks[2] = tasks[2].model_copy(update={"prompt": "Weather in Rome right now"})
    edited = task_set.model_copy(update={"tasks": tasks})
    write_task_set(edited, path, comments_from=path)
    after = path.read_text(encoding="utf-8").splitlines()
    before = HAND_WRITTEN.splitlines()
    changed = [line for line in after if line not in before]
    gone = [line for line in before if line not in after]
    assert gone == [
        "- id: weather.rome",
        '  prompt: "Current weather for the city of Rome"',
        "  expected: get_weather",
    ]
    assert changed == [
        '- id: "weather.rome"',
        '  prompt: "Weather in Rome right now"',
        '  expected: "get_weather"',
    ]
    assert len(after) == len(before)
    assert "# our routing tasks: keep the weather ones last" in after
    assert "- id: users.list          # the basic one" in after
    assert load_task_set(path).task_set == edited  # the strict loader reads it back


def test_a_delete_and_an_add_touch_only_those_tasks(tmp_path: Path) -> None:
    path = hand_file(tmp_path)
    task_set = load_task_set(path).task_set
    added = Task(id="users.count", prompt="How many users are there?", expected="list_users")
    tasks = [task_set.tasks[0], task_set.tasks[2], task_set.tasks[3], added]
    edited = task_set.model_copy(update={"tasks": tasks})
    write_task_set(edited, path, comments_from=path)
    text = path.read_text(encoding="utf-8")
    assert "users.search" not in text and "names include Ada" not in text
    assert "- {id: distractor.joke, prompt: Tell me a joke" in text  # the flow item as typed
    assert '- id: "users.count"' in text
    assert "# weather" in text and "surface: null   # not pinned yet" in text
    assert load_task_set(path).task_set == edited


def test_a_changed_header_falls_back_to_the_canonical_layout(tmp_path: Path) -> None:
    path = hand_file(tmp_path)
    task_set = load_task_set(path).task_set
    pinned = task_set.model_copy(update={"surface": "sha256:" + "ab" * 32})
    write_task_set(pinned, path, comments_from=path)
    assert load_task_set(path).task_set == pinned
    assert path.read_text(encoding="utf-8").startswith("# whichtool.tasks.yaml")
