"""A place where a transport leaves the first fatal problem it saw, for the session to raise.

The SDK session only learns that a stream ended; the transport knows why (a non-JSON line, an
oversize response, a child that died). It records that here, closes its stream, and the session
layer turns the resulting "connection closed" into this named error.
"""

from __future__ import annotations

from dataclasses import dataclass

from whichtool_tui.errors import WhichtoolError


@dataclass
class FaultBox:
    """Holds the first fault a transport recorded; later ones are consequences, not causes."""

    fault: WhichtoolError | None = None

    def record(self, error: WhichtoolError) -> None:
        """Keep ``error`` unless an earlier fault already explains the failure."""
        if self.fault is None:
            self.fault = error
