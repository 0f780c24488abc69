"""The window on a small screen (issue 10 item 4 leftovers), driven by posted events.

A 1024x600 window: the panel takes ``PANEL_WIDTH`` = 400 px, so the board is the left
1024 - 400 = 624 x 600 px (the legend hidden: it does not fit whole in 30% of 600 px).
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from window_helpers import display_fixture, fixed_view_app, keydown, pixel_of, post_and_handle

from tabletop.app.app import App
from tabletop.app.board_theme import board_theme
from tabletop.app.panel import elide
from tabletop.board import mapfile
from tabletop.render.theme import DEFAULT_THEME

MAPS = Path(__file__).resolve().parent.parent / "maps"

SIZE = (1024, 600)
display = display_fixture(SIZE)
px = pixel_of(SIZE[1])

LONG_NAME = ("A very long map name that a club wrote for its league night table number "
             "seven with the objectives moved")

MAP = f"""\
[map]
name = "{LONG_NAME}"
ruleset = "fight-phase"
width = 44
depth = 30

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "int"
player = "red"
base = "32mm"
profile = {{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }}
models = [[10, 10], [10, 12]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[20, 10], [22, 10]]
"""


def test_elide_cuts_the_end_and_keeps_what_fits():
    # one pixel a character: "abcdefghij" (10 px) in 7 px is "abcd..." (4 + 3 dots)
    assert elide("abcdefghij", 7, len) == "abcd..."
    assert elide("abcdefghij", 10, len) == "abcdefghij"
    assert elide("abcdefghij", 2, len) == ""


def test_a_long_map_name_is_elided_to_the_title_label(write_map):
    app = fixed_view_app(write_map(MAP), SIZE)
    app.refresh()
    label = app.panel.boxes["title"]
    shown = label.text
    # the panel is 400 px, the label 400 - 2 x 8 = 384 px wide, 12 px kept clear: 372 px
    assert label.rect.width == 384
    assert shown.endswith("...") and LONG_NAME.startswith(shown[:-3])
    assert label.font.size(shown)[0] <= 384 - 12
    assert label.font.size(LONG_NAME)[0] > 384          # the whole name would run past it
    assert app.panel.texts["title"] == LONG_NAME        # the full name is kept


def _plate_share(app: App) -> float:
    surface = pygame.Surface(SIZE)
    app.update(0.016)
    app.draw(surface)
    board = app.board_rect
    mask = pygame.Mask(board.size)
    for key, (what, _area) in app._drawn.items.items():
        if key[0] != "label":
            continue
        r = pygame.Rect(what[1]).clip(pygame.Rect(0, 0, *board.size))
        if r.w > 0 and r.h > 0:
            mask.draw(pygame.Mask(r.size, fill=True), r.topleft)
    return mask.count() / (board.w * board.h)


def test_at_1024x600_the_unit_plates_cover_under_15_percent_of_the_board():
    path = str(MAPS / "ca-layout-1-hammer-and-anvil.toml")     # 20 units on a 60x44 table
    app = App(mapfile.load(path), path, SIZE)
    assert app.board_rect == pygame.Rect(0, 0, 624, 600)
    # the plates' fonts scale by min(624 / 960, 600 / 600) = min(0.65, 1.0) = 0.65:
    # 20 x 0.65 = 13 px and 16 x 0.65 = 10.4 -> 10 px (PLATE_FONT_MIN_PX 12 and 10 hold)
    theme = board_theme(app.board_rect.size)
    assert (theme.font_label, theme.font_small) == (13, 10)
    assert _plate_share(app) < 0.15          # with the full 20 / 16 px fonts: 26%
    # the default 1400x900 window's board (1000 x 900, or 1000 x 630 under the legend) keeps
    # the theme as it is; a 1366x768 laptop's 926 x 668: 926 / 960 = 0.965 -> 19 and 15 px
    assert board_theme((1000, 900)) is DEFAULT_THEME and board_theme((1000, 630)) is DEFAULT_THEME
    laptop = board_theme((926, 668))
    assert (laptop.font_label, laptop.font_small) == (19, 15)


def test_each_ring_keystroke_replaces_the_ring_message(write_map):
    app = fixed_view_app(write_map(MAP), SIZE)
    before = list(app.messages)
    post_and_handle(app, *[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px(10, 10), button=1),
                           pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px(10, 10), button=1)])
    assert app.selected == "int/1"
    post_and_handle(app, keydown(pygame.K_g, "G", pygame.KMOD_SHIFT), keydown(pygame.K_4, "4"),
                    keydown(pygame.K_PERIOD, "."), keydown(pygame.K_5, "5"))
    ring_lines = [m for m in app.messages if m.startswith("ring distance")]
    # G, 4, ., 5: four prompts, one line shown (the newest, "4.5")
    assert ring_lines == ['ring distance: 4.5_ inches (Enter draws it, Esc cancels)']
    assert app.messages[:len(before)] == before          # other messages are kept
    post_and_handle(app, keydown(pygame.K_RETURN))
    assert [m for m in app.messages if m.startswith("ring")] == [app.messages[-1]]
    assert '4.5"' in app.messages[-1]
    # another tool's message is not replaced by the next ring message
    app.message("saved somewhere")
    post_and_handle(app, keydown(pygame.K_g, "g"))
    assert app.messages[-2] == "saved somewhere" and app.messages[-1].startswith("ring")


@pytest.mark.parametrize("size", [(1366, 768), (1024, 600)])
def test_the_title_label_fits_at_common_laptop_sizes(write_map, size):
    app = App(mapfile.load(write_map(MAP)), write_map(MAP), size)
    label = app.panel.boxes["title"]
    assert label.font.size(label.text)[0] <= label.rect.width - 12
