"""Name rules: look-alike names, generic names, name subjects the description never mentions,
and a naming convention that breaks from the rest of the surface."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import DESTRUCTIVE_VERBS, MUTATE_VERBS, READ_VERBS, name_tokens
from whichtool_tui.surface.overlap import STOPWORDS
from whichtool_tui.surface.rule_catalog import RULES
from whichtool_tui.surface.rule_text import mentions, text_words

GENERIC_WORDS = frozenset(
    [
        "action",
        "actions",
        "api",
        "call",
        "cmd",
        "command",
        "data",
        "default",
        "do",
        "exec",
        "execute",
        "fn",
        "foo",
        "func",
        "function",
        "general",
        "generic",
        "go",
        "handle",
        "handler",
        "helper",
        "invoke",
        "it",
        "main",
        "manage",
        "manager",
        "method",
        "misc",
        "my",
        "op",
        "operation",
        "perform",
        "process",
        "request",
        "run",
        "service",
        "something",
        "stuff",
        "task",
        "thing",
        "tool",
        "tools",
        "util",
        "utility",
        "utils",
    ]
)
KNOWN_VERBS = READ_VERBS | MUTATE_VERBS | DESTRUCTIVE_VERBS
# A token in at least this share of names (on 3+ tools) is a namespace such as `git_`.
NAMESPACE_SHARE = 0.5


def _hint(code: str) -> str:
    return RULES[code].help


def _singular(token: str) -> str:
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def same_words(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Names that differ only in case, separators, word order or a plural read as one name."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for tool in surface.tools:
        key = tuple(sorted(_singular(token) for token in name_tokens(tool.name)))
        if key:
            groups.setdefault(key, []).append(tool.name)
    found = []
    for key, names in groups.items():
        for position, first in enumerate(names):
            for second in names[position + 1 :]:
                found.append(
                    Diagnostic(
                        code="names/same-words",
                        severity="warning",
                        message=(
                            f"`{first}` and `{second}` reduce to the same words "
                            f"({' '.join(key)}); a model cannot tell them apart by name"
                        ),
                        tools=[first, second],
                        detail={"words": list(key)},
                        hint=_hint("names/same-words"),
                    )
                )
    return found


def generic_names(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """A name built only from words like run, do, tool or handle says nothing about the task."""
    found = []
    for tool in surface.tools:
        words = [token for token in name_tokens(tool.name) if not token.isdigit()]
        if words and all(word in GENERIC_WORDS for word in words):
            found.append(
                Diagnostic(
                    code="names/generic",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}` is named only with generic words "
                        f"({', '.join(words)}); the name does not say what it acts on"
                    ),
                    tool=tool.name,
                    hint=_hint("names/generic"),
                )
            )
    return found


def namespace_tokens(tools: Sequence[Tool]) -> frozenset[str]:
    """Tokens shared by most names (a server prefix like `git`): not a subject of any one tool."""
    if len(tools) < 3:
        return frozenset()
    counts: Counter[str] = Counter()
    for tool in tools:
        counts.update(set(name_tokens(tool.name)))
    return frozenset(token for token, n in counts.items() if n >= NAMESPACE_SHARE * len(tools))


def name_subjects(name: str, namespace: frozenset[str]) -> list[str]:
    """The words of a name that say what it acts on (not the verb, namespace or filler)."""
    tokens = [
        token
        for token in name_tokens(name)
        if token not in namespace and not token.isdigit() and len(token) > 1
    ]
    if tokens and tokens[0] not in KNOWN_VERBS:
        tokens = tokens[1:]  # no known verb leads: the first word is the action (echo, commit)
    return [
        token
        for token in tokens
        if token not in KNOWN_VERBS and token not in STOPWORDS and token not in GENERIC_WORDS
    ]


def subject_not_in_description(
    surface: NormalizedSurface, options: CheckOptions
) -> list[Diagnostic]:
    """A name promising a subject the description never talks about misleads the reader."""
    namespace = namespace_tokens(surface.tools)
    found = []
    for tool in surface.tools:
        if not tool.description_text.strip():
            continue  # descriptions/missing already says it
        words = text_words(tool.description_text)
        missing = [s for s in name_subjects(tool.name, namespace) if not mentions(s, words)]
        if missing:
            quoted = ", ".join(f"`{word}`" for word in missing)
            found.append(
                Diagnostic(
                    code="names/subject-not-in-description",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}`: the name says {quoted} but the description never "
                        "mentions it"
                    ),
                    tool=tool.name,
                    detail={"subjects": missing},
                    hint=_hint("names/subject-not-in-description"),
                )
            )
    return found


def naming_convention(name: str) -> str | None:
    """snake_case, kebab-case, camelCase, PascalCase or dotted; None for one lowercase word."""
    if "." in name:
        return "dotted"
    if "-" in name and "_" in name:
        return "mixed separators"
    if "-" in name:
        return "kebab-case"
    if "_" in name:
        return "snake_case"
    if not any(char.isupper() for char in name):
        return None
    return "PascalCase" if name[:1].isupper() else "camelCase"


def mixed_conventions(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """Names outside the surface's main convention look like they belong to another server."""
    conventions = {tool.name: naming_convention(tool.name) for tool in surface.tools}
    counts = Counter(value for value in conventions.values() if value is not None)
    if len(counts) < 2:
        return []
    first_seen: dict[str, int] = {}
    for tool in sorted(surface.tools, key=lambda t: t.served_index):
        convention = conventions[tool.name]
        if convention is not None:
            first_seen.setdefault(convention, tool.served_index)
    main = max(counts, key=lambda value: (counts[value], -first_seen[value]))
    found = []
    for tool in surface.tools:
        convention = conventions[tool.name]
        if convention is None or convention == main:
            continue
        found.append(
            Diagnostic(
                code="names/mixed-conventions",
                severity="info",
                message=(
                    f"Tool `{tool.name}` is {convention} while {counts[main]} of the "
                    f"{len(surface.tools)} tools are {main}"
                ),
                tool=tool.name,
                detail={"convention": convention, "main": main, "counts": dict(counts)},
                hint=_hint("names/mixed-conventions"),
            )
        )
    return found


# These read only names, descriptions and served indexes, but stay in the main process: with
# them the overlap helper finished last at 1,000 tools (text_only moves a rule there).
register_check("names/same-words", same_words)
register_check("names/generic", generic_names)
register_check("names/subject-not-in-description", subject_not_in_description)
register_check("names/mixed-conventions", mixed_conventions)
