"""A lesson frame's board with every label placed by one placer (``render.label_place``).

The teaching drawing (``render.steps.draw_step``) places each kind of label on its own: the
unit plates under their units, a formation's status box beside its edges, a move's length
beside its arrow, the combat score in a corner.  On a lesson frame they must not hide what
they are about, slide frames included (models slide after the board behind them is drawn).
So a lesson frame is drawn in two passes:

1. ``draw_unlabelled``: the board and every draw key of the step, without the unit plates,
   the status boxes (``rnf_units``' sides only), the move lengths (``arrows`` drawn bare, a
   flight's ``rnf_flee`` arrow without its length, a turn's ``rnf_turn`` arrows without its
   sentence) and the combat score (``rnf_score``); any other panel a drawer places stays, and is kept
   clear of (``Canvas.taken``).
2. ``place_labels``: on the frame's table (the step's, or a slide frame's poses), every
   model's base and those panels blocked, then in this order the combat score box in a
   corner of the table free of models and panels (``corners``; one free of terrain too when
   there is one; when none is free, handed back for the side panel), each status box
   ``around`` its edges, each unit's plate ``around`` its models, each move or flight
   length ``along`` its path and each turn's sentence ``around`` the turning unit: the big boxes first, as they have the fewest free places; the small
   labels fit round them.  ``draw_labels`` draws them, with a leader line from a plate
   placed away from its unit.

Table coordinates are inches (origin bottom-left, y up), turned into pixels by the ``View``;
every rectangle here is pixels.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import pygame

from tabletop.geometry.footprints import base_polygon
from tabletop.render import prims
from tabletop.render import rank_and_flank as rnf
from tabletop.render.board import LABEL_MARGIN_PX, Canvas, board_canvas
from tabletop.render.label_place import LABEL_RINGS, LabelPlacer, Placed, along, around, corners
from tabletop.render.lesson_arcs import (
    ARC_LINE_COLOUR,
    ARC_NAME_OFFSET_IN,
    ARC_NAME_REACH,
    ARC_NAMES,
    CHARGE_LINE_COLOUR,
    draw_arc_lines,
    hit_words,
    in_arc,
)
from tabletop.render.step_draw import draw_of
from tabletop.render.steps import DRAWERS
from tabletop.render.theme import Theme, shade

__all__ = ["LESSON_PLACED_KEYS", "LESSON_UNDER_KEYS", "FrameLabels", "base_rects", "draw_labels", "draw_unlabelled",
           "place_labels"]

LESSON_PLACED_KEYS = frozenset({"arrows", "rnf_units", "rnf_score", "rnf_flee", "rnf_turn",
                                "lesson_arcs"})
"""The draw keys whose labels a lesson frame places itself (the rest draw as ever)."""

LESSON_UNDER_KEYS = frozenset({"lines"})
"""Named default: draw keys a lesson frame draws under the bases and overlays rather than
over them: the closest-target lines (a model to its target or objective) would otherwise
cross an objective's control count ("red 3 / blue 0") drawn by the objectives overlay."""

STATUS_GAP_PX = 26
"""Named default: pixels between a formation's marked edges and its status box (clear of
the edge markings and the facing chevron)."""


@dataclass
class FrameLabels:
    """A frame's placed labels (``Placed``, in placing order) with what each draws, the base
    rectangles they were kept clear of, the score lines handed to the side panel (empty
    when the score box found a free corner) and the other panels on the board."""

    placed: list[Placed] = field(default_factory=list)
    draws: list[Callable[[pygame.Surface, str], None]] = field(default_factory=list)
    bases: list[pygame.Rect] = field(default_factory=list)
    panel: list[tuple[list, list]] = field(default_factory=list)
    others: list[pygame.Rect] = field(default_factory=list)
    """The panels other drawers placed (``Canvas.taken``), kept clear of too."""


def base_rects(state, view) -> dict[str, pygame.Rect]:
    """``{model id: the pixel rectangle bounding its base}`` on ``state`` through ``view``."""
    out = {}
    for u in state.units:
        for m in u.models:
            x0, y0, x1, y1 = base_polygon(m.base, m.x, m.y, m.facing_deg).bounds
            out[m.id] = prims.bbox([view.to_screen(x0, y0), view.to_screen(x1, y1)])
    return out


