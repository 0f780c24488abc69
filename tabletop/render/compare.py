"""The picture of a measured table against its published layout (``tabletop compare -o``),
and the terrain gaps drawn on a check picture (``tabletop check -o``).

The measured table is drawn as ``render`` draws a map; over it the published layout is
ghosted (a pale wash and a dashed outline for each piece, a hatched tall part, a dashed
marker and zone edge), and each item that is off is labelled with what is off: an arrow from
where the layout puts it to where it stands when it moved or turned beyond the tolerance, the
published edge drawn and an arrow to the measured one when an edge stands out, else a ring
(``arrows_of``: a move within the tolerance gets no arrow).  Reads only the states and the
comparison (``geometry/layout_compare.py``); no geometry of its own.  Inches, y up; the
``View`` owns the flip.
"""

from __future__ import annotations

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.layout_compare import EDGE_EXPLAINED, ItemDiff, LayoutDiff
from tabletop.geometry.terrain_report import Gap
from tabletop.render import prims
from tabletop.render.board import board_canvas
from tabletop.render.image import _frame
from tabletop.render.options import DEFAULT_SCALE
from tabletop.render.theme import DEFAULT_THEME

__all__ = ["render_compare", "render_gaps", "arrows_of", "GHOST", "OFF", "MISSING", "GAP", "GAPS_DRAWN"]

GHOST = (40, 70, 160)       # the published layout
OFF = (200, 40, 30)         # an arrow on an item that is off
MISSING = (150, 30, 120)    # a published item not on the table / an extra one
GAP = (20, 120, 130)        # a narrow gap and its width
GAPS_DRAWN = 8
"""Named default: the narrowest gaps drawn on the check picture (as many as its text lists)."""

KEY_PX = 64
KEY_TEXT = (225, 228, 232)    # the key strip's text, on the theme's dark background


def _key(surface: pygame.Surface, top: int, lines: list[tuple[str, tuple]]) -> None:
    y = top + 8
    for text, colour in lines:
        prims.text(surface, text, 16, colour, (MARGIN_LEFT, y))
        y += 20


MARGIN_LEFT = 40
ID_PX = (44, 22)        # the box kept clear round an item's id at its centre
LABEL_RINGS = 8         # how far out (rings of places) a label looks for a free place
MIN_ARROW_PX = 24
"""Named default: an arrow shorter than this (pixels) is drawn this long in its direction
so it shows (a 0.6" move is 12 px at the default scale); its label gives the true offset."""


