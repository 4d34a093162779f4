"""whichtool-tui as an MCP server for agents."""
