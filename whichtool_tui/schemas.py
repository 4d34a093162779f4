"""JSON Schemas for every file format we read or write, generated from the pydantic models.

``python -m whichtool_tui.schemas`` rewrites ``docs/schemas/``; ``--check`` only compares and
exits 1 when a committed schema is stale. The models are the source of truth: never edit the
schema files by hand.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DEFAULT_FOLDER = Path(__file__).resolve().parent.parent / "docs" / "schemas"


@dataclass(frozen=True)
class SchemaSource:
    """One published schema: its file stem, the model that defines it, and a title."""

    name: str
    module: str
    model: str
    title: str


# The complete list: one entry per file format the program reads or writes.
SCHEMAS: tuple[SchemaSource, ...] = (
    SchemaSource(
        "inspect", "whichtool_tui.surface.report_model", "InspectReport", "whichtool.inspect/1"
    ),
    SchemaSource("run", "whichtool_tui.evaluation.report_model", "RunReport", "whichtool.run/2"),
    SchemaSource("diff", "whichtool_tui.evaluation.diff_model", "DiffReport", "whichtool.diff/2"),
    SchemaSource(
        "surface-diff",
        "whichtool_tui.surface.behaviour_diff_model",
        "SurfaceDiffReport",
        "whichtool.surface-diff/1",
    ),
    SchemaSource("improve", "whichtool_tui.improve.model", "ImproveReport", "whichtool.improve/1"),
    SchemaSource("tasks", "whichtool_tui.tasks.model", "TaskSet", "whichtool task set"),
    SchemaSource("config", "whichtool_tui.config", "Settings", "whichtool.config"),
    SchemaSource("badge", "whichtool_tui.reports.badge", "Badge", "shields.io endpoint badge"),
    SchemaSource("receipt", "whichtool_tui.arcade.receipt", "BoutReceipt", "mcp-arcade.bout/v1"),
    SchemaSource(
        "bout-trials", "whichtool_tui.arcade.trials", "TrialSeries", "whichtool-tui.bout-trials/v1"
    ),
    SchemaSource(
        "conformance",
        "whichtool_tui.arcade.conformance",
        "ConformanceReport",
        "whichtool-tui.conformance/v1",
    ),
)


def load_model(source: SchemaSource) -> type[BaseModel] | None:
    """The model class, or None while the module that will define it has not landed."""
    try:
        module = importlib.import_module(source.module)
    except ModuleNotFoundError:
        return None
    model = getattr(module, source.model, None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def build_schema(source: SchemaSource, model: type[BaseModel]) -> dict[str, Any]:
    """The validation-side schema with wire (alias) names, closed where the model is closed."""
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{source.name}.schema.json",
        **schema,
        "title": source.title,
    }


def render_schema(schema: dict[str, Any]) -> str:
    """Stable text: sorted keys, two-space indent, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def generated(folder: Path = DEFAULT_FOLDER) -> dict[Path, str]:
    """Every schema file that can be generated now, by path."""
    files: dict[Path, str] = {}
    for source in SCHEMAS:
        model = load_model(source)
        if model is not None:
            files[folder / f"{source.name}.schema.json"] = render_schema(
                build_schema(source, model)
            )
    return files


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, verify) docs/schemas/."""
    from whichtool_tui.files import write_atomic

    parser = argparse.ArgumentParser(prog="python -m whichtool_tui.schemas")
    parser.add_argument("--check", action="store_true", help="fail if a schema file is stale")
    parser.add_argument("--out", type=Path, default=DEFAULT_FOLDER, help="the schema folder")
    args = parser.parse_args(argv)
    stale = []
    for path, text in generated(args.out).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(path.name)
        else:
            write_atomic(path, text)
            sys.stdout.write(f"wrote {path.name}\n")
    if stale:
        sys.stderr.write(
            f"stale schemas: {', '.join(stale)}; run python -m whichtool_tui.schemas\n"
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
