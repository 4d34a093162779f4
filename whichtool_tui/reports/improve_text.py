"""The improve evidence report for people: terminal text and a markdown summary, one wording,
with a side-by-side diff of each accepted description."""

from __future__ import annotations

import difflib
import textwrap

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.improve.briefs import picks_text
from whichtool_tui.improve.model import Candidate, HeldOutRate, ImproveReport, Measurement
from whichtool_tui.redact import sanitize_text
from whichtool_tui.reports.escape import markdown_cell
from whichtool_tui.reports.rates import paired_summary

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


def measurement_lines(measured: Measurement) -> list[str]:
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
            f"targeted ({', '.join(measured.targeted_tasks)}): "
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


def _candidate_lines(candidate: Candidate, bullet: str, indent: str) -> list[str]:
    state = "ACCEPTED" if candidate.accepted else "rejected"
    how = candidate.rule or "model rewrite"
    lines = [
        f"{bullet}{state} {candidate.id} ({how}; target {candidate.target.kind}: "
        f"{', '.join(candidate.target.tools)})"
    ]
    lines += [f"{indent}addresses {item.code}: {item.message}" for item in candidate.addressed]
    if candidate.measurement is not None:
        lines += [f"{indent}{line}" for line in measurement_lines(candidate.measurement)]
    lines.append(f"{indent}reason: {candidate.reason}")
    if not candidate.accepted:
        lines.append(f"{indent}after: {sanitize_text(candidate.description_after)}")
    return lines


def _header(report: ImproveReport) -> list[str]:
    split = report.split
    label = "baseline, not a model" if report.baseline else "model"
    return [
        f"snapshot  {report.snapshot}  ({report.surface_hash[:19]})",
        f"tasks     {report.task_set}: {len(split.tuning)} tuning (shown to the rewriter), "
        f"{len(split.held_out)} held-out (never shown); seed {split.seed}, held-out share "
        f"{split.holdout_share:g}",
        f"provider  {report.provider} ({report.model}, {label}); rewriter {report.rewriter}; "
        f"repeat {report.repeat}, {'permuted' if report.permuted else 'served order'}; "
        f"max token growth {report.max_token_growth:.0%}",
    ] + ([f"base run  {report.base_run} (its tuning trials only)"] if report.base_run else [])


def _lines(report: ImproveReport, bullet: str, indent: str) -> list[str]:
    lines = [*_header(report)]
    if report.notes:  # why little or nothing could be measured comes first, not last
        lines += ["", *(sanitize_text(note) for note in report.notes)]
    lines += ["", f"Tuning failures: {len(report.tuning_failures)}"]
    for failure in report.tuning_failures:
        picked = picks_text(failure.picked)
        expected = failure.expected or "no call"
        lines.append(
            f"{bullet}{failure.task_id}: {sanitize_text(failure.prompt)} (expects {expected}; "
            f"got {picked})"
        )
    accepted = [c for c in report.candidates if c.accepted]
    lines += ["", f"Candidates: {len(report.candidates)} ({len(accepted)} accepted)"]
    for candidate in report.candidates:
        lines += _candidate_lines(candidate, bullet, indent)
    return lines


def _closing(report: ImproveReport) -> list[str]:
    lines: list[str] = []
    if report.final is not None:
        lines += ["", "Accepted surface against the base, held-out tasks:"]
        lines += measurement_lines(report.final)
    lines += ["", f"Patch: {len(report.patch)} replace operation(s) (RFC 6902)"]
    lines += [f"  {operation.path}" for operation in report.patch]
    lines += ["", "Method: " + report.method]
    return lines


def render_improve_terminal(report: ImproveReport) -> str:
    """Plain terminal text: every candidate with its figures, then each accepted side by side."""
    lines = ["whichtool-tui improve", *(f"  {line}" for line in _lines(report, "  ", "      "))]
    for candidate in report.candidates:
        if candidate.accepted:
            lines += ["", f"{candidate.tool} (accepted {candidate.id}):"]
            sides = side_by_side(candidate.description_before, candidate.description_after)
            lines += [f"  {line}" for line in sides]
    lines += _closing(report)
    return "\n".join(lines).replace("`", "") + "\n"


def render_improve_markdown(report: ImproveReport) -> str:
    """A markdown summary (a CI job summary), accepted descriptions in a two-column table."""
    lines = ["## Description rewrites measured on held-out tasks", ""]
    lines += _lines(report, "- ", "  - ")
    for candidate in report.candidates:
        if candidate.accepted:
            left, right = marked_words(candidate.description_before, candidate.description_after)
            lines += [
                "",
                f"### `{candidate.tool}` ({candidate.id})",
                "",
                "| before | after |",
                "|---|---|",
                f"| {markdown_cell(left)} | {markdown_cell(right)} |",
            ]
    lines += _closing(report)
    return "\n".join(lines) + "\n"
