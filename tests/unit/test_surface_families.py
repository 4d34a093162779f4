"""Near-duplicate families: one finding per connected group of overlapping pairs."""

from __future__ import annotations

from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions
from whichtool_tui.surface.families import shared_template
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import (
    analyze_overlap,
    analyze_overlap_families,
    dice,
    overlap_text,
)
from whichtool_tui.surface.rules_descriptions import overlap_without_preference

DISTINCT = [
    ("get_forecast", "Daily weather forecast for a city: temperature range and rain chance."),
    ("convert_currency", "Convert an amount between two currencies at today's rate."),
    ("send_sms", "Send a text message to a phone number; returns the delivery id."),
    ("resize_image", "Scale a PNG or JPEG to a given width, keeping its aspect ratio."),
    ("translate_text", "Translate a paragraph into another language, detecting the source."),
    ("geocode_address", "Turn a street address into latitude and longitude coordinates."),
    ("count_words", "Count words, sentences and paragraphs in a document."),
    ("roll_dice", "Roll N dice with S sides and report each face and the sum."),
    ("ping_host", "Check whether a host answers ICMP echo within a timeout."),
    ("hash_file", "Compute the SHA-256 digest of an uploaded file."),
]


def _tool(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


def _templated() -> list[dict[str, Any]]:
    users = [
        _tool(
            f"get_user_record_{i}",
            f"Get a user record number {i} in the workspace, with its roles.",
        )
        for i in range(40)
    ]
    invoices = [
        _tool(
            f"export_invoice_batch_{i}",
            f"Export invoice batch {i} as a PDF archive for the accounting team.",
        )
        for i in range(25)
    ]
    distinct = [_tool(name, text) for name, text in DISTINCT]
    # Interleave so families are not contiguous in served order.
    mixed: list[dict[str, Any]] = []
    for index in range(40):
        mixed.append(users[index])
        if index < 25:
            mixed.append(invoices[index])
        if index < 10:
            mixed.append(distinct[index])
    return mixed


def _family_findings(findings: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in findings if d.code in ("overlap/high", "overlap/notable")]


def test_two_templates_and_ten_distinct_tools_make_exactly_two_families() -> None:
    tools = normalize_surface(_templated()).tools
    analysis = analyze_overlap_families(tools)
    families = _family_findings(analysis.diagnostics)
    assert len(families) == 2
    by_size = sorted(families, key=lambda d: d.detail["members"])
    invoices, users = by_size
    assert invoices.detail["members"] == 25 and users.detail["members"] == 40
    assert set(invoices.tools or []) == {f"export_invoice_batch_{i}" for i in range(25)}
    assert set(users.tools or []) == {f"get_user_record_{i}" for i in range(40)}
    assert users.code == invoices.code == "overlap/high"
    assert users.detail["pairs"] == 40 * 39 // 2
    assert (
        users.detail["template"] == "Get a user record number {…} in the workspace, with its roles."
    )
    assert "40 tools overlap as one family" in users.message
    # The high families the rules read are the same two groups, in full.
    assert sorted(len(family) for family in analysis.high_families) == [25, 40]


def test_family_scores_are_the_highest_and_mean_pair_scores() -> None:
    tools = normalize_surface(_templated()).tools
    texts = {tool.name: overlap_text(tool) for tool in tools}
    _, findings = analyze_overlap(tools)
    invoices = next(d for d in _family_findings(findings) if d.detail["members"] == 25)
    names = [f"export_invoice_batch_{i}" for i in range(25)]
    scores = [dice(texts[a], texts[b]) for i, a in enumerate(names) for b in names[i + 1 :]]
    assert invoices.detail["score"] == round(max(scores), 4)
    assert abs(invoices.detail["typicalScore"] - sum(scores) / len(scores)) < 1e-4
    first, second = invoices.detail["bestPair"]
    assert round(dice(texts[first], texts[second]), 4) == invoices.detail["score"]


def test_a_single_near_duplicate_pair_is_one_family_of_two_read_as_the_pair() -> None:
    raw = [
        _tool("fetch_invoice", "Fetch one invoice by its id, with line items and totals."),
        _tool("fetch_invoices", "Fetch invoices by id, with their line items and totals."),
        *[_tool(name, text) for name, text in DISTINCT[:3]],
    ]
    _, findings = analyze_overlap(normalize_surface(raw).tools)
    families = _family_findings(findings)
    assert len(families) == 1
    (pair,) = families
    assert pair.tools == ["fetch_invoice", "fetch_invoices"]
    assert pair.message.startswith("`fetch_invoice` and `fetch_invoices` overlap at ")
    assert set(pair.detail) == {"score"}


def test_identical_descriptions_stay_errors_one_per_group() -> None:
    same = "List people in the directory, filtered by team."
    raw = [_tool(f"list_people_{i}", same) for i in range(5)]
    raw += [_tool("a_one", "Archive a project."), _tool("a_two", "Archive a project.")]
    _, findings = analyze_overlap(normalize_surface(raw).tools)
    identical = [d for d in findings if d.code == "descriptions/identical"]
    assert sorted(len(d.tools or []) for d in identical) == [2, 5]
    assert all(d.severity == "error" for d in identical)
    big = next(d for d in identical if len(d.tools or []) == 5)
    assert big.detail == {"members": 5}
    # Identical pairs get no overlap finding of their own.
    assert not _family_findings(findings)


def test_families_cap_the_listed_members_and_count_them_all() -> None:
    raw = [
        _tool(f"get_item_{i}", f"Get item number {i} from the shared catalogue, with its price.")
        for i in range(120)
    ]
    analysis = analyze_overlap_families(normalize_surface(raw).tools)
    (family,) = _family_findings(analysis.diagnostics)
    assert len(family.tools or []) == 50
    assert family.detail["members"] == 120
    assert family.message.count("`") == 6  # three names, then "and 117 more"
    assert "and 117 more" in family.message
    assert len(analysis.high_families[0]) == 120


def test_an_unguided_family_is_one_finding_and_guided_members_drop_out() -> None:
    raw = [
        _tool(f"get_item_{i}", f"Get item number {i} from the shared catalogue, with its price.")
        for i in range(6)
    ]
    raw[0]["description"] += " Prefer get_item_1 for archived items."
    surface = normalize_surface(raw)
    analysis = analyze_overlap_families(surface.tools)
    options = CheckOptions(high_overlap_families=analysis.high_families)
    (finding,) = overlap_without_preference(surface, options)
    assert finding.tools == [f"get_item_{i}" for i in range(1, 6)]
    assert finding.detail == {"members": 6, "unguided": 5}


def test_shared_template_marks_the_varying_slot() -> None:
    assert shared_template(["Get a user 1 now.", "Get a user 22 now."]) == "Get a user {…} now."
    assert shared_template(["Alpha beta", "Gamma delta"]) is None
