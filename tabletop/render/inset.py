"""Small pictures that keep a viewer's bearings in a zoomed frame: a thumbnail of the
whole table with the zoom rectangle on it, and a scale bar.

The thumbnail is drawn simply (cloth, deployment zones, terrain, each model a
dot in its player's colour) so it reads at a few pixels per inch.  Table
coordinates are inches, origin bottom-left, y up; the thumbnail's own
``View`` does the flip.
"""

from __future__ import annotations

import pygame

from tabletop.board.state import Battlefield
from tabletop.render import prims
from tabletop.render.board import screen_points
from tabletop.render.theme import DEFAULT_THEME, Theme, shade
from tabletop.render.view import View

INSET_WIDTH_FRACTION = 0.2
"""Named default: the thumbnail's width as a share of the frame's width."""

INSET_MIN_WIDTH_PX = 180
"""Named default: the thumbnail is never narrower than this."""

SCALE_BAR_INCHES = (6, 3, 2, 1)
"""Named default: the scale bar shows the first of these lengths that fits its room."""


def inset_size(frame_w: int, table_w: float, table_d: float) -> tuple[int, int]:
    """Pixel size of the thumbnail of a ``table_w`` x ``table_d`` table in a frame
    ``frame_w`` pixels wide (plate included)."""
    w = max(INSET_MIN_WIDTH_PX, int(frame_w * INSET_WIDTH_FRACTION))
    return w, int((w - 12) * table_d / table_w) + 12


def draw_inset(surface: pygame.Surface, state: Battlefield, rect: pygame.Rect, box, *,
               theme: Theme | None = None, focus=None) -> pygame.Rect:
    """The whole table shrunk into ``rect`` (pixels) with the zoom rectangle ``box``
    (inches ``(x0, y0, x1, y1)``) outlined; returns the rectangle drawn on.

    ``focus`` is an optional list of model ids ringed on the thumbnail (the
    step's selected unit), so the eye finds them at once.
    """
    t = theme or DEFAULT_THEME
    plate = rect.inflate(0, 0)
    pygame.draw.rect(surface, shade(t.background, 0.8), plate, border_radius=5)
    pygame.draw.rect(surface, t.edge_label, plate, 1, border_radius=5)
    inner = plate.inflate(-12, -12)
    tw, td = state.table.width, state.table.depth
    view = View.fit(tw, td, inner.w, inner.h, margin_px=0, left_px=inner.x, top_px=inner.y)
    x0, y0 = view.to_screen(0, td)
    x1, y1 = view.to_screen(tw, 0)
    table = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
    clip = surface.get_clip()
    surface.set_clip(table.clip(clip) if clip else table)
    surface.fill(t.cloth, table)
    colours = t.player_colours(state)
    for z in state.deployment:
        col = colours.get(z.player, (128, 128, 128))
        prims.fill_polygon(surface, screen_points(view, z.polygon), (*col, t.zone_alpha + 20))
    for piece in state.terrain:
        st = t.terrain_style(piece.kind)
        pts = screen_points(view, piece.polygon)
        if len(pts) >= 3:
            pygame.draw.polygon(surface, st.fill, pts)
            pygame.draw.polygon(surface, st.outline, pts, 1)
    for o in state.objectives:
        prims.disc(surface, view.to_screen(*o.at), max(2.0, view.length(o.marker.radius)), t.objective_fill)
    r_dot = 1.6
    marked = set(focus or ())
    for u in state.units:
        col = colours.get(u.player, (128, 128, 128))
        for m in u.models:
            at = view.to_screen(m.x, m.y)
            r = max(r_dot, view.length(min(m.base.along, m.base.across) / 2))
            pygame.draw.circle(surface, col, at, r)
            if m.id in marked:
                pygame.draw.circle(surface, t.selected, at, r + 2, 1)
    surface.set_clip(clip)
    pygame.draw.rect(surface, t.table_edge, table, 1)
    if box is not None:
        bx0, by0 = view.to_screen(box[0], box[3])
        bx1, by1 = view.to_screen(box[2], box[1])
        zr = pygame.Rect(round(bx0), round(by0), max(3, round(bx1 - bx0)), max(3, round(by1 - by0)))
        pygame.draw.rect(surface, (20, 20, 20), zr.inflate(4, 4), 4)
        pygame.draw.rect(surface, t.selected, zr, 2)
    return plate


def scale_bar_size(view: View, room_px: int, theme: Theme | None = None) -> tuple[int, int]:
    """Pixel size of the plate ``draw_scale_bar`` draws for ``view`` in ``room_px``."""
    t = theme or DEFAULT_THEME
    n = next((k for k in SCALE_BAR_INCHES if k * view.scale <= room_px), 1)
    return int(n * view.scale) + prims.font(t.font_small).size(f'{n}"')[0] + 28, 30


def draw_scale_bar(surface: pygame.Surface, view: View, at: tuple[int, int], room_px: int, *,
                   theme: Theme | None = None) -> pygame.Rect:
    """A scale bar of whole inches on a plate whose bottom-left corner is ``at``,
    alternate inches filled, its length labelled; the longest of
    ``SCALE_BAR_INCHES`` that fits ``room_px``.  Returns the plate's rect."""
    t = theme or DEFAULT_THEME
    n = next((k for k in SCALE_BAR_INCHES if k * view.scale <= room_px), 1)
    w = n * view.scale
    label = f'{n}"'
    plate = pygame.Rect(at[0], at[1] - 30, *scale_bar_size(view, room_px, t))
    layer = pygame.Surface(plate.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (255, 255, 255, 215), layer.get_rect(), border_radius=5)
    surface.blit(layer, plate.topleft)
    x, y = plate.x + 10, plate.centery
    ink = (25, 25, 25)
    pygame.draw.rect(surface, ink, (x, y - 4, w, 8), 1)
    for k in range(n):
        if k % 2 == 0:
            pygame.draw.rect(surface, ink, (x + k * view.scale, y - 4, view.scale, 8))
    prims.text(surface, label, t.font_small, ink, (x + w + 8, y), "midleft")
    return plate
