"""shields.io endpoint badges: one JSON shape and one colour scale for inspect and run."""

from __future__ import annotations

import json

from pydantic import Field

from whichtool_tui.strict_model import StrictModel

# (lower bound, colour), checked from the top; below the last bound the badge is red.
RATE_COLOURS: tuple[tuple[float, str], ...] = (
    (0.97, "brightgreen"),
    (0.9, "green"),
    (0.75, "yellow"),
    (0.5, "orange"),
)


class Badge(StrictModel):
    """The shields.io endpoint schema (``schemaVersion`` 1)."""

    schema_version: int = Field(default=1, alias="schemaVersion")
    label: str
    message: str
    color: str

    def to_json(self) -> str:
        """The badge file: two-space indented JSON plus a trailing newline."""
        return json.dumps(self.model_dump(by_alias=True), indent=2) + "\n"


def rate_colour(value: float) -> str:
    """The badge colour of a success rate in [0, 1]: higher is greener."""
    for bound, colour in RATE_COLOURS:
        if value >= bound:
            return colour
    return "red"
