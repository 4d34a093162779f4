"""The use cases every face calls: the CLI (``commands/`` + ``headless/``), the TUI (``ui/``) and
the MCP server (``server/``) reach the engine through this package, with one options merge.

Importing the package imports nothing; each module loads what its use case needs.
"""
