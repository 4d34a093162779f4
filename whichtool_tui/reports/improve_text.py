"""The improve evidence report for people: terminal text and a markdown summary, one wording,
with a side-by-side diff of each accepted description."""

from __future__ import annotations

import difflib
import textwrap

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.improve.briefs import picks_text
from whichtool_tui.improve.model import Candidate, HeldOutRate, ImproveReport, Measurement
from whichtool_tui.reports.rates import paired_summary
from whichtool_tui.text_safety import MARKDOWN, TERMINAL, Escapes, markdown_cell, sanitize_text

SIDE_WIDTH = 46


def rate_text(rate: HeldOutRate) -> str:
    """``3/4 75% [30%-95%]`` (task-clustered interval), or ``n/a`` with no scored trial."""
    if rate.value is None:
        return "n/a"
    shown = f"{rate.successes}/{rate.trials} {rate.value:.0%}"
    if rate.ci95 is not None:
        shown += f" [{rate.ci95[0]:.0%}-{rate.ci95[1]:.0%}]"
    return shown


def paired_text(paired: TaskPairedComparison) -> str:
    """The task-level paired comparison in one line, or that no task could be paired."""
    return "no task to pair" if paired.tasks == 0 else paired_summary(paired)


def measurement_lines(measured: Measurement, esc: Escapes = TERMINAL) -> list[str]:
    """Before/after held-out figures, the paired tests and the token change."""
    lines = [
        f"held-out accuracy {rate_text(measured.accuracy_before)} -> "
        f"{rate_text(measured.accuracy_after)}; paired {paired_text(measured.accuracy_paired)}",
        f"over-trigger {rate_text(measured.over_trigger_before)} -> "
        f"{rate_text(measured.over_trigger_after)}; paired abstention "
        f"{paired_text(measured.abstention_paired)}",
    ]
    if measured.targeted_paired is not None:
        lines.append(
            f"targeted ({esc.text(', '.join(measured.targeted_tasks))}): "
            f"{paired_text(measured.targeted_paired)}"
        )
    lines.append(
        f"tokens ~{measured.tokens_before} -> ~{measured.tokens_after} "
        f"({measured.token_growth:+.1%}, estimate)"
    )
    return lines


def marked_words(before: str, after: str) -> tuple[str, str]:
    """Both texts with removed words as ``[-w-]`` and added words as ``{+w+}``."""
    old, new = before.split(), after.split()
    left: list[str] = []
    right: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            left += old[i1:i2]
            right += new[j1:j2]
            continue
        if i2 > i1:
            left.append("[-" + " ".join(old[i1:i2]) + "-]")
        if j2 > j1:
            right.append("{+" + " ".join(new[j1:j2]) + "+}")
    return " ".join(left), " ".join(right)


def side_by_side(before: str, after: str, width: int = SIDE_WIDTH) -> list[str]:
    """Two wrapped columns, before | after, with the changed words marked."""
    left, right = marked_words(sanitize_text(before), sanitize_text(after))
    left_lines = textwrap.wrap(left, width) or [""]
    right_lines = textwrap.wrap(right, width) or [""]
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    header = f"{'before':<{width}} | after"
    return [header, *(f"{a:<{width}} | {b}" for a, b in zip(left_lines, right_lines, strict=True))]


def _candidate_lines(candidate: Candidate, esc: Escapes, bullet: str, indent: str) -> list[str]:
    state = "ACCEPTED" if candidate.accepted else "rejected"
    how = candidate.rule or "model rewrite"
    text = esc.text
    lines = [
        f"{bullet}{state} {text(candidate.id)} ({how}; target {candidate.target.kind}: "
        f"{', '.join(map(esc.code, candidate.target.tools))})"
    ]
    lines += [
        f"{indent}addresses {item.code}: {text(item.message)}" for item in candidate.addressed
    ]
    if candidate.measurement is not None:
        lines += [f"{indent}{line}" for line in measurement_lines(candidate.measurement, esc)]
    lines.append(f"{indent}reason: {text(candidate.reason)}")
    if not candidate.accepted:
        lines.append(f"{indent}after: {text(candidate.description_after)}")
    return lines


