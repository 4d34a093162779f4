"""Command lines and environments for stdio servers; cheap to import (no SDK, no anyio).

The command is split like a POSIX shell would split words (quotes, backslash escapes) but never
run through a shell, so ``;``, ``|`` and backticks reach the program as literal text.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping

from whichtool_tui.errors import WhichtoolError

ENV_ALLOWLIST = (
    "APPDATA",
    "COMSPEC",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROGRAMDATA",
    "SYSTEMROOT",
    "TEMP",
    "TMP",
    "TMPDIR",
    "USERPROFILE",
    "WINDIR",
)


def split_command(command_line: str) -> list[str]:
    """Split a command line with quotes and backslash escapes, never through a shell."""
    try:
        argv = shlex.split(command_line, comments=False, posix=True)
    except ValueError as exc:
        raise WhichtoolError(
            "target/invalid-command",
            f"Cannot parse the stdio command: {exc}",
            'Quote the whole command once: --transport stdio "node server.js --flag"',
        ) from None
    if not argv:
        raise WhichtoolError(
            "target/invalid-command",
            "The stdio command is empty",
            'Give the command that starts the server: --transport stdio "node server.js"',
        )
    return argv


def child_environment(
    extra: Mapping[str, str] | None = None, parent: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The allowlisted variables of ``parent`` plus explicit ``extra`` (config ``env``).

    Everything else, API keys included, stays out of a server we did not write.
    """
    source = os.environ if parent is None else parent
    env = {name: source[name] for name in ENV_ALLOWLIST if name in source}
    env.update(extra or {})
    return env
