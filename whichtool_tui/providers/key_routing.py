"""Where a provider key may be sent: one rule shared by run, tasks generate, bout seats and the
MCP server, so a key never follows a base URL it was not meant for.

Three checks, in order:

* a configured ``provider.baseUrl`` belongs to the provider it was written beside; naming another
  provider drops it (the preset's own URL is used);
* a vendor key (OpenAI, Anthropic, OpenRouter, Together) goes only to its vendor's host, unless
  the base URL was typed on the command line (``--base-url``, a bout's ``--seat-endpoint``);
  a discovered or passed config file cannot redirect it;
* any key goes only over HTTPS or to a loopback host, unless the user opted in with
  ``--allow-http-provider`` for a plain-HTTP host on a private network.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from whichtool_tui.mcp_client.auth import is_loopback_host
from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.presets import ENDPOINT_PATHS, PRESETS, Preset
from whichtool_tui.redact import redact_url

if TYPE_CHECKING:
    from whichtool_tui.config import ProviderConfig

# Where a base URL came from: the preset table, the command line (or a form the user typed
# in), or a config file.
BaseUrlSource = Literal["preset", "flag", "config"]

ALLOW_HTTP_FLAG = "--allow-http-provider"
# Name suffixes that only resolve on a private network (RFC 6762, RFC 8375, common LAN names).
_PRIVATE_SUFFIXES = (".local", ".lan", ".internal", ".home.arpa", ".localdomain", ".intranet")


@dataclass(frozen=True)
class ChosenBaseUrl:
    """A base URL and where it came from (None when neither flag, config nor preset has one)."""

    url: str | None
    source: BaseUrlSource


def choose_base_url(
    name: str | None, flag_url: str | None, configured: ProviderConfig | None
) -> ChosenBaseUrl:
    """Flag, else the config's ``baseUrl`` only when the config names this provider, else preset."""
    if flag_url:
        return ChosenBaseUrl(flag_url, "flag")
    if configured is not None and configured.base_url and configured.name == name:
        return ChosenBaseUrl(configured.base_url, "config")
    preset = PRESETS.get(name or "")
    return ChosenBaseUrl(preset.base_url if preset else None, "preset")


def is_vendor_key(preset: Preset) -> bool:
    """True when the preset's key belongs to a hosted vendor (its default URL is remote HTTPS)."""
    if preset.key_env is None or preset.base_url is None:
        return False
    return not is_loopback_host(urlsplit(preset.base_url).hostname)


def is_private_host(host: str | None) -> bool:
    """A host that can only be on a private network: RFC 1918/4193/link-local, or a LAN name."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        name = host.lower().rstrip(".")
        return "." not in name or name.endswith(_PRIVATE_SUFFIXES)
    return address.is_private or address.is_link_local


def endpoint_url(preset: Preset, base_url: str) -> str:
    """The exact URL requests of this preset are posted to."""
    return base_url.rstrip("/") + ENDPOINT_PATHS[preset.api]


def check_key_destination(
    preset: Preset, base_url: str, source: BaseUrlSource, *, allow_http: bool = False
) -> None:
    """Raise a named ProviderError when the preset's key may not be sent to ``base_url``."""
    parts = urlsplit(base_url)
    host = parts.hostname
    shown = redact_url(base_url)
    if is_vendor_key(preset) and source != "flag":
        vendor_host = urlsplit(preset.base_url or "").hostname
        if (host or "").lower() != vendor_host:
            raise ProviderError(
                "provider/key-host-mismatch",
                f"Refusing to send {preset.key_env} to {shown}: the {preset.name} key goes "
                f"only to {vendor_host}",
                "A config file cannot redirect a vendor key; pass --base-url on the command "
                "line if you mean it.",
            )
    if parts.scheme.lower() == "https" or is_loopback_host(host):
        return
    if allow_http and is_private_host(host):
        return
    if allow_http:
        raise ProviderError(
            "provider/insecure-key-target",
            f"Refusing to send {preset.key_env} over plain HTTP to {shown}: "
            f"{ALLOW_HTTP_FLAG} covers private-network hosts only",
            "Use https:// for a host on the internet.",
        )
    raise ProviderError(
        "provider/insecure-key-target",
        f"Refusing to send {preset.key_env} over plain HTTP to {shown}",
        f"Use https://, a loopback address (127.0.0.1, ::1, localhost), or pass "
        f"{ALLOW_HTTP_FLAG} for a plain-HTTP host on your private network.",
    )


def describe_destination(name: str, endpoint: str | None, sent_key_env: str | None) -> str:
    """One line saying where requests, and the key if any, will go (printed before spending)."""
    if endpoint is None:
        return f"provider {name}: offline, no network requests"
    if sent_key_env is None:
        return f"provider {name}: requests go to {endpoint} (no key is sent)"
    return f"provider {name}: requests and {sent_key_env} go to {endpoint}"
