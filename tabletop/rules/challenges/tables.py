"""One geometry snapshot per table for the challenge rules.

A ``Battlefield`` is frozen, so the same object always has the same geometry.
The challenge code reads one table several times in a row: the character
challenge's row runs again from the start for each answer it is given
(``rank_and_flank.phase._asking``: the issue, the accept, then the moves), and
the odds table (``report``) reads the map's table for its combats, then each
combat's characters.  ``geometry(bf)`` gives all of them the one snapshot of
that object, with what it has already measured (base contacts, engagement),
instead of a new snapshot each time.  It keeps the last ``KEPT_TABLES`` tables
by identity (never by value: nothing here decides which tables are alike).
"""

from __future__ import annotations

from tabletop.board.state import Battlefield
from tabletop.geometry.snapshot import Geometry
from tabletop.rules.kept_geometry import KeptSnapshots

__all__ = ["KEPT_TABLES", "geometry"]

KEPT_TABLES = 8

_KEPT = KeptSnapshots(KEPT_TABLES, recent_first=True)


def geometry(bf: Battlefield) -> Geometry:
    """``snapshot(bf)``, the same object for the same table while it is among the last
    ``KEPT_TABLES`` asked for (``rules.kept_geometry``).  Raises what ``snapshot`` raises."""
    return _KEPT.get(bf)
