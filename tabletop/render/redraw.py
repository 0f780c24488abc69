"""Redraw only what changed: the window's board after a drop or a new selection.

``redraw_board(surface, drawn, state, geo, view, selected=...)`` brings a board image
that ``drawn`` (a ``Drawn``, what an earlier call put on ``surface``) describes up to
date for a new state, snapshot or selection.  It lists what a whole drawing
(``board.board_canvas``) would put on the board, item by item, each with what decides
its pixels and the pixels it may touch (``board_items``):

- each base: its position, facing, base, wounds lost, role and colour;
- each unit outline: the snapshot's outline shape (kept as the same object across
  snapshots while the unit's models stay put, ``Geometry.unit_outline``) and whether it
  is the selected unit's (thick);
- each unit label: its lines, its plate's place and its leader line.  Only the labels
  whose candidate places reach a base that changed (or a plate placed anew before them)
  are placed again (``board.LabelsBefore``); the others read nothing that changed, so
  they keep their place, the one a whole drawing gives;
- the selected model's ring.

Items that differ from ``drawn``'s (or appear, or go) mark their old and new pixels
dirty; the board is then drawn again inside those rectangles only (``board_canvas``
with ``clip``): every item that reaches them, in the usual order, so the pixels are the
very ones a whole drawing gives.  A view, size, overlay, table or theme change, or
more dirty pixels than ``DIRTY_FULL_FRACTION`` of the board, draws it whole.

Only the plain board is redrawn in part: with overlays, highlights or extra layers
(``under`` / ``over``, the teaching steps) it is drawn whole.  Work is counted (items,
rectangles), never timed.  Screen pixels, y down; the ``View`` maps inches to pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.render import board
from tabletop.render.theme import DEFAULT_THEME, Theme
from tabletop.render.view import View

__all__ = ["DIRTY_FULL_FRACTION", "DIRTY_RECTS_MAX", "Drawn", "base_items", "board_items", "redraw_board"]

DIRTY_RECTS_MAX = 8
"""Named default: at most this many separate rectangles are redrawn (each pass walks every
item to find those reaching it); more are merged into the one rectangle round them all."""

DIRTY_FULL_FRACTION = 0.5
"""Named default: when the dirty rectangles cover more than this share of the board, it is
drawn whole (clipping then saves little)."""

ITEM_PAD_PX = 6
"""Pixels round an item's own rectangle that count as its: anti-aliased edges, the thick
selected outline's round joints, the selected label's border."""

BADGE_PAD_PX = 14
"""Pixels round a wounded base: its wound badge sits at its lower right and may stand out
past a small base."""


@dataclass
class Drawn:
    """What a board image shows: the drawing's key (size, view, overlays, table, theme)
    and its items ``{key: (what decides its pixels, pixel rect)}``; ``passes`` counts the
    clipped passes the last redraw made (0: drawn whole), ``dirty`` their rectangles."""

    key: tuple
    items: dict[tuple, tuple[Any, pygame.Rect]]
    passes: int = 0
    dirty: list[pygame.Rect] = field(default_factory=list)
    placed: list | None = None      # the unit labels' placement (``Canvas.placed``)
    relabelled: int = 0             # labels placed afresh by the last redraw (the rest kept)
    geo: Any = None                 # the snapshot drawn
    regions: dict = field(default_factory=dict)   # board.Canvas.regions of the labels


def _key(surface, state: Battlefield, view: View, overlays, theme: Theme) -> tuple:
    return (surface.get_size(), view.scale, view.origin_x, view.origin_y, frozenset(overlays),
            id(theme), state.table, state.terrain, state.deployment, state.objectives,
            state.players, state.rules.objective_range)


def board_items(c: board.Canvas, selected: str | None) -> dict[tuple, tuple[Any, pygame.Rect]]:
    """Every item of a plain board drawing on canvas ``c`` (its labels placed:
    ``c.placed``), keyed ``("base", model id)``, ``("outline", unit id)``,
    ``("label", unit id)``, ``("ring", model id)``: ``(what decides its pixels, the
    pixels it may touch)``.  An outline's shape is compared by identity (the snapshot
    hands back the same object while its unit stays put)."""
    items = base_items(c)
    _unit_items(c, selected, items)
    return items


def base_items(c: board.Canvas) -> dict[tuple, tuple[Any, pygame.Rect]]:
    """``board_items``' bases only: ``{("base", model id): (what decides its pixels, the
    pixels it may touch)}``."""
    geo = c.geo
    colours = c.colours
    grey = (128, 128, 128)
    items: dict[tuple, tuple[Any, pygame.Rect]] = {}
    # (the rects of board.base_rect, worked out as arrays; a model's drawing is decided by
    # its position, facing, base, wounds lost and role: the Model itself, compared by
    # value, and by identity first when the table kept it)
    for mid, m, player, rect in zip(geo.ids, geo.models, geo.player_of, board.base_rects(c)):
        pad = 2 * BADGE_PAD_PX if m.wounds_lost else 2
        items[("base", mid)] = ((m, colours.get(player, grey)), rect.inflate(pad, pad))
    return items


def _unit_items(c: board.Canvas, selected: str | None, items: dict) -> None:
    """``board_items``' outlines, labels and ring, added to ``items``."""
    geo, v = c.geo, c.view
    for u in c.state.units:
        geom = geo.unit_outline(u.id)
        if geom is None or geom.is_empty:
            continue
        minx, miny, maxx, maxy = geom.bounds
        x0, y0 = v.to_screen(minx, maxy)
        x1, y1 = v.to_screen(maxx, miny)
        rect = pygame.Rect(int(x0), int(y0), int(x1 - x0) + 2, int(y1 - y0) + 2)
        col = c.colours.get(u.player, (128, 128, 128))
        items[("outline", u.id)] = ((_Same(geom), col, u.id == c.selected_unit),
                                    rect.inflate(2 * ITEM_PAD_PX, 2 * ITEM_PAD_PX))
    for u, _mids, lines, _anchor, rect, lead in c.placed:
        area = rect.inflate(2 * ITEM_PAD_PX, 2 * ITEM_PAD_PX)
        if lead is not None:
            sx, sy, end = lead
            line = pygame.Rect(int(min(sx, end[0])), int(min(sy, end[1])),
                               int(abs(end[0] - sx)) + 1, int(abs(end[1] - sy)) + 1)
            area = area.union(line.inflate(2 * ITEM_PAD_PX, 2 * ITEM_PAD_PX))
        col = c.colours.get(u.player, (128, 128, 128))
        items[("label", u.id)] = ((tuple(lines), tuple(rect), lead, col, u.id == c.selected_unit), area)
    if selected and selected in geo.ids:
        m = geo.model(selected)
        x, y = c.pt(m.x, m.y)
        r = c.px(m.base.radius) + 3 + 3 + ITEM_PAD_PX
        items[("ring", selected)] = ((m.x, m.y, m.base), pygame.Rect(int(x - r), int(y - r),
                                                                     int(2 * r) + 2, int(2 * r) + 2))


