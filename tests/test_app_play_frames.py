"""``view --play`` frames (issue 9): the work a frame does is counted, never timed.

- ``PlaySession.poll`` does pieces until their counted work reaches ``POLL_WORK``
  (``PIECE_WORK`` a piece, ``SOLVER_STEP_WORK`` a solver step, ``NEW_STEP_WORK`` a
  step closed): no clock is read in the play path, so the same map, seed and
  answers give the same messages at the same frame index on a fast machine and
  on a slow one, and the same run (events, answers, saved ``[[decisions]]``).
  (Within one process, a move solved before is kept, ``fight_phase.moving._SOLVED``,
  and costs no solver steps again: each run here starts with none kept, as a new
  ``view --play`` does.)

Map: tests/scenarios/fight-overrun-and-new-foes.toml (red's R1 and R2 charged,
both Fights First; pile-in and consolidation moves solved in solver steps), seed 1.
The window is driven by posted pygame events (``pygame.event.post``) read back
with ``pygame.event.get`` each frame, as the window's loop does.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from tabletop.app import interactive, play
from tabletop.app.app import App
from tabletop.app.interactive import PlaySession
from tabletop.board import mapfile
from tabletop.geometry import pieces
from tabletop.rules.engine import machine
from tabletop.rules.fight_phase import moving

ROOT = Path(__file__).resolve().parent.parent
OVERRUN = str(ROOT / "tests" / "scenarios" / "fight-overrun-and-new-foes.toml")
SIZE = (1400, 900)
MAX_FRAMES = 2000
CLOCKS = ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns",
          "process_time", "process_time_ns")


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.display.quit()


class _NoClock:
    """While active, every clock of the ``time`` module raises."""

    def __init__(self, monkeypatch):
        self.mp = monkeypatch
        self.real = {name: getattr(time, name) for name in CLOCKS}

    def __enter__(self):
        for name in CLOCKS:
            def refuse(*_a, _name=name):
                raise AssertionError(f"time.{_name} read in the play path")
            self.mp.setattr(time, name, refuse)

    def __exit__(self, *exc):
        for name, fn in self.real.items():
            self.mp.setattr(time, name, fn)


def _summary(kind: str, item) -> tuple:
    if kind == "event":
        return (kind, item.type, tuple(sorted((k, repr(v)) for k, v in item.to_dict().items())))
    if kind == "step":
        return (kind, item.title)
    if kind == "question":
        return (kind, item.number, item.player, item.choice, repr(item.options))
    return (kind,)


def _drive(monkeypatch, tmp_path, name: str) -> tuple[list[list[tuple]], list, str]:
    """Play OVERRUN in an App: each frame reads the posted pygame events, updates (the
    session's poll, with every clock refusing) and draws.  A question opened at frame k
    is answered by a key posted for frame k + 1: option 2 for the first question, Enter
    (the default) for the others.  Returns the messages of each frame's poll, the
    decisions recorded, and the saved run's text."""
    # each run starts with no solved moves kept (``moving._SOLVED``): a move solved before
    # in this process costs no solver steps, as in a new ``view --play`` process it would
    monkeypatch.setattr(moving, "_SOLVED", {})
    state = mapfile.load(OVERRUN)
    session = PlaySession(state, 1)
    app = App(state, OVERRUN, SIZE, play=session)
    guard = _NoClock(monkeypatch)
    real_poll = session.poll
    frames: list[list[tuple]] = []

    def poll():
        with guard:
            out = real_poll()
        frames[-1] += [_summary(k, v) for k, v in out]
        return out

    session.poll = poll
    real_controller_poll = app.play.poll

    def controller_poll():
        with guard:                     # the window's side of the play path too
            real_controller_poll()

    app.play.poll = controller_poll
    surface = pygame.Surface(SIZE)
    pygame.event.clear()
    asked = 0
    while not app.play.finished and len(frames) < MAX_FRAMES:
        frames.append([])
        for ev in pygame.event.get():
            app.handle(ev)
        app.update(1.0 / 60.0)
        app.draw(surface)
        if app.play.question is not None:
            k = pygame.K_2 if asked == 0 else pygame.K_RETURN
            asked += 1
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="",
                                                 scancode=0))
    assert app.play.outcome == "resolved", app.messages
    target = str(tmp_path / f"{name}.toml")
    assert app.play.save(target) == target
    decided = [(d.player, d.choice, d.value, d.by) for d in session.decisions.history]
    app.close()
    return frames, decided, Path(target).read_text()


