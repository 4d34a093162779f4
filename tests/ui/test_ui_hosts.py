"""The Surface screen's hosts view: `c` opens the host x tool matrix and a row's findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from tests.support.ui import static_text, wait_until
from whichtool_tui.ui.app import StartPoint, WhichtoolApp
from whichtool_tui.ui.modals.hosts import HostsModal

pytestmark = pytest.mark.usefixtures("isolated_state")


def _tool(name: str, **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": name,
        "description": f"Read the {name} record by its id.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
    }
    entry.update(extra)
    return entry


async def test_c_opens_the_host_matrix_with_each_rows_findings(tmp_path: Path) -> None:
    path = tmp_path / "surface.json"
    tools = [
        _tool("items.get"),
        _tool("search", inputSchema={"type": "object", "oneOf": [{"required": ["q"]}]}),
        _tool("long", description="x" * 2100),
    ]
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    start = StartPoint(target=("snapshot", str(path)), section="surface")
    app = WhichtoolApp(start=start)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_until(pilot, lambda: app.session.surface is not None, "the inspect finished")
        await pilot.pause()
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, HostsModal), "the hosts view")
        table = app.screen.query_one("#hosts-matrix", DataTable)
        columns = [str(column.label) for column in table.ordered_columns]
        assert columns[:3] == ["tool", "anthropic", "chatgpt-apps"]
        claude = columns.index("claude-code")
        cells = {str(key.value): str(table.get_row(key)[claude]) for key in table.rows}
        assert cells == {"items.get": "rejected", "long": "truncated", "search": "dropped"}
        detail = static_text(app.screen.query_one("#hosts-detail"))
        assert "anthropic request-rejected" in detail and "source:" in detail
        await pilot.press("down")
        await pilot.pause()
        assert "never seen:" in static_text(app.screen.query_one("#hosts-detail"))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HostsModal)
