"""The one strict model base: every file format, argument set and config we validate uses it.

Unknown keys are refused (``extra="forbid"``), fields may be given by name or alias, and a
validated value cannot change afterwards (``frozen``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

ModelT = TypeVar("ModelT", bound=BaseModel)


class StrictModel(BaseModel):
    """A pydantic model that refuses unknown keys and is immutable once validated."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


def validated(model: type[ModelT], data: Any, *, code: str, what: str, hint: str) -> ModelT:
    """``data`` as ``model``; a refusal is one WhichtoolError naming the first problem
    (``what`` says which file or value, ``code`` is the condition's stable code)."""
    from whichtool_tui.errors import WhichtoolError

    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise WhichtoolError(code, f"{what}: `{where}`: {first['msg']}", hint) from None
