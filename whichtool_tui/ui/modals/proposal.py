"""Proposed description rewrites side by side with the originals, and their held-out figures.

The candidates arrive while the measurement runs (the App's improve worker forwards the loop's
events); ``a`` writes the RFC 6902 patch of the accepted ones once the measurement finished.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from whichtool_tui.reports.improve_text import marked_words, measurement_lines
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import (
    Candidate,
    CandidateMeasured,
    CandidateProposed,
    ImproveEvent,
    ImproveReport,
)


def _marked(text: str, opening: str, closing: str, style: str) -> Text:
    """Words wrapped in the text diff's markers shown in a style, the markers dropped."""
    rendered = Text()
    rest = sanitize_text(text)
    while rest:
        start = rest.find(opening)
        if start < 0:
            rendered.append(rest)
            break
        end = rest.find(closing, start + len(opening))
        end = len(rest) if end < 0 else end
        rendered.append(rest[:start])
        rendered.append(rest[start + len(opening) : end], style=style)
        rest = rest[end + len(closing) :]
    return rendered


class ProposalModal(ModalScreen[None]):
    """Every candidate for the chosen tools: before | after, then its figures and decision."""

    DEFAULT_CSS = """
    ProposalModal { align: center middle; }
    ProposalModal #proposal { width: 96%; height: 90%; border: round $primary; padding: 0 1; }
    ProposalModal .proposal-sides { height: auto; }
    ProposalModal .proposal-side { width: 1fr; height: auto; border: round $panel; }
    ProposalModal .proposal-figures { height: auto; margin-bottom: 1; }
    ProposalModal #proposal-status { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close"),
        Binding("a", "accept", "Accept: write the patch"),
    ]

    def __init__(self, tools: tuple[str, ...]) -> None:
        super().__init__()
        self.tools = tools
        self.report: ImproveReport | None = None
        self.events: list[ImproveEvent] = []
        self.failed: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="proposal") as box:
            box.border_title = "propose a fix · " + ", ".join(self.tools)
            box.border_subtitle = "a accept (write the patch) · esc close"
            yield Static(
                "Proposing rewrites; each is measured on held-out tasks the rewriter never saw…",
                id="proposal-status",
            )
            yield VerticalScroll(id="proposal-candidates")

    def add_event(self, event: ImproveEvent) -> None:
        """A candidate was proposed (show it beside the original) or measured (its figures)."""
        self.events.append(event)
        holder = self.query_one("#proposal-candidates", VerticalScroll)
        if isinstance(event, CandidateProposed):
            left, right = marked_words(event.description_before, event.description_after)
            before = Static(_marked(left, "[-", "-]", "strike red"), classes="proposal-side")
            after = Static(_marked(right, "{+", "+}", "bold green"), classes="proposal-side")
            before.border_title = f"{event.tool} · before"
            after.border_title = f"after · {event.rule or 'model rewrite'}"
            holder.mount(Horizontal(before, after, classes="proposal-sides"))
            holder.mount(Static(Text("measuring…", style="dim"), classes="proposal-figures"))
        elif isinstance(event, CandidateMeasured):  # a loop note is in the report's first lines
            figures = holder.query(".proposal-figures").last()
            if isinstance(figures, Static):
                figures.update(self._figures(event.candidate))

    @staticmethod
    def _figures(candidate: Candidate) -> Text:
        state = "passes the held-out gates" if candidate.accepted else "rejected"
        text = Text(f"{candidate.id}: {state}\n", style="bold" if candidate.accepted else "")
        if candidate.measurement is not None:
            text.append("\n".join(measurement_lines(candidate.measurement)) + "\n", style="dim")
        text.append(f"reason: {sanitize_text(candidate.reason)}")
        return text

    def finish(self, report: ImproveReport) -> None:
        """The measurement ended: say which rewrites the patch would hold."""
        self.report = report
        accepted = [candidate.id for candidate in report.candidates if candidate.accepted]
        if accepted:
            said = (
                f"Accepted on held-out tasks: {', '.join(accepted)}. "
                f"a writes the patch ({len(report.patch)} replace operation(s))."
            )
        else:
            said = "No rewrite passed the held-out gates: there is no patch to write."
        if report.notes:
            said += "\n" + "\n".join(report.notes)
        self.query_one("#proposal-status", Static).update(sanitize_text(said))

    def fail(self, message: str) -> None:
        """The measurement could not run (bad task set, provider errors): say why."""
        self.failed = message
        self.query_one("#proposal-status", Static).update(
            Text(f"Not measured: {sanitize_text(message)}", style="bold red")
        )

    def action_accept(self) -> None:
        report = self.report
        if report is None:
            self.notify("The measurement is still running.")
            return
        if not report.patch:
            self.notify("No rewrite passed the held-out gates: nothing to write.")
            return
        from whichtool_tui.ui.improve_jobs import ImproveJobs

        app = self.app
        if isinstance(app, ImproveJobs):
            app.write_improve_patch(report)

    def action_close(self) -> None:
        self.dismiss(None)
