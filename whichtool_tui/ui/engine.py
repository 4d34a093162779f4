"""The UI's only door to the engine: load a target's listing, list its tools as served, cost
them, review them, the slow steps off the UI loop (each step shows as soon as it is done)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from whichtool_tui.config import Settings, load_settings
from whichtool_tui.ui.session import ReviewOptions, TargetChoice
from whichtool_tui.ui.surface_model import SurfaceView, served_surface_view
from whichtool_tui.usecases import inspect as inspect_case
from whichtool_tui.usecases.options import InspectOverrides

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import (
        CostedSurface,
        InspectOptions,
        InspectReport,
        ServedListing,
    )


def review_settings(options: ReviewOptions) -> Settings:
    """The config read again from ``--config`` or the working directory (a re-inspect)."""
    return load_settings(options.config)


def start_target(target: str | None, transport: str | None, settings: Settings) -> tuple[str, str]:
    """A command's target as the app's StartPoint names it, checked now so bad input exits 2.

    A snapshot is read once here too (cheap), so a broken file is a one-line error before the
    app opens, as headless; live servers are contacted only by the app. The value stays as
    typed; an empty value means the config's target.
    """
    return inspect_case.check_target(target, transport, settings), target or ""


async def load_listing(choice: TargetChoice, settings: Settings | None = None) -> ServedListing:
    """Fetch ``tools/list`` once for the target the user chose (snapshot, stdio or http).

    An empty value means the config's target (as on the command line without a TARGET).
    """
    spec = inspect_case.target_spec(
        choice.value or None, choice.kind or None, settings or Settings()
    )
    return await inspect_case.fetch_listing(spec)


def opened_listing(path: str, document: Any) -> ServedListing:
    """The listing of a snapshot ``open`` has read and parsed (a 10,000-tool file is not
    read twice before its first frame)."""
    return inspect_case.opened_snapshot_listing(path, document)


def served_view(listing: ServedListing, settings: Settings) -> SurfaceView:
    """The Surface's first view of a listing: its tools as served (costs and findings follow)."""
    view = served_surface_view(listing, inspect_case.served_tools(listing))
    view.rules = dict(settings.inspect.rules)  # the rules the merge reviews under
    view.rules_known = True
    return view


def review_options(options: ReviewOptions, settings: Settings) -> InspectOptions:
    """The Surface screen's review options: the ``inspect`` command's flags (``flag``: the
    TUI has no review fields of its own) over the config, through the CLI's request."""
    flags = InspectOverrides(options.max_tools, options.max_context_tokens, options.provider)
    request = inspect_case.InspectRequest(review=flags, face="flag")
    return inspect_case.review_options(request, settings)


def cost(listing: ServedListing) -> CostedSurface:
    """Normalise a listing and count its tokens (blocking: the worker runs it in a thread)."""
    return inspect_case.cost_listing(listing)


def review(
    costed: CostedSurface, settings: Settings, options: ReviewOptions | None = None
) -> InspectReport:
    """Run the static review over a costed listing, with the CLI's flag-over-config precedence
    (blocking: the worker runs it in a thread)."""
    return inspect_case.review_costed(costed, review_options(options or ReviewOptions(), settings))


def demo_folder() -> Path | None:
    """Where the bundled demo files are: package data first, then the source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "demo", package.parent / "snapshots"):
        if (candidate / "demo-lab.json").is_file():
            return candidate
    return None
