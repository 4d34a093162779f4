"""The price lines of a batch run: the same requests' tokens billed direct and at the batch
API's published discount, in the dry-run plan and in the report (terminal and Markdown).

Prices are in tokens, as the rest of the plan is (the project keeps no per-model price table):
a batch bills each token at ``discount`` of the direct price, so the batch column is the number
of direct-priced tokens the same bill would buy.
"""

from __future__ import annotations

import math

from whichtool_tui.evaluation.report_model import BatchBlock, RunReport
from whichtool_tui.providers.batch_api import BatchFacts
from whichtool_tui.text_safety import ascii_safe


def _percent(discount: float) -> str:
    return f"{discount * 100:g}%"


def dry_run_batch_rows(
    prompt_tokens_total: int, planned: int, facts: BatchFacts, max_lines: int | None
) -> list[tuple[str, str]]:
    """The dry run's batch rows: the split into batches and the price direct vs batch."""
    per_batch = min(facts.max_requests, max_lines or facts.max_requests)
    batches = max(1, math.ceil(planned / per_batch))
    billed = math.ceil(prompt_tokens_total * facts.discount)
    return [
        (
            "batch",
            f"{facts.api}: {planned:,} requests in {batches} batch(es) of at most {per_batch:,} "
            f"(and {facts.max_bytes // (1024 * 1024)} MB); results within "
            f"{facts.completion_window}",
        ),
        (
            "price",
            f"direct ~{prompt_tokens_total:,} prompt tokens; batch billed at "
            f"{_percent(facts.discount)} = the price of ~{billed:,} direct prompt tokens",
        ),
        ("", f"discount: {ascii_safe(facts.source)}, verified {facts.verified_on}"),
    ]


def _usage(report: RunReport) -> tuple[int, int]:
    prompt = completion = 0
    for trial in report.trials:
        if trial.usage is not None:
            prompt += trial.usage.prompt_tokens or 0
            completion += trial.usage.completion_tokens or 0
    return prompt, completion


def price_text(report: RunReport, block: BatchBlock) -> str:
    """One sentence: the tokens the answers reported, direct and billed at the discount."""
    prompt, completion = _usage(report)
    billed_prompt = math.ceil(prompt * block.discount)
    billed_completion = math.ceil(completion * block.discount)
    return (
        f"{prompt:,} input + {completion:,} output tokens reported; billed at "
        f"{_percent(block.discount)} in a batch = the price of {billed_prompt:,} + "
        f"{billed_completion:,} direct tokens"
    )


def batch_terminal_lines(report: RunReport, block: BatchBlock) -> list[str]:
    """The report's Batch section as ASCII lines."""
    return [
        "Batch",
        f"  api          {ascii_safe(block.api)}: {len(block.batch_ids)} batch(es), "
        f"{block.lines_sent:,} requests sent, {block.answered_from_cache:,} trials from the cache",
        f"  lines        {block.errored_lines:,} errored, {block.expired_lines:,} expired",
        f"  price        {price_text(report, block)}",
        f"  discount     {ascii_safe(block.discount_source)}, verified {block.verified_on}",
    ]


def batch_markdown_lines(report: RunReport, block: BatchBlock) -> list[str]:
    """The report's Batch section as Markdown."""
    from whichtool_tui.text_safety import markdown_cell

    return [
        "",
        "### Batch",
        "",
        f"- API: {markdown_cell(block.api)}, {len(block.batch_ids)} batch(es), "
        f"{block.lines_sent:,} requests sent, {block.answered_from_cache:,} trials from the cache",
        f"- Lines: {block.errored_lines:,} errored, {block.expired_lines:,} expired",
        f"- Price: {price_text(report, block)}",
        f"- Discount: {markdown_cell(block.discount_source)}, verified {block.verified_on}",
    ]
