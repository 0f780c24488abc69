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
- each unit label: its lines and its plate's place; its leader line is an item of its
  own (a new selection leaves it be).  Only the labels whose candidate places reach a
  base that changed (or a plate placed anew before them) are placed again (``board.LabelsBefore``); the others read nothing that changed, so
  they keep their place, the one a whole drawing gives;
- the selected model's ring.

Items that differ from ``drawn``'s (or appear, or go) mark their old and new pixels
dirty; the board is then drawn again inside those rectangles only (``board_canvas``
with ``clip``): every item that reaches them, in the usual order, so the pixels are the
very ones a whole drawing gives.  A view, size, overlay, table or theme change, or
more dirty pixels than ``DIRTY_FULL_FRACTION`` of the board, draws it whole.

A change whose labels move in a long chain may be spread over several calls (``work``,
``LABELS_PER_FRAME`` in the window): the image first shows the new bases and outlines
with the labels it had, then the labels once all are placed (``Drawn.pending`` between).

Only the plain board is redrawn in part: with overlays, highlights or extra layers
(``under`` / ``over``, the teaching steps) it is drawn whole.  Work is counted (items,
rectangles), never timed.  Screen pixels, y down; the ``View`` maps inches to pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.render import board
from tabletop.render.theme import DEFAULT_THEME, Theme
from tabletop.render.view import View

__all__ = ["DIRTY_FULL_FRACTION", "DIRTY_RECTS_MAX", "LABELS_PER_FRAME", "LEADER_PIECE_PX", "PASS_COST_PX",
           "PIXELS_PER_FRAME", "Drawing", "Drawn", "Pending", "base_items", "board_items", "leader_rects", "redraw_board"]

DIRTY_RECTS_MAX = 12
"""Named default: at most this many separate rectangles are redrawn (each pass walks every
item to find those reaching it, about 0.5 ms on a 1,000-model board); past it the two whose
union adds the fewest pixels are merged, again and again."""

LABELS_PER_FRAME = 3
"""Named default: unit labels the window places afresh in one frame after a change
(``redraw_board``'s ``work``); a drop whose labels move in a long chain (on a crowded
1,000-model table, up to some 70) spreads them over the next frames, each well under
33 ms, the old labels shown meanwhile (a label is 1-1.5 ms on this loaded machine: 3
leave the drop's own frame, which also measures the move, unions its unit's outline
and redraws the bases, room under 33 ms; a 30-label chain shows in 10 frames, a sixth
of a second).  Counted, never timed."""

PIXELS_PER_FRAME = 40_000
"""Named default: board pixels the window redraws in one frame after a change
(``redraw_board``'s ``pixels``; about 4 ms on an idle core, 1,000 models); a redraw
of more (a long chain of labels moved by a drop: some 90,000) is drawn aside over the
next frames and shown whole once done, the picture before shown meanwhile."""

PASS_COST_PX = 4000
"""Named default: the work of one more clipped pass (walking the items: about 0.5 ms on
this machine) in board pixels redrawn (a 1,000-model board of 1000 x 730 pixels redraws
in some 60 ms: about 0.08 microseconds a pixel): ``_merge`` makes two dirty rectangles
one when their bounding rectangle is no more than this bigger than the two."""

DIRTY_FULL_FRACTION = 0.5
"""Named default: when the dirty rectangles cover more than this share of the board, it is
drawn whole (clipping then saves little)."""

ITEM_PAD_PX = 6
"""Pixels round an item's own rectangle that count as its: anti-aliased edges, the thick
selected outline's round joints, the selected label's border."""

LEADER_PIECE_PX = 48
"""Pixels of a leader line each of its dirty rectangles covers (``leader_rects``)."""

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
    pending: Pending | None = None  # labels still being placed: the image shows the old ones
    bases: dict | None = None       # the base items alone (``base_items``), for the next redraw
    drawing: Drawing | None = None  # a redraw spread over calls (``pixels``): the image is
                                    # still the one described, the new one built aside


@dataclass
class Drawing:
    """A redraw spread over calls (``redraw_board``'s ``pixels``): the rectangles drawn on
    ``back``, a copy of the image, a share a call; once all are, ``back`` is copied onto
    the image and ``done`` describes it.  ``what``: the state, snapshot, view key and
    selection it is for (another drops it: the image never showed any of it)."""

    back: pygame.Surface
    rects: list[pygame.Rect]
    done: Drawn
    what: tuple
    labels: list


