"""The provider table: default base URL, key variable and API shape of every HTTP preset."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from whichtool_tui.providers.base import Capabilities

ApiShape = Literal["messages", "responses", "chat"]
# The path each API shape posts to, below the base URL.
ENDPOINT_PATHS: dict[ApiShape, str] = {
    "messages": "/v1/messages",
    "responses": "/responses",
    "chat": "/chat/completions",
}

# Anthropic's Messages API gets no temperature, seed or reasoning effort from us.
MESSAGES_CAPABILITIES = Capabilities()
RESPONSES_CAPABILITIES = Capabilities(
    temperature_zero=True, temperature=True, reasoning_effort=True
)
CHAT_CAPABILITIES = Capabilities(
    seed=True, temperature_zero=True, temperature=True, reasoning_effort=True
)
# The ollama preset never forwards a reasoning effort.
OLLAMA_CAPABILITIES = Capabilities(seed=True, temperature_zero=True, temperature=True)


@dataclass(frozen=True)
class Preset:
    """One named back-end: where it lives, which env variable holds its key, which API it speaks."""

    name: str
    base_url: str | None
    key_env: str | None
    key_required: bool
    api: ApiShape
    capabilities: Capabilities


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "anthropic",
            "https://api.anthropic.com",
            "ANTHROPIC_API_KEY",
            True,
            "messages",
            MESSAGES_CAPABILITIES,
        ),
        Preset(
            "openai",
            "https://api.openai.com/v1",
            "OPENAI_API_KEY",
            True,
            "responses",
            RESPONSES_CAPABILITIES,
        ),
        Preset(
            "openai-chat",
            "https://api.openai.com/v1",
            "OPENAI_API_KEY",
            True,
            "chat",
            CHAT_CAPABILITIES,
        ),
        Preset(
            "openrouter",
            "https://openrouter.ai/api/v1",
            "OPENROUTER_API_KEY",
            True,
            "chat",
            CHAT_CAPABILITIES,
        ),
        Preset(
            "together",
            "https://api.together.xyz/v1",
            "TOGETHER_API_KEY",
            True,
            "chat",
            CHAT_CAPABILITIES,
        ),
        Preset("vllm", "http://127.0.0.1:8000/v1", None, False, "chat", CHAT_CAPABILITIES),
        Preset("ollama", "http://127.0.0.1:11434/v1", None, False, "chat", OLLAMA_CAPABILITIES),
        Preset(
            "openai-compatible",
            None,
            "WHICHTOOL_PROVIDER_API_KEY",
            False,
            "chat",
            CHAT_CAPABILITIES,
        ),
    )
}

OFFLINE_PROVIDERS = ("embedding", "keyword", "mock")
# Offline pickers reported as baselines, never as models.
BASELINE_PROVIDERS = ("embedding", "keyword")
PROVIDER_NAMES: tuple[str, ...] = tuple(sorted((*PRESETS, *OFFLINE_PROVIDERS)))
# Every environment variable that may hold a provider key: scanned by secrets tests and redaction.
KEY_ENV_NAMES: tuple[str, ...] = tuple(
    sorted({p.key_env for p in PRESETS.values() if p.key_env is not None})
)
