"""What a tool's name says it does: name tokens and read / mutate / destructive semantics.

Annotation checks compare these semantics with the declared hints, and the overlap check
scores names by the same tokens, so both read them from here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

NameSemantics = Literal["read", "mutate", "destructive", "unknown"]

READ_VERBS = frozenset(
    [
        "browse",
        "check",
        "compare",
        "count",
        "describe",
        "diff",
        "download",
        "exists",
        "explain",
        "export",
        "fetch",
        "find",
        "get",
        "has",
        "head",
        "inspect",
        "list",
        "lookup",
        "peek",
        "preview",
        "query",
        "read",
        "resolve",
        "retrieve",
        "search",
        "show",
        "stat",
        "summarize",
        "validate",
        "view",
    ]
)
MUTATE_VERBS = frozenset(
    [
        "add",
        "apply",
        "approve",
        "archive",
        "assign",
        "cancel",
        "charge",
        "close",
        "copy",
        "create",
        "disable",
        "edit",
        "enable",
        "execute",
        "generate",
        "grant",
        "import",
        "insert",
        "install",
        "invite",
        "invoke",
        "lock",
        "mark",
        "merge",
        "move",
        "open",
        "patch",
        "pay",
        "post",
        "publish",
        "put",
        "refresh",
        "refund",
        "register",
        "reject",
        "rename",
        "reset",
        "restart",
        "restore",
        "revoke",
        "rotate",
        "run",
        "schedule",
        "send",
        "set",
        "start",
        "stop",
        "submit",
        "sync",
        "toggle",
        "transfer",
        "trigger",
        "uninstall",
        "unlock",
        "update",
        "upload",
        "upsert",
        "write",
    ]
)
DESTRUCTIVE_VERBS = frozenset(
    [
        "clear",
        "delete",
        "destroy",
        "drop",
        "erase",
        "kill",
        "overwrite",
        "prune",
        "purge",
        "remove",
        "reset",
        "revoke",
        "terminate",
        "truncate",
        "uninstall",
        "wipe",
    ]
)

_LOWER_THEN_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM_THEN_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")


@lru_cache(maxsize=65536)  # a registry-sized surface: its names and parameters
def name_tokens(name: str) -> tuple[str, ...]:
    """Split camelCase, ACRONYMs and punctuation; lowercase (``getHTTPStatus``: get http status)."""
    spaced = _ACRONYM_THEN_WORD.sub(r"\1 \2", _LOWER_THEN_UPPER.sub(r"\1 \2", name))
    return tuple(part.lower() for part in _NON_ALNUM.split(spaced) if part)


def classify_name(name: str) -> tuple[NameSemantics, str | None]:
    """The semantics a reader infers from the name, and the verb that decided it.

    A leading verb decides first (destructive, then mutate, then read); otherwise any
    destructive token anywhere wins over any mutate token, which wins over any read token.
    """
    tokens = name_tokens(name)
    if tokens:
        leading = tokens[0]
        if leading in DESTRUCTIVE_VERBS:
            return "destructive", leading
        if leading in MUTATE_VERBS:
            return "mutate", leading
        if leading in READ_VERBS:
            return "read", leading
    for verbs, semantics in (
        (DESTRUCTIVE_VERBS, "destructive"),
        (MUTATE_VERBS, "mutate"),
        (READ_VERBS, "read"),
    ):
        for token in tokens:
            if token in verbs:
                return semantics, token  # type: ignore[return-value]
    return "unknown", None
