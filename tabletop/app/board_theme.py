"""The board's theme in the window: label plates sized to the board they sit on.

The unit plates (name; id, model count, status) are drawn in fixed pixel sizes, so on a
small window (a 1024x600 netbook, a 1366x768 laptop) the same plates
cover a large share of a board drawn at fewer pixels per inch.  The window draws its board
with the default theme's fonts scaled by how much smaller than ``PLATES_FULL_SIZE_PX`` the
board is, never below ``PLATE_FONT_MIN_PX``.  Pixels throughout; render reads the theme.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.render.theme import DEFAULT_THEME, Theme

__all__ = ["PLATES_FULL_SIZE_PX", "PLATE_FONT_MIN_PX", "board_theme"]

PLATES_FULL_SIZE_PX = (960, 600)
"""Named default: board size (pixels) from which the plates keep the theme's full font
sizes (the default 1400x900 window's board is 1000 px wide and at least 630 tall with the
legend); a smaller board scales them down by the smaller of its width and height ratios (a
1366x768 laptop's 926x668 board: 0.965, fonts 19 and 15; a 1024x600 window's 624x600: 0.65,
fonts 13 and 10)."""

PLATE_FONT_MIN_PX = (12, 10)
"""Named default: the smallest plate fonts (the name line, the small line), still read at
arm's length on a laptop screen."""


def board_theme(size: tuple[int, int], theme: Theme = DEFAULT_THEME) -> Theme:
    """``theme`` with its plate fonts (``font_label``, ``font_small``) scaled for a board of
    ``size`` pixels (width, height): ``theme`` itself when the board is at least
    ``PLATES_FULL_SIZE_PX``, else scaled by ``min(w / 960, h / 600)`` and rounded, at least
    ``PLATE_FONT_MIN_PX``.  At 624x600 (a 1024x600 window's board): 0.65, fonts 13 and 10."""
    w, h = size
    k = min(1.0, w / PLATES_FULL_SIZE_PX[0], h / PLATES_FULL_SIZE_PX[1])
    if k >= 1.0:
        return theme
    return _scaled(theme, round(k, 3))


_CACHE: dict[tuple[int, float], Theme] = {}


def _scaled(theme: Theme, k: float) -> Theme:
    key = (id(theme), k)
    if key not in _CACHE:       # one theme per scale, so the board's caches stay keyed alike
        _CACHE[key] = replace(theme, font_label=max(PLATE_FONT_MIN_PX[0], round(theme.font_label * k)),
                              font_small=max(PLATE_FONT_MIN_PX[1], round(theme.font_small * k)))
    return _CACHE[key]
