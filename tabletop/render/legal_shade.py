"""Drawing a model's legal region (``geometry.legal_region``) on a board surface.

Reads a ``Region`` and a ``View`` and changes nothing: the centres where the model
may end its pile-in or consolidation are filled lightly (``LEGAL_FILL``), the part
where it also ends engaged with its closest target (objective mode: within range)
more strongly (``ENGAGED_FILL``), each outlined; its start is marked.  A model
that cannot move (in base contact with an enemy) gets a ring round its spot.
The renderer flips y through the view (table inches, origin bottom-left, y up).

Named defaults (render/theme.py style: (r, g, b, alpha)):

``LEGAL_FILL = (120, 200, 255, 70)``  light sky blue: may end here.
``ENGAGED_FILL = (40, 150, 255, 150)``  stronger blue: ends engaged here, as the clause prefers.
"""

from __future__ import annotations

import pygame

from tabletop.geometry.legal_region import Region
from tabletop.render import prims
from tabletop.render.view import View

__all__ = ["draw_legal_region", "LEGAL_FILL", "ENGAGED_FILL"]

LEGAL_FILL = (120, 200, 255, 70)
ENGAGED_FILL = (40, 150, 255, 150)
LEGAL_EDGE = (150, 215, 255)
ENGAGED_EDGE = (30, 110, 230)
START_MARK = (240, 240, 240)
FIXED_RING_PX = 6


def draw_legal_region(surface: pygame.Surface, region: Region, view: View) -> None:
    """Shade ``region`` on ``surface`` (board pixels from ``view``): light where the
    model may end, strong where it also ends engaged, and its start marked.

    Parameters
    ----------
    surface : pygame.Surface
        The board (its pixels are ``view``'s screen pixels).
    region : Region
        From ``geometry.legal_region.legal_region`` (centres, inches).
    view : View
        Table inches to pixels.
    """
    sx, sy = view.to_screen(*region.start)
    if region.fixed:
        pygame.draw.circle(surface, ENGAGED_EDGE, (round(sx), round(sy)), FIXED_RING_PX, 2)
        return
    for geom, fill, edge in ((region.reachable, LEGAL_FILL, LEGAL_EDGE),
                             (region.engaged, ENGAGED_FILL, ENGAGED_EDGE)):
        for shell, holes in prims.geom_rings(geom):
            pts = [view.to_screen(x, y) for x, y in shell]
            hs = [[view.to_screen(x, y) for x, y in h] for h in holes]
            prims.fill_polygon(surface, pts, fill, hs)
            prims.outline(surface, pts, edge, 1)
    pygame.draw.circle(surface, START_MARK, (round(sx), round(sy)), 3)
