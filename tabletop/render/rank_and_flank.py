"""Drawers for the rank-and-flank combat steps (keys worked out in ``render/rnf_keys.py``).

``DRAWERS`` (read by ``steps.DRAWERS``, the one table of drawers):

- ``rnf_units``: each unit's four edges marked by side (front solid cyan,
  flanks black/white dashes, rear red/white dots: SIDE_COLOURS,
  SIDE_PATTERNS), thick where an enemy touches that side, a
  facing chevron, and a plate with files x ranks, rank bonus and, in bold,
  DISRUPTED (with why) or SURROUNDED;
- ``rnf_attacks``: a badge on every model that attacks, with its dice, in
  the colour of how it fights (front, supporting, flank, lance, commander);
- ``rnf_score``: the combat score breakdown, per side, the winner marked;
- ``rnf_break``: the break test roll against its target, or the crumble;
- ``rnf_flee``: the flee arrow (red and crossed out when the unit is destroyed);
- ``rnf_turn``: the unit turning to face, old and new facing;
- ``rnf_notes``: why models do not attack.

Panels sit at the bottom of the frame in screen space; everything on the
table is drawn from inches through the view.
"""

from __future__ import annotations

import math

import pygame

from tabletop.render import prims
from tabletop.render.board import Canvas, place_label
from tabletop.render.theme import readable_on, shade

# named defaults: how the sides are marked.  Players' colours are anything (the maps use a
# gold Empire and a green horde; the palette red, blue, purple, teal, orange, magenta), so a
# side is told by its pattern as well as its hue: the front a solid cyan line, the flanks
# black-and-white dashes, the rear red-and-white dots.
SIDE_COLOURS = {"front": (0, 190, 240), "left": (20, 20, 20), "right": (20, 20, 20),
                "rear": (225, 25, 25)}
SIDE_PATTERNS = {"front": ("solid", None, 0.0), "left": ("dashes", (255, 255, 255), 12.0),
                 "right": ("dashes", (255, 255, 255), 12.0), "rear": ("dots", (255, 255, 255), 5.0)}
SIDE_KEY = "edges: front solid cyan, flanks black/white dashes, rear red/white dots; thick = touched"
# named defaults: attack badges, in the side colours; commanders are white diamonds (a duel's
# with a red rim), a shape no player colour can be mistaken for
KIND_COLOURS = {"front": (0, 190, 240), "support": (195, 238, 252), "flank": (20, 20, 20),
                "lance": (255, 120, 220), "commander": (252, 252, 252), "duel": (252, 252, 252)}
KIND_RIMS = {"commander": (20, 20, 20), "duel": (215, 20, 20)}
KIND_NAMES = {"front": "front rank", "support": "supporting (+1)", "flank": "flank",
              "lance": "lance flank file", "commander": "commander (diamond)",
              "duel": "commander duel (red rim)"}
PANEL_PLATE = (252, 252, 248, 235)
PANEL_WIDTH_PX = 360        # named default: score lines wrap past this width
PANEL_TEXT = (25, 25, 25)


def _offset(c: Canvas, a, b, outward, px: float):
    """Segment a-b (inches) moved ``px`` pixels along ``outward`` (a table direction)."""
    sa, sb = c.pt(*a), c.pt(*b)
    ox, oy = outward[0], -outward[1]   # the y-flip
    return (sa[0] + ox * px, sa[1] + oy * px), (sb[0] + ox * px, sb[1] + oy * px)


def _outward(edge_side: str, facing: float):
    t = math.radians(facing)
    f = (math.cos(t), math.sin(t))
    r = (math.sin(t), -math.cos(t))
    return {"front": f, "rear": (-f[0], -f[1]), "right": r, "left": (-r[0], -r[1])}[edge_side]


