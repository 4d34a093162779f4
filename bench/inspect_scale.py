"""Time a full inspect of a 1,000-tool surface (tokens, all 499,500 pair scores, annotations,
headers, every registered lint rule), in process and as whole `whichtool-tui` processes.

Targets: the in-process inspect at most 1.0 s CPU on a 2-core machine; the whole process
(start-up, review, rendering, exit) at most 1.0 s for `--format json` and for terminal output.
Run: .venv/bin/python bench/inspect_scale.py
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from whole_process import import_seconds, measure, summary, yardstick

from whichtool_tui.surface.checks import CheckOptions, load_builtin_checks, registered_checks
from whichtool_tui.surface.inspect import inspect_surface, surface_token_counts
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import analyze_overlap, analyze_overlap_families

SEED = 20260728
TOOLS = 1000
VERBS = [
    "get",
    "list",
    "search",
    "create",
    "update",
    "delete",
    "archive",
    "export",
    "sync",
    "send",
    "count",
    "validate",
    "preview",
    "restore",
    "assign",
    "schedule",
    "publish",
    "fetch",
    "merge",
    "rename",
]
RESOURCES = [
    "user",
    "invoice",
    "ticket",
    "repository",
    "branch",
    "pull_request",
    "calendar_event",
    "payment",
    "customer",
    "order",
    "shipment",
    "document",
    "folder",
    "webhook",
    "api_key",
    "dashboard",
    "metric",
    "alert",
    "deployment",
    "container",
    "secret",
    "comment",
    "label",
    "project",
    "milestone",
    "report",
    "subscription",
    "coupon",
    "product",
    "warehouse",
    "employee",
    "timesheet",
    "contract",
    "lead",
    "campaign",
    "segment",
    "audit_log",
    "backup",
    "dns_record",
    "certificate",
    "queue",
    "topic",
    "job",
    "pipeline",
    "artifact",
    "release",
    "incident",
    "runbook",
    "policy",
    "role",
]
QUALIFIERS = [
    "by id",
    "in the current workspace",
    "for the authenticated account",
    "across all regions",
    "older than a given date",
    "matching a free-text query",
    "with pagination",
    "including archived items",
    "owned by a team",
    "in bulk",
    "from the audit trail",
    "for a billing period",
    "as CSV",
    "with their metadata",
    "that failed validation",
]
SENTENCES = [
    "Returns at most {n} results per page; pass the cursor to continue.",
    "Requires the {scope} scope.",
    "Use this when the user refers to a {noun} by name rather than id.",
    "Timestamps are ISO 8601 in UTC.",
    "Does not follow redirects or resolve aliases.",
    "Fails with 404 when the {noun} does not exist.",
    "Rate limited to {n} calls per minute per token.",
    "The {noun} must belong to the caller's organisation.",
    "Prefer the batch variant for more than {n} items.",
    "Soft-deleted {noun}s are excluded unless include_deleted is true.",
]


def build_surface(rng: random.Random) -> list[dict[str, Any]]:
    """A deterministic, varied surface of TOOLS tools with realistic descriptions and schemas."""
    tools: list[dict[str, Any]] = []
    names: set[str] = set()
    while len(tools) < TOOLS:
        verb, resource = rng.choice(VERBS), rng.choice(RESOURCES)
        name = f"{verb}_{resource}"
        if name in names:
            name = (
                f"{name}_{rng.choice(['v2', 'batch', 'admin', 'legacy', 'by_owner'])}_{len(tools)}"
            )
        names.add(name)
        noun = resource.replace("_", " ")
        description = f"{verb.capitalize()} {noun}s {rng.choice(QUALIFIERS)}."
        for sentence in rng.sample(SENTENCES, rng.randint(1, 4)):
            description += " " + sentence.format(
                n=rng.choice([10, 50, 100, 500]), scope=f"{resource}:{verb}", noun=noun
            )
        properties: dict[str, Any] = {
            f"{resource}_id": {"type": "string", "description": f"The {noun} identifier."},
        }
        for extra in rng.sample(["limit", "cursor", "query", "since", "owner", "dry_run"], 3):
            properties[extra] = {
                "type": "integer"
                if extra == "limit"
                else "boolean"
                if extra == "dry_run"
                else "string",
                "description": f"Optional {extra.replace('_', ' ')}.",
            }
        if rng.random() < 0.05:
            properties["tenant"] = {"type": "string", "x-mcp-header": "Tenant-Id"}
        tool: dict[str, Any] = {
            "name": name,
            "description": description,
            "inputSchema": {
                "type": "object",
                "properties": properties,
                "required": [f"{resource}_id"],
            },
        }
        if rng.random() < 0.7:
            tool["annotations"] = {
                "readOnlyHint": verb
                in ("get", "list", "search", "count", "export", "preview", "fetch"),
                "destructiveHint": verb in ("delete", "archive"),
            }
        tools.append(tool)
    return tools


def main() -> None:
    """Print the figures: median of five full inspects, plus the overlap share of it."""
    raw = build_surface(random.Random(SEED))
    listing = ServedListing(transport="snapshot", ref="bench.json", raw_tools=raw)
    inspect_surface(listing)  # warm-up (imports, caches)
    full, full_cpu, overlap_only = [], [], []
    for _ in range(5):
        started, cpu = time.perf_counter(), time.process_time()
        report = inspect_surface(listing)
        full.append(time.perf_counter() - started)
        full_cpu.append(time.process_time() - cpu)
        surface = normalize_surface(raw)
        started = time.perf_counter()
        analyze_overlap(surface.tools)
        overlap_only.append(time.perf_counter() - started)
    print(f"tools: {report.surface.tool_count}")
    print(f"pairs scored: {report.overlap.pairs_considered}")
    print(f"tokens (estimate): {report.tokens.total}")
    print(f"diagnostics: {len(report.diagnostics)}")
    print(f"full inspect: median {statistics.median(full):.3f} s (min {min(full):.3f} s) wall")
    print(f"full inspect: median {statistics.median(full_cpu):.3f} s CPU (other load excluded)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"overlap only: median {statistics.median(overlap_only):.3f} s")
    load_builtin_checks()
    surface = normalize_surface(raw)
    options = CheckOptions(
        high_overlap_families=analyze_overlap_families(surface.tools).high_families,
        tool_tokens={name: item.total for name, item in surface_token_counts(surface).items()},
    )
    checks = registered_checks()
    rule_cpu = []
    for _ in range(5):
        cpu = time.process_time()
        for _name, check in checks:
            check(surface, options)
        rule_cpu.append(time.process_time() - cpu)
    print(
        f"registered rules (all on): {len(checks)} checks, median "
        f"{statistics.median(rule_cpu):.3f} s CPU of the full inspect"
    )
    print("target: <= 1.000 s for the full inspect")
    whole_process(raw)


def whole_process(raw: list[dict[str, Any]], runs: int = 5) -> None:
    """Whole `whichtool-tui --no-ui inspect SNAPSHOT` processes, as a user waits for them."""
    binary = Path(sys.executable).parent / "whichtool-tui"
    with tempfile.TemporaryDirectory() as folder:
        snapshot = Path(folder) / "bench.json"
        snapshot.write_text(json.dumps({"tools": raw}), encoding="utf-8")
        small = Path(folder) / "small.json"
        small.write_text(json.dumps({"tools": raw[:20]}), encoding="utf-8")
        argv = [str(binary), "--no-ui", "inspect", str(small), "--format", "json"]
        print(f"start-up imports (-X importtime, 20 tools): {import_seconds(argv):.2f} s")
        print(yardstick())
        for fmt in ("json", "terminal"):
            argv = [str(binary), "--no-ui", "inspect", str(snapshot), "--format", fmt]
            done = [measure(argv) for _ in range(runs)]
            print(f"whole process, --format {fmt}: {summary(done)}   target <= 1.0 s")


if __name__ == "__main__":
    main()
