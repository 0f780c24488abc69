"""The last few geometry snapshots, kept by the identity of their table.

A ``Battlefield`` is frozen, so the same object always has the same geometry: rules that
read one table several times in a row (a rank-and-flank round's rows, a challenge row run
again for each answer) ask ``KeptSnapshots.get`` and share one snapshot, with what it has
already measured.  Kept by identity, never by value: nothing here decides which tables
are alike.  Not a rule: the same answers either way, fewer snapshots built.
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

    def get(self, bf: Battlefield) -> Geometry:
        """The snapshot of ``bf``, built when it is not kept.  Raises what ``snapshot``
        raises."""
        for i, (table, geo) in enumerate(self._kept):
            if table is bf:
                if i and self.recent_first:
                    self._kept.insert(0, self._kept.pop(i))
                return geo
        geo = snapshot(bf)
        self._kept.insert(0, (bf, geo))
        del self._kept[self.size:]
        return geo

    def clear(self) -> None:
        """Drop every kept snapshot."""
        self._kept.clear()
