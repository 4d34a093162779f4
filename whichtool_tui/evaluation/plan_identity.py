"""The identity of a planned run: one fingerprint for everything that decides which requests it
sends, so a batch state file and every shard of a run can be checked against the same plan.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from whichtool_tui.evaluation.engine import RunInputs, RunOptions
    from whichtool_tui.evaluation.plan import TrialPlan


class ProviderKey(NamedTuple):
    """Which provider answers a plan: name, model and request fingerprint (never a key)."""

    name: str
    model: str
    request_fingerprint: str | None


def plan_fingerprint(
    inputs: RunInputs, options: RunOptions, plan: TrialPlan, provider: ProviderKey
) -> str:
    """sha256 of everything that decides which requests a run sends (never a key): the surface,
    the selected tasks, repeats, seed, order permutation, sampling and the provider's request
    fingerprint. Two runs (or shards) with one fingerprint plan the very same trials."""
    material = {
        "v": 1,
        "surface": inputs.surface_hash,
        "tools": list(inputs.tool_names),
        "tasks": [[task.id, task.prompt, task.expected] for task in plan.selected],
        "repeat": plan.repeat,
        "seed": plan.seed,
        "permuted": plan.permuted,
        "temperature": options.temperature,
        "reasoningEffort": options.reasoning_effort,
        "maxOutputTokens": options.max_output_tokens,
        "provider": provider.name,
        "model": provider.model,
        "requestFingerprint": provider.request_fingerprint,
    }
    text = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
