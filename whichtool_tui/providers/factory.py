"""Build a provider from a name, model and base URL; keys come from the environment only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from whichtool_tui.providers.base import Provider, ProviderError, options_fingerprint
from whichtool_tui.providers.http import DEFAULT_TIMEOUT_SECONDS, HttpProviderOptions
from whichtool_tui.providers.key_routing import (
    BaseUrlSource,
    check_key_destination,
    describe_destination,
    endpoint_url,
)
from whichtool_tui.providers.presets import OFFLINE_PROVIDERS, PRESETS, PROVIDER_NAMES, Preset
from whichtool_tui.redact import redact_url


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
    if "@" in parts.netloc:
        # httpx would turn user:password@ into Basic auth and send it with every prompt.
        raise ProviderError(
            "provider/credentials-in-base-url",
            f"The base URL for {name} carries credentials: {redact_url(base_url)}",
            "Drop the user:password@ part; keys come from the environment "
            "(the preset's key variable).",
        )


@dataclass(frozen=True)
class ProviderRoute:
    """A checked destination: the preset, its base URL and the key that may go there."""

    preset: Preset
    base_url: str
    api_key: str | None = field(repr=False)

    @property
    def endpoint(self) -> str:
        """The redacted URL requests are posted to."""
        return redact_url(endpoint_url(self.preset, self.base_url))

    @property
    def sent_key_env(self) -> str | None:
        """The variable whose key travels with each request, or None when none does."""
        return self.preset.key_env if self.api_key else None


def route_provider(
    name: str,
    base_url: str | None,
    *,
    env: Mapping[str, str],
    base_url_source: BaseUrlSource = "default",
    allow_http: bool = False,
) -> ProviderRoute:
    """Pick the base URL and key of an HTTP preset and check the key may go there.

    The only caller of the key rule (``check_key_destination``): every face's planned request,
    whether it opens a provider or only names where it would send, comes through here. An
    unstated ``base_url_source`` is "default", which the rule does not trust to redirect a key.
    """
    preset = PRESETS.get(name)
    if preset is None:
        raise ProviderError(
            "provider/unknown",
            f"Unknown provider `{name}`",
            f"Providers: {', '.join(PROVIDER_NAMES)}.",
        )
    resolved_url = base_url or preset.base_url
    source: BaseUrlSource = base_url_source if base_url else "preset"
    if not resolved_url:
        raise ProviderError(
            "provider/no-base-url",
            f"The {name} provider needs a base URL",
            "Pass --base-url (for example http://127.0.0.1:8000/v1) or set provider.baseUrl.",
        )
    _check_base_url(name, resolved_url)
    api_key = env.get(preset.key_env) if preset.key_env else None
    api_key = api_key.strip() if api_key else None
    if api_key:
        check_key_destination(preset, resolved_url, source, allow_http=allow_http)
    return ProviderRoute(preset, resolved_url, api_key or None)


@dataclass(frozen=True)
class Destination:
    """Where a run's requests go and which key variable travels with them, as a line too."""

    endpoint: str | None  # the redacted URL, or None for an offline provider
    key_env: str | None  # the variable whose key is sent, or None when none is
    line: str


def destination(
    name: str | None,
    base_url: str | None,
    *,
    env: Mapping[str, str],
    base_url_source: BaseUrlSource = "default",
    allow_http: bool = False,
) -> Destination:
    """Where a run's requests and key would go, checked but without needing the key set."""
    if not name or name in OFFLINE_PROVIDERS:
        return Destination(None, None, describe_destination(name or "none", None, None))
    route = route_provider(
        name, base_url, env=env, base_url_source=base_url_source, allow_http=allow_http
    )
    if route.preset.key_required and route.api_key is None:
        key_env = route.preset.key_env
        line = (
            f"provider {name}: requests and {key_env} would go to {route.endpoint} "
            f"({key_env} is not set)"
        )
        return Destination(route.endpoint, key_env, line)
    line = describe_destination(name, route.endpoint, route.sent_key_env)
    return Destination(route.endpoint, route.sent_key_env, line)


def build_provider(
    name: str | None,
    model: str | None,
    base_url: str | None,
    *,
    env: Mapping[str, str],
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    retries: int = 0,
    max_output_tokens: int | None = None,
    base_url_source: BaseUrlSource = "default",
    allow_http: bool = False,
) -> Provider:
    """Construct the named provider; every refusal is a ProviderError with a stable code.

    ``base_url_source`` says where ``base_url`` came from (a flag, a form, an agent, a config);
    the key-routing rules of ``key_routing`` decide from it whether the key may go there.
    """
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
    if name == "embedding":
        from whichtool_tui.providers.embedding import EmbeddingProvider

        return EmbeddingProvider()
    if name not in PRESETS:
        route_provider(name, base_url, env=env, base_url_source=base_url_source)  # unknown
    if not model:
        raise ProviderError(
            "provider/no-model",
            f"The {name} provider needs a model",
            "Pass --model or set provider.model in the config.",
        )
    route = route_provider(
        name, base_url, env=env, base_url_source=base_url_source, allow_http=allow_http
    )
    preset, resolved_url, api_key = route.preset, route.base_url, route.api_key
    if preset.key_required and not api_key:
        raise ProviderError(
            "provider/no-api-key",
            f"The {name} provider needs an API key in {preset.key_env}",
            f"Set {preset.key_env} in the environment; keys are never read from config files.",
        )
    if not timeout > 0 or timeout == float("inf"):
        raise ProviderError("provider/invalid-timeout", "The provider timeout must be positive")
    options = HttpProviderOptions(
        name=name,
        model=model,
        base_url=resolved_url,
        api_key=api_key,
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
