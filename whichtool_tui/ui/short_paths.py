"""Paths shortened from the left for narrow places (headers, toasts): the file name stays."""

from __future__ import annotations

import re

TOAST_PATH_WIDTH = 48  # a path in a toast keeps at most this many characters
_LONG_PATH = re.compile(r"(?<![\w.~])(?:~|\.{1,2})?(?:/[^\s/:'\"()]+){3,}")


def shorten(text: str, width: int) -> str:
    """Clip to ``width`` characters with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def shorten_path(path: str, width: int) -> str:
    """``…/snapshots/demo-lab.tasks.yaml``: leading folders go first, the file name last."""
    if len(path) <= width:
        return path
    parts = path.split("/")
    for start in range(1, len(parts)):
        candidate = "…/" + "/".join(parts[start:])
        if len(candidate) <= width:
            return candidate
    return shorten("…/" + parts[-1], width)


def shorten_paths_in(message: str, width: int = TOAST_PATH_WIDTH) -> str:
    """Every long path in a message shortened from the left (a toast stays a few lines)."""
    return _LONG_PATH.sub(lambda match: shorten_path(match.group(0), width), message)
