"""The committed JSON Schemas match the models, and every golden JSON file validates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.support import paths
from tests.support.run_report_factory import demo_run
from whichtool_tui.schemas import DEFAULT_FOLDER, SCHEMAS, generated, load_model, main

GOLDEN = paths.GOLDEN
BY_VERSION = {
    "whichtool.run/2": "run",
    "whichtool.inspect/1": "inspect",
    "whichtool.diff/2": "diff",
}


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((DEFAULT_FOLDER / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_for(data: Any) -> str:
    if isinstance(data, dict):
        version = data.get("schemaVersion")
        if isinstance(version, str) and version in BY_VERSION:
            return BY_VERSION[version]
        if version == 1 and "label" in data:
            return "badge"
        if "version" in data and "tasks" in data:
            return "tasks"
    raise AssertionError(f"no schema for a golden file shaped like {str(data)[:80]}")


def test_every_listed_model_exists() -> None:
    missing = [source.name for source in SCHEMAS if load_model(source) is None]
    assert missing == []


def test_committed_schemas_match_the_models() -> None:
    for path, text in generated().items():
        assert path.exists(), f"{path.name} is not committed; run python -m whichtool_tui.schemas"
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale"
    assert main(["--check"]) == 0


# The arcade goldens are receipts with volatile fields (ids, times) stripped, so they are
# projections of the receipt format rather than receipts; they are not schema-checked here.
PROJECTIONS = {"arcade"}
GOLDEN_JSON = sorted(
    p for p in GOLDEN.rglob("*.json") if p.relative_to(GOLDEN).parts[0] not in PROJECTIONS
)


def test_there_are_golden_files() -> None:
    assert len(GOLDEN_JSON) >= 3


@pytest.mark.parametrize("path", GOLDEN_JSON, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_golden_file_validates_against_its_schema(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    errors = sorted(validator(schema_for(data)).iter_errors(data), key=lambda e: e.path)
    assert not errors, f"{path.name}: {errors[0].message} at {list(errors[0].path)}"


def test_the_run_schema_is_closed() -> None:
    data = demo_run()
    check = validator("run")
    assert check.is_valid(data)
    data["trials"][0]["surprise"] = True
    assert not check.is_valid(data)


def test_check_mode_reports_a_stale_folder(tmp_path: Path) -> None:
    assert main(["--check", "--out", str(tmp_path)]) == 1
    assert main(["--out", str(tmp_path)]) == 0
    assert main(["--check", "--out", str(tmp_path)]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {f"{s.name}.schema.json" for s in SCHEMAS}