@dataclass
class Pending:
    """A label placement spread over several calls (``redraw_board``'s ``work``): the
    canvas it runs on, its steps (``board.label_steps``), and what changed since the
    labels the image shows were placed (``board.LabelsBefore``'s ``dirty`` and ``units``),
    so a newer change that abandons it still places again every label this one would."""

    canvas: board.Canvas
    job: Any
    dirty: list[pygame.Rect]
    units: set[str]


def _key(surface, state: Battlefield, view: View, overlays, theme: Theme) -> tuple:
    return (surface.get_size(), view.scale, view.origin_x, view.origin_y, frozenset(overlays),
            id(theme), state.table, state.terrain, state.deployment, state.objectives,
            state.players, state.rules.objective_range)


def board_items(c: board.Canvas, selected: str | None) -> dict[tuple, tuple[Any, pygame.Rect]]:
    """Every item of a plain board drawing on canvas ``c`` (its labels placed:
    ``c.placed``), keyed ``("base", model id)``, ``("outline", unit id)``,
    ``("label", unit id)`` (its plate), ``("leader", unit id)`` (the line from a plate
    placed away from its unit), ``("ring", model id)``: ``(what decides its pixels, the
    pixels it may touch)``.  An outline's shape is compared by identity (the snapshot
    hands back the same object while its unit stays put)."""
    items = base_items(c)
    _unit_items(c, selected, items)
    return items


def base_items(c: board.Canvas, before: dict | None = None,
               before_geo: Geometry | None = None,
               all_bases: bool = False) -> dict[tuple, tuple[Any, pygame.Rect]]:
    """``board_items``' bases only: ``{("base", model id): (what decides its pixels, the
    pixels it may touch)}``.  ``before``: the items of ``before_geo`` drawn at the same
    view and colours (``all_bases``: its base items alone, ``Drawn.bases``); a model that
    is the very same object there keeps its item."""
    geo = c.geo
    colours = c.colours
    grey = (128, 128, 128)
    if before is not None and before_geo is not None and list(before_geo.ids) == list(geo.ids):
        items = dict(before) if all_bases else {k: v for k, v in before.items() if k[0] == "base"}
        changed = [i for i, (a, b) in enumerate(zip(geo.models, before_geo.models)) if a is not b]
        if changed:
            rects = board.base_rects(c)
            for i in changed:
                m = geo.models[i]
                pad = 2 * BADGE_PAD_PX if m.wounds_lost else 2
                items[("base", geo.ids[i])] = ((m, colours.get(geo.player_of[i], grey)),
                                               rects[i].inflate(pad, pad))
        return items
    items: dict[tuple, tuple[Any, pygame.Rect]] = {}
    # (the rects of board.base_rect, worked out as arrays; a model's drawing is decided by
    # its position, facing, base, wounds lost and role: the Model itself, compared by
    # value, and by identity first when the table kept it)
    for mid, m, player, rect in zip(geo.ids, geo.models, geo.player_of, board.base_rects(c)):
        pad = 2 * BADGE_PAD_PX if m.wounds_lost else 2
        items[("base", mid)] = ((m, colours.get(player, grey)), rect.inflate(pad, pad))
    return items


def _unit_items(c: board.Canvas, selected: str | None, items: dict, before: dict | None = None,
                changed: set[str] | None = None) -> None:
    """``board_items``' outlines, labels and ring, added to ``items``.  ``before``: the
    items drawn at the same view; a unit not in ``changed`` (its models all as they were)
    keeps its outline's item."""
    geo, v = c.geo, c.view
    for u in c.state.units:
        if before is not None and changed is not None and u.id not in changed:
            old = before.get(("outline", u.id))
            if old is not None:
                sel = u.id == c.selected_unit
                items[("outline", u.id)] = old if old[0][2] == sel else ((old[0][0], old[0][1], sel), old[1])
                continue
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
        col = c.colours.get(u.player, (128, 128, 128))
        items[("label", u.id)] = ((tuple(lines), tuple(rect), col, u.id == c.selected_unit),
                                  rect.inflate(2 * ITEM_PAD_PX, 2 * ITEM_PAD_PX))
        if lead is not None:
            # the leader line is an item of its own: it does not change with the selection,
            # and its bounding box (long and slanted: much of it empty) is dirty only when
            # the line itself moves
            items[("leader", u.id)] = ((lead, col), leader_rects(lead))
    if selected and selected in geo.ids:
        m = geo.model(selected)
        x, y = c.pt(m.x, m.y)
        r = c.px(m.base.radius) + 3 + 3 + ITEM_PAD_PX
        items[("ring", selected)] = ((m.x, m.y, m.base), pygame.Rect(int(x - r), int(y - r),
                                                                     int(2 * r) + 2, int(2 * r) + 2))


