"""A yes/no question; dismisses True only on an explicit yes."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmModal(ModalScreen[bool]):
    """``y`` or the yes button confirms; ``n``/escape declines."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self._heading = title
        self._question = question
        self._yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm") as box:
            box.border_title = self._heading
            yield Static(self._question)
            with Horizontal(classes="buttons"):
                yield Button(self._yes, id="confirm-yes", variant="warning")
                yield Button("Cancel", id="confirm-no")

    @on(Button.Pressed, "#confirm-yes")
    def yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def no(self) -> None:
        self.dismiss(False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