def draw_unlabelled(surface: pygame.Surface, step: Any, view, *, geo, theme: Theme | None,
                    overlays: Iterable[str]) -> Canvas:
    """Draw ``step`` as ``render.steps.draw_step`` does (no caption) but with none of the
    labels ``place_labels`` places (``LESSON_PLACED_KEYS``' labels and the unit plates).
    Returns the canvas: its ``taken`` are the panels other drawers placed."""
    draw = dict(draw_of(step))

    def layer(name: str):
        def run(c: Canvas) -> None:
            c.step = step  # type: ignore[attr-defined]
            c.draw = draw  # type: ignore[attr-defined]
            for key, value in draw.items():
                if key == "rnf_score":
                    continue
                if key in LESSON_UNDER_KEYS:
                    if name == "under":
                        DRAWERS[key][0](c, value)
                    continue
                if key == "lesson_arcs":
                    if name == "under":
                        draw_arc_lines(c, value)
                    continue
                if key == "lesson_outline":
                    if name == "over":
                        draw_outlines(c, value)
                    continue
                if key == "rnf_units":
                    if name == "over":
                        rnf.draw_unit_sides(c, value)
                    continue
                if key == "arrows":
                    if name == "over":
                        _bare_arrows(c, value)
                    continue
                if key == "rnf_turn":
                    if name == "over":
                        rnf.draw_turn(c, value, words=False)
                    continue
                if key == "rnf_flee":
                    if name == "over":
                        rnf.draw_flee(c, value, lengths=False)
                    continue
                entry = DRAWERS.get(key)
                if entry is not None and entry[1] == name:
                    entry[0](c, value)
        return run

    return board_canvas(surface, step.state, geo, view, overlays=overlays, theme=theme,
                        selected_unit=draw.get("selected_unit"), under=layer("under"),
                        over=layer("over"), labels=[])


def _arrow_paths(value: dict):
    """``[(model id, colour name or None, points in inches)]`` of an ``arrows`` value."""
    out = []
    for mid, path in (value or {}).items():
        colour = None
        if isinstance(path, dict):
            colour = path.get("colour")
            path = path.get("path", [])
        pts = [(float(p[0]), float(p[1])) for p in path]
        if len(pts) >= 2:
            out.append((mid, colour, pts))
    return out


def _bare_arrows(c: Canvas, value: dict) -> None:
    """The ``arrows`` key's arrows without their lengths (``place_labels`` places those)."""
    for _mid, colour, pts in _arrow_paths(value):
        prims.arrow(c.surface, c.pts(pts), c.theme.colour(colour, c.theme.arrow), 3,
                    max(10.0, c.px(0.45)))


def _plate_lines(u, n: int, theme: Theme) -> list[tuple[str, int]]:
    """The lines of a unit's plate, as the board's plates read (name; id, count, status)."""
    sub = ([u.id] if u.name else []) + [f"{n} model{'s' if n != 1 else ''}"]
    sub += list(u.status) + (["charged"] if u.charged else [])
    return [(u.label, theme.font_label), (" · ".join(sub), theme.font_small)]


