"""Section 4: a saved or just-finished run: heatmap, trials per cell, per tool, diff."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, HorizontalScroll, Vertical, VerticalScroll
from textual.widgets import Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.metrics import MULTIPLE_KEY, NONE_KEY, PHANTOM_KEY, picked_column
from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial
from whichtool_tui.redact import redact_paths, sanitize_text
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.modals.trials import TrialsModal
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.widgets.heatmap import SPECIAL_LEGEND, ConfusionHeatmap
from whichtool_tui.ui.widgets.run_summary import details, diff_view, headline, per_tool_table


def matrix_axes(report: RunReport) -> tuple[list[str], list[str]]:
    """Rows (expected tools, then distractors) and columns (tools, then the three outcomes)."""
    tools = sorted(tool.tool for tool in report.metrics.by_tool)
    return [*tools, NONE_KEY], [*tools, NONE_KEY, PHANTOM_KEY, MULTIPLE_KEY]


def cell_trials(report: RunReport, expected: str, picked: str) -> list[ScoredTrial]:
    """The scored trials counted in one matrix cell (errored trials are in no cell)."""
    surface = {tool.tool for tool in report.metrics.by_tool}
    return [
        trial
        for trial in report.trials
        if trial.error is None
        and (trial.expected or NONE_KEY) == expected
        and picked_column(trial, surface) == picked
    ]


class ResultsScreen(SectionScreen):
    """Heatmap left, per-tool table right, pairs/position/thresholds below; `d` shows a diff."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("enter", "trials", "Trials", show=False),
        Binding("d", "toggle_diff", "Diff view"),
        Binding("b", "diff_base", "Diff vs base"),
        Binding("s", "save_report", "Save run"),
        Binding("m", "focus_heatmap", "Heatmap"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", id="results-empty", classes="empty")
        with VerticalScroll(id="results-body"):
            yield Static("", id="results-head")
            with Horizontal(id="results-main"):
                with Vertical(id="heatmap-pane") as pane:
                    pane.border_title = "Confusion (rows expected, columns picked)"
                    yield HorizontalScroll(id="heatmap-holder")
                    yield Static("", id="heatmap-legend")
                    yield Static("", id="cell-info")
                with VerticalScroll(id="per-tool-pane") as tools:
                    tools.border_title = "Per tool"
                    yield Static("", id="per-tool")
            yield Static("", id="results-details")
        with VerticalScroll(id="diff-body") as diff:
            diff.border_title = "Diff"
            yield Static("", id="diff-view")

    def on_mount(self) -> None:
        self._shown_report: RunReport | None = None
        self._showing_diff = False

    @property
    def report(self) -> RunReport | None:
        return self.wapp.session.run

    def refresh_from_session(self) -> None:
        session = self.wapp.session
        report = self.report
        diff = session.diff
        if report is None and diff is not None:
            self._showing_diff = True
        showing_diff = self._showing_diff and diff is not None
        empty = self.query_one("#results-empty", Static)
        empty.display = report is None and diff is None
        self.query_one("#results-body").display = report is not None and not showing_diff
        self.query_one("#diff-body").display = showing_diff
        if empty.display:
            empty.update(
                "No run report loaded. Open one with [b]whichtool-tui open run.json[/b], "
                "or run the demo's task set in Run (3)."
            )
        if diff is not None:
            self.query_one("#diff-view", Static).update(diff_view(diff))
        if report is not None and report is not self._shown_report:
            self._show_report(report)

    def _show_report(self, report: RunReport) -> None:
        self._shown_report = report
        self.query_one("#results-head", Static).update(headline(report))
        rows, columns = matrix_axes(report)
        holder = self.query_one("#heatmap-holder", HorizontalScroll)
        holder.remove_children()
        heatmap = ConfusionHeatmap(report.metrics.confusion_matrix, rows, columns, id="heatmap")
        holder.mount(heatmap)
        legend = heatmap.legend()
        self.query_one("#heatmap-legend", Static).update(
            Text(f"{legend}\n{SPECIAL_LEGEND}" if legend else SPECIAL_LEGEND, style="dim")
        )
        self.query_one("#per-tool", Static).update(per_tool_table(report))
        self.query_one("#results-details", Static).update(details(report))
        self.call_after_refresh(heatmap.focus)

    def _pair_note(self, expected: str, picked: str) -> str:
        surface = self.wapp.session.surface
        if surface is None or expected == picked:
            return ""
        pair = surface.pair(expected, picked)
        if pair is not None:
            return f"  ·  inspect: overlap {pair.score:.2f} on this pair"
        for finding in surface.findings:
            if set(finding.tools) == {expected, picked}:
                return f"  ·  inspect: {finding.code}"
        return ""

    @on(ConfusionHeatmap.CellHighlighted)
    def cell_highlighted(self, event: ConfusionHeatmap.CellHighlighted) -> None:
        if isinstance(event, ConfusionHeatmap.CellSelected):
            return
        text = Text()
        text.append(
            f"Cell {sanitize_text(event.expected)} → {sanitize_text(event.picked)}: ", style="bold"
        )
        text.append(f"{event.count} trials")
        text.append(self._pair_note(event.expected, event.picked), style="yellow")
        text.append("   [enter] trials", style="dim")
        self.query_one("#cell-info", Static).update(text)

    @on(ConfusionHeatmap.CellSelected)
    def cell_selected(self, event: ConfusionHeatmap.CellSelected) -> None:
        self.open_cell(event.expected, event.picked)

    def open_cell(self, expected: str, picked: str) -> None:
        """Show the trials behind one cell."""
        report = self.report
        if report is None:
            return
        trials = cell_trials(report, expected, picked)
        prompts = {task.id: task.prompt for task in report.tasks.list}
        title = f"{expected} → {picked} · {len(trials)} trials{self._pair_note(expected, picked)}"
        self.app.push_screen(TrialsModal(title, trials, prompts))

    def action_trials(self) -> None:
        for heatmap in self.query(ConfusionHeatmap):
            heatmap.action_select_cell()

    def action_focus_heatmap(self) -> None:
        for heatmap in self.query(ConfusionHeatmap):
            heatmap.focus()

    def action_diff_base(self) -> None:
        report = self.report
        if report is None:
            self.notify("Open or run a report first.", severity="warning")
            return

        def compare(path: str | None) -> None:
            if not path:
                return
            from whichtool_tui.evaluation.diff import DiffInput, diff_runs
            from whichtool_tui.evaluation.diff_model import diff_to_dict
            from whichtool_tui.evaluation.reader import load_run_report

            try:
                base = load_run_report(path)
                diff = diff_runs(DiffInput(base, redact_paths(path)), DiffInput(report, "this run"))
            except WhichtoolError as error:
                self.notify(error.message, title="Cannot diff", severity="error")
                return
            self.wapp.session.diff = diff_to_dict(diff)
            self._showing_diff = True
            self.refresh_from_session()

        self.app.push_screen(PathPrompt("Base run (whichtool.run/2 JSON)", "base.json"), compare)

    def action_save_report(self) -> None:
        report = self.report
        if report is None:
            return

        def save(path: str | None) -> None:
            if not path:
                return
            from whichtool_tui.evaluation.report_model import dump_report_json
            from whichtool_tui.files import write_atomic

            try:
                written = write_atomic(path, dump_report_json(report))
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            self.notify(f"Saved the run to {redact_paths(str(written))}")

        self.app.push_screen(PathPrompt("Save run report to", "run.json"), save)

    def action_toggle_diff(self) -> None:
        if self.wapp.session.diff is None:
            self.notify("No diff yet: press b to compare this run with a base run.")
            return
        if self.report is None:
            self.notify("Only a diff is open: there is no run to switch back to.")
            return
        self._showing_diff = not self._showing_diff
        self.refresh_from_session()
