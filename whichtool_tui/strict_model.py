"""The one strict model base: every file format, argument set and config we validate uses it.

Unknown keys are refused (``extra="forbid"``), fields may be given by name or alias, and a
validated value cannot change afterwards (``frozen``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """A pydantic model that refuses unknown keys and is immutable once validated."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)
