"""Every pair's trigram overlap, a block of rows at a time, for big surfaces.

The shared counts come from :class:`~whichtool_tui.surface.shared_counts.SharedCounts`: exact
integers (rare features counted pair by pair, the middle band as a BLAS product), one block of
rows against the columns from its first row on, so memory stays linear in the tool count. The
scores divide the same integers as the plain definition (``2 * shared / (size_a + size_b)``, one
correctly rounded division): every score is bit-for-bit the pure-Python one. numpy comes with
the BM25 library the findability review already uses; it is imported only here, so a small
surface (scored by the pure-Python path) never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whichtool_tui.surface.families import RowPairs
from whichtool_tui.surface.shared_counts import SharedCounts

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

ROW_BLOCK_CELLS = 2_000_000
"""At most this many scores (16 MB of float64) made at once, a block of rows at a time."""


@dataclass(frozen=True)
class PairRow:
    """Row ``first``'s partners at or above the notable threshold, split at the high one
    (None where it has none on that side)."""

    first: int
    strong: RowPairs | None
    weak: RowPairs | None


def load_numpy() -> None:
    """Import numpy now: a helper does it while the surface it will score is being read."""
    import numpy  # noqa: F401


def shared_count_matrix(
    texts: Sequence[str],
) -> tuple[NDArray[np.floating[Any]], NDArray[np.int64]]:
    """(Σ min over trigrams for every pair i < j, as exact integers; each text's size), all
    at once: for a small surface (a big one is scored a block of rows at a time)."""
    counts = SharedCounts(texts)
    return counts.block(0, counts.count), counts.sizes


def scored_pairs(
    texts: Sequence[str],
    empty: Sequence[bool],
    group_of: Sequence[int],
    thresholds: tuple[float, float],
    limit: int,
    on_row: Callable[[PairRow], None],
) -> list[tuple[float, int, int]]:
    """Every pair scored: each row with pairs at the notable threshold or more (split at the
    high one, identical descriptions aside) is handed to ``on_row`` as it is made, first index
    ascending; returns the ``limit`` best pairs, by score, then first, then second index.
    Scores are made a block of rows at a time and no row is kept (bounded memory)."""
    import numpy as np

    counts = SharedCounts(texts)
    sizes = counts.sizes.astype(np.float64)  # a sum of two sizes is exact in float64
    count = len(texts)
    blank = np.array(empty, dtype=bool)
    groups = np.array(group_of, dtype=np.int64)
    candidates: list[tuple[float, int, int]] = []
    floor = 0.0
    step = max(1, ROW_BLOCK_CELLS // max(count, 1))
    for low in range(0, count, step):
        high_row = min(count, low + step)
        # Columns from ``low`` on: the pairs (i, j > i) of these rows.
        scores = np.multiply(counts.block(low, high_row), 2.0, dtype=np.float64)
        scores /= sizes[low:high_row, None] + sizes[None, low:]
        if blank.any():
            inside = blank[low:high_row, None]
            scores[inside & blank[None, low:]] = 1.0
            scores[inside ^ blank[None, low:]] = 0.0
        scores[np.tri(high_row - low, count - low, dtype=bool)] = -1.0
        for row in _notable_rows(scores, low, groups, thresholds):
            on_row(row)
        candidates.extend(top_pairs(scores, limit, low, low, floor))
        if len(candidates) >= limit > 0:  # later pairs must at least tie the current last
            candidates.sort(key=lambda item: (-item[0], item[1], item[2]))
            del candidates[limit:]
            floor = candidates[-1][0]
    candidates.sort(key=lambda item: (-item[0], item[1], item[2]))
    return candidates[: max(limit, 0)]


def _notable_rows(
    scores: NDArray[np.float64],
    low: int,
    groups: NDArray[np.int64],
    thresholds: tuple[float, float],
) -> Iterator[PairRow]:
    """Rows ``low``.. of a block with a pair at the notable threshold or more: those pairs
    (found for the whole block at once, then cut into rows)."""
    import numpy as np

    notable, high = thresholds
    count = low + scores.shape[1]
    width = scores.shape[1]
    flat = scores.ravel()
    at = np.flatnonzero(flat >= notable)  # row by row, partners ascending
    offsets, partners = np.divmod(at, width)
    partners += low  # the block's columns start at its first row
    own = groups[offsets + low]
    if bool((own >= 0).any()):  # identical descriptions are their own finding, not a pair
        keep = (own < 0) | (groups[partners] != own)
        at, offsets, partners = at[keep], offsets[keep], partners[keep]
    values = flat[at]
    strong = values >= high
    starts = np.searchsorted(offsets, np.arange(scores.shape[0] + 1)).tolist()
    for offset in np.flatnonzero(np.diff(starts)).tolist():
        first = low + offset
        begin, end = starts[offset], starts[offset + 1]
        row_strong = strong[begin:end]
        row_values = values[begin:end]
        if end - begin == count - first - 1 and bool(row_strong.all()):
            # A templated row: every later tool is close; a range, not an array of them.
            yield PairRow(first, _summed(range(first + 1, count), row_values), None)
            continue
        row_partners = partners[begin:end]
        row_weak = ~row_strong
        yield PairRow(
            first,
            _summed(row_partners[row_strong], row_values[row_strong]),
            _summed(row_partners[row_weak], row_values[row_weak]),
        )


def _summed(partners: NDArray[np.int64] | range, values: NDArray[np.float64]) -> RowPairs | None:
    """A row's pairs summed as ``sum`` would add them: a cumulative sum adds left to right."""
    import numpy as np

    if not len(partners):
        return None
    best_at = int(np.argmax(values))  # the first of equal maxima, as list.index finds it
    total = float(np.cumsum(values)[-1])
    return RowPairs(partners, len(partners), total, float(values[best_at]), best_at)


def top_pairs(
    scores: NDArray[np.float64], limit: int, low: int = 0, left: int = 0, floor: float = 0.0
) -> list[tuple[float, int, int]]:
    """The ``limit`` best (score, first, second) at ``floor`` or more of a block of rows
    ``low``.. whose columns start at ``left`` (pairs score 0 or more, -1 marks no pair), by
    score, then first, then second index."""
    import numpy as np

    width = scores.shape[1]
    flat = scores.ravel()
    at = np.flatnonzero(flat >= max(floor, 0.0))
    wanted = min(limit, len(at))
    if wanted <= 0:
        return []
    values = flat[at]
    cut = np.partition(values, len(values) - wanted)[len(values) - wanted]
    above = at[values > cut]
    above = above[np.lexsort((above, -flat[above]))]
    # Ties at the cut come in flat-index order, which is (first, second) order.
    ties = at[values == cut][: wanted - len(above)]
    chosen = np.concatenate((above, ties))
    return [
        (score, low + index // width, left + index % width)
        for score, index in zip(flat[chosen].tolist(), chosen.tolist(), strict=True)
    ]