def place(c, anchor: tuple[float, float], size: tuple[int, int], gap: int = 10) -> pygame.Rect:
    """Where a label of ``size`` px goes near ``anchor``: right, left, below, above, then
    the corners, then the same further out ring by ring, the first place that overlaps no
    label already placed (``c.taken``) and stays on the picture; when every place up to
    ``LABEL_RINGS`` rings out overlaps, the one overlapping least.  The rect is marked taken."""
    w, h = size
    bounds = c.surface.get_rect().inflate(-8, -8)
    ax, ay = round(anchor[0]), round(anchor[1])
    best, best_cover = None, None
    for ring in range(LABEL_RINGS):
        g = gap + ring * (h + 4)
        gx = gap + ring * (w // 2 + 4)
        for x, y in ((ax + gx, ay - h // 2), (ax - gx - w, ay - h // 2),
                     (ax - w // 2, ay + g), (ax - w // 2, ay - g - h),
                     (ax + gx, ay + g), (ax - gx - w, ay - g - h),
                     (ax + gx, ay - g - h), (ax - gx - w, ay + g)):
            r = pygame.Rect(x, y, w, h)
            if not bounds.contains(r):
                continue
            cover = sum(r.clip(o).w * r.clip(o).h for o in c.taken if r.colliderect(o))
            if cover == 0:
                c.taken.append(r)
                return r
            if best_cover is None or cover < best_cover:
                best, best_cover = r, cover
    r = best or pygame.Rect(max(4, ax - w // 2), max(4, ay - h // 2), w, h)
    c.taken.append(r)
    return r


def _ghost(c, published: Battlefield, diff: LayoutDiff) -> None:
    missing = {(m.sort, m.id) for m in diff.missing}
    for t in published.terrain:
        col = MISSING if ("terrain", t.id) in missing else GHOST
        pts = c.pts(t.polygon)
        prims.fill_polygon(c.surface, pts, (*col, 45))
        if t.tall_part:
            prims.pattern_polygon(c.surface, c.pts(t.tall_part), "hatch", (*col, 160), spacing=7.0)
        prims.dashed_polyline(c.surface, pts, col, 2, 9, 5, closed=True)
    for m in diff.missing:          # a missing zone: its whole outline, dashed, with a wash
        if m.sort == "deployment":
            pts = c.pts(list(m.outline.exterior.coords)[:-1])
            prims.fill_polygon(c.surface, pts, (*MISSING, 35))
            prims.dashed_polyline(c.surface, pts, MISSING, 3, 12, 6, closed=True)
    for z in published.deployment:
        prims.dashed_polyline(c.surface, c.pts(z.polygon), GHOST, 1, 6, 6, closed=True)
    for o in published.objectives:
        col = MISSING if ("objective", o.id) in missing else GHOST
        prims.dashed_circle(c.surface, c.pt(*o.at), c.px(o.marker.radius), col, 2, 6)


def arrows_of(d: ItemDiff, diff: LayoutDiff
              ) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """The arrows drawn on an item (inches, published -> measured), each ``(sort, from,
    to)``: "move" when it moved or turned beyond the tolerance or its walls are turned (its
    ``arrow``), "edge" when an edge stands out beyond the tolerance by more than the move
    (``edge_arrow``, from the published edge to the measured one).  An item in place, or
    off for another reason (kind, walls' length) with a move within the tolerance, gets no
    arrow: a 0.01" move is not drawn as one."""
    if d.ok:
        return []
    out = []
    if (d.offset > diff.tolerance or abs(d.turn_deg) > diff.turn_tolerance
            or d.walls == "turned"):
        out.append(("move", d.arrow[0], d.arrow[1]))
    if (d.edge_arrow is not None and d.edge_offset > diff.tolerance
            and d.edge_offset > d.offset + EDGE_EXPLAINED):
        out.append(("edge", d.edge_arrow[0], d.edge_arrow[1]))
    return out


def _off(c, diff: LayoutDiff) -> None:
    # the measured pieces' ids (drawn at their centres) are kept clear of labels
    for d in diff.items:
        x, y = c.pt(*d.measured_centre)
        c.taken.append(pygame.Rect(round(x) - ID_PX[0] // 2, round(y) - ID_PX[1] // 2, *ID_PX))
    arrows = []
    for d in diff.off:
        drawn = arrows_of(d, diff)
        for sort, a_in, b_in in drawn:
            a, b = c.pt(*a_in), c.pt(*b_in)
            if sort == "edge" and d.edge_line is not None:    # the published edge, ghosted
                prims.dashed_polyline(c.surface, c.pts(list(d.edge_line)), GHOST, 4, 10, 5)
            length = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
            if 0 < length < MIN_ARROW_PX:   # too short to see: drawn longer, same direction
                k = MIN_ARROW_PX / length
                b = (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
            arrows.append((d, a, b, length))
            # the arrow itself is kept clear of labels
            c.taken.append(pygame.Rect(min(a[0], b[0]) - 3, min(a[1], b[1]) - 3,
                                       abs(a[0] - b[0]) + 6, abs(a[1] - b[1]) + 6))
        if not drawn:                       # off, not moved: a ring where it stands
            at = c.pt(*d.measured_centre)
            arrows.append((d, at, at, 0.0))
    for _, a, b, length in arrows:
        prims.disc(c.surface, a, 4, OFF)
        if length < 1:
            prims.ring(c.surface, b, 10, OFF, 3)
        else:
            prims.arrow(c.surface, [a, b], OFF, 3, 12)
    labelled: set[int] = set()
    for d, _a, b, _length in arrows:
        if id(d) in labelled:               # one label an item, at its first arrow
            continue
        labelled.add(id(d))
        label = [(f"{d.sort} {d.id}" + ("" if d.id == d.published_id
                                        else f" (published {d.published_id})"), 15)]
        label += [(why, 14) for why in d.off]
        rect = place(c, b, prims.text_size(label))
        prims.text_plate(c.surface, label, rect.topleft, OFF, plate=(255, 255, 255, 230),
                         border=OFF)
    for e in diff.extra:
        text = [(f"extra {e.sort} {e.id}", 14)]
        rect = place(c, c.pt(*e.centre), prims.text_size(text), gap=6)
        prims.text_plate(c.surface, text, rect.topleft, MISSING, border=MISSING)
    for m in diff.missing:
        text = [(f"missing {m.sort} {m.id}", 14)]
        rect = place(c, c.pt(*m.centre), prims.text_size(text), gap=6)
        prims.text_plate(c.surface, text, rect.topleft, MISSING, border=MISSING)


def _footer_colour(diff: LayoutDiff) -> tuple[int, int, int]:
    """Red when anything is off, missing or extra (or the table's size differs)."""
    return (255, 120, 100) if not diff.in_place else KEY_TEXT


def render_compare(published: Battlefield, measured: Battlefield, diff: LayoutDiff, *,
                   scale: float = DEFAULT_SCALE) -> pygame.Surface:
    """The measured table with the published layout ghosted over its terrain and an arrow
    (published -> measured) on each item that is off, with a key strip below.

    ``diff`` is ``compare_layouts(measured, published)``; ``scale`` pixels per inch."""
    geo = snapshot(measured)
    w, h, view = _frame(measured, scale, geo)
    surface = pygame.Surface((w, h + KEY_PX))
    surface.fill(DEFAULT_THEME.background)
    board_canvas(pygame.Surface.subsurface(surface, pygame.Rect(0, 0, w, h)), measured, geo, view,
                 over=lambda c: (_ghost(c, published, diff), _off(c, diff)))
    n = len(diff.off)
    _key(surface, h - 12, [
        (f"Measured: {measured.name}.  Published layout ({published.name}) dashed, in blue; "
         f"its walls hatched.", KEY_TEXT),
        (f"{n} item{'s' if n != 1 else ''} off (red arrows, published -> measured; "
         f"tolerance {diff.tolerance:g}\", {diff.turn_tolerance:g} deg), "
         f"{len(diff.missing)} missing, {len(diff.extra)} extra"
         + (f"; {diff.table_text}" if diff.table_text else "") + ".", _footer_colour(diff)),
    ])
    return surface


def draw_gaps(c, gaps: list[Gap], shown: int = GAPS_DRAWN) -> None:
    """The ``shown`` narrowest gaps: a line across each at its narrowest and its width,
    with the largest round base that passes."""
    drawn = [g for g in gaps[:shown] if g.ends is not None]
    ends = [(c.pt(*g.ends[0]), c.pt(*g.ends[1])) for g in drawn]
    for a, b in ends:                   # every line first, so no line crosses a label
        pygame.draw.line(c.surface, (255, 255, 255), a, b, 6)
        pygame.draw.line(c.surface, GAP, a, b, 3)
        for p in (a, b):
            prims.disc(c.surface, p, 4, GAP)
        c.taken.append(pygame.Rect(min(a[0], b[0]) - 3, min(a[1], b[1]) - 3,
                                   abs(a[0] - b[0]) + 6, abs(a[1] - b[1]) + 6))
    for g, (a, b) in zip(drawn, ends):
        rounds = [n for n in g.bases if "oval" not in n]
        text = f"{g.width:.{g.digits}f}\" " + (f"<= {rounds[-1]}" if rounds else "no base")
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        rect = place(c, mid, prims.text_size([(text, 14)]), gap=6)
        prims.text_plate(c.surface, [(text, 14)], rect.topleft, GAP, border=GAP)


def render_gaps(state: Battlefield, gaps: list[Gap], *, scale: float = DEFAULT_SCALE,
                diff: LayoutDiff | None = None, published: Battlefield | None = None
                ) -> pygame.Surface:
    """The check picture: the map with its narrowest terrain gaps drawn and labelled
    (and, given ``diff`` and ``published``, the layout comparison as ``render_compare``)."""
    geo = snapshot(state)
    w, h, view = _frame(state, scale, geo)
    surface = pygame.Surface((w, h + KEY_PX))
    surface.fill(DEFAULT_THEME.background)

    def over(c) -> None:
        if diff is not None and published is not None:
            _ghost(c, published, diff)
            _off(c, diff)
        draw_gaps(c, gaps)

    board_canvas(pygame.Surface.subsurface(surface, pygame.Rect(0, 0, w, h)), state, geo, view,
                 over=over)
    lines = [(f"{state.name}: the {min(len(gaps), GAPS_DRAWN)} narrowest terrain gaps (teal), "
              f"width and the largest round base that passes.", KEY_TEXT)]
    if diff is not None:
        lines.append((f"Published layout dashed in blue; {len(diff.off)} off (red arrows), "
                      f"{len(diff.missing)} missing, {len(diff.extra)} extra.",
                      _footer_colour(diff)))
    _key(surface, h - 12, lines)
    return surface
