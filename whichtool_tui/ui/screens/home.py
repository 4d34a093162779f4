"""Home: pick a target, reopen a recent file, or start the offline demo."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Button, Input, OptionList, RadioButton, RadioSet, Static
from textual.widgets.option_list import Option

from whichtool_tui import __version__
from whichtool_tui.ui.recent import load_recent, shown_paths
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session import TargetChoice

PLACEHOLDERS = {
    "snapshot": "snapshots/everything.json",
    "stdio": "npx -y @modelcontextprotocol/server-filesystem .",
    "http": "https://mcp.example/mcp",
}
KINDS = ("snapshot", "stdio", "http")
RECENT_KINDS = {
    "run-report": "run",
    "receipt": "bout",
    "inspect-report": "insp",
    "snapshot": "snap",
    "task-set": "tasks",
    "diff-report": "diff",
    "tape": "tape",
}
SECTIONS_TEXT = (
    "[b]1 Surface[/] tools: token cost, semantics, findings, overlapping pairs\n"
    "[b]2 Tasks[/]   the task set: edit, lint against the surface, mutations, save\n"
    "[b]3 Run[/]     the routing benchmark: plan first, then live progress\n"
    "[b]4 Results[/] confusion heatmap, trials behind a cell, per tool, diff\n"
    "[b]5 Bout[/]    the wire timeline of a bout; your call before the verdicts\n"
    "[dim]0 home · ? help · ^p every action by name · q back · ^q quit[/]"
)


class HomeScreen(SectionScreen):
    """Where the app starts: a target form, the recent list and the demo."""

    # The demo button holds the focus from the first frame (a key typed then reaches the
    # screen's bindings, never a field): set as the screen is composed, not a message later.
    AUTO_FOCUS = "#demo"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Quit"),
        Binding("o", "focus_target", "Target"),
        Binding("d", "demo", "Demo"),
        Binding("ctrl+r", "focus_recent", "Recent", show=False),
    ]

    def compose_body(self) -> ComposeResult:
        with Vertical(id="home"):
            yield Static(
                f"[b]whichtool-tui[/b] [dim]v{__version__} · evidence about an MCP server[/]",
                id="home-title",
            )
            with Horizontal(id="home-top"):
                with Vertical(id="target-panel") as panel:
                    panel.border_title = "Target"
                    with RadioSet(id="target-kind"):
                        yield RadioButton("snapshot", value=True, id="kind-snapshot")
                        yield RadioButton("stdio", id="kind-stdio")
                        yield RadioButton("http", id="kind-http")
                    yield Input(placeholder=PLACEHOLDERS["snapshot"], id="target-value")
                    yield Button("Open", id="open-target", variant="primary", compact=True)
                recent = OptionList(id="recent")
                recent.border_title = "Recent"
                yield recent
            with Vertical(id="demo-panel") as demo:
                demo.border_title = "Try it"
                yield Button("▶ Demo", id="demo", variant="success", compact=True)
                yield Static(
                    "Inspect the lab server's surface, run its task set with the keyword "
                    "baseline, and run a bout against the lab fixture. Offline, no key.",
                    id="demo-text",
                )
            yield Static(SECTIONS_TEXT, id="home-sections")

    _config_value: str | None = None  # the config's target as the form shows it, once offered

    def offer_config(self) -> None:
        """Bare ``whichtool-tui`` in a folder with a config: its target fills the form (Open
        inspects it as the config says, headers and env too) and its task set is named."""
        session = self.wapp.session
        settings = session.loaded_settings
        target = getattr(settings, "target", None)
        if self._config_value is not None or target is None or session.target is not None:
            return
        transport = str(getattr(target, "transport", "snapshot"))
        kind = {"stdio": "stdio", "snapshot": "snapshot"}.get(transport, "http")
        if kind == "stdio":
            words = [target.command, *(getattr(target, "args", None) or [])]
            value = " ".join(shlex.quote(word) for word in words)
        else:
            value = str(getattr(target, "path", None) or getattr(target, "url", ""))
        self.query_one(f"#kind-{kind}", RadioButton).value = True
        self.query_one("#target-value", Input).value = value
        self._config_value = value
        tasks = getattr(settings, "tasks", None)
        panel = self.query_one("#target-panel")
        panel.border_subtitle = "from the config" + (
            f" · tasks {Path(tasks).name}" if tasks else ""
        )

    def refresh_from_session(self) -> None:
        self.offer_config()
        recent = self.query_one("#recent", OptionList)
        recent.clear_options()
        entries = load_recent()
        if not entries:
            recent.add_option(Option("[dim]nothing opened yet[/]", disabled=True))
        names = shown_paths([entry.path for entry in entries])
        for index, (entry, name) in enumerate(zip(entries, names, strict=True)):
            kind = RECENT_KINDS.get(entry.kind, entry.kind[:5])
            recent.add_option(
                Option(
                    f"{kind:<5} {entry.opened_at[5:]}  {escape(name)}  "
                    f"[b]{escape(entry.summary)}[/]",
                    id=f"recent-{index}",
                )
            )
        self._recent_paths = [entry.path for entry in entries]
        if entries:
            recent.highlighted = 0

    def selected_kind(self) -> str:
        pressed = self.query_one("#target-kind", RadioSet).pressed_index
        return KINDS[pressed] if 0 <= pressed < len(KINDS) else "snapshot"

    @on(RadioSet.Changed, "#target-kind")
    def kind_changed(self) -> None:
        self.query_one("#target-value", Input).placeholder = PLACEHOLDERS[self.selected_kind()]

    @on(Button.Pressed, "#open-target")
    @on(Input.Submitted, "#target-value")
    def open_target(self) -> None:
        value = self.query_one("#target-value", Input).value.strip()
        if not value:
            self.notify("Type a snapshot path, a command or a URL first.", severity="warning")
            return
        if value == self._config_value:  # the config's own target, with its task set
            self.wapp.open_config_target(self.selected_kind())
            return
        self.wapp.inspect_target(TargetChoice(self.selected_kind(), value))

    @on(Button.Pressed, "#demo")
    def action_demo(self) -> None:
        self.wapp.open_demo()

    @on(OptionList.OptionSelected, "#recent")
    def open_recent(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("recent-"):
            self.wapp.open_path(self._recent_paths[int(option_id.removeprefix("recent-"))])

    def action_focus_target(self) -> None:
        self.set_focus(self.query_one("#target-value", Input))

    def action_focus_recent(self) -> None:
        self.set_focus(self.query_one("#recent", OptionList))
