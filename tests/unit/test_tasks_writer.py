"""The writer: fixed YAML layout, JSON by extension, and output that loads back identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.tasks.load import load_task_set, parse_task_text
from whichtool_tui.tasks.model import DerivedFrom, Task, TaskSet
from whichtool_tui.tasks.writer import (
    guard_overwrite,
    quote,
    task_set_to_json,
    task_set_to_yaml,
    write_task_set,
)

SAMPLE = TaskSet(
    version=1,
    surface="sha256:" + "ab" * 32,
    tasks=[
        Task(id="t1", prompt="Show me the open invoices", expected="list_invoices"),
        Task(
            id="t1.typo",
            prompt="Shlw me the open invoices",
            expected="list_invoices",
            tags=["mutated", "typo"],
            derived_from=DerivedFrom(task_id="t1", mutation="typo"),
        ),
        Task(id="d1", prompt="Delete my account", expected=None, tags=["distractor"]),
    ],
)


def test_yaml_layout_is_fixed() -> None:
    assert task_set_to_yaml(SAMPLE) == (
        "# whichtool.tasks.yaml\n"
        "version: 1\n"
        f'surface: "sha256:{"ab" * 32}"  # the surface these tasks were written for; '
        "a change is a warning, not an error\n"
        "tasks:\n"
        '  - id: "t1"\n'
        '    prompt: "Show me the open invoices"\n'
        '    expected: "list_invoices"\n'
        "    tags: []\n"
        '  - id: "t1.typo"\n'
        '    prompt: "Shlw me the open invoices"\n'
        '    expected: "list_invoices"\n'
        '    tags: ["mutated", "typo"]\n'
        "    derivedFrom:\n"
        '      taskId: "t1"\n'
        '      mutation: "typo"\n'
        '  - id: "d1"\n'
        '    prompt: "Delete my account"\n'
        "    expected: null  # distractor: the right answer is to call no tool\n"
        '    tags: ["distractor"]\n'
    )


def test_json_form_keeps_key_order_and_omits_absent_derived_from() -> None:
    document = json.loads(task_set_to_json(SAMPLE))
    assert list(document) == ["version", "surface", "tasks"]
    assert list(document["tasks"][0]) == ["id", "prompt", "expected", "tags"]
    assert document["tasks"][1]["derivedFrom"] == {"taskId": "t1", "mutation": "typo"}
    assert task_set_to_json(SAMPLE).endswith("}\n")


@pytest.mark.parametrize(
    "text",
    [
        "plain",
        'quotes " and \\ backslash',
        "# not a comment: {a: b}, [c], &anchor *alias !tag",
        "tab\there, newline\nthere, CR\r, NUL\x00, bell\x07",
        "DEL\x7f NEL\x85 C1\x9b NBSP\xa0 LS\u2028 PS\u2029 BOM\ufeff nonchar\ufffe\uffff",
        "lone surrogate \ud800 and emoji \U0001f600 and CJK \u4e2d\u6587",
        "  leading and trailing spaces  ",
        "yes",
        "null",
        "- dash",
        "'single'",
    ],
)
def test_any_string_round_trips_through_yaml(text: str) -> None:
    task_set = TaskSet(
        version=1,
        surface=None,
        tasks=[Task(id=f"x{text}", prompt=f"p{text}", expected=f"e{text}", tags=[text])],
    )
    loaded, file_format = parse_task_text(task_set_to_yaml(task_set), "rt.yaml")
    assert file_format == "yaml"
    assert loaded == task_set


def test_every_code_point_round_trips() -> None:
    chunk = 4096
    everything = "".join(chr(code) for code in range(1, 0x110000))
    tasks = [
        Task(id=f"c{start}", prompt="p" + everything[start : start + chunk], expected=None)
        for start in range(0, len(everything), chunk)
    ]
    task_set = TaskSet(version=1, surface=None, tasks=tasks)
    assert parse_task_text(task_set_to_yaml(task_set), "all.yaml")[0] == task_set
    assert parse_task_text(task_set_to_json(task_set), "all.json")[0] == task_set


def test_quote_escapes_what_yaml_would_misread() -> None:
    assert quote("a\u2028b\x85c") == '"a\\u2028b\\u0085c"'


def test_write_chooses_format_by_extension_and_reads_back(tmp_path: Path) -> None:
    yaml_path = write_task_set(SAMPLE, tmp_path / "out.yaml")
    json_path = write_task_set(SAMPLE, tmp_path / "out.JSON")
    assert yaml_path.read_text().startswith("# whichtool.tasks.yaml\n")
    assert json_path.read_text().startswith("{\n")
    assert load_task_set(yaml_path).task_set == SAMPLE
    assert load_task_set(json_path).task_set == SAMPLE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.JSON", "out.yaml"]


def test_empty_task_set_round_trips() -> None:
    empty = TaskSet(version=1, surface=None, tasks=[])
    assert task_set_to_yaml(empty).endswith("surface: null\ntasks: []\n")
    assert parse_task_text(task_set_to_yaml(empty), "e.yaml")[0] == empty


def test_guard_refuses_existing_file_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "t.yaml"
    guard_overwrite(target, force=False)  # absent: fine
    target.write_text("keep me")
    with pytest.raises(WhichtoolError) as caught:
        guard_overwrite(target, force=False)
    assert caught.value.code == "tasks/would-overwrite"
    guard_overwrite(target, force=True)
    assert target.read_text() == "keep me"
