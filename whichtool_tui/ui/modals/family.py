"""A family of near-duplicate tools: its members, template and scores; enter opens a pair."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.modals.overlap import OverlapModal
from whichtool_tui.ui.surface_model import Finding, SurfaceView
from whichtool_tui.ui.widgets.row_table import RowTable


class FamilyModal(ModalScreen[None]):
    """Every listed member of a family finding; enter compares one with the family's first."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, view: SurfaceView, finding: Finding) -> None:
        super().__init__()
        self._view = view
        self._finding = finding

    def compose(self) -> ComposeResult:
        finding = self._finding
        detail = finding.detail if isinstance(finding.detail, dict) else {}
        with Vertical(id="family") as box:
            box.border_title = f"{finding.code} · family of {finding.member_count:,}"
            box.border_subtitle = "enter: side by side with the first member · esc: close"
            head = Text.assemble((finding.code, "bold"), "  ", sanitize_text(finding.message))
            template = detail.get("template")
            if isinstance(template, str):
                head.append("\ntemplate: ", style="dim")
                head.append(sanitize_text(template))
            listed = len(finding.tools)
            if finding.member_count > listed:
                head.append(
                    f"\nlisting the first {listed} of {finding.member_count:,}", style="dim"
                )
            yield Static(head, id="family-head")
            members: DataTable[object] = RowTable(id="family-members")
            members.add_columns("member", "score vs first", "description")
            yield members
            if finding.hint:
                yield Static(Text(f"fix: {sanitize_text(finding.hint)}", style="italic"))

    def on_mount(self) -> None:
        table = self.query_one("#family-members", DataTable)
        first = self._finding.tools[0]
        for name in self._finding.tools:
            score = self._view.pair_score(first, name) if name != first else None
            described = (self._view.description(name) or "").split("\n", 1)[0]
            table.add_row(
                Text(sanitize_text(name)),
                Text("—" if score is None else f"{score:.2f}"),
                Text(sanitize_text(described)[:90], style="dim"),
                key=name,
            )
        self.set_focus(table)

    @on(DataTable.RowSelected, "#family-members")
    def member_selected(self, event: DataTable.RowSelected) -> None:
        first = self._finding.tools[0]
        name = str(event.row_key.value)
        other = name if name != first else self._finding.tools[1]
        self.app.push_screen(OverlapModal(self._view, self._finding, (first, other)))

    def action_close(self) -> None:
        self.dismiss(None)
