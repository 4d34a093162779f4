"""One structured rewrite request on the wire to a real llama.cpp server (SmolLM2-135M).

llama.cpp turns ``response_format`` json_schema into a grammar, so even this tiny model must
answer with an object of the rewrite schema; the reply is read by the same strict reader as any
other model's. What this proves is the wire path, not the quality of the rewrite.
"""

from __future__ import annotations

import pytest

from tests.support import paths
from whichtool_tui.evaluation.inputs import normalize_listing
from whichtool_tui.improve.briefs import gather_briefs
from whichtool_tui.improve.model import TuningFailure
from whichtool_tui.improve.rewrite_request import model_proposal
from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.chat_completions import ChatCompletionsProvider
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.surface.load import load_snapshot

pytestmark = pytest.mark.slow

LAB = paths.SNAPSHOTS / "demo-lab.json"


async def test_a_structured_rewrite_request_round_trips_through_llama_cpp(
    llama_base_url: str,
) -> None:
    surface = normalize_listing(load_snapshot(LAB))
    failure = TuningFailure(
        task_id="orders.search.mug",
        prompt="Find any orders that mention the blue ceramic mug.",
        expected="search_orders",
        picked=[None],
    )
    brief = next(b for b in gather_briefs(surface, [], [failure]) if b.tool.name == "search_orders")
    provider = build_provider(
        "openai-compatible",
        "smollm2",
        llama_base_url + "/v1",
        env={},
        timeout=300,
        max_output_tokens=160,
    )
    assert isinstance(provider, ChatCompletionsProvider)
    try:
        proposal = await model_proposal(provider, brief, 0.25, 160)
    except ProviderError as error:
        # A tiny model may run into the output cap inside the JSON; that is named, not a crash.
        assert error.code == "provider/truncated", error
        return
    finally:
        await provider.aclose()
    assert proposal.tool == "search_orders" and proposal.rewriter == "model"
    # The grammar held: a description string came back (perhaps refused as unchanged, never
    # as a shape the schema forbids).
    assert proposal.refused is None or "more than the description" not in proposal.refused
    assert isinstance(proposal.description, str)
