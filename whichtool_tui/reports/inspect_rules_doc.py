"""The rule catalog as a Markdown table, for the README and docs (generated, never hand-kept)."""

from __future__ import annotations

from whichtool_tui.surface.rule_catalog import RULES
from whichtool_tui.text_safety import markdown_cell


def render_rule_catalog_markdown() -> str:
    """Every finding code with its default severity, what it means, how to fix it, and whether
    ``inspect.rules`` may configure it."""
    lines = [
        "| code | default | what it flags | fix | configurable |",
        "|---|---|---|---|---|",
    ]
    for code in sorted(RULES):
        rule = RULES[code]
        lines.append(
            f"| `{code}` | {rule.severity} | {markdown_cell(rule.summary)} "
            f"| {markdown_cell(rule.help)} | {'yes' if rule.configurable else 'no'} |"
        )
    return "\n".join(lines) + "\n"
