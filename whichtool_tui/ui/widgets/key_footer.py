"""KeyFooter: the footer of bindings, app keys first, so ``?`` and ``^q`` survive 80 columns;
keys that do not fit are dropped whole, from the end, and a ``… more ?`` key says so."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

COMPACT_BELOW = 100  # columns under which keys are packed tighter
PALETTE_CELLS = 12  # "^p palette" docked right: its text, padding and the border before it
MORE_DISPLAY, MORE_LABEL = "…", "more ?"  # in place of the keys that did not fit (? lists all)


def key_cells(display: str, description: str, compact: bool) -> int:
    """Cells a FooterKey takes: key and description with Textual's padding (compact: a
    one-cell gap and a one-cell margin; wide: a padded key and a trailing space)."""
    return len(display) + len(description) + (2 if compact else 3)


class KeyFooter(Footer):
    """Help and quit first, then the screen's keys that apply now, with ``^p`` docked right.

    Textual's footer lists the screen's keys before the app's, so a narrow terminal cuts
    exactly the two a newcomer needs; screens hide keys that do nothing now via check_action.
    """

    DEFAULT_CSS = """
    /* Compact keys keep a one-cell right margin; on the docked palette key that cell let the
       last cut-off key show through at the screen's edge. */
    KeyFooter.-compact FooterKey.-command-palette {
        margin-right: 0;
        padding-right: 1;
    }
    """

    _composed: tuple[object, ...] | None = None

    def _signature(self) -> tuple[object, ...]:
        """What the keys are composed from: the shown bindings and the palette key (a focus
        change that only moves hidden bindings, an Input's for one, rebuilds nothing)."""
        palette = self.app.COMMAND_PALETTE_BINDING
        return tuple(
            (key, binding.action, binding.description, active.enabled, active.tooltip, active.node)
            for key, active in self.screen.active_bindings.items()
            if (binding := active.binding).show or key == palette
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Rebuild the keys only when they changed: a section switch usually changes nothing
        (each screen has its own footer), and rebuilding restyles every key."""
        self._bindings_ready = True
        if not screen.app.app_focus or not (self.is_attached and screen is self.screen):
            return
        if (*self._signature(), self._fitted(self._shown())) != self._composed:
            self.call_after_refresh(self.recompose)

    def _width(self) -> int:
        """The columns the keys may use: the footer's, else the terminal's before layout."""
        return self.size.width or self.app.size.width

    def _fitted(self, shown: list[tuple[Binding, bool, str]]) -> tuple[int, bool]:
        """How many of ``shown`` fit whole, in order, and whether a ``…`` key is needed."""
        compact = self._width() < COMPACT_BELOW
        room = self._width() - PALETTE_CELLS
        sizes = [
            key_cells(self.app.get_key_display(b), b.description, compact) for b, _e, _t in shown
        ]
        if sum(sizes) <= room:
            return len(sizes), False
        room -= key_cells(MORE_DISPLAY, MORE_LABEL, compact)
        used = count = 0
        for size in sizes:
            if used + size > room:
                break
            used += size
            count += 1
        return count, True

    def _shown(self) -> list[tuple[Binding, bool, str]]:
        """The keys to show, app keys first, one per action, the palette key apart."""
        shown: dict[str, tuple[Binding, bool, str]] = {}
        ordered = sorted(self.screen.active_bindings.values(), key=lambda i: i.node is not self.app)
        for node, binding, enabled, tooltip in ordered:
            if binding.show and binding.action not in shown:
                if node is self.app and binding.key == self.app.COMMAND_PALETTE_BINDING:
                    continue
                shown[binding.action] = (binding, enabled, tooltip)
        return list(shown.values())

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown = self._shown()
        fitted = self._fitted(shown)
        self._composed = (*self._signature(), fitted)
        count, more = fitted
        self.styles.grid_size_columns = count + more
        for binding, enabled, tooltip in shown[:count]:
            yield self._sized(
                FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    disabled=not enabled,
                    tooltip=tooltip,
                )
            )
        if more:  # pressed or clicked it is ?, the help that lists every key
            left = ", ".join(b.description for b, _e, _t in shown[count:])
            yield self._sized(
                FooterKey("question_mark", MORE_DISPLAY, MORE_LABEL, "app.help", tooltip=left)
            )
        active = self.screen.active_bindings
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE and palette is not None:
            # Not bound to the footer's size: Textual's palette key is always compact.
            yield FooterKey(
                palette.binding.key,
                self.app.get_key_display(palette.binding),
                palette.binding.description,
                palette.binding.action,
                classes="-command-palette -compact",
                disabled=not palette.enabled,
                tooltip=palette.binding.tooltip or palette.binding.description,
            )

    def _sized(self, key: FooterKey) -> FooterKey:
        """A key born in the footer's current size: bound with data_bind, each key was created
        compact and restyled (a stylesheet pass per key) when it mounted into a wide footer."""
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact", update=False)
        return key

    def watch_compact(self, compact: bool) -> None:
        for key in self.query_children(FooterKey):
            if not key.has_class("-command-palette"):
                key.compact = compact

    def on_resize(self, event: events.Resize) -> None:
        compact = event.size.width < COMPACT_BELOW
        if compact != self.compact:
            self.compact = compact
        if self._composed is not None and self._fitted(self._shown()) != self._composed[-1]:
            self.call_after_refresh(self.recompose)  # more (or fewer) keys fit now
