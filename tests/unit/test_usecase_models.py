"""The faces' one door to the typed models (usecases/models.py) names each model once, rightly."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from whichtool_tui.usecases import models

MODELS_FILE = Path(models.__file__)


def type_checking_imports() -> dict[str, str]:
    """name -> module of every ``from M import N as N`` in the module's TYPE_CHECKING block."""
    tree = ast.parse(MODELS_FILE.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    assert alias.asname == alias.name, "a re-export must say `as` its own name"
                    found[alias.name] = statement.module
    return found


def test_the_type_checking_block_and_the_lazy_table_name_the_same_homes() -> None:
    assert type_checking_imports() == models.EXPORTS


@pytest.mark.parametrize("name", sorted(models.EXPORTS))
def test_every_exported_name_is_its_home_modules_object(name: str) -> None:
    home = importlib.import_module(models.EXPORTS[name])
    assert getattr(models, name) is getattr(home, name)


def test_an_unknown_name_is_an_import_error_not_a_silent_none() -> None:
    with pytest.raises(ImportError):
        exec("from whichtool_tui.usecases.models import RunReprot", {})


def test_the_faces_contract_excuses_only_the_fork_early_plumbing() -> None:
    # A new exception is a decision: add the model to usecases/models.py instead, or say here why.
    import tomllib

    pyproject = MODELS_FILE.parents[2] / "pyproject.toml"
    contracts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    faces = next(c for c in contracts["contracts"] if c.get("id") == "faces-through-usecases")
    assert sorted(faces["ignore_imports"]) == [
        "whichtool_tui.commands.bout -> whichtool_tui.arcade.zygote",
        "whichtool_tui.commands.fixture -> whichtool_tui.arcade.fixture",
        "whichtool_tui.headless.bout -> whichtool_tui.arcade.zygote",
    ]
