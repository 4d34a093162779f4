"""Which Authorization header an HTTP target may receive, and the URL checks around it.

The environment credential goes only to the exact origin the user named beside it, and any
Authorization header (environment or config) only over HTTPS or to a loopback host, so a token
cannot be sent in clear text across a network or to a server it was not meant for.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_url, url_has_credential_parts

AUTH_ENV = "WHICHTOOL_HTTP_AUTHORIZATION"
ORIGIN_ENV = "WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN"
_DEFAULT_PORTS = {"http": 80, "https": 443}


def url_origin(url: str) -> str | None:
    """``scheme://host[:port]`` in canonical form (lower case, default port dropped), or None."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    shown_host = f"[{host}]" if ":" in host else host
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown_host}"
    return f"{scheme}://{shown_host}:{port}"


def is_loopback_host(host: str | None) -> bool:
    """True for ``localhost``, ``::1`` and ``127.x.x.x``: traffic that never leaves the machine."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_http_url(url: str) -> None:
    """Refuse anything that is not an absolute http(s) URL, or one carrying ``user:pass@``,
    before any connection is tried (userinfo would become a Basic credential in clear text)."""
    if url_origin(url) is None:
        raise WhichtoolError(
            "target/invalid-url",
            f"Not an http(s) URL: {redact_url(url)}",
            "Give the endpoint as http://host:port/path or https://host/path.",
        )
    parts = urlsplit(url.strip())
    if parts.username is not None or parts.password is not None:
        raise WhichtoolError(
            "target/credential-in-url",
            f"Refusing a target URL with a user name or password in it: {redact_url(url)}",
            f"Remove the user:password@ part; put the credential in {AUTH_ENV} (with "
            f"{ORIGIN_ENV} set to the target's origin).",
        )


# Header names that carry a credential: they follow the same HTTPS-or-loopback rule as
# Authorization, whether the config names them exactly or by a telling word.
_CREDENTIAL_HEADER_WORDS = ("auth", "cookie", "key", "token", "secret", "session", "password")


def is_credential_header(name: str) -> bool:
    """True for Authorization, Cookie, X-Api-Key and any header named like a secret."""
    lowered = name.lower()
    return any(word in lowered for word in _CREDENTIAL_HEADER_WORDS)


def _configured_origin(raw: str) -> str:
    try:
        parts = urlsplit(raw.strip())
    except ValueError:
        parts = None
    origin = url_origin(raw)
    if (
        parts is None
        or origin is None
        or parts.username is not None
        or parts.password is not None
        or parts.query
        or parts.fragment
        or parts.path not in ("", "/")
    ):
        raise WhichtoolError(
            "http/invalid-authorization-origin",
            f"{ORIGIN_ENV} is not an origin: {redact_url(raw)}",
            f"Set {ORIGIN_ENV} to the scheme, host and port only, e.g. https://mcp.example.com",
        )
    return origin


def _describe_headers(names: list[str]) -> str:
    if [name.lower() for name in names] == ["authorization"]:
        return "an Authorization header"
    return f"the {', '.join(names)} header" + ("s" if len(names) > 1 else "")


def authorization_headers(
    url: str,
    config_headers: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The headers to send to ``url``: config headers, plus the env credential when allowed.

    An explicit config ``Authorization`` wins over the environment. Raises a named error when
    the environment credential is set without a matching origin, or when any Authorization
    would travel over plain HTTP to a host that is not loopback.
    """
    env = os.environ if environ is None else environ
    headers = dict(config_headers or {})
    has_explicit = any(name.lower() == "authorization" for name in headers)
    credential = env.get(AUTH_ENV)
    if credential and not has_explicit:
        raw_origin = env.get(ORIGIN_ENV)
        if not raw_origin:
            raise WhichtoolError(
                "http/authorization-origin-required",
                f"{AUTH_ENV} is set but {ORIGIN_ENV} is not",
                f"Set {ORIGIN_ENV} to the exact origin the credential is for (scheme, host "
                "and port, e.g. https://mcp.example.com); it is never sent anywhere else.",
            )
        allowed = _configured_origin(raw_origin)
        target = url_origin(url)
        if allowed != target:
            raise WhichtoolError(
                "http/authorization-origin-mismatch",
                f"{ORIGIN_ENV} ({allowed}) does not match the target origin "
                f"({target or 'not an http(s) URL'})",
                f"Unset {AUTH_ENV} for this target, or set {ORIGIN_ENV} to its exact origin.",
            )
        headers["Authorization"] = credential
    secret_names = sorted(name for name in headers if is_credential_header(name))
    if secret_names:
        parts = urlsplit(url)
        if parts.scheme.lower() != "https" and not is_loopback_host(parts.hostname):
            raise WhichtoolError(
                "http/insecure-authorization-target",
                f"Refusing to send {_describe_headers(secret_names)} over plain HTTP to "
                f"{redact_url(url)}",
                "Use https://, or a loopback address (localhost, 127.0.0.1, ::1) for local tests.",
            )
    return headers


def credential_in_url_warning(url: str) -> Diagnostic | None:
    """A warning when the URL itself seems to carry a secret (userinfo, query, token segment)."""
    if not url_has_credential_parts(url):
        return None
    return Diagnostic(
        code="http/credential-in-url",
        severity="warning",
        message=f"The target URL may carry a credential: {redact_url(url)}",
        hint=f"Put secrets in {AUTH_ENV} (with {ORIGIN_ENV}) instead of the URL; URLs end up "
        "in shell history and logs.",
    )
