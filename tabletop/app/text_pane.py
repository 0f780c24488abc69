"""A box of plain text in the window's side panel, drawn with pygame's fonts.

pygame_gui's text box lays a new text out through its HTML-like markup, with a scroll
bar of widgets when the text is longer than the box: 20-45 ms for a step's text on this
machine, a frame past 33 ms at every step change (issue 11 item 3).  ``TextPane`` does
the same job for the panel's plain lines: it wraps them itself at word boundaries with
``Font.size`` (measuring, no drawing), renders each wrapped line once with
``Font.render`` into one image of the whole text, and keeps the last
``PANE_CACHE_TEXTS`` images by their text, so stepping back and forth draws no text
again.  A text taller than the box scrolls with the mouse wheel over it (a thin bar on
the right shows where); a new text starts at its top.

It looks like pygame_gui's default text box (its colours, its Noto Sans 14, its border,
padding and 1.25 line spacing), so the panel reads the same as before.  Window pixels,
y down.
"""

from __future__ import annotations

from collections import OrderedDict
from importlib import resources

import pygame

__all__ = ["PANE_CACHE_TEXTS", "PANE_FONT_PX", "SCROLL_LINES", "TextPane", "wrap"]

PANE_FONT_PX = 14               # pygame_gui's default font size
LINE_SPACING = 1.25             # pygame_gui's text box line spacing
INSET_PX = 8                    # border, shadow and padding of pygame_gui's text box
BAR_WIDTH_PX = 10               # the scroll bar, when the text is taller than the box
SCROLL_LINES = 3
"""Named default: lines a wheel notch scrolls a pane by (a browser's usual step)."""
PANE_CACHE_TEXTS = 32
"""Named default: laid-out texts each pane keeps (a fight's steps visited back and forth
are drawn once each); the oldest is dropped past it."""

BG = (0x21, 0x28, 0x2D)          # pygame_gui's dark_bg
BORDER = (0x5C, 0x60, 0x62)      # its normal_border
TEXT = (0xBB, 0xBB, 0xBB)        # its normal_text
BAR_BG = (0x25, 0x29, 0x2E)
BAR_THUMB = (0x4C, 0x50, 0x52)   # its normal_bg (the scroll bar's button)

_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}


def pane_font(bold: bool = False, size: int = PANE_FONT_PX) -> pygame.font.Font:
    """The panel's font: pygame_gui's Noto Sans (bold or regular) at ``size`` pixels
    (cached), pygame's default font when that file is missing."""
    f = _FONTS.get((size, bold))
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
        try:
            with resources.as_file(resources.files("pygame_gui.data") / name) as path:
                f = pygame.font.Font(str(path), size)
        except (OSError, ModuleNotFoundError, FileNotFoundError):
            f = pygame.font.Font(None, size + 4)
            f.set_bold(bold)
        _FONTS[(size, bold)] = f
    return f


def wrap(line: str, width: int, measure) -> list[str]:
    """``line`` broken at spaces into pieces each at most ``width`` pixels wide by
    ``measure`` (pixels of a string); a line's leading indent is kept on every piece it
    wraps into, and a word wider than the box is cut between letters.  An empty line
    stays one empty piece."""
    if measure(line) <= width:
        return [line]
    stripped = line.lstrip(" ")
    indent = line[:len(line) - len(stripped)]
    if measure(indent + "MMMM") > width:
        indent = ""
    out: list[str] = []
    cur = indent
    for word in stripped.split(" "):
        trial = indent + word if cur == indent else cur + " " + word
        if measure(trial) <= width:
            cur = trial
            continue
        if cur != indent:
            out.append(cur)
        cur = indent + word
        while measure(cur) > width and len(cur) > len(indent) + 1:
            lo, hi = len(indent) + 1, len(cur) - 1     # the longest head that fits
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if measure(cur[:mid]) <= width:
                    lo = mid
                else:
                    hi = mid - 1
            out.append(cur[:lo])
            cur = indent + cur[lo:]
    out.append(cur)
    return out


