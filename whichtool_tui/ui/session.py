"""What the app currently has open: one target's surface, a task set, a run, a bout."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:  # the report and task models load with the first run or task set, not at launch
    from whichtool_tui.config import Settings
    from whichtool_tui.provenance import Source
    from whichtool_tui.ui.bout_model import BoutView
    from whichtool_tui.ui.run_control import RunProgress
    from whichtool_tui.ui.surface_model import SurfaceView
    from whichtool_tui.usecases.api import (
        DiffReport,
        PowerInputs,
        PowerPlan,
        ProviderChoice,
        RunOptions,
        RunReport,
        Task,
        TaskSet,
    )


@dataclass(frozen=True)
class TargetChoice:
    """A target as the user chose it on the home screen (kind plus the typed value)."""

    kind: str  # snapshot | stdio | http
    value: str

    @property
    def label(self) -> str:
        """Short form for the header."""
        return f"{self.kind} {self.value}"


@dataclass
class TaskSetState:
    """The task set being edited: where it is saved and whether it changed since."""

    path: str
    version: int
    surface: str | None
    tasks: list[Task]
    dirty: bool = False

    def as_task_set(self) -> TaskSet:
        """The model to lint or write."""
        from whichtool_tui.usecases.api import TaskSet

        return TaskSet(version=self.version, surface=self.surface, tasks=list(self.tasks))


@dataclass(frozen=True)
class ReviewOptions:
    """What shapes a review besides the target and the settings: inspect's own flags.

    ``config`` is the file the settings came from; re-inspecting the same target (``r`` on the
    Surface screen) reads it again, so an edited ``inspect.rules`` shows at once.
    """

    config: str | None = None
    max_tools: int | None = None
    max_context_tokens: int | None = None
    provider: str | None = None


@dataclass(frozen=True)
class RunForm:
    """The ``run`` command's choices, pre-filled on the Run screen (nothing runs until ``r``).

    ``options`` are the run's flags merged over config (seed, budgets, tags, thresholds);
    the screen's repeat and seconds-per-trial fields override their two values.
    """

    provider: str = "keyword"
    model: str | None = None
    base_url: str | None = None
    # Who chose ``base_url``: "flag" (``run --base-url``), "config" (pre-filled from a config
    # file, and still so until the user edits the field) or "preset" (no URL).
    base_url_source: Source = "preset"
    options: RunOptions | None = None
    cache: bool | None = None  # --cache / --no-cache; None means on, like the headless run
    cache_dir: str | None = None  # --cache-dir; None means the default folder


@dataclass
class Session:
    """Shared by every screen; screens re-read it when they are shown or told it changed.

    ``settings`` is the config, loaded once when the app starts (as the command line does) and
    merged under every form: the Run screen's options come from it unless a flag said otherwise.
    With no config file they are the built-in defaults, built when first read (the config's
    models are not loaded before the first frame). ``run_form`` is the Run screen's form: the
    ``run`` command's, else the config's provider, likewise decided when first read.
    """

    loaded_settings: Settings | None = None  # None: no config file, the defaults when first read
    target: TargetChoice | None = None
    target_label: str = ""
    attempted: TargetChoice | None = None  # the last target tried, kept when it failed (r retries)
    surface: SurfaceView | None = None
    tasks: TaskSetState | None = None
    run: RunReport | None = None
    progress: RunProgress | None = None
    diff: DiffReport | None = None  # a whichtool.diff/2 report, opened or computed
    bout: BoutView | None = None
    chosen_run_form: RunForm | None = None  # None: the default form when first read
    last_error: WhichtoolError | None = None  # the last job failure (its code is stable)
    # Power plans simulated so far, per their inputs (an error when one could not be made):
    # going back to a repeat count or a form seen before shows its plan at once.
    power_plans: dict[PowerInputs, PowerPlan | WhichtoolError] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)
    # The file each open artefact was read from, by kind (run-report, receipt, ...): dropped
    # when its section gets new content (a new run, a live bout, an inspected target).
    read_from: dict[str, str] = field(default_factory=dict)
    config_file: str | None = None  # the config named with --config (one found here is added)

    def files_in_use(self) -> list[str]:
        """Every file the session has open: the inputs no save prompt may write over (the
        output rule, ``files.py``), as the CLI checks every file named on its command line.

        The snapshot being shown, the task set, the files the open run, diff, receipt, tape
        or inspect report were read from, and the config. The prompt of content saved back to
        the file it came from (the task set) leaves that one file out (``PathPrompt``).
        """
        from whichtool_tui.config_files import CONFIG_FILE_NAMES

        files = [name for name in CONFIG_FILE_NAMES if os.path.isfile(name)]
        files += [self.config_file] if self.config_file else []
        target = self.target
        files += [target.value] if target is not None and target.kind == "snapshot" else []
        files += [self.tasks.path] if self.tasks is not None else []
        files += [self.bout.file] if self.bout is not None and self.bout.file else []
        return files + list(self.read_from.values())

    @property
    def settings(self) -> Settings:
        """The config the app runs under (the built-in defaults when there is no file)."""
        if self.loaded_settings is None:
            from whichtool_tui.config import Settings

            self.loaded_settings = Settings()
        return self.loaded_settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.loaded_settings = settings

    @property
    def run_form(self) -> RunForm:
        """The Run screen's form (the ``run`` command's, else ``default_run_form``)."""
        if self.chosen_run_form is None:
            self.chosen_run_form = default_run_form(self)
        return self.chosen_run_form

    @run_form.setter
    def run_form(self, form: RunForm) -> None:
        self.chosen_run_form = form


def default_run_form(session: Session) -> RunForm:
    """The Run screen's form when no ``run`` command filled it: the config's provider; its run
    options are merged from the config when first read (``run_form_options``), which keeps the
    engine's modules out of the app's start-up."""
    from whichtool_tui.usecases.options import ProviderOverrides, merge_provider

    chosen = merge_provider(ProviderOverrides(), session.settings, "form")
    return RunForm(
        provider=chosen.name or "keyword",
        model=chosen.model,
        base_url=chosen.base_url,
        base_url_source=chosen.base_url_source,
    )


def form_provider_choice(
    session: Session,
    provider: str,
    model: str | None,
    base_url: str | None,
    url_edited: bool = False,
) -> ProviderChoice:
    """The Run form's provider fields merged over the config, as a request the key rule reads.

    A base URL field the user never edited keeps the source it was pre-filled from (a config's
    URL stays ``config``); one the user edited (even back to the same text) is ``form``; one
    the user emptied means the provider's own URL.
    """
    from whichtool_tui.usecases.options import ProviderChoice, ProviderOverrides, merge_provider

    form = session.run_form
    edited = url_edited or base_url != form.base_url
    if not edited and form.base_url_source == "flag":
        overrides = ProviderOverrides(provider, model, base_url)
        return merge_provider(overrides, session.settings, "flag")
    if edited and base_url is None:
        return ProviderChoice(provider, model, None, "preset")
    typed = base_url if edited else None
    return merge_provider(ProviderOverrides(provider, model, typed), session.settings, "form")
