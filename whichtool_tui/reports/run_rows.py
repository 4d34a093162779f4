"""What the human run reports (Markdown and HTML) show beside the metrics, worded once."""

from __future__ import annotations

from whichtool_tui.evaluation.report_model import RunReport


def reproducibility_rows(report: RunReport) -> list[tuple[str, str]]:
    """Label and value of every reproducibility fact, in reading order (values not escaped)."""
    repro = report.reproducibility
    capabilities = repro.provider_capabilities
    honoured = [
        name
        for name, on in (
            ("seed", capabilities.seed),
            ("temperature 0", capabilities.temperature_zero),
            ("logprobs", capabilities.logprobs),
            ("disable thinking", capabilities.disable_thinking),
        )
        if on
    ]
    return [
        ("whichtool version", repro.whichtool_version),
        ("provider", repro.provider),
        ("model", repro.model),
        ("endpoint", repro.endpoint or "(default)"),
        ("request fingerprint", repro.request_fingerprint or "(none)"),
        ("target", f"{report.target.transport} {report.target.ref}"),
        ("surface hash", repro.surface_hash),
        ("task set", f"{repro.task_set_source} (version {repro.task_set_version})"),
        ("temperature", f"{repro.temperature:g}"),
        ("reasoning effort", repro.reasoning_effort or "(unset)"),
        ("seed", str(repro.seed)),
        ("repeat", str(repro.repeat)),
        ("permuted", "yes" if repro.permuted else "no"),
        ("concurrency", str(repro.concurrency)),
        ("provider honours", ", ".join(honoured) or "(none declared)"),
    ]
