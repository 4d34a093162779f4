"""Σ min(count_a, count_b) over trigrams for a block of pairs at a time, in memory linear in n.

The count is the size of the intersection of two tools' sets of (trigram, k) occurrence
features, k = 1..count: one 0/1 column per feature, X·Xᵀ. A feature held by few tools adds to
few pairs, so its pairs are listed and counted (a bincount) instead of multiplied; a feature held
by nearly every tool is counted through the few that lack it (1 - y: |D| - y_i - y_j + the pairs
that both lack it); only the middle band goes through a BLAS product, with identical columns
merged into one weighted column. Every count is the same integer as the plain definition's, made
for one block of rows against the columns from its first row on (the upper triangle), so the
n x n matrix never exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whichtool_tui.surface.canonical import as_utf16_units

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

SPARSE_SHARE = 0.03
"""A feature held by at most this share of the tools (or lacked by at most it) is counted pair
by pair; listing h holders' pairs costs about what one BLAS column costs at h ≈ 3% of n."""
SPARSE_MIN_HOLDERS = 2
_SORT_KEY_LIMIT = 1 << 62
"""Below this, (feature, tool) fits one int64 and one sort orders every pair (the usual case)."""
_EXACT_FLOAT32 = 1 << 24
_CODE_BITS = 21  # every code unit is below 0x110000 = 2**21: three fit in one int64


