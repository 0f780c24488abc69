"""The last few geometry snapshots, kept by the identity of their table.

A ``Battlefield`` is frozen, so the same object always has the same geometry: rules that
read one table several times in a row (a rank-and-flank round's rows, a challenge row run
again for each answer) ask ``KeptSnapshots.get`` and share one snapshot, with what it has
already measured.  Kept by identity, never by value: nothing here decides which tables
are alike.  Not a rule: the same answers either way, fewer snapshots built.

A table not kept is derived from the one built last when both have the same rules
(``Geometry.moved``: only the pairs touching the models that moved, turned, were
removed or were added are measured, every answer the same as ``snapshot``'s), so a
phase that changes a few units at a time pays for those, not for the whole table again:
a rank-and-flank phase on a table twice as large costs about twice as much.
"""

from __future__ import annotations

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.snapshot import Geometry

__all__ = ["KeptSnapshots"]


class KeptSnapshots:
    """``snapshot(bf)`` for the last ``size`` tables asked for (the most recently used
    first when ``recent_first``, else the most recently built)."""

    def __init__(self, size: int, recent_first: bool = False):
        self.size = size
        self.recent_first = recent_first
        self._kept: list[tuple[Battlefield, Geometry]] = []
        # the table and snapshot built last (``_derived`` derives the next from it)
        self._last: tuple[Battlefield, Geometry] | None = None

    def get(self, bf: Battlefield) -> Geometry:
        """The snapshot of ``bf``, built when it is not kept.  Raises what ``snapshot``
        raises."""
        for i, (table, geo) in enumerate(self._kept):
            if table is bf:
                if i and self.recent_first:
                    self._kept.insert(0, self._kept.pop(i))
                return geo
        geo = self._derived(bf)
        self._kept.insert(0, (bf, geo))
        del self._kept[self.size:]
        return geo

    def _derived(self, bf: Battlefield) -> Geometry:
        """``snapshot(bf)``: derived from the snapshot built last when its table has the
        same rules (``Geometry.moved`` compares every model and measures only the
        pairs of those that changed; it builds afresh past ``DERIVE_MAX_MOVED``)."""
        last = self._last
        if last is not None and (last[0].rules is bf.rules or last[0].rules == bf.rules):
            geo = last[1].moved(bf)
        else:
            geo = snapshot(bf)
        self._last = (bf, geo)
        return geo

    def clear(self) -> None:
        """Drop every kept snapshot."""
        self._kept.clear()
        self._last = None
