"""The surface diff for people: a plain terminal text and a markdown job summary, one wording."""

from __future__ import annotations

from whichtool_tui.reports.rates import paired_summary
from whichtool_tui.surface.behaviour_diff_model import (
    SurfaceDiffReport,
    SurfaceRerun,
    ToolChange,
)
from whichtool_tui.text_safety import MARKDOWN, TERMINAL, Escapes


def _tool(change: ToolChange, esc: Escapes) -> str:
    def code(name: str | None) -> str:
        return esc.code(name or "")

    if change.kind == "renamed":
        how = (
            "same content"
            if change.rename_match == "content"
            else f"description similarity {change.similarity:.2f}"
        )
        extra = f"; also {', '.join(change.fields)}" if change.fields else ""
        return f"renamed {code(change.base_name)} -> {code(change.head_name)} ({how}{extra})"
    if change.kind == "changed":
        return f"changed {code(change.base_name)}: {', '.join(change.fields)}"
    return f"{change.kind} {code(change.head_name or change.base_name)}"


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.1%}"


def _paired_line(rerun: SurfaceRerun) -> str:
    return "paired over " + paired_summary(rerun.paired)


def _lines(report: SurfaceDiffReport, esc: Escapes, bullet: str) -> list[str]:
    code, text = esc.code, esc.text
    lines = [
        f"base {text(report.base.source)} ({report.base.tools} tools), "
        f"head {text(report.head.source)} ({report.head.tools} tools)",
        "",
        f"Tool changes: {len(report.changes)} ({report.unchanged_tools} unchanged)",
    ]
    for change in report.changes:
        lines.append(f"{bullet}{_tool(change, esc)}")
        if change.description_before is not None or change.description_after is not None:
            lines.append(f"    before: {text(change.description_before or '')}")
            lines.append(f"    after:  {text(change.description_after or '')}")
    if report.partners:
        lines += ["", f"Confusable partners (overlap >= {report.partner_threshold:.2f}):"]
        lines += [
            f"{bullet}{code(p.changed)} ~ {code(p.partner)} {p.score:.2f} on {p.side}"
            for p in report.partners
        ]
    if report.task_set is not None:
        lines += [
            "",
            f"Tasks that can be affected ({text(report.task_set)}): {len(report.affected_tasks)} "
            f"({report.unaffected_tasks} not)",
        ]
        for task in report.affected_tasks:
            reason = text(task.not_runnable_reason or "")
            suffix = "" if task.runnable else f" [not re-run: {reason}]"
            lines.append(f"{bullet}{text(task.task_id)}: {text('; '.join(task.reasons))}{suffix}")
    if report.rerun is not None:
        rerun = report.rerun
        lines += [
            "",
            f"Re-run with {text(rerun.provider)} ({text(rerun.model)}), seed {rerun.seed}, repeat "
            f"{rerun.repeat}, {'permuted' if rerun.permuted else 'served order'}: "
            f"{rerun.trials_per_side} trials per side",
        ]
        for row in rerun.tasks:
            lines.append(
                f"{bullet}{text(row.task_id)}: base {row.base_correct}/{row.base_scored}, head "
                f"{row.head_correct}/{row.head_scored} ({_percent(row.change)})"
            )
        lines.append(_paired_line(rerun))
    lines += ["", *map(text, report.notes)] if report.notes else []
    if report.gate.checked:
        state = "FAILED" if report.gate.failed else "passed"
        lines += ["", f"Gate ({', '.join(report.gate.checked)}): {state}"]
        lines += [f"{bullet}{text(failure)}" for failure in report.gate.failures]
    return lines


def render_surface_diff(report: SurfaceDiffReport, output_format: str) -> str:
    """The report as terminal text, markdown or JSON (``whichtool.surface-diff/1``)."""
    if output_format == "json":
        from whichtool_tui.surface.behaviour_diff_model import dump_surface_diff_json

        return dump_surface_diff_json(report)
    if output_format == "markdown":
        return "## Surface diff\n\n" + "\n".join(_lines(report, MARKDOWN, "- ")) + "\n"
    # The wording quotes names in backticks for Markdown; the terminal shows them bare.
    return "surface diff\n" + "\n".join(_lines(report, TERMINAL, "  ")).replace("`", "") + "\n"
