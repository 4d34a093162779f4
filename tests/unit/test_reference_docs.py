"""docs/config.md and docs/cli.md are generated from the settings model and the flag
declarations; they fail here when the code changes without them (UPDATE_GOLDENS=1 rewrites)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from whichtool_tui.cli import COMMANDS, EXAMPLES, build_parser
from whichtool_tui.reports.reference_docs import render_config_reference, render_flag_reference

DOCS = Path(__file__).resolve().parents[2] / "docs"


def flag_reference() -> str:
    return render_flag_reference(build_parser(), EXAMPLES)


@pytest.mark.parametrize(
    ("page", "render"),
    [("config.md", render_config_reference), ("cli.md", lambda: flag_reference())],
)
def test_generated_reference_matches_the_code(page: str, render: Callable[[], str]) -> None:
    text = render()
    if os.environ.get("UPDATE_GOLDENS") == "1":
        (DOCS / page).write_text(text, encoding="utf-8")
    assert (DOCS / page).read_text(encoding="utf-8") == text, f"regenerate docs/{page}"


def test_the_config_reference_names_every_section_and_bound() -> None:
    text = render_config_reference()
    for key in ("`trials.repeat`", "`thresholds.minAccuracy`", "`provider.baseUrl`"):
        assert key in text
    assert "| `trials.repeat` | integer | - | ≥ 1, ≤ 1000 |" in text  # from limits, via the model


def test_the_flag_reference_covers_every_command() -> None:
    text = flag_reference()
    assert all(f"## `{name}`" in text for name in COMMANDS)
    assert "`--base-url`" in text and "`--max-tools`" in text