def test_the_same_answers_give_the_same_frames_on_a_fast_and_a_slow_machine(monkeypatch,
                                                                             tmp_path):
    fast, fast_decided, fast_saved = _drive(monkeypatch, tmp_path, "fast")
    # a slower machine: every row the engine runs costs 3 ms more (the old poll, which ran
    # pieces for about 12 ms of perf_counter, then did fewer pieces a frame)
    real_advance = machine.Machine.advance

    def slow_advance(self, *a, **k):
        end = time.perf_counter() + 0.003
        while time.perf_counter() < end:
            pass
        return real_advance(self, *a, **k)

    monkeypatch.setattr(machine.Machine, "advance", slow_advance)
    # the slow machine may read the clock inside the rules here only: its own busy wait
    monkeypatch.setattr(_NoClock, "__enter__", lambda self: None)
    slow, slow_decided, slow_saved = _drive(monkeypatch, tmp_path, "slow")
    assert len(fast) == len(slow)
    for k, (a, b) in enumerate(zip(fast, slow)):
        assert a == b, f"frame {k} differs"
    events = [m for f in fast for m in f if m[0] == "event"]
    assert len(events) > 20
    assert sum(1 for f in fast for m in f if m[0] == "question") >= 5
    assert fast_decided == slow_decided
    assert fast_decided[0][2] == "R2" and fast_decided[0][3] == "window"   # option 2 of R1, R2
    assert fast_saved.replace("slow", "fast") == slow_saved.replace("slow", "fast")


def test_nothing_in_the_play_path_reads_a_clock(monkeypatch, tmp_path):
    frames, decided, _ = _drive(monkeypatch, tmp_path, "run")   # _NoClock raises if read
    # the overrun map: its pile-ins and consolidations are solved in many solver steps, one
    # a frame at most, so the phase takes more frames than it has questions
    assert len(frames) > len(decided)


def _session() -> PlaySession:
    s = PlaySession(mapfile.load(OVERRUN), 1)
    s.started = True
    return s


@pytest.mark.parametrize("script, done", [
    (["light"] * 20, 8),                      # 8 light pieces: 8 x PIECE_WORK = 8 = POLL_WORK
    (["light", "light", "solve", "light"], 3),  # 1 + 1 + (1 + 8) = 11 >= 8 after the third
    (["solve", "light"], 1),                  # one solver step: 1 + 8 = 9, a frame's work
    (["light"] * 3 + ["step", "light"], 4),   # a step closed: 3 + (1 + 8) = 12 after the fourth
    (["light"] * 7 + ["solve"], 8),           # 7 < 8: the eighth piece runs, a solve included
])
def test_a_poll_counts_its_work(script, done):
    assert (interactive.POLL_WORK, interactive.PIECE_WORK, interactive.SOLVER_STEP_WORK,
            interactive.NEW_STEP_WORK) == (8, 1, 8, 8)
    s = _session()
    ran = []

    def work():
        what = script[len(ran)]
        ran.append(what)
        if what == "solve":             # one solver step, cut there (the row runs again)
            s.budget.total += 1
            raise pieces.OutOfSteps("1 steps this piece")
        if what == "step":
            s.log.out.append(("step", None))

    s._work = work
    s.poll()
    assert len(ran) == done


def _real_news() -> list[tuple[str, object]]:
    """The first messages of a real OVERRUN run (default answers): events and steps."""
    s = PlaySession(mapfile.load(OVERRUN), 1)
    s.use_defaults = True
    s.start()
    news: list = []
    while sum(1 for k, _ in news if k == "step") < 3:
        news += s.poll()
    return news


def test_the_window_shows_one_step_a_frame_and_a_solving_frames_news_the_next():
    news = _real_news()
    first = [m for m in news if m[0] == "step"][:2]
    state = mapfile.load(OVERRUN)
    app = App(state, OVERRUN, SIZE, play=PlaySession(state, 1))
    app.animate_frames = 0                  # no slides: a shown step is drawn at once
    session = app.play.session
    script = [([("event", news[0][1]), first[0], first[1]], 9),   # a solver step: 1 + 8 = 9
              ([], 1), ([], 1), ([], 1)]
    calls = []

    def poll():
        out, session.work = script[len(calls)]
        calls.append(out)
        return out

    session.poll = poll
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    app.panel.flush()                       # the window's first texts laid out: nothing waits
    assert not app.play._window_busy()
    shown = []
    for _ in range(4):
        app.update(1.0 / 60.0)
        app.draw(surface)
        shown.append((len(calls), len(app.steps), app.play.panel_boxes(1)))
    assert play.HOLD_AFTER_SOLVE and play.REST_FRAMES == 2
    # frame 1: the poll ran a solver step (work 9 >= SOLVER_STEP_WORK 8) and closed steps:
    #   held, nothing shown;
    # frame 2: no poll; the first step shown (one a frame), the second held;
    # frame 3: no poll; the second step shown (the session has rested 2 frames in a row);
    # frame 4: REST_FRAMES = 2 frames rested: the session polls whatever the window draws.
    # Panel text boxes laid out (of 1 allowed): none in frames 2 and 3, which draw a new step
    assert shown == [(1, 0, 1), (1, 1, 0), (1, 2, 0), (2, 2, 1)]
    assert [st.title for st in app.steps] == [first[0][1].title, first[1][1].title]
    app.close()
