"""TEMPORARY stand-in for ``tabletop.render.board`` until the render branch lands.

Draws the table and every base as a circle; no overlays.  Removed once
``tabletop.render.board`` exists.
"""

from __future__ import annotations

import pygame

OVERLAYS = ("contact", "engagement", "coherency", "overlaps")


def draw_board(surface, state, geo, view, *, overlays=frozenset(), selected=None, highlight=None,
               theme=None):
    surface.fill((40, 44, 40))
    x0, y0 = view.to_screen(0, state.table.depth)
    pygame.draw.rect(surface, (92, 110, 80), pygame.Rect(x0, y0, view.length(state.table.width),
                                                         view.length(state.table.depth)))
    hl = set(highlight or ())
    for m in state.models():
        c = (176, 58, 46) if m.unit_id == state.units[0].id else (40, 90, 160)
        r = max(1, int(view.length(m.base.radius)))
        pygame.draw.circle(surface, c, view.to_screen_int(m.x, m.y), r)
        if m.id == selected or m.id in hl:
            pygame.draw.circle(surface, (255, 230, 80), view.to_screen_int(m.x, m.y), r, 2)


def draw_legend(surface, state, view, rect):
    pygame.draw.rect(surface, (30, 30, 30), rect)


def draw_step(surface, step, view, *, geo=None, theme=None, events=None):
    draw_board(surface, step.state, geo, view)
