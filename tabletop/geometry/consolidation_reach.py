"""How near an engaging consolidation can bring a unit (fight-phase.txt 12.08), measured
generously: the odds ask it whether Consolidation can start a fight at all
(``rules.fight_phase.odds_consolidation``), so it may say "could" when no move can, never
the reverse.

A unit's models are given as ``Models``: (x, y, bounding radius, inner radius) each, in
inches; the bounding radius holds the whole base (half a rectangle's diagonal, half an
oval's long axis), the inner radius fits inside it (half the shorter extent).  Distances
taken centre to centre less bounding radii are never more than the true ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shapely import Point, unary_union

__all__ = ["Models", "bounding_radius", "can_end_engaged", "inner_radius", "models_of",
           "unit_gap"]

_SPARE = 0.005              # inches added to every radius ``can_end_engaged`` draws: its discs are
#                            polygons of ``_SEGMENTS`` a quarter, inside the circle by at most
#                            r (1 - cos(pi / (4 _SEGMENTS))), under 0.0003 r
_SEGMENTS = 64


def bounding_radius(b: Any) -> float:
    """A base's bounding radius, inches: half the diagonal of a rectangle, else half the
    longer extent (a round base's radius, an oval's long half-axis)."""
    if b.shape == "rect":
        return math.hypot(b.along_mm, b.across_mm) / 25.4 / 2.0
    return b.radius


def inner_radius(b: Any) -> float:
    """The radius of the largest circle inside a base, inches."""
    return min(b.along_mm, b.across_mm) / 25.4 / 2.0


Models = Sequence[tuple[float, float, float, float]]   # (x, y, bounding radius, inner radius)


def unit_gap(a: Models, b: Models) -> float:
    """The least centre distance less both bounding radii between models ``a`` and ``b``,
    inches (never more than the true distance); ``inf`` when either is empty."""
    best = math.inf
    for x, y, r, _ in a:
        for u, v, s, _ in b:
            d = math.hypot(x - u, y - v) - r - s
            if d < best:
                best = d
    return best


def _discs(models: Models, grow: float) -> Any:
    """The union of discs round ``models``, each its bounding radius plus ``grow`` plus
    ``_SPARE``."""
    return unary_union([Point(x, y).buffer(r + grow + _SPARE, _SEGMENTS)
                        for x, y, r, _ in models])


def can_end_engaged(models: Models, xs: list, es: list, move: float, engage: float) -> bool:
    """Whether the unit of ``models`` could end an engaging
    consolidation of at most ``move`` inches engaged with a unit of ``es`` (12.08), ``xs``
    the enemy units it could select (both lists of (models, how far they may have moved)).
    Each model moved ends closer to the closest selected unit, so some model must be able
    to end within ``engage`` inches of an ``es`` unit at a point closer to a selected unit
    than it starts; and the unit must end engaged with every unit it selected (AFTER
    MOVING: else the move is not made and starts nothing), so some model must be able to
    end within ``engage`` of the selected unit: for a unit of one model, at that same
    point.  Radii are taken generously (``_SPARE``): "could" is never missed."""
    near = unary_union([_discs(others, engage + mr_max(models) + slack) for others, slack in es])
    for others, slack in xs:
        engaged = _discs(others, engage + mr_max(models) + slack)
        if len(models) > 1 and not any(
                not Point(mx, my).buffer(move + _SPARE, _SEGMENTS).intersection(engaged).is_empty
                for mx, my, _, _ in models):
            continue
        for mx, my, _, _ in models:
            here = Point(mx, my).buffer(move + _SPARE, _SEGMENTS)
            # the unit's distance from this model, at most (edge to edge, the bases taken
            # as small as they can be); a point closer to it lies within that distance of
            # some model's edge, its base taken as large as it can be
            now = min(math.hypot(mx - x, my - y) - rin for x, y, _, rin in others)
            closer = unary_union([Point(x, y).buffer(now + r + slack + _SPARE, _SEGMENTS)
                                  for x, y, r, _ in others])
            region = here.intersection(closer).intersection(near)
            if len(models) == 1:
                region = region.intersection(engaged)
            if not region.is_empty:
                return True
    return False


def mr_max(models: Models) -> float:
    """The largest bounding radius of ``models``."""
    return max(m[2] for m in models)


def models_of(unit: Any) -> tuple:
    """A unit's models as ``Models``, worked out once per (frozen) unit and kept with it."""
    got = unit.__dict__.get("_odds_bounds")
    if got is None:
        got = tuple((m.x, m.y, bounding_radius(m.base), inner_radius(m.base)) for m in unit.models)
        object.__setattr__(unit, "_odds_bounds", got)
    return got
