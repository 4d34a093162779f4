"""The only code that talks MCP as a client; wraps the official SDK."""
