"""``tabletop lesson MAP``: the lesson window (pygame-ce), a lesson played page by page.

The board on the left, the side panel on the right (``render.lesson_draw``).  Entering a
page plays its animation steps (``render.lesson_plan``): the moved models slide along
their paths (one slide frame a window frame, ``MOVE_ANIMATION_FRAMES`` in all), then the
dice appear one roll every ``ROLL_TICKS`` window frames.  Keys (``LESSON_KEYS``):

``n`` / ``Right``  next page (its animation plays)
``p`` / ``Left``   previous page (shown as it ends, no animation)
``Space``          play / pause: playing goes on to the next page ``HOLD_TICKS`` window frames
                   after a page's animation ends, and stops at the last page
``q`` / ``Esc``    quit
left click         select a model (empty table: none); on a pile-in or consolidation step a
                   model of the moving unit shows where it may end, shaded
left drag          drag that model: the panel judges the move live, naming each broken
                   clause; on release it goes back (``app.lesson_drag``)

``LessonPlayer`` holds where the lesson is (page, frame, playing) and answers keys and
ticks without a display, so tests drive it with posted events; ``LessonWindow`` draws it.

A page opens with its ``select`` (if any) selected and shaded.  ``overlay_hooks`` is a list
of ``fn(surface, page, view)`` called after the board of a still or dice frame is drawn;
``page.step.state`` is the table shown, ``view`` the board's ``View``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pygame

from tabletop.app.lesson_drag import CLICK_SLOP_PX, LessonPick
from tabletop.errors import TabletopError
from tabletop.geometry.footprints import base_polygon
from tabletop.render.board import draw_base
from tabletop.render.lesson_draw import LessonPainter
from tabletop.render.lesson_plan import Frame, Lesson, LessonPage
from tabletop.render.motion import MOVE_ANIMATION_FRAMES

__all__ = ["HOLD_TICKS", "LESSON_KEYS", "LESSON_WINDOW_SIZE", "ROLL_TICKS", "LessonPlayer",
           "LessonWindow", "run_lesson_window"]

FPS = 60
"""Window frames a second (as ``tabletop view``)."""

ROLL_TICKS = 20
"""Named default: window frames between two rolls appearing (a third of a second)."""

HOLD_TICKS = 4 * FPS
"""Named default: while playing, window frames a page stays after its animation ends before
the next page (four seconds to read its note)."""

LESSON_WINDOW_SIZE = (1366, 768)
"""Named default: the window's largest opening size, pixels (a laptop screen); it opens
smaller to fit the screen and can be resized."""

LESSON_KEYS = "n/Right next  p/Left back  Space play  q quit  click/drag a model"
"""The keys, as the panel's footer shows them."""

NEXT_KEYS = (pygame.K_n, pygame.K_RIGHT)
BACK_KEYS = (pygame.K_p, pygame.K_LEFT)
QUIT_KEYS = (pygame.K_q, pygame.K_ESCAPE)

DRAG_COLOUR = (120, 220, 255)
"""The dragged model's outline while its move is legal (as ``tabletop view``)."""
BAD_COLOUR = (235, 70, 60)
"""The dragged model's outline while its move breaks a clause."""


