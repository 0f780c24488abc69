"""The main loop of ``tabletop view``: a resizable pygame-ce window around ``App``.

``run(state, path, steps=None, events=None, play=None)`` opens the window, feeds every
pygame event to ``App.handle``, draws with ``App.draw`` and returns when the
window is closed (``Esc``, ``q`` or the close button), or ends it at once, with no
question, on SIGTERM (``kill PID``: ``App.terminate``, the autosaves kept, exit status
``TERMINATED_STATUS``).  The rules commands
pass ``steps`` (``EventLog.steps``) and ``events`` for the step-through;
``view --fight --play`` passes a ``PlaySession`` instead (the person answers).
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import pygame

from tabletop.app.app import MIN_SIZE, App
from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.rules.events import Event, Step

FPS = 60        # named default: frames per second of the window
TERMINATED_STATUS = 128 + signal.SIGTERM    # exit status after SIGTERM, as a shell reports a
                                            # process the signal ended (130 is Ctrl-C's)


# SDL video drivers that show nothing; used only when asked for (tests set SDL_VIDEODRIVER=dummy)
HEADLESS_DRIVERS = ("offscreen", "dummy")

SCREEN_MARGIN_PX = (40, 100)    # named default: room left round a window opened to fit the screen
                                # (width, height): the title bar, a task bar or dock
SCREEN_SIZE_ENV = "TABLETOP_SCREEN_SIZE"   # WxH: take the screen as this size (tests, a laptop's
                                           # 1366x768 tried on a bigger screen)


def screen_size() -> tuple[int, int]:
    """The screen's size in pixels: ``TABLETOP_SCREEN_SIZE`` (``WxH``) when set, else the
    first display's (``pygame.display.get_desktop_sizes``; the display must be initialised).

    Raises
    ------
    TabletopError
        ``TABLETOP_SCREEN_SIZE`` is not ``WxH``.
    """
    forced = os.environ.get(SCREEN_SIZE_ENV)
    if forced:
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", forced)
        if not m or int(m.group(1)) == 0 or int(m.group(2)) == 0:
            raise TabletopError(f"{SCREEN_SIZE_ENV}: {forced!r} is not WIDTHxHEIGHT in pixels, "
                                f"e.g. 1366x768")
        return int(m.group(1)), int(m.group(2))
    sizes = pygame.display.get_desktop_sizes()
    if sizes:
        return tuple(sizes[0])
    info = pygame.display.Info()
    return info.current_w, info.current_h


def fit_size(screen: tuple[int, int]) -> tuple[int, int]:
    """The window size that fits ``screen`` (pixels): the screen less ``SCREEN_MARGIN_PX``,
    not below ``app.MIN_SIZE`` (a smaller screen gets the smallest window the board and
    panel can share)."""
    return (max(MIN_SIZE[0], screen[0] - SCREEN_MARGIN_PX[0]),
            max(MIN_SIZE[1], screen[1] - SCREEN_MARGIN_PX[1]))


def settle_heap() -> None:
    """Move what opening the window made (the map, its snapshot, fonts, widgets: they live
    as long as the window) out of the garbage collector's sweeps (``gc.freeze``), so a
    full collection in a frame walks only what the frames made since, not a 1,000-model
    table (a full sweep of it is a frame's worth of work)."""
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def sigterm_caught() -> Iterator[list[int]]:
    """While open, SIGTERM is noted in the list yielded instead of ending the process or
    reaching SDL (whose own handler posts ``QUIT``, which asks the quit question when work
    is unsaved: a ``kill PID`` would leave the window waiting for a y).  The window's loop
    reads the list each frame.  The handler before is put back on the way out.  Outside
    the main thread (where Python cannot take signals) the list stays empty."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    before = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, lambda signum, frame: noted.append(signum))
    try:
        yield noted
    finally:
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)


def run(state: Battlefield, path: str | None = None, steps: Sequence[Step] | None = None,
        events: Sequence[Event] | Any = None, size: tuple[int, int] | None = None,
        play: Any = None, edit: dict[str, Any] | None = None) -> int:
    """Open the board window and run until it is closed.

    Parameters
    ----------
    state : Battlefield
    path : str, optional
        The map file, for ``r`` (reload) and ``s`` (save beside it).
    steps : list of Step, optional
        Step through these (``n``/``p``) instead of editing the map.
    events : list of Event or EventLog, optional
        The events the steps' ranges index into.
    size : (int, int), optional
        Initial window size in pixels (resizable); None (the default) fits the
        screen (``fit_size(screen_size())``: 1326x668 on a 1366x768 laptop).
    play : tabletop.app.interactive.PlaySession, optional
        Resolve the phase while the window is open, the person answering the
        questions; it is stopped when the window closes.
    edit : dict, optional
        Open in the table editor (``tabletop edit``): ``app.editor.Editor``'s keyword
        arguments (``out``, ``roster``, ``system``, ``player``).

    Returns
    -------
    int
        The exit status: 0, or ``TERMINATED_STATUS`` (143) when SIGTERM ended the window
        (``sigterm_caught``): no question asked, the autosaves as on the way out
        (``App.terminate``), the map not written.

    Raises
    ------
    TabletopError
        When no window can be opened (no display), or ``TABLETOP_SCREEN_SIZE`` is bad.
    """
    no_screen = (sys.platform.startswith("linux") and not os.environ.get("SDL_VIDEODRIVER")
                 and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"))
    if no_screen:
        raise TabletopError("cannot open a window: no display (set DISPLAY, or use "
                            "`tabletop render MAP -o OUT.png`, which draws without one)")
    with sigterm_caught() as terminated:    # before SDL starts: it leaves a set handler be
        _run(state, path, steps, events, size, play, edit, terminated)
    return TERMINATED_STATUS if terminated else 0


def _run(state: Battlefield, path: str | None, steps: Sequence[Step] | None,
         events: Sequence[Event] | Any, size: tuple[int, int] | None, play: Any,
         edit: dict[str, Any] | None, terminated: list[int]) -> None:
    """``run``'s window: open it, loop until it closes or ``terminated`` holds a signal."""
    pygame.display.init()
    pygame.font.init()
    driver = pygame.display.get_driver()
    asked = os.environ.get("SDL_VIDEODRIVER", "").lower()
    if driver in HEADLESS_DRIVERS and driver not in asked:
        # SDL fell back to an invisible driver: the window would never be seen
        pygame.display.quit()
        raise TabletopError("cannot open a window: no display (set DISPLAY, or use "
                            "`tabletop render MAP -o OUT.png`, which draws without one)")
    try:
        if size is None:
            size = fit_size(screen_size())
        pygame.display.set_caption(f"tabletop - {state.name}")
        try:
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error as exc:
            raise TabletopError(f"cannot open a window: {exc} (is there a display? "
                                f"`tabletop render` draws without one)") from None
        app = App(state, path, screen.get_size(), steps=steps, events=events, play=play,
                  edit=edit)
        settle_heap()
        try:
            clock = pygame.time.Clock()
            while app.running:
                if terminated:
                    app.terminate()     # SIGTERM: no question; the autosaves kept
                    break
                dt = clock.tick(FPS) / 1000.0
                for event in pygame.event.get():
                    app.handle(event)
                app.update(dt)
                screen = pygame.display.get_surface()
                app.draw(screen)
                pygame.display.flip()
        finally:
            app.close()
    finally:
        pygame.display.quit()   # fonts stay valid: render caches them across calls
