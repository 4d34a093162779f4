"""Count the engine modules each face imports directly (the use-case layer's aim: few).

Prints, per face, the distinct ``whichtool_tui`` modules outside the face itself that its
files import (top-level and function-local imports alike), and how many of them are not the
use-case layer, ``errors`` or ``limits``, and how many of those are in the engine packages the
faces contract forbids (the rest is shared plumbing: config, redact, files, reports/ ...).
Target: faces reach the engine through ``usecases`` and name only the deliberate exceptions
listed in the import-linter contract ``faces-through-usecases`` (``lint-imports`` keeps it).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "whichtool_tui"
FACES = {
    "cli": ["cli.py", "commands"],
    "headless": ["headless"],
    "tui": ["ui"],
    "mcp": ["server"],
}
SHARED = ("whichtool_tui.usecases", "whichtool_tui.errors", "whichtool_tui.limits")
FACES_CONTRACT_ID = "faces-through-usecases"


def contract_engine() -> tuple[str, ...]:
    """The engine packages the faces contract forbids (each import of one is a named exception)."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("id") == FACES_CONTRACT_ID:
            return tuple(contract["forbidden_modules"])
    return ()


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
