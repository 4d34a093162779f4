"""Apply ``inspect.rules`` from the config to a review's findings, and fill in fix hints.

Settings act on finished findings, so every rule (upstream's and ours) is configured the same
way and no rule needs to know about configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Literal

from pydantic import Field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.strict_model import StrictModel
from whichtool_tui.surface.rule_catalog import RULES

RuleLevel = Literal["off", "error", "warning", "info"]


class RuleOverride(StrictModel):
    """One inspect rule's override: a new severity (or off) and tools it does not apply to."""

    severity: RuleLevel | None = None
    ignore_tools: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, alias="ignoreTools"
    )


# What ``inspect.rules`` maps a code to in the config (``config.InspectConfig``).
RuleSetting = RuleLevel | RuleOverride


def _override(setting: RuleSetting) -> tuple[str | None, frozenset[str]]:
    if isinstance(setting, RuleOverride):
        return setting.severity, frozenset(setting.ignore_tools)
    return setting, frozenset()


def apply_rule_settings(
    diagnostics: Iterable[Diagnostic], rules: Mapping[str, RuleSetting]
) -> list[Diagnostic]:
    """Drop findings of rules set ``off`` or about an ignored tool; restate changed severities.

    A finding about a pair is dropped when either tool is ignored: it is about both.
    """
    if not rules:
        return list(diagnostics)
    resolved = {code: _override(setting) for code, setting in rules.items()}
    kept = []
    for diagnostic in diagnostics:
        setting = resolved.get(diagnostic.code)
        if setting is None:
            kept.append(diagnostic)
            continue
        severity, ignored = setting
        if severity == "off":
            continue
        about = [diagnostic.tool] if diagnostic.tool is not None else diagnostic.tools or []
        if ignored and any(name in ignored for name in about):
            continue
        if severity is not None and severity != diagnostic.severity:
            diagnostic = diagnostic.model_copy(update={"severity": severity})
        kept.append(diagnostic)
    return kept


def with_fix_hints(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Give every catalogued finding without a hint the catalog's fix text."""
    filled = []
    for diagnostic in diagnostics:
        if diagnostic.hint is None:
            rule = RULES.get(diagnostic.code)
            if rule is not None:
                diagnostic = diagnostic.model_copy(update={"hint": rule.help})
        filled.append(diagnostic)
    return filled
