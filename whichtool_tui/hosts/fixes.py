"""The RFC 6902 patch that makes a served surface fit the named hosts, where a fix is mechanical.

Operations point into the snapshot file as saved (``/tools/3/...``, the prefix ``improve`` uses
for each snapshot shape). Each carries an ``x-whichtool`` member (RFC 6902 says unknown members
are ignored) naming the rule it fixes, whether its values are guesses, and whether it breaks
existing callers (a rename does). Rules with no mechanical fix are left for the author.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from whichtool_tui.hosts.checks import CheckContext, ServedTool, declared_hints, name_pattern
from whichtool_tui.hosts.engine import served_tools
from whichtool_tui.hosts.profile_model import HostRule
from whichtool_tui.hosts.registry import rules_of
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.hosts.schema_fixes import fold_root_combinator, inline_definitions

Operation = dict[str, Any]
_OPEN_WORLD_WORDS = re.compile(
    r"\b(web|internet|url|urls|http|https|online|email|e-mail|send|post|publish|tweet|slack)\b",
    re.IGNORECASE,
)


def _note(rules: Sequence[str], *, guess: bool = False, breaking: bool = False) -> dict[str, Any]:
    return {"rules": sorted(set(rules)), "guess": guess, "breaking": breaking}


def guessed_hints(tool: ServedTool) -> dict[str, bool]:
    """Hint values from the name heuristics inspect already uses (a guess, to be reviewed)."""
    from whichtool_tui.surface.naming import classify_name

    semantics = classify_name(tool.name)[0]
    description = tool.raw.get("description")
    text = f"{tool.name} {description if isinstance(description, str) else ''}"
    return {
        "readOnlyHint": semantics == "read",
        "destructiveHint": semantics in ("destructive", "unknown"),
        "openWorldHint": _OPEN_WORLD_WORDS.search(text.replace("_", " ")) is not None,
    }


def _name_rules(hosts: Sequence[str]) -> list[HostRule]:
    return [rule for host in hosts for _, rule in rules_of(host) if rule.check == "name-pattern"]


def _fits(name: str, rules: Sequence[HostRule], context: CheckContext) -> bool:
    probe = [ServedTool(name, {}, 0)]
    return all(not name_pattern(rule, probe, context) for rule in rules)


def fitting_name(
    name: str, rules: Sequence[HostRule], context: CheckContext, taken: set[str]
) -> str | None:
    """A name every named host accepts, close to ``name``, not already taken; None if none."""
    base = re.sub(r"[^A-Za-z0-9_-]", "_", name) or "tool"
    if not re.match(r"[A-Za-z_]", base):
        base = "_" + base
    for suffix_number in range(1, 100):
        suffix = "" if suffix_number == 1 else f"_{suffix_number}"
        candidate = base + suffix
        while candidate and not _fits(candidate, rules, context) and len(candidate) > len(suffix):
            candidate = base[: len(candidate) - len(suffix) - 1] + suffix
        if candidate and _fits(candidate, rules, context) and candidate not in taken:
            return candidate
    return None


def _schema_operations(tool: ServedTool, fixes: dict[str, list[str]], at: str) -> list[Operation]:
    schema = tool.raw.get("inputSchema")
    if not isinstance(schema, dict):
        return []
    operations: list[Operation] = []
    rewritten: dict[str, Any] = schema
    applied: list[str] = []
    if "inline-defs" in fixes:
        inlined = inline_definitions(rewritten)
        if inlined is not None:
            rewritten, applied = inlined, applied + fixes["inline-defs"]
    sentence = ""
    if "fold-combinator" in fixes:
        folded = fold_root_combinator(rewritten)
        if folded is not None:
            (rewritten, sentence), applied = folded, applied + fixes["fold-combinator"]
    if rewritten is not schema:
        operations.append(
            {
                "op": "replace",
                "path": f"{at}/inputSchema",
                "value": rewritten,
                "x-whichtool": _note(applied),
            }
        )
    if sentence:
        description = tool.raw.get("description")
        text = f"{description}\n\n{sentence}" if isinstance(description, str) else sentence
        op = "replace" if "description" in tool.raw else "add"
        operations.append(
            {
                "op": op,
                "path": f"{at}/description",
                "value": text,
                "x-whichtool": _note(fixes["fold-combinator"]),
            }
        )
    return operations


def _hint_operations(
    tool: ServedTool, wanted: set[str], rules: list[str], at: str
) -> list[Operation]:
    declared = declared_hints(tool.raw)
    guesses = guessed_hints(tool)
    missing = {hint: guesses[hint] for hint in sorted(wanted) if hint not in declared}
    if not missing:
        return []
    note = _note(rules, guess=True)
    annotations = tool.raw.get("annotations")
    if not isinstance(annotations, dict):
        return [{"op": "add", "path": f"{at}/annotations", "value": missing, "x-whichtool": note}]
    return [
        {"op": "add", "path": f"{at}/annotations/{hint}", "value": value, "x-whichtool": note}
        for hint, value in missing.items()
    ]


def host_fix_operations(
    raw_tools: Sequence[Any],
    verdicts: Sequence[HostVerdict],
    prefix: str,
    server_name: str | None,
    served_name: str | None = None,
) -> list[Operation]:
    """Operations, in served order, for every fixable finding of the given verdicts (the server
    name is resolved as the verdicts resolved it)."""
    from whichtool_tui.hosts.engine import assumed_server_name

    hosts = [verdict.host for verdict in verdicts]
    rules = {f"{origin}/{rule.id}": rule for host in hosts for origin, rule in rules_of(host)}
    name, source = assumed_server_name(server_name, served_name)
    context = CheckContext(server_name=name, server_name_source=source)
    by_tool: dict[str, dict[str, list[str]]] = {}
    hints_wanted: dict[str, set[str]] = {}
    for verdict in verdicts:
        for finding in verdict.findings:
            rule = rules[finding.rule]
            if rule.fix is None or finding.tool is None:
                continue
            by_tool.setdefault(finding.tool, {}).setdefault(rule.fix, []).append(finding.rule)
            if rule.fix == "hints":
                hints_wanted.setdefault(finding.tool, set()).update(rule.params["hints"])
    tools = served_tools(raw_tools)
    taken = {tool.name for tool in tools}
    name_rules = _name_rules(hosts)
    operations: list[Operation] = []
    for tool in tools:
        fixes = by_tool.get(tool.name)
        if not fixes:
            continue
        at = f"{prefix}/{tool.index}"
        operations += _schema_operations(tool, fixes, at)
        if "output-type-object" in fixes:
            output = tool.raw.get("outputSchema")
            if isinstance(output, dict) and "type" not in output:
                operations.append(
                    {
                        "op": "add",
                        "path": f"{at}/outputSchema/type",
                        "value": "object",
                        "x-whichtool": _note(fixes["output-type-object"]),
                    }
                )
        if "hints" in fixes:
            operations += _hint_operations(tool, hints_wanted[tool.name], fixes["hints"], at)
        if "rename" in fixes:
            renamed = fitting_name(tool.name, name_rules, context, taken)
            if renamed is not None:
                taken.add(renamed)
                operations.append(
                    {
                        "op": "replace",
                        "path": f"{at}/name",
                        "value": renamed,
                        "x-whichtool": _note(fixes["rename"], breaking=True),
                    }
                )
    return operations
