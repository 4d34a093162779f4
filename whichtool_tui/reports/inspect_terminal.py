"""The inspect report for a terminal: pure ASCII sections, worst first, styled through rich."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whichtool_tui.diagnostics import Diagnostic, count_by_severity
from whichtool_tui.surface.aggregate import first_few
from whichtool_tui.surface.canonical import js_fixed
from whichtool_tui.surface.model import short_hash
from whichtool_tui.surface.overlap import NOTABLE_OVERLAP
from whichtool_tui.surface.report_model import InspectReport, ToolSummary
from whichtool_tui.text_safety import ascii_safe

if TYPE_CHECKING:
    from rich.style import Style

FOOTER = "No tool was executed. whichtool-tui read tools/list and stopped there."
MAX_COST_ROWS = 15
MAX_OVERLAP_ROWS = 8
MAX_FINDINGS_SHOWN = 12
"""Findings printed in full, worst first: a registry's report stays on a screen or two."""
_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def _percent(share: float) -> str:
    return f"{share * 100:.1f}%"


Segment = tuple[str, str]
ELLIPSIS = "..."


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with an ellipsis."""
    if len(text) <= width:
        return text
    return text[: max(0, width - len(ELLIPSIS))] + ELLIPSIS


def fit_words(words: list[str], width: int, separator: str = ", ") -> str:
    """As many whole words as fit in ``width``, then an ellipsis if any were left out."""
    shown: list[str] = []
    for position, word in enumerate(words):
        candidate = separator.join([*shown, word])
        more = position < len(words) - 1
        if len(candidate) + (len(separator) + len(ELLIPSIS) if more else 0) <= width:
            shown.append(word)
            continue
        if not shown:
            return clip(word, width)
        return separator.join(shown) + separator + ELLIPSIS
    return separator.join(shown)


def wrap_words(text: str, width: int, indent: str) -> list[str]:
    """Greedy word wrap on spaces (long words stay whole); fast enough for 100,000 findings."""
    if len(indent) + len(text) <= width:
        return [indent + text]
    rows: list[str] = []
    line: list[str] = []
    room = width - len(indent)
    used = -1  # the current row's length after the indent; -1 while it has no word
    for word in text.split(" "):
        if not word:
            continue
        size = len(word)
        if used < 0:
            used = size
        elif used + 1 + size <= room:
            used += 1 + size
        else:
            rows.append(indent + " ".join(line))
            line.clear()
            used = size
        line.append(word)
    rows.append(indent + " ".join(line))
    return rows


class _Lines:
    """Collects lines of (text, style) segments; rendering adds ANSI codes only with colour.

    Every text passes ``ascii_safe`` on the way in, so no section (inspect's own, findability,
    hosts) can put a raw control or bidi character on the terminal, escaped or not before.
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[list[Segment]] = []

    def add(self, *parts: Segment | str) -> None:
        self.lines.append(
            [
                (ascii_safe(part), "") if isinstance(part, str) else (ascii_safe(part[0]), part[1])
                for part in parts
            ]
        )

    def wrapped(self, text: str, indent: str, style: str = "") -> None:
        for row in wrap_words(ascii_safe(text), self.width, indent):
            self.lines.append([(row, style)])

    def table(self, headers: list[str], rows: list[list[str]], right: set[int]) -> None:
        rows = [[ascii_safe(cell) for cell in row] for row in rows]
        widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

        def cells(row: list[str]) -> str:
            shown = [
                cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
                for i, cell in enumerate(row)
            ]
            return ("  " + "  ".join(shown)).rstrip()

        self.add((cells(headers), "dim"))
        for row in rows:
            self.add(cells(row))

    def render(self, color: bool) -> str:
        if not color:
            return "".join("".join(text for text, _ in line) + "\n" for line in self.lines)
        # rich only for colour: piped or written to a file the report needs none of it.
        from rich.color import ColorSystem
        from rich.style import Style

        styles: dict[str, Style] = {}
        rendered: list[str] = []
        for line in self.lines:
            for text, style in line:
                if not style or not text:
                    rendered.append(text)
                    continue
                if style not in styles:
                    styles[style] = Style.parse(style)
                rendered.append(styles[style].render(text, color_system=ColorSystem.STANDARD))
            rendered.append("\n")
        return "".join(rendered)


