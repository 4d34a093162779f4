"""The UI's only door to the engine: load a target's listing and inspect it, off the UI loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

from whichtool_tui.config import Settings
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.targets import fetch_listing, resolve_target
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.ui.surface_model import SurfaceView, build_surface_view


async def load_listing(choice: TargetChoice) -> ServedListing:
    """Fetch ``tools/list`` once for the target the user chose (snapshot, stdio or http)."""
    spec = resolve_target(choice.value, choice.kind, Settings())
    return await fetch_listing(spec)


def inspect_listing(listing: ServedListing) -> SurfaceView:
    """Run the static review over a listing and map it to the Surface screen's view."""
    report = inspect_surface(listing).to_json_data()
    return build_surface_view(report, listing.raw_tools)


async def inspect_target(choice: TargetChoice) -> SurfaceView:
    """Load then inspect one target; the review runs in a thread (1,000 tools take a while)."""
    listing = await load_listing(choice)
    return await asyncio.to_thread(inspect_listing, listing)


def demo_folder() -> Path | None:
    """Where the bundled demo files are: package data first, then the source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "demo", package.parent / "snapshots"):
        if (candidate / "demo-lab.json").is_file():
            return candidate
    return None
