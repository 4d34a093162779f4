"""The bundled demo as files in a folder, so every example works after any install.

``demo init`` writes the lab surface, its task sets, an edited copy of the surface (the "pull
request" that ``surface-diff`` compares), a config that points at them (offline keyword
baseline), an MCP server config and a GitHub workflow. Every ``--help`` example and README's
tour use only these files and what the commands themselves write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from whichtool_tui.errors import WhichtoolError

# What the demo folder holds: the file written -> the bundled file it comes from (None: made here).
BUNDLED = {
    "demo-lab.json": "demo-lab.json",
    "demo-lab.tasks.yaml": "demo-lab.tasks.yaml",
    "demo-lab.improve.tasks.yaml": "demo-lab.improve.tasks.yaml",
    ".github/workflows/whichtool.yml": "github-workflow.yml",
}
HEAD_SNAPSHOT = "demo-lab.head.json"
CONFIG = "whichtool.config.json"
MCP_CONFIG = "whichtool.mcp.json"
# The edit the head snapshot makes: a vaguer description, as a real pull request might.
_EDITED_TOOL = "search_orders"
_EDITED_DESCRIPTION = "Find orders."


@dataclass(frozen=True)
class DemoFolder:
    """What ``demo init`` wrote, in order."""

    folder: Path
    written: tuple[str, ...]


def bundled_folders() -> tuple[Path, ...]:
    """Where the bundled files are: package data in an install, the checkout's folders else."""
    package = Path(__file__).resolve().parent.parent
    checkout = package.parent
    return (package / "demo", checkout / "snapshots", checkout / "examples")


def _bundled(name: str) -> bytes:
    for folder in bundled_folders():
        candidate = folder / name
        if candidate.is_file():
            return candidate.read_bytes()
    raise WhichtoolError(
        "demo/missing-data",
        f"The bundled demo file {name} is missing from this installation",
        "Reinstall whichtool-tui; the demo files ship inside the package.",
    )


def _head_snapshot(base: bytes) -> str:
    surface = json.loads(base)
    for tool in surface["tools"]:
        if tool["name"] == _EDITED_TOOL:
            tool["description"] = _EDITED_DESCRIPTION
    return json.dumps(surface, indent=2, ensure_ascii=False) + "\n"


def _configs() -> dict[str, str]:
    run_config = {
        "target": {"transport": "snapshot", "path": "demo-lab.json"},
        "tasks": "demo-lab.tasks.yaml",
        "provider": {"name": "keyword"},
    }
    text = json.dumps(run_config, indent=2) + "\n"
    return {CONFIG: text, MCP_CONFIG: text}


def demo_contents() -> dict[str, str | bytes]:
    """Every file of the demo folder, by its path inside the folder."""
    contents: dict[str, str | bytes] = {name: _bundled(src) for name, src in BUNDLED.items()}
    contents[HEAD_SNAPSHOT] = _head_snapshot(_bundled("demo-lab.json"))
    contents.update(_configs())
    return contents


def write_demo(folder: str, force: bool = False) -> DemoFolder:
    """Write the demo files into ``folder`` (created if needed); an existing file is refused,
    naming it, before anything is written, unless ``force``."""
    from whichtool_tui.files import check_output_path, write_atomic
    from whichtool_tui.redact import redact_paths

    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise WhichtoolError(
            "demo/not-a-folder",
            f"{redact_paths(str(root))} exists and is not a folder",
            "Name a new or existing folder: whichtool-tui demo init tour",
        )
    contents = demo_contents()
    if not force:
        taken = [name for name in contents if (root / name).exists()]
        if taken:
            raise WhichtoolError(
                "demo/exists",
                f"{redact_paths(str(root / taken[0]))} already exists",
                "Choose an empty folder, or pass --force to overwrite the demo files.",
            )
    for name in contents:
        check_output_path(root / name)
    for name, data in contents.items():
        write_atomic(root / name, data)
    return DemoFolder(root, tuple(contents))
