"""A lesson page's charge arcs: the lines that split the ground round a block, and who hits
which side (issue 10 item 2: the charge-arcs lesson taught arcs it never drew).

rank-and-flank-combat.txt "Combat Phase" decides the side a charger hits before the fight;
measurements.csv TOW "Arcs" cuts the ground round a unit into four arcs by lines at 45
degrees from its corners.  A lesson entry's ``arcs`` (``board.lesson``) names the target:

- ``arc_keys`` works out, from the geometry snapshot, the four corner lines
  (``geometry.ranks.UnitFormation.arc_lines``, long enough to leave the table), a point in
  each arc to name it at, and for each enemy unit the page's ``focus`` names, the side it
  would hit (``rules.rank_and_flank.charge_arc.charger_arc``: the arc holding most of its
  front rank, the map's ``charge_arc_tie`` on a tie) and its charge line: from the middle of
  its front edge to the middle of the side it hits;
- ``draw_arc_lines`` draws the lines and charge arrows under the bases; the arc names and
  the "hits ..." words are placed by the lesson's one label placer
  (``render.lesson_labels.place_labels``), clear of every base.

Named defaults: ``ARC_LINE_COLOUR``, ``ARC_NAME_OFFSET_IN``, ``ARC_NAME_REACH``,
``ARC_NAMES``.  Coordinates are
inches (origin bottom-left, y up) until drawn.
"""

from __future__ import annotations

import math
from typing import Any

from tabletop.render import prims

__all__ = ["ARC_LINE_COLOUR", "ARC_NAMES", "ARC_NAME_OFFSET_IN", "ARC_NAME_REACH",
           "CHARGE_LINE_COLOUR", "arc_keys", "arc_of", "draw_arc_lines", "hit_words", "in_arc"]

ARC_LINE_COLOUR = (90, 60, 150)
"""Named default: colour of the dashed arc lines and the arc names (a violet no player
colour or overlay uses)."""

CHARGE_LINE_COLOUR = (200, 40, 40)
"""Named default: colour of a charger's line to the side it hits."""

ARC_NAME_OFFSET_IN = 3.0
"""Named default: inches out from the middle of a side where its arc's name is written
(beyond a typical charger's front, inside most tables)."""

ARC_NAME_REACH = (1.0, 0.75, 1.5, 0.5, 2.0, 2.5, 3.0)
"""Named default: multiples of ``ARC_NAME_OFFSET_IN`` out from the middle of a side tried, in
this order, as the centre of its arc's name; only places whose whole box lies inside that
arc are offered to the label placer (on a small picture the first may cross a 45-degree
line into the next arc)."""

ARC_NAMES = {"front": "front arc", "left": "left flank arc", "right": "right flank arc",
             "rear": "rear arc"}
"""Named default: the words naming each arc on the board."""

SIDE_WORDS = {"front": "front", "left": "left flank", "right": "right flank", "rear": "rear"}

XY = tuple[float, float]


def arc_keys(state: Any, geo: Any, target: str, focus: tuple[str, ...] = ()) -> dict:
    """The ``lesson_arcs`` draw key of a page: ``{"target": id, "lines": [(p0, p1)],
    "names": {side: (x, y)}, "chargers": [{"unit", "from", "to", "arc", "counts", "tied",
    "how"}]}`` (points in inches).  The lines run from the target's four corners at 45
    degrees, as long as the table's diagonal; each name stands ``ARC_NAME_OFFSET_IN`` out
    from the middle of its side.  A charger is each unit of another player that ``focus``
    names; its ``arc`` is None when its front rank ties and the map rolls a D6 for it
    (``charge_arc_tie = "roll"``): the lesson does not roll.

    Raises
    ------
    UnknownIdError
        ``target`` or a charger has no models on the table.
    """
    from tabletop.rules.rank_and_flank.charge_arc import charger_arc

    form = geo.formation(target)
    reach = math.hypot(state.table.width, state.table.depth)
    lines = [tuple(seg) for seg in form.arc_lines(reach).values()]
    names = {}
    for side, (a, b) in form.edges().items():
        ox, oy = form.outward(side)
        names[side] = ((a[0] + b[0]) / 2 + ox * ARC_NAME_OFFSET_IN,
                       (a[1] + b[1]) / 2 + oy * ARC_NAME_OFFSET_IN)
    owner = state.unit(target).player
    tie = getattr(state.rules, "charge_arc_tie", "roll")
    chargers = []
    for ident in focus:
        if not state.has_unit(ident) or state.unit(ident).player == owner:
            continue
        call = charger_arc(geo, ident, target, tie="front-edge centre")
        arc: str | None = call.arc
        if call.tied and tie == "roll":
            arc = None
        to = None
        if arc is not None:
            a, b = form.edges()[arc]
            to = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        chargers.append({"unit": ident, "from": call.point, "to": to, "arc": arc,
                         "counts": dict(call.counts), "tied": list(call.tied), "how": call.how})
    sides = {side: (tuple(a), tuple(b)) for side, (a, b) in form.edges().items()}
    return {"target": target, "lines": lines, "names": names, "chargers": chargers,
            "sides": sides}


