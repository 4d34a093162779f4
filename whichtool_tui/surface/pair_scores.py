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
from typing import TYPE_CHECKING

from whichtool_tui.surface.canonical import as_utf16_units
from whichtool_tui.surface.families import RowPairs

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CHUNK_CELLS = 8_000_000
"""At most this many matrix cells (32 MB of float32) per block of feature columns."""
_EXACT_FLOAT32 = 1 << 24
_CODE_BITS = 21  # every code unit is below 0x110000 = 2**21: three fit in one int64


@dataclass(frozen=True)
class PairRow:
    """Row ``first``'s partners at or above the notable threshold, split at the high one
    (None where it has none on that side)."""

    first: int
    strong: RowPairs | None
    weak: RowPairs | None


def trigram_keys(text: str) -> NDArray[np.int64]:
    """Each padded trigram of ``text`` (UTF-16 units, as ``trigram_counts``) as one integer."""
    import numpy as np

    padded = "  " + as_utf16_units(text) + " "
    units = np.frombuffer(padded.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    codes = units.astype(np.int64)
    return (codes[:-2] << (2 * _CODE_BITS)) | (codes[1:-1] << _CODE_BITS) | codes[2:]


def shared_count_matrix(texts: Sequence[str]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """(Σ min over trigrams for every pair, as exact integers in float64; each text's size)."""
    import numpy as np

    count = len(texts)
    keyed = [trigram_keys(text) for text in texts]
    sizes = np.array([len(keys) for keys in keyed], dtype=np.int64)
    shared = np.zeros((count, count), dtype=np.float64)
    if count < 2:
        return shared, sizes
    keys = np.concatenate(keyed)
    owner = np.repeat(np.arange(count, dtype=np.int64), sizes)
    # Occurrence number k of each trigram within its tool: rank inside its (owner, key) run.
    order = np.lexsort((keys, owner))
    keys, owner = keys[order], owner[order]
    starts = np.ones(len(keys), dtype=bool)
    starts[1:] = (keys[1:] != keys[:-1]) | (owner[1:] != owner[:-1])
    positions = np.arange(len(keys), dtype=np.int64)
    run_start = np.maximum.accumulate(np.where(starts, positions, 0))
    occurrence = positions - run_start
    # One id per (key, k) feature; each (owner, feature) appears once.
    order = np.lexsort((owner, occurrence, keys))
    keys, owner, occurrence = keys[order], owner[order], occurrence[order]
    new_feature = np.ones(len(keys), dtype=bool)
    new_feature[1:] = (keys[1:] != keys[:-1]) | (occurrence[1:] != occurrence[:-1])
    feature = np.cumsum(new_feature) - 1
    holders = np.bincount(feature)
    # A feature one tool holds adds nothing to any pair; one every tool holds adds 1 to all.
    universal = int(np.count_nonzero(holders == count))
    kept = (holders > 1) & (holders < count)
    column = np.cumsum(kept) - 1
    chosen = kept[feature]
    rows, columns = owner[chosen], column[feature[chosen]]
    features = int(np.count_nonzero(kept))
    # float32 holds every integer below 2**24 exactly; past that (not reachable) use float64.
    dtype = np.float64 if int(sizes.max()) >= _EXACT_FLOAT32 else np.float32
    step = max(1, min(CHUNK_CELLS // count, _EXACT_FLOAT32 - 1))
    for low in range(0, features, step):
        inside = (columns >= low) & (columns < low + step)
        block = np.zeros((count, min(step, features - low)), dtype=dtype)
        block[rows[inside], columns[inside] - low] = 1
        shared += block @ block.T
    if universal:
        shared += universal
    return shared, sizes


def pair_score_matrix(texts: Sequence[str], empty: Sequence[bool]) -> NDArray[np.float64]:
    """Every pair's Dice score (upper triangle; -1 on and below the diagonal)."""
    import numpy as np

    shared, sizes = shared_count_matrix(texts)
    count = len(texts)
    totals = (sizes[:, None] + sizes[None, :]).astype(np.float64)
    scores = (2 * shared) / totals
    if any(empty):
        blank = np.array(empty, dtype=bool)
        scores[blank[:, None] & blank[None, :]] = 1.0
        scores[blank[:, None] ^ blank[None, :]] = 0.0
    scores[np.tril_indices(count)] = -1.0
    return scores


def notable_rows(
    scores: NDArray[np.float64], group_of: Sequence[int], notable: float, high: float
) -> list[PairRow]:
    """Per row with a pair at ``notable`` or more: those pairs (identical descriptions aside)."""
    import numpy as np

    groups = np.array(group_of, dtype=np.int64)
    found = []
    for first in np.flatnonzero(scores.max(axis=1) >= notable).tolist():
        row = scores[first]
        partners = np.flatnonzero(row >= notable)
        group = group_of[first]
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


def top_pairs(scores: NDArray[np.float64], limit: int) -> list[tuple[float, int, int]]:
    """The ``limit`` best (score, first, second), by score, then first, then second index."""
    import numpy as np

    count = scores.shape[0]
    wanted = min(limit, count * (count - 1) // 2)
    if wanted <= 0:
        return []
    flat = scores.ravel()
    floor = np.partition(flat, flat.size - wanted)[flat.size - wanted]
    above = np.flatnonzero(flat > floor)
    above = above[np.lexsort((above, -flat[above]))]
    # Ties at the floor come in flat-index order, which is (first, second) order.
    ties = np.flatnonzero(flat == floor)[: wanted - len(above)]
    chosen = np.concatenate((above, ties))
    return [
        (score, index // count, index % count)
        for score, index in zip(flat[chosen].tolist(), chosen.tolist(), strict=True)
    ]