def place_labels(canvas: Canvas, step: Any, state, view, theme: Theme,
                 blocked: Iterable[pygame.Rect] = ()) -> FrameLabels:
    """Place the labels of ``step``'s frame showing ``state`` (the step's table, or a slide
    frame's: models at their poses) over a board drawn by ``draw_unlabelled`` (``canvas``).

    Blocked: every model's base on ``state`` (``base_rects``), the canvas's ``taken`` panels
    and ``blocked``.  Bounds: the table and ``LABEL_MARGIN_PX`` round it, within the surface.
    Returns the ``FrameLabels`` (nothing drawn yet: ``draw_labels``)."""
    surface_rect = canvas.surface.get_rect()
    table = canvas.table_rect()
    bounds = table.inflate(2 * LABEL_MARGIN_PX, 2 * LABEL_MARGIN_PX).clip(surface_rect)
    rects = base_rects(state, view)
    out = FrameLabels(bases=list(rects.values()), others=[*canvas.taken, *blocked])
    placer = LabelPlacer(bounds, out.bases, [*canvas.taken, *blocked])
    colours = theme.player_colours(state)
    draw = draw_of(step)

    score = draw.get("rnf_score")
    if score:                          # the combat score: a free corner, else the side panel
        lines, line_colours = rnf.score_parts(canvas, score)
        size = prims.text_size(lines, pad=6, spacing=2)
        spots = corners(table, size)
        pieces = [prims.bbox([view.to_screen(x, y) for x, y in t.polygon]) for t in state.terrain
                  if t.polygon]
        # a corner clear of terrain too, when one is, else clear of models and labels
        spot = next((r for r in spots if r.collidelist(pieces) < 0 and placer.free([r])), None)
        spot = spot or placer.free(spots)
        if spot is None:
            out.panel.append((lines, line_colours))
        else:
            p = placer.place("score", "combat score", [spot])
            out.placed.append(p)
            out.draws.append(_box_draw(p.rect, lines, line_colours, rnf.SCORE_BORDER, pad=6,
                                       spacing=2))

    # a move's start ghosts weigh as bases (a plate over them hides where the move began)
    for mid, pose in (draw.get("ghosts") or {}).items():
        if state.has_unit(mid.rsplit("/", 1)[0]) and len(pose) >= 2:
            m = state.unit(mid.rsplit("/", 1)[0]).model(mid)
            x0, y0, x1, y1 = base_polygon(m.base, pose[0], pose[1],
                                          pose[2] if len(pose) > 2 else m.facing_deg).bounds
            placer.bases.append(prims.bbox([view.to_screen(x0, y0), view.to_screen(x1, y1)]))
    # the boxes keep off the lines they would hide: a flight's arrow, each move's path
    for rec in draw.get("rnf_flee") or []:
        if rec.get("from") and rec.get("to"):
            placer.block(_line_boxes(view.to_screen(*rec["from"]), view.to_screen(*rec["to"])))
    for _mid, _colour, pts in _arrow_paths(draw.get("arrows") or {}):
        for a, b in itertools.pairwise(pts):
            placer.block(_line_boxes(view.to_screen(*a), view.to_screen(*b)))

    for uid, rec in (draw.get("rnf_units") or {}).items():     # the status boxes
        parts = rnf.status_plate_parts(canvas, uid, rec)
        if parts is None:
            continue
        lines, line_colours, border, anchor = parts
        size = prims.text_size(lines, pad=4)
        p = placer.place("status", uid, around(anchor, size, gap=STATUS_GAP_PX), anchor)
        out.placed.append(p)
        out.draws.append(_box_draw(p.rect, lines, line_colours, border, pad=4, spacing=1))

    for u in state.units:            # the unit plates, in the map's unit order
        mine = [rects[m.id] for m in u.models if m.id in rects]
        if not mine:
            continue
        anchor = mine[0].unionall(mine[1:])
        lines = _plate_lines(u, len(mine), theme)
        p = placer.place("plate", u.id, around(anchor, prims.text_size(lines, pad=4)), anchor)
        col = colours.get(u.player, (128, 128, 128))
        out.placed.append(p)
        out.draws.append(_plate_draw(p, lines, col, theme))

    for mid, colour, pts in _arrow_paths(draw.get("arrows") or {}):   # the move lengths
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(pts))
        text = f'{length:.1f}"'
        tw, th = prims.font(theme.font_small).size(text)
        screen = [view.to_screen(x, y) for x, y in pts]
        box = prims.bbox(screen)
        # beside its path first; in a packed block, round the path's box further out
        p = placer.place("move", mid, along(screen, (tw + 2, th + 2))
                         + around(box, (tw + 2, th + 2), rings=LABEL_RINGS * 2), box)
        out.placed.append(p)
        out.draws.append(_move_draw(p, screen, text, theme.colour(colour, theme.arrow), theme))

    for rec in draw.get("rnf_turn") or []:     # a turn to face, in words
        text, colour = rnf.turn_words(rec)
        tw, th = prims.font(theme.font_label).size(text)
        at = view.to_screen(*(rec.get("end") or rec.get("centre", (0, 0))))
        mine = [r for mid, r in rects.items() if mid.rsplit("/", 1)[0] == rec.get("unit")]
        anchor = mine[0].unionall(mine[1:]) if mine else pygame.Rect(round(at[0]), round(at[1]), 1, 1)
        p = placer.place("turn", rec.get("unit", ""),
                         around(anchor, (tw + 2, th + 2), rings=LABEL_RINGS * 2), anchor)
        out.placed.append(p)
        out.draws.append(_move_draw(p, [at], text, colour, theme, theme.font_label))

    for rec in draw.get("rnf_flee") or []:     # a flight's length
        if not rec.get("from") or not rec.get("to"):
            continue
        text = rnf.flee_length(rec)
        tw, th = prims.font(theme.font_label).size(text)
        screen = [view.to_screen(*rec["from"]), view.to_screen(*rec["to"])]
        box = prims.bbox(screen)
        p = placer.place("move", rec.get("unit", ""), along(screen, (tw + 2, th + 2), gap=12)
                         + around(box, (tw + 2, th + 2), rings=LABEL_RINGS * 2), box)
        out.placed.append(p)
        out.draws.append(_move_draw(p, screen, text, rnf.flee_colour(rec), theme,
                                    theme.font_label))

    arcs = draw.get("lesson_arcs")
    for rec in (arcs or {}).get("chargers", []):   # which side each charger hits
        text = hit_words(rec)
        tw, th = prims.font(theme.font_label).size(text)
        mine = [r for mid, r in rects.items() if mid.rsplit("/", 1)[0] == rec["unit"]]
        if not mine:
            continue
        anchor = mine[0].unionall(mine[1:])
        screen = [view.to_screen(*rec["from"])] + ([view.to_screen(*rec["to"])] if rec["to"]
                                                   else [])
        spots = (along(screen, (tw + 2, th + 2), gap=10) if len(screen) > 1 else [])
        p = placer.place("hit", rec["unit"], spots + around(anchor, (tw + 2, th + 2),
                                                            rings=LABEL_RINGS * 2), anchor)
        out.placed.append(p)
        out.draws.append(_move_draw(p, [screen[0]], text, CHARGE_LINE_COLOUR, theme,
                                    theme.font_label))
    for rec in (arcs or {}).get("chargers", []):   # the arc names keep off the charge lines
        if rec["to"] is not None:
            placer.block(_line_boxes(view.to_screen(*rec["from"]), view.to_screen(*rec["to"])))
    for side, at in ((arcs or {}).get("names") or {}).items():   # each arc's name
        text = ARC_NAMES[side]
        tw, th = prims.font(theme.font_label).size(text)
        sx, sy = view.to_screen(*at)
        spot = pygame.Rect(round(sx - tw / 2), round(sy - th / 2), tw + 2, th + 2)
        p = placer.place("arc", side, _arc_spots(arcs, side, (tw + 2, th + 2), view,
                                                  state.table) or
                         [spot] + around(spot, (tw + 2, th + 2), rings=LABEL_RINGS * 2), spot)
        out.placed.append(p)
        out.draws.append(_move_draw(p, [spot.center], text, ARC_LINE_COLOUR, theme,
                                    theme.font_label))
    return out


