"""Findability figures: the demo and the reference surfaces under each search, the baselines'
picks upfront and deferred, the embedding model's cost, and a 1,000-tool review.

Run: .venv/bin/python bench/findability.py [--tools 1000]
Prints figures beside their targets; asserts nothing. Targets (from the issue): model load
~1 s, 11-14 ms per prompt, ~342 MB RSS; a findability review of 1,000 tools and 100 prompts
in under 5 s (bm25 + regex), measured in this process. The semantic search on 1,000 tools, whole
process, cold and warm against issue 31's targets and phase by phase, is
bench/inspect_registry.py --kinds '' --semantic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import time
from pathlib import Path

from whichtool_tui.config import load_settings
from whichtool_tui.discovery.attach import with_findability
from whichtool_tui.discovery.deferred_run import DiscoveryOptions, run_deferred_evaluation
from whichtool_tui.discovery.embedding import embedding_available, load_embedding_model
from whichtool_tui.evaluation.engine import RunOptions, run_evaluation
from whichtool_tui.evaluation.inputs import build_run_inputs, normalize_listing
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.surface.inspect import inspect_surface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.targets import load_listing, resolve_target
from whichtool_tui.tasks.load import load_task_set

SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"
SURFACES = ("demo-lab", "everything", "filesystem", "git", "time")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def model_figures() -> None:
    if not embedding_available():
        print("embedding extra not installed: no model figures")
        return
    before = rss_mb()
    model = load_embedding_model()
    prompts = [f"show me the open orders of customer {n} from last week" for n in range(200)]
    started = time.perf_counter()
    for prompt in prompts:
        model.encode(prompt)
    per_prompt = (time.perf_counter() - started) * 1000 / len(prompts)
    print(f"model load           {model.load_seconds:.2f} s   (target ~1 s)")
    print(f"ms per prompt        {per_prompt:.1f} ms  (target 11-14 ms, 2 cores)")
    print(f"peak RSS             {rss_mb():.0f} MB (before load {before:.0f} MB; target ~342 MB)")


def surface_figures(name: str) -> None:
    settings = load_settings(None)
    listing = load_listing(resolve_target(str(SNAPSHOTS / f"{name}.json"), None, settings))
    tasks_path = SNAPSHOTS / f"{name}.tasks.yaml"
    report = with_findability(inspect_surface(listing), listing, str(tasks_path), settings)
    section = report.findability
    assert section is not None
    print(
        f"\n{name}: {len(section.tasks)} tasks, {len(section.distractors)} distractors, "
        f"~{section.deferral.estimated_tokens:,} tokens, {section.deferral.tool_count} tools, "
        f"deferred by size: {section.deferral.deferred_by_size}"
    )
    for retriever in section.retrievers:
        ranks = [row.ranks[retriever] for row in section.tasks]
        at = {k: sum(1 for r in ranks if r is not None and r <= k) for k in (1, 3, 5)}
        never = section.never_found[retriever]
        confident = sum(1 for d in section.distractors if retriever in d.confident)
        print(
            f"  {retriever:<8} @1 {at[1]}/{len(ranks)}  @3 {at[3]}/{len(ranks)}  "
            f"@5 {at[5]}/{len(ranks)}  never found {len(never)} {never}  "
            f"confident distractors {confident}/{len(section.distractors)}"
        )
    codes: dict[str, int] = {}
    for finding in section.findings:
        codes[finding.code] = codes.get(finding.code, 0) + 1
    print(f"  findings {codes}")
    loaded = load_task_set(tasks_path)
    surface = normalize_listing(listing)
    inputs = build_run_inputs(listing, surface, loaded, 1000)
    options = RunOptions(repeat=1, max_tools=1000, max_trials=1000)
    for provider_name in ("keyword", "embedding"):
        if provider_name == "embedding" and not embedding_available():
            continue
        provider = build_provider(provider_name, None, None, env={})
        upfront = asyncio.run(run_evaluation(inputs, options, provider))
        deferred = asyncio.run(
            run_deferred_evaluation(
                inputs, options, provider, DiscoveryOptions(retriever="bm25", compare_upfront=False)
            )
        )
        block = deferred.discovery
        assert block is not None
        acc = upfront.metrics.accuracy
        over = upfront.metrics.over_trigger
        print(
            f"  {provider_name:<9} upfront picks {acc.numerator}/{acc.denominator} "
            f"(over-trigger {over.numerator}/{over.denominator}); deferred (bm25, top 5) "
            f"found {block.found.numerator}/{block.found.denominator} "
            f"picked {block.picked.numerator}/{block.picked.denominator}"
        )


def scale_figures(tool_count: int) -> None:
    tools = [
        {
            "name": f"tool_{index}_{['order', 'user', 'file', 'ticket'][index % 4]}",
            "description": f"Handles {['orders', 'users', 'files', 'tickets'][index % 4]} "
            f"of kind {index} in region {index % 17}.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
        }
        for index in range(tool_count)
    ]
    listing = ServedListing(raw_tools=tools, transport="snapshot", ref="bench")
    tasks = {
        "version": 1,
        "tasks": [
            {
                "id": f"t{n}",
                "prompt": f"Handle the {['orders', 'users'][n % 2]} of kind {n * 7}",
                "expected": f"tool_{n * 7}_{['order', 'user', 'file', 'ticket'][(n * 7) % 4]}",
            }
            for n in range(100)
        ],
    }
    path = Path("/tmp/whichtool-bench-tasks.json")
    path.write_text(json.dumps(tasks))
    report = inspect_surface(listing, max_tools=tool_count)
    started = time.perf_counter()
    with_findability(report, listing, str(path), load_settings(None), ["bm25", "regex"])
    print(
        f"\nfindability of {tool_count} tools x 100 prompts (bm25 + regex): "
        f"{time.perf_counter() - started:.2f} s (target < 5 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=1000)
    args = parser.parse_args()
    model_figures()
    for name in SURFACES:
        surface_figures(name)
    scale_figures(args.tools)


if __name__ == "__main__":
    main()
