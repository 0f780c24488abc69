"""Drawing a range ring: outlines (inches) through the view, and its distance label.

Drawing only: the outlines come from ``geometry.rings`` (a base grown by the
distance); table coordinates are inches, y up, and ``View`` flips y.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tabletop.render.theme import font as theme_font
from tabletop.render.view import View

__all__ = ["RING_COLOUR", "RING_LABEL_PX", "draw_ring"]

RING_COLOUR = (110, 205, 255)   # the ring's line and label
RING_LINE_PX = 2
RING_LABEL_PX = 18              # label font size, pixels
LABEL_PLATE = (20, 24, 30)


def draw_ring(surface: pygame.Surface, view: View, outlines: Sequence[Sequence[tuple[float, float]]],
              label: str, colour: tuple[int, int, int] = RING_COLOUR) -> pygame.Rect | None:
    """Draw each closed outline (table inches) and ``label`` above the ring's top.

    Parameters
    ----------
    surface : pygame.Surface
        The board (its pixels are the view's screen pixels).
    view : View
    outlines : list of list of (x, y)
        Closed outlines in inches (``geometry.rings.ring_outlines``).
    label : str
        Shown on a dark plate just above the ring's highest point, kept on the surface.

    Returns
    -------
    pygame.Rect or None
        Where the label went (None for no outline).
    """
    top = None
    for pts in outlines:
        screen = [view.to_screen(x, y) for x, y in pts]
        if len(screen) >= 2:
            pygame.draw.lines(surface, colour, True, screen, RING_LINE_PX)
        for p in screen:
            if top is None or p[1] < top[1]:
                top = p
    if top is None:
        return None
    img = theme_font(RING_LABEL_PX).render(label, True, colour)
    r = img.get_rect(midbottom=(int(top[0]), int(top[1]) - 4))
    plate = r.inflate(8, 4)
    bounds = surface.get_rect()
    if plate.top < bounds.top:          # ring above the visible board: label just inside it
        plate.top = bounds.top + 2
    plate.clamp_ip(bounds)
    r.center = plate.center
    pygame.draw.rect(surface, LABEL_PLATE, plate, border_radius=4)
    surface.blit(img, r)
    return plate
