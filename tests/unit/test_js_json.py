"""The report writer prints numbers exactly as JavaScript's JSON.stringify(x, null, 2) does."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tests.support.run_report_factory import Task, build_run
from whichtool_tui.evaluation.js_json import dump_js_json, dump_js_value
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.surface.canonical import js_pretty_json

AWKWARD = [
    4.51e-05,
    1e-6,
    1e-7,
    1.5e-7,
    1e21,
    1e20,
    123456789012345680000.0,
    0.1 + 0.2,
    -0.0,
    5e-324,
    1.7976931348623157e308,
    2.5,
    100.0,
    1e16,
    1e15,
    0.0001,
    0.00001,
    3.0000000000000004e-05,
    999999999999999900000.0,
    -2.5e-8,
    12.0,
    -7.0,
    0.5,
]

# Printed by Node 20 for the same values: JSON.stringify({values, nested}, null, 2).
NODE_OUTPUT = """{
  "values": [
    0.0000451,
    0.000001,
    1e-7,
    1.5e-7,
    1e+21,
    100000000000000000000,
    123456789012345680000,
    0.30000000000000004,
    0,
    5e-324,
    1.7976931348623157e+308,
    2.5,
    100,
    10000000000000000,
    1000000000000000,
    0.0001,
    0.00001,
    0.000030000000000000004,
    999999999999999900000,
    -2.5e-8,
    12,
    -7,
    0.5
  ],
  "nested": {
    "a": 0.000001,
    "b": [
      [],
      {}
    ],
    "c": "x: 1.0",
    "d": "ends 1e-05"
  }
}
"""


class Sample(BaseModel):
    values: list[float]
    nested: dict[str, Any]


def test_awkward_floats_are_written_as_javascript_writes_them() -> None:
    sample = Sample(
        values=AWKWARD, nested={"a": 1e-6, "b": [[], {}], "c": "x: 1.0", "d": "ends 1e-05"}
    )
    assert dump_js_json(sample) == NODE_OUTPUT


def test_a_run_report_matches_the_reference_writer() -> None:
    tasks = [Task("t1", "Find a user", "find"), Task("t2", "Say hi", None)]
    answers = {("t1", 0): ["find"], ("t1", 1): ["list"], ("t2", 0): [], ("t2", 1): ["find"]}
    report = RunReport.model_validate(build_run({"find": 30, "list": 20}, tasks, answers, 2))
    reference = js_pretty_json(report.model_dump(mode="json", by_alias=True))
    assert dump_js_json(report) == reference


def test_lone_surrogates_are_escaped_as_javascript_does() -> None:
    sample = Sample(values=[1.0], nested={"text": "bad \ud800 x\x01\u2028"})
    expected_text = '"text": "bad \\ud800 x\\u0001\u2028"'
    assert dump_js_json(sample) == (
        '{\n  "values": [\n    1\n  ],\n  "nested": {\n    ' + expected_text + "\n  }\n}\n"
    )


# --- dump_js_value: the Rust-backed writer equals the pure-Python reference on any document ---

_NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e-5, max_value=1e-5),
    st.sampled_from(AWKWARD),
    st.builds(float, st.integers(min_value=-(10**22), max_value=10**22)),
)
_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),  # any code point, lone surrogates and controls included
        st.sampled_from(['"', "\\", "\n", "\u2028", "\u2029", "\x7f", "😀", "é", " ", "/"]),
    ),
    max_size=12,
)
_SCALARS = st.one_of(st.none(), st.booleans(), _NUMBERS, _TEXT)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(_TEXT, children, max_size=5)
    ),
    max_leaves=40,
)


# 150 nested documents of up to 40 leaves each reach every branch of the writer; the awkward
# numbers and strings above are drawn from directly, so they need no luck to appear.
@settings(max_examples=150, deadline=None)
@given(_DOCUMENTS)
def test_fast_writer_equals_the_reference_writer(document: Any) -> None:
    assert dump_js_value(document) == js_pretty_json(document)


def test_fast_writer_matches_node_on_awkward_numbers() -> None:
    nested = {"a": 1e-6, "b": [[], {}], "c": "x: 1.0", "d": "ends 1e-05"}
    assert dump_js_value({"values": AWKWARD, "nested": nested}) == NODE_OUTPUT
