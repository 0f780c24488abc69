"""Pile-in and consolidation moves slide along their paths in the window (issue 11 item 3).

``render.motion``: a step with a ``PileIn`` / ``Consolidate`` event is shown over
``MOVE_ANIMATION_FRAMES`` frames, each moved model drawn at the point of its path a
fraction k/n of its length along at frame k.  The steps here are written by hand (a
two-leg path), the window driven by posted key events and counted ``App.update`` calls.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from fightkit import state_from, unit

from tabletop.app.app import App
from tabletop.app.board_theme import board_theme
from tabletop.app.interactive import PlaySession
from tabletop.board import mapfile
from tabletop.render.motion import (
    MOVE_ANIMATION_FRAMES,
    Motion,
    point_along,
    slide_frames,
    step_moves,
)
from tabletop.render.steps import draw_step
from tabletop.render.theme import DEFAULT_THEME
from tabletop.rules import events as E
from tabletop.rules.events import EventLog

SIZE = (1200, 800)
LESSON = str(Path(__file__).resolve().parent.parent / "maps" / "lessons/pile-in.toml")
# R/1 piles in from (10, 10): 2" right to (12, 10), then 1" up to (12, 11); 3" in all
PATH = [(10.0, 10.0), (12.0, 10.0), (12.0, 11.0)]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1), pygame.HIDDEN)
    yield


def key(app, k):
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def two_steps():
    """A log of two steps: the table before (R/1 at (10, 10)), then R/1's pile-in along
    ``PATH`` to (12, 11); B/1 stands at (13.5, 11), 1.5 - 2 x 0.63 = 0.24" from the end."""
    before = state_from(unit("R", "red", [(10, 10)], charged=True) + unit("B", "blue", [(13.5, 11)]))
    after = before.with_positions({"R/1": (12.0, 11.0)})
    log = EventLog()
    log.step("Start", "12.01", before)
    log.add(E.PileIn(rule="12.03", unit="R", player="red", mode="engaged", targets=["B"],
                     moves={"R/1": [list(p) for p in PATH]}, distances={"R/1": 3.0}, violations=[],
                     tried=[], max_distance=3.0, starts={"R/1": [10.0, 10.0, 90.0]},
                     closest={"R/1": "B/1"}))
    log.step("R piles in", "12.03", after)
    return before, log


def test_point_along_a_two_leg_path():
    # 3" long: 1/2 -> 1.5" along the first (2") leg; 2/3 -> 2", the corner; 5/6 -> 2.5", 0.5" up the second
    assert point_along(PATH, 0.0) == (10.0, 10.0)
    assert point_along(PATH, 0.5) == pytest.approx((11.5, 10.0), abs=1e-9)
    assert point_along(PATH, 2 / 3) == pytest.approx((12.0, 10.0), abs=1e-9)
    assert point_along(PATH, 5 / 6) == pytest.approx((12.0, 10.5), abs=1e-9)
    assert point_along(PATH, 1.0) == (12.0, 11.0)
    assert point_along(PATH, 7.0) == (12.0, 11.0)            # clamped
    assert point_along([(1.0, 2.0), (1.0, 2.0)], 0.5) == (1.0, 2.0)   # no length: its start
    with pytest.raises(ValueError):
        point_along([], 0.5)


def test_step_moves_reads_the_move_events():
    _, log = two_steps()
    assert step_moves(log.steps[0]) == {}
    assert step_moves(log.steps[1]) == {"R/1": PATH}
    assert Motion.of(log.steps[0]) is None


def _screen(app, x, y):
    sx, sy = app.view.to_screen(x, y)
    return round(sx), round(sy)


def test_a_pile_in_slides_along_its_path_frame_by_frame():
    before, log = two_steps()
    app = App(before, size=SIZE, steps=log.steps, events=log.events)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    red = DEFAULT_THEME.player_colours(before)["red"]
    n = app.animate_frames
    assert n == MOVE_ANIMATION_FRAMES == 30
    key(app, pygame.K_n)                         # to the pile-in step: frame 0 of 30
    assert app.step_index == 1 and app.animating
    app.draw(surface)
    assert app.motion.positions() == {"R/1": (10.0, 10.0)}          # 0/30: its start
    assert tuple(surface.get_at(_screen(app, 10, 10)))[:3] == red
    for _ in range(15):
        app.update(1 / 60)
    app.draw(surface)
    assert app.motion.frame == 15
    # 15/30 of 3" = 1.5" along, on the first leg: (10 + 1.5, 10)
    assert app.motion.positions()["R/1"] == pytest.approx((11.5, 10.0), abs=1e-9)
    assert tuple(surface.get_at(_screen(app, 11.5, 10)))[:3] == red
    assert tuple(surface.get_at(_screen(app, 12, 11)))[:3] != red   # not at its end yet
    assert tuple(surface.get_at(_screen(app, 10, 10)))[:3] != red   # nor at its start
    for _ in range(10):
        app.update(1 / 60)
    app.draw(surface)
    # 25/30 of 3" = 2.5": the 2" first leg, then 0.5" up the second: (12, 10 + 0.5)
    assert app.motion.positions()["R/1"] == pytest.approx((12.0, 10.5), abs=1e-9)
    assert tuple(surface.get_at(_screen(app, 12, 10.5)))[:3] == red
    for _ in range(5):
        app.update(1 / 60)
    assert not app.animating                     # 30 frames: the step as it is
    app.draw(surface)
    # drawing only: the step's table is the rules' and the board is the plain step drawing
    assert app.shown_state is log.steps[1].state
    assert app.shown_state.model("R/1").at == (12.0, 11.0)
    plain = pygame.Surface(app.board_rect.size)
    draw_step(plain, log.steps[1], app.view, events=log.events, overlays=app.overlays, caption=False,
              theme=board_theme(app.board_rect.size))     # the window's plates fit its board
    board = surface.subsurface(app.board_rect)
    assert pygame.image.tobytes(board, "RGB") == pygame.image.tobytes(plain, "RGB")


