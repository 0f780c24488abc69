"""The geometry snapshots of one rank-and-flank phase, kept and derived.

``geometry(battlefield)`` is ``snapshot(battlefield)`` for the tables a phase reads:
the last few are kept by identity (a round's rows read one table several times), and a
new one is derived from the one built last (``rules.kept_geometry``: only the pairs of
the models that moved, were removed or turned are measured).  The round's own rows,
the flight, the turn to face and the closing up all read it, so a table with twice the
units costs about twice as much, not four times.  ``phase`` and ``round_machine`` start
afresh (``forget_geometry``).  Not a rule: every answer is ``snapshot``'s.
"""

from __future__ import annotations

from tabletop.board.state import Battlefield
from tabletop.geometry.snapshot import Geometry
from tabletop.rules.kept_geometry import KeptSnapshots

#: tables kept by identity
KEPT = 4

_GEO = KeptSnapshots(KEPT)


def geometry(battlefield: Battlefield) -> Geometry:
    """``snapshot(battlefield)``, kept for the last few tables seen (by identity), else
    derived from the snapshot built last.  Raises what ``snapshot`` raises."""
    return _GEO.get(battlefield)


def forget_geometry() -> None:
    """Drop the tables ``geometry`` keeps (and the one it would derive from)."""
    _GEO.clear()
