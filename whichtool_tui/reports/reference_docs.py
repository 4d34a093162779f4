"""The config reference and the flag tables as Markdown, generated from the code that defines
them (the settings model and the argparse declarations), so docs/config.md and docs/cli.md can
never drift: a test regenerates both and compares."""

from __future__ import annotations

import argparse
import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from whichtool_tui.text_safety import markdown_cell

GENERATED = (
    "<!-- generated from the code: UPDATE_GOLDENS=1 pytest tests/unit/test_reference_docs.py -->"
)


def _type_text(annotation: Any) -> str:
    """A field's type as a reader says it (``integer``, ``list of string``, ``object``)."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Annotated:
        return _type_text(args[0])
    if origin in (typing.Union, types.UnionType):
        return " or ".join(dict.fromkeys(_type_text(a) for a in args))
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in typing.get_args(annotation))
    if origin in (list, tuple):
        return f"list of {_type_text(args[0])}" if args else "list"
    if origin is dict:
        return "object"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "object"
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _constraints(annotation: Any) -> list[Any]:
    """The constraint objects written inside a type (``Annotated[int, Field(ge=1)] | None``)."""
    found: list[Any] = []
    if typing.get_origin(annotation) is typing.Annotated:
        found += list(annotation.__metadata__)
    for arg in typing.get_args(annotation):
        found += _constraints(arg)
    return found


def _bounds(info: FieldInfo) -> str:
    parts = []
    items = [*info.metadata, *_constraints(info.annotation)]
    for item in items:
        for meta in [item, *getattr(item, "metadata", [])]:
            for name, word in (("ge", "≥"), ("gt", "above"), ("le", "≤"), ("lt", "below")):
                value = getattr(meta, name, None)
                if value is not None:
                    parts.append(f"{word} {value}")
            if getattr(meta, "min_length", None):
                parts.append("non-empty")
    return ", ".join(dict.fromkeys(parts))


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if isinstance(value, BaseModel) or value in (None, {}, [], ()):
        return "-"
    return f"`{value}`"


def _models_of(annotation: Any) -> list[type[BaseModel]]:
    """The settings models a field holds (several for a union such as ``target``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += [model for model in _models_of(arg) if model not in found]
    return found


def _first_line(model: type[BaseModel]) -> str:
    return (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else ""


def _section(model: type[BaseModel], prefix: str, lines: list[str]) -> None:
    nested: list[tuple[str, type[BaseModel]]] = []
    rows: list[str] = []
    for name, info in model.model_fields.items():
        key = f"{prefix}{info.alias or name}"
        children = _models_of(info.annotation)
        if children:
            nested += [(key, child) for child in children]
            continue
        rows.append(
            f"| `{key}` | {_type_text(info.annotation)} | {_default(info)} "
            f"| {markdown_cell(_bounds(info))} |"
        )
    if rows:
        lines += ["| key | type | default | bounds |", "|---|---|---|---|", *rows, ""]
    for key, child in nested:
        lines += [f"### `{key}`", "", markdown_cell(_first_line(child)), ""]
        _section(child, f"{key}.", lines)


def render_config_reference() -> str:
    """docs/config.md: every key a config file may set, with its type, default and bounds."""
    from whichtool_tui.config import Settings

    lines = [
        "# Config reference",
        "",
        GENERATED,
        "",
        "`whichtool.config.json` (or `.yaml`) is found in the working folder, or passed with "
        "`--config`. Flags override it; keys are never read from it (they come from the "
        "environment). Unknown keys are errors.",
        "",
    ]
    _section(Settings, "", lines)
    return "\n".join(lines).rstrip() + "\n"


def _flag_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            continue
        names = (
            ", ".join(f"`{o}`" for o in action.option_strings)
            or f"`{action.metavar or action.dest}`"
        )
        takes = f"`{action.metavar}`" if action.metavar and action.option_strings else ""
        rows.append(f"| {names} | {takes} | {markdown_cell(action.help or '')} |")
    return rows


def render_flag_reference(parser: argparse.ArgumentParser, examples: dict[str, str]) -> str:
    """docs/cli.md: every command's flags with what they take and do, and its example (the
    caller passes the command line's parser, which this module may not import)."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = ["# Command-line reference", "", GENERATED, ""]
    for name, sub in commands.choices.items():
        lines += [f"## `{name}`", "", markdown_cell(sub.description or ""), ""]
        lines += ["| flag | takes | what it does |", "|---|---|---|", *_flag_rows(sub), ""]
        children = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        for group in children:
            for child, child_parser in group.choices.items():
                lines += [f"### `{name} {child}`", ""]
                lines += ["| flag | takes | what it does |", "|---|---|---|"]
                lines += [*_flag_rows(child_parser), ""]
        example = examples.get(name)
        if example:
            lines += ["```bash", example, "```", ""]
    return "\n".join(lines).rstrip() + "\n"