def _target_of(diagnostic: Diagnostic, width: int = 60) -> str:
    """The tool, or the first few tools and how many more, in at most ``width`` columns."""
    if diagnostic.tool is not None:
        return clip(ascii_safe(diagnostic.tool), width)
    if not diagnostic.tools:
        return "(surface)"
    shown, more = first_few(diagnostic.tools)
    count = f" and {more:,} more" if more else ""
    return clip(ascii_safe(", ".join(shown)), width - len(count)) + count


def _diagnostic(out: _Lines, diagnostic: Diagnostic, lead: str, rest: str) -> None:
    target = _target_of(diagnostic)
    out.add(
        lead,
        (f"{diagnostic.severity:<7}", _SEVERITY_STYLE[diagnostic.severity]),
        " ",
        (diagnostic.code, "bold"),
        f"  {target}",
    )
    out.wrapped(ascii_safe(diagnostic.message), rest)
    if diagnostic.hint:
        out.wrapped("Fix: " + ascii_safe(diagnostic.hint), rest, "dim")


def _header(out: _Lines, report: InspectReport) -> None:
    tokenizer = report.tokens.tokenizer
    label = tokenizer.id if tokenizer.exact else f"estimate, {tokenizer.id}"
    out.add(("whichtool-tui inspect", "bold"))
    out.add(("  target   ", "dim"), f"{report.target.transport}  {ascii_safe(report.target.ref)}")
    out.add(
        ("  surface  ", "dim"),
        f"{short_hash(report.surface.hash)}  {_plural(report.surface.tool_count, 'tool')}  "
        f"~{report.tokens.total:,} tokens ({label})",
    )
    rejected = report.header_params.rejected_tools
    if rejected:
        names = ascii_safe(", ".join(rejected))
        out.add(
            "           ",
            (f"{_plural(len(rejected), 'tool')} excluded by conforming clients: {names}", "red"),
        )


def _worst_first(out: _Lines, report: InspectReport) -> None:
    loud = [d for d in report.diagnostics if d.severity != "info"]
    info = len(report.diagnostics) - len(loud)
    out.add("")
    out.add(("Worst first", "bold"))
    if not loud:
        note = f"  {_plural(info, 'info-level note')} below." if info else ""
        out.add(("  No errors or warnings.", "green"), (note, "dim"))
        return
    for position, diagnostic in enumerate(loud[:3], start=1):
        _diagnostic(out, diagnostic, f"  {position}. ", "     ")
    remaining = len(loud) - 3
    if remaining > 0:
        noun = "error or warning" if remaining == 1 else "errors and warnings"
        out.add((f"  {remaining:,} more {noun} below.", "dim"))


def _context_cost(out: _Lines, report: InspectReport) -> None:
    out.add("")
    out.add(
        ("Context cost", "bold"),
        (f"  ~{report.tokens.total:,} tokens total, {report.tokens.serialization}", "dim"),
    )
    by_cost: list[ToolSummary] = sorted(
        report.surface.tools, key=lambda tool: (-tool.tokens.total, tool.name)
    )
    shown = by_cost[:MAX_COST_ROWS]
    rows = [
        [
            clip(ascii_safe(tool.name), 40),
            f"~{tool.tokens.total:,}",
            _percent(tool.token_share),
            f"~{tool.tokens.description:,}",
            f"~{tool.tokens.schema_:,}",
            "" if tool.has_description else "no description",
        ]
        for tool in shown
    ]
    if rows:
        out.table(["tool", "tokens", "share", "desc", "schema", ""], rows, {1, 2, 3, 4})
    hidden = by_cost[len(shown) :]
    if hidden:
        hidden_tokens = sum(tool.tokens.total for tool in hidden)
        share = hidden_tokens / report.tokens.total if report.tokens.total else 0.0
        out.add(
            (
                f"  {_plural(len(hidden), 'more tool')} not shown, ~{hidden_tokens:,} tokens "
                f"({_percent(share)}).",
                "dim",
            )
        )
    if not report.tokens.tokenizer.exact:
        out.wrapped(report.tokens.tokenizer.note, "  ", "dim")


def _annotations(out: _Lines, report: InspectReport) -> None:
    coverage = report.annotations.coverage
    hints = coverage.by_hint
    out.add("")
    out.add(
        ("Annotations", "bold"),
        (f"  {coverage.annotated}/{coverage.tool_count} tools annotated", "dim"),
    )
    counts = [
        ("readOnlyHint", hints.read_only_hint),
        ("destructiveHint", hints.destructive_hint),
        ("idempotentHint", hints.idempotent_hint),
        ("openWorldHint", hints.open_world_hint),
    ]
    out.add("  " + "   ".join(f"{name} {value}/{coverage.tool_count}" for name, value in counts))
    out.wrapped(report.annotations.caveat, "  ", "dim")


