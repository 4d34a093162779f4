"""``atoms --evaluate``: the catalog over the bundled labelled corpus, as precision/recall."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path


def evaluate_corpus(progress: Callable[[str], None], with_reference: bool = True) -> str:
    """Run every corpus target (fixture modes, the held-out hostile server in a checkout, the
    installed reference servers) and return the per-atom Markdown table."""
    from whichtool_tui.arcade.corpus import (
        FIXTURE_TARGETS,
        evaluate,
        hostile_targets,
        reference_targets,
        score_corpus,
        table_markdown,
    )
    from whichtool_tui.event_loop import run_coroutine

    targets = list(FIXTURE_TARGETS) + hostile_targets()
    targets += reference_targets() if with_reference else []
    with tempfile.TemporaryDirectory(prefix="whichtool-corpus-") as folder:
        results = run_coroutine(evaluate(targets, Path(folder), progress))
    names = ", ".join(t.name for t in targets)
    return table_markdown(score_corpus(results), len(targets)) + f"\nTargets: {names}.\n"
