"""``bout --format junit|sarif``: a single bout's receipt for CI (tests, code scanning)."""

from __future__ import annotations

from whichtool_tui.arcade.receipt import BoutReceipt

CI_FORMATS = ("junit", "sarif")


def bout_ci_text(receipt: BoutReceipt, fmt: str) -> str:
    """The receipt as JUnit XML or SARIF 2.1.0."""
    if fmt == "junit":
        from whichtool_tui.reports.bout_ci import render_bout_junit

        return render_bout_junit(receipt)
    from whichtool_tui.reports.bout_ci import render_bout_sarif

    return render_bout_sarif(receipt)
