"""The use-case layer's one public module (usecases/api.py) is the faces' only door to its types."""

from __future__ import annotations

import ast
import importlib
import inspect
import tomllib
from pathlib import Path

import pytest

from tests.support.paths import REPO
from whichtool_tui.usecases import api

PACKAGE = REPO / "whichtool_tui"
API = "whichtool_tui.usecases.api"
FACES = ("cli.py", "commands", "headless", "server", "ui")


def sources(*parts: str) -> list[Path]:
    """Every Python file under the package's ``parts`` (a file or a folder each)."""
    found: list[Path] = []
    for part in parts:
        path = PACKAGE / part
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found


def imports_from(path: Path) -> list[ast.ImportFrom]:
    """Every ``from M import ...`` in a file, top-level, in functions and under TYPE_CHECKING."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]


def api_imports() -> dict[str, str]:
    """name -> home module of every name the public module imports."""
    found: dict[str, str] = {}
    for node in imports_from(Path(api.__file__)):
        if node.module == "__future__":
            continue
        assert node.module
        for alias in node.names:
            assert alias.asname is None, "the public module re-exports names as they are"
            assert alias.name not in found, f"{alias.name} imported twice"
            found[alias.name] = node.module
    return found


def test_all_names_exactly_what_the_module_imports() -> None:
    assert len(api.__all__) == len(set(api.__all__))
    assert set(api.__all__) == set(api_imports())


def test_the_public_module_defines_nothing_and_loads_eagerly() -> None:
    tree = ast.parse(Path(api.__file__).read_text(encoding="utf-8"))
    statements = [type(node).__name__ for node in tree.body]
    assert set(statements) <= {"Expr", "ImportFrom", "Assign"}, statements  # no __getattr__


@pytest.mark.parametrize("name", sorted(api_imports()))
def test_every_public_name_is_its_home_modules_object(name: str) -> None:
    home = importlib.import_module(api_imports()[name])
    assert getattr(api, name) is getattr(home, name)


def test_no_lazy_re_export_is_left_in_the_use_case_layer() -> None:
    assert not (PACKAGE / "usecases" / "models.py").exists()
    for path in sources("usecases"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert "__getattr__" not in defined, path
        # Use cases import their engine modules directly; only faces read the public module.
        assert all(node.module != API for node in imports_from(path)), path


def test_nothing_imports_the_removed_models_module() -> None:
    for path in [*sources("."), *sorted((REPO / "tests").rglob("*.py"))]:
        for node in imports_from(path):
            assert node.module != "whichtool_tui.usecases.models", path
            if node.module == "whichtool_tui.usecases":
                assert "models" not in {alias.name for alias in node.names}, path


def test_faces_take_engine_types_only_from_the_public_module() -> None:
    # An engine-defined class reaches a face through api alone; a use case's own request or
    # result class may also come from its module (cheap to import on start-up paths), and api
    # carries it too, so the public module stays the complete list of what faces read.
    wrong = []
    for path in sources(*FACES):
        for node in imports_from(path):
            module = node.module or ""
            if not module.startswith("whichtool_tui.usecases.") or module == API:
                continue
            home = importlib.import_module(module)
            for alias in node.names:
                found = getattr(home, alias.name, None)
                if not inspect.isclass(found):
                    continue
                where = f"{path.relative_to(REPO)}: {alias.name} from {module}"
                if not found.__module__.startswith("whichtool_tui.usecases."):
                    wrong.append(f"{where} (engine type)")
                elif alias.name not in api.__all__:
                    wrong.append(f"{where} (missing from api.__all__)")
    assert wrong == []


def test_the_faces_contract_excuses_only_the_fork_early_plumbing() -> None:
    # A new exception is a decision: add the type to usecases/api.py instead, or say here why.
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    faces = next(c for c in contracts if c.get("id") == "faces-through-usecases")
    assert sorted(faces["ignore_imports"]) == [
        "whichtool_tui.commands.bout -> whichtool_tui.arcade.zygote",
        "whichtool_tui.commands.fixture -> whichtool_tui.arcade.fixture",
        "whichtool_tui.headless.bout -> whichtool_tui.arcade.zygote",
    ]
