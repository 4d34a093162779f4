"""Entry point for ``python -m whichtool_tui``."""

from __future__ import annotations

import sys

from whichtool_tui.cli import main

if __name__ == "__main__":
    sys.exit(main())
