"""Keep secrets and machine details out of everything we print or write.

URLs lose credentials (userinfo, query values, fragments, token-like path segments), secrets in
command lines and ``key=value`` / ``key: value`` text are masked, and local paths are shortened
to ``./`` and ``~/``. ``text_safety.redact_message`` applies all of it on the way out.
"""

from __future__ import annotations

import os
import re
from urllib.parse import SplitResult, urlsplit, urlunsplit

_TOKEN_SEGMENT = re.compile(r"^[A-Za-z0-9._~-]{16,}$")
_CREDENTIAL_PREFIXES = (
    "sk-",
    "sk_",
    "pk_",
    "rk_",
    "ghp_",
    "gho_",
    "github_pat_",
    "xox",
    "token_",
    "key_",
    "api_",
    "apikey",
    "secret",
    "bearer",
)
_CREDENTIAL_QUERY_NAMES = re.compile(
    r"(key|token|secret|password|passwd|pwd|auth|signature|sig|credential|session)", re.IGNORECASE
)


def is_token_like(segment: str) -> bool:
    """True for a credential-looking string: a known key prefix, or long letters+digits."""
    if _has_credential_prefix(segment):
        return True
    return bool(
        _TOKEN_SEGMENT.match(segment)
        and any(c.isalpha() for c in segment)
        and any(c.isdigit() for c in segment)
    )


def _has_credential_prefix(value: str) -> bool:
    return len(value) >= 12 and value.lower().startswith(_CREDENTIAL_PREFIXES)


_SECRET_FLAG_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "bearer",
    }
)


def _is_secret_flag(name: str) -> bool:
    words = re.split(r"[-_.]+", name.lstrip("-").lower())
    return name.startswith("-") and any(word in _SECRET_FLAG_WORDS for word in words)


def redact_command_args(argv: list[str]) -> list[str]:
    """Mask credential-looking command-line arguments: a known key prefix (``sk-…``), the value
    after a flag named like a secret (``--api-key X``, ``--token=X``), and a secret pair inside
    an argument (``--header 'Authorization: Bearer …'``, ``PASSWORD=…``)."""
    shown: list[str] = []
    secret_flag_before = False
    for argument in argv:
        name, equals, value = argument.partition("=")
        if secret_flag_before or _has_credential_prefix(argument):
            shown.append("***")
        elif (
            equals
            and name.startswith("-")
            and (_is_secret_flag(name) or _has_credential_prefix(value))
        ):
            shown.append(f"{name}=***")
        else:
            shown.append(redact_secret_pairs(argument))
        secret_flag_before = not equals and _is_secret_flag(argument)
    return shown


def redact_url(url: str) -> str:
    """Return ``url`` with userinfo, query values, fragment and token-like path segments hidden."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return "(invalid URL)"
    if not parts.scheme or not host:
        return "(invalid URL)"
    netloc = host if ":" not in host else f"[{host}]"
    if port is not None:
        netloc = f"{netloc}:{port}"
    if parts.username is not None or parts.password is not None:
        netloc = f"***@{netloc}"
    path = "/".join("***" if is_token_like(seg) else seg for seg in parts.path.split("/"))
    query_items = []
    for item in parts.query.split("&") if parts.query else []:
        name, _, _value = item.partition("=")
        shown = "redacted" if _CREDENTIAL_QUERY_NAMES.search(name) else "***"
        query_items.append(f"{name}={shown}")
    fragment = "***" if parts.fragment else ""
    return urlunsplit(SplitResult(parts.scheme, netloc, path, "&".join(query_items), fragment))


def url_has_credential_parts(url: str) -> bool:
    """True when a URL carries userinfo, a query, a fragment or a token-like path segment."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.username or parts.password or parts.query or parts.fragment:
        return True
    return any(
        len(seg) >= 16 and re.fullmatch(r"[A-Za-z0-9_-]+", seg) and any(c.isdigit() for c in seg)
        for seg in parts.path.split("/")
    )


def redact_paths(text: str) -> str:
    """Shorten the working directory to ``./`` and the home directory to ``~/`` inside ``text``."""
    cwd = os.getcwd().rstrip(os.sep)
    if cwd and cwd != os.sep:
        text = text.replace(cwd + os.sep, "." + os.sep).replace(cwd, ".")
    home = os.path.expanduser("~").rstrip(os.sep)
    if home and home != os.sep and home != "~":
        text = text.replace(home + os.sep, "~" + os.sep)
    return text


# Prefixes that mark a word in free text as a credential even without a flag before it.
_STRONG_PREFIXES = ("sk-", "sk_", "ghp_", "gho_", "github_pat_", "xoxb-", "xoxp-")
_WORDS = re.compile(r"(\s+)")


def redact_secret_words(text: str) -> str:
    """Mask what a command line carries in free text: ``--api-key X``, ``--token=X``, ``sk-…``."""
    pieces = _WORDS.split(text)
    words = pieces[0::2]
    shown = redact_command_args(words)
    for index, (before, after) in enumerate(zip(words, shown, strict=True)):
        # In prose only the flag rule and unmistakable key prefixes apply ("secret" is a word).
        if after == "***" and index and _is_secret_flag(words[index - 1]):
            continue
        if after == "***" and not (before.startswith(_STRONG_PREFIXES) and len(before) >= 12):
            shown[index] = before
    pieces[0::2] = shown
    return "".join(pieces)


# Names whose value is a secret in ``name=value`` and ``name: value`` text, alone or as the
# last word of a longer name (``DB_PASSWORD``, ``client_secret``, ``access-token``).
_PAIR_NAMES = r"password|passwd|secret|token|api[-_]?key|x-api-key|authorization|cookie"
# Authorization and Cookie values run to the end of the line ("Bearer abc", "a=1; b=2").
_SECRET_PAIR = re.compile(
    rf"(?<![A-Za-z0-9])((?:[A-Za-z0-9]+[-_])*(?:{_PAIR_NAMES})(?![A-Za-z0-9])[\"']?\s*[=:]\s*)"
    r"(?:(\"[^\"\n]*\"|'[^'\n]*')|([^\s\"',;&}]+))",
    re.IGNORECASE,
)
_LINE_VALUE_NAMES = frozenset({"authorization", "cookie"})
_LINE_REST = re.compile(r"[^\r\n\"'`]*")


def redact_secret_text(text: str) -> str:
    """Free text with its secrets masked (pairs, secret-named flags, key-shaped words) but
    nothing else changed: for outside text kept in a file, such as a server's stderr."""
    return redact_secret_words(redact_secret_pairs(text))


def redact_secret_pairs(text: str) -> str:
    """Mask the value of every secret-named pair: ``password=x``, ``Authorization: Bearer x``,
    ``"token": "x"``, ``X-Api-Key=x`` (an already masked ``***`` stays as it is)."""
    if not _HAS_PAIR_NAME.search(text):
        return text
    out: list[str] = []
    position = 0
    for match in _SECRET_PAIR.finditer(text):
        if match.start() < position:
            continue
        lead = match.group(1)
        quoted = match.group(2)
        out.append(text[position : match.start()])
        end = match.end()
        if quoted:
            out.append(f"{lead}{quoted[0]}***{quoted[0]}")
        else:
            name = lead.rstrip(" \t=:\"'")
            if re.split(r"[-_]", name)[-1].lower() in _LINE_VALUE_NAMES:
                rest = _LINE_REST.match(text, end)
                end = rest.end() if rest else end
            out.append(f"{lead}***")
        position = end
    out.append(text[position:])
    return "".join(out)


_HAS_PAIR_NAME = re.compile(rf"(?:{_PAIR_NAMES})", re.IGNORECASE)
