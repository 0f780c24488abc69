"""The window fits a laptop: opens to fit the screen, re-lays out on resize, help never cut off;
the README's key table is the window's (app/keys.py).

Sizes are pixels.  ``TABLETOP_SCREEN_SIZE`` makes the window take the screen as that size.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from tabletop.app import keys
from tabletop.app.app import FIT_MARGIN_PX, App
from tabletop.app.help_overlay import layout_help
from tabletop.app.window import SCREEN_MARGIN_PX, fit_size
from tabletop.board import mapfile
from tabletop.cli import main

MAP = """\
[map]
name = "Fit test"
ruleset = "fight-phase"
width = 60.0
depth = 44.0

[[players]]
id = "red"
active = true

[[units]]
id = "bike"
player = "red"
base = "90x52mm oval"
profile = { M = 12 }
models = [[30, 22]]
"""

README = Path(__file__).resolve().parent.parent / "README.md"
E = pygame.event.Event


def _quit_after(monkeypatch, frames: int, seen: list):
    real_get = pygame.event.get

    def fake_get(*args, **kwargs):
        real_get()
        seen.append(pygame.display.get_surface().get_size())
        if len(seen) >= frames:
            return [E(pygame.QUIT)]
        return []

    monkeypatch.setattr(pygame.event, "get", fake_get)


def test_view_opens_to_fit_a_1366x768_screen(write_map, monkeypatch):
    monkeypatch.setenv("TABLETOP_SCREEN_SIZE", "1366x768")
    seen: list = []
    _quit_after(monkeypatch, 2, seen)
    assert main(["view", write_map(MAP)]) == 0
    # 1366 - 40 = 1326 wide, 768 - 100 = 668 high (SCREEN_MARGIN_PX = (40, 100))
    assert SCREEN_MARGIN_PX == (40, 100)
    assert seen == [(1326, 668)] * 2
    assert seen[0][0] <= 1366 and seen[0][1] <= 768


def test_a_bad_screen_size_is_one_line_exit_2(write_map, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_SCREEN_SIZE", "wide")
    assert main(["view", write_map(MAP)]) == 2
    err = capsys.readouterr().err
    assert "TABLETOP_SCREEN_SIZE: 'wide' is not WIDTHxHEIGHT" in err and "Traceback" not in err


def test_fit_size_keeps_the_smallest_window():
    assert fit_size((1366, 768)) == (1326, 668)
    assert fit_size((1920, 1080)) == (1880, 980)
    assert fit_size((640, 480)) == (800, 500)        # app.MIN_SIZE


@pytest.fixture
def window():
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1326, 668), pygame.RESIZABLE)
    yield screen
    pygame.display.quit()


def _table_on_screen(app) -> pygame.Rect:
    v = app.view
    (x0, y0), (x1, y1) = v.to_screen(0, 44), v.to_screen(60, 0)
    return pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))


def _help_inside(app, size) -> None:
    lay = app.help_layout()
    win = pygame.Rect(0, 0, *size)
    assert lay.items and all(win.contains(r) for _, r, _, _ in lay.items)
    assert win.contains(lay.plate)


def test_resize_to_1024x600_re_lays_out_and_the_help_fits(write_map, window):
    path = write_map(MAP)
    app = App(mapfile.load(path), path, window.get_size())
    # 1326 x 668: panel 400 wide at x 926, the board column 926 wide
    assert app.panel_rect == pygame.Rect(926, 0, 400, 668)
    assert app.board_rect.contains(_table_on_screen(app))
    app.handle(E(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0))
    assert app.help_shown
    _help_inside(app, (1326, 668))
    pygame.event.clear()
    pygame.event.post(E(pygame.VIDEORESIZE, size=(1024, 600), w=1024, h=600))
    for ev in pygame.event.get():
        app.handle(ev)
    # 1024 x 600: the panel 400 wide at x 624; the board 624 wide above the legend
    assert app.panel_rect == pygame.Rect(624, 0, 400, 600)
    assert app.board_rect.width == 624 and app.board_rect.bottom == app.legend_rect.top
    assert app.legend_rect.bottom == 600
    # the fitted view follows: 60" across 624 - 2 x 30 px = 9.4 px/in; 44" down
    # (board height - 60) px; the smaller wins and the table sits inside the board
    h = app.board_rect.height
    assert app.view.scale == pytest.approx(min((624 - 2 * FIT_MARGIN_PX) / 60,
                                               (h - 2 * FIT_MARGIN_PX) / 44))
    assert app.board_rect.contains(_table_on_screen(app))
    _help_inside(app, (1024, 600))
    surf = pygame.Surface((1024, 600))
    app.update(0.016)
    app.draw(surf)
    app.handle(E(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0))
    assert not app.help_shown


@pytest.mark.parametrize("size", [(1366, 768), (1326, 668), (1024, 600), (800, 500)])
def test_help_holds_every_entry_inside_the_window(window, size):
    entries = keys.help_entries()
    lay = layout_help(entries, size)
    win = pygame.Rect(0, 0, *size)
    texts = []
    for page in range(lay.pages):
        p = layout_help(entries, size, page)
        assert all(win.contains(r) for _, r, _, _ in p.items)
        texts += [t for t, _, _, _ in p.items[1:]]      # [0] is the title
    # nothing dropped: the words of every entry are all there, in order
    want = " ".join(w for label, does in entries for w in (label + " " + does).split())
    assert " ".join(" ".join(texts).split()) == want
    # none of these sizes needs a second page
    assert lay.pages == 1


def test_a_tiny_window_pages_the_help(window):
    lay = layout_help(keys.help_entries(), (500, 300))
    assert lay.pages > 1 and "page 1 of" in lay.items[0][0]
    for page in range(lay.pages):
        assert all(pygame.Rect(0, 0, 500, 300).contains(r)
                   for _, r, _, _ in layout_help(keys.help_entries(), (500, 300), page).items)


def _readme_key_rows() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### view — the window"):]
    table = section[section.index("| input | does |"):]
    rows = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        m = re.fullmatch(r"\| (.*?) \| (.*) \|", line)
        assert m, line
        rows.append((m.group(1), m.group(2)))
    return rows


def test_the_readme_key_table_is_the_windows():
    assert _readme_key_rows() == keys.readme_rows()


def test_every_bound_key_has_an_action_in_the_window(write_map, window):
    path = write_map(MAP)
    app = App(mapfile.load(path), path, window.get_size())
    assert keys.actions() <= set(app.key_actions())
    assert set(app.key_actions()) <= keys.actions()


def test_a_shifted_letter_without_its_own_row_does_what_the_letter_does(write_map, window):
    path = write_map(MAP)
    app = App(mapfile.load(path), path, window.get_size())
    app.handle(E(pygame.KEYDOWN, key=pygame.K_h, mod=pygame.KMOD_SHIFT, unicode="H", scancode=0))
    assert app.help_shown
    app.handle(E(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0))
    assert not app.help_shown and app.running     # Esc closes the help first


def test_a_legend_too_tall_for_a_laptop_starts_hidden(window):
    path = str(README.parent / "maps" / "ca-layout-1-hammer-and-anvil.toml")
    app = App(mapfile.load(path), path, (1326, 668))
    # the strip may take 0.3 x 668 = 200 px; this layout's legend needs more, so the board
    # gets the whole left column (926 x 668) and the panel says l shows the legend
    assert not app.legend_shown and app.board_rect == pygame.Rect(0, 0, 926, 668)
    assert any(m.startswith("l: legend") for m in app.messages)
    app.toggle_legend()
    assert app.legend_rect.height == int(668 * 0.3)
