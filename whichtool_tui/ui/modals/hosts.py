"""Will it work there? The host x tool matrix of the surface, with the findings of a row."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import SHORT_EFFECT, SURFACE_ROW, HostVerdict, host_matrix

_CELL_STYLE = {"truncated": "yellow", "renamed": "yellow"}


class HostsModal(ModalScreen[None]):
    """Rows are tools, columns hosts (ok or the worst effect); the highlighted row's findings
    show below with their sources."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, verdicts: list[HostVerdict], tool_names: list[str]) -> None:
        super().__init__()
        self._verdicts = verdicts
        self._tool_names = tool_names

    def compose(self) -> ComposeResult:
        with Vertical(id="hosts") as box:
            box.border_title = "Hosts · will it work there?"
            box.border_subtitle = "arrows: a tool's findings · esc: close"
            summary = Text()
            for verdict in self._verdicts:
                readiness = verdict.readiness
                state = ("ok", "green") if verdict.compatible else ("breaks", "bold red")
                summary.append(f"{verdict.host} ", style="bold")
                summary.append(*state)
                summary.append(
                    f" {readiness.tools_seen}/{readiness.tool_count} tools"
                    f" ~{readiness.tokens_loaded:,} tok   ",
                    style="dim",
                )
            yield Static(summary, id="hosts-summary")
            table: DataTable[object] = DataTable(id="hosts-matrix", cursor_type="row")
            table.add_column("tool", key="tool")
            for verdict in self._verdicts:
                table.add_column(verdict.host, key=verdict.host)
            yield table
            with VerticalScroll(id="hosts-detail-pane"):
                yield Static("", id="hosts-detail")

    def on_mount(self) -> None:
        table = self.query_one("#hosts-matrix", DataTable)
        matrix = host_matrix(self._verdicts, self._tool_names)
        for row in matrix.rows:
            cells = []
            for host in matrix.hosts:
                effect = matrix.cell(row, host)
                short = SHORT_EFFECT.get(effect or "", "ok")
                style = "green" if effect is None else _CELL_STYLE.get(short, "red")
                cells.append(Text(short, style=style))
            table.add_row(Text(sanitize_text(row)), *cells, key=row)
        self.set_focus(table)
        if matrix.rows:
            self._show(matrix.rows[0])

    def _show(self, row: str) -> None:
        detail = Text()
        for verdict in self._verdicts:
            for finding in verdict.findings:
                if (finding.tool if finding.tool is not None else SURFACE_ROW) != row:
                    continue
                detail.append(f"{verdict.host} ", style="bold")
                detail.append(f"{finding.effect}\n", style="red")
                detail.append(sanitize_text(finding.message) + "\n")
                if finding.truncation is not None:
                    unseen = sanitize_text(finding.truncation.unseen)[:160]
                    detail.append(f'never seen: "{unseen}"\n', style="dim")
                detail.append(
                    f"source: {finding.source} (verified {finding.verified})\n\n", style="dim"
                )
        if not detail:
            detail.append("Every named host takes this tool as it is.", style="green")
        self.query_one("#hosts-detail", Static).update(detail)

    @on(DataTable.RowHighlighted, "#hosts-matrix")
    def row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show(str(event.row_key.value))

    def action_close(self) -> None:
        self.dismiss(None)
