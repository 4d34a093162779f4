"""Every inspect finding code in one place: default severity, a summary and how to fix it.

SARIF rule metadata, ``inspect.rules`` validation, the fix hints of findings that carry none
and the docs all read this table, so a code exists once. Plain data: importing it is cheap
(config validation loads it).
"""

from __future__ import annotations

from dataclasses import dataclass

RuleSeverity = str  # "error" | "warning" | "info" (kept loose: this module imports nothing)


@dataclass(frozen=True, slots=True)
class Rule:
    """One finding code: its default severity, what it means, and how to fix it.

    ``configurable`` is False for findings about a broken listing or a failed gate: switching
    those off would hide that the report itself is incomplete.
    """

    code: str
    severity: RuleSeverity
    summary: str
    help: str
    configurable: bool = True


_RULES = [
    # Upstream surface checks (reference §3.8, §4).
    Rule(
        "surface/malformed-tool",
        "error",
        "A tools/list entry is not an object.",
        "Serve every tool as a JSON object with name, description and inputSchema.",
        configurable=False,
    ),
    Rule(
        "surface/missing-tool-name",
        "error",
        "A tool entry has no name.",
        "Give every tool a unique, non-empty name.",
        configurable=False,
    ),
    Rule(
        "surface/duplicate-tool-name",
        "error",
        "Two tool entries share a name; only the first is kept.",
        "Rename or remove the duplicate entry.",
        configurable=False,
    ),
    Rule(
        "surface/non-string-description",
        "warning",
        "A description is not a string and is treated as absent.",
        "Send the description as a plain string.",
    ),
    Rule(
        "surface/missing-input-schema",
        "warning",
        "A tool has no inputSchema; an empty object schema is assumed.",
        'Declare inputSchema, at least {"type": "object"}.',
    ),
    Rule(
        "surface/unresolved-ref-external",
        "info",
        "A schema $ref points outside the document and stays unresolved.",
        "Inline the referenced schema or move it under $defs.",
    ),
    Rule(
        "surface/unresolved-ref-cycle",
        "info",
        "A schema $ref is recursive and stays unresolved.",
        "Break the cycle or accept that analysis reads the schema with the $ref intact.",
    ),
    Rule(
        "surface/unresolved-ref-missing",
        "info",
        "A schema $ref points at nothing.",
        "Fix the pointer or add the missing definition under $defs.",
    ),
    Rule(
        "surface/unresolved-ref-too-large",
        "warning",
        "Inlining $refs would exceed the node budget.",
        "Flatten the schema; a model reads every inlined node as prompt.",
    ),
    Rule(
        "surface/large-tool-set",
        "warning",
        "The surface offers more tools than the review threshold.",
        "Merge or split tools by task, or raise the threshold with --max-tools N.",
    ),
    Rule(
        "annotations/non-boolean-hint",
        "warning",
        "An annotation hint is present but not a boolean.",
        "Send true or false; other values are ignored by clients.",
    ),
    Rule(
        "annotations/unknown-key",
        "info",
        "An annotation key outside title, readOnlyHint, destructiveHint, idempotentHint, "
        "openWorldHint.",
        "Remove the key or move it to _meta.",
    ),
    Rule(
        "annotations/contradictory-read-only-destructive",
        "error",
        "A tool declares readOnlyHint and destructiveHint both true.",
        "Decide which is true: a read-only tool cannot be destructive.",
    ),
    Rule(
        "annotations/read-only-with-mutating-name",
        "warning",
        "readOnlyHint is true but the name says the tool changes state.",
        "Rename the tool to say what it reads, or drop readOnlyHint.",
    ),
    Rule(
        "display/hidden-characters",
        "error",
        "A name, title, description, schema or annotation carries Unicode tag, bidi, "
        "zero-width or ANSI/control characters a reviewer cannot see but a model reads.",
        "Remove the invisible characters; write everything the model should read as plain "
        "visible text.",
    ),
    Rule(
        "display/forged-dialog-text",
        "warning",
        "A name, title or first description line carries a line break, control character or "
        "badge glyph that can forge what an approval dialog shows.",
        "Keep names, titles and the first description line to one plain line without badges.",
    ),
    Rule(
        "annotations/write-hint-with-read-name",
        "info",
        "readOnlyHint is false but the name says the tool only reads.",
        "Declare readOnlyHint: true, or rename the tool to say what it changes.",
    ),
    Rule(
        "annotations/destructive-name-declared-safe",
        "warning",
        "The name says destructive but destructiveHint is false.",
        "Declare destructiveHint: true, or rename the tool to say it is safe.",
    ),
    Rule(
        "annotations/read-tool-missing-read-only-hint",
        "info",
        "A tool named like a read declares no readOnlyHint.",
        "Declare readOnlyHint: true so clients can call it without a confirmation.",
    ),
    Rule(
        "annotations/absent-surface-wide",
        "warning",
        "No tool declares any annotation hint.",
        "Declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint on every tool.",
    ),
    Rule(
        "annotations/partial-coverage",
        "warning",
        "Some tools declare annotation hints and some do not.",
        "Declare the hints on the tools listed in the finding.",
    ),
    Rule(
        "overlap/high",
        "warning",
        "Two tools, or a family of tools joined by such pairs, overlap at 0.6 or more on name "
        "plus description.",
        "Rewrite one description around what only it does, or merge the two tools.",
    ),
    Rule(
        "overlap/notable",
        "info",
        "Two tools, or a family of tools joined by such pairs, overlap at 0.4 or more on name "
        "plus description.",
        "Check that each description says what sets it apart from the other.",
    ),
    Rule(
        "descriptions/identical",
        "error",
        "Two or more tools have identical descriptions.",
        "Describe each tool by what it alone does, or merge them.",
    ),
    Rule(
        "descriptions/oversized",
        "warning",
        "A description longer than 20,000 characters; overlap scores only its first 20,000.",
        "Keep the description to what the tool does and when to pick it; move reference "
        "material into a resource or the parameter descriptions.",
    ),
    Rule(
        "descriptions/missing",
        "warning",
        "A tool has no description.",
        "Write one or two sentences: what the tool does, and when to use it.",
    ),
    Rule(
        "descriptions/very-short",
        "info",
        "A description shorter than 20 characters.",
        "Say what the tool returns or changes, and when to pick it.",
    ),
    Rule(
        "x-mcp-header/invalid",
        "error",
        "An x-mcp-header annotation that conforming clients reject (the tool is dropped).",
        "Use a token header name on a string, integer or boolean property reached only "
        "through properties.",
    ),
    Rule(
        "x-mcp-header/present",
        "info",
        "Valid x-mcp-header parameters, visible to intermediaries.",
        "Keep secrets out of header-mapped parameters.",
    ),
    Rule(
        "threshold/maxContextTokens",
        "error",
        "The surface's estimated tokens exceed the configured budget.",
        "Shorten descriptions and schemas, or remove tools.",
        configurable=False,
    ),
    # Names.
    Rule(
        "names/same-words",
        "warning",
        "Two tool names reduce to the same words (only case, separators or order differ).",
        "Rename one so the names differ in a word that says what sets it apart.",
    ),
    Rule(
        "names/generic",
        "warning",
        "A tool name made only of generic words (run, do, tool, handle, ...).",
        "Name the tool after its action and object, e.g. search_invoices.",
    ),
    Rule(
        "names/subject-not-in-description",
        "info",
        "A subject word of the name never appears in the description.",
        "Mention that subject in the description, or rename the tool to match what it does.",
    ),
    Rule(
        "names/mixed-conventions",
        "info",
        "The tool follows a different naming convention from most of the surface.",
        "Rename it to the surface's main convention (snake_case, kebab-case, camelCase or dotted).",
    ),
    # Descriptions.
    Rule(
        "descriptions/restates-name",
        "warning",
        "The description only restates the tool's name.",
        "Say what the tool returns or changes, its limits, and when to use it.",
    ),
    Rule(
        "descriptions/placeholder",
        "warning",
        "A description holds placeholder text (TODO, TBD, FIXME, lorem ipsum, ...).",
        "Replace the placeholder with the real description before publishing.",
    ),
    Rule(
        "descriptions/overlap-without-preference",
        "warning",
        "Two tools (or a family) overlap at 0.6 or more and no description says when to prefer it.",
        "In each description, say when to use it instead of the other (name the other tool).",
    ),
    # Parameters.
    Rule(
        "parameters/missing-description",
        "warning",
        "A parameter with neither description nor title, whose name is not self-explanatory.",
        "Add a description: what the value means, its unit or shape, and an example.",
    ),
    Rule(
        "parameters/description-restates-name",
        "info",
        "A parameter description only repeats the parameter's name.",
        "Say what the value means, its shape and an example, not just its name.",
    ),
    Rule(
        "parameters/closed-set-not-enum",
        "warning",
        "A free string whose description lists the allowed values.",
        "Declare the values as an enum so the model cannot invent others.",
    ),
    Rule(
        "parameters/missing-format",
        "info",
        "A date, email, URL or URI parameter without format or pattern.",
        'Add "format" (date, date-time, email, uri) or a "pattern".',
    ),
    Rule(
        "parameters/untyped",
        "warning",
        "A parameter declares no type.",
        "Declare a type (string, integer, number, boolean, array or object).",
    ),
    Rule(
        "parameters/open-object",
        "warning",
        "An object parameter declares no properties.",
        "Declare its properties (and required), or additionalProperties with a value schema.",
    ),
    Rule(
        "parameters/required-without-example",
        "info",
        "Required free-form parameters with no example or default anywhere in the schema.",
        'Add "examples" (or an e.g. in the description) showing a valid value.',
    ),
    # Annotations and budget beyond upstream.
    Rule(
        "annotations/missing-idempotent-hint",
        "info",
        "A tool that looks state-changing declares no idempotentHint.",
        "Declare idempotentHint: true if repeating the call is harmless, false otherwise.",
    ),
    Rule(
        "budget/dominant-tool",
        "info",
        "One tool's definition takes a large share of the surface's tokens.",
        "Trim its description and schema, or split it into narrower tools.",
    ),
]

RULES: dict[str, Rule] = {rule.code: rule for rule in _RULES}
SEVERITY_CHOICES = ("error", "warning", "info")
SETTING_CHOICES = ("off", *SEVERITY_CHOICES)


def rule_for(code: str) -> Rule | None:
    """The catalog entry for ``code``, or None for findings outside inspect (transport, …)."""
    return RULES.get(code)
