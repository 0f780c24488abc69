"""A snapshot after a few models moved, with the drawing shapes of the rest carried over.

``moved_for_drawing(geo, state, moved)`` is ``geo.moved(state, moved, carry_drawing=True)``:
only the pairs touching the moved models measured again, plus what a board drawing reads
from the snapshot: each base's outline (``Geometry.shapes``) and each unit's outline
(``Geometry.unit_outline``).  Without this a drawing of the derived snapshot builds every
base outline again (1,000 look-ups) and asks for every unit's outline again; with it only
the moved models' bases and their units' outlines are built.  The same objects are handed
on, so a renderer comparing outlines by identity (``render.redraw``) sees the unmoved
units unchanged.  The snapshot does the carrying itself (its caches stay its own).

Inches, as ``Geometry``.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.board.state import Battlefield
from tabletop.geometry.snapshot import Geometry

__all__ = ["moved_for_drawing"]


def moved_for_drawing(geo: Geometry, state: Battlefield, moved: Iterable[str]) -> Geometry:
    """The snapshot of ``state`` - ``geo``'s table with only the models ``moved`` (ids)
    moved, turned, added or removed - derived from ``geo`` (``Geometry.moved`` with
    ``carry_drawing``), with ``geo``'s base outlines of every other model and unit outlines
    of every unit none of whose models is in ``moved`` carried over.  Every answer equals
    ``snapshot(state)``'s."""
    return geo.moved(state, moved, carry_drawing=True)