def _arc_spots(arcs: dict, side: str, size, view, table) -> list[pygame.Rect]:
    """Places (pixels) for ``side``'s arc name of ``size``: centred ``ARC_NAME_REACH``
    multiples of ``ARC_NAME_OFFSET_IN`` out from the middle of that side, each with rings
    round it, keeping only those whose whole box lies in that arc (``lesson_arcs.in_arc``,
    corners taken back to table inches) and on the ``table`` (``width`` x ``depth`` inches).
    Empty when the key has no ``sides``."""
    sides = arcs.get("sides")
    if not sides or side not in sides:
        return []
    a, b = sides[side]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    at = arcs["names"][side]
    out_dir = ((at[0] - mid[0]) / ARC_NAME_OFFSET_IN, (at[1] - mid[1]) / ARC_NAME_OFFSET_IN)
    spots: list[pygame.Rect] = []
    for f in ARC_NAME_REACH:
        x, y = view.to_screen(mid[0] + out_dir[0] * ARC_NAME_OFFSET_IN * f,
                              mid[1] + out_dir[1] * ARC_NAME_OFFSET_IN * f)
        spot = pygame.Rect(round(x - size[0] / 2), round(y - size[1] / 2), *size)
        spots += [spot] + around(spot, size, rings=LABEL_RINGS)
    out = []
    for r in spots:
        pts = [view.to_table(*q) for q in (r.topleft, r.topright, r.bottomleft, r.bottomright)]
        if (in_arc(sides, side, pts)
                and all(0 <= x <= table.width and 0 <= y <= table.depth for x, y in pts)):
            out.append(r)
    return out


