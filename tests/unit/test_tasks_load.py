"""Task-set loading: both formats, strict refusals naming file, line and rule, file discovery."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import paths
from tests.support.paths import REPO
from whichtool_tui.config import Settings
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.tasks.load import load_task_set, parse_task_text, resolve_task_file
from whichtool_tui.tasks.model import DerivedFrom, Task

FIXTURES = paths.TASK_FIXTURES


def refusal(text: str, source: str = "t.yaml") -> WhichtoolError:
    with pytest.raises(WhichtoolError) as caught:
        parse_task_text(text, source)
    return caught.value


def test_fixture_loads_with_cwd_relative_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    loaded = load_task_set(FIXTURES / "basic.tasks.yaml")
    assert loaded.source == "tests/fixtures/tasks/basic.tasks.yaml"
    assert loaded.format == "yaml"
    assert [task.id for task in loaded.task_set.tasks] == ["t1", "t2", "t3", "t4"]
    assert loaded.task_set.tasks[1].tags == ["write"]
    assert loaded.task_set.tasks[3].expected is None
    assert loaded.task_set.tasks[0].tags == []
    assert loaded.task_set.surface is None


def test_file_outside_cwd_is_shown_by_basename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "inner").mkdir()
    monkeypatch.chdir(tmp_path / "inner")
    path = tmp_path / "elsewhere.yaml"
    path.write_text("version: 1\ntasks:\n  - {id: a, prompt: p, expected: null}\n")
    assert load_task_set(path).source == "elsewhere.yaml"


def test_json_is_detected_by_shape_whatever_the_extension() -> None:
    text = (
        '  {"version": 1, "surface": "sha256:ab", "tasks": [{"id": "a", "prompt": "p", '
        '"expected": "x", "derivedFrom": {"taskId": "o", "mutation": "typo"}}]}'
    )
    task_set, file_format = parse_task_text(text, "tasks.yaml")
    assert file_format == "json"
    assert task_set.surface == "sha256:ab"
    assert task_set.tasks == [
        Task(
            id="a",
            prompt="p",
            expected="x",
            derived_from=DerivedFrom(task_id="o", mutation="typo"),
        )
    ]


def test_missing_expected_names_line_task_and_why() -> None:
    error = refusal(
        "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: t\n  - id: b\n    prompt: q\n"
    )
    assert error.code == "tasks/invalid"
    assert error.message == "t.yaml:6: task 1 (`b`): does not set `expected`"
    assert error.hint is not None and "expected: null" in error.hint


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version: 1\ntasks: []\nextra: 1\n", "t.yaml:3: `extra` is not a task-set field"),
        (
            "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: null\n    weight: 2\n",
            "t.yaml:6: task 0 (`a`): `weight` is not a task field",
        ),
        (
            "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: null\n"
            "    derivedFrom:\n      taskId: o\n",
            "t.yaml:6: task 0 (`a`): `derivedFrom.mutation` is required",
        ),
        ("version: 2\ntasks: []\n", "t.yaml:1: this file declares task-set version 2, newer"),
        ("version: 0\ntasks: []\n", "t.yaml:1: this file declares unsupported task-set version 0"),
        ("version: '1'\ntasks: []\n", "t.yaml:1: `version` must be an integer"),
        ("tasks: []\n", "t.yaml:1: `version` is required"),
        ("version: 1\n", "t.yaml:1: `tasks` is required"),
        ("version: 1\ntasks: {}\n", "t.yaml:2: `tasks` must be a list of tasks"),
        ("version: 1\nsurface: 3\ntasks: []\n", "t.yaml:2: `surface` must be a surface hash"),
        (
            "version: 1\ntasks:\n  - id: '  '\n    prompt: p\n    expected: null\n",
            "t.yaml:3: task 0: `id` must not be blank",
        ),
        (
            "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: 5\n",
            "t.yaml:5: task 0 (`a`): `expected` must be a tool name or null",
        ),
        (
            "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: ''\n",
            "t.yaml:5: task 0 (`a`): `expected` must not be blank",
        ),
        (
            "version: 1\ntasks:\n  - id: a\n    prompt: p\n    expected: x\n    tags: [ok, 3]\n",
            "t.yaml:6: task 0 (`a`): `tags` must be a list of strings",
        ),
        ("- a\n- b\n", "t.yaml:1: does not contain a task-set mapping"),
        ("", "t.yaml: does not contain a task-set mapping"),
    ],
)
def test_schema_refusals(text: str, message: str) -> None:
    error = refusal(text)
    assert error.code == "tasks/invalid"
    assert error.message.startswith(message)


def test_several_problems_report_the_earliest_and_count_the_rest() -> None:
    error = refusal(
        "version: 1\ntasks:\n  - id: a\n    prompt: p\n  - id: b\n    prompt: 4\n    expected: x\n"
    )
    assert error.message == ("t.yaml:3: task 0 (`a`): does not set `expected` (and 1 more problem)")


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ("version: 1\nbase: &b {id: x}\ntasks: [*b]\n", 2, "anchors are not allowed"),
        ("version: 1\ntasks: !!seq []\n", 2, "tags are not allowed"),
        ("version: 1\ntasks:\n  - id: a\n    id: b\n", 4, "duplicate key 'id'"),
        ("version: 1\ntasks: []\n---\nversion: 1\n", 3, "multiple documents are not allowed"),
        (
            "version: 1\ntasks:\n  - <<: {id: a}\n    prompt: p\n",
            3,
            "merge keys (<<) are not allowed",
        ),
    ],
)
def test_yaml_refusals_name_line_and_rule(text: str, line: int, rule: str) -> None:
    error = refusal(text)
    assert error.code == "yaml/unsupported"
    assert error.message.startswith(f"t.yaml:{line}: {rule}")


def test_yaml_syntax_error_names_line() -> None:
    error = refusal('version: 1\ntasks:\n  - id: "open\n')
    assert error.code == "tasks/invalid"
    assert error.message.startswith("t.yaml:")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"version": 1, "tasks": [', "t.json is not valid JSON (line 1,"),
        ('{"version": 1, "version": 1, "tasks": []}', "duplicate key 'version'"),
        ('{"version": NaN, "tasks": []}', "NaN is not valid JSON"),
        ('{"version": 1, "tasks": [{"id": "a", "prompt": "p"}]}', "task 0 (`a`): does not set"),
    ],
)
def test_json_refusals(text: str, fragment: str) -> None:
    error = refusal(text, "t.json")
    assert error.code == "tasks/invalid"
    assert fragment in error.message


def test_binary_and_oversized_files_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"version: 1\n\xff\xfe")
    with pytest.raises(WhichtoolError, match="not UTF-8"):
        load_task_set(binary)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (16 * 1024 * 1024 + 1))
    with pytest.raises(WhichtoolError, match="over the 16,777,216-byte limit"):
        load_task_set(big)


def test_resolve_prefers_flag_then_config_then_default_files(tmp_path: Path) -> None:
    for name in ("whichtool.tasks.yml", "whichtool.tasks.json", "mine.yaml", "conf.yaml"):
        (tmp_path / name).write_text("version: 1\ntasks: []\n")
    configured = Settings(tasks="conf.yaml")
    assert resolve_task_file("mine.yaml", configured, tmp_path) == tmp_path / "mine.yaml"
    assert resolve_task_file(None, configured, tmp_path) == tmp_path / "conf.yaml"
    assert resolve_task_file(None, Settings(), tmp_path) == tmp_path / "whichtool.tasks.yml"
    (tmp_path / "whichtool.tasks.yaml").write_text("version: 1\ntasks: []\n")
    assert resolve_task_file(None, Settings(), tmp_path) == tmp_path / "whichtool.tasks.yaml"


def test_resolve_refuses_missing_files(tmp_path: Path) -> None:
    with pytest.raises(WhichtoolError) as missing:
        resolve_task_file("nope.yaml", Settings(), tmp_path)
    assert missing.value.code == "tasks/not-found"
    with pytest.raises(WhichtoolError) as none_found:
        resolve_task_file(None, Settings(), tmp_path)
    assert none_found.value.code == "tasks/not-found"
    assert "whichtool.tasks.yaml" in (none_found.value.hint or "")
