"""Closing back into base contact after casualties (rank-and-flank units).

Coordinates are inches, origin bottom-left, y up; facing in degrees
counter-clockwise from +x.  Sides and the local frame are those of
``geometry.ranks.UnitFormation`` (``a`` along the facing, ``b`` to the right).

rank-and-flank-combat.txt "Engagements": units stay locked in combat round
after round.  When the casualties of a round take away the very models an
enemy touched, the two units are moved back together so the next round starts
from true contacts.  The text does not say how; this module computes the move
of the named default CLOSE_UP (the policy of who moves is the rules' business,
``rules/rank_and_flank/close_up.py``).

Named defaults
--------------
CLOSE_UP = "flush": the enemy slides in flush along the side it touched
    ([rules] close_up; "square" moves it square in only).  The enemy unit moves as one block, keeping its facing: square in to the
    line of the side it touched (the edge of the models left on that side),
    then along that line by the least slide that puts as much of its facing
    edge against that side as fits (all of it when the side is long enough,
    else the whole side covered).  Players "move the units back together"
    this way: the touching ranks end flush, as they were.  When the flush spot
    is taken by other bases, the square move alone is tried.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.geometry.footprints import base_polygon, shrunk
from tabletop.geometry.ranks import FLANKS, Placed, UnitFormation

__all__ = ["CLOSE_UP", "CLOSE_UP_MODES", "CloseUp", "close_up"]

CLOSE_UP = "flush"
CLOSE_UP_MODES = ("flush", "square")

Point = tuple[float, float]


@dataclass(frozen=True)
class CloseUp:
    """The move that puts ``mover`` back against ``side`` of ``target``.

    ``shift`` the table vector every model of ``mover`` moves (inches);
    ``square`` how far it moved in square to the side and ``slide`` how far
    along it (inches, signed along the target's forward for a flank, its
    right for the front or rear); ``positions`` {model id: (x, y, facing)};
    ``flush`` False when only the square move was free; ``problems`` why the
    move cannot be made (empty when it can).
    """

    mover: str
    target: str
    side: str
    shift: Point
    square: float
    slide: float
    positions: Placed
    flush: bool
    problems: tuple[str, ...]


def _side_models(form: UnitFormation, side: str) -> list[str]:
    rows = form.rank_rows()
    if side == "front":
        return rows[0]
    if side == "rear":
        return rows[-1]
    return form.flank_file(side)


def _coords(geo, model_ids) -> list[Point]:
    out: list[Point] = []
    for m in model_ids:
        out.extend(geo.footprint(m).exterior.coords)
    return out


def _out_and_along(form: UnitFormation, side: str, p: Point) -> tuple[float, float]:
    """How far point ``p`` (table) stands out beyond ``side``'s line, and where it lies along it."""
    a, b = form.to_local(*p)
    if side == "front":
        return a - form.front, b
    if side == "rear":
        return form.rear - a, b
    if side == "left":
        return form.left - b, a
    return b - form.right_b, a


def _slide_to_fit(m0: float, m1: float, s0: float, s1: float) -> float:
    """Least slide of [m0, m1] so it lies inside [s0, s1], or covers it when it is wider."""
    if m1 - m0 <= s1 - s0:
        if m0 < s0:
            return s0 - m0
        if m1 > s1:
            return s1 - m1
        return 0.0
    if m0 > s0:
        return s0 - m0
    if m1 < s1:
        return s1 - m1
    return 0.0


def _problems(geo, mover: str, positions: Placed) -> list[str]:
    own = set(geo.unit_models(mover))
    half = geo.tol / 2.0
    w, dep = geo.state.table.width, geo.state.table.depth
    out: list[str] = []
    hits: set[str] = set()
    for mid, (x, y, f) in positions.items():
        p = base_polygon(geo.model(mid).base, x, y, f)
        x0, y0, x1, y1 = p.bounds
        if x0 < -geo.tol or y0 < -geo.tol or x1 > w + geo.tol or y1 > dep + geo.tol:
            out.append(f"{mid} would end past the table edge")
        sp = shrunk(p, half)
        for j in geo.tree.query(p).tolist():
            other = geo.ids[j]
            if other not in own and other not in hits and sp.intersects(shrunk(geo.shapes[j], half)):
                hits.add(other)
                out.append(f"{mid} would overlap {other}")
    return out


def close_up(geo, mover: str, target: str, side: str, mode: str | None = None) -> CloseUp:
    """The CLOSE_UP move of unit ``mover`` back against ``side`` of unit ``target``.

    Parameters
    ----------
    geo : Geometry
        The snapshot once casualties are removed (and survivors stepped up).
    mover, target : str
        Unit ids; ``mover`` touched ``side`` ("front", "left", "right" or
        "rear") of ``target`` when the blows were struck.
    mode : "flush" or "square", default CLOSE_UP (the map's [rules] close_up).

    Returns
    -------
    CloseUp
        ``problems`` lists overlaps with other bases or models past the
        table edge at the spot tried last (empty when the move is free).

    Raises
    ------
    ValueError
        An unknown ``mode``.
    UnknownIdError
        When either unit has no models on the table.
    """
    mode = CLOSE_UP if mode is None else mode
    if mode not in CLOSE_UP_MODES:
        raise ValueError(f"unknown close_up {mode!r}: use \"flush\" or \"square\"")
    form = geo.formation(target)
    s0 = s1 = None
    for p in _coords(geo, _side_models(form, side)):
        _, along = _out_and_along(form, side, p)
        s0 = along if s0 is None else min(s0, along)
        s1 = along if s1 is None else max(s1, along)
    movers = geo.unit_models(mover)
    pts = [_out_and_along(form, side, p) for p in _coords(geo, movers)]
    square = min(o for o, _ in pts)
    facing_edge = [al for o, al in pts if o <= square + geo.tol]
    if mode == "flush":
        assert s0 is not None and s1 is not None    # a formation's side always has models
        slide = _slide_to_fit(min(facing_edge), max(facing_edge), s0, s1)
    else:
        slide = 0.0
    ox, oy = form.outward(side)
    ax, ay = form.forward if side in FLANKS else form.right
    # (shift, positions, flush, problems, slide) of each slide tried
    tried: list[tuple[Point, Placed, bool, list[str], float]] = []
    for sl, flush in ((slide, mode == "flush"), (0.0, False)):
        if tried and sl == tried[-1][4]:
            break
        shift = (-ox * square + ax * sl, -oy * square + ay * sl)
        pos: Placed = {}
        for mid in movers:
            m = geo.model(mid)
            pos[mid] = (m.x + shift[0], m.y + shift[1], m.facing_deg)
        problems = _problems(geo, mover, pos)
        tried.append((shift, pos, flush, problems, sl))
        if not problems:
            break
    shift, pos, flush, problems, sl = tried[-1] if not tried[-1][3] else tried[0]
    def r(v: float) -> float:
        return round(v, 9) + 0.0        # no "-0.0" in reports

    return CloseUp(mover, target, side, (r(shift[0]), r(shift[1])), r(square), r(sl), pos,
                   flush, tuple(problems))
