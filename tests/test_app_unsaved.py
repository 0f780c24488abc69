"""Nothing lost at the window (issue 11 item 7), driven by posted pygame events.

The four ways the window lost work: ``q`` right after a drag, ``r`` then ``u``, a
crash during a reload of an edited map, and ``s`` through a planted link; and
``z`` before the first ``--play`` step.  The view is fixed at 10 px per inch with
table (0, 0) at pixel (50, 850): table (x, y) is pixel (50 + 10x, 850 - 10y).
"""

from __future__ import annotations

import os
import time

import pygame
import pytest
from window_helpers import E, display_fixture, fixed_view_app, keydown, pixel_of, post_and_handle

from tabletop.app.app import App
from tabletop.app.unsaved import autosave_path
from tabletop.board import mapfile

MAP = """\
# a club table: this comment must survive every save
[map]
name = "Unsaved test"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "int"
player = "red"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Knife", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10], [10, 12]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[20, 10], [22, 10]]
"""

display = display_fixture((1400, 900))
px = pixel_of(900)
post_and_pump = post_and_handle       # post events and feed the queue to the window, as its loop does


def key(k: int, uni: str = "") -> pygame.event.Event:
    return keydown(k, uni)


def drag_events(start, end):
    """Select the model at ``start``, then drag it to ``end`` (pixels)."""
    out = [E(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
           E(pygame.MOUSEBUTTONUP, pos=start, button=1),
           E(pygame.MOUSEBUTTONDOWN, pos=start, button=1)]
    for k in range(1, 5):
        p = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        out.append(E(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    out.append(E(pygame.MOUSEBUTTONUP, pos=end, button=1))
    return out


def make_app(path: str) -> App:
    return fixed_view_app(path, (1400, 900))


@pytest.fixture
def map_path(tmp_path):
    p = tmp_path / "map.toml"
    p.write_text(MAP, encoding="utf-8")
    return str(p)


def move_int1(app: App) -> None:
    # int/1 from (10, 10) 30 px right, 40 px up: to (13, 14), 5" (a 3-4-5 triangle)
    post_and_pump(app, *drag_events(px(10, 10), px(13, 14)))
    assert app.state.model("int/1").at == pytest.approx((13, 14))


def test_q_after_a_drag_asks_and_n_keeps_the_board(map_path):
    app = make_app(map_path)
    move_int1(app)
    post_and_pump(app, key(pygame.K_q, "q"))
    assert app.running and app.unsaved.pending is not None
    assert "quit with unsaved moves? y" in app.message_lines()[0]
    post_and_pump(app, key(pygame.K_n, "n"))
    assert app.running and app.state.model("int/1").at == pytest.approx((13, 14))
    # Esc and the close button ask the same question; y closes
    post_and_pump(app, E(pygame.QUIT))
    assert app.running and app.unsaved.pending is not None
    post_and_pump(app, key(pygame.K_y, "y"))
    assert not app.running
    # the moves stay in the autosave beside the map; the map is as written
    assert open(map_path, encoding="utf-8").read() == MAP
    assert mapfile.load(autosave_path(map_path)).model("int/1").at == (13, 14)


def test_escape_and_close_quit_at_once_when_nothing_is_unsaved(map_path):
    app = make_app(map_path)
    post_and_pump(app, E(pygame.QUIT))
    assert not app.running
    app = make_app(map_path)
    move_int1(app)
    post_and_pump(app, key(pygame.K_u, "u"))        # back to the map: nothing unsaved
    assert not os.path.exists(autosave_path(map_path))
    post_and_pump(app, key(pygame.K_ESCAPE))
    assert not app.running


def test_reload_asks_and_undo_reaches_back_past_it(map_path):
    app = make_app(map_path)
    move_int1(app)
    post_and_pump(app, key(pygame.K_r, "r"))
    assert app.unsaved.pending is not None          # asked, nothing reloaded yet
    assert app.state.model("int/1").at == pytest.approx((13, 14))
    post_and_pump(app, key(pygame.K_y, "y"))
    assert app.state.model("int/1").at == (10, 10)  # the map as written
    post_and_pump(app, key(pygame.K_u, "u"))
    assert app.state.model("int/1").at == pytest.approx((13, 14))   # the move is back
    post_and_pump(app, key(pygame.K_u, "u"))
    assert app.state.model("int/1").at == (10, 10)


def test_a_crash_during_reload_leaves_the_map_and_the_autosave(map_path, monkeypatch):
    app = make_app(map_path)
    move_int1(app)
    auto = autosave_path(map_path)
    first = open(auto, "rb").read()
    # the second move is autosaved too: int/2 (10, 12) -> (10, 15), 3"
    post_and_pump(app, *drag_events(px(10, 12), px(10, 15)))
    assert open(auto, "rb").read() != first

    def out_of_memory(path):
        raise MemoryError("pygame out of memory")
    monkeypatch.setattr(mapfile, "load", out_of_memory)
    monkeypatch.setattr(mapfile, "load_all", out_of_memory)     # r reads through load_checked
    with pytest.raises(MemoryError):
        post_and_pump(app, key(pygame.K_r, "r"), key(pygame.K_y, "y"))
    monkeypatch.undo()
    assert open(map_path, encoding="utf-8").read() == MAP
    back = mapfile.load(auto)
    assert back.model("int/1").at == (13, 14) and back.model("int/2").at == (10, 15)
    assert sorted(os.listdir(os.path.dirname(map_path))) == ["map.autosave.toml", "map.toml"]
    # the next opening offers it; a loads it
    os.utime(auto, (time.time() + 5, time.time() + 5))
    again = make_app(map_path)
    assert any("autosave newer than the map" in m for m in again.messages)
    post_and_pump(again, key(pygame.K_a, "a"))
    assert again.state.model("int/2").at == (10, 15)


def test_save_never_writes_through_a_planted_link(map_path, tmp_path):
    folder = tmp_path
    (folder / "map-1.toml.tmp").symlink_to(map_path)    # the old fixed temporary name
    (folder / "map-1.toml").symlink_to(folder / "nowhere.toml")   # a dangling link: taken
    app = make_app(map_path)
    move_int1(app)
    post_and_pump(app, key(pygame.K_s, "s"))
    saved = str(folder / "map-2.toml")
    assert app.saved == [saved]
    assert open(map_path, encoding="utf-8").read() == MAP
    assert os.path.islink(folder / "map-1.toml") and not os.path.exists(folder / "nowhere.toml")
    text = open(saved, encoding="utf-8").read()
    assert text.startswith("# a club table: this comment must survive every save\n")
    assert mapfile.load(saved).model("int/1").at == (13, 14)
    # saved: nothing unsaved, the autosave gone, q closes at once
    assert not os.path.exists(autosave_path(map_path))
    post_and_pump(app, key(pygame.K_q, "q"))
    assert not app.running


def test_z_before_the_first_play_step_does_not_crash(map_path):
    from tabletop.app.interactive import PlaySession
    state = mapfile.load(map_path)
    app = App(state, map_path, (1400, 900), play=PlaySession(state, 1))
    try:
        app.steps = []          # before the session's first step arrives
        post_and_pump(app, key(pygame.K_z, "z"))
        assert app.running
    finally:
        app.close()
