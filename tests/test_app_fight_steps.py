"""Stepping through a resolved Fight phase in the window (``view --fight``): n/p, panel, drawing.

Uses maps/lessons/pile-in.toml with seed 1 through the same ``resolve`` the
``fight`` command uses; the steps are the phase's (start, pile-in step, each
move, Fight step, each fight, consolidation step, end).
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.cli.fight_cmd import resolve

LESSON = str(Path(__file__).resolve().parent.parent / "maps" / "lessons/pile-in.toml")


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1200, 800))
    yield
    pygame.display.quit()


def key(app, k):
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_n_steps_through_the_fight_phase_with_its_rolls():
    state = mapfile.load(LESSON)
    res = resolve(state, seed=1)
    steps = res.log.steps
    titles = [s.title for s in steps]
    assert titles[0] == "Start of the Fight phase" and titles[-1] == "End of the Fight phase"
    app = App(state, LESSON, (1200, 800), steps=steps, events=res.log.events)
    fights = [k for k, s in enumerate(steps) if "fights" in s.title]
    assert fights
    surface = pygame.Surface((1200, 800))
    for _ in range(fights[0]):
        key(app, pygame.K_n)
        app.draw(surface)
    assert app.step_index == fights[0]
    panel = app.panel.texts["step"]
    assert steps[fights[0]].title in panel and "hit roll" in panel
    key(app, pygame.K_p)
    assert app.step_index == fights[0] - 1
    assert app.shown_state == steps[fights[0] - 1].state
