"""A small surface and task set on disk, for the run command tests."""

from __future__ import annotations

import json
from pathlib import Path

SURFACE = {
    "tools": [
        {
            "name": "read_file",
            "description": "Read the contents of a file at a path and return its text.",
            "inputSchema": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
        {
            "name": "search_code",
            "description": "Search source code for a query string and list matching lines.",
            "inputSchema": {
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
            },
        },
        {
            "name": "list_directory",
            "description": "List the entries of a directory folder.",
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
    ]
}

TASKS = """version: 1
tasks:
  - id: read-readme
    prompt: Read the file README.md and show me its contents
    expected: read_file
    tags: [files]
  - id: find-foo
    prompt: Search the source code for the query foo
    expected: search_code
    tags: [code, slow]
  - id: list-src
    prompt: List the entries of the src directory
    expected: list_directory
    tags: [files]
  - id: joke
    prompt: Tell me a joke about penguins
    expected: null
    tags: [distractor]
"""


def write_project(folder: Path) -> Path:
    """Write surface.json and whichtool.tasks.yaml into ``folder``; return the surface path."""
    surface = folder / "surface.json"
    surface.write_text(json.dumps(SURFACE), encoding="utf-8")
    (folder / "whichtool.tasks.yaml").write_text(TASKS, encoding="utf-8")
    return surface


def run_args(api_base_url: str, *extra: str, model: str = "m") -> list[str]:
    """Headless ``run`` of the written project against a loopback Chat Completions server."""
    return [
        "--no-ui",
        "run",
        "surface.json",
        "--provider",
        "openai-compatible",
        "--model",
        model,
        "--base-url",
        api_base_url + "/v1",
        *extra,
    ]