def leader_rects(lead) -> tuple[pygame.Rect, ...]:
    """The pixels a label's leader line ``(sx, sy, end)`` may touch (its white casing and
    the dot at its end), as rectangles along it of about ``LEADER_PIECE_PX`` each: a
    slanted line's one bounding box is mostly empty board whose bases a redraw would
    draw again for nothing."""
    sx, sy, end = lead
    ex, ey = end
    n = max(1, math.ceil(math.hypot(ex - sx, ey - sy) / LEADER_PIECE_PX))
    out = []
    for k in range(n):
        ax, ay = sx + (ex - sx) * k / n, sy + (ey - sy) * k / n
        bx, by = sx + (ex - sx) * (k + 1) / n, sy + (ey - sy) * (k + 1) / n
        piece = pygame.Rect(int(min(ax, bx)), int(min(ay, by)),
                            int(abs(bx - ax)) + 2, int(abs(by - ay)) + 2)
        out.append(piece.inflate(2 * ITEM_PAD_PX, 2 * ITEM_PAD_PX))
    return tuple(out)


class _Same:
    """Compares equal only to a wrapper of the very same object (outline shapes)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

    __hash__ = None  # type: ignore[assignment]


def _merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """The rectangles to redraw: two are made one while their bounding rectangle costs
    less than drawing both (its area against theirs and one more pass,
    ``PASS_COST_PX``), the cheapest first, and then while more than ``DIRTY_RECTS_MAX``
    are left.  Rectangles may overlap: each pass draws everything in its own, so the
    pixels come out the same."""
    out = [r for r in rects if r.w > 0 and r.h > 0]
    if len(out) < 2:
        return [r.copy() for r in out]
    box = np.array([(r.left, r.top, r.right, r.bottom) for r in out], dtype=np.int64)
    big = np.iinfo(np.int64).max

    def extra_to(b: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Pixels the bounding rectangle of ``b`` and each of ``boxes`` adds to their areas."""
        w = np.maximum(b[2], boxes[:, 2]) - np.minimum(b[0], boxes[:, 0])
        h = np.maximum(b[3], boxes[:, 3]) - np.minimum(b[1], boxes[:, 1])
        return w * h - (b[2] - b[0]) * (b[3] - b[1]) - \
            (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])

    n = len(box)
    w = np.maximum(box[:, None, 2], box[None, :, 2]) - np.minimum(box[:, None, 0], box[None, :, 0])
    h = np.maximum(box[:, None, 3], box[None, :, 3]) - np.minimum(box[:, None, 1], box[None, :, 1])
    area = (box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])
    extra = w * h - area[:, None] - area[None, :]
    np.fill_diagonal(extra, big)
    live = np.ones(n, dtype=bool)
    while live.sum() > 1:
        a, b = divmod(int(np.argmin(extra)), n)
        if extra[a, b] > PASS_COST_PX and live.sum() <= DIRTY_RECTS_MAX:
            break
        # the union takes slot a; slot b is emptied (its row and column never the least)
        box[a] = (min(box[a, 0], box[b, 0]), min(box[a, 1], box[b, 1]),
                  max(box[a, 2], box[b, 2]), max(box[a, 3], box[b, 3]))
        live[b] = False
        row = np.where(live, extra_to(box[a], box), big)
        row[a] = big
        extra[b, :] = big
        extra[:, b] = big
        extra[a, :] = row
        extra[:, a] = row
    return [pygame.Rect(int(x0), int(y0), int(x1 - x0), int(y1 - y0))
            for x0, y0, x1, y1 in box[live].tolist()]