class _Same:
    """Compares equal only to a wrapper of the very same object (outline shapes)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

    __hash__ = None  # type: ignore[assignment]


def _merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Overlapping rectangles merged until none overlap; more than ``DIRTY_RECTS_MAX``
    left: the one rectangle round them all."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = r.copy()
        merged = True
        while merged:
            merged = False
            for k, o in enumerate(out):
                if o.colliderect(r):
                    r.union_ip(out.pop(k))
                    merged = True
                    break
        out.append(r)
    if len(out) > DIRTY_RECTS_MAX:
        return [out[0].unionall(out[1:])]
    return out


def redraw_board(surface: pygame.Surface, drawn: Drawn | None, state: Battlefield, geo: Geometry,
                 view: View, *, overlays=frozenset(), selected: str | None = None,
                 theme: Theme | None = None) -> Drawn:
    """Make ``surface`` show ``draw_board(surface, state, geo, view, overlays=...,
    selected=...)``, drawing again only what changed since ``drawn`` (what the surface
    shows now; None: unknown, drawn whole).  Returns the new ``Drawn``.

    Raises
    ------
    ValueError
        An unknown overlay name (as ``draw_board``).
    """
    theme = theme or DEFAULT_THEME
    key = _key(surface, state, view, overlays, theme)
    area = surface.get_rect()
    if drawn is None or drawn.key != key or board.resolve_overlays(overlays):
        c = board.board_canvas(surface, state, geo, view, overlays=overlays, selected=selected,
                               theme=theme)
        return Drawn(key, board_items(c, selected), placed=c.placed, relabelled=len(c.placed),
                     geo=geo, regions=c.regions)
    # the bases that changed, then the labels placed (nothing drawn: an empty clip) again
    # only where those changes reach (board.LabelsBefore), then compare item by item
    bases = base_items(board.make_canvas(surface, state, geo, view, theme))
    moved, units = [], set()
    for k in bases.keys() | {k for k in drawn.items if k[0] == "base"}:
        old, new = drawn.items.get(k), bases.get(k)
        if old is None or new is None or old[0] != new[0] or old[1] != new[1]:
            moved += [it[1] for it in (old, new) if it is not None]
            units.add(k[1].rsplit("/", 1)[0])
    prior = board.LabelsBefore(drawn.placed, moved, units, drawn.regions) \
        if drawn.placed is not None else None
    if prior is not None and not moved and drawn.geo is geo:
        # the same snapshot (so the same table) and no base changed: the labels stand
        lay = board.make_canvas(surface, state, geo, view, theme)
        lay.placed, lay.regions = drawn.placed, drawn.regions
        lay.selected_unit = selected.rsplit("/", 1)[0] if selected else None
    else:
        lay = board.board_canvas(surface, state, geo, view, selected=selected, theme=theme,
                                 clip=pygame.Rect(0, 0, 0, 0), prior=prior)
    items = bases
    _unit_items(lay, selected, items)
    kept = {id(q[4]) for q in drawn.placed or ()}
    fresh = sum(1 for p in lay.placed if id(p[4]) not in kept)
    dirty = []
    for k in drawn.items.keys() | items.keys():
        old, new = drawn.items.get(k), items.get(k)
        if old is not None and new is not None and old[0] == new[0] and old[1] == new[1]:
            continue
        for it in (old, new):
            if it is not None:
                r = it[1].clip(area)
                if r.w > 0 and r.h > 0:
                    dirty.append(r)
    rects = _merge(dirty)
    if sum(r.w * r.h for r in rects) > DIRTY_FULL_FRACTION * area.w * area.h:
        board.board_canvas(surface, state, geo, view, selected=selected, theme=theme,
                           labels=lay.placed)
        return Drawn(key, items, placed=lay.placed, relabelled=fresh, geo=geo, regions=lay.regions)
    for r in rects:
        board.board_canvas(surface, state, geo, view, selected=selected, theme=theme, clip=r,
                           labels=lay.placed)
    return Drawn(key, items, passes=len(rects), dirty=rects, placed=lay.placed, relabelled=fresh,
                 geo=geo, regions=lay.regions)
