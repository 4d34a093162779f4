"""The header: app name, current target and the clickable section tabs (keys 1-5)."""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static

SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("1", "surface", "Surface"),
    ("2", "tasks", "Tasks"),
    ("3", "run", "Run"),
    ("4", "results", "Results"),
    ("5", "bout", "Bout"),
)


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

    def update_bar(self) -> None:
        app = self.app
        mode = app.current_mode
        target = getattr(getattr(app, "session", None), "target_label", "") or "no target"
        if len(target) > 40:
            target = target[:39] + "…"
        parts = [
            "[b][@click=app.switch_section('home')] whichtool-tui [/][/b]",
            f"[dim]│[/] {escape(target)} [dim]│[/]",
        ]
        for key, section, label in SECTIONS:
            text = f" {key} {label} "
            if section == mode:
                parts.append(f"[reverse][@click=app.switch_section('{section}')]{text}[/][/]")
            else:
                parts.append(f"[@click=app.switch_section('{section}')]{text}[/]")
        parts.append("[dim]│ ? help[/]")
        self.update(" ".join(parts))
