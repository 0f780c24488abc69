"""Work per frame of ``view --play`` (issue 9): counted, never timed against the machine.

- ``PlaySession.poll`` starts no piece that, costing what the last one did, would end past
  ``FRAME_WORK_SECONDS`` (a fake clock stands in for the pieces' cost);
- ``render.board.draw_unit_outlines`` keeps each unit's drawn outline while the unit does
  not move, so a new step lays out only the moved units' outlines, to the same pixels.
"""

from __future__ import annotations

import pygame
import pytest

from fightkit import state_from, unit
from tabletop.app import interactive
from tabletop.app.interactive import PlaySession
from tabletop.geometry import snapshot
from tabletop.render import board, prims
from tabletop.render.view import View


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    yield


def _state():
    return state_from(unit("R", "red", [(10, 10), (11.5, 10)]) + unit("B", "blue", [(20, 10), (21.5, 10)]))


@pytest.mark.parametrize("piece_ms, pieces", [
    (7.0, 1),    # after one: 7 + 7 = 14 >= 12 ms, stop (the old loop ran a second to 14 ms)
    (5.0, 2),    # 5 + 5 = 10 < 12: a second; then 10 + 5 = 15 >= 12, stop (the old loop: 3, to 15 ms)
    (2.5, 4),    # 2.5 k + 2.5 >= 12 first at k = 4 (10 + 2.5 = 12.5)
    (20.0, 1),   # always at least one piece
])
def test_a_poll_starts_no_piece_it_expects_to_overrun(monkeypatch, piece_ms, pieces):
    assert interactive.FRAME_WORK_SECONDS == 0.012
    clock = [0.0]
    monkeypatch.setattr(interactive.time, "perf_counter", lambda: clock[0])
    session = PlaySession(_state(), 1)
    session.started = True
    done = []

    def work():
        clock[0] += piece_ms / 1000.0
        done.append(1)

    session._work = work
    session.poll()
    assert len(done) == pieces


def test_unit_outlines_are_laid_out_again_only_for_units_that_moved(monkeypatch):
    calls = []
    real = prims.polygon_layer

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(prims, "polygon_layer", counted)
    board._UNIT_SPRITES.clear()
    st = _state()
    view = View(20.0, 0.0, 400.0)          # 20 px an inch, the 20" deep table 400 px high
    surf = pygame.Surface((600, 400))
    board.board_canvas(surf, st, snapshot(st), view)
    # each unit's two 32mm bases 1.5" apart (0.24" gap) share one outline: one fill layer each
    assert len(calls) == 2
    moved = st.with_positions({"R/1": (10.0, 11.0), "R/2": (11.5, 11.0)})   # R 1" up, B stays
    calls.clear()
    surf2 = pygame.Surface((600, 400))
    board.board_canvas(surf2, moved, snapshot(moved), view)
    assert len(calls) == 1                 # R's only: B's outline is kept
    board._UNIT_SPRITES.clear()            # drawn afresh: the same pixels
    fresh = pygame.Surface((600, 400))
    board.board_canvas(fresh, moved, snapshot(moved), view)
    assert len(calls) == 3
    assert pygame.image.tobytes(surf2, "RGB") == pygame.image.tobytes(fresh, "RGB")
