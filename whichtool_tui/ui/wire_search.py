"""Body search over a bout's wire, answered from earlier answers wherever they must contain it.

An answer for ``known`` holds every row an answer for ``query`` can hold whenever ``known`` is a
substring of ``query``: typing on narrows from the last keystroke, deleting back returns a kept
answer at once, and a new word narrows from any kept answer it contains. Only the first
keystroke after a filter change scans every row.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

KEPT_ANSWERS = 24  # a 100,000-row answer is ~0.8 MB: a couple of dozen are cheap to keep


class WireSearch:
    """Row indices whose lower-cased search text holds a query, within one scope of filters.

    ``scope`` names everything else the answer depends on (the bout, the other filters, how
    many rows are loaded); a new scope forgets every kept answer.
    """

    def __init__(self) -> None:
        self._scope: Hashable = None
        self._answers: OrderedDict[str, list[int]] = OrderedDict()

    def find(
        self,
        query: str,
        scope: Hashable,
        texts: Callable[[], Sequence[str]],
        candidates: Callable[[], list[int]],
    ) -> list[int]:
        """Indices (ascending) of the rows ``candidates`` admits whose text holds ``query``.

        ``texts`` is only asked for when a row has to be read (the index may still be building).
        """
        if scope != self._scope:
            self._scope = scope
            self._answers.clear()
        kept = self._answers.get(query)
        if kept is not None:
            self._answers.move_to_end(query)
            return kept
        if "" not in self._answers:
            self._keep("", candidates())
        pool = min(
            (rows for known, rows in self._answers.items() if known in query), key=len
        )  # "" is in every query, so there is always one
        if query:
            haystacks = texts()
            found = [index for index in pool if query in haystacks[index]]
            self._keep(query, found)
            return found
        return pool

    def _keep(self, query: str, rows: list[int]) -> None:
        self._answers[query] = rows
        while len(self._answers) > KEPT_ANSWERS:
            oldest = next(iter(self._answers))
            if oldest == "":  # the unsearched pool stays: every later answer starts from it
                self._answers.move_to_end("")
                oldest = next(iter(self._answers))
            del self._answers[oldest]
