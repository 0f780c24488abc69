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

``LessonPlayer`` holds where the lesson is (page, frame, playing) and answers keys and
ticks without a display, so tests drive it with posted events; ``LessonWindow`` draws it.

Hook for the legal-region shading and live drag validation (another module builds
them): ``LessonWindow.overlay_hooks`` is a list of ``fn(surface, page, view)`` called after
the board of a still or dice frame is drawn; ``page.step.state`` is the table shown,
``page.entry.select`` the selected model, ``view`` the board's ``View``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pygame

from tabletop.errors import TabletopError
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

LESSON_KEYS = "n/Right next  p/Left back  Space play  q quit"
"""The keys, as the panel's footer shows them."""

NEXT_KEYS = (pygame.K_n, pygame.K_RIGHT)
BACK_KEYS = (pygame.K_p, pygame.K_LEFT)
QUIT_KEYS = (pygame.K_q, pygame.K_ESCAPE)


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
        self.painter = LessonPainter(lesson, size, keys_hint=LESSON_KEYS)
        self.overlay_hooks: list[Callable[[pygame.Surface, LessonPage, Any], None]] = []

    def resize(self, size: tuple[int, int]) -> None:
        self.painter = LessonPainter(self.player.lesson, size, keys_hint=LESSON_KEYS)

    def handle(self, event: Any) -> None:
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if surface is not None and surface.get_size() != self.painter.size:
                self.resize(surface.get_size())
            return
        self.player.handle(event)

    def pump(self) -> None:
        """Handle every queued pygame event."""
        for event in pygame.event.get():
            self.handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        p = self.player
        frame = p.frame
        self.painter.draw(surface, frame)
        if frame.kind != "slide" and self.overlay_hooks:
            board = surface.subsurface(self.painter.board_rect)
            view = self.painter.page_parts(p.page)[2]
            for hook in self.overlay_hooks:
                hook(board, p.current, view)
        if p.playing:
            self.painter.draw_panel_badge(surface, "playing")


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