def side_line(surface, side: str, p, q, width: int) -> None:
    """The marking of one side from screen point ``p`` to ``q`` (SIDE_COLOURS, SIDE_PATTERNS)."""
    col = SIDE_COLOURS.get(side, (90, 90, 90))
    pattern, alt, dash = SIDE_PATTERNS.get(side, ("solid", None, 0.0))
    if pattern == "solid" or alt is None:
        pygame.draw.line(surface, col, p, q, width)
        return
    pygame.draw.line(surface, alt, p, q, width)
    prims.dashed_polyline(surface, [p, q], col, max(2, width), dash=dash, gap=dash)


def draw_units(c: Canvas, value: dict) -> None:
    """Sides coloured, touched sides thick, status plates (see the module docstring)."""
    draw_unit_sides(c, value)
    for uid, rec in (value or {}).items():
        _status_plate(c, uid, rec)


def draw_unit_sides(c: Canvas, value: dict) -> None:
    """``draw_units`` without the status plates (the lessons place those themselves,
    ``render.lesson_labels``)."""
    for _uid, rec in (value or {}).items():
        facing = float(rec.get("facing", 90.0))
        touched = rec.get("touched") or {}
        for side, (a, b) in (rec.get("edges") or {}).items():
            hot = side in touched
            out = _outward(side, facing)
            width = 8 if hot else 4
            p, q = _offset(c, a, b, out, width / 2 + 2)
            if hot:
                pygame.draw.line(c.surface, (255, 255, 255), p, q, width + 4)
            side_line(c.surface, side, p, q, width)
        # facing chevron in front of the front edge
        fc = rec.get("front_centre")
        if fc and "front" not in touched:
            f = _outward("front", facing)
            sx, sy = c.pt(*fc)
            d = max(10.0, c.px(0.5))
            tip = (sx + f[0] * (d + 10), sy - f[1] * (d + 10))
            base = (sx + f[0] * 10, sy - f[1] * 10)
            n = (-f[1], -f[0])
            pygame.draw.polygon(c.surface, SIDE_COLOURS["front"],
                                [tip, (base[0] + n[0] * d * 0.6, base[1] + n[1] * d * 0.6),
                                 (base[0] - n[0] * d * 0.6, base[1] - n[1] * d * 0.6)])


def touched_items(rec: dict) -> list[tuple[str, list[str]]]:
    order = {"front": 0, "left": 1, "right": 2, "rear": 3}
    names = {"left": "left flank", "right": "right flank"}
    return [(f"{order.get(s, 9)}{names.get(s, s)}"[1:], e) for s, e in
            sorted((rec.get("touched") or {}).items(), key=lambda kv: order.get(kv[0], 9))]


def _status_plate(c: Canvas, uid: str, rec: dict) -> None:
    parts = status_plate_parts(c, uid, rec)
    if parts is None:
        return
    lines, colours, border, anchor = parts
    size = prims.text_size(lines, pad=4)
    rect = place_label(c, anchor, size, gap=26)
    prims.text_plate(c.surface, lines, rect.topleft, PANEL_TEXT, PANEL_PLATE, border, pad=4,
                     colours=colours)


def status_plate_parts(c: Canvas, uid: str, rec: dict):
    """A unit's status plate (files x ranks, rank bonus, SURROUNDED, DISRUPTED and why, the
    sides touched): ``(lines, colours, border colour, anchor rect)``, the anchor the
    unit's marked edges in pixels; None when the unit has no edges."""
    t = c.theme
    n = rec.get("rank_bonus_ranks", 0)
    ranks_line = (f"{uid}: {rec.get('files')} wide x {rec.get('ranks')} deep; "
                  f"{n} rank{'s' if n != 1 else ''} of {rec.get('rank_models', 5)}+ behind the front")
    lines = [(ranks_line, t.font_small)]
    colours = [PANEL_TEXT]
    if rec.get("surrounded"):
        lines.append(("SURROUNDED: enemies on opposite sides", t.font_label))
        colours.append((190, 20, 20))
    if rec.get("disrupted"):
        lines.append(("DISRUPTED: no rank bonus", t.font_label))
        colours.append((200, 100, 0))
        for why in rec.get("disrupted_reasons") or []:
            lines.append((f"  {why}", t.font_small))
            colours.append((120, 70, 0))
    for side, enemies in touched_items(rec):
        lines.append((f"{side}: {', '.join(enemies)}", t.font_small))
        colours.append(shade(SIDE_COLOURS.get(side, (90, 90, 90)), 0.7))
    edges = rec.get("edges") or {}
    pts = [c.pt(*p) for seg in edges.values() for p in seg]
    if not pts:
        return
    anchor = prims.bbox(pts, 14)
    border = (200, 100, 0) if rec.get("disrupted") else (150, 150, 150)
    if rec.get("surrounded"):
        border = (190, 20, 20)
    return lines, colours, border, anchor


