"""A unit's models laid out around its own origin, before it is placed in a zone.

Positions are inches relative to (0, 0); the army faces ``facing`` degrees (counter-clockwise
from +x), its right hand at ``facing - 90``.

- ``cluster`` (40K, Horus Heresy): a compact grid ``ceil(sqrt(n))`` models wide, rows behind
  one another, each base ``model_gap`` from its neighbours (``[rules] roster_model_gap``).
  With a gap up to 2" every model has a neighbour within coherency (03.03) and, in a
  grid of two or more rows, two; the snapshot checks it after placing.
- ``block`` (rank-and-flank): a formation of ``min(frontage, n)`` files and as many ranks
  as it takes (``[rules] roster_frontage``), laid out by ``board.formation``; command models
  stand in the front rank, the commander in the centre file, then champion, standard and
  musician outwards.
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


def cluster(bases: list[Base], facing_deg: float, model_gap: float) -> Laid:
    """A compact grid of the unit's models (see the module docstring).

    ``bases[k]`` is the k-th model's base; the pitch is the largest base's extent plus
    ``model_gap`` (inches), across the facing and along it.
    """
    n = len(bases)
    cols = max(1, math.ceil(math.sqrt(n)))
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
