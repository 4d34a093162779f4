"""Ask for a file path; dismisses with the path, or None on escape.

A prompt for a file to *save* (``save=True``) checks the path before it closes: a missing
folder is refused with one line naming it (nothing is created), a folder or device that cannot
hold the file is refused the same way, and an existing file is replaced only after a yes in
a confirmation (the file being saved back, ``replaces``, is not asked about).

The output rule (``files.check_output_path``) runs first, with ``inputs``, the files the
screen has open (``Session.files_in_use``): the path must not be one of them (the same file,
through a symlink or a hard link too), a directory, or under /proc, /sys or /dev. A refusal is
one line under the field, and nothing is written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.widgets.path_suggester import PathSuggester


class PathPrompt(ModalScreen[str | None]):
    """A one-field dialog: enter confirms, escape cancels."""

    DEFAULT_CSS = """
    PathPrompt #path-error {
        color: $error;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        default: str,
        *,
        save: bool = False,
        replaces: str | None = None,
        inputs: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._title = title
        self._default = default
        self._save = save
        self._replaces = replaces
        self._inputs = tuple(inputs)  # files the output must not be (the output rule)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Input(value=self._default, id="path", suggester=PathSuggester())
            yield Static("", id="path-error", markup=False)
            yield Label("[dim]enter to confirm · → completes the path · esc to cancel[/]")

    @on(Input.Submitted, "#path")
    def submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path or not self._save:
            self.dismiss(path or None)
            return
        from whichtool_tui.files import check_output_path

        # The file being saved back is not an input here: replacing it is what save means.
        inputs = [given for given in self._inputs if not self._is_replaced_file(given)]
        try:
            plan = check_output_path(path, create_folders=False, inputs=inputs)
        except WhichtoolError as error:
            self._refuse(error.message)
            return
        self._refuse("")
        if plan.mode != "replace" or not plan.path.exists() or self._is_replaced_file(path):
            self.dismiss(path)
            return

        def answered(replace: bool | None) -> None:
            if replace:
                self.dismiss(path)
            else:
                self.set_focus(self.query_one("#path", Input))  # keep the prompt: another name

        shown = redact_paths(path)
        self.app.push_screen(
            ConfirmModal("Overwrite?", f"{shown} already exists. Replace it?", yes="Overwrite"),
            answered,
        )

    def _is_replaced_file(self, path: str) -> bool:
        """The file this content was opened from: saving back over it is what save means."""
        if self._replaces is None:
            return False
        try:
            return os.path.samefile(path, self._replaces)
        except OSError:
            return False

    def _refuse(self, message: str) -> None:
        self.query_one("#path-error", Static).update(message)

    def action_cancel(self) -> None:
        self.dismiss(None)
