"""The help overlay (``h``): the key table laid out to fit the window, never cut off.

``layout_help(entries, size)`` places each (input, what it does) pair of
``app.keys`` in columns over the whole window: the largest font of
``HELP_FONT_PX`` and the fewest columns (each at least ``HELP_MIN_COLUMN_PX``
wide, and about ``HELP_MAX_COLUMN_PX`` at most where the window allows) that hold
every entry; an entry is wrapped to its column and never split
between columns.  When even the smallest font in the most columns cannot hold
them all, the entries go on pages (``h`` turns them, the title says which).
Every text rectangle of a layout lies inside the window (the test checks it at
1366x768 and 1024x600).  Pixels throughout; no table coordinates here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tabletop.render.theme import font as theme_font

__all__ = ["HELP_FONT_PX", "HELP_MIN_COLUMN_PX", "HelpLayout", "draw_help", "layout_help"]

HELP_FONT_PX = (20, 18, 16, 15, 14, 13)   # font sizes tried, largest first
HELP_MIN_COLUMN_PX = 300        # narrowest column
HELP_MAX_COLUMN_PX = 620        # widest column (longer lines are hard to read)
HELP_MARGIN_PX = 24             # between the window's edge and the help plate, and inside it
HELP_GAP_PX = 24                # between columns
HELP_INDENT_PX = 18             # wrapped lines of an entry start this far in
HELP_ENTRY_GAP_PX = 4           # between entries
HELP_BG = (18, 20, 24, 250)
TITLE_COLOUR = (255, 255, 255)
KEY_COLOUR = (255, 214, 64)
TEXT_COLOUR = (225, 228, 232)


@dataclass
class HelpLayout:
    """Where every piece of help text goes on one page.

    ``items`` are (text, rect, colour, font px) in window pixels; ``plate`` the
    dark rectangle behind them; ``page`` / ``pages`` count from 0 / 1.
    """

    plate: pygame.Rect
    items: list[tuple[str, pygame.Rect, tuple[int, int, int], int]]
    page: int
    pages: int
    font_px: int
    columns: int


def _wrap(text: str, font: pygame.font.Font, first_w: int, rest_w: int) -> list[str]:
    """``text`` broken into lines: the first at most ``first_w`` pixels, the rest ``rest_w``
    (a word wider than a line is cut)."""
    lines: list[str] = []
    cur = ""
    width = first_w
    for word in text.split():
        cand = word if not cur else cur + " " + word
        if font.size(cand)[0] <= width:
            cur = cand
            continue
        if cur:
            lines.append(cur)
            width = rest_w
        while font.size(word)[0] > width and len(word) > 1:
            k = len(word)
            while k > 1 and font.size(word[:k])[0] > width:
                k -= 1
            lines.append(word[:k])
            width = rest_w
            word = word[k:]
        cur = word
    if cur or not lines:
        lines.append(cur)
    return lines


def _entry(label: str, does: str, font: pygame.font.Font, px: int, col_w: int):
    """One entry as (text, dx, dy, colour) pieces relative to its top-left, and its height."""
    line_h = font.get_linesize()
    sep = label + "  "
    lw = font.size(sep)[0]
    pieces = []
    if lw > col_w * 0.45:           # a long label on a line of its own
        pieces.append((label, 0, 0, KEY_COLOUR))
        lines = _wrap(does, font, col_w - HELP_INDENT_PX, col_w - HELP_INDENT_PX)
        for k, line in enumerate(lines):
            pieces.append((line, HELP_INDENT_PX, (k + 1) * line_h, TEXT_COLOUR))
        n = len(lines) + 1
    else:
        pieces.append((label, 0, 0, KEY_COLOUR))
        lines = _wrap(does, font, col_w - lw, col_w - HELP_INDENT_PX)
        for k, line in enumerate(lines):
            pieces.append((line, lw if k == 0 else HELP_INDENT_PX, k * line_h, TEXT_COLOUR))
        n = len(lines)
    return pieces, n * line_h


def _try(entries, area: pygame.Rect, px: int, ncols: int, paginate: bool):
    """Pages of columns for font ``px`` in ``ncols`` columns, or None when it does not fit
    on one page and ``paginate`` is off."""
    font = theme_font(px)
    col_w = (area.width - (ncols - 1) * HELP_GAP_PX) // ncols
    title_h = theme_font(px + 4).get_linesize() + HELP_ENTRY_GAP_PX * 2
    top = area.y + title_h
    pages: list[list] = [[]]
    col, y = 0, top
    for label, does in entries:
        pieces, h = _entry(label, does, font, px, col_w)
        if y + h > area.bottom and y > top:
            col, y = col + 1, top
            if col == ncols:
                if not paginate:
                    return None
                pages.append([])
                col = 0
        x = area.x + col * (col_w + HELP_GAP_PX)
        for text, dx, dy, colour in pieces:
            w, hh = font.size(text)
            pages[-1].append((text, pygame.Rect(x + dx, y + dy, min(w, col_w - dx), hh), colour, px))
        y += h + HELP_ENTRY_GAP_PX
    return pages, title_h


def layout_help(entries: Sequence[tuple[str, str]], size: tuple[int, int], page: int = 0,
                title: str = "Keys and mouse") -> HelpLayout:
    """Lay the help out to fit a ``size`` (width, height) pixel window.

    Parameters
    ----------
    entries : list of (str, str)
        (input, what it does), e.g. ``keys.help_entries()``.
    size : (int, int)
        The window, pixels.
    page : int
        Which page when the help needs more than one (taken modulo the page count).

    Returns
    -------
    HelpLayout
        Every rectangle inside ``(0, 0, *size)``.
    """
    plate = pygame.Rect(0, 0, *size).inflate(-2 * HELP_MARGIN_PX, -2 * HELP_MARGIN_PX)
    area = plate.inflate(-2 * HELP_MARGIN_PX, -2 * HELP_MARGIN_PX)
    max_cols = max(1, (area.width + HELP_GAP_PX) // (HELP_MIN_COLUMN_PX + HELP_GAP_PX))
    min_cols = min(max_cols, max(1, area.width // HELP_MAX_COLUMN_PX))
    got = None
    for px in HELP_FONT_PX:
        for ncols in range(min_cols, max_cols + 1):
            got = _try(entries, area, px, ncols, paginate=False)
            if got is not None:
                break
        if got is not None:
            break
    if got is None:
        px, ncols = HELP_FONT_PX[-1], max_cols
        got = _try(entries, area, px, ncols, paginate=True)
    pages, title_h = got
    k = page % len(pages)
    head = title + ("  (h: close, Esc: close)" if len(pages) == 1
                    else f"  (page {k + 1} of {len(pages)}: h turns the page, Esc closes)")
    tfont = theme_font(px + 4)
    tw, th = tfont.size(head)
    items = [(head, pygame.Rect(area.x, area.y, min(tw, area.width), th), TITLE_COLOUR, px + 4)]
    items += pages[k]
    return HelpLayout(plate, items, k, len(pages), px, ncols)


def draw_help(surface: pygame.Surface, layout: HelpLayout) -> None:
    """Draw a layout: a dark plate and the text (each piece clipped to its rectangle)."""
    plate = pygame.Surface(layout.plate.size, pygame.SRCALPHA)
    plate.fill(HELP_BG)
    surface.blit(plate, layout.plate.topleft)
    pygame.draw.rect(surface, (90, 96, 104), layout.plate, 1, border_radius=6)
    for text, rect, colour, px in layout.items:
        img = theme_font(px).render(text, True, colour)
        surface.blit(img, rect.topleft, area=pygame.Rect(0, 0, rect.width, rect.height))