def _header(report: ImproveReport, esc: Escapes) -> list[str]:
    split = report.split
    label = "baseline, not a model" if report.baseline else "model"
    text = esc.text
    return [
        f"snapshot  {text(report.snapshot)}  ({report.surface_hash[:19]})",
        f"tasks     {text(report.task_set)}: {len(split.tuning)} tuning (shown to the rewriter), "
        f"{len(split.held_out)} held-out (never shown); seed {split.seed}, held-out share "
        f"{split.holdout_share:g}",
        f"provider  {text(report.provider)} ({text(report.model)}, {label}); "
        f"rewriter {text(report.rewriter)}; "
        f"repeat {report.repeat}, {'permuted' if report.permuted else 'served order'}; "
        f"max token growth {report.max_token_growth:.0%}",
    ] + ([f"base run  {text(report.base_run)} (its tuning trials only)"] if report.base_run else [])


def _lines(report: ImproveReport, esc: Escapes, bullet: str, indent: str) -> list[str]:
    lines = [*_header(report, esc)]
    if report.notes:  # why little or nothing could be measured comes first, not last
        lines += ["", *map(esc.text, report.notes)]
    lines += ["", f"Tuning failures: {len(report.tuning_failures)}"]
    for failure in report.tuning_failures:
        picked = picks_text(failure.picked, esc.code)
        expected = esc.code(failure.expected) if failure.expected else "no call"
        lines.append(
            f"{bullet}{esc.text(failure.task_id)}: {esc.text(failure.prompt)} "
            f"(expects {expected}; got {picked})"
        )
    accepted = [c for c in report.candidates if c.accepted]
    lines += ["", f"Candidates: {len(report.candidates)} ({len(accepted)} accepted)"]
    for candidate in report.candidates:
        lines += _candidate_lines(candidate, esc, bullet, indent)
    return lines


def _closing(report: ImproveReport, esc: Escapes) -> list[str]:
    lines: list[str] = []
    if report.final is not None:
        lines += ["", "Accepted surface against the base, held-out tasks:"]
        lines += measurement_lines(report.final, esc)
    lines += ["", f"Patch: {len(report.patch)} replace operation(s) (RFC 6902)"]
    lines += [f"  {esc.text(operation.path)}" for operation in report.patch]
    lines += ["", "Method: " + report.method]
    return lines


def render_improve_terminal(report: ImproveReport) -> str:
    """Plain terminal text: every candidate with its figures, then each accepted side by side."""
    body = _lines(report, TERMINAL, "  ", "      ")
    lines = ["whichtool-tui improve", *(f"  {line}" for line in body)]
    for candidate in report.candidates:
        if candidate.accepted:
            name, shown_id = sanitize_text(candidate.tool), sanitize_text(candidate.id)
            lines += ["", f"{name} (accepted {shown_id}):"]
            sides = side_by_side(candidate.description_before, candidate.description_after)
            lines += [f"  {line}" for line in sides]
    lines += _closing(report, TERMINAL)
    return "\n".join(lines).replace("`", "") + "\n"


def render_improve_markdown(report: ImproveReport) -> str:
    """A markdown summary (a CI job summary), accepted descriptions in a two-column table."""
    lines = ["## Description rewrites measured on held-out tasks", ""]
    lines += _lines(report, MARKDOWN, "- ", "  - ")
    for candidate in report.candidates:
        if candidate.accepted:
            left, right = marked_words(candidate.description_before, candidate.description_after)
            lines += [
                "",
                f"### {MARKDOWN.code(candidate.tool)} ({MARKDOWN.text(candidate.id)})",
                "",
                "| before | after |",
                "|---|---|",
                f"| {markdown_cell(left)} | {markdown_cell(right)} |",
            ]
    lines += _closing(report, MARKDOWN)
    return "\n".join(lines) + "\n"
