"""Where a provider key may be sent: one rule shared by run, tasks generate, bout seats and the
MCP server, so a key never follows a base URL it was not meant for.

Two checks, run by ``factory.route_provider`` (the only caller) on every planned request:

* a vendor key (OpenAI, Anthropic, OpenRouter, Together) goes only to its vendor's host, unless
  a person typed the base URL for this invocation (``--base-url``, a bout's ``--seat-endpoint``,
  a TUI field they edited: sources ``flag`` and ``form``); a config file (discovered or passed)
  and an agent's arguments cannot redirect it;
* any key goes only over HTTPS or to a loopback host, unless the user opted in with
  ``--allow-http-provider`` for a plain-HTTP host on a private network.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from whichtool_tui.mcp_client.auth import is_loopback_host
from whichtool_tui.provenance import Source, is_typed
from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.presets import ENDPOINT_PATHS, Preset
from whichtool_tui.redact import redact_url

# Where a base URL came from: one of the request sources (``whichtool_tui.provenance``).
BaseUrlSource = Source

ALLOW_HTTP_FLAG = "--allow-http-provider"
# Name suffixes that only resolve on a private network (RFC 6762, RFC 8375, common LAN names).
_PRIVATE_SUFFIXES = (".local", ".lan", ".internal", ".home.arpa", ".localdomain", ".intranet")


# How to proceed when an untyped base URL would take a vendor key elsewhere, by its source.
_REDIRECT_HINTS: dict[Source, str] = {
    "config": "A config file cannot redirect a vendor key; type the URL (pass --base-url, or "
    "edit the base URL field in the TUI) if you mean it.",
    "agent": "An agent cannot redirect a vendor key; the operator's command line decides where "
    "keys go.",
}


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
    if is_vendor_key(preset) and not is_typed(source):
        vendor_host = urlsplit(preset.base_url or "").hostname
        if (host or "").lower() != vendor_host:
            raise ProviderError(
                "provider/key-host-mismatch",
                f"Refusing to send {preset.key_env} to {shown}: the {preset.name} key goes "
                f"only to {vendor_host}",
                _REDIRECT_HINTS.get(source, _REDIRECT_HINTS["config"]),
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
