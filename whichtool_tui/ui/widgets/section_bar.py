"""The header: app name, current target and the clickable section tabs (keys 1-5)."""

from __future__ import annotations

from textual import events
from textual.markup import escape
from textual.widgets import Static

SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("1", "surface", "Surface"),
    ("2", "tasks", "Tasks"),
    ("3", "run", "Run"),
    ("4", "results", "Results"),
    ("5", "bout", "Bout"),
)
SHORT_LABELS = {"surface": "Surf", "tasks": "Task", "run": "Run", "results": "Res", "bout": "Bout"}
MIN_TARGET = 12  # the target is cut to fit, never the tabs


def tab_labels(width: int, target: str) -> tuple[dict[str, str], str, bool]:
    """The tab labels, the target text and whether the ``? help`` hint fit in ``width``.

    Full labels and the hint while they fit; then the hint goes, then labels abbreviate;
    the target is clipped last, so all five tabs always show.
    """
    full = {section: label for _key, section, label in SECTIONS}
    for labels, hint in ((full, True), (full, False), (SHORT_LABELS, False)):
        tabs = sum(len(f" {key} {labels[section]} ") + 1 for key, section, _ in SECTIONS)
        fixed = len(" whichtool-tui ") + len(" │  │") + tabs + (len(" │ ? help") if hint else 0)
        room = width - fixed
        if room >= min(len(target), MIN_TARGET) or labels is SHORT_LABELS:
            room = max(room, 4)
            shown = target if len(target) <= room else target[: room - 1] + "…"
            return labels, shown, hint
    raise AssertionError("unreachable")  # pragma: no cover - the last option always returns


class SectionBar(Static):
    """One line: ``whichtool-tui │ <target> │ 1 Surface 2 Tasks …`` with the current tab lit."""

    DEFAULT_CSS = """
    SectionBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def on_mount(self) -> None:
        self.update_bar()

    def on_resize(self, event: events.Resize) -> None:
        self.update_bar()

    def update_bar(self) -> None:
        app = self.app
        mode = app.current_mode
        target = getattr(getattr(app, "session", None), "target_label", "") or "no target"
        width = self.size.width or app.size.width
        labels, target, hint = tab_labels(width, target)
        parts = [
            "[b][@click=app.switch_section('home')] whichtool-tui [/][/b]",
            f"[dim]│[/] {escape(target)} [dim]│[/]",
        ]
        for key, section, _label in SECTIONS:
            text = f" {key} {labels[section]} "
            if section == mode:
                parts.append(f"[reverse][@click=app.switch_section('{section}')]{text}[/][/]")
            else:
                parts.append(f"[@click=app.switch_section('{section}')]{text}[/]")
        if hint:
            parts.append("[dim]│ ? help[/]")
        self.update(" ".join(parts))
