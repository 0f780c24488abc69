"""Where a lesson's moved models stand on each slide frame, never passing through one another.

A lesson page slides the models that moved since the previous page (``render.lesson_plan``:
``LessonPage.moves``, ``{model id: path}``).  A pile-in or consolidation path is the move
solver's own route round every base, so a model sliding along it is drawn there.  A move
the rules make without a path (a unit turning to face, reforming, closing up) is only a
start and an end: slid in a straight line, the models of a unit that turns cross each other.
So a unit whose moved models together make a *rigid* turn (every model turned by the same
angle and the whole group moved as one body, to within ``RIGID_FIT_IN``) is slid as one body:
turned about a pivot, then moved (or moved, then turned), choosing the first plan whose
frames leave every base clear of every other (``Geometry.overlaps``: intersecting by more
than the contact tolerance).  The pivots tried are the fixed point of the turn (a turn on the
spot), then the four corners of the group's outline in its own frame.  When no plan is clear
the straight line is kept.

A pose is ``(x, y, facing_deg)``: inches, origin bottom-left, y up; facing degrees
counter-clockwise from +x.  Drawing only: no step, table or event is changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.footprints import base_polygon
from tabletop.render.motion import point_along

__all__ = ["RIGID_FIT_IN", "SLIDE_BACK_MAX_IN", "SLIDE_BACK_STEP_IN", "SLIDE_TURN_SHARE", "Pose", "Slide", "follow_record"]

Pose = tuple[float, float, float]
XY = tuple[float, float]

RIGID_FIT_IN = 0.01
"""Inches: how far a moved model may sit from where one rigid turn of its unit's group
would put it for the group to be slid as one body (a reform keeps its grid exactly)."""

SLIDE_BACK_STEP_IN = 0.02
"""Inches: the step in which a group turning about its centre stands back from its new front
on a frame where turning in place would lay a base over another (``Slide``)."""

SLIDE_BACK_MAX_IN = 3.0
"""Named default, inches: the furthest a group turning about its centre stands back on one
frame; a turn that needs more is planned about another pivot instead.  Three inches is more
than any block's corner sweeps out (a 5 x 4 block of 25 mm bases needs under one)."""

SLIDE_TURN_SHARE = 0.5
"""Named default: share of a turn-and-move slide spent turning (the rest moving), so each
part reads on its own."""


