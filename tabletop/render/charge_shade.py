"""The table shaded by charge odds, drawn under the models (issue 10 item 1, last bullet).

Draw order: terrain -> the shading -> bases -> unit name plates -> the odds marks.  The
shading goes in through the board drawing's ``under`` layer (``render.board.board_canvas``:
after the terrain and the unit outlines, before the bases), so it tints the table and the
terrain but never a base or a name plate; the marks (each enemy unit's odds) are drawn
over everything.

``shade_layer`` makes the shading as one RGBA pixel a grid cell, scaled onto the table's
place (the colours of ``render.charge_plan.odds_colour``); ``draw_shaded_board`` draws a
whole board with it; ``draw_odds_marks`` the marks; ``save_shade_png`` the picture of
``tabletop charge MAP UNIT --shade -o ODDS.png``.

Screen pixels, y down; the ``View`` maps table inches (origin bottom-left, y up) to them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot
from tabletop.render import prims
from tabletop.render.board import board_canvas
from tabletop.render.charge_plan import (
    CHART_W,
    INK,
    base_rects,
    odds_colour,
    percent,
    place_tag,
    tag_placer,
)
from tabletop.render.image import _frame, render_image, save_png
from tabletop.render.label_place import LabelPlacer
from tabletop.render.options import DEFAULT_SCALE
from tabletop.render.theme import Theme
from tabletop.render.view import View

__all__ = ["SHADE_ALPHA", "MARK_INK", "MARK_HALO", "MARK_ABOVE_IN", "MARK_FONT_PX", "shade_layer", "draw_shaded_board",
           "draw_odds_marks", "mark_line", "save_shade_png"]

#: opacity of the shading (0..255): the terrain under it still reads
SHADE_ALPHA = 120
MARK_INK = (25, 25, 30)
MARK_HALO = (255, 255, 255)
#: how far (inches) above a unit's highest model centre its odds mark stood before the
#: marks were placed with the shared ``LabelPlacer`` (kept for callers that read it)
MARK_ABOVE_IN = 1.2
#: the odds marks' type size (pixels)
MARK_FONT_PX = 16


def shade_layer(view: View, xs, ys, probs, step: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """The shading of the grid ``xs`` x ``ys`` (cell centres, inches, evenly spaced by
    ``step`` inches) by ``probs`` (a (len(ys), len(xs)) array of chances): red (unlikely)
    to green (certain), ``SHADE_ALPHA`` opaque, clear where the chance is 0 or not known
    (``nan``).  One pixel a cell (the chances take a dozen values at most: one colour
    each, looked up, not worked out per cell), scaled onto the cells' place.

    Returns (an RGBA Surface, its top-left pixel), or None for an empty grid or a view too
    small to show it.
    """
    p = np.asarray(probs, dtype=float)
    ny, nx = p.shape if p.ndim == 2 else (0, 0)
    if nx == 0 or ny == 0:
        return None
    rgba = np.zeros((ny, nx, 4), dtype=np.uint8)
    shown = np.nan_to_num(p, nan=0.0) > 0
    values, which = np.unique(p[shown], return_inverse=True)
    colours = np.asarray([odds_colour(float(v), SHADE_ALPHA) for v in values], dtype=np.uint8)
    if len(values):
        rgba[shown] = colours[which.ravel()]
    rgba = np.ascontiguousarray(rgba[::-1])        # y up: the last grid row is the top pixel row
    cells = pygame.image.frombuffer(rgba.tobytes(), (nx, ny), "RGBA").copy()
    half = step / 2.0
    x0, y0 = view.to_screen(float(xs[0]) - half, float(ys[-1]) + half)
    x1, y1 = view.to_screen(float(xs[-1]) + half, float(ys[0]) - half)
    w, h = round(x1 - x0), round(y1 - y0)
    if w <= 0 or h <= 0:
        return None
    return pygame.transform.scale(cells, (w, h)), (round(x0), round(y0))


def draw_shaded_board(surface: pygame.Surface, state: Battlefield, geo: Geometry, view: View,
                      layer: tuple[pygame.Surface, tuple[int, int]] | None, *,
                      overlays: Iterable[str] = frozenset(), selected: str | None = None,
                      theme: Theme | None = None) -> list[pygame.Rect]:
    """The whole board (``render.board.board_canvas``, as the window draws it) with
    ``layer`` (``shade_layer``'s answer; None: no shading) drawn under the bases and the
    unit name plates.

    The plates are translucent (``Theme.label_plate``), so the shading is also left out
    of the place each plate covers (placed first, with the same placement the drawing
    then uses): a plate reads exactly as on the board without shading.  Returns the
    plates' rects (pixels), for the marks to keep clear of.  Raises ValueError for an
    unknown overlay name."""
    placed = board_canvas(surface, state, geo, view, overlays=overlays, selected=selected,
                          theme=theme, clip=pygame.Rect(0, 0, 0, 0)).placed or []
    if layer is not None and placed:
        img, (x0, y0) = layer
        img = img.copy()
        for p in placed:
            img.fill((0, 0, 0, 0), p[4].move(-x0, -y0))
        layer = img, (x0, y0)

    def under(c) -> None:
        if layer is not None:
            c.surface.blit(*layer)
    board_canvas(surface, state, geo, view, overlays=overlays, selected=selected, theme=theme,
                 under=under, labels=placed)
    return [p[4] for p in placed]


def draw_odds_marks(surface: pygame.Surface, view: View, geo: Geometry,
                    marks: Iterable[dict[str, Any]], skip: Iterable[str] = (), *,
                    placer: LabelPlacer | None = None, state: Battlefield | None = None
                    ) -> list[pygame.Rect]:
    """Each unit of ``marks`` ({id, probability}) labelled "<id> <odds>" (over everything),
    placed with the shared ``LabelPlacer`` round the unit (``render.charge_plan.place_tag``:
    clear of every base, the name plates and panels blocked in ``placer`` and the marks
    before it, a leader line when it stands away); ``skip`` names units left unmarked.
    Without ``placer`` one is made over ``surface`` (``tag_placer``: the bases of ``geo``,
    within ``state``'s table when given, else the whole surface).  Returns the marks'
    rects (pixels)."""
    left_out = set(skip)
    if placer is None:
        bounds = None if state is not None else surface.get_rect()
        placer = (tag_placer(surface, view, state, geo) if state is not None
                  else LabelPlacer(bounds, base_rects(view, geo)))
    out = []
    for mk in marks:
        if mk["id"] in left_out:
            continue
        words = f"{mk['id']} {percent(mk['probability'])}"
        w, h = prims.font(MARK_FONT_PX).size(words)
        at = place_tag(surface, placer, view, geo, mk["id"], (w + 2, h + 2), "odds")
        prims.outlined_text(surface, words, MARK_FONT_PX, MARK_INK, MARK_HALO, at.center)
        out.append(at)
    return out


def mark_line(mk: dict[str, Any]) -> str:
    """The shade panel's line for one marked unit: "<id>: needs 2: 100%" (the roll in words,
    a colon, then the odds)."""
    return f"{mk['id']}: {_needs_words(mk)}: {percent(mk['probability'])}"


def _needs_words(row: dict[str, Any]) -> str:
    return row.get("needs_text") or (f"needs {row['needed']}" if row.get("needed") is not None
                                     else "out of reach")


def save_shade_png(state: Battlefield, unit_id: str, xs, ys, probs, step: float,
                   marks: list[dict[str, Any]], path: str, scale: float = DEFAULT_SCALE, *,
                   force: bool = False) -> str:
    """The table shaded by the odds of a charge by ``unit_id`` ending at each cell of the
    grid ``xs`` x ``ys`` (inches, ``step`` apart; ``probs`` (len(ys), len(xs)) chances),
    drawn under the bases and name plates, each unit of ``marks`` ({id, probability,
    needed, needs_text}) labelled with its odds, and a key beside it; PNG at ``path``.

    Raises OutputExistsError (``path`` exists without ``force``) or OSError, as
    ``render.image.save_png``.
    """
    geo = snapshot(state)
    picture = render_image(state, geo=geo, scale=scale, selected=unit_id)
    w, board_h, view = _frame(state, scale, geo)
    board = picture.subsurface(pygame.Rect(0, 0, w, board_h))
    plates = draw_shaded_board(board, state, geo, view, shade_layer(view, xs, ys, probs, step),
                               selected=unit_id)
    draw_odds_marks(picture, view, geo, marks,
                    placer=tag_placer(board, view, state, geo, [p.inflate(8, 8) for p in plates]))
    pw, ph = picture.get_size()
    out = pygame.Surface((pw + CHART_W, max(ph, 420)))
    out.fill((255, 255, 255))
    out.blit(picture, (0, 0))
    rect = pygame.Rect(pw + 4, 40, CHART_W - 12, max(ph, 420) - 80)   # as charge_plan's panel
    pygame.draw.rect(out, (246, 244, 238), rect)
    x, y = rect.x + 8, rect.y + 8
    for line in [f"Charge odds for {unit_id}", "a charge ending here is made with", "the chance shown:"]:
        prims.text(out, line, 14, INK, (x, y))
        y += 18
    for p in (1.0, 0.75, 0.5, 0.25, 0.03):
        pygame.draw.rect(out, odds_colour(p, 255)[:3], (x, y + 4, 30, 14))
        prims.text(out, percent(p), 13, INK, (x + 38, y + 3))
        y += 20
    y += 8
    for mk in marks:
        prims.text(out, mark_line(mk), 13, INK, (x, y))
        y += 17
    return save_png(out, path, force=force, keep=(state.path,) if state.path else ())
