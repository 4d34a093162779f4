"""The canonical writer prints numbers exactly as JavaScript's JSON.stringify does.

Expected strings were produced with Node 20 (`JSON.stringify(v)`) for the same values.
"""

from __future__ import annotations

import pytest

from whichtool_tui.surface.canonical import js_number

NODE_OUTPUT = [
    (1.2345678901234568e20, "123456789012345680000"),
    (2.0**53, "9007199254740992"),
    (2.0**60, "1152921504606847000"),
    (1e21, "1e+21"),
    (123.0, "123"),
    (1e20, "100000000000000000000"),
    (4.5e-05, "0.000045"),
    (1e-7, "1e-7"),
    (-1.5e22, "-1.5e+22"),
    (0.1 + 0.2, "0.30000000000000004"),
    (-0.0, "0"),
]


@pytest.mark.parametrize(("value", "expected"), NODE_OUTPUT)
def test_numbers_match_javascript(value: float, expected: str) -> None:
    assert js_number(value) == expected
