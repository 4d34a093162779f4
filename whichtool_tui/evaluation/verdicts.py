"""Judging one trial: the eight verdicts, the clarification test and the argument check."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from typing import Any

from whichtool_tui.evaluation.outcome import TrialOutcome
from whichtool_tui.evaluation.plan import PlannedTrial
from whichtool_tui.evaluation.report_model import (
    ArgumentCheck,
    Call,
    ScoredTrial,
    Verdict,
    WrongType,
)

_CLARIFICATION = re.compile(
    r"\b(which|what|could you (clarify|specify)|can you (clarify|specify)|do you mean|"
    r"please (clarify|specify)|need more (info|information|detail))\b",
    re.IGNORECASE,
)


def judge(
    expected: str | None,
    calls: tuple[Call, ...] | list[Call],
    errored: bool,
    surface: Container[str],
) -> Verdict:
    """Apply the verdict rules in order: error, distractor, no pick, right pick, wrong pick."""
    if errored:
        return "error"
    if expected is None:
        return "over-triggered" if calls else "correct-abstention"
    pick = calls[0].name if calls else None
    if pick is None:
        return "phantom" if calls else "abstained"
    if pick == expected:
        return "unexpected-additional-calls" if len(calls) > 1 else "correct"
    return "wrong-tool" if pick in surface else "phantom"


def asked_for_clarification(calls: tuple[Call, ...] | list[Call], text: str) -> bool:
    """No call and a reply that asks the user which or what they meant."""
    return not calls and bool(text.strip()) and bool(_CLARIFICATION.search(text))


def _resolve(schema: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """Follow a local ``#/...`` $ref (a few hops at most); anything else is returned as is."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and depth < 16:
        reference: str = schema["$ref"]
        if not reference.startswith("#"):
            return schema
        target: Any = root
        for part in [p for p in reference[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, Mapping) and part in target:
                target = target[part]
            else:
                return schema
        schema = target
        depth += 1
    return schema


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed JSON value (whole numbers are integers)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _type_matches(expected: str, got: str) -> bool:
    return expected == got or (expected == "number" and got == "integer")


def check_arguments(call: Call, schema: Mapping[str, Any]) -> ArgumentCheck:
    """Compare the first call's arguments with the picked tool's (resolved) input schema."""
    resolved = _resolve(schema, schema)
    if not isinstance(resolved, Mapping):
        resolved = {}
    properties = resolved.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required_raw = resolved.get("required")
    required = (
        [r for r in required_raw if isinstance(r, str)] if isinstance(required_raw, list) else []
    )
    arguments = call.arguments or {}
    missing = sorted(name for name in set(required) if name not in arguments)
    hallucinated = sorted(name for name in arguments if name not in properties)
    wrong: list[WrongType] = []
    for name, value in arguments.items():
        declared = _resolve(properties.get(name), schema)
        if not isinstance(declared, Mapping):
            continue
        expected_type = declared.get("type")
        allowed = (
            [expected_type]
            if isinstance(expected_type, str)
            else [t for t in expected_type if isinstance(t, str)]
            if isinstance(expected_type, list)
            else []
        )
        if not allowed:
            continue
        got = json_type(value)
        if not any(_type_matches(t, got) for t in allowed):
            wrong.append(WrongType(name=name, expected="|".join(allowed), got=got))
    return ArgumentCheck(
        missing_required=missing,
        hallucinated=hallucinated,
        wrong_type=wrong,
        parsed=call.raw_arguments is None,
        vacuous=not properties and not required,
    )


def argument_check_valid(check: ArgumentCheck) -> bool:
    """A fully valid check: parsed, nothing missing, nothing invented, every type right."""
    return (
        check.parsed
        and not check.missing_required
        and not check.hallucinated
        and not (check.wrong_type)
    )


def score_trial(
    planned: PlannedTrial, outcome: TrialOutcome, schemas: Mapping[str, Mapping[str, Any]]
) -> ScoredTrial:
    """Turn a planned trial and its outcome into the report's ScoredTrial."""
    errored = outcome.error is not None
    calls = [] if errored else list(outcome.calls)
    verdict = judge(planned.task.expected, calls, errored, schemas)
    first = calls[0] if calls else None
    check = None
    if first is not None and first.name is not None and first.name in schemas:
        check = check_arguments(first, schemas[first.name])
    text = "" if errored else outcome.text
    return ScoredTrial(
        task_id=planned.task.id,
        trial_index=planned.trial_index,
        expected=planned.task.expected,
        pick=first.name if first else None,
        arguments=first.arguments if first else None,
        raw_arguments=first.raw_arguments if first else None,
        calls=calls,
        text=text,
        call_count=len(calls),
        order=list(planned.order),
        expected_position=planned.expected_position,
        latency_ms=0.0 if errored else outcome.latency_ms,
        usage=None if errored else outcome.usage,
        reasoning_chars=None if errored else outcome.reasoning_chars,
        error=outcome.error,
        verdict=verdict,
        unexpected_additional_calls=len(calls) > 1,
        argument_check=check,
        asked_for_clarification=asked_for_clarification(calls, text),
    )
