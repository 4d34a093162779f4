"""The compact envelope's caps: 4,000-character text, 262,144-character envelope, 50/20 lists."""

from __future__ import annotations

import jsonschema

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.server import envelope
from whichtool_tui.server.summaries import inspect_summary
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing


def test_text_is_cut_with_a_marker() -> None:
    assert envelope.truncate_text("short") == "short"
    long = envelope.truncate_text("x" * 5000)
    assert len(long) == 4000
    assert long.endswith("… [truncated]")
    assert envelope.success("y" * 9000, {})["summary"].endswith("… [truncated]")


def test_an_oversized_envelope_becomes_an_error() -> None:
    small = envelope.success("fine", {"items": list(range(10))})
    assert envelope.bounded(small) is small
    huge = envelope.success("big", {"blob": "z" * 300_000})
    replaced = envelope.bounded(huge)
    assert replaced["ok"] is False
    assert replaced["error"]["code"] == "mcp/result-too-large"
    assert "--result-file" in replaced["error"]["hint"]
    assert envelope.encoded_size(replaced) < 1000


def test_envelopes_match_the_published_output_schema() -> None:
    validator = jsonschema.Draft202012Validator(envelope.RESULT_OUTPUT_SCHEMA)
    validator.validate(envelope.success("ok", {"a": 1}))
    refusal = envelope.failure(
        WhichtoolError("mcp/x", "see https://user:pw@example.com/p?token=abc", "hint"),
        {"plan": {}},
    )
    validator.validate(refusal)
    assert "pw" not in refusal["error"]["message"]
    assert "abc" not in refusal["summary"]


def test_inspect_summary_caps_diagnostics_and_items() -> None:
    # 60 pairs of tools, each pair with its own identical description: one finding per pair
    # (a finding that names two tools is never folded into one), far more than an agent needs.
    syllables = ("ka", "lo", "mi", "nu", "pe", "ra", "si", "tu")
    words = [a + b + c for a in syllables for b in syllables for c in syllables[:1]][:60]
    tools = [
        {"name": f"{word}_{side}", "description": f"Return the {word} ledger.", "inputSchema": {}}
        for word in words
        for side in ("records", "copy")
    ]
    report = inspect_surface(ServedListing("snapshot", "many.json", tools), max_tools=1000)
    text, data = inspect_summary(report)
    assert len(report.diagnostics) > 50
    assert len(data["diagnostics"]) == 50
    assert data["diagnosticsOmitted"] == len(report.diagnostics) - 50
    assert sum(data["findings"].values()) == len(report.diagnostics)
    assert len(data["tools"]) == 20 and data["toolsOmitted"] == 100
    assert len(data["overlapPairs"]) <= 20
    assert data["ok"] is False
    assert text.startswith("FAILED: 120 tools")
