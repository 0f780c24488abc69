"""The window (``tabletop.app.app.App``) driven by posted pygame events: the set-up the
``test_app_*`` files share.

A test module opens the dummy display once (``display_fixture``), builds its window with the
legend hidden and the view fixed at 10 pixels per inch with table (0, 0) at pixel
(50, height - 50) (``fixed_view_app``), so table (x, y) is pixel (50 + 10x, height - 50 - 10y)
(``pixel_of``), and feeds it events through pygame's queue as the window's loop does
(``post_and_handle``).
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.render.view import View

E = pygame.event.Event

SCALE_PX = 10.0         # pixels per inch of the fixed test view
ORIGIN_X_PX = 50.0      # pixel x of table x = 0
MARGIN_PX = 50.0        # pixels from the window's bottom to table y = 0


def display_fixture(size: tuple[int, int]):
    """A module-scoped autouse fixture ``display``: the dummy display opened at ``size``
    (yields the screen surface), closed after the module."""

    @pytest.fixture(scope="module", autouse=True)
    def display():
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size)
        yield screen
        pygame.display.quit()

    return display


def fix_view(app: App, height: int) -> App:
    """``app`` with its legend hidden (the board takes the whole left column) and the fixed
    test view; returns ``app``."""
    if app.legend_shown:
        app.toggle_legend()
    app.view = View(scale=SCALE_PX, origin_x=ORIGIN_X_PX, origin_y=height - MARGIN_PX)
    return app


def fixed_view_app(path: str, size: tuple[int, int]) -> App:
    """The window on the map at ``path``, ``size`` pixels, with the fixed test view."""
    return fix_view(App(mapfile.load(path), path, size), size[1])


def pixel_of(height: int):
    """``px(x, y)``: table inches -> pixels of the fixed view in a window ``height`` tall."""

    def px(x: float, y: float) -> tuple[int, int]:
        return round(ORIGIN_X_PX + SCALE_PX * x), round(height - MARGIN_PX - SCALE_PX * y)

    return px


def post_and_handle(app: App, *events) -> None:
    """Post the events to pygame's queue and hand every queued event to the window."""
    pygame.event.clear()
    for ev in events:
        pygame.event.post(ev)
    for ev in pygame.event.get():
        app.handle(ev)


def click(pos) -> list:
    """A left click at ``pos`` (pixels): button down, button up."""
    return [E(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), E(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def keydown(k: int, uni: str = "", mod: int = 0):
    """A key press event."""
    return E(pygame.KEYDOWN, key=k, mod=mod, unicode=uni, scancode=0)
