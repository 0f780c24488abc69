"""Lay out a rank-and-flank formation: files x ranks behind a front centre.

``front_centre`` is the middle of the unit's front edge (inches); ``facing``
is degrees counter-clockwise from +x.  Files run left to right as the unit
sees it; ranks run front to back.  Models are numbered front rank first, left
to right.  A partial rear rank is centred behind the ranks in front (named
default ``REAR_RANK_ALIGN = "centre"``).
"""

from __future__ import annotations

import math

from tabletop.board.bases import Base

REAR_RANK_ALIGN = "centre"


def formation_slots(front_centre: tuple[float, float], facing_deg: float, files: int,
                    ranks: int, count: int, base: Base) -> list[tuple[int, int, float, float]]:
    """Centres of ``count`` bases laid out in files x ranks.

    Returns
    -------
    list of (file, rank, x, y)
        1-based file (left to right) and rank (front to back) and the centre
        in inches, in model order.
    """
    t = math.radians(facing_deg)
    fx, fy = math.cos(t), math.sin(t)          # forward
    rx, ry = math.sin(t), -math.cos(t)         # the unit's right
    cx, cy = front_centre
    out = []
    n = 0
    for rank in range(ranks):
        in_rank = min(files, count - n)
        if in_rank <= 0:
            break
        first = (files - in_rank) / 2.0 if REAR_RANK_ALIGN == "centre" else 0.0
        back = base.along / 2.0 + rank * base.along
        for j in range(in_rank):
            across = (first + j - (files - 1) / 2.0) * base.across
            x = cx - fx * back + rx * across
            y = cy - fy * back + ry * across
            out.append((int(first + j) + 1, rank + 1, x, y))
            n += 1
    return out
