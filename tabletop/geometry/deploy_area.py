"""Free room in a deployment zone: where a unit's bases fit, first fit row by row.

Coordinates are inches, origin bottom-left, y up; facing degrees counter-clockwise from +x.
The zone is scanned in the army's own frame: ``forward`` is the army's facing and
``right`` its right hand; rows run from the zone's front edge (nearest the enemy) back,
and along a row from the army's left to its right, every ``step`` inches.

A unit fits where every base lies inside the zone and on the table (within the map's
tolerance), no base overlaps terrain that is impassable (``Terrain.impassable``), and
every base stands at least ``unit_gap`` from every model already on the table or placed
before it (both less the tolerance).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely
from shapely import affinity
from shapely.geometry import Polygon, box
from shapely.prepared import prep

from tabletop.board.bases import Base
from tabletop.board.state import Battlefield
from tabletop.geometry.footprints import base_polygon

Placed = tuple[Base, float, float, float]      # base, x, y, facing (degrees)


def army_axes(facing_deg: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """(forward, right) unit vectors for an army facing ``facing_deg``."""
    t = math.radians(facing_deg)
    return (math.cos(t), math.sin(t)), (math.sin(t), -math.cos(t))


class DeployArea:
    """The free room of one deployment zone of ``state``.

    Parameters
    ----------
    state : Battlefield
        The table: its size, terrain and the models already on it (all stay in the way).
    zone : sequence of (x, y)
        The zone's polygon, inches.
    unit_gap : float
        The least gap (inches) between a placed unit and any other model.
    """

    def __init__(self, state: Battlefield, zone: Sequence[tuple[float, float]], unit_gap: float):
        self.tol = state.rules.tol
        self.unit_gap = unit_gap
        room = Polygon(zone).intersection(box(0, 0, state.table.width, state.table.depth))
        self.zone = room
        self._room = prep(room.buffer(self.tol))
        walls = [Polygon(t.polygon) for t in state.terrain if t.impassable]
        self._walls = prep(shapely.union_all(walls)) if walls else None
        self._models = [base_polygon(m.base, m.x, m.y, m.facing_deg) for m in state.models()]
        self._tree_dirty = True
        self._bodies = None

    def _others(self):
        if self._tree_dirty:
            self._bodies = prep(shapely.union_all(self._models)) if self._models else None
            self._tree_dirty = False
        return self._bodies

    def fits(self, placed: Sequence[Placed]) -> bool:
        """Whether bases at these positions fit (see the module docstring)."""
        polys = [base_polygon(b, x, y, f) for b, x, y, f in placed]
        body = shapely.union_all(polys)
        if not self._room.contains(body):
            return False
        if self._walls is not None and self._walls.intersects(body.buffer(-self.tol)):
            return False
        others = self._others()
        return others is None or not others.intersects(body.buffer(max(self.unit_gap - self.tol, 0.0)))

    def occupy(self, placed: Sequence[Placed]) -> None:
        """Mark bases as standing in the zone (later units keep ``unit_gap`` from them)."""
        self._models.extend(base_polygon(b, x, y, f) for b, x, y, f in placed)
        self._tree_dirty = True

    def first_fit(self, placed: Sequence[Placed], facing_deg: float, step: float
                  ) -> tuple[float, float] | None:
        """The first shift (dx, dy), inches, that makes ``placed`` (positions relative to any
        origin) fit: rows from the zone's front edge back, each row from the army's left to
        its right, ``step`` apart.  None when the unit fits nowhere."""
        fwd, right = army_axes(facing_deg)
        polys = [base_polygon(b, x, y, f) for b, x, y, f in placed]
        body = shapely.union_all(polys)
        # the unit's and the zone's extents along the army's axes
        def extent(geom, axis):
            pts = shapely.get_coordinates(geom.convex_hull)
            proj = pts @ [axis[0], axis[1]]
            return float(proj.min()), float(proj.max())
        u0, u1 = extent(body, right)
        v0, v1 = extent(body, fwd)
        zu0, zu1 = extent(self.zone, right)
        zv0, zv1 = extent(self.zone, fwd)
        others = self._others()
        walls = self._walls
        body_in = body.buffer(-self.tol)
        body_out = body.buffer(max(self.unit_gap - self.tol, 0.0))
        n_rows = int(math.floor((zv1 - zv0 - (v1 - v0)) / step + 1e-9)) + 1
        n_cols = int(math.floor((zu1 - zu0 - (u1 - u0)) / step + 1e-9)) + 1
        for i in range(max(n_rows, 0)):
            dv = (zv1 - v1) - i * step              # front edge at the zone's front, then back
            for j in range(max(n_cols, 0)):
                du = (zu0 - u0) + j * step          # left edge at the zone's left, then right
                dx = du * right[0] + dv * fwd[0]
                dy = du * right[1] + dv * fwd[1]
                if not self._room.contains(affinity.translate(body, dx, dy)):
                    continue
                if walls is not None and walls.intersects(affinity.translate(body_in, dx, dy)):
                    continue
                if others is not None and others.intersects(affinity.translate(body_out, dx, dy)):
                    continue
                return dx, dy
        return None
