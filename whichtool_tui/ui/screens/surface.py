"""Section 1: the tool surface, its costs, the selected tool and the findings worst first."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths, sanitize_text
from whichtool_tui.surface.load import save_snapshot
from whichtool_tui.ui.modals.overlap import OverlapModal
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.surface_model import Finding, SurfaceView, rule_states
from whichtool_tui.ui.widgets.findability_column import COLUMN_TITLE, findability_cell
from whichtool_tui.ui.widgets.tool_detail import SEMANTIC_STYLES, render_tool

SEVERITY_MARKS = {
    "error": ("✖ error", "bold red"),
    "warning": ("▲ warn", "yellow"),
    "info": ("ℹ info", "dim"),
}
BAR_WIDTH = 8


def cost_bar(share: float, biggest: float) -> Text:
    """A bar scaled to the most expensive tool, plus the share of the whole surface."""
    filled = round(BAR_WIDTH * share / biggest) if biggest > 0 else 0
    bar = Text.assemble(("█" * filled, "cyan"))
    bar.append("░" * (BAR_WIDTH - filled), style="dim")
    bar.append(f" {share:>4.0%}")
    return bar


class SurfaceScreen(SectionScreen):
    """Tools on the left, the selected tool on the right, findings below."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("s", "save_snapshot", "Save snapshot"),
        Binding("r", "reinspect", "Re-inspect"),
        Binding("v", "view_pair", "View pair"),
        Binding("f", "focus_findings", "Findings"),
        Binding("t", "focus_tools", "Tools"),
        Binding("k", "toggle_rules", "Rules"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", id="surface-empty")
        with Vertical(id="surface-body"):
            with Horizontal(id="surface-top"):
                tools: DataTable[object] = DataTable(id="tools", cursor_type="row")
                tools.add_columns("tool", "kind", "cost", COLUMN_TITLE)
                yield tools
                with VerticalScroll(id="tool-detail-pane"):
                    yield Static("", id="tool-detail")
            with Horizontal(id="surface-bottom"):
                findings: DataTable[object] = DataTable(id="findings", cursor_type="row")
                findings.add_columns("severity", "code", "about", "message · fix")
                yield findings
                rules: DataTable[object] = DataTable(id="rules", cursor_type="row")
                rules.add_columns("severity", "config", "rule")
                rules.display = False
                yield rules
            yield Static("", id="finding-hint")

    @property
    def view(self) -> SurfaceView | None:
        return self.wapp.session.surface

    def refresh_from_session(self) -> None:
        view = self.view
        empty = self.query_one("#surface-empty", Static)
        body = self.query_one("#surface-body")
        empty.display = view is None
        body.display = view is not None
        if view is None and self.busy("inspect"):
            empty.update("Inspecting the target… (tools/list is read once)")
            return
        if view is None:
            empty.update(
                "No surface yet. Press [b]0[/b] for home and pick a target, press [b]d[/b] "
                "there for the demo, or run [b]whichtool-tui open FILE[/b]."
            )
            return
        self._fill_tools(view)
        self._fill_findings(view)
        self._fill_rules(view)
        self._show_selected()
        self.finding_highlighted()

    def _fill_tools(self, view: SurfaceView) -> None:
        table = self.query_one("#tools", DataTable)
        table.clear()
        biggest = max((tool.share for tool in view.tools), default=0.0)
        for tool in view.tools:
            table.add_row(
                Text(sanitize_text(tool.name)),
                Text(tool.semantics[:8], style=SEMANTIC_STYLES.get(tool.semantics, "")),
                cost_bar(tool.share, biggest),
                findability_cell(self.wapp.session, tool.name),
                key=tool.name,
            )
        table.border_title = f"Tools ({len(view.tools)}) · ~{view.total_tokens:,} tokens"
        table.border_subtitle = f"sha256:{view.short_hash}"

    def _fill_findings(self, view: SurfaceView) -> None:
        table = self.query_one("#findings", DataTable)
        table.clear()
        for index, finding in enumerate(view.findings):
            label, style = SEVERITY_MARKS.get(finding.severity, (finding.severity, ""))
            about = " ~ ".join(finding.tools)
            said = Text(sanitize_text(finding.message))
            if finding.hint:  # the fix sits under its finding, so worst-first reads as a to-do
                said.append("\nfix: ", style="bold dim")
                said.append(sanitize_text(finding.hint), style="dim")
            table.add_row(
                Text(label, style=style),
                Text(finding.code + (" [view]" if finding.is_pair else "")),
                Text(sanitize_text(about)),
                said,
                key=str(index),
                height=None,
            )
        counts = {s: sum(1 for f in view.findings if f.severity == s) for s in SEVERITY_MARKS}
        table.border_title = (
            f"Findings (worst first) · {counts['error']} errors · {counts['warning']} warnings "
            f"· {counts['info']} info"
        )
        table.border_subtitle = "enter on a pair: side by side · k: rules"

    def _fill_rules(self, view: SurfaceView) -> None:
        table = self.query_one("#rules", DataTable)
        table.clear()
        states = rule_states(view.rules)
        for state in states:
            label, style = SEVERITY_MARKS.get(state.effective, ("○ off", "dim"))
            if not state.configurable:
                setting = Text("fixed", style="dim")
            elif state.is_off:
                setting = Text("off by config", style="bold")
            elif state.effective != state.default:
                setting = Text(f"was {state.default}", style="italic")
            elif state.ignored_tools:
                setting = Text(f"skips {len(state.ignored_tools)} tool(s)")
            else:
                setting = Text("default", style="dim")
            table.add_row(Text(label, style=style), setting, Text(state.code), key=state.code)
        off = sum(1 for state in states if state.is_off)
        table.border_title = f"Rules ({len(states)}) · {off} off"
        table.border_subtitle = (
            "config inspect.rules" if view.rules_known else "config unknown (saved report)"
        )

    def _show_selected(self) -> None:
        view = self.view
        table = self.query_one("#tools", DataTable)
        detail = self.query_one("#tool-detail", Static)
        if view is None or not view.tools:
            detail.update("")
            return
        row = min(max(table.cursor_row, 0), len(view.tools) - 1)
        detail.update(render_tool(view, view.tools[row]))

    @on(DataTable.RowHighlighted, "#tools")
    def tool_highlighted(self) -> None:
        self._show_selected()

    def selected_finding(self) -> Finding | None:
        view = self.view
        table = self.query_one("#findings", DataTable)
        if view is None or not view.findings:
            return None
        return view.findings[min(max(table.cursor_row, 0), len(view.findings) - 1)]

    @on(DataTable.RowHighlighted, "#findings")
    def finding_highlighted(self) -> None:
        finding = self.selected_finding()
        hint = self.query_one("#finding-hint", Static)
        if finding is None:
            hint.update("")
            return
        text = Text(sanitize_text(finding.message))
        if finding.hint:
            text.append("\nfix: ", style="bold")
            text.append(sanitize_text(finding.hint))
        if finding.is_pair:
            text.append("   enter: side by side", style="dim")
        hint.update(text)

    @on(DataTable.RowSelected, "#findings")
    def finding_selected(self) -> None:
        self.action_view_pair()

    def action_view_pair(self) -> None:
        finding = self.selected_finding()
        view = self.view
        if view is None or finding is None or not finding.is_pair:
            self.notify("Select an overlap or identical-description finding first.")
            return
        self.app.push_screen(OverlapModal(view, finding))

    def action_focus_findings(self) -> None:
        self.query_one("#findings", DataTable).focus()

    def action_toggle_rules(self) -> None:
        """Show or hide the rule list (codes, severities, what config switched off)."""
        rules = self.query_one("#rules", DataTable)
        rules.display = not rules.display
        if rules.display:
            rules.focus()

    def action_focus_tools(self) -> None:
        self.query_one("#tools", DataTable).focus()

    def action_reinspect(self) -> None:
        target = self.wapp.session.target
        if target is None:
            self.notify("Nothing to re-inspect: open a target first.", severity="warning")
            return
        self.wapp.inspect_target(target)

    def action_save_snapshot(self) -> None:
        view = self.view
        if view is None or view.raw_list is None:
            self.notify(
                "No served listing to save (a report opened from disk has none).",
                severity="warning",
            )
            return
        raw = view.raw_list

        def save(path: str | None) -> None:
            if not path:
                return
            try:
                written = save_snapshot(raw, path)
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            self.notify(f"Saved {len(raw)} tools to {redact_paths(str(written))}")

        self.app.push_screen(PathPrompt("Save snapshot to", "snapshot.json"), save)
