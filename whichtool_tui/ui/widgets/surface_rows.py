"""The Surface screen's table rows: a tool's cost bar, a finding's two cells and its hint, a
rule's state, and the widths the finding columns take so long text wraps."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.surface_model import Finding, RuleState

SEVERITY_MARKS = {
    "error": ("✖ error", "bold red"),
    "warning": ("▲ warn", "yellow"),
    "info": ("ℹ info", "dim"),
}
BAR_WIDTH = 8
MESSAGE_MIN_WIDTH = 24
FINDING_TITLE = "finding · about"


def cost_bar(share: float, biggest: float) -> Text:
    """A bar scaled to the most expensive tool, plus the share of the whole surface."""
    filled = round(BAR_WIDTH * share / biggest) if biggest > 0 else 0
    bar = Text.assemble(("█" * filled, "cyan"))
    bar.append("░" * (BAR_WIDTH - filled), style="dim")
    bar.append(f" {share:>4.0%}")
    return bar


def finding_cells(finding: Finding) -> tuple[str, str, str]:
    """Severity label, code and subject of one findings row (the message is styled apart)."""
    label = SEVERITY_MARKS.get(finding.severity, (finding.severity, ""))[0]
    if finding.is_family:
        about = f"{finding.tools[0]} +{finding.member_count - 1:,} more"
        code = f"{finding.code} [family {finding.member_count:,}]"
    else:
        more = len(finding.tools) - 3  # an aggregated finding names thousands
        about = " ~ ".join(finding.tools[:3]) + (f" +{more:,} more" if more > 0 else "")
        code = finding.code + (" [view]" if finding.is_pair else "")
    return label, code, sanitize_text(about)[:48]


def finding_row(finding: Finding) -> tuple[Text, Text]:
    """The finding's two cells: what and about whom, then the message with its fix under it
    (so worst-first reads as a to-do)."""
    label, code, about = finding_cells(finding)
    style = SEVERITY_MARKS.get(finding.severity, ("", ""))[1]
    head = Text.assemble((label, style), " ", code, "\n", (about, "dim"))
    said = Text(sanitize_text(finding.message))
    if finding.hint:
        said.append("\nfix: ", style="bold dim")
        said.append(sanitize_text(finding.hint), style="dim")
    return head, said


def finding_hint(finding: Finding) -> Text:
    """The selected finding's full text under the table, with what Enter does on it."""
    text = Text(sanitize_text(finding.message))
    if finding.hint:
        text.append("\nfix: ", style="bold")
        text.append(sanitize_text(finding.hint))
    if finding.is_pair:
        text.append("   enter: side by side", style="dim")
    elif finding.is_family:
        text.append(f"   enter: the {finding.member_count:,} members", style="dim")
    return text


def finding_widths(width: int, cells: Sequence[tuple[str, str, str]]) -> tuple[int, int]:
    """The finding column fits its widest cell; the message column takes what it leaves of
    ``width`` (the table's inside) after both columns' padding, so long text wraps."""
    first = max(
        (max(len(label) + 1 + len(code), len(about)) for label, code, about in cells),
        default=0,
    )
    first = max(first, len(FINDING_TITLE))
    return first, max(MESSAGE_MIN_WIDTH, width - first - 2 - 2)


def rule_row(state: RuleState) -> tuple[Text, Text, Text]:
    """A rule's effective severity, what config did to it, and its code."""
    label, style = SEVERITY_MARKS.get(state.effective, ("○ off", "dim"))
    if not state.configurable:
        setting = Text("fixed", style="dim")
    elif state.is_off:
        setting = Text("off by config", style="bold")
    elif state.effective != state.default:
        setting = Text(f"was {state.default}", style="italic")
    elif state.ignored_tools:
        setting = Text(f"skips {len(state.ignored_tools)} tool(s)")
    else:
        setting = Text("default", style="dim")
    return Text(label, style=style), setting, Text(state.code)
