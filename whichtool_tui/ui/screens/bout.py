"""Section 5: a bout: atoms, the virtual wire timeline with filters, the message behind a row,
and the verdicts only after the operator's guess (followed / held / unclear)."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.bout_model import BoutView
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.widgets.bout_panels import atoms_text, message_view, verdict_text
from whichtool_tui.ui.widgets.timeline import RpcTimeline, columns_header
from whichtool_tui.ui.wire_search import WireSearch

ALL = "all"
LIVE_REDRAW_SECONDS = 0.25
MESSAGE_DELAY = 0.12  # seconds the cursor must rest before the message pane is redrawn
GUESSES = {"f": "followed", "h": "held", "u": "unclear"}
KINDS = [
    ("every row", ALL),
    ("tools/call", "calls"),
    ("errors", "errors"),
    ("unanswered", "unanswered"),
    ("unauthorized", "unauthorized"),
]


class BoutScreen(SectionScreen):
    """Guess first, verdicts after: the timeline never carries a result."""

    BINDINGS: ClassVar[list[BindingType]] = [  # ranked by use: the footer keeps the first
        Binding("q", "back", "Back"),
        Binding("a", "toggle_atoms", "Atoms"),  # under 100 columns only, where they fold away
        Binding("f", "guess('followed')", "Followed"),
        Binding("h", "guess('held')", "Held"),
        Binding("u", "guess('unclear')", "Unclear"),
        Binding("slash", "search", "Search"),
        Binding("n", "next_mark(1)", "Next call/error"),
        Binding("s", "save_receipt", "Save receipt"),
        Binding("b", "run_fixture", "Fixture bout"),
        Binding("y", "copy_message", "Copy message"),
        Binding("w", "focus_timeline", "Wire"),
        Binding("x", "clear_filters", "Clear filters"),
        Binding("N", "next_mark(-1)", "Previous call/error"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", id="bout-empty", classes="empty")
        with Vertical(id="bout-body"):
            yield Static("", id="bout-head")
            with Horizontal(id="bout-main"):
                with VerticalScroll(id="atoms-pane") as atoms:
                    atoms.border_title = "Atoms"
                    yield Static("", id="atoms")
                with Vertical(id="wire-pane") as wire:
                    wire.border_title = "Wire"
                    with Horizontal(id="wire-filters"):
                        yield Select(
                            [(ALL, ALL)], value=ALL, allow_blank=False, id="f-atom", compact=True
                        )
                        yield Select(
                            [("in+out", ALL), ("out", "out"), ("in", "in")],
                            value=ALL,
                            allow_blank=False,
                            id="f-direction",
                            compact=True,
                        )
                        yield Select(KINDS, value=ALL, allow_blank=False, id="f-kind", compact=True)
                        yield Input(placeholder="method", id="f-method", compact=True)
                        yield Input(placeholder="/ search", id="f-search", compact=True)
                    yield Static(Text(columns_header(), style="bold"), id="wire-columns")
                    yield Vertical(id="timeline-holder")
            with Horizontal(id="bout-bottom"):
                with VerticalScroll(id="verdict-pane") as verdict:
                    verdict.border_title = "Your call"
                    yield Static("", id="verdict")
                with VerticalScroll(id="message-pane") as message:
                    message.border_title = "Message"
                    yield Static("", id="message")

    def __init__(self) -> None:
        super().__init__()
        self._shown: BoutView | None = None
        self._message_timer: Timer | None = None
        self._search = WireSearch()
        self._message_shown: tuple[int, int | None] | None = None
        self._drawn_verdict: tuple[object, ...] | None = None
        self._current_timeline: RpcTimeline | None = None

    def on_mount(self) -> None:
        # Redraws while a bout runs (new wire rows, the atom under way); paused otherwise.
        self._live_ticker = self.set_interval(LIVE_REDRAW_SECONDS, self._live_tick, pause=True)

    def _live_tick(self) -> None:
        bout = self.bout
        if bout is None or bout.live_atoms is None:
            self._live_ticker.pause()
            return
        timeline = self._timeline()
        if timeline is not None and len(timeline.rows) != timeline.scanned:
            was_at_end = timeline.cursor >= len(timeline.shown_rows) - 1
            timeline.grow()
            if was_at_end:
                timeline.action_jump(-1)  # follow the wire like a tail, unless the user moved
            self._set_wire_title(timeline)
        self._draw_atoms_and_verdict(bout)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Guess keys until the guess; saving only with a receipt; wire keys with a wire; the
        atoms key where the atoms pane folds away."""
        bout = self.bout
        if action == "toggle_atoms":
            return bout is not None and self.has_class("-narrow")
        if action == "guess":
            return bout is not None and bout.guess is None and bout.live_atoms is None
        if action == "save_receipt":
            return bout is not None and bout.receipt is not None
        if action in ("search", "next_mark", "copy_message", "clear_filters", "focus_timeline"):
            return bout is not None
        return True

    @property
    def bout(self) -> BoutView | None:
        return self.wapp.session.bout

    def refresh_from_session(self) -> None:
        bout = self.bout
        self.query_one("#bout-empty").display = bout is None
        self.query_one("#bout-body").display = bout is not None
        if bout is None and self.busy("bout"):
            self.query_one("#bout-empty", Static).update(
                "A bout is running… its wire and atoms appear here when it ends; the verdicts "
                "stay hidden until you record your guess."
            )
            return
        if bout is None:
            self.query_one("#bout-empty", Static).update(
                "No receipt loaded. Press [b]b[/b] to run a bout against the bundled lab fixture "
                "(offline), or open one with [b]whichtool-tui open receipt.json[/b]."
            )
            return
        if bout is not self._shown:
            self._show(bout)
        if bout.live_atoms is not None:
            self._live_ticker.resume()
        self._draw_atoms_and_verdict(bout)

    def _show(self, bout: BoutView) -> None:
        self._shown = bout
        header = bout.header
        head = Text()
        head.append(f"Bout {header.bout_id}", style="bold")
        head.append(f"  target {header.target_kind}  seat {header.agent_policy}")
        head.append(f"  framing {header.framing or '?'}  protocol {header.protocol_version or '?'}")
        if header.server_name:
            head.append(f"  server {sanitize_text(header.server_name)}")
        if not header.attribution_ok:
            head.append(
                "\nwire could not be attributed to atoms: every row shows ?", style="yellow"
            )
        self.query_one("#bout-head", Static).update(head)
        atoms = [(ALL, ALL), *((a.id, a.id) for a in header.atoms)]
        self.query_one("#f-atom", Select).set_options(atoms)
        holder = self.query_one("#timeline-holder", Vertical)
        stale = list(holder.children)
        timeline = RpcTimeline(bout.rows)
        mounted = holder.mount(timeline)

        async def retire_the_old_one() -> None:
            # A live bout's timeline gives way to the finished receipt's. The new one takes
            # the focus *before* the old one goes: removing a focused widget hands the focus
            # to the widget before it (the search field), and a section key pressed next
            # would be typed into it. The focus is decided and moved here, at once (not with
            # ``focus()``, which lands a message later): a decision taken when ``_show`` ran,
            # or a move still in flight, can be overtaken by the next receipt's ``_show``.
            # An operator typing a filter keeps it; an empty field does not.
            await mounted
            self.show_message(timeline.selected)
            focused = self.focused
            idle_field = isinstance(focused, Input) and not focused.value
            if not stale or focused is None or idle_field or focused in stale:
                self.set_focus(timeline)
            for child in stale:
                await child.remove()

        self.call_later(retire_the_old_one)
        self._current_timeline = timeline
        self._set_wire_title(timeline)
        if bout.pending_rows is not None or bout.pending:
            # Read the rest (and validate) only once this first frame is on screen.
            self.call_after_refresh(self.wapp.finish_bout, bout)

    def _set_wire_title(self, timeline: RpcTimeline) -> None:
        pane = self.query_one("#wire-pane")
        bout = self.bout
        total = bout.total if bout is not None else len(timeline.rows)
        shown = len(timeline.shown_rows)
        loading = bout is not None and bout.pending_rows is not None
        title = f"Wire ({total:,} events"
        if bout is not None and bout.live_atoms is not None:
            title += ", live"
        if loading:
            title += f", {len(timeline.rows):,} read so far"
        if shown != len(timeline.rows):
            title += f", {shown:,} shown"
        if pane.border_title != title + ")":  # each keystroke of a search lands here
            pane.border_title = title + ")"

    def rows_grew(self) -> None:
        """More rows of a big receipt were read: extend the timeline, keep the filters."""
        timeline = self._timeline()
        if timeline is not None:
            timeline.grow()
            self._set_wire_title(timeline)

    def _draw_atoms_and_verdict(self, bout: BoutView) -> None:
        live = tuple(bout.live_atoms.items()) if bout.live_atoms is not None else None
        key = (id(bout), bout.guess, id(bout.receipt), bout.pending, bout.invalid, live)
        if key == self._drawn_verdict:
            return  # a revisit with nothing new: keep what is drawn
        self._drawn_verdict = key
        self.refresh_bindings()
        self.query_one("#atoms", Static).update(atoms_text(bout))
        self.query_one("#verdict", Static).update(verdict_text(bout))

    def action_guess(self, guess: str) -> None:
        bout = self.bout
        if bout is None or bout.guess is not None or bout.live_atoms is not None:
            return
        bout.guess = guess
        self._draw_atoms_and_verdict(bout)

    # -- filters ------------------------------------------------------------------------------

    def _timeline(self) -> RpcTimeline | None:
        return self._current_timeline

    @on(Select.Changed, "#f-atom, #f-direction, #f-kind")
    @on(Input.Changed, "#f-method, #f-search")
    def filters_changed(self) -> None:
        timeline = self._timeline()
        bout = self.bout
        if timeline is None or bout is None:
            return
        atom = self.query_one("#f-atom", Select).value
        direction = self.query_one("#f-direction", Select).value
        kind = self.query_one("#f-kind", Select).value
        method = self.query_one("#f-method", Input).value.strip().lower()
        search = self.query_one("#f-search", Input).value.strip().lower()
        if kind == "unauthorized" and bout.guess is None:
            self.notify("Record your call first (f, h or u): this filter gives the answer away.")
            self.query_one("#f-kind", Select).value = ALL
            return
        if atom == ALL and direction == ALL and kind == ALL and not method and not search:
            timeline.set_filter(None)
            self._set_wire_title(timeline)
            return
        rows = bout.rows
        kind_test = {
            "calls": lambda i: rows[i].method == "tools/call",
            "errors": bout.is_error,
            "unanswered": lambda i: "[no response]" in rows[i].note,
            "unauthorized": bout.is_unauthorized,
        }.get(str(kind))
        plain = atom == ALL and direction == ALL and kind == ALL and not method

        def others_keep(i: int) -> bool:
            row = rows[i]
            return (
                (atom == ALL or row.atom == atom)
                and (direction == ALL or row.direction == direction)
                and (not method or row.method.lower().startswith(method))
                and (kind_test is None or kind_test(i))
            )

        def candidates() -> list[int]:
            everything = range(len(rows))
            return list(everything) if plain else [i for i in everything if others_keep(i)]

        def keep(i: int) -> bool:  # rows that arrive later (a receipt still loading)
            return others_keep(i) and (not search or search in bout.search_texts()[i])

        scope = (id(bout), atom, direction, kind, method, len(rows))
        shown = self._search.find(search, scope, bout.search_texts, candidates)
        timeline.set_filter(keep, list(shown))  # a copy: the timeline extends it as rows arrive
        self._set_wire_title(timeline)

    def action_next_mark(self, direction: int) -> None:
        """n / N: the next or previous tools/call or error among the rows shown."""
        timeline = self._timeline()
        bout = self.bout
        if timeline is None or bout is None:
            return
        rows = bout.rows
        if not timeline.jump_to(
            lambda i: rows[i].method == "tools/call" or bout.is_error(i), direction
        ):
            self.notify("No further tools/call or error this way.", timeout=2)
        self.set_focus(timeline)

    def action_copy_message(self) -> None:
        """y: the message under the cursor to the clipboard (OSC 52) as indented JSON."""
        timeline = self._timeline()
        bout = self.bout
        index = timeline.selected if timeline is not None else None
        if bout is None or index is None:
            return
        message = bout.message(index)
        row = bout.rows[index]
        text = (
            json.dumps(message, indent=2, ensure_ascii=False)
            if message is not None
            else f"#{index + 1} {row.direction} {row.method} {row.note}"
        )
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied message #{index + 1} ({len(text):,} characters)", timeout=3)

    def action_search(self) -> None:
        self.set_focus(self.query_one("#f-search", Input))

    def action_clear_filters(self) -> None:
        self.query_one("#f-atom", Select).value = ALL
        self.query_one("#f-direction", Select).value = ALL
        self.query_one("#f-kind", Select).value = ALL
        self.query_one("#f-method", Input).value = ""
        self.query_one("#f-search", Input).value = ""

    def action_focus_timeline(self) -> None:
        timeline = self._timeline()
        if timeline is not None:
            self.set_focus(timeline)

    @on(Input.Submitted, "#f-method, #f-search")
    def filter_submitted(self) -> None:
        self.action_focus_timeline()

    def action_toggle_atoms(self) -> None:
        """``a`` under 100 columns: the atoms pane (per-atom state and verdicts) over the wire."""
        opened = not self.has_class("-atoms-open")
        self.set_class(opened, "-atoms-open")
        if opened:
            self.set_focus(self.query_one("#atoms-pane"))
        else:
            self.action_focus_timeline()

    def close_innermost(self) -> bool:
        """Escape or ``q``: the unfolded atoms pane first."""
        if self.has_class("-narrow") and self.has_class("-atoms-open"):
            self.action_toggle_atoms()
            return True
        return False

    def on_resize(self) -> None:
        self.refresh_bindings()  # the atoms key follows the width

    def leave_field(self, field: Widget) -> None:
        """Escape in a filter keeps what was typed and hands the keys back to the wire."""
        if self._timeline() is not None:
            self.action_focus_timeline()
        else:
            super().leave_field(field)

    @on(RpcTimeline.ColumnsChanged)
    def columns_changed(self, event: RpcTimeline.ColumnsChanged) -> None:
        self.query_one("#wire-columns", Static).update(Text(event.header, style="bold"))

    @on(RpcTimeline.RowHighlighted)
    def row_highlighted(self, event: RpcTimeline.RowHighlighted) -> None:
        # Paging fires many highlights; draw the (expensive) message pane once the cursor rests.
        if self._message_timer is not None:
            self._message_timer.stop()
        index = event.index
        self._message_timer = self.set_timer(MESSAGE_DELAY, lambda: self.show_message(index))

    def show_message(self, index: int | None) -> None:
        """Show the full JSON-RPC message behind a timeline row."""
        self._message_timer = None
        bout = self.bout
        if (id(bout), index) == self._message_shown:
            return  # a search that kept the same first row: the pane already shows it
        self._message_shown = (id(bout), index)
        pane = self.query_one("#message", Static)
        if bout is None or index is None:
            pane.update("")
            return
        row = bout.rows[index]  # numbered in the whole wire; seq counts within the atom's session
        title = f"Message #{index + 1} ({row.atom} seq {row.seq})"
        self.query_one("#message-pane").border_title = title
        pane.update(message_view(bout, index))

    # -- actions ------------------------------------------------------------------------------

    def action_run_fixture(self) -> None:
        self.wapp.run_fixture_bout()

    def action_save_receipt(self) -> None:
        bout = self.bout
        if bout is None or bout.receipt is None:
            self.notify("No receipt to save.", severity="warning")
            return
        self.wapp.save_receipt(bout)
