"""Capture the tool surfaces of the four public reference servers into snapshots/.

Run from the repository root: ``python -m tests.support.capture_snapshots [name ...]``. Each
server is started over stdio exactly as the tests start it, its ``tools/list`` is fetched by our
own client (every page), and written with ``save_snapshot``, the writer behind
``inspect --save-snapshot``: ``{"tools": [...]}`` as served, indent 2, trailing newline.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.support import reference_servers
from whichtool_tui.config import Settings
from whichtool_tui.surface.load import save_snapshot
from whichtool_tui.targets import load_listing, resolve_target

SNAPSHOTS = reference_servers.REPO / "snapshots"


def _commands(scratch: Path) -> dict[str, Callable[[], str | None]]:
    return {
        "everything": reference_servers.everything_command,
        "filesystem": lambda: reference_servers.filesystem_command(scratch / "files"),
        "time": reference_servers.time_command,
        "git": lambda: reference_servers.git_command(
            reference_servers.make_git_repo(scratch / "repo")
        ),
    }


def capture(names: list[str]) -> int:
    """Capture the named servers (all four by default); returns a process exit code."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        (scratch / "files").mkdir()
        commands = _commands(scratch)
        failed = 0
        for name in names or list(commands):
            command = commands[name]()
            if command is None:
                print(f"{name}: not installed, skipped", file=sys.stderr)
                failed += 1
                continue
            listing = load_listing(resolve_target(command, "stdio", Settings()), timeout=60)
            path = save_snapshot(listing.raw_tools, SNAPSHOTS / f"{name}.json")
            shown = path.relative_to(reference_servers.REPO)
            print(
                f"Saved {len(listing.raw_tools)} tools to {shown}"
                f" ({listing.server_name} {listing.server_version})",
                file=sys.stderr,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(capture(sys.argv[1:]))
