"""whichtool-tui: evidence about an MCP server's tool surface, routing and wire honesty."""

__version__ = "0.1.0"