def _rot(v: XY, deg: float) -> XY:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def _angle(deg: float) -> float:
    """``deg`` brought into (-180, 180]."""
    a = math.fmod(deg, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a


# a plan maps t in [0, 1] to {model id: pose}
Plan = Callable[[float], dict[str, Pose]]


class Slide:
    """The poses of ``moves``' models on each of ``frames`` slide frames.

    ``before`` is the table the previous page showed, ``after`` this page's table; ``moves``
    ``{model id: path}`` (``LessonPage.moves``).  ``poses(k)`` gives frame ``k`` of
    ``frames`` (``k / frames`` of the way; 0 is where they stood).  Models of a rigidly
    turning group are planned as the module docstring says; every other moved model goes
    ``k / frames`` along its path, drawn with the facing it ends with.
    """

    def __init__(self, before: Battlefield, after: Battlefield, moves: dict[str, list[XY]],
                 frames: int) -> None:
        if frames < 1:
            raise ValueError(f"a slide needs at least one frame, got {frames}")
        self.before, self.after, self.moves, self.frames = before, after, moves, int(frames)
        self._rest = after.without_models(moves)
        self._plans: list[tuple[frozenset[str], Plan]] = []
        groups: dict[str, list[str]] = {}
        for mid in moves:
            groups.setdefault(mid.rsplit("/", 1)[0], []).append(mid)
        for mids in groups.values():
            plan = self._rigid_plan(sorted(mids))
            if plan is not None:
                self._plans.append((frozenset(mids), plan))

    # ------------------------------------------------------------ poses
    def _straight(self, mid: str, t: float) -> Pose:
        x, y = point_along(self.moves[mid], t)
        return (x, y, self.after.model(mid).facing_deg)

    def poses(self, k: int) -> dict[str, Pose]:
        """``{model id: (x, y, facing_deg)}`` of every moved model on frame ``k``."""
        t = min(1.0, max(0.0, k / self.frames))
        out: dict[str, Pose] = {}
        for _mids, plan in self._plans:
            out.update(plan(t))
        for mid in self.moves:
            if mid not in out:
                out[mid] = self._straight(mid, t)
        return out

    def table(self, k: int) -> Battlefield:
        """``after`` with the moved models at their frame-``k`` poses (what the frame shows)."""
        return self.after.with_models(self.after.model(mid).moved_to(x, y, f)
                                      for mid, (x, y, f) in self.poses(k).items())

    # ------------------------------------------------------------ rigid groups
    def _rigid_plan(self, mids: list[str]) -> Plan | None:
        if any(len(self.moves[m]) != 2 for m in mids):
            return None               # a solver path: it already goes round every base
        old = [self.before.model(m) for m in mids]
        new = [self.after.model(m) for m in mids]
        turn = _angle(new[0].facing_deg - old[0].facing_deg)
        if abs(turn) < 1e-6:
            return None               # a straight shift keeps the group's shape as it is
        if any(abs(_angle(b.facing_deg - a.facing_deg - turn)) > 1e-6 for a, b in zip(old, new)):
            return None
        o0, n0 = (old[0].x, old[0].y), (new[0].x, new[0].y)
        for a, b in zip(old, new):
            r = _rot((a.x - o0[0], a.y - o0[1]), turn)
            if math.dist((n0[0] + r[0], n0[1] + r[1]), (b.x, b.y)) > RIGID_FIT_IN:
                return None
        body = self._about_centre(old, new, turn, set(mids))
        if body is not None:
            return body
        for pivot in self._pivots(old, new, turn):
            r = _rot((o0[0] - pivot[0], o0[1] - pivot[1]), turn)
            shift = (n0[0] - pivot[0] - r[0], n0[1] - pivot[1] - r[1])
            orders = ("together",) if math.hypot(*shift) < 1e-9 else ("turn first", "move first")
            for order in orders:
                plan = self._body(old, new, pivot, turn, shift, order)
                if self._clear(plan, set(mids)):
                    return plan
        return None

    def _about_centre(self, old, new, turn: float, mids: set[str]) -> Plan | None:
        """The group turned about its own centre (mean model point) while that centre goes
        straight from where it stood to where it ends, as a player turns a block on the spot.
        Where a frame of that would lay a base over another (a block turning against the
        enemy flush on its flank sweeps its corners into them), the whole group stands back
        on that frame, away from its new front, by the least distance (to ``SLIDE_BACK_STEP_IN``)
        that leaves it clear, so it turns beside the enemy, not through them.  None when no
        back-off up to ``SLIDE_BACK_MAX_IN`` clears a frame."""
        c0 = (sum(m.x for m in old) / len(old), sum(m.y for m in old) / len(old))
        c1 = (sum(m.x for m in new) / len(new), sum(m.y for m in new) / len(new))
        f = math.radians(new[0].facing_deg)
        back = (-math.cos(f), -math.sin(f))

        def at(t: float, d: float) -> dict[str, Pose]:
            cx = c0[0] + (c1[0] - c0[0]) * t + back[0] * d
            cy = c0[1] + (c1[1] - c0[1]) * t + back[1] * d
            out = {}
            for m in old:
                r = _rot((m.x - c0[0], m.y - c0[1]), turn * t)
                out[m.id] = (cx + r[0], cy + r[1], m.facing_deg + turn * t)
            return out

        offsets = [0.0] * (self.frames + 1)
        for k in range(1, self.frames):
            t = k / self.frames
            d = 0.0
            while not self._frame_clear(at(t, d), t, mids):
                d += SLIDE_BACK_STEP_IN
                if d > SLIDE_BACK_MAX_IN:
                    return None
            offsets[k] = d

        def plan(t: float) -> dict[str, Pose]:
            if t >= 1.0:              # exactly where the rules put them
                return {e.id: (e.x, e.y, e.facing_deg) for e in new}
            k = min(self.frames, max(0, round(t * self.frames)))
            return at(t, offsets[k])
        return plan

    def _frame_clear(self, poses: dict[str, Pose], t: float, mids: set[str]) -> bool:
        """No base of ``mids`` at ``poses`` over another base, the rest as ``_clear`` has it."""
        poses = dict(poses)
        for _other, other in self._plans:
            poses.update(other(t))
        for mid in self.moves:
            if mid not in poses:
                poses[mid] = self._straight(mid, t)
        st = self.after.with_models(self.after.model(mid).moved_to(x, y, f)
                                    for mid, (x, y, f) in poses.items())
        return not any(a in mids or b in mids for a, b in snapshot(st).overlaps)

    @staticmethod
    def _pivots(old, new, turn: float) -> list[XY]:
        """The fixed point of the rigid turn, then the corners of the group's outline."""
        # the whole move as one turn p -> R(p - c) + c about its fixed point c, which solves
        # (I - R) c = new - R old (one answer for any turn not a multiple of 360 degrees)
        r = _rot((old[0].x, old[0].y), turn)
        rx, ry = new[0].x - r[0], new[0].y - r[1]
        cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        a11, a12, a21, a22 = 1 - cos, sin, -sin, 1 - cos
        det = a11 * a22 - a12 * a21
        out: list[XY] = [((rx * a22 - a12 * ry) / det, (a11 * ry - a21 * rx) / det)]
        f = old[0].facing_deg
        pts = [q for m in old for q in base_polygon(m.base, m.x, m.y, m.facing_deg).exterior.coords]
        u = (math.cos(math.radians(f)), math.sin(math.radians(f)))
        v = (-u[1], u[0])
        a = [p[0] * u[0] + p[1] * u[1] for p in pts]
        b = [p[0] * v[0] + p[1] * v[1] for p in pts]
        for sa in (max(a), min(a)):
            for sb in (max(b), min(b)):
                out.append((sa * u[0] + sb * v[0], sa * u[1] + sb * v[1]))
        return out

    def _body(self, old, new, pivot: XY, turn: float, shift: XY, order: str) -> Plan:
        s = SLIDE_TURN_SHARE

        def plan(t: float) -> dict[str, Pose]:
            if order == "together":
                a, w = t, t
            elif order == "turn first":
                a, w = min(1.0, t / s), max(0.0, (t - s) / (1 - s))
            else:
                w, a = min(1.0, t / (1 - s)), max(0.0, (t - (1 - s)) / s)
            out = {}
            for m, _ in zip(old, new):
                r = _rot((m.x - pivot[0], m.y - pivot[1]), turn * a)
                out[m.id] = (pivot[0] + r[0] + shift[0] * w, pivot[1] + r[1] + shift[1] * w,
                             m.facing_deg + turn * a)
            if t >= 1.0:              # exactly where the rules put them
                out = {e.id: (e.x, e.y, e.facing_deg) for e in new}
            return out
        return plan

    def _clear(self, plan: Plan, mids: set[str]) -> bool:
        """No frame of ``plan`` lays a base of ``mids`` over another base: the rest of the
        table as the page ends, groups planned before at their planned poses, other moved
        models where their straight slide puts them."""
        return all(self._frame_clear(plan(k / self.frames), k / self.frames, mids)
                   for k in range(1, self.frames))



def follow_record(rec: dict, ends: dict[str, Pose], poses: dict[str, Pose]) -> dict:
    """A formation's drawing record (``rnf_units``' value for one unit: ``edges``
    ``{side: (a, b)}``, ``front_centre`` and ``facing``, inches and degrees, as it stands at
    the slide's end) carried to a slide frame: turned and moved as the unit's models are
    between their ``ends`` (poses where the step leaves them) and their frame ``poses``
    (``{model id: pose}``, the same models).  The turn is the first model's change of facing;
    the shift takes the models' mean end point to their mean frame point, so a rigid slide
    (``Slide``) carries the outline and side markings exactly with its bases.  Other keys are
    kept.  Raises ``ValueError`` when ``ends`` and ``poses`` share no model."""
    mids = [m for m in ends if m in poses]
    if not mids:
        raise ValueError("a record follows its models: none of them slide")
    turn = poses[mids[0]][2] - ends[mids[0]][2]
    ex = sum(ends[m][0] for m in mids) / len(mids)
    ey = sum(ends[m][1] for m in mids) / len(mids)
    px = sum(poses[m][0] for m in mids) / len(mids)
    py = sum(poses[m][1] for m in mids) / len(mids)

    def carry(p) -> XY:
        dx, dy = _rot((p[0] - ex, p[1] - ey), turn)
        return (px + dx, py + dy)
    out = dict(rec)
    if rec.get("edges"):
        out["edges"] = {s: (carry(a), carry(b)) for s, (a, b) in rec["edges"].items()}
    if rec.get("front_centre"):
        out["front_centre"] = carry(rec["front_centre"])
    out["facing"] = (float(rec.get("facing", 90.0)) + turn) % 360.0
    return out
