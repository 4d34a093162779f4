"""Families of near-duplicate tools: connected groups of overlapping pairs, one finding each.

A surface generated from one description template has a near-duplicate pair for almost every
two of its tools, so a finding per pair grows with the square of the tool count. Tools joined by
pairs at or above a threshold form a family (a connected component); each family gets one
finding naming its members, the highest and typical pair scores, the shared template and one
fix. A family of two is exactly the pair finding it replaces. Components are kept as label
arrays merged smaller-into-larger, so grouping costs about n log n on top of the scoring.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsIndex

MAX_FAMILY_TOOLS = 50
"""Members a family finding lists in ``tools`` (its ``detail.members`` has the full count)."""
MAX_NAMED_IN_MESSAGE = 3
MAX_TEMPLATE_CHARS = 160
MIN_TEMPLATE_WORDS = 3


class Partners(Protocol):
    """Partner indices: a list, a range or an integer array."""

    def __getitem__(self, position: int, /) -> SupportsIndex: ...

    def __iter__(self) -> Iterator[SupportsIndex]: ...


@dataclass(frozen=True)
class RowPairs:
    """One row's pairs into a family: the partners, how many, the scores' left-to-right sum
    (as ``sum`` adds them), the best score and the position of its first occurrence."""

    partners: Partners
    count: int
    total: float
    best: float
    best_at: int

    @classmethod
    def of(cls, partners: Partners, scores: list[float]) -> RowPairs | None:
        """Summed from the row's scores in partner order (None when there are none)."""
        if not scores:
            return None
        best = max(scores)
        return cls(partners, len(scores), sum(scores), best, scores.index(best))


@dataclass
class _Stats:
    pairs: int = 0
    total: float = 0.0
    best: tuple[float, int, int] = (-1.0, 0, 0)  # (score, -first, -second): max is the best


@dataclass
class Components:
    """Connected components over pairs added row by row (``first`` ascending)."""

    size: int
    label: list[int] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)
    stats: dict[int, _Stats] = field(default_factory=dict)
    labels_array: Any = None
    """``label`` as a numpy array, kept from the first row given as an array on."""

    def __post_init__(self) -> None:
        self.label = list(range(self.size))

    def add_row(self, first: int, row: RowPairs) -> None:
        """Join ``first`` with every partner (pairs (first, j), j > first) and count the pairs."""
        label = self.label
        home = self.members.get(label[first])
        if home is not None and len(home) == self.size:  # everyone is already one family
            labels = {label[first]}
        elif hasattr(row.partners, "dtype"):  # an integer array: look the labels up at once
            import numpy as np

            if self.labels_array is None:
                self.labels_array = np.array(label, dtype=np.int64)
            found = self.labels_array[row.partners]
            own = label[first]
            # Mostly every partner is in the row's own family already: one comparison says so.
            labels = {own} if bool((found == own).all()) else set(np.unique(found).tolist())
        else:
            labels = {label[j] for j in row.partners}
        labels.add(label[first])
        if len(labels) > 1:
            ordered = sorted(labels, key=lambda item: (-len(self.members.get(item, (item,))), item))
            target = ordered[0]
            into = self.members.setdefault(target, [target])
            merged = self.stats.setdefault(target, _Stats())
            for other in ordered[1:]:
                moved = self.members.pop(other, [other])
                for member in moved:
                    label[member] = target
                if self.labels_array is not None:
                    self.labels_array[moved] = target
                into.extend(moved)
                gone = self.stats.pop(other, None)
                if gone is not None:
                    merged.pairs += gone.pairs
                    merged.total += gone.total
                    merged.best = max(merged.best, gone.best)
        stats = self.stats.setdefault(label[first], _Stats())
        stats.pairs += row.count
        stats.total += row.total
        stats.best = max(stats.best, (row.best, -first, -int(row.partners[row.best_at])))

    def families(self) -> list[Family]:
        """Every component of two or more tools, members in index order, first member first."""
        found = []
        for key, members in self.members.items():
            if len(members) < 2:
                continue
            stats = self.stats[key]
            score, first, second = stats.best
            found.append(
                Family(
                    members=tuple(sorted(members)),
                    pairs=stats.pairs,
                    best=score,
                    best_pair=(-first, -second),
                    mean=stats.total / stats.pairs,
                )
            )
        return sorted(found, key=lambda family: family.members)


@dataclass(frozen=True)
class Family:
    """One group of tools joined by overlapping pairs (indices into the scored tool list)."""

    members: tuple[int, ...]
    pairs: int
    best: float
    best_pair: tuple[int, int]
    mean: float


def shared_template(descriptions: Sequence[str]) -> str | None:
    """The words every description starts and ends with, the varying middle shown as "{…}".

    None when the shared words are too few to call a template (fewer than three in all).
    """
    # Lowering a whole text never makes or removes whitespace (and a final sigma reads the
    # same letters around it): its words are the lowered words, one call per text.
    lowered = [text.lower().split() for text in descriptions]
    if not lowered or not all(lowered):
        return None
    first = descriptions[0].split()
    shortest = min(len(words) for words in lowered)
    prefix = 0
    while prefix < shortest and all(words[prefix] == lowered[0][prefix] for words in lowered):
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and all(
        words[-1 - suffix] == lowered[0][-1 - suffix] for words in lowered
    ):
        suffix += 1
    if prefix + suffix < MIN_TEMPLATE_WORDS:
        return None
    head = first[:prefix]
    tail = first[len(first) - suffix :] if suffix else []
    varies = any(len(words) != prefix + suffix for words in lowered)
    text = " ".join([*head, *(["{…}"] if varies else []), *tail])
    if len(text) > MAX_TEMPLATE_CHARS:
        text = text[: MAX_TEMPLATE_CHARS - 1].rstrip() + "…"
    return text


def named_members(names: Sequence[str]) -> str:
    """ "`a`, `b`, `c` and 7 more": the first few members, then how many are left."""
    shown = ", ".join(f"`{name}`" for name in names[:MAX_NAMED_IN_MESSAGE])
    rest = len(names) - MAX_NAMED_IN_MESSAGE
    return f"{shown} and {rest:,} more" if rest > 0 else shown


def listed_members(names: Sequence[str]) -> list[str]:
    """The members a finding's ``tools`` lists (capped; the count goes in the detail)."""
    return list(names[:MAX_FAMILY_TOOLS])
