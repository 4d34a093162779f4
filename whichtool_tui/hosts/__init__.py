"""Host compatibility: what each MCP host accepts of a served tool surface, as data.

Each host is one JSON file in ``profiles/`` (its rules, each with the effect on that host, the
public source and the date it was verified); ``engine`` applies them to a ``tools/list`` and
``fixes`` writes the RFC 6902 patch that makes the surface fit where a mechanical fix exists.
"""
