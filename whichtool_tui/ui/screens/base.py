"""The frame every section shares: header with tabs, a body, the footer of bindings."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, ClassVar, cast

from textual import events, on
from textual._context import NoActiveAppError
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from whichtool_tui.gc_phases import settle_after_build
from whichtool_tui.ui.widgets.key_footer import KeyFooter
from whichtool_tui.ui.widgets.section_bar import SectionBar

if TYPE_CHECKING:
    from whichtool_tui.ui.app import WhichtoolApp

SETTLE_SECONDS = 0.5  # after a first visit's mount: its first frame is out by then


class SectionScreen(Screen[None]):
    """Base of the home and section screens; ``refresh_from_session`` redraws from app state."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("escape", "escape", "Close / back", show=False),
    ]

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name, id, classes)
        # A section opened in a running app is born under its current stylesheet: Textual
        # otherwise re-parses every rule and restyles every screen when a mode's screen is
        # first shown (its count starts at -1), though this screen's widgets are styled as they
        # mount and no rule changed. A later theme or stylesheet change moves the app's count
        # and still refreshes it; the first screen keeps the refresh that applies the theme.
        self._opened_later = False  # opened in a running app, after its first screen
        with contextlib.suppress(NoActiveAppError):
            if self.app.screen_stack:
                self._opened_later = True
                self._css_update_count = self.app._css_update_count

    def compose(self) -> ComposeResult:
        yield SectionBar()
        yield from self.compose_body()
        yield KeyFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    _section_ready = False
    _styled_for: tuple[object, ...] | None = None

    def _style_key(self) -> tuple[object, ...]:
        return (self.app.theme, frozenset(self.app.classes), frozenset(self.classes))

    @on(events.ScreenResume)
    def keep_styles_on_revisit(self, event: events.ScreenResume) -> None:
        """Skip Textual's full restyle of a revisited screen when nothing it depends on moved.

        Textual restyles every widget on each resume (half a section switch's CPU on the
        Bout screen). Styles only move with the theme, the app's classes or this screen's
        (breakpoints), and a stylesheet change is refreshed by the mode switch itself. This
        runs before Screen's own resume handler, which reads ``refresh_styles``.
        """
        key = self._style_key()
        if event.refresh_styles and key == self._styled_for:
            event.refresh_styles = False
        self._styled_for = key

    @on(events.ScreenSuspend)
    def note_styles_on_leaving(self) -> None:
        """What the styles were kept current for while shown (a first visit's breakpoint
        classes arrive after its resume, so the resume's key alone restyled the next visit)."""
        self._styled_for = self._style_key()

    def on_mount(self) -> None:
        self._section_ready = True
        self.on_screen_resume()
        if self._opened_later:  # the collection the build calls for, once it is on screen
            self.set_timer(SETTLE_SECONDS, settle_after_build)

    def on_screen_resume(self) -> None:
        if not self._section_ready:
            return
        for bar in self.query(SectionBar):
            bar.update_bar()
        self.refresh_from_session()
        # After Screen's own resume handler, whose auto-focus runs after this one.
        self.call_later(self.drop_hidden_focus)

    def drop_hidden_focus(self) -> None:
        """A widget inside a hidden pane gives the focus up (Textual's auto-focus picks one on
        an empty section, and every key typed next went to it)."""
        focused = self.focused
        if focused is not None and focused not in self.focus_chain:
            self.set_focus(None)

    @property
    def wapp(self) -> WhichtoolApp:
        """The running app, typed."""
        return whichtool_app(self)

    def refresh_from_session(self) -> None:
        """Redraw from ``app.session``; sections override."""

    def power_sized(self) -> None:
        """A run plan's power was simulated; the Run section redraws its plan, others ignore it."""

    def busy(self, group: str) -> bool:
        """Whether an app worker of ``group`` (inspect, bout, run…) is still going."""
        return any(worker.group == group and not worker.is_finished for worker in self.app.workers)

    def close_innermost(self) -> bool:
        """Close the innermost thing open on this screen (a search, a JSON view, a pane) and
        say whether there was one; sections override, the base has none."""
        return False

    def leave_field(self, field: Widget) -> None:
        """Escape in a text field: its focus goes (the next key is a key, not typed text);
        sections that hide the field with it (a search) override."""
        self.set_focus(None)

    async def action_escape(self) -> None:
        """Escape closes the innermost thing (a text field's focus, a search, the JSON view,
        a pane), then goes back; on home it stops there (quitting is ``q`` or ``^q``)."""
        focused = self.focused
        if isinstance(focused, Input):  # the app's only text fields (TextArea: not imported)
            self.leave_field(focused)
            return
        if self.close_innermost():
            return
        if self.app.current_mode != "home" or len(self.app.screen_stack) > 1:
            await self.action_back()

    async def action_back(self) -> None:
        """``q``: close the open view (raw JSON, a search), else back to home from a section;
        on home, quit (asking if work is at risk)."""
        if self.close_innermost():
            return
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        elif self.app.current_mode == "home":
            await self.wapp.action_quit()
        else:
            self.app.switch_mode("home")


def whichtool_app(screen: Screen[object] | SectionScreen) -> WhichtoolApp:
    """The running app, typed (screens only ever run inside WhichtoolApp)."""
    return cast("WhichtoolApp", screen.app)
