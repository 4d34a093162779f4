"""Keep secrets and machine details out of everything we print or write.

URLs lose credentials (userinfo, query values, fragments, token-like path segments), local paths
are shortened to ``./`` and ``~/``, and untrusted text has control, bidi and separator characters
escaped so a server cannot repaint the user's terminal.
"""

from __future__ import annotations

import os
import re
from urllib.parse import SplitResult, urlsplit, urlunsplit

# Controls, bidi marks, line/paragraph separators, zero-width characters and Unicode tags
# (invisible text a model reads and a person does not see).
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
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


def sanitize_text(text: str) -> str:
    """Escape C0/C1 controls, bidi marks, line/paragraph separators, zero-width characters and
    Unicode tags as visible sequences."""

    def escape(match: re.Match[str]) -> str:
        char = match.group(0)
        if char == "\n":
            return "\\n"
        code = ord(char)
        if code < 0x100:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

    return _CONTROL.sub(escape, text)


def strip_controls(text: str) -> str:
    """Drop the characters sanitize_text escapes (whitespace ones become a space): for names
    that must read the same in every viewer, such as JUnit test names."""
    return _CONTROL.sub(lambda match: " " if match.group(0) in "\t\n\r" else "", text)


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
    """Mask credential-looking command-line arguments: a known key prefix (``sk-…``), or the
    value after a flag named like a secret (``--api-key X``, ``--token=X``)."""
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
            shown.append(argument)
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


_URL_IN_TEXT = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>`]+")


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


def redact_message(text: str) -> str:
    """Prepare any message for output (stderr, toasts, titles): secrets after secret-named flags
    and key-shaped words masked, URLs redacted, paths shortened, controls escaped."""
    text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), redact_secret_words(text))
    return sanitize_text(redact_paths(text))
