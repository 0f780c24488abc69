"""A unit's models laid out around its own origin, before it is placed in a zone.

Positions are inches relative to (0, 0); the army faces ``facing`` degrees (counter-clockwise
from +x), its right hand at ``facing - 90``.

- ``cluster`` (40K, Horus Heresy): a compact grid ``ceil(sqrt(n))`` models wide, rows behind
  one another, each base ``model_gap`` from its neighbours (``[rules] roster_model_gap``).
  With a gap up to 2" every model has a neighbour within coherency (03.03) and, in a
  grid of two or more rows, two; the snapshot checks it after placing.  When that grid
  would stretch past ``spread`` (coherency's "every model within 9\"" of one another, 03.04:
  a 6 x 5 grid of 32mm bases at 0.5" spans 10" edge to edge) the unit is packed as a
  round blob instead: the ``n`` points of a hexagonal lattice nearest its centre, the
  largest bases in the middle, at the model gap or, if that is still too wide, a tighter
  one down to ``min_gap`` (``[rules] roster_min_model_gap``, 0.1").  No packing that
  fits is ``SpreadError``, naming how far the tightest one spans.
- ``block`` (rank-and-flank): a formation of ``min(frontage, n)`` files and as many ranks
  as it takes (``[rules] roster_frontage``), laid out by ``board.formation``; command models
  stand in the front rank, the commander in the centre file, then champion, standard and
  musician outwards.
- ``crewed`` (rank-and-flank, a unit of several bases: a war machine and its crew): not a
  block but models in base contact, as 03-style coherency of a loose unit asks: the largest
  bases abreast in the front row, the others behind in rows of at most ``frontage``, every
  row centred on the same line and touching the row before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tabletop.board.bases import Base
from tabletop.board.formation import formation_slots

#: front-rank order of command models in a block (named default: as players rank them up,
#: the leader in the middle with the banner and the musician beside him)
COMMAND_ORDER = ("commander", "champion", "standard", "musician")


@dataclass(frozen=True)
class Laid:
    """One unit laid out: ``spots[k]`` is the k-th model's (x, y) relative to the origin;
    for a block, ``files`` x ``ranks`` and ``slots[k]`` its (file, rank)."""

    spots: tuple[tuple[float, float], ...]
    files: int = 0
    ranks: int = 0
    slots: tuple[tuple[int, int], ...] = ()


#: inches a cluster keeps inside the spread, so that rounding never tips the snapshot's check
SPREAD_MARGIN = 0.01


class SpreadError(ValueError):
    """No cluster of the unit keeps every model within the coherency spread."""


def spread_of(bases: list[Base], spots: list[tuple[float, float]]) -> float:
    """The largest edge-to-edge distance (inches) between two models of ``spots``, each
    base taken as the circle round its longest side (never less than the true gap)."""
    r = [max(b.across, b.along) / 2.0 for b in bases]
    worst = 0.0
    for i in range(len(spots)):
        for j in range(i + 1, len(spots)):
            d = math.dist(spots[i], spots[j]) - r[i] - r[j]
            worst = max(worst, d)
    return worst


def _hex_blob(bases: list[Base], facing_deg: float, gap: float) -> list[tuple[float, float]]:
    """The unit as the ``n`` hexagonal-lattice points nearest its centre (rows across the
    facing, ``pitch`` apart along a row and ``pitch * sqrt(3) / 2`` between rows, every
    other row offset half a pitch), scaled per axis to the largest base plus ``gap``;
    the largest bases take the points nearest the centre.  Spots are relative to the
    blob's front-left point so that it is laid out as the grid is (origin at a front
    model)."""
    n = len(bases)
    pu = max(b.across for b in bases) + gap
    pv = max(b.along for b in bases) + gap
    k = math.ceil(math.sqrt(n)) + 2
    pts = []
    for row in range(-k, k + 1):
        for col in range(-k, k + 1):
            u = (col + (0.5 if row % 2 else 0.0)) * pu
            v = row * pv * math.sqrt(3) / 2.0
            pts.append((math.hypot(u, v), row, col, u, v))
    pts.sort()
    chosen = pts[:n]
    order = sorted(range(n), key=lambda i: (-max(bases[i].across, bases[i].along), i))
    t = math.radians(facing_deg)
    fwd = (math.cos(t), math.sin(t))
    right = (math.sin(t), -math.cos(t))
    top = max(c[4] for c in chosen)
    left = min(c[3] for c in chosen if c[4] == top)
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for k_model, c in zip(order, chosen):
        u, v = c[3] - left, c[4] - top
        out[k_model] = (u * right[0] + v * fwd[0], u * right[1] + v * fwd[1])
    return out


def cluster(bases: list[Base], facing_deg: float, model_gap: float,
            spread: float | None = None, min_gap: float = 0.1) -> Laid:
    """A compact grid of the unit's models, or a round blob when the grid is wider than
    ``spread`` (see the module docstring).

    ``bases[k]`` is the k-th model's base; the pitch is the largest base's extent plus
    ``model_gap`` (inches), across the facing and along it.  ``spread`` (inches, None: no
    limit) is the coherency rule's "every model within" distance (03.04).

    Raises
    ------
    SpreadError
        Not even the blob at ``min_gap`` keeps every model within ``spread``.
    """
    grid = _grid(bases, facing_deg, model_gap)
    if spread is None or len(bases) < 2 or spread_of(bases, list(grid.spots)) <= spread - SPREAD_MARGIN:
        return grid
    gaps = [model_gap] + [g for g in (model_gap / 2, 0.25, min_gap) if min_gap <= g < model_gap]
    best = None
    for gap in sorted(set(gaps), reverse=True):
        spots = _hex_blob(bases, facing_deg, gap)
        wide = spread_of(bases, spots)
        if wide <= spread - SPREAD_MARGIN:
            return Laid(tuple(spots))
        best = wide if best is None else min(best, wide)
    raise SpreadError(f"{len(bases)} models packed as tightly as {min_gap:g}\" apart still "
                      f"span {best:.2f}\" edge to edge, more than the {spread:g}\" every model "
                      "of a unit must be within (coherency, 03.04)")


def _grid(bases: list[Base], facing_deg: float, model_gap: float) -> Laid:
    return grid(bases, facing_deg, model_gap, max(1, math.ceil(math.sqrt(len(bases)))))


def grid(bases: list[Base], facing_deg: float, model_gap: float, cols: int) -> Laid:
    """The unit as a grid ``cols`` models wide, rows behind one another, pitch the largest
    base plus ``model_gap`` (inches) across and along the facing."""
    n = len(bases)
    pitch_u = max(b.across for b in bases) + model_gap
    pitch_v = max(b.along for b in bases) + model_gap
    t = math.radians(facing_deg)
    fwd = (math.cos(t), math.sin(t))
    right = (math.sin(t), -math.cos(t))
    spots = []
    for k in range(n):
        u = (k % cols) * pitch_u
        v = -(k // cols) * pitch_v
        spots.append((u * right[0] + v * fwd[0], u * right[1] + v * fwd[1]))
    return Laid(tuple(spots))


def block(base: Base, roles: list[str | None], facing_deg: float, frontage: int) -> Laid:
    """A formation block of ``len(roles)`` models on ``base``, ``frontage`` files at most.

    Returns the spots in model order: the slots ``board.formation`` numbers front rank first,
    left to right; ``roles`` is each model's role and command models take the front-rank
    slots nearest the centre (``COMMAND_ORDER``).  The origin is the block's front centre.
    """
    count = len(roles)
    files = max(1, min(frontage, count))
    ranks = math.ceil(count / files)
    slots = formation_slots((0.0, 0.0), facing_deg, files, ranks, count, base)
    centre = (files + 1) / 2.0
    front = sorted((s for s in slots if s[1] == 1), key=lambda s: (abs(s[0] - centre), s[0]))
    order = sorted(range(count), key=lambda k: (COMMAND_ORDER.index(roles[k])
                                                 if roles[k] in COMMAND_ORDER else 99, k))
    taken: dict[int, tuple[int, int, float, float]] = {}
    free = list(slots)                 # commands come first in ``order``, then slot order
    for k in order:
        s = front.pop(0) if (roles[k] in COMMAND_ORDER and front) else free[0]
        if s in front:
            front.remove(s)
        taken[k] = s
        free.remove(s)
    return Laid(tuple((taken[k][2], taken[k][3]) for k in range(count)), files, ranks,
                tuple((taken[k][0], taken[k][1]) for k in range(count)))


def crewed(bases: list[Base], facing_deg: float, frontage: int) -> Laid:
    """A war machine and its crew (see the module docstring): ``bases[k]`` is the k-th
    model's base; spots in model order, the origin the front row's front centre (inches).
    Every model touches its neighbour in its row, and the middle of each row the row in
    front of it.
    """
    n = len(bases)
    big = max(b.along_mm * b.across_mm for b in bases)
    front = [k for k in range(n) if bases[k].along_mm * bases[k].across_mm == big]
    rest = [k for k in range(n) if k not in front]
    rows = [front] + [rest[i:i + max(1, frontage)] for i in range(0, len(rest), max(1, frontage))]
    t = math.radians(facing_deg)
    fwd = (math.cos(t), math.sin(t))
    right = (math.sin(t), -math.cos(t))
    spots: list[tuple[float, float]] = [(0.0, 0.0)] * n
    v = 0.0                                  # the front edge of the current row (behind 0)
    for row in rows:
        width = sum(bases[k].across for k in row)
        u = -width / 2.0
        depth = max(bases[k].along for k in row)
        for k in row:
            cu = u + bases[k].across / 2.0
            cv = v - bases[k].along / 2.0
            spots[k] = (cu * right[0] + cv * fwd[0], cu * right[1] + cv * fwd[1])
            u += bases[k].across
        v -= depth
    return Laid(tuple(spots))
