"""Work per frame of ``view --play`` (issue 9): counted, never timed against the machine.

- the work of a poll is counted (``PIECE_WORK``, ``SOLVER_STEP_WORK``, ``NEW_STEP_WORK``
  against ``POLL_WORK``): tests/test_app_play_frames.py;
- ``render.board.draw_unit_outlines`` keeps each unit's drawn outline while the unit does
  not move, so a new step lays out only the moved units' outlines, to the same pixels.
"""

from __future__ import annotations

import pygame
import pytest
from fightkit import state_from, unit

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
