"""Ask how to draft a task set with a model: provider, model, endpoint and where to write it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from whichtool_tui.usecases.api import OFFLINE_PROVIDERS, PROVIDER_NAMES

# Providers that can write free text (the offline baselines and the mock cannot draft).
DRAFTING_PROVIDERS = [name for name in PROVIDER_NAMES if name not in OFFLINE_PROVIDERS]


@dataclass(frozen=True)
class GenerateRequest:
    """What the dialog collected."""

    provider: str
    model: str | None
    base_url: str | None
    path: str


class GenerateDialog(ModalScreen[GenerateRequest | None]):
    """Dismisses with a request, or None on cancel; the output file must not exist yet."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="generate") as box:
            box.border_title = "Draft a task set with a model"
            yield Label("provider (keys come from the environment)")
            yield Select(
                [(name, name) for name in DRAFTING_PROVIDERS],
                value=DRAFTING_PROVIDERS[0],
                allow_blank=False,
                id="gen-provider",
            )
            yield Label("model")
            yield Input(id="gen-model")
            yield Label("base URL (compatible providers)")
            yield Input(placeholder="provider default", id="gen-base-url")
            yield Label("write to (refuses to overwrite)")
            yield Input(value="whichtool.tasks.yaml", id="gen-path")
            with Horizontal(classes="buttons"):
                yield Button("Draft", id="gen-go", variant="primary")
                yield Button("Cancel", id="gen-cancel")

    @on(Button.Pressed, "#gen-go")
    @on(Input.Submitted)
    def go(self) -> None:
        path = self.query_one("#gen-path", Input).value.strip()
        if not path:
            return
        self.dismiss(
            GenerateRequest(
                provider=str(self.query_one("#gen-provider", Select).value),
                model=self.query_one("#gen-model", Input).value.strip() or None,
                base_url=self.query_one("#gen-base-url", Input).value.strip() or None,
                path=path,
            )
        )

    @on(Button.Pressed, "#gen-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
