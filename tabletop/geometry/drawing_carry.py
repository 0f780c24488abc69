"""A snapshot after a few models moved, with the drawing shapes of the rest carried over.

``moved_for_drawing(geo, state, moved)`` is ``geo.moved(state, moved)`` (only the pairs
touching the moved models measured again) plus what a board drawing reads from it: each
base's outline (``Geometry.shapes``) and each unit's outline (``Geometry.unit_outline``).
Without this a drawing of the derived snapshot builds every base outline again (1,000
look-ups) and asks for every unit's outline again; with it only the moved models' bases
and their units' outlines are built.  What is carried is what the new snapshot would
build itself: a footprint depends only on (base, x, y, facing), a unit's outline only
on its models' footprints, and the same objects are handed on, so a renderer comparing
outlines by identity (``render.redraw``) sees the unmoved units unchanged.

Inches; the caches carried are the snapshot's own (``shapes``, the ``_outlines`` table
``unit_outline`` keeps); a snapshot without them has nothing carried.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tabletop.board.state import Battlefield
from tabletop.geometry.footprints import footprint_arrays
from tabletop.geometry.snapshot import Geometry

__all__ = ["moved_for_drawing"]


def moved_for_drawing(geo: Geometry, state: Battlefield, moved: Iterable[str]) -> Geometry:
    """The snapshot of ``state`` - ``geo``'s table with only the models ``moved`` (ids)
    moved, turned, added or removed - derived from ``geo`` (``Geometry.moved``), with
    ``geo``'s base outlines of every other model and unit outlines of every unit none of
    whose models is in ``moved`` carried over.  Every answer equals ``snapshot(state)``'s."""
    moved = set(moved)
    new = geo.moved(state, moved)
    old_shapes = geo.__dict__.get("shapes")
    if old_shapes is not None and "shapes" not in new.__dict__ and len(new.ids):
        at = [-1 if mid in moved else geo._index.get(mid, -1) for mid in new.ids]
        fresh = [k for k, i in enumerate(at) if i < 0]
        shapes = np.empty(len(new.ids), dtype=object)
        keep = [k for k, i in enumerate(at) if i >= 0]
        if keep:
            shapes[keep] = old_shapes[[at[k] for k in keep]]
        if fresh:
            built = footprint_arrays([new.models[k] for k in fresh])[2]
            for j, k in enumerate(fresh):
                shapes[k] = built[j]
        new.__dict__["shapes"] = shapes
    outlines = geo.__dict__.get("_outlines")
    if outlines:
        touched = {mid.rsplit("/", 1)[0] for mid in moved}
        carried = new.__dict__.setdefault("_outlines", {})
        for (uid, margin), shape in outlines.items():
            if uid in touched or (uid, margin) in carried:
                continue
            if geo.unit_models(uid) == new.unit_models(uid):    # the same members, unmoved
                carried[(uid, margin)] = shape
    return new