def arc_of(sides: dict, point: XY) -> str | None:
    """The arc ``point`` (inches) stands in, given a block's four ``sides``
    (``{"front" | "rear" | "left" | "right": (a, b)}``, the key ``arc_keys`` gives): the side
    it stands furthest out beyond.  The 45-degree line from a corner is where the two sides
    that meet there are equally far out (measurements.csv TOW "Arcs"), so the side of
    greatest outward distance is the arc.  None for a point inside the block (no side out).
    Raises ``ValueError`` when ``sides`` is empty."""
    if not sides:
        raise ValueError("an arc needs the block's sides")
    pts = [q for a, b in sides.values() for q in (a, b)]
    cx, cy = sum(q[0] for q in pts) / len(pts), sum(q[1] for q in pts) / len(pts)
    best, best_out = None, 0.0
    for side, (a, b) in sides.items():
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        nx, ny = b[1] - a[1], a[0] - b[0]
        size = math.hypot(nx, ny) or 1.0
        nx, ny = nx / size, ny / size
        if nx * (mx - cx) + ny * (my - cy) < 0:
            nx, ny = -nx, -ny         # the normal pointing away from the block
        out = (point[0] - mx) * nx + (point[1] - my) * ny
        if out > best_out:
            best, best_out = side, out
    return best


def in_arc(sides: dict, side: str, corners: list[XY]) -> bool:
    """Whether every one of ``corners`` (inches) stands in ``side``'s arc (``arc_of``): an arc
    is convex (the ground beyond one side between two half-planes), so a rectangle whose four
    corners are in it lies wholly in it."""
    return all(arc_of(sides, q) == side for q in corners)


def hit_words(rec: dict) -> str:
    """The words beside a charger's line: ``"hits the left flank (front rank: 3 of 4 in that
    arc)"``, or
    the arcs its front rank ties between when a D6 decides."""
    counts = rec["counts"]
    total = sum(counts.values())
    if rec["arc"] is None:
        return "ties " + " / ".join(SIDE_WORDS[s] for s in rec["tied"]) + ": a D6 decides"
    return (f"hits the {SIDE_WORDS[rec['arc']]} (front rank: {counts[rec['arc']]} of {total} "
            f"in that arc)")


def draw_arc_lines(c: Any, value: dict) -> None:
    """Draw ``value`` (``arc_keys``) on canvas ``c``: the arc lines dashed, clipped to the
    table, and each charger's line as an arrow to the side it hits (under the bases)."""
    surface = c.surface
    old = surface.get_clip()
    surface.set_clip(c.table_rect().clip(old))
    try:
        for a, b in value["lines"]:
            prims.dashed_polyline(surface, [c.pt(*a), c.pt(*b)], ARC_LINE_COLOUR, 2, 10.0, 6.0)
    finally:
        surface.set_clip(old)
    for rec in value["chargers"]:
        if rec["to"] is not None:
            prims.arrow(surface, [c.pt(*rec["from"]), c.pt(*rec["to"])], CHARGE_LINE_COLOUR, 3)
