"""Hard ceilings shared by the config, the flags and the engine, in a module that imports nothing.

Command modules declare their flags before anything heavy loads, so the ceilings live here
rather than in ``config`` (which loads pydantic).
"""

from __future__ import annotations

ABSOLUTE_MAX_TRIALS = 1000
ABSOLUTE_MAX_TOOLS = 1000
# How many tools a surface may offer before the review warns (a cautious default, not a limit).
DEFAULT_MAX_TOOLS = 6
# The largest integer a JSON reader in JavaScript keeps exactly (Number.MAX_SAFE_INTEGER).
MAX_SAFE_INTEGER = 2**53 - 1