def _diamond(centre, k: float) -> list:
    x, y = centre
    return [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]


def draw_attacks(c: Canvas, value: dict) -> None:
    """A badge with the dice count on every attacking model, coloured by how it fights."""
    ids = set(c.geo.ids)
    for mid, spec in (value or {}).items():
        if mid not in ids:
            continue
        m = c.geo.model(mid)
        kind = spec.get("kind", "front")
        col = KIND_COLOURS.get(kind, (60, 60, 60))
        r = max(7.0, min(14.0, c.px(min(m.base.along, m.base.across)) * 0.36))
        centre = c.pt(m.x, m.y)
        if kind in KIND_RIMS:                 # commanders: a diamond
            for k, fill in ((r * 1.35 + 3, (255, 255, 255)), (r * 1.35, KIND_RIMS[kind]),
                            (r * 1.35 - 3, col)):
                pygame.draw.polygon(c.surface, fill, _diamond(centre, k))
        else:
            pygame.draw.circle(c.surface, (255, 255, 255), centre, r + 2)
            pygame.draw.circle(c.surface, col, centre, r)
        text = f"+{spec['dice']}" if kind == "support" else str(spec["dice"])
        size = max(12, int(r * 1.5))
        prims.text(c.surface, text, size, readable_on(col), centre, anchor="center")


def draw_doomed(c: Canvas, value: list) -> None:
    """A red cross over each model that dies this round (removed once everyone has attacked)."""
    ids = set(c.geo.ids)
    for mid in value or []:
        if mid not in ids:
            continue
        m = c.geo.model(mid)
        size = max(5.0, c.px(min(m.base.along, m.base.across)) * 0.34)
        centre = c.pt(m.x, m.y)
        prims.cross(c.surface, (centre[0] + size * 0.9, centre[1] - size * 0.9), size * 0.7 + 1,
                    (255, 255, 255), 6)
        prims.cross(c.surface, (centre[0] + size * 0.9, centre[1] - size * 0.9), size * 0.7,
                    (200, 0, 0), 3)


def _panel(c: Canvas, lines, colours, border, where: str = "bottomleft") -> pygame.Rect:
    size = prims.text_size(lines, pad=6, spacing=2)
    sw, sh = c.surface.get_size()
    x = 10 if where.endswith("left") else sw - size[0] - 10
    y = sh - size[1] - 10
    for r in c.taken:
        if r.width > 60 and r.colliderect(pygame.Rect(x, y, *size)) and getattr(r, "_panel", False):
            y = r.top - size[1] - 8
    rect = prims.text_plate(c.surface, lines, (x, y), PANEL_TEXT, PANEL_PLATE, border, pad=6,
                            spacing=2, colours=colours)
    c.taken.append(rect)
    return rect


_PANELS: dict[int, list[pygame.Rect]] = {}

PANEL_RULER_CLEAR = 4
"""Named default: pixels between a corner panel and the table's edge, where the inch rulers
run (a panel stays on the table, off the rulers, when the table's edge is in the frame)."""


