"""Count the engine modules each face imports directly (the use-case layer's aim: few).

Prints, per face, the distinct ``whichtool_tui`` modules outside the face itself that its
files import (top-level and function-local imports alike), and how many of them are not the
use-case layer, ``errors`` or ``limits``, and how many of those are in the engine packages the
faces contract forbids (the rest is shared plumbing: config, redact, files, reports/ ...).
Target: faces reach the engine through ``usecases`` and name only the deliberate exceptions
listed in the import-linter contract ``faces-through-usecases`` (``lint-imports`` keeps it).

It also counts the contract's ignores: the patterns, the face -> engine edges they excuse, and
every import edge of the package the patterns match (a ``whichtool_tui.** -> M`` pattern matches
domain modules too, so this is the size of what the contract waves through).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent / "whichtool_tui"
FACES = {
    "cli": ["cli.py", "commands"],
    "headless": ["headless"],
    "tui": ["ui"],
    "mcp": ["server"],
}
SHARED = ("whichtool_tui.usecases", "whichtool_tui.errors", "whichtool_tui.limits")
FACES_CONTRACT_ID = "faces-through-usecases"


def faces_contract() -> dict[str, Any]:
    """The faces contract's table in pyproject.toml."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("id") == FACES_CONTRACT_ID:
            found: dict[str, Any] = contract
            return found
    return {}


def contract_engine() -> tuple[str, ...]:
    """The engine packages the faces contract forbids (each import of one is a named exception)."""
    return tuple(faces_contract().get("forbidden_modules", ()))


def _pattern(expression: str) -> re.Pattern[str]:
    """An import-linter module expression (``*`` one level, ``**`` any) as a regex."""
    escaped = re.escape(expression).replace(r"\*\*", ".*").replace(r"\*", "[^.]*")
    return re.compile(f"^{escaped}$")


def ignored_edges() -> tuple[int, int, int]:
    """(ignore patterns, face -> engine edges excused, package edges the patterns match)."""
    import grimp

    contract = faces_contract()
    patterns = [
        tuple(_pattern(side.strip()) for side in ignore.split("->"))
        for ignore in contract.get("ignore_imports", ())
    ]
    sources = tuple(contract.get("source_modules", ()))
    forbidden = contract_engine()
    graph = grimp.build_graph("whichtool_tui", include_external_packages=True)

    def under(module: str, packages: tuple[str, ...]) -> bool:
        return any(module == p or module.startswith(p + ".") for p in packages)

    excused = matched = 0
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            if under(importer, sources) and under(imported, forbidden):
                excused += 1
            if any(a.match(importer) and b.match(imported) for a, b in patterns):
                matched += 1
    return len(patterns), excused, matched


def face_files(parts: list[str]) -> list[Path]:
    """Every .py file of a face."""
    files: list[Path] = []
    for part in parts:
        path = PACKAGE / part
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if f.exists()]


def imported_modules(path: Path) -> set[str]:
    """The whichtool_tui modules a file imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("whichtool_tui"):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("whichtool_tui"))
    return found


def main() -> int:
    """Print the counts per face."""
    own_prefixes = {
        "cli": ("whichtool_tui.cli", "whichtool_tui.commands", "whichtool_tui.headless"),
        "headless": ("whichtool_tui.headless",),
        "tui": ("whichtool_tui.ui",),
        "mcp": ("whichtool_tui.server",),
    }
    engine_packages = contract_engine()
    for face, parts in FACES.items():
        modules: set[str] = set()
        for path in face_files(parts):
            modules |= imported_modules(path)
        engine = {m for m in modules if not m.startswith(own_prefixes[face])}
        domain = {m for m in engine if not m.startswith(SHARED)}
        named = {m for m in domain if m.startswith(engine_packages)}
        sys.stdout.write(
            f"{face:9} engine modules imported: {len(engine):3}   "
            f"beyond usecases/errors/limits: {len(domain):3}   "
            f"of them engine packages (each a named contract exception): {len(named):3}\n"
        )
    patterns, excused, matched = ignored_edges()
    sys.stdout.write(
        f"faces contract: {patterns} ignore patterns excuse {excused} face -> engine edges and "
        f"match {matched} import edges of the package (target: only the fork-early plumbing)\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
