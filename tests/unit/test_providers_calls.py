"""Call normalisation: JSON strings parsed, non-objects kept raw, malformed replies refused."""

from __future__ import annotations

from typing import Any

import pytest

from whichtool_tui.providers.base import ProposedCall, ProviderError, RouteReply
from whichtool_tui.providers.calls import NormalizedCall, normalize_calls


def one(arguments: Any, name: str | None = "t") -> NormalizedCall:
    return normalize_calls([ProposedCall(name, arguments)])[0]


def test_objects_and_json_strings() -> None:
    assert one({"a": [1, 2.5, None, True]}) == NormalizedCall("t", {"a": [1, 2.5, None, True]})
    assert one('{"id": 7}') == NormalizedCall("t", {"id": 7})
    assert one(None) == NormalizedCall("t", None)


@pytest.mark.parametrize("text", ['"just a string"', "[1, 2]", "42", "null", "not json", "", "{"])
def test_strings_that_are_not_objects_go_to_raw_arguments(text: str) -> None:
    call = one(text)
    assert call.arguments is None and call.raw_arguments == text
    assert call.to_json() == {"name": "t", "arguments": None, "rawArguments": text}


def test_non_string_non_objects_are_kept_as_json_text() -> None:
    assert one([1, "x"]) == NormalizedCall("t", None, '[1, "x"]')


def test_empty_name_is_a_nameless_call() -> None:
    assert one({}, name="") == NormalizedCall(None, {})
    assert one({}, name=None).to_json() == {"name": None, "arguments": {}}


def test_order_is_kept_and_reply_accepted() -> None:
    reply = RouteReply(calls=(ProposedCall("b", "{}"), ProposedCall("a", {"x": 1})), text="")
    assert [c.name for c in normalize_calls(reply)] == ["b", "a"]


def test_exactly_1000_calls_are_fine_1001_are_not() -> None:
    assert len(normalize_calls([ProposedCall("t", {})] * 1000)) == 1000
    with pytest.raises(ProviderError) as caught:
        normalize_calls([ProposedCall("t", {})] * 1001)
    assert caught.value.message.startswith("Provider returned malformed tool call #1001")


def cyclic() -> dict[str, Any]:
    value: dict[str, Any] = {"a": 1}
    value["self"] = value
    return value


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ({"x": float("nan")}, "non-finite"),
        ({"x": [float("inf")]}, "non-finite"),
        ('{"x": NaN}', "non-finite"),
        ('{"x": 1e999}', "non-finite"),
        ({"x": {1, 2}}, "non-JSON value (set)"),
        ({1: "int key"}, "non-string key"),
        (cyclic(), "cycle"),
    ],
)
def test_malformed_arguments_are_errors_naming_the_call(arguments: Any, reason: str) -> None:
    calls = [ProposedCall("ok", {}), ProposedCall("bad", arguments)]
    with pytest.raises(ProviderError) as caught:
        normalize_calls(calls)
    assert caught.value.code == "provider/malformed-call"
    assert caught.value.message.startswith("Provider returned malformed tool call #2: ")
    assert reason in caught.value.message
    assert not caught.value.retryable


def test_non_string_name_is_malformed() -> None:
    with pytest.raises(ProviderError):
        normalize_calls([ProposedCall(5, {})])  # type: ignore[arg-type]


def test_shared_subtrees_are_not_cycles() -> None:
    shared = {"k": 1}
    assert one({"a": shared, "b": shared}).arguments == {"a": {"k": 1}, "b": {"k": 1}}
