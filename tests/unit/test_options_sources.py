"""The options merge's sources: keyed like the config file, and never part of what runs.

``RunOptions.sources`` is for the plans a person decides on; if it entered equality or hashing,
two runs with the same values from different faces would differ (and anything keyed on the
options with them). The plans name a config value by its key in the file (``trials.maxTrials``),
so each option's key must be one the config accepts.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from whichtool_tui.config import Settings
from whichtool_tui.usecases.api import RunOptions
from whichtool_tui.usecases.options import (
    HostOverrides,
    InspectOverrides,
    RunOverrides,
    config_key,
    from_config,
    merge_run_options,
    with_overrides,
)


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def file_key(path: str) -> str:
    """The key the config file spells an attribute path with (its pydantic aliases)."""
    model: type[BaseModel] | None = Settings
    spelled = []
    for step in path.split("."):
        assert model is not None, path
        info = model.model_fields[step]
        spelled.append(info.alias or step)
        model = _nested_model(info.annotation)
    return ".".join(spelled)


@pytest.mark.parametrize("kind", [RunOverrides, InspectOverrides, HostOverrides])
def test_every_option_is_named_by_its_key_in_the_config_file(kind: type[Any]) -> None:
    named = 0
    for spec in dataclasses.fields(kind):
        path = spec.metadata["config"]
        if path is None:
            assert config_key(spec.name, kind) is None
            continue
        assert config_key(spec.name, kind) == file_key(path), spec.name
        named += 1
    assert named


def test_sources_are_not_part_of_equality_or_hashing() -> None:
    settings = Settings.model_validate({"trials": {"repeat": 3}})
    from_flags = merge_run_options(RunOverrides(repeat=3), settings, face="flag")
    from_config_file = merge_run_options(RunOverrides(), settings, face="flag")
    assert from_flags.sources["repeat"] == "flag"
    assert from_config_file.sources["repeat"] == "config"
    assert from_flags == from_config_file == RunOptions(repeat=3)
    assert hash(from_flags) == hash(from_config_file) == hash(RunOptions(repeat=3))
    assert "sources" not in repr(from_flags)


def test_laid_over_values_take_the_later_faces_source() -> None:
    settings = Settings.model_validate({"trials": {"repeat": 3, "seed": 7}})
    merged = merge_run_options(RunOverrides(), settings, face="form")
    raised = with_overrides(merged, RunOverrides(max_trials=80, min_accuracy=0.5), "form")
    assert (raised.max_trials, raised.thresholds.min_accuracy) == (80, 0.5)
    assert raised.sources["max_trials"] == raised.sources["min_accuracy"] == "form"
    assert raised.sources["seed"] == "config" and merged.sources["max_trials"] == "default"
    assert from_config(raised) == ["trials.repeat 3", "trials.seed 7"]
    assert from_config(raised, skip=("repeat",)) == ["trials.seed 7"]