def _line_boxes(a, b, step: float = 6.0) -> list[pygame.Rect]:
    """Small squares (pixels) along the segment ``a``-``b``, so a label keeps off the line."""
    n = max(1, int(math.dist(a, b) // step))
    return [pygame.Rect(round(a[0] + (b[0] - a[0]) * k / n) - 4,
                        round(a[1] + (b[1] - a[1]) * k / n) - 4, 8, 8) for k in range(n + 1)]


def draw_outlines(c: Canvas, value: dict) -> None:
    """A highlight that follows each named model's base (``{model id: colour}``): the base's
    own outline, 3 px outside it, so a square or oblong base gets a square, not a ring."""
    pad = 3.0 / c.view.scale
    ids = set(c.geo.ids)
    for mid, colour in value.items():
        if mid not in ids:
            continue
        m = c.state.model(mid)
        poly = base_polygon(m.base, m.x, m.y, m.facing_deg).buffer(pad, join_style=2)
        pts = [c.pt(x, y) for x, y in poly.exterior.coords]
        pygame.draw.polygon(c.surface, c.theme.colour(colour, c.theme.selected)[:3], pts, 3)


def _plate_draw(p: Placed, lines, col, theme: Theme) -> Callable[[pygame.Surface, str], None]:
    def draw(surface: pygame.Surface, layer: str) -> None:
        if layer == "leader" and p.leader and p.anchor is not None:
            a, r = p.anchor, p.rect
            start = (min(max(a.centerx, r.left), r.right), min(max(a.centery, r.top), r.bottom))
            end = (min(max(start[0], a.left), a.right), min(max(start[1], a.top), a.bottom))
            pygame.draw.line(surface, (255, 255, 255), start, end, 4)
            pygame.draw.line(surface, shade(col, 0.7), start, end, 2)
            prims.disc(surface, end, 3, shade(col, 0.7))
        elif layer == "body":
            prims.text_plate(surface, lines, p.rect.topleft, theme.label_text, theme.label_plate,
                             shade(col, 0.85), pad=4, colours=[shade(col, 0.6), (70, 70, 70)])
    return draw


def _box_draw(rect: pygame.Rect, lines, colours, border, *, pad: int,
              spacing: int) -> Callable[[pygame.Surface, str], None]:
    def draw(surface: pygame.Surface, layer: str) -> None:
        if layer == "body":
            prims.text_plate(surface, lines, rect.topleft, rnf.PANEL_TEXT, rnf.PANEL_PLATE,
                             border, pad=pad, spacing=spacing, colours=colours)
    return draw


def _move_draw(p: Placed, path, text: str, colour, theme: Theme,
               size: int | None = None) -> Callable[[pygame.Surface, str], None]:
    def draw(surface: pygame.Surface, layer: str) -> None:
        if layer == "leader" and p.leader:   # away from its path: a line to its nearest point
            end = min(path, key=lambda q: math.dist(q, p.rect.center))
            start = (min(max(end[0], p.rect.left), p.rect.right),
                     min(max(end[1], p.rect.top), p.rect.bottom))
            pygame.draw.line(surface, (255, 255, 255), start, end, 3)
            pygame.draw.line(surface, colour, start, end, 1)
        elif layer == "body":
            prims.outlined_text(surface, text, size or theme.font_small, colour, (255, 255, 255),
                                p.rect.center)
    return draw


LABEL_LAYERS = ("leader", "body")
"""What ``draw_labels`` draws, in order: every leader line, then every label over them."""


def draw_labels(surface: pygame.Surface, labels: FrameLabels) -> None:
    """Draw ``labels`` (``place_labels``): their leader lines, then the labels in their
    placing order (so no line crosses a label)."""
    for layer in LABEL_LAYERS:
        for fn in labels.draws:
            fn(surface, layer)


def ghost_step(step: Any, state) -> Any:
    """``step`` showing ``state`` (a slide's background: the table without the sliding
    models), with the step's own draw keys."""
    from tabletop.render.step_draw import with_keys
    return with_keys(replace(step, state=state), draw_of(step))