def all_trigram_keys(texts: Sequence[str]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each padded trigram of every text (UTF-16 units, as ``trigram_counts``) as one integer,
    text after text (one encode for all), and how many each text has."""
    import numpy as np

    padded = ["  " + as_utf16_units(text) + " " for text in texts]
    lengths = np.array([len(one) for one in padded], dtype=np.int64)
    sizes = lengths - 2
    if not padded:
        return np.zeros(0, dtype=np.int64), sizes
    units = np.frombuffer("".join(padded).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    codes = units.astype(np.int64)
    every = (codes[:-2] << (2 * _CODE_BITS)) | (codes[1:-1] << _CODE_BITS) | codes[2:]
    # Keep the windows that start and end inside one padded text.
    total = int(sizes.sum())
    inside = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return every[np.repeat(np.cumsum(lengths) - lengths, sizes) + inside], sizes


@dataclass(frozen=True)
class _PairLists:
    """Tools listed per feature (each list ascending), to count the pairs inside each list."""

    members: NDArray[np.int64]  # the lists, one after another
    ends: NDArray[np.int64]  # for each position, where its list ends
    by_owner: NDArray[np.int64]  # positions ordered by the tool at them
    owner_starts: NDArray[np.int64]  # by_owner[owner_starts[t]:owner_starts[t + 1]]: tool t's


def _pair_lists(members: NDArray[np.int64], lengths: NDArray[np.int64], count: int) -> _PairLists:
    import numpy as np

    ends = np.repeat(np.cumsum(lengths), lengths)
    by_owner = np.argsort(members)  # any order among one tool's positions counts the same
    owner_starts = np.searchsorted(members[by_owner], np.arange(count + 1))
    return _PairLists(members, ends, by_owner, owner_starts)


def _listed_pairs(lists: _PairLists, low: int, high: int, width: int) -> NDArray[np.int64] | None:
    """How many lists hold both i (rows low..high) and j >= low (columns), flattened."""
    import numpy as np

    positions = lists.by_owner[lists.owner_starts[low] : lists.owner_starts[high]]
    later = lists.ends[positions] - positions - 1  # partners after i in its list (j > i)
    total = int(later.sum())
    if total == 0:
        return None
    first = np.repeat(lists.members[positions] - low, later)
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(later) - later, later)
    second = lists.members[np.repeat(positions + 1, later) + offsets] - low
    return np.bincount(first * width + second, minlength=(high - low) * width)


class SharedCounts:
    """The shared occurrence-feature counts of every pair of ``texts``, a block at a time."""

    def __init__(self, texts: Sequence[str]) -> None:
        import numpy as np

        count = self.count = len(texts)
        keys, self.sizes = all_trigram_keys(texts)
        # float32 holds every integer below 2**24 exactly (no pair shares more than its smaller
        # text has); past that (not reachable under the scored-length cap) use float64.
        big = count and int(self.sizes.max()) >= _EXACT_FLOAT32
        self.dtype: Any = np.float64 if big else np.float32
        self.constant = 0
        empty = np.zeros(0, dtype=np.int64)
        self.lacking = np.zeros(count, dtype=np.int64)
        self.rare = self.common = _pair_lists(empty, empty, count)
        self.dense = self.weighted = np.zeros((count, 0), dtype=self.dtype)
        if count < 2:
            return
        ends = np.cumsum(self.sizes).tolist()
        for start, end in zip([0, *ends[:-1]], ends, strict=True):
            keys[start:end].sort()  # each text's trigrams in order: repeats side by side
        owner = np.repeat(np.arange(count, dtype=np.int64), self.sizes)
        # Occurrence number k of each trigram within its tool: rank inside its (owner, key) run.
        starts = np.ones(len(keys), dtype=bool)
        starts[1:] = (keys[1:] != keys[:-1]) | (owner[1:] != owner[:-1])
        positions = np.arange(len(keys), dtype=np.int64)
        occurrence = positions - np.maximum.accumulate(np.where(starts, positions, 0))
        distinct = np.unique(keys)
        key_id = np.searchsorted(distinct, keys)
        del keys, starts, positions
        # One integer per (key id, k, tool), sorted: every (feature, tool) once, grouped by
        # feature, tools ascending inside each group.
        occurrences = int(occurrence.max()) + 1
        if len(distinct) * occurrences * count < _SORT_KEY_LIMIT:
            composite = (key_id * occurrences + occurrence) * count + owner
            composite.sort()
            owner = composite % count
            composite //= count
        else:  # not reachable under the scored-length cap; the same order, sorted in two keys
            composite = key_id * occurrences + occurrence
            order = np.lexsort((owner, composite))
            composite, owner = composite[order], owner[order]
            del order
        del key_id, occurrence, distinct
        feature = np.zeros(len(composite), dtype=np.int64)
        np.cumsum(composite[1:] != composite[:-1], out=feature[1:])
        del composite
        holders = np.bincount(feature)
        cut = max(SPARSE_MIN_HOLDERS, int(SPARSE_SHARE * count))
        useful = holders > 1  # a feature one tool holds adds to no pair
        rare = useful & (holders <= cut)
        common = useful & ~rare & (holders >= count - cut)  # all tools hold it, or all but a few
        middle = useful & ~rare & ~common
        self.constant = int(np.count_nonzero(common))
        chosen = rare[feature]
        self.rare = _pair_lists(owner[chosen], holders[rare], count)
        # The tools lacking each common feature: all tools minus its holders.
        held = np.zeros((int(np.count_nonzero(common)), count), dtype=bool)
        column = np.cumsum(common) - 1
        chosen = common[feature]
        held[column[feature[chosen]], owner[chosen]] = True
        lack_feature, lack_owner = np.nonzero(~held)
        del held
        self.lacking = np.bincount(lack_owner, minlength=count)
        self.common = _pair_lists(
            lack_owner.astype(np.int64),
            np.bincount(lack_feature, minlength=self.constant).astype(np.int64),
            count,
        )
        self.dense = self._dense_columns(feature, owner, holders, middle)

    def _dense_columns(
        self,
        feature: NDArray[np.int64],
        owner: NDArray[np.int64],
        holders: NDArray[np.int64],
        middle: NDArray[np.bool_],
    ) -> NDArray[np.floating[Any]]:
        """The middle band as 0/1 columns, identical columns merged (weighted by how many)."""
        import numpy as np

        chosen = middle[feature]
        kept_feature, kept_owner = feature[chosen], owner[chosen]
        bounds = np.concatenate(([0], np.cumsum(holders[middle])))
        merged: dict[bytes, int] = {}
        group_of = np.empty(len(bounds) - 1, dtype=np.int64)
        for index in range(len(bounds) - 1):
            holder_set = kept_owner[bounds[index] : bounds[index + 1]].tobytes()
            group_of[index] = merged.setdefault(holder_set, len(merged))
        weights = np.bincount(group_of, minlength=len(merged)).astype(self.dtype)
        dense = np.zeros((self.count, len(merged)), dtype=self.dtype)
        column = np.cumsum(middle) - 1
        dense[kept_owner, group_of[column[kept_feature]]] = 1
        self.weighted = dense * weights[None, :]
        return dense

    def block(self, low: int, high: int) -> NDArray[np.floating[Any]]:
        """Shared counts of rows ``low``..``high`` against columns ``low``.. (entries on or
        below the diagonal are not counted: only pairs (i, j > i) are)."""
        import numpy as np

        width = self.count - low
        shared: NDArray[np.floating[Any]]
        if self.dense.shape[1]:
            shared = self.weighted[low:high] @ self.dense[low:].T
        else:
            shared = np.zeros((high - low, width), dtype=self.dtype)
        for lists in (self.rare, self.common):
            counted = _listed_pairs(lists, low, high, width)
            if counted is not None:
                np.add(shared, counted.reshape(high - low, width), out=shared, casting="unsafe")
        if self.constant:
            lacking = self.lacking.astype(self.dtype)
            shared += self.constant
            shared -= lacking[low:high, None]
            shared -= lacking[None, low:]
        return shared
