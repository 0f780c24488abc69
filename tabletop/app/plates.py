"""The unit name plates the window's board puts on its image, placed but not drawn, so that
what the window draws over the board (the charge marks and tags, the ``--play`` options'
numbers) keeps clear of them."""

from __future__ import annotations

from typing import Any

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.render.board import board_canvas
from tabletop.render.view import View

__all__ = ["PlateCache"]


class PlateCache:
    """``plates(...)`` worked out again only when what it reads changes."""

    def __init__(self) -> None:
        self._got: tuple[tuple, Any, Any, list[pygame.Rect]] | None = None

    def plates(self, size: tuple[int, int], view: View, state: Battlefield, geo: Geometry,
               overlays: frozenset, selected: Any, theme: Any) -> list[pygame.Rect]:
        """The plates (board pixels, each grown by its selection ring) the board of ``size``
        pixels places for ``state`` seen through ``view`` (``render.board``'s placement, the
        same overlays, selection and theme); kept while the view, table and selection stay
        the same."""
        key = (tuple(size), view.scale, view.origin_x, view.origin_y, overlays, selected, theme)
        got = self._got
        if got is not None and got[0] == key and got[1] is state and got[2] is geo:
            return got[3]
        c = board_canvas(pygame.Surface(size), state, geo, view, overlays=overlays,
                         selected=selected, theme=theme, clip=pygame.Rect(0, 0, 0, 0))
        rects = [p[4].inflate(8, 8) for p in (c.placed or [])]
        self._got = (key, state, geo, rects)
        return rects
