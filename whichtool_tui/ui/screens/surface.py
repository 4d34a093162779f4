"""Section 1: the tool surface, its costs, the selected tool and the findings worst first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths
from whichtool_tui.ui.modals.family import FamilyModal
from whichtool_tui.ui.modals.overlap import OverlapModal
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.surface_model import (
    SEVERITY_FILTERS,
    TOOL_ORDERS,
    Finding,
    SurfaceView,
    ToolRow,
    rule_states,
    visible_findings,
    visible_tools,
)
from whichtool_tui.ui.widgets.findability_column import findability_cell
from whichtool_tui.ui.widgets.row_table import RowTable
from whichtool_tui.ui.widgets.surface_rows import SEVERITY_MARKS, finding_hint, rule_row
from whichtool_tui.ui.widgets.surface_tables import FindingTable, ToolTable
from whichtool_tui.ui.widgets.tool_detail import render_tool
from whichtool_tui.usecases.inspect import save_snapshot

LOWER_PANES = ("detail", "findings", "rules")
COUNTING = Text("…", style="dim")  # a cost or findability cell while the tokens are counted
SURFACE_LESS_ACTIONS = {"back", "escape"}  # act on an empty Surface (r once a target was tried)
FOCUS_SHOWS = {  # the focused widget's id -> the pane shown under the tools when they stack
    "tools": "detail",
    "tool-detail-pane": "detail",
    "findings": "findings",
    "rules": "rules",
}


class SurfaceScreen(SectionScreen):
    """Tools on the left, the selected tool on the right, findings below.

    Under 100 columns the panes stack: the tools list stays on top and the pane under it
    follows the focus (the selected tool's detail, the findings with the selected one's full
    text, or the rule list), so each keeps a usable height at 80x24. The tools show as soon
    as the surface is costed; the findings pane says it is reviewing until the review is in.
    Both lists are virtual: 10,000 tools page, sort and filter as a whole.
    """

    BINDINGS: ClassVar[list[BindingType]] = [  # the footer shows as many as fit, in this order
        Binding("q", "back", "Back"),
        Binding("f", "focus_findings", "Findings"),
        Binding("t", "focus_tools", "Tools"),
        Binding("slash", "search", "Search"),
        Binding("v", "view_pair", "View pair"),
        Binding("k", "toggle_rules", "Rules"),
        Binding("s", "save_snapshot", "Save snapshot"),
        Binding("r", "reinspect", "Re-inspect"),
        Binding("e", "cycle_severity", "Severity"),
        Binding("o", "cycle_order", "Sort tools"),
        Binding("j", "toggle_raw", "Raw JSON"),
        Binding("p", "propose_fix", "Propose fix"),
        Binding("c", "show_hosts", "Hosts"),
    ]

    _shown: SurfaceView | None = None
    _shown_state: tuple[bool, bool | str | None] | None = None  # (costed, review) when filled
    _shown_tasks: tuple[tuple[str, str, str | None], ...] | None = None
    _tool_query = ""
    _finding_query = ""
    _severity = "all"
    _order = "served"
    _raw = False
    _searching = "tools"
    _biggest = 0.0
    _rules_for: SurfaceView | None = None  # the view the rule list was filled for

    def compose_body(self) -> ComposeResult:
        yield Static("", id="surface-empty")
        with Vertical(id="surface-body", classes="-lower-detail"):
            with Horizontal(id="surface-top"):
                yield ToolTable(id="tools")
                with VerticalScroll(id="tool-detail-pane"):
                    yield Static("", id="tool-detail")
            with Horizontal(id="surface-bottom"):
                yield FindingTable(id="findings")
                rules: DataTable[object] = RowTable(id="rules")
                rules.add_columns("severity", "config", "rule")
                rules.display = False
                yield rules
            yield Static("", id="finding-hint")
            search = Input(placeholder="search", id="surface-search")
            search.display = False
            yield search

    @property
    def view(self) -> SurfaceView | None:
        return self.wapp.session.surface

    @property
    def lower_pane(self) -> str:
        """Which pane sits under the tools when they stack: detail, findings or rules."""
        body = self.query_one("#surface-body")
        return next((pane for pane in LOWER_PANES if body.has_class(f"-lower-{pane}")), "detail")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        pane = FOCUS_SHOWS.get(event.widget.id or "")
        if pane is not None:
            body = self.query_one("#surface-body")
            for name in LOWER_PANES:
                body.set_class(name == pane, f"-lower-{name}")

    def refresh_from_session(self) -> None:
        view = self.view
        self.refresh_bindings()  # the keys that act follow whether there is a surface
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
        tasks = self.wapp.session.tasks
        task_key = tuple((t.id, t.prompt, t.expected) for t in tasks.tasks) if tasks else None
        state = (view.costed, view.reviewed or view.review_failed)
        if view is self._shown and task_key == self._shown_tasks:
            shown, self._shown_state = self._shown_state, state
            if shown is not None and shown[0] != state[0]:  # the costs came in
                self._fill_tools(view, keep=self._selected_name())
                self._show_selected()
            if shown is not None and shown[1] != state[1]:  # the review came in
                self._fill_findings(view)
                self.finding_highlighted()
            return  # filled once per load (the findability column also follows the task set)
        self._shown = view
        self._shown_state = state
        self._shown_tasks = task_key
        self._fill_tools(view)
        self._fill_findings(view)
        self._rules_for = None
        if self.query_one("#rules", DataTable).display:
            self._fill_rules(view)
        self._show_selected()
        self.finding_highlighted()

    @property
    def _listed_tools(self) -> Sequence[ToolRow]:
        """The tools the list shows (search and order applied), all of them."""
        return self.query_one("#tools", ToolTable).tools

    @property
    def _listed_findings(self) -> Sequence[Finding]:
        """The findings the list shows (severity and search applied), all of them."""
        return self.query_one("#findings", FindingTable).findings

    def _selected_name(self) -> str | None:
        table = self.query_one("#tools", ToolTable)
        row = table.selected
        return None if row is None else table.tools[row].name

    def _fill_tools(self, view: SurfaceView, keep: str | None = None) -> None:
        """List the tools (search and order applied), the cursor on ``keep`` if listed."""
        table = self.query_one("#tools", ToolTable)
        self._biggest = max((tool.share for tool in view.tools), default=0.0)
        session = self.wapp.session
        listed = visible_tools(view.tools, self._tool_query, self._order)
        if view.costed:
            table.show(listed, self._biggest, lambda name: findability_cell(session, name))
        else:
            table.show(listed, None, lambda name: COUNTING)
        if keep is not None:
            table.cursor = next((i for i, tool in enumerate(listed) if tool.name == keep), 0)
        shown = len(listed)
        count = f"{shown:,} of {len(view.tools):,}" if shown != len(view.tools) else f"{shown:,}"
        tokens = f"~{view.total_tokens:,} tokens" if view.costed else "counting tokens…"
        table.border_title = f"Tools ({count}) · {tokens} · {self._order}"
        digest = view.short_hash if view.costed else "…"
        table.border_subtitle = f"sha256:{digest} · /: search · o: sort"

    def _fill_findings(self, view: SurfaceView) -> None:
        table = self.query_one("#findings", FindingTable)
        detail = self.query_one("#tool-detail-pane")
        table.border_subtitle = "enter: pair side by side, family members · e: severity · /: search"
        if not view.reviewed:
            failed = view.review_failed
            said = f"The review failed: {failed}" if failed else self._reviewing(view).capitalize()
            table.show((), said)
            table.border_title = (
                "Findings · the review failed" if failed else f"Findings · {self._reviewing(view)}"
            )
            detail.border_subtitle = "f: findings (reviewing) · k: rules · j: raw JSON"
            return
        listed = visible_findings(view.findings, self._finding_query, self._severity)
        table.show(listed, "No findings." if not view.findings else "No finding matches.")
        counts = {s: sum(1 for f in view.findings if f.severity == s) for s in SEVERITY_MARKS}
        shown = "" if self._severity == "all" else f" · showing {self._severity}"
        if self._finding_query:
            shown += f" · matching {self._finding_query!r}"
        table.border_title = (
            f"Findings (worst first) · {counts['error']} errors · {counts['warning']} warnings "
            f"· {counts['info']} info{shown}"
        )
        detail.border_subtitle = f"f: findings ({len(view.findings):,}) · k: rules · j: raw JSON"

    @staticmethod
    def _reviewing(view: SurfaceView) -> str:
        return f"reviewing {len(view.tools):,} tools… the findings follow"

    def _fill_rules(self, view: SurfaceView) -> None:
        """The rule list, filled when first shown (its catalog loads every report model)."""
        self._rules_for = view
        table = self.query_one("#rules", DataTable)
        table.clear()
        states = rule_states(view.rules)
        for state in states:
            table.add_row(*rule_row(state), key=state.code)
        off = sum(1 for state in states if state.is_off)
        table.border_title = f"Rules ({len(states)}) · {off} off"
        table.border_subtitle = (
            "config inspect.rules" if view.rules_known else "config unknown (saved report)"
        )

    def _show_selected(self) -> None:
        view = self.view
        table = self.query_one("#tools", ToolTable)
        detail = self.query_one("#tool-detail", Static)
        row = table.selected
        if view is None or row is None:
            detail.update("")
            return
        detail.update(render_tool(view, table.tools[row], raw=self._raw))

    @on(ToolTable.RowHighlighted, "#tools")
    def tool_highlighted(self) -> None:
        self._show_selected()

    def selected_finding(self) -> Finding | None:
        table = self.query_one("#findings", FindingTable)
        row = table.selected
        return None if self.view is None or row is None else table.findings[row]

    @on(FindingTable.RowHighlighted, "#findings")
    def finding_highlighted(self) -> None:
        finding = self.selected_finding()
        hint = self.query_one("#finding-hint", Static)
        if finding is None:
            hint.update("")
            return
        hint.update(finding_hint(finding))

    @on(FindingTable.RowSelected, "#findings")
    def finding_selected(self) -> None:
        self.action_view_pair()

    def action_view_pair(self) -> None:
        finding = self.selected_finding()
        view = self.view
        if view is not None and finding is not None and finding.is_family:
            self.app.push_screen(FamilyModal(view, finding))
            return
        if view is None or finding is None or not finding.is_pair:
            self.notify("Select a finding about two tools (overlap, identical, look-alike).")
            return
        self.app.push_screen(OverlapModal(view, finding))

    def action_propose_fix(self) -> None:
        """``p``: rewrites for the selected finding's tools, measured on held-out tasks."""
        finding = self.selected_finding()
        if finding is None or not finding.tools:
            self.notify("Select a finding about one or more tools.")
            return
        self.wapp.propose_fix(tuple(finding.tools))

    def action_show_hosts(self) -> None:
        """``c``: the host x tool matrix (the config's hosts, else every profile)."""
        from whichtool_tui.ui.modals.hosts import HostsModal

        view = self.view
        if view is None:
            self.notify("Inspect a target first.")
            return
        if not view.costed:
            self.notify("The tokens are still being counted: press c again in a moment.")
            return
        if view.hosts is None:
            if view.raw_list is None:
                self.notify("This saved report has no hosts section: inspect it with --host.")
                return
            from whichtool_tui.usecases.inspect import host_verdicts

            tokens = {tool.name: tool.tokens for tool in view.tools}
            view.hosts = host_verdicts(view.raw_list, tokens, self.wapp.session.settings)
        self.app.push_screen(HostsModal(view.hosts, [tool.name for tool in view.tools]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """With no surface only the keys that load one act (a search would focus a hidden field)."""
        if self.view is None:
            session = self.wapp.session
            retry = action == "reinspect" and (session.target or session.attempted) is not None
            return retry or action in SURFACE_LESS_ACTIONS
        return True

    def close_innermost(self) -> bool:
        """Escape or ``q``: the search field, then the raw JSON view, then the rule list."""
        search = self.query_one("#surface-search", Input)
        if search.display:
            self.search_done()
        elif self._raw:
            self.action_toggle_raw()
        elif self.query_one("#rules", DataTable).display:
            self.action_toggle_rules()
        else:
            return False
        return True

    def leave_field(self, field: Widget) -> None:
        if field.id == "surface-search":
            self.search_done()
        else:
            super().leave_field(field)

    def action_search(self) -> None:
        """``/``: filter the focused table (tools by name; findings by code, tool or text)."""
        if self.view is None:
            return  # nothing to filter: the field would be hidden with the empty body
        findings = self.query_one("#findings", FindingTable)
        self._searching = "findings" if findings.has_focus else "tools"
        search = self.query_one("#surface-search", Input)
        search.placeholder = (
            "filter findings: code, tool or text"
            if self._searching == "findings"
            else "filter tools by name"
        )
        search.value = self._finding_query if self._searching == "findings" else self._tool_query
        search.display = True
        self.set_focus(search)

    @on(Input.Changed, "#surface-search")
    def search_changed(self, event: Input.Changed) -> None:
        view = self.view
        if view is None:
            return
        if self._searching == "findings":
            self._finding_query = event.value.strip()
            self._fill_findings(view)
            self.finding_highlighted()
        else:
            self._tool_query = event.value.strip()
            self._fill_tools(view)
            self._show_selected()

    @on(Input.Submitted, "#surface-search")
    def search_done(self) -> None:
        # The table takes the focus before the field hides: a hidden field keeps the focus,
        # and a key typed next would still be typed into it.
        self.set_focus(self.query_one(f"#{self._searching}"))
        self.query_one("#surface-search", Input).display = False

    def action_cycle_severity(self) -> None:
        """``e``: show all findings, then only errors, warnings, info."""
        position = SEVERITY_FILTERS.index(self._severity)
        self._severity = SEVERITY_FILTERS[(position + 1) % len(SEVERITY_FILTERS)]
        if self.view is not None:
            self._fill_findings(self.view)
            self.finding_highlighted()

    def action_cycle_order(self) -> None:
        """``o``: tools in served order, by cost, by name."""
        position = TOOL_ORDERS.index(self._order)
        self._order = TOOL_ORDERS[(position + 1) % len(TOOL_ORDERS)]
        if self.view is not None:
            self._fill_tools(self.view)
            self._show_selected()

    def action_toggle_raw(self) -> None:
        """``j``: the selected tool's served JSON instead of its summary (escape or q closes it)."""
        self._raw = not self._raw
        self._show_selected()
        self.refresh_bindings()

    def action_focus_findings(self) -> None:
        self.set_focus(self.query_one("#findings", FindingTable))

    def action_toggle_rules(self) -> None:
        """Show or hide the rule list (codes, severities, what config switched off)."""
        rules = self.query_one("#rules", DataTable)
        rules.display = not rules.display
        if rules.display and self.view is not None and self._rules_for is not self.view:
            self._fill_rules(self.view)
        self.set_focus(self.query_one("#rules" if rules.display else "#findings"))

    def action_focus_tools(self) -> None:
        self.set_focus(self.query_one("#tools", ToolTable))

    def action_reinspect(self) -> None:
        session = self.wapp.session
        target = session.target or session.attempted  # a failed target is kept for a retry
        if target is None:
            self.notify("Nothing to re-inspect: open a target first.", severity="warning")
            return
        self._shown = None  # a re-inspect refills even if the view comes back equal
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

        inputs = self.wapp.session.files_in_use()  # the snapshot or report shown, and the rest
        prompt = PathPrompt("Save snapshot to", "snapshot.json", save=True, inputs=inputs)
        self.app.push_screen(prompt, save)