def _slot(stack: list[pygame.Rect], size, surface_size, side: str, top: bool,
          inside: pygame.Rect | None = None) -> pygame.Rect:
    """Where a panel of ``size`` goes in one corner, stacked away from that corner past
    the panels already there; with ``inside`` (the table's pixels), above its bottom edge and
    below its top edge, inside its side edges, when those are in the frame, so the edge
    rulers stay readable."""
    w, h = size
    sw, sh = surface_size
    x = 10 if side == "left" else sw - w - 10
    y = 10 if top else sh - h - 10
    if inside is not None:
        if side == "left" and inside.left > 0:
            x = max(x, inside.left + PANEL_RULER_CLEAR)
        elif side != "left" and inside.right < sw:
            x = min(x, inside.right - PANEL_RULER_CLEAR - w)
        if top and inside.top > 0:
            y = max(y, inside.top + PANEL_RULER_CLEAR)
        elif not top and inside.bottom < sh:
            y = min(y, inside.bottom - PANEL_RULER_CLEAR - h)
    for r in stack:
        if (r.centery < sh / 2) != top or not (r.left < x + w and x < r.right):
            continue
        y = max(y, r.bottom + 8) if top else min(y, r.top - h - 8)
    return pygame.Rect(x, y, w, h)


def _covered(c: Canvas, rect: pygame.Rect) -> int:
    """Pixels of ``rect`` over bases, labels, plates and panels already drawn."""
    area = 0
    for r in [*c.taken, *c.bases]:
        clip = rect.clip(r)
        area += clip.width * clip.height
    return area


def _stack(c: Canvas, lines, colours, border, where: str) -> None:
    """Panels stack upwards from the bottom corner ``where`` within one frame; when that
    spot would cover bases, labels or plates, the first free one of the other bottom
    corner, then the top corners (PANEL_CORNERS), else the one covering least."""
    key = id(c)
    stack = _PANELS.setdefault(key, [])
    if len(_PANELS) > 8:
        for k in list(_PANELS)[:-1]:
            _PANELS.pop(k, None)
    size = prims.text_size(lines, pad=6, spacing=2)
    other = "right" if where == "left" else "left"
    spots = [_slot(stack, size, c.surface.get_size(), side, top, c.table_rect())
             for side, top in ((where, False), (other, False), (where, True), (other, True))]
    spots = [r for r in spots if r.top >= 0] or spots[:1]
    costs = [_covered(c, r) for r in spots]
    best = spots[costs.index(min(costs))]
    rect = prims.text_plate(c.surface, lines, best.topleft, PANEL_TEXT, PANEL_PLATE, border, pad=6,
                            spacing=2, colours=colours)
    stack.append(rect)
    c.taken.append(rect)


def draw_score(c: Canvas, value: dict) -> None:
    """The combat score: every source per side, totals, the winner."""
    lines, colours = score_parts(c, value)
    _stack(c, lines, colours, SCORE_BORDER, "left")


SCORE_BORDER = (90, 90, 90)
"""The combat score box's border colour."""


def score_parts(c: Canvas, value: dict):
    """The combat score box's ``(lines, colours)``: every source per side, totals, the
    winner (``draw_score`` stacks it in a corner; the lessons place it themselves)."""
    t = c.theme
    totals = value.get("totals") or {}
    winner = value.get("winner")
    lines = [("Combat score", t.font_label)]
    colours = [PANEL_TEXT]
    for player, total in totals.items():
        mark = "  WINS" if player == winner else ("" if winner is None else "  loses")
        lines.append((f"{player}: {total}{mark}", t.font_label))
        colours.append(shade(c.colours.get(player, (60, 60, 60)), 0.7))
        for it in value.get("breakdown") or []:
            if it.get("player") != player:
                continue
            why = f" ({it['why']})" if it.get("why") else ""
            for part in prims.wrap_text(f"   {it['unit']}: {it['source']} {it['score']:+d}{why}",
                                        t.font_small, PANEL_WIDTH_PX, 3, "      "):
                lines.append((part, t.font_small))
                colours.append((60, 60, 60) if it["score"] else (150, 90, 0))
    if winner is None:
        lines.append(("tie: nobody tests", t.font_label))
    else:
        lines.append((f"difference {value.get('difference')}: the losers take break tests",
                      t.font_small))
    colours.append(PANEL_TEXT)
    return lines, colours


