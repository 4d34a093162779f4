"""Where a value of a request came from, so trust rules can ask instead of guess.

Every value a use case receives was typed by the person running us (a command-line ``flag`` or
a TUI ``form`` field they edited), named by an ``agent`` through the MCP server, read from a
``config`` file (which may have been discovered in a folder the user did not write), taken from
a provider ``preset``, or left at its ``default``. The key rule (``providers.key_routing``) lets
a vendor key follow a base URL only when a person typed that URL; nothing else may redirect it.
"""

from __future__ import annotations

from typing import Literal

Source = Literal["flag", "form", "agent", "config", "preset", "default"]

# The sources a face can give its own values with (the rest come from the merge).
FaceSource = Literal["flag", "form", "agent"]

# Values a person typed for this invocation: the only ones trusted to redirect a vendor key.
TYPED_SOURCES: frozenset[Source] = frozenset({"flag", "form"})

SOURCES: tuple[Source, ...] = ("flag", "form", "agent", "config", "preset", "default")


def is_typed(source: Source) -> bool:
    """True when a person typed the value for this invocation (a flag or an edited form field)."""
    return source in TYPED_SOURCES
