"""Which batch API a provider has: OpenAI's for ``openai`` and ``openai-chat``, Anthropic's
Message Batches for ``anthropic``; every other preset runs direct only."""

from __future__ import annotations

from whichtool_tui.providers.base import Provider, ProviderError
from whichtool_tui.providers.batch_api import BatchApi

BATCH_PROVIDERS = ("openai", "openai-chat", "anthropic")


def open_batch_api(provider: Provider) -> BatchApi:
    """The batch endpoints beside ``provider``'s direct one (same base URL, same key)."""
    from whichtool_tui.providers.anthropic import AnthropicProvider
    from whichtool_tui.providers.batch_anthropic import AnthropicBatchApi
    from whichtool_tui.providers.batch_openai import OpenAIBatchApi
    from whichtool_tui.providers.chat_completions import ChatCompletionsProvider
    from whichtool_tui.providers.openai_responses import ResponsesProvider

    name = provider.identity.name
    if name in ("openai", "openai-chat") and isinstance(
        provider, ResponsesProvider | ChatCompletionsProvider
    ):
        return OpenAIBatchApi(provider)
    if name == "anthropic" and isinstance(provider, AnthropicProvider):
        return AnthropicBatchApi(provider)
    raise ProviderError(
        "batch/unsupported",
        f"The {name} provider has no batch API here",
        f"--batch works with {', '.join(BATCH_PROVIDERS)}; run this provider without --batch.",
    )