def draw_break(c: Canvas, value: dict) -> None:
    """The break test: 2D6 against Discipline + ranks - difference, or the crumble."""
    t = c.theme
    if not value:
        return
    unit = value.get("unit")
    if value.get("test") == "crumble":
        lines = [(f"{unit} crumbles (never takes a break test)", t.font_label),
                 (f"D3 roll -> loses {value.get('wounds')} wound(s)", t.font_small)]
        _stack(c, lines, [PANEL_TEXT, PANEL_TEXT], (120, 60, 160), "right")
        return
    dice = value.get("dice") or []
    ok = value.get("passed")
    diff = value.get("difference", 0)
    fearless = " (Fearless: difference ignored)" if value.get("fearless") else ""
    lines = [(f"{unit} break test", t.font_label),
             (f"2D6: {' + '.join(str(d) for d in dice)} = {value.get('total')}", t.font_label),
             (f"needs <= Discipline {value.get('discipline')} ({value.get('discipline_from')})"
              f" + ranks {value.get('ranks')} - difference {diff} = {value.get('target')}{fearless}",
              t.font_small),
             ("HOLDS" if ok else "BREAKS", t.font_caption)]
    col = (30, 130, 50) if ok else (190, 20, 20)
    _stack(c, lines, [PANEL_TEXT, PANEL_TEXT, (60, 60, 60), col], col, "right")


def draw_flee(c: Canvas, value: list, *, lengths: bool = True) -> None:
    """The flee arrow from the unit's old centre to its new one, its length on it (a red
    cross at the end when the unit is destroyed instead), and a panel saying why.
    ``lengths=False`` leaves the length out (the lessons place it, ``render.lesson_labels``)."""
    t = c.theme
    for rec in value or []:
        a, b = rec.get("from"), rec.get("to")
        if not a or not b:
            continue
        dead = rec.get("outcome") == "destroyed"
        col = (190, 20, 20) if dead else (230, 90, 0)
        pa, pb = c.pt(*a), c.pt(*b)
        pygame.draw.line(c.surface, (255, 255, 255), pa, pb, 9)
        prims.arrow(c.surface, [pa, pb], col, 5, max(14.0, c.px(0.7)))
        if dead:
            prims.cross(c.surface, pb, 14, (255, 255, 255), 8)
            prims.cross(c.surface, pb, 12, col, 4)
        d = math.hypot(pb[0] - pa[0], pb[1] - pa[1]) or 1.0
        nx, ny = -(pb[1] - pa[1]) / d, (pb[0] - pa[0]) / d
        if lengths:
            prims.outlined_text(c.surface, flee_length(rec), t.font_label, flee_colour(rec),
                                (255, 255, 255),
                                ((pa[0] + pb[0]) / 2 + nx * 22, (pa[1] + pb[1]) / 2 + ny * 22))
        away = ", ".join(rec.get("away_from") or []) or "the enemy"
        if dead:
            lines = [(f"{rec['unit']} is destroyed", t.font_label),
                     (f"{rec.get('reason')}", t.font_small)]
        else:
            lines = [(f"{rec['unit']} flees {rec.get('distance', 0):.1f}\" (its full Move "
                      f"{rec.get('move', 0):g}\")", t.font_label),
                     (f"directly away from {away}: heading {rec.get('direction', 0):.0f} deg,",
                      t.font_small),
                     (f"opposite the side they touch ({away_text(rec.get('away_sides'))}); "
                      "faint bases: where it stood", t.font_small)]
        _stack(c, lines, [col] + [(60, 60, 60)] * (len(lines) - 1), col, "right")


def flee_length(rec: dict) -> str:
    """A flee record's length as its arrow shows it (``4.0"``)."""
    return f"{rec.get('distance', 0):.1f}\""


def flee_colour(rec: dict):
    """The colour of a flee arrow's length: dark red when the unit is destroyed, else dark
    orange."""
    return shade((190, 20, 20) if rec.get("outcome") == "destroyed" else (230, 90, 0), 0.8)


