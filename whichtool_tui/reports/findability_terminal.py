"""The findability section of the terminal inspect report (drawn into its line collector)."""

from __future__ import annotations

from typing import Protocol

from whichtool_tui.discovery.report_model import FindabilitySection

Segment = tuple[str, str]
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
MAX_FINDINGS_SHOWN = 30


class LineSink(Protocol):
    """What the inspect terminal renderer's line collector offers."""

    def add(self, *parts: Segment | str) -> None:
        """Append one line of segments."""

    def wrapped(self, text: str, indent: str, style: str = "") -> None:
        """Append a text wrapped at the report width."""

    def table(self, headers: list[str], rows: list[list[str]], right: set[int]) -> None:
        """Append an aligned table."""


def rank_text(rank: int | None) -> str:
    """A rank as shown in tables: the number, or a dash when the search did not return it."""
    return "-" if rank is None else str(rank)


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def summary_rows(section: FindabilitySection) -> list[list[str]]:
    """Per search: its k, found within it, the found@1..8 curve, exact-name recall at 1."""
    rows = []
    for item in section.summary:
        exact = (
            "-"
            if item.exact_name_at1 is None
            else f"{_percent(item.exact_name_at1)} of {item.exact_name_tasks}"
        )
        curve = " ".join(f"{value * 100:.0f}" for value in item.curve)
        rows.append([item.retriever, str(item.k), _percent(item.found_at_k), curve, exact])
    return rows


SUMMARY_HEADERS = ["search", "k", "found@k", "found@1..8 (%)", "exact names @1"]


def render_findability_terminal(out: LineSink, section: FindabilitySection) -> None:
    """Ranks per task, found@k per tool, deferral rules and the findings with their fixes."""
    names = section.retrievers
    out.add("")
    out.add(("Findability (would a deferring host's search find the tool?)", "bold"))
    out.add(("  tasks ", "dim"), f"{section.task_source}  searches {', '.join(names)}")
    for name, reason in section.skipped_retrievers.items():
        out.wrapped(f"{name} skipped: {reason}", "  ", "dim")
    if section.min_similarity is not None:
        out.add(("  semantic minimum similarity ", "dim"), f"{section.min_similarity:.2f}")
    for name in names:
        out.wrapped(f"{name}: {section.methods.get(name, '')}", "  ", "dim")
    if section.summary:
        out.add("")
        out.table(SUMMARY_HEADERS, summary_rows(section), {1, 2})
        for item in section.summary:
            if item.missed:
                out.wrapped(
                    f"{item.retriever} misses at k {item.k}: {', '.join(item.missed)}", "  ", "dim"
                )
    if section.tasks:
        out.add("")
        out.table(
            ["task", "expected", *[f"{name} rank" for name in names]],
            [
                [row.id, row.expected, *[rank_text(row.ranks.get(name)) for name in names]]
                for row in section.tasks
            ],
            set(range(2, 2 + len(names))),
        )
    if section.tools:
        out.add("")
        headers = ["tool", "tasks", *[f"{name} @1/@3/@5" for name in names]]
        rows = [
            [
                tool.name,
                str(tool.tasks),
                *["/".join(_percent(tool.found_at[n][f"at{k}"]) for k in (1, 3, 5)) for n in names],
            ]
            for tool in section.tools
        ]
        out.table(headers, rows, set(range(1, len(headers))))
    for name in names:
        missing = section.never_found.get(name) or []
        if missing:
            out.add(("  never found by ", "dim"), (name, "yellow"), f": {', '.join(missing)}")
    confident = [d for d in section.distractors if d.confident]
    if confident:
        for distractor in confident:
            picks = ", ".join(f"{n} -> {distractor.top[n]}" for n in distractor.confident)
            out.add(("  distractor ", "dim"), f"{distractor.id} retrieves confidently: {picks}")
    if section.semantic_overlap:
        out.add("")
        out.table(
            ["pair", "dice", "semantic"],
            [
                [f"{p.tools[0]} ~ {p.tools[1]}", f"{p.dice:.2f}", f"{p.semantic:.2f}"]
                for p in section.semantic_overlap[:10]
            ],
            {1, 2},
        )
    deferral = section.deferral
    out.add("")
    out.add(
        ("Deferral", "bold"),
        f"  ~{deferral.estimated_tokens:,} tokens (estimate), {deferral.tool_count} tools",
    )
    for rule in deferral.rules:
        verdict = ("defers       ", "yellow") if rule.defers else ("loads upfront", "green")
        out.add("  ", verdict, f"  {rule.rule}")
        out.wrapped(rule.hosts, "                 ", "dim")
    if section.findings:
        out.add("")
        for finding in section.findings[:MAX_FINDINGS_SHOWN]:
            style = SEVERITY_STYLE[finding.severity]
            out.add("  ", (f"{finding.severity:<7}", style), f" {finding.code}")
            out.wrapped(finding.message, "      ")
            if finding.hint:
                out.wrapped(f"fix: {finding.hint}", "      ", "dim")
        hidden = len(section.findings) - MAX_FINDINGS_SHOWN
        if hidden > 0:
            out.add(
                ("  ", ""), (f"{hidden} more findability findings are in the JSON report", "dim")
            )
