"""Deferred tool discovery: would a host's tool search find each tool for its own prompts?

Hosts that defer MCP tools show the model a search tool instead of the tools; this package
models those searches (BM25, a regex/keyword search, and a semantic one when the ``embedding``
extra is installed), scores findability per task and tool, predicts deferral, and runs the
two-step deferred protocol against a provider.
"""