def away_text(weights: dict | None) -> str:
    """``{side: contact inches}`` as "front 3.0\"" or "front 3.0\" + left flank 3.9\"" """
    names = {"left": "left flank", "right": "right flank"}
    return " + ".join(f"{names.get(s, s)} {w:.1f}\"" for s, w in (weights or {}).items()) or "no contact"


def draw_turn(c: Canvas, value: list, *, words: bool = True) -> None:
    """Old facing (grey) from the old centre, new facing (green) from the new centre; a
    unit that cannot turn gets a red cross on its arrow and the reason under it.
    ``words=False`` leaves the sentence out (the lessons place it, ``render.lesson_labels``)."""
    for rec in value or []:
        sc = c.pt(*rec.get("centre", (0, 0)))
        ec = c.pt(*(rec.get("end") or rec.get("centre", (0, 0))))
        turned = rec.get("turned", True)
        L = max(30.0, c.px(2.0))
        for at, ang, col in ((sc, rec.get("from", 0.0), (130, 130, 130)),
                             (ec if turned else sc, rec.get("to", 0.0),
                              SIDE_COLOURS["front"] if turned else (190, 20, 20))):
            t = math.radians(float(ang))
            end = (at[0] + math.cos(t) * L, at[1] - math.sin(t) * L)
            pygame.draw.line(c.surface, (255, 255, 255), at, end, 8)
            prims.arrow(c.surface, [at, end], col, 4, 14.0)
            if not turned and col != (130, 130, 130):
                mid = ((at[0] + end[0]) / 2, (at[1] + end[1]) / 2)
                prims.cross(c.surface, mid, 12, (255, 255, 255), 8)
                prims.cross(c.surface, mid, 10, col, 4)
        if words:
            text, colour = turn_words(rec)
            prims.outlined_text(c.surface, text, c.theme.font_label, colour, (255, 255, 255),
                                (ec[0], ec[1] + 22))


def turn_words(rec: dict) -> tuple[str, tuple[int, int, int]]:
    """A turn record's sentence and its colour (green: turned; red: cannot turn, and why)."""
    if rec.get("turned", True):
        return f"{rec['unit']} turns to face {rec['enemy']}", (20, 90, 40)
    return (f"{rec['unit']} cannot turn to face {rec['enemy']}: {rec.get('reason', '')}",
            (150, 20, 20))


KEY_NOTE_WIDTH_PX = 380
"""Named default: pixels a note in the key (``draw_notes``) wraps at, so the key box fits a
corner of the table instead of spanning it (at least the key's own widest line)."""


def draw_notes(c: Canvas, value: list) -> None:
    """Why some models do not attack, and the key to the badges and sides."""
    t = c.theme
    lines = [("Key", t.font_small)]
    colours = [PANEL_TEXT]
    for kind in ("front", "support", "flank", "lance", "commander", "duel"):
        lines.append((f"  o {KIND_NAMES[kind]}", t.font_small))
        colours.append(KIND_RIMS.get(kind) or shade(KIND_COLOURS[kind], 0.55 if kind == "support" else 0.8))
    lines.append((f"  {SIDE_KEY}", t.font_small))
    colours.append((70, 70, 70))
    # a note wraps, so the key stays narrow enough for a free corner of the table
    width = max(KEY_NOTE_WIDTH_PX, max(prims.text_size([ln])[0] for ln in lines[:-1]) - 8)
    for note in value or []:
        for part in prims.wrap_text(f"- {note}", t.font_small, width, 4, indent="   "):
            lines.append((part, t.font_small))
            colours.append((120, 40, 40))
    _stack(c, lines, colours, (150, 150, 150), "right")


DRAWERS = {key: (fn, "over") for key, fn in (
    ("rnf_units", draw_units), ("rnf_attacks", draw_attacks), ("rnf_score", draw_score),
    ("rnf_break", draw_break), ("rnf_flee", draw_flee), ("rnf_turn", draw_turn),
    ("rnf_notes", draw_notes), ("rnf_casualties", draw_doomed))}
"""The rank-and-flank draw keys (``step_draw.draw_of``): ``{key: (fn(canvas, value), layer)}``."""
