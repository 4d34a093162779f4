"""The one provider builder and the one trial-cache builder: the CLI, the TUI and the MCP server
open model back-ends and the answer cache here, so their key routing and cache rules agree.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from whichtool_tui.provenance import Source
from whichtool_tui.strict_model import StrictModel

if TYPE_CHECKING:
    from whichtool_tui.evaluation.cache import CacheStats, TrialCache
    from whichtool_tui.providers.base import Provider
    from whichtool_tui.providers.factory import Destination
    from whichtool_tui.usecases.options import ProviderChoice


class ProviderRequest(StrictModel):
    """Which model back-end to open, and how, already merged (never a key: keys come from the
    environment).

    Every face builds it from a ``ProviderChoice`` (``of``), the result of the one options merge,
    so ``base_url_source`` always says who chose the URL; the key rule reads it in
    ``open_provider`` and ``provider_route`` alike.
    """

    name: str | None = None
    model: str | None = None
    base_url: str | None = None
    base_url_source: Source
    allow_http: bool = False
    timeout: float | None = None  # None: the provider layer's own default
    max_output_tokens: int | None = None
    min_similarity: float | None = None  # the embedding baseline's floor, when given

    @classmethod
    def of(
        cls,
        choice: ProviderChoice,
        *,
        allow_http: bool = False,
        timeout: float | None = None,
        max_output_tokens: int | None = None,
        min_similarity: float | None = None,
        default_name: str | None = None,
    ) -> ProviderRequest:
        """The request for a merged choice; ``default_name`` stands in for an unnamed provider."""
        return cls(
            name=choice.name or default_name,
            model=choice.model,
            base_url=choice.base_url,
            base_url_source=choice.base_url_source,
            allow_http=allow_http,
            timeout=timeout,
            max_output_tokens=max_output_tokens,
            min_similarity=min_similarity,
        )


def is_paid_provider(name: str | None) -> bool:
    """Every provider that sends prompts over the network counts as paid; keyword and mock not."""
    from whichtool_tui.providers.presets import OFFLINE_PROVIDERS

    return name is not None and name not in OFFLINE_PROVIDERS


def open_provider(request: ProviderRequest, env: Mapping[str, str] | None = None) -> Provider:
    """The provider a run, a draft, a re-run or a seat uses, whichever face asked for it."""
    from whichtool_tui.providers.factory import build_provider
    from whichtool_tui.providers.http import DEFAULT_TIMEOUT_SECONDS

    provider = build_provider(
        request.name,
        request.model,
        request.base_url,
        env=os.environ if env is None else env,
        timeout=DEFAULT_TIMEOUT_SECONDS if request.timeout is None else request.timeout,
        max_output_tokens=request.max_output_tokens,
        base_url_source=request.base_url_source,
        allow_http=request.allow_http,
    )
    if request.min_similarity is not None and provider.identity.name == "embedding":
        from whichtool_tui.providers.embedding import EmbeddingProvider

        provider = EmbeddingProvider(min_similarity=request.min_similarity)
    return provider


def provider_route(request: ProviderRequest, env: Mapping[str, str] | None = None) -> Destination:
    """Where the requests and the key of ``open_provider(request)`` go (endpoint, key variable
    and the line the faces print), checked by the key-routing rules; nothing is sent."""
    from whichtool_tui.providers.factory import destination

    return destination(
        request.name,
        request.base_url,
        env=os.environ if env is None else env,
        base_url_source=request.base_url_source,
        allow_http=request.allow_http,
    )


def provider_destination(request: ProviderRequest, env: Mapping[str, str] | None = None) -> str:
    """The one-line form of ``provider_route`` (the CLI prints it on stderr before a run)."""
    return provider_route(request, env).line


def open_trial_cache(enabled: bool | None, directory: str | None) -> TrialCache | None:
    """The answer cache a run uses: on unless ``enabled`` is False, under ``directory`` or the
    default folder (the CLI's --cache/--cache-dir, the TUI's run form, the server's flags)."""
    from whichtool_tui.evaluation.cache import cli_trial_cache

    return cli_trial_cache(enabled, directory)


def trial_cache_info(directory: str | None) -> CacheStats:
    """What ``cache info`` shows: the folder (``--dir`` or the default), entries and bytes."""
    from whichtool_tui.evaluation.cache import cache_info
    from whichtool_tui.places import default_cache_dir

    return cache_info(directory or default_cache_dir())


def clear_trial_cache(directory: str | None) -> int:
    """Remove every cached trial under the folder (``cache clear``) and say how many went.

    A folder that cannot be emptied is ``cache/unwritable``, with the path redacted.
    """
    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.evaluation.cache import cache_clear
    from whichtool_tui.places import default_cache_dir
    from whichtool_tui.redact import redact_paths

    folder = directory or default_cache_dir()
    try:
        return cache_clear(folder)
    except OSError as exc:
        raise WhichtoolError(
            "cache/unwritable",
            f"Cannot clear {redact_paths(str(folder))}: {exc.strerror or exc}",
            "Check the folder's permissions.",
        ) from None


def cache_size_text(size_bytes: int) -> str:
    """A cache's size as ``cache info`` prints it (B, KB or MB)."""
    from whichtool_tui.evaluation.cache import format_size

    return format_size(size_bytes)