def _overlap(out: _Lines, report: InspectReport) -> None:
    overlap = report.overlap
    out.add("")
    out.add(
        ("Lexical overlap", "bold"),
        (f"  {_plural(overlap.pairs_considered, 'pair')} scored", "dim"),
    )
    notable = [pair for pair in overlap.pairs if pair.score >= NOTABLE_OVERLAP]
    if report.surface.tool_count < 2:
        out.add(("  Fewer than two tools: nothing to compare.", "dim"))
        return
    if not notable:
        best = overlap.pairs[0] if overlap.pairs else None
        highest = (
            f" Highest: {js_fixed(best.score, 2)} ({ascii_safe(best.tools[0])} <-> "
            f"{ascii_safe(best.tools[1])})."
            if best
            else ""
        )
        out.add((f"  No pair scores {NOTABLE_OVERLAP:.2f} or more.", "green"), (highest, "dim"))
        return
    rows = [
        [
            f"{js_fixed(pair.score, 2)}",
            clip(ascii_safe(f"{pair.tools[0]} <-> {pair.tools[1]}"), 44),
            "identical description"
            if pair.identical_description
            else fit_words([ascii_safe(term) for term in pair.distinctive_shared_terms], 34),
        ]
        for pair in notable[:MAX_OVERLAP_ROWS]
    ]
    out.table(["score", "pair", "shared terms"], rows, {0})
    listed = sum(
        1
        for d in report.diagnostics
        if d.code.startswith("overlap/") or d.code == "descriptions/identical"
    )
    if listed > len(rows):
        out.add(
            (f"  {listed - len(rows):,} more overlapping pairs are listed under Findings.", "dim")
        )
    out.wrapped(
        "Overlap predicts confusion; it does not measure it. `whichtool-tui run` puts these "
        "pairs in front of a model and shows which ones actually get swapped.",
        "  ",
        "dim",
    )


def _findings(out: _Lines, report: InspectReport) -> None:
    counts = count_by_severity(report.diagnostics)
    out.add("")
    out.add("", ("Deprecated features", "bold"))
    out.wrapped(report.deprecations.note, "  ", "dim")
    out.add("")
    out.add(
        ("Findings", "bold"),
        (
            f"  {_plural(counts['error'], 'error')}, {_plural(counts['warning'], 'warning')}, "
            f"{counts['info']:,} info",
            "dim",
        ),
    )
    if not report.diagnostics:
        out.add(("  None.", "green"))
    for diagnostic in report.diagnostics[:MAX_FINDINGS_SHOWN]:
        _diagnostic(out, diagnostic, "  ", "          ")
    rest = report.diagnostics[MAX_FINDINGS_SHOWN:]
    if rest:
        left = count_by_severity(rest)
        out.wrapped(
            f"{_plural(len(rest), 'more finding')} not shown ({_plural(left['error'], 'error')}, "
            f"{_plural(left['warning'], 'warning')}, {left['info']:,} info): --format json or "
            "--format markdown lists every one.",
            "  ",
            "dim",
        )
    if report.thresholds:
        out.add("")
        out.add(("Thresholds", "bold"))
        for check in report.thresholds:
            verdict = ("pass", "green") if check.ok else ("FAIL", "bold red")
            out.add("  ", verdict, f"  {check.name}  ~{check.actual:,} / {check.limit:,}")


def render_inspect_terminal(report: InspectReport, *, color: bool = False, width: int = 88) -> str:
    """The terminal report; ANSI styles only when ``color`` is true, ASCII either way."""
    out = _Lines(max(40, width))
    _header(out, report)
    _worst_first(out, report)
    _context_cost(out, report)
    _annotations(out, report)
    _overlap(out, report)
    _findings(out, report)
    if report.findability is not None:
        from whichtool_tui.reports.findability_terminal import render_findability_terminal

        render_findability_terminal(out, report.findability)
    if report.hosts is not None:
        from whichtool_tui.reports.hosts_terminal import render_hosts_terminal

        names = [tool.name for tool in report.surface.tools]
        render_hosts_terminal(out, report.hosts, names, out.width)
    out.add("")
    out.add((FOOTER, "dim"))
    return out.render(color)
