"""``view --fight --play``: the person at the window answers the rules' questions.

The session drives the phase on the rules engine from the window's loop, no
thread (``PlaySession``); the tests drive an ``App`` in play mode with posted
pygame events and ``app.update`` (which lets the session work and takes its
events, steps and questions), never sleeping longer than ``PUMP_SLEEP`` per
frame and failing after ``PUMP_TIMEOUT`` seconds.

Maps:
- tests/scenarios/fight-overrun-and-new-foes.toml: red's R1 and R2 both
  charged, so both are Fights First (fight-phase.txt 12.04 (1)); red is the
  active player and selects first: "which unit fights next?" with options
  R1, R2 in file order, default R1 (``sequence.fight_step``: ``mine[0]``).
- maps/lessons/gambit-challenge.toml: red's Centurion (tac/4) challenges, blue's
  Veteran Sergeant (breachers/4) may accept; in round 1 the Challenger's
  player (red) chooses the first gambit (gambit-challenge.txt Step 2, first
  bullet) and blue may not choose the same one, nor Feint and Riposte
  (first chooser only).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pygame
import pytest

from tabletop.app.app import App
from tabletop.app.interactive import PlaySession, Question, distinct_options
from tabletop.app.play import DEFAULT_COLOUR, OPTION_COLOUR, RING_PAD_PX, RING_WIDTH_PX
from tabletop.board import mapfile
from tabletop.board.state import Decision
from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
OVERRUN = str(ROOT / "tests" / "scenarios" / "fight-overrun-and-new-foes.toml")
GAMBIT = str(ROOT / "maps" / "lessons/gambit-challenge.toml")
SIZE = (1400, 900)
PUMP_TIMEOUT = 30.0     # seconds; a hung resolver fails the test instead of hanging it
PUMP_SLEEP = 0.002

E = pygame.event.Event


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.display.quit()


@pytest.fixture
def play_app(tmp_path):
    """An App in play mode on a map (a copy in ``tmp_path``: the window writes its play
    autosave beside the map); its session is stopped after the test."""
    made = []

    def make(path: str, seed: int = 1) -> App:
        import shutil
        path = shutil.copy(path, tmp_path / os.path.basename(path))
        path = str(path)
        state = mapfile.load(path)
        app = App(state, path, SIZE, play=PlaySession(state, seed))
        made.append(app)
        return app

    yield make
    for app in made:
        app.close()
        assert app.session.finished


def pump(app: App, until) -> None:
    """Run frames until ``until()`` is true (or fail after PUMP_TIMEOUT seconds)."""
    end = time.monotonic() + PUMP_TIMEOUT
    while not until():
        assert time.monotonic() < end, "the resolver never got there"
        app.update(0.016)
        time.sleep(PUMP_SLEEP)


def next_question(app: App, choice: str | None = None) -> Question:
    """Answer every question before one of ``choice`` with Enter (the default); return it."""
    while True:
        pump(app, lambda: app.play.question is not None or app.play.finished)
        q = app.play.question
        assert q is not None, f"no {choice} question came"
        if choice is None or q.choice == choice:
            return q
        key(app, pygame.K_RETURN)


def key(app: App, k: int) -> None:
    app.handle(E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def click_button(app: App, button) -> None:
    pos = button.rect.center
    app.handle(E(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(E(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(0.016)


def finish(app: App) -> None:
    pump(app, lambda: app.play.finished)
    assert app.play.outcome == "resolved", app.messages


def test_choosing_a_non_default_unit_makes_it_fight_first(play_app):
    app = play_app(OVERRUN)
    q = next_question(app, "fight")
    assert (q.player, q.options, q.default) == ("red", ["R1", "R2"], "R1")
    assert q.rule == "fight-phase.txt 12.04 (1)"
    panel = app.play.ask
    assert panel.lines[0] == "red: which unit fights next? (fight-phase.txt 12.04 (1))"
    assert [b.text for b in panel.buttons] == ["1: R1  [default]", "2: R2"]
    assert panel.rest_button.text == "use the default for the rest (d)"
    # the options are ringed on the board: R1 (default) green, R2 cyan.  A ring is drawn
    # RING_PAD_PX outside the base's circle (radius 16/25.4" = 0.63") with RING_WIDTH_PX
    # width, so the pixel one inside the ring's outer edge, right of the centre, has its colour.
    surf = pygame.Surface(SIZE)
    app.draw(surf)
    geo, v = app.shown_geo, app.view
    for mid, colour in (("R1/1", DEFAULT_COLOUR), ("R2/1", OPTION_COLOUR)):
        m = geo.model(mid)
        x, y = v.to_screen(m.x, m.y)
        r = round(m.base.radius * v.scale + RING_PAD_PX)
        assert RING_WIDTH_PX >= 2
        assert tuple(surf.get_at((round(x) + r - 1, round(y))))[:3] == colour
    # p steps back while the question waits; n comes back to it
    shown = app.step_index
    assert shown == len(app.steps) - 1 and shown > 0
    key(app, pygame.K_p)
    assert app.step_index == shown - 1 and app.play.question is q
    key(app, pygame.K_n)
    assert app.step_index == shown
    click_button(app, panel.buttons[1])
    assert q.answered and q.answer == "R2" and app.play.question is not q
    rest = next_question(app)
    key(app, pygame.K_d)                      # the default policy answers the rest
    finish(app)
    chosen = [(e["player"], e["unit"], e["fights_first"]) for e in app.events
              if e.type == "selected_to_fight"]
    assert chosen[0] == ("red", "R2", True)
    assert ("red", "R1", True) in chosen[1:]
    decided = [(e["choice"], e["value"], e["by"]) for e in app.events if e.type == "decision"]
    assert ("fight", "R2", "window") in decided
    # the answer ``d`` gave is the default policy's, and recorded so (audit 9), not the person's
    assert (rest.choice, rest.default, "default") in decided
    assert all(by != "window" for c, v, by in decided[decided.index(("fight", "R2", "window")) + 1:])
    assert app.session.use_defaults
    assert app.step_index == len(app.steps) - 1      # it followed the phase to its end
    assert app.steps[-1].title == "End of the Fight phase"


def test_gambit_challenge_asks_accept_and_gambits(play_app):
    app = play_app(GAMBIT, seed=6)
    q = next_question(app, "accept_challenge")
    assert (q.player, q.options, q.default) == ("blue", ["breachers/4", "refuse"], "breachers/4")
    assert [b.text for b in app.play.ask.buttons] == ["1: breachers/4 Veteran Sergeant  [default]",
                                                      "2: refuse"]
    key(app, pygame.K_1)
    q = next_question(app, "gambit")
    assert q.player == "red" and q.context["round"] == 1 and q.context["first"] is True
    assert "Feint and Riposte" in q.options and len(q.options) == 9
    k = q.options.index("Flurry of Blows")
    assert k != q.default_index
    click_button(app, app.play.ask.buttons[k])
    q2 = next_question(app, "gambit")
    assert q2.player == "blue" and q2.context["chosen"] == {"red": "Flurry of Blows"}
    assert "Flurry of Blows" not in q2.options and "Feint and Riposte" not in q2.options
    assert app.play.ask.lines[1] == "already chosen: red Flurry of Blows"
    key(app, pygame.K_3)
    blue = q2.options[2]
    next_question(app)
    key(app, pygame.K_d)
    finish(app)
    gambits = [(e["player"], e["gambit"], e["round"]) for e in app.events if e.type == "gambit_chosen"]
    assert gambits[:2] == [("red", "Flurry of Blows", 1), ("blue", blue, 1)]
    # before them: pile-in order (red, blue) and the challenge (red issues) by Enter
    assert app.session.decisions.answers[:6] == [
        ("red", "pile_in", "tac"), ("blue", "pile_in", "breachers"),
        ("red", "issue_challenge", "tac/4"), ("blue", "accept_challenge", "breachers/4"),
        ("red", "gambit", "Flurry of Blows"), ("blue", "gambit", blue)]


def test_closing_the_window_mid_question_stops_the_session(play_app):
    app = play_app(GAMBIT, seed=6)
    q = next_question(app, "gambit")
    assert app.session.running and not q.answered
    assert not [t for t in threading.enumerate() if t.name == "tabletop-resolver"]   # no thread
    # answers given at the window are not saved: the close button asks first (y quits; they
    # stay in the play autosave, app.play)
    assert app.handle(E(pygame.QUIT)) is True and app.messages[-1].startswith("quit with ")
    assert app.handle(E(pygame.KEYDOWN, key=pygame.K_y, mod=0, unicode="y", scancode=0)) is False
    assert not app.session.running
    assert app.session.poll()[-1] == ("stopped", None)
    assert app.session.resolution is None


def test_a_click_on_a_ringed_model_answers(play_app):
    app = play_app(OVERRUN)
    next_question(app, "fight")
    m = app.shown_geo.model("R2/1")
    pos = tuple(round(c) for c in app.view.to_screen(m.x, m.y))
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(E(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pump(app, lambda: ("red", "fight", "R2") in app.session.decisions.answers)
    next_question(app)
    key(app, pygame.K_d)
    finish(app)
    first = next(e for e in app.events if e.type == "selected_to_fight")
    assert first["unit"] == "R2"


def test_a_click_on_an_options_number_answers_with_that_option(play_app):
    # the number drawn over the board answers as its button does, even where it sits over a
    # model that is no option (the audit's badge over another unit's model)
    app = play_app(OVERRUN)
    q = next_question(app, "fight")
    app.draw(pygame.Surface(SIZE))
    badge, k = next((r, k) for r, k in app.play.badges if k != q.default_index)
    x, y = badge.center
    pos = (x + app.board_rect.x, y + app.board_rect.y)
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(E(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    chosen = q.options[k]
    pump(app, lambda: ("red", "fight", chosen) in app.session.decisions.answers)
    next_question(app)
    key(app, pygame.K_d)
    finish(app)


def test_scripted_decisions_answer_before_the_window():
    from tabletop.rules.decisions import Decisions
    d = Decisions([Decision("red", "fight", "R2")])
    found, value, _, _ = d.take_scripted("red", "fight", ["R1", "R2"], "R1", "fight-phase.txt 12.04")
    assert (found, value) == (True, "R2")
    # nothing scripted for blue: the window (or the default policy) answers
    assert d.take_scripted("blue", "fight", ["B"], "B")[0] is False


def test_a_question_takes_only_its_options():
    q = Question(1, "red", "fight", ["R1", "R2"], "R1")
    with pytest.raises(ValueError):
        q.reply("B")
    q.reply_option(1)
    assert q.answered and q.answer == "R2"
    with pytest.raises(ValueError):
        q.reply("R1")


def test_distinct_options_drop_the_scripting_aliases():
    # fight_phase.moving._target_options(["A", "B"]): A, B, [A, B], then [A], [B] for scripts
    assert distinct_options(["A", "B", ["A", "B"], ["A"], ["B"]]) == ["A", "B", ["A", "B"]]
    assert distinct_options([True, False]) == [True, False]


def test_view_play_opens_and_closes_cleanly(monkeypatch):
    real_get = pygame.event.get
    frames = []

    def fake_get(*args, **kwargs):
        real_get()
        frames.append(1)
        return [E(pygame.QUIT)] if len(frames) >= 5 else []

    monkeypatch.setattr(pygame.event, "get", fake_get)
    assert main(["view", OVERRUN, "--fight", "--play", "--seed", "1", "--size", "1000x700"]) == 0
    assert not [t for t in threading.enumerate() if t.name == "tabletop-resolver" and t.is_alive()]
    pygame.display.set_mode(SIZE)       # the window closed the display; the module's fixture needs one


def test_questions_in_words():
    from tabletop.app.question_text import option_label, question_line
    q = Question(1, "blue", "fight_type", ["normal", "overrun"], "normal",
                 "fight-phase.txt 12.05", {"unit": "C"})
    assert question_line(q) == "blue: what kind of fight does C make? (fight-phase.txt 12.05)"
    q = Question(2, "red", "some_new_choice", ["a", "b"], "a")
    assert question_line(q) == "red: some new choice?"
    assert [option_label(o) for o in (True, ["A", "B"], "none")] == ["yes", "A + B", "none (no more)"]


def test_a_failing_resolution_reaches_the_window_as_lines(play_app, monkeypatch, capsys):
    from tabletop.app import interactive
    from tabletop.errors import TabletopError
    from tabletop.rules.engine.machine import Machine, Row
    from tabletop.rules.registry import Ruleset

    def bad_map(state):
        raise TabletopError(["map.toml: units[0]: no weapons to fight with"])

    def bug(state):
        def boom(st):
            raise ZeroDivisionError("division by zero")
        m = Machine([Row("start", "Start", "fight-phase.txt 12.01", boom)], "start")
        return m, m.begin(state, None)

    for phase, line in ((bad_map, "map.toml: units[0]: no weapons to fight with"),
                        (bug, "the resolution failed: ZeroDivisionError: division by zero")):
        monkeypatch.setattr(interactive, "find_ruleset", lambda name, f=phase: Ruleset(name, phase=f))
        app = play_app(OVERRUN)
        ctl = app.play
        pump(app, lambda c=ctl: c.finished)
        assert app.play.outcome == "failed" and app.messages[-1] == line
    assert "ZeroDivisionError" in capsys.readouterr().err     # a bug keeps its traceback
