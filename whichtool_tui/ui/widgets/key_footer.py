"""KeyFooter: the footer of bindings, app keys first, so ``?`` and ``^q`` survive 80 columns."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

COMPACT_BELOW = 100  # columns under which keys are packed tighter


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
        if self._signature() != self._composed:
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._composed = self._signature()
        active = self.screen.active_bindings
        shown: dict[str, tuple[Binding, bool, str]] = {}
        ordered = sorted(active.values(), key=lambda item: item.node is not self.app)
        for node, binding, enabled, tooltip in ordered:
            if binding.show and binding.action not in shown:
                if node is self.app and binding.key == self.app.COMMAND_PALETTE_BINDING:
                    continue
                shown[binding.action] = (binding, enabled, tooltip)
        self.styles.grid_size_columns = len(shown)
        for binding, enabled, tooltip in shown.values():
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
