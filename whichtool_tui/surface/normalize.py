"""Bring a served ``tools/list`` into canonical form and hash it.

Normalising first means a server that reorders its registrations, re-wraps its line endings
or reorders schema keys does not look like a changed surface; the served position is kept
because position influences which tool a model picks.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from typing import Any, Literal
from urllib.parse import unquote

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.canonical import JS_WHITESPACE, canonical_json, utf16_key, utf16_sorted
from whichtool_tui.surface.model import JsonObject, NormalizedSurface, Tool

MAX_RESOLVED_NODES = 200_000
# Deeper than any real schema; keeps every recursive walk far from Python's recursion limit.
MAX_NESTING = 200
UnresolvedReason = Literal["external", "cycle", "missing", "too-large"]

_TRAILING_BLANKS = re.compile(r"[ \t]+(?=[\n\u2028\u2029]|\Z)")
_MANY_NEWLINES = re.compile(r"\n{3,}")
_DEFINITION_KEYS = ("$defs", "definitions")


def normalize_text(text: str) -> str:
    """NFC, LF line endings, no trailing blanks per line, at most one blank line, trimmed."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _MANY_NEWLINES.sub("\n\n", _TRAILING_BLANKS.sub("", text))
    return text.strip(JS_WHITESPACE)


def canonicalize_schema(value: Any) -> Any:
    """Sort object keys (UTF-16 order) and string-only ``required`` arrays; ``enum`` keeps order."""
    if isinstance(value, list):
        return [canonicalize_schema(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: JsonObject = {}
    for key in utf16_sorted(value):
        child = value[key]
        if key == "required" and isinstance(child, list) and all(isinstance(v, str) for v in child):
            out[key] = utf16_sorted(child)
        else:
            out[key] = canonicalize_schema(child)
    return out


def canonical_copy(value: Any) -> Any:
    """A parsed value as canonical JSON data: only what JSON can carry (non-finite numbers and
    other types become null, keys become strings), keys and ``required`` sorted as
    :func:`canonicalize_schema` sorts them, in one walk."""
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list | tuple):
        return [canonical_copy(item) for item in value]
    if not isinstance(value, dict):
        return None
    named = {str(key): child for key, child in value.items()}
    out: JsonObject = {}
    for key in utf16_sorted(named):
        child = named[key]
        if (
            key == "required"
            and isinstance(child, list | tuple)
            and all(isinstance(v, str) for v in child)
        ):
            out[key] = utf16_sorted(child)
        else:
            out[key] = canonical_copy(child)
    return out


def resolve_pointer(root: Any, pointer: str) -> tuple[bool, Any]:
    """Follow a ``#/a/b`` JSON Pointer inside ``root``; (False, None) when it does not resolve."""
    if pointer in ("", "#"):
        return True, root
    path = pointer[1:] if pointer.startswith("#") else pointer
    if not path.startswith("/"):
        return False, None
    current = root
    for raw_token in path[1:].split("/"):
        token = unquote(raw_token, errors="strict").replace("~1", "/").replace("~0", "~")
        if isinstance(current, list):
            if not token.isdigit() or int(token) >= len(current):
                return False, None
            current = current[int(token)]
        elif isinstance(current, dict) and token in current:
            current = current[token]
        else:
            return False, None
    return True, current


class _RefResolver:
    """Inline internal ``$ref``s of one schema, within a node budget, noting what stays open."""

    def __init__(self, root: JsonObject) -> None:
        self.root = root
        self.budget = MAX_RESOLVED_NODES
        self.exhausted = False
        self.stack: list[str] = []
        self.unresolved: list[tuple[str, UnresolvedReason]] = []

    def walk(self, node: Any) -> Any:
        if self.exhausted:
            return node
        self.budget -= 1
        if self.budget <= 0:
            self.exhausted = True
            self.unresolved.append(("*", "too-large"))
            return node
        if isinstance(node, list):
            return [self.walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return self.walk_object(node)
        if not ref.startswith("#"):
            self.unresolved.append((ref, "external"))
            return self.walk_object(node)
        if ref in self.stack:
            self.unresolved.append((ref, "cycle"))
            return self.walk_object(node)
        try:
            found, target = resolve_pointer(self.root, ref)
        except UnicodeDecodeError:
            found, target = False, None
        if not found:
            self.unresolved.append((ref, "missing"))
            return self.walk_object(node)
        self.stack.append(ref)
        resolved = self.walk(target)
        self.stack.pop()
        if isinstance(resolved, dict):
            siblings = {key: child for key, child in node.items() if key != "$ref"}
            return {**resolved, **self.walk_object(siblings)}
        return resolved

    def walk_object(self, node: JsonObject) -> JsonObject:
        return {
            key: child if key in _DEFINITION_KEYS else self.walk(child)
            for key, child in node.items()
        }


def _strip_definitions(value: Any) -> Any:
    if isinstance(value, list):
        return [_strip_definitions(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _strip_definitions(child)
        for key, child in value.items()
        if key not in _DEFINITION_KEYS
    }


def resolve_internal_refs(
    schema: JsonObject, canonical: str | None = None
) -> tuple[JsonObject, list[tuple[str, UnresolvedReason]]]:
    """The analysis view of a schema: refs inlined, definitions stripped only if all resolved.

    A canonical schema with no ``$ref`` and no definitions, small enough to stay inside the
    node budget, is its own analysis view (shared, not copied). ``canonical`` is the schema's
    canonical JSON when the caller already has it.
    """
    if _nothing_to_resolve(canonical_json(schema) if canonical is None else canonical):
        return schema, []
    resolver = _RefResolver(schema)
    resolved = resolver.walk(schema)
    if not isinstance(resolved, dict):
        resolved = {}
    unresolved = list(dict.fromkeys(resolver.unresolved))
    if not unresolved:
        resolved = _strip_definitions(resolved)
    return canonicalize_schema(resolved), unresolved


def _unresolved_diagnostics(
    tool: str, field: str, unresolved: list[tuple[str, UnresolvedReason]]
) -> list[Diagnostic]:
    found = []
    for ref, reason in unresolved:
        if reason == "too-large":
            message = (
                f"Tool `{tool}`: `{field}` grows past the inlining budget of "
                f"{MAX_RESOLVED_NODES:,} nodes; analysis reads the partly resolved schema"
            )
        else:
            message = f"Tool `{tool}`: `{field}` has a `$ref` left unresolved ({ref}: {reason})"
        found.append(
            Diagnostic(
                code=f"surface/unresolved-ref-{reason}",
                severity="warning" if reason == "too-large" else "info",
                message=message,
                tool=tool,
                detail={"field": field, "ref": ref, "reason": reason},
            )
        )
    return found


def _nothing_to_resolve(text: str) -> bool:
    """True when a canonical schema has no ``$ref`` or definitions key and under the budget.

    Read off its canonical JSON ``text``: every node starts at its own character, so a text
    shorter than the budget has fewer nodes; a key is always ``"name":``, which no string value
    can spell.
    """
    return (
        len(text) < MAX_RESOLVED_NODES
        and '"$ref":' not in text
        and '"$defs":' not in text
        and '"definitions":' not in text
    )


def _schema_or_none(value: Any) -> JsonObject | None:
    if not isinstance(value, dict):
        return None
    canonical = canonical_copy(value)
    assert isinstance(canonical, dict)
    return canonical


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply objects and arrays nest in ``value`` (iterative; stops counting past limit).

    A scalar counts one level below its container, so only containers are stacked and a
    non-empty one reaches one level deeper than itself.
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if not children:
            continue
        if depth >= deepest:
            deepest = depth + 1
            if deepest > limit:
                return deepest
        below = depth + 1
        stack.extend((child, below) for child in children if isinstance(child, dict | list))
    return deepest


def _normalize_entry(raw: JsonObject, name: str, index: int, notes: list[Diagnostic]) -> Tool:
    description: str | None = None
    raw_description = raw.get("description")
    if isinstance(raw_description, str):
        description = normalize_text(raw_description)
    elif "description" in raw:
        notes.append(
            Diagnostic(
                code="surface/non-string-description",
                severity="warning",
                message=f"Tool `{name}` has a non-string `description`; it counts as absent",
                tool=name,
            )
        )
    input_schema = _schema_or_none(raw.get("inputSchema"))
    if input_schema is None:
        problem = (
            "no `inputSchema`"
            if "inputSchema" not in raw
            else "an `inputSchema` that is not an object"
        )
        notes.append(
            Diagnostic(
                code="surface/missing-input-schema",
                severity="warning",
                message=f'Tool `{name}` has {problem}; `{{"type": "object"}}` was assumed',
                tool=name,
            )
        )
        input_schema = {"type": "object"}
    input_json = canonical_json(input_schema)
    input_resolved, unresolved = resolve_internal_refs(input_schema, input_json)
    notes.extend(_unresolved_diagnostics(name, "inputSchema", unresolved))
    output_schema = _schema_or_none(raw.get("outputSchema"))
    output_resolved = None
    if output_schema is not None:
        output_resolved, unresolved = resolve_internal_refs(output_schema)
        notes.extend(_unresolved_diagnostics(name, "outputSchema", unresolved))
    raw_title = raw.get("title")
    annotations = _schema_or_none(raw.get("annotations"))
    return Tool(
        name=name,
        description=description,
        input_schema=input_schema,
        input_schema_resolved=input_resolved,
        served_index=index,
        title=normalize_text(raw_title) if isinstance(raw_title, str) else None,
        output_schema=output_schema,
        output_schema_resolved=output_resolved,
        annotations=annotations,
        input_schema_json=input_json,
    )


def surface_hash(tools: list[Tool]) -> str:
    """``sha256:`` over the canonical JSON of what a model reads of each tool, sorted by name."""
    entries = []
    for tool in sorted(tools, key=lambda t: utf16_key(t.name)):
        entry: JsonObject = {
            "name": tool.name,
            "description": tool.description_text,
            "inputSchema": tool.input_schema_resolved,
        }
        if tool.title is not None:
            entry["title"] = tool.title
        if tool.output_schema_resolved is not None:
            entry["outputSchema"] = tool.output_schema_resolved
        if tool.annotations is not None:
            entry["annotations"] = tool.annotations
        entries.append(entry)
    digest = hashlib.sha256(canonical_json(entries).encode("utf-8", "surrogatepass"))
    return "sha256:" + digest.hexdigest()


def normalize_surface(raw_tools: list[Any]) -> NormalizedSurface:
    """Normalise every served entry; a malformed one costs only itself and gets a diagnostic."""
    diagnostics: list[Diagnostic] = []
    kept: dict[str, int] = {}
    tools: list[Tool] = []
    for index, raw in enumerate(raw_tools):
        if not isinstance(raw, dict):
            diagnostics.append(
                Diagnostic(
                    code="surface/malformed-tool",
                    severity="error",
                    message=f"Entry {index} of tools/list is not an object; it was skipped",
                    detail={"index": index},
                )
            )
            continue
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            diagnostics.append(
                Diagnostic(
                    code="surface/missing-tool-name",
                    severity="error",
                    message=f"Entry {index} of tools/list has no usable `name`; it was skipped",
                    detail={"index": index},
                )
            )
            continue
        if name in kept:
            diagnostics.append(
                Diagnostic(
                    code="surface/duplicate-tool-name",
                    severity="error",
                    message=(
                        f"Tool name `{name}` appears again at entry {index}; the first one "
                        f"(entry {kept[name]}) is kept"
                    ),
                    tool=name,
                    detail={"index": index, "keptIndex": kept[name]},
                )
            )
            continue
        notes: list[Diagnostic] = []
        try:
            if nesting_depth(raw) > MAX_NESTING:
                raise RecursionError
            tool = _normalize_entry(raw, name, index, notes)
        except RecursionError:
            diagnostics.append(
                Diagnostic(
                    code="surface/malformed-tool",
                    severity="error",
                    message=(
                        f"Tool `{name}` (entry {index}) nests over {MAX_NESTING} levels deep; "
                        "skipped"
                    ),
                    tool=name,
                    detail={"index": index},
                )
            )
            continue
        kept[name] = index
        diagnostics.extend(notes)
        tools.append(tool)
    tools.sort(key=lambda t: utf16_key(t.name))
    return NormalizedSurface(tools=tools, hash=surface_hash(tools), diagnostics=diagnostics)