def test_stepping_back_jumps_and_forward_slides_again():
    before, log = two_steps()
    app = App(before, size=SIZE, steps=log.steps, events=log.events)
    key(app, pygame.K_n)
    app.update(1 / 60)
    key(app, pygame.K_p)                         # back to the start: no slide
    assert app.step_index == 0 and not app.animating
    key(app, pygame.K_n)                         # forward again: from frame 0
    assert app.animating and app.motion.frame == 0
    app.animate_frames = 0                       # 0: moves jump
    key(app, pygame.K_p)
    key(app, pygame.K_n)
    assert not app.animating


def test_play_shows_a_move_sliding_before_the_steps_after_it():
    state = mapfile.load(LESSON)
    session = PlaySession(state, 1)
    session.use_defaults = True
    app = App(state, size=SIZE, play=session)
    moved_at = None
    for _ in range(3000):
        app.update(1 / 60)
        if app.animating and moved_at is None:
            moved_at = app.step_index
            break
        if app.play.finished:
            break
    assert moved_at is not None, "the lesson's pile-in never slid"
    assert step_moves(app.steps[moved_at])
    slid = app.motion.step
    want = slide_frames(step_moves(slid))       # the longest path / 0.1", at most 30
    assert 1 <= want <= MOVE_ANIMATION_FRAMES and app.motion.frames == want
    frames = 1
    while app.animating and app.motion.step is slid:
        # the slide holds the view on its step, however many steps the session adds
        assert app.step_index == moved_at
        app.update(1 / 60)
        frames += 1
    assert frames == want + 1                    # frames 0..want-1 shown, the last update ends it
    # then the view catches up with the newest step (or slides that one's moves)
    assert app.step_index == len(app.steps) - 1


def _length(path):
    return sum(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(path, path[1:]))


def _walked(path, at):
    """How far along ``path`` the point ``at`` lies (inches): the leg it is on (within
    1e-6"), plus its distance along that leg."""
    done = 0.0
    for a, b in zip(path, path[1:]):
        leg = _length([a, b])
        to_a, to_b = _length([a, at]), _length([at, b])
        if abs(to_a + to_b - leg) < 1e-6:
            return done + to_a
        done += leg
    raise AssertionError(f"{at} is not on {path}")


# Two models' moves written by hand: R/1 1" right then 1.5" up (2.5"), R/2 1.2" straight
# down (1.2").  The longest is 2.5", so the slide takes 2.5 / 0.1 = 25 frames.
LONG = [(5.0, 5.0), (6.0, 5.0), (6.0, 6.5)]
SHORT = [(5.0, 8.0), (5.0, 6.8)]


def test_frame_count_is_fixed_by_the_longest_path():
    from tabletop.render.motion import MOVE_INCHES_PER_FRAME
    assert MOVE_INCHES_PER_FRAME == 0.1
    assert slide_frames({"R/1": LONG, "R/2": SHORT}) == 25          # 2.5" / 0.1"
    assert slide_frames({"R/2": SHORT}) == 12                       # 1.2" / 0.1"
    assert slide_frames({"R/1": [(0.0, 0.0), (0.25, 0.0)]}) == 3    # 0.25" / 0.1" = 2.5 -> 3
    assert slide_frames({"R/1": [(0.0, 0.0), (9.0, 0.0)]}) == 30    # 90, at most 30
    assert slide_frames({"R/1": [(1.0, 1.0), (1.0, 1.0)]}) == 1     # no length: one frame
    assert slide_frames({"R/1": LONG}, most=10) == 10


def test_at_frame_k_of_n_each_model_is_k_over_n_of_its_path_along():
    before = state_from(unit("R", "red", [(5, 5), (5, 8)]) + unit("B", "blue", [(9, 6.5)]))
    after = before.with_positions({"R/1": LONG[-1], "R/2": SHORT[-1]})
    log = EventLog()
    log.step("Start", "12.01", before)
    log.add(E.Consolidate(rule="12.08", unit="R", player="red", mode="ongoing", targets=["B"],
                          moves={"R/1": [list(p) for p in LONG], "R/2": [list(p) for p in SHORT]},
                          distances={"R/1": 2.5, "R/2": 1.2}, violations=[], tried=[],
                          max_distance=3.0, starts={"R/1": [5.0, 5.0, 90.0], "R/2": [5.0, 8.0, 90.0]},
                          closest={"R/1": "B/1", "R/2": "B/1"}))
    log.step("R consolidates", "12.08", after)
    app = App(before, size=SIZE, steps=log.steps, events=log.events)
    surface = pygame.Surface(SIZE)
    key(app, pygame.K_n)
    n = app.motion.frames
    assert n == 25                                   # 2.5" / 0.1" a frame
    for k in range(n):
        app.draw(surface)
        assert app.motion.frame == k
        at = app.motion.positions()
        # frame k: R/1 is k/25 x 2.5" = 0.1k" along, R/2 k/25 x 1.2" = 0.048k" along
        assert _walked(LONG, at["R/1"]) == pytest.approx(k / n * 2.5, abs=0.01)
        assert _walked(SHORT, at["R/2"]) == pytest.approx(k / n * 1.2, abs=0.01)
        app.update(1 / 60)
    assert not app.animating                         # the 25th update ends the slide
    assert app.shown_state.model("R/1").at == (6.0, 6.5)