class LessonPlayer:
    """Where a lesson is: page ``page`` (0-based), ``pos`` in its frames, ``playing``.

    ``frames()`` are the current page's animation steps (``LessonPage.frames``); entering a
    page with ``next()`` starts at its first (the slide), ``back()`` shows a page's last.
    """

    def __init__(self, lesson: Lesson, start: int = 0, slide_frames: int = MOVE_ANIMATION_FRAMES):
        if not 0 <= start < len(lesson.pages):
            raise ValueError(f"start page {start} outside 0..{len(lesson.pages) - 1}")
        self.lesson = lesson
        self.slide_frames = slide_frames
        self.page = start
        self.playing = False
        self.running = True
        self._first = start      # the first page shown never slides in
        self._wait = 0
        self.pos = 0
        self._enter(start, at_end=False)

    def frames(self) -> list[tuple[str, int]]:
        return self.lesson.pages[self.page].frames(self.slide_frames, first=self.page == self._first)

    @property
    def frame(self) -> Frame:
        kind, k = self.frames()[self.pos]
        return Frame(self.page, kind, k)

    @property
    def current(self) -> LessonPage:
        return self.lesson.pages[self.page]

    @property
    def animating(self) -> bool:
        return self.pos < len(self.frames()) - 1

    def _enter(self, page: int, at_end: bool) -> None:
        self.page = page
        frames = self.frames()
        self.pos = len(frames) - 1 if at_end else 0
        self._wait = 0

    def next(self) -> bool:
        """On to the next page (False at the last)."""
        if self.page + 1 >= len(self.lesson.pages):
            self.playing = False
            return False
        self._enter(self.page + 1, at_end=False)
        return True

    def finish(self) -> None:
        """Show the current page as it ends (its animation skipped)."""
        self.pos = len(self.frames()) - 1
        self._wait = 0

    def back(self) -> bool:
        """Back to the previous page, shown as it ends (False at the first)."""
        if self.page == 0:
            return False
        self._enter(self.page - 1, at_end=True)
        return True

    def key(self, key: int) -> None:
        """Answer one key (module docstring)."""
        if key in NEXT_KEYS:
            self.next()
        elif key in BACK_KEYS:
            self.back()
        elif key == pygame.K_SPACE:
            self.playing = not self.playing
            if self.playing and not self.animating and self.page + 1 >= len(self.lesson.pages):
                self._enter(0 if len(self.lesson.pages) > 1 else self.page, at_end=False)
        elif key in QUIT_KEYS:
            self.running = False

    def handle(self, event: Any) -> None:
        """One pygame event: keys, and the window closing."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)

    def tick(self) -> None:
        """One window frame on: a slide frame each tick, a roll every ``ROLL_TICKS``; while
        playing, the next page ``HOLD_TICKS`` after the animation ends."""
        frames = self.frames()
        if self.pos < len(frames) - 1:
            kind = frames[self.pos][0]
            self._wait += 1
            if kind == "slide" or self._wait >= ROLL_TICKS:
                self.pos += 1
                self._wait = 0
        elif self.playing:
            self._wait += 1
            if self._wait >= HOLD_TICKS:
                self.next()


class LessonWindow:
    """The window's drawing round a ``LessonPlayer``: the painter for the window's size, and
    ``overlay_hooks`` (module docstring)."""

    def __init__(self, lesson: Lesson, size: tuple[int, int], start: int = 0):
        self.player = LessonPlayer(lesson, start)
        self.pick = LessonPick(lesson)
        self.painter = self._painter(size)
        self.overlay_hooks: list[Callable[[pygame.Surface, LessonPage, Any], None]] = []

    def _painter(self, size: tuple[int, int]) -> LessonPainter:
        return LessonPainter(self.player.lesson, size, keys_hint=LESSON_KEYS,
                             region_of=self.pick.region_of)

    def resize(self, size: tuple[int, int]) -> None:
        self.painter = self._painter(size)

    def _table_at(self, pos: tuple[int, int]) -> tuple[float, float] | None:
        r = self.painter.board_rect
        if not r.collidepoint(pos):
            return None
        view = self.painter.page_parts(self.player.page)[2]
        return view.to_table(pos[0] - r.x, pos[1] - r.y)

    def handle(self, event: Any) -> None:
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if surface is not None and surface.get_size() != self.painter.size:
                self.resize(surface.get_size())
            return
        page = self.player.page
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            at = self._table_at(event.pos)
            if at is not None:
                self.player.finish()        # the tool works on the page's own table
                self.player.playing = False
                parts = self.painter.page_parts(page)
                self.pick.press(page, parts[1], at, CLICK_SLOP_PX / parts[2].scale)
            return
        if event.type == pygame.MOUSEMOTION and self.pick.drag is not None:
            at = self._table_at(event.pos)
            if at is not None:
                self.pick.move(page, at)
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.pick.release(page)
            return
        self.player.handle(event)
        if self.player.page != page:
            self.pick.drag = None

    def pump(self) -> None:
        """Handle every queued pygame event."""
        for event in pygame.event.get():
            self.handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        p = self.player
        frame = p.frame
        self.painter.draw(surface, frame, selected=self.pick.selected(p.page),
                          check=self.pick.check_of(p.page))
        if frame.kind != "slide":
            board = surface.subsurface(self.painter.board_rect)
            view = self.painter.page_parts(p.page)[2]
            for hook in self.overlay_hooks:
                hook(board, p.current, view)
            if self.pick.drag is not None:
                self._draw_drag(board, view)
        if p.playing:
            self.painter.draw_panel_badge(surface, "playing")


    def _draw_drag(self, board: pygame.Surface, view: Any) -> None:
        """The dragged model at the cursor, outlined by whether the move is legal, and a line
        from where the step put it."""
        d = self.pick.drag
        state = self.player.current.step.state
        m = state.model(d.model_id).moved_to(*d.at)
        footprint = base_polygon(m.base, m.x, m.y, m.facing_deg)
        theme = self.painter.theme
        player = theme.player_colours(state).get(state.owner(m.id), (128, 128, 128))
        draw_base(board, view, footprint, m, player, theme)
        colour = BAD_COLOUR if self.pick.bad() else DRAG_COLOUR
        pygame.draw.lines(board, colour, True,
                          [view.to_screen(x, y) for x, y in footprint.exterior.coords], 2)
        pygame.draw.line(board, colour, view.to_screen(*d.start), view.to_screen(*d.at), 2)


def _fit(size: tuple[int, int]) -> tuple[int, int]:
    info = pygame.display.Info()
    w, h = size
    if info.current_w > 0 and info.current_h > 0:
        w, h = min(w, int(info.current_w * 0.95)), min(h, int(info.current_h * 0.9))
    return max(640, w), max(400, h)


def run_lesson_window(lesson: Lesson, start: int = 0, size: tuple[int, int] = LESSON_WINDOW_SIZE,
                      max_ticks: int | None = None) -> int:
    """Open the lesson window on page ``start`` (0-based) and run until it is closed
    (``q``, ``Esc`` or the close button), or ``max_ticks`` frames have passed (tests).

    Raises
    ------
    TabletopError
        When no window can be opened (no display).
    """
    if (sys.platform.startswith("linux") and not os.environ.get("SDL_VIDEODRIVER")
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        raise TabletopError("cannot open a window: no display (set DISPLAY, or write the lesson "
                            "with `tabletop lesson MAP --gif OUT.gif`, which needs none)")
    pygame.display.init()
    pygame.font.init()
    try:
        pygame.display.set_caption(f"tabletop lesson - {lesson.state.name}")
        try:
            screen = pygame.display.set_mode(_fit(size), pygame.RESIZABLE)
        except pygame.error as exc:
            raise TabletopError(f"cannot open a window: {exc}") from None
        window = LessonWindow(lesson, screen.get_size(), start)
        clock = pygame.time.Clock()
        ticks = 0
        while window.player.running and (max_ticks is None or ticks < max_ticks):
            clock.tick(FPS)
            window.pump()
            window.player.tick()
            screen = pygame.display.get_surface()
            window.draw(screen)
            pygame.display.flip()
            ticks += 1
    finally:
        pygame.display.quit()
    return 0
