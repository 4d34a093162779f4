"""Build a provider from a name, model and base URL; keys come from the environment only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from whichtool_tui.providers.base import Provider, ProviderError, options_fingerprint
from whichtool_tui.providers.http import DEFAULT_TIMEOUT_SECONDS, HttpProviderOptions
from whichtool_tui.providers.presets import PRESETS, PROVIDER_NAMES, Preset
from whichtool_tui.redact import redact_url

if TYPE_CHECKING:
    from whichtool_tui.config import ProviderConfig


def request_fingerprint(
    preset: Preset,
    model: str,
    base_url: str,
    *,
    has_key: bool,
    max_output_tokens: int | None,
) -> str:
    """sha256 of the construction options that shape answers; never of the key itself."""
    options = {
        "v": 1,
        "provider": preset.name,
        "api": preset.api,
        "model": model,
        "baseUrl": base_url.rstrip("/"),
        "authenticated": has_key,
        "maxOutputTokens": max_output_tokens,
        "capabilities": {
            "seed": preset.capabilities.seed,
            "temperature": preset.capabilities.temperature,
            "reasoningEffort": preset.capabilities.reasoning_effort,
        },
    }
    return options_fingerprint(options)


def _check_base_url(name: str, base_url: str) -> None:
    try:
        parts = urlsplit(base_url)
        host = parts.hostname
    except ValueError:
        host = None
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise ProviderError(
            "provider/invalid-base-url",
            f"The base URL for {name} is not an http(s) URL: {redact_url(base_url)}",
            "Pass --base-url like http://127.0.0.1:8000/v1.",
        )


def build_provider(
    name: str | None,
    model: str | None,
    base_url: str | None,
    *,
    env: Mapping[str, str],
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    retries: int = 0,
    max_output_tokens: int | None = None,
) -> Provider:
    """Construct the named provider; every refusal is a ProviderError with a stable code."""
    if not name:
        raise ProviderError(
            "provider/missing",
            "No provider configured",
            f"Pass --provider (one of: {', '.join(PROVIDER_NAMES)}) or set provider.name "
            "in the config; `keyword` runs offline with no key.",
        )
    if name == "mock":
        from whichtool_tui.providers.mock import MOCK_MODEL, MockProvider

        return MockProvider(model=model or MOCK_MODEL)
    if name == "keyword":
        from whichtool_tui.providers.keyword import KEYWORD_MODEL, KeywordProvider

        return KeywordProvider(model=model or KEYWORD_MODEL)
    preset = PRESETS.get(name)
    if preset is None:
        raise ProviderError(
            "provider/unknown",
            f"Unknown provider `{name}`",
            f"Providers: {', '.join(PROVIDER_NAMES)}.",
        )
    if not model:
        raise ProviderError(
            "provider/no-model",
            f"The {name} provider needs a model",
            "Pass --model or set provider.model in the config.",
        )
    resolved_url = base_url or preset.base_url
    if not resolved_url:
        raise ProviderError(
            "provider/no-base-url",
            f"The {name} provider needs a base URL",
            "Pass --base-url (for example http://127.0.0.1:8000/v1) or set provider.baseUrl.",
        )
    _check_base_url(name, resolved_url)
    api_key = env.get(preset.key_env) if preset.key_env else None
    api_key = api_key.strip() if api_key else None
    if preset.key_required and not api_key:
        raise ProviderError(
            "provider/no-api-key",
            f"The {name} provider needs an API key in {preset.key_env}",
            f"Set {preset.key_env} in the environment; keys are never read from config files.",
        )
    if timeout <= 0:
        raise ProviderError("provider/invalid-timeout", "The provider timeout must be positive")
    options = HttpProviderOptions(
        name=name,
        model=model,
        base_url=resolved_url,
        api_key=api_key or None,
        key_env=preset.key_env,
        timeout=timeout,
        retries=retries,
        max_output_tokens=max_output_tokens,
        capabilities=preset.capabilities,
        request_fingerprint=request_fingerprint(
            preset,
            model,
            resolved_url,
            has_key=bool(api_key),
            max_output_tokens=max_output_tokens,
        ),
    )
    if preset.api == "messages":
        from whichtool_tui.providers.anthropic import AnthropicProvider

        return AnthropicProvider(options)
    if preset.api == "responses":
        from whichtool_tui.providers.openai_responses import ResponsesProvider

        return ResponsesProvider(options)
    from whichtool_tui.providers.chat_completions import ChatCompletionsProvider

    return ChatCompletionsProvider(options)


def build_flagged_provider(
    name: str | None,
    model: str | None,
    base_url: str | None,
    configured: ProviderConfig | None,
    *,
    env: Mapping[str, str],
) -> Provider:
    """``build_provider`` with each of name, model and base URL falling back to the config."""
    return build_provider(
        name or (configured.name if configured else None),
        model or (configured.model if configured else None),
        base_url or (configured.base_url if configured else None),
        env=env,
    )
