"""Section 4: a saved or just-finished run: heatmap, trials per cell, per tool, diff."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, HorizontalScroll, Vertical, VerticalScroll
from textual.widgets import Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.modals.trials import TrialsModal
from whichtool_tui.ui.recent import key_metric, remember
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.widgets.discovery_view import discovery_view
from whichtool_tui.ui.widgets.heatmap import SPECIAL_LEGEND, SPECIAL_NAMES, ConfusionHeatmap
from whichtool_tui.ui.widgets.run_summary import (
    details,
    diff_report_view,
    headline,
    per_tool_table,
)
from whichtool_tui.ui.widgets.task_statistics import statistics_text
from whichtool_tui.usecases.api import (
    DISTRACTOR_ROW,
    DiffReport,
    RunReport,
    ScoredTrial,
    confusion_axes,
    picked_column,
)

PER_TOOL_MIN_WIDTH = 48
HEATMAP_MIN_WIDTH = 44  # accuracy with its interval and counts, a few confusions, borders


def matrix_axes(report: RunReport) -> tuple[list[str], list[str]]:
    """Rows (expected tools, then distractors) and columns (tools, then the three outcomes)."""
    axes = confusion_axes(tool.tool for tool in report.metrics.by_tool)
    return axes.rows, axes.columns


def cell_trials(report: RunReport, expected: str, picked: str) -> list[ScoredTrial]:
    """The scored trials counted in one matrix cell (errored trials are in no cell)."""
    surface = {tool.tool for tool in report.metrics.by_tool}
    return [
        trial
        for trial in report.trials
        if trial.error is None
        and (trial.expected or DISTRACTOR_ROW) == expected
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
        Binding("o", "overlap", "Side by side"),
        Binding("p", "propose_fix", "Propose fix"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that do something now show in the footer."""
        session = self.wapp.session
        if action in (
            "trials",
            "focus_heatmap",
            "save_report",
            "diff_base",
            "overlap",
            "propose_fix",
        ):
            return session.run is not None and not self._showing_diff
        if action == "toggle_diff":
            return session.diff is not None and session.run is not None
        return True

    def compose_body(self) -> ComposeResult:
        yield Static("", id="results-empty", classes="empty")
        with VerticalScroll(id="results-body"):
            yield Static("", id="results-head")
            with Horizontal(id="results-main"):
                with Vertical(id="heatmap-pane") as pane:
                    pane.border_title = "Confusion (rows expected, columns picked)"
                    yield HorizontalScroll(id="heatmap-holder")
                    yield Static("", id="cell-info")
                    yield Static("", id="heatmap-legend")
                with VerticalScroll(id="per-tool-pane") as tools:
                    tools.border_title = "Per tool"
                    yield Static("", id="per-tool")
            yield Static("", id="results-details")
            yield Static("", id="results-statistics")
            yield Static("", id="results-discovery")
        with VerticalScroll(id="diff-body") as diff:
            diff.border_title = "Diff"
            yield Static("", id="diff-view")

    def __init__(self) -> None:
        super().__init__()
        self._shown_report: RunReport | None = None
        self._shown_diff: DiffReport | None = None
        self._showing_diff = False
        self._heatmap: ConfusionHeatmap | None = None  # one grid, shown again for each report

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
        if diff is not None and diff is not self._shown_diff:
            self._shown_diff = diff
            self.query_one("#diff-view", Static).update(diff_report_view(diff))
        if report is not None and report is not self._shown_report:
            self._show_report(report)
        self.refresh_bindings()

    def _show_report(self, report: RunReport) -> None:
        self._shown_report = report
        self.query_one("#results-head", Static).update(headline(report))
        rows, columns = matrix_axes(report)
        matrix = report.metrics.confusion_matrix
        heatmap = self._heatmap
        if heatmap is None:
            heatmap = ConfusionHeatmap(matrix, rows, columns, id="heatmap")
            mounted = self.query_one("#heatmap-holder", HorizontalScroll).mount(heatmap)
            self._heatmap = heatmap

            async def focus_when_mounted() -> None:
                # At once when it can hold it: a deferred ``focus()`` lands after a key
                # already on its way (an arrow meant for the grid).
                await mounted
                self.set_focus(heatmap)

            self.call_later(focus_when_mounted)
        else:  # another report: the same grid (the focus and the id stay with it)
            heatmap.show(matrix, rows, columns)
            self.set_focus(heatmap)
        self._fit_layout()
        legend = heatmap.legend()
        key = heatmap.scale()
        key.append("\n")
        key.append(f"{legend}\n{SPECIAL_LEGEND}" if legend else SPECIAL_LEGEND, style="dim")
        self.query_one("#heatmap-legend", Static).update(key)
        self.query_one("#per-tool", Static).update(per_tool_table(report))
        self.query_one("#results-details", Static).update(details(report))
        self.query_one("#results-statistics", Static).update(statistics_text(report))
        discovery = self.query_one("#results-discovery", Static)
        discovery.display = report.discovery is not None
        discovery.update(discovery_view(report))

    def on_resize(self) -> None:
        if self._shown_report is not None:
            self._fit_layout()

    def _fit_layout(self) -> None:
        """Side by side only while the per-tool table keeps full names and intervals beside it."""
        report = self._shown_report
        heatmap = self._heatmap
        if report is None or heatmap is None:
            return
        names = max((len(tool.tool) for tool in report.metrics.by_tool), default=8)
        grid_width = heatmap.get_content_width(None, None) + 4  # borders and padding
        stacked = grid_width + names + PER_TOOL_MIN_WIDTH > self.app.size.width
        self.query_one("#results-main").set_class(stacked, "-stacked")
        self.query_one("#heatmap-pane").styles.width = (
            None if stacked else max(grid_width, HEATMAP_MIN_WIDTH)
        )

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
        picked = SPECIAL_NAMES.get(event.picked, event.picked)
        text.append(f"{sanitize_text(event.expected)} → {sanitize_text(picked)}: ", style="bold")
        text.append(f"{event.count} trials")
        note = self._pair_note(event.expected, event.picked)
        text.append(note, style="yellow")
        text.append("   enter trials" + (" · o side by side" if note else ""), style="dim")
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
        if self._heatmap is not None:
            self._heatmap.action_select_cell()

    def action_focus_heatmap(self) -> None:
        if self._heatmap is not None:
            self.set_focus(self._heatmap)

    def action_propose_fix(self) -> None:
        """``p``: rewrites for the cell's expected and picked tools, measured on held-out tasks;
        the open run supplies the tuning failures when it was made on this surface."""
        heatmap = self._heatmap
        report = self.report
        if heatmap is None or not heatmap.rows or report is None:
            return
        row, column = heatmap.cursor
        expected, picked = heatmap.rows[row], heatmap.columns[column]
        tools = tuple(
            name for name in dict.fromkeys((expected, picked)) if name not in SPECIAL_NAMES
        )
        if not tools:
            self.notify("Put the cursor on a cell of a tool's row.")
            return
        surface = self.wapp.session.surface
        same = surface is not None and surface.surface_hash == report.reproducibility.surface_hash
        self.wapp.propose_fix(tools, report if same else None)

    def action_overlap(self) -> None:
        """The two descriptions behind the heatmap cell, side by side (the Surface pair view)."""
        from whichtool_tui.ui.modals.overlap import OverlapModal
        from whichtool_tui.ui.surface_model import Finding

        surface = self.wapp.session.surface
        heatmap = self._heatmap
        if heatmap is None or not heatmap.rows:
            return
        row, column = heatmap.cursor
        expected, picked = heatmap.rows[row], heatmap.columns[column]
        if surface is None:
            self.notify("Load the target's surface (1) to compare descriptions.")
            return
        if expected == picked or {expected, picked} & set(SPECIAL_NAMES):
            self.notify("Put the cursor on a cell where one tool was picked for another.")
            return
        finding = next(
            (f for f in surface.findings if f.is_pair and set(f.tools) == {expected, picked}),
            None,
        )
        if finding is None:
            pair = surface.pair(expected, picked)
            score = f"{pair.score:.2f}" if pair is not None else "not scored"
            finding = Finding(
                code="run/confused-pair",
                severity="info",
                message=f"the run picked {picked} for {expected}; description overlap {score}",
                tools=(expected, picked),
                hint=None,
                detail=None,
            )
        self.app.push_screen(OverlapModal(surface, finding))

    def action_diff_base(self) -> None:
        report = self.report
        if report is None:
            self.notify("Open or run a report first.", severity="warning")
            return

        def compare(path: str | None) -> None:
            if not path:
                return
            self._showing_diff = True  # shown once the App's diff worker delivers it
            self.wapp.diff_against_base(path, report)

        self.app.push_screen(PathPrompt("Base run (whichtool.run/2 JSON)", "base.json"), compare)

    def action_save_report(self) -> None:
        report = self.report
        if report is None:
            return

        def save(path: str | None) -> None:
            if not path:
                return
            from whichtool_tui.files import write_atomic
            from whichtool_tui.usecases.api import dump_report_json

            text = dump_report_json(report)
            try:
                written = write_atomic(path, text, create_folders=False)
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            remember(str(written), "run-report", key_metric("run-report", json.loads(text)))
            self.notify(f"Saved the run to {redact_paths(str(written))}")

        inputs = self.wapp.session.files_in_use()  # the run file, its snapshot and task set
        prompt = PathPrompt("Save run report to", "run.json", save=True, inputs=inputs)
        self.app.push_screen(prompt, save)

    def action_toggle_diff(self) -> None:
        if self.wapp.session.diff is None:
            self.notify("No diff yet: press b to compare this run with a base run.")
            return
        if self.report is None:
            self.notify("Only a diff is open: there is no run to switch back to.")
            return
        self._showing_diff = not self._showing_diff
        self.refresh_from_session()
