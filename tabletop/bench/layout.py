"""Random legal layouts for benchmarks: units of 10 on a table as big as they need.

Units sit in a grid of 8" x 7" cells, players alternating like a chessboard so
that neighbouring units are enemies and some stand within engagement range of
each other.  Each unit is a coherent cluster (every model placed within 1.5"
of one already placed) of mixed bases: mostly 32mm, some 25mm and 40mm, and
one unit in twenty a bike squad of 3 on 75x42mm ovals facing a random way
(ten would not fit a cell).  No two bases overlap: round bases are kept
0.05" apart analytically, ovals by the geometry layer's exact gap.  Inches,
origin bottom-left, y up.
"""

from __future__ import annotations

import math
import random

from tabletop.board.bases import parse_base
from tabletop.board.config import make_config
from tabletop.board.state import Battlefield, Model, Player, Table, Unit
from tabletop.geometry.footprints import core_and_pad, signed_gap

CELL_W, CELL_D = 8.0, 7.0
UNIT_SIZE = 10
OVAL_UNIT_SIZE = 3
MAX_RESTARTS = 200
MIN_GAP = 0.05        # inches between any two bases of a unit
MARGIN = 0.3          # inches between a cell's edge and its models
MAX_LINK_GAP = 1.5    # each model within this of one placed before it (coherency 2")


def _unit_base(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.05:
        return "75x42mm oval"
    if r < 0.20:
        return "25mm"
    if r < 0.30:
        return "40mm"
    return "32mm"


def _apart(base, x: float, y: float, placed: list[tuple[float, float]], facing: float) -> bool:
    """The base at (x, y) is at least MIN_GAP from every placed one (same base, same facing)."""
    if base.is_round:
        return all(math.hypot(x - px, y - py) >= 2 * base.radius + MIN_GAP for px, py in placed)
    core, pad = core_and_pad(base, x, y, facing)
    for px, py in placed:
        if math.hypot(x - px, y - py) >= 2 * base.radius + MIN_GAP:
            continue                              # even the bounding circles are apart
        other, opad = core_and_pad(base, px, py, facing)
        if signed_gap(core, pad, other, opad) < MIN_GAP:
            return False
    return True


def _place_unit(rng: random.Random, base_text: str, count: int, x0: float, y0: float
                ) -> list[tuple[float, float, float]]:
    base = parse_base(base_text)
    r = base.radius
    facing = rng.uniform(0.0, 360.0) if base.shape == "oval" else 90.0
    t = math.radians(facing)
    a, b = base.along / 2, base.across / 2        # half extents of the base along x and y
    hx = math.hypot(a * math.cos(t), b * math.sin(t))
    hy = math.hypot(a * math.sin(t), b * math.cos(t))
    lo_x, hi_x = x0 + MARGIN + hx, x0 + CELL_W - MARGIN - hx
    lo_y, hi_y = y0 + MARGIN + hy, y0 + CELL_D - MARGIN - hy
    link = (base.across if base.shape == "oval" else 2 * r) + MIN_GAP
    for _ in range(MAX_RESTARTS):                 # restart a unit that boxed itself in
        placed = [(rng.uniform(lo_x, hi_x), rng.uniform(lo_y, hi_y))]
        for _ in range(4000):
            if len(placed) == count:
                break
            ax, ay = placed[rng.randrange(len(placed))]
            d = link + rng.uniform(0.0, MAX_LINK_GAP - MIN_GAP)
            t = rng.uniform(0.0, 2 * math.pi)
            x, y = ax + d * math.cos(t), ay + d * math.sin(t)
            if lo_x <= x <= hi_x and lo_y <= y <= hi_y and _apart(base, x, y, placed, facing):
                placed.append((x, y))
        if len(placed) == count:
            return [(x, y, facing) for x, y in placed]
    raise RuntimeError(f"cannot fit {count} x {base_text} in a {CELL_W:g}\" x {CELL_D:g}\" cell")


def random_battlefield(n_models: int, seed: int = 0) -> Battlefield:
    """A fight-phase (11th preset) battlefield of ``n_models`` models in units of 10
    (bike squads of 5).

    Deterministic for a given ``(n_models, seed)``; the table is sized to the
    grid of units (5000 models: about 520 units, a 23 x 23 grid, 184" x 161").
    """
    rng = random.Random(seed * 1_000_003 + n_models)
    plan = []                                     # (base, count) per unit
    left = n_models
    while left > 0:
        base_text = _unit_base(rng)
        count = min(OVAL_UNIT_SIZE if base_text.endswith("oval") else UNIT_SIZE, left)
        plan.append((base_text, count))
        left -= count
    cols = math.ceil(math.sqrt(len(plan)))
    rows = math.ceil(len(plan) / cols)
    units = []
    for k, (base_text, count) in enumerate(plan):
        col, row = k % cols, k // cols
        uid = f"u{k + 1}"
        player = "red" if (col + row) % 2 == 0 else "blue"
        spots = _place_unit(rng, base_text, count, col * CELL_W, row * CELL_D)
        base = parse_base(base_text)
        models = tuple(Model(id=f"{uid}/{i + 1}", x=x, y=y, facing_deg=f, base=base)
                       for i, (x, y, f) in enumerate(spots))
        units.append(Unit(id=uid, player=player, base=base, models=models))
    return Battlefield(
        name=f"benchmark: {n_models} models", table=Table(cols * CELL_W, rows * CELL_D),
        rules=make_config("fight-phase"), units=tuple(units),
        players=(Player("red", active=True), Player("blue")))