def _run(job, work: int | None) -> bool:
    """Run up to ``work`` steps of ``job`` (None: all); whether it finished."""
    k = 0
    while work is None or k < work:
        try:
            next(job)
        except StopIteration:
            return True
        k += 1
    return False


def redraw_board(surface: pygame.Surface, drawn: Drawn | None, state: Battlefield, geo: Geometry,
                 view: View, *, overlays=frozenset(), selected: str | None = None,
                 theme: Theme | None = None, work: int | None = None,
                 pixels: int | None = None) -> Drawn:
    """Make ``surface`` show ``draw_board(surface, state, geo, view, overlays=...,
    selected=...)``, drawing again only what changed since ``drawn`` (what the surface
    shows now; None: unknown, drawn whole).  Returns the new ``Drawn``.

    ``pixels``: at most about this many pixels redrawn in this call (None: no limit;
    the first rectangle is always drawn); a bigger redraw is done on a copy of the image
    over the next calls (``Drawn.drawing``), the image left as it was until the copy is
    whole, then the copy put on it.  A call for another state, snapshot, view or
    selection drops the copy.

    ``work``: at most this many unit labels placed afresh in this call (None: no
    limit).  When a change needs more, the image is brought up to date with the labels
    it showed (bases, outlines and ring new) and the returned ``Drawn.pending`` holds the
    placement so far; each later call with the same state, snapshot and view places up
    to ``work`` more, and the one that finishes draws the labels that moved, so the
    image ends as a whole drawing of it.  A call for another state or snapshot drops
    the pending placement and places again what it and the new change reach.

    Raises
    ------
    ValueError
        An unknown overlay name (as ``draw_board``).
    """
    theme = theme or DEFAULT_THEME
    key = _key(surface, state, view, overlays, theme)
    area = surface.get_rect()
    if drawn is not None and drawn.drawing is not None:
        if drawn.drawing.what[0] == key and drawn.drawing.what[1] is state \
                and drawn.drawing.what[2] is geo and drawn.drawing.what[3] == selected \
                and not board.resolve_overlays(overlays):
            return _go_on(surface, drawn, state, geo, view, selected, theme,
                          pixels if pixels is not None else area.w * area.h)
        drawn = replace(drawn, drawing=None)     # another change: what the image shows
    if drawn is None or drawn.key != key or board.resolve_overlays(overlays):
        c = board.board_canvas(surface, state, geo, view, overlays=overlays, selected=selected,
                               theme=theme)
        bases = base_items(c)
        items = dict(bases)
        _unit_items(c, selected, items)
        return Drawn(key, items, placed=c.placed, relabelled=len(c.placed), geo=geo,
                     regions=c.regions, bases=bases)
    pend = drawn.pending
    if pend is not None and drawn.geo is geo:
        # the placement under way goes on (the selection alone may have changed)
        lay, prior_dirty, units = pend.canvas, pend.dirty, pend.units
        bases = drawn.bases if drawn.bases is not None else \
            {k: v for k, v in drawn.items.items() if k[0] == "base"}
        changed: set[str] = set()     # the image's outlines are this snapshot's already
        lay.selected_unit = selected.rsplit("/", 1)[0] if selected else None
    else:
        # the bases that changed, then the labels placed (nothing drawn: an empty clip)
        # again only where those changes reach (board.LabelsBefore), then compare item by item
        if drawn.bases is not None:
            bases = base_items(board.make_canvas(surface, state, geo, view, theme), drawn.bases,
                               drawn.geo, all_bases=True)
        else:
            bases = base_items(board.make_canvas(surface, state, geo, view, theme), drawn.items,
                               drawn.geo)
        moved, units = [], set()
        gone = [k for k in (drawn.bases if drawn.bases is not None else drawn.items)
                if k[0] == "base" and k not in bases]
        for k in [k for k, new in bases.items() if drawn.items.get(k) is not new] + gone:
            old, new = drawn.items.get(k), bases.get(k)
            if old is None or new is None or old[0] != new[0] or old[1] != new[1]:
                moved += [it[1] for it in (old, new) if it is not None]
                units.add(k[1].rsplit("/", 1)[0])
        if pend is not None:        # an unfinished placement dropped: its changes count too
            moved, units = pend.dirty + moved, pend.units | units
        changed = set(units)
        prior_dirty = moved
        prior = board.LabelsBefore(drawn.placed, moved, units, drawn.regions) \
            if drawn.placed is not None else None
        if prior is not None and not moved and drawn.geo is geo:
            # the same snapshot (so the same table) and no base changed: the labels stand
            lay = board.make_canvas(surface, state, geo, view, theme)
            lay.placed, lay.regions = drawn.placed, drawn.regions
            lay.selected_unit = selected.rsplit("/", 1)[0] if selected else None
        else:
            lay = board.board_canvas(surface, state, geo, view, selected=selected, theme=theme,
                                     clip=pygame.Rect(0, 0, 0, 0), prior=prior,
                                     defer_labels=True)
    pending = None
    if lay.job is not None and not _run(lay.job, work if drawn.placed is not None else None):
        # not placed yet: the image shows the labels it did, the rest up to date
        pending = Pending(lay, lay.job, prior_dirty, units)
        shown = board.make_canvas(surface, state, geo, view, theme)
        shown.placed, shown.regions = drawn.placed, drawn.regions
        shown.selected_unit = lay.selected_unit
        lay = shown
    elif lay.job is not None:
        lay.job = None
    items = dict(bases)
    _unit_items(lay, selected, items, drawn.items, changed)
    kept = {id(q[4]) for q in drawn.placed or ()}
    fresh = sum(1 for p in lay.placed if id(p[4]) not in kept)
    dirty = []
    before = drawn.items
    changed_keys = [k for k, new in items.items() if before.get(k) is not new]
    changed_keys += [k for k in before if k not in items]
    for k in changed_keys:
        old, new = before.get(k), items.get(k)
        if old is not None and new is not None and old[0] == new[0] and old[1] == new[1]:
            continue
        for it in (old, new):
            if it is not None:
                for r in (it[1] if isinstance(it[1], tuple) else (it[1],)):
                    r = r.clip(area)
                    if r.w > 0 and r.h > 0:
                        dirty.append(r)
    rects = _merge(dirty)
    out = Drawn(key, items, passes=len(rects), dirty=rects, placed=lay.placed, relabelled=fresh,
                geo=geo, regions=lay.regions, pending=pending, bases=bases)
    if sum(r.w * r.h for r in rects) > DIRTY_FULL_FRACTION * area.w * area.h:
        board.board_canvas(surface, state, geo, view, selected=selected, theme=theme,
                           labels=lay.placed)
        out.passes, out.dirty = 0, []
        return out
    if pixels is not None and pending is None and sum(r.w * r.h for r in rects) > pixels:
        # more than a call's share: drawn aside over the next calls, the image as it is
        # meanwhile (described by ``drawn``, whose own pending placement, if any, has
        # finished: a newer change that drops this drawing places again what it placed)
        job = Drawing(surface.copy(), list(rects), out, (key, state, geo, selected), lay.placed)
        if pend is not None:
            return replace(drawn, drawing=job)  # this call placed labels: drawn from the next
        return _go_on(surface, replace(drawn, drawing=job), state, geo, view, selected, theme,
                      pixels)
    for r in rects:
        board.board_canvas(surface, state, geo, view, selected=selected, theme=theme, clip=r,
                           labels=lay.placed)
    return out


def _go_on(surface: pygame.Surface, drawn: Drawn, state: Battlefield, geo: Geometry, view: View,
           selected: str | None, theme: Theme, pixels: int) -> Drawn:
    """Draw ``drawn.drawing``'s next rectangles, ``pixels`` of them at least one; once
    all are drawn the image takes the new picture and its ``Drawn`` comes back, else
    ``drawn`` (the image unchanged) with the rest to do."""
    job = drawn.drawing
    assert job is not None
    spent = 0
    while job.rects and (spent == 0 or spent + job.rects[0].w * job.rects[0].h <= pixels):
        r = job.rects.pop(0)
        spent += r.w * r.h
        board.board_canvas(job.back, state, geo, view, selected=selected, theme=theme, clip=r,
                           labels=job.labels)
    if job.rects:
        return drawn
    surface.blit(job.back, (0, 0))
    return job.done
