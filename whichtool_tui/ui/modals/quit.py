"""The quit question: Cancel holds the focus, so ``^q`` then Enter never loses typed work."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

QuitChoice = Literal["quit", "save"]


class QuitModal(ModalScreen[QuitChoice | None]):
    """Cancel (focused), Save and quit (with unsaved task edits), Quit; ``y`` quits, ``n`` or
    escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "choose('quit')", "Quit"),
        Binding("n,escape", "choose(None)", "Cancel"),
    ]

    def __init__(self, question: str, can_save: bool) -> None:
        super().__init__()
        self._question = question
        self._can_save = can_save

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm") as box:
            box.border_title = "Quit whichtool-tui?"
            yield Static(self._question)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="quit-cancel", variant="primary")
                if self._can_save:
                    yield Button("Save and quit", id="quit-save", variant="success")
                yield Button("Quit", id="quit-anyway", variant="warning")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#quit-cancel", Button))

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        choices: dict[str | None, QuitChoice | None] = {"quit-anyway": "quit", "quit-save": "save"}
        self.dismiss(choices.get(event.button.id))

    def action_choose(self, choice: QuitChoice | None) -> None:
        self.dismiss(choice)
