"""Every pair's trigram overlap at once, as matrix products, for big surfaces.

Σ min(count_a, count_b) over trigrams is the size of the intersection of the two tools' sets of
(trigram, k) occurrence features, k = 1..count. With one 0/1 column per feature, the matrix of
those intersections is X·Xᵀ: a BLAS product that scores 499,500 pairs in a few hundredths of a
second. Every entry is an integer below 2**24, so the single-precision product is exact, and the
scores divide the same integers as the plain definition (``2 * shared / (size_a + size_b)``, one
correctly rounded division): every score is bit-for-bit the pure-Python one. numpy comes with
the BM25 library the findability review already uses; it is imported only here, so a small
surface (scored by the pure-Python path) never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whichtool_tui.surface.canonical import as_utf16_units
from whichtool_tui.surface.families import RowPairs

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CHUNK_CELLS = 8_000_000
"""At most this many matrix cells (32 MB of float32) per block of feature columns."""
ROW_BLOCK_CELLS = 4_000_000
"""At most this many scores (32 MB of float64) made at once, a block of rows at a time."""
_EXACT_FLOAT32 = 1 << 24
_CODE_BITS = 21  # every code unit is below 0x110000 = 2**21: three fit in one int64


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


def trigram_keys(text: str) -> NDArray[np.int64]:
    """Each padded trigram of ``text`` (UTF-16 units, as ``trigram_counts``) as one integer."""
    import numpy as np

    padded = "  " + as_utf16_units(text) + " "
    units = np.frombuffer(padded.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    codes = units.astype(np.int64)
    return (codes[:-2] << (2 * _CODE_BITS)) | (codes[1:-1] << _CODE_BITS) | codes[2:]


def shared_count_matrix(
    texts: Sequence[str],
) -> tuple[NDArray[np.floating[Any]], NDArray[np.int64]]:
    """(Σ min over trigrams for every pair, as exact integers in float32; each text's size)."""
    import numpy as np

    count = len(texts)
    keyed = [trigram_keys(text) for text in texts]
    sizes = np.array([len(keys) for keys in keyed], dtype=np.int64)
    # float32 holds every integer below 2**24 exactly (no pair shares more trigrams than its
    # smaller text has); past that (not reachable under the scored-length cap) use float64.
    dtype = np.float64 if count and int(sizes.max()) >= _EXACT_FLOAT32 else np.float32
    shared = np.zeros((count, count), dtype=dtype)
    if count < 2:
        return shared, sizes
    # Each text's keys sorted on their own, then joined: the whole is in (owner, key) order.
    keys = np.concatenate([np.sort(one) for one in keyed])
    owner = np.repeat(np.arange(count, dtype=np.int64), sizes)
    # Occurrence number k of each trigram within its tool: rank inside its (owner, key) run.
    starts = np.ones(len(keys), dtype=bool)
    starts[1:] = (keys[1:] != keys[:-1]) | (owner[1:] != owner[:-1])
    positions = np.arange(len(keys), dtype=np.int64)
    occurrence = positions - np.maximum.accumulate(np.where(starts, positions, 0))
    # One id per (key, k) feature (each (owner, feature) appears once): dense key ids, then
    # one integer per (key id, k).
    _, key_id = np.unique(keys, return_inverse=True)
    _, feature = np.unique(key_id * (int(occurrence.max()) + 1) + occurrence, return_inverse=True)
    holders = np.bincount(feature)
    # A feature one tool holds adds nothing to any pair; one every tool holds adds 1 to all.
    universal = int(np.count_nonzero(holders == count))
    kept = (holders > 1) & (holders < count)
    column = np.cumsum(kept) - 1
    chosen = kept[feature]
    rows, columns = owner[chosen], column[feature[chosen]]
    features = int(np.count_nonzero(kept))
    step = max(1, min(CHUNK_CELLS // count, _EXACT_FLOAT32 - 1))
    for low in range(0, features, step):
        inside = (columns >= low) & (columns < low + step)
        block = np.zeros((count, min(step, features - low)), dtype=dtype)
        block[rows[inside], columns[inside] - low] = 1
        shared += block @ block.T
    if universal:
        shared += universal
    return shared, sizes


def scored_pairs(
    texts: Sequence[str],
    empty: Sequence[bool],
    group_of: Sequence[int],
    thresholds: tuple[float, float],
    limit: int,
) -> tuple[list[PairRow], list[tuple[float, int, int]]]:
    """Every pair scored: the rows with pairs at the notable threshold or more (split at the
    high one, identical descriptions aside) and the ``limit`` best pairs, by score, then first,
    then second index. Scores are made a block of rows at a time (bounded memory)."""
    import numpy as np

    shared, sizes = shared_count_matrix(texts)
    count = len(texts)
    blank = np.array(empty, dtype=bool)
    groups = np.array(group_of, dtype=np.int64)
    columns = np.arange(count)
    rows: list[PairRow] = []
    candidates: list[tuple[float, int, int]] = []
    step = max(1, ROW_BLOCK_CELLS // max(count, 1))
    for low in range(0, count, step):
        high_row = min(count, low + step)
        totals = (sizes[low:high_row, None] + sizes[None, :]).astype(np.float64)
        scores = (2 * shared[low:high_row].astype(np.float64)) / totals
        if blank.any():
            inside = blank[low:high_row, None]
            scores[inside & blank[None, :]] = 1.0
            scores[inside ^ blank[None, :]] = 0.0
        scores[columns[None, :] <= np.arange(low, high_row)[:, None]] = -1.0
        rows.extend(_notable_rows(scores, low, groups, thresholds))
        candidates.extend(top_pairs(scores, limit, low))
    candidates.sort(key=lambda item: (-item[0], item[1], item[2]))
    return rows, candidates[: max(limit, 0)]


def _notable_rows(
    scores: NDArray[np.float64],
    low: int,
    groups: NDArray[np.int64],
    thresholds: tuple[float, float],
) -> list[PairRow]:
    """Rows ``low``.. of a block with a pair at the notable threshold or more: those pairs."""
    import numpy as np

    notable, high = thresholds
    found = []
    for offset in np.flatnonzero(scores.max(axis=1) >= notable).tolist():
        first = low + offset
        row = scores[offset]
        partners = np.flatnonzero(row >= notable)
        group = int(groups[first])
        if group >= 0:
            partners = partners[groups[partners] != group]
        values = row[partners]
        strong = values >= high
        found.append(
            PairRow(
                first,
                _summed(partners[strong], values[strong]),
                _summed(partners[~strong], values[~strong]),
            )
        )
    return found


def _summed(partners: NDArray[np.int64], values: NDArray[np.float64]) -> RowPairs | None:
    """A row's pairs summed as ``sum`` would add them: a cumulative sum adds left to right."""
    import numpy as np

    if not len(partners):
        return None
    best_at = int(np.argmax(values))  # the first of equal maxima, as list.index finds it
    total = float(np.cumsum(values)[-1])
    return RowPairs(partners, len(partners), total, float(values[best_at]), best_at)


def top_pairs(
    scores: NDArray[np.float64], limit: int, low: int = 0
) -> list[tuple[float, int, int]]:
    """The ``limit`` best (score, first, second) of a block of rows ``low``.. (pairs score 0 or
    more, -1 marks no pair), by score, then first, then second index."""
    import numpy as np

    width = scores.shape[1]
    flat = scores.ravel()
    wanted = min(limit, int(np.count_nonzero(flat >= 0)))
    if wanted <= 0:
        return []
    floor = np.partition(flat, flat.size - wanted)[flat.size - wanted]
    above = np.flatnonzero(flat > floor)
    above = above[np.lexsort((above, -flat[above]))]
    # Ties at the floor come in flat-index order, which is (first, second) order.
    ties = np.flatnonzero(flat == floor)[: wanted - len(above)]
    chosen = np.concatenate((above, ties))
    return [
        (score, low + index // width, index % width)
        for score, index in zip(flat[chosen].tolist(), chosen.tolist(), strict=True)
    ]
