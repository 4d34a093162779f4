"""Parameter rules: what a model must guess when it fills in a tool's arguments."""

from __future__ import annotations

import re

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.rule_catalog import RULES
from whichtool_tui.surface.rule_text import content_words, covered_by
from whichtool_tui.surface.schema_walk import (
    Parameter,
    declared_types,
    has_example,
    is_constrained,
    is_free_string,
    is_typed,
    schema_parameters,
)

# A name ending in one of these is filled correctly from the name alone (path, branch_name).
SELF_EXPLANATORY = frozenset(
    [
        "body",
        "comment",
        "content",
        "cursor",
        "destination",
        "email",
        "limit",
        "message",
        "name",
        "note",
        "offset",
        "page",
        "path",
        "paths",
        "pattern",
        "query",
        "reason",
        "source",
        "text",
        "timezone",
        "title",
        "topic",
        "uri",
        "url",
    ]
)
FORMAT_WORDS = frozenset(["date", "datetime", "email", "url", "uri", "birthdate"])
_QUOTED_VALUE = re.compile(r"""['"`]([A-Za-z0-9_.:/+-]{1,40})['"`]""")
_ONE_OF_LIST = re.compile(r"\bone of\b[:\s]+[\w-]+(\s*(,|\bor\b)\s*[\w-]+)+", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"\b(or|either|one of)\b|\|", re.IGNORECASE)
_EXAMPLE_CUE = r"\be\.g\.|\bfor example\b|\bexamples?\b|\bsuch as\b|\blike\b"
_ILLUSTRATES = re.compile(_EXAMPLE_CUE, re.IGNORECASE)
# A stated default or format ("in 24-hour format (HH:MM)") shows the shape as well as an example.
_EXAMPLE = re.compile(_EXAMPLE_CUE + r"|\bdefaults?\b|\bformat\b", re.IGNORECASE)


def _hint(code: str) -> str:
    return RULES[code].help


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def self_explanatory(name: str) -> bool:
    """True when the parameter's last word is one a model fills in from the name alone."""
    tokens = name_tokens(name)
    return bool(tokens) and tokens[-1] in SELF_EXPLANATORY


# One rule's verdict on a parameter, before it is about a tool: code, message, listed values.
_Verdict = tuple[str, str, tuple[str, ...] | None]


def _finding(tool: Tool, parameter: Parameter, verdict: _Verdict) -> Diagnostic:
    code, message, values = verdict
    detail: dict[str, object] = {"parameter": parameter.path}
    if values is not None:  # each finding its own list: a verdict serves every such parameter
        detail["values"] = list(values)
    return Diagnostic(
        code=code,
        severity=RULES[code].severity,
        message=f"Tool `{tool.name}`, parameter `{parameter.path}`: {message}",
        tool=tool.name,
        detail=detail,
        hint=_hint(code),
    )


def lists_closed_set(description: str) -> list[str]:
    """The values a description enumerates as the only choices, or [] (examples do not count)."""
    if not description or _ILLUSTRATES.search(description):
        return []
    quoted = list(dict.fromkeys(_QUOTED_VALUE.findall(description)))
    if len(quoted) >= 2 and _ALTERNATIVE.search(description):
        return quoted
    match = _ONE_OF_LIST.search(description)
    if match:
        listed = re.split(r"\s*(?:,|\bor\b)\s*", match.group(0).split(None, 2)[-1].lstrip(": "))
        return [value for value in listed if value]
    return []


def _parameter_verdicts(parameter: Parameter) -> list[_Verdict]:
    """What the per-parameter rules say of one parameter: a function of its path, name, place
    and schema alone (the tool only names where the findings are)."""
    schema = parameter.schema
    found: list[_Verdict] = []
    description = _text(schema.get("description")).strip()
    title = _text(schema.get("title")).strip()
    if not is_typed(schema):
        found.append(("parameters/untyped", "no type is declared", None))
    types = declared_types(schema)
    if "object" in types and not any(
        "properties" in variant
        or "patternProperties" in variant
        or isinstance(variant.get("additionalProperties"), dict)
        for variant in [schema, *schema.get("anyOf", []), *schema.get("oneOf", [])]
        if isinstance(variant, dict)
    ):
        found.append(("parameters/open-object", "an object with no properties", None))
    if parameter.is_items:
        return found
    if not description and not title and not self_explanatory(parameter.name):
        found.append(("parameters/missing-description", "no description", None))
    if description:
        words = content_words(description)
        if words and covered_by(words, frozenset(name_tokens(parameter.name))):
            found.append(
                (
                    "parameters/description-restates-name",
                    f"the description only repeats the name ({description!r})",
                    None,
                )
            )
    if is_free_string(schema):
        values = lists_closed_set(description)
        if values:
            shown = ", ".join(values[:6])
            found.append(
                (
                    "parameters/closed-set-not-enum",
                    f"a free string whose description lists the allowed values ({shown})",
                    tuple(values),
                )
            )
    if (
        (not types or "string" in types)
        and not is_constrained(schema)
        and FORMAT_WORDS & set(name_tokens(parameter.name))
    ):
        found.append(("parameters/missing-format", "no format or pattern says its shape", None))
    return found


def parameter_rules(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Per-parameter rules: untyped, open objects, undescribed, closed sets, missing formats.

    A parameter served by many tools (a cursor, a limit, a templated id) is judged once per
    surface: equal path, name, place and schema (compared by ``repr``, exact for JSON data)
    get the same verdicts.
    """
    found: list[Diagnostic] = []
    judged: dict[tuple[str, str, bool, str], list[_Verdict]] = {}
    for tool in surface.tools:
        for parameter in schema_parameters(tool.input_schema_resolved):
            key = (parameter.path, parameter.name, parameter.is_items, repr(parameter.schema))
            verdicts = judged.get(key)
            if verdicts is None:
                verdicts = judged[key] = _parameter_verdicts(parameter)
            found.extend(_finding(tool, parameter, verdict) for verdict in verdicts)
    return found


def required_without_example(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Required free-form values with no example anywhere: the model has to guess the shape."""
    found = []
    for tool in surface.tools:
        schema = tool.input_schema_resolved
        unclear = [
            parameter
            for parameter in schema_parameters(schema)
            if parameter.required
            and "." not in parameter.path
            and "[" not in parameter.path
            and is_free_string(parameter.schema)
            and not self_explanatory(parameter.name)
        ]
        if not unclear or has_example(schema) or _EXAMPLE.search(tool.description_text):
            continue
        if any(_EXAMPLE.search(_text(p.schema.get("description"))) for p in unclear):
            continue
        names = ", ".join(f"`{p.path}`" for p in unclear)
        found.append(
            Diagnostic(
                code="parameters/required-without-example",
                severity="info",
                message=(
                    f"Tool `{tool.name}`: required {names} "
                    f"{'takes' if len(unclear) == 1 else 'take'} free text and the schema "
                    "shows no example or default"
                ),
                tool=tool.name,
                detail={"parameters": [p.path for p in unclear]},
                hint=_hint("parameters/required-without-example"),
            )
        )
    return found


register_check("parameters/per-parameter", parameter_rules)
register_check("parameters/required-without-example", required_without_example)