class TextPane:
    """Lines of text in ``rect`` (window pixels), the first one bold when asked.

    ``set_text(lines, bold_first)`` lays the text out (or takes it from the pane's
    cache), ``draw(surface)`` blits it, ``scroll(notches)`` moves it (wheel up:
    positive, towards the top).  ``rect`` and ``text`` are read by the panel and tests.
    """

    def __init__(self, rect: pygame.Rect):
        self.rect = pygame.Rect(rect)
        self.lines: tuple[str, ...] = ()
        self.bold_first = False
        self.offset = 0                     # pixels of the text scrolled above the box
        self._image: pygame.Surface | None = None
        self.rows: tuple[str, ...] = ()    # the lines as wrapped to the box, top to bottom
        self._cache: OrderedDict[tuple, tuple[pygame.Surface, tuple[str, ...]]] = OrderedDict()
        self.layouts = 0                    # texts laid out afresh (not from the cache)

    @property
    def text(self) -> str:
        """The pane's text, lines joined by newlines."""
        return "\n".join(self.lines)

    @property
    def inner(self) -> pygame.Rect:
        """Where the text goes: the box less its border and padding."""
        return self.rect.inflate(-2 * INSET_PX, -2 * INSET_PX)

    def set_text(self, lines, bold_first: bool = False) -> None:
        """Show ``lines`` (a list of str, or one str split at newlines) from their top."""
        if isinstance(lines, str):
            lines = lines.split("\n")
        self.lines, self.bold_first = tuple(lines), bold_first
        self.offset = 0
        key = (self.lines, bold_first, self.rect.size)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._layout()
            self.layouts += 1
            self._cache[key] = hit
            while len(self._cache) > PANE_CACHE_TEXTS:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        self._image, self.rows = hit

    def _layout(self) -> tuple[pygame.Surface, tuple[str, ...]]:
        """The whole text as one image as wide as the inner box (narrower by the scroll
        bar when it is taller than the box), transparent round the letters, and its rows."""
        inner = self.inner
        regular, bold = pane_font(False), pane_font(True)
        step = self.line_px
        for width in (inner.width, inner.width - BAR_WIDTH_PX):
            rows: list[tuple[str, pygame.font.Font]] = []
            for k, line in enumerate(self.lines):
                f = bold if (k == 0 and self.bold_first) else regular
                rows += [(piece, f) for piece in wrap(line, max(1, width), lambda s, f=f: f.size(s)[0])]
            height = len(rows) * step
            if height <= inner.height:
                break
        img = pygame.Surface((max(1, inner.width), max(1, height)), pygame.SRCALPHA)
        for k, (piece, f) in enumerate(rows):
            if piece.strip():
                img.blit(f.render(piece, True, TEXT), (0, k * step))
        return img, tuple(piece for piece, _ in rows)

    @property
    def overflow(self) -> int:
        """Pixels of text below the box when scrolled to the top (0: it all shows)."""
        if self._image is None:
            return 0
        return max(0, self._image.get_height() - self.inner.height)

    @property
    def line_px(self) -> int:
        """Pixels from one row's top to the next's."""
        return round(pane_font().get_height() * LINE_SPACING)

    def scroll(self, notches: float) -> bool:
        """Scroll by ``notches`` of the wheel (``SCROLL_LINES`` lines each; positive: up);
        returns whether the text moved."""
        step = self.line_px * SCROLL_LINES
        new = int(min(self.overflow, max(0, self.offset - round(notches * step))))
        moved = new != self.offset
        self.offset = new
        return moved

    def draw(self, surface: pygame.Surface) -> None:
        """The box, its text from ``offset`` down, and the scroll bar when it overflows."""
        pygame.draw.rect(surface, BG, self.rect)
        pygame.draw.rect(surface, BORDER, self.rect, 1)
        if self._image is None:
            return
        inner = self.inner
        area = pygame.Rect(0, self.offset, inner.width, inner.height)
        surface.blit(self._image, inner.topleft, area)
        over = self.overflow
        if over > 0:
            track = pygame.Rect(self.rect.right - BAR_WIDTH_PX - 2, self.rect.y + 2,
                                BAR_WIDTH_PX, self.rect.height - 4)
            pygame.draw.rect(surface, BAR_BG, track)
            total = inner.height + over
            h = max(12, track.height * inner.height // total)
            y = track.y + (track.height - h) * self.offset // over
            pygame.draw.rect(surface, BAR_THUMB, pygame.Rect(track.x + 1, y, track.width - 2, h),
                             border_radius=2)
