"""Plain-text styling every terminal renderer shares: a small ANSI palette.

The palette only wraps text the renderer has already passed through ``text_safety``.
"""

from __future__ import annotations

_COLOURS = {"red": "31", "yellow": "33", "green": "32", "dim": "2", "bold": "1", "cyan": "36"}
_SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}


class Styler:
    """Wraps text in ANSI styles when colour is on; otherwise returns it unchanged."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        """``text`` in ``style`` (a name from a small fixed palette)."""
        if not self.enabled:
            return text
        return f"\x1b[{_COLOURS[style]}m{text}\x1b[0m"

    def severity(self, severity: str, text: str) -> str:
        """``text`` in the colour of a finding's severity (error, warning or info)."""
        return self(_SEVERITY_STYLE[severity], text)
