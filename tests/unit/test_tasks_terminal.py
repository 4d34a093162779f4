"""Terminal output of the tasks commands: colour decision, ASCII-only text, worst first."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.reports.tasks_terminal import Styler, ascii_safe, diagnostic_lines, use_colour
from whichtool_tui.text_safety import sanitize_text


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("flag", "env", "stream", "expected"),
    [
        (True, {"NO_COLOR": "1"}, io.StringIO(), True),
        (False, {"FORCE_COLOR": "1"}, Tty(), False),
        (None, {"NO_COLOR": "", "FORCE_COLOR": "1"}, Tty(), True),  # empty means unset
        (None, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, Tty(), False),
        (None, {"FORCE_COLOR": "1"}, io.StringIO(), True),
        (None, {"FORCE_COLOR": "0"}, io.StringIO(), False),
        (None, {}, Tty(), True),
        (None, {}, io.StringIO(), False),
    ],
)
def test_colour_decision(
    flag: bool | None, env: dict[str, str], stream: io.StringIO, expected: bool
) -> None:
    assert use_colour(flag, stream, env=env) is expected


def test_untrusted_text_becomes_ascii() -> None:
    assert ascii_safe("caf\u00e9\n\x1b[31m\u202e") == "caf\\xe9\\n\\x1b[31m\\u202e"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from(["a", " ", "\t", "\x7f"]))))
def test_plain_ascii_passes_through_and_the_rest_is_escaped(text: str) -> None:
    """The quick pass for printable ASCII gives what escaping every character would."""
    expected = sanitize_text(text).encode("ascii", "backslashreplace").decode("ascii")
    assert ascii_safe(text) == expected


def test_diagnostics_sorted_worst_first_with_hints_and_styles() -> None:
    found = [
        Diagnostic(code="b/info", severity="info", message="later"),
        Diagnostic(code="a/error", severity="error", message="first", hint="do this"),
    ]
    assert diagnostic_lines(found, Styler(False)) == [
        "  error   a/error  first",
        "          do this",
        "  info    b/info  later",
    ]
    coloured = diagnostic_lines(found, Styler(True))
    assert coloured[0] == "  \x1b[31merror  \x1b[0m a/error  first"
