"""Building providers: refusal codes, presets, keys from the environment, fingerprints."""

from __future__ import annotations

import pytest

from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.presets import KEY_ENV_NAMES, PRESETS, PROVIDER_NAMES

pytestmark = pytest.mark.slow  # starts processes or servers

KEYS = {
    "ANTHROPIC_API_KEY": "sk-ant-SENTINEL-a",
    "OPENAI_API_KEY": "sk-SENTINEL-o",
    "OPENROUTER_API_KEY": "sk-or-SENTINEL-r",
    "TOGETHER_API_KEY": "tg-SENTINEL-t",
    "WHICHTOOL_PROVIDER_API_KEY": "SENTINEL-compat",
}


def code_of(*args: object, **kwargs: object) -> str:
    with pytest.raises(ProviderError) as caught:
        build_provider(*args, **kwargs)  # type: ignore[arg-type]
    return caught.value.code


def test_names_are_the_upstream_set_plus_the_baselines() -> None:
    assert PROVIDER_NAMES == (
        "anthropic",
        "embedding",
        "keyword",
        "mock",
        "ollama",
        "openai",
        "openai-chat",
        "openai-compatible",
        "openrouter",
        "together",
        "vllm",
    )
    assert tuple(sorted(KEYS)) == KEY_ENV_NAMES


def test_refusal_codes() -> None:
    assert code_of(None, "m", None, env=KEYS) == "provider/missing"
    assert code_of("", "m", None, env=KEYS) == "provider/missing"
    assert code_of("gemini", "m", None, env=KEYS) == "provider/unknown"
    assert code_of("openai", None, None, env=KEYS) == "provider/no-model"
    assert code_of("openai-compatible", "m", None, env=KEYS) == "provider/no-base-url"
    assert code_of("vllm", "m", "ftp://x", env={}) == "provider/invalid-base-url"
    for name in ("anthropic", "openai", "openai-chat", "openrouter", "together"):
        assert code_of(name, "m", None, env={}) == "provider/no-api-key"
        assert code_of(name, "m", None, env={PRESETS[name].key_env or "": "  "}) == (
            "provider/no-api-key"
        )


def test_missing_key_message_names_the_variable_not_a_value() -> None:
    with pytest.raises(ProviderError) as caught:
        build_provider("openrouter", "m", None, env={"OPENAI_API_KEY": "sk-SENTINEL-o"})
    assert "OPENROUTER_API_KEY" in caught.value.message
    assert caught.value.hint is not None and "environment" in caught.value.hint


@pytest.mark.parametrize(
    ("name", "endpoint"),
    [
        ("anthropic", "https://api.anthropic.com/v1/messages"),
        ("openai", "https://api.openai.com/v1/responses"),
        ("openai-chat", "https://api.openai.com/v1/chat/completions"),
        ("openrouter", "https://openrouter.ai/api/v1/chat/completions"),
        ("together", "https://api.together.xyz/v1/chat/completions"),
        ("vllm", "http://127.0.0.1:8000/v1/chat/completions"),
        ("ollama", "http://127.0.0.1:11434/v1/chat/completions"),
    ],
)
def test_preset_endpoints(name: str, endpoint: str) -> None:
    provider = build_provider(name, "m", None, env=KEYS)
    assert provider.identity.endpoint == endpoint
    assert provider.identity.name == name and provider.identity.model == "m"
    assert not provider.identity.is_baseline


def test_fingerprint_ignores_the_key_value_and_tracks_options() -> None:
    def fingerprint(env: dict[str, str], **kwargs: object) -> str | None:
        args: dict[str, object] = {"model": "m", "base_url": None, "base_url_source": "flag"}
        args.update(kwargs)
        provider = build_provider("openai-chat", env=env, **args)  # type: ignore[arg-type]
        return provider.identity.request_fingerprint

    one = fingerprint({"OPENAI_API_KEY": "sk-one"})
    assert one is not None and len(one) == 64
    assert fingerprint({"OPENAI_API_KEY": "sk-two"}) == one
    assert fingerprint({"OPENAI_API_KEY": "sk-one"}, model="n") != one
    assert fingerprint({"OPENAI_API_KEY": "sk-one"}, base_url="http://127.0.0.1:9/v1") != one
    assert fingerprint({"OPENAI_API_KEY": "sk-one"}, max_output_tokens=64) != one
    assert "sk-one" not in repr(build_provider("openai-chat", "m", None, env=KEYS).identity)


def test_base_url_override_and_redaction() -> None:
    provider = build_provider(
        "openai-compatible", "m", "https://llm.example/v1/?api_key=abc123", env={}
    )
    assert provider.identity.endpoint is not None
    assert "abc123" not in provider.identity.endpoint
    assert provider.identity.endpoint.startswith("https://llm.example/v1/")


@pytest.mark.parametrize(
    "url", ["https://user:pw@llm.example/v1", "http://token@127.0.0.1:9/v1", "https://:pw@h/v1"]
)
def test_credentials_in_a_base_url_are_refused(url: str) -> None:
    """httpx would send user:password@ as Basic auth with every prompt: refused, redacted."""
    with pytest.raises(ProviderError) as caught:
        build_provider("openai-compatible", "m", url, env={})
    assert caught.value.code == "provider/credentials-in-base-url"
    assert "pw" not in caught.value.message and "token" not in caught.value.message


def test_offline_providers() -> None:
    mock = build_provider("mock", None, None, env={})
    assert (mock.identity.model, mock.identity.endpoint, mock.identity.request_fingerprint) == (
        "mock-1",
        None,
        None,
    )
    keyword = build_provider("keyword", None, None, env={})
    assert keyword.identity.is_baseline
    assert keyword.identity.endpoint is None
    assert keyword.identity.request_fingerprint is not None


def test_proxies_from_the_environment_only_for_remote_endpoints() -> None:
    local = build_provider("vllm", "m", None, env={})
    remote = build_provider("openai-chat", "m", None, env=KEYS)
    assert local.poster._trust_env is False  # type: ignore[attr-defined]
    assert remote.poster._trust_env is True  # type: ignore[attr-defined]
